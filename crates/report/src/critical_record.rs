//! `DIR/critical.json`: what `fpsym critical` answered for each expected
//! range (an input whose result lands outside, or a proof that none does),
//! and the float range interval propagation found. Replay reads the
//! targets and bounds back to check the answers natively.

use serde::{Deserialize, Serialize};

/// `DIR/critical.json`.
pub const CRITICAL_RECORD: &str = "critical.json";

/// One side's answer: is there an input whose result lands there?
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "answer", rename_all = "lowercase")]
pub enum Answer {
    /// Yes: this test gives such a result.
    Sat {
        /// The test's id.
        test: u64,
        /// The result it gives (shortest round-trip decimal, or `inf`).
        result: Option<String>,
        /// The operation that gave it (`return`, a store, ...).
        what: Option<String>,
        /// `FILE:LINE` of that operation.
        at: String,
        /// In a suspicious interval's answer: which one it lands in
        /// (`below`, `above`).
        #[serde(rename = "in", default, skip_serializing_if = "Option::is_none")]
        side: Option<String>,
    },
    /// No: proved (by exhausting the paths exactly, or by interval
    /// propagation, which `why` says).
    Unsat {
        /// How, when not by every path explored exactly.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        why: Option<String>,
    },
    /// Not decided.
    Unknown {
        /// Why not.
        why: String,
    },
}

impl Answer {
    /// `sat`, `unsat` or `unknown`.
    pub fn name(&self) -> &'static str {
        match self {
            Answer::Sat { .. } => "sat",
            Answer::Unsat { .. } => "unsat",
            Answer::Unknown { .. } => "unknown",
        }
    }

    /// The answer in words, as `fpsym critical` prints it.
    pub fn words(&self) -> String {
        match self {
            Answer::Sat { test, result, what, .. } => format!(
                "yes: test {test:06} gives {}{}",
                result.as_deref().unwrap_or("?"),
                match what.as_deref() {
                    Some(w) if w != "return" => format!(" ({w})"),
                    _ => String::new(),
                }
            ),
            Answer::Unsat { why: Some(why) } => format!("no ({why})"),
            Answer::Unsat { why: None } => "no (every path explored exactly)".into(),
            Answer::Unknown { why } => format!("unknown ({why})"),
        }
    }
}

/// The float range of a checked value, by interval propagation over the
/// paths that reached the function's return.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FloatRangeRecord {
    /// The least non-NaN value (None: no float value).
    pub lo: Option<String>,
    /// The greatest non-NaN value.
    pub hi: Option<String>,
    /// Some path may give NaN.
    pub nan: bool,
    /// The range encloses every value of every path.
    pub every_path: bool,
    /// Paths that reached the return.
    pub paths: u64,
    /// Of these, paths whose propagation refuted them.
    pub refuted: u64,
    /// Paths whose propagation stopped before a fixpoint.
    pub not_fixpoint: u64,
    /// Why the range does not enclose every value, when it does not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// An interval between the float range and the expected one, with the
/// answer for it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Suspicious {
    /// `below` or `above` the expected range.
    pub side: String,
    /// Its lower end (None: minus infinity).
    pub lo: Option<String>,
    /// Whether `lo` is in it.
    pub lo_closed: bool,
    /// Its upper end (None: infinity).
    pub hi: Option<String>,
    /// Whether `hi` is in it.
    pub hi_closed: bool,
    /// Proved empty by interval propagation.
    pub empty: bool,
    /// Whether a result lands in it.
    pub answer: Answer,
}

/// One float element of a checked parameter or global.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ElementRecord {
    /// Its name (`p`, `p[1]`, `s.x`).
    pub name: String,
    /// Its byte offset in the object.
    pub offset: u64,
    /// Its C type (`float`, `double`, `long double`).
    #[serde(rename = "type")]
    pub c_type: String,
}

/// What is checked: the return value, the floats behind a pointer
/// parameter, or a global's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TargetRecord {
    /// The function's return value.
    Ret {
        /// Always true.
        ret: bool,
    },
    /// The floats a pointer parameter points to, after the call.
    Param {
        /// The parameter's name.
        param: String,
        /// Its position (from 0).
        index: Option<usize>,
        /// Its float elements.
        elements: Vec<ElementRecord>,
    },
    /// A global's floats, after the call.
    Global {
        /// The global's name.
        global: String,
        /// Its size in bytes.
        size: Option<u64>,
        /// Its float elements.
        elements: Vec<ElementRecord>,
    },
}

/// The finding kinds of an expectation's three sides.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideKinds {
    /// A result below the range.
    pub below: String,
    /// A result above it.
    pub above: String,
    /// A NaN result.
    pub nan: String,
}

/// The answers for one `--expect WHAT=[LO,HI]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExpectRecord {
    /// `ret`, `PARAM`, `PARAM[i]` or `GLOBAL`.
    pub what: String,
    /// The range's lower bound as given.
    pub lo: String,
    /// Its upper bound as given.
    pub hi: String,
    /// The finding kinds of its sides.
    pub kinds: SideKinds,
    /// What is checked.
    pub target: TargetRecord,
    /// A result below `lo`.
    pub below: Answer,
    /// A result above `hi`.
    pub above: Answer,
    /// A NaN result.
    pub nan: Answer,
    /// The float range found.
    pub float_range: FloatRangeRecord,
    /// The intervals between the float range and the expected one.
    pub suspicious: Vec<Suspicious>,
}

impl ExpectRecord {
    /// The answer for a result below (`below`) or above the range: the
    /// suspicious interval's when there is one (it may be proved empty),
    /// else the side's.
    pub fn side_answer(&self, below: bool) -> &Answer {
        let side = if below { "below" } else { "above" };
        self.suspicious
            .iter()
            .find(|s| s.side == side)
            .map_or(if below { &self.below } else { &self.above }, |s| &s.answer)
    }
}

/// The first expectation's range, at the top of the record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExpectedRange {
    /// As [`ExpectRecord::what`].
    pub what: String,
    /// As [`ExpectRecord::lo`].
    pub lo: String,
    /// As [`ExpectRecord::hi`].
    pub hi: String,
}

/// `DIR/critical.json`. The first expectation's answers are also at the
/// top (as before several were allowed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CriticalRecord {
    /// The first expectation's range.
    pub expect: ExpectedRange,
    /// Its answer below.
    pub below: Answer,
    /// Its answer above.
    pub above: Answer,
    /// Its NaN answer.
    pub nan: Answer,
    /// Its float range.
    pub float_range: FloatRangeRecord,
    /// Its suspicious intervals.
    pub suspicious: Vec<Suspicious>,
    /// Every expectation, in the order given (none in a record written
    /// before several were allowed).
    #[serde(default)]
    pub expects: Vec<ExpectRecord>,
}

impl CriticalRecord {
    /// The record of `expects` (at least one).
    pub fn of(expects: Vec<ExpectRecord>) -> Option<CriticalRecord> {
        let first = expects.first()?.clone();
        Some(CriticalRecord {
            expect: ExpectedRange {
                what: first.what,
                lo: first.lo,
                hi: first.hi,
            },
            below: first.below,
            above: first.above,
            nan: first.nan,
            float_range: first.float_range,
            suspicious: first.suspicious,
            expects,
        })
    }

    /// The command's exit code from its answers: 1 when a side has a value
    /// outside, else 4 when one is unknown, else 0 (every side proved; a
    /// side proved empty by propagation counts as proved).
    pub fn exit_code(&self) -> u8 {
        let answers: Vec<&Answer> = self
            .expects
            .iter()
            .flat_map(|x| [x.side_answer(true), x.side_answer(false), &x.nan])
            .collect();
        if answers.iter().any(|a| matches!(a, Answer::Sat { .. })) {
            1
        } else if answers.iter().any(|a| !matches!(a, Answer::Unsat { .. })) {
            4
        } else {
            0
        }
    }
}
