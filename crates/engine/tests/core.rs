//! The engine's core from LLVM IR text (`fpsym_engine::testkit`), without
//! clang: how paths fork and end, the findings the run loop reports, and
//! the limits that cut a path or the run. Each test reads the typed
//! records the run pushed.

use fpsym_engine::report::{FindingKind, Partial, PathEnd, StopReason, Verdict};
use fpsym_engine::searcher::{Policy, Search};
use fpsym_engine::testkit::{program, run_function};

#[test]
fn a_branch_on_an_input_forks_a_test_per_side() {
    let p = program(
        r#"
define i32 @sign(i32 %x) {
entry:
  %neg = icmp slt i32 %x, 0
  br i1 %neg, label %minus, label %plus
minus:
  ret i32 -1
plus:
  ret i32 1
}
"#,
    );
    let run = run_function(&p, "sign", |_| {});
    let mut ends: Vec<String> = run.tests.iter().map(|t| t.end.to_string()).collect();
    ends.sort();
    assert_eq!(ends, ["exit -1", "exit 1"], "{:?}", run.tests);
    assert_eq!(run.summary.stop, StopReason::Exhausted);
    assert_eq!(run.summary.verdict, Verdict::Verified);
    assert_eq!(run.summary.stats.paths_completed, 2);
}

#[test]
fn an_integer_division_by_an_input_is_a_finding_with_its_test() {
    let p = program(
        r#"
define i32 @share(i32 %total, i32 %n) {
entry:
  %q = sdiv i32 %total, %n
  ret i32 %q
}
"#,
    );
    let run = run_function(&p, "share", |_| {});
    let f = run
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::DivisionByZero)
        .unwrap_or_else(|| panic!("no division-by-zero finding: {:?}", run.findings));
    let t = run.tests.iter().find(|t| t.id == f.test).expect("the finding's test");
    assert_eq!(t.end, PathEnd::Error(FindingKind::DivisionByZero));
    assert_eq!(run.summary.verdict, Verdict::BugFound);
}

#[test]
fn a_loop_past_its_bound_ends_the_path_partial_and_the_run_incomplete() {
    let p = program(
        r#"
define i32 @count(i32 %n) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %done
body:
  %next = add nsw i32 %i, 1
  br label %head
done:
  ret i32 %i
}
"#,
    );
    let run = run_function(&p, "count", |c| c.limits.loop_bound = Some(2));
    assert!(
        run.tests
            .iter()
            .any(|t| t.end == PathEnd::Partial(Partial::LoopBound(2))),
        "{:?}",
        run.tests
    );
    assert!(run.tests.iter().any(|t| matches!(t.end, PathEnd::Exit(_))));
    assert!(
        matches!(run.summary.verdict, Verdict::Incomplete(_)),
        "a bounded loop proves nothing: {:?}",
        run.summary.verdict
    );
}

#[test]
fn a_call_to_a_function_without_a_body_ends_the_path_and_says_so() {
    let p = program(
        r#"
declare i32 @mystery(i32)

define i32 @wrap(i32 %x) {
entry:
  %r = call i32 @mystery(i32 %x)
  ret i32 %r
}
"#,
    );
    let run = run_function(&p, "wrap", |_| {});
    assert!(
        run.tests
            .iter()
            .any(|t| t.end == PathEnd::Partial(Partial::External("mystery".into()))),
        "{:?}",
        run.tests
    );
    assert!(matches!(run.summary.verdict, Verdict::Incomplete(_)));
}

#[test]
fn recursion_past_the_call_depth_ends_the_path() {
    let p = program(
        r#"
define i32 @down(i32 %x) {
entry:
  %r = call i32 @down(i32 %x)
  ret i32 %r
}
"#,
    );
    let run = run_function(&p, "down", |c| c.limits.max_call_depth = 50);
    assert!(
        run.tests
            .iter()
            .any(|t| t.end == PathEnd::Partial(Partial::CallDepth(50))),
        "{:?}",
        run.tests
    );
}

#[test]
fn the_instruction_limit_stops_the_run_and_keeps_what_it_found() {
    let p = program(
        r#"
define i32 @spin(i32 %x) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %next, %head ]
  %next = add i32 %i, 1
  %more = icmp ne i32 %next, 0
  br i1 %more, label %head, label %done
done:
  ret i32 %x
}
"#,
    );
    let run = run_function(&p, "spin", |c| c.limits.max_instructions = Some(10_000));
    assert!(
        matches!(run.summary.stop, StopReason::MaxInstructions(_)),
        "{:?}",
        run.summary.stop
    );
    assert!(!matches!(run.summary.verdict, Verdict::Verified));
}

#[test]
fn a_store_past_a_local_array_is_an_out_of_bounds_finding() {
    let p = program(
        r#"
define i32 @get(i32 %i) {
entry:
  %a = alloca [4 x i32], align 16
  %idx = sext i32 %i to i64
  %p = getelementptr inbounds [4 x i32], [4 x i32]* %a, i64 0, i64 %idx
  store i32 7, i32* %p, align 4
  %v = load i32, i32* %p, align 4
  ret i32 %v
}
"#,
    );
    let run = run_function(&p, "get", |_| {});
    assert!(
        run.findings.iter().any(|f| f.kind == FindingKind::OutOfBounds),
        "{:?}",
        run.findings
    );
    // The in-bounds indices end normally, with the value stored.
    assert!(run.tests.iter().any(|t| t.end == PathEnd::Exit(7)), "{:?}", run.tests);
}

#[test]
fn a_concrete_loop_runs_on_the_fast_path() {
    let p = program(
        r#"
define i32 @count(i32 %x) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %n, %head ]
  %n = add nsw i32 %i, 1
  %more = icmp slt i32 %n, 1000
  br i1 %more, label %head, label %done
done:
  ret i32 %n
}
"#,
    );
    let run = run_function(&p, "count", |_| {});
    assert_eq!(run.tests.len(), 1, "{:?}", run.tests);
    assert_eq!(run.tests[0].end, PathEnd::Exit(1000));
    assert!(
        run.summary.stats.fast_instructions >= 2000,
        "the loop's {} instructions, {} on the fast path",
        run.summary.stats.instructions,
        run.summary.stats.fast_instructions
    );
}

#[test]
fn breadth_first_search_ends_the_same_paths_as_depth_first() {
    let p = program(
        r#"
define i32 @classify(double %x) {
entry:
  %neg = fcmp olt double %x, 0.000000e+00
  br i1 %neg, label %minus, label %rest
minus:
  ret i32 -1
rest:
  %big = fcmp ogt double %x, 1.000000e+06
  br i1 %big, label %large, label %small
large:
  ret i32 2
small:
  ret i32 1
}
"#,
    );
    let ends = |search: Policy| -> Vec<String> {
        let run = run_function(&p, "classify", |c| c.policy.search = Search::One(search));
        let mut e: Vec<String> = run.tests.iter().map(|t| t.end.to_string()).collect();
        e.sort();
        e
    };
    // NaN takes the `small` side (both comparisons are false): three ends.
    assert_eq!(ends(Policy::Dfs), ["exit -1", "exit 1", "exit 2"]);
    assert_eq!(ends(Policy::Bfs), ends(Policy::Dfs));
}

/// A check the solver leaves undecided makes the run incomplete, unless a
/// proof before the run showed its kind cannot happen
/// (`Goals::proved_absent`): then the check is still asked, and its
/// undecided answer is the proof's.
#[test]
fn an_undecided_check_of_a_kind_proved_absent_leaves_the_run_complete() {
    use fpsym_engine::checkers::fp::{FpExceptions, FpKinds};
    use fpsym_engine::checkers::CheckerFactory;
    use fpsym_engine::report::Event;
    let p = program(
        r#"
define double @scale(double %a, double %b) {
entry:
  %m = fmul double %a, %b
  ret double %m
}
"#,
    );
    let overflow = FpKinds {
        overflow: true,
        underflow: false,
        divide_by_zero: false,
        invalid: false,
        inexact: false,
        float_cast_overflow: false,
    };
    let configure = |proved: bool| {
        move |c: &mut fpsym_engine::Config| {
            c.extensions
                .checkers
                .push(CheckerFactory::new(move || Box::new(FpExceptions::new(overflow))));
            // every query times out
            c.limits.solver_timeout = Some(std::time::Duration::ZERO);
            if proved {
                c.goals.proved_absent = vec![FindingKind::FpOverflow];
            }
        }
    };
    let undecided = |run: &fpsym_engine::testkit::Run| {
        run.events
            .iter()
            .any(|e| matches!(e, Event::CheckUndecided { kind, .. } if *kind == FindingKind::FpOverflow))
    };
    let plain = run_function(&p, "scale", configure(false));
    assert!(undecided(&plain), "{:?}", plain.events);
    assert!(
        matches!(plain.summary.verdict, Verdict::Incomplete(_)),
        "{:?}",
        plain.summary.verdict
    );
    let proved = run_function(&p, "scale", configure(true));
    assert!(!undecided(&proved), "{:?}", proved.events);
    assert!(
        !matches!(&proved.summary.verdict, Verdict::Incomplete(why) if why.contains("fp-overflow")),
        "{:?}",
        proved.summary.verdict
    );
}

/// A branch side whose query timed out is retried on the run's second
/// solver ([`fpsym_engine::RunContext::retry_solver`]) while the run goes
/// on: the retry here answers only once the run has asked ten more
/// queries (so it cannot be answered between the run's steps), the run's
/// solver learns its answer, and the side is explored to its end (its
/// test made from what was learned: the run's own backend never decides
/// that side).
#[test]
fn a_timed_out_side_is_retried_while_the_run_goes_on() {
    use fpsym_expr::Value;
    use fpsym_solver::{Backend, Budget, Query, Reason, SolveResult, Solver, SolverConfig, SolverError};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    // The side `x == 12345` (not its negation).
    fn hard(q: &Query) -> bool {
        q.assertions.iter().any(|a| {
            !matches!(a.op(), fpsym_expr::Op::Not)
                && a.args()
                    .iter()
                    .any(|c| matches!(c.as_const(), Some(Value::Bv(b)) if b.bits() == 12345))
        })
    }
    fn cp() -> Box<dyn Solver> {
        fpsym_solver::build(&SolverConfig::bare(Backend::Cp(Default::default())))
    }
    /// The run's solver: `timeout` on the hard side, cp on the others
    /// (counted).
    struct Run(Box<dyn Solver>, Arc<AtomicUsize>);
    impl Solver for Run {
        fn name(&self) -> String {
            "run".into()
        }
        fn check(&mut self, q: &Query, b: &Budget) -> Result<SolveResult, SolverError> {
            if hard(q) {
                return Ok(SolveResult::Unknown(Reason::Timeout));
            }
            self.1.fetch_add(1, Ordering::SeqCst);
            self.0.check(q, b)
        }
    }
    /// The retries' solver: answers once the run has asked ten more
    /// queries than when it was asked (or after ten seconds: the test
    /// then fails below), and says how many it saw.
    struct Retry(Box<dyn Solver>, Arc<AtomicUsize>, Arc<AtomicUsize>);
    impl Solver for Retry {
        fn name(&self) -> String {
            "retry".into()
        }
        fn check(&mut self, q: &Query, b: &Budget) -> Result<SolveResult, SolverError> {
            let (asked, until) = (self.1.load(Ordering::SeqCst), Instant::now() + Duration::from_secs(10));
            while self.1.load(Ordering::SeqCst) < asked + 10 && Instant::now() < until && !b.expired() {
                std::thread::sleep(Duration::from_millis(1));
            }
            self.2.store(self.1.load(Ordering::SeqCst) - asked, Ordering::SeqCst);
            self.0.check(q, &Budget::timeout(Duration::from_secs(10)))
        }
    }

    let p = program(
        r#"
define i32 @f(i32 %x, i32 %y) {
entry:
  %hard = icmp eq i32 %x, 12345
  br i1 %hard, label %rare, label %b0
rare:
  ret i32 99
b0:
  %y0 = and i32 %y, 1
  %c0 = icmp eq i32 %y0, 0
  br i1 %c0, label %z0, label %o0
z0:
  br label %b1
o0:
  br label %b1
b1:
  %y1 = and i32 %y, 2
  %c1 = icmp eq i32 %y1, 0
  br i1 %c1, label %z1, label %o1
z1:
  br label %b2
o1:
  br label %b2
b2:
  %s2 = phi i32 [ 0, %z1 ], [ 2, %o1 ]
  %y2 = and i32 %y, 4
  %c2 = icmp eq i32 %y2, 0
  br i1 %c2, label %z2, label %o2
z2:
  br label %b3
o2:
  br label %b3
b3:
  %s3 = phi i32 [ %s2, %z2 ], [ 4, %o2 ]
  %y3 = and i32 %y, 8
  %c3 = icmp eq i32 %y3, 0
  br i1 %c3, label %z3, label %o3
z3:
  ret i32 %s3
o3:
  %r = add i32 %s3, 8
  ret i32 %r
}
"#,
    );
    let mut config = fpsym_engine::Config::default();
    config.entry = fpsym_engine::Entry::Function {
        name: "f".into(),
        ranges: Vec::new(),
        array_len: None,
    };
    config.limits.solver_timeout = Some(Duration::from_millis(100));
    config.limits.max_time = Some(Duration::from_secs(60));
    let (asked, seen) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    // The run's solver: its own backend under the chain's caches, which
    // learn the retry's answer (the rare path's test is made from it).
    let mut solver = fpsym_solver::Independent::new(Box::new(fpsym_solver::CexReuse::new(
        Box::new(fpsym_solver::Cached::new(Box::new(Run(cp(), asked.clone())), 100)),
        64,
        8,
    )));
    let mut cx = fpsym_engine::RunContext {
        retry_solver: Some(Box::new(Retry(cp(), asked.clone(), seen.clone()))),
        ..Default::default()
    };
    let mut sink = fpsym_engine::report::Collect::default();
    let s = fpsym_engine::run(&p, &mut solver, &config, &mut sink, &mut cx).expect("the run starts");
    let mut ends: Vec<String> = sink.tests.iter().map(|t| t.end.to_string()).collect();
    ends.sort();
    assert!(ends.contains(&"exit 99".to_string()), "{ends:?} {s:?}");
    assert!(seen.load(Ordering::SeqCst) >= 10, "the run waited: {s:?}");
    assert_eq!(s.stats.recovered, 1, "{s:?}");
    assert_eq!(s.stats.dropped, 0, "{s:?}");
    assert_eq!(s.stop, StopReason::Exhausted, "{s:?}");
    assert!(s.verdict == Verdict::Verified, "{s:?}");
}
