//! The cp solver on queries over the C library functions (`fpsym.sin`,
//! `fpsym.pow`, ...): known answers decided by propagation within a time
//! bound, every sat model checked by `eval` (which calls glibc), and a
//! randomized comparison with brute-force enumeration over Float32
//! intervals small enough to enumerate (ground truth: glibc itself).

use fpsym_expr::{eval, Float, Format, LibmFn, Model, Op, RoundingMode, Sort, Term, Value};
use fpsym_solver::cp::CpConfig;
use fpsym_solver::{build, Backend, Budget, Query, SolveResult, SolverConfig};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

const RNE: RoundingMode = RoundingMode::NearestTiesToEven;
const F32: Format = Format::BINARY32;
const F64: Format = Format::BINARY64;

fn app(op: Op, args: Vec<Term>) -> Term {
    Term::app(op, args).expect("well-sorted test term")
}
fn c64(x: f64) -> Term {
    Term::fp(Float::from_f64(x))
}
fn c32(x: f32) -> Term {
    Term::fp(Float::from_f32(x))
}
fn var(name: &str, f: Format) -> Term {
    Term::var(name, Sort::Float(f))
}
/// `(fpsym.f rm args...)`.
fn lib(f: LibmFn, rm: &Term, args: &[&Term]) -> Term {
    let mut v = vec![rm.clone()];
    v.extend(args.iter().map(|a| (*a).clone()));
    app(Op::Libm(f), v)
}
fn rne() -> Term {
    Term::rm(RNE)
}
fn cmp(op: Op, a: &Term, b: &Term) -> Term {
    app(op, vec![a.clone(), b.clone()])
}
/// `lo <= x <= hi`.
fn within(x: &Term, lo: &Term, hi: &Term) -> Vec<Term> {
    vec![cmp(Op::FpLeq, lo, x), cmp(Op::FpLeq, x, hi)]
}

/// cp (default configuration) on `assertions` within `secs`; the answer
/// and the time it took. A sat model must satisfy every assertion under
/// `eval` (glibc's own values).
fn cp(assertions: &[Term], secs: u64) -> (SolveResult, Duration) {
    let mut s = build(&SolverConfig::bare(Backend::Cp(CpConfig::default())));
    let t = Instant::now();
    let r = s
        .check(
            &Query::new(assertions.to_vec()),
            &Budget::timeout(Duration::from_secs(secs)),
        )
        .unwrap_or_else(|e| panic!("solver error on {assertions:?}: {e}"));
    let took = t.elapsed();
    if let SolveResult::Sat(m) = &r {
        for a in assertions {
            assert_eq!(eval(a, m), Ok(Value::Bool(true)), "model {m:?} violates {a:?}");
        }
    }
    (r, took)
}

/// Sat within `secs` (model checked).
fn sat(name: &str, assertions: Vec<Term>, secs: u64) -> Model {
    let (r, took) = cp(&assertions, secs);
    eprintln!("{name}: {} in {took:?}", verdict(&r));
    match r {
        SolveResult::Sat(m) => m,
        r => panic!("{name}: expected sat, got {r:?}"),
    }
}

/// Unsat within `secs` (a proof by propagation, not by enumeration).
fn unsat(name: &str, assertions: Vec<Term>, secs: u64) {
    let (r, took) = cp(&assertions, secs);
    eprintln!("{name}: {} in {took:?}", verdict(&r));
    assert!(matches!(r, SolveResult::Unsat), "{name}: expected unsat, got {r:?}");
}

fn verdict(r: &SolveResult) -> &'static str {
    match r {
        SolveResult::Sat(_) => "sat",
        SolveResult::Unsat => "unsat",
        SolveResult::Unknown(_) => "unknown",
    }
}

#[test]
fn sin_near_its_maximum_is_found() {
    for (fmt, c) in [(F64, c64(0.99999)), (F32, c32(0.99999))] {
        let x = var("x", fmt);
        let (lo, hi) = if fmt == F64 {
            (c64(0.0), c64(4.0))
        } else {
            (c32(0.0), c32(4.0))
        };
        let mut a = within(&x, &lo, &hi);
        a.push(cmp(Op::FpGt, &lib(LibmFn::Sin, &rne(), &[&x]), &c));
        let m = sat("sin(x) > 0.99999, x in [0, 4]", a, 10);
        let v = m.get(&x).and_then(|v| v.as_fp()).unwrap();
        let v = v.to_f64().or(v.to_f32().map(f64::from)).unwrap();
        assert!((v - std::f64::consts::FRAC_PI_2).abs() < 0.005, "{v}");
    }
}

#[test]
fn exp_bounds_are_proved() {
    let x = var("x", F64);
    let mut a = within(&x, &c64(0.0), &c64(700.0));
    a.push(cmp(Op::FpGt, &lib(LibmFn::Exp, &rne(), &[&x]), &c64(1e308)));
    unsat("exp(x) > 1e308, x in [0, 700]", a, 5);
    // in any rounding mode, with the mode a variable
    let r = Term::var("r", Sort::RoundingMode);
    let mut a = within(&x, &c64(0.0), &c64(700.0));
    a.push(cmp(Op::FpGt, &lib(LibmFn::Exp, &r, &[&x]), &c64(1e308)));
    unsat("exp_r(x) > 1e308, x in [0, 700], any mode", a, 5);
    // and just above the threshold it is sat
    let mut a = within(&x, &c64(0.0), &c64(709.7));
    a.push(cmp(Op::FpGt, &lib(LibmFn::Exp, &rne(), &[&x]), &c64(1e308)));
    sat("exp(x) > 1e308, x in [0, 709.7]", a, 10);
    let y = var("y", F32);
    let mut a = within(&y, &c32(-100.0), &c32(88.0));
    a.push(app(Op::FpIsInfinite, vec![lib(LibmFn::Exp, &rne(), &[&y])]));
    unsat("expf(y) infinite, y in [-100, 88]", a, 5);
}

#[test]
fn log_of_tiny_arguments_is_found() {
    let x = var("x", F64);
    let a = vec![
        cmp(Op::FpGeq, &x, &c64(0.0)),
        cmp(Op::FpLt, &lib(LibmFn::Log, &rne(), &[&x]), &c64(-800.0)),
    ];
    sat("log(x) < -800, x >= 0", a, 10);
    // excluding zero: a subnormal
    let a = vec![
        cmp(Op::FpGt, &x, &c64(0.0)),
        cmp(Op::FpLt, &lib(LibmFn::Log, &rne(), &[&x]), &c64(-740.0)),
    ];
    let m = sat("log(x) < -740, x > 0", a, 10);
    assert!(m.get(&x).and_then(|v| v.as_fp()).unwrap().is_subnormal());
    // no float is that small
    let a = vec![
        cmp(Op::FpGt, &x, &c64(0.0)),
        cmp(Op::FpLt, &lib(LibmFn::Log, &rne(), &[&x]), &c64(-745.2)),
    ];
    unsat("log(x) < -745.2, x > 0", a, 5);
}

#[test]
fn sin_sign_is_proved() {
    for fmt in [F64, F32] {
        let x = var("x", fmt);
        let (lo, hi, z) = if fmt == F64 {
            (c64(1.0), c64(2.0), c64(0.0))
        } else {
            (c32(1.0), c32(2.0), c32(0.0))
        };
        let mut a = within(&x, &lo, &hi);
        a.push(cmp(Op::FpLt, &lib(LibmFn::Sin, &rne(), &[&x]), &z));
        unsat("sin(x) < 0, x in [1, 2]", a, 5);
    }
}

#[test]
fn pow_square_agrees_with_brute_force() {
    // Float32: every float of [1, 2] enumerated with glibc's powf
    let x = var("x", F32);
    let mut a = within(&x, &c32(1.0), &c32(2.0));
    a.push(cmp(Op::FpEq, &lib(LibmFn::Pow, &rne(), &[&x, &c32(2.0)]), &c32(2.0)));
    let brute = (1.0f32.to_bits()..=2.0f32.to_bits()).any(|b| {
        let v = LibmFn::Pow.glibc(RNE, &[Float::from_f32(f32::from_bits(b)), Float::from_f32(2.0)]);
        v.unwrap().0 == Float::from_f32(2.0)
    });
    let (r, took) = cp(&a, 10);
    eprintln!(
        "powf(x, 2) == 2, x in [1, 2]: {} in {took:?} (brute force: {brute})",
        verdict(&r)
    );
    assert_eq!(matches!(r, SolveResult::Sat(_)), brute);
    assert!(matches!(r, SolveResult::Sat(_) | SolveResult::Unsat));
    // Float64: the solutions are within a few floats of sqrt(2) (the
    // enclosure proves it); enumerate a window around it
    let x = var("x", F64);
    let mut a = within(&x, &c64(1.0), &c64(2.0));
    a.push(cmp(Op::FpEq, &lib(LibmFn::Pow, &rne(), &[&x, &c64(2.0)]), &c64(2.0)));
    let r2 = std::f64::consts::SQRT_2.to_bits();
    let brute = (r2 - 1000..=r2 + 1000).any(|b| {
        let v = LibmFn::Pow.glibc(RNE, &[Float::from_f64(f64::from_bits(b)), Float::from_f64(2.0)]);
        v.unwrap().0 == Float::from_f64(2.0)
    });
    let (r, took) = cp(&a, 10);
    eprintln!(
        "pow(x, 2) == 2, x in [1, 2]: {} in {took:?} (brute force near sqrt 2: {brute})",
        verdict(&r)
    );
    assert_eq!(matches!(r, SolveResult::Sat(_)), brute);
    assert!(matches!(r, SolveResult::Sat(_) | SolveResult::Unsat));
}

#[test]
fn other_functions_answer_quickly() {
    let (x, y) = (var("x", F64), var("y", F64));
    // Γ has its minimum 0.8856... at 1.4616...
    let mut a = within(&x, &c64(0.5), &c64(3.0));
    a.push(cmp(Op::FpLt, &lib(LibmFn::Tgamma, &rne(), &[&x]), &c64(0.88)));
    unsat("tgamma(x) < 0.88, x in [0.5, 3]", a, 5);
    let mut a = within(&x, &c64(0.5), &c64(3.0));
    a.push(cmp(Op::FpLt, &lib(LibmFn::Tgamma, &rne(), &[&x]), &c64(0.9)));
    sat("tgamma(x) < 0.9, x in [0.5, 3]", a, 10);
    // the first quadrant of atan2
    let a = vec![
        cmp(Op::FpGt, &y, &c64(0.0)),
        cmp(Op::FpGt, &x, &c64(0.0)),
        cmp(Op::FpGt, &lib(LibmFn::Atan2, &rne(), &[&y, &x]), &c64(1.571)),
    ];
    unsat("atan2(y, x) > 1.571, x, y > 0", a, 5);
    // hypot(x, y) >= |x|
    let a = vec![
        cmp(Op::FpGeq, &x, &c64(1.0)),
        cmp(Op::FpLt, &lib(LibmFn::Hypot, &rne(), &[&x, &y]), &c64(0.999)),
    ];
    unsat("hypot(x, y) < 0.999, x >= 1", a, 5);
    // pow on a box: at most 10^100
    let mut a = within(&x, &c64(0.0), &c64(10.0));
    a.extend(within(&y, &c64(0.0), &c64(100.0)));
    a.push(cmp(Op::FpGt, &lib(LibmFn::Pow, &rne(), &[&x, &y]), &c64(1e101)));
    unsat("pow(x, y) > 1e101, x in [0, 10], y in [0, 100]", a, 5);
    let mut a = within(&x, &c64(0.0), &c64(10.0));
    a.extend(within(&y, &c64(0.0), &c64(100.0)));
    a.push(cmp(Op::FpGt, &lib(LibmFn::Pow, &rne(), &[&x, &y]), &c64(1e99)));
    sat("pow(x, y) > 1e99, x in [0, 10], y in [0, 100]", a, 10);
    // pow overflow: 10^400 overflows, 10^300 does not
    let inf = |t: Term| app(Op::FpIsInfinite, vec![t]);
    let mut a = within(&x, &c64(1.0), &c64(10.0));
    a.extend(within(&y, &c64(0.0), &c64(400.0)));
    a.push(inf(lib(LibmFn::Pow, &rne(), &[&x, &y])));
    sat("pow(x, y) infinite, x in [1, 10], y in [0, 400]", a, 10);
    let mut a = within(&x, &c64(1.0), &c64(10.0));
    a.extend(within(&y, &c64(0.0), &c64(300.0)));
    a.push(inf(lib(LibmFn::Pow, &rne(), &[&x, &y])));
    unsat("pow(x, y) infinite, x in [1, 10], y in [0, 300]", a, 5);
    // a negative base with an even exponent
    let mut a = within(&x, &c64(-3.0), &c64(-1.0));
    a.push(cmp(Op::FpEq, &lib(LibmFn::Pow, &rne(), &[&x, &c64(2.0)]), &c64(4.0)));
    sat("pow(x, 2) == 4, x in [-3, -1]", a, 10);
    let mut a = within(&x, &c64(-3.0), &c64(-1.0));
    a.push(cmp(Op::FpGt, &lib(LibmFn::Pow, &rne(), &[&x, &c64(3.0)]), &c64(0.0)));
    unsat("pow(x, 3) > 0, x in [-3, -1]", a, 5);
    // asin is NaN only outside [-1, 1]
    let mut a = within(&x, &c64(-1.0), &c64(1.0));
    a.push(app(Op::FpIsNaN, vec![lib(LibmFn::Asin, &rne(), &[&x])]));
    unsat("asin(x) NaN, x in [-1, 1]", a, 5);
    let a = vec![app(Op::FpIsNaN, vec![lib(LibmFn::Asin, &rne(), &[&x])])];
    sat("asin(x) NaN", a, 10);
    // cosh >= 1 everywhere
    let a = vec![cmp(Op::FpLt, &lib(LibmFn::Cosh, &rne(), &[&x]), &c64(0.9999))];
    unsat("cosh(x) < 0.9999", a, 5);
    // lgamma below its positive minimum: on the negative side
    let a = vec![cmp(Op::FpLt, &lib(LibmFn::Lgamma, &rne(), &[&x]), &c64(-0.1215))];
    sat("lgamma(x) < -0.1215", a, 10);
    let mut a = within(&x, &c64(0.0), &c64(1e300));
    a.push(cmp(Op::FpLt, &lib(LibmFn::Lgamma, &rne(), &[&x]), &c64(-0.1215)));
    unsat("lgamma(x) < -0.1215, x in [0, 1e300]", a, 5);
    // a chain: log(exp(x)) far from x
    let e = lib(LibmFn::Exp, &rne(), &[&x]);
    let mut a = within(&x, &c64(1.0), &c64(2.0));
    a.push(cmp(Op::FpGt, &lib(LibmFn::Log, &rne(), &[&e]), &c64(2.01)));
    unsat("log(exp(x)) > 2.01, x in [1, 2]", a, 5);
}

/// A random Float32 centre for an argument interval.
fn centre(rng: &mut StdRng) -> f32 {
    match rng.gen_range(0..4) {
        0 => rng.gen_range(-4.0f32..4.0),
        1 => rng.gen_range(-1.2f32..1.2),
        2 => {
            let m = 10f32.powf(rng.gen_range(-30.0..30.0));
            if rng.gen() {
                m
            } else {
                -m
            }
        }
        _ => [
            0.0f32,
            1.0,
            -1.0,
            std::f32::consts::FRAC_PI_2,
            std::f32::consts::PI,
            88.72,
            -103.9,
            1.4616,
            2.0,
            35.04,
        ][rng.gen_range(0..10)],
    }
}

/// Random Float32 queries `lo <= x <= hi && c <= f(x) <= d` (the rounding
/// mode fixed or a variable) on intervals of at most 4096 floats: cp's
/// answer must agree with enumeration of every float (through `eval`).
#[test]
fn random_queries_agree_with_enumeration() {
    let mut rng = StdRng::seed_from_u64(7);
    let x = var("x", F32);
    let (mut n_sat, mut n_unsat) = (0, 0);
    let unary: Vec<LibmFn> = LibmFn::unary().collect();
    for i in 0..240 {
        let f = unary[i % unary.len()];
        let c = centre(&mut rng);
        let w = 1u32 << rng.gen_range(0..12);
        let lo = f32::from_bits(c.to_bits().saturating_sub(rng.gen_range(0..=w)));
        let mut hi = f32::from_bits(lo.to_bits().saturating_add(w));
        if lo.is_sign_negative() != hi.is_sign_negative() || hi.is_nan() {
            hi = lo;
        }
        let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
        let mid = f32::from_bits((lo.to_bits() / 2) + (hi.to_bits() / 2));
        let rm = if rng.gen_bool(0.3) {
            Term::var("r", Sort::RoundingMode)
        } else {
            Term::rm(RoundingMode::ALL[rng.gen_range(0..5)])
        };
        let fx = lib(f, &rm, &[&x]);
        let v = LibmFn::glibc(f, RNE, &[Float::from_f32(mid)])
            .unwrap()
            .0
            .to_f32()
            .unwrap();
        let (d1, d2) = (rng.gen_range(0..3000u32), rng.gen_range(0..3000u32));
        let mut a = within(&x, &c32(lo), &c32(hi));
        if v.is_finite() && rng.gen_bool(0.8) {
            let near = f32::from_bits(v.to_bits().wrapping_add(rng.gen_range(0..200)));
            let (zl, zh) = if v >= 0.0 {
                (
                    f32::from_bits(near.to_bits().saturating_sub(d1)),
                    f32::from_bits(near.to_bits() + d2),
                )
            } else {
                (
                    f32::from_bits(near.to_bits() + d1),
                    f32::from_bits(near.to_bits().saturating_sub(d2)),
                )
            };
            let (zl, zh) = if zl <= zh { (zl, zh) } else { (zh, zl) };
            if zl.is_nan() || zh.is_nan() {
                continue;
            }
            a.extend(within(&fx, &c32(zl), &c32(zh)));
        } else {
            a.push(app(Op::FpIsNaN, vec![fx.clone()]));
        }
        let modes: Vec<RoundingMode> = match rm.as_const() {
            Some(Value::Rm(r)) => vec![r],
            _ => RoundingMode::ALL.to_vec(),
        };
        let brute = enumerate(&a, &x, &rm, lo, hi, &modes);
        let (r, took) = cp(&a, 20);
        match (&r, brute) {
            (SolveResult::Sat(_), _) => n_sat += 1,
            (SolveResult::Unsat, false) => n_unsat += 1,
            (SolveResult::Unsat, true) => panic!("{f} on [{lo}, {hi}]: cp says unsat, enumeration finds {a:?}"),
            (SolveResult::Unknown(why), _) => panic!("{f} on [{lo}, {hi}]: unknown ({why:?}) after {took:?}: {a:?}"),
        }
        assert!(
            !matches!(r, SolveResult::Sat(_)) || brute,
            "sat model yet no solution found by enumeration"
        );
    }
    eprintln!("random queries: {n_sat} sat, {n_unsat} unsat");
    assert!(n_sat > 40 && n_unsat > 20, "{n_sat} sat, {n_unsat} unsat");
}

/// Whether some float of `[lo, hi]` (and mode) satisfies `a` under `eval`.
fn enumerate(a: &[Term], x: &Term, rm: &Term, lo: f32, hi: f32, modes: &[RoundingMode]) -> bool {
    let ords = |v: f32| {
        let o = Float::from_f32(v).ordinal().unwrap();
        o as i64
    };
    for o in ords(lo) - 1..=ords(hi) + 1 {
        let Some(v) = Float::from_ordinal(F32, o as i128) else {
            continue;
        };
        for &r in modes {
            let mut m = Model::new();
            m.insert(x.clone(), Value::Fp(v));
            if rm.var_name().is_some() {
                m.insert(rm.clone(), Value::Rm(r));
            }
            if a.iter().all(|t| eval(t, &m) == Ok(Value::Bool(true))) {
                return true;
            }
        }
    }
    false
}

// ---- long double (x87 80-bit): glibc's sinl, expl, powl, ... ----

const L80: Format = Format::X86_FP80;

/// A `long double` constant from a double (exact).
fn l80(x: f64) -> Float {
    Float::from_f64(x).convert(L80, RNE).value
}
fn c80(x: f64) -> Term {
    Term::fp(l80(x))
}
/// `x` moved by `k` x87 floats.
fn step80(x: Float, k: i128) -> Float {
    Float::from_ordinal(L80, x.ordinal().unwrap() + k).unwrap()
}

#[test]
fn long_double_queries_are_decided() {
    let x = var("x", L80);
    // sinl near its maximum (closer to 1 than a double's sin resolves)
    let mut a = within(&x, &c80(0.0), &c80(4.0));
    a.push(cmp(Op::FpGt, &lib(LibmFn::Sin, &rne(), &[&x]), &c80(0.99999999999)));
    let m = sat("sinl(x) > 0.99999999999, x in [0, 4]", a, 10);
    let v = m.get(&x).and_then(|v| v.as_fp()).unwrap();
    let v = v.convert(F64, RNE).value.to_f64().unwrap();
    assert!((v - std::f64::consts::FRAC_PI_2).abs() < 1e-5, "{v}");
    // sinl > 0 on [1, 2]
    let mut a = within(&x, &c80(1.0), &c80(2.0));
    a.push(cmp(Op::FpLt, &lib(LibmFn::Sin, &rne(), &[&x]), &c80(0.0)));
    unsat("sinl(x) < 0, x in [1, 2]", a, 5);
    // expl: finite up to 11356, infinite past 11357 (beyond double's range)
    let inf = |t: Term| app(Op::FpIsInfinite, vec![t]);
    let mut a = within(&x, &c80(0.0), &c80(11356.0));
    a.push(inf(lib(LibmFn::Exp, &rne(), &[&x])));
    unsat("expl(x) infinite, x in [0, 11356]", a, 5);
    let r = Term::var("r", Sort::RoundingMode);
    let mut a = within(&x, &c80(0.0), &c80(11356.0));
    a.push(inf(lib(LibmFn::Exp, &r, &[&x])));
    unsat("expl_r(x) infinite, x in [0, 11356], any mode", a, 5);
    let mut a = within(&x, &c80(0.0), &c80(11357.0));
    a.push(inf(lib(LibmFn::Exp, &rne(), &[&x])));
    sat("expl(x) infinite, x in [0, 11357]", a, 10);
    // logl of a long double subnormal: below -11355
    let a = vec![
        cmp(Op::FpGt, &x, &c80(0.0)),
        cmp(Op::FpLt, &lib(LibmFn::Log, &rne(), &[&x]), &c80(-11360.0)),
    ];
    let m = sat("logl(x) < -11360, x > 0", a, 10);
    assert!(m.get(&x).and_then(|v| v.as_fp()).unwrap().is_subnormal());
    // no long double is that small: log(2^-16445) = -11398.8
    let a = vec![
        cmp(Op::FpGt, &x, &c80(0.0)),
        cmp(Op::FpLt, &lib(LibmFn::Log, &rne(), &[&x]), &c80(-11399.0)),
    ];
    unsat("logl(x) < -11399, x > 0", a, 5);
    // powl of a negative base and the odd exponent 2^63 + 1 (even as a
    // double): negative
    let odd = Term::fp(step80(l80(2f64.powi(63)), 1));
    let mut a = within(&x, &c80(-3.0), &c80(-1.0));
    a.push(cmp(Op::FpGt, &lib(LibmFn::Pow, &rne(), &[&x, &odd]), &c80(0.0)));
    unsat("powl(x, 2^63 + 1) > 0, x in [-3, -1]", a, 5);
    // powl(x, 2) == 2 on [1, 2]: agrees with enumeration of a window of
    // x87 floats around sqrt(2) (outside it the enclosure excludes)
    let mut a = within(&x, &c80(1.0), &c80(2.0));
    a.push(cmp(Op::FpEq, &lib(LibmFn::Pow, &rne(), &[&x, &c80(2.0)]), &c80(2.0)));
    let r2 = mp_sqrt2();
    let brute = (-2000..=2000).any(|k| {
        let v = LibmFn::Pow.glibc(RNE, &[step80(r2, k), l80(2.0)]);
        v.unwrap().0 == l80(2.0)
    });
    let (r, took) = cp(&a, 10);
    eprintln!(
        "powl(x, 2) == 2, x in [1, 2]: {} in {took:?} (brute force near sqrt 2: {brute})",
        verdict(&r)
    );
    assert_eq!(matches!(r, SolveResult::Sat(_)), brute);
    assert!(matches!(r, SolveResult::Sat(_) | SolveResult::Unsat));
}

/// The largest x87 float whose square (rounded down) is at most 2: the
/// float just below sqrt(2), by bisection over ordinals.
fn mp_sqrt2() -> Float {
    let two = l80(2.0);
    let (mut lo, mut hi) = (l80(1.0).ordinal().unwrap(), two.ordinal().unwrap());
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        let m = Float::from_ordinal(L80, mid).unwrap();
        let sq = m.mul(m, RoundingMode::TowardNegative).value;
        if sq.ordinal().unwrap() <= two.ordinal().unwrap() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Float::from_ordinal(L80, lo).unwrap()
}

/// A random `long double`: near a special point, or a log-uniform
/// magnitude over the whole x87 range (far beyond double's).
fn random80(rng: &mut StdRng) -> Float {
    let x = match rng.gen_range(0..4) {
        0 => l80(rng.gen_range(-8.0..8.0)),
        1 => l80([
            0.0,
            1.0,
            2.0,
            std::f64::consts::FRAC_PI_2,
            std::f64::consts::PI,
            11356.52,
            -11399.0,
            1755.45,
            106.5,
            1.4616,
            0.5,
        ][rng.gen_range(0..11)]),
        _ => {
            // sign, exponent in [-16445, 16383], 63 random fraction bits
            let e: i64 = rng.gen_range(-16445..16384);
            let biased = (e + 16383).max(0) as u128;
            let frac = rng.gen::<u64>() as u128 & ((1 << 63) - 1);
            let packed = (u128::from(rng.gen::<bool>()) << 78) | (biased << 63) | frac;
            Float::from_packed(L80, packed)
        }
    };
    step80(x, rng.gen_range(-1000..1000))
}

/// Soundness against glibc's own x87 functions: for many sampled
/// arguments `a` of every function, in every rounding mode, the query
/// `x ∈ [a - k, a + k] ∧ f(x) = glibc_f(a)` has a solution (`a` itself),
/// so cp must never answer unsat: an enclosure that missed glibc's value
/// would show here. Most are answered sat (with a model checked by
/// `eval`, which calls glibc).
#[test]
fn long_double_glibc_values_are_never_refuted() {
    let mut rng = StdRng::seed_from_u64(80);
    let x = var("x", L80);
    let y = var("y", L80);
    let (mut n_sat, mut n_unknown, mut n) = (0, 0, 0);
    for f in LibmFn::ALL {
        for _ in 0..24 {
            let args: Vec<Float> = (0..f.arity()).map(|_| random80(&mut rng)).collect();
            let rm = RoundingMode::ALL[rng.gen_range(0..5)];
            let (v, _) = f.glibc(rm, &args).unwrap();
            let k = [0i128, 3, 1000][rng.gen_range(0..3)];
            let vars = [&x, &y];
            let mut a = Vec::new();
            for (i, arg) in args.iter().enumerate() {
                if arg.is_nan() {
                    a.push(app(Op::FpIsNaN, vec![vars[i].clone()]));
                } else {
                    let (lo, hi) = (step80(*arg, -k), step80(*arg, k));
                    a.extend(within(vars[i], &Term::fp(lo), &Term::fp(hi)));
                }
            }
            let fx = lib(f, &Term::rm(rm), &vars[..f.arity()]);
            a.push(if v.is_nan() {
                app(Op::FpIsNaN, vec![fx])
            } else {
                app(Op::Eq, vec![fx, Term::fp(v)])
            });
            let (r, took) = cp(&a, 10);
            n += 1;
            match r {
                SolveResult::Sat(_) => n_sat += 1,
                SolveResult::Unknown(_) => n_unknown += 1,
                SolveResult::Unsat => panic!("{f}l{args:?} = {v:?} ({rm:?}) refuted by cp in {took:?}: {a:?}"),
            }
        }
    }
    eprintln!("long double glibc values: {n} queries, {n_sat} sat, {n_unknown} unknown, 0 unsat");
    assert!(n_sat * 10 >= n * 8, "{n_sat} sat of {n}");
}

/// Random `long double` queries `lo <= x <= hi && c <= f(x) <= d` on
/// windows of at most 256 x87 floats: cp's answer agrees with enumerating
/// every float of the window through `eval` (glibc's `sinl`, ...).
#[test]
fn random_long_double_queries_agree_with_enumeration() {
    let mut rng = StdRng::seed_from_u64(81);
    let x = var("x", L80);
    let (mut n_sat, mut n_unsat) = (0, 0);
    let unary: Vec<LibmFn> = LibmFn::unary().collect();
    for i in 0..120 {
        let f = unary[i % unary.len()];
        let c = random80(&mut rng);
        if c.is_nan() || c.is_infinite() {
            continue;
        }
        let w = 1i128 << rng.gen_range(0..9);
        let lo = step80(c, -rng.gen_range(0..=w));
        let hi = step80(lo, w);
        if lo.is_negative() != hi.is_negative() || hi.is_infinite() {
            continue;
        }
        let mid = step80(lo, w / 2);
        let rm = RoundingMode::ALL[rng.gen_range(0..5)];
        let fx = lib(f, &Term::rm(rm), &[&x]);
        let v = f.glibc(RNE, &[mid]).unwrap().0;
        let mut a = within(&x, &Term::fp(lo), &Term::fp(hi));
        if v.is_finite() && rng.gen_bool(0.8) {
            let near = step80(v, rng.gen_range(-40..40));
            let (zl, zh) = (step80(near, -rng.gen_range(0..60)), step80(near, rng.gen_range(0..60)));
            a.extend(within(&fx, &Term::fp(zl), &Term::fp(zh)));
        } else {
            a.push(app(Op::FpIsNaN, vec![fx.clone()]));
        }
        let (o_lo, o_hi) = (lo.ordinal().unwrap(), hi.ordinal().unwrap());
        let brute = (o_lo..=o_hi).any(|o| {
            let mut m = Model::new();
            m.insert(x.clone(), Value::Fp(Float::from_ordinal(L80, o).unwrap()));
            a.iter().all(|t| eval(t, &m) == Ok(Value::Bool(true)))
        });
        let (r, took) = cp(&a, 20);
        match (&r, brute) {
            (SolveResult::Sat(_), true) => n_sat += 1,
            (SolveResult::Sat(_), false) => {
                panic!("{f}l on [{lo:?}, {hi:?}]: sat, yet no float of the window is a solution")
            }
            (SolveResult::Unsat, false) => n_unsat += 1,
            (SolveResult::Unsat, true) => panic!("{f}l on [{lo:?}, {hi:?}]: cp says unsat, enumeration finds {a:?}"),
            (SolveResult::Unknown(why), _) => {
                panic!("{f}l on [{lo:?}, {hi:?}]: unknown ({why:?}) after {took:?}: {a:?}")
            }
        }
    }
    eprintln!("random long double queries: {n_sat} sat, {n_unsat} unsat");
    assert!(n_sat > 20 && n_unsat > 10, "{n_sat} sat, {n_unsat} unsat");
}

/// glibc's ranges (`exp >= +0`, `tanh` in `[-1, 1]`, `erfc <= 2`, `cosh
/// >= 1`, `expm1 >= -1`) survive the ulp widening: what only falls
/// outside them is unsat, in any rounding mode; the logistic function is
/// proved in `[0, 1]` (bench/transcendental's `logistic_stable`) and the
/// > naive two-class softmax's NaN (both exponentials overflow, or both
/// > underflow) is found.
#[test]
fn range_facts_are_proved() {
    let r = Term::var("r", Sort::RoundingMode);
    for fmt in [F64, F32] {
        let c = |v: f64| {
            if fmt == F64 {
                c64(v)
            } else {
                c32(v as f32)
            }
        };
        let x = var("x", fmt);
        let not_nan = |t: &Term| app(Op::Not, vec![app(Op::FpIsNaN, vec![t.clone()])]);
        for (f, op, bound) in [
            (LibmFn::Exp, Op::FpLt, c(0.0)),
            (LibmFn::Exp2, Op::FpLt, c(0.0)),
            (LibmFn::Tanh, Op::FpGt, c(1.0)),
            (LibmFn::Tanh, Op::FpLt, c(-1.0)),
            (LibmFn::Erf, Op::FpGt, c(1.0)),
            (LibmFn::Erfc, Op::FpGt, c(2.0)),
            (LibmFn::Cosh, Op::FpLt, c(1.0)),
            (LibmFn::Expm1, Op::FpLt, c(-1.0)),
        ] {
            let name = format!("{f}(x) {op:?} {bound:?}, any x, any mode");
            let a = vec![cmp(op, &lib(f, &r, &[&x]), &bound)];
            unsat(&name, a, 5);
        }
        // exp(x) is never -0 either
        let e = lib(LibmFn::Exp, &r, &[&x]);
        let a = vec![
            app(Op::FpIsZero, vec![e.clone()]),
            app(Op::FpIsNegative, vec![e.clone()]),
        ];
        unsat("exp(x) = -0", a, 5);
        // logistic, stable form, both branches: s in [0, 1]
        let one = c(1.0);
        let zero = c(0.0);
        let out = |s: &Term| app(Op::Not, vec![app(Op::And, within(s, &zero, &one))]);
        let neg_x = app(Op::FpNeg, vec![x.clone()]);
        let e = lib(LibmFn::Exp, &rne(), &[&neg_x]);
        let s = app(
            Op::FpDiv,
            vec![rne(), one.clone(), app(Op::FpAdd, vec![rne(), one.clone(), e])],
        );
        let a = vec![not_nan(&x), cmp(Op::FpGeq, &x, &zero), out(&s)];
        unsat("1/(1 + exp(-x)) outside [0, 1], x >= 0", a, 10);
        let e = lib(LibmFn::Exp, &rne(), &[&x]);
        let s = app(
            Op::FpDiv,
            vec![rne(), e.clone(), app(Op::FpAdd, vec![rne(), one.clone(), e])],
        );
        let a = vec![not_nan(&x), cmp(Op::FpLt, &x, &zero), out(&s)];
        unsat("exp(x)/(1 + exp(x)) outside [0, 1], x < 0", a, 10);
        // softmax2: NaN from finite a, b
        let (a_, b_) = (var("a", fmt), var("b", fmt));
        let finite = |t: &Term| {
            app(
                Op::Not,
                vec![app(
                    Op::Or,
                    vec![
                        app(Op::FpIsNaN, vec![t.clone()]),
                        app(Op::FpIsInfinite, vec![t.clone()]),
                    ],
                )],
            )
        };
        let (ea, eb) = (lib(LibmFn::Exp, &rne(), &[&a_]), lib(LibmFn::Exp, &rne(), &[&b_]));
        let p = app(Op::FpDiv, vec![rne(), ea.clone(), app(Op::FpAdd, vec![rne(), ea, eb])]);
        let a = vec![finite(&a_), finite(&b_), app(Op::Not, vec![cmp(Op::FpGeq, &p, &zero)])];
        sat("exp(a)/(exp(a) + exp(b)) not >= 0", a, 20);
    }
}
