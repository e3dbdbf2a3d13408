//! The outcome of a run: counters, why it stopped, the verdict
//! (`stats.json`).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Which path endings are findings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Property {
    /// Every violation the engine detects is a finding (assertion failures,
    /// `reach_error`, `abort`, division by zero, memory errors, ...).
    #[default]
    AllFindings,
    /// SV-COMP `unreach-call`: only `reach_error()`/`__VERIFIER_error()`
    /// are findings. `abort`, failed assertions and integer division by
    /// zero end a path normally (the test says how); other violations
    /// (memory errors, `unreachable`) are undefined behaviour: the path
    /// stops without a finding and the verdict is incomplete.
    UnreachCall,
    /// Test-Comp `coverage-error`: tests that call `reach_error()`. What
    /// is a finding is as for [`Property::UnreachCall`]; there is no
    /// verdict to print.
    CoverageError,
    /// Test-Comp `coverage-branches`: tests covering the program's
    /// branches. Every path's test counts; findings as for
    /// [`Property::UnreachCall`] (Test-Comp's tasks `abort()` outside their
    /// assumptions).
    CoverageBranches,
}

impl Property {
    /// The property an SV-COMP property file (`.prp`) states, if fpsym
    /// checks it: unreach-call, `CHECK( init(main()), LTL(G !
    /// call(reach_error())) )` (or `__VERIFIER_error`), whitespace aside.
    /// The Test-Comp properties `coverage-error`, `COVER( init(main()),
    /// FQL(COVER EDGES(@CALL(reach_error))) )`, and `coverage-branches`,
    /// `COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )`, are
    /// read too.
    pub fn from_prp(text: &str) -> Option<Property> {
        const UNREACH_CALL: [&str; 2] = [
            "CHECK(init(main()),LTL(G!call(reach_error())))",
            "CHECK(init(main()),LTL(G!call(__VERIFIER_error())))",
        ];
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let same = |p: Property| {
            p.prp()
                .is_some_and(|t| t.split_whitespace().collect::<String>() == compact)
        };
        if UNREACH_CALL.contains(&compact.as_str()) {
            Some(Property::UnreachCall)
        } else {
            [Property::CoverageError, Property::CoverageBranches]
                .into_iter()
                .find(|p| same(*p))
        }
    }

    /// The property by its SV-COMP/Test-Comp name (`unreach-call`,
    /// `coverage-error`, `coverage-branches`).
    pub fn from_name(name: &str) -> Option<Property> {
        Some(match name {
            "unreach-call" => Property::UnreachCall,
            "coverage-error" => Property::CoverageError,
            "coverage-branches" => Property::CoverageBranches,
            _ => return None,
        })
    }

    /// Its name in records and on the command line (`all-findings`,
    /// `unreach-call`, `coverage-error`, `coverage-branches`).
    pub fn name(self) -> &'static str {
        match self {
            Property::AllFindings => "all-findings",
            Property::UnreachCall => "unreach-call",
            Property::CoverageError => "coverage-error",
            Property::CoverageBranches => "coverage-branches",
        }
    }

    /// The text of its `.prp` file (None: [`Property::AllFindings`]).
    pub fn prp(self) -> Option<&'static str> {
        Some(match self {
            Property::AllFindings => return None,
            Property::UnreachCall => "CHECK( init(main()), LTL(G ! call(reach_error())) )",
            Property::CoverageError => "COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )",
            Property::CoverageBranches => "COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )",
        })
    }

    /// Only calls of `reach_error()` are findings (unreach-call and the
    /// Test-Comp properties).
    pub fn reach_error_only(self) -> bool {
        self != Property::AllFindings
    }
}

/// Counters of a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Stats {
    /// Instructions executed (all states).
    pub instructions: u64,
    /// Of those, instructions the concrete fast path ran on machine values.
    pub fast_instructions: u64,
    /// Solver queries issued.
    pub queries: u64,
    /// Seconds spent in the solver.
    pub solver_seconds: f64,
    /// Paths that ran to their end (exit or error).
    pub paths_completed: u64,
    /// Paths stopped early (loop bound, unsupported, budget).
    pub paths_partial: u64,
    /// Paths found infeasible (assumptions, a branch oracle).
    pub paths_infeasible: u64,
    /// Tests written.
    pub tests: u64,
    /// Distinct findings.
    pub findings: u64,
    /// Branch sides dropped because the solver could not decide them.
    pub dropped: u64,
    /// Queries re-asked, with a doubled timeout, for branch sides whose
    /// query had timed out.
    pub retries: u64,
    /// Branch sides that had timed out and were found feasible by a retry
    /// (then explored).
    pub recovered: u64,
    /// Branch sides that had timed out and were found infeasible by a retry.
    pub recovered_infeasible: u64,
    /// Branch sides a branch oracle excluded (not asked about, not
    /// explored): a run with any is never "verified".
    pub excluded: u64,
    /// Queries answered by a seed's input (the side of a branch a seed
    /// of the native fuzzing phase takes), without the solver; they are
    /// counted in `queries` too.
    pub seeded_queries: u64,
    /// Largest resident set of the process seen by the memory limit's
    /// checks, in bytes (0 where it cannot be read).
    pub max_resident_bytes: u64,
    /// States created.
    pub states: u64,
    /// Branch edges of the user's code taken / total.
    pub branches_covered: u64,
    /// Total branch edges of the user's code.
    pub branches_total: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Why the run stopped, with the value that made it stop where there is
/// one (egg's `StopReason`).
///
/// Serialised (flattened into [`Summary`]) as `"stop": KIND`, the kebab-case
/// name (`exhausted`, `max-time`, `max-memory`, `max-states`,
/// `max-instructions`, `interrupted`, `solver-fault`), plus
/// `"stop_value": VALUE` for the kinds that carry one.
#[derive(Clone, Debug, PartialEq)]
pub enum StopReason {
    /// Every path was explored.
    Exhausted,
    /// `max_time` ran out: the limit, in seconds.
    MaxTime(f64),
    /// The resident set exceeded `max_memory`: the resident bytes seen.
    MaxMemory(u64),
    /// More live states than `max_states`: the number seen.
    MaxStates(usize),
    /// `max_instructions` reached: the instructions executed.
    MaxInstructions(u64),
    /// `max_queries` reached: the solver queries asked.
    MaxQueries(u64),
    /// Interrupted (Ctrl-C).
    Interrupted,
    /// The run's question was answered: a finding, where one is all a
    /// mode asks (`stop_at_finding`: a path reached, a critical value).
    Goal,
    /// The solver failed in a way that is not an answer (a model that
    /// does not satisfy its query, a cross-check disagreement, a backend
    /// error): its message. A bug in fpsym or a backend; the CLI exits 3.
    SolverFault(String),
}

impl StopReason {
    /// The kebab-case name of the kind (`max-time`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            StopReason::Exhausted => "exhausted",
            StopReason::MaxTime(_) => "max-time",
            StopReason::MaxMemory(_) => "max-memory",
            StopReason::MaxStates(_) => "max-states",
            StopReason::MaxInstructions(_) => "max-instructions",
            StopReason::MaxQueries(_) => "max-queries",
            StopReason::Interrupted => "interrupted",
            StopReason::Goal => "goal",
            StopReason::SolverFault(_) => "solver-fault",
        }
    }
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StopReason::Exhausted => f.write_str("every path explored"),
            StopReason::MaxTime(s) => write!(f, "time limit of {} s reached", seconds(*s)),
            StopReason::MaxMemory(b) => write!(f, "memory limit: {} MiB resident", b >> 20),
            StopReason::MaxStates(n) => write!(f, "state limit: {n} live states"),
            StopReason::MaxInstructions(n) => write!(f, "instruction limit: {n} instructions"),
            StopReason::MaxQueries(n) => write!(f, "query limit: {n} solver queries"),
            StopReason::Interrupted => f.write_str("interrupted"),
            StopReason::Goal => f.write_str("goal reached"),
            StopReason::SolverFault(m) => write!(f, "solver fault: {m}"),
        }
    }
}

/// A duration in seconds for people: whole seconds as they are (`60`),
/// others to a tenth of a second from 1 s on (`57.3`), to two significant
/// digits below (`0.25`, `0.0012`). A limit given as `--max-time 120`
/// and halved by a mode is then `60`, not `60.000000001`.
pub fn seconds(s: f64) -> String {
    if !s.is_finite() {
        return s.to_string();
    }
    let rounded = if s.abs() >= 1.0 {
        (s * 10.0).round() / 10.0
    } else if s == 0.0 {
        0.0
    } else {
        let scale = 10f64.powi(1 - s.abs().log10().floor() as i32);
        (s * scale).round() / scale
    };
    // `{}` prints the shortest decimal that reads back as the value.
    format!("{rounded}")
}

/// A stop reason as written in JSON.
#[derive(Serialize, Deserialize)]
struct StopRepr {
    stop: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stop_value: Option<serde_json::Value>,
}

impl Serialize for StopReason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let value = match self {
            StopReason::Exhausted | StopReason::Interrupted | StopReason::Goal => None,
            StopReason::MaxTime(x) => Some(serde_json::json!(x)),
            StopReason::MaxMemory(x) => Some(serde_json::json!(x)),
            StopReason::MaxStates(x) => Some(serde_json::json!(x)),
            StopReason::MaxInstructions(x) => Some(serde_json::json!(x)),
            StopReason::MaxQueries(x) => Some(serde_json::json!(x)),
            StopReason::SolverFault(x) => Some(serde_json::json!(x)),
        };
        StopRepr {
            stop: self.kind().to_string(),
            stop_value: value,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for StopReason {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let r = StopRepr::deserialize(d)?;
        let v = r.stop_value.unwrap_or(serde_json::Value::Null);
        let bad = || D::Error::custom(format!("stop `{}`: bad or missing stop_value {v}", r.stop));
        Ok(match r.stop.as_str() {
            "exhausted" => StopReason::Exhausted,
            "interrupted" => StopReason::Interrupted,
            "goal" => StopReason::Goal,
            "max-time" => StopReason::MaxTime(v.as_f64().ok_or_else(bad)?),
            "max-memory" => StopReason::MaxMemory(v.as_u64().ok_or_else(bad)?),
            "max-states" => StopReason::MaxStates(v.as_u64().ok_or_else(bad)? as usize),
            "max-instructions" => StopReason::MaxInstructions(v.as_u64().ok_or_else(bad)?),
            "max-queries" => StopReason::MaxQueries(v.as_u64().ok_or_else(bad)?),
            "solver-fault" => StopReason::SolverFault(v.as_str().ok_or_else(bad)?.to_string()),
            other => return Err(D::Error::custom(format!("unknown stop reason `{other}`"))),
        })
    }
}

/// The verdict of a run or of one question a mode asks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "verdict", content = "why")]
pub enum Verdict {
    /// At least one finding.
    BugFound,
    /// Every path explored, nothing concretized or dropped, no finding.
    Verified,
    /// No finding can happen, proved by invariants (a loop's paths were not
    /// all explored): the invariants that prove it.
    Proved(String),
    /// No finding, but not everything was explored exactly: why.
    Incomplete(String),
    /// What was asked for (a path, a line) happens: the test that shows it.
    Feasible(String),
    /// What was asked for (a path, a line) cannot happen under exact IEEE
    /// semantics: why (the proof's summary).
    Infeasible(String),
    /// Neither found nor refuted: why (a timeout, an unsupported
    /// construct on the way).
    Unknown(String),
}

impl Verdict {
    /// Its name in records (`bug-found`, `verified`, `proved`,
    /// `incomplete`, `feasible`, `infeasible`, `unknown`).
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::BugFound => "bug-found",
            Verdict::Verified => "verified",
            Verdict::Proved(_) => "proved",
            Verdict::Incomplete(_) => "incomplete",
            Verdict::Feasible(_) => "feasible",
            Verdict::Infeasible(_) => "infeasible",
            Verdict::Unknown(_) => "unknown",
        }
    }

    /// Its reason, when it has one.
    pub fn why(&self) -> Option<&str> {
        match self {
            Verdict::BugFound | Verdict::Verified => None,
            Verdict::Proved(w)
            | Verdict::Incomplete(w)
            | Verdict::Feasible(w)
            | Verdict::Infeasible(w)
            | Verdict::Unknown(w) => Some(w),
        }
    }
}

/// The result of a run (`stats.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Counters.
    pub stats: Stats,
    /// Why the run stopped (`stop` and `stop_value` in JSON).
    #[serde(flatten)]
    pub stop: StopReason,
    /// The verdict.
    pub verdict: Verdict,
    /// Why the exploration was not exhaustive and exact, if it was not
    /// (also when bugs were found: "no bug elsewhere" is then not shown).
    pub incomplete: Option<String>,
    /// Why the paths a branch oracle let through were not all explored
    /// exactly, if they were not: `incomplete` without the oracle's own
    /// exclusions. None means a directed mode's question about those
    /// paths is answered (e.g. a line proven unreachable).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub directed_incomplete: Option<String>,
    /// The solver chain's counters and timings (name → value; a value
    /// that is not a finite number is written as `null`).
    #[serde(default, deserialize_with = "finite_or_null")]
    pub solver: BTreeMap<String, f64>,
    /// The property checked, when not every finding counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub property: Option<Property>,
    /// With `--property unreach-call`: the SV-COMP verdict
    /// (`false(unreach-call)`, `true`, `unknown`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sv_comp: Option<String>,
    /// With `print`: the format strings the program printed, in execution
    /// order over all paths.
    #[serde(skip)]
    pub printed: Vec<String>,
    /// How the command's time went: each phase (proof, fuzzing, search,
    /// ...), what it was given and what it used, in the order they ran.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phases: Vec<PhaseTime>,
    /// When a proof through loops was tried (`--prove`): its outcome as the
    /// `proof:` line says it (what proves the verdict and how, or why
    /// nothing was proved: where the analysis gave up or which call it
    /// cannot exclude).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<String>,
}

/// One phase of a command: what it was given and what it used, in seconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PhaseTime {
    /// `proof`, `fuzz`, `search`, `follow-up`, `classification`,
    /// `claim-check`, `replay`, `invariant-check`.
    pub phase: String,
    /// Its share of `--max-time` (None: not bounded by it).
    pub given: Option<f64>,
    /// What it used.
    pub used: f64,
}

/// Reads a map whose `null` values stand for numbers JSON cannot hold (NaN).
fn finite_or_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<BTreeMap<String, f64>, D::Error> {
    let m = BTreeMap::<String, Option<f64>>::deserialize(d)?;
    Ok(m.into_iter().map(|(k, v)| (k, v.unwrap_or(f64::NAN))).collect())
}

impl Summary {
    /// The SV-COMP verdict of an unreach-call run: `false(unreach-call)`
    /// when a reach_error call was found, `true` only when the run verified
    /// the program (every path explored exactly, or a proof by invariants),
    /// `unknown` otherwise.
    ///
    /// An `unknown` verdict (native execution contradicted the model, the
    /// claim could not be checked) is `unknown` whatever was found.
    pub fn sv_comp_verdict(&self) -> &'static str {
        match self.verdict {
            Verdict::Unknown(_) => "unknown",
            Verdict::BugFound => "false(unreach-call)",
            _ if self.stats.findings > 0 => "false(unreach-call)",
            Verdict::Verified | Verdict::Proved(_) => "true",
            _ => "unknown",
        }
    }

    /// Replaces the verdict, and the SV-COMP verdict with it when the run
    /// has one.
    pub fn set_verdict(&mut self, v: Verdict) {
        self.verdict = v;
        if self.sv_comp.is_some() {
            self.sv_comp = Some(self.sv_comp_verdict().to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_rounded_for_people() {
        assert_eq!(seconds(57.275740069), "57.3");
        assert_eq!(seconds(60.0), "60");
        assert_eq!(seconds(59.99), "60");
        assert_eq!(seconds(0.25), "0.25");
        assert_eq!(seconds(0.0012345), "0.0012");
        assert_eq!(seconds(0.0), "0");
        assert_eq!(
            StopReason::MaxTime(57.275740069).to_string(),
            "time limit of 57.3 s reached"
        );
    }

    #[test]
    fn property_files() {
        let prp = "CHECK( init(main()), LTL(G ! call(reach_error())) )\n";
        assert_eq!(Property::from_prp(prp), Some(Property::UnreachCall));
        assert_eq!(Property::from_prp("CHECK( init(main()), LTL(G valid-free) )"), None);
        // Test-Comp's, as published (spacing aside).
        let cover = "COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )\n";
        assert_eq!(Property::from_prp(cover), Some(Property::CoverageError));
        let branches = "COVER(init(main()),FQL(COVER EDGES(@DECISIONEDGE)))";
        assert_eq!(Property::from_prp(branches), Some(Property::CoverageBranches));
        assert_eq!(
            Property::from_prp("COVER( init(main()), FQL(COVER EDGES(@BASICBLOCKENTRY)) )"),
            None
        );
        for p in [
            Property::UnreachCall,
            Property::CoverageError,
            Property::CoverageBranches,
        ] {
            assert_eq!(Property::from_name(p.name()), Some(p));
            assert_eq!(Property::from_prp(p.prp().unwrap()), Some(p));
        }
    }

    #[test]
    fn summaries_round_trip() {
        for stop in [
            StopReason::Exhausted,
            StopReason::MaxTime(2.5),
            StopReason::MaxStates(12),
            StopReason::SolverFault("disagreement".into()),
        ] {
            let s = Summary {
                stats: Stats {
                    tests: 3,
                    ..Stats::default()
                },
                stop,
                verdict: Verdict::Incomplete("loop bound 2 reached".into()),
                incomplete: Some("loop bound 2 reached".into()),
                directed_incomplete: Some("loop bound 2 reached".into()),
                solver: [("cp.queries".to_string(), 4.0)].into_iter().collect(),
                property: Some(Property::UnreachCall),
                sv_comp: Some("unknown".into()),
                printed: vec![],
                phases: vec![],
                proof: None,
            };
            let text = serde_json::to_string(&s).unwrap();
            let back: Summary = serde_json::from_str(&text).unwrap();
            assert_eq!(back, s, "{text}");
            let mut odd = s.clone();
            odd.solver.insert("cp.ratio".into(), f64::NAN);
            let back: Summary = serde_json::from_str(&serde_json::to_string(&odd).unwrap()).unwrap();
            assert!(back.solver["cp.ratio"].is_nan());
        }
        let v = serde_json::to_value(Verdict::BugFound).unwrap();
        assert_eq!(v, serde_json::json!({"verdict": "bug-found"}));
    }

    #[test]
    fn the_sv_comp_verdict_follows_the_verdict() {
        let mut s = Summary {
            stats: Stats::default(),
            stop: StopReason::Exhausted,
            verdict: Verdict::Verified,
            incomplete: None,
            directed_incomplete: None,
            solver: BTreeMap::new(),
            property: Some(Property::UnreachCall),
            sv_comp: Some("true".into()),
            printed: vec![],
            phases: vec![],
            proof: None,
        };
        // A claim withdrawn is no proof; a failure seen natively is a bug.
        s.set_verdict(Verdict::Unknown("native execution contradicts the model".into()));
        assert_eq!(s.sv_comp.as_deref(), Some("unknown"));
        s.set_verdict(Verdict::BugFound);
        assert_eq!(s.sv_comp.as_deref(), Some("false(unreach-call)"));
        // Findings under an unknown verdict are not vouched for.
        s.stats.findings = 1;
        s.set_verdict(Verdict::Unknown("the model disagrees".into()));
        assert_eq!(s.sv_comp.as_deref(), Some("unknown"));
        s.set_verdict(Verdict::Incomplete("time".into()));
        assert_eq!(s.sv_comp.as_deref(), Some("false(unreach-call)"));
        // Without the property there is no SV-COMP verdict to keep.
        s.sv_comp = None;
        s.set_verdict(Verdict::Verified);
        assert_eq!(s.sv_comp, None);
    }
}
