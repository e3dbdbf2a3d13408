//! The native fuzzing phase of `fpsym run` (`--fuzz-time`) and seeded
//! search: a crash that needs a special float value is found by the
//! fuzzer, reported as a finding marked `fuzz-finding`, and confirmed by
//! native replay; `--fuzz-time 0` turns the phase off; the seeded search
//! answers the branch sides its seeds take without the solver; a long
//! double parameter gets long double special values and the program's
//! long double constants; Ctrl-C
//! stops the fuzzer within a second and keeps what it found.
//!
//! Needs clang-14 and libclang-rt-14-dev (libFuzzer, AddressSanitizer):
//! without them the runs fail with a message naming the package.

mod common;

use fpsym_report::mode_records::{FuzzRecord, Said, FUZZ_RECORD};
use fpsym_report::{Event, FindingKind, Loc, Stats};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name)
}

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fpsym-fuzz-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn fpsym(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .args(args)
        .output()
        .expect("fpsym starts")
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

/// `DIR/fuzz/fuzz.json`.
fn fuzz_record(out: &Path) -> FuzzRecord {
    common::record(out, FUZZ_RECORD)
}

fn events(out: &Path) -> Vec<Event> {
    std::fs::read_to_string(out.join("events.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(common::parse)
        .collect()
}

/// A finding the fuzzing phase found first (a `fuzz-finding` event).
#[derive(Debug)]
struct Mark {
    loc: Option<Loc>,
    kind: FindingKind,
    test: u64,
    input: String,
}

/// The `fuzz-finding` events of `DIR/events.jsonl`.
fn marks(out: &Path) -> Vec<Mark> {
    events(out)
        .into_iter()
        .filter_map(|e| match e {
            Event::FuzzFinding { loc, kind, test, input } => Some(Mark { loc, kind, test, input }),
            _ => None,
        })
        .collect()
}

#[test]
fn the_fuzzer_finds_a_crash_needing_infinity_and_replay_confirms_it() {
    let out = scratch("special");
    let o = fpsym(&[
        "run",
        fixture("fuzz_special.c").to_str().unwrap(),
        "--function",
        "classify",
        "--fuzz-time",
        "3",
        "--replay",
        "-o",
        out.to_str().unwrap(),
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(t.contains("1 finding(s) found by fuzzing"), "{t}");
    let fuzz = fuzz_record(&out);
    assert!(fuzz.crashes >= 1, "{fuzz:?}");
    assert!(fuzz.executions > 0, "{fuzz:?}");
    assert!(fuzz.first_crash_seconds.unwrap() < 3.0, "{fuzz:?}");
    // The finding, marked as the fuzzer's, with the crashing input.
    let marks = marks(&out);
    assert_eq!(marks.len(), 1, "{marks:?}");
    assert_eq!(marks[0].kind, FindingKind::AssertionFailure, "{marks:?}");
    assert_eq!(marks[0].loc.as_ref().map(|l| l.line), Some(11), "{marks:?}");
    let input = &marks[0].input;
    assert!(input.contains("/fuzz/crashes/crash-"), "{input}");
    let test = common::test(&out, marks[0].test);
    assert_eq!(test.objects[0].value.as_deref(), Some("inf"), "{test:?}");
    // Confirmed natively, like every finding.
    let replay = common::replay_report(&out);
    let findings = &replay.findings;
    assert_eq!(findings.len(), 1, "{replay:?}");
    assert!(findings[0].confirmed, "{replay:?}");
    // The seeded search answered sides from the seeds.
    let stats = common::summary(&out).stats;
    assert!(stats.seeded_queries > 0, "{stats:?}");
    let _ = std::fs::remove_dir_all(&out);
}

/// Fuzzes `function` of fuzz_long_double.c for 3 s: the fuzzer finds its
/// failed assertion at `line` with the long double whose 80-bit pattern is
/// `bits` (sign and exponent in bytes 8-9) as the parameter's record.
fn fuzz_long_double(function: &str, line: u64, bits: u128) {
    let out = scratch(function);
    let o = fpsym(&[
        "run",
        fixture("fuzz_long_double.c").to_str().unwrap(),
        "--function",
        function,
        "--fuzz-time",
        "3",
        "-o",
        out.to_str().unwrap(),
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(t.contains("1 finding(s) found by fuzzing"), "{t}");
    let fuzz = fuzz_record(&out);
    assert!(fuzz.first_crash_seconds.unwrap() < 3.0, "{fuzz:?}");
    let marks = marks(&out);
    assert_eq!(marks.len(), 1, "{marks:?}");
    assert_eq!(marks[0].kind, FindingKind::AssertionFailure, "{marks:?}");
    assert_eq!(
        marks[0].loc.as_ref().map(|l| u64::from(l.line)),
        Some(line),
        "{marks:?}"
    );
    // The crashing input: the record's length, then the value's 10 bytes
    // and zero padding.
    let input = std::fs::read(&marks[0].input).unwrap();
    assert_eq!(input[4..20], bits.to_le_bytes()[..16], "{input:?}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_crash_the_symbolic_run_does_not_reach_is_a_finding_of_its_own() {
    // The symbolic run stops after a few instructions, before the
    // assertion the fuzzer fails at once: the crash is still reported,
    // with its input, confirmed natively, "not reached in time".
    let out = scratch("unreached");
    let o = fpsym(&[
        "run",
        fixture("fuzz_unreached.c").to_str().unwrap(),
        "--function",
        "f",
        "--fuzz-time",
        "2",
        "--max-instructions",
        "12",
        "-o",
        out.to_str().unwrap(),
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(t.contains("1 finding(s) found by fuzzing"), "{t}");
    assert!(
        t.contains("assertion-failure at fuzz_unreached.c:9 (found by fuzzing, confirmed natively; input ")
            && t.contains("not reached in time by the symbolic run"),
        "{t}"
    );
    let fuzz = fuzz_record(&out);
    let alone = &fuzz.crashes_alone;
    assert_eq!(alone.len(), 1, "{fuzz:?}");
    assert_eq!(alone[0].said, Said::NotReached, "{fuzz:?}");
    assert_eq!(alone[0].line, Some(9), "{fuzz:?}");
    assert!(Path::new(&alone[0].input).is_file(), "{fuzz:?}");
    assert_eq!(common::verdict(&common::summary(&out)), "bug-found", "{t}");
}

#[test]
fn the_fuzzer_finds_a_crash_needing_the_largest_long_double() {
    fuzz_long_double("largest", 11, 0x7ffe_ffff_ffff_ffff_ffff);
}

#[test]
fn the_fuzzer_finds_a_crash_needing_a_long_double_constant_of_the_program() {
    fuzz_long_double("tenth", 16, 0x3ffb_cccc_cccc_cccc_cccd);
}

#[test]
fn fuzz_time_zero_turns_the_phase_off_and_max_time_turns_it_on() {
    let f = fixture("fuzz_special.c");
    // `fpsym run fuzz_special.c --function classify ARGS -o OUT`.
    let classify = |out: &Path, args: &[&str]| {
        let mut all = vec!["run", f.to_str().unwrap(), "--function", "classify"];
        all.extend(args);
        all.extend(["-o", out.to_str().unwrap()]);
        fpsym(&all)
    };
    let out = scratch("off");
    let o = classify(&out, &["--max-time", "20", "--fuzz-time", "0"]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(!t.contains("fuzzing:"), "{t}");
    assert!(!out.join("fuzz").exists());
    assert!(events(&out).iter().all(|e| !matches!(e, Event::FuzzFinding { .. })));
    assert_eq!(common::summary(&out).stats.seeded_queries, 0);
    // Default: a tenth of --max-time.
    let on = scratch("default");
    let o = classify(&on, &["--max-time", "10"]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(t.contains("fuzzing: "), "{t}");
    let fuzz = fuzz_record(&on);
    let s = fuzz.seconds;
    assert!(s > 0.5 && s < 3.0, "{fuzz:?}");
    // The same command again with --force: the fuzzing phase's directory
    // is a run's own, which --force removes.
    let o = classify(&on, &["--max-time", "10", "--force"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    for d in [out, on] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn bad_fuzz_times_are_input_errors() {
    let f = fixture("fuzz_special.c");
    for (args, msg) in [
        (
            vec!["--fuzz-time=-1"],
            "--fuzz-time: expected a positive number of seconds",
        ),
        (
            vec!["--fuzz-time", "nan"],
            "--fuzz-time: expected a positive number of seconds",
        ),
        (
            vec!["--fuzz-time", "5", "--max-time", "5"],
            "is not less than --max-time",
        ),
    ] {
        let mut a = vec!["run", f.to_str().unwrap(), "--function", "classify"];
        a.extend(args);
        let o = fpsym(&a);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {t}");
        assert!(t.contains(msg), "{a:?}: {t}");
        assert!(!t.contains("panicked"), "{t}");
    }
}

#[test]
fn seeds_answer_the_sides_they_take_without_the_solver() {
    let run = |fuzz: &str, tag: &str| {
        let out = scratch(tag);
        let o = fpsym(&[
            "run",
            fixture("fuzz_seeded.c").to_str().unwrap(),
            "--function",
            "chain",
            "--fuzz-time",
            fuzz,
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let stats = common::summary(&out).stats;
        let _ = std::fs::remove_dir_all(&out);
        stats
    };
    let plain = run("0", "plain");
    let seeded = run("2", "seeded");
    // The same paths either way: seeds change the order and the cost.
    assert_eq!(plain.paths_completed, 7, "{plain:?}");
    assert_eq!(seeded.paths_completed, 7, "{seeded:?}");
    assert_eq!(
        seeded.instructions, plain.instructions,
        "seeded {seeded:?}\nplain {plain:?}"
    );
    // Seeding leaves the concrete fast path on (its oracle and observer
    // allow it).
    assert!(seeded.fast_instructions > 0, "{seeded:?}");
    let solver_calls = |s: &Stats| s.queries - s.seeded_queries;
    assert!(seeded.seeded_queries > 0, "{seeded:?}");
    assert!(
        solver_calls(&seeded) < solver_calls(&plain),
        "seeded {seeded:?}\nplain {plain:?}"
    );
}

#[test]
fn ctrl_c_stops_the_fuzzer_within_a_second_and_keeps_its_inputs() {
    let out = scratch("interrupt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .args([
            "run",
            fixture("fuzz_seeded.c").to_str().unwrap(),
            "--function",
            "chain",
            "--fuzz-time",
            "60",
            "-o",
            out.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the fuzzer to run (its log appears once it started).
    let t0 = Instant::now();
    while !out.join("fuzz/fuzzer.log").exists() && t0.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(1000));
    // SAFETY: a signal to the child this test started.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let sent = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            sent.elapsed() < Duration::from_secs(5),
            "still running 5 s after Ctrl-C"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = sent.elapsed();
    let o = child.wait_with_output().unwrap();
    assert!(
        took < Duration::from_millis(2500),
        "stopped after {took:?}: {}",
        text(&o)
    );
    assert!(status.code().is_some(), "{status:?}");
    let fuzz = fuzz_record(&out);
    assert!(fuzz.interrupted, "{fuzz:?}");
    assert!(fuzz.corpus > 0, "{fuzz:?}");
    // No fuzzer left behind: no process's command line names it (read
    // from /proc, which every Linux machine has).
    let fuzzer = out.join("fuzz/fuzzer").to_string_lossy().into_owned();
    let left: Vec<String> = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.contains(&fuzzer))
        .collect();
    assert!(left.is_empty(), "a fuzzer still runs: {left:?}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_fuzzer_keeps_to_the_bounds_of_the_runs_inputs() {
    // Each function crashes only outside what its run takes; before, the
    // fuzzer crashed on such inputs (a 2-element object for a 3-element
    // array turned "verified" into a contradiction, exit 3).
    let file = fixture("fuzz_bounds.c");
    for (tag, args) in [
        ("unit", &["--function", "in_unit", "--range", "x=[1,2]"][..]),
        ("finite", &["--function", "finite_only", "--finite-inputs"]),
        ("array", &["--function", "third", "--array-len", "3"]),
        ("narrow", &["--function", "narrow", "--range", "x=[0.25,0.75]"]),
        ("klee_range", &["--function", "pick"]),
        (
            "ints",
            &["--function", "small", "--range", "n=[-3.5,40]", "--range", "c=[0,9]"],
        ),
        ("u64", &["--function", "wide", "--range", "u=[1e12,inf]"]),
    ] {
        let out = scratch(tag);
        let mut a = vec!["run", file.to_str().unwrap()];
        a.extend(args);
        a.extend(["--fuzz-time", "2", "--max-time", "30", "-o", out.to_str().unwrap()]);
        let o = fpsym(&a);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(0), "{tag}: {t}");
        assert!(t.contains(" 0 crashing;"), "{tag}: {t}");
        assert!(!t.contains("not reproduced"), "{tag}: {t}");
        // The fuzzer ran on inputs, not only rejected them.
        let f = fuzz_record(&out);
        assert!(f.executions > 100, "{tag}: {f:?}");
    }
    // Without the bound, the same fuzzer crashes at once.
    let out = scratch("unbounded");
    let o = fpsym(&[
        "run",
        file.to_str().unwrap(),
        "--function",
        "finite_only",
        "--fuzz-time",
        "2",
        "--max-time",
        "30",
        "-o",
        out.to_str().unwrap(),
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(!t.contains(" 0 crashing;"), "{t}");
}

#[test]
fn a_program_that_reads_no_input_is_not_fuzzed() {
    // Runs the same way every time: a fuzzing phase would only spend the
    // run's time. With an input (a parameter), the same loop is fuzzed.
    let dir = scratch("noinput");
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("logistic.c");
    std::fs::write(
        &src,
        "#include <assert.h>\n\
         double iterate(void) { double x = 0.3; for (int i = 0; i < 1000; i++) x = 3.7 * x * (1 - x); return x; }\n\
         double scaled(double r) { double x = 0.3; for (int i = 0; i < 10; i++) x = r * x * (1 - x); return x; }\n\
         int main(void) { double x = iterate(); assert(x >= 0 && x <= 1); return 0; }\n",
    )
    .unwrap();
    for (function, fuzzed) in [(None, false), (Some("iterate"), false), (Some("scaled"), true)] {
        let out = dir.join(format!("out-{}", function.unwrap_or("main")));
        let mut args = vec![
            "run",
            src.to_str().unwrap(),
            "--fuzz-time",
            "2",
            "-o",
            out.to_str().unwrap(),
        ];
        if let Some(f) = function {
            args.extend(["--function", f]);
        }
        let o = fpsym(&args);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(0), "{function:?}: {t}");
        assert_eq!(out.join("fuzz/fuzz.json").exists(), fuzzed, "{function:?}: {t}");
        assert_eq!(t.contains("the program reads no input"), !fuzzed, "{function:?}: {t}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Runs the fixture `program` under unreach-call without the proof, with
/// `extra` options, into a scratch directory tagged `tag`.
fn run_unreach(program: &str, tag: &str, extra: &[&str]) -> (Output, PathBuf) {
    let out = scratch(tag);
    let program = fixture(program);
    let mut args = vec![
        "run",
        program.to_str().unwrap(),
        "--property",
        "unreach-call",
        "--prove",
        "none",
    ];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["-o", out.to_str().unwrap()]);
    (fpsym(&args), out)
}

#[test]
fn the_fuzzer_takes_a_loop_deep_by_repeating_an_iterations_inputs() {
    // About sixty records (thirty iterations of an int and a double) are
    // needed; the symbolic run, held to a few instructions, cannot help.
    let (o, out) = run_unreach(
        "fuzz_leaky.c",
        "leaky",
        &["--fuzz-time", "10", "--max-instructions", "50"],
    );
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(t.contains("1 finding(s) found by fuzzing"), "{t}");
    assert!(t.contains("found by fuzzing, confirmed natively"), "{t}");
    // Not reached by the symbolic run: a crash of its own, in fuzz.json.
    let fuzz = fuzz_record(&out);
    let alone = &fuzz.crashes_alone;
    assert_eq!(alone.len(), 1, "{fuzz:?}");
    assert_eq!(alone[0].kind, "reach-error", "{fuzz:?}");
    let input = std::fs::read(&alone[0].input).unwrap();
    assert!(input.len() > 29 * 8, "{} bytes", input.len());
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_seed_deep_in_a_loop_is_followed_to_its_crash_by_the_symbolic_run() {
    // The fuzzer's crash needs about thirty iterations; the seeded state
    // follows it without waiting on the sides it leaves (each asked for
    // 50 ms at first), so the symbolic run reports the finding itself,
    // with a test and, under unreach-call, a violation witness.
    let (o, out) = run_unreach(
        "fuzz_leaky.c",
        "leaky-seeded",
        &["--fuzz-time", "10", "--max-time", "25"],
    );
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    let marks = marks(&out);
    assert_eq!(marks.len(), 1, "{t}");
    assert_eq!(marks[0].kind, FindingKind::ReachError, "{marks:?}");
    // It names its test: `test` is a number (Event::FuzzFinding's `test:
    // u64`, checked when the event was read).
    let _test: u64 = marks[0].test;
    assert!(out.join("witness.yml").is_file(), "{t}");
    let stats = common::summary(&out);
    assert!(stats.solver.get("seed-deferred").copied().unwrap() > 0.0, "{stats:?}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn under_unreach_call_an_abort_is_no_crash_of_the_fuzzer() {
    let (o, out) = run_unreach(
        "fuzz_assume.c",
        "assume",
        &["--fuzz-time", "3", "--max-instructions", "20"],
    );
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(t.contains("1 finding(s) found by fuzzing"), "{t}");
    // Every crash is the reach_error call; the aborts returned to libFuzzer.
    let fuzz = fuzz_record(&out);
    assert!(fuzz.executions > 1000, "{fuzz:?}");
    let mut crashes = 0;
    for f in std::fs::read_dir(out.join("fuzz/crashes")).unwrap() {
        let bytes = std::fs::read(f.unwrap().path()).unwrap();
        // the first record: its length, then x (zeros past its end)
        let mut x = [0u8; 8];
        let n = (u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize).min(8);
        x[..n].copy_from_slice(&bytes[4..4 + n]);
        let x = f64::from_le_bytes(x);
        assert!((1.0..=2.0).contains(&x) && x * x > 3.999, "a crash with x = {x}");
        crashes += 1;
    }
    assert!(crashes >= 1);
    let _ = std::fs::remove_dir_all(&out);
}
