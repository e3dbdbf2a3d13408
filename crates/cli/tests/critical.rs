//! `fpsym critical` (seed 001): results outside the real range found with
//! their inputs (checked here in native float arithmetic), proofs that
//! none exist, exact decimal bounds, and loop bounds that make "unknown".

mod common;

use fpsym_report::critical_record::{Answer, CriticalRecord, CRITICAL_RECORD};
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
/// critical.json (the test fails, with the output, when there is none),
/// and the directory.
fn critical(file: &Path, function: &str, args: &[&str], tag: &str) -> (Option<i32>, String, CriticalRecord, PathBuf) {
    let (code, text, out) = common::run_mode("critical", file, function, args, tag);
    let j = common::record_if(&out, CRITICAL_RECORD)
        .unwrap_or_else(|| panic!("no {CRITICAL_RECORD} in {} (exit {code:?})\n{text}", out.display()));
    (code, text, j, out)
}

/// The answer for `side` (`below`, `above`, `nan`) of the first
/// expectation.
fn side<'a>(j: &'a CriticalRecord, side: &str) -> &'a Answer {
    match side {
        "below" => &j.below,
        "above" => &j.above,
        "nan" => &j.nan,
        _ => panic!("no side {side}"),
    }
}

/// The test of a `sat` answer (the test fails on another answer).
fn test_of(a: &Answer) -> u64 {
    match a {
        Answer::Sat { test, .. } => *test,
        _ => panic!("no test in {a:?}"),
    }
}

/// The result of a `sat` answer (None: another answer, or no result).
fn result_of(a: &Answer) -> Option<&str> {
    match a {
        Answer::Sat { result, .. } => result.as_deref(),
        _ => None,
    }
}

/// The operation of a `sat` answer.
fn what_of(a: &Answer) -> Option<&str> {
    match a {
        Answer::Sat { what, .. } => what.as_deref(),
        _ => None,
    }
}

/// Why an `unsat` or `unknown` answer is so.
fn why_of(a: &Answer) -> Option<&str> {
    match a {
        Answer::Unsat { why } => why.as_deref(),
        Answer::Unknown { why } => Some(why),
        Answer::Sat { .. } => None,
    }
}

/// The float inputs of test `id`, by name.
fn inputs(out: &Path, id: u64) -> std::collections::BTreeMap<String, f32> {
    let t = common::test(out, id);
    t.objects
        .iter()
        .map(|o| {
            (
                o.name.clone(),
                o.value.as_deref().unwrap_or_else(|| panic!("{t:?}")).parse().unwrap(),
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
        assert_eq!(self::side(&j, side).name(), "sat", "{j:?}");
        let i = inputs(&out, test_of(self::side(&j, side)));
        let r = slope(i["x0"], i["h"]);
        assert_eq!(
            r.to_string().parse::<f32>().unwrap(),
            result_of(self::side(&j, side)).unwrap().parse::<f32>().unwrap()
        );
        let (lo, hi) = (25.99999f64, 26.00001f64);
        if outside < 0.0 {
            assert!((r as f64) < lo, "{r}");
        } else {
            assert!((r as f64) > hi, "{r}");
        }
        assert!((1e-6..=1e-3).contains(&(i["h"] as f64)), "{i:?}");
    }
    assert_eq!(j.nan.name(), "unsat", "{j:?}");
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
    assert_eq!(j.below.name(), "sat", "{j:?}");
    assert_eq!(result_of(&j.below), Some("1e9"), "{j:?}");
    let i = inputs(&out, test_of(&j.below));
    assert_eq!((i["a"] * i["a"] + i["b"] + 1e-5f32) * i["c"], 1e9f32, "{i:?}");
    assert_eq!(j.above.name(), "unsat", "{j:?}");
    assert_eq!(j.nan.name(), "unsat", "{j:?}");
}

/// Seed 001's heron with tolerance 1e-3: no float result below -0.001
/// nor above 156.251, proved by cp. The proof below needs the relational
/// bound `fl(s - a) >= -1.4e-6` that only the linear relaxation gives:
/// with `--no-linear` the same run stays unknown at its time limit.
#[test]
fn heron_stays_within_1e_3_of_its_real_range_by_the_linear_relaxation() {
    let ranges = [
        "--range", "a=[5,10]", "--range", "b=[0,5]", "--range", "c=[0,5]", "--solver", "cp",
    ];
    let with = [&ranges[..], &["--expect", "ret=[-0.001,156.251]", "--max-time", "20"]].concat();
    let without = [
        &ranges[..],
        &["--expect", "ret=[-0.001,inf]", "--max-time", "4", "--no-linear"],
    ]
    .concat();
    let (code, text, j, _) = critical(&bench("heron.c"), "heron", &with, "heron-1e-3");
    assert_eq!(code, Some(0), "{text}");
    for side in ["below", "above", "nan"] {
        assert_eq!(self::side(&j, side).name(), "unsat", "{side}: {j:?}");
    }
    let (code, text, j, _) = critical(&bench("heron.c"), "heron", &without, "heron-1e-3-no-linear");
    assert_eq!(code, Some(4), "{text}");
    assert_eq!(j.below.name(), "unknown", "{j:?}");
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
        assert_eq!(self::side(&j, side).name(), "unsat", "{j:?}");
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
    assert_eq!(code, Some(4), "{text}");
    assert_eq!(j.above.name(), "unknown", "{j:?}");
    assert!(why_of(&j.above).unwrap().contains("loop bound 5"), "{j:?}");
    let (code, text, j, _) = critical(
        &fixture("critical.c"),
        "steps",
        &["--range", "n=[0,10]", "--expect", "ret=[0,1]"],
        "steps",
    );
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(j.above.name(), "sat", "{j:?}");
    assert_eq!(result_of(&j.above), Some("1.0000001e0"), "{j:?}");
}

#[test]
fn bad_expectations_are_input_errors() {
    for (f, e, says) in [
        ("square", "ret=[1,0]", "lower bound is above"),
        (
            "square",
            "out=[0,1]",
            "square has no parameter out and the program no global variable out",
        ),
        ("square", "ret=[0,x]", "x is not a decimal number"),
        ("square", "ret", "expected ret=[LO,HI]"),
        ("square", "x=[0,1]", "parameter x of square is passed by value"),
        ("accumulate", "ret=[0,1]", "accumulate does not return a float"),
        ("accumulate", "acc[5]=[0,1]", "acc has 2 element(s)"),
        ("accumulate", "acc[x]=[0,1]", "expected NAME[INDEX]"),
    ] {
        let (code, text, _) = common::run_mode(
            "critical",
            &fixture("critical.c"),
            f,
            &["--expect", e, "--array-len", "2"],
            "bad",
        );
        assert_eq!(code, Some(2), "{e}: {text}");
        assert!(text.contains(says), "{e}: {text}");
    }
    // A property would leave the range checks unasked (and "no" unproved).
    let (code, text, _) = common::run_mode(
        "critical",
        &fixture("critical.c"),
        "square",
        &["--expect", "ret=[0,1]", "--property", "unreach-call"],
        "bad-property",
    );
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("--property does not apply"), "{text}");
}

/// The floats of a test's objects (their elements for an array), by name.
fn test_floats(out: &Path, id: u64) -> Vec<(String, f32)> {
    let t = common::test(out, id);
    let mut v = Vec::new();
    for o in &t.objects {
        let mut one = |n: &str, val: Option<&str>| {
            if let Some(f) = val.and_then(|val| val.parse::<f32>().ok()) {
                v.push((n.to_string(), f));
            }
        };
        one(&o.name, o.value.as_deref());
        for e in &o.elements {
            one(&e.name, Some(&e.value));
        }
    }
    v
}

/// Every test of a run directory.
fn test_ids(out: &Path) -> Vec<u64> {
    let mut ids: Vec<u64> = std::fs::read_dir(out.join("tests"))
        .unwrap()
        .filter_map(|e| e.ok()?.path().file_stem()?.to_str()?.parse().ok())
        .collect();
    ids.sort();
    ids
}

#[test]
fn range_bounds_are_exact_decimals_not_doubles() {
    // No float is 0.1: the range is empty (through a double it was 0.1f).
    for (f, r, says) in [
        ("ident", "x=[0.1,0.1]", "--range x: [0.1,0.1] holds no float value"),
        ("steps", "n=[0.5,0.7]", "--range n: [0.5,0.7] holds no integer"),
        ("ident", "x=[1,0]", "--range x=[1,0]: empty range"),
        ("ident", "x=[0,zero]", "zero is not a decimal number"),
    ] {
        let (code, text, _) = common::run_mode("run", &fixture("critical.c"), f, &["--range", r], "empty");
        assert_eq!(code, Some(2), "{r}: {text}");
        assert!(text.contains(says), "{r}: {text}");
    }
    // 0.5 + 1e-20 is 0.5 as a double, so a double bound let the float 0.5
    // in; exactly, the least float in the range is the one after 0.5.
    let lo = "0.50000000000000000001";
    let (code, text, j, out) = critical(
        &fixture("critical.c"),
        "ident",
        &["--range", &format!("x=[{lo},1]"), "--expect", &format!("ret=[{lo},1]")],
        "exact",
    );
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(j.below.name(), "unsat", "{j:?}");
    let next = f32::from_bits(0.5f32.to_bits() + 1);
    assert_eq!(
        j.float_range.lo.as_deref().unwrap().parse::<f32>().unwrap(),
        next,
        "{j:?}"
    );
    for id in test_ids(&out) {
        for (_, x) in test_floats(&out, id) {
            assert!((next..=1.0).contains(&x), "test {id}: {x}");
        }
    }
    // Integers take the integers inside: only n = 10 in [9.5, 10.5].
    let (code, text, j, _) = critical(
        &fixture("critical.c"),
        "steps",
        &["--range", "n=[9.5,10.5]", "--expect", "ret=[0,1]"],
        "int",
    );
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(result_of(&j.above), Some("1.0000001e0"), "{j:?}");
    assert_eq!(j.float_range.lo.as_deref(), Some("1.0000001e0"), "{j:?}");
    assert_eq!(j.float_range.hi.as_deref(), Some("1.0000001e0"), "{j:?}");
}

/// Builds `driver` (C source) with the bench program `program` natively
/// (clang-14, as replay builds) and runs it: its stdout.
fn native(program: &Path, driver: &str, tag: &str) -> String {
    let dir = std::env::temp_dir().join(format!("fpsym-critical-native-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("driver.c");
    std::fs::write(&src, driver).unwrap();
    let exe = dir.join("enumerate");
    let o = std::process::Command::new("clang-14")
        .args(["-O0", "-ffp-contract=off", "-o"])
        .arg(&exe)
        .arg(&src)
        .arg(program)
        .arg("-lm")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = std::process::Command::new(&exe).output().unwrap();
    assert!(o.status.success());
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8(o.stdout).unwrap()
}

/// The float range of critical.json as f32 bounds.
fn float_range(j: &CriticalRecord) -> (f32, f32) {
    let b = |k: &Option<String>| k.as_deref().unwrap().parse::<f32>().unwrap();
    (b(&j.float_range.lo), b(&j.float_range.hi))
}

#[test]
fn the_float_range_encloses_every_native_result() {
    // slope, exhaustively: every float h in [1e-6, 1e-3] natively.
    let (code, text, j, _) = critical(
        &bench("slope.c"),
        "slope",
        &[
            "--range",
            "x0=[13,13]",
            "--range",
            "h=[1e-6,1e-3]",
            "--expect",
            "ret=[25.99999,26.00001]",
        ],
        "slope-range",
    );
    assert_eq!(code, Some(1), "{text}");
    assert!(j.float_range.every_path, "{j:?}");
    let (lo, hi) = float_range(&j);
    let got = native(
        &bench("slope.c"),
        r#"#include <stdio.h>
float slope(float, float);
int main(void) {
  float lo = 1e30f, hi = -1e30f;
  for (float h = 1e-6f; h <= 1e-3f; h = __builtin_nextafterf(h, 1.0f)) {
    if ((double)h < 1e-6 || (double)h > 1e-3) continue;
    float r = slope(13.0f, h);
    if (r < lo) lo = r;
    if (r > hi) hi = r;
  }
  printf("%.9g %.9g\n", lo, hi);
  return 0;
}
"#,
        "slope",
    );
    let v: Vec<f32> = got.split_whitespace().map(|x| x.parse().unwrap()).collect();
    println!("slope: native [{}, {}], float range [{lo}, {hi}]", v[0], v[1]);
    assert!(
        lo <= v[0] && v[1] <= hi,
        "native [{}, {}] outside [{lo}, {hi}]",
        v[0],
        v[1]
    );
    // Every value of the suspicious intervals' answers is in it too.
    for s in &j.suspicious {
        assert_eq!(s.answer.name(), "sat", "{j:?}");
        let r: f32 = result_of(&s.answer).unwrap().parse().unwrap();
        assert!((lo..=hi).contains(&r), "{r}");
    }
    // heron, sampled: random triangles, nearly degenerate ones (c near
    // a - b, where the float result goes negative) and right ones.
    let (_, text, j, _) = critical(
        &bench("heron.c"),
        "heron",
        &[
            "--range",
            "a=[5,10]",
            "--range",
            "b=[0,5]",
            "--range",
            "c=[0,5]",
            "--expect",
            "ret=[-0.00001,156.25001]",
            "--solver-timeout",
            "1",
        ],
        "heron-range",
    );
    assert!(j.float_range.every_path, "{text}");
    let (lo, hi) = float_range(&j);
    let got = native(
        &bench("heron.c"),
        r#"#include <stdio.h>
#include <math.h>
float heron(float, float, float);
static unsigned long long s = 88172645463325252ULL;
static float u(float lo, float hi) {
  s ^= s << 13; s ^= s >> 7; s ^= s << 17;
  float x = lo + (hi - lo) * (float)((s >> 11) * (1.0 / 9007199254740992.0));
  return x < lo ? lo : x > hi ? hi : x;
}
int main(void) {
  float lo = 1e30f, hi = -1e30f;
  for (long i = 0; i < 3000000; i++) {
    float a = u(5, 10), b = u(0, 5), c;
    switch (i % 3) {
    case 0: c = u(0, 5); break;
    case 1: c = a - b; for (int k = (int)(i % 7) - 3; k < 0; k++) c = nextafterf(c, -1); for (int k = 0; k < (int)(i % 7) - 3; k++) c = nextafterf(c, 10); break;
    default: b = 5 - u(0, 1e-4f); c = 5 - u(0, 1e-4f); a = sqrtf(b * b + c * c) + u(-1e-5f, 1e-5f); break;
    }
    if (c < 0 || c > 5 || a < 5 || a > 10) continue;
    float r = heron(a, b, c);
    if (r < lo) lo = r;
    if (r > hi) hi = r;
  }
  printf("%.9g %.9g\n", lo, hi);
  return 0;
}
"#,
        "heron",
    );
    let v: Vec<f32> = got.split_whitespace().map(|x| x.parse().unwrap()).collect();
    println!("heron: native (sampled) [{}, {}], float range [{lo}, {hi}]", v[0], v[1]);
    assert!(v[0] < 0.0 && v[1] > 156.25, "the sampling missed the extremes: {got}");
    assert!(
        lo <= v[0] && v[1] <= hi,
        "native [{}, {}] outside [{lo}, {hi}]",
        v[0],
        v[1]
    );
}

#[test]
fn suspicious_intervals_outside_the_float_range_are_proved_empty() {
    // x*x for x in [-2, 3]: propagation encloses it in [0, 9] exactly.
    let (code, text, j, _) = critical(
        &fixture("critical.c"),
        "square",
        &["--range", "x=[-2,3]", "--expect", "ret=[-1,8]"],
        "square-range",
    );
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(j.float_range.lo.as_deref(), Some("0e0"), "{j:?}");
    assert_eq!(j.float_range.hi.as_deref(), Some("9e0"), "{j:?}");
    assert!(!j.float_range.nan, "{j:?}");
    let s = &j.suspicious;
    assert_eq!(s[0].side, "below", "{j:?}");
    assert!(s[0].empty, "{j:?}");
    assert_eq!(s[0].answer.name(), "unsat", "{j:?}");
    assert_eq!(s[1].side, "above", "{j:?}");
    assert!(!s[1].empty, "{j:?}");
    assert_eq!(
        (s[1].lo.as_deref(), s[1].hi.as_deref()),
        (Some("8"), Some("9e0")),
        "{j:?}"
    );
    assert_eq!(s[1].answer.name(), "sat", "{j:?}");
    assert_eq!(j.nan.name(), "unsat", "{j:?}");
    assert!(
        text.contains("float range (interval propagation, every path): [0e0, 9e0]\n"),
        "{text}"
    );
    assert!(
        text.contains("below: no (the float range has no value below -1"),
        "{text}"
    );
    // x/x: 1, or NaN at 0; nothing else.
    let (code, text, j, _) = critical(
        &fixture("critical.c"),
        "ratio",
        &["--range", "x=[0,1]", "--expect", "ret=[1,1]"],
        "ratio-range",
    );
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(
        (j.float_range.lo.as_deref(), j.float_range.hi.as_deref()),
        (Some("1e0"), Some("1e0")),
        "{j:?}"
    );
    assert!(j.float_range.nan, "{j:?}");
    assert_eq!(j.nan.name(), "sat", "{j:?}");
    for s in &j.suspicious {
        assert!(s.empty, "{j:?}");
    }
    assert!(text.contains("every path): [1e0, 1e0] and NaN"), "{text}");
    // Cut by a loop bound, the range covers only the paths explored: no
    // interval is claimed empty.
    let (_, text, j, _) = critical(
        &fixture("critical.c"),
        "steps",
        &["--range", "n=[0,10]", "--expect", "ret=[0,2]", "--unroll", "5"],
        "steps-range",
    );
    assert!(!j.float_range.every_path, "{text}");
    assert!(j.float_range.why.as_deref().unwrap().contains("stopped early"), "{j:?}");
    assert_eq!(j.above.name(), "unknown", "{j:?}");
    let s = j.suspicious.get(1).unwrap_or_else(|| panic!("{j:?}"));
    assert!(!s.empty, "{j:?}");
    assert_eq!(s.answer.name(), "unknown", "{j:?}");
}

#[test]
fn out_parameters_and_globals_are_checked_and_confirmed_natively() {
    // acc[0] is the float sum of n steps of 0.1, acc[1] its negation.
    let (code, text, j, out) = critical(
        &fixture("critical.c"),
        "accumulate",
        &[
            "--range",
            "n=[0,10]",
            "--array-len",
            "2",
            "--expect",
            "acc=[-1,1]",
            "--expect",
            "acc[1]=[-1,0]",
        ],
        "acc",
    );
    assert_eq!(code, Some(1), "{text}");
    let e = &j.expects;
    assert!(e.len() >= 2, "{j:?}");
    assert_eq!(e[0].below.name(), "sat", "{j:?}");
    assert_eq!(result_of(&e[0].below), Some("-1.0000001e0"), "{j:?}");
    assert_eq!(what_of(&e[0].below), Some("acc[1]"), "{j:?}");
    assert_eq!(e[0].above.name(), "sat", "{j:?}");
    assert_eq!(what_of(&e[0].above), Some("acc[0]"), "{j:?}");
    assert_eq!(e[0].float_range.lo.as_deref(), Some("-1.0000001e0"), "{j:?}");
    assert_eq!(e[0].float_range.hi.as_deref(), Some("1.0000001e0"), "{j:?}");
    // Only acc[1]: never above 0, proved.
    assert_eq!(e[1].what, "acc[1]", "{j:?}");
    assert_eq!(e[1].below.name(), "sat", "{j:?}");
    assert_eq!(e[1].above.name(), "unsat", "{j:?}");
    assert_eq!(e[1].float_range.hi.as_deref(), Some("-0e0"), "{j:?}");
    // The test's inputs, run natively: n = 10 makes acc[0] 1.0000001f.
    let t = test_ids(&out)
        .into_iter()
        .find(|id| *id == test_of(&e[0].above))
        .unwrap();
    let test = common::test(&out, t);
    let n: i64 = test.objects[0]
        .value
        .as_deref()
        .unwrap_or_else(|| panic!("{test:?}"))
        .parse()
        .unwrap();
    let mut s = 0.0f32;
    for _ in 0..n {
        s += 0.1f32;
    }
    assert!(s > 1.0, "n = {n}");
    let replayed = common::replay_confirms(&out);
    assert!(replayed.contains("3 confirmed"), "{replayed}");
    // A global, and a static one (found by replay in the symbol table).
    let (code, text, j, out) = critical(
        &fixture("critical.c"),
        "keep_steps",
        &[
            "--range",
            "n=[0,10]",
            "--expect",
            "total=[0,1]",
            "--expect",
            "hidden=[0,1]",
        ],
        "globals",
    );
    assert_eq!(code, Some(1), "{text}");
    for e in &j.expects {
        assert_eq!(e.above.name(), "sat", "{j:?}");
        assert_eq!(result_of(&e.above), Some("1.0000001e0"), "{j:?}");
        assert_eq!(e.below.name(), "unsat", "{j:?}");
    }
    let kinds: Vec<&str> = j.expects.iter().map(|e| e.kinds.above.as_str()).collect();
    assert_eq!(kinds, ["above-range", "above-range-2"]);
    let replayed = common::replay_confirms(&out);
    assert!(replayed.contains("2 confirmed"), "{replayed}");
}

#[test]
fn a_float_range_over_floats_and_doubles_holds_both() {
    let (_, text, j, _) = critical(
        &fixture("critical.c"),
        "mixed_out",
        &[
            "--range",
            "a=[5,10]",
            "--range",
            "b=[0,5]",
            "--range",
            "c=[0,5]",
            "--expect",
            "s=[-1000,100]",
            "--solver-timeout",
            "1",
        ],
        "mixed",
    );
    // Natively, a = 7.0710678f, b = c = 5 gives s->a = 156.25.
    let hi: f64 = j.float_range.hi.as_deref().expect("a float range").parse().unwrap();
    assert!(hi >= 156.25, "{text}");
    let above = j.suspicious.iter().find(|s| s.side == "above").unwrap();
    assert_ne!(above.answer.name(), "unsat", "{text}");
}

#[test]
fn a_long_double_result_is_confirmed_natively() {
    let (code, text, j, _) = critical(
        &fixture("critical.c"),
        "long_square",
        &["--range", "x=[1,2]", "--expect", "ret=[-1,1.5]", "--replay"],
        "long-double",
    );
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(j.above.name(), "sat", "{j:?}");
    assert!(text.contains("1 findings, 1 confirmed, 0 unconfirmed"), "{text}");
}
