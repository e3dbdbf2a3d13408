//! The Z3 backend against known answers, and against fpsym's own float
//! semantics on random ground terms (a disagreement is a bug on one side).
//!
//! Every query goes through `fpsym_solver::build`, so every `sat` model is
//! re-validated by `fpsym_expr::eval`.

use fpsym_expr::{BvValue, Float, Format, Model, Op, RoundingMode, Sort, Term, Value};
use fpsym_solver::z3::Z3Solver;
use fpsym_solver::{build, Backend, Budget, Query, Reason, SolveResult, Solver, SolverConfig};
use std::time::{Duration, Instant};

const RNE: RoundingMode = RoundingMode::NearestTiesToEven;
const RTZ: RoundingMode = RoundingMode::TowardZero;

fn app(op: Op, args: Vec<Term>) -> Term {
    Term::app(op, args).expect("well-sorted test term")
}
fn rm(r: RoundingMode) -> Term {
    Term::rm(r)
}
fn not(t: Term) -> Term {
    t.not()
}
fn fp32(x: f32) -> Term {
    Term::fp(Float::from_f32(x))
}
fn fpv(name: &str, f: Format) -> Term {
    Term::var(name, Sort::Float(f))
}
fn distinct(a: &Term, b: &Term) -> Term {
    app(Op::Distinct, vec![a.clone(), b.clone()])
}

fn check(assertions: Vec<Term>) -> SolveResult {
    let mut s = build(&SolverConfig::bare(Backend::Z3));
    s.check(&Query::new(assertions.clone()), &Budget::unlimited())
        .unwrap_or_else(|e| panic!("solver error on {assertions:?}: {e}"))
}

fn sat(assertions: Vec<Term>) -> Model {
    match check(assertions.clone()) {
        SolveResult::Sat(m) => m,
        r => panic!("expected sat, got {r:?} for {assertions:?}"),
    }
}

fn unsat(assertions: Vec<Term>) {
    let r = check(assertions.clone());
    assert_eq!(r, SolveResult::Unsat, "expected unsat for {assertions:?}");
}

fn fval(m: &Model, v: &Term) -> Float {
    m.get(v).and_then(|x| x.as_fp()).expect("float in model")
}

#[test]
fn z3_solver_is_send_and_named() {
    fn send<T: Send>() {}
    send::<Z3Solver>();
    assert_eq!(Z3Solver::new().name(), "z3");
    assert_eq!(build(&SolverConfig::bare(Backend::Z3)).name(), "z3");
}

#[test]
fn bv_sat_with_model_and_unsat() {
    let x = Term::var("x", Sort::BitVec(32));
    let m = sat(vec![
        app(Op::BvAdd, vec![x.clone(), Term::bv(32, 3)]).eq(&Term::bv(32, 10))
    ]);
    assert_eq!(m.get(&x), Some(Value::Bv(BvValue::new(32, 7))));
    unsat(vec![app(Op::BvUlt, vec![x.clone(), Term::bv(32, 0)])]);
    // Wide bit-vectors come back exactly (no u64 round trip).
    let y = Term::var("y", Sort::BitVec(128));
    let big: u128 = 0xfedc_ba98_7654_3210_0123_4567_89ab_cdef;
    let m = sat(vec![y.eq(&Term::bv(128, big))]);
    assert_eq!(m.get(&y), Some(Value::Bv(BvValue::new(128, big))));
    // No assertions: sat with an empty model.
    assert!(sat(vec![]).is_empty());
}

#[test]
fn bool_and_rounding_mode_variables() {
    let p = Term::var("p", Sort::Bool);
    let q = Term::var("q", Sort::Bool);
    let m = sat(vec![
        app(Op::Xor, vec![p.clone(), q.clone(), Term::bool(true)]),
        p.clone(),
    ]);
    assert_eq!(m.get(&p), Some(Value::Bool(true)));
    assert_eq!(m.get(&q), Some(Value::Bool(true)));
    // Which modes round 1 + 2^-24 (a tie in binary32) away from 1? RNA and RTP.
    let r = Term::var("r", Sort::RoundingMode);
    let sum = app(Op::FpAdd, vec![r.clone(), fp32(1.0), fp32(2f32.powi(-24))]);
    let m = sat(vec![distinct(&sum, &fp32(1.0))]);
    let got = m.get(&r).and_then(|v| v.as_rm()).unwrap();
    assert!(
        matches!(got, RoundingMode::NearestTiesToAway | RoundingMode::TowardPositive),
        "{got:?}"
    );
    let m = sat(vec![
        distinct(&sum, &fp32(1.0)),
        not(r.eq(&rm(RoundingMode::TowardPositive))),
    ]);
    assert_eq!(m.get(&r), Some(Value::Rm(RoundingMode::NearestTiesToAway)));
    unsat(vec![
        distinct(&sum, &fp32(1.0)),
        not(r.eq(&rm(RoundingMode::TowardPositive))),
        not(r.eq(&rm(RoundingMode::NearestTiesToAway))),
    ]);
}

#[test]
fn nan_semantics() {
    let f = Format::BINARY32;
    let x = fpv("x", f);
    // x != x under fp.eq: only NaN.
    let m = sat(vec![not(app(Op::FpEq, vec![x.clone(), x.clone()]))]);
    assert!(fval(&m, &x).is_nan());
    unsat(vec![
        not(app(Op::FpEq, vec![x.clone(), x.clone()])),
        not(app(Op::FpIsNaN, vec![x.clone()])),
    ]);
    // SMT-LIB `=` is reflexive, NaN included.
    unsat(vec![not(x.eq(&x))]);
    let nan = Term::fp(Float::nan(f));
    unsat(vec![not(nan.eq(&nan))]);
    unsat(vec![app(Op::FpEq, vec![nan.clone(), nan.clone()])]);
    // 0/0 is the NaN.
    let q = app(Op::FpDiv, vec![rm(RNE), x.clone(), x.clone()]);
    let m = sat(vec![q.eq(&nan), not(app(Op::FpIsNaN, vec![x.clone()]))]);
    let v = fval(&m, &x);
    assert!(v.is_zero() || v.is_infinite(), "{v:?}");
}

#[test]
fn signed_zero() {
    let x = fpv("x", Format::BINARY64);
    let zero = Term::fp(Float::zero(Format::BINARY64, false));
    let m = sat(vec![
        app(Op::FpEq, vec![x.clone(), zero.clone()]),
        app(Op::FpIsNegative, vec![x.clone()]),
    ]);
    assert_eq!(fval(&m, &x), Float::zero(Format::BINARY64, true));
    // -0 and +0 are fp.eq but not =.
    unsat(vec![x.eq(&zero), app(Op::FpIsNegative, vec![x.clone()])]);
    // +0 + -0 is +0 in RNE, -0 in RTN.
    let nz = Term::fp(Float::zero(Format::BINARY64, true));
    let s = |r| app(Op::FpAdd, vec![rm(r), zero.clone(), nz.clone()]);
    unsat(vec![distinct(&s(RNE), &zero)]);
    unsat(vec![distinct(&s(RoundingMode::TowardNegative), &nz)]);
}

#[test]
fn subnormals() {
    let f = Format::BINARY32;
    let x = fpv("x", f);
    let c = Float::from_fields(f, false, 0, 0x12345);
    let c2 = c.succ().unwrap().succ().unwrap();
    let m = sat(vec![
        app(Op::FpIsSubnormal, vec![x.clone()]),
        app(Op::FpGt, vec![x.clone(), Term::fp(c)]),
        app(Op::FpLt, vec![x.clone(), Term::fp(c2)]),
    ]);
    assert_eq!(fval(&m, &x), c.succ().unwrap());
    // The smallest subnormal halved rounds to 0 (RNE, tie to even) and to itself (RTP).
    let tiny = Term::fp(Float::smallest(f, false));
    let half = fp32(0.5);
    let p = |r| app(Op::FpMul, vec![rm(r), tiny.clone(), half.clone()]);
    unsat(vec![distinct(&p(RNE), &Term::fp(Float::zero(f, false)))]);
    unsat(vec![distinct(&p(RoundingMode::TowardPositive), &tiny)]);
    // Negative subnormal, exact decode through Z3's model.
    let neg = Float::from_fields(f, true, 0, 0x7fffff);
    let m = sat(vec![x.eq(&Term::fp(neg))]);
    assert_eq!(fval(&m, &x), neg);
    // Every class in every test format decodes exactly.
    for fmt in [
        Format::new(3, 3).unwrap(),
        Format::BINARY16,
        Format::BINARY64,
        Format::X86_FP80.smtlib(),
        Format::BINARY128,
    ] {
        let y = fpv("y", fmt);
        for v in [
            Float::smallest(fmt, false),
            Float::smallest(fmt, true),
            Float::largest(fmt, true),
            Float::smallest_normal(fmt, false),
            Float::from_fields(fmt, true, 0, fmt_frac_mask(fmt)),
            Float::infinity(fmt, true),
            Float::zero(fmt, true),
            Float::nan(fmt),
            Float::one(fmt, false).next_up(),
        ] {
            let m = sat(vec![y.eq(&Term::fp(v))]);
            assert_eq!(fval(&m, &y), v, "format {fmt}");
        }
    }
}

fn fmt_frac_mask(f: Format) -> u128 {
    (1u128 << f.frac_bits()) - 1
}

#[test]
fn rounding_mode_dependent() {
    let f = Format::BINARY32;
    let (x, y) = (fpv("x", f), fpv("y", f));
    let add = |r, a: &Term, b: &Term| app(Op::FpAdd, vec![rm(r), a.clone(), b.clone()]);
    let m = sat(vec![distinct(&add(RNE, &x, &y), &add(RTZ, &x, &y))]);
    let (a, b) = (fval(&m, &x), fval(&m, &y));
    assert_ne!(a.add(b, RNE).value, a.add(b, RTZ).value);
    // 1 + 2^-24 is a tie: RNE rounds to even (1), RTZ truncates (1).
    let one = fp32(1.0);
    let t = fp32(2f32.powi(-24));
    unsat(vec![distinct(&add(RNE, &one, &t), &add(RTZ, &one, &t))]);
    // 1 + 3*2^-25 rounds up under RNE, down under RTZ.
    let t3 = fp32(3.0 * 2f32.powi(-25));
    sat(vec![distinct(&add(RNE, &one, &t3), &add(RTZ, &one, &t3))]);
    unsat(vec![add(RNE, &one, &t3).eq(&add(RTZ, &one, &t3))]);
}

#[test]
fn x86_fp80_arithmetic() {
    let f = Format::X86_FP80.smtlib(); // (15, 64)
    let one = Term::fp(Float::one(f, false));
    let p = |k| Term::fp(Float::pow2(f, k).unwrap());
    let add = |a: &Term, b: &Term| app(Op::FpAdd, vec![rm(RNE), a.clone(), b.clone()]);
    // 1 + 2^-63 is representable with a 64-bit significand (not in binary64).
    unsat(vec![add(&one, &p(-63)).eq(&one)]);
    // 1 + 2^-64 is a tie and rounds to even.
    unsat(vec![distinct(&add(&one, &p(-64)), &one)]);
    // Find x > 0 with 1 + x = 1 + 2^-63: validated model.
    let x = fpv("x", f);
    let m = sat(vec![
        add(&one, &x).eq(&add(&one, &p(-63))),
        app(Op::FpGt, vec![x.clone(), p(-62)]).not(),
    ]);
    let v = fval(&m, &x);
    assert_eq!(
        Float::one(f, false).add(v, RNE).value,
        Float::one(f, false).add(Float::pow2(f, -63).unwrap(), RNE).value
    );
    // Products in (15, 64): find x with x * 3 = 10 (validated), and check
    // 3 * fl(0.1) against fpsym with pinned operands.
    let int = |n: i64| Term::fp(Float::from_bigint(f, &n.into(), RNE).value);
    let mul = |a: &Term, b: &Term| app(Op::FpMul, vec![rm(RNE), a.clone(), b.clone()]);
    sat(vec![mul(&x, &int(3)).eq(&int(10))]);
    let tenth = Float::from_bigint(f, &1.into(), RNE)
        .value
        .div(Float::from_bigint(f, &10.into(), RNE).value, RNE)
        .value;
    let expect = Float::from_bigint(f, &3.into(), RNE).value.mul(tenth, RNE).value;
    let y = fpv("y", f);
    let pins = |extra: Term| {
        vec![
            app(Op::FpEq, vec![x.clone(), int(3)]),
            app(Op::FpEq, vec![y.clone(), Term::fp(tenth)]),
            extra,
        ]
    };
    unsat(pins(distinct(&mul(&x, &y), &Term::fp(expect))));
    sat(pins(mul(&x, &y).eq(&Term::fp(expect))));
}

#[test]
fn binary16() {
    let f = Format::BINARY16;
    let h = |bits: u128| Term::fp(Float::from_packed(f, bits));
    let max = h(0x7bff); // 65504
    let sixteen = h(0x4c00);
    let add = |r, a: &Term, b: &Term| app(Op::FpAdd, vec![rm(r), a.clone(), b.clone()]);
    // 65504 + 16 is a tie between 65504 (odd significand) and 65536: RNE overflows.
    unsat(vec![distinct(
        &add(RNE, &max, &sixteen),
        &Term::fp(Float::infinity(f, false)),
    )]);
    unsat(vec![distinct(&add(RTZ, &max, &sixteen), &max)]);
    // The least finite x with x + x = +inf is 32768.
    let x = fpv("x", f);
    let inf = Term::fp(Float::infinity(f, false));
    let m = sat(vec![
        add(RNE, &x, &x).eq(&inf),
        not(app(Op::FpIsInfinite, vec![x.clone()])),
        app(Op::FpLeq, vec![x.clone(), h(0x7800)]),
    ]);
    assert_eq!(fval(&m, &x), Float::from_packed(f, 0x7800));
}

#[test]
fn to_sbv_and_to_ubv_unspecified_cases_agree_with_fpsym() {
    let f = Format::BINARY32;
    let x = fpv("x", f);
    let sbv = |r, w| app(Op::FpToSbv(w), vec![rm(r), x.clone()]);
    let ubv = |r, w| app(Op::FpToUbv(w), vec![rm(r), x.clone()]);
    let min32 = Term::bv(32, 0x8000_0000);
    let isnan = app(Op::FpIsNaN, vec![x.clone()]);
    let isinf = app(Op::FpIsInfinite, vec![x.clone()]);
    // NaN and infinities: 100...0 signed, 0 unsigned.
    unsat(vec![isnan.clone(), distinct(&sbv(RNE, 32), &min32)]);
    unsat(vec![isinf.clone(), distinct(&sbv(RTZ, 32), &min32)]);
    unsat(vec![isnan.clone(), distinct(&ubv(RNE, 16), &Term::bv(16, 0))]);
    unsat(vec![isinf.clone(), distinct(&ubv(RNE, 16), &Term::bv(16, 0))]);
    // Out of range after rounding.
    let big = fp32(3e9);
    unsat(vec![x.eq(&big), distinct(&sbv(RNE, 32), &min32)]);
    unsat(vec![x.eq(&fp32(-1.0)), distinct(&ubv(RNE, 8), &Term::bv(8, 0))]);
    // 127.5 rounds to 128 under RNE (out of 8-bit range) and 127 under RTZ.
    unsat(vec![x.eq(&fp32(127.5)), distinct(&sbv(RNE, 8), &Term::bv(8, 0x80))]);
    unsat(vec![x.eq(&fp32(127.5)), distinct(&sbv(RTZ, 8), &Term::bv(8, 127))]);
    // -0.5 rounds to -0 under RTZ: in range, 0.
    unsat(vec![x.eq(&fp32(-0.5)), distinct(&ubv(RTZ, 8), &Term::bv(8, 0))]);
    // -128.4 is in range for 8 bits (RNE -> -128).
    unsat(vec![x.eq(&fp32(-128.4)), distinct(&sbv(RNE, 8), &Term::bv(8, 0x80))]);
    // Symbolic: no finite x in range maps to a value other than Z3's conversion;
    // an x out of range exists and is validated by fpsym.
    let m = sat(vec![
        sbv(RNE, 32).eq(&min32),
        not(isnan.clone()),
        not(isinf.clone()),
        app(Op::FpGt, vec![x.clone(), fp32(0.0)]),
    ]);
    assert!(fval(&m, &x).to_f32().unwrap() >= 2147483648.0);
    let m = sat(vec![
        ubv(RNE, 8).eq(&Term::bv(8, 0)),
        app(Op::FpLt, vec![x.clone(), fp32(-2.0)]),
    ]);
    assert!(fval(&m, &x).to_f32().unwrap() < -2.0);
    // In (3, 5) the largest finite value, 15.5, is not an integer: RNA rounds
    // it to 16, which fp.roundToIntegral cannot represent (+inf) but an
    // integer conversion can.
    let f35 = Format::new(3, 5).unwrap();
    let y = fpv("y35", f35);
    let max = |neg| Term::fp(Float::largest(f35, neg));
    let conv = |op: Op, r| app(op, vec![rm(r), y.clone()]);
    let rna = RoundingMode::NearestTiesToAway;
    unsat(vec![
        app(Op::FpEq, vec![y.clone(), max(false)]),
        distinct(&conv(Op::FpToSbv(7), rna), &Term::bv(7, 16)),
    ]);
    unsat(vec![
        app(Op::FpEq, vec![y.clone(), max(false)]),
        distinct(&conv(Op::FpToUbv(5), rna), &Term::bv(5, 16)),
    ]);
    unsat(vec![
        app(Op::FpEq, vec![y.clone(), max(false)]),
        distinct(&conv(Op::FpToUbv(4), rna), &Term::bv(4, 0)),
    ]);
    unsat(vec![
        app(Op::FpEq, vec![y.clone(), max(true)]),
        distinct(&conv(Op::FpToSbv(6), rna), &Term::bv(6, 0b110000)),
    ]);
    unsat(vec![
        app(Op::FpEq, vec![y.clone(), max(false)]),
        distinct(&conv(Op::FpToSbv(7), RTZ), &Term::bv(7, 15)),
    ]);
    // Wide targets: 64 and 128 bits.
    let d = fpv("d", Format::BINARY64);
    let to = |w| app(Op::FpToSbv(w), vec![rm(RNE), d.clone()]);
    unsat(vec![
        d.eq(&Term::fp(Float::from_f64(-9.3e18))),
        distinct(&to(64), &Term::bv(64, 1 << 63)),
    ]);
    let v: i128 = -9_300_000_000_000_000_000;
    unsat(vec![
        d.eq(&Term::fp(Float::from_f64(-9.3e18))),
        distinct(&to(128), &Term::bv(128, v as u128)),
    ]);
}

#[test]
fn min_max_of_zeros_agree_with_fpsym() {
    let f = Format::BINARY32;
    let (pz, nz) = (fp32(0.0), fp32(-0.0));
    let min = |a: &Term, b: &Term| app(Op::FpMin, vec![a.clone(), b.clone()]);
    let max = |a: &Term, b: &Term| app(Op::FpMax, vec![a.clone(), b.clone()]);
    for (a, b) in [(&pz, &nz), (&nz, &pz)] {
        unsat(vec![distinct(&min(a, b), &nz)]);
        unsat(vec![distinct(&max(a, b), &pz)]);
    }
    let (x, y) = (fpv("x", f), fpv("y", f));
    let zeros = vec![
        app(Op::FpIsZero, vec![x.clone()]),
        app(Op::FpIsZero, vec![y.clone()]),
        distinct(&x, &y),
    ];
    let mut q = zeros.clone();
    q.push(not(app(Op::FpIsNegative, vec![min(&x, &y)])));
    unsat(q);
    let mut q = zeros.clone();
    q.push(app(Op::FpIsNegative, vec![max(&x, &y)]));
    unsat(q);
    // NaN operands give the other operand.
    let nan = Term::fp(Float::nan(f));
    unsat(vec![
        not(app(Op::FpIsNaN, vec![x.clone()])),
        distinct(&min(&x, &nan), &x),
    ]);
    unsat(vec![
        not(app(Op::FpIsNaN, vec![x.clone()])),
        distinct(&max(&nan, &x), &x),
    ]);
}

#[test]
fn bv_division_by_zero() {
    let w = 16;
    let x = Term::var("x", Sort::BitVec(w));
    let z = Term::bv(w, 0);
    let op = |o: Op| app(o, vec![x.clone(), z.clone()]);
    unsat(vec![distinct(&op(Op::BvUdiv), &Term::bv(w, 0xffff))]);
    unsat(vec![distinct(&op(Op::BvUrem), &x)]);
    unsat(vec![distinct(&op(Op::BvSrem), &x)]);
    unsat(vec![distinct(&op(Op::BvSmod), &x)]);
    // bvsdiv by zero: -1 for x >= 0, 1 for x < 0.
    let neg = app(Op::BvSlt, vec![x.clone(), z.clone()]);
    unsat(vec![not(neg.clone()), distinct(&op(Op::BvSdiv), &Term::bv(w, 0xffff))]);
    unsat(vec![neg.clone(), distinct(&op(Op::BvSdiv), &Term::bv(w, 1))]);
    // A model for each, validated.
    let y = Term::var("y", Sort::BitVec(w));
    sat(vec![
        app(Op::BvSdiv, vec![x.clone(), y.clone()]).eq(&Term::bv(w, 1)),
        app(Op::BvSlt, vec![x.clone(), z.clone()]),
    ]);
}

#[test]
fn shared_and_deep_terms_translate_linearly() {
    // t_{i+1} = t_i + t_i: a DAG of 2000 nodes whose tree is 2^2000 nodes.
    let x = Term::var("x", Sort::BitVec(64));
    let mut t = x.clone();
    for _ in 0..2000 {
        t = app(Op::BvAdd, vec![t.clone(), t.clone()]);
    }
    // 2^2000 * x = 0 mod 2^64 for every x.
    unsat(vec![distinct(&t, &Term::bv(64, 0))]);
    // A deep chain: x + 1 + 1 + ... (5000 deep).
    let mut t = x.clone();
    for _ in 0..5000 {
        t = app(Op::BvAdd, vec![t, Term::bv(64, 1)]);
    }
    let m = sat(vec![t.eq(&Term::bv(64, 5007))]);
    assert_eq!(m.get(&x), Some(Value::Bv(BvValue::new(64, 7))));
}

/// Factoring a 62-bit semiprime by bit-blasting: far beyond one second.
fn hard_query() -> Query {
    let x = Term::var("p", Sort::BitVec(32));
    let y = Term::var("q", Sort::BitVec(32));
    let wide = |v: &Term| app(Op::BvZeroExtend(32), vec![v.clone()]);
    let n: u128 = 2147483647 * 2147483629;
    Query::new(vec![
        app(Op::BvMul, vec![wide(&x), wide(&y)]).eq(&Term::bv(64, n)),
        app(Op::BvUgt, vec![x.clone(), Term::bv(32, 1)]),
        app(Op::BvUgt, vec![y.clone(), Term::bv(32, 1)]),
        app(Op::BvUlt, vec![x.clone(), y.clone()]),
    ])
}

/// A resource limit ends a query by Z3's count of its steps, not by the
/// clock: the hard query is unknown (not a timeout) under a small one,
/// the same way twice, and an easy one is still decided.
#[test]
fn a_resource_limit_ends_a_query_by_count() {
    let mut config = SolverConfig::bare(Backend::Z3);
    config.z3_rlimit = Some(200_000);
    let mut s = build(&config);
    for _ in 0..2 {
        match s.check(&hard_query(), &Budget::unlimited()).unwrap() {
            SolveResult::Unknown(Reason::Backend(why)) => assert!(why.contains("resource"), "{why}"),
            r => panic!("expected unknown by the resource limit, got {r:?}"),
        }
    }
    let x = Term::var("x", Sort::BitVec(8));
    let easy = Query::new(vec![x.eq(&Term::bv(8, 7))]);
    assert!(matches!(
        s.check(&easy, &Budget::unlimited()).unwrap(),
        SolveResult::Sat(_)
    ));
}

#[test]
fn timeout_is_honoured() {
    let mut s = build(&SolverConfig::bare(Backend::Z3));
    let start = Instant::now();
    let r = s
        .check(&hard_query(), &Budget::timeout(Duration::from_secs(1)))
        .unwrap();
    let took = start.elapsed();
    eprintln!("1 s budget: unknown after {took:?}");
    assert_eq!(r, SolveResult::Unknown(Reason::Timeout));
    assert!(took < Duration::from_millis(2000), "took {took:?}");
    // An expired budget never reaches Z3.
    let past = Budget::until(Some(Instant::now() - Duration::from_millis(1)));
    let start = Instant::now();
    assert_eq!(
        s.check(&hard_query(), &past).unwrap(),
        SolveResult::Unknown(Reason::Timeout)
    );
    assert!(start.elapsed() < Duration::from_millis(50));
}

#[test]
fn stats_count_queries_and_time() {
    let mut s = Z3Solver::new();
    let x = Term::var("x", Sort::BitVec(8));
    s.check(&Query::new(vec![x.eq(&Term::bv(8, 1))]), &Budget::unlimited())
        .unwrap();
    s.check(&Query::new(vec![distinct(&x, &x)]), &Budget::unlimited())
        .unwrap();
    let past = Budget::until(Some(Instant::now() - Duration::from_millis(1)));
    s.check(&Query::new(vec![x.eq(&Term::bv(8, 1))]), &past).unwrap();
    let st = s.stats();
    assert_eq!(st["z3.queries"], 3.0);
    assert_eq!(st["z3.sat"], 1.0);
    assert_eq!(st["z3.unsat"], 1.0);
    assert_eq!(st["z3.unknown"], 1.0);
    assert!(st["z3.seconds"] > 0.0);
}

#[path = "z3/differential.rs"]
mod differential;

#[test]
fn same_name_different_sorts_are_different_variables() {
    let a = Term::var("same", Sort::BitVec(8));
    let b = Term::var("same", Sort::Bool);
    assert_eq!(a.sort(), Sort::BitVec(8));
    assert_eq!(b.sort(), Sort::Bool);
    let m = sat(vec![a.eq(&Term::bv(8, 5)), b.clone()]);
    assert_eq!(m.get(&a), Some(Value::Bv(BvValue::new(8, 5))));
    assert_eq!(m.get(&b), Some(Value::Bool(true)));
}

#[test]
fn fma_in_formats_z3_folds_wrongly_is_refused() {
    // Z3 4.8.12 simplifies (fp.fma RNE 1 1 1) in (3, 3) to 0.5; the backend
    // must not answer from that.
    let f = Format::new(3, 3).unwrap();
    let one = Term::fp(Float::one(f, false));
    let fma = app(Op::FpFma, vec![rm(RNE), one.clone(), one.clone(), one.clone()]);
    let two = Term::fp(Float::pow2(f, 1).unwrap());
    let r = check(vec![distinct(&fma, &two)]);
    assert!(matches!(r, SolveResult::Unknown(Reason::Unsupported(_))), "{r:?}");
    // sb = 4 is fine.
    let f = Format::new(3, 4).unwrap();
    let one = Term::fp(Float::one(f, false));
    let fma = app(Op::FpFma, vec![rm(RNE), one.clone(), one.clone(), one.clone()]);
    unsat(vec![distinct(&fma, &Term::fp(Float::pow2(f, 1).unwrap()))]);
}

#[test]
fn round_to_integral_in_formats_with_two_exponent_bits_is_refused() {
    // Z3 4.8.12 rounds 0.25 to 1 in (2, 5), folded or bit-blasted.
    let f = Format::new(2, 5).unwrap();
    let quarter = Term::fp(Float::from_fields(f, false, 0, 0b0100));
    let r = app(Op::FpRoundToIntegral, vec![rm(RNE), quarter.clone()]);
    let res = check(vec![distinct(&r, &Term::fp(Float::zero(f, false)))]);
    assert!(matches!(res, SolveResult::Unknown(Reason::Unsupported(_))), "{res:?}");
    let res = check(vec![
        app(Op::FpToSbv(1), vec![rm(RNE), quarter.clone()]).eq(&Term::bv(1, 0))
    ]);
    assert!(matches!(res, SolveResult::Unknown(Reason::Unsupported(_))), "{res:?}");
    // Three exponent bits are fine.
    let f = Format::new(3, 5).unwrap();
    let quarter = Term::fp(Float::pow2(f, -2).unwrap());
    let r = app(Op::FpRoundToIntegral, vec![rm(RNE), quarter]);
    unsat(vec![distinct(&r, &Term::fp(Float::zero(f, false)))]);
}

/// CPU time of this thread (the machine may be shared; wall time misleads).
fn cpu() -> Duration {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    Duration::from_nanos(s.split_whitespace().next().and_then(|x| x.parse().ok()).unwrap_or(0))
}

#[test]
#[ignore = "timing probe; run with --ignored --nocapture"]
fn probe_per_query_overhead() {
    let mut s = Z3Solver::new();
    let x = Term::var("probe_x", Sort::BitVec(8));
    let q = Query::new(vec![x.eq(&Term::bv(8, 1))]);
    let start = cpu();
    for _ in 0..100 {
        s.check(&q, &Budget::unlimited()).unwrap();
    }
    eprintln!("100 trivial bv queries: {:?} cpu", cpu() - start);
    let y = fpv("probe_y", Format::BINARY64);
    let q = Query::new(vec![
        app(Op::FpAdd, vec![rm(RNE), y.clone(), y.clone()]).eq(&Term::fp(Float::from_f64(3.0)))
    ]);
    let start = cpu();
    for _ in 0..100 {
        s.check(&q, &Budget::timeout(Duration::from_secs(5))).unwrap();
    }
    eprintln!("100 binary64 add queries: {:?} cpu", cpu() - start);
}

#[test]
#[ignore = "timing probe"]
fn probe_context_cost() {
    let start = cpu();
    for _ in 0..100 {
        let cfg = z3::Config::new();
        z3::with_z3_config(&cfg, || {
            let _ = z3::Context::thread_local();
        });
    }
    eprintln!("100 contexts: {:?}", cpu() - start);
    let cfg = z3::Config::new();
    z3::with_z3_config(&cfg, || {
        for logic in ["", "QF_FPBV", "QF_FP", "QF_BV"] {
            let start = cpu();
            for _ in 0..100 {
                let s = if logic.is_empty() {
                    z3::Solver::new()
                } else {
                    z3::Solver::new_for_logic(logic).unwrap()
                };
                let b = z3::ast::Bool::new_const("b");
                s.assert(&b);
                s.check();
            }
            eprintln!("100 {logic:?} solver+check in one context: {:?}", cpu() - start);
        }
        let start = cpu();
        for _ in 0..100 {
            let _s = z3::Solver::new();
        }
        eprintln!("100 default solver creations: {:?}", cpu() - start);
        let start = cpu();
        let s = z3::Solver::new_for_logic("QF_FPBV").unwrap();
        for _ in 0..100 {
            let b = z3::ast::Bool::new_const("b");
            s.assert(&b);
            s.check();
            s.reset();
        }
        eprintln!("100 QF_FPBV check+reset on one solver: {:?}", cpu() - start);
    });
}

#[test]
fn narrowing_conversions_of_subnormals_by_two_exponent_bits() {
    // Z3 4.8.12 bit-blasts 2^-24 in (5, 11) to (3, 5) as +oo; it is +0
    // (RNE) or the smallest subnormal (RTP).
    let cases = [
        ((5, 11), (3, 5)),
        ((13, 30), (11, 53)),
        ((10, 12), (8, 8)),
        ((17, 40), (15, 64)),
    ];
    for ((fe, fs), (te, ts)) in cases {
        let (from, to) = (Format::new(fe, fs).unwrap(), Format::new(te, ts).unwrap());
        let x = fpv(&format!("sub_{fe}_{fs}"), from);
        for v in [
            Float::smallest(from, false),
            Float::from_fields(from, true, 0, 0b1011 << (fs - 6)),
        ] {
            for r in RoundingMode::ALL {
                let expect = v.convert(to, r).value;
                let conv = app(Op::ToFpFromFp(to), vec![rm(r), x.clone()]);
                // fp.eq pins x without letting Z3 fold the conversion.
                unsat(vec![
                    app(Op::FpEq, vec![x.clone(), Term::fp(v)]),
                    distinct(&conv, &Term::fp(expect)),
                ]);
            }
        }
    }
}

#[test]
fn rem_is_decided_for_normal_divisors_only() {
    let f = Format::BINARY32;
    let (x, y) = (fpv("rem_x", f), fpv("rem_y", f));
    let rem = app(Op::FpRem, vec![x.clone(), y.clone()]);
    let pin = |v: &Term, k: Float| app(Op::FpEq, vec![v.clone(), Term::fp(k)]);
    // 5.5 rem 2 = -0.5 (5.5 / 2 = 2.75 rounds to 3).
    let base = vec![pin(&x, Float::from_f32(5.5)), pin(&y, Float::from_f32(2.0))];
    let mut q = base.clone();
    q.push(rem.eq(&fp32(-0.5)));
    sat(q);
    let mut q = base.clone();
    q.push(distinct(&rem, &fp32(-0.5)));
    let r = check(q);
    assert!(matches!(r, SolveResult::Unknown(Reason::Incomplete(_))), "{r:?}");
    // Z3 4.8.12 bit-blasts largest-finite rem largest-subnormal to 0; the
    // answer is 2^-149. The backend must not answer from Z3's value.
    let base = vec![
        pin(&x, Float::largest(f, false)),
        pin(&y, Float::from_fields(f, false, 0, (1 << 23) - 1)),
    ];
    for extra in [rem.eq(&fp32(0.0)), rem.eq(&Term::fp(Float::smallest(f, false)))] {
        let mut q = base.clone();
        q.push(extra);
        let r = check(q);
        assert!(matches!(r, SolveResult::Unknown(Reason::Incomplete(_))), "{r:?}");
    }
    // binary64 fp.rem would exhaust memory in Z3: refused.
    let d = fpv("rem_d", Format::BINARY64);
    let r = check(vec![
        app(Op::FpRem, vec![d.clone(), d.clone()]).eq(&Term::fp(Float::from_f64(0.0)))
    ]);
    assert!(matches!(r, SolveResult::Unknown(Reason::Unsupported(_))), "{r:?}");
    // The message names the format as C users know it: x86_fp80 is the
    // x87 long double, not binary64.
    let l = fpv("rem_l", Format::X86_FP80);
    let r = check(vec![
        app(Op::FpRem, vec![l.clone(), l.clone()]).eq(&Term::fp(Float::zero(Format::X86_FP80, false)))
    ]);
    match r {
        SolveResult::Unknown(Reason::Unsupported(m)) => assert!(
            m.starts_with("fp.rem in x87 long double (_ FloatingPoint 15 64): ") && m.contains("from binary64 on"),
            "{m}"
        ),
        r => panic!("{r:?}"),
    }
}
