//! What a process lends its modes, and what every command leaves behind
//! beyond its own printing: the reports (SARIF, JUnit, HTML) of each
//! output directory it wrote, and, with `--json`, one summary object. The
//! modes register their directories as they make them; the caller
//! finishes the session once the command returned.

use fpsym_engine::report::json_output::{FindingWithInput, JsonOutput, RunJson};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A process's handles for the modes it runs: its Ctrl-C flag, the count
/// of solver threads its chains start (a process that exits waits for
/// them, [`fpsym_solver::Workers`]), and the output directories written.
/// Cheap to clone; the clones share everything.
#[derive(Clone, Default)]
pub struct Session {
    interrupt: Arc<AtomicBool>,
    /// Called once, when a mode first watches the flag (the CLI installs
    /// its Ctrl-C handler there: until then Ctrl-C ends the process, e.g.
    /// while `solve -` reads its script or clang compiles).
    watch: Option<Arc<std::sync::OnceLock<()>>>,
    arm: Option<Arc<dyn Fn() + Send + Sync>>,
    workers: fpsym_solver::Workers,
    outputs: Arc<Mutex<Vec<PathBuf>>>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("interrupted", &self.interrupt.load(Ordering::Relaxed))
            .field("outputs", &self.outputs)
            .finish_non_exhaustive()
    }
}

impl Session {
    /// A session whose work stops when `interrupt` is raised.
    pub fn new(interrupt: Arc<AtomicBool>) -> Session {
        Session {
            interrupt,
            ..Session::default()
        }
    }

    /// A session whose work stops when `interrupt` is raised, calling
    /// `arm` once, when a mode first asks for the flag (the CLI installs
    /// the Ctrl-C handler that raises it there).
    pub fn armed_by(interrupt: Arc<AtomicBool>, arm: impl Fn() + Send + Sync + 'static) -> Session {
        Session {
            interrupt,
            watch: Some(Arc::new(std::sync::OnceLock::new())),
            arm: Some(Arc::new(arm)),
            ..Session::default()
        }
    }

    fn watched(&self) {
        if let (Some(once), Some(arm)) = (&self.watch, &self.arm) {
            once.get_or_init(|| arm());
        }
    }

    /// The stop flag, for a run's context.
    pub fn interrupt(&self) -> Arc<AtomicBool> {
        self.watched();
        self.interrupt.clone()
    }

    /// Whether the stop flag is raised.
    pub fn interrupted(&self) -> bool {
        self.watched();
        self.interrupt.load(Ordering::Relaxed)
    }

    /// The count of the solver threads the session's chains started.
    pub fn workers(&self) -> &fpsym_solver::Workers {
        &self.workers
    }

    /// Registers an output directory the command writes (once each).
    pub fn output(&self, dir: &Path) {
        let mut s = self.outputs.lock().unwrap_or_else(|e| e.into_inner());
        if !s.iter().any(|d| d == dir) {
            s.push(dir.to_path_buf());
        }
    }

    /// The command is over with exit code `code` (and `error`, its
    /// message, when it failed): writes the reports of every registered
    /// directory, and returns the exit code (3 when a report cannot be
    /// written: an internal error) with the error, and, when `json`, the
    /// summary object of the runs written.
    pub fn finish(&self, code: u8, error: Option<&str>, json: bool) -> (u8, Option<JsonOutput>) {
        let outputs = std::mem::take(&mut *self.outputs.lock().unwrap_or_else(|e| e.into_inner()));
        let failed_on_input = code == 2;
        let mut code = code;
        let mut error = error.map(str::to_string);
        for dir in outputs.iter().filter(|d| reportable(d, failed_on_input)) {
            if let Err(e) = fpsym_render::write_reports(dir) {
                eprintln!("fpsym: internal error: reports of {}: {e}", dir.display());
                if code != 2 {
                    code = 3;
                    error.get_or_insert_with(|| format!("reports of {}: {e}", dir.display()));
                }
            }
        }
        if !json {
            return (code, None);
        }
        let runs = outputs
            .iter()
            .filter(|d| d.join(fpsym_engine::report::STATS).exists())
            .filter_map(|d| run_json(d))
            .collect();
        let out = JsonOutput {
            exit_code: code,
            error,
            runs,
        };
        (code, Some(out))
    }
}

/// Whether the reports of `dir` are written when the command ended (with
/// an input error: `failed_on_input`): not for a directory that is not there (`fpsym replay
/// missing`: the input error says so, no "internal error" after it), nor,
/// after an input error, for one that holds no run (`fpsym replay DIR` of
/// a directory that is not an output directory: nothing of fpsym's is
/// written into it; a program clang rejected: nothing to report).
fn reportable(dir: &Path, failed_on_input: bool) -> bool {
    if !dir.is_dir() {
        return false;
    }
    let holds_run = dir.join(fpsym_engine::report::RUN_RECORD).is_file()
        || dir.join(fpsym_engine::report::RESULTS).is_file()
        || std::fs::read_dir(dir.join("functions"))
            .map(|rd| {
                rd.filter_map(|e| e.ok())
                    .any(|e| e.path().join(fpsym_engine::report::RUN_RECORD).is_file())
            })
            .unwrap_or(false);
    !failed_on_input || holds_run
}

/// One run directory in `--json` (None when its `stats.json` does not
/// read): its summary with the verdict lifted, its findings each with its
/// test's inputs (as the test records them and on one line as the summary
/// prints them; both null when the test is not there; null findings when
/// they do not read), its replay's counts when replayed, and its mode's
/// own record when it writes one.
fn run_json(dir: &Path) -> Option<RunJson> {
    use fpsym_engine::report as r;
    let summary = r::read_json::<r::Summary>(&dir.join(r::STATS)).ok()?;
    let findings = r::read_findings(dir).ok().map(|findings| {
        findings
            .into_iter()
            .map(|finding| {
                let test = crate::show::read_test(dir, finding.test);
                FindingWithInput {
                    input_text: test.as_ref().map(|t| crate::show::input_line(&t.objects)),
                    input: test.map(|t| t.objects),
                    finding,
                }
            })
            .collect()
    });
    let replay = r::read_json::<r::ReplayReport>(&dir.join(r::REPLAY)).ok();
    let result = r::ModeRecord::read(dir).and_then(|record| record.ok().map(|r| r.to_value()));
    Some(RunJson::new(
        dir.display().to_string(),
        summary,
        findings,
        replay.as_ref(),
        result,
    ))
}
