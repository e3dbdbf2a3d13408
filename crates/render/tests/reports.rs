//! `write_reports` on output directories made with the crate's own sinks:
//! report.sarif validates against the SARIF 2.1.0 schema (vendored in
//! tests/data, see its README) and says the findings, junit.xml parses
//! with the right counts, report.html has every part; a run killed before
//! stats.json still gets its reports.

use fpsym_render::{write_reports_relative_to, HTML, JUNIT, SARIF};
use fpsym_report::*;
use std::path::{Path, PathBuf};

/// The SARIF 2.1.0 schema (OASIS; from the crates.io package serde-sarif
/// 0.8.0, MIT; see tests/data/README.md).
fn sarif_validator() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sarif-schema-2.1.0.json");
    let schema: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    // The published file's `language` patterns (of `run` and
    // `toolComponent`), `^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$`, have a
    // stray `]` that the draft-07 meta-schema's `format: regex` check
    // refuses, so the schema does not compile as published: those two
    // patterns are replaced here, in memory, by what they mean (fpsym
    // writes no `language`); the rest is used as published.
    let mut schema = schema;
    for def in ["run", "toolComponent"] {
        let pattern = &mut schema["definitions"][def]["properties"]["language"]["pattern"];
        assert_eq!(
            pattern, "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$",
            "the vendored schema changed"
        );
        *pattern = serde_json::json!("^[a-zA-Z]{2}(-[a-zA-Z]{2})?$");
    }
    jsonschema::validator_for(&schema).unwrap()
}

/// Asserts `v` is valid SARIF 2.1.0, listing every violation otherwise.
fn assert_valid_sarif(v: &serde_json::Value) {
    let validator = sarif_validator();
    let errors: Vec<String> = validator
        .iter_errors(v)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "invalid SARIF:\n{}\n{v:#}", errors.join("\n"));
}

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fpsym-report-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn double(name: &str, v: f64) -> TestObject {
    TestObject {
        name: name.into(),
        ty: "double".into(),
        bytes: v.to_le_bytes().iter().map(|b| format!("{b:02x}")).collect(),
        value: Some(format!("{v:e}")),
        hex: Some(hex_float(fpsym_float::Float::from_f64(v))),
        elements: vec![],
        site: None,
    }
}

/// A run directory: a source file with a failing assertion reached from
/// `g` called by `main`, a message full of markup, two tests, replay with
/// per-line coverage, progress samples.
fn make_run(root: &Path, with_stats: bool) -> PathBuf {
    make_run_in(root, "out", with_stats)
}

/// [`make_run`] into `root/out`.
fn make_run_in(root: &Path, out: &str, with_stats: bool) -> PathBuf {
    let src = root.join("src").join("prog <1>.c");
    std::fs::create_dir_all(src.parent().unwrap()).unwrap();
    std::fs::write(
        &src,
        "#include <assert.h>\nstatic void g(double x) {\n  assert(x < 1.0);\n}\nint main(void) {\n  double x;\n  g(x);\n  return 0;\n}\n",
    )
    .unwrap();
    let out = root.join(out);
    let mut sink = DirSink::create(&out).unwrap();
    let file = src.to_string_lossy().into_owned();
    sink.test(&Test {
        id: 1,
        objects: vec![double("x", 1.5)],
        end: PathEnd::Error(FindingKind::AssertionFailure),
    })
    .unwrap();
    sink.test(&Test {
        id: 2,
        objects: vec![double("x", 0.25)],
        end: PathEnd::Exit(0),
    })
    .unwrap();
    sink.finding(&Finding {
        kind: FindingKind::AssertionFailure,
        file: file.clone(),
        line: 3,
        column: 3,
        stack: vec![format!("g (called at {file}:7:3)").as_str().into(), "main".into()],
        test: 1,
        message: "assertion `x < 1.0 && \"<&\\\"'>\"` failed".into(),
        inputs: None,
        avoidable: None,
        operation: None,
        operands: vec![],
        result: None,
    })
    .unwrap();
    sink.event(&Event::Concretized {
        loc: Some(Loc {
            file: file.clone(),
            line: 6,
            column: 10,
        }),
        reason: "a <symbolic> size".into(),
    })
    .unwrap();
    // As JSON (fields added to RunRecord later have defaults).
    write_json(
        &out.join(RUN_RECORD),
        &serde_json::json!({"files": [file.clone()], "entry": {"main": true}, "property": null}),
    )
    .unwrap();
    if with_stats {
        sink.finish(&Summary {
            stats: Stats {
                tests: 2,
                findings: 1,
                paths_completed: 2,
                seconds: 1.25,
                branches_covered: 2,
                branches_total: 2,
                ..Stats::default()
            },
            stop: StopReason::Exhausted,
            verdict: Verdict::BugFound,
            incomplete: Some("concretized: a <symbolic> size".into()),
            directed_incomplete: None,
            solver: Default::default(),
            property: None,
            sv_comp: None,
            printed: vec![],
            phases: vec![],
            proof: None,
        })
        .unwrap();
    }
    let replay = ReplayReport {
        tests: vec![],
        findings: vec![FindingResult {
            kind: FindingKind::AssertionFailure,
            file: file.clone(),
            line: 3,
            test: 1,
            observed: Observed::bare(Observation::Finding(FindingKind::AssertionFailure)),
            confirmed: true,
            reason: None,
        }],
        coverage: Some(Coverage {
            lines: CoverageCount {
                count: 6,
                covered: 5,
                percent: 83.3,
            },
            branches: CoverageCount {
                count: 2,
                covered: 2,
                percent: 100.0,
            },
            files: vec![FileLines {
                file: file.clone(),
                lines: vec![(2, 2), (3, 2), (4, 1), (5, 2), (7, 2), (8, 0)],
            }],
        }),
    };
    write_json(&out.join(REPLAY), &replay).unwrap();
    let progress: String = [(0.1, 1, 0), (0.6, 2, 1), (1.2, 2, 1)]
        .iter()
        .map(|(s, p, f)| {
            serde_json::to_string(&ProgressSample {
                seconds: *s,
                paths: *p,
                tests: *p,
                findings: *f,
                branches_covered: *p,
                branches_total: 2,
                ..ProgressSample::default()
            })
            .unwrap()
                + "\n"
        })
        .collect();
    std::fs::write(out.join(PROGRESS), progress).unwrap();
    out
}

#[test]
fn reports_of_a_run() {
    let root = scratch("run");
    let out = make_run(&root, true);
    write_reports_relative_to(&out, Some(&root)).unwrap();
    // SARIF: valid, the finding with its rule, place, stack and input.
    let sarif: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join(SARIF)).unwrap()).unwrap();
    assert_valid_sarif(&sarif);
    let run = &sarif["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "fpsym");
    assert_eq!(run["tool"]["driver"]["rules"][0]["id"], "assertion-failure");
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
    let r = &run["results"][0];
    assert_eq!(r["ruleId"], "assertion-failure");
    let loc = &r["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "src/prog%20%3C1%3E.c");
    assert_eq!(loc["region"]["startLine"], 3);
    assert_eq!(
        r["codeFlows"][0]["threadFlows"][0]["locations"][0]["location"]["physicalLocation"]["region"]["startLine"],
        7
    );
    assert_eq!(r["properties"]["input"][0]["value"], "1.5e0");
    assert_eq!(r["properties"]["confirmedByReplay"], true);
    // JUnit: one suite, a failing case for the finding, two passing tests
    // and the verdict's.
    let xml = std::fs::read_to_string(out.join(JUNIT)).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let suites: Vec<_> = doc.descendants().filter(|n| n.has_tag_name("testsuite")).collect();
    assert_eq!(suites.len(), 1);
    assert_eq!(suites[0].attribute("tests"), Some("4"));
    assert_eq!(suites[0].attribute("failures"), Some("1"));
    assert_eq!(suites[0].attribute("time"), Some("1.250"));
    let failure = doc.descendants().find(|n| n.has_tag_name("failure")).unwrap();
    assert_eq!(failure.attribute("type"), Some("assertion-failure"));
    let message = failure.attribute("message").unwrap();
    assert!(message.contains("src/prog <1>.c:3:3"), "{message}");
    assert!(message.contains("\"<&\\\"'>\""), "{message}");
    assert!(failure.text().unwrap().contains("input: x = 1.5e0 (0x1.8p+0)"), "{xml}");
    let names: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .filter_map(|n| n.attribute("name"))
        .collect();
    assert!(names.contains(&"test 000002: exit 0"), "{names:?}");
    // HTML: self-contained, every part there, markup escaped.
    let html = std::fs::read_to_string(out.join(HTML)).unwrap();
    for needle in [
        "fpsym run",
        "bug found",
        "every path explored",
        "assertion-failure",
        "confirmed by native replay",
        "<tr class=\"hit\"><td class=\"n\">3</td>",
        "0x1.8p+0",
        "Paths, tests and findings over time",
        "Branch coverage (LLVM IR) over time",
        "Native coverage",
        "<tr class=\"unc\"><td class=\"n\">8</td>",
        "a &lt;symbolic&gt; size",
    ] {
        assert!(html.contains(needle), "{needle} missing:\n{html}");
    }
    for banned in ["<script", "http://", "https://", "@import", "url("] {
        let outside_svg_ns = html.replace("http://www.w3.org/2000/svg", "");
        assert!(!outside_svg_ns.contains(banned), "{banned} in the page");
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_run_killed_before_stats_still_gets_reports() {
    let root = scratch("killed");
    let out = make_run(&root, false);
    // And a test file cut short by the kill.
    std::fs::write(out.join("tests/000003.json"), "{\"id\": 3, \"obj").unwrap();
    write_reports_relative_to(&out, Some(&root)).unwrap();
    let sarif: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join(SARIF)).unwrap()).unwrap();
    assert_valid_sarif(&sarif);
    assert_eq!(sarif["runs"][0]["invocations"][0]["executionSuccessful"], false);
    assert_eq!(sarif["runs"][0]["results"].as_array().unwrap().len(), 1);
    let xml = std::fs::read_to_string(out.join(JUNIT)).unwrap();
    roxmltree::Document::parse(&xml).unwrap();
    let html = std::fs::read_to_string(out.join(HTML)).unwrap();
    assert!(html.contains("no stats.json"), "{html}");
    assert!(html.contains("000003.json"), "the unreadable test is listed: {html}");
    // The reports are among what --force may remove.
    for f in [SARIF, JUNIT, HTML] {
        assert!(RUN_ENTRIES.contains(&f));
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_directory_with_nothing_is_an_error_only_when_missing() {
    let root = scratch("empty");
    write_reports_relative_to(&root, None).unwrap();
    let sarif: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(root.join(SARIF)).unwrap()).unwrap();
    assert_valid_sarif(&sarif);
    let e = write_reports_relative_to(&root.join("missing"), None).unwrap_err();
    assert!(e.to_string().contains("missing"), "{e}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn the_schema_catches_what_would_be_wrong() {
    let root = scratch("wrong");
    let out = make_run(&root, true);
    write_reports_relative_to(&out, Some(&root)).unwrap();
    let sarif: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join(SARIF)).unwrap()).unwrap();
    let validator = sarif_validator();
    assert!(validator.is_valid(&sarif));
    let mut line0 = sarif.clone();
    line0["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0.into();
    assert!(!validator.is_valid(&line0), "SARIF lines start at 1");
    let mut no_message = sarif.clone();
    no_message["runs"][0]["results"][0]
        .as_object_mut()
        .unwrap()
        .remove("message");
    assert!(!validator.is_valid(&no_message), "a result needs a message");
    let mut bad_level = sarif;
    bad_level["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!validator.is_valid(&bad_level));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_directory_of_functions_reports_all_of_them() {
    let root = scratch("functions");
    let f = make_run_in(&root, "all/functions/f", true);
    let g = make_run_in(&root, "all/functions/g", true);
    let all = root.join("all");
    for d in [&f, &g] {
        write_reports_relative_to(d, Some(&root)).unwrap();
    }
    write_reports_relative_to(&all, Some(&root)).unwrap();
    let sarif: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(all.join(SARIF)).unwrap()).unwrap();
    assert_valid_sarif(&sarif);
    let runs = sarif["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1, "one SARIF run per tool");
    let results = runs[0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert_eq!(results[1]["properties"]["testFile"], "functions/g/tests/000001.json");
    assert_eq!(runs[0]["invocations"].as_array().unwrap().len(), 2);
    let xml = std::fs::read_to_string(all.join(JUNIT)).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(doc.descendants().filter(|n| n.has_tag_name("testsuite")).count(), 2);
    assert_eq!(doc.root_element().attribute("failures"), Some("2"));
    let html = std::fs::read_to_string(all.join(HTML)).unwrap();
    assert!(
        html.contains("<a href=\"functions/g/report.html#finding-1\">"),
        "{html}"
    );
    assert!(html.contains("Findings by kind, all functions"), "{html}");
    let _ = std::fs::remove_dir_all(&root);
}
