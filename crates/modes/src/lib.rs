//! fpsym's modes as a library: what `fpsym run`, `exceptions`, `error`,
//! `path`, `critical`, `solve`, `replay`, `batch`, `merge`, `show` and
//! `export` do, each a module with typed options, callable in process.
//!
//! The binary (`crates/cli`) parses flags into these options, calls
//! `X::run`, and maps the result to an exit code in one place. What a
//! process lends its modes (the Ctrl-C flag, the count of solver threads,
//! the output directories whose reports are written at the end) is a
//! [`Session`], passed in the options: this crate holds no global state.
//!
//! A mode prints its answers and summary on stdout, as the command line
//! shows them (`say!`; a closed stdout is ignored), and notes on stderr.
//! Its exit code is one of [`EXIT_CODES`]: 0 done or proved, 1 found,
//! 3 a claim contradicted natively, 4 incomplete ([`INCOMPLETE`]); errors
//! are [`Failure`]s (2 input, 3 internal).

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

pub mod batch;
pub mod budget;
pub mod competition;
pub mod critical;
pub mod error;
pub mod exceptions;
pub mod export;
pub mod fuzz;
pub mod path;
pub mod prove;
pub mod replay;
pub mod run;
pub mod session;
pub mod show;
pub mod solve;
pub mod validate;

pub use session::Session;

use std::process::ExitCode;

/// `r`, with a closed stdout (the reader stopped reading: `| head`) as
/// success: output is lost, the work goes on.
pub(crate) fn closed_stdout_ok(r: std::io::Result<()>) -> std::io::Result<()> {
    match r {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r,
    }
}

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

/// Exit 4: nothing found and nothing proved.
pub const INCOMPLETE: u8 = 4;

/// The exit codes a command ends with, in order: 0 done or proved, 1
/// found, 2 usage or input error, 3 internal error or a claim contradicted
/// natively, 4 incomplete.
pub const EXIT_CODES: [u8; 5] = [0, 1, 2, 3, INCOMPLETE];

/// The number of an exit code a mode returns.
pub fn raw_code(code: ExitCode) -> u8 {
    EXIT_CODES.into_iter().find(|c| ExitCode::from(*c) == code).unwrap_or(3)
}
