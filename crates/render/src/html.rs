//! `report.html`: one self-contained page (inline CSS and SVG, nothing
//! fetched, no script) for people: the command, its verdict and why, the
//! counters, pictures (paths, tests, findings and coverage over time;
//! exceptions by kind and location; the error against the input), every
//! finding with its source lines and input, native coverage per line, the
//! tests and the events. Every text from a record is escaped.

use crate::charts::{bar_chart, error_scatter, line_chart, Bar, Series, PALETTE};
use crate::reports::{escape_markup as esc, inputs_text, is_exception_kind, stack_text, Part, RunDir};
use crate::sarif::{describe_kind, verdict_words};
use crate::{Event, Finding, TestObject};
use fpsym_report::critical_record::Answer;
use fpsym_report::{Mode, ModeRecord};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Lines shown above and below a finding's line.
const CONTEXT: usize = 3;
/// Rows of the tests table.
const MAX_TESTS: usize = 1000;
/// Rows of the events table.
const MAX_EVENTS: usize = 300;
/// Lines of one file's coverage listing.
const MAX_LISTING: usize = 5000;
/// Inputs of `fpsym error` plotted (one scatter each).
const MAX_SCATTERS: usize = 6;
/// Locations in the exceptions-by-location chart.
const MAX_LOCATIONS: usize = 25;

const STYLE: &str = r#"
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; margin: 0; background: #f6f7f9; color: #1d2330; }
header { background: #1d2b4f; color: #fff; padding: 18px 32px; }
header h1 { margin: 0; font-size: 22px; }
header p { margin: 4px 0 0; color: #c9d3ea; }
main { padding: 16px 32px 48px; max-width: 1180px; }
section { background: #fff; border: 1px solid #dde1e8; border-radius: 6px; padding: 14px 20px; margin: 16px 0; }
h2 { font-size: 18px; margin: 4px 0 12px; }
h3 { font-size: 15px; margin: 14px 0 6px; }
table { border-collapse: collapse; font-size: 13px; }
td, th { border-bottom: 1px solid #eceef2; padding: 3px 10px 3px 0; text-align: left; vertical-align: top; }
th { color: #555e70; font-weight: 600; }
code, pre, .mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; }
.verdict { display: inline-block; padding: 2px 10px; border-radius: 12px; font-weight: 600; color: #fff; }
.v-bug { background: #c0392b; } .v-ok { background: #1e8449; } .v-inc { background: #b9770e; } .v-none { background: #7f8c8d; }
.kind { display: inline-block; padding: 1px 8px; border-radius: 4px; background: #fdecea; color: #a93226; font-weight: 600; font-family: monospace; }
.finding { border-left: 4px solid #c0392b; padding: 4px 0 4px 14px; margin: 14px 0 22px; }
.ok { color: #1e8449; font-weight: 600; } .bad { color: #c0392b; font-weight: 600; }
.src { border: 1px solid #e3e6eb; background: #fbfbfc; margin: 6px 0; }
.src td { border: 0; padding: 0 8px; white-space: pre; font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; }
.src td.n { color: #8a93a5; text-align: right; user-select: none; }
.src tr.hit td { background: #fdecea; font-weight: 600; }
.src tr.cov td.c { color: #1e8449; } .src tr.cov td.t { background: #eafaf1; }
.src tr.unc td.c { color: #c0392b; } .src tr.unc td.t { background: #fdecea; }
.caret { color: #c0392b; }
.charts svg { display: block; margin: 8px 0 16px; border: 1px solid #eceef2; }
svg .ct { font: 600 14px sans-serif; fill: #1d2330; } svg .tk { font: 11px sans-serif; fill: #555e70; }
svg .al { font: 12px sans-serif; fill: #333; } svg .lg { font: 12px sans-serif; fill: #1d2330; }
.note { color: #555e70; font-size: 13px; }
.problem { color: #a93226; }
footer { color: #8a93a5; font-size: 12px; padding: 0 32px 24px; }
"#;

/// `report.html`'s text.
pub(crate) fn render(run: &RunDir) -> String {
    let mut h = String::new();
    let program = run.program();
    let function = run.run.as_ref().and_then(|r| r.entry.function().map(str::to_string));
    let title = format!(
        "fpsym {}: {}{}",
        run.mode.name(),
        if program.is_empty() {
            run.dir.display().to_string()
        } else {
            program.join(" ")
        },
        function
            .as_ref()
            .map(|f| format!(" --function {f}"))
            .unwrap_or_default()
    );
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<header><h1>{}</h1><p>{}</p></header>\n<main>\n",
        esc(&title),
        esc(&title),
        esc(&run.dir.display().to_string())
    );
    summary(&mut h, run);
    pictures(&mut h, run);
    findings(&mut h, run);
    coverage(&mut h, run);
    tests(&mut h, run);
    events(&mut h, run);
    let _ = write!(
        h,
        "</main>\n<footer>Written by fpsym {} from the records of {}.</footer>\n</body>\n</html>\n",
        env!("CARGO_PKG_VERSION"),
        esc(&run.dir.display().to_string())
    );
    h
}

/// The page of a directory of several runs (`--all-functions`): a row per
/// run directory with its verdict and counts and a link to its own page,
/// the findings of all by kind, and each finding linked to its page.
pub(crate) fn render_index(dir: &std::path::Path, parts: &[Part]) -> String {
    let mut h = String::new();
    let mode = parts.first().map_or("run", |p| p.run.mode.name());
    let program: Vec<String> = parts.first().map(|p| p.run.program()).unwrap_or_default();
    let batch = parts.iter().any(|p| p.job.is_some());
    let title = if batch {
        format!("fpsym batch --mode {mode}: {}", program.join(" "))
    } else {
        format!("fpsym {mode} --all-functions: {}", program.join(" "))
    };
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<header><h1>{}</h1><p>{}</p></header>\n<main>\n",
        esc(&title),
        esc(&title),
        esc(&dir.display().to_string())
    );
    if batch {
        batch_summary(&mut h, parts);
    }
    let _ = writeln!(
        h,
        "<section id=\"functions\">\n<h2>Functions ({})</h2>\n<table>\n<tr><th>function</th>{}<th>verdict</th><th>stopped</th><th>findings</th><th>tests</th><th>native replay</th><th>report</th></tr>",
        parts.len(),
        if batch { "<th>file</th><th>status</th><th>seconds</th>" } else { "" }
    );
    for p in parts {
        let r = &p.run;
        let name = r
            .run
            .as_ref()
            .and_then(|x| x.entry.function().map(str::to_string))
            .unwrap_or_else(|| p.sub.clone());
        let (verdict, stop) = match &r.summary {
            Some(s) => {
                let (v, why) = verdict_words(&s.verdict);
                (
                    match why {
                        Some(w) => format!("{v}: {w}"),
                        None => v.to_string(),
                    },
                    s.stop.to_string(),
                )
            }
            None => ("none (no stats.json)".to_string(), String::new()),
        };
        let replay = match &r.replay {
            Some(x) if x.unconfirmed() + x.mismatched() == 0 => "<span class=\"ok\">all confirmed</span>".to_string(),
            Some(x) => format!(
                "<span class=\"bad\">{} unconfirmed, {} tests otherwise</span>",
                x.unconfirmed(),
                x.mismatched()
            ),
            None => String::new(),
        };
        let name = p.job.as_ref().map_or(name, |j| j.function.clone());
        let job_cells = match &p.job {
            Some(j) => format!(
                "<td><code>{}</code></td><td><span class=\"{}\" title=\"{}\">{}</span></td><td>{:.1}</td>",
                esc(&r.display_path(&j.file)),
                if j.status == crate::JobStatus::Crashed {
                    "bad"
                } else if j.status == crate::JobStatus::Done {
                    "ok"
                } else {
                    ""
                },
                esc(j.why.as_deref().unwrap_or("")),
                esc(j.status.name()),
                j.time
            ),
            None => String::new(),
        };
        let verdict = match (&r.summary, &p.job) {
            (None, Some(j)) => j.why.clone().unwrap_or_else(|| "none (no stats.json)".into()),
            _ => verdict,
        };
        let link = if r.dir.join(crate::HTML).is_file() {
            format!("<a href=\"{0}/report.html\">{0}/report.html</a>", esc(&p.sub))
        } else {
            "none (the run wrote no report)".to_string()
        };
        let _ = writeln!(
            h,
            "<tr><td><code>{}</code></td>{job_cells}<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{replay}</td><td>{link}</td></tr>",
            esc(&name),
            esc(&verdict),
            esc(&stop),
            r.findings.len(),
            r.tests.len(),
        );
    }
    h.push_str("</table>\n</section>\n");
    let all: Vec<(&Part, usize, &Finding)> = parts
        .iter()
        .flat_map(|p| p.run.findings.iter().enumerate().map(move |(i, f)| (p, i, f)))
        .collect();
    let _ = writeln!(
        h,
        "<section id=\"findings\" class=\"charts\">\n<h2>Findings ({})</h2>",
        all.len()
    );
    if all.is_empty() {
        h.push_str("<p>No finding.</p>\n");
    } else {
        let mut kinds: BTreeMap<&str, u64> = BTreeMap::new();
        for (_, _, f) in &all {
            *kinds.entry(f.kind.name()).or_default() += 1;
        }
        let bars: Vec<Bar> = kinds
            .iter()
            .enumerate()
            .map(|(i, (k, n))| Bar {
                label: k.to_string(),
                value: *n as f64,
                colour: PALETTE[i % PALETTE.len()],
                note: if *n == 1 { "finding".into() } else { "findings".into() },
            })
            .collect();
        h.push_str(&bar_chart("Findings by kind, all functions", &bars));
        h.push_str("<table>\n<tr><th>kind</th><th>at</th><th>message</th><th>details</th></tr>\n");
        for (p, i, f) in &all {
            let _ = writeln!(
                h,
                "<tr><td><span class=\"kind\">{}</span></td><td><code>{}:{}:{}</code></td><td>{}</td><td><a href=\"{}/report.html#finding-{}\">{}</a></td></tr>",
                esc(f.kind.name()),
                esc(&p.run.display_path(&f.file)),
                f.line,
                f.column,
                esc(&f.message),
                esc(&p.sub),
                i + 1,
                esc(&p.sub)
            );
        }
        h.push_str("</table>\n");
    }
    h.push_str("</section>\n");
    let _ = write!(
        h,
        "</main>\n<footer>Written by fpsym {} from the records of {}.</footer>\n</body>\n</html>\n",
        env!("CARGO_PKG_VERSION"),
        esc(&dir.display().to_string())
    );
    h
}

/// A batch's summary: functions by status and verdict, and per finding
/// kind the locations (kind, file, line), the functions and how many
/// findings native replay confirmed.
fn batch_summary(h: &mut String, parts: &[Part]) {
    let t = crate::Totals::of(parts.iter().filter_map(|p| p.job.as_ref()));
    let list = |m: Vec<(String, usize)>| {
        m.into_iter()
            .map(|(k, n)| format!("{n} {}", esc(&k)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    h.push_str("<section id=\"summary\">\n<h2>Summary</h2>\n<table>\n");
    row(h, "functions", &parts.len().to_string());
    row(
        h,
        "status",
        &list(t.status.iter().map(|(k, n)| (k.to_string(), *n)).collect()),
    );
    row(h, "verdicts", &list(t.verdicts.clone().into_iter().collect()));
    row(h, "seconds (all functions)", &format!("{:.1}", t.seconds));
    h.push_str("</table>\n");
    if !t.kinds.is_empty() {
        h.push_str("<h3>By kind</h3>\n<table>\n<tr><th>kind</th><th>findings</th><th>locations</th><th>functions</th><th>confirmed natively</th></tr>\n");
        for (k, kt) in &t.kinds {
            let conf = if kt.replayed == 0 {
                "not replayed".to_string()
            } else {
                format!("{} of {}", kt.confirmed, kt.replayed)
            };
            let _ = writeln!(
                h,
                "<tr><td><span class=\"kind\">{}</span></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(k),
                kt.findings,
                kt.locations.len(),
                kt.functions.len(),
                esc(&conf)
            );
        }
        h.push_str("</table>\n");
    }
    h.push_str("</section>\n");
}

/// A table row of a label and an already escaped cell.
fn row(h: &mut String, label: &str, cell_html: &str) {
    let _ = writeln!(h, "<tr><th>{}</th><td>{cell_html}</td></tr>", esc(label));
}

fn summary(h: &mut String, run: &RunDir) {
    h.push_str("<section id=\"summary\">\n<h2>Summary</h2>\n<table>\n");
    row(h, "mode", &format!("<code>fpsym {}</code>", esc(run.mode.name())));
    let program = run.program();
    if !program.is_empty() {
        row(
            h,
            "program",
            &program
                .iter()
                .map(|p| format!("<code>{}</code>", esc(p)))
                .collect::<Vec<_>>()
                .join(" "),
        );
    }
    if let Some(r) = &run.run {
        let entry = match r.entry.function() {
            Some(f) => format!("function <code>{}</code>", esc(f)),
            None => "<code>main</code>".into(),
        };
        row(h, "entry", &entry);
        if let Some(p) = &r.property {
            row(h, "property", &esc(p.name()));
        }
    }
    match &run.summary {
        Some(s) => {
            let (v, why) = verdict_words(&s.verdict);
            let class = match v {
                "bug found" => "v-bug",
                "verified" | "infeasible" => "v-ok",
                "feasible" => "v-bug",
                _ => "v-inc",
            };
            let why_text = why
                .map(str::to_string)
                .or_else(|| s.incomplete.as_ref().map(|i| format!("not every path was explored exactly: {i}")));
            let mut cell = format!("<span class=\"verdict {class}\" id=\"verdict\">{}</span>", esc(v));
            if let Some(w) = why_text {
                let _ = write!(cell, " <span class=\"note\">why: {}</span>", esc(&w));
            } else if v == "verified" {
                cell.push_str(
                    " <span class=\"note\">why: every path was explored exactly, nothing concretized, no finding</span>",
                );
            }
            if run.mode == Mode::Error {
                // `fpsym error` searches by re-running inputs; its stats
                // are of the worst input run once more as a test. That
                // run's verdict proves nothing of the error: a grey badge
                // that says what the run did (never a green "verified"
                // beside a large error).
                let did = match v {
                    "verified" => "ran to its end, no finding",
                    "bug found" => "bug found",
                    _ => "incomplete",
                };
                let class = if v == "bug found" { "v-bug" } else { "v-none" };
                cell = format!("<span class=\"verdict {class}\" id=\"verdict\">{}</span>", esc(did));
                if let Some(ModeRecord::Error(e)) = &run.record {
                    let max = match e.max_relative_error.get() {
                        x if x.is_finite() => format!("{x:.6e}"),
                        _ => "\"inf\"".to_string(),
                    };
                    row(h, "max relative error", &format!("<b>{}</b>", esc(&max)));
                }
                row(h, "the worst input's run", &cell);
            } else {
                row(h, "verdict", &cell);
            }
            row(h, "stopped", &format!("{} (<code>{}</code>)", esc(&s.stop.to_string()), esc(s.stop.kind())));
            if let Some(sv) = &s.sv_comp {
                row(h, "SV-COMP", &format!("<code>{}</code>", esc(sv)));
            }
            let st = &s.stats;
            row(
                h,
                "paths",
                &format!(
                    "{} completed, {} partial, {} infeasible",
                    st.paths_completed, st.paths_partial, st.paths_infeasible
                ),
            );
            row(h, "tests / findings", &format!("{} / {}", st.tests, st.findings));
            if st.branches_total > 0 {
                row(
                    h,
                    "branch coverage (LLVM IR)",
                    &format!(
                        "{} / {} ({:.1}%)",
                        st.branches_covered,
                        st.branches_total,
                        100.0 * st.branches_covered as f64 / st.branches_total as f64
                    ),
                );
            }
            row(
                h,
                "work",
                &format!(
                    "{} instructions, {} states, {} solver queries ({:.2} s in the solver)",
                    st.instructions, st.states, st.queries, st.solver_seconds
                ),
            );
            if st.dropped + st.retries + st.excluded > 0 {
                row(
                    h,
                    "undecided branches",
                    &format!(
                        "{} dropped, {} retried ({} recovered, {} found infeasible), {} excluded",
                        st.dropped, st.retries, st.recovered, st.recovered_infeasible, st.excluded
                    ),
                );
            }
            row(h, "time", &format!("{:.2} s", st.seconds));
        }
        None => row(
            h,
            "verdict",
            "<span class=\"verdict v-none\" id=\"verdict\">none</span> <span class=\"note\">no stats.json: the run did not finish (killed?); this page shows what it had written</span>",
        ),
    }
    match &run.replay {
        Some(r) => {
            let findings_ok = r.findings.len() - r.unconfirmed();
            let cls = if r.unconfirmed() + r.mismatched() == 0 {
                "ok"
            } else {
                "bad"
            };
            row(
                h,
                "native replay",
                &format!(
                    "<span class=\"{cls}\">{findings_ok} of {} findings confirmed; {} of {} tests behaving otherwise</span>",
                    r.findings.len(),
                    r.mismatched(),
                    r.tests.len()
                ),
            );
            if let Some(c) = &r.coverage {
                row(
                    h,
                    "native coverage",
                    &format!(
                        "lines {}/{} ({:.1}%), branches {}/{} ({:.1}%)",
                        c.lines.covered,
                        c.lines.count,
                        c.lines.percent,
                        c.branches.covered,
                        c.branches.count,
                        c.branches.percent
                    ),
                );
            }
        }
        None => row(
            h,
            "native replay",
            "<span class=\"note\">not run (<code>fpsym replay DIR</code>, or <code>--replay</code>)</span>",
        ),
    }
    h.push_str("</table>\n");
    if !run.problems.is_empty() {
        h.push_str("<h3>Unreadable records</h3>\n<ul>\n");
        for p in &run.problems {
            let _ = writeln!(h, "<li class=\"problem\">{}</li>", esc(p));
        }
        h.push_str("</ul>\n");
    }
    h.push_str("</section>\n");
}

fn pictures(h: &mut String, run: &RunDir) {
    h.push_str("<section id=\"pictures\" class=\"charts\">\n<h2>Pictures</h2>\n");
    match run.mode {
        Mode::Error => error_pictures(h, run),
        Mode::Exceptions => exception_pictures(h, run),
        Mode::Critical => critical_table(h, run),
        Mode::Path => path_table(h, run),
        Mode::Run => {
            if !run.findings.is_empty() {
                h.push_str(&bar_chart("Findings by kind", &by_kind(run)));
            }
        }
    }
    progress_pictures(h, run);
    h.push_str("</section>\n");
}

/// Paths, tests, findings and branch coverage over time.
fn progress_pictures(h: &mut String, run: &RunDir) {
    let p = &run.progress;
    if p.is_empty() {
        h.push_str("<p class=\"note\">No progress samples (<code>progress.jsonl</code>) in this directory.</p>\n");
        return;
    }
    // Every counter is 0 when the engine starts.
    let pts = |f: &dyn Fn(&crate::ProgressSample) -> f64| {
        let origin = (p[0].seconds > 0.0).then_some((0.0, 0.0));
        origin
            .into_iter()
            .chain(p.iter().map(|s| (s.seconds, f(s))))
            .collect::<Vec<_>>()
    };
    let series = [
        Series {
            name: "paths".into(),
            colour: PALETTE[0],
            points: pts(&|s| s.paths as f64),
        },
        Series {
            name: "tests".into(),
            colour: PALETTE[2],
            points: pts(&|s| s.tests as f64),
        },
        Series {
            name: "findings".into(),
            colour: PALETTE[1],
            points: pts(&|s| s.findings as f64),
        },
    ];
    h.push_str(&line_chart(
        "Paths, tests and findings over time",
        "seconds",
        "count",
        &series,
        None,
    ));
    let total = p.iter().map(|s| s.branches_total).max().unwrap_or(0);
    if total > 0 {
        let cov = Series {
            name: format!("branch edges covered (of {total})"),
            colour: PALETTE[3],
            points: pts(&|s| 100.0 * s.branches_covered as f64 / s.branches_total.max(1) as f64),
        };
        h.push_str(&line_chart(
            "Branch coverage (LLVM IR) over time",
            "seconds",
            "% of branch edges",
            &[cov],
            Some(100.0),
        ));
    }
}

/// Findings by kind: locations, and input-location pairs where counted.
fn by_kind(run: &RunDir) -> Vec<Bar> {
    let counted = run.findings.iter().any(|f| f.inputs.is_some());
    let mut kinds: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for f in &run.findings {
        let e = kinds.entry(f.kind.name()).or_default();
        e.0 += 1;
        e.1 += f.inputs.unwrap_or(1);
    }
    kinds
        .iter()
        .enumerate()
        .map(|(i, (k, (locs, pairs)))| Bar {
            label: k.to_string(),
            value: *locs as f64,
            colour: PALETTE[i % PALETTE.len()],
            note: if counted {
                format!(
                    "location{} ({pairs} input-location pair{})",
                    if *locs == 1 { "" } else { "s" },
                    if *pairs == 1 { "" } else { "s" }
                )
            } else {
                format!("location{}", if *locs == 1 { "" } else { "s" })
            },
        })
        .collect()
}

fn exception_pictures(h: &mut String, run: &RunDir) {
    let exc: Vec<&Finding> = run.findings.iter().filter(|f| is_exception_kind(&f.kind)).collect();
    if exc.is_empty() {
        h.push_str("<p>No floating-point exception was found.</p>\n");
        return;
    }
    h.push_str(&bar_chart("Exceptions by kind (locations)", &by_kind(run)));
    let kinds: Vec<&str> = {
        let mut k: Vec<&str> = run.findings.iter().map(|f| f.kind.name()).collect();
        k.sort_unstable();
        k.dedup();
        k
    };
    let mut by_loc: Vec<Bar> = exc
        .iter()
        .map(|f| {
            let i = kinds.iter().position(|k| *k == f.kind.name()).unwrap_or(0);
            let mut note = f.kind.to_string();
            match f.avoidable {
                Some(true) => note.push_str(", avoidable"),
                Some(false) => note.push_str(", unavoidable"),
                None => {}
            }
            Bar {
                label: format!("{}:{}:{}", run.display_path(&f.file), f.line, f.column),
                value: f.inputs.unwrap_or(1) as f64,
                colour: PALETTE[i % PALETTE.len()],
                note,
            }
        })
        .collect();
    by_loc.sort_by(|a, b| b.value.total_cmp(&a.value));
    let more = by_loc.len().saturating_sub(MAX_LOCATIONS);
    by_loc.truncate(MAX_LOCATIONS);
    let title = if more > 0 {
        format!("Exceptions by location (inputs found; {more} more locations not shown)")
    } else {
        "Exceptions by location (inputs found)".to_string()
    };
    h.push_str(&bar_chart(&title, &by_loc));
}

fn error_pictures(h: &mut String, run: &RunDir) {
    let Some(ModeRecord::Error(e)) = &run.record else {
        h.push_str("<p class=\"note\">No error.json in this directory.</p>\n");
        return;
    };
    h.push_str("<table>\n");
    let metric = e.metric.as_str();
    let max = e.max_error.get();
    let max_error = if max.is_finite() {
        format!("{max:.6e}")
    } else {
        "inf".to_string()
    };
    row(
        h,
        &format!("max {metric} error"),
        &format!("<b id=\"max-error\">{}</b>", esc(&max_error)),
    );
    row(h, "result", &format!("<code>{}</code>", esc(&e.output)));
    row(h, "computed", &format!("<code>{}</code>", esc(&e.computed)));
    row(h, "exact", &format!("<code>{}</code>", esc(&e.exact)));
    let worst: Vec<(String, String)> = e
        .inputs
        .iter()
        .map(|i| {
            let mut v = i.decimal.clone();
            if let Some(hx) = &i.hex {
                v.push_str(&format!(" ({hx})"));
            }
            (i.name.clone(), v)
        })
        .collect();
    row(
        h,
        "worst input",
        &worst
            .iter()
            .map(|(n, v)| format!("<code>{} = {}</code>", esc(n), esc(v)))
            .collect::<Vec<_>>()
            .join("<br>"),
    );
    row(h, "inputs measured", &esc(&e.measured.to_string()));
    row(h, "strategy", &esc(&e.strategy));
    row(h, "reference precision (bits)", &esc(&e.precision.to_string()));
    h.push_str("</table>\n");
    if !e.diagnosis.sites.is_empty() {
        h.push_str("<h3>Where bits were lost (worst input)</h3>\n<table>\n<tr><th>at</th><th>bits cancelled</th><th>bits lost</th><th>runs</th></tr>\n");
        for s in &e.diagnosis.sites {
            let _ = writeln!(
                h,
                "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&s.at),
                s.bits_cancelled,
                s.bits_lost,
                s.runs
            );
        }
        h.push_str("</table>\n");
    }
    let samples = &e.samples;
    let names = &samples.inputs;
    let points: Vec<(Vec<f64>, f64)> = samples
        .points
        .iter()
        .map(|p| {
            let vals = p.values.iter().map(|v| v.trim().parse().unwrap_or(f64::NAN)).collect();
            (vals, p.error.get())
        })
        .collect();
    if points.is_empty() || names.is_empty() {
        h.push_str(
            "<p class=\"note\">error.json keeps no samples of the inputs measured (written by an older fpsym).</p>\n",
        );
        return;
    }
    let measured = samples.measured;
    let _ = writeln!(
        h,
        "<p class=\"note\">{} of the {measured} inputs measured (the first and the last ones) against the {metric} error of the result; the worst input is circled.</p>",
        points.len()
    );
    let worst_error = Some(max);
    for (k, name) in names.iter().enumerate().take(MAX_SCATTERS) {
        let pts: Vec<(f64, f64)> = points
            .iter()
            .map(|(v, err)| (v.get(k).copied().unwrap_or(f64::NAN), *err))
            .collect();
        let worst = worst
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.split(' ').next()?.parse::<f64>().ok())
            .zip(worst_error);
        h.push_str(&error_scatter(
            &format!("{} error against {name}", capitalised(metric)),
            name,
            &pts,
            worst,
        ));
    }
    if names.len() > MAX_SCATTERS {
        let _ = writeln!(
            h,
            "<p class=\"note\">{} more inputs not plotted.</p>",
            names.len() - MAX_SCATTERS
        );
    }
}

/// `s` with its first letter upper-case.
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn critical_table(h: &mut String, run: &RunDir) {
    let Some(ModeRecord::Critical(c)) = &run.record else {
        return;
    };
    h.push_str("<table>\n<tr><th>result</th><th>real range</th><th>float range</th><th>below</th><th>above</th><th>NaN</th></tr>\n");
    let answer = |a: &Answer| {
        let mut s = a.name().to_string();
        match a {
            Answer::Sat { test, .. } => s.push_str(&format!(" (test {test:06})")),
            Answer::Unsat { why: Some(w) } | Answer::Unknown { why: w } if !w.is_empty() => {
                s.push_str(&format!(": {w}"))
            }
            _ => {}
        }
        s
    };
    for x in &c.expects {
        let fr = &x.float_range;
        let _ = writeln!(
            h,
            "<tr><td><code>{}</code></td><td>[{}, {}]</td><td>[{}, {}]</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&x.what),
            esc(&x.lo),
            esc(&x.hi),
            esc(fr.lo.as_deref().unwrap_or("?")),
            esc(fr.hi.as_deref().unwrap_or("?")),
            esc(&answer(&x.below)),
            esc(&answer(&x.above)),
            esc(&answer(&x.nan))
        );
    }
    h.push_str("</table>\n");
}

fn path_table(h: &mut String, run: &RunDir) {
    let p = match &run.record {
        Some(ModeRecord::Path(p)) => {
            let _ = writeln!(h, "<p>Path asked for: <code>{}</code></p>", esc(&p.spec));
            return;
        }
        Some(ModeRecord::AllPaths(p)) => p,
        _ => return,
    };
    let count = |n: usize| n as f64;
    let bars = vec![
        Bar {
            label: "feasible".into(),
            value: count(p.feasible),
            colour: PALETTE[2],
            note: "paths".into(),
        },
        Bar {
            label: "infeasible".into(),
            value: count(p.infeasible),
            colour: PALETTE[1],
            note: "paths".into(),
        },
        Bar {
            label: "unknown".into(),
            value: count(p.unknown),
            colour: PALETTE[4],
            note: "paths".into(),
        },
    ];
    h.push_str(&bar_chart("Paths by verdict", &bars));
    {
        h.push_str("<table>\n<tr><th>#</th><th>verdict</th><th>ending</th><th>path</th></tr>\n");
        for x in p.paths.iter().take(200) {
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td></tr>",
                x.index,
                esc(&x.verdict),
                esc(&x.ending),
                esc(&x.path)
            );
        }
        h.push_str("</table>\n");
    }
}

/// The rows of an input table for one object (its elements one by one).
fn object_rows(h: &mut String, o: &TestObject) {
    if o.elements.is_empty() {
        let _ = writeln!(
            h,
            "<tr><td><code>{}</code></td><td>{}</td><td><code>{}</code></td><td><code>{}</code></td></tr>",
            esc(&o.name),
            esc(&o.ty),
            esc(o.value.as_deref().unwrap_or(&format!("bytes {}", o.bytes))),
            esc(o.hex.as_deref().unwrap_or(""))
        );
    } else {
        for e in &o.elements {
            let _ = writeln!(
                h,
                "<tr><td><code>{}</code></td><td>{}</td><td><code>{}</code></td><td><code>{}</code></td></tr>",
                esc(&e.name),
                esc(&e.ty),
                esc(&e.value),
                esc(e.hex.as_deref().unwrap_or(""))
            );
        }
    }
}

/// The lines around `line` of `file` (with a caret under `column`), as a
/// table; nothing when the file cannot be read.
fn excerpt(h: &mut String, run: &RunDir, file: &str, line: u32, column: u32) {
    let Some(lines) = run.source_lines(file) else {
        let _ = writeln!(h, "<p class=\"note\">(source {} not readable here)</p>", esc(file));
        return;
    };
    if line == 0 || line as usize > lines.len() {
        return;
    }
    let at = line as usize;
    let from = at.saturating_sub(CONTEXT).max(1);
    let to = (at + CONTEXT).min(lines.len());
    let counts: BTreeMap<u32, u64> = run
        .replay
        .as_ref()
        .and_then(|r| r.coverage.as_ref())
        .and_then(|c| {
            c.lines_of(&run.source_path(file)?.to_string_lossy())
                .or_else(|| c.lines_of(file))
        })
        .map(|f| f.lines.iter().copied().collect())
        .unwrap_or_default();
    h.push_str("<table class=\"src\">\n");
    for n in from..=to {
        let class = if n == at { " class=\"hit\"" } else { "" };
        let count = counts.get(&(n as u32)).map(|c| format!("{c}×")).unwrap_or_default();
        let _ = writeln!(
            h,
            "<tr{class}><td class=\"n\">{n}</td><td class=\"n\">{}</td><td class=\"t\">{}</td></tr>",
            esc(&count),
            esc(&lines[n - 1])
        );
        if n == at && column > 0 {
            // The caret under the column (tabs kept so it lines up).
            let chars = crate::reports::char_column(&lines[n - 1], column);
            let pad: String = lines[n - 1]
                .chars()
                .take(chars as usize - 1)
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            let _ = writeln!(
                h,
                "<tr><td class=\"n\"></td><td class=\"n\"></td><td class=\"caret\">{}^</td></tr>",
                esc(&pad)
            );
        }
    }
    h.push_str("</table>\n");
}

fn findings(h: &mut String, run: &RunDir) {
    let _ = writeln!(
        h,
        "<section id=\"findings\">\n<h2>Findings ({})</h2>",
        run.findings.len()
    );
    if run.findings.is_empty() {
        h.push_str("<p>No finding.</p>\n</section>\n");
        return;
    }
    for (i, f) in run.findings.iter().enumerate() {
        let place = format!("{}:{}:{}", run.display_path(&f.file), f.line, f.column);
        let _ = writeln!(
            h,
            "<div class=\"finding\" id=\"finding-{}\">\n<h3><span class=\"kind\">{}</span> at <code>{}</code></h3>",
            i + 1,
            esc(f.kind.name()),
            esc(&place)
        );
        let message = if f.message.is_empty() {
            describe_kind(&f.kind).0
        } else {
            f.message.clone()
        };
        let _ = writeln!(h, "<p class=\"message\">{}</p>", esc(&message));
        let mut facts: Vec<String> = Vec::new();
        match run.confirmed(i, f) {
            Some(true) => facts.push("<span class=\"ok\">confirmed by native replay</span>".into()),
            Some(false) => facts.push("<span class=\"bad\">not confirmed by native replay</span>".into()),
            None => {}
        }
        if let Some(n) = f.inputs {
            facts.push(format!("{n} distinct inputs reach it"));
        }
        match f.avoidable {
            Some(true) => facts.push("avoidable (the exact result is in range)".into()),
            Some(false) => facts.push("unavoidable (the exact result is out of range too)".into()),
            None => {}
        }
        if let Some(op) = &f.operation {
            let mut s = format!("operation <code>{}</code>", esc(op));
            if !f.operands.is_empty() {
                let _ = write!(s, " on <code>{}</code>", esc(&f.operands.join(", ")));
            }
            if let Some(r) = &f.result {
                let _ = write!(s, " gives <code>{}</code>", esc(r));
            }
            facts.push(s);
        }
        if f.stack.len() > 1 {
            facts.push(format!(
                "call stack (innermost first): <code>{}</code>",
                esc(&stack_text(run, f, " ← "))
            ));
        }
        if !facts.is_empty() {
            let _ = writeln!(h, "<p class=\"note\">{}</p>", facts.join(" · "));
        }
        excerpt(h, run, &f.file, f.line, f.column);
        match run.test(f.test) {
            Some(t) => {
                let _ = writeln!(
                    h,
                    "<p>Input (test {:06}, <code>tests/{:06}.json</code>):</p>\n<table class=\"inputs\">\n<tr><th>name</th><th>type</th><th>value</th><th>hex float</th></tr>",
                    t.id, t.id
                );
                for o in &t.objects {
                    object_rows(h, o);
                }
                if t.objects.is_empty() {
                    h.push_str("<tr><td colspan=\"4\">no inputs</td></tr>\n");
                }
                h.push_str("</table>\n");
            }
            None => {
                let _ = writeln!(h, "<p class=\"problem\">test {:06} is missing</p>", f.test);
            }
        }
        h.push_str("</div>\n");
    }
    h.push_str("</section>\n");
}

fn coverage(h: &mut String, run: &RunDir) {
    let Some(c) = run.replay.as_ref().and_then(|r| r.coverage.as_ref()) else {
        return;
    };
    let _ = writeln!(
        h,
        "<section id=\"coverage\">\n<h2>Native coverage</h2>\n<p>Lines {}/{} ({:.1}%), branches {}/{} ({:.1}%) of your files over all tests (llvm-cov). Each line with code shows how often the tests ran it: green ran, red never ran.</p>",
        c.lines.covered, c.lines.count, c.lines.percent, c.branches.covered, c.branches.count, c.branches.percent
    );
    if c.files.is_empty() {
        h.push_str("<p class=\"note\">replay.json has no per-line counts (written by an older fpsym).</p>\n");
    }
    for file in &c.files {
        let _ = writeln!(h, "<h3><code>{}</code></h3>", esc(&run.display_path(&file.file)));
        let Some(lines) = run.source_lines(&file.file) else {
            let _ = writeln!(h, "<p class=\"note\">(source not readable here)</p>");
            continue;
        };
        let counts: BTreeMap<u32, u64> = file.lines.iter().copied().collect();
        h.push_str("<table class=\"src listing\">\n");
        for (i, text) in lines.iter().enumerate().take(MAX_LISTING) {
            let n = i as u32 + 1;
            let (class, count) = match counts.get(&n) {
                Some(0) => (" class=\"unc\"", "0".to_string()),
                Some(c) => (" class=\"cov\"", c.to_string()),
                None => ("", String::new()),
            };
            let _ = writeln!(
                h,
                "<tr{class}><td class=\"n\">{n}</td><td class=\"n c\">{count}</td><td class=\"t\">{}</td></tr>",
                esc(text)
            );
        }
        h.push_str("</table>\n");
        if lines.len() > MAX_LISTING {
            let _ = writeln!(
                h,
                "<p class=\"note\">{} more lines not shown.</p>",
                lines.len() - MAX_LISTING
            );
        }
    }
    h.push_str("</section>\n");
}

fn tests(h: &mut String, run: &RunDir) {
    let _ = writeln!(h, "<section id=\"tests\">\n<h2>Tests ({})</h2>", run.tests.len());
    if run.tests.is_empty() {
        h.push_str("<p>No test was written.</p>\n</section>\n");
        return;
    }
    let replayed: BTreeMap<u64, &crate::TestResult> = run
        .replay
        .as_ref()
        .map(|r| r.tests.iter().map(|t| (t.test, t)).collect())
        .unwrap_or_default();
    h.push_str("<table>\n<tr><th>test</th><th>end</th><th>input</th><th>native</th></tr>\n");
    for t in run.tests.iter().take(MAX_TESTS) {
        let native = match replayed.get(&t.id) {
            Some(r) if r.confirmed => "<span class=\"ok\">as recorded</span>".to_string(),
            Some(r) => format!("<span class=\"bad\">{}</span>", esc(r.observed.kind.name())),
            None => String::new(),
        };
        let _ = writeln!(
            h,
            "<tr><td>{:06}</td><td>{}</td><td class=\"mono\">{}</td><td>{native}</td></tr>",
            t.id,
            esc(&t.end.to_string()),
            esc(&inputs_text(t))
        );
    }
    h.push_str("</table>\n");
    if run.tests.len() > MAX_TESTS {
        let _ = writeln!(
            h,
            "<p class=\"note\">{} more tests in <code>tests/</code>.</p>",
            run.tests.len() - MAX_TESTS
        );
    }
    h.push_str("</section>\n");
}

fn events(h: &mut String, run: &RunDir) {
    if run.events.is_empty() {
        return;
    }
    let _ = writeln!(
        h,
        "<section id=\"events\">\n<h2>Events ({})</h2>\n<p class=\"note\">Where the analysis was not exact (a verdict depending on these is incomplete) or a path stopped.</p>\n<table>\n<tr><th>event</th><th>where</th><th>what</th></tr>",
        run.events.len()
    );
    for e in run.events.iter().take(MAX_EVENTS) {
        let (name, loc) = match e {
            Event::Concretized { loc, .. } => ("concretized", loc),
            Event::ExternalCall { loc, .. } => ("external call", loc),
            Event::BranchDropped { loc, .. } => ("branch dropped", loc),
            Event::CheckUndecided { loc, .. } => ("check undecided", loc),
            Event::PathStopped { loc, .. } => ("path stopped", loc),
            Event::FuzzFinding { loc, .. } => ("found by fuzzing", loc),
        };
        let at = loc
            .as_ref()
            .map(|l| format!("{}:{}:{}", run.display_path(&l.file), l.line, l.column))
            .unwrap_or_default();
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td><code>{}</code></td><td>{}</td></tr>",
            esc(name),
            esc(&at),
            esc(&e.describe())
        );
    }
    h.push_str("</table>\n");
    if run.events.len() > MAX_EVENTS {
        let _ = writeln!(
            h,
            "<p class=\"note\">{} more in <code>events.jsonl</code>.</p>",
            run.events.len() - MAX_EVENTS
        );
    }
    h.push_str("</section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FindingKind, PathEnd, Test};

    #[test]
    fn text_is_escaped_and_sections_are_there() {
        let dir = std::env::temp_dir().join(format!("fpsym-html-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let src = dir.join("p.c");
        std::fs::write(
            &src,
            "int main(void) {\n  int x = 1;\n  assert(x < 0 && \"<script>\");\n}\n",
        )
        .unwrap();
        let run = RunDir {
            dir: dir.clone(),
            base: Some(dir.clone()),
            run: None,
            summary: None,
            tests: vec![Test {
                id: 1,
                objects: vec![],
                end: PathEnd::Error(FindingKind::AssertionFailure),
            }],
            findings: vec![Finding {
                kind: FindingKind::AssertionFailure,
                file: src.to_string_lossy().into_owned(),
                line: 3,
                column: 3,
                stack: vec!["main".into()],
                test: 1,
                message: "assertion `<b>&` failed".into(),
                inputs: None,
                avoidable: None,
                operation: None,
                operands: vec![],
                result: None,
            }],
            events: vec![],
            replay: None,
            progress: vec![],
            mode: Mode::Run,
            record: None,
            problems: vec![],
        };
        let page = render(&run);
        assert!(page.contains("assertion `&lt;b&gt;&amp;` failed"), "{page}");
        assert!(page.contains("&quot;&lt;script&gt;&quot;"), "{page}");
        assert!(!page.contains("<script"), "{page}");
        assert!(page.contains("<tr class=\"hit\"><td class=\"n\">3</td>"), "{page}");
        assert!(page.contains("no stats.json"), "{page}");
        assert!(page.contains("<svg"), "findings by kind: {page}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
