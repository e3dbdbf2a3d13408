//! Seeded search (KLEE's seeding): concrete inputs found before the
//! symbolic search (by the native fuzzing phase) steer it.
//!
//! A seed is a test's inputs as the replay driver reads them: one byte
//! record per input object, in the order the program reads them
//! ([`crate::InputOptions::seeds`]). For a state, a seed gives a *model*: the
//! k-th input object's bytes come from the seed's k-th record (zeros where
//! the record is shorter or missing), the variables behind those bytes get
//! the values that produce them, floats and their bit patterns follow
//! from each other, and any other variable of the path condition gets the
//! default of its sort ([`advance`]). A state *follows* a seed when the
//! seed's model satisfies its path condition.
//!
//! Three pieces use these models, all without changing the executor:
//!
//! - [`SeedOracle`], a [`BranchOracle`]: before each branch it hands the
//!   models of the seeds the state follows to the solver decorator, and it
//!   ranks states following a seed first ([`crate::searcher::Policy::Seeded`]).
//!   It never excludes a side: the branches a seed did not take are forked
//!   off and asked about as usual.
//! - [`SeedTracker`], an [`Observer`]: after each branch it stores in the
//!   state ([`SeedTrack`], forked with it) which seeds it still follows,
//!   their models, and how much of its path they were checked on. So a
//!   branch evaluates only the constraints added since the last one, and
//!   only under the seeds still followed, not the whole path condition
//!   under every seed.
//! - [`SeedSolver`], a [`Solver`] decorator: a query that one of those
//!   models satisfies (every assertion evaluates to true under it) is
//!   answered `sat` with that model, without asking the wrapped solver. So
//!   the side of a branch a seed takes costs no solver call, and a test
//!   made on a seed's path has the seed's input. The answer is sound
//!   whatever the model: it is checked by evaluation (of the assertions
//!   past the path condition the model was checked on, when the query
//!   starts with it).

use crate::plugin::{Branch, BranchOracle, Follow, Observer};
use crate::state::State;
use fpsym_expr::{eval_until, BvValue, Model, Op, Sort, Term, Value};
use fpsym_float::Float;
use fpsym_solver::{Budget, Query, SolveResult, Solver, SolverError};
use std::collections::{BTreeMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// One seed: the bytes of each input object, in the order the program
/// reads them (the records of a replay input file).
pub type Seed = Vec<Vec<u8>>;

/// What the oracle and the solver decorator share: the models of the
/// seeds the state about to branch follows, the path condition they
/// satisfy, and how many queries a model answered.
#[derive(Debug, Default)]
pub struct SeedShared {
    /// Models to try on the next queries (the current state's seeds),
    /// each satisfying all of `path` and assigning all its variables.
    pub candidates: Vec<Arc<Model>>,
    /// The path condition of the state the candidates were made for: a
    /// query starting with (a prefix of) it needs only the rest evaluated.
    pub path: Vec<Term>,
    /// Queries answered by a seed's model, without the solver.
    pub answered: u64,
    /// Queries of a side no seed takes, at a branch of a state following
    /// seeds, given only [`OTHER_SIDE_FIRST_TRY`] at first.
    pub deferred: u64,
    /// The branch the candidates were made for has not had its short
    /// first try yet (one per branch: a later query with the same path,
    /// the retry of a side kept aside, gets its full budget).
    pub first_try: bool,
}

/// The first try at the feasibility of a branch side no seed takes, at a
/// seeded state's branch: a side undecided by then is kept aside as a
/// timed-out side (retried later with the full timeout) while the seeded
/// state goes on, so that a deep seed (a loop's crash the fuzzer found) is
/// not held up at each branch by the queries of the sides it leaves.
pub const OTHER_SIDE_FIRST_TRY: std::time::Duration = std::time::Duration::from_millis(50);

/// Where a state stands with the seeds, kept in its extension slot
/// ([`State::ext`]) so that it forks with it: the seeds it follows, each
/// with its model on the path checked so far. A branch then evaluates only
/// the constraints added since, and only under the seeds still followed.
#[derive(Clone, Debug, Default)]
pub struct SeedTrack {
    /// Set by [`advance`] (a default track has looked at nothing).
    started: bool,
    /// The path constraints checked: `st.path[..checked]`.
    checked: usize,
    /// The last of them, to notice a path that was not only extended (the
    /// engine only appends to paths; a track found on another path is
    /// built again from the start).
    last: Option<Term>,
    /// The input objects whose bytes are in the models:
    /// `st.symbolics[..objects]`.
    objects: usize,
    /// The seeds followed (indexes in the oracle's list), each with its
    /// model, which assigns every variable of the checked constraints and
    /// satisfies them all.
    following: Vec<(usize, Arc<Model>)>,
}

impl SeedTrack {
    /// The indexes of the seeds followed.
    pub fn seeds(&self) -> Vec<usize> {
        self.following.iter().map(|(k, _)| *k).collect()
    }
}

/// Sets `v` to `value` in `m` unless it has a value (first come wins: a
/// value some checked constraint was evaluated with never changes).
fn set(m: &mut Arc<Model>, v: &Term, value: Value) {
    if m.get(v).is_none() {
        Arc::make_mut(m).insert(v.clone(), value);
    }
}

/// Gives the variables behind an input object's byte terms `bytes` the
/// values that make them `record` (zeros past its end): 8-bit variables,
/// extracts of a variable or of its zero extension.
fn add_object(m: &mut Arc<Model>, bytes: &[Term], record: &[u8]) {
    for (i, t) in bytes.iter().enumerate() {
        let byte = record.get(i).copied().unwrap_or(0) as u128;
        let (x, v) = match (t.op(), t.args()) {
            (Op::Var(_), _) => (t, byte),
            (Op::BvExtract(_, lo), [x]) => {
                let x = match (x.op(), x.args()) {
                    (Op::BvZeroExtend(_), [y]) => y,
                    _ => x,
                };
                // Byte i of the object is bits lo.. of x: x holds the
                // object's bytes from i - lo/8 on (one variable may stand
                // for all the bytes, or one per byte read).
                let (Op::Var(_), Sort::BitVec(w)) = (x.op(), x.sort()) else {
                    continue;
                };
                let Some(base) = i.checked_sub((*lo / 8) as usize) else {
                    continue;
                };
                if w > 128 || m.get(x).is_some() {
                    continue;
                }
                let v = (0..w.div_ceil(8) as usize).rev().fold(0u128, |a, j| {
                    (a << 8) | record.get(base + j).copied().unwrap_or(0) as u128
                });
                (x, v)
            }
            _ => continue,
        };
        if let Sort::BitVec(w) = x.sort() {
            let mask = if w >= 128 { u128::MAX } else { (1u128 << w) - 1 };
            set(m, x, Value::Bv(BvValue::new(w, v & mask)));
        }
    }
}

/// The value the float/bit-pattern constraint `a`, if it is one, gives an
/// unassigned variable under `m`: `to_fp(b) = x` gives `x` from `b` (an
/// input float from its bytes) or `b` from `x` (the bit pattern of a
/// computed float stored to memory; a NaN gets x86's default NaN, which
/// every constraint `bits_of` adds allows).
fn tie(m: &Model, a: &Term, stop: &dyn Fn() -> bool) -> Option<(Term, Value)> {
    let (Op::Eq, [l, r]) = (a.op(), a.args()) else {
        return None;
    };
    // Either operand order (terms may be normalized).
    let (fb, x) = if matches!(l.op(), Op::ToFpFromBits(_)) {
        (l, r)
    } else {
        (r, l)
    };
    let (Op::ToFpFromBits(fmt), [b]) = (fb.op(), fb.args()) else {
        return None;
    };
    if !matches!(b.op(), Op::Var(_)) || !matches!(x.sort(), Sort::Float(_)) {
        return None;
    }
    match (m.get(b), matches!(x.op(), Op::Var(_)) && m.get(x).is_none()) {
        (Some(Value::Bv(bv)), true) => Some((x.clone(), Value::Fp(Float::from_bits(*fmt, bv.bits())))),
        (None, _) => {
            let Ok(Value::Fp(f)) = eval_until(x, m, stop) else {
                return None;
            };
            let value = if f.is_nan() {
                Float::nan(*fmt).to_bits() | (1u128 << (fmt.width() - 1))
            } else {
                f.to_bits()
            };
            Some((b.clone(), Value::Bv(BvValue::new(fmt.width(), value))))
        }
        _ => None,
    }
}

/// Completes `m` through the float/bit-pattern constraints among
/// `assertions` (see [`tie`]).
fn tie_floats(m: &mut Arc<Model>, assertions: &[Term], stop: &dyn Fn() -> bool) {
    for _ in 0..2 {
        for a in assertions {
            if let Some((v, value)) = tie(m, a, stop) {
                set(m, &v, value);
            }
        }
    }
}

/// The distinct variables of `assertions`.
fn vars_of(assertions: &[Term]) -> Vec<Term> {
    let mut seen = HashSet::new();
    assertions
        .iter()
        .flat_map(|a| a.vars())
        .filter(|v| seen.insert(v.id()))
        .collect()
}

/// Extends `m`, which assigns every variable of some constraints already
/// checked, over `new` ones: their ties, then the default of its sort for
/// each variable still without a value (as a `sat` answer must assign
/// them). Whether `m` then satisfies all of `new`: false too when `stop`
/// says to stop before that is known (evaluating a long loop's terms
/// takes seconds, past the run's deadline).
fn extend(m: &mut Arc<Model>, new: &[Term], vars: &[Term], stop: &dyn Fn() -> bool) -> bool {
    tie_floats(m, new, stop);
    if vars.iter().any(|v| m.get(v).is_none()) {
        Arc::make_mut(m).complete(vars);
    }
    new.iter()
        .all(|a| matches!(eval_until(a, m, stop), Ok(Value::Bool(true))))
}

/// When seeded search stops evaluating seeds' models: at the run's
/// deadline, or once interrupted (a seed no longer followed then).
#[derive(Clone, Debug, Default)]
pub struct Stop {
    /// The run's deadline.
    pub deadline: Option<Instant>,
    /// The run's cancellation flag.
    pub interrupt: Option<Arc<std::sync::atomic::AtomicBool>>,
}

impl Stop {
    /// Whether to stop now.
    pub fn now(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .interrupt
                .as_ref()
                .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
    }
}

/// `t` brought up to date with `st` (its seeds' models built from the
/// start if `t` is not a track of an earlier point of this path): each
/// followed seed's model gets the values of the input objects read since
/// (the k-th object's bytes from the seed's k-th record), then is extended
/// over the path constraints added since ([`extend`]); the seeds whose
/// model falsifies one of them are no longer followed. So a seed's model
/// on a path is built in the order of the path, and no value in it changes
/// once a constraint was evaluated with it: the state follows the seed iff
/// the model satisfies its whole path condition. Past `stop`, the seeds
/// still to be checked are no longer followed.
pub fn advance(seeds: &[Seed], t: SeedTrack, st: &State, stop: &Stop) -> SeedTrack {
    let extended = t.started
        && t.checked <= st.path.len()
        && t.objects <= st.symbolics.len()
        && (t.checked == 0 || st.path.get(t.checked - 1) == t.last.as_ref());
    let mut t = if extended {
        t
    } else {
        SeedTrack {
            started: true,
            following: (0..seeds.len()).map(|k| (k, Arc::new(Model::new()))).collect(),
            ..SeedTrack::default()
        }
    };
    let objects = &st.symbolics[t.objects..];
    let new = &st.path[t.checked..];
    // Past the stop, not even the variables of long terms are gathered.
    if stop.now() {
        t.following.clear();
    }
    if !t.following.is_empty() && (!objects.is_empty() || !new.is_empty()) {
        let vars = vars_of(new);
        let first = t.objects;
        t.following.retain_mut(|(k, m)| {
            for (j, obj) in objects.iter().enumerate() {
                let record = seeds[*k].get(first + j).map(Vec::as_slice).unwrap_or(&[]);
                add_object(m, &obj.bytes, record);
            }
            extend(m, new, &vars, &|| stop.now())
        });
    }
    t.checked = st.path.len();
    t.last = st.path.last().cloned();
    t.objects = st.symbolics.len();
    t
}

/// The model `seed` gives the input variables of `st` and the others of
/// its path condition, built as [`advance`] builds it (whether or not it
/// satisfies the path condition).
pub fn seed_model(st: &State, seed: &Seed) -> Model {
    let mut m = Arc::new(Model::new());
    for (k, obj) in st.symbolics.iter().enumerate() {
        add_object(&mut m, &obj.bytes, seed.get(k).map(Vec::as_slice).unwrap_or(&[]));
    }
    extend(&mut m, &st.path, &vars_of(&st.path), &|| false);
    Arc::unwrap_or_clone(m)
}

/// The branch oracle of seeded search (see the module doc): follows both
/// sides, hands the solver decorator the models of the seeds the
/// branching state follows, ranks states following a seed first. It reads
/// the state's [`SeedTrack`], which its [`SeedTracker`] keeps up to date
/// at branches; without one it builds the track from the start each time.
pub struct SeedOracle {
    seeds: Arc<Vec<Seed>>,
    shared: Arc<Mutex<SeedShared>>,
    /// The first this many seeds are crashes ([`SeedOracle::with_crashes`]).
    crashes: usize,
    /// When to stop evaluating the seeds' models ([`SeedOracle::with_stop`]).
    stop: Stop,
}

impl SeedOracle {
    /// An oracle for `seeds`, sharing `shared` with a [`SeedSolver`].
    pub fn new(seeds: Vec<Seed>, shared: Arc<Mutex<SeedShared>>) -> SeedOracle {
        SeedOracle {
            seeds: Arc::new(seeds),
            shared,
            crashes: 0,
            stop: Stop::default(),
        }
    }

    /// Past `stop` (the run's deadline, Ctrl-C) the seeds' models are no
    /// longer evaluated: their states no longer follow them.
    pub fn with_stop(mut self, stop: Stop) -> SeedOracle {
        self.stop = stop;
        self
    }

    /// The first `n` seeds made the program fail natively: states
    /// following one of them rank above states following only others.
    pub fn with_crashes(mut self, n: usize) -> SeedOracle {
        self.crashes = n;
        self
    }

    /// The observer that keeps each state's [`SeedTrack`]: plug it in
    /// beside the oracle.
    pub fn tracker(&self) -> SeedTracker {
        SeedTracker {
            seeds: self.seeds.clone(),
            stop: self.stop.clone(),
        }
    }

    /// `st`'s track brought up to date (not stored: the oracle sees the
    /// state read-only).
    pub fn track(&self, st: &State) -> SeedTrack {
        advance(
            &self.seeds,
            st.ext::<SeedTrack>().cloned().unwrap_or_default(),
            st,
            &self.stop,
        )
    }
}

impl BranchOracle for SeedOracle {
    fn decide(&mut self, st: &State, _branch: &Branch<'_>) -> Follow {
        let t = self.track(st);
        if let Ok(mut s) = self.shared.lock() {
            s.candidates = t.following.into_iter().map(|(_, m)| m).collect();
            s.path.clone_from(&st.path);
            s.first_try = !s.candidates.is_empty();
        }
        Follow::Both
    }

    fn priority(&self, st: &State) -> Option<i64> {
        let following = self.track(st).following;
        Some(if following.iter().any(|(k, _)| *k < self.crashes) {
            2
        } else if following.is_empty() {
            0
        } else {
            1
        })
    }
}

/// The observer of seeded search: after each branch it stores the state's
/// [`SeedTrack`] brought up to date (with the branch's condition), so
/// that the next branch starts from there.
pub struct SeedTracker {
    seeds: Arc<Vec<Seed>>,
    stop: Stop,
}

impl Observer for SeedTracker {
    fn at_branch(&mut self, st: &mut State, _branch: &Branch<'_>, _taken: bool) {
        let t = std::mem::take(st.ext_mut::<SeedTrack>());
        let t = advance(&self.seeds, t, st, &self.stop);
        *st.ext_mut::<SeedTrack>() = t;
    }
    /// The track follows the path condition, which concrete steps leave
    /// as it is. (Branches still go to the executor: [`SeedOracle`]
    /// hands the solver decorator the models of the branching state's
    /// seeds at each one, and later queries use them.)
    fn fast_path_ok(&self) -> bool {
        true
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

    fn learn(&mut self, query: &Query, result: &SolveResult) {
        self.inner.learn(query, result);
    }

    fn check(&mut self, query: &Query, budget: &Budget) -> Result<SolveResult, SolverError> {
        let mut side_budget = None;
        if let Ok(mut s) = self.shared.lock() {
            if !s.candidates.is_empty() && !budget.expired() {
                // Each candidate satisfies the shared path: only the
                // assertions past the common prefix need evaluating.
                let same = query.assertions.iter().zip(&s.path).take_while(|(a, b)| a == b).count();
                let rest = &query.assertions[same..];
                let vars = vars_of(rest);
                let stop = || budget.expired();
                let found = s.candidates.iter().find_map(|m| {
                    let mut m = m.clone();
                    extend(&mut m, rest, &vars, &stop).then_some(m)
                });
                if let Some(m) = found {
                    s.answered += 1;
                    return Ok(SolveResult::Sat(Arc::unwrap_or_clone(m)));
                }
                // A side no seed takes, off the seeded state's own path:
                // a short first try, so that the seeded state goes on; a
                // timeout keeps the side aside, retried later in full.
                if same == s.path.len() && std::mem::take(&mut s.first_try) {
                    let short = Instant::now() + OTHER_SIDE_FIRST_TRY;
                    side_budget = Some(Budget {
                        deadline: Some(budget.deadline.map_or(short, |d| d.min(short))),
                        cancel: budget.cancel.clone(),
                    });
                    s.deferred += 1;
                }
            }
        }
        self.inner.check(query, side_budget.as_ref().unwrap_or(budget))
    }

    fn stats(&self) -> BTreeMap<String, f64> {
        let mut s = self.inner.stats();
        if let Ok(sh) = self.shared.lock() {
            s.insert("seed-answers".into(), sh.answered as f64);
            s.insert("seed-deferred".into(), sh.deferred as f64);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{bv, mk};
    use fpsym_float::Format;
    use fpsym_solver::Reason;

    /// Whether `m` satisfies every assertion.
    fn satisfies(m: &Model, assertions: &[Term]) -> bool {
        assertions
            .iter()
            .all(|a| matches!(fpsym_expr::eval(a, m), Ok(Value::Bool(true))))
    }

    #[test]
    fn a_seed_gives_a_float_input_and_its_bits() {
        let f = Format::BINARY64;
        let x = Term::var("x", Sort::Float(f));
        let b = Term::var("!bits1", Sort::BitVec(64));
        let tie = mk(Op::Eq, vec![mk(Op::ToFpFromBits(f), vec![b.clone()]), x.clone()]);
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
            site: None,
        });
        let m = seed_model(&st, &vec![f64::INFINITY.to_le_bytes().to_vec()]);
        assert_eq!(
            m.get(&x),
            Some(Value::Fp(Float::from_bits(f, f64::INFINITY.to_bits() as u128)))
        );
        assert!(satisfies(&m, &st.path));
        // A bound the seed violates is not satisfied.
        let big = mk(
            Op::FpLt,
            vec![x.clone(), crate::term::fp(Float::from_bits(f, 1f64.to_bits() as u128))],
        );
        let mut m = Arc::new(m);
        assert!(!extend(&mut m, std::slice::from_ref(&big), &big.vars(), &|| false));
    }

    /// A solver that answers unknown and counts the queries it got.
    struct Counting(u32);

    impl Solver for Counting {
        fn name(&self) -> String {
            "counting".into()
        }
        fn check(&mut self, _query: &Query, _budget: &Budget) -> Result<SolveResult, SolverError> {
            self.0 += 1;
            Ok(SolveResult::Unknown(Reason::Incomplete("counting".into())))
        }
    }

    /// A state with one 32-bit input `n` (its bytes extracts of `n`).
    fn int_input() -> (State, Term) {
        let n = Term::var("n", Sort::BitVec(32));
        let mut st = crate::exec::placeholder();
        st.symbolics.push(crate::state::Symbolic {
            name: "n".into(),
            ty: "int".into(),
            bytes: (0..4)
                .map(|i| mk(Op::BvExtract(8 * i + 7, 8 * i), vec![n.clone()]))
                .collect(),
            shape: None,
            elements_root: None,
            site: None,
        });
        (st, n)
    }

    fn lt(a: &Term, k: u128) -> Term {
        mk(Op::BvUlt, vec![a.clone(), bv(32, k)])
    }

    fn not(a: Term) -> Term {
        mk(Op::Not, vec![a])
    }

    fn eq(a: &Term, k: u128) -> Term {
        mk(Op::Eq, vec![a.clone(), bv(32, k)])
    }

    /// The follow set of `st` built from the start (no track stored).
    fn from_scratch(oracle: &SeedOracle, st: &State) -> Vec<usize> {
        let mut fresh = st.clone();
        fresh.ext = crate::plugin::Extensions::default();
        oracle.track(&fresh).seeds()
    }

    #[test]
    fn the_stored_tracks_follow_the_seeds_each_path_satisfies() {
        let (mut st, n) = int_input();
        let seeds: Vec<Seed> = [1u32, 5, 9].iter().map(|v| vec![v.to_le_bytes().to_vec()]).collect();
        let shared = Arc::new(Mutex::new(SeedShared::default()));
        let mut oracle = SeedOracle::new(seeds, shared.clone());
        let mut tracker = oracle.tracker();
        let site = Branch {
            function: "main",
            block: 0,
            loc: None,
            cond: &n,
            successor: 0,
        };
        let mut branch = |st: &mut State, c: Term| {
            st.path.push(c);
            tracker.at_branch(st, &site, true);
        };
        // n != 0: every seed.
        branch(&mut st, not(eq(&n, 0)));
        assert_eq!(st.ext::<SeedTrack>().map(SeedTrack::seeds), Some(vec![0, 1, 2]));
        // A fork on n < 3: the seed 1 goes one way, 5 and 9 the other.
        let mut other = st.clone();
        branch(&mut st, lt(&n, 3));
        branch(&mut other, not(lt(&n, 3)));
        assert_eq!(st.ext::<SeedTrack>().map(SeedTrack::seeds), Some(vec![0]));
        assert_eq!(other.ext::<SeedTrack>().map(SeedTrack::seeds), Some(vec![1, 2]));
        // Constraints added since the last branch (a checker's) count too.
        let mut third = other.clone();
        third.path.push(lt(&n, 7));
        assert_eq!(oracle.track(&third).seeds(), vec![1]);
        for s in [&st, &other, &third] {
            assert_eq!(oracle.track(s).seeds(), from_scratch(&oracle, s));
        }
        assert_eq!(oracle.priority(&third), Some(1));
        third.path.push(not(lt(&n, 6)));
        assert_eq!(oracle.priority(&third), Some(0));
        // A track on a path that was changed, not extended, is rebuilt:
        // `other`'s track (two constraints, seeds 5 and 9) on a path of
        // two others.
        let mut changed = other.clone();
        changed.path = vec![not(eq(&n, 0)), lt(&n, 2)];
        assert_eq!(oracle.track(&changed).seeds(), vec![0]);

        // The solver decorator gets the models of the seeds `st` follows
        // (n = 1): a side only n = 5 takes is not answered from the seeds.
        oracle.decide(&st, &site);
        assert_eq!(shared.lock().unwrap().candidates.len(), 1);
        let mut inner = Counting(0);
        let mut solver = SeedSolver::new(&mut inner, shared.clone());
        let budget = Budget::unlimited();
        let mut ask = |extra: Vec<Term>, path: &[Term]| {
            let mut a = path.to_vec();
            a.extend(extra);
            let r = solver.check(&Query::new(a.clone()), &budget).unwrap();
            if let SolveResult::Sat(m) = &r {
                assert!(satisfies(m, &a), "a seed's answer satisfies the query");
            }
            matches!(r, SolveResult::Sat(_))
        };
        assert!(!ask(vec![eq(&n, 5)], &st.path));
        assert!(ask(vec![eq(&n, 1)], &st.path));
        // A query of another path (sharing a prefix) is evaluated past the
        // common prefix: n = 1 falsifies `other`'s n >= 3.
        assert!(!ask(vec![], &other.path));
        assert!(ask(vec![lt(&n, 2)], &other.path[..1]));
        assert_eq!(inner.0, 2);
        assert_eq!(shared.lock().unwrap().answered, 2);
    }
}
