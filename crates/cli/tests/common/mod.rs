//! Helpers shared by the CLI's test binaries (`mod common;`).
#![allow(dead_code)]

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
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("replay.json")).unwrap()).unwrap();
    assert!(
        r["findings"].as_array().unwrap().iter().all(|f| f["confirmed"] == true),
        "{r}"
    );
    text
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

/// The JSON file `name` of `dir` (Null when missing or unreadable). A
/// record fpsym reads back (a mode's record, stats.json, run.json,
/// replay.json, fuzz.json) must also read as its type: the test fails
/// otherwise.
pub fn json_in(dir: &Path, name: &str) -> serde_json::Value {
    let v = std::fs::read_to_string(dir.join(name))
        .ok()
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or(serde_json::Value::Null);
    if !v.is_null() {
        typed(&dir.join(name));
    }
    v
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
