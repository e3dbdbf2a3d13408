//! Executing decoded instructions on machine values: arithmetic,
//! comparisons, conversions, loads and stores.

use super::*;

/// Reads an operand's machine value.
#[inline]
pub(super) fn read(regs: &crate::state::Regs, s: &Src) -> Option<M> {
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

/// Reads an integer operand (of at most 64 bits).
#[inline(always)]
pub(super) fn int(regs: &crate::state::Regs, s: &Src) -> Option<u64> {
    match s {
        Src::Reg(k) => match regs.slot(*k) {
            Slot::Int(x, _) => Some(*x),
            _ => None,
        },
        Src::Int(x, _) => Some(*x),
        _ => None,
    }
}

/// Reads a binary64 operand.
#[inline(always)]
pub(super) fn double(regs: &crate::state::Regs, s: &Src) -> Option<f64> {
    match s {
        Src::Reg(k) => match regs.slot(*k) {
            Slot::F64(x) => Some(*x),
            _ => None,
        },
        Src::F64(x) => Some(*x),
        _ => None,
    }
}

/// Reads a binary32 operand.
#[inline(always)]
pub(super) fn single(regs: &crate::state::Regs, s: &Src) -> Option<f32> {
    match s {
        Src::Reg(k) => match regs.slot(*k) {
            Slot::F32(x) => Some(*x),
            _ => None,
        },
        Src::F32(x) => Some(*x),
        _ => None,
    }
}

/// Reads an operand as a slot (any value).
#[inline]
pub(super) fn read_slot(regs: &crate::state::Regs, s: &Src) -> Slot {
    match s {
        Src::Reg(k) => regs.slot(*k).clone(),
        c => constant(c),
    }
}

/// The slot of a constant operand (`Empty` for a register).
#[inline]
pub(super) fn constant(s: &Src) -> Slot {
    match s {
        Src::Reg(_) => Slot::Empty,
        Src::Int(x, w) => Slot::Int(*x, *w),
        Src::F32(x) => Slot::F32(*x),
        Src::F64(x) => Slot::F64(*x),
        Src::Flt(f) => Slot::Flt(f.clone()),
    }
}

#[inline(always)]
pub(super) fn int_op(op: IOp, w: u32, a: u64, b: u64) -> Option<u64> {
    let (sa, sb) = (|| sext(a, w), || sext(b, w));
    Some(mask(
        match op {
            IOp::Add | IOp::Sub | IOp::Mul | IOp::And | IOp::Or | IOp::Xor => wrapping(op, a, b),
            // The amount modulo 32 (up to 32 bits) or 64, as the executor
            // (and x86) does: narrow operands shifted past their width give
            // 0, or the sign for ashr.
            IOp::Shl => a.wrapping_shl((b % crate::exec::arith::shift_mask(w)) as u32),
            IOp::LShr => a >> (b % crate::exec::arith::shift_mask(w)),
            IOp::AShr => (sa() >> (b % crate::exec::arith::shift_mask(w))) as u64,
            IOp::UDiv if b != 0 => a / b,
            IOp::URem if b != 0 => a % b,
            IOp::SDiv if b != 0 && !(sb() == -1 && a == 1u64 << (w - 1)) => sa().wrapping_div(sb()) as u64,
            IOp::SRem if b != 0 && !(sb() == -1 && a == 1u64 << (w - 1)) => sa().wrapping_rem(sb()) as u64,
            _ => return None,
        },
        w,
    ))
}

/// `a op b` for the operations that wrap (add, sub, mul, and, or,
/// xor), before the mask to their width (the kernel's forms of them,
/// [`KOp::AddRR`] and the others, mask with the width's decoded mask).
#[inline(always)]
pub(super) fn wrapping(op: IOp, a: u64, b: u64) -> u64 {
    match op {
        IOp::Add => a.wrapping_add(b),
        IOp::Sub => a.wrapping_sub(b),
        IOp::Mul => a.wrapping_mul(b),
        IOp::And => a & b,
        IOp::Or => a | b,
        _ => a ^ b,
    }
}

/// `a op b` in host arithmetic (IEEE 754's in round-to-nearest-even).
#[inline(always)]
pub(super) fn host<
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

#[inline(always)]
pub(super) fn icmp(p: IntPredicate, a: u64, b: u64, w: u32) -> bool {
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
pub(super) fn fcmp(p: FPPredicate, a: f64, b: f64) -> bool {
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
pub(super) fn to_int(x: f64, signed: bool, w: u32) -> Option<u64> {
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
pub(super) fn quiet(cx: &Cx<'_, '_>, regs: &crate::state::Regs, inst: &FInst, llvm: &Instruction) -> bool {
    // The operands in the instruction's order (`instruction_operands`),
    // without allocating (this runs at every integer division).
    let (ra, rb);
    let ops: [Option<&Src>; 3] = match &inst.op {
        Op::IBinRR { a, b, .. } | Op::ICmpRR { a, b, .. } => {
            (ra, rb) = (Src::Reg(*a), Src::Reg(*b));
            [Some(&ra), Some(&rb), None]
        }
        Op::IBinRC { a, c, w, .. } | Op::ICmpRC { a, c, w, .. } => {
            (ra, rb) = (Src::Reg(*a), Src::Int(*c, *w));
            [Some(&ra), Some(&rb), None]
        }
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
    !cx.checkers
        .iter()
        .enumerate()
        .any(|(k, c)| inst.checked & 1 << k.min(63) != 0 && c.may_check(llvm, Some(&vals[..n])))
}

/// Executes one plain instruction on registers `regs`, memory `mem`, in
/// rounding mode `rm`, writing its result; None: not plain (or a call,
/// which the caller makes), nothing changed.
#[inline(always)]
pub(super) fn exec_op(regs: &mut crate::state::Regs, mem: &mut Memory, rm: RoundingMode, inst: &FInst) -> Option<()> {
    // The common cases read their operands as what they must be (no
    // intermediate value) and write their result in place, each its own
    // (a result carried out of the match went through the stack, and
    // its reload stalled); anything else, and whatever is not plain here,
    // goes through `compute`.
    let rne = rm == RoundingMode::NearestTiesToEven;
    let d = inst.dest;
    match &inst.op {
        Op::Nop => {}
        Op::Slow | Op::Call { .. } => return None,
        Op::IBinRR { op, w, a, b } => {
            let r = ibin_rr(regs.slots_mut(), *op, *w, *a, *b)?;
            if d != u32::MAX {
                regs.set_int(d, r, *w);
            }
        }
        Op::IBinRC { op, w, a, c } => {
            let r = ibin_rc(regs.slots_mut(), *op, *w, *a, *c)?;
            if d != u32::MAX {
                regs.set_int(d, r, *w);
            }
        }
        Op::ICmpRR { p, w, a, b } => {
            let r = icmp_rr(regs.slots_mut(), *p, *w, *a, *b)?;
            if d != u32::MAX {
                regs.set_int(d, r as u64, 1);
            }
        }
        Op::ICmpRC { p, w, a, c } => {
            let r = icmp_rc(regs.slots_mut(), *p, *w, *a, *c)?;
            if d != u32::MAX {
                regs.set_int(d, r as u64, 1);
            }
        }
        Op::IBin { op, w, a, b } => {
            let r = int_op(*op, *w, int(regs, a)?, int(regs, b)?)?;
            if d != u32::MAX {
                regs.set_int(d, r, *w);
            }
        }
        Op::ICmp { p, w, a, b } => {
            let r = icmp(*p, int(regs, a)?, int(regs, b)?, *w);
            if d != u32::MAX {
                regs.set_int(d, r as u64, 1);
            }
        }
        Op::FBin { op, m: Mem::F64, a, b } if rne => {
            let r = fbin64(*op, double(regs, a)?, double(regs, b)?)?;
            if d != u32::MAX {
                regs.set_f64(d, r);
            }
        }
        Op::FBin { op, m: Mem::F32, a, b } if rne => {
            let r = host(*op, single(regs, a)?, single(regs, b)?);
            if r.is_nan() {
                return None;
            }
            if d != u32::MAX {
                regs.set_f32(d, r);
            }
        }
        Op::Conv { c, a } if d != u32::MAX && (matches!(c, Conv::Zext(_) | Conv::Sext(_)) || rne) => {
            let Src::Reg(k) = a else {
                return compute_into(regs, mem, rm, inst);
            };
            match (c, regs.slot(*k)) {
                (Conv::Zext(w) | Conv::Sext(w), Slot::Int(..)) => {
                    let x = ext(regs.slots_mut(), matches!(c, Conv::Sext(_)), *w, *k)?;
                    regs.set_int(d, x, *w)
                }
                (Conv::IntToF64 { signed }, Slot::Int(x, w)) => {
                    let r = int_to_f64(*x, *w, *signed);
                    regs.set_f64(d, r)
                }
                (Conv::IntToF32 { signed }, Slot::Int(x, w)) => {
                    let r = if *signed { sext(*x, *w) as f32 } else { *x as f32 };
                    regs.set_f32(d, r)
                }
                (Conv::F32ToF64, Slot::F32(x)) => {
                    let r = *x as f64;
                    regs.set_f64(d, r)
                }
                _ => return compute_into(regs, mem, rm, inst),
            }
        }
        Op::Load { addr, m } if !matches!(m, Mem::Flt(_)) => {
            let bits = load_bits(mem, int(regs, addr)?, *m)?;
            if d != u32::MAX {
                put_loaded(regs.slots_mut(), d, *m, bits)?;
            }
        }
        Op::Store { v, addr, m } if !matches!(m, Mem::Flt(_)) => {
            use crate::memory::Stored;
            let a = int(regs, addr)?;
            let (bits, class) = match (*m, v) {
                (m, Src::Reg(k)) => reg_bits(regs.slots_mut(), m, *k)?,
                (Mem::Int(w), Src::Int(x, v)) if *v == w => (*x, Stored::Int),
                (Mem::F32, Src::F32(x)) => (x.to_bits() as u64, Stored::F32),
                (Mem::F64, Src::F64(x)) => (x.to_bits(), Stored::F64),
                _ => return None,
            };
            store_bits(mem, a, *m, bits, class)?;
        }
        Op::Gep { base, offset, scaled } => {
            let mut addr = int(regs, base)?.wrapping_add(*offset);
            for (i, size) in scaled {
                let Src::Reg(k) = i else { return None };
                addr = addr.wrapping_add(scaled_index(regs.slots_mut(), *k, *size)?);
            }
            if d != u32::MAX {
                regs.set_int(d, addr, 64);
            }
        }
        _ => return compute_into(regs, mem, rm, inst),
    }
    Some(())
}

/// `a op b` of integer registers `a` and `b` of `w` bits (None: not
/// both integers, or a division the executor makes).
#[inline(always)]
pub(super) fn ibin_rr<S: SlotsMut + ?Sized>(regs: &S, op: IOp, w: u32, a: u32, b: u32) -> Option<u64> {
    let (Slot::Int(x, _), Slot::Int(y, _)) = (regs.at(a), regs.at(b)) else {
        return None;
    };
    int_op(op, w, *x, *y)
}

/// `a op c` of an integer register and a constant.
#[inline(always)]
pub(super) fn ibin_rc<S: SlotsMut + ?Sized>(regs: &S, op: IOp, w: u32, a: u32, c: u64) -> Option<u64> {
    let Slot::Int(x, _) = regs.at(a) else {
        return None;
    };
    int_op(op, w, *x, c)
}

/// `icmp p a b` of integer registers.
#[inline(always)]
pub(super) fn icmp_rr<S: SlotsMut + ?Sized>(regs: &S, p: IntPredicate, w: u32, a: u32, b: u32) -> Option<bool> {
    let (Slot::Int(x, _), Slot::Int(y, _)) = (regs.at(a), regs.at(b)) else {
        return None;
    };
    Some(icmp(p, *x, *y, w))
}

/// `icmp p a c` of an integer register and a constant.
#[inline(always)]
pub(super) fn icmp_rc<S: SlotsMut + ?Sized>(regs: &S, p: IntPredicate, w: u32, a: u32, c: u64) -> Option<bool> {
    let Slot::Int(x, _) = regs.at(a) else {
        return None;
    };
    Some(icmp(p, *x, c, w))
}

/// Integer register `a` sign- (`signed`) or zero-extended or truncated
/// to `to` bits.
#[inline(always)]
pub(super) fn ext<S: SlotsMut + ?Sized>(regs: &S, signed: bool, to: u32, a: u32) -> Option<u64> {
    let Slot::Int(x, w) = regs.at(a) else {
        return None;
    };
    Some(mask(if signed { sext(*x, *w) as u64 } else { *x }, to))
}

/// Writes the value of class `m` (not [`Mem::Flt`]) whose bits a load
/// read to slot `d`; None (nothing written) for a NaN.
#[inline(always)]
pub(super) fn put_loaded<S: SlotsMut + ?Sized>(regs: &mut S, d: u32, m: Mem, bits: u64) -> Option<()> {
    match m {
        Mem::Int(w) => regs.set_int(d, bits, w),
        Mem::F32 => regs.set_f32(d, Some(f32::from_bits(bits as u32)).filter(|f| !f.is_nan())?),
        _ => regs.set_f64(d, Some(f64::from_bits(bits)).filter(|f| !f.is_nan())?),
    }
    Some(())
}

/// A `getelementptr` index's part of the address: integer register `k`,
/// sign-extended, times `size`.
#[inline(always)]
pub(super) fn scaled_index<S: SlotsMut + ?Sized>(regs: &S, k: u32, size: u64) -> Option<u64> {
    let Slot::Int(x, w) = regs.at(k) else {
        return None;
    };
    Some((sext(*x, *w) as u64).wrapping_mul(size))
}

/// The binary64 value of register `a`, if it holds one.
#[inline(always)]
pub(super) fn f64_reg<S: SlotsMut + ?Sized>(regs: &S, a: u32) -> Option<f64> {
    match regs.at(a) {
        Slot::F64(x) => Some(*x),
        _ => None,
    }
}

/// binary64 `x op y` in round-to-nearest-even; None for a NaN (whose
/// encoding is the executor's to choose).
#[inline(always)]
pub(super) fn fbin64(op: FOp, x: f64, y: f64) -> Option<f64> {
    Some(host(op, x, y)).filter(|r| !r.is_nan())
}

/// The `w`-bit integer `x` (signed or not) as binary64, rounded to
/// nearest, ties to even.
#[inline(always)]
pub(super) fn int_to_f64(x: u64, w: u32, signed: bool) -> f64 {
    if signed {
        sext(x, w) as f64
    } else {
        x as f64
    }
}

/// [`compute`], its result written to the instruction's slot.
fn compute_into(regs: &mut crate::state::Regs, mem: &mut Memory, rm: RoundingMode, inst: &FInst) -> Option<()> {
    let s = compute(regs, mem, rm, inst)?;
    put(regs, inst.dest, s);
    Some(())
}

/// Writes `s` to slot `d` (none: [`u32::MAX`]).
#[inline(always)]
fn put(regs: &mut crate::state::Regs, d: u32, s: Slot) {
    if d != u32::MAX {
        regs.set_slot(d, s);
    }
}

/// The result of one plain instruction (a store's is [`Slot::Empty`]);
/// None: not plain, nothing changed.
#[inline(always)]
pub(super) fn compute(regs: &crate::state::Regs, mem: &mut Memory, rm: RoundingMode, inst: &FInst) -> Option<Slot> {
    let rne = rm == RoundingMode::NearestTiesToEven;
    Some(match &inst.op {
        Op::IBin { op, w, a, b } => {
            let (M::Int(a, _), M::Int(b, _)) = (read(regs, a)?, read(regs, b)?) else {
                return None;
            };
            Slot::Int(int_op(*op, *w, a, b)?, *w)
        }
        Op::ICmp { p, w, a, b } => {
            let (M::Int(a, _), M::Int(b, _)) = (read(regs, a)?, read(regs, b)?) else {
                return None;
            };
            Slot::Int(icmp(*p, a, b, *w) as u64, 1)
        }
        Op::FBin { op, a, b, .. } => {
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

pub(super) fn bytes(m: Mem) -> u64 {
    match m {
        Mem::Int(w) => w.div_ceil(8) as u64,
        Mem::F32 => 4,
        Mem::F64 => 8,
        Mem::Flt(f) => crate::layout::fp_store_size(f),
    }
}

/// Whether `o` is live, of a concrete size, and holds `[a, a + n)`.
fn holds(o: &crate::memory::Object, a: u64, n: u64) -> bool {
    o.alive && o.sym_size.is_none() && a - o.base + n <= o.size
}

pub(super) fn load(mem: &mut Memory, a: u64, m: Mem) -> Option<Slot> {
    if let Mem::Flt(fmt) = m {
        // Other formats only as stored whole (never in a shadow).
        let n = bytes(m);
        if mem.shadowed(a, n) {
            return None;
        }
        let o = mem.find(a).filter(|o| holds(o, a, n))?;
        let cells = &o.cells[(a - o.base) as usize..(a - o.base + n) as usize];
        return match whole(cells, n)? {
            Value::Fp(f) if f.format() == fmt => Slot::float(f),
            _ => None,
        };
    }
    machine(m, load_bits(mem, a, m)?)
}

/// The slot of a machine value of class `m` (not [`Mem::Flt`]) from its
/// bits; None for a NaN.
#[inline(always)]
pub(super) fn machine(m: Mem, bits: u64) -> Option<Slot> {
    Some(match m {
        Mem::Int(w) => Slot::Int(bits, w),
        Mem::F32 => Slot::F32(Some(f32::from_bits(bits as u32)).filter(|f| !f.is_nan())?),
        Mem::F64 => Slot::F64(Some(f64::from_bits(bits)).filter(|f| !f.is_nan())?),
        Mem::Flt(_) => return None,
    })
}

/// The constant of `cells` when they hold one whole value as stored (the
/// common case).
pub(super) fn whole(cells: &[Cell], n: u64) -> Option<Value> {
    let first = &cells[0];
    let whole = first.size as u64 == n
        && first.idx == 0
        && cells
            .iter()
            .enumerate()
            .all(|(i, c)| c.idx as usize == i && (c.val.same_node(&first.val) || c.val == first.val));
    if whole {
        first.val.as_const()
    } else {
        None
    }
}

/// What a store of register `k` as a value of class `m` (not
/// [`Mem::Flt`]) writes: its bits and how they were stored. An integer
/// as the executor stores it: zero-extended to its bytes (a register's
/// width is its type's).
#[inline(always)]
pub(super) fn reg_bits<S: SlotsMut + ?Sized>(regs: &S, m: Mem, k: u32) -> Option<(u64, crate::memory::Stored)> {
    use crate::memory::Stored;
    Some(match (m, regs.at(k)) {
        (Mem::Int(w), Slot::Int(x, v)) if *v == w => (*x, Stored::Int),
        (Mem::F32, Slot::F32(x)) => (x.to_bits() as u64, Stored::F32),
        (Mem::F64, Slot::F64(x)) => (x.to_bits(), Stored::F64),
        _ => return None,
    })
}

/// Stores `bits` (a value of class `m`, not [`Mem::Flt`], stored as
/// `class`) at `a` in the shadow of a live object of a concrete size
/// holding all its bytes.
pub(super) fn store_bits(mem: &mut Memory, a: u64, m: Mem, bits: u64, class: crate::memory::Stored) -> Option<()> {
    // One body per common size, as in `load_bits`.
    match m {
        Mem::Int(8) => store1(mem, a, bits, class),
        Mem::Int(32) | Mem::F32 => store4(mem, a, bits, class),
        Mem::Int(64) | Mem::F64 => store8(mem, a, bits, class),
        _ => store_sized(mem, a, bits, bytes(m), class),
    }
}

/// [`store_bits`] of a value of 1 byte (`Mem::Int(8)`).
#[inline(never)]
pub(super) fn store1(mem: &mut Memory, a: u64, bits: u64, class: crate::memory::Stored) -> Option<()> {
    store_sized(mem, a, bits, 1, class)
}

/// [`store_bits`] of a value of 4 bytes (`Mem::Int(32)`, `Mem::F32`):
/// what the kernel calls for one, without a dispatch on its class.
#[inline(never)]
pub(super) fn store4(mem: &mut Memory, a: u64, bits: u64, class: crate::memory::Stored) -> Option<()> {
    store_sized(mem, a, bits, 4, class)
}

/// [`store_bits`] of a value of 8 bytes (`Mem::Int(64)`, `Mem::F64`).
#[inline(never)]
pub(super) fn store8(mem: &mut Memory, a: u64, bits: u64, class: crate::memory::Stored) -> Option<()> {
    store_sized(mem, a, bits, 8, class)
}

#[inline(always)]
fn store_sized(mem: &mut Memory, a: u64, bits: u64, n: u64, class: crate::memory::Stored) -> Option<()> {
    mem.store_shadowed(a, bits, n as usize, class, |o| holds(o, a, n))
}

/// The bits of the value of class `m` (an integer masked to its width, a
/// binary32 or binary64 value's encoding) at `a`, if they are all
/// concrete and not a NaN stored as a float; not for [`Mem::Flt`].
pub(super) fn load_bits(mem: &mut Memory, a: u64, m: Mem) -> Option<u64> {
    // One body per common size: its word reads then take no size dispatch.
    match m {
        Mem::Int(8) => load1(mem, a, m),
        Mem::Int(32) | Mem::F32 => load4(mem, a, m),
        Mem::Int(64) | Mem::F64 => load8(mem, a, m),
        _ => load_sized(mem, a, m, bytes(m)),
    }
}

/// [`load_bits`] of a value of 1 byte (`Mem::Int(8)`).
#[inline(never)]
pub(super) fn load1(mem: &mut Memory, a: u64, m: Mem) -> Option<u64> {
    load_sized(mem, a, m, 1)
}

/// [`load_bits`] of a value of 4 bytes (`Mem::Int(32)`, `Mem::F32`):
/// what the kernel calls for one, without a dispatch on its class.
#[inline(never)]
pub(super) fn load4(mem: &mut Memory, a: u64, m: Mem) -> Option<u64> {
    load_sized(mem, a, m, 4)
}

/// [`load_bits`] of a value of 8 bytes (`Mem::Int(64)`, `Mem::F64`).
#[inline(never)]
pub(super) fn load8(mem: &mut Memory, a: u64, m: Mem) -> Option<u64> {
    load_sized(mem, a, m, 8)
}

/// [`load_bits`] of the `n` bytes of class `m`.
#[inline(always)]
fn load_sized(mem: &mut Memory, a: u64, m: Mem, n: u64) -> Option<u64> {
    let (o, shadow) = mem.locate(a).filter(|(o, _)| holds(o, a, n))?;
    let off = (a - o.base) as usize;
    // Bytes all stored by the fast path (the common case, first).
    let tagged = shadow.map_or(0, |sh| sh.tags_at(off, n as usize));
    if let Some(sh) = shadow.filter(|_| crate::memory::no_zero_byte(tagged, n as usize)) {
        let bits = crate::memory::get_le(&sh.bytes[off..off + n as usize]);
        return Some(match m {
            Mem::Int(w) => mask(bits, w),
            _ => bits,
        });
    }
    let cells = &o.cells[off..off + n as usize];
    let bits = match shadow.filter(|_| tagged != 0) {
        // Bytes the fast path stored, beside cells perhaps.
        Some(sh) => {
            let (tags, raw) = (&sh.tags[off..off + n as usize], &sh.bytes[off..off + n as usize]);
            if crate::memory::no_zero_byte(tagged, n as usize) {
                crate::memory::get_le(raw)
            } else {
                let mut x = 0u64;
                for (i, c) in cells.iter().enumerate() {
                    let b = if tags[i] != 0 { raw[i] } else { byte(c)? };
                    x |= (b as u64) << (8 * i);
                }
                x
            }
        }
        None => match whole(cells, n) {
            Some(v) => match (v, m) {
                (Value::Bv(b), Mem::Int(_)) if b.width() == 8 * n as u32 => b.bits() as u64,
                (Value::Fp(f), Mem::F32) if f.format() == Format::BINARY32 && !f.is_nan() => {
                    f.to_f32()?.to_bits() as u64
                }
                (Value::Fp(f), Mem::F64) if f.format() == Format::BINARY64 && !f.is_nan() => f.to_f64()?.to_bits(),
                _ => return None,
            },
            None => {
                let mut x = 0u64;
                for (i, c) in cells.iter().enumerate() {
                    x |= (byte(c)? as u64) << (8 * i);
                }
                x
            }
        },
    };
    Some(match m {
        Mem::Int(w) => mask(bits, w),
        _ => bits,
    })
}

/// The concrete byte of a cell (None: symbolic, or a NaN's, whose
/// encoding is the executor's to choose).
pub(super) fn byte(c: &Cell) -> Option<u8> {
    let bits = match c.val.as_const()? {
        Value::Bv(b) => b.bits(),
        Value::Fp(f) if !f.is_nan() && !f.format().has_explicit_int_bit() => f.to_bits(),
        _ => return None,
    };
    Some((bits >> (8 * c.idx as u32)) as u8)
}

pub(super) fn store(mem: &mut Memory, a: u64, v: M, m: Mem) -> Option<()> {
    use crate::memory::Stored;
    let n = bytes(m);
    let (bits, class) = match (v, m) {
        // As the executor stores an integer: zero-extended to its bytes.
        (M::Int(x, w), Mem::Int(mw)) if w == mw => (x, Stored::Int),
        (M::F32(x), Mem::F32) => (x.to_bits() as u64, Stored::F32),
        (M::F64(x), Mem::F64) => (x.to_bits(), Stored::F64),
        (M::Flt(f), Mem::Flt(fmt)) if f.format() == fmt => {
            // Other formats go to the cells, where no shadowed byte is.
            if mem.shadowed(a, n) {
                return None;
            }
            let o = mem.find_mut_if(a, |o| holds(o, a, n))?;
            let off = a - o.base;
            let val = Term::fp(*f);
            let cells = std::sync::Arc::make_mut(&mut o.cells);
            for (i, c) in cells[off as usize..(off + n) as usize].iter_mut().enumerate() {
                *c = Cell {
                    val: val.clone(),
                    size: n as u8,
                    idx: i as u8,
                };
            }
            return Some(());
        }
        _ => return None,
    };
    store_bits(mem, a, m, bits, class)
}
