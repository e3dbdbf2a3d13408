//! A checker, an observer and a branch oracle written outside the engine
//! crate plug into a run through `Extensions::checkers` and `RunContext`
//! without touching the engine (issue "Seams for the modes").

use fpsym_engine::checkers::{Check, Checker, CheckerFactory, Kind, Point};
use fpsym_engine::exec::End;
use fpsym_engine::plugin::{Branch, BranchOracle, Follow, Observer};
use fpsym_engine::report::{Collect, PathEnd, ReportSink, Verdict};
use fpsym_engine::state::State;
use fpsym_engine::term::mk;
use fpsym_engine::{Config, Entry, RunContext};
use fpsym_expr::Op;
use fpsym_frontend::{CompileOptions, Program};
use fpsym_solver::{Backend, SolverConfig};
use std::path::PathBuf;

const PROGRAM: &str = r#"#include <math.h>
double ratio(double x, double y) {
    double z = x / y;
    if (z > 10.0)
        return z;
    if (z < -10.0)
        return fabs(z);
    return 0.0;
}
"#;

fn program(name: &str) -> Program {
    let dir = std::env::temp_dir().join(format!("fpsym-plugins-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let src: PathBuf = dir.join("ratio.c");
    std::fs::write(&src, PROGRAM).unwrap();
    fpsym_frontend::build(&[src], &CompileOptions::default(), &dir.join("build"))
        .unwrap_or_else(|e| panic!("building the fixture (needs clang-14: scripts/bootstrap): {e}"))
}

fn config() -> Config {
    let mut c = Config::default();
    c.entry = Entry::Function {
        name: "ratio".into(),
        ranges: vec![],
        array_len: None,
    };
    c
}

fn run(program: &Program, config: &Config, cx: &mut RunContext<'_>) -> Collect {
    let mut solver = fpsym_solver::build(&SolverConfig::bare(Backend::Cp(Default::default())));
    let mut sink = Collect::default();
    let summary = fpsym_engine::run(program, solver.as_mut(), config, &mut sink, cx).expect("the run starts");
    sink.finish(&summary).unwrap();
    sink
}

/// Floating-point division by zero: the program goes on (with an infinity
/// or a NaN), so the check continues the path.
struct FdivByZero;

impl Checker for FdivByZero {
    fn name(&self) -> &str {
        "fdiv-by-zero"
    }
    fn check(&mut self, st: &State, at: Point<'_>, operands: &[Option<fpsym_expr::Term>]) -> Vec<Check> {
        assert!(!st.frames.is_empty(), "checkers see the state");
        match (at, operands) {
            (Point::Instruction(llvm_ir::Instruction::FDiv(_)), [_, Some(y)]) => vec![Check::continuing(
                Kind::Custom("fdiv-by-zero".into()),
                mk(Op::FpIsZero, vec![y.clone()]),
                "division by zero",
            )],
            _ => vec![],
        }
    }
}

/// Per-path data kept in the state's extension slot.
#[derive(Clone, Default)]
struct Trail {
    branches: Vec<(u32, bool)>,
    fdivs: u32,
}

/// Counts what it sees, and records each path's branch trail at its end.
#[derive(Default)]
struct Recorder {
    instructions: u64,
    calls: u64,
    returns: Vec<String>,
    ends: Vec<(Vec<(u32, bool)>, u32, &'static str)>,
}

impl Observer for Recorder {
    fn after_instruction(&mut self, st: &mut State, inst: &llvm_ir::Instruction) {
        self.instructions += 1;
        if matches!(inst, llvm_ir::Instruction::FDiv(_)) {
            st.ext_mut::<Trail>().fdivs += 1;
        }
    }
    fn at_branch(&mut self, st: &mut State, branch: &Branch<'_>, taken: bool) {
        assert_eq!(branch.function, "ratio");
        let line = branch.loc.map_or(0, |l| l.line);
        st.ext_mut::<Trail>().branches.push((line, taken));
    }
    fn at_call(&mut self, _st: &mut State, _callee: &str, _args: &[fpsym_engine::value::Val]) {
        self.calls += 1;
    }
    fn at_return(&mut self, _st: &mut State, callee: &str, _result: Option<&fpsym_engine::value::Val>) {
        self.returns.push(callee.to_string());
    }
    fn at_path_end(&mut self, st: &State, end: &End) {
        let t = st.ext::<Trail>().cloned().unwrap_or_default();
        let how = match end {
            End::Exit(_) => "exit",
            End::Error(_) => "error",
            End::Infeasible => "infeasible",
            End::Pruned => "pruned",
            End::Partial(_) => "partial",
        };
        self.ends.push((t.branches, t.fdivs, how));
    }
}

#[test]
fn an_outside_checker_finds_and_the_path_goes_on() {
    let p = program("checker");
    let mut config = config();
    config
        .extensions
        .checkers
        .push(CheckerFactory::new(|| Box::new(FdivByZero)));
    let mut cx = RunContext::default();
    cx.plugins.observers.push(Box::new(Recorder::default()));
    let out = run(&p, &config, &mut cx);
    let f: Vec<_> = out
        .findings
        .iter()
        .filter(|f| f.kind.name() == "fdiv-by-zero")
        .collect();
    assert_eq!(f.len(), 1, "{:?}", out.findings);
    assert_eq!(f[0].line, 3);
    // Its test divides by zero: y is ±0.
    let t = out.tests.iter().find(|t| t.id == f[0].test).unwrap();
    assert_eq!(t.end, PathEnd::Error(Kind::Custom("fdiv-by-zero".into())));
    let y = t.objects.iter().find(|o| o.name == "y").unwrap();
    let bits = u64::from_le_bytes(y.byte_values().unwrap().try_into().unwrap());
    assert_eq!(bits << 1, 0, "y = {:?}", y.value);
    // The path went on: the three exits of `ratio` are still tests.
    let exits = out.tests.iter().filter(|t| matches!(t.end, PathEnd::Exit(_))).count();
    assert_eq!(exits, 3, "{:?}", out.tests);
    let summary = out.summary.unwrap();
    assert_eq!(summary.verdict, Verdict::BugFound);
    // A finding after which the path goes on ends no path.
    assert_eq!(summary.stats.paths_completed, 3);
    assert_eq!(cx.plugins.observer::<Recorder>().unwrap().ends.len(), 3);
    // Without it, the same run finds nothing.
    let out = run(&p, &self::config(), &mut RunContext::default());
    assert!(out.findings.is_empty());
}

#[test]
fn an_outside_observer_sees_every_path_with_its_own_data() {
    let p = program("observer");
    let mut cx = RunContext::default();
    cx.plugins.observers.push(Box::new(Recorder::default()));
    let out = run(&p, &config(), &mut cx);
    assert_eq!(out.tests.len(), 3);
    let r = cx.plugins.observer::<Recorder>().expect("the recorder is still there");
    assert!(r.instructions > 0);
    // `fabs` (clang's intrinsic, a built-in model) was called and returned
    // on one path; debug-information intrinsics are not calls.
    assert_eq!((r.calls, r.returns.as_slice()), (1, &["llvm.fabs.f64".to_string()][..]));
    let mut ends = r.ends.clone();
    ends.sort();
    // Each path's data forked with it: its own branches, one division.
    assert_eq!(
        ends,
        vec![
            (vec![(4, false), (6, false)], 1, "exit"),
            (vec![(4, false), (6, true)], 1, "exit"),
            (vec![(4, true)], 1, "exit"),
        ]
    );
}

/// Follows only the `false` side of the first branch and the `true` side
/// of the second: one path, as the path mode will.
struct OnePath;

impl BranchOracle for OnePath {
    fn decide(&mut self, _st: &State, branch: &Branch<'_>) -> Follow {
        match branch.loc.map(|l| l.line) {
            Some(4) => Follow::Else,
            Some(6) => Follow::Then,
            _ => Follow::Both,
        }
    }
}

/// Refuses every branch: paths end as infeasible there.
struct Nowhere;

impl BranchOracle for Nowhere {
    fn decide(&mut self, _st: &State, _branch: &Branch<'_>) -> Follow {
        Follow::Neither
    }
}

#[test]
fn an_outside_oracle_directs_the_search() {
    let p = program("oracle");
    let mut cx = RunContext::default();
    cx.plugins.oracle = Some(Box::new(OnePath));
    let out = run(&p, &config(), &mut cx);
    assert_eq!(out.tests.len(), 1, "{:?}", out.tests);
    assert!(cx.plugins.oracle::<OnePath>().is_some());
    // The path's input satisfies both decisions: x / y < -10.
    let val = |n: &str| -> f64 {
        let o = out.tests[0].objects.iter().find(|o| o.name == n).unwrap();
        f64::from_le_bytes(o.byte_values().unwrap().try_into().unwrap())
    };
    assert!(val("x") / val("y") < -10.0, "x = {}, y = {}", val("x"), val("y"));

    let mut cx = RunContext::default();
    cx.plugins.oracle = Some(Box::new(Nowhere));
    let out = run(&p, &config(), &mut cx);
    assert!(out.tests.is_empty());
    let s = out.summary.unwrap();
    assert_eq!(s.stats.paths_infeasible, 1);
    // Sides excluded unasked: the run proves nothing about them.
    assert_eq!(s.stats.excluded, 2);
    assert!(
        matches!(&s.verdict, Verdict::Incomplete(why) if why.contains("branch oracle excluded 2")),
        "{:?}",
        s.verdict
    );
}

const TWO_TARGETS: &str = r#"
double pick(int c, double x, double y) {
    double *p = (double *)((char *)&x + (c != 0) * ((char *)&y - (char *)&x));
    return *p;
}
"#;

/// Loads at line 4 on this path.
#[derive(Clone, Default)]
struct Loads(u32);

#[derive(Default)]
struct LoadCounter {
    per_path: Vec<u32>,
}

impl Observer for LoadCounter {
    fn after_instruction(&mut self, st: &mut State, inst: &llvm_ir::Instruction) {
        use llvm_ir::HasDebugLoc;
        if matches!(inst, llvm_ir::Instruction::Load(_)) && inst.get_debug_loc().as_ref().map(|d| d.line) == Some(4) {
            st.ext_mut::<Loads>().0 += 1;
        }
    }
    fn at_path_end(&mut self, st: &State, _end: &End) {
        self.per_path.push(st.ext::<Loads>().map_or(0, |l| l.0));
    }
}

#[test]
fn a_state_split_off_to_execute_again_is_not_reported_twice() {
    let dir = std::env::temp_dir().join(format!("fpsym-plugins-{}-targets", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("pick.c");
    std::fs::write(&src, TWO_TARGETS).unwrap();
    let p = fpsym_frontend::build(&[src], &CompileOptions::default(), &dir.join("build")).unwrap();
    let mut config = Config::default();
    config.entry = Entry::Function {
        name: "pick".into(),
        ranges: vec![],
        array_len: None,
    };
    let mut cx = RunContext::default();
    cx.plugins.observers.push(Box::new(LoadCounter::default()));
    let out = run(&p, &config, &mut cx);
    assert_eq!(out.tests.len(), 2, "{:?}", out.tests);
    // `*p` points into x or into y: two paths, each loading once.
    assert_eq!(cx.plugins.observer::<LoadCounter>().unwrap().per_path, [1, 1]);
}

/// FPGen-style injected branch: at the division, the path forks on the
/// sign of x, and both sides go on.
struct SplitOnSign;

impl Checker for SplitOnSign {
    fn name(&self) -> &str {
        "split-on-sign"
    }
    fn check(&mut self, _st: &State, at: Point<'_>, operands: &[Option<fpsym_expr::Term>]) -> Vec<Check> {
        match (at, operands) {
            (Point::Instruction(llvm_ir::Instruction::FDiv(_)), [Some(x), _]) => vec![Check::split(
                Kind::Custom("sign".into()),
                mk(Op::FpIsNegative, vec![x.clone()]),
                "x < 0",
            )],
            _ => vec![],
        }
    }
}

#[test]
fn an_injected_branch_forks_and_both_sides_go_on() {
    let p = program("split");
    let mut config = config();
    config
        .extensions
        .checkers
        .push(CheckerFactory::new(|| Box::new(SplitOnSign)));
    let mut cx = RunContext::default();
    cx.plugins.observers.push(Box::new(Recorder::default()));
    let out = run(&p, &config, &mut cx);
    // ratio's three paths (z > 10, z < -10, neither), each with x < 0 and
    // with x >= 0: six tests, no finding, every path explored.
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    assert_eq!(out.tests.len(), 6, "{:?}", out.tests);
    let negative = out
        .tests
        .iter()
        .filter(|t| {
            let x = t.objects.iter().find(|o| o.name == "x").expect("x is an input");
            x.value.as_deref().is_some_and(|v| v.starts_with('-'))
        })
        .count();
    assert_eq!(negative, 3, "{:?}", out.tests);
    assert_eq!(out.summary.as_ref().unwrap().verdict, Verdict::Verified);
    // The split-off side executed the division once, as an observer sees.
    let rec = cx.plugins.observer::<Recorder>().unwrap();
    assert_eq!(rec.ends.len(), 6);
    assert!(
        rec.ends.iter().all(|(_, fdivs, how)| *fdivs == 1 && *how == "exit"),
        "{:?}",
        rec.ends
    );
}
