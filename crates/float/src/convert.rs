//! Conversions between formats, to and from integers, and to and from exact rationals.

use crate::format::Format;
use crate::round::round;
use crate::status::{RoundingMode, Status, StatusAnd};
use crate::value::{mask, Category, Float};
use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

impl Float {
    /// Converts to another format, correctly rounded (NaN to NaN, infinities
    /// and zeros keep their sign).
    pub fn convert(self, to: Format, rm: RoundingMode) -> StatusAnd<Float> {
        match self.category() {
            Category::Nan => StatusAnd::exact(Float::nan(to)),
            Category::Infinite => StatusAnd::exact(Float::infinity(to, self.sign())),
            Category::Zero => StatusAnd::exact(Float::zero(to, self.sign())),
            _ => {
                let a = self.unpack().unwrap();
                round(to, a.sign, &a.mag, a.exp, false, rm)
            }
        }
    }

    /// Converts to a `width`-bit integer (two's complement when `signed`),
    /// rounding in mode `rm`. NaN, infinities and out-of-range values give
    /// None with INVALID; an in-range value that was not integral has INEXACT.
    pub fn to_bv(self, rm: RoundingMode, width: u32, signed: bool) -> StatusAnd<Option<u128>> {
        assert!((1..=128).contains(&width));
        // |x| >= 2^(width+1) is out of range in every mode; deciding it from
        // the exponent avoids materialising huge integers.
        if self.exponent().is_some_and(|e| e > width as i64) {
            return StatusAnd::new(None, Status::INVALID);
        }
        let Some((neg, mag, inexact)) = self.to_integer(rm) else {
            return StatusAnd::new(None, Status::INVALID);
        };
        let value = if neg { -BigInt::from(mag) } else { BigInt::from(mag) };
        let (lo, hi) = if signed {
            (-(BigInt::one() << (width - 1)), (BigInt::one() << (width - 1)) - 1)
        } else {
            (BigInt::zero(), (BigInt::one() << width) - 1)
        };
        if value < lo || value > hi {
            return StatusAnd::new(None, Status::INVALID);
        }
        let bits = if value.is_negative() {
            (BigInt::one() << width) + value
        } else {
            value
        };
        let bits = bits.to_u128().unwrap() & mask(width);
        StatusAnd::new(Some(bits), if inexact { Status::INEXACT } else { Status::OK })
    }

    /// The value of a `width`-bit integer (two's complement when `signed`),
    /// correctly rounded to `fmt`. Zero converts to `+0`.
    pub fn from_bv(fmt: Format, bits: u128, width: u32, signed: bool, rm: RoundingMode) -> StatusAnd<Float> {
        assert!((1..=128).contains(&width));
        let bits = bits & mask(width);
        let value = if signed && (bits >> (width - 1)) & 1 == 1 {
            BigInt::from(bits) - (BigInt::one() << width)
        } else {
            BigInt::from(bits)
        };
        Float::from_bigint(fmt, &value, rm)
    }

    /// An integer, correctly rounded to `fmt`. Zero converts to `+0`.
    pub fn from_bigint(fmt: Format, value: &BigInt, rm: RoundingMode) -> StatusAnd<Float> {
        round(fmt, value.is_negative(), value.magnitude(), 0, false, rm)
    }

    /// The exact value of a finite float as a rational; None for NaN and infinities.
    /// Both zeros give 0.
    pub fn to_rational(self) -> Option<BigRational> {
        match self.category() {
            Category::Nan | Category::Infinite => None,
            Category::Zero => Some(BigRational::zero()),
            _ => {
                let a = self.unpack().unwrap();
                let m = BigInt::from_biguint(if a.sign { Sign::Minus } else { Sign::Plus }, a.mag);
                Some(if a.exp >= 0 {
                    BigRational::from_integer(m << (a.exp as u64))
                } else {
                    BigRational::new(m, BigInt::one() << ((-a.exp) as u64))
                })
            }
        }
    }

    /// A rational, correctly rounded to `fmt`. Zero gives `+0` (the sign of an
    /// exact zero is not in a rational).
    pub fn from_rational(fmt: Format, q: &BigRational, rm: RoundingMode) -> StatusAnd<Float> {
        if q.is_zero() {
            return StatusAnd::exact(Float::zero(fmt, false));
        }
        let neg = q.is_negative();
        let n: BigUint = q.numer().magnitude().clone();
        let d: BigUint = q.denom().magnitude().clone();
        let sb = fmt.sb() as i64;
        // value = n / d = (n * 2^k / d) * 2^-k; pick k so the quotient has >= sb + 2 bits.
        let k = sb + 3 + d.bits() as i64 - n.bits() as i64;
        let (num, den) = if k >= 0 {
            (n << (k as u64), d)
        } else {
            (n, d << ((-k) as u64))
        };
        let (quo, rem) = num.div_rem(&den);
        round(fmt, neg, &quo, -k, !rem.is_zero(), rm)
    }
}
