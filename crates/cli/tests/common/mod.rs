//! Helpers shared by the CLI's test binaries (`mod common;`).
#![allow(dead_code)]

use serde::de::DeserializeOwned;
use std::path::Path;
use std::process::Command;

/// `fpsym replay DIR` builds natively, re-runs every test and confirms
/// every finding: exit 0, every finding `confirmed` in replay.json, no test
/// behaving otherwise than the run said. Returns replay's output.
pub fn replay_confirms(out: &Path) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .args(["replay", out.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{}: replay\n{text}", out.display());
    assert!(
        text.contains(" 0 unconfirmed, 0 tests behaving otherwise"),
        "{}: replay\n{text}",
        out.display()
    );
    let r: fpsym_report::ReplayReport = record(out, fpsym_report::REPLAY);
    assert!(r.findings.iter().all(|f| f.confirmed), "{r:#?}");
    text
}

/// The record `name` of `dir` read through its type `T`: the test fails
/// naming the file, the type and the serde error when it is missing or
/// does not read.
pub fn record<T: DeserializeOwned>(dir: &Path, name: &str) -> T {
    fpsym_report::read_json(&dir.join(name))
        .unwrap_or_else(|e| panic!("{e} (reading it as {})", std::any::type_name::<T>()))
}

/// The record `name` of `dir` through its type, None when the file is
/// not there (the test fails when it is there and does not read).
pub fn record_if<T: DeserializeOwned>(dir: &Path, name: &str) -> Option<T> {
    dir.join(name).exists().then(|| record(dir, name))
}

/// `text` (a command's `--json` output, a JSON line) read through its
/// type `T`: the test fails with the serde error and the text otherwise.
pub fn parse<T: DeserializeOwned>(text: &str) -> T {
    serde_json::from_str(text)
        .unwrap_or_else(|e| panic!("does not read as {}: {e}\n{text}", std::any::type_name::<T>()))
}

/// `DIR/stats.json`.
pub fn summary(dir: &Path) -> fpsym_report::Summary {
    record(dir, fpsym_report::STATS)
}

/// `DIR/run.json`.
pub fn run_record(dir: &Path) -> fpsym_report::RunRecord {
    record(dir, fpsym_report::RUN_RECORD)
}

/// `DIR/replay.json`.
pub fn replay_report(dir: &Path) -> fpsym_report::ReplayReport {
    record(dir, fpsym_report::REPLAY)
}

/// The findings of `dir` (`findings/*.json`, in file-name order) through
/// their type.
pub fn findings(dir: &Path) -> Vec<fpsym_report::Finding> {
    fpsym_report::read_findings(dir).unwrap_or_else(|e| panic!("findings of {}: {e}", dir.display()))
}

/// The tests of `dir` (`tests/*.json`, by id) through their type.
pub fn tests(dir: &Path) -> Vec<fpsym_report::Test> {
    fpsym_report::read_tests(dir).unwrap_or_else(|e| panic!("tests of {}: {e}", dir.display()))
}

/// Test `id` of `dir` (`tests/NNNNNN.json`) through its type.
pub fn test(dir: &Path, id: u64) -> fpsym_report::Test {
    record(&dir.join("tests"), &format!("{id:06}.json"))
}

/// `fpsym MODE FILE --function F -o OUT ARGS` into a fresh directory named
/// by the process and `tag`: the exit code, stdout and stderr together,
/// and the directory.
pub fn run_mode(
    mode: &str,
    file: &Path,
    function: &str,
    args: &[&str],
    tag: &str,
) -> (Option<i32>, String, std::path::PathBuf) {
    let out = std::env::temp_dir().join(format!("fpsym-{mode}-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .arg(mode)
        .arg(file)
        .args(["--function", function, "-o"])
        .arg(&out)
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    (o.status.code(), text, out)
}

/// Reads the record at `path` through its type, when it is one (by file
/// name), and fails the test naming the file and why when it does not read.
pub fn typed(path: &Path) {
    use fpsym_report::critical_record::CriticalRecord;
    use fpsym_report::mode_records::{AllPathsRecord, ErrorRecord, ErrorTiming, FuzzRecord};
    use fpsym_report::{read_json, PathRecord, ReplayReport, RunRecord, Summary};
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let read = match name {
        "error.json" => read_json::<ErrorRecord>(path).map(drop),
        "error-timing.json" => read_json::<ErrorTiming>(path).map(drop),
        "critical.json" => read_json::<CriticalRecord>(path).map(drop),
        "paths.json" => read_json::<AllPathsRecord>(path).map(drop),
        "path.json" => read_json::<PathRecord>(path).map(drop),
        "fuzz.json" => read_json::<FuzzRecord>(path).map(drop),
        "stats.json" => read_json::<Summary>(path).map(drop),
        "run.json" => read_json::<RunRecord>(path).map(drop),
        "replay.json" => read_json::<ReplayReport>(path).map(drop),
        _ => Ok(()),
    };
    if let Err(e) = read {
        panic!("{} does not read as its record type: {e}", path.display());
    }
}

/// The record at `path` through its type `T` (the test fails naming the
/// file, the type and the serde error).
pub fn record_at<T: DeserializeOwned>(path: &Path) -> T {
    fpsym_report::read_json(path).unwrap_or_else(|e| panic!("{e} (reading it as {})", std::any::type_name::<T>()))
}

/// The name of the verdict of `DIR/stats.json`'s summary.
pub fn verdict(s: &fpsym_report::Summary) -> &'static str {
    s.verdict.name()
}
