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
    replay: bool,
    coverage: bool,
    after_run: Option<AfterRun>,
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
             `CHECK( init(main()), LTL(G ! call(reach_error())) )`",
            path.display(),
            text.trim()
        ))
    })
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

    /// The solver's options.
    pub fn solver_config(&self) -> &SolverConfig {
        &self.solver
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
                            ))
                            .into());
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
        engine.loop_bound = a.loop_bound;
        if let Some(t) = seconds("--solver-timeout", a.solver_timeout)? {
            engine.solver_timeout = Some(t);
        }
        engine.print = a.print;
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
        compile.cflags = a.cflags.clone();
        compile.runtime = !a.no_runtime;
        for f in &a.files {
            let ext = f.extension().and_then(|e| e.to_str()).unwrap_or("");
            if !matches!(ext, "c" | "i" | "bc" | "ll") {
                return Err(Failure::Input(format!(
                    "{}: expected a C source (.c), preprocessed C (.i) or LLVM bitcode (.bc, .ll)",
                    f.display()
                )));
            }
        }
        let property = match a.property.as_deref() {
            None => PropertySpec::Named(Property::AllFindings),
            Some("unreach-call") => PropertySpec::Named(Property::UnreachCall),
            Some(p) if p.ends_with(".prp") => PropertySpec::File(PathBuf::from(p)),
            Some(p) => {
                return Err(Failure::Input(format!(
                    "--property {p}: expected `unreach-call` or an SV-COMP .prp file stating it"
                )))
            }
        };
        Ok(RunOptions {
            files: a.files,
            compile,
            engine,
            solver: solver_config(&a.solver)?,
            output: a.output,
            force: a.force,
            property,
            replay: a.replay,
            coverage: a.coverage,
            after_run: None,
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
    let mut engine = opts.engine.clone();
    engine.property = match &opts.property {
        PropertySpec::Named(p) => *p,
        PropertySpec::File(f) => read_prp(f)?,
    };
    let out = match &opts.output {
        Some(d) => {
            fpsym_engine::report::prepare_output(d, opts.force, &opts.files).map_err(output_error)?;
            d.clone()
        }
        None => fpsym_engine::report::fresh_output()
            .map_err(|e| Failure::Input(format!("cannot create an output directory: {e}")))?,
    };
    let work = out.join("build");
    std::fs::create_dir_all(&work)?;
    let program = match fpsym_frontend::build(&opts.files, &opts.compile, &work) {
        Ok(p) => p,
        Err(FrontendError::Clang { stderr, .. }) => {
            eprint!("{stderr}");
            return Err(Failure::Input("clang rejected the program (diagnostics above)".into()).into());
        }
        Err(e) => return Err(Failure::Input(e.to_string()).into()),
    };
    Ok((engine, out, program))
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
    write_run_record(opts, engine, &out, program)?;
    let mut solver = fpsym_solver::build_with_workers(&opts.solver, &crate::WORKERS);
    let interrupt = crate::interrupt();
    let mut sink = DirSink::create(&out)?;
    let bar = if std::io::stderr().is_terminal() {
        let b = indicatif::ProgressBar::new_spinner();
        b.set_style(indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}").unwrap());
        Some(b)
    } else {
        None
    };
    let mut progress = |s: &fpsym_engine::Stats, live: usize| {
        if let Some(b) = &bar {
            b.set_message(format!(
                "{} instructions, {} states live, {} tests, {} findings, {} queries",
                s.instructions, live, s.tests, s.findings, s.queries
            ));
            b.tick();
        }
    };
    let mut cx = RunContext {
        interrupt,
        user: fpsym_frontend::UserCode::from_inputs(&opts.files),
        progress: Some(&mut progress),
        plugins,
        ..RunContext::default()
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
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(after) = opts.after_run {
        after(program, engine, &out, &mut sink, solver.as_mut())?;
    }
    if let Some(v) = verdict(&summary, sink.findings()) {
        summary.verdict = v;
    }
    sink.finish(&summary)?;
    for p in &summary.printed {
        print!("{p}");
    }
    if !summary.printed.is_empty() {
        println!();
    }
    print_summary(&summary, sink.findings(), &out);
    report(&summary, sink.findings());
    if opts.replay {
        println!();
        let r = crate::replay::ReplayOptions {
            coverage: opts.coverage,
            coverage_html: None,
        };
        crate::replay::replay(&out, &r)?;
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
    Ok(if summary.stats.findings > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn print_summary(s: &Summary, findings: &[Finding], out: &std::path::Path) {
    let st = &s.stats;
    let pct = |a: f64, b: f64| if b > 0.0 { 100.0 * a / b } else { 0.0 };
    println!(
        "paths: {} completed, {} partial, {} infeasible",
        st.paths_completed, st.paths_partial, st.paths_infeasible
    );
    println!("tests: {}  findings: {}", st.tests, st.findings);
    println!(
        "branch coverage (LLVM IR, your code): {}/{} ({:.1}%)",
        st.branches_covered,
        st.branches_total,
        pct(st.branches_covered as f64, st.branches_total as f64)
    );
    println!(
        "instructions: {}  solver: {} queries, {:.2} s of {:.2} s ({:.0}%)",
        st.instructions,
        st.queries,
        st.solver_seconds,
        st.seconds,
        pct(st.solver_seconds, st.seconds)
    );
    for f in findings {
        println!(
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
            println!("      {op}({}){result}", f.operands.join(", "));
        }
    }
    let verdict = match &s.verdict {
        Verdict::BugFound => match &s.incomplete {
            Some(why) => format!("bug found (exploration incomplete: {why}; other bugs may exist)"),
            None => "bug found (every path explored)".to_string(),
        },
        Verdict::Verified => "verified (every path explored exactly, no finding)".to_string(),
        Verdict::Incomplete(why) => format!("incomplete ({why})"),
        Verdict::Feasible(what) => format!("feasible ({what})"),
        Verdict::Infeasible(why) => format!("infeasible ({why})"),
        Verdict::Unknown(why) => format!("unknown ({why})"),
    };
    println!("verdict: {verdict}");
    if let Some(v) = &s.sv_comp {
        println!("sv-comp: {v}");
    }
    println!("output: {}", out.display());
}

/// `DIR/run.json`: what `fpsym replay` needs to rebuild the program natively
/// (sources, flags, and for `--function` runs the function's C prototype).
fn write_run_record(
    opts: &RunOptions,
    engine: &Config,
    out: &std::path::Path,
    program: &fpsym_frontend::Program,
) -> anyhow::Result<()> {
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
    let record = RunRecord {
        files: opts.files.iter().map(abs).collect(),
        include: opts.compile.include_dirs.iter().map(abs).collect(),
        defines: opts.compile.defines.clone(),
        cflags: opts.compile.cflags.clone(),
        env: opts.engine.env.iter().cloned().collect(),
        entry,
        property: (property == Property::UnreachCall).then_some(property),
    };
    fpsym_engine::report::write_json(&out.join(fpsym_engine::report::RUN_RECORD), &record)?;
    Ok(())
}
