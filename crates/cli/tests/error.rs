//! `fpsym error`: FPGen's search beats random search on an absorption,
//! error.json says what the worst input is and why, the worst input is a
//! test native replay runs, and outputs written through pointers are
//! measured element by element.

mod common;

use fpsym_report::mode_records::{ErrorBudget, ErrorRecord, ErrorTiming, ERROR_RECORD, ERROR_TIMING};
use fpsym_report::Observation;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name)
}

/// `fpsym error FILE --function F --solver cp ARGS -o OUT`: exit code,
/// output and the directory.
fn error_run(file: &str, function: &str, args: &[&str], tag: &str) -> (Option<i32>, String, PathBuf) {
    let args: Vec<&str> = ["--solver", "cp"].iter().chain(args).copied().collect();
    common::run_mode("error", &fixture(file), function, &args, tag)
}

/// As [`error_run`], with error.json (the test fails, with the output,
/// when there is none).
fn error(file: &str, function: &str, args: &[&str], tag: &str) -> (Option<i32>, String, ErrorRecord, PathBuf) {
    let (code, text, out) = error_run(file, function, args, tag);
    let j = common::record_if(&out, ERROR_RECORD)
        .unwrap_or_else(|| panic!("no {ERROR_RECORD} in {} (exit {code:?})\n{text}", out.display()));
    (code, text, j, out)
}

/// The maximum relative error (infinite for `"inf"`).
fn err(j: &ErrorRecord) -> f64 {
    j.max_relative_error.get()
}

/// The error by `metric` (None: not reported).
fn metric(j: &ErrorRecord, metric: &str) -> Option<f64> {
    j.metrics.get(metric).map(|e| e.get())
}

/// How the budget was cut (`time`, `counts`) and whether the run is
/// reproducible.
fn budget(j: &ErrorRecord) -> (&'static str, bool) {
    match &j.budget {
        ErrorBudget::Time { reproducible, .. } => ("time", *reproducible),
        ErrorBudget::Counts { reproducible, .. } => ("counts", *reproducible),
    }
}

#[test]
fn inaccuracy_branches_find_an_absorption_random_search_misses() {
    // (x + y) - x with x, y in [-100, 100]: the precision-loss branch at
    // the addition makes y 2^32 times smaller than x, so that its low bits
    // are absorbed: relative error about 2^-21. Random inputs make errors
    // of a few ulps (about 1e-16).
    let common = [
        "--range",
        "x=[-100,100]",
        "--range",
        "y=[-100,100]",
        "--sites",
        "all",
        "--max-time",
        "5",
    ];
    let mut alg1 = common.to_vec();
    alg1.extend(["--strategy", "fpgen"]);
    let (code, text, fpgen, out) = error("error_absorb.c", "absorb", &alg1, "fpgen");
    assert_eq!(code, Some(0), "{text}");
    let mut args = common.to_vec();
    args.extend(["--strategy", "random"]);
    let (code, text2, random, _) = error("error_absorb.c", "absorb", &args, "random");
    assert_eq!(code, Some(0), "{text2}");
    assert!(err(&fpgen) > 1e-9, "{text}");
    assert!(err(&random) < 1e-9, "{text2}");
    assert!(fpgen.symbolic_inputs > 0, "{fpgen:?}");
    assert_eq!(random.symbolic_inputs, 0, "{random:?}");
    // What error.json tells: the inputs (hex floats that parse back to the
    // decimals), computed and exact results, when the best was found, and
    // the cancellation at the subtraction.
    let inputs = &fpgen.inputs;
    assert_eq!(inputs.len(), 2, "{fpgen:?}");
    for i in inputs {
        let hex = i.hex.as_deref().unwrap_or_else(|| panic!("{i:?}"));
        assert!(hex.contains("0x") || hex == "0x0p+0", "{i:?}");
        let d: f64 = i.decimal.parse().unwrap();
        assert!((-100.0..=100.0).contains(&d), "{i:?}");
    }
    assert!(fpgen.exact.len() > 20, "{fpgen:?}");
    assert!(fpgen.measured_to_best <= fpgen.measured, "{fpgen:?}");
    let timing: ErrorTiming = common::record(&out, ERROR_TIMING);
    assert!(timing.time_to_best <= timing.seconds, "{timing:?}");
    assert_eq!(budget(&fpgen), ("time", false), "{fpgen:?}");
    let sites = &fpgen.diagnosis.sites;
    assert!(
        sites
            .iter()
            .any(|s| s.at.contains("error_absorb.c:4:") && s.bits_lost >= 32),
        "{fpgen:?}"
    );
    // The worst input is a test of the run directory.
    assert!(out.join("tests/000001.json").exists(), "{text}");
}

/// The exact sum of doubles, correctly rounded (Shewchuk's partials, as
/// Python's `math.fsum`): ground truth independent of MPFR.
fn exact_sum(xs: &[f64]) -> f64 {
    let mut partials: Vec<f64> = Vec::new();
    for &x0 in xs {
        let mut x = x0;
        let mut kept = Vec::new();
        for &p in &partials {
            let (mut a, mut b) = (x, p);
            if a.abs() < b.abs() {
                std::mem::swap(&mut a, &mut b);
            }
            let hi = a + b;
            let lo = b - (hi - a);
            if lo != 0.0 {
                kept.push(lo);
            }
            x = hi;
        }
        kept.push(x);
        partials = kept;
    }
    // The partials are non-overlapping and increasing: add from the top.
    let mut hi = 0.0;
    let mut k = partials.len();
    while k > 0 {
        k -= 1;
        let (x, y) = (hi, partials[k]);
        hi = x + y;
        let lo = y - (hi - x);
        if lo != 0.0 && k > 0 {
            // Round half-even past the remaining partials.
            if (lo < 0.0) == (partials[k - 1] < 0.0) {
                let y2 = lo * 2.0;
                let x2 = hi + y2;
                if y2 == x2 - hi {
                    hi = x2;
                }
            }
            break;
        }
    }
    hi
}

#[test]
fn refinement_reaches_the_seeds_error_on_recursive_summation() {
    // Seed 002, Table 3: FPGen reaches a relative error of 1.0 on
    // recursive summation in 2 hours, random search 0. The default
    // strategy (Algorithm 1 with local refinement) gets there in seconds:
    // a result whose exact value is (nearly) zero while the computed one
    // is not. Checked against an independent exact sum of the reported
    // inputs, and the computed value against the native sum.
    let args = ["--array-len", "8", "--range", "x=[-100,100]", "--max-time", "8"];
    let (code, text, j, _) = error("error_sum.c", "sum", &args, "sum");
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(j.strategy, "fpsym", "{j:?}");
    assert!(err(&j) >= 1.0, "{text}");
    let xs: Vec<f64> = j.inputs.iter().map(|i| i.decimal.parse().unwrap()).collect();
    assert_eq!(xs.len(), 8, "{j:?}");
    let mut a = xs.clone();
    for i in (1..8).rev() {
        a[i - 1] += a[i];
    }
    let computed: f64 = j.computed.parse().unwrap();
    assert_eq!(computed, a[0], "{j:?}");
    let exact = exact_sum(&xs);
    let rel = (a[0] - exact).abs() / (f32::MIN_POSITIVE as f64).max(exact.abs());
    assert!((rel - err(&j)).abs() <= 1e-6 * rel, "{rel} vs {j:?}");
    let mut random = args.to_vec();
    random.extend(["--strategy", "random"]);
    let (code, text, r, _) = error("error_sum.c", "sum", &random, "sum-random");
    assert_eq!(code, Some(0), "{text}");
    assert!(err(&r) < 1e-6, "{text}");
}

#[test]
fn float_programs_are_measured_in_float() {
    let args = ["--array-len", "8", "--range", "x=[-100,100]", "--max-time", "5"];
    let (code, text, j, _) = error("error_sum.c", "sumf", &args, "sumf");
    assert_eq!(code, Some(0), "{text}");
    assert!(err(&j) >= 1.0, "{text}");
    let xs: Vec<f32> = j.inputs.iter().map(|i| i.decimal.parse().unwrap()).collect();
    assert_eq!(xs.len(), 8, "{j:?}");
    let mut a = xs.clone();
    for i in (1..8).rev() {
        a[i - 1] += a[i];
    }
    let computed: f32 = j.computed.parse().unwrap();
    assert_eq!(computed, a[0], "{j:?}");
    let exact = exact_sum(&xs.iter().map(|x| *x as f64).collect::<Vec<_>>());
    let rel = (a[0] as f64 - exact).abs() / (f32::MIN_POSITIVE as f64).max(exact.abs());
    assert!((rel - err(&j)).abs() <= 1e-6 * rel, "{rel} vs {j:?}");
}

#[test]
fn a_given_input_is_measured_as_the_seeds_section_2_example() {
    // Seed 002, Section 2 (Table 1): A = {1.1e-15, 98.0, -1.2e-15, -98.0}
    // summed last to first gives 1.1e-15 in double (-1.2e-15 is absorbed
    // by -98, then 98 - 98 cancels); the exact sum is -1e-16: relative
    // error 12. The other four elements are 0.
    let (code, text, j, out) = error(
        "error_sum.c",
        "sum",
        &["--array-len", "8", "--input", "x=1.1e-15,98.0,-1.2e-15,-98.0"],
        "given",
    );
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(j.strategy, "given", "{j:?}");
    assert_eq!(j.measured, 1, "{j:?}");
    let e = err(&j);
    assert!((e - 12.0).abs() < 1e-9, "{text}");
    assert_eq!(j.computed, "1.1e-15", "{j:?}");
    let exact: f64 = j.exact.parse().unwrap();
    assert!((exact + 1e-16).abs() < 1e-30, "{j:?}");
    // The diagnosis names the accumulation line, where 53 bits cancel.
    let sites = &j.diagnosis.sites;
    assert!(
        sites
            .iter()
            .any(|x| x.at.contains("error_sum.c:12") && x.bits_cancelled == 53),
        "{j:?}"
    );
    assert!(out.join("tests/000001.json").exists(), "{text}");
    let check = j.reference_check.as_ref().unwrap_or_else(|| panic!("{j:?}"));
    assert_eq!(check.precision, 2200, "{j:?}");
    assert!(check.agrees, "{j:?}");
    assert_eq!(j.exact_digits, 40, "{j:?}");
    // A 53-bit reference is the double computation itself (error 0); the
    // check at 2200 bits says so.
    let (code, text, j, _) = error(
        "error_sum.c",
        "sum",
        &[
            "--array-len",
            "8",
            "--precision",
            "53",
            "--input",
            "x=1.1e-15,98.0,-1.2e-15,-98.0",
        ],
        "given-53",
    );
    // The figures reported are the check's, confirmed by a check at four
    // times its bits; the exact value is printed to the digits both agree
    // on.
    assert_eq!(code, Some(0), "{text}");
    assert!((err(&j) - 12.0).abs() < 1e-9, "{j:?}");
    let check = j.reference_check.as_ref().unwrap_or_else(|| panic!("{j:?}"));
    assert!(!check.agrees, "{j:?}");
    let checked = check.max_error.get();
    assert!((checked - 12.0).abs() < 1e-9, "{j:?}");
    assert_eq!(check.reported_at, Some(2200), "{j:?}");
    assert_eq!(check.confirmed_at, Some(8800), "{j:?}");
    assert!(
        text.contains("warning: the 53-bit reference was not exact enough (it gave 0.000000e0); the figures above are at 2200 bits, confirmed at 8800 bits"),
        "{text}"
    );
    assert!(j.exact_digits >= 30, "{j:?}");
    for (bad, says) in [
        ("y=1", "no input named y"),
        ("x=1,2,3,4,5,6,7,8,9", "9 values for x"),
        ("x=1,abc", "abc is not a decimal number"),
        ("x", "expected NAME=V"),
        ("x=1e400", "1e400 is out of the range of x[0]"),
        ("x=1e-400", "1e-400 is out of the range of x[0]"),
    ] {
        let (code, text, _) = error_run("error_sum.c", "sum", &["--array-len", "8", "--input", bad], "bad-input");
        assert_eq!(code, Some(2), "{bad}: {text}");
        assert!(text.contains(says), "{bad}: {text}");
    }
}

#[test]
fn the_worst_input_replays_natively() {
    let (code, text, out) = error_run(
        "error_absorb.c",
        "absorb",
        &[
            "--range",
            "x=[-100,100]",
            "--range",
            "y=[-100,100]",
            "--sites",
            "all",
            "--max-time",
            "2",
            "--replay",
        ],
        "replay",
    );
    assert_eq!(code, Some(0), "{text}");
    let r = common::replay_report(&out);
    assert!(text.contains("replay: 1 tests"), "{text}");
    assert!(
        r.tests
            .iter()
            .any(|t| t.observed.kind == Observation::Exit || t.expected.contains("exit")),
        "{r:?}"
    );
}

#[test]
fn outputs_through_pointers_are_measured_by_element() {
    let base = [
        "--array-len",
        "2",
        "--range",
        "x=[-100,100]",
        "--sites",
        "all",
        "--max-time",
        "3",
    ];
    let mut all = base.to_vec();
    all.extend(["--output", "out"]);
    let (code, text, j, _) = error("error_out.c", "pair", &all, "out-all");
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(j.outputs.len(), 2, "{j:?}");
    // `out` is never read (found natively): it is no operand group of the
    // symbolic rounds; `x` is read.
    assert_eq!(j.unread_objects, ["out"], "{j:?}");
    let mut one = base.to_vec();
    one.extend(["--output", "out[0]"]);
    let (code, text, j, _) = error("error_out.c", "pair", &one, "out-0");
    assert_eq!(code, Some(0), "{text}");
    let outs = &j.outputs;
    assert_eq!(outs.len(), 1, "{j:?}");
    assert_eq!(outs[0].output, "out+0", "{j:?}");
    // One correctly rounded addition: at most half an ulp.
    assert!(err(&j) <= f64::EPSILON / 2.0, "{j:?}");
}

#[test]
fn bad_requests_are_input_errors() {
    let out = std::env::temp_dir().join(format!("fpsym-error-{}-bad", std::process::id()));
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .arg("error")
        .arg(fixture("error_absorb.c"))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("needs --function"));
    let (code, text, _) = error_run(
        "error_absorb.c",
        "absorb",
        &["--output", "nowhere", "--max-time", "1"],
        "bad-output",
    );
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("no float result to measure"), "{text}");
}

#[test]
fn integer_ranges_open_on_one_side_are_kept() {
    let (code, text, j, _) = error(
        "error_int_range.c",
        "gated",
        &["--range", "x=[0,1]", "--range", "n=[-inf,5]", "--max-time", "4"],
        "int-range",
    );
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(err(&j), 0.0, "{text}");
    let n = j.inputs.iter().find(|i| i.name == "n").unwrap();
    let n: i64 = n.decimal.parse().unwrap();
    assert!(n <= 5, "{text}");
}

#[test]
fn a_closed_stdout_is_no_crash() {
    // `fpsym error ... | head -1`: the search finishes, exits 0, and
    // writes error.json, the worst input's test and the reports.
    let out = std::env::temp_dir().join(format!("fpsym-error-piped-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "'{}' error '{}' --function absorb --solver cp --range x=[-100,100] --range y=[-100,100] \
             --max-time 2 -o '{}' 2>/dev/null | head -1; echo \"fpsym exited ${{PIPESTATUS[0]}}\" >&2",
            env!("CARGO_BIN_EXE_fpsym"),
            fixture("error_absorb.c").display(),
            out.display()
        ))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 1);
    assert!(stderr.contains("fpsym exited 0"), "{stderr}");
    assert!(out.join("error.json").is_file());
    assert!(out.join("report.html").is_file());
    assert!(std::fs::read_dir(out.join("tests")).unwrap().count() >= 1);
}

#[test]
fn every_metric_is_reported_and_fpgen_counts_a_nan_as_zero() {
    // x * 1e300 overflows for x >= 1e9: inf - inf is NaN where the exact
    // result is 0. relative: the largest error; fpgen: 0 (FPGen's
    // `err > max` is false for a NaN); bits: the format's width.
    let args = ["--range", "x=[1e10,1e20]", "--max-time", "3", "--random-inputs", "5000"];
    let mut fpgen = args.to_vec();
    fpgen.extend(["--metric", "fpgen"]);
    let (code, text, j, _) = error("error_metrics.c", "nan_diff", &fpgen, "metric-fpgen");
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(j.metric, "fpgen", "{j:?}");
    assert_eq!(j.max_error.get(), 0.0, "{j:?}");
    assert_eq!(metric(&j, "fpgen"), Some(0.0), "{j:?}");
    // "inf" in error.json.
    assert_eq!(metric(&j, "relative"), Some(f64::INFINITY), "{j:?}");
    assert_eq!(metric(&j, "bits"), Some(64.0), "{j:?}");
    assert_eq!(metric(&j, "absolute"), Some(f64::INFINITY), "{j:?}");
    assert!(j.fpgen_reference.contains("__float128"), "{j:?}");
    assert!(text.contains("max fpgen error: 0"), "{text}");
    let (code, text, j, _) = error("error_metrics.c", "nan_diff", &args, "metric-relative");
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(j.metric, "relative", "{j:?}");
    assert_eq!(j.max_error.get(), f64::INFINITY, "{j:?}");
}

#[test]
fn the_native_random_phase_counts_its_inputs_and_finds_cancellations() {
    // det = a*d - b*c in [-10, 10]: the native phase runs the counted
    // random inputs (a reproducible run: counts only), then bisects inputs to where the computed result
    // changes sign (its zeros), where the relative error exceeds 1: a
    // random search's errors stay below 1e-12 or so.
    let mut args = vec!["--max-time", "20", "--seed", "1", "--random-inputs", "200000"];
    for p in ["a", "b", "c", "d"] {
        args.extend(["--range", Box::leak(format!("{p}=[-10,10]").into_boxed_str())]);
    }
    let (code, text, j, _) = error("error_metrics.c", "det", &args, "native");
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(j.native_random_inputs, 200000, "{j:?}");
    assert!(j.native_bisection_steps > 1000, "{j:?}");
    assert!(err(&j) > 1.0, "{text}");
    // The worst input's error is the engine's exact one: --input gives it
    // back.
    let inputs: Vec<String> = j.inputs.iter().map(|v| format!("{}={}", v.name, v.decimal)).collect();
    let mut given = vec![];
    for i in &inputs {
        given.extend(["--input", i.as_str()]);
    }
    let (code, text, g, _) = error("error_metrics.c", "det", &given, "native-given");
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(g.max_relative_error, j.max_relative_error, "{g:?}\n{j:?}");
}

#[test]
fn a_function_that_never_returns_natively_ends_on_time() {
    // hang(x) loops forever for x > 99: the native phase gives up on each
    // such input (1 s) and on its batch at the phase's end; the search
    // ends within --max-time (and the wrap-up) with a result.
    let started = std::time::Instant::now();
    let (code, text, j, _) = error(
        "error_metrics.c",
        "hang",
        &["--range", "x=[0,100]", "--max-time", "10"],
        "hang",
    );
    let took = started.elapsed().as_secs_f64();
    assert_eq!(code, Some(0), "{text}");
    assert!(took < 30.0, "{took} s\n{text}");
    assert!(j.native_random_inputs > 0, "{j:?}");
}

/// `--seed` makes a run reproducible: its phases are cut by counts (the
/// random phase by --random-inputs, then --rounds symbolic rounds whose
/// queries go to z3 under a resource limit), and the same command writes
/// the same error.json; the times are apart, in error-timing.json.
#[test]
fn the_same_seed_gives_the_same_error_json() {
    let args = [
        "--range",
        "x=[-100,100]",
        "--range",
        "y=[-100,100]",
        "--sites",
        "all",
        "--seed",
        "5",
        "--rounds",
        "3",
        "--random-inputs",
        "20000",
        "--max-time",
        "300",
    ];
    let mut seen = Vec::new();
    for tag in ["seed-a", "seed-b"] {
        let (code, text, out) = common::run_mode("error", &fixture("error_absorb.c"), "absorb", &args, tag);
        assert_eq!(code, Some(0), "{text}");
        let j: ErrorRecord = common::record(&out, ERROR_RECORD);
        assert_eq!(budget(&j), ("counts", true), "{j:?}");
        assert_eq!(j.symbolic_rounds, 3, "{j:?}");
        // error-timing.json reads, its `seconds` a number.
        let timing: ErrorTiming = common::record(&out, ERROR_TIMING);
        assert!(timing.seconds.is_finite(), "{text}");
        seen.push(std::fs::read_to_string(out.join("error.json")).unwrap());
    }
    assert_eq!(seen[0], seen[1], "two runs with --seed 5 wrote different error.json");
}

/// Float inputs summed in double: the largest errors need an absorbed tiny
/// input and an exact cancellation together (FPGen's figure on recursive
/// summation, 1.0: a computed 0 for an exact tiny sum). The refinement's
/// absorb-and-cancel step builds them; random inputs, crossings and
/// one-input steps do not (7e-21 in the same budget without it).
#[test]
fn an_absorption_and_a_cancellation_are_built_together() {
    let args = [
        "--array-len",
        "32",
        "--range",
        "x=[-100,100]",
        "--metric",
        "fpgen",
        "--seed",
        "1",
        "--rounds",
        "2",
        "--random-inputs",
        "20000",
        "--max-time",
        "300",
    ];
    let (code, text, out) = common::run_mode("error", &fixture("error_float_sum.c"), "sum", &args, "absorb-cancel");
    assert_eq!(code, Some(0), "{text}");
    let j: ErrorRecord = common::record(&out, ERROR_RECORD);
    let e = j.max_error.get();
    assert!(e >= 0.5, "max fpgen error {e}\n{text}");
}

/// FPGen's dot product (four float pairs, a double sum): its largest
/// errors need three moves at once (a product absorbed by a larger one
/// that a later product cancels exactly), which uniform random inputs
/// never make. The native evolution after the random phase stacks such
/// moves; with no symbolic round and the same count of random inputs,
/// fpsym reaches an error far above 1 where the random baseline
/// (`--strategy random`, random inputs only) stays below 1e-6.
#[test]
fn the_evolution_builds_a_product_that_cancels_its_twin() {
    let args = |strategy: &'static str| {
        [
            "--array-len",
            "4",
            "--range",
            "x=[-100,100]",
            "--range",
            "y=[-100,100]",
            "--metric",
            "fpgen",
            "--seed",
            "1",
            "--rounds",
            "0",
            "--random-inputs",
            "20000",
            "--strategy",
            strategy,
            "--max-time",
            "300",
        ]
    };
    let dot = fixture("error_float_dot.c");
    let (code, text, out) = common::run_mode("error", &dot, "dot", &args("fpsym"), "evolve-dot");
    assert_eq!(code, Some(0), "{text}");
    let e = common::record::<ErrorRecord>(&out, ERROR_RECORD).max_error.get();
    assert!(e >= 1.0, "max fpgen error {e}\n{text}");
    let (code, text, out) = common::run_mode("error", &dot, "dot", &args("random"), "evolve-dot-random");
    assert_eq!(code, Some(0), "{text}");
    let j: ErrorRecord = common::record(&out, ERROR_RECORD);
    let r = j.max_error.get();
    assert!(r < 1e-6, "random baseline {r}\n{text}");
    assert_eq!(
        j.native_bisection_steps, 0,
        "the baseline runs random inputs only: {j:?}"
    );
}
