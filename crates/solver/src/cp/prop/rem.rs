//! `r = fp.rem(x, y)`, the IEEE remainder `x - n·y` with `n` the integer
//! nearest to `x / y`. Not monotone (a sawtooth), so the propagator works
//! with magnitudes: `|r| <= |x|`, `|r| <= |y| / 2`, `r = x` when `|x| < |y|/2`
//! or `y = ±inf`, plus the exact NaN cases. Where `n` is the same over the
//! whole box (one tooth of the saw), `r = x - n·y` exactly, and the three
//! are narrowed as that linear relation ([`Tooth`]); on points, `r` is
//! computed. The search settles the rest.

use super::{fp_of, Empty};
use crate::cp::domain::{ord, restrict_to_union, Domain};
use fpsym_float::{Float, FloatInterval, RoundingMode};
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

/// Smallest and largest magnitude of the non-NaN part.
pub(crate) fn abs_range(x: &FloatInterval) -> Option<(Float, Float)> {
    let (l, h) = x.bounds()?;
    let (al, ah) = (l.abs(), h.abs());
    let big = if ord(al) >= ord(ah) { al } else { ah };
    let small = if l.sign() != h.sign() {
        Float::zero(x.format(), false)
    } else if ord(al) <= ord(ah) {
        al
    } else {
        ah
    };
    Some((small, big))
}

fn part(x: &FloatInterval, lo: Float, hi: Float) -> FloatInterval {
    x.without_nan().intersect(&FloatInterval::new(lo, hi, false))
}

/// Propagates `r = fp.rem(x, y)`; `args = [x, y]`.
pub(crate) fn propagate(args: &mut [Domain], res: &mut Domain) -> Result<(), Empty> {
    let (mut x, mut y, mut z) = (fp_of(&args[0]), fp_of(&args[1]), fp_of(res));
    let fmt = x.format();
    let rtp = RoundingMode::TowardPositive;
    let (ninf, pinf) = (Float::infinity(fmt, true), Float::infinity(fmt, false));
    let (nmax, pmax) = (Float::largest(fmt, true), Float::largest(fmt, false));
    let (nz, pz) = (Float::zero(fmt, true), Float::zero(fmt, false));
    let x_fin = part(&x, nmax, pmax);
    let y_fin_nz = restrict_to_union(
        &y,
        &[(nmax, Float::smallest(fmt, true)), (Float::smallest(fmt, false), pmax)],
        false,
    );
    let x_zero = part(&x, nz, pz);
    let y_inf = restrict_to_union(&y, &[(ninf, ninf), (pinf, pinf)], false);
    let x_inf = restrict_to_union(&x, &[(ninf, ninf), (pinf, pinf)], false);
    let y_zero = part(&y, nz, pz);

    // Points: the remainder itself.
    if let (Some(a), Some(b)) = (x.as_point(), y.as_point()) {
        z = z.intersect(&FloatInterval::point(a.rem(b).value));
        if z.is_empty() {
            return Err(Empty);
        }
        *res = Domain::Fp(z);
        return Ok(());
    }

    // direct
    let mut img = FloatInterval::empty(fmt);
    let nan = (x.may_be_nan() && !y.is_empty())
        || (y.may_be_nan() && !x.is_empty())
        || (!x_inf.is_empty() && !y.is_empty())
        || (!y_zero.is_empty() && !x.is_empty());
    img = img.with_nan(nan);
    if !y_inf.is_empty() {
        img = img.hull(&x_fin);
    }
    if !y_fin_nz.is_empty() || !y_inf.is_empty() {
        img = img.hull(&x_zero);
    }
    let x_fin_nz = restrict_to_union(
        &x,
        &[(nmax, Float::smallest(fmt, true)), (Float::smallest(fmt, false), pmax)],
        false,
    );
    if let (Some((_, xmax)), Some((ymin, ymax))) = (abs_range(&x_fin_nz), abs_range(&y_fin_nz)) {
        let twice = xmax.add(xmax, rtp).value;
        if ord(twice) < ord(ymin) {
            img = img.hull(&x_fin_nz);
        } else {
            let two = Float::pow2(fmt, 1).expect("every format has 2");
            let half = ymax.div(two, rtp).value;
            let b = if ord(xmax) <= ord(half) { xmax } else { half };
            let mut saw = FloatInterval::new(b.neg(), b, false);
            if let Some(tooth) = Tooth::of(&x_fin_nz, &y_fin_nz) {
                saw = saw.intersect(&tooth.remainders(fmt));
            }
            img = img.hull(&saw);
        }
    }
    z = z.intersect(&img);
    if z.is_empty() {
        return Err(Empty);
    }

    // indirect
    if !z.may_be_nan() {
        x = part(&x, nmax, pmax);
        y = restrict_to_union(
            &y,
            &[(ninf, Float::smallest(fmt, true)), (Float::smallest(fmt, false), pinf)],
            false,
        );
        if let Some((a, _)) = abs_range(&z) {
            if !a.is_zero() {
                x = restrict_to_union(&x, &[(ninf, a.neg()), (a, pinf)], false);
                let two_a = a.add(a, rtp).value;
                y = restrict_to_union(&y, &[(ninf, two_a.neg()), (two_a, pinf)], false);
            }
        }
        if y.bounds()
            .map(|(l, h)| l.is_infinite() && h.is_infinite() && l == h)
            .unwrap_or(false)
        {
            x = x.intersect(&z);
        }
    }
    // One tooth, and x and y nothing but finite nonzero values: |x| =
    // t + n·|y| with t = ±r, so each of x and y follows from the others.
    let whole = |d: &FloatInterval, part: &FloatInterval| d.count() == part.count();
    let x_fin_nz = restrict_to_union(
        &x,
        &[(nmax, Float::smallest(fmt, true)), (Float::smallest(fmt, false), pmax)],
        false,
    );
    let y_fin_nz = restrict_to_union(
        &y,
        &[(nmax, Float::smallest(fmt, true)), (Float::smallest(fmt, false), pmax)],
        false,
    );
    if whole(&x, &x_fin_nz) && whole(&y, &y_fin_nz) {
        if let Some(tooth) = Tooth::of(&x, &y) {
            if let Some((xs, ys)) = tooth.operands(&z, fmt) {
                x = x.intersect(&xs);
                y = y.intersect(&ys);
            }
        }
    }
    if x.is_empty() || y.is_empty() {
        return Err(Empty);
    }
    args[0] = Domain::Fp(x);
    args[1] = Domain::Fp(y);
    *res = Domain::Fp(z);
    Ok(())
}

/// A box of finite nonzero `x` and `y`, each of one sign, over which the
/// integer nearest to `x / y` is one `n` (the exact quotients of the
/// box's corners lie strictly between `n - 1/2` and `n + 1/2`). There
/// `r = x - n·y` is exact: with `t = |x| - n·|y|`, `r = t` for positive `x`
/// and `-t` for negative `x` (a zero `r` has `x`'s sign). Bounds are exact
/// rationals, rounded outward only when they become floats.
struct Tooth {
    n: BigRational,
    /// `x` is negative; `y` is negative.
    x_neg: bool,
    y_neg: bool,
    /// `|x|` and `|y|` ranges.
    xa: BigRational,
    xb: BigRational,
    ya: BigRational,
    yb: BigRational,
}

/// The magnitudes of a range of one sign (None if it straddles zero or
/// holds NaN or infinities only).
fn magnitudes(d: &FloatInterval) -> Option<(bool, BigRational, BigRational)> {
    let (l, h) = d.bounds()?;
    if l.sign() != h.sign() || l.is_zero() || h.is_zero() {
        return None;
    }
    let (a, b) = (l.to_rational()?.abs(), h.to_rational()?.abs());
    Some(if a <= b { (l.sign(), a, b) } else { (l.sign(), b, a) })
}

impl Tooth {
    fn of(x: &FloatInterval, y: &FloatInterval) -> Option<Tooth> {
        let (x_neg, xa, xb) = magnitudes(x)?;
        let (y_neg, ya, yb) = magnitudes(y)?;
        let half = BigRational::new(1.into(), 2.into());
        let (qmin, qmax) = (&xa / &yb, &xb / &ya);
        let n = (&qmin + &half).floor();
        // Strictly inside the tooth: no tie (a tie's n depends on parity).
        if qmin - (&n - &half) <= BigRational::zero() || (&n + &half) - qmax <= BigRational::zero() {
            return None;
        }
        Some(Tooth {
            n,
            x_neg,
            y_neg,
            xa,
            xb,
            ya,
            yb,
        })
    }

    /// `r`'s range over the box.
    fn remainders(&self, fmt: fpsym_float::Format) -> FloatInterval {
        let lo = &self.xa - &self.n * &self.yb;
        let hi = &self.xb - &self.n * &self.ya;
        self.signed(fmt, &lo, &hi)
    }

    /// `t`'s range `[lo, hi]` as `r`'s: outward, signed by `x`.
    fn signed(&self, fmt: fpsym_float::Format, lo: &BigRational, hi: &BigRational) -> FloatInterval {
        let down = Float::from_rational(fmt, lo, RoundingMode::TowardNegative).value;
        let up = Float::from_rational(fmt, hi, RoundingMode::TowardPositive).value;
        if self.x_neg {
            FloatInterval::new(up.neg(), down.neg(), false)
        } else {
            FloatInterval::new(down, up, false)
        }
    }

    /// `x`'s and `y`'s ranges given `r`'s (None when `r` has no finite
    /// value): `|x| = t + n·|y|` and, for `n >= 1`, `|y| = (|x| - t) / n`.
    fn operands(&self, z: &FloatInterval, fmt: fpsym_float::Format) -> Option<(FloatInterval, FloatInterval)> {
        let (l, h) = z.without_nan().bounds()?;
        let (l, h) = (l.to_rational()?, h.to_rational()?);
        let (tl, th) = if self.x_neg { (-h, -l) } else { (l, h) };
        let xs = magnitude(
            fmt,
            &(&tl + &self.n * &self.ya),
            &(&th + &self.n * &self.yb),
            self.x_neg,
        );
        let ys = if self.n >= BigRational::one() {
            magnitude(
                fmt,
                &((&self.xa - &th) / &self.n),
                &((&self.xb - &tl) / &self.n),
                self.y_neg,
            )
        } else {
            FloatInterval::full(fmt)
        };
        Some((xs, ys))
    }
}

/// The floats of a sign whose magnitude lies in `[lo, hi]` (rounded
/// outward; a negative `lo` counts as 0).
fn magnitude(fmt: fpsym_float::Format, lo: &BigRational, hi: &BigRational, neg: bool) -> FloatInterval {
    let lo = if lo.is_negative() {
        BigRational::zero()
    } else {
        lo.clone()
    };
    let down = Float::from_rational(fmt, &lo, RoundingMode::TowardNegative).value;
    let up = Float::from_rational(fmt, hi, RoundingMode::TowardPositive).value;
    if neg {
        FloatInterval::new(up.neg(), down.neg(), false)
    } else {
        FloatInterval::new(down, up, false)
    }
}
