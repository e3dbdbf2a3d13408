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
        // amount to 5 bits (32-bit registers, which also hold narrower
        // operands: shifting an i8 by 8 to 31 gives 0, or the sign for
        // ashr) or 6 bits (64-bit), and so do we (the native run is the
        // judge). Wider operands keep the amount modulo their width.
        "shl" | "lshr" | "ashr" => {
            let mask = shift_mask(w);
            // An amount of at most 5 bits is below 32 already.
            let amount = if w <= 5 {
                b.clone()
            } else {
                mk(Op::BvUrem, vec![b.clone(), bv(w, mask as u128)])
            };
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

/// What x86 takes a shift amount of a `w`-bit operand modulo: 32 up to 32
/// bits (32-bit registers hold the narrower operands), 64 up to 64 bits,
/// and wider operands (expanded by LLVM) their width.
pub fn shift_mask(w: u32) -> u64 {
    match w {
        0..=32 => 32,
        33..=64 => 64,
        _ => w as u64,
    }
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

/// fptosi/fptoui to `w` bits (at most 64) as clang-14's x86-64 code
/// computes them (C leaves out-of-range conversions undefined; the native
/// run is the judge, and the conformance suite checks every case below).
///
/// float and double (SSE): cvttss2si/cvttsd2si to 32 or 64 bits give the
/// "integer indefinite" 100…0 for NaN and out of range, which is fpsym's
/// fp.to_sbv answer. Narrower conversions go through the narrowest of
/// them that holds every value of the destination: signed 8/16-bit
/// through signed 32-bit, unsigned up to 31 bits through signed 32-bit,
/// unsigned 32-bit through signed 64-bit, keeping the low bits. Unsigned
/// 64-bit computes `r = cvtt(x)` and, when `r` is negative,
/// `r | cvtt(x - 2^63)`: 2^63 ≤ x < 2^64 converts exactly, and NaN,
/// ±inf and every other out-of-range value give 100…0.
///
/// long double (x87): fistp to 16, 32 or 64 bits, with the same
/// indefinite value; narrower conversions go through the narrowest of
/// those that holds every value of the destination (unsigned 8-bit
/// through signed 16-bit). Unsigned 64-bit compares `x < 2^63` and
/// converts x, or `x - 2^63` with the top bit flipped: NaN, +inf and
/// values of at least 2^64 give 0, -inf and values below -2^63 give
/// 100…0.
///
/// Wider destinations and binary128 sources are library calls (libgcc's
/// `__fixdfti`, `__fixtfdi`, ...): this function gives their in-range
/// value, and the executor does not let an out-of-range value through
/// ([`lib_conversion`]).
pub fn fp_to_int(signed: bool, a: &Term, w: u32) -> Term {
    let rtz = || rm(RoundingMode::TowardZero);
    let fmt = format_of(a);
    let x87 = fmt == Format::X86_FP80;
    let sbv = |k: u32, x: &Term| mk(Op::FpToSbv(k), vec![rtz(), x.clone()]);
    let via = |wide: u32| {
        let c = sbv(wide, a);
        if wide == w {
            c
        } else {
            mk(Op::BvExtract(w - 1, 0), vec![c])
        }
    };
    // The hardware widths, narrowest first.
    let widths: &[u32] = if x87 { &[16, 32, 64] } else { &[32, 64] };
    if lib_conversion(fmt, w) {
        let conv = if signed { Op::FpToSbv(w) } else { Op::FpToUbv(w) };
        return mk(conv, vec![rtz(), a.clone()]);
    }
    if signed || w < 64 {
        // The narrowest hardware conversion whose signed range holds the
        // destination's values.
        let need = if signed { w } else { w + 1 };
        let wide = widths.iter().copied().find(|&k| k >= need).unwrap_or(64);
        return via(wide);
    }
    let two63 = Term::fp(fpsym_float::Float::pow2(fmt, 63).unwrap_or(fpsym_float::Float::infinity(fmt, false)));
    let top = bv(64, 1u128 << 63);
    // x - 2^63 is exact where it matters (2^63 <= x < 2^64), so its
    // rounding mode does not change the result.
    let shifted = mk(
        Op::FpSub,
        vec![rm(RoundingMode::NearestTiesToEven), a.clone(), two63.clone()],
    );
    if x87 {
        let small = mk(Op::FpLt, vec![a.clone(), two63]);
        let hi = mk(Op::BvXor, vec![sbv(64, &shifted), top]);
        mk(Op::Ite, vec![small, sbv(64, a), hi])
    } else {
        let r = sbv(64, a);
        let negative = mk(Op::BvSlt, vec![r.clone(), bv(64, 0)]);
        let or = mk(Op::BvOr, vec![r.clone(), sbv(64, &shifted)]);
        mk(Op::Ite, vec![negative, or, r])
    }
}

/// fptosi/fptoui to `w` bits as clang-14's i386 code with SSE2 computes
/// them (the ILP32 data model), where it differs from x86-64's
/// ([`fp_to_int`]): float and double to unsigned 32 bits take
/// `r = cvtt32(x)` and, where `r` is negative, `r | cvtt32(x - 2^31)`
/// (NaN and out-of-range values give 0x80000000); to unsigned 64 bits
/// compare `x < 2^63` and convert x, or `x - 2^63` with the top bit
/// flipped, with x87's `fistp` (NaN, +inf and values of at least 2^64 give
/// 0), as x86-64 does for long double. Other conversions are x86-64's
/// (measured against the machine on edge values in every rounding mode).
pub fn fp_to_int_i386(signed: bool, a: &Term, w: u32) -> Term {
    let fmt = format_of(a);
    let sse = fmt == Format::BINARY32 || fmt == Format::BINARY64;
    if signed || !sse || !(w == 32 || w == 64) {
        return fp_to_int(signed, a, w);
    }
    let sbv = |k: u32, x: &Term| mk(Op::FpToSbv(k), vec![rm(RoundingMode::TowardZero), x.clone()]);
    let pow2 = |k: i64| Term::fp(fpsym_float::Float::pow2(fmt, k).expect("in range"));
    // x - 2^k is exact where it matters (2^k <= x < 2^(k+1)); elsewhere
    // the conversion is out of range whatever the rounding.
    let shifted = |k: i64| mk(Op::FpSub, vec![rm(RoundingMode::NearestTiesToEven), a.clone(), pow2(k)]);
    if w == 32 {
        let r = sbv(32, a);
        let negative = mk(Op::BvSlt, vec![r.clone(), bv(32, 0)]);
        let or = mk(Op::BvOr, vec![r.clone(), sbv(32, &shifted(31))]);
        mk(Op::Ite, vec![negative, or, r])
    } else {
        let small = mk(Op::FpLt, vec![a.clone(), pow2(63)]);
        let hi = mk(Op::BvXor, vec![sbv(64, &shifted(63)), bv(64, 1u128 << 63)]);
        mk(Op::Ite, vec![small, sbv(64, a), hi])
    }
}

/// A float or double as x87's `fld` loads it (i386 returns them in st0):
/// a signalling NaN is quieted (its quiet bit set, its sign and payload
/// kept); anything else is unchanged. Only a float read from a bit
/// pattern can be a signalling NaN (every other NaN term is quiet, see
/// `Exec::bits_of`), so only those terms, and choices between them, change.
pub fn x87_load(t: &Term) -> Term {
    let fmt = format_of(t);
    if !(fmt == Format::BINARY32 || fmt == Format::BINARY64) {
        return t.clone();
    }
    match (t.op(), t.args()) {
        (Op::ToFpFromBits(_), [b]) => {
            let quiet = bv(fmt.width(), 1u128 << (fmt.frac_bits() - 1));
            let q = super::memops::float_from_bits(fmt, &mk(Op::BvOr, vec![b.clone(), quiet]));
            mk(Op::Ite, vec![mk(Op::FpIsNaN, vec![t.clone()]), q, t.clone()])
        }
        (Op::Ite, [c, x, y]) => mk(Op::Ite, vec![c.clone(), x87_load(x), x87_load(y)]),
        _ => t.clone(),
    }
}

/// uitofp of a scalar as clang-14's code computes it (`ilp32`: i386's):
/// as [`to_float`], except that zero converts to -0 toward negative where
/// the code subtracts two cancelling parts: unsigned 64-bit to double on
/// both targets (high and low halves against magic numbers), and on i386
/// unsigned 32-bit to float or double (`(2^52 | x) - 2^52` in double).
/// x86-64 converts unsigned 32-bit values as signed 64-bit ones, and both
/// convert unsigned 64-bit to float by other code (x87's `fild` plus 0 or
/// 2^64 on i386): +0.
pub fn uint_to_float(r: RoundingMode, a: &Term, to: Format, ilp32: bool) -> Term {
    let v = to_float("uitofp", r, a, to);
    let w = width(a);
    let cancels = match w {
        32 => ilp32 && (to == Format::BINARY32 || to == Format::BINARY64),
        64 => to == Format::BINARY64,
        _ => false,
    };
    if !cancels || r != RoundingMode::TowardNegative {
        return v;
    }
    let zero = mk(Op::Eq, vec![a.clone(), bv(w, 0)]);
    mk(Op::Ite, vec![zero, Term::fp(fpsym_float::Float::zero(to, true)), v])
}

/// `llvm.experimental.constrained.fptosi`/`fptoui` (under `#pragma STDC
/// FENV_ACCESS ON`) as clang-14's x86-64 code computes it. The strict
/// code converts to unsigned 64 bits without raising a spurious exception,
/// for float and double (SSE) as for long double (x87): `ge = x >= 2^63`
/// (false for NaN), then `cvtt(ge ? x - 2^63 : x) ^ (ge << 63)`: NaN,
/// -inf and values below -2^63 give 100…0, +inf and values of at least
/// 2^64 give 0. Other widths are converted as [`fp_to_int`] does.
pub fn strict_fp_to_int(signed: bool, a: &Term, w: u32) -> Term {
    let fmt = format_of(a);
    if signed || w != 64 || lib_conversion(fmt, w) {
        return fp_to_int(signed, a, w);
    }
    let two63 = fpsym_float::Float::pow2(fmt, 63).map(Term::fp);
    let Some(two63) = two63 else {
        return fp_to_int(signed, a, w);
    };
    let ge = mk(Op::FpGeq, vec![a.clone(), two63.clone()]);
    // x - 2^63 is exact where it matters (2^63 <= x < 2^64).
    let shifted = mk(Op::FpSub, vec![rm(RoundingMode::NearestTiesToEven), a.clone(), two63]);
    let x = mk(Op::Ite, vec![ge.clone(), shifted, a.clone()]);
    let r = mk(Op::FpToSbv(64), vec![rm(RoundingMode::TowardZero), x]);
    let top = mk(Op::Ite, vec![ge, bv(64, 1u128 << 63), bv(64, 0)]);
    mk(Op::BvXor, vec![r, top])
}

/// `fptoui` of a lane of a float or double vector to `w` bits, as
/// clang-14's x86-64 (SSE2) code computes it: to 32-bit lanes, `r =
/// cvttps2dq(x)` (`cvttpd2dq`), and where `r` is negative, `r |
/// cvttps2dq(x - 2^31)`: 2^31 ≤ x < 2^32 converts exactly, and NaN, ±inf
/// and every other out-of-range value give 0x80000000 (the scalar code
/// converts to 64 bits and keeps the low half, see [`fp_to_int`]). Other
/// widths are converted lane by lane as scalars are.
pub fn vector_fp_to_int(signed: bool, a: &Term, w: u32) -> Term {
    let fmt = format_of(a);
    if signed || w != 32 || !(fmt == Format::BINARY32 || fmt == Format::BINARY64) {
        return fp_to_int(signed, a, w);
    }
    let cvtt = |x: &Term| mk(Op::FpToSbv(32), vec![rm(RoundingMode::TowardZero), x.clone()]);
    let two31 = Term::fp(fpsym_float::Float::pow2(fmt, 31).expect("in range"));
    // x - 2^31 is exact where it matters (2^31 <= x < 2^32; elsewhere the
    // conversion is out of range whatever the rounding).
    let shifted = mk(Op::FpSub, vec![rm(RoundingMode::NearestTiesToEven), a.clone(), two31]);
    let r = cvtt(a);
    let negative = mk(Op::BvSlt, vec![r.clone(), bv(32, 0)]);
    let or = mk(Op::BvOr, vec![r.clone(), cvtt(&shifted)]);
    mk(Op::Ite, vec![negative, or, r])
}

/// Whether clang-14's x86-64 code converts a `fmt` float to a `w`-bit
/// integer by a library call (binary128 sources, 128-bit destinations),
/// whose out-of-range results fpsym does not model.
pub fn lib_conversion(fmt: Format, w: u32) -> bool {
    w > 64 || fmt == Format::BINARY128
}

/// `llvm.minnum`/`llvm.maxnum` (`max`) of `a` and `b` in state `st`, with
/// the [`intrinsic_zero_tie`] of its operands (`constant_operand`: one of
/// them is a constant in the IR).
pub fn intrinsic_min_max(st: &mut crate::state::State, max: bool, a: &Term, b: &Term, constant_operand: bool) -> Term {
    let fmt = format_of(a);
    let tie = intrinsic_zero_tie(fmt, max, constant_operand);
    let mut choice = || Term::var(&st.unique_name("fpsym.zero_tie"), fpsym_expr::Sort::Bool);
    // Long double is a call of glibc's fminl/fmaxl, which return NaN for a
    // signalling NaN operand; fpsym's NaN is quiet (a signalling NaN read
    // from memory becomes it), so the other operand is the answer here.
    min_max(max, a, b, tie, false, &mut choice)
}

/// How clang-14's x86-64 code resolves `fmin`/`fmax` of two zeros of
/// opposite signs, where IEEE 754 lets either be the result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZeroTie {
    /// The first operand (inline SSE code for `llvm.minnum`/`maxnum` of
    /// two non-constant float or double operands: `maxsd b, a`).
    First,
    /// The second operand (glibc's `fmaxl`).
    Second,
    /// Either: the code depends on context the IR does not show (a
    /// constant operand may be a literal or a local variable, constant
    /// folding, binary128).
    Either,
}

/// `fmin`/`fmax` as x86-64 code computes them: the non-NaN operand when
/// one is NaN, the smaller/larger otherwise, and for `-0`/`+0` the operand
/// `tie` names; with [`ZeroTie::Either`], a fresh Boolean from `choice`
/// picks (the caller makes it with a unique name, so that both outcomes
/// stay possible and a claim must hold for each). `snan`: the code is
/// glibc's, which returns NaN for a signalling NaN operand; fpsym's one
/// NaN may stand for a signalling one, so a NaN operand then gives the
/// other operand or NaN.
pub fn min_max(max: bool, a: &Term, b: &Term, tie: ZeroTie, snan: bool, choice: &mut dyn FnMut() -> Term) -> Term {
    let o = if max { Op::FpMax } else { Op::FpMin };
    let mut plain = mk(o, vec![a.clone(), b.clone()]);
    if snan {
        let nan = |t: &Term| mk(Op::FpIsNaN, vec![t.clone()]);
        let either = mk(Op::Or, vec![nan(a), nan(b)]);
        if crate::term::as_bool(&either) != Some(false) {
            let n = crate::term::nan(format_of(a));
            let maybe = mk(Op::Ite, vec![choice(), n, plain.clone()]);
            plain = mk(Op::Ite, vec![either, maybe, plain]);
        }
    }
    let zero = |t: &Term| mk(Op::FpIsZero, vec![t.clone()]);
    let both = mk(Op::And, vec![zero(a), zero(b)]);
    if crate::term::as_bool(&both) == Some(false) {
        return plain;
    }
    let picked = match tie {
        ZeroTie::First => a.clone(),
        ZeroTie::Second => b.clone(),
        ZeroTie::Either => mk(Op::Ite, vec![choice(), a.clone(), b.clone()]),
    };
    mk(Op::Ite, vec![both, picked, plain])
}

/// The [`ZeroTie`] of `llvm.minnum`/`llvm.maxnum` (and their constrained
/// forms) on operands of format `fmt`: float and double are inline SSE
/// code (the first operand), long double a call of glibc's `fminl` (the
/// first) or `fmaxl` (the second; the conformance suite checks both);
/// an operand that is
/// a constant in the IR (`constant_operand`) makes the result depend on
/// how the source wrote it (a literal, or a local variable the analysis
/// build's mem2reg replaced by its value, which the native -O0 build
/// loads from the stack).
pub fn intrinsic_zero_tie(fmt: Format, max: bool, constant_operand: bool) -> ZeroTie {
    if constant_operand || fmt == Format::BINARY128 {
        ZeroTie::Either
    } else if fmt == Format::X86_FP80 && max {
        ZeroTie::Second
    } else {
        ZeroTie::First
    }
}

/// `uitofp` of a lane of an integer vector, as clang-14's x86-64 (SSE2)
/// code computes it. 32-bit lanes (to float or double) and 64-bit lanes
/// (to double) are converted by "magic number" sums: the lane's bits are
/// put in the significand of a large power of two, which is subtracted
/// again (`(x | 2^52) - 2^52` for 32 bits to double, high and low halves
/// for the others), and the one rounding gives the exact conversion,
/// except for the sign of zero: 0 converts to -0.0 when rounding
/// downward (the sum of the two cancelling parts is an exact zero, which
/// is -0 in that mode). Other lanes (64 bits to float, narrower lanes
/// extended to 32 bits and converted signed) convert as scalars do.
pub fn vector_uint_to_float(r: RoundingMode, a: &Term, to: Format) -> Term {
    let conv = to_float("uitofp", r, a, to);
    let w = width(a);
    let magic = (w == 32 && (to == Format::BINARY32 || to == Format::BINARY64)) || (w == 64 && to == Format::BINARY64);
    if !magic || r != RoundingMode::TowardNegative {
        return conv;
    }
    let zero = mk(Op::Eq, vec![a.clone(), bv(w, 0)]);
    mk(Op::Ite, vec![zero, Term::fp(fpsym_float::Float::zero(to, true)), conv])
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
