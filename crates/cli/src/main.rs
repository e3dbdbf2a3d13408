//! The `fpsym` binary: argument parsing and glue only.
//!
//! Exit codes (one place, here; the book's docs/src/guide/exit-codes.md
//! lists them per mode): 0 proved or done (verified, infeasible, no value outside), 1 found
//! (findings, a feasible path, a value outside), 2 usage or input error,
//! 3 internal error, 4 incomplete (nothing found, nothing proved: a limit,
//! an undecided query, an unmodelled call).

/// A line on stdout (`say!()` an empty one); a closed stdout (`| head`)
/// is ignored: the run goes on and writes its tests and reports.
macro_rules! say {
    () => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout());
    }};
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}

/// Text on stdout without a newline, likewise.
macro_rules! say_part {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($t)*);
    }};
}

/// `r`, with a closed stdout (the reader stopped reading: `| head`) as
/// success: output is lost, the work goes on.
pub(crate) fn closed_stdout_ok(r: std::io::Result<()>) -> std::io::Result<()> {
    match r {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r,
    }
}

mod args;
mod batch;
mod competition;
mod critical;
mod error;
mod exceptions;
mod export;
mod fuzz;
mod path;
mod prove;
mod replay;
mod run;
mod session;
mod show;
mod solve;
mod solver_opts;

use std::process::ExitCode;

/// An error with the exit code it maps to.
#[derive(Debug)]
pub enum Failure {
    /// Bad usage or bad input (exit 2): the message names the place.
    Input(String),
    /// A bug in fpsym or a backend (exit 3).
    Internal(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Input(m) | Failure::Internal(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Failure {}

/// The process's Ctrl-C flag: raised by the handler installed on first
/// use, shared by every run of the process (`exceptions --all-functions`
/// runs many).
pub(crate) fn interrupt() -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, OnceLock};
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let raised = flag.clone();
        let _ = ctrlc::set_handler(move || raised.store(true, Ordering::Relaxed));
        flag
    })
    .clone()
}

/// Exit 4: nothing found and nothing proved.
pub(crate) const INCOMPLETE: u8 = 4;

/// The codes `main` exits with, in order.
const CODES: [u8; 5] = [0, 1, 2, 3, INCOMPLETE];

/// The number of an exit code `main` uses.
pub(crate) fn raw_code(code: ExitCode) -> u8 {
    CODES.into_iter().find(|c| ExitCode::from(*c) == code).unwrap_or(3)
}

fn main() -> ExitCode {
    let (code, error) = match run() {
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
    leave(ExitCode::from(session::finish(code, error.as_deref())))
}

/// The solver threads of every chain this process builds: `run` and `solve`
/// build theirs with [`fpsym_solver::build_with_workers`] counting into it,
/// and [`leave`] waits for them. Process-wide on purpose, and only here: the
/// binary may hold global state, the library crates do not.
pub(crate) static WORKERS: std::sync::LazyLock<fpsym_solver::Workers> =
    std::sync::LazyLock::new(fpsym_solver::Workers::new);

/// Exits with `code`. A solver thread that ignored its cancellation may
/// still be inside libz3; running C++ static destructors under it can crash
/// the process after the answers were printed (seen as SIGFPE). So: give
/// such threads (counted in [`WORKERS`]) a moment, and if any is still
/// running, flush and `_exit`.
fn leave(code: ExitCode) -> ExitCode {
    let until = std::time::Instant::now() + std::time::Duration::from_millis(300);
    while WORKERS.busy() > 0 && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    if WORKERS.busy() == 0 {
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

fn run() -> anyhow::Result<ExitCode> {
    let cli = match args::parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap renders help/version to stdout (exit 0) and usage errors to stderr (exit 2).
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return Ok(ExitCode::from(code));
        }
    };
    let json = match &cli.command {
        args::Command::Run(a) => a.json,
        args::Command::Exceptions(a) => a.run.json,
        args::Command::Error(a) => a.run.json,
        args::Command::Path(a) => a.run.json,
        args::Command::Critical(a) => a.run.json,
        _ => false,
    };
    if json {
        session::json_to_stdout()?;
    }
    if let args::Command::Replay(raw) = &cli.command {
        session::output(&raw.dir);
    }
    match cli.command {
        args::Command::Solve(raw) => {
            let opts = solve::SolveOptions::from_args(raw)?;
            solve::run(&opts)
        }
        args::Command::Run(raw) => {
            let opts = run::RunOptions::from_args(raw)?;
            run::run(&opts)
        }
        args::Command::Exceptions(raw) => exceptions::run(raw),
        args::Command::Error(raw) => error::run(raw),
        args::Command::Path(raw) => path::run(raw),
        args::Command::Critical(raw) => critical::run(raw),
        args::Command::Replay(raw) => {
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
        args::Command::Batch(raw) => batch::run(raw),
        args::Command::Merge(raw) => batch::merge(raw),
        args::Command::Show(raw) => show::run(&raw),
        args::Command::Export(raw) => export::run(&raw),
    }
}
