//! `report.sarif`: the findings as SARIF 2.1.0 (OASIS), for code-scanning
//! pages (GitHub's `upload-sarif`) and editors.
//!
//! One run; the tool's driver lists a rule per finding kind used; one
//! result per finding with its kind as `ruleId`, its place (the file
//! relative to the working directory when under it), the call stack both
//! as a SARIF `stack` (innermost frame first) and as a code flow (in
//! execution order: the outermost call first, the finding last), and the
//! triggering input (the test's objects) in `properties`. The invocation
//! says whether the run finished (a run killed before `stats.json` was
//! written, or stopped by a solver fault, did not) and carries the
//! events as notifications.

use crate::reports::{inputs_text, parse_frame, Part, Place, RunDir};
use crate::{Event, Finding, FindingKind, ReportError, StopReason, Verdict};
use serde_json::{json, Value};

/// The SARIF 2.1.0 schema's published location.
pub(crate) const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// Events kept as notifications (the rest are counted).
const MAX_NOTIFICATIONS: usize = 200;

/// What a finding kind is, in a sentence (the rule's description), and its
/// SARIF level.
pub(crate) fn describe_kind(k: &FindingKind) -> (String, &'static str) {
    match k {
        FindingKind::Custom(name) => (format!("A finding of the custom check `{name}`."), "warning"),
        k => k.info().map_or((String::new(), "warning"), |i| {
            (i.description.to_string(), i.level.name())
        }),
    }
}

/// `assertion-failure` as `AssertionFailure` (SARIF's rule `name`).
fn pascal_case(kebab: &str) -> String {
    kebab
        .split('-')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// A file as a SARIF URI reference: relative to `%SRCROOT%` (the working
/// directory) when under it, else a `file://` URI; characters outside
/// RFC 3986's unreserved set and `/` percent-encoded.
fn artifact(run: &RunDir, file: &str) -> Value {
    let found = run.source_path(file).unwrap_or_else(|| file.into());
    match run.relative(&found) {
        Some(rel) => json!({"uri": percent_encode(&rel), "uriBaseId": "%SRCROOT%"}),
        None if found.is_absolute() => json!({"uri": format!("file://{}", percent_encode(&found.to_string_lossy()))}),
        None => json!({"uri": percent_encode(&found.to_string_lossy())}),
    }
}

/// Percent-encodes all but `A-Z a-z 0-9 - . _ ~ /`.
fn percent_encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A physical location; the region only with a known line (SARIF's lines
/// and columns start at 1).
fn physical(run: &RunDir, file: &str, line: u32, column: u32) -> Value {
    let mut p = json!({"artifactLocation": artifact(run, file)});
    if line > 0 {
        let mut region = json!({"startLine": line});
        if column > 0 {
            // `columnKind` is `unicodeCodePoints`; the records count bytes.
            region["startColumn"] = json!(run.char_column(file, line, column));
        }
        p["region"] = region;
    }
    p
}

/// A location with a message (and the function, as a logical location).
fn location(
    run: &RunDir,
    file: &str,
    line: u32,
    column: u32,
    function: Option<&str>,
    message: Option<String>,
) -> Value {
    let mut l = json!({"physicalLocation": physical(run, file, line, column)});
    if let Some(f) = function {
        l["logicalLocations"] = json!([{"name": f, "kind": "function"}]);
    }
    if let Some(m) = message {
        l["message"] = json!({ "text": m });
    }
    l
}

/// The frames of a finding's stack, innermost first: (function, where in
/// it: the finding's place for the innermost, the call for the others).
fn frames(f: &Finding) -> Vec<(String, Option<Place>)> {
    let parsed: Vec<(String, Option<Place>)> = f.stack.iter().map(parse_frame).collect();
    let mut out = Vec::new();
    for (i, (function, _)) in parsed.iter().enumerate() {
        let at = if i == 0 {
            Some((f.file.clone(), f.line, f.column))
        } else {
            // Frame i called frame i-1 at the place frame i-1 records.
            parsed[i - 1].1.clone()
        };
        out.push((function.clone(), at));
    }
    if out.is_empty() {
        out.push(("?".into(), Some((f.file.clone(), f.line, f.column))));
    }
    out
}

/// The SARIF result of the `index`-th finding.
fn result(run: &RunDir, index: usize, f: &Finding, rule_index: usize) -> Value {
    let (described, level) = describe_kind(&f.kind);
    let place = format!("{}:{}:{}", run.display_path(&f.file), f.line, f.column);
    let test = run.test(f.test);
    let what = if f.message.is_empty() {
        described.trim_end_matches('.').to_string()
    } else {
        f.message.clone()
    };
    let mut text = format!("{}: {what} (test {:06}", f.kind, f.test);
    if let Some(t) = test {
        text.push_str(&format!("; input: {}", inputs_text(t)));
    }
    text.push(')');
    let stack_frames: Vec<Value> = frames(f)
        .into_iter()
        .map(|(function, at)| match at {
            Some((file, line, col)) => json!({"location": location(run, &file, line, col, Some(&function), None)}),
            None => json!({"location": {"logicalLocations": [{"name": function, "kind": "function"}]}}),
        })
        .collect();
    // Execution order for the code flow: the outermost call first.
    let frames_in = frames(f);
    let depth = frames_in.len();
    let flow: Vec<Value> = frames_in
        .iter()
        .enumerate()
        .rev()
        .filter_map(|(i, (function, at))| {
            let (file, line, col) = at.clone()?;
            let message = if i == 0 {
                format!("{}: {what}", f.kind)
            } else {
                format!("{function} calls {}", frames_in[i - 1].0)
            };
            Some(json!({
                "location": location(run, &file, line, col, Some(function), Some(message)),
                "nestingLevel": depth - 1 - i,
            }))
        })
        .collect();
    let mut properties = json!({
        "test": f.test,
        "testFile": format!("tests/{:06}.json", f.test),
    });
    if let Some(t) = test {
        properties["input"] = serde_json::to_value(&t.objects).unwrap_or(Value::Null);
    }
    if let Some(c) = run.confirmed(index, f) {
        properties["confirmedByReplay"] = json!(c);
    }
    if let Some(n) = f.inputs {
        properties["inputs"] = json!(n);
    }
    if let Some(a) = f.avoidable {
        properties["avoidable"] = json!(a);
    }
    if let Some(o) = &f.operation {
        properties["operation"] = json!(o);
    }
    if !f.operands.is_empty() {
        properties["operands"] = json!(f.operands);
    }
    if let Some(r) = &f.result {
        properties["result"] = json!(r);
    }
    let mut r = json!({
        "ruleId": f.kind.name(),
        "ruleIndex": rule_index,
        "level": level,
        "message": {"text": text},
        "locations": [location(run, &f.file, f.line, f.column, f.stack.first().map(|s| parse_frame(s).0).as_deref(), None)],
        "partialFingerprints": {"fpsymFinding/v1": format!("{}:{place}", f.kind)},
        "stacks": [{"message": {"text": "call stack, innermost first"}, "frames": stack_frames}],
        "properties": properties,
    });
    if !flow.is_empty() {
        r["codeFlows"] = json!([{
            "message": {"text": "the calls leading to the finding"},
            "threadFlows": [{"locations": flow}],
        }]);
    }
    r
}

/// An event as a notification.
fn notification(run: &RunDir, e: &Event) -> Value {
    let (loc, id) = match e {
        Event::Concretized { loc, .. } => (loc, "concretized"),
        Event::ExternalCall { loc, .. } => (loc, "external-call"),
        Event::BranchDropped { loc, .. } => (loc, "branch-dropped"),
        Event::CheckUndecided { loc, .. } => (loc, "check-undecided"),
        Event::PathStopped { loc, .. } => (loc, "path-stopped"),
        Event::FuzzFinding { loc, .. } => (loc, "fuzz-finding"),
    };
    let mut n = json!({
        "message": {"text": e.describe()},
        "level": if e.makes_incomplete() { "warning" } else { "note" },
        "descriptor": {"id": id},
    });
    if let Some(l) = loc {
        n["locations"] = json!([location(run, &l.file, l.line, l.column, None, None)]);
    }
    n
}

/// The whole SARIF log of one run directory.
#[cfg(test)]
pub(crate) fn log(run: &RunDir) -> Value {
    log_of(&[Part {
        sub: String::new(),
        run: run.clone(),
        job: None,
    }])
}

/// The whole SARIF log of run directories (one, or the per-function ones
/// of `--all-functions`): one SARIF run (code-scanning pages take one run
/// per tool), a rule per kind used, the results of every part (a part's
/// test files named from the top directory), an invocation per part.
pub(crate) fn log_of(parts: &[Part]) -> Value {
    let mut kinds: Vec<&FindingKind> = Vec::new();
    for f in parts.iter().flat_map(|p| &p.run.findings) {
        if !kinds.contains(&&f.kind) {
            kinds.push(&f.kind);
        }
    }
    let rules: Vec<Value> = kinds
        .iter()
        .map(|k| {
            let (text, level) = describe_kind(k);
            json!({
                "id": k.name(),
                "name": pascal_case(k.name()),
                "shortDescription": {"text": text},
                "fullDescription": {"text": format!("{text} Every finding comes with a test (its inputs) that triggers it; `fpsym replay` runs it natively.")},
                "defaultConfiguration": {"level": level},
                "properties": {"tags": if crate::reports::is_exception_kind(k) { vec!["floating-point"] } else { vec!["correctness"] }},
            })
        })
        .collect();
    let mut results: Vec<Value> = Vec::new();
    let mut invocations: Vec<Value> = Vec::new();
    for part in parts {
        let run = &part.run;
        for (i, f) in run.findings.iter().enumerate() {
            let rule = kinds.iter().position(|k| **k == f.kind).unwrap_or(0);
            let mut r = result(run, i, f, rule);
            if !part.sub.is_empty() {
                r["properties"]["runDirectory"] = json!(part.sub);
                r["properties"]["testFile"] = json!(format!("{}/tests/{:06}.json", part.sub, f.test));
            }
            results.push(r);
        }
        let mut inv = invocation(run);
        if !part.sub.is_empty() {
            inv["properties"]["runDirectory"] = json!(part.sub);
        }
        if let Some(job) = &part.job {
            inv["properties"]["function"] = json!(job.function);
            inv["properties"]["status"] = json!(job.status.name());
            // Crashed, or killed by the batch (no exit code).
            if job.status == crate::JobStatus::Crashed || job.exit_code.is_none() {
                inv["executionSuccessful"] = json!(false);
            }
            if let Some(why) = &job.why {
                inv["properties"]["statusWhy"] = json!(why);
                if job.status != crate::JobStatus::Done {
                    let level = if job.status == crate::JobStatus::Crashed {
                        "error"
                    } else {
                        "warning"
                    };
                    let text = format!("{}: {} ({why})", job.function, job.status.name());
                    if let Some(notes) = inv["toolExecutionNotifications"].as_array_mut() {
                        notes.insert(0, json!({"message": {"text": text}, "level": level}));
                    }
                }
            }
        }
        invocations.push(inv);
    }
    let mode = parts.first().map_or("run", |p| p.run.mode.name());
    let mut sarif_run = json!({
        "tool": {"driver": {
            "name": "fpsym",
            "version": env!("CARGO_PKG_VERSION"),
            "semanticVersion": env!("CARGO_PKG_VERSION"),
            "fullName": format!("fpsym {mode} (floating-point symbolic execution)"),
            "rules": rules,
        }},
        "invocations": invocations,
        "results": results,
        "columnKind": "unicodeCodePoints",
        "properties": {"mode": mode},
    });
    if let Some(base) = parts.first().and_then(|p| p.run.base.as_ref()) {
        let mut uri = format!("file://{}", percent_encode(&base.to_string_lossy()));
        if !uri.ends_with('/') {
            uri.push('/');
        }
        sarif_run["originalUriBaseIds"] = json!({"%SRCROOT%": {"uri": uri}});
    }
    json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [sarif_run],
    })
}

/// The invocation of one run directory: whether it finished, the problems
/// and events as notifications, its verdict and counters.
fn invocation(run: &RunDir) -> Value {
    let successful = match &run.summary {
        Some(s) => !matches!(s.stop, StopReason::SolverFault(_)),
        None => false,
    };
    let mut notifications: Vec<Value> = run
        .events
        .iter()
        .take(MAX_NOTIFICATIONS)
        .map(|e| notification(run, e))
        .collect();
    if run.events.len() > MAX_NOTIFICATIONS {
        notifications.push(json!({
            "message": {"text": format!("{} more events in events.jsonl", run.events.len() - MAX_NOTIFICATIONS)},
            "level": "note",
        }));
    }
    let mut tool_notes: Vec<Value> = run
        .problems
        .iter()
        .map(|p| json!({"message": {"text": format!("unreadable record: {p}")}, "level": "error"}))
        .collect();
    if run.summary.is_none() {
        tool_notes.push(json!({
            "message": {"text": "no stats.json: the run did not finish (killed?); the report shows what it had written"},
            "level": "error",
        }));
    }
    if let Some(StopReason::SolverFault(m)) = run.summary.as_ref().map(|s| &s.stop) {
        tool_notes.push(json!({"message": {"text": format!("solver fault: {m}")}, "level": "error"}));
    }
    // The events (where the analysis was not exact, or a path stopped)
    // are conditions met while the tool ran.
    tool_notes.extend(notifications);
    json!({
        "executionSuccessful": successful,
        "toolExecutionNotifications": tool_notes,
        "properties": invocation_properties(run),
    })
}

/// The invocation's properties: mode, verdict, why, stop reason, counters.
fn invocation_properties(run: &RunDir) -> Value {
    let mut p = json!({"mode": run.mode.name(), "program": run.program()});
    if let Some(s) = &run.summary {
        let (verdict, why) = verdict_words(&s.verdict);
        p["verdict"] = json!(verdict);
        if let Some(w) = why {
            p["why"] = json!(w);
        }
        p["stop"] = json!(s.stop.kind());
        p["stopReason"] = json!(s.stop.to_string());
        p["stats"] = serde_json::to_value(&s.stats).unwrap_or(Value::Null);
    }
    if let Some(r) = &run.replay {
        p["replay"] = json!({
            "findings": r.findings.len(),
            "unconfirmed": r.unconfirmed(),
            "tests": r.tests.len(),
            "testsBehavingOtherwise": r.mismatched(),
        });
    }
    p
}

/// A verdict's name and why.
pub(crate) fn verdict_words(v: &Verdict) -> (&'static str, Option<&str>) {
    match v {
        Verdict::BugFound => ("bug found", None),
        Verdict::Verified => ("verified", None),
        Verdict::Proved(w) => ("verified", Some(w)),
        Verdict::Incomplete(w) => ("incomplete", Some(w)),
        Verdict::Feasible(w) => ("feasible", Some(w)),
        Verdict::Infeasible(w) => ("infeasible", Some(w)),
        Verdict::Unknown(w) => ("unknown", Some(w)),
    }
}

/// `report.sarif`'s text, in `dir`.
pub(crate) fn render(dir: &std::path::Path, parts: &[Part]) -> Result<String, ReportError> {
    serde_json::to_string_pretty(&log_of(parts))
        .map(|s| s + "\n")
        .map_err(|e| ReportError::Format {
            path: dir.join(crate::SARIF),
            message: e.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Mode;
    use crate::{PathEnd, Test, TestObject};
    use std::path::PathBuf;

    fn finding() -> Finding {
        Finding {
            kind: FindingKind::AssertionFailure,
            file: "/src/prog.c".into(),
            line: 12,
            column: 3,
            stack: vec!["g (called at /src/prog.c:20:7)".into(), "main".into()],
            test: 2,
            message: "assertion `x < 1` failed".into(),
            inputs: None,
            avoidable: None,
            operation: None,
            operands: vec![],
            result: None,
        }
    }

    fn dir() -> RunDir {
        RunDir {
            dir: PathBuf::from("/tmp/out"),
            base: Some(PathBuf::from("/src")),
            run: None,
            summary: None,
            tests: vec![Test {
                id: 2,
                objects: vec![TestObject {
                    name: "x".into(),
                    ty: "double".into(),
                    bytes: "000000000000f83f".into(),
                    value: Some("1.5e0".into()),
                    hex: Some("0x1.8p+0".into()),
                    elements: vec![],
                    site: None,
                }],
                end: PathEnd::Error(FindingKind::AssertionFailure),
            }],
            findings: vec![finding(), {
                let mut f = finding();
                f.kind = FindingKind::FpOverflow;
                f.stack = vec!["main".into()];
                f.line = 0;
                f
            }],
            events: vec![],
            replay: None,
            progress: vec![],
            mode: Mode::Run,
            record: None,
            problems: vec![],
        }
    }

    #[test]
    fn results_have_rule_place_stack_and_input() {
        let v = log(&dir());
        assert_eq!(v["version"], "2.1.0");
        let run = &v["runs"][0];
        let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        assert_eq!(rules.len(), 2);
        assert_eq!(rules[0]["id"], "assertion-failure");
        assert_eq!(rules[0]["name"], "AssertionFailure");
        let r = &run["results"][0];
        assert_eq!(r["ruleId"], "assertion-failure");
        assert_eq!(r["ruleIndex"], 0);
        let p = &r["locations"][0]["physicalLocation"];
        assert_eq!(p["artifactLocation"]["uri"], "prog.c");
        assert_eq!(p["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        assert_eq!(
            (p["region"]["startLine"].as_u64(), p["region"]["startColumn"].as_u64()),
            (Some(12), Some(3))
        );
        // The stack innermost first; the code flow from main's call on.
        let frames = r["stacks"][0]["frames"].as_array().unwrap();
        assert_eq!(frames[0]["location"]["logicalLocations"][0]["name"], "g");
        assert_eq!(frames[1]["location"]["physicalLocation"]["region"]["startLine"], 20);
        let flow = r["codeFlows"][0]["threadFlows"][0]["locations"].as_array().unwrap();
        assert_eq!(flow.len(), 2);
        assert_eq!(flow[0]["location"]["physicalLocation"]["region"]["startLine"], 20);
        assert_eq!(flow[0]["nestingLevel"], 0);
        assert_eq!(flow[1]["location"]["physicalLocation"]["region"]["startLine"], 12);
        assert_eq!(flow[1]["nestingLevel"], 1);
        assert_eq!(r["properties"]["input"][0]["name"], "x");
        assert_eq!(r["properties"]["input"][0]["hex"], "0x1.8p+0");
        assert!(r["message"]["text"].as_str().unwrap().contains("x = 1.5e0 (0x1.8p+0)"));
        // An unknown line has no region; a run without stats.json did not
        // finish.
        let r2 = &run["results"][1];
        assert!(r2["locations"][0]["physicalLocation"].get("region").is_none());
        assert_eq!(r2["ruleIndex"], 1);
        assert_eq!(run["invocations"][0]["executionSuccessful"], false);
        assert_eq!(run["originalUriBaseIds"]["%SRCROOT%"]["uri"], "file:///src/");
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        // clang's column 16 (bytes) is the 13th character of this line.
        let root = std::env::temp_dir().join(format!("fpsym-sarif-columns-{}", std::process::id()));
        std::fs::create_dir_all(&root).unwrap();
        let src = root.join("u.c");
        std::fs::write(&src, "void f(double x) {\n  /* «ü» */ assert(x < 1.0);\n}\n").unwrap();
        let mut d = dir();
        d.base = Some(root.clone());
        d.findings.truncate(1);
        d.findings[0].file = src.to_string_lossy().into_owned();
        d.findings[0].line = 2;
        d.findings[0].column = 16;
        d.findings[0].stack = vec!["f".into()];
        let v = log(&d);
        let region = &v["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
        assert_eq!(v["runs"][0]["columnKind"], "unicodeCodePoints");
        assert_eq!(
            (region["startLine"].as_u64(), region["startColumn"].as_u64()),
            (Some(2), Some(13))
        );
        // The page's caret is under the `a` of `assert` too.
        let page = crate::html::render(&d);
        assert!(
            page.contains(&format!("<td class=\"caret\">{}^</td>", " ".repeat(12))),
            "{page}"
        );
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn uris_are_encoded() {
        assert_eq!(percent_encode("a b/c#d.c"), "a%20b/c%23d.c");
        let mut d = dir();
        d.base = Some(PathBuf::from("/elsewhere"));
        let v = log(&d);
        assert_eq!(
            v["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "file:///src/prog.c"
        );
    }
}
