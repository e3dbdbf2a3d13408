//! Checks of option values that the CLI's flag parsing and the modes
//! share: time limits, and that an external solver can be started.

use crate::Failure;
use fpsym_solver::{Backend, SolverConfig};
use std::time::Duration;

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
