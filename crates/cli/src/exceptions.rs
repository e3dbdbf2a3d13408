//! `fpsym exceptions`: `run` with the floating-point exception checker
//! (crates/engine's `checkers::fp`), and a summary by kind.

use crate::args::{ExceptionKind, ExceptionsArgs};
use crate::run::{execute, prepare, run_then, RunOptions};
use crate::Failure;
use fpsym_engine::checkers::fp::{FpExceptions, FpKinds};
use fpsym_engine::checkers::CheckerFactory;
use fpsym_engine::report::FindingKind;
use fpsym_engine::Entry;
use std::collections::BTreeMap;
use std::process::ExitCode;

/// The kinds asked for (the default set when none is named).
fn kinds(asked: &[ExceptionKind]) -> FpKinds {
    if asked.is_empty() {
        return FpKinds::default();
    }
    let mut k = FpKinds::none();
    for a in asked {
        match a {
            ExceptionKind::Overflow => k.overflow = true,
            ExceptionKind::Underflow => k.underflow = true,
            ExceptionKind::DivideByZero => k.divide_by_zero = true,
            ExceptionKind::Invalid => k.invalid = true,
            ExceptionKind::FloatCastOverflow => k.float_cast_overflow = true,
            ExceptionKind::Inexact => k.inexact = true,
        }
    }
    k
}

/// The exception kinds of findings, in the order the summary lists them.
const KINDS: [FindingKind; 6] = [
    FindingKind::FpOverflow,
    FindingKind::FpUnderflow,
    FindingKind::FpDivideByZero,
    FindingKind::FpInvalid,
    FindingKind::FloatCastOverflow,
    FindingKind::FpInexact,
];

/// Prints the exceptions of `findings` by kind (the kinds asked for).
fn print_by_kind(kinds: FpKinds, findings: &[fpsym_engine::report::Finding]) {
    let mut by_kind: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for f in findings {
        if let Some(k) = KINDS.iter().position(|k| *k == f.kind) {
            let file = std::path::Path::new(&f.file)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            by_kind.entry(k).or_default().push(format!("{file}:{}", f.line));
        }
    }
    println!("exceptions by kind:");
    for (k, kind) in KINDS.iter().enumerate() {
        if !kinds.contains(kind) {
            continue;
        }
        match by_kind.get(&k) {
            Some(locs) => println!("  {kind}: {} location(s): {}", locs.len(), locs.join(", ")),
            None => println!("  {kind}: none"),
        }
    }
}

/// Runs the program with the exception checker; exit 1 when something is
/// found.
pub fn run(raw: ExceptionsArgs) -> anyhow::Result<ExitCode> {
    let kinds = kinds(&raw.kinds);
    let all = raw.all_functions;
    let per_function = crate::solver_opts::seconds("--max-time-per-function", raw.max_time_per_function)?;
    let mut opts = RunOptions::from_args(raw.run)?;
    opts.engine_mut()
        .checkers
        .push(CheckerFactory::new(move || Box::new(FpExceptions::new(kinds))));
    if all {
        return all_functions(&opts, kinds, per_function);
    }
    run_then(&opts, |_, findings| print_by_kind(kinds, findings))
}

/// The functions `--all-functions` analyses: defined in the user's files,
/// external, not `main`, not variadic.
fn candidates(program: &fpsym_frontend::Program, user: &fpsym_frontend::UserCode) -> Vec<String> {
    program
        .module
        .functions
        .iter()
        .filter(|f| {
            f.name != "main"
                && !f.is_var_arg
                && !f.basic_blocks.is_empty()
                && matches!(f.linkage, llvm_ir::module::Linkage::External)
                && user.is_user_function(f)
        })
        .map(|f| f.name.clone())
        .collect()
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
    let functions = candidates(&program, &user);
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
    let mut failed = None;
    let mut rows: Vec<(String, Vec<String>, String)> = Vec::new();
    for f in &functions {
        if crate::interrupt().load(std::sync::atomic::Ordering::Relaxed) {
            println!("interrupted: the functions after {f} are not analysed");
            break;
        }
        println!("== {f}");
        let dir = out.join("functions").join(f);
        std::fs::create_dir_all(&dir)?;
        // Replay rebuilds from the run's headers in DIR/build.
        std::os::unix::fs::symlink(std::fs::canonicalize(out.join("build"))?, dir.join("build"))?;
        let mut engine = base.clone();
        engine.entry = Entry::Function {
            name: f.clone(),
            ranges: Vec::new(),
            array_len: match &base.entry {
                Entry::Function { array_len, .. } => *array_len,
                Entry::Main => None,
            },
        };
        engine.max_time = per_function
            .or(base.max_time)
            .or(Some(std::time::Duration::from_secs(60)));
        let mut kinds_found = Vec::new();
        let mut verdict = String::new();
        let code = execute(opts, &engine, &program, &dir, |summary, findings| {
            print_by_kind(kinds, findings);
            for fi in findings {
                if KINDS.contains(&fi.kind) {
                    kinds_found.push(format!("{}:{}", fi.kind, fi.line));
                }
            }
            verdict = match &summary.verdict {
                fpsym_engine::Verdict::Verified => "verified".into(),
                fpsym_engine::Verdict::BugFound => "found".into(),
                fpsym_engine::Verdict::Incomplete(_) => "incomplete".into(),
                v => format!("{v:?}"),
            };
        });
        match code {
            Ok(c) => found_any |= c == ExitCode::from(1),
            Err(e) => {
                println!("{f}: {e:#}");
                verdict = "error".into();
                // An internal error (a finding replay does not confirm:
                // exit 3) wins over an input error (exit 2).
                let internal = |e: &anyhow::Error| matches!(e.downcast_ref::<Failure>(), Some(Failure::Internal(_)));
                if failed.as_ref().is_none_or(|f| !internal(f) && internal(&e)) {
                    failed = Some(e);
                }
            }
        }
        println!();
        rows.push((f.clone(), kinds_found, verdict));
    }
    println!(
        "functions: {} analysed into {}",
        rows.len(),
        out.join("functions").display()
    );
    for (f, found, verdict) in &rows {
        if found.is_empty() {
            println!("  {f}: none ({verdict})");
        } else {
            println!("  {f}: {}", found.join(", "));
        }
    }
    if let Some(e) = failed {
        return Err(e);
    }
    Ok(if found_any {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
