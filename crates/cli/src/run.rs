//! `fpsym run`: symbolic execution of a C program.

use crate::args::RunArgs;
use crate::solver_opts::{seconds, solver_config};
use crate::Failure;
use fpsym_engine::report::{DirSink, Event, Finding, ReportSink, Test};
use fpsym_engine::{Config, Entry, Summary, Verdict};
use fpsym_frontend::{CompileOptions, FrontendError};
use fpsym_solver::SolverConfig;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Validated options of `fpsym run`.
#[derive(Debug)]
pub struct RunOptions {
    files: Vec<PathBuf>,
    compile: CompileOptions,
    engine: Config,
    solver: SolverConfig,
    output: Option<PathBuf>,
    replay: bool,
    coverage: bool,
}

/// Parses `x=[a,b]`.
fn parse_range(s: &str) -> Result<(String, f64, f64), Failure> {
    let bad = || Failure::Input(format!("--range {s}: expected PARAM=[LO,HI], e.g. x=[-1,1]"));
    let (name, rest) = s.split_once('=').ok_or_else(bad)?;
    let inner = rest
        .trim()
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .ok_or_else(bad)?;
    let (lo, hi) = inner.split_once(',').ok_or_else(bad)?;
    let lo: f64 = lo.trim().parse().map_err(|_| bad())?;
    let hi: f64 = hi.trim().parse().map_err(|_| bad())?;
    if !(lo <= hi) {
        return Err(Failure::Input(format!("--range {s}: empty range")));
    }
    Ok((name.trim().to_string(), lo, hi))
}

impl RunOptions {
    /// Validates raw flags (no filesystem access).
    pub fn from_args(a: RunArgs) -> Result<RunOptions, Failure> {
        let mut engine = Config::default();
        if let Some(f) = &a.function {
            engine.entry = Entry::Function {
                name: f.clone(),
                ranges: a.ranges.iter().map(|r| parse_range(r)).collect::<Result<_, _>>()?,
                array_len: a.array_len,
            };
        } else if !a.ranges.is_empty() || a.array_len.is_some() {
            return Err(Failure::Input("--range and --array-len apply with --function".into()));
        }
        fpsym_engine::searcher::from_spec(&a.search, 1).map_err(|e| Failure::Input(format!("--search: {e}")))?;
        engine.search = a.search.clone();
        engine.max_time = seconds("--max-time", a.max_time)?;
        if let Some(m) = a.max_memory {
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
            if !matches!(ext, "c" | "bc" | "ll") {
                return Err(Failure::Input(format!(
                    "{}: expected a C source (.c) or LLVM bitcode (.bc, .ll)",
                    f.display()
                )));
            }
        }
        Ok(RunOptions {
            files: a.files,
            compile,
            engine,
            solver: solver_config(&a.solver)?,
            output: a.output,
            replay: a.replay,
            coverage: a.coverage,
        })
    }
}

/// A fresh `fpsym-out-N` in the current directory.
fn fresh_output() -> std::io::Result<PathBuf> {
    for n in 0.. {
        let p = PathBuf::from(format!("fpsym-out-{n}"));
        match std::fs::create_dir(&p) {
            Ok(()) => return Ok(p),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    unreachable!()
}

/// Counts what goes through to the directory sink, for the summary.
struct Tee {
    dir: DirSink,
    findings: Vec<Finding>,
}

impl ReportSink for Tee {
    fn test(&mut self, t: &Test) -> std::io::Result<()> {
        self.dir.test(t)
    }
    fn finding(&mut self, f: &Finding) -> std::io::Result<()> {
        self.findings.push(f.clone());
        self.dir.finding(f)
    }
    fn event(&mut self, e: &Event) -> std::io::Result<()> {
        self.dir.event(e)
    }
}

/// Runs the program; exit 1 when there are findings.
pub fn run(opts: &RunOptions) -> anyhow::Result<ExitCode> {
    for f in &opts.files {
        if !f.exists() {
            return Err(Failure::Input(format!("{}: no such file", f.display())).into());
        }
    }
    let out = match &opts.output {
        Some(d) => {
            std::fs::create_dir_all(d).map_err(|e| Failure::Input(format!("{}: cannot create: {e}", d.display())))?;
            d.clone()
        }
        None => fresh_output().map_err(|e| Failure::Input(format!("cannot create an output directory: {e}")))?,
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
    write_run_record(opts, &out, &program)?;
    let user_files: Vec<String> = opts
        .files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "c"))
        .filter_map(|f| f.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    let is_user = |f: &llvm_ir::Function| {
        f.debugloc
            .as_ref()
            .is_some_and(|d| user_files.iter().any(|u| d.filename.ends_with(u.as_str())))
    };
    let mut solver = fpsym_solver::build(&opts.solver);
    let interrupt = Arc::new(AtomicBool::new(false));
    {
        let flag = interrupt.clone();
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    }
    let mut sink = Tee {
        dir: DirSink::create(&out)?,
        findings: Vec::new(),
    };
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
    let summary = fpsym_engine::run(
        &program,
        solver.as_mut(),
        &opts.engine,
        &mut sink,
        interrupt,
        is_user,
        &mut progress,
    )
    .map_err(|e| match e {
        fpsym_engine::EngineError::Entry(m) => anyhow::Error::from(Failure::Input(m)),
        e => anyhow::Error::from(Failure::Internal(e.to_string())),
    })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let mut stats = serde_json::to_value(&summary)?;
    if let serde_json::Value::Object(m) = &mut stats {
        let solver_stats: serde_json::Map<String, serde_json::Value> = solver
            .stats()
            .into_iter()
            .map(|(k, v)| {
                (
                    k,
                    serde_json::Number::from_f64(v)
                        .map(Into::into)
                        .unwrap_or(serde_json::Value::Null),
                )
            })
            .collect();
        m.insert("solver".into(), solver_stats.into());
    }
    std::fs::write(out.join("stats.json"), serde_json::to_string_pretty(&stats)? + "\n")?;
    for p in &summary.printed {
        print!("{p}");
    }
    if !summary.printed.is_empty() {
        println!();
    }
    print_summary(&summary, &sink.findings, &out);
    if opts.replay {
        println!();
        let r = crate::replay::ReplayOptions {
            coverage: opts.coverage,
            coverage_html: None,
        };
        crate::replay::replay(&out, &r)?;
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
    }
    let verdict = match &s.verdict {
        Verdict::BugFound => match &s.incomplete {
            Some(why) => format!("bug found (exploration incomplete: {why}; other bugs may exist)"),
            None => "bug found (every path explored)".to_string(),
        },
        Verdict::Verified => "verified (every path explored exactly, no finding)".to_string(),
        Verdict::Incomplete(why) => format!("incomplete ({why})"),
    };
    println!("verdict: {verdict}");
    println!("output: {}", out.display());
}

/// The C type of an IR type, for the replay driver's prototype (None:
/// not expressible simply).
fn c_type(t: &llvm_ir::Type) -> Option<String> {
    use llvm_ir::types::FPType;
    use llvm_ir::Type;
    Some(match t {
        Type::VoidType => "void".into(),
        Type::IntegerType { bits: 1 } => "_Bool".into(),
        Type::IntegerType { bits: 8 } => "signed char".into(),
        Type::IntegerType { bits: 16 } => "short".into(),
        Type::IntegerType { bits: 32 } => "int".into(),
        Type::IntegerType { bits: 64 } => "long long".into(),
        Type::FPType(FPType::Single) => "float".into(),
        Type::FPType(FPType::Double) => "double".into(),
        Type::FPType(FPType::X86_FP80) => "long double".into(),
        Type::FPType(FPType::FP128) => "__float128".into(),
        Type::PointerType { .. } => "void *".into(),
        _ => return None,
    })
}

/// `DIR/run.json`: what `fpsym replay` needs to rebuild the program natively
/// (sources, flags, and for `--function` runs the function's C prototype).
fn write_run_record(opts: &RunOptions, out: &std::path::Path, program: &fpsym_frontend::Program) -> anyhow::Result<()> {
    let abs = |p: &PathBuf| {
        std::fs::canonicalize(p)
            .unwrap_or_else(|_| p.clone())
            .display()
            .to_string()
    };
    let entry = match &opts.engine.entry {
        Entry::Main => serde_json::json!({"main": true}),
        Entry::Function { name, array_len, .. } => {
            let f = program.module.functions.iter().find(|f| &f.name == name);
            let params: Option<Vec<String>> = f
                .map(|f| f.parameters.iter().map(|p| c_type(&p.ty)).collect::<Option<_>>())
                .flatten();
            let ret = f.and_then(|f| c_type(&f.return_type));
            serde_json::json!({"function": name, "array_len": array_len.unwrap_or(1), "params": params, "ret": ret})
        }
    };
    let record = serde_json::json!({
        "files": opts.files.iter().map(abs).collect::<Vec<_>>(),
        "include": opts.compile.include_dirs.iter().map(abs).collect::<Vec<_>>(),
        "defines": opts.compile.defines,
        "cflags": opts.compile.cflags,
        "env": opts.engine.env.iter().map(|(k, v)| (k.clone(), serde_json::Value::from(v.as_str()))).collect::<serde_json::Map<String, serde_json::Value>>(),
        "entry": entry,
    });
    std::fs::write(out.join("run.json"), serde_json::to_string_pretty(&record)? + "\n")?;
    Ok(())
}
