//! `fpsym solve`: run an SMT-LIB script against a solver chain.

use crate::Failure;
use fpsym_smtlib::parse_script;
use fpsym_solver::script::{run_script, ScriptError, ScriptOptions};
use fpsym_solver::SolverConfig;
use std::io::{Read, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Validated options of `fpsym solve`.
#[derive(Debug)]
pub struct SolveOptions {
    /// Path of the script, or `-` for standard input.
    pub file: String,
    /// The solver chain to build.
    pub solver: SolverConfig,
    /// Time limit per check-sat.
    pub timeout: Option<Duration>,
    /// Time limit for the whole script.
    pub max_time: Option<Duration>,
    /// Print the model after each sat.
    pub model: bool,
    /// Print the solver's statistics at the end, as one JSON object.
    pub stats_json: bool,
    /// What the process lends the run (Ctrl-C, solver threads).
    pub session: crate::Session,
}

fn read_input(file: &str) -> Result<(String, String), Failure> {
    if file == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| Failure::Input(format!("<stdin>: cannot read: {e}")))?;
        Ok((s, "<stdin>".into()))
    } else {
        let s = std::fs::read_to_string(file).map_err(|e| Failure::Input(format!("{file}: cannot read: {e}")))?;
        Ok((s, file.into()))
    }
}

/// Runs the script: prints one answer per check-sat, models and values on request.
pub fn run(opts: &SolveOptions) -> anyhow::Result<ExitCode> {
    let (src, name) = read_input(&opts.file)?;
    let script = parse_script(&src, &name).map_err(|e| Failure::Input(e.to_string()))?;
    crate::validate::check_backends(&opts.solver)?;
    let mut solver = fpsym_solver::build_with_workers(&opts.solver, opts.session.workers());
    let out = std::io::stdout();
    let mut out = out.lock();
    let started = Instant::now();
    let script_opts = ScriptOptions::new(
        opts.timeout,
        opts.max_time.and_then(|d| started.checked_add(d)),
        opts.model,
    )
    // Ctrl-C or SIGTERM (`timeout 10 fpsym solve ...`) ends the running
    // check and kills a process solver's child, never left behind.
    .cancelled_by(opts.session.interrupt());
    let mut checks = 0u64;
    let res = run_script(&script, &name, solver.as_mut(), &script_opts, &mut out, &mut checks);
    out.flush().ok();
    if opts.stats_json {
        let mut m = serde_json::Map::new();
        m.insert("solver".into(), solver.name().into());
        m.insert("check_sat".into(), checks.into());
        m.insert("wall_seconds".into(), started.elapsed().as_secs_f64().into());
        for (k, v) in solver.stats() {
            m.insert(
                k,
                serde_json::Number::from_f64(v)
                    .map(Into::into)
                    .unwrap_or(serde_json::Value::Null),
            );
        }
        eprintln!("{}", serde_json::Value::Object(m));
    }
    res.map_err(|e| match e {
        ScriptError::Input { .. } => anyhow::Error::from(Failure::Input(e.to_string())),
        ScriptError::Solver { .. } => Failure::Internal(e.to_string()).into(),
        ScriptError::Io(e) => e.into(),
    })?;
    Ok(ExitCode::SUCCESS)
}
