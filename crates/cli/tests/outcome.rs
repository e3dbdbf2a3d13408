//! What a command tells its caller: distinct exit codes (0 proved, 1 found,
//! 2 usage, 4 incomplete), `--json` on stdout, status lines when stderr is
//! not a terminal, `OUT/progress.jsonl`, and a backend that cannot run.

mod common;

use fpsym_report::critical_record::CriticalRecord;
use fpsym_report::json_output::JsonOutput;
use fpsym_report::{FindingKind, ProgressSample};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fpsym-outcome-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn program(dir: &Path, body: &str) -> PathBuf {
    let p = dir.join("p.c");
    std::fs::write(&p, body).unwrap();
    p
}

fn fpsym(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fpsym"));
    c.args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

/// The one JSON object `--json` prints on stdout (nothing else there).
fn json_stdout(o: &Output) -> JsonOutput {
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = out.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "stdout must hold one JSON line:\n{}", text(o));
    common::parse(lines[0])
}

const ENDLESS: &str = "double f(double x, int n) {\n  double s = 0;\n  for (int i = 0; i < n; i++) {\n    if (x > i) s += x; else s -= x;\n  }\n  return s;\n}\n";

#[test]
fn an_incomplete_run_exits_4_with_status_lines_progress_samples_and_json() {
    let dir = scratch("incomplete");
    let p = program(&dir, ENDLESS);
    let out = dir.join("out");
    let o = fpsym(
        &[
            "run",
            p.to_str().unwrap(),
            "--function",
            "f",
            "--max-time",
            "3",
            "--json",
            "-o",
            out.to_str().unwrap(),
        ],
        &[("FPSYM_STATUS_SECONDS", "0.5")],
    );
    assert_eq!(o.status.code(), Some(4), "{}", text(&o));
    let v = json_stdout(&o);
    assert_eq!(v.exit_code, 4, "{v:?}");
    let run = v.run();
    assert_eq!(run.verdict, "incomplete", "{v:?}");
    assert_eq!(run.stop.kind(), "max-time", "{v:?}");
    assert_eq!(run.output, out.to_str().unwrap(), "{v:?}");
    assert!(v.error.is_none(), "{v:?}");
    // The summary for people went to stderr; the status lines too (stderr
    // is a pipe here, not a terminal).
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("verdict: incomplete"), "{err}");
    let status: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("fpsym: ") && l.contains(" paths, "))
        .collect();
    assert!(status.len() >= 2, "status lines every 0.5 s expected:\n{err}");
    assert!(status[0].contains("branch coverage"), "{err}");
    // A sample a second, in order, the last one the run's final counters.
    let samples: Vec<ProgressSample> = std::fs::read_to_string(out.join(fpsym_report::PROGRESS))
        .expect("progress.jsonl")
        .lines()
        .map(common::parse)
        .collect();
    assert!(samples.len() >= 3, "{samples:?}");
    for w in samples.windows(2) {
        assert!(w[0].seconds <= w[1].seconds, "{samples:?}");
        assert!(w[0].paths <= w[1].paths, "{samples:?}");
    }
    let last = samples.last().unwrap();
    assert_eq!(last.tests, run.stats.tests, "{last:?} vs {v:?}");
    assert_eq!(last.branches_covered, run.stats.branches_covered, "{last:?} vs {v:?}");
}

#[test]
fn verified_exits_0_and_findings_exit_1_with_json_findings() {
    let dir = scratch("codes");
    let ok = program(&dir, "int f(double x) { if (x > 2.0) return 1; return 0; }\n");
    let o = fpsym(
        &[
            "run",
            ok.to_str().unwrap(),
            "--function",
            "f",
            "--json",
            "-o",
            dir.join("ok").to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v = json_stdout(&o);
    assert_eq!((v.exit_code, v.run().verdict.as_str()), (0, "verified"), "{v:?}");

    let bad = dir.join("bad.c");
    std::fs::write(
        &bad,
        "#include <assert.h>\nint f(double x) {\n  assert(x * x != 9.0);\n  return 0;\n}\n",
    )
    .unwrap();
    let o = fpsym(
        &[
            "run",
            bad.to_str().unwrap(),
            "--function",
            "f",
            "--json",
            "--replay",
            "-o",
            dir.join("bad").to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let v = json_stdout(&o);
    assert_eq!(v.exit_code, 1, "{v:?}");
    let run = v.run();
    assert_eq!(run.verdict, "bug-found", "{v:?}");
    let f = run.findings.as_ref().expect("findings");
    assert_eq!(f.len(), 1, "{v:?}");
    assert_eq!(
        (&f[0].finding.kind, f[0].finding.line),
        (&FindingKind::AssertionFailure, 3),
        "{v:?}"
    );
    // The replay ran in the same command, and says so.
    let replay = run.replay.as_ref().unwrap_or_else(|| panic!("{v:?}"));
    assert_eq!(replay.unconfirmed, 0, "{v:?}");
    assert_eq!(replay.findings, 1, "{v:?}");
}

#[test]
fn a_mode_record_is_the_json_result() {
    let dir = scratch("mode");
    let p = program(&dir, "double f(double x) { return x * 2.0; }\n");
    let o = fpsym(
        &[
            "critical",
            p.to_str().unwrap(),
            "--function",
            "f",
            "--range",
            "x=[1,2]",
            "--expect",
            "ret=[2,4]",
            "--json",
            "-o",
            dir.join("out").to_str().unwrap(),
        ],
        &[],
    );
    // x * 2 is exact: every side proved, exit 0.
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v = json_stdout(&o);
    // The mode's record (critical.json) as `result`.
    let result = v.run().result.clone().unwrap_or_else(|| panic!("{v:?}"));
    let c: CriticalRecord = serde_json::from_value(result).unwrap_or_else(|e| panic!("{e}: {v:?}"));
    assert_eq!(c.below.name(), "unsat", "{v:?}");
    assert_eq!(c.above.name(), "unsat", "{v:?}");
}

#[test]
fn a_backend_that_cannot_run_is_an_error_naming_it() {
    let dir = scratch("backend");
    let p = program(&dir, "int f(double x) { if (x > 2.0) return 1; return 0; }\n");
    let o = fpsym(
        &[
            "run",
            p.to_str().unwrap(),
            "--function",
            "f",
            "--solver",
            "process:fpsym-no-such-solver --in",
            "-o",
            dir.join("out").to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("cannot run `fpsym-no-such-solver`: not found on PATH"),
        "{}",
        text(&o)
    );
    let q = dir.join("q.smt2");
    std::fs::write(&q, "(declare-const x Float32)(assert (fp.eq x x))(check-sat)\n").unwrap();
    let o = fpsym(
        &[
            "solve",
            "--cross-check",
            "process:/nonexistent/cvc5",
            q.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("--cross-check process:/nonexistent/cvc5: cannot run"),
        "{}",
        text(&o)
    );
}

#[test]
fn replay_of_what_is_not_an_output_directory_writes_nothing_into_it() {
    let d = scratch("not-an-output");
    let mine = d.join("mine");
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(mine.join("notes.txt"), "mine\n").unwrap();
    let o = fpsym(&["replay", mine.to_str().unwrap()], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(!text(&o).contains("internal error"), "{}", text(&o));
    let left: Vec<_> = std::fs::read_dir(&mine)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, vec![std::ffi::OsString::from("notes.txt")], "{}", text(&o));
    // A directory that is not there: one input error, nothing else.
    let o = fpsym(&["replay", d.join("missing").to_str().unwrap(), "--test", "1"], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(!text(&o).contains("internal error"), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_run_that_cannot_start_says_why_and_leaves_no_directory() {
    let dir = scratch("nostart");
    let p = program(
        &dir,
        "double scale(double x, double k) { return x * k; }\nint twice(int n) { return 2 * n; }\n",
    );
    let p = p.to_str().unwrap();
    for (args, want) in [
        (
            vec!["--function", "scal"],
            "--function scal: no function `scal` with a body in the program; functions there: scale, twice",
        ),
        (
            vec!["--function", "scale", "--range", "y=[0,1]"],
            "--range y: `scale` has no parameter `y`; its parameters: x, k",
        ),
    ] {
        let out = dir.join("out");
        let mut a = vec!["run", p];
        a.extend(&args);
        a.extend(["-o", out.to_str().unwrap()]);
        let o = fpsym(&a, &[]);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{t}");
        assert!(t.contains(want), "{want}\n{t}");
        assert!(!out.exists(), "{t}");
    }
    // A clang error too; and C++ is named.
    let bad = dir.join("bad.c");
    std::fs::write(&bad, "int f(void) { return undeclared; }\n").unwrap();
    let out = dir.join("out");
    let o = fpsym(
        &[
            "run",
            bad.to_str().unwrap(),
            "--function",
            "f",
            "-o",
            out.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(!out.exists(), "{}", text(&o));
    let cpp = dir.join("p.cpp");
    std::fs::write(&cpp, "int f() { return 0; }\n").unwrap();
    let o = fpsym(&["run", cpp.to_str().unwrap(), "--function", "f"], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("C++ is not supported"), "{}", text(&o));
}

#[test]
fn an_out_of_bounds_access_names_the_object_and_index() {
    let dir = scratch("oob");
    let p = program(
        &dir,
        "double tab[8];\ndouble get(int i) { return tab[i]; }\ndouble loc(int i) { double a[4] = {1, 2, 3, 4}; return a[i]; }\n",
    );
    for (f, range, want) in [
        (
            "get",
            "i=[9,9]",
            "access of 8 byte(s) at `tab[9]`, past the end of `tab` (64 bytes)",
        ),
        (
            "loc",
            "i=[4,4]",
            "access of 8 byte(s) at `a[4]`, past the end of `a` (32 bytes)",
        ),
    ] {
        let out = dir.join(f);
        let o = fpsym(
            &[
                "run",
                p.to_str().unwrap(),
                "--function",
                f,
                "--range",
                range,
                "-o",
                out.to_str().unwrap(),
            ],
            &[],
        );
        let t = text(&o);
        assert_eq!(o.status.code(), Some(1), "{t}");
        assert!(t.contains(want), "{want}\n{t}");
    }
}
