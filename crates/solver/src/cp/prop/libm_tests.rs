//! Unit tests of the libm propagators against glibc itself: every value
//! glibc computes for an argument in a domain must stay in the forward
//! image, and an argument removed by the backward projection must have
//! no glibc value in the result domain, in every rounding mode.

use super::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const F32: Format = Format::BINARY32;
const F64: Format = Format::BINARY64;
/// x87's 80-bit `long double` (glibc's `sinl`, ...).
const L80: Format = Format::X86_FP80;
/// Every format glibc is called in.
const FORMATS: [Format; 3] = [F32, F64, L80];

/// `n` times the environment's `FPSYM_LIBM_STRESS` (default 1): a longer
/// run of the randomized tests.
fn reps(n: usize) -> usize {
    n * std::env::var("FPSYM_LIBM_STRESS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
}

/// The seed of a randomized test, shifted by `FPSYM_LIBM_SEED` (default 0).
fn seed(n: u64) -> u64 {
    n + std::env::var("FPSYM_LIBM_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// A float of `fmt` from an `f64` (rounded to nearest).
fn fl(fmt: Format, v: f64) -> Float {
    in_fmt(fmt, v, RoundingMode::NearestTiesToEven)
}

/// `m · 2^k` rounded down to `fmt` (any exponent of x87's range).
fn scaled(fmt: Format, m: f64, k: i64) -> Float {
    let v = Mp::with_val(64, m) << (k as i32);
    mp_to(fmt, &v, Round::Down).unwrap()
}

/// Points where functions change behaviour: zeros, ±1, multiples of π/2,
/// overflow and underflow thresholds, poles, the minimum of Γ, tiny and
/// huge values.
fn special_points(fmt: Format) -> Vec<Float> {
    let mut v: Vec<f64> = vec![
        0.0,
        1.0,
        2.0,
        0.5,
        3.0,
        1e-300,
        1e-30,
        1e-8,
        1e-5,
        0.1,
        10.0,
        100.0,
        1e5,
        1e10,
        1e22,
        1e100,
        1e300,
        709.78,
        709.79,
        710.47,
        710.48,
        88.72,
        88.73,
        89.41,
        745.13,
        103.97,
        87.33,
        1024.0,
        1074.0,
        128.0,
        149.0,
        150.0,
        171.6,
        171.7,
        35.04,
        35.05,
        1.4616,
        1.4617,
        1.46163214496836,
        2.4570247,
        std::f64::consts::PI,
        26.5,
        27.2,
        9.19,
        10.05,
        20.0,
        0.75,
        1.25,
        4.0,
        1e15,
        1e16,
        3e38,
        1e38,
        16777216.0,
        4503599627370496.0,
        8388608.0,
        9007199254740992.0,
        0.9999,
        1.0001,
    ];
    for k in 1..24 {
        v.push(k as f64 * std::f64::consts::FRAC_PI_2);
        v.push(k as f64 * std::f64::consts::FRAC_PI_4);
    }
    for k in 1..30 {
        v.push(-(k as f64));
        v.push(-(k as f64) - 0.5);
    }
    let mut exact = Vec::new();
    if fmt == L80 {
        // long double: exp/sinh/cosh overflow (11356.5, 11357.2), exp's
        // underflow (-11355.1 normal, -11399.5 subnormal), exp2's (16384,
        // -16382, -16445), tgamma's overflow (1755.5), erfc's underflow
        // (106.5), 2^63 and 2^64 (every float an integer), and magnitudes
        // beyond double's range
        v.extend([
            11356.52, 11356.53, 11357.21, 11357.22, 11355.13, 11399.49, 11399.5, 16384.0, 16382.0, 16445.0, 16446.0,
            1755.45, 1755.46, 106.5, 106.6, 9.2e18, 1.8e19, 1e19, 1e25,
        ]);
        for (m, k) in [
            (1.0, 63),
            (1.0, 64),
            (1.7, 16383),
            (1.0, 5000),
            (1.3, 13000),
            (1.0, -5000),
            (1.0, -16382),
            (1.5, -16400),
            (1.0, -16445),
            (1.0, 1100),
            (1.0, -1100),
        ] {
            exact.push(scaled(fmt, m, k));
        }
    }
    let mut out = Vec::new();
    for p in exact {
        for s in [p, p.neg()] {
            out.extend([s, s.next_up(), s.next_down()]);
        }
    }
    for x in v {
        for s in [x, -x] {
            let p = fl(fmt, s);
            out.push(p);
            let (mut u, mut d) = (p, p);
            for _ in 0..2 {
                u = u.next_up();
                d = d.next_down();
                out.extend([u, d]);
            }
        }
    }
    out.extend([
        Float::infinity(fmt, false),
        Float::infinity(fmt, true),
        Float::nan(fmt),
        Float::largest(fmt, false),
        Float::largest(fmt, true),
        Float::smallest(fmt, false),
        Float::smallest(fmt, true),
        Float::smallest_normal(fmt, false),
        Float::smallest_normal(fmt, true),
        Float::zero(fmt, true),
    ]);
    out
}

/// A random float: any bit pattern, a small value, or a log-uniform magnitude.
fn random(rng: &mut StdRng, fmt: Format) -> Float {
    match rng.gen_range(0..4) {
        0 => {
            let bits = if fmt == F32 {
                rng.gen::<u32>() as u128
            } else if fmt == L80 {
                // the packed encoding (no unnormals)
                return Float::from_packed(fmt, rng.gen::<u128>() & ((1 << 79) - 1));
            } else {
                rng.gen::<u64>() as u128
            };
            Float::from_bits(fmt, bits)
        }
        1 if fmt == L80 => step(fl(fmt, rng.gen_range(-8.0..8.0)), rng.gen_range(-2048..2048)),
        2 if fmt == L80 => step(fl(fmt, rng.gen_range(-1.5..1.5)), rng.gen_range(-2048..2048)),
        1 => fl(fmt, rng.gen_range(-8.0..8.0)),
        2 => fl(fmt, rng.gen_range(-1.5..1.5)),
        _ if fmt == L80 => {
            let x = scaled(fmt, rng.gen_range(1.0..2.0), rng.gen_range(-16445..16384));
            let x = step(x, rng.gen_range(-2048..2048));
            if rng.gen() {
                x
            } else {
                x.neg()
            }
        }
        _ => {
            let e = if fmt == F32 { 40.0 } else { 300.0 };
            let m = 10f64.powf(rng.gen_range(-e..e));
            fl(fmt, if rng.gen() { m } else { -m })
        }
    }
}

/// A sample point: random, special, or a neighbour of a special point.
fn sample(rng: &mut StdRng, fmt: Format, sp: &[Float]) -> Float {
    if rng.gen_bool(0.5) {
        sp[rng.gen_range(0..sp.len())]
    } else {
        random(rng, fmt)
    }
}

/// `x` moved by `k` floats (clamped to the infinities).
fn step(x: Float, k: i128) -> Float {
    if x.is_nan() {
        return x;
    }
    from_ord(x.format(), ord(x) + k)
}

/// An interval around `x` of random width (narrow or wide).
fn interval_at(rng: &mut StdRng, x: Float) -> FloatInterval {
    if x.is_nan() {
        return FloatInterval::nan_only(x.format());
    }
    let w = match rng.gen_range(0..3) {
        0 => rng.gen_range(0..4),
        1 => rng.gen_range(0..1000),
        _ => 1i128 << rng.gen_range(0..40),
    };
    let lo = step(x, -rng.gen_range(0..=w));
    let hi = step(lo, w);
    FloatInterval::new(lo, hi, rng.gen_bool(0.2))
}

/// Points of an interval to check: its ends, their neighbours, random inner points.
fn members(rng: &mut StdRng, x: &FloatInterval, extra: &[Float]) -> Vec<Float> {
    let fmt = x.format();
    let mut out = Vec::new();
    if x.may_be_nan() {
        out.push(Float::nan(fmt));
    }
    if let Some((l, h)) = x.bounds() {
        let (ol, oh) = (ord(l), ord(h));
        for k in 0..3 {
            out.extend([step(l, k), step(h, -k)]);
        }
        for _ in 0..8 {
            out.push(from_ord(fmt, rng.gen_range(ol..=oh)));
        }
        for &e in extra {
            for k in -2..=2 {
                out.push(step(e, k));
            }
        }
    }
    out.retain(|v| x.contains(*v));
    out
}

/// glibc's value, asserted to exist.
fn g(f: LibmFn, rm: RoundingMode, args: &[Float]) -> Float {
    f.glibc(rm, args).expect("binary32 or binary64").0
}

#[test]
fn the_table_covers_every_function() {
    for f in LibmFn::ALL {
        assert!(GLIBC_ULPS.iter().any(|e| e.0 == f), "{f}");
        assert!(slack(f, F64) >= 7 && slack(f, F32) >= 7 && slack(f, L80) >= 7);
    }
    assert_eq!(LibmFn::unary().count() + LibmFn::binary().count(), LibmFn::ALL.len());
}

/// Every point: the forward image of `[x, x]` holds glibc's value in
/// every mode (special values, NaN domains and enclosures alike; the
/// exactness of special points per mode is `at_points`' job).
#[test]
fn points_are_enclosed() {
    let mut rng = StdRng::seed_from_u64(seed(1));
    for fmt in FORMATS {
        let sp = special_points(fmt);
        for f in LibmFn::unary() {
            let mut xs = sp.clone();
            xs.extend((0..reps(1000)).map(|_| random(&mut rng, fmt)));
            for x in xs {
                let img = forward(f, RmSet::ALL, &[FloatInterval::point(x)]);
                for rm in RoundingMode::ALL {
                    let v = g(f, rm, &[x]);
                    assert!(img.contains(v), "{f}({x:?}) = {v:?} in {rm:?} outside {img:?}");
                }
            }
        }
        for f in LibmFn::binary() {
            for _ in 0..reps(3000) {
                let (x, y) = (sample(&mut rng, fmt, &sp), sample(&mut rng, fmt, &sp));
                let img = forward(f, RmSet::ALL, &[FloatInterval::point(x), FloatInterval::point(y)]);
                for rm in RoundingMode::ALL {
                    let v = g(f, rm, &[x, y]);
                    assert!(img.contains(v), "{f}({x:?}, {y:?}) = {v:?} in {rm:?} outside {img:?}");
                }
            }
        }
    }
}

/// The forward image of an interval holds glibc's value at its ends,
/// their neighbours and inner points, in every mode.
#[test]
fn forward_images_hold_glibc_values() {
    let mut rng = StdRng::seed_from_u64(seed(2));
    for fmt in FORMATS {
        let sp = special_points(fmt);
        for f in LibmFn::ALL {
            for _ in 0..reps(300) {
                let xs: Vec<FloatInterval> = (0..f.arity())
                    .map(|_| {
                        let c = sample(&mut rng, fmt, &sp);
                        interval_at(&mut rng, c)
                    })
                    .collect();
                let img = forward(f, RmSet::ALL, &xs);
                let pts: Vec<Vec<Float>> = xs.iter().map(|x| members(&mut rng, x, &[])).collect();
                for (k, a) in pts[0].iter().enumerate() {
                    let b = pts.get(1).map(|p| p[k % p.len().max(1)]);
                    let args: Vec<Float> = std::iter::once(*a).chain(b).collect();
                    if args.len() != f.arity() {
                        continue;
                    }
                    for rm in RoundingMode::ALL {
                        let v = g(f, rm, &args);
                        assert!(
                            img.contains(v),
                            "{f}{args:?} = {v:?} ({rm:?}) outside {img:?} of {xs:?}"
                        );
                    }
                }
            }
        }
    }
}

/// The result interval of a backward test: around a glibc value, or random.
fn result_interval(rng: &mut StdRng, f: LibmFn, args: &[Float]) -> FloatInterval {
    let fmt = args[0].format();
    let v = g(f, RoundingMode::NearestTiesToEven, args);
    let c = if v.is_nan() || rng.gen_bool(0.3) {
        random(rng, fmt)
    } else {
        v
    };
    if c.is_nan() {
        return FloatInterval::nan_only(fmt);
    }
    let (a, b) = (rng.gen_range(0..2000i128), rng.gen_range(0..2000i128));
    let (a, b) = if rng.gen_bool(0.3) { (a << 20, b << 20) } else { (a, b) };
    FloatInterval::new(step(c, -a), step(c, b), rng.gen_bool(0.2))
}

/// Backward: every argument with a glibc value in the result domain (in a
/// mode of the set) stays, and so does its value.
#[test]
fn backward_keeps_every_solution() {
    let mut rng = StdRng::seed_from_u64(seed(3));
    for fmt in FORMATS {
        let sp = special_points(fmt);
        for f in LibmFn::ALL {
            for _ in 0..reps(200) {
                let centre: Vec<Float> = (0..f.arity()).map(|_| sample(&mut rng, fmt, &sp)).collect();
                let xs: Vec<FloatInterval> = centre.iter().map(|&c| interval_at(&mut rng, c)).collect();
                let z = result_interval(&mut rng, f, &centre);
                let rms = if rng.gen_bool(0.5) {
                    RmSet::ALL
                } else {
                    RmSet::point(RoundingMode::ALL[rng.gen_range(0..5)])
                };
                let (nz, nxs) = narrow_all(f, rms, &xs, z);
                // cut points: the new ends, where a wrong removal shows first
                let cuts: Vec<Vec<Float>> = nxs
                    .iter()
                    .map(|x| x.bounds().map(|(l, h)| vec![l, h]).unwrap_or_default())
                    .collect();
                let pts: Vec<Vec<Float>> = xs.iter().zip(&cuts).map(|(x, c)| members(&mut rng, x, c)).collect();
                for (k, a) in pts[0].iter().enumerate() {
                    let b = pts.get(1).filter(|p| !p.is_empty()).map(|p| p[k % p.len()]);
                    let args: Vec<Float> = std::iter::once(*a).chain(b).collect();
                    if args.len() != f.arity() {
                        continue;
                    }
                    for rm in rms.iter() {
                        let v = g(f, rm, &args);
                        if !z.contains(v) {
                            continue;
                        }
                        assert!(
                            nz.contains(v),
                            "{f}{args:?} = {v:?} ({rm:?}) lost from {z:?}: {nz:?} ({xs:?})"
                        );
                        for (i, a) in args.iter().enumerate() {
                            assert!(
                                nxs[i].contains(*a),
                                "{f}{args:?} = {v:?} ({rm:?}) in {z:?}: argument {i} lost from {:?}: {:?}",
                                xs[i],
                                nxs[i]
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Float32, exhaustively over 2^20 consecutive floats from 0.5 and 2^20
/// up to 2, in windows of 64 floats: every glibc value of `sinf`, `expf`,
/// `logf` (and a few more) in every mode lies in the window's image.
#[test]
fn float32_windows_are_exhaustively_enclosed() {
    let fns = [
        LibmFn::Sin,
        LibmFn::Exp,
        LibmFn::Log,
        LibmFn::Cos,
        LibmFn::Lgamma,
        LibmFn::Tgamma,
        LibmFn::Erfc,
    ];
    let starts = [ord(fl(F32, 0.5)), ord(fl(F32, 2.0)) - (1 << 20)];
    for f in fns {
        let n = if matches!(f, LibmFn::Sin | LibmFn::Exp | LibmFn::Log) {
            1 << 20
        } else {
            1 << 16
        };
        for &s in &starts {
            let mut o = s;
            while o < s + n {
                let x = iv(from_ord(F32, o), from_ord(F32, o + 63));
                let img = forward(f, RmSet::ALL, &[x]);
                for k in o..o + 64 {
                    let a = from_ord(F32, k);
                    for rm in RoundingMode::ALL {
                        let v = g(f, rm, &[a]);
                        assert!(img.contains(v), "{f}({a:?}) = {v:?} ({rm:?}) outside {img:?}");
                    }
                }
                o += 64;
            }
        }
    }
}

#[test]
fn known_images_are_tight() {
    let one = |f: LibmFn, l: f64, h: f64| forward(f, RmSet::ALL, &[iv(fl(F64, l), fl(F64, h))]);
    // exp on [0, 700] stays below 1e305; sin on [1, 2] stays positive
    let e = one(LibmFn::Exp, 0.0, 700.0);
    assert!(to_f64(e.hi().unwrap()) < 1.1e304 && !e.may_be_nan());
    let s = one(LibmFn::Sin, 1.0, 2.0);
    assert!(to_f64(s.lo().unwrap()) > 0.84 && to_f64(s.hi().unwrap()) <= 1.0 + 1e-14);
    // log of the negatives is NaN, of +0 -inf
    let l = one(LibmFn::Log, -5.0, 0.0);
    assert!(l.may_be_nan() && l.lo() == Some(Float::infinity(F64, true)) && l.hi() == l.lo());
    // sin over a wide range: within [-1, 1] up to the slack
    let w = one(LibmFn::Sin, -1e300, 1e300);
    assert!(to_f64(w.hi().unwrap()) < 1.0 + 1e-14 && !w.may_be_nan());
    // pow(x, 2) on [1, 2] is [1, 4] up to the slack
    let p = forward(
        LibmFn::Pow,
        RmSet::ALL,
        &[iv(fl(F64, 1.0), fl(F64, 2.0)), FloatInterval::point(fl(F64, 2.0))],
    );
    assert!(to_f64(p.lo().unwrap()) > 0.999 && to_f64(p.hi().unwrap()) < 4.001 && !p.may_be_nan());
}

#[test]
fn backward_narrows_monotone_pieces() {
    // sin(x) >= 0.99999 on [0, 4]: x near π/2
    let (z, x) = unary(
        LibmFn::Sin,
        RmSet::ALL,
        iv(fl(F64, 0.0), fl(F64, 4.0)),
        iv(fl(F64, 0.99999), Float::infinity(F64, false)),
    );
    let (l, h) = x.bounds().unwrap();
    assert!(to_f64(l) > 1.56 && to_f64(h) < 1.58, "{x:?}");
    assert!(!z.is_empty());
    // exp(x) > 1e308: x > 709.1
    let (_, x) = unary(
        LibmFn::Exp,
        RmSet::ALL,
        FloatInterval::full(F64),
        iv(fl(F64, 1e308), Float::infinity(F64, false)),
    );
    assert!(to_f64(x.lo().unwrap()) > 709.1 && !x.may_be_nan(), "{x:?}");
    // pow(x, 2) == 2 on [1, 2]: x within a few floats of sqrt(2)
    let (_, xs) = binary(
        LibmFn::Pow,
        RmSet::ALL,
        [iv(fl(F64, 1.0), fl(F64, 2.0)), FloatInterval::point(fl(F64, 2.0))],
        FloatInterval::point(fl(F64, 2.0)),
    );
    assert!(xs[0].count() < 64, "{:?}", xs[0]);
}

/// Arguments where a function's value is near zero (its relative
/// accuracy is hardest there) or near a threshold: `sin` near `kπ`,
/// `cos` near `(k + 1/2)π`, `lgamma` near 1 and 2, `log*` near 1, `acos`
/// near 1, `acosh` near 1, `erfc` and `exp` near underflow, `pow` with a
/// base near 1 and a huge exponent.
#[test]
fn near_zeros_are_enclosed() {
    let mut rng = StdRng::seed_from_u64(seed(4));
    let pi = std::f64::consts::PI;
    let cases: Vec<(LibmFn, Vec<f64>)> = vec![
        (
            LibmFn::Sin,
            (1..40).map(|k| k as f64 * pi).chain([1e6 * pi, 1e15 * pi]).collect(),
        ),
        (LibmFn::Tan, (1..40).map(|k| k as f64 * pi).collect()),
        (LibmFn::Cos, (0..40).map(|k| (k as f64 + 0.5) * pi).collect()),
        (LibmFn::Tan, (0..40).map(|k| (k as f64 + 0.5) * pi).collect()),
        (LibmFn::Lgamma, vec![1.0, 2.0]),
        (LibmFn::Log, vec![1.0]),
        (LibmFn::Log2, vec![1.0]),
        (LibmFn::Log10, vec![1.0]),
        (LibmFn::Acos, vec![1.0]),
        (LibmFn::Acosh, vec![1.0]),
        (LibmFn::Log1p, vec![0.0, -1.0]),
        (LibmFn::Expm1, vec![0.0]),
        (LibmFn::Erfc, vec![9.0, 10.0, 26.5, 27.2, 27.3]),
        (LibmFn::Exp, vec![-745.0, -708.0, -103.0, -87.0]),
        (LibmFn::Exp2, vec![-1074.0, -1022.0, -149.0, -126.0]),
        (
            LibmFn::Tgamma,
            vec![1.0, 2.0, 1.4616321449683623, 171.6, 35.04, 1e-300, 1e-38],
        ),
        (LibmFn::Sinh, vec![710.47, 89.41, 0.0]),
        (LibmFn::Cosh, vec![710.47, 89.41, 0.0]),
    ];
    for fmt in FORMATS {
        for (f, centres) in &cases {
            for &c in centres {
                for _ in 0..reps(40) {
                    let d = 10f64.powf(rng.gen_range(-17.0..-1.0)) * if rng.gen() { 1.0 } else { -1.0 };
                    let x = fl(fmt, c + if rng.gen_bool(0.8) { d * c.abs().max(1.0) } else { 0.0 });
                    let x = step(x, rng.gen_range(-3..=3));
                    // the enclosure does not depend on the mode: one image for all
                    let img = forward(*f, RmSet::ALL, &[FloatInterval::point(x)]);
                    for rm in RoundingMode::ALL {
                        let v = g(*f, rm, &[x]);
                        assert!(img.contains(v), "{f}({x:?}) = {v:?} in {rm:?} outside {img:?}");
                    }
                }
            }
        }
        // pow with a base near 1 and exponents near overflow and underflow
        for _ in 0..reps(1000) {
            let b = fl(
                fmt,
                1.0 + 10f64.powf(rng.gen_range(-15.0..-1.0)) * if rng.gen() { 1.0 } else { -1.0 },
            );
            let e = fl(
                fmt,
                10f64.powf(rng.gen_range(0.0..18.0)) * if rng.gen() { 1.0 } else { -1.0 },
            );
            for rm in RoundingMode::ALL {
                let args = [FloatInterval::point(b), FloatInterval::point(e)];
                let img = forward(LibmFn::Pow, RmSet::point(rm), &args);
                let v = g(LibmFn::Pow, rm, &[b, e]);
                assert!(img.contains(v), "pow({b:?}, {e:?}) = {v:?} in {rm:?} outside {img:?}");
            }
        }
    }
}

/// How far glibc's values fall outside `[RD(f), RU(f)]`, in floats, over
/// random arguments (printed with `--nocapture`): the slack must cover it
/// with room to spare.
#[test]
fn observed_errors_are_well_inside_the_slack() {
    let mut rng = StdRng::seed_from_u64(seed(5));
    for fmt in FORMATS {
        let sp = special_points(fmt);
        for f in LibmFn::ALL {
            let mut worst = 0i128;
            for _ in 0..reps(2000) {
                let args: Vec<Float> = (0..f.arity()).map(|_| sample(&mut rng, fmt, &sp)).collect();
                let Some((dn, up)) = true_bounds(f, &args) else {
                    continue;
                };
                for rm in RoundingMode::ALL {
                    let v = g(f, rm, &args);
                    if v.is_nan() || dn.is_nan() {
                        continue;
                    }
                    let out = (key(dn) - key(v)).max(key(v) - key(up)).max(0);
                    worst = worst.max(out);
                }
            }
            eprintln!(
                "{f} {}: {worst} floats outside [RD, RU], slack {}",
                fmt.name(),
                slack(f, fmt)
            );
            assert!(2 * worst <= slack(f, fmt), "{f} {fmt:?}: {worst}");
        }
    }
}

/// `long double`: glibc's `sinl`, `cosl`, `tanl` at the x87 floats
/// nearest `kπ/2` (where the value is tiny, or the function turns, or
/// has a pole), for small and huge `k`: every value in every mode inside
/// the image of the point, and of the interval around it.
#[test]
fn long_double_trig_near_critical_points() {
    let pi = Mp::with_val(20000, Constant::Pi);
    let mut ks: Vec<Integer> = (1..64).map(Integer::from).collect();
    ks.extend([
        Integer::from(1_000_001),
        Integer::from(1u64 << 62) + 1,
        Integer::from(1) << 100u32,
    ]);
    ks.push((Integer::from(1) << 4000u32) + 7);
    for k in ks {
        let c = Mp::with_val(20000, &pi * &k) / 2u32;
        let lo = mp_to(L80, &c, Round::Down).unwrap();
        for f in [LibmFn::Sin, LibmFn::Cos, LibmFn::Tan] {
            for d in -3..=4 {
                let x = step(lo, d);
                for s in [x, x.neg()] {
                    let img = forward(f, RmSet::ALL, &[FloatInterval::point(s)]);
                    let wide = forward(f, RmSet::ALL, &[iv(step(s, -5), step(s, 5))]);
                    for rm in RoundingMode::ALL {
                        let v = g(f, rm, &[s]);
                        assert!(
                            img.contains(v),
                            "{f}l({s:?}) = {v:?} in {rm:?} outside {img:?} (k = {k})"
                        );
                        assert!(
                            wide.contains(v),
                            "{f}l({s:?}) = {v:?} in {rm:?} outside {wide:?} (k = {k})"
                        );
                    }
                }
            }
        }
    }
}

/// `long double`: windows of 64 consecutive x87 floats at places where
/// the functions are hard (near zeros, turning points, thresholds): every
/// glibc value of every float of the window, in every mode, lies in the
/// window's image; `powl` with the exponent fixed likewise.
#[test]
fn long_double_windows_are_enclosed() {
    use LibmFn::*;
    let cases: [(LibmFn, f64); 22] = [
        (Sin, 0.5),
        (Sin, std::f64::consts::FRAC_PI_2),
        (Sin, std::f64::consts::PI),
        (Cos, std::f64::consts::FRAC_PI_2),
        (Tan, std::f64::consts::FRAC_PI_2),
        (Exp, 1.0),
        (Exp, -11399.0),
        (Exp, 11356.5),
        (Expm1, 1e-10),
        (Log, 1.0),
        (Log2, 1.0),
        (Log10, 1.0),
        (Log1p, -0.5),
        (Atan, 2.0),
        (Asin, 1.0),
        (Acos, 1.0),
        (Erfc, 10.0),
        (Lgamma, 2.0),
        (Lgamma, 1.0),
        (Tgamma, 1.4616321449683623),
        (Cbrt, 0.9998),
        (Sinh, 11357.2),
    ];
    for (f, c) in cases {
        let centre = ord(fl(L80, c));
        for w in 0..reps(24) as i128 {
            let o = centre + (w - 12) * 64;
            let x = iv(from_ord(L80, o), from_ord(L80, o + 63));
            let img = forward(f, RmSet::ALL, &[x]);
            for k in o..o + 64 {
                let a = from_ord(L80, k);
                for rm in RoundingMode::ALL {
                    let v = g(f, rm, &[a]);
                    assert!(img.contains(v), "{f}l({a:?}) = {v:?} ({rm:?}) outside {img:?}");
                }
            }
        }
    }
    for (b, e) in [
        (1.0000001, 1e10),
        (2.0, 16383.0),
        (0.5, 16444.0),
        (-1.5, 3.0),
        (10.0, -4931.0),
    ] {
        let (b, e) = (fl(L80, b), fl(L80, e));
        for w in 0..reps(8) as i128 {
            let o = ord(b) + (w - 4) * 64;
            let x = iv(from_ord(L80, o), from_ord(L80, o + 63));
            let img = forward(Pow, RmSet::ALL, &[x, FloatInterval::point(e)]);
            for k in o..o + 64 {
                let a = from_ord(L80, k);
                for rm in RoundingMode::ALL {
                    let v = g(Pow, rm, &[a, e]);
                    assert!(img.contains(v), "powl({a:?}, {e:?}) = {v:?} ({rm:?}) outside {img:?}");
                }
            }
        }
    }
}

#[test]
fn long_double_images_are_tight_and_narrow() {
    let one = |f: LibmFn, l: f64, h: f64| forward(f, RmSet::ALL, &[iv(fl(L80, l), fl(L80, h))]);
    let lf = |x: Float| x.convert(F64, RoundingMode::NearestTiesToEven).value.to_f64().unwrap();
    // expl on [0, 11000] is finite (expl overflows past 11356.5)
    let e = one(LibmFn::Exp, 0.0, 11000.0);
    assert!(e.hi().unwrap().is_finite() && !e.may_be_nan(), "{e:?}");
    // sinl on [1, 2] stays in [0.84, 1 + a few ulps of long double]
    let s = one(LibmFn::Sin, 1.0, 2.0);
    assert!(lf(s.lo().unwrap()) > 0.84 && ord(s.hi().unwrap()) <= ord(Float::one(L80, false)) + 64);
    // logl of the negatives is NaN
    let l = one(LibmFn::Log, -5.0, -1.0);
    assert!(l.may_be_nan() && l.bounds().is_none(), "{l:?}");
    // sinl(x) >= 1 - 1e-12 on [0, 4]: x within ~2e-6 of π/2
    let (_, x) = unary(
        LibmFn::Sin,
        RmSet::ALL,
        iv(fl(L80, 0.0), fl(L80, 4.0)),
        iv(fl(L80, 1.0 - 1e-12), Float::infinity(L80, false)),
    );
    let (l, h) = x.bounds().unwrap();
    let hp = std::f64::consts::FRAC_PI_2;
    assert!(lf(l) > hp - 2e-6 && lf(h) < hp + 2e-6, "{x:?}");
    // expl(x) > 1e4000: x > 9210
    let big = mp_to(L80, &Mp::with_val(64, Mp::parse("1e4000").unwrap()), Round::Down).unwrap();
    let (_, x) = unary(
        LibmFn::Exp,
        RmSet::ALL,
        FloatInterval::full(L80),
        iv(big, Float::infinity(L80, false)),
    );
    assert!(lf(x.lo().unwrap()) > 9210.0 && !x.may_be_nan(), "{x:?}");
    // powl(x, 2) == 2 on [1, 2]: a few x87 floats around sqrt(2)
    let (_, xs) = binary(
        LibmFn::Pow,
        RmSet::ALL,
        [iv(fl(L80, 1.0), fl(L80, 2.0)), FloatInterval::point(fl(L80, 2.0))],
        FloatInterval::point(fl(L80, 2.0)),
    );
    assert!(xs[0].count() < 64, "{:?}", xs[0]);
    // powl of a negative base and an odd exponent 2^63 + 1 (odd only in
    // long double): negative
    let odd = step(scaled(L80, 1.0, 63), 1);
    let p = forward(
        LibmFn::Pow,
        RmSet::ALL,
        &[iv(fl(L80, -1.5), fl(L80, -1.25)), FloatInterval::point(odd)],
    );
    assert!(p.hi().is_some_and(|h| h.is_negative()), "{p:?}");
    let v = g(LibmFn::Pow, RoundingMode::NearestTiesToEven, &[fl(L80, -1.3), odd]);
    assert!(v.is_negative());
}

// ---- ranges ----

/// The directed modes and to-nearest (ties-away runs as to-nearest).
const MODES: [RoundingMode; 4] = [
    RoundingMode::NearestTiesToEven,
    RoundingMode::TowardNegative,
    RoundingMode::TowardPositive,
    RoundingMode::TowardZero,
];

/// Arguments where glibc's functions reach or approach the ends of their
/// [`range`]: saturation of `tanh`, `erf`, `erfc`, `exp`, `expm1`
/// (x87's thresholds too), the extrema of `sin` and `cos`, `atan` of huge
/// numbers, `asin`/`acos`/`acosh` at ±1, tiny arguments, and dense grids
/// over the ranges where those happen; with their neighbours.
fn range_points(fmt: Format) -> Vec<Float> {
    let mut v: Vec<f64> = vec![
        8.0, 9.0, 9.1, 9.2, 17.0, 18.0, 19.0, 19.06, 22.0, 22.2, 23.0, 44.0, 3.9, 4.0, 5.9, 6.0, 6.7, 10.0, 26.0,
        26.55, 27.3, 107.0, 106.55, 37.0, 38.0, 16.6, 17.33, 44.4, 45.0, 745.1, 745.2, 746.0, 103.9, 104.0, 1075.0,
        150.0, 151.0, 11400.0, 16446.0, 16500.0, 1e300, 1e30, 1e20, 1e8, 1e17, 2e16, 1e-20, 1e-200, 1e-310, 1.0,
    ];
    for k in 1..64 {
        v.push(k as f64 * std::f64::consts::FRAC_PI_2);
    }
    for k in 0..4000 {
        v.push(k as f64 * 0.01);
        v.push(1.0 - k as f64 * 1e-5);
    }
    let mut out = Vec::new();
    for x in v {
        for s in [x, -x] {
            let p = fl(fmt, s);
            for k in -3..=3 {
                out.push(step(p, k));
            }
        }
    }
    // the first and last floats: zeros, subnormals, the largest
    for z in [Float::zero(fmt, false), Float::infinity(fmt, false)] {
        for k in 1..64 {
            for s in [step(z, -k), step(z, k), step(z.neg(), k), step(z.neg(), -k)] {
                if !s.is_nan() {
                    out.push(s);
                }
            }
        }
    }
    out.extend(special_points(fmt));
    out
}

/// Whether `v` lies in `[l, h]` of the total order (`-0 < +0`).
fn in_order(v: Float, (l, h): (Float, Float)) -> bool {
    ord(l) <= ord(v) && ord(v) <= ord(h)
}

/// Every range clamp holds for glibc in all four rounding modes: on
/// random bit patterns and magnitudes, special and near-saturation
/// arguments (see [`range_points`]), per format; for `float` on 2^20
/// random arguments more per function. A clamp one float too tight on a
/// side glibc reaches fails here: the bounds marked reached below are
/// met by some sample.
#[test]
fn ranges_hold_glibc_values() {
    use LibmFn::*;
    let mut rng = StdRng::seed_from_u64(seed(40));
    let claimed = |fmt| -> Vec<LibmFn> { LibmFn::ALL.into_iter().filter(|f| range(*f, fmt).is_some()).collect() };
    let common = [Asin, Acos, Atan, Cosh, Tanh, Acosh, Exp, Exp2, Expm1, Hypot, Erf, Erfc];
    assert_eq!(claimed(F64), common);
    assert_eq!(claimed(F32), [&[Sin, Cos][..], &common].concat());
    assert_eq!(
        claimed(L80),
        common.into_iter().filter(|f| *f != Expm1).collect::<Vec<_>>()
    );
    for fmt in FORMATS {
        let pts = range_points(fmt);
        let n = reps(match fmt {
            F32 => 1 << 12,
            F64 => 1 << 14,
            _ => 1 << 11,
        });
        for f in LibmFn::ALL {
            let Some(r) = range(f, fmt) else { continue };
            let mut seen = (Float::infinity(fmt, false), Float::infinity(fmt, true));
            let mut check = |args: &[Float]| {
                for rm in MODES {
                    let v = g(f, rm, args);
                    if v.is_nan() {
                        continue;
                    }
                    assert!(
                        in_order(v, r),
                        "{f}({args:?}) = {v:?} in {rm:?} outside {r:?} ({fmt:?})"
                    );
                    if ord(v) < ord(seen.0) {
                        seen.0 = v;
                    }
                    if ord(v) > ord(seen.1) {
                        seen.1 = v;
                    }
                }
            };
            if f.arity() == 1 {
                for &x in &pts {
                    check(&[x]);
                }
                for _ in 0..n {
                    check(&[random(&mut rng, fmt)]);
                }
            } else {
                for _ in 0..4 * n {
                    let x = if rng.gen() {
                        pts[rng.gen_range(0..pts.len())]
                    } else {
                        random(&mut rng, fmt)
                    };
                    let y = if rng.gen() {
                        pts[rng.gen_range(0..pts.len())]
                    } else {
                        random(&mut rng, fmt)
                    };
                    check(&[x, y]);
                }
                for &x in &special_points(fmt) {
                    for y in [
                        Float::zero(fmt, false),
                        Float::zero(fmt, true),
                        Float::infinity(fmt, true),
                        x,
                    ] {
                        check(&[x, y]);
                        check(&[y, x]);
                    }
                }
            }
            // the bounds glibc reaches: the test sees them (a tighter
            // clamp would fail above)
            let lo_reached =
                matches!(f, Tanh | Erf | Exp | Exp2 | Expm1 | Cosh | Erfc | Acos | Acosh | Hypot) || f == Sin;
            let hi_reached = matches!(f, Tanh | Erf | Erfc | Sin);
            assert!(
                !lo_reached || seen.0 == r.0,
                "{f} {fmt:?}: lowest seen {:?}, claimed {:?}",
                seen.0,
                r.0
            );
            assert!(
                !hi_reached || seen.1 == r.1,
                "{f} {fmt:?}: highest seen {:?}, claimed {:?}",
                seen.1,
                r.1
            );
        }
    }
}

/// `float`: 2^20 random bit patterns per function in each mode, through
/// glibc's `f` variants directly (an exhaustive run over all 2^32 floats
/// is `ranges_hold_for_every_float`, ignored: minutes per function).
#[test]
fn float_ranges_hold_on_many_bit_patterns() {
    let mut rng = StdRng::seed_from_u64(seed(41));
    let n = reps(1 << 18);
    for f in LibmFn::unary() {
        let Some(r) = range(f, F32) else { continue };
        let (l, h) = (r.0.to_f32().unwrap(), r.1.to_f32().unwrap());
        for rm in MODES {
            for _ in 0..n {
                let x = f32::from_bits(rng.gen());
                check_f32(f, rm, x, (l, h));
            }
        }
    }
}

/// glibc's `float` value of `f(x)` in mode `rm` lies in `[l, h]` (a zero
/// bound: that zero's sign).
fn check_f32(f: LibmFn, rm: RoundingMode, x: f32, (l, h): (f32, f32)) {
    let (v, _) = fpsym_expr::libm::call_f32(f.c_name(), &[x], rm).unwrap();
    if v.is_nan() {
        return;
    }
    let key = |a: f32| {
        let o = Float::from_f32(a);
        ord(o)
    };
    assert!(
        key(l) <= key(v) && key(v) <= key(h),
        "{f}f({x:e}) = {v:e} in {rm:?} outside [{l:e}, {h:e}]"
    );
}

/// Every `float` in every mode (run by hand: `cargo test --release -p
/// fpsym-solver --lib ranges_hold_for_every_float -- --ignored`).
#[test]
#[ignore]
fn ranges_hold_for_every_float() {
    for f in LibmFn::unary() {
        let Some(r) = range(f, F32) else { continue };
        let (l, h) = (r.0.to_f32().unwrap(), r.1.to_f32().unwrap());
        for rm in MODES {
            for b in 0..=u32::MAX {
                check_f32(f, rm, f32::from_bits(b), (l, h));
            }
        }
    }
}

/// The clamps reach the propagators: `exp` of any double is at least
/// `+0`, `tanh` and `cos` stay in `[-1, 1]`, `atan` in `±RU(π/2)`, and a
/// result outside the range empties the argument.
#[test]
fn images_stay_in_the_ranges() {
    for fmt in FORMATS {
        let all = FloatInterval::full(fmt).without_nan();
        for f in LibmFn::unary() {
            let Some(r) = range(f, fmt) else { continue };
            let img = forward(f, RmSet::ALL, &[all]).without_nan();
            let (l, h) = img.bounds().unwrap();
            assert!(in_order(l, r) && in_order(h, r), "{f} {fmt:?}: {img:?} not in {r:?}");
        }
        let below = iv(Float::infinity(fmt, true), Float::zero(fmt, true));
        let (z, x) = narrow_all(LibmFn::Exp, RmSet::ALL, &[all], below);
        assert!(z.is_empty() && x[0].is_empty(), "{fmt:?}: {z:?} {x:?}");
        let above = iv(Float::one(fmt, false).next_up(), Float::infinity(fmt, false));
        let (z, x) = narrow_all(LibmFn::Tanh, RmSet::ALL, &[all], above);
        assert!(z.is_empty() && x[0].is_empty(), "{fmt:?}: {z:?} {x:?}");
    }
    // exp of a huge negative double: [+0, a few subnormals]
    let x = iv(Float::from_f64(-1e300), Float::from_f64(-1e3));
    let img = forward(LibmFn::Exp, RmSet::ALL, &[x]);
    assert_eq!(img.bounds().unwrap().0, Float::zero(F64, false));
}
