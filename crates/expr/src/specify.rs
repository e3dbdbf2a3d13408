//! fpsym's choices where SMT-LIB leaves a result unspecified, written out
//! as terms any solver understands the same way.
//!
//! `fp.min`/`fp.max` of `-0` and `+0`, and `fp.to_ubv`/`fp.to_sbv` of NaN,
//! infinities and out-of-range values, have one fixed value in fpsym (see
//! [`crate::eval`]); an external solver may pick any. [`specify`] rewrites a
//! term so that every such operation is guarded: the guarded operation is
//! only consulted where SMT-LIB specifies it, and fpsym's value is used
//! elsewhere. Solvers that read the rewritten term agree with fpsym.

use crate::{Op, Sort, Term, Value};
use fpsym_float::{Float, Format};
use std::collections::HashMap;

/// `t` with every `fp.min`, `fp.max`, `fp.to_ubv` and `fp.to_sbv` guarded
/// (see the module documentation). Shared subterms stay shared.
pub fn specify(t: &Term) -> Term {
    let mut memo: HashMap<u64, Term> = HashMap::new();
    // Iterative post-order: terms may be deep.
    let mut stack = vec![(t.clone(), false)];
    while let Some((u, done)) = stack.pop() {
        if memo.contains_key(&u.id()) {
            continue;
        }
        if !done {
            stack.push((u.clone(), true));
            for a in u.args() {
                if !memo.contains_key(&a.id()) {
                    stack.push((a.clone(), false));
                }
            }
            continue;
        }
        let args: Vec<Term> = u.args().iter().map(|a| memo[&a.id()].clone()).collect();
        let out = match u.op() {
            Op::FpMin | Op::FpMax => min_max(u.op(), &args[0], &args[1]),
            Op::FpToUbv(w) => to_bv(&args[0], &args[1], *w, false),
            Op::FpToSbv(w) => to_bv(&args[0], &args[1], *w, true),
            _ if args.iter().zip(u.args()).all(|(a, b)| a == b) => u.clone(),
            op => Term::mk(op.clone(), args),
        };
        memo.insert(u.id(), out);
    }
    memo.remove(&t.id()).expect("root rewritten")
}

fn app(op: Op, args: Vec<Term>) -> Term {
    Term::mk(op, args)
}

/// `ite(isZero x ∧ isZero y, zeros, op(x, y))` where for min `zeros =
/// ite(isNegative x, x, y)` (−0 if either is −0) and for max
/// `ite(isNegative x, y, x)` (+0 if either is +0).
fn min_max(op: &Op, x: &Term, y: &Term) -> Term {
    let both = app(
        Op::And,
        vec![app(Op::FpIsZero, vec![x.clone()]), app(Op::FpIsZero, vec![y.clone()])],
    );
    let negx = app(Op::FpIsNegative, vec![x.clone()]);
    let zeros = if matches!(op, Op::FpMin) {
        app(Op::Ite, vec![negx, x.clone(), y.clone()])
    } else {
        app(Op::Ite, vec![negx, y.clone(), x.clone()])
    };
    app(Op::Ite, vec![both, zeros, app(op.clone(), vec![x.clone(), y.clone()])])
}

/// `ite(isNaN x ∨ isInfinite x ∨ ¬inRange, unspecified, conv(rm, x))` with
/// `r = roundToIntegral(rm, x)`, `inRange = lo ≤ r ∧ r < hi` for the range
/// `[0, 2^w)` or `[-2^(w-1), 2^(w-1))` as floats of x's format (an
/// unrepresentable bound becomes the infinity of its sign, which every
/// finite `r` lies inside), and the unspecified value 0 (unsigned) or
/// `100…0` (signed). In tiny formats whose largest finite value is not an
/// integer, `r = ±inf` for a finite `x` stands for the integer
/// `±2^(emax+1)`, which is checked against the range statically.
fn to_bv(rm: &Term, x: &Term, w: u32, signed: bool) -> Term {
    let fmt: Format = x.sort().as_float().expect("fp.to_bv of a float");
    let bound = |k: u32, negative: bool| -> Term {
        Term::fp(match Float::pow2(fmt, k as i64) {
            Some(p) if negative => p.neg(),
            Some(p) => p,
            None => Float::infinity(fmt, negative),
        })
    };
    let (lo, hi) = if signed {
        (bound(w - 1, true), bound(w - 1, false))
    } else {
        (Term::fp(Float::zero(fmt, false)), bound(w, false))
    };
    let unspecified = Term::constant(Value::Bv(crate::BvValue::new(
        w,
        if signed { 1u128 << (w - 1) } else { 0 },
    )));
    let conv = app(
        if signed { Op::FpToSbv(w) } else { Op::FpToUbv(w) },
        vec![rm.clone(), x.clone()],
    );
    let r = app(Op::FpRoundToIntegral, vec![rm.clone(), x.clone()]);
    let mut in_range = app(
        Op::And,
        vec![app(Op::FpLeq, vec![lo, r.clone()]), app(Op::FpLt, vec![r.clone(), hi])],
    );
    let top = fmt.emax() + 1;
    let k_hi = if signed { w as i64 - 1 } else { w as i64 };
    if fmt.emax() < fmt.sb() as i64 - 1 {
        for (negative, fits) in [(false, top < k_hi), (true, signed && top < w as i64)] {
            if fits {
                let inf = Term::fp(Float::infinity(fmt, negative));
                in_range = app(Op::Or, vec![in_range, app(Op::Eq, vec![r.clone(), inf])]);
            }
        }
    }
    let bad = app(
        Op::Or,
        vec![
            app(Op::FpIsNaN, vec![x.clone()]),
            app(Op::FpIsInfinite, vec![x.clone()]),
            app(Op::Not, vec![in_range]),
        ],
    );
    debug_assert_eq!(conv.sort(), Sort::BitVec(w));
    app(Op::Ite, vec![bad, unspecified, conv])
}
