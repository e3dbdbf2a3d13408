//! Constant folding with the exact semantics of `fpsym-float`.

use crate::eval::apply;
use crate::op::Op;
use crate::term::Term;
use std::collections::HashMap;

/// Folds every subterm whose arguments are all constants into a constant, and
/// simplifies `ite` with a constant condition or equal branches, Boolean
/// connectives with constant arguments, double negation, and `=` / `distinct`
/// on syntactically equal arguments. The result is equivalent to `t` under every model.
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

fn simplify(op: &Op, args: Vec<Term>, orig: &Term) -> Term {
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
            let rest: Vec<Term> = args.into_iter().filter(|a| !is(a, true)).collect();
            return Term::and(rest);
        }
        Op::Or => {
            if args.iter().any(|a| is(a, true)) {
                return Term::bool(true);
            }
            let rest: Vec<Term> = args.into_iter().filter(|a| !is(a, false)).collect();
            return match rest.len() {
                0 => Term::bool(false),
                1 => rest.into_iter().next().unwrap(),
                _ => Term::mk(Op::Or, rest),
            };
        }
        _ => {}
    }
    if args.iter().zip(orig.args()).all(|(a, b)| a == b) {
        return orig.clone();
    }
    Term::mk(op.clone(), args)
}
