//! `fpsym path`: lines reached or proven unreachable, paths taken or
//! proven infeasible (seed 000), the answers confirmed by native runs,
//! loop bounds making "unknown" rather than a wrong proof, and bad
//! targets refused with the line and why.

mod common;

use fpsym_report::mode_records::AllPathsRecord;
use fpsym_report::{FindingKind, Goal, Verdict};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name)
}

fn dichotomic() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/path/programs/dichotomic.c")
}

/// `fpsym path FILE --function F ARGS -o OUT`: exit code, output and
/// the directory.
fn path_run(file: &Path, function: &str, args: &[&str], tag: &str) -> (Option<i32>, String, PathBuf) {
    common::run_mode("path", file, function, args, tag)
}

/// As [`path_run`], with the verdict of stats.json (the test fails, with
/// the output, when there is none).
fn path(file: &Path, function: &str, args: &[&str], tag: &str) -> (Option<i32>, String, Verdict, PathBuf) {
    let (code, text, out) = path_run(file, function, args, tag);
    let s: fpsym_report::Summary = common::record_if(&out, fpsym_report::STATS)
        .unwrap_or_else(|| panic!("no stats.json in {} (exit {code:?})\n{text}", out.display()));
    (code, text, s.verdict, out)
}

/// The value of input `name` in the test of the goal's finding.
fn input(out: &Path, name: &str) -> f64 {
    let f = common::findings(out)
        .into_iter()
        .find(|f| matches!(f.kind, FindingKind::Goal(Goal::Reached | Goal::PathFollowed)))
        .expect("a goal finding");
    let t = common::test(out, f.test);
    let o = t.objects.iter().find(|o| o.name == name).unwrap();
    o.value.as_deref().unwrap_or_else(|| panic!("{t:?}")).parse().unwrap()
}

fn twice(y: f64) -> f64 {
    y + y
}

#[test]
fn reachable_lines_get_inputs_confirmed_natively() {
    // Line 18: `return 3` when twice(y) + 1.0 == twice(y) (the 1 is
    // absorbed); line 20 when x is NaN. Each input is checked here in
    // Rust and by the native run's line coverage (--replay).
    let (code, text, v, out) = path(
        &fixture("path_reach.c"),
        "classify",
        &["--reach", "18", "--replay"],
        "r18",
    );
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(v.name(), "feasible", "{text}");
    let y = input(&out, "y");
    assert_eq!(twice(y) + 1.0, twice(y), "{text}");
    assert!(
        text.contains("finding reached at path_reach.c:18 (test 0000") && text.contains("): confirmed"),
        "{text}"
    );
    let (code, text, v, out) = path(&fixture("path_reach.c"), "classify", &["--reach", "20"], "r20");
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(v.name(), "feasible", "{text}");
    let x = input(&out, "x");
    assert!(x.is_nan(), "{text}");
}

#[test]
fn unreachable_lines_are_proven_so() {
    // `x > 1.0 && x < 0.5`, and a square below zero: no input, under IEEE
    // semantics (NaN included).
    for line in ["13", "15"] {
        let (code, text, v, _) = path(&fixture("path_reach.c"), "classify", &["--reach", line], line);
        assert_eq!(code, Some(0), "{text}");
        assert_eq!(v.name(), "infeasible", "line {line}: {text}");
        assert!(
            v.why().unwrap().contains("every path that could was explored exactly"),
            "{v:?}"
        );
    }
}

#[test]
fn paths_are_taken_or_proven_infeasible() {
    let (code, text, v, out) = path(
        &fixture("path_reach.c"),
        "classify",
        &["--path", "11:T,12:F,14:F,17:T", "--replay"],
        "p-ok",
    );
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(v.name(), "feasible", "{text}");
    let (x, y) = (input(&out, "x"), input(&out, "y"));
    assert!(
        // 11:T is x > 1 (then 12:F, x >= 0.5, holds too).
        x > 1.0 && x * x >= 0.0 && twice(y) + 1.0 == twice(y),
        "{x} {y}"
    );
    assert!(text.contains("confirmed"), "{text}");
    for (spec, tag) in [("11:T,12:T", "p-no1"), ("11:T,12:F,14:T", "p-no2")] {
        let (code, text, v, _) = path(&fixture("path_reach.c"), "classify", &["--path", spec], tag);
        assert_eq!(code, Some(0), "{text}");
        assert_eq!(v.name(), "infeasible", "{spec}: {text}");
    }
}

#[test]
fn dichotomic_prefixes_of_seed_000_are_feasible_and_confirmed() {
    // The 12-iteration prefix of the run from (-10, 10) (FPSE's Table II,
    // path 12: 847 s with ULP-Max for path 4, timeouts for 8): the native
    // run of the test makes at least these decisions at both lines.
    let paths: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dichotomic().with_file_name("paths.json")).expect("bench/path/programs/paths.json"),
    )
    .unwrap();
    let p12 = &paths["programs"]["dichotomic"]["prefixes"][11];
    assert_eq!(p12["k"], 12);
    let spec = format!("{},...", p12["path"].as_str().unwrap());
    let (code, text, v, _) = path(&dichotomic(), "dichotomic", &["--path", &spec, "--replay"], "dich12");
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(v.name(), "feasible", "{text}");
    assert!(text.contains("finding path-followed at dichotomic.c"), "{text}");
    assert!(text.contains("1 confirmed, 0 unconfirmed"), "{text}");
    // Decisions are in execution order: the loop's condition comes
    // between two of the `if`'s, so naming two in a row is an input error
    // (no execution takes them so), not a path proven infeasible.
    let (code, text, _) = path_run(
        &dichotomic(),
        "dichotomic",
        &["--path", "48:T,50:T,50:T,..."],
        "dich-order",
    );
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("50:T cannot come right after 50:T: every execution from that side takes another branch of the path's lines first (at 48:"),
        "{text}"
    );
    // A complete path: one iteration, then the loop ends.
    let (code, text, v, _) = path(
        &dichotomic(),
        "dichotomic",
        &["--path", "48:T,50:T,48:F", "--replay"],
        "dich1",
    );
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(v.name(), "feasible", "{text}");
    assert!(text.contains("1 confirmed, 0 unconfirmed"), "{text}");
}

#[test]
fn a_loop_bound_makes_unknown_not_infeasible() {
    // Thirty iterations are possible (from xR = inf the interval never
    // shrinks), but a bound of 3 cuts every such path: not a proof.
    let (code, text, v, _) = path(
        &dichotomic(),
        "dichotomic",
        &["--path", "48:T*30,...", "--loop-bound", "3", "--max-time", "20"],
        "bound",
    );
    assert_eq!(code, Some(4), "{text}");
    assert_eq!(v.name(), "unknown", "{text}");
    assert!(v.why().unwrap().contains("loop bound 3 reached"), "{v:?}");
}

#[test]
fn targets_reached_after_the_entry_returns_or_by_a_failure_are_not_called_infeasible() {
    // An atexit handler runs after `registers` returns: its line is
    // reachable (the pruning must not cut the entry's return).
    let (code, text, v, _) = path(&fixture("path_ends.c"), "registers", &["--reach", "10"], "atexit");
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(v.name(), "feasible", "{text}");
    // 25:T is taken, then the division by zero ends the program: the path
    // exists.
    let (code, text, v, _) = path(&fixture("path_ends.c"), "divides", &["--path", "25:T"], "div");
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(v.name(), "feasible", "{text}");
    // Two conditions at one place (a macro): refused, not guessed.
    let (code, text, _) = path_run(&fixture("path_ends.c"), "macro", &["--path", "35:T"], "macro");
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("several conditions at column"), "{text}");
}

#[test]
fn decisions_in_an_order_no_execution_takes_are_input_errors() {
    // path_order.c line 9, `if ((y = sq(x)) > 4 && x < 1)`: the branch of
    // `(y = sq(x)) > 4` is at column 23 (the `&&`) and runs first, that of
    // `x < 1` at column 7. Column order is refused, saying which is which.
    let f = fixture("path_order.c");
    let (code, text, _) = path_run(&f, "order", &["--path", "9:7:T,9:23:T"], "ord-cols");
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("9:7:T cannot be the first decision: every execution takes another branch of the path's lines before it (at 9:23)"), "{text}");
    assert!(
        text.contains(
            "line 9 has conditions at columns 7 (x < 1), 23 ((y = sq(x)) > 4); they execute in the order 23, 7"
        ),
        "{text}"
    );
    // The loop header `i < 3 && y > x` (columns 25, then 3): after the
    // body the header runs again, so 11:3:T then 11:25:T is an order, but
    // 11:3:T cannot follow line 9 directly.
    let (code, text, _) = path_run(&f, "order", &["--path", "9:23:F,11:3:T"], "ord-loop");
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("11:3:T cannot come right after 9:23:F"), "{text}");
    assert!(
        text.contains("columns 3 (y > x), 25 (i < 3); they execute in the order 25, 3"),
        "{text}"
    );
    // The execution orders are paths like any other.
    let (code, text, v, _) = path(&f, "order", &["--path", "9:23:T,9:7:T"], "ord-ok");
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(v.name(), "feasible", "{text}");
    let (code, text, v, _) = path(
        &f,
        "order",
        &["--path", "9:23:F,11:25:T,11:3:T,11:25:T,..."],
        "ord-loop-ok",
    );
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(v.name(), "feasible", "{text}");
    // An order that occurs but no input takes stays "infeasible": after
    // one iteration i = 1 < 3.
    let (code, text, v, _) = path(&f, "order", &["--path", "9:23:F,11:25:T,11:3:T,11:25:F"], "ord-unsat");
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(v.name(), "infeasible", "{text}");
}

#[test]
fn bad_targets_are_input_errors() {
    for (args, says) in [
        (vec!["--reach", "45"], "line 45 of"),
        (vec!["--reach", "x"], "expected LINE or FILE:LINE"),
        (vec!["--path", "49:T"], "line 49 of"),
        (vec!["--path", "48:Q"], "expected LINE:T"),
        (vec!["--path", "..., 48:T"], "`...` must come last"),
        (vec!["--path", "48:T*0"], "a repetition is from 1 to 100000"),
        (
            vec!["--reach", "48", "--property", "unreach-call"],
            "--property does not apply",
        ),
        (
            vec!["--all-paths", "--range", "xL=[0,1]", "--range", "xL=[2,3]"],
            "--range xL: given twice",
        ),
        (vec!["--all-paths", "--reach", "48"], "cannot be used with"),
    ] {
        let (code, text, _) = path_run(&dichotomic(), "dichotomic", &args, "bad");
        assert_eq!(code, Some(2), "{args:?}: {text}");
        assert!(text.contains(says), "{args:?}: {text}");
    }
}

/// `--all-paths` on crates/cli/tests/c/all_paths.c: the paths counted by
/// hand in the fixture, each feasible one confirmed by a native run of an
/// input `--path` finds for it, each infeasible one refuted again by z3.
#[test]
fn all_paths_lists_every_path_with_its_verdict() {
    let file = fixture("all_paths.c");
    let ranges = ["--range", "x=[0,1e6]", "--range", "n=[0,2]"];
    let (code, text, out) = path_run(&file, "halve", &[&ranges[..], &["--all-paths"]].concat(), "all");
    assert_eq!(code, Some(0), "{text}");
    let j: AllPathsRecord = common::record(&out, fpsym_report::ALL_PATHS);
    let verdicts: std::collections::BTreeMap<String, String> =
        j.paths.iter().map(|p| (p.path.clone(), p.verdict.clone())).collect();
    let loops = ["10:F", "10:T,10:F", "10:T,10:T,10:F"];
    let mut expected = std::collections::BTreeMap::new();
    for l in loops {
        expected.insert(format!("{l},13:F"), "feasible".to_string());
        expected.insert(format!("{l},13:T,14:F"), "feasible".to_string());
        expected.insert(format!("{l},13:T,14:T"), "infeasible".to_string());
    }
    expected.insert("10:T,10:T,10:T".into(), "infeasible".into());
    assert_eq!(verdicts, expected, "{text}");
    assert_eq!((j.feasible, j.infeasible), (6, 4), "{j:?}");
    assert!(j.complete, "{j:?}");
    assert!(
        text.contains("all paths: 10 (6 feasible, 4 infeasible = 40%, 0 unknown)"),
        "{text}"
    );
    for p in &j.paths {
        for side in [&p.with_ulp_max, &p.without_ulp_max] {
            let r = side.as_ref().unwrap_or_else(|| panic!("{p:?}")).result.as_str();
            let want = if p.verdict == "feasible" { "sat" } else { "unsat" };
            assert_eq!(r, want, "{p:?}");
        }
    }
    for (i, (spec, verdict)) in expected.iter().enumerate() {
        if verdict == "feasible" {
            let (code, text, v, _) = path(
                &file,
                "halve",
                &[&ranges[..], &["--path", spec, "--replay"]].concat(),
                &format!("all-f{i}"),
            );
            assert_eq!((code, v.name()), (Some(1), "feasible"), "{spec}: {text}");
            assert!(
                text.contains("path-followed") && text.contains("confirmed"),
                "{spec}: {text}"
            );
        } else {
            let prefix = format!("{spec},...");
            let (_, text, v, _) = path(
                &file,
                "halve",
                &[&ranges[..], &["--path", &prefix, "--solver", "z3"]].concat(),
                &format!("all-i{i}"),
            );
            assert_eq!(v.name(), "infeasible", "{spec} with z3: {text}");
        }
    }
}

/// With `--loop-bound 1`, the paths of at most one repetition: the second
/// repetition is cut, not listed, and the run does not claim completeness
/// beyond the bound.
#[test]
fn all_paths_stop_at_the_loop_bound() {
    let (code, text, out) = path_run(
        &fixture("all_paths.c"),
        "halve",
        &[
            "--range",
            "x=[0,1e6]",
            "--range",
            "n=[0,2]",
            "--all-paths",
            "--loop-bound",
            "1",
        ],
        "all-bound",
    );
    assert_eq!(code, Some(0), "{text}");
    let j: AllPathsRecord = common::record(&out, fpsym_report::ALL_PATHS);
    let paths: Vec<&str> = j.paths.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(paths.len(), 6, "{text}");
    assert!(paths.iter().all(|p| !p.starts_with("10:T,10:T")), "{paths:?}");
    assert_eq!(j.cut.get("loop bound 1 reached"), Some(&1), "{j:?}");
    assert!(text.contains("cut (not listed): 1 at loop bound 1 reached"), "{text}");
}

/// Sides set aside undecided (a solver that answers a query only the
/// second time it sees it) and refuted on the retry are listed when they
/// are branch sides, not when a checker forked them: the two paths of
/// all_paths_checks.c, as with a plain solver.
#[test]
fn all_paths_list_only_branch_sides_set_aside() {
    let dir = std::env::temp_dir().join(format!("fpsym-path-slow-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("slow.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nq=$(cat); h=$(printf '%s' \"$q\" | md5sum | cut -c1-32)\nif [ ! -e {d}/$h ]; then touch {d}/$h; exec sleep 30; fi\nprintf '%s\\n' \"$q\" | z3 -in\n",
            d = dir.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let solver = format!("process:{}", script.display());
    let (code, text, out) = path_run(
        &fixture("all_paths_checks.c"),
        "g",
        &[
            "--range",
            "x=[1,100]",
            "--range",
            "n=[0,1]",
            "--all-paths",
            "--solver",
            &solver,
            "--solver-timeout",
            "0.3",
            "--no-cache",
        ],
        "all-slow",
    );
    assert_eq!(code, Some(0), "{text}");
    let j: AllPathsRecord = common::record(&out, fpsym_report::ALL_PATHS);
    let paths: Vec<(&str, &str)> = j.paths.iter().map(|p| (p.path.as_str(), p.verdict.as_str())).collect();
    assert_eq!(paths.len(), 2, "{text}");
    assert!(paths.iter().all(|(_, v)| *v == "feasible"), "{text}");
    let s = common::summary(&out);
    assert!(s.stats.retries > 0, "the solver was not slow: {s:?}");
}

#[test]
fn a_line_folded_into_a_phi_is_a_target_and_an_uncalled_one_says_so() {
    // `hi = mid;` (line 9) and `s = -1;` (line 16) are stores at -O0,
    // which mem2reg folds into phis: the blocks that held them are the
    // targets (before, "line 9 has no code").
    let file = fixture("path_folded.c");
    for (function, line) in [("bisect", "9"), ("bisect", "7"), ("sign", "16")] {
        let (code, text, v, _) = path(&file, function, &["--reach", line, "--replay"], &format!("fold{line}"));
        assert_eq!(code, Some(1), "{function}:{line}: {text}");
        assert_eq!(v.name(), "feasible", "{text}");
        assert!(
            text.contains(&format!("finding reached at path_folded.c:{line} (test 0000"))
                && text.contains("): confirmed"),
            "{text}"
        );
    }
    // A line of a function the entry does not call.
    let (code, text, v, _) = path(&file, "never", &["--reach", "16"], "uncalled");
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(v.name(), "infeasible", "{text}");
    assert!(
        v.why()
            .unwrap()
            .contains("the code of line 16 is in `sign`, which `never` does not call"),
        "{v:?}"
    );
}

#[test]
fn reach_prunes_what_cannot_reach_the_line_but_not_exit_handlers() {
    let file = fixture("path_prune.c");
    let (code, text, v, out) = path(&file, "f", &["--reach", "9", "--no-replay"], "prune");
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(v.name(), "infeasible", "{text}");
    let stats = common::summary(&out);
    let queries = stats.stats.queries;
    // The branch, the excluded side's feasibility and its test's model.
    assert!(
        queries <= 4,
        "the loop after the branch was explored: {queries} queries\n{text}"
    );
    // The excluded side ends with a test, so that replay can check natively
    // that its input does not reach the line either.
    assert_eq!(stats.stats.tests, 1, "{text}");
    // A line only an atexit handler reaches, after the entry returns.
    let (code, text, v, _) = path(&file, "g", &["--reach", "23", "--replay"], "handler");
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(v.name(), "feasible", "{text}");
}
