//! The `Solver` interface and fpsym's solver backends.
//!
//! A [`Solver`] decides a [`Query`]: is there an assignment of the free
//! variables that makes every assertion true? It answers
//! [`SolveResult::Sat`] with a [`Model`], [`SolveResult::Unsat`], or
//! [`SolveResult::Unknown`] with a [`Reason`]. Budgets and timeouts are
//! values, never panics.
//!
//! Backends and decorators (validation, and later cache, independence,
//! portfolio) are all `Solver`s; [`build`] assembles them from a
//! [`SolverConfig`] in one place. Every chain [`build`] returns ends in
//! [`Validated`]: a `Sat` model that does not satisfy its query under the
//! exact semantics of `fpsym-expr` is an internal error, never an answer.
#![deny(missing_docs)]

pub mod cp;
mod validate;
pub mod z3;

use std::collections::BTreeMap;
use std::fmt;
use std::time::{Duration, Instant};

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
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for a in &self.assertions {
            for v in a.vars() {
                if seen.insert(v.id()) {
                    out.push(v);
                }
            }
        }
        out
    }
}

/// How much a solver may spend on one query.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Wall-clock deadline; None means no limit.
    pub deadline: Option<Instant>,
}

impl Budget {
    /// No limit.
    pub fn unlimited() -> Budget {
        Budget { deadline: None }
    }
    /// At most `d` from now.
    pub fn timeout(d: Duration) -> Budget {
        Budget {
            deadline: Some(Instant::now() + d),
        }
    }
    /// Time left, if limited (zero once the deadline has passed).
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline.map(|d| d.saturating_duration_since(Instant::now()))
    }
    /// True once the deadline has passed.
    pub fn expired(&self) -> bool {
        self.remaining() == Some(Duration::ZERO)
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
}

/// Which backend decides queries.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Backend {
    /// Z3 in process (libz3). Default.
    #[default]
    Z3,
    /// fpsym's native constraint solver over floats (`cp`).
    Cp(cp::CpConfig),
}

impl Backend {
    /// Parses a backend name as given on the command line (`z3`, `cp`).
    pub fn parse(s: &str) -> Option<Backend> {
        match s {
            "z3" => Some(Backend::Z3),
            "cp" => Some(Backend::Cp(cp::CpConfig::default())),
            _ => None,
        }
    }
}

/// How to assemble the solver chain.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct SolverConfig {
    /// The backend. Default: z3.
    pub backend: Backend,
}

/// Builds the solver chain for `config`. The chain always ends in model
/// validation.
pub fn build(config: &SolverConfig) -> Box<dyn Solver> {
    let backend: Box<dyn Solver> = match &config.backend {
        Backend::Z3 => Box::new(z3::Z3Solver::new()),
        Backend::Cp(c) => Box::new(cp::CpSolver::new(c.clone())),
    };
    Box::new(Validated::new(backend))
}
