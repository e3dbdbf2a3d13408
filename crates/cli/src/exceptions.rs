//! `fpsym exceptions`: `run` with the floating-point exception checker
//! (crates/engine's `checkers::fp`), and a summary by kind.

use crate::args::{ExceptionKind, ExceptionsArgs};
use crate::run::{run_then, RunOptions};
use fpsym_engine::checkers::fp::{FpExceptions, FpKinds};
use fpsym_engine::checkers::CheckerFactory;
use fpsym_engine::report::FindingKind;
use std::collections::BTreeMap;
use std::process::ExitCode;

/// The kinds asked for (the default set when none is named).
fn kinds(asked: &[ExceptionKind]) -> FpKinds {
    if asked.is_empty() {
        return FpKinds::default();
    }
    let mut k = FpKinds::none();
    for a in asked {
        match a {
            ExceptionKind::Overflow => k.overflow = true,
            ExceptionKind::Underflow => k.underflow = true,
            ExceptionKind::DivideByZero => k.divide_by_zero = true,
            ExceptionKind::Invalid => k.invalid = true,
            ExceptionKind::FloatCastOverflow => k.float_cast_overflow = true,
            ExceptionKind::Inexact => k.inexact = true,
        }
    }
    k
}

/// The exception kinds of findings, in the order the summary lists them.
const KINDS: [FindingKind; 6] = [
    FindingKind::FpOverflow,
    FindingKind::FpUnderflow,
    FindingKind::FpDivideByZero,
    FindingKind::FpInvalid,
    FindingKind::FloatCastOverflow,
    FindingKind::FpInexact,
];

/// Runs the program with the exception checker; exit 1 when something is
/// found.
pub fn run(raw: ExceptionsArgs) -> anyhow::Result<ExitCode> {
    let kinds = kinds(&raw.kinds);
    let mut opts = RunOptions::from_args(raw.run)?;
    opts.engine_mut()
        .checkers
        .push(CheckerFactory::new(move || Box::new(FpExceptions::new(kinds))));
    run_then(&opts, |_, findings| {
        let mut by_kind: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        for f in findings {
            if let Some(k) = KINDS.iter().position(|k| *k == f.kind) {
                let file = std::path::Path::new(&f.file)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                by_kind.entry(k).or_default().push(format!("{file}:{}", f.line));
            }
        }
        println!("exceptions by kind:");
        for (k, kind) in KINDS.iter().enumerate() {
            let asked = match kind {
                FindingKind::FpOverflow => kinds.overflow,
                FindingKind::FpUnderflow => kinds.underflow,
                FindingKind::FpDivideByZero => kinds.divide_by_zero,
                FindingKind::FpInvalid => kinds.invalid,
                FindingKind::FloatCastOverflow => kinds.float_cast_overflow,
                _ => kinds.inexact,
            };
            if !asked {
                continue;
            }
            match by_kind.get(&k) {
                Some(locs) => println!("  {kind}: {} location(s): {}", locs.len(), locs.join(", ")),
                None => println!("  {kind}: none"),
            }
        }
    })
}
