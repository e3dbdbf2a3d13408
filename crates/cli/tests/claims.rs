//! Claims checked natively by default: a run ending with a claim
//! (verified, infeasible, no exception of a kind) replays its tests, and a
//! test that behaves otherwise natively withdraws the claim (exit 3, "the
//! model disagrees with native execution at FILE:LINE"), never a proof.
//! `claim_env.c` disagrees by design (the model's getenv sees only
//! `--env`; natively the replay driver sets FPSYM_TEST), so the mechanism
//! stays tested whatever the model learns; `claim_fmax.c` and
//! `claim_u64.c` are the model bugs of issue 30, never proofs.

mod common;

use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name)
}

/// The verdict stats.json records (None without stats.json).
fn verdict(out: &Path) -> Option<&'static str> {
    common::record_if::<fpsym_report::Summary>(out, fpsym_report::STATS).map(|s| common::verdict(&s))
}

#[test]
fn a_verified_run_native_execution_contradicts_is_withdrawn() {
    let (code, text, out) = common::run_mode("run", &fixture("claim_env.c"), "assert_unset", &[], "env");
    assert_eq!(code, Some(3), "{text}");
    assert!(
        text.contains("the model disagrees with native execution at claim_env.c:11: test 000001"),
        "{text}"
    );
    assert_eq!(verdict(&out), Some("unknown"), "{text}");
    assert!(out.join("replay.json").is_file(), "{text}");
    // --no-replay: the claim rests on the model alone (and says so by
    // its exit 0); --replay and --no-replay exclude each other.
    let (code, text, out) = common::run_mode(
        "run",
        &fixture("claim_env.c"),
        "assert_unset",
        &["--no-replay"],
        "env-no",
    );
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("verdict: verified"), "{text}");
    assert!(!out.join("replay.json").exists(), "{text}");
    let (code, text, _) = common::run_mode(
        "run",
        &fixture("claim_env.c"),
        "assert_unset",
        &["--no-replay", "--replay"],
        "env-both",
    );
    assert_eq!(code, Some(2), "{text}");
}

#[test]
fn an_unreachable_line_a_test_reaches_natively_is_withdrawn() {
    let (code, text, out) = common::run_mode(
        "path",
        &fixture("claim_env.c"),
        "reach_set",
        &["--reach", "17"],
        "reach",
    );
    assert_eq!(code, Some(3), "{text}");
    assert!(
        text.contains("the model disagrees with native execution at claim_env.c:17: test 0000")
            && text.contains("reaches it natively"),
        "{text}"
    );
    assert_eq!(verdict(&out), Some("unknown"), "{text}");
}

#[test]
fn no_exception_of_a_kind_a_test_raises_natively_is_withdrawn() {
    let (code, text, _) = common::run_mode(
        "exceptions",
        &fixture("claim_env.c"),
        "overflow_set",
        &["--kinds", "overflow"],
        "overflow",
    );
    assert_eq!(code, Some(3), "{text}");
    assert!(
        text.contains("the model disagrees with native execution at claim_env.c:25: test 0000")
            && text.contains("raises fp-overflow there natively"),
        "{text}"
    );
}

#[test]
fn fmax_of_signed_zeros_is_never_verified() {
    // Natively the assertion fails: found (once the model computes what
    // maxsd does) or a withdrawn claim, never exit 0.
    let (code, text, out) = common::run_mode("run", &fixture("claim_fmax.c"), "f", &[], "fmax");
    assert!(matches!(code, Some(1) | Some(3)), "{text}");
    assert_ne!(verdict(&out), Some("verified"), "{text}");
    if code == Some(3) {
        assert!(
            text.contains("the model disagrees with native execution at claim_fmax.c:7"),
            "{text}"
        );
    }
}

#[test]
fn a_reachable_line_behind_a_float_to_u64_cast_is_never_infeasible() {
    let (code, text, _) = common::run_mode("path", &fixture("claim_u64.c"), "f", &["--reach", "6"], "u64");
    assert!(matches!(code, Some(1) | Some(3)), "{text}");
    if code == Some(3) {
        assert!(
            text.contains("the model disagrees with native execution at claim_u64.c:6"),
            "{text}"
        );
    } else {
        assert!(text.contains("verdict: feasible"), "{text}");
    }
}

#[test]
fn a_128_bit_constant_beyond_64_bits_keeps_its_value() {
    for line in ["9", "11"] {
        let (code, text, _) = common::run_mode(
            "path",
            &fixture("claim_i128.c"),
            "f",
            &["--reach", line],
            &format!("i128_{line}"),
        );
        assert_eq!(code, Some(1), "line {line}: {text}");
        assert!(text.contains("verdict: feasible"), "line {line}: {text}");
    }
}

#[test]
fn a_fuzzing_crash_the_model_says_does_not_fail_is_a_disagreement() {
    // Without replay, the fuzzing phase alone: its crash at line 7 is run
    // natively; the seeded run's test of that input ends normally (a
    // disagreement, exit 3) or fails there too (exit 1, once the model
    // computes what maxsd does). Never verified.
    let (code, text, out) = common::run_mode(
        "run",
        &fixture("claim_fmax.c"),
        "f",
        &["--fuzz-time", "2", "--no-replay"],
        "fmax-fuzz",
    );
    assert!(matches!(code, Some(1) | Some(3)), "{text}");
    assert_ne!(verdict(&out), Some("verified"), "{text}");
    if code == Some(3) {
        assert!(
            text.contains("CONTRADICTED by the symbolic run")
                && text.contains(
                    "the model disagrees with native execution at claim_fmax.c:7: the fuzzing phase's input "
                ),
            "{text}"
        );
    }
}

#[test]
fn a_nans_sign_is_the_machines_through_sign_operations_and_bytes() {
    // Before: fneg/fabs/copysign of a NaN left its sign free (false
    // assertion failures), and a long double NaN from bytes became the
    // default (negative) NaN. Each function is verified, and its tests
    // replay natively without disagreement.
    for f in ["signs", "from_bytes"] {
        let (code, text, out) = common::run_mode("run", &fixture("nan_signs.c"), f, &[], f);
        assert_eq!(code, Some(0), "{f}: {text}");
        assert_eq!(verdict(&out), Some("verified"), "{f}: {text}");
        assert!(out.join("replay.json").is_file(), "{f}: {text}");
    }
}

#[test]
fn what_printf_returns_is_never_assumed() {
    // printf with a conversion returns a count fpsym does not compute:
    // any non-negative one, so the failing assertion is found, and
    // confirmed natively (before: 0, and "verified").
    let (code, text, out) = common::run_mode("run", &fixture("claim_printf.c"), "f", &[], "printf");
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(verdict(&out), Some("bug-found"), "{text}");
    assert!(text.contains("claim_printf.c:8"), "{text}");
    // Counts fpsym computes are glibc's: every assertion holds.
    let (code, text, out) = common::run_mode("run", &fixture("claim_printf.c"), "g", &[], "puts");
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(verdict(&out), Some("verified"), "{text}");
}
