//! Filtering by maximum ULP (seed 000, section IV and Table I), for every
//! rounding mode and for IEEE formats with subnormals.
//!
//! **Addition/subtraction** (the Marre–Michel property). For a finite
//! non-zero `z`, let `2^t` be its lowest set bit (for a normal `z =
//! 1.b_2…b_i0…0 × 2^e` with `k` trailing zeros, `t = e - p + 1 + k`). Every
//! float of magnitude at least `2^(t+p)` is a multiple of `2^(t+1)`, so if
//! both operands of `x + y` (or of `x - y`) are that large, the exact sum is a
//! multiple of `2^(t+1)` and differs from `z`, an odd multiple of `2^t`, by at
//! least `2^t >= ulp(z)`: it lies outside the open interval between the
//! neighbours of `z`, which contains every real rounding to `z` in every
//! rounding mode (the one exception, `z = ±max` under a mode rounding toward
//! zero from outside, gives a vacuous bound anyway). Hence with
//! `α = 2^(t+p) - 2^t = 1.1…1 × 2^(t+p-1)` and `β = α + z` (exact), `z > 0`
//! implies `x, y ∈ [-α, β]`, and `z < 0` implies `x, y ∈ [-β, α]` (Table I).
//! Over an interval `[zl, zh]` of one sign, not containing zeros or
//! infinities, the bound is largest at `μ⊕(z)`: the unique member whose lowest
//! set bit is highest (Definition 4.2 with the paper's correction: when `zl`
//! itself is `1.b_2…b_i 0…0 × 2^e` it is `zl`). Subnormals change nothing here.
//!
//! **Multiplication**. If `z = x ⊗ y` with `0 < |z| <= M`, then `y` is finite
//! and non-zero, so `|y| >= y_min` and `|x| <= max{x : x ⊗ y_min <= M}`, where
//! `y_min` is the smallest positive subnormal `f_min` (IEEE) or the smallest
//! normal `2^emin` in the paper's subnormal-free setting — Example 4.2's
//! `2^96` for binary32 becomes `2^119`. The bound is computed exactly by a
//! monotone search (directed modes use the mode and its mirror).
//!
//! **Division**. If `z = x ⊘ y` with `0 < |z| <= M`, then `|y| <= f_max` and
//! `|x| <= max{x : x ⊘ f_max <= M}`, computed exactly by a monotone search
//! rather than as the paper's `|z| ⊗ f_max` (the two agree on the samples
//! tested; the search is the one whose soundness needs no argument).

use crate::cp::domain::{from_ord, ord};
use crate::cp::prop::mono::region;
use fpsym_float::{Float, FloatInterval, Format, RoundingMode};

/// Which floats ULP-Max reasons about.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Setting {
    /// The IEEE format, subnormals included (what the solver uses).
    #[default]
    Ieee,
    /// The paper's idealised set without subnormals (for reproducing its examples).
    NoSubnormals,
}

/// The exponent of the significand's unit and the significand of a finite
/// non-zero float: `|f| = sig × 2^unit`.
fn scaled(f: Float) -> (i64, u128) {
    let fmt = f.format();
    let be = f.biased_exponent().max(1) as i64;
    (be - fmt.bias() - (fmt.sb() as i64 - 1), f.significand())
}

fn from_scaled(fmt: Format, unit: i64, sig: u128) -> Float {
    let hidden = 1u128 << (fmt.sb() - 1);
    let be = unit + fmt.bias() + (fmt.sb() as i64 - 1);
    if sig >= hidden {
        Float::from_fields(fmt, false, be as u64, sig - hidden)
    } else {
        Float::from_fields(fmt, false, 0, sig)
    }
}

/// `μ⊕` of Definition 4.2 (corrected) for `0 < zl <= zh <= max`: the member
/// of `[zl, zh]` whose lowest set bit is highest. Works on magnitudes, so
/// callers pass `|zh|, |zl|` for a negative interval.
pub fn mu_add(zl: Float, zh: Float) -> Float {
    let fmt = zl.format();
    let (ul, ml) = scaled(zl);
    let (uh, mh) = scaled(zh);
    if ul != uh {
        // different binades: 1.0…0 × 2^e(zh)
        return Float::pow2(fmt, zh.exponent().unwrap()).unwrap();
    }
    if ml == mh {
        return zl;
    }
    let d = 127 - (ml ^ mh).leading_zeros();
    let low = if d >= 127 { u128::MAX } else { (1u128 << (d + 1)) - 1 };
    if ml & low == 0 {
        return zl;
    }
    from_scaled(fmt, uh, (mh >> d) << d)
}

/// `α` and `β` of the Marre–Michel property for a positive finite `z`
/// (None when the value exceeds the largest finite float).
pub fn alpha_beta(z: Float) -> (Option<Float>, Option<Float>) {
    let fmt = z.format();
    let p = fmt.sb() as i64;
    let (unit, sig) = scaled(z.abs());
    let t = unit + sig.trailing_zeros() as i64;
    let e_alpha = t + p - 1;
    if e_alpha > fmt.emax() {
        return (None, None);
    }
    let alpha = Float::from_fields(fmt, false, (e_alpha + fmt.bias()) as u64, u128::MAX);
    let b = alpha.add(z.abs(), RoundingMode::NearestTiesToEven);
    let beta = (b.status.is_ok() && b.value.is_finite()).then_some(b.value);
    (Some(alpha), beta)
}

fn usable(z: &FloatInterval) -> Option<(Float, Float, bool)> {
    if z.may_be_nan() {
        return None;
    }
    let (zl, zh) = z.bounds()?;
    if !zl.is_finite() || !zh.is_finite() || zl.is_zero() || zh.is_zero() || zl.sign() != zh.sign() {
        return None;
    }
    Some((zl, zh, zl.sign()))
}

/// Table I for `z = x ⊕ y` (and `z = x ⊖ (-y)`): the interval both operands
/// must lie in, when `z`'s interval is finite, of one sign and without zeros
/// or NaN. Operands are finite then, so missing bounds are `∓max`.
pub fn add_bounds(z: &FloatInterval) -> Option<(Float, Float)> {
    let (zl, zh, neg) = usable(z)?;
    let fmt = zl.format();
    let mu = if neg {
        mu_add(zh.abs(), zl.abs())
    } else {
        mu_add(zl, zh)
    };
    let (alpha, beta) = alpha_beta(mu);
    let a = alpha.unwrap_or(Float::largest(fmt, false));
    let b = beta.unwrap_or(Float::largest(fmt, false));
    Some(if neg { (b.neg(), a) } else { (a.neg(), b) })
}

/// The largest `x >= +0` with `op(x, c) <= m` (total order) in mode `rm`,
/// where `op` is increasing in `x`.
fn largest_below(
    m: Float,
    c: Float,
    rm: RoundingMode,
    op: impl Fn(Float, Float, RoundingMode) -> Float,
    hint: Float,
) -> Float {
    let fmt = m.format();
    let top = ord(Float::largest(fmt, false));
    let p = |o: i128| {
        let v = op(from_ord(fmt, o), c, rm);
        !v.is_nan() && ord(v) <= ord(m)
    };
    let h = if hint.is_nan() { vec![] } else { vec![ord(hint)] };
    let best = region(0, top, p, &h).map(|(_, k)| k).unwrap_or(0);
    from_ord(fmt, best)
}

/// `δ⊗`: the bound on `|x|` (and `|y|`) for `z = x ⊗ y` with `0 < z <= m`
/// (positive `z`; for negative `z` pass the mirrored mode, since
/// `|rm(v)| = mirror(rm)(|v|)` for `v < 0`). Exact for subnormal `m` too,
/// where `m / f_min` would be unsound (the product is rounded).
pub fn mul_bound(m: Float, rm: RoundingMode, setting: Setting) -> Float {
    let fmt = m.format();
    let ymin = match setting {
        Setting::Ieee => Float::smallest(fmt, false),
        Setting::NoSubnormals => Float::smallest_normal(fmt, false),
    };
    let hint = m.div(ymin, RoundingMode::NearestTiesToEven).value;
    largest_below(m, ymin, rm, |x, c, r| x.mul(c, r).value, hint)
}

/// `δ⊘`: the bound on `|x|` for `z = x ⊘ y` with `0 < z <= m` (positive `z`;
/// mirror the mode for negative `z`). The same in both settings; exact in
/// every mode (under RTP/RTZ it differs from `|z| ⊗ f_max`).
pub fn div_bound(m: Float, rm: RoundingMode, _setting: Setting) -> Float {
    let fmt = m.format();
    let big = Float::largest(fmt, false);
    let hint = m.mul(big, RoundingMode::NearestTiesToEven).value;
    largest_below(m, big, rm, |x, c, r| x.div(c, r).value, hint)
}

/// The symmetric interval `[-B, B]` the ULP-Max bound of `op` (`mul` or
/// `div`) gives for the modes `rms`, when `z` is usable.
pub fn muldiv_bounds(
    z: &FloatInterval,
    rms: impl Iterator<Item = RoundingMode>,
    div: bool,
    setting: Setting,
) -> Option<(Float, Float)> {
    let (zl, zh, neg) = usable(z)?;
    let m = if ord(zl.abs()) > ord(zh.abs()) {
        zl.abs()
    } else {
        zh.abs()
    };
    let mut b: Option<Float> = None;
    for rm in rms {
        let rm = if neg { rm.mirrored() } else { rm };
        let v = if div {
            div_bound(m, rm, setting)
        } else {
            mul_bound(m, rm, setting)
        };
        b = Some(match b {
            Some(w) if ord(w) >= ord(v) => w,
            _ => v,
        });
    }
    let b = b?;
    Some((b.neg(), b))
}
