//! Decoding a function for the fast path: slots, constants, widths,
//! block indices (see the module doc of [`super`]).

use super::*;

/// Decodes one function for the fast path.
pub(super) struct Decoder<'c, 'a, 'p> {
    pub(super) cx: &'c Cx<'a, 'p>,
    pub(super) fidx: usize,
    pub(super) names: &'c crate::state::RegNames,
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
        // A call's result without a slot is the executor's to name.
        let op = match op {
            Op::Call { .. } if dest == u32::MAX && inst.try_get_result().is_some() => Op::Slow,
            op => op,
        };
        // Bit k: checker k may report here (the 64th and later share bit 63).
        let checked = self
            .cx
            .checkers
            .iter()
            .enumerate()
            .filter(|(_, c)| c.may_check(inst, None) && !c.only_where_not_plain(inst))
            .fold(0u64, |m, (k, _)| m | 1 << k.min(63));
        FInst {
            op,
            next: ip as u32 + 1,
            dest,
            checked,
        }
    }

    fn op(&self, inst: &Instruction) -> Option<Op> {
        use Instruction as I;
        let ibin = |op: IOp, a: &Operand, b: &Operand| -> Option<Op> {
            let Mem::Int(w) = self.class(&self.ty(a))? else {
                return None;
            };
            Some(match (self.src(a)?, self.src(b)?) {
                (Src::Reg(a), Src::Reg(b)) => Op::IBinRR { op, w, a, b },
                (Src::Reg(a), Src::Int(c, _)) => Op::IBinRC { op, w, a, c },
                (a, b) => Op::IBin { op, w, a, b },
            })
        };
        let fbin = |op: FOp, a: &Operand, b: &Operand| -> Option<Op> {
            match self.class(&self.ty(a))? {
                m @ (Mem::F32 | Mem::F64 | Mem::Flt(_)) => Some(Op::FBin {
                    op,
                    m,
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
                let Mem::Int(w) = self.class(&self.ty(&x.operand0))? else {
                    return None;
                };
                let p = x.predicate;
                match (self.src(&x.operand0)?, self.src(&x.operand1)?) {
                    (Src::Reg(a), Src::Reg(b)) => Op::ICmpRR { p, w, a, b },
                    (Src::Reg(a), Src::Int(c, _)) => Op::ICmpRC { p, w, a, c },
                    (a, b) => Op::ICmp { p, w, a, b },
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
            I::SIToFP(x) => conv(self.int_to_float(true, &x.to_type)?, &x.operand)?,
            // Zero's sign toward negative, and i386's unsigned conversions
            // (the executor's `uint_to_float`, `fp_to_int_i386`).
            I::UIToFP(x)
                if match self.class(&self.ty(&x.operand))? {
                    Mem::Int(64) => true,
                    Mem::Int(32) => self.cx.prog.layout.ilp32,
                    _ => false,
                } =>
            {
                return None
            }
            I::FPToUI(x) if self.cx.prog.layout.ilp32 && matches!(int_to(&x.to_type)?, 32 | 64) => return None,
            I::UIToFP(x) => conv(self.int_to_float(false, &x.to_type)?, &x.operand)?,
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
                if self.narrow_pointer(&ty) {
                    return None;
                }
                Op::Load {
                    addr: self.src(&x.address)?,
                    m: self.class(&ty)?,
                }
            }
            I::Store(x) if self.narrow_pointer(&self.ty(&x.value)) => return None,
            I::Store(x) => Op::Store {
                v: self.src(&x.value)?,
                addr: self.src(&x.address)?,
                m: self.class(&self.ty(&x.value))?,
            },
            I::Call(c) => self.call(c)?,
            _ => return None,
        })
    }

    /// A pointer stored in 4 bytes (ILP32): the executor's loads and
    /// stores (a register holds it in 64 bits).
    fn narrow_pointer(&self, t: &Type) -> bool {
        self.cx.prog.layout.ilp32 && matches!(self.resolved(t), Some(Type::PointerType { .. }))
    }

    /// sitofp/uitofp to `to` (binary32 and binary64 only).
    fn int_to_float(&self, signed: bool, to: &Type) -> Option<Conv> {
        match self.class(to)? {
            Mem::F32 => Some(Conv::IntToF32 { signed }),
            Mem::F64 => Some(Conv::IntToF64 { signed }),
            _ => None,
        }
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
        match hooks::resolve(&self.cx.config.extensions.hooks, prog, &callee, &n, c.arguments.len()) {
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
                    returns: f
                        .basic_blocks
                        .first()
                        .is_some_and(|b| matches!(b.term, Terminator::Ret(_))),
                    loc: crate::state::loc_of(llvm_ir::HasDebugLoc::get_debug_loc(c)).map(std::sync::Arc::new),
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
            Terminator::Switch(x) => (|| {
                let cases = x
                    .dests
                    .iter()
                    .map(|(c, d)| match self.constant(c)? {
                        Src::Int(v, _) => Some((v, block(d)?)),
                        _ => None,
                    })
                    .collect::<Option<_>>()?;
                Some(FTerm::Switch {
                    c: self.src(&x.operand)?,
                    cases,
                    default: block(&x.default_dest)?,
                })
            })(),
            // i386 returns a float or double through x87 (the executor's
            // `x87_load`).
            Terminator::Ret(r)
                if self.cx.prog.layout.ilp32
                    && r.return_operand
                        .as_ref()
                        .is_some_and(|o| matches!(self.class(&self.ty(o)), Some(Mem::F32 | Mem::F64))) =>
            {
                None
            }
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

    pub(super) fn function(&self) -> FFunc {
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
                let mut instrs: Vec<FInst> = b
                    .instrs
                    .iter()
                    .enumerate()
                    .map(|(ip, i)| self.inst(bb, ip, i))
                    .collect();
                // Each instruction's successor, past the no-ops no checker
                // looks at.
                let mut next = instrs.len() as u32;
                for (ip, inst) in instrs.iter_mut().enumerate().rev() {
                    inst.next = next;
                    if !matches!(inst.op, Op::Nop) || inst.checked != 0 {
                        next = ip as u32;
                    }
                }
                let (kops, kidx) = kops(&instrs, phis.len());
                FBlock {
                    phis,
                    instrs,
                    term: self.term(bb, &b.term),
                    edges: Vec::new(),
                    kops,
                    kidx,
                }
            })
            .collect();
        let mut blocks: Vec<FBlock> = blocks;
        // Each terminator's edges, with the phis of their targets.
        let headers = &self.cx.prog.loop_headers[self.fidx];
        for bb in 0..blocks.len() {
            let targets: Vec<usize> = match &blocks[bb].term {
                FTerm::Br(to) => vec![*to],
                FTerm::CondBr { t, f, .. } => vec![*t, *f],
                FTerm::Switch { cases, default, .. } => cases.iter().map(|(_, to)| *to).chain([*default]).collect(),
                FTerm::Slow | FTerm::Ret(_) => vec![],
            };
            let edges = targets
                .into_iter()
                .map(|to| {
                    let phis = &blocks[to].phis;
                    let moves = phis
                        .iter()
                        .map(|(dest, incoming)| {
                            let (_, s) = incoming.iter().find(|(b, _)| *b == bb)?;
                            (*dest != u32::MAX).then(|| (*dest, s.clone()))
                        })
                        .collect::<Option<Vec<_>>>();
                    let independent = moves.as_ref().is_some_and(|m| {
                        m.iter()
                            .all(|(_, s)| !matches!(s, Src::Reg(k) if phis.iter().any(|(d, _)| d == k)))
                    });
                    FEdge {
                        to,
                        back: to <= bb && headers.get(to).copied().unwrap_or(false),
                        moves,
                        independent,
                    }
                })
                .collect();
            blocks[bb].edges = edges;
        }
        FFunc {
            names: self.cx.prog.reg_names[self.fidx].clone(),
            slots: slot_bound(&blocks),
            blocks,
        }
    }
}

/// A block's [`FBlock::kops`] and [`FBlock::kidx`] from its
/// instructions after the phis (from `start`).
pub(super) fn kops(instrs: &[FInst], start: usize) -> (Vec<(KOp, u32)>, Vec<u32>) {
    let mut kops = Vec::new();
    let mut kidx = Vec::new();
    for (ip, inst) in instrs.iter().enumerate().skip(start) {
        kidx.push(kops.len() as u32);
        let d = inst.dest;
        let k = match &inst.op {
            _ if inst.checked != 0 => KOp::Stop,
            Op::Slow | Op::Call { .. } => KOp::Stop,
            Op::Nop => continue,
            // A store has no result.
            Op::Store {
                v: Src::Reg(v),
                addr: Src::Reg(a),
                m,
            } => match m {
                Mem::Int(8) => KOp::Store1 { m: *m, v: *v, a: *a },
                Mem::Int(32) | Mem::F32 => KOp::Store4 { m: *m, v: *v, a: *a },
                Mem::Int(64) | Mem::F64 => KOp::Store8 { m: *m, v: *v, a: *a },
                Mem::Flt(_) => KOp::Inst,
                _ => KOp::Store { m: *m, v: *v, a: *a },
            },
            _ if d == u32::MAX => KOp::Inst,
            Op::IBinRR { op, w, a, b } => {
                let o = RR {
                    w: *w,
                    d,
                    a: *a,
                    b: *b,
                    m: mask(u64::MAX, *w),
                };
                let forms = [KOp::AddRR, KOp::SubRR, KOp::MulRR, KOp::AndRR, KOp::OrRR, KOp::XorRR];
                flat(*op, o, forms).unwrap_or(KOp::IBinRR {
                    op: *op,
                    w: *w,
                    d,
                    a: *a,
                    b: *b,
                })
            }
            Op::IBinRC { op, w, a, c } => {
                let o = RC {
                    w: *w,
                    d,
                    a: *a,
                    m: mask(u64::MAX, *w),
                    c: *c,
                };
                let forms = [KOp::AddRC, KOp::SubRC, KOp::MulRC, KOp::AndRC, KOp::OrRC, KOp::XorRC];
                flat(*op, o, forms).unwrap_or(KOp::IBinRC {
                    op: *op,
                    w: *w,
                    d,
                    a: *a,
                    c: *c,
                })
            }
            Op::ICmpRR { p, w, a, b } => KOp::ICmpRR {
                p: *p,
                w: *w,
                d,
                a: *a,
                b: *b,
            },
            Op::ICmpRC { p, w, a, c } => KOp::ICmpRC {
                p: *p,
                w: *w,
                d,
                a: *a,
                c: *c,
            },
            Op::Conv {
                c: Conv::Zext(to),
                a: Src::Reg(a),
            } => KOp::Ext {
                signed: false,
                to: *to,
                d,
                a: *a,
            },
            Op::Conv {
                c: Conv::Sext(to),
                a: Src::Reg(a),
            } => KOp::Ext {
                signed: true,
                to: *to,
                d,
                a: *a,
            },
            Op::FBin { op, m: Mem::F64, a, b } => match (a, b) {
                (Src::Reg(a), Src::Reg(b)) => KOp::F64RR {
                    op: *op,
                    d,
                    a: *a,
                    b: *b,
                },
                (Src::Reg(a), Src::F64(c)) => KOp::F64RC {
                    op: *op,
                    d,
                    a: *a,
                    c: *c,
                },
                (Src::F64(c), Src::Reg(b)) => KOp::F64CR {
                    op: *op,
                    d,
                    c: *c,
                    b: *b,
                },
                _ => KOp::Inst,
            },
            Op::Conv {
                c: Conv::IntToF64 { signed },
                a: Src::Reg(a),
            } => KOp::IToF64 {
                signed: *signed,
                d,
                a: *a,
            },
            Op::Load { addr: Src::Reg(a), m } => match m {
                Mem::Int(8) => KOp::Load1 { m: *m, d, a: *a },
                Mem::Int(32) | Mem::F32 => KOp::Load4 { m: *m, d, a: *a },
                Mem::Int(64) | Mem::F64 => KOp::Load8 { m: *m, d, a: *a },
                Mem::Flt(_) => KOp::Inst,
                _ => KOp::Load { m: *m, d, a: *a },
            },
            Op::Gep {
                base: Src::Reg(base),
                offset,
                scaled,
            } => match scaled.as_slice() {
                [] => KOp::Gep {
                    d,
                    base: *base,
                    offset: *offset,
                    idx: u32::MAX,
                    size: 0,
                },
                [(Src::Reg(idx), size)] => KOp::Gep {
                    d,
                    base: *base,
                    offset: *offset,
                    idx: *idx,
                    size: *size,
                },
                _ => KOp::Inst,
            },
            _ => KOp::Inst,
        };
        kops.push((k, ip as u32));
    }
    (kops, kidx)
}

/// The kernel's variant of its own for `op` (see [`KOp::AddRR`]) of
/// operands `o`, among `forms` (add, sub, mul, and, or, xor, in that
/// order); None for the others.
fn flat<T>(op: IOp, o: T, forms: [fn(T) -> KOp; 6]) -> Option<KOp> {
    let k = match op {
        IOp::Add => 0,
        IOp::Sub => 1,
        IOp::Mul => 2,
        IOp::And => 3,
        IOp::Or => 4,
        IOp::Xor => 5,
        _ => return None,
    };
    Some(forms[k](o))
}

/// One above the largest slot that `blocks`' kernel operations and phi
/// moves name (what [`Bounded`] views are checked against; a slot number
/// that stands for none, [`u32::MAX`], is not one).
pub(super) fn slot_bound(blocks: &[FBlock]) -> usize {
    let moves = blocks
        .iter()
        .flat_map(|b| &b.edges)
        .flat_map(|e| e.moves.iter().flatten())
        .flat_map(|(d, v)| [Some(*d), if let Src::Reg(k) = v { Some(*k) } else { None }]);
    let moves = moves.flatten().map(|k| k as usize + 1).max().unwrap_or(0);
    blocks.iter().map(|b| kops_bound(&b.kops)).fold(moves, usize::max)
}

/// One above the largest slot that `kops` name.
pub(super) fn kops_bound(kops: &[(KOp, u32)]) -> usize {
    let slots = kops.iter().flat_map(|(k, _)| kop_slots(*k)).flatten();
    slots.map(|k| k as usize + 1).max().unwrap_or(0)
}

/// The slots a kernel operation reads or writes (up to three).
fn kop_slots(k: KOp) -> [Option<u32>; 3] {
    match k {
        KOp::AddRR(o) | KOp::SubRR(o) | KOp::MulRR(o) | KOp::AndRR(o) | KOp::OrRR(o) | KOp::XorRR(o) => {
            [Some(o.d), Some(o.a), Some(o.b)]
        }
        KOp::AddRC(o) | KOp::SubRC(o) | KOp::MulRC(o) | KOp::AndRC(o) | KOp::OrRC(o) | KOp::XorRC(o) => {
            [Some(o.d), Some(o.a), None]
        }
        KOp::IBinRR { d, a, b, .. } | KOp::ICmpRR { d, a, b, .. } | KOp::F64RR { d, a, b, .. } => {
            [Some(d), Some(a), Some(b)]
        }
        KOp::IBinRC { d, a, .. }
        | KOp::ICmpRC { d, a, .. }
        | KOp::Ext { d, a, .. }
        | KOp::F64RC { d, a, .. }
        | KOp::IToF64 { d, a, .. }
        | KOp::Load { d, a, .. }
        | KOp::Load1 { d, a, .. }
        | KOp::Load4 { d, a, .. }
        | KOp::Load8 { d, a, .. } => [Some(d), Some(a), None],
        KOp::F64CR { d, b, .. } => [Some(d), Some(b), None],
        KOp::Store { v, a, .. } | KOp::Store1 { v, a, .. } | KOp::Store4 { v, a, .. } | KOp::Store8 { v, a, .. } => {
            [Some(v), Some(a), None]
        }
        KOp::Gep { d, base, idx, .. } => [Some(d), Some(base), (idx != u32::MAX).then_some(idx)],
        KOp::Inst | KOp::Stop => [None; 3],
    }
}
