//! Symbolic command-line arguments and standard input (`--sym-arg`,
//! `--sym-args`, `--sym-stdin`), read through fpsym's C runtime (`atof`,
//! `scanf`, `getchar`, `fgets`, ...), replayed natively with the arguments
//! and stdin bytes each test records; and `--finite-inputs`. The runtime's
//! `scanf` is also compared with glibc's on every short string over a
//! small alphabet (ground truth, natively).

mod common;

use common::replay_confirms;
use fpsym_report::{Finding, Observation, PathEnd, SymArgs, Test, TestObject};
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name)
}

/// What a run left: its exit code, stdout and stderr, the findings and
/// tests (through their types, in file order) and the directory.
struct Run {
    code: Option<i32>,
    text: String,
    findings: Vec<Finding>,
    tests: Vec<Test>,
    out: PathBuf,
}

/// `fpsym run FIXTURE -o OUT ARGS` into a fresh directory (the default
/// portfolio solver: z3 alone takes a minute over strtod's paths).
fn run(name: &str, tag: &str, args: &[&str]) -> Run {
    let out = std::env::temp_dir().join(format!("fpsym-symio-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .arg("run")
        .arg(fixture(name))
        .arg("-o")
        .arg(&out)
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    Run {
        code: o.status.code(),
        text,
        findings: common::findings(&out),
        tests: common::tests(&out),
        out,
    }
}

impl Run {
    /// The findings as (kind, line).
    fn kinds(&self) -> Vec<(String, u64)> {
        let mut k: Vec<(String, u64)> = self
            .findings
            .iter()
            .map(|f| (f.kind.to_string(), u64::from(f.line)))
            .collect();
        k.sort();
        k
    }

    /// The test of finding `k`.
    fn finding_test(&self, k: usize) -> &Test {
        let id = self.findings[k].test;
        self.tests.iter().find(|t| t.id == id).unwrap()
    }

    /// The verdict's name ("" without stats.json).
    fn verdict(&self) -> String {
        common::record_if::<fpsym_report::Summary>(&self.out, fpsym_report::STATS)
            .map(|s| common::verdict(&s))
            .unwrap_or("")
            .to_string()
    }

    fn done(self) {
        let _ = std::fs::remove_dir_all(&self.out);
    }
}

/// A test object's bytes.
fn bytes(o: &TestObject) -> Vec<u8> {
    let h = &o.bytes;
    (0..h.len() / 2)
        .map(|i| u8::from_str_radix(&h[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

/// The objects' names of a test.
fn names(t: &Test) -> Vec<String> {
    t.objects.iter().map(|o| o.name.clone()).collect()
}

/// A test's exit status, when it exited with one (`status` in its
/// record).
fn status(t: &Test) -> Option<i64> {
    match t.end {
        PathEnd::Exit(n) => Some(n),
        _ => None,
    }
}

#[test]
fn an_argument_parsed_with_atof_fails_an_assertion_replayed_as_argv() {
    let r = run("symio_argv.c", "argv", &["--sym-arg", "3"]);
    assert_eq!(r.code, Some(1), "{}", r.text);
    assert_eq!(r.kinds(), vec![("assertion-failure".to_string(), 11)], "{}", r.text);
    let t = r.finding_test(0);
    assert_eq!(names(t), vec!["argv[1]"], "{t:?}");
    let arg = bytes(&t.objects[0]);
    assert_eq!(arg.len(), 4, "{t:?}");
    // A C string: NUL-terminated, nothing but NULs after the first one.
    let len = arg.iter().position(|c| *c == 0).unwrap();
    assert!(arg[len..].iter().all(|c| *c == 0), "{t:?}");
    // Every path has argc 2 and its own argument.
    assert!(r.tests.iter().all(|t| names(t) == ["argv[1]"]));
    let record = common::run_record(&r.out);
    assert_eq!(record.sym_args, [SymArgs { min: 1, max: 1, len: 3 }], "{record:?}");
    // Natively, with the string as the process's first argument.
    replay_confirms(&r.out);
    r.done();
}

#[test]
fn two_doubles_read_by_scanf_reach_a_division_by_zero_replayed_on_stdin() {
    let r = run("symio_scanf.c", "scanf", &["--sym-stdin", "3"]);
    assert_eq!(r.code, Some(1), "{}", r.text);
    assert_eq!(r.kinds(), vec![("division-by-zero".to_string(), 13)], "{}", r.text);
    let t = r.finding_test(0);
    assert_eq!(names(t), vec!["stdin"], "{t:?}");
    let input = bytes(&t.objects[0]);
    assert_eq!(input.len(), 3, "{t:?}");
    // Its text is two numbers whose second truncates to 0.
    let text = String::from_utf8_lossy(&input).into_owned();
    let nums: Vec<f64> = text
        .split(|c: char| c.is_ascii_whitespace() || c == '\0')
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect();
    assert!(nums.len() == 2 && nums[0] > 2.5 && nums[1].trunc() == 0.0, "{text:?}");
    assert_eq!(r.verdict(), "bug-found", "{}", r.text);
    // Every one of the run's paths (scanf's EOF, matching failures, the
    // exit statuses) behaves natively as the run said, glibc's scanf reading
    // the bytes from a pipe.
    replay_confirms(&r.out);
    // (The replay table lists only findings and disagreements: the exits
    // are in replay.json.)
    let rep = common::replay_report(&r.out);
    let exits: Vec<i64> = rep
        .tests
        .iter()
        .filter(|t| t.observed.kind == Observation::Exit)
        .filter_map(|t| t.observed.code.map(i64::from))
        .collect();
    assert!(exits.contains(&3), "an input scanf sees as EOF: {exits:?}");
    assert!(exits.contains(&2), "an input scanf does not match: {exits:?}");
    r.done();
}

#[test]
fn a_buffer_overflow_inside_scanf_is_found_at_the_call() {
    let r = run("symio_scanf_overflow.c", "overflow", &["--sym-stdin", "4"]);
    assert_eq!(r.code, Some(1), "{}", r.text);
    assert_eq!(r.kinds(), vec![("out-of-bounds".to_string(), 9)], "{}", r.text);
    assert!(r.findings[0].file.ends_with("symio_scanf_overflow.c"));
    // Four characters none of which is a C space; printable, as findings
    // prefer (a NUL, a character to %s, would hide the overflow from
    // AddressSanitizer's scanf interceptor, which measures with strlen).
    let input = bytes(&r.finding_test(0).objects[0]);
    assert!(input.iter().all(|c| c.is_ascii_graphic()), "{input:?}");
    replay_confirms(&r.out);
    r.done();
}

#[test]
fn without_sym_stdin_standard_input_is_empty() {
    let r = run("symio_scanf.c", "empty", &[]);
    assert_eq!(r.code, Some(0), "{}", r.text);
    assert_eq!(r.tests.len(), 1, "{}", r.text);
    assert_eq!(r.tests[0].end.class(), "exit", "{:?}", r.tests[0]);
    assert_eq!(status(&r.tests[0]), Some(3), "scanf returns EOF: {:?}", r.tests[0]);
    assert_eq!(r.verdict(), "verified", "{}", r.text);
    replay_confirms(&r.out);
    r.done();
}

#[test]
fn getchar_fgets_ungetc_feof_fread_fgetc_and_fscanf_read_symbolic_stdin() {
    let r = run("symio_getchar.c", "getchar", &["--sym-stdin", "4"]);
    assert_eq!(r.code, Some(1), "{}", r.text);
    assert_eq!(r.kinds(), vec![("assertion-failure".to_string(), 19)], "{}", r.text);
    let t = r.finding_test(0);
    assert_eq!(bytes(&t.objects[0]), b"#!\nx", "{t:?}");
    assert_eq!(r.verdict(), "bug-found", "{}", r.text);
    // The impossible returns (10, 11) are never taken.
    assert!(r
        .tests
        .iter()
        .all(|t| t.end.class() != "exit" || !matches!(status(t), Some(10 | 11))));
    replay_confirms(&r.out);
    r.done();
    let r = run("symio_fread.c", "fread", &["--sym-stdin", "3"]);
    assert_eq!(r.kinds(), vec![("assertion-failure".to_string(), 15)], "{}", r.text);
    assert_eq!(bytes(&r.finding_test(0).objects[0]), b"ok!");
    assert_eq!(r.verdict(), "bug-found", "{}", r.text);
    replay_confirms(&r.out);
    r.done();
}

#[test]
fn sym_args_explore_each_count_in_command_line_order() {
    // A group of 0 or 1 arguments of up to 2 characters, then one of 1.
    let r = run(
        "symio_sym_args.c",
        "args",
        &["--sym-args", "0", "1", "2", "--sym-arg", "1"],
    );
    assert_eq!(r.code, Some(1), "{}", r.text);
    assert_eq!(r.kinds(), vec![("assertion-failure".to_string(), 8)], "{}", r.text);
    let t = r.finding_test(0);
    assert_eq!(names(t), vec!["argv[1]", "argv[2]"], "{t:?}");
    assert_eq!(t.objects[0].ty, "char[3]", "{t:?}");
    assert_eq!(t.objects[1].ty, "char[2]", "{t:?}");
    assert_eq!(bytes(&t.objects[0])[0], b'-');
    assert_eq!(bytes(&t.objects[1]), b"v\0");
    // Both counts were explored: argc 2 has the single argument only.
    let mut statuses: Vec<i64> = r.tests.iter().filter_map(status).collect();
    statuses.sort();
    statuses.dedup();
    assert_eq!(statuses, vec![2, 3], "{}", r.text);
    for t in r.tests.iter().filter(|t| status(t) == Some(2)) {
        assert_eq!(names(t), vec!["argv[1]"], "{t:?}");
        assert_eq!(t.objects[0].ty, "char[2]", "{t:?}");
    }
    assert_eq!(r.verdict(), "bug-found", "{}", r.text);
    let record = common::run_record(&r.out);
    assert_eq!(
        record.sym_args,
        [SymArgs { min: 0, max: 1, len: 2 }, SymArgs { min: 1, max: 1, len: 1 }],
        "{record:?}"
    );
    // Natively with 1 or 2 process arguments (empty strings included).
    replay_confirms(&r.out);
    r.done();
}

#[test]
fn symbolic_argv_and_stdin_are_input_errors_with_function_or_bad_bounds() {
    for (args, needle) in [
        (
            &["--function", "only_nan", "--sym-arg", "2"][..],
            "--sym-arg applies to main",
        ),
        (
            &["--function", "only_nan", "--sym-stdin", "2"][..],
            "--sym-stdin applies to main",
        ),
        (
            &["--sym-args", "2", "1", "3"][..],
            "--sym-args 2 1 3: MIN is larger than MAX",
        ),
    ] {
        let r = run("symio_finite.c", "bad", args);
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.text);
        assert!(r.text.contains(needle), "{args:?}: {}", r.text);
        r.done();
    }
}

#[test]
fn finite_inputs_exclude_nan_and_infinities_from_float_parameters() {
    // (function, extra flags, the line of its bug)
    let cases: &[(&str, &[&str], u64, bool)] = &[
        ("only_nan", &[], 8, false),
        ("only_inf", &[], 14, false),
        ("array_nan", &["--array-len", "2"], 26, false),
        ("struct_inf", &[], 36, false),
        // A bug finite inputs reach is still found.
        ("finite_bug", &[], 20, true),
    ];
    for (f, extra, line, finite) in cases {
        let mut args = vec!["--function", f];
        args.extend_from_slice(extra);
        let r = run("symio_finite.c", &format!("{f}-any"), &args);
        assert_eq!(
            r.kinds(),
            vec![("assertion-failure".to_string(), *line)],
            "{f}: {}",
            r.text
        );
        r.done();
        args.push("--finite-inputs");
        let r = run("symio_finite.c", &format!("{f}-finite"), &args);
        if *finite {
            assert_eq!(
                r.kinds(),
                vec![("assertion-failure".to_string(), *line)],
                "{f}: {}",
                r.text
            );
            // Its input is finite.
            for o in &r.finding_test(0).objects {
                let v: f64 = o.value.as_deref().unwrap().parse().unwrap();
                assert!(v.is_finite(), "{o:?}");
            }
            replay_confirms(&r.out);
        } else {
            assert!(r.findings.is_empty(), "{f} --finite-inputs: {}", r.text);
            assert_eq!(r.verdict(), "verified", "{f} --finite-inputs: {}", r.text);
        }
        r.done();
    }
}

#[test]
fn finite_inputs_apply_to_klee_make_symbolic_and_nondet_floats() {
    let r = run("symio_finite_main.c", "main-any", &[]);
    assert_eq!(
        r.kinds(),
        vec![
            ("assertion-failure".to_string(), 13),
            ("assertion-failure".to_string(), 14),
            ("assertion-failure".to_string(), 15)
        ],
        "{}",
        r.text
    );
    r.done();
    let r = run("symio_finite_main.c", "main-finite", &["--finite-inputs"]);
    assert_eq!(r.kinds(), vec![("assertion-failure".to_string(), 15)], "{}", r.text);
    replay_confirms(&r.out);
    r.done();
}

/// Builds the runtime's stdio.c and stdlib.c natively, their sscanf
/// renamed, with the comparison program; runs it.
#[test]
fn the_runtimes_scanf_reads_as_glibcs_does() {
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("../frontend/runtime");
    let dir = std::env::temp_dir().join(format!("fpsym-symio-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let clang = |args: &[&std::ffi::OsStr]| {
        let o = Command::new("clang-14")
            .args(["-g", "-O0", "-w"])
            .args(args)
            .output()
            .expect("clang-14 (Debian package clang-14)");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    let (stdio_o, stdlib_o, exe) = (dir.join("stdio.o"), dir.join("stdlib.o"), dir.join("diff"));
    clang(&[
        "-c".as_ref(),
        "-D__isoc99_sscanf=fpsym_model_sscanf".as_ref(),
        "-Dsscanf=fpsym_model_gnu_sscanf".as_ref(),
        "-Dstdin=fpsym_model_stdin".as_ref(),
        runtime.join("stdio.c").as_os_str(),
        "-o".as_ref(),
        stdio_o.as_os_str(),
    ]);
    clang(&[
        "-c".as_ref(),
        runtime.join("stdlib.c").as_os_str(),
        "-o".as_ref(),
        stdlib_o.as_os_str(),
    ]);
    clang(&[
        fixture("symio_scanf_diff.c").as_os_str(),
        stdio_o.as_os_str(),
        stdlib_o.as_os_str(),
        "-lm".as_ref(),
        "-o".as_ref(),
        exe.as_os_str(),
    ]);
    let o = Command::new(&exe).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(text.contains("137561 strings compared"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
