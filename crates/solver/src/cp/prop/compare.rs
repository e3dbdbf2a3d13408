//! Reified float comparisons and classification predicates.
//!
//! IEEE comparisons (`fp.leq`, `fp.lt`, `fp.geq`, `fp.gt`, `fp.eq`) are false
//! when an operand is NaN and treat `-0` and `+0` as equal; they work on
//! comparison *keys* (ordinals with both zeros mapped to 0). SMT-LIB `=` on
//! floats is identity: `NaN = NaN`, `-0 ≠ +0`.

use super::{fp_of, Empty};
use crate::cp::domain::{key, key_hi, key_lo, ord, restrict_to_union, BoolSet, Domain};
use fpsym_expr::Op;
use fpsym_float::{Float, FloatInterval, Format};

/// The key bounds of the non-NaN part.
fn keys(x: &FloatInterval) -> Option<(i128, i128)> {
    x.bounds().map(|(l, h)| (key(l), key(h)))
}

/// Key bounds meaning "no bound": the keys of `-inf` and `+inf` (binary128
/// ordinals use almost the whole i128 range, so no fixed sentinel works).
const NO_LO: i128 = i128::MIN;
const NO_HI: i128 = i128::MAX;

/// Restricts the non-NaN part of `x` to keys in `[lo, hi]` (keeping the NaN flag as given).
fn restrict_keys(x: &FloatInterval, lo: i128, hi: i128, nan: bool) -> FloatInterval {
    let fmt = x.format();
    let lo = lo.max(key(Float::infinity(fmt, true)));
    let hi = hi.min(key(Float::infinity(fmt, false)));
    let part = if lo > hi {
        FloatInterval::empty(fmt)
    } else {
        x.without_nan()
            .intersect(&FloatInterval::new(key_lo(fmt, lo), key_hi(fmt, hi), false))
    };
    part.with_nan(nan && x.may_be_nan())
}

/// `x <= y` (strict: `x < y`) reified by `b`.
fn order(x: &mut FloatInterval, y: &mut FloatInterval, b: &mut BoolSet, strict: bool) -> Result<(), Empty> {
    let s = strict as i128;
    let (kx, ky) = (keys(x), keys(y));
    // can it be true / false?
    let can_true = matches!((kx, ky), (Some((xl, _)), Some((_, yh))) if xl + s <= yh);
    let can_false =
        x.may_be_nan() || y.may_be_nan() || matches!((kx, ky), (Some((_, xh)), Some((yl, _))) if xh + s > yl);
    let nb = BoolSet::of(can_true, can_false);
    *b = b.intersect(nb);
    match b.as_point() {
        None if b.is_empty() => return Err(Empty),
        None => {}
        Some(true) => {
            let (Some((xl, _)), Some((_, yh))) = (kx, ky) else {
                return Err(Empty);
            };
            *x = restrict_keys(x, NO_LO, yh - s, false);
            *y = restrict_keys(y, xl + s, NO_HI, false);
        }
        Some(false) => {
            // x > y (resp. x >= y), or a NaN
            if !y.may_be_nan() {
                if let Some((yl, _)) = ky {
                    *x = restrict_keys(x, yl + 1 - s, NO_HI, true);
                }
            }
            if !x.may_be_nan() {
                if let Some((_, xh)) = kx {
                    *y = restrict_keys(y, NO_LO, xh - 1 + s, true);
                }
            }
        }
    }
    if x.is_empty() || y.is_empty() {
        return Err(Empty);
    }
    Ok(())
}

/// `fp.eq x y` reified by `b`.
fn ieee_eq(x: &mut FloatInterval, y: &mut FloatInterval, b: &mut BoolSet) -> Result<(), Empty> {
    let (kx, ky) = (keys(x), keys(y));
    let overlap = matches!((kx, ky), (Some((a, b_)), Some((c, d))) if a.max(c) <= b_.min(d));
    let both_one_key = matches!((kx, ky), (Some((a, b_)), Some((c, d))) if a == b_ && c == d && a == c);
    let can_true = overlap;
    let can_false = x.may_be_nan() || y.may_be_nan() || !both_one_key;
    let nb = BoolSet::of(can_true, can_false);
    *b = b.intersect(nb);
    match b.as_point() {
        None if b.is_empty() => return Err(Empty),
        None => {}
        Some(true) => {
            let (Some((a, b_)), Some((c, d))) = (kx, ky) else {
                return Err(Empty);
            };
            let (lo, hi) = (a.max(c), b_.min(d));
            *x = restrict_keys(x, lo, hi, false);
            *y = restrict_keys(y, lo, hi, false);
        }
        Some(false) => {
            // remove a single key held by the other side from an endpoint
            if !y.may_be_nan() {
                if let Some((c, d)) = ky {
                    if c == d {
                        *x = remove_key(x, c);
                    }
                }
            }
            if !x.may_be_nan() {
                if let Some((a, b_)) = kx {
                    if a == b_ {
                        *y = remove_key(y, a);
                    }
                }
            }
        }
    }
    if x.is_empty() || y.is_empty() {
        return Err(Empty);
    }
    Ok(())
}

fn remove_key(x: &FloatInterval, k: i128) -> FloatInterval {
    let Some((l, h)) = keys(x) else { return *x };
    let (mut l, mut h) = (l, h);
    if l == k {
        l += 1;
    }
    if h == k {
        h -= 1;
    }
    restrict_keys(x, l, h, true)
}

/// SMT-LIB `=` on floats (identity) reified by `b`.
fn identity(x: &mut FloatInterval, y: &mut FloatInterval, b: &mut BoolSet) -> Result<(), Empty> {
    let meet = x.intersect(y);
    let same_point = x.as_point().is_some() && x.as_point() == y.as_point();
    let nb = BoolSet::of(!meet.is_empty(), !same_point);
    *b = b.intersect(nb);
    match b.as_point() {
        None if b.is_empty() => return Err(Empty),
        None => {}
        Some(true) => {
            *x = meet;
            *y = meet;
        }
        Some(false) => {
            if let Some(v) = y.as_point() {
                *x = remove_point(x, v);
            }
            if let Some(v) = x.as_point() {
                *y = remove_point(y, v);
            }
        }
    }
    if x.is_empty() || y.is_empty() {
        return Err(Empty);
    }
    Ok(())
}

/// Removes `v` from `x` if it is NaN or an endpoint.
pub(crate) fn remove_point(x: &FloatInterval, v: Float) -> FloatInterval {
    let fmt = x.format();
    if v.is_nan() {
        return x.without_nan();
    }
    let Some((l, h)) = x.bounds() else { return *x };
    let (mut lo, mut hi) = (ord(l), ord(h));
    if lo == ord(v) {
        lo += 1;
    }
    if hi == ord(v) {
        hi -= 1;
    }
    crate::cp::domain::ord_interval(fmt, lo, hi).with_nan(x.may_be_nan())
}

/// The class of a predicate as a union of non-NaN intervals plus NaN.
fn class(op: &Op, fmt: Format) -> (Vec<(Float, Float)>, bool) {
    let ninf = Float::infinity(fmt, true);
    let pinf = Float::infinity(fmt, false);
    let (nz, pz) = (Float::zero(fmt, true), Float::zero(fmt, false));
    let (nmax, pmax) = (Float::largest(fmt, true), Float::largest(fmt, false));
    let (nnor, pnor) = (Float::smallest_normal(fmt, true), Float::smallest_normal(fmt, false));
    let (nsub, psub) = (Float::smallest(fmt, true), Float::smallest(fmt, false));
    match op {
        Op::FpIsNaN => (vec![], true),
        Op::FpIsInfinite => (vec![(ninf, ninf), (pinf, pinf)], false),
        Op::FpIsZero => (vec![(nz, pz)], false),
        Op::FpIsNormal => (vec![(nmax, nnor), (pnor, pmax)], false),
        Op::FpIsSubnormal => (vec![(nnor.succ().unwrap(), nsub), (psub, pnor.pred().unwrap())], false),
        Op::FpIsNegative => (vec![(ninf, nz)], false),
        Op::FpIsPositive => (vec![(pz, pinf)], false),
        _ => unreachable!("not a classification predicate: {op:?}"),
    }
}

/// The complement of a class (as a union of intervals plus NaN).
fn complement(parts: &[(Float, Float)], nan: bool, fmt: Format) -> (Vec<(Float, Float)>, bool) {
    let mut out = Vec::new();
    let mut next = ord(Float::infinity(fmt, true));
    let top = ord(Float::infinity(fmt, false));
    for &(l, h) in parts {
        if ord(l) > next {
            out.push((
                crate::cp::domain::from_ord(fmt, next),
                crate::cp::domain::from_ord(fmt, ord(l) - 1),
            ));
        }
        next = ord(h) + 1;
    }
    if next <= top {
        out.push((crate::cp::domain::from_ord(fmt, next), Float::infinity(fmt, false)));
    }
    (out, !nan)
}

/// Propagates comparisons, `=` on floats and classification predicates.
pub(crate) fn propagate(op: &Op, args: &mut [Domain], res: &mut Domain) -> Result<(), Empty> {
    let mut b = res.as_bool().expect("Boolean result");
    match op {
        Op::FpLeq | Op::FpLt | Op::FpGeq | Op::FpGt | Op::FpEq | Op::Eq => {
            let (i, j) = if matches!(op, Op::FpGeq | Op::FpGt) {
                (1, 0)
            } else {
                (0, 1)
            };
            let (mut x, mut y) = (fp_of(&args[i]), fp_of(&args[j]));
            match op {
                Op::FpEq => ieee_eq(&mut x, &mut y, &mut b)?,
                Op::Eq => identity(&mut x, &mut y, &mut b)?,
                _ => order(&mut x, &mut y, &mut b, matches!(op, Op::FpLt | Op::FpGt))?,
            }
            args[i] = Domain::Fp(x);
            args[j] = Domain::Fp(y);
        }
        _ => {
            let x = fp_of(&args[0]);
            let fmt = x.format();
            let (parts, nan) = class(op, fmt);
            let (cparts, cnan) = complement(&parts, nan, fmt);
            let yes = restrict_to_union(&x, &parts, nan);
            let no = restrict_to_union(&x, &cparts, cnan);
            let nb = BoolSet::of(!yes.is_empty(), !no.is_empty());
            b = b.intersect(nb);
            match b.as_point() {
                None if b.is_empty() => return Err(Empty),
                None => {}
                Some(true) => args[0] = Domain::Fp(yes),
                Some(false) => args[0] = Domain::Fp(no),
            }
        }
    }
    *res = Domain::Bool(b);
    Ok(())
}
