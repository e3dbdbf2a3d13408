//! Float intervals: sets of values of one format given by two bounds in the
//! total order (`-0 < +0`) plus a may-be-NaN flag.

use crate::format::Format;
use crate::value::Float;
use std::fmt;

/// A set of floats of one format: every non-NaN value between `lo` and `hi`
/// in the total order `-inf < ... < -0 < +0 < ... < +inf` (so `[-0, -0]`
/// excludes `+0`), plus NaN when `nan` is set. Empty when it has no bounds and
/// no NaN.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct FloatInterval {
    fmt: Format,
    bounds: Option<(Float, Float)>,
    nan: bool,
}

impl FloatInterval {
    /// The empty set.
    pub fn empty(fmt: Format) -> Self {
        FloatInterval {
            fmt,
            bounds: None,
            nan: false,
        }
    }
    /// Every value of the format, NaN included.
    pub fn full(fmt: Format) -> Self {
        FloatInterval::new(Float::infinity(fmt, true), Float::infinity(fmt, false), true)
    }
    /// Just NaN.
    pub fn nan_only(fmt: Format) -> Self {
        FloatInterval {
            fmt,
            bounds: None,
            nan: true,
        }
    }
    /// One value (NaN gives [`FloatInterval::nan_only`]).
    pub fn point(v: Float) -> Self {
        if v.is_nan() {
            return FloatInterval::nan_only(v.format());
        }
        FloatInterval {
            fmt: v.format(),
            bounds: Some((v, v)),
            nan: false,
        }
    }
    /// `[lo, hi]` in the total order, plus NaN if `nan`. Bounds in the wrong
    /// order give no non-NaN value. Panics if a bound is NaN or formats differ.
    pub fn new(lo: Float, hi: Float, nan: bool) -> Self {
        assert_eq!(lo.format(), hi.format());
        let (l, h) = (lo.ordinal().expect("NaN bound"), hi.ordinal().expect("NaN bound"));
        FloatInterval {
            fmt: lo.format(),
            bounds: (l <= h).then_some((lo, hi)),
            nan,
        }
    }
    /// The format of the values.
    pub fn format(&self) -> Format {
        self.fmt
    }
    /// The lower and upper bound of the non-NaN part, if any.
    pub fn bounds(&self) -> Option<(Float, Float)> {
        self.bounds
    }
    /// Lower bound of the non-NaN part.
    pub fn lo(&self) -> Option<Float> {
        self.bounds.map(|b| b.0)
    }
    /// Upper bound of the non-NaN part.
    pub fn hi(&self) -> Option<Float> {
        self.bounds.map(|b| b.1)
    }
    /// Whether NaN is in the set.
    pub fn may_be_nan(&self) -> bool {
        self.nan
    }
    /// The set without NaN.
    pub fn without_nan(&self) -> Self {
        FloatInterval { nan: false, ..*self }
    }
    /// The set with or without NaN.
    pub fn with_nan(&self, nan: bool) -> Self {
        FloatInterval { nan, ..*self }
    }
    /// No value at all?
    pub fn is_empty(&self) -> bool {
        self.bounds.is_none() && !self.nan
    }
    /// Exactly one value?
    pub fn is_point(&self) -> bool {
        self.count() == 1
    }
    /// The only value, if there is exactly one.
    pub fn as_point(&self) -> Option<Float> {
        match (self.bounds, self.nan) {
            (Some((l, h)), false) if l == h => Some(l),
            (None, true) => Some(Float::nan(self.fmt)),
            _ => None,
        }
    }
    /// Membership (NaN is a member when the flag is set).
    pub fn contains(&self, v: Float) -> bool {
        if v.is_nan() {
            return self.nan;
        }
        match self.bounds {
            None => false,
            Some((l, h)) => {
                let o = v.ordinal().unwrap();
                l.ordinal().unwrap() <= o && o <= h.ordinal().unwrap()
            }
        }
    }
    /// Set intersection.
    pub fn intersect(&self, other: &Self) -> Self {
        let bounds = match (self.bounds, other.bounds) {
            (Some((a, b)), Some((c, d))) => {
                let lo = if ord(a) >= ord(c) { a } else { c };
                let hi = if ord(b) <= ord(d) { b } else { d };
                (ord(lo) <= ord(hi)).then_some((lo, hi))
            }
            _ => None,
        };
        FloatInterval {
            fmt: self.fmt,
            bounds,
            nan: self.nan && other.nan,
        }
    }
    /// The smallest interval containing both.
    pub fn hull(&self, other: &Self) -> Self {
        let bounds = match (self.bounds, other.bounds) {
            (Some((a, b)), Some((c, d))) => Some((
                if ord(a) <= ord(c) { a } else { c },
                if ord(b) >= ord(d) { b } else { d },
            )),
            (x, None) => x,
            (None, y) => y,
        };
        FloatInterval {
            fmt: self.fmt,
            bounds,
            nan: self.nan || other.nan,
        }
    }
    /// Number of values, NaN counting as one.
    pub fn count(&self) -> u128 {
        let n = match self.bounds {
            None => 0,
            // The difference can reach 2^128 - 2^113 (binary128 from -inf
            // to +inf), beyond i128: compute it modulo 2^128 in u128.
            Some((l, h)) => (ord(h) as u128).wrapping_sub(ord(l) as u128) + 1,
        };
        n + self.nan as u128
    }
    /// Number of non-NaN values.
    pub fn count_non_nan(&self) -> u128 {
        self.without_nan().count()
    }
    /// The float-count midpoint of the non-NaN part: the value with ordinal
    /// `floor((ord(lo) + ord(hi)) / 2)`.
    pub fn midpoint(&self) -> Option<Float> {
        let (l, h) = self.bounds?;
        // floor((a + b) / 2) = a + floor((b - a) / 2) for a <= b, without
        // overflowing i128 (binary128 ordinals reach ±2^127).
        let (a, b) = (ord(l), ord(h));
        let half = ((b as u128).wrapping_sub(a as u128) / 2) as i128;
        Float::from_ordinal(self.fmt, a + half)
    }
    /// Splits the non-NaN part at its float-count midpoint `m` into
    /// `[lo, m]` and `[succ m, hi]`; NaN, if present, goes to neither.
    /// None when the non-NaN part has fewer than two values.
    pub fn split(&self) -> Option<(Self, Self)> {
        let (l, h) = self.bounds?;
        if l == h {
            return None;
        }
        let m = self.midpoint()?;
        let m1 = m.succ()?;
        Some((FloatInterval::new(l, m, false), FloatInterval::new(m1, h, false)))
    }
}

fn ord(f: Float) -> i128 {
    f.ordinal().expect("interval bounds are not NaN")
}

impl fmt::Debug for FloatInterval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.bounds {
            None if !self.nan => write!(f, "∅"),
            None => write!(f, "{{NaN}}"),
            Some((l, h)) => write!(f, "[{l}, {h}]{}", if self.nan { " ∪ {NaN}" } else { "" }),
        }
    }
}
