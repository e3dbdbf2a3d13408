//! What fpsym prints for people, as insta snapshots
//! (crates/cli/tests/snapshots/output__*.snap): the run summary with each
//! finding's input, the replay table, the exceptions summary and the
//! messages of issue 35. Paths (the fixtures', the output directory's) and
//! times are filtered out; the fixtures force every value a snapshot
//! shows, so no solver's choice appears in one.
//!
//! After a deliberate change of the output: `INSTA_UPDATE=always cargo
//! test -p fpsym --test output`, then review the .snap diff.

mod common;

use fpsym_report::json_output::JsonOutput;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name)
}

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fpsym-output-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn fpsym(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fpsym")).args(args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn both(o: &Output) -> String {
    stdout(o) + &String::from_utf8_lossy(&o.stderr)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Snapshot settings: the fixtures' directory, `out` and the times
/// filtered.
fn settings(out: &Path) -> insta::Settings {
    let mut st = insta::Settings::clone_current();
    st.set_prepend_module_to_snapshot(true);
    st.add_filter(&regex_escape(s(&fixture(""))), "[FIXTURES]/");
    st.add_filter(&regex_escape(s(out)), "[OUT]");
    // The counters other work changes (coverage, instructions, queries)
    // and the times.
    st.add_filter(r"branch coverage \(LLVM IR, your code\): .*", "branch coverage [...]");
    st.add_filter(
        r"instructions: \d+  solver: \d+ queries, [\d.]+ s of [\d.]+ s \(\d+%\)",
        "instructions: [N]  solver: [QUERIES, TIME]",
    );
    st
}

/// `text` as a regular expression matching it literally.
fn regex_escape(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\\' | '.' | '+' | '*' | '?' | '(' | ')' | '|' | '[' | ']' | '{' | '}' | '^' | '$' => format!("\\{c}"),
            c => c.to_string(),
        })
        .collect()
}

#[test]
fn the_summary_shows_each_findings_input() {
    let out = scratch("inputs");
    let file = fixture("summary_inputs.c");
    let mut shown = String::new();
    for (function, extra) in [
        ("scalars", &[][..]),
        ("counts", &["--array-len", "10"][..]),
        ("point", &[][..]),
        ("text", &["--array-len", "4"][..]),
    ] {
        let dir = out.join(function);
        let mut args = vec!["run", s(&file), "--function", function, "-o", s(&dir)];
        args.extend(extra);
        let o = fpsym(&args);
        assert_eq!(o.status.code(), Some(1), "{function}: {}", both(&o));
        let cmd = format!("$ fpsym run summary_inputs.c --function {function} {}", extra.join(" "));
        shown += &format!("{}\n", cmd.trim_end());
        shown += &stdout(&o).replace(s(&dir), "[OUT]");
    }
    settings(&out).bind(|| insta::assert_snapshot!("summary_inputs", shown));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn json_findings_carry_their_input() {
    let out = scratch("json");
    let o = fpsym(&[
        "run",
        s(&fixture("summary_inputs.c")),
        "--function",
        "scalars",
        "-o",
        s(&out),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", both(&o));
    let v: JsonOutput = common::parse(&String::from_utf8_lossy(&o.stdout));
    let f = &v.run().findings.as_ref().unwrap_or_else(|| panic!("{v:?}"))[0];
    assert_eq!(f.input_text.as_deref(), Some("x = 1.5e0, y = -inf"), "{v:?}");
    let input = f.input.as_ref().unwrap_or_else(|| panic!("{v:?}"));
    assert_eq!(input[0].name, "x", "{v:?}");
    assert_eq!(input[1].value.as_deref(), Some("-inf"), "{v:?}");
    assert_eq!(input[1].bytes, "000000000000f0ff", "{v:?}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_replay_table_lists_findings_and_counts_the_rest() {
    // counts with 10 elements: 11 tests, one failing.
    let out = scratch("replay-table");
    let o = fpsym(&[
        "run",
        s(&fixture("summary_inputs.c")),
        "--function",
        "counts",
        "--array-len",
        "10",
        "-o",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", both(&o));
    let r = fpsym(&["replay", s(&out)]);
    assert_eq!(r.status.code(), Some(0), "{}", both(&r));
    settings(&out).bind(|| insta::assert_snapshot!("replay_table", stdout(&r)));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_replay_table_shows_the_event_that_confirms_the_finding() {
    let out = scratch("replay-confirming");
    let o = fpsym(&[
        "exceptions",
        s(&fixture("raised_order.c")),
        "--function",
        "order",
        "--kinds",
        "overflow,invalid",
        "-o",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", both(&o));
    let r = fpsym(&["replay", s(&out)]);
    assert_eq!(r.status.code(), Some(0), "{}", both(&r));
    settings(&out).bind(|| insta::assert_snapshot!("replay_confirming_event", stdout(&r)));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_reached_line_is_said_in_words() {
    // Line 18 of path_reach.c is reached (y large enough to absorb 1).
    let out = scratch("reached");
    let o = fpsym(&[
        "path",
        s(&fixture("path_reach.c")),
        "--function",
        "classify",
        "--reach",
        "18",
        "-o",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", both(&o));
    let r = fpsym(&["replay", s(&out)]);
    assert_eq!(r.status.code(), Some(0), "{}", both(&r));
    settings(&out).bind(|| insta::assert_snapshot!("replay_reached", stdout(&r)));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn exceptions_list_underflow_apart_from_the_kinds_users_act_on() {
    // square: x * x overflows and underflows, on one path.
    let out = scratch("exceptions");
    let o = fpsym(&[
        "exceptions",
        s(&fixture("exceptions.c")),
        "--function",
        "square",
        "-o",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", both(&o));
    let text = stdout(&o);
    let by_kind = &text[text.find("exceptions by kind").expect(&text)..];
    settings(&out).bind(|| insta::assert_snapshot!("exceptions_by_kind", by_kind));
    // The summary's findings: underflow after overflow.
    let (ov, un) = (
        text.find("fp-overflow at").unwrap(),
        text.find("fp-underflow at").unwrap(),
    );
    assert!(ov < un, "{text}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_time_limit_is_rounded() {
    let out = scratch("time-limit");
    let o = fpsym(&["run", s(&fixture("endless.c")), "--max-time", "1.23456", "-o", s(&out)]);
    assert_eq!(o.status.code(), Some(4), "{}", both(&o));
    let text = stdout(&o);
    let verdict = text.lines().find(|l| l.starts_with("verdict:")).expect(&text);
    let limit = &verdict[verdict.find("time limit").expect(verdict)..];
    let limit = &limit[..limit.find(" reached").expect(limit) + " reached".len()];
    insta::assert_snapshot!("time_limit", limit);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_preprocessed_input_is_named_as_what_the_fuzzing_phase_does_not_build() {
    // --max-time 10: the default fuzzing phase would run.
    let out = scratch("dot-i");
    let o = fpsym(&[
        "run",
        s(&fixture("svcomp_unreach_true.i")),
        "--max-time",
        "10",
        "-o",
        s(&out),
    ]);
    // The abort is found (1), or its query outlasts the time (4).
    assert!(matches!(o.status.code(), Some(1 | 4)), "{}", both(&o));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let note = err.lines().find(|l| l.contains("no fuzzing phase")).expect(&err);
    settings(&out).bind(|| insta::assert_snapshot!("dot_i_note", note));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn fp_rem_in_long_double_is_named_x87() {
    // z3 alone declines fp.rem in x86_fp80: the branch is dropped, and the
    // verdict says why.
    let out = scratch("fp-rem");
    let o = fpsym(&[
        "run",
        s(&fixture("declined_branches.c")),
        "--function",
        "remainder_branch",
        "--solver",
        "z3",
        "-o",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(4), "{}", both(&o));
    let text = stdout(&o);
    let verdict = text.lines().find(|l| l.starts_with("verdict:")).expect(&text);
    settings(&out).bind(|| insta::assert_snapshot!("fp_rem_verdict", verdict));
    let _ = std::fs::remove_dir_all(&out);
}
