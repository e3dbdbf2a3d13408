//! Query logging (`--dump-queries DIR`) and cross-checking
//! (`--cross-check BACKEND`), after KLEE-Float's use of two solvers as each
//! other's test oracle (seed 004, VI-B).

use crate::{Budget, Query, SolveResult, Solver, SolverError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Writes `query` to a new file `DIR/PREFIX-NNNNNN.smt2` as a standalone
/// script with `status` in `(set-info :status …)` and `comments` as leading
/// `;` lines. Returns the path.
///
/// `NNNNNN` is the first number from `*next` on whose file does not exist
/// yet (an existing file is never overwritten); `*next` is left one past
/// it. The caller owns the counter, so each writer numbers its own files
/// (start it at 1).
pub fn dump_query(
    dir: &Path,
    prefix: &str,
    next: &mut u64,
    query: &Query,
    status: Option<&str>,
    comments: &[String],
) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let mut text = String::new();
    for c in comments {
        for line in c.lines() {
            text.push_str("; ");
            text.push_str(line);
            text.push('\n');
        }
    }
    // Written with fpsym's values where SMT-LIB leaves results unspecified,
    // so that the status holds for every solver reading the file.
    let specified: Vec<fpsym_expr::Term> = query.assertions.iter().map(fpsym_expr::specify).collect();
    text.push_str(&fpsym_smtlib::print_query(&specified, status));
    loop {
        let n = *next;
        *next += 1;
        let path = dir.join(format!("{prefix}-{n:06}.smt2"));
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(mut f) => {
                std::io::Write::write_all(&mut f, text.as_bytes())?;
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Logs every query that reaches the wrapped solver as a standalone
/// SMT-LIB file in a directory, with the answer in `(set-info :status …)`
/// (omitted for unknown) and the solver, time and reason in comments.
///
/// Files are numbered per instance from `query-000001.smt2`, skipping
/// numbers whose file exists.
pub struct Dumping {
    inner: Box<dyn Solver>,
    dir: PathBuf,
    /// The number the next file tries first.
    next: u64,
    written: u64,
    failed: u64,
}

impl Dumping {
    /// Wraps `inner`, writing into `dir` (created when needed).
    pub fn new(inner: Box<dyn Solver>, dir: PathBuf) -> Dumping {
        Dumping {
            inner,
            dir,
            next: 1,
            written: 0,
            failed: 0,
        }
    }
}

impl Solver for Dumping {
    fn name(&self) -> String {
        self.inner.name()
    }

    /// A query that cannot be written is still decided; the failure is
    /// counted in `dump.failed`.
    fn check(&mut self, query: &Query, budget: &Budget) -> Result<SolveResult, SolverError> {
        let start = Instant::now();
        let r = self.inner.check(query, budget);
        let secs = start.elapsed().as_secs_f64();
        let (status, detail) = match &r {
            Ok(SolveResult::Unknown(why)) => ("unknown", format!("unknown: {why}")),
            Ok(x) => (x.label(), x.label().to_string()),
            Err(e) => ("unknown", format!("error: {e}")),
        };
        let comments = [format!("{}: {detail} in {secs:.3} s", self.inner.name())];
        match dump_query(&self.dir, "query", &mut self.next, query, Some(status), &comments) {
            Ok(_) => self.written += 1,
            Err(_) => self.failed += 1,
        }
        r
    }

    /// The wrapped solver's statistics plus `dump.written` and `dump.failed`.
    fn stats(&self) -> BTreeMap<String, f64> {
        let mut s = self.inner.stats();
        s.insert("dump.written".into(), self.written as f64);
        s.insert("dump.failed".into(), self.failed as f64);
        s
    }
}

/// Asks every query of two solvers. A sat/unsat disagreement is a
/// [`SolverError::Disagreement`] (the query is written to `dir` first); an
/// `unknown` from one side takes the other's answer. Disagreement files are
/// numbered per instance from `disagreement-000001.smt2`, skipping numbers
/// whose file exists.
pub struct CrossChecked {
    primary: Box<dyn Solver>,
    secondary: Box<dyn Solver>,
    dir: PathBuf,
    /// The number the next disagreement file tries first.
    next: u64,
    agreed: u64,
    one_sided: u64,
}

impl CrossChecked {
    /// Checks `primary` against `secondary`; disagreeing queries go to `dir`.
    pub fn new(primary: Box<dyn Solver>, secondary: Box<dyn Solver>, dir: PathBuf) -> CrossChecked {
        CrossChecked {
            primary,
            secondary,
            dir,
            next: 1,
            agreed: 0,
            one_sided: 0,
        }
    }
}

impl Solver for CrossChecked {
    fn name(&self) -> String {
        self.primary.name()
    }

    fn check(&mut self, query: &Query, budget: &Budget) -> Result<SolveResult, SolverError> {
        let a = self.primary.check(query, budget)?;
        let b = self.secondary.check(query, budget)?;
        match (&a, &b) {
            (SolveResult::Sat(_), SolveResult::Unsat) | (SolveResult::Unsat, SolveResult::Sat(_)) => {
                let (p, s) = (self.primary.name(), self.secondary.name());
                let comments = [format!("disagreement: {p} says {}, {s} says {}", a.label(), b.label())];
                let file = match dump_query(&self.dir, "disagreement", &mut self.next, query, None, &comments) {
                    Ok(path) => path.display().to_string(),
                    Err(e) => format!("(could not write the query to {}: {e})", self.dir.display()),
                };
                Err(SolverError::Disagreement {
                    primary: p,
                    primary_answer: a.label().into(),
                    secondary: s,
                    secondary_answer: b.label().into(),
                    file,
                })
            }
            (SolveResult::Unknown(_), SolveResult::Unknown(_)) => Ok(a),
            (SolveResult::Unknown(_), _) => {
                self.one_sided += 1;
                Ok(b)
            }
            (_, SolveResult::Unknown(_)) => {
                self.one_sided += 1;
                Ok(a)
            }
            _ => {
                self.agreed += 1;
                Ok(a)
            }
        }
    }

    /// The primary's statistics, the secondary's prefixed `secondary.`, plus `cross_check.agreed` (both definite,
    /// same answer) and `cross_check.one_sided` (one side unknown).
    fn stats(&self) -> BTreeMap<String, f64> {
        let mut s = self.primary.stats();
        for (k, v) in self.secondary.stats() {
            s.insert(format!("secondary.{k}"), v);
        }
        s.insert("cross_check.agreed".into(), self.agreed as f64);
        s.insert("cross_check.one_sided".into(), self.one_sided as f64);
        s
    }
}
