//! `fpsym exceptions`: every IEEE exception kind and float-cast overflow
//! found where the fixture (`tests/c/exceptions.c`) has it, nothing
//! elsewhere, and every finding confirmed by native replay (the exception
//! trapped at its line, the cast reported by clang's sanitizer).

mod common;

use common::replay_confirms;
use fpsym_report::{Finding, FindingKind};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name)
}

/// `fpsym exceptions exceptions.c --function F` with `extra`: exit code,
/// output, and the findings as (kind, line).
fn exceptions(function: &str, extra: &[&str]) -> (Option<i32>, String, BTreeSet<(String, u64)>, PathBuf) {
    exceptions_in("exceptions.c", function, extra)
}

/// [`exceptions`] on fixture `file`.
fn exceptions_in(
    file: &str,
    function: &str,
    extra: &[&str],
) -> (Option<i32>, String, BTreeSet<(String, u64)>, PathBuf) {
    let out = std::env::temp_dir().join(format!("fpsym-exceptions-{}-{function}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .arg("exceptions")
        .arg(fixture(file))
        .args(["--function", function, "-o", out.to_str().unwrap()])
        .args(if extra.contains(&"--max-time") {
            &[][..]
        } else {
            &["--max-time", "120"][..]
        })
        // The exceptions must come from the symbolic search: no fuzzing.
        .args(["--fuzz-time", "0"])
        .args(extra)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    let mut found = BTreeSet::new();
    for v in findings(&out) {
        found.insert((v.kind.to_string(), u64::from(v.line)));
    }
    (o.status.code(), text, found, out)
}

/// The findings of a run (`findings/` must be there), in file order.
fn findings(out: &Path) -> Vec<Finding> {
    assert!(out.join("findings").is_dir(), "no {}", out.join("findings").display());
    common::findings(out)
}

fn set(items: &[(&str, u64)]) -> BTreeSet<(String, u64)> {
    items.iter().map(|(k, l)| (k.to_string(), *l)).collect()
}

#[test]
fn division_raises_every_kind_and_each_is_trapped_natively() {
    let (code, text, found, out) = exceptions("ratio", &[]);
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(
        found,
        set(&[
            ("fp-divide-by-zero", 2),
            ("fp-invalid", 2),
            ("fp-overflow", 2),
            ("fp-underflow", 2)
        ]),
        "{text}"
    );
    assert!(
        text.contains("fp-overflow: [1, 1], 0 of 1 avoidable: exceptions.c:2:"),
        "{text}"
    );
    // Each finding shows the operation, its operands and result with the
    // test's input: x / y = inf for the overflow, x / 0 for the pole.
    for f in findings(&out) {
        assert_eq!(f.operation.as_deref(), Some("fdiv"), "{f:?}");
        assert_eq!(f.operands.len(), 2, "{f:?}");
        match f.kind {
            FindingKind::FpOverflow => assert!(f.result.as_deref().unwrap().ends_with("inf"), "{f:?}"),
            FindingKind::FpDivideByZero => {
                let y: f64 = f.operands[1].parse().unwrap();
                assert_eq!(y, 0.0, "{f:?}");
            }
            FindingKind::FpInvalid => assert_eq!(f.result.as_deref(), Some("nan"), "{f:?}"),
            _ => {}
        }
    }
    replay_confirms(&out);
}

#[test]
fn libm_domain_errors_are_trapped_at_the_users_call() {
    let (code, text, found, out) = exceptions("root", &[]);
    assert_eq!((code, &found), (Some(1), &set(&[("fp-invalid", 3)])), "{text}");
    replay_confirms(&out);
    let (code, text, found, out) = exceptions("lg", &[]);
    assert_eq!(
        (code, &found),
        (Some(1), &set(&[("fp-divide-by-zero", 4), ("fp-invalid", 4)])),
        "{text}"
    );
    replay_confirms(&out);
}

#[test]
fn a_cast_out_of_range_is_found_and_sanitized_natively() {
    let (code, text, found, out) = exceptions("to_short", &[]);
    assert_eq!((code, &found), (Some(1), &set(&[("float-cast-overflow", 5)])), "{text}");
    replay_confirms(&out);
}

#[test]
fn multiplication_overflows_and_underflows() {
    let (code, text, found, out) = exceptions("square", &[]);
    assert_eq!(
        (code, &found),
        (Some(1), &set(&[("fp-overflow", 6), ("fp-underflow", 6)])),
        "{text}"
    );
    // x * x overflows only when x² > Ω and underflows only when
    // 0 < x² < λ: whatever input was found, the exact result is out of
    // the normal range, so neither is avoidable. One path: one input each.
    for f in findings(&out) {
        assert_eq!(f.avoidable, Some(false), "{f:?}");
        assert_eq!(f.inputs, Some(1), "{f:?}");
    }
    assert!(text.contains("fp-overflow: [1, 1], 0 of 1 avoidable"), "{text}");
    // The total counts the kinds users act on; the underflow is apart.
    assert!(text.contains("all: [1, 1]\napart"), "{text}");
    assert!(text.contains("fp-underflow: [1, 1], 0 of 1 avoidable"), "{text}");
    replay_confirms(&out);
}

#[test]
fn exp_overflows_and_underflows_past_glibcs_thresholds() {
    // exp(x) overflows for x > 709.78..., underflows below -708.39...
    // (glibc's thresholds, crates/engine's GROWTH): both trapped natively,
    // neither avoidable (the exact exponential is out of range too; far
    // out, beyond even MPFR's range, it is not judged at all).
    let (code, text, found, out) = exceptions("expo", &["--kinds", "overflow,underflow"]);
    assert_eq!(
        (code, &found),
        (Some(1), &set(&[("fp-overflow", 19), ("fp-underflow", 19)])),
        "{text}"
    );
    for f in findings(&out) {
        assert_ne!(f.avoidable, Some(true), "{f:?}");
    }
    replay_confirms(&out);
    // Capped at 700, it cannot overflow (the check asks before exp's
    // argument is made concrete to compute its value; that makes the
    // verdict incomplete until the transcendental issue).
    let (code, text, found, _) = exceptions("capped", &["--kinds", "overflow"]);
    assert_eq!((code, found.len()), (Some(0), 0), "{text}");
    assert!(text.contains("fp-overflow: none"), "{text}");
}

#[test]
fn sine_of_an_infinity_is_invalid() {
    // sin, cos and tan have no value at ±inf: invalid, trapped inside
    // glibc and located at the user's call.
    let (code, text, found, out) = exceptions("wave", &["--kinds", "invalid"]);
    assert_eq!((code, &found), (Some(1), &set(&[("fp-invalid", 21)])), "{text}");
    replay_confirms(&out);
}

#[test]
fn an_overflow_sterbenz_could_avoid_is_avoidable() {
    // Seed 003, Section 5.3: in x + (y - x)/2, y - x overflows only for
    // x, y of opposite signs and magnitudes near Ω, where the exact
    // average is zero or a normal multiple of 2^970: avoidable (av1
    // computes it without overflow).
    let (code, text, found, out) = exceptions("av3", &["--kinds", "overflow"]);
    assert_eq!((code, &found), (Some(1), &set(&[("fp-overflow", 18)])), "{text}");
    let f = &findings(&out)[0];
    assert_eq!(f.avoidable, Some(true), "{f:?}");
    assert!(text.contains("fp-overflow: [1, 1], 1 of 1 avoidable"), "{text}");
    replay_confirms(&out);
}

#[test]
fn only_a_signalling_nan_makes_comparisons_and_sums_invalid() {
    // x + 1 on (1, 2) raises nothing; `x > 1.0` is a quiet comparison,
    // invalid only for a signalling NaN (x is made of an integer's bits;
    // float parameters and typed inputs range over quiet NaNs).
    let (code, text, found, out) = exceptions("in_range", &[]);
    assert_eq!((code, &found), (Some(1), &set(&[("fp-invalid", 7)])), "{text}");
    replay_confirms(&out);
    // Asking only for overflow: verified (no overflow is possible).
    let (code, text, found, _) = exceptions("in_range", &["--kinds", "overflow"]);
    assert_eq!((code, found.len()), (Some(0), 0), "{text}");
    assert!(text.contains("verdict: verified"), "{text}");
}

#[test]
fn halving_a_float_only_underflows() {
    // x / 2 in float: never overflows nor divides by zero; underflows
    // when x is tiny and odd in its last place.
    let (code, text, found, out) = exceptions("half", &["--kinds", "overflow,underflow,divide-by-zero"]);
    assert_eq!((code, &found), (Some(1), &set(&[("fp-underflow", 8)])), "{text}");
    replay_confirms(&out);
}

#[test]
fn sterbenz_average_is_overflow_free_and_underflows_in_three_places() {
    // Seed 003, Fig. 1: Sterbenz proved `average` free of overflow; its
    // three halvings underflow (tiny and inexact) for tiny inputs.
    let out = std::env::temp_dir().join(format!("fpsym-exceptions-{}-sterbenz", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/c/sterbenz_average.c");
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .arg("exceptions")
        .arg(&example)
        .args(["--function", "average", "--kinds", "overflow,underflow", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("fp-overflow: none"), "{text}");
    assert!(text.contains("verdict: bug found (every path explored)"), "{text}");
    let lines: BTreeSet<u64> = findings(&out)
        .into_iter()
        .map(|v| {
            assert_eq!(v.kind, FindingKind::FpUnderflow, "{v:?}");
            u64::from(v.line)
        })
        .collect();
    assert_eq!(lines, BTreeSet::from([16, 18, 19]), "{text}");
    // Two paths reach each halving: Ariadne's 6 underflows are its 6
    // input-location pairs. Each is classified (its function's result
    // re-run in high precision).
    for f in findings(&out) {
        assert_eq!(f.inputs, Some(2), "{f:?}");
        assert!(f.avoidable.is_some(), "{f:?}");
    }
    assert!(text.contains("fp-underflow: [3, 6]"), "{text}");
    replay_confirms(&out);
}

#[test]
fn rounding_toward_zero_still_overflows() {
    // x * 4 toward zero gives DBL_MAX, not infinity, for x just above
    // DBL_MAX / 4: IEEE (and x86) still raise overflow.
    let (code, text, found, out) = exceptions("chopped", &["--kinds", "overflow"]);
    assert_eq!((code, &found), (Some(1), &set(&[("fp-overflow", 10)])), "{text}");
    replay_confirms(&out);
}

#[test]
fn narrowing_and_fused_operations() {
    let (code, text, found, out) = exceptions("narrow", &["--kinds", "overflow,underflow,invalid"]);
    assert_eq!(
        (code, &found),
        (Some(1), &set(&[("fp-overflow", 11), ("fp-underflow", 11)])),
        "{text}"
    );
    replay_confirms(&out);
    let (code, text, found, out) = exceptions("fused", &["--kinds", "overflow,invalid"]);
    assert_eq!(
        (code, &found),
        (Some(1), &set(&[("fp-invalid", 12), ("fp-overflow", 12)])),
        "{text}"
    );
    replay_confirms(&out);
}

#[test]
fn all_functions_get_a_harness_and_a_directory_each() {
    let out = std::env::temp_dir().join(format!("fpsym-exceptions-{}-all", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .arg("exceptions")
        .arg(fixture("exceptions.c"))
        .args([
            "--all-functions",
            "--max-time-per-function",
            "60",
            "--fuzz-time",
            "0",
            "-o",
        ])
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("functions: 19 analysed"), "{text}");
    for line in [
        "  root: fp-invalid:3",
        "  to_short: float-cast-overflow:5",
        "  chopped: fp-overflow:10",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    // Each function's directory is a run of its own that replay confirms.
    for f in ["root", "to_short", "chopped"] {
        replay_confirms(&out.join("functions").join(f));
    }
    // The directory can be analysed again with --force.
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .arg("exceptions")
        .arg(fixture("exceptions.c"))
        .args([
            "--all-functions",
            "--max-time-per-function",
            "60",
            "--force",
            "--kinds",
            "overflow",
            "-o",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stdout));
    // --function and --all-functions exclude each other.
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .arg("exceptions")
        .arg(fixture("exceptions.c"))
        .args(["--all-functions", "--function", "root"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn integer_conversions_are_inexact_and_unmodelled_calls_are_not_verified() {
    let (code, text, found, out) = exceptions("from_long", &["--kinds", "inexact,overflow"]);
    assert_eq!((code, &found), (Some(1), &set(&[("fp-inexact", 13)])), "{text}");
    replay_confirms(&out);
    // ldexp can overflow, and this checker does not model it: no
    // "verified".
    let (code, text, found, _) = exceptions("grow", &["--kinds", "overflow"]);
    assert_eq!((code, found.len()), (Some(4), 0), "{text}");
    assert!(text.contains("verdict: incomplete") && text.contains("ldexp"), "{text}");
}

#[test]
fn every_kind_an_instruction_raises_is_confirmed() {
    // x * x overflows and is inexact at once; sqrt is inexact or invalid.
    let (code, text, found, out) = exceptions("square", &["--kinds", "overflow,inexact"]);
    assert_eq!(
        (code, &found),
        (Some(1), &set(&[("fp-inexact", 6), ("fp-overflow", 6)])),
        "{text}"
    );
    replay_confirms(&out);
    let (code, text, found, out) = exceptions("root", &["--kinds", "invalid,inexact"]);
    assert_eq!(
        (code, &found),
        (Some(1), &set(&[("fp-inexact", 3), ("fp-invalid", 3)])),
        "{text}"
    );
    replay_confirms(&out);
}

#[test]
fn what_the_checker_cannot_decide_is_never_verified() {
    // An x87 long double operation is not modelled: its exceptions are
    // left undecided.
    let (code, text, found, _) = exceptions_in("exceptions_compare.c", "sterbenz_long", &[]);
    assert_eq!((code, found.len()), (Some(4), 0), "{text}");
    assert!(text.contains("verdict: incomplete"), "{text}");
    // pow's result is symbolic (glibc's value): its overflow (an infinity
    // from finite arguments, not at a pole) is decided and confirmed
    // natively.
    let (code, text, found, out) = exceptions("power", &["--kinds", "overflow"]);
    assert_eq!((code, &found), (Some(1), &set(&[("fp-overflow", 16)])), "{text}");
    replay_confirms(&out);
}

#[test]
fn integer_division_by_zero_still_dies_under_the_trap_handler() {
    let (code, text, found, out) = exceptions("both", &["--kinds", "overflow"]);
    assert_eq!(
        (code, &found),
        (Some(1), &set(&[("division-by-zero", 17), ("fp-overflow", 17)])),
        "{text}"
    );
    replay_confirms(&out);
}

#[test]
fn exceptions_inside_fpsyms_c_runtime_are_left_to_the_c_library() {
    // atof runs fpsym's strtod, whose division rounds: glibc's strtod,
    // natively, decides what it raises, at no line of the program's. The
    // check is undecided (so never verified), not a finding in
    // fpsym-runtime/stdlib.c that replay could not confirm.
    let out = std::env::temp_dir().join(format!("fpsym-exceptions-{}-runtime", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .arg("exceptions")
        .arg(fixture("exceptions_runtime.c"))
        .args(["--kinds", "inexact", "--max-time", "60", "--fuzz-time", "0", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{text}");
    assert!(findings(&out).is_empty(), "{text}");
    let events = std::fs::read_to_string(out.join("events.jsonl")).unwrap();
    assert!(
        events.contains("\"check-undecided\"") && events.contains("fpsym's C runtime"),
        "{events}"
    );
    assert!(!text.contains("verdict: verified"), "{text}");
}

#[test]
fn a_programs_own_libm_named_function_runs_its_body() {
    // own_libm.c defines its own `log` (x * 0.5): calling it with a
    // negative or zero x raises nothing; its halving underflows. Natively
    // the program's log runs too, so each finding is confirmed.
    let out = std::env::temp_dir().join(format!("fpsym-exceptions-{}-own-libm", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .arg("exceptions")
        .arg(fixture("own_libm.c"))
        .args(["--function", "f", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{text}");
    let found: BTreeSet<(String, u64)> = findings(&out)
        .iter()
        .map(|f| (f.kind.to_string(), u64::from(f.line)))
        .collect();
    assert_eq!(found, set(&[("fp-underflow", 1)]), "{text}");
    replay_confirms(&out);
}

#[test]
fn an_exception_inside_library_bitcode_is_found_where_the_user_calls() {
    // lib_square (bitcode, no user source) overflows and underflows in
    // x * x: the findings are placed at the user's call (line 3), where
    // the native stack trace's first user frame is, and replay confirms
    // them there.
    let dir = std::env::temp_dir().join(format!("fpsym-exceptions-{}-lib", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let bc = dir.join("xflow_lib.bc");
    let st = Command::new("clang-14")
        .args(["-g", "-O0", "-Xclang", "-disable-O0-optnone", "-c", "-emit-llvm", "-o"])
        .arg(&bc)
        .arg(fixture("xflow_lib.c"))
        .status()
        .expect("clang-14 (Debian package clang-14; scripts/bootstrap installs it)");
    assert!(st.success());
    let out = dir.join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .arg("exceptions")
        .arg(fixture("xflow_user.c"))
        .arg(&bc)
        .args(["--function", "twice_square", "--kinds", "overflow,underflow", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{text}");
    let fs = findings(&out);
    let placed: BTreeSet<(String, String, u64)> = fs
        .iter()
        .map(|f| {
            let file = Path::new(&f.file).file_name().unwrap().to_string_lossy().into_owned();
            (f.kind.to_string(), file, u64::from(f.line))
        })
        .collect();
    assert!(
        placed.contains(&("fp-overflow".into(), "xflow_user.c".into(), 3)),
        "{text}"
    );
    assert!(
        placed.contains(&("fp-underflow".into(), "xflow_user.c".into(), 3)),
        "{text}"
    );
    assert!(
        placed.iter().all(|(_, file, _)| file == "xflow_user.c"),
        "no finding inside the library: {text}"
    );
    assert!(fs.iter().any(|f| f.message.contains("in lib_square")), "{text}");
    replay_confirms(&out);
    // A conversion out of range inside the bitcode: clang's sanitizer,
    // which confirms those, does not instrument bitcode, so it is
    // undecided, not a finding replay could never confirm.
    let cast = dir.join("cast");
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .arg("exceptions")
        .arg(fixture("xflow_user.c"))
        .arg(&bc)
        .args(["--function", "trunc_it", "--kinds", "float-cast-overflow", "-o"])
        .arg(&cast)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{text}");
    assert!(findings(&cast).is_empty(), "{text}");
    let events = std::fs::read_to_string(cast.join("events.jsonl")).unwrap();
    assert!(events.contains("no sanitizer sees it"), "{events}");
    // The bitcode alone (no user source at all): the findings stay where
    // they are, and replay places them at the faulting line too.
    let alone = dir.join("alone");
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .arg("exceptions")
        .arg(&bc)
        .args(["--function", "lib_square", "--kinds", "overflow", "-o"])
        .arg(&alone)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{text}");
    let fs = findings(&alone);
    assert_eq!(fs.len(), 1, "{text}");
    assert!(fs[0].file.ends_with("xflow_lib.c"), "{text}");
    assert_eq!(fs[0].line, 2, "{text}");
    replay_confirms(&alone);
}

#[test]
fn an_exception_raised_before_a_native_timeout_is_still_confirmed() {
    // x * x overflows, then the function spins forever: natively the test
    // is killed after replay's timeout, and what the trap handler wrote
    // before still confirms the overflow.
    let out = std::env::temp_dir().join(format!("fpsym-exceptions-{}-spin", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .arg("exceptions")
        .arg(fixture("exceptions_spin.c"))
        .args(["--function", "spin", "--kinds", "overflow", "--max-time", "3", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{text}");
    let found: Vec<(String, u64)> = findings(&out)
        .iter()
        .map(|f| (f.kind.to_string(), u64::from(f.line)))
        .collect();
    assert_eq!(found, vec![("fp-overflow".to_string(), 2)], "{text}");
    replay_confirms(&out);
}

#[test]
fn a_compare_is_signalling_where_the_machine_code_is() {
    // Measured natively (clang-14 -O0, x86-64): branches, integer results
    // and a select of integers compare with `ucomisd` (quiet), so a quiet
    // NaN raises nothing and `branchy` is verified free of invalid.
    let (code, text, found, _) = exceptions_in("exceptions_compare.c", "branchy", &["--kinds", "invalid"]);
    assert_eq!((code, found.len()), (Some(0), 0), "{text}");
    assert!(text.contains("verdict: verified"), "{text}");
    // A negated condition feeds the select through an `xor`: `ucomisd`.
    let (code, text, found, _) = exceptions_in("exceptions_compare.c", "picked", &["--kinds", "invalid"]);
    assert_eq!((code, found.len()), (Some(0), 0), "{text}");
    // binary128 equality is libgcc's `__eqtf2`: quiet.
    let (code, text, found, _) = exceptions_in("exceptions_compare.c", "quad_eq", &["--kinds", "invalid"]);
    assert_eq!((code, found.len()), (Some(0), 0), "{text}");
    // A double compare feeding a select of doubles is `cmpltsd`, a vector
    // compare `cmpltps`, `fmax` inline `maxsd`, and a binary128 `<`
    // libgcc's `__lttf2`: each raises invalid on a quiet NaN, confirmed
    // by native replay.
    for (f, line) in [("sel", 10), ("lanes", 5), ("widest", 6), ("quad", 7)] {
        let (code, text, found, out) = exceptions_in("exceptions_compare.c", f, &["--kinds", "invalid"]);
        assert_eq!((code, &found), (Some(1), &set(&[("fp-invalid", line)])), "{f}: {text}");
        replay_confirms(&out);
    }
}

/// A loop without a bound: the symbolic run cannot finish, and the
/// abstract interpretation proves (from the `--range`s) that no operation
/// overflows or divides by zero: the verdict is `verified`, with the
/// loop's invariant, and the claim's tests replay natively without either
/// exception. Without the ranges, no proof, and the overflow is found.
#[test]
fn a_loop_is_proved_free_of_overflow_and_division_by_zero() {
    let kinds = ["--kinds", "overflow,divide-by-zero"];
    let ranges = ["--range", "lo=[-10,10]", "--range", "hi=[20,30]"];
    let (code, text, found, out) = exceptions_in("exceptions_loop.c", "smooth", &[&kinds[..], &ranges[..]].concat());
    assert_eq!(code, Some(0), "{text}");
    assert!(found.is_empty(), "{found:?}\n{text}");
    assert!(
        text.contains("proof: no fp-overflow or fp-divide-by-zero is possible, by abstract interpretation"),
        "{text}"
    );
    let s = common::summary(&out);
    assert_eq!(common::verdict(&s), "proved", "{text}");
    assert!(text.contains("exceptions_loop.c:8: s in [-10.0, 30."), "{text}");
    assert!(
        text.contains("all ") && text.contains("tests behaved as recorded"),
        "{text}"
    );

    // Any doubles: hi - lo may overflow; nothing is proved, and the
    // analysis says where.
    let (_, text, _, out) = exceptions_in(
        "exceptions_loop.c",
        "smooth",
        &[&kinds[..], &["--max-time", "8"][..]].concat(),
    );
    assert!(
        text.contains("proof: none (the abstract interpretation cannot exclude fp-overflow at")
            && text.contains("exceptions_loop.c:12:18"),
        "{text}"
    );
    assert_ne!(common::verdict(&common::summary(&out)), "proved", "{text}");

    // The default kinds: underflow and invalid are not the analysis'; the
    // three it checks are proved, kind by kind.
    let (_, text, found, out) = exceptions_in(
        "exceptions_loop.c",
        "smooth",
        &[&ranges[..], &["--max-time", "8"][..]].concat(),
    );
    assert!(
        text.contains("proof: no fp-overflow, fp-divide-by-zero or float-cast-overflow is possible")
            && text.contains("the run's other kinds are not the analysis'"),
        "{text}"
    );
    assert!(
        found.iter().all(|(k, _)| k == "fp-underflow" || k == "fp-invalid"),
        "{found:?}\n{text}"
    );
    assert_ne!(common::verdict(&common::summary(&out)), "proved", "{text}");
}
