//! `replay.json`: what each test did natively and whether it confirmed
//! what the run recorded.

use crate::FindingKind;
use serde::{Deserialize, Serialize};

/// What a native run did, as a kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Observation {
    /// It exited (`code` holds the status).
    Exit,
    /// It failed the way a finding of this kind does (an assertion, a
    /// sanitizer report, SIGFPE, a reach_error call, ...).
    Finding(FindingKind),
    /// It ran past the time limit.
    Timeout,
    /// It died by a signal (`code` holds it) not tied to a finding kind.
    Signal,
    /// The replay driver itself failed (out of inputs, an assumption
    /// violated): the message is in `file`.
    ReplayError,
    /// A finding names a test that does not exist.
    MissingTest,
}

impl Observation {
    /// The name in records: `exit`, `timeout`, `signal`, `replay-error`,
    /// `missing-test`, or the finding kind's name.
    pub fn name(&self) -> &str {
        match self {
            Observation::Exit => "exit",
            Observation::Finding(k) => k.name(),
            Observation::Timeout => "timeout",
            Observation::Signal => "signal",
            Observation::ReplayError => "replay-error",
            Observation::MissingTest => "missing-test",
        }
    }
    /// The observation named `s`.
    pub fn from_name(s: &str) -> Observation {
        match s {
            "exit" => Observation::Exit,
            "timeout" => Observation::Timeout,
            "signal" => Observation::Signal,
            "replay-error" => Observation::ReplayError,
            "missing-test" => Observation::MissingTest,
            k => Observation::Finding(FindingKind::from_name(k)),
        }
    }
}

impl Serialize for Observation {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Observation {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Observation::from_name(&String::deserialize(d)?))
    }
}

/// What one native run did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Observed {
    /// What happened.
    pub kind: Observation,
    /// Source file of the failure (basename), if located; for a
    /// replay error, its message.
    pub file: Option<String>,
    /// Line of the failure, if located.
    pub line: Option<u32>,
    /// Exit status (for `exit`) or signal number.
    pub code: Option<i32>,
    /// For `--function` runs with an integer result: `(int)` of the
    /// function's result as the driver printed it (compared exactly; the
    /// exit status only keeps its low 8 bits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<i64>,
    /// What the run raised without ending there (floating-point
    /// exceptions caught by a trap, sanitizer reports it recovers from),
    /// in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub raised: Vec<Raised>,
}

/// Something a native run raised and went on after.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Raised {
    /// Its kind.
    pub kind: FindingKind,
    /// The user's file it was raised in (basename), if located.
    pub file: Option<String>,
    /// The line, if located.
    pub line: Option<u32>,
}

impl Observed {
    /// An observation of `kind` with nothing else known.
    pub fn bare(kind: Observation) -> Observed {
        Observed {
            kind,
            file: None,
            line: None,
            code: None,
            result: None,
            raised: Vec::new(),
        }
    }
}

/// One test replayed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TestResult {
    /// The test's id.
    pub test: u64,
    /// How the run said it ends (the test's `detail`, for people).
    pub expected: String,
    /// What it did natively.
    pub observed: Observed,
    /// Whether it ended as recorded.
    pub confirmed: bool,
}

/// One finding replayed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FindingResult {
    /// The finding's kind.
    pub kind: FindingKind,
    /// Its file.
    pub file: String,
    /// Its line.
    pub line: u32,
    /// Its test.
    pub test: u64,
    /// What the test did natively.
    pub observed: Observed,
    /// Whether the native run showed the same kind at the same place.
    pub confirmed: bool,
    /// Why it could not be confirmed, when no rule for its kind exists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Covered and total counts of one kind of coverage (llvm-cov's totals).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CoverageCount {
    /// Items in the user's files.
    pub count: u64,
    /// Items executed by some test.
    pub covered: u64,
    /// `covered / count` in percent.
    pub percent: f64,
}

/// Native coverage of the user's files over all tests.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Coverage {
    /// Lines.
    pub lines: CoverageCount,
    /// Branches.
    pub branches: CoverageCount,
    /// Execution counts per source line, by file (llvm-cov's line
    /// coverage; lines without code are absent). Empty in records written
    /// before it was kept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<FileLines>,
}

/// How often each line of one source file ran, over all tests.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FileLines {
    /// The file, as llvm-cov names it (the path the program was built from).
    pub file: String,
    /// `[line, count]` for every line with code, by line: count 0 is a
    /// line no test ran.
    pub lines: Vec<(u32, u64)>,
}

impl Coverage {
    /// The counts of `file`'s lines, if it was measured (matched by the
    /// path as given, or else by the path's last components: a finding's
    /// file and llvm-cov's may be spelt differently).
    pub fn lines_of(&self, file: &str) -> Option<&FileLines> {
        self.files.iter().find(|f| f.file == file).or_else(|| {
            let name = std::path::Path::new(file).file_name()?;
            let mut same = self
                .files
                .iter()
                .filter(|f| std::path::Path::new(&f.file).file_name() == Some(name));
            let first = same.next()?;
            // Two measured files of that name: ambiguous.
            same.next().is_none().then_some(first)
        })
    }
}

/// The result of replaying a run (`DIR/replay.json`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReplayReport {
    /// Every test.
    pub tests: Vec<TestResult>,
    /// Every finding.
    pub findings: Vec<FindingResult>,
    /// With coverage measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coverage: Option<Coverage>,
}

impl ReplayReport {
    /// Findings the native runs did not confirm.
    pub fn unconfirmed(&self) -> usize {
        self.findings.iter().filter(|f| !f.confirmed).count()
    }
    /// Tests that ended otherwise natively than the run recorded.
    pub fn mismatched(&self) -> usize {
        self.tests.iter().filter(|t| !t.confirmed).count()
    }
}
