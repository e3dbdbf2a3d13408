//! The one rounding routine every operation ends in.
//!
//! An exact result is given as `(-1)^sign * (mag + δ) * 2^exp` where `δ` is 0
//! when `sticky` is false and lies strictly in `(0, 1)` otherwise. Callers
//! guarantee that when `sticky` is set, `mag` carries at least two bits more
//! than the target precision (or that the result is tiny enough that the
//! sticky part only affects the sticky bit), so one routine rounds every
//! operation correctly.

use crate::format::Format;
use crate::status::{RoundingMode, Status, StatusAnd};
use crate::value::Float;
use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};

/// Splits `mag * 2^exp` at bit position `lsb`: returns the integer kept above
/// it, the round bit (the first bit below), and whether anything below the
/// round bit (including the incoming sticky) is non-zero.
pub(crate) fn split(mag: &BigUint, exp: i64, lsb: i64, sticky: bool) -> (BigUint, bool, bool) {
    let shift = lsb - exp;
    if shift <= 0 {
        return (mag << ((-shift) as u64), false, sticky);
    }
    let shift = shift as u64;
    let kept = mag >> shift;
    let round = mag.bit(shift - 1);
    let below = match mag.trailing_zeros() {
        Some(tz) => tz < shift - 1,
        None => false,
    };
    (kept, round, below || sticky)
}

/// Whether rounding should add one unit to `kept`.
pub(crate) fn round_up(rm: RoundingMode, negative: bool, kept_odd: bool, round: bool, sticky: bool) -> bool {
    match rm {
        RoundingMode::NearestTiesToEven => round && (sticky || kept_odd),
        RoundingMode::NearestTiesToAway => round,
        RoundingMode::TowardPositive => !negative && (round || sticky),
        RoundingMode::TowardNegative => negative && (round || sticky),
        RoundingMode::TowardZero => false,
    }
}

/// The result of an overflow in the given direction: infinity or the largest
/// finite value, depending on the rounding mode.
pub(crate) fn overflow_result(fmt: Format, negative: bool, rm: RoundingMode) -> Float {
    let to_inf = match rm {
        RoundingMode::NearestTiesToEven | RoundingMode::NearestTiesToAway => true,
        RoundingMode::TowardPositive => !negative,
        RoundingMode::TowardNegative => negative,
        RoundingMode::TowardZero => false,
    };
    if to_inf {
        Float::infinity(fmt, negative)
    } else {
        Float::largest(fmt, negative)
    }
}

/// Rounds `(-1)^negative * (mag + δ) * 2^exp` to `fmt` (see the module doc).
/// An exact zero keeps the sign given.
pub(crate) fn round(
    fmt: Format,
    negative: bool,
    mag: &BigUint,
    exp: i64,
    sticky: bool,
    rm: RoundingMode,
) -> StatusAnd<Float> {
    let sb = fmt.sb() as i64;
    let emin = fmt.emin();
    if mag.is_zero() && !sticky {
        return StatusAnd::exact(Float::zero(fmt, negative));
    }
    let n = mag.bits() as i64;
    // Exponent of the leading bit; a pure-sticky value is below everything.
    let top = if n > 0 { exp + n - 1 } else { exp - 1 };
    let lsb = top.max(emin) - (sb - 1);
    let (kept, rbit, st) = split(mag, exp, lsb, sticky);
    let mut kept = kept.to_u128().expect("kept significand fits in sb+1 bits");
    let inexact = rbit || st;
    let mut lsb = lsb;
    if round_up(rm, negative, kept & 1 == 1, rbit, st) {
        kept += 1;
        if kept == 1u128 << sb {
            kept >>= 1;
            lsb += 1;
        }
    }
    let mut status = if inexact { Status::INEXACT } else { Status::OK };
    // Overflow: the rounded value's exponent exceeds emax.
    if kept >= 1u128 << (sb - 1) && lsb + sb - 1 > fmt.emax() {
        return StatusAnd::new(overflow_result(fmt, negative, rm), Status::OVERFLOW | Status::INEXACT);
    }
    // Tininess after rounding: round to sb bits with an unbounded exponent range.
    if inexact && top < emin {
        let tiny = if top == emin - 1 {
            let lsb_u = top - (sb - 1);
            let (k_u, r_u, s_u) = split(mag, exp, lsb_u, sticky);
            let k_u = k_u.to_u128().unwrap();
            let up = round_up(rm, negative, k_u & 1 == 1, r_u, s_u);
            !(up && k_u + 1 == 1u128 << sb)
        } else {
            true
        };
        if tiny {
            status |= Status::UNDERFLOW;
        }
    }
    let value = if kept == 0 {
        Float::zero(fmt, negative)
    } else if kept < 1u128 << (sb - 1) {
        debug_assert_eq!(lsb, emin - (sb - 1));
        Float::from_fields(fmt, negative, 0, kept)
    } else {
        Float::from_fields(fmt, negative, (lsb + sb - 1 + fmt.bias()) as u64, kept)
    };
    StatusAnd::new(value, status)
}
