//! Test oracle shared by the integration tests, written without using the
//! crate's arithmetic: an independent decoder of packed encodings, the IEEE
//! special-case rules of every operation over exact rationals, and a second,
//! independently written rounding routine over `BigInt`/`BigRational` for
//! formats too large to enumerate.
#![allow(dead_code)]

use fpsym_float::{Float, Format, RoundingMode, Status};
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;

use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::cmp::Ordering;

pub use RoundingMode::{
    NearestTiesToAway as RNA, NearestTiesToEven as RNE, TowardNegative as RTN, TowardPositive as RTP, TowardZero as RTZ,
};

/// All five modes.
pub const MODES: [RoundingMode; 5] = [RNE, RNA, RTP, RTN, RTZ];

/// A value decoded from its packed bits by the oracle.
#[derive(Clone, Debug, PartialEq)]
pub enum V {
    /// Any NaN.
    Nan,
    /// Infinity with its sign (true = negative).
    Inf(bool),
    /// A finite value and its sign bit (the sign matters for zeros).
    Fin(BigRational, bool),
}

impl V {
    pub fn sign(&self) -> bool {
        match self {
            V::Nan => false,
            V::Inf(s) | V::Fin(_, s) => *s,
        }
    }
    pub fn is_zero(&self) -> bool {
        matches!(self, V::Fin(q, _) if q.is_zero())
    }
    pub fn neg(&self) -> V {
        match self {
            V::Nan => V::Nan,
            V::Inf(s) => V::Inf(!s),
            V::Fin(q, s) => V::Fin(-q, !s),
        }
    }
}

// Values of binary formats are dyadic rationals `m * 2^e`. The oracle
// builds and combines them as (integer, exponent) pairs and creates the
// `BigRational` in lowest terms directly: letting `Ratio` reduce numbers of
// tens of thousands of bits (binary128 spans 2^-16494 .. 2^16384) with a gcd
// costs quadratic time. Quotients are kept unreduced (`Ratio`'s comparisons
// do not need lowest terms).

/// `m * 2^e` as a rational in lowest terms.
pub fn dyadic(m: BigInt, e: i64) -> BigRational {
    if m.is_zero() {
        return BigRational::zero();
    }
    let tz = m.trailing_zeros().unwrap() as i64;
    let m = m >> (tz as u64);
    let e = e + tz;
    if e >= 0 {
        BigRational::new_raw(m << (e as u64), BigInt::one())
    } else {
        BigRational::new_raw(m, BigInt::one() << ((-e) as u64))
    }
}

/// `(m, e)` with `q = m * 2^e`, for a dyadic rational in lowest terms.
pub fn undyadic(q: &BigRational) -> (BigInt, i64) {
    let d = q.denom();
    let k = d.trailing_zeros().unwrap_or(0);
    assert_eq!(d.bits(), k + 1, "not a dyadic rational in lowest terms: {q}");
    (q.numer().clone(), -(k as i64))
}

fn dy_add(p: &BigRational, q: &BigRational) -> BigRational {
    let ((m1, e1), (m2, e2)) = (undyadic(p), undyadic(q));
    let e = e1.min(e2);
    dyadic((m1 << ((e1 - e) as u64)) + (m2 << ((e2 - e) as u64)), e)
}

fn dy_mul(p: &BigRational, q: &BigRational) -> BigRational {
    let ((m1, e1), (m2, e2)) = (undyadic(p), undyadic(q));
    dyadic(m1 * m2, e1 + e2)
}

/// `p / q` for dyadic `p` and non-zero `q`, not reduced.
fn dy_div(p: &BigRational, q: &BigRational) -> BigRational {
    let ((m1, e1), (m2, e2)) = (undyadic(p), undyadic(q));
    let (mut n, mut d) = (m1, m2);
    if d.is_negative() {
        n = -n;
        d = -d;
    }
    let k = e1 - e2;
    if k >= 0 {
        n <<= k as u64;
    } else {
        d <<= (-k) as u64;
    }
    BigRational::new_raw(n, d)
}

/// `2^k` as a rational.
pub fn pow2(k: i64) -> BigRational {
    dyadic(BigInt::one(), k)
}

/// Decodes the SMT-LIB packed encoding `sign | exponent | fraction` of `(eb, sb)`.
pub fn decode(eb: u32, sb: u32, bits: u128) -> V {
    let fb = sb - 1;
    let sign = (bits >> (eb + fb)) & 1 == 1;
    let e = ((bits >> fb) & ((1u128 << eb) - 1)) as i64;
    let f = bits & ((1u128 << fb) - 1);
    let bias = (1i64 << (eb - 1)) - 1;
    if e == (1i64 << eb) - 1 {
        return if f == 0 { V::Inf(sign) } else { V::Nan };
    }
    let (m, k) = if e == 0 {
        (f, 1 - bias - fb as i64)
    } else {
        (f | (1u128 << fb), e - bias - fb as i64)
    };
    let m = BigInt::from(m);
    V::Fin(dyadic(if sign { -m } else { m }, k), sign)
}

/// Decodes a crate value through its packed bits.
pub fn dec(x: Float) -> V {
    let f = x.format();
    decode(f.eb(), f.sb(), x.packed())
}

/// The exact real result of an operation, before rounding.
#[derive(Clone, Debug)]
pub enum Real {
    /// An exact zero with this sign.
    Zero(bool),
    /// An exact zero from cancellation: `+0`, or `-0` under RTN.
    CancelZero,
    /// A non-zero rational.
    Rat(BigRational),
    /// The square root of a positive rational.
    Sqrt(BigRational),
}

/// What the oracle expects from an operation before the format is applied.
#[derive(Clone, Debug)]
pub enum Pre {
    /// A NaN with these flags.
    Nan(Status),
    /// An infinity (no flags unless given).
    Inf(bool, Status),
    /// An exact real to be rounded; the extra flags are or-ed in.
    Round(Real, Status),
}

fn fin(r: BigRational, neg_zero: bool) -> Pre {
    if r.is_zero() {
        Pre::Round(Real::Zero(neg_zero), Status::OK)
    } else {
        Pre::Round(Real::Rat(r), Status::OK)
    }
}

fn same(v: &V) -> Pre {
    match v {
        V::Nan => Pre::Nan(Status::OK),
        V::Inf(s) => Pre::Inf(*s, Status::OK),
        V::Fin(q, s) => fin(q.clone(), *s),
    }
}

fn sum(p: &BigRational, ps: bool, pz: bool, c: &BigRational, cs: bool) -> Pre {
    let s = dy_add(p, c);
    if !s.is_zero() {
        return Pre::Round(Real::Rat(s), Status::OK);
    }
    if pz && c.is_zero() && ps == cs {
        Pre::Round(Real::Zero(ps), Status::OK)
    } else {
        Pre::Round(Real::CancelZero, Status::OK)
    }
}

pub fn o_add(x: &V, y: &V) -> Pre {
    match (x, y) {
        (V::Nan, _) | (_, V::Nan) => Pre::Nan(Status::OK),
        (V::Inf(a), V::Inf(b)) if a != b => Pre::Nan(Status::INVALID),
        (V::Inf(a), _) => Pre::Inf(*a, Status::OK),
        (_, V::Inf(b)) => Pre::Inf(*b, Status::OK),
        (V::Fin(p, ps), V::Fin(q, qs)) => sum(p, *ps, p.is_zero(), q, *qs),
    }
}

pub fn o_sub(x: &V, y: &V) -> Pre {
    o_add(x, &y.neg())
}

pub fn o_mul(x: &V, y: &V) -> Pre {
    let s = x.sign() != y.sign();
    match (x, y) {
        (V::Nan, _) | (_, V::Nan) => Pre::Nan(Status::OK),
        (V::Inf(_), b) | (b, V::Inf(_)) if b.is_zero() => Pre::Nan(Status::INVALID),
        (V::Inf(_), _) | (_, V::Inf(_)) => Pre::Inf(s, Status::OK),
        (V::Fin(p, _), V::Fin(q, _)) => fin(dy_mul(p, q), s),
    }
}

pub fn o_div(x: &V, y: &V) -> Pre {
    let s = x.sign() != y.sign();
    match (x, y) {
        (V::Nan, _) | (_, V::Nan) => Pre::Nan(Status::OK),
        (V::Inf(_), V::Inf(_)) => Pre::Nan(Status::INVALID),
        (V::Inf(_), _) => Pre::Inf(s, Status::OK),
        (_, V::Inf(_)) => Pre::Round(Real::Zero(s), Status::OK),
        (V::Fin(p, _), V::Fin(q, _)) => {
            if q.is_zero() {
                if p.is_zero() {
                    Pre::Nan(Status::INVALID)
                } else {
                    Pre::Inf(s, Status::DIV_BY_ZERO)
                }
            } else {
                fin(dy_div(p, q), s)
            }
        }
    }
}

/// Fused multiply-add. A quiet NaN addend gives NaN without INVALID even for
/// `0 * inf + NaN` (x86-64 FMA3 behaviour, checked on hardware in random.rs).
pub fn o_fma(a: &V, b: &V, c: &V) -> Pre {
    let ps = a.sign() != b.sign();
    match (a, b, c) {
        (V::Nan, _, _) | (_, V::Nan, _) | (_, _, V::Nan) => Pre::Nan(Status::OK),
        (V::Inf(_), o, _) | (o, V::Inf(_), _) if o.is_zero() => Pre::Nan(Status::INVALID),
        (V::Inf(_), _, V::Inf(cs)) | (_, V::Inf(_), V::Inf(cs)) if *cs != ps => Pre::Nan(Status::INVALID),
        (V::Inf(_), _, _) | (_, V::Inf(_), _) => Pre::Inf(ps, Status::OK),
        (_, _, V::Inf(cs)) => Pre::Inf(*cs, Status::OK),
        (V::Fin(p, _), V::Fin(q, _), V::Fin(r, rs)) => {
            let prod = dy_mul(p, q);
            let pz = prod.is_zero();
            sum(&prod, ps, pz, r, *rs)
        }
    }
}

pub fn o_sqrt(x: &V) -> Pre {
    match x {
        V::Nan => Pre::Nan(Status::OK),
        V::Fin(q, s) if q.is_zero() => Pre::Round(Real::Zero(*s), Status::OK),
        V::Inf(true) => Pre::Nan(Status::INVALID),
        V::Fin(q, _) if q.is_negative() => Pre::Nan(Status::INVALID),
        V::Inf(false) => Pre::Inf(false, Status::OK),
        V::Fin(q, _) => Pre::Round(Real::Sqrt(q.clone()), Status::OK),
    }
}

/// The integer nearest `q` in mode `rm` (`q` need not be in lowest terms).
pub fn round_int(q: &BigRational, rm: RoundingMode) -> BigInt {
    assert!(q.denom().is_positive());
    let (fl, rem) = q.numer().div_mod_floor(q.denom());
    if rem.is_zero() {
        return fl;
    }
    let half_cmp = (&rem << 1u32).cmp(q.denom());
    let up = fl.clone() + 1;
    match rm {
        RTN => fl,
        RTP => up,
        RTZ => {
            if q.is_negative() {
                up
            } else {
                fl
            }
        }
        RNE | RNA => match half_cmp {
            Ordering::Less => fl,
            Ordering::Greater => up,
            Ordering::Equal => {
                if rm == RNA {
                    if q.is_negative() {
                        fl
                    } else {
                        up
                    }
                } else if fl.is_even() {
                    fl
                } else {
                    up
                }
            }
        },
    }
}

/// IEEE remainder.
pub fn o_rem(x: &V, y: &V) -> Pre {
    match (x, y) {
        (V::Nan, _) | (_, V::Nan) => Pre::Nan(Status::OK),
        (V::Inf(_), _) => Pre::Nan(Status::INVALID),
        (_, V::Fin(q, _)) if q.is_zero() => Pre::Nan(Status::INVALID),
        (_, V::Inf(_)) => same(x),
        (V::Fin(p, ps), V::Fin(q, _)) => {
            if p.is_zero() {
                return same(x);
            }
            // x = X * 2^e, y = Y * 2^e; the remainder is (X - n Y) * 2^e.
            let ((mx, ex), (my, ey)) = (undyadic(p), undyadic(q));
            let e = ex.min(ey);
            let (xx, yy) = (mx << ((ex - e) as u64), my << ((ey - e) as u64));
            let n = round_int(&BigRational::new_raw(xx.clone() * yy.signum(), yy.abs()), RNE);
            fin(dyadic(xx - n * yy, e), *ps)
        }
    }
}

/// roundToIntegralExact in mode `rm` (INEXACT when the value changes).
pub fn o_rti(x: &V, rm: RoundingMode) -> Pre {
    match x {
        V::Nan => Pre::Nan(Status::OK),
        V::Inf(s) => Pre::Inf(*s, Status::OK),
        V::Fin(q, s) => {
            if q.is_zero() {
                return fin(q.clone(), *s);
            }
            let n = BigRational::from_integer(round_int(q, rm));
            let st = if &n == q { Status::OK } else { Status::INEXACT };
            match fin(n, *s) {
                Pre::Round(r, _) => Pre::Round(r, st),
                _ => unreachable!(),
            }
        }
    }
}

/// Total order key for non-NaN values: `-0` below `+0`.
fn total_lt(a: &V, b: &V) -> bool {
    let key = |v: &V| -> (BigRational, i8) {
        match v {
            V::Inf(s) => (BigRational::zero(), if *s { -2 } else { 2 }),
            V::Fin(q, s) => (q.clone(), if q.is_zero() && *s { -1 } else { 0 }),
            V::Nan => unreachable!(),
        }
    };
    let (ka, kb) = (key(a), key(b));
    match (ka.1.abs() == 2, kb.1.abs() == 2) {
        (true, true) => ka.1 < kb.1,
        (true, false) => ka.1 < 0,
        (false, true) => kb.1 > 0,
        (false, false) => (ka.0.clone(), ka.1) < (kb.0.clone(), kb.1),
    }
}

/// fpsym's fp.min: NaN yields the other operand, `min(-0, +0) = -0`.
pub fn o_min(x: &V, y: &V) -> Pre {
    match (x, y) {
        (V::Nan, _) => same(y),
        (_, V::Nan) => same(x),
        _ => same(if total_lt(y, x) { y } else { x }),
    }
}

/// fpsym's fp.max: NaN yields the other operand, `max(-0, +0) = +0`.
pub fn o_max(x: &V, y: &V) -> Pre {
    match (x, y) {
        (V::Nan, _) => same(y),
        (_, V::Nan) => same(x),
        _ => same(if total_lt(x, y) { y } else { x }),
    }
}

/// Conversion of a value to another format.
pub fn o_convert(x: &V) -> Pre {
    same(x)
}

/// Conversion to a `width`-bit integer.
pub fn o_to_bv(x: &V, rm: RoundingMode, width: u32, signed: bool) -> (Option<u128>, Status) {
    let q = match x {
        V::Fin(q, _) => q,
        _ => return (None, Status::INVALID),
    };
    let n = round_int(q, rm);
    let (lo, hi) = if signed {
        (-(BigInt::one() << (width - 1)), (BigInt::one() << (width - 1)) - 1)
    } else {
        (BigInt::zero(), (BigInt::one() << width) - 1)
    };
    if n < lo || n > hi {
        return (None, Status::INVALID);
    }
    let st = if BigRational::from_integer(n.clone()) == *q {
        Status::OK
    } else {
        Status::INEXACT
    };
    let m = if n.is_negative() {
        (BigInt::one() << width) + n
    } else {
        n
    };
    let bits: u128 = m.try_into().unwrap();
    (Some(bits), st)
}

/// The integer a `width`-bit pattern denotes.
pub fn bv_value(bits: u128, width: u32, signed: bool) -> BigInt {
    let bits = if width == 128 {
        bits
    } else {
        bits & ((1u128 << width) - 1)
    };
    if signed && (bits >> (width - 1)) & 1 == 1 {
        BigInt::from(bits) - (BigInt::one() << width)
    } else {
        BigInt::from(bits)
    }
}

/// Conversion from an integer (zero is `+0`).
pub fn o_from_int(n: &BigInt) -> Pre {
    fin(BigRational::from_integer(n.clone()), false)
}

/// An expected result: NaN, or exact packed bits, and the flags.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Res {
    pub nan: bool,
    pub bits: u128,
    pub status: u8,
}

impl Res {
    /// Whether a crate result matches.
    pub fn matches(&self, got: Float, status: Status) -> bool {
        status.bits() == self.status
            && if self.nan {
                got.is_nan()
            } else {
                !got.is_nan() && got.packed() == self.bits
            }
    }
}

/// Packs fields of `(eb, sb)`.
pub fn encode(eb: u32, sb: u32, sign: bool, biased: u128, frac: u128) -> u128 {
    ((sign as u128) << (eb + sb - 1)) | (biased << (sb - 1)) | frac
}

/// Whether rounding away from zero: `neg` is the sign of the exact value,
/// `odd` whether the truncated significand is odd, `half` the remainder
/// compared with half a unit, `exact` whether the remainder is zero.
pub fn away(rm: RoundingMode, neg: bool, odd: bool, half: Ordering, exact: bool) -> bool {
    if exact {
        return false;
    }
    match rm {
        RNE => half == Ordering::Greater || (half == Ordering::Equal && odd),
        RNA => half != Ordering::Less,
        RTP => !neg,
        RTN => neg,
        RTZ => false,
    }
}

/// The result of an overflow.
pub fn overflow_res(eb: u32, sb: u32, neg: bool, rm: RoundingMode) -> Res {
    let to_inf = match rm {
        RNE | RNA => true,
        RTP => !neg,
        RTN => neg,
        RTZ => false,
    };
    let emask = (1u128 << eb) - 1;
    let bits = if to_inf {
        encode(eb, sb, neg, emask, 0)
    } else {
        encode(eb, sb, neg, emask - 1, (1u128 << (sb - 1)) - 1)
    };
    Res {
        nan: false,
        bits,
        status: (Status::OVERFLOW | Status::INEXACT).bits(),
    }
}

/// Positive magnitude of a real for the generic oracle: `n/d` or `sqrt(n/d)`.
struct Mag {
    n: BigUint,
    d: BigUint,
    sqrt: bool,
}

impl Mag {
    /// floor(log2(value)).
    fn ilog2(&self) -> i64 {
        let mut e = self.n.bits() as i64 - self.d.bits() as i64;
        // n/d >= 2^e ?
        let ge = |e: i64| {
            if e >= 0 {
                self.n >= (&self.d << (e as u64))
            } else {
                (&self.n << ((-e) as u64)) >= self.d
            }
        };
        while !ge(e) {
            e -= 1;
        }
        while ge(e + 1) {
            e += 1;
        }
        if self.sqrt {
            e.div_euclid(2)
        } else {
            e
        }
    }
    /// floor(value / 2^q), and the remainder against half a unit, and exactness.
    fn scale(&self, q: i64) -> (BigUint, Ordering, bool) {
        if !self.sqrt {
            let (nn, dd) = if q >= 0 {
                (self.n.clone(), &self.d << (q as u64))
            } else {
                (&self.n << ((-q) as u64), self.d.clone())
            };
            let (m, r) = nn.div_rem(&dd);
            let half = (&r << 1u32).cmp(&dd);
            (m, half, r.is_zero())
        } else {
            let q2 = 2 * q;
            let (nn, dd) = if q2 >= 0 {
                (self.n.clone(), &self.d << (q2 as u64))
            } else {
                (&self.n << ((-q2) as u64), self.d.clone())
            };
            let m = (&nn / &dd).sqrt();
            let exact = &m * &m * &dd == nn;
            let two_m1 = (&m << 1u32) + 1u32;
            let half = (&nn << 2u32).cmp(&(&two_m1 * &two_m1 * &dd));
            (m, half, exact)
        }
    }
}

/// Independent generic rounding of a real to `(eb, sb)`, with IEEE flags
/// (tininess after rounding, underflow only when inexact).
pub fn round_generic(eb: u32, sb: u32, real: &Real, rm: RoundingMode) -> Res {
    let w = eb + sb;
    let (neg, mag) = match real {
        Real::Zero(s) => {
            return Res {
                nan: false,
                bits: (*s as u128) << (w - 1),
                status: 0,
            }
        }
        Real::CancelZero => {
            return Res {
                nan: false,
                bits: ((rm == RTN) as u128) << (w - 1),
                status: 0,
            }
        }
        Real::Rat(q) => (
            q.is_negative(),
            Mag {
                n: q.numer().magnitude().clone(),
                d: q.denom().magnitude().clone(),
                sqrt: false,
            },
        ),
        Real::Sqrt(q) => {
            assert!(q.is_positive());
            (
                false,
                Mag {
                    n: q.numer().magnitude().clone(),
                    d: q.denom().magnitude().clone(),
                    sqrt: true,
                },
            )
        }
    };
    let bias = (1i64 << (eb - 1)) - 1;
    let (emin, emax) = (1 - bias, bias);
    let p = sb as i64;
    let e = mag.ilog2();
    let mut q = e.max(emin) - (p - 1);
    let (mut m, half, exact) = mag.scale(q);
    let odd = m.is_odd();
    if away(rm, neg, odd, half, exact) {
        m += 1u32;
        if m.bits() as i64 > p {
            m >>= 1u32;
            q += 1;
        }
    }
    if !m.is_zero() && q + m.bits() as i64 - 1 > emax {
        return overflow_res(eb, sb, neg, rm);
    }
    let mut status = if exact { Status::OK } else { Status::INEXACT };
    if !exact && e < emin {
        let tiny = if e == emin - 1 {
            let (mu, hu, xu) = mag.scale(e - (p - 1));
            let up = away(rm, neg, mu.is_odd(), hu, xu);
            !(up && (mu + 1u32).bits() as i64 > p)
        } else {
            true
        };
        if tiny {
            status |= Status::UNDERFLOW;
        }
    }
    let m: u128 = m.try_into().unwrap();
    let bits = if m < 1u128 << (sb - 1) {
        encode(eb, sb, neg, 0, m)
    } else {
        encode(eb, sb, neg, (q + p - 1 + bias) as u128, m - (1u128 << (sb - 1)))
    };
    Res {
        nan: false,
        bits,
        status: status.bits(),
    }
}

/// Finishes a [`Pre`] for format `(eb, sb)` with the generic rounding.
pub fn finish_generic(eb: u32, sb: u32, pre: &Pre, rm: RoundingMode) -> Res {
    match pre {
        Pre::Nan(s) => Res {
            nan: true,
            bits: 0,
            status: s.bits(),
        },
        Pre::Inf(neg, s) => Res {
            nan: false,
            bits: encode(eb, sb, *neg, (1u128 << eb) - 1, 0),
            status: s.bits(),
        },
        Pre::Round(r, s) => {
            let mut res = round_generic(eb, sb, r, rm);
            res.status |= s.bits();
            res
        }
    }
}

/// Generic expected result for a crate format.
pub fn expect(fmt: Format, pre: &Pre, rm: RoundingMode) -> Res {
    finish_generic(fmt.eb(), fmt.sb(), pre, rm)
}

/// Formats a result for messages.
pub fn show(fmt: Format, r: &Res) -> String {
    if r.nan {
        format!("NaN [{:?}]", Status::from_bits(r.status))
    } else {
        format!(
            "{} [{:?}]",
            Float::from_packed(fmt, r.bits),
            Status::from_bits(r.status)
        )
    }
}

/// A small deterministic PRNG (splitmix64) so failures are reproducible
/// without depending on a particular `rand` version's streams.
#[derive(Clone)]
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }
    pub fn next_u128(&mut self) -> u128 {
        ((self.next_u64() as u128) << 64) | self.next_u64() as u128
    }
    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    pub fn bool(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }
}
