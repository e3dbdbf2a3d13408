//! The `Solver` interface and fpsym's solver backends.
//!
//! A [`Solver`] decides a [`Query`]: is there an assignment of the free
//! variables that makes every assertion true? It answers
//! [`SolveResult::Sat`] with a [`Model`], [`SolveResult::Unsat`], or
//! [`SolveResult::Unknown`] with a [`Reason`]. Budgets and timeouts are
//! values, never panics.
//!
//! Backends (z3, cp, external processes) and decorators (validation, cache,
//! counterexample reuse, independence, portfolio, cross-check, logging) are
//! all `Solver`s; [`build`] assembles them from a [`SolverConfig`] in one
//! place. Every chain [`build`] returns ends in
//! [`Validated`]: a `Sat` model that does not satisfy its query under the
//! exact semantics of `fpsym-expr` is an internal error, never an answer.
//!
//! Detached backends and portfolios run on threads of their own; they are
//! counted in a [`Workers`] handle per chain ([`build_with_workers`]), not
//! in process-wide state, so that several chains in one process do not see
//! each other's threads.
//!
//! # Cargo features
//!
//! - `z3` (default): the in-process Z3 backend (module `z3`, linking
//!   libz3 through the `z3` and `z3-sys` crates). Without it the crate
//!   builds with no libz3 at all (the engine depends on it that way: on the
//!   [`Solver`] trait only); [`Backend::Z3`] still parses and builds, but
//!   as a solver that answers every query
//!   `Unknown(Reason::Unsupported("fpsym-solver was built without the z3 feature"))`
//!   (chosen over an error so that [`build`] stays infallible and a chain
//!   naming z3, e.g. as cross-check, still runs), and
//!   [`Backend::Portfolio`] runs cp alone.
#![deny(missing_docs)]

pub mod chain;
pub mod cp;
pub mod ls;
pub mod process;
pub mod script;
mod validate;
#[cfg(feature = "z3")]
pub mod z3;

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use chain::{
    Cached, CexReuse, CrossChecked, Detached, Dumping, Independent, Portfolio, PortfolioMode, Slice, Workers, OVERSTAY,
};
pub use fpsym_expr::{Model, Term};
pub use validate::Validated;

/// A satisfiability query: the conjunction of `assertions` (Boolean terms).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query {
    /// The constraints; the query asks whether all can hold at once.
    pub assertions: Vec<Term>,
}

impl Query {
    /// A query over the given assertions.
    pub fn new(assertions: Vec<Term>) -> Query {
        Query { assertions }
    }
    /// The free variables of all assertions, in first-occurrence order.
    pub fn vars(&self) -> Vec<Term> {
        // One walk: a path condition's assertions share most subterms.
        Term::vars_of(&self.assertions)
    }
}

/// How much a solver may spend on one query: a wall-clock deadline and a
/// cancellation flag another thread may raise (the portfolio cancels the
/// loser that way). Backends poll [`Budget::expired`].
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// Wall-clock deadline; None means no limit.
    pub deadline: Option<Instant>,
    /// Raised (set to true) to stop the solver early; None means never.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// No limit.
    pub fn unlimited() -> Budget {
        Budget::default()
    }
    /// At most `d` from now.
    pub fn timeout(d: Duration) -> Budget {
        Budget {
            deadline: Instant::now().checked_add(d),
            cancel: None,
        }
    }
    /// Until `deadline` (None: no limit).
    pub fn until(deadline: Option<Instant>) -> Budget {
        Budget { deadline, cancel: None }
    }
    /// The same budget, cut to end no later than `d` from now.
    pub fn at_most(&self, d: Duration) -> Budget {
        let mut b = self.clone();
        if let Some(end) = Instant::now().checked_add(d) {
            b.deadline = Some(b.deadline.map_or(end, |x| x.min(end)));
        }
        b
    }
    /// The same deadline with the cancellation flag `flag` in place of
    /// `self`'s (the caller keeps a clone of `flag` to raise it). A caller
    /// that must also obey `self`'s flag polls it and raises `flag`.
    pub fn with_cancel(&self, flag: Arc<AtomicBool>) -> Budget {
        Budget {
            deadline: self.deadline,
            cancel: Some(flag),
        }
    }
    /// Time left, if limited (zero once the deadline has passed or the
    /// budget was cancelled).
    pub fn remaining(&self) -> Option<Duration> {
        if self.cancelled() {
            return Some(Duration::ZERO);
        }
        self.deadline.map(|d| d.saturating_duration_since(Instant::now()))
    }
    /// True once the cancellation flag was raised.
    pub fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
    }
    /// True once the deadline has passed or the budget was cancelled.
    pub fn expired(&self) -> bool {
        self.cancelled() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Why a solver could not decide a query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The budget ran out.
    Timeout,
    /// The strategy is incomplete and found nothing.
    Incomplete(String),
    /// The query uses something this backend does not handle.
    Unsupported(String),
    /// The backend itself gave up (e.g. Z3's `unknown` with its reason).
    Backend(String),
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Timeout => f.write_str("timeout"),
            Reason::Incomplete(s) => write!(f, "incomplete: {s}"),
            Reason::Unsupported(s) => write!(f, "unsupported: {s}"),
            Reason::Backend(s) => write!(f, "backend: {s}"),
        }
    }
}

/// A solver's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveResult {
    /// Satisfiable, with a model assigning every variable of the query.
    Sat(Model),
    /// Unsatisfiable under the exact IEEE semantics.
    Unsat,
    /// Not decided.
    Unknown(Reason),
}

impl SolveResult {
    /// `sat`, `unsat` or `unknown`.
    pub fn label(&self) -> &'static str {
        match self {
            SolveResult::Sat(_) => "sat",
            SolveResult::Unsat => "unsat",
            SolveResult::Unknown(_) => "unknown",
        }
    }
}

/// A failure that is not an answer: a bug in fpsym or in a backend.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolverError {
    /// A backend returned a model that does not satisfy the query.
    #[error("{backend} returned a model that does not satisfy assertion {assertion}: {detail}")]
    InvalidModel {
        /// Which backend.
        backend: String,
        /// Index of the first violated assertion.
        assertion: usize,
        /// The violated assertion and the model, printed.
        detail: String,
    },
    /// Two backends gave opposite definite answers (`--cross-check`).
    #[error(
        "disagreement: {primary} says {primary_answer}, {secondary} says {secondary_answer}; query written to {file}"
    )]
    Disagreement {
        /// The backend answering.
        primary: String,
        /// Its answer (`sat` or `unsat`).
        primary_answer: String,
        /// The backend checking.
        secondary: String,
        /// Its answer.
        secondary_answer: String,
        /// Where the query was written.
        file: String,
    },
    /// The backend failed in a way that is not an `unknown` answer.
    #[error("{backend}: {message}")]
    Backend {
        /// Which backend.
        backend: String,
        /// What went wrong.
        message: String,
    },
}

/// Decides queries. Why this shape: one method, so decorators (validation,
/// cache, portfolio, ...) are `Solver`s wrapping `Solver`s and the callers
/// never know which chain they hold; `&mut self` because decorators keep
/// state (caches, statistics).
pub trait Solver: Send {
    /// A short name for messages and statistics (`z3`, `cp`, ...).
    fn name(&self) -> String;
    /// Decides whether the conjunction of `query.assertions` is satisfiable
    /// within `budget`. A `Sat` model assigns every variable of the query.
    fn check(&mut self, query: &Query, budget: &Budget) -> Result<SolveResult, SolverError>;
    /// Counters and timings accumulated so far (name → value).
    fn stats(&self) -> BTreeMap<String, f64> {
        BTreeMap::new()
    }
    /// Takes note of `result`, a definite answer to `query` that another
    /// solver gave (a retry's, on a thread of its own), as if this one had
    /// given it: the caches of the chain remember it. The caller vouches
    /// for it (a model satisfies the query). Default: nothing.
    fn learn(&mut self, query: &Query, result: &SolveResult) {
        let _ = (query, result);
    }
}

/// Which backend decides queries.
#[derive(Clone, Debug, PartialEq, Default)]
#[non_exhaustive]
pub enum Backend {
    /// Z3 in process (libz3). Without the `z3` feature: a solver answering
    /// `Unknown(Unsupported)` to every query.
    Z3,
    /// fpsym's native constraint solver over floats (`cp`).
    Cp(cp::CpConfig),
    /// An external solver binary speaking SMT-LIB 2 on a pipe.
    Process(process::ProcessConfig),
    /// Local search over float ordinals (`ls`): answers only `sat` (with a
    /// model confirmed by exact evaluation) or `unknown`.
    Ls(ls::LsConfig),
    /// Several backends on one query: cp, ls, z3 and the solver processes
    /// of [`SolverConfig::portfolio_processes`] (cvc5 when the CLI finds
    /// it), combined as [`SolverConfig::portfolio`] says (no z3 without the
    /// `z3` feature).
    #[default]
    Portfolio,
}

impl Backend {
    /// Parses a backend as given on the command line: `z3`, `cp`, `ls`,
    /// `portfolio`, or `process:COMMAND ARGS…` (e.g. `process:z3 -in`).
    pub fn parse(s: &str) -> Option<Backend> {
        match s {
            "z3" => Some(Backend::Z3),
            "cp" => Some(Backend::Cp(cp::CpConfig::default())),
            "ls" => Some(Backend::Ls(ls::LsConfig::default())),
            "portfolio" => Some(Backend::Portfolio),
            _ => s
                .strip_prefix("process:")
                .and_then(process::ProcessConfig::parse)
                .map(Backend::Process),
        }
    }
}

/// How to assemble the solver chain.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct SolverConfig {
    /// The backend. Default: the portfolio.
    pub backend: Backend,
    /// The cp configuration used wherever cp runs inside a portfolio.
    pub cp: cp::CpConfig,
    /// How the portfolio combines its members. Default: sequential, cp with
    /// a fifth of the remaining time (at most 2 s), ls with a tenth (at most
    /// 2 s), then z3 (half of what is left when solver processes follow,
    /// else all), then the processes; members cut off by their slice run
    /// again when others gave up early. Before ls and cvc5 joined, on the QF_FP
    /// corpus (10 s per file, one job) it solved 109 files against 106 for
    /// the parallel portfolio, with a lower PAR-2.
    pub portfolio: PortfolioMode,
    /// Ask every query also of this backend; a sat/unsat disagreement is an
    /// error.
    pub cross_check: Option<Backend>,
    /// Solver processes that join the portfolio after z3 (the CLI adds
    /// `cvc5 --lang smt2` when `cvc5` is on `PATH`). Default: none.
    pub portfolio_processes: Vec<process::ProcessConfig>,
    /// The local search's configuration (in the portfolio and for
    /// `--solver ls`). Default: `LsConfig::default()`.
    pub ls: ls::LsConfig,
    /// Write every query that reaches a backend to this directory.
    pub dump_queries: Option<PathBuf>,
    /// Exact query cache and counterexample reuse. Default: on.
    pub cache: bool,
    /// Constraint independence. Default: on.
    pub independence: bool,
    /// Z3's resource limit per query (see [`z3::Z3Solver::with_rlimit`]),
    /// wherever z3 runs. Default: none (time budgets only).
    pub z3_rlimit: Option<u32>,
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            backend: Backend::default(),
            cp: cp::CpConfig::default(),
            portfolio: STAGED,
            cross_check: None,
            portfolio_processes: Vec::new(),
            ls: ls::LsConfig::default(),
            dump_queries: None,
            cache: true,
            independence: true,
            z3_rlimit: None,
        }
    }
}

impl SolverConfig {
    /// Only `backend` (plus model validation and deadline enforcement): no
    /// cache, no independence, no cross-check, no logging.
    pub fn bare(backend: Backend) -> SolverConfig {
        let cp = match &backend {
            Backend::Cp(c) => c.clone(),
            _ => cp::CpConfig::default(),
        };
        SolverConfig {
            backend,
            cp,
            cache: false,
            independence: false,
            ..SolverConfig::default()
        }
    }
}

/// Answers kept by the query cache before it is emptied.
const CACHE_CAPACITY: usize = 100_000;
/// Definite answers remembered for counterexample reuse.
const CEX_CAPACITY: usize = 512;
/// Earlier models evaluated per query by counterexample reuse.
const CEX_TRIES: usize = 32;

/// The in-process Z3 backend.
#[cfg(feature = "z3")]
fn z3_backend(rlimit: Option<u32>) -> Box<dyn Solver> {
    Box::new(rlimit.map_or_else(z3::Z3Solver::new, z3::Z3Solver::with_rlimit))
}

/// Without the `z3` feature: a stand-in answering `Unknown(Unsupported)`.
#[cfg(not(feature = "z3"))]
fn z3_backend(_rlimit: Option<u32>) -> Box<dyn Solver> {
    Box::new(NoZ3)
}

/// What [`Backend::Z3`] builds without the `z3` feature.
#[cfg(not(feature = "z3"))]
struct NoZ3;

#[cfg(not(feature = "z3"))]
impl Solver for NoZ3 {
    fn name(&self) -> String {
        "z3".into()
    }

    /// Decides nothing: `Unknown(Unsupported)` for every query.
    fn check(&mut self, _query: &Query, _budget: &Budget) -> Result<SolveResult, SolverError> {
        Ok(SolveResult::Unknown(Reason::Unsupported(
            "fpsym-solver was built without the z3 feature".into(),
        )))
    }
}

/// The local search's first-round slice in the sequential portfolio: a
/// tenth of the remaining time, at most 2 s (on sat-leaning nonlinear
/// queries it answers in well under a second or not at all; it gets more
/// time in the second round when others gave up early).
const LS_SLICE: Slice = Slice {
    share: 0.1,
    cap: Duration::from_secs(2),
};

/// The default portfolio mode: the members start a twentieth of the time
/// left apart (at most 250 ms), each running on until one decides.
pub const STAGED: PortfolioMode = PortfolioMode::Staged {
    share: 0.05,
    cap: Duration::from_millis(250),
    learn: true,
};

/// z3's first-round slice when solver processes follow it: half of what
/// remains.
const Z3_SLICE: Slice = Slice {
    share: 0.5,
    cap: Duration::from_secs(3600),
};

/// The portfolio of [`Backend::Portfolio`], each member validated: cp (the
/// mode's slice), ls, z3 (when built with the `z3` feature), then
/// [`SolverConfig::portfolio_processes`].
fn portfolio(config: &SolverConfig, workers: &Workers) -> Portfolio {
    let mut members: Vec<Box<dyn Solver>> = vec![
        Box::new(Validated::new(Box::new(cp::CpSolver::new(config.cp.clone())))),
        Box::new(Validated::new(Box::new(ls::LsSolver::new(config.ls.clone())))),
    ];
    let mut slices = vec![None, Some(LS_SLICE)];
    if cfg!(feature = "z3") {
        members.push(Box::new(Validated::new(z3_backend(config.z3_rlimit))));
        slices.push((!config.portfolio_processes.is_empty()).then_some(Z3_SLICE));
    }
    for p in &config.portfolio_processes {
        members.push(Box::new(Validated::new(Box::new(process::ProcessSolver::new(
            p.clone(),
        )))));
        slices.push(None);
    }
    // ls answers only sat: in staged mode it keeps its sequential slice
    // rather than a core for the whole of an unsat query.
    let mut p = Portfolio::with_workers(members, config.portfolio, workers).with_race_cap(1, LS_SLICE);
    for (i, s) in slices.into_iter().enumerate() {
        if let Some(s) = s {
            p = p.with_slice(i, s);
        }
    }
    p
}

/// One backend, validated and detached (its answer arrives by the deadline),
/// its threads counted in `workers`.
fn backend(b: &Backend, config: &SolverConfig, workers: &Workers) -> Box<dyn Solver> {
    let inner: Box<dyn Solver> = match b {
        Backend::Z3 => Box::new(Validated::new(z3_backend(config.z3_rlimit))),
        Backend::Cp(c) => Box::new(Validated::new(Box::new(cp::CpSolver::new(c.clone())))),
        Backend::Process(p) => Box::new(Validated::new(Box::new(process::ProcessSolver::new(p.clone())))),
        Backend::Ls(c) => Box::new(Validated::new(Box::new(ls::LsSolver::new(c.clone())))),
        Backend::Portfolio => return Box::new(portfolio(config, workers)),
    };
    Box::new(Detached::with_workers(inner, workers))
}

/// Builds the solver chain for `config`, outermost first:
/// model validation → independence → counterexample reuse → query cache →
/// query logging → cross-check → backend(s). Every backend's models are
/// validated where they are produced, and again at the top (merged models of
/// independent groups included); every backend runs detached, so an answer
/// comes by the deadline even from a backend that overstays it.
///
/// Its threads are counted in a [`Workers`] of its own that the caller
/// cannot see; use [`build_with_workers`] to ask whether any is still busy.
pub fn build(config: &SolverConfig) -> Box<dyn Solver> {
    build_with_workers(config, &Workers::new())
}

/// [`build`], counting the threads of every detached backend and portfolio
/// of the chain in `workers` (which the caller may share between chains or
/// give each its own).
pub fn build_with_workers(config: &SolverConfig, workers: &Workers) -> Box<dyn Solver> {
    let mut s = backend(&config.backend, config, workers);
    if let Some(other) = &config.cross_check {
        let dir = config
            .dump_queries
            .clone()
            .unwrap_or_else(|| std::env::temp_dir().join(format!("fpsym-disagreements-{}", std::process::id())));
        s = Box::new(CrossChecked::new(s, backend(other, config, workers), dir));
    }
    if let Some(dir) = &config.dump_queries {
        s = Box::new(Dumping::new(s, dir.clone()));
    }
    if config.cache {
        s = Box::new(Cached::new(s, CACHE_CAPACITY));
        s = Box::new(CexReuse::new(s, CEX_CAPACITY, CEX_TRIES));
    }
    if config.independence {
        s = Box::new(Independent::new(s));
    }
    Box::new(Validated::new(s))
}

/// Tests of what the crate does without the `z3` feature (with it, the
/// integration tests in `tests/` cover every backend).
#[cfg(all(test, not(feature = "z3")))]
mod tests {
    use super::*;

    /// Without libz3, `z3` still parses and builds, and answers unsupported
    /// rather than panicking; the portfolio runs cp alone.
    #[test]
    fn without_the_z3_feature_z3_is_unsupported_and_the_portfolio_is_cp() {
        use fpsym_expr::{Float, Format, Op, Sort};
        let x = Term::var("x", Sort::Float(Format::BINARY32));
        let q = Query::new(vec![
            Term::app(Op::FpLt, vec![x, Term::fp(Float::from_f32(1.0))]).unwrap()
        ]);
        let budget = Budget::timeout(Duration::from_secs(5));
        let mut z3 = build(&SolverConfig::bare(Backend::parse("z3").unwrap()));
        assert_eq!(
            z3.check(&q, &budget).unwrap(),
            SolveResult::Unknown(Reason::Unsupported(
                "fpsym-solver was built without the z3 feature".into()
            ))
        );
        let mut p = build(&SolverConfig::bare(Backend::Portfolio));
        assert_eq!(p.name(), "portfolio(cp,ls)");
        assert!(matches!(p.check(&q, &budget).unwrap(), SolveResult::Sat(_)));
    }
}
