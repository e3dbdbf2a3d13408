//! Native confirmation of critical values (`fpsym critical`): the
//! driver prints a float result's exact bits (`FPSYM-FRESULT:`), which
//! are compared with the expected range's exact bounds.

use crate::classify::NativeRun;
use crate::confirm::Confirmation;
use fpsym_report::{Finding, FindingKind, Observed, Raised};
use num_rational::BigRational;

/// Finding kinds, as the engine's range checker names them.
const BELOW: &str = "below-range";
const ABOVE: &str = "above-range";
const NAN: &str = "nan-result";

/// The result the driver printed, if it did.
fn result(run: &NativeRun) -> Option<f64> {
    let bits = run.marker("FPSYM-FRESULT: ")?;
    u64::from_str_radix(bits.trim(), 16).ok().map(f64::from_bits)
}

/// Where `x` lies against `[lo, hi]`: the finding kind it shows, if any.
fn outside(x: f64, lo: Option<&BigRational>, hi: Option<&BigRational>) -> Option<&'static str> {
    if x.is_nan() {
        return Some(NAN);
    }
    let below = |b: &BigRational| match BigRational::from_float(x) {
        Some(q) => q < *b,
        None => x < 0.0,
    };
    let above = |b: &BigRational| match BigRational::from_float(x) {
        Some(q) => q > *b,
        None => x > 0.0,
    };
    if lo.is_some_and(below) {
        Some(BELOW)
    } else if hi.is_some_and(above) {
        Some(ABOVE)
    } else {
        None
    }
}

/// A result below, above, or NaN against the expected range: the native
/// run's result is so (its exact value against the exact bounds).
pub struct ResultRange {
    kind: &'static str,
    lo: Option<BigRational>,
    hi: Option<BigRational>,
}

impl ResultRange {
    /// The three confirmations (below, above, NaN) of `[lo, hi]`.
    pub fn all(lo: Option<BigRational>, hi: Option<BigRational>) -> Vec<ResultRange> {
        [BELOW, ABOVE, NAN]
            .into_iter()
            .map(|kind| ResultRange {
                kind,
                lo: lo.clone(),
                hi: hi.clone(),
            })
            .collect()
    }
}

impl Confirmation for ResultRange {
    fn kind(&self) -> FindingKind {
        FindingKind::Custom(self.kind.into())
    }
    fn raised(&self, run: &NativeRun, _symbolize: &dyn Fn(&str) -> Option<(String, u32)>) -> Vec<Raised> {
        match result(run) {
            Some(x) if outside(x, self.lo.as_ref(), self.hi.as_ref()) == Some(self.kind) => vec![Raised {
                kind: self.kind(),
                file: None,
                line: None,
            }],
            _ => Vec::new(),
        }
    }
    fn confirms(&self, finding: &Finding, o: &Observed) -> bool {
        o.raised.iter().any(|r| r.kind == finding.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_placed_exactly_against_the_bounds() {
        let lo = fpsym_float::parse_decimal("1000000000.01");
        let hi = fpsym_float::parse_decimal("26.00001");
        assert_eq!(outside(1e9, lo.as_ref(), None), Some(BELOW));
        assert_eq!(outside(1000000064.0, lo.as_ref(), None), None);
        // The float nearest 26.00001 is below it; the next one is above.
        assert_eq!(outside(26.00001f32 as f64, None, hi.as_ref()), None);
        let next = f32::from_bits(26.00001f32.to_bits() + 1);
        assert_eq!(outside(next as f64, None, hi.as_ref()), Some(ABOVE));
        assert_eq!(outside(26.0, None, hi.as_ref()), None);
        assert_eq!(outside(f64::NAN, None, None), Some(NAN));
        assert_eq!(outside(f64::NEG_INFINITY, lo.as_ref(), None), Some(BELOW));
        assert_eq!(outside(f64::INFINITY, None, hi.as_ref()), Some(ABOVE));
    }
}
