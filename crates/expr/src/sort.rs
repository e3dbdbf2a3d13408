//! Sorts.

use fpsym_float::Format;
use std::fmt;

/// The sort of a term.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Sort {
    /// Booleans.
    Bool,
    /// Bit-vectors of the given width (1..=128).
    BitVec(u32),
    /// Floating-point values of the given format (SMT-LIB packed formats; the
    /// x86_fp80 *encoding* is a concern of the memory model, not of terms).
    Float(Format),
    /// The five IEEE rounding modes.
    RoundingMode,
}

impl Sort {
    /// The float format, if this is a float sort.
    pub fn as_float(self) -> Option<Format> {
        match self {
            Sort::Float(f) => Some(f),
            _ => None,
        }
    }
    /// The bit-vector width, if this is a bit-vector sort.
    pub fn as_bv(self) -> Option<u32> {
        match self {
            Sort::BitVec(w) => Some(w),
            _ => None,
        }
    }
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Bool => f.write_str("Bool"),
            Sort::BitVec(w) => write!(f, "(_ BitVec {w})"),
            Sort::Float(fmt) => write!(f, "(_ FloatingPoint {} {})", fmt.eb(), fmt.sb()),
            Sort::RoundingMode => f.write_str("RoundingMode"),
        }
    }
}
