//! Every script of the QF_FP benchmark corpus parses, and printing then
//! re-parsing gives the same commands (hash-consing makes that `==` on terms).
//!
//! The corpus is read at test time from `$FPSYM_CORPUS`, else from
//! `../shared/bench/smtlib/qf_fp` beside the workspace, else from
//! /work/shared/bench/smtlib/qf_fp. Without it the test fails, saying where
//! it looked: a missing input never passes.

use fpsym_smtlib::{parse_script, print_script};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[path = "../../../tests/support/corpus.rs"]
mod corpus;
use corpus::corpus_dir;

fn smt2_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            smt2_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "smt2") {
            out.push(p);
        }
    }
}

#[test]
fn corpus_parses_and_round_trips() {
    let dir = corpus_dir();
    let mut files = Vec::new();
    smt2_files(&dir, &mut files);
    files.sort();
    assert!(!files.is_empty(), "no .smt2 files under {}", dir.display());
    let (mut parse_time, mut print_time, mut reparse_time) = (0.0, 0.0, 0.0);
    let mut failures = Vec::new();
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        let name = f.display().to_string();
        let t0 = Instant::now();
        let script = match parse_script(&src, &name) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("parse: {e}"));
                continue;
            }
        };
        let t1 = Instant::now();
        let printed = print_script(&script);
        let t2 = Instant::now();
        let again = match parse_script(&printed, &format!("{name} (printed)")) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("reparse: {e}"));
                continue;
            }
        };
        let t3 = Instant::now();
        parse_time += (t1 - t0).as_secs_f64();
        print_time += (t2 - t1).as_secs_f64();
        reparse_time += (t3 - t2).as_secs_f64();
        if again.commands != script.commands {
            let i = again
                .commands
                .iter()
                .zip(&script.commands)
                .position(|(a, b)| a != b)
                .unwrap_or(again.commands.len().min(script.commands.len()));
            failures.push(format!("{name}: round trip differs at command {i}"));
        }
    }
    eprintln!(
        "{} files: parse {parse_time:.2}s, print {print_time:.2}s, re-parse {reparse_time:.2}s",
        files.len()
    );
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
