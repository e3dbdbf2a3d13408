//! Constant folding with the exact semantics of `fpsym-float`, and the
//! canonical operand order of commutative operations ([`normalize`]).

use crate::eval::apply;
use crate::op::Op;
use crate::term::Term;
use std::collections::HashMap;

/// Folds every subterm whose arguments are all constants into a constant, and
/// simplifies `ite` with a constant condition or equal branches, Boolean
/// connectives with constant arguments, double negation, `=` / `distinct`
/// on syntactically equal arguments, and IEEE comparisons of a term with
/// itself (`fp.eq t t` is `not (fp.isNaN t)`, `fp.lt t t` is false); every
/// application is first [`normalize`]d, so that `(fp.add rm a b)` and
/// `(fp.add rm b a)` become one term. The result is equivalent to `t` under
/// every model.
pub fn fold(t: &Term) -> Term {
    let mut memo: HashMap<u64, Term> = HashMap::new();
    fold_rec(t, &mut memo)
}

fn fold_rec(t: &Term, memo: &mut HashMap<u64, Term>) -> Term {
    // Explicit stack: terms from long paths can be very deep.
    let mut stack: Vec<(Term, bool)> = vec![(t.clone(), false)];
    while let Some((u, ready)) = stack.pop() {
        if memo.contains_key(&u.id()) {
            continue;
        }
        if u.op().is_leaf() {
            memo.insert(u.id(), u.clone());
            continue;
        }
        if !ready {
            stack.push((u.clone(), true));
            for a in u.args() {
                if !memo.contains_key(&a.id()) {
                    stack.push((a.clone(), false));
                }
            }
            continue;
        }
        let args: Vec<Term> = u.args().iter().map(|a| memo[&a.id()].clone()).collect();
        let out = simplify(u.op(), args, &u);
        memo.insert(u.id(), out);
    }
    memo[&t.id()].clone()
}

/// Leaves of a flattened associative-commutative chain beyond which a
/// chain is not flattened further (the rest stays one operand), so that
/// building a long sum one term at a time stays linear.
const MAX_AC_LEAVES: usize = 64;

/// The arguments of `op(args)` in canonical order, where the order cannot
/// change the value under SMT-LIB semantics:
///
/// - commutative operations have their operands ordered by term id:
///   `fp.add` and `fp.mul` (the two float operands; the rounding mode stays
///   first), the two factors of `fp.fma` (the addend stays last), `fp.eq`,
///   `=`, `distinct`, `and`, `or`, `xor`, and the bit-vector `bvadd`,
///   `bvmul`, `bvand`, `bvor`, `bvxor`;
/// - the bit-vector ones, being also associative (arithmetic modulo
///   2^n, bitwise logic), have nested chains of the same operation
///   flattened, sorted, and rebuilt left-associated (up to
///   [`MAX_AC_LEAVES`] leaves): `(a + b) + c` and `(c + b) + a` become the
///   same term;
/// - `and` and `or` absorb nested `and` / `or` arguments.
///
/// Not reordered: `fp.min` and `fp.max` (SMT-LIB leaves the result of
/// `-0`, `+0` unspecified and a solver may depend on the order), and float
/// `+` and `*` chains are never regrouped (IEEE arithmetic is not
/// associative: `(a + b) + c` and `(c + b) + a` differ in general).
pub fn normalize(op: &Op, mut args: Vec<Term>) -> Vec<Term> {
    match op {
        Op::FpAdd | Op::FpMul | Op::FpFma if args.len() >= 3 && args[1].id() > args[2].id() => args.swap(1, 2),
        Op::FpEq | Op::Eq if args.len() == 2 && args[0].id() > args[1].id() => args.swap(0, 1),
        Op::Distinct | Op::Xor => args.sort_by_key(Term::id),
        Op::And | Op::Or => {
            if args.iter().any(|a| a.op() == op) {
                let mut flat = Vec::with_capacity(args.len());
                for a in args {
                    if a.op() == op {
                        flat.extend(a.args().iter().cloned());
                    } else {
                        flat.push(a);
                    }
                }
                args = flat;
            }
            args.sort_by_key(Term::id);
            args.dedup();
            if args.len() == 1 {
                // `and`/`or` need two operands: repeat the one left (same value).
                args.push(args[0].clone());
            }
        }
        Op::BvAdd | Op::BvMul | Op::BvAnd | Op::BvOr | Op::BvXor if args.len() == 2 => {
            if args.iter().all(|a| a.op() != op) {
                args.sort_by_key(Term::id);
                return args;
            }
            let mut leaves = Vec::new();
            let mut stack = args;
            while let Some(t) = stack.pop() {
                if t.op() == op && leaves.len() + stack.len() + 2 <= MAX_AC_LEAVES {
                    stack.extend(t.args().iter().cloned());
                } else {
                    leaves.push(t);
                }
            }
            leaves.sort_by_key(Term::id);
            let last = leaves.pop().expect("two operands at least");
            let mut acc = leaves[0].clone();
            for l in &leaves[1..] {
                acc = Term::mk(op.clone(), vec![acc, l.clone()]);
            }
            return vec![acc, last];
        }
        _ => {}
    }
    args
}

/// `op(args)` with its arguments [`normalize`]d; panics on a sort error
/// like [`Term::mk`].
pub fn mk_normalized(op: Op, args: Vec<Term>) -> Term {
    let args = normalize(&op, args);
    Term::mk(op, args)
}

fn simplify(op: &Op, args: Vec<Term>, orig: &Term) -> Term {
    let args = normalize(op, args);
    if args.iter().all(|a| a.op().is_const()) {
        let vals: Vec<_> = args.iter().map(|a| a.as_const().unwrap()).collect();
        if let Ok(v) = apply(op, &vals) {
            return Term::constant(v);
        }
    }
    let is = |t: &Term, b: bool| t.as_const().and_then(|v| v.as_bool()) == Some(b);
    match op {
        // `=` is reflexive for every sort (NaN = NaN in SMT-LIB).
        Op::Eq if args[0] == args[1] => return Term::bool(true),
        // IEEE comparisons of a value with itself: only NaN is unordered.
        Op::FpEq | Op::FpLeq | Op::FpGeq if args[0] == args[1] => {
            return Term::mk(Op::FpIsNaN, vec![args[0].clone()]).not()
        }
        Op::FpLt | Op::FpGt if args[0] == args[1] => return Term::bool(false),
        Op::Distinct if (1..args.len()).any(|i| args[..i].contains(&args[i])) => return Term::bool(false),
        Op::Ite if args[1] == args[2] => return args[1].clone(),
        Op::Not if *args[0].op() == Op::Not => return args[0].args()[0].clone(),
        Op::Ite if args[0].as_const().is_some() => {
            return if is(&args[0], true) {
                args[1].clone()
            } else {
                args[2].clone()
            };
        }
        Op::And => {
            if args.iter().any(|a| is(a, false)) {
                return Term::bool(false);
            }
            let mut rest: Vec<Term> = args.into_iter().filter(|a| !is(a, true)).collect();
            rest.dedup();
            return Term::and(rest);
        }
        Op::Or => {
            if args.iter().any(|a| is(a, true)) {
                return Term::bool(true);
            }
            let mut rest: Vec<Term> = args.into_iter().filter(|a| !is(a, false)).collect();
            rest.dedup();
            return match rest.len() {
                0 => Term::bool(false),
                1 => rest.into_iter().next().unwrap(),
                _ => Term::mk(Op::Or, rest),
            };
        }
        _ => {}
    }
    if args.len() == orig.args().len() && args.iter().zip(orig.args()).all(|(a, b)| a == b) {
        return orig.clone();
    }
    Term::mk(op.clone(), args)
}
