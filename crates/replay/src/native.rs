//! The native side: the clang build of program and driver, running one
//! test under a time limit, and the symbolizer. Every external tool of
//! replay except the coverage tools is started here.

use crate::classify::{source_line, NativeRun};
use crate::driver::{harness, renames, DRIVER};
use crate::{Confirmation, ReplayError};
use fpsym_frontend::UserCode;
use fpsym_report::{EntryRecord, RunRecord};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Time limit per test run.
pub const TEST_TIMEOUT: Duration = Duration::from_secs(10);

/// What the replay build adds to [`fpsym_frontend::NATIVE_FLAGS`]: a fixed
/// address layout, AddressSanitizer with usable stack traces, no warnings
/// (the analysis build already showed them).
pub const REPLAY_FLAGS: &[&str] = &["-no-pie", "-fsanitize=address", "-fno-omit-frame-pointer", "-w"];

/// What a coverage build adds (clang's source-based coverage).
pub const COVERAGE_FLAGS: &[&str] = &["-fprofile-instr-generate", "-fcoverage-mapping"];

/// An I/O error on `path`.
pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ReplayError + '_ {
    move |source| ReplayError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Runs `cmd` to completion; a tool that cannot be started is named with
/// the Debian package that provides it.
pub(crate) fn tool_output(cmd: &mut Command, tool: &str, package: &str) -> Result<Output, ReplayError> {
    cmd.output().map_err(|source| ReplayError::MissingTool {
        tool: tool.to_string(),
        package: package.to_string(),
        source,
    })
}

/// Runs one step of the native build: a missing tool or sanitizer runtime
/// names the Debian package that provides it; other failures carry the
/// tool's diagnostics.
fn build_step(mut cmd: Command, tool: &str, package: &str) -> Result<(), ReplayError> {
    let out = tool_output(&mut cmd, tool, package)?;
    if out.status.success() {
        return Ok(());
    }
    let diagnostics = String::from_utf8_lossy(&out.stderr).into_owned();
    if diagnostics.contains("libclang_rt.") {
        return Err(ReplayError::MissingRuntime { diagnostics });
    }
    Err(ReplayError::BuildFailed {
        tool: tool.to_string(),
        diagnostics,
    })
}

/// Builds the native replay binary `DIR/replay/program` from the driver
/// (with `--function` harness and the taking-part confirmations' code) and
/// the run's inputs; returns its path.
pub(crate) fn build(
    dir: &Path,
    record: &RunRecord,
    coverage: bool,
    confirmations: &[&dyn Confirmation],
) -> Result<PathBuf, ReplayError> {
    let rdir = dir.join("replay");
    std::fs::create_dir_all(&rdir).map_err(io(&rdir))?;
    let driver = rdir.join("driver.c");
    let mut text = DRIVER.to_string();
    // Rules of one family share their code (a trap handler): once each.
    let mut pieces: Vec<String> = Vec::new();
    for c in confirmations {
        let code = c.driver_code();
        if !pieces.contains(&code) {
            text.push_str(&code);
            pieces.push(code);
        }
    }
    if let EntryRecord::Function {
        function, params, ret, ..
    } = &record.entry
    {
        let params = params.as_ref().ok_or_else(|| ReplayError::Undeclarable {
            dir: dir.to_path_buf(),
            function: function.clone(),
        })?;
        text.push_str(&harness(function, params, ret.as_deref().unwrap_or("void")));
    }
    std::fs::write(&driver, text).map_err(io(&driver))?;
    let exe = rdir.join("program");
    let renames = renames(record.entry.function().is_some());
    let mut extra: Vec<String> = Vec::new();
    for f in confirmations.iter().flat_map(|c| c.extra_cflags()) {
        if !extra.contains(&f) {
            extra.push(f);
        }
    }
    let clang = || {
        let mut cmd = Command::new("clang-14");
        cmd.args(fpsym_frontend::NATIVE_FLAGS)
            .args(REPLAY_FLAGS)
            .arg("-I")
            .arg(dir.join("build").join("include"));
        for (from, to) in &renames {
            cmd.arg(format!("-D{from}={to}"));
        }
        if coverage {
            cmd.args(COVERAGE_FLAGS);
        }
        cmd.args(&extra);
        for i in &record.include {
            cmd.arg("-I").arg(i);
        }
        for d in &record.defines {
            cmd.arg(format!("-D{d}"));
        }
        cmd.args(&record.cflags);
        cmd
    };
    // The driver first: with --allow-multiple-definition its definitions
    // (reach_error, inputs) win over a program's own.
    let mut inputs: Vec<PathBuf> = vec![driver];
    for (k, f) in record.files.iter().enumerate() {
        let f = PathBuf::from(f);
        if f.extension().is_some_and(|e| e == "i") {
            // Preprocessed C ignores -D: compile it alone and rename the
            // symbols in its object file instead.
            let obj = rdir.join(format!("{k}.o"));
            let mut cmd = clang();
            cmd.arg("-c").arg(&f).arg("-o").arg(&obj);
            build_step(cmd, "clang-14", "clang-14")?;
            let mut cmd = Command::new("llvm-objcopy-14");
            for (from, to) in &renames {
                cmd.arg(format!("--redefine-sym={from}={to}"));
            }
            cmd.arg(&obj);
            build_step(cmd, "llvm-objcopy-14", "llvm-14")?;
            inputs.push(obj);
        } else {
            inputs.push(f);
        }
    }
    let mut cmd = clang();
    cmd.args(&inputs);
    cmd.args(["-lm", "-Wl,--allow-multiple-definition", "-o"]).arg(&exe);
    build_step(cmd, "clang-14", "clang-14")?;
    Ok(exe)
}

/// Runs `exe` on one test's encoded inputs (written to `scratch`), with
/// the run's environment and nothing else, its coverage profile written to
/// `profile`. A run past [`TEST_TIMEOUT`] is killed: it has neither exit
/// status nor signal, and `timed_out` (what it wrote before is kept: the
/// exceptions it raised on the way still count).
pub(crate) fn run_test<'a>(
    exe: &Path,
    input: &[u8],
    scratch: &Path,
    profile: &Path,
    env: &[(String, String)],
    user: &'a UserCode,
) -> Result<NativeRun<'a>, ReplayError> {
    std::fs::write(scratch, input).map_err(io(scratch))?;
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
        .spawn()
        .map_err(io(exe))?;
    let mut stderr = child.stderr.take().expect("stderr is piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().map_err(io(exe))? {
            break Some(s);
        }
        if start.elapsed() > TEST_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let stderr = reader.join().unwrap_or_default();
    use std::os::unix::process::ExitStatusExt;
    Ok(NativeRun {
        stderr,
        code: status.and_then(|s| s.code()),
        signal: status.and_then(|s| s.signal()),
        timed_out: status.is_none(),
        user,
        profile: Some((exe.to_path_buf(), profile.to_path_buf())),
    })
}

/// The source file (basename) and line of a code address of `exe`.
pub(crate) fn symbolize(exe: &Path, addr: &str) -> Result<Option<(String, u32)>, ReplayError> {
    let out = tool_output(
        Command::new("llvm-symbolizer-14")
            .arg(format!("--obj={}", exe.display()))
            .arg(addr),
        "llvm-symbolizer-14",
        "llvm-14",
    )?;
    Ok(source_line(&String::from_utf8_lossy(&out.stdout)))
}
