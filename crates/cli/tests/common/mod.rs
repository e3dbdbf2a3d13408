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

/// The JSON file `name` of `dir` (Null when missing or unreadable).
pub fn json_in(dir: &Path, name: &str) -> serde_json::Value {
    std::fs::read_to_string(dir.join(name))
        .ok()
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or(serde_json::Value::Null)
}
