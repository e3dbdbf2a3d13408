//! The native fuzzing phase of `fpsym run` (`--fuzz-time`): libFuzzer
//! with FP-aware mutations before the symbolic search, its inputs as the
//! search's seeds, its crashes marked once the seeded search reproduced
//! them (see `fpsym_replay::fuzz` and `fpsym_engine::seeds`).

use crate::Failure;
use fpsym_engine::report::{DirSink, Event, Finding, FindingKind, Loc, ReportSink, RunRecord};
use fpsym_engine::searcher::{Policy, Search};
use fpsym_engine::Config;
use fpsym_replay::fuzz::FuzzOutcome;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The most seeds handed to the symbolic search (crashes first, then the
/// corpus): every branch evaluates each seed's model on the path.
pub const MAX_SEEDS: usize = 64;

/// The shortest `--max-time` that gets a fuzzing phase by default (a
/// tenth of it).
pub const DEFAULT_FROM: Duration = Duration::from_secs(10);

/// The default phase ends once the fuzzer's corpus has not grown for
/// this long (an explicit `--fuzz-time` runs its time out).
pub const PLATEAU: Duration = Duration::from_secs(2);

/// How long the fuzzing phase runs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum FuzzTime {
    /// No phase (`--fuzz-time 0`, or no `--max-time` and no `--fuzz-time`).
    #[default]
    Off,
    /// A tenth of `--max-time` (when it is at least [`DEFAULT_FROM`]), for
    /// `fpsym run` only; a phase that cannot
    /// run (no libFuzzer runtime, a `.i` input) is skipped with a note.
    Default(Duration),
    /// Given with `--fuzz-time`: a phase that cannot run is an error.
    Explicit(Duration),
}

impl FuzzTime {
    /// The phase's share of the run's time (zero when off).
    pub fn share(self) -> Duration {
        match self {
            FuzzTime::Off => Duration::ZERO,
            FuzzTime::Default(d) | FuzzTime::Explicit(d) => d,
        }
    }
}

/// What the phase did, for the summary and the marks.
pub struct Phase {
    /// libFuzzer's results.
    pub outcome: FuzzOutcome,
    /// The run's stop flag (Ctrl-C), for the follow-up of its crashes.
    pub interrupt: Arc<AtomicBool>,
    /// The seeds handed to the engine: (crash file or None, records).
    seeds: Vec<(Option<String>, Vec<Vec<u8>>)>,
    /// Whether the fuzzer kept to every bound of the run's inputs
    /// (`--range`, `--finite-inputs`, `--array-len`), so that each of its
    /// crashes is an input the run could take.
    pub bounded: bool,
    /// The time kept for [`follow_crashes`] (zero without crashes).
    pub follow: Duration,
    /// The findings [`follow_crashes`] added.
    pub followed: u64,
    /// The tests [`follow_crashes`] made, with the crash file each ran
    /// (a NaN's payload may differ in the test's bytes).
    followed_tests: Vec<(u64, String)>,
}

/// Runs the phase when `time` asks for it (and the run can have it: a
/// mode without its own branch oracle, no symbolic argv/stdin), seeding
/// `engine` with what it found and taking its time from `engine.max_time`.
/// None when no phase ran.
pub fn phase(
    time: FuzzTime,
    mode: fpsym_engine::report::Mode,
    record: &RunRecord,
    program: &fpsym_frontend::Program,
    out: &Path,
    engine: &mut Config,
    interrupt: &Arc<AtomicBool>,
) -> anyhow::Result<Option<Phase>> {
    let (d, explicit) = match time {
        FuzzTime::Off => return Ok(None),
        FuzzTime::Default(d) if mode == fpsym_engine::report::Mode::Run => (d, false),
        FuzzTime::Default(_) => return Ok(None),
        FuzzTime::Explicit(d) => (d, true),
    };
    if !engine.input.sym_io.is_empty() {
        if explicit {
            return Err(Failure::Input(
                "--fuzz-time: the fuzzing phase does not generate --sym-arg/--sym-args/--sym-stdin inputs".into(),
            )
            .into());
        }
        return Ok(None);
    }
    if !reads_input(engine, program) {
        if explicit {
            eprintln!("fpsym: note: no fuzzing phase (the program reads no input: nothing to mutate)");
        }
        return Ok(None);
    }
    let ll = std::fs::read_to_string(out.join("build").join("program.ll")).unwrap_or_default();
    let constants = fpsym_replay::fuzz::Constants::of_ir(&ll);
    // The default phase ends once the fuzzer finds nothing new for a while.
    let plateau = (!explicit).then_some(PLATEAU);
    let (bounds, bounded) = input_bounds(engine, program);
    let outcome = match fpsym_replay::fuzz::fuzz(out, record, &constants, &bounds, d, plateau, interrupt) {
        Ok(o) => o,
        Err(e) => {
            if let Some(diag) = e.diagnostics() {
                eprint!("{diag}");
            }
            if explicit {
                return Err(if e.is_internal() {
                    Failure::Internal(format!("fuzzing phase: {e}"))
                } else {
                    Failure::Input(format!("fuzzing phase: {e}"))
                }
                .into());
            }
            eprintln!("fpsym: note: no fuzzing phase ({e})");
            return Ok(None);
        }
    };
    let mut seeds: Vec<(Option<String>, Vec<Vec<u8>>)> = Vec::new();
    for (p, bytes) in &outcome.crashes {
        seeds.push((Some(p.display().to_string()), fpsym_replay::decode_inputs(bytes)));
    }
    for (_, bytes) in &outcome.corpus {
        seeds.push((None, fpsym_replay::decode_inputs(bytes)));
    }
    seeds.retain(|(_, s)| !s.is_empty());
    seeds.dedup_by(|a, b| a.1 == b.1);
    seeds.truncate(MAX_SEEDS);
    engine.input.seeds = seeds.iter().map(|(_, s)| s.clone()).collect();
    engine.input.crash_seeds = seeds.iter().take_while(|(crash, _)| crash.is_some()).count();
    // Seeded states first, taking turns with plain depth-first search so
    // that the seeds do not starve what the symbolic search finds alone.
    if engine.policy.search == Search::One(Policy::Dfs) && !engine.input.seeds.is_empty() {
        engine.policy.search = Search::Interleaved(vec![Policy::Seeded, Policy::Dfs]);
    }
    // The concrete runs of crashes the seeded search does not reproduce
    // ([`follow_crashes`]) take their time from the run's.
    let follow = if engine.input.crash_seeds > 0 && bounded {
        engine.limits.max_time.map_or(FOLLOW, |m| FOLLOW.min(m / 10))
    } else {
        Duration::ZERO
    };
    if let Some(m) = engine.limits.max_time {
        let spent = Duration::from_secs_f64(outcome.seconds) + follow;
        engine.limits.max_time = Some(m.saturating_sub(spent).max(Duration::from_millis(100)));
    }
    Ok(Some(Phase {
        interrupt: interrupt.clone(),
        outcome,
        seeds,
        bounded,
        follow,
        followed: 0,
        followed_tests: Vec::new(),
    }))
}

/// The most time the concrete runs of the fuzzing phase's crashes get
/// (a tenth of `--max-time` when that is less).
pub const FOLLOW: Duration = Duration::from_secs(5);

/// Runs each crash of the fuzzing phase that no test of the run has the
/// input of (the seeded search did not get to it in its time) on the
/// engine concretely: the crash's input alone ([`InputOptions::ordered_inputs`]),
/// one path, no seeds, within the phase's `follow` time. Its test and
/// findings join the run's (tests numbered after them; a finding at a
/// kind and place the run has already is not repeated), so a crash the
/// model reaches becomes a finding with its test (and, under
/// unreach-call, a witness), and one it does not reach a test that
/// [`crashes_alone`] finds contradicting the native run. Adds the runs'
/// counters to `stats`; returns how many findings it added (also kept in
/// [`Phase::followed`]). Only for a phase that kept to the run's bounds
/// (each crash an input the run could take).
pub fn follow_crashes(
    phase: &mut Phase,
    program: &fpsym_frontend::Program,
    engine: &Config,
    solver: &mut dyn fpsym_solver::Solver,
    out: &Path,
    sink: &mut DirSink,
    stats: &mut fpsym_engine::report::Stats,
) -> anyhow::Result<u64> {
    use std::sync::atomic::Ordering;
    let interrupt = phase.interrupt.clone();
    let mut added = 0;
    if !phase.bounded || phase.follow.is_zero() {
        return Ok(added);
    }
    let deadline = std::time::Instant::now() + phase.follow;
    let mut tests = fpsym_engine::report::read_tests(out)?;
    let mut followed = Vec::new();
    for (file, seed) in phase.seeds.iter() {
        let Some(file) = file else { continue };
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() || interrupt.load(Ordering::Relaxed) {
            break;
        }
        if tests.iter().any(|t| same_input(t, seed)) {
            continue;
        }
        let mut config = engine.clone();
        config.input.ordered_inputs = Some(seed.clone());
        config.input.seeds = Vec::new();
        config.input.crash_seeds = 0;
        config.policy.search = Search::One(Policy::Dfs);
        config.limits.max_time = Some(left);
        let mut got = fpsym_engine::report::Collect::default();
        let mut cx = fpsym_engine::RunContext {
            interrupt: interrupt.clone(),
            ..Default::default()
        };
        let summary = match fpsym_engine::run(program, solver, &config, &mut got, &mut cx) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("fpsym: note: a crash of the fuzzing phase was not run on the engine ({e})");
                continue;
            }
        };
        let first = tests.iter().map(|t| t.id).max().unwrap_or(0);
        for t in &got.tests {
            let t = fpsym_engine::report::Test {
                id: first + t.id,
                ..t.clone()
            };
            sink.test(&t)?;
            followed.push((t.id, file.clone()));
            tests.push(t);
        }
        let mut findings = 0;
        for f in &got.findings {
            let known = sink
                .findings()
                .iter()
                .any(|g| g.kind == f.kind && g.file == f.file && g.line == f.line && g.column == f.column);
            if !known {
                sink.finding(&Finding {
                    test: first + f.test,
                    ..f.clone()
                })?;
                findings += 1;
            }
        }
        for e in &got.events {
            sink.event(e)?;
        }
        let s = &summary.stats;
        stats.paths_completed += s.paths_completed;
        stats.paths_partial += s.paths_partial;
        stats.paths_infeasible += s.paths_infeasible;
        stats.tests += s.tests;
        stats.findings += findings;
        stats.instructions += s.instructions;
        stats.fast_instructions += s.fast_instructions;
        stats.queries += s.queries;
        stats.solver_seconds += s.solver_seconds;
        stats.states += s.states;
        stats.seconds += s.seconds;
        added += findings;
    }
    phase.followed = added;
    phase.followed_tests = followed;
    Ok(added)
}

/// Whether the run's program takes any input the fuzzer could vary: a
/// `--function` entry with parameters, or a call of one of the driver's
/// input functions (`klee_make_symbolic`, `klee_int`, `klee_range`,
/// `__VERIFIER_nondet_*`, `time`, `clock`). A program without any runs
/// the same way every time: fuzzing it only spends the run's time (a
/// concrete loop of millions of iterations ran for seconds in the
/// fuzzer before the symbolic run started).
fn reads_input(engine: &Config, program: &fpsym_frontend::Program) -> bool {
    if let fpsym_engine::Entry::Function { name, .. } = &engine.entry {
        let params = program.module.functions.iter().find(|f| &f.name == name);
        if params.is_none_or(|f| !f.parameters.is_empty()) {
            return true;
        }
    }
    let input = |n: &str| {
        matches!(n, "klee_make_symbolic" | "klee_int" | "klee_range" | "time" | "clock")
            || n.starts_with("__VERIFIER_nondet_")
    };
    program.module.func_declarations.iter().any(|d| input(&d.name))
        || program.module.functions.iter().any(|f| input(&f.name))
}

/// What the `--function` entry's inputs keep to, for the fuzzer: each
/// float parameter's `--range` (its floats, rounded inward from the exact
/// bounds, as the run takes them), narrowed to the finite values under
/// `--finite-inputs`, and the size of each pointer parameter's object
/// (`--array-len` pointees), and each integer parameter's `--range` (of
/// at most 64 bits: its integers). Ranges of what objects hold, and
/// finite floats inside objects or read by `main`, are not kept to: the second result says whether every bound of the run is
/// (when not, a crash the run does not reproduce is left out with a note,
/// [`unreproduced_note`]).
fn input_bounds(engine: &Config, program: &fpsym_frontend::Program) -> (fpsym_replay::fuzz::InputBounds, bool) {
    use fpsym_engine::shape::Shape;
    use fpsym_float::Float;
    let fpsym_engine::Entry::Function {
        name,
        ranges,
        array_len,
        ..
    } = &engine.entry
    else {
        return (Default::default(), !engine.input.finite_inputs);
    };
    let Some(f) = program.module.functions.iter().find(|f| &f.name == name) else {
        return (Default::default(), false);
    };
    let ctypes = fpsym_engine::harness::driver_prototype(program, name)
        .0
        .unwrap_or_default();
    let mut complete = true;
    let mut kept = 0;
    let prog = fpsym_engine::prog::Prog::new(program, |_| true);
    let layout = fpsym_engine::layout::Layout::new(&program.module);
    let views = fpsym_engine::harness::param_views(&prog, f, *array_len);
    let bytes = |x: Float| -> Vec<u8> {
        let n = x.format().width().div_ceil(8) as usize;
        x.to_bits().to_le_bytes()[..n].to_vec()
    };
    let mut params = Vec::new();
    for (k, (p, view)) in f.parameters.iter().zip(&views).enumerate() {
        let mut b = fpsym_replay::fuzz::ParamBounds::default();
        let pointer = matches!(layout.resolve(&p.ty), Some(llvm_ir::Type::PointerType { .. }));
        let ctype = ctypes.get(k).map(String::as_str).unwrap_or("");
        match &view.shape {
            Some(shape) if pointer && !view.byval && ctype == "void *" => {
                b.object_size = Some((shape.size_bits() / 8) as usize);
                // The floats inside are not kept finite.
                complete &= !engine.input.finite_inputs;
            }
            Some(Shape::Float { format, .. }) if !pointer && ["float", "double", "long double"].contains(&ctype) => {
                let range = ranges.iter().find(|r| r.name == view.ir_name || r.name == view.name);
                kept += usize::from(range.is_some());
                let within = match range {
                    Some(r) => r.floats(*format),
                    None => Some((Float::infinity(*format, true), Float::infinity(*format, false))),
                };
                if let Some((mut lo, mut hi)) = within {
                    if engine.input.finite_inputs {
                        if lo.is_infinite() {
                            lo = Float::largest(*format, true);
                        }
                        if hi.is_infinite() {
                            hi = Float::largest(*format, false);
                        }
                    }
                    if range.is_some() || engine.input.finite_inputs {
                        b.range = Some((bytes(lo), bytes(hi)));
                    }
                }
            }
            Some(Shape::Int { bits, signed, .. }) if !pointer && *bits <= 64 => {
                let range = ranges.iter().find(|r| r.name == view.ir_name || r.name == view.name);
                if let Some(r) = range {
                    // As the run takes it: the integers inside, in the
                    // type's signedness (a bound outside the type is
                    // refused before the phase).
                    use fpsym_engine::harness::Bound;
                    let signed = *bits > 1
                        && (*signed
                            || ctype.is_empty()
                                && matches!(&r.lo, Bound::Finite(q) if *q < num_rational::BigRational::from_integer(0.into())));
                    let (min, max) = if signed {
                        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
                    } else {
                        (0, (1i128 << bits) - 1)
                    };
                    let lo = match &r.lo {
                        Bound::Finite(q) => i128::try_from(q.ceil().to_integer()).ok(),
                        _ => Some(min),
                    };
                    let hi = match &r.hi {
                        Bound::Finite(q) => i128::try_from(q.floor().to_integer()).ok(),
                        _ => Some(max),
                    };
                    if let (Some(lo), Some(hi)) = (lo, hi) {
                        kept += 1;
                        b.int_range = Some((lo.max(min), hi.min(max)));
                    }
                }
            }
            // Floats the harness reads as bytes (a struct, a vector, a
            // binary128): not kept finite.
            _ => complete &= !engine.input.finite_inputs,
        }
        params.push(b);
    }
    // A range on something else than a float parameter.
    complete &= kept == ranges.len();
    (fpsym_replay::fuzz::InputBounds { params }, complete)
}

/// Whether `test`'s inputs are a crash seed's records (each object's
/// bytes the record's, zero-extended or cut to the object's size).
fn same_input(test: &fpsym_engine::report::Test, seed: &[Vec<u8>]) -> bool {
    test.objects.iter().enumerate().all(|(k, o)| {
        let Some(bytes) = o.byte_values() else { return false };
        let rec = seed.get(k).map(Vec::as_slice).unwrap_or(&[]);
        bytes
            .iter()
            .enumerate()
            .all(|(i, b)| *b == rec.get(i).copied().unwrap_or(0))
    })
}

/// Marks the findings whose test has a crash seed's input: a
/// `fuzz-finding` event each (the fuzzing phase found it first). Returns
/// how many, and the crash files so reproduced.
pub fn mark_findings(phase: &Phase, out: &Path, sink: &mut DirSink) -> anyhow::Result<(usize, Vec<String>)> {
    let findings: Vec<Finding> = sink.findings().to_vec();
    let tests = fpsym_engine::report::read_tests(out)?;
    let mut n = 0;
    let mut reproduced = Vec::new();
    for f in &findings {
        let Some(t) = tests.iter().find(|t| t.id == f.test) else {
            continue;
        };
        let crash = phase
            .followed_tests
            .iter()
            .find_map(|(id, file)| (*id == t.id).then_some(file))
            .or_else(|| {
                phase
                    .seeds
                    .iter()
                    .find_map(|(file, s)| file.as_ref().filter(|_| same_input(t, s)))
            });
        if let Some(input) = crash {
            sink.event(&Event::FuzzFinding {
                loc: Some(Loc {
                    file: f.file.clone(),
                    line: f.line,
                    column: f.column,
                }),
                kind: f.kind.clone(),
                test: f.test,
                input: input.clone(),
            })?;
            n += 1;
            reproduced.push(input.clone());
        }
    }
    Ok((n, reproduced))
}

pub use fpsym_engine::report::mode_records::{FuzzCrash as Crash, Said};

/// What the summary says of a crash.
pub trait CrashText {
    /// `FILE:LINE`, or `an unlocated place`.
    fn place(&self) -> String;
    /// The crash in one line for the summary.
    fn line(&self) -> String;
}

impl CrashText for Crash {
    fn place(&self) -> String {
        match (&self.file, self.line) {
            (Some(f), Some(l)) => format!("{f}:{l}"),
            _ => "an unlocated place".to_string(),
        }
    }

    fn line(&self) -> String {
        let said = match &self.said {
            Said::Reproduced => "reproduced by the symbolic run (another input)".to_string(),
            Said::NotReached => "not reached in time by the symbolic run".to_string(),
            Said::Contradicted(why) => format!("CONTRADICTED by the symbolic run ({why})"),
        };
        format!(
            "  {} at {} (found by fuzzing, confirmed natively; input {}): {said}",
            self.kind,
            self.place(),
            self.input
        )
    }
}

/// For a run whose inputs are bounded in ways the fuzzer's are not
/// ([`Phase::bounded`] false): the phase's crashes the symbolic run did
/// not reproduce are left out with a note (their inputs may lie outside
/// the bounds), never reported or taken as a contradiction.
pub fn unreproduced_note(phase: &Phase, reproduced: &[String]) {
    let n = phase
        .seeds
        .iter()
        .filter_map(|(file, _)| file.as_ref())
        .filter(|f| !reproduced.contains(f))
        .count();
    if n > 0 {
        eprintln!(
            "fpsym: note: {n} crash(es) of the fuzzing phase were not reproduced by the symbolic run; \
             the fuzzer does not keep to every --range/--finite-inputs bound of this run (integer ranges, \
             floats inside objects), so they are not reported"
        );
    }
}

/// The crashes of the phase the symbolic run did not reproduce with their
/// own input (`reproduced`: the crash files it did), each run natively on
/// the replay build and compared with what the run says: its findings,
/// its test of that input, its verdict (`claims`: verified or
/// infeasible). A crash the replay build does not reproduce (the fuzzing
/// build differs: libFuzzer's own checks) is left out with a note.
pub fn crashes_alone(
    phase: &Phase,
    reproduced: &[String],
    out: &Path,
    findings: &[Finding],
    claims: bool,
    property: fpsym_engine::report::Property,
) -> anyhow::Result<Vec<Crash>> {
    use fpsym_replay::Observation;
    let alone: Vec<(&String, &Vec<Vec<u8>>)> = phase
        .seeds
        .iter()
        .filter_map(|(file, s)| Some((file.as_ref()?, s)))
        .filter(|(file, _)| !reproduced.contains(file))
        .collect();
    if alone.is_empty() {
        return Ok(Vec::new());
    }
    let inputs: Vec<Vec<u8>> = alone
        .iter()
        .filter_map(|(file, _)| {
            phase
                .outcome
                .crashes
                .iter()
                .find(|(p, _)| p.display().to_string() == **file)
                .map(|(_, b)| b.clone())
        })
        .collect();
    let watch = findings.iter().map(|f| f.kind.clone()).collect();
    let opts = fpsym_replay::ReplayOptions {
        watch,
        ..Default::default()
    };
    let seen = match fpsym_replay::observe_inputs(out, &opts, &fpsym_replay::Confirmations::default(), &inputs) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("fpsym: note: the fuzzing phase's crashes were not run natively ({e})");
            return Ok(Vec::new());
        }
    };
    let tests = fpsym_engine::report::read_tests(out)?;
    let base = |f: &str| {
        Path::new(f)
            .file_name()
            .map_or(f.to_string(), |n| n.to_string_lossy().into_owned())
    };
    let mut crashes = Vec::new();
    let mut only_fuzzing = 0;
    for ((file, seed), o) in alone.iter().zip(seen) {
        let kind = match &o.kind {
            Observation::Finding(k) => k.to_string(),
            Observation::Signal => format!("signal {}", o.code.unwrap_or(0)),
            Observation::Timeout => "timeout".to_string(),
            _ => {
                only_fuzzing += 1;
                continue;
            }
        };
        let same_place = |f: &Finding| {
            f.kind.to_string() == kind && Some(f.line) == o.line && o.file.as_deref() == Some(base(&f.file).as_str())
        };
        let test = tests.iter().find(|t| same_input(t, seed));
        // The run's test of this input ends as the native run did (under
        // unreach-call, an `abort` of `assume_abort_if_not` is such an
        // end): the model agrees, and a failure the property does not
        // count is no finding.
        // (A partial path's test says nothing of how the input ends.)
        let test = test.filter(|t| !matches!(t.end, fpsym_engine::report::PathEnd::Partial(_)));
        let agrees = test.is_some_and(|t| fpsym_replay::ends_as(&t.end, &o, false));
        // Under unreach-call only reach_error violates the property; abort,
        // a failed assertion and an integer division by zero end a path
        // normally; anything else (a memory error) is undefined behaviour,
        // where the run stops incomplete: a claim it made contradicts it.
        let violation = !property.reach_error_only() || o.kind == Observation::Finding(FindingKind::ReachError);
        let ends_normally = matches!(
            o.kind,
            Observation::Finding(FindingKind::Abort | FindingKind::AssertionFailure | FindingKind::DivisionByZero)
        );
        if agrees && !violation {
            continue;
        }
        let said = if findings.iter().any(same_place) || agrees {
            Said::Reproduced
        } else if let Some(t) = test {
            Said::Contradicted(format!("its test {:06} of this input ends as {}", t.id, t.end))
        } else if !violation && (ends_normally || !claims) {
            // No test of this input, and no violation of the property:
            // nothing the run says is contradicted.
            continue;
        } else if claims {
            Said::Contradicted("the run claims no input fails".to_string())
        } else {
            Said::NotReached
        };
        // One per kind and place, as findings are.
        if crashes
            .iter()
            .any(|c: &Crash| c.kind == kind && c.file == o.file && c.line == o.line)
        {
            continue;
        }
        crashes.push(Crash {
            input: file.to_string(),
            kind,
            file: o.file.clone(),
            line: o.line,
            said,
        });
    }
    if only_fuzzing > 0 {
        eprintln!(
            "fpsym: note: {only_fuzzing} crash(es) of the fuzzing phase do not fail the replay build \
             (inputs it reads otherwise, or failures of the fuzzing build only): not reported"
        );
    }
    Ok(crashes)
}

/// The phase in one line for the summary (`marked`: the findings it found
/// first, its crashes alone included).
pub fn summary_line(phase: &Phase, marked: usize) -> String {
    let o = &phase.outcome;
    format!(
        "fuzzing: {:.1} s, {} executions, {} inputs kept, {} crashing; {} seeds; {} finding(s) found by fuzzing{}{}",
        o.seconds,
        o.executions,
        o.corpus.len(),
        o.crashes.len(),
        phase.seeds.len(),
        marked,
        match phase.followed {
            0 => String::new(),
            n => format!(" ({n} reached by running its input on the engine: the search did not get there)"),
        },
        if o.interrupted {
            " (interrupted)"
        } else if o.plateaued {
            " (ended early: nothing new for 2 s)"
        } else {
            ""
        }
    )
}

/// `DIR/fuzz/fuzz.json`: the phase's numbers, and its crashes the
/// symbolic run did not reproduce with their input.
pub fn write_record(phase: &Phase, marked: usize, alone: &[Crash], out: &Path) -> anyhow::Result<()> {
    let o = &phase.outcome;
    let record = fpsym_engine::report::mode_records::FuzzRecord {
        seconds: o.seconds,
        executions: o.executions,
        corpus: o.corpus.len(),
        crashes: o.crashes.len(),
        first_crash_seconds: o.first_crash_seconds,
        seeds: phase.seeds.len(),
        findings_from_fuzzing: marked,
        reached_concretely: phase.followed,
        crashes_alone: alone.to_vec(),
        interrupted: o.interrupted,
        plateaued: o.plateaued,
    };
    fpsym_engine::report::write_json(&out.join(fpsym_engine::report::mode_records::FUZZ_RECORD), &record)?;
    Ok(())
}
