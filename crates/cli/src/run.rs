//! `fpsym run`: symbolic execution of a C program.

use crate::args::RunArgs;
use crate::solver_opts::{seconds, solver_config};
use crate::Failure;
use fpsym_engine::report::{DirSink, Event, Finding, ReportSink, Test};
use fpsym_engine::{Config, Entry, Property, Summary, Verdict};
use fpsym_frontend::{CompileOptions, FrontendError};
use fpsym_solver::SolverConfig;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
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
    force: bool,
    property: PropertySpec,
    replay: bool,
    coverage: bool,
}

/// `--property` as given: a property by name, or an SV-COMP `.prp` file
/// read when the run starts.
#[derive(Debug)]
enum PropertySpec {
    /// A property by name (or none: every bug is a finding).
    Named(Property),
    /// The path of a `.prp` file.
    File(PathBuf),
}

/// The text of SV-COMP's unreach-call property files, without whitespace.
const UNREACH_CALL_PRP: [&str; 2] = [
    "CHECK(init(main()),LTL(G!call(reach_error())))",
    "CHECK(init(main()),LTL(G!call(__VERIFIER_error())))",
];

/// The property an SV-COMP `.prp` file states, if fpsym checks it.
fn prp_property(text: &str) -> Option<Property> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    UNREACH_CALL_PRP
        .contains(&compact.as_str())
        .then_some(Property::UnreachCall)
}

/// Reads a `.prp` file; a property other than unreach-call is an input error naming it.
fn read_prp(path: &Path) -> Result<Property, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| Failure::Input(format!("{}: {e}", path.display())))?;
    prp_property(&text).ok_or_else(|| {
        Failure::Input(format!(
            "{}: property `{}` is not supported; fpsym checks unreach-call, \
             `CHECK( init(main()), LTL(G ! call(reach_error())) )`",
            path.display(),
            text.trim()
        ))
    })
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

/// Entries of a directory that show an earlier `fpsym run` wrote there.
const RUN_MARKERS: [&str; 4] = ["run.json", "stats.json", "tests", "findings"];

/// Everything a run (and its replay) writes into its directory: what
/// `--force` may remove.
const RUN_ENTRIES: [&str; 8] = [
    "run.json",
    "stats.json",
    "tests",
    "findings",
    "events.jsonl",
    "build",
    "replay",
    "replay.json",
];

/// Makes `dir` ready for a run: created if missing; if it is not empty
/// (an earlier run, or anything else), refused unless `force`, which
/// empties it. `--force` only removes an earlier run's results: a
/// directory holding anything else (a header, a property file, a script,
/// an input) or the current directory is never emptied.
fn prepare_output(dir: &Path, force: bool, inputs: &[PathBuf]) -> Result<(), Failure> {
    let shown = dir.display();
    if dir.exists() && !dir.is_dir() {
        return Err(Failure::Input(format!("-o {shown}: exists and is not a directory")));
    }
    let entries: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()
            .map_err(|e| Failure::Input(format!("-o {shown}: {e}")))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(Failure::Input(format!("-o {shown}: {e}"))),
    };
    if !entries.is_empty() {
        let earlier = RUN_MARKERS.iter().any(|m| dir.join(m).exists());
        let what = if earlier {
            "holds the results of an earlier run"
        } else {
            "is not empty"
        };
        if !force {
            let how = if earlier {
                format!("write to another directory (-o NEW_DIR), or add --force to empty {shown} first")
            } else {
                "write to another directory (-o NEW_DIR); --force only removes an earlier run's results".to_string()
            };
            return Err(Failure::Input(format!(
                "-o {shown} {what}; results of two runs are never mixed: {how}"
            )));
        }
        let canon = std::fs::canonicalize(dir).map_err(|e| Failure::Input(format!("-o {shown}: {e}")))?;
        let cwd = std::env::current_dir().ok().and_then(|c| std::fs::canonicalize(c).ok());
        let holds_input = inputs
            .iter()
            .filter_map(|f| std::fs::canonicalize(f).ok())
            .chain(cwd)
            .any(|p| p.starts_with(&canon));
        if holds_input {
            return Err(Failure::Input(format!(
                "-o {shown}: --force would empty a directory that holds an input or the current \
                 directory; choose another output directory"
            )));
        }
        let foreign: Vec<String> = entries
            .iter()
            .filter_map(|e| e.file_name().map(|n| n.to_string_lossy().into_owned()))
            .filter(|n| !RUN_ENTRIES.contains(&n.as_str()))
            .collect();
        if !foreign.is_empty() {
            return Err(Failure::Input(format!(
                "-o {shown}: --force only removes an earlier run's results, and {shown} also holds {}; \
                 choose another output directory",
                foreign.join(", ")
            )));
        }
        for e in entries {
            let removed = if e.is_dir() && !e.is_symlink() {
                std::fs::remove_dir_all(&e)
            } else {
                std::fs::remove_file(&e)
            };
            removed.map_err(|err| Failure::Input(format!("--force: cannot remove {}: {err}", e.display())))?;
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| Failure::Input(format!("{shown}: cannot create: {e}")))
}

/// The names your source files go by in debug locations: the basename of
/// each `.c` and `.i` input and, for a `.i` file, the name of the source
/// it was preprocessed from (its first line marker, `# 1 "task.c"`).
pub(crate) fn source_names(files: &[PathBuf]) -> Vec<String> {
    let mut names = Vec::new();
    for f in files {
        let ext = f.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !matches!(ext, "c" | "i") {
            continue;
        }
        if let Some(n) = f.file_name() {
            names.push(n.to_string_lossy().into_owned());
        }
        if ext == "i" {
            if let Some(n) = line_marker_source(f) {
                if !names.contains(&n) {
                    names.push(n);
                }
            }
        }
    }
    names
}

/// The basename of the file the first line marker of a preprocessed file
/// names (`# 1 "dir/task.c"` or `#line 1 "task.c"`), skipping `<built-in>`.
fn line_marker_source(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines().take(200).find_map(|l| {
        let rest = l.strip_prefix('#')?.trim_start();
        let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
        let (num, name) = rest.split_once(char::is_whitespace)?;
        num.parse::<u64>().ok()?;
        let name = name.trim_start().strip_prefix('"')?.split('"').next()?;
        if name.starts_with('<') || name.is_empty() {
            return None;
        }
        Path::new(name).file_name().map(|n| n.to_string_lossy().into_owned())
    })
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
    let mut engine = opts.engine.clone();
    engine.property = match &opts.property {
        PropertySpec::Named(p) => *p,
        PropertySpec::File(f) => read_prp(f)?,
    };
    let out = match &opts.output {
        Some(d) => {
            prepare_output(d, opts.force, &opts.files)?;
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
    write_run_record(opts, engine.property, &out, &program)?;
    let user_files = source_names(&opts.files);
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
        &engine,
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
        if engine.property == Property::UnreachCall {
            m.insert("property".into(), "unreach-call".into());
            m.insert("sv_comp".into(), sv_comp_verdict(&summary).into());
        }
    }
    std::fs::write(out.join("stats.json"), serde_json::to_string_pretty(&stats)? + "\n")?;
    for p in &summary.printed {
        print!("{p}");
    }
    if !summary.printed.is_empty() {
        println!();
    }
    let sv_comp = (engine.property == Property::UnreachCall).then(|| sv_comp_verdict(&summary));
    print_summary(&summary, &sink.findings, sv_comp, &out);
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

/// The SV-COMP verdict of an unreach-call run: `false(unreach-call)` when
/// a reach_error call was found, `true` only when the run verified the
/// program (every path explored exactly), `unknown` otherwise.
fn sv_comp_verdict(s: &Summary) -> &'static str {
    if s.stats.findings > 0 {
        "false(unreach-call)"
    } else if s.verdict == Verdict::Verified {
        "true"
    } else {
        "unknown"
    }
}

fn print_summary(s: &Summary, findings: &[Finding], sv_comp: Option<&str>, out: &std::path::Path) {
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
    if let Some(v) = sv_comp {
        println!("sv-comp: {v}");
    }
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

/// The C type the replay driver declares a parameter with: one passed
/// the same way by the x86-64 ABI. A `byval` struct becomes a struct of
/// that many bytes and that alignment (passed in memory alike: over 16
/// bytes, or 16 bytes holding a `long double`); a small vector (clang's
/// `<2 x float>` for a struct of two floats) a GNU vector type.
fn c_param_type(p: &llvm_ir::function::Parameter, layout: &fpsym_engine::layout::Layout) -> Option<String> {
    use llvm_ir::function::ParameterAttribute;
    use llvm_ir::Type;
    if let Some(t) = p.attributes.iter().find_map(|a| match a {
        ParameterAttribute::ByVal(t) => Some(t),
        _ => None,
    }) {
        let size = layout.alloc_size(t);
        let align = layout.align(t).max(8);
        return match size {
            s if s > 16 => Some(format!(
                "struct {{ unsigned char b[{s}]; }} __attribute__((aligned({align})))"
            )),
            16 => Some("struct { long double x; }".to_string()),
            _ => None,
        };
    }
    match layout.resolve(&p.ty)? {
        Type::VectorType {
            element_type,
            num_elements,
            scalable: false,
        } => {
            let e = c_type(element_type)?;
            let bytes = layout.store_size(element_type) * *num_elements as u64;
            (bytes.is_power_of_two() && bytes <= 16).then(|| format!("{e} __attribute__((vector_size({bytes})))"))
        }
        t => c_type(t),
    }
}

/// The C type of a function's result for the replay driver's prototype:
/// as `c_type`, with 8- and 16-bit results unsigned when the function
/// zero-extends them (`zeroext`), as C's `unsigned char`/`short` do.
fn c_return_type(f: &llvm_ir::Function) -> Option<String> {
    use llvm_ir::function::ParameterAttribute;
    let zext = f
        .return_attributes
        .iter()
        .any(|a| matches!(a, ParameterAttribute::ZeroExt));
    match f.return_type.as_ref() {
        llvm_ir::Type::IntegerType { bits: 8 } if zext => Some("unsigned char".into()),
        llvm_ir::Type::IntegerType { bits: 16 } if zext => Some("unsigned short".into()),
        t => c_type(t),
    }
}

/// `DIR/run.json`: what `fpsym replay` needs to rebuild the program natively
/// (sources, flags, and for `--function` runs the function's C prototype).
fn write_run_record(
    opts: &RunOptions,
    property: Property,
    out: &std::path::Path,
    program: &fpsym_frontend::Program,
) -> anyhow::Result<()> {
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
            let layout = fpsym_engine::layout::Layout::new(&program.module.types);
            let params: Option<Vec<String>> = f
                .map(|f| {
                    f.parameters
                        .iter()
                        .map(|p| c_param_type(p, &layout))
                        .collect::<Option<_>>()
                })
                .flatten();
            let ret = f.and_then(c_return_type);
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
        "property": match property {
            Property::UnreachCall => Some("unreach-call"),
            Property::AllFindings => None,
        },
    });
    std::fs::write(out.join("run.json"), serde_json::to_string_pretty(&record)? + "\n")?;
    Ok(())
}
