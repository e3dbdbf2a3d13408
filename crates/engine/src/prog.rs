//! An index over the loaded module: functions by name, blocks by name,
//! loop headers, function addresses, branch counts for coverage.

use crate::layout::Layout;
use fpsym_frontend::Program;
use llvm_ir::{Function, Module, Name, Terminator};
use std::collections::HashMap;

/// Addresses of functions (for function pointers) start here, below every
/// data object.
pub const FUNCTION_BASE: u64 = 0x1000;

/// What a call targets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Callee {
    /// A function with a body (index into `funcs`).
    Defined(usize),
    /// A declaration only (a hook or an external function).
    Declared(String),
}

/// The program as the executor sees it.
pub struct Prog<'p> {
    /// The frontend's program (special float constants, files).
    pub program: &'p Program,
    /// The module.
    pub module: &'p Module,
    /// Type layout.
    pub layout: Layout<'p>,
    /// Defined functions.
    pub funcs: Vec<&'p Function>,
    /// Defined functions by name.
    pub func_index: HashMap<String, usize>,
    /// Per function: block name → index.
    pub blocks: Vec<HashMap<Name, usize>>,
    /// Per function, per block: is it a loop header (the target of a
    /// branch from a block at the same or a later position)?
    pub loop_headers: Vec<Vec<bool>>,
    /// Function address → callee.
    pub fn_at: HashMap<u64, Callee>,
    /// Function name → address.
    pub fn_addr: HashMap<String, u64>,
    /// Per function: true if it comes from the user's sources (not the C
    /// runtime or a library without debug information).
    pub user: Vec<bool>,
    /// Per function: true if it is fpsym's own C runtime (strtod, ...),
    /// which stands for the C library.
    pub runtime: Vec<bool>,
    /// Branch edges in the user's functions (2 per conditional branch, one
    /// per switch case plus the default).
    pub branch_edges: usize,
    /// Per function: its branch edges when it is the user's, else 0.
    pub edges_of: Vec<usize>,
    /// Instructions the executor does not support, by (function, block,
    /// instruction index; the terminator is at the block's length): the
    /// site's message (location, construct, instruction text).
    pub unsupported: HashMap<(usize, usize, usize), String>,
    /// Per function: the numbering of its registers (parameters, then
    /// instruction results), shared by its frames' [`crate::state::Regs`].
    pub reg_names: Vec<std::sync::Arc<crate::state::RegNames>>,
}

/// The successor blocks a terminator names (a switch's cases, then its
/// default).
pub(crate) fn successors(t: &Terminator) -> Vec<&Name> {
    match t {
        Terminator::Br(b) => vec![&b.dest],
        Terminator::CondBr(c) => vec![&c.true_dest, &c.false_dest],
        Terminator::Switch(s) => {
            let mut v: Vec<&Name> = s.dests.iter().map(|(_, n)| n).collect();
            v.push(&s.default_dest);
            v
        }
        _ => vec![],
    }
}

impl<'p> Prog<'p> {
    /// Empty registers for a frame of function `func`.
    pub fn regs(&self, func: usize) -> crate::state::Regs {
        crate::state::Regs::new(self.reg_names[func].clone())
    }

    /// Indexes `program`; `is_user` tells whether a function's source file is the user's.
    pub fn new(program: &'p Program, is_user: impl Fn(&Function) -> bool) -> Prog<'p> {
        let module = &program.module;
        let funcs: Vec<&Function> = module.functions.iter().collect();
        let func_index: HashMap<String, usize> = funcs.iter().enumerate().map(|(i, f)| (f.name.clone(), i)).collect();
        let mut blocks = Vec::new();
        let mut loop_headers = Vec::new();
        let mut user = Vec::new();
        let mut runtime = Vec::new();
        let mut branch_edges = 0;
        let mut edges_of = Vec::new();
        let mut reg_names = Vec::new();
        for f in &funcs {
            let map: HashMap<Name, usize> = f
                .basic_blocks
                .iter()
                .enumerate()
                .map(|(i, b)| (b.name.clone(), i))
                .collect();
            let mut headers = vec![false; f.basic_blocks.len()];
            for (i, b) in f.basic_blocks.iter().enumerate() {
                for s in successors(&b.term) {
                    if let Some(&j) = map.get(s) {
                        if j <= i {
                            headers[j] = true;
                        }
                    }
                }
            }
            let u = is_user(f);
            let mut edges = 0;
            if u {
                for b in &f.basic_blocks {
                    edges += match &b.term {
                        Terminator::CondBr(_) => 2,
                        Terminator::Switch(s) => s.dests.len() + 1,
                        _ => 0,
                    };
                }
            }
            branch_edges += edges;
            edges_of.push(edges);
            user.push(u);
            runtime.push(f.debugloc.as_ref().is_some_and(|d| {
                d.filename.contains("fpsym-runtime")
                    || d.directory.as_deref().is_some_and(|x| x.contains("fpsym-runtime"))
            }));
            blocks.push(map);
            loop_headers.push(headers);
            let params = f.parameters.iter().map(|p| &p.name);
            let results = f
                .basic_blocks
                .iter()
                .flat_map(|b| b.instrs.iter().filter_map(|i| i.try_get_result()));
            reg_names.push(std::sync::Arc::new(crate::state::RegNames::new(params.chain(results))));
        }
        let mut fn_at = HashMap::new();
        let mut fn_addr = HashMap::new();
        let mut next = FUNCTION_BASE;
        for (i, f) in funcs.iter().enumerate() {
            fn_at.insert(next, Callee::Defined(i));
            fn_addr.insert(f.name.clone(), next);
            next += 16;
        }
        for d in &module.func_declarations {
            fn_at.insert(next, Callee::Declared(d.name.clone()));
            fn_addr.insert(d.name.clone(), next);
            next += 16;
        }
        let unsupported = program
            .unsupported_sites()
            .iter()
            .filter_map(|site| {
                let f = *func_index.get(&site.function)?;
                Some(((f, site.block, site.index), site.to_string()))
            })
            .collect();
        Prog {
            program,
            unsupported,
            module,
            layout: Layout::new(module),
            funcs,
            func_index,
            blocks,
            loop_headers,
            fn_at,
            fn_addr,
            user,
            runtime,
            branch_edges,
            edges_of,
            reg_names,
        }
    }

    /// The branch edges of the user's functions a run from `entry` can
    /// execute: those of `entry` and of every function it may call,
    /// directly or, where a function it reaches calls through a pointer
    /// (its own, or the C runtime's `qsort`), every function whose
    /// address the program takes (in an instruction or a global's
    /// initializer).
    pub fn branch_edges_from(&self, entry: &str) -> usize {
        let Some(&start) = self.func_index.get(entry) else {
            return self.branch_edges;
        };
        let mut seen = vec![false; self.funcs.len()];
        seen[start] = true;
        let mut todo = vec![start];
        let mut indirect = false;
        while let Some(f) = todo.pop() {
            let mut found = Vec::new();
            for b in &self.funcs[f].basic_blocks {
                for i in &b.instrs {
                    if let llvm_ir::Instruction::Call(c) = i {
                        match &c.function {
                            either::Either::Right(o) => match self.function_of(o) {
                                Some(g) => found.push(g),
                                None => indirect |= !self.declared(o),
                            },
                            either::Either::Left(_) => {}
                        }
                    }
                }
            }
            if indirect {
                indirect = false;
                found.extend(self.address_taken());
            }
            for g in found {
                if !std::mem::replace(&mut seen[g], true) {
                    todo.push(g);
                }
            }
        }
        seen.iter()
            .zip(&self.edges_of)
            .filter(|(s, _)| **s)
            .map(|(_, e)| e)
            .sum()
    }

    /// The defined functions whose address the module takes: as an
    /// operand other than a call's callee, or in a global's initializer.
    fn address_taken(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let operand = |o: &llvm_ir::Operand, out: &mut Vec<usize>| {
            if let llvm_ir::Operand::ConstantOperand(k) = o {
                functions_named(k, &self.func_index, out);
            }
        };
        for f in &self.funcs {
            for b in &f.basic_blocks {
                for i in &b.instrs {
                    use llvm_ir::Instruction as I;
                    match i {
                        I::Call(c) => c.arguments.iter().for_each(|(o, _)| operand(o, &mut out)),
                        I::Store(x) => operand(&x.value, &mut out),
                        I::Select(x) => [&x.true_value, &x.false_value]
                            .into_iter()
                            .for_each(|o| operand(o, &mut out)),
                        I::Phi(x) => x.incoming_values.iter().for_each(|(o, _)| operand(o, &mut out)),
                        I::PtrToInt(x) => operand(&x.operand, &mut out),
                        I::BitCast(x) => operand(&x.operand, &mut out),
                        I::ICmp(x) => [&x.operand0, &x.operand1]
                            .into_iter()
                            .for_each(|o| operand(o, &mut out)),
                        _ => {}
                    }
                }
                if let Terminator::Ret(r) = &b.term {
                    if let Some(o) = &r.return_operand {
                        operand(o, &mut out);
                    }
                }
            }
        }
        for g in &self.module.global_vars {
            if let Some(k) = &g.initializer {
                functions_named(k, &self.func_index, &mut out);
            }
        }
        out
    }

    /// The defined function an operand names (through bitcasts).
    fn function_of(&self, o: &llvm_ir::Operand) -> Option<usize> {
        let llvm_ir::Operand::ConstantOperand(k) = o else {
            return None;
        };
        match strip_casts(k) {
            llvm_ir::Constant::GlobalReference {
                name: Name::Name(n), ..
            } => self.func_index.get(n.as_str()).copied(),
            _ => None,
        }
    }

    /// Whether an operand names a declared (not defined) function, or an
    /// inline-asm callee: a direct call outside the module.
    fn declared(&self, o: &llvm_ir::Operand) -> bool {
        let llvm_ir::Operand::ConstantOperand(k) = o else {
            return false;
        };
        matches!(strip_casts(k), llvm_ir::Constant::GlobalReference { .. })
    }
}

/// `k` without the bitcasts around it.
pub(crate) fn strip_casts(mut k: &llvm_ir::Constant) -> &llvm_ir::Constant {
    while let llvm_ir::Constant::BitCast(b) = k {
        k = b.operand.as_ref();
    }
    k
}

/// Pushes to `out` the functions (their index in `index`) that constant
/// `k` names anywhere inside it: through casts, structs, arrays, vectors.
pub(crate) fn functions_named(k: &llvm_ir::Constant, index: &HashMap<String, usize>, out: &mut Vec<usize>) {
    use llvm_ir::Constant as C;
    match k {
        C::GlobalReference {
            name: Name::Name(n), ..
        } => out.extend(index.get(n.as_str()).copied()),
        C::BitCast(b) => functions_named(&b.operand, index, out),
        C::PtrToInt(b) => functions_named(&b.operand, index, out),
        C::Struct { values, .. } => values.iter().for_each(|v| functions_named(v, index, out)),
        C::Array { elements, .. } | C::Vector(elements) => elements.iter().for_each(|v| functions_named(v, index, out)),
        _ => {}
    }
}
