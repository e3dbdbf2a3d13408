//! Every program in examples/c/: `fpsym run --replay --coverage`, then its
//! stated expectation (the `// expect: lines >= X%, findings >= N` line):
//! every finding confirmed by native replay, at least N findings, and at
//! least X% of the example's lines covered by the generated tests.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/c")
        .join(name)
}

/// Each example's `--max-time`: 20 s, and 40 s for the two Heron programs,
/// whose findings take their portfolio 10 to 30 s of solver time (at 20 s
/// under load they end incomplete with none).
fn max_time(name: &str) -> &'static str {
    match name {
        "heron.c" | "heron_opt.c" => "40",
        _ => "20",
    }
}

fn check(name: &str) {
    let path = example(name);
    let src = std::fs::read_to_string(&path).unwrap();
    let expect = src
        .lines()
        .find_map(|l| l.strip_prefix("// expect: lines >= "))
        .expect("an expect line");
    let (lines_pct, rest) = expect.split_once("%, findings >= ").unwrap();
    let lines_pct: f64 = lines_pct.parse().unwrap();
    let min_findings: usize = rest.split_whitespace().next().unwrap().parse().unwrap();
    let flags: Vec<&str> = src
        .lines()
        .find_map(|l| l.strip_prefix("// fpsym-flags:"))
        .map(|f| f.split_whitespace().collect())
        .unwrap_or_default();
    let out = std::env::temp_dir().join(format!("fpsym-example-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .args([
            "run",
            path.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--replay",
            "--coverage",
            "--max-time",
            max_time(name),
        ])
        .args(&flags)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        // Verified, found, or incomplete (a time limit): not an error.
        matches!(o.status.code(), Some(0 | 1 | 4)),
        "{name}: exit {:?}\n{stdout}\n{stderr}",
        o.status
    );
    let r = common::replay_report(&out);
    let findings = &r.findings;
    assert!(
        findings.iter().all(|f| f.confirmed),
        "{name}: unconfirmed finding\n{stdout}"
    );
    assert!(
        findings.len() >= min_findings,
        "{name}: {} finding(s), expected >= {min_findings}\n{stdout}",
        findings.len()
    );
    let got = r
        .coverage
        .as_ref()
        .unwrap_or_else(|| panic!("{name}: no coverage: {r:?}"))
        .lines
        .percent;
    assert!(
        got >= lines_pct,
        "{name}: line coverage {got}% < {lines_pct}%\n{stdout}"
    );
    let _ = std::fs::remove_dir_all(&out);
}

macro_rules! examples {
    ($($test:ident: $file:expr),* $(,)?) => {
        $(#[test] fn $test() { check($file); })*
        #[test]
        fn every_example_has_a_test() {
            let listed = [$($file),*];
            for e in std::fs::read_dir(example("")).unwrap() {
                let n = e.unwrap().file_name().to_string_lossy().into_owned();
                if n.ends_with(".c") {
                    assert!(listed.contains(&n.as_str()), "{n} has no test");
                }
            }
        }
    };
}

examples! {
    absorption: "absorption.c",
    ariane5: "ariane5.c",
    assoc: "assoc.c",
    bessel: "bessel.c",
    dichotomic: "dichotomic.c",
    heron: "heron.c",
    heron_opt: "heron_opt.c",
    long_double_absorption: "long_double_absorption.c",
    nan_self: "nan_self.c",
    polynomial: "polynomial.c",
    rounding_branch: "rounding_branch.c",
    slope: "slope.c",
    sterbenz_average: "sterbenz_average.c",
    summation: "summation.c",
    tcas: "tcas.c",
}
