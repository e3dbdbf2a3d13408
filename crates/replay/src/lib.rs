//! Native replay of a `fpsym run` output directory: rebuild the program
//! with clang (the analysis build's [`fpsym_frontend::NATIVE_FLAGS`] plus
//! AddressSanitizer, and coverage on request), feed it each test's inputs
//! through a generated driver, classify what each run did, and confirm
//! every test's recorded end ([`ends_as`]) and every finding (per kind, by
//! the [`Confirmation`]s of a [`Confirmations`] registry). The result is a
//! [`ReplayReport`], also written to `DIR/replay.json`.
//!
//! Layout: `driver` (the C driver and `--function` harness), `native`
//! (the clang build, running a test under a time limit, the symbolizer),
//! `classify` (a run's stderr and status → [`Observed`]), `confirm` (the
//! confirmation trait, its registry, typed ends against observations),
//! `fp` (FP exceptions trapped natively, float-cast overflows sanitized),
//! `coverage` (llvm-profdata and llvm-cov), `export` (a standalone
//! reproducer per finding, the driver with literal inputs; what input
//! values are in C: float formats, classes, hex-float literals).
//!
//! [`replay_test`] replays one test the same way and writes
//! `DIR/replay/test-NNNNNN.json`, leaving `DIR/replay.json` (the whole
//! run's) alone.
#![deny(missing_docs)]

mod classify;
mod confirm;
mod coverage;
mod driver;
pub mod eval;
mod export;
mod fp;
pub mod fuzz;
mod native;
mod range;
mod reach;
pub mod witness;

pub use classify::NativeRun;
pub use confirm::{ends_as, expected, Confirmation, Confirmations, Place, SameKind};
pub use driver::{decode_inputs, encode_inputs};
pub use export::{
    build_command, c_string_literal, element_class, float_class, hex_float_value, reproducer, scalar_format,
    shell_line, FloatClass, Reproducer,
};
pub use fp::{FloatCast, FpTrap};
pub use fpsym_report::{Coverage, CoverageCount, FindingResult, Observation, Observed, ReplayReport, TestResult};
pub use native::{streams, Streams, COVERAGE_FLAGS, REPLAY_FLAGS, TEST_TIMEOUT};
pub use range::{ResultRange, Watched};
pub use reach::{PathFollowed, Reached};

use classify::{classify_rest, driver_markers, observed, Classified};
use fpsym_frontend::UserCode;
use fpsym_report::{EntryRecord, Finding, FindingKind, PathEnd, ReportError, RunRecord, Test};
use native::io;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Why a replay failed. [`ReplayError::is_internal`] tells a bad input
/// (a missing tool or runtime, not a run directory, a failing native
/// build) from a fault of fpsym or a coverage tool.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The directory has no readable `run.json`.
    #[error("{}: not a `fpsym run` output directory: {source}", dir.display())]
    NotARunDirectory {
        /// The directory.
        dir: PathBuf,
        /// Why `run.json` could not be read.
        source: ReportError,
    },
    /// A test or finding record could not be read, or `replay.json` could
    /// not be written.
    #[error(transparent)]
    Record(#[from] ReportError),
    /// `--test N` names a test the run does not have.
    #[error("{}: no test {test} (the tests are {})", dir.display(), list_ids(available))]
    NoSuchTest {
        /// The directory.
        dir: PathBuf,
        /// The id asked for.
        test: u64,
        /// The ids there are.
        available: Vec<u64>,
    },
    /// A test's input bytes are not hex.
    #[error("{}: test {test}: the bytes of input `{object}` are not hex", dir.display())]
    BadTest {
        /// The directory.
        dir: PathBuf,
        /// The test's id.
        test: u64,
        /// The input's name.
        object: String,
    },
    /// A `--function` run whose parameters have no C type the driver can
    /// declare.
    #[error(
        "{}: replay of --function {function}: its parameters have types the replay driver cannot declare",
        dir.display()
    )]
    Undeclarable {
        /// The directory.
        dir: PathBuf,
        /// The function.
        function: String,
    },
    /// A tool could not be started: its Debian package is named.
    #[error("cannot run {tool}: {source} (install the Debian package {package}: scripts/bootstrap)")]
    MissingTool {
        /// The tool (`clang-14`, `llvm-cov-14`, ...).
        tool: String,
        /// The Debian package providing it.
        package: String,
        /// Why it could not be started.
        source: std::io::Error,
    },
    /// The native build could not link clang's sanitizer or profile
    /// runtime.
    #[error(
        "the native replay build failed: clang's sanitizer/profile runtime is missing \
         (install the Debian package libclang-rt-14-dev: scripts/bootstrap)"
    )]
    MissingRuntime {
        /// The linker's diagnostics.
        diagnostics: String,
    },
    /// A step of the native build failed (for instance the program does
    /// not compile with the run's flags).
    #[error("the native replay build failed ({tool}'s diagnostics above)")]
    BuildFailed {
        /// The tool that failed.
        tool: String,
        /// Its diagnostics (shown before the message).
        diagnostics: String,
    },
    /// The fuzzing phase cannot build this run's program at all (not a
    /// failing build: an input it does not take, as preprocessed C).
    #[error("{file}: the fuzzing phase does not build {what}; the symbolic run and its native replay do")]
    NotFuzzable {
        /// The input file.
        file: String,
        /// What kind of input it is.
        what: String,
    },
    /// A coverage tool (llvm-profdata, llvm-cov) ran and failed or wrote
    /// something unreadable.
    #[error("{tool} failed: {message}")]
    ToolFailed {
        /// The tool.
        tool: String,
        /// Its diagnostics.
        message: String,
    },
    /// A file or process of the replay could not be written, read or
    /// started.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or program.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// Test ids for a message: `1, 2, 3` (runs of consecutive ids as `1-40`),
/// `none` when there are none.
fn list_ids(ids: &[u64]) -> String {
    if ids.is_empty() {
        return "none".into();
    }
    let mut parts: Vec<String> = Vec::new();
    let mut k = 0;
    while k < ids.len() {
        let mut e = k;
        while e + 1 < ids.len() && ids[e + 1] == ids[e] + 1 {
            e += 1;
        }
        parts.push(match e - k {
            0 => ids[k].to_string(),
            1 => format!("{}, {}", ids[k], ids[e]),
            _ => format!("{}-{}", ids[k], ids[e]),
        });
        k = e + 1;
    }
    parts.join(", ")
}

impl ReplayError {
    /// Whether the error is fpsym's or a tool's fault rather than the
    /// input's (a CLI's exit 3 rather than 2): a coverage tool that failed.
    pub fn is_internal(&self) -> bool {
        matches!(self, ReplayError::ToolFailed { .. })
    }

    /// A failing build step's diagnostics, to show before the message
    /// (which refers to them).
    pub fn diagnostics(&self) -> Option<&str> {
        match self {
            ReplayError::MissingRuntime { diagnostics } | ReplayError::BuildFailed { diagnostics, .. } => {
                Some(diagnostics)
            }
            _ => None,
        }
    }
}

/// How to replay.
#[derive(Debug, Default, Clone)]
pub struct ReplayOptions {
    /// Measure line and branch coverage of the user's files. Default: false.
    pub coverage: bool,
    /// Also write llvm-cov's HTML report here (implies coverage).
    /// Default: none.
    pub coverage_html: Option<PathBuf>,
    /// Kinds whose confirmations take part although no finding or test of
    /// the run has them: a claim that none happens (no FP overflow, the
    /// target line never reached), checked by what each native run raises.
    /// Default: none.
    pub watch: Vec<FindingKind>,
}

/// Replays every test of the run in `dir` natively and confirms its end
/// and every finding; writes the result to `DIR/replay.json` and returns
/// it. Unconfirmed findings and tests behaving otherwise are in the report
/// ([`ReplayReport::unconfirmed`], [`ReplayReport::mismatched`]), not
/// errors. Scratch files go to `DIR/replay/`.
pub fn replay(dir: &Path, opts: &ReplayOptions, confirmations: &Confirmations) -> Result<ReplayReport, ReplayError> {
    let session = Session::open(dir, opts, confirmations)?;
    let mut report = ReplayReport::default();
    let mut observations: BTreeMap<u64, Observed> = BTreeMap::new();
    for t in &session.tests {
        let (result, _) = session.run(t)?;
        observations.insert(t.id, result.observed.clone());
        report.tests.push(result);
    }
    report.findings = session.findings_of(&observations, confirmations, |_| true);
    report.coverage = session.coverage(opts)?;
    fpsym_report::write_json(&dir.join(fpsym_report::REPLAY), &report)?;
    Ok(report)
}

/// Runs raw inputs in the driver's format (the fuzzing phase's crashes,
/// `DIR/fuzz/crashes/...`) natively, built as [`replay`] builds the run of
/// `dir` (with the confirmations of `opts.watch` and of the run's kinds
/// taking part): what each did, in order. For runs without symbolic
/// arguments or standard input (the fuzzing phase makes none).
pub fn observe_inputs(
    dir: &Path,
    opts: &ReplayOptions,
    confirmations: &Confirmations,
    inputs: &[Vec<u8>],
) -> Result<Vec<Observed>, ReplayError> {
    let session = Session::open(dir, opts, confirmations)?;
    let streams = Streams::default();
    let mut out = Vec::new();
    for (k, input) in inputs.iter().enumerate() {
        let profile = session.profiles.join(format!("input-{k:06}.profraw"));
        let run = native::run_test(
            &session.exe,
            input,
            &streams,
            &session.scratch,
            &profile,
            &session.env,
            &session.user,
        )?;
        out.push(observe(&session.exe, run, &session.taking_part, &session.places)?);
    }
    Ok(out)
}

/// One test replayed natively ([`replay_test`]): its [`TestResult`], the
/// findings it triggers, and the raw facts of the run.
#[derive(Clone, Debug)]
pub struct TestReplay {
    /// The test's end as recorded, as observed, and whether they match.
    pub result: TestResult,
    /// The run's findings whose test this is, each confirmed or not.
    pub findings: Vec<FindingResult>,
    /// The exit status, if the program exited.
    pub exit_code: Option<i32>,
    /// The signal that ended it, if one did.
    pub signal: Option<i32>,
    /// Killed after [`TEST_TIMEOUT`].
    pub timed_out: bool,
    /// What it wrote on stderr (the program, the sanitizers, and the
    /// driver's `FPSYM-` lines).
    pub stderr: String,
    /// Line and branch coverage of this test alone, when asked for.
    pub coverage: Option<Coverage>,
    /// Where the result was written: `DIR/replay/test-NNNNNN.json` (a
    /// [`ReplayReport`] of this test only; `DIR/replay.json`, the whole
    /// run's, is left as it was).
    pub record: PathBuf,
}

/// Replays test `id` of the run in `dir` natively, built exactly as
/// [`replay`] builds it (the confirmations of every kind the run has take
/// part, so the test behaves as in a full replay), and confirms its end
/// and the findings it triggers. Writes `DIR/replay/test-NNNNNN.json` and
/// leaves `DIR/replay.json` alone. A test that does not exist is
/// [`ReplayError::NoSuchTest`], which lists the ids there are.
pub fn replay_test(
    dir: &Path,
    id: u64,
    opts: &ReplayOptions,
    confirmations: &Confirmations,
) -> Result<TestReplay, ReplayError> {
    // The test first: no build for a test that is not there.
    let tests = fpsym_report::read_tests(dir)?;
    if !tests.iter().any(|t| t.id == id) {
        fpsym_report::read_json::<RunRecord>(&dir.join(fpsym_report::RUN_RECORD)).map_err(|source| {
            ReplayError::NotARunDirectory {
                dir: dir.to_path_buf(),
                source,
            }
        })?;
        return Err(ReplayError::NoSuchTest {
            dir: dir.to_path_buf(),
            test: id,
            available: tests.iter().map(|t| t.id).collect(),
        });
    }
    let session = Session::open(dir, opts, confirmations)?;
    let t = session
        .tests
        .iter()
        .find(|t| t.id == id)
        .ok_or_else(|| ReplayError::NoSuchTest {
            dir: dir.to_path_buf(),
            test: id,
            available: session.tests.iter().map(|t| t.id).collect(),
        })?;
    let (result, run) = session.run(t)?;
    let observations = BTreeMap::from([(id, result.observed.clone())]);
    let findings = session.findings_of(&observations, confirmations, |f| f.test == id);
    let coverage = session.coverage(opts)?;
    let report = ReplayReport {
        tests: vec![result.clone()],
        findings: findings.clone(),
        coverage: coverage.clone(),
    };
    let record = dir.join("replay").join(format!("test-{id:06}.json"));
    fpsym_report::write_json(&record, &report)?;
    Ok(TestReplay {
        result,
        findings,
        exit_code: run.code,
        signal: run.signal,
        timed_out: run.timed_out,
        stderr: run.stderr,
        coverage,
        record,
    })
}

/// The raw facts of a native run, without its borrow of the user's files.
struct RunFacts {
    stderr: String,
    code: Option<i32>,
    signal: Option<i32>,
    timed_out: bool,
}

/// A replay under way: the run's records, the native build, and what the
/// runs share.
struct Session<'c> {
    dir: PathBuf,
    record: RunRecord,
    tests: Vec<Test>,
    findings: Vec<Finding>,
    taking_part: Vec<&'c dyn Confirmation>,
    user: UserCode,
    pointer_result: bool,
    exe: PathBuf,
    profiles: PathBuf,
    scratch: PathBuf,
    env: Vec<(String, String)>,
    /// Addresses already symbolized (one llvm-symbolizer run each).
    places: Places,
}

impl<'c> Session<'c> {
    /// Reads the run of `dir` and builds it natively (for coverage when
    /// `opts` or a confirmation asks).
    fn open(dir: &Path, opts: &ReplayOptions, confirmations: &'c Confirmations) -> Result<Session<'c>, ReplayError> {
        let coverage_on = opts.coverage || opts.coverage_html.is_some();
        let record: RunRecord = fpsym_report::read_json(&dir.join(fpsym_report::RUN_RECORD)).map_err(|source| {
            ReplayError::NotARunDirectory {
                dir: dir.to_path_buf(),
                source,
            }
        })?;
        let tests = fpsym_report::read_tests(dir)?;
        let findings = fpsym_report::read_findings(dir)?;
        // The confirmations of the kinds this run has take part in the
        // build and the classification.
        let kinds: BTreeSet<FindingKind> = findings
            .iter()
            .map(|f| f.kind.clone())
            .chain(tests.iter().filter_map(|t| match &t.end {
                PathEnd::Error(k) => Some(k.clone()),
                _ => None,
            }))
            .chain(opts.watch.iter().cloned())
            .collect();
        let taking_part = confirmations.taking_part(&kinds);
        let files: Vec<PathBuf> = record.files.iter().map(PathBuf::from).collect();
        let user = UserCode::from_inputs(&files);
        // For --function runs, an integer result is the exit status; a
        // pointer result (an address of the run's memory) is not compared.
        let pointer_result = matches!(&record.entry, EntryRecord::Function { ret: Some(r), .. } if r == "void *");
        let profiles_read = taking_part.iter().any(|c| c.needs_profile());
        let exe = native::build(dir, &record, coverage_on || profiles_read, &taking_part)?;
        let profiles = dir.join("replay").join("profiles");
        let _ = std::fs::remove_dir_all(&profiles);
        std::fs::create_dir_all(&profiles).map_err(io(&profiles))?;
        let scratch = dir.join("replay").join("input.bin");
        let env = record.env_pairs();
        Ok(Session {
            dir: dir.to_path_buf(),
            record,
            tests,
            findings,
            taking_part,
            user,
            pointer_result,
            exe,
            profiles,
            scratch,
            env,
            places: Places::default(),
        })
    }

    /// Runs test `t` natively: its result, and the run's raw facts.
    fn run(&self, t: &Test) -> Result<(TestResult, RunFacts), ReplayError> {
        let bad = |object| ReplayError::BadTest {
            dir: self.dir.clone(),
            test: t.id,
            object,
        };
        // Arguments and standard input go to the process, the rest to the driver.
        let (streams, objects) = native::streams(&self.record, &t.objects).map_err(bad)?;
        let input = driver::encode_inputs(objects).map_err(bad)?;
        let profile = self.profiles.join(format!("{:06}.profraw", t.id));
        let run = native::run_test(
            &self.exe,
            &input,
            &streams,
            &self.scratch,
            &profile,
            &self.env,
            &self.user,
        )?;
        let facts = RunFacts {
            stderr: run.stderr.clone(),
            code: run.code,
            signal: run.signal,
            timed_out: run.timed_out,
        };
        let o = observe(&self.exe, run, &self.taking_part, &self.places)?;
        Ok((
            TestResult {
                test: t.id,
                expected: expected(&t.end, self.pointer_result),
                confirmed: ends_as(&t.end, &o, self.pointer_result),
                observed: o,
            },
            facts,
        ))
    }

    /// The findings `which` selects, each confirmed (or not) by the native
    /// run of its test in `observations`.
    fn findings_of(
        &self,
        observations: &BTreeMap<u64, Observed>,
        confirmations: &Confirmations,
        which: impl Fn(&Finding) -> bool,
    ) -> Vec<FindingResult> {
        self.findings
            .iter()
            .filter(|f| which(f))
            .map(|f| {
                let o = observations
                    .get(&f.test)
                    .cloned()
                    .unwrap_or_else(|| Observed::bare(Observation::MissingTest));
                FindingResult {
                    kind: f.kind.clone(),
                    file: f.file.clone(),
                    line: f.line,
                    test: f.test,
                    confirmed: confirmations.confirms(f, &o),
                    reason: confirmations.missing_rule(&f.kind),
                    observed: o,
                }
            })
            .collect()
    }

    /// Coverage of the tests run so far, when `opts` asks for it.
    fn coverage(&self, opts: &ReplayOptions) -> Result<Option<Coverage>, ReplayError> {
        if !(opts.coverage || opts.coverage_html.is_some()) {
            return Ok(None);
        }
        Ok(Some(coverage::coverage(
            &self.dir,
            &self.exe,
            &self.record.sources(),
            opts.coverage_html.as_deref(),
        )?))
    }
}

/// What a run did: a timeout; the driver's markers (a `reach_error` call
/// located by the symbolizer, a replay error); the taking-part
/// confirmations' classifiers in registration order; the built-in rules.
/// Source places of code addresses of the program, as symbolized so far.
type Places = std::cell::RefCell<std::collections::HashMap<String, Option<(String, u32)>>>;

fn observe(
    exe: &Path,
    run: NativeRun<'_>,
    taking_part: &[&dyn Confirmation],
    places: &Places,
) -> Result<Observed, ReplayError> {
    let mut o = match driver_markers(&run) {
        _ if run.timed_out => Observed::bare(Observation::Timeout),
        Some(Classified::Done(o)) => o,
        Some(Classified::ReachError(addr)) => {
            let loc = native::symbolize(exe, &addr)?;
            observed(Observation::Finding(FindingKind::ReachError), loc, None)
        }
        None => match taking_part.iter().find_map(|c| c.classify(&run)) {
            Some(o) => o,
            None => classify_rest(&run),
        },
    };
    // What the run raised on the way, whatever its end.
    let symbolize = |addr: &str| {
        if let Some(p) = places.borrow().get(addr) {
            return p.clone();
        }
        let p = native::symbolize(exe, addr).ok().flatten();
        places.borrow_mut().insert(addr.to_string(), p.clone());
        p
    };
    o.raised = taking_part.iter().flat_map(|c| c.raised(&run, &symbolize)).collect();
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_ids_are_listed_as_runs() {
        assert_eq!(list_ids(&[]), "none");
        assert_eq!(list_ids(&[4]), "4");
        assert_eq!(list_ids(&[1, 2]), "1, 2");
        assert_eq!(list_ids(&[1, 2, 3, 5, 7, 8, 9, 10]), "1-3, 5, 7-10");
        let e = ReplayError::NoSuchTest {
            dir: PathBuf::from("out"),
            test: 9,
            available: vec![1, 2, 3],
        };
        assert_eq!(e.to_string(), "out: no test 9 (the tests are 1-3)");
    }
}
