//! User hooks from outside the engine: a hook registered in
//! `Extensions::hooks` models a function the program only declares, overrides
//! fpsym's built-in model, and overrides the program's own body (the
//! precedence documented in `fpsym_engine::hooks`).

use fpsym_engine::exec::{End, Exec, ExecError, Outcome};
use fpsym_engine::hooks::{Hook, HookCall, UserHooks};
use fpsym_engine::report::{Collect, Event, FindingKind, PathEnd};
use fpsym_engine::state::State;
use fpsym_engine::term::{bv, mk, rm};
use fpsym_engine::value::Val;
use fpsym_engine::{Config, RunContext, Summary, Verdict};
use fpsym_expr::{Op, Sort, Term};
use fpsym_float::{Float, Format, RoundingMode};
use fpsym_frontend::CompileOptions;
use fpsym_solver::{Backend, SolverConfig};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Compiles `source` as `NAME.c` and runs it with `hooks` and the cp
/// backend, collecting what the run reports.
fn run_c(name: &str, source: &str, hooks: UserHooks) -> (Summary, Collect) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hooks").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a work directory");
    let c = dir.join(format!("{name}.c"));
    std::fs::write(&c, source).expect("the fixture is written");
    let program = fpsym_frontend::build(&[c], &CompileOptions::default(), &dir)
        .unwrap_or_else(|e| panic!("{name}.c does not build (clang-14 is needed): {e}"));
    let mut solver = fpsym_solver::build(&SolverConfig::bare(Backend::Cp(Default::default())));
    let mut config = Config::default();
    config.extensions.hooks = hooks;
    let mut sink = Collect::default();
    let summary = fpsym_engine::run(
        &program,
        solver.as_mut(),
        &config,
        &mut sink,
        &mut RunContext::default(),
    )
    .expect("the run starts");
    (summary, sink)
}

/// A double constant.
fn double(x: f64) -> Term {
    Term::fp(Float::from_f64(x))
}

/// Returns `value` and counts its calls.
struct Returns {
    value: f64,
    calls: Arc<AtomicUsize>,
}

impl Returns {
    fn new(value: f64) -> (Returns, Arc<AtomicUsize>) {
        let calls = Arc::new(AtomicUsize::new(0));
        (
            Returns {
                value,
                calls: calls.clone(),
            },
            calls,
        )
    }
}

impl Hook for Returns {
    fn call(&self, _ex: &mut Exec<'_, '_>, st: &mut State, call: &HookCall<'_>) -> Result<Outcome, ExecError> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        call.ret(st, Val::Fp(double(self.value)));
        Ok(Outcome::Continue)
    }
}

/// `sensor()`: a fresh `double` input on every call.
struct Sensor;

impl Hook for Sensor {
    fn call(&self, ex: &mut Exec<'_, '_>, st: &mut State, call: &HookCall<'_>) -> Result<Outcome, ExecError> {
        let v = ex.fresh_input(st, "sensor", Sort::Float(Format::BINARY64), "double");
        call.ret(st, Val::Fp(v));
        Ok(Outcome::Continue)
    }
}

const SENSOR: &str = r#"
#include <stdlib.h>
double sensor(void);
int main(void) {
    double x = sensor();
    if (x == 3.0)
        abort();
    return 0;
}
"#;

/// Rank 4 without a hook: a declared-only function ends the path partial.
#[test]
fn declared_function_without_a_hook_is_external() {
    let (summary, out) = run_c("sensor_external", SENSOR, UserHooks::new());
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    assert!(
        out.events
            .iter()
            .any(|e| matches!(e, Event::ExternalCall { function, .. } if function == "sensor")),
        "{:?}",
        out.events
    );
    assert!(
        matches!(summary.verdict, Verdict::Incomplete(_)),
        "{:?}",
        summary.verdict
    );
}

/// Rank 1 for a function the program only declares: the hook's result is
/// used, the path where `sensor()` returns 3.0 aborts.
#[test]
fn user_hook_models_a_declared_function() {
    let (summary, out) = run_c("sensor_hooked", SENSOR, UserHooks::new().with("sensor", Sensor));
    assert_eq!(summary.verdict, Verdict::BugFound);
    assert_eq!(out.findings.len(), 1, "{:?}", out.findings);
    let f = &out.findings[0];
    assert_eq!(f.kind, FindingKind::Abort);
    let test = out.tests.iter().find(|t| t.id == f.test).expect("the finding's test");
    let sensor = test
        .objects
        .iter()
        .find(|o| o.name == "sensor")
        .expect("sensor is an input");
    let v: f64 = sensor
        .value
        .as_deref()
        .expect("a scalar value")
        .parse()
        .expect("a number");
    assert_eq!(v, 3.0);
    // The other path exits normally; nothing was external.
    assert!(out.tests.iter().any(|t| t.end == PathEnd::Exit(0)));
    assert!(!out.events.iter().any(|e| matches!(e, Event::ExternalCall { .. })));
}

const SQRT: &str = r#"
#include <math.h>
#include <stdlib.h>
extern double __VERIFIER_nondet_double(void);
int main(void) {
    double x = __VERIFIER_nondet_double();
    if (x == 4.0 && sqrt(x) < 0.0)
        abort();
    return 0;
}
"#;

/// Rank 1 over rank 2: a hook for `sqrt` replaces fpsym's exact model.
#[test]
fn user_hook_overrides_a_built_in_model() {
    // fpsym's model: sqrt(4) = 2, no bug anywhere.
    let (summary, out) = run_c("sqrt_built_in", SQRT, UserHooks::new());
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    assert_eq!(summary.verdict, Verdict::Verified);

    let (hook, calls) = Returns::new(-1.0);
    let (summary, out) = run_c("sqrt_hooked", SQRT, UserHooks::new().with("sqrt", hook));
    assert_eq!(summary.verdict, Verdict::BugFound);
    assert_eq!(out.findings.len(), 1, "{:?}", out.findings);
    assert_eq!(out.findings[0].kind, FindingKind::Abort);
    assert_eq!(calls.load(Ordering::Relaxed), 1);
}

/// Rank 1 over a failure point's model: `abort` hooked to exit with 7.
#[test]
fn user_hook_overrides_a_failure_point() {
    let source = "#include <stdlib.h>\nint main(void) { abort(); }\n";
    let exit7 = |_ex: &mut Exec<'_, '_>, _st: &mut State, _call: &HookCall<'_>| Ok(Outcome::End(End::Exit(bv(32, 7))));
    let (_, out) = run_c("abort_hooked", source, UserHooks::new().with("abort", exit7));
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    assert_eq!(out.tests.len(), 1);
    assert_eq!(out.tests[0].end, PathEnd::Exit(7));
}

const SCALE: &str = r#"
#include <stdlib.h>
double scale(double x) { return 2.0 * x; }
int main(void) {
    if (scale(1.0) == 5.0)
        abort();
    return 0;
}
"#;

/// `scale(x)` as `5·x`: reads its argument.
fn five_times(_ex: &mut Exec<'_, '_>, st: &mut State, call: &HookCall<'_>) -> Result<Outcome, ExecError> {
    let x = call.fp_arg(0)?;
    let r = mk(Op::FpMul, vec![rm(RoundingMode::NearestTiesToEven), double(5.0), x]);
    call.ret(st, Val::Fp(r));
    Ok(Outcome::Continue)
}

/// Rank 1 over rank 3: a hook for a function the program defines runs
/// instead of its body.
#[test]
fn user_hook_overrides_the_ir_body() {
    let (summary, out) = run_c("scale_body", SCALE, UserHooks::new());
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    assert_eq!(summary.verdict, Verdict::Verified);

    let (summary, out) = run_c("scale_hooked", SCALE, UserHooks::new().with("scale", five_times));
    assert_eq!(summary.verdict, Verdict::BugFound);
    assert_eq!(out.findings.len(), 1, "{:?}", out.findings);
    assert_eq!(out.findings[0].kind, FindingKind::Abort);
}

const OWN_SIN: &str = r#"
#include <stdlib.h>
double sin(double x) { return x + 7.0; }
int main(void) {
    if (sin(0.0) == 7.0)
        abort();
    return 0;
}
"#;

/// A program's own C library function wins over fpsym's model (rank 3
/// before rank 2), and a user hook wins over both.
#[test]
fn own_c_library_function_beats_the_model_and_a_hook_beats_both() {
    let (_, out) = run_c("own_sin", OWN_SIN, UserHooks::new());
    assert_eq!(out.findings.len(), 1, "the program's sin runs: {:?}", out.findings);
    assert!(
        !out.events.iter().any(|e| matches!(e, Event::Concretized { .. })),
        "fpsym's sin (concretized) did not run: {:?}",
        out.events
    );

    let (hook, calls) = Returns::new(0.0);
    let (summary, out) = run_c("own_sin_hooked", OWN_SIN, UserHooks::new().with("sin", hook));
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    assert_eq!(summary.verdict, Verdict::Verified);
    assert_eq!(calls.load(Ordering::Relaxed), 1);
}

/// The hooks print as their names (Config is Debug).
#[test]
fn user_hooks_print_their_names() {
    let hooks = UserHooks::new().with("b", Sensor).with("a", five_times);
    assert_eq!(format!("{hooks:?}"), r#"{"a", "b"}"#);
    let mut config = Config::default();
    config.extensions.hooks = hooks;
    assert!(format!("{config:?}").contains(r#"hooks: {"a", "b"}"#));
}
