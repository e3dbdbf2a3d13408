//! Constraint independence (KLEE's IndependentSolver): a query whose
//! assertions fall into groups sharing no variable is decided group by
//! group, and the groups' models are merged.
//!
//! Each group goes through the wrapped chain on its own, so a group that did
//! not change since an earlier query (the usual case on a growing path
//! condition: only the group of the new branch condition changes) is
//! answered by the caches below without a backend call: only the groups that
//! matter reach a solver.

use crate::{Budget, Query, Reason, SolveResult, Solver, SolverError};
use fpsym_expr::{Model, Term};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Splits queries into independent groups; see the module documentation.
pub struct Independent {
    inner: Box<dyn Solver>,
    /// Variables (by id) of each assertion seen recently.
    vars_of: HashMap<Term, Arc<[u64]>>,
    queries: u64,
    split: u64,
    groups: u64,
}

/// Union-find over small integers.
fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

impl Independent {
    /// Wraps `inner`.
    pub fn new(inner: Box<dyn Solver>) -> Independent {
        Independent {
            inner,
            vars_of: HashMap::new(),
            queries: 0,
            split: 0,
            groups: 0,
        }
    }

    fn vars(&mut self, a: &Term) -> Arc<[u64]> {
        if let Some(v) = self.vars_of.get(a) {
            return v.clone();
        }
        if self.vars_of.len() > 100_000 {
            self.vars_of.clear();
        }
        let v: Arc<[u64]> = a.vars().iter().map(Term::id).collect();
        self.vars_of.insert(a.clone(), v.clone());
        v
    }

    /// The assertions of `query` partitioned into groups that share no
    /// variable, in order of first appearance; assertions without
    /// variables form one group of their own each.
    pub fn partition(&mut self, query: &Query) -> Vec<Vec<Term>> {
        let mut index: HashMap<u64, usize> = HashMap::new();
        let mut parent: Vec<usize> = Vec::new();
        let mut first_var: Vec<Option<usize>> = Vec::new();
        for a in &query.assertions {
            let vs = self.vars(a);
            let mut root: Option<usize> = None;
            for v in vs.iter() {
                let n = parent.len();
                let i = *index.entry(*v).or_insert(n);
                if i == n {
                    parent.push(n);
                }
                match root {
                    None => root = Some(i),
                    Some(r) => {
                        let (x, y) = (find(&mut parent, r), find(&mut parent, i));
                        if x != y {
                            parent[y] = x;
                        }
                    }
                }
            }
            first_var.push(root);
        }
        let mut group_of_root: HashMap<usize, usize> = HashMap::new();
        let mut groups: Vec<Vec<Term>> = Vec::new();
        for (a, fv) in query.assertions.iter().zip(first_var) {
            match fv {
                None => groups.push(vec![a.clone()]),
                Some(v) => {
                    let r = find(&mut parent, v);
                    let g = *group_of_root.entry(r).or_insert_with(|| {
                        groups.push(Vec::new());
                        groups.len() - 1
                    });
                    groups[g].push(a.clone());
                }
            }
        }
        groups
    }
}

impl Solver for Independent {
    fn name(&self) -> String {
        self.inner.name()
    }

    /// Unsat as soon as one group is unsat; sat with the union of the
    /// groups' models when all are sat; otherwise unknown (the first
    /// group's reason).
    fn check(&mut self, query: &Query, budget: &Budget) -> Result<SolveResult, SolverError> {
        self.queries += 1;
        // Partitioning a large query takes long: not past the budget.
        if budget.expired() {
            return Ok(SolveResult::Unknown(Reason::Timeout));
        }
        let mut groups = self.partition(query);
        if groups.len() <= 1 {
            self.groups += groups.len() as u64;
            return self.inner.check(query, budget);
        }
        // The group of the last assertion first. On a path condition the
        // last assertion is the new branch condition, and its group is the
        // only one that can be unsat (the others are parts of a path
        // already satisfiable). Asked after a group that used up the
        // budget, it was left unknown, and the side with it, even when it
        // is unsat at once.
        if let Some(k) = groups.iter().position(|g| g.last() == query.assertions.last()) {
            groups[..=k].rotate_right(1);
        }
        self.split += 1;
        self.groups += groups.len() as u64;
        let mut model = Model::new();
        let mut unknown: Option<Reason> = None;
        for g in groups {
            match self.inner.check(&Query::new(g), budget)? {
                SolveResult::Unsat => return Ok(SolveResult::Unsat),
                SolveResult::Unknown(r) => {
                    unknown.get_or_insert(r);
                }
                SolveResult::Sat(m) => {
                    for (v, x) in m.iter() {
                        model.insert(v.clone(), *x);
                    }
                }
            }
        }
        Ok(match unknown {
            Some(r) => SolveResult::Unknown(r),
            None => SolveResult::Sat(model),
        })
    }

    /// Each group learns its part: an unsat answer only where the query is
    /// one group (which group is unsat is not known), a model restricted
    /// to each group's variables.
    fn learn(&mut self, query: &Query, result: &SolveResult) {
        let groups = self.partition(query);
        if groups.len() <= 1 {
            return self.inner.learn(query, result);
        }
        if let SolveResult::Sat(m) = result {
            for g in groups {
                let q = Query::new(g);
                let part = super::cache::restrict(m, &q);
                self.inner.learn(&q, &SolveResult::Sat(part));
            }
        }
    }

    /// The wrapped solver's statistics plus `independence.queries`,
    /// `independence.split` (queries with more than one group) and
    /// `independence.groups` (groups decided).
    fn stats(&self) -> BTreeMap<String, f64> {
        let mut s = self.inner.stats();
        s.insert("independence.queries".into(), self.queries as f64);
        s.insert("independence.split".into(), self.split as f64);
        s.insert("independence.groups".into(), self.groups as f64);
        s
    }
}
