//! Domains of CP variables: sets of Booleans, rounding modes, float
//! intervals (with signed zeros and a NaN flag) and unsigned bit-vector ranges.

use fpsym_expr::{BvValue, Sort, Value};
use fpsym_float::{Float, FloatInterval, Format, RoundingMode};
use std::fmt;

/// A subset of `{false, true}`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoolSet(u8);

impl BoolSet {
    /// The set of truth values that remain possible: `true` if `can_true`,
    /// `false` if `can_false`.
    pub fn of(can_true: bool, can_false: bool) -> BoolSet {
        BoolSet(((can_true as u8) * BoolSet::TRUE.0) | ((can_false as u8) * BoolSet::FALSE.0))
    }
    /// No value.
    pub const EMPTY: BoolSet = BoolSet(0);
    /// `{false}`.
    pub const FALSE: BoolSet = BoolSet(1);
    /// `{true}`.
    pub const TRUE: BoolSet = BoolSet(2);
    /// `{false, true}`.
    pub const BOTH: BoolSet = BoolSet(3);

    /// The set holding just `b`.
    pub fn point(b: bool) -> BoolSet {
        if b {
            BoolSet::TRUE
        } else {
            BoolSet::FALSE
        }
    }
    /// Is `b` a member?
    pub fn contains(self, b: bool) -> bool {
        self.0 & BoolSet::point(b).0 != 0
    }
    /// The only member, if there is exactly one.
    pub fn as_point(self) -> Option<bool> {
        match self.0 {
            1 => Some(false),
            2 => Some(true),
            _ => None,
        }
    }
    /// Set intersection.
    pub fn intersect(self, o: BoolSet) -> BoolSet {
        BoolSet(self.0 & o.0)
    }
    /// Set union.
    pub fn union(self, o: BoolSet) -> BoolSet {
        BoolSet(self.0 | o.0)
    }
    /// No member?
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Number of members.
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }
    /// The set `{!b | b in self}`.
    pub fn negate(self) -> BoolSet {
        BoolSet(((self.0 & 1) << 1) | ((self.0 >> 1) & 1))
    }
}

impl fmt::Debug for BoolSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            0 => "∅",
            1 => "{false}",
            2 => "{true}",
            _ => "{false,true}",
        })
    }
}

/// A subset of the five rounding modes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RmSet(u8);

fn rm_index(rm: RoundingMode) -> u8 {
    RoundingMode::ALL.iter().position(|&m| m == rm).unwrap() as u8
}

impl RmSet {
    /// No mode.
    pub const EMPTY: RmSet = RmSet(0);
    /// All five modes.
    pub const ALL: RmSet = RmSet(31);

    /// The set holding just `rm`.
    pub fn point(rm: RoundingMode) -> RmSet {
        RmSet(1 << rm_index(rm))
    }
    /// Is `rm` a member?
    pub fn contains(self, rm: RoundingMode) -> bool {
        self.0 & (1 << rm_index(rm)) != 0
    }
    /// The members, in SMT-LIB order RNE, RNA, RTP, RTN, RTZ.
    pub fn iter(self) -> impl Iterator<Item = RoundingMode> {
        RoundingMode::ALL.into_iter().filter(move |&m| self.contains(m))
    }
    /// Number of members.
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }
    /// The only member, if there is exactly one.
    pub fn as_point(self) -> Option<RoundingMode> {
        if self.count() == 1 {
            self.iter().next()
        } else {
            None
        }
    }
    /// Set intersection.
    pub fn intersect(self, o: RmSet) -> RmSet {
        RmSet(self.0 & o.0)
    }
    /// Set union.
    pub fn union(self, o: RmSet) -> RmSet {
        RmSet(self.0 | o.0)
    }
    /// The set without `rm`.
    pub fn remove(self, rm: RoundingMode) -> RmSet {
        RmSet(self.0 & !(1 << rm_index(rm)))
    }
    /// No member?
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl fmt::Debug for RmSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v: Vec<&str> = self.iter().map(|m| m.smtlib_name()).collect();
        write!(f, "{{{}}}", v.join(","))
    }
}

/// A range `[lo, hi]` of `width`-bit vectors read as unsigned integers, or empty.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BvRange {
    width: u32,
    range: Option<(u128, u128)>,
}

/// The all-ones mask of a width (1..=128).
pub(crate) fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

impl BvRange {
    /// Every value of the width.
    pub fn full(width: u32) -> BvRange {
        BvRange {
            width,
            range: Some((0, mask(width))),
        }
    }
    /// No value.
    pub fn empty(width: u32) -> BvRange {
        BvRange { width, range: None }
    }
    /// `[lo, hi]` (empty when `lo > hi`); bounds are clamped to the width.
    pub fn new(width: u32, lo: u128, hi: u128) -> BvRange {
        let hi = hi.min(mask(width));
        BvRange {
            width,
            range: (lo <= hi).then_some((lo, hi)),
        }
    }
    /// One value.
    pub fn point(width: u32, v: u128) -> BvRange {
        let v = v & mask(width);
        BvRange {
            width,
            range: Some((v, v)),
        }
    }
    /// The width in bits.
    pub fn width(&self) -> u32 {
        self.width
    }
    /// The bounds, if not empty.
    pub fn bounds(&self) -> Option<(u128, u128)> {
        self.range
    }
    /// No value?
    pub fn is_empty(&self) -> bool {
        self.range.is_none()
    }
    /// The only value, if there is exactly one.
    pub fn as_point(&self) -> Option<u128> {
        match self.range {
            Some((l, h)) if l == h => Some(l),
            _ => None,
        }
    }
    /// Membership.
    pub fn contains(&self, v: u128) -> bool {
        matches!(self.range, Some((l, h)) if l <= v && v <= h)
    }
    /// Number of values, saturating at `u128::MAX`.
    pub fn count(&self) -> u128 {
        match self.range {
            None => 0,
            Some((l, h)) => (h - l).saturating_add(1),
        }
    }
    /// Set intersection.
    pub fn intersect(&self, o: &BvRange) -> BvRange {
        match (self.range, o.range) {
            (Some((a, b)), Some((c, d))) => BvRange::new(self.width, a.max(c), b.min(d)),
            _ => BvRange::empty(self.width),
        }
    }
    /// The smallest range containing both.
    pub fn hull(&self, o: &BvRange) -> BvRange {
        match (self.range, o.range) {
            (Some((a, b)), Some((c, d))) => BvRange::new(self.width, a.min(c), b.max(d)),
            (Some(_), None) => *self,
            _ => *o,
        }
    }
}

impl fmt::Debug for BvRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.range {
            None => write!(f, "∅:{}", self.width),
            Some((l, h)) => write!(f, "[{l:#x}, {h:#x}]:{}", self.width),
        }
    }
}

/// The domain of a CP variable.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Domain {
    /// A Boolean variable.
    Bool(BoolSet),
    /// A rounding-mode variable.
    Rm(RmSet),
    /// A float variable: an interval in the total order `-inf < … < -0 < +0 < … < +inf`
    /// plus a may-be-NaN flag.
    Fp(FloatInterval),
    /// A bit-vector variable: an unsigned range.
    Bv(BvRange),
}

impl fmt::Debug for Domain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Domain::Bool(b) => write!(f, "{b:?}"),
            Domain::Rm(r) => write!(f, "{r:?}"),
            Domain::Fp(x) => write!(f, "{x:?}"),
            Domain::Bv(b) => write!(f, "{b:?}"),
        }
    }
}

impl Domain {
    /// Every value of a sort.
    pub fn full(sort: Sort) -> Domain {
        match sort {
            Sort::Bool => Domain::Bool(BoolSet::BOTH),
            Sort::RoundingMode => Domain::Rm(RmSet::ALL),
            Sort::Float(f) => Domain::Fp(FloatInterval::full(f)),
            Sort::BitVec(w) => Domain::Bv(BvRange::full(w)),
        }
    }
    /// The domain holding just `v`.
    pub fn point(v: Value) -> Domain {
        match v {
            Value::Bool(b) => Domain::Bool(BoolSet::point(b)),
            Value::Rm(r) => Domain::Rm(RmSet::point(r)),
            Value::Fp(x) => Domain::Fp(FloatInterval::point(x)),
            Value::Bv(b) => Domain::Bv(BvRange::point(b.width(), b.bits())),
        }
    }
    /// No value?
    pub fn is_empty(&self) -> bool {
        match self {
            Domain::Bool(b) => b.is_empty(),
            Domain::Rm(r) => r.is_empty(),
            Domain::Fp(x) => x.is_empty(),
            Domain::Bv(b) => b.is_empty(),
        }
    }
    /// The only value, if there is exactly one.
    pub fn as_value(&self) -> Option<Value> {
        match self {
            Domain::Bool(b) => b.as_point().map(Value::Bool),
            Domain::Rm(r) => r.as_point().map(Value::Rm),
            Domain::Fp(x) => x.as_point().map(Value::Fp),
            Domain::Bv(b) => b.as_point().map(|v| Value::Bv(BvValue::new(b.width(), v))),
        }
    }
    /// Exactly one value?
    pub fn is_point(&self) -> bool {
        self.as_value().is_some()
    }
    /// `log2` of the number of values (0 for a point), for variable choice.
    pub fn size_log2(&self) -> f64 {
        match self {
            Domain::Bool(b) => (b.count() as f64).log2(),
            Domain::Rm(r) => (r.count() as f64).log2(),
            Domain::Fp(x) => (x.count() as f64).log2(),
            Domain::Bv(b) => (b.count() as f64).log2(),
        }
    }
    /// Set intersection (the domains must be of the same kind).
    pub fn intersect(&self, o: &Domain) -> Domain {
        match (self, o) {
            (Domain::Bool(a), Domain::Bool(b)) => Domain::Bool(a.intersect(*b)),
            (Domain::Rm(a), Domain::Rm(b)) => Domain::Rm(a.intersect(*b)),
            (Domain::Fp(a), Domain::Fp(b)) => Domain::Fp(a.intersect(b)),
            (Domain::Bv(a), Domain::Bv(b)) => Domain::Bv(a.intersect(b)),
            _ => panic!("intersecting domains of different kinds: {self:?} and {o:?}"),
        }
    }
    /// The smallest domain containing both (same kind).
    pub fn hull(&self, o: &Domain) -> Domain {
        match (self, o) {
            (Domain::Bool(a), Domain::Bool(b)) => Domain::Bool(a.union(*b)),
            (Domain::Rm(a), Domain::Rm(b)) => Domain::Rm(a.union(*b)),
            (Domain::Fp(a), Domain::Fp(b)) => Domain::Fp(a.hull(b)),
            (Domain::Bv(a), Domain::Bv(b)) => Domain::Bv(a.hull(b)),
            _ => panic!("hull of domains of different kinds: {self:?} and {o:?}"),
        }
    }
    /// Membership of a value.
    pub fn contains(&self, v: &Value) -> bool {
        match (self, v) {
            (Domain::Bool(a), Value::Bool(b)) => a.contains(*b),
            (Domain::Rm(a), Value::Rm(r)) => a.contains(*r),
            (Domain::Fp(a), Value::Fp(x)) => a.contains(*x),
            (Domain::Bv(a), Value::Bv(b)) => a.contains(b.bits()),
            _ => false,
        }
    }
    /// The empty domain of the same kind.
    pub fn empty_like(&self) -> Domain {
        match self {
            Domain::Bool(_) => Domain::Bool(BoolSet::EMPTY),
            Domain::Rm(_) => Domain::Rm(RmSet::EMPTY),
            Domain::Fp(x) => Domain::Fp(FloatInterval::empty(x.format())),
            Domain::Bv(b) => Domain::Bv(BvRange::empty(b.width())),
        }
    }
    /// The float interval, if this is a float domain.
    pub fn as_fp(&self) -> Option<&FloatInterval> {
        match self {
            Domain::Fp(x) => Some(x),
            _ => None,
        }
    }
    /// The Boolean set, if this is a Boolean domain.
    pub fn as_bool(&self) -> Option<BoolSet> {
        match self {
            Domain::Bool(b) => Some(*b),
            _ => None,
        }
    }
    /// The rounding-mode set, if this is a rounding-mode domain.
    pub fn as_rm(&self) -> Option<RmSet> {
        match self {
            Domain::Rm(r) => Some(*r),
            _ => None,
        }
    }
    /// The bit-vector range, if this is a bit-vector domain.
    pub fn as_bv(&self) -> Option<&BvRange> {
        match self {
            Domain::Bv(b) => Some(b),
            _ => None,
        }
    }
}

// ---- float interval helpers used by the propagators ----

/// The ordinal of a non-NaN float (`+0` is 0, `-0` is -1).
pub(crate) fn ord(f: Float) -> i128 {
    f.ordinal().expect("ordinal of NaN")
}

/// The float with ordinal `o` (clamped to `[-inf, +inf]`).
pub(crate) fn from_ord(fmt: Format, o: i128) -> Float {
    Float::clamped_ordinal(fmt, o)
}

/// The interval of non-NaN floats with ordinals `[lo, hi]` (empty if `lo > hi`).
pub(crate) fn ord_interval(fmt: Format, lo: i128, hi: i128) -> FloatInterval {
    if lo > hi {
        return FloatInterval::empty(fmt);
    }
    FloatInterval::new(from_ord(fmt, lo), from_ord(fmt, hi), false)
}

/// Total-order maximum of two non-NaN floats.
pub(crate) fn fmax(a: Float, b: Float) -> Float {
    if ord(a) >= ord(b) {
        a
    } else {
        b
    }
}

/// Total-order minimum of two non-NaN floats.
pub(crate) fn fmin(a: Float, b: Float) -> Float {
    if ord(a) <= ord(b) {
        a
    } else {
        b
    }
}

/// Intersects `x` with the union of the given non-NaN intervals (and with
/// `{NaN}` when `nan`), returning the hull of the pieces.
pub(crate) fn restrict_to_union(x: &FloatInterval, parts: &[(Float, Float)], nan: bool) -> FloatInterval {
    let fmt = x.format();
    let mut out = FloatInterval::empty(fmt).with_nan(nan && x.may_be_nan());
    for &(l, h) in parts {
        let p = FloatInterval::new(l, h, false);
        out = out.hull(&x.without_nan().intersect(&p));
    }
    out
}

/// The IEEE comparison key of a non-NaN float ([`Float::ieee_key`]).
pub(crate) fn key(f: Float) -> i128 {
    f.ieee_key().expect("key of NaN")
}

/// The smallest float whose key is at least `k`.
pub(crate) fn key_lo(fmt: Format, k: i128) -> Float {
    Float::least_with_key(fmt, k)
}

/// The largest float whose key is at most `k`.
pub(crate) fn key_hi(fmt: Format, k: i128) -> Float {
    Float::greatest_with_key(fmt, k)
}
