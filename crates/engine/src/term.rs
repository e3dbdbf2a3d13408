//! Building terms during execution: constant operands are computed at once
//! (no term is interned for concrete arithmetic beyond its result), and a
//! few patterns the memory model creates are undone (a value split into
//! bytes and concatenated back is the value again); operands of
//! commutative operations are put in canonical order (`fpsym_expr::normalize`).

use fpsym_expr::{apply, BvValue, Op, Sort, Term, Value};
use fpsym_float::{Float, Format, RoundingMode};

/// `op(args)`, computed when every argument is a constant.
pub fn mk(op: Op, args: Vec<Term>) -> Term {
    if args.iter().all(|a| a.as_const().is_some()) {
        let vals: Vec<Value> = args.iter().map(|a| a.as_const().unwrap()).collect();
        if let Ok(v) = apply(&op, &vals) {
            return Term::constant(v);
        }
    }
    match (&op, args.as_slice()) {
        // extract(hi, lo) of concat: pick the side when it lies in one.
        (Op::BvExtract(hi, lo), [x]) => {
            if *lo == 0 && *hi + 1 == width(x) {
                return x.clone();
            }
            if let (Op::BvConcat, [a, b]) = (x.op(), x.args()) {
                let wb = width(b);
                if *hi < wb {
                    return mk(Op::BvExtract(*hi, *lo), vec![b.clone()]);
                }
                if *lo >= wb {
                    return mk(Op::BvExtract(hi - wb, lo - wb), vec![a.clone()]);
                }
            }
            if let (Op::BvExtract(_, lo2), [y]) = (x.op(), x.args()) {
                return mk(Op::BvExtract(hi + lo2, lo + lo2), vec![y.clone()]);
            }
        }
        // concat(extract(h, m+1, x), extract(m, l, x)) = extract(h, l, x).
        (Op::BvConcat, [a, b]) => {
            if let ((Op::BvExtract(h1, l1), [x1]), (Op::BvExtract(h2, l2), [x2])) =
                ((a.op(), a.args()), (b.op(), b.args()))
            {
                if x1 == x2 && *l1 == h2 + 1 {
                    return mk(Op::BvExtract(*h1, *l2), vec![x1.clone()]);
                }
            }
        }
        (Op::Ite, [c, t, e]) => {
            if t == e {
                return t.clone();
            }
            if let Some(Value::Bool(b)) = c.as_const() {
                return if b { t.clone() } else { e.clone() };
            }
        }
        (Op::Not, [x]) => {
            if let (Op::Not, [y]) = (x.op(), x.args()) {
                return y.clone();
            }
        }
        (Op::Eq, [a, b]) if a == b => return Term::bool(true),
        _ => {}
    }
    // Commutative operands in canonical order (`b + a` is `a + b`).
    fpsym_expr::mk_normalized(op, args)
}

/// The width of a bit-vector term.
pub fn width(t: &Term) -> u32 {
    match t.sort() {
        Sort::BitVec(w) => w,
        s => panic!("width of a {s} term"),
    }
}

/// A bit-vector constant.
pub fn bv(w: u32, bits: u128) -> Term {
    Term::bv(w, bits & BvValue::new(w, u128::MAX).bits())
}

/// The constant value of a bit-vector term, if concrete.
pub fn as_bv(t: &Term) -> Option<u128> {
    t.as_const().and_then(|v| v.as_bv()).map(|b| b.bits())
}

/// The constant value of a Boolean term, if concrete.
pub fn as_bool(t: &Term) -> Option<bool> {
    t.as_const().and_then(|v| v.as_bool())
}

/// `c ? 1 : 0` as a 1-bit vector (LLVM's i1).
pub fn bool_to_bv1(c: Term) -> Term {
    mk(Op::Ite, vec![c, bv(1, 1), bv(1, 0)])
}

/// `b = 1` for an i1 value.
pub fn bv1_to_bool(b: &Term) -> Term {
    if let (Op::Ite, [c, t, e]) = (b.op(), b.args()) {
        if as_bv(t) == Some(1) && as_bv(e) == Some(0) {
            return c.clone();
        }
    }
    mk(Op::Eq, vec![b.clone(), bv(1, 1)])
}

/// The rounding-mode literal.
pub fn rm(r: RoundingMode) -> Term {
    Term::rm(r)
}

/// A floating-point constant.
pub fn fp(f: Float) -> Term {
    Term::fp(f)
}

/// The canonical quiet NaN of a format.
pub fn nan(fmt: Format) -> Term {
    Term::fp(Float::nan(fmt))
}

/// The format of a float term.
pub fn format_of(t: &Term) -> Format {
    match t.sort() {
        Sort::Float(f) => f,
        s => panic!("format of a {s} term"),
    }
}
