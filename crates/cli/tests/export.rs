//! Reusable tests: `fpsym export DIR --c` writes a reproducer per finding
//! that builds with clang-14 by the command in its first comment and
//! fails natively as the finding says (SIGABRT for an assertion or a
//! reach_error, the FP exception flag raised, SIGFPE with
//! `-DFPSYM_TRAP`); `fpsym export DIR --libfuzzer` writes the bytes the
//! replay driver reads (the replay build runs a corpus file as it runs
//! the test); `fpsym replay DIR --test N` replays one test and leaves
//! `replay.json` alone. Fixtures: `tests/c/export.c`, `tests/c/records.c`.

mod common;

use fpsym_report::{FindingKind, ReplayReport};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name)
}

/// `fpsym ARGS`: exit code, stdout, stderr.
fn fpsym(args: &[&str]) -> (Option<i32>, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym")).args(args).output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fpsym-export-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// `fpsym MODE FILE -o OUT ARGS` into a fresh directory; expects findings
/// (exit 1).
fn run_mode(mode: &str, file: &str, args: &[&str], tag: &str) -> PathBuf {
    let out = scratch(tag);
    let f = fixture(file);
    let mut all = vec![mode, f.to_str().unwrap(), "-o", out.to_str().unwrap()];
    all.extend(args);
    let (code, so, se) = fpsym(&all);
    assert_eq!(code, Some(1), "{so}{se}");
    out
}

/// The `main` run of export.c, shared by the tests of this file.
fn main_run() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        run_mode(
            "run",
            "export.c",
            &["--solver", "z3", "--max-time", "120", "--fuzz-time", "0"],
            "main",
        )
    })
}

/// Replays of the shared run one at a time (each rebuilds
/// `DIR/replay/program`).
static REPLAYS: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// What running a reproducer did.
struct Ran {
    code: Option<i32>,
    signal: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Builds the reproducer `src` by the command its first comment gives
/// (with `extra` flags after `clang-14`) in a fresh directory, and runs
/// `./a.out` there.
fn build_and_run(src: &Path, extra: &[&str], tag: &str) -> Ran {
    let text = std::fs::read_to_string(src).unwrap();
    let line = text
        .lines()
        .find(|l| l.trim_start_matches([' ', '*']).starts_with("clang-14 "))
        .unwrap_or_else(|| panic!("no build command in {}:\n{text}", src.display()));
    let line = line.trim_start_matches([' ', '*']);
    let build = line
        .strip_suffix(" && ./a.out")
        .unwrap_or_else(|| panic!("the command does not run ./a.out: {line}"));
    let build = build.replacen("clang-14 ", &format!("clang-14 {} ", extra.join(" ")), 1);
    let work = scratch(tag);
    std::fs::create_dir_all(&work).unwrap();
    let o = Command::new("sh")
        .arg("-c")
        .arg(&build)
        .current_dir(&work)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}: build failed: {build}\n{}",
        src.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    let o = Command::new(work.join("a.out")).current_dir(&work).output().unwrap();
    Ran {
        code: o.status.code(),
        signal: o.status.signal(),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// `fpsym export DIR --c -o OUT`: the reproducers written, by file name.
fn export_c(dir: &Path, tag: &str) -> Vec<PathBuf> {
    let out = scratch(tag);
    let (code, so, se) = fpsym(&["export", dir.to_str().unwrap(), "--c", "-o", out.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{so}{se}");
    assert!(so.contains("build and run each as its first comment says"), "{so}");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
}

/// The reproducer of the finding of `kind` (`NNN-KIND.c`).
fn of_kind<'a>(files: &'a [PathBuf], kind: &str) -> &'a Path {
    files
        .iter()
        .find(|f| f.file_name().unwrap().to_str().unwrap()[4..] == format!("{kind}.c"))
        .unwrap_or_else(|| panic!("no reproducer of {kind} in {files:?}"))
}

#[test]
fn main_program_reproducers_fail_natively_as_found() {
    let dir = main_run();
    let files = export_c(dir, "main-c");
    assert_eq!(files.len(), 2, "{files:?}");
    // reach_error: inputs through klee_make_symbolic (an array of doubles,
    // an int) and __VERIFIER_nondet_double, as literals.
    let reach = of_kind(&files, "reach-error");
    let text = std::fs::read_to_string(reach).unwrap();
    assert!(text.starts_with("/* fpsym reproducer: finding 00"), "{text}");
    assert!(text.contains("export.c:27:"), "{text}");
    assert!(text.contains("static const double fpsym_in0_d[2] = {"), "{text}");
    assert!(text.contains("static const int fpsym_in1_k = 7;"), "{text}");
    assert!(text.contains("-Wl,--allow-multiple-definition && ./a.out"), "{text}");
    let r = build_and_run(reach, &[], "reach");
    assert_eq!(r.signal, Some(6), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("fpsym reproducer: reach_error() called"),
        "{}",
        r.stderr
    );
    // The failed assertion: glibc's message, SIGABRT.
    let assertion = of_kind(&files, "assertion-failure");
    let r = build_and_run(assertion, &[], "assert");
    assert_eq!(r.signal, Some(6), "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("Assertion `k < 0' failed"), "{}", r.stderr);
}

#[test]
fn function_reproducers_print_the_result_and_the_exceptions() {
    let dir = run_mode(
        "exceptions",
        "export.c",
        &[
            "--function",
            "scale",
            "--kinds",
            "overflow,divide-by-zero",
            "--solver",
            "z3",
        ],
        "fp",
    );
    let files = export_c(&dir, "fp-c");
    let overflow = of_kind(&files, "fp-overflow");
    let text = std::fs::read_to_string(overflow).unwrap();
    assert!(
        text.contains("fp-overflow at ") && text.contains("export.c:16:"),
        "{text}"
    );
    assert!(text.contains("-DFPSYM_TRAP=FE_OVERFLOW"), "{text}");
    assert!(text.contains("-Dmain=__fpsym_program_main"), "{text}");
    assert!(text.contains("double scale(double, int, void *);"), "{text}");
    let r = build_and_run(overflow, &[], "overflow");
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("scale returned "), "{}", r.stdout);
    let raised = r
        .stdout
        .lines()
        .find(|l| l.starts_with("FP exceptions raised by the call:"))
        .unwrap_or_else(|| panic!("{}", r.stdout));
    assert!(raised.split_whitespace().any(|w| w == "overflow"), "{raised}");
    // Trapped: SIGFPE at the operation.
    let r = build_and_run(overflow, &["-DFPSYM_TRAP=FE_OVERFLOW"], "overflow-trap");
    assert_eq!(r.signal, Some(8), "{}{}", r.stdout, r.stderr);
    let div = of_kind(&files, "fp-divide-by-zero");
    let r = build_and_run(div, &[], "div");
    let raised = r
        .stdout
        .lines()
        .find(|l| l.starts_with("FP exceptions raised by the call:"))
        .unwrap_or_else(|| panic!("{}", r.stdout));
    assert!(raised.split_whitespace().any(|w| w == "divide-by-zero"), "{raised}");
    assert!(
        r.stdout.contains("scale returned inf (inf)") || r.stdout.contains("scale returned -inf (-inf)"),
        "{}",
        r.stdout
    );
}

#[test]
fn struct_parameters_are_passed_as_replay_passes_them() {
    // dist(struct pt p, struct mix m, const struct pt *q): p split in two
    // doubles, m in a long long and a float, q a pointer to a copy.
    let dir = run_mode("run", "records.c", &["--function", "dist", "--solver", "z3"], "records");
    let files = export_c(&dir, "records-c");
    assert_eq!(files.len(), 1, "{files:?}");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(text.contains("static const float fpsym_in3_m_w = 0x1p-2f;"), "{text}");
    assert!(
        text.contains("static const double fpsym_in4_q[2] = {0x0p+0, 0x1p-1};"),
        "{text}"
    );
    let r = build_and_run(&files[0], &[], "records-build");
    assert_eq!(r.signal, Some(6), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("fpsym reproducer: reach_error() called"),
        "{}",
        r.stderr
    );
}

#[test]
fn the_corpus_is_what_the_replay_driver_reads() {
    let dir = main_run();
    let corpus = scratch("corpus");
    let (code, so, se) = fpsym(&["export", dir.to_str().unwrap(), "--libfuzzer", corpus.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{so}{se}");
    assert!(dir.join("tests").is_dir());
    let tests = common::tests(dir);
    assert_eq!(std::fs::read_dir(&corpus).unwrap().count(), tests.len());
    for t in &tests {
        let file = corpus.join(format!("{:06}", t.id));
        let bytes = std::fs::read(&file).unwrap();
        // Per input: a 4-byte little-endian length, then the bytes.
        let mut want = Vec::new();
        for o in &t.objects {
            let hex = &o.bytes;
            let b: Vec<u8> = (0..hex.len() / 2)
                .map(|k| u8::from_str_radix(&hex[2 * k..2 * k + 2], 16).unwrap())
                .collect();
            want.extend((b.len() as u32).to_le_bytes());
            want.extend(b);
        }
        assert_eq!(bytes, want, "{}", file.display());
    }
    // The replay build, given a corpus file, does what the test did.
    let _one = REPLAYS.lock().unwrap_or_else(|e| e.into_inner());
    let (code, so, se) = fpsym(&["replay", dir.to_str().unwrap(), "--test", "1"]);
    assert!(code == Some(0), "{so}{se}");
    assert!(dir.join("findings").is_dir());
    let findings = common::findings(dir);
    let reach = findings.iter().find(|f| f.kind == FindingKind::ReachError).unwrap();
    let file = corpus.join(format!("{:06}", reach.test));
    let o = Command::new(dir.join("replay").join("program"))
        .env("FPSYM_TEST", &file)
        .env("ASAN_OPTIONS", "detect_leaks=0")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(86), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("FPSYM-REPLAY: reach_error"));
}

#[test]
fn replaying_one_test_leaves_replay_json_alone() {
    let dir = main_run();
    assert!(dir.join("findings").is_dir());
    let findings = common::findings(dir);
    let assertion = findings
        .iter()
        .find(|f| f.kind == FindingKind::AssertionFailure)
        .unwrap();
    let id = assertion.test;
    let _one = REPLAYS.lock().unwrap_or_else(|e| e.into_inner());
    let marker = dir.join("replay.json");
    std::fs::write(&marker, "{\"tests\": [], \"findings\": []}\n").unwrap();
    let (code, so, se) = fpsym(&["replay", dir.to_str().unwrap(), "--test", &id.to_string()]);
    assert_eq!(code, Some(0), "{so}{se}");
    assert!(so.contains(&format!("test {id:06}\n")), "{so}");
    // AddressSanitizer handles the abort (handle_abort=1): exit 1.
    assert!(
        so.contains("  natively:  exited with status 1 (AddressSanitizer caught a deadly signal)\n"),
        "{so}"
    );
    assert!(so.contains("  observed:  assertion-failure at export.c:29"), "{so}");
    assert!(so.contains("  recorded:  assertion-failure"), "{so}");
    assert!(so.contains("  matches the record: yes"), "{so}");
    assert!(
        so.contains("  finding assertion-failure at export.c:29: confirmed"),
        "{so}"
    );
    assert!(so.contains("    | ") && so.contains("Assertion `k < 0' failed"), "{so}");
    assert_eq!(
        std::fs::read_to_string(&marker).unwrap(),
        "{\"tests\": [], \"findings\": []}\n"
    );
    let one: ReplayReport = common::record(&dir.join("replay"), &format!("test-{id:06}.json"));
    assert_eq!(one.tests.len(), 1, "{one:?}");
    assert!(one.tests[0].confirmed, "{one:?}");
    assert!(one.findings.first().is_some_and(|f| f.confirmed), "{one:?}");
    let _ = std::fs::remove_file(&marker);
    // A test that is not there: the ids that are, and no build.
    let (code, so, se) = fpsym(&["replay", dir.to_str().unwrap(), "--test", "4242"]);
    assert_eq!(code, Some(2), "{so}{se}");
    assert!(se.contains("no test 4242 (the tests are 1"), "{se}");
}

#[test]
fn bad_export_requests_are_input_errors() {
    let missing = scratch("missing");
    let (code, _, se) = fpsym(&["export", missing.to_str().unwrap(), "--c"]);
    assert_eq!(code, Some(2), "{se}");
    assert!(se.contains("not a fpsym output directory"), "{se}");
    // Neither --c nor --libfuzzer.
    let (code, _, se) = fpsym(&["export", main_run().to_str().unwrap()]);
    assert_eq!(code, Some(2), "{se}");
    assert!(!se.contains("panicked"), "{se}");
}

#[test]
fn special_values_are_exact_literals() {
    // show.c reaches reach_error only with a NaN, an infinity, an x87
    // subnormal and a double subnormal and zero: the literals must be
    // exactly those.
    let dir = run_mode(
        "run",
        "show.c",
        &["--solver", "z3", "--max-time", "120", "--fuzz-time", "0"],
        "special",
    );
    let files = export_c(&dir, "special-c");
    assert_eq!(files.len(), 1, "{files:?}");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(text.contains("static const double fpsym_in0_x = "), "{text}");
    assert!(text.contains("__builtin_nan(\""), "{text}");
    assert!(
        text.contains("static const float fpsym_in1_f = __builtin_inff();"),
        "{text}"
    );
    assert!(text.contains("static const long double fpsym_in2_l = 0x0."), "{text}");
    assert!(text.contains("static const double fpsym_in3_arr[3] = {0x0."), "{text}");
    assert!(text.contains("static const int fpsym_in4_n = -3;"), "{text}");
    let r = build_and_run(&files[0], &[], "special-build");
    assert_eq!(r.signal, Some(6), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("fpsym reproducer: reach_error() called"),
        "{}",
        r.stderr
    );
}

#[test]
fn arguments_and_standard_input_reach_the_program() {
    // --sym-arg: the argument parsed by atof; --sym-stdin: read by
    // getchar, fgets and ungetc. The reproducer's main hands both to the
    // program's main.
    let dir = run_mode("run", "symio_argv.c", &["--sym-arg", "3"], "argv");
    let files = export_c(&dir, "argv-c");
    assert_eq!(files.len(), 1, "{files:?}");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(text.contains("static char fpsym_arg1[] = \""), "{text}");
    let r = build_and_run(&files[0], &[], "argv-build");
    assert_eq!(r.signal, Some(6), "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("argument in (100, 1000)"), "{}", r.stderr);

    let dir = run_mode("run", "symio_getchar.c", &["--sym-stdin", "4"], "stdin");
    let files = export_c(&dir, "stdin-c");
    assert_eq!(files.len(), 1, "{files:?}");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(
        text.contains("static const char fpsym_stdin[] = \"#!\\012x\";"),
        "{text}"
    );
    let r = build_and_run(&files[0], &[], "stdin-build");
    assert_eq!(r.signal, Some(6), "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("Assertion"), "{}", r.stderr);

    // Standard input is a pipe, as in the run (fstat tells).
    let dir = run_mode("run", "streams_stat_pipe.c", &["--sym-stdin", "2"], "fstat");
    let files = export_c(&dir, "fstat-c");
    assert_eq!(files.len(), 1, "{files:?}");
    let r = build_and_run(&files[0], &[], "fstat-build");
    assert_eq!(r.signal, Some(6), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("standard input is a pipe"),
        "{}{}",
        r.stdout,
        r.stderr
    );
}
