//! Programs from LLVM IR text, and runs of them into typed records: unit
//! tests of the engine's core (the run loop, its endings and limits, the
//! executor) without clang. The IR is LLVM 14's text; it is parsed in
//! process (`llvm-ir`), so a test takes milliseconds.
//!
//! ```no_run
//! use fpsym_engine::testkit;
//! let p = testkit::program("define i32 @f(i32 %x) {\n  ret i32 %x\n}\n");
//! let run = testkit::run_function(&p, "f", |_| {});
//! assert_eq!(run.tests.len(), 1);
//! ```

use crate::report::{Collect, ReportSink, Summary};
use crate::{Config, Entry, RunContext};
use fpsym_frontend::Program;
use fpsym_solver::{Backend, SolverConfig};
use std::path::PathBuf;

/// The program of the IR text `ir` (a module; a target triple and data
/// layout of x86-64 are added when it has none). Panics with LLVM's or
/// fpsym's message when the text is not a valid module.
pub fn program(ir: &str) -> Program {
    let mut text = String::new();
    if !ir.contains("target datalayout") {
        text.push_str(
            "target datalayout = \"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128\"\n",
        );
    }
    if !ir.contains("target triple") {
        text.push_str("target triple = \"x86_64-pc-linux-gnu\"\n");
    }
    text.push_str(ir);
    let path = file_for(&text);
    if !path.is_file() {
        std::fs::write(&path, &text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    fpsym_frontend::load(&path).unwrap_or_else(|e| panic!("the IR does not load: {e}\n{text}"))
}

/// A file of its own for each text (named by its hash, so that parallel
/// tests never share one half written).
fn file_for(text: &str) -> PathBuf {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    let dir = std::env::temp_dir().join(format!("fpsym-testkit-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir.join(format!("{:016x}.ll", h.finish()))
}

/// What a run left: its summary, tests, findings and events.
pub struct Run {
    /// The summary.
    pub summary: Summary,
    /// The tests, in the order they ended.
    pub tests: Vec<crate::report::Test>,
    /// The findings.
    pub findings: Vec<crate::report::Finding>,
    /// The events.
    pub events: Vec<crate::report::Event>,
}

/// Runs `function` of `program` with symbolic parameters (cp alone as the
/// solver, nothing else of the chain), after `configure` changed the
/// default options.
pub fn run_function(program: &Program, function: &str, configure: impl FnOnce(&mut Config)) -> Run {
    let mut config = Config {
        entry: Entry::Function {
            name: function.into(),
            ranges: Vec::new(),
            array_len: None,
        },
        ..Config::default()
    };
    configure(&mut config);
    let mut solver = fpsym_solver::build(&SolverConfig::bare(Backend::Cp(Default::default())));
    let mut sink = Collect::default();
    let summary = crate::run(program, solver.as_mut(), &config, &mut sink, &mut RunContext::default())
        .unwrap_or_else(|e| panic!("the run does not start: {e}"));
    sink.finish(&summary).expect("Collect keeps the summary");
    Run {
        summary,
        tests: sink.tests,
        findings: sink.findings,
        events: sink.events,
    }
}
