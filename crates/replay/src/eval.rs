//! A function evaluated natively many times: the program built with a
//! harness that reads its inputs as records on stdin and writes its
//! results on stdout, kept running between calls (`fpsym error`'s random
//! phase and its native reference).
//!
//! Two builds of the same source are made:
//! - [`Build::Plain`]: the analysis build's flags
//!   ([`fpsym_frontend::NATIVE_FLAGS`]), what the engine models, so that
//!   its results are the machine's;
//! - [`Build::Wide`]: FPGen's reference, the same source with every `float`
//!   and `double` of the user's code (not of system headers) made
//!   `__float128`, branching on its own values. Library calls (`sqrt`,
//!   `exp`, ...) still take and return `double`, as FPGen's reference does
//!   where intermediate results are passed as `double`.
//!
//! A record is the parameters' bytes in order (a scalar's bytes, or the
//! elements of the object a pointer parameter points to); the result is
//! the return value (when it is a number) then, for each pointer
//! parameter, its object's elements after the call. In the wide build
//! every floating-point value of a result is a `__float128` (16 bytes).

use crate::native::{build_step, io};
use crate::ReplayError;
use fpsym_report::RunRecord;
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A scalar the harness passes or reads back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    /// `float`.
    F32,
    /// `double`.
    F64,
    /// An integer of this many bytes.
    Int {
        /// Its size.
        bytes: u32,
        /// Whether it is signed.
        signed: bool,
    },
}

impl Scalar {
    fn c(self, wide: bool) -> String {
        match self {
            Scalar::F32 | Scalar::F64 if wide => "__float128".into(),
            Scalar::F32 => "float".into(),
            Scalar::F64 => "double".into(),
            Scalar::Int { bytes, signed } => format!("{}int{}_t", if signed { "" } else { "u" }, 8 * bytes),
        }
    }
    /// Bytes in a record (the program's type).
    pub fn size(self) -> usize {
        match self {
            Scalar::F32 => 4,
            Scalar::F64 => 8,
            Scalar::Int { bytes, .. } => bytes as usize,
        }
    }
    /// Bytes in a result of `build`.
    pub fn result_size(self, build: Build) -> usize {
        match (self, build) {
            (Scalar::F32 | Scalar::F64, Build::Wide) => 16,
            _ => self.size(),
        }
    }
}

/// A parameter of the function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Param {
    /// Passed by value.
    Scalar(Scalar),
    /// A pointer to an object of these elements.
    Array(Vec<Scalar>),
}

/// The function to evaluate.
#[derive(Clone, Debug)]
pub struct Signature {
    /// Its name.
    pub function: String,
    /// Its parameters in order.
    pub params: Vec<Param>,
    /// Its result when it is a number (None: `void`, or not read).
    pub ret: Option<Scalar>,
}

impl Param {
    /// Bytes of its part of an input record (a scalar, or the object's
    /// elements).
    pub fn size(&self) -> usize {
        match self {
            Param::Scalar(s) => s.size(),
            Param::Array(e) => e.iter().map(|s| s.size()).sum(),
        }
    }
}

impl Signature {
    /// Bytes of an input record.
    pub fn record_size(&self) -> usize {
        self.params.iter().map(Param::size).sum()
    }
    /// Bytes of a result of `build`.
    pub fn result_size(&self, build: Build) -> usize {
        self.ret.map_or(0, |r| r.result_size(build))
            + self
                .params
                .iter()
                .map(|p| match p {
                    Param::Scalar(_) => 0,
                    Param::Array(e) => e.iter().map(|s| s.result_size(build)).sum(),
                })
                .sum::<usize>()
    }
}

/// Which build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Build {
    /// The program as the engine models it.
    Plain,
    /// `float` and `double` made `__float128` (FPGen's reference).
    Wide,
}

/// The harness's `main` for `sig` in `build`.
fn harness(sig: &Signature, build: Build) -> String {
    let wide = build == Build::Wide;
    // The build renames the program's `main` and `reach_error` (see
    // `driver::renames`): this `main` is the harness's own; a call of
    // `reach_error` ends the process (the record gets no result).
    let mut s = String::from(
        "#undef main\n#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <unistd.h>\n#include <signal.h>\n#include <sys/time.h>\n\n\
         __attribute__((weak)) void __fpsym_reach_error(void) { abort(); }\n\
         __attribute__((weak)) void __fpsym_verifier_error(void) { abort(); }\n\n",
    );
    // The watchdog: one interval timer for the whole process (not a timer
    // armed per record, whose system calls took a fifth of a batch's
    // time). At each tick, a call still running since the last tick ends
    // the process by SIGALRM, as `alarm` did: that record gets no result.
    s.push_str(&format!(
        "static volatile sig_atomic_t __fpsym_in_call;\nstatic volatile unsigned __fpsym_record, __fpsym_seen = -1;\n\
         static void __fpsym_tick(int sig) {{\n\
         \x20 if (__fpsym_in_call && __fpsym_record == __fpsym_seen) {{ signal(sig, SIG_DFL); raise(sig); }}\n\
         \x20 __fpsym_seen = __fpsym_record;\n}}\n\
         static void __fpsym_watchdog(void) {{\n\
         \x20 struct sigaction sa; memset(&sa, 0, sizeof sa); sa.sa_handler = __fpsym_tick; sa.sa_flags = SA_RESTART;\n\
         \x20 sigaction(SIGALRM, &sa, 0);\n\
         \x20 struct itimerval t = {{ {{ {RECORD_SECONDS}, 0 }}, {{ {RECORD_SECONDS}, 0 }} }};\n\
         \x20 setitimer(ITIMER_REAL, &t, 0);\n}}\n\n"
    ));
    let decl: Vec<String> = sig
        .params
        .iter()
        .map(|p| match p {
            Param::Scalar(x) => x.c(wide),
            Param::Array(_) => "void *".into(),
        })
        .collect();
    let ret = sig.ret.map_or("void".to_string(), |r| r.c(wide));
    s.push_str(&format!(
        "{ret} {}({});\n\nint main(void) {{\n",
        sig.function,
        if decl.is_empty() {
            "void".into()
        } else {
            decl.join(", ")
        }
    ));
    s.push_str(&format!(
        "  static unsigned char in[{}];\n  int interactive = getenv(\"FPSYM_EVAL_FLUSH\") != 0;\n  __fpsym_watchdog();\n",
        sig.record_size().max(1)
    ));
    // Objects: one per pointer parameter, its elements in the build's types.
    for (k, p) in sig.params.iter().enumerate() {
        if let Param::Array(e) = p {
            let fields: Vec<String> = e
                .iter()
                .enumerate()
                .map(|(i, x)| format!("{} e{i};", x.c(wide)))
                .collect();
            s.push_str(&format!("  static struct {{ {} }} o{k};\n", fields.join(" ")));
        }
    }
    s.push_str("  while (fread(in, 1, sizeof in, stdin) == sizeof in) {\n    size_t at = 0;\n    (void)at;\n");
    let mut args = Vec::new();
    for (k, p) in sig.params.iter().enumerate() {
        match p {
            Param::Scalar(x) => {
                s.push_str(&format!(
                    "    {t} p{k}; memcpy(&p{k}, in + at, {n}); at += {n};\n",
                    t = x.c(false),
                    n = x.size()
                ));
                args.push(format!("({})p{k}", x.c(wide)));
            }
            Param::Array(e) => {
                for (i, x) in e.iter().enumerate() {
                    s.push_str(&format!(
                        "    {{ {t} v; memcpy(&v, in + at, {n}); at += {n}; o{k}.e{i} = v; }}\n",
                        t = x.c(false),
                        n = x.size()
                    ));
                }
                args.push(format!("&o{k}"));
            }
        }
    }
    // A call that does not return within one to two RECORD_SECONDS ends
    // the process (SIGALRM, from the watchdog): that record gets no result.
    s.push_str("    __fpsym_record++; __fpsym_in_call = 1;\n");
    let call = format!("{}({})", sig.function, args.join(", "));
    match sig.ret {
        Some(r) => s.push_str(&format!(
            "    {t} r = {call};\n    fwrite(&r, {n}, 1, stdout);\n",
            t = r.c(wide),
            n = r.result_size(build)
        )),
        None => s.push_str(&format!("    {call};\n")),
    }
    for (k, p) in sig.params.iter().enumerate() {
        if let Param::Array(e) = p {
            for (i, x) in e.iter().enumerate() {
                s.push_str(&format!(
                    "    fwrite(&o{k}.e{i}, {}, 1, stdout);\n",
                    x.result_size(build)
                ));
            }
        }
    }
    s.push_str(
        "    __fpsym_in_call = 0;\n    if (interactive) fflush(stdout);\n  }\n  fflush(stdout);\n  return 0;\n}\n",
    );
    s
}

/// `text` (preprocessed C with line markers) with `float` and `double`
/// made `__float128` outside system headers (not `long double`, not in
/// string or character literals).
pub fn widen(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut system = false;
    for line in text.split_inclusive('\n') {
        // `# 12 "file.h" 1 3 4`: flag 3 marks a system header.
        if let Some(rest) = line.strip_prefix("# ") {
            if rest.starts_with(|c: char| c.is_ascii_digit()) {
                system = rest.split_whitespace().skip(2).any(|f| f == "3");
                out.push_str(line);
                continue;
            }
        }
        if system || line.starts_with('#') {
            out.push_str(line);
            continue;
        }
        widen_line(line, &mut out);
    }
    out
}

/// [`widen`] of one line of user code.
fn widen_line(line: &str, out: &mut String) {
    let b = line.as_bytes();
    let mut i = 0;
    let mut prev_word = String::new();
    while i < b.len() {
        let c = b[i];
        if c == b'"' || c == b'\'' {
            let q = c;
            let start = i;
            i += 1;
            while i < b.len() && b[i] != q {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            out.push_str(&line[start..i]);
            prev_word.clear();
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let w = &line[start..i];
            if (w == "double" && prev_word != "long") || w == "float" {
                out.push_str("__float128");
            } else {
                out.push_str(w);
            }
            prev_word = w.to_string();
        } else if c.is_ascii_digit() {
            // A number (with its suffix: `1.0f` stays a float literal).
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.' || b[i] == b'_') {
                if (b[i] == b'e' || b[i] == b'E' || b[i] == b'p' || b[i] == b'P')
                    && i + 1 < b.len()
                    && (b[i + 1] == b'+' || b[i + 1] == b'-')
                {
                    i += 1;
                }
                i += 1;
            }
            out.push_str(&line[start..i]);
            prev_word.clear();
        } else {
            let ch = line[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            if !ch.is_whitespace() {
                prev_word.clear();
            }
            i += ch.len_utf8();
        }
    }
}

/// The program of `record` built with the harness for `sig` into `dir`
/// (its executable's path).
pub fn build(record: &RunRecord, sig: &Signature, build: Build, dir: &Path) -> Result<PathBuf, ReplayError> {
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let tag = match build {
        Build::Plain => "plain",
        Build::Wide => "wide",
    };
    let flags = |cmd: &mut Command| {
        cmd.args(fpsym_frontend::NATIVE_FLAGS).arg("-w");
        for (from, to) in crate::driver::renames(true) {
            cmd.arg(format!("-D{from}={to}"));
        }
        crate::native::record_flags(cmd, record);
    };
    let mut sources: Vec<PathBuf> = Vec::new();
    for (n, f) in record.files.iter().enumerate() {
        let f = PathBuf::from(f);
        if f.extension().is_some_and(|e| e != "c") {
            return Err(ReplayError::NotFuzzable {
                file: f.display().to_string(),
                what: "inputs other than C sources".into(),
            });
        }
        match build {
            Build::Plain => sources.push(f),
            Build::Wide => {
                let mut cmd = Command::new("clang-14");
                flags(&mut cmd);
                cmd.arg("-E").arg(&f);
                let o = crate::native::tool_output(&mut cmd, "clang-14", "clang-14")?;
                if !o.status.success() {
                    return Err(ReplayError::BuildFailed {
                        tool: "clang-14".into(),
                        diagnostics: String::from_utf8_lossy(&o.stderr).into_owned(),
                    });
                }
                let wide = dir.join(format!("wide-{n}.i"));
                std::fs::write(&wide, widen(&String::from_utf8_lossy(&o.stdout))).map_err(io(&wide))?;
                sources.push(wide);
            }
        }
    }
    let main = dir.join(format!("harness-{tag}.c"));
    std::fs::write(&main, harness(sig, build)).map_err(io(&main))?;
    let exe = dir.join(format!("eval-{tag}"));
    let mut cmd = Command::new("clang-14");
    flags(&mut cmd);
    cmd.arg(&main).args(&sources).args(["-lm", "-o"]).arg(&exe);
    build_step(cmd, "clang-14", "clang-14")?;
    Ok(exe)
}

/// The longest one call of [`Evaluator::eval`] may run one process (it is
/// killed then: the record it was on gets no result, the rest go on).
pub const BATCH_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Seconds one call of the function may take natively (the harness's
/// watchdog ends a call still running after one to two of them).
pub const RECORD_SECONDS: u32 = 1;

/// A build run on records: results out. In batch use a process runs
/// each call's records (its output is flushed when its input ends); in
/// interactive use one process stays and answers record by record.
pub struct Evaluator {
    exe: PathBuf,
    child: Option<(Child, Option<ChildStdin>, BufReader<ChildStdout>)>,
    record: usize,
    result: usize,
    interactive: bool,
    deadline: Option<std::time::Instant>,
}

impl Evaluator {
    /// `exe` (a [`build`] for `sig`), started on use. `interactive`: one
    /// process answers record by record (for one record at a time).
    pub fn new(exe: PathBuf, sig: &Signature, build: Build, interactive: bool) -> Evaluator {
        Evaluator {
            exe,
            child: None,
            record: sig.record_size(),
            result: sig.result_size(build),
            interactive,
            deadline: None,
        }
    }

    /// After `deadline`, a call of [`Evaluator::eval`] gives up on the
    /// records after one that did not finish (they get no result) instead
    /// of starting the program again.
    pub fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.deadline = deadline;
    }

    fn start(&mut self) -> Result<(), ReplayError> {
        if self.child.is_some() {
            return Ok(());
        }
        let mut cmd = Command::new(&self.exe);
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        if self.interactive {
            cmd.env("FPSYM_EVAL_FLUSH", "1");
        }
        let mut child = cmd.spawn().map_err(io(&self.exe))?;
        let stdin = child.stdin.take();
        let stdout = BufReader::with_capacity(1 << 16, child.stdout.take().expect("piped"));
        self.child = Some((child, stdin, stdout));
        Ok(())
    }

    fn stop(&mut self) {
        if let Some((mut c, stdin, _)) = self.child.take() {
            drop(stdin);
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// The results of `records` (each [`Signature::record_size`] bytes), in
    /// order; None for a record the program did not finish (it crashed or
    /// exited: a process is started again for the next).
    pub fn eval(&mut self, records: &[u8]) -> Result<Vec<Option<Vec<u8>>>, ReplayError> {
        let n = records.len() / self.record.max(1);
        let mut out: Vec<Option<Vec<u8>>> = Vec::with_capacity(n);
        while out.len() < n {
            self.start()?;
            let from = out.len();
            let interactive = self.interactive;
            let deadline = self.deadline;
            let (child, stdin, stdout) = self.child.as_mut().expect("started");
            let pid = child.id() as libc::pid_t;
            let (rec, res) = (self.record, self.result);
            let chunk = &records[from * rec..n * rec];
            let (finished, wait) = std::sync::mpsc::channel::<()>();
            let got = std::thread::scope(|sc| {
                // A run that takes longer than BATCH_TIMEOUT is killed: the
                // record it was on gets no result, the rest go on.
                let limit = match deadline {
                    Some(d) => BATCH_TIMEOUT.min(d.saturating_duration_since(std::time::Instant::now())),
                    None => BATCH_TIMEOUT,
                }
                .max(std::time::Duration::from_millis(100));
                sc.spawn(move || {
                    if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(limit) {
                        // SAFETY: kill(2) on the child's pid; at worst the
                        // child is gone already (ESRCH).
                        unsafe {
                            libc::kill(pid, libc::SIGKILL);
                        }
                    }
                });
                // A batch closes the input when written: the process then
                // flushes its results and ends.
                let mut input = if interactive { None } else { stdin.take() };
                let mut kept = if interactive { stdin.as_mut() } else { None };
                let writer = sc.spawn(move || {
                    if let Some(w) = input.as_mut() {
                        let _ = w.write_all(chunk);
                    } else if let Some(w) = kept.as_mut() {
                        let _ = w.write_all(chunk);
                        let _ = w.flush();
                    }
                    drop(input);
                });
                let mut got = Vec::new();
                for _ in from..n {
                    let mut buf = vec![0u8; res];
                    if stdout.read_exact(&mut buf).is_err() {
                        break;
                    }
                    got.push(Some(buf));
                }
                let _ = writer.join();
                let _ = finished.send(());
                got
            });
            let complete = from + got.len() == n;
            out.extend(got);
            if !complete {
                // The record after the last result ended the process.
                out.push(None);
                self.stop();
                if self.deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                    out.resize(n, None);
                }
            } else if !interactive {
                self.stop();
            }
        }
        Ok(out)
    }
}

impl Drop for Evaluator {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widening_keeps_long_double_literals_and_system_headers() {
        let text = "# 1 \"/usr/include/math.h\" 1 3 4\nextern double sqrt(double);\n# 3 \"a.c\" 2\n\
                    double f(float x, long double y) { return sqrt(x) + 1.0f + (double)\"double\"[0] + 1e-3; }\n";
        let w = widen(text);
        assert!(w.contains("extern double sqrt(double);"), "{w}");
        assert!(
            w.contains("__float128 f(__float128 x, long double y) { return sqrt(x) + 1.0f + (__float128)\"double\"[0] + 1e-3; }"),
            "{w}"
        );
    }
}
