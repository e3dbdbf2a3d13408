//! Transfer functions of the float interval domain, sound in every rounding
//! mode.
//!
//! An abstract value is a [`FloatInterval`]: bounds in the total order
//! (`-0 < +0`) and a may-be-NaN flag. Each operation splits its operands at
//! zero into a negative part `[lo, -0]` and a positive part `[+0, hi]`; on
//! each combination of parts the exact operation is monotone in each
//! argument, so its extremes are at the parts' corners. The lower bound is
//! the least corner rounded toward negative, the upper bound the greatest
//! corner rounded toward positive: every rounding mode's result lies between
//! the two, so one abstract result covers them all (fesetround included).
//! A corner that is NaN (`inf - inf`, `0 * inf`, `0 / 0`, `inf / inf`) sets
//! the NaN flag; the unit tests check every claim by enumeration on tiny
//! formats.

use fpsym_float::{Float, FloatInterval, Format, RoundingMode, StatusAnd};
use fpsym_frontend::llvm_ir::FPPredicate;

const DOWN: RoundingMode = RoundingMode::TowardNegative;
const UP: RoundingMode = RoundingMode::TowardPositive;

fn ord(f: Float) -> i128 {
    f.ordinal().expect("interval bounds are not NaN")
}

/// The negative part `[lo, -0]` and the positive part `[+0, hi]` of an
/// interval's non-NaN values (each absent when empty).
fn sign_parts(x: &FloatInterval) -> Vec<(Float, Float)> {
    let Some((lo, hi)) = x.bounds() else { return Vec::new() };
    let fmt = x.format();
    let (nz, pz) = (Float::zero(fmt, true), Float::zero(fmt, false));
    let mut parts = Vec::with_capacity(2);
    if ord(lo) <= ord(nz) {
        parts.push((lo, if ord(hi) < ord(nz) { hi } else { nz }));
    }
    if ord(hi) >= ord(pz) {
        parts.push((if ord(lo) > ord(pz) { lo } else { pz }, hi));
    }
    parts
}

/// Accumulates corner results into an interval.
struct Hull {
    fmt: Format,
    lo: Option<Float>,
    hi: Option<Float>,
    nan: bool,
}

impl Hull {
    fn new(fmt: Format, nan: bool) -> Hull {
        Hull {
            fmt,
            lo: None,
            hi: None,
            nan,
        }
    }
    /// Adds a corner: `down` is its value rounded toward negative, `up`
    /// toward positive.
    fn corner(&mut self, down: Float, up: Float) {
        if down.is_nan() || up.is_nan() {
            self.nan = true;
            return;
        }
        if self.lo.is_none_or(|l| ord(down) < ord(l)) {
            self.lo = Some(down);
        }
        if self.hi.is_none_or(|h| ord(up) > ord(h)) {
            self.hi = Some(up);
        }
    }
    fn finish(self) -> FloatInterval {
        match (self.lo, self.hi) {
            (Some(l), Some(h)) => FloatInterval::new(l, h, self.nan),
            _ if self.nan => FloatInterval::nan_only(self.fmt),
            _ => FloatInterval::empty(self.fmt),
        }
    }
}

/// A binary operation on intervals, given the operation under a rounding mode.
fn binary(
    a: &FloatInterval,
    b: &FloatInterval,
    op: impl Fn(Float, Float, RoundingMode) -> StatusAnd<Float>,
) -> FloatInterval {
    let mut h = Hull::new(a.format(), a.may_be_nan() || b.may_be_nan());
    for &(al, ah) in &sign_parts(a) {
        for &(bl, bh) in &sign_parts(b) {
            for x in [al, ah] {
                for y in [bl, bh] {
                    h.corner(op(x, y, DOWN).value, op(x, y, UP).value);
                }
            }
        }
    }
    h.finish()
}

/// `a + b`.
pub fn add(a: &FloatInterval, b: &FloatInterval) -> FloatInterval {
    binary(a, b, |x, y, rm| x.add(y, rm))
}
/// `a - b`.
pub fn sub(a: &FloatInterval, b: &FloatInterval) -> FloatInterval {
    binary(a, b, |x, y, rm| x.sub(y, rm))
}
/// `a * b`.
pub fn mul(a: &FloatInterval, b: &FloatInterval) -> FloatInterval {
    binary(a, b, |x, y, rm| x.mul(y, rm))
}
/// `a / b`.
pub fn div(a: &FloatInterval, b: &FloatInterval) -> FloatInterval {
    binary(a, b, |x, y, rm| x.div(y, rm))
}

/// A monotone non-decreasing unary operation on intervals.
fn monotone(a: &FloatInterval, to: Format, op: impl Fn(Float, RoundingMode) -> StatusAnd<Float>) -> FloatInterval {
    let mut h = Hull::new(to, a.may_be_nan());
    if let Some((lo, hi)) = a.bounds() {
        h.corner(op(lo, DOWN).value, op(lo, UP).value);
        h.corner(op(hi, DOWN).value, op(hi, UP).value);
    }
    h.finish()
}

/// `sqrt(a)`: NaN for negative operands, `-0` for `-0`.
pub fn sqrt(a: &FloatInterval) -> FloatInterval {
    let fmt = a.format();
    let mut out = FloatInterval::empty(fmt).with_nan(a.may_be_nan());
    for (lo, hi) in sign_parts(a) {
        if lo.sign() && !lo.is_zero() {
            out = out.with_nan(true);
        }
        if hi.sign() {
            // the negative part: only -0 has a root (itself)
            if hi.is_zero() {
                out = out.hull(&FloatInterval::point(hi));
            }
        } else {
            out = out.hull(&monotone(&FloatInterval::new(lo, hi, false), fmt, |x, rm| x.sqrt(rm)));
        }
    }
    out
}

/// A conversion to another float format (`fpext`, `fptrunc`).
pub fn convert(a: &FloatInterval, to: Format) -> FloatInterval {
    monotone(a, to, |x, rm| x.convert(to, rm))
}

/// `-a` (exact: flips every sign, NaN stays NaN).
pub fn neg(a: &FloatInterval) -> FloatInterval {
    let out = FloatInterval::empty(a.format()).with_nan(a.may_be_nan());
    match a.bounds() {
        Some((lo, hi)) => out.hull(&FloatInterval::new(hi.neg(), lo.neg(), false)),
        None => out,
    }
}

/// `|a|`.
pub fn abs(a: &FloatInterval) -> FloatInterval {
    let mut out = FloatInterval::empty(a.format()).with_nan(a.may_be_nan());
    for (lo, hi) in sign_parts(a) {
        let (l, h) = if lo.sign() { (hi.neg(), lo.neg()) } else { (lo, hi) };
        out = out.hull(&FloatInterval::new(l, h, false));
    }
    out
}

/// The interval of the integers `[lo, hi]` converted to `fmt` (`sitofp`,
/// `uitofp`: integer zero converts to `+0`).
pub fn from_ints(fmt: Format, lo: i128, hi: i128) -> FloatInterval {
    let conv = |v: i128, rm| {
        let big = num_bigint::BigInt::from(v);
        Float::from_bigint(fmt, &big, rm).value
    };
    if lo > hi {
        return FloatInterval::empty(fmt);
    }
    FloatInterval::new(conv(lo, DOWN), conv(hi, UP), false)
}

/// The integers `[lo, hi]` that a conversion toward zero (`fptosi`,
/// `fptoui`) of `a` gives when every value of `a` is in range for a
/// `width`-bit integer (`signed` or not); None when some value may be NaN,
/// infinite or out of range, where what x86-64 computes is not the value.
pub fn to_ints(a: &FloatInterval, width: u32, signed: bool) -> Option<(i128, i128)> {
    if a.may_be_nan() {
        return None;
    }
    let (lo, hi) = a.bounds()?;
    let conv = |v: Float| v.to_bv(RoundingMode::TowardZero, width, signed).value;
    let (l, h) = (conv(lo)?, conv(hi)?);
    let as_int = |bits: u128| -> i128 {
        if signed && width < 128 && bits >> (width - 1) & 1 == 1 {
            bits as i128 - (1i128 << width)
        } else {
            bits as i128
        }
    };
    Some((as_int(l), as_int(h)))
}

/// The hull of `a` and `b` where every bound that grew jumps to the next
/// threshold beyond it (then to infinity): the widening of the loop heads.
pub fn widen(a: &FloatInterval, b: &FloatInterval, thresholds: &[Float]) -> FloatInterval {
    let fmt = a.format();
    let joined = a.hull(b);
    let (Some((al, ah)), Some((jl, jh))) = (a.bounds(), joined.bounds()) else {
        return joined;
    };
    let lo = if ord(jl) < ord(al) {
        thresholds
            .iter()
            .copied()
            .filter(|t| ord(*t) <= ord(jl))
            .max_by_key(|t| ord(*t))
            .unwrap_or(Float::infinity(fmt, true))
    } else {
        jl
    };
    let hi = if ord(jh) > ord(ah) {
        thresholds
            .iter()
            .copied()
            .filter(|t| ord(*t) >= ord(jh))
            .min_by_key(|t| ord(*t))
            .unwrap_or(Float::infinity(fmt, false))
    } else {
        jh
    };
    FloatInterval::new(lo, hi, joined.may_be_nan())
}

/// A float comparison predicate without its ordered/unordered part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rel {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl Rel {
    /// The relation with its operands swapped (`a < b` is `b > a`).
    pub fn swapped(self) -> Rel {
        match self {
            Rel::Lt => Rel::Gt,
            Rel::Le => Rel::Ge,
            Rel::Gt => Rel::Lt,
            Rel::Ge => Rel::Le,
            r => r,
        }
    }
    /// The complement on ordered operands (`!(a < b)` is `a >= b` or unordered).
    pub fn negated(self) -> Rel {
        match self {
            Rel::Eq => Rel::Ne,
            Rel::Ne => Rel::Eq,
            Rel::Lt => Rel::Ge,
            Rel::Le => Rel::Gt,
            Rel::Gt => Rel::Le,
            Rel::Ge => Rel::Lt,
        }
    }
}

/// The values of `x` for which `x REL y` can hold for some non-NaN `y` of
/// `y` (IEEE comparison: `-0 == +0`); NaN is not kept.
pub fn refine(x: &FloatInterval, rel: Rel, y: &FloatInterval) -> FloatInterval {
    let fmt = x.format();
    let xs = x.without_nan();
    let Some((yl, yh)) = y.bounds() else {
        return FloatInterval::empty(fmt);
    };
    let key = |f: Float| f.ieee_key().expect("not NaN");
    let keep = |lo: Float, hi: Float| xs.intersect(&FloatInterval::new(lo, hi, false));
    let (ninf, pinf) = (Float::infinity(fmt, true), Float::infinity(fmt, false));
    match rel {
        Rel::Lt => keep(ninf, Float::greatest_with_key(fmt, key(yh) - 1)),
        Rel::Le => keep(ninf, Float::greatest_with_key(fmt, key(yh))),
        Rel::Gt => keep(Float::least_with_key(fmt, key(yl) + 1), pinf),
        Rel::Ge => keep(Float::least_with_key(fmt, key(yl)), pinf),
        Rel::Eq => keep(
            Float::least_with_key(fmt, key(yl)),
            Float::greatest_with_key(fmt, key(yh)),
        ),
        Rel::Ne => match y.as_point() {
            // x != c removes c (both zeros for a zero) only at an end of x
            Some(c) if !c.is_nan() => {
                let Some((xl, xh)) = xs.bounds() else { return xs };
                let (mut lo, mut hi) = (xl, xh);
                if key(lo) == key(c) {
                    lo = Float::least_with_key(fmt, key(c) + 1);
                }
                if key(hi) == key(c) {
                    hi = Float::greatest_with_key(fmt, key(c) - 1);
                }
                keep(lo, hi)
            }
            _ => xs,
        },
    }
}

/// Whether `x REL y` is true for every, some or no pair (ordered compare:
/// false when an operand is NaN): `(can_be_true, can_be_false)`.
pub fn compare(x: &FloatInterval, rel: Rel, y: &FloatInterval) -> (bool, bool) {
    let nan = x.may_be_nan() || y.may_be_nan();
    let can_true = !refine(x, rel, y).is_empty();
    let can_false = nan || !refine(x, rel.negated(), y).is_empty();
    (
        can_true && !x.without_nan().is_empty() && !y.without_nan().is_empty(),
        can_false,
    )
}

/// An FP predicate as (relation, ordered); None for `true`, `false`, `ord`, `uno`.
pub fn split_fpred(p: FPPredicate) -> Option<(Rel, bool)> {
    use FPPredicate::*;
    Some(match p {
        OEQ => (Rel::Eq, true),
        OGT => (Rel::Gt, true),
        OGE => (Rel::Ge, true),
        OLT => (Rel::Lt, true),
        OLE => (Rel::Le, true),
        ONE => (Rel::Ne, true),
        UEQ => (Rel::Eq, false),
        UGT => (Rel::Gt, false),
        UGE => (Rel::Ge, false),
        ULT => (Rel::Lt, false),
        ULE => (Rel::Le, false),
        UNE => (Rel::Ne, false),
        _ => return None,
    })
}

/// The values of `x` for which `x PRED x` is `truth` (None: none): true
/// for a number exactly under the predicates that hold on equal operands,
/// for NaN exactly under the unordered ones.
pub fn fcmp_self(p: FPPredicate, truth: bool, x: &FloatInterval) -> Option<FloatInterval> {
    use FPPredicate::*;
    let on_number = matches!(p, OEQ | OGE | OLE | UEQ | UGE | ULE | ORD | True);
    let on_nan = matches!(p, UEQ | UGT | UGE | ULT | ULE | UNE | UNO | True);
    let mut out = FloatInterval::empty(x.format());
    if on_number == truth {
        out = out.hull(&x.without_nan());
    }
    if on_nan == truth && x.may_be_nan() {
        out = out.with_nan(true);
    }
    (!out.is_empty()).then_some(out)
}

/// Whether `a PRED b` (an LLVM `fcmp` predicate) can be true, and can be false.
pub fn fcmp_outcomes(p: FPPredicate, a: &FloatInterval, b: &FloatInterval) -> (bool, bool) {
    (
        fcmp_refine(p, true, a, b).is_some(),
        fcmp_refine(p, false, a, b).is_some(),
    )
}

/// The operands' values for which `a PRED b` (an LLVM `fcmp` predicate,
/// ordered or unordered) is `truth` (None: no pair).
pub fn fcmp_refine(
    p: FPPredicate,
    truth: bool,
    a: &FloatInterval,
    b: &FloatInterval,
) -> Option<(FloatInterval, FloatInterval)> {
    let nonempty = |x: FloatInterval, y: FloatInterval| (!x.is_empty() && !y.is_empty()).then_some((x, y));
    let either_nan = a.may_be_nan() || b.may_be_nan();
    match p {
        FPPredicate::True => return if truth { nonempty(*a, *b) } else { None },
        FPPredicate::False => return if truth { None } else { nonempty(*a, *b) },
        FPPredicate::ORD | FPPredicate::UNO => {
            let ordered = (p == FPPredicate::ORD) == truth;
            return if ordered {
                nonempty(a.without_nan(), b.without_nan())
            } else if !either_nan {
                None
            } else if !a.may_be_nan() {
                nonempty(*a, b.intersect(&FloatInterval::nan_only(b.format())))
            } else if !b.may_be_nan() {
                nonempty(a.intersect(&FloatInterval::nan_only(a.format())), *b)
            } else {
                Some((*a, *b))
            };
        }
        _ => {}
    }
    let (rel, ordered) = split_fpred(p)?;
    // the predicate that holds: an ordered relation, or the relation or unordered
    let (rel, ordered) = if truth {
        (rel, ordered)
    } else {
        (rel.negated(), !ordered)
    };
    let ra = refine(a, rel, b);
    let rb = refine(b, rel.swapped(), a);
    if ordered {
        nonempty(ra, rb)
    } else {
        // the relation holds, or one operand is NaN
        let na = if b.may_be_nan() {
            *a
        } else {
            ra.with_nan(a.may_be_nan())
        };
        let nb = if a.may_be_nan() {
            *b
        } else {
            rb.with_nan(b.may_be_nan())
        };
        if !either_nan && (ra.is_empty() || rb.is_empty()) {
            return None;
        }
        nonempty(na, nb)
    }
}

#[cfg(test)]
mod tests;
