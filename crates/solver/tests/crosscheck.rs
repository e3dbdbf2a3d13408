//! Cross-check of the three backends: `cp`, `z3` (in process) and `cvc5`
//! (through the process backend), on 1,000 random formulas (the generator of
//! `common/gen.rs`) and on the QF_FP corpus files that some solver decides
//! in under a second. Every backend runs through `fpsym_solver::build`, so
//! every `sat` model is re-checked by the exact evaluator; among the definite
//! answers to one query, `sat` and `unsat` must never both occur.
//!
//! `CROSSCHECK_N=…` changes the number of random formulas (default 1,000;
//! the non-vacuity thresholds only apply to the default). The corpus is
//! `$FPSYM_CORPUS`, else `../shared/bench/smtlib/qf_fp` beside the
//! workspace, else /work/shared/bench/smtlib/qf_fp; its labels are
//! `qf_fp_labels.yml` beside that directory. Without either the corpus test
//! fails, saying where it looked. cvc5 must be installed
//! (`scripts/bootstrap`).
//!
//! A last test makes sure a lying backend is caught: `CrossChecked` must turn
//! a wrong `unsat` into `SolverError::Disagreement` and write the query.

mod common;

use common::gen::{self, brute_force};
use fpsym_expr::{Float, Format, Op, Sort, Term};
use fpsym_smtlib::{parse_script, print_query, Command};
use fpsym_solver::cp::CpConfig;
use fpsym_solver::process::ProcessConfig;
use fpsym_solver::{build, Backend, Budget, CrossChecked, Query, SolveResult, Solver, SolverConfig, SolverError};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Random formulas cross-checked by all three backends.
const N_FORMULAS: usize = 600;
/// Seed of formula `i` is `SEED0 + i` (cp_differential.rs uses 7000..9000).
const SEED0: u64 = 100_000;
/// Worker threads, each with its own three solvers (the test machine has
/// two cores).
const WORKERS: usize = 2;

/// The two parts of the cross-check.
#[derive(Clone, Copy)]
enum Part {
    /// Random formulas in formats (3,4), (4,5) and binary16.
    Random,
    /// Corpus files (Float32 and Float64).
    Corpus,
}

/// The backends compared (`cp`, `z3`, `cvc5`) and their time budget per
/// query. cvc5 1.0 handles only Float32 and Float64 unless `--fp-exp` is
/// given, so the random formulas (tiny formats) use `--fp-exp`; the corpus
/// files use plain `cvc5 --lang smt2`, as measured (see
/// [`FAST_CORPUS_FILES`]).
fn backends(part: Part) -> Vec<(Backend, Duration)> {
    let ms = Duration::from_millis;
    let (cvc5, budgets) = match part {
        Part::Random => ("cvc5 --lang smt2 --fp-exp", [ms(1000), ms(2000), ms(2000)]),
        Part::Corpus => ("cvc5 --lang smt2", [ms(5000), ms(5000), ms(5000)]),
    };
    vec![
        (Backend::Cp(CpConfig::default()), budgets[0]),
        (Backend::Z3, budgets[1]),
        (Backend::Process(ProcessConfig::parse(cvc5).unwrap()), budgets[2]),
    ]
}

/// The backends' names, in the order of [`backends`].
const NAMES: [&str; 3] = ["cp", "z3", "cvc5"];

/// An answer and the time it took.
type Timed = (Answer, Duration);

/// One backend's answer to one query.
#[derive(Clone, Debug)]
enum Answer {
    Sat,
    Unsat,
    Unknown(String),
    /// Not an answer: an invalid model, a backend failure (a bug).
    Error(String),
}

impl Answer {
    fn of(r: Result<SolveResult, SolverError>) -> Answer {
        match r {
            Ok(SolveResult::Sat(_)) => Answer::Sat,
            Ok(SolveResult::Unsat) => Answer::Unsat,
            Ok(SolveResult::Unknown(why)) => Answer::Unknown(why.to_string()),
            Err(e) => Answer::Error(e.to_string()),
        }
    }
    fn definite(&self) -> Option<bool> {
        match self {
            Answer::Sat => Some(true),
            Answer::Unsat => Some(false),
            _ => None,
        }
    }
    fn label(&self) -> &'static str {
        match self {
            Answer::Sat => "sat",
            Answer::Unsat => "unsat",
            Answer::Unknown(_) => "unknown",
            Answer::Error(_) => "error",
        }
    }
    /// The unknown reason, shortened to its kind (for the summary).
    fn reason_kind(&self) -> Option<String> {
        match self {
            Answer::Unknown(why) => Some(why.split([':', '(']).next().unwrap_or("").trim().to_string()),
            _ => None,
        }
    }
}

/// Asks every query of every backend, on `WORKERS` threads (each with its
/// own solvers); `queries[i]`'s answers come back at index `i`, each with
/// the time the backend took.
fn ask_all(queries: &[Query], part: Part, scale: u32) -> Vec<Vec<Timed>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Vec<Timed>>>> = Mutex::new(vec![None; queries.len()]);
    std::thread::scope(|s| {
        for _ in 0..WORKERS {
            s.spawn(|| {
                let specs = backends(part);
                let mut solvers: Vec<Box<dyn Solver>> = specs
                    .iter()
                    .map(|(b, _)| build(&SolverConfig::bare(b.clone())))
                    .collect();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= queries.len() {
                        break;
                    }
                    let answers: Vec<Timed> = solvers
                        .iter_mut()
                        .zip(&specs)
                        .map(|(s, (_, budget))| {
                            let t0 = Instant::now();
                            let a = Answer::of(s.check(&queries[i], &Budget::timeout(*budget * scale)));
                            (a, t0.elapsed())
                        })
                        .collect();
                    results.lock().unwrap()[i] = Some(answers);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap()
        .into_iter()
        .map(|a| a.expect("every query answered"))
        .collect()
}

/// Per-backend tallies and the problems found, printed at the end.
struct Report {
    decided: Vec<usize>,
    sat: Vec<usize>,
    unsat: Vec<usize>,
    unknown: Vec<BTreeMap<String, usize>>,
    time: Vec<Duration>,
    failed: Vec<usize>,
    /// The first unknown of each kind, per backend.
    unknown_examples: Vec<String>,
    /// Queries with at least two definite answers (all agreeing).
    two_or_more: usize,
    /// Queries with no definite answer.
    none: usize,
    /// Sat/unsat disagreements, label mismatches, undecided corpus files.
    problems: Vec<String>,
    /// Backend failures (invalid models, crashes that are not `unknown`).
    errors: Vec<String>,
}

impl Report {
    fn new() -> Report {
        let k = NAMES.len();
        Report {
            decided: vec![0; k],
            sat: vec![0; k],
            unsat: vec![0; k],
            unknown: vec![BTreeMap::new(); k],
            time: vec![Duration::ZERO; k],
            failed: vec![0; k],
            unknown_examples: Vec::new(),
            two_or_more: 0,
            none: 0,
            problems: Vec::new(),
            errors: Vec::new(),
        }
    }

    /// Records the answers to one query; `what` names it and `query` is
    /// printed with any problem. Returns the common definite answer, if any.
    fn add(
        &mut self,
        what: &str,
        query: &Query,
        timed: &[Timed],
        adjudicate: impl Fn() -> Option<bool>,
    ) -> Option<bool> {
        let answers: Vec<&Answer> = timed.iter().map(|(a, _)| a).collect();
        let mut definite = Vec::new();
        for (k, (a, t)) in timed.iter().enumerate() {
            self.time[k] += *t;
            match a {
                Answer::Sat => self.sat[k] += 1,
                Answer::Unsat => self.unsat[k] += 1,
                _ => {}
            }
            if let Some(d) = a.definite() {
                self.decided[k] += 1;
                definite.push(d);
            }
            if let Some(kind) = a.reason_kind() {
                let n = self.unknown[k].entry(kind).or_default();
                *n += 1;
                if *n == 1 {
                    if let Answer::Unknown(why) = a {
                        let why: String = why.chars().take(300).collect();
                        self.unknown_examples
                            .push(format!("{} unknown on {what}: {why}", NAMES[k]));
                    }
                }
            }
            if let Answer::Error(e) = a {
                self.failed[k] += 1;
                self.errors.push(format!(
                    "{what}: {} failed: {e}\n{}",
                    NAMES[k],
                    print_query(&query.assertions, None)
                ));
            }
        }
        match definite.len() {
            0 => self.none += 1,
            1 => {}
            _ => self.two_or_more += 1,
        }
        if definite.contains(&true) && definite.contains(&false) {
            let said: Vec<String> = NAMES
                .iter()
                .zip(answers)
                .map(|(n, a)| format!("{n} {}", a.label()))
                .collect();
            // A sat answer's model was validated: the unsat side is wrong
            // unless the evaluator is.
            let truth = match adjudicate() {
                Some(true) => "sat models validated; brute force: sat",
                Some(false) => "sat models validated; brute force: unsat",
                None => "sat models validated",
            };
            self.problems.push(format!(
                "{what}: DISAGREEMENT {} ({truth})\n{}",
                said.join(", "),
                print_query(&query.assertions, None)
            ));
            return None;
        }
        definite.first().copied()
    }

    fn print(&self, title: &str, n: usize, elapsed: Duration) {
        println!(
            "{title}: {n} queries in {elapsed:.1?}; {} with ≥ 2 definite answers, {} with none",
            self.two_or_more, self.none
        );
        for (k, name) in NAMES.iter().enumerate() {
            println!(
                "  {:5} decided {:5} (sat {}, unsat {}), failed {}, in {:.1?} (summed over workers); unknown {:?}",
                name, self.decided[k], self.sat[k], self.unsat[k], self.failed[k], self.time[k], self.unknown[k]
            );
        }
        for e in &self.unknown_examples {
            println!("  first {e}");
        }
        // Every disagreement, but only the first few failures (they tend to
        // come by the hundred).
        for p in &self.problems {
            println!("{p}");
        }
        if !self.errors.is_empty() {
            println!("{} backend failures; the first ones:", self.errors.len());
            for e in self.errors.iter().take(3) {
                println!("{e}");
            }
        }
    }

    fn assert_clean(&self) {
        assert!(
            self.problems.is_empty() && self.errors.is_empty(),
            "{} disagreements or wrong answers and {} backend failures (printed above)",
            self.problems.len(),
            self.errors.len()
        );
    }
}

#[test]
fn cp_z3_cvc5_agree_on_random_formulas() {
    let n: usize = std::env::var("CROSSCHECK_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(N_FORMULAS);
    let formats = gen::formats();
    let formulas: Vec<(Format, Query)> = (0..n)
        .map(|i| {
            let fmt = formats[i % formats.len()];
            (fmt, Query::new(gen::query(SEED0 + i as u64, fmt)))
        })
        .collect();
    let queries: Vec<Query> = formulas.iter().map(|(_, q)| q.clone()).collect();
    let start = Instant::now();
    let answers = ask_all(&queries, Part::Random, 1);
    let elapsed = start.elapsed();
    let mut report = Report::new();
    for (i, ((fmt, q), a)) in formulas.iter().zip(&answers).enumerate() {
        report.add(&format!("formula {i} (seed {})", SEED0 + i as u64), q, a, || {
            brute_force(&q.assertions, *fmt)
        });
    }
    report.print("cp / z3 / cvc5 on random formulas", n, elapsed);
    report.assert_clean();
    if n == N_FORMULAS {
        // Not vacuous. Measured (2-core machine, 1,000 formulas, 109 s): 975
        // with ≥ 2 definite answers; cp decided 984, z3 653 (279 of its
        // unknowns are the z3 backend's "invalid extract application" on
        // fp.to_ubv/fp.to_sbv), cvc5 965 (35 unknowns are cvc5 --fp-exp
        // crashes). (2,000 formulas took twice as long for CI's time.)
        // 600 formulas for CI time since: each threshold is the same share
        // of them (75% two answers; cp 85%, z3 50%, cvc5 70%).
        assert!(
            report.two_or_more >= 450,
            "only {} formulas got ≥ 2 definite answers",
            report.two_or_more
        );
        for (k, min) in [510, 300, 420].into_iter().enumerate() {
            let d = report.decided[k];
            assert!(
                d >= min,
                "{} decided only {d} of {n} formulas (expected ≥ {min})",
                NAMES[k]
            );
        }
    }
}

/// The corpus files (relative to the corpus directory) that z3 or cvc5
/// decides within a second. Measured once on the 2-core development machine
/// (while another benchmark kept both cores busy, so the list errs on the
/// short side) with the release binary, for every .smt2 file of the corpus:
///
/// ```sh
/// target/release/fpsym solve --solver z3 --timeout 1 FILE
/// target/release/fpsym solve --solver "process:cvc5 --lang smt2" --timeout 1 FILE
/// ```
///
/// keeping the files with a `sat` or `unsat` from either (38 of 160; all are
/// labelled sat, as is every decided file of the corpus; unsat instances
/// were filtered out of this sample by its makers). Each has one
/// `check-sat` and no `push`/`pop`.
const FAST_CORPUS_FILES: &[&str] = &[
    "20170501-Heizmann-UltimateAutomizer/cos_polynomial_true-unreach-call.c_9.smt2",
    "20170501-Heizmann-UltimateAutomizer/filter2_reinit_true-unreach-call.c_7.smt2",
    "20170501-Heizmann-UltimateAutomizer/image_filter_true-unreach-call.c_2.smt2",
    "20170501-Heizmann-UltimateAutomizer/water_pid_true-unreach-call.c_14.smt2",
    "20170501-Heizmann-UltimateAutomizer/water_pid_true-unreach-call.c_372.smt2",
    "griggio/fmcad12/div.c.3.smt2",
    "griggio/fmcad12/div2.c.3.smt2",
    "griggio/fmcad12/div3.c.3.smt2",
    "griggio/fmcad12/e1.c.smt2",
    "griggio/fmcad12/e1_1.c.smt2",
    "griggio/fmcad12/e1_2.c.smt2",
    "griggio/fmcad12/e2.c.smt2",
    "griggio/fmcad12/e2_1.c.smt2",
    "griggio/fmcad12/e2_2.c.smt2",
    "griggio/fmcad12/e2_3.c.smt2",
    "griggio/fmcad12/e2a_1.c.smt2",
    "griggio/fmcad12/e2a_2.c.smt2",
    "griggio/fmcad12/e2a_3.c.smt2",
    "griggio/fmcad12/e3_1.c.smt2",
    "griggio/fmcad12/e3_2.c.smt2",
    "griggio/fmcad12/mult1.c.10.smt2",
    "griggio/fmcad12/mult1.c.3.smt2",
    "griggio/fmcad12/mult2.c.3.smt2",
    "ramalho/esbmc/nan_double-main.smt2",
    "ramalho/esbmc/nan_float-main.smt2",
    "schanda/spark/O220-024.smt2",
    "schanda/spark/assoc_add.smt2",
    "schanda/spark/assoc_mult.smt2",
    "schanda/spark/average_3.smt2",
    "schanda/spark/average_5.smt2",
    "schanda/spark/cancel_2.smt2",
    "schanda/spark/cases_2.smt2",
    "schanda/spark/exp_3_precision.smt2",
    "schanda/spark/incorrect_reordering.smt2",
    "schanda/spark/riposte_floats_are_not_rational.smt2",
    "schanda/spark/scale_1.smt2",
    "schanda/spark/underflow_1.smt2",
    "schanda/spark/zeros_count_1.smt2",
];

#[path = "../../../tests/support/corpus.rs"]
mod corpus;
use corpus::corpus_dir;

/// `expected_sat` of each benchmark in the labels file (keys relative to the
/// corpus directory): `- benchmark: QF_FP/<path>` then `expected_sat: …`.
fn read_labels(path: &Path) -> Option<HashMap<String, String>> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut labels = HashMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let line = line.trim();
        if let Some(b) = line.strip_prefix("- benchmark:") {
            let b = b.trim();
            current = Some(b.strip_prefix("QF_FP/").unwrap_or(b).to_string());
        } else if let Some(e) = line.strip_prefix("expected_sat:") {
            if let Some(b) = current.take() {
                labels.insert(b, e.trim().to_string());
            }
        }
    }
    Some(labels)
}

/// The assertions up to the first `check-sat` of a script without
/// `push`/`pop`/`reset`; None otherwise.
fn first_query(path: &Path) -> Result<Option<Query>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let script = parse_script(&text, &path.display().to_string()).map_err(|e| e.to_string())?;
    let Some(upto) = script.commands.iter().position(|c| matches!(c, Command::CheckSat)) else {
        return Ok(None);
    };
    if script.commands[..upto].iter().any(|c| {
        matches!(
            c,
            Command::Push(_) | Command::Pop(_) | Command::Reset | Command::ResetAssertions
        )
    }) {
        return Ok(None);
    }
    Ok(Some(Query::new(script.assertions_before(upto))))
}

#[test]
fn cp_z3_cvc5_agree_on_fast_corpus_files() {
    let dir = corpus_dir();
    let labels_path = dir.parent().map(|p| p.join("qf_fp_labels.yml")).unwrap_or_default();
    let labels = read_labels(&labels_path);
    assert!(
        labels.is_some(),
        "the corpus labels are missing: no {} beside the corpus {}",
        labels_path.display(),
        dir.display()
    );
    let mut names = Vec::new();
    let mut queries = Vec::new();
    let mut skipped = Vec::new();
    for &name in FAST_CORPUS_FILES {
        match first_query(&dir.join(name)) {
            Ok(Some(q)) => {
                names.push(name);
                queries.push(q);
            }
            Ok(None) => skipped.push(name),
            Err(e) => panic!("{name}: {e}"),
        }
    }
    let start = Instant::now();
    let mut answers = ask_all(&queries, Part::Corpus, 1);
    // A loaded machine can leave a file undecided within the budgets:
    // those are asked again with four times the time before they count.
    let undecided: Vec<usize> = (0..answers.len())
        .filter(|&i| answers[i].iter().all(|(a, _)| a.definite().is_none()))
        .collect();
    if !undecided.is_empty() {
        let again: Vec<Query> = undecided.iter().map(|&i| queries[i].clone()).collect();
        for (k, a) in ask_all(&again, Part::Corpus, 4).into_iter().enumerate() {
            answers[undecided[k]] = a;
        }
    }
    let elapsed = start.elapsed();
    let mut report = Report::new();
    for ((name, q), a) in names.iter().zip(&queries).zip(&answers) {
        let common = report.add(name, q, a, || None);
        let said: Vec<String> = NAMES
            .iter()
            .zip(a)
            .map(|(n, (a, _))| format!("{n} {}", a.label()))
            .collect();
        if common.is_none() && a.iter().all(|(a, _)| a.definite().is_none()) {
            report
                .problems
                .push(format!("{name}: decided by no backend ({})", said.join(", ")));
        }
        let expected = labels.as_ref().and_then(|l| l.get(*name)).map(String::as_str);
        let wrong = matches!(
            (expected, common),
            (Some("sat"), Some(false)) | (Some("unsat"), Some(true))
        );
        if wrong {
            report.problems.push(format!(
                "{name}: labelled {} but {}",
                expected.unwrap_or("?"),
                said.join(", ")
            ));
        }
    }
    report.print(
        &format!("cp / z3 / cvc5 on corpus files of {}", dir.display()),
        names.len(),
        elapsed,
    );
    if !skipped.is_empty() {
        println!("  skipped (no check-sat, or push/pop before it): {skipped:?}");
    }
    report.assert_clean();
}

/// Always answers `unsat`: a backend that lies.
struct Liar;

impl Solver for Liar {
    fn name(&self) -> String {
        "liar".into()
    }
    fn check(&mut self, _: &Query, _: &Budget) -> Result<SolveResult, SolverError> {
        Ok(SolveResult::Unsat)
    }
}

#[test]
fn a_lying_backend_is_caught() {
    let dir = std::env::temp_dir().join(format!("fpsym-crosscheck-test-{}", std::process::id()));
    // Satisfiable: x NaN, y > 1.
    let x = Term::var("x", Sort::Float(Format::BINARY32));
    let y = Term::var("y", Sort::Float(Format::BINARY32));
    let one = Term::fp(Float::one(Format::BINARY32, false));
    let query = Query::new(vec![
        Term::app(Op::FpIsNaN, vec![x]).unwrap(),
        Term::app(Op::FpGt, vec![y, one]).unwrap(),
    ]);
    for liar_first in [true, false] {
        let z3 = build(&SolverConfig::bare(Backend::Z3));
        let mut checked = if liar_first {
            CrossChecked::new(Box::new(Liar), z3, dir.clone())
        } else {
            CrossChecked::new(z3, Box::new(Liar), dir.clone())
        };
        let r = checked.check(&query, &Budget::timeout(Duration::from_secs(10)));
        let Err(SolverError::Disagreement {
            primary_answer,
            secondary_answer,
            file,
            ..
        }) = r
        else {
            panic!("expected a disagreement, got {r:?}");
        };
        let (liar, z3) = if liar_first {
            (primary_answer, secondary_answer)
        } else {
            (secondary_answer, primary_answer)
        };
        assert_eq!((liar.as_str(), z3.as_str()), ("unsat", "sat"));
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("dumped query {file}: {e}"));
        let script = parse_script(&text, &file).unwrap_or_else(|e| panic!("dumped query does not parse: {e}\n{text}"));
        let upto = script
            .commands
            .iter()
            .position(|c| matches!(c, Command::CheckSat))
            .expect("a check-sat");
        assert_eq!(
            script.assertions_before(upto),
            query.assertions,
            "dumped query differs:\n{text}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
