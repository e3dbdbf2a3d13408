//! Every transfer function checked by enumeration on tiny formats: each
//! concrete result, in every rounding mode, is in the abstract result.

use super::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const MODES: [RoundingMode; 5] = RoundingMode::ALL;

fn formats() -> [Format; 2] {
    [Format::new(3, 3).unwrap(), Format::new(4, 4).unwrap()]
}

/// Every non-NaN value of a format, in order.
fn values(fmt: Format) -> Vec<Float> {
    let max = Float::infinity(fmt, false).ordinal().unwrap();
    (-max - 1..=max).map(|o| Float::from_ordinal(fmt, o).unwrap()).collect()
}

fn random_interval(rng: &mut StdRng, all: &[Float]) -> FloatInterval {
    let fmt = all[0].format();
    let nan = rng.gen_bool(0.2);
    if rng.gen_bool(0.05) {
        return FloatInterval::empty(fmt).with_nan(nan);
    }
    // mostly narrow intervals, sometimes a point, sometimes wide
    let i = rng.gen_range(0..all.len());
    let span = match rng.gen_range(0..4) {
        0 => 0,
        1 => rng.gen_range(0..4),
        2 => rng.gen_range(0..16),
        _ => rng.gen_range(0..all.len()),
    };
    let j = (i + span).min(all.len() - 1);
    FloatInterval::new(all[i], all[j], nan)
}

fn members(x: &FloatInterval, all: &[Float]) -> Vec<Float> {
    let mut m: Vec<Float> = all.iter().copied().filter(|v| x.contains(*v)).collect();
    if x.may_be_nan() {
        m.push(Float::nan(x.format()));
    }
    m
}

fn check_binary(
    name: &str,
    abs: fn(&FloatInterval, &FloatInterval) -> FloatInterval,
    conc: fn(Float, Float, RoundingMode) -> Float,
) {
    for fmt in formats() {
        let all = values(fmt);
        let mut rng = StdRng::seed_from_u64(7);
        for _ in 0..400 {
            let (a, b) = (random_interval(&mut rng, &all), random_interval(&mut rng, &all));
            let r = abs(&a, &b);
            for x in members(&a, &all) {
                for y in members(&b, &all) {
                    for rm in MODES {
                        let v = conc(x, y, rm);
                        assert!(
                            r.contains(v),
                            "{name} {fmt:?}: {x} op {y} = {v} in {rm:?}, not in {r:?} = {a:?} op {b:?}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn add_sub_mul_div_are_sound() {
    check_binary("add", add, |x, y, rm| x.add(y, rm).value);
    check_binary("sub", sub, |x, y, rm| x.sub(y, rm).value);
    check_binary("mul", mul, |x, y, rm| x.mul(y, rm).value);
    check_binary("div", div, |x, y, rm| x.div(y, rm).value);
}

#[test]
fn results_are_tight_on_points() {
    // a point operand pair gives exactly the hull of the modes' results
    let fmt = Format::new(4, 4).unwrap();
    let all = values(fmt);
    for &x in all.iter().step_by(7) {
        for &y in all.iter().step_by(5) {
            let r = mul(&FloatInterval::point(x), &FloatInterval::point(y));
            let down = x.mul(y, DOWN).value;
            if !down.is_nan() {
                assert_eq!(r.lo(), Some(down));
                assert_eq!(r.hi(), Some(x.mul(y, UP).value));
            }
        }
    }
}

#[test]
fn unary_operations_are_sound() {
    for fmt in formats() {
        let all = values(fmt);
        let wide = Format::new(5, 6).unwrap();
        let mut rng = StdRng::seed_from_u64(11);
        for _ in 0..2000 {
            let a = random_interval(&mut rng, &all);
            let (s, n, ab, up, down) = (
                sqrt(&a),
                neg(&a),
                abs(&a),
                convert(&a, wide),
                convert(&convert(&a, wide), fmt),
            );
            for x in members(&a, &all) {
                assert!(n.contains(x.neg()) && ab.contains(x.abs()), "{x} {a:?}");
                assert!(down.contains(x), "round trip of {x}");
                for rm in MODES {
                    assert!(s.contains(x.sqrt(rm).value), "sqrt {x} {rm:?} not in {s:?}");
                    assert!(up.contains(x.convert(wide, rm).value));
                }
            }
            let (narrow_src, narrow) = (random_interval(&mut rng, &values(wide)), fmt);
            let c = convert(&narrow_src, narrow);
            for x in members(&narrow_src, &values(wide)).into_iter().step_by(3) {
                for rm in MODES {
                    assert!(
                        c.contains(x.convert(narrow, rm).value),
                        "fptrunc {x} {rm:?} not in {c:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn integer_conversions_are_sound() {
    let fmt = Format::new(4, 4).unwrap();
    let all = values(fmt);
    for lo in -40i128..40 {
        for hi in lo..lo + 9 {
            let r = from_ints(fmt, lo, hi);
            for v in lo..=hi {
                for rm in MODES {
                    let f = Float::from_bigint(fmt, &num_bigint::BigInt::from(v), rm).value;
                    assert!(r.contains(f), "{v} -> {f} not in {r:?}");
                }
            }
        }
    }
    let mut rng = StdRng::seed_from_u64(3);
    for _ in 0..3000 {
        let a = random_interval(&mut rng, &all);
        for (width, signed) in [(4, true), (4, false), (8, true), (3, false)] {
            if let Some((l, h)) = to_ints(&a, width, signed) {
                for x in members(&a, &all) {
                    let bits = x
                        .to_bv(RoundingMode::TowardZero, width, signed)
                        .value
                        .expect("in range");
                    let v = if signed && bits >> (width - 1) & 1 == 1 {
                        bits as i128 - (1 << width)
                    } else {
                        bits as i128
                    };
                    assert!(l <= v && v <= h, "{x} -> {v} not in [{l}, {h}]");
                }
            }
        }
    }
}

#[test]
fn comparisons_refine_soundly() {
    let rels = [Rel::Eq, Rel::Ne, Rel::Lt, Rel::Le, Rel::Gt, Rel::Ge];
    let holds = |x: Float, rel: Rel, y: Float| {
        let k = |f: Float| f.ieee_key();
        match (k(x), k(y)) {
            (Some(a), Some(b)) => match rel {
                Rel::Eq => a == b,
                Rel::Ne => a != b,
                Rel::Lt => a < b,
                Rel::Le => a <= b,
                Rel::Gt => a > b,
                Rel::Ge => a >= b,
            },
            _ => false,
        }
    };
    for fmt in formats() {
        let all = values(fmt);
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..1500 {
            let (a, b) = (random_interval(&mut rng, &all), random_interval(&mut rng, &all));
            for rel in rels {
                let r = refine(&a, rel, &b);
                let (can_t, can_f) = compare(&a, rel, &b);
                for x in members(&a, &all) {
                    for y in members(&b, &all) {
                        let t = holds(x, rel, y);
                        if t {
                            assert!(r.contains(x), "{x} {rel:?} {y} holds but {x} not in {r:?}");
                            assert!(can_t, "{x} {rel:?} {y}");
                        } else {
                            assert!(can_f, "{x} !{rel:?} {y}: {a:?} {b:?}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn widening_reaches_thresholds_then_infinity() {
    let fmt = Format::new(4, 4).unwrap();
    let one = Float::one(fmt, false);
    let two = one.add(one, RoundingMode::NearestTiesToEven).value;
    let a = FloatInterval::new(
        Float::zero(fmt, false),
        one.div(two, RoundingMode::NearestTiesToEven).value,
        false,
    );
    let b = FloatInterval::new(Float::zero(fmt, false), one, false);
    let w = widen(&a, &b, &[two]);
    assert_eq!(w.hi(), Some(two));
    assert_eq!(w.lo(), Some(Float::zero(fmt, false)));
    let c = FloatInterval::new(
        Float::zero(fmt, false),
        two.add(two, RoundingMode::NearestTiesToEven).value,
        false,
    );
    assert_eq!(widen(&w, &c, &[two]).hi(), Some(Float::infinity(fmt, false)));
}
