//! The whole-run reports of an output directory: `report.sarif`,
//! `junit.xml` and `report.html`, made from what the directory holds.
//!
//! Everything is read back from the directory (the same typed records the
//! run wrote), so the reports of a run killed early, or of any mode, are
//! made the same way: what is missing (no `stats.json` after a kill, no
//! `replay.json` without replay) is said, never guessed.

use crate::{
    read_json, read_progress, Event, Finding, FindingKind, Mode, ModeRecord, PathEnd, ProgressSample, ReplayReport,
    ReportError, RunRecord, Summary, Test, EVENTS, HTML, JUNIT, REPLAY, RUN_RECORD, SARIF, STATS,
};
use serde::de::DeserializeOwned;
use std::path::{Component, Path, PathBuf};

/// Writes `DIR/report.sarif`, `DIR/junit.xml` and `DIR/report.html` from
/// the records in `dir` (run, summary, tests, findings, events, replay and
/// a mode's own record when present). Called once a command is done with
/// the directory (after replay, when it runs). Source files are named
/// relative to the current directory when they are under it.
pub fn write_reports(dir: &Path) -> Result<(), ReportError> {
    let cwd = std::env::current_dir().ok();
    write_reports_relative_to(dir, cwd.as_deref())
}

/// [`write_reports`] with source files named relative to `base` (when
/// under it) instead of the current directory; `None`: as recorded.
///
/// A directory of `--all-functions` (no `run.json`, a run directory per
/// function in `functions/`) gets reports of all of them: one SARIF run
/// with every function's results, a JUnit suite per function, and a page
/// listing the functions (each function's own directory has its reports).
pub fn write_reports_relative_to(dir: &Path, base: Option<&Path>) -> Result<(), ReportError> {
    let subs = function_dirs(dir);
    let parts: Vec<Part> = if dir.join(crate::RESULTS).is_file() {
        batch_parts(dir, base)?
    } else if dir.join(RUN_RECORD).exists() || subs.is_empty() {
        vec![Part {
            sub: String::new(),
            run: RunDir::read(dir, base)?,
            job: None,
        }]
    } else {
        subs.into_iter()
            .map(|sub| {
                Ok(Part {
                    run: RunDir::read(&dir.join(&sub), base)?,
                    sub,
                    job: None,
                })
            })
            .collect::<Result<_, ReportError>>()?
    };
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|source| ReportError::Io { path, source })
    };
    write(SARIF, crate::sarif::render(dir, &parts)?)?;
    write(JUNIT, crate::junit::render(&parts))?;
    let page = match parts.as_slice() {
        [one] if one.sub.is_empty() => crate::html::render(&one.run),
        _ => crate::html::render_index(dir, &parts),
    };
    write(HTML, page)?;
    Ok(())
}

/// The parts of a `fpsym batch` (or `fpsym merge`) directory: one per
/// line of `results.jsonl`, by file and function, each with its status
/// (a function whose process died before writing anything has an empty
/// run).
fn batch_parts(dir: &Path, base: Option<&Path>) -> Result<Vec<Part>, ReportError> {
    let mut jobs = crate::read_results(dir)?;
    let record = read_json::<crate::BatchRecord>(&dir.join(crate::BATCH_RECORD)).ok();
    let mode = record.as_ref().and_then(|b| Mode::from_name(&b.mode));
    for (file, function) in record.iter().flat_map(|b| &b.missing) {
        jobs.push(crate::JobResult {
            file: file.clone(),
            function: function.clone(),
            status: crate::JobStatus::Skipped,
            why: Some(format!(
                "{}: none of the directories merged had it (a shard not given to `fpsym merge`?)",
                crate::MISSING
            )),
            verdict: None,
            findings: Vec::new(),
            time: 0.0,
            dir: String::new(),
            exit_code: None,
            result: None,
            verdict_why: None,
        });
    }
    jobs.sort_by_key(|a| a.key());
    jobs.into_iter()
        .map(|job| {
            let at = dir.join(&job.dir);
            let mut run = if at.is_dir() && !job.dir.is_empty() {
                RunDir::read(&at, base)?
            } else {
                RunDir::empty(&at, base)
            };
            if run.run.is_none() {
                // Nothing written (it crashed first): the batch's mode.
                run.mode = mode.unwrap_or(run.mode);
            }
            Ok(Part {
                sub: job.dir.clone(),
                run,
                job: Some(job),
            })
        })
        .collect()
}

/// `functions/F` for each subdirectory of `DIR/functions` holding a run
/// (`run.json`), by name.
fn function_dirs(dir: &Path) -> Vec<String> {
    let Ok(rd) = std::fs::read_dir(dir.join("functions")) else {
        return Vec::new();
    };
    let mut subs: Vec<String> = rd
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join(RUN_RECORD).is_file())
        .map(|e| format!("functions/{}", e.file_name().to_string_lossy()))
        .collect();
    subs.sort();
    subs
}

/// One run directory of a report: `sub` is its path from the report's
/// directory (empty: the directory itself).
pub(crate) struct Part {
    /// `functions/F`, or empty.
    pub sub: String,
    /// Its records.
    pub run: RunDir,
    /// In a batch: how the function's process ended.
    pub job: Option<crate::JobResult>,
}

/// Whether a finding kind is one `fpsym exceptions` reports.
pub(crate) fn is_exception_kind(k: &FindingKind) -> bool {
    k.is_fp_exception()
}

/// Everything an output directory holds that the reports show.
#[derive(Clone)]
pub(crate) struct RunDir {
    /// The directory.
    pub dir: PathBuf,
    /// Where relative file names start (the working directory).
    pub base: Option<PathBuf>,
    /// `run.json`, if there.
    pub run: Option<RunRecord>,
    /// `stats.json`, if there (a run killed early has none).
    pub summary: Option<Summary>,
    /// The tests, by id.
    pub tests: Vec<Test>,
    /// The findings, in the order found.
    pub findings: Vec<Finding>,
    /// `events.jsonl`.
    pub events: Vec<Event>,
    /// `replay.json`, if replay ran.
    pub replay: Option<ReplayReport>,
    /// `progress.jsonl`.
    pub progress: Vec<ProgressSample>,
    /// The command that made the directory.
    pub mode: Mode,
    /// The mode's own record (`error.json`, `critical.json`, `paths.json`,
    /// `path.json`), if there.
    pub record: Option<ModeRecord>,
    /// Records that could not be read (file: why): shown, not fatal.
    pub problems: Vec<String>,
}

impl RunDir {
    /// A run that left nothing in `dir` (a batch job that died first).
    pub(crate) fn empty(dir: &Path, base: Option<&Path>) -> RunDir {
        RunDir {
            dir: dir.to_path_buf(),
            base: base.map(Path::to_path_buf),
            run: None,
            summary: None,
            tests: Vec::new(),
            findings: Vec::new(),
            events: Vec::new(),
            replay: None,
            progress: Vec::new(),
            mode: Mode::Run,
            record: None,
            problems: Vec::new(),
        }
    }

    /// Reads what `dir` holds. A missing record is absent; an unreadable
    /// one is listed in `problems`; a directory that cannot be read at all
    /// is an error.
    pub(crate) fn read(dir: &Path, base: Option<&Path>) -> Result<RunDir, ReportError> {
        if !dir.is_dir() {
            return Err(ReportError::Io {
                path: dir.to_path_buf(),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "not a directory"),
            });
        }
        let mut problems = Vec::new();
        let run: Option<RunRecord> = optional(&dir.join(RUN_RECORD), &mut problems);
        let summary: Option<Summary> = optional(&dir.join(STATS), &mut problems);
        let replay: Option<ReplayReport> = optional(&dir.join(REPLAY), &mut problems);
        let mut tests: Vec<Test> = all_records(&dir.join("tests"), &mut problems)?;
        tests.sort_by_key(|t| t.id);
        let findings: Vec<Finding> = all_records(&dir.join("findings"), &mut problems)?;
        let events = read_events(&dir.join(EVENTS), &mut problems);
        let progress = read_progress(dir);
        let record = match ModeRecord::read(dir) {
            Some(Ok(r)) => Some(r),
            Some(Err(e)) => {
                problems.push(e.to_string());
                None
            }
            None => None,
        };
        // The mode: as run.json says, when it says; else from the mode's
        // own record; else exceptions when its kinds show.
        let said = run.as_ref().and_then(|r| r.mode);
        let exception_kinds = findings.iter().any(|f| is_exception_kind(&f.kind))
            || tests
                .iter()
                .any(|t| matches!(&t.end, PathEnd::Error(k) if is_exception_kind(k)))
            || events
                .iter()
                .any(|e| matches!(e, Event::CheckUndecided { kind, .. } if is_exception_kind(kind)));
        let mode = said.unwrap_or(match &record {
            Some(r) => r.mode(),
            None if exception_kinds => Mode::Exceptions,
            None => Mode::Run,
        });
        Ok(RunDir {
            dir: dir.to_path_buf(),
            base: base.map(Path::to_path_buf),
            run,
            summary,
            tests,
            findings,
            events,
            replay,
            progress,
            mode,
            record,
            problems,
        })
    }

    /// The test `id`, if the directory has it.
    pub(crate) fn test(&self, id: u64) -> Option<&Test> {
        self.tests
            .binary_search_by_key(&id, |t| t.id)
            .ok()
            .map(|i| &self.tests[i])
    }

    /// Whether replay confirmed the `index`-th finding (None: not replayed).
    pub(crate) fn confirmed(&self, index: usize, f: &Finding) -> Option<bool> {
        let r = self.replay.as_ref()?;
        r.findings
            .get(index)
            .filter(|x| x.test == f.test && x.kind == f.kind && x.line == f.line)
            .or_else(|| {
                r.findings
                    .iter()
                    .find(|x| x.test == f.test && x.kind == f.kind && x.line == f.line)
            })
            .map(|x| x.confirmed)
    }

    /// The program's sources as named in the reports.
    pub(crate) fn program(&self) -> Vec<String> {
        match &self.run {
            Some(r) => r.files.iter().map(|f| self.display_path(f)).collect(),
            None => Vec::new(),
        }
    }

    /// The source file a record names, on disk: as given when it exists
    /// (absolute, or relative to the working directory), else the run's
    /// input that ends with it, else the only input of that file name.
    pub(crate) fn source_path(&self, file: &str) -> Option<PathBuf> {
        if file.is_empty() {
            return None;
        }
        let p = Path::new(file);
        let direct = if p.is_absolute() {
            Some(p.to_path_buf())
        } else {
            self.base.as_ref().map(|b| b.join(p))
        };
        if let Some(d) = direct.filter(|d| d.is_file()) {
            return Some(d);
        }
        let inputs: Vec<PathBuf> = self
            .run
            .as_ref()
            .map(|r| r.files.iter().map(PathBuf::from).collect())
            .unwrap_or_default();
        if let Some(i) = inputs.iter().find(|i| i.ends_with(p) && i.is_file()) {
            return Some(i.clone());
        }
        let name = p.file_name()?;
        let mut same = inputs.iter().filter(|i| i.file_name() == Some(name));
        let first = same.next()?;
        (same.next().is_none() && first.is_file()).then(|| first.clone())
    }

    /// A file name for people and for SARIF: the file on disk relative to
    /// the working directory when it is under it, else as found or given.
    pub(crate) fn display_path(&self, file: &str) -> String {
        let found = self.source_path(file).unwrap_or_else(|| PathBuf::from(file));
        match self.relative(&found) {
            Some(r) => r,
            None => found.to_string_lossy().into_owned(),
        }
    }

    /// `path` relative to the base (with `/`), if it is under it.
    pub(crate) fn relative(&self, path: &Path) -> Option<String> {
        let base = self.base.as_ref()?;
        let rel = normalize(path).strip_prefix(normalize(base)).ok()?.to_path_buf();
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        (!parts.is_empty()).then(|| parts.join("/"))
    }

    /// A column of `file`'s line `line` as clang and the records give it
    /// (bytes from 1) in characters from 1, as SARIF's
    /// `unicodeCodePoints` and a caret under the line count; as given
    /// when the line cannot be read.
    pub(crate) fn char_column(&self, file: &str, line: u32, column: u32) -> u32 {
        if line == 0 || column == 0 {
            return column;
        }
        self.source_lines(file)
            .and_then(|l| l.get(line as usize - 1).map(|text| char_column(text, column)))
            .unwrap_or(column)
    }

    /// The lines of a source file (None when unreadable).
    pub(crate) fn source_lines(&self, file: &str) -> Option<Vec<String>> {
        let p = self.source_path(file)?;
        let bytes = std::fs::read(p).ok()?;
        Some(String::from_utf8_lossy(&bytes).lines().map(str::to_string).collect())
    }
}

/// Byte column `byte_column` (from 1) of `line` in characters (from 1);
/// as given when it is not at a character of the line or its end (0:
/// unknown).
pub(crate) fn char_column(line: &str, byte_column: u32) -> u32 {
    if byte_column == 0 {
        // Unknown.
        return 0;
    }
    let bytes = (byte_column as usize).saturating_sub(1);
    match line.get(..bytes) {
        Some(before) => before.chars().count() as u32 + 1,
        None => byte_column,
    }
}

/// `path` without `.` components and with `..` applied lexically.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// A JSON record that may be missing; unreadable, it is a problem.
fn optional<T: DeserializeOwned>(path: &Path, problems: &mut Vec<String>) -> Option<T> {
    if !path.exists() {
        return None;
    }
    match read_json(path) {
        Ok(v) => Some(v),
        Err(e) => {
            problems.push(e.to_string());
            None
        }
    }
}

/// Every readable `.json` record of `dir` in file-name order; the others
/// are problems (a run killed while writing one).
fn all_records<T: DeserializeOwned>(dir: &Path, problems: &mut Vec<String>) -> Result<Vec<T>, ReportError> {
    Ok(crate::json_files(dir)?
        .iter()
        .filter_map(|p| optional(p, problems))
        .collect())
}

/// The events of `events.jsonl` (a line that is not one is a problem).
fn read_events(path: &Path, problems: &mut Vec<String>) -> Vec<Event> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let mut events = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        match serde_json::from_str(line) {
            Ok(e) => events.push(e),
            Err(e) => problems.push(format!("{}:{}: {e}", path.display(), i + 1)),
        }
    }
    events
}

/// A place in a source file: file, line, column.
pub(crate) type Place = (String, u32, u32);

/// A finding's call stack frame (`f (called at FILE:LINE:COL)`): the
/// function and the place of the call, when given.
pub(crate) fn parse_frame(frame: &crate::Frame) -> (String, Option<Place>) {
    (
        frame.function.clone(),
        frame.call_site.as_ref().map(|l| (l.file.clone(), l.line, l.column)),
    )
}

/// A finding's call stack for people, innermost first: each frame's call
/// site named as the reports name files (relative to the base when under
/// it), joined by `sep`.
pub(crate) fn stack_text(run: &RunDir, f: &crate::Finding, sep: &str) -> String {
    f.stack
        .iter()
        .map(|fr| match parse_frame(fr) {
            (function, Some((file, line, col))) => {
                format!("{function} (called at {}:{line}:{col})", run.display_path(&file))
            }
            (function, None) => function,
        })
        .collect::<Vec<_>>()
        .join(sep)
}

/// One input of a test in a line: `name = value (hex)`, elements inside
/// braces, bytes for objects without a value.
pub(crate) fn input_text(t: &crate::TestObject) -> String {
    if let Some(v) = &t.value {
        return match &t.hex {
            Some(h) => format!("{} = {v} ({h})", t.name),
            None => format!("{} = {v}", t.name),
        };
    }
    if !t.elements.is_empty() {
        const SHOWN: usize = 8;
        let mut parts: Vec<String> = t
            .elements
            .iter()
            .take(SHOWN)
            .map(|e| match &e.hex {
                Some(h) => format!("{} = {} ({h})", e.name, e.value),
                None => format!("{} = {}", e.name, e.value),
            })
            .collect();
        if t.elements.len() > SHOWN {
            parts.push(format!("... {} more", t.elements.len() - SHOWN));
        }
        return format!("{} = {{{}}}", t.name, parts.join(", "));
    }
    format!("{} = bytes {}", t.name, t.bytes)
}

/// A test's inputs in one line (`none` for a test without inputs).
pub(crate) fn inputs_text(t: &Test) -> String {
    if t.objects.is_empty() {
        return "none".into();
    }
    t.objects.iter().map(input_text).collect::<Vec<_>>().join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_columns_in_characters() {
        // clang's column 16 is the `a` of `assert` after 3 two-byte
        // characters: the 13th character.
        let line = "  /* «ü» */ assert(x < 1.0);";
        assert_eq!(line.find("assert"), Some(15));
        assert_eq!(char_column(line, 16), 13);
        assert_eq!(char_column("  x = 1;", 3), 3);
        // Inside a character, or past the end: as given.
        assert_eq!(char_column("«", 2), 2);
        assert_eq!(char_column("ab", 9), 9);
        assert_eq!(char_column("ab", 0), 0);
    }

    #[test]
    fn frames_parse() {
        assert_eq!(parse_frame(&"main".into()), ("main".to_string(), None));
        assert_eq!(
            parse_frame(&"f (called at /a/b:c.c:12:5)".into()),
            ("f".to_string(), Some(("/a/b:c.c".to_string(), 12, 5)))
        );
        assert_eq!(parse_frame(&"g (called at ?)".into()), ("g".to_string(), None));
    }

    #[test]
    fn paths_relative_to_the_base() {
        let d = RunDir {
            dir: PathBuf::from("/tmp"),
            base: Some(PathBuf::from("/work/main")),
            run: None,
            summary: None,
            tests: vec![],
            findings: vec![],
            events: vec![],
            replay: None,
            progress: vec![],
            mode: Mode::Run,
            record: None,
            problems: vec![],
        };
        assert_eq!(
            d.relative(Path::new("/work/main/./src/../src/a.c")).as_deref(),
            Some("src/a.c")
        );
        assert_eq!(d.relative(Path::new("/work/other/a.c")), None);
        assert_eq!(d.display_path("/elsewhere/x.c"), "/elsewhere/x.c");
    }
}

/// `s` as XML or HTML text or attribute value: `& < > " '` as entities,
/// and the characters XML 1.0 does not allow (control characters other
/// than tab, newline and carriage return; U+FFFE, U+FFFF) as U+FFFD, so
/// that any message a program or a tool wrote makes a well-formed file.
pub(crate) fn escape_markup(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{7f}' || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod escape_tests {
    use super::escape_markup;

    #[test]
    fn markup_is_escaped() {
        assert_eq!(
            escape_markup("a <b> & \"c\" 'd'"),
            "a &lt;b&gt; &amp; &quot;c&quot; &#39;d&#39;"
        );
        assert_eq!(escape_markup("x\u{0}y\u{1b}z\tw\n"), "x\u{fffd}y\u{fffd}z\tw\n");
        assert_eq!(escape_markup("&amp;"), "&amp;amp;");
    }
}
