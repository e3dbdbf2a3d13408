//! Abstract values: float intervals ([`crate::itv`]) and integer ranges.

use crate::itv;
use fpsym_float::{Float, FloatInterval, Format};
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::fmt;

/// A range of reals (the values of a linear combination of a loop's
/// variables); a missing bound is infinite.
#[derive(Debug, Clone, PartialEq)]
pub struct RatRange {
    /// The lower bound.
    pub lo: Option<BigRational>,
    /// The upper bound.
    pub hi: Option<BigRational>,
}

impl RatRange {
    /// Every real.
    pub fn full() -> RatRange {
        RatRange { lo: None, hi: None }
    }
    fn hull(&self, o: &RatRange) -> RatRange {
        let lo = match (&self.lo, &o.lo) {
            (Some(a), Some(b)) => Some(a.min(b).clone()),
            _ => None,
        };
        let hi = match (&self.hi, &o.hi) {
            (Some(a), Some(b)) => Some(a.max(b).clone()),
            _ => None,
        };
        RatRange { lo, hi }
    }
    fn contains(&self, o: &RatRange) -> bool {
        let lo_ok = match (&self.lo, &o.lo) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(a), Some(b)) => a <= b,
        };
        let hi_ok = match (&self.hi, &o.hi) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(a), Some(b)) => a >= b,
        };
        lo_ok && hi_ok
    }
    /// The intersection (None when empty).
    pub fn meet(&self, o: &RatRange) -> Option<RatRange> {
        let lo = match (&self.lo, &o.lo) {
            (Some(a), Some(b)) => Some(a.max(b).clone()),
            (a, b) => a.clone().or(b.clone()),
        };
        let hi = match (&self.hi, &o.hi) {
            (Some(a), Some(b)) => Some(a.min(b).clone()),
            (a, b) => a.clone().or(b.clone()),
        };
        match (&lo, &hi) {
            (Some(l), Some(h)) if l > h => None,
            _ => Some(RatRange { lo, hi }),
        }
    }
    /// The hull where a bound that grew jumps to the next power of two
    /// beyond it (0 first for a non-positive one), and past 2^1100 to
    /// infinity.
    fn widen(&self, o: &RatRange) -> RatRange {
        let j = self.hull(o);
        let up = |q: &BigRational| -> Option<BigRational> {
            if !q.is_positive() {
                return Some(BigRational::zero());
            }
            let mut t = BigRational::one();
            for _ in 0..1100 {
                if &t >= q {
                    return Some(t);
                }
                t *= BigRational::from_integer(2.into());
            }
            None
        };
        let hi = match (&self.hi, &j.hi) {
            (Some(a), Some(b)) if b > a => up(b),
            (_, b) => b.clone(),
        };
        let lo = match (&self.lo, &j.lo) {
            (Some(a), Some(b)) if b < a => up(&-b).map(|t| -t),
            (_, b) => b.clone(),
        };
        RatRange { lo, hi }
    }
}

/// A linear form over a loop's variables: internal to the analysis.
#[derive(Debug, Clone, PartialEq)]
pub struct Linear(pub(crate) std::rc::Rc<crate::analyze::relational::Affine>);

/// A set of integers of one width: `[lo, hi]` in the signed reading of the
/// bits, except for `i1`, whose values are 0 (false) and 1 (true).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IntRange {
    /// The width in bits.
    pub bits: u32,
    /// The least value.
    pub lo: i128,
    /// The greatest value.
    pub hi: i128,
}

impl IntRange {
    /// The least and greatest values of the width.
    pub fn limits(bits: u32) -> (i128, i128) {
        match bits {
            1 => (0, 1),
            b if b >= 128 => (i128::MIN, i128::MAX),
            b => (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1),
        }
    }
    /// Every value of the width.
    pub fn full(bits: u32) -> IntRange {
        let (lo, hi) = IntRange::limits(bits);
        IntRange { bits, lo, hi }
    }
    /// One value.
    pub fn point(bits: u32, v: i128) -> IntRange {
        IntRange { bits, lo: v, hi: v }
    }
    /// `[lo, hi]` when it fits the width, else every value of the width
    /// (what a wrap-around on overflow can give).
    pub fn fitted(bits: u32, lo: i128, hi: i128) -> IntRange {
        let (l, h) = IntRange::limits(bits);
        if lo >= l && hi <= h && lo <= hi {
            IntRange { bits, lo, hi }
        } else {
            IntRange::full(bits)
        }
    }
    /// The one value, if there is one.
    pub fn as_point(&self) -> Option<i128> {
        (self.lo == self.hi).then_some(self.lo)
    }
    /// The smallest range containing both.
    pub fn hull(&self, o: &IntRange) -> IntRange {
        IntRange {
            bits: self.bits,
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
        }
    }
    /// The intersection, None when empty.
    pub fn meet(&self, lo: i128, hi: i128) -> Option<IntRange> {
        let (l, h) = (self.lo.max(lo), self.hi.min(hi));
        (l <= h).then_some(IntRange {
            bits: self.bits,
            lo: l,
            hi: h,
        })
    }
}

/// A pointer into the object one `alloca` made in one call: the byte
/// offsets `lo, lo + stride, ..., hi` from the object's start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Addr {
    /// The call context of the function that made the object.
    pub ctx: u32,
    /// The `alloca`'s IR name.
    pub var: llvm_ir::Name,
    /// The least offset.
    pub lo: i128,
    /// The greatest offset.
    pub hi: i128,
    /// The step between offsets (0 when there is one).
    pub stride: i128,
    /// The object's size in bytes.
    pub size: i128,
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Addr {
    /// One offset.
    pub fn at(&self, off: i128) -> Addr {
        Addr {
            lo: off,
            hi: off,
            stride: 0,
            ..self.clone()
        }
    }
    /// The offsets `self + k * step` for k in `[a, b]` (None on overflow).
    pub fn plus(&self, a: i128, b: i128, step: i128) -> Option<Addr> {
        let lo = self.lo.checked_add(a.checked_mul(step)?)?;
        let hi = self.hi.checked_add(b.checked_mul(step)?)?;
        let stride = if a == b || step == 0 {
            self.stride
        } else {
            gcd(self.stride, step)
        };
        Some(Addr {
            lo,
            hi,
            stride,
            ..self.clone()
        })
    }
    /// Every offset, in order (None: more than `max`).
    pub fn offsets(&self, max: usize) -> Option<Vec<i128>> {
        if self.lo == self.hi {
            return Some(vec![self.lo]);
        }
        // (a range without a step: every byte of it)
        let step = if self.stride == 0 { 1 } else { self.stride };
        let n = (self.hi - self.lo) / step + 1;
        if n > max as i128 {
            return None;
        }
        Some((0..n).map(|k| self.lo + k * step).collect())
    }
    /// Both sets of offsets (the same object).
    fn join(&self, o: &Addr) -> Addr {
        Addr {
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
            stride: gcd(gcd(self.stride, o.stride), self.lo - o.lo),
            ..self.clone()
        }
    }
    /// The join, where a growing end jumps to the object's end (an offset
    /// beyond the object: None).
    fn widen(&self, o: &Addr) -> Option<Addr> {
        let mut j = self.join(o);
        if j.lo < 0 || j.hi > j.size {
            return None;
        }
        if j.lo < self.lo {
            j.lo = if j.stride == 0 { 0 } else { j.lo.rem_euclid(j.stride) };
        }
        if j.hi > self.hi {
            j.hi = if j.stride == 0 {
                j.size
            } else {
                j.hi + (j.size - j.hi) / j.stride * j.stride
            };
        }
        Some(j)
    }
    fn same_object(&self, o: &Addr) -> bool {
        self.ctx == o.ctx && self.var == o.var
    }
}

/// Objects a pointer may point into, at most (more: any pointer).
pub const MAX_OBJECTS: usize = 8;

/// An abstract value of one IR value.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    /// A `float` or `double`.
    F(FloatInterval),
    /// An integer.
    I(IntRange),
    /// A pointer to a global variable's element `idx` (`[lo, hi]`), or to
    /// the variable itself when it is not an array.
    Ptr {
        /// The global.
        global: String,
        /// The element indices it may point to (None: the variable itself).
        idx: Option<(i128, i128)>,
    },
    /// A pointer into a local variable (an `alloca`'s object).
    Addr(Addr),
    /// A pointer into one of several local variables (2 to
    /// [`MAX_OBJECTS`], one entry each, in order).
    Addrs(Vec<Addr>),
    /// A range of reals: the values of a linear combination of a loop's
    /// variables (a template direction of the relational domain).
    R(RatRange),
    /// A float value as a linear form of the loop head's values plus an
    /// interval (rounding errors and inputs), kept beside its interval.
    Lin(Linear),
    /// Anything (a pointer the analysis does not follow).
    Top,
}

impl Val {
    /// The places a pointer into local memory may point to, one per object
    /// (None: not such a pointer).
    pub fn addrs(&self) -> Option<Vec<Addr>> {
        match self {
            Val::Addr(a) => Some(vec![a.clone()]),
            Val::Addrs(v) => Some(v.clone()),
            _ => None,
        }
    }
    /// A pointer to any of these places (the places in one object joined;
    /// more than [`MAX_OBJECTS`] objects: any pointer).
    pub fn from_addrs(mut v: Vec<Addr>) -> Val {
        v.sort_by(|a, b| (a.ctx, &a.var).cmp(&(b.ctx, &b.var)));
        let mut out: Vec<Addr> = Vec::with_capacity(v.len());
        for a in v {
            match out.last_mut() {
                Some(l) if l.same_object(&a) => *l = l.join(&a),
                _ => out.push(a),
            }
        }
        match out.len() {
            0 => Val::Top,
            1 => Val::Addr(out.pop().expect("one")),
            n if n <= MAX_OBJECTS => Val::Addrs(out),
            _ => Val::Top,
        }
    }
    /// The smallest value containing both (None when they do not agree in
    /// kind: a pointer to two different globals).
    pub fn join(&self, o: &Val) -> Val {
        match (self, o) {
            (Val::F(a), Val::F(b)) => Val::F(a.hull(b)),
            (Val::I(a), Val::I(b)) => Val::I(a.hull(b)),
            (Val::R(a), Val::R(b)) => Val::R(a.hull(b)),
            (Val::Addr(_) | Val::Addrs(_), Val::Addr(_) | Val::Addrs(_)) => {
                let mut v = self.addrs().expect("a pointer");
                v.extend(o.addrs().expect("a pointer"));
                Val::from_addrs(v)
            }
            (Val::Lin(a), Val::Lin(b)) if a.0.coefs == b.0.coefs => {
                let mut f = (*a.0).clone();
                f.lo = f.lo.min(b.0.lo.clone());
                f.hi = f.hi.max(b.0.hi.clone());
                Val::Lin(Linear(std::rc::Rc::new(f)))
            }
            (Val::Ptr { global: g, idx: a }, Val::Ptr { global: h, idx: b }) if g == h => Val::Ptr {
                global: g.clone(),
                idx: match (a, b) {
                    (Some(a), Some(b)) => Some((a.0.min(b.0), a.1.max(b.1))),
                    (None, None) => None,
                    _ => return Val::Top,
                },
            },
            _ => Val::Top,
        }
    }
    /// Whether every value of `self` is in `o`.
    pub fn leq(&self, o: &Val) -> bool {
        match (self, o) {
            (_, Val::Top) => true,
            (Val::F(a), Val::F(b)) => a.hull(b) == *b,
            (Val::I(a), Val::I(b)) => a.lo >= b.lo && a.hi <= b.hi,
            (Val::R(a), Val::R(b)) => b.contains(a),
            (Val::Lin(a), Val::Lin(b)) => a.0.coefs == b.0.coefs && a.0.lo >= b.0.lo && a.0.hi <= b.0.hi,
            (a @ Val::Ptr { .. }, b @ Val::Ptr { .. })
            | (a @ (Val::Addr(_) | Val::Addrs(_)), b @ (Val::Addr(_) | Val::Addrs(_))) => a.join(b) == *b,
            _ => false,
        }
    }
    /// The join where growing bounds jump to the next threshold.
    pub fn widen(&self, o: &Val, fthr: &dyn Fn(Format) -> Vec<Float>, ithr: &[i128]) -> Val {
        match (self, o) {
            (Val::F(a), Val::F(b)) => Val::F(itv::widen(a, b, &fthr(a.format()))),
            (Val::I(a), Val::I(b)) => {
                let j = a.hull(b);
                let (l, h) = IntRange::limits(a.bits);
                let lo = if j.lo < a.lo {
                    ithr.iter()
                        .copied()
                        .filter(|t| *t <= j.lo && *t >= l)
                        .max()
                        .unwrap_or(l)
                } else {
                    j.lo
                };
                let hi = if j.hi > a.hi {
                    ithr.iter()
                        .copied()
                        .filter(|t| *t >= j.hi && *t <= h)
                        .min()
                        .unwrap_or(h)
                } else {
                    j.hi
                };
                Val::I(IntRange { bits: a.bits, lo, hi })
            }
            (Val::R(a), Val::R(b)) => Val::R(a.widen(b)),
            (Val::Addr(_) | Val::Addrs(_), Val::Addr(_) | Val::Addrs(_)) => {
                // each object's places widened (an object new to the pointer
                // joins as it is: there are few objects)
                let old = self.addrs().expect("a pointer");
                let Some(joined) = self.join(o).addrs() else {
                    return Val::Top;
                };
                let mut out = Vec::with_capacity(joined.len());
                for j in joined {
                    match old.iter().find(|a| a.same_object(&j)) {
                        Some(a) => match a.widen(&j) {
                            Some(w) => out.push(w),
                            None => return Val::Top,
                        },
                        None => out.push(j),
                    }
                }
                Val::from_addrs(out)
            }
            _ => self.join(o),
        }
    }
    /// The float interval, if this is one.
    pub fn as_f(&self) -> Option<&FloatInterval> {
        match self {
            Val::F(f) => Some(f),
            _ => None,
        }
    }
    /// The integer range, if this is one.
    pub fn as_i(&self) -> Option<&IntRange> {
        match self {
            Val::I(r) => Some(r),
            _ => None,
        }
    }
}

/// A float as C would print it with `%.17g`-like shortest round-trip
/// digits (no type suffix).
fn show(x: Float) -> String {
    match (x.to_f32(), x.to_f64()) {
        (Some(v), _) if x.format() == Format::BINARY32 => format!("{v:?}"),
        (_, Some(v)) if x.format() == Format::BINARY64 => format!("{v:?}"),
        _ => x.to_string(),
    }
}

impl fmt::Display for Val {
    /// `[lo, hi]` (with `or NaN` when NaN is possible), a point as itself.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Val::F(x) => {
                match x.bounds() {
                    Some((l, h)) if l == h => write!(f, "{}", show(l))?,
                    Some((l, h)) => write!(f, "[{}, {}]", show(l), show(h))?,
                    None if x.may_be_nan() => return write!(f, "NaN"),
                    None => return write!(f, "nothing"),
                }
                if x.may_be_nan() {
                    write!(f, " or NaN")?;
                }
                Ok(())
            }
            Val::I(r) if r.lo == r.hi => write!(f, "{}", r.lo),
            Val::I(r) => write!(f, "[{}, {}]", r.lo, r.hi),
            Val::Ptr { global, idx: None } => write!(f, "&{global}"),
            Val::Ptr {
                global,
                idx: Some((l, h)),
            } => write!(f, "&{global}[{l}..{h}]"),
            Val::Addr(_) | Val::Addrs(_) => {
                let shown: Vec<String> = self
                    .addrs()
                    .expect("a pointer")
                    .iter()
                    .map(|a| {
                        if a.lo == a.hi {
                            format!("&{}+{}", a.var, a.lo)
                        } else {
                            format!("&{}+[{}..{}]", a.var, a.lo, a.hi)
                        }
                    })
                    .collect();
                f.write_str(&shown.join(" or "))
            }
            Val::R(r) => {
                let show = |q: &Option<BigRational>, inf: &str| {
                    q.as_ref()
                        .and_then(|q| q.to_f64())
                        .map_or(inf.to_string(), |v| format!("{v:?}"))
                };
                write!(f, "[{}, {}]", show(&r.lo, "-inf"), show(&r.hi, "inf"))
            }
            Val::Lin(_) => write!(f, "a linear form"),
            Val::Top => write!(f, "anything"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use std::collections::BTreeSet;

    fn random_addr(rng: &mut StdRng, var: &str) -> Addr {
        let lo = rng.gen_range(0..40);
        let (hi, stride) = if rng.gen_bool(0.3) {
            (lo, 0)
        } else {
            let s = rng.gen_range(1..9);
            (lo + s * rng.gen_range(0..6), s)
        };
        Addr {
            ctx: 0,
            var: llvm_ir::Name::from(var),
            lo,
            hi,
            stride,
            size: 96,
        }
    }

    fn set(a: &Addr) -> BTreeSet<i128> {
        a.offsets(1 << 20).expect("small").into_iter().collect()
    }

    /// Joins, widenings and address steps hold every offset they stand
    /// for, against the enumerated sets.
    #[test]
    fn pointer_offsets_against_enumeration() {
        let mut rng = StdRng::seed_from_u64(7);
        for _ in 0..5000 {
            let (a, b) = (random_addr(&mut rng, "m"), random_addr(&mut rng, "m"));
            let (sa, sb) = (set(&a), set(&b));
            let j = a.join(&b);
            let sj = set(&j);
            assert!(sa.is_subset(&sj) && sb.is_subset(&sj), "{a:?} {b:?} -> {j:?}");
            match a.widen(&b) {
                Some(w) => assert!(sj.is_subset(&set(&w)), "{a:?} {b:?} -> {w:?}"),
                None => assert!(j.lo < 0 || j.hi > j.size, "{a:?} {b:?}"),
            }
            let (k0, k1) = {
                let x: i128 = rng.gen_range(-3..4);
                (x, x + rng.gen_range(0..4))
            };
            let step = rng.gen_range(0..17);
            let p = a.plus(k0, k1, step).expect("no overflow");
            let sp = set(&p);
            for o in &sa {
                for k in k0..=k1 {
                    assert!(sp.contains(&(o + k * step)), "{a:?} + [{k0}, {k1}] * {step} -> {p:?}");
                }
            }
        }
        // pointers into two objects keep both; more than MAX_OBJECTS: any
        let (a, b) = (random_addr(&mut rng, "a"), random_addr(&mut rng, "b"));
        let j = Val::Addr(a.clone()).join(&Val::Addr(b.clone()));
        assert_eq!(j.addrs().map(|v| v.len()), Some(2));
        assert!(Val::Addr(a.clone()).leq(&j) && Val::Addr(b).leq(&j) && !j.leq(&Val::Addr(a)));
        let many: Vec<Addr> = (0..=MAX_OBJECTS)
            .map(|k| random_addr(&mut rng, &format!("v{k}")))
            .collect();
        assert_eq!(Val::from_addrs(many), Val::Top);
    }
}
