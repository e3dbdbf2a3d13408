//! `fpsym export DIR --c [-o EXPORT_DIR]`: a standalone reproducer
//! `EXPORT_DIR/NNN-KIND.c` per finding (default EXPORT_DIR: DIR/export),
//! made by [`fpsym_replay::reproducer`]; `fpsym export DIR --libfuzzer
//! CORPUS_DIR`: every test as a libFuzzer corpus file `CORPUS_DIR/NNNNNN`,
//! the bytes [`fpsym_replay::encode_inputs`] makes of all its inputs
//! (what the replay driver reads; with symbolic arguments or standard
//! input, those come first). Both at once is allowed.

use crate::Failure;
use fpsym_report::{RunRecord, Test};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// An input error (exit 2).
fn input(msg: impl Into<String>) -> anyhow::Error {
    Failure::Input(msg.into()).into()
}

/// Creates `dir` (and its parents) and returns its absolute path.
fn create(dir: &Path) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(dir).map_err(|e| input(format!("{}: {e}", dir.display())))?;
    dir.canonicalize().map_err(|e| input(format!("{}: {e}", dir.display())))
}

/// Writes `bytes` to `path`.
fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    std::fs::write(path, bytes).map_err(|e| input(format!("{}: {e}", path.display())))
}

/// What `fpsym export` writes of a run's directory.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The run's output directory.
    pub dir: PathBuf,
    /// C reproducers, one per finding, into this directory (`None` inside:
    /// DIR/export); `None`: none.
    pub c: Option<Option<PathBuf>>,
    /// Every test as a libFuzzer corpus file, into this directory.
    pub libfuzzer: Option<PathBuf>,
    /// The tests as a Test-Comp test suite, into this directory.
    pub testcomp: Option<PathBuf>,
}

/// `fpsym export`.
pub fn run(args: &Options) -> anyhow::Result<ExitCode> {
    let dir = &args.dir;
    let record: RunRecord = fpsym_report::read_json(&dir.join(fpsym_report::RUN_RECORD))
        .map_err(|e| input(format!("{}: not a fpsym output directory: {e}", dir.display())))?;
    let tests = fpsym_report::read_tests(dir).map_err(|e| input(e.to_string()))?;
    if let Some(out) = &args.c {
        let out = out.clone().unwrap_or_else(|| dir.join("export"));
        reproducers(dir, &record, &tests, &out)?;
    }
    if let Some(corpus) = &args.libfuzzer {
        corpus_files(dir, &tests, corpus)?;
    }
    if let Some(suite) = &args.testcomp {
        let (written, left) = crate::competition::export_testcomp(&record, &tests, suite)?;
        say!("{}: Test-Comp test suite, {written} test(s)", suite.display());
        if left > 0 {
            say!("  {left} test(s) left out: inputs not from __VERIFIER_nondet_* calls");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A reproducer per finding into `out`.
fn reproducers(dir: &Path, record: &RunRecord, tests: &[Test], out: &Path) -> anyhow::Result<()> {
    let findings = fpsym_report::read_findings(dir).map_err(|e| input(e.to_string()))?;
    if findings.is_empty() {
        say!("{}: no findings, no reproducers to write", dir.display());
        return Ok(());
    }
    let out = create(out)?;
    // The build commands name the directory's headers: absolute.
    let abs_dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let mut first_command = None;
    for (k, f) in findings.iter().enumerate() {
        let index = k + 1;
        let test = tests.iter().find(|t| t.id == f.test).ok_or_else(|| {
            input(format!(
                "{}: finding {index:03} ({}) names test {}, which is not in {}/tests",
                dir.display(),
                f.kind,
                f.test,
                dir.display()
            ))
        })?;
        let path = out.join(format!("{index:03}-{}.c", f.kind.file_stem()));
        let r = fpsym_replay::reproducer(&abs_dir, record, index, f, test, &path).map_err(|e| input(e.to_string()))?;
        write(&path, r.source.as_bytes())?;
        say!(
            "{}: {} at {}:{} (test {:06})",
            path.display(),
            f.kind,
            f.file,
            f.line,
            test.id
        );
        first_command.get_or_insert(fpsym_replay::shell_line(&r.command));
    }
    if let Some(cmd) = first_command {
        say!("build and run each as its first comment says, e.g.:\n  {cmd} && ./a.out");
    }
    Ok(())
}

/// Every test as a corpus file `corpus/NNNNNN`.
fn corpus_files(dir: &Path, tests: &[Test], corpus: &Path) -> anyhow::Result<()> {
    let corpus = create(corpus)?;
    for t in tests {
        let bytes = fpsym_replay::encode_inputs(&t.objects).map_err(|object| {
            input(format!(
                "{}: test {}: the bytes of input `{object}` are not hex",
                dir.display(),
                t.id
            ))
        })?;
        write(&corpus.join(format!("{:06}", t.id)), &bytes)?;
    }
    say!(
        "{}: {} corpus file(s), one per test (per input: a 4-byte little-endian length, then its bytes)",
        corpus.display(),
        tests.len()
    );
    Ok(())
}
