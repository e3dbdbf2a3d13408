//! `fpsym replay DIR`: the glue around [`fpsym_replay`], which rebuilds
//! the program of a `fpsym run` natively (with AddressSanitizer), feeds it
//! each test's inputs through a generated driver, and confirms every
//! finding and every test's end. Here: the table, the summary, and the
//! exit code; with `--test N`, one test and what it did natively.

use crate::Failure;
use fpsym_engine::report::critical_record::{CriticalRecord, CRITICAL_RECORD};
use fpsym_engine::report::FindingKind;
use fpsym_replay::{Confirmations, Observation, ReplayError, ReplayReport};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Options of `fpsym replay`.
pub use fpsym_replay::ReplayOptions;

/// Replays every test of `dir`; exit 3 when a finding is not confirmed or
/// a test behaves otherwise than the run recorded.
pub fn replay(dir: &Path, opts: &ReplayOptions) -> anyhow::Result<ExitCode> {
    let confirmations = confirmations(dir);
    let report = fpsym_replay::replay(dir, opts, &confirmations).map_err(failure)?;
    crate::closed_stdout_ok(print(&report, opts))?;
    let (unconfirmed, mismatched) = (report.unconfirmed(), report.mismatched());
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

/// What a claim (verified, infeasible, a critical side proved, no
/// exception of a kind) says no native run of a test shows, beyond
/// ending as recorded.
#[derive(Clone, Debug, Default)]
pub struct Claim {
    /// Kinds no test may raise or end with at a place of the user's files
    /// (`fpsym exceptions`: the kinds it checked).
    pub absent: Vec<FindingKind>,
    /// `fpsym path --reach`: the target (file, line), which no test may
    /// execute.
    pub unreached: Option<(String, u32)>,
    /// `fpsym path --path`: the path, which no test may take, and the
    /// place (file, line) a test taking it is reported at.
    pub untaken: Option<(fpsym_engine::report::PathRecord, (String, u32))>,
}

/// Replays every test of `dir` to check a claim the run made (as
/// [`replay`], printing the same table): Some(why) when native execution
/// contradicts it, why starting with "the model disagrees with native
/// execution at FILE:LINE". Replay errors (a missing tool) are errors.
pub fn check_claim(dir: &Path, claim: &Claim, opts: &ReplayOptions) -> anyhow::Result<Option<String>> {
    let mut c = confirmations(dir);
    let mut opts = opts.clone();
    opts.watch = claim.absent.clone();
    if let Some(place) = &claim.unreached {
        c = c.with(Box::new(fpsym_replay::Reached::new([place.clone()])));
        opts.watch.push(FindingKind::Goal(fpsym_report::Goal::Reached));
    }
    if let Some((path, place)) = &claim.untaken {
        c = c.with(Box::new(fpsym_replay::PathFollowed::new(path, [place.clone()])));
        opts.watch.push(FindingKind::Goal(fpsym_report::Goal::PathFollowed));
    }
    let report = fpsym_replay::replay(dir, &opts, &c).map_err(failure)?;
    crate::closed_stdout_ok(print(&report, &opts))?;
    Ok(disagreement(dir, &report, &opts.watch).map(|why| format!("{why} (see {}/replay.json)", dir.display())))
}

/// The first way `report` contradicts the run of `dir` whose claim says
/// no test shows `watched`: a test ending otherwise than recorded, a
/// finding not confirmed, a test raising a watched kind in the user's
/// files. "the model disagrees with native execution at FILE:LINE: ...".
fn disagreement(dir: &Path, report: &ReplayReport, watched: &[FindingKind]) -> Option<String> {
    let findings = fpsym_engine::report::read_findings(dir).unwrap_or_default();
    let at = |file: &str, line: u32| format!("{}:{line}", basename(file));
    let lead = |place: Option<String>, test: u64| match place {
        Some(p) => format!("the model disagrees with native execution at {p}: test {test:06}"),
        None => format!("the model disagrees with native execution on test {test:06}"),
    };
    // A watched kind natively: the claim's own contradiction.
    for t in &report.tests {
        let o = &t.observed;
        let ended = match (&o.kind, &o.file, o.line) {
            (Observation::Finding(k), Some(f), Some(l)) if watched.contains(k) => Some((k.clone(), f.clone(), l)),
            _ => None,
        };
        let raised = o.raised.iter().find_map(|r| match (&r.file, r.line) {
            (Some(f), Some(l)) if watched.contains(&r.kind) => Some((r.kind.clone(), f.clone(), l)),
            _ => None,
        });
        if let Some((kind, file, line)) = ended.or(raised) {
            let what = match kind.to_string().as_str() {
                fpsym_engine::report::REACHED => "reaches it".to_string(),
                fpsym_engine::report::PATH_FOLLOWED => "takes the path".to_string(),
                k => format!("raises {k} there"),
            };
            return Some(format!(
                "{} {what} natively (the model says no input does)",
                lead(Some(at(&file, line)), t.test)
            ));
        }
    }
    if let Some(t) = report.tests.iter().find(|t| !t.confirmed) {
        let o = &t.observed;
        let located = o.raised.iter().find_map(|r| Some(at(r.file.as_deref()?, r.line?)));
        let place = match (&o.file, o.line) {
            (Some(f), Some(l)) => Some(at(f, l)),
            _ => located.or_else(|| findings.iter().find(|f| f.test == t.test).map(|f| at(&f.file, f.line))),
        };
        return Some(format!(
            "{}: the model says {}, natively {}",
            lead(place, t.test),
            t.expected,
            observed_text(o)
        ));
    }
    if let Some(f) = report.findings.iter().find(|f| !f.confirmed) {
        return Some(format!(
            "{}: finding {} not confirmed natively (natively {})",
            lead(Some(at(&f.file, f.line)), f.test),
            f.kind,
            observed_text(&f.observed)
        ));
    }
    None
}

/// The built-in confirmations, and those of the modes' goals when `dir`
/// has them: a line reached, a path taken (as `DIR/path.json` gives it),
/// a result out of its range (as `DIR/critical.json` gives it).
fn confirmations(dir: &Path) -> Confirmations {
    use fpsym_engine::report::{PathRecord, PATH_FOLLOWED, PATH_RECORD, REACHED};
    let mut c = Confirmations::default();
    let findings = fpsym_engine::report::read_findings(dir).unwrap_or_default();
    let places = |kind: &str| -> Vec<(String, u32)> {
        findings
            .iter()
            .filter(|f| f.kind.to_string() == kind)
            .map(|f| (f.file.clone(), f.line))
            .collect()
    };
    let reached = places(REACHED);
    if !reached.is_empty() {
        c = c.with(Box::new(fpsym_replay::Reached::new(reached)));
    }
    // A critical run's ranges (their exact decimal bounds).
    if let Ok(record) = fpsym_engine::report::read_json::<CriticalRecord>(&dir.join(CRITICAL_RECORD)) {
        {
            for r in critical_ranges(&record) {
                c = c.with(Box::new(r));
            }
        }
    }
    let followed = places(PATH_FOLLOWED);
    if !followed.is_empty() {
        if let Ok(path) = fpsym_engine::report::read_json::<PathRecord>(&dir.join(PATH_RECORD)) {
            c = c.with(Box::new(fpsym_replay::PathFollowed::new(&path, followed)));
        }
    }
    c
}

/// The confirmations of a critical run's expectations (`critical.json`):
/// each one's kinds, bounds and where its values are natively.
fn critical_ranges(j: &CriticalRecord) -> Vec<fpsym_replay::ResultRange> {
    use fpsym_engine::report::critical_record::TargetRecord;
    use fpsym_replay::{ResultRange, Watched};
    let bound = |b: &str| fpsym_float::parse_decimal(b);
    if j.expects.is_empty() {
        // Written before several expectations were allowed.
        return ResultRange::all(bound(&j.expect.lo), bound(&j.expect.hi));
    }
    let format = |t: &str| match t {
        "float" => Some(fpsym_float::Format::BINARY32),
        "double" => Some(fpsym_float::Format::BINARY64),
        "long double" => Some(fpsym_float::Format::X86_FP80),
        "__float128" => Some(fpsym_float::Format::BINARY128),
        "_Float16" => Some(fpsym_float::Format::BINARY16),
        _ => None,
    };
    let mut out = Vec::new();
    for (k, e) in j.expects.iter().enumerate() {
        let elements =
            |es: &[fpsym_engine::report::critical_record::ElementRecord]| -> Vec<(u64, fpsym_float::Format)> {
                es.iter().filter_map(|x| Some((x.offset, format(&x.c_type)?))).collect()
            };
        let watched = match &e.target {
            TargetRecord::Ret { .. } => Watched::Ret,
            TargetRecord::Param {
                index: Some(index),
                elements: es,
                ..
            } => Watched::Arg {
                index: *index,
                elements: elements(es),
            },
            TargetRecord::Global {
                global,
                size: Some(size),
                elements: es,
            } => Watched::Global {
                name: global.clone(),
                size: *size,
                elements: elements(es),
            },
            _ => continue,
        };
        let k_ = &e.kinds;
        out.extend(ResultRange::sides(
            [k_.below.clone(), k_.above.clone(), k_.nan.clone()],
            bound(&e.lo),
            bound(&e.hi),
            watched,
            k,
        ));
    }
    out
}

/// A replay error as the CLI's failure: a failing coverage tool is
/// internal (exit 3), everything else (a missing tool or runtime, not a
/// run directory, a failing native build) an input error (exit 2). A
/// failing build's diagnostics go to stderr first.
pub fn failure(e: ReplayError) -> Failure {
    if let Some(d) = e.diagnostics() {
        eprint!("{d}");
    }
    if e.is_internal() {
        Failure::Internal(e.to_string())
    } else {
        Failure::Input(e.to_string())
    }
}

/// The file name of a path.
fn basename(s: &str) -> String {
    Path::new(s)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// What a native run did, in a few words: the observation with its place
/// or code, and the first thing it raised on the way (FP exceptions,
/// casts).
fn observed_text(o: &fpsym_replay::Observed) -> String {
    observed_confirming(o, &[])
}

/// What a native run did, in a few words, showing of what it raised on
/// the way the event that confirms one of `findings` (its test's: same
/// kind, at its line if one is), else the first; the others are counted.
fn observed_confirming(o: &fpsym_replay::Observed, findings: &[&fpsym_replay::FindingResult]) -> String {
    let kind = o.kind.name();
    let mut seen = match (&o.file, o.line, o.code) {
        (Some(f), Some(l), _) => format!("{kind} at {f}:{l}"),
        (_, _, Some(c)) => format!("{kind} {c}"),
        _ => kind.to_string(),
    };
    let confirming = |same_line: bool| {
        o.raised.iter().position(|r| {
            findings
                .iter()
                .any(|f| f.kind == r.kind && (!same_line || r.line == Some(f.line)))
        })
    };
    let shown = confirming(true).or_else(|| confirming(false)).unwrap_or(0);
    if let Some(r) = o.raised.get(shown) {
        let more = match o.raised.len() {
            1 => String::new(),
            n => format!(" (+{} more)", n - 1),
        };
        seen = format!("{seen}, {}{more}", raised_text(r));
    }
    seen
}

/// One event a native run raised on the way: `raised KIND at FILE:LINE`,
/// `reached line L` (a `--reach` target), `followed the path`.
fn raised_text(r: &fpsym_engine::report::Raised) -> String {
    use fpsym_engine::report::{PATH_FOLLOWED, REACHED};
    match (r.kind.name(), &r.file, r.line) {
        (REACHED, _, Some(l)) => format!("reached line {l}"),
        (REACHED, _, None) => "reached the line".to_string(),
        (PATH_FOLLOWED, ..) => "followed the path".to_string(),
        (k, Some(f), Some(l)) => format!("raised {k} at {f}:{l}"),
        (k, ..) => format!("raised {k}"),
    }
}

/// `fpsym replay DIR --test N`: replays test `id` alone and says what it
/// did natively and whether that is what the run recorded; exit 3 when it
/// is not (or a finding of the test is not confirmed), as for a whole
/// replay. `DIR/replay.json` is left alone: the result goes to
/// `DIR/replay/test-NNNNNN.json`.
pub fn replay_one(dir: &Path, id: u64, opts: &ReplayOptions) -> anyhow::Result<ExitCode> {
    let confirmations = confirmations(dir);
    let r = fpsym_replay::replay_test(dir, id, opts, &confirmations).map_err(failure)?;
    crate::closed_stdout_ok(print_one(&r, opts))?;
    let unconfirmed = r.findings.iter().filter(|f| !f.confirmed).count();
    if !r.result.confirmed || unconfirmed > 0 {
        let mut what = Vec::new();
        if !r.result.confirmed {
            what.push(format!("test {id:06} behaves otherwise natively than the run recorded"));
        }
        if unconfirmed > 0 {
            what.push(format!("{unconfirmed} finding(s) of it not confirmed by native replay"));
        }
        return Err(Failure::Internal(format!(
            "{} (see {}): a bug in fpsym",
            what.join(", "),
            r.record.display()
        ))
        .into());
    }
    Ok(ExitCode::SUCCESS)
}

/// The usual name of a signal.
fn signal_name(sig: i32) -> Option<&'static str> {
    Some(match sig {
        1 => "SIGHUP",
        2 => "SIGINT",
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        15 => "SIGTERM",
        _ => return None,
    })
}

/// Lines of a native run's stderr shown by `replay --test`.
const STDERR_LINES: usize = 40;

/// What one replayed test did, for people.
fn print_one(r: &fpsym_replay::TestReplay, opts: &ReplayOptions) -> std::io::Result<()> {
    let out = std::io::stdout();
    let mut out = out.lock();
    let t = &r.result;
    writeln!(out, "test {:06}", t.test)?;
    let how = match (r.timed_out, r.exit_code, r.signal) {
        (true, ..) => format!("killed after {} s (time limit)", fpsym_replay::TEST_TIMEOUT.as_secs()),
        (_, Some(c), _) if r.stderr.contains("AddressSanitizer:DEADLYSIGNAL") => {
            format!("exited with status {c} (AddressSanitizer caught a deadly signal)")
        }
        (_, Some(c), _) if r.stderr.contains("ERROR: AddressSanitizer") => {
            format!("exited with status {c} (AddressSanitizer's report)")
        }
        (_, Some(c), _) => format!("exited with status {c}"),
        (_, _, Some(s)) => match signal_name(s) {
            Some(name) => format!("killed by signal {s} ({name})"),
            None => format!("killed by signal {s}"),
        },
        _ => "ended without status".to_string(),
    };
    writeln!(out, "  natively:  {how}")?;
    writeln!(out, "  observed:  {}", observed_text(&t.observed))?;
    if let Some(v) = t.observed.result {
        writeln!(out, "  result:    {v}")?;
    }
    for x in t.observed.raised.iter().skip(1) {
        writeln!(out, "  then:      {}", raised_text(x))?;
    }
    writeln!(out, "  recorded:  {}", t.expected)?;
    writeln!(out, "  matches the record: {}", if t.confirmed { "yes" } else { "NO" })?;
    for f in &r.findings {
        let verdict = match (f.confirmed, &f.reason) {
            (true, _) => "confirmed".to_string(),
            (false, Some(why)) => format!("NOT CONFIRMED ({why})"),
            (false, None) => "NOT CONFIRMED".to_string(),
        };
        writeln!(
            out,
            "  finding {} at {}:{}: {verdict}",
            f.kind,
            basename(&f.file),
            f.line
        )?;
    }
    // What the program and the sanitizers wrote (not the driver's markers).
    let lines: Vec<&str> = r.stderr.lines().filter(|l| !l.starts_with("FPSYM-")).collect();
    if !lines.is_empty() {
        writeln!(out, "  stderr:")?;
        for l in lines.iter().take(STDERR_LINES) {
            writeln!(out, "    | {l}")?;
        }
        if lines.len() > STDERR_LINES {
            writeln!(out, "    | ... ({} more lines)", lines.len() - STDERR_LINES)?;
        }
    }
    if let Some(cov) = &r.coverage {
        writeln!(out, "  coverage (native, this test): {}", coverage_counts(cov))?;
        if let Some(h) = &opts.coverage_html {
            writeln!(out, "  coverage report: {}/index.html", h.display())?;
        }
    }
    writeln!(out, "  written:   {}", r.record.display())?;
    Ok(())
}

/// The table of the tests that matter (those that confirm a finding and
/// those that behave otherwise than recorded), the count of the others,
/// the findings, the summary line and the coverage.
fn print(report: &ReplayReport, opts: &ReplayOptions) -> std::io::Result<()> {
    let out = std::io::stdout();
    let mut out = out.lock();
    let findings_of = |test: u64| -> Vec<&fpsym_replay::FindingResult> {
        report.findings.iter().filter(|f| f.test == test).collect()
    };
    let rows: Vec<_> = report
        .tests
        .iter()
        .filter(|t| !t.confirmed || report.findings.iter().any(|f| f.test == t.test))
        .collect();
    if !rows.is_empty() {
        writeln!(out, "{:>8}  {:<28} {:<40} confirmed", "test", "expected", "observed")?;
    }
    for r in &rows {
        let seen = observed_confirming(&r.observed, &findings_of(r.test));
        writeln!(
            out,
            "{:>8}  {:<28} {:<40} {}",
            format!("{:06}", r.test),
            r.expected,
            seen,
            if r.confirmed { "yes" } else { "NO" }
        )?;
    }
    match report.tests.len() - rows.len() {
        0 => {}
        1 if rows.is_empty() => writeln!(out, "the test behaved as recorded")?,
        n if rows.is_empty() => writeln!(out, "all {n} tests behaved as recorded")?,
        1 => writeln!(out, "1 other test behaved as recorded")?,
        n => writeln!(out, "{n} other tests behaved as recorded")?,
    }
    for f in &report.findings {
        let verdict = if f.confirmed {
            "confirmed".to_string()
        } else {
            match &f.reason {
                Some(why) => format!("NOT CONFIRMED ({why})"),
                None => "NOT CONFIRMED".to_string(),
            }
        };
        writeln!(
            out,
            "finding {} at {}:{} (test {:06}): {verdict}",
            f.kind,
            basename(&f.file),
            f.line,
            f.test,
        )?;
    }
    let unconfirmed = report.unconfirmed();
    writeln!(
        out,
        "replay: {} tests, {} findings, {} confirmed, {} unconfirmed, {} tests behaving otherwise",
        report.tests.len(),
        report.findings.len(),
        report.findings.len() - unconfirmed,
        unconfirmed,
        report.mismatched()
    )?;
    if let Some(cov) = &report.coverage {
        writeln!(out, "coverage (native, your files): {}", coverage_counts(cov))?;
        if let Some(h) = &opts.coverage_html {
            writeln!(out, "coverage report: {}/index.html", h.display())?;
        }
    }
    Ok(())
}

/// `lines C/N (P%), branches C/N (P%)`.
fn coverage_counts(cov: &fpsym_replay::Coverage) -> String {
    format!(
        "lines {}/{} ({:.1}%), branches {}/{} ({:.1}%)",
        cov.lines.covered,
        cov.lines.count,
        cov.lines.percent,
        cov.branches.covered,
        cov.branches.count,
        cov.branches.percent
    )
}
