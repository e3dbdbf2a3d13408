//! The high-precision re-run against values worked out by hand: the
//! shadow of a computation without rounding is the computed value itself,
//! and an over/underflow whose exact result is normal is avoidable.

use fpsym_engine::{Config, Entry};
use fpsym_frontend::{CompileOptions, Program};
use fpsym_precision::{exact, relative_error, rerun, HighPrecision, Mp, PRECISION};
use fpsym_solver::{Backend, SolverConfig};
use std::collections::BTreeMap;

const SOURCE: &str = r#"#include <math.h>
double av3(double x, double y) { return x + (y - x) / 2; }
double square(double x) { return x * x; }
double back(double x) { double t = x * x; return t / x; }
static double sq(double a) { return a * a; }
double norm3(double x) {
    double s = 0;
    for (int i = 0; i < 3; i++)
        s += sq(x);
    return sqrt(s);
}
void out(double x, double *r) { *r = x * x / x; }
double rotate(double a, double b) {
    for (int i = 0; i < 5; i++) {
        double t = a;
        a = b;
        b = t * 2;
    }
    return a - b;
}
float narrow(float x) { double d = x; d = d * d; return (float)(d / x); }
double through(double x) {
    double buf[2];
    buf[1] = x * x;
    double y = buf[1];
    return fabs(y / x) + (double)(int)1;
}
int status(double x) { return x > 0; }
double ex(double x) { return exp(x); }
double absorb(double x) { return (x + 1.0) - x; }
static double acc;
double via_global(double x) { acc = x * x; return acc / x; }
static double sq_cb(double a) { return a * a; }
double via_pointer(double x) { double (*f)(double) = sq_cb; volatile int k = 0; if (k) f = 0; return f(x) / x; }
double decide(double x) { double z = (x + 1.0) - x; if (z > 0.5) return 1.0; return 0.0; }
"#;

/// The line of SOURCE starting with `prefix`.
fn line_of(prefix: &str) -> usize {
    SOURCE.lines().position(|l| l.starts_with(prefix)).expect("in SOURCE") + 1
}

fn program() -> Program {
    // One build directory per test: tests run in parallel.
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("fpsym-precision-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("shadow.c");
    std::fs::write(&src, SOURCE).unwrap();
    fpsym_frontend::build(&[src], &CompileOptions::default(), &dir.join("build"))
        .unwrap_or_else(|e| panic!("building the fixture (needs clang-14: scripts/bootstrap): {e}"))
}

fn run(p: &Program, function: &str, inputs: &[(&str, Vec<u8>)]) -> HighPrecision {
    let mut c = Config::default();
    c.entry = Entry::Function {
        name: function.into(),
        ranges: vec![],
        array_len: None,
    };
    let mut solver = fpsym_solver::build(&SolverConfig::bare(Backend::Cp(Default::default())));
    let inputs: BTreeMap<String, Vec<u8>> = inputs.iter().map(|(n, b)| (n.to_string(), b.clone())).collect();
    rerun(
        p,
        &c,
        inputs,
        solver.as_mut(),
        PRECISION,
        std::time::Duration::from_secs(30),
    )
    .expect("the re-run runs")
}

fn d(x: f64) -> Vec<u8> {
    x.to_le_bytes().to_vec()
}

fn mp(x: f64) -> Mp {
    Mp::with_val(PRECISION, x)
}

#[test]
fn sterbenz_av3_overflows_avoidably() {
    let p = program();
    let hp = run(&p, "av3", &[("x", d(-f64::MAX)), ("y", d(f64::MAX))]);
    assert_eq!(hp.results.len(), 1, "{hp:?}");
    let r = &hp.results[0];
    assert_eq!(r.what, "return value");
    assert_eq!(r.computed.to_f64(), Some(f64::INFINITY), "y - x overflows natively");
    assert!(r.shadow.is_zero(), "exactly -Ω + 2Ω/2 = 0: {}", r.shadow);
    assert_eq!(hp.avoidable(), Some(true));
}

#[test]
fn an_overflowing_square_is_unavoidable() {
    let p = program();
    let hp = run(&p, "square", &[("x", d(1e200))]);
    assert_eq!(hp.results[0].computed.to_f64(), Some(f64::INFINITY));
    assert_eq!(hp.results[0].shadow, mp(1e200) * mp(1e200));
    assert_eq!(hp.avoidable(), Some(false));
    // A square that fits: nothing to avoid, and the shadow is exact.
    let hp = run(&p, "square", &[("x", d(3.0))]);
    assert_eq!(hp.results[0].shadow, mp(9.0));
    assert_eq!(hp.avoidable(), Some(true));
}

#[test]
fn an_underflow_the_exact_result_does_not_have_is_avoidable() {
    let p = program();
    let hp = run(&p, "back", &[("x", d(1e-200))]);
    assert_eq!(
        hp.results[0].computed.to_f64(),
        Some(0.0),
        "x*x underflows to 0 natively"
    );
    // (x*x)/x with x*x exact at 1024 bits: x itself, up to the last bits.
    let rel = Mp::with_val(PRECISION, (hp.results[0].shadow.clone() - mp(1e-200)) / mp(1e-200));
    assert!(
        rel.abs() < Mp::with_val(PRECISION, 1e-290),
        "shadow {}",
        hp.results[0].shadow
    );
    assert_eq!(hp.avoidable(), Some(true));
}

#[test]
fn shadows_follow_calls_loops_phis_and_libm() {
    let p = program();
    let hp = run(&p, "norm3", &[("x", d(1e200))]);
    assert_eq!(hp.results[0].computed.to_f64(), Some(f64::INFINITY));
    let want = (mp(1e200) * mp(1e200) * mp(3.0)).sqrt();
    let rel = Mp::with_val(PRECISION, (hp.results[0].shadow.clone() - &want) / &want);
    assert!(
        rel.abs() < Mp::with_val(PRECISION, 1e-290),
        "shadow {}",
        hp.results[0].shadow
    );
    assert_eq!(hp.avoidable(), Some(true));
}

#[test]
fn rotated_phis_keep_their_own_shadows() {
    // Every operation is exact: each shadow must be the computed value.
    let p = program();
    let hp = run(&p, "rotate", &[("a", d(3.0)), ("b", d(5.0))]);
    let r = &hp.results[0];
    assert_eq!(r.shadow, exact(r.computed), "computed {:?}", r.computed.to_f64());
    // a, b after 5 rounds of (a, b) := (b, 2a): (20, 24) ... worked out:
    // (3,5) (5,6) (6,10) (10,12) (12,20) (20,24): a - b = -4.
    assert_eq!(r.computed.to_f64(), Some(-4.0));
}

#[test]
fn out_parameters_are_results() {
    let p = program();
    let hp = run(&p, "out", &[("x", d(1e200)), ("r", d(0.0))]);
    assert_eq!(hp.results.len(), 1, "{hp:?}");
    assert_eq!(hp.results[0].what, "r+0");
    assert_eq!(hp.results[0].computed.to_f64(), Some(f64::INFINITY));
    assert_eq!(hp.avoidable(), Some(true));
}

#[test]
fn formats_change_only_the_computed_value() {
    let p = program();
    let x = 1e30f32;
    let hp = run(&p, "narrow", &[("x", x.to_le_bytes().to_vec())]);
    let r = &hp.results[0];
    // In double, 1e60/1e30 fits; narrowing back to float gives x.
    assert_eq!(r.computed.to_f32(), Some(x));
    assert_eq!(r.shadow, exact(r.computed));
    assert_eq!(hp.avoidable(), Some(true));
}

#[test]
fn shadows_go_through_memory_and_conversions() {
    let p = program();
    let hp = run(&p, "through", &[("x", d(-1e200))]);
    let r = &hp.results[0];
    assert_eq!(r.computed.to_f64(), Some(f64::INFINITY), "(x*x)/x overflowed");
    let want = mp(1e200) + mp(1.0);
    let rel = Mp::with_val(PRECISION, (r.shadow.clone() - &want) / &want);
    assert!(rel.abs() < Mp::with_val(PRECISION, 1e-290), "shadow {}", r.shadow);
}

#[test]
fn a_function_without_float_results_has_nothing_to_judge() {
    let p = program();
    let hp = run(&p, "status", &[("x", d(1.0))]);
    assert!(hp.results.is_empty(), "{hp:?}");
    assert_eq!(hp.avoidable(), None);
    assert_eq!(hp.ended.as_deref(), Some("returned"));
}

#[test]
fn values_beyond_mpfrs_range_are_not_judged() {
    // exp(-1e308) is 0 in double and below even MPFR's smallest exponent:
    // its shadow is no exact value, so nothing is said.
    let p = program();
    let hp = run(&p, "ex", &[("x", d(-1e308))]);
    assert!(hp.out_of_range, "{hp:?}");
    assert_eq!(hp.avoidable(), None);
    // exp(-1000) underflows in double, not in MPFR: judged unavoidable.
    let hp = run(&p, "ex", &[("x", d(-1000.0))]);
    assert!(!hp.out_of_range, "{hp:?}");
    assert_eq!(hp.results[0].computed.to_f64(), Some(0.0));
    assert_eq!(hp.results[0].shadow, mp(-1000.0).exp());
    assert_eq!(hp.avoidable(), Some(false));
}

#[test]
fn absorption_is_a_relative_error_of_one_and_its_sites_say_why() {
    // (1e16 + 1) - 1e16: the 1 is absorbed (53 bits apart), then all bits
    // cancel: computed 0, exactly 1.
    let p = program();
    let hp = run(&p, "absorb", &[("x", d(1e16))]);
    let r = &hp.results[0];
    assert_eq!(r.computed.to_f64(), Some(0.0));
    assert_eq!(r.shadow, mp(1.0));
    assert_eq!(relative_error(r.computed, &r.shadow), 1.0);
    let sites: Vec<_> = hp.sites.values().cloned().collect();
    assert_eq!(sites.len(), 2, "{:?}", hp.sites);
    assert!(sites.iter().any(|s| s.lost == 53), "{:?}", hp.sites);
    assert!(sites.iter().any(|s| s.cancelled == 53), "{:?}", hp.sites);
    // Exact inputs: no error.
    let hp = run(&p, "absorb", &[("x", d(2.0))]);
    assert_eq!(relative_error(hp.results[0].computed, &hp.results[0].shadow), 0.0);
}

#[test]
fn a_branch_high_precision_would_take_otherwise_is_a_divergence() {
    let p = program();
    let hp = run(&p, "decide", &[("x", d(1e16))]);
    assert_eq!(hp.divergences.len(), 1, "{hp:?}");
    assert!(!hp.divergences[0].taken);
    assert!(
        hp.divergences[0]
            .loc
            .as_deref()
            .is_some_and(|l| l.ends_with(&format!(":{}", line_of("double decide")))),
        "{hp:?}"
    );
    let hp = run(&p, "decide", &[("x", d(3.0))]);
    assert!(hp.divergences.is_empty(), "{hp:?}");
}

#[test]
fn relative_errors_follow_fpgens_definition() {
    let one = fpsym_float::Float::from_f64(1.0);
    assert_eq!(relative_error(one, &mp(1.0)), 0.0);
    assert_eq!(relative_error(one, &mp(2.0)), 0.5);
    // Near zero the denominator is FLT_MIN.
    let tiny = fpsym_float::Float::from_f64(f32::MIN_POSITIVE as f64);
    assert_eq!(relative_error(tiny, &mp(0.0)), 1.0);
    // Infinite or NaN results are the largest errors.
    assert_eq!(
        relative_error(fpsym_float::Float::from_f64(f64::INFINITY), &mp(1.0)),
        f64::INFINITY
    );
    assert_eq!(
        relative_error(fpsym_float::Float::from_f64(f64::NAN), &mp(1.0)),
        f64::INFINITY
    );
    assert_eq!(relative_error(one, &mp(f64::NAN)), f64::INFINITY);
    // Unless the exact result is the same: both NaN, or the same infinity.
    assert_eq!(
        relative_error(fpsym_float::Float::from_f64(f64::NAN), &mp(f64::NAN)),
        0.0
    );
    let inf = fpsym_float::Float::from_f64(f64::INFINITY);
    assert_eq!(relative_error(inf, &mp(f64::INFINITY)), 0.0);
    assert_eq!(relative_error(inf, &mp(f64::NEG_INFINITY)), f64::INFINITY);
}

#[test]
fn shadows_go_through_globals_and_calls_through_pointers() {
    // x * x overflows, then / x: through a static variable, or a function
    // called through a pointer, the shadow still holds x², so the exact
    // result is x and the overflow avoidable.
    let p = program();
    for f in ["via_global", "via_pointer"] {
        let hp = run(&p, f, &[("x", d(1e200))]);
        let r = hp.results.iter().find(|r| r.object.is_none()).expect("a return value");
        assert_eq!(r.computed.to_f64(), Some(f64::INFINITY), "{f}");
        let rel = Mp::with_val(PRECISION, (r.shadow.clone() - mp(1e200)) / mp(1e200));
        assert!(rel.abs() < Mp::with_val(PRECISION, 1e-290), "{f}: shadow {}", r.shadow);
    }
}
