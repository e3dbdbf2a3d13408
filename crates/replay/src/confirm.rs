//! Confirmation: whether a native run shows what the run recorded. Per
//! finding kind a [`Confirmation`] (registered in [`Confirmations`]); per
//! test the typed path end against the observation ([`ends_as`]).

use crate::classify::{basename, NativeRun};
use fpsym_report::{Finding, FindingKind, Observation, Observed, PathEnd, Raised, Termination};
use std::collections::BTreeSet;

/// How findings of one kind are confirmed by native replay.
///
/// Why this shape: confirming a kind can need something at each stage of
/// a replay, and only the last is always needed. The build may have to
/// make the failure observable ([`Confirmation::extra_cflags`], e.g.
/// `-fsanitize=float-cast-overflow`; [`Confirmation::driver_code`], e.g. a
/// constructor calling `feenableexcept` and a SIGFPE handler printing the
/// `si_code`); a run's raw facts may need reading in a way the built-in
/// classification does not know ([`Confirmation::classify`]: SIGFPE with
/// `FPE_FLTDIV` is a floating-point division by zero, not an integer
/// one); and a rule decides whether what was observed is the finding
/// ([`Confirmation::confirms`]: same kind at the same line, or anywhere
/// for kinds a native run cannot locate). One trait object per kind keeps
/// the three together, so a mode adds a kind to [`Confirmations`] without
/// touching the build, the runner or the built-in rules. The build and
/// classification hooks only take part in a replay whose findings or
/// tests have the kind, so a rule for (say) FP overflow traps does not
/// change how an ordinary run's tests behave.
pub trait Confirmation: Send + Sync {
    /// The finding kind this confirms.
    fn kind(&self) -> FindingKind;

    /// Flags added to every clang command of the replay build (compile and
    /// link): the program's files are compiled with them. Default: none.
    fn extra_cflags(&self) -> Vec<String> {
        Vec::new()
    }

    /// Flags the driver alone is compiled with (macros selecting its
    /// [`Confirmation::driver_code`]); the program's objects do not depend
    /// on them, so runs with different rules share those. Default: none.
    fn driver_cflags(&self) -> Vec<String> {
        Vec::new()
    }

    /// C code appended to the replay driver (helpers, constructors, signal
    /// handlers). Default: none.
    fn driver_code(&self) -> String {
        String::new()
    }

    /// Classifies a run before the built-in rules (after the driver's own
    /// `reach_error` and replay-error markers): Some to decide what the run
    /// did. Default: None (the built-in classification decides).
    fn classify(&self, _run: &NativeRun) -> Option<Observed> {
        None
    }

    /// What the run raised and went on after (e.g. a trapped
    /// floating-point exception), located with `symbolize` (a code address
    /// of the program, as printed, to the user's basename and line).
    /// Default: nothing.
    fn raised(&self, _run: &NativeRun, _symbolize: &dyn Fn(&str) -> Option<(String, u32)>) -> Vec<Raised> {
        Vec::new()
    }

    /// Whether `observed`, the native run of the finding's test, shows the
    /// finding.
    fn confirms(&self, finding: &Finding, observed: &Observed) -> bool;

    /// Whether the confirmation reads the coverage profile of each run
    /// ([`NativeRun::profile`]): the program is then built for coverage.
    /// Default: false.
    fn needs_profile(&self) -> bool {
        false
    }
}

/// Where a [`SameKind`] finding must be observed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// At the finding's line in the finding's file (by basename).
    Line,
    /// Anywhere: the native run cannot locate it (`abort`, `unreachable`).
    Anywhere,
    /// At the finding's line, or unlocated (a signal without a stack
    /// trace, e.g. SIGFPE without the sanitizer's report).
    LineOrUnlocated,
}

/// The built-in rule: the native run fails with the same kind, at the
/// place [`Place`] says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SameKind {
    /// The kind.
    pub kind: FindingKind,
    /// Where.
    pub place: Place,
}

impl SameKind {
    /// The same kind at `place`.
    pub fn new(kind: FindingKind, place: Place) -> SameKind {
        SameKind { kind, place }
    }
}

impl Confirmation for SameKind {
    fn kind(&self) -> FindingKind {
        self.kind.clone()
    }

    fn confirms(&self, finding: &Finding, o: &Observed) -> bool {
        let at_line = o.line == Some(finding.line) && o.file.as_deref() == Some(basename(&finding.file).as_str());
        let placed = match self.place {
            Place::Line => at_line,
            Place::Anywhere => true,
            Place::LineOrUnlocated => at_line || o.line.is_none(),
        };
        o.kind == Observation::Finding(finding.kind.clone()) && placed
    }
}

/// The confirmations of a replay, one per finding kind.
///
/// [`Confirmations::default`] holds the built-in kinds' rules: the same
/// kind at the same file (basename) and line; `abort` and `unreachable`
/// anywhere; `division-by-zero` at the line or unlocated (SIGFPE without a
/// stack trace). [`Confirmations::with`] adds a kind or replaces one's
/// rule. A finding of a kind with no confirmation is not confirmed
/// ([`Confirmations::missing_rule`] says why).
pub struct Confirmations {
    rules: Vec<Box<dyn Confirmation>>,
}

impl Default for Confirmations {
    fn default() -> Confirmations {
        let place = |k: &FindingKind| match k {
            FindingKind::Abort | FindingKind::Unreachable => Place::Anywhere,
            FindingKind::DivisionByZero => Place::LineOrUnlocated,
            _ => Place::Line,
        };
        Confirmations {
            rules: FindingKind::BUILT_IN
                .iter()
                .map(|k| match (crate::fp::FpTrap::new(k.clone()), k) {
                    (Some(trap), _) => Box::new(trap) as Box<dyn Confirmation>,
                    (None, FindingKind::FloatCastOverflow) => Box::new(crate::fp::FloatCast),
                    (None, k) => Box::new(SameKind::new(k.clone(), place(k))),
                })
                .collect(),
        }
    }
}

impl std::fmt::Debug for Confirmations {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.rules.iter().map(|r| r.kind())).finish()
    }
}

impl Confirmations {
    /// No confirmation at all: every finding is unconfirmed.
    pub fn none() -> Confirmations {
        Confirmations { rules: Vec::new() }
    }

    /// With `c` for its kind (replacing the rule the kind had).
    pub fn with(mut self, c: Box<dyn Confirmation>) -> Confirmations {
        let kind = c.kind();
        self.rules.retain(|r| r.kind() != kind);
        self.rules.push(c);
        self
    }

    /// The confirmation of `kind`, if one is registered.
    pub fn get(&self, kind: &FindingKind) -> Option<&dyn Confirmation> {
        self.rules.iter().find(|r| r.kind() == *kind).map(|r| &**r)
    }

    /// The kinds with a confirmation, in registration order.
    pub fn kinds(&self) -> Vec<FindingKind> {
        self.rules.iter().map(|r| r.kind()).collect()
    }

    /// Why findings of `kind` cannot be confirmed: Some when no
    /// confirmation is registered for it.
    pub fn missing_rule(&self, kind: &FindingKind) -> Option<String> {
        match self.get(kind) {
            Some(_) => None,
            None => Some(format!(
                "no native confirmation is registered for finding kind `{kind}`"
            )),
        }
    }

    /// Whether `observed` (the native run of the finding's test) confirms
    /// `finding`: false for a kind with no confirmation.
    pub fn confirms(&self, finding: &Finding, observed: &Observed) -> bool {
        self.get(&finding.kind).is_some_and(|c| c.confirms(finding, observed))
    }

    /// The confirmations taking part in a replay whose findings and tests
    /// have `kinds`.
    pub(crate) fn taking_part(&self, kinds: &BTreeSet<FindingKind>) -> Vec<&dyn Confirmation> {
        self.rules
            .iter()
            .filter(|r| kinds.contains(&r.kind()))
            .map(|r| &**r)
            .collect()
    }
}

/// Whether a native run ended as a test's typed end says: `Exit(n)` as an
/// exit with status `n` modulo 256 (and, when the driver printed a
/// `--function` result, that result exactly; with `pointer_result` only
/// that it exited, the run's pointer being an address of its own memory);
/// a trap as SIGILL; `abort`, `assertion-failure`, `division-by-zero`
/// terminations and error ends as a failure of that kind. A partial path
/// is always confirmed (it stopped early; the native run goes on).
pub fn ends_as(end: &PathEnd, o: &Observed, pointer_result: bool) -> bool {
    let failed = |k: FindingKind| o.kind == Observation::Finding(k);
    match end {
        PathEnd::Exit(_) if pointer_result => o.kind == Observation::Exit,
        PathEnd::Exit(n) => {
            o.kind == Observation::Exit && o.code == Some((n & 0xff) as i32) && o.result.is_none_or(|r| r == *n)
        }
        PathEnd::Terminated(Termination::Trap) => o.kind == Observation::Signal && o.code == Some(4),
        PathEnd::Terminated(Termination::Abort) => failed(FindingKind::Abort),
        PathEnd::Terminated(Termination::AssertionFailure) => failed(FindingKind::AssertionFailure),
        PathEnd::Terminated(Termination::DivisionByZero) => failed(FindingKind::DivisionByZero),
        // An error the program goes on after (an FP exception) is raised,
        // wherever the run then ends.
        PathEnd::Error(k) => failed(k.clone()) || o.raised.iter().any(|r| r.kind == *k),
        PathEnd::Partial(_) => true,
    }
}

/// How a test's end is shown in the replay table and `replay.json`'s
/// `expected`: the end as the test's `detail` says it, `exit (pointer
/// result)` for a pointer result, `partial (WHY)`.
pub fn expected(end: &PathEnd, pointer_result: bool) -> String {
    match end {
        PathEnd::Exit(_) if pointer_result => "exit (pointer result)".to_string(),
        PathEnd::Partial(why) => format!("partial ({why})"),
        end => end.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obs(kind: Observation, file: Option<&str>, line: Option<u32>, code: Option<i32>) -> Observed {
        Observed {
            kind,
            file: file.map(String::from),
            line,
            code,
            result: None,
            raised: Vec::new(),
        }
    }

    fn exit(code: i32, result: Option<i64>) -> Observed {
        Observed {
            result,
            ..obs(Observation::Exit, None, None, Some(code))
        }
    }

    fn finding(kind: FindingKind, file: &str, line: u32) -> Finding {
        Finding {
            kind,
            file: file.into(),
            line,
            column: 1,
            stack: vec![],
            test: 1,
            message: String::new(),
            inputs: None,
            avoidable: None,
            operation: None,
            operands: Vec::new(),
            result: None,
        }
    }

    #[test]
    fn exits_compare_the_status_modulo_256_and_the_whole_result() {
        assert!(ends_as(&PathEnd::Exit(3), &exit(3, None), false));
        assert!(!ends_as(&PathEnd::Exit(3), &exit(4, None), false));
        assert!(ends_as(&PathEnd::Exit(-1), &exit(255, Some(-1)), false));
        assert!(ends_as(&PathEnd::Exit(300), &exit(44, None), false));
        assert!(!ends_as(&PathEnd::Exit(300), &exit(44, Some(44)), false));
        assert!(!ends_as(&PathEnd::Exit(5), &exit(2, Some(2)), false));
        // A pointer result: only that it exited.
        assert!(ends_as(&PathEnd::Exit(0x4000), &exit(0, None), true));
        let abort = obs(Observation::Finding(FindingKind::Abort), None, None, Some(6));
        assert!(!ends_as(&PathEnd::Exit(0), &abort, true));
        assert!(!ends_as(&PathEnd::Exit(0), &abort, false));
    }

    #[test]
    fn terminations_errors_and_partial_paths() {
        let abort = obs(Observation::Finding(FindingKind::Abort), None, None, Some(6));
        let sigill = obs(Observation::Signal, None, None, Some(4));
        let segv = obs(Observation::Signal, None, None, Some(11));
        let fpe = obs(Observation::Finding(FindingKind::DivisionByZero), None, None, Some(8));
        let assert = obs(
            Observation::Finding(FindingKind::AssertionFailure),
            Some("p.c"),
            Some(3),
            None,
        );
        let t = |t| PathEnd::Terminated(t);
        assert!(ends_as(&t(Termination::Abort), &abort, false));
        assert!(!ends_as(&t(Termination::Abort), &assert, false));
        assert!(ends_as(&t(Termination::AssertionFailure), &assert, false));
        assert!(ends_as(&t(Termination::DivisionByZero), &fpe, false));
        assert!(ends_as(&t(Termination::Trap), &sigill, false));
        assert!(!ends_as(&t(Termination::Trap), &segv, false));
        assert!(ends_as(&PathEnd::Error(FindingKind::Abort), &abort, false));
        assert!(!ends_as(&PathEnd::Error(FindingKind::ReachError), &abort, false));
        let custom = FindingKind::Custom("fp-overflow".into());
        let o = obs(Observation::Finding(custom.clone()), None, None, None);
        assert!(ends_as(&PathEnd::Error(custom), &o, false));
        assert!(ends_as(&PathEnd::Partial("loop bound".into()), &segv, false));
        assert!(!ends_as(
            &PathEnd::Exit(0),
            &obs(Observation::Timeout, None, None, None),
            false
        ));
    }

    #[test]
    fn expected_texts() {
        assert_eq!(expected(&PathEnd::Exit(3), false), "exit 3");
        assert_eq!(expected(&PathEnd::Exit(3), true), "exit (pointer result)");
        assert_eq!(expected(&PathEnd::Terminated(Termination::Trap), true), "trap");
        assert_eq!(expected(&PathEnd::Error(FindingKind::ReachError), false), "reach-error");
        assert_eq!(expected(&PathEnd::Partial("why".into()), false), "partial (why)");
    }

    #[test]
    fn built_in_rules() {
        let c = Confirmations::default();
        let oob = |file, line| obs(Observation::Finding(FindingKind::OutOfBounds), file, line, None);
        let f = finding(FindingKind::OutOfBounds, "/src/prog.c", 7);
        assert!(c.confirms(&f, &oob(Some("prog.c"), Some(7))));
        assert!(!c.confirms(&f, &oob(Some("prog.c"), Some(8))));
        assert!(!c.confirms(&f, &oob(Some("other.c"), Some(7))));
        assert!(!c.confirms(&f, &oob(None, None)));
        let uaf = obs(
            Observation::Finding(FindingKind::UseAfterFree),
            Some("prog.c"),
            Some(7),
            None,
        );
        assert!(!c.confirms(&f, &uaf));
        // abort: anywhere.
        let f = finding(FindingKind::Abort, "/src/prog.c", 9);
        assert!(c.confirms(&f, &obs(Observation::Finding(FindingKind::Abort), None, None, Some(6))));
        assert!(!c.confirms(&f, &obs(Observation::Signal, None, None, Some(6))));
        // division by zero: at the line, or unlocated.
        let f = finding(FindingKind::DivisionByZero, "prog.c", 4);
        let div = |file, line| obs(Observation::Finding(FindingKind::DivisionByZero), file, line, None);
        assert!(c.confirms(&f, &div(None, None)));
        assert!(c.confirms(&f, &div(Some("prog.c"), Some(4))));
        assert!(!c.confirms(&f, &div(Some("prog.c"), Some(5))));
        // reach-error at the call's line.
        let f = finding(FindingKind::ReachError, "dir/task.c", 20);
        let reach = obs(
            Observation::Finding(FindingKind::ReachError),
            Some("task.c"),
            Some(20),
            None,
        );
        assert!(c.confirms(&f, &reach));
        assert_eq!(c.missing_rule(&FindingKind::ReachError), None);
    }

    struct FpOverflow;
    impl Confirmation for FpOverflow {
        fn kind(&self) -> FindingKind {
            FindingKind::Custom("fp-overflow".into())
        }
        fn extra_cflags(&self) -> Vec<String> {
            vec!["-DFP_TRAPS".into()]
        }
        fn classify(&self, run: &NativeRun) -> Option<Observed> {
            run.marker("FPE: overflow at line ").map(|l| Observed {
                line: l.trim().parse().ok(),
                ..Observed::bare(Observation::Finding(self.kind()))
            })
        }
        fn confirms(&self, f: &Finding, o: &Observed) -> bool {
            o.kind == Observation::Finding(self.kind()) && o.line == Some(f.line)
        }
    }

    #[test]
    fn custom_kinds_need_a_registered_confirmation() {
        let kind = FindingKind::Custom("fp-overflow".into());
        let f = finding(kind.clone(), "prog.c", 3);
        let o = obs(Observation::Finding(kind.clone()), None, Some(3), None);
        let c = Confirmations::default();
        assert!(!c.confirms(&f, &o));
        let why = c.missing_rule(&kind).unwrap();
        assert!(
            why.contains("no native confirmation") && why.contains("fp-overflow"),
            "{why}"
        );
        let c = c.with(Box::new(FpOverflow));
        assert!(c.confirms(&f, &o));
        assert_eq!(c.missing_rule(&kind), None);
        assert_eq!(c.kinds().len(), FindingKind::BUILT_IN.len() + 1);
        // Only the kinds of the replayed run take part in its build.
        let some: BTreeSet<FindingKind> = [FindingKind::Abort].into();
        assert!(c.taking_part(&some).iter().all(|r| r.extra_cflags().is_empty()));
        let with_fp: BTreeSet<FindingKind> = [kind.clone()].into();
        let part = c.taking_part(&with_fp);
        assert_eq!(part.len(), 1);
        assert_eq!(part[0].extra_cflags(), ["-DFP_TRAPS"]);
        // Its classifier reads the run.
        let user = fpsym_frontend::UserCode::default();
        let run = NativeRun {
            stderr: "FPE: overflow at line 3\n".into(),
            code: None,
            signal: Some(8),
            timed_out: false,
            user: &user,
            profile: None,
        };
        assert_eq!(part[0].classify(&run).and_then(|o| o.line), Some(3));
        // Replacing a built-in rule.
        let c = Confirmations::default().with(Box::new(SameKind::new(FindingKind::Abort, Place::Line)));
        let f = finding(FindingKind::Abort, "prog.c", 9);
        assert!(!c.confirms(&f, &obs(Observation::Finding(FindingKind::Abort), None, None, Some(6))));
        assert!(Confirmations::none().missing_rule(&FindingKind::Abort).is_some());
    }
}
