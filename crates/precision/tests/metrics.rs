//! The error metrics of `fpsym error --metric` on values whose errors are
//! known by hand.

use fpsym_float::{Float, Format};
use fpsym_precision::{absolute_error, bits_error, exact, fpgen_error, relative_error, Metric, Mp};

fn d(x: f64) -> Float {
    Float::from_f64(x)
}

fn mp(x: &str) -> Mp {
    Mp::with_val(1024, Mp::parse(x).unwrap())
}

#[test]
fn bits_count_the_floats_between() {
    assert_eq!(bits_error(d(1.0), &exact(d(1.0))), 0.0);
    let up = d(1.0).next_up();
    assert_eq!(bits_error(up, &exact(d(1.0))), 1.0);
    let three_up = up.next_up().next_up();
    assert_eq!(bits_error(three_up, &exact(d(1.0))), 2.0);
    // The two zeros are one value; an exact value is rounded first.
    assert_eq!(bits_error(d(-0.0), &exact(d(0.0))), 0.0);
    assert_eq!(bits_error(d(1.0), &mp("1.00000000000000000001")), 0.0);
    // NaN on one side: the width; on both: 0.
    assert_eq!(bits_error(Float::nan(Format::BINARY64), &exact(d(1.0))), 64.0);
    assert_eq!(
        bits_error(Float::nan(Format::BINARY32), &exact(Float::nan(Format::BINARY32))),
        0.0
    );
    // Across the whole range: log2 of about 2^63 floats.
    let b = bits_error(d(f64::MAX), &exact(d(-f64::MAX)));
    assert!(b > 62.9 && b <= 64.0, "{b}");
}

#[test]
fn fpgen_counts_a_nan_error_as_zero_and_floors_at_flt_min() {
    // A NaN result: FPGen's `err > max` is false, the error 0 (relative
    // calls it the largest).
    let nan = Float::nan(Format::BINARY64);
    assert_eq!(fpgen_error(nan, &exact(d(1.0))), 0.0);
    assert_eq!(relative_error(nan, &exact(d(1.0))), f64::INFINITY);
    // An infinite result against a finite reference: infinity.
    assert_eq!(fpgen_error(d(f64::INFINITY), &exact(d(1.0))), f64::INFINITY);
    // The same infinity on both sides: inf - inf is NaN, so 0.
    assert_eq!(fpgen_error(d(f64::INFINITY), &exact(d(f64::INFINITY))), 0.0);
    // A reference below FLT_MIN divides by FLT_MIN.
    let e = fpgen_error(d(1e-30), &exact(d(0.0)));
    assert!((e - 1e-30 / f32::MIN_POSITIVE as f64).abs() < 1e-12 * e, "{e}");
    // Otherwise the relative error, the reference rounded to binary128
    // first: 1/3 against 0.333... (double's 1/3 is 2^-54/3 off).
    let third = mp("0.333333333333333333333333333333333333333333333333333333333");
    let e = fpgen_error(d(1.0 / 3.0), &third);
    let r = relative_error(d(1.0 / 3.0), &third);
    assert!((e - r).abs() < 1e-25, "{e} {r}");
    assert!((e - 2f64.powi(-54)).abs() < 1e-20, "{e}");
}

#[test]
fn absolute_is_the_distance() {
    assert_eq!(absolute_error(d(0.5), &exact(d(0.25))), 0.25);
    assert_eq!(absolute_error(d(f64::INFINITY), &exact(d(1.0))), f64::INFINITY);
    assert_eq!(absolute_error(d(f64::INFINITY), &exact(d(f64::INFINITY))), 0.0);
    for m in Metric::ALL {
        assert_eq!(m.error(d(2.0), &exact(d(2.0))), 0.0, "{}", m.name());
    }
}

#[test]
fn binary128_values_are_exact() {
    // A binary128 value's exact value, against its rational.
    use fpsym_float::RoundingMode;
    let mut x = Float::from_f64(1.0 / 3.0)
        .convert(Format::BINARY128, RoundingMode::NearestTiesToEven)
        .value;
    for k in 0..200 {
        let third = Float::from_f64(3.0)
            .convert(Format::BINARY128, RoundingMode::NearestTiesToEven)
            .value;
        x = x.div(third, RoundingMode::NearestTiesToEven).value;
        let y = if k % 2 == 0 { x } else { x.neg() };
        let q = y.to_rational().unwrap();
        let r: rug::Rational = format!("{}/{}", q.numer(), q.denom()).parse().unwrap();
        assert_eq!(exact(y), Mp::with_val(1024, &r), "{k}");
    }
    let tiny = Float::smallest(Format::BINARY128, true);
    let q = tiny.to_rational().unwrap();
    let r: rug::Rational = format!("{}/{}", q.numer(), q.denom()).parse().unwrap();
    assert_eq!(exact(tiny), Mp::with_val(1024, &r));
}
