//! `--prove abstract`: a proof by invariants for the loops symbolic
//! execution cannot exhaust (fpsym-prove's abstract interpreter), tried
//! before the run with a share of its time, and applied to the verdict
//! when the run cannot finish.

use fpsym_engine::induction;
use fpsym_engine::report::{Finding, FindingKind};
use fpsym_engine::{Config, Entry, Property, Summary, Verdict};
use fpsym_frontend::Program;
use fpsym_prove::{Invariant, Outcome, ProveOptions, Val};
use fpsym_replay::witness::LoopInvariant;
use std::time::{Duration, Instant};

/// The symbolic run's time after a proof (beside the fuzzing phase's):
/// enough for tests that check the proof natively.
pub const CONFIRMATION: Duration = Duration::from_secs(5);

/// The same without `--max-time` (which would otherwise never end on a
/// loop without a bound): long enough for a loop-free program's paths.
pub const CONFIRMATION_UNBOUNDED: Duration = Duration::from_secs(30);

/// The functions whose call the unreach-call property forbids.
const TARGETS: &[&str] = &["reach_error", "__VERIFIER_error"];

/// The calls that are findings of a plain `run` (beside integer division
/// by zero and `unreachable`, which the analysis checks itself).
const FAILURES: &[&str] = &["reach_error", "__VERIFIER_error", "abort", "__assert_fail", "llvm.trap"];

/// The proof attempt's share of `--max-time` (a quarter, at most 20 s; 20 s
/// without a limit): the abstract interpretation's, and k-induction's after
/// it (at least half of it).
fn budget(max_time: Option<Duration>) -> Duration {
    let cap = Duration::from_secs(20);
    max_time.map_or(cap, |t| (t / 4).min(cap))
}

/// How `--prove` tries a proof.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum How {
    /// The abstract interpretation, then k-induction strengthened by its
    /// invariants when it proves nothing (the default).
    #[default]
    Auto,
    /// The abstract interpretation alone.
    Abstract,
    /// k-induction alone (no invariants assumed).
    KInduction,
    /// No proof.
    None,
}

impl How {
    /// From `--prove`'s value.
    pub fn parse(s: &str) -> How {
        match s {
            "abstract" => How::Abstract,
            "kinduction" => How::KInduction,
            "none" => How::None,
            _ => How::Auto,
        }
    }
}

/// The largest k k-induction tries.
const MAX_K: u32 = 8;

/// A proof attempt and how long it took.
pub struct Attempt {
    /// Of a plain run (every finding), not of unreach-call.
    pub plain: bool,
    /// What the abstract interpretation said (None: not tried).
    pub outcome: Option<Outcome>,
    /// What k-induction said (None: not tried).
    pub induction: Option<induction::Outcome>,
    /// Whether k-induction assumed the abstract interpretation's invariants.
    pub strengthened: bool,
    /// Its time.
    pub seconds: f64,
    /// The time it was given (one share of the run's; k-induction may
    /// take half a share more).
    pub given: Duration,
    /// Of exceptions mode: the kinds the proof is about, and whether they
    /// are all the run's kinds.
    pub fp: Option<FpClaim>,
}

/// What an exceptions run's proof is about.
#[derive(Clone, Debug)]
pub struct FpClaim {
    /// The run's kinds the analysis checks (overflow, divide-by-zero,
    /// cast overflow); each is proved or not on its own.
    pub kinds: Vec<FindingKind>,
    /// They are every kind the run looks for (underflow, invalid and
    /// inexact are not the analysis').
    pub complete: bool,
}

impl Attempt {
    /// Whether one of the methods proved the property.
    pub fn proved(&self) -> bool {
        matches!(self.outcome, Some(Outcome::Proved(_)))
            || matches!(self.induction, Some(induction::Outcome::Proved { .. }))
    }
    /// The invariants the abstract interpretation found (they hold whether
    /// or not they prove the property).
    fn invariants(&self) -> &[Invariant] {
        match &self.outcome {
            Some(Outcome::Proved(i)) | Some(Outcome::MayReach(_, i)) => i,
            _ => &[],
        }
    }
}

/// Tries to prove the run's property before the run, when there is one the
/// analysis proves (unreach-call): by abstract interpretation, then by
/// k-induction (per `how`), within one share of the run's time.
pub fn attempt(
    session: &crate::Session,
    program: &Program,
    engine: &Config,
    how: How,
    solver: &fpsym_solver::SolverConfig,
) -> Option<Attempt> {
    let plain = engine.goals.property == Property::AllFindings;
    if how == How::None
        || !(plain || engine.goals.property == Property::UnreachCall)
        || engine.entry != fpsym_engine::Entry::Main
    {
        return None;
    }
    // A plain run's proof is the abstract interpretation's (k-induction
    // asks about reach_error only), asked for with `--prove abstract` (by
    // default a plain run stays what it was: its time all the symbolic
    // run's), tried when `main` has a loop (the symbolic run exhausts the
    // paths of a program without one) with half the share.
    if plain && (how != How::Abstract || induction::heads(program).is_empty()) {
        return None;
    }
    let start = Instant::now();
    let share = if plain {
        budget(engine.limits.max_time) / 2
    } else {
        budget(engine.limits.max_time)
    };
    // The abstract interpretation has the share; k-induction what is left
    // of it, but at least half of it (so both together take at most one
    // and a half shares).
    let outcome = (how != How::KInduction).then(|| abstract_interpretation(session, program, start + share, plain));
    let deadline = (start + share).max(Instant::now() + share / 2);
    let mut a = Attempt {
        plain,
        outcome,
        induction: None,
        strengthened: false,
        seconds: 0.0,
        given: share + share / 2,
        fp: None,
    };
    if !a.proved() && how != How::Abstract && Instant::now() < deadline {
        let facts = |h: &fpsym_frontend::llvm_ir::Name| fpsym_prove::induction_facts(a.invariants(), h);
        let strengthened = how == How::Auto && !a.invariants().is_empty();
        let no_facts = |_: &fpsym_frontend::llvm_ir::Name| Vec::new();
        let opts = induction::Options {
            facts: if strengthened { &facts } else { &no_facts },
            max_k: MAX_K,
            deadline,
            interrupt: session.interrupt(),
        };
        // The portfolio's members all at once: k-induction's proofs are
        // unsat answers, which z3 and cvc5 give and cp and ls (first in the
        // sequential order) rarely do. Measured with --prove kinduction:
        // docs/examples/sums_equal.c 6.9 s sequential, 1.6 s parallel; a
        // twin accumulator with a global, unproved in 20 s against 8.6 s.
        let mut config = solver.clone();
        if config.backend == fpsym_solver::Backend::Portfolio {
            config.portfolio = fpsym_solver::PortfolioMode::Parallel;
        }
        let mut s = fpsym_solver::build_with_workers(&config, session.workers());
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            induction::prove(program, s.as_mut(), engine, &opts)
        }))
        .unwrap_or_else(|p| {
            induction::Outcome::Unknown(format!("an internal error, a bug in fpsym ({})", panic_text(&p)))
        });
        a.strengthened = strengthened;
        a.induction = Some(r);
    }
    a.seconds = start.elapsed().as_secs_f64();
    Some(a)
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

/// Tries to prove, before an exceptions run, that none of the run's
/// `kinds` the analysis checks (overflow, division by zero, cast
/// overflow) can happen: the abstract interpretation alone, from the entry
/// (`main`, or `--function` with its `--range`s), within half a share of
/// the run's time.
pub fn attempt_exceptions(
    session: &crate::Session,
    program: &Program,
    engine: &Config,
    how: How,
    kinds: &[FindingKind],
) -> Option<Attempt> {
    let checks = fpsym_prove::FpChecks {
        overflow: kinds.contains(&FindingKind::FpOverflow),
        divide_by_zero: kinds.contains(&FindingKind::FpDivideByZero),
        cast_overflow: kinds.contains(&FindingKind::FloatCastOverflow),
    };
    if matches!(how, How::None | How::KInduction) || !checks.any() {
        return None;
    }
    let covered: Vec<FindingKind> = kinds
        .iter()
        .filter(|k| {
            matches!(
                k,
                FindingKind::FpOverflow | FindingKind::FpDivideByZero | FindingKind::FloatCastOverflow
            )
        })
        .cloned()
        .collect();
    let (entry, params) = match &engine.entry {
        Entry::Main => ("main".to_string(), Vec::new()),
        Entry::Function { name, ranges, .. } => (name.clone(), ranges.clone()),
    };
    let start = Instant::now();
    let share = budget(engine.limits.max_time) / 2;
    let opts = ProveOptions {
        entry,
        targets: Vec::new(),
        checks: false,
        fp: checks,
        params,
        deadline: Some(start + share),
        cancel: Some(session.interrupt()),
    };
    let outcome = guarded(program, &opts);
    Some(Attempt {
        plain: false,
        outcome: Some(outcome),
        induction: None,
        strengthened: false,
        seconds: start.elapsed().as_secs_f64(),
        given: share,
        fp: Some(FpClaim {
            complete: covered.len() == kinds.len(),
            kinds: covered,
        }),
    })
}

/// fpsym-prove's analysis, its panic reported as no proof.
fn guarded(program: &Program, opts: &ProveOptions) -> Outcome {
    // A bug of the analysis must not end the run: it is no proof, said as such.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| fpsym_prove::prove(program, opts))).unwrap_or_else(|p| {
        Outcome::GaveUp(fpsym_prove::GiveUp {
            function: opts.entry.clone(),
            loc: None,
            what: format!("an internal error of the analysis, a bug in fpsym ({})", panic_text(&p)),
        })
    })
}

/// The abstract interpretation of a run (unreach-call, or a plain run's findings).
fn abstract_interpretation(session: &crate::Session, program: &Program, deadline: Instant, plain: bool) -> Outcome {
    let targets = if plain { FAILURES } else { TARGETS };
    let opts = ProveOptions {
        entry: "main".into(),
        targets: targets.iter().map(|t| t.to_string()).collect(),
        checks: plain,
        fp: fpsym_prove::FpChecks::default(),
        params: Vec::new(),
        deadline: Some(deadline),
        cancel: Some(session.interrupt()),
    };
    guarded(program, &opts)
}

/// What the proof means for the run's verdict: Ok(Some(line)) to print,
/// the verdict replaced by `verified` when the run could not finish and the
/// proof holds. Err when a finding contradicts the proof (a bug in one of
/// them: exit 3).
pub fn apply(a: &Attempt, summary: &mut Summary, findings: &[Finding]) -> Result<Option<String>, String> {
    if let Some(fp) = &a.fp {
        return apply_fp(a, fp, summary, findings);
    }
    let time = fpsym_report::seconds(a.seconds);
    let (why, by) = match (&a.outcome, &a.induction) {
        (Some(Outcome::Proved(invs)), _) => (reason(invs), "abstract interpretation"),
        (_, Some(induction::Outcome::Proved { loc, k, .. })) => {
            let at = match loc {
                Some(l) => format!(" at {}:{}", l.file, l.line),
                None => String::new(),
            };
            let mut why = format!("k-induction{at} with k = {k}");
            if a.strengthened {
                why.push_str(&format!(", assuming {}", reason(a.invariants())));
            }
            (why, "k-induction")
        }
        _ => {
            let mut parts = Vec::new();
            match &a.outcome {
                Some(Outcome::MayReach(at, _)) => {
                    parts.push(format!(
                        "the abstract interpretation cannot exclude {}",
                        places(at).join(", ")
                    ));
                }
                Some(Outcome::GaveUp(g)) => parts.push(format!("the abstract interpretation stopped at {g}")),
                _ => {}
            }
            match &a.induction {
                Some(induction::Outcome::Unknown(w)) => parts.push(format!("k-induction: {w}")),
                Some(induction::Outcome::Found(..)) => {
                    parts.push("k-induction's base case reaches a reach_error call".into())
                }
                _ => {}
            }
            if a.plain {
                return Ok(None);
            }
            return Ok(Some(format!("proof: none ({}; {time} s)", parts.join("; "))));
        }
    };
    let claim = if a.plain {
        "no finding is possible (no failure call, integer division by zero or `unreachable` is reachable)"
    } else {
        "no reach_error call is reachable"
    };
    match &summary.verdict {
        Verdict::BugFound => Err(format!("{by} proves {claim} ({why}), yet the run found one")),
        Verdict::Incomplete(_) | Verdict::Unknown(_) => {
            summary.set_verdict(Verdict::Proved(why));
            Ok(Some(format!("proof: {claim}, by {by} ({time} s)")))
        }
        // a plain run says nothing of a proof its own exhaustion makes moot
        _ if a.plain => Ok(None),
        _ => Ok(Some(format!("proof: the {by} agrees ({time} s): {why}"))),
    }
}

/// An exceptions proof's answer, kind by kind.
struct FpResult {
    /// The kinds proved absent.
    proved: Vec<FindingKind>,
    /// The operations the analysis could not clear (`WHAT at PLACE`).
    blocked: Vec<String>,
    /// The invariants, or why the analysis stopped.
    why: String,
}

/// A kind is proved absent when the analysis finished and no operation
/// that may raise it is reachable (None: no analysis ran).
fn fp_result(a: &Attempt, fp: &FpClaim) -> Option<FpResult> {
    Some(match a.outcome.as_ref()? {
        Outcome::Proved(invs) => FpResult {
            proved: fp.kinds.clone(),
            blocked: Vec::new(),
            why: reason(invs),
        },
        Outcome::MayReach(at, invs) => FpResult {
            proved: fp
                .kinds
                .iter()
                .filter(|k| !at.iter().any(|(f, _)| f.starts_with(&k.to_string())))
                .cloned()
                .collect(),
            blocked: places(at),
            why: reason(invs),
        },
        Outcome::GaveUp(g) => FpResult {
            proved: Vec::new(),
            blocked: Vec::new(),
            why: format!("the abstract interpretation stopped at {g}"),
        },
    })
}

impl Attempt {
    /// The exception kinds an exceptions run's proof showed cannot happen
    /// (none for other proofs): the run's undecided checks of these kinds
    /// are decided by it ([`fpsym_engine::Goals::proved_absent`]).
    pub fn proved_kinds(&self) -> Vec<FindingKind> {
        self.fp
            .as_ref()
            .and_then(|fp| fp_result(self, fp))
            .map_or_else(Vec::new, |r| r.proved)
    }
}

/// An exceptions run's proof (`apply`'s), kind by kind: a kind is proved
/// absent when the analysis finished and no operation that may raise it is
/// reachable. The verdict becomes `verified` when the run could not finish
/// and every kind it looks for is proved; a finding of a proved kind is a
/// contradiction. The line is printed when something is proved, or when
/// the run could not finish (what the analysis could not clear).
fn apply_fp(a: &Attempt, fp: &FpClaim, summary: &mut Summary, findings: &[Finding]) -> Result<Option<String>, String> {
    let time = fpsym_report::seconds(a.seconds);
    let unfinished = matches!(summary.verdict, Verdict::Incomplete(_) | Verdict::Unknown(_));
    let Some(FpResult { proved, blocked, why }) = fp_result(a, fp) else {
        return Ok(None);
    };
    if proved.is_empty() {
        if !unfinished {
            return Ok(None);
        }
        let what = if blocked.is_empty() {
            why
        } else {
            format!("the abstract interpretation cannot exclude {}", blocked.join(", "))
        };
        return Ok(Some(format!("proof: none ({what}; {time} s)")));
    }
    let names: Vec<String> = proved.iter().map(|k| k.to_string()).collect();
    let claim = match names.split_last() {
        Some((last, [])) => format!("no {last} is possible"),
        Some((last, rest)) => format!("no {} or {last} is possible", rest.join(", ")),
        None => unreachable!("proved is not empty"),
    };
    let by = "abstract interpretation";
    if let Some(f) = findings.iter().find(|f| proved.contains(&f.kind)) {
        return Err(format!(
            "{by} proves {claim} ({why}), yet the run found {} at {}:{}",
            f.kind, f.file, f.line
        ));
    }
    let every = fp.complete && proved.len() == fp.kinds.len();
    if every && unfinished {
        summary.set_verdict(Verdict::Proved(why));
        return Ok(Some(format!("proof: {claim}, by {by} ({time} s)")));
    }
    if every && matches!(summary.verdict, Verdict::Verified) {
        return Ok(Some(format!("proof: the {by} agrees ({time} s): {why}")));
    }
    let mut line = format!("proof: {claim}, by {by} ({time} s): {why}");
    if !blocked.is_empty() {
        line.push_str(&format!("; it cannot exclude {}", blocked.join(", ")));
    }
    if !fp.complete {
        line.push_str("; the run's other kinds are not the analysis'");
    }
    Ok(Some(line))
}

/// What the analysis may reach, each `WHAT at FILE:LINE:COLUMN`.
fn places(at: &[(String, Option<fpsym_frontend::Loc>)]) -> Vec<String> {
    at.iter()
        .map(|(f, l)| match l {
            Some(l) => format!("{f} at {l}"),
            None => f.clone(),
        })
        .collect()
}

/// `invariant at FILE:LINE: x in [..], ...` for each loop (no loop: the
/// analysis alone shows the calls unreachable).
fn reason(invs: &[Invariant]) -> String {
    let shown = |i: &Invariant| {
        if i.vars.is_empty() {
            "the loop carries no value".to_string()
        } else {
            i.to_string()
        }
    };
    if invs.is_empty() {
        return "the abstract interpretation shows it without a loop invariant".into();
    }
    let parts: Vec<String> = invs
        .iter()
        .map(|i| match &i.loc {
            Some(l) => format!("invariant at {}:{}: {}", l.file, l.line, shown(i)),
            None => format!("invariant in {}: {}", i.function, shown(i)),
        })
        .collect();
    parts.join("; ")
}

/// The proof's invariants as the correctness witness states them: C
/// expressions at each loop's keyword.
pub fn witness_invariants(a: &Attempt) -> Vec<LoopInvariant> {
    if !a.proved() {
        return Vec::new();
    }
    a.invariants()
        .iter()
        .filter_map(|i| {
            let loc = i.loc.as_ref()?;
            let (value, format) = expression(i)?;
            let path = loc.path();
            let column = std::fs::read_to_string(&path)
                .ok()
                .and_then(|t| loop_keyword(&t, loc.line, loc.column));
            Some(LoopInvariant {
                file: path.to_string_lossy().into_owned(),
                line: loc.line,
                column,
                function: i.function.clone(),
                value,
                format: format.into(),
            })
        })
        .collect()
}

/// Checks the proof's invariants by queries (`induction::check_invariants`):
/// for each loop head of `main` the analysis gave invariants, how many of
/// their ranges (of every value it knows there) and linear constraints
/// hold at the first entry and are kept together by one iteration from any
/// state where they all hold, under exact IEEE semantics ([`held_together`]).
/// One line per head: what the queries showed, within `time` in all.
pub fn check_invariants(
    session: &crate::Session,
    program: &Program,
    engine: &Config,
    solver: &fpsym_solver::SolverConfig,
    a: &Attempt,
    time: Duration,
) -> Vec<String> {
    if !a.proved() {
        return Vec::new();
    }
    let start = Instant::now();
    let mut lines = Vec::new();
    let mut config = solver.clone();
    if config.backend == fpsym_solver::Backend::Portfolio {
        config.portfolio = fpsym_solver::PortfolioMode::Parallel;
    }
    let mut s = fpsym_solver::build_with_workers(&config, session.workers());
    for inv in a.invariants().iter().filter(|i| i.in_entry && i.function == "main") {
        let one = std::slice::from_ref(inv);
        let facts = induction::head_facts(program, &inv.head, &fpsym_prove::induction_facts(one, &inv.head));
        let linear = fpsym_prove::linear_facts(one, &inv.head);
        let at = inv
            .loc
            .as_ref()
            .map_or_else(|| "main".to_string(), |l| format!("{}:{}", l.file, l.line));
        let deadline = start + time;
        let mut check = |facts: &[induction::Fact], linear: &[induction::LinearFact]| {
            let left = deadline.saturating_duration_since(Instant::now());
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                induction::check_invariants(
                    program,
                    s.as_mut(),
                    engine,
                    &inv.head,
                    facts,
                    linear,
                    left,
                    session.interrupt(),
                )
            }))
            .unwrap_or_else(|p| Err(format!("an internal error, a bug in fpsym ({})", panic_text(&p))))
        };
        let line = match held_together(&facts, &linear, &mut check) {
            Err(why) => format!("invariant at {at}: not checked by queries ({why})"),
            Ok((ranges, sums)) => {
                let mut l = format!("invariant at {at}: {ranges} of {} ranges", facts.len());
                if !linear.is_empty() {
                    l.push_str(&format!(" and {sums} of {} linear constraints", linear.len()));
                }
                l.push_str(" checked inductive together by queries (base and step case)");
                l
            }
        };
        lines.push(line);
    }
    lines
}

/// The largest subsets of `facts` and `linear` that `check` shows
/// inductive together (Houdini's fixpoint): the ranges are checked alone
/// first, dropping each one not shown inductive until the rest all are
/// (each is then kept by an iteration from any state where the rest hold);
/// then the linear constraints, assuming those ranges, the same way.
/// Returns how many of each are left.
fn held_together(
    facts: &[induction::Fact],
    linear: &[induction::LinearFact],
    check: &mut dyn FnMut(&[induction::Fact], &[induction::LinearFact]) -> Result<Vec<Option<bool>>, String>,
) -> Result<(usize, usize), String> {
    let ranges = fixpoint(facts, |r| check(r, &[]))?;
    // The ranges left are inductive on their own: assumed, not asked
    // again (their answers, first, are not read).
    let sums = fixpoint(linear, |l| Ok(check(&ranges, l)?.split_off(ranges.len())))?;
    Ok((ranges.len(), sums.len()))
}

/// The largest subset of `items` whose answers from `ask` (one per item
/// asked) are all `Some(true)`: those answered otherwise are dropped and
/// the rest asked again.
fn fixpoint<T: Clone>(
    items: &[T],
    mut ask: impl FnMut(&[T]) -> Result<Vec<Option<bool>>, String>,
) -> Result<Vec<T>, String> {
    let mut left = items.to_vec();
    while !left.is_empty() {
        let answers = ask(&left)?;
        let before = left.len();
        left = left
            .into_iter()
            .zip(&answers)
            .filter(|(_, a)| **a == Some(true))
            .map(|(x, _)| x)
            .collect();
        if left.len() == before {
            break;
        }
    }
    Ok(left)
}

/// The column of the last `while`, `for` or `do` keyword on `line` at or
/// before `column` (anywhere on the line when the column is unknown).
fn loop_keyword(text: &str, line: u32, column: u32) -> Option<u32> {
    let l = text.lines().nth(line.checked_sub(1)? as usize)?;
    let end = if column == 0 {
        l.len()
    } else {
        (column as usize).min(l.len())
    };
    let head = &l[..end];
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    ["while", "for", "do"]
        .iter()
        .filter_map(|k| {
            head.match_indices(*k)
                .filter(|(i, _)| {
                    let before = head[..*i].chars().next_back();
                    let after = l[i + k.len()..].chars().next();
                    !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
                })
                .map(|(i, _)| i)
                .last()
        })
        .max()
        .map(|i| i as u32 + 1)
}

/// The invariant as the witness states it: its ranges as a C expression
/// (`c_expression`), or with its linear constraints as an ACSL one
/// (`acsl_expression`: arithmetic in the reals, as the constraints hold),
/// bounds rounded outward to exact hexadecimal literals.
fn expression(i: &Invariant) -> Option<(String, &'static str)> {
    let ranges = c_expression(i, !i.linear.is_empty());
    if i.linear.is_empty() {
        return ranges.map(|r| (r, "c_expression"));
    }
    let mut parts: Vec<String> = ranges.into_iter().collect();
    // As the invariant check asks them (`fpsym_prove::linear_facts`).
    for l in i.linear.iter().map(fpsym_prove::LinearBound::stated) {
        if !l.terms.iter().all(|(n, _, _)| fpsym_prove::is_c_identifier(n)) {
            continue;
        }
        let sum: Vec<String> = l
            .terms
            .iter()
            .map(|(n, _, c)| format!("({})*{n}", fpsym_report::hex_float(*c)))
            .collect();
        let sum = sum.join(" + ");
        if let Some(lo) = l.lo {
            parts.push(format!("{sum} >= {}", fpsym_report::hex_float(lo)));
        }
        if let Some(hi) = l.hi {
            parts.push(format!("{sum} <= {}", fpsym_report::hex_float(hi)));
        }
    }
    (!parts.is_empty()).then(|| (parts.join(" && "), "acsl_expression"))
}

/// `lo <= x && x <= hi && ...` over the invariant's C variables (bounds as
/// exact hexadecimal literals; a variable that may be NaN also satisfies
/// `x != x`, or `\is_NaN(x)` in ACSL). None when no variable has a bound.
fn c_expression(i: &Invariant, acsl: bool) -> Option<String> {
    let ident = |n: &str| {
        n.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    let mut parts = Vec::new();
    for (name, v) in &i.vars {
        if !ident(name) {
            continue;
        }
        match v {
            Val::F(x) => {
                let mut conj = Vec::new();
                if let Some((lo, hi)) = x.bounds() {
                    if !lo.is_infinite() {
                        conj.push(format!("{name} >= {}", fpsym_report::hex_float(lo)));
                    }
                    if !hi.is_infinite() {
                        conj.push(format!("{name} <= {}", fpsym_report::hex_float(hi)));
                    }
                }
                if conj.is_empty() {
                    continue;
                }
                let c = conj.join(" && ");
                let nan = if acsl {
                    format!("\\is_NaN({name})")
                } else {
                    format!("{name} != {name}")
                };
                parts.push(if x.may_be_nan() { format!("({nan} || ({c}))") } else { c });
            }
            Val::I(r) => {
                let (l, h) = fpsym_prove::IntRange::limits(r.bits);
                if r.lo > l {
                    parts.push(format!("{name} >= {}", r.lo));
                }
                if r.hi < h {
                    parts.push(format!("{name} <= {}", r.hi));
                }
            }
            _ => {}
        }
    }
    (!parts.is_empty()).then(|| parts.join(" && "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loop_keywords_are_found_before_the_column() {
        let t = "int main() {\n  while (x < 3) {\n  for (i = 0; i < n; i++)\n  y = fore;\n";
        assert_eq!(loop_keyword(t, 2, 10), Some(3));
        assert_eq!(loop_keyword(t, 3, 0), Some(3));
        assert_eq!(loop_keyword(t, 4, 0), None);
    }
}
