//! Propagators for the C library functions (`(fpsym.sin rm x)`,
//! `(fpsym.pow rm x y)`, ...): the relation `y = glibc_f(x)`, where
//! `glibc_f` is this machine's glibc (see [`fpsym_expr::LibmFn`]).
//!
//! glibc is neither correctly rounded nor guaranteed monotone, so the
//! propagators never reason about its values directly, except at single
//! points (where they call it). They reason about an *enclosure*: for an
//! argument `x` in the function's regular domain, glibc's value lies in
//! `[RD(f(x)) - s, RU(f(x)) + s]`, where `f` is the true real function
//! (computed by MPFR, rounded outward), and `s` is a number of floats that
//! covers glibc's documented maximum error (see [`GLIBC_ULPS`]) with a
//! generous margin. When `f` is monotone on a piece of the domain, both
//! ends of the enclosure are monotone in `x` (they are roundings of `f(x)`
//! shifted by a constant number of floats), which gives:
//!
//! * **forward**: the image of a monotone piece `[a, b]` is the hull of the
//!   enclosures at `a` and `b`;
//! * **backward**: the values `x` of a piece whose enclosure can meet the
//!   result interval form an interval found by a binary search over float
//!   ordinals ([`super::mono::region`]).
//!
//! The domain of each function is cut into *regions*: monotone pieces
//! (with their direction), points evaluated exactly by glibc in every
//! rounding mode of the operand (infinities, signed zeros, poles like
//! `atanh(±1)`), regions where glibc returns NaN (domain errors, C99
//! Annex F), and regions where nothing is claimed beyond a safe image (the
//! negative side of `tgamma`/`lgamma`, `sin` over many periods). The
//! two-argument functions are cut into boxes of sign-constant pieces, each
//! monotone in both arguments, or with a result glibc gives the same on
//! the whole box (evaluated at its corners), or with a safe image.
//!
//! Soundness is the whole point: a propagator that removed a value glibc
//! can produce would make cp answer `unsat` wrongly. Where unsure, keep.

use super::mono::region;
use super::{fp_of, rm_of, Empty};
use crate::cp::domain::{from_ord, key, key_hi, key_lo, ord, Domain, RmSet};
use fpsym_expr::LibmFn;
use fpsym_float::{Float, FloatInterval, Format, RoundingMode};
use rug::float::{Constant, Round};
use rug::ops::Pow;
use rug::Integer;

/// An MPFR number.
type Mp = rug::Float;

/// glibc 2.36's largest known errors on x86_64, in ulps: `(function,
/// double, float, long double)`, the maximum over its four rounding modes
/// (to nearest, downward, toward zero, upward).
///
/// Source: glibc-2.36 `sysdeps/x86_64/fpu/libm-test-ulps` (Debian's
/// `glibc_2.36.orig.tar.xz`, `apt-get source glibc`), the file the
/// manual's "Errors in Math Functions" table is generated from: its
/// `double:`, `float:` and `ldouble:` lines (`ldouble` is x87's 80-bit
/// `long double` on x86_64), the maximum over the entries `"sin"`,
/// `"sin_downward"`, `"sin_towardzero"` and `"sin_upward"`; a missing
/// entry is 0 (correctly rounded on every tested input). These are
/// measured, not proved, bounds: [`slack`] widens them generously.
pub(crate) const GLIBC_ULPS: [(LibmFn, u32, u32, u32); 27] = [
    (LibmFn::Sin, 1, 1, 3),
    (LibmFn::Cos, 1, 1, 3),
    (LibmFn::Tan, 1, 2, 3),
    (LibmFn::Asin, 2, 1, 2),
    (LibmFn::Acos, 1, 1, 2),
    (LibmFn::Atan, 1, 2, 1),
    (LibmFn::Atan2, 1, 2, 1),
    (LibmFn::Sinh, 3, 3, 5),
    (LibmFn::Cosh, 3, 2, 3),
    (LibmFn::Tanh, 3, 3, 4),
    (LibmFn::Asinh, 3, 3, 5),
    (LibmFn::Acosh, 2, 2, 4),
    (LibmFn::Atanh, 3, 3, 5),
    (LibmFn::Exp, 1, 1, 2),
    (LibmFn::Exp2, 1, 1, 1),
    (LibmFn::Expm1, 1, 2, 4),
    (LibmFn::Log, 1, 2, 2),
    (LibmFn::Log2, 3, 3, 1),
    (LibmFn::Log10, 2, 3, 2),
    (LibmFn::Log1p, 2, 2, 4),
    (LibmFn::Pow, 1, 1, 4),
    (LibmFn::Cbrt, 5, 1, 1),
    (LibmFn::Hypot, 1, 0, 1),
    (LibmFn::Erf, 1, 1, 1),
    (LibmFn::Erfc, 5, 6, 5),
    (LibmFn::Tgamma, 9, 8, 6),
    (LibmFn::Lgamma, 5, 7, 7),
];

/// glibc's documented maximum error of `f` in format `fmt`, in ulps.
fn doc_ulps(f: LibmFn, fmt: Format) -> u32 {
    let (_, d, s, l) = GLIBC_ULPS
        .iter()
        .find(|e| e.0 == f)
        .copied()
        .expect("every function is in the table");
    if fmt == Format::BINARY32 {
        s
    } else if is_fp80(fmt) {
        l
    } else {
        d
    }
}

/// How many floats the enclosure adds on each side of `[RD(f), RU(f)]`:
/// `k = 2·max(documented, 1) + 1` ulps of the true value, doubled (plus
/// one) because below a power of two the floats are twice as dense as the
/// ulp glibc measures with.
pub(crate) fn slack(f: LibmFn, fmt: Format) -> i128 {
    let k = 2 * doc_ulps(f, fmt).max(1) as i128 + 1;
    2 * k + 1
}

// ---- values and MPFR ----

/// A binary32 or binary64 value as an `f64` (exact).
fn to_f64(x: Float) -> f64 {
    let d = if x.format() == Format::BINARY64 {
        x
    } else {
        x.convert(Format::BINARY64, RoundingMode::NearestTiesToEven).value
    };
    d.to_f64().expect("a binary64 value")
}

/// `v` rounded to `fmt` in direction `rm`.
fn in_fmt(fmt: Format, v: f64, rm: RoundingMode) -> Float {
    let d = Float::from_f64(v);
    if fmt == Format::BINARY64 {
        d
    } else {
        d.convert(fmt, rm).value
    }
}

/// The true `f(a)` rounded in direction `r` to an `f64` (subnormals and
/// overflow included); None where MPFR gives NaN.
fn mp_f64(f: LibmFn, a: &[f64], r: Round) -> Option<f64> {
    let x = Mp::with_val(53, a[0]);
    let y = Mp::with_val(53, a.get(1).copied().unwrap_or(0.0));
    let d = mp_apply(f, &x, &y, 53, r).to_f64_round(r);
    (!d.is_nan()).then_some(d)
}

/// Whether `fmt` is x87's 80-bit format (`long double`), as
/// `X86_FP80` or as SMT-LIB's `(_ FloatingPoint 15 64)`.
fn is_fp80(fmt: Format) -> bool {
    fpsym_expr::libm::is_fp80(fmt)
}

/// The exact value of a float as an MPFR number (its own precision; NaN
/// for NaN).
fn mp_of(x: Float) -> Mp {
    use rug::float::Special;
    let p = x.format().sb();
    if x.is_nan() {
        return Mp::with_val(p, Special::Nan);
    }
    if x.is_infinite() {
        return Mp::with_val(
            p,
            if x.is_negative() {
                Special::NegInfinity
            } else {
                Special::Infinity
            },
        );
    }
    if x.is_zero() {
        return Mp::with_val(
            p,
            if x.is_negative() {
                Special::NegZero
            } else {
                Special::Zero
            },
        );
    }
    let e = x.exponent().expect("finite nonzero") - x.format().frac_bits() as i64;
    let m = Mp::with_val(p, Integer::from(x.significand())) << (e as i32);
    if x.is_negative() {
        -m
    } else {
        m
    }
}

/// `v` rounded in direction `r` (`Down` or `Up`) to `fmt`, subnormals and
/// overflow included (rounding down past the largest float gives it, up
/// gives infinity); None for NaN.
fn mp_to(fmt: Format, v: &Mp, r: Round) -> Option<Float> {
    if v.is_nan() {
        return None;
    }
    if v.is_infinite() {
        return Some(Float::infinity(fmt, v.is_sign_negative()));
    }
    if v.is_zero() {
        return Some(Float::zero(fmt, v.is_sign_negative()));
    }
    let rm = if r == Round::Down {
        RoundingMode::TowardNegative
    } else {
        RoundingMode::TowardPositive
    };
    // Far outside the format's range, a stand-in of the same sign on the
    // same side of every float rounds the same way (and keeps the exact
    // rational below small).
    let e = i64::from(v.get_exp().expect("finite nonzero"));
    let (hi, lo) = (fmt.emax() + 2, fmt.emin() - fmt.sb() as i64 - 2);
    let clamped;
    let v = if e > hi || e < lo {
        let k = if e > hi { hi } else { lo };
        let one = Mp::with_val(8, if v.is_sign_negative() { -1 } else { 1 });
        clamped = one << (k as i32);
        &clamped
    } else {
        v
    };
    let (m, e) = v.to_integer_exp()?;
    let m = num_bigint::BigInt::parse_bytes(m.to_string_radix(16).as_bytes(), 16)?;
    let q = if e >= 0 {
        num_rational::BigRational::from_integer(m << (e as usize))
    } else {
        num_rational::BigRational::new(m, num_bigint::BigInt::from(1) << ((-e) as usize))
    };
    Some(Float::from_rational(fmt, &q, rm).value)
}

/// The true `f(args)` (floats of one format, any precision) rounded in
/// direction `r` (`Down` or `Up`) to their format; None where MPFR gives
/// NaN.
fn mp_fmt(f: LibmFn, args: &[Float], r: Round) -> Option<Float> {
    let fmt = args[0].format();
    let x = mp_of(args[0]);
    let y = args.get(1).map_or_else(|| Mp::new(fmt.sb()), |a| mp_of(*a));
    mp_to(fmt, &mp_apply(f, &x, &y, fmt.sb(), r), r)
}

/// The true `f(x)` (or `f(x, y)`) at precision `p` rounded in direction
/// `r`, by MPFR.
fn mp_apply(f: LibmFn, x: &Mp, y: &Mp, p: u32, r: Round) -> Mp {
    use LibmFn::*;
    match f {
        Sin => Mp::with_val_round(p, x.sin_ref(), r).0,
        Cos => Mp::with_val_round(p, x.cos_ref(), r).0,
        Tan => Mp::with_val_round(p, x.tan_ref(), r).0,
        Asin => Mp::with_val_round(p, x.asin_ref(), r).0,
        Acos => Mp::with_val_round(p, x.acos_ref(), r).0,
        Atan => Mp::with_val_round(p, x.atan_ref(), r).0,
        Atan2 => Mp::with_val_round(p, x.atan2_ref(y), r).0,
        Sinh => Mp::with_val_round(p, x.sinh_ref(), r).0,
        Cosh => Mp::with_val_round(p, x.cosh_ref(), r).0,
        Tanh => Mp::with_val_round(p, x.tanh_ref(), r).0,
        Asinh => Mp::with_val_round(p, x.asinh_ref(), r).0,
        Acosh => Mp::with_val_round(p, x.acosh_ref(), r).0,
        Atanh => Mp::with_val_round(p, x.atanh_ref(), r).0,
        Exp => Mp::with_val_round(p, x.exp_ref(), r).0,
        Exp2 => Mp::with_val_round(p, x.exp2_ref(), r).0,
        Expm1 => Mp::with_val_round(p, x.exp_m1_ref(), r).0,
        Log => Mp::with_val_round(p, x.ln_ref(), r).0,
        Log2 => Mp::with_val_round(p, x.log2_ref(), r).0,
        Log10 => Mp::with_val_round(p, x.log10_ref(), r).0,
        Log1p => Mp::with_val_round(p, x.ln_1p_ref(), r).0,
        Pow => Mp::with_val_round(p, x.pow(y), r).0,
        Cbrt => Mp::with_val_round(p, x.cbrt_ref(), r).0,
        Hypot => Mp::with_val_round(p, x.hypot_ref(y), r).0,
        Erf => Mp::with_val_round(p, x.erf_ref(), r).0,
        Erfc => Mp::with_val_round(p, x.erfc_ref(), r).0,
        Tgamma => Mp::with_val_round(p, x.gamma_ref(), r).0,
        Lgamma => Mp::with_val_round(p, x.ln_gamma_ref(), r).0,
    }
}

/// The enclosure of glibc's value at `args` (in the function's regular
/// domain): `[RD(f) - s, RU(f) + s]` floats, `s` = [`slack`], cut to the
/// function's [`range`]; the whole range if MPFR has no value there.
/// Both ends stay monotone in each argument where `f` is (a rounding
/// shifted by a constant, then a max or min with a constant).
pub(crate) fn enclose(f: LibmFn, args: &[Float]) -> (Float, Float) {
    let fmt = args[0].format();
    let Some((dn, up)) = true_bounds(f, args) else {
        return clamp(f, Float::infinity(fmt, true), Float::infinity(fmt, false));
    };
    let s = slack(f, fmt);
    clamp(f, key_lo(fmt, key(dn) - s), key_hi(fmt, key(up) + s))
}

// ---- ranges ----

/// `π/2` (`half`) or `π` rounded up to `fmt`.
fn pi_up(fmt: Format, half: bool) -> Float {
    let pi = Mp::with_val_round(fmt.sb() + 64, Constant::Pi, Round::Up).0;
    let v = if half { pi / 2u32 } else { pi };
    mp_to(fmt, &v, Round::Up).expect("a number")
}

/// Every non-NaN value glibc's `f` returns in format `fmt`, for any
/// argument (infinities included) in any rounding mode, as an interval in
/// the total order (`+0` above `-0`); None where nothing narrower than the
/// whole line is claimed. The ulp widening of [`enclose`] would otherwise
/// cross these bounds (`exp` of a huge negative number enclosed down to
/// negative subnormals, `tanh` and `sin` up to `1 + s` ulps).
///
/// These are facts about glibc, not about the real functions: each is
/// checked against glibc itself in every rounding mode, on random and
/// special arguments (`ranges_hold_glibc_values` in the unit tests; an
/// exhaustive run over every `float` is `ranges_hold_for_every_float`).
/// glibc rounds the limit outward where it is not a float (`atan` of a
/// huge number is `RU(π/2)` upward), and the zeros it returns are `+0`
/// for `exp`, `exp2`, `erfc`, `acos`, `acosh`, `hypot` (`exp(-inf)`,
/// `exp(-1000)` downward, `acos(1)`, `acosh(1)`, `hypot(0, -0)`).
/// Left out where glibc goes past the limit: `expm1l` (x87) returns
/// `-1 - ulp` downward, `atan2f(y, -inf)` upward is `RU(π)` + 1 ulp.
pub(crate) fn range(f: LibmFn, fmt: Format) -> Option<(Float, Float)> {
    use LibmFn::*;
    let one = Float::one(fmt, false);
    let pz = Float::zero(fmt, false);
    let pinf = Float::infinity(fmt, false);
    Some(match f {
        // sinf rounded down (up) reaches -1 - ulp (1 + ulp): at 3π/2
        // (π/2) and 12 more floats; no float goes further (exhaustive).
        // No clamp for double and long double: glibc's sin and cos
        // were only sampled, and `unit_bound` is close already.
        Sin | Cos if fmt == Format::BINARY32 => (one.next_up().neg(), one.next_up()),
        Tanh | Erf => (one.neg(), one),
        Exp | Exp2 | Hypot | Acosh => (pz, pinf),
        Expm1 if !is_fp80(fmt) => (one.neg(), pinf),
        Cosh => (one, pinf),
        Erfc => (pz, cst(fmt, 2.0, false)),
        Atan | Asin => {
            let h = pi_up(fmt, true);
            (h.neg(), h)
        }
        Acos => (pz, pi_up(fmt, false)),
        _ => return None,
    })
}

/// `[lo, hi]` cut to the [`range`] of `f` (unchanged if they do not
/// meet, which a sound enclosure never does).
fn clamp(f: LibmFn, lo: Float, hi: Float) -> (Float, Float) {
    let Some((rl, rh)) = range(f, lo.format()) else {
        return (lo, hi);
    };
    let l = if ord(lo) < ord(rl) { rl } else { lo };
    let h = if ord(hi) > ord(rh) { rh } else { hi };
    if ord(l) <= ord(h) {
        (l, h)
    } else {
        (lo, hi)
    }
}

/// `img` cut to the [`range`] of `f` (its NaN flag kept).
fn in_range(f: LibmFn, img: FloatInterval) -> FloatInterval {
    match range(f, img.format()) {
        Some((l, h)) => img.intersect(&iv(l, h).with_nan(true)),
        None => img,
    }
}

/// `[RD(f(args)), RU(f(args))]` in the arguments' format (None where MPFR
/// gives NaN): through `f64` for `Float32` and `Float64`, at 64 bits with
/// x87's exponent range for `long double`.
fn true_bounds(f: LibmFn, args: &[Float]) -> Option<(Float, Float)> {
    let fmt = args[0].format();
    if is_fp80(fmt) {
        return mp_fmt(f, args, Round::Down).zip(mp_fmt(f, args, Round::Up));
    }
    let a: Vec<f64> = args.iter().map(|x| to_f64(*x)).collect();
    let (dn, up) = mp_f64(f, &a, Round::Down).zip(mp_f64(f, &a, Round::Up))?;
    Some((
        in_fmt(fmt, dn, RoundingMode::TowardNegative),
        in_fmt(fmt, up, RoundingMode::TowardPositive),
    ))
}

/// glibc's values at `args` in the modes of `rms`, as an interval (NaN
/// flag for a NaN value).
fn exact(f: LibmFn, rms: RmSet, args: &[Float]) -> FloatInterval {
    let fmt = args[0].format();
    let mut out = FloatInterval::empty(fmt);
    for rm in rms.iter() {
        out = match f.glibc(rm, args) {
            Some((v, _)) if v.is_nan() => out.with_nan(true),
            Some((v, _)) => out.hull(&FloatInterval::point(v)),
            None => FloatInterval::full(fmt),
        };
    }
    out
}

// ---- small helpers on floats ----

/// `v` rounded down (`down`) or up to `fmt`.
fn cst(fmt: Format, v: f64, down: bool) -> Float {
    let rm = if down {
        RoundingMode::TowardNegative
    } else {
        RoundingMode::TowardPositive
    };
    in_fmt(fmt, v, rm)
}

/// The largest finite float of a sign.
fn max_f(fmt: Format, neg: bool) -> Float {
    Float::largest(fmt, neg)
}

/// The smallest nonzero float of a sign.
fn min_f(fmt: Format, neg: bool) -> Float {
    Float::smallest(fmt, neg)
}

/// The non-NaN interval `[l, h]` (total order).
fn iv(l: Float, h: Float) -> FloatInterval {
    FloatInterval::new(l, h, false)
}

/// The part of `[l, h]` inside `x` (non-NaN), or None.
fn clip(x: &FloatInterval, l: Float, h: Float) -> Option<(Float, Float)> {
    let (a, b) = x.bounds()?;
    let lo = ord(a).max(ord(l));
    let hi = ord(b).min(ord(h));
    (lo <= hi).then(|| (from_ord(l.format(), lo), from_ord(l.format(), hi)))
}

/// `[-b, b]` for `b` = the enclosure's top above 1: a bound on `sin`, `cos`.
fn unit_bound(f: LibmFn, fmt: Format) -> FloatInterval {
    let b = key_hi(fmt, key(Float::one(fmt, false)) + slack(f, fmt));
    iv(b.neg(), b)
}

// ---- one-argument functions: regions ----

/// What is known of glibc's `f` on a region of arguments.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// The true function increases on the region.
    Inc,
    /// The true function decreases on the region.
    Dec,
    /// glibc returns NaN on the whole region.
    Nan,
    /// A single argument, evaluated by glibc itself.
    Point,
    /// The true function is convex on the region with values at least the
    /// given float: the image is `[floor, max(enclosure tops at the ends)]`.
    Convex(Float),
    /// Nothing claimed beyond this image: the region's arguments are kept
    /// or dropped as a whole.
    Opaque(FloatInterval),
}

/// A range of arguments `[lo, hi]` (total order) and what is known there.
#[derive(Clone, Copy, Debug)]
struct Region {
    lo: Float,
    hi: Float,
    kind: Kind,
}

/// How the finite nonzero arguments of a function are cut.
#[derive(Clone, Copy, Debug)]
enum Base {
    /// One kind on the whole range.
    Is(Kind),
    /// `sin`, `cos`, `tan`: cut at the extrema (or poles) `(k + 1/2)π`,
    /// or `kπ` for `cos`.
    Trig,
}

/// The finite arguments of `f` cut into ranges (the zeros inside them are
/// taken out later: they are points).
fn base(f: LibmFn, fmt: Format) -> Vec<(Float, Float, Base)> {
    use Base::Is;
    use Kind::*;
    use LibmFn::*;
    let (nmax, pmax) = (max_f(fmt, true), max_f(fmt, false));
    let one = Float::one(fmt, false);
    let m1 = one.neg();
    let all = |k: Kind| vec![(nmax, pmax, Is(k))];
    // the minimum of Γ on (0, ∞) lies at 1.46163214496836..., Γ = 0.885603...
    let g_lo = cst(fmt, 1.4616, true);
    let g_hi = cst(fmt, 1.4617, false);
    // below -2^(p-1) every float is an integer: a pole of both (tgamma
    // NaN, lgamma +inf); between there and 0 no claim at all
    let int = Float::pow2(fmt, fmt.sb() as i64 - 1).expect("a power of two").neg();
    let pole = if f == Tgamma {
        Nan
    } else {
        Opaque(FloatInterval::point(Float::infinity(fmt, false)))
    };
    let gamma = |floor: f64| {
        vec![
            (nmax, int, Is(pole)),
            (
                int.next_up(),
                Float::zero(fmt, true),
                Is(Opaque(FloatInterval::full(fmt))),
            ),
            (Float::zero(fmt, false), g_lo, Is(Dec)),
            (g_lo.next_up(), g_hi.next_down(), Is(Convex(cst(fmt, floor, true)))),
            (g_hi, pmax, Is(Inc)),
        ]
    };
    match f {
        Sin | Cos | Tan => vec![(nmax, pmax, Base::Trig)],
        Atan | Sinh | Tanh | Asinh | Exp | Exp2 | Expm1 | Cbrt | Erf => all(Inc),
        Erfc => all(Dec),
        Asin | Acos => vec![
            (nmax, m1.next_down(), Is(Nan)),
            (m1, one, Is(if f == Asin { Inc } else { Dec })),
            (one.next_up(), pmax, Is(Nan)),
        ],
        Cosh => vec![
            (nmax, Float::zero(fmt, true), Is(Dec)),
            (Float::zero(fmt, false), pmax, Is(Inc)),
        ],
        Acosh => vec![(nmax, one.next_down(), Is(Nan)), (one, pmax, Is(Inc))],
        Atanh => vec![
            (nmax, m1.next_down(), Is(Nan)),
            (m1.next_up(), one.next_down(), Is(Inc)),
            (one.next_up(), pmax, Is(Nan)),
        ],
        Log | Log2 | Log10 => vec![
            (nmax, Float::zero(fmt, true), Is(Nan)),
            (Float::zero(fmt, false), pmax, Is(Inc)),
        ],
        Log1p => vec![(nmax, m1.next_down(), Is(Nan)), (m1.next_up(), pmax, Is(Inc))],
        Tgamma => gamma(0.885),
        Lgamma => gamma(-0.1215),
        Atan2 | Pow | Hypot => unreachable!("{f} takes two arguments"),
    }
}

/// The arguments of `f` evaluated by glibc itself: the infinities, the
/// signed zeros, and the poles inside a monotone range's ends.
fn points(f: LibmFn, fmt: Format) -> Vec<Float> {
    let mut v = vec![
        Float::infinity(fmt, true),
        Float::zero(fmt, true),
        Float::zero(fmt, false),
        Float::infinity(fmt, false),
    ];
    let one = Float::one(fmt, false);
    match f {
        LibmFn::Atanh => v.extend([one.neg(), one]),
        LibmFn::Log1p => v.push(one.neg()),
        _ => {}
    }
    v
}

/// At most this many monotone pieces of `sin`, `cos`, `tan` are told apart;
/// a wider argument range gets the safe bound only.
const TRIG_PIECES: i64 = 16;

/// The regions of `f` inside the non-NaN part `[a, b]` of an argument domain.
fn regions(f: LibmFn, a: Float, b: Float) -> Vec<Region> {
    let fmt = a.format();
    let x = iv(a, b);
    let mut out: Vec<Region> = points(f, fmt)
        .into_iter()
        .filter(|p| x.contains(*p))
        .map(|p| Region {
            lo: p,
            hi: p,
            kind: Kind::Point,
        })
        .collect();
    let halves = [
        (max_f(fmt, true), min_f(fmt, true)),
        (min_f(fmt, false), max_f(fmt, false)),
    ];
    for (l, h, k) in base(f, fmt) {
        for &(hl, hh) in &halves {
            let Some((l2, h2)) = clip(&iv(l, h), hl, hh) else {
                continue;
            };
            let Some((lo, hi)) = clip(&x, l2, h2) else { continue };
            match k {
                Base::Is(kind) => out.push(Region { lo, hi, kind }),
                Base::Trig => out.extend(trig(f, lo, hi)),
            }
        }
    }
    out
}

/// The precision of the critical points of `sin`, `cos`, `tan` for
/// integers or arguments of `bits` bits: enough for `x / π` and `j·π/2`
/// with integer parts that long, at least 1280 bits (all of `double`'s
/// 1024-bit integers); up to 16640 for x87's largest `long double`s. Any
/// precision is sound (the bounds are rounded outward); more places the
/// critical points closer.
fn trig_prec(bits: u64) -> u32 {
    (bits.min(1 << 20) as u32 + 256).max(1280)
}

/// Bounds `[lo, hi]` on `j·π/2`, at precision `prec`.
fn half_pi_multiple(j: &Integer, prec: u32) -> (Mp, Mp) {
    let pl = Mp::with_val_round(prec, Constant::Pi, Round::Down).0 / 2u32;
    let ph = Mp::with_val_round(prec, Constant::Pi, Round::Up).0 / 2u32;
    let (a, b) = if *j >= 0 { (&pl, &ph) } else { (&ph, &pl) };
    let lo = Mp::with_val_round(prec, a * j, Round::Down).0;
    let hi = Mp::with_val_round(prec, b * j, Round::Up).0;
    (lo, hi)
}

/// The last float `<= c_j` and the first float `>= c_j` for the critical
/// point `c_j = j·π/2` (adjacent floats, or one float, or a gap of floats
/// too close to tell apart).
fn around(fmt: Format, j: &Integer) -> (Float, Float) {
    let (lo, hi) = half_pi_multiple(j, trig_prec(u64::from(j.significant_bits())));
    if is_fp80(fmt) {
        let inf = |neg| Float::infinity(fmt, neg);
        return (
            mp_to(fmt, &lo, Round::Down).unwrap_or(inf(true)),
            mp_to(fmt, &hi, Round::Up).unwrap_or(inf(false)),
        );
    }
    (
        in_fmt(fmt, lo.to_f64_round(Round::Down), RoundingMode::TowardNegative),
        in_fmt(fmt, hi.to_f64_round(Round::Up), RoundingMode::TowardPositive),
    )
}

/// `floor(x / (π/2))`, approximately (checked by the caller).
fn half_pi_index(x: Float) -> Integer {
    let prec = trig_prec(x.exponent().unwrap_or(0).max(0) as u64);
    let pi = Mp::with_val(prec, Constant::Pi) / 2u32;
    let q = Mp::with_val(prec, &mp_of(x)) / pi;
    q.to_integer_round(Round::Down).map(|(i, _)| i).unwrap_or_default()
}

/// The monotone pieces of `sin`, `cos` or `tan` on `[p, q]` (finite, one
/// sign). Piece `n` lies between the critical points `c_n` and `c_{n+1}`,
/// `c_n = (n + 1/2)π` (`sin`, `tan`) or `nπ` (`cos`): `sin` and `cos`
/// increase on the odd pieces, `tan` on every piece.
fn trig(f: LibmFn, p: Float, q: Float) -> Vec<Region> {
    let fmt = p.format();
    let safe = match f {
        LibmFn::Tan => iv(Float::infinity(fmt, true), Float::infinity(fmt, false)),
        _ => unit_bound(f, fmt),
    };
    let opaque = |lo, hi| Region {
        lo,
        hi,
        kind: Kind::Opaque(safe),
    };
    let off: i64 = if f == LibmFn::Cos { 0 } else { 1 };
    // c_n = (2n + off)·π/2
    let j_of = |n: &Integer| Integer::from(n * 2u32) + off;
    let mut n: Integer = (half_pi_index(p) - off) >> 1u32;
    let nq: Integer = (half_pi_index(q) - off) >> 1u32;
    if Integer::from(&nq - &n) > TRIG_PIECES {
        return vec![opaque(p, q)];
    }
    // make sure c_n <= p
    for _ in 0..4 {
        if ord(around(fmt, &j_of(&n)).1) <= ord(p) {
            break;
        }
        n -= 1;
    }
    if ord(around(fmt, &j_of(&n)).1) > ord(p) {
        return vec![opaque(p, q)];
    }
    let mut out = Vec::new();
    let mut start = p;
    for _ in 0..TRIG_PIECES + 4 {
        let (below, above) = around(fmt, &(j_of(&n) + 2));
        let inc = f == LibmFn::Tan || n.is_odd();
        let end = if ord(below) < ord(q) { below } else { q };
        if ord(start) <= ord(end) {
            let kind = if inc { Kind::Inc } else { Kind::Dec };
            out.push(Region {
                lo: start,
                hi: end,
                kind,
            });
        }
        if ord(below) >= ord(q) {
            return out;
        }
        if ord(above) - ord(below) > 1 {
            // floats too close to c_{n+1} to place: no claim beyond the bound
            let (gl, gh) = (from_ord(fmt, ord(below) + 1), from_ord(fmt, ord(above) - 1));
            if let Some((l, h)) = clip(&iv(p, q), gl, gh) {
                out.push(opaque(l, h));
            }
        }
        start = above;
        if ord(start) > ord(q) {
            return out;
        }
        n += 1;
    }
    vec![opaque(p, q)]
}

/// The image of a region.
fn image(f: LibmFn, rms: RmSet, r: &Region) -> FloatInterval {
    match r.kind {
        Kind::Inc => iv(enclose(f, &[r.lo]).0, enclose(f, &[r.hi]).1),
        Kind::Dec => iv(enclose(f, &[r.hi]).0, enclose(f, &[r.lo]).1),
        Kind::Nan => FloatInterval::nan_only(r.lo.format()),
        Kind::Point => exact(f, rms, &[r.lo]),
        Kind::Convex(floor) => {
            let (ha, hb) = (enclose(f, &[r.lo]).1, enclose(f, &[r.hi]).1);
            iv(floor, if ord(ha) >= ord(hb) { ha } else { hb })
        }
        Kind::Opaque(img) => in_range(f, img),
    }
}

/// The arguments of region `r` (with image `img`) that can give a value
/// in `z`.
fn keep(f: LibmFn, r: &Region, img: &FloatInterval, z: &FloatInterval) -> FloatInterval {
    let fmt = r.lo.format();
    if img.intersect(z).is_empty() {
        return FloatInterval::empty(fmt);
    }
    let all = iv(r.lo, r.hi);
    if !matches!(r.kind, Kind::Inc | Kind::Dec) {
        return all;
    }
    let Some((zl, zh)) = z.bounds() else {
        return FloatInterval::empty(fmt);
    };
    let at = |o: i128| enclose(f, &[from_ord(fmt, o)]);
    let hints = |t: Float| -> Vec<i128> { hint(f, r.lo, r.hi, t).into_iter().collect() };
    narrow(
        (ord(r.lo), ord(r.hi)),
        fmt,
        (|o| ord(at(o).1) >= ord(zl), hints(zl)),
        (|o| ord(at(o).0) <= ord(zh), hints(zh)),
    )
}

/// Where `f` takes the value `t` on the monotone region `[lo, hi]`,
/// approximately (the host's `f64` inverse), as an ordinal: only the
/// speed of the search depends on it.
fn hint(f: LibmFn, lo: Float, hi: Float, t: Float) -> Option<i128> {
    use LibmFn::*;
    let (l, h, y) = (to_f64(lo), to_f64(hi), to_f64(t));
    let pick = |c: &[f64]| c.iter().copied().find(|x| *x >= l && *x <= h);
    let periodic = |base: [f64; 2], period: f64| {
        let k = (l / period).floor();
        let c: Vec<f64> = (-1..=2)
            .flat_map(|d| base.map(|b| b + (k + d as f64) * period))
            .collect();
        pick(&c)
    };
    let tau = std::f64::consts::TAU;
    let x = match f {
        Sin => periodic([y.asin(), std::f64::consts::PI - y.asin()], tau),
        Cos => periodic([y.acos(), -y.acos()], tau),
        Tan => periodic([y.atan(), y.atan()], std::f64::consts::PI),
        Asin => Some(y.sin()),
        Acos => Some(y.cos()),
        Atan => Some(y.tan()),
        Sinh => Some(y.asinh()),
        Cosh => Some(if h <= 0.0 { -y.acosh() } else { y.acosh() }),
        Tanh => Some(y.atanh()),
        Asinh => Some(y.sinh()),
        Acosh => Some(y.cosh()),
        Atanh => Some(y.tanh()),
        Exp => Some(y.ln()),
        Exp2 => Some(y.log2()),
        Expm1 => Some(y.ln_1p()),
        Log => Some(y.exp()),
        Log2 => Some(y.exp2()),
        Log10 => Some(10f64.powf(y)),
        Log1p => Some(y.exp_m1()),
        Cbrt => Some(y * y * y),
        _ => None,
    }?;
    if x.is_nan() {
        return None;
    }
    in_fmt(lo.format(), x, RoundingMode::NearestTiesToEven).ordinal()
}

/// The ordinals of `[lo, hi]` where both monotone predicates hold.
/// Each predicate comes with hints: ordinals near its transition.
fn narrow(
    (lo, hi): (i128, i128),
    fmt: Format,
    ge: (impl Fn(i128) -> bool, Vec<i128>),
    le: (impl Fn(i128) -> bool, Vec<i128>),
) -> FloatInterval {
    let Some((lo, hi)) = region(lo, hi, ge.0, &ge.1) else {
        return FloatInterval::empty(fmt);
    };
    match region(lo, hi, le.0, &le.1) {
        Some((l, h)) => iv(from_ord(fmt, l), from_ord(fmt, h)),
        None => FloatInterval::empty(fmt),
    }
}

/// Forward and backward for a one-argument function: the narrowed result
/// and argument.
fn unary(f: LibmFn, rms: RmSet, x: FloatInterval, z: FloatInterval) -> (FloatInterval, FloatInterval) {
    let fmt = x.format();
    let regs = match x.bounds() {
        Some((a, b)) => regions(f, a, b),
        None => Vec::new(),
    };
    let imgs: Vec<FloatInterval> = regs.iter().map(|r| image(f, rms, r)).collect();
    let mut fwd = FloatInterval::empty(fmt).with_nan(x.may_be_nan());
    for i in &imgs {
        fwd = fwd.hull(i);
    }
    let z = z.intersect(&fwd);
    let mut nx = FloatInterval::empty(fmt).with_nan(x.may_be_nan() && z.may_be_nan());
    for (r, img) in regs.iter().zip(&imgs) {
        nx = nx.hull(&keep(f, r, img, &z));
    }
    (z, nx)
}

// ---- two-argument functions: boxes ----

/// A piece of a two-argument function's operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tag {
    NInf,
    /// `pow`'s base below -1.
    NBig,
    /// `pow`'s base -1.
    NOne,
    /// Negative finite (above -1 for `pow`'s base).
    Neg,
    NZero,
    PZero,
    /// Positive finite (below 1 for `pow`'s base).
    Pos,
    /// `pow`'s base 1.
    POne,
    /// `pow`'s base above 1.
    PBig,
    PInf,
    NaN,
}

/// One piece of an operand: its tag and range (None for NaN).
type Piece = (Tag, Option<(Float, Float)>);

/// The pieces of operand `i` of `f` inside `x`.
fn pieces(f: LibmFn, i: usize, x: &FloatInterval) -> Vec<Piece> {
    use Tag::*;
    let fmt = x.format();
    let one = Float::one(fmt, false);
    let (ni, pi) = (Float::infinity(fmt, true), Float::infinity(fmt, false));
    let (nz, pz) = (Float::zero(fmt, true), Float::zero(fmt, false));
    let (nmax, pmax, nmin, pmin) = (max_f(fmt, true), max_f(fmt, false), min_f(fmt, true), min_f(fmt, false));
    let cuts: Vec<(Tag, Float, Float)> = if f == LibmFn::Pow && i == 0 {
        vec![
            (NInf, ni, ni),
            (NBig, nmax, one.neg().next_down()),
            (NOne, one.neg(), one.neg()),
            (Neg, one.neg().next_up(), nmin),
            (NZero, nz, nz),
            (PZero, pz, pz),
            (Pos, pmin, one.next_down()),
            (POne, one, one),
            (PBig, one.next_up(), pmax),
            (PInf, pi, pi),
        ]
    } else {
        vec![
            (NInf, ni, ni),
            (Neg, nmax, nmin),
            (NZero, nz, nz),
            (PZero, pz, pz),
            (Pos, pmin, pmax),
            (PInf, pi, pi),
        ]
    };
    let mut out: Vec<Piece> = cuts
        .into_iter()
        .filter_map(|(t, l, h)| clip(x, l, h).map(|r| (t, Some(r))))
        .collect();
    if x.may_be_nan() {
        out.push((NaN, None));
    }
    out
}

/// What is known of a two-argument function on a box of pieces.
#[derive(Clone, Copy, Debug)]
enum Kind2 {
    /// Monotone in each argument (the direction fixed on the box): the
    /// enclosure applies at every point.
    Mono,
    /// glibc's value (per mode) is the same on the whole box: evaluated at
    /// the corners.
    Const,
    /// `pow` with a negative, `-0` or `-inf` base and a finite nonzero
    /// exponent: sign and NaN depend on the exponent's parity.
    NegPow,
}

/// Is `p` a single value?
fn is_point(p: &Piece) -> bool {
    p.1.is_none_or(|(l, h)| l == h)
}

/// What is known of `f` on the box `(a, b)`.
fn classify(f: LibmFn, a: &Piece, b: &Piece) -> Kind2 {
    use Tag::*;
    let (ta, tb) = (a.0, b.0);
    let finite_nz = |t: Tag| matches!(t, Neg | Pos);
    if is_point(a) && is_point(b) {
        return Kind2::Const;
    }
    match f {
        LibmFn::Hypot => {
            let special = |t: Tag| matches!(t, NInf | PInf | NaN);
            if special(ta) || special(tb) {
                Kind2::Const
            } else {
                Kind2::Mono
            }
        }
        LibmFn::Atan2 => {
            if finite_nz(ta) && finite_nz(tb) {
                Kind2::Mono
            } else {
                Kind2::Const
            }
        }
        _ => {
            // pow: C99 F.9.4.4
            if matches!(tb, NZero | PZero | NInf | PInf | NaN) || matches!(ta, POne | NaN | PZero | PInf) {
                Kind2::Const
            } else if matches!(ta, Pos | PBig) {
                Kind2::Mono
            } else {
                Kind2::NegPow
            }
        }
    }
}

/// The corner values of a piece (NaN for the NaN piece).
fn corners(p: &Piece, fmt: Format) -> Vec<Float> {
    match p.1 {
        None => vec![Float::nan(fmt)],
        Some((l, h)) if l == h => vec![l],
        Some((l, h)) => vec![l, h],
    }
}

/// The hull of the enclosures at the corners of a monotone box.
fn mono_image(f: LibmFn, a: &Piece, b: &Piece, fmt: Format) -> FloatInterval {
    let mut out = FloatInterval::empty(fmt);
    for x in corners(a, fmt) {
        for y in corners(b, fmt) {
            let (l, h) = enclose(f, &[x, y]);
            out = out.hull(&iv(l, h));
        }
    }
    out
}

/// The image of `pow` on a negative-base box (see [`Kind2::NegPow`]).
fn neg_pow_image(rms: RmSet, a: &Piece, b: &Piece, fmt: Format) -> FloatInterval {
    let (ni, pi) = (Float::infinity(fmt, true), Float::infinity(fmt, false));
    let (nz, pz) = (Float::zero(fmt, true), Float::zero(fmt, false));
    let (Some((al, ah)), Some((bl, _))) = (a.1, b.1) else {
        return FloatInterval::full(fmt);
    };
    let y_pos = bl.is_positive();
    match a.0 {
        Tag::NZero if y_pos => iv(nz, pz),
        Tag::NInf if !y_pos => iv(nz, pz),
        Tag::NZero | Tag::NInf => iv(ni, pi),
        Tag::NOne => iv(al, al.neg()).with_nan(true),
        _ => {
            // |x|^y on the mirrored (monotone) box, then the sign
            let mirrored: Piece = (Tag::Pos, Some((ah.neg(), al.neg())));
            let mag = mono_image(LibmFn::Pow, &mirrored, b, fmt);
            let Some((m, big)) = mag.bounds() else {
                return FloatInterval::full(fmt);
            };
            let signed = iv(big.neg(), big).with_nan(true);
            let Some(y) = b.1.filter(|(l, h)| l == h).map(|(l, _)| mp_of(l)) else {
                return signed;
            };
            // exact: a double of y would lose the parity of x87's odd
            // integers above 2^53
            if !y.is_integer() {
                FloatInterval::nan_only(fmt)
            } else if Mp::with_val(y.prec(), &y / 2u32).is_integer() {
                iv(m, big)
            } else {
                iv(big.neg(), m.neg())
            }
            .hull(&exact_corners(LibmFn::Pow, rms, a, b, fmt).without_nan())
        }
    }
}

/// glibc at every corner of a box, in every mode.
fn exact_corners(f: LibmFn, rms: RmSet, a: &Piece, b: &Piece, fmt: Format) -> FloatInterval {
    let mut out = FloatInterval::empty(fmt);
    for x in corners(a, fmt) {
        for y in corners(b, fmt) {
            out = out.hull(&exact(f, rms, &[x, y]));
        }
    }
    out
}

/// The image of a box.
fn box_image(f: LibmFn, rms: RmSet, a: &Piece, b: &Piece, fmt: Format) -> FloatInterval {
    match classify(f, a, b) {
        Kind2::Mono => mono_image(f, a, b, fmt),
        Kind2::Const => exact_corners(f, rms, a, b, fmt),
        Kind2::NegPow => neg_pow_image(rms, a, b, fmt),
    }
}

/// The arguments of operand `i` in its piece of the box `(a, b)` that can
/// give a value in `z`.
fn keep2(f: LibmFn, rms: RmSet, a: &Piece, b: &Piece, z: &FloatInterval, i: usize) -> FloatInterval {
    let fmt = z.format();
    let me = if i == 0 { a } else { b };
    if box_image(f, rms, a, b, fmt).intersect(z).is_empty() {
        return FloatInterval::empty(fmt);
    }
    let Some((lo, hi)) = me.1 else {
        return FloatInterval::nan_only(fmt);
    };
    if !matches!(classify(f, a, b), Kind2::Mono) {
        return iv(lo, hi);
    }
    let Some((zl, zh)) = z.bounds() else {
        return FloatInterval::empty(fmt);
    };
    let others = corners(if i == 0 { b } else { a }, fmt);
    let at = |o: i128, c: Float| {
        let x = from_ord(fmt, o);
        if i == 0 {
            enclose(f, &[x, c])
        } else {
            enclose(f, &[c, x])
        }
    };
    // max over corners of the top >= zl; min over corners of the bottom <= zh
    let ge = |o: i128| others.iter().any(|&c| ord(at(o, c).1) >= ord(zl));
    let le = |o: i128| others.iter().any(|&c| ord(at(o, c).0) <= ord(zh));
    let hints = |t: Float| -> Vec<i128> { others.iter().filter_map(|&c| hint2(f, i, lo, t, c)).collect() };
    narrow((ord(lo), ord(hi)), fmt, (ge, hints(zl)), (le, hints(zh)))
}

/// Where operand `i` of `f` (of the sign of `lo`) gives the value `t`
/// with the other operand `c`, approximately (the host's `f64`
/// inverse), as an ordinal: only the speed of the search depends on it.
fn hint2(f: LibmFn, i: usize, lo: Float, t: Float, c: Float) -> Option<i128> {
    let (t, c) = (to_f64(t), to_f64(c));
    let x = match (f, i) {
        (LibmFn::Pow, 0) => t.powf(1.0 / c),
        (LibmFn::Pow, _) => t.ln() / c.ln(),
        (LibmFn::Hypot, _) => (t * t - c * c).sqrt(),
        (LibmFn::Atan2, 0) => c * t.tan(),
        (LibmFn::Atan2, _) => c / t.tan(),
        _ => return None,
    };
    let x = if lo.is_negative() { -x.abs() } else { x.abs() };
    if x.is_nan() {
        return None;
    }
    in_fmt(lo.format(), x, RoundingMode::NearestTiesToEven).ordinal()
}

/// Forward and backward for a two-argument function: the narrowed result
/// and arguments.
fn binary(f: LibmFn, rms: RmSet, xs: [FloatInterval; 2], z: FloatInterval) -> (FloatInterval, [FloatInterval; 2]) {
    let fmt = z.format();
    let (pa, pb) = (pieces(f, 0, &xs[0]), pieces(f, 1, &xs[1]));
    let mut fwd = FloatInterval::empty(fmt);
    for a in &pa {
        for b in &pb {
            fwd = fwd.hull(&box_image(f, rms, a, b, fmt));
        }
    }
    let z = z.intersect(&fwd);
    let mut out = [FloatInterval::empty(fmt), FloatInterval::empty(fmt)];
    for a in &pa {
        for b in &pb {
            out[0] = out[0].hull(&keep2(f, rms, a, b, &z, 0));
            out[1] = out[1].hull(&keep2(f, rms, a, b, &z, 1));
        }
    }
    (z, out)
}

/// The result and the arguments of `f` narrowed (one or two arguments,
/// as `f` takes).
pub(crate) fn narrow_all(
    f: LibmFn,
    rms: RmSet,
    xs: &[FloatInterval],
    z: FloatInterval,
) -> (FloatInterval, Vec<FloatInterval>) {
    match xs {
        [x] => {
            let (z, x) = unary(f, rms, *x, z);
            (z, vec![x])
        }
        _ => {
            let (z, x) = binary(f, rms, [xs[0], xs[1]], z);
            (z, x.to_vec())
        }
    }
}

/// Runs the propagator of `y = glibc_f(rm, x...)`: `args` are the rounding
/// mode and the float operands, `res` the result. Only `Float32` and
/// `Float64` are narrowed (the formats glibc is called in).
pub(crate) fn propagate(f: LibmFn, args: &mut [Domain], res: &mut Domain) -> Result<(), Empty> {
    let rms = rm_of(&args[0]);
    let xs: Vec<FloatInterval> = args[1..].iter().map(fp_of).collect();
    let fmt = xs[0].format();
    let z = fp_of(res);
    if xs.len() != f.arity() || !LibmFn::evaluated_in(fmt) || xs.iter().any(|x| x.format() != fmt) {
        return Ok(());
    }
    let (z, nxs) = narrow_all(f, rms, &xs, z);
    if z.is_empty() || nxs.iter().any(|x| x.is_empty()) {
        return Err(Empty);
    }
    *res = Domain::Fp(z);
    for (i, x) in nxs.into_iter().enumerate() {
        args[i + 1] = Domain::Fp(x);
    }
    Ok(())
}

/// The forward image of `f` on argument intervals (for tests).
#[cfg(test)]
pub(crate) fn forward(f: LibmFn, rms: RmSet, xs: &[FloatInterval]) -> FloatInterval {
    let full = FloatInterval::full(xs[0].format());
    match xs {
        [x] => unary(f, rms, *x, full).0,
        [x, y] => binary(f, rms, [*x, *y], full).0,
        _ => full,
    }
}

#[cfg(test)]
#[path = "libm_tests.rs"]
mod tests;
