//! Seeded search (KLEE's seeding): concrete inputs found before the
//! symbolic search (by the native fuzzing phase) steer it.
//!
//! A seed is a test's inputs as the replay driver reads them: one byte
//! record per input object, in the order the program reads them
//! ([`crate::Config::seeds`]). For a state, a seed gives a *model*: the
//! k-th input object's bytes come from the seed's k-th record (zeros where
//! the record is shorter or missing), and the variables behind those bytes
//! get the values that produce them. A state *follows* a seed when the
//! seed's model satisfies its path condition.
//!
//! Two pieces use these models, both without changing the executor:
//!
//! - [`SeedOracle`], a [`BranchOracle`]: before each branch it hands the
//!   models of the seeds the state follows to the solver decorator, and it
//!   ranks states following a seed first ([`crate::searcher::Policy::Seeded`]).
//!   It never excludes a side: the branches a seed did not take are forked
//!   off and asked about as usual.
//! - [`SeedSolver`], a [`Solver`] decorator: a query that one of those
//!   models satisfies (every assertion evaluates to true under it) is
//!   answered `sat` with that model, without asking the wrapped solver. So
//!   the side of a branch a seed takes costs no solver call, and a test
//!   made on a seed's path has the seed's input. The answer is sound
//!   whatever the model: it is checked by evaluation.

use crate::plugin::{Branch, BranchOracle, Follow};
use crate::state::State;
use fpsym_expr::{eval, BvValue, Model, Op, Sort, Term, Value};
use fpsym_float::Float;
use fpsym_solver::{Budget, Query, SolveResult, Solver, SolverError};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

/// One seed: the bytes of each input object, in the order the program
/// reads them (the records of a replay input file).
pub type Seed = Vec<Vec<u8>>;

/// What the oracle and the solver decorator share: the models of the
/// seeds the state about to branch follows, and how many queries a model
/// answered.
#[derive(Debug, Default)]
pub struct SeedShared {
    /// Models to try on the next queries (the current state's seeds).
    pub candidates: Vec<Model>,
    /// Queries answered by a seed's model, without the solver.
    pub answered: u64,
}

/// The model `seed` gives the input variables of `st` (see the module
/// doc): each input object's byte terms are matched to the seed's bytes
/// (8-bit variables, extracts of a variable, of its zero extension), then
/// floats and their bit patterns are tied through the path's
/// `ite(isNaN(x), b = NaN bits, fp(b) = x)` constraints.
pub fn seed_model(st: &State, seed: &Seed) -> Model {
    let mut bits: HashMap<Term, u128> = HashMap::new();
    for (k, obj) in st.symbolics.iter().enumerate() {
        let record = seed.get(k).map(Vec::as_slice).unwrap_or(&[]);
        for (i, t) in obj.bytes.iter().enumerate() {
            let b = record.get(i).copied().unwrap_or(0) as u128;
            match (t.op(), t.args()) {
                (Op::Var(_), _) => {
                    bits.insert(t.clone(), b);
                }
                (Op::BvExtract(_, lo), [x]) => {
                    let x = match (x.op(), x.args()) {
                        (Op::BvZeroExtend(_), [y]) => y,
                        _ => x,
                    };
                    // Byte i of the object is bits lo.. of x: x holds
                    // the object's bytes from i - lo/8 on (one variable
                    // may stand for all the bytes, or one per byte read).
                    let (Op::Var(_), Sort::BitVec(w)) = (x.op(), x.sort()) else {
                        continue;
                    };
                    let Some(base) = i.checked_sub((*lo / 8) as usize) else {
                        continue;
                    };
                    if w <= 128 && !bits.contains_key(x) {
                        let v = (0..w.div_ceil(8) as usize).rev().fold(0u128, |a, j| {
                            (a << 8) | record.get(base + j).copied().unwrap_or(0) as u128
                        });
                        bits.insert(x.clone(), v);
                    }
                }
                _ => {}
            }
        }
    }
    let mut m = Model::new();
    for (v, b) in bits {
        if let Sort::BitVec(w) = v.sort() {
            let mask = if w >= 128 { u128::MAX } else { (1u128 << w) - 1 };
            m.insert(v, Value::Bv(BvValue::new(w, b & mask)));
        }
    }
    tie_floats(&mut m, &st.path);
    m
}

/// Completes `m` through the float/bit-pattern constraints among
/// `assertions`: `ite(isNaN(x), b = N, to_fp(b) = x)` gives `x` from `b`
/// (an input float from its bytes) or `b` from `x` (the bit pattern of a
/// computed float stored to memory), whichever is unknown.
fn tie_floats(m: &mut Model, assertions: &[Term]) {
    for _ in 0..2 {
        for a in assertions {
            let (Op::Ite, [c, nan_case, same]) = (a.op(), a.args()) else {
                continue;
            };
            let (Op::FpIsNaN, [x]) = (c.op(), c.args()) else {
                continue;
            };
            let (Op::Eq, [l, r]) = (same.op(), same.args()) else {
                continue;
            };
            // Either operand order (terms may be normalized).
            let (fb, x2) = if matches!(l.op(), Op::ToFpFromBits(_)) {
                (l, r)
            } else {
                (r, l)
            };
            let (Op::ToFpFromBits(fmt), [b]) = (fb.op(), fb.args()) else {
                continue;
            };
            if x2 != x || !matches!(b.op(), Op::Var(_)) {
                continue;
            }
            match (m.get(b), matches!(x.op(), Op::Var(_)) && m.get(x).is_none()) {
                (Some(Value::Bv(bv)), true) => {
                    m.insert(x.clone(), Value::Fp(Float::from_bits(*fmt, bv.bits())));
                }
                (None, _) => {
                    let Ok(Value::Fp(f)) = eval(x, m) else { continue };
                    let w = fmt.width();
                    let value = if f.is_nan() {
                        // The constant of `b = N`.
                        let n = nan_case.args().iter().find(|n| *n != b);
                        match n.map(|n| eval(n, m)) {
                            Some(Ok(Value::Bv(n))) => n.bits(),
                            _ => continue,
                        }
                    } else {
                        f.to_bits()
                    };
                    m.insert(b.clone(), Value::Bv(BvValue::new(w, value)));
                }
                _ => {}
            }
        }
    }
}

/// Whether every assertion evaluates to true under `m`.
fn satisfies(m: &Model, assertions: &[Term]) -> bool {
    assertions.iter().all(|a| matches!(eval(a, m), Ok(Value::Bool(true))))
}

/// The branch oracle of seeded search (see the module doc): follows both
/// sides, hands the solver decorator the models of the seeds the
/// branching state follows, ranks states following a seed first.
pub struct SeedOracle {
    seeds: Vec<Seed>,
    shared: Arc<Mutex<SeedShared>>,
}

impl SeedOracle {
    /// An oracle for `seeds`, sharing `shared` with a [`SeedSolver`].
    pub fn new(seeds: Vec<Seed>, shared: Arc<Mutex<SeedShared>>) -> SeedOracle {
        SeedOracle { seeds, shared }
    }

    /// The models of the seeds `st` follows.
    fn followed(&self, st: &State) -> Vec<Model> {
        self.seeds
            .iter()
            .map(|s| seed_model(st, s))
            .filter(|m| satisfies(&complete(m, &st.path), &st.path))
            .collect()
    }
}

/// `m` with a value for every variable of `assertions` (defaults for the
/// free ones), as a `sat` answer must assign them.
fn complete(m: &Model, assertions: &[Term]) -> Model {
    let mut m = m.clone();
    tie_floats(&mut m, assertions);
    let vars: Vec<Term> = assertions.iter().flat_map(|a| a.vars()).collect();
    m.complete(&vars);
    m
}

impl BranchOracle for SeedOracle {
    fn decide(&mut self, st: &State, _branch: &Branch<'_>) -> Follow {
        let models = self.followed(st);
        if let Ok(mut s) = self.shared.lock() {
            s.candidates = models;
        }
        Follow::Both
    }

    fn priority(&self, st: &State) -> Option<i64> {
        Some(if self.followed(st).is_empty() { 0 } else { 1 })
    }
}

/// A [`Solver`] answering queries a seed's model satisfies without the
/// wrapped solver (see the module doc): decides `∧ query.assertions` as
/// the wrapped solver does.
pub struct SeedSolver<'a> {
    inner: &'a mut dyn Solver,
    shared: Arc<Mutex<SeedShared>>,
}

impl<'a> SeedSolver<'a> {
    /// Wraps `inner`, trying the models `shared` holds first.
    pub fn new(inner: &'a mut dyn Solver, shared: Arc<Mutex<SeedShared>>) -> SeedSolver<'a> {
        SeedSolver { inner, shared }
    }
}

impl Solver for SeedSolver<'_> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn check(&mut self, query: &Query, budget: &Budget) -> Result<SolveResult, SolverError> {
        if let Ok(mut s) = self.shared.lock() {
            let found = s
                .candidates
                .iter()
                .map(|m| complete(m, &query.assertions))
                .find(|m| satisfies(m, &query.assertions));
            if let Some(m) = found {
                s.answered += 1;
                return Ok(SolveResult::Sat(m));
            }
        }
        self.inner.check(query, budget)
    }

    fn stats(&self) -> BTreeMap<String, f64> {
        let mut s = self.inner.stats();
        if let Ok(sh) = self.shared.lock() {
            s.insert("seed-answers".into(), sh.answered as f64);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::mk;
    use fpsym_float::Format;

    #[test]
    fn a_seed_gives_a_float_input_and_its_bits() {
        let f = Format::BINARY64;
        let x = Term::var("x", Sort::Float(f));
        let b = Term::var("!bits1", Sort::BitVec(64));
        let tie = mk(
            Op::Ite,
            vec![
                mk(Op::FpIsNaN, vec![x.clone()]),
                mk(Op::Eq, vec![b.clone(), crate::term::bv(64, 0x7ff8_0000_0000_0000)]),
                mk(Op::Eq, vec![mk(Op::ToFpFromBits(f), vec![b.clone()]), x.clone()]),
            ],
        );
        let mut st = crate::exec::placeholder();
        st.path.push(tie);
        st.symbolics.push(crate::state::Symbolic {
            name: "x".into(),
            ty: "double".into(),
            bytes: (0..8)
                .map(|i| mk(Op::BvExtract(8 * i + 7, 8 * i), vec![b.clone()]))
                .collect(),
            shape: None,
            elements_root: None,
        });
        let m = seed_model(&st, &vec![f64::INFINITY.to_le_bytes().to_vec()]);
        assert_eq!(
            m.get(&x),
            Some(Value::Fp(Float::from_bits(f, f64::INFINITY.to_bits() as u128)))
        );
        assert!(satisfies(&complete(&m, &st.path), &st.path));
        // A bound the seed violates is not satisfied.
        let big = mk(
            Op::FpLt,
            vec![x.clone(), crate::term::fp(Float::from_bits(f, 1f64.to_bits() as u128))],
        );
        assert!(!satisfies(&complete(&m, &[big.clone()]), &[big]));
    }
}
