//! The verification competitions' formats: SV-COMP violation witnesses
//! (written by `run --property unreach-call`, checked by `replay
//! --witness`) and Test-Comp test suites (`export --testcomp`).

use fpsym_replay::witness::{self, TaskInfo, ViolationSource, WITNESS};
use fpsym_report::{Finding, FindingKind, Property, RunRecord, Test};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Writes the violation witness of the run in `out` (its first
/// `reach_error` finding whose inputs all come from __VERIFIER_nondet_*
/// calls) to `to` (default OUT/witness.yml) and says where; says why when
/// no finding can have one. A witness that cannot be written is a note,
/// not a failure of the run: the verdict and its test stand.
pub fn write_witness(files: &[PathBuf], cflags: &[String], to: Option<&Path>, out: &Path, findings: &[Finding]) {
    write_entries(to, out, witness_of(files, cflags, out, findings));
}

/// Writes `entries` to `to` (default OUT/witness.yml) and says where, or
/// says why there is no witness.
fn write_entries(to: Option<&Path>, out: &Path, entries: Result<Vec<witness::Entry>, String>) {
    let path = to.map_or_else(|| out.join(WITNESS), Path::to_path_buf);
    match entries {
        Ok(entries) => match std::fs::write(&path, witness::to_yaml(&entries)) {
            Ok(()) => say!("witness: {}", path.display()),
            Err(e) => say!("witness: not written: {}: {e}", path.display()),
        },
        Err(why) => say!("witness: not written: {why}"),
    }
}

fn witness_of(
    files: &[PathBuf],
    cflags: &[String],
    out: &Path,
    findings: &[Finding],
) -> Result<Vec<witness::Entry>, String> {
    let tests = fpsym_report::read_tests(out).map_err(|e| e.to_string())?;
    let mut why = "no reach_error finding".to_string();
    for f in findings.iter().filter(|f| f.kind == FindingKind::ReachError) {
        let Some(test) = tests.iter().find(|t| t.id == f.test) else {
            continue;
        };
        let function = f
            .stack
            .first()
            .map(|s| s.function.clone())
            .unwrap_or_else(|| "main".into());
        let src = ViolationSource {
            task: task(files, cflags),
            inputs: &test.objects,
            target: (&f.file, f.line, f.column),
            target_function: &function,
        };
        match witness::violation_witness(&src) {
            Ok(w) => return Ok(w),
            Err(e) => why = format!("test {}: {e}", test.id),
        }
    }
    Err(why)
}

/// The task of a run on `files` compiled with `cflags` (unreach-call, its
/// data model, this command line).
fn task<'a>(files: &'a [PathBuf], cflags: &[String]) -> TaskInfo<'a> {
    TaskInfo {
        files,
        specification: witness::UNREACH_CALL,
        data_model: witness::data_model(cflags),
        version: env!("CARGO_PKG_VERSION"),
        command_line: shlex::try_join(std::env::args().collect::<Vec<_>>().iter().map(String::as_str)).ok(),
    }
}

/// Writes the correctness witness of a `true` verdict (see
/// [`witness::correctness_witness`]) to `to` (default OUT/witness.yml).
pub fn write_correctness_witness(
    files: &[PathBuf],
    cflags: &[String],
    to: Option<&Path>,
    out: &Path,
    invariants: &[witness::LoopInvariant],
) {
    write_entries(
        to,
        out,
        witness::correctness_witness(&task(files, cflags), invariants).map_err(|e| e.to_string()),
    );
}

/// `fpsym replay DIR --witness FILE`: runs the witness's values natively
/// and says whether they reach its target; exit 0 confirmed, 1 not.
pub fn check_witness(dir: &Path, path: &Path) -> anyhow::Result<ExitCode> {
    let opts = fpsym_replay::ReplayOptions::default();
    let c = witness::check_witness(dir, path, &opts).map_err(|e| match e {
        witness::WitnessError::Replay(r) => crate::replay::failure(r),
        e => crate::Failure::Input(e.to_string()),
    })?;
    let target = c.read.target.as_ref().expect("a checked witness has a target");
    let values = c.read.inputs.len();
    let skipped = match c.read.skipped {
        0 => String::new(),
        n => format!("; {n} waypoint(s) of other types not checked"),
    };
    let place = |file: &Option<String>, line: Option<u32>| match (file, line) {
        (Some(f), Some(l)) => format!(" at {f}:{l}"),
        _ => String::new(),
    };
    if c.confirmed {
        say!(
            "witness confirmed: reach_error called at {}:{} natively ({values} nondet value(s) from the witness{skipped})",
            target.file_name,
            target.line
        );
        Ok(ExitCode::SUCCESS)
    } else {
        say!(
            "witness not confirmed: with its {values} nondet value(s) the program ended by {}{} natively, not by reach_error at {}:{}{skipped}",
            c.observed.kind.name(),
            place(&c.observed.file, c.observed.line),
            target.file_name,
            target.line
        );
        Ok(ExitCode::from(1))
    }
}

/// `fpsym export DIR --testcomp SUITE`: the run's tests as a Test-Comp
/// test suite (test-format 1.1): SUITE/metadata.xml and one SUITE/NNNNNN.xml
/// per test, each input of a __VERIFIER_nondet_* call as an `<input>` in
/// call order. Tests with inputs of other kinds are left out (and
/// counted). Returns (written, left out).
pub fn export_testcomp(record: &RunRecord, tests: &[Test], suite: &Path) -> anyhow::Result<(usize, usize)> {
    let program = record
        .files
        .first()
        .ok_or_else(|| crate::Failure::Input("run.json names no program file".into()))?;
    let text = std::fs::read(program).map_err(|e| crate::Failure::Input(format!("{program}: {e}")))?;
    let property = record.property.unwrap_or(Property::CoverageBranches);
    let specification = match property {
        Property::CoverageError | Property::UnreachCall => Property::CoverageError.prp(),
        _ => Property::CoverageBranches.prp(),
    }
    .expect("coverage properties have a .prp text");
    std::fs::create_dir_all(suite).map_err(|e| crate::Failure::Input(format!("{}: {e}", suite.display())))?;
    // Test-Comp's architecture: the run's data model.
    let architecture = match witness::data_model(&record.cflags) {
        "ILP32" => "32bit",
        _ => "64bit",
    };
    let metadata = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE test-metadata PUBLIC "+//IDN sosy-lab.org//DTD test-format test-metadata 1.1//EN" "https://sosy-lab.org/test-format/test-metadata-1.1.dtd">
<test-metadata>
  <sourcecodelang>C</sourcecodelang>
  <producer>fpsym {}</producer>
  <specification>{}</specification>
  <programfile>{}</programfile>
  <programhash>{}</programhash>
  <entryfunction>main</entryfunction>
  <architecture>{architecture}</architecture>
  <creationtime>{}</creationtime>
</test-metadata>
"#,
        env!("CARGO_PKG_VERSION"),
        xml_escape(specification),
        xml_escape(program),
        witness::sha256_hex(&text),
        humantime::format_rfc3339_seconds(std::time::SystemTime::now()),
    );
    std::fs::write(suite.join("metadata.xml"), metadata)?;
    let (mut written, mut left) = (0, 0);
    for t in tests {
        match testcase(t) {
            Some(xml) => {
                std::fs::write(suite.join(format!("{:06}.xml", t.id)), xml)?;
                written += 1;
            }
            None => left += 1,
        }
    }
    Ok((written, left))
}

/// A test as a Test-Comp testcase; None when an input did not come from
/// a __VERIFIER_nondet_* call (a test-format input is one such value).
fn testcase(t: &Test) -> Option<String> {
    let mut inputs = String::new();
    for o in &t.objects {
        let site = o.site.as_ref()?;
        site.call.starts_with("__VERIFIER_nondet_").then_some(())?;
        let value = testcomp_value(o)?;
        inputs.push_str(&format!("  <input>{}</input>\n", xml_escape(&value)));
    }
    let covers_error = matches!(&t.end, fpsym_report::PathEnd::Error(FindingKind::ReachError));
    Some(format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE testcase PUBLIC "+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN" "https://sosy-lab.org/test-format/testcase-1.1.dtd">
<testcase{}>
{inputs}</testcase>
"#,
        if covers_error { r#" coversError="true""# } else { "" }
    ))
}

/// An input's value as Test-Comp's harnesses read it (`scanf` with the
/// type's conversion): integers in decimal, floats as exact hexadecimal
/// literals (`0x1.8p+1`), `inf`, `-inf`, `nan` and `-nan` (a NaN's
/// payload is lost), `_Bool` as 0 or 1.
fn testcomp_value(o: &fpsym_report::TestObject) -> Option<String> {
    let c = witness::result_constraint(o)?;
    Some(match c.as_str() {
        "\\is_NaN(\\result)" => {
            let bytes = o.byte_values()?;
            if bytes.last().is_some_and(|b| b & 0x80 != 0) {
                "-nan".into()
            } else {
                "nan".into()
            }
        }
        "\\is_plus_infinity(\\result)" => "inf".into(),
        "\\is_minus_infinity(\\result)" => "-inf".into(),
        _ if c.starts_with("\\result == -0x0p+0") => "-0x0p+0".into(),
        _ => c.strip_prefix("\\result == ")?.to_string(),
    })
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
