//! The CP solver on whole queries: known answers (sat, unsat, NaN, signed
//! zeros, subnormals, rounding-mode dependence, bit-vector casts), every
//! search configuration, budgets and incomplete strategies, and a
//! differential test against brute-force enumeration on the (3,3) format.

use fpsym_expr::{eval, BvValue, Float, Format, Model, Op, RoundingMode, Sort, Term, Value};
use fpsym_solver::cp::{Consistency, CpConfig, CpSolver, Midpoint, SplitStrategy, VarChoice};
use fpsym_solver::{build, Backend, Budget, Query, Reason, SolveResult, Solver, SolverConfig};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
#[allow(unused_imports)]
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

const RNE: RoundingMode = RoundingMode::NearestTiesToEven;
const RTN: RoundingMode = RoundingMode::TowardNegative;
const RTP: RoundingMode = RoundingMode::TowardPositive;

fn app(op: Op, args: Vec<Term>) -> Term {
    Term::app(op, args).expect("well-sorted test term")
}
fn rm(r: RoundingMode) -> Term {
    Term::rm(r)
}
fn f32c(x: f32) -> Term {
    Term::fp(Float::from_f32(x))
}
fn f64c(x: f64) -> Term {
    Term::fp(Float::from_f64(x))
}
fn var(name: &str, f: Format) -> Term {
    Term::var(name, Sort::Float(f))
}
fn add(r: RoundingMode, a: &Term, b: &Term) -> Term {
    app(Op::FpAdd, vec![rm(r), a.clone(), b.clone()])
}
fn sub(r: RoundingMode, a: &Term, b: &Term) -> Term {
    app(Op::FpSub, vec![rm(r), a.clone(), b.clone()])
}
fn mul(r: RoundingMode, a: &Term, b: &Term) -> Term {
    app(Op::FpMul, vec![rm(r), a.clone(), b.clone()])
}
fn div(r: RoundingMode, a: &Term, b: &Term) -> Term {
    app(Op::FpDiv, vec![rm(r), a.clone(), b.clone()])
}
fn op2(op: Op, a: &Term, b: &Term) -> Term {
    app(op, vec![a.clone(), b.clone()])
}
fn op1(op: Op, a: &Term) -> Term {
    app(op, vec![a.clone()])
}

fn configs() -> Vec<CpConfig> {
    vec![
        CpConfig::default(),
        CpConfig::default()
            .with_split(SplitStrategy::FiveWay)
            .with_consistency(Consistency::ThreeB)
            .with_var_choice(VarChoice::MostConstrained),
        CpConfig::default()
            .with_split(SplitStrategy::Bisect)
            .with_midpoint(Midpoint::Real)
            .with_var_choice(VarChoice::Static)
            .with_ulp_max(false)
            .with_eps(0.0, 0.0),
    ]
}

fn solve_with(cfg: &CpConfig, assertions: &[Term], budget: Duration) -> SolveResult {
    let mut s = build(&SolverConfig::bare(Backend::Cp(cfg.clone())));
    s.check(&Query::new(assertions.to_vec()), &Budget::timeout(budget))
        .unwrap_or_else(|e| panic!("solver error on {assertions:?}: {e}"))
}

/// Sat with the default configuration (returning its model); the other
/// configurations must not say unsat (they may run out of a short budget).
fn sat(assertions: Vec<Term>) -> Model {
    let mut first = None;
    for (i, cfg) in configs().into_iter().enumerate() {
        let budget = Duration::from_secs(if i == 0 { 20 } else { 3 });
        match solve_with(&cfg, &assertions, budget) {
            SolveResult::Sat(m) => {
                for a in &assertions {
                    assert_eq!(eval(a, &m), Ok(Value::Bool(true)));
                }
                first.get_or_insert(m);
            }
            SolveResult::Unknown(Reason::Timeout) if i > 0 => {}
            r => panic!("expected sat with {cfg}, got {r:?} for {assertions:?}"),
        }
    }
    first.unwrap()
}

/// Unsat with the default configuration; the others must not say sat.
fn unsat(assertions: Vec<Term>) {
    for (i, cfg) in configs().into_iter().enumerate() {
        let budget = Duration::from_secs(if i == 0 { 20 } else { 3 });
        match solve_with(&cfg, &assertions, budget) {
            SolveResult::Unsat => {}
            SolveResult::Unknown(Reason::Timeout) if i > 0 => {}
            r => panic!("expected unsat with {cfg}, got {r:?} for {assertions:?}"),
        }
    }
}

fn fval(m: &Model, v: &Term) -> Float {
    m.get(v).and_then(|x| x.as_fp()).expect("float in model")
}

#[test]
fn backend_parses_and_names() {
    assert_eq!(Backend::parse("cp"), Some(Backend::Cp(CpConfig::default())));
    assert_eq!(CpSolver::new(CpConfig::default()).name(), "cp");
    assert_eq!("5way".parse::<SplitStrategy>(), Ok(SplitStrategy::FiveWay));
    assert_eq!("3b".parse::<Consistency>(), Ok(Consistency::ThreeB));
    assert_eq!("most-constrained".parse::<VarChoice>(), Ok(VarChoice::MostConstrained));
    assert_eq!("real".parse::<Midpoint>(), Ok(Midpoint::Real));
    assert!("nope".parse::<SplitStrategy>().is_err());
}

#[test]
fn simple_sat_and_unsat_binary32() {
    let f = Format::BINARY32;
    let (x, y) = (var("x", f), var("y", f));
    // x + y = 1, x > 0.75, y > 0.125
    let m = sat(vec![
        op2(Op::FpEq, &add(RNE, &x, &y), &f32c(1.0)),
        op2(Op::FpGt, &x, &f32c(0.75)),
        op2(Op::FpGt, &y, &f32c(0.125)),
    ]);
    let (xv, yv) = (fval(&m, &x).to_f32().unwrap(), fval(&m, &y).to_f32().unwrap());
    assert!(xv > 0.75 && yv > 0.125 && xv + yv == 1.0);
    // x < y and y < x
    unsat(vec![op2(Op::FpLt, &x, &y), op2(Op::FpLt, &y, &x)]);
    // x * x < 0 (x not NaN)
    unsat(vec![op2(Op::FpLt, &mul(RNE, &x, &x), &f32c(0.0))]);
    // x + 1 = x has solutions (large x, infinities)
    sat(vec![op2(Op::FpEq, &add(RNE, &x, &f32c(1.0)), &x)]);
    // a cycle of comparisons through arithmetic: x < y, y <= x + (-0.0 - 0.0 ... ) etc.
    let z = var("z", f);
    unsat(vec![
        op2(Op::FpLt, &x, &y),
        op2(Op::FpLeq, &y, &z),
        op2(Op::FpLt, &z, &x),
    ]);
    unsat(vec![
        op2(Op::FpLt, &x, &y),
        op2(Op::FpLeq, &add(RNE, &y, &op1(Op::FpAbs, &z)), &x),
    ]);
}

#[test]
fn nan_and_infinities() {
    let f = Format::BINARY32;
    let (x, y) = (var("x", f), var("y", f));
    // non-NaN operands giving NaN: inf - inf or 0 * inf
    let m = sat(vec![
        op1(Op::FpIsNaN, &add(RNE, &x, &y)),
        op1(Op::FpIsNaN, &x).not(),
        op1(Op::FpIsNaN, &y).not(),
    ]);
    assert!(fval(&m, &x).is_infinite() && fval(&m, &y).is_infinite());
    // NaN = NaN under SMT-LIB `=`, but not under fp.eq
    sat(vec![op2(Op::Eq, &x, &Term::fp(Float::nan(f))), op1(Op::FpIsNaN, &x)]);
    unsat(vec![op2(Op::FpEq, &x, &x).not(), op1(Op::FpIsNaN, &x).not()]);
    sat(vec![op2(Op::FpEq, &x, &x).not()]);
    // overflow: x * 2 = +inf with x finite
    let m = sat(vec![
        op1(Op::FpIsInfinite, &mul(RNE, &x, &f32c(2.0))),
        op1(Op::FpIsInfinite, &x).not(),
        op1(Op::FpIsNaN, &x).not(),
    ]);
    assert!(fval(&m, &x).to_f32().unwrap().abs() >= f32::MAX / 2.0);
    // toward zero never overflows to infinity from finite operands
    unsat(vec![
        op1(Op::FpIsInfinite, &mul(RoundingMode::TowardZero, &x, &f32c(2.0))),
        op1(Op::FpIsInfinite, &x).not(),
        op1(Op::FpIsNaN, &x).not(),
    ]);
}

#[test]
fn signed_zeros() {
    let f = Format::BINARY32;
    let x = var("x", f);
    let nz = Term::fp(Float::zero(f, true));
    // x + (-x) is +0 in RNE for every finite x, -0 in RTN
    unsat(vec![op2(Op::Eq, &add(RNE, &x, &op1(Op::FpNeg, &x)), &nz)]);
    sat(vec![
        op2(Op::Eq, &add(RTN, &x, &op1(Op::FpNeg, &x)), &nz),
        op1(Op::FpIsZero, &x).not(),
    ]);
    // -0 and +0 are fp.eq but not =
    let m = sat(vec![
        op2(Op::FpEq, &x, &Term::fp(Float::zero(f, false))),
        op2(Op::Eq, &x, &Term::fp(Float::zero(f, false))).not(),
    ]);
    assert_eq!(fval(&m, &x), Float::zero(f, true));
    // 1 / x = -inf forces x = -0 or a tiny negative x (overflow)
    let m = sat(vec![op2(
        Op::Eq,
        &div(RNE, &f32c(1.0), &x),
        &Term::fp(Float::infinity(f, true)),
    )]);
    let xv = fval(&m, &x).to_f32().unwrap();
    assert!(xv.is_sign_negative() && xv.abs() <= 1.0 / f32::MAX);
    let m = sat(vec![
        op2(Op::Eq, &div(RNE, &f32c(1.0), &x), &Term::fp(Float::infinity(f, true))),
        op1(Op::FpIsNegative, &x),
        op2(Op::FpGeq, &x, &Term::fp(Float::zero(f, true))),
    ]);
    assert_eq!(fval(&m, &x), Float::zero(f, true));
    // fp.min(-0, +0) = -0 in fpsym
    let y = var("y", f);
    sat(vec![
        op1(Op::FpIsZero, &x),
        op1(Op::FpIsZero, &y),
        op1(Op::FpIsNegative, &op2(Op::FpMin, &x, &y)),
    ]);
    unsat(vec![
        op1(Op::FpIsZero, &x),
        op1(Op::FpIsZero, &y),
        op1(Op::FpIsNegative, &op2(Op::FpMax, &x, &y)),
        op1(Op::FpIsPositive, &y),
    ]);
}

#[test]
fn subnormals() {
    let f = Format::BINARY32;
    let (x, y) = (var("x", f), var("y", f));
    // a subnormal product of two normals
    let m = sat(vec![
        op1(Op::FpIsSubnormal, &mul(RNE, &x, &y)),
        op1(Op::FpIsNormal, &x),
        op1(Op::FpIsNormal, &y),
    ]);
    assert!(fval(&m, &x).is_normal());
    // x * 0.5 = f_min with x > f_min: only x = 2 f_min (3 f_min * 0.5 ties to the even 2 f_min)
    let tiny = Term::fp(Float::smallest(f, false));
    let m = sat(vec![
        op2(Op::FpEq, &mul(RNE, &x, &f32c(0.5)), &tiny),
        op2(Op::FpGt, &x, &tiny),
    ]);
    assert_eq!(fval(&m, &x).to_f32().unwrap(), f32::from_bits(2));
    // the difference of two distinct floats is never zero (gradual underflow)
    unsat(vec![
        op2(Op::FpEq, &x, &y).not(),
        op1(Op::FpIsZero, &sub(RNE, &x, &y)),
        op1(Op::FpIsInfinite, &x).not(),
        op1(Op::FpIsNaN, &x).not(),
        op1(Op::FpIsNaN, &y).not(),
    ]);
}

#[test]
fn rounding_mode_dependent() {
    let f = Format::BINARY32;
    let x = var("x", f);
    let r = Term::var("r", Sort::RoundingMode);
    // 1 + 2^-24 is a tie: RNE/RTN/RTZ give 1, RNA/RTP give 1 + 2^-23
    let one = f32c(1.0);
    let e = f32c(f32::EPSILON / 2.0);
    let up = f32c(1.0 + f32::EPSILON);
    let m = sat(vec![
        op2(Op::FpEq, &app(Op::FpAdd, vec![r.clone(), one.clone(), e.clone()]), &up),
        op2(Op::Eq, &r, &rm(RoundingMode::NearestTiesToAway)).not(),
    ]);
    assert_eq!(m.get(&r), Some(Value::Rm(RTP)));
    unsat(vec![
        op2(Op::FpEq, &app(Op::FpAdd, vec![r.clone(), one.clone(), e.clone()]), &up),
        op2(Op::Eq, &r, &rm(RNE)),
    ]);
    // (x / 3) * 3 = 1 has solutions in RNE (x = 1) but none in RTP: it needs
    // RTP(x/3) in ((1 - 2^-24)/3, 1/3], an interval without a float
    let m = sat(vec![
        op2(Op::FpEq, &mul(RNE, &div(RNE, &x, &f32c(3.0)), &f32c(3.0)), &one),
        op2(Op::FpGt, &x, &f32c(0.0)),
    ]);
    let xv = fval(&m, &x);
    assert_eq!(
        xv.div(Float::from_f32(3.0), RNE)
            .value
            .mul(Float::from_f32(3.0), RNE)
            .value,
        Float::from_f32(1.0)
    );
    unsat(vec![
        op2(Op::FpEq, &mul(RTP, &div(RTP, &x, &f32c(3.0)), &f32c(3.0)), &one),
        op2(Op::FpGt, &x, &f32c(0.0)),
    ]);
}

#[test]
fn binary64_path_conditions() {
    let f = Format::BINARY64;
    let (a, b, c) = (var("a", f), var("b", f), var("c", f));
    // seed 001's polynomial: (a*a + b) + 1e-5 absorbs 1e-5 in binary32 for
    // a in [1e3, 1e4], b in [0, 1], never in binary64 (ulp(1e8) = 2^-26)
    let poly = |f: Format, a: &Term, b: &Term, c: fn(f64) -> Term| {
        let s = add(RNE, &mul(RNE, a, a), b);
        vec![
            op2(Op::FpEq, &add(RNE, &s, &c(1e-5)), &s),
            op2(Op::FpGeq, a, &c(1e3)),
            op2(Op::FpLeq, a, &c(1e4)),
            op2(Op::FpGeq, b, &c(0.0)),
            op2(Op::FpLeq, b, &c(1.0)),
        ]
        .into_iter()
        .inspect(|t| assert_eq!(t.args()[0].sort(), Sort::Float(f)))
        .collect::<Vec<_>>()
    };
    unsat(poly(f, &a, &b, f64c));
    let g = Format::BINARY32;
    let (a32, b32) = (var("a", g), var("b", g));
    let m = sat(poly(g, &a32, &b32, |v| f32c(v as f32)));
    let (av, bv) = (fval(&m, &a32).to_f32().unwrap(), fval(&m, &b32).to_f32().unwrap());
    assert!(((av * av + bv) + 1e-5f32) == av * av + bv);
    // triangle inequality-ish unsat: a > 0, b > 0, a + b < a
    unsat(vec![
        op2(Op::FpGt, &a, &f64c(0.0)),
        op2(Op::FpGt, &b, &f64c(0.0)),
        op2(Op::FpLt, &add(RNE, &a, &b), &a),
    ]);
    // fma(a, a, -1) for a = 1 + 2^-52 keeps the 2^-104 that a*a - 1 loses
    let one = f64c(1.0);
    let m = sat(vec![
        op2(
            Op::FpEq,
            &app(Op::FpFma, vec![rm(RNE), a.clone(), a.clone(), f64c(-1.0)]),
            &sub(RNE, &mul(RNE, &a, &a), &one),
        )
        .not(),
        op2(Op::FpGt, &a, &one),
        op2(Op::FpLt, &a, &f64c(1.0 + 4.0 * f64::EPSILON)),
        op2(Op::FpEq, &c, &c),
    ]);
    assert!(fval(&m, &a).to_f64().unwrap() > 1.0);
    // sqrt(a) = 3 pins a to 9 and its neighbours that round to 3
    let m = sat(vec![op2(
        Op::FpEq,
        &app(Op::FpSqrt, vec![rm(RNE), a.clone()]),
        &f64c(3.0),
    )]);
    assert_eq!(fval(&m, &a).sqrt(RNE).value, Float::from_f64(3.0));
    unsat(vec![
        op2(Op::FpEq, &app(Op::FpSqrt, vec![rm(RNE), a.clone()]), &f64c(3.0)),
        op2(Op::FpGt, &a, &f64c(9.000001)),
    ]);
}

#[test]
fn conversions_and_bitvectors() {
    let f = Format::BINARY32;
    let x = var("x", f);
    let bv = Term::var("bv", Sort::BitVec(32));
    // the bitcast of 0x3f800000 is 1.0
    let m = sat(vec![op2(
        Op::FpEq,
        &app(Op::ToFpFromBits(f), vec![bv.clone()]),
        &f32c(1.0),
    )]);
    assert_eq!(m.get(&bv).unwrap().as_bv().unwrap().bits(), 0x3f80_0000);
    // float to signed int and back
    let i = Term::var("i", Sort::BitVec(16));
    let m = sat(vec![
        op2(Op::Eq, &app(Op::FpToSbv(16), vec![rm(RNE), x.clone()]), &i),
        op2(Op::BvSlt, &i, &Term::bv(16, (-5i16) as u16 as u128)),
        op2(Op::FpGt, &x, &f32c(-7.0)),
    ]);
    let iv = BvValue::new(16, m.get(&i).unwrap().as_bv().unwrap().bits()).signed();
    assert!(iv == -6 || iv == -7, "got {iv}");
    // to_fp of a 64-bit integer loses precision: distinct integers, same float
    let (p, q) = (Term::var("p", Sort::BitVec(64)), Term::var("q", Sort::BitVec(64)));
    let tp = app(Op::ToFpFromUbv(f), vec![rm(RNE), p.clone()]);
    let tq = app(Op::ToFpFromUbv(f), vec![rm(RNE), q.clone()]);
    sat(vec![op2(Op::Eq, &p, &q).not(), op2(Op::Eq, &tp, &tq)]);
    // conversion to a narrower format
    let d = var("d", Format::BINARY64);
    let m = sat(vec![
        op2(Op::FpEq, &app(Op::ToFpFromFp(f), vec![rm(RNE), d.clone()]), &f32c(0.1)),
        op2(Op::FpEq, &d, &f64c(0.1)).not(),
    ]);
    assert_ne!(fval(&m, &d), Float::from_f64(0.1));
}

#[test]
fn booleans_and_ite() {
    let f = Format::BINARY32;
    let (x, y) = (var("x", f), var("y", f));
    let b = Term::var("b", Sort::Bool);
    let t = app(Op::Ite, vec![b.clone(), x.clone(), y.clone()]);
    let m = sat(vec![
        op2(Op::FpGt, &t, &f32c(10.0)),
        op2(Op::FpLt, &x, &f32c(0.0)),
        app(
            Op::Or,
            vec![op2(Op::FpLt, &y, &f32c(-1.0)), op2(Op::FpGt, &y, &f32c(100.0))],
        ),
    ]);
    assert_eq!(m.get(&b), Some(Value::Bool(false)));
    assert!(fval(&m, &y).to_f32().unwrap() > 100.0);
    unsat(vec![app(Op::Xor, vec![b.clone(), b.clone()])]);
    unsat(vec![
        app(
            Op::Implies,
            vec![op2(Op::FpLt, &x, &f32c(1.0)), op2(Op::FpLt, &x, &f32c(0.0))],
        ),
        op2(Op::FpEq, &x, &f32c(0.5)),
    ]);
    // distinct is identity-based: -0 and +0 are distinct values
    let m = sat(vec![
        app(Op::Distinct, vec![x.clone(), y.clone()]),
        op1(Op::FpIsZero, &x),
        op1(Op::FpIsZero, &y),
    ]);
    assert_ne!(fval(&m, &x), fval(&m, &y));
    unsat(vec![
        app(Op::Distinct, vec![x.clone(), y.clone(), f32c(0.0)]),
        op1(Op::FpIsZero, &x),
        op1(Op::FpIsZero, &y),
    ]);
}

#[test]
fn budget_and_incomplete_strategy() {
    let f = Format::BINARY64;
    let (x, y, z) = (var("x", f), var("y", f), var("z", f));
    // a hard one: x*y*z = 1e-300 * (x + y + z) with ordering constraints
    let hard = vec![
        op2(
            Op::FpEq,
            &mul(RNE, &mul(RNE, &x, &y), &z),
            &mul(RNE, &f64c(1e-300), &add(RNE, &add(RNE, &x, &y), &z)),
        ),
        op2(Op::FpLt, &x, &y),
        op2(Op::FpLt, &y, &z),
        op2(Op::FpGt, &x, &f64c(1.0)),
    ];
    let t0 = Instant::now();
    let r = solve_with(&CpConfig::default(), &hard, Duration::from_millis(300));
    assert!(
        t0.elapsed() < Duration::from_secs(3),
        "budget not honoured: {:?}",
        t0.elapsed()
    );
    println!("hard query: {} in {:?}", r.label(), t0.elapsed());
    // x + 1 = x for |x| < 2^24 is unsat (1 is never absorbed there): the
    // order check sees x < x + 1 = x at the root
    let g = Format::BINARY32;
    let v = var("v", g);
    unsat(vec![
        op2(Op::FpEq, &add(RNE, &v, &f32c(1.0)), &v),
        op2(Op::FpLt, &op1(Op::FpAbs, &v), &f32c(16777216.0)),
    ]);
    // the same with 2^24 allowed is sat (2^24 + 1 rounds to 2^24)
    sat(vec![
        op2(Op::FpEq, &add(RNE, &v, &f32c(1.0)), &v),
        op2(Op::FpLeq, &op1(Op::FpAbs, &v), &f32c(16777216.0)),
    ]);
    // an interval-hard unsat query stops at the budget
    let w = var("w", g);
    let t0 = Instant::now();
    let r = solve_with(
        &CpConfig::default(),
        &[op2(Op::FpEq, &mul(RNE, &v, &v), &f32c(2.0)), op2(Op::FpEq, &w, &w)],
        Duration::from_millis(500),
    );
    assert!(t0.elapsed() < Duration::from_secs(3));
    assert!(
        matches!(r, SolveResult::Unsat | SolveResult::Unknown(Reason::Timeout)),
        "x*x = 2 has no binary32 solution, got {r:?}"
    );
    // the 3-point strategy never claims unsat
    let f = Format::new(3, 3).unwrap();
    let (a, b) = (var("a", f), var("b", f));
    let q = vec![op2(Op::FpLt, &a, &b), op2(Op::FpLt, &b, &a)];
    let r = solve_with(
        &CpConfig::default()
            .with_split(SplitStrategy::ThreePoint)
            .with_eps(0.5, 0.5),
        &q,
        Duration::from_secs(10),
    );
    assert!(
        matches!(r, SolveResult::Unsat | SolveResult::Unknown(Reason::Incomplete(_))),
        "got {r:?}"
    );
    let q = vec![
        op2(Op::FpGt, &a, &Term::fp(Float::one(f, false))),
        op2(Op::FpLt, &a, &Term::fp(Float::pow2(f, 2).unwrap())),
        op2(Op::FpEq, &a, &Term::fp(Float::from_fields(f, false, 4, 1))).not(),
        op2(Op::FpEq, &a, &Term::fp(Float::from_fields(f, false, 4, 3))).not(),
    ];
    let r = solve_with(
        &CpConfig::default().with_split(SplitStrategy::ThreePoint),
        &q,
        Duration::from_secs(10),
    );
    assert!(
        matches!(r, SolveResult::Sat(_) | SolveResult::Unknown(Reason::Incomplete(_))),
        "got {r:?}"
    );
}

#[test]
fn statistics_are_reported() {
    let f = Format::BINARY32;
    let (x, y) = (var("x", f), var("y", f));
    let mut s = CpSolver::new(CpConfig::default());
    let q = Query::new(vec![
        op2(Op::FpEq, &add(RNE, &x, &y), &f32c(1.5)),
        op2(Op::FpGt, &x, &f32c(1e6)),
    ]);
    let r = s.check(&q, &Budget::unlimited()).unwrap();
    assert!(matches!(r, SolveResult::Sat(_)));
    let st = s.stats();
    for k in [
        "cp.constraints",
        "cp.variables",
        "cp.propagations",
        "cp.ulp_max_firings",
        "cp.ulp_max_pruned",
        "cp.nodes",
        "cp.backtracks",
        "cp.time",
    ] {
        assert!(st.contains_key(k), "missing {k}");
    }
    assert!(st["cp.constraints"] >= 3.0 && st["cp.propagations"] > 0.0 && st["cp.nodes"] >= 1.0);
    assert!(
        st["cp.ulp_max_firings"] > 0.0,
        "x + y = 1.5 with x > 1e6 needs ULP-Max: {st:?}"
    );
}

// ---- differential test against brute force on (3,3) ----

struct Gen<'a> {
    rng: &'a mut StdRng,
    fmt: Format,
    vars: Vec<Term>,
}

impl Gen<'_> {
    fn float_const(&mut self) -> Term {
        let f = self.fmt;
        let max = Float::infinity(f, false).ordinal().unwrap();
        Term::fp(match self.rng.gen_range(0..8) {
            0 => Float::zero(f, self.rng.gen()),
            1 => Float::infinity(f, self.rng.gen()),
            2 => Float::nan(f),
            3 => Float::one(f, self.rng.gen()),
            _ => Float::from_ordinal(f, self.rng.gen_range(-max - 1..=max)).unwrap(),
        })
    }
    fn rm(&mut self) -> Term {
        if self.rng.gen_bool(0.15) {
            Term::var("r", Sort::RoundingMode)
        } else {
            rm(RoundingMode::ALL[self.rng.gen_range(0..5)])
        }
    }
    fn float(&mut self, depth: u32) -> Term {
        if depth == 0 || self.rng.gen_bool(0.3) {
            return if self.rng.gen_bool(0.75) {
                self.vars[self.rng.gen_range(0..self.vars.len())].clone()
            } else {
                self.float_const()
            };
        }
        let d = depth - 1;
        match self.rng.gen_range(0..14) {
            0 | 1 => app(Op::FpAdd, vec![self.rm(), self.float(d), self.float(d)]),
            2 => app(Op::FpSub, vec![self.rm(), self.float(d), self.float(d)]),
            3 | 4 => app(Op::FpMul, vec![self.rm(), self.float(d), self.float(d)]),
            5 => app(Op::FpDiv, vec![self.rm(), self.float(d), self.float(d)]),
            6 => app(Op::FpFma, vec![self.rm(), self.float(d), self.float(d), self.float(d)]),
            7 => app(Op::FpSqrt, vec![self.rm(), self.float(d)]),
            8 => app(Op::FpRoundToIntegral, vec![self.rm(), self.float(d)]),
            9 => op2(Op::FpRem, &self.float(d), &self.float(d)),
            10 => op2(
                if self.rng.gen() { Op::FpMin } else { Op::FpMax },
                &self.float(d),
                &self.float(d),
            ),
            11 => op1(if self.rng.gen() { Op::FpAbs } else { Op::FpNeg }, &self.float(d)),
            12 => {
                let c = self.atom(d);
                app(Op::Ite, vec![c, self.float(d), self.float(d)])
            }
            _ => {
                let g = Format::new(2, 4).unwrap();
                let inner = app(Op::ToFpFromFp(g), vec![self.rm(), self.float(d)]);
                app(Op::ToFpFromFp(self.fmt), vec![self.rm(), inner])
            }
        }
    }
    fn atom(&mut self, depth: u32) -> Term {
        let (a, b) = (self.float(depth), self.float(depth));
        let ops = [Op::FpLeq, Op::FpLt, Op::FpGeq, Op::FpGt, Op::FpEq, Op::Eq];
        match self.rng.gen_range(0..9) {
            0..=5 => op2(ops[self.rng.gen_range(0..ops.len())].clone(), &a, &b),
            _ => {
                let ops = Op::FP_CLASSIFICATIONS;
                op1(ops[self.rng.gen_range(0..ops.len())].clone(), &a)
            }
        }
    }
    fn formula(&mut self) -> Term {
        let a = self.atom(2);
        match self.rng.gen_range(0..6) {
            0 => a.not(),
            1 => app(Op::Or, vec![a, self.atom(1)]),
            2 => app(Op::And, vec![a, self.atom(1).not()]),
            _ => a,
        }
    }
}

/// Every float of a format, NaN included.
fn all_floats(f: Format) -> Vec<Float> {
    let max = Float::infinity(f, false).ordinal().unwrap();
    let mut v: Vec<Float> = (-max - 1..=max).map(|o| Float::from_ordinal(f, o).unwrap()).collect();
    v.push(Float::nan(f));
    v
}

/// Every assignment of `vars` (two floats of format `f`, and the rounding
/// mode `r` when `mentions` name it) under which `q` holds.
fn brute_force_models(q: &[Term], mentions: &[&Term], vars: &[Term], f: Format) -> Vec<Model> {
    let fs = all_floats(f);
    let has_r = mentions
        .iter()
        .any(|a| a.vars().iter().any(|v| v.var_name() == Some("r")));
    let rms: Vec<Option<RoundingMode>> = if has_r {
        RoundingMode::ALL.iter().map(|&m| Some(m)).collect()
    } else {
        vec![None]
    };
    let mut out = Vec::new();
    for r in &rms {
        for &a in &fs {
            for &b in &fs {
                let mut m = Model::new();
                m.insert(vars[0].clone(), Value::Fp(a));
                m.insert(vars[1].clone(), Value::Fp(b));
                if let Some(r) = r {
                    m.insert(Term::var("r", Sort::RoundingMode), Value::Rm(*r));
                }
                if q.iter().all(|t| eval(t, &m) == Ok(Value::Bool(true))) {
                    out.push(m);
                }
            }
        }
    }
    out
}

fn brute_force_sat(q: &[Term], vars: &[Term], f: Format) -> bool {
    !brute_force_models(q, &q.iter().collect::<Vec<_>>(), vars, f).is_empty()
}

#[test]
fn differential_against_brute_force_3_3() {
    let f = Format::new(3, 3).unwrap();
    let vars = vec![var("x", f), var("y", f)];
    let mut rng = StdRng::seed_from_u64(2024);
    let cfgs = configs();
    let (mut n_sat, mut n_unsat) = (0, 0);
    let t0 = Instant::now();
    for i in 0..150 {
        let mut g = Gen {
            rng: &mut rng,
            fmt: f,
            vars: vars.clone(),
        };
        let n = g.rng.gen_range(1..=3);
        let q: Vec<Term> = (0..n).map(|_| g.formula()).collect();
        let truth = brute_force_sat(&q, &vars, f);
        if truth {
            n_sat += 1;
        } else {
            n_unsat += 1;
        }
        let cfg = &cfgs[i % cfgs.len()];
        match solve_with(cfg, &q, Duration::from_secs(30)) {
            SolveResult::Sat(m) => {
                assert!(truth, "cp ({cfg}) says sat, brute force says unsat: {q:?}");
                for a in &q {
                    assert_eq!(eval(a, &m), Ok(Value::Bool(true)));
                }
            }
            SolveResult::Unsat => assert!(!truth, "cp ({cfg}) says unsat, brute force found a model: {q:?}"),
            SolveResult::Unknown(r) => panic!("cp ({cfg}) gave unknown ({r}) on {q:?}"),
        }
    }
    println!("differential (3,3): {n_sat} sat, {n_unsat} unsat, {:?}", t0.elapsed());
}

#[test]
fn wide_formats() {
    for f in [Format::BINARY128, Format::X86_FP80.smtlib(), Format::BINARY16] {
        let (x, y) = (var("x", f), var("y", f));
        let one = Term::fp(Float::one(f, false));
        let half = Term::fp(Float::pow2(f, -1).unwrap());
        let m = sat(vec![
            op2(Op::FpEq, &add(RNE, &x, &y), &one),
            op2(Op::FpGt, &x, &half),
            op2(Op::FpGt, &y, &Term::fp(Float::pow2(f, -3).unwrap())),
        ]);
        assert!(fval(&m, &x).ordinal() > Float::pow2(f, -1).unwrap().ordinal());
        unsat(vec![op2(Op::FpLt, &x, &y), op2(Op::FpLt, &y, &x)]);
        let m = sat(vec![
            op1(Op::FpIsSubnormal, &mul(RNE, &x, &y)),
            op1(Op::FpIsNormal, &x),
            op1(Op::FpIsNormal, &y),
        ]);
        assert!(fval(&m, &x).is_normal());
        sat(vec![
            op1(Op::FpIsNaN, &x).not(),
            op1(Op::FpIsInfinite, &div(RTP, &x, &y)),
        ]);
    }
    // 3-point and 5-way searches and 3B on binary128 full domains
    let f = Format::BINARY128;
    let x = var("x", f);
    for cfg in [
        CpConfig::default().with_split(SplitStrategy::ThreePoint),
        CpConfig::default()
            .with_split(SplitStrategy::FiveWay)
            .with_consistency(Consistency::ThreeB),
    ] {
        let r = solve_with(
            &cfg,
            &[
                op1(Op::FpIsNormal, &x),
                op2(Op::FpLt, &x, &Term::fp(Float::one(f, true))),
            ],
            Duration::from_secs(10),
        );
        assert!(matches!(r, SolveResult::Sat(_)), "{cfg}: {r:?}");
    }
}

#[test]
fn unconstrained_inputs_get_values_without_search() {
    let f = Format::BINARY64;
    let (x, y) = (var("x", f), var("y", f));
    // y occurs only in an assertion that folds away
    let q = Query::new(vec![
        op2(Op::FpGt, &x, &f64c(1.0)),
        app(Op::Or, vec![Term::bool(true), op2(Op::FpEq, &y, &y)]),
    ]);
    let mut s = CpSolver::new(CpConfig::default().with_split(SplitStrategy::Bisect));
    let r = s.check(&q, &Budget::unlimited()).unwrap();
    let SolveResult::Sat(m) = r else { panic!("{r:?}") };
    assert!(m.get(&y).is_some());
    assert!(s.statistics().nodes < 200, "{:?}", s.statistics());
}

/// The global order check (edges from comparisons and from `x ± y` with the
/// sign and size of `y` known) against brute force on (3,3): interval
/// constraints on x and y, then comparisons between `x op y` and x or y.
#[test]
fn order_check_against_brute_force() {
    let f = Format::new(3, 3).unwrap();
    let vars = vec![var("x", f), var("y", f)];
    let mut rng = StdRng::seed_from_u64(99);
    let max = Float::infinity(f, false).ordinal().unwrap();
    let mut decided = 0;
    for i in 0..200 {
        let c = |rng: &mut StdRng| Term::fp(Float::from_ordinal(f, rng.gen_range(-max - 1..=max)).unwrap());
        let r = RoundingMode::ALL[rng.gen_range(0..5)];
        let (x, y) = (&vars[0], &vars[1]);
        let s = if rng.gen() { add(r, x, y) } else { sub(r, x, y) };
        let cmps = [Op::FpLt, Op::FpLeq, Op::FpGt, Op::FpGeq, Op::FpEq];
        let other = if rng.gen() { x.clone() } else { y.clone() };
        let mut q = vec![
            op2(Op::FpLeq, &c(&mut rng), x),
            op2(Op::FpLeq, x, &c(&mut rng)),
            op2(Op::FpLeq, &c(&mut rng), y),
            op2(Op::FpLeq, y, &c(&mut rng)),
        ];
        let atom = op2(cmps[rng.gen_range(0..cmps.len())].clone(), &s, &other);
        q.push(if rng.gen_bool(0.3) { atom.not() } else { atom });
        if rng.gen_bool(0.3) {
            q.push(op2(cmps[rng.gen_range(0..cmps.len())].clone(), &other, &s));
        }
        let truth = brute_force_sat(&q, &vars, f);
        let cfg = &configs()[i % 3];
        match solve_with(cfg, &q, Duration::from_secs(10)) {
            SolveResult::Sat(_) => assert!(truth, "cp sat, brute force unsat: {q:?}"),
            SolveResult::Unsat => assert!(!truth, "cp unsat, brute force sat: {q:?}"),
            r => panic!("{r:?} on {q:?}"),
        }
        decided += 1;
    }
    assert_eq!(decided, 200);
}

/// Regression (found by tests/crosscheck.rs): under directed rounding a sum
/// beyond the largest finite value saturates, so x = x + x holds for
/// x = -max rounding upward (and +max rounding downward or toward zero).
/// The order check used to treat x + (negative) as strictly below x.
#[test]
fn directed_rounding_saturation_is_not_strict_decrease() {
    let x = var("x", Format::BINARY32);
    let normal = op1(Op::FpIsNormal, &x);
    for (r, expect) in [
        (RoundingMode::TowardPositive, Some(-f32::MAX)),
        (RoundingMode::TowardNegative, Some(f32::MAX)),
        (RoundingMode::TowardZero, None),
    ] {
        let m = sat(vec![x.eq(&add(r, &x, &x)), normal.clone()]);
        let v = fval(&m, &x).to_f32().unwrap();
        match expect {
            Some(e) => assert_eq!(v, e, "{r:?}"),
            None => assert_eq!(v.abs(), f32::MAX, "{r:?}"),
        }
    }
    unsat(vec![x.eq(&add(RoundingMode::NearestTiesToEven, &x, &x)), normal]);
}

/// `cp::enclose` against brute force on (3,3): every value a random term
/// takes under the models of random assertions lies in the enclosure
/// (NaN included), and "empty" only when there is no model.
#[test]
fn enclosures_contain_every_value_brute_force_3_3() {
    use fpsym_solver::cp::{enclose, Domain, Enclosure};
    let f = Format::new(3, 3).unwrap();
    let vars = vec![var("x", f), var("y", f)];
    let mut rng = StdRng::seed_from_u64(13);
    let cfgs = configs();
    let (mut with_values, mut empty) = (0, 0);
    for i in 0..200 {
        let mut g = Gen {
            rng: &mut rng,
            fmt: f,
            vars: vars.clone(),
        };
        let n = g.rng.gen_range(0..=2);
        let q: Vec<Term> = (0..n).map(|_| g.formula()).collect();
        let t = g.float(3);
        let cfg = &cfgs[i % cfgs.len()];
        let e = enclose(
            &Query::new(q.clone()),
            &t,
            cfg,
            &Budget::timeout(Duration::from_secs(30)),
        );
        let mentions: Vec<&Term> = q.iter().chain([&t]).collect();
        let values: Vec<Value> = brute_force_models(&q, &mentions, &vars, f)
            .iter()
            .map(|m| eval(&t, m).unwrap())
            .collect();
        match e {
            Enclosure::Empty => {
                empty += 1;
                assert!(values.is_empty(), "({cfg}) empty, but {values:?}: {q:?} {t:?}");
            }
            Enclosure::Within { domain, fixpoint } => {
                assert!(fixpoint, "({cfg}) no fixpoint on (3,3)");
                assert!(matches!(domain, Domain::Fp(_)), "{domain:?}");
                for v in &values {
                    assert!(domain.contains(v), "({cfg}) {v:?} outside {domain:?}: {q:?} {t:?}");
                }
                if !values.is_empty() {
                    with_values += 1;
                }
            }
        }
    }
    println!("enclosures (3,3): {with_values} with values, {empty} empty");
}
