//! Integer and floating-point arithmetic, comparisons and casts: pure
//! functions from operand terms to result terms (the executor adds
//! checks and path constraints around them).

use crate::term::{bool_to_bv1, bv, format_of, mk, rm, width};
use fpsym_expr::{Op, Term};
use fpsym_float::{Format, RoundingMode};
use llvm_ir::predicates::{FPPredicate, IntPredicate};

/// An integer binary operation by LLVM opcode name.
pub fn int_binop(op: &str, a: &Term, b: &Term) -> Term {
    let w = width(a);
    let o = match op {
        "add" => Op::BvAdd,
        "sub" => Op::BvSub,
        "mul" => Op::BvMul,
        "udiv" => Op::BvUdiv,
        "sdiv" => Op::BvSdiv,
        "urem" => Op::BvUrem,
        "srem" => Op::BvSrem,
        "and" => Op::BvAnd,
        "or" => Op::BvOr,
        "xor" => Op::BvXor,
        // Shifts by the width or more are poison in LLVM; x86 masks the
        // amount, and so do we (the native run is the judge).
        "shl" | "lshr" | "ashr" => {
            let amount = mk(Op::BvUrem, vec![b.clone(), bv(w, w as u128)]);
            let o = match op {
                "shl" => Op::BvShl,
                "lshr" => Op::BvLshr,
                _ => Op::BvAshr,
            };
            return mk(o, vec![a.clone(), amount]);
        }
        _ => unreachable!("integer opcode {op}"),
    };
    mk(o, vec![a.clone(), b.clone()])
}

/// `icmp pred a b` as a Boolean term.
pub fn icmp(p: IntPredicate, a: &Term, b: &Term) -> Term {
    let (o, neg) = match p {
        IntPredicate::EQ => (Op::Eq, false),
        IntPredicate::NE => (Op::Eq, true),
        IntPredicate::UGT => (Op::BvUgt, false),
        IntPredicate::UGE => (Op::BvUge, false),
        IntPredicate::ULT => (Op::BvUlt, false),
        IntPredicate::ULE => (Op::BvUle, false),
        IntPredicate::SGT => (Op::BvSgt, false),
        IntPredicate::SGE => (Op::BvSge, false),
        IntPredicate::SLT => (Op::BvSlt, false),
        IntPredicate::SLE => (Op::BvSle, false),
    };
    let t = mk(o, vec![a.clone(), b.clone()]);
    if neg {
        mk(Op::Not, vec![t])
    } else {
        t
    }
}

/// A floating-point binary operation in rounding mode `r`.
pub fn fp_binop(op: &str, r: RoundingMode, a: &Term, b: &Term) -> Term {
    match op {
        "fadd" => mk(Op::FpAdd, vec![rm(r), a.clone(), b.clone()]),
        "fsub" => mk(Op::FpSub, vec![rm(r), a.clone(), b.clone()]),
        "fmul" => mk(Op::FpMul, vec![rm(r), a.clone(), b.clone()]),
        "fdiv" => mk(Op::FpDiv, vec![rm(r), a.clone(), b.clone()]),
        // C fmod / LLVM frem: the remainder of truncating division, exact
        // (no rounding): x - trunc(x/y)*y with the sign of x. IEEE remainder
        // rounds the quotient to nearest; fmod differs when |rem| > |y|/2.
        "frem" => fmod(a, b),
        _ => unreachable!("fp opcode {op}"),
    }
}

/// C's `fmod(a, b)` (LLVM `frem`), exactly: IEEE remainder r = a REM b, then
/// if r has the other sign than a (and is not zero), r + |b| with a's sign
/// restored; the result is exact, so the rounding mode is irrelevant.
pub fn fmod(a: &Term, b: &Term) -> Term {
    let r = mk(Op::FpRem, vec![a.clone(), b.clone()]);
    let fmt = format_of(a);
    let zero = Term::fp(fpsym_float::Float::zero(fmt, false));
    let abs_b = mk(Op::FpAbs, vec![b.clone()]);
    let a_neg = mk(Op::FpIsNegative, vec![a.clone()]);
    let r_neg = mk(Op::FpIsNegative, vec![r.clone()]);
    let r_pos = mk(Op::FpIsPositive, vec![r.clone()]);
    let rne = rm(RoundingMode::NearestTiesToEven);
    // r in (-|b|/2, |b|/2]; fmod's result has a's sign and |.| < |b|.
    let fix_neg = mk(Op::FpAdd, vec![rne.clone(), r.clone(), abs_b.clone()]); // a >= 0, r < 0
    let fix_pos = mk(Op::FpSub, vec![rne, r.clone(), abs_b]); // a < 0, r > 0
    let r_zero = mk(Op::FpIsZero, vec![r.clone()]);
    let signed_zero = mk(Op::Ite, vec![a_neg.clone(), mk(Op::FpNeg, vec![zero.clone()]), zero]);
    let not_nan_r = mk(Op::Not, vec![mk(Op::FpIsNaN, vec![r.clone()])]);
    let a_pos = mk(Op::Not, vec![a_neg.clone()]);
    mk(
        Op::Ite,
        vec![
            mk(Op::And, vec![r_zero.clone(), not_nan_r]),
            signed_zero,
            mk(
                Op::Ite,
                vec![
                    mk(Op::And, vec![a_pos, r_neg]),
                    fix_neg,
                    mk(Op::Ite, vec![mk(Op::And, vec![a_neg, r_pos]), fix_pos, r]),
                ],
            ),
        ],
    )
}

/// `fcmp pred a b` as a Boolean term (LangRef: ordered predicates are false
/// when either operand is NaN, unordered ones true).
pub fn fcmp(p: FPPredicate, a: &Term, b: &Term) -> Term {
    let nan = || {
        mk(
            Op::Or,
            vec![mk(Op::FpIsNaN, vec![a.clone()]), mk(Op::FpIsNaN, vec![b.clone()])],
        )
    };
    let rel = |o: Op| mk(o, vec![a.clone(), b.clone()]);
    let or = |x: Term, y: Term| mk(Op::Or, vec![x, y]);
    let not = |x: Term| mk(Op::Not, vec![x]);
    match p {
        FPPredicate::False => Term::bool(false),
        FPPredicate::True => Term::bool(true),
        FPPredicate::OEQ => rel(Op::FpEq),
        FPPredicate::OGT => rel(Op::FpGt),
        FPPredicate::OGE => rel(Op::FpGeq),
        FPPredicate::OLT => rel(Op::FpLt),
        FPPredicate::OLE => rel(Op::FpLeq),
        FPPredicate::ONE => or(rel(Op::FpLt), rel(Op::FpGt)),
        FPPredicate::ORD => not(nan()),
        FPPredicate::UNO => nan(),
        FPPredicate::UEQ => or(nan(), rel(Op::FpEq)),
        FPPredicate::UGT => or(nan(), rel(Op::FpGt)),
        FPPredicate::UGE => or(nan(), rel(Op::FpGeq)),
        FPPredicate::ULT => or(nan(), rel(Op::FpLt)),
        FPPredicate::ULE => or(nan(), rel(Op::FpLeq)),
        FPPredicate::UNE => not(rel(Op::FpEq)),
    }
}

/// An i1 from a Boolean.
pub fn i1(c: Term) -> Term {
    bool_to_bv1(c)
}

/// fptosi/fptoui to `w` bits as x86-64 computes them (C leaves
/// out-of-range conversions undefined; the native run is the judge):
/// cvttss2si/cvttsd2si give the "integer indefinite" 100…0 for NaN and out
/// of range, which is fpsym's fp.to_sbv answer. LLVM lowers narrower
/// conversions through wider ones: signed 8/16-bit through 32-bit,
/// unsigned up to 16 bits through signed 32-bit, unsigned 32-bit through
/// signed 64-bit (keeping the low bits); unsigned 64-bit converts x or
/// x - 2^63 and flips the top bit.
pub fn fp_to_int(signed: bool, a: &Term, w: u32) -> Term {
    let rtz = || rm(RoundingMode::TowardZero);
    let via = |wide: u32| {
        mk(
            Op::BvExtract(w - 1, 0),
            vec![mk(Op::FpToSbv(wide), vec![rtz(), a.clone()])],
        )
    };
    match (signed, w) {
        (true, 8 | 16) => via(32),
        (true, _) => mk(Op::FpToSbv(w), vec![rtz(), a.clone()]),
        (false, 1..=16) => via(32),
        (false, 32) => via(64),
        (false, 64) => {
            let fmt = format_of(a);
            let two63 = Term::fp(fpsym_float::Float::pow2(fmt, 63).unwrap_or(fpsym_float::Float::infinity(fmt, false)));
            let small = mk(Op::FpLt, vec![a.clone(), two63.clone()]);
            let lo = mk(Op::FpToSbv(64), vec![rtz(), a.clone()]);
            let shifted = mk(Op::FpSub, vec![rm(RoundingMode::NearestTiesToEven), a.clone(), two63]);
            let hi = mk(
                Op::BvXor,
                vec![mk(Op::FpToSbv(64), vec![rtz(), shifted]), bv(64, 1u128 << 63)],
            );
            mk(Op::Ite, vec![small, lo, hi])
        }
        (false, _) => mk(Op::FpToUbv(w), vec![rtz(), a.clone()]),
    }
}

/// sitofp/uitofp/fpext/fptrunc.
pub fn to_float(kind: &str, r: RoundingMode, a: &Term, to: Format) -> Term {
    let o = match kind {
        "sitofp" => Op::ToFpFromSbv(to),
        "uitofp" => Op::ToFpFromUbv(to),
        _ => Op::ToFpFromFp(to),
    };
    mk(o, vec![rm(r), a.clone()])
}
