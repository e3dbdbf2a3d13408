//! IEEE-754 binary floating-point values of any format, as values.
//!
//! A [`Float`] is a value of a [`Format`] `(eb, sb)` in the SMT-LIB sense: `eb`
//! exponent bits and `sb` significand bits counting the hidden bit. Every
//! operation takes an explicit [`RoundingMode`] and returns the correctly rounded
//! result together with the IEEE status flags ([`StatusAnd`]). The arithmetic is
//! exact for every format: operands are unpacked into arbitrary-precision
//! integers, combined exactly, and rounded once by a single rounding routine.
//!
//! NaN is one value: every NaN result is the canonical quiet NaN, as in the
//! SMT-LIB FloatingPoint theory. `-0` and `+0` are different values that
//! compare equal under IEEE comparison.
//!
//! Floats of one format are in a monotone bijection with a range of integers
//! (their *ordinal*, with `-0` just below `+0`), so counting the floats of an
//! interval or finding its float-count midpoint is O(1); see [`Float::ordinal`]
//! and [`FloatInterval`].
#![deny(missing_docs)]

mod arith;
mod convert;
mod decimal;
mod format;
mod interval;
mod round;
mod status;
mod value;

pub use decimal::parse_decimal;
pub use format::{Format, FormatError};
pub use interval::FloatInterval;
pub use status::{RoundingMode, Status, StatusAnd};
pub use value::{Category, Float};
