//! Running an SMT-LIB script against a solver (what `fpsym solve` does):
//! the assertion stack (`push`/`pop`/`reset`), `check-sat` and
//! `check-sat-assuming` each with a per-check timeout inside the script's
//! deadline, `get-model`, `get-value`, `echo`, `exit`. Answers are written
//! as SMT-LIB text to a writer the caller gives.

use crate::{Budget, Query, SolveResult, Solver, SolverError};
use fpsym_expr::{eval, Model, Term};
use fpsym_smtlib::{print_model, print_term, Command, Script};
use std::io::Write;
use std::time::{Duration, Instant};

/// How a script runs.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct ScriptOptions {
    /// Time limit per check-sat (seed 004's dynamic timeout: never past
    /// `deadline` either). Default: none.
    pub timeout: Option<Duration>,
    /// End of the whole script. Default: none.
    pub deadline: Option<Instant>,
    /// Write the model after each `sat`. Default: false.
    pub model: bool,
    /// Raised to stop: the running check ends `unknown` at once (a
    /// process solver's child is killed), and so does every later one.
    /// Default: none.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl ScriptOptions {
    /// Options with these limits and model printing.
    pub fn new(timeout: Option<Duration>, deadline: Option<Instant>, model: bool) -> ScriptOptions {
        ScriptOptions {
            timeout,
            deadline,
            model,
            cancel: None,
        }
    }

    /// The same options, stopped when `flag` is raised (Ctrl-C, SIGTERM).
    pub fn cancelled_by(mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) -> ScriptOptions {
        self.cancel = Some(flag);
        self
    }
}

/// Why a script stopped before its end.
#[derive(Debug, thiserror::Error)]
pub enum ScriptError {
    /// The script is wrong at `at` (`FILE:LINE:COL`), e.g. a `pop` below
    /// the bottom of the stack or a `get-value` that cannot be evaluated.
    #[error("{at}: {message}")]
    Input {
        /// Where.
        at: String,
        /// What.
        message: String,
    },
    /// A check-sat failed with an error that is not an answer (a bug in
    /// fpsym or a backend).
    #[error("{at}: check-sat: {error}")]
    Solver {
        /// Where.
        at: String,
        /// The error.
        error: SolverError,
    },
    /// The output could not be written.
    #[error("cannot write the answers: {0}")]
    Io(#[from] std::io::Error),
}

/// Runs `script` (`name` for positions in errors) against `solver`, writing
/// one answer per check-sat and models and values on request to `out`;
/// `checks` counts the check-sats asked (also when an error stops the
/// script).
pub fn run_script(
    script: &Script,
    name: &str,
    solver: &mut dyn Solver,
    opts: &ScriptOptions,
    out: &mut dyn Write,
    checks: &mut u64,
) -> Result<(), ScriptError> {
    let global = Budget {
        deadline: opts.deadline,
        cancel: opts.cancel.clone(),
    };
    // The assertion stack: one frame per push level.
    let mut frames: Vec<Vec<Term>> = vec![vec![]];
    let mut last_model: Option<Model> = None;
    for (i, cmd) in script.commands.iter().enumerate() {
        let at = || format!("{name}:{}", script.pos(i).map(|p| p.to_string()).unwrap_or_default());
        match cmd {
            Command::Assert(t) => frames.last_mut().expect("the bottom frame").push(t.clone()),
            Command::Push(n) => {
                for _ in 0..*n {
                    frames.push(vec![]);
                }
            }
            Command::Pop(n) => {
                let n = *n as usize;
                if n >= frames.len() {
                    return Err(ScriptError::Input {
                        at: at(),
                        message: format!("pop {n} exceeds the {} pushed level(s)", frames.len() - 1),
                    });
                }
                frames.truncate(frames.len() - n);
                last_model = None;
            }
            Command::Reset | Command::ResetAssertions => {
                frames = vec![vec![]];
                last_model = None;
            }
            Command::CheckSat | Command::CheckSatAssuming(_) => {
                let mut assertions: Vec<Term> = frames.iter().flatten().cloned().collect();
                if let Command::CheckSatAssuming(extra) = cmd {
                    assertions.extend(extra.iter().cloned());
                }
                let query = Query::new(assertions);
                // Dynamic timeout (seed 004 V-B): at most the per-check
                // timeout, and never past the script's deadline.
                let budget = match opts.timeout {
                    Some(t) => global.at_most(t),
                    None => global.clone(),
                };
                *checks += 1;
                let result = solver
                    .check(&query, &budget)
                    .map_err(|error| ScriptError::Solver { at: at(), error })?;
                writeln!(out, "{}", result.label())?;
                last_model = match result {
                    SolveResult::Sat(m) => {
                        if opts.model {
                            write_model(out, &m)?;
                        }
                        Some(m)
                    }
                    _ => None,
                };
            }
            Command::GetModel => match &last_model {
                Some(m) => write_model(out, m)?,
                None => writeln!(out, "(error \"{}: get-model: no model available\")", at())?,
            },
            Command::GetValue(ts) => match &last_model {
                Some(m) => {
                    let mut m = m.clone();
                    let vars: Vec<Term> = ts.iter().flat_map(|t| t.vars()).collect();
                    m.complete(&vars);
                    write!(out, "(")?;
                    for (k, t) in ts.iter().enumerate() {
                        let v = eval(t, &m).map_err(|e| ScriptError::Input {
                            at: at(),
                            message: format!("get-value: {e}"),
                        })?;
                        if k > 0 {
                            write!(out, "\n ")?;
                        }
                        write!(out, "({} {})", print_term(t), v)?;
                    }
                    writeln!(out, ")")?;
                }
                None => writeln!(out, "(error \"{}: get-value: no model available\")", at())?,
            },
            Command::Echo(s) => writeln!(out, "{s}")?,
            Command::Exit => break,
            _ => {}
        }
    }
    Ok(())
}

/// Writes a model in SMT-LIB form, followed by comment lines giving
/// binary32 and binary64 values in decimal for people reading along.
pub fn write_model(out: &mut dyn Write, m: &Model) -> std::io::Result<()> {
    let text = print_model(m);
    write!(out, "{}", text)?;
    if !text.ends_with('\n') {
        writeln!(out)?;
    }
    for (var, value) in m.iter() {
        if let (Some(name), fpsym_expr::Value::Fp(f)) = (var.var_name(), value) {
            if let Some(x) = f.to_f64().or_else(|| f.to_f32().map(f64::from)) {
                writeln!(out, "; {name} = {x:e}")?;
            }
        }
    }
    Ok(())
}
