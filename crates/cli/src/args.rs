//! Raw command-line flags (clap). Validation into options happens in each
//! mode's module (`SolveOptions::from_args`), without touching the filesystem.

use clap::{Args, Parser, Subcommand, ValueEnum};

/// fpsym: find the inputs that break floating-point C code.
#[derive(Parser, Debug)]
#[command(name = "fpsym", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Decide an SMT-LIB 2 script (QF_FP, QF_BV, QF_BVFP) and print sat, unsat
    /// or unknown for each check-sat.
    ///
    /// Example: fpsym solve --model examples/smtlib/demo.smt2
    Solve(SolveArgs),
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The script to read, or `-` for standard input.
    pub file: String,
    /// Backend that decides the queries.
    #[arg(long, default_value = "z3", value_name = "BACKEND")]
    pub solver: String,
    /// Time limit per check-sat, in seconds (fractions allowed). No limit by default.
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    /// Print the model after each sat answer.
    #[arg(long)]
    pub model: bool,
    /// Print solver statistics on standard error when done.
    #[arg(long, value_name = "FORMAT")]
    pub stats: Option<StatsFormat>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatsFormat {
    /// One JSON object.
    Json,
}

pub fn parse() -> Result<Cli, clap::Error> {
    Cli::try_parse()
}
