//! `fpsym replay DIR`: the glue around [`fpsym_replay`], which rebuilds
//! the program of a `fpsym run` natively (with AddressSanitizer), feeds it
//! each test's inputs through a generated driver, and confirms every
//! finding and every test's end. Here: the table, the summary, and the
//! exit code.

use crate::Failure;
use fpsym_replay::{Confirmations, ReplayError, ReplayReport};
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
    print(&report, opts)?;
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
    if let Ok(text) = std::fs::read_to_string(dir.join("critical.json")) {
        if let Ok(j) = serde_json::from_str::<serde_json::Value>(&text) {
            for r in critical_ranges(&j) {
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
fn critical_ranges(j: &serde_json::Value) -> Vec<fpsym_replay::ResultRange> {
    use fpsym_replay::{ResultRange, Watched};
    let bound = |e: &serde_json::Value, k: &str| e[k].as_str().and_then(fpsym_float::parse_decimal);
    let Some(expects) = j["expects"].as_array() else {
        // Written before several expectations were allowed.
        return ResultRange::all(bound(&j["expect"], "lo"), bound(&j["expect"], "hi"));
    };
    let format = |t: &str| match t {
        "float" => Some(fpsym_float::Format::BINARY32),
        "double" => Some(fpsym_float::Format::BINARY64),
        "long double" => Some(fpsym_float::Format::X86_FP80),
        "__float128" => Some(fpsym_float::Format::BINARY128),
        "_Float16" => Some(fpsym_float::Format::BINARY16),
        _ => None,
    };
    let mut out = Vec::new();
    for (k, e) in expects.iter().enumerate() {
        let t = &e["target"];
        let elements: Option<Vec<(u64, fpsym_float::Format)>> = t["elements"].as_array().map(|es| {
            es.iter()
                .filter_map(|x| Some((x["offset"].as_u64()?, format(x["type"].as_str()?)?)))
                .collect()
        });
        let watched = if t["ret"] == true {
            Watched::Ret
        } else if let (Some(index), Some(elements)) = (t["index"].as_u64(), elements.clone()) {
            Watched::Arg {
                index: index as usize,
                elements,
            }
        } else if let (Some(name), Some(size), Some(elements)) = (t["global"].as_str(), t["size"].as_u64(), elements) {
            Watched::Global {
                name: name.to_string(),
                size,
                elements,
            }
        } else {
            continue;
        };
        let kind = |s: &str| e["kinds"][s].as_str().map(String::from);
        let (Some(b), Some(a), Some(n)) = (kind("below"), kind("above"), kind("nan")) else {
            continue;
        };
        out.extend(ResultRange::sides(
            [b, a, n],
            bound(e, "lo"),
            bound(e, "hi"),
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
fn failure(e: ReplayError) -> Failure {
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

/// The table of tests, the findings, the summary line and the coverage.
fn print(report: &ReplayReport, opts: &ReplayOptions) -> std::io::Result<()> {
    let out = std::io::stdout();
    let mut out = out.lock();
    writeln!(
        out,
        "{:>8}  {:<28} {:<40} {}",
        "test", "expected", "observed", "confirmed"
    )?;
    for r in &report.tests {
        let o = &r.observed;
        let kind = o.kind.name();
        let mut seen = match (&o.file, o.line, o.code) {
            (Some(f), Some(l), _) => format!("{kind} at {f}:{l}"),
            (_, _, Some(c)) => format!("{kind} {c}"),
            _ => kind.to_string(),
        };
        // What it raised on the way (FP exceptions, casts): the first one.
        if let Some(r) = o.raised.first() {
            let at = match (&r.file, r.line) {
                (Some(f), Some(l)) => format!(" at {f}:{l}"),
                _ => String::new(),
            };
            let more = match o.raised.len() {
                1 => String::new(),
                n => format!(" (+{} more)", n - 1),
            };
            seen = format!("{seen}, raised {}{at}{more}", r.kind);
        }
        writeln!(
            out,
            "{:>8}  {:<28} {:<40} {}",
            format!("{:06}", r.test),
            r.expected,
            seen,
            if r.confirmed { "yes" } else { "NO" }
        )?;
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
        writeln!(
            out,
            "coverage (native, your files): lines {}/{} ({:.1}%), branches {}/{} ({:.1}%)",
            cov.lines.covered,
            cov.lines.count,
            cov.lines.percent,
            cov.branches.covered,
            cov.branches.count,
            cov.branches.percent
        )?;
        if let Some(h) = &opts.coverage_html {
            writeln!(out, "coverage report: {}/index.html", h.display())?;
        }
    }
    Ok(())
}
