//! Correctly rounded arithmetic: add, sub, mul, div, fma, sqrt, rem,
//! roundToIntegral, min, max.

use crate::round::{round, round_up, split};
use crate::status::{RoundingMode, Status, StatusAnd};
use crate::value::{Category, Float};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::Zero;
use std::cmp::Ordering;

/// A finite non-zero value as `(-1)^sign * mag * 2^exp`.
pub(crate) struct Unpacked {
    pub sign: bool,
    pub mag: BigUint,
    pub exp: i64,
}

impl Float {
    /// Unpacks a finite non-zero value; None for zero, infinities and NaN.
    pub(crate) fn unpack(self) -> Option<Unpacked> {
        let exp = self.exponent()? - (self.format().sb() as i64 - 1);
        Some(Unpacked {
            sign: self.sign(),
            mag: BigUint::from(self.significand()),
            exp,
        })
    }

    fn invalid(self) -> StatusAnd<Float> {
        StatusAnd::new(Float::nan(self.format()), Status::INVALID)
    }

    fn check_same_format(self, other: Float) {
        assert_eq!(self.format(), other.format(), "operands of different formats");
    }

    /// `self + rhs`, correctly rounded. Panics if the formats differ.
    pub fn add(self, rhs: Float, rm: RoundingMode) -> StatusAnd<Float> {
        self.check_same_format(rhs);
        let fmt = self.format();
        if self.is_nan() || rhs.is_nan() {
            return StatusAnd::exact(Float::nan(fmt));
        }
        match (self.is_infinite(), rhs.is_infinite()) {
            (true, true) if self.sign() != rhs.sign() => return self.invalid(),
            (true, _) => return StatusAnd::exact(self),
            (_, true) => return StatusAnd::exact(rhs),
            _ => {}
        }
        if self.is_zero() && rhs.is_zero() {
            return StatusAnd::exact(zero_sum(fmt, self.sign(), rhs.sign(), rm));
        }
        if self.is_zero() {
            return StatusAnd::exact(rhs);
        }
        if rhs.is_zero() {
            return StatusAnd::exact(self);
        }
        add_exact(fmt, self.unpack().unwrap(), rhs.unpack().unwrap(), rm)
    }

    /// `self - rhs`, correctly rounded.
    pub fn sub(self, rhs: Float, rm: RoundingMode) -> StatusAnd<Float> {
        self.add(rhs.neg(), rm)
    }

    /// `self * rhs`, correctly rounded.
    pub fn mul(self, rhs: Float, rm: RoundingMode) -> StatusAnd<Float> {
        self.check_same_format(rhs);
        let fmt = self.format();
        if self.is_nan() || rhs.is_nan() {
            return StatusAnd::exact(Float::nan(fmt));
        }
        let sign = self.sign() != rhs.sign();
        if self.is_infinite() || rhs.is_infinite() {
            if self.is_zero() || rhs.is_zero() {
                return self.invalid();
            }
            return StatusAnd::exact(Float::infinity(fmt, sign));
        }
        if self.is_zero() || rhs.is_zero() {
            return StatusAnd::exact(Float::zero(fmt, sign));
        }
        let (a, b) = (self.unpack().unwrap(), rhs.unpack().unwrap());
        round(fmt, sign, &(a.mag * b.mag), a.exp + b.exp, false, rm)
    }

    /// `self / rhs`, correctly rounded.
    pub fn div(self, rhs: Float, rm: RoundingMode) -> StatusAnd<Float> {
        self.check_same_format(rhs);
        let fmt = self.format();
        if self.is_nan() || rhs.is_nan() {
            return StatusAnd::exact(Float::nan(fmt));
        }
        let sign = self.sign() != rhs.sign();
        match (self.category(), rhs.category()) {
            (Category::Infinite, Category::Infinite) | (Category::Zero, Category::Zero) => return self.invalid(),
            (Category::Infinite, _) => return StatusAnd::exact(Float::infinity(fmt, sign)),
            (_, Category::Infinite) | (Category::Zero, _) => return StatusAnd::exact(Float::zero(fmt, sign)),
            (_, Category::Zero) => return StatusAnd::new(Float::infinity(fmt, sign), Status::DIV_BY_ZERO),
            _ => {}
        }
        let (a, b) = (self.unpack().unwrap(), rhs.unpack().unwrap());
        let sb = fmt.sb() as i64;
        let k = (sb + 3 + b.mag.bits() as i64 - a.mag.bits() as i64).max(0);
        let (q, r) = (a.mag << (k as u64)).div_rem(&b.mag);
        round(fmt, sign, &q, a.exp - b.exp - k, !r.is_zero(), rm)
    }

    /// Fused multiply-add `self * b + c` with a single rounding.
    ///
    /// A NaN operand gives NaN without INVALID, even in `0 * inf + NaN`
    /// (IEEE 754 leaves that case to the implementation; x86-64 FMA3 raises
    /// no flag).
    pub fn fma(self, b: Float, c: Float, rm: RoundingMode) -> StatusAnd<Float> {
        self.check_same_format(b);
        self.check_same_format(c);
        let fmt = self.format();
        if self.is_nan() || b.is_nan() || c.is_nan() {
            return StatusAnd::exact(Float::nan(fmt));
        }
        let psign = self.sign() != b.sign();
        if self.is_infinite() || b.is_infinite() {
            if self.is_zero() || b.is_zero() {
                return self.invalid();
            }
            if c.is_infinite() && c.sign() != psign {
                return self.invalid();
            }
            return StatusAnd::exact(Float::infinity(fmt, psign));
        }
        if c.is_infinite() {
            return StatusAnd::exact(c);
        }
        if self.is_zero() || b.is_zero() {
            if c.is_zero() {
                return StatusAnd::exact(zero_sum(fmt, psign, c.sign(), rm));
            }
            return StatusAnd::exact(c);
        }
        let (x, y) = (self.unpack().unwrap(), b.unpack().unwrap());
        let p = Unpacked {
            sign: psign,
            mag: x.mag * y.mag,
            exp: x.exp + y.exp,
        };
        if c.is_zero() {
            return round(fmt, p.sign, &p.mag, p.exp, false, rm);
        }
        add_exact(fmt, p, c.unpack().unwrap(), rm)
    }

    /// Square root, correctly rounded (`sqrt(-0) = -0`; negative operands are invalid).
    pub fn sqrt(self, rm: RoundingMode) -> StatusAnd<Float> {
        let fmt = self.format();
        match self.category() {
            Category::Nan => return StatusAnd::exact(self),
            Category::Zero => return StatusAnd::exact(self),
            _ if self.sign() => return self.invalid(),
            Category::Infinite => return StatusAnd::exact(self),
            _ => {}
        }
        let mut a = self.unpack().unwrap();
        if a.exp & 1 != 0 {
            a.mag <<= 1u64;
            a.exp -= 1;
        }
        let sb = fmt.sb() as i64;
        let k = (sb + 3 - a.mag.bits() as i64 / 2).max(0) + 1;
        let m = a.mag << (2 * k as u64);
        let r = m.sqrt();
        let sticky = &r * &r != m;
        round(fmt, false, &r, (a.exp - 2 * k) / 2, sticky, rm)
    }

    /// IEEE remainder `self - rhs * n` with `n` the integer nearest `self / rhs`
    /// (ties to even). Always exact.
    // Not `std::ops` traits: these return flags or are exact value operations.
    #[allow(clippy::should_implement_trait)]
    pub fn rem(self, rhs: Float) -> StatusAnd<Float> {
        self.check_same_format(rhs);
        let fmt = self.format();
        if self.is_nan() || rhs.is_nan() {
            return StatusAnd::exact(Float::nan(fmt));
        }
        if self.is_infinite() || rhs.is_zero() {
            return self.invalid();
        }
        if rhs.is_infinite() || self.is_zero() {
            return StatusAnd::exact(self);
        }
        let (x, y) = (self.unpack().unwrap(), rhs.unpack().unwrap());
        if x.exp < y.exp && x.mag.bits() as i64 + x.exp < y.exp - 1 {
            // |x| < |y| / 2: the nearest integer quotient is 0.
            return StatusAnd::exact(self);
        }
        // In units of 2^e: X = |x| / 2^e, Y = |y| / 2^e, and X = q Y + r. Only
        // r and the parity of q (for ties) matter, i.e. X mod 2Y. When x's
        // exponent is far above y's (up to 2^31 bits apart in wide-exponent
        // formats), X mod 2Y is computed by modular exponentiation instead of
        // materialising X. (When y's exponent is above x's, the early return
        // above bounds the shift of y by the width of x's significand.)
        let e = x.exp.min(y.exp);
        let ym = y.mag << ((y.exp - e) as u64);
        let two_y = &ym << 1u64;
        let d = (x.exp - e) as u64;
        let r2 = if d <= 4 * 128 {
            (x.mag << d) % &two_y
        } else {
            (x.mag % &two_y) * BigUint::from(2u32).modpow(&BigUint::from(d), &two_y) % &two_y
        };
        let (q_odd, r) = if r2 >= ym { (true, r2 - &ym) } else { (false, r2) };
        let twice = &r << 1u64;
        let (mag, flip) = match twice.cmp(&ym) {
            Ordering::Greater => (&ym - &r, true),
            Ordering::Equal if q_odd => (&ym - &r, true),
            _ => (r, false),
        };
        let sign = x.sign != flip;
        if mag.is_zero() {
            return StatusAnd::exact(Float::zero(fmt, x.sign));
        }
        let res = round(fmt, sign, &mag, e, false, RoundingMode::NearestTiesToEven);
        debug_assert!(res.status.is_ok());
        StatusAnd::exact(res.value)
    }

    /// Rounds to an integral value in the given mode. The status has INEXACT
    /// when the value changed (as IEEE roundToIntegralExact and C `rint`);
    /// callers modelling roundToIntegral / `nearbyint` ignore it. A zero
    /// result keeps the sign of the operand. In formats with `emax < sb - 1`
    /// (not IEEE interchange formats), the integer can exceed the largest
    /// finite value: the result is then the overflow result of the mode with
    /// OVERFLOW and INEXACT.
    pub fn round_to_integral(self, rm: RoundingMode) -> StatusAnd<Float> {
        let fmt = self.format();
        let a = match self.unpack() {
            None => return StatusAnd::exact(self),
            Some(a) => a,
        };
        if a.exp >= 0 {
            return StatusAnd::exact(self);
        }
        let (kept, rbit, st) = split(&a.mag, a.exp, 0, false);
        let mut kept = kept;
        if round_up(rm, a.sign, kept.bit(0), rbit, st) {
            kept += 1u32;
        }
        let status = if rbit || st { Status::INEXACT } else { Status::OK };
        if kept.is_zero() {
            return StatusAnd::new(Float::zero(fmt, a.sign), status);
        }
        // The integer is representable unless the format has emax < sb - 1
        // (e.g. `(_ FloatingPoint 3 5)`), where rounding up can overflow.
        let r = round(fmt, a.sign, &kept, 0, false, rm);
        StatusAnd::new(r.value, status | r.status)
    }

    /// The integer value `self` rounds to in mode `rm`, as a signed magnitude;
    /// None for NaN and infinities. The flag is true when rounding was inexact.
    pub(crate) fn to_integer(self, rm: RoundingMode) -> Option<(bool, BigUint, bool)> {
        match self.category() {
            Category::Nan | Category::Infinite => None,
            Category::Zero => Some((self.sign(), BigUint::zero(), false)),
            _ => {
                let a = self.unpack().unwrap();
                if a.exp >= 0 {
                    return Some((a.sign, a.mag << (a.exp as u64), false));
                }
                let (mut kept, rbit, st) = split(&a.mag, a.exp, 0, false);
                if round_up(rm, a.sign, kept.bit(0), rbit, st) {
                    kept += 1u32;
                }
                Some((a.sign, kept, rbit || st))
            }
        }
    }

    /// SMT-LIB `fp.min`: the smaller operand; a NaN operand yields the other;
    /// `min(-0, +0)` is `-0` (SMT-LIB leaves it unspecified; fpsym fixes it).
    pub fn min(self, rhs: Float) -> Float {
        self.check_same_format(rhs);
        if self.is_nan() {
            return rhs;
        }
        if rhs.is_nan() {
            return self;
        }
        if self.total_cmp(rhs) == Some(Ordering::Greater) {
            rhs
        } else {
            self
        }
    }

    /// SMT-LIB `fp.max`: the larger operand; a NaN operand yields the other;
    /// `max(-0, +0)` is `+0`.
    pub fn max(self, rhs: Float) -> Float {
        self.check_same_format(rhs);
        if self.is_nan() {
            return rhs;
        }
        if rhs.is_nan() {
            return self;
        }
        if self.total_cmp(rhs) == Some(Ordering::Less) {
            rhs
        } else {
            self
        }
    }
}

/// The sign of an exact zero sum of two zeros (or of an exact cancellation).
fn zero_sum(fmt: crate::Format, a_neg: bool, b_neg: bool, rm: RoundingMode) -> Float {
    if a_neg == b_neg {
        Float::zero(fmt, a_neg)
    } else {
        Float::zero(fmt, rm == RoundingMode::TowardNegative)
    }
}

/// Adds two finite non-zero exact values and rounds once.
pub(crate) fn add_exact(fmt: crate::Format, a: Unpacked, b: Unpacked, rm: RoundingMode) -> StatusAnd<Float> {
    let top = |u: &Unpacked| u.exp + u.mag.bits() as i64 - 1;
    let (big, mut small) = if top(&a) >= top(&b) { (a, b) } else { (b, a) };
    // A far smaller operand only decides the sticky bit: replace it by a
    // surrogate below every rounding boundary and below the big operand's
    // lowest bit, so the alignment shift stays small.
    let p = big.exp.min(top(&big) - fmt.sb() as i64 - 1) - 2;
    if top(&small) < p {
        small = Unpacked {
            sign: small.sign,
            mag: BigUint::from(1u32),
            exp: p - 1,
        };
    }
    let e = big.exp.min(small.exp);
    let bm = big.mag << ((big.exp - e) as u64);
    let sm = small.mag << ((small.exp - e) as u64);
    if big.sign == small.sign {
        return round(fmt, big.sign, &(bm + sm), e, false, rm);
    }
    match bm.cmp(&sm) {
        Ordering::Equal => StatusAnd::exact(zero_sum(fmt, big.sign, small.sign, rm)),
        Ordering::Greater => round(fmt, big.sign, &(bm - sm), e, false, rm),
        Ordering::Less => round(fmt, small.sign, &(sm - bm), e, false, rm),
    }
}
