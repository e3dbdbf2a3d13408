//! `fpsym solve`: run an SMT-LIB script against a solver chain.

use crate::args::{SolveArgs, StatsFormat};
use crate::solver_opts::{seconds, solver_config};
use crate::Failure;
use anyhow::Context;
use fpsym_expr::{eval, Model, Term};
use fpsym_smtlib::{parse_script, print_model, print_term, Command, Script};
use fpsym_solver::{Budget, Query, SolveResult, SolverConfig, SolverError};
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
    /// Print statistics at the end.
    pub stats: Option<StatsFormat>,
}

impl SolveOptions {
    /// Validates raw flags (no filesystem access).
    pub fn from_args(a: SolveArgs) -> Result<SolveOptions, Failure> {
        Ok(SolveOptions {
            solver: solver_config(&a.solver)?,
            timeout: seconds("--timeout", a.timeout)?,
            max_time: seconds("--max-time", a.max_time)?,
            file: a.file,
            model: a.model,
            stats: a.stats,
        })
    }
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
    let mut solver = fpsym_solver::build_with_workers(&opts.solver, &crate::WORKERS);
    let out = std::io::stdout();
    let mut out = out.lock();
    let started = Instant::now();
    let mut checks = 0u64;
    let global = Budget::until(opts.max_time.and_then(|d| started.checked_add(d)));
    let res = execute(&script, &name, opts, &global, solver.as_mut(), &mut out, &mut checks);
    out.flush().ok();
    if let Some(StatsFormat::Json) = opts.stats {
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
    res?;
    Ok(ExitCode::SUCCESS)
}

fn execute(
    script: &Script,
    name: &str,
    opts: &SolveOptions,
    global: &Budget,
    solver: &mut dyn fpsym_solver::Solver,
    out: &mut impl Write,
    checks: &mut u64,
) -> anyhow::Result<()> {
    // The assertion stack: one frame per push level.
    let mut frames: Vec<Vec<Term>> = vec![vec![]];
    let mut last_model: Option<Model> = None;
    for (i, cmd) in script.commands.iter().enumerate() {
        let at = || format!("{name}:{}", script.pos(i).map(|p| p.to_string()).unwrap_or_default());
        match cmd {
            Command::Assert(t) => frames.last_mut().unwrap().push(t.clone()),
            Command::Push(n) => {
                for _ in 0..*n {
                    frames.push(vec![]);
                }
            }
            Command::Pop(n) => {
                let n = *n as usize;
                if n >= frames.len() {
                    return Err(Failure::Input(format!(
                        "{}: pop {n} exceeds the {} pushed level(s)",
                        at(),
                        frames.len() - 1
                    ))
                    .into());
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
                // Dynamic timeout (seed 004 V-B): at most --timeout, and never
                // past the script's --max-time.
                let budget = match opts.timeout {
                    Some(t) => global.at_most(t),
                    None => global.clone(),
                };
                *checks += 1;
                let result = solver.check(&query, &budget).map_err(|e| match e {
                    SolverError::InvalidModel { .. }
                    | SolverError::Backend { .. }
                    | SolverError::Disagreement { .. } => Failure::Internal(format!("{}: check-sat: {e}", at())),
                })?;
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
                        let v = eval(t, &m).with_context(|| format!("{}: get-value", at()))?;
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

/// Prints a model in SMT-LIB form, followed by comment lines giving binary32
/// and binary64 values in decimal for people reading along.
fn write_model(out: &mut impl Write, m: &Model) -> std::io::Result<()> {
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
