//! The records of `fpsym batch` and `fpsym merge`: `DIR/batch.json` (what
//! the batch was asked to do) and `DIR/results.jsonl` (one line per
//! function analysed, appended as each ends, so an interrupted batch keeps
//! what it finished and `--resume` knows what is left).

use crate::{FindingKind, ReportError};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;

/// `DIR/results.jsonl`.
pub const RESULTS: &str = "results.jsonl";
/// `DIR/batch.json`.
pub const BATCH_RECORD: &str = "batch.json";

/// The `why` of a function a merge lacks (its shard was not merged); the
/// reports show it as missing (a failing JUnit case).
pub const MISSING: &str = "missing from the merge";

/// How one function's child process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JobStatus {
    /// It ran to its end within its limits (whatever the verdict).
    Done,
    /// It died of a signal, or fpsym failed inside (exit 3): `why` says.
    Crashed,
    /// It reached its time limit: stopped there (what it found is kept)
    /// or, when it did not stop, killed.
    TimedOut,
    /// It reached its memory limit: stopped there or killed.
    OutOfMemory,
    /// It could not be analysed (an input error, exit 2, e.g. a parameter
    /// type the harness cannot make symbolic): `why` says.
    Skipped,
}

impl JobStatus {
    /// The kebab-case name (`timed-out`, ...).
    pub fn name(self) -> &'static str {
        match self {
            JobStatus::Done => "done",
            JobStatus::Crashed => "crashed",
            JobStatus::TimedOut => "timed-out",
            JobStatus::OutOfMemory => "out-of-memory",
            JobStatus::Skipped => "skipped",
        }
    }
}

/// One finding of a function, as `results.jsonl` lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobFinding {
    /// Its kind.
    pub kind: FindingKind,
    /// Its file.
    pub file: String,
    /// Its line.
    pub line: u32,
    /// Whether native replay confirmed it; `None` when replay did not run
    /// (the mode's `--replay` not given).
    pub confirmed: Option<bool>,
}

/// One line of `results.jsonl`: a function and how its analysis ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobResult {
    /// The file defining the function, as given on the command line.
    pub file: String,
    /// The function.
    pub function: String,
    /// How its process ended.
    pub status: JobStatus,
    /// Why, when the status is not `done` (or the run's own reason).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// The run's verdict (`bug-found`, `verified`, `incomplete`,
    /// `feasible`, `infeasible`, `unknown`), when it wrote one.
    pub verdict: Option<String>,
    /// Its findings.
    pub findings: Vec<JobFinding>,
    /// Wall seconds of its process (analysis, replay and reports).
    pub time: f64,
    /// Its output directory, relative to the batch's.
    pub dir: String,
    /// The process's exit code (`None`: killed by a signal).
    pub exit_code: Option<i32>,
    /// The mode's own answer, when it writes one (`error`: the maximum
    /// relative error, its inputs and output; `critical`: the answer per
    /// side; `path`: the verdict and the test): the small fields of its
    /// record (`error.json`, `critical.json`, `path.json`, `paths.json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<serde_json::Value>,
    /// The run's own reason for its verdict (kept in `why` when the
    /// status says nothing more).
    #[serde(skip)]
    pub verdict_why: Option<String>,
}

impl JobResult {
    /// The key sharding and `--resume` use.
    pub fn key(&self) -> (String, String) {
        (self.file.clone(), self.function.clone())
    }
}

/// What a batch was asked to do (`DIR/batch.json`): `--resume` and
/// `fpsym merge` check that runs they combine asked the same.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BatchRecord {
    /// fpsym's version.
    pub version: String,
    /// The mode each function ran (`run`, `exceptions`, ...).
    pub mode: String,
    /// The library's files, as given.
    pub files: Vec<String>,
    /// The mode's options, as given.
    pub mode_args: Vec<String>,
    /// How the functions were chosen (`--all-functions`, `--functions
    /// f,g`, `--manifest FILE`).
    pub selection: String,
    /// `--shard I/N` as `[I, N]`.
    pub shard: Option<(u32, u32)>,
    /// Seconds per function.
    pub max_time_per_function: f64,
    /// MiB per function, when limited.
    pub max_memory_per_function: Option<u64>,
    /// Every (file, function) of the whole batch (all shards), in order.
    pub jobs: Vec<(String, String)>,
    /// Functions of the C files `--all-functions` left out, each
    /// `NAME: why`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<String>,
    /// After `fpsym merge`: the functions of `jobs` no merged directory
    /// had (a shard missing).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<(String, String)>,
}

/// Reads `DIR/results.jsonl` (missing: empty). A torn last line (a batch
/// killed while writing it) is dropped; any other bad line is an error.
pub fn read_results(dir: &Path) -> Result<Vec<JobResult>, ReportError> {
    let path = dir.join(RESULTS);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => return Err(ReportError::Io { path, source }),
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str(line) {
            Ok(r) => out.push(r),
            Err(_) if i + 1 == lines.len() && !text.ends_with('\n') => {}
            Err(e) => {
                return Err(ReportError::Format {
                    path,
                    message: format!("line {}: {e}", i + 1),
                })
            }
        }
    }
    Ok(out)
}

/// Appends one line to `DIR/results.jsonl` and flushes it to disk.
pub fn append_result(dir: &Path, r: &JobResult) -> Result<(), ReportError> {
    let path = dir.join(RESULTS);
    let io = |source| ReportError::Io {
        path: path.clone(),
        source,
    };
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(io)?;
    let line = serde_json::to_string(r).map_err(|e| ReportError::Format {
        path: path.clone(),
        message: e.to_string(),
    })?;
    f.write_all(format!("{line}\n").as_bytes()).map_err(io)?;
    f.sync_data().map_err(io)
}

/// Writes `DIR/results.jsonl` anew with `results` (sorted by file and
/// function), through a temporary file renamed over it.
pub fn write_results(dir: &Path, results: &[JobResult]) -> Result<(), ReportError> {
    let mut sorted: Vec<&JobResult> = results.iter().collect();
    sorted.sort_by_key(|a| a.key());
    let mut text = String::new();
    for r in sorted {
        let line = serde_json::to_string(r).map_err(|e| ReportError::Format {
            path: dir.join(RESULTS),
            message: e.to_string(),
        })?;
        text.push_str(&line);
        text.push('\n');
    }
    let tmp = dir.join(format!("{RESULTS}.tmp"));
    std::fs::write(&tmp, text).map_err(|source| ReportError::Io {
        path: tmp.clone(),
        source,
    })?;
    std::fs::rename(&tmp, dir.join(RESULTS)).map_err(|source| ReportError::Io {
        path: dir.join(RESULTS),
        source,
    })
}

/// Totals over a batch's results: the console summary and the batch
/// report count the same things.
#[derive(Debug, Default)]
pub struct Totals {
    /// Functions by status name.
    pub status: BTreeMap<&'static str, usize>,
    /// Functions by verdict (`none` without one).
    pub verdicts: BTreeMap<String, usize>,
    /// Findings by kind name.
    pub kinds: BTreeMap<String, KindTotal>,
    /// Seconds of all functions' processes.
    pub seconds: f64,
}

/// The findings of one kind over a batch.
#[derive(Debug, Default)]
pub struct KindTotal {
    /// How many.
    pub findings: usize,
    /// Distinct (file, line).
    pub locations: BTreeSet<(String, u32)>,
    /// Distinct (file, function).
    pub functions: BTreeSet<(String, String)>,
    /// Confirmed by native replay.
    pub confirmed: usize,
    /// Replayed (confirmed or not).
    pub replayed: usize,
}

impl Totals {
    /// The totals of `results`.
    pub fn of<'a>(results: impl IntoIterator<Item = &'a JobResult>) -> Totals {
        let mut t = Totals::default();
        for r in results {
            *t.status.entry(r.status.name()).or_default() += 1;
            *t.verdicts
                .entry(r.verdict.clone().unwrap_or_else(|| "none".into()))
                .or_default() += 1;
            t.seconds += r.time;
            for f in &r.findings {
                let k = t.kinds.entry(f.kind.name().to_string()).or_default();
                k.findings += 1;
                k.locations.insert((f.file.clone(), f.line));
                k.functions.insert(r.key());
                k.replayed += usize::from(f.confirmed.is_some());
                k.confirmed += usize::from(f.confirmed == Some(true));
            }
        }
        t
    }
}

/// The shard (0 to `n` - 1) of a function: FNV-1a (64 bits) of
/// `file`, a NUL byte and `function`, mixed by MurmurHash3's 64-bit
/// finalizer (FNV-1a's low bits are a parity of the bytes' low bits: alone,
/// modulo 2 it split 101 GSL functions 68/33), modulo `n`. Stable across
/// machines, runs and fpsym versions (the file as given on the command
/// line, so every shard must be given the same paths).
pub fn shard_of(file: &str, function: &str, n: u32) -> u32 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in file.bytes().chain([0]).chain(function.bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    (h % u64::from(n.max(1))) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(f: &str) -> JobResult {
        JobResult {
            file: "lib.c".into(),
            function: f.into(),
            status: JobStatus::TimedOut,
            why: Some("stopped at 5 s".into()),
            verdict: Some("incomplete".into()),
            findings: vec![JobFinding {
                kind: FindingKind::FpOverflow,
                file: "lib.c".into(),
                line: 3,
                confirmed: Some(true),
            }],
            time: 1.5,
            dir: format!("functions/lib/{f}"),
            exit_code: Some(4),
            result: None,
            verdict_why: None,
        }
    }

    const FIXED: [u32; 3] = [868, 889, 317];

    #[test]
    fn results_round_trip_and_torn_line() {
        let dir = std::env::temp_dir().join(format!("fpsym-report-batch-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        struct Dir(std::path::PathBuf);
        impl Dir {
            fn path(&self) -> &Path {
                &self.0
            }
        }
        impl Drop for Dir {
            fn drop(&mut self) {
                let _ = std::fs::remove_dir_all(&self.0);
            }
        }
        let dir = Dir(dir);
        append_result(dir.path(), &job("b")).unwrap();
        append_result(dir.path(), &job("a")).unwrap();
        let text = std::fs::read_to_string(dir.path().join(RESULTS)).unwrap();
        assert!(text.contains("\"status\":\"timed-out\""), "{text}");
        assert!(text.contains("\"kind\":\"fp-overflow\""), "{text}");
        // A batch killed while writing its last line.
        std::fs::write(dir.path().join(RESULTS), format!("{text}{{\"file\":\"li")).unwrap();
        let back = read_results(dir.path()).unwrap();
        assert_eq!(back, vec![job("b"), job("a")]);
        write_results(dir.path(), &back).unwrap();
        let sorted = read_results(dir.path()).unwrap();
        assert_eq!(sorted, vec![job("a"), job("b")]);
        // A bad line in the middle is an error naming it.
        std::fs::write(dir.path().join(RESULTS), "nonsense\n{}\n").unwrap();
        let e = read_results(dir.path()).unwrap_err().to_string();
        assert!(e.contains("line 1"), "{e}");
    }

    #[test]
    fn shards_are_stable_and_spread() {
        // Fixed values: a change here re-shards every cluster's batches.
        assert_eq!(shard_of("lib.c", "f", 1), 0);
        assert_eq!(
            [
                shard_of("lib.c", "f", 1000),
                shard_of("lib.c", "g", 1000),
                shard_of("src/a.c", "f", 1000)
            ],
            FIXED
        );
        // Even for 2 to 16 shards, over names that differ in one letter
        // or in their length (FNV-1a alone fails this at n = 2).
        let names: Vec<(String, String)> = ["airy", "exp", "log", "gamma", "zeta", "psi", "bessel_J0"]
            .iter()
            .flat_map(|f| {
                let file = format!("specfunc/{f}.c");
                [
                    "_e",
                    "",
                    "_e10_e",
                    "_int",
                    "_mult_e",
                    "_deriv_e",
                    "_array",
                    "_scaled_e",
                    "_x",
                ]
                .iter()
                .flat_map(move |s| {
                    let file = file.clone();
                    (0..4).map(move |k| (file.clone(), format!("gsl_sf_{f}{}{s}", "_".repeat(k))))
                })
                .collect::<Vec<_>>()
            })
            .collect();
        for n in 2..=16u32 {
            let mut c = vec![0usize; n as usize];
            for (f, g) in &names {
                c[shard_of(f, g, n) as usize] += 1;
            }
            let want = names.len() as f64 / f64::from(n);
            assert!(
                c.iter().all(|&k| (k as f64 - want).abs() < 4.5 * want.sqrt()),
                "n = {n}: {c:?}"
            );
        }
        // `f` and `f_e` (GSL's pairs) are not tied to one shard: with FNV-1a
        // alone (`_` and `e` are both odd bytes) they always were at n = 2.
        let same = (0..200)
            .filter(|i| {
                let f = format!("gsl_sf_f{i}");
                shard_of("specfunc/x.c", &f, 2) == shard_of("specfunc/x.c", &format!("{f}_e"), 2)
            })
            .count();
        assert!((70..=130).contains(&same), "{same} of 200 pairs together");
        assert_ne!(shard_of("a.c", "bc", 1 << 31), shard_of("a.cb", "c", 1 << 31));
    }
}
