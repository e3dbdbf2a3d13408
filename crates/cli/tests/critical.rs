//! `fpsym critical` (seed 001): results outside the real range found with
//! their inputs (checked here in native float arithmetic), proofs that
//! none exist, exact decimal bounds, and loop bounds that make "unknown".

mod common;

use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name)
}

fn bench(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../bench/critical/programs")
        .join(name)
}

/// `fpsym critical FILE --function F ARGS -o OUT`: exit code, output,
/// critical.json, and the directory.
fn critical(
    file: &Path,
    function: &str,
    args: &[&str],
    tag: &str,
) -> (Option<i32>, String, serde_json::Value, PathBuf) {
    let (code, text, out) = common::run_mode("critical", file, function, args, tag);
    (code, text, common::json_in(&out, "critical.json"), out)
}

/// The float inputs of test `id`, by name.
fn inputs(out: &Path, id: u64) -> std::collections::BTreeMap<String, f32> {
    let t: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join(format!("tests/{id:06}.json"))).unwrap()).unwrap();
    t["objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["name"].as_str().unwrap().to_string(),
                o["value"].as_str().unwrap().parse().unwrap(),
            )
        })
        .collect()
}

fn slope(x0: f32, h: f32) -> f32 {
    let x1 = x0 + h;
    let x2 = x0 - h;
    (x1 * x1 - x2 * x2) / (2.0f32 * h)
}

#[test]
fn slope_leaves_its_real_value_on_both_sides() {
    // ((13+h)^2 - (13-h)^2) / 2h is 26 in the reals; in float it ranges
    // from 19.2 to 32 for h in [1e-6, 1e-3].
    let (code, text, j, out) = critical(
        &bench("slope.c"),
        "slope",
        &[
            "--range",
            "x0=[13,13]",
            "--range",
            "h=[1e-6,1e-3]",
            "--expect",
            "ret=[25.99999,26.00001]",
            "--replay",
        ],
        "slope",
    );
    assert_eq!(code, Some(1), "{text}");
    for (side, outside) in [("below", -1.0f64), ("above", 1.0)] {
        assert_eq!(j[side]["answer"], "sat", "{j}");
        let i = inputs(&out, j[side]["test"].as_u64().unwrap());
        let r = slope(i["x0"], i["h"]);
        assert_eq!(
            r.to_string().parse::<f32>().unwrap(),
            j[side]["result"].as_str().unwrap().parse::<f32>().unwrap()
        );
        let (lo, hi) = (25.99999f64, 26.00001f64);
        if outside < 0.0 {
            assert!((r as f64) < lo, "{r}");
        } else {
            assert!((r as f64) > hi, "{r}");
        }
        assert!((1e-6..=1e-3).contains(&(i["h"] as f64)), "{i:?}");
    }
    assert_eq!(j["nan"]["answer"], "unsat", "{j}");
    assert!(text.contains("confirmed"), "{text}");
}

#[test]
fn bounds_are_exact_decimals_and_proofs_are_given() {
    // (a*a + b + 1e-5) * c >= 1e9 in float, and 1e9 is below the decimal
    // 1000000000.01 (a C float bound would round it to 1e9 and miss it);
    // nothing is above the real maximum 1000000010000.1 or NaN.
    let (code, text, j, out) = critical(
        &bench("polynomial.c"),
        "polynomial",
        &[
            "--range",
            "a=[1e3,1e4]",
            "--range",
            "b=[0,1]",
            "--range",
            "c=[1e3,1e4]",
            "--expect",
            "ret=[1000000000.01,1000000010000.1]",
        ],
        "poly",
    );
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(j["below"]["answer"], "sat", "{j}");
    assert_eq!(j["below"]["result"], "1e9", "{j}");
    let i = inputs(&out, j["below"]["test"].as_u64().unwrap());
    assert_eq!((i["a"] * i["a"] + i["b"] + 1e-5f32) * i["c"], 1e9f32, "{i:?}");
    assert_eq!(j["above"]["answer"], "unsat", "{j}");
    assert_eq!(j["nan"]["answer"], "unsat", "{j}");
}

#[test]
fn a_result_that_stays_in_range_is_verified() {
    let (code, text, j, _) = critical(
        &fixture("critical.c"),
        "square",
        &["--range", "x=[-2,3]", "--expect", "ret=[0,9]"],
        "square",
    );
    assert_eq!(code, Some(0), "{text}");
    for side in ["below", "above", "nan"] {
        assert_eq!(j[side]["answer"], "unsat", "{j}");
    }
    assert!(text.contains("verdict: verified"), "{text}");
}

#[test]
fn an_unrolling_bound_gives_unknown_not_a_proof() {
    // Ten steps of 0.1f make 1.0000001 > 1; unrolled 5 times, the run
    // cannot see it and must not say "no".
    let (code, text, j, _) = critical(
        &fixture("critical.c"),
        "steps",
        &["--range", "n=[0,10]", "--expect", "ret=[0,1]", "--unroll", "5"],
        "steps5",
    );
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(j["above"]["answer"], "unknown", "{j}");
    assert!(j["above"]["why"].as_str().unwrap().contains("loop bound 5"), "{j}");
    let (code, text, j, _) = critical(
        &fixture("critical.c"),
        "steps",
        &["--range", "n=[0,10]", "--expect", "ret=[0,1]"],
        "steps",
    );
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(j["above"]["answer"], "sat", "{j}");
    assert_eq!(j["above"]["result"], "1.0000001e0", "{j}");
}

#[test]
fn bad_expectations_are_input_errors() {
    for (e, says) in [
        ("ret=[1,0]", "lower bound is above"),
        ("out=[0,1]", "only the return value"),
        ("ret=[0,x]", "x is not a decimal number"),
        ("ret", "expected ret=[LO,HI]"),
    ] {
        let (code, text, _, _) = critical(&fixture("critical.c"), "square", &["--expect", e], "bad");
        assert_eq!(code, Some(2), "{e}: {text}");
        assert!(text.contains(says), "{e}: {text}");
    }
}
