//! What a native run did, from its exit status and its stderr: the
//! driver's markers, glibc's assertion message, AddressSanitizer's report,
//! signals, the exit status and a `--function` run's result.

use fpsym_frontend::UserCode;
use fpsym_report::{FindingKind, Observation, Observed};
use std::path::Path;

/// The raw facts of one native run of a test, before classification.
#[derive(Clone, Debug)]
pub struct NativeRun<'a> {
    /// Everything the program (and the sanitizer, and the driver) wrote on
    /// stderr.
    pub stderr: String,
    /// The exit status, if it exited.
    pub code: Option<i32>,
    /// The signal that ended it, if one did.
    pub signal: Option<i32>,
    /// Killed after [`crate::TEST_TIMEOUT`].
    pub timed_out: bool,
    /// The user's files, to locate a failure in a stack trace
    /// ([`NativeRun::first_user_frame`]).
    pub user: &'a UserCode,
    /// The program run and the coverage profile the run wrote (when it
    /// was built for coverage), for confirmations that read what the run
    /// executed ([`crate::Confirmation::needs_profile`]).
    pub profile: Option<(std::path::PathBuf, std::path::PathBuf)>,
}

impl NativeRun<'_> {
    /// The first frame of a sanitizer stack trace in one of the user's
    /// files, as (basename, line).
    pub fn first_user_frame(&self) -> Option<(String, u32)> {
        first_user_frame(&self.stderr, self.user)
    }

    /// The first stderr line starting with `prefix`, without it.
    pub fn marker(&self, prefix: &str) -> Option<&str> {
        self.stderr.lines().find_map(|l| l.strip_prefix(prefix))
    }
}

/// The basename of a path as a debug location or a stack trace gives it.
pub(crate) fn basename(s: &str) -> String {
    Path::new(s)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// An observation of `kind` at `loc` (or nowhere) with a code.
pub(crate) fn observed(kind: Observation, loc: Option<(String, u32)>, code: Option<i32>) -> Observed {
    Observed {
        kind,
        file: loc.as_ref().map(|l| l.0.clone()),
        line: loc.map(|l| l.1),
        code,
        result: None,
        raised: Vec::new(),
    }
}

/// The built-in classification of a run, in two steps: what the driver
/// itself reports first ([`driver_markers`]), then the rest
/// ([`classify_rest`]); registered classifiers run in between.
pub(crate) enum Classified {
    /// Classified.
    Done(Observed),
    /// `reach_error` was called from this code address: the location comes
    /// from the symbolizer.
    ReachError(String),
}

/// The driver's own reports: a `reach_error` call (its caller's address),
/// or a replay error (out of inputs, an assumption violated, no input
/// file), whose message goes in `file`.
pub(crate) fn driver_markers(run: &NativeRun) -> Option<Classified> {
    if let Some(addr) = run.marker("FPSYM-REPLAY: reach_error ") {
        return Some(Classified::ReachError(addr.trim().to_string()));
    }
    let why = run.stderr.lines().find(|l| l.contains("FPSYM-REPLAY: "))?;
    Some(Classified::Done(Observed {
        kind: Observation::ReplayError,
        file: Some(why.to_string()),
        line: None,
        code: run.code,
        result: None,
        raised: Vec::new(),
    }))
}

/// Everything after the driver's markers: glibc's assertion message, an
/// AddressSanitizer report (its kind from the report's first line, located
/// at the first user frame), SIGABRT, SIGFPE, other signals, and finally
/// the exit status with a `--function` run's printed result.
pub(crate) fn classify_rest(run: &NativeRun) -> Observed {
    if let Some(l) = run
        .stderr
        .lines()
        .find(|l| l.contains(": Assertion `") && l.ends_with("failed."))
    {
        return observed(
            Observation::Finding(FindingKind::AssertionFailure),
            assertion_location(l),
            None,
        );
    }
    if let Some(l) = run.stderr.lines().find(|l| l.contains("ERROR: AddressSanitizer: ")) {
        let what = l.split("ERROR: AddressSanitizer: ").nth(1).unwrap_or("");
        return match asan_kind(what) {
            FindingKind::Abort => observed(Observation::Finding(FindingKind::Abort), None, Some(6)),
            kind => observed(Observation::Finding(kind), run.first_user_frame(), None),
        };
    }
    match run.signal {
        Some(6) => return observed(Observation::Finding(FindingKind::Abort), None, Some(6)),
        Some(8) => return observed(Observation::Finding(FindingKind::DivisionByZero), None, Some(8)),
        Some(sig) => return observed(Observation::Signal, None, Some(sig)),
        None => {}
    }
    Observed {
        result: run.marker("FPSYM-RESULT: ").and_then(|r| r.trim().parse().ok()),
        ..observed(Observation::Exit, None, run.code)
    }
}

/// `prog: FILE:LINE: FUNC: Assertion `…' failed.` → (basename, line).
fn assertion_location(l: &str) -> Option<(String, u32)> {
    let mut it = l.splitn(4, ": ");
    let _prog = it.next();
    let (f, line) = it.next()?.rsplit_once(':')?;
    Some((basename(f), line.parse().ok()?))
}

/// The finding kind of an AddressSanitizer report, from what follows
/// `ERROR: AddressSanitizer: ` (`ABRT` is an abort).
fn asan_kind(what: &str) -> FindingKind {
    if what.starts_with("ABRT") {
        FindingKind::Abort
    } else if what.starts_with("FPE") {
        FindingKind::DivisionByZero
    } else if what.contains("use-after-free") || what.contains("use-after-return") || what.contains("use-after-scope") {
        FindingKind::UseAfterFree
    } else if what.contains("double-free")
        || what.contains("free on address")
        || what.contains("bad-free")
        || what.contains("bad-malloc")
    {
        FindingKind::InvalidFree
    } else {
        FindingKind::OutOfBounds
    }
}

/// `FILE:LINE:COL` on the second line of llvm-symbolizer's output, as
/// (basename, line).
pub(crate) fn source_line(text: &str) -> Option<(String, u32)> {
    let loc = text.lines().nth(1)?;
    let mut parts = loc.rsplitn(3, ':');
    let _col = parts.next()?;
    let line = parts.next()?.parse().ok()?;
    Some((basename(parts.next()?), line))
}

/// The first stack frame in a user file: `#N 0x… in FUNC FILE:LINE:COL`
/// (or `FILE:LINE`), as (basename, line).
pub(crate) fn first_user_frame(stderr: &str, user: &UserCode) -> Option<(String, u32)> {
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
        if user.is_user_file(file) {
            return Some((basename(file), line.parse().ok()?));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn user() -> UserCode {
        UserCode::from_inputs(&[PathBuf::from("/src/prog.c")])
    }

    fn run<'a>(stderr: &str, code: Option<i32>, signal: Option<i32>, user: &'a UserCode) -> NativeRun<'a> {
        NativeRun {
            stderr: stderr.into(),
            code,
            signal,
            timed_out: false,
            user,
            profile: None,
        }
    }

    fn builtin(r: &NativeRun) -> Observed {
        match driver_markers(r) {
            Some(Classified::Done(o)) => o,
            Some(Classified::ReachError(a)) => panic!("reach_error at {a}"),
            None => classify_rest(r),
        }
    }

    const ASAN: &str = "=================================================================
==123==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000014 at pc 0x4c5f1b bp 0x7ffc sp 0x7ffc
READ of size 4 at 0x602000000014 thread T0
    #0 0x4c5f1a in get /usr/include/x86_64-linux-gnu/bits/stdio2.h:10:3
    #1 0x4c5f1a in read_at /src/prog.c:7:10
    #2 0x4c60a3 in main /src/prog.c:14:3
    #3 0x7f0 in __libc_start_main (/lib/x86_64-linux-gnu/libc.so.6+0x2724a)
";

    #[test]
    fn an_asan_report_is_located_at_the_first_user_frame() {
        let u = user();
        let o = builtin(&run(ASAN, Some(1), None, &u));
        assert_eq!(o.kind, Observation::Finding(FindingKind::OutOfBounds));
        assert_eq!((o.file.as_deref(), o.line), (Some("prog.c"), Some(7)));
        let uaf = ASAN.replace("heap-buffer-overflow", "heap-use-after-free");
        assert_eq!(
            builtin(&run(&uaf, Some(1), None, &u)).kind,
            Observation::Finding(FindingKind::UseAfterFree)
        );
        let df = "==1==ERROR: AddressSanitizer: attempting double-free on 0x1\n    #0 0x1 in main prog.c:3\n";
        let o = builtin(&run(df, Some(1), None, &u));
        assert_eq!(o.kind, Observation::Finding(FindingKind::InvalidFree));
        assert_eq!((o.file.as_deref(), o.line), (Some("prog.c"), Some(3)));
        let abrt = "==1==ERROR: AddressSanitizer: ABRT on unknown address 0x1\n";
        let o = builtin(&run(abrt, Some(1), None, &u));
        assert_eq!((o.kind, o.code), (Observation::Finding(FindingKind::Abort), Some(6)));
        let fpe = "==1==ERROR: AddressSanitizer: FPE on unknown address 0x1\n    #0 0x1 in div /x/prog.c:4:12\n";
        let o = builtin(&run(fpe, Some(1), None, &u));
        assert_eq!(o.kind, Observation::Finding(FindingKind::DivisionByZero));
        assert_eq!(o.line, Some(4));
    }

    #[test]
    fn first_user_frame_skips_library_frames() {
        assert_eq!(first_user_frame(ASAN, &user()), Some(("prog.c".into(), 7)));
        let other = UserCode::from_inputs(&[PathBuf::from("other.c")]);
        assert_eq!(first_user_frame(ASAN, &other), None);
        // A file that merely ends like a user file is not one.
        let x = "    #0 0x1 in f /src/xprog.c:3:1\n    #1 0x2 in g /src/prog.c:9\n";
        assert_eq!(first_user_frame(x, &user()), Some(("prog.c".into(), 9)));
    }

    #[test]
    fn assertion_messages_are_located() {
        let u = user();
        let msg = "prog: /src/prog.c:12: int main(void): Assertion `x > 0' failed.\n";
        let o = builtin(&run(msg, None, Some(6), &u));
        assert_eq!(o.kind, Observation::Finding(FindingKind::AssertionFailure));
        assert_eq!((o.file.as_deref(), o.line, o.code), (Some("prog.c"), Some(12), None));
    }

    #[test]
    fn driver_markers_come_first() {
        let u = user();
        let r = run("FPSYM-REPLAY: reach_error 0x4c5f1a\n", Some(86), None, &u);
        assert!(matches!(driver_markers(&r), Some(Classified::ReachError(a)) if a == "0x4c5f1a"));
        let r = run("noise\nFPSYM-REPLAY: out of inputs\n", Some(87), None, &u);
        let o = builtin(&r);
        assert_eq!(o.kind, Observation::ReplayError);
        assert_eq!(
            (o.file.as_deref(), o.code),
            (Some("FPSYM-REPLAY: out of inputs"), Some(87))
        );
    }

    #[test]
    fn signals_exits_and_results() {
        let u = user();
        let o = builtin(&run("", None, Some(6), &u));
        assert_eq!((o.kind, o.code), (Observation::Finding(FindingKind::Abort), Some(6)));
        let o = builtin(&run("", None, Some(8), &u));
        assert_eq!(
            (o.kind, o.code),
            (Observation::Finding(FindingKind::DivisionByZero), Some(8))
        );
        let o = builtin(&run("", None, Some(4), &u));
        assert_eq!((o.kind, o.code), (Observation::Signal, Some(4)));
        let o = builtin(&run("FPSYM-RESULT: -300\n", Some(212), None, &u));
        assert_eq!((o.kind, o.code, o.result), (Observation::Exit, Some(212), Some(-300)));
        let o = builtin(&run("", Some(0), None, &u));
        assert_eq!((o.code, o.result), (Some(0), None));
    }

    #[test]
    fn symbolizer_output() {
        assert_eq!(
            source_line("read_at\n/src/dir/prog.c:7:10\n\n"),
            Some(("prog.c".into(), 7))
        );
        assert_eq!(source_line("main\nno location\n"), None);
        assert_eq!(source_line("main\n"), None);
    }
}
