//! Rejects what the executor does not support, every site with its source
//! location and instruction text.
//!
//! Rejected: atomics (`atomicrmw`, `cmpxchg`, `fence`, atomic `load` and
//! `store`), `va_arg`, scalable vectors, `ppc_fp128`, `x86_mmx` or `x86_amx`, inline assembly (calls and
//! module-level `asm`), `indirectbr` (computed goto), `callbr` (asm goto),
//! and exception handling (`invoke`, `resume`, `landingpad`, `catchpad`,
//! `cleanuppad`, `catchswitch`, `catchret`, `cleanupret`); and, for i386,
//! `fp128`.

use std::collections::HashSet;
use std::fmt;

use llvm_ir::types::{FPType, NamedStructDef, Types};
use llvm_ir::{HasDebugLoc, Instruction, Module, Operand, Terminator, Type, TypeRef};

use crate::program::Loc;
use crate::special::{instruction_operands, terminator_operands};
use crate::text::TextFunction;

/// One use of an unsupported construct.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsupportedSite {
    /// The function containing it (empty for module-level inline assembly).
    pub function: String,
    /// Its source location (the function's line when the instruction has
    /// none), when the module has debug information.
    pub loc: Option<Loc>,
    /// What is unsupported, e.g. "atomic read-modify-write (atomicrmw)".
    pub what: String,
    /// The instruction as llvm-dis prints it.
    pub instruction: String,
    /// Index of the basic block in the function.
    pub block: usize,
    /// Index of the instruction in the block (the block's instruction
    /// count for its terminator).
    pub index: usize,
}

impl fmt::Display for UnsupportedSite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = &self.loc {
            write!(f, "{loc}: ")?;
        }
        if !self.function.is_empty() {
            write!(f, "in function `{}`: ", self.function)?;
        }
        write!(f, "unsupported {}: `{}`", self.what, self.instruction)
    }
}

/// What is unsupported about the instruction itself, if anything.
fn instruction_kind(i: &Instruction) -> Option<&'static str> {
    use Instruction as I;
    Some(match i {
        I::AtomicRMW(_) => "atomic read-modify-write (atomicrmw)",
        I::CmpXchg(_) => "atomic compare-and-exchange (cmpxchg)",
        I::Fence(_) => "memory fence (fence)",
        I::Load(l) if l.atomicity.is_some() => "atomic load",
        I::Store(s) if s.atomicity.is_some() => "atomic store",
        I::VAArg(_) => "va_arg instruction",
        I::LandingPad(_) | I::CatchPad(_) | I::CleanupPad(_) => "exception handling",
        I::Call(c) if c.function.is_left() => "inline assembly",
        _ => return None,
    })
}

/// What is unsupported about the terminator itself, if anything.
fn terminator_kind(t: &Terminator) -> Option<&'static str> {
    use Terminator as T;
    Some(match t {
        T::IndirectBr(_) => "indirect branch (computed goto)",
        T::CallBr(_) => "asm goto (callbr)",
        T::Invoke(_) | T::Resume(_) | T::CleanupRet(_) | T::CatchRet(_) | T::CatchSwitch(_) => "exception handling",
        _ => return None,
    })
}

/// The first unsupported type inside `ty` (vectors, ppc_fp128, x86_mmx,
/// x86_amx), looking through arrays and structs.
fn bad_type(ty: &TypeRef, types: &Types, i386: bool, seen: &mut HashSet<String>) -> Option<String> {
    match ty.as_ref() {
        // clang-14's i386 code passes binary128 values to libgcc's
        // routines in a way they do not read (measured: 0 + 1.5 gives 0).
        Type::FPType(FPType::FP128) if i386 => Some("type fp128 (__float128) under ILP32".to_string()),
        Type::VectorType { scalable: true, .. } => Some(format!("scalable vector type `{ty}`")),
        Type::VectorType { element_type, .. } => bad_type(element_type, types, i386, seen),
        Type::FPType(FPType::PPC_FP128) => Some("type ppc_fp128".to_string()),
        Type::X86_MMXType => Some("type x86_mmx".to_string()),
        Type::X86_AMXType => Some("type x86_amx".to_string()),
        Type::ArrayType { element_type, .. } => bad_type(element_type, types, i386, seen),
        Type::StructType { element_types, .. } => element_types.iter().find_map(|t| bad_type(t, types, i386, seen)),
        Type::NamedStructType { name } => {
            if !seen.insert(name.clone()) {
                return None;
            }
            match types.named_struct_def(name) {
                Some(NamedStructDef::Defined(t)) => bad_type(t, types, i386, seen),
                _ => None,
            }
        }
        _ => None,
    }
}

fn operand_type_problem(ops: &[&Operand], types: &Types, i386: bool) -> Option<String> {
    ops.iter()
        .filter(|op| !matches!(op, Operand::MetadataOperand))
        .find_map(|op| bad_type(&types.type_of(*op), types, i386, &mut HashSet::new()))
}

/// Every unsupported site of `module`, in module order; `text` is the
/// module's llvm-dis text, aligned with `module.functions`.
pub(crate) fn validate(module: &Module, text: &[TextFunction]) -> Vec<UnsupportedSite> {
    let types = &module.types;
    let i386 = module.target_triple.as_deref().is_some_and(crate::program::is_i386);
    let mut sites = Vec::new();
    if !module.inline_assembly.trim().is_empty() {
        sites.push(UnsupportedSite {
            function: String::new(),
            loc: None,
            what: "module-level inline assembly".to_string(),
            instruction: format!("module asm \"{}\"", module.inline_assembly.trim()),
            block: 0,
            index: 0,
        });
    }
    for (func, tf) in module.functions.iter().zip(text) {
        for (b, block) in func.basic_blocks.iter().enumerate() {
            let mut report = |idx: usize, what: String, dl: &Option<llvm_ir::DebugLoc>| {
                sites.push(UnsupportedSite {
                    function: func.name.clone(),
                    // Prologue code (ABI coercions) has no `!dbg`: fall
                    // back to the function's own line.
                    loc: dl.as_ref().or(func.debugloc.as_ref()).map(Loc::from_debugloc),
                    what,
                    instruction: tf.blocks[b][idx].clone(),
                    block: b,
                    index: idx,
                });
            };
            for (idx, inst) in block.instrs.iter().enumerate() {
                let problem = instruction_kind(inst).map(str::to_string).or_else(|| {
                    let result = inst
                        .try_get_result()
                        .and_then(|_| bad_type(&types.type_of(inst), types, i386, &mut HashSet::new()));
                    result.or_else(|| operand_type_problem(&instruction_operands(inst), types, i386))
                });
                if let Some(what) = problem {
                    report(idx, what, inst.get_debug_loc());
                }
            }
            let term = &block.term;
            let problem = terminator_kind(term)
                .map(str::to_string)
                .or_else(|| operand_type_problem(&terminator_operands(term), types, i386));
            if let Some(what) = problem {
                report(block.instrs.len(), what, term.get_debug_loc());
            }
        }
    }
    sites
}
