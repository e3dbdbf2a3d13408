//! Budgets and solver faults of `fpsym run`, on the `tests/c/limit_*.c`
//! fixtures: a solver fault stops the run with exit 3 and keeps what was
//! found; a branch whose query timed out is retried with doubled timeouts
//! while the budget lasts; `--max-time` and Ctrl-C stop a run within about
//! a second also while a solver is running (every backend); `--max-memory`
//! holds the process's resident set.
//!
//! The tests measure wall-clock time and memory, so they run one at a time
//! (a lock) rather than competing for the machine's cores.

mod common;

use fpsym_report::{Event, StopReason, Summary};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Held by each test: timings are measured without other runs competing.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name)
}

/// A fresh scratch directory for one test.
fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fpsym-limits-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn fpsym_run(fixture_name: &str, out: &Path, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fpsym"));
    c.args([
        "run",
        fixture(fixture_name).to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ])
    .args(extra);
    c
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

fn stats(out: &Path) -> Summary {
    assert!(out.join(fpsym_report::STATS).is_file(), "stats.json written");
    common::summary(out)
}

/// (kind, line) of every finding in `out`, with its test file checked.
fn findings(out: &Path) -> Vec<(String, u64)> {
    let mut got = Vec::new();
    for v in common::findings(out) {
        let test = out.join("tests").join(format!("{:06}.json", v.test));
        assert!(test.exists(), "the finding's test {} exists", test.display());
        got.push((v.kind.to_string(), u64::from(v.line)));
    }
    got.sort();
    got
}

/// A solver script for `--cross-check process:SCRIPT`: z3 on every query,
/// except those naming the constant 12345 (as 32 bits), where it answers
/// with `lie` (a shell snippet reading the query in `$q`).
fn liar(dir: &Path, name: &str, lie: &str) -> PathBuf {
    let p = dir.join(name);
    let script = format!(
        "#!/bin/sh\nq=$(cat)\ncase \"$q\" in\n  *00000000000000000011000000111001*) {lie} ;;\n  *) printf '%s\\n' \"$q\" | z3 -in ;;\nesac\n"
    );
    std::fs::write(&p, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

#[test]
fn solver_fault_stops_the_run_with_exit_3_and_keeps_results() {
    let _g = serial();
    let dir = scratch("fault");
    let liars = [
        // A cross-check disagreement: the liar says unsat where z3 says sat.
        (liar(&dir, "unsat.sh", "echo unsat"), "disagreement: z3 says sat"),
        // An invalid model: z3's model with the value 12345 replaced by 0.
        (
            liar(
                &dir,
                "badmodel.sh",
                "printf '%s\\n' \"$q\" | z3 -in | sed -e 's/#x00003039/#x00000000/' \
                 -e 's/#b00000000000000000011000000111001/#b00000000000000000000000000000000/'",
            ),
            "returned a model that does not satisfy",
        ),
    ];
    for (k, (script, says)) in liars.iter().enumerate() {
        let out = dir.join(format!("out{k}"));
        let queries = dir.join(format!("queries{k}"));
        let cross = format!("process:{}", script.display());
        let o = fpsym_run(
            "limit_fault.c",
            &out,
            &[
                "--solver",
                "z3",
                "--cross-check",
                &cross,
                "--dump-queries",
                queries.to_str().unwrap(),
            ],
        )
        .output()
        .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(3), "{}", text(&o));
        assert!(stderr.contains(says), "{stderr}");
        if k == 0 {
            // The message names the query file, which exists.
            let file = stderr
                .split("query written to ")
                .nth(1)
                .and_then(|r| r.split_whitespace().next())
                .map(|f| f.trim_end_matches(';'))
                .expect("the query file is named");
            assert!(Path::new(file).exists(), "{file}");
        }
        // The finding before the fault is kept, with its test; stats.json
        // says why the run stopped.
        assert_eq!(findings(&out), [("reach-error".to_string(), 10)], "{}", text(&o));
        let s = stats(&out);
        assert_eq!(s.stop.kind(), "solver-fault", "{s:?}");
        let StopReason::SolverFault(fault) = &s.stop else {
            panic!("{s:?}")
        };
        assert!(fault.contains(says), "{s:?}");
        assert_eq!(common::verdict(&s), "bug-found", "{s:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn timed_out_branch_is_retried_with_doubled_timeouts() {
    let _g = serial();
    let dir = scratch("retry");
    // cp needs about 3.5 s for this query: 0.5 s times out, then retries
    // with 1, 2 and 4 s; the last one finds the finding.
    // The default portfolio gives cp a fifth of each timeout (at most 2 s):
    // for a query cp decides in about 1 s, the retry with 8 s finds it.
    for (tag, extra) in [
        ("cp", vec!["--solver", "cp"]),
        ("portfolio", vec!["-D", "N=12202291896733ULL"]),
    ] {
        let out = dir.join(tag);
        let start = Instant::now();
        let o = fpsym_run(
            "limit_factor.c",
            &out,
            &[
                &["--solver-timeout", "0.5", "--max-time", "60", "--fuzz-time", "0"],
                &extra[..],
            ]
            .concat(),
        )
        .output()
        .unwrap();
        let took = start.elapsed();
        eprintln!("retry {tag}: found in {took:?}");
        assert_eq!(o.status.code(), Some(1), "{tag}: {}", text(&o));
        assert_eq!(findings(&out), [("reach-error".to_string(), 17)], "{tag}: {}", text(&o));
        let s = stats(&out);
        // (cp alone needs the doubled timeouts; the portfolio's members
        // may decide it on the first retry when the machine is idle)
        let least = if tag == "cp" { 2 } else { 1 };
        assert!(s.stats.retries >= least, "{tag}: {s:?}");
        assert_eq!(s.stats.recovered, 1, "{tag}: {s:?}");
        assert_eq!(s.stats.dropped, 0, "{tag}: {s:?}");
        assert_eq!(s.stop.kind(), "exhausted", "{tag}: {s:?}");
        // Every path explored in the end: nothing was left undecided.
        assert!(s.incomplete.is_none(), "{tag}: {s:?}");
    }
    // With less time than the query needs, the branch is dropped when the
    // budget ends, and the verdict says so.
    let out = dir.join("short");
    let o = fpsym_run(
        "limit_factor.c",
        &out,
        &["--solver", "cp", "--solver-timeout", "0.5", "--max-time", "1.5"],
    )
    .output()
    .unwrap();
    assert_eq!(o.status.code(), Some(4), "{}", text(&o));
    assert!(findings(&out).is_empty(), "{}", text(&o));
    let s = stats(&out);
    assert_eq!(s.stop.kind(), "max-time", "{s:?}");
    assert_eq!(s.stop, StopReason::MaxTime(1.5), "{s:?}");
    assert!(s.stats.dropped >= 1, "{s:?}");
    let why = s.verdict.why().unwrap();
    assert!(why.contains("a branch was dropped: timeout"), "{why}");
    let events = std::fs::read_to_string(out.join(fpsym_report::EVENTS)).unwrap();
    assert!(
        events.lines().map(common::parse::<Event>).any(|e| matches!(
            e,
            Event::BranchDropped { loc: Some(ref l), .. } if l.line == 16
        )),
        "{events}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_max_time_retries_stop_at_the_cap() {
    let _g = serial();
    let dir = scratch("cap");
    // Undecidable in minutes: 0.1 s, then 0.2, 0.4, 0.8 and 1.6 s (16 times
    // --solver-timeout); the next would pass the cap, so it is dropped.
    let start = Instant::now();
    let o = fpsym_run("limit_hard.c", &dir.join("out"), &["--solver-timeout", "0.1"])
        .output()
        .unwrap();
    let took = start.elapsed();
    eprintln!("retry cap: dropped after {took:?}");
    assert_eq!(o.status.code(), Some(4), "{}", text(&o));
    let s = stats(&dir.join("out"));
    assert_eq!(s.stop.kind(), "exhausted", "{s:?}");
    assert_eq!(s.stats.retries, 4, "{s:?}");
    assert_eq!(s.stats.dropped, 1, "{s:?}");
    let why = s.verdict.why().unwrap();
    assert!(why.contains("still undecided after 4 retries"), "{why}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The backends a run can use, each checked for prompt stops.
const BACKENDS: [&str; 4] = ["z3", "cp", "portfolio", "process:z3 -in"];

#[test]
fn max_time_stops_a_running_solver() {
    let _g = serial();
    let dir = scratch("maxtime");
    for backend in BACKENDS {
        let out = dir.join(backend.replace([':', ' '], "_"));
        let spawned = Instant::now();
        let mut child = fpsym_run(
            "limit_hard.c",
            &out,
            &["--solver", backend, "--solver-timeout", "600", "--max-time", "2"],
        )
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
        // The run starts once the program is built (run.json is written
        // then): --max-time counts from there, compiling is not limited.
        while !out.join("run.json").exists() && spawned.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(5));
        }
        let started = Instant::now();
        let status = wait_with_timeout(&mut child, Duration::from_secs(30));
        let took = started.elapsed();
        if status.is_none() {
            let _ = child.kill();
        }
        let o = child.wait_with_output().unwrap();
        eprintln!(
            "--max-time 2 with {backend}: ended {took:?} after the run started ({:?} after the spawn)",
            spawned.elapsed()
        );
        assert_eq!(status.and_then(|s| s.code()), Some(4), "{backend}: {}", text(&o));
        assert!(took < Duration::from_secs(3), "{backend}: {took:?}");
        let s = stats(&out);
        assert_eq!(s.stop.kind(), "max-time", "{backend}: {s:?}");
        assert_eq!(s.stop, StopReason::MaxTime(2.0), "{backend}: {s:?}");
        assert_eq!(common::verdict(&s), "incomplete", "{backend}: {s:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether `pid` has a handler for SIGINT installed (bit 2 of `SigCgt`).
fn catches_sigint(pid: u32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|m| u64::from_str_radix(m.trim(), 16).ok())
        .is_some_and(|m| m & (1 << (libc::SIGINT - 1)) != 0)
}

/// The child processes of `pid` (all its threads').
fn children(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for t in rd.flatten() {
            let c = std::fs::read_to_string(t.path().join("children")).unwrap_or_default();
            out.extend(c.split_whitespace().filter_map(|x| x.parse::<u32>().ok()));
        }
    }
    out
}

/// Whether `pid` is a process still running (not gone, not a zombie).
fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(s) => s.rsplit(')').next().and_then(|r| r.split_whitespace().next()) != Some("Z"),
        Err(_) => false,
    }
}

fn wait_with_timeout(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(s) = child.try_wait().unwrap() {
            return Some(s);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    None
}

#[test]
fn ctrl_c_stops_a_running_solver() {
    let _g = serial();
    let dir = scratch("sigint");
    // Ctrl-C with every backend; SIGTERM (a scheduler's, `timeout`'s) too.
    let signals = BACKENDS
        .iter()
        .map(|b| (*b, libc::SIGINT))
        .chain([(BACKENDS[0], libc::SIGTERM)]);
    for (backend, signal) in signals {
        let out = dir.join(format!("{}-{signal}", backend.replace([':', ' '], "_")));
        let start = Instant::now();
        let mut child = fpsym_run("limit_hard.c", &out, &["--solver", backend, "--solver-timeout", "600"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let pid = child.id();
        // Until the run has installed its handler (after compiling), and
        // at least 2 s from the start: the first query is running.
        while !catches_sigint(pid) && start.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(10));
        }
        std::thread::sleep(
            Duration::from_secs(2)
                .saturating_sub(start.elapsed())
                .max(Duration::from_millis(500)),
        );
        let solvers = children(pid);
        if backend.starts_with("process:") {
            assert!(!solvers.is_empty(), "{backend}: a solver process is running");
        }
        let sent = Instant::now();
        // SAFETY: sends a signal to our own child process.
        assert_eq!(unsafe { libc::kill(pid as i32, signal) }, 0);
        let status = wait_with_timeout(&mut child, Duration::from_secs(10));
        let took = sent.elapsed();
        if status.is_none() {
            let _ = child.kill();
            let _ = child.wait();
        }
        eprintln!("signal {signal} with {backend}: ended {took:?} after the signal");
        let o = child.wait_with_output().unwrap();
        assert_eq!(status.and_then(|s| s.code()), Some(4), "{backend}: {}", text(&o));
        assert!(took < Duration::from_millis(1500), "{backend}: {took:?}");
        let s = stats(&out);
        assert_eq!(s.stop.kind(), "interrupted", "{backend}: {s:?}");
        // The solver process was killed, not left running.
        for c in solvers {
            assert!(!running(c), "{backend}: solver process {c} still runs");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn max_memory_holds_the_resident_set() {
    let _g = serial();
    let dir = scratch("memory");
    let out = dir.join("out");
    // Waited for below with wait4, for the child's rusage.
    #[allow(clippy::zombie_processes)]
    let child = fpsym_run("limit_explode.c", &out, &["--search", "bfs", "--max-memory", "200"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id() as i32;
    // The child's own peak resident set, from wait4's rusage (KiB).
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value to be overwritten.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child; `status` and `usage` outlive the call.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid);
    let peak_mib = usage.ru_maxrss as u64 / 1024;
    eprintln!("--max-memory 200: peak resident set {peak_mib} MiB");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 4,
        "status {status}"
    );
    let s = stats(&out);
    assert_eq!(s.stop.kind(), "max-memory", "{s:?}");
    let StopReason::MaxMemory(seen) = s.stop else {
        panic!("{s:?}")
    };
    assert!(seen > 200 << 20, "{s:?}");
    assert!(peak_mib < 200 + 150, "peak {peak_mib} MiB: {s:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_timed_out_process_solver_leaves_no_process_behind() {
    let _g = serial();
    let dir = scratch("pgroup");
    std::fs::create_dir_all(&dir).unwrap();
    // A wrapper script whose own child does the (endless) work.
    let marker = format!("{}.{}", 900 + std::process::id() % 99, std::process::id());
    let script = dir.join("slow.sh");
    std::fs::write(&script, format!("#!/bin/sh\nq=$(cat)\nsleep {marker}\n")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = dir.join("out");
    let solver = format!("process:{}", script.display());
    let o = fpsym_run(
        "limit_hard.c",
        &out,
        &["--solver", &solver, "--solver-timeout", "0.5", "--max-time", "3"],
    )
    .output()
    .unwrap();
    assert_eq!(o.status.code(), Some(4), "{}", text(&o));
    std::thread::sleep(Duration::from_millis(200));
    let left: Vec<String> = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.contains(&marker))
        .collect();
    assert!(left.is_empty(), "the solver's children survived: {left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
