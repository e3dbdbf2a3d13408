//! `r = fp.rem(x, y)`, the IEEE remainder `x - n·y` with `n` the integer
//! nearest to `x / y`. Not monotone (a sawtooth), so the propagator works
//! with magnitudes: `|r| <= |x|`, `|r| <= |y| / 2`, `r = x` when `|x| < |y|/2`
//! or `y = ±inf`, plus the exact NaN cases. The search settles the rest.

use super::{fp_of, Empty};
use crate::cp::domain::{ord, restrict_to_union, Domain};
use fpsym_float::{Float, FloatInterval, RoundingMode};

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
            img = img.hull(&FloatInterval::new(b.neg(), b, false));
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
    if x.is_empty() || y.is_empty() {
        return Err(Empty);
    }
    args[0] = Domain::Fp(x);
    args[1] = Domain::Fp(y);
    *res = Domain::Fp(z);
    Ok(())
}
