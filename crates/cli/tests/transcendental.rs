//! Transcendental functions reasoned about, not sampled (issue 14): a
//! fixture per family (`tests/c/libm_*.c`) whose targets sit behind `sin`,
//! `exp`, `pow`, ... and need a range of the function's value.
//!
//! Each fixture states its cases in comment lines
//! `// case: FUNCTION [fpsym run flags] => found KIND | verified | no-finding`;
//! a found target's line ends with `// T:FUNCTION`. A `found` case must
//! report exactly that finding, confirmed by native replay (`--replay`:
//! glibc itself computes the value); a `verified` case must be proved
//! (the claim that no input reaches the target holds for glibc: each
//! fixture's comment says why); a `no-finding` case may end verified or
//! incomplete, never with a finding. Then: `--libm concretize` on the same
//! program is the old behaviour (a concretized event, never verified);
//! dumped queries with `fpsym.*` terms get the same answer from
//! `fpsym solve`; `fpsym exceptions` finds the overflow of `exp` and `pow`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name)
}

/// Seconds each run may take (graceful stop: an unproved case then ends
/// `incomplete`, which fails a `found`/`verified` case with its output).
const MAX_TIME: &str = "120";

#[derive(Debug, Clone, PartialEq)]
enum Expect {
    Found { kind: String, line: u64 },
    Verified,
    NoFinding,
}

#[derive(Debug, Clone)]
struct Case {
    function: String,
    flags: Vec<String>,
    expect: Expect,
}

/// The cases of fixture `name`.
fn cases(name: &str) -> Vec<Case> {
    let src = std::fs::read_to_string(fixture(name)).unwrap();
    let target_line = |f: &str| {
        let mark = format!("// T:{f}");
        src.lines()
            .position(|l| l.trim_end().ends_with(&mark))
            .unwrap_or_else(|| panic!("{name}: no line marked `{mark}`")) as u64
            + 1
    };
    src.lines()
        .filter_map(|l| l.strip_prefix("// case:"))
        .map(|c| {
            let (lhs, rhs) = c.split_once("=>").expect("`=>` in a case line");
            let mut words = lhs.split_whitespace().map(str::to_string);
            let function = words.next().expect("a function name");
            let flags: Vec<String> = words.collect();
            let mut r = rhs.split_whitespace();
            let expect = match r.next() {
                Some("found") => Expect::Found {
                    kind: r.next().expect("a finding kind").to_string(),
                    line: target_line(&function),
                },
                Some("verified") => Expect::Verified,
                Some("no-finding") => Expect::NoFinding,
                other => panic!("{name}: unknown expectation {other:?}"),
            };
            Case {
                function,
                flags,
                expect,
            }
        })
        .collect()
}

/// `fpsym run FILE --function F FLAGS EXTRA`: exit code, output, the
/// directory.
fn run(name: &str, case: &Case, extra: &[&str], tag: &str) -> (Option<i32>, String, PathBuf) {
    let mut args: Vec<&str> = case.flags.iter().map(String::as_str).collect();
    if !args.contains(&"--max-time") {
        args.extend(["--max-time", MAX_TIME]);
    }
    // The targets must be reasoned about, not sampled: no fuzzing phase
    // (a tenth of --max-time by default), which would also find some.
    args.extend(extra);
    if !args.contains(&"--fuzz-time") {
        args.extend(["--fuzz-time", "0"]);
    }
    common::run_mode(
        "run",
        &fixture(name),
        &case.function,
        &args,
        &format!("{}-{tag}", case.function),
    )
}

/// The findings of a run as (kind, line).
fn findings(out: &Path) -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = common::findings(out)
        .into_iter()
        .map(|f| (f.kind.to_string(), u64::from(f.line)))
        .collect();
    v.sort();
    v
}

fn verdict(out: &Path) -> String {
    common::record_if::<fpsym_report::Summary>(out, fpsym_report::STATS)
        .map_or("none", |s| common::verdict(&s))
        .to_string()
}

/// Every case of fixture `name` with `--libm symbolic` (the default); the
/// failures, all of them, in one message.
fn check_fixture(name: &str) {
    let mut failures = Vec::new();
    for case in cases(name) {
        let extra: &[&str] = match case.expect {
            Expect::Found { .. } => &["--replay"],
            _ => &[],
        };
        let (code, text, out) = run(name, &case, extra, "sym");
        let got = findings(&out);
        let v = verdict(&out);
        let ok = match &case.expect {
            Expect::Found { kind, line } => {
                let confirmed = common::record_if::<fpsym_report::ReplayReport>(&out, fpsym_report::REPLAY)
                    .is_some_and(|r| !r.findings.is_empty() && r.findings.iter().all(|f| f.confirmed));
                code == Some(1)
                    && got == [(kind.clone(), *line)]
                    && confirmed
                    && text.contains(" 0 unconfirmed, 0 tests behaving otherwise")
            }
            Expect::Verified => code == Some(0) && got.is_empty() && v == "verified",
            Expect::NoFinding => got.is_empty() && matches!(code, Some(0 | 4)),
        };
        if !ok {
            failures.push(format!(
                "{name} {} {:?}: expected {:?}, got exit {code:?}, verdict {v}, findings {got:?}\n{text}",
                case.function, case.flags, case.expect
            ));
        }
        let _ = std::fs::remove_dir_all(&out);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n----\n"));
}

/// glibc's own functions (not a port linked into fpsym), its errno on
/// underflow, and `signgam` (not modelled: never verified).
#[test]
fn glibc_state_and_identity() {
    check_fixture("libm_glibc_state.c");
    let (_, text, out) = run(
        "libm_glibc_state.c",
        &case("libm_glibc_state.c", "lgamma_signgam"),
        &[],
        "sg",
    );
    assert_eq!(verdict(&out), "incomplete", "{text}");
    let t = common::test(&out, 1);
    assert!(
        t.end
            .to_string()
            .contains("lgamma sets signgam, which the program reads"),
        "{t:?}"
    );
}

#[test]
fn trigonometric() {
    check_fixture("libm_trig.c");
}

#[test]
fn inverse_trigonometric() {
    check_fixture("libm_invtrig.c");
}

#[test]
fn hyperbolic() {
    check_fixture("libm_hyperbolic.c");
}

#[test]
fn exponentials() {
    check_fixture("libm_exp.c");
}

#[test]
fn logarithms() {
    check_fixture("libm_log.c");
}

#[test]
fn pow_hypot_atan2_cbrt() {
    check_fixture("libm_pow.c");
}

#[test]
fn erf_and_gamma() {
    check_fixture("libm_special.c");
}

/// The `long double` forms (`sinl`, `expl`, `powl`, ...): x87 80-bit
/// values, glibc's own x87 functions in the model check and in replay.
#[test]
fn long_double_forms() {
    check_fixture("libm_long_double.c");
}

/// The case `function` of fixture `name`.
fn case(name: &str, function: &str) -> Case {
    cases(name)
        .into_iter()
        .find(|c| c.function == function)
        .unwrap_or_else(|| panic!("{name}: no case {function}"))
}

#[test]
fn concretizing_is_the_old_behaviour() {
    // The same programs with one native sample of sin(x): a concretized
    // event, the target behind the call not reached, never "verified".
    // (Without the fuzzing phase, which finds sin_peak's target inside
    // its range on its own.)
    for function in ["sin_peak", "sin_bounded"] {
        let c = case("libm_trig.c", function);
        let (code, text, out) = run("libm_trig.c", &c, &["--libm", "concretize"], "conc");
        let events = std::fs::read_to_string(out.join("events.jsonl")).unwrap_or_default();
        assert!(
            events.lines().any(|l| l.contains("oncretized") && l.contains("sin")),
            "{function}: {events}\n{text}"
        );
        assert_eq!(verdict(&out), "incomplete", "{function}: {text}");
        assert!(findings(&out).is_empty(), "{function}: {text}");
        assert_ne!(code, Some(0), "{function}: {text}");
        let _ = std::fs::remove_dir_all(&out);
    }
}

#[test]
fn concretized_long_double_calls_glibcs_x87_function() {
    // `--libm concretize` on a `long double` call: one native sample by
    // glibc's sinl (it used to end the path "not modelled"), never verified.
    let c = case("libm_long_double.c", "sinl_bounded");
    let (_, text, out) = run("libm_long_double.c", &c, &["--libm", "concretize"], "conc");
    let events = std::fs::read_to_string(out.join("events.jsonl")).unwrap_or_default();
    assert!(
        events.lines().any(|l| l.contains("oncretized") && l.contains("sinl")),
        "{events}\n{text}"
    );
    assert!(
        !text.contains("not modelled") && !events.contains("not modelled"),
        "{events}\n{text}"
    );
    assert_eq!(verdict(&out), "incomplete", "{text}");
    assert!(findings(&out).is_empty(), "{text}");
    let _ = std::fs::remove_dir_all(&out);
}

/// The answers `fpsym solve` prints.
fn answers(stdout: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(str::trim)
        .filter(|l| matches!(*l, "sat" | "unsat" | "unknown"))
        .map(str::to_string)
        .collect()
}

#[test]
fn dumped_queries_with_libm_terms_are_solved_again_alike() {
    // A proof (log >= 0 on [1,2]) and a finding (log of a subnormal):
    // their queries name `fpsym.log`; `fpsym solve` reads each back and
    // gives the answer the run got (a sat model is validated against
    // glibc inside fpsym).
    solved_again_alike(
        "libm_log.c",
        [("log_nonneg", "unsat"), ("log_tiny", "sat")],
        "fpsym.log",
    );
}

#[test]
fn dumped_long_double_queries_are_solved_again_alike() {
    // The same with `long double` (`(_ FloatingPoint 15 64)` operands of
    // `fpsym.exp` / `fpsym.log`): a proof and a finding.
    solved_again_alike(
        "libm_long_double.c",
        [("expl_finite", "unsat"), ("logl_tiny", "sat")],
        "fpsym.",
    );
}

/// Each `(function, answer)` of fixture `name` run with `--dump-queries`:
/// every decided dumped query naming `needle` gets the same answer from
/// `fpsym solve`, and `answer` is among them.
fn solved_again_alike(name: &str, runs: [(&str, &str); 2], needle: &str) {
    let dump = std::env::temp_dir().join(format!(
        "fpsym-transcendental-dump-{}-{}",
        name.trim_end_matches(".c"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dump);
    for (function, want) in runs {
        let c = case(name, function);
        let d = dump.join(function);
        let (_, text, out) = run(name, &c, &["--dump-queries", d.to_str().unwrap()], "dump");
        let _ = std::fs::remove_dir_all(&out);
        let mut with_libm = 0;
        let mut seen = std::collections::BTreeSet::new();
        for f in std::fs::read_dir(&d).unwrap() {
            let f = f.unwrap().path();
            let q = std::fs::read_to_string(&f).unwrap();
            if !q.contains(needle) {
                continue;
            }
            let Some(status) = q
                .lines()
                .find_map(|l| l.trim().strip_prefix("(set-info :status "))
                .map(|s| s.trim_end_matches(')').trim().to_string())
            else {
                continue;
            };
            if status == "unknown" {
                continue;
            }
            with_libm += 1;
            seen.insert(status.clone());
            let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
                .args(["solve", "--solver", "cp", "--timeout", "60"])
                .arg(&f)
                .output()
                .unwrap();
            assert_eq!(
                o.status.code(),
                Some(0),
                "{}: {}",
                f.display(),
                String::from_utf8_lossy(&o.stderr)
            );
            assert_eq!(answers(&o.stdout), [status.as_str()], "{}:\n{q}", f.display());
        }
        assert!(with_libm > 0, "{function}: no decided query names {needle}\n{text}");
        assert!(seen.contains(want), "{function}: {seen:?}\n{text}");
    }
    let _ = std::fs::remove_dir_all(&dump);
}

#[test]
fn exceptions_finds_overflow_behind_the_result() {
    // exp by glibc's threshold; pow, hypot and lgamma by their symbolic
    // result (an infinity from finite arguments, not at a pole); each
    // overflow trapped natively at its line by replay. sin never
    // overflows: decided, not left unchecked.
    let src = std::fs::read_to_string(fixture("libm_exceptions.c")).unwrap();
    let line_of = |needle: &str| src.lines().position(|l| l.contains(needle)).unwrap() as u64 + 1;
    for (function, call) in [
        ("grow", "exp(x)"),
        ("power", "pow(x, y)"),
        ("norm", "hypot(x, y)"),
        ("log_gamma", "lgamma(x)"),
    ] {
        let (code, text, out) = common::run_mode(
            "exceptions",
            &fixture("libm_exceptions.c"),
            function,
            &["--max-time", MAX_TIME, "--fuzz-time", "0", "--replay"],
            &format!("exc-{function}"),
        );
        assert_eq!(code, Some(1), "{function}: {text}");
        assert!(
            findings(&out).contains(&("fp-overflow".to_string(), line_of(call))),
            "{function}: {text}"
        );
        common::replay_confirms(&out);
        let _ = std::fs::remove_dir_all(&out);
    }
    let (_, text, out) = common::run_mode(
        "exceptions",
        &fixture("libm_exceptions.c"),
        "sine",
        &["--max-time", MAX_TIME, "--fuzz-time", "0"],
        "exc-sine",
    );
    assert!(!findings(&out).iter().any(|(k, _)| k == "fp-overflow"), "{text}");
    let events = std::fs::read_to_string(out.join("events.jsonl")).unwrap_or_default();
    assert!(
        !events.lines().any(|l| l.contains("\"fp-overflow\"")),
        "sin's overflow decided: {events}"
    );
    let _ = std::fs::remove_dir_all(&out);
}
