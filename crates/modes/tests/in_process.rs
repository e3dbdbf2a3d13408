//! The modes called in process, as a library user (or `fpsym batch`)
//! would: typed options in, an exit code and the run's records out, with
//! no global state shared between two sessions of one process.

use fpsym_engine::{Config, Entry};
use fpsym_modes::run::{Replay, RunOptions};
use fpsym_modes::{raw_code, Session};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

fn example(name: &str) -> PathBuf {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/examples")
        .join(name);
    assert!(p.is_file(), "{}: the example is missing", p.display());
    p
}

fn out_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fpsym-modes-in-process-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// `fpsym run docs/examples/midpoint.c --function midpoint -o OUT --no-replay`, in process.
fn midpoint(session: &Session, out: &Path) -> RunOptions {
    let mut engine = Config::default();
    engine.entry = Entry::Function {
        name: "midpoint".into(),
        ranges: Vec::new(),
        array_len: None,
    };
    engine.limits.max_time = Some(std::time::Duration::from_secs(60));
    RunOptions {
        session: session.clone(),
        files: vec![example("midpoint.c")],
        engine,
        output: Some(out.to_path_buf()),
        replay: Replay::Never,
        ..RunOptions::default()
    }
}

#[test]
fn a_run_in_process_finds_the_bug_and_its_session_writes_the_reports() {
    let session = Session::new(Arc::new(AtomicBool::new(false)));
    let out = out_dir("found");
    let code = fpsym_modes::run::run(&midpoint(&session, &out)).expect("the run starts");
    assert_eq!(raw_code(code), 1, "midpoint's assertion fails for some input");
    let findings = fpsym_report::read_findings(&out).expect("findings are records");
    assert!(
        findings
            .iter()
            .any(|f| f.kind == fpsym_report::FindingKind::AssertionFailure),
        "{findings:?}"
    );
    // The reports are the session's to write when the command ends.
    assert!(!out.join(fpsym_report::SARIF).exists());
    let (code, summary) = session.finish(1, None, true);
    assert_eq!(code, 1);
    assert!(
        out.join(fpsym_report::SARIF).is_file(),
        "finish writes the SARIF report"
    );
    let summary = summary.expect("a summary was asked for");
    // What the CLI prints reads back as the same.
    let text = serde_json::to_string(&summary).expect("--json's summary serializes");
    let back: fpsym_report::json_output::JsonOutput =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("--json's summary does not read: {e}\n{text}"));
    assert_eq!(back, summary);
    assert_eq!(summary.exit_code, 1, "{summary:?}");
    assert_eq!(summary.run().output, out.display().to_string(), "{summary:?}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn an_interrupted_session_stops_its_own_run_and_no_other() {
    let stopped = Session::new(Arc::new(AtomicBool::new(false)));
    stopped.interrupt().store(true, Ordering::Relaxed);
    let out = out_dir("interrupted");
    let code = fpsym_modes::run::run(&midpoint(&stopped, &out)).expect("the run starts");
    assert_eq!(
        raw_code(code),
        fpsym_modes::INCOMPLETE,
        "a run stopped before it starts proves nothing"
    );
    // Another session of the same process is not stopped.
    let other = Session::new(Arc::new(AtomicBool::new(false)));
    let out2 = out_dir("not-interrupted");
    let code = fpsym_modes::run::run(&midpoint(&other, &out2)).expect("the run starts");
    assert_eq!(raw_code(code), 1);
    for d in [out, out2] {
        let _ = std::fs::remove_dir_all(d);
    }
}
