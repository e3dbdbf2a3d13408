//! Line and branch coverage of the user's files from the tests' profiles
//! (`llvm-profdata-14 merge`, `llvm-cov-14 export`): the totals, and each
//! line's execution count (from the lcov export, which gives llvm-cov's
//! own line counts); and llvm-cov's HTML report.

use crate::native::{io, tool_output};
use crate::ReplayError;
use fpsym_report::{Coverage, CoverageCount, FileLines};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A coverage tool that ran and failed: an internal error.
fn failed(tool: &str, out: &Output) -> ReplayError {
    ReplayError::ToolFailed {
        tool: tool.to_string(),
        message: String::from_utf8_lossy(&out.stderr).trim().to_string(),
    }
}

/// Coverage of `files` by the profiles in `DIR/replay/profiles` of `exe`;
/// with `html`, llvm-cov's HTML report written there.
pub(crate) fn coverage(dir: &Path, exe: &Path, files: &[String], html: Option<&Path>) -> Result<Coverage, ReplayError> {
    let prof = dir.join("replay").join("profiles");
    let raws: Vec<PathBuf> = std::fs::read_dir(&prof)
        .map_err(io(&prof))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "profraw"))
        .collect();
    let merged = dir.join("replay").join("merged.profdata");
    let out = tool_output(
        Command::new("llvm-profdata-14")
            .args(["merge", "-sparse", "-o"])
            .arg(&merged)
            .args(&raws),
        "llvm-profdata-14",
        "llvm-14",
    )?;
    if !out.status.success() {
        return Err(failed("llvm-profdata-14", &out));
    }
    let llvm_cov = |what: &[&str], extra: Option<String>| {
        let mut cmd = Command::new("llvm-cov-14");
        cmd.args(what);
        cmd.args(extra);
        cmd.arg(format!("-instr-profile={}", merged.display()))
            .arg(exe)
            .args(files);
        tool_output(&mut cmd, "llvm-cov-14", "llvm-14")
    };
    let out = llvm_cov(&["export", "-format=text", "-summary-only"], None)?;
    if !out.status.success() {
        return Err(failed("llvm-cov-14", &out));
    }
    let mut cov = totals(&out.stdout)?;
    let out = llvm_cov(&["export", "-format=lcov", "-skip-functions"], None)?;
    if !out.status.success() {
        return Err(failed("llvm-cov-14 export -format=lcov", &out));
    }
    cov.files = line_counts(&out.stdout)?;
    if let Some(h) = html {
        let out = llvm_cov(&["show", "-format=html"], Some(format!("-output-dir={}", h.display())))?;
        if !out.status.success() {
            return Err(failed("llvm-cov-14 show", &out));
        }
    }
    Ok(cov)
}

/// The line and branch totals of `llvm-cov export`'s JSON.
fn totals(json: &[u8]) -> Result<Coverage, ReplayError> {
    let unreadable = |message: String| ReplayError::ToolFailed {
        tool: "llvm-cov-14 export".into(),
        message: format!("unreadable output: {message}"),
    };
    let v: serde_json::Value = serde_json::from_slice(json).map_err(|e| unreadable(e.to_string()))?;
    let totals = &v["data"][0]["totals"];
    let count = |k: &str| {
        serde_json::from_value::<CoverageCount>(totals[k].clone()).map_err(|e| unreadable(format!("totals.{k}: {e}")))
    };
    Ok(Coverage {
        lines: count("lines")?,
        branches: count("branches")?,
        files: Vec::new(),
    })
}

/// Each file's line counts from an lcov export (`SF:FILE`, then
/// `DA:LINE,COUNT` per line with code, `end_of_record`), by line.
fn line_counts(lcov: &[u8]) -> Result<Vec<FileLines>, ReplayError> {
    let unreadable = |message: String| ReplayError::ToolFailed {
        tool: "llvm-cov-14 export -format=lcov".into(),
        message: format!("unreadable output: {message}"),
    };
    let text = std::str::from_utf8(lcov).map_err(|e| unreadable(e.to_string()))?;
    let mut files: Vec<FileLines> = Vec::new();
    let mut current: Option<FileLines> = None;
    for line in text.lines() {
        if let Some(file) = line.strip_prefix("SF:") {
            files.extend(current.take());
            current = Some(FileLines {
                file: file.to_string(),
                lines: Vec::new(),
            });
        } else if let Some(da) = line.strip_prefix("DA:") {
            let f = current
                .as_mut()
                .ok_or_else(|| unreadable(format!("`{line}` before any SF: line")))?;
            // DA:LINE,COUNT[,CHECKSUM]
            let mut parts = da.split(',');
            let (Some(l), Some(c)) = (parts.next(), parts.next()) else {
                return Err(unreadable(format!("`{line}`: expected DA:LINE,COUNT")));
            };
            let l: u32 = l.parse().map_err(|_| unreadable(format!("`{line}`: bad line")))?;
            // llvm-cov prints a count that wrapped (a counter race) as a
            // negative number: it ran.
            let c: u64 = match c.parse::<i64>() {
                Ok(c) if c >= 0 => c as u64,
                Ok(_) => 1,
                Err(_) => return Err(unreadable(format!("`{line}`: bad count"))),
            };
            f.lines.push((l, c));
        } else if line == "end_of_record" {
            files.extend(current.take());
        }
    }
    files.extend(current);
    for f in &mut files {
        f.lines.sort_unstable();
        f.lines.dedup_by_key(|(l, _)| *l);
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llvm_cov_totals() {
        let json = br#"{"data":[{"files":[],"totals":{
            "lines":{"count":20,"covered":15,"percent":75},
            "branches":{"count":4,"covered":3,"notcovered":1,"percent":75.0},
            "functions":{"count":2,"covered":2,"percent":100}}}],
            "type":"llvm.coverage.json.export","version":"2.0.1"}"#;
        let c = totals(json).unwrap();
        assert_eq!((c.lines.count, c.lines.covered, c.lines.percent), (20, 15, 75.0));
        assert_eq!((c.branches.count, c.branches.covered), (4, 3));
        let e = totals(b"{\"data\":[]}").unwrap_err();
        assert!(e.is_internal(), "{e}");
        assert!(e.to_string().contains("totals.lines"), "{e}");
    }

    #[test]
    fn lcov_line_counts() {
        let lcov = b"SF:/src/a.c\nFN:3,main\nFNDA:2,main\nDA:4,2\nDA:3,2\nDA:7,0\nBRDA:4,0,0,1\nLF:3\nLH:2\n\
                     end_of_record\nSF:/src/b.c\nDA:1,5\nend_of_record\n";
        let files = line_counts(lcov).unwrap();
        assert_eq!(files.len(), 2);
        assert_eq!(files[0].file, "/src/a.c");
        assert_eq!(files[0].lines, vec![(3, 2), (4, 2), (7, 0)]);
        assert_eq!(files[1].lines, vec![(1, 5)]);
        let e = line_counts(b"DA:1,2\n").unwrap_err();
        assert!(e.to_string().contains("before any SF"), "{e}");
        let e = line_counts(b"SF:x.c\nDA:one,2\n").unwrap_err();
        assert!(e.to_string().contains("bad line"), "{e}");
    }
}
