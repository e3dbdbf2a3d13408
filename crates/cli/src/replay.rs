//! `fpsym replay DIR`: rebuild the program of a `fpsym run` natively (with
//! AddressSanitizer), feed it each test's inputs through a generated driver,
//! and confirm every finding (same kind at the same file:line) and every
//! test's exit status.

use crate::Failure;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// Time limit per test run.
const TEST_TIMEOUT: Duration = Duration::from_secs(10);

/// The driver: inputs come from the file named by FPSYM_TEST, a sequence of
/// (u32 little-endian length, bytes) records in the order the program read
/// them during symbolic execution.
const DRIVER: &str = r#"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Coverage profiles are written at exit; runs that end in _exit or in a
   sanitizer report write them here instead. */
extern int __llvm_profile_write_file(void) __attribute__((weak));
extern void __sanitizer_set_death_callback(void (*)(void)) __attribute__((weak));
static void fpsym_dump(void) { if (__llvm_profile_write_file) __llvm_profile_write_file(); }
__attribute__((constructor)) static void fpsym_init(void) {
  if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(fpsym_dump);
}

static unsigned char *fpsym_buf;
static size_t fpsym_len, fpsym_pos;

static const unsigned char *fpsym_next(size_t *n) {
  if (!fpsym_buf) {
    const char *path = getenv("FPSYM_TEST");
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f) { fprintf(stderr, "FPSYM-REPLAY: cannot open FPSYM_TEST\n"); _exit(89); }
    fseek(f, 0, SEEK_END); long size = ftell(f); fseek(f, 0, SEEK_SET);
    fpsym_buf = malloc(size > 0 ? (size_t)size : 1);
    fpsym_len = fread(fpsym_buf, 1, (size_t)size, f);
    fclose(f);
  }
  if (fpsym_pos + 4 > fpsym_len) { fprintf(stderr, "FPSYM-REPLAY: out of inputs\n"); _exit(87); }
  uint32_t k; memcpy(&k, fpsym_buf + fpsym_pos, 4); fpsym_pos += 4;
  const unsigned char *d = fpsym_buf + fpsym_pos; fpsym_pos += k; *n = k;
  return d;
}

void klee_make_symbolic(void *p, size_t n, const char *name) {
  (void)name; size_t k; const unsigned char *d = fpsym_next(&k); memcpy(p, d, k < n ? k : n);
}
#define FPSYM_NONDET(T, N) T __VERIFIER_nondet_##N(void) { T v; memset(&v, 0, sizeof v); size_t k; \
  const unsigned char *d = fpsym_next(&k); memcpy(&v, d, k < sizeof v ? k : sizeof v); return v; }
FPSYM_NONDET(_Bool, bool) FPSYM_NONDET(char, char) FPSYM_NONDET(unsigned char, uchar)
FPSYM_NONDET(short, short) FPSYM_NONDET(unsigned short, ushort) FPSYM_NONDET(int, int)
FPSYM_NONDET(unsigned int, uint) FPSYM_NONDET(long, long) FPSYM_NONDET(unsigned long, ulong)
FPSYM_NONDET(long long, longlong) FPSYM_NONDET(unsigned long long, ulonglong)
FPSYM_NONDET(float, float) FPSYM_NONDET(double, double) FPSYM_NONDET(void *, pointer)
int klee_int(const char *name) { (void)name; int v = 0; size_t k; const unsigned char *d = fpsym_next(&k); memcpy(&v, d, k < 4 ? k : 4); return v; }
int klee_range(int lo, int hi, const char *name) { (void)lo; (void)hi; return klee_int(name); }
/* time and clock are inputs of the run (any value is possible). */
#include <time.h>
time_t time(time_t *t) { time_t v = 0; size_t k; const unsigned char *d = fpsym_next(&k);
  memcpy(&v, d, k < sizeof v ? k : sizeof v); if (t) *t = v; return v; }
clock_t clock(void) { clock_t v = 0; size_t k; const unsigned char *d = fpsym_next(&k);
  memcpy(&v, d, k < sizeof v ? k : sizeof v); return v; }
static void fpsym_assume(int c) { if (!c) { fprintf(stderr, "FPSYM-REPLAY: assumption violated\n"); fpsym_dump(); _exit(88); } }
void klee_assume(uintptr_t c) { fpsym_assume(c != 0); }
void __VERIFIER_assume(int c) { fpsym_assume(c); }
void klee_silent_exit(int s) { (void)s; fpsym_dump(); _exit(0); }
__attribute__((noinline)) void __fpsym_reach_error(void) {
  fprintf(stderr, "FPSYM-REPLAY: reach_error %p\n", (void *)((char *)__builtin_return_address(0) - 1));
  fflush(stderr); fpsym_dump(); _exit(86);
}
__attribute__((noinline)) void __fpsym_verifier_error(void) {
  fprintf(stderr, "FPSYM-REPLAY: reach_error %p\n", (void *)((char *)__builtin_return_address(0) - 1));
  fflush(stderr); fpsym_dump(); _exit(86);
}
"#;

/// What one native run did.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Observed {
    /// `exit`, `assertion-failure`, `reach-error`, `abort`,
    /// `division-by-zero`, `out-of-bounds`, `use-after-free`,
    /// `invalid-free`, `timeout`, `signal`, `replay-error`.
    pub kind: String,
    /// Source file of the failure (basename), if located.
    pub file: Option<String>,
    /// Line of the failure, if located.
    pub line: Option<u32>,
    /// Exit status (for `exit`) or signal number.
    pub code: Option<i32>,
    /// For `--function` runs with an integer result: `(int)` of the
    /// function's result as the driver printed it (compared exactly; the
    /// exit status only keeps its low 8 bits).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<i64>,
}

#[derive(Serialize)]
struct TestResult {
    test: u64,
    expected: String,
    observed: Observed,
    confirmed: bool,
}

#[derive(Serialize)]
struct FindingResult {
    kind: String,
    file: String,
    line: u32,
    test: u64,
    observed: Observed,
    confirmed: bool,
}

fn read_json(p: &Path) -> anyhow::Result<serde_json::Value> {
    Ok(serde_json::from_str(
        &std::fs::read_to_string(p).map_err(|e| Failure::Input(format!("{}: {e}", p.display())))?,
    )?)
}

fn basename(s: &str) -> String {
    Path::new(s)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Builds the native replay binary; returns its path.
fn build(dir: &Path, record: &serde_json::Value, coverage: bool) -> anyhow::Result<PathBuf> {
    let rdir = dir.join("replay");
    std::fs::create_dir_all(&rdir)?;
    let driver = rdir.join("driver.c");
    let mut text = DRIVER.to_string();
    let entry = &record["entry"];
    let function = entry["function"].as_str();
    if let Some(f) = function {
        text.push_str(&harness(f, entry).ok_or_else(|| {
            Failure::Input(format!(
                "{}: replay of --function {f}: its parameters have types the replay driver cannot declare",
                dir.display()
            ))
        })?);
    }
    std::fs::write(&driver, text)?;
    let exe = rdir.join("program");
    // The program's reach_error, __VERIFIER_error (and for --function runs
    // its main) are renamed so that the driver's definitions win.
    let mut renames = vec![
        ("reach_error", "__fpsym_reach_error"),
        ("__VERIFIER_error", "__fpsym_verifier_error"),
    ];
    if function.is_some() {
        // The driver's main calls the function; the program's own is renamed.
        renames.push(("main", "__fpsym_program_main"));
    }
    let clang = || {
        let mut cmd = Command::new("clang-14");
        cmd.args([
            "-g",
            "-O0",
            "-ffp-contract=off",
            "-no-pie",
            "-fsanitize=address",
            "-fno-omit-frame-pointer",
            "-w",
        ])
        .arg("-I")
        .arg(dir.join("build").join("include"));
        for (from, to) in &renames {
            cmd.arg(format!("-D{from}={to}"));
        }
        if coverage {
            cmd.args(["-fprofile-instr-generate", "-fcoverage-mapping"]);
        }
        for i in record["include"].as_array().into_iter().flatten() {
            cmd.arg("-I").arg(i.as_str().unwrap_or_default());
        }
        for d in record["defines"].as_array().into_iter().flatten() {
            cmd.arg(format!("-D{}", d.as_str().unwrap_or_default()));
        }
        for f in record["cflags"].as_array().into_iter().flatten() {
            cmd.arg(f.as_str().unwrap_or_default());
        }
        cmd
    };
    // The driver first: with --allow-multiple-definition its definitions
    // (reach_error, inputs) win over a program's own.
    let mut inputs: Vec<PathBuf> = vec![driver];
    for (k, f) in record["files"].as_array().into_iter().flatten().enumerate() {
        let f = PathBuf::from(f.as_str().unwrap_or_default());
        if f.extension().is_some_and(|e| e == "i") {
            // Preprocessed C ignores -D: compile it alone and rename the
            // symbols in its object file instead.
            let obj = rdir.join(format!("{k}.o"));
            let mut cmd = clang();
            cmd.arg("-c").arg(&f).arg("-o").arg(&obj);
            run_build_step(cmd, "clang-14", "clang-14")?;
            let mut cmd = Command::new("llvm-objcopy-14");
            for (from, to) in &renames {
                cmd.arg(format!("--redefine-sym={from}={to}"));
            }
            cmd.arg(&obj);
            run_build_step(cmd, "llvm-objcopy-14", "llvm-14")?;
            inputs.push(obj);
        } else {
            inputs.push(f);
        }
    }
    let mut cmd = clang();
    cmd.args(&inputs);
    cmd.args(["-lm", "-Wl,--allow-multiple-definition", "-o"]).arg(&exe);
    run_build_step(cmd, "clang-14", "clang-14")?;
    Ok(exe)
}

/// Runs one step of the native build; a missing tool or sanitizer runtime
/// is an input error naming the Debian package that provides it.
fn run_build_step(mut cmd: Command, tool: &str, package: &str) -> anyhow::Result<()> {
    let out = cmd.output().map_err(|e| {
        Failure::Input(format!(
            "cannot run {tool}: {e} (install the Debian package {package}: scripts/bootstrap)"
        ))
    })?;
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprint!("{stderr}");
    if stderr.contains("libclang_rt.") {
        return Err(Failure::Input(
            "the native replay build failed: clang's sanitizer/profile runtime is missing \
             (install the Debian package libclang-rt-14-dev: scripts/bootstrap)"
                .into(),
        )
        .into());
    }
    Err(Failure::Input(format!("the native replay build failed ({tool}'s diagnostics above)")).into())
}

/// The driver's `main` for a `--function` run: each parameter's input in
/// order (scalars by value, pointers to a copy of their object's bytes),
/// then the call. An integer result becomes the exit status, as the run
/// records it (`exit N`: the entry function's result); other results exit 0.
fn harness(f: &str, entry: &serde_json::Value) -> Option<String> {
    let params: Vec<&str> = entry["params"]
        .as_array()?
        .iter()
        .map(|p| p.as_str())
        .collect::<Option<_>>()?;
    let ret = entry["ret"].as_str().unwrap_or("void");
    // Struct types (for byval parameters) are named once, so that the
    // prototype and the local are the same type.
    let mut s = String::from("\n#undef main\n");
    let params: Vec<String> = params
        .iter()
        .enumerate()
        .map(|(k, t)| {
            if t.starts_with("struct {") {
                s.push_str(&format!("typedef {t} fpsym_arg{k};\n"));
                format!("fpsym_arg{k}")
            } else {
                t.to_string()
            }
        })
        .collect();
    let list = if params.is_empty() {
        "void".to_string()
    } else {
        params.join(", ")
    };
    s.push_str(&format!("{ret} {f}({list});\nint main(void) {{\n"));
    let mut args = Vec::new();
    for (k, t) in params.iter().enumerate() {
        if t == "void *" {
            s.push_str(&format!(
                "  size_t n{k}; const unsigned char *d{k} = fpsym_next(&n{k});\n  void *a{k} = malloc(n{k} ? n{k} : 1); memcpy(a{k}, d{k}, n{k});\n"
            ));
        } else {
            s.push_str(&format!(
                "  {t} a{k}; memset(&a{k}, 0, sizeof a{k});\n  {{ size_t n; const unsigned char *d = fpsym_next(&n); memcpy(&a{k}, d, n < sizeof a{k} ? n : sizeof a{k}); }}\n"
            ));
        }
        args.push(format!("a{k}"));
    }
    let call = format!("{f}({})", args.join(", "));
    if integer_result(ret) {
        // The whole `(int)` result, not only the exit status's low 8 bits.
        s.push_str(&format!(
            "  int fpsym_r = (int){call};\n  fprintf(stderr, \"FPSYM-RESULT: %d\\n\", fpsym_r);\n  return fpsym_r;\n}}\n"
        ));
    } else {
        s.push_str(&format!("  {call};\n  return 0;\n}}\n"));
    }
    Some(s)
}

/// Whether a native run ended as a test's `exit` record says: `exit N`
/// (status N modulo 256), or, under `--property unreach-call`, `abort`
/// (SIGABRT), `assertion-failure` (glibc's message, then SIGABRT),
/// `division-by-zero` (SIGFPE) or `trap` (SIGILL).
fn ends_as(detail: &str, o: &Observed) -> bool {
    if let Some(c) = detail.strip_prefix("exit ") {
        let Ok(want) = c.parse::<i64>() else { return false };
        return o.kind == "exit" && o.code == Some((want & 0xff) as i32) && o.result.is_none_or(|r| r == want);
    }
    match detail {
        "trap" => o.kind == "signal" && o.code == Some(4),
        "abort" | "assertion-failure" | "division-by-zero" => o.kind == detail,
        _ => false,
    }
}

/// Whether a `--function` result of C type `ret` is the exit status of the
/// driver (and of the run's `exit N`).
fn integer_result(ret: &str) -> bool {
    matches!(
        ret,
        "_Bool" | "signed char" | "unsigned char" | "short" | "unsigned short" | "int" | "long long"
    )
}

/// Input records of a test file.
fn inputs(test: &serde_json::Value) -> Vec<u8> {
    let mut out = Vec::new();
    for o in test["objects"].as_array().into_iter().flatten() {
        let hex = o["bytes"].as_str().unwrap_or("");
        let bytes: Vec<u8> = (0..hex.len() / 2)
            .filter_map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok())
            .collect();
        out.extend((bytes.len() as u32).to_le_bytes());
        out.extend(bytes);
    }
    out
}

/// The source file (basename) and line of a code address of `exe`.
fn symbolize(exe: &Path, addr: &str) -> Result<Option<(String, u32)>, Failure> {
    let out = Command::new("llvm-symbolizer-14")
        .arg(format!("--obj={}", exe.display()))
        .arg(addr)
        .output()
        .map_err(|e| {
            Failure::Input(format!(
                "cannot run llvm-symbolizer-14: {e} (install the Debian package llvm-14: scripts/bootstrap)"
            ))
        })?;
    Ok(source_line(&String::from_utf8_lossy(&out.stdout)))
}

/// `FILE:LINE:COL` on the second line of llvm-symbolizer's output.
fn source_line(text: &str) -> Option<(String, u32)> {
    let loc = text.lines().nth(1)?;
    let mut parts = loc.rsplitn(3, ':');
    let _col = parts.next()?;
    let line = parts.next()?.parse().ok()?;
    Some((basename(parts.next()?), line))
}

/// The first stack frame in a user file: `#N 0x… in FUNC FILE:LINE:COL`.
fn first_user_frame(stderr: &str, user: &[String]) -> Option<(String, u32)> {
    for l in stderr.lines() {
        let l = l.trim();
        if !l.starts_with('#') {
            continue;
        }
        let loc = l.rsplit(' ').next()?;
        let mut parts = loc.rsplitn(3, ':');
        let (a, b, c) = (parts.next(), parts.next(), parts.next());
        let (file, line) = match (a, b, c) {
            (Some(_col), Some(line), Some(file)) if line.parse::<u32>().is_ok() => (file, line),
            (Some(line), Some(file), None) if line.parse::<u32>().is_ok() => (file, line),
            _ => continue,
        };
        let f = basename(file);
        if user.contains(&f) {
            return Some((f, line.parse().ok()?));
        }
    }
    None
}

/// Runs one test natively and says what happened.
fn observe(
    exe: &Path,
    input: &[u8],
    scratch: &Path,
    user: &[String],
    profile: &Path,
    env: &[(String, String)],
) -> anyhow::Result<Observed> {
    std::fs::write(scratch, input)?;
    // The program sees the environment of the run (`--env`), nothing else.
    let mut child = Command::new(exe)
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .env("FPSYM_TEST", scratch)
        .env("LLVM_PROFILE_FILE", profile)
        .env(
            "ASAN_OPTIONS",
            "detect_stack_use_after_return=1:detect_leaks=0:handle_abort=1",
        )
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stderr = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait()? {
            break Some(s);
        }
        if start.elapsed() > TEST_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let err = reader.join().unwrap_or_default();
    let obs = |kind: &str, loc: Option<(String, u32)>, code: Option<i32>| Observed {
        kind: kind.into(),
        file: loc.as_ref().map(|l| l.0.clone()),
        line: loc.map(|l| l.1),
        code,
        result: None,
    };
    let Some(status) = status else {
        return Ok(obs("timeout", None, None));
    };
    use std::os::unix::process::ExitStatusExt;
    if let Some(addr) = err.lines().find_map(|l| l.strip_prefix("FPSYM-REPLAY: reach_error ")) {
        return Ok(obs("reach-error", symbolize(exe, addr.trim())?, None));
    }
    if err.contains("FPSYM-REPLAY: ") {
        let why = err
            .lines()
            .find(|l| l.contains("FPSYM-REPLAY: "))
            .unwrap_or("")
            .to_string();
        return Ok(Observed {
            kind: "replay-error".into(),
            file: Some(why),
            line: None,
            code: status.code(),
            result: None,
        });
    }
    if let Some(l) = err
        .lines()
        .find(|l| l.contains(": Assertion `") && l.ends_with("failed."))
    {
        // prog: FILE:LINE: FUNC: Assertion `…' failed.
        let mut it = l.splitn(4, ": ");
        let _prog = it.next();
        let loc = it.next().and_then(|fl| {
            let (f, line) = fl.rsplit_once(':')?;
            Some((basename(f), line.parse().ok()?))
        });
        return Ok(obs("assertion-failure", loc, None));
    }
    if let Some(l) = err.lines().find(|l| l.contains("ERROR: AddressSanitizer: ")) {
        let what = l.split("ERROR: AddressSanitizer: ").nth(1).unwrap_or("");
        let kind = if what.starts_with("ABRT") {
            return Ok(obs("abort", None, Some(6)));
        } else if what.starts_with("FPE") {
            "division-by-zero"
        } else if what.contains("use-after-free")
            || what.contains("use-after-return")
            || what.contains("use-after-scope")
        {
            "use-after-free"
        } else if what.contains("double-free")
            || what.contains("free on address")
            || what.contains("bad-free")
            || what.contains("bad-malloc")
        {
            "invalid-free"
        } else {
            "out-of-bounds"
        };
        return Ok(obs(kind, first_user_frame(&err, user), None));
    }
    if status.signal() == Some(6) {
        return Ok(obs("abort", None, Some(6)));
    }
    if status.signal() == Some(8) {
        return Ok(obs("division-by-zero", None, Some(8)));
    }
    if let Some(sig) = status.signal() {
        return Ok(obs("signal", None, Some(sig)));
    }
    Ok(Observed {
        result: err
            .lines()
            .find_map(|l| l.strip_prefix("FPSYM-RESULT: "))
            .and_then(|r| r.trim().parse().ok()),
        ..obs("exit", None, status.code())
    })
}

/// An LLVM 14 tool replay needs could not be started: an input error
/// naming the Debian package (llvm-14).
fn missing(tool: &str, e: std::io::Error) -> Failure {
    Failure::Input(format!(
        "cannot run {tool}: {e} (install the Debian package llvm-14: scripts/bootstrap)"
    ))
}

/// Line and branch coverage of the user's files from the tests' profiles
/// (llvm-profdata-14 merge, llvm-cov-14 export); with `html`, llvm-cov's
/// HTML report there.
fn coverage(dir: &Path, exe: &Path, files: &[String], html: Option<&Path>) -> anyhow::Result<serde_json::Value> {
    let prof = dir.join("replay").join("profiles");
    let raws: Vec<PathBuf> = std::fs::read_dir(&prof)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "profraw"))
        .collect();
    let merged = dir.join("replay").join("merged.profdata");
    let tool_failed = |tool: &str, out: &std::process::Output| {
        Failure::Internal(format!(
            "{tool} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    };
    let out = Command::new("llvm-profdata-14")
        .args(["merge", "-sparse", "-o"])
        .arg(&merged)
        .args(&raws)
        .output()
        .map_err(|e| missing("llvm-profdata-14", e))?;
    if !out.status.success() {
        return Err(tool_failed("llvm-profdata-14", &out).into());
    }
    let out = Command::new("llvm-cov-14")
        .args(["export", "-format=text", "-summary-only"])
        .arg(format!("-instr-profile={}", merged.display()))
        .arg(exe)
        .args(files)
        .output()
        .map_err(|e| missing("llvm-cov-14", e))?;
    if !out.status.success() {
        return Err(tool_failed("llvm-cov-14", &out).into());
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    let totals = v["data"][0]["totals"].clone();
    if let Some(h) = html {
        let out = Command::new("llvm-cov-14")
            .args(["show", "-format=html"])
            .arg(format!("-output-dir={}", h.display()))
            .arg(format!("-instr-profile={}", merged.display()))
            .arg(exe)
            .args(files)
            .output()
            .map_err(|e| missing("llvm-cov-14", e))?;
        if !out.status.success() {
            return Err(tool_failed("llvm-cov-14 show", &out).into());
        }
    }
    Ok(serde_json::json!({
        "lines": totals["lines"],
        "branches": totals["branches"],
    }))
}

/// Options of `fpsym replay`.
#[derive(Debug, Default, Clone)]
pub struct ReplayOptions {
    /// Measure line and branch coverage of the user's files.
    pub coverage: bool,
    /// Also write llvm-cov's HTML report here.
    pub coverage_html: Option<PathBuf>,
}

/// Replays every test of `dir`; exit 3 when a finding is not confirmed or
/// a test behaves otherwise than the run recorded.
pub fn replay(dir: &Path, opts: &ReplayOptions) -> anyhow::Result<ExitCode> {
    let coverage_on = opts.coverage || opts.coverage_html.is_some();
    let record = read_json(&dir.join("run.json"))
        .map_err(|e| Failure::Input(format!("{}: not a `fpsym run` output directory: {e}", dir.display())))?;
    let files: Vec<PathBuf> = record["files"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f.as_str())
        .map(PathBuf::from)
        .collect();
    // Every input's basename, and the sources .i files were preprocessed from.
    let mut user: Vec<String> = files.iter().map(|f| basename(&f.to_string_lossy())).collect();
    user.extend(crate::run::source_names(&files));
    // For --function runs, an integer result is the exit status; a pointer
    // result (an address of the run's memory) is not compared.
    let pointer_result = record["entry"]["function"].is_string() && record["entry"]["ret"] == "void *";
    let exe = build(dir, &record, coverage_on)?;
    let profiles = dir.join("replay").join("profiles");
    let _ = std::fs::remove_dir_all(&profiles);
    std::fs::create_dir_all(&profiles)?;
    let mut tests: BTreeMap<u64, serde_json::Value> = BTreeMap::new();
    for e in std::fs::read_dir(dir.join("tests"))? {
        let v = read_json(&e?.path())?;
        if let Some(id) = v["id"].as_u64() {
            tests.insert(id, v);
        }
    }
    let scratch = dir.join("replay").join("input.bin");
    // The run's environment (`--env NAME=VALUE`), recorded in run.json.
    let env: Vec<(String, String)> = record["env"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
        .collect();
    let mut observed: BTreeMap<u64, Observed> = BTreeMap::new();
    let mut table = Vec::new();
    for (id, t) in &tests {
        let o = observe(
            &exe,
            &inputs(t),
            &scratch,
            &user,
            &profiles.join(format!("{id:06}.profraw")),
            &env,
        )?;
        let end = t["end"].as_str().unwrap_or("");
        let detail = t["detail"].as_str().unwrap_or("");
        let (expected, confirmed) = match end {
            "exit" if pointer_result && detail.starts_with("exit ") => {
                ("exit (pointer result)".to_string(), o.kind == "exit")
            }
            "exit" => (detail.to_string(), ends_as(detail, &o)),
            "error" => (detail.to_string(), o.kind == detail),
            _ => (format!("partial ({detail})"), true),
        };
        table.push(TestResult {
            test: *id,
            expected,
            observed: o.clone(),
            confirmed,
        });
        observed.insert(*id, o);
    }
    let mut findings = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir.join("findings")) {
        let mut paths: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for p in paths {
            let f = read_json(&p)?;
            let kind = f["kind"].as_str().unwrap_or("").to_string();
            let file = f["file"].as_str().unwrap_or("").to_string();
            let line = f["line"].as_u64().unwrap_or(0) as u32;
            let test = f["test"].as_u64().unwrap_or(0);
            let o = observed.get(&test).cloned().unwrap_or(Observed {
                kind: "missing-test".into(),
                file: None,
                line: None,
                code: None,
                result: None,
            });
            let located = matches!(kind.as_str(), "abort" | "unreachable")
                || (o.line == Some(line) && o.file.as_deref() == Some(basename(&file).as_str()))
                || (kind == "division-by-zero" && o.line.is_none());
            let confirmed = o.kind == kind && located;
            findings.push(FindingResult {
                kind,
                file,
                line,
                test,
                observed: o,
                confirmed,
            });
        }
    }
    let out = std::io::stdout();
    let mut out = out.lock();
    writeln!(
        out,
        "{:>8}  {:<28} {:<40} {}",
        "test", "expected", "observed", "confirmed"
    )?;
    for r in &table {
        let o = &r.observed;
        let seen = match (&o.file, o.line, o.code) {
            (Some(f), Some(l), _) => format!("{} at {f}:{l}", o.kind),
            (_, _, Some(c)) => format!("{} {c}", o.kind),
            _ => o.kind.clone(),
        };
        writeln!(
            out,
            "{:>8}  {:<28} {:<40} {}",
            format!("{:06}", r.test),
            r.expected,
            seen,
            if r.confirmed { "yes" } else { "NO" }
        )?;
    }
    let unconfirmed = findings.iter().filter(|f| !f.confirmed).count();
    for f in &findings {
        writeln!(
            out,
            "finding {} at {}:{} (test {:06}): {}",
            f.kind,
            basename(&f.file),
            f.line,
            f.test,
            if f.confirmed { "confirmed" } else { "NOT CONFIRMED" }
        )?;
    }
    let mismatched = table.iter().filter(|r| !r.confirmed).count();
    writeln!(
        out,
        "replay: {} tests, {} findings, {} confirmed, {} unconfirmed, {} tests behaving otherwise",
        table.len(),
        findings.len(),
        findings.len() - unconfirmed,
        unconfirmed,
        mismatched
    )?;
    let mut json = serde_json::json!({ "tests": table, "findings": findings });
    if coverage_on {
        let files: Vec<String> = record["files"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|f| f.as_str())
            .filter(|f| f.ends_with(".c") || f.ends_with(".i"))
            .map(String::from)
            .collect();
        let cov = coverage(dir, &exe, &files, opts.coverage_html.as_deref())?;
        let pct = |k: &str| cov[k]["percent"].as_f64().unwrap_or(0.0);
        writeln!(
            out,
            "coverage (native, your files): lines {}/{} ({:.1}%), branches {}/{} ({:.1}%)",
            cov["lines"]["covered"],
            cov["lines"]["count"],
            pct("lines"),
            cov["branches"]["covered"],
            cov["branches"]["count"],
            pct("branches")
        )?;
        if let Some(h) = &opts.coverage_html {
            writeln!(out, "coverage report: {}/index.html", h.display())?;
        }
        json["coverage"] = cov;
    }
    std::fs::write(dir.join("replay.json"), serde_json::to_string_pretty(&json)? + "\n")?;
    if unconfirmed > 0 || mismatched > 0 {
        let mut what = Vec::new();
        if unconfirmed > 0 {
            what.push(format!("{unconfirmed} finding(s) not confirmed by native replay"));
        }
        if mismatched > 0 {
            what.push(format!(
                "{mismatched} test(s) behaving otherwise natively than the run recorded"
            ));
        }
        return Err(Failure::Internal(format!(
            "{} (see {}/replay.json): a bug in fpsym",
            what.join(", "),
            dir.display()
        ))
        .into());
    }
    Ok(ExitCode::SUCCESS)
}
