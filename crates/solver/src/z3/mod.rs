//! The Z3 backend: decides queries with libz3 in process.
//!
//! This module is the only place in fpsym that touches Z3 (through the `z3`
//! crate, and `z3-sys` for the parts of the C API the crate does not wrap:
//! FP constructors and numeral decoding). No Z3 type leaves it.
//!
//! Each [`Solver::check`] runs in a fresh Z3 context, so [`Z3Solver`] holds
//! nothing but counters and is `Send`. A query is translated term by term
//! (memoized by term id, over an explicit stack), asserted, and checked with
//! Z3's `timeout` parameter set from the [`Budget`]; a watchdog thread also
//! interrupts Z3 shortly after the deadline in case a phase ignores the
//! parameter. Models are read back exactly: every variable of the query is
//! evaluated with model completion and decoded from Z3's numerals (floats
//! by class, sign, exponent and significand fields, never through `f64`).
//!
//! Where SMT-LIB leaves a result unspecified (`fp.min`/`fp.max` of zeros of
//! both signs, `fp.to_ubv`/`fp.to_sbv` of NaN, infinities and out-of-range
//! values), the translation guards Z3's operation with `ite` so that Z3
//! agrees with the value fpsym fixes (see [`fpsym_expr::Op`]).
//!
//! Z3 4.8.12 gets a few things wrong (found by the differential tests in
//! `tests/z3.rs`, confirmed against cvc5 and exact rational arithmetic). The
//! backend works around them or declines, never answering from a wrong value:
//!
//! - `fp.fma` with at most 3 significand bits (constant folding is wrong) and
//!   `fp.roundToIntegral`, `fp.to_ubv`, `fp.to_sbv` with 2 exponent bits
//!   (subnormals round wrongly): `Unknown(Unsupported)`. Tiny formats only.
//! - `to_fp` from a format with exactly two more exponent bits, for subnormal
//!   inputs (bit-blasting is wrong): converted through an exact intermediate.
//! - 1-bit `fp.to_sbv` (Z3 cannot bit-blast it): taken from a 2-bit one.
//! - `fp.rem`: wrong for subnormal divisors in every format, so a query with
//!   `fp.rem` is decided with its divisors restricted to non-subnormal values
//!   (`sat` stands and is validated; `unsat` becomes `Unknown(Incomplete)`);
//!   in binary64 and wider it exhausts memory, so it is `Unknown(Unsupported)`.
//!
//! Some operations Z3 cannot bit-blast in tiny formats (`fp.roundToIntegral`
//! in (3, 3), `fp.div` when `sb < eb`, ...) come back as
//! `Unknown(Backend(reason))` from Z3 itself.

mod model;
mod translate;

use crate::{Budget, Query, Reason, SolveResult, Solver, SolverError};
use ::z3::ast::Ast;
use fpsym_expr::Model;
use std::collections::BTreeMap;
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};
use translate::{Builder, Failure};
use z3_sys::Z3_context;

/// How long after the budget's deadline the watchdog interrupts Z3 if Z3's
/// own `timeout` has not stopped it.
const WATCHDOG_GRACE: Duration = Duration::from_millis(150);

/// How often the watchdog looks at the budget's cancellation flag.
const WATCHDOG_TICK: Duration = Duration::from_millis(20);

/// Decides queries with Z3 (libz3, in process).
///
/// `check` decides `∃ vars. a₁ ∧ … ∧ aₙ` over the assertions of the query
/// with the exact SMT-LIB semantics of QF_FP/QF_BV, extended by fpsym's
/// fixed choices for the cases SMT-LIB leaves unspecified. `Sat` models
/// assign every variable of the query its exact value.
#[derive(Debug, Default)]
pub struct Z3Solver {
    stats: Stats,
    rlimit: Option<u32>,
}

#[derive(Debug, Default, Clone, Copy)]
struct Stats {
    queries: u64,
    sat: u64,
    unsat: u64,
    unknown: u64,
    errors: u64,
    seconds: f64,
}

impl Z3Solver {
    /// A Z3 backend with zeroed statistics.
    pub fn new() -> Z3Solver {
        Z3Solver::default()
    }

    /// A Z3 backend whose every query also has Z3's resource limit
    /// `rlimit` (a count of Z3's internal steps, the same on every machine
    /// and load): a query over it is `Unknown(Backend("max. resource limit
    /// exceeded"))`. With a time budget that does not run out first, the
    /// answers are reproducible.
    pub fn with_rlimit(rlimit: u32) -> Z3Solver {
        Z3Solver {
            rlimit: Some(rlimit),
            ..Z3Solver::default()
        }
    }
}

impl Solver for Z3Solver {
    fn name(&self) -> String {
        "z3".into()
    }

    /// Decides `∃ vars. ⋀ query.assertions` within `budget`. An expired
    /// budget gives `Unknown(Timeout)` without calling Z3; Z3's `unknown`
    /// gives `Unknown(Timeout)` when it ran out of time (or was interrupted),
    /// else `Unknown(Backend(reason))`.
    fn check(&mut self, query: &Query, budget: &Budget) -> Result<SolveResult, SolverError> {
        let start = Instant::now();
        self.stats.queries += 1;
        let res = if budget.expired() {
            Ok(SolveResult::Unknown(Reason::Timeout))
        } else {
            run(query, budget, self.rlimit)
        };
        self.stats.seconds += start.elapsed().as_secs_f64();
        match &res {
            Ok(SolveResult::Sat(_)) => self.stats.sat += 1,
            Ok(SolveResult::Unsat) => self.stats.unsat += 1,
            Ok(SolveResult::Unknown(_)) => self.stats.unknown += 1,
            Err(_) => self.stats.errors += 1,
        }
        res
    }

    /// `z3.queries`, `z3.sat`, `z3.unsat`, `z3.unknown`, `z3.errors` (counts)
    /// and `z3.seconds` (total wall-clock time in `check`).
    fn stats(&self) -> BTreeMap<String, f64> {
        let s = self.stats;
        BTreeMap::from([
            ("z3.queries".to_string(), s.queries as f64),
            ("z3.sat".to_string(), s.sat as f64),
            ("z3.unsat".to_string(), s.unsat as f64),
            ("z3.unknown".to_string(), s.unknown as f64),
            ("z3.errors".to_string(), s.errors as f64),
            ("z3.seconds".to_string(), s.seconds),
        ])
    }
}

fn backend_error(message: impl Into<String>) -> SolverError {
    SolverError::Backend {
        backend: "z3".into(),
        message: message.into(),
    }
}

/// Runs one query in a fresh Z3 context (made current for this thread for
/// the duration of the call, then deleted).
fn run(query: &Query, budget: &Budget, rlimit: Option<u32>) -> Result<SolveResult, SolverError> {
    let cfg = ::z3::Config::new();
    ::z3::with_z3_config(&cfg, || decide(query, budget, rlimit))
}

/// Does Z3's reason for `unknown` say it ran out of time or was interrupted?
fn is_timeout_reason(reason: &str) -> bool {
    let r = reason.to_ascii_lowercase();
    ["timeout", "canceled", "cancelled", "interrupted"]
        .iter()
        .any(|k| r.contains(k))
}

fn decide(query: &Query, budget: &Budget, rlimit: Option<u32>) -> Result<SolveResult, SolverError> {
    let ctx = ::z3::Context::thread_local();
    let mut b = Builder::new(ctx);
    let mut asserted = Vec::with_capacity(query.assertions.len());
    for a in &query.assertions {
        // fpsym's values where SMT-LIB leaves results unspecified, as terms
        // (the translation then maps fp.min/max and fp.to_ubv/sbv directly).
        let a = &fpsym_expr::specify(a);
        let d = match b.translate(a) {
            Ok(d) => d,
            Err(Failure::Unsupported(why)) => return Ok(SolveResult::Unknown(Reason::Unsupported(why))),
            Err(Failure::Z3(e)) => return Err(backend_error(e)),
        };
        asserted.push(
            d.as_bool()
                .ok_or_else(|| backend_error(format!("assertion is not Boolean: {a:?}")))?,
        );
    }
    // A solver for the logic at hand skips Z3's probing of the goal (several
    // milliseconds per query); QF_BV covers queries without floats.
    let logic = if b.uses_floats() { "QF_FPBV" } else { "QF_BV" };
    let solver =
        ::z3::Solver::new_for_logic(logic).ok_or_else(|| backend_error(format!("no Z3 solver for {logic}")))?;
    for d in &asserted {
        solver.assert(d);
    }
    // Z3's fp.rem is wrong for subnormal divisors: decide the query with
    // every divisor normal (or zero, infinite, NaN), and never claim unsat.
    let rem_restricted = !b.rem_divisors().is_empty();
    for y in b.rem_divisors().to_vec() {
        let c = b.raw();
        // SAFETY: `y` is alive; the results are owned at once.
        let sub = b
            .own(unsafe { z3_sys::Z3_mk_fpa_is_subnormal(c, y.get_z3_ast()) })
            .map_err(backend_error)?;
        let not_sub = b
            .own(unsafe { z3_sys::Z3_mk_not(c, sub.get_z3_ast()) })
            .map_err(backend_error)?;
        solver.assert(
            &not_sub
                .as_bool()
                .ok_or_else(|| backend_error("isSubnormal is not Boolean"))?,
        );
    }
    // `ctrl_c` off: by default Z3 installs its own SIGINT handler for the
    // duration of `check`, which takes Ctrl-C away from the program
    // embedding it (the run's interrupt flag would never be raised). The
    // budget's cancellation flag is how a caller stops Z3.
    let mut p = ::z3::Params::new();
    p.set_bool("ctrl_c", false);
    if let Some(left) = budget.remaining() {
        if left.is_zero() {
            return Ok(SolveResult::Unknown(Reason::Timeout));
        }
        let ms = u32::try_from(left.as_millis().max(1)).unwrap_or(u32::MAX);
        p.set_u32("timeout", ms);
    }
    if let Some(r) = rlimit {
        p.set_u32("rlimit", r);
    }
    solver.set_params(&p);
    let (verdict, interrupted) = with_watchdog(b.raw(), budget, || solver.check());
    match verdict {
        ::z3::SatResult::Unsat if rem_restricted => Ok(SolveResult::Unknown(Reason::Incomplete(
            "no solution with normal fp.rem divisors; subnormal divisors are not explored (Z3 4.8.12's fp.rem is wrong there)"
                .into(),
        ))),
        ::z3::SatResult::Unsat => Ok(SolveResult::Unsat),
        ::z3::SatResult::Unknown => {
            let reason = solver.get_reason_unknown().unwrap_or_default();
            if interrupted || budget.expired() || is_timeout_reason(&reason) {
                Ok(SolveResult::Unknown(Reason::Timeout))
            } else {
                Ok(SolveResult::Unknown(Reason::Backend(reason)))
            }
        }
        ::z3::SatResult::Sat => match read_model(&mut b, &solver, query) {
            Ok(m) => Ok(SolveResult::Sat(m)),
            // An interrupt that raced with the end of the check may spoil
            // the model evaluation: the budget ran out, not Z3.
            Err(_) if interrupted => Ok(SolveResult::Unknown(Reason::Timeout)),
            Err(e) => Err(backend_error(e)),
        },
    }
}

/// The exact value of every variable of the query in Z3's model.
fn read_model(b: &mut Builder, solver: &::z3::Solver, query: &Query) -> Result<Model, String> {
    let z3m = solver.get_model().ok_or("Z3 answered sat without a model")?;
    let mut model = Model::new();
    for v in query.vars() {
        let d = b.get(&v).ok_or("variable missing from the translation")?.clone();
        let val = z3m
            .eval(&d, true)
            .ok_or_else(|| format!("Z3 cannot evaluate {v:?} in its model"))?;
        let value = b.value_of(&val, v.sort())?;
        model.insert(v, value);
    }
    Ok(model)
}

/// A raw context pointer handed to the watchdog thread. Z3 documents
/// `Z3_interrupt` as callable from another thread.
struct RawContext(Z3_context);
// SAFETY: only `Z3_interrupt` is called through it, which Z3 allows from any
// thread, and only while the owning thread is inside `with_watchdog` (the
// context is alive).
unsafe impl Send for RawContext {}

/// Runs `f` (a Z3 check on context `c`); if the budget has a deadline or a
/// cancellation flag, a watchdog thread interrupts Z3 `WATCHDOG_GRACE` after
/// the deadline, or as soon as it sees the flag raised (it looks every
/// `WATCHDOG_TICK`). Returns `f`'s result and whether the watchdog fired.
fn with_watchdog<R>(c: Z3_context, budget: &Budget, f: impl FnOnce() -> R) -> (R, bool) {
    if budget.deadline.is_none() && budget.cancel.is_none() {
        return (f(), false);
    }
    let limit = budget.deadline.map(|d| d + WATCHDOG_GRACE);
    // (finished, interrupted), under one lock so an interrupt never lands
    // after `f` has returned.
    let state = Mutex::new((false, false));
    let (tx, rx) = mpsc::channel::<()>();
    let raw = RawContext(c);
    std::thread::scope(|s| {
        let state = &state;
        s.spawn(move || {
            let raw = raw;
            loop {
                let now = Instant::now();
                let fire = budget.cancelled() || limit.is_some_and(|l| now >= l);
                if !fire {
                    let wait = limit.map_or(WATCHDOG_TICK, |l| (l - now).min(WATCHDOG_TICK));
                    match rx.recv_timeout(wait) {
                        Err(mpsc::RecvTimeoutError::Timeout) => continue,
                        _ => return,
                    }
                }
                let mut g = state.lock().unwrap_or_else(|e| e.into_inner());
                if !g.0 {
                    // SAFETY: the context is alive: its owner is blocked in `f`
                    // or waiting for this lock.
                    unsafe { z3_sys::Z3_interrupt(raw.0) };
                    g.1 = true;
                }
                return;
            }
        });
        let r = f();
        let interrupted = {
            let mut g = state.lock().unwrap_or_else(|e| e.into_inner());
            g.0 = true;
            g.1
        };
        drop(tx);
        (r, interrupted)
    })
}
