//! Proofs through loops (`--prove abstract`, issue 34) end to end: a loop
//! without a bound is proved by its invariant when the symbolic run cannot
//! exhaust its paths; a reachable error is found and never proved; `--prove
//! none` leaves such a loop unknown.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name)
}

fn run(name: &str, extra: &[&str]) -> (Option<i32>, String) {
    let out = std::env::temp_dir().join(format!("fpsym-prove-{}-{name}-{}", std::process::id(), extra.len()));
    let mut args = vec!["run".to_string(), fixture(name).display().to_string()];
    args.extend(["--property", "unreach-call", "--max-time", "4", "--force", "-o"].map(String::from));
    args.push(out.display().to_string());
    args.extend(extra.iter().map(|s| s.to_string()));
    let o: Output = Command::new(env!("CARGO_BIN_EXE_fpsym")).args(&args).output().unwrap();
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
