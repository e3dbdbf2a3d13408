//! What `--json` prints on stdout (fpsym-modes' `Session::finish` builds
//! it): one run's summary with the command's exit code and error, or, when
//! the command wrote other than one run, `{"runs": [...], "exit_code",
//! "error"}`.

use crate::{Coverage, Finding, PhaseTime, Property, ReplayReport, Stats, StopReason, Summary, TestObject};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;

/// The object `--json` prints.
#[derive(Clone, Debug, PartialEq)]
pub struct JsonOutput {
    /// The command's exit code.
    pub exit_code: u8,
    /// Its error message, when it failed.
    pub error: Option<String>,
    /// The runs it wrote (one: their fields are at the top).
    pub runs: Vec<RunJson>,
}

impl JsonOutput {
    /// The only run (the test fails otherwise).
    pub fn run(&self) -> &RunJson {
        match self.runs.as_slice() {
            [one] => one,
            _ => panic!("--json holds {} runs, not one: {self:?}", self.runs.len()),
        }
    }
}

impl Serialize for JsonOutput {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct One<'a> {
            #[serde(flatten)]
            run: &'a RunJson,
            exit_code: u8,
            error: &'a Option<String>,
        }
        #[derive(Serialize)]
        struct Many<'a> {
            runs: &'a [RunJson],
            exit_code: u8,
            error: &'a Option<String>,
        }
        match self.runs.as_slice() {
            [run] => One {
                run,
                exit_code: self.exit_code,
                error: &self.error,
            }
            .serialize(s),
            runs => Many {
                runs,
                exit_code: self.exit_code,
                error: &self.error,
            }
            .serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for JsonOutput {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<JsonOutput, D::Error> {
        use serde::de::Error;
        #[derive(Deserialize)]
        struct Top {
            exit_code: u8,
            error: Option<String>,
            runs: Option<Vec<RunJson>>,
        }
        let v = serde_json::Value::deserialize(d)?;
        let top: Top = serde_json::from_value(v.clone()).map_err(D::Error::custom)?;
        let runs = match top.runs {
            Some(runs) => runs,
            None => vec![serde_json::from_value(v).map_err(D::Error::custom)?],
        };
        Ok(JsonOutput {
            exit_code: top.exit_code,
            error: top.error,
            runs,
        })
    }
}

/// One run in `--json`: its `stats.json` with the verdict lifted
/// (`verdict`, `why`), its directory, findings, replay counts and the
/// mode's record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunJson {
    /// The output directory.
    pub output: String,
    /// Counters.
    pub stats: Stats,
    /// Why the run stopped (`stop`, `stop_value`).
    #[serde(flatten)]
    pub stop: StopReason,
    /// The verdict's name (`bug-found`, `verified`, `incomplete`, ...).
    pub verdict: String,
    /// Its reason, when it has one.
    #[serde(default)]
    pub why: Option<String>,
    /// As [`crate::Summary::incomplete`].
    #[serde(default)]
    pub incomplete: Option<String>,
    /// As [`crate::Summary::directed_incomplete`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub directed_incomplete: Option<String>,
    /// The solver chain's counters (`null`: not a finite number).
    #[serde(default)]
    pub solver: BTreeMap<String, Option<f64>>,
    /// As [`crate::Summary::property`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub property: Option<Property>,
    /// As [`crate::Summary::sv_comp`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sv_comp: Option<String>,
    /// As [`crate::Summary::phases`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phases: Vec<PhaseTime>,
    /// As [`crate::Summary::proof`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<String>,
    /// The findings with their tests' inputs (None: not readable).
    pub findings: Option<Vec<FindingWithInput>>,
    /// The replay's counts, when replayed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<ReplayCounts>,
    /// The mode's own record (`error.json`, `critical.json`, ...) as
    /// JSON, when it writes one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<serde_json::Value>,
}

impl RunJson {
    /// The run of directory `output` from its summary (`stats.json`), its
    /// findings with their tests' inputs, its replay report and its mode's
    /// record.
    pub fn new(
        output: String,
        summary: Summary,
        findings: Option<Vec<FindingWithInput>>,
        replay: Option<&ReplayReport>,
        result: Option<serde_json::Value>,
    ) -> RunJson {
        RunJson {
            output,
            verdict: summary.verdict.name().to_string(),
            why: summary.verdict.why().map(str::to_string),
            stats: summary.stats,
            stop: summary.stop,
            incomplete: summary.incomplete,
            directed_incomplete: summary.directed_incomplete,
            solver: summary
                .solver
                .into_iter()
                .map(|(k, v)| (k, v.is_finite().then_some(v)))
                .collect(),
            property: summary.property,
            sv_comp: summary.sv_comp,
            phases: summary.phases,
            proof: summary.proof,
            findings,
            replay: replay.map(|r| ReplayCounts {
                tests: r.tests.len(),
                findings: r.findings.len(),
                unconfirmed: r.unconfirmed(),
                mismatched: r.mismatched(),
                coverage: r.coverage.clone(),
            }),
            result,
        }
    }
}

/// A finding in `--json`, with its test's inputs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FindingWithInput {
    /// The finding's record.
    #[serde(flatten)]
    pub finding: Finding,
    /// Its test's inputs (None: the test is not there).
    pub input: Option<Vec<TestObject>>,
    /// The same on one line, as the summary prints them.
    pub input_text: Option<String>,
}

/// The replay's counts in `--json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayCounts {
    /// Tests replayed.
    pub tests: usize,
    /// Findings replayed.
    pub findings: usize,
    /// Findings not confirmed.
    pub unconfirmed: usize,
    /// Tests that ended otherwise.
    pub mismatched: usize,
    /// Coverage, when measured.
    pub coverage: Option<Coverage>,
}
