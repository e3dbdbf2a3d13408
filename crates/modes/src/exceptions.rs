//! `fpsym exceptions`: `run` with the floating-point exception checker
//! (crates/engine's `checkers::fp`), and a summary by kind.

use crate::run::{execute, prepare, run_then, RunOptions};
use crate::Failure;
use fpsym_engine::checkers::fp::{FpExceptions, FpKinds};
use fpsym_engine::checkers::CheckerFactory;
use fpsym_engine::report::{DirSink, Finding, FindingKind, ReportSink};
use fpsym_engine::{Config, Entry};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

/// The exception kinds of findings, in the order the summary lists them.
const KINDS: [FindingKind; 6] = [
    FindingKind::FpOverflow,
    FindingKind::FpDivideByZero,
    FindingKind::FpInvalid,
    FindingKind::FloatCastOverflow,
    FindingKind::FpUnderflow,
    FindingKind::FpInexact,
];

/// The kinds a summary lists apart, after the total of the others:
/// underflow (a result so small it is subnormal or zero, having lost
/// precision, not range: usually harmless, and what most programs do on
/// purpose near zero) and inexact.
fn apart(kind: &FindingKind) -> bool {
    matches!(kind, FindingKind::FpUnderflow | FindingKind::FpInexact)
}

/// Prints the exceptions of `findings` by kind (the kinds asked for):
/// per kind its locations and input-location pairs (Ariadne's `[X, Y]`),
/// each location with its inputs and, for an over/underflow, whether it
/// is avoidable; then the totals of the kinds users act on (overflow,
/// divide-by-zero, invalid, float-cast-overflow); then, apart, underflow
/// and inexact.
fn print_by_kind(kinds: FpKinds, findings: &[Finding]) {
    let mut by_kind: BTreeMap<usize, Vec<&Finding>> = BTreeMap::new();
    for f in findings {
        if let Some(k) = KINDS.iter().position(|k| *k == f.kind) {
            by_kind.entry(k).or_default().push(f);
        }
    }
    say!("exceptions by kind [locations, input-location pairs]:");
    let (mut locations, mut pairs) = (0, 0);
    let mut heading_apart = false;
    for (k, kind) in KINDS.iter().enumerate() {
        if !kinds.contains(kind) {
            continue;
        }
        if apart(kind) && !heading_apart {
            say!("  all: [{locations}, {pairs}]");
            say!("apart (precision lost, not range; usually harmless, see the book):");
            heading_apart = true;
        }
        let Some(fs) = by_kind.get(&k) else {
            say!("  {kind}: none");
            continue;
        };
        let n: u64 = fs.iter().map(|f| f.inputs.unwrap_or(1)).sum();
        let avoidable = fs.iter().filter(|f| f.avoidable == Some(true)).count();
        let judged = fs.iter().filter(|f| f.avoidable.is_some()).count();
        let shown: Vec<String> = fs
            .iter()
            .map(|f| {
                let file = Path::new(&f.file)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let mut notes = Vec::new();
                if let Some(i) = f.inputs.filter(|i| *i > 1) {
                    notes.push(format!("{i} inputs"));
                }
                match f.avoidable {
                    Some(true) => notes.push("avoidable".into()),
                    Some(false) => notes.push("unavoidable".into()),
                    None => {}
                }
                if notes.is_empty() {
                    format!("{file}:{}:{}", f.line, f.column)
                } else {
                    format!("{file}:{}:{} ({})", f.line, f.column, notes.join(", "))
                }
            })
            .collect();
        let av = if judged > 0 {
            format!(", {avoidable} of {judged} avoidable")
        } else {
            String::new()
        };
        say!("  {kind}: [{}, {n}]{av}: {}", fs.len(), shown.join(", "));
        if !apart(kind) {
            locations += fs.len();
            pairs += n;
        }
    }
    if !heading_apart {
        say!("  all: [{locations}, {pairs}]");
    }
}

/// How long a high-precision re-run of one finding's test may take.
const RERUN_BUDGET: std::time::Duration = std::time::Duration::from_secs(10);

/// After the run: each overflow and underflow of a `--function` entry
/// re-run in high precision (crates/precision) on its test's input, and
/// marked avoidable when the function's results are then zero or normal.
/// All of them together take at most `time` (what is left of the run's
/// `--max-time`); those left are not judged.
fn classify_xflows(
    session: &crate::Session,
    time: std::time::Duration,
    program: &fpsym_frontend::Program,
    engine: &Config,
    out: &Path,
    sink: &mut DirSink,
    solver: &mut dyn fpsym_solver::Solver,
) -> anyhow::Result<()> {
    if !matches!(engine.entry, Entry::Function { .. }) {
        return Ok(());
    }
    let findings = sink.findings().to_vec();
    let deadline = std::time::Instant::now() + time;
    let xflows = findings
        .iter()
        .filter(|f| matches!(f.kind, FindingKind::FpOverflow | FindingKind::FpUnderflow))
        .count();
    let mut judged = 0;
    let shadow = fpsym_precision::Shadow::new(program);
    for (k, f) in findings.iter().enumerate() {
        if !matches!(f.kind, FindingKind::FpOverflow | FindingKind::FpUnderflow) {
            continue;
        }
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if session.interrupted() || left.is_zero() {
            say!(
                "avoidable or not: {} of {xflows} over/underflows judged before the time ran out",
                judged
            );
            break;
        }
        judged += 1;
        let path = out.join("tests").join(format!("{:06}.json", f.test));
        let test: fpsym_engine::report::Test = fpsym_engine::report::read_json(&path)?;
        let inputs = test
            .objects
            .iter()
            .filter_map(|o| Some((o.name.clone(), o.byte_values()?)))
            .collect();
        let hp = match fpsym_precision::rerun_with(
            program,
            engine,
            inputs,
            solver,
            shadow.fresh(),
            RERUN_BUDGET.min(left),
        ) {
            Ok(hp) => hp,
            Err(e) => {
                eprintln!("{}:{}: {} not classified: {e}", f.file, f.line, f.kind);
                continue;
            }
        };
        if let Some(a) = hp.avoidable() {
            let mut g = f.clone();
            g.avoidable = Some(a);
            sink.amend(k, &g)?;
        }
    }
    Ok(())
}

/// The options of `fpsym exceptions`.
#[derive(Debug, Default)]
pub struct Options {
    /// The options of `run` it takes.
    pub run: RunOptions,
    /// The exceptions looked for.
    pub kinds: FpKinds,
    /// Every function of the user's files, each into OUT/functions/F.
    pub all_functions: bool,
    /// With `all_functions`: each function's time (default `--max-time`, or 60 s).
    pub max_time_per_function: Option<std::time::Duration>,
}

/// Runs the program with the exception checker; exit 1 when something is
/// found.
pub fn run(o: Options) -> anyhow::Result<ExitCode> {
    let kinds = o.kinds;
    let all = o.all_functions;
    let per_function = o.max_time_per_function;
    let mut opts = o.run;
    opts.set_mode(fpsym_engine::report::Mode::Exceptions)?;
    opts.engine_mut()
        .extensions
        .checkers
        .push(CheckerFactory::new(move || Box::new(FpExceptions::new(kinds))));
    opts.engine_mut().input.count_inputs = true;
    opts.after_run(classify_xflows);
    // "No exception of a kind" is checked natively: no test raises it.
    opts.claim_mut().absent = KINDS.iter().filter(|k| kinds.contains(k)).cloned().collect();
    if all {
        return all_functions(&opts, kinds, per_function);
    }
    run_then(&opts, |_, findings| print_by_kind(kinds, findings))
}

/// One run per function into OUT/functions/FUNCTION, then a summary of
/// all; the exit status is the worst of theirs.
fn all_functions(
    opts: &RunOptions,
    kinds: FpKinds,
    per_function: Option<std::time::Duration>,
) -> anyhow::Result<ExitCode> {
    let (base, out, program) = prepare(opts)?;
    let user = fpsym_frontend::UserCode::from_inputs(opts.files());
    let functions = crate::run::analysable_functions(&program, &user);
    if functions.is_empty() {
        return Err(Failure::Input("--all-functions: no external function with a body in your files".into()).into());
    }
    if let Entry::Function { ranges, .. } = &base.entry {
        if !ranges.is_empty() {
            return Err(
                Failure::Input("--range applies to one function (--function), not to --all-functions".into()).into(),
            );
        }
    }
    let mut found_any = false;
    let mut incomplete = false;
    let mut failed = None;
    let mut rows: Vec<(String, Vec<String>, String)> = Vec::new();
    for f in &functions {
        if opts.session.interrupted() {
            say!("interrupted: the functions after {f} are not analysed");
            break;
        }
        say!("== {f}");
        let dir = out.join("functions").join(f);
        std::fs::create_dir_all(&dir)?;
        // Replay rebuilds from the run's headers in DIR/build.
        crate::run::link_build(&out.join("build"), &dir.join("build"))?;
        let mut engine = base.clone();
        engine.entry = Entry::Function {
            name: f.clone(),
            ranges: Vec::new(),
            array_len: match &base.entry {
                Entry::Function { array_len, .. } => *array_len,
                Entry::Main => None,
            },
        };
        engine.limits.max_time = per_function
            .or(base.limits.max_time)
            .or(Some(std::time::Duration::from_secs(60)));
        let mut kinds_found = Vec::new();
        let mut verdict = String::new();
        let code = execute(opts, &engine, &program, &dir, |summary, findings| {
            print_by_kind(kinds, findings);
            for fi in findings {
                if fi.kind.is_fp_exception() {
                    kinds_found.push(format!("{}:{}", fi.kind, fi.line));
                }
            }
            verdict = match &summary.verdict {
                fpsym_engine::Verdict::Verified | fpsym_engine::Verdict::Proved(_) => "verified".into(),
                fpsym_engine::Verdict::BugFound => "found".into(),
                fpsym_engine::Verdict::Incomplete(_) => "incomplete".into(),
                v => format!("{v:?}"),
            };
        });
        match code {
            Ok(c) => {
                found_any |= c == ExitCode::from(1);
                incomplete |= c == ExitCode::from(crate::INCOMPLETE);
            }
            Err(e) => {
                say!("{f}: {e:#}");
                verdict = "error".into();
                // An internal error (a finding replay does not confirm:
                // exit 3) wins over an input error (exit 2).
                let internal = |e: &anyhow::Error| matches!(e.downcast_ref::<Failure>(), Some(Failure::Internal(_)));
                if failed.as_ref().is_none_or(|f| !internal(f) && internal(&e)) {
                    failed = Some(e);
                }
            }
        }
        say!();
        rows.push((f.clone(), kinds_found, verdict));
    }
    say!(
        "functions: {} analysed into {}",
        rows.len(),
        out.join("functions").display()
    );
    for (f, found, verdict) in &rows {
        if found.is_empty() {
            say!("  {f}: none ({verdict})");
        } else {
            say!("  {f}: {}", found.join(", "));
        }
    }
    if let Some(e) = failed {
        return Err(e);
    }
    Ok(if found_any {
        ExitCode::from(1)
    } else if incomplete {
        ExitCode::from(crate::INCOMPLETE)
    } else {
        ExitCode::SUCCESS
    })
}
