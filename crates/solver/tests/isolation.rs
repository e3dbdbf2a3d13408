//! Two solver chains in one process do not share state: each counts its own
//! busy threads ([`Workers`]) and numbers its own dumped queries. A process
//! that runs many analyses (one chain each) must not see one analysis's
//! abandoned threads or file numbers in another's.

use fpsym_expr::{Float, Format, Op, Sort, Term};
use fpsym_solver::chain::dump_query;
use fpsym_solver::{
    build_with_workers, Backend, Budget, Detached, Dumping, Portfolio, PortfolioMode, Query, Reason, SolveResult,
    Solver, SolverConfig, SolverError, Workers, OVERSTAY,
};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// `x < 1` over binary32: satisfiable, decided by cp at once.
fn query() -> Query {
    let x = Term::var("x", Sort::Float(Format::BINARY32));
    Query::new(vec![
        Term::app(Op::FpLt, vec![x, Term::fp(Float::from_f32(1.0))]).unwrap()
    ])
}

/// A backend that sleeps `delay` ignoring its budget, then answers unsat.
struct Stubborn {
    delay: Duration,
}

impl Solver for Stubborn {
    fn name(&self) -> String {
        "stubborn".into()
    }
    fn check(&mut self, _: &Query, _: &Budget) -> Result<SolveResult, SolverError> {
        std::thread::sleep(self.delay);
        Ok(SolveResult::Unsat)
    }
}

/// Waits up to `limit` for `w` to have no busy thread; true if it got there.
fn settles(w: &Workers, limit: Duration) -> bool {
    let until = Instant::now() + limit;
    while w.busy() > 0 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(10));
    }
    w.busy() == 0
}

#[test]
fn each_chain_counts_its_own_busy_threads() {
    let delay = Duration::from_secs(2);
    // Chain A: a detached backend that overstays its deadline.
    let a = Workers::new();
    let mut stubborn = Detached::with_workers(Box::new(Stubborn { delay }), &a);
    let r = stubborn
        .check(&query(), &Budget::timeout(Duration::from_millis(100)))
        .unwrap();
    assert_eq!(r, SolveResult::Unknown(Reason::Timeout));
    assert_eq!(a.busy(), 1, "the abandoned thread is counted in its chain");
    assert_eq!(stubborn.workers().busy(), 1);
    // A portfolio counted in the same handle adds to it.
    let mut p = Portfolio::with_workers(vec![Box::new(Stubborn { delay })], PortfolioMode::Parallel, &a);
    let r = p.check(&query(), &Budget::timeout(Duration::from_millis(100))).unwrap();
    assert_eq!(r, SolveResult::Unknown(Reason::Timeout));
    assert_eq!(a.busy(), 2);
    // Chain B, built meanwhile in the same process, sees none of them.
    let b = Workers::new();
    let mut config = SolverConfig::bare(Backend::parse("cp").unwrap());
    config.cache = true;
    config.independence = true;
    let mut chain = build_with_workers(&config, &b);
    assert!(matches!(
        chain
            .check(&query(), &Budget::timeout(Duration::from_secs(10)))
            .unwrap(),
        SolveResult::Sat(_)
    ));
    assert!(settles(&b, OVERSTAY), "chain B's own thread finished");
    assert_eq!(a.busy(), 2, "chain B's work is not counted in chain A");
    // Fresh constructors get a counter of their own.
    assert_eq!(Detached::new(Box::new(Stubborn { delay })).workers().busy(), 0);
    // Chain A's threads end when its backend returns.
    assert!(settles(&a, delay + Duration::from_secs(2)), "busy: {}", a.busy());
}

/// A backend answering unsat at once.
struct Unsat;

impl Solver for Unsat {
    fn name(&self) -> String {
        "unsat".into()
    }
    fn check(&mut self, _: &Query, _: &Budget) -> Result<SolveResult, SolverError> {
        Ok(SolveResult::Unsat)
    }
}

/// An empty scratch directory for `name`.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fpsym-isolation-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The file names in `dir`, sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn each_dumping_numbers_its_own_files() {
    let (d1, d2) = (scratch("one"), scratch("two"));
    let mut one = Dumping::new(Box::new(Unsat), d1.clone());
    let mut two = Dumping::new(Box::new(Unsat), d2.clone());
    let b = Budget::unlimited();
    one.check(&query(), &b).unwrap();
    two.check(&query(), &b).unwrap();
    one.check(&query(), &b).unwrap();
    two.check(&query(), &b).unwrap();
    assert_eq!(files(&d1), ["query-000001.smt2", "query-000002.smt2"]);
    assert_eq!(files(&d2), ["query-000001.smt2", "query-000002.smt2"]);
    // A later instance on the same directory starts at 1 too, and skips
    // the files that exist instead of overwriting them.
    let before = std::fs::read_to_string(d1.join("query-000001.smt2")).unwrap();
    let mut again = Dumping::new(Box::new(Unsat), d1.clone());
    again.check(&query(), &b).unwrap();
    assert_eq!(
        files(&d1),
        ["query-000001.smt2", "query-000002.smt2", "query-000003.smt2"]
    );
    assert_eq!(std::fs::read_to_string(d1.join("query-000001.smt2")).unwrap(), before);
    // The free function numbers from the caller's counter.
    let mut next = 1;
    let p = dump_query(&d2, "other", &mut next, &query(), None, &[]).unwrap();
    assert_eq!(p, d2.join("other-000001.smt2"));
    assert_eq!(next, 2);
    let _ = std::fs::remove_dir_all(&d1);
    let _ = std::fs::remove_dir_all(&d2);
}
