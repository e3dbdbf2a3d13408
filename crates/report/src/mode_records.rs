//! The records a mode writes beside a run's own, one serde type each:
//! `error.json` ([`ErrorRecord`]), `critical.json`
//! ([`crate::critical_record::CriticalRecord`]), `paths.json`
//! ([`AllPathsRecord`]), `path.json` ([`crate::PathRecord`]), and the
//! fuzzing phase's `fuzz/fuzz.json` ([`FuzzRecord`]); [`ModeRecord`] reads
//! whichever a directory holds, and [`Mode`] names the command that made it.

use crate::critical_record::{CriticalRecord, CRITICAL_RECORD};
use crate::{read_json, PathRecord, ReportError, ALL_PATHS, PATH_RECORD};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::path::Path;

/// The command that made an output directory (`run.json`'s `mode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// `fpsym run`.
    #[default]
    Run,
    /// `fpsym exceptions`.
    Exceptions,
    /// `fpsym error` (`error.json`).
    Error,
    /// `fpsym path` (`path.json`, `paths.json`).
    Path,
    /// `fpsym critical` (`critical.json`).
    Critical,
}

impl Mode {
    /// Every mode.
    pub const ALL: [Mode; 5] = [Mode::Run, Mode::Exceptions, Mode::Error, Mode::Path, Mode::Critical];

    /// The subcommand's name.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Run => "run",
            Mode::Exceptions => "exceptions",
            Mode::Error => "error",
            Mode::Path => "path",
            Mode::Critical => "critical",
        }
    }

    /// The mode of a subcommand's name.
    pub fn from_name(s: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.name() == s)
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A mode's own record, as a directory holds it (at most one).
#[derive(Clone, Debug)]
pub enum ModeRecord {
    /// `error.json`.
    Error(Box<ErrorRecord>),
    /// `critical.json`.
    Critical(Box<CriticalRecord>),
    /// `paths.json` (`path --all-paths`).
    AllPaths(Box<AllPathsRecord>),
    /// `path.json` (`path --path`).
    Path(Box<PathRecord>),
}

impl ModeRecord {
    /// The mode's record in `dir`: None when there is none, an error when
    /// one is there and cannot be read.
    pub fn read(dir: &Path) -> Option<Result<ModeRecord, ReportError>> {
        let name = crate::MODE_RECORDS.iter().find(|n| dir.join(n).is_file())?;
        let path = dir.join(name);
        Some(match *name {
            ERROR_RECORD => read_json(&path).map(|r| ModeRecord::Error(Box::new(r))),
            CRITICAL_RECORD => read_json(&path).map(|r| ModeRecord::Critical(Box::new(r))),
            ALL_PATHS => read_json(&path).map(|r| ModeRecord::AllPaths(Box::new(r))),
            _ => read_json(&path).map(|r| ModeRecord::Path(Box::new(r))),
        })
    }

    /// Its file name.
    pub fn file_name(&self) -> &'static str {
        match self {
            ModeRecord::Error(_) => ERROR_RECORD,
            ModeRecord::Critical(_) => CRITICAL_RECORD,
            ModeRecord::AllPaths(_) => ALL_PATHS,
            ModeRecord::Path(_) => PATH_RECORD,
        }
    }

    /// The mode that writes it.
    pub fn mode(&self) -> Mode {
        match self {
            ModeRecord::Error(_) => Mode::Error,
            ModeRecord::Critical(_) => Mode::Critical,
            ModeRecord::AllPaths(_) | ModeRecord::Path(_) => Mode::Path,
        }
    }

    /// The record as JSON (for `--json`'s `result`).
    pub fn to_value(&self) -> serde_json::Value {
        let v = match self {
            ModeRecord::Error(r) => serde_json::to_value(r),
            ModeRecord::Critical(r) => serde_json::to_value(r),
            ModeRecord::AllPaths(r) => serde_json::to_value(r),
            ModeRecord::Path(r) => serde_json::to_value(r),
        };
        v.unwrap_or(serde_json::Value::Null)
    }
}

/// `DIR/error.json`.
pub const ERROR_RECORD: &str = "error.json";
/// `DIR/error-timing.json` (the times, apart: error.json is the same for
/// the same reproducible run).
pub const ERROR_TIMING: &str = "error-timing.json";
/// `DIR/fuzz/fuzz.json`.
pub const FUZZ_RECORD: &str = "fuzz/fuzz.json";

/// An error: a finite number, or `"inf"` (infinite, or NaN: no meaningful
/// error) as error.json writes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ErrorValue(pub f64);

impl ErrorValue {
    /// The error (infinity for `"inf"`).
    pub fn get(self) -> f64 {
        self.0
    }
}

impl Serialize for ErrorValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0.is_finite() {
            s.serialize_f64(self.0)
        } else {
            s.serialize_str("inf")
        }
    }
}

impl<'de> Deserialize<'de> for ErrorValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ErrorValue, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either {
            Number(f64),
            Text(String),
        }
        match Either::deserialize(d)? {
            Either::Number(x) => Ok(ErrorValue(x)),
            Either::Text(t) if t == "inf" => Ok(ErrorValue(f64::INFINITY)),
            Either::Text(t) => Err(serde::de::Error::custom(format!(
                "expected a number or \"inf\", got {t:?}"
            ))),
        }
    }
}

/// `DIR/error.json`: the worst input `fpsym error` found, its error by
/// every metric, where the bits went, and how the search spent its budget.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorRecord {
    /// `fpsym`, `fpgen`, `random`, or `given` (one input measured).
    pub strategy: String,
    /// The shadow values' precision in bits.
    pub precision: u32,
    /// The metric searched by.
    pub metric: String,
    /// The worst input's error by that metric.
    pub max_error: ErrorValue,
    /// Its relative error.
    pub max_relative_error: ErrorValue,
    /// Its error by every metric.
    pub metrics: BTreeMap<String, ErrorValue>,
    /// What the `fpgen` metric's reference is.
    pub fpgen_reference: String,
    /// The result with the largest error.
    pub output: String,
    /// Its computed value.
    pub computed: String,
    /// Its exact value.
    pub exact: String,
    /// Digits of `exact` confirmed at a higher precision.
    pub exact_digits: usize,
    /// The worst input.
    pub inputs: Vec<ErrorInput>,
    /// Every result of the worst input.
    pub outputs: Vec<OutputError>,
    /// How the search's phases were cut.
    pub budget: ErrorBudget,
    /// Inputs measured before the worst.
    pub measured_to_best: u64,
    /// Inputs measured.
    pub measured: u64,
    /// Random inputs run on the engine.
    pub random_inputs: u64,
    /// Random inputs run natively.
    pub native_random_inputs: u64,
    /// Native steps of the bisections.
    pub native_bisection_steps: u64,
    /// Inputs from symbolic rounds.
    pub symbolic_inputs: u64,
    /// Inputs from the local refinement.
    pub refined_inputs: u64,
    /// Symbolic rounds.
    pub symbolic_rounds: u64,
    /// Input objects the function never read.
    pub unread_objects: Vec<String>,
    /// Where the worst input's bits went.
    pub diagnosis: Diagnosis,
    /// The error measured again at a higher precision (None: not checked).
    pub reference_check: Option<ReferenceCheck>,
    /// Inputs measured and their errors, for the report's plot.
    pub samples: Samples,
}

/// One scalar of the worst input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorInput {
    /// Its name (`x`, `a[2]`, `p.x`).
    pub name: String,
    /// A float's value as a hex float.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
    /// Its value in decimal.
    pub decimal: String,
}

/// One result of the worst input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutputError {
    /// Which result (`ret`, `p[1]`, ...).
    pub output: String,
    /// Its computed value.
    pub computed: String,
    /// Its exact value.
    pub exact: String,
    /// Its error by the metric.
    pub error: ErrorValue,
    /// Its relative error.
    pub relative_error: ErrorValue,
}

/// How the search's phases were cut, and whether the same command gives
/// the same error.json.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "lowercase")]
pub enum ErrorBudget {
    /// By time: not reproducible.
    Time {
        /// Always false.
        reproducible: bool,
        /// Why not.
        why_not: String,
    },
    /// By counts (`--seed`, `--rounds`).
    Counts {
        /// Symbolic rounds.
        rounds: u32,
        /// Random inputs.
        random_inputs: u64,
        /// Refined inputs per round.
        refined_per_round: u64,
        /// Instructions per round.
        instructions_per_round: u64,
        /// Queries per round.
        queries_per_round: u64,
        /// z3's resource limit, when the solver is cut by it.
        z3_rlimit: Option<u32>,
        /// `--max-time` ended the run before its counts.
        cut_by_max_time: bool,
        /// The same command gives the same record.
        reproducible: bool,
        /// Why not, when not.
        why_not: Option<String>,
    },
}

/// Where the worst input's bits went.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Diagnosis {
    /// The operations that lost most (at most ten).
    pub sites: Vec<SiteLossRecord>,
    /// Branches the high-precision run takes otherwise.
    pub divergences: Vec<DivergenceRecord>,
}

/// What one operation lost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SiteLossRecord {
    /// `FILE:LINE:COL`.
    pub at: String,
    /// Bits cancelled at most.
    pub bits_cancelled: u32,
    /// Bits lost at most.
    pub bits_lost: u32,
    /// Times it ran.
    pub runs: u32,
}

/// A branch the high-precision run takes otherwise.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DivergenceRecord {
    /// The function.
    pub function: String,
    /// Where, if located.
    pub at: Option<String>,
    /// The side the float run took.
    pub taken: bool,
    /// The side the high-precision run takes.
    pub high_precision_takes: bool,
}

/// The worst error measured again at a higher precision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReferenceCheck {
    /// The check's precision in bits.
    pub precision: u32,
    /// The error it measured.
    pub max_error: ErrorValue,
    /// Whether it agrees with the search's.
    pub agrees: bool,
    /// The precision of the figures reported.
    pub reported_at: Option<u32>,
    /// The precision that confirmed them.
    pub confirmed_at: Option<u32>,
}

/// Inputs measured and their relative errors: the first and the last ones.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Samples {
    /// The scalars' names.
    pub inputs: Vec<String>,
    /// Inputs measured in all.
    pub measured: u64,
    /// Points kept.
    pub kept: usize,
    /// The points.
    pub points: Vec<SamplePoint>,
}

/// One measured input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SamplePoint {
    /// Each scalar's value in decimal.
    pub values: Vec<String>,
    /// Its relative error.
    pub error: ErrorValue,
}

/// `DIR/error-timing.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorTiming {
    /// Seconds to the worst input.
    pub time_to_best: f64,
    /// Seconds of the search.
    pub seconds: f64,
}

/// `DIR/paths.json`: every path of `fpsym path --all-paths` with its verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AllPathsRecord {
    /// `--loop-bound`.
    pub loop_bound: Option<u32>,
    /// Whether the run explored every path up to the bound (else it
    /// stopped early and the list is what it saw).
    pub complete: bool,
    /// Why the run stopped.
    pub stop: String,
    /// Paths not decided again (time limit, interrupt).
    pub not_redecided: usize,
    /// The paths.
    pub paths: Vec<PathEntry>,
    /// Feasible paths.
    pub feasible: usize,
    /// Infeasible paths.
    pub infeasible: usize,
    /// Paths undecided.
    pub unknown: usize,
    /// Paths cut at the loop bound or by an unsupported construct, by why
    /// (not listed).
    pub cut: BTreeMap<String, usize>,
    /// Feasible paths on which ULP-Max removed floats.
    pub ulp_max_effective: usize,
}

/// One path of `--all-paths`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PathEntry {
    /// From 1, in the order the run ended them.
    pub index: usize,
    /// The decisions (`LINE:T`, `LINE:COL:T` where a line has several
    /// conditions, `LINE:caseK:T` for a switch's K-th case, `FILE:...` on
    /// another file).
    pub path: String,
    /// How many decisions.
    pub decisions: usize,
    /// `exit`, `failure: KIND`; `branch side not taken` for a side no state
    /// went on to (the run's solver found it infeasible, or could not tell),
    /// `branch side the run gave up on (WHY)` for one it could not decide
    /// in time.
    pub ending: String,
    /// feasible, infeasible or unknown.
    pub verdict: String,
    /// What decided it: `run` (the run followed it to its end, with a test),
    /// `cp`, or the run's solver asked again.
    pub decided_by: String,
    /// Assertions in its constraint.
    pub constraints: usize,
    /// Free variables.
    pub variables: usize,
    /// cp alone on the path's constraint, with ULP-Max (None: not asked
    /// before the time limit).
    pub with_ulp_max: Option<CpSolve>,
    /// cp alone, without ULP-Max.
    pub without_ulp_max: Option<CpSolve>,
}

/// One cp query of `--all-paths`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CpSolve {
    /// sat, unsat or unknown.
    pub result: String,
    /// Its time.
    pub seconds: f64,
    /// Floats ULP-Max removed from domains.
    pub ulp_max_pruned: f64,
    /// How many times it did.
    pub ulp_max_firings: u64,
}

/// `DIR/fuzz/fuzz.json`: the fuzzing phase's numbers, and its crashes the
/// symbolic run did not reproduce with their input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FuzzRecord {
    /// The phase's time.
    pub seconds: f64,
    /// Executions.
    pub executions: u64,
    /// Corpus entries.
    pub corpus: usize,
    /// Crashes.
    pub crashes: usize,
    /// Seconds to the first crash.
    pub first_crash_seconds: Option<f64>,
    /// Seeds handed to the engine.
    pub seeds: usize,
    /// Findings the fuzzer's seeds led the engine to.
    pub findings_from_fuzzing: usize,
    /// Findings reached by running a crash's input on the engine.
    pub reached_concretely: u64,
    /// Crashes the symbolic run did not reproduce with their input.
    pub crashes_alone: Vec<FuzzCrash>,
    /// The phase was interrupted.
    pub interrupted: bool,
    /// The phase stopped finding new coverage.
    pub plateaued: bool,
}

/// A crash of the fuzzing phase the symbolic run did not reproduce with
/// its input, as the native replay build observes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FuzzCrash {
    /// The fuzzer's input file (`DIR/fuzz/crashes/...`).
    pub input: String,
    /// The kind natively (`assertion-failure`, `out-of-bounds`, ...).
    pub kind: String,
    /// Where natively (the user's file basename), if located.
    pub file: Option<String>,
    /// The line natively, if located.
    pub line: Option<u32>,
    /// What the symbolic run says of it.
    #[serde(flatten)]
    pub said: Said,
}

/// What the symbolic run says of a crash the fuzzing phase found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "symbolic", content = "why")]
pub enum Said {
    /// A finding of the run at the same kind and place (another input).
    Reproduced,
    /// The run did not get there in its time (it claims nothing of it).
    NotReached,
    /// The run says the input does not crash, or claims no input does: a
    /// bug in fpsym's model.
    Contradicted(String),
}
