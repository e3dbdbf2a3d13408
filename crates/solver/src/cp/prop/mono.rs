//! The generic projection engine for float operations that are monotone on
//! boxes of sign-pure pieces.
//!
//! Every float operand domain is cut into *pieces* (NaN, `-inf`, negative
//! finite, `-0`, `+0`, positive finite, `+inf`, or coarser cuts where the
//! operation allows). On a box (one piece per operand) the operation is
//! monotone in each operand with a direction that depends only on the box,
//! and never mixes NaN and non-NaN results. Hence:
//!
//! * **direct projection**: the image of a box is the hull of the exactly
//!   rounded results at its corners; the result domain is the hull over boxes.
//! * **indirect projection** onto operand `i`: within a piece `p` of operand
//!   `i` and a box `B` of the other operands, `gmax(x) = max_{c ∈ corners(B)} f(x, c)`
//!   and `gmin(x) = min_c f(x, c)` are monotone in `x`, and for each `x` the
//!   image `f(x, B)` lies in `[gmin(x), gmax(x)]`. So the values of `p` that
//!   can reach `Z = [zl, zh]` lie in `{x : gmax(x) >= zl} ∩ {x : gmin(x) <= zh}`,
//!   an interval found by a search over ordinals on two monotone predicates.
//!
//! Soundness therefore rests only on monotonicity and on the exact rounding of
//! `fpsym-float`; there is no reasoning about preimages of rounding in closed
//! form. Speed comes from *hints*: each operation proposes where the boundary
//! should be (e.g. `x ≈ zl - y` for an addition), the search probes the hints
//! first, then gallops outward from the bracket they give, so an exact hint
//! costs a handful of evaluations. This computes the tightest interval hull
//! of `{x ∈ p : ∃c ∈ B. f(x, c) ∈ [zl, zh]}` relaxed to the corners — the
//! same bounds as the rounding-preimage formulas of FPSE (seed 000,
//! footnote 4) in every rounding mode, including overflow and signed zeros.

use crate::cp::domain::{fmax, fmin, from_ord, ord};
use fpsym_float::{Float, FloatInterval, Format, RoundingMode};

/// How an operand's non-NaN values are cut into pieces.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Cut {
    /// One piece `[-inf, +inf]`.
    Whole,
    /// `-inf | [-max, max] | +inf`.
    Finite,
    /// `-inf | [-max, -min] | -0 | +0 | [min, max] | +inf`.
    Signs,
    /// `[-inf, -min] | -0 | [+0, +inf]` (square root).
    Sqrt,
}

/// Cuts the non-NaN part of `d` into pieces; a NaN member becomes the
/// NaN-only piece (last).
pub(crate) fn pieces(d: &FloatInterval, cut: Cut) -> Vec<FloatInterval> {
    let fmt = d.format();
    let mut out = Vec::with_capacity(7);
    if let Some((l, h)) = d.bounds() {
        let ninf = Float::infinity(fmt, true);
        let pinf = Float::infinity(fmt, false);
        let nz = Float::zero(fmt, true);
        let pz = Float::zero(fmt, false);
        let bounds: &[(Float, Float)] = &match cut {
            Cut::Whole => vec![(ninf, pinf)],
            Cut::Finite => vec![
                (ninf, ninf),
                (Float::largest(fmt, true), Float::largest(fmt, false)),
                (pinf, pinf),
            ],
            Cut::Signs => vec![
                (ninf, ninf),
                (Float::largest(fmt, true), Float::smallest(fmt, true)),
                (nz, nz),
                (pz, pz),
                (Float::smallest(fmt, false), Float::largest(fmt, false)),
                (pinf, pinf),
            ],
            Cut::Sqrt => vec![(ninf, Float::smallest(fmt, true)), (nz, nz), (pz, pinf)],
        };
        let (ol, oh) = (ord(l), ord(h));
        for &(a, b) in bounds {
            let lo = ol.max(ord(a));
            let hi = oh.min(ord(b));
            if lo <= hi {
                out.push(FloatInterval::new(from_ord(fmt, lo), from_ord(fmt, hi), false));
            }
        }
    }
    if d.may_be_nan() {
        out.push(FloatInterval::nan_only(fmt));
    }
    out
}

/// A float operation of fixed arity, monotone on boxes of pieces.
pub(crate) trait MonoOp {
    /// The exactly rounded result.
    fn eval(&self, rm: RoundingMode, a: &[Float]) -> Float;
    /// How operand `i` is cut into pieces.
    fn cut(&self, i: usize) -> Cut;
    /// An estimate of the operand `i` such that `f(a[i := x]) = z` (the other
    /// entries of `a` are set); any value or None. Only speed depends on it.
    fn hint(&self, _rm: RoundingMode, _i: usize, _z: Float, _a: &[Float]) -> Option<Float> {
        None
    }
}

/// The diagonal `g(x, rest…) = f(x, x, rest…)` of an operation whose first
/// two operands are one variable. On a sign-pure piece of `x`, `x + x`,
/// `x - x`, `x * x`, `x / x`, `min(x, x)`, `max(x, x)` and `fma(x, x, c)` are
/// monotone in `x` (and `fma` in `c`), so the generic projections apply.
pub(crate) struct Diag<'a> {
    pub inner: &'a dyn MonoOp,
}

impl MonoOp for Diag<'_> {
    fn eval(&self, rm: RoundingMode, a: &[Float]) -> Float {
        let mut full = [a[0]; 4];
        full[1..=a.len()].copy_from_slice(a);
        self.inner.eval(rm, &full[..=a.len()])
    }
    fn cut(&self, i: usize) -> Cut {
        if i == 0 {
            // the finer of the two operands' cuts; sign-pure pieces make x*x monotone
            match (self.inner.cut(0), self.inner.cut(1)) {
                (Cut::Whole, Cut::Whole) => Cut::Signs,
                (a, b) if a == b => a,
                _ => Cut::Signs,
            }
        } else {
            self.inner.cut(i + 1)
        }
    }
}

/// Operands of one evaluation (arity at most 3; unused slots are NaN).
type Tuple = [Float; 3];

/// All combinations of corner values of the given pieces: each piece
/// contributes its bounds (one value for a singleton, NaN for the NaN
/// piece); operand `skip`, if any, gets a placeholder.
fn corner_tuples(boxes: &[FloatInterval], skip: Option<usize>) -> Vec<Tuple> {
    let nan = Float::nan(boxes[0].format());
    let mut out: Vec<Tuple> = Vec::with_capacity(8);
    out.push([nan; 3]);
    for (i, p) in boxes.iter().enumerate() {
        let (a, b) = match p.bounds() {
            _ if Some(i) == skip => (Float::nan(p.format()), None),
            None => (Float::nan(p.format()), None),
            Some((l, h)) if l == h => (l, None),
            Some((l, h)) => (l, Some(h)),
        };
        let n = out.len();
        for k in 0..n {
            out[k][i] = a;
            if let Some(b) = b {
                let mut t = out[k];
                t[i] = b;
                out.push(t);
            }
        }
    }
    out
}

/// The image of a box: hull of the results at its corners.
pub(crate) fn box_image(op: &dyn MonoOp, rm: RoundingMode, boxes: &[FloatInterval], out_fmt: Format) -> FloatInterval {
    let n = boxes.len();
    let mut nan = false;
    let mut lo: Option<(i128, Float)> = None;
    let mut hi: Option<(i128, Float)> = None;
    for t in corner_tuples(boxes, None) {
        let r = op.eval(rm, &t[..n]);
        match r.ordinal() {
            None => nan = true,
            Some(o) => {
                if lo.is_none_or(|(l, _)| o < l) {
                    lo = Some((o, r));
                }
                if hi.is_none_or(|(h, _)| o > h) {
                    hi = Some((o, r));
                }
            }
        }
    }
    match (lo, hi) {
        (Some((_, l)), Some((_, h))) => FloatInterval::new(l, h, nan),
        _ => FloatInterval::empty(out_fmt).with_nan(nan),
    }
}

/// Iterates over the cartesian product of piece lists.
fn for_each_box(pieces: &[Vec<FloatInterval>], mut f: impl FnMut(&[FloatInterval]) -> bool) {
    if pieces.iter().any(|p| p.is_empty()) {
        return;
    }
    let n = pieces.len();
    let mut idx = vec![0usize; n];
    let mut cur: Vec<FloatInterval> = pieces.iter().map(|p| p[0]).collect();
    loop {
        if !f(&cur) {
            return;
        }
        let mut k = 0;
        loop {
            if k == n {
                return;
            }
            idx[k] += 1;
            if idx[k] < pieces[k].len() {
                cur[k] = pieces[k][idx[k]];
                break;
            }
            idx[k] = 0;
            cur[k] = pieces[k][0];
            k += 1;
        }
    }
}

/// Direct projection for one rounding mode: the hull of the images of all boxes.
pub(crate) fn direct(op: &dyn MonoOp, rm: RoundingMode, args: &[FloatInterval], out_fmt: Format) -> FloatInterval {
    let ps: Vec<Vec<FloatInterval>> = args.iter().enumerate().map(|(i, a)| pieces(a, op.cut(i))).collect();
    let mut img = FloatInterval::empty(out_fmt);
    for_each_box(&ps, |b| {
        img = img.hull(&box_image(op, rm, b, out_fmt));
        true
    });
    img
}

/// Indirect projection onto operand `i` for one rounding mode: the hull of
/// the values of `args[i]` that can reach `z` together with some corner of a
/// box of the other operands.
pub(crate) fn indirect(
    op: &dyn MonoOp,
    rm: RoundingMode,
    args: &[FloatInterval],
    z: &FloatInterval,
    i: usize,
) -> FloatInterval {
    let fmt = args[i].format();
    let ps: Vec<Vec<FloatInterval>> = args.iter().enumerate().map(|(j, a)| pieces(a, op.cut(j))).collect();
    let mut result = FloatInterval::empty(fmt);
    for p in &ps[i] {
        let mut acc = FloatInterval::empty(fmt);
        let mut others = ps.clone();
        others[i] = vec![*p];
        for_each_box(&others, |b| {
            let sub = feasible(op, rm, b, i, z);
            acc = acc.hull(&sub);
            acc != *p
        });
        result = result.hull(&acc);
    }
    result
}

/// The part of piece `boxes[i]` that can reach `z` with the other operands in
/// their pieces.
fn feasible(op: &dyn MonoOp, rm: RoundingMode, boxes: &[FloatInterval], i: usize, z: &FloatInterval) -> FloatInterval {
    let p = boxes[i];
    let fmt = p.format();
    let img = box_image(op, rm, boxes, z.format());
    if img.intersect(z).is_empty() {
        return FloatInterval::empty(fmt);
    }
    let Some((l, h)) = p.bounds() else { return p };
    if l == h || img.may_be_nan() || img.bounds().is_none() {
        return p;
    }
    let Some((zl, zh)) = z.bounds() else { return p };
    let others = corner_tuples(boxes, Some(i));
    let n = boxes.len();
    let eval_at = |x: Float, t: &Tuple| {
        let mut a = *t;
        a[i] = x;
        op.eval(rm, &a[..n])
    };
    // gmax(x) >= zl
    let ge = |x: Float| -> bool {
        others.iter().any(|t| {
            let r = eval_at(x, t);
            r.is_nan() || ord(r) >= ord(zl)
        })
    };
    // gmin(x) <= zh
    let le = |x: Float| -> bool {
        others.iter().any(|t| {
            let r = eval_at(x, t);
            r.is_nan() || ord(r) <= ord(zh)
        })
    };
    let hints = |target: Float| -> Vec<i128> {
        others
            .iter()
            .filter_map(|t| op.hint(rm, i, target, &t[..n]))
            .filter(|x| !x.is_nan())
            .map(ord)
            .collect()
    };
    let (mut lo, mut hi) = (ord(l), ord(h));
    if zl != Float::infinity(z.format(), true) {
        match region(lo, hi, |o| ge(from_ord(fmt, o)), &hints(zl)) {
            None => return FloatInterval::empty(fmt),
            Some((a, b)) => {
                lo = a;
                hi = b;
            }
        }
    }
    if zh != Float::infinity(z.format(), false) {
        match region(lo, hi, |o| le(from_ord(fmt, o)), &hints(zh)) {
            None => return FloatInterval::empty(fmt),
            Some((a, b)) => {
                lo = a;
                hi = b;
            }
        }
    }
    FloatInterval::new(from_ord(fmt, lo), from_ord(fmt, hi), false)
}

/// For a predicate monotone on the ordinals `[lo, hi]` (in either direction),
/// the sub-interval where it holds, or None.
pub(crate) fn region(lo: i128, hi: i128, p: impl Fn(i128) -> bool, hints: &[i128]) -> Option<(i128, i128)> {
    let (pl, ph) = (p(lo), if lo == hi { p(lo) } else { p(hi) });
    match (pl, ph) {
        (true, true) => Some((lo, hi)),
        (false, false) => None,
        (false, true) => Some((transition(lo, hi, &p, hints, true), hi)),
        (true, false) => Some((lo, transition(lo, hi, &p, hints, false) - 1)),
    }
}

/// Finds the first ordinal in `(f, t]` where the monotone predicate equals
/// `want`, given `p(f) != want` and `p(t) == want` (`f < t`), probing the
/// hints first and then galloping outward from both ends of the bracket.
fn transition(lo: i128, hi: i128, p: &impl Fn(i128) -> bool, hints: &[i128], want: bool) -> i128 {
    // invariant: p(f) != want, p(t) == want, f < t; distances as u128 so
    // that the whole i128 range (bit-vectors of 128 bits) cannot overflow
    let (mut f, mut t) = (lo, hi);
    let dist = |f: i128, t: i128| (t as u128).wrapping_sub(f as u128);
    for &h in hints {
        for c in [Some(h), h.checked_sub(1), h.checked_add(1)].into_iter().flatten() {
            if f < c && c < t {
                if p(c) == want {
                    t = c;
                } else {
                    f = c;
                }
            }
        }
    }
    let mut step: u128 = 1;
    while dist(f, t) > 1 {
        let d = dist(f, t);
        if step >= d / 2 {
            // plain bisection from here
            let m = f.wrapping_add((d / 2) as i128);
            if p(m) == want {
                t = m;
            } else {
                f = m;
            }
            continue;
        }
        let c = t.wrapping_sub(step as i128);
        if p(c) == want {
            t = c;
        } else {
            f = c;
            continue;
        }
        let c = f.wrapping_add(step as i128);
        if p(c) == want {
            t = c;
        } else {
            f = c;
        }
        step = step.saturating_mul(2);
    }
    t
}

/// Max and min in the total order, for callers that combine images.
#[allow(dead_code)]
pub(crate) fn minmax(a: Float, b: Float) -> (Float, Float) {
    (fmin(a, b), fmax(a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn region_finds_transitions() {
        for n in [1i128, 2, 3, 10, 1000, 1 << 40] {
            for k in [0, 1, n / 2, n - 1, n] {
                // p(o) = o >= k on [0, n]
                let r = region(0, n, |o| o >= k, &[]);
                assert_eq!(r, Some((k, n)), "n={n} k={k}");
                let r = region(0, n, |o| o >= k, &[k + 3, k - 2]);
                assert_eq!(r, Some((k, n)), "n={n} k={k} hints");
                let r = region(0, n, |o| o <= k, &[k]);
                assert_eq!(r, Some((0, k)));
            }
        }
        assert_eq!(region(0, 5, |_| false, &[]), None);
    }
}
