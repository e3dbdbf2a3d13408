//! `cp`: fpsym's native constraint solver over IEEE floats, after FPSE
//! (seed 000) and FPCS (seed 001).
//!
//! A [`Query`] is compiled into a network with one variable per distinct
//! subterm and one propagator per operation. Domains are float intervals in
//! the total order `-inf < … < -0 < +0 < … < +inf` with a NaN flag, Boolean
//! and rounding-mode sets, and unsigned bit-vector ranges. Propagators
//! implement exact *direct* and *indirect projections* for every rounding
//! mode (see `prop::mono`), plus filtering by maximum ULP ([`ulp_max`]) for
//! `+ − × ÷`; propagation runs to a fixpoint with the relative ε rule, then a
//! depth-first search splits domains (FPSE's 3-way split, FPCS's 5-way split
//! or 3-point choice, or bisection).
//!
//! Answers are claims: `Sat` only with a model under which every assertion
//! evaluates to true with `fpsym_expr::eval`; `Unsat` only after the search
//! has refuted every branch with sound propagators; otherwise `Unknown` with
//! the reason (timeout, incomplete strategy).

mod compile;
pub(crate) mod domain;
mod engine;
mod linear;
pub mod lp;
mod order;
pub(crate) mod prop;
mod search;
pub mod ulp_max;

pub use domain::{BoolSet, BvRange, Domain, RmSet};

use crate::{Budget, Query, SolveResult, Solver, SolverError};
use fpsym_expr::Op;
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use std::time::Instant;

/// Which input variable the search branches on next (after Booleans and
/// rounding modes, which always come first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum VarChoice {
    /// The one with the most values (by float count). FPCS's choice.
    #[default]
    LargestDomain,
    /// The one occurring in the most constraints, ties by domain size.
    MostConstrained,
    /// The first undecided one in order of first occurrence.
    Static,
}

/// How the search splits the chosen variable's domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SplitStrategy {
    /// FPSE (seed 000 VI): the float-count midpoint `v`, trying `x = v`,
    /// `x < v`, `x > v` in turn (then NaN).
    #[default]
    Fpse,
    /// FPCS (seed 001 4.1): the points `l`, `r`, `m` and the open intervals
    /// `(l, m)`, `(m, r)` (then NaN).
    FiveWay,
    /// FPCS's incomplete 3-point choice: only `l`, `r`, `m` (and NaN). Never
    /// answers unsat; an exhausted search gives `Unknown(Incomplete)`.
    ThreePoint,
    /// Plain bisection at the float-count midpoint.
    Bisect,
}

/// Where the search splits a float domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Midpoint {
    /// The float-count midpoint: as many floats below as above (FPSE).
    #[default]
    FloatCount,
    /// The real midpoint `(lo + hi) / 2` rounded to a float, infinite bounds
    /// read as `±max` (bisection "over intervals", FPCS's standard strategy).
    Real,
}

impl FromStr for Midpoint {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        match s {
            "count" | "float-count" => Ok(Midpoint::FloatCount),
            "real" => Ok(Midpoint::Real),
            _ => Err(ParseError {
                what: "midpoint",
                value: s.into(),
                expected: "count, real",
            }),
        }
    }
}

/// The local consistency enforced before searching.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Consistency {
    /// Hull (2B) consistency: propagators to a fixpoint.
    #[default]
    TwoB,
    /// 2B plus 3B shaving of the bounds of float inputs at the root (FPCS).
    ThreeB,
}

/// An option value that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} `{value}` (expected one of: {expected})")]
pub struct ParseError {
    /// Which option.
    pub what: &'static str,
    /// The value given.
    pub value: String,
    /// The accepted spellings.
    pub expected: &'static str,
}

impl FromStr for VarChoice {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        match s {
            "largest" | "largest-domain" => Ok(VarChoice::LargestDomain),
            "most-constrained" => Ok(VarChoice::MostConstrained),
            "static" | "input-order" => Ok(VarChoice::Static),
            _ => Err(ParseError {
                what: "variable choice",
                value: s.into(),
                expected: "largest, most-constrained, static",
            }),
        }
    }
}

impl FromStr for SplitStrategy {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        match s {
            "fpse" | "3way" => Ok(SplitStrategy::Fpse),
            "5way" | "five-way" | "fpcs" => Ok(SplitStrategy::FiveWay),
            "3point" | "three-point" => Ok(SplitStrategy::ThreePoint),
            "bisect" => Ok(SplitStrategy::Bisect),
            _ => Err(ParseError {
                what: "split strategy",
                value: s.into(),
                expected: "fpse, 5way, 3point, bisect",
            }),
        }
    }
}

impl FromStr for Consistency {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        match s.to_ascii_lowercase().as_str() {
            "2b" => Ok(Consistency::TwoB),
            "3b" => Ok(Consistency::ThreeB),
            _ => Err(ParseError {
                what: "consistency",
                value: s.into(),
                expected: "2b, 3b",
            }),
        }
    }
}

/// Configuration of the CP solver.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct CpConfig {
    /// Variable choice. Default: largest domain.
    pub var_choice: VarChoice,
    /// Value choice (domain splitting). Default: FPSE's 3-way split.
    pub split: SplitStrategy,
    /// Where float domains are split. Default: the float-count midpoint.
    pub midpoint: Midpoint,
    /// Consistency before search. Default: 2B.
    pub consistency: Consistency,
    /// Filtering by maximum ULP on `+ − × ÷`. Default: on.
    pub ulp_max: bool,
    /// Relative ε for direct projections: a narrowing of a float domain's
    /// bounds that removes less than this fraction of its floats is withdrawn.
    /// Default: 0.0 (every narrowing is kept).
    pub eps_direct: f64,
    /// Relative ε for indirect projections (onto operands). Default: 0.10.
    pub eps_indirect: f64,
    /// Bound tightening by the network's linear relaxation (`cp::linear`):
    /// `Some(n)` tightens the root once the search has expanded `n` nodes
    /// without an answer, then restarts the search from the tightened root,
    /// tightening its shallow nodes too (so queries the search decides
    /// quickly never pay for the LPs); `None` never. Default: `Some(LINEAR_AFTER_NODES)`.
    pub linear: Option<u64>,
}

/// The default node count after which the root is tightened by the linear
/// relaxation ([`CpConfig::linear`]).
pub const LINEAR_AFTER_NODES: u64 = 5000;

impl Default for CpConfig {
    fn default() -> Self {
        CpConfig {
            var_choice: VarChoice::default(),
            split: SplitStrategy::default(),
            midpoint: Midpoint::default(),
            consistency: Consistency::default(),
            ulp_max: true,
            eps_direct: 0.0,
            eps_indirect: 0.10,
            linear: Some(LINEAR_AFTER_NODES),
        }
    }
}

impl PartialEq for CpConfig {
    fn eq(&self, o: &Self) -> bool {
        self.var_choice == o.var_choice
            && self.split == o.split
            && self.midpoint == o.midpoint
            && self.consistency == o.consistency
            && self.ulp_max == o.ulp_max
            && self.eps_direct.to_bits() == o.eps_direct.to_bits()
            && self.eps_indirect.to_bits() == o.eps_indirect.to_bits()
            && self.linear == o.linear
    }
}
impl Eq for CpConfig {}

impl CpConfig {
    /// With filtering by maximum ULP on or off.
    pub fn with_ulp_max(mut self, on: bool) -> Self {
        self.ulp_max = on;
        self
    }
    /// With the given variable choice.
    pub fn with_var_choice(mut self, v: VarChoice) -> Self {
        self.var_choice = v;
        self
    }
    /// With the given split strategy.
    pub fn with_split(mut self, s: SplitStrategy) -> Self {
        self.split = s;
        self
    }
    /// With bound tightening by the linear relaxation after `after` nodes,
    /// or never (`None`).
    pub fn with_linear(mut self, after: Option<u64>) -> Self {
        self.linear = after;
        self
    }
    /// With the given midpoint policy.
    pub fn with_midpoint(mut self, m: Midpoint) -> Self {
        self.midpoint = m;
        self
    }
    /// With the given consistency.
    pub fn with_consistency(mut self, c: Consistency) -> Self {
        self.consistency = c;
        self
    }
    /// With the given relative ε for direct and indirect projections (fractions in `[0, 1)`).
    pub fn with_eps(mut self, direct: f64, indirect: f64) -> Self {
        self.eps_direct = direct;
        self.eps_indirect = indirect;
        self
    }
}

/// Counters of the CP solver, accumulated over all queries (seed 000's
/// table columns where they exist).
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Stats {
    /// Queries decided.
    pub queries: u64,
    /// Constraints (propagators) of the networks built (NbC).
    pub constraints: u64,
    /// Variables of the networks built.
    pub variables: u64,
    /// Propagator executions.
    pub propagations: u64,
    /// Times filtering by maximum ULP removed floats beyond the classical projections (NbE).
    pub ulp_max_firings: u64,
    /// Floats removed by filtering by maximum ULP beyond the classical projections (NbD).
    pub ulp_max_pruned: f64,
    /// Narrowings withdrawn by the relative ε rule.
    pub eps_withdrawn: u64,
    /// Search nodes (the root included).
    pub nodes: u64,
    /// Failed nodes.
    pub backtracks: u64,
    /// Leaves whose evaluated assertions were false although propagation did not fail.
    pub leaf_rejections: u64,
    /// 3B shaving probes.
    pub shaving_probes: u64,
    /// Runs of the global order check.
    pub order_checks: u64,
    /// Linear relaxations solved (bound tightening rounds at a root).
    pub linear_rounds: u64,
    /// Float domains the linear relaxation narrowed.
    pub linear_narrowed: u64,
    /// Wall-clock seconds spent building and solving linear relaxations.
    pub linear_time: f64,
    /// Wall-clock seconds spent in `check`.
    pub time: f64,
}

impl Stats {
    /// The counters by name (for `Solver::stats`).
    pub fn to_map(&self) -> BTreeMap<String, f64> {
        let mut m = BTreeMap::new();
        m.insert("cp.queries".into(), self.queries as f64);
        m.insert("cp.constraints".into(), self.constraints as f64);
        m.insert("cp.variables".into(), self.variables as f64);
        m.insert("cp.propagations".into(), self.propagations as f64);
        m.insert("cp.ulp_max_firings".into(), self.ulp_max_firings as f64);
        m.insert("cp.ulp_max_pruned".into(), self.ulp_max_pruned);
        m.insert("cp.eps_withdrawn".into(), self.eps_withdrawn as f64);
        m.insert("cp.nodes".into(), self.nodes as f64);
        m.insert("cp.backtracks".into(), self.backtracks as f64);
        m.insert("cp.leaf_rejections".into(), self.leaf_rejections as f64);
        m.insert("cp.shaving_probes".into(), self.shaving_probes as f64);
        m.insert("cp.order_checks".into(), self.order_checks as f64);
        m.insert("cp.linear_rounds".into(), self.linear_rounds as f64);
        m.insert("cp.linear_narrowed".into(), self.linear_narrowed as f64);
        m.insert("cp.linear_time".into(), self.linear_time);
        m.insert("cp.time".into(), self.time);
        m
    }
}

/// The CP solver backend.
#[derive(Debug, Default)]
pub struct CpSolver {
    config: CpConfig,
    stats: Stats,
}

impl CpSolver {
    /// A solver with the given configuration.
    pub fn new(config: CpConfig) -> Self {
        CpSolver {
            config,
            stats: Stats::default(),
        }
    }
    /// The accumulated counters.
    pub fn statistics(&self) -> &Stats {
        &self.stats
    }
    /// The configuration.
    pub fn config(&self) -> &CpConfig {
        &self.config
    }
}

impl Solver for CpSolver {
    fn name(&self) -> String {
        "cp".into()
    }

    /// Decides whether the conjunction of `query.assertions` has a model in
    /// the exact IEEE semantics of `fpsym-expr`, by propagation and
    /// depth-first search over the query's free variables.
    fn check(&mut self, query: &Query, budget: &Budget) -> Result<SolveResult, SolverError> {
        let start = Instant::now();
        let csp = compile::Csp::new(query);
        self.stats.queries += 1;
        self.stats.constraints += csp.props.len() as u64;
        self.stats.variables += csp.doms.len() as u64;
        let res = search::solve(&csp, &self.config, budget, &mut self.stats, None);
        self.stats.time += start.elapsed().as_secs_f64();
        Ok(res)
    }

    fn stats(&self) -> BTreeMap<String, f64> {
        self.stats.to_map()
    }
}

/// What propagation says about the values of a term over the models of a
/// query's assertions (see [`enclose`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Enclosure {
    /// Propagation refuted the assertions: they have no model.
    Empty,
    /// Every value the term takes in a model of the assertions lies in
    /// `domain` (an over-approximation: it may hold values no model gives).
    Within {
        /// The term's domain after propagation.
        domain: Domain,
        /// Propagation reached its fixpoint (false: the budget ran out
        /// first, the domain is still an enclosure, a wider one).
        fixpoint: bool,
    },
}

/// Encloses the values of `term` over the models of the conjunction of
/// `query.assertions`: a domain `D` with `{ eval(term, m) | m ⊨ query } ⊆ D`,
/// by propagation alone to a fixpoint (2B, plus 3B shaving of the inputs
/// when `config.consistency` says so), then 3B shaving of the term's own
/// bounds (slices at either end whose propagation fails are removed, by
/// float count, then by value), without search. Sound because every
/// propagator only removes values no solution has; on timeout the
/// domains reached so far are returned (wider, still sound). This is the
/// value analysis of seed 001 (the float range of a program's output by
/// interval propagation over its path constraint).
pub fn enclose(query: &Query, term: &fpsym_expr::Term, config: &CpConfig, budget: &Budget) -> Enclosure {
    let (csp, vars) = compile::Csp::with_terms(query, std::slice::from_ref(term));
    if csp.trivially_false {
        return Enclosure::Empty;
    }
    let v = vars[0] as usize;
    let mut stats = Stats::default();
    let mut engine = engine::Engine::new(&csp, config, budget.clone(), &mut stats);
    let mut doms = csp.doms.clone();
    let mut fixpoint = true;
    match engine.propagate_all(&mut doms) {
        Ok(()) => {
            let mut shaved = Ok(());
            if config.consistency == Consistency::ThreeB {
                shaved = search::shave(&mut engine, &mut doms);
            }
            if shaved.is_ok() {
                shaved = search::shave_vars(&mut engine, &mut doms, &vars);
            }
            if shaved.is_ok() {
                shaved = search::shave_by_value(&mut engine, &mut doms, vars[0]);
            }
            match shaved {
                Ok(()) => {}
                Err(engine::Stop::Fail) => return Enclosure::Empty,
                Err(engine::Stop::Timeout) => fixpoint = false,
            }
        }
        Err(engine::Stop::Fail) => return Enclosure::Empty,
        Err(engine::Stop::Timeout) => fixpoint = false,
    }
    if doms[v].is_empty() {
        return Enclosure::Empty;
    }
    Enclosure::Within {
        domain: doms[v],
        fixpoint,
    }
}

/// Debugging aid: decides `query` like [`CpSolver`] while checking that no
/// propagator removes the known solution `witness` (a model of the query)
/// from domains that contain it; panics with the culprit if one does.
#[doc(hidden)]
pub fn debug_with_witness(
    query: &Query,
    witness: &fpsym_expr::Model,
    config: &CpConfig,
    budget: &Budget,
) -> SolveResult {
    let csp = compile::Csp::new(query);
    let w: Vec<fpsym_expr::Value> = csp
        .terms
        .iter()
        .map(|t| fpsym_expr::eval(t.as_ref().expect("every variable has a term"), witness).expect("witness evaluates"))
        .collect();
    let mut stats = Stats::default();
    search::solve(&csp, config, budget, &mut stats, Some(w))
}

impl fmt::Display for CpConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cp(var={:?}, split={:?}, midpoint={:?}, consistency={:?}, ulp_max={}, eps_direct={}, eps_indirect={})",
            self.var_choice,
            self.split,
            self.midpoint,
            self.consistency,
            self.ulp_max,
            self.eps_direct,
            self.eps_indirect
        )
    }
}

/// Runs the propagator of one operation on the given domains until nothing
/// changes, as the solver does inside a network (without the relative ε rule,
/// which only ever withdraws narrowings). `args` are the operands' domains in
/// SMT-LIB order (rounding mode first), `result` the result's domain.
/// Returns false when the constraint has no solution in the domains (some
/// domain became empty); the domains are then unspecified.
///
/// This is the entry point of the per-propagator soundness tests: every
/// solution of `result = op(args)` inside the input domains must still be
/// inside the output domains.
pub fn propagate_op(op: &Op, args: &mut [Domain], result: &mut Domain, config: &CpConfig) -> bool {
    let mut stats = Stats::default();
    propagate_op_counting(op, args, result, config, &mut stats)
}

/// [`propagate_op`], accumulating counters (ULP-Max firings, floats pruned,
/// propagations) into `stats`.
pub fn propagate_op_counting(
    op: &Op,
    args: &mut [Domain],
    result: &mut Domain,
    config: &CpConfig,
    stats: &mut Stats,
) -> bool {
    fixpoint_one(op, args, result, config, stats, false)
}

/// [`propagate_op`] for a constraint whose first two float operands are the
/// same variable (`x + x`, `x * x`, `fma(rm, x, x, c)`, `fp.min(x, x)`, ...;
/// the two domains are intersected first). The solver uses these diagonal
/// projections, and rewrites `x + (-x)` to `x - x`.
pub fn propagate_op_diagonal(op: &Op, args: &mut [Domain], result: &mut Domain, config: &CpConfig) -> bool {
    let first = usize::from(matches!(op, Op::FpAdd | Op::FpSub | Op::FpMul | Op::FpDiv | Op::FpFma));
    let d = args[first].intersect(&args[first + 1]);
    args[first] = d;
    args[first + 1] = d;
    let mut stats = Stats::default();
    fixpoint_one(op, args, result, config, &mut stats, true)
}

fn fixpoint_one(
    op: &Op,
    args: &mut [Domain],
    result: &mut Domain,
    config: &CpConfig,
    stats: &mut Stats,
    tie: bool,
) -> bool {
    for _ in 0..10_000 {
        let (a0, r0) = (args.to_vec(), *result);
        let mut ctx = prop::Ctx { config, stats, tie };
        ctx.stats.propagations += 1;
        if prop::run(op, args, result, &mut ctx).is_err() {
            return false;
        }
        // keep only narrowings, as the engine does
        for (a, o) in args.iter_mut().zip(&a0) {
            *a = a.intersect(o);
        }
        *result = result.intersect(&r0);
        if args.iter().any(|a| a.is_empty()) || result.is_empty() {
            return false;
        }
        if args == a0.as_slice() && *result == r0 {
            return true;
        }
    }
    true
}
