//! k-induction's start state (`fpsym_engine::induction`): which globals the
//! step case makes arbitrary, which programs it declines, and that a global
//! the loop changes is not taken at its initial value (which would prove a
//! reachable error unreachable).

use fpsym_engine::induction::{self, Outcome};
use fpsym_engine::{Config, Property};
use fpsym_frontend::{CompileOptions, Program};
use std::path::Path;
use std::time::{Duration, Instant};

const PRELUDE: &str = "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n";

fn build(name: &str, source: &str) -> Program {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("induction").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a work directory");
    let c = dir.join(format!("{name}.c"));
    std::fs::write(&c, format!("{PRELUDE}{source}")).expect("the fixture is written");
    fpsym_frontend::build(&[c], &CompileOptions::default(), &dir)
        .unwrap_or_else(|e| panic!("{name}.c does not build (clang-14 is needed): {e}"))
}

fn config() -> Config {
    let mut c = Config::default();
    c.goals.property = Property::UnreachCall;
    c
}

/// k-induction with the z3 binary (Debian package `z3`, which
/// scripts/bootstrap installs): these programs' queries are over integers,
/// where z3 answers at once. A process, not the in-process backend: the
/// engine's tree, dev-dependencies included, holds no libz3 (see
/// crates/solver/tests/features.rs).
fn prove(p: &Program) -> Outcome {
    let z3 = fpsym_solver::process::ProcessConfig::parse("z3 -in").expect("a command line");
    let mut solver = fpsym_solver::build(&fpsym_solver::SolverConfig::bare(fpsym_solver::Backend::Process(z3)));
    let none = |_: &fpsym_frontend::llvm_ir::Name| Vec::new();
    induction::prove(
        p,
        solver.as_mut(),
        &config(),
        &induction::Options {
            facts: &none,
            max_k: 4,
            deadline: Instant::now() + Duration::from_secs(20),
            interrupt: Default::default(),
        },
    )
}

fn global(p: &Program, name: &str) -> bool {
    let g = p
        .module
        .global_vars
        .iter()
        .find(|g| fpsym_engine::exec::operand::name_str(&g.name) == name)
        .unwrap_or_else(|| panic!("no global {name}"));
    induction::written(&p.module, &g.name)
}

#[test]
fn every_way_of_writing_a_global_counts() {
    let p = build(
        "writes",
        r#"
int only_read = 3, stored, by_call, by_pointer, elements[4], by_alias;
int *const alias = &by_alias;
void set(int *p) { *p = 1; }
int main(void) {
  int *q = &by_pointer;
  stored = only_read;
  set(&by_call);
  *q = 2;
  elements[__VERIFIER_nondet_int() & 3] = 5;
  *alias = 7;
  return only_read;
}
"#,
    );
    assert!(!global(&p, "only_read"));
    for g in ["stored", "by_call", "by_pointer", "elements", "by_alias"] {
        assert!(global(&p, g), "`{g}` is written");
    }
}

#[test]
fn a_global_the_loop_changes_starts_arbitrary() {
    // reach_error is reachable after five iterations; from g's initial
    // value the step case (k = 1) would see no error and the base case none
    // within one iteration: a wrong proof if g were not made arbitrary.
    let p = build(
        "counter",
        r#"
int g = 0;
int main(void) {
  while (__VERIFIER_nondet_int()) {
    if (g == 5) reach_error();
    if (g < 10) g++;
  }
  return 0;
}
"#,
    );
    let o = prove(&p);
    assert!(!matches!(o, Outcome::Proved { .. }), "{o:?}");
}

#[test]
fn an_inductive_property_is_proved_and_its_base_case_bugs_found() {
    let p = build(
        "inductive",
        r#"
int main(void) {
  int a = 0, b = 0;
  while (__VERIFIER_nondet_int()) {
    if (a == b) a++; else b++;
    if (a - b < 0 || a - b > 1) reach_error();
    if (a > 1000) { a = 0; b = 0; }
  }
  return 0;
}
"#,
    );
    let o = prove(&p);
    assert!(matches!(o, Outcome::Proved { k: 1, .. }), "{o:?}");
    // inductive (x is 1 after any iteration), but the first iteration fails
    let bug = build(
        "base_bug",
        r#"
int main(void) {
  int x = 0;
  while (__VERIFIER_nondet_int()) {
    if (x == 0) reach_error();
    x = 1;
  }
  return 0;
}
"#,
    );
    match prove(&bug) {
        Outcome::Found(s, f) => assert!(s.stats.findings > 0 && !f.is_empty()),
        o => panic!("the base case must find the error of the first iteration: {o:?}"),
    }
}

#[test]
fn programs_with_state_the_head_cannot_have_are_declined() {
    let rand = build(
        "rand",
        "extern int rand(void);\nint main(void) { int x = 0; while (__VERIFIER_nondet_int()) { x = rand(); if (x < 0) reach_error(); } return 0; }\n",
    );
    let why = induction::applicable(&rand, &config()).unwrap_err();
    assert!(why.contains("`rand`"), "{why}");
    let pointer = build(
        "pointer",
        "int a, b; int *p = &a;\nint main(void) { while (__VERIFIER_nondet_int()) { p = p == &a ? &b : &a; if (p == 0) reach_error(); } return 0; }\n",
    );
    let why = induction::applicable(&pointer, &config()).unwrap_err();
    assert!(why.contains("global `p` holds a pointer"), "{why}");
    assert!(matches!(prove(&pointer), Outcome::Unknown(_)));
}

/// Checks `facts` (by the register of the head's phi, `x.0`, read from the
/// IR) at the loop head of `p` with the z3 binary.
fn check(p: &Program, facts: &[induction::Fact]) -> Vec<Option<bool>> {
    check_linear(p, facts, &[])
}

/// [`check`] with linear constraints too (answered after the facts).
fn check_linear(p: &Program, facts: &[induction::Fact], linear: &[induction::LinearFact]) -> Vec<Option<bool>> {
    let z3 = fpsym_solver::process::ProcessConfig::parse("z3 -in").expect("a command line");
    let mut solver = fpsym_solver::build(&fpsym_solver::SolverConfig::bare(fpsym_solver::Backend::Process(z3)));
    let head = induction::heads(p).into_iter().next().expect("main has a loop");
    induction::check_invariants(
        p,
        solver.as_mut(),
        &config(),
        &head,
        facts,
        linear,
        Duration::from_secs(30),
        Default::default(),
    )
    .expect("the check applies")
}

#[test]
fn an_invariant_check_answers_per_range_whether_it_is_inductive() {
    // x counts up by 0.5 from 0 and wraps to 0 past 10: x in [0, 10] is
    // inductive; [0, 5] holds at the entry but not after an iteration;
    // [1, 10] does not hold at the entry; the whole float line is.
    let p = build(
        "invariant_check",
        r#"
int main(void) {
  double x = 0.0;
  while (__VERIFIER_nondet_int()) {
    x = x + 0.5;
    if (x > 10.0) x = 0.0;
  }
  if (x > 20.0) reach_error();
  return 0;
}
"#,
    );
    let f = |lo: f64, hi: f64, nan: bool| induction::Fact {
        var: induction::HeadVar::Register(fpsym_frontend::llvm_ir::Name::from("x.0")),
        range: induction::Range::Float {
            bounds: Some((fpsym_float::Float::from_f64(lo), fpsym_float::Float::from_f64(hi))),
            nan,
        },
    };
    // Each fact alone: an inductive one, and ones failing in the step and
    // in the base case.
    assert_eq!(check(&p, &[f(0.0, 10.0, false)]), vec![Some(true)]);
    assert_eq!(check(&p, &[f(0.0, 5.0, false)]), vec![Some(false)]);
    assert_eq!(check(&p, &[f(1.0, 10.0, false)]), vec![Some(false)]);
    assert_eq!(
        check(&p, &[f(f64::NEG_INFINITY, f64::INFINITY, true)]),
        vec![Some(true)]
    );
    // Together: each is checked assuming all, so the failing one does not
    // hide the inductive one.
    assert_eq!(
        check(&p, &[f(0.0, 10.0, false), f(0.0, 5.0, false)]),
        vec![Some(true), Some(false)]
    );
}

#[test]
fn an_invariant_check_asks_whether_a_linear_constraint_is_inductive() {
    // x and y swap and halve: x + y and x - y shrink toward 0, so bounds of
    // them hold at the entry (x + y = 10, x - y = -4) and are kept; x + 2y
    // in [-10, 20] holds at the entry (17) but not from x = 100, y = -45.
    // Sums are asked in directed rounding: an answer shows a constraint
    // inductive, or leaves it undecided.
    let p = build(
        "linear_check",
        r#"
int main(void) {
  double x = 3.0, y = 7.0;
  while (__VERIFIER_nondet_int()) {
    double t = x;
    x = y * 0.5;
    y = t * 0.5;
  }
  if (x + y > 20.0) reach_error();
  return 0;
}
"#,
    );
    let reg = |n: &str| induction::HeadVar::Register(fpsym_frontend::llvm_ir::Name::from(n));
    let d = fpsym_float::Float::from_f64;
    let range = |n: &str| induction::Fact {
        var: reg(n),
        range: induction::Range::Float {
            bounds: Some((d(-100.0), d(100.0))),
            nan: false,
        },
    };
    let sum = |cy: f64, lo: f64, hi: f64| induction::LinearFact {
        terms: vec![(reg("x.0"), d(1.0)), (reg("y.0"), d(cy))],
        lo: Some(d(lo)),
        hi: Some(d(hi)),
    };
    let facts = [range("x.0"), range("y.0")];
    assert_eq!(
        check_linear(&p, &facts, &[sum(1.0, -10.0, 10.0), sum(-1.0, -10.0, 10.0)]),
        vec![Some(true); 4]
    );
    assert_eq!(
        check_linear(&p, &facts, &[sum(1.0, -10.0, 10.0), sum(2.0, -10.0, 20.0)]),
        vec![Some(true), Some(true), Some(true), None]
    );
    // Not at the entry: undecided too (never inductive).
    assert_eq!(check_linear(&p, &facts, &[sum(1.0, 11.0, 12.0)])[2], None);
}
