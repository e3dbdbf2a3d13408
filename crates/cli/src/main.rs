//! The `fpsym` binary: argument parsing and glue only.
//!
//! Exit codes (one place, here): 0 done, 1 findings present where a mode says
//! so, 2 usage or input error, 3 internal error.

mod args;
mod run;
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

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
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
            ExitCode::from(code)
        }
    }
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
    match cli.command {
        args::Command::Solve(raw) => {
            let opts = solve::SolveOptions::from_args(raw)?;
            solve::run(&opts)
        }
        args::Command::Run(raw) => {
            let opts = run::RunOptions::from_args(raw)?;
            run::run(&opts)
        }
    }
}
