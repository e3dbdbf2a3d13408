//! The local-search backend (`ls`): models for sat-leaning nonlinear
//! queries that cp and z3 do not find in time (Heron's squared area,
//! issue 16), only `sat` or `unknown`, and the budget honoured. Every `sat`
//! here is checked again with `fpsym_expr::eval`, independently of the
//! chain's own validation.

use fpsym_expr::{eval, BvValue, Float, Format, Op, Sort, Term, Value};
use fpsym_solver::ls::{LsConfig, LsSolver};
use fpsym_solver::process::ProcessConfig;
use fpsym_solver::{build, Backend, Budget, Query, Reason, SolveResult, Solver, SolverConfig};
use std::time::{Duration, Instant};

/// The assertions of `examples/smtlib/heron_area.smt2`.
fn heron() -> Query {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/smtlib/heron_area.smt2");
    let src = std::fs::read_to_string(path).expect("examples/smtlib/heron_area.smt2");
    let script = fpsym_smtlib::parse_script(&src, path).expect("parses");
    let assertions = script
        .commands
        .iter()
        .filter_map(|c| match c {
            fpsym_smtlib::Command::Assert(t) => Some(t.clone()),
            _ => None,
        })
        .collect();
    Query::new(assertions)
}

/// Heron's query in the shape of the engine's path conditions: every float
/// also read as bytes, a bit-vector variable per read tied to it by
/// `ite(fp.isNaN f, bits = NaN, f = to_fp(bits))`.
fn heron_from_memory() -> Query {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/smtlib/heron_area.smt2");
    let src = std::fs::read_to_string(path).expect("examples/smtlib/heron_area.smt2");
    let mut extra = String::new();
    for v in ["a", "b", "c"] {
        for k in 0..2 {
            extra += &format!(
                "(declare-const {v}bits{k} (_ BitVec 64))\n(assert (ite (fp.isNaN {v}) (= {v}bits{k} #x7ff8000000000000) (= {v} ((_ to_fp 11 53) {v}bits{k}))))\n"
            );
        }
    }
    let src = src.replacen("(define-fun s ", &format!("{extra}(define-fun s "), 1);
    let script = fpsym_smtlib::parse_script(&src, path).expect("parses");
    let assertions = script
        .commands
        .iter()
        .filter_map(|c| match c {
            fpsym_smtlib::Command::Assert(t) => Some(t.clone()),
            _ => None,
        })
        .collect();
    Query::new(assertions)
}

fn confirm(q: &Query, r: &SolveResult) {
    let SolveResult::Sat(m) = r else {
        panic!("expected sat, got {r:?}")
    };
    for a in &q.assertions {
        assert_eq!(eval(a, m), Ok(Value::Bool(true)), "{a:?} under {m:?}");
    }
}

/// Heron's squared area below -1e-5 for a (floating-point) triangle with
/// sides in [0, 1000]: sat, found by ls and by the default portfolio
/// (where ls is a member) well within a generous budget.
#[test]
fn ls_and_the_portfolio_find_a_negative_heron_area() {
    let q = heron();
    assert_eq!(q.vars().len(), 3);
    let budget = || Budget::timeout(Duration::from_secs(60));
    let mut ls = build(&SolverConfig::bare(Backend::parse("ls").unwrap()));
    let r = ls.check(&q, &budget()).unwrap();
    confirm(&q, &r);
    let mut p = build(&SolverConfig::default());
    let r = p.check(&q, &budget()).unwrap();
    confirm(&q, &r);
    assert_eq!(p.stats().get("portfolio.wins.ls"), Some(&1.0), "{:?}", p.stats());
}

/// The bit-vector copies of the floats are set from them (not searched):
/// the engine-shaped query is found like the plain one.
#[test]
fn ls_sets_the_bits_of_floats_read_from_memory() {
    let q = heron_from_memory();
    assert_eq!(q.vars().len(), 9);
    let mut ls = LsSolver::new(LsConfig::default());
    let r = ls.check(&q, &Budget::timeout(Duration::from_secs(60))).unwrap();
    confirm(&q, &r);
}

/// Several seeds: not a lucky one.
#[test]
fn heron_is_found_from_several_seeds() {
    let q = heron();
    for seed in 1..=5 {
        let mut ls = LsSolver::new(LsConfig::default().with_seed(seed));
        let r = ls.check(&q, &Budget::timeout(Duration::from_secs(60))).unwrap();
        confirm(&q, &r);
    }
}

/// An unsat query: ls never answers unsat, and stops at the deadline.
#[test]
fn ls_answers_unknown_on_unsat_queries_by_the_deadline() {
    let x = Term::var("x", Sort::Float(Format::BINARY64));
    let c = |v: f64| Term::fp(Float::from_f64(v));
    let q = Query::new(vec![
        Term::mk(Op::FpLt, vec![x.clone(), c(1.0)]),
        Term::mk(Op::FpGt, vec![x.clone(), c(2.0)]),
    ]);
    let mut ls = LsSolver::new(LsConfig::default());
    let start = Instant::now();
    let r = ls.check(&q, &Budget::timeout(Duration::from_millis(300))).unwrap();
    assert_eq!(r, SolveResult::Unknown(Reason::Timeout));
    assert!(start.elapsed() < Duration::from_millis(600), "{:?}", start.elapsed());
    // Without a deadline: its own limit, then incomplete (never unsat).
    let mut cfg = LsConfig::default();
    cfg.unbounded_time = Duration::from_millis(200);
    let mut ls = LsSolver::new(cfg);
    let r = ls.check(&q, &Budget::unlimited()).unwrap();
    assert!(matches!(r, SolveResult::Unknown(Reason::Incomplete(_))), "{r:?}");
    // No variables at all: true is sat (empty model), false stays unknown.
    let closed = |a: f64, b: f64| Query::new(vec![Term::mk(Op::FpLt, vec![c(a), c(b)])]);
    let r = ls
        .check(&closed(1.0, 2.0), &Budget::timeout(Duration::from_secs(5)))
        .unwrap();
    assert!(matches!(&r, SolveResult::Sat(m) if m.is_empty()), "{r:?}");
    let r = ls
        .check(&closed(2.0, 1.0), &Budget::timeout(Duration::from_secs(5)))
        .unwrap();
    assert!(matches!(r, SolveResult::Unknown(_)), "{r:?}");
}

/// Other sorts: a binary32 product hitting 7 exactly under a rounding mode
/// that is a variable (not RNE), and a 16-bit square.
#[test]
fn ls_finds_models_over_floats_bit_vectors_and_rounding_modes() {
    let x = Term::var("x", Sort::Float(Format::BINARY32));
    let y = Term::var("y", Sort::Float(Format::BINARY32));
    let rm = Term::var("rm", Sort::RoundingMode);
    let c = |v: f32| Term::fp(Float::from_f32(v));
    let prod = Term::mk(Op::FpMul, vec![rm.clone(), x.clone(), y.clone()]);
    let q = Query::new(vec![
        Term::mk(Op::FpEq, vec![prod, c(7.0)]),
        Term::mk(Op::FpGt, vec![x.clone(), c(1.5)]),
        Term::mk(Op::FpLt, vec![x.clone(), c(1.75)]),
        Term::mk(
            Op::Not,
            vec![Term::mk(
                Op::Eq,
                vec![rm.clone(), Term::rm(fpsym_expr::RoundingMode::NearestTiesToEven)],
            )],
        ),
    ]);
    let mut ls = LsSolver::new(LsConfig::default());
    let r = ls.check(&q, &Budget::timeout(Duration::from_secs(30))).unwrap();
    confirm(&q, &r);

    let b = Term::var("b", Sort::BitVec(16));
    let sq = Term::mk(Op::BvMul, vec![b.clone(), b.clone()]);
    let q = Query::new(vec![
        Term::mk(Op::Eq, vec![sq, Term::bv(16, 12321)]),
        Term::mk(Op::BvUgt, vec![b.clone(), Term::bv(16, 100)]),
    ]);
    let r = ls.check(&q, &Budget::timeout(Duration::from_secs(30))).unwrap();
    confirm(&q, &r);
    let SolveResult::Sat(m) = r else { unreachable!() };
    assert_eq!(
        m.get(&b)
            .and_then(|v| v.as_bv())
            .map(BvValue::bits)
            .map(|v| (v * v) & 0xffff),
        Some(12321)
    );
}

/// cvc5 (a process) joins the portfolio when configured, after z3, and the
/// portfolio still answers (a nonlinear binary64 query cp decides at once).
#[test]
fn cvc5_joins_the_portfolio() {
    let installed =
        std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("cvc5").is_file()));
    assert!(
        installed,
        "cvc5 is not installed: apt-get install cvc5 (Debian package cvc5)"
    );
    let mut config = SolverConfig::default();
    config
        .portfolio_processes
        .push(ProcessConfig::parse("cvc5 --lang smt2").unwrap());
    let mut p = build(&config);
    assert!(p.name().contains("process:cvc5 --lang smt2"), "{}", p.name());
    let x = Term::var("x", Sort::Float(Format::BINARY64));
    let rne = Term::rm(fpsym_expr::RoundingMode::NearestTiesToEven);
    let sq = Term::mk(Op::FpMul, vec![rne, x.clone(), x.clone()]);
    let q = Query::new(vec![Term::mk(Op::FpEq, vec![sq, Term::fp(Float::from_f64(2.25))])]);
    let r = p.check(&q, &Budget::timeout(Duration::from_secs(60))).unwrap();
    confirm(&q, &r);
    let stats = p.stats();
    assert!(
        stats.contains_key("portfolio.wins.process:cvc5 --lang smt2"),
        "cvc5 is a member: {stats:?}"
    );
}
