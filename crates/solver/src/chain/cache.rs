//! Caching decorators after KLEE's solver chain: [`Cached`] answers a query
//! it has seen before; [`CexReuse`] answers from the results of other queries
//! (an unsat subset makes a query unsat; a model of a superset, or any
//! earlier model that happens to satisfy it, makes it sat).

use crate::{Budget, Query, SolveResult, Solver, SolverError};
use fpsym_expr::{Model, Term, Value};
use std::collections::{BTreeMap, HashMap, VecDeque};

/// A query as a set: its assertions sorted by term id, without duplicates
/// and without the constant `true`. Terms are hash-consed, so equal sets
/// mean the same formula.
pub(crate) fn query_key(query: &Query) -> Vec<Term> {
    let t = Term::bool(true);
    let mut k: Vec<Term> = query.assertions.iter().filter(|a| **a != t).cloned().collect();
    k.sort_by_key(Term::id);
    k.dedup();
    k
}

/// `model` restricted to the variables of `query`, completed with defaults
/// for those it lacks.
pub(crate) fn restrict(model: &Model, query: &Query) -> Model {
    restrict_to(model, &query.vars())
}

/// `model` restricted to `vars`, completed with defaults for those it
/// lacks.
fn restrict_to(model: &Model, vars: &[Term]) -> Model {
    let mut m = Model::new();
    for v in vars {
        if let Some(x) = model.get(v) {
            m.insert(v.clone(), x);
        }
    }
    m.complete(vars);
    m
}

/// True if `model` (completed with defaults) satisfies every assertion;
/// false once `budget` runs out (evaluating a large query takes long).
fn satisfies(model: &Model, assertions: &[Term], budget: &Budget) -> bool {
    let stop = || budget.expired();
    assertions
        .iter()
        .all(|a| fpsym_expr::eval_until(a, model, &stop) == Ok(Value::Bool(true)))
}

/// Exact query cache: the same query (as a set of assertions) gets the same
/// definite answer and the same model without calling the wrapped solver.
/// `unknown` answers are not cached (a later call may have more time).
pub struct Cached {
    inner: Box<dyn Solver>,
    map: HashMap<Vec<Term>, SolveResult>,
    capacity: usize,
    hits: u64,
    misses: u64,
}

impl Cached {
    /// Wraps `inner`, keeping at most `capacity` answers (the cache is
    /// emptied when full).
    pub fn new(inner: Box<dyn Solver>, capacity: usize) -> Cached {
        Cached {
            inner,
            map: HashMap::new(),
            capacity: capacity.max(1),
            hits: 0,
            misses: 0,
        }
    }

    /// Keeps a definite answer to the query of `key` (`unknown` is not
    /// kept: a later call may have more time).
    fn remember(&mut self, key: Vec<Term>, r: &SolveResult) {
        if matches!(r, SolveResult::Unknown(_)) {
            return;
        }
        if self.map.len() >= self.capacity {
            self.map.clear();
        }
        self.map.insert(key, r.clone());
    }
}

impl Solver for Cached {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn check(&mut self, query: &Query, budget: &Budget) -> Result<SolveResult, SolverError> {
        let key = query_key(query);
        if let Some(r) = self.map.get(&key) {
            self.hits += 1;
            return Ok(match r {
                SolveResult::Sat(m) => SolveResult::Sat(restrict(m, query)),
                r => r.clone(),
            });
        }
        self.misses += 1;
        let r = self.inner.check(query, budget)?;
        self.remember(key, &r);
        Ok(r)
    }

    fn learn(&mut self, query: &Query, result: &SolveResult) {
        self.remember(query_key(query), result);
        self.inner.learn(query, result);
    }

    /// The wrapped solver's statistics plus `cache.hits` and `cache.misses`.
    fn stats(&self) -> BTreeMap<String, f64> {
        let mut s = self.inner.stats();
        s.insert("cache.hits".into(), self.hits as f64);
        s.insert("cache.misses".into(), self.misses as f64);
        s
    }
}

/// One remembered answer: the query's key (sorted by id) and its model
/// (None: unsat).
struct Entry {
    key: Vec<Term>,
    model: Option<Model>,
}

/// `a ⊆ b` for keys sorted by term id.
fn subset(a: &[Term], b: &[Term]) -> bool {
    if a.len() > b.len() {
        return false;
    }
    let mut j = 0;
    for x in a {
        while j < b.len() && b[j].id() < x.id() {
            j += 1;
        }
        if j == b.len() || b[j] != *x {
            return false;
        }
        j += 1;
    }
    true
}

/// Counterexample reuse (KLEE's CexCachingSolver): before calling the
/// wrapped solver, answers a query from the definite answers to earlier
/// queries:
/// - an earlier unsat query whose assertions are a subset: unsat;
/// - an earlier sat query whose assertions are a superset: its model;
/// - otherwise up to `tries` earlier models (those of subsets first, then
///   the most recent) are evaluated on the query; the first that satisfies
///   it is the answer.
///
/// Every answer is exact: subset/superset reasoning is logic, and a reused
/// model is checked by evaluation.
pub struct CexReuse {
    inner: Box<dyn Solver>,
    entries: VecDeque<Entry>,
    capacity: usize,
    tries: usize,
    unsat_subset: u64,
    sat_superset: u64,
    model_reused: u64,
    misses: u64,
}

impl CexReuse {
    /// Wraps `inner`, remembering the last `capacity` definite answers and
    /// evaluating at most `tries` models per query.
    pub fn new(inner: Box<dyn Solver>, capacity: usize, tries: usize) -> CexReuse {
        CexReuse {
            inner,
            entries: VecDeque::new(),
            capacity: capacity.max(1),
            tries,
            unsat_subset: 0,
            sat_superset: 0,
            model_reused: 0,
            misses: 0,
        }
    }

    /// Keeps a definite answer to the query of `key`.
    fn remember(&mut self, key: Vec<Term>, r: &SolveResult) {
        let model = match r {
            SolveResult::Sat(m) => Some(m.clone()),
            SolveResult::Unsat => None,
            SolveResult::Unknown(_) => return,
        };
        if self.entries.len() >= self.capacity {
            self.entries.pop_front();
        }
        self.entries.push_back(Entry { key, model });
    }

    fn lookup(&mut self, key: &[Term], query: &Query, budget: &Budget) -> Option<SolveResult> {
        // Most recent first: path conditions grow, so recent answers are
        // the closest relatives.
        let mut subset_models = Vec::new();
        for e in self.entries.iter().rev() {
            match &e.model {
                None if subset(&e.key, key) => {
                    self.unsat_subset += 1;
                    return Some(SolveResult::Unsat);
                }
                Some(m) if subset(key, &e.key) => {
                    self.sat_superset += 1;
                    return Some(SolveResult::Sat(restrict(m, query)));
                }
                Some(m) if subset(&e.key, key) => subset_models.push(m),
                _ => {}
            }
        }
        let others = self
            .entries
            .iter()
            .rev()
            .filter_map(|e| e.model.as_ref())
            .filter(|m| !subset_models.iter().any(|s| std::ptr::eq(*s, *m)));
        let candidates: Vec<&Model> = subset_models.iter().copied().chain(others).take(self.tries).collect();
        if candidates.is_empty() {
            return None;
        }
        // Evaluating a model on a large query takes long: not past the
        // budget (the wrapped solver then answers at once).
        if budget.expired() {
            return None;
        }
        let vars = query.vars();
        for m in candidates {
            if budget.expired() {
                return None;
            }
            let m = restrict_to(m, &vars);
            if satisfies(&m, &query.assertions, budget) {
                self.model_reused += 1;
                return Some(SolveResult::Sat(m));
            }
        }
        None
    }
}

impl Solver for CexReuse {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn check(&mut self, query: &Query, budget: &Budget) -> Result<SolveResult, SolverError> {
        let key = query_key(query);
        if let Some(r) = self.lookup(&key, query, budget) {
            return Ok(r);
        }
        self.misses += 1;
        let r = self.inner.check(query, budget)?;
        self.remember(key, &r);
        Ok(r)
    }

    fn learn(&mut self, query: &Query, result: &SolveResult) {
        self.remember(query_key(query), result);
        self.inner.learn(query, result);
    }

    /// The wrapped solver's statistics plus `cex.unsat_subset`,
    /// `cex.sat_superset`, `cex.model_reused` (answers given without the
    /// wrapped solver, by kind) and `cex.misses`.
    fn stats(&self) -> BTreeMap<String, f64> {
        let mut s = self.inner.stats();
        s.insert("cex.unsat_subset".into(), self.unsat_subset as f64);
        s.insert("cex.sat_superset".into(), self.sat_superset as f64);
        s.insert("cex.model_reused".into(), self.model_reused as f64);
        s.insert("cex.misses".into(), self.misses as f64);
        s
    }
}
