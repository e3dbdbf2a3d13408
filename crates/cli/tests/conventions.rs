//! Conventions of real use (issue 18): SV-COMP's unreach-call property and
//! `.prp` files, preprocessed `.i` inputs, output directories that are
//! never mixed, replay of `--function` runs where every disagreeing test
//! counts, the tool check of `make test`, and tests that fail rather than
//! pass when their input is missing.
//!
//! The SV-COMP fixtures are `tests/c/svcomp_*`; each states its expected
//! verdict in its first comment lines.

mod common;

use common::replay_confirms;
use fpsym_report::{PathEnd, Property, Test};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name)
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fresh, absent directory in the temporary directory.
fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fpsym-conv-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn fpsym(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fpsym")).args(args).output().unwrap()
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The findings of an output directory as (kind, line).
fn findings(out: &Path) -> BTreeSet<(String, u64)> {
    common::findings(out)
        .into_iter()
        .map(|v| (v.kind.to_string(), u64::from(v.line)))
        .collect()
}

/// Every test of an output directory (`tests/` must be there), by id.
fn tests(out: &Path) -> Vec<Test> {
    assert!(out.join("tests").is_dir(), "no {}", out.join("tests").display());
    common::tests(out)
}

/// A test's end class (`exit`, `error`, `partial`) and its `detail`.
fn end(t: &Test) -> (&'static str, String) {
    (t.end.class(), t.end.to_string())
}

fn set(items: &[(&str, u64)]) -> BTreeSet<(String, u64)> {
    items.iter().map(|(k, l)| (k.to_string(), *l)).collect()
}

/// `fpsym replay DIR` exits 0 with every finding confirmed and no test
/// behaving otherwise.

// ---------------------------------------------------------------- SV-COMP

#[test]
fn unreach_call_reachable_error_is_false_and_abort_assert_and_division_end_paths() {
    let out = scratch("svcomp-false");
    let o = fpsym(&[
        "run",
        s(&fixture("svcomp_unreach_false.c")),
        "-o",
        s(&out),
        "--solver",
        "z3",
        "--property",
        "unreach-call",
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(t.contains("sv-comp: false(unreach-call)\n"), "{t}");
    // Only reach_error is a finding: not the abort of assume_abort_if_not,
    // not the failed assert, not the division by zero.
    assert_eq!(findings(&out), set(&[("reach-error", 11)]), "{t}");
    let stats = common::summary(&out);
    assert_eq!(stats.sv_comp.as_deref(), Some("false(unreach-call)"), "{stats:?}");
    assert_eq!(stats.property, Some(Property::UnreachCall), "{stats:?}");
    // Those paths ended normally; their tests say how.
    let ends: BTreeSet<(String, String)> = tests(&out)
        .iter()
        .map(|t| {
            let (class, detail) = end(t);
            (class.into(), detail)
        })
        .collect();
    for how in ["abort", "assertion-failure", "division-by-zero", "exit 0"] {
        assert!(ends.contains(&("exit".into(), how.into())), "{how}: {ends:?}");
    }
    // Natively: SIGABRT, glibc's assertion message, SIGFPE, and the
    // reach_error call at line 11.
    let r = replay_confirms(&out);
    assert!(r.contains("finding reach-error at svcomp_unreach_false.c:11"), "{r}");
    let rj = common::replay_report(&out);
    let observed: BTreeSet<&str> = rj.tests.iter().map(|t| t.observed.kind.name()).collect();
    for k in ["abort", "assertion-failure", "division-by-zero", "reach-error", "exit"] {
        assert!(observed.contains(k), "{k}: {observed:?}");
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn without_the_property_every_violation_is_a_finding() {
    let out = scratch("svcomp-all");
    let o = fpsym(&[
        "run",
        s(&fixture("svcomp_unreach_false.c")),
        "-o",
        s(&out),
        "--solver",
        "z3",
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(!t.contains("sv-comp:"), "{t}");
    assert_eq!(
        findings(&out),
        set(&[
            ("reach-error", 11),
            ("abort", 12),
            ("assertion-failure", 19),
            ("division-by-zero", 22)
        ]),
        "{t}"
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn unreach_call_unreachable_error_in_a_preprocessed_file_is_true() {
    let out = scratch("svcomp-true");
    // The default portfolio: its cp decides `x * x - 2.0 <= 98.0` over
    // [0, 10] in milliseconds, where z3 alone takes 30 to 60 s.
    let o = fpsym(&[
        "run",
        s(&fixture("svcomp_unreach_true.i")),
        "-o",
        s(&out),
        "--property",
        s(&fixture("svcomp_unreach_call.prp")),
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(t.contains("verdict: verified"), "{t}");
    assert!(t.contains("sv-comp: true\n"), "{t}");
    assert!(findings(&out).is_empty(), "{t}");
    // The .i file is the user's code (its line markers name the source):
    // branch coverage counts its branches.
    let stats = common::summary(&out);
    assert!(stats.stats.branches_total > 0, "{stats:?}");
    assert_eq!(stats.sv_comp.as_deref(), Some("true"), "{stats:?}");
    assert!(
        tests(&out).iter().any(|t| end(t) == ("exit", "abort".to_string())),
        "{t}"
    );
    // Natively (the .i compiled with its reach_error renamed): every test
    // ends as recorded, the aborting ones by SIGABRT.
    replay_confirms(&out);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn preprocessed_file_with_a_finding_is_replayed_with_coverage() {
    // The .i file without the property: its abort is a finding, confirmed
    // natively, and coverage counts the .i's source.
    let out = scratch("svcomp-i-cov");
    // The default portfolio, as above.
    let o = fpsym(&[
        "run",
        s(&fixture("svcomp_unreach_true.i")),
        "-o",
        s(&out),
        "--replay",
        "--coverage",
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert_eq!(findings(&out), set(&[("abort", 10)]), "{t}");
    assert!(t.contains("finding abort at svcomp_unreach_true.c:10 (test"), "{t}");
    let rj = common::replay_report(&out);
    assert!(rj.findings.first().is_some_and(|f| f.confirmed), "{rj:?}");
    assert!(rj.coverage.as_ref().unwrap().lines.count > 0, "{rj:?}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn under_unreach_call_undefined_behaviour_makes_the_verdict_unknown() {
    // An out-of-bounds write is no finding under the property, but the
    // property cannot be judged past it: the verdict is unknown, never true.
    let dir = scratch("svcomp-ub");
    let src = write_program(
        &dir,
        "ub.c",
        "extern int __VERIFIER_nondet_int(void);\nint main() {\n  int a[2] = {0, 0};\n  int i = __VERIFIER_nondet_int();\n  if (i >= 0 && i <= 2) a[i] = 1;\n  return 0;\n}\n",
    );
    let out = dir.join("out");
    let o = fpsym(&[
        "run",
        s(&src),
        "-o",
        s(&out),
        "--solver",
        "z3",
        "--property",
        "unreach-call",
    ]);
    let t = text(&o);
    // Nothing found, nothing proved: exit 4.
    assert_eq!(o.status.code(), Some(4), "{t}");
    assert!(findings(&out).is_empty(), "{t}");
    assert!(
        t.contains("verdict: incomplete (undefined behaviour (out-of-bounds at"),
        "{t}"
    );
    assert!(t.contains("sv-comp: unknown\n"), "{t}");
    assert!(
        tests(&out)
            .iter()
            .any(|t| t.end.class() == "partial" && t.end.to_string().starts_with("undefined behaviour")),
        "{t}"
    );
    replay_confirms(&out);
    // Without the property it is a finding.
    let o = fpsym(&["run", s(&src), "-o", s(&dir.join("out2")), "--solver", "z3"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(findings(&dir.join("out2")), set(&[("out-of-bounds", 5)]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn other_properties_are_input_errors_naming_them() {
    let out = scratch("svcomp-bad");
    let src = fixture("svcomp_unreach_false.c");
    let o = fpsym(&["run", s(&src), "-o", s(&out), "--property", "valid-memsafety"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--property valid-memsafety"), "{}", text(&o));
    let prp = fixture("svcomp_valid_memsafety.prp");
    let o = fpsym(&["run", s(&src), "-o", s(&out), "--property", s(&prp)]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("svcomp_valid_memsafety.prp"), "{t}");
    assert!(t.contains("LTL(G valid-free)"), "{t}");
    assert!(!out.exists(), "nothing is written for an input error");
    let o = fpsym(&["run", s(&src), "-o", s(&out), "--property", "/nonexistent/x.prp"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

// ------------------------------------------------------- output directories

fn write_program(dir: &Path, name: &str, body: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    p
}

const THREE_PATHS: &str = "#include <klee/klee.h>\nint main(void) { int x = klee_int(\"x\");\n  if (x > 10) return 1;\n  if (x < -10) return 2;\n  return 0; }\n";
const ONE_PATH: &str = "int main(void) { return 0; }\n";

#[test]
fn an_earlier_run_is_never_mixed_with_a_new_one() {
    let dir = scratch("outdir");
    let three = write_program(&dir, "three.c", THREE_PATHS);
    let one = write_program(&dir, "one.c", ONE_PATH);
    let out = dir.join("out");
    let o = fpsym(&["run", s(&three), "-o", s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(tests(&out).len(), 3);
    let stats_before = std::fs::read_to_string(out.join("stats.json")).unwrap();
    // Again into the same directory: refused, saying how to proceed, and
    // the earlier results are untouched.
    let o = fpsym(&["run", s(&one), "-o", s(&out)]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("holds the results of an earlier run"), "{t}");
    assert!(t.contains("another directory") && t.contains("--force"), "{t}");
    assert_eq!(tests(&out).len(), 3);
    assert_eq!(std::fs::read_to_string(out.join("stats.json")).unwrap(), stats_before);
    // --force empties it first: only the new run's results remain.
    let o = fpsym(&["run", s(&one), "-o", s(&out), "--force"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(tests(&out).len(), 1);
    assert!(common::run_record(&out).files[0].ends_with("one.c"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_non_empty_directory_is_refused_and_an_empty_one_is_used() {
    let dir = scratch("outdir2");
    let one = write_program(&dir, "one.c", ONE_PATH);
    let other = dir.join("other");
    write_program(&other, "notes.txt", "mine\n");
    let o = fpsym(&["run", s(&one), "-o", s(&other)]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("is not empty") && t.contains("another directory"), "{t}");
    assert!(other.join("notes.txt").exists());
    assert!(!other.join("tests").exists());
    // --force removes only an earlier run's results, never the user's files.
    let o = fpsym(&["run", s(&one), "-o", s(&other), "--force"]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("also holds notes.txt"), "{t}");
    assert!(other.join("notes.txt").exists());
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let o = fpsym(&["run", s(&one), "-o", s(&empty)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // --force never empties a directory holding an input.
    let o = fpsym(&["run", s(&one), "-o", s(&dir), "--force"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(one.exists());
    // A file is not a directory.
    let o = fpsym(&["run", s(&one), "-o", s(&one)]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

// ------------------------------------------------- replay of --function runs

const CLASSIFY: &str = "#include <stdlib.h>\nint classify(int x) {\n  if (x > 100) return 2;\n  if (x < -100) return -1;\n  if (x == 7) exit(3);\n  return 0;\n}\nint main(void) { return 42; }\n";

#[test]
fn function_results_are_replayed_and_a_disagreeing_test_counts() {
    let dir = scratch("function");
    let src = write_program(&dir, "classify.c", CLASSIFY);
    let out = dir.join("out");
    let o = fpsym(&[
        "run",
        s(&src),
        "--function",
        "classify",
        "-o",
        s(&out),
        "--solver",
        "z3",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let details: BTreeSet<String> = tests(&out).iter().map(|t| t.end.to_string()).collect();
    // The function's result (and an exit() inside it) as the run records it.
    assert_eq!(
        details,
        ["exit -1", "exit 0", "exit 2", "exit 3"]
            .iter()
            .map(|d| d.to_string())
            .collect()
    );
    // Natively every test ends the same way (the driver returns the
    // function's integer result).
    let r = replay_confirms(&out);
    assert!(!r.contains(" NO\n"), "{r}");
    // A test that behaves otherwise (it claims exit 5 where the program
    // returns 2) counts in the summary and fails the replay.
    let tampered = tests(&out).into_iter().find(|t| t.end.to_string() == "exit 2").unwrap();
    let path = out.join("tests").join(format!("{:06}.json", tampered.id));
    let mut t = tampered.clone();
    // `status` 5 and `detail` "exit 5".
    t.end = PathEnd::Exit(5);
    std::fs::write(&path, serde_json::to_string(&t).unwrap()).unwrap();
    let o = fpsym(&["replay", s(&out)]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(3), "{t}");
    assert!(t.contains("0 unconfirmed, 1 tests behaving otherwise"), "{t}");
    assert!(t.contains("1 test(s) behaving otherwise"), "{t}");
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------- fresh machines

#[test]
fn the_tool_check_names_the_debian_package_of_what_is_missing() {
    let script = workspace().join("scripts/check-tools");
    // Everything is there on a machine that can run these tests.
    let o = Command::new(&script).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // No tools on PATH.
    let o = Command::new("/bin/bash")
        .arg(&script)
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    for (what, package) in [
        ("clang-14", "clang-14"),
        ("llvm-link-14", "llvm-14"),
        ("opt-14", "llvm-14"),
        ("llvm-dis-14", "llvm-14"),
        ("llvm-profdata-14", "llvm-14"),
        ("llvm-cov-14", "llvm-14"),
        ("llvm-symbolizer-14", "llvm-14"),
        ("z3", "z3"),
        ("cvc5", "cvc5"),
        ("chromium", "chromium"),
        ("python3", "python3"),
    ] {
        assert!(
            t.contains(&format!("missing: {what} (Debian package {package})")),
            "{what}: {t}"
        );
    }
    // No libraries or runtimes.
    let o = Command::new(&script)
        .env("FPSYM_CHECK_ROOT", "/nonexistent")
        .output()
        .unwrap();
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(
        t.contains(
            "missing: testcov (PyPI package TestCov, installed by scripts/bootstrap into target/competition-venv)"
        ),
        "{t}"
    );
    assert!(
        t.contains("libclang_rt.asan-x86_64.a (Debian package libclang-rt-14-dev)"),
        "{t}"
    );
    assert!(t.contains("libmpfr.so (Debian package libmpfr-dev)"), "{t}");
    // `make test` runs the check (after bootstrap) before any test, and
    // bootstrap installs the sanitizer runtime.
    let makefile = std::fs::read_to_string(workspace().join("Makefile")).unwrap();
    assert!(
        makefile.lines().any(|l| l
            .strip_prefix("test:")
            .is_some_and(|deps| deps.split_whitespace().next() == Some("check-tools"))),
        "{makefile}"
    );
    assert!(
        makefile.contains("check-tools: bootstrap\n\t@scripts/check-tools"),
        "{makefile}"
    );
    let bootstrap = std::fs::read_to_string(workspace().join("scripts/bootstrap")).unwrap();
    assert!(
        bootstrap
            .lines()
            .any(|l| l.starts_with("packages=(") && l.contains(" libclang-rt-14-dev ")),
        "{bootstrap}"
    );
}

#[test]
fn a_missing_sanitizer_runtime_names_its_package() {
    // Simulate a machine without libclang-rt-14-dev: the replay build looks
    // for the runtime in an empty resource directory (headers kept).
    let dir = scratch("no-asan");
    let src = write_program(&dir, "one.c", ONE_PATH);
    let out = dir.join("out");
    let o = fpsym(&["run", s(&src), "-o", s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let headers = std::fs::read_dir("/usr/lib/llvm-14/lib/clang")
        .unwrap()
        .map(|e| e.unwrap().path().join("include"))
        .find(|p| p.is_dir())
        .expect("clang-14's headers");
    let mut record = common::run_record(&out);
    record.cflags = vec![
        format!("-resource-dir={}", dir.join("no-resources").display()),
        "-isystem".to_string(),
        headers.display().to_string(),
    ];
    std::fs::write(out.join("run.json"), serde_json::to_string(&record).unwrap()).unwrap();
    let o = fpsym(&["replay", s(&out)]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("install the Debian package libclang-rt-14-dev"), "{t}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Tests never pass for want of their input: no test skips when a corpus,
/// a tool or a directory is missing, and the corpus is found from the
/// workspace (env var, `../shared/bench`, /work/shared/bench), not from a
/// path relative to one crate or in /tmp.
#[test]
fn no_test_skips_when_its_input_is_missing() {
    let mut offenders = Vec::new();
    let (mut corpus_locators, mut corpus_users) = (0, 0);
    // Every crate's tests, and the support files they share (tests/support).
    let roots = std::fs::read_dir(workspace().join("crates"))
        .unwrap()
        .map(|k| k.unwrap().path().join("tests"))
        .chain([workspace().join("tests")]);
    for tests in roots {
        let Ok(rd) = std::fs::read_dir(&tests) else {
            continue;
        };
        let mut files: Vec<PathBuf> = rd.map(|e| e.unwrap().path()).collect();
        while let Some(f) = files.pop() {
            if f.is_dir() {
                files.extend(std::fs::read_dir(&f).unwrap().map(|e| e.unwrap().path()));
                continue;
            }
            if f.extension().is_none_or(|e| e != "rs") || f.ends_with("conventions.rs") {
                continue;
            }
            let src = std::fs::read_to_string(&f).unwrap();
            for (n, l) in src.lines().enumerate() {
                let bad = l.contains("skipping")
                    || l.contains("skipped with")
                    || l.contains("\"/tmp")
                    || l.contains("../../../shared")
                    || l.contains("FPSYM_QF_FP_DIR")
                    || (l.contains("read_dir(") && l.contains("else { return"));
                if bad {
                    offenders.push(format!("{}:{}: {}", f.display(), n + 1, l.trim()));
                }
            }
            if src.contains("corpus_dir()") && !src.contains("fn corpus_dir()") {
                corpus_users += 1;
            }
            if src.contains("fn corpus_dir()") {
                corpus_locators += 1;
                for needed in [
                    "FPSYM_CORPUS",
                    "\"../shared/bench/smtlib/qf_fp\"",
                    "\"/work/shared/bench/smtlib/qf_fp\"",
                    "panic!(",
                ] {
                    if !src.contains(needed) {
                        offenders.push(format!("{}: corpus_dir lacks {needed}", f.display()));
                    }
                }
            }
        }
    }
    assert!(offenders.is_empty(), "{}", offenders.join("\n"));
    assert!(
        corpus_locators >= 1 && corpus_users >= 2,
        "the corpus tests were not found ({corpus_locators} locators, {corpus_users} users)"
    );
}
