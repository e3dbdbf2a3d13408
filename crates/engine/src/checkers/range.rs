//! Critical values (seed 001): can the float computation put a result
//! outside the range the real-number computation stays in? At the entry
//! function's return, the value returned is compared with the expected
//! range's exact bounds: below it, above it, or NaN, each a finding with
//! the input (a continuing check: the first path showing each kind).
//!
//! The bounds are exact rationals (read from decimals, never through a C
//! double): for a float `r` and a rational `lo`, `r < lo` exactly when
//! `r < RU(lo)`, the least float not below `lo` (and `r > hi` when
//! `r > RD(hi)`), so the comparisons are the float ones against the bounds
//! rounded inward.

use super::{Check, Checker, Kind, Operation, Point, PointKind};
use crate::state::State;
use crate::term::{format_of, mk};
use fpsym_expr::{Op, Sort, Term};
use fpsym_float::{Float, RoundingMode};
use llvm_ir::Terminator;
use num_rational::BigRational;

/// A result below the expected range.
pub const BELOW_RANGE: &str = "below-range";
/// A result above the expected range.
pub const ABOVE_RANGE: &str = "above-range";
/// A NaN result (outside every range).
pub const NAN_RESULT: &str = "nan-result";

pub use fpsym_float::parse_decimal;

/// Checks the entry function's result against `[lo, hi]` (either bound
/// may be absent).
pub struct OutOfRange {
    lo: Option<BigRational>,
    hi: Option<BigRational>,
}

impl OutOfRange {
    /// The check of `[lo, hi]`.
    pub fn new(lo: Option<BigRational>, hi: Option<BigRational>) -> OutOfRange {
        OutOfRange { lo, hi }
    }
}

impl Checker for OutOfRange {
    fn name(&self) -> &str {
        "range"
    }
    fn looks_at(&self, kind: PointKind) -> bool {
        kind == PointKind::Terminator
    }
    fn check(&mut self, st: &State, at: Point<'_>, operands: &[Option<Term>]) -> Vec<Check> {
        let Point::Terminator(Terminator::Ret(_)) = at else {
            return vec![];
        };
        // Only the entry function's return.
        if st.frames.len() != 1 {
            return vec![];
        }
        let Some(Some(r)) = operands.first() else {
            return vec![];
        };
        if !matches!(r.sort(), Sort::Float(_)) {
            return vec![];
        }
        let f = format_of(r);
        let op = Operation {
            name: "return".into(),
            operands: vec![r.clone()],
            result: None,
        };
        let mut checks = Vec::new();
        if let Some(lo) = &self.lo {
            let up = Float::from_rational(f, lo, RoundingMode::TowardPositive).value;
            checks.push(
                Check::continuing(
                    Kind::Custom(BELOW_RANGE.into()),
                    mk(Op::FpLt, vec![r.clone(), crate::term::fp(up)]),
                    format!("the result is below {lo}"),
                )
                .about(&op),
            );
        }
        if let Some(hi) = &self.hi {
            let down = Float::from_rational(f, hi, RoundingMode::TowardNegative).value;
            checks.push(
                Check::continuing(
                    Kind::Custom(ABOVE_RANGE.into()),
                    mk(Op::FpGt, vec![r.clone(), crate::term::fp(down)]),
                    format!("the result is above {hi}"),
                )
                .about(&op),
            );
        }
        checks.push(
            Check::continuing(
                Kind::Custom(NAN_RESULT.into()),
                mk(Op::FpIsNaN, vec![r.clone()]),
                "the result is NaN",
            )
            .about(&op),
        );
        checks
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fpsym_float::Format;

    #[test]
    fn decimals_are_exact() {
        let q = |s: &str| parse_decimal(s).unwrap();
        assert_eq!(q("156.25001"), BigRational::new(15625001.into(), 100000.into()));
        assert_eq!(q("-1e-5"), BigRational::new((-1).into(), 100000.into()));
        assert_eq!(q("1.5e3"), BigRational::from_integer(1500.into()));
        assert_eq!(q(".5"), BigRational::new(1.into(), 2.into()));
        assert_eq!(q("+7"), BigRational::from_integer(7.into()));
        for bad in ["", "e5", "1.2.3", "0x10", "1e", "--1", "nan", "."] {
            assert!(parse_decimal(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn bounds_round_inward_so_float_comparisons_are_exact() {
        // 1000000000.01 rounds to the float 1e9 at nearest; inward, the
        // lower bound is the next float up, so 1e9 counts as below.
        let lo = parse_decimal("1000000000.01").unwrap();
        let up = Float::from_rational(Format::BINARY32, &lo, RoundingMode::TowardPositive).value;
        assert_eq!(up, Float::from_f32(1000000064.0));
        // A bound that is a float stays itself.
        let b = parse_decimal("156.25").unwrap();
        let d = Float::from_rational(Format::BINARY32, &b, RoundingMode::TowardNegative).value;
        assert_eq!(d, Float::from_f32(156.25));
    }
}
