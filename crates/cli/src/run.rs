//! `fpsym run`: symbolic execution of a C program.

use crate::args::RunArgs;
use crate::solver_opts::{seconds, solver_config};
use crate::Failure;
use fpsym_engine::harness::InputRange;
use fpsym_engine::plugin::Plugins;
use fpsym_engine::report::{DirSink, EntryRecord, Finding, ReportSink, RunRecord};
use fpsym_engine::searcher::{Policy, Search};
use fpsym_engine::{Config, EngineError, Entry, Property, RunContext, Summary, Verdict};
use fpsym_frontend::{CompileOptions, FrontendError};
use fpsym_solver::SolverConfig;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Validated options of `fpsym run`.
#[derive(Debug)]
pub struct RunOptions {
    files: Vec<PathBuf>,
    compile: CompileOptions,
    engine: Config,
    solver: SolverConfig,
    output: Option<PathBuf>,
    force: bool,
    property: PropertySpec,
    replay: Replay,
    /// What a claim of the run says no native run shows (the mode's).
    claim: crate::replay::Claim,
    coverage: bool,
    /// `fpsym batch`'s shared build directory, loaded instead of compiling.
    prebuilt: Option<PathBuf>,
    after_run: Option<AfterRun>,
    mode: &'static str,
    /// The native fuzzing phase's time.
    fuzz: crate::fuzz::FuzzTime,
    /// `--witness`: where a violation witness goes (default OUT/witness.yml).
    witness: Option<PathBuf>,
    /// `--prove`: how to try a proof.
    prove: crate::prove::How,
}

/// When the tests are replayed natively once the run is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replay {
    /// Always (`--replay`).
    Always,
    /// When the run ends with a claim (verified, infeasible), to check it:
    /// the default.
    Claims,
    /// Never (`--no-replay`): a claim rests on the model alone.
    Never,
}

/// What a mode does once the engine has run and before the summary is
/// printed: amend its findings from what it learns about them (the
/// exceptions mode re-runs each over/underflow in high precision). Gets
/// the program, the engine's options, the output directory, the sink
/// (findings so far) and the solver.
pub type AfterRun =
    fn(&fpsym_frontend::Program, &Config, &Path, &mut DirSink, &mut dyn fpsym_solver::Solver) -> anyhow::Result<()>;

/// `--property` as given: a property by name, or an SV-COMP `.prp` file
/// read when the run starts.
#[derive(Debug)]
enum PropertySpec {
    /// A property by name (or none: every bug is a finding).
    Named(Property),
    /// The path of a `.prp` file.
    File(PathBuf),
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

/// The symbolic arguments and standard input of `--sym-arg`, `--sym-args`
/// (in command-line order) and `--sym-stdin`: for `main` only.
fn sym_io(a: &RunArgs) -> Result<fpsym_engine::posix::SymIo, Failure> {
    use fpsym_engine::posix::{SymArgs, SymIo};
    let mut single = a.sym_arg.iter().map(|&len| SymArgs { min: 1, max: 1, len });
    let mut groups = a.sym_args.chunks(3).map(|c| SymArgs {
        min: c[0],
        max: c[1],
        len: c[2],
    });
    // Command-line order when parsing recorded it, else singles first.
    let order = if a.sym_order.len() == a.sym_arg.len() + a.sym_args.len() / 3 {
        a.sym_order.clone()
    } else {
        std::iter::repeat_n(false, a.sym_arg.len())
            .chain(std::iter::repeat_n(true, a.sym_args.len() / 3))
            .collect()
    };
    let args = order
        .iter()
        .filter_map(|g| if *g { groups.next() } else { single.next() })
        .collect();
    let io = SymIo {
        args,
        stdin: a.sym_stdin,
    };
    if !io.is_empty() {
        if let Some(f) = &a.function {
            let flag = if !a.sym_arg.is_empty() {
                "--sym-arg"
            } else if !a.sym_args.is_empty() {
                "--sym-args"
            } else {
                "--sym-stdin"
            };
            return Err(Failure::Input(format!(
                "{flag} applies to main (its argv and stdin), not to --function {f}"
            )));
        }
    }
    io.validate().map_err(Failure::Input)?;
    Ok(io)
}

/// Parses `x=[a,b]`, its bounds exact decimals (or infinities).
fn parse_range(s: &str) -> Result<InputRange, Failure> {
    InputRange::parse(s).map_err(Failure::Input)
}

/// Parses `--search`: a policy, or policies joined by `+` to take turns.
fn parse_search(s: &str) -> Result<Search, Failure> {
    let policies = s
        .split('+')
        .map(|p| p.parse::<Policy>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| Failure::Input(format!("--search {s}: {e}, or A+B to interleave")))?;
    Ok(match policies.as_slice() {
        [one] => Search::One(*one),
        _ => Search::Interleaved(policies),
    })
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
    pub fn set_mode(&mut self, mode: &'static str) -> Result<(), Failure> {
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

    /// Validates raw flags (no filesystem access).
    pub fn from_args(a: RunArgs) -> Result<RunOptions, Failure> {
        let mut engine = Config::default();
        if let Some(f) = &a.function {
            engine.entry = Entry::Function {
                name: f.clone(),
                ranges: {
                    let ranges: Vec<InputRange> = a.ranges.iter().map(|r| parse_range(r)).collect::<Result<_, _>>()?;
                    for (i, r) in ranges.iter().enumerate() {
                        if ranges[..i].iter().any(|o| o.name == r.name) {
                            return Err(Failure::Input(format!(
                                "--range {}: given twice (one range per input)",
                                r.name
                            )));
                        }
                    }
                    ranges
                },
                array_len: a.array_len,
            };
        } else if !a.ranges.is_empty() || a.array_len.is_some() {
            return Err(Failure::Input("--range and --array-len apply with --function".into()));
        }
        engine.search = parse_search(&a.search)?;
        engine.max_time = seconds("--max-time", a.max_time)?;
        if let Some(m) = a.max_memory {
            if m == 0 {
                return Err(Failure::Input(
                    "--max-memory: expected a positive number of MiB, got 0".into(),
                ));
            }
            engine.max_memory = m.saturating_mul(1 << 20);
        }
        if let Some(n) = a.max_states {
            engine.max_states = n;
        }
        engine.max_instructions = a.max_instructions;
        engine.fast_path = !a.no_fast_path;
        engine.loop_bound = a.loop_bound;
        if let Some(t) = seconds("--solver-timeout", a.solver_timeout)? {
            engine.solver_timeout = Some(t);
        }
        engine.print = a.print;
        engine.libm = match a.libm {
            crate::args::LibmArg::Symbolic => fpsym_engine::LibmModel::Symbolic,
            crate::args::LibmArg::Concretize => fpsym_engine::LibmModel::Concretize,
        };
        engine.sym_io = sym_io(&a)?;
        engine.finite_inputs = a.finite_inputs;
        for e in &a.env {
            let (name, value) = e
                .split_once('=')
                .filter(|(n, _)| !n.is_empty())
                .ok_or_else(|| Failure::Input(format!("--env {e}: expected NAME=VALUE")))?;
            engine.env.push((name.to_string(), value.to_string()));
        }
        let mut compile = CompileOptions::default();
        compile.include_dirs = a.include.clone();
        compile.defines = a.define.clone();
        compile.cflags = match a.data_model {
            crate::args::DataModel::Lp64 => Vec::new(),
            crate::args::DataModel::Ilp32 => fpsym_frontend::ILP32_FLAGS.iter().map(|f| f.to_string()).collect(),
        };
        compile.cflags.extend(a.cflags.iter().cloned());
        compile.runtime = !a.no_runtime;
        for f in &a.files {
            let ext = f.extension().and_then(|e| e.to_str()).unwrap_or("");
            if matches!(ext, "cpp" | "cc" | "cxx" | "c++" | "C" | "hpp" | "ii") {
                return Err(Failure::Input(format!(
                    "{}: C++ is not supported: fpsym analyses C (.c, .i) and LLVM bitcode (.bc, .ll)",
                    f.display()
                )));
            }
            if !matches!(ext, "c" | "i" | "bc" | "ll") {
                return Err(Failure::Input(format!(
                    "{}: expected a C source (.c), preprocessed C (.i) or LLVM bitcode (.bc, .ll)",
                    f.display()
                )));
            }
        }
        let property = match a.property.as_deref() {
            None => PropertySpec::Named(Property::AllFindings),
            Some(p) if p.ends_with(".prp") => PropertySpec::File(PathBuf::from(p)),
            Some(p) => match Property::from_name(p) {
                Some(p) => PropertySpec::Named(p),
                None => {
                    return Err(Failure::Input(format!(
                        "--property {p}: expected `unreach-call`, `coverage-error`, `coverage-branches` \
                         or an SV-COMP/Test-Comp .prp file stating one"
                    )))
                }
            },
        };
        let fuzz = crate::fuzz::FuzzTime::from_flags(a.fuzz_time, engine.max_time)?;
        Ok(RunOptions {
            fuzz,
            files: a.files,
            compile,
            engine,
            solver: solver_config(&a.solver)?,
            output: a.output,
            force: a.force,
            property,
            replay: if a.replay {
                Replay::Always
            } else if a.no_replay {
                Replay::Never
            } else {
                Replay::Claims
            },
            claim: Default::default(),
            coverage: a.coverage,
            prebuilt: a.prebuilt,
            after_run: None,
            mode: "run",
            witness: a.witness,
            prove: crate::prove::How::parse(&a.prove),
        })
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
    crate::solver_opts::check_backends(&opts.solver)?;
    let mut engine = opts.engine.clone();
    engine.property = match &opts.property {
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
    crate::session::output(out);
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
    crate::session::output(&out);
    let record = write_run_record(opts, engine, &out, program)?;
    let interrupt = crate::interrupt();
    let mut seeded = engine.clone();
    // The proof by invariants first: its time comes out of the run's.
    // (run only: the directed modes ask other questions than reach_error)
    let proof = if opts.mode == "run" {
        crate::prove::attempt(program, engine, opts.prove, &opts.solver)
    } else {
        None
    };
    if let (Some(p), Some(t)) = (&proof, seeded.max_time) {
        seeded.max_time = Some(t.saturating_sub(std::time::Duration::from_secs_f64(p.seconds)));
    }
    // With a proof, the symbolic run only makes the tests that check it
    // natively (and would contradict it): a few seconds after the fuzzing
    // phase's share, not the whole budget.
    // (a plain run goes on as it would: its proof only answers when the
    // paths cannot all be explored)
    if proof.as_ref().is_some_and(|p| p.proved() && !p.plain) {
        seeded.max_time = Some(match seeded.max_time {
            Some(t) => t.min(crate::prove::CONFIRMATION + opts.fuzz.share()),
            None => crate::prove::CONFIRMATION_UNBOUNDED,
        });
    }
    let mut fuzzed = match plugins.oracle {
        None => crate::fuzz::phase(opts.fuzz, opts.mode, &record, program, &out, &mut seeded, &interrupt)?,
        Some(_) => None,
    };
    let engine = &seeded;
    let mut solver = fpsym_solver::build_with_workers(&opts.solver, &crate::WORKERS);
    let mut sink = DirSink::create(&out)?;
    let mut progress = Progress::new(&out)?;
    let mut on_progress = |s: &fpsym_engine::Stats, live: usize| progress.sample(s, live);
    let mut cx = RunContext {
        interrupt,
        user: fpsym_frontend::UserCode::from_inputs(&opts.files),
        progress: Some(&mut on_progress),
        plugins,
    };
    let mut summary = fpsym_engine::run(program, solver.as_mut(), engine, &mut sink, &mut cx).map_err(|e| match e {
        EngineError::Entry(m) => anyhow::Error::from(Failure::Input(m)),
        EngineError::NoParameter { function, param } => {
            Failure::Input(format!("--range {param}: `{function}` has no parameter `{param}`")).into()
        }
        EngineError::Range { param, message } => Failure::Input(format!("--range {param}: {message}")).into(),
        e => anyhow::Error::from(Failure::Internal(e.to_string())),
    })?;
    drop(cx);
    if let Some(phase) = &mut fuzzed {
        let added = crate::fuzz::follow_crashes(
            phase,
            program,
            engine,
            solver.as_mut(),
            &out,
            &mut sink,
            &mut summary.stats,
        )?;
        // A failure found on the machine and reached by the model.
        if added > 0 {
            summary.set_verdict(Verdict::BugFound);
        }
    }
    progress.finish(&summary.stats);
    if let Some(after) = opts.after_run {
        after(program, engine, &out, &mut sink, solver.as_mut())?;
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
                crate::fuzz::crashes_alone(phase, &reproduced, &out, sink.findings(), claims, engine.property)?
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
        (Some(p), None) => match crate::prove::apply(p, &mut summary) {
            Ok(line) => line,
            Err(why) => {
                sink.finish(&summary)?;
                return Err(Failure::Internal(format!("{why}: a bug in fpsym")).into());
            }
        },
        _ => None,
    };
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
    if engine.property == Property::UnreachCall && summary.verdict == Verdict::BugFound {
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
    if opts.replay == Replay::Always || (claim && opts.replay == Replay::Claims) {
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
            if crate::interrupt().load(std::sync::atomic::Ordering::Relaxed) {
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
    // A proof that native execution did not contradict: its correctness
    // witness.
    if engine.property == Property::UnreachCall && summary.sv_comp.as_deref() == Some("true") {
        let invariants = match &proof {
            Some(p) if matches!(summary.verdict, Verdict::Proved(_)) => crate::prove::witness_invariants(p),
            _ => Vec::new(),
        };
        // The witness's invariants, checked by fpsym's own queries.
        if let Some(p) = proof.as_ref().filter(|_| !invariants.is_empty()) {
            let time = engine
                .max_time
                .map_or(INVARIANT_CHECK_TIME, |t| (t / 10).min(INVARIANT_CHECK_TIME));
            for l in crate::prove::check_invariants(program, engine, &opts.solver, p, time) {
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
    let property = engine.property;
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
        env: opts.engine.env.iter().cloned().collect(),
        entry,
        property: (property != Property::AllFindings).then_some(property),
        sym_args: engine.sym_io.args.clone(),
        sym_stdin: engine.sym_io.stdin,
        mode: Some(opts.mode.to_string()),
    }
}
