//! `fpsym run`: symbolic execution of a C program.

use crate::fuzz::CrashText;
use crate::Failure;
use fpsym_engine::plugin::Plugins;
use fpsym_engine::report::{DirSink, EntryRecord, Finding, Mode, ReportSink, RunRecord};
use fpsym_engine::{Config, EngineError, Entry, Property, RunContext, Summary, Verdict};
use fpsym_frontend::{CompileOptions, FrontendError};
use fpsym_solver::SolverConfig;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Validated options of `fpsym run`.
#[derive(Debug)]
pub struct RunOptions {
    /// What the process lends the run (Ctrl-C, solver threads, output registry).
    pub session: crate::Session,
    /// The C sources (or bitcode) to analyse.
    pub files: Vec<PathBuf>,
    /// How they are compiled.
    pub compile: CompileOptions,
    /// The engine's options.
    pub engine: Config,
    /// The solver chain's options.
    pub solver: SolverConfig,
    /// The output directory (`-o`; a fresh temporary one when `None`).
    pub output: Option<PathBuf>,
    /// Empty an earlier run's output directory first.
    pub force: bool,
    /// What counts as a finding (`--property`).
    pub property: PropertySpec,
    /// When the tests are replayed natively.
    pub replay: Replay,
    /// What a claim of the run says no native run shows (the mode's).
    pub claim: crate::replay::Claim,
    /// Measure line coverage when replaying.
    pub coverage: bool,
    /// `fpsym batch`'s shared build directory, loaded instead of compiling.
    pub prebuilt: Option<PathBuf>,
    /// The mode's step after the engine's run.
    pub after_run: Option<AfterRun>,
    /// The command that runs, as run.json records it (`run`, `exceptions`, ...).
    pub mode: Mode,
    /// The native fuzzing phase's time.
    pub fuzz: crate::fuzz::FuzzTime,
    /// `--witness`: where a violation witness goes (default OUT/witness.yml).
    pub witness: Option<PathBuf>,
    /// `--prove`: how to try a proof.
    pub prove: crate::prove::How,
}

/// When the tests are replayed natively once the run is over.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Replay {
    /// Always (`--replay`).
    Always,
    /// When the run ends with a claim (verified, infeasible), to check it:
    /// the default.
    #[default]
    Claims,
    /// Never (`--no-replay`): a claim rests on the model alone.
    Never,
}

/// What a mode does once the engine has run and before the summary is
/// printed: amend its findings from what it learns about them (the
/// exceptions mode re-runs each over/underflow in high precision). Gets
/// the session, the program, the engine's options, the output directory,
/// the sink (findings so far), the solver, and its time: what is left of
/// `--max-time` (at least a tenth of it; 60 s without one).
pub type AfterRun = fn(
    &crate::Session,
    std::time::Duration,
    &fpsym_frontend::Program,
    &Config,
    &Path,
    &mut DirSink,
    &mut dyn fpsym_solver::Solver,
) -> anyhow::Result<()>;

/// `--property` as given: a property by name, or an SV-COMP `.prp` file
/// read when the run starts.
#[derive(Debug)]
pub enum PropertySpec {
    /// A property by name (or none: every bug is a finding).
    Named(Property),
    /// The path of a `.prp` file.
    File(PathBuf),
}

impl Default for PropertySpec {
    fn default() -> PropertySpec {
        PropertySpec::Named(Property::AllFindings)
    }
}

/// Reads a `.prp` file; a property other than unreach-call is an input error naming it.
fn read_prp(path: &Path) -> Result<Property, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| Failure::Input(format!("{}: {e}", path.display())))?;
    Property::from_prp(&text).ok_or_else(|| {
        Failure::Input(format!(
            "{}: property `{}` is not supported; fpsym checks unreach-call, \
             `CHECK( init(main()), LTL(G ! call(reach_error())) )`, and generates tests for \
             coverage-error and coverage-branches (Test-Comp)",
            path.display(),
            text.trim()
        ))
    })
}

impl Default for RunOptions {
    /// `fpsym run` with no flag but its files (none here).
    fn default() -> RunOptions {
        RunOptions {
            session: Default::default(),
            files: Vec::new(),
            compile: Default::default(),
            engine: Default::default(),
            solver: Default::default(),
            output: None,
            force: false,
            property: Default::default(),
            replay: Default::default(),
            claim: Default::default(),
            coverage: false,
            prebuilt: None,
            after_run: None,
            mode: Mode::Run,
            fuzz: Default::default(),
            witness: None,
            prove: Default::default(),
        }
    }
}

impl RunOptions {
    /// The input files.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// The engine's options, for a mode built on `run`.
    pub fn engine_mut(&mut self) -> &mut Config {
        &mut self.engine
    }

    /// How the C inputs are compiled.
    pub fn compile_options(&self) -> &CompileOptions {
        &self.compile
    }

    /// The solver's options.
    pub fn solver_config(&self) -> &SolverConfig {
        &self.solver
    }

    /// Names the command that runs (`exceptions`, ...; default `run`), as
    /// run.json records it. Only `run` takes `--data-model ILP32`: the
    /// other modes' claims (exception flags, error, critical inputs, path
    /// sets) are checked against x86-64 only.
    pub fn set_mode(&mut self, mode: Mode) -> Result<(), Failure> {
        if fpsym_replay::witness::data_model(&self.compile.cflags) == "ILP32" {
            return Err(Failure::Input(format!(
                "--data-model ILP32 (or -m32): `fpsym {mode}` models x86-64 (LP64) only; `fpsym run` takes ILP32"
            )));
        }
        self.mode = mode;
        Ok(())
    }

    /// What the run's claim says no native run shows, checked by the
    /// replay of a run ending with a claim.
    pub fn claim_mut(&mut self) -> &mut crate::replay::Claim {
        &mut self.claim
    }

    /// Sets the mode's step after the engine's run.
    pub fn after_run(&mut self, f: AfterRun) {
        self.after_run = Some(f);
    }
}

/// The message for an output directory `-o DIR` that cannot be used.
fn output_error(e: fpsym_engine::report::OutputError) -> Failure {
    use fpsym_engine::report::OutputError as E;
    Failure::Input(match e {
        E::NotADirectory(d) => format!("-o {}: exists and is not a directory", d.display()),
        E::EarlierRun(d) => format!(
            "-o {0} holds the results of an earlier run; results of two runs are never mixed: \
             write to another directory (-o NEW_DIR), or add --force to empty {0} first",
            d.display()
        ),
        E::NotEmpty(d) => format!(
            "-o {} is not empty; results of two runs are never mixed: write to another directory \
             (-o NEW_DIR); --force only removes an earlier run's results",
            d.display()
        ),
        E::HoldsInput(d) => format!(
            "-o {}: --force would empty a directory that holds an input or the current \
             directory; choose another output directory",
            d.display()
        ),
        E::Foreign { dir, foreign } => format!(
            "-o {0}: --force only removes an earlier run's results, and {0} also holds {1}; \
             choose another output directory",
            dir.display(),
            foreign.join(", ")
        ),
        E::Io { path, source } => format!("-o {}: {source}", path.display()),
    })
}

/// The most time the queries checking a correctness witness's invariants
/// take (a tenth of --max-time when that is less: they run after the run,
/// and take milliseconds on bench/prove's programs).
const INVARIANT_CHECK_TIME: std::time::Duration = std::time::Duration::from_secs(10);

/// A mode's step after the run without `--max-time` ([`AfterRun`]).
const AFTER_RUN_UNBOUNDED: std::time::Duration = std::time::Duration::from_secs(60);

/// Runs the program; exit 1 when there are findings.
pub fn run(opts: &RunOptions) -> anyhow::Result<ExitCode> {
    run_then(opts, |_, _| {})
}

/// Runs the program, then calls `report` with the summary and the findings
/// (after the common summary is printed, before replay).
pub fn run_then(opts: &RunOptions, report: impl FnOnce(&Summary, &[Finding])) -> anyhow::Result<ExitCode> {
    let (engine, out, program) = prepare(opts)?;
    execute(opts, &engine, &program, &out, report)
}

/// Checks the inputs, prepares the output directory and builds the
/// program (into `OUT/build`): the engine options (with the property
/// read), the directory and the program.
pub fn prepare(opts: &RunOptions) -> anyhow::Result<(Config, PathBuf, fpsym_frontend::Program)> {
    for f in &opts.files {
        if !f.exists() {
            return Err(Failure::Input(format!("{}: no such file", f.display())).into());
        }
    }
    crate::validate::check_backends(&opts.solver)?;
    let mut engine = opts.engine.clone();
    engine.goals.property = match &opts.property {
        PropertySpec::Named(p) => *p,
        PropertySpec::File(f) => read_prp(f)?,
    };
    let fresh = opts.output.as_ref().is_none_or(|d| !d.exists());
    let out = match &opts.output {
        Some(d) => {
            fpsym_engine::report::prepare_output(d, opts.force, &opts.files).map_err(output_error)?;
            d.clone()
        }
        None => fpsym_engine::report::fresh_output()
            .map_err(|e| Failure::Input(format!("cannot create an output directory: {e}")))?,
    };
    match build_and_check(opts, &engine, &out) {
        Ok(program) => Ok((engine, out, program)),
        Err(e) => {
            // A run that cannot start (a clang error, an unknown
            // --function or --range name) leaves no directory it made.
            if fresh {
                let _ = std::fs::remove_dir_all(&out);
            }
            Err(e)
        }
    }
}

/// Builds the program into `OUT/build` (or loads the prebuilt one) and
/// checks that the run can start: the `--function` entry has a body in
/// the program (else the error lists the functions there are) and every
/// `--range` names one of its parameters.
fn build_and_check(opts: &RunOptions, engine: &Config, out: &Path) -> anyhow::Result<fpsym_frontend::Program> {
    opts.session.output(out);
    let work = out.join("build");
    let built = match &opts.prebuilt {
        Some(shared) => {
            link_build(shared, &work)?;
            fpsym_frontend::reuse(&opts.files, shared)
        }
        None => {
            std::fs::create_dir_all(&work)?;
            fpsym_frontend::build(&opts.files, &opts.compile, &work)
        }
    };
    let program = match built {
        Ok(p) => p,
        Err(FrontendError::Clang { stderr, .. }) => {
            eprint!("{stderr}");
            return Err(Failure::Input("clang rejected the program (diagnostics above)".into()).into());
        }
        Err(e) => return Err(Failure::Input(e.to_string()).into()),
    };
    if let fpsym_engine::Entry::Function { name, ranges, .. } = &engine.entry {
        let user = fpsym_frontend::UserCode::from_inputs(&opts.files);
        let Some(f) = program
            .module
            .functions
            .iter()
            .find(|f| &f.name == name && !f.basic_blocks.is_empty())
        else {
            let mut there: Vec<String> = program
                .module
                .functions
                .iter()
                .filter(|f| user.is_user_function(f) && !f.basic_blocks.is_empty())
                .map(|f| f.name.clone())
                .collect();
            there.sort();
            let list = match there.len() {
                0 => "your files define no function".to_string(),
                n if n > 30 => format!("functions there: {}, ... ({n} in all)", there[..30].join(", ")),
                _ => format!("functions there: {}", there.join(", ")),
            };
            return Err(Failure::Input(format!(
                "--function {name}: no function `{name}` with a body in the program; {list}"
            ))
            .into());
        };
        let prog = fpsym_engine::prog::Prog::new(&program, |_| true);
        let views = fpsym_engine::harness::param_views(&prog, f, None);
        for r in ranges {
            if !views.iter().any(|v| v.ir_name == r.name || v.name == r.name) {
                let names: Vec<&str> = views.iter().map(|v| v.name.as_str()).collect();
                return Err(Failure::Input(format!(
                    "--range {}: `{name}` has no parameter `{}`; its parameters: {}",
                    r.name,
                    r.name,
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                ))
                .into());
            }
        }
    }
    Ok(program)
}

/// The functions `--all-functions` analyses: defined in the user's files,
/// external, not `main`, not variadic.
pub(crate) fn analysable_functions(program: &fpsym_frontend::Program, user: &fpsym_frontend::UserCode) -> Vec<String> {
    program
        .module
        .functions
        .iter()
        .filter(|f| user.is_user_function(f) && why_not_analysable(f).is_none())
        .map(|f| f.name.clone())
        .collect()
}

/// Why `--all-functions` leaves out a function of the user's files, if it
/// does: `main`, a variadic function (its variadic arguments would be
/// missing), or a `static` one (internal linkage: not callable from
/// outside, and its name may repeat across files).
pub(crate) fn why_not_analysable(f: &llvm_ir::Function) -> Option<&'static str> {
    use llvm_ir::module::Linkage;
    if f.basic_blocks.is_empty() {
        Some("no body")
    } else if f.name == "main" {
        Some("main (run the program with `fpsym run`)")
    } else if f.is_var_arg {
        Some("variadic (its variadic arguments cannot be made symbolic)")
    } else if !matches!(f.linkage, Linkage::External | Linkage::WeakAny | Linkage::WeakODR) {
        Some("static (internal linkage)")
    } else {
        None
    }
}

/// Makes `work` (an output directory's `build`) a symbolic link to the
/// shared build directory `shared`, relative when both are under one
/// directory (so a copied tree keeps working).
pub(crate) fn link_build(shared: &Path, work: &Path) -> anyhow::Result<()> {
    let shared = std::fs::canonicalize(shared).map_err(|e| Failure::Input(format!("{}: {e}", shared.display())))?;
    let parent = work.parent().unwrap_or(Path::new("."));
    let from = std::fs::canonicalize(parent)?;
    let common = from
        .ancestors()
        .find(|a| shared.starts_with(a))
        .unwrap_or(Path::new("/"));
    let mut target = PathBuf::new();
    for _ in from.strip_prefix(common).unwrap_or(&from).components() {
        target.push("..");
    }
    target.push(shared.strip_prefix(common).unwrap_or(&shared));
    if work.symlink_metadata().is_ok() {
        std::fs::remove_file(work)?;
    }
    std::os::unix::fs::symlink(target, work)?;
    Ok(())
}

/// Runs `program` with `engine` into `out` (whose `build` holds the
/// program's build), prints the summary, calls `report`, replays on
/// request; exit 1 when there are findings.
pub fn execute(
    opts: &RunOptions,
    engine: &Config,
    program: &fpsym_frontend::Program,
    out: &Path,
    report: impl FnOnce(&Summary, &[Finding]),
) -> anyhow::Result<ExitCode> {
    execute_with(opts, engine, program, out, Plugins::default(), |_, _| None, report)
}

/// [`execute`] with a mode's observers and branch oracle, and its own
/// verdict (`verdict`: given the summary and the findings, Some to replace
/// the run's verdict before it is written and printed).
pub fn execute_with(
    opts: &RunOptions,
    engine: &Config,
    program: &fpsym_frontend::Program,
    out: &Path,
    plugins: Plugins,
    verdict: impl FnOnce(&Summary, &[Finding]) -> Option<Verdict>,
    report: impl FnOnce(&Summary, &[Finding]),
) -> anyhow::Result<ExitCode> {
    let out = out.to_path_buf();
    opts.session.output(&out);
    let record = write_run_record(opts, engine, &out, program)?;
    let interrupt = opts.session.interrupt();
    let mut seeded = engine.clone();
    let mut budget = crate::budget::Budget::new();
    let started = std::time::Instant::now();
    // The run's --max-time (a batch or --all-functions: the function's).
    let run_time = engine.limits.max_time;
    let secs = std::time::Duration::from_secs_f64;
    // The proof by invariants first: its time comes out of the run's.
    // (run only: the directed modes ask other questions than reach_error)
    let proof = match opts.mode {
        Mode::Run => crate::prove::attempt(&opts.session, program, engine, opts.prove, &opts.solver),
        Mode::Exceptions => {
            crate::prove::attempt_exceptions(&opts.session, program, engine, opts.prove, &opts.claim.absent)
        }
        _ => None,
    };
    if let Some(p) = &proof {
        budget.record("proof", Some(p.given), secs(p.seconds));
    }
    if let Some(p) = &proof {
        seeded.goals.proved_absent = p.proved_kinds();
    }
    if let (Some(p), Some(t)) = (&proof, seeded.limits.max_time) {
        seeded.limits.max_time = Some(t.saturating_sub(std::time::Duration::from_secs_f64(p.seconds)));
    }
    // With a proof, the symbolic run only makes the tests that check it
    // natively (and would contradict it): a few seconds after the fuzzing
    // phase's share, not the whole budget.
    // (a plain run goes on as it would: its proof only answers when the
    // paths cannot all be explored)
    if proof
        .as_ref()
        .is_some_and(|p| p.proved() && !p.plain && p.fp.as_ref().is_none_or(|f| f.complete))
    {
        seeded.limits.max_time = Some(match seeded.limits.max_time {
            Some(t) => t.min(crate::prove::CONFIRMATION + opts.fuzz.share()),
            None => crate::prove::CONFIRMATION_UNBOUNDED,
        });
    }
    let mut fuzzed = match plugins.oracle {
        None => crate::fuzz::phase(opts.fuzz, opts.mode, &record, program, &out, &mut seeded, &interrupt)?,
        Some(_) => None,
    };
    if let Some(ph) = &fuzzed {
        budget.record("fuzz", Some(opts.fuzz.share()), secs(ph.outcome.seconds));
    }
    let engine = &seeded;
    let mut solver = fpsym_solver::build_with_workers(&opts.solver, opts.session.workers());
    let mut sink = DirSink::create(&out)?;
    let mut progress = Progress::new(&out)?;
    let mut on_progress = |s: &fpsym_engine::Stats, live: usize| progress.sample(s, live);
    let mut cx = RunContext {
        interrupt,
        user: fpsym_frontend::UserCode::from_inputs(&opts.files),
        progress: Some(&mut on_progress),
        plugins,
        // Branch sides whose query timed out are retried on a second
        // solver while the run goes on (none times out without a timeout).
        retry_solver: engine
            .limits
            .solver_timeout
            .map(|_| fpsym_solver::build_with_workers(&opts.solver, opts.session.workers())),
    };
    let search_start = std::time::Instant::now();
    let mut summary = fpsym_engine::run(program, solver.as_mut(), engine, &mut sink, &mut cx).map_err(|e| match e {
        EngineError::Entry(m) => anyhow::Error::from(Failure::Input(m)),
        EngineError::NoParameter { function, param } => {
            Failure::Input(format!("--range {param}: `{function}` has no parameter `{param}`")).into()
        }
        EngineError::Range { param, message } => Failure::Input(format!("--range {param}: {message}")).into(),
        e => anyhow::Error::from(Failure::Internal(e.to_string())),
    })?;
    drop(cx);
    budget.record("search", engine.limits.max_time, search_start.elapsed());
    if let Some(phase) = &mut fuzzed {
        let follow_start = std::time::Instant::now();
        let added = crate::fuzz::follow_crashes(
            phase,
            program,
            engine,
            solver.as_mut(),
            &out,
            &mut sink,
            &mut summary.stats,
        )?;
        if !phase.follow.is_zero() {
            budget.record("follow-up", Some(phase.follow), follow_start.elapsed());
        }
        // A failure found on the machine and reached by the model.
        if added > 0 {
            summary.set_verdict(Verdict::BugFound);
        }
    }
    progress.finish(&summary.stats);
    if let Some(after) = opts.after_run {
        // What is left of --max-time, but at least a tenth of it.
        let time = run_time.map_or(AFTER_RUN_UNBOUNDED, |m| m.saturating_sub(started.elapsed()).max(m / 10));
        budget.time("after-run", Some(time), || {
            after(&opts.session, time, program, engine, &out, &mut sink, solver.as_mut())
        })?;
    }
    if let Some(v) = verdict(&summary, sink.findings()) {
        summary.set_verdict(v);
    }
    // The fuzzing phase's crashes: those the run reproduced with their
    // input are marked; the others are findings of their own (they
    // happened on the machine), run natively and compared with what the
    // run says.
    let mut alone = Vec::new();
    let fuzz_line = match &fuzzed {
        Some(phase) => {
            let (marked, reproduced) = crate::fuzz::mark_findings(phase, &out, &mut sink)?;
            let claims = verdict_code(&summary.verdict) == 0;
            // Bounds of the run the fuzzer did not keep to: a crash the run
            // does not reproduce may lie outside them.
            alone = if !phase.bounded {
                crate::fuzz::unreproduced_note(phase, &reproduced);
                Vec::new()
            } else {
                crate::fuzz::crashes_alone(phase, &reproduced, &out, sink.findings(), claims, engine.goals.property)?
            };
            crate::fuzz::write_record(phase, marked, &alone, &out)?;
            // Those reproduced at their place from another input are the
            // run's findings already.
            let own = alone.iter().filter(|c| c.said != crate::fuzz::Said::Reproduced);
            let mut line = crate::fuzz::summary_line(phase, marked + own.clone().count());
            for c in own {
                line = format!("{line}\n{}", c.line());
            }
            Some(line)
        }
        None => None,
    };
    let contradicted = alone
        .iter()
        .find(|c| matches!(c.said, crate::fuzz::Said::Contradicted(_)))
        .map(|c| {
            format!(
                "the model disagrees with native execution at {}: the fuzzing phase's input {} fails there natively ({} natively; {})",
                c.place(),
                c.input,
                c.kind,
                match &c.said {
                    crate::fuzz::Said::Contradicted(why) => why.as_str(),
                    _ => "",
                }
            )
        });
    if let Some(why) = &contradicted {
        summary.set_verdict(Verdict::Unknown(why.clone()));
    } else if alone.iter().any(|c| c.said == crate::fuzz::Said::NotReached) {
        // A failure found on the machine: a bug found, whatever the
        // symbolic run reached.
        if matches!(summary.verdict, Verdict::Incomplete(_) | Verdict::Unknown(_)) {
            summary.set_verdict(Verdict::BugFound);
        }
    }
    // A proof never replaces a finding, nor a contradiction.
    let proof_line = match (&proof, &contradicted) {
        (Some(p), None) => match crate::prove::apply(p, &mut summary, sink.findings()) {
            Ok(line) => line,
            Err(why) => {
                sink.finish(&summary)?;
                return Err(Failure::Internal(format!("{why}: a bug in fpsym")).into());
            }
        },
        _ => None,
    };
    summary.phases = budget.phases().to_vec();
    summary.proof = proof_line
        .as_ref()
        .map(|l| l.strip_prefix("proof: ").unwrap_or(l).to_string());
    sink.finish(&summary)?;
    for p in &summary.printed {
        say_part!("{p}");
    }
    if !summary.printed.is_empty() {
        say!();
    }
    if let Some(l) = &fuzz_line {
        say!("{l}");
    }
    if let Some(l) = &proof_line {
        say!("{l}");
    }
    print_summary(&summary, sink.findings(), &out);
    if engine.goals.property == Property::UnreachCall && summary.verdict == Verdict::BugFound {
        crate::competition::write_witness(
            &opts.files,
            &opts.compile.cflags,
            opts.witness.as_deref(),
            &out,
            sink.findings(),
        );
    }
    report(&summary, sink.findings());
    if let Some(why) = contradicted {
        return Err(Failure::Internal(format!("{why}: a bug in fpsym's model")).into());
    }
    let claim = verdict_code(&summary.verdict) == 0;
    let replay_start = std::time::Instant::now();
    let replays = opts.replay == Replay::Always || (claim && opts.replay == Replay::Claims);
    if replays {
        say!();
        let r = crate::replay::ReplayOptions {
            coverage: opts.coverage,
            ..Default::default()
        };
        if !claim {
            crate::replay::replay(&out, &r)?;
        } else if let Some(why) = crate::replay::check_claim(&out, &opts.claim, &r).map_err(|e| {
            let claimed = match summary.verdict {
                Verdict::Infeasible(_) => "infeasible",
                _ => "verified",
            };
            e.context(format!(
                "checking the claim ({claimed}) natively; --no-replay skips the check"
            ))
        })? {
            if opts.session.interrupted() {
                // Ctrl-C or SIGTERM reached the native runs too: no
                // contradiction, but no checked claim either.
                let why = "interrupted while checking the claim natively (--no-replay skips the check)";
                summary.set_verdict(Verdict::Unknown(why.into()));
                sink.finish(&summary)?;
                say!("verdict: unknown ({why})");
                print_sv_comp(&summary);
                return Ok(ExitCode::from(crate::INCOMPLETE));
            }
            // The claim is withdrawn: never a proof the machine contradicts.
            summary.set_verdict(Verdict::Unknown(why.clone()));
            sink.finish(&summary)?;
            say!("verdict: unknown (the claim is withdrawn: native execution contradicts the model)");
            print_sv_comp(&summary);
            return Err(Failure::Internal(format!("{why}: a bug in fpsym's model")).into());
        }
    }
    if replays {
        budget.record(
            if claim { "claim-check" } else { "replay" },
            None,
            replay_start.elapsed(),
        );
    }
    // A proof that native execution did not contradict: its correctness
    // witness.
    if engine.goals.property == Property::UnreachCall && summary.sv_comp.as_deref() == Some("true") {
        let invariants = match &proof {
            Some(p) if matches!(summary.verdict, Verdict::Proved(_)) => crate::prove::witness_invariants(p),
            _ => Vec::new(),
        };
        // The witness's invariants, checked by fpsym's own queries.
        if let Some(p) = proof.as_ref().filter(|_| !invariants.is_empty()) {
            let time = engine
                .limits
                .max_time
                .map_or(INVARIANT_CHECK_TIME, |t| (t / 10).min(INVARIANT_CHECK_TIME));
            let lines = budget.time("invariant-check", Some(time), || {
                crate::prove::check_invariants(&opts.session, program, engine, &opts.solver, p, time)
            });
            for l in lines {
                say!("{l}");
            }
        }
        crate::competition::write_correctness_witness(
            &opts.files,
            &opts.compile.cflags,
            opts.witness.as_deref(),
            &out,
            &invariants,
        );
    }
    // stats.json again with the phases after the summary (replay, the
    // invariants' check).
    if budget.phases().len() > summary.phases.len() {
        summary.phases = budget.phases().to_vec();
        sink.finish(&summary)?;
    }
    // A solver fault stopped the run: what was found is written, and the
    // fault is an internal error (exit 3).
    if let fpsym_engine::StopReason::SolverFault(m) = &summary.stop {
        return Err(Failure::Internal(format!(
            "{m}\nthe run stopped there; the results found before are in {}",
            out.display()
        ))
        .into());
    }
    Ok(ExitCode::from(verdict_code(&summary.verdict)))
}

/// The SV-COMP verdict again, after the claim check changed it (the line
/// printed last is the one that holds).
fn print_sv_comp(summary: &Summary) {
    if let Some(v) = &summary.sv_comp {
        say!("sv-comp: {v}");
    }
}

/// The exit code of a verdict: 1 found (a bug, a feasible path), 0 proved
/// (verified, infeasible), 4 neither (incomplete, unknown).
pub fn verdict_code(v: &Verdict) -> u8 {
    match v {
        Verdict::BugFound | Verdict::Feasible(_) => 1,
        Verdict::Verified | Verdict::Proved(_) | Verdict::Infeasible(_) => 0,
        Verdict::Incomplete(_) | Verdict::Unknown(_) => crate::INCOMPLETE,
    }
}

/// How a run shows it is alive: on a terminal a progress line (paths,
/// tests, findings, branch coverage, time); otherwise (CI logs) one status
/// line on stderr every 10 s (`FPSYM_STATUS_SECONDS` sets another period);
/// and always a sample a second into `OUT/progress.jsonl` for the report's
/// plots.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    file: std::fs::File,
    last_sample: Option<std::time::Instant>,
    last_status: std::time::Instant,
    status_every: std::time::Duration,
}

impl Progress {
    /// Between two samples in progress.jsonl.
    const SAMPLE_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

    fn new(out: &Path) -> std::io::Result<Progress> {
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = indicatif::ProgressBar::new_spinner();
            b.set_style(
                indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}").expect("a valid template"),
            );
            b
        });
        Ok(Progress {
            bar,
            file: std::fs::File::create(out.join(fpsym_engine::report::PROGRESS))?,
            last_sample: None,
            last_status: std::time::Instant::now(),
            status_every: std::env::var("FPSYM_STATUS_SECONDS")
                .ok()
                .and_then(|s| s.parse::<f64>().ok())
                .and_then(|s| std::time::Duration::try_from_secs_f64(s).ok())
                .unwrap_or(std::time::Duration::from_secs(10)),
        })
    }

    /// The counters in a few words.
    fn line(s: &fpsym_engine::Stats, live: usize) -> String {
        let cov = if s.branches_total > 0 {
            format!("{:.1}%", 100.0 * s.branches_covered as f64 / s.branches_total as f64)
        } else {
            "-".to_string()
        };
        format!(
            "{} paths, {} tests, {} findings, branch coverage {cov} ({}/{}), {live} states live, {} instructions, {} queries",
            s.paths_completed + s.paths_partial,
            s.tests,
            s.findings,
            s.branches_covered,
            s.branches_total,
            s.instructions,
            s.queries
        )
    }

    fn write_sample(&mut self, s: &fpsym_engine::Stats, live: usize) {
        use std::io::Write;
        let sample = fpsym_engine::report::ProgressSample::of(s, live);
        if let Ok(text) = serde_json::to_string(&sample) {
            // A sample that cannot be written only thins the plot.
            let _ = writeln!(self.file, "{text}");
        }
    }

    /// Called by the engine about five times a second.
    fn sample(&mut self, s: &fpsym_engine::Stats, live: usize) {
        let now = std::time::Instant::now();
        if self.last_sample.is_none_or(|t| now - t >= Self::SAMPLE_EVERY) {
            self.write_sample(s, live);
            self.last_sample = Some(now);
        }
        match &self.bar {
            Some(b) => {
                b.set_message(Self::line(s, live));
                b.tick();
            }
            None if now - self.last_status >= self.status_every => {
                eprintln!("fpsym: {:.0} s: {}", s.seconds, Self::line(s, live));
                self.last_status = now;
            }
            None => {}
        }
    }

    /// The run is over: the last sample, and the progress line cleared.
    fn finish(&mut self, s: &fpsym_engine::Stats) {
        self.write_sample(s, 0);
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}

fn print_summary(s: &Summary, findings: &[Finding], out: &std::path::Path) {
    let st = &s.stats;
    let pct = |a: f64, b: f64| if b > 0.0 { 100.0 * a / b } else { 0.0 };
    say!(
        "paths: {} completed, {} partial, {} infeasible",
        st.paths_completed,
        st.paths_partial,
        st.paths_infeasible
    );
    say!("tests: {}  findings: {}", st.tests, st.findings);
    say!(
        "branch coverage (LLVM IR, your code): {}/{} ({:.1}%)",
        st.branches_covered,
        st.branches_total,
        pct(st.branches_covered as f64, st.branches_total as f64)
    );
    say!(
        "instructions: {}  solver: {} queries, {:.2} s of {:.2} s ({:.0}%)",
        st.instructions,
        st.queries,
        st.solver_seconds,
        st.seconds,
        pct(st.solver_seconds, st.seconds)
    );
    // Underflow and inexact (precision lost, not range) after the kinds
    // a user acts on.
    let (acted, apart): (Vec<&Finding>, Vec<&Finding>) = findings.iter().partition(|f| {
        !matches!(
            f.kind,
            fpsym_engine::report::FindingKind::FpUnderflow | fpsym_engine::report::FindingKind::FpInexact
        )
    });
    for f in acted.into_iter().chain(apart) {
        say!(
            "  {} at {}:{}:{} (test {:06}){}",
            f.kind,
            f.file,
            f.line,
            f.column,
            f.test,
            if f.message.is_empty() {
                String::new()
            } else {
                format!(": {}", f.message)
            }
        );
        if let Some(op) = &f.operation {
            let result = f.result.as_ref().map(|r| format!(" = {r}")).unwrap_or_default();
            say!("      {op}({}){result}", f.operands.join(", "));
        }
        if let Some(t) = crate::show::read_test(out, f.test) {
            say!("      input: {}", crate::show::input_line(&t.objects));
        }
    }
    let verdict = match &s.verdict {
        Verdict::BugFound => match &s.incomplete {
            Some(why) => format!("bug found (exploration incomplete: {why}; other bugs may exist)"),
            None => "bug found (every path explored)".to_string(),
        },
        Verdict::Verified => "verified (every path explored exactly, no finding)".to_string(),
        Verdict::Proved(why) => format!("verified ({why})"),
        Verdict::Incomplete(why) => format!("incomplete ({why})"),
        Verdict::Feasible(what) => format!("feasible ({what})"),
        Verdict::Infeasible(why) => format!("infeasible ({why})"),
        Verdict::Unknown(why) => format!("unknown ({why})"),
    };
    say!("verdict: {verdict}");
    if let Some(v) = &s.sv_comp {
        say!("sv-comp: {v}");
    }
    say!("output: {}", out.display());
}

/// `DIR/run.json`: what `fpsym replay` needs to rebuild the program natively
/// (sources, flags, and for `--function` runs the function's C prototype).
fn write_run_record(
    opts: &RunOptions,
    engine: &Config,
    out: &std::path::Path,
    program: &fpsym_frontend::Program,
) -> anyhow::Result<RunRecord> {
    let record = run_record(opts, engine, program);
    fpsym_engine::report::write_json(&out.join(fpsym_engine::report::RUN_RECORD), &record)?;
    Ok(record)
}

/// The run's record (see [`write_run_record`]).
pub fn run_record(opts: &RunOptions, engine: &Config, program: &fpsym_frontend::Program) -> RunRecord {
    let property = engine.goals.property;
    let abs = |p: &PathBuf| {
        std::fs::canonicalize(p)
            .unwrap_or_else(|_| p.clone())
            .display()
            .to_string()
    };
    let entry = match &engine.entry {
        Entry::Main => EntryRecord::Main { main: true },
        Entry::Function { name, array_len, .. } => {
            let (params, ret) = fpsym_engine::harness::driver_prototype(program, name);
            EntryRecord::Function {
                function: name.clone(),
                array_len: array_len.unwrap_or(1),
                params,
                ret,
            }
        }
    };
    RunRecord {
        files: opts.files.iter().map(abs).collect(),
        include: opts.compile.include_dirs.iter().map(abs).collect(),
        defines: opts.compile.defines.clone(),
        cflags: opts.compile.cflags.clone(),
        env: opts.engine.input.env.iter().cloned().collect(),
        entry,
        property: (property != Property::AllFindings).then_some(property),
        sym_args: engine.input.sym_io.args.clone(),
        sym_stdin: engine.input.sym_io.stdin,
        mode: Some(opts.mode),
    }
}
