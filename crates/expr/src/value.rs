//! Concrete values of every sort.

use crate::sort::Sort;
use fpsym_float::{Float, RoundingMode};
use std::fmt;

/// A bit-vector value: `width` bits (1..=128), stored in the low bits of `bits`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BvValue {
    width: u32,
    bits: u128,
}

impl BvValue {
    /// A value of `width` bits; higher bits of `bits` are dropped. Panics if
    /// `width` is 0 or above 128.
    pub fn new(width: u32, bits: u128) -> BvValue {
        assert!((1..=128).contains(&width), "bit-vector width {width} outside 1..=128");
        BvValue {
            width,
            bits: bits & Self::mask_of(width),
        }
    }
    /// The width in bits.
    pub fn width(self) -> u32 {
        self.width
    }
    /// The bits, as an unsigned integer.
    pub fn bits(self) -> u128 {
        self.bits
    }
    /// The value as a two's complement signed integer.
    pub fn signed(self) -> i128 {
        if self.width == 128 {
            return self.bits as i128;
        }
        let sign = (self.bits >> (self.width - 1)) & 1;
        if sign == 1 {
            (self.bits | !Self::mask_of(self.width)) as i128
        } else {
            self.bits as i128
        }
    }
    /// The all-ones mask of this width.
    pub fn mask(self) -> u128 {
        Self::mask_of(self.width)
    }
    pub(crate) fn mask_of(width: u32) -> u128 {
        if width >= 128 {
            u128::MAX
        } else {
            (1u128 << width) - 1
        }
    }
    /// The most significant bit.
    pub fn msb(self) -> bool {
        (self.bits >> (self.width - 1)) & 1 == 1
    }
}

impl fmt::Debug for BvValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self)
    }
}

impl fmt::Display for BvValue {
    /// SMT-LIB binary literal `#b...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#b{:0w$b}", self.bits, w = self.width as usize)
    }
}

/// A concrete value of any sort.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Value {
    /// A Boolean.
    Bool(bool),
    /// A bit-vector.
    Bv(BvValue),
    /// A float (NaN canonical).
    Fp(Float),
    /// A rounding mode.
    Rm(RoundingMode),
}

impl Value {
    /// The sort of the value.
    pub fn sort(&self) -> Sort {
        match self {
            Value::Bool(_) => Sort::Bool,
            Value::Bv(b) => Sort::BitVec(b.width()),
            Value::Fp(f) => Sort::Float(f.format()),
            Value::Rm(_) => Sort::RoundingMode,
        }
    }
    /// The Boolean, if it is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    /// The bit-vector, if it is one.
    pub fn as_bv(&self) -> Option<BvValue> {
        match self {
            Value::Bv(b) => Some(*b),
            _ => None,
        }
    }
    /// The float, if it is one.
    pub fn as_fp(&self) -> Option<Float> {
        match self {
            Value::Fp(f) => Some(*f),
            _ => None,
        }
    }
    /// The rounding mode, if it is one.
    pub fn as_rm(&self) -> Option<RoundingMode> {
        match self {
            Value::Rm(r) => Some(*r),
            _ => None,
        }
    }
    /// A default value of a sort (false, zero, +0, RNE).
    pub fn default_of(sort: Sort) -> Value {
        match sort {
            Sort::Bool => Value::Bool(false),
            Sort::BitVec(w) => Value::Bv(BvValue::new(w, 0)),
            Sort::Float(f) => Value::Fp(Float::zero(f, false)),
            Sort::RoundingMode => Value::Rm(RoundingMode::NearestTiesToEven),
        }
    }
}

impl fmt::Display for Value {
    /// The SMT-LIB literal of the value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Bv(b) => write!(f, "{b}"),
            Value::Fp(x) => f.write_str(&x.to_smtlib()),
            Value::Rm(r) => write!(f, "{r}"),
        }
    }
}
