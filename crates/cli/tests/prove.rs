//! Proofs through loops (`--prove`, issue 34) end to end: a loop without a
//! bound is proved by its invariant when the symbolic run cannot exhaust its
//! paths, or by k-induction when no interval invariant shows the property; a
//! reachable error is found and never proved; `--prove none` leaves such a
//! loop unknown.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name)
}

fn run(name: &str, extra: &[&str]) -> (Option<i32>, String) {
    run_for(name, "4", extra)
}

/// `fpsym run FIXTURE --property unreach-call --max-time T EXTRA...`.
fn run_for(name: &str, max_time: &str, extra: &[&str]) -> (Option<i32>, String) {
    let mut args = vec!["--property", "unreach-call", "--max-time", max_time];
    args.extend(extra);
    fpsym_run(&fixture(name), &args)
}

/// `fpsym run PROGRAM ARGS... -o OUT --force` (OUT removed after).
fn fpsym_run(program: &Path, args: &[&str]) -> (Option<i32>, String) {
    let name = program.file_name().unwrap().to_string_lossy();
    let out = std::env::temp_dir().join(format!("fpsym-prove-{}-{name}-{}", std::process::id(), args.join("")));
    let o: Output = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .arg("run")
        .arg(program)
        .args(args)
        .arg("-o")
        .arg(&out)
        .arg("--force")
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&out);
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr),
    )
}

#[test]
fn an_unbounded_loop_is_verified_by_its_invariant() {
    let (code, t) = run("prove_filter.c", &[]);
    assert_eq!(code, Some(0), "{t}");
    assert!(
        t.contains("proof: no reach_error call is reachable, by abstract interpretation ("),
        "{t}"
    );
    assert!(
        t.contains("verdict: verified (invariant at tests/c/prove_filter.c:15: y in [-2.0, 2.0])\n"),
        "{t}"
    );
    assert!(t.contains("sv-comp: true\n"), "{t}");
    // the claim was checked natively
    assert!(t.contains("all ") && t.contains(" tests behaved as recorded"), "{t}");
}

#[test]
fn a_reachable_error_is_found_and_not_proved() {
    let (code, t) = run("prove_diverge.c", &[]);
    assert_eq!(code, Some(1), "{t}");
    assert!(
        t.contains("proof: none (the abstract interpretation cannot exclude reach_error at "),
        "{t}"
    );
    assert!(t.contains("sv-comp: false(unreach-call)\n"), "{t}");
}

#[test]
fn without_the_proof_the_loop_stays_unknown() {
    let (code, t) = run("prove_filter.c", &["--prove", "none"]);
    assert_eq!(code, Some(4), "{t}");
    assert!(!t.contains("proof:"), "{t}");
    assert!(t.contains("sv-comp: unknown\n"), "{t}");
}

#[test]
fn a_relation_no_interval_shows_is_proved_by_k_induction() {
    // (the claim check's native replay is left out: its hundreds of tests
    // take longer than the proof, and kinduction.rs checks the proofs
    // against the machine)
    let quick = ["--fuzz-time", "0", "--no-replay"];
    let sums = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/examples/sums_equal.c");
    let with = |extra: &[&str]| {
        fpsym_run(
            &sums,
            &[&["--property", "unreach-call", "--max-time", "80"], &quick[..], extra].concat(),
        )
    };
    let (code, t) = with(&[]);
    assert_eq!(code, Some(0), "{t}");
    assert!(
        t.contains("proof: no reach_error call is reachable, by k-induction ("),
        "{t}"
    );
    assert!(
        t.contains("sums_equal.c:13 with k = 1, assuming invariant at ")
            && t.contains("verdict: verified (k-induction at "),
        "{t}"
    );
    assert!(t.contains("sv-comp: true\n"), "{t}");
    // k-induction alone proves it too: the equality is inductive by itself
    let (code, t) = with(&["--prove", "kinduction"]);
    assert_eq!(code, Some(0), "{t}");
    assert!(
        t.contains("sums_equal.c:13 with k = 1)\n") && t.contains("verdict: verified (k-induction at "),
        "{t}"
    );
}

#[test]
fn k_induction_does_not_prove_a_reachable_error() {
    let (code, t) = run_for("prove_diverge.c", "12", &["--prove", "kinduction"]);
    assert_eq!(code, Some(1), "{t}");
    assert!(t.contains("proof: none (k-induction: "), "{t}");
    assert!(t.contains("sv-comp: false(unreach-call)\n"), "{t}");
}

/// `fpsym run FIXTURE` without a property (every finding counts).
fn run_plain(name: &str, extra: &[&str]) -> (Option<i32>, String) {
    let mut args = vec!["--max-time", "8", "--fuzz-time", "0", "--prove", "abstract"];
    args.extend(extra);
    fpsym_run(&fixture(name), &args)
}

#[test]
fn a_plain_run_through_an_unbounded_loop_is_verified_by_its_invariant() {
    let (code, t) = run_plain("prove_plain.c", &[]);
    assert_eq!(code, Some(0), "{t}");
    assert!(
        t.contains("proof: no finding is possible (no failure call, integer division by zero or `unreachable` is reachable), by abstract interpretation ("),
        "{t}"
    );
    assert!(
        t.contains("verdict: verified (invariant at tests/c/prove_plain.c:9: "),
        "{t}"
    );
    // a divisor that may be 0: no proof, and the run finds the division
    let (code, t) = run_plain("prove_plain.c", &["-DDIVISOR_UNCHECKED", "--search", "bfs"]);
    assert_eq!(code, Some(1), "{t}");
    assert!(!t.contains("proof:"), "{t}");
    assert!(t.contains("division-by-zero"), "{t}");
    // without --prove abstract, a plain run tries no proof: the loop stays
    // unexplored
    let (code, t) = fpsym_run(&fixture("prove_plain.c"), &["--max-time", "4", "--fuzz-time", "0"]);
    assert_eq!(code, Some(4), "{t}");
    assert!(!t.contains("proof:"), "{t}");
}

/// `--json`'s record of a run over FIXTURE (its `proof` field, verdict, why).
fn json_run(name: &str, extra: &[&str]) -> serde_json::Value {
    let out = std::env::temp_dir().join(format!(
        "fpsym-prove-json-{}-{name}-{}",
        std::process::id(),
        extra.join("")
    ));
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .arg("run")
        .arg(fixture(name))
        .args([
            "--property",
            "unreach-call",
            "--max-time",
            "6",
            "--fuzz-time",
            "0",
            "--json",
            "-o",
        ])
        .arg(&out)
        .arg("--force")
        .args(extra)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&out);
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

#[test]
fn a_loop_over_local_memory_is_verified_and_the_json_says_how() {
    // a struct updated through a pointer, an array read through one
    let j = json_run("prove_memory.c", &[]);
    assert_eq!(j["verdict"], "proved", "{j}");
    let why = j["why"].as_str().unwrap();
    assert!(
        why.starts_with("invariant at tests/c/prove_memory.c:25: ")
            && why.contains("f.y in [-1.0, 1.0]")
            && why.contains("last[0] in [-1.0, 1.0]"),
        "{j}"
    );
    let proof = j["proof"].as_str().unwrap();
    assert!(
        proof.starts_with("no reach_error call is reachable, by abstract interpretation ("),
        "{j}"
    );
    assert_eq!(j["exit_code"], 0, "{j}");
    // the unstable one: found, and the record says why nothing was proved
    let j = json_run("prove_memory.c", &["-DUNSTABLE", "--search", "bfs"]);
    assert_eq!(j["exit_code"], 1, "{j}");
    let proof = j["proof"].as_str().unwrap();
    assert!(
        proof.starts_with("none (the abstract interpretation cannot exclude reach_error at tests/c/prove_memory.c:31:"),
        "{j}"
    );
}
