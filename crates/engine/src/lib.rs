//! fpsym's symbolic executor: runs LLVM 14 IR (from `fpsym-frontend`) with
//! symbolic inputs under exact IEEE-754 semantics, explores its paths,
//! writes a test per path and a finding per distinct bug.
//!
//! [`run`] is the entry point: it builds the initial state (globals, the
//! entry function's frame, a harness for `--function` runs), then loops:
//! the [`searcher::Searcher`] picks a state, the executor runs it until it
//! forks or ends; ended paths become tests (and findings) through the
//! [`report::ReportSink`]. Budgets stop the loop gracefully, keeping
//! everything found.
#![deny(missing_docs)]

pub mod checkers;
mod config;
pub mod directed;
/// The run's records and sinks (the `fpsym-report` crate).
pub use fpsym_report as report;
/// The process environment's models (`hooks/env.rs`).
pub use hooks::env;
pub mod exec;
pub mod fast;
pub mod harness;
pub mod hooks;
pub mod induction;
pub mod layout;
mod limits;
pub mod memory;
pub mod paths;
pub mod plugin;
pub mod posix;
pub mod prog;
mod retrier;
pub mod searcher;
pub mod seeds;
pub mod shape;
pub mod state;
pub mod term;
pub mod testkit;
pub mod value;

use exec::{End, Exec, ExecError, Feasible, Outcome};
use fpsym_expr::{eval, Model, Term, Value};
use fpsym_frontend::Program;
use fpsym_solver::Solver;
pub use limits::{resident_bytes, resident_bytes_of, MEMORY_CHECK_INTERVAL, RETRY_SHARE, WRAP_UP};
use limits::{Limits, FAST_CHUNK, LONE_QUANTUM};
use memory::{Cell, Kind as MemKind};
use prog::Prog;
use report::{Event, Finding, ReportSink, Test, TestObject};
use state::{Frame, Loc, State};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use term::bv;
use value::Val;

pub use config::{Config, Entry, Extensions, Goals, InputOptions, LibmModel, Policies, RunLimits};
pub use fpsym_report::{Property, Stats, StopReason, Summary, Verdict};

/// Why a run could not start.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The entry function does not exist or cannot be called.
    #[error("{0}")]
    Entry(String),
    /// A range was given for a parameter the entry function does not have.
    #[error("`{function}` has no parameter `{param}`")]
    NoParameter {
        /// The entry function.
        function: String,
        /// The name given.
        param: String,
    },
    /// A range cannot apply to its parameter.
    #[error("range of `{param}`: {message}")]
    Range {
        /// The parameter.
        param: String,
        /// Why.
        message: String,
    },
    /// The output could not be written.
    #[error("cannot write results: {0}")]
    Io(#[from] std::io::Error),
    /// Global initializers could not be evaluated.
    #[error("global `{0}`: {1}")]
    Global(String, String),
}

/// What a caller gives a run besides the program, the solver, the options
/// and the sink: the cancellation flag, which code is the user's, a
/// progress callback, and the mode's plug-ins (read back after the run).
pub struct RunContext<'a> {
    /// Raised (by Ctrl-C, a batch supervisor) to stop the run gracefully.
    pub interrupt: Arc<AtomicBool>,
    /// Which functions are the user's (for coverage). Default: every
    /// function with debug information (fpsym's C runtime included); a
    /// driver passes `UserCode::from_inputs` of its inputs.
    pub user: fpsym_frontend::UserCode,
    /// Called every 200 ms or so with the counters and the live states.
    pub progress: Option<&'a mut dyn FnMut(&Stats, usize)>,
    /// Observers and the branch oracle.
    pub plugins: plugin::Plugins,
    /// A second solver, for branch sides whose query timed out: they are
    /// asked again, with twice the timeout each time, on a thread of its
    /// own while the run goes on with its other states. None: they are
    /// asked between the run's steps, while such retries have taken less
    /// than [`RETRY_SHARE`] of the run's time, or when nothing else is
    /// left to run.
    pub retry_solver: Option<Box<dyn Solver>>,
}

impl Default for RunContext<'_> {
    fn default() -> Self {
        RunContext {
            interrupt: Arc::new(AtomicBool::new(false)),
            user: fpsym_frontend::UserCode::default(),
            progress: None,
            plugins: plugin::Plugins::default(),
            retry_solver: None,
        }
    }
}

/// Runs `program` per `config`, pushing results into `sink` (the caller
/// calls the sink's `finish` with the summary when it has added what it
/// knows). Stops gracefully when `cx.interrupt` is raised or a budget of
/// `config` runs out, keeping everything found.
/// With [`InputOptions::seeds`] (and no oracle of the mode's), the search is
/// seeded (see [`seeds`]).
pub fn run(
    program: &Program,
    solver: &mut dyn Solver,
    config: &Config,
    sink: &mut dyn ReportSink,
    cx: &mut RunContext<'_>,
) -> Result<Summary, EngineError> {
    if config.input.seeds.is_empty() || cx.plugins.oracle.is_some() {
        return run_unseeded(program, solver, config, sink, cx);
    }
    let shared = Arc::new(std::sync::Mutex::new(seeds::SeedShared::default()));
    let stop = seeds::Stop {
        deadline: config
            .limits
            .max_time
            .and_then(|d| std::time::Instant::now().checked_add(d)),
        interrupt: Some(cx.interrupt.clone()),
    };
    let oracle = seeds::SeedOracle::new(config.input.seeds.clone(), shared.clone())
        .with_crashes(config.input.crash_seeds)
        .with_stop(stop);
    let observers = cx.plugins.observers.len();
    cx.plugins.observers.push(Box::new(oracle.tracker()));
    cx.plugins.oracle = Some(Box::new(oracle));
    let mut seeded = seeds::SeedSolver::new(solver, shared.clone());
    let summary = run_unseeded(program, &mut seeded, config, sink, cx);
    cx.plugins.oracle = None;
    cx.plugins.observers.truncate(observers);
    let mut summary = summary?;
    summary.stats.seeded_queries = shared.lock().map(|s| s.answered).unwrap_or(0);
    Ok(summary)
}

/// [`run`] without installing the seeds' oracle.
fn run_unseeded(
    program: &Program,
    solver: &mut dyn Solver,
    config: &Config,
    sink: &mut dyn ReportSink,
    cx: &mut RunContext<'_>,
) -> Result<Summary, EngineError> {
    let start = Instant::now();
    let interrupt = cx.interrupt.clone();
    let prog = Prog::new(program, |f| cx.user.is_user_function(f));
    let entry = match &config.entry {
        Entry::Main => "main",
        Entry::Function { name, .. } => name.as_str(),
    };
    let mut stats = Stats {
        branches_total: prog.branch_edges_from(entry) as u64,
        ..Default::default()
    };
    let deadline = config.limits.max_time.map(|d| start + d);
    let mut globals = HashMap::new();
    let mut init = exec::placeholder();
    init.id = 0;
    // Allocate globals first (initializers may point at each other).
    for g in &prog.module.global_vars {
        let name = exec::operand::name_str(&g.name);
        let ty = pointee(g);
        let size = prog.layout.alloc_size(&ty);
        let base = init.mem.allocate(
            size,
            (g.alignment as u64).max(prog.layout.align(&ty)),
            MemKind::Global,
            &name,
            Some(ty.clone()),
            Cell::byte(bv(8, 0)),
        );
        globals.insert(name, base);
    }
    let mut searcher = config.policy.search.build(config.policy.seed);
    let mut engine = Engine {
        prog: &prog,
        solver,
        config,
        stats: &mut stats,
        globals: &globals,
        deadline,
        sink,
        finding_keys: HashSet::new(),
        goal_found: false,
        pairs: HashMap::new(),
        unchecked: HashSet::new(),
        covered: Default::default(),
        tests: 0,
        incomplete: None,
        printed: Vec::new(),
        checkers: config
            .extensions
            .checkers
            .iter()
            .map(|c| {
                let mut k = c.make();
                k.start(&program.module);
                k
            })
            .collect(),
        plugins: &mut cx.plugins,
        cancel: Some(interrupt.clone()),
        fault: None,
        retry_seconds: 0.0,
        fast: fast::Fast::default(),
    };
    for g in &prog.module.global_vars {
        let name = exec::operand::name_str(&g.name);
        if let Some(init_c) = &g.initializer {
            let base = globals[&name];
            let ty = prog.layout.resolve(&pointee(g)).cloned();
            let Some(ty) = ty else { continue };
            let mut ex = engine.exec();
            let v = ex
                .constant(init_c)
                .map_err(|e| EngineError::Global(name.clone(), e.to_string()))?;
            let cells = ex.cells_of(&v, &ty);
            drop(ex);
            init.mem.write(base, 0, &cells);
        }
    }
    // One initial path per combination of symbolic argument counts.
    let mut states: BTreeMap<u64, State> = BTreeMap::new();
    let mut next_id = 0u64;
    let mut entries = Vec::new();
    match &config.extensions.induction {
        Some(induction::Induction {
            head,
            step: Some(facts),
            ..
        }) => {
            for rm in induction::start_modes(program) {
                let mut st = init.clone();
                st.id = next_id;
                st.rm = rm;
                engine.enter_head(&mut st, head, facts)?;
                states.insert(next_id, st);
                entries.push((next_id, 0));
                next_id += 1;
            }
        }
        _ => {
            for lens in engine.arg_layouts()? {
                let mut st = init.clone();
                st.id = next_id;
                engine.enter(&mut st, &lens)?;
                states.insert(next_id, st);
                entries.push((next_id, 0));
                next_id += 1;
            }
        }
    }
    drop(init);
    engine.stats.states = next_id;
    searcher.update(&entries, &[]);
    let mut limits = Limits::new(config, deadline, interrupt.clone());
    let mut pending: std::collections::VecDeque<Pending> = Default::default();
    // The retries' own thread, and the side it is deciding.
    let mut background = cx.retry_solver.take().and_then(retrier::Background::new);
    let mut in_flight: Option<Pending> = None;
    let mut stop = StopReason::Exhausted;
    let mut last_progress = Instant::now();
    loop {
        if let Some(s) = limits.check(engine.stats, states.len(), engine.fault.as_ref(), false) {
            stop = s;
            break;
        }
        if last_progress.elapsed() > Duration::from_millis(200) {
            if let Some(p) = cx.progress.as_mut() {
                engine.stats.branches_covered = engine.covered.len() as u64;
                engine.stats.seconds = start.elapsed().as_secs_f64();
                p(engine.stats, states.len());
            }
            last_progress = Instant::now();
        }
        // Branch sides whose query timed out: on the retries' thread, one
        // after another as soon as they come, the run going on meanwhile
        // (waiting for the answer only when nothing else is left to run).
        if let Some(bg) = background.as_mut() {
            if in_flight.is_some() {
                let wait = if searcher.is_empty() {
                    Duration::from_millis(50)
                } else {
                    Duration::ZERO
                };
                if let Some((r, secs)) = bg.answer(wait) {
                    engine.retry_seconds += secs;
                    let p = in_flight.take().expect("a side in flight");
                    // The run's solver learns the answer (its caches then
                    // answer the path's later queries that contain it).
                    if let Ok(res @ (fpsym_solver::SolveResult::Sat(_) | fpsym_solver::SolveResult::Unsat)) = &r {
                        engine
                            .solver
                            .learn(&fpsym_solver::Query::new(p.state.path.clone()), res);
                    }
                    let d = exec::decision(r, &mut engine.fault);
                    if let Some(s) = engine.settle(p, d, &mut pending)? {
                        let entry = engine.admit(&mut states, &mut next_id, s);
                        searcher.update(&[entry], &[]);
                    }
                    continue;
                }
            }
            if in_flight.is_none() && engine.fault.is_none() {
                if let Some(mut p) = pending.pop_front() {
                    p.timeout = p.timeout.saturating_mul(2);
                    p.retries += 1;
                    engine.stats.retries += 1;
                    engine.stats.queries += 1;
                    bg.start(
                        fpsym_solver::Query::new(p.state.path.clone()),
                        engine.deadline,
                        p.timeout,
                    );
                    in_flight = Some(p);
                }
            }
            // (A goal reached stops the run below, without the answer.)
            if in_flight.is_some() && searcher.is_empty() && !engine.goal_found {
                continue;
            }
        }
        // Without that thread: asked again here when nothing else is left
        // to run, or while retries have used less than their share of the
        // run's time.
        if let (None, Some(p)) = (&background, pending.front()) {
            let next = p.timeout.saturating_mul(2).as_secs_f64();
            let due = engine.retry_seconds + next <= RETRY_SHARE * start.elapsed().as_secs_f64();
            if searcher.is_empty() || due {
                let p = pending.pop_front().expect("a pending side");
                if let Some(s) = engine.retry(p, &mut pending)? {
                    let entry = engine.admit(&mut states, &mut next_id, s);
                    searcher.update(&[entry], &[]);
                }
                continue;
            }
        }
        if engine.goal_found {
            stop = StopReason::Goal;
            break;
        }
        let Some(id) = searcher.select() else { break };
        let mut st = states.remove(&id).expect("searcher ids are live states");
        let mut added = Vec::new();
        let mut removed = Vec::new();
        let mut ran = 0;
        // Steps the executor ran in this turn (the rest ran on the fast path).
        let mut slow = 0;
        // Unless an observer needs every step, concrete instructions run
        // on the fast path first (its results are the executor's; see
        // `fast`).
        let fast_on = config.policy.fast_path && engine.plugins.observers.iter().all(|o| o.fast_path_ok());
        let fast_branches = engine.plugins.oracle.as_ref().is_none_or(|o| o.fast_path_ok());
        let fast_terminators = !engine
            .checkers
            .iter()
            .any(|c| c.looks_at(checkers::PointKind::Terminator) || c.looks_at(checkers::PointKind::Returned));
        loop {
            // A state with nothing else to run beside it (no other state,
            // no branch side waiting for an answer) goes on past the
            // quantum while it runs on the fast path, up to LONE_QUANTUM
            // steps: the searcher would choose it again, and each turn's
            // end writes its stored bytes back (`fast::run`). Its steps on
            // the executor still end the turn at the quantum.
            let alone = states.is_empty() && pending.is_empty() && in_flight.is_none();
            let quantum = if alone {
                config.limits.quantum.max(LONE_QUANTUM)
            } else {
                config.limits.quantum
            };
            let (fast_ran, fast_steps) = if fast_on {
                // As many steps as the executor would run before the
                // searcher chooses again; no instruction past the limit.
                let steps = FAST_CHUNK.min(quantum.saturating_sub(ran));
                let instructions = config
                    .limits
                    .max_instructions
                    .map_or(u64::MAX, |m| m.saturating_sub(engine.stats.instructions));
                let cx = fast::Cx {
                    prog: engine.prog,
                    config,
                    globals: engine.globals,
                    checkers: &engine.checkers,
                    branches: fast_branches,
                    terminators: fast_terminators,
                };
                fast::run(&mut engine.fast, &cx, &mut st, steps, instructions)
            } else {
                (0, 0)
            };
            let queries_before = engine.stats.queries;
            if fast_ran > 0 {
                engine.stats.instructions += fast_ran;
                engine.stats.fast_instructions += fast_ran;
                st.steps += fast_ran;
                ran += fast_steps;
            } else {
                let (outcome, fx) = engine.exec().step(&mut st);
                let exec::Effects {
                    side_findings: side,
                    continued,
                    pairs,
                    forked,
                    events,
                    printed,
                    side_ends,
                    undecided,
                } = fx;
                let mut ends: Vec<(State, End)> = side.into_iter().map(|(s, v)| (s, End::Error(v))).collect();
                ends.extend(side_ends);
                engine.printed.extend(printed);
                for e in events {
                    engine.sink.event(&e)?;
                    if e.makes_incomplete() {
                        engine.incomplete.get_or_insert_with(|| match &e {
                            crate::report::Event::ExternalCall { function, .. } => hooks::unmodelled_call(function),
                            e => e.describe(),
                        });
                    }
                }
                for (s, e) in ends {
                    engine.end_or_defer(&mut pending, &undecided, s, e)?;
                }
                for (s, v) in continued {
                    engine.report_continued(&s, v)?;
                }
                for (key, input) in pairs {
                    if let Some((_, _, inputs)) = engine.pairs.get_mut(&key) {
                        inputs.insert(input);
                    }
                }
                for o in forked {
                    match Pending::of(&undecided, o, None) {
                        Ok(p) => pending.push_back(p),
                        Err((o, _)) => added.push(engine.admit(&mut states, &mut next_id, o)),
                    }
                }
                ran += 1;
                slow += 1;
                match outcome {
                    Ok(Outcome::Continue) => {}
                    Ok(Outcome::Fork(others)) => {
                        for o in others {
                            match Pending::of(&undecided, o, None) {
                                Ok(p) => pending.push_back(p),
                                Err((o, _)) => added.push(engine.admit(&mut states, &mut next_id, o)),
                            }
                        }
                    }
                    Ok(Outcome::End(end)) => {
                        engine.end_or_defer(&mut pending, &undecided, st, end)?;
                        removed.push(id);
                        break;
                    }
                    Err(ExecError::Unsupported(what)) => {
                        let loc = engine.location(&st);
                        engine.sink.event(&Event::PathStopped {
                            loc,
                            reason: format!("unsupported: {what}"),
                        })?;
                        engine.incomplete.get_or_insert_with(|| format!("unsupported: {what}"));
                        engine.finish(st, End::Partial(report::Partial::Unsupported(what.to_string())))?;
                        removed.push(id);
                        break;
                    }
                }
                // The state itself went on into a side not decided in time.
                if !undecided.is_empty() {
                    st = match Pending::of(&undecided, st, None) {
                        Ok(p) => {
                            pending.push_back(p);
                            removed.push(id);
                            break;
                        }
                        Err((st, _)) => st,
                    };
                }
            }
            // An invariant check: a path at the loop head is asked about
            // the facts there and ends.
            if let Some(end) = engine.invariant_check(&mut st) {
                engine.finish(st, end)?;
                removed.push(id);
                break;
            }
            // k-induction: a path past the head's k + 1-th arrival is
            // outside the case's question.
            if engine.induction_visits(&st).is_some_and(|(c, k)| c > k) {
                engine.finish(st, End::Infeasible)?;
                removed.push(id);
                break;
            }
            if let Some(b) = config.limits.loop_bound {
                if st.loop_visits.values().any(|v| *v > b) {
                    engine
                        .incomplete
                        .get_or_insert_with(|| format!("loop bound {b} reached"));
                    engine.finish(st, End::Partial(report::Partial::LoopBound(b)))?;
                    removed.push(id);
                    break;
                }
            }
            // A step that asked the solver may have taken long: read the clock.
            let cheap = engine.stats.queries == queries_before;
            let must_stop = limits
                .check(engine.stats, states.len() + 1, engine.fault.as_ref(), cheap)
                .is_some();
            let turn_over =
                ran >= quantum || (ran >= config.limits.quantum && (!alone || slow >= config.limits.quantum));
            if !added.is_empty() || turn_over || must_stop || engine.goal_found {
                let p = engine.priority(&st);
                states.insert(id, st);
                removed.push(id);
                added.push((id, p));
                break;
            }
        }
        searcher.update(&added, &removed);
    }
    // Branch sides still undecided are dropped now (with an event each),
    // the one being retried included (its query cancelled).
    drop(background);
    if let Some(p) = in_flight.take() {
        pending.push_front(p);
    }
    for p in std::mem::take(&mut pending) {
        let why = match p.retries {
            0 => format!("{}; still undecided when the run stopped", p.reason),
            n => format!(
                "{}; still undecided when the run stopped, after {n} retries (the last with {:.1} s)",
                p.reason,
                p.timeout.as_secs_f64()
            ),
        };
        engine.drop_pending(p, why)?;
    }
    // Whatever is left ends here, as partial paths with a test each, as far
    // as one more second of solving allows (a budget stop must not turn
    // into minutes of test generation). The wrap-up's queries end early
    // enough that a backend overstaying its deadline still fits in the
    // second; after a solver fault nothing more is asked.
    let left: Vec<State> = std::mem::take(&mut states).into_values().collect();
    let left_n = left.len();
    let wrap_up = Instant::now() + WRAP_UP;
    let solve_until = wrap_up.checked_sub(fpsym_solver::OVERSTAY).unwrap_or(wrap_up);
    engine.deadline = Some(solve_until);
    engine.cancel = None;
    for st in left {
        if engine.fault.is_some() || Instant::now() >= solve_until {
            engine.stats.paths_partial += 1;
            let end = End::Partial(report::Partial::Stopped(stop.to_string()));
            for o in engine.plugins.observers.iter_mut() {
                o.at_path_end(&st, &end);
            }
            continue;
        }
        engine.finish(st, End::Partial(report::Partial::Stopped(stop.to_string())))?;
    }
    // Each finding of a continuing check with the inputs counted.
    let mut counted: Vec<_> = engine.pairs.drain().map(|(_, v)| v).collect();
    counted.sort_by_key(|(k, _, _)| *k);
    for (k, mut f, inputs) in counted {
        f.inputs = Some(inputs.len() as u64);
        engine.sink.amend(k, &f)?;
    }
    engine.stats.branches_covered = engine.covered.len() as u64;
    engine.stats.seconds = start.elapsed().as_secs_f64();
    let stopped = (stop != StopReason::Exhausted || left_n > 0).then(|| format!("stopped early ({stop})"));
    let excluded = engine.stats.excluded;
    let directed = (excluded > 0).then(|| format!("a branch oracle excluded {excluded} branch side(s)"));
    // Why the run is not exhaustive and exact: its own reasons (those of
    // the paths a branch oracle let through), then the oracle's exclusions.
    let partial = (engine.stats.paths_partial > 0).then(|| "some paths stopped early".to_string());
    let own: Vec<String> = stopped.into_iter().chain(engine.incomplete.clone()).collect();
    let directed_incomplete = if own.is_empty() {
        partial.clone()
    } else {
        Some(own.join("; "))
    };
    let why: Vec<String> = own.into_iter().chain(directed).collect();
    let incomplete = if why.is_empty() { partial } else { Some(why.join("; ")) };
    let verdict = if engine.stats.findings > 0 {
        Verdict::BugFound
    } else if let Some(why) = &incomplete {
        Verdict::Incomplete(why.clone())
    } else {
        Verdict::Verified
    };
    let stats = engine.stats.clone();
    let printed = std::mem::take(&mut engine.printed);
    let mut summary = Summary {
        stats,
        stop,
        verdict,
        directed_incomplete,
        incomplete,
        solver: engine.solver.stats(),
        property: None,
        sv_comp: None,
        printed,
        phases: Vec::new(),
        proof: None,
    };
    if config.goals.property != Property::AllFindings {
        summary.property = Some(config.goals.property);
    }
    if config.goals.property == Property::UnreachCall {
        summary.sv_comp = Some(summary.sv_comp_verdict().to_string());
    }
    Ok(summary)
}

/// How a test's path ends, before its model is known.
enum TestEnd {
    /// An exit with this status term (evaluated in the test's model).
    Exit(Term),
    /// Known already.
    Known(report::PathEnd),
}

/// An input object's bytes under `model` (complete for its variables).
fn object_bytes(s: &state::Symbolic, model: &Model) -> Vec<u8> {
    s.bytes
        .iter()
        .map(|b| match eval(b, model) {
            Ok(Value::Bv(x)) => x.bits() as u8,
            _ => 0,
        })
        .collect()
}

/// `model` with a value for every variable of `st`'s inputs (the default
/// of its sort for those it leaves free).
fn complete_for_inputs(st: &State, mut model: Model) -> Model {
    let vars: Vec<Term> = st
        .symbolics
        .iter()
        .flat_map(|s| s.bytes.iter().flat_map(|b| b.vars()))
        .collect();
    model.complete(&vars);
    model
}

/// All of a path's input bytes under `model`, in the order of its input
/// objects (what tells two inputs apart).
pub(crate) fn input_bytes(st: &State, model: &Model) -> Vec<u8> {
    let m = complete_for_inputs(st, model.clone());
    st.symbolics.iter().flat_map(|s| object_bytes(s, &m)).collect()
}

/// The type a global variable holds (its IR type is a pointer to it).
fn pointee(g: &llvm_ir::module::GlobalVariable) -> llvm_ir::TypeRef {
    match g.ty.as_ref() {
        llvm_ir::Type::PointerType { pointee_type, .. } => pointee_type.clone(),
        _ => g.ty.clone(),
    }
}

/// A branch side whose feasibility query timed out: kept aside (not run,
/// not dropped) and asked again later with the timeout doubled each time.
struct Pending {
    /// The state; its path condition includes the side's condition.
    state: State,
    /// How it goes on once found feasible: None runs it as a live state;
    /// Some ends it so (a finding a checker forked off, an exit, ...).
    then: Option<End>,
    /// The timeout its last query had.
    timeout: Duration,
    /// Where the branch is.
    loc: Option<Loc>,
    /// Why it was undecided (`timeout`, or the solver fault).
    reason: String,
    /// Retries so far.
    retries: u32,
    /// A side of a branch of the program ([`exec::Undecided::branch`]).
    branch: bool,
}

impl Pending {
    /// `st` kept aside if its path holds a condition of `undecided` (and it
    /// does not end as infeasible anyway); else `st` and `then` back.
    #[allow(clippy::result_large_err)]
    fn of(undecided: &[exec::Undecided], st: State, then: Option<End>) -> Result<Pending, (State, Option<End>)> {
        if matches!(then, Some(End::Infeasible)) {
            return Err((st, then));
        }
        match exec::undecided_in(undecided, &st) {
            Some(u) => Ok(Pending {
                timeout: u.timeout,
                loc: u.loc.clone(),
                reason: u.reason.clone(),
                branch: u.branch,
                state: st,
                then,
                retries: 0,
            }),
            None => Err((st, then)),
        }
    }
}

/// Run-wide state around the executor.
struct Engine<'e, 'p> {
    prog: &'e Prog<'p>,
    solver: &'e mut dyn Solver,
    config: &'e Config,
    stats: &'e mut Stats,
    globals: &'e HashMap<String, u64>,
    deadline: Option<Instant>,
    sink: &'e mut dyn ReportSink,
    finding_keys: HashSet<(checkers::Kind, Option<Loc>)>,
    /// A finding of [`Goals::stop_at_finding`]'s kind was reported.
    goal_found: bool,
    /// With [`InputOptions::count_inputs`]: per finding of a continuing check,
    /// its index among the findings, the finding, and the distinct inputs
    /// found reaching it.
    pairs: HashMap<(checkers::Kind, Option<Loc>), (usize, Finding, HashSet<Vec<u8>>)>,
    unchecked: HashSet<(checkers::Kind, Option<Loc>)>,
    covered: rustc_hash::FxHashSet<(usize, usize, usize)>,
    tests: u64,
    incomplete: Option<String>,
    printed: Vec<String>,
    checkers: Vec<Box<dyn checkers::Checker>>,
    plugins: &'e mut plugin::Plugins,
    /// The run's cancellation flag, passed into every query's budget
    /// (None during the wrap-up, which has its own deadline).
    cancel: Option<Arc<AtomicBool>>,
    /// The first solver fault: the run stops with it.
    fault: Option<fpsym_solver::SolverError>,
    /// Seconds spent retrying timed-out branch sides.
    retry_seconds: f64,
    /// The concrete fast path's decoded functions.
    fast: fast::Fast,
}

impl<'e, 'p> Engine<'e, 'p> {
    fn exec(&mut self) -> Exec<'_, 'p> {
        Exec {
            prog: self.prog,
            solver: &mut *self.solver,
            config: self.config,
            stats: &mut *self.stats,
            globals: self.globals,
            deadline: self.deadline,
            effects: Default::default(),
            found: &self.finding_keys,
            unchecked: &mut self.unchecked,
            checkers: &mut self.checkers,
            plugins: &mut *self.plugins,
            cancel: self.cancel.clone(),
            fault: &mut self.fault,
            branching: false,
            constant_argument: false,
        }
    }

    /// The argument lists the run starts a path with (the maximal length
    /// of each symbolic argument; see [`posix::SymIo::layouts`]): one
    /// empty list unless `main` takes `argv` and arguments are symbolic.
    /// With [`InputOptions::inputs`], only those whose arguments the inputs
    /// give, with their sizes.
    fn arg_layouts(&self) -> Result<Vec<Vec<u32>>, EngineError> {
        let io = &self.config.input.sym_io;
        if io.is_empty() {
            return Ok(vec![Vec::new()]);
        }
        if let Entry::Function { name, .. } = &self.config.entry {
            return Err(EngineError::Entry(format!(
                "--sym-arg, --sym-args and --sym-stdin apply to `main`, not to --function {name}"
            )));
        }
        io.validate().map_err(EngineError::Entry)?;
        let takes_argv = self
            .prog
            .func_index
            .get("main")
            .is_some_and(|&f| self.prog.funcs[f].parameters.len() >= 2);
        if !takes_argv {
            return Ok(vec![Vec::new()]);
        }
        let mut layouts = io.layouts();
        if let Some(given) = &self.config.input.inputs {
            let sizes: Vec<usize> = (1..)
                .map_while(|k| given.get(&format!("argv[{k}]")).map(Vec::len))
                .collect();
            layouts.retain(|l| l.len() == sizes.len() && l.iter().zip(&sizes).all(|(n, s)| *n as usize + 1 == *s));
        }
        Ok(layouts)
    }

    /// Pushes the entry frame (and, for `--function`, its inputs); `main`
    /// gets one symbolic argument per entry of `arg_lens` (its maximal
    /// length) and the symbolic standard input of [`InputOptions::sym_io`].
    fn enter(&mut self, st: &mut State, arg_lens: &[u32]) -> Result<(), EngineError> {
        let (name, harness) = match &self.config.entry {
            Entry::Main => ("main".to_string(), None),
            Entry::Function {
                name,
                ranges,
                array_len,
            } => (name.clone(), Some((ranges.clone(), *array_len))),
        };
        let &fidx = self
            .prog
            .func_index
            .get(&name)
            .ok_or_else(|| EngineError::Entry(format!("no function `{name}` with a body in the program")))?;
        let f = self.prog.funcs[fidx];
        let mut regs = self.prog.regs(fidx);
        let layout = self.prog.layout;
        let views = match &harness {
            Some((_, array_len)) => crate::harness::param_views(self.prog, f, *array_len),
            None => Vec::new(),
        };
        let mut ex = self.exec();
        for (k, p) in f.parameters.iter().enumerate() {
            let pname = match &p.name {
                llvm_ir::Name::Name(s) => s.to_string(),
                llvm_ir::Name::Number(n) => format!("arg{n}"),
            };
            let v = match (&harness, layout.resolve(&p.ty)) {
                (None, Some(llvm_ir::Type::IntegerType { bits })) if k == 0 => {
                    Val::Bv(bv(*bits, 1 + arg_lens.len() as u128))
                }
                // argv = {"prog", argv[1], ..., NULL}
                (None, Some(llvm_ir::Type::PointerType { .. })) if k == 1 => {
                    Val::Bv(bv(64, ex.sym_argv(st, arg_lens) as u128))
                }
                (None, _) => ex.zero(&p.ty).map_err(|e| EngineError::Entry(e.to_string()))?,
                (Some((ranges, array_len)), t) => {
                    let t = t
                        .cloned()
                        .ok_or_else(|| EngineError::Entry(format!("parameter {pname} has an opaque type")))?;
                    let view = &views[k];
                    let v = ex
                        .harness_input(st, view, &t, *array_len)
                        .map_err(|e| EngineError::Entry(e.to_string()))?;
                    // `--range` names the IR parameter or the C name tests show.
                    if let Some(range) = ranges.iter().find(|r| r.name == pname || r.name == view.name) {
                        let signed = match &view.shape {
                            Some(crate::shape::Shape::Int { signed, .. }) => Some(*signed),
                            _ => None,
                        };
                        let pointer = matches!(ex.prog.layout.resolve(&t), Some(llvm_ir::Type::PointerType { .. }));
                        let ranged = if pointer {
                            ex.range_pointee(st, &v, range)
                        } else {
                            ex.range(st, &v, range, signed)
                        };
                        ranged.map_err(|message| EngineError::Range {
                            param: view.name.clone(),
                            message,
                        })?;
                    }
                    v
                }
            };
            regs.insert(p.name.clone(), v);
        }
        // Standard input after the arguments (tests list them in this order).
        if let (None, Some(n)) = (&harness, ex.config.input.sym_io.stdin) {
            ex.sym_stdin(st, n);
        }
        drop(ex);
        if let Some((ranges, _)) = &harness {
            for n in ranges.iter().map(|r| &r.name) {
                let known = f
                    .parameters
                    .iter()
                    .any(|p| matches!(&p.name, llvm_ir::Name::Name(s) if s.as_str() == n))
                    || views.iter().any(|v| v.name == *n);
                if !known {
                    return Err(EngineError::NoParameter {
                        function: name.clone(),
                        param: n.clone(),
                    });
                }
            }
        }
        st.frames.push(Frame::new(fidx, regs));
        Ok(())
    }

    /// Asks again whether a pending branch side is feasible, with twice its
    /// last timeout. Feasible: a live state is returned (an ending one ends
    /// here); infeasible: gone; timed out again: back in `pending` while
    /// the budget allows (without `max_time`, until the timeout would pass
    /// `timeout_retry_cap` × `solver_timeout`), else dropped with an event.
    fn retry(
        &mut self,
        mut p: Pending,
        pending: &mut std::collections::VecDeque<Pending>,
    ) -> Result<Option<State>, EngineError> {
        let timeout = p.timeout.saturating_mul(2);
        p.retries += 1;
        self.stats.retries += 1;
        let began = Instant::now();
        let d = self.exec().decide(&p.state, &[], Some(timeout));
        self.retry_seconds += began.elapsed().as_secs_f64();
        p.timeout = timeout;
        self.settle(p, d, pending)
    }

    /// What a retry's answer `d` (asked with `p.timeout`) makes of the
    /// pending side `p`: see [`Engine::retry`].
    fn settle(
        &mut self,
        mut p: Pending,
        d: exec::Decision,
        pending: &mut std::collections::VecDeque<Pending>,
    ) -> Result<Option<State>, EngineError> {
        let timeout = p.timeout;
        match d {
            exec::Decision::Yes(_) => {
                self.stats.recovered += 1;
                match p.then.take() {
                    None => return Ok(Some(p.state)),
                    Some(end) => self.finish(p.state, end)?,
                }
            }
            exec::Decision::No => {
                self.stats.recovered_infeasible += 1;
                // Observers see a branch side end as refuted.
                if p.branch {
                    let end = End::Partial(report::Partial::Refuted { retries: p.retries });
                    for o in self.plugins.observers.iter_mut() {
                        o.at_path_end(&p.state, &end);
                    }
                }
            }
            exec::Decision::Timeout => {
                let cap = self
                    .config
                    .limits
                    .solver_timeout
                    .map(|t| t.saturating_mul(self.config.limits.timeout_retry_cap));
                let next = timeout.saturating_mul(2);
                if self.config.limits.max_time.is_some() || cap.is_some_and(|c| next <= c) {
                    pending.push_back(p);
                } else {
                    let why = format!(
                        "timeout; still undecided after {} retries (the last with {:.1} s)",
                        p.retries,
                        timeout.as_secs_f64()
                    );
                    self.drop_pending(p, why)?;
                }
            }
            exec::Decision::Unknown(why) => self.drop_pending(p, why)?,
        }
        Ok(None)
    }

    /// Gives up on a pending branch side: a `BranchDropped` event, and the
    /// verdict is incomplete.
    fn drop_pending(&mut self, p: Pending, why: String) -> Result<(), EngineError> {
        let end = if p.branch {
            End::Partial(report::Partial::Dropped(why.clone()))
        } else {
            End::Partial(report::Partial::CheckUndecided(why.clone()))
        };
        for o in self.plugins.observers.iter_mut() {
            o.at_path_end(&p.state, &end);
        }
        let e = Event::BranchDropped {
            loc: p.loc,
            reason: why,
        };
        self.sink.event(&e)?;
        self.incomplete.get_or_insert_with(|| e.describe());
        self.stats.dropped += 1;
        Ok(())
    }

    /// Gives a new state its id, counts it and files it with the live
    /// ones; its entry for the searcher.
    fn admit(&mut self, states: &mut BTreeMap<u64, State>, next_id: &mut u64, mut s: State) -> (u64, i64) {
        s.id = *next_id;
        *next_id += 1;
        self.stats.states += 1;
        let entry = (s.id, self.priority(&s));
        states.insert(s.id, s);
        entry
    }

    /// A path ended with `end`: it is finished, or set aside when it went
    /// through a branch side that was not decided in time (`undecided`).
    fn end_or_defer(
        &mut self,
        pending: &mut std::collections::VecDeque<Pending>,
        undecided: &[exec::Undecided],
        st: State,
        end: End,
    ) -> Result<(), EngineError> {
        match Pending::of(undecided, st, Some(end)) {
            Ok(p) => pending.push_back(p),
            Err((st, end)) => self.finish(st, end.expect("an ending was given"))?,
        }
        Ok(())
    }

    fn priority(&self, st: &State) -> i64 {
        // A directed mode's oracle ranks states itself (closest first).
        if let Some(p) = self.plugins.oracle.as_ref().and_then(|o| o.priority(st)) {
            return p;
        }
        // Coverage-new: states whose last branch edge is new come first.
        match st.trail.last() {
            Some(e) if !self.covered.contains(e) => 1,
            _ => 0,
        }
    }

    fn location(&self, st: &State) -> Option<Loc> {
        let f = st.frames.last()?;
        let func = self.prog.funcs[f.func];
        let b = &func.basic_blocks[f.bb];
        let k = f.ip.saturating_sub(1);
        match b.instrs.get(k) {
            Some(i) => exec::instr_loc(i),
            None => {
                use llvm_ir::HasDebugLoc;
                crate::state::loc_of(b.term.get_debug_loc())
            }
        }
    }

    /// A path ended: write its test, and its finding if it is a new one.
    fn finish(&mut self, st: State, end: End) -> Result<(), EngineError> {
        // The step case of k-induction assumes no error before the head's
        // k-th arrival: a path reaching one is not among its paths.
        let induction = self.config.extensions.induction.as_ref();
        let end = match end {
            End::Error(_)
                if induction.is_some_and(|i| i.step.is_some())
                    && self.induction_visits(&st).is_some_and(|(c, k)| c < k) =>
            {
                End::Infeasible
            }
            // An invariant check asks about states at the loop head only:
            // a path that fails before it gets there is none of them.
            End::Error(_) if induction.is_some_and(|i| i.check.is_some()) => End::Infeasible,
            e => e,
        };
        for o in self.plugins.observers.iter_mut() {
            o.at_path_end(&st, &end);
        }
        let end = match end {
            End::Error(v) => End::Error(self.at_user_call(v)),
            e => e,
        };
        for e in st.trail.edges() {
            if self.prog.user[e.0] {
                self.covered.insert(*e);
            }
        }
        use report::{PathEnd, Termination};
        let (record, violation) = match &end {
            End::Exit(code) => {
                self.stats.paths_completed += 1;
                (TestEnd::Exit(code.clone()), None)
            }
            End::Error(v) if self.config.goals.property.reach_error_only() && v.kind != checkers::Kind::ReachError => {
                let how = match v.kind {
                    _ if v.signal.is_some() => v.signal,
                    checkers::Kind::Abort => Some(Termination::Abort),
                    checkers::Kind::AssertionFailure => Some(Termination::AssertionFailure),
                    checkers::Kind::DivisionByZero => Some(Termination::DivisionByZero),
                    _ => None,
                };
                match how {
                    // The program ends here (SIGABRT, glibc's assertion
                    // message then SIGABRT, SIGFPE, SIGILL): a normal end.
                    Some(how) => {
                        self.stats.paths_completed += 1;
                        (TestEnd::Known(PathEnd::Terminated(how)), None)
                    }
                    // Undefined behaviour: the property cannot be judged past it.
                    None => {
                        self.stats.paths_partial += 1;
                        let at = v.loc.as_ref().map(|l| format!(" at {l}")).unwrap_or_default();
                        let why = report::Partial::UndefinedBehaviour(format!("{}{at}", v.kind));
                        self.incomplete
                            .get_or_insert_with(|| format!("{why}: the property cannot be judged past it"));
                        (TestEnd::Known(PathEnd::Partial(why)), None)
                    }
                }
            }
            End::Error(v) => {
                self.stats.paths_completed += 1;
                (TestEnd::Known(PathEnd::Error(v.kind.clone())), Some(v.clone()))
            }
            End::Infeasible => {
                self.stats.paths_infeasible += 1;
                return Ok(());
            }
            End::Partial(why) => {
                self.stats.paths_partial += 1;
                (TestEnd::Known(PathEnd::Partial(why.clone())), None)
            }
            // Counted as the infeasible sides of a directed run are (it
            // cannot reach the target), with a test for replay to check.
            End::Pruned => {
                self.stats.paths_infeasible += 1;
                (TestEnd::Known(PathEnd::Partial(report::Partial::Pruned)), None)
            }
        };
        if let Some(v) = &violation {
            if self.finding_keys.contains(&(v.kind.clone(), v.loc.clone())) {
                // Same bug already reported with a test: count the path only.
                return Ok(());
            }
        }
        // A k-induction case needs its findings only.
        if self.config.extensions.induction.is_some() && violation.is_none() {
            return Ok(());
        }
        let Some(test) = self.make_test(&st, record)? else {
            return Ok(());
        };
        if let Some(v) = violation {
            self.report_finding(v, test.id)?;
        }
        Ok(())
    }

    /// A finding after which its path went on: its test (from `st`,
    /// constrained to the violation) and the finding, if new. No path
    /// ends: nothing is counted as a path, no observer sees an end.
    fn report_continued(&mut self, st: &State, v: checkers::Violation) -> Result<(), EngineError> {
        let v = self.at_user_call(v);
        if self.finding_keys.contains(&(v.kind.clone(), v.loc.clone())) {
            return Ok(());
        }
        if let Some((test, model)) =
            self.make_test_with_model(st, TestEnd::Known(report::PathEnd::Error(v.kind.clone())))?
        {
            let key = (v.kind.clone(), v.loc.clone());
            // The operation's values with the test's input.
            let shown = |t: &Term| match eval(t, &model) {
                Ok(Value::Fp(f)) => Some(report::values::decimal(f)),
                Ok(Value::Bv(b)) => Some(b.bits().to_string()),
                Ok(Value::Bool(b)) => Some(b.to_string()),
                _ => None,
            };
            let details = v.operation.as_ref().map(|o| {
                (
                    o.name.clone(),
                    o.operands
                        .iter()
                        .map(|t| shown(t).unwrap_or_else(|| "?".into()))
                        .collect::<Vec<_>>(),
                    o.result.as_ref().and_then(shown),
                )
            });
            let f = self.report_finding_with(v, test.id, details)?;
            if self.config.input.count_inputs {
                let first: Vec<u8> = test
                    .objects
                    .iter()
                    .flat_map(|o| o.byte_values().unwrap_or_default())
                    .collect();
                let index = self.stats.findings as usize - 1;
                self.pairs.insert(key, (index, f, HashSet::from([first])));
            }
        }
        Ok(())
    }

    /// A violation inside fpsym's C runtime (a `scanf("%s")` writing past
    /// the program's buffer, a `strcpy` overflowing) located where the
    /// program called the runtime: the call site of the outermost runtime
    /// function on the stack, which is where native replay sees it (the
    /// first frame in the program's files of a sanitizer's report).
    fn at_user_call(&self, mut v: checkers::Violation) -> checkers::Violation {
        let runtime = |f: usize| self.prog.program.is_runtime_function(&self.prog.funcs[f].name);
        let mut called = None;
        for (f, site) in &v.stack {
            if !runtime(*f) {
                break;
            }
            called = Some((*f, site.clone()));
        }
        if let Some((f, Some(site))) = called {
            let name = &self.prog.funcs[f].name;
            v.message = match v.message.as_str() {
                "" => format!("in `{name}`"),
                m => format!("{m} (in `{name}`)"),
            };
            v.loc = Some(site);
        }
        v
    }

    /// Writes a new finding triggered by test `test`; returns it.
    fn report_finding(&mut self, v: checkers::Violation, test: u64) -> Result<Finding, EngineError> {
        self.report_finding_with(v, test, None)
    }

    /// [`Engine::report_finding`] with the operation at fault: its name,
    /// operands' and result's values.
    fn report_finding_with(
        &mut self,
        v: checkers::Violation,
        test: u64,
        details: Option<(String, Vec<String>, Option<String>)>,
    ) -> Result<Finding, EngineError> {
        let (operation, operands, result) = match details {
            Some((o, a, r)) => (Some(o), a, r),
            None => (None, Vec::new(), None),
        };
        if self.config.goals.stop_at_finding.as_ref() == Some(&v.kind) {
            self.goal_found = true;
        }
        self.finding_keys.insert((v.kind.clone(), v.loc.clone()));
        self.stats.findings += 1;
        let loc = v.loc.clone().unwrap_or(Loc {
            file: "?".into(),
            line: 0,
            column: 0,
        });
        let stack = v
            .stack
            .iter()
            .map(|(f, site)| report::Frame::new(self.prog.funcs[*f].name.clone(), site.clone()))
            .collect();
        let f = Finding {
            kind: v.kind,
            file: loc.file,
            line: loc.line,
            column: loc.column,
            stack,
            test,
            message: v.message,
            inputs: None,
            avoidable: None,
            operation,
            operands,
            result,
        };
        self.sink.finding(&f)?;
        Ok(f)
    }

    /// Solves the path and writes its test (None if the path turned out
    /// infeasible or undecidable).
    fn make_test(&mut self, st: &State, end: TestEnd) -> Result<Option<Test>, EngineError> {
        Ok(self.make_test_with_model(st, end)?.map(|(t, _)| t))
    }

    /// [`Engine::make_test`], with the model the test's input comes from
    /// (complete for the inputs' variables).
    fn make_test_with_model(&mut self, st: &State, end: TestEnd) -> Result<Option<(Test, Model)>, EngineError> {
        // A finding's symbolic argv and stdin bytes are printable when
        // they can be (KLEE's preferred counterexamples): readable, and
        // what AddressSanitizer measures natively (a NUL inside a string
        // scanf writes past a buffer hides the overflow from it).
        let finding = matches!(end, TestEnd::Known(report::PathEnd::Error(_)));
        let prefer = if finding {
            posix::preferences(&self.config.input.sym_io, st)
        } else {
            Vec::new()
        };
        let preferred = match prefer.is_empty() {
            true => None,
            false => match self.exec().feasible(st, &prefer) {
                Feasible::Yes(m) => Some(m),
                _ => None,
            },
        };
        let model = {
            let mut ex = self.exec();
            match preferred.map_or_else(|| ex.feasible(st, &[]), Feasible::Yes) {
                Feasible::Yes(m) => m,
                Feasible::No => return Ok(None),
                Feasible::Unknown(why) => {
                    let reason = format!("no test for a path: {why}");
                    // An event too: the path's end (a finding of a
                    // continuing check, say) is lost with its test.
                    let loc = self.location(st);
                    self.sink.event(&Event::PathStopped {
                        loc,
                        reason: reason.clone(),
                    })?;
                    self.incomplete.get_or_insert(reason);
                    return Ok(None);
                }
            }
        };
        let model = complete_for_inputs(st, model);
        let mut objects = Vec::new();
        for s in &st.symbolics {
            let bytes = object_bytes(s, &model);
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            // Values are read back from the bytes replay feeds the program.
            let (value, hexf) = match s.shape.as_ref().and_then(|sh| sh.scalar(&bytes, 0)) {
                Some((v, h)) => (Some(v), h),
                None => (None, None),
            };
            let root = s.elements_root.as_deref().unwrap_or(&s.name);
            let elements = s.shape.as_ref().map_or_else(Vec::new, |sh| sh.elements(root, &bytes));
            objects.push(TestObject {
                name: s.name.clone(),
                ty: s.ty.clone(),
                bytes: hex,
                value,
                hex: hexf,
                elements,
                site: s.site.clone(),
            });
        }
        let end = match end {
            // The exit status as the program's `int`: sign-extended low 32 bits.
            TestEnd::Exit(code) => {
                let mut m = model.clone();
                m.complete(&code.vars());
                let c = match eval(&code, &m) {
                    Ok(Value::Bv(b)) => b.bits() as u32 as i32 as i64,
                    _ => 0,
                };
                report::PathEnd::Exit(c)
            }
            TestEnd::Known(e) => e,
        };
        self.tests += 1;
        self.stats.tests += 1;
        let t = Test {
            id: self.tests,
            objects,
            end,
        };
        self.sink.test(&t)?;
        Ok(Some((t, model)))
    }
}
