//! End-to-end tests of `fpsym run` on the C fixtures in `tests/c/`.
//!
//! Each fixture states what a run must report in comment lines:
//! `// expect-finding: KIND LINE` (every finding, exactly: a missing one or
//! an extra one fails), `// expect-paths: N` (completed paths) and
//! `// expect-verdict: verified|bug-found|incomplete`. Each fixture runs
//! once per backend (z3, cp), and every test file written must be a
//! well-formed input record.

mod common;

use common::replay_confirms;
use fpsym_report::{Finding, Summary, Test};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name)
}

fn out_dir(name: &str, backend: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fpsym-run-{}-{name}-{backend}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

struct Expect {
    /// Extra `fpsym run` arguments (`// fpsym-flags: ...`).
    flags: Vec<String>,
    findings: BTreeSet<(String, u32)>,
    paths: Option<u64>,
    verdict: Option<String>,
}

fn expectations(src: &str) -> Expect {
    let mut e = Expect {
        flags: Vec::new(),
        findings: BTreeSet::new(),
        paths: None,
        verdict: None,
    };
    for l in src.lines() {
        if let Some(r) = l.strip_prefix("// expect-finding:") {
            let mut w = r.split_whitespace();
            e.findings
                .insert((w.next().unwrap().to_string(), w.next().unwrap().parse().unwrap()));
        } else if let Some(r) = l.strip_prefix("// fpsym-flags:") {
            e.flags.extend(r.split_whitespace().map(str::to_string));
        } else if let Some(r) = l.strip_prefix("// expect-paths:") {
            e.paths = Some(r.trim().parse().unwrap());
        } else if let Some(r) = l.strip_prefix("// expect-verdict:") {
            e.verdict = Some(r.trim().to_string());
        }
    }
    if e.verdict.is_none() && !e.findings.is_empty() {
        e.verdict = Some("bug-found".into());
    }
    e
}

fn check(name: &str, backend: &str) {
    let src = std::fs::read_to_string(fixture(name)).unwrap();
    let exp = expectations(&src);
    let mut args = vec!["--solver", backend, "--max-time", "300", "--fuzz-time", "0"];
    args.extend(exp.flags.iter().map(String::as_str));
    let (code, stdout, findings, stats, out) = run_in(name, backend, &args);
    // 1 found, 0 verified, 4 neither (the fixture's expected verdict).
    let want_code = match (exp.findings.is_empty(), exp.verdict.as_deref()) {
        (false, _) => 1,
        (true, None | Some("verified")) => 0,
        (true, Some(_)) => 4,
    };
    assert_eq!(code, Some(want_code), "{name} with {backend}: {stdout}");
    for v in &findings {
        assert!(v.file.ends_with(name), "{v:?}");
        let test = out.join("tests").join(format!("{:06}.json", v.test));
        assert!(test.exists(), "the finding's test {} exists", test.display());
    }
    let got = kinds_and_lines(&findings);
    assert_eq!(got, exp.findings, "{name} with {backend}: findings\n{stdout}");
    if let Some(p) = exp.paths {
        assert_eq!(
            stats.as_ref().map(|s| s.stats.paths_completed),
            Some(p),
            "{name} with {backend}: paths\n{stdout}"
        );
    }
    if let Some(v) = &exp.verdict {
        assert_eq!(
            stats.as_ref().map(common::verdict),
            Some(v.as_str()),
            "{name} with {backend}: verdict\n{stdout}"
        );
    }
    // Every test names its inputs with their bytes; floats also in decimal and hex.
    for v in common::tests(&out) {
        for obj in &v.objects {
            let bytes = &obj.bytes;
            assert!(
                bytes.len() % 2 == 0 && bytes.chars().all(|c| c.is_ascii_hexdigit()),
                "{obj:?}"
            );
            if matches!(obj.ty.as_str(), "float" | "double" | "long double") {
                assert!(obj.value.is_some() && obj.hex.is_some(), "{obj:?}");
            }
        }
    }
    if backend == "z3" {
        replay_confirms(&out);
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn replay_reports_a_wrong_test_as_unconfirmed() {
    let out = out_dir("div_zero.c", "tampered");
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .args([
            "run",
            fixture("div_zero.c").to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--solver",
            "z3",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    // Point the finding's test at x = 4 instead of 3: no division by zero.
    let findings = common::findings(&out);
    let finding = findings.first().expect("a finding");
    let tpath = out.join("tests").join(format!("{:06}.json", finding.test));
    let mut test: Test = common::record_at(&tpath);
    assert_eq!(test.objects[0].bytes, "03000000");
    test.objects[0].bytes = "04000000".into();
    std::fs::write(&tpath, serde_json::to_string(&test).unwrap()).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .args(["replay", out.to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{stdout}\n{stderr}");
    assert!(stdout.contains("NOT CONFIRMED"), "{stdout}");
    assert!(stderr.contains("not confirmed by native replay"), "{stderr}");
    let r = common::replay_report(&out);
    assert!(!r.findings[0].confirmed, "{r:?}");
    let _ = std::fs::remove_dir_all(&out);
}

macro_rules! run_test {
    ($name:ident, $file:expr) => {
        #[test]
        fn $name() {
            for backend in ["z3", "cp"] {
                check($file, backend);
            }
        }
    };
}

run_test!(division_by_zero, "div_zero.c");
run_test!(concrete_fast_path, "fast_path.c");
run_test!(calls_on_the_fast_path, "fast_calls.c");
run_test!(byval_arguments_are_copies, "byval_copy.c");
run_test!(nan_is_unequal_to_itself, "nan_self.c");
run_test!(signed_zero, "signed_zero.c");
run_test!(subnormal, "subnormal.c");
run_test!(rounding_mode, "rounding.c");
run_test!(long_double, "long_double.c");
run_test!(float_to_int_cast, "cast.c");
run_test!(operations_c_leaves_open_as_x86_64_computes_them, "native_semantics.c");
run_test!(union_and_memcpy, "union_memcpy.c");
run_test!(symbolic_array_index, "array_index.c");
run_test!(verified_program, "verified.c");
run_test!(every_rounding_mode, "rounding_modes.c");
run_test!(heap_calls_switch_structs_runtime, "heap_calls.c");
run_test!(exact_libm, "libm.c");
run_test!(pointers_into_several_objects, "pointers.c");
run_test!(phis_read_the_values_on_entry, "phi_rotate.c");
run_test!(constrained_intrinsics, "constrained.c");
run_test!(vectors_and_small_structs, "vectors.c");
run_test!(variadic_functions, "varargs.c");
run_test!(variable_length_arrays, "vla.c");
run_test!(unsupported_code_stops_only_the_paths_reaching_it, "lazy_unsupported.c");
run_test!(environment_functions, "environment.c");
run_test!(streams_and_locale, "streams_locale.c");
run_test!(fstat_of_the_standard_streams, "streams_stat.c");
run_test!(fstat_of_a_piped_standard_input, "streams_stat_pipe.c");
run_test!(special_functions_by_name, "special_functions.c");
run_test!(variadic_structs_passed_byval, "varargs_byval.c");
run_test!(vector_division_by_zero, "vector_division.c");
run_test!(libm_sets_errno, "errno_libm.c");
run_test!(atexit_handlers_see_mains_locals, "atexit_locals.c");
run_test!(exit_inside_an_atexit_handler, "atexit_exit.c");
run_test!(a_programs_own_rand_wins, "own_rand.c");

#[test]
fn a_path_reaching_unsupported_code_names_it() {
    let (code, out, _, stats) = run_with("lazy_unsupported.c", "lazy", &["--solver", "z3"]);
    assert_eq!(code, Some(4), "{out}");
    assert_eq!(stats.map(|s| s.stats.paths_partial), Some(1), "{out}");
    assert!(
        out.contains("lazy_unsupported.c:10:10: in function `bump`: unsupported atomic read-modify-write"),
        "{out}"
    );
    assert!(out.contains("atomicrmw add"), "{out}");
}

/// A branch only cp can decide (z3 declines `fpsym.pow` and x86_fp80
/// fp.rem) is decided with the default portfolio, not dropped with the
/// decliner's "unsupported": with a short per-query timeout the long
/// double remainder stays pending and is retried with more time.
#[test]
fn branches_some_solvers_decline_are_decided_by_the_others() {
    for (function, line, timeout) in [("remainder_branch", 12, "3"), ("pow_branch", 18, "1")] {
        let (code, out, found, stats) = run_with(
            "declined_branches.c",
            function,
            &["--function", function, "--solver-timeout", timeout],
        );
        assert_eq!(code, Some(1), "{function}: {out}");
        assert_eq!(
            found,
            BTreeSet::from([("assertion-failure".to_string(), line)]),
            "{function}: {out}"
        );
        assert_eq!(stats.as_ref().map(|s| s.stats.dropped), Some(0), "{function}: {out}");
        assert_eq!(
            stats.as_ref().map(common::verdict),
            Some("bug-found"),
            "{function}: {out}"
        );
        assert!(!out.contains("was dropped"), "{function}: {out}");
    }
}

/// Runs `fpsym run` with extra arguments; returns (exit code, stdout, findings as (kind, line)).
/// Runs `fpsym run` on a fixture with extra arguments into a fresh
/// directory (kept); returns the exit code, stdout and stderr, the findings'
/// records, stats.json (None if absent) and the directory.
fn run_in(name: &str, tag: &str, extra: &[&str]) -> (Option<i32>, String, Vec<Finding>, Option<Summary>, PathBuf) {
    let out = out_dir(name, tag);
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .args(["run", fixture(name).to_str().unwrap(), "-o", out.to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    let findings = common::findings(&out);
    let stats = common::record_if(&out, fpsym_report::STATS);
    (o.status.code(), stdout, findings, stats, out)
}

fn kinds_and_lines(findings: &[Finding]) -> BTreeSet<(String, u32)> {
    findings.iter().map(|v| (v.kind.to_string(), v.line)).collect()
}

/// [`run_in`], then the directory is removed; findings as (kind, line).
fn run_with(name: &str, tag: &str, extra: &[&str]) -> (Option<i32>, String, BTreeSet<(String, u32)>, Option<Summary>) {
    let (code, stdout, findings, stats, out) = run_in(name, tag, extra);
    let _ = std::fs::remove_dir_all(&out);
    (code, stdout, kinds_and_lines(&findings), stats)
}

#[test]
fn function_harness_with_ranges_and_arrays() {
    let (code, out, got, _) = run_with(
        "harness.c",
        "wide",
        &["--function", "f", "--range", "x=[0,10]", "--array-len", "2"],
    );
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(got, BTreeSet::from([("reach-error".to_string(), 7)]), "{out}");
    // The range excludes the bug: every path explored, nothing found.
    let (code, out, got, stats) = run_with(
        "harness.c",
        "narrow",
        &["--function", "f", "--range", "x=[0,9]", "--array-len", "2"],
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(got.is_empty(), "{out}");
    assert_eq!(stats.as_ref().map(common::verdict), Some("verified"), "{out}");
    // With one element, a[1] is out of bounds.
    let (code, out, got, _) = run_with("harness.c", "short", &["--function", "f", "--range", "x=[9.75,10]"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(got.contains(&("out-of-bounds".to_string(), 6)), "{out}");
    // Native replay drives the function with the same inputs: the bug and
    // the out-of-bounds read (a one-element array) are both confirmed.
    for (tag, extra) in [("replay-wide", &["--array-len", "2"][..]), ("replay-short", &[][..])] {
        let mut args = vec![
            "--function",
            "f",
            "--range",
            "x=[9.75,10]",
            "--replay",
            "--solver",
            "z3",
        ];
        args.extend_from_slice(extra);
        let (code, out, got, _) = run_with("harness.c", tag, &args);
        assert_eq!(code, Some(1), "{out}");
        assert!(!got.is_empty(), "{out}");
        assert!(
            out.contains(&format!(
                "{} confirmed, 0 unconfirmed, 0 tests behaving otherwise",
                got.len()
            )),
            "{out}"
        );
    }
    // Bad usage is an input error.
    let (code, out, _, _) = run_with("harness.c", "bad", &["--function", "f", "--range", "y=[0,1]"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("has no parameter `y`"), "{out}");
}

#[test]
fn struct_parameters_of_a_function_replay_natively() {
    let (code, out, got, _) = run_with(
        "struct_params.c",
        "structs",
        &["--function", "f", "--solver", "z3", "--replay"],
    );
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(got, BTreeSet::from([("reach-error".to_string(), 10)]), "{out}");
    assert!(
        out.contains("1 confirmed, 0 unconfirmed, 0 tests behaving otherwise"),
        "{out}"
    );
}

#[test]
fn parameter_ranges_follow_the_c_type_and_results_replay_exactly() {
    let (code, out, got, _) = run_with(
        "params.c",
        "ranges",
        &[
            "--function",
            "h",
            "--range",
            "u=[4000000001,4294967295]",
            "--range",
            "b=[0,1]",
            "--range",
            "c=[-128,127]",
            "--solver",
            "z3",
            "--replay",
        ],
    );
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(got, BTreeSet::from([("reach-error".to_string(), 9)]), "{out}");
    assert!(out.contains("0 unconfirmed, 0 tests behaving otherwise"), "{out}");
    for bad in ["c=[128,128]", "c=[-200,-100]", "u=[-1,3]"] {
        let (code, out, _, _) = run_with("params.c", "badrange", &["--function", "h", "--range", bad]);
        assert_eq!(code, Some(2), "{bad}: {out}");
        assert!(out.contains("outside the values of its type"), "{bad}: {out}");
    }
    // r returns -5 or 3 as a signed char: the tests say so, and a test
    // claiming 251 (-5 modulo 256) behaves otherwise natively.
    let (code, out, _, _, dir) = run_in("params.c", "result", &["--function", "r", "--solver", "z3"]);
    assert_eq!(code, Some(0), "{out}");
    let mut details = Vec::new();
    for t in std::fs::read_dir(dir.join("tests")).unwrap() {
        let p = t.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        let v: Test = common::record_at(&p);
        // `detail` is the end as text.
        let detail = v.end.to_string();
        details.push(detail.clone());
        if detail == "exit -5" {
            // The typed status is what replay compares; `detail` is for people.
            let tampered = text
                .replace("exit -5", "exit 251")
                .replace("\"status\": -5", "\"status\": 251");
            assert_ne!(
                tampered,
                text.replace("exit -5", "exit 251"),
                "a typed status in {text}"
            );
            std::fs::write(&p, tampered).unwrap();
        }
    }
    details.sort();
    assert_eq!(details, ["exit -5", "exit 3"]);
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .args(["replay", dir.to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(3), "{stdout}");
    assert!(stdout.contains("1 tests behaving otherwise"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn budgets_stop_gracefully_and_keep_results() {
    // An endless symbolic loop: --max-time stops it within a second of the
    // limit, the tests already written stay, and the verdict says why.
    let start = std::time::Instant::now();
    let (code, out, _, stats) = run_with("endless.c", "time", &["--max-time", "3"]);
    let took = start.elapsed();
    assert!(took < std::time::Duration::from_secs(6), "{took:?}: {out}");
    assert_eq!(code, Some(4), "{out}");
    let s = stats.unwrap_or_else(|| panic!("no stats.json\n{out}"));
    assert_eq!(s.stop.kind(), "max-time", "{out}");
    assert!(s.stats.tests > 0, "{out}");
    assert_eq!(common::verdict(&s), "incomplete", "{out}");
    let (_, out, _, stats) = run_with("endless.c", "bound", &["--loop-bound", "5"]);
    let s = stats.unwrap_or_else(|| panic!("no stats.json\n{out}"));
    assert_eq!(s.stop.kind(), "exhausted", "{out}");
    assert_eq!(common::verdict(&s), "incomplete", "{out}");
    let (_, out, _, stats) = run_with("endless.c", "instr", &["--max-instructions", "300"]);
    let s = stats.unwrap_or_else(|| panic!("no stats.json\n{out}"));
    assert_eq!(s.stop.kind(), "max-instructions", "{out}");
}

#[test]
fn clang_errors_are_shown_and_exit_2() {
    let dir = out_dir("bad", "x");
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("bad.c");
    std::fs::write(&src, "int main(void) { return 0 }\n").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .args(["run", src.to_str().unwrap(), "-o", dir.join("out").to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("bad.c:1:26: error: expected ';'"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_search_policy_explores_the_same_paths() {
    let mut seen = Vec::new();
    for search in ["dfs", "bfs", "random-path", "coverage-new", "random-path+coverage-new"] {
        let (code, out, got, stats) = run_with("heap_calls.c", search, &["--search", search]);
        assert_eq!(code, Some(1), "{search}: {out}");
        seen.push((search, got, stats.map(|s| s.stats.paths_completed)));
    }
    for (s, got, paths) in &seen[1..] {
        assert_eq!((got, paths), (&seen[0].1, &seen[0].2), "{s} vs dfs");
    }
    let (code, out, _, _) = run_with("heap_calls.c", "badsearch", &["--search", "sideways"]);
    assert_eq!(code, Some(2), "{out}");
}

#[test]
fn replay_measures_coverage_of_the_users_files() {
    let out = out_dir("heap_calls.c", "coverage");
    let html = out.join("html");
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .args([
            "run",
            fixture("heap_calls.c").to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--solver",
            "z3",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .args([
            "replay",
            out.to_str().unwrap(),
            "--coverage",
            "--coverage-html",
            html.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let r = common::replay_report(&out);
    // Only the program's file counts (not the driver or the runtime), and
    // the tests fpsym generated cover nearly all of it (measured: 28/30
    // lines, 15/16 branches).
    let coverage = r.coverage.as_ref().unwrap_or_else(|| panic!("no coverage: {r:?}"));
    let lines = &coverage.lines;
    assert_eq!(lines.count, 30, "{r:?}");
    assert!(lines.percent >= 90.0, "{r:?}");
    assert!(coverage.branches.percent >= 90.0, "{r:?}");
    assert!(html.join("index.html").exists());
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn print_shows_what_the_program_prints() {
    let dir = out_dir("print", "x");
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("hello.c");
    std::fs::write(
        &src,
        "#include <stdio.h>\nint main(void) { puts(\"hello from C\"); return 0; }\n",
    )
    .unwrap();
    for (k, (flag, shown)) in [(Some("--print"), true), (None, false)].into_iter().enumerate() {
        // A fresh output directory per run (an earlier run's is refused).
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_fpsym"));
        let out = dir.join(format!("out{k}"));
        cmd.args(["run", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        if let Some(f) = flag {
            cmd.arg(f);
        }
        let o = cmd.output().unwrap();
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{stdout}");
        assert_eq!(stdout.contains("hello from C"), shown, "{stdout}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

run_test!(float_bytes_read_one_at_a_time, "float_bytes.c");

/// Every byte read of a symbolic float shares one bit-pattern variable:
/// the queries of a run reading a double's eight bytes declare one.
#[test]
fn a_floats_bytes_share_one_bit_pattern_variable() {
    let dumps = out_dir("float_bytes_dumps", "cp");
    std::fs::create_dir_all(&dumps).unwrap();
    let (code, stdout, findings, _) = run_with(
        "float_bytes.c",
        "dump",
        &["--solver", "cp", "--dump-queries", dumps.to_str().unwrap()],
    );
    assert_eq!(code, Some(1), "{stdout}");
    assert_eq!(findings, BTreeSet::from([("reach-error".to_string(), 14)]), "{stdout}");
    let mut queries = 0;
    for f in std::fs::read_dir(&dumps).unwrap() {
        let text = std::fs::read_to_string(f.unwrap().path()).unwrap();
        let vars: BTreeSet<&str> = text
            .lines()
            .filter(|l| l.starts_with("(declare-") && l.contains("!bits"))
            .collect();
        if text.contains("!bits") {
            queries += 1;
            assert_eq!(vars.len(), 1, "one bit-pattern variable per float:\n{text}");
        }
    }
    assert!(queries > 0, "the byte reads reached a query");
    let _ = std::fs::remove_dir_all(&dumps);
}

/// What a run decided, for comparing two runs: its counters (but time),
/// findings as (kind, line, message) and its tests' inputs and results,
/// in order.
fn outcome(out: &Path, stats: &Summary, findings: &[Finding]) -> String {
    let s = &stats.stats;
    // The tests in the order they were written (by id).
    let tests: Vec<String> = common::tests(out)
        .iter()
        .map(|v| format!("{:?} {}", v.objects, v.end))
        .collect();
    let found: BTreeSet<String> = findings
        .iter()
        .map(|f| format!("{} {} {:?}", f.kind, f.line, f.message))
        .collect();
    format!(
        "instructions {} paths {}/{}/{} tests {} findings {} queries {} verdict {:?}\n{found:#?}\n{tests:#?}",
        s.instructions,
        s.paths_completed,
        s.paths_partial,
        s.paths_infeasible,
        s.tests,
        s.findings,
        s.queries,
        stats.verdict
    )
}

/// The concrete fast path changes the speed of a run, not its result: on
/// fixtures covering every kind of instruction it runs (and many it
/// leaves to the executor), a run with it and one without
/// (`--no-fast-path`) execute the same instructions, explore the same
/// paths, and write the same findings and tests. And it does run: most of
/// fast_path.c's instructions are its.
#[test]
fn the_fast_path_changes_no_result() {
    let names = [
        "fast_path.c",
        "heap_calls.c",
        "pointers.c",
        "union_memcpy.c",
        "cast.c",
        "subnormal.c",
        "signed_zero.c",
        "rounding_modes.c",
        "phi_rotate.c",
        "vectors.c",
        "varargs.c",
        "atexit_locals.c",
        "array_index.c",
        "float_bytes.c",
        "long_double.c",
        "vla.c",
        "environment.c",
        "own_rand.c",
        "atexit_exit.c",
        "fast_quantum.c",
        "fast_select.ll",
        "fast_calls.c",
    ];
    // Two programs at a time (the runs are independent; one after another
    // they took a minute, the longest test of this file).
    let (odd, even): (Vec<_>, Vec<_>) = names.iter().enumerate().partition(|(k, _)| k % 2 == 1);
    std::thread::scope(|scope| {
        for half in [odd, even] {
            scope.spawn(move || {
                for (_, name) in half {
                    fast_and_slow_agree(name);
                }
            });
        }
    });
}

/// One program of [`the_fast_path_changes_no_result`], with and without
/// the fast path.
fn fast_and_slow_agree(name: &str) {
    let mut seen = Vec::new();
    let exp = expectations(&std::fs::read_to_string(fixture(name)).unwrap());
    for (tag, extra) in [("fast", None), ("slow", Some("--no-fast-path"))] {
        let mut args = vec!["--solver", "z3", "--fuzz-time", "0"];
        args.extend(exp.flags.iter().map(String::as_str));
        args.extend(extra);
        let (code, stdout, findings, stats, out) = run_in(name, tag, &args);
        let stats = stats.unwrap_or_else(|| panic!("{name}: no stats.json\n{stdout}"));
        let (fast, all) = (stats.stats.fast_instructions, stats.stats.instructions);
        if extra.is_some() {
            assert_eq!(fast, 0, "{name}: --no-fast-path ran the fast path");
        } else if name == "fast_path.c" {
            assert!(
                fast * 10 > all * 9,
                "{name}: {fast} of {all} instructions on the fast path"
            );
        }
        seen.push((code, outcome(&out, &stats, &findings), stdout));
        let _ = std::fs::remove_dir_all(&out);
    }
    assert_eq!(seen[0].0, seen[1].0, "{name}: exit codes\n{}\n{}", seen[0].2, seen[1].2);
    assert_eq!(seen[0].1, seen[1].1, "{name}: with and without the fast path");
}

/// In `exceptions` mode too: an x87 long double moved without arithmetic
/// is reported as not modelled (an incomplete verdict, check-undecided
/// events) with the fast path as without it.
#[test]
fn the_fast_path_changes_no_exceptions_result() {
    let mut seen = Vec::new();
    for extra in [None, Some("--no-fast-path")] {
        let out = out_dir("fast_x87.c", if extra.is_some() { "slow" } else { "fast" });
        let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
            .args([
                "exceptions",
                fixture("fast_x87.c").to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
            ])
            .args(["--solver", "z3"])
            .args(extra)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
        let stats: Summary =
            common::record_if(&out, fpsym_report::STATS).unwrap_or_else(|| panic!("no stats.json\n{stdout}"));
        let events = std::fs::read_to_string(out.join("events.jsonl")).unwrap_or_default();
        let undecided = events.lines().filter(|l| l.contains("check-undecided")).count();
        assert_eq!(common::verdict(&stats), "incomplete", "{stdout}");
        assert!(undecided > 0, "{events}");
        seen.push((
            o.status.code(),
            stats.stats.instructions,
            stats.verdict.clone(),
            undecided,
        ));
        let _ = std::fs::remove_dir_all(&out);
    }
    assert_eq!(seen[0], seen[1]);
}

#[test]
fn branch_coverage_of_a_function_run_counts_what_it_may_call() {
    let src = fixture("coverage_scope.c");
    for (function, total) in [("sign", 2), ("sorted", 6), ("unrelated", 6)] {
        let (code, text, out) = common::run_mode("run", &src, function, &["--no-replay"], &format!("cov-{function}"));
        assert_eq!(code, Some(0), "{text}");
        let stats = common::summary(&out);
        assert_eq!(stats.stats.branches_total, total, "{function}: {text}");
        let _ = std::fs::remove_dir_all(out);
    }
}

#[test]
fn llvm_expect_is_its_first_operand() {
    let (code, text, out) = common::run_mode("run", &fixture("expect.ll"), "f", &["--no-replay"], "expect");
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("verdict: bug found (every path explored)"), "{text}");
    assert!(text.contains("x = 7"), "{text}");
    let _ = std::fs::remove_dir_all(out);
}

#[test]
fn llvm_is_constant_is_false_for_symbolic_operands() {
    let (code, text, out) = common::run_mode("run", &fixture("is_constant.ll"), "f", &["--no-replay"], "isconst");
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("verdict: verified"), "{text}");
    assert_eq!(common::summary(&out).stats.paths_completed, 2, "{text}");
    let _ = std::fs::remove_dir_all(out);
}
