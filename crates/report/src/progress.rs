//! `DIR/progress.jsonl`: the run's counters over time, one line per sample
//! (about once a second while the engine runs, and once at its end), for
//! the report's "paths and coverage over time" and for CI logs.

use serde::{Deserialize, Serialize};

/// `DIR/progress.jsonl`.
pub const PROGRESS: &str = "progress.jsonl";

/// One sample of a run's counters.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProgressSample {
    /// Seconds since the engine started.
    pub seconds: f64,
    /// Instructions executed so far.
    pub instructions: u64,
    /// Paths ended so far (completed and partial).
    pub paths: u64,
    /// Tests written so far.
    pub tests: u64,
    /// Distinct findings so far.
    pub findings: u64,
    /// Branch edges of the user's code covered so far.
    pub branches_covered: u64,
    /// Branch edges of the user's code.
    pub branches_total: u64,
    /// Live states.
    pub live: u64,
    /// Solver queries so far.
    pub queries: u64,
}

impl ProgressSample {
    /// The sample of `stats` with `live` states.
    pub fn of(stats: &crate::Stats, live: usize) -> ProgressSample {
        ProgressSample {
            seconds: stats.seconds,
            instructions: stats.instructions,
            paths: stats.paths_completed + stats.paths_partial,
            tests: stats.tests,
            findings: stats.findings,
            branches_covered: stats.branches_covered,
            branches_total: stats.branches_total,
            live: live as u64,
            queries: stats.queries,
        }
    }
}

/// The samples of `DIR/progress.jsonl` (none if it does not exist; a line
/// that is not a sample, e.g. one cut short by a kill, ends the list).
pub fn read_progress(dir: &std::path::Path) -> Vec<ProgressSample> {
    let Ok(text) = std::fs::read_to_string(dir.join(PROGRESS)) else {
        return Vec::new();
    };
    text.lines().map_while(|l| serde_json::from_str(l).ok()).collect()
}
