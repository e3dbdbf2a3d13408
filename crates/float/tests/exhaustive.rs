//! Exhaustive tests on tiny formats against an enumeration oracle.
//!
//! Every operation, every rounding mode and every operand pair (triples for
//! fma) of `(_ FloatingPoint 3 3)` and `(_ FloatingPoint 4 4)` is compared with
//! an oracle that computes the exact real result with `BigRational` (see
//! `common/mod.rs`) and rounds it by searching the sorted list of *all finite
//! values of the format*, obtained by decoding every encoding independently of
//! the crate. Overflow, signed zeros, special values and all five flags
//! (underflow with tininess detected after rounding) are decided by the oracle
//! from the IEEE rules, never by the crate's rounding routine.

mod common;

use common::*;
use fpsym_float::{Category, Float, FloatInterval, Format, RoundingMode, Status, StatusAnd};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::cmp::Ordering;

/// The enumeration oracle for one format.
struct Table {
    fmt: Format,
    eb: u32,
    sb: u32,
    /// Every encoding: the crate's value and the oracle's decoding.
    all: Vec<(Float, V)>,
    /// All non-negative finite magnitudes in increasing order, followed by the
    /// overflow threshold `2^(emax+1)` (the next value of the unbounded grid).
    mags: Vec<BigRational>,
    mags_sq: Vec<BigRational>,
    /// Packed bits of each positive magnitude (the threshold has none).
    mag_bits: Vec<u128>,
    /// Midpoints between consecutive magnitudes, and their squares.
    mids: Vec<BigRational>,
    mids_sq: Vec<BigRational>,
    /// `2^emin`, the largest sb-bit value below it (`2^emin - 2^(emin-sb)`),
    /// and their midpoint, for tininess after rounding; with squares.
    tiny: [BigRational; 3],
    tiny_sq: [BigRational; 3],
}

impl Table {
    fn new(fmt: Format) -> Table {
        let (eb, sb) = (fmt.eb(), fmt.sb());
        let w = eb + sb;
        let all: Vec<(Float, V)> = (0..1u128 << w)
            .map(|b| (Float::from_packed(fmt, b), decode(eb, sb, b)))
            .collect();
        let mut pos: Vec<(BigRational, u128)> = (0..1u128 << (w - 1))
            .filter_map(|b| match decode(eb, sb, b) {
                V::Fin(q, _) => Some((q, b)),
                _ => None,
            })
            .collect();
        pos.sort();
        for p in pos.windows(2) {
            assert!(p[0].0 < p[1].0, "distinct finite values");
        }
        let bias = (1i64 << (eb - 1)) - 1;
        let emin = 1 - bias;
        let mut mags: Vec<BigRational> = pos.iter().map(|p| p.0.clone()).collect();
        let mag_bits: Vec<u128> = pos.iter().map(|p| p.1).collect();
        let largest = mags.last().unwrap().clone();
        let threshold = pow2(bias + 1);
        assert_eq!(
            &threshold - &largest,
            pow2(bias - (sb as i64 - 1)),
            "threshold is one ulp above largest"
        );
        mags.push(threshold);
        let two = BigRational::from_integer(BigInt::from(2));
        let mids: Vec<BigRational> = mags.windows(2).map(|p| (&p[0] + &p[1]) / &two).collect();
        let sq = |v: &Vec<BigRational>| v.iter().map(|x| x * x).collect::<Vec<_>>();
        let t0 = pow2(emin);
        let t1 = &t0 - pow2(emin - sb as i64);
        let t2 = &t0 - pow2(emin - sb as i64 - 1);
        let tiny_sq = [&t0 * &t0, &t1 * &t1, &t2 * &t2];
        Table {
            fmt,
            eb,
            sb,
            all,
            mags_sq: sq(&mags),
            mids_sq: sq(&mids),
            mags,
            mag_bits,
            mids,
            tiny: [t0, t1, t2],
            tiny_sq,
        }
    }

    fn finite(&self) -> impl Iterator<Item = &(Float, V)> {
        self.all.iter().filter(|(f, _)| f.is_finite())
    }

    fn bits_of(&self, neg: bool, i: usize) -> u128 {
        encode(self.eb, self.sb, neg, 0, 0) | self.mag_bits[i]
    }

    /// Rounds a non-zero real in all five modes by locating it among the
    /// enumerated values.
    fn round_all(&self, real: &Real) -> [Res; 5] {
        let (neg, q, sqrt) = match real {
            Real::Rat(q) => (q.is_negative(), q.abs(), false),
            Real::Sqrt(q) => (false, q.clone(), true),
            Real::Zero(s) => {
                return [Res {
                    nan: false,
                    bits: encode(self.eb, self.sb, *s, 0, 0),
                    status: 0,
                }; 5]
            }
            Real::CancelZero => {
                return MODES.map(|rm| Res {
                    nan: false,
                    bits: encode(self.eb, self.sb, rm == RTN, 0, 0),
                    status: 0,
                })
            }
        };
        // |x| compared with a magnitude given as (value, square).
        let cmp = |v: &BigRational, v2: &BigRational| if sqrt { q.cmp(v2) } else { q.cmp(v) };
        let n = self.mags.len();
        let top = n - 1;
        let over = |rm: RoundingMode| overflow_res(self.eb, self.sb, neg, rm);
        match cmp(&self.mags[top], &self.mags_sq[top]) {
            Ordering::Greater | Ordering::Equal => return MODES.map(over),
            Ordering::Less => {}
        }
        // Largest i with mags[i] <= |x| (mags[0] = 0 < |x|).
        let (mut lo, mut hi) = (0usize, top);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if cmp(&self.mags[mid], &self.mags_sq[mid]) == Ordering::Less {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        if cmp(&self.mags[lo], &self.mags_sq[lo]) == Ordering::Equal {
            let r = Res {
                nan: false,
                bits: self.bits_of(neg, lo),
                status: 0,
            };
            return [r; 5];
        }
        let hi = lo + 1;
        let half = cmp(&self.mids[lo], &self.mids_sq[lo]);
        let odd = self.mag_bits[lo] & 1 == 1;
        // Tininess after rounding: |x| rounded to sb bits with unbounded
        // exponent range is below 2^emin.
        let below_min = cmp(&self.tiny[0], &self.tiny_sq[0]) == Ordering::Less;
        let at_most_a = cmp(&self.tiny[1], &self.tiny_sq[1]) != Ordering::Greater;
        let half_t = cmp(&self.tiny[2], &self.tiny_sq[2]);
        MODES.map(|rm| {
            let up = away(rm, neg, odd, half, false);
            let pick = if up { hi } else { lo };
            if pick == top {
                return over(rm);
            }
            let tiny = below_min && (at_most_a || !away(rm, neg, true, half_t, false));
            let mut st = Status::INEXACT;
            if tiny {
                st |= Status::UNDERFLOW;
            }
            let bits = if pick == 0 {
                encode(self.eb, self.sb, neg, 0, 0)
            } else {
                self.bits_of(neg, pick)
            };
            Res {
                nan: false,
                bits,
                status: st.bits(),
            }
        })
    }

    fn finish_all(&self, pre: &Pre) -> [Res; 5] {
        match pre {
            Pre::Nan(s) => {
                [Res {
                    nan: true,
                    bits: 0,
                    status: s.bits(),
                }; 5]
            }
            Pre::Inf(neg, s) => {
                [Res {
                    nan: false,
                    bits: encode(self.eb, self.sb, *neg, (1u128 << self.eb) - 1, 0),
                    status: s.bits(),
                }; 5]
            }
            Pre::Round(r, s) => {
                let mut out = self.round_all(r);
                for o in out.iter_mut() {
                    o.status |= s.bits();
                }
                out
            }
        }
    }
}

fn check(t: &Table, what: &dyn Fn() -> String, exp: &Res, got: StatusAnd<Float>) {
    if !exp.matches(got.value, got.status) {
        panic!(
            "{} in {}: expected {}, got {} [{:?}]",
            what(),
            t.fmt,
            show(t.fmt, exp),
            got.value,
            got.status
        );
    }
}

type BinOp = fn(Float, Float, RoundingMode) -> StatusAnd<Float>;
type BinOracle = fn(&V, &V) -> Pre;

fn binary_exhaustive(fmt: Format, name: &str, op: BinOp, oracle: BinOracle) {
    let t = Table::new(fmt);
    for (x, vx) in &t.all {
        for (y, vy) in &t.all {
            let exp = t.finish_all(&oracle(vx, vy));
            for (k, rm) in MODES.iter().enumerate() {
                check(&t, &|| format!("{name}({x}, {y}) {rm}"), &exp[k], op(*x, *y, *rm));
            }
        }
    }
}

macro_rules! binary_tests {
    ($($test:ident: $fmt:expr, $name:literal, $op:expr, $oracle:expr;)*) => {$(
        #[test]
        fn $test() {
            binary_exhaustive(Format::new($fmt.0, $fmt.1).unwrap(), $name, $op, $oracle);
        }
    )*};
}

binary_tests! {
    add_3_3: (3, 3), "add", |x, y, rm| x.add(y, rm), o_add;
    add_4_4: (4, 4), "add", |x, y, rm| x.add(y, rm), o_add;
    sub_3_3: (3, 3), "sub", |x, y, rm| x.sub(y, rm), o_sub;
    sub_4_4: (4, 4), "sub", |x, y, rm| x.sub(y, rm), o_sub;
    mul_3_3: (3, 3), "mul", |x, y, rm| x.mul(y, rm), o_mul;
    mul_4_4: (4, 4), "mul", |x, y, rm| x.mul(y, rm), o_mul;
    div_3_3: (3, 3), "div", |x, y, rm| x.div(y, rm), o_div;
    div_4_4: (4, 4), "div", |x, y, rm| x.div(y, rm), o_div;
    rem_3_3: (3, 3), "rem", |x, y, _| x.rem(y), o_rem;
    rem_4_4: (4, 4), "rem", |x, y, _| x.rem(y), o_rem;
    min_3_3: (3, 3), "min", |x, y, _| StatusAnd::exact(x.min(y)), o_min;
    min_4_4: (4, 4), "min", |x, y, _| StatusAnd::exact(x.min(y)), o_min;
    max_3_3: (3, 3), "max", |x, y, _| StatusAnd::exact(x.max(y)), o_max;
    max_4_4: (4, 4), "max", |x, y, _| StatusAnd::exact(x.max(y)), o_max;
}

fn fma_check(t: &Table, a: &(Float, V), b: &(Float, V), c: &(Float, V)) {
    let exp = t.finish_all(&o_fma(&a.1, &b.1, &c.1));
    for (k, rm) in MODES.iter().enumerate() {
        check(
            t,
            &|| format!("fma({}, {}, {}) {rm}", a.0, b.0, c.0),
            &exp[k],
            a.0.fma(b.0, c.0, *rm),
        );
    }
}

#[test]
fn fma_3_3_all_triples() {
    let t = Table::new(Format::new(3, 3).unwrap());
    for a in &t.all {
        for b in &t.all {
            for c in &t.all {
                fma_check(&t, a, b, c);
            }
        }
    }
}

/// All (a, b) pairs of (4, 4) with a random sample of addends, biased
/// towards addends close to `-a*b` so that cancellation is exercised.
#[test]
fn fma_4_4_sampled() {
    let t = Table::new(Format::new(4, 4).unwrap());
    let mut rng = Rng(44);
    let n = t.all.len();
    for a in &t.all {
        for b in &t.all {
            for k in 0..6 {
                let c = if k < 3 {
                    &t.all[rng.below(n as u64) as usize]
                } else {
                    // Near -(a*b): the rounded product, negated, moved a few ulps.
                    let p = a.0.mul(b.0, RNE).value.neg();
                    let o = p.ordinal().unwrap_or(0) + rng.below(5) as i128 - 2;
                    let c = Float::from_ordinal(t.fmt, o).unwrap_or(p);
                    &t.all[c.packed() as usize]
                };
                fma_check(&t, a, b, c);
            }
        }
    }
}

/// Every triple of (4, 4): about 16.7M triples × 5 modes.
#[test]
#[ignore]
fn fma_4_4_all_triples() {
    let t = Table::new(Format::new(4, 4).unwrap());
    for a in &t.all {
        for b in &t.all {
            for c in &t.all {
                fma_check(&t, a, b, c);
            }
        }
    }
}

fn unary_exhaustive(
    fmt: Format,
    name: &str,
    op: fn(Float, RoundingMode) -> StatusAnd<Float>,
    oracle: fn(&V, RoundingMode) -> Pre,
) {
    let t = Table::new(fmt);
    for (x, vx) in &t.all {
        for rm in MODES {
            let exp = t.finish_all(&oracle(vx, rm))[MODES.iter().position(|m| *m == rm).unwrap()];
            check(&t, &|| format!("{name}({x}) {rm}"), &exp, op(*x, rm));
        }
    }
}

#[test]
fn sqrt_exhaustive() {
    for fmt in [(3, 3), (4, 4), (2, 2), (2, 5), (5, 2), (4, 7)] {
        unary_exhaustive(
            Format::new(fmt.0, fmt.1).unwrap(),
            "sqrt",
            |x, rm| x.sqrt(rm),
            |v, _| o_sqrt(v),
        );
    }
}

#[test]
fn round_to_integral_exhaustive() {
    for fmt in [(3, 3), (4, 4), (3, 5), (4, 6)] {
        unary_exhaustive(
            Format::new(fmt.0, fmt.1).unwrap(),
            "round_to_integral",
            |x, rm| x.round_to_integral(rm),
            o_rti,
        );
    }
}

#[test]
fn other_tiny_formats_binary_ops() {
    // A few more shapes (sb = 2, eb = 2, wide significand) with every pair.
    for (eb, sb) in [(2, 2), (2, 3), (3, 2), (2, 6), (5, 3)] {
        let fmt = Format::new(eb, sb).unwrap();
        binary_exhaustive(fmt, "add", |x, y, rm| x.add(y, rm), o_add);
        binary_exhaustive(fmt, "mul", |x, y, rm| x.mul(y, rm), o_mul);
        binary_exhaustive(fmt, "div", |x, y, rm| x.div(y, rm), o_div);
        binary_exhaustive(fmt, "rem", |x, y, _| x.rem(y), o_rem);
    }
}

#[test]
fn convert_between_tiny_formats() {
    let small = Table::new(Format::new(3, 3).unwrap());
    let big = Table::new(Format::new(4, 4).unwrap());
    for (from, to) in [(&small, &big), (&big, &small), (&small, &small)] {
        for (x, vx) in &from.all {
            let exp = to.finish_all(&o_convert(vx));
            for (k, rm) in MODES.iter().enumerate() {
                check(
                    to,
                    &|| format!("convert {x} from {} {rm}", from.fmt),
                    &exp[k],
                    x.convert(to.fmt, *rm),
                );
            }
        }
    }
}

/// Binary32 values around the range of the tiny formats: every exponent
/// that matters, the top significand bits enumerated, and low bits that put
/// the value exactly on, just off, and exactly between tiny-format values.
fn binary32_probe_values() -> Vec<u32> {
    let mut out = vec![];
    for sign in [0u32, 1] {
        for e in 0u32..=255 {
            if !(100..=140).contains(&e) && e != 0 && e != 255 && e != 1 && e != 254 {
                continue;
            }
            for top in 0u32..32 {
                for low in [
                    0u32, 1, 2, 0x3_FFFF, 0x4_0000, 0x4_0001, 0x7_FFFF, 0x1_0000, 0x2_0000, 0x3_0000,
                ] {
                    let frac = (top << 18) | low;
                    out.push((sign << 31) | (e << 23) | (frac & 0x7F_FFFF));
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

#[test]
fn convert_to_and_from_binary32() {
    for tf in [(3, 3), (4, 4)] {
        let t = Table::new(Format::new(tf.0, tf.1).unwrap());
        // Tiny -> binary32 is exact.
        for (x, vx) in &t.all {
            for rm in MODES {
                let r = x.convert(Format::BINARY32, rm);
                match vx {
                    V::Nan => assert!(r.value.is_nan() && r.status.is_ok()),
                    _ => {
                        assert!(r.status.is_ok(), "{x} -> binary32 {rm}: {:?}", r.status);
                        assert_eq!(dec(r.value), *vx, "{x} -> binary32");
                    }
                }
            }
        }
        // Binary32 -> tiny.
        for b in binary32_probe_values() {
            let x = Float::from_packed(Format::BINARY32, b as u128);
            let vx = decode(8, 24, b as u128);
            let exp = t.finish_all(&o_convert(&vx));
            for (k, rm) in MODES.iter().enumerate() {
                check(
                    &t,
                    &|| format!("convert {x} ({b:#x}) from binary32 {rm}"),
                    &exp[k],
                    x.convert(t.fmt, *rm),
                );
            }
        }
    }
}

#[test]
fn to_bv_exhaustive() {
    for tf in [(3, 3), (4, 4)] {
        let t = Table::new(Format::new(tf.0, tf.1).unwrap());
        for (x, vx) in &t.all {
            for rm in MODES {
                for width in [1u32, 2, 3, 4, 5, 7, 8, 9, 16, 128] {
                    for signed in [false, true] {
                        let got = x.to_bv(rm, width, signed);
                        let (v, st) = o_to_bv(vx, rm, width, signed);
                        assert_eq!(
                            (got.value, got.status),
                            (v, st),
                            "to_bv({x}, {rm}, {width}, signed={signed})"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn from_bv_exhaustive() {
    for tf in [(3, 3), (4, 4)] {
        let t = Table::new(Format::new(tf.0, tf.1).unwrap());
        for width in 1u32..=10 {
            for bits in 0..1u128 << width {
                for signed in [false, true] {
                    let n = bv_value(bits, width, signed);
                    let exp = t.finish_all(&o_from_int(&n));
                    for (k, rm) in MODES.iter().enumerate() {
                        check(
                            &t,
                            &|| format!("from_bv({bits:#x}, {width}, signed={signed}) {rm}"),
                            &exp[k],
                            Float::from_bv(t.fmt, bits, width, signed, *rm),
                        );
                    }
                }
            }
        }
        // Wide patterns: high bits set, all ones, and the extremes.
        for width in [16u32, 64, 127, 128] {
            let top = if width == 128 { u128::MAX } else { (1u128 << width) - 1 };
            for bits in [
                0,
                1,
                top,
                top >> 1,
                (top >> 1) + 1,
                top - 1,
                255,
                256,
                1 << (width - 1) | 7,
            ] {
                for signed in [false, true] {
                    let n = bv_value(bits, width, signed);
                    let exp = t.finish_all(&o_from_int(&n));
                    for (k, rm) in MODES.iter().enumerate() {
                        check(
                            &t,
                            &|| format!("from_bv({bits:#x}, {width}, signed={signed}) {rm}"),
                            &exp[k],
                            Float::from_bv(t.fmt, bits, width, signed, *rm),
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn rational_round_trips() {
    for tf in [(3, 3), (4, 4), (2, 2), (5, 6)] {
        let t = Table::new(Format::new(tf.0, tf.1).unwrap());
        for (x, vx) in &t.all {
            match vx {
                V::Fin(q, _) => {
                    assert_eq!(x.to_rational().as_ref(), Some(q), "to_rational({x})");
                    for rm in MODES {
                        let back = Float::from_rational(t.fmt, q, rm);
                        let want = if x.is_zero() { Float::zero(t.fmt, false) } else { *x };
                        assert_eq!(
                            (back.value, back.status),
                            (want, Status::OK),
                            "from_rational(to_rational({x})) {rm}"
                        );
                    }
                }
                _ => assert_eq!(x.to_rational(), None, "to_rational({x})"),
            }
        }
        // Arbitrary rationals p/q * 2^k.
        for p in -40i64..=40 {
            for q in 1i64..=12 {
                for k in [-12i64, -9, -7, -5, -3, -1, 0, 2, 4, 6, 9] {
                    let r = BigRational::new(BigInt::from(p), BigInt::from(q)) * pow2(k);
                    let pre = if r.is_zero() {
                        Pre::Round(Real::Zero(false), Status::OK)
                    } else {
                        Pre::Round(Real::Rat(r.clone()), Status::OK)
                    };
                    let exp = t.finish_all(&pre);
                    for (i, rm) in MODES.iter().enumerate() {
                        check(
                            &t,
                            &|| format!("from_rational({r}) {rm}"),
                            &exp[i],
                            Float::from_rational(t.fmt, &r, *rm),
                        );
                    }
                }
            }
        }
    }
}

/// The two oracles (enumeration and the generic rounding routine used by the
/// randomized tests) agree on (4, 4).
#[test]
fn oracles_agree() {
    let t = Table::new(Format::new(4, 4).unwrap());
    for (_, vx) in t.finite() {
        for (_, vy) in t.finite().step_by(3) {
            for pre in [o_div(vx, vy), o_mul(vx, vy), o_add(vx, vy), o_sqrt(vx)] {
                let a = t.finish_all(&pre);
                for (k, rm) in MODES.iter().enumerate() {
                    assert_eq!(a[k], expect(t.fmt, &pre, *rm), "{pre:?} {rm}");
                }
            }
        }
    }
}

/// Real-number comparison of oracle values (None when a NaN is involved).
fn real_cmp(a: &V, b: &V) -> Option<Ordering> {
    let rank = |v: &V| match v {
        V::Inf(true) => -1,
        V::Inf(false) => 1,
        _ => 0,
    };
    match (a, b) {
        (V::Nan, _) | (_, V::Nan) => None,
        (V::Fin(p, _), V::Fin(q, _)) => Some(p.cmp(q)),
        _ => Some(rank(a).cmp(&rank(b))),
    }
}

#[test]
fn classification_and_comparison() {
    for tf in [(3, 3), (4, 4), (2, 2)] {
        let t = Table::new(Format::new(tf.0, tf.1).unwrap());
        let min_normal = pow2(1 - ((1i64 << (t.eb - 1)) - 1));
        for (x, vx) in &t.all {
            let cat = match vx {
                V::Nan => Category::Nan,
                V::Inf(_) => Category::Infinite,
                V::Fin(q, _) if q.is_zero() => Category::Zero,
                V::Fin(q, _) if q.abs() < min_normal => Category::Subnormal,
                V::Fin(..) => Category::Normal,
            };
            assert_eq!(x.category(), cat, "{x}");
            assert_eq!(x.is_nan(), cat == Category::Nan);
            assert_eq!(x.is_infinite(), cat == Category::Infinite);
            assert_eq!(x.is_zero(), cat == Category::Zero);
            assert_eq!(x.is_subnormal(), cat == Category::Subnormal);
            assert_eq!(x.is_normal(), cat == Category::Normal);
            assert_eq!(x.is_finite(), matches!(vx, V::Fin(..)));
            assert_eq!(x.is_negative(), !x.is_nan() && vx.sign());
            assert_eq!(x.is_positive(), !x.is_nan() && !vx.sign());
            if x.is_nan() {
                assert_eq!(*x, Float::nan(t.fmt), "NaN is canonical");
                assert!(x.abs().is_nan() && x.neg().is_nan() && x.copy_sign(true).is_nan());
            } else {
                assert_eq!(dec(x.abs()), if vx.sign() { vx.neg() } else { vx.clone() });
                assert_eq!(dec(x.neg()), vx.neg());
                assert!(x.copy_sign(true).sign());
                assert!(!x.copy_sign(false).sign());
                assert_eq!(x.copy_sign(true).abs(), x.abs());
            }
            if let V::Fin(q, _) = vx {
                if !q.is_zero() {
                    // exponent(): floor(log2 |x|) clamped to emin.
                    let mut e = x.exponent().unwrap();
                    if x.is_normal() {
                        assert!(pow2(e) <= q.abs() && q.abs() < pow2(e + 1), "exponent({x})");
                    } else {
                        assert_eq!(e, 1 - ((1i64 << (t.eb - 1)) - 1));
                        e -= t.sb as i64 - 1;
                        assert_eq!(
                            BigRational::from_integer(BigInt::from(x.significand())) * pow2(e),
                            q.abs()
                        );
                    }
                } else {
                    assert_eq!(x.exponent(), None);
                }
            }
            for (y, vy) in &t.all {
                let c = real_cmp(vx, vy);
                assert_eq!(x.ieee_cmp(*y), c, "ieee_cmp({x}, {y})");
                assert_eq!(x.ieee_eq(*y), c == Some(Ordering::Equal), "ieee_eq({x}, {y})");
                let tc = c.map(|o| {
                    if o == Ordering::Equal && x.is_zero() && y.is_zero() {
                        vy.sign().cmp(&vx.sign())
                    } else {
                        o
                    }
                });
                assert_eq!(x.total_cmp(*y), tc, "total_cmp({x}, {y})");
                assert_eq!(*x == *y, x.packed() == y.packed(), "SMT-LIB equality");
            }
        }
    }
}

#[test]
fn ordinals_successors_and_ulp() {
    for tf in [(3, 3), (4, 4), (2, 2), (2, 4), (5, 2)] {
        let t = Table::new(Format::new(tf.0, tf.1).unwrap());
        let fmt = t.fmt;
        // Non-NaN values sorted by (value, -0 before +0).
        let mut vals: Vec<&(Float, V)> = t.all.iter().filter(|(f, _)| !f.is_nan()).collect();
        vals.sort_by(|a, b| real_cmp(&a.1, &b.1).unwrap().then(b.1.sign().cmp(&a.1.sign())));
        let zero_at = vals.iter().position(|(f, _)| *f == Float::zero(fmt, false)).unwrap();
        for (i, (x, _)) in vals.iter().enumerate() {
            let ord = i as i128 - zero_at as i128;
            assert_eq!(x.ordinal(), Some(ord), "ordinal({x})");
            assert_eq!(Float::from_ordinal(fmt, ord), Some(*x), "from_ordinal({ord})");
            assert_eq!(x.succ(), vals.get(i + 1).map(|p| p.0), "succ({x})");
            assert_eq!(x.pred(), i.checked_sub(1).map(|j| vals[j].0), "pred({x})");
        }
        let lo = -(zero_at as i128) - 1;
        let hi = (vals.len() - zero_at) as i128;
        assert_eq!(Float::from_ordinal(fmt, lo), None);
        assert_eq!(Float::from_ordinal(fmt, hi), None);
        assert_eq!(Float::from_ordinal(fmt, i128::MAX), None);
        assert_eq!(Float::from_ordinal(fmt, i128::MIN), None);
        assert_eq!(Float::zero(fmt, true).ordinal(), Some(-1));
        let nan = Float::nan(fmt);
        assert_eq!((nan.ordinal(), nan.succ(), nan.pred()), (None, None, None));
        assert!(nan.next_up().is_nan() && nan.next_down().is_nan() && nan.ulp().is_nan());

        for (x, vx) in t.all.iter().filter(|(f, _)| !f.is_nan()) {
            // nextUp: the least value comparing greater (IEEE); -0 if that is zero.
            let greater: Vec<&(Float, V)> = vals
                .iter()
                .copied()
                .filter(|(_, v)| real_cmp(v, vx) == Some(Ordering::Greater))
                .collect();
            let up = match greater.first() {
                None => *x, // +inf
                Some((f, v)) => {
                    if v.is_zero() {
                        Float::zero(fmt, true)
                    } else {
                        *f
                    }
                }
            };
            assert_eq!(x.next_up(), up, "next_up({x})");
            let less: Vec<&(Float, V)> = vals
                .iter()
                .copied()
                .filter(|(_, v)| real_cmp(v, vx) == Some(Ordering::Less))
                .collect();
            let down = match less.last() {
                None => *x,
                Some((f, v)) => {
                    if v.is_zero() {
                        Float::zero(fmt, false)
                    } else {
                        *f
                    }
                }
            };
            assert_eq!(x.next_down(), down, "next_down({x})");
            // ulp: gap from |x| to the next larger magnitude (the largest
            // finite value and infinities use the gap below the largest).
            let ulp = dec(x.ulp());
            let ax = x.abs();
            let largest = Float::largest(fmt, false);
            let gap = if ax == largest || ax.is_infinite() {
                let l = largest.to_rational().unwrap();
                &l - largest.pred().unwrap().to_rational().unwrap()
            } else {
                ax.succ().unwrap().to_rational().unwrap() - ax.to_rational().unwrap()
            };
            assert_eq!(ulp, V::Fin(gap, false), "ulp({x})");
        }
        // pow2 against the enumeration.
        for k in -40i64..40 {
            let want = t
                .all
                .iter()
                .find(|(_, v)| matches!(v, V::Fin(q, false) if *q == pow2(k)))
                .map(|p| p.0);
            assert_eq!(Float::pow2(fmt, k), want, "pow2({k})");
        }
    }
}

/// Every value once (one NaN), in encoding order.
fn universe(t: &Table) -> Vec<Float> {
    let mut u: Vec<Float> = t.all.iter().map(|p| p.0).filter(|f| !f.is_nan()).collect();
    u.push(Float::nan(t.fmt));
    u
}

fn members(t: &Table, i: &FloatInterval) -> Vec<Float> {
    universe(t).into_iter().filter(|f| i.contains(*f)).collect()
}

#[test]
fn intervals_by_enumeration() {
    let t = Table::new(Format::new(3, 3).unwrap());
    let fmt = t.fmt;
    let non_nan: Vec<Float> = {
        let mut v: Vec<Float> = t.all.iter().map(|p| p.0).filter(|f| !f.is_nan()).collect();
        v.sort_by_key(|f| f.ordinal().unwrap());
        v
    };
    let mut intervals = vec![
        FloatInterval::empty(fmt),
        FloatInterval::nan_only(fmt),
        FloatInterval::full(fmt),
    ];
    for (i, lo) in non_nan.iter().enumerate() {
        for hi in &non_nan[i.saturating_sub(1)..] {
            for nan in [false, true] {
                intervals.push(FloatInterval::new(*lo, *hi, nan));
            }
        }
    }
    for x in &t.all {
        intervals.push(FloatInterval::point(x.0));
    }
    let sets: Vec<Vec<Float>> = intervals.iter().map(|i| members(&t, i)).collect();
    for (i, s) in intervals.iter().zip(&sets) {
        // Definition of membership: the bounds in ordinal order, plus NaN.
        let expect: Vec<Float> = universe(&t)
            .into_iter()
            .filter(|f| {
                if f.is_nan() {
                    return i.may_be_nan();
                }
                match i.bounds() {
                    None => false,
                    Some((l, h)) => l.ordinal() <= f.ordinal() && f.ordinal() <= h.ordinal(),
                }
            })
            .collect();
        assert_eq!(*s, expect, "{i:?}");
        assert_eq!(i.count() as usize, s.len(), "count {i:?}");
        assert_eq!(i.count_non_nan() as usize, s.iter().filter(|f| !f.is_nan()).count());
        assert_eq!(i.is_empty(), s.is_empty());
        assert_eq!(i.is_point(), s.len() == 1);
        assert_eq!(
            i.as_point(),
            if s.len() == 1 { Some(s[0]) } else { None },
            "as_point {i:?}"
        );
        assert!(!i.without_nan().may_be_nan());
        assert_eq!(
            i.with_nan(true).count(),
            s.iter().filter(|f| !f.is_nan()).count() as u128 + 1
        );
        assert_eq!(i.lo(), i.bounds().map(|b| b.0));
        assert_eq!(i.hi(), i.bounds().map(|b| b.1));
        assert_eq!(i.format(), fmt);
        let mut sorted: Vec<Float> = s.iter().copied().filter(|f| !f.is_nan()).collect();
        sorted.sort_by_key(|f| f.ordinal());
        match i.midpoint() {
            None => assert!(sorted.is_empty()),
            Some(m) => assert_eq!(m, sorted[(sorted.len() - 1) / 2], "midpoint {i:?}"),
        }
        match i.split() {
            None => assert!(sorted.len() < 2, "split {i:?}"),
            Some((a, b)) => {
                let (sa, sb) = (members(&t, &a), members(&t, &b));
                assert!(!a.may_be_nan() && !b.may_be_nan());
                let half = sorted.len().div_ceil(2);
                let sort = |mut v: Vec<Float>| {
                    v.sort_by_key(|f| f.ordinal());
                    v
                };
                assert_eq!(sort(sa), sorted[..half].to_vec(), "split lo {i:?}");
                assert_eq!(sort(sb), sorted[half..].to_vec(), "split hi {i:?}");
            }
        }
    }
    // Intersection and hull of a sample of pairs, checked as sets.
    let mut rng = Rng(7);
    let n = intervals.len() as u64;
    for _ in 0..60_000 {
        let (ia, ib) = (rng.below(n) as usize, rng.below(n) as usize);
        let (a, b) = (&intervals[ia], &intervals[ib]);
        let (sa, sb) = (&sets[ia], &sets[ib]);
        let inter = a.intersect(b);
        let want: Vec<Float> = sa.iter().copied().filter(|f| sb.contains(f)).collect();
        assert_eq!(members(&t, &inter), want, "{a:?} ∩ {b:?} = {inter:?}");
        let hull = a.hull(b);
        let hs = members(&t, &hull);
        for f in sa.iter().chain(sb.iter()) {
            assert!(hs.contains(f), "{a:?} ∪ {b:?} ⊆ {hull:?}");
        }
        // Smallest: its bounds are bounds of the operands.
        if let Some((l, h)) = hull.bounds() {
            let ends: Vec<Float> = [a.bounds(), b.bounds()]
                .iter()
                .flatten()
                .flat_map(|(x, y)| [*x, *y])
                .collect();
            assert!(ends.contains(&l) && ends.contains(&h));
            let min_lo = ends.iter().map(|f| f.ordinal().unwrap()).min().unwrap();
            let max_hi = ends.iter().map(|f| f.ordinal().unwrap()).max().unwrap();
            assert_eq!((l.ordinal().unwrap(), h.ordinal().unwrap()), (min_lo, max_hi));
        } else {
            assert!(a.bounds().is_none() && b.bounds().is_none());
        }
        assert_eq!(hull.may_be_nan(), a.may_be_nan() || b.may_be_nan());
    }
    // Reversed bounds give no non-NaN value.
    let one = Float::one(fmt, false);
    assert!(FloatInterval::new(one, one.neg(), false).is_empty());
    assert_eq!(
        FloatInterval::new(one, one.neg(), true).as_point().map(|f| f.is_nan()),
        Some(true)
    );
    let _ = BigRational::one();
}
