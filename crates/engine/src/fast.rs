//! The concrete fast path: instructions whose operands are all concrete
//! run on machine values, without building terms.
//!
//! Each function is decoded once, when a state first enters it on this
//! path: registers become slot indices (see [`crate::state::Regs`]),
//! constants machine values, types widths and byte sizes, branch targets
//! block indices. Then [`run`] executes a state's instructions until one
//! is not *plain*, and the executor ([`crate::exec::Exec::step`]) takes
//! over for that one. Plain means that the result is the same as the
//! executor's and nothing else would have happened there:
//!
//! - every operand is a machine value (a concrete integer of at most 64
//!   bits, a binary32 or binary64 value that is not NaN), except that a
//!   `select` of a concrete condition, a phi and a call argument move any
//!   value;
//! - floating-point arithmetic in round-to-nearest-even whose result is
//!   not NaN (host arithmetic is IEEE 754's there; fpsym's NaN has its own
//!   encoding); integer division with a nonzero divisor, and no INT_MIN / -1;
//!   conversions to integers in range;
//! - loads and stores within a live object of a concrete size, reading
//!   bytes that are all concrete;
//! - calls of functions whose body runs (no user hook, no model, not
//!   variadic), returns to a caller, and branches on a concrete condition;
//! - no checker may report at the instruction ([`Checker::may_check`], asked
//!   with the operands' values), no observer watches (the fast path is off
//!   then, unless every observer allows it:
//!   [`crate::plugin::Observer::fast_path_ok`]), and no oracle chooses
//!   branch sides (branches go to the executor then, unless the oracle
//!   allows it: [`crate::plugin::BranchOracle::fast_path_ok`]).
//!
//! Anything else (symbolic operands, NaN, other rounding modes, formats
//! other than binary32/binary64, vectors and aggregates, the instructions
//! not listed) goes to the executor, instruction by instruction, and the
//! fast path resumes after it. So the fast path changes the speed of a
//! run, never its result.

use crate::checkers::Checker;
use crate::hooks::{self, Resolution};
use crate::layout::fp_format;
use crate::memory::{Cell, Memory};
use crate::prog::{Callee, Prog};
use crate::state::{Frame, Loc, Slot, State};
use crate::term::bv;
use crate::Config;
use fpsym_expr::{BvValue, Term, Value};
use fpsym_float::{Float, Format, RoundingMode};
use llvm_ir::predicates::{FPPredicate, IntPredicate};
use llvm_ir::{Constant, Instruction, Name, Operand, Terminator, Type};
use std::collections::HashMap;

/// Decoded functions of one run, made on first use.
#[derive(Default)]
pub struct Fast {
    funcs: Vec<Option<FFunc>>,
}

/// What [`run`] needs of the run.
pub struct Cx<'a, 'p> {
    /// The program.
    pub prog: &'a Prog<'p>,
    /// Options (hooks, call depth, loop bound).
    pub config: &'a Config,
    /// Global variable addresses.
    pub globals: &'a HashMap<String, u64>,
    /// The run's checkers.
    pub checkers: &'a [Box<dyn Checker>],
    /// Branches may be taken here (no oracle chooses sides).
    pub branches: bool,
    /// Terminators may be executed here (no checker looks at them, nor
    /// at returns).
    pub terminators: bool,
}

/// An operand: a register's slot or a constant.
#[derive(Clone, Debug)]
enum Src {
    Reg(u32),
    Int(u64, u32),
    F32(f32),
    F64(f64),
    /// A float of another format (not NaN), boxed: the common operands
    /// stay small.
    Flt(Box<Float>),
}

#[derive(Clone, Copy, Debug)]
enum IOp {
    Add,
    Sub,
    Mul,
    And,
    Or,
    Xor,
    Shl,
    LShr,
    AShr,
    UDiv,
    SDiv,
    URem,
    SRem,
}

#[derive(Clone, Copy, Debug)]
enum FOp {
    Add,
    Sub,
    Mul,
    Div,
}

/// How a value sits in memory.
#[derive(Clone, Copy, Debug)]
enum Mem {
    /// An integer of this width (or a pointer, 64), in `width.div_ceil(8)` bytes.
    Int(u32),
    F32,
    F64,
    /// Another float format (x86_fp80, binary128, binary16, bfloat16).
    Flt(Format),
}

#[derive(Clone, Copy, Debug)]
enum Conv {
    /// trunc, zext, ptrtoint, inttoptr to this width.
    Zext(u32),
    Sext(u32),
    /// Any value, unchanged (freeze, addrspacecast, pointer bitcasts).
    Move,
    IntToF32 {
        signed: bool,
    },
    IntToF64 {
        signed: bool,
    },
    FToInt {
        signed: bool,
        w: u32,
    },
    F32ToF64,
    F64ToF32,
    /// Between other float formats (or into or out of one): fpsym's
    /// soft-float, in the current rounding mode.
    ToFormat(Format),
    /// Bit pattern to float.
    BitsToF32,
    BitsToF64,
    /// Float to its bit pattern.
    FToBits,
}

#[derive(Clone, Debug)]
enum Op {
    Slow,
    Nop,
    IBin {
        op: IOp,
        w: u32,
        a: Src,
        b: Src,
    },
    ICmp {
        p: IntPredicate,
        a: Src,
        b: Src,
    },
    FBin {
        op: FOp,
        a: Src,
        b: Src,
    },
    FNeg {
        a: Src,
    },
    FCmp {
        p: FPPredicate,
        a: Src,
        b: Src,
    },
    Conv {
        c: Conv,
        a: Src,
    },
    Select {
        c: Src,
        a: Src,
        b: Src,
    },
    Gep {
        base: Src,
        offset: u64,
        scaled: Vec<(Src, u64)>,
    },
    Load {
        addr: Src,
        m: Mem,
    },
    Store {
        v: Src,
        addr: Src,
        m: Mem,
    },
    Call {
        callee: usize,
        args: Vec<Src>,
        loc: Option<Loc>,
    },
}

#[derive(Clone, Debug)]
struct FInst {
    op: Op,
    /// The result's slot (unused without a result).
    dest: u32,
    /// Some checker may report here: it is asked with the operands.
    checked: bool,
}

#[derive(Clone, Debug)]
enum FTerm {
    Slow,
    Br(usize),
    CondBr { c: Src, t: usize, f: usize },
    Ret(Option<Src>),
}

#[derive(Clone, Debug)]
struct FBlock {
    /// Phis: (slot, incoming value per predecessor block index).
    phis: Vec<(u32, Vec<(usize, Src)>)>,
    instrs: Vec<FInst>,
    term: FTerm,
}

#[derive(Clone, Debug)]
struct FFunc {
    names: std::sync::Arc<crate::state::RegNames>,
    blocks: Vec<FBlock>,
}

fn mask(x: u64, w: u32) -> u64 {
    if w >= 64 {
        x
    } else {
        x & ((1u64 << w) - 1)
    }
}

fn sext(x: u64, w: u32) -> i64 {
    if w >= 64 {
        x as i64
    } else {
        ((x << (64 - w)) as i64) >> (64 - w)
    }
}

/// The machine value of a slot, as an operand.
#[derive(Clone, Debug)]
enum M {
    Int(u64, u32),
    F32(f32),
    F64(f64),
    Flt(Box<Float>),
}

impl M {
    fn value(self) -> Value {
        match self {
            M::Int(x, w) => Value::Bv(BvValue::new(w, x as u128)),
            M::F32(x) => Value::Fp(Float::from_f32(x)),
            M::F64(x) => Value::Fp(Float::from_f64(x)),
            M::Flt(f) => Value::Fp(*f),
        }
    }
    fn float(self) -> Option<Float> {
        match self {
            M::Int(..) => None,
            M::F32(x) => Some(Float::from_f32(x)),
            M::F64(x) => Some(Float::from_f64(x)),
            M::Flt(f) => Some(*f),
        }
    }
}

struct Decoder<'c, 'a, 'p> {
    cx: &'c Cx<'a, 'p>,
    fidx: usize,
    names: &'c crate::state::RegNames,
}

impl Decoder<'_, '_, '_> {
    fn ty(&self, o: &Operand) -> llvm_ir::TypeRef {
        self.cx.prog.module.types.type_of(o)
    }

    fn resolved<'t>(&'t self, t: &'t Type) -> Option<&'t Type> {
        self.cx.prog.layout.resolve(t)
    }

    /// The scalar class of a type: Some(Mem) for integers up to 64 bits,
    /// pointers, binary32 and binary64.
    fn class(&self, t: &Type) -> Option<Mem> {
        match self.resolved(t)? {
            Type::IntegerType { bits } if *bits <= 64 => Some(Mem::Int(*bits)),
            Type::PointerType { .. } => Some(Mem::Int(64)),
            Type::FPType(f) => match fp_format(*f)? {
                Format::BINARY32 => Some(Mem::F32),
                Format::BINARY64 => Some(Mem::F64),
                other => Some(Mem::Flt(other)),
            },
            _ => None,
        }
    }

    fn src(&self, o: &Operand) -> Option<Src> {
        match o {
            Operand::LocalOperand { name, .. } => Some(Src::Reg(self.names.slot(name)?)),
            Operand::ConstantOperand(c) => self.constant(c),
            Operand::MetadataOperand => None,
        }
    }

    fn constant(&self, c: &Constant) -> Option<Src> {
        use llvm_ir::constant as k;
        use llvm_ir::constant::Float as CFloat;
        Some(match c {
            Constant::Int { bits, value } if *bits <= 64 => Src::Int(mask(*value, *bits), *bits),
            Constant::Float(CFloat::Single(x)) if !x.is_nan() => Src::F32(*x),
            Constant::Float(CFloat::Double(x)) if !x.is_nan() => Src::F64(*x),
            Constant::Float(other @ (CFloat::X86_FP80 | CFloat::Quadruple | CFloat::Half | CFloat::BFloat)) => {
                // The frontend recovered these constants' exact bits.
                let fmt = match other {
                    CFloat::X86_FP80 => Format::X86_FP80,
                    CFloat::Quadruple => Format::BINARY128,
                    CFloat::Half => Format::BINARY16,
                    _ => Format::BFLOAT16,
                };
                let f = Float::from_bits(fmt, self.cx.prog.program.special_const(c)?.bits);
                if f.is_nan() {
                    return None;
                }
                Src::Flt(Box::new(f))
            }
            Constant::Null(_) => Src::Int(0, 64),
            Constant::Undef(t) | Constant::Poison(t) | Constant::AggregateZero(t) => match self.class(t)? {
                Mem::Int(w) => Src::Int(0, w),
                Mem::F32 => Src::F32(0.0),
                Mem::F64 => Src::F64(0.0),
                Mem::Flt(f) => Src::Flt(Box::new(Float::zero(f, false))),
            },
            Constant::GlobalReference { name, .. } => {
                let n = crate::exec::operand::name_str(name);
                let a = self.cx.globals.get(&n).or_else(|| self.cx.prog.fn_addr.get(&n))?;
                Src::Int(*a, 64)
            }
            Constant::BitCast(k::BitCast { operand, .. })
            | Constant::AddrSpaceCast(k::AddrSpaceCast { operand, .. }) => self.constant(operand)?,
            Constant::GetElementPtr(k::GetElementPtr { address, indices, .. }) => {
                let Src::Int(base, 64) = self.constant(address)? else {
                    return None;
                };
                let idx: Vec<Src> = indices.iter().map(|i| self.constant(i)).collect::<Option<_>>()?;
                let ty = crate::exec::const_type(self.cx.prog.module, address);
                let (offset, scaled) = self.gep(&ty, &idx)?;
                if !scaled.is_empty() {
                    return None;
                }
                Src::Int(base.wrapping_add(offset), 64)
            }
            _ => return None,
        })
    }

    /// A getelementptr's constant offset and its scaled register indices
    /// (as [`crate::exec::Exec::gep`] computes the address).
    fn gep(&self, ty: &Type, idx: &[Src]) -> Option<(u64, Vec<(Src, u64)>)> {
        let layout = &self.cx.prog.layout;
        let (first, rest) = idx.split_first()?;
        let mut offset = 0u64;
        let mut scaled = Vec::new();
        let mut add = |i: &Src, size: u64, offset: &mut u64| match i {
            Src::Int(x, w) => *offset = offset.wrapping_add((sext(*x, *w) as u64).wrapping_mul(size)),
            r => scaled.push((r.clone(), size)),
        };
        add(first, layout.alloc_size(ty), &mut offset);
        let mut cur: Type = layout.resolve(ty)?.clone();
        for i in rest {
            let next = match &cur {
                Type::StructType { .. } => {
                    let Src::Int(k, _) = i else { return None };
                    offset = offset.wrapping_add(layout.field_offset(&cur, *k as usize)?);
                    layout.member(&cur, *k as usize)?
                }
                Type::ArrayType { element_type, .. } => {
                    add(i, layout.alloc_size(element_type), &mut offset);
                    element_type.clone()
                }
                _ => return None,
            };
            cur = layout.resolve(&next)?.clone();
        }
        Some((offset, scaled))
    }

    fn inst(&self, bb: usize, ip: usize, inst: &Instruction) -> FInst {
        let op = if self.cx.prog.unsupported.contains_key(&(self.fidx, bb, ip)) {
            Op::Slow
        } else {
            self.op(inst).unwrap_or(Op::Slow)
        };
        let dest = inst
            .try_get_result()
            .and_then(|d| self.names.slot(d))
            .unwrap_or(u32::MAX);
        let checked = self.cx.checkers.iter().any(|c| c.may_check(inst, None));
        FInst { op, dest, checked }
    }

    fn op(&self, inst: &Instruction) -> Option<Op> {
        use Instruction as I;
        let ibin = |op: IOp, a: &Operand, b: &Operand| -> Option<Op> {
            let Mem::Int(w) = self.class(&self.ty(a))? else {
                return None;
            };
            Some(Op::IBin {
                op,
                w,
                a: self.src(a)?,
                b: self.src(b)?,
            })
        };
        let fbin = |op: FOp, a: &Operand, b: &Operand| -> Option<Op> {
            match self.class(&self.ty(a))? {
                Mem::F32 | Mem::F64 | Mem::Flt(_) => Some(Op::FBin {
                    op,
                    a: self.src(a)?,
                    b: self.src(b)?,
                }),
                Mem::Int(_) => None,
            }
        };
        let conv = |c: Conv, a: &Operand| -> Option<Op> {
            // Scalars only (a vector operand has no class).
            self.class(&self.ty(a))?;
            Some(Op::Conv { c, a: self.src(a)? })
        };
        let int_to = |t: &Type| match self.class(t) {
            Some(Mem::Int(w)) => Some(w),
            _ => None,
        };
        Some(match inst {
            I::Add(x) => ibin(IOp::Add, &x.operand0, &x.operand1)?,
            I::Sub(x) => ibin(IOp::Sub, &x.operand0, &x.operand1)?,
            I::Mul(x) => ibin(IOp::Mul, &x.operand0, &x.operand1)?,
            I::And(x) => ibin(IOp::And, &x.operand0, &x.operand1)?,
            I::Or(x) => ibin(IOp::Or, &x.operand0, &x.operand1)?,
            I::Xor(x) => ibin(IOp::Xor, &x.operand0, &x.operand1)?,
            I::Shl(x) => ibin(IOp::Shl, &x.operand0, &x.operand1)?,
            I::LShr(x) => ibin(IOp::LShr, &x.operand0, &x.operand1)?,
            I::AShr(x) => ibin(IOp::AShr, &x.operand0, &x.operand1)?,
            I::UDiv(x) => ibin(IOp::UDiv, &x.operand0, &x.operand1)?,
            I::SDiv(x) => ibin(IOp::SDiv, &x.operand0, &x.operand1)?,
            I::URem(x) => ibin(IOp::URem, &x.operand0, &x.operand1)?,
            I::SRem(x) => ibin(IOp::SRem, &x.operand0, &x.operand1)?,
            I::FAdd(x) => fbin(FOp::Add, &x.operand0, &x.operand1)?,
            I::FSub(x) => fbin(FOp::Sub, &x.operand0, &x.operand1)?,
            I::FMul(x) => fbin(FOp::Mul, &x.operand0, &x.operand1)?,
            I::FDiv(x) => fbin(FOp::Div, &x.operand0, &x.operand1)?,
            I::FNeg(x) => match self.class(&self.ty(&x.operand))? {
                Mem::F32 | Mem::F64 | Mem::Flt(_) => Op::FNeg {
                    a: self.src(&x.operand)?,
                },
                Mem::Int(_) => return None,
            },
            I::ICmp(x) => {
                self.class(&self.ty(&x.operand0))?;
                Op::ICmp {
                    p: x.predicate,
                    a: self.src(&x.operand0)?,
                    b: self.src(&x.operand1)?,
                }
            }
            I::FCmp(x) => match self.class(&self.ty(&x.operand0))? {
                Mem::F32 | Mem::F64 | Mem::Flt(_) => Op::FCmp {
                    p: x.predicate,
                    a: self.src(&x.operand0)?,
                    b: self.src(&x.operand1)?,
                },
                Mem::Int(_) => return None,
            },
            I::Select(x) => {
                // Scalar conditions only (a vector one selects lane by lane).
                let Mem::Int(1) = self.class(&self.ty(&x.condition))? else {
                    return None;
                };
                Op::Select {
                    c: self.src(&x.condition)?,
                    a: self.src(&x.true_value)?,
                    b: self.src(&x.false_value)?,
                }
            }
            I::Trunc(x) => conv(Conv::Zext(int_to(&x.to_type)?), &x.operand)?,
            I::ZExt(x) => conv(Conv::Zext(int_to(&x.to_type)?), &x.operand)?,
            I::SExt(x) => conv(Conv::Sext(int_to(&x.to_type)?), &x.operand)?,
            I::PtrToInt(x) => conv(Conv::Zext(int_to(&x.to_type)?), &x.operand)?,
            I::IntToPtr(x) => conv(Conv::Zext(64), &x.operand)?,
            I::Freeze(x) => conv(Conv::Move, &x.operand)?,
            I::AddrSpaceCast(x) => conv(Conv::Move, &x.operand)?,
            I::BitCast(x) => {
                let from = self.class(&self.ty(&x.operand))?;
                let to = self.class(&x.to_type)?;
                let c = match (from, to) {
                    (Mem::Int(a), Mem::Int(b)) if a == b => Conv::Move,
                    (Mem::F32, Mem::F32) | (Mem::F64, Mem::F64) => Conv::Move,
                    (Mem::Int(32), Mem::F32) => Conv::BitsToF32,
                    (Mem::Int(64), Mem::F64) => Conv::BitsToF64,
                    (Mem::F32, Mem::Int(32)) | (Mem::F64, Mem::Int(64)) => Conv::FToBits,
                    _ => return None,
                };
                conv(c, &x.operand)?
            }
            I::SIToFP(x) => match self.class(&x.to_type)? {
                Mem::F32 => conv(Conv::IntToF32 { signed: true }, &x.operand)?,
                Mem::F64 => conv(Conv::IntToF64 { signed: true }, &x.operand)?,
                _ => return None,
            },
            I::UIToFP(x) => match self.class(&x.to_type)? {
                Mem::F32 => conv(Conv::IntToF32 { signed: false }, &x.operand)?,
                Mem::F64 => conv(Conv::IntToF64 { signed: false }, &x.operand)?,
                _ => return None,
            },
            I::FPToSI(x) => conv(
                Conv::FToInt {
                    signed: true,
                    w: int_to(&x.to_type)?,
                },
                &x.operand,
            )?,
            I::FPToUI(x) => conv(
                Conv::FToInt {
                    signed: false,
                    w: int_to(&x.to_type)?,
                },
                &x.operand,
            )?,
            I::FPExt(x) => conv(self.float_conv(&x.operand, &x.to_type)?, &x.operand)?,
            I::FPTrunc(x) => conv(self.float_conv(&x.operand, &x.to_type)?, &x.operand)?,
            I::GetElementPtr(x) => {
                // Scalar addresses and indices (a vector getelementptr is
                // the executor's).
                let Mem::Int(64) = self.class(&self.ty(&x.address))? else {
                    return None;
                };
                let idx: Vec<Src> = x
                    .indices
                    .iter()
                    .map(|i| match self.class(&self.ty(i))? {
                        Mem::Int(_) => self.src(i),
                        _ => None,
                    })
                    .collect::<Option<_>>()?;
                let (offset, scaled) = if idx.is_empty() {
                    (0, vec![])
                } else {
                    self.gep(&x.source_element_type, &idx)?
                };
                Op::Gep {
                    base: self.src(&x.address)?,
                    offset,
                    scaled,
                }
            }
            I::Load(x) => {
                let ty = match self.ty(&x.address).as_ref() {
                    Type::PointerType { pointee_type, .. } => pointee_type.clone(),
                    _ => return None,
                };
                Op::Load {
                    addr: self.src(&x.address)?,
                    m: self.class(&ty)?,
                }
            }
            I::Store(x) => Op::Store {
                v: self.src(&x.value)?,
                addr: self.src(&x.address)?,
                m: self.class(&self.ty(&x.value))?,
            },
            I::Call(c) => self.call(c)?,
            _ => return None,
        })
    }

    /// fpext/fptrunc from `a`'s format to `to`'s.
    fn float_conv(&self, a: &Operand, to: &Type) -> Option<Conv> {
        Some(match (self.class(&self.ty(a))?, self.class(to)?) {
            (Mem::F32, Mem::F64) => Conv::F32ToF64,
            (Mem::F64, Mem::F32) => Conv::F64ToF32,
            (Mem::F32 | Mem::F64 | Mem::Flt(_), Mem::Flt(f)) => Conv::ToFormat(f),
            (Mem::Flt(_), Mem::F32) => Conv::ToFormat(Format::BINARY32),
            (Mem::Flt(_), Mem::F64) => Conv::ToFormat(Format::BINARY64),
            _ => return None,
        })
    }

    fn call(&self, c: &llvm_ir::instruction::Call) -> Option<Op> {
        let llvm_ir::Operand::ConstantOperand(k) = c.function.as_ref().right()? else {
            return None;
        };
        let Constant::GlobalReference { name, .. } = k.as_ref() else {
            return None;
        };
        let n = crate::exec::operand::name_str(name);
        let prog = self.cx.prog;
        let callee = match prog.func_index.get(&n) {
            Some(&i) => Callee::Defined(i),
            None => Callee::Declared(n.clone()),
        };
        match hooks::resolve(&self.cx.config.hooks, prog, &callee, &n, c.arguments.len()) {
            // Debug-information intrinsics are not calls (without
            // observers, the executor notes nothing of them either).
            Resolution::BuiltIn(_) if n.starts_with("llvm.dbg.") => Some(Op::Nop),
            Resolution::Body(i) => {
                let f = prog.funcs[i];
                let byval = f.parameters.iter().any(|p| {
                    p.attributes
                        .iter()
                        .any(|a| matches!(a, llvm_ir::function::ParameterAttribute::ByVal(_)))
                });
                // A by-value struct argument is copied by the executor.
                if f.is_var_arg || byval || f.parameters.len() != c.arguments.len() {
                    return None;
                }
                let args = c.arguments.iter().map(|(a, _)| self.src(a)).collect::<Option<_>>()?;
                Some(Op::Call {
                    callee: i,
                    args,
                    loc: crate::state::loc_of(llvm_ir::HasDebugLoc::get_debug_loc(c)),
                })
            }
            _ => None,
        }
    }

    fn term(&self, bb: usize, t: &Terminator) -> FTerm {
        let n = self.cx.prog.funcs[self.fidx].basic_blocks[bb].instrs.len();
        if self.cx.prog.unsupported.contains_key(&(self.fidx, bb, n)) {
            return FTerm::Slow;
        }
        let block = |d: &Name| self.cx.prog.blocks[self.fidx].get(d).copied();
        let t = match t {
            Terminator::Br(b) => block(&b.dest).map(FTerm::Br),
            Terminator::CondBr(c) => (|| {
                Some(FTerm::CondBr {
                    c: self.src(&c.condition)?,
                    t: block(&c.true_dest)?,
                    f: block(&c.false_dest)?,
                })
            })(),
            Terminator::Ret(r) => match &r.return_operand {
                None => Some(FTerm::Ret(None)),
                Some(o) => self
                    .class(&self.ty(o))
                    .and_then(|_| self.src(o))
                    .map(|s| FTerm::Ret(Some(s))),
            },
            _ => None,
        };
        t.unwrap_or(FTerm::Slow)
    }

    fn function(&self) -> FFunc {
        let f = self.cx.prog.funcs[self.fidx];
        let blocks = f
            .basic_blocks
            .iter()
            .enumerate()
            .map(|(bb, b)| {
                let mut phis = Vec::new();
                for inst in &b.instrs {
                    let Instruction::Phi(p) = inst else { break };
                    let incoming = p
                        .incoming_values
                        .iter()
                        .filter_map(|(o, from)| {
                            Some((self.cx.prog.blocks[self.fidx].get(from).copied()?, self.src(o)?))
                        })
                        .collect();
                    // A phi whose incoming values are not all decoded is
                    // left to the executor (found missing at run time).
                    phis.push((self.names.slot(&p.dest).unwrap_or(u32::MAX), incoming));
                }
                let instrs = b
                    .instrs
                    .iter()
                    .enumerate()
                    .map(|(ip, i)| self.inst(bb, ip, i))
                    .collect();
                FBlock {
                    phis,
                    instrs,
                    term: self.term(bb, &b.term),
                }
            })
            .collect();
        FFunc {
            names: self.cx.prog.reg_names[self.fidx].clone(),
            blocks,
        }
    }
}

/// Reads an operand's machine value.
#[inline]
fn read(regs: &crate::state::Regs, s: &Src) -> Option<M> {
    Some(match s {
        Src::Reg(k) => match regs.slot(*k) {
            Slot::Int(x, w) => M::Int(*x, *w),
            Slot::F32(x) => M::F32(*x),
            Slot::F64(x) => M::F64(*x),
            Slot::Flt(f) => M::Flt(f.clone()),
            _ => return None,
        },
        Src::Int(x, w) => M::Int(*x, *w),
        Src::F32(x) => M::F32(*x),
        Src::F64(x) => M::F64(*x),
        Src::Flt(f) => M::Flt(f.clone()),
    })
}

/// Reads an operand as a slot (any value).
#[inline]
fn read_slot(regs: &crate::state::Regs, s: &Src) -> Slot {
    match s {
        Src::Reg(k) => regs.slot(*k).clone(),
        Src::Int(x, w) => Slot::Int(*x, *w),
        Src::F32(x) => Slot::F32(*x),
        Src::F64(x) => Slot::F64(*x),
        Src::Flt(f) => Slot::Flt(f.clone()),
    }
}

fn int_op(op: IOp, w: u32, a: u64, b: u64) -> Option<u64> {
    let (sa, sb) = (sext(a, w), sext(b, w));
    Some(mask(
        match op {
            IOp::Add => a.wrapping_add(b),
            IOp::Sub => a.wrapping_sub(b),
            IOp::Mul => a.wrapping_mul(b),
            IOp::And => a & b,
            IOp::Or => a | b,
            IOp::Xor => a ^ b,
            // The amount modulo the width, as the executor (and x86) does.
            IOp::Shl => a.wrapping_shl((b % w as u64) as u32),
            IOp::LShr => a >> (b % w as u64),
            IOp::AShr => (sa >> (b % w as u64)) as u64,
            IOp::UDiv if b != 0 => a / b,
            IOp::URem if b != 0 => a % b,
            IOp::SDiv if b != 0 && !(sb == -1 && a == 1u64 << (w - 1)) => sa.wrapping_div(sb) as u64,
            IOp::SRem if b != 0 && !(sb == -1 && a == 1u64 << (w - 1)) => sa.wrapping_rem(sb) as u64,
            _ => return None,
        },
        w,
    ))
}

/// `a op b` in host arithmetic (IEEE 754's in round-to-nearest-even).
fn host<
    T: std::ops::Add<Output = T> + std::ops::Sub<Output = T> + std::ops::Mul<Output = T> + std::ops::Div<Output = T>,
>(
    op: FOp,
    a: T,
    b: T,
) -> T {
    match op {
        FOp::Add => a + b,
        FOp::Sub => a - b,
        FOp::Mul => a * b,
        FOp::Div => a / b,
    }
}

fn icmp(p: IntPredicate, a: u64, b: u64, w: u32) -> bool {
    let (sa, sb) = (sext(a, w), sext(b, w));
    match p {
        IntPredicate::EQ => a == b,
        IntPredicate::NE => a != b,
        IntPredicate::UGT => a > b,
        IntPredicate::UGE => a >= b,
        IntPredicate::ULT => a < b,
        IntPredicate::ULE => a <= b,
        IntPredicate::SGT => sa > sb,
        IntPredicate::SGE => sa >= sb,
        IntPredicate::SLT => sa < sb,
        IntPredicate::SLE => sa <= sb,
    }
}

/// `fcmp` on values that are not NaN (ordered and unordered predicates agree).
fn fcmp(p: FPPredicate, a: f64, b: f64) -> bool {
    use FPPredicate as P;
    match p {
        P::False | P::UNO => false,
        P::True | P::ORD => true,
        P::OEQ | P::UEQ => a == b,
        P::OGT | P::UGT => a > b,
        P::OGE | P::UGE => a >= b,
        P::OLT | P::ULT => a < b,
        P::OLE | P::ULE => a <= b,
        P::ONE | P::UNE => a != b,
    }
}

/// Integer part of a float, if it fits `w` bits (signed or unsigned).
fn to_int(x: f64, signed: bool, w: u32) -> Option<u64> {
    let t = x.trunc();
    let (lo, hi) = if signed {
        (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1))
    } else {
        (0.0, 2f64.powi(w as i32))
    };
    if !(t >= lo && t < hi) {
        return None;
    }
    Some(mask(if signed { t as i64 as u64 } else { t as u64 }, w))
}

/// Whether no checker may report at `inst` (`llvm`) with its operands'
/// values here (those of arithmetic; at other instructions, the executor
/// asks the checkers).
fn quiet(cx: &Cx<'_, '_>, regs: &crate::state::Regs, inst: &FInst, llvm: &Instruction) -> bool {
    // The operands in the instruction's order (`instruction_operands`),
    // without allocating (this runs at every integer division).
    let ops: [Option<&Src>; 3] = match &inst.op {
        Op::IBin { a, b, .. } | Op::ICmp { a, b, .. } | Op::FBin { a, b, .. } | Op::FCmp { a, b, .. } => {
            [Some(a), Some(b), None]
        }
        Op::FNeg { a } | Op::Conv { a, .. } => [Some(a), None, None],
        Op::Select { c, a, b } => [Some(c), Some(a), Some(b)],
        Op::Store { v, addr, .. } => [Some(v), Some(addr), None],
        _ => return false,
    };
    let mut vals = [Value::Bool(false); 3];
    let mut n = 0;
    for s in ops.into_iter().flatten() {
        let Some(m) = read(regs, s) else { return false };
        vals[n] = m.value();
        n += 1;
    }
    !cx.checkers.iter().any(|c| c.may_check(llvm, Some(&vals[..n])))
}

/// Executes one plain instruction on registers `regs`, memory `mem`, in
/// rounding mode `rm`, writing its result; None: not plain, nothing
/// changed.
#[inline(always)]
fn exec_op(regs: &mut crate::state::Regs, mem: &mut Memory, rm: RoundingMode, inst: &FInst) -> Option<()> {
    let s = compute(regs, mem, rm, inst)?;
    if inst.dest != u32::MAX {
        regs.set_slot(inst.dest, s);
    }
    Some(())
}

/// The result of one plain instruction (a store's is [`Slot::Empty`]);
/// None: not plain, nothing changed.
#[inline(always)]
fn compute(regs: &crate::state::Regs, mem: &mut Memory, rm: RoundingMode, inst: &FInst) -> Option<Slot> {
    let rne = rm == RoundingMode::NearestTiesToEven;
    Some(match &inst.op {
        Op::IBin { op, w, a, b } => {
            let (M::Int(a, _), M::Int(b, _)) = (read(regs, a)?, read(regs, b)?) else {
                return None;
            };
            Slot::Int(int_op(*op, *w, a, b)?, *w)
        }
        Op::ICmp { p, a, b } => {
            let (M::Int(a, w), M::Int(b, _)) = (read(regs, a)?, read(regs, b)?) else {
                return None;
            };
            Slot::Int(icmp(*p, a, b, w) as u64, 1)
        }
        Op::FBin { op, a, b } => {
            let (a, b) = (read(regs, a)?, read(regs, b)?);
            if !rne || matches!(a, M::Flt(_)) {
                // Other rounding modes and formats: fpsym's soft-float.
                let (a, b) = (a.float()?, b.float()?);
                if a.format() != b.format() {
                    return None;
                }
                let r = match op {
                    FOp::Add => a.add(b, rm),
                    FOp::Sub => a.sub(b, rm),
                    FOp::Mul => a.mul(b, rm),
                    FOp::Div => a.div(b, rm),
                }
                .value;
                return Slot::float(r);
            }
            match (a, b) {
                (M::F64(a), M::F64(b)) => Some(host(*op, a, b)).filter(|r| !r.is_nan()).map(Slot::F64)?,
                (M::F32(a), M::F32(b)) => Some(host(*op, a, b)).filter(|r| !r.is_nan()).map(Slot::F32)?,
                _ => return None,
            }
        }
        Op::FNeg { a } => match read(regs, a)? {
            M::F64(x) => Slot::F64(-x),
            M::F32(x) => Slot::F32(-x),
            M::Flt(f) => Slot::Flt(Box::new(f.neg())),
            M::Int(..) => return None,
        },
        Op::FCmp { p, a, b } => {
            let r = match (read(regs, a)?, read(regs, b)?) {
                (M::F64(a), M::F64(b)) => fcmp(*p, a, b),
                (M::F32(a), M::F32(b)) => fcmp(*p, a as f64, b as f64),
                (M::Flt(a), M::Flt(b)) if a.format() == b.format() => {
                    // Neither is NaN: the comparison is the order's.
                    let o = a.ieee_cmp(*b)?;
                    let (x, y) = match o {
                        std::cmp::Ordering::Less => (0.0, 1.0),
                        std::cmp::Ordering::Equal => (0.0, 0.0),
                        std::cmp::Ordering::Greater => (1.0, 0.0),
                    };
                    fcmp(*p, x, y)
                }
                _ => return None,
            };
            Slot::Int(r as u64, 1)
        }
        Op::Conv { c, a } => {
            if let Conv::Move = c {
                let s = read_slot(regs, a);
                return (s != Slot::Empty).then_some(s);
            }
            match (c, read(regs, a)?) {
                (Conv::Zext(w), M::Int(x, _)) => Slot::Int(mask(x, *w), *w),
                (Conv::Sext(w), M::Int(x, v)) => Slot::Int(mask(sext(x, v) as u64, *w), *w),
                // Host conversions round to nearest, ties to even.
                (Conv::IntToF32 { signed }, M::Int(x, w)) if rne => {
                    Slot::F32(if *signed { sext(x, w) as f32 } else { x as f32 })
                }
                (Conv::IntToF64 { signed }, M::Int(x, w)) if rne => {
                    Slot::F64(if *signed { sext(x, w) as f64 } else { x as f64 })
                }
                (Conv::FToInt { signed, w }, M::F64(x)) => Slot::Int(to_int(x, *signed, *w)?, *w),
                (Conv::FToInt { signed, w }, M::F32(x)) => Slot::Int(to_int(x as f64, *signed, *w)?, *w),
                (Conv::F32ToF64, M::F32(x)) => Slot::F64(x as f64),
                (Conv::F64ToF32, M::F64(x)) if rne => Slot::F32(x as f32),
                (Conv::F64ToF32, M::F64(x)) => Slot::float(Float::from_f64(x).convert(Format::BINARY32, rm).value)?,
                (Conv::ToFormat(to), m) => Slot::float(m.float()?.convert(*to, rm).value)?,
                (Conv::BitsToF32, M::Int(x, _)) => {
                    let f = f32::from_bits(x as u32);
                    (!f.is_nan()).then_some(Slot::F32(f))?
                }
                (Conv::BitsToF64, M::Int(x, _)) => {
                    let f = f64::from_bits(x);
                    (!f.is_nan()).then_some(Slot::F64(f))?
                }
                (Conv::FToBits, M::F32(x)) => Slot::Int(x.to_bits() as u64, 32),
                (Conv::FToBits, M::F64(x)) => Slot::Int(x.to_bits(), 64),
                _ => return None,
            }
        }
        Op::Select { c, a, b } => {
            // Both values must be there (the executor reads both).
            let M::Int(c, _) = read(regs, c)? else { return None };
            let (a, b) = (read_slot(regs, a), read_slot(regs, b));
            if a == Slot::Empty || b == Slot::Empty {
                return None;
            }
            if c != 0 {
                a
            } else {
                b
            }
        }
        Op::Gep { base, offset, scaled } => {
            let M::Int(mut addr, _) = read(regs, base)? else {
                return None;
            };
            addr = addr.wrapping_add(*offset);
            for (i, size) in scaled {
                let M::Int(x, w) = read(regs, i)? else { return None };
                addr = addr.wrapping_add((sext(x, w) as u64).wrapping_mul(*size));
            }
            Slot::Int(addr, 64)
        }
        Op::Load { addr, m } => {
            let M::Int(a, _) = read(regs, addr)? else { return None };
            load(mem, a, *m)?
        }
        Op::Store { v, addr, m } => {
            let (v, M::Int(a, _)) = (read(regs, v)?, read(regs, addr)?) else {
                return None;
            };
            store(mem, a, v, *m)?;
            Slot::Empty
        }
        _ => return None,
    })
}

fn bytes(m: Mem) -> u64 {
    match m {
        Mem::Int(w) => w.div_ceil(8) as u64,
        Mem::F32 => 4,
        Mem::F64 => 8,
        Mem::Flt(f) => crate::layout::fp_store_size(f),
    }
}

/// The live object holding `[a, a + n)`, if its size is concrete: (base, offset).
fn object(mem: &Memory, a: u64, n: u64) -> Option<(u64, u64)> {
    let o = mem.find(a)?;
    (o.alive && o.sym_size.is_none() && a - o.base + n <= o.size).then_some((o.base, a - o.base))
}

fn load(mem: &Memory, a: u64, m: Mem) -> Option<Slot> {
    let n = bytes(m);
    let (base, off) = object(mem, a, n)?;
    let o = mem.get(base)?;
    let cells = &o.cells[off as usize..(off + n) as usize];
    let first = &cells[0];
    // The whole value as stored (the common case): its constant.
    let whole = first.size as u64 == n
        && first.idx == 0
        && cells
            .iter()
            .enumerate()
            .all(|(i, c)| c.idx as usize == i && c.val == first.val);
    let bits = if whole {
        match (first.val.as_const()?, m) {
            (Value::Bv(b), Mem::Int(w)) if b.width() == 8 * n as u32 => mask(b.bits() as u64, w),
            (Value::Fp(f), Mem::F32) if f.format() == Format::BINARY32 && !f.is_nan() => {
                return Some(Slot::F32(f.to_f32()?))
            }
            (Value::Fp(f), Mem::F64) if f.format() == Format::BINARY64 && !f.is_nan() => {
                return Some(Slot::F64(f.to_f64()?))
            }
            (Value::Fp(f), Mem::Flt(fmt)) if f.format() == fmt => return Slot::float(f),
            _ => return None,
        }
    } else if let Mem::Flt(_) = m {
        // Other formats only as stored whole.
        return None;
    } else {
        let mut x = 0u64;
        for (i, c) in cells.iter().enumerate() {
            x |= (byte(c)? as u64) << (8 * i);
        }
        x
    };
    Some(match m {
        Mem::Int(w) => Slot::Int(mask(bits, w), w),
        Mem::F32 => {
            let f = f32::from_bits(bits as u32);
            (!f.is_nan()).then_some(Slot::F32(f))?
        }
        Mem::F64 => {
            let f = f64::from_bits(bits);
            (!f.is_nan()).then_some(Slot::F64(f))?
        }
        Mem::Flt(_) => return None,
    })
}

/// The concrete byte of a cell (None: symbolic, or a NaN's, whose
/// encoding is the executor's to choose).
fn byte(c: &Cell) -> Option<u8> {
    let bits = match c.val.as_const()? {
        Value::Bv(b) => b.bits(),
        Value::Fp(f) if !f.is_nan() && !f.format().has_explicit_int_bit() => f.to_bits(),
        _ => return None,
    };
    Some((bits >> (8 * c.idx as u32)) as u8)
}

fn store(mem: &mut Memory, a: u64, v: M, m: Mem) -> Option<()> {
    let n = bytes(m);
    let (base, off) = object(mem, a, n)?;
    let val = match (v, m) {
        // As the executor stores an integer: zero-extended to its bytes.
        (M::Int(x, w), Mem::Int(mw)) if w == mw => bv(8 * n as u32, x as u128),
        (M::F32(x), Mem::F32) => Term::fp(Float::from_f32(x)),
        (M::F64(x), Mem::F64) => Term::fp(Float::from_f64(x)),
        (M::Flt(f), Mem::Flt(fmt)) if f.format() == fmt => Term::fp(*f),
        _ => return None,
    };
    let o = mem.get_mut(base)?;
    let cells = std::sync::Arc::make_mut(&mut o.cells);
    for (i, c) in cells[off as usize..(off + n) as usize].iter_mut().enumerate() {
        *c = Cell {
            val: val.clone(),
            size: n as u8,
            idx: i as u8,
        };
    }
    Some(())
}

/// Executes plain instructions of `st`, at most `step_budget` steps and
/// `instr_budget` instructions; returns how many instructions and steps
/// ran. A step is what one [`crate::exec::Exec::step`] executes: one
/// instruction, or all the phis at a block's head (each counted as an
/// instruction). Stops before the first instruction that is not plain,
/// and after a jump back to a loop header when the run has a loop bound
/// (the engine checks it).
pub fn run(fast: &mut Fast, cx: &Cx<'_, '_>, st: &mut State, step_budget: u64, instr_budget: u64) -> (u64, u64) {
    if fast.funcs.len() != cx.prog.funcs.len() {
        fast.funcs = vec![None; cx.prog.funcs.len()];
    }
    let (mut done, mut steps) = (0u64, 0u64);
    while steps < step_budget && done < instr_budget && st.split_at.is_none() {
        let Some(frame) = st.frames.last() else { break };
        let (fidx, bb, ip) = (frame.func, frame.bb, frame.ip);
        if fast.funcs[fidx].is_none() {
            let d = Decoder {
                cx,
                fidx,
                names: &cx.prog.reg_names[fidx],
            };
            fast.funcs[fidx] = Some(d.function());
        }
        let func = fast.funcs[fidx].as_ref().expect("decoded");
        if !std::sync::Arc::ptr_eq(&func.names, st.frame().regs.names()) {
            break;
        }
        let block = &func.blocks[bb];
        // Phis, all read on entry, then written.
        if ip == 0 && !block.phis.is_empty() {
            let Some(prev) = st.frame().prev_bb else { break };
            let regs = &st.frame().regs;
            let mut staged = Vec::with_capacity(block.phis.len());
            for (dest, incoming) in &block.phis {
                let Some((_, s)) = incoming.iter().find(|(b, _)| *b == prev) else {
                    break;
                };
                let v = read_slot(regs, s);
                if *dest == u32::MAX || v == Slot::Empty {
                    break;
                }
                staged.push((*dest, v));
            }
            if staged.len() != block.phis.len() {
                break;
            }
            let n = staged.len();
            let f = st.frame_mut();
            for (d, v) in staged {
                f.regs.set_slot(d, v);
            }
            f.ip = n;
            done += n as u64;
            steps += 1;
            continue;
        }
        let prog_block = &cx.prog.funcs[fidx].basic_blocks[bb];
        if ip < block.instrs.len() {
            // The block's straight-line instructions, in one go.
            let top = st.frames.len() - 1;
            let mut ip = ip;
            while ip < block.instrs.len() && steps < step_budget && done < instr_budget {
                let inst = &block.instrs[ip];
                if inst.checked && !quiet(cx, &st.frames[top].regs, inst, &prog_block.instrs[ip]) {
                    break;
                }
                match &inst.op {
                    Op::Nop => {}
                    Op::Slow | Op::Call { .. } => break,
                    _ => {
                        if exec_op(&mut st.frames[top].regs, &mut st.mem, st.rm, inst).is_none() {
                            break;
                        }
                    }
                }
                ip += 1;
                done += 1;
                steps += 1;
            }
            st.frames[top].ip = ip;
            if ip == block.instrs.len() || steps >= step_budget || done >= instr_budget {
                continue;
            }
            let inst = &block.instrs[ip];
            let Op::Call { callee, args, loc } = &inst.op else {
                break;
            };
            if inst.checked && !quiet(cx, &st.frames[top].regs, inst, &prog_block.instrs[ip]) {
                break;
            }
            if st.frames.len() + 1 > cx.config.max_call_depth {
                break;
            }
            let regs = &st.frames[top].regs;
            let vals: Vec<Slot> = args.iter().map(|a| read_slot(regs, a)).collect();
            if vals.contains(&Slot::Empty) {
                break;
            }
            let mut r = cx.prog.regs(*callee);
            for (k, v) in vals.into_iter().enumerate() {
                r.set_slot(k as u32, v);
            }
            let dest = prog_block.instrs[ip].try_get_result().cloned();
            st.frames[top].ip += 1;
            st.frames.push(Frame {
                ret_dest: dest,
                call_site: loc.clone(),
                ..Frame::new(*callee, r)
            });
            done += 1;
            steps += 1;
            continue;
        }
        // The terminator.
        if !cx.terminators {
            break;
        }
        match &block.term {
            FTerm::Slow => break,
            FTerm::Br(to) => {
                done += 1;
                steps += 1;
                if goto(cx, st, fidx, *to) {
                    break;
                }
            }
            FTerm::CondBr { c, t, f } => {
                if !cx.branches {
                    break;
                }
                let Some(M::Int(c, _)) = read(&st.frame().regs, c) else {
                    break;
                };
                let (to, k) = if c != 0 { (*t, 0) } else { (*f, 1) };
                st.trail.push((fidx, bb, k));
                done += 1;
                steps += 1;
                if goto(cx, st, fidx, to) {
                    break;
                }
            }
            FTerm::Ret(v) => {
                if st.frames.len() < 2 {
                    break;
                }
                let v = match v {
                    Some(s) => {
                        let v = read_slot(&st.frame().regs, s);
                        if v == Slot::Empty {
                            break;
                        }
                        Some(v)
                    }
                    None => None,
                };
                let frame = st.frames.pop().expect("a frame to return from");
                for a in frame.allocas.iter().chain(&frame.va_areas) {
                    st.mem.kill(*a);
                }
                if let (Some(d), Some(v)) = (frame.ret_dest, v) {
                    let f = st.frame_mut();
                    match f.regs.names().slot(&d) {
                        Some(k) => f.regs.set_slot(k, v),
                        None => f.regs.insert(d, v.val().expect("a written value")),
                    }
                }
                done += 1;
                steps += 1;
            }
        }
    }
    (done, steps)
}

/// Jumps to block `to` of the current function, counting loop
/// repetitions as [`crate::exec::Exec::goto`] does. True when the chunk
/// must end here (a loop repeated under a loop bound).
fn goto(cx: &Cx<'_, '_>, st: &mut State, fidx: usize, to: usize) -> bool {
    st.enter_block(to, &cx.prog.loop_headers[fidx]) && cx.config.loop_bound.is_some()
}

#[cfg(test)]
mod tests {
    //! The fast path's arithmetic against the executor's (terms folded by
    //! fpsym's exact soft-float and bit-vector evaluation), on edge values
    //! and random ones.
    use super::*;
    use crate::exec::arith;
    use crate::term::{as_bool, as_bv};
    use rand::{Rng, SeedableRng};

    fn ints(w: u32, rng: &mut rand::rngs::StdRng) -> Vec<u64> {
        let m = mask(u64::MAX, w);
        let mut v = vec![0, 1, 2, 3, 7, m, m - 1, m >> 1, (m >> 1) + 1, w as u64, w as u64 + 1];
        v.extend((0..40).map(|_| mask(rng.gen::<u64>(), w)));
        v.into_iter().map(|x| mask(x, w)).collect()
    }

    fn floats(rng: &mut rand::rngs::StdRng) -> Vec<f64> {
        let mut v = vec![
            0.0,
            -0.0,
            1.0,
            -1.5,
            0.1,
            3.0,
            1e308,
            -1e308,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            -5e-324,
            f64::INFINITY,
            f64::NEG_INFINITY,
            2f64.powi(63),
            2f64.powi(31) - 0.5,
            -(2f64.powi(31)),
            4294967295.7,
            1e10,
        ];
        v.extend(
            (0..30)
                .map(|_| f64::from_bits(rng.gen::<u64>()))
                .filter(|x| !x.is_nan()),
        );
        v.extend((0..30).map(|_| rng.gen_range(-1e6..1e6)));
        v
    }

    #[test]
    fn integer_operations_agree_with_the_executor() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let ops = [
            (IOp::Add, "add"),
            (IOp::Sub, "sub"),
            (IOp::Mul, "mul"),
            (IOp::And, "and"),
            (IOp::Or, "or"),
            (IOp::Xor, "xor"),
            (IOp::Shl, "shl"),
            (IOp::LShr, "lshr"),
            (IOp::AShr, "ashr"),
            (IOp::UDiv, "udiv"),
            (IOp::SDiv, "sdiv"),
            (IOp::URem, "urem"),
            (IOp::SRem, "srem"),
        ];
        let preds = [
            IntPredicate::EQ,
            IntPredicate::NE,
            IntPredicate::UGT,
            IntPredicate::UGE,
            IntPredicate::ULT,
            IntPredicate::ULE,
            IntPredicate::SGT,
            IntPredicate::SGE,
            IntPredicate::SLT,
            IntPredicate::SLE,
        ];
        let mut compared = 0;
        for w in [1u32, 8, 16, 32, 64] {
            let xs = ints(w, &mut rng);
            for &a in &xs {
                for &b in &xs {
                    let (ta, tb) = (bv(w, a as u128), bv(w, b as u128));
                    for (op, name) in ops {
                        if let Some(r) = int_op(op, w, a, b) {
                            let want = as_bv(&arith::int_binop(name, &ta, &tb)).expect("folded");
                            assert_eq!(r as u128, want, "{name} i{w} {a} {b}");
                            compared += 1;
                        }
                    }
                    for p in preds {
                        let want = as_bool(&arith::icmp(p, &ta, &tb)).expect("folded");
                        assert_eq!(icmp(p, a, b, w), want, "icmp {p:?} i{w} {a} {b}");
                    }
                    // Casts: trunc/zext and sext to every width.
                    for to in [1u32, 8, 16, 32, 64] {
                        let z = as_bv(&crate::exec::resize(&ta, to, false)).unwrap();
                        assert_eq!(mask(a, to) as u128, z);
                        let s = as_bv(&crate::exec::resize(&ta, to, true)).unwrap();
                        assert_eq!(mask(sext(a, w) as u64, to) as u128, s);
                    }
                }
            }
        }
        assert!(compared > 100_000);
    }

    #[test]
    fn float_operations_agree_with_the_executor() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let xs = floats(&mut rng);
        let rne = RoundingMode::NearestTiesToEven;
        let fp = |x: f64| Term::fp(Float::from_f64(x));
        let fp32 = |x: f32| Term::fp(Float::from_f32(x));
        let value = |t: &Term| match t.as_const() {
            Some(Value::Fp(f)) => f,
            other => panic!("not folded: {other:?}"),
        };
        let preds = [
            FPPredicate::OEQ,
            FPPredicate::OGT,
            FPPredicate::OGE,
            FPPredicate::OLT,
            FPPredicate::OLE,
            FPPredicate::ONE,
            FPPredicate::ORD,
            FPPredicate::UNO,
            FPPredicate::UEQ,
            FPPredicate::UGT,
            FPPredicate::UGE,
            FPPredicate::ULT,
            FPPredicate::ULE,
            FPPredicate::UNE,
        ];
        for &a in &xs {
            for &b in &xs {
                for (op, name) in [
                    (FOp::Add, "fadd"),
                    (FOp::Sub, "fsub"),
                    (FOp::Mul, "fmul"),
                    (FOp::Div, "fdiv"),
                ] {
                    let r = match op {
                        FOp::Add => a + b,
                        FOp::Sub => a - b,
                        FOp::Mul => a * b,
                        FOp::Div => a / b,
                    };
                    let want = value(&arith::fp_binop(name, rne, &fp(a), &fp(b)));
                    if r.is_nan() {
                        assert!(want.is_nan());
                    } else {
                        assert_eq!(Float::from_f64(r), want, "{name} {a:e} {b:e}");
                    }
                    let (a32, b32) = (a as f32, b as f32);
                    let r = match op {
                        FOp::Add => a32 + b32,
                        FOp::Sub => a32 - b32,
                        FOp::Mul => a32 * b32,
                        FOp::Div => a32 / b32,
                    };
                    let want = value(&arith::fp_binop(name, rne, &fp32(a32), &fp32(b32)));
                    if !r.is_nan() {
                        assert_eq!(Float::from_f32(r), want, "{name} {a32:e} {b32:e}");
                    }
                }
                for p in preds {
                    let want = as_bool(&arith::fcmp(p, &fp(a), &fp(b))).unwrap();
                    assert_eq!(fcmp(p, a, b), want, "fcmp {p:?} {a} {b}");
                }
            }
            // Conversions.
            let f32v = value(&arith::to_float("fptrunc", rne, &fp(a), Format::BINARY32));
            assert_eq!(Float::from_f32(a as f32), f32v, "fptrunc {a:e}");
            let back = value(&arith::to_float("fpext", rne, &fp32(a as f32), Format::BINARY64));
            assert_eq!(Float::from_f64(a as f32 as f64), back);
            for w in [8u32, 16, 32, 64] {
                for signed in [true, false] {
                    if let Some(r) = to_int(a, signed, w) {
                        let want = as_bv(&arith::fp_to_int(signed, &fp(a), w)).unwrap();
                        assert_eq!(r as u128, want, "fpto{}i {a:e} i{w}", if signed { "s" } else { "u" });
                    }
                }
            }
        }
        // Arithmetic in every rounding mode, as the fast path executes it.
        let mut st = crate::exec::placeholder();
        st.frames.push(Frame::new(0, crate::state::Regs::default()));
        for r in [
            RoundingMode::NearestTiesToEven,
            RoundingMode::NearestTiesToAway,
            RoundingMode::TowardPositive,
            RoundingMode::TowardNegative,
            RoundingMode::TowardZero,
        ] {
            st.rm = r;
            for &a in &xs {
                for &b in &xs {
                    for (op, name) in [
                        (FOp::Add, "fadd"),
                        (FOp::Sub, "fsub"),
                        (FOp::Mul, "fmul"),
                        (FOp::Div, "fdiv"),
                    ] {
                        let want = value(&arith::fp_binop(name, r, &fp(a), &fp(b)));
                        let inst = FInst {
                            op: Op::FBin {
                                op,
                                a: Src::F64(a),
                                b: Src::F64(b),
                            },
                            dest: 0,
                            checked: false,
                        };
                        match compute(&st.frames[0].regs, &mut st.mem, r, &inst) {
                            Some(Slot::F64(x)) => assert_eq!(Float::from_f64(x), want, "{name} {r:?} {a:e} {b:e}"),
                            None => assert!(want.is_nan(), "{name} {r:?} {a:e} {b:e} left to the executor"),
                            other => panic!("{other:?}"),
                        }
                    }
                }
            }
        }
        // Other formats (x86_fp80, binary128, binary16) on fpsym's
        // soft-float, in every rounding mode.
        for fmt in [Format::X86_FP80, Format::BINARY128, Format::BINARY16] {
            let vals: Vec<Float> = xs
                .iter()
                .step_by(3)
                .map(|&x| Float::from_f64(x).convert(fmt, RoundingMode::NearestTiesToEven).value)
                .flat_map(|f| [f, f.next_up()])
                .filter(|f| !f.is_nan())
                .collect();
            for r in [
                RoundingMode::NearestTiesToEven,
                RoundingMode::TowardNegative,
                RoundingMode::TowardZero,
            ] {
                st.rm = r;
                for &a in &vals {
                    for &b in &vals {
                        let (ta, tb) = (Term::fp(a), Term::fp(b));
                        for (op, name) in [
                            (FOp::Add, "fadd"),
                            (FOp::Sub, "fsub"),
                            (FOp::Mul, "fmul"),
                            (FOp::Div, "fdiv"),
                        ] {
                            let want = value(&arith::fp_binop(name, r, &ta, &tb));
                            let inst = FInst {
                                op: Op::FBin {
                                    op,
                                    a: Src::Flt(Box::new(a)),
                                    b: Src::Flt(Box::new(b)),
                                },
                                dest: 0,
                                checked: false,
                            };
                            match compute(&st.frames[0].regs, &mut st.mem, r, &inst) {
                                Some(Slot::Flt(x)) => assert_eq!(*x, want, "{name} {r:?} {a:?} {b:?}"),
                                None => assert!(want.is_nan()),
                                other => panic!("{other:?}"),
                            }
                        }
                        for p in [FPPredicate::OLT, FPPredicate::UEQ, FPPredicate::OGE, FPPredicate::UNE] {
                            let want = as_bool(&arith::fcmp(p, &ta, &tb)).unwrap();
                            let inst = FInst {
                                op: Op::FCmp {
                                    p,
                                    a: Src::Flt(Box::new(a)),
                                    b: Src::Flt(Box::new(b)),
                                },
                                dest: 0,
                                checked: false,
                            };
                            let got = compute(&st.frames[0].regs, &mut st.mem, r, &inst);
                            assert_eq!(got, Some(Slot::Int(want as u64, 1)), "fcmp {p:?} {a:?} {b:?}");
                        }
                    }
                    // To double and back, rounded as the executor does.
                    let conv = |c: Conv, a: Src| FInst {
                        op: Op::Conv { c, a },
                        dest: 0,
                        checked: false,
                    };
                    let want = value(&arith::to_float("fptrunc", r, &Term::fp(a), Format::BINARY64));
                    let got = compute(
                        &st.frames[0].regs,
                        &mut st.mem,
                        r,
                        &conv(Conv::ToFormat(Format::BINARY64), Src::Flt(Box::new(a))),
                    );
                    assert_eq!(got, Slot::float(want), "to double {a:?}");
                    let d = Float::from_f64(xs[(a.to_bits() % xs.len() as u128) as usize]);
                    let want = value(&arith::to_float("fpext", r, &Term::fp(d), fmt));
                    let got = compute(
                        &st.frames[0].regs,
                        &mut st.mem,
                        r,
                        &conv(Conv::ToFormat(fmt), Src::F64(d.to_f64().unwrap())),
                    );
                    assert_eq!(got, Slot::float(want), "from double {d:?}");
                }
            }
        }
        for w in [1u32, 8, 16, 32, 64] {
            for x in ints(w, &mut rng) {
                let t = bv(w, x as u128);
                let s = value(&arith::to_float("sitofp", rne, &t, Format::BINARY64));
                assert_eq!(Float::from_f64(sext(x, w) as f64), s, "sitofp i{w} {x}");
                let u = value(&arith::to_float("uitofp", rne, &t, Format::BINARY32));
                assert_eq!(Float::from_f32(x as f32), u, "uitofp i{w} {x}");
            }
        }
    }
}
