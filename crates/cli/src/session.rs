//! What every command leaves behind beyond its own printing: the reports
//! (SARIF, JUnit, HTML) of each output directory it wrote, and, with
//! `--json`, one summary object on stdout. Process-wide on purpose (the
//! binary may hold global state): the modes register their directories as
//! they make them, and `main` finishes once the command returned.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

struct Session {
    outputs: Vec<PathBuf>,
    json: Option<std::fs::File>,
}

static SESSION: Mutex<Session> = Mutex::new(Session {
    outputs: Vec::new(),
    json: None,
});

fn session() -> std::sync::MutexGuard<'static, Session> {
    SESSION.lock().unwrap_or_else(|e| e.into_inner())
}

/// Registers an output directory the command writes (once each).
pub(crate) fn output(dir: &Path) {
    let mut s = session();
    if !s.outputs.iter().any(|d| d == dir) {
        s.outputs.push(dir.to_path_buf());
    }
}

/// `--json`: from now on what fpsym prints for people goes to stderr, and
/// stdout only gets the summary object at the end.
pub(crate) fn json_to_stdout() -> std::io::Result<()> {
    use std::os::fd::FromRawFd;
    std::io::stdout().flush()?;
    // SAFETY: plain descriptor calls; the duplicate is owned by the File.
    let saved = unsafe { libc::dup(1) };
    if saved < 0 || unsafe { libc::dup2(2, 1) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    session().json = Some(unsafe { std::fs::File::from_raw_fd(saved) });
    Ok(())
}

/// The command is over with exit code `code` (and `error`, its message,
/// when it failed): writes the reports of every registered directory and,
/// with `--json`, the summary. A report that cannot be written is an
/// internal error (exit 3).
pub(crate) fn finish(code: u8, error: Option<&str>) -> u8 {
    let (outputs, json) = {
        let mut s = session();
        (std::mem::take(&mut s.outputs), s.json.take())
    };
    let failed_on_input = code == 2;
    let mut code = code;
    let mut error = error.map(str::to_string);
    for dir in outputs.iter().filter(|d| reportable(d, failed_on_input)) {
        if let Err(e) = fpsym_engine::report::write_reports(dir) {
            eprintln!("fpsym: internal error: reports of {}: {e}", dir.display());
            if code != 2 {
                code = 3;
                error.get_or_insert_with(|| format!("reports of {}: {e}", dir.display()));
            }
        }
    }
    if let Some(mut out) = json {
        let _ = std::io::stdout().flush();
        let runs: Vec<serde_json::Value> = outputs
            .iter()
            .filter(|d| d.join("stats.json").exists())
            .map(|d| run_json(d))
            .collect();
        let mut v = match runs.as_slice() {
            [one] => one.clone(),
            _ => serde_json::json!({ "runs": runs }),
        };
        v["exit_code"] = code.into();
        v["error"] = error.map_or(serde_json::Value::Null, serde_json::Value::from);
        let text = serde_json::to_string(&v).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
        let _ = writeln!(out, "{text}");
    }
    code
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

/// A finding in `--json`: the record (`findings/NNN-KIND.json`) with its
/// test's inputs, as the test records them (`input`) and on one line as
/// the summary prints them (`input_text`); both null when the test is
/// not there.
#[derive(serde::Serialize)]
struct FindingWithInput<'a> {
    #[serde(flatten)]
    finding: &'a fpsym_engine::report::Finding,
    input: Option<Vec<fpsym_engine::report::TestObject>>,
    input_text: Option<String>,
}

/// One run directory as JSON: `output`, `verdict` and `why`, `stop`,
/// `stats`, `findings` (each with its test's `input`), `replay` (confirmed and mismatched counts, when
/// replayed) and `result` (the mode's own record, when it writes one).
fn run_json(dir: &Path) -> serde_json::Value {
    use fpsym_engine::report as r;
    let read = |name: &str| -> serde_json::Value {
        std::fs::read_to_string(dir.join(name))
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or(serde_json::Value::Null)
    };
    let mut v = read(r::STATS);
    if !v.is_object() {
        v = serde_json::json!({});
    }
    // `"verdict": {"verdict": V, "why": W}` in stats.json: lifted to
    // `"verdict": V, "why": W`.
    if let Some(inner) = v.get("verdict").filter(|x| x.is_object()).cloned() {
        v["verdict"] = inner["verdict"].clone();
        v["why"] = inner.get("why").cloned().unwrap_or(serde_json::Value::Null);
    }
    v["output"] = dir.display().to_string().into();
    v["findings"] = r::read_findings(dir)
        .ok()
        .and_then(|findings| {
            let with_input: Vec<FindingWithInput> = findings
                .iter()
                .map(|f| {
                    let test = crate::show::read_test(dir, f.test);
                    FindingWithInput {
                        input_text: test.as_ref().map(|t| crate::show::input_line(&t.objects)),
                        input: test.map(|t| t.objects),
                        finding: f,
                    }
                })
                .collect();
            serde_json::to_value(with_input).ok()
        })
        .unwrap_or(serde_json::Value::Null);
    if let Ok(rep) = r::read_json::<r::ReplayReport>(&dir.join(r::REPLAY)) {
        v["replay"] = serde_json::json!({
            "tests": rep.tests.len(),
            "findings": rep.findings.len(),
            "unconfirmed": rep.unconfirmed(),
            "mismatched": rep.mismatched(),
            "coverage": rep.coverage,
        });
    }
    if let Some(name) = fpsym_engine::report::MODE_RECORDS.iter().find(|n| dir.join(n).exists()) {
        v["result"] = read(name);
    }
    v
}
