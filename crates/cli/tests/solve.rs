//! End-to-end tests of `fpsym solve` on hand-written scripts with known answers.
//!
//! Each fixture in `tests/fixtures/` states its answers in a `; expect:` line;
//! the answers printed by `fpsym solve` (lines `sat`/`unsat`/`unknown`) must
//! match them in order. Models are validated inside fpsym itself (a bad model
//! exits 3), so a `sat` that passes here had a model satisfying the query.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn fpsym() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fpsym"))
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

/// The answers a backend must give: the `; expect-BACKEND:` line if the
/// fixture has one (a documented weakness, e.g. `unknown` where interval
/// reasoning cannot decide in time), else the `; expect:` line.
fn expected(path: &Path, backend: &str) -> Vec<String> {
    let src = std::fs::read_to_string(path).unwrap();
    let specific = format!("; expect-{backend}:");
    let answers = src
        .lines()
        .find_map(|l| l.strip_prefix(&specific))
        .or_else(|| src.lines().find_map(|l| l.strip_prefix("; expect:")))
        .expect("fixture has an expect line");
    answers.split_whitespace().map(String::from).collect()
}

fn answers(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| matches!(l.trim(), "sat" | "unsat" | "unknown"))
        .map(|l| l.trim().to_string())
        .collect()
}

fn solve(args: &[&str]) -> Output {
    fpsym().arg("solve").args(args).output().expect("run fpsym")
}

fn check_fixture(name: &str, backend: &str) {
    let path = fixture(name);
    let out = solve(&["--solver", backend, "--timeout", "20", path.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{name} with {backend}: exit {:?}, stderr: {stderr}",
        out.status
    );
    assert_eq!(
        answers(&out),
        expected(&path, backend),
        "{name} with {backend}: stdout:\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Every backend `fpsym solve` offers: in process, native, both, and
/// external solver binaries through a pipe.
const BACKENDS: [&str; 5] = ["z3", "cp", "portfolio", "process:z3 -in", "process:cvc5 --lang smt2"];

/// Runs the body once per backend that `fpsym solve` offers.
macro_rules! solver_test {
    ($name:ident, $file:expr) => {
        #[test]
        fn $name() {
            for backend in BACKENDS {
                check_fixture($file, backend);
            }
        }
    };
}

solver_test!(sat_with_model, "sat_model.smt2");
solver_test!(unsat_between_neighbours, "unsat_interval.smt2");
solver_test!(nan_semantics, "nan.smt2");
solver_test!(signed_zero, "signed_zero.smt2");
solver_test!(subnormal, "subnormal.smt2");
solver_test!(rounding_mode_dependent, "rounding_mode.smt2");
solver_test!(x86_fp80_format, "x86_fp80.smt2");
solver_test!(bitvector_conversions, "bitvector.smt2");

#[test]
fn model_and_values_are_printed() {
    let out = solve(&["--model", fixture("sat_model.smt2").to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("(model"), "{stdout}");
    assert!(stdout.contains("(define-fun a () (_ FloatingPoint 8 24)"), "{stdout}");
    let out = solve(&[fixture("signed_zero.smt2").to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("((x (_ -zero 8 24)))"), "get-value of -0: {stdout}");
}

#[test]
fn stdin_input() {
    let mut child = fpsym()
        .args(["solve", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"(declare-const x Float16) (assert (fp.isInfinite (fp.mul RNE x x))) (assert (fp.lt x (_ +oo 5 11))) (check-sat)")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(answers(&out), ["sat"]);
}

#[test]
fn malformed_script_is_located() {
    let out = solve(&[fixture("malformed.smt2").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.trim().lines().count(), 1, "one-line message: {stderr}");
    assert!(stderr.contains("malformed.smt2:4:"), "names file and line: {stderr}");
    assert!(out.stdout.is_empty(), "nothing decided before a parse error");
}

#[test]
fn unbalanced_paren_is_located() {
    let dir = std::env::temp_dir().join(format!("fpsym-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("unbalanced.smt2");
    std::fs::write(&f, "(declare-const x Float32)\n(assert (fp.isNaN x)\n(check-sat)\n").unwrap();
    let out = solve(&[f.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("unbalanced.smt2:2:"), "{stderr}");
}

#[test]
fn usage_errors_exit_2() {
    let out = solve(&["--solver", "nosuch", fixture("nan.smt2").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown backend"));
    let out = solve(&["--timeout", "-1", fixture("nan.smt2").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let out = solve(&["/nonexistent/file.smt2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/file.smt2"));
    let out = fpsym().args(["solve"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn stats_json() {
    let out = solve(&["--stats", "json", fixture("nan.smt2").to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = stderr.lines().last().expect("stats line");
    assert!(line.starts_with('{') && line.contains("\"check_sat\":3"), "{stderr}");
}

#[test]
fn global_time_limit_is_honoured() {
    // Three undecidable-in-time check-sats, 2 s for the whole script: each
    // query gets what is left, so the script ends within a second of the limit.
    for backend in ["portfolio", "z3", "process:z3 -in"] {
        let start = std::time::Instant::now();
        let out = solve(&[
            "--solver",
            backend,
            "--max-time",
            "2",
            fixture("hard_factor.smt2").to_str().unwrap(),
        ]);
        let took = start.elapsed();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{backend}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(answers(&out), ["unknown"; 3], "{backend}");
        assert!(took < std::time::Duration::from_secs(3), "{backend}: {took:?}");
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fpsym-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn dump_queries_writes_standalone_scripts_with_the_answer() {
    let dir = temp_dir("dump");
    let out = solve(&[
        "--solver",
        "z3",
        "--no-cache",
        "--dump-queries",
        dir.to_str().unwrap(),
        fixture("unsat_interval.smt2").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let given = answers(&out);
    assert_eq!(files.len(), given.len(), "one file per query");
    for (f, answer) in files.iter().zip(&given) {
        let text = std::fs::read_to_string(f).unwrap();
        assert!(
            text.contains(&format!("(set-info :status {answer})")),
            "{}: {text}",
            f.display()
        );
        // Standalone: fpsym and an external solver both read it and agree.
        for backend in ["cp", "process:cvc5 --lang smt2"] {
            let again = solve(&["--solver", backend, f.to_str().unwrap()]);
            assert_eq!(answers(&again), [answer.as_str()], "{backend} on {}", f.display());
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn cross_check_agrees_on_fixtures() {
    for name in ["sat_model.smt2", "nan.smt2", "signed_zero.smt2", "unsat_interval.smt2"] {
        let path = fixture(name);
        let out = solve(&[
            "--solver",
            "cp",
            "--cross-check",
            "process:cvc5 --lang smt2",
            "--timeout",
            "20",
            path.to_str().unwrap(),
        ]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(answers(&out), expected(&path, "z3"), "{name}");
    }
}

#[test]
fn cross_check_disagreement_fails_with_exit_3() {
    // A "solver" that answers unsat to everything.
    let dir = temp_dir("disagree");
    let liar = "process:sh -c 'cat >/dev/null; echo unsat'";
    let out = solve(&[
        "--solver",
        "z3",
        "--cross-check",
        liar,
        "--dump-queries",
        dir.to_str().unwrap(),
        fixture("sat_model.smt2").to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("disagreement: z3 says sat"), "{stderr}");
    let dumped = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with("disagreement-"))
        .expect("the query was written");
    assert!(stderr.contains(dumped.to_str().unwrap()), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn process_backend_errors_are_reported() {
    let out = solve(&[
        "--solver",
        "process:/nonexistent/solver",
        fixture("sat_model.smt2").to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // A backend that cannot run is an input error naming it (exit 2).
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot run `/nonexistent/solver`: not found"),
        "{stderr}"
    );
    let out = solve(&["--solver", "process:", fixture("sat_model.smt2").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected a command after `process:`"));
}

/// The default portfolio has ls and, when installed, cvc5 as members
/// (`--no-cvc5` leaves cvc5 out); Heron's negative squared area
/// (`examples/smtlib/heron_area.smt2`, issue 16) is found, by ls; `--solver
/// ls` never answers unsat.
#[test]
fn default_portfolio_has_ls_and_cvc5() {
    let installed =
        std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("cvc5").is_file()));
    assert!(
        installed,
        "cvc5 is not installed: apt-get install cvc5 (Debian package cvc5)"
    );
    let heron = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/smtlib/heron_area.smt2");
    let heron = heron.to_str().unwrap();
    let out = solve(&["--stats", "json", "--timeout", "60", heron]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(answers(&out), ["sat"], "{stderr}");
    assert!(stderr.contains("\"portfolio.wins.ls\":1"), "ls found it: {stderr}");
    assert!(
        stderr.contains("\"portfolio.wins.process:cvc5 --lang smt2\":0"),
        "cvc5 is a member: {stderr}"
    );
    let out = solve(&["--stats", "json", "--no-cvc5", "--timeout", "60", heron]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(answers(&out), ["sat"], "{stderr}");
    assert!(!stderr.contains("cvc5"), "--no-cvc5: {stderr}");
    let out = solve(&["--solver", "ls", "--timeout", "20", heron]);
    assert_eq!(answers(&out), ["sat"]);
    let unsat = fixture("unsat_interval.smt2");
    let out = solve(&["--solver", "ls", "--timeout", "1", unsat.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(answers(&out), ["unknown"]);
}

/// Whether process `pid` still runs (a zombie waiting for its reaper
/// does not).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| s.rsplit(')').next().and_then(|r| r.split_whitespace().next()) != Some("Z"))
        .unwrap_or(false)
}

/// The pid of the process whose command line is exactly `argv`.
fn pid_of(argv: &[&str]) -> Option<u32> {
    let want = argv.join("\0") + "\0";
    std::fs::read_dir("/proc").ok()?.find_map(|e| {
        let pid: u32 = e.ok()?.file_name().to_str()?.parse().ok()?;
        (std::fs::read_to_string(format!("/proc/{pid}/cmdline")).ok()? == want).then_some(pid)
    })
}

#[test]
fn a_process_solver_never_outlives_fpsym() {
    // The "solver" never answers; fpsym stopped from outside (SIGTERM, as
    // `timeout` sends; SIGKILL) must not leave it running.
    let tag = format!("{}", 40_000 + std::process::id() % 10_000);
    for signal in [libc::SIGTERM, libc::SIGKILL] {
        let mut child = fpsym()
            .args(["solve", "--solver", &format!("process:sleep {tag}"), "--timeout", "100"])
            .arg(fixture("sat_model.smt2"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        let solver = loop {
            if let Some(p) = pid_of(&["sleep", &tag]) {
                break p;
            }
            assert!(started.elapsed().as_secs() < 20, "the solver did not start");
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        // SAFETY: kill(2) on our own child.
        unsafe { libc::kill(child.id() as i32, signal) };
        let stopped = std::time::Instant::now();
        let status = child.wait().unwrap();
        assert!(stopped.elapsed().as_secs_f64() < 2.0, "{signal}: {status:?}");
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert!(!running(solver), "signal {signal}: the solver {solver} still runs");
        if signal == libc::SIGTERM {
            // It answered what it knew: unknown.
            let mut out = String::new();
            std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut out).unwrap();
            assert_eq!(out.lines().next(), Some("unknown"), "{out}");
        }
    }
}
