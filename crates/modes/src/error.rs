//! `fpsym error`: inputs that maximise the floating-point error of a
//! function's result (FPGen, seed 002, Algorithm 1).
//!
//! Every input is measured the same way: the engine runs it concretely
//! with shadow values at `--precision` bits (crates/precision), and the
//! error is FPGen's relative error `|r - r0| / max(FLT_MIN, |r0|)` of the
//! chosen output (the maximum over its elements for an array). Inputs come
//! from a random phase (τ0), then rounds of symbolic execution with
//! concretisation: the inputs split into two operand groups, the best
//! input so far fixes all but a few elements of the second group, which
//! stay symbolic; FPGen's inaccuracy branches (precision loss,
//! cancellation, accurate) at the `+`/`-` sites make the search reach
//! inputs that lose bits; every test of the round is measured; a round
//! that runs out of its time (τ1) halves the symbolic elements; the
//! symbolic ones are shuffled between rounds. `--strategy random` is the
//! random search alone, for the baseline.

mod crossings;
mod evolve;
mod inputs;
mod native;
mod report;

use inputs::*;
use report::*;

use crate::run::{execute, prepare, RunOptions};
use crate::Failure;
use fpsym_engine::checkers::accuracy::{Inaccuracy, Sampling, Sites};
use fpsym_engine::checkers::CheckerFactory;
use fpsym_engine::report::{values, Collect, Test};
use fpsym_engine::{Config, Entry, StopReason};
use fpsym_float::{Float, Format, RoundingMode};
use fpsym_precision::{exact, HighPrecision, Metric, Mp};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Which results the error is measured on.
#[derive(Clone, Debug, PartialEq)]
enum Output {
    /// The return value (default when the function returns a float, else
    /// every float it leaves behind its pointer parameters).
    Default,
    Ret,
    /// Every float of a parameter's object or a global.
    Object(String),
    /// One element: `out[3]`.
    Element(String, u64),
}

fn parse_output(s: &str) -> Result<Output, Failure> {
    let bad = || Failure::Input(format!("--output {s}: expected ret, PARAM, PARAM[i] or GLOBAL"));
    if s == "ret" {
        return Ok(Output::Ret);
    }
    match s.split_once('[') {
        Some((name, rest)) => {
            let i: u64 = rest
                .strip_suffix(']')
                .ok_or_else(bad)?
                .trim()
                .parse()
                .map_err(|_| bad())?;
            Ok(Output::Element(name.trim().to_string(), i))
        }
        None if !s.is_empty() => Ok(Output::Object(s.to_string())),
        None => Err(bad()),
    }
}

/// An input with its measure.
#[derive(Clone)]
struct Measured {
    inputs: BTreeMap<String, Vec<u8>>,
    error: f64,
    hp: HighPrecision,
    /// The results measured.
    outputs: Vec<Output1>,
}

/// The native runs the crossings and walks of the random phase get, per
/// random input it runs, for a function of [`SMALL`] inputs and results
/// (see [`Search::native_share`]).
const CROSSING_SHARE: u64 = 8;

/// The size (scalar inputs plus selected results) of a function whose
/// crossings and evolution get their shares as they are; a larger one
/// gets proportionally fewer runs (each costs more), a smaller one more.
const SMALL: f64 = 8.0;

/// How many of the random phase's worst inputs the refinement may start
/// from.
const ELITE: usize = 8;

/// One result measured.
#[derive(Clone, Debug)]
struct Output1 {
    /// Which result (`return value`, `p+8`).
    what: String,
    /// Where: its object (None: the return value) and byte offset.
    key: (Option<String>, u64),
    computed: Float,
    /// Its exact value along the same path (the shadow).
    exact: Mp,
    /// The wide build's value (FPGen's reference, on its own path), when
    /// the search has the native build.
    wide: Option<Float>,
    /// The error by the search's metric.
    error: f64,
}

impl Output1 {
    /// The error by `metric`: against the wide build for `fpgen` when
    /// there is one, else against the exact value.
    fn by(&self, metric: Metric) -> f64 {
        match (metric, self.wide) {
            (Metric::Fpgen, Some(h)) => metric.error(self.computed, &exact(h)),
            _ => metric.error(self.computed, &self.exact),
        }
    }
}

/// The search's state: the best input, counters.
struct Search<'a> {
    program: &'a fpsym_frontend::Program,
    /// The session's stop flag (Ctrl-C).
    interrupt: std::sync::Arc<std::sync::atomic::AtomicBool>,
    base: Config,
    solver: Box<dyn fpsym_solver::Solver>,
    precision: u32,
    /// The shadow observer every measure re-runs with (made once).
    shadow: fpsym_precision::Shadow,
    output: Output,
    scalars: Vec<Scalar>,
    sizes: BTreeMap<String, usize>,
    /// Per scalar, a float's bounds: its range's floats, or the finite
    /// ones (unused for integers).
    bounds: Vec<(Float, Float)>,
    /// What the search maximises.
    metric: Metric,
    /// The function built natively (None: the build failed, or
    /// `--random-inputs 0`; the random phase then runs on the engine).
    native: Option<native::Native>,
    /// Inputs the random phase runs natively.
    native_budget: u64,
    /// Inputs the random phase ran natively.
    native_inputs: u64,
    start: Instant,
    deadline: Instant,
    /// A reproducible run's budget (None: phases cut by time).
    fixed: Option<Fixed>,
    /// A reproducible run's counts were not done when --max-time ended it.
    cut_by_time: bool,
    best: Option<Measured>,
    time_to_best: f64,
    /// Inputs measured when the best was found.
    measured_to_best: u64,
    measured: u64,
    random_inputs: u64,
    symbolic_inputs: u64,
    /// Inputs the refinement measured.
    refined_inputs: u64,
    /// Bisection steps the refinement ran natively.
    native_steps: u64,
    /// Objects the function never reads (output arrays), left out of the
    /// symbolic rounds' operand groups.
    unread: BTreeSet<String>,
    rounds: u64,
    rng: StdRng,
    /// The worst inputs of the random phase (error, input), worst first:
    /// other starting points for the refinement.
    elite: Vec<(f64, BTreeMap<String, Vec<u8>>)>,
    /// The refinement's current input, its error, and the computed value
    /// of the result it bisects.
    local: (BTreeMap<String, Vec<u8>>, f64, Option<Float>),
    /// Inputs measured and their errors, for error.json's `samples` (the
    /// report plots them).
    samples: Samples,
}

/// The budget of a reproducible run (`--seed`, `--rounds`): counts, not
/// time, so that the same command does the same work on any machine.
#[derive(Clone, Copy, Debug)]
struct Fixed {
    /// Symbolic rounds.
    rounds: u32,
    /// The solver decides by counts too (z3 with a resource limit).
    counted_solver: bool,
}

/// Inputs [`Search::absorb_and_cancel`] tries per refinement.
const ABSORB_TRIES: usize = 32;

/// Rounds of a reproducible run without `--rounds`.
const DEFAULT_ROUNDS: u32 = 4;
/// Inputs a reproducible run's refinement measures per round.
const ROUND_REFINED: u64 = 500;
/// Instructions of a reproducible run's symbolic round.
const ROUND_INSTRUCTIONS: u64 = 2_000_000;
/// Solver queries of a reproducible run's symbolic round.
const ROUND_QUERIES: u64 = 10;
/// Inputs a reproducible run's random phase measures on the engine (when
/// there is no native build).
const ENGINE_RANDOM: u64 = 1_000;
/// Z3's resource limit per query of a reproducible run: about a second of
/// z3's work (on the QF_FP corpus, z3 counts 1 to 3 million units a
/// second).
const Z3_RLIMIT: u32 = 2_000_000;

/// How many measured inputs error.json keeps from the start of the search,
/// and as many from its end.
const SAMPLES_KEPT: usize = 1000;

/// The first and the last [`SAMPLES_KEPT`] inputs measured: each scalar's
/// bits (in the order of `Search::scalars`) and the input's relative error.
#[derive(Default)]
struct Samples {
    first: Vec<(Vec<u128>, f64)>,
    last: std::collections::VecDeque<(Vec<u128>, f64)>,
    /// Inputs measured in all (with a result).
    seen: u64,
}

impl Samples {
    fn push(&mut self, bits: Vec<u128>, error: f64) {
        self.seen += 1;
        if self.first.len() < SAMPLES_KEPT {
            self.first.push((bits, error));
            return;
        }
        if self.last.len() == SAMPLES_KEPT {
            self.last.pop_front();
        }
        self.last.push_back((bits, error));
    }
}

impl Search<'_> {
    fn out_of_time(&self) -> bool {
        Instant::now() >= self.deadline || self.interrupt.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The results `--output` names, from a re-run of `inputs`.
    fn selected(&mut self, hp: &HighPrecision, inputs: &BTreeMap<String, Vec<u8>>) -> Vec<Output1> {
        let wide = match (&mut self.native, self.metric) {
            (Some(n), Metric::Fpgen) => n.reference(inputs),
            _ => None,
        };
        let elem = |name: &str| {
            self.scalars
                .iter()
                .find(|s| s.object == name)
                .map_or(8, |s| s.kind.size())
        };
        let pick = |r: &&fpsym_precision::ShadowResult| match &self.output {
            Output::Ret => r.object.is_none(),
            Output::Object(o) => r.object.as_deref() == Some(o.as_str()),
            Output::Element(o, i) => r.object.as_deref() == Some(o.as_str()) && r.offset == i * elem(o),
            Output::Default => {
                if hp.results.iter().any(|r| r.object.is_none()) {
                    r.object.is_none()
                } else {
                    r.param
                }
            }
        };
        hp.results
            .iter()
            .filter(pick)
            .map(|r| {
                let mut o = Output1 {
                    what: r.what.clone(),
                    key: (r.object.clone(), r.offset),
                    computed: r.computed,
                    exact: r.shadow.clone(),
                    wide: wide
                        .as_ref()
                        .and_then(|w| w.get(&(r.object.clone(), r.offset)).copied()),
                    error: 0.0,
                };
                o.error = o.by(self.metric);
                o
            })
            .collect()
    }

    /// Measures one input; keeps it if it is the worst so far. Returns
    /// the results measured (none when the input ends before the output).
    fn measure(&mut self, inputs: BTreeMap<String, Vec<u8>>) -> anyhow::Result<Vec<Output1>> {
        let budget = self
            .deadline
            .saturating_duration_since(Instant::now())
            .max(Duration::from_secs(1));
        let hp = fpsym_precision::rerun_with(
            self.program,
            &self.base,
            inputs.clone(),
            self.solver.as_mut(),
            self.shadow.fresh(),
            budget.min(Duration::from_secs(10)),
        )
        .map_err(|e| Failure::Internal(e.to_string()))?;
        self.measured += 1;
        let outputs = self.selected(&hp, &inputs);
        let error = max_error(&outputs);
        if outputs.is_empty() {
            return Ok(outputs);
        }
        let bits = self.scalars.iter().map(|sc| bits_of(&inputs, sc)).collect();
        self.samples.push(bits, error);
        if self.best.as_ref().is_none_or(|b| error > b.error) {
            self.time_to_best = self.start.elapsed().as_secs_f64();
            self.measured_to_best = self.measured;
            self.best = Some(Measured {
                inputs,
                error,
                hp,
                outputs: outputs.clone(),
            });
        }
        Ok(outputs)
    }

    /// A random input: each float uniform in its range (or of random bits,
    /// finite), each integer uniform in its range (or random).
    fn random_input(&mut self) -> BTreeMap<String, Vec<u8>> {
        let mut m: BTreeMap<String, Vec<u8>> = self.sizes.iter().map(|(k, n)| (k.clone(), vec![0u8; *n])).collect();
        for k in 0..self.scalars.len() {
            let b = self.random_bits(k);
            put_bits(&mut m, &self.scalars[k], b);
        }
        m
    }

    /// A random input as a native record (see [`native::Native::encode`]):
    /// the scalars drawn as [`Search::random_input`] draws them, in the
    /// same order.
    fn random_record(&mut self, at: &[usize], into: &mut Vec<u8>) {
        let start = into.len();
        into.resize(start + self.sizes.values().sum::<usize>(), 0);
        for k in 0..self.scalars.len() {
            let b = self.random_bits(k);
            let n = self.scalars[k].kind.size() as usize;
            into[start + at[k]..start + at[k] + n].copy_from_slice(&b.to_le_bytes()[..n]);
        }
    }

    /// The bits of a random value of scalar `k`: a float uniform in its
    /// range (or of random bits, finite), an integer uniform in its range
    /// (or random).
    fn random_bits(&mut self, k: usize) -> u128 {
        {
            let s = &self.scalars[k];
            match s.kind {
                ScalarKind::Float(f) => {
                    let x = match s.range {
                        Some((lo, hi)) => {
                            let v: f64 = if lo == hi {
                                lo
                            } else if (hi - lo).is_finite() {
                                self.rng.gen_range(lo..=hi)
                            } else if lo.is_finite() && hi.is_finite() {
                                // Too wide to sample uniformly at once: halves.
                                let u: f64 = self.rng.gen_range(0.0..=1.0);
                                (lo / 2.0 + u * (hi / 2.0 - lo / 2.0)) * 2.0
                            } else {
                                // An infinite bound: random bits, kept if in range.
                                loop {
                                    let x = f64::from_bits(self.rng.gen());
                                    if x.is_finite() && x >= lo && x <= hi {
                                        break x;
                                    }
                                }
                            };
                            let v = v.clamp(lo, hi);
                            let (l, h) = self.bounds[k];
                            if let (Some(l32), Some(h32)) = (l.to_f32(), h.to_f32()) {
                                if l32 <= h32 {
                                    // binary32: the host's conversion (nearest,
                                    // ties to even) and comparisons, the same
                                    // value at the native phase's rate.
                                    return u128::from((v as f32).clamp(l32, h32).to_bits());
                                }
                            }
                            // Nearest, then kept inside the format's floats
                            // of the range.
                            let x = if f == Format::BINARY64 {
                                Float::from_f64(v)
                            } else {
                                Float::from_f64(v).convert(f, RoundingMode::NearestTiesToEven).value
                            };
                            if x.ieee_cmp(l) == Some(std::cmp::Ordering::Less) {
                                l
                            } else if x.ieee_cmp(h) == Some(std::cmp::Ordering::Greater) {
                                h
                            } else {
                                x
                            }
                        }
                        None => loop {
                            let bits: u128 = self.rng.gen();
                            let x = Float::from_bits(f, bits & ((1u128 << f.packed_width()) - 1));
                            if x.is_finite() {
                                break x;
                            }
                        },
                    };
                    x.to_bits()
                }
                ScalarKind::Int { bytes, signed } => {
                    // The type's values.
                    let bits = 8 * bytes as u32;
                    let (tl, th): (i128, i128) = if signed {
                        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
                    } else {
                        (0, (1i128 << bits) - 1)
                    };
                    let v: i128 = match s.range {
                        Some((lo, hi)) => {
                            // An infinite bound stands for the type's.
                            let l = if lo.is_finite() {
                                (lo.ceil() as i128).max(tl)
                            } else {
                                tl
                            };
                            let h = if hi.is_finite() {
                                (hi.floor() as i128).min(th)
                            } else {
                                th
                            };
                            if l <= h {
                                self.rng.gen_range(l..=h)
                            } else {
                                self.rng.gen::<i64>() as i128
                            }
                        }
                        None => self.rng.gen::<i64>() as i128,
                    };
                    v as u128
                }
            }
        }
    }

    /// Local refinement of the best input (beyond the seed, which stops at
    /// what its rounds generate): the error of a result is largest where
    /// its exact value crosses zero (its condition number is unbounded
    /// there), so for one input after another, with the others as in the
    /// best input, it bisects that input between values where the
    /// computed result has opposite signs, down to adjacent floats; then
    /// it tries each input set to another's value or its negation (exact
    /// cancellations, equal samples), their neighbours, values of note
    /// (zero, the smallest subnormal and normal, one, and their negations)
    /// and a few ulps away. Every input tried is measured; stops at
    /// `until`, or after `most` inputs measured.
    fn refine(&mut self, start: BTreeMap<String, Vec<u8>>, until: Instant, most: Option<u64>) -> anyhow::Result<()> {
        let last = most.map(|n| self.refined_inputs + n);
        let done = |s: &Self| Instant::now() >= until || s.out_of_time() || last.is_some_and(|l| s.refined_inputs >= l);
        let outputs = self.measure(start.clone())?;
        self.refined_inputs += 1;
        if outputs.is_empty() {
            return Ok(());
        }
        // The result to bisect: the worst one, or now and then another.
        let target = if outputs.len() > 1 && self.rng.gen_bool(0.5) {
            outputs[self.rng.gen_range(0..outputs.len())].what.clone()
        } else {
            outputs
                .iter()
                .max_by(|a, b| a.error.partial_cmp(&b.error).unwrap_or(std::cmp::Ordering::Greater))
                .map(|o| o.what.clone())
                .unwrap_or_default()
        };
        let computed = outputs.iter().find(|o| o.what == target).map(|o| o.computed);
        let target_key = outputs.iter().find(|o| o.what == target).map(|o| o.key.clone());
        self.absorb_and_cancel(&start, &done)?;
        self.local = (start, max_error(&outputs), computed);
        let mut floats: Vec<usize> = (0..self.scalars.len())
            .filter(|k| matches!(self.scalars[*k].kind, ScalarKind::Float(_)))
            .collect();
        for i in (1..floats.len()).rev() {
            let j = self.rng.gen_range(0..=i);
            floats.swap(i, j);
        }
        for &k in &floats {
            if done(self) {
                return Ok(());
            }
            // From the best input of this refinement so far (measured).
            let (base, _, base_computed) = self.local.clone();
            let sc = self.scalars[k].clone();
            let ScalarKind::Float(f) = sc.kind else { continue };
            // The computed target with input k set to v.
            let at = |s: &mut Self, v: Float| -> anyhow::Result<Option<Float>> {
                let mut i = base.clone();
                put(&mut i, &sc, v);
                let outs = s.measure(i.clone())?;
                s.refined_inputs += 1;
                let e = max_error(&outs);
                let computed = outs.into_iter().find(|o| o.what == target).map(|o| o.computed);
                if computed.is_some() && e > s.local.1 {
                    s.local = (i, e, computed);
                }
                Ok(computed)
            };
            let (lo, hi) = self.bounds(k);
            let cur = get(&base, &sc);
            let side = |x: Option<Float>| x.filter(|x| !x.is_nan() && !x.is_zero()).map(|x| x.sign());
            let g_cur = side(base_computed);
            // Two values of opposite signs, the lower one's sign.
            let mut pair = None;
            for end in [lo, hi] {
                if done(self) {
                    return Ok(());
                }
                let g = side(at(self, end)?);
                if let (Some(a), Some(b)) = (g_cur, g) {
                    if a != b {
                        pair = Some(if key(end) < key(cur) {
                            (end, cur, g)
                        } else {
                            (cur, end, g_cur)
                        });
                        break;
                    }
                }
            }
            if let Some((mut a, mut b, sa)) = pair {
                // The computed target at v, natively when it can be (the
                // steps need its sign only), else measured.
                let sign_at = |s: &mut Self, v: Float| -> anyhow::Result<Option<bool>> {
                    if let (Some(n), Some(t)) = (s.native.as_mut(), target_key.as_ref()) {
                        let mut i = base.clone();
                        put(&mut i, &sc, v);
                        s.native_steps += 1;
                        return Ok(side(n.computed(&i, t)));
                    }
                    Ok(side(at(s, v)?))
                };
                while key(b) - key(a) > 1 && !done(self) {
                    let m = from_key(f, key(a) + (key(b) - key(a)) / 2);
                    match sign_at(self, m)? {
                        None => break,
                        s if s == sa => a = m,
                        _ => b = m,
                    }
                }
                if self.native.is_some() {
                    // The two values around the crossing, measured.
                    at(self, a)?;
                    at(self, b)?;
                }
            }
            // Another input's value or its negation, and their neighbours;
            // a few ulps away from its own.
            let others: Vec<Float> = floats
                .iter()
                .filter(|j| **j != k && matches!(self.scalars[**j].kind, ScalarKind::Float(g) if g == f))
                .map(|j| get(&base, &self.scalars[*j]))
                .collect();
            // Values of note: zero, the smallest subnormal and normal, one
            // (weights that vanish, underflow or divide exactly).
            let special = [
                Float::zero(f, false),
                Float::smallest(f, false),
                Float::smallest_normal(f, false),
                Float::one(f, false),
            ];
            let near = |o: Float| [o, from_key(f, key(o) + 1), from_key(f, key(o) - 1)];
            let tries: Vec<Float> = others
                .into_iter()
                .chain([cur])
                .chain(special)
                .flat_map(near)
                .flat_map(|v| [v, v.neg()])
                .collect();
            for v in tries {
                if done(self) {
                    return Ok(());
                }
                if v.is_finite() && key(v) >= key(lo) && key(v) <= key(hi) {
                    at(self, v)?;
                }
            }
            for d in [-2i128, -1, 1, 2] {
                if done(self) {
                    return Ok(());
                }
                let v = from_key(f, key(cur) + d);
                if v.is_finite() && key(v) >= key(lo) && key(v) <= key(hi) {
                    at(self, v)?;
                }
            }
        }
        Ok(())
    }

    /// The shape of the largest errors of sums and dot products: an
    /// absorption, then a cancellation. Float inputs of one format at
    /// positions i < j < k (< l), set to v, t, -v (and -t2): v a random
    /// value of i's range, t a random float far below it (its ordinal
    /// drawn below half of v's, so that v + t rounds to v), t2 a float
    /// next to t; the other floats are kept, or (in half the tries) set
    /// to 0 when their range holds it. Added in order, v + t is v and v - v
    /// is 0, where the exact result is t (relative error 1), or t - t2
    /// against a computed -t2 (an error of about t's ulps). Neither the
    /// random inputs nor one-input steps build the two at once (each
    /// alone changes nothing). At most [`ABSORB_TRIES`] inputs, each
    /// measured.
    fn absorb_and_cancel(
        &mut self,
        start: &BTreeMap<String, Vec<u8>>,
        done: &dyn Fn(&Self) -> bool,
    ) -> anyhow::Result<()> {
        let floats: Vec<usize> = (0..self.scalars.len())
            .filter(|k| matches!(self.scalars[*k].kind, ScalarKind::Float(_)))
            .filter(|k| !self.unread.contains(&self.scalars[*k].object))
            .collect();
        if floats.len() < 3 {
            return Ok(());
        }
        for attempt in 0..ABSORB_TRIES {
            if done(self) {
                break;
            }
            let n = if floats.len() >= 4 && attempt % 2 == 1 { 4 } else { 3 };
            let mut at: Vec<usize> = rand::seq::index::sample(&mut self.rng, floats.len(), n)
                .into_iter()
                .map(|x| floats[x])
                .collect();
            at.sort_unstable();
            let ScalarKind::Float(f) = self.scalars[at[0]].kind else {
                continue;
            };
            if at
                .iter()
                .any(|k| !matches!(self.scalars[*k].kind, ScalarKind::Float(g) if g == f))
            {
                continue;
            }
            let v = Float::from_bits(f, self.random_bits(at[0]));
            let top = key(v.abs()) / 2;
            if !v.is_finite() || top < 2 {
                continue;
            }
            let t = from_key(f, self.rng.gen_range(1..top));
            let t = if self.rng.gen_bool(0.5) { t } else { t.neg() };
            let mut values = vec![v, t, v.neg()];
            if n == 4 {
                values.push(from_key(f, key(t) + 1).neg());
            }
            let in_range = |s: &Self, k: usize, x: Float| {
                let (lo, hi) = s.bounds(k);
                key(x) >= key(lo) && key(x) <= key(hi)
            };
            if at.iter().zip(&values).any(|(k, x)| !in_range(self, *k, *x)) {
                continue;
            }
            let mut input = start.clone();
            if attempt % 4 >= 2 {
                let zero = Float::zero(f, false);
                for &o in &floats {
                    if !at.contains(&o)
                        && matches!(self.scalars[o].kind, ScalarKind::Float(g) if g == f)
                        && in_range(self, o, zero)
                    {
                        put(&mut input, &self.scalars[o], zero);
                    }
                }
            }
            for (k, x) in at.iter().zip(values) {
                put(&mut input, &self.scalars[*k], x);
            }
            self.measure(input)?;
            self.refined_inputs += 1;
        }
        Ok(())
    }

    /// The random phase until `until`: natively first (its inputs counted,
    /// in batches), then on the engine if time is left and there is no
    /// native build. The `baseline` (`--strategy random`) runs random
    /// inputs only: no crossings, no evolution.
    fn random_phase(&mut self, until: Instant, baseline: bool) -> anyhow::Result<()> {
        if self.native.is_some() {
            self.native_random_phase(until, !baseline)?;
            if self.native.is_some() {
                return Ok(());
            }
        }
        let most = if self.fixed.is_some() { ENGINE_RANDOM } else { u64::MAX };
        while Instant::now() < until && !self.out_of_time() && self.random_inputs < most {
            let i = self.random_input();
            let e = max_error(&self.measure(i.clone())?);
            self.random_inputs += 1;
            keep_worst(&mut self.elite, e, i);
        }
        Ok(())
    }

    /// Algorithm 1's symbolic rounds until the deadline.
    fn symbolic_phase(&mut self, inaccuracy: CheckerFactory, tau1: Duration, refine: bool) -> anyhow::Result<()> {
        // Operand groups: the floats of the first object against the
        // rest; one object alone is split in halves. Output arrays (never
        // read) are in neither: making them symbolic finds nothing.
        let unread = self.outputs_only();
        self.unread = unread.clone();
        let floats: Vec<usize> = (0..self.scalars.len())
            .filter(|k| matches!(self.scalars[*k].kind, ScalarKind::Float(_)))
            .filter(|k| !unread.contains(&self.scalars[*k].object))
            .collect();
        if floats.is_empty() {
            return Ok(());
        }
        let first = &self.scalars[floats[0]].object;
        let (mut op1, mut op2): (Vec<usize>, Vec<usize>) =
            floats.iter().partition(|k| self.scalars[**k].object == *first);
        if op2.is_empty() {
            let half = op1.len() / 2;
            op2 = op1.split_off(half);
        }
        let mut n = op1.len().min(op2.len()).max(1);
        while !self.out_of_time() && self.fixed.is_none_or(|f| self.rounds < u64::from(f.rounds)) {
            let Some(best) = self.best.clone() else { break };
            if refine {
                // From the best input, and every other time from one of
                // the random phase's worst (another region of inputs).
                let start = if self.rounds % 2 == 1 && !self.elite.is_empty() {
                    let k = self.rng.gen_range(0..self.elite.len());
                    self.elite[k].1.clone()
                } else {
                    best.inputs.clone()
                };
                match self.fixed {
                    Some(_) => self.refine(start, self.deadline, Some(ROUND_REFINED))?,
                    None => self.refine(start, Instant::now() + tau1, None)?,
                }
            }
            let Some(best) = self.best.clone() else { break };
            // Shuffle op2, the first n of it symbolic.
            for i in (1..op2.len()).rev() {
                let j = self.rng.gen_range(0..=i);
                op2.swap(i, j);
            }
            let symbolic: BTreeSet<(String, u64)> = op2
                .iter()
                .take(n)
                .map(|k| (self.scalars[*k].object.clone(), self.scalars[*k].offset))
                .collect();
            let mut c = self.base.clone();
            c.input.inputs = Some(best.inputs.clone());
            c.input.keep_symbolic = symbolic;
            c.extensions.checkers.push(inaccuracy.clone());
            let left = self.deadline.saturating_duration_since(Instant::now());
            match self.fixed {
                Some(_) => {
                    c.limits.max_time = Some(left);
                    c.limits.max_instructions = Some(ROUND_INSTRUCTIONS);
                    c.limits.max_queries = Some(ROUND_QUERIES);
                }
                None => c.limits.max_time = Some(tau1.min(left)),
            }
            let mut sink = Collect::default();
            let mut cx = fpsym_engine::RunContext {
                interrupt: self.interrupt.clone(),
                ..Default::default()
            };
            let summary = fpsym_engine::run(self.program, self.solver.as_mut(), &c, &mut sink, &mut cx)
                .map_err(|e| Failure::Internal(e.to_string()))?;
            drop(cx);
            self.rounds += 1;
            for t in &sink.tests {
                if self.out_of_time() {
                    break;
                }
                self.measure(inputs_of(t))?;
                self.symbolic_inputs += 1;
            }
            // A round out of time halves the symbolic inputs (Algorithm 1);
            // so does one that found nothing better (a smaller symbolic set
            // keeps the solver's queries small).
            let improved = self.best.as_ref().is_some_and(|b| b.error > best.error);
            if (summary.stop != StopReason::Exhausted || !improved) && n > 1 {
                n /= 2;
            }
        }
        Ok(())
    }
}

/// Inputs with their errors, worst first.
type Worst = Vec<(f64, BTreeMap<String, Vec<u8>>)>;

/// Keeps `(e, i)` among the [`ELITE`] worst inputs of `elite` (worst
/// first).
fn keep_worst(elite: &mut Worst, e: f64, i: BTreeMap<String, Vec<u8>>) {
    if elite.len() < ELITE || e > elite[ELITE - 1].0 {
        let at = elite.partition_point(|(x, _)| *x >= e);
        elite.insert(at, (e, i));
        elite.truncate(ELITE);
    }
}

/// The largest error of results measured (NaN as infinity).
fn max_error(outputs: &[Output1]) -> f64 {
    largest(outputs.iter().map(|o| o.error))
}

/// The largest of `errors` (NaN as infinity; -inf for none).
fn largest(errors: impl Iterator<Item = f64>) -> f64 {
    errors.fold(
        f64::NEG_INFINITY,
        |a, e| if e.is_nan() { f64::INFINITY } else { a.max(e) },
    )
}

/// How the search looks for the worst input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strategy {
    /// A random phase, then symbolic rounds with a local refinement of the
    /// worst input between them.
    #[default]
    Fpsym,
    /// The random phase, then symbolic rounds, without refinement (FPGen).
    Fpgen,
    /// Random inputs only (the baseline).
    Random,
}

/// The options of `fpsym error`.
#[derive(Debug)]
pub struct Options {
    /// The options of `run` it takes (`--function` is needed; the search's
    /// time is `--max-time`, 60 s without one).
    pub run: RunOptions,
    /// The result measured: `ret`, `PARAM`, `PARAM[i]` or `GLOBAL` (default:
    /// the return value, else the floats behind the pointer parameters).
    pub output: Option<String>,
    /// The shadow values' precision in bits (at least 24).
    pub precision: u32,
    /// FPGen's σ: bits lost that make a precision-loss branch.
    pub sigma: u32,
    /// FPGen's θ: bits cancelled that make a cancellation branch.
    pub theta: u32,
    /// Where the inaccuracy branches are.
    pub sites: Sites,
    /// Which executions of a site get them.
    pub sampling: Sampling,
    /// The random phase's time (default a fifth of the search's).
    pub tau0: Option<Duration>,
    /// A symbolic round's time (default a twentieth, at least 2 s).
    pub tau1: Option<Duration>,
    /// How the search looks.
    pub strategy: Strategy,
    /// The random generator's seed (with `rounds`, a reproducible run).
    pub seed: Option<u64>,
    /// A reproducible run's number of symbolic rounds.
    pub rounds: Option<u32>,
    /// How an error is measured.
    pub metric: Metric,
    /// The random phase's native inputs.
    pub random_inputs: u64,
    /// One given input (`NAME=V,...` each) measured alone instead of a search.
    pub input: Vec<String>,
}

impl Default for Options {
    /// `fpsym error`'s defaults.
    fn default() -> Options {
        Options {
            run: RunOptions::default(),
            output: None,
            precision: 128,
            sigma: 32,
            theta: 40,
            sites: Sites::Loops,
            sampling: Sampling::Uniform { start: 0, step: 1 },
            tau0: None,
            tau1: None,
            strategy: Strategy::Fpsym,
            seed: None,
            rounds: None,
            metric: Metric::Relative,
            random_inputs: 250_000,
            input: Vec::new(),
        }
    }
}

/// Searches for the input with the largest error; writes error.json and
/// the worst input as a test.
pub fn run(raw: Options) -> anyhow::Result<ExitCode> {
    if !matches!(raw.run.engine.entry, Entry::Function { .. }) {
        return Err(
            Failure::Input("fpsym error needs --function F: the function whose result is measured".into()).into(),
        );
    }
    let output = match &raw.output {
        Some(s) => parse_output(s)?,
        None => Output::Default,
    };
    let sites = raw.sites.clone();
    let sampling = raw.sampling;
    if raw.precision < 24 {
        return Err(Failure::Input(format!("--precision {}: at least 24 bits", raw.precision)).into());
    }
    let max_time = raw.run.engine.limits.max_time.unwrap_or(Duration::from_secs(60));
    let mut opts = raw.run;
    opts.set_mode(fpsym_engine::report::Mode::Error)?;
    let (mut base, out, program) = prepare(&opts)?;
    let ranges = match &base.entry {
        Entry::Function { ranges, .. } => ranges.clone(),
        Entry::Main => Vec::new(),
    };
    base.limits.max_time = None;
    base.extensions.checkers = Vec::new();
    // A reproducible run decides by counts: z3 with a resource limit in
    // place of the portfolio (whose members race against the clock).
    let reproducible = raw.seed.is_some() || raw.rounds.is_some();
    let mut solver_config = opts.solver_config().clone();
    let counted_solver = match solver_config.backend {
        fpsym_solver::Backend::Portfolio | fpsym_solver::Backend::Z3 if reproducible => {
            solver_config.backend = fpsym_solver::Backend::Z3;
            solver_config.z3_rlimit = Some(Z3_RLIMIT);
            true
        }
        _ => false,
    };
    let fixed = reproducible.then(|| Fixed {
        rounds: raw.rounds.unwrap_or(DEFAULT_ROUNDS),
        counted_solver,
    });
    let mut solver = fpsym_solver::build_with_workers(&solver_config, opts.session.workers());
    let (scalars, sizes, order) = layout(&program, &base, solver.as_mut(), &ranges)?;
    let metric = raw.metric;
    // The native builds: for the random phase (a search), and for the
    // `fpgen` metric's reference (always).
    let wants_native = (raw.input.is_empty() && raw.random_inputs > 0) || metric == Metric::Fpgen;
    let native = if wants_native {
        let record = crate::run::run_record(&opts, &base, &program);
        let deadline = Instant::now() + max_time;
        match native::Native::new(&record, &scalars, &order, &out.join("build").join("eval"), deadline) {
            Ok(n) => Some(n),
            Err(e) => {
                eprintln!(
                    "fpsym: note: no native build of the function ({e}); the random phase runs on the symbolic executor{}",
                    if metric == Metric::Fpgen {
                        ", and the fpgen metric's reference is the exact value along the program's path"
                    } else {
                        ""
                    }
                );
                None
            }
        }
    } else {
        None
    };
    let start = Instant::now();
    let total = max_time;
    let tau0 = raw.tau0.unwrap_or(total.mul_f64(0.2));
    let tau1 = raw.tau1.unwrap_or(total.mul_f64(0.05).max(Duration::from_secs(2)));
    let (sigma, theta) = (raw.sigma, raw.theta);
    let inaccuracy = CheckerFactory::new(move || Box::new(Inaccuracy::new(sigma, theta, sites.clone(), sampling)));
    let mut s = Search {
        program: &program,
        base: base.clone(),
        solver,
        precision: raw.precision,
        shadow: fpsym_precision::Shadow::with_precision(&program, raw.precision),
        output,
        bounds: scalars.iter().map(float_bounds).collect(),
        scalars,
        sizes,
        metric,
        native,
        native_budget: if raw.input.is_empty() { raw.random_inputs } else { 0 },
        native_inputs: 0,
        start,
        deadline: start + total,
        fixed,
        cut_by_time: false,
        best: None,
        time_to_best: 0.0,
        measured_to_best: 0,
        measured: 0,
        random_inputs: 0,
        symbolic_inputs: 0,
        refined_inputs: 0,
        native_steps: 0,
        unread: BTreeSet::new(),
        rounds: 0,
        rng: StdRng::seed_from_u64(raw.seed.unwrap_or(1)),
        elite: Vec::new(),
        local: (BTreeMap::new(), f64::NEG_INFINITY, None),
        samples: Samples::default(),
        interrupt: opts.session.interrupt(),
    };
    if !raw.input.is_empty() {
        let given = given_input(&raw.input, &s.scalars, &s.sizes)?;
        s.measure(given)?;
    } else {
        // At least one input is measured, so that the symbolic rounds have
        // a best input to concretise from.
        let first = s.random_input();
        s.measure(first)?;
        s.random_inputs += 1;
    }
    match raw.strategy {
        _ if !raw.input.is_empty() => {}
        Strategy::Random => {
            // The baseline: random inputs only, natively until the end (a
            // reproducible run: --random-inputs of them).
            if s.native.is_some() && fixed.is_none() {
                s.native_budget = u64::MAX;
            }
            s.random_phase(s.deadline, true)?
        }
        Strategy::Fpgen | Strategy::Fpsym => {
            // A reproducible run's random phase ends by its count.
            s.random_phase(if fixed.is_some() { s.deadline } else { start + tau0 }, false)?;
            s.symbolic_phase(inaccuracy, tau1, raw.strategy == Strategy::Fpsym)?;
        }
    }
    if let Some(f) = fixed {
        let done = match raw.strategy {
            Strategy::Random if s.native.is_some() => s.native_inputs >= s.native_budget,
            Strategy::Random => s.random_inputs >= ENGINE_RANDOM,
            _ => s.rounds >= u64::from(f.rounds),
        };
        s.cut_by_time = !done && s.out_of_time();
    }
    let Some(mut best) = s.best.clone() else {
        return Err(Failure::Input(format!(
            "no float result to measure ({}): see --output",
            match &s.output {
                Output::Default => "the function returns no float and writes none through its pointers".to_string(),
                o => format!("{o:?}"),
            }
        ))
        .into());
    };
    let strategy = if raw.input.is_empty() {
        match raw.strategy {
            Strategy::Fpsym => "fpsym",
            Strategy::Fpgen => "fpgen",
            Strategy::Random => "random",
        }
    } else {
        "given"
    };
    // The reference is only as exact as --precision: the worst input is
    // measured again at four times the bits (at least 2200: a sum of
    // doubles from 2^1023 down to 2^-1074 is then exact). When the two
    // disagree, the precision is raised again (four times, up to
    // MAX_CHECK_BITS) until two in a row agree: the figures reported are
    // the last ones, and the exact value is printed to the digits the
    // last two agree on.
    let mut bits = raw.precision.saturating_mul(4).max(2200);
    let mut first: Option<(u32, f64, bool)> = None;
    let searched = best.error;
    let mut confirmed = None;
    let mut at_bits = raw.precision;
    let mut previous = Vec::new();
    while let Ok(hp) = fpsym_precision::rerun(
        &program,
        &base,
        best.inputs.clone(),
        s.solver.as_mut(),
        bits,
        Duration::from_secs(10),
    ) {
        let outputs = s.selected(&hp, &best.inputs);
        let e = max_error(&outputs);
        let agreed = agrees(best.error, e);
        first.get_or_insert((bits, e, agreed));
        if agreed {
            confirmed = Some((at_bits, bits));
            previous = outputs;
            break;
        }
        // Not exact enough: the figures become this precision's.
        best.outputs = outputs;
        best.error = e;
        best.hp = hp;
        at_bits = bits;
        if bits >= MAX_CHECK_BITS {
            break;
        }
        bits = bits.saturating_mul(4).min(MAX_CHECK_BITS);
    }
    let check = first.map(|(bits, error, agrees)| Check {
        searched,
        bits,
        error,
        agrees,
        confirmed,
    });
    let digits = confirmed_digits(&best.outputs, &previous);
    // Every metric of the worst input (`fpgen` against the wide build
    // when there is one).
    let wide = s.native.as_mut().and_then(|n| n.reference(&best.inputs));
    let fpgen_reference = if wide.is_some() {
        "the program built with __float128 for float and double (its own branches)"
    } else {
        "the exact value along the program's path"
    };
    let metrics: BTreeMap<String, fpsym_engine::report::mode_records::ErrorValue> = Metric::ALL
        .iter()
        .map(|m| {
            let e = largest(best.outputs.iter().map(|o| {
                let mut o = o.clone();
                o.wide = wide.as_ref().and_then(|w| w.get(&o.key).copied());
                o.by(*m)
            }));
            (m.name().to_string(), fpsym_engine::report::mode_records::ErrorValue(e))
        })
        .collect();
    report(&s, &best, &out, strategy, check, digits, (metrics, fpgen_reference))?;
    // The worst input as a test (and replayed natively with --replay).
    let mut worst = base.clone();
    worst.input.inputs = Some(best.inputs.clone());
    worst.extensions.checkers = fpsym_engine::checkers::default_checkers();
    say!();
    say!("the worst input, as a test:");
    execute(&opts, &worst, &program, &out, |_, _| {})?;
    Ok(ExitCode::SUCCESS)
}
