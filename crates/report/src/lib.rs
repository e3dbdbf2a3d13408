//! fpsym's records, read and written in one place: tests, findings and
//! events (pushed by the engine as they are found), the run's summary
//! (`stats.json`), what it ran (`run.json`) and what replay saw
//! (`replay.json`). Every record is a serde type; readers (replay, and
//! later show, merge, batch) read the same types the writers wrote, so no
//! text is parsed back.
//!
//! [`ReportSink`] is where results go; [`DirSink`] writes today's output
//! directory layout, [`Collect`] keeps them in memory. A sink's
//! [`ReportSink::finish`] receives the run's [`Summary`]. The renderers of
//! these records (SARIF, JUnit, HTML) are the `fpsym-render` crate: the
//! engine depends on the records only.
#![deny(missing_docs)]

mod batch;
pub mod critical_record;
pub mod json_output;
pub mod mode_records;
mod progress;
mod records;
mod replay_record;
mod run_record;
pub mod show_record;
mod summary;
pub mod values;

pub use batch::{
    append_result, read_results, shard_of, write_results, BatchRecord, JobFinding, JobResult, JobStatus, KindTotal,
    Totals, BATCH_RECORD, MISSING, RESULTS,
};
pub use mode_records::{Mode, ModeRecord};
pub use progress::{read_progress, ProgressSample, PROGRESS};
pub use records::{
    article, Event, Finding, FindingKind, Frame, Goal, InputSite, KindClass, KindInfo, Level, Loc, Partial, PathEnd,
    Termination, Test, TestElement, TestObject, KINDS,
};
pub use replay_record::{
    Coverage, CoverageCount, FileLines, FindingResult, Observation, Observed, Raised, ReplayReport, TestResult,
};
pub use run_record::{EntryRecord, PathDecision, PathRecord, RunRecord, SymArgs, PATH_FOLLOWED, REACHED};
pub use summary::{seconds, PhaseTime, Property, Stats, StopReason, Summary, Verdict};
pub use values::{c_type_name, decimal, hex_float};

use serde::de::DeserializeOwned;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Why a record could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A file is not the record it should be.
    #[error("{path}: {message}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

/// `DIR/report.sarif` (written by `fpsym-render`).
pub const SARIF: &str = "report.sarif";
/// `DIR/junit.xml` (written by `fpsym-render`).
pub const JUNIT: &str = "junit.xml";
/// `DIR/report.html` (written by `fpsym-render`).
pub const HTML: &str = "report.html";
/// `DIR/run.json`.
pub const RUN_RECORD: &str = "run.json";
/// `DIR/stats.json`.
pub const STATS: &str = "stats.json";
/// `DIR/replay.json`.
pub const REPLAY: &str = "replay.json";
/// `DIR/events.jsonl`.
pub const EVENTS: &str = "events.jsonl";
/// `DIR/path.json` ([`PathRecord`]).
pub const PATH_RECORD: &str = "path.json";
/// `DIR/paths.json`: every path of a `fpsym path --all-paths` run.
pub const ALL_PATHS: &str = "paths.json";
/// The records a mode writes beside a run's own, by file name: at most
/// one is in a directory (`error`, `critical`, `path --all-paths`,
/// `path`).
pub const MODE_RECORDS: [&str; 4] = [
    mode_records::ERROR_RECORD,
    critical_record::CRITICAL_RECORD,
    ALL_PATHS,
    PATH_RECORD,
];

/// Reads a JSON record.
pub fn read_json<T: DeserializeOwned>(path: &Path) -> Result<T, ReportError> {
    let text = std::fs::read_to_string(path).map_err(|source| ReportError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|e| ReportError::Format {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

/// Writes a JSON record (pretty, with a final newline).
pub fn write_json(path: &Path, v: &impl Serialize) -> Result<(), ReportError> {
    let io = |source| ReportError::Io {
        path: path.to_path_buf(),
        source,
    };
    let text = serde_json::to_string_pretty(v).map_err(|e| io(std::io::Error::other(e)))?;
    std::fs::write(path, text + "\n").map_err(io)
}

/// The tests of an output directory, by id.
pub fn read_tests(dir: &Path) -> Result<Vec<Test>, ReportError> {
    let mut tests: Vec<Test> = read_all(&dir.join("tests"))?;
    tests.sort_by_key(|t| t.id);
    Ok(tests)
}

/// The findings of an output directory, in the order they were found.
pub fn read_findings(dir: &Path) -> Result<Vec<Finding>, ReportError> {
    read_all(&dir.join("findings"))
}

/// Every `.json` record of `dir` in file-name order (none if `dir` does
/// not exist).
fn read_all<T: DeserializeOwned>(dir: &Path) -> Result<Vec<T>, ReportError> {
    json_files(dir)?.iter().map(|p| read_json(p)).collect()
}

/// The `.json` files of `dir` in file-name order (none if `dir` does not
/// exist).
pub fn json_files(dir: &Path) -> Result<Vec<PathBuf>, ReportError> {
    let rd = match std::fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(ReportError::Io {
                path: dir.to_path_buf(),
                source,
            })
        }
    };
    let mut paths: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    Ok(paths)
}

/// Receives results as they are found. Why this shape: the engine pushes
/// and never reads back, so files, JSON lines and in-memory collection are
/// interchangeable and a killed run keeps everything already pushed; the
/// driver calls [`ReportSink::finish`] once with the summary, where
/// whole-run reports (stats, SARIF, JUnit, HTML) are written.
pub trait ReportSink {
    /// A new test.
    fn test(&mut self, t: &Test) -> std::io::Result<()>;
    /// A new distinct finding.
    fn finding(&mut self, f: &Finding) -> std::io::Result<()>;
    /// An event.
    fn event(&mut self, e: &Event) -> std::io::Result<()>;
    /// The run is over. Default: nothing to write.
    fn finish(&mut self, _summary: &Summary) -> std::io::Result<()> {
        Ok(())
    }
    /// The `index`-th finding (from 0, in the order given) is now `f`
    /// (what was learnt of it after it was reported: inputs counted,
    /// avoidable or not). Default: nothing kept to change.
    fn amend(&mut self, _index: usize, _f: &Finding) -> std::io::Result<()> {
        Ok(())
    }
}

/// Keeps everything in memory (tests, library users).
#[derive(Default, Debug)]
pub struct Collect {
    /// Tests.
    pub tests: Vec<Test>,
    /// Findings.
    pub findings: Vec<Finding>,
    /// Events.
    pub events: Vec<Event>,
    /// The summary, once finished.
    pub summary: Option<Summary>,
}

impl ReportSink for Collect {
    fn test(&mut self, t: &Test) -> std::io::Result<()> {
        self.tests.push(t.clone());
        Ok(())
    }
    fn finding(&mut self, f: &Finding) -> std::io::Result<()> {
        self.findings.push(f.clone());
        Ok(())
    }
    fn event(&mut self, e: &Event) -> std::io::Result<()> {
        self.events.push(e.clone());
        Ok(())
    }
    fn finish(&mut self, summary: &Summary) -> std::io::Result<()> {
        self.summary = Some(summary.clone());
        Ok(())
    }
    fn amend(&mut self, index: usize, f: &Finding) -> std::io::Result<()> {
        if let Some(old) = self.findings.get_mut(index) {
            *old = f.clone();
        }
        Ok(())
    }
}

/// Writes `DIR/tests/NNNNNN.json`, `DIR/findings/NNN-KIND.json` and
/// `DIR/events.jsonl`, each as soon as it is pushed, and `DIR/stats.json`
/// when the run finishes. Keeps the findings for the driver's summary.
pub struct DirSink {
    dir: PathBuf,
    events: std::fs::File,
    findings: Vec<Finding>,
}

impl DirSink {
    /// Creates the directory layout under `dir`.
    pub fn create(dir: &Path) -> std::io::Result<DirSink> {
        std::fs::create_dir_all(dir.join("tests"))?;
        std::fs::create_dir_all(dir.join("findings"))?;
        let events = std::fs::File::create(dir.join(EVENTS))?;
        Ok(DirSink {
            dir: dir.to_path_buf(),
            events,
            findings: Vec::new(),
        })
    }
    /// The findings written so far.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// Writes the `index`-th finding to `DIR/findings/NNN-KIND.json` (NNN
    /// from 1; the kind names the file, anything but kebab-case replaced).
    fn write_finding(&self, index: usize) -> std::io::Result<()> {
        let f = &self.findings[index];
        let name = format!("{:03}-{}.json", index + 1, f.kind.file_stem());
        write_json(&self.dir.join("findings").join(name), f).map_err(io_error)
    }
}

fn io_error(e: ReportError) -> std::io::Error {
    match e {
        ReportError::Io { source, .. } => source,
        e => std::io::Error::other(e.to_string()),
    }
}

impl ReportSink for DirSink {
    fn test(&mut self, t: &Test) -> std::io::Result<()> {
        write_json(&self.dir.join("tests").join(format!("{:06}.json", t.id)), t).map_err(io_error)
    }
    fn finding(&mut self, f: &Finding) -> std::io::Result<()> {
        self.findings.push(f.clone());
        self.write_finding(self.findings.len() - 1)
    }
    fn amend(&mut self, index: usize, f: &Finding) -> std::io::Result<()> {
        match self.findings.get_mut(index) {
            Some(old) => *old = f.clone(),
            None => return Err(std::io::Error::other(format!("no finding {index} to amend"))),
        }
        self.write_finding(index)
    }
    fn event(&mut self, e: &Event) -> std::io::Result<()> {
        let line = serde_json::to_string(e).map_err(std::io::Error::other)?;
        writeln!(self.events, "{line}")
    }
    fn finish(&mut self, summary: &Summary) -> std::io::Result<()> {
        write_json(&self.dir.join(STATS), summary).map_err(io_error)
    }
}

/// Entries of a directory that show an earlier run wrote there.
const RUN_MARKERS: [&str; 4] = [RUN_RECORD, STATS, "tests", "findings"];

/// Everything a run (and its replay) writes into its directory: what
/// `--force` may remove.
pub const RUN_ENTRIES: [&str; 21] = [
    RUN_RECORD,
    STATS,
    "tests",
    "findings",
    EVENTS,
    "build",
    "fuzz",
    "replay",
    REPLAY,
    "functions",
    "error.json",
    "error-timing.json",
    PATH_RECORD,
    ALL_PATHS,
    critical_record::CRITICAL_RECORD,
    PROGRESS,
    SARIF,
    JUNIT,
    HTML,
    "export",
    WITNESS,
];

/// The SV-COMP witness of an unreach-call run (`fpsym run --property
/// unreach-call`; written by fpsym-replay's `witness` module).
pub const WITNESS: &str = "witness.yml";

/// Why an output directory cannot be used for a run.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The path exists and is not a directory.
    #[error("{0}: exists and is not a directory")]
    NotADirectory(PathBuf),
    /// It holds an earlier run's results, and emptying was not asked for.
    #[error("{0} holds the results of an earlier run")]
    EarlierRun(PathBuf),
    /// It holds files that are not a run's results.
    #[error("{0} is not empty")]
    NotEmpty(PathBuf),
    /// Emptying it would remove an input or the current directory.
    #[error("{0}: emptying it would remove an input or the current directory")]
    HoldsInput(PathBuf),
    /// Emptying was asked for, but it also holds these files that are not
    /// a run's results.
    #[error("{dir} also holds {}", .foreign.join(", "))]
    Foreign {
        /// The directory.
        dir: PathBuf,
        /// What else it holds (names).
        foreign: Vec<String>,
    },
    /// A file system error.
    #[error("{path}: {source}")]
    Io {
        /// Where.
        path: PathBuf,
        /// What.
        source: std::io::Error,
    },
}

/// Makes `dir` ready for a run: created if missing; if it is not empty
/// (an earlier run, or anything else), refused unless `empty_earlier_run`,
/// which empties it. Emptying only removes an earlier run's results
/// ([`RUN_ENTRIES`]): a directory holding anything else (a header, a
/// property file, a script, an input) or the current directory is never
/// emptied.
pub fn prepare_output(dir: &Path, empty_earlier_run: bool, inputs: &[PathBuf]) -> Result<(), OutputError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| OutputError::Io { path, source }
    };
    if dir.exists() && !dir.is_dir() {
        return Err(OutputError::NotADirectory(dir.to_path_buf()));
    }
    let entries: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()
            .map_err(io(dir))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(io(dir)(e)),
    };
    if !entries.is_empty() {
        let earlier = RUN_MARKERS.iter().any(|m| dir.join(m).exists());
        if !empty_earlier_run {
            return Err(if earlier {
                OutputError::EarlierRun(dir.to_path_buf())
            } else {
                OutputError::NotEmpty(dir.to_path_buf())
            });
        }
        let canon = std::fs::canonicalize(dir).map_err(io(dir))?;
        let cwd = std::env::current_dir().ok().and_then(|c| std::fs::canonicalize(c).ok());
        let holds_input = inputs
            .iter()
            .filter_map(|f| std::fs::canonicalize(f).ok())
            .chain(cwd)
            .any(|p| p.starts_with(&canon));
        if holds_input {
            return Err(OutputError::HoldsInput(dir.to_path_buf()));
        }
        let foreign: Vec<String> = entries
            .iter()
            .filter_map(|e| e.file_name().map(|n| n.to_string_lossy().into_owned()))
            .filter(|n| !RUN_ENTRIES.contains(&n.as_str()))
            .collect();
        if !foreign.is_empty() {
            return Err(OutputError::Foreign {
                dir: dir.to_path_buf(),
                foreign,
            });
        }
        for e in entries {
            let removed = if e.is_dir() && !e.is_symlink() {
                std::fs::remove_dir_all(&e)
            } else {
                std::fs::remove_file(&e)
            };
            removed.map_err(io(&e))?;
        }
    }
    std::fs::create_dir_all(dir).map_err(io(dir))
}

/// A fresh `fpsym-out-N` in the current directory.
pub fn fresh_output() -> std::io::Result<PathBuf> {
    for n in 0.. {
        let p = PathBuf::from(format!("fpsym-out-{n}"));
        match std::fs::create_dir(&p) {
            Ok(()) => return Ok(p),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    unreachable!("some fpsym-out-N is free")
}
