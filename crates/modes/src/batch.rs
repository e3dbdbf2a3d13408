//! `fpsym batch`: many functions of one library, each analysed by a mode
//! in its own child process (its time and memory limits, a crash or hang
//! recorded and the batch going on), `--jobs` at a time, `--shard I/N` of
//! them; and `fpsym merge`: the shards' directories made one.
//!
//! The library is compiled once into `DIR/build`; each child is this
//! binary, `fpsym MODE FILES... --function F -o DIR/functions/FILE/F
//! --prebuilt DIR/build MODE_OPTIONS`, which loads that build instead of
//! compiling. What a child did is read back from its directory (the same
//! records every run writes) and appended to `DIR/results.jsonl` as it
//! ends, so an interrupted batch keeps what it finished.

use crate::run::RunOptions;
use crate::Failure;
use fpsym_engine::report::{self as r, BatchRecord, JobFinding, JobResult, JobStatus};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A line on stderr, likewise.
macro_rules! note {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

/// One function to analyse.
#[derive(Clone, Debug)]
struct Job {
    /// The C file defining it, as given.
    file: String,
    function: String,
    /// The manifest's extra mode options.
    args: Vec<String>,
    /// The manifest's time limit.
    max_time: Option<f64>,
    /// Its output directory, relative to the batch's.
    dir: String,
    /// Why it is not run (recorded as skipped), if it is not.
    skip: Option<String>,
}

/// The batch's settings every job shares.
struct Plan {
    out: PathBuf,
    exe: PathBuf,
    wrapper: Vec<String>,
    mode: &'static str,
    files: Vec<PathBuf>,
    mode_args: Vec<String>,
    max_time: f64,
    max_memory: Option<u64>,
    grace: f64,
    /// The session's stop flag (Ctrl-C).
    interrupt: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

/// `--shard I/N`.
fn parse_shard(s: &str) -> Result<(u32, u32), Failure> {
    let bad = || Failure::Input(format!("--shard {s}: expected I/N with 0 <= I < N (e.g. 0/4)"));
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (u32, u32) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The input (as given) whose C source defines `f`: by its debug
/// location's full path, else (a `.i` file names the source it was
/// preprocessed from) by its file name when one input alone has it.
fn defining_file(f: &llvm_ir::Function, files: &[PathBuf]) -> Option<String> {
    let loc = f.debugloc.as_ref()?;
    let path = fpsym_frontend::Loc::from_debugloc(loc).path();
    let canonical = std::fs::canonicalize(&path).ok();
    let c_inputs = files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "c" || e == "i"));
    if let Some(p) = c_inputs
        .clone()
        .find(|p| canonical.is_some() && std::fs::canonicalize(p).ok() == canonical)
    {
        return Some(p.display().to_string());
    }
    let mut named = c_inputs
        .filter(|p| fpsym_frontend::UserCode::from_inputs(std::slice::from_ref(*p)).is_user_file(&loc.filename));
    let first = named.next()?;
    named.next().is_none().then(|| first.display().to_string())
}

/// A directory name for `s` (path separators and dots replaced).
fn dir_name(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// `functions/STEM/FUNCTION` for every job, the stem made unique when two
/// inputs share one.
fn assign_dirs(jobs: &mut [Job], files: &[PathBuf]) {
    let mut stems: BTreeMap<String, String> = BTreeMap::new();
    let mut used: BTreeSet<String> = BTreeSet::new();
    for f in files {
        let given = f.display().to_string();
        let stem = dir_name(
            &f.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
        );
        let mut name = stem.clone();
        let mut k = 2;
        while used.contains(&name) {
            name = format!("{stem}-{k}");
            k += 1;
        }
        used.insert(name.clone());
        stems.insert(given, name);
    }
    for j in jobs {
        let stem = stems.get(&j.file).cloned().unwrap_or_else(|| dir_name(&j.file));
        j.dir = format!("functions/{stem}/{}", dir_name(&j.function));
    }
}

/// `--array-len` among batch's mode options: the length for every
/// function (`--array-len N`) and lengths for some (`--array-len
/// NAME=N`, repeatable), taken out of the options each function's run
/// gets; a job's `--array-len` is then the one of its own options (a
/// manifest's `"array_len"` or `"args"`), else its name's, else every
/// function's.
#[derive(Debug, Default, PartialEq)]
struct ArrayLens {
    all: Option<u64>,
    per: BTreeMap<String, u64>,
}

/// Splits `--array-len` out of `args` (as `--array-len X` or
/// `--array-len=X`): the other options, and the lengths. `named` says
/// whether `NAME=N` may be given (batch's options, not a job's own).
fn split_array_len(args: &[String], named: bool, context: &str) -> Result<(Vec<String>, ArrayLens), Failure> {
    let mut rest = Vec::new();
    let mut lens = ArrayLens::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let value = if a == "--array-len" {
            it.next().cloned().ok_or_else(|| {
                Failure::Input(format!(
                    "{context}: --array-len: expected N, or NAME=N for one function"
                ))
            })?
        } else if let Some(v) = a.strip_prefix("--array-len=") {
            v.to_string()
        } else {
            rest.push(a.clone());
            continue;
        };
        let bad = |why: &str| Failure::Input(format!("{context}: --array-len {value}: {why}"));
        let number = |n: &str| {
            n.trim()
                .parse::<u64>()
                .map_err(|_| bad("expected a number of elements"))
        };
        match value.split_once('=') {
            Some(_) if !named => return Err(bad("a job's own --array-len takes a number (it is the job's)")),
            Some((name, n)) if !name.trim().is_empty() => {
                if lens.per.insert(name.trim().to_string(), number(n)?).is_some() {
                    return Err(bad("given twice for this function"));
                }
            }
            Some(_) => return Err(bad("expected NAME=N")),
            None => {
                if lens.all.replace(number(&value)?).is_some() {
                    return Err(bad(
                        "a length for every function is given twice (NAME=N sets one function's)",
                    ));
                }
            }
        }
    }
    Ok((rest, lens))
}

/// The jobs of the whole batch (before sharding), in order, and for
/// `--all-functions` the functions of the C files left out, with why.
fn select(
    raw: &Options,
    program: &fpsym_frontend::Program,
    lens: &ArrayLens,
) -> anyhow::Result<(Vec<Job>, Vec<String>)> {
    let user = fpsym_frontend::UserCode::from_inputs(&raw.files);
    let job = |function: &str, file: Option<String>, args: Vec<String>, max_time: Option<f64>, what: &str| {
        // The job's --array-len: its own, else its name's, else every
        // function's; passed as one option.
        let (mut args, own) = split_array_len(&args, false, what)?;
        if let Some(n) = own.all.or_else(|| lens.per.get(function).copied()).or(lens.all) {
            args.extend(["--array-len".to_string(), n.to_string()]);
        }
        let f = program
            .module
            .functions
            .iter()
            .find(|f| f.name == function)
            .filter(|f| !f.basic_blocks.is_empty())
            .ok_or_else(|| Failure::Input(format!("{what}: no function `{function}` with a body in the library")))?;
        let defined = defining_file(f, &raw.files);
        let file = match file {
            Some(given) => {
                if !raw.files.iter().any(|p| p.display().to_string() == given) {
                    return Err(Failure::Input(format!(
                        "{what}: \"file\": {given} is not one of the files given"
                    )));
                }
                if defined.as_ref().is_some_and(|d| *d != given) {
                    return Err(Failure::Input(format!(
                        "{what}: `{function}` is defined in {}, not in {given}",
                        defined.unwrap_or_default()
                    )));
                }
                given
            }
            None => defined.ok_or_else(|| {
                Failure::Input(format!(
                    "{what}: `{function}` is not defined in one of the C files given (bitcode inputs are linked, not analysed; \
                     two C files of one name cannot be told apart)"
                ))
            })?,
        };
        // A function the harness cannot call meaningfully is recorded as
        // skipped, with why, and not run.
        let skip = crate::run::why_not_analysable(f)
            .filter(|w| !w.starts_with("static"))
            .map(|w| format!("not analysed: {w}"));
        Ok(Job {
            file,
            function: function.to_string(),
            args,
            max_time,
            dir: String::new(),
            skip,
        })
    };
    let mut jobs = Vec::new();
    let mut left_out = Vec::new();
    if raw.all_functions {
        for name in crate::run::analysable_functions(program, &user) {
            jobs.push(job(&name, None, Vec::new(), None, "--all-functions")?);
        }
        if jobs.is_empty() {
            return Err(
                Failure::Input("--all-functions: no external function with a body in the C files".into()).into(),
            );
        }
        for f in program.module.functions.iter().filter(|f| user.is_user_function(f)) {
            if let Some(why) = crate::run::why_not_analysable(f) {
                if why != "no body" && !program.is_runtime_function(&f.name) {
                    left_out.push(format!("{}: {why}", f.name));
                }
            }
        }
    } else if !raw.functions.is_empty() {
        for name in raw.functions.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
            jobs.push(job(name, None, Vec::new(), None, &format!("--functions {name}"))?);
        }
        if jobs.is_empty() {
            return Err(Failure::Input("--functions: no function named".into()).into());
        }
    } else if let Some(m) = &raw.manifest {
        let text =
            std::fs::read_to_string(m).map_err(|e| Failure::Input(format!("--manifest {}: {e}", m.display())))?;
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Line {
            function: String,
            file: Option<String>,
            #[serde(default)]
            args: Vec<String>,
            max_time: Option<f64>,
            array_len: Option<u64>,
        }
        let mut seen = BTreeMap::new();
        for (n, l) in text.lines().enumerate() {
            if l.trim().is_empty() {
                continue;
            }
            let what = format!("{}:{}", m.display(), n + 1);
            let line: Line = serde_json::from_str(l).map_err(|e| {
                Failure::Input(format!(
                    "{what}: expected an object like {{\"function\": \"f\", \"args\": [...]}}: {e}"
                ))
            })?;
            if let Some(t) = line.max_time {
                crate::validate::seconds(&format!("{what}: max_time"), Some(t))?;
            }
            let mut args = line.args;
            if let Some(n) = line.array_len {
                if args.iter().any(|a| a == "--array-len" || a.starts_with("--array-len=")) {
                    return Err(
                        Failure::Input(format!("{what}: \"array_len\" and --array-len in \"args\": give one")).into(),
                    );
                }
                args.extend(["--array-len".to_string(), n.to_string()]);
            }
            let j = job(&line.function, line.file, args, line.max_time, &what)?;
            if let Some(first) = seen.insert((j.file.clone(), j.function.clone()), n + 1) {
                return Err(Failure::Input(format!(
                    "{what}: {} in {} is listed twice (first on line {first})",
                    j.function, j.file
                ))
                .into());
            }
            jobs.push(j);
        }
        if jobs.is_empty() {
            return Err(Failure::Input(format!("--manifest {}: no job in it", m.display())).into());
        }
    }
    if let Some(name) = lens.per.keys().find(|n| !jobs.iter().any(|j| j.function == **n)) {
        return Err(Failure::Input(format!(
            "--array-len {name}={}: `{name}` is not one of the functions the batch analyses",
            lens.per[name]
        ))
        .into());
    }
    let mut seen = BTreeSet::new();
    jobs.retain(|j| seen.insert((j.file.clone(), j.function.clone())));
    assign_dirs(&mut jobs, &raw.files);
    Ok((jobs, left_out))
}

/// What a batch directory may hold (what `--force` removes).
const BATCH_FILES: [&str; 8] = [
    r::BATCH_RECORD,
    r::RESULTS,
    "build",
    "functions",
    "logs",
    r::SARIF,
    r::JUNIT,
    r::HTML,
];

/// Makes `out` ready: new, empty, an earlier batch's with `--force`
/// (emptied) or with `--resume` (kept; a new or empty directory starts
/// the batch).
fn prepare_dir(out: &Path, force: bool, resume: bool) -> anyhow::Result<()> {
    if out.exists() && !out.is_dir() {
        return Err(Failure::Input(format!("-o {}: exists and is not a directory", out.display())).into());
    }
    std::fs::create_dir_all(out).map_err(|e| Failure::Input(format!("-o {}: {e}", out.display())))?;
    let entries: Vec<String> = std::fs::read_dir(out)?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    if entries.is_empty() {
        // `--resume` of nothing starts the batch: one command for a
        // cluster task that may be requeued.
        return Ok(());
    }
    let foreign: Vec<&String> = entries
        .iter()
        .filter(|e| !BATCH_FILES.contains(&e.as_str()) && !e.ends_with(".tmp"))
        .collect();
    if !foreign.is_empty() {
        return Err(Failure::Input(format!(
            "-o {}: not empty and not a batch's directory (it holds {}); choose another output directory",
            out.display(),
            foreign
                .iter()
                .take(5)
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .into());
    }
    // A batch that stopped before recording itself (an input error after
    // the build) left only its build: started again by either flag.
    let recorded = out.join(r::BATCH_RECORD).is_file();
    if resume && recorded {
        return Ok(());
    }
    if !force && !resume {
        return Err(Failure::Input(format!(
            "-o {0} holds an earlier batch: --resume continues it, --force empties {0} first, or write to another directory",
            out.display()
        ))
        .into());
    }
    for e in &entries {
        let p = out.join(e);
        if p.is_dir() && !p.is_symlink() {
            std::fs::remove_dir_all(&p)?;
        } else {
            std::fs::remove_file(&p)?;
        }
    }
    Ok(())
}

/// Parses a mode's command line for one function, `fpsym MODE FILES...
/// --function F ARGS` (mode, files, function, args, and the context an
/// error names), into the mode's `run` options as the mode would: the
/// caller's flag parser (the CLI's). An option batch owns is refused.
pub type ModeOptions = fn(&str, &[PathBuf], &str, &[String], &str) -> anyhow::Result<RunOptions>;

/// The options of `fpsym batch`: which functions, the mode and its
/// options, the limits of each function's process.
#[derive(Debug)]
pub struct Options {
    /// What the process lends the batch (Ctrl-C, the output registry).
    pub session: crate::Session,
    /// The library's files.
    pub files: Vec<PathBuf>,
    /// Every analysable function of the files.
    pub all_functions: bool,
    /// These functions.
    pub functions: Vec<String>,
    /// The functions (and their options) of a JSON-lines manifest.
    pub manifest: Option<PathBuf>,
    /// The mode run on each: `run`, `exceptions`, `error`, `path` or `critical`.
    pub mode: &'static str,
    /// Functions analysed at once.
    pub jobs: usize,
    /// `I/N`: this machine's share of the functions.
    pub shard: Option<String>,
    /// Each function's time in seconds.
    pub max_time_per_function: f64,
    /// Each function's memory in MiB.
    pub max_memory_per_function: Option<u64>,
    /// Seconds a function's process gets past its time before it is killed.
    pub grace: f64,
    /// Go on with an interrupted batch in `output`.
    pub resume: bool,
    /// Empty `output` of an earlier batch first.
    pub force: bool,
    /// The batch's directory.
    pub output: PathBuf,
    /// A command each function's process runs under (`taskset -c 0`, ...).
    pub wrapper: Option<String>,
    /// The mode's options, as on its command line.
    pub mode_args: Vec<String>,
    /// The `fpsym` binary each function's process runs.
    pub exe: PathBuf,
    /// How a mode's command line is read (the CLI's flag parser).
    pub mode_options: ModeOptions,
}

/// `fpsym batch`.
pub fn run(raw: Options) -> anyhow::Result<ExitCode> {
    let mode_options = raw.mode_options;
    for f in &raw.files {
        if !f.exists() {
            return Err(Failure::Input(format!("{}: no such file", f.display())).into());
        }
    }
    if raw.jobs == 0 {
        return Err(Failure::Input("--jobs: expected at least 1".into()).into());
    }
    let max_time = crate::validate::seconds("--max-time-per-function", Some(raw.max_time_per_function))?
        .map_or(60.0, |d| d.as_secs_f64());
    if !(raw.grace.is_finite() && (0.0..1e9).contains(&raw.grace)) {
        return Err(Failure::Input(format!("--grace: expected a number of seconds >= 0, got {}", raw.grace)).into());
    }
    if raw.max_memory_per_function == Some(0) {
        return Err(Failure::Input("--max-memory-per-function: expected a positive number of MiB".into()).into());
    }
    let shard = raw.shard.as_deref().map(parse_shard).transpose()?;
    let mode = raw.mode;
    let wrapper: Vec<String> = raw
        .wrapper
        .as_deref()
        .map(|w| w.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    if let Some(w) = &raw.wrapper {
        let Some(program) = wrapper.first() else {
            return Err(Failure::Input("--wrapper: empty command".into()).into());
        };
        if !crate::validate::runnable(program) {
            return Err(Failure::Input(format!(
                "--wrapper {w}: `{program}` is not an executable file nor on PATH"
            ))
            .into());
        }
    }
    // The mode's options, checked once with a placeholder function: the
    // compile options are the library's.
    // `--array-len` is batch's to give per function.
    let (mode_args, lens) = split_array_len(&raw.mode_args, true, "batch")?;
    let opts = mode_options(mode, &raw.files, "f", &mode_args, "batch")?;
    crate::validate::check_backends(opts.solver_config())?;
    let out = raw.output.clone();
    prepare_dir(&out, raw.force, raw.resume)?;
    let selection = if raw.all_functions {
        "--all-functions".to_string()
    } else if !raw.functions.is_empty() {
        format!("--functions {}", raw.functions.join(","))
    } else {
        format!(
            "--manifest {}",
            raw.manifest
                .as_ref()
                .map(|m| m.display().to_string())
                .unwrap_or_default()
        )
    };

    let record_of = |jobs: Vec<(String, String)>, left_out: Vec<String>| BatchRecord {
        version: env!("CARGO_PKG_VERSION").to_string(),
        mode: mode.to_string(),
        files: raw.files.iter().map(|f| f.display().to_string()).collect(),
        mode_args: raw.mode_args.clone(),
        selection: selection.clone(),
        shard,
        max_time_per_function: max_time,
        max_memory_per_function: raw.max_memory_per_function,
        jobs,
        left_out,
        missing: Vec::new(),
    };
    // --resume with other options is refused before the (long) build.
    let old: Option<BatchRecord> = if raw.resume && out.join(r::BATCH_RECORD).is_file() {
        let old: BatchRecord = r::read_json(&out.join(r::BATCH_RECORD))?;
        if let Some(diff) = differs_in(&old, &record_of(old.jobs.clone(), Vec::new()), true) {
            return Err(Failure::Input(format!(
                "--resume: {} was made with other options ({diff}); give the same, or --force to start over",
                out.display()
            ))
            .into());
        }
        Some(old)
    } else {
        None
    };
    note!("building the library into {}", out.join("build").display());
    let work = out.join("build");
    std::fs::create_dir_all(&work)?;
    let program = match fpsym_frontend::build(opts.files(), opts.compile_options(), &work) {
        Ok(p) => p,
        Err(fpsym_frontend::FrontendError::Clang { stderr, .. }) => {
            eprint!("{stderr}");
            return Err(Failure::Input("clang rejected the library (diagnostics above)".into()).into());
        }
        Err(e) => return Err(Failure::Input(e.to_string()).into()),
    };
    let (all_jobs, left_out) = select(&raw, &program, &lens)?;
    drop(program);
    if !left_out.is_empty() {
        note!(
            "left out by --all-functions ({}): {}",
            left_out.len(),
            left_out.join("; ")
        );
    }
    for j in &all_jobs {
        mode_options(
            mode,
            &raw.files,
            &j.function,
            &[mode_args.clone(), j.args.clone()].concat(),
            &format!("{}: {}", j.file, j.function),
        )?;
    }
    let record = record_of(
        all_jobs.iter().map(|j| (j.file.clone(), j.function.clone())).collect(),
        left_out,
    );
    let earlier = match &old {
        Some(old) => {
            if let Some(diff) = differs_in(old, &record, true) {
                return Err(Failure::Input(format!(
                    "--resume: {} was made with other options ({diff}); give the same, or --force to start over",
                    out.display()
                ))
                .into());
            }
            // A crashed function is analysed again.
            r::read_results(&out)?
                .into_iter()
                .filter(|r| r.status != JobStatus::Crashed)
                .collect()
        }
        None => Vec::new(),
    };
    r::write_json(&out.join(r::BATCH_RECORD), &record)?;
    raw.session.output(&out);
    let done: BTreeSet<(String, String)> = earlier.iter().map(JobResult::key).collect();
    let mine: Vec<Job> = all_jobs
        .into_iter()
        .filter(|j| shard.is_none_or(|(i, n)| r::shard_of(&j.file, &j.function, n) == i))
        .collect();
    let todo: VecDeque<Job> = mine
        .iter()
        .filter(|j| !done.contains(&(j.file.clone(), j.function.clone())))
        .cloned()
        .collect();
    let shard_text = shard.map_or(String::new(), |(i, n)| format!(" (shard {i}/{n})"));
    note!(
        "{} functions{shard_text}: {} to analyse{}, {} at a time, {max_time} s each",
        mine.len(),
        todo.len(),
        if done.is_empty() {
            String::new()
        } else {
            format!(" ({} done before)", mine.len() - todo.len())
        },
        raw.jobs.min(todo.len().max(1))
    );
    std::fs::create_dir_all(out.join("logs"))?;
    let plan = Plan {
        out: out.clone(),
        exe: raw.exe.clone(),
        wrapper,
        mode,
        files: raw.files.clone(),
        mode_args,
        max_time,
        max_memory: raw.max_memory_per_function,
        grace: raw.grace,
        interrupt: raw.session.interrupt(),
    };
    let total = todo.len();
    let queue = Mutex::new(todo);
    let results = Mutex::new(Vec::new());
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let started = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..raw.jobs.min(total.max(1)) {
            s.spawn(|| loop {
                if raw.session.interrupted() {
                    break;
                }
                let Some(job) = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front() else {
                    break;
                };
                let res = analyse(&plan, &job);
                if raw.session.interrupted() && res.why.as_deref() == Some(INTERRUPTED) {
                    // Not recorded: --resume analyses it again.
                    say!("{}: {}: interrupted", res.file, res.function);
                    continue;
                }
                let mut all = results.lock().unwrap_or_else(|e| e.into_inner());
                if let Err(e) = r::append_result(&out, &res) {
                    failure
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .get_or_insert(e.into());
                }
                all.push(res.clone());
                say!("[{}/{total}] {}", all.len(), line(&res));
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(Failure::Internal(format!("{}: {e:#}", out.join(r::RESULTS).display())).into());
    }
    let mut all = earlier;
    all.extend(results.into_inner().unwrap_or_else(|e| e.into_inner()));
    r::write_results(&out, &all)?;
    let left = mine.len()
        - mine
            .iter()
            .filter(|j| all.iter().any(|r| r.key() == (j.file.clone(), j.function.clone())))
            .count();
    if left > 0 {
        say!("interrupted: {left} functions not analysed (--resume continues)");
    }
    summarize(&all, started.elapsed().as_secs_f64(), &out);
    Ok(ExitCode::from(exit_code(&all, left > 0)))
}

/// What two batch records that should be one batch differ in, if they do
/// (the shard aside when `shard` is false).
fn differs_in(a: &BatchRecord, b: &BatchRecord, shard: bool) -> Option<String> {
    let checks: [(&str, bool); 7] = [
        ("mode", a.mode == b.mode),
        ("files", a.files == b.files),
        ("the mode's options", a.mode_args == b.mode_args),
        ("functions", a.selection == b.selection && a.jobs == b.jobs),
        (
            "--max-time-per-function",
            a.max_time_per_function == b.max_time_per_function,
        ),
        (
            "--max-memory-per-function",
            a.max_memory_per_function == b.max_memory_per_function,
        ),
        ("--shard", !shard || a.shard == b.shard),
    ];
    checks.iter().find(|(_, same)| !same).map(|(what, _)| what.to_string())
}

/// One result as a line for people.
fn line(r: &JobResult) -> String {
    let mut s = format!(
        "{}: {}  {}  {}  {} finding{}  {:.1} s",
        r.file,
        r.function,
        r.status.name(),
        r.verdict.as_deref().unwrap_or("-"),
        r.findings.len(),
        if r.findings.len() == 1 { "" } else { "s" },
        r.time
    );
    if let Some(e) = r.result.as_ref().and_then(|v| v.get("max_relative_error")) {
        s.push_str(&format!("  max relative error {e}"));
    }
    if let Some(w) = &r.why {
        s.push_str(&format!("  ({w})"));
    }
    s
}

/// The totals: by status, by verdict, findings by kind, time.
fn summarize(all: &[JobResult], wall: f64, out: &Path) {
    let t = r::Totals::of(all);
    let join = |m: Vec<String>| m.join(", ");
    say!("functions: {} in {}", all.len(), out.display());
    say!(
        "  status: {}",
        join(t.status.iter().map(|(k, n)| format!("{n} {k}")).collect())
    );
    say!(
        "  verdicts: {}",
        join(t.verdicts.iter().map(|(k, n)| format!("{n} {k}")).collect())
    );
    for (k, kt) in &t.kinds {
        let conf = if kt.replayed == 0 {
            "not replayed".to_string()
        } else {
            format!("{} of {} confirmed natively", kt.confirmed, kt.replayed)
        };
        say!("  {k}: {} ({conf})", kt.findings);
    }
    let mut times: Vec<f64> = all.iter().map(|r| r.time).collect();
    times.sort_by(f64::total_cmp);
    if let (Some(lo), Some(hi)) = (times.first(), times.last()) {
        let wall = if wall > 0.0 {
            format!("; wall {wall:.1}")
        } else {
            String::new()
        };
        say!(
            "  seconds per function: min {lo:.1}, median {:.1}, max {hi:.1}{wall}",
            times[times.len() / 2]
        );
    }
    say!(
        "  reports: {}, {}, {}",
        out.join(r::HTML).display(),
        out.join(r::SARIF).display(),
        out.join(r::JUNIT).display()
    );
}

/// 1 when something was found, 3 when a function crashed, 4 when
/// anything is not complete (a limit, a skipped function, functions not
/// analysed), 0 when every function's analysis proved its question.
fn exit_code(all: &[JobResult], unfinished: bool) -> u8 {
    if all.iter().any(|r| !r.findings.is_empty()) {
        1
    } else if all.iter().any(|r| r.status == JobStatus::Crashed) {
        3
    } else if unfinished
        || all.iter().any(|r| {
            r.status != JobStatus::Done || !matches!(r.verdict.as_deref(), Some("verified" | "proved" | "infeasible"))
        })
    {
        crate::INCOMPLETE
    } else {
        0
    }
}

/// The `why` of a function whose analysis was interrupted (Ctrl-C).
const INTERRUPTED: &str = "interrupted";

/// Why the batch killed a child.
#[derive(Clone, Copy, PartialEq)]
enum Killed {
    Time,
    Memory(u64),
}

/// Runs one function's child to its end and reads what it did.
fn analyse(plan: &Plan, job: &Job) -> JobResult {
    let dir = plan.out.join(&job.dir);
    let log_path = plan.out.join("logs").join(format!(
        "{}.log",
        job.dir.trim_start_matches("functions/").replace('/', ".")
    ));
    let json_path = log_path.with_extension("json");
    let max_time = job.max_time.unwrap_or(plan.max_time);
    let mut result = JobResult {
        file: job.file.clone(),
        function: job.function.clone(),
        status: JobStatus::Crashed,
        why: None,
        verdict: None,
        findings: Vec::new(),
        time: 0.0,
        dir: job.dir.clone(),
        exit_code: None,
        result: None,
        verdict_why: None,
    };
    if let Some(why) = &job.skip {
        result.status = JobStatus::Skipped;
        result.why = Some(why.clone());
        return result;
    }
    let started = Instant::now();
    let spawned = (|| -> std::io::Result<std::process::Child> {
        std::fs::create_dir_all(&dir)?;
        let log = std::fs::File::create(&log_path)?;
        let (program, pre) = match plan.wrapper.split_first() {
            Some((w, rest)) => (
                PathBuf::from(w),
                rest.iter()
                    .map(Into::into)
                    .chain([plan.exe.clone().into_os_string()])
                    .collect(),
            ),
            None => (plan.exe.clone(), Vec::<std::ffi::OsString>::new()),
        };
        let mut cmd = std::process::Command::new(program);
        cmd.args(pre).arg(plan.mode).args(&plan.files);
        cmd.args(["--function", &job.function])
            .arg("-o")
            .arg(&dir)
            .arg("--force");
        cmd.arg("--prebuilt").arg(plan.out.join("build"));
        cmd.args(["--max-time", &max_time.to_string()]);
        if let Some(m) = plan.max_memory {
            cmd.args(["--max-memory", &m.to_string()]);
        }
        cmd.args(&plan.mode_args).args(&job.args);
        cmd.stdin(std::process::Stdio::null());
        // Its summary (with the error message, when it fails) as JSON on
        // stdout; everything it prints for people to the log.
        cmd.arg("--json");
        cmd.stdout(std::fs::File::create(&json_path)?).stderr(log);
        // Its own process group: the batch forwards Ctrl-C and kills the
        // whole group (replay's native processes too).
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        cmd.spawn()
    })();
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) => {
            result.why = Some(format!("cannot start the analysis: {e}"));
            return result;
        }
    };
    let pid = child.id();
    let group = -(pid as i32);
    let deadline = Duration::from_secs_f64(max_time + plan.grace);
    let mut killed: Option<Killed> = None;
    let mut interrupted = false;
    let mut sent_int_at: Option<Instant> = None;
    let mut last_memory_check = Instant::now() - Duration::from_secs(1);
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) => {}
            Err(_) => break None,
        }
        if plan.interrupt.load(Ordering::Relaxed) && !interrupted {
            interrupted = true;
            // SAFETY: signalling the child's own process group.
            unsafe { libc::kill(group, libc::SIGINT) };
        }
        if killed.is_none() && started.elapsed() > deadline {
            match sent_int_at {
                None => {
                    sent_int_at = Some(Instant::now());
                    unsafe { libc::kill(group, libc::SIGINT) };
                }
                Some(t) if t.elapsed() > Duration::from_secs(5) => {
                    killed = Some(Killed::Time);
                    unsafe { libc::kill(group, libc::SIGKILL) };
                }
                _ => {}
            }
        }
        if let (Some(limit), None) = (plan.max_memory, killed) {
            if last_memory_check.elapsed() >= Duration::from_millis(200) {
                last_memory_check = Instant::now();
                let rss = fpsym_engine::resident_bytes_of(&pid.to_string()).unwrap_or(0) >> 20;
                if rss > limit + limit / 4 {
                    killed = Some(Killed::Memory(rss));
                    unsafe { libc::kill(group, libc::SIGKILL) };
                }
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    // What is left of the group (e.g. a native test replay started).
    unsafe { libc::kill(group, libc::SIGKILL) };
    result.time = started.elapsed().as_secs_f64();
    let stop = read_back(&dir, &mut result);
    // Its error: the JSON summary's, else a usage error clap printed.
    let log_name = log_path
        .strip_prefix(&plan.out)
        .unwrap_or(&log_path)
        .display()
        .to_string();
    let last_error = || {
        let json = std::fs::read_to_string(&json_path).ok().and_then(|t| {
            serde_json::from_str::<serde_json::Value>(t.trim())
                .ok()
                .and_then(|v| v["error"].as_str().map(str::to_string))
        });
        json.or_else(|| {
            std::fs::read_to_string(&log_path).ok().and_then(|t| {
                t.lines()
                    .rev()
                    .find(|l| l.starts_with("error: "))
                    .map(|l| l.trim_start_matches("error: ").to_string())
            })
        })
        .map(|e| format!("{e} (see {log_name})"))
    };
    use std::os::unix::process::ExitStatusExt;
    let Some(status) = status else {
        result.why = Some("lost track of the analysis process".into());
        return result;
    };
    result.exit_code = status.code();
    (result.status, result.why) = match (killed, status.code(), status.signal()) {
        (Some(Killed::Time), ..) => (
            JobStatus::TimedOut,
            Some(format!(
                "did not stop within {max_time} s + {} s of grace: killed",
                plan.grace
            )),
        ),
        (Some(Killed::Memory(rss)), ..) => (
            JobStatus::OutOfMemory,
            Some(format!(
                "killed holding {rss} MiB (limit {} MiB)",
                plan.max_memory.unwrap_or_default()
            )),
        ),
        (None, _, Some(sig)) => (
            JobStatus::Crashed,
            Some(format!("killed by signal {sig} ({})", signal_name(sig))),
        ),
        (None, Some(2), _) => (
            JobStatus::Skipped,
            Some(last_error().unwrap_or_else(|| "an input error (exit 2)".into())),
        ),
        (None, Some(3), _) => (
            JobStatus::Crashed,
            Some(last_error().unwrap_or_else(|| "an internal error (exit 3)".into())),
        ),
        (None, Some(0 | 1 | 4), _) => match stop {
            Some(r::StopReason::MaxTime(t)) => (
                JobStatus::TimedOut,
                Some(format!(
                    "stopped at its time limit ({} s); what it found is kept",
                    r::seconds(t)
                )),
            ),
            Some(r::StopReason::MaxMemory(b)) => (
                JobStatus::OutOfMemory,
                Some(format!(
                    "stopped at its memory limit ({} MiB resident); what it found is kept",
                    b >> 20
                )),
            ),
            Some(r::StopReason::Interrupted) => (JobStatus::Done, Some(INTERRUPTED.into())),
            Some(_) => (JobStatus::Done, None),
            None => (JobStatus::Crashed, Some("ended without writing stats.json".into())),
        },
        (None, code, _) => (
            JobStatus::Crashed,
            Some(format!(
                "exit code {} (see {log_name})",
                code.map_or("none".to_string(), |c| c.to_string())
            )),
        ),
    };
    if sent_int_at.is_some() && killed.is_none() {
        let late = format!(
            "still running {max_time} s + {} s of grace after its start (its replay or the mode's own steps): \
             interrupted by the batch",
            plan.grace
        );
        if result.status == JobStatus::Done {
            result.status = JobStatus::TimedOut;
            result.why = Some(late);
        } else if result.status == JobStatus::TimedOut {
            result.why = Some(format!("{}; {late}", result.why.take().unwrap_or_default()));
        }
    }
    if result.why.is_none() && matches!(result.verdict.as_deref(), Some("incomplete" | "unknown")) {
        result.why = result.verdict_why.take();
    }
    result
}

/// The verdict, findings and mode's answer a child left in `dir`; why it
/// stopped (None: no stats.json).
fn read_back(dir: &Path, result: &mut JobResult) -> Option<r::StopReason> {
    let summary = r::read_json::<r::Summary>(&dir.join(r::STATS)).ok();
    if let Some(s) = &summary {
        let v = serde_json::to_value(&s.verdict).unwrap_or_default();
        result.verdict = v.get("verdict").and_then(|x| x.as_str()).map(str::to_string);
        result.verdict_why = v.get("why").and_then(|x| x.as_str()).map(str::to_string);
    }
    // The mode's own answer (error.json's maximum error and its input,
    // critical.json's answers, path.json's), its small fields.
    let record = r::ModeRecord::read(dir).and_then(Result::ok).map(|r| r.to_value());
    if let Some(serde_json::Value::Object(m)) = record {
        let small: serde_json::Map<String, serde_json::Value> = m
            .into_iter()
            .filter(|(_, v)| serde_json::to_string(v).is_ok_and(|t| t.len() <= 2000))
            .collect();
        result.result = Some(serde_json::Value::Object(small));
    }
    let replay = r::read_json::<r::ReplayReport>(&dir.join(r::REPLAY)).ok();
    if let Ok(findings) = r::read_findings(dir) {
        result.findings = findings
            .iter()
            .map(|f| JobFinding {
                kind: f.kind.clone(),
                file: f.file.clone(),
                line: f.line,
                confirmed: replay.as_ref().map(|rep| {
                    rep.findings
                        .iter()
                        .any(|x| x.test == f.test && x.kind == f.kind && x.line == f.line && x.confirmed)
                }),
            })
            .collect();
    }
    summary.map(|s| s.stop)
}

fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGKILL => "SIGKILL: the kernel's out-of-memory killer, or someone else",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        _ => "a signal",
    }
}

/// Copies `from` into `to` (new), keeping symbolic links as links.
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let (src, dst) = (e.path(), to.join(e.file_name()));
        let t = e.file_type()?;
        if t.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(&src)?, &dst)?;
        } else if t.is_dir() {
            copy_tree(&src, &dst)?;
        } else {
            std::fs::copy(&src, &dst)?;
        }
    }
    Ok(())
}

/// `fpsym merge`: the batch directories `dirs` (a batch's shards) made one
/// in `output` (emptied of an earlier merge first with `force`).
pub fn merge(dirs: &[PathBuf], output: &Path, force: bool, session: &crate::Session) -> anyhow::Result<ExitCode> {
    let mut records: Vec<(PathBuf, BatchRecord, Vec<JobResult>)> = Vec::new();
    for d in dirs {
        let rec: BatchRecord = r::read_json(&d.join(r::BATCH_RECORD))
            .map_err(|e| Failure::Input(format!("{}: not a batch's output directory ({e})", d.display())))?;
        let results = r::read_results(d).map_err(|e| Failure::Input(e.to_string()))?;
        records.push((d.clone(), rec, results));
    }
    let (first_dir, first, _) = &records[0];
    for (d, rec, _) in &records[1..] {
        if let Some(what) = differs_in(first, rec, false) {
            return Err(Failure::Input(format!(
                "{} and {} are not one batch: their {what} differ",
                first_dir.display(),
                d.display()
            ))
            .into());
        }
    }
    let mut owner: BTreeMap<(String, String), PathBuf> = BTreeMap::new();
    for (d, _, results) in &records {
        for res in results {
            if let Some(other) = owner.insert(res.key(), d.clone()) {
                return Err(Failure::Input(format!(
                    "{}: {} is in {} and in {}: do the shards overlap (the same I/N given twice, or different N)?",
                    res.file,
                    res.function,
                    other.display(),
                    d.display()
                ))
                .into());
            }
        }
    }
    let out = output;
    prepare_dir(out, force, false)?;
    let mut merged = first.clone();
    merged.shard = None;
    merged.missing = first.jobs.iter().filter(|k| !owner.contains_key(*k)).cloned().collect();
    r::write_json(&out.join(r::BATCH_RECORD), &merged)?;
    copy_tree(&first_dir.join("build"), &out.join("build"))
        .map_err(|e| Failure::Input(format!("{}: {e}", first_dir.join("build").display())))?;
    let mut all = Vec::new();
    for (d, _, results) in &records {
        for res in results {
            let src = d.join(&res.dir);
            if src.is_dir() {
                copy_tree(&src, &out.join(&res.dir)).map_err(|e| Failure::Input(format!("{}: {e}", src.display())))?;
            }
            all.push(res.clone());
        }
        if d.join("logs").is_dir() {
            copy_tree(&d.join("logs"), &out.join("logs"))?;
        }
    }
    r::write_results(out, &all)?;
    session.output(out);
    let missing: Vec<String> = first
        .jobs
        .iter()
        .filter(|k| !owner.contains_key(*k))
        .map(|(f, g)| format!("{f}: {g}"))
        .collect();
    say!(
        "merged {} directories: {} of {} functions",
        records.len(),
        all.len(),
        first.jobs.len()
    );
    if !missing.is_empty() {
        say!(
            "missing ({}): {}{}",
            missing.len(),
            missing.iter().take(10).cloned().collect::<Vec<_>>().join("; "),
            if missing.len() > 10 { "; ..." } else { "" }
        );
    }
    summarize(&all, 0.0, out);
    Ok(ExitCode::from(exit_code(&all, !missing.is_empty())))
}
