//! The native side: the clang build of program and driver, running one
//! test under a time limit, and the symbolizer. Every external tool of
//! replay except the coverage tools is started here.

use crate::classify::{source_line, NativeRun};
use crate::driver::{harness, renames, DRIVER};
use crate::{Confirmation, ReplayError};
use fpsym_frontend::UserCode;
use fpsym_report::{EntryRecord, RunRecord, TestObject};
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
pub(crate) fn build_step(mut cmd: Command, tool: &str, package: &str) -> Result<(), ReplayError> {
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

/// Adds the run's own compile flags to `cmd`: its include directories,
/// macro definitions and extra clang flags.
pub(crate) fn record_flags(cmd: &mut Command, record: &RunRecord) {
    for i in &record.include {
        cmd.arg("-I").arg(i);
    }
    for d in &record.defines {
        cmd.arg(format!("-D{d}"));
    }
    cmd.args(&record.cflags);
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
        record_flags(&mut cmd, record);
        cmd
    };
    // Each of the run's files is compiled to an object once per build
    // directory (shared by every function of a `batch` or
    // `--all-functions` run) and flags; the driver (its harness is the
    // function's) is compiled with every test run's build.
    // (A run directory moved away from its build keeps its objects in
    // `replay/objects`.)
    let cache = Some(dir.join("build").join("native"))
        .filter(|c| std::fs::create_dir_all(c).is_ok())
        .unwrap_or_else(|| rdir.join("objects"));
    std::fs::create_dir_all(&cache).map_err(io(&cache))?;
    // The driver first: with --allow-multiple-definition its definitions
    // (reach_error, inputs) win over a program's own.
    let mut inputs: Vec<PathBuf> = vec![driver];
    for f in &record.files {
        let f = PathBuf::from(f);
        let preprocessed = f.extension().is_some_and(|e| e == "i");
        let obj = cached_object(&cache, &f, &clang, |obj| {
            let mut cmd = clang();
            let dep = obj.with_extension("d");
            cmd.arg("-c").arg(&f).arg("-o").arg(obj).arg("-MD").arg("-MF").arg(&dep);
            build_step(cmd, "clang-14", "clang-14")?;
            if preprocessed {
                // Preprocessed C ignores -D: rename the symbols in its
                // object file instead.
                let mut cmd = Command::new("llvm-objcopy-14");
                for (from, to) in &renames {
                    cmd.arg(format!("--redefine-sym={from}={to}"));
                }
                cmd.arg(obj);
                build_step(cmd, "llvm-objcopy-14", "llvm-14")?;
            }
            Ok(())
        })?;
        inputs.push(obj);
    }
    let mut cmd = clang();
    let mut driver_flags: Vec<String> = Vec::new();
    for f in confirmations.iter().flat_map(|c| c.driver_cflags()) {
        if !driver_flags.contains(&f) {
            driver_flags.push(f);
        }
    }
    cmd.args(&driver_flags).args(&inputs);
    cmd.args(["-lm", "-Wl,--allow-multiple-definition", "-o"]).arg(&exe);
    build_step(cmd, "clang-14", "clang-14")?;
    Ok(exe)
}

/// The object of source `src` in `cache` built by `make(object)` with the
/// command line `clang()` gives, reused when it is there and newer than
/// every file it was made from (its `.d` dependency list, the source
/// alone for bitcode). The name holds a hash of the source's path and the
/// command line (canonical paths: a function's `build` links to the
/// library's). Made under a temporary name and renamed, so that parallel
/// runs of a batch never see half an object.
fn cached_object(
    cache: &Path,
    src: &Path,
    clang: &dyn Fn() -> Command,
    make: impl FnOnce(&Path) -> Result<(), ReplayError>,
) -> Result<PathBuf, ReplayError> {
    use std::hash::{Hash, Hasher};
    let canonical = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let mut h = std::collections::hash_map::DefaultHasher::new();
    canonical(src).hash(&mut h);
    for a in clang().get_args() {
        let a = Path::new(a);
        if a.exists() {
            canonical(a).hash(&mut h);
        } else {
            a.hash(&mut h);
        }
    }
    let stem = src
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let obj = cache.join(format!("{stem}-{:016x}.o", h.finish()));
    if fresh(&obj, src) {
        return Ok(obj);
    }
    let tmp = cache.join(format!("{stem}-{:016x}.{}.tmp.o", h.finish(), std::process::id()));
    make(&tmp)?;
    let (dep, tmp_dep) = (obj.with_extension("d"), tmp.with_extension("d"));
    if tmp_dep.exists() {
        std::fs::rename(&tmp_dep, &dep).map_err(io(&dep))?;
    } else {
        let _ = std::fs::remove_file(&dep);
    }
    std::fs::rename(&tmp, &obj).map_err(io(&obj))?;
    Ok(obj)
}

/// Whether object `obj` exists and is at least as new as `src` and every
/// file its dependency list (`obj` with extension `d`, make's syntax)
/// names.
fn fresh(obj: &Path, src: &Path) -> bool {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let Some(made) = modified(obj) else { return false };
    let mut deps = vec![src.to_path_buf()];
    if let Ok(text) = std::fs::read_to_string(obj.with_extension("d")) {
        let text = text.replace("\\\n", " ");
        let rest = text.split_once(": ").map_or("", |(_, r)| r);
        // Names are separated by blanks; `\ ` is a blank in a name.
        let mut name = String::new();
        let mut chars = rest.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' if chars.peek() == Some(&' ') => {
                    name.push(' ');
                    chars.next();
                }
                c if c.is_whitespace() => {
                    if !name.is_empty() {
                        deps.push(PathBuf::from(std::mem::take(&mut name)));
                    }
                }
                c => name.push(c),
            }
        }
        if !name.is_empty() {
            deps.push(PathBuf::from(name));
        }
    }
    deps.iter().all(|d| modified(d).is_some_and(|m| m <= made))
}

/// What a test gives the process itself rather than the driver: its
/// command-line arguments and its standard input (`--sym-arg`,
/// `--sym-args`, `--sym-stdin`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Streams {
    /// The arguments after the program's name, each up to its first NUL.
    pub args: Vec<Vec<u8>>,
    /// The bytes of standard input (empty: end of file at once).
    pub stdin: Vec<u8>,
}

/// Splits a test's objects into what the process gets ([`Streams`]: the
/// leading `argv[K]` objects when the run had symbolic arguments, then
/// `stdin` when it had symbolic standard input, as the engine creates
/// them first) and the rest, which the driver feeds. Err: the name of an
/// object whose bytes are not hex.
pub fn streams<'t>(record: &RunRecord, objects: &'t [TestObject]) -> Result<(Streams, &'t [TestObject]), String> {
    let mut s = Streams::default();
    let mut k = 0;
    let bytes = |o: &TestObject| o.byte_values().ok_or_else(|| o.name.clone());
    if !record.sym_args.is_empty() {
        while let Some(o) = objects.get(k).filter(|o| o.name == format!("argv[{}]", k + 1)) {
            let mut b = bytes(o)?;
            if let Some(nul) = b.iter().position(|c| *c == 0) {
                b.truncate(nul);
            }
            s.args.push(b);
            k += 1;
        }
    }
    if record.sym_stdin.is_some() {
        if let Some(o) = objects.get(k).filter(|o| o.name == "stdin") {
            s.stdin = bytes(o)?;
            k += 1;
        }
    }
    Ok((s, &objects[k..]))
}

/// Runs `exe` on one test's encoded inputs (written to `scratch`), with
/// the run's environment and nothing else, the test's arguments and its
/// standard input bytes on a pipe (`streams`), its coverage profile
/// written to `profile`. A run past [`TEST_TIMEOUT`] is killed: it has
/// neither exit status nor signal, and `timed_out` (what it wrote before
/// is kept: the exceptions it raised on the way still count).
pub(crate) fn run_test<'a>(
    exe: &Path,
    input: &[u8],
    streams: &Streams,
    scratch: &Path,
    profile: &Path,
    env: &[(String, String)],
    user: &'a UserCode,
) -> Result<NativeRun<'a>, ReplayError> {
    use std::os::unix::ffi::OsStrExt;
    std::fs::write(scratch, input).map_err(io(scratch))?;
    let args = streams.args.iter().map(|a| std::ffi::OsStr::from_bytes(a));
    // The program sees the environment of the run (`--env`), nothing else.
    let mut child = Command::new(exe)
        .args(args)
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .env("FPSYM_TEST", scratch)
        .env("LLVM_PROFILE_FILE", profile)
        .env(
            "ASAN_OPTIONS",
            "detect_stack_use_after_return=1:detect_leaks=0:handle_abort=1",
        )
        .stdin(if streams.stdin.is_empty() {
            Stdio::null()
        } else {
            Stdio::piped()
        })
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(io(exe))?;
    // Standard input from a thread (a program may read little of it, or
    // nothing: a closed pipe is not an error here).
    let writer = child.stdin.take().map(|mut pipe| {
        let bytes = streams.stdin.clone();
        std::thread::spawn(move || {
            let _ = std::io::Write::write_all(&mut pipe, &bytes);
        })
    });
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
    if let Some(w) = writer {
        let _ = w.join();
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(name: &str, bytes: &str) -> TestObject {
        TestObject {
            name: name.into(),
            ty: "u8[2]".into(),
            bytes: bytes.into(),
            value: None,
            hex: None,
            elements: vec![],
            site: None,
        }
    }

    fn record(sym_args: bool, sym_stdin: bool) -> RunRecord {
        RunRecord {
            files: vec![],
            include: vec![],
            defines: vec![],
            cflags: vec![],
            env: Default::default(),
            entry: EntryRecord::Main { main: true },
            property: None,
            sym_args: if sym_args {
                vec![fpsym_report::SymArgs { min: 0, max: 2, len: 2 }]
            } else {
                vec![]
            },
            sym_stdin: sym_stdin.then_some(2),
            mode: None,
        }
    }

    #[test]
    fn arguments_and_stdin_lead_the_objects_and_go_to_the_process() {
        let objects = [
            obj("argv[1]", "2d0000"),
            obj("argv[2]", "617a00"),
            obj("stdin", "0a00"),
            obj("stdin#1", "01"),
        ];
        let (s, rest) = streams(&record(true, true), &objects).unwrap();
        assert_eq!(s.args, vec![b"-".to_vec(), b"az".to_vec()]);
        assert_eq!(s.stdin, vec![b'\n', 0]);
        assert_eq!(rest.len(), 1);
        assert_eq!(rest[0].name, "stdin#1");
        // Without symbolic arguments or stdin, objects of those names are
        // the program's own (klee_make_symbolic), for the driver.
        let (s, rest) = streams(&record(false, false), &objects).unwrap();
        assert_eq!(s, Streams::default());
        assert_eq!(rest.len(), 4);
        // No arguments on this path (a count of 0), stdin only.
        let (s, rest) = streams(&record(true, true), &objects[2..]).unwrap();
        assert!(s.args.is_empty());
        assert_eq!(s.stdin, vec![b'\n', 0]);
        assert_eq!(rest.len(), 1);
        assert_eq!(
            streams(&record(true, false), &[obj("argv[1]", "zz")]).unwrap_err(),
            "argv[1]"
        );
    }

    #[test]
    fn an_object_is_stale_once_a_file_it_was_made_from_changes() {
        let dir = std::env::temp_dir().join(format!("fpsym-native-fresh-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (src, header, obj) = (dir.join("a.c"), dir.join("a b.h"), dir.join("a-0.o"));
        std::fs::write(&src, "#include \"a b.h\"\n").unwrap();
        std::fs::write(&header, "").unwrap();
        assert!(!fresh(&obj, &src), "no object yet");
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(&obj, "").unwrap();
        // make's syntax: a continued line, a space escaped in a name.
        let dep = format!(
            "a-0.o: {} \\\n  {}\n",
            src.display(),
            header.display().to_string().replace(' ', "\\ ")
        );
        std::fs::write(obj.with_extension("d"), dep).unwrap();
        assert!(fresh(&obj, &src));
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(&header, "int x;").unwrap();
        assert!(!fresh(&obj, &src), "the header is newer");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
