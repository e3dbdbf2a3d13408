//! Hash-consing, sort checking, evaluation and folding of terms.

use fpsym_expr::{eval, eval_until, fold, BvValue, EvalError, Model, Op, Sort, Term, Value};
use fpsym_float::{Float, Format, RoundingMode};

fn f32c(x: f32) -> Term {
    Term::fp(Float::from_f32(x))
}

#[test]
fn hash_consing_shares_structure() {
    let x = Term::var("x", Sort::Float(Format::BINARY32));
    let rm = Term::rm(RoundingMode::NearestTiesToEven);
    let a = Term::mk(Op::FpAdd, vec![rm.clone(), x.clone(), f32c(1.0)]);
    let b = Term::mk(Op::FpAdd, vec![rm, x.clone(), f32c(1.0)]);
    assert_eq!(a, b);
    assert_eq!(a.id(), b.id());
    // Same name, different sort: different variables.
    let xb = Term::var("x", Sort::Bool);
    assert_ne!(x, xb);
    assert_eq!(xb.sort(), Sort::Bool);
    assert_eq!(x.sort(), Sort::Float(Format::BINARY32));
}

#[test]
fn sort_errors_are_reported() {
    let x = Term::var("x", Sort::Float(Format::BINARY32));
    let y = Term::var("y", Sort::Float(Format::BINARY64));
    let rm = Term::rm(RoundingMode::TowardZero);
    let e = Term::app(Op::FpAdd, vec![rm.clone(), x.clone(), y]).unwrap_err();
    assert!(e.to_string().contains("same sort"), "{e}");
    let e = Term::app(Op::FpAdd, vec![x.clone(), x.clone(), x.clone()]).unwrap_err();
    assert!(e.to_string().contains("RoundingMode"), "{e}");
    let e = Term::app(Op::BvExtract(8, 0), vec![Term::bv(8, 1)]).unwrap_err();
    assert!(e.to_string().contains("extract"), "{e}");
    assert!(Term::app(Op::Not, vec![x]).is_err());
}

#[test]
fn evaluation_follows_ieee() {
    let x = Term::var("x", Sort::Float(Format::BINARY32));
    let rm = Term::rm(RoundingMode::NearestTiesToEven);
    let sum = Term::mk(Op::FpAdd, vec![rm, x.clone(), f32c(1.0)]);
    let same = Term::mk(Op::FpEq, vec![sum.clone(), x.clone()]);
    let mut m = Model::new();
    m.insert(x.clone(), Value::Fp(Float::from_f32(16777216.0)));
    assert_eq!(eval(&same, &m), Ok(Value::Bool(true)));
    m.insert(x.clone(), Value::Fp(Float::from_f32(1.0)));
    assert_eq!(eval(&same, &m), Ok(Value::Bool(false)));
    // NaN: fp.eq false, = true.
    m.insert(x.clone(), Value::Fp(Float::nan(Format::BINARY32)));
    let fpeq = Term::mk(Op::FpEq, vec![x.clone(), x.clone()]);
    let eq = Term::mk(Op::Eq, vec![x.clone(), x.clone()]);
    assert_eq!(eval(&fpeq, &m), Ok(Value::Bool(false)));
    assert_eq!(eval(&eq, &m), Ok(Value::Bool(true)));
    // Unassigned variable is an error, not a default.
    assert!(eval(&x, &Model::new()).is_err());
}

#[test]
fn unspecified_cases_are_fixed() {
    let rm = Term::rm(RoundingMode::TowardZero);
    let nan = Term::fp(Float::nan(Format::BINARY32));
    let m = Model::new();
    let s = Term::mk(Op::FpToSbv(32), vec![rm.clone(), nan.clone()]);
    assert_eq!(eval(&s, &m), Ok(Value::Bv(BvValue::new(32, 0x8000_0000))));
    let u = Term::mk(Op::FpToUbv(8), vec![rm, f32c(300.0)]);
    assert_eq!(eval(&u, &m), Ok(Value::Bv(BvValue::new(8, 0))));
    let pz = f32c(0.0);
    let nz = f32c(-0.0);
    for (a, b) in [(&pz, &nz), (&nz, &pz)] {
        let mn = Term::mk(Op::FpMin, vec![a.clone(), b.clone()]);
        let mx = Term::mk(Op::FpMax, vec![a.clone(), b.clone()]);
        assert_eq!(eval(&mn, &m), Ok(Value::Fp(Float::from_f32(-0.0))));
        assert_eq!(eval(&mx, &m), Ok(Value::Fp(Float::from_f32(0.0))));
    }
}

#[test]
fn bitvector_semantics() {
    let m = Model::new();
    let ev = |op: Op, a: u128, b: u128| eval(&Term::mk(op, vec![Term::bv(8, a), Term::bv(8, b)]), &m).unwrap();
    assert_eq!(ev(Op::BvUdiv, 7, 0), Value::Bv(BvValue::new(8, 0xff)));
    assert_eq!(ev(Op::BvUrem, 7, 0), Value::Bv(BvValue::new(8, 7)));
    assert_eq!(ev(Op::BvSdiv, 0xf9, 2), Value::Bv(BvValue::new(8, 0xfd))); // -7 / 2 = -3
    assert_eq!(ev(Op::BvSrem, 0xf9, 2), Value::Bv(BvValue::new(8, 0xff))); // -7 rem 2 = -1
    assert_eq!(ev(Op::BvSmod, 0xf9, 2), Value::Bv(BvValue::new(8, 1))); // -7 mod 2 = 1
    assert_eq!(ev(Op::BvAshr, 0x80, 9), Value::Bv(BvValue::new(8, 0xff)));
    assert_eq!(ev(Op::BvSlt, 0x80, 0), Value::Bool(true));
    let c = eval(
        &Term::mk(Op::BvConcat, vec![Term::bv(64, u64::MAX as u128), Term::bv(64, 1)]),
        &m,
    )
    .unwrap();
    assert_eq!(c, Value::Bv(BvValue::new(128, (u64::MAX as u128) << 64 | 1)));
    let s = eval(&Term::mk(Op::BvSignExtend(8), vec![Term::bv(8, 0x80)]), &m).unwrap();
    assert_eq!(s, Value::Bv(BvValue::new(16, 0xff80)));
}

#[test]
fn folding_preserves_meaning() {
    let x = Term::var("x", Sort::Float(Format::BINARY64));
    let rm = Term::rm(RoundingMode::TowardPositive);
    let third = Term::mk(
        Op::FpDiv,
        vec![
            rm.clone(),
            Term::fp(Float::from_f64(1.0)),
            Term::fp(Float::from_f64(3.0)),
        ],
    );
    let folded = fold(&third);
    let want = Float::from_f64(1.0)
        .div(Float::from_f64(3.0), RoundingMode::TowardPositive)
        .value;
    assert_eq!(folded, Term::fp(want));
    let cond = Term::mk(Op::FpLt, vec![third.clone(), third.clone()]);
    let ite = Term::mk(Op::Ite, vec![cond, x.clone(), Term::fp(Float::from_f64(2.0))]);
    assert_eq!(fold(&ite), Term::fp(Float::from_f64(2.0)));
    let conj = Term::mk(Op::And, vec![Term::bool(true), Term::mk(Op::FpIsNaN, vec![x.clone()])]);
    assert_eq!(fold(&conj), Term::mk(Op::FpIsNaN, vec![x.clone()]));
    // Reflexivity of `=` holds for every value, NaN included; fp.eq is not folded.
    assert_eq!(fold(&x.eq(&x)), Term::bool(true));
    assert_eq!(
        fold(&Term::mk(Op::Distinct, vec![x.clone(), third.clone(), x.clone()])),
        Term::bool(false)
    );
    // fp.eq of a term with itself holds unless it is NaN.
    let fpeq = Term::mk(Op::FpEq, vec![x.clone(), x.clone()]);
    let not_nan = Term::mk(Op::FpIsNaN, vec![x.clone()]).not();
    assert_eq!(fold(&fpeq), not_nan);
    assert_eq!(fold(&fpeq.not().not()), not_nan);
}

#[test]
fn deep_terms_drop_without_recursion() {
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let mut t = Term::var("deep", Sort::Bool);
            for _ in 0..200_000 {
                t = t.not();
            }
            let m = {
                let mut m = Model::new();
                m.insert(Term::var("deep", Sort::Bool), Value::Bool(true));
                m
            };
            assert_eq!(eval(&t, &m), Ok(Value::Bool(true)));
            assert_eq!(t.dag_size(), 200_001);
            drop(t);
        })
        .unwrap();
    handle.join().unwrap();
}

fn rne() -> Term {
    Term::rm(RoundingMode::NearestTiesToEven)
}

/// Commutative operands in canonical order: `a + b` and `b + a` (floats,
/// any rounding mode; the mode stays first) are one term, so equalities
/// and IEEE comparisons between them fold; bit-vector sums regroup too.
#[test]
fn commutative_operands_are_normalized() {
    let f32s = Sort::Float(Format::BINARY32);
    let (a, b) = (Term::var("a", f32s), Term::var("b", f32s));
    for op in [Op::FpAdd, Op::FpMul] {
        let ab = Term::mk(op.clone(), vec![rne(), a.clone(), b.clone()]);
        let ba = Term::mk(op.clone(), vec![rne(), b.clone(), a.clone()]);
        assert_ne!(ab, ba, "built unnormalized, they differ");
        assert_eq!(fold(&ab), fold(&ba));
        assert_eq!(fold(&ba).args()[0], rne(), "the rounding mode stays first");
        assert_eq!(fold(&ab.eq(&ba)), Term::bool(true));
        assert_eq!(
            fold(&Term::mk(Op::FpEq, vec![ab.clone(), ba.clone()])),
            Term::mk(Op::FpIsNaN, vec![fold(&ab)]).not()
        );
        assert_eq!(
            fold(&Term::mk(Op::FpLt, vec![ab.clone(), ba.clone()])),
            Term::bool(false)
        );
        assert_eq!(
            fpsym_expr::mk_normalized(op.clone(), vec![rne(), b.clone(), a.clone()]),
            fold(&ab)
        );
    }
    // fma: the two factors commute, the addend does not move.
    let c = Term::var("c", f32s);
    let f1 = Term::mk(Op::FpFma, vec![rne(), a.clone(), b.clone(), c.clone()]);
    let f2 = Term::mk(Op::FpFma, vec![rne(), b.clone(), a.clone(), c.clone()]);
    assert_eq!(fold(&f1), fold(&f2));
    assert_eq!(fold(&f1).args()[3], c);
    // `(a + b + c + d + e) == (e + d + c + b + a)` on 32-bit integers.
    let bv = Sort::BitVec(32);
    let xs: Vec<Term> = ["p", "q", "r", "s", "t"].iter().map(|n| Term::var(n, bv)).collect();
    for op in [Op::BvAdd, Op::BvMul, Op::BvAnd, Op::BvOr, Op::BvXor] {
        let sum = |order: &mut dyn Iterator<Item = &Term>| {
            let first = order.next().unwrap().clone();
            order.fold(first, |acc, x| Term::mk(op.clone(), vec![acc, x.clone()]))
        };
        let fwd = sum(&mut xs.iter());
        let bwd = sum(&mut xs.iter().rev());
        assert_ne!(fwd, bwd);
        assert_eq!(fold(&fwd.eq(&bwd)), Term::bool(true), "{op:?}");
    }
    // Boolean connectives and `distinct`.
    let (p, q) = (Term::var("bp", Sort::Bool), Term::var("bq", Sort::Bool));
    let and_pq = Term::mk(Op::And, vec![p.clone(), q.clone()]);
    let and_qp = Term::mk(Op::And, vec![q.clone(), p.clone()]);
    assert_eq!(fold(&and_pq), fold(&and_qp));
    let or_pq = Term::mk(Op::Or, vec![p.clone(), q.clone()]);
    assert_eq!(fold(&or_pq), fold(&Term::mk(Op::Or, vec![q.clone(), p.clone()])));
    assert_eq!(fold(&Term::mk(Op::And, vec![p.clone(), p.clone()])), p);
}

/// What commutativity alone does not prove is not folded: float addition
/// is not associative (`(a + b) + c` and `(c + b) + a` differ for
/// a = 1e8, b = -1e8, c = 1 in binary32), subtraction and division do not
/// commute, and fp.min / fp.max keep their order (zeros of both signs).
#[test]
fn non_equalities_are_not_folded() {
    let f32s = Sort::Float(Format::BINARY32);
    let (a, b, c) = (Term::var("a", f32s), Term::var("b", f32s), Term::var("c", f32s));
    let add = |x: &Term, y: &Term| Term::mk(Op::FpAdd, vec![rne(), x.clone(), y.clone()]);
    let left = add(&add(&a, &b), &c);
    let right = add(&add(&c, &b), &a);
    let eq = Term::mk(Op::FpEq, vec![left.clone(), right.clone()]);
    let folded = fold(&eq);
    assert!(folded.as_const().is_none(), "associativity is not folded: {folded:?}");
    let mut m = Model::new();
    m.insert(a.clone(), Value::Fp(Float::from_f32(1e8)));
    m.insert(b.clone(), Value::Fp(Float::from_f32(-1e8)));
    m.insert(c.clone(), Value::Fp(Float::from_f32(1.0)));
    assert_eq!(eval(&eq, &m), Ok(Value::Bool(false)));
    assert_eq!(eval(&folded, &m), Ok(Value::Bool(false)));
    for op in [Op::FpSub, Op::FpDiv] {
        let ab = Term::mk(op.clone(), vec![rne(), a.clone(), b.clone()]);
        let ba = Term::mk(op.clone(), vec![rne(), b.clone(), a.clone()]);
        assert_ne!(fold(&ab), fold(&ba), "{op:?}");
    }
    for op in [Op::FpMin, Op::FpMax] {
        let ab = Term::mk(op.clone(), vec![a.clone(), b.clone()]);
        let ba = Term::mk(op.clone(), vec![b.clone(), a.clone()]);
        assert_ne!(fold(&ab), fold(&ba), "{op:?}");
    }
    let bv = Sort::BitVec(8);
    let (x, y) = (Term::var("x8", bv), Term::var("y8", bv));
    let sub = |p: &Term, q: &Term| Term::mk(Op::BvSub, vec![p.clone(), q.clone()]);
    assert!(fold(&sub(&x, &y).eq(&sub(&y, &x))).as_const().is_none());
}

/// Folding (with normalization) keeps the value of every term under random
/// models with special values: zeros of both signs, infinities, NaN.
#[test]
fn normalized_terms_keep_their_values() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(16);
    let f32s = Sort::Float(Format::BINARY32);
    let (a, b, c) = (Term::var("a", f32s), Term::var("b", f32s), Term::var("c", f32s));
    let specials = [
        0.0f32,
        -0.0,
        1.0,
        -1.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        1e8,
        -1e8,
        3.5e-45,
    ];
    let mut terms = Vec::new();
    for rm in [RoundingMode::NearestTiesToEven, RoundingMode::TowardNegative] {
        let r = Term::rm(rm);
        for op in [Op::FpAdd, Op::FpMul, Op::FpSub] {
            let ba = Term::mk(op.clone(), vec![r.clone(), b.clone(), a.clone()]);
            let cab = Term::mk(op.clone(), vec![r.clone(), c.clone(), ba.clone()]);
            terms.push(Term::mk(
                Op::FpEq,
                vec![ba.clone(), Term::mk(op.clone(), vec![r.clone(), a.clone(), b.clone()])],
            ));
            terms.push(Term::mk(Op::FpLeq, vec![cab.clone(), cab.clone()]));
            terms.push(Term::mk(Op::Eq, vec![cab.clone(), ba.clone()]));
            terms.push(Term::mk(Op::FpFma, vec![r.clone(), c.clone(), b.clone(), a.clone()]).eq(&cab));
        }
    }
    for _ in 0..300 {
        let mut m = Model::new();
        for v in [&a, &b, &c] {
            let x = if rng.gen_bool(0.5) {
                specials[rng.gen_range(0..specials.len())]
            } else {
                f32::from_bits(rng.gen())
            };
            m.insert(v.clone(), Value::Fp(Float::from_f32(x)));
        }
        for t in &terms {
            assert_eq!(eval(&fold(t), &m), eval(t, &m), "{t:?} under {m:?}");
        }
    }
}

/// Constants are made outside the interning table (the concrete path of
/// the executor makes millions) but behave as if interned: equal constants
/// are equal, hash and order alike, have one id, and terms built over them
/// are the same hash-consed terms.
#[test]
fn constants_behave_as_interned() {
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};
    let h = |t: &Term| {
        let mut s = DefaultHasher::new();
        t.hash(&mut s);
        s.finish()
    };
    let a = Term::bv(32, 7);
    let b = Term::bv(32, 7);
    assert_eq!(a, b);
    assert_eq!(h(&a), h(&b));
    assert_eq!(a.id(), b.id());
    assert_eq!(a.cmp(&b), std::cmp::Ordering::Equal);
    // Another value, another width or another sort is another term.
    assert_ne!(a, Term::bv(32, 8));
    assert_ne!(a, Term::bv(16, 7));
    assert_ne!(Term::fp(Float::from_f32(0.0)), Term::fp(Float::from_f32(-0.0)));
    assert_ne!(Term::fp(Float::from_f32(1.0)), Term::fp(Float::from_f64(1.0)));
    assert_eq!(Term::fp(Float::from_f32(f32::NAN)), Term::fp(Float::from_f32(f32::NAN)));
    // A constant is never equal to a variable or an application.
    let x = Term::var("x", Sort::BitVec(32));
    assert_ne!(a, x);
    let s1 = Term::mk(Op::BvAdd, vec![x.clone(), a.clone()]);
    let s2 = Term::mk(Op::BvAdd, vec![x.clone(), b.clone()]);
    assert_eq!(s1, s2);
    assert_eq!(s1.id(), s2.id());
    // The stored argument is the interned constant.
    assert_eq!(s1.args()[1], a);
    assert_eq!(s1.args()[1].id(), a.id());
    // Keys of a map: one entry for equal constants.
    let mut m = std::collections::HashMap::new();
    m.insert(a.clone(), 1);
    m.insert(b.clone(), 2);
    assert_eq!(m.len(), 1);
    assert_eq!(m[&Term::bv(32, 7)], 2);
}

/// `s = s * 0.5 + x`, `n` times from 0: a term of about 2n nodes (a long
/// loop's value).
fn recurrence(x: &Term, n: usize) -> Term {
    let rm = Term::rm(RoundingMode::NearestTiesToEven);
    (0..n).fold(f32c(0.0), |s, _| {
        let half = Term::mk(Op::FpMul, vec![rm.clone(), s, f32c(0.5)]);
        Term::mk(Op::FpAdd, vec![rm.clone(), half, x.clone()])
    })
}

#[test]
fn an_evaluation_stops_when_asked() {
    let x = Term::var("x", Sort::Float(Format::BINARY32));
    let t = recurrence(&x, 50_000);
    let mut m = Model::new();
    m.insert(x, Value::Fp(Float::from_f32(1.0)));
    // Asked every few thousand nodes: it stops before the end.
    let asked = std::cell::Cell::new(0);
    let stop = || {
        asked.set(asked.get() + 1);
        asked.get() >= 2
    };
    assert_eq!(eval_until(&t, &m, &stop), Err(EvalError::Stopped));
    assert_eq!(asked.get(), 2);
    // Never asked to stop: the value eval gives (s tends to 2).
    let v = eval_until(&t, &m, &|| false).unwrap();
    assert_eq!(v, eval(&t, &m).unwrap());
    assert_eq!(v, Value::Fp(Float::from_f32(2.0)));
}
