//! Bit-vector operations by unsigned bounds. Sound and deliberately simple:
//! when an operation may wrap around, the range becomes full and the search
//! (which splits bit-vector inputs) together with the exact evaluation at
//! points settles it.

use super::Empty;
use crate::cp::domain::{mask, BoolSet, BvRange, Domain};
use fpsym_expr::Op;

fn r(d: &Domain) -> Result<(u32, u128, u128), Empty> {
    let x = d.as_bv().expect("bit-vector operand");
    let (l, h) = x.bounds().ok_or(Empty)?;
    Ok((x.width(), l, h))
}

fn put(d: &mut Domain, v: BvRange) -> Result<(), Empty> {
    let n = d.as_bv().expect("bit-vector domain").intersect(&v);
    if n.is_empty() {
        return Err(Empty);
    }
    *d = Domain::Bv(n);
    Ok(())
}

/// The smallest all-ones value `2^k - 1` that is at least `v`.
fn ones_above(v: u128) -> u128 {
    if v == 0 {
        0
    } else {
        u128::MAX >> v.leading_zeros()
    }
}

/// `[a, b] + [c, d]` modulo `2^w`.
fn add_range(w: u32, (a, b): (u128, u128), (c, d): (u128, u128)) -> BvRange {
    let m = mask(w);
    let (lo, clo) = a.overflowing_add(c);
    let (hi, chi) = b.overflowing_add(d);
    if w == 128 {
        return if clo == chi {
            BvRange::new(w, lo, hi)
        } else {
            BvRange::full(w)
        };
    }
    let (wl, wh) = (lo > m, hi > m);
    if wl == wh {
        BvRange::new(w, lo & m, hi & m)
    } else {
        BvRange::full(w)
    }
}

/// `[a, b] - [c, d]` modulo `2^w`.
fn sub_range(w: u32, (a, b): (u128, u128), (c, d): (u128, u128)) -> BvRange {
    let m = mask(w);
    if a >= d {
        BvRange::new(w, a - d, b - c)
    } else if b < c {
        // every difference is negative: add 2^w
        BvRange::new(w, (a.wrapping_sub(d)) & m, (b.wrapping_sub(c)) & m)
    } else {
        BvRange::full(w)
    }
}

/// The unsigned range of the values `v ^ sign_bit` for `v` in `[l, h]` (hull).
fn flip(w: u32, l: u128, h: u128) -> BvRange {
    let s = 1u128 << (w - 1);
    if (l & s) == (h & s) {
        BvRange::new(w, l ^ s, h ^ s)
    } else {
        BvRange::full(w)
    }
}

/// Reified unsigned `x < y` (strict) or `x <= y`.
fn ult(x: &mut Domain, y: &mut Domain, res: &mut Domain, strict: bool) -> Result<(), Empty> {
    let (w, xl, xh) = r(x)?;
    let (_, yl, yh) = r(y)?;
    let s = strict as u128;
    let can_true = if strict { xl < yh } else { xl <= yh };
    let can_false = if strict { xh >= yl } else { xh > yl };
    let nb = BoolSet::of(can_true, can_false);
    let b = res.as_bool().unwrap().intersect(nb);
    if b.is_empty() {
        return Err(Empty);
    }
    *res = Domain::Bool(b);
    match b.as_point() {
        Some(true) => {
            // x <= yh - s, y >= xl + s
            put(x, BvRange::new(w, 0, yh - s))?;
            put(y, BvRange::new(w, xl + s, mask(w)))?;
        }
        Some(false) => {
            // strict: x >= y; non-strict: x > y
            let t = 1 - s;
            put(x, BvRange::new(w, yl + t, mask(w)))?;
            put(y, BvRange::new(w, 0, xh - t))?;
        }
        None => {}
    }
    Ok(())
}

/// Reified signed comparison via the sign-bit flip, which maps the signed
/// order to the unsigned one.
fn slt(x: &mut Domain, y: &mut Domain, res: &mut Domain, strict: bool) -> Result<(), Empty> {
    let (w, xl, xh) = r(x)?;
    let (_, yl, yh) = r(y)?;
    let mut fx = Domain::Bv(flip(w, xl, xh));
    let mut fy = Domain::Bv(flip(w, yl, yh));
    ult(&mut fx, &mut fy, res, strict)?;
    let (_, a, b) = r(&fx)?;
    put(x, flip(w, a, b))?;
    let (_, a, b) = r(&fy)?;
    put(y, flip(w, a, b))?;
    Ok(())
}

/// Propagates bit-vector operations and comparisons.
pub(crate) fn propagate(op: &Op, args: &mut [Domain], res: &mut Domain) -> Result<(), Empty> {
    use Op::*;
    match op {
        BvUlt | BvUle | BvUgt | BvUge | BvSlt | BvSle | BvSgt | BvSge => {
            let (i, j) = if matches!(op, BvUgt | BvUge | BvSgt | BvSge) {
                (1, 0)
            } else {
                (0, 1)
            };
            let strict = matches!(op, BvUlt | BvUgt | BvSlt | BvSgt);
            let (mut x, mut y) = (args[i], args[j]);
            if matches!(op, BvUlt | BvUle | BvUgt | BvUge) {
                ult(&mut x, &mut y, res, strict)?;
            } else {
                slt(&mut x, &mut y, res, strict)?;
            }
            args[i] = x;
            args[j] = y;
            return Ok(());
        }
        _ => {}
    }
    let (w, xl, xh) = r(&args[0])?;
    let rw = res.as_bv().expect("bit-vector result").width();
    let m = mask(rw);
    match op {
        BvConcat => {
            let (wb, yl, yh) = r(&args[1])?;
            put(res, BvRange::new(rw, (xl << wb) | yl, (xh << wb) | yh))?;
            let (_, rl, rh) = r(res)?;
            put(&mut args[0], BvRange::new(w, rl >> wb, rh >> wb))?;
            let (_, xl, xh) = r(&args[0])?;
            if xl == xh {
                let base = xl << wb;
                let lo = rl.max(base) - base;
                let hi = rh.min(base | mask(wb)).checked_sub(base).ok_or(Empty)?;
                put(&mut args[1], BvRange::new(wb, lo, hi))?;
            }
        }
        BvExtract(hi, lo) => {
            let same_prefix = *hi + 1 >= 128 || (xl >> (hi + 1)) == (xh >> (hi + 1));
            if same_prefix {
                put(res, BvRange::new(rw, (xl >> lo) & m, (xh >> lo) & m))?;
            }
            if *hi + 1 == w {
                let (_, rl, rh) = r(res)?;
                put(&mut args[0], BvRange::new(w, rl << lo, (rh << lo) | mask(*lo)))?;
            }
        }
        BvZeroExtend(_) => {
            put(res, BvRange::new(rw, xl, xh))?;
            let (_, rl, rh) = r(res)?;
            put(&mut args[0], BvRange::new(w, rl, rh))?;
        }
        BvSignExtend(_) => {
            let s = 1u128 << (w - 1);
            let high = m & !mask(w);
            let img = if xh < s {
                BvRange::new(rw, xl, xh)
            } else if xl >= s {
                BvRange::new(rw, high | xl, high | xh)
            } else {
                BvRange::new(rw, xl, high | xh)
            };
            put(res, img)?;
            let (_, rl, rh) = r(res)?;
            let pos = BvRange::new(rw, rl, rh).intersect(&BvRange::new(rw, 0, s - 1));
            let neg = BvRange::new(rw, rl, rh).intersect(&BvRange::new(rw, high | s, m));
            let mut back = BvRange::empty(w);
            if let Some((a, b)) = pos.bounds() {
                back = back.hull(&BvRange::new(w, a, b));
            }
            if let Some((a, b)) = neg.bounds() {
                back = back.hull(&BvRange::new(w, a & mask(w), b & mask(w)));
            }
            put(&mut args[0], back)?;
        }
        BvNot => {
            put(res, BvRange::new(rw, !xh & m, !xl & m))?;
            let (_, rl, rh) = r(res)?;
            put(&mut args[0], BvRange::new(w, !rh & m, !rl & m))?;
        }
        BvNeg => {
            let neg = |l: u128, h: u128| {
                if l > 0 {
                    BvRange::new(w, (h.wrapping_neg()) & m, (l.wrapping_neg()) & m)
                } else if h == 0 {
                    BvRange::point(w, 0)
                } else {
                    BvRange::full(w)
                }
            };
            put(res, neg(xl, xh))?;
            let (_, rl, rh) = r(res)?;
            put(&mut args[0], neg(rl, rh))?;
        }
        BvAnd | BvOr | BvXor => {
            let (_, yl, yh) = r(&args[1])?;
            let top = ones_above(xh.max(yh));
            let img = match op {
                BvAnd => BvRange::new(rw, 0, xh.min(yh)),
                BvOr => BvRange::new(rw, xl.max(yl), top),
                _ => BvRange::new(rw, 0, top),
            };
            put(res, img)?;
            let (_, rl, rh) = r(res)?;
            match op {
                BvAnd => {
                    put(&mut args[0], BvRange::new(w, rl, m))?;
                    put(&mut args[1], BvRange::new(w, rl, m))?;
                }
                BvOr => {
                    put(&mut args[0], BvRange::new(w, 0, rh))?;
                    put(&mut args[1], BvRange::new(w, 0, rh))?;
                }
                _ => {}
            }
        }
        BvAdd | BvSub => {
            let (_, yl, yh) = r(&args[1])?;
            let img = if matches!(op, BvAdd) {
                add_range(w, (xl, xh), (yl, yh))
            } else {
                sub_range(w, (xl, xh), (yl, yh))
            };
            put(res, img)?;
            let (_, rl, rh) = r(res)?;
            if matches!(op, BvAdd) {
                put(&mut args[0], sub_range(w, (rl, rh), (yl, yh)))?;
                let (_, xl, xh) = r(&args[0])?;
                put(&mut args[1], sub_range(w, (rl, rh), (xl, xh)))?;
            } else {
                // r = x - y: x = r + y, y = x - r
                put(&mut args[0], add_range(w, (rl, rh), (yl, yh)))?;
                let (_, xl, xh) = r(&args[0])?;
                put(&mut args[1], sub_range(w, (xl, xh), (rl, rh)))?;
            }
        }
        BvMul => {
            let (_, yl, yh) = r(&args[1])?;
            if let Some(p) = xh.checked_mul(yh) {
                if p <= m {
                    put(res, BvRange::new(rw, xl * yl, p))?;
                }
            }
        }
        BvUdiv => {
            let (_, yl, yh) = r(&args[1])?;
            // division by zero gives all ones
            let img = match (xh.checked_div(yl), xl.checked_div(yh)) {
                (Some(hi), Some(lo)) => BvRange::new(rw, lo, hi),
                (None, Some(lo)) => BvRange::new(rw, lo, m),
                _ => BvRange::point(rw, m),
            };
            put(res, img)?;
        }
        BvUrem => {
            let (_, yl, yh) = r(&args[1])?;
            let hi = if yl > 0 { xh.min(yh - 1) } else { xh };
            put(res, BvRange::new(rw, 0, hi))?;
        }
        BvShl => {
            let (_, yl, yh) = r(&args[1])?;
            if yl == yh {
                if yl >= w as u128 {
                    put(res, BvRange::point(rw, 0))?;
                } else if xh <= m >> yl {
                    put(res, BvRange::new(rw, xl << yl, xh << yl))?;
                }
            }
        }
        BvLshr => {
            let (_, yl, yh) = r(&args[1])?;
            let sh = |v: u128, s: u128| if s >= w as u128 { 0 } else { v >> s };
            put(res, BvRange::new(rw, sh(xl, yh), sh(xh, yl)))?;
        }
        // bvashr, bvsdiv, bvsrem, bvsmod: exact at points only
        _ => {}
    }
    Ok(())
}
