//! The verification competitions' formats (issue 36), end to end on
//! tests/c/svcomp_witness.c: the violation witness of `run --property
//! unreach-call` validates against format 2.0's schema and is confirmed by
//! `replay --witness` (a tampered one is not); `export --testcomp` writes a
//! suite TestCov executes to the error and to full branch coverage; the
//! BenchExec tool-info module (contrib/benchexec/fpsym.py) runs tasks
//! through BenchExec itself, passing their data model on. The ILP32 data
//! model (svcomp_ilp32_*.c: tasks true of x86-64 and false of i386) is
//! decided and its witnesses confirmed by the native i386 build. A crash
//! only the fuzzing phase reaches (svcomp_fuzz_only.c) gets its witness
//! too. TestCov and BenchExec come from PyPI into
//! target/competition-venv (scripts/bootstrap); a test needing them fails
//! naming them when they are missing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name)
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fresh, empty directory in the temporary directory.
fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fpsym-comp-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn fpsym(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

/// An executable of scripts/bootstrap's virtual environment.
fn venv_tool(name: &str, package: &str) -> PathBuf {
    let p = workspace().join("target/competition-venv/bin").join(name);
    assert!(
        p.exists(),
        "{} is missing: the PyPI package {package}, which scripts/bootstrap installs into target/competition-venv",
        p.display()
    );
    p
}

/// The task's source and a .prp file in `dir`; runs `fpsym run` there.
fn run_task(dir: &Path, prp: &str, extra: &[&str]) -> Output {
    std::fs::copy(fixture("svcomp_witness.c"), dir.join("task.c")).unwrap();
    std::fs::write(dir.join("task.prp"), format!("{prp}\n")).unwrap();
    let mut args = vec![
        "run",
        "task.c",
        "--property",
        "task.prp",
        "-o",
        "out",
        "--max-time",
        "60",
    ];
    args.extend(extra);
    fpsym(&args, dir)
}

const UNREACH_CALL: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )";
const COVER_ERROR: &str = "COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )";
const COVER_BRANCHES: &str = "COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )";

fn witness_validator() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/witness-2.0.schema.json");
    let schema: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

#[test]
fn a_violation_witness_validates_and_is_confirmed_natively() {
    let dir = scratch("witness");
    let o = run_task(&dir, UNREACH_CALL, &[]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(t.contains("sv-comp: false(unreach-call)\n"), "{t}");
    assert!(t.contains("witness: out/witness.yml\n"), "{t}");
    let yaml = std::fs::read_to_string(dir.join("out/witness.yml")).unwrap();
    let w: serde_json::Value = serde_yaml_ng::from_str(&yaml).unwrap();
    let errors: Vec<String> = witness_validator()
        .iter_errors(&w)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "invalid witness:\n{}\n{yaml}", errors.join("\n"));

    // The task: the file as given, its SHA-256, LP64.
    let task = &w[0]["metadata"]["task"];
    assert_eq!(task["input_files"], serde_json::json!(["task.c"]));
    assert_eq!(task["data_model"], "LP64");
    assert_eq!(task["specification"], "G ! call(reach_error())");
    let hash = task["input_file_hashes"]["task.c"].as_str().unwrap();
    let sha = Command::new("sha256sum").arg(dir.join("task.c")).output().unwrap();
    assert!(String::from_utf8_lossy(&sha.stdout).starts_with(hash), "{hash}");

    // One follow waypoint per segment: a function_return per nondet call
    // of the path, in call order, then the target.
    let source = std::fs::read_to_string(dir.join("task.c")).unwrap();
    let lines: Vec<&str> = source.lines().collect();
    let segments = w[0]["content"].as_array().unwrap();
    let mut calls = Vec::new();
    for (k, s) in segments.iter().enumerate() {
        let wps = s["segment"].as_array().unwrap();
        assert_eq!(wps.len(), 1, "{yaml}");
        let wp = &wps[0]["waypoint"];
        assert_eq!(wp["action"], "follow");
        let loc = &wp["location"];
        let (line, column) = (
            loc["line"].as_u64().unwrap() as usize,
            loc["column"].as_u64().unwrap() as usize,
        );
        if k + 1 == segments.len() {
            assert_eq!(wp["type"], "target", "{yaml}");
            assert!(lines[line - 1][column - 1..].starts_with("reach_error()"), "{yaml}");
            assert_eq!(loc["function"], "main");
        } else {
            assert_eq!(wp["type"], "function_return", "{yaml}");
            // The column is the call's closing parenthesis.
            let upto = &lines[line - 1][..column];
            assert!(upto.ends_with("()"), "{line}:{column} in {upto:?}");
            let callee = upto
                .trim_end_matches("()")
                .rsplit(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .next();
            calls.push((
                callee.unwrap().to_string(),
                loc["function"].as_str().unwrap().to_string(),
                line,
                column,
            ));
            assert!(
                wp["constraint"]["value"].as_str().unwrap().starts_with("\\result == "),
                "{yaml}"
            );
        }
    }
    let names: Vec<(&str, &str)> = calls.iter().map(|(c, f, _, _)| (c.as_str(), f.as_str())).collect();
    assert_eq!(
        names,
        [
            ("__VERIFIER_nondet_int", "main"),
            ("__VERIFIER_nondet_float", "main"),
            ("__VERIFIER_nondet_float", "main"),
            ("__VERIFIER_nondet_double", "scaled"),
        ],
        "{yaml}"
    );
    // The two calls on one line have two columns.
    assert_eq!(calls[1].2, calls[2].2);
    assert!(calls[1].3 < calls[2].3);

    // Natively, the witness's values reach reach_error at its line.
    let o = fpsym(&["replay", "out", "--witness", "out/witness.yml"], &dir);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(
        t.contains("witness confirmed: reach_error called at task.c:22 natively (4 nondet value(s)"),
        "{t}"
    );

    // A witness whose k is out of [2, 5] does not.
    let first = segments[0]["segment"][0]["waypoint"]["constraint"]["value"]
        .as_str()
        .unwrap()
        .to_string();
    let bad = yaml.replacen(&first, "\\result == 7", 1);
    assert_ne!(bad, yaml);
    std::fs::write(dir.join("bad.yml"), bad).unwrap();
    let o = fpsym(&["replay", "out", "--witness", "bad.yml"], &dir);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(
        t.contains("witness not confirmed: with its 4 nondet value(s) the program ended by exit"),
        "{t}"
    );
    // A witness fpsym cannot read is an input error naming the waypoint.
    std::fs::write(dir.join("junk.yml"), yaml.replacen(&first, "\\result > 7", 1)).unwrap();
    let o = fpsym(&["replay", "out", "--witness", "junk.yml"], &dir);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(
        t.contains("junk.yml: waypoint 1 (task.c:18): constraint `\\result > 7` is not one fpsym reads"),
        "{t}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_crash_only_the_fuzzer_reaches_gets_its_finding_test_and_witness() {
    // The symbolic search does not get through the loop of
    // svcomp_fuzz_only.c in its time; the fuzzer's crash, run on the
    // engine concretely, becomes the run's finding with a test, and the
    // witness is written from that test's nondet values.
    let dir = scratch("fuzzonly");
    std::fs::copy(fixture("svcomp_fuzz_only.c"), dir.join("task.c")).unwrap();
    let args = [
        "run",
        "task.c",
        "--property",
        "unreach-call",
        "-o",
        "out",
        "--max-time",
        "14",
        "--fuzz-time",
        "3",
    ];
    let o = fpsym(&args, &dir);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(t.contains("sv-comp: false(unreach-call)\n"), "{t}");
    assert!(
        t.contains("reached by running its input on the engine: the search did not get there)"),
        "{t}"
    );
    assert!(t.contains("reach-error at ") && t.contains("task.c:20:5 (test "), "{t}");
    assert!(t.contains("witness: out/witness.yml\n"), "{t}");
    let yaml = std::fs::read_to_string(dir.join("out/witness.yml")).unwrap();
    let w: serde_json::Value = serde_yaml_ng::from_str(&yaml).unwrap();
    let errors: Vec<String> = witness_validator().iter_errors(&w).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "invalid witness: {errors:?}\n{yaml}");
    let segments = w[0]["content"].as_array().unwrap();
    let lines: Vec<u64> = segments
        .iter()
        .map(|s| s["segment"][0]["waypoint"]["location"]["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [12, 13, 20], "{yaml}");
    let check = fpsym(&["replay", "out", "--witness", "out/witness.yml"], &dir);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check));
    assert!(
        text(&check).contains("witness confirmed: reach_error called at task.c:20 natively (2 nondet value(s)"),
        "{}",
        text(&check)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_proof_comes_with_a_correctness_witness() {
    let dir = scratch("correct");
    std::fs::copy(fixture("svcomp_unreach_true.i"), dir.join("task.i")).unwrap();
    let o = fpsym(&["run", "task.i", "--property", "unreach-call", "-o", "out"], &dir);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(t.contains("sv-comp: true\n"), "{t}");
    assert!(t.contains("witness: out/witness.yml\n"), "{t}");
    let yaml = std::fs::read_to_string(dir.join("out/witness.yml")).unwrap();
    let w: serde_json::Value = serde_yaml_ng::from_str(&yaml).unwrap();
    let errors: Vec<String> = witness_validator().iter_errors(&w).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "invalid witness:\n{}\n{yaml}", errors.join("\n"));
    // Every path explored: no invariant is needed, none is claimed.
    assert_eq!(w[0]["entry_type"], "invariant_set", "{yaml}");
    assert_eq!(w[0]["content"], serde_json::json!([]), "{yaml}");
    assert_eq!(w[0]["metadata"]["task"]["input_files"], serde_json::json!(["task.i"]));
    // It is no violation witness to replay.
    let o = fpsym(&["replay", "out", "--witness", "out/witness.yml"], &dir);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("no entry of type violation_sequence"), "{t}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_loop_proof_states_its_invariants_in_the_correctness_witness() {
    let dir = scratch("loop-proof");
    std::fs::copy(fixture("prove_filter.c"), dir.join("task.c")).unwrap();
    let o = fpsym(
        &[
            "run",
            "task.c",
            "--property",
            "unreach-call",
            "--max-time",
            "4",
            "-o",
            "out",
        ],
        &dir,
    );
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(
        t.contains("verdict: verified (invariant at task.c:15: y in [-2.0, 2.0])\n"),
        "{t}"
    );
    assert!(t.contains("sv-comp: true\n"), "{t}");
    // fpsym's own queries show the invariant inductive (base and step).
    assert!(
        t.contains(
            "invariant at task.c:15: 1 of 1 ranges checked inductive together by queries (base and step case)\n"
        ),
        "{t}"
    );
    let yaml = std::fs::read_to_string(dir.join("out/witness.yml")).unwrap();
    let w: serde_json::Value = serde_yaml_ng::from_str(&yaml).unwrap();
    let errors: Vec<String> = witness_validator().iter_errors(&w).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "invalid witness:\n{}\n{yaml}", errors.join("\n"));
    // The invariant at the `while` keyword (line 15, column 3), in exact
    // hexadecimal bounds.
    let inv = &w[0]["content"][0]["invariant"];
    assert_eq!(inv["type"], "loop_invariant", "{yaml}");
    assert_eq!(inv["location"]["file_name"], "task.c", "{yaml}");
    assert_eq!(inv["location"]["line"], 15, "{yaml}");
    assert_eq!(inv["location"]["column"], 3, "{yaml}");
    assert_eq!(inv["location"]["function"], "main", "{yaml}");
    assert_eq!(inv["value"], "y >= -0x1p+1 && y <= 0x1p+1", "{yaml}");
    assert_eq!(inv["format"], "c_expression", "{yaml}");
    // A second-order filter's proof is a polytope: its linear constraints
    // go to the witness in ACSL (arithmetic in the reals).
    let example = workspace().join("docs/examples/filter_loop.c");
    std::fs::copy(example, dir.join("filter.c")).unwrap();
    let o = fpsym(
        &[
            "run",
            "filter.c",
            "--property",
            "unreach-call",
            "--max-time",
            "20",
            "-o",
            "out2",
        ],
        &dir,
    );
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(t.contains("linear constraints)\n"), "{t}");
    // Its constraints are checked too (the count of those shown depends on
    // the solvers' time).
    assert!(
        t.contains(" of 17 linear constraints checked inductive together by queries"),
        "{t}"
    );
    let yaml = std::fs::read_to_string(dir.join("out2/witness.yml")).unwrap();
    let w: serde_json::Value = serde_yaml_ng::from_str(&yaml).unwrap();
    let errors: Vec<String> = witness_validator().iter_errors(&w).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "invalid witness:\n{}\n{yaml}", errors.join("\n"));
    let inv = &w[0]["content"][0]["invariant"];
    assert_eq!(inv["format"], "acsl_expression", "{yaml}");
    assert!(inv["value"].as_str().unwrap().contains(")*y1 + ("), "{yaml}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_abort_under_an_assumption_is_no_violation_and_no_contradiction() {
    // With the fuzzing phase on (it is with --max-time), the inputs outside
    // the assumption abort natively as their tests say: under unreach-call
    // that is no finding and agrees with the model (it used to be called a
    // contradiction: exit 3, verdict unknown).
    let dir = scratch("assume");
    std::fs::copy(fixture("svcomp_assume_abort.c"), dir.join("task.c")).unwrap();
    for _ in 0..2 {
        // The second run replaces the first's results, witness included.
        let o = fpsym(
            &[
                "run",
                "task.c",
                "--property",
                "unreach-call",
                "-o",
                "out",
                "--force",
                "--max-time",
                "30",
            ],
            &dir,
        );
        let t = text(&o);
        assert_eq!(o.status.code(), Some(1), "{t}");
        assert!(t.starts_with("fuzzing: "), "the fuzzing phase ran: {t}");
        assert!(t.contains("verdict: bug found (every path explored)\n"), "{t}");
        assert!(t.contains("sv-comp: false(unreach-call)\n"), "{t}");
        assert!(!t.contains("disagrees"), "{t}");
        assert!(t.contains("witness: out/witness.yml\n"), "{t}");
    }
    let o = fpsym(&["replay", "out", "--witness", "out/witness.yml"], &dir);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // Test-Comp's branch coverage counts the same way: the abort is a
    // path's end, reach_error the one finding.
    let o = fpsym(
        &[
            "run",
            "task.c",
            "--property",
            "coverage-branches",
            "-o",
            "cov",
            "--max-time",
            "30",
        ],
        &dir,
    );
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(t.contains("findings: 1\n") && t.contains("reach-error at"), "{t}");
    assert!(!t.contains("abort at"), "{t}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn edge_values_travel_exactly_through_witnesses_and_suites() {
    // A negative zero, a subnormal, +inf and a NaN: each written exactly,
    // each handed back natively (by replay --witness, and by TestCov's
    // scanf-based harness for the Test-Comp suite).
    let dir = scratch("edges");
    std::fs::copy(fixture("svcomp_witness_edges.c"), dir.join("task.c")).unwrap();
    let o = fpsym(&["run", "task.c", "--property", "unreach-call", "-o", "out"], &dir);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    let yaml = std::fs::read_to_string(dir.join("out/witness.yml")).unwrap();
    let negative_zero = "\\result == -0x0p+0 && \\sign(\\result) == \\Negative";
    for c in [
        negative_zero,
        "\\result == 0x0.",
        "\\is_plus_infinity(\\result)",
        "\\is_NaN(\\result)",
    ] {
        assert!(yaml.contains(c), "{c}: {yaml}");
    }
    let o = fpsym(&["replay", "out", "--witness", "out/witness.yml"], &dir);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // +0 in place of -0 does not reach it (1/z is +inf).
    std::fs::write(
        dir.join("plus.yml"),
        yaml.replacen(negative_zero, "\\result == 0x0p+0", 1),
    )
    .unwrap();
    let o = fpsym(&["replay", "out", "--witness", "plus.yml"], &dir);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    // The same values as Test-Comp inputs, read back by TestCov's harness.
    let report = testcov(&dir, COVER_ERROR);
    let suite: String = std::fs::read_dir(dir.join("suite"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    for v in [
        "<input>-0x0p+0</input>",
        "<input>0x0.",
        "<input>inf</input>",
        "nan</input>",
    ] {
        assert!(suite.contains(v), "{v}: {suite}");
    }
    assert!(report.contains("Result: TRUE"), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Zips the suite directory the way Test-Comp hands suites to TestCov.
fn zip_suite(suite: &Path, zip: &Path) {
    let o = Command::new("python3")
        .args(["-c", "import sys, zipfile, pathlib\nwith zipfile.ZipFile(sys.argv[2], 'w') as z:\n    for p in sorted(pathlib.Path(sys.argv[1]).glob('*.xml')): z.write(p, p.name)"])
        .arg(suite)
        .arg(zip)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
}

/// TestCov on the suite `out` exported, with goal `prp`: its report.
fn testcov(dir: &Path, prp: &str) -> String {
    let testcov = venv_tool("testcov", "TestCov");
    let o = fpsym(&["export", "out", "--testcomp", "suite"], dir);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(t.contains("Test-Comp test suite,"), "{t}");
    // The metadata names the program, its hash and the specification.
    let meta = std::fs::read_to_string(dir.join("suite/metadata.xml")).unwrap();
    let doc = roxmltree::Document::parse_with_options(
        &meta,
        roxmltree::ParsingOptions {
            allow_dtd: true,
            ..Default::default()
        },
    )
    .unwrap();
    let field = |n: &str| {
        doc.descendants()
            .find(|e| e.has_tag_name(n))
            .and_then(|e| e.text())
            .map(str::to_string)
    };
    assert_eq!(field("specification").as_deref(), Some(prp), "{meta}");
    assert_eq!(field("architecture").as_deref(), Some("64bit"), "{meta}");
    assert!(meta.contains("test-metadata-1.1.dtd"), "{meta}");
    zip_suite(&dir.join("suite"), &dir.join("suite.zip"));
    std::fs::write(dir.join("goal.prp"), format!("{prp}\n")).unwrap();
    let o = Command::new(testcov)
        .args([
            "--no-isolation",
            "-64",
            "--goal",
            "goal.prp",
            "--test-suite",
            "suite.zip",
            "task.c",
        ])
        .current_dir(dir)
        .output()
        .unwrap();
    text(&o)
}

#[test]
fn a_test_comp_suite_reaches_the_error_under_testcov() {
    let dir = scratch("cover-error");
    let o = run_task(&dir, COVER_ERROR, &[]);
    let t = text(&o);
    // Test generation: the run says what it found, no SV-COMP verdict.
    assert!(!t.contains("sv-comp:"), "{t}");
    assert!(t.contains("reach-error at"), "{t}");
    let report = testcov(&dir, COVER_ERROR);
    assert!(report.contains("Result: TRUE"), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_test_comp_suite_covers_every_branch_under_testcov() {
    let dir = scratch("cover-branches");
    let o = run_task(&dir, COVER_BRANCHES, &[]);
    let t = text(&o);
    assert!(t.contains("every path explored"), "{t}");
    let report = testcov(&dir, COVER_BRANCHES);
    assert!(report.contains("Coverage: 100.0%"), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn benchexec_runs_tasks_through_the_tool_info_module() {
    let benchexec = venv_tool("benchexec", "BenchExec");
    let dir = scratch("benchexec");
    std::fs::copy(fixture("svcomp_witness.c"), dir.join("false.c")).unwrap();
    std::fs::copy(fixture("svcomp_unreach_true.i"), dir.join("true.i")).unwrap();
    std::fs::write(dir.join("unreach-call.prp"), format!("{UNREACH_CALL}\n")).unwrap();
    std::fs::copy(fixture("svcomp_ilp32_long.c"), dir.join("long.c")).unwrap();
    for (name, file, verdict, model) in [
        ("false", "false.c", "false", "LP64"),
        ("true", "true.i", "true", "LP64"),
        // The task's data model reaches fpsym: under ILP32 this task is
        // false, under LP64 true.
        ("ilp32", "long.c", "false", "ILP32"),
    ] {
        std::fs::write(
            dir.join(format!("{name}.yml")),
            format!(
                "format_version: '2.0'\ninput_files: '{file}'\nproperties:\n  - property_file: unreach-call.prp\n    \
                 expected_verdict: {verdict}\noptions:\n  language: C\n  data_model: {model}\n"
            ),
        )
        .unwrap();
    }
    std::fs::write(
        dir.join("bench.xml"),
        r#"<?xml version="1.0"?>
<!DOCTYPE benchmark PUBLIC "+//IDN sosy-lab.org//DTD BenchExec benchmark 2.3//EN" "https://www.sosy-lab.org/benchexec/benchmark-2.3.dtd">
<benchmark tool="fpsym" timelimit="120 s" cpuCores="2">
  <rundefinition name="sv-comp"/>
  <tasks name="floats">
    <include>*.yml</include>
    <propertyfile>unreach-call.prp</propertyfile>
  </tasks>
</benchmark>
"#,
    )
    .unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_fpsym")).parent().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let o = Command::new(benchexec)
        .args(["--no-container", "bench.xml", "-o", "results/"])
        .env("PATH", path)
        .current_dir(&dir)
        .output()
        .unwrap();
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    // Each task's status as BenchExec's table gives it (after the time).
    let status = |task: &str| {
        t.lines().find_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let k = words.iter().position(|w| *w == task)?;
            words.get(k + 1).map(|w| w.to_string())
        })
    };
    assert_eq!(status("false.yml").as_deref(), Some("false(unreach-call)"), "{t}");
    assert_eq!(status("true.yml").as_deref(), Some("true"), "{t}");
    assert_eq!(status("ilp32.yml").as_deref(), Some("false(unreach-call)"), "{t}");
    assert!(t.contains("correct:               3"), "{t}");
    assert!(t.contains("incorrect:             0"), "{t}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `fixture` under `--property unreach-call` with the data model in
/// `dir` (no fuzzing: the symbolic run must decide); its output.
fn run_model(dir: &Path, fixture_name: &str, model: &str, out: &str, extra: &[&str]) -> Output {
    std::fs::copy(fixture(fixture_name), dir.join(fixture_name)).unwrap();
    let mut args = vec![
        "run",
        fixture_name,
        "--property",
        "unreach-call",
        "--data-model",
        model,
        "-o",
        out,
        "--max-time",
        "60",
    ];
    args.extend(extra);
    fpsym(&args, dir)
}

#[test]
fn the_data_model_decides_the_verdict() {
    // Each task is true of x86-64 and false of i386: `long` wraps at 2^32;
    // pointers take 4 bytes and a double in a struct is aligned to 4; a
    // double returned through x87's st0 loses its signalling NaN; an
    // unsigned zero converts to -0.0 toward negative.
    let dir = scratch("models");
    for task in [
        "svcomp_ilp32_long.c",
        "svcomp_ilp32_layout.c",
        "svcomp_ilp32_snan.c",
        "svcomp_ilp32_zero.c",
    ] {
        let lp64 = run_model(&dir, task, "LP64", "lp64", &["--fuzz-time", "0"]);
        let t = text(&lp64);
        assert_eq!(lp64.status.code(), Some(0), "{task} LP64: {t}");
        assert!(t.contains("sv-comp: true\n"), "{task} LP64: {t}");
        let ilp32 = run_model(&dir, task, "ILP32", "ilp32", &["--fuzz-time", "0"]);
        let t = text(&ilp32);
        assert_eq!(ilp32.status.code(), Some(1), "{task} ILP32: {t}");
        assert!(t.contains("sv-comp: false(unreach-call)\n"), "{task} ILP32: {t}");
        // The witness names the data model, and its values reach the error
        // in the native i386 build.
        let yaml = std::fs::read_to_string(dir.join("ilp32/witness.yml")).unwrap();
        let w: serde_json::Value = serde_yaml_ng::from_str(&yaml).unwrap();
        assert_eq!(w[0]["metadata"]["task"]["data_model"], "ILP32", "{yaml}");
        let errors: Vec<String> = witness_validator().iter_errors(&w).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{task}: invalid witness: {errors:?}");
        let check = fpsym(&["replay", "ilp32", "--witness", "ilp32/witness.yml"], &dir);
        assert_eq!(check.status.code(), Some(0), "{task}: {}", text(&check));
        assert!(text(&check).contains("witness confirmed"), "{task}: {}", text(&check));
        for out in ["lp64", "ilp32"] {
            let _ = std::fs::remove_dir_all(dir.join(out));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_ilp32_run_fuzzes_walks_i386_varargs_and_exports_a_32_bit_suite() {
    let dir = scratch("ilp32");
    // With the fuzzing phase: the fuzzer is built for i386 too.
    let o = run_model(&dir, "ilp32_varargs.c", "ILP32", "out", &[]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(t.contains("sv-comp: false(unreach-call)\n"), "{t}");
    assert!(t.contains("fuzzing: "), "{t}");
    assert!(!t.contains("no fuzzing phase"), "{t}");
    let check = fpsym(&["replay", "out", "--witness", "out/witness.yml"], &dir);
    assert!(text(&check).contains("witness confirmed"), "{}", text(&check));
    let e = fpsym(&["export", "out", "--testcomp", "suite"], &dir);
    assert!(e.status.success(), "{}", text(&e));
    let meta = std::fs::read_to_string(dir.join("suite/metadata.xml")).unwrap();
    assert!(meta.contains("<architecture>32bit</architecture>"), "{meta}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ilp32_refuses_what_it_does_not_model() {
    let dir = scratch("ilp32-refused");
    std::fs::write(
        dir.join("sine.c"),
        "#include <math.h>\nextern double __VERIFIER_nondet_double(void);\nextern void reach_error(void);\n\
         int main(void) { double x = __VERIFIER_nondet_double(); if (sin(x) > 2.0) reach_error(); return 0; }\n",
    )
    .unwrap();
    // A transcendental libm call: i386's glibc is not x86-64's, so the
    // path stops unsupported and the verdict is unknown, never `true`.
    let o = fpsym(
        &[
            "run",
            "sine.c",
            "--property",
            "unreach-call",
            "--data-model",
            "ILP32",
            "-o",
            "a",
            "--fuzz-time",
            "0",
        ],
        &dir,
    );
    let t = text(&o);
    assert!(t.contains("sv-comp: unknown\n"), "{t}");
    assert!(t.contains("sin under ILP32"), "{t}");
    // Modes whose claims are checked on x86-64 only refuse it.
    let o = fpsym(&["exceptions", "sine.c", "--data-model", "ILP32", "-o", "b"], &dir);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("`fpsym exceptions` models x86-64 (LP64) only"),
        "{}",
        text(&o)
    );
    // i386 code without SSE2 computes floats in x87 registers: refused.
    let o = fpsym(&["run", "sine.c", "--cflag", "-m32", "-o", "c"], &dir);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("compiled for i386 without SSE2"), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&dir);
}
