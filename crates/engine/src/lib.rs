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
pub mod env;
pub mod exec;
pub mod hooks;
pub mod layout;
pub mod memory;
pub mod native_libm;
pub mod prog;
pub mod report;
pub mod searcher;
pub mod state;
pub mod term;
pub mod value;

use exec::{End, Exec, ExecError, Feasible, Outcome};
use fpsym_expr::{eval, Model, Op, Sort, Term, Value};
use fpsym_frontend::Program;
use fpsym_solver::Solver;
use memory::{Cell, Kind as MemKind};
use prog::Prog;
use report::{Event, Finding, ReportSink, Test, TestObject};
use state::{Frame, Loc, State};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use term::{bv, mk};
use value::Val;

/// What to run.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    /// `main` (with argc = 1, argv = {"prog", NULL} when it takes them).
    Main,
    /// A function whose parameters become inputs.
    Function {
        /// Its name.
        name: String,
        /// Ranges for scalar parameters: name → (low, high), inclusive.
        ranges: Vec<(String, f64, f64)>,
        /// Elements in the object a pointer parameter points to (default:
        /// one pointee).
        array_len: Option<u64>,
    },
}

/// Which path endings are findings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Property {
    /// Every violation the engine detects is a finding (assertion failures,
    /// `reach_error`, `abort`, division by zero, memory errors, ...).
    #[default]
    AllFindings,
    /// SV-COMP `unreach-call`: only `reach_error()`/`__VERIFIER_error()`
    /// are findings. `abort`, failed assertions and integer division by
    /// zero end a path normally (the test says how); other violations
    /// (memory errors, `unreachable`) are undefined behaviour: the path
    /// stops without a finding and the verdict is incomplete.
    UnreachCall,
}

/// Options of a run.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Config {
    /// Entry point. Default: main.
    pub entry: Entry,
    /// Search policy (`dfs`, `bfs`, `random-path`, `coverage-new`, `A+B`). Default: dfs.
    pub search: String,
    /// Stop after this long. Default: none.
    pub max_time: Option<Duration>,
    /// Stop when live states use more than this many bytes of object
    /// contents (an estimate). Default: 4 GiB.
    pub max_memory: u64,
    /// At most this many live states. Default: 100 000.
    pub max_states: usize,
    /// Stop after this many instructions in total. Default: none.
    pub max_instructions: Option<u64>,
    /// Visits of each loop header on one path. Default: none.
    pub loop_bound: Option<u32>,
    /// Per-query solver time limit. Default: 10 s.
    pub solver_timeout: Option<Duration>,
    /// Print what the program prints (format strings). Default: false.
    pub print: bool,
    /// Largest heap allocation served (bigger ones return NULL). Default: 1 GiB.
    pub max_alloc: u64,
    /// Deepest call stack. Default: 1000.
    pub max_call_depth: usize,
    /// Instructions a state runs before the searcher chooses again. Default: 10 000.
    pub quantum: u64,
    /// Seed for random choices. Default: 1.
    pub seed: u64,
    /// The environment `getenv` sees (`NAME`, `VALUE`); nothing else is
    /// set. Default: empty.
    pub env: Vec<(String, String)>,
    /// Which path endings are findings. Default: all findings.
    pub property: Property,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            entry: Entry::Main,
            search: "dfs".into(),
            max_time: None,
            max_memory: 4 << 30,
            max_states: 100_000,
            max_instructions: None,
            loop_bound: None,
            solver_timeout: Some(Duration::from_secs(10)),
            print: false,
            max_alloc: 1 << 30,
            max_call_depth: 1000,
            quantum: 10_000,
            seed: 1,
            env: Vec::new(),
            property: Property::AllFindings,
        }
    }
}

/// Counters of a run.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Stats {
    /// Instructions executed (all states).
    pub instructions: u64,
    /// Solver queries issued.
    pub queries: u64,
    /// Seconds spent in the solver.
    pub solver_seconds: f64,
    /// Paths that ran to their end (exit or error).
    pub paths_completed: u64,
    /// Paths stopped early (loop bound, unsupported, budget).
    pub paths_partial: u64,
    /// Paths found infeasible (assumptions).
    pub paths_infeasible: u64,
    /// Tests written.
    pub tests: u64,
    /// Distinct findings.
    pub findings: u64,
    /// Branch sides dropped because the solver could not decide them.
    pub dropped: u64,
    /// States created.
    pub states: u64,
    /// Branch edges of the user's code taken / total.
    pub branches_covered: u64,
    /// Total branch edges of the user's code.
    pub branches_total: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Why the run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// Every path was explored.
    Exhausted,
    /// `--max-time`.
    MaxTime,
    /// `--max-memory`.
    MaxMemory,
    /// `--max-states`.
    MaxStates,
    /// `--max-instructions`.
    MaxInstructions,
    /// Interrupted (Ctrl-C).
    Interrupted,
}

/// The verdict of a run.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case", tag = "verdict", content = "why")]
pub enum Verdict {
    /// At least one finding.
    BugFound,
    /// Every path explored, nothing concretized or dropped, no finding.
    Verified,
    /// No finding, but not everything was explored exactly.
    Incomplete(String),
}

/// The result of [`run`].
#[derive(Clone, Debug, serde::Serialize)]
pub struct Summary {
    /// Counters.
    pub stats: Stats,
    /// Why the run stopped.
    pub stop: StopReason,
    /// The verdict.
    pub verdict: Verdict,
    /// Why the exploration was not exhaustive and exact, if it was not
    /// (also when bugs were found: "no bug elsewhere" is then not shown).
    pub incomplete: Option<String>,
    /// With `print`: the format strings the program printed, in execution
    /// order over all paths.
    #[serde(skip)]
    pub printed: Vec<String>,
}

/// Why a run could not start.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The entry function does not exist or cannot be called.
    #[error("{0}")]
    Entry(String),
    /// The output could not be written.
    #[error("cannot write results: {0}")]
    Io(#[from] std::io::Error),
    /// Global initializers could not be evaluated.
    #[error("global `{0}`: {1}")]
    Global(String, String),
}

/// Runs `program` per `config`, pushing results into `sink`. `interrupt`
/// stops the run gracefully when raised; `is_user` tells which functions
/// count for coverage.
pub fn run(
    program: &Program,
    solver: &mut dyn Solver,
    config: &Config,
    sink: &mut dyn ReportSink,
    interrupt: Arc<AtomicBool>,
    is_user: impl Fn(&llvm_ir::Function) -> bool,
    progress: &mut dyn FnMut(&Stats, usize),
) -> Result<Summary, EngineError> {
    let start = Instant::now();
    let prog = Prog::new(program, is_user);
    let mut stats = Stats {
        branches_total: prog.branch_edges as u64,
        ..Default::default()
    };
    let deadline = config.max_time.map(|d| start + d);
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
    let mut searcher = searcher::from_spec(&config.search, config.seed).map_err(EngineError::Entry)?;
    let mut engine = Engine {
        prog: &prog,
        solver,
        config,
        stats: &mut stats,
        globals: &globals,
        deadline,
        sink,
        finding_keys: HashSet::new(),
        covered: HashSet::new(),
        tests: 0,
        incomplete: None,
        printed: Vec::new(),
        checkers: checkers::default_checkers(),
    };
    for g in &prog.module.global_vars {
        let name = exec::operand::name_str(&g.name);
        if let Some(init_c) = &g.initializer {
            let base = globals[&name];
            let ty = prog.layout.resolve(&pointee(g)).cloned();
            let Some(ty) = ty else { continue };
            let mut ex = engine.exec();
            let v = ex
                .constant(&mut init, init_c)
                .map_err(|e| EngineError::Global(name.clone(), e.to_string()))?;
            let cells = ex.cells_of(&mut init, &v, &ty);
            drop(ex);
            init.mem.write(base, 0, &cells);
        }
    }
    engine.enter(&mut init)?;
    let mut states: BTreeMap<u64, State> = BTreeMap::new();
    let mut next_id = 1u64;
    states.insert(0, init);
    engine.stats.states = 1;
    searcher.update(&[(0, 0)], &[]);
    let mut stop = StopReason::Exhausted;
    let mut last_progress = Instant::now();
    while let Some(id) = searcher.select() {
        if interrupt.load(Ordering::Relaxed) {
            stop = StopReason::Interrupted;
            break;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            stop = StopReason::MaxTime;
            break;
        }
        if config.max_instructions.is_some_and(|m| engine.stats.instructions >= m) {
            stop = StopReason::MaxInstructions;
            break;
        }
        let mem: u64 = states.values().map(|s| s.mem.live_bytes).sum();
        if mem > config.max_memory {
            stop = StopReason::MaxMemory;
            break;
        }
        if last_progress.elapsed() > Duration::from_millis(200) {
            progress(engine.stats, states.len());
            last_progress = Instant::now();
        }
        let mut st = states.remove(&id).expect("searcher ids are live states");
        let mut added = Vec::new();
        let mut removed = Vec::new();
        let mut ran = 0;
        loop {
            let (outcome, side, events, printed, side_ends) = {
                let mut ex = engine.exec();
                let o = ex.step(&mut st);
                (
                    o,
                    std::mem::take(&mut ex.side_findings),
                    std::mem::take(&mut ex.events),
                    std::mem::take(&mut ex.printed),
                    std::mem::take(&mut ex.side_ends),
                )
            };
            let mut ends: Vec<(State, End)> = side.into_iter().map(|(s, v)| (s, End::Error(v))).collect();
            ends.extend(side_ends);
            engine.printed.extend(printed);
            for e in events {
                engine.sink.event(&e)?;
                if matches!(
                    e,
                    Event::Concretized { .. } | Event::BranchDropped { .. } | Event::ExternalCall { .. }
                ) {
                    engine.incomplete.get_or_insert_with(|| describe(&e));
                }
            }
            for (s, e) in ends {
                engine.finish(s, e)?;
            }
            ran += 1;
            match outcome {
                Ok(Outcome::Continue) => {}
                Ok(Outcome::Fork(others)) => {
                    for mut o in others {
                        o.id = next_id;
                        next_id += 1;
                        engine.stats.states += 1;
                        let p = engine.priority(&o);
                        added.push((o.id, p));
                        states.insert(o.id, o);
                    }
                }
                Ok(Outcome::End(end)) => {
                    engine.finish(st, end)?;
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
                    engine.finish(st, End::Partial(format!("unsupported: {what}")))?;
                    removed.push(id);
                    break;
                }
            }
            if let Some(b) = config.loop_bound {
                if st.loop_visits.values().any(|v| *v > b) {
                    engine
                        .incomplete
                        .get_or_insert_with(|| format!("loop bound {b} reached"));
                    engine.finish(st, End::Partial(format!("loop bound {b} reached")))?;
                    removed.push(id);
                    break;
                }
            }
            let out_of_time = deadline.is_some_and(|d| Instant::now() >= d) || interrupt.load(Ordering::Relaxed);
            if !added.is_empty() || ran >= config.quantum || out_of_time {
                let p = engine.priority(&st);
                states.insert(id, st);
                removed.push(id);
                added.push((id, p));
                break;
            }
        }
        searcher.update(&added, &removed);
        if states.len() > config.max_states {
            stop = StopReason::MaxStates;
            break;
        }
    }
    // Whatever is left ends here, as partial paths with a test each, as far
    // as one more second of solving allows (a budget stop must not turn
    // into minutes of test generation).
    let left: Vec<State> = std::mem::take(&mut states).into_values().collect();
    let left_n = left.len();
    let wrap_up = Instant::now() + Duration::from_secs(1);
    engine.deadline = Some(wrap_up);
    for st in left {
        if Instant::now() >= wrap_up {
            engine.stats.paths_partial += 1;
            continue;
        }
        engine.finish(st, End::Partial(format!("stopped: {stop:?}")))?;
    }
    engine.stats.branches_covered = engine.covered.len() as u64;
    engine.stats.seconds = start.elapsed().as_secs_f64();
    let verdict = if engine.stats.findings > 0 {
        Verdict::BugFound
    } else if stop != StopReason::Exhausted || left_n > 0 {
        Verdict::Incomplete(format!("stopped early ({stop:?})"))
    } else if let Some(why) = engine.incomplete.clone() {
        Verdict::Incomplete(why)
    } else if engine.stats.paths_partial > 0 {
        Verdict::Incomplete("some paths stopped early".into())
    } else {
        Verdict::Verified
    };
    let incomplete = if stop != StopReason::Exhausted || left_n > 0 {
        Some(format!("stopped early ({stop:?})"))
    } else if let Some(why) = engine.incomplete.clone() {
        Some(why)
    } else if engine.stats.paths_partial > 0 {
        Some("some paths stopped early".into())
    } else {
        None
    };
    let stats = engine.stats.clone();
    let printed = std::mem::take(&mut engine.printed);
    Ok(Summary {
        stats,
        stop,
        verdict,
        incomplete,
        printed,
    })
}

/// The type a global variable holds (its IR type is a pointer to it).
fn pointee(g: &llvm_ir::module::GlobalVariable) -> llvm_ir::TypeRef {
    match g.ty.as_ref() {
        llvm_ir::Type::PointerType { pointee_type, .. } => pointee_type.clone(),
        _ => g.ty.clone(),
    }
}

fn describe(e: &Event) -> String {
    match e {
        Event::Concretized { reason, .. } => format!("concretized: {reason}"),
        Event::BranchDropped { reason, .. } => format!("a branch was dropped: {reason}"),
        Event::ExternalCall { function, .. } => format!("call to unmodelled function {function}"),
        Event::PathStopped { reason, .. } => reason.clone(),
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
    finding_keys: HashSet<(String, Option<Loc>)>,
    covered: HashSet<(usize, usize, usize)>,
    tests: u64,
    incomplete: Option<String>,
    printed: Vec<String>,
    checkers: Vec<Box<dyn checkers::Checker>>,
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
            side_findings: Vec::new(),
            events: Vec::new(),
            printed: Vec::new(),
            checkers: &mut self.checkers,
            side_ends: Vec::new(),
        }
    }

    /// Pushes the entry frame (and, for `--function`, its inputs).
    fn enter(&mut self, st: &mut State) -> Result<(), EngineError> {
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
        let mut regs = HashMap::new();
        let types = &self.prog.module.types;
        let layout = self.prog.layout;
        let mut ex = self.exec();
        for (k, p) in f.parameters.iter().enumerate() {
            let pname = match &p.name {
                llvm_ir::Name::Name(s) => s.to_string(),
                llvm_ir::Name::Number(n) => format!("arg{n}"),
            };
            let v = match (&harness, layout.resolve(&p.ty)) {
                (None, Some(llvm_ir::Type::IntegerType { bits })) if k == 0 => Val::Bv(bv(*bits, 1)),
                (None, Some(llvm_ir::Type::PointerType { .. })) if k == 1 => {
                    // argv = {"prog", NULL}
                    let s = st
                        .mem
                        .allocate(5, 16, MemKind::Global, "argv[0]", None, Cell::byte(bv(8, 0)));
                    let cells: Vec<Cell> = b"prog\0".iter().map(|c| Cell::byte(bv(8, *c as u128))).collect();
                    st.mem.write(s, 0, &cells);
                    let argv = st
                        .mem
                        .allocate(16, 16, MemKind::Global, "argv", None, Cell::byte(bv(8, 0)));
                    let ptr = Val::Bv(bv(64, s as u128));
                    let ty = types.pointer_to(types.i8());
                    let c = ex.cells_of(st, &ptr, &ty);
                    st.mem.write(argv, 0, &c);
                    Val::Bv(bv(64, argv as u128))
                }
                (None, _) => ex.zero(&p.ty).map_err(|e| EngineError::Entry(e.to_string()))?,
                (Some((ranges, array_len)), t) => {
                    let t = t
                        .cloned()
                        .ok_or_else(|| EngineError::Entry(format!("parameter {pname} has an opaque type")))?;
                    let v = ex
                        .harness_input(st, &pname, &t, *array_len)
                        .map_err(|e| EngineError::Entry(e.to_string()))?;
                    if let Some((_, lo, hi)) = ranges.iter().find(|(n, _, _)| *n == pname) {
                        ex.range(st, &v, *lo, *hi).map_err(EngineError::Entry)?;
                    }
                    v
                }
            };
            regs.insert(p.name.clone(), v);
        }
        drop(ex);
        if let Some((ranges, _)) = &harness {
            for (n, _, _) in ranges {
                let known = f
                    .parameters
                    .iter()
                    .any(|p| matches!(&p.name, llvm_ir::Name::Name(s) if s.as_str() == n));
                if !known {
                    return Err(EngineError::Entry(format!(
                        "--range {n}: `{name}` has no parameter `{n}`"
                    )));
                }
            }
        }
        st.frames.push(Frame {
            func: fidx,
            bb: 0,
            ip: 0,
            prev_bb: None,
            regs,
            allocas: Vec::new(),
            ret_dest: None,
            call_site: None,
            stack_marks: Vec::new(),
            varargs: Vec::new(),
        });
        Ok(())
    }

    fn priority(&self, st: &State) -> i64 {
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
                Loc::of(b.term.get_debug_loc())
            }
        }
    }

    /// A path ended: write its test, and its finding if it is a new one.
    fn finish(&mut self, st: State, end: End) -> Result<(), EngineError> {
        for e in &st.trail {
            if self.prog.user[e.0] {
                self.covered.insert(*e);
            }
        }
        let (kind, detail, violation) = match &end {
            End::Exit(_) => {
                self.stats.paths_completed += 1;
                ("exit", String::new(), None)
            }
            End::Error(v) if self.config.property == Property::UnreachCall && v.kind != checkers::Kind::ReachError => {
                match v.kind {
                    // The program ends here (SIGABRT, glibc's assertion
                    // message then SIGABRT, SIGFPE, SIGILL): a normal end.
                    checkers::Kind::Abort | checkers::Kind::AssertionFailure | checkers::Kind::DivisionByZero => {
                        self.stats.paths_completed += 1;
                        let how = if v.message == "llvm.trap" {
                            "trap"
                        } else {
                            v.kind.name()
                        };
                        ("exit", how.to_string(), None)
                    }
                    // Undefined behaviour: the property cannot be judged past it.
                    _ => {
                        self.stats.paths_partial += 1;
                        let at = v.loc.as_ref().map(|l| format!(" at {l}")).unwrap_or_default();
                        let why = format!("undefined behaviour ({}{at})", v.kind.name());
                        self.incomplete
                            .get_or_insert_with(|| format!("{why}: the property cannot be judged past it"));
                        ("partial", why, None)
                    }
                }
            }
            End::Error(v) => {
                self.stats.paths_completed += 1;
                ("error", v.kind.name().to_string(), Some(v.clone()))
            }
            End::Infeasible => {
                self.stats.paths_infeasible += 1;
                return Ok(());
            }
            End::Partial(why) => {
                self.stats.paths_partial += 1;
                ("partial", why.clone(), None)
            }
        };
        if let Some(v) = &violation {
            let key = (v.kind.name().to_string(), v.loc.clone());
            if self.finding_keys.contains(&key) {
                // Same bug already reported with a test: count the path only.
                return Ok(());
            }
        }
        let exit = match &end {
            End::Exit(t) => Some(t.clone()),
            _ => None,
        };
        let Some(test) = self.make_test(&st, kind, detail, exit)? else {
            return Ok(());
        };
        if let Some(v) = violation {
            let key = (v.kind.name().to_string(), v.loc.clone());
            self.finding_keys.insert(key);
            self.stats.findings += 1;
            let loc = v.loc.clone().unwrap_or(Loc {
                file: "?".into(),
                line: 0,
                column: 0,
            });
            let stack = v
                .stack
                .iter()
                .map(|(f, site)| {
                    let name = &self.prog.funcs[*f].name;
                    match site {
                        Some(l) => format!("{name} (called at {l})"),
                        None => name.clone(),
                    }
                })
                .collect();
            self.sink.finding(&Finding {
                kind: v.kind.name().into(),
                file: loc.file,
                line: loc.line,
                column: loc.column,
                stack,
                test: test.id,
                message: v.message,
            })?;
        }
        Ok(())
    }

    /// Solves the path and writes its test (None if the path turned out
    /// infeasible or undecidable).
    fn make_test(
        &mut self,
        st: &State,
        end: &str,
        detail: String,
        exit: Option<Term>,
    ) -> Result<Option<Test>, EngineError> {
        let model = {
            let mut ex = self.exec();
            match ex.feasible(st, &[]) {
                Feasible::Yes(m) => m,
                Feasible::No => return Ok(None),
                Feasible::Unknown(why) => {
                    self.incomplete
                        .get_or_insert_with(|| format!("no test for a path: {why}"));
                    return Ok(None);
                }
            }
        };
        let mut model: Model = model;
        let vars: Vec<Term> = st
            .symbolics
            .iter()
            .flat_map(|s| s.bytes.iter().flat_map(|b| b.vars()))
            .collect();
        model.complete(&vars);
        let mut objects = Vec::new();
        for s in &st.symbolics {
            let mut hex = String::new();
            for b in &s.bytes {
                let v = match eval(b, &model) {
                    Ok(Value::Bv(x)) => x.bits() as u8,
                    _ => 0,
                };
                hex.push_str(&format!("{v:02x}"));
            }
            let (value, hexf) = match &s.float {
                Some(t) => match eval(t, &model) {
                    Ok(Value::Fp(f)) => (Some(report::decimal(f)), Some(report::hex_float(f))),
                    _ => (None, None),
                },
                None => (None, None),
            };
            objects.push(TestObject {
                name: s.name.clone(),
                ty: s.ty.clone(),
                bytes: hex,
                value,
                hex: hexf,
            });
        }
        let detail = match exit {
            // The exit status as the program's `int`: sign-extended low 32 bits.
            Some(code) => {
                let mut m = model.clone();
                m.complete(&code.vars());
                let c = match eval(&code, &m) {
                    Ok(Value::Bv(b)) => b.bits() as u32 as i32 as i64,
                    _ => 0,
                };
                format!("exit {c}")
            }
            None => detail,
        };
        self.tests += 1;
        self.stats.tests += 1;
        let t = Test {
            id: self.tests,
            objects,
            end: end.into(),
            detail,
        };
        self.sink.test(&t)?;
        Ok(Some(t))
    }
}

impl Exec<'_, '_> {
    /// A harness input for a parameter of type `t`: scalars are fresh
    /// inputs; pointers point to a fresh object of `array_len` pointees
    /// (default 1) made symbolic.
    pub fn harness_input(
        &mut self,
        st: &mut State,
        name: &str,
        t: &llvm_ir::Type,
        array_len: Option<u64>,
    ) -> Result<Val, ExecError> {
        use llvm_ir::Type;
        Ok(match t {
            Type::IntegerType { bits } => Val::Bv(self.fresh_input(st, name, Sort::BitVec(*bits), &format!("i{bits}"))),
            Type::FPType(f) => {
                let fmt = layout::fp_format(*f).ok_or_else(|| ExecError::Unsupported("ppc_fp128 parameter".into()))?;
                Val::Fp(self.fresh_input(st, name, Sort::Float(fmt), report::c_type_name(fmt)))
            }
            Type::PointerType { pointee_type, .. } => {
                let n = array_len.unwrap_or(1);
                let elem = self.prog.layout.alloc_size(pointee_type).max(1);
                let size = elem * n;
                let arr_ty = self.prog.module.types.array_of(pointee_type.clone(), n as usize);
                let base = st
                    .mem
                    .allocate(size, 16, MemKind::Global, name, Some(arr_ty), Cell::byte(bv(8, 0)));
                let p = bv(64, base as u128);
                self.make_symbolic_at(st, base, 0, size, name);
                Val::Bv(p)
            }
            other => return Err(ExecError::Unsupported(format!("parameter {name} of type {other:?}"))),
        })
    }

    /// Constrains an input to `[lo, hi]` (numeric comparison in its type).
    pub fn range(&mut self, st: &mut State, v: &Val, lo: f64, hi: f64) -> Result<(), String> {
        match v {
            Val::Fp(t) => {
                let fmt = term::format_of(t);
                let c = |x: f64| {
                    Term::fp(
                        fpsym_float::Float::from_f64(x)
                            .convert(fmt, fpsym_float::RoundingMode::NearestTiesToEven)
                            .value,
                    )
                };
                st.constrain(mk(Op::FpGeq, vec![t.clone(), c(lo)]));
                st.constrain(mk(Op::FpLeq, vec![t.clone(), c(hi)]));
            }
            Val::Bv(t) => {
                let w = term::width(t);
                if lo.fract() != 0.0 || hi.fract() != 0.0 {
                    return Err(format!(
                        "--range for an integer parameter needs integer bounds, got [{lo}, {hi}]"
                    ));
                }
                st.constrain(mk(Op::BvSge, vec![t.clone(), bv(w, lo as i128 as u128)]));
                st.constrain(mk(Op::BvSle, vec![t.clone(), bv(w, hi as i128 as u128)]));
            }
            Val::Agg(_) => return Err("--range applies to scalar parameters".into()),
        }
        Ok(())
    }
}
