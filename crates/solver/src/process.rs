//! The `process` backend: any solver binary that reads SMT-LIB 2 on its
//! standard input (`z3 -in`, `cvc5 --lang smt2`, Bitwuzla through
//! `scripts/bitwuzla-smt2`, ...).
//!
//! Each query runs in a fresh child process: the query is written as a
//! standalone script ending in `(check-sat)` and `(get-value (vars…))`,
//! standard input is closed, and the answer is read from standard output.
//! A child still running at the deadline (or when the budget is cancelled)
//! is killed and reaped, and the answer is `unknown` (timeout). One process
//! per query costs a few milliseconds and keeps every query independent of
//! the solver's incremental state; no solver-specific timeout option is
//! needed because the child is killed.

use crate::{Budget, Query, Reason, SolveResult, Solver, SolverError};
use fpsym_smtlib::{print_script, Command, Script};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How often a waiting query looks at its budget.
const TICK: Duration = Duration::from_millis(10);

/// A solver command line: the program and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessConfig {
    /// The executable (looked up in `PATH` when it has no `/`).
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
}

impl ProcessConfig {
    /// Parses a command line with shell-like quoting (`cvc5 --lang smt2`,
    /// `"my solver" -in`). None if it is empty or badly quoted.
    pub fn parse(command: &str) -> Option<ProcessConfig> {
        let mut words = shlex::split(command)?;
        if words.is_empty() {
            return None;
        }
        let program = words.remove(0);
        Some(ProcessConfig { program, args: words })
    }

    /// The command line, as given.
    pub fn command_line(&self) -> String {
        let mut words = vec![self.program.clone()];
        words.extend(self.args.iter().cloned());
        shlex::try_join(words.iter().map(String::as_str)).unwrap_or_else(|_| words.join(" "))
    }
}

/// Decides queries with an external solver process; see the module
/// documentation.
pub struct ProcessSolver {
    config: ProcessConfig,
    stats: Stats,
}

#[derive(Default, Clone, Copy)]
struct Stats {
    queries: u64,
    sat: u64,
    unsat: u64,
    unknown: u64,
    killed: u64,
    seconds: f64,
}

impl ProcessSolver {
    /// A backend running `config`'s command for each query.
    pub fn new(config: ProcessConfig) -> ProcessSolver {
        ProcessSolver {
            config,
            stats: Stats::default(),
        }
    }

    fn error(&self, message: impl Into<String>) -> SolverError {
        SolverError::Backend {
            backend: self.name(),
            message: message.into(),
        }
    }

    fn spawn(&self) -> Result<Child, SolverError> {
        use std::os::unix::process::CommandExt;
        // The child must die with fpsym, SIGKILL included: PR_SET_PDEATHSIG,
        // set by util-linux's `setpriv --pdeathsig KILL`, which then execs
        // the solver (same pid, the setting kept). Not through
        // `Command::pre_exec`: a pre_exec hook makes std fork() instead of
        // posix_spawn(), and fork() runs libz3's prefork handler, which
        // waits for the allocator lock of any Z3 running in another thread
        // (a portfolio's z3 member): spawns then stalled until their
        // deadline, every cvc5 query a timeout. Without setpriv (not on
        // PATH) the solver starts directly and only outlives a killed fpsym.
        // The solver is looked up first, so that a missing one is named
        // here rather than by setpriv's exit status.
        let program = &self.config.program;
        if find_program(program).is_none() {
            return Err(self.error(format!(
                "cannot start `{}`: `{program}` not found (not an executable file, nor on PATH)",
                self.config.command_line()
            )));
        }
        let mut cmd = match find_program("setpriv") {
            Some(setpriv) => {
                let mut c = std::process::Command::new(setpriv);
                c.args(["--pdeathsig", "KILL", "--", program]);
                c
            }
            None => std::process::Command::new(program),
        };
        cmd.args(&self.config.args)
            // Its own process group, so that a timeout kills whatever the
            // solver started too (a wrapper script's children).
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| self.error(format!("cannot start `{}`: {e}", self.config.command_line())))
    }

    fn run(&mut self, query: &Query, budget: &Budget) -> Result<SolveResult, SolverError> {
        if budget.expired() {
            return Ok(SolveResult::Unknown(Reason::Timeout));
        }
        let vars = query.vars();
        let mut commands = vec![
            Command::SetOption(":print-success".into(), "false".into()),
            Command::SetOption(":produce-models".into(), "true".into()),
            Command::SetLogic("ALL".into()),
        ];
        // fpsym's values where SMT-LIB leaves results unspecified, spelled out.
        commands.extend(query.assertions.iter().map(|a| Command::Assert(fpsym_expr::specify(a))));
        commands.push(Command::CheckSat);
        if !vars.is_empty() {
            commands.push(Command::GetValue(vars.clone()));
        }
        commands.push(Command::Exit);
        let script = print_script(&Script {
            commands,
            ..Default::default()
        });

        let mut child = self.spawn()?;
        let mut stdin = child.stdin.take().expect("piped stdin");
        let mut stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");
        // Writer and readers on their own threads: no pipe can fill up while
        // this thread waits on another.
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(script.as_bytes());
        });
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut out = String::new();
            let r = stdout.read_to_string(&mut out);
            let _ = tx.send(r.map(|_| out));
        });
        let err_reader = std::thread::spawn(move || {
            let mut err = String::new();
            let _ = stderr.read_to_string(&mut err);
            err
        });
        let out = loop {
            match rx.recv_timeout(TICK) {
                Ok(r) => break Some(r),
                Err(mpsc::RecvTimeoutError::Timeout) if budget.expired() => break None,
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => break Some(Ok(String::new())),
            }
        };
        let Some(out) = out else {
            // Out of time: kill and reap the child; its pipes close, so the
            // helper threads end.
            kill_group(&mut child);
            let _ = child.wait();
            let _ = writer.join();
            self.stats.killed += 1;
            return Ok(SolveResult::Unknown(Reason::Timeout));
        };
        let status = child
            .wait()
            .map_err(|e| self.error(format!("cannot wait for the solver: {e}")))?;
        let _ = writer.join();
        let err = err_reader.join().unwrap_or_default();
        let out = out.map_err(|e| self.error(format!("cannot read the solver's output: {e}")))?;
        self.interpret(&out, &err, status, &vars)
    }

    /// Reads the answer to `(check-sat)` and, after `sat`, the answer to
    /// `(get-value …)`.
    fn interpret(
        &self,
        out: &str,
        err: &str,
        status: std::process::ExitStatus,
        vars: &[fpsym_expr::Term],
    ) -> Result<SolveResult, SolverError> {
        let trimmed = out.trim_start();
        let (first, rest) = trimmed.split_once('\n').unwrap_or((trimmed, ""));
        match first.trim() {
            "unsat" => Ok(SolveResult::Unsat),
            "unknown" => Ok(SolveResult::Unknown(Reason::Backend(format!(
                "{} answered unknown",
                self.config.program
            )))),
            "sat" if vars.is_empty() => Ok(SolveResult::Sat(fpsym_expr::Model::new())),
            "sat" => fpsym_smtlib::parse_values(rest, vars)
                .map(SolveResult::Sat)
                .map_err(|e| self.error(format!("cannot read the model: {e}; the solver printed:\n{rest}"))),
            _ => {
                // An `(error …)`, a crash, or no output: the solver could not
                // decide this query. Not fpsym's answer to give: unknown.
                let said = if first.is_empty() { err.trim() } else { trimmed.trim() };
                // An `(error …)` is the solver declining the query (cvc5
                // on a format or operation it refuses): unsupported, its
                // first line, so that a portfolio neither waits on it nor
                // reports it as the cause when another member ran out of
                // time.
                if said.starts_with("(error") {
                    let line: String = said.lines().next().unwrap_or("").chars().take(160).collect();
                    return Ok(SolveResult::Unknown(Reason::Unsupported(format!(
                        "{} refused the query: {line}",
                        self.config.program
                    ))));
                }
                let said: String = said.chars().take(500).collect();
                Ok(SolveResult::Unknown(Reason::Backend(format!(
                    "{} ({status}): {}",
                    self.config.program,
                    if said.is_empty() { "no output" } else { &said }
                ))))
            }
        }
    }
}

impl Solver for ProcessSolver {
    /// `process:COMMAND`.
    fn name(&self) -> String {
        format!("process:{}", self.config.command_line())
    }

    fn check(&mut self, query: &Query, budget: &Budget) -> Result<SolveResult, SolverError> {
        let start = Instant::now();
        self.stats.queries += 1;
        let r = self.run(query, budget);
        self.stats.seconds += start.elapsed().as_secs_f64();
        match &r {
            Ok(SolveResult::Sat(_)) => self.stats.sat += 1,
            Ok(SolveResult::Unsat) => self.stats.unsat += 1,
            Ok(SolveResult::Unknown(_)) => self.stats.unknown += 1,
            Err(_) => {}
        }
        r
    }

    /// `process.queries`, `process.sat`, `process.unsat`, `process.unknown`,
    /// `process.killed` (children killed at the deadline), `process.seconds`.
    fn stats(&self) -> BTreeMap<String, f64> {
        let s = self.stats;
        BTreeMap::from([
            ("process.queries".to_string(), s.queries as f64),
            ("process.sat".to_string(), s.sat as f64),
            ("process.unsat".to_string(), s.unsat as f64),
            ("process.unknown".to_string(), s.unknown as f64),
            ("process.killed".to_string(), s.killed as f64),
            ("process.seconds".to_string(), s.seconds),
        ])
    }
}

/// `program` if it names a file (it has a `/`), else the first executable
/// file of that name in `PATH`.
fn find_program(program: &str) -> Option<std::path::PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &std::path::Path| {
        std::fs::metadata(p)
            .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            .unwrap_or(false)
    };
    if program.contains('/') {
        let p = std::path::PathBuf::from(program);
        return executable(&p).then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| executable(p))
}

/// Kills the child's whole process group (it leads one, see `spawn`), then
/// the child itself in case the group is gone.
fn kill_group(child: &mut Child) {
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: kill(2) with a negative pid signals that process group;
        // the group is the child's own, made at spawn.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
}
