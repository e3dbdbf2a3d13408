//! `ls`: local search for satisfying assignments (after XSat and goSAT).
//!
//! The query becomes a distance to satisfaction over its variables' values
//! (`program`): 0 exactly when every assertion holds; comparisons of floats
//! measure in ordinals, so that one ulp is one step (`x < y` unsatisfied
//! costs `ord(x) - ord(y) + 1`, `x = y` costs `|ord(x) - ord(y)|`);
//! conjunction sums, disjunction takes the minimum, negation is pushed in;
//! a NaN where a number is needed costs a large constant. The search
//! minimises it over float ordinals (and bit-vector values, Booleans,
//! rounding modes):
//!
//! - start points from the range assumptions of the query (`lo <= x`,
//!   `x < hi`, ...), from special values (zeros, ones, infinities, NaN, the
//!   extremes of each binade class) and the query's own constants, and
//!   random values in the ranges (uniform in ordinals and in reals);
//! - descent by coordinate moves of `±2^k` ordinals for every scale `k`
//!   (ulp steps up to exponent jumps), with acceleration along an improving
//!   direction, and sign flips;
//! - basin hopping: random kicks from the best point so far, and random
//!   restarts.
//!
//! Answers are `Sat`, with a model that `fpsym_expr::eval` confirms for every
//! assertion, or `Unknown` (timeout, or no model within the search's own
//! limit when the budget has no deadline). Never `Unsat`: not finding a
//! model proves nothing.

mod program;

use crate::{Budget, Query, Reason, SolveResult, Solver, SolverError};
use fpsym_expr::{eval, Float, Format, Model, Op, RoundingMode, Sort, Term, Value};
use program::Program;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Options of the local search.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct LsConfig {
    /// Seed of the random choices (the search is deterministic for a seed
    /// and a number of evaluations). Default: 0x5eed.
    pub seed: u64,
    /// Kicks from the best point of a restart before the next restart.
    /// Default: 20.
    pub kicks: u32,
    /// How long to search when the budget has no deadline (then the answer
    /// is `Unknown(Incomplete)`). Default: 10 s.
    pub unbounded_time: Duration,
}

impl Default for LsConfig {
    fn default() -> Self {
        LsConfig {
            seed: 0x5eed,
            kicks: 20,
            unbounded_time: Duration::from_secs(10),
        }
    }
}

impl LsConfig {
    /// The same configuration with another seed.
    pub fn with_seed(mut self, seed: u64) -> LsConfig {
        self.seed = seed;
        self
    }
}

/// The local-search backend; see the module documentation.
pub struct LsSolver {
    config: LsConfig,
    /// Queries seen, so that each gets a seed of its own.
    queries: u64,
    stats: Stats,
}

#[derive(Default, Clone, Copy)]
struct Stats {
    queries: u64,
    sat: u64,
    unknown: u64,
    evaluations: u64,
    restarts: u64,
    rejected: u64,
    seconds: f64,
}

impl LsSolver {
    /// A local search with `config`.
    pub fn new(config: LsConfig) -> LsSolver {
        LsSolver {
            config,
            queries: 0,
            stats: Stats::default(),
        }
    }
}

impl Solver for LsSolver {
    fn name(&self) -> String {
        "ls".into()
    }

    /// Looks for an assignment making every assertion of `query` true; `Sat`
    /// with it when found (confirmed by exact evaluation), else `Unknown`.
    fn check(&mut self, query: &Query, budget: &Budget) -> Result<SolveResult, SolverError> {
        let start = Instant::now();
        self.queries += 1;
        self.stats.queries += 1;
        let seed = self.config.seed ^ self.queries.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let limited = match budget.deadline {
            Some(_) => budget.clone(),
            None => budget.at_most(self.config.unbounded_time),
        };
        let own_limit = budget.deadline.is_none();
        let mut search = Search::new(query, &self.config, seed, limited);
        let mut r = search.run();
        if own_limit && !budget.cancelled() && r == SolveResult::Unknown(Reason::Timeout) {
            r = SolveResult::Unknown(Reason::Incomplete("local search found no model".into()));
        }
        self.stats.evaluations += search.evaluations;
        self.stats.restarts += search.restarts;
        self.stats.rejected += search.rejected;
        match &r {
            SolveResult::Sat(_) => self.stats.sat += 1,
            _ => self.stats.unknown += 1,
        }
        self.stats.seconds += start.elapsed().as_secs_f64();
        Ok(r)
    }

    /// `ls.queries`, `ls.sat`, `ls.unknown`, `ls.evaluations` (distance
    /// evaluations), `ls.restarts`, `ls.rejected` (candidates of distance 0
    /// that exact evaluation did not confirm: should stay 0), `ls.seconds`.
    fn stats(&self) -> BTreeMap<String, f64> {
        let s = self.stats;
        [
            ("ls.queries", s.queries as f64),
            ("ls.sat", s.sat as f64),
            ("ls.unknown", s.unknown as f64),
            ("ls.evaluations", s.evaluations as f64),
            ("ls.restarts", s.restarts as f64),
            ("ls.rejected", s.rejected as f64),
            ("ls.seconds", s.seconds),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }
}

/// Where a variable's value may move.
#[derive(Clone, Debug)]
enum Dom {
    Bool,
    Rm,
    /// Ordinals in `[lo, hi]`, NaN allowed or not.
    Float {
        fmt: Format,
        lo: i128,
        hi: i128,
        nan: bool,
        /// Start values (specials, constants of the query, bounds).
        seeds: Vec<Float>,
    },
    /// Unsigned values in `[lo, hi]`.
    Bv {
        width: u32,
        lo: u128,
        hi: u128,
        seeds: Vec<u128>,
    },
}

const RMS: [RoundingMode; 5] = [
    RoundingMode::NearestTiesToEven,
    RoundingMode::NearestTiesToAway,
    RoundingMode::TowardPositive,
    RoundingMode::TowardNegative,
    RoundingMode::TowardZero,
];

struct Search<'a> {
    query: &'a Query,
    program: Program,
    doms: Vec<Dom>,
    /// Variables set from others rather than searched: `(bits, float, nan)`
    /// for a definition `float = to_fp(bits)` (NaN: `bits = nan`).
    derived: Vec<(usize, usize, Option<u128>)>,
    /// The variables the search moves (the others are derived).
    free: Vec<usize>,
    /// The assignment with derived variables filled in.
    scratch: Vec<Value>,
    rng: StdRng,
    budget: Budget,
    kicks: u32,
    vals: Vec<Value>,
    evaluations: u64,
    restarts: u64,
    rejected: u64,
    /// Set once the budget is spent.
    stop: bool,
    /// Set to the confirmed model when one is found.
    found: Option<Model>,
}

impl<'a> Search<'a> {
    fn new(query: &'a Query, config: &LsConfig, seed: u64, budget: Budget) -> Search<'a> {
        let program = Program::new(&query.assertions);
        let doms = domains(query, program.vars());
        let derived = derived_vars(query, program.vars());
        let free = (0..doms.len()).filter(|i| derived.iter().all(|d| d.0 != *i)).collect();
        Search {
            query,
            program,
            doms,
            derived,
            free,
            scratch: Vec::new(),
            rng: StdRng::seed_from_u64(seed),
            budget,
            kicks: config.kicks,
            vals: Vec::new(),
            evaluations: 0,
            restarts: 0,
            rejected: 0,
            stop: false,
            found: None,
        }
    }

    fn run(&mut self) -> SolveResult {
        let n = self.doms.len();
        if n == 0 {
            // Nothing to search: the assertions are true or false as they stand.
            self.f(&[]);
            return match self.found.take() {
                Some(m) => SolveResult::Sat(m),
                None => SolveResult::Unknown(Reason::Incomplete("no variables to move".into())),
            };
        }
        let mut restart = 0u64;
        while !self.stop {
            let mut x: Vec<Value> = (0..n).map(|i| self.start(i, restart)).collect();
            let mut fx = self.f(&x);
            self.descend(&mut x, &mut fx);
            let (mut best, mut fbest) = (x.clone(), fx);
            for _ in 0..self.kicks {
                if self.stop || fbest == 0.0 {
                    break;
                }
                let mut y = best.clone();
                let moved = 1 + usize::from(n > 1 && self.rng.gen_bool(0.5));
                for _ in 0..moved {
                    let i = self.free[self.rng.gen_range(0..self.free.len())];
                    y[i] = self.random_move(i, y[i]);
                }
                let mut fy = self.f(&y);
                self.descend(&mut y, &mut fy);
                if fy < fbest {
                    (best, fbest) = (y, fy);
                }
            }
            restart += 1;
            self.restarts += 1;
        }
        match self.found.take() {
            Some(m) => SolveResult::Sat(m),
            None if self.budget.expired() => SolveResult::Unknown(Reason::Timeout),
            None => SolveResult::Unknown(Reason::Backend("local search could not evaluate the query".into())),
        }
    }

    /// The distance at `x`; at 0, confirms the model exactly and stops.
    fn f(&mut self, x: &[Value]) -> f64 {
        if self.stop {
            return f64::INFINITY;
        }
        self.evaluations += 1;
        if self.evaluations.is_multiple_of(8) && self.budget.expired() {
            self.stop = true;
            return f64::INFINITY;
        }
        self.scratch.clear();
        self.scratch.extend_from_slice(x);
        for &(b, f, nan) in &self.derived {
            if let (Value::Fp(v), Sort::BitVec(w)) = (self.scratch[f], self.program.vars()[b].sort()) {
                let bits = match nan {
                    Some(n) if v.is_nan() => n,
                    _ => v.packed(),
                };
                self.scratch[b] = Value::Bv(fpsym_expr::BvValue::new(w, bits));
            }
        }
        let x = &self.scratch[..];
        if self.program.eval(x, &mut self.vals).is_none() {
            self.stop = true;
            return f64::INFINITY;
        }
        let d = self.program.distance(&self.vals);
        if d == 0.0 {
            let mut m = Model::new();
            for (v, val) in self.program.vars().iter().zip(&self.scratch) {
                m.insert(v.clone(), *val);
            }
            let holds = self
                .query
                .assertions
                .iter()
                .all(|a| eval(a, &m).ok().and_then(|v| v.as_bool()) == Some(true));
            if holds {
                self.found = Some(m);
                self.stop = true;
            } else {
                self.rejected += 1;
                return f64::MIN_POSITIVE;
            }
        }
        d
    }

    /// Coordinate descent: for each variable, the best of the moves by
    /// `±2^k` ordinals (every scale) and the sign flip; an improving step is
    /// repeated, doubled, while it improves. Until no move improves.
    fn descend(&mut self, x: &mut [Value], fx: &mut f64) {
        let mut order: Vec<usize> = self.free.clone();
        loop {
            let mut improved = false;
            for k in (1..order.len()).rev() {
                order.swap(k, self.rng.gen_range(0..=k));
            }
            for &i in &order {
                let cur = x[i];
                let mut best: Option<(Value, f64, i128)> = None;
                for (cand, step) in self.neighbours(i, cur) {
                    x[i] = cand;
                    let d = self.f(x);
                    if self.stop {
                        return;
                    }
                    if d < best.as_ref().map_or(*fx, |b| b.1) {
                        best = Some((cand, d, step));
                    }
                }
                x[i] = cur;
                if let Some((cand, d, step)) = best {
                    x[i] = cand;
                    *fx = d;
                    improved = true;
                    // Accelerate along the improving direction.
                    let mut step = step;
                    while step != 0 {
                        step = step.saturating_mul(2);
                        let Some(next) = self.offset(i, x[i], step) else { break };
                        let prev = x[i];
                        x[i] = next;
                        let d = self.f(x);
                        if self.stop {
                            return;
                        }
                        if d < *fx {
                            *fx = d;
                        } else {
                            x[i] = prev;
                            break;
                        }
                    }
                }
            }
            if !improved || self.stop {
                return;
            }
        }
    }

    /// The candidate values next to `v` for variable `i`, each with the
    /// ordinal step that produced it (0 for moves that are not steps).
    fn neighbours(&self, i: usize, v: Value) -> Vec<(Value, i128)> {
        let mut out = Vec::new();
        match (&self.doms[i], v) {
            (Dom::Bool, Value::Bool(b)) => out.push((Value::Bool(!b), 0)),
            (Dom::Rm, Value::Rm(r)) => out.extend(RMS.iter().filter(|&&m| m != r).map(|&m| (Value::Rm(m), 0))),
            (Dom::Float { fmt, lo, hi, .. }, Value::Fp(x)) => {
                let bits = fmt.packed_width() as i32;
                for k in 0..bits {
                    for s in [1i128 << k, -(1i128 << k)] {
                        if let Some(y) = self.offset(i, v, s) {
                            out.push((y, s));
                        }
                    }
                }
                if let Some(o) = x.ordinal() {
                    let flipped = -o - 1;
                    if (*lo..=*hi).contains(&flipped) {
                        out.push((Value::Fp(Float::from_ordinal(*fmt, flipped).unwrap()), 0));
                    }
                }
            }
            (Dom::Bv { width, .. }, Value::Bv(_)) => {
                for k in 0..*width as i32 {
                    for s in [1i128 << k, -(1i128 << k)] {
                        if let Some(y) = self.offset(i, v, s) {
                            out.push((y, s));
                        }
                    }
                }
            }
            _ => {}
        }
        out
    }

    /// `v` moved by `step` ordinals (or units), clamped into the domain;
    /// None if that does not move it. A NaN moves to a seed.
    fn offset(&self, i: usize, v: Value, step: i128) -> Option<Value> {
        match (&self.doms[i], v) {
            (Dom::Float { fmt, lo, hi, .. }, Value::Fp(x)) => {
                let o = x.ordinal().unwrap_or(0);
                let n = o.saturating_add(step).clamp(*lo, *hi);
                (n != o || x.is_nan()).then(|| Value::Fp(Float::from_ordinal(*fmt, n).unwrap()))
            }
            (Dom::Bv { width, lo, hi, .. }, Value::Bv(b)) => {
                let o = b.bits() as i128;
                let n = if *width >= 127 {
                    (b.bits() as i128).wrapping_add(step)
                } else {
                    o.saturating_add(step).clamp(*lo as i128, *hi as i128)
                };
                (n != o).then(|| Value::Bv(fpsym_expr::BvValue::new(*width, n as u128)))
            }
            _ => None,
        }
    }

    /// A random jump for variable `i` from `v`: a step of a random scale, a
    /// sign flip, a seed value, or a fresh random value.
    fn random_move(&mut self, i: usize, v: Value) -> Value {
        let bits = match &self.doms[i] {
            Dom::Bool | Dom::Rm => return self.random_value(i),
            Dom::Float { fmt, .. } => fmt.packed_width(),
            Dom::Bv { width, .. } => *width,
        };
        match self.rng.gen_range(0..4) {
            0 | 1 => {
                let k = self.rng.gen_range(0..bits.min(126));
                let s = self.rng.gen_range(1..=(1i128 << k));
                let s = if self.rng.gen_bool(0.5) { s } else { -s };
                self.offset(i, v, s).unwrap_or(v)
            }
            2 => self.seed_value(i),
            _ => self.random_value(i),
        }
    }

    /// The start value of variable `i` for restart number `restart`: the
    /// seeds in turn on the first restarts, random values later.
    fn start(&mut self, i: usize, restart: u64) -> Value {
        if restart == 0 || self.rng.gen_bool(0.3) {
            return self.seed_value(i);
        }
        self.random_value(i)
    }

    fn seed_value(&mut self, i: usize) -> Value {
        match &self.doms[i] {
            Dom::Float { seeds, .. } if !seeds.is_empty() => Value::Fp(seeds[self.rng.gen_range(0..seeds.len())]),
            Dom::Bv { width, seeds, .. } if !seeds.is_empty() => Value::Bv(fpsym_expr::BvValue::new(
                *width,
                seeds[self.rng.gen_range(0..seeds.len())],
            )),
            _ => self.random_value(i),
        }
    }

    /// A random value of variable `i`'s domain: uniform in ordinals, or
    /// (for finite float ranges) uniform in real value.
    fn random_value(&mut self, i: usize) -> Value {
        match self.doms[i].clone() {
            Dom::Bool => Value::Bool(self.rng.gen()),
            Dom::Rm => Value::Rm(RMS[self.rng.gen_range(0..RMS.len())]),
            Dom::Float { fmt, lo, hi, nan, .. } => {
                if nan && self.rng.gen_ratio(1, 64) {
                    return Value::Fp(Float::nan(fmt));
                }
                let (a, b) = (
                    Float::from_ordinal(fmt, lo).unwrap(),
                    Float::from_ordinal(fmt, hi).unwrap(),
                );
                if let (Some(a), Some(b), true) = (real(a), real(b), self.rng.gen_bool(0.5)) {
                    if a.is_finite() && b.is_finite() && a < b {
                        let r = a + (b - a) * self.rng.gen::<f64>();
                        let f = Float::from_f64(r).convert(fmt, RoundingMode::NearestTiesToEven).value;
                        if let Some(o) = f.ordinal() {
                            return Value::Fp(Float::from_ordinal(fmt, o.clamp(lo, hi)).unwrap());
                        }
                    }
                }
                Value::Fp(Float::from_ordinal(fmt, self.rng.gen_range(lo..=hi)).unwrap())
            }
            Dom::Bv { width, lo, hi, .. } => Value::Bv(fpsym_expr::BvValue::new(width, self.rng.gen_range(lo..=hi))),
        }
    }
}

/// Variables defined by another: a bit-vector `b` with a top-level
/// assertion `f = to_fp(b)` or `ite(fp.isNaN f, b = c, f = to_fp(b))` (how
/// the engine's memory reads a float's bytes) is set from the float `f`
/// after every move, instead of being searched: `(b, f, c)` as indices.
/// A derived `b` is never itself a source.
fn derived_vars(query: &Query, vars: &[Term]) -> Vec<(usize, usize, Option<u128>)> {
    let index = |t: &Term| vars.iter().position(|v| v == t);
    // `f = to_fp(b)` in either order: (f, b).
    let def = |t: &Term| -> Option<(Term, Term)> {
        if *t.op() != Op::Eq {
            return None;
        }
        let (x, y) = (&t.args()[0], &t.args()[1]);
        let (f, c) = if matches!(y.op(), Op::ToFpFromBits(_)) {
            (x, y)
        } else {
            (y, x)
        };
        let b = &c.args().first()?.clone();
        (matches!(c.op(), Op::ToFpFromBits(_)) && f.var_name().is_some() && b.var_name().is_some())
            .then(|| (f.clone(), b.clone()))
    };
    let mut out: Vec<(usize, usize, Option<u128>)> = Vec::new();
    for a in &query.assertions {
        let found = if let Some((f, b)) = def(a) {
            Some((f, b, None))
        } else if *a.op() == Op::Ite && *a.args()[0].op() == Op::FpIsNaN {
            let (cond, on_nan, other) = (&a.args()[0], &a.args()[1], &a.args()[2]);
            match (def(other), on_nan.op()) {
                (Some((f, b)), Op::Eq) if cond.args()[0] == f => {
                    let (p, q) = (&on_nan.args()[0], &on_nan.args()[1]);
                    let c = if *p == b {
                        q
                    } else if *q == b {
                        p
                    } else {
                        continue;
                    };
                    c.as_const().and_then(|v| v.as_bv()).map(|v| (f, b, Some(v.bits())))
                }
                _ => None,
            }
        } else {
            None
        };
        let Some((f, b, nan)) = found else { continue };
        let (Some(fi), Some(bi)) = (index(&f), index(&b)) else {
            continue;
        };
        if out.iter().any(|d| d.0 == bi || d.0 == fi) {
            continue;
        }
        out.push((bi, fi, nan));
    }
    out
}

/// A float's value as an `f64` (rounded), for sampling.
fn real(x: Float) -> Option<f64> {
    if x.is_nan() {
        return None;
    }
    let v = x.convert(Format::BINARY64, RoundingMode::NearestTiesToEven).value;
    v.to_f64()
}

/// The domains of `vars`: ranges from the query's top-level bounds on a
/// variable against a constant, seeds from special values and constants.
fn domains(query: &Query, vars: &[Term]) -> Vec<Dom> {
    let mut atoms = Vec::new();
    let mut stack: Vec<Term> = query.assertions.clone();
    let mut consts: Vec<Value> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    while let Some(t) = stack.pop() {
        if !seen.insert(t.id()) {
            continue;
        }
        if let Some(v) = t.as_const() {
            consts.push(v);
        }
        if *t.op() == Op::And {
            stack.extend(t.args().iter().cloned());
        } else {
            atoms.push(t.clone());
            // Constants deeper down are seeds too.
            let mut inner: Vec<Term> = t.args().to_vec();
            while let Some(u) = inner.pop() {
                if seen.insert(u.id()) {
                    if let Some(v) = u.as_const() {
                        consts.push(v);
                    }
                    inner.extend(u.args().iter().cloned());
                }
            }
        }
    }
    vars.iter()
        .map(|v| match v.sort() {
            Sort::Bool => Dom::Bool,
            Sort::RoundingMode => Dom::Rm,
            Sort::Float(fmt) => float_dom(v, fmt, &atoms, &consts),
            Sort::BitVec(w) => bv_dom(v, w, &atoms, &consts),
        })
        .collect()
}

fn float_dom(v: &Term, fmt: Format, atoms: &[Term], consts: &[Value]) -> Dom {
    let inf = Float::infinity(fmt, false).ordinal().unwrap();
    let (mut lo, mut hi, mut nan) = (-inf - 1, inf, true);
    for a in atoms {
        let (op, args) = (a.op(), a.args());
        if args.len() != 2 {
            continue;
        }
        // Normalise to `v op c` with the variable on the left.
        let (op, c) = if &args[0] == v {
            (op.clone(), &args[1])
        } else if &args[1] == v {
            let flipped = match op {
                Op::FpLeq => Op::FpGeq,
                Op::FpLt => Op::FpGt,
                Op::FpGeq => Op::FpLeq,
                Op::FpGt => Op::FpLt,
                o => o.clone(),
            };
            (flipped, &args[0])
        } else {
            continue;
        };
        let Some(c) = c.as_const().and_then(|c| c.as_fp()) else {
            continue;
        };
        let Some(o) = c.ordinal() else { continue };
        let zero = c.is_zero();
        match op {
            Op::FpLeq => hi = hi.min(if zero { 0 } else { o }),
            Op::FpLt => hi = hi.min(if zero { -2 } else { o - 1 }),
            Op::FpGeq => lo = lo.max(if zero { -1 } else { o }),
            Op::FpGt => lo = lo.max(if zero { 1 } else { o + 1 }),
            Op::FpEq => {
                lo = lo.max(if zero { -1 } else { o });
                hi = hi.min(if zero { 0 } else { o });
            }
            _ => continue,
        }
        nan = false;
    }
    if lo > hi {
        // Contradictory bounds: search everything (the query is unsat
        // anyway, and the answer stays unknown).
        (lo, hi) = (-inf - 1, inf);
    }
    let mut seeds = Vec::new();
    let mut add = |f: Float| {
        if let Some(o) = f.ordinal() {
            if (lo..=hi).contains(&o) && !seeds.contains(&f) {
                seeds.push(f);
            }
        } else if nan && !seeds.contains(&f) {
            seeds.push(f);
        }
    };
    for f in [
        Float::zero(fmt, false),
        Float::zero(fmt, true),
        Float::one(fmt, false),
        Float::one(fmt, true),
        Float::infinity(fmt, false),
        Float::infinity(fmt, true),
        Float::largest(fmt, false),
        Float::largest(fmt, true),
        Float::smallest(fmt, false),
        Float::smallest_normal(fmt, false),
        Float::nan(fmt),
        Float::from_ordinal(fmt, lo).unwrap(),
        Float::from_ordinal(fmt, hi).unwrap(),
        Float::from_ordinal(fmt, lo + (hi - lo) / 2).unwrap(),
    ] {
        add(f);
    }
    for c in consts {
        if let Some(f) = c.as_fp() {
            if f.format() == fmt {
                add(f);
                add(f.next_up());
                add(f.next_down());
            } else {
                add(f.convert(fmt, RoundingMode::NearestTiesToEven).value);
            }
        }
    }
    Dom::Float {
        fmt,
        lo,
        hi,
        nan,
        seeds,
    }
}

fn bv_dom(v: &Term, width: u32, atoms: &[Term], consts: &[Value]) -> Dom {
    let max = fpsym_expr::BvValue::new(width, u128::MAX).bits();
    let (mut lo, mut hi) = (0u128, max);
    for a in atoms {
        let args = a.args();
        if args.len() != 2 {
            continue;
        }
        let (op, c) = if &args[0] == v {
            (a.op().clone(), &args[1])
        } else if &args[1] == v {
            let flipped = match a.op() {
                Op::BvUle => Op::BvUge,
                Op::BvUlt => Op::BvUgt,
                Op::BvUge => Op::BvUle,
                Op::BvUgt => Op::BvUlt,
                o => o.clone(),
            };
            (flipped, &args[0])
        } else {
            continue;
        };
        let Some(c) = c.as_const().and_then(|c| c.as_bv()).map(|b| b.bits()) else {
            continue;
        };
        match op {
            Op::BvUle => hi = hi.min(c),
            Op::BvUlt if c > 0 => hi = hi.min(c - 1),
            Op::BvUge => lo = lo.max(c),
            Op::BvUgt if c < max => lo = lo.max(c + 1),
            _ => {}
        }
    }
    if lo > hi {
        (lo, hi) = (0, max);
    }
    let mut seeds: Vec<u128> = vec![lo, hi, 0, 1, max, max >> 1, (max >> 1) + 1];
    seeds.extend(
        consts
            .iter()
            .filter_map(|c| c.as_bv())
            .filter(|b| b.width() == width)
            .map(|b| b.bits()),
    );
    seeds.retain(|s| (lo..=hi).contains(s));
    seeds.dedup();
    Dom::Bv { width, lo, hi, seeds }
}
