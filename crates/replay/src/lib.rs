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
//! `coverage` (llvm-profdata and llvm-cov).
#![deny(missing_docs)]

mod classify;
mod confirm;
mod coverage;
mod driver;
mod fp;
mod native;
mod range;
mod reach;

pub use classify::NativeRun;
pub use confirm::{ends_as, expected, Confirmation, Confirmations, Place, SameKind};
pub use fp::{FloatCast, FpTrap};
pub use fpsym_report::{Coverage, CoverageCount, FindingResult, Observation, Observed, ReplayReport, TestResult};
pub use native::{COVERAGE_FLAGS, REPLAY_FLAGS, TEST_TIMEOUT};
pub use range::{ResultRange, Watched};
pub use reach::{PathFollowed, Reached};

use classify::{classify_rest, driver_markers, observed, Classified};
use fpsym_frontend::UserCode;
use fpsym_report::{EntryRecord, FindingKind, PathEnd, ReportError, RunRecord};
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
}

/// Replays every test of the run in `dir` natively and confirms its end
/// and every finding; writes the result to `DIR/replay.json` and returns
/// it. Unconfirmed findings and tests behaving otherwise are in the report
/// ([`ReplayReport::unconfirmed`], [`ReplayReport::mismatched`]), not
/// errors. Scratch files go to `DIR/replay/`.
pub fn replay(dir: &Path, opts: &ReplayOptions, confirmations: &Confirmations) -> Result<ReplayReport, ReplayError> {
    let coverage_on = opts.coverage || opts.coverage_html.is_some();
    let record: RunRecord = fpsym_report::read_json(&dir.join(fpsym_report::RUN_RECORD)).map_err(|source| {
        ReplayError::NotARunDirectory {
            dir: dir.to_path_buf(),
            source,
        }
    })?;
    let tests = fpsym_report::read_tests(dir)?;
    let findings = fpsym_report::read_findings(dir)?;
    // The confirmations of the kinds this run has take part in the build
    // and the classification.
    let kinds: BTreeSet<FindingKind> = findings
        .iter()
        .map(|f| f.kind.clone())
        .chain(tests.iter().filter_map(|t| match &t.end {
            PathEnd::Error(k) => Some(k.clone()),
            _ => None,
        }))
        .collect();
    let taking_part = confirmations.taking_part(&kinds);
    let files: Vec<PathBuf> = record.files.iter().map(PathBuf::from).collect();
    let user = UserCode::from_inputs(&files);
    // For --function runs, an integer result is the exit status; a pointer
    // result (an address of the run's memory) is not compared.
    let pointer_result = matches!(&record.entry, EntryRecord::Function { ret: Some(r), .. } if r == "void *");
    let profiles_read = taking_part.iter().any(|c| c.needs_profile());
    let exe = native::build(dir, &record, coverage_on || profiles_read, &taking_part)?;
    let profiles = dir.join("replay").join("profiles");
    let _ = std::fs::remove_dir_all(&profiles);
    std::fs::create_dir_all(&profiles).map_err(io(&profiles))?;
    let scratch = dir.join("replay").join("input.bin");
    let env = record.env_pairs();
    let mut report = ReplayReport::default();
    let mut observations: BTreeMap<u64, Observed> = BTreeMap::new();
    // Addresses already symbolized (one llvm-symbolizer run each).
    let places = std::cell::RefCell::new(std::collections::HashMap::new());
    for t in &tests {
        let input = driver::encode_inputs(&t.objects).map_err(|object| ReplayError::BadTest {
            dir: dir.to_path_buf(),
            test: t.id,
            object,
        })?;
        let profile = profiles.join(format!("{:06}.profraw", t.id));
        let run = native::run_test(&exe, &input, &scratch, &profile, &env, &user)?;
        let o = observe(&exe, run, &taking_part, &places)?;
        report.tests.push(TestResult {
            test: t.id,
            expected: expected(&t.end, pointer_result),
            confirmed: ends_as(&t.end, &o, pointer_result),
            observed: o.clone(),
        });
        observations.insert(t.id, o);
    }
    for f in &findings {
        let o = observations
            .get(&f.test)
            .cloned()
            .unwrap_or_else(|| Observed::bare(Observation::MissingTest));
        report.findings.push(FindingResult {
            kind: f.kind.clone(),
            file: f.file.clone(),
            line: f.line,
            test: f.test,
            confirmed: confirmations.confirms(f, &o),
            reason: confirmations.missing_rule(&f.kind),
            observed: o,
        });
    }
    if coverage_on {
        report.coverage = Some(coverage::coverage(
            dir,
            &exe,
            &record.sources(),
            opts.coverage_html.as_deref(),
        )?);
    }
    fpsym_report::write_json(&dir.join(fpsym_report::REPLAY), &report)?;
    Ok(report)
}

/// What a run did: a timeout; the driver's markers (a `reach_error` call
/// located by the symbolizer, a replay error); the taking-part
/// confirmations' classifiers in registration order; the built-in rules.
/// Source places of code addresses of the program, as symbolized so far.
type Places = std::cell::RefCell<std::collections::HashMap<String, Option<(String, u32)>>>;

fn observe(
    exe: &Path,
    run: NativeRun,
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
