//! `junit.xml`: the run as one JUnit test suite, for CI pages.
//!
//! One test case per finding, failing (its `<failure>` names the kind, the
//! place `file:line:column`, the message and the triggering input), and
//! one per generated test, passing (`test 000001: exit 0`) unless replay
//! saw it end otherwise than the run said, and one for the verdict:
//! skipped when the run is incomplete or unknown (nothing found, nothing
//! proved: CI pages then do not show an all-green suite). The suite's time
//! is the run's.

use crate::reports::{escape_markup as esc, inputs_text, stack_text, Part, RunDir};
use crate::Finding;

/// A test case being written.
struct Case {
    classname: String,
    name: String,
    file: Option<String>,
    line: Option<u32>,
    /// (type, message, body) of the failure.
    failure: Option<(String, String, String)>,
    /// Text for `<system-out>`.
    out: Option<String>,
    /// Why the case is skipped, if it is.
    skipped: Option<String>,
}

/// A batch function's process: passes when it ran to its end, fails when
/// it crashed, skipped (with why) when it stopped at a limit or could not
/// be analysed.
fn status_case(class: &str, job: &crate::JobResult) -> Case {
    use crate::JobStatus as S;
    let why = job.why.clone().unwrap_or_default();
    if why.starts_with(crate::MISSING) {
        return Case {
            classname: class.to_string(),
            name: "status: missing".to_string(),
            file: None,
            line: None,
            failure: Some((
                "missing".to_string(),
                why.clone(),
                format!("{} ({}): {why}\n", job.function, job.file),
            )),
            out: None,
            skipped: None,
        };
    }
    Case {
        classname: class.to_string(),
        name: format!("status: {}", job.status.name()),
        file: None,
        line: None,
        failure: (job.status == S::Crashed).then(|| {
            (
                "crashed".to_string(),
                why.clone(),
                format!("{} ({}): the analysis crashed: {why}\n", job.function, job.file),
            )
        }),
        out: None,
        skipped: matches!(job.status, S::TimedOut | S::OutOfMemory | S::Skipped)
            .then(|| format!("{}: {why}", job.status.name())),
    }
}

/// The failure of the `index`-th finding.
fn finding_case(run: &RunDir, class: &str, index: usize, f: &Finding) -> Case {
    let place = format!("{}:{}:{}", run.display_path(&f.file), f.line, f.column);
    let message = if f.message.is_empty() {
        crate::sarif::describe_kind(&f.kind).0
    } else {
        f.message.clone()
    };
    let input = run
        .test(f.test)
        .map(inputs_text)
        .unwrap_or_else(|| format!("test {:06} is missing", f.test));
    let mut body = format!(
        "kind: {}\nat: {place}\nmessage: {message}\ntest: {:06} (tests/{:06}.json)\ninput: {input}\n",
        f.kind, f.test, f.test
    );
    if !f.stack.is_empty() {
        body.push_str(&format!("stack (innermost first): {}\n", stack_text(run, f, " <- ")));
    }
    match run.confirmed(index, f) {
        Some(true) => body.push_str("replay: confirmed natively\n"),
        Some(false) => body.push_str("replay: NOT confirmed natively (a bug in fpsym)\n"),
        None => {}
    }
    Case {
        classname: class.to_string(),
        name: format!("{} at {place}", f.kind),
        file: Some(run.display_path(&f.file)),
        line: Some(f.line),
        failure: Some((f.kind.to_string(), format!("{} at {place}: {message}", f.kind), body)),
        out: None,
        skipped: None,
    }
}

/// `junit.xml`'s text: a suite per run directory.
pub(crate) fn render(parts: &[Part]) -> String {
    let suites: Vec<(String, usize, usize, usize, f64)> =
        parts.iter().map(|p| suite(&p.run, &p.sub, p.job.as_ref())).collect();
    let tests: usize = suites.iter().map(|s| s.1).sum();
    let failures: usize = suites.iter().map(|s| s.2).sum();
    let skipped: usize = suites.iter().map(|s| s.3).sum();
    let time: f64 = suites.iter().map(|s| s.4).sum();
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    x.push_str(&format!(
        "<testsuites name=\"fpsym\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" time=\"{time:.3}\">\n"
    ));
    for (text, ..) in suites {
        x.push_str(&text);
    }
    x.push_str("</testsuites>\n");
    x
}

/// One run directory's `<testsuite>` (`sub`: its path from the report's
/// directory, or empty), with its test cases, failures and time.
fn suite(run: &RunDir, sub: &str, job: Option<&crate::JobResult>) -> (String, usize, usize, usize, f64) {
    let program = run
        .program()
        .iter()
        .map(|p| {
            std::path::Path::new(p)
                .file_stem()
                .map_or(p.clone(), |s| s.to_string_lossy().into_owned())
        })
        .collect::<Vec<_>>()
        .join("+");
    let function = run
        .run
        .as_ref()
        .and_then(|r| r.entry.function().map(str::to_string))
        .or_else(|| job.map(|j| j.function.clone()));
    let class = match (&function, program.is_empty()) {
        (Some(f), false) => format!("fpsym.{}.{program}.{f}", run.mode.name()),
        (None, false) => format!("fpsym.{}.{program}", run.mode.name()),
        (_, true) => format!("fpsym.{}", run.mode.name()),
    };
    let mut cases: Vec<Case> = run
        .findings
        .iter()
        .enumerate()
        .map(|(i, f)| finding_case(run, &class, i, f))
        .collect();
    if let Some(job) = job {
        cases.push(status_case(&class, job));
    }
    for t in &run.tests {
        let replayed = run
            .replay
            .as_ref()
            .and_then(|r| r.tests.iter().find(|x| x.test == t.id));
        let failure = replayed.filter(|r| !r.confirmed).map(|r| {
            let seen = match (&r.observed.file, r.observed.line, r.observed.code) {
                (Some(f), Some(l), _) => format!("{} at {f}:{l}", r.observed.kind.name()),
                (_, _, Some(c)) => format!("{} {c}", r.observed.kind.name()),
                _ => r.observed.kind.name().to_string(),
            };
            (
                "replay-mismatch".to_string(),
                format!("natively: {seen}; the run said: {}", r.expected),
                format!(
                    "test {:06} ended otherwise natively than the run said (a bug in fpsym)\nexpected: {}\nobserved: {seen}\ninput: {}\n",
                    t.id,
                    r.expected,
                    inputs_text(t)
                ),
            )
        });
        cases.push(Case {
            classname: class.clone(),
            name: format!("test {:06}: {}", t.id, t.end),
            file: None,
            line: None,
            failure,
            out: Some(format!("input: {}\n", inputs_text(t))),
            skipped: None,
        });
    }
    // The verdict: skipped when nothing was found and nothing proved.
    let (verdict, why, skip) = match &run.summary {
        Some(s) => {
            let (v, why) = crate::sarif::verdict_words(&s.verdict);
            let skip = matches!(s.verdict, crate::Verdict::Incomplete(_) | crate::Verdict::Unknown(_));
            (v.to_string(), why.map(str::to_string), skip)
        }
        None => (
            "none".to_string(),
            Some("the run did not finish (no stats.json)".to_string()),
            true,
        ),
    };
    cases.push(Case {
        classname: class.clone(),
        name: format!("verdict: {verdict}"),
        file: None,
        line: None,
        failure: None,
        out: why.clone(),
        skipped: skip.then(|| why.unwrap_or_default()),
    });
    let failures = cases.iter().filter(|c| c.failure.is_some()).count();
    let skipped = cases.iter().filter(|c| c.skipped.is_some()).count();
    let time = run.summary.as_ref().map_or(0.0, |s| s.stats.seconds);
    let mut suite_name = if program.is_empty() {
        format!("fpsym {}", run.mode.name())
    } else {
        format!("fpsym {} {program}", run.mode.name())
    };
    if let Some(f) = &function {
        suite_name.push_str(&format!(" --function {f}"));
    }
    let mut x = String::new();
    x.push_str(&format!(
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" time=\"{time:.3}\">\n",
        esc(&suite_name),
        cases.len()
    ));
    x.push_str("    <properties>\n");
    let mut props: Vec<(String, String)> = vec![("mode".into(), run.mode.name().into())];
    if !sub.is_empty() {
        props.push(("directory".into(), sub.into()));
    }
    props.extend(run.program().into_iter().map(|p| ("program".to_string(), p)));
    if let Some(f) = function {
        props.push(("function".into(), f));
    }
    match &run.summary {
        Some(s) => {
            let (v, why) = crate::sarif::verdict_words(&s.verdict);
            props.push(("verdict".into(), v.into()));
            if let Some(w) = why {
                props.push(("why".into(), w.into()));
            }
            props.push(("stop".into(), s.stop.to_string()));
        }
        None => props.push(("verdict".into(), "none: the run did not finish (no stats.json)".into())),
    }
    for (k, v) in props {
        x.push_str(&format!(
            "      <property name=\"{}\" value=\"{}\"/>\n",
            esc(&k),
            esc(&v)
        ));
    }
    x.push_str("    </properties>\n");
    for c in &cases {
        x.push_str(&format!(
            "    <testcase classname=\"{}\" name=\"{}\" time=\"0\"",
            esc(&c.classname),
            esc(&c.name)
        ));
        if let Some(f) = &c.file {
            x.push_str(&format!(" file=\"{}\"", esc(f)));
        }
        if let Some(l) = c.line.filter(|l| *l > 0) {
            x.push_str(&format!(" line=\"{l}\""));
        }
        if c.failure.is_none() && c.out.is_none() && c.skipped.is_none() {
            x.push_str("/>\n");
            continue;
        }
        x.push_str(">\n");
        if let Some(why) = &c.skipped {
            x.push_str(&format!("      <skipped message=\"{}\"/>\n", esc(why)));
        }
        if let Some((ty, message, body)) = &c.failure {
            x.push_str(&format!(
                "      <failure type=\"{}\" message=\"{}\">{}</failure>\n",
                esc(ty),
                esc(message),
                esc(body)
            ));
        }
        if let Some(out) = &c.out {
            x.push_str(&format!("      <system-out>{}</system-out>\n", esc(out)));
        }
        x.push_str("    </testcase>\n");
    }
    x.push_str("  </testsuite>\n");
    (x, cases.len(), failures, skipped, time)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Mode;
    use crate::{FindingKind, PathEnd, Test, TestObject};
    use std::path::PathBuf;

    #[test]
    fn markup_in_messages_and_inputs_is_escaped() {
        let f = Finding {
            kind: FindingKind::AssertionFailure,
            file: "/src/a&b.c".into(),
            line: 3,
            column: 1,
            stack: vec!["check".into(), "main (called at /src/a&b.c:9:5)".into()],
            test: 1,
            message: "assertion `x <&\"'> y` failed\u{1}".into(),
            inputs: None,
            avoidable: None,
            operation: None,
            operands: vec![],
            result: None,
        };
        let run = RunDir {
            dir: PathBuf::from("/tmp/out"),
            base: Some(PathBuf::from("/src")),
            run: None,
            summary: None,
            tests: vec![
                Test {
                    id: 1,
                    objects: vec![TestObject {
                        name: "s<1>".into(),
                        ty: "char[2]".into(),
                        bytes: "3c26".into(),
                        value: None,
                        hex: None,
                        elements: vec![],
                        site: None,
                    }],
                    end: PathEnd::Error(FindingKind::AssertionFailure),
                },
                Test {
                    id: 2,
                    objects: vec![],
                    end: PathEnd::Exit(0),
                },
            ],
            findings: vec![f],
            events: vec![],
            replay: None,
            progress: vec![],
            mode: Mode::Run,
            record: None,
            problems: vec![],
        };
        let x = render(&[Part {
            sub: String::new(),
            run,
            job: None,
        }]);
        // The stack names files as the rest of the report does: relative
        // to the base.
        assert!(
            x.contains("stack (innermost first): check &lt;- main (called at a&amp;b.c:9:5)\n"),
            "{x}"
        );
        assert!(x.contains("message=\"assertion-failure at a&amp;b.c:3:1: assertion `x &lt;&amp;&quot;&#39;&gt; y` failed\u{fffd}\""), "{x}");
        assert!(x.contains("input: s&lt;1&gt; = bytes 3c26"), "{x}");
        assert!(
            x.contains("<testcase classname=\"fpsym.run\" name=\"test 000002: exit 0\" time=\"0\">"),
            "{x}"
        );
        // Two tests, one finding, and the verdict: skipped, as the run
        // did not finish (no summary).
        assert!(
            x.contains("tests=\"4\" failures=\"1\" errors=\"0\" skipped=\"1\""),
            "{x}"
        );
        assert!(
            x.contains("name=\"verdict: none\" time=\"0\">\n      <skipped message=\"the run did not finish (no stats.json)\"/>"),
            "{x}"
        );
        // Nothing unescaped between the markup: every `<` opens a tag.
        for piece in x.split('<').skip(1) {
            let c = piece.chars().next().unwrap();
            assert!(c.is_ascii_alphabetic() || c == '/' || c == '?', "{piece}");
        }
    }
}
