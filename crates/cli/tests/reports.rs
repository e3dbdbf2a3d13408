//! The reports every command writes into its output directory, end to
//! end: `report.sarif` validates against the SARIF 2.1.0 schema and names
//! the finding where it is, `junit.xml` parses with a failing case per
//! finding and a passing one per test, and `report.html` is loaded by a
//! real headless browser (Debian's `chromium`): its screenshot is a picture,
//! not a blank page, and its DOM holds the finding and the charts. For
//! `run` (with native replay and per-line coverage), `error` (the error
//! against the input, one point per sample kept) and `exceptions` (bar
//! charts by kind and location).

mod common;

use fpsym_report::mode_records::{ErrorRecord, ERROR_RECORD};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name)
}

fn out_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fpsym-reports-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// `fpsym ARGS`: exit code and output (stdout and stderr).
fn fpsym(args: &[&str]) -> (Option<i32>, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym")).args(args).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    (o.status.code(), text)
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{}/{name}: {e}", dir.display()))
}

fn json(dir: &Path, name: &str) -> serde_json::Value {
    common::typed(&dir.join(name));
    serde_json::from_str(&read(dir, name)).unwrap()
}

/// The SARIF 2.1.0 schema vendored in the render crate (OASIS's, from the
/// crates.io package serde-sarif 0.8.0; see its tests/data/README.md).
fn assert_valid_sarif(v: &serde_json::Value) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../render/tests/data/sarif-schema-2.1.0.json");
    let mut schema: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    // The published `language` patterns have a stray `]` the draft-07
    // meta-schema refuses: replaced, in memory, by what they mean (fpsym
    // writes no `language`).
    for def in ["run", "toolComponent"] {
        let p = &mut schema["definitions"][def]["properties"]["language"]["pattern"];
        assert_eq!(
            p, "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$",
            "the vendored schema changed"
        );
        *p = serde_json::json!("^[a-zA-Z]{2}(-[a-zA-Z]{2})?$");
    }
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(v)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "invalid SARIF:\n{}\n{v:#}", errors.join("\n"));
}

/// The headless browser; a test that needs it fails (never skips) when it
/// is missing.
fn chromium() -> PathBuf {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("chromium"))
            .find(|p| p.is_file())
    });
    found.unwrap_or_else(|| {
        panic!(
            "chromium is not installed: the report tests load report.html in a headless browser; \
             install the Debian package `chromium` (scripts/bootstrap does)"
        )
    })
}

/// Runs headless chromium on `page` with `args`, at most a minute: its
/// stdout.
fn browse(page: &Path, args: &[String], tag: &str) -> String {
    let profile = std::env::temp_dir().join(format!("fpsym-chromium-{}-{tag}", std::process::id()));
    let url = format!("file://{}", page.canonicalize().unwrap().display());
    let mut child = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-extensions",
            // Nothing outside the page may load: a request would fail here.
            "--host-resolver-rules=MAP * ~NOTFOUND",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(&url)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("chromium (Debian package `chromium`) did not start: {e}"));
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut s).ok();
        s
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("chromium took more than a minute on {url}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = std::fs::remove_dir_all(&profile);
    reader.join().unwrap()
}

/// A screenshot of `page` (1280×2000): asserts it is a picture (many
/// colours, not one background), returns the number of distinct colours.
fn screenshot_colours(page: &Path, tag: &str) -> usize {
    let png_path = page.with_file_name(format!("screenshot-{tag}.png"));
    let _ = std::fs::remove_file(&png_path);
    browse(
        page,
        &[
            format!("--screenshot={}", png_path.display()),
            "--window-size=1280,2000".into(),
            "--hide-scrollbars".into(),
        ],
        tag,
    );
    let file = std::fs::File::open(&png_path)
        .unwrap_or_else(|e| panic!("chromium wrote no screenshot {}: {e}", png_path.display()));
    let decoder = png::Decoder::new(std::io::BufReader::new(file));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (1280, 2000));
    let channels = info.color_type.samples();
    let pixels = &buf[..info.buffer_size()];
    let colours: HashSet<&[u8]> = pixels.chunks(channels).collect();
    // The most common colour (the background) must not be nearly all.
    let mut counts = std::collections::HashMap::new();
    for p in pixels.chunks(channels) {
        *counts.entry(p).or_insert(0usize) += 1;
    }
    let background = counts.values().max().copied().unwrap_or(0);
    let total = pixels.len() / channels;
    assert!(
        colours.len() >= 200,
        "{}: only {} colours: a blank page?",
        png_path.display(),
        colours.len()
    );
    assert!(
        background < total * 95 / 100,
        "{}: {background} of {total} pixels are one colour",
        png_path.display()
    );
    colours.len()
}

/// The page's DOM after chromium loaded it.
fn dump_dom(page: &Path, tag: &str) -> String {
    let dom = browse(page, &["--dump-dom".into()], tag);
    assert!(
        dom.contains("<html"),
        "chromium dumped no DOM for {}: {dom}",
        page.display()
    );
    dom
}

#[test]
fn a_run_with_replay_and_coverage() {
    let out = out_dir("run");
    let src = fixture("report_markup.c");
    let (code, text) = fpsym(&[
        "run",
        src.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--replay",
        "--coverage",
    ]);
    assert_eq!(code, Some(1), "{text}");
    let tests = std::fs::read_dir(out.join("tests")).unwrap().count();
    assert!(tests >= 2, "{text}");

    // SARIF: valid; the finding in check() at line 10, reached from main's
    // call at line 17; the file relative to the working directory (the
    // crate's, where cargo runs tests).
    let sarif = json(&out, "report.sarif");
    assert_valid_sarif(&sarif);
    let run = &sarif["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "fpsym");
    assert_eq!(run["tool"]["driver"]["rules"][0]["id"], "assertion-failure");
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{sarif:#}");
    let r = &results[0];
    assert_eq!(r["ruleId"], "assertion-failure");
    let loc = &r["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "tests/c/report_markup.c");
    assert_eq!(loc["region"]["startLine"], 10);
    assert_eq!(loc["region"]["startColumn"], 3);
    let flow = r["codeFlows"][0]["threadFlows"][0]["locations"].as_array().unwrap();
    let lines: Vec<u64> = flow
        .iter()
        .map(|l| {
            l["location"]["physicalLocation"]["region"]["startLine"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(lines, vec![17, 10], "{r:#}");
    assert_eq!(r["properties"]["input"][0]["name"], "x");
    assert!(
        r["properties"]["input"][0]["hex"].as_str().unwrap().starts_with("0x"),
        "{r:#}"
    );
    assert_eq!(r["properties"]["confirmedByReplay"], true);

    // JUnit: one suite; a failure per finding, a passing case per test.
    let xml = read(&out, "junit.xml");
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    let suites: Vec<_> = doc.descendants().filter(|n| n.has_tag_name("testsuite")).collect();
    assert_eq!(suites.len(), 1, "{xml}");
    let cases: Vec<_> = doc.descendants().filter(|n| n.has_tag_name("testcase")).collect();
    // A case per finding, per test, and the verdict's (bug found: not
    // skipped).
    assert_eq!(cases.len(), tests + 2, "{xml}");
    assert_eq!(suites[0].attribute("tests"), Some((tests + 2).to_string().as_str()));
    assert_eq!(suites[0].attribute("skipped"), Some("0"), "{xml}");
    assert!(
        cases.iter().any(|c| c.attribute("name") == Some("verdict: bug found")),
        "{xml}"
    );
    let failures: Vec<_> = doc.descendants().filter(|n| n.has_tag_name("failure")).collect();
    assert_eq!(failures.len(), 1, "{xml}");
    assert_eq!(suites[0].attribute("failures"), Some("1"));
    let f = failures[0];
    assert_eq!(f.attribute("type"), Some("assertion-failure"));
    let message = f.attribute("message").unwrap();
    assert!(message.contains("tests/c/report_markup.c:10:3"), "{message}");
    assert!(
        message.contains("<&\\\"'> in a message"),
        "the markup comes back as written: {message}"
    );
    assert!(f.text().unwrap().contains("input: x = "), "{xml}");
    assert!(
        cases
            .iter()
            .any(|c| c.attribute("name").is_some_and(|n| n.ends_with(": exit 0"))),
        "{xml}"
    );

    // replay.json keeps each line's count; line 19 ran in no test.
    let replay = common::replay_report(&out);
    let files = &replay.coverage.as_ref().unwrap_or_else(|| panic!("{replay:?}")).files;
    assert!(files[0].file.ends_with("report_markup.c"), "{replay:?}");
    let lines = &files[0].lines;
    assert!(lines.contains(&(19, 0)), "{replay:?}");
    assert!(lines.iter().any(|l| l.0 == 10 && l.1 >= 1), "{replay:?}");

    // HTML: escaped, self-contained; in the browser a picture with the
    // finding, its source line, the coverage listing and the charts.
    let page = out.join("report.html");
    let html = read(&out, "report.html");
    assert!(html.contains("&lt;&amp;\\&quot;&#39;&gt; in a message"), "{html}");
    assert!(!html.contains("<script"), "no script");
    assert!(html.contains("<tr class=\"unc\"><td class=\"n\">19</td>"), "{html}");
    let colours = screenshot_colours(&page, "run");
    let dom = dump_dom(&page, "run");
    for needle in [
        "assertion-failure",
        "tests/c/report_markup.c:10:3",
        "in a message",
        "confirmed by native replay",
        "<svg",
        "Native coverage",
        "Paths, tests and findings over time",
    ] {
        assert!(
            dom.contains(needle),
            "{needle} not in the page chromium loaded ({colours} colours):\n{dom}"
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn an_error_run_plots_the_error_against_each_input() {
    let src = fixture("error_absorb.c");
    // `fpsym error` on absorb, x and y in [-100, 100], for 2 s, into `out`.
    let error_run = |out: &Path, extra: &[&str]| {
        let mut args = vec![
            "error",
            src.to_str().unwrap(),
            "--function",
            "absorb",
            "--range",
            "x=[-100,100]",
            "--range",
            "y=[-100,100]",
            "--solver",
            "cp",
            "--max-time",
            "2",
            "-o",
            out.to_str().unwrap(),
        ];
        args.extend(extra);
        let (code, text) = fpsym(&args);
        assert_eq!(code, Some(0), "{text}");
    };
    let out = out_dir("error");
    error_run(&out, &["--strategy", "random"]);
    let e: ErrorRecord = common::record(&out, ERROR_RECORD);
    let samples = &e.samples;
    assert_eq!(samples.inputs, ["x", "y"], "{samples:?}");
    let points = &samples.points;
    let measured = samples.measured;
    assert_eq!(points.len() as u64, measured.min(2000), "{samples:?}");
    assert_eq!(samples.kept as u64, points.len() as u64);
    for p in points {
        for v in &p.values {
            let x: f64 = v.parse().unwrap();
            assert!((-100.0..=100.0).contains(&x), "{p:?}");
        }
        // A number or "inf" (ErrorValue reads nothing else).
        assert!(!p.error.get().is_nan(), "{p:?}");
    }
    // One scatter per input, one point per sample (all finite here), the
    // worst input circled.
    let html = read(&out, "report.html");
    let scatters: Vec<&str> = html.split("<g class=\"pts\"").skip(1).collect();
    assert_eq!(scatters.len(), 2, "{html}");
    for s in &scatters {
        let group = &s[..s.find("</g>").unwrap()];
        assert_eq!(group.matches("<circle").count(), points.len());
    }
    assert_eq!(html.matches("class=\"worst\"").count(), 2);
    // The worst input's run proves nothing of the error: no green
    // "verified" badge beside it.
    assert!(!html.contains("verdict v-ok"), "{html}");
    assert!(html.contains("ran to its end, no finding"), "{html}");
    let page = out.join("report.html");
    screenshot_colours(&page, "error");
    let dom = dump_dom(&page, "error");
    assert!(dom.contains("Relative error against x"), "{dom}");
    assert!(dom.contains("Relative error against y"), "{dom}");
    assert!(dom.contains("max relative error"), "{dom}");
    let sarif = json(&out, "report.sarif");
    assert_valid_sarif(&sarif);
    let _ = std::fs::remove_dir_all(&out);
    // Another metric: the plots and the headline say which, the worst
    // input circled at its error by that metric.
    let out = out_dir("error-bits");
    error_run(&out, &["--metric", "bits"]);
    let html = read(&out, "report.html");
    assert!(html.contains("Bits error against x"), "{html}");
    assert!(html.contains("max bits error"), "{html}");
    assert!(html.contains("against the bits error of the result"), "{html}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn an_exceptions_run_charts_them_by_kind_and_location() {
    let out = out_dir("exceptions");
    let src = fixture("exceptions.c");
    let (code, text) = fpsym(&[
        "exceptions",
        src.to_str().unwrap(),
        "--function",
        "ratio",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(1), "{text}");
    let findings = std::fs::read_dir(out.join("findings")).unwrap().count();
    assert!(findings >= 3, "{text}");
    let sarif = json(&out, "report.sarif");
    assert_valid_sarif(&sarif);
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), findings);
    assert!(results.iter().any(|r| r["ruleId"] == "fp-divide-by-zero"), "{sarif:#}");
    assert!(results
        .iter()
        .all(|r| r["locations"][0]["physicalLocation"]["region"]["startLine"] == 2));
    let html = read(&out, "report.html");
    // The SVG element of a chart, by its title.
    let chart = |title: &str| -> &str {
        let at = html.find(title).unwrap_or_else(|| panic!("no chart {title}: {html}"));
        let rest = &html[at..];
        &rest[..rest.find("</svg>").unwrap()]
    };
    let by_kind = chart("Exceptions by kind");
    assert_eq!(
        by_kind.matches("class=\"bar\"").count(),
        findings,
        "one kind per location here"
    );
    let by_location = chart("Exceptions by location");
    assert_eq!(by_location.matches("class=\"bar\"").count(), findings);
    assert!(by_location.contains("tests/c/exceptions.c:2:"), "{by_location}");
    let page = out.join("report.html");
    screenshot_colours(&page, "exceptions");
    let dom = dump_dom(&page, "exceptions");
    assert!(dom.contains("Exceptions by kind"), "{dom}");
    assert!(dom.contains("fp-divide-by-zero"), "{dom}");
    let xml = read(&out, "junit.xml");
    let doc = roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(
        doc.descendants().filter(|n| n.has_tag_name("failure")).count(),
        findings
    );
    let _ = std::fs::remove_dir_all(&out);
}
