//! The `fpsym` binary: argument parsing and glue only.
//!
//! Exit codes (one place, here; the book's docs/src/guide/exit-codes.md
//! lists them per mode): 0 proved or done (verified, infeasible, no value outside), 1 found
//! (findings, a feasible path, a value outside), 2 usage or input error,
//! 3 internal error, 4 incomplete (nothing found, nothing proved: a limit,
//! an undecided query, an unmodelled call).

mod args;
mod options;

use fpsym_modes::{batch, competition, critical, error, exceptions, export, path, raw_code, replay, run, show, solve};
use fpsym_modes::{Failure, Session};
use std::process::ExitCode;

/// A session whose stop flag the process's Ctrl-C raises, once a mode
/// watches it (the analyses, `solve`, `batch`, when their work starts):
/// until then, and in the other commands, Ctrl-C ends the process at once.
fn session() -> Session {
    use std::sync::atomic::{AtomicBool, Ordering};
    let flag = std::sync::Arc::new(AtomicBool::new(false));
    let raised = flag.clone();
    Session::armed_by(flag, move || {
        let raised = raised.clone();
        let _ = ctrlc::set_handler(move || raised.store(true, Ordering::Relaxed));
    })
}

fn main() -> ExitCode {
    let cli = match args::parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap renders help/version to stdout (exit 0) and usage errors to stderr (exit 2).
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let session = session();
    let mut json = None;
    let (code, error) = match run(cli, &session, &mut json) {
        Ok(code) => (raw_code(code), None),
        Err(e) => {
            let code = match e.downcast_ref::<Failure>() {
                Some(Failure::Internal(_)) => {
                    eprintln!("fpsym: internal error: {e:#}");
                    3
                }
                Some(Failure::Input(_)) => {
                    eprintln!("fpsym: {e:#}");
                    2
                }
                None => {
                    eprintln!("fpsym: {e:#}");
                    2
                }
            };
            (code, Some(format!("{e:#}")))
        }
    };
    let (code, summary) = session.finish(code, error.as_deref(), json.is_some());
    if let (Some(mut out), Some(v)) = (json, summary) {
        use std::io::Write;
        let _ = std::io::stdout().flush();
        let text = serde_json::to_string(&v).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
        let _ = writeln!(out, "{text}");
    }
    leave(&session, ExitCode::from(code))
}

/// `--json`: from now on what fpsym prints for people goes to stderr; the
/// returned file is the original stdout, which gets only the summary
/// object at the end.
fn json_to_stdout() -> std::io::Result<std::fs::File> {
    use std::io::Write;
    use std::os::fd::FromRawFd;
    std::io::stdout().flush()?;
    // SAFETY: plain descriptor calls; the duplicate is owned by the File.
    let saved = unsafe { libc::dup(1) };
    if saved < 0 || unsafe { libc::dup2(2, 1) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(unsafe { std::fs::File::from_raw_fd(saved) })
}

/// Exits with `code`. A solver thread that ignored its cancellation may
/// still be inside libz3; running C++ static destructors under it can crash
/// the process after the answers were printed (seen as SIGFPE). So: give
/// such threads (counted in the session's workers) a moment, and if any
/// is still running, flush and `_exit`.
fn leave(session: &Session, code: ExitCode) -> ExitCode {
    let workers = session.workers();
    let until = std::time::Instant::now() + std::time::Duration::from_millis(300);
    while workers.busy() > 0 && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    if workers.busy() == 0 {
        return code;
    }
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    let raw = raw_code(code);
    // SAFETY: `_exit` ends the process without running destructors; all
    // output has been flushed above.
    unsafe { libc::_exit(raw as i32) }
}

/// Flags -> options -> the mode.
fn run(cli: args::Cli, session: &Session, json: &mut Option<std::fs::File>) -> anyhow::Result<ExitCode> {
    let wants_json = match &cli.command {
        args::Command::Run(a) => a.json,
        args::Command::Exceptions(a) => a.run.json,
        args::Command::Error(a) => a.run.json,
        args::Command::Path(a) => a.run.json,
        args::Command::Critical(a) => a.run.json,
        _ => false,
    };
    if wants_json {
        *json = Some(json_to_stdout()?);
    }
    let s = session;
    match cli.command {
        args::Command::Solve(raw) => solve::run(&options::solve(raw, s)?),
        args::Command::Run(raw) => run::run(&options::run(raw, s)?),
        args::Command::Exceptions(raw) => exceptions::run(options::exceptions(raw, s)?),
        args::Command::Error(raw) => error::run(options::error(raw, s)?),
        args::Command::Path(raw) => path::run(options::path(raw, s)?),
        args::Command::Critical(raw) => critical::run(options::critical(raw, s)?),
        args::Command::Replay(raw) => {
            session.output(&raw.dir);
            let opts = replay::ReplayOptions {
                coverage: raw.coverage,
                coverage_html: raw.coverage_html,
                ..Default::default()
            };
            match (raw.test, &raw.witness) {
                (_, Some(w)) => competition::check_witness(&raw.dir, w),
                (Some(id), None) => replay::replay_one(&raw.dir, id, &opts),
                (None, None) => replay::replay(&raw.dir, &opts),
            }
        }
        args::Command::Batch(raw) => batch::run(options::batch(raw, s)?),
        args::Command::Merge(raw) => batch::merge(&raw.dirs, &raw.output, raw.force, s),
        args::Command::Show(raw) => show::run(&raw.path, raw.test, raw.json),
        args::Command::Export(raw) => export::run(&export::Options {
            dir: raw.dir,
            c: raw.c.then_some(raw.out),
            libfuzzer: raw.libfuzzer,
            testcomp: raw.testcomp,
        }),
    }
}
