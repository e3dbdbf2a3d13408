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
    #[command(flatten)]
    pub solver: SolverArgs,
    /// Time limit per check-sat, in seconds (fractions allowed). No limit by default.
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    /// Time limit for the whole script, in seconds: each check-sat gets at
    /// most what is left (and at most --timeout). No limit by default.
    #[arg(long, value_name = "SECS")]
    pub max_time: Option<f64>,
    /// Print the model after each sat answer.
    #[arg(long)]
    pub model: bool,
    /// Print solver statistics on standard error when done.
    #[arg(long, value_name = "FORMAT")]
    pub stats: Option<StatsFormat>,
}

/// How queries are decided; the same options in every mode that solves.
#[derive(Args, Debug)]
#[command(next_help_heading = "Solver")]
pub struct SolverArgs {
    /// Backend that decides the queries: `portfolio` (cp and z3 together),
    /// `z3` (Z3 in process), `cp` (fpsym's interval-consistency solver over
    /// IEEE floats), or `process:COMMAND` (a solver binary reading SMT-LIB 2
    /// on standard input, e.g. "process:cvc5 --lang smt2", "process:z3 -in").
    #[arg(long, default_value = "portfolio", value_name = "BACKEND")]
    pub solver: String,
    /// How the portfolio runs cp and z3: `parallel` (both at once, first
    /// definite answer wins) or `sequential` (cp with a short budget, then z3).
    #[arg(long, value_name = "MODE", default_value = "parallel")]
    pub portfolio: PortfolioArg,
    /// Ask every query also of BACKEND (same syntax as --solver); a sat/unsat
    /// disagreement prints "disagreement", writes the query, and exits 3.
    #[arg(long, value_name = "BACKEND")]
    pub cross_check: Option<String>,
    /// Write every query that reaches a backend to DIR as a standalone .smt2
    /// file with the answer in (set-info :status ...).
    #[arg(long, value_name = "DIR")]
    pub dump_queries: Option<std::path::PathBuf>,
    /// Turn off the query cache and counterexample reuse.
    #[arg(long)]
    pub no_cache: bool,
    /// Turn off splitting queries into independent groups of constraints.
    #[arg(long)]
    pub no_independence: bool,
    /// cp: turn off filtering by maximum ULP (to measure its effect).
    #[arg(long)]
    pub no_ulp_max: bool,
    /// cp: local consistency before search: `2b` (hull consistency) or `3b`
    /// (2B plus shaving of the inputs' bounds).
    #[arg(long, value_name = "2b|3b")]
    pub consistency: Option<String>,
    /// cp: variable choice: `largest` (by float count), `most-constrained`, `static` (input order).
    #[arg(long = "var", value_name = "CHOICE")]
    pub var_choice: Option<String>,
    /// cp: value choice: `fpse` (midpoint v, then x=v, x<v, x>v), `5way`
    /// (l, r, m, (l,m), (m,r)), `3point` (l, r, m; incomplete: never unsat), `bisect`.
    #[arg(long, value_name = "STRATEGY")]
    pub split: Option<String>,
    /// cp: relative narrowing (in %) below which a direct projection is withdrawn. Default 0.
    #[arg(long, value_name = "PERCENT")]
    pub eps_direct: Option<f64>,
    /// cp: relative narrowing (in %) below which an indirect projection is withdrawn. Default 10.
    #[arg(long, value_name = "PERCENT")]
    pub eps_indirect: Option<f64>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortfolioArg {
    /// cp and z3 at once, on two threads.
    Parallel,
    /// cp first with a fifth of the remaining time (at most 2 s), then z3.
    Sequential,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatsFormat {
    /// One JSON object.
    Json,
}

pub fn parse() -> Result<Cli, clap::Error> {
    Cli::try_parse()
}
