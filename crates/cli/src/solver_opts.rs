//! `SolverArgs` → `SolverConfig`: the solver options shared by every mode.

use crate::args::{PortfolioArg, SolverArgs};
use crate::Failure;
use fpsym_solver::cp::CpConfig;
use fpsym_solver::process::ProcessConfig;
use fpsym_solver::{Backend, PortfolioMode, SolverConfig};
use std::time::Duration;

const BACKENDS: &str = "portfolio, z3, cp, ls, process:COMMAND";

fn parse_backend(flag: &str, s: &str) -> Result<Backend, Failure> {
    Backend::parse(s).ok_or_else(|| {
        Failure::Input(if s.starts_with("process:") {
            format!("{flag}: `{s}`: expected a command after `process:`, e.g. \"process:z3 -in\"")
        } else {
            format!("{flag}: unknown backend `{s}` (available: {BACKENDS})")
        })
    })
}

/// cvc5's command line in the portfolio.
const CVC5: [&str; 3] = ["cvc5", "--lang", "smt2"];

/// Validates the solver flags (no filesystem access).
pub fn solver_config(a: &SolverArgs) -> Result<SolverConfig, Failure> {
    let mut backend = parse_backend("--solver", &a.solver)?;
    let mut cross_check = a
        .cross_check
        .as_deref()
        .map(|s| parse_backend("--cross-check", s))
        .transpose()?;
    let cp_flags = a.no_ulp_max
        || a.no_linear
        || a.consistency.is_some()
        || a.var_choice.is_some()
        || a.split.is_some()
        || a.eps_direct.is_some()
        || a.eps_indirect.is_some();
    let uses_cp = |b: &Backend| matches!(b, Backend::Cp(_) | Backend::Portfolio);
    if cp_flags && !uses_cp(&backend) && !cross_check.as_ref().is_some_and(uses_cp) {
        return Err(Failure::Input(
            "--no-ulp-max, --no-linear, --consistency, --var, --split and --eps-* apply where cp runs (--solver cp or portfolio)"
                .into(),
        ));
    }
    let cp = cp_config(a)?;
    for b in std::iter::once(&mut backend).chain(cross_check.as_mut()) {
        if let Backend::Cp(c) = b {
            *c = cp.clone();
        }
    }
    let mut config = SolverConfig::default();
    config.backend = backend;
    config.cp = cp;
    config.cross_check = cross_check;
    config.portfolio = match a.portfolio {
        PortfolioArg::Parallel => PortfolioMode::Parallel,
        PortfolioArg::Sequential => PortfolioMode::Sequential {
            share: 0.2,
            cap: Duration::from_secs(2),
        },
        PortfolioArg::Staged => fpsym_solver::STAGED,
    };
    // cvc5 joins the portfolio when installed (a PATH lookup, the one
    // look outside the flags: the portfolio should use what the machine has).
    if !a.no_cvc5 && runnable(CVC5[0]) {
        config.portfolio_processes.push(ProcessConfig {
            program: CVC5[0].into(),
            args: CVC5[1..].iter().map(|s| s.to_string()).collect(),
        });
    }
    config.dump_queries = a.dump_queries.clone();
    config.cache = !a.no_cache;
    config.independence = !a.no_independence;
    Ok(config)
}

fn cp_config(a: &SolverArgs) -> Result<CpConfig, Failure> {
    let bad = |e: fpsym_solver::cp::ParseError| Failure::Input(e.to_string());
    let mut c = CpConfig::default().with_ulp_max(!a.no_ulp_max);
    if a.no_linear {
        c = c.with_linear(None);
    }
    if let Some(s) = &a.consistency {
        c = c.with_consistency(s.parse().map_err(bad)?);
    }
    if let Some(s) = &a.var_choice {
        c = c.with_var_choice(s.parse().map_err(bad)?);
    }
    if let Some(s) = &a.split {
        c = c.with_split(s.parse().map_err(bad)?);
    }
    let pct = |flag: &str, v: Option<f64>, default: f64| match v {
        None => Ok(default),
        Some(p) if (0.0..100.0).contains(&p) => Ok(p / 100.0),
        Some(p) => Err(Failure::Input(format!(
            "{flag}: expected a percentage in [0, 100), got {p}"
        ))),
    };
    let (d, i) = (c.eps_direct, c.eps_indirect);
    c = c.with_eps(
        pct("--eps-direct", a.eps_direct, d)?,
        pct("--eps-indirect", a.eps_indirect, i)?,
    );
    Ok(c)
}

/// Validates a time limit in seconds (`flag` names it in the error).
pub fn seconds(flag: &str, v: Option<f64>) -> Result<Option<Duration>, Failure> {
    match v {
        None => Ok(None),
        Some(t) if t.is_finite() && t > 0.0 && t < 1e9 => Ok(Some(Duration::from_secs_f64(t))),
        Some(t) => Err(Failure::Input(format!(
            "{flag}: expected a positive number of seconds, got {t}"
        ))),
    }
}

/// Whether `program` can be started: an executable file (a path with a
/// `/`) or a name found on `PATH`.
pub fn runnable(program: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let executable =
        |p: &std::path::Path| std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
    if program.contains('/') {
        return executable(std::path::Path::new(program));
    }
    std::env::var_os("PATH").is_some_and(|path| std::env::split_paths(&path).any(|d| executable(&d.join(program))))
}

/// Checks that every external solver the configuration names can be
/// started (its program exists and is executable, looked up in `PATH`
/// when it has no `/`): a backend that cannot run is an error naming it
/// (exit 2), not a stream of `unknown` answers.
pub fn check_backends(config: &SolverConfig) -> Result<(), Failure> {
    for (flag, b) in
        std::iter::once(("--solver", &config.backend)).chain(config.cross_check.iter().map(|b| ("--cross-check", b)))
    {
        let Backend::Process(p) = b else { continue };
        if !runnable(&p.program) {
            return Err(Failure::Input(format!(
                "{flag} process:{}: cannot run `{}`: not found{} or not executable (install it, e.g. `apt-get install {}`)",
                p.command_line(),
                p.program,
                if p.program.contains('/') { "" } else { " on PATH" },
                p.program.rsplit('/').next().unwrap_or(&p.program)
            )));
        }
    }
    Ok(())
}
