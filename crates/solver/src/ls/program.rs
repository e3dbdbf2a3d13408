//! A query compiled for local search: its subterms in topological order,
//! evaluated many times per second, and the distance to satisfaction of its
//! assertions under an assignment.
//!
//! Evaluation uses the host FPU where it is exactly IEEE for the format and
//! rounding mode (binary32 and binary64 arithmetic in roundTiesToEven,
//! comparisons and classification in any format that fits), and
//! `fpsym_expr::apply` (exact, any format and mode) otherwise. The result
//! only guides the search: a candidate model is confirmed with
//! `fpsym_expr::eval` before it is reported.

use fpsym_expr::{apply, Float, Op, RoundingMode, Sort, Term, Value};
use std::collections::HashMap;

/// The distance given to an atom that a NaN keeps from holding (larger than
/// any ordinal distance between finite values of binary64).
pub(crate) const NAN_DISTANCE: f64 = 1.0e20;

/// One subterm: its operation and the indices of its arguments.
struct Node {
    op: Op,
    args: Vec<usize>,
    sort: Sort,
}

/// A query's subterms in topological order (arguments before uses).
pub(crate) struct Program {
    nodes: Vec<Node>,
    /// Node index of each variable, in [`Program::vars`] order.
    var_nodes: Vec<usize>,
    /// The variables.
    vars: Vec<Term>,
    /// Node indices of the assertions.
    roots: Vec<usize>,
    /// Value of every constant leaf (and a placeholder elsewhere).
    init: Vec<Value>,
}

impl Program {
    /// Compiles the conjunction of `assertions`.
    pub(crate) fn new(assertions: &[Term]) -> Program {
        let mut index: HashMap<u64, usize> = HashMap::new();
        let mut p = Program {
            nodes: Vec::new(),
            var_nodes: Vec::new(),
            vars: Vec::new(),
            roots: Vec::new(),
            init: Vec::new(),
        };
        for a in assertions {
            let mut stack: Vec<(Term, bool)> = vec![(a.clone(), false)];
            while let Some((t, ready)) = stack.pop() {
                if index.contains_key(&t.id()) {
                    continue;
                }
                if !ready && !t.args().is_empty() {
                    stack.push((t.clone(), true));
                    for c in t.args() {
                        if !index.contains_key(&c.id()) {
                            stack.push((c.clone(), false));
                        }
                    }
                    continue;
                }
                let i = p.nodes.len();
                let args = t.args().iter().map(|c| index[&c.id()]).collect();
                p.nodes.push(Node {
                    op: t.op().clone(),
                    args,
                    sort: t.sort(),
                });
                p.init.push(t.as_const().unwrap_or(Value::Bool(false)));
                if t.var_name().is_some() {
                    p.var_nodes.push(i);
                    p.vars.push(t.clone());
                }
                index.insert(t.id(), i);
            }
            p.roots.push(index[&a.id()]);
        }
        p
    }

    /// The query's variables.
    pub(crate) fn vars(&self) -> &[Term] {
        &self.vars
    }

    /// Evaluates every subterm with the variables set to `assignment` (in
    /// [`Program::vars`] order) into `vals`. None if some operation cannot
    /// be evaluated (a bug elsewhere; the search then gives up).
    pub(crate) fn eval(&self, assignment: &[Value], vals: &mut Vec<Value>) -> Option<()> {
        vals.clear();
        vals.extend_from_slice(&self.init);
        for (k, &i) in self.var_nodes.iter().enumerate() {
            vals[i] = assignment[k];
        }
        let mut buf: Vec<Value> = Vec::with_capacity(4);
        for (i, n) in self.nodes.iter().enumerate() {
            if n.args.is_empty() {
                continue;
            }
            if let Some(v) = fast(&n.op, &n.args, vals) {
                vals[i] = v;
                continue;
            }
            buf.clear();
            buf.extend(n.args.iter().map(|&a| vals[a]));
            vals[i] = apply(&n.op, &buf).ok()?;
        }
        Some(())
    }

    /// The distance to satisfaction of the conjunction under the values
    /// `vals` of a previous [`Program::eval`]: 0 exactly when every
    /// assertion holds, the sum of the assertions' distances otherwise.
    pub(crate) fn distance(&self, vals: &[Value]) -> f64 {
        self.roots.iter().map(|&r| self.dist(r, true, vals, 0)).sum()
    }

    /// How far node `i` (Boolean) is from having the truth value `want`:
    /// 0 when it has it. Conjunction sums, disjunction takes the minimum,
    /// negation flips `want`; comparisons of floats measure in ordinals.
    fn dist(&self, i: usize, want: bool, vals: &[Value], depth: usize) -> f64 {
        let holds = vals[i].as_bool() == Some(want);
        if holds {
            return 0.0;
        }
        let n = &self.nodes[i];
        let a = &n.args;
        // Very deep Boolean structure: count it as one unsatisfied atom.
        if depth > 64 {
            return 1.0;
        }
        let d = |j: usize, w: bool| self.dist(j, w, vals, depth + 1);
        match (&n.op, want) {
            (Op::Not, _) => d(a[0], !want),
            (Op::And, true) | (Op::Or, false) => a.iter().map(|&j| d(j, want)).sum(),
            (Op::And, false) | (Op::Or, true) => a.iter().map(|&j| d(j, want)).fold(f64::INFINITY, f64::min),
            (Op::Implies, true) => d(a[0], false).min(d(a[1], true)),
            (Op::Implies, false) => d(a[0], true) + d(a[1], false),
            (Op::Ite, _) => (d(a[0], true) + d(a[1], want)).min(d(a[0], false) + d(a[2], want)),
            (Op::Eq, _) if self.nodes[a[0]].sort == Sort::Bool => {
                let both = |w: bool| d(a[0], w) + d(a[1], if want { w } else { !w });
                both(true).min(both(false))
            }
            (Op::Eq, true) => value_distance(vals[a[0]], vals[a[1]]),
            (op, _) if is_fp_compare(op) => compare_distance(op, want, vals[a[0]], vals[a[1]]),
            (op, _) if is_bv_compare(op) => bv_compare_distance(op, want, vals[a[0]], vals[a[1]]),
            (Op::FpIsZero, true) => fp(vals[a[0]]).map_or(NAN_DISTANCE, |x| ord0(x).abs() as f64),
            (Op::FpIsNaN, true) => NAN_DISTANCE.sqrt(),
            _ => 1.0,
        }
    }
}

/// Host arithmetic where it is exact: binary32/binary64 in
/// roundTiesToEven. None when the generic evaluator must run.
fn fast(op: &Op, args: &[usize], vals: &[Value]) -> Option<Value> {
    let rne = |k: usize| matches!(vals[args[k]], Value::Rm(RoundingMode::NearestTiesToEven));
    let f = |k: usize| match vals[args[k]] {
        Value::Fp(x) => Some(x),
        _ => None,
    };
    let out = match op {
        Op::FpAdd | Op::FpSub | Op::FpMul | Op::FpDiv if rne(0) => {
            let (x, y) = (f(1)?, f(2)?);
            if let (Some(x), Some(y)) = (x.to_f64(), y.to_f64()) {
                Float::from_f64(match op {
                    Op::FpAdd => x + y,
                    Op::FpSub => x - y,
                    Op::FpMul => x * y,
                    _ => x / y,
                })
            } else if let (Some(x), Some(y)) = (x.to_f32(), y.to_f32()) {
                Float::from_f32(match op {
                    Op::FpAdd => x + y,
                    Op::FpSub => x - y,
                    Op::FpMul => x * y,
                    _ => x / y,
                })
            } else {
                return None;
            }
        }
        Op::FpSqrt if rne(0) => {
            let x = f(1)?;
            if let Some(x) = x.to_f64() {
                Float::from_f64(x.sqrt())
            } else {
                Float::from_f32(x.to_f32()?.sqrt())
            }
        }
        Op::FpNeg => f(0)?.neg(),
        Op::FpAbs => f(0)?.abs(),
        Op::FpLt | Op::FpLeq | Op::FpGt | Op::FpGeq | Op::FpEq => {
            let (x, y) = (f(0)?, f(1)?);
            let c = x.ieee_cmp(y);
            return Some(Value::Bool(match op {
                Op::FpLt => c.is_some_and(|o| o.is_lt()),
                Op::FpLeq => c.is_some_and(|o| o.is_le()),
                Op::FpGt => c.is_some_and(|o| o.is_gt()),
                Op::FpGeq => c.is_some_and(|o| o.is_ge()),
                _ => c.is_some_and(|o| o.is_eq()),
            }));
        }
        _ => return None,
    };
    Some(Value::Fp(out))
}

fn fp(v: Value) -> Option<Float> {
    match v {
        Value::Fp(x) if !x.is_nan() => Some(x),
        _ => None,
    }
}

/// The ordinal with both zeros at 0 (so that `-0` and `+0`, equal under
/// IEEE comparison, are at distance 0).
fn ord0(x: Float) -> i128 {
    let o = x.ordinal().unwrap_or(0);
    if o < 0 {
        o + 1
    } else {
        o
    }
}

fn is_fp_compare(op: &Op) -> bool {
    matches!(op, Op::FpLt | Op::FpLeq | Op::FpGt | Op::FpGeq | Op::FpEq)
}

fn is_bv_compare(op: &Op) -> bool {
    matches!(
        op,
        Op::BvUlt | Op::BvUle | Op::BvUgt | Op::BvUge | Op::BvSlt | Op::BvSle | Op::BvSgt | Op::BvSge
    )
}

/// Distance for an IEEE comparison `x op y` that does not have the truth
/// value `want`, in ordinals (ulp steps).
fn compare_distance(op: &Op, want: bool, x: Value, y: Value) -> f64 {
    let (Some(x), Some(y)) = (fp(x), fp(y)) else {
        // A NaN operand makes every comparison false: only `want = false`
        // holds then, and this is `want = true`.
        return NAN_DISTANCE;
    };
    let (a, b) = (ord0(x), ord0(y));
    // Normalise to `a < b` / `a <= b` / `a = b` wanted true, or their negations.
    // Differences in integers: ordinals of binary64 exceed f64's 53 bits.
    let gap = match (op, want) {
        (Op::FpLt, true) | (Op::FpGeq, false) => a - b + 1,
        (Op::FpLeq, true) | (Op::FpGt, false) => a - b,
        (Op::FpGt, true) | (Op::FpLeq, false) => b - a + 1,
        (Op::FpGeq, true) | (Op::FpLt, false) => b - a,
        (Op::FpEq, true) => (a - b).abs(),
        _ => 1, // fp.eq wanted false: one step away
    };
    gap.max(1) as f64
}

/// Distance for a bit-vector comparison that does not have the truth value
/// `want`.
fn bv_compare_distance(op: &Op, want: bool, x: Value, y: Value) -> f64 {
    let (Some(x), Some(y)) = (x.as_bv(), y.as_bv()) else {
        return 1.0;
    };
    let signed = matches!(op, Op::BvSlt | Op::BvSle | Op::BvSgt | Op::BvSge);
    let (a, b) = if signed {
        (x.signed(), y.signed())
    } else if x.width() < 127 {
        (x.bits() as i128, y.bits() as i128)
    } else {
        // 127 or 128 bits: halves, to stay in i128.
        ((x.bits() >> 1) as i128, (y.bits() >> 1) as i128)
    };
    let gap = match (op, want) {
        (Op::BvUlt | Op::BvSlt, true) | (Op::BvUge | Op::BvSge, false) => a.saturating_sub(b).saturating_add(1),
        (Op::BvUle | Op::BvSle, true) | (Op::BvUgt | Op::BvSgt, false) => a.saturating_sub(b),
        (Op::BvUgt | Op::BvSgt, true) | (Op::BvUle | Op::BvSle, false) => b.saturating_sub(a).saturating_add(1),
        _ => b.saturating_sub(a),
    };
    gap.max(1) as f64
}

/// Distance for `x = y` (SMT-LIB equality) that does not hold.
fn value_distance(x: Value, y: Value) -> f64 {
    match (x, y) {
        (Value::Fp(p), Value::Fp(q)) => match (p.ordinal(), q.ordinal()) {
            (Some(a), Some(b)) => ((a - b) as f64).abs().max(1.0),
            _ => NAN_DISTANCE,
        },
        (Value::Bv(p), Value::Bv(q)) => p.bits().abs_diff(q.bits()).max(1) as f64,
        _ => 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fpsym_expr::{eval, Format};

    fn f64v(x: f64) -> Term {
        Term::fp(Float::from_f64(x))
    }

    /// Host evaluation agrees with `fpsym_expr::eval` on random binary64
    /// values and every rounding mode (the generic path for non-RNE).
    #[test]
    fn host_evaluation_agrees_with_exact_evaluation() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let x = Term::var("x", Sort::Float(Format::BINARY64));
        let y = Term::var("y", Sort::Float(Format::BINARY32));
        for rm in [RoundingMode::NearestTiesToEven, RoundingMode::TowardNegative] {
            let r = Term::rm(rm);
            let x2 = Term::mk(Op::FpMul, vec![r.clone(), x.clone(), x.clone()]);
            let s = Term::mk(Op::FpAdd, vec![r.clone(), x2.clone(), f64v(0.1)]);
            let q = Term::mk(
                Op::FpDiv,
                vec![r.clone(), s.clone(), Term::mk(Op::FpSqrt, vec![r.clone(), x.clone()])],
            );
            let y2 = Term::mk(Op::FpSub, vec![r.clone(), y.clone(), Term::fp(Float::from_f32(1.5))]);
            let c = Term::mk(Op::FpLt, vec![q.clone(), f64v(3.0)]);
            let p = Program::new(&[c.clone(), Term::mk(Op::FpIsNegative, vec![y2.clone()])]);
            let mut vals = Vec::new();
            for _ in 0..2000 {
                let a = Float::from_f64(f64::from_bits(rng.gen()));
                let b = Float::from_f32(f32::from_bits(rng.gen()));
                let assign: Vec<Value> = p
                    .vars()
                    .iter()
                    .map(|v| if v == &x { Value::Fp(a) } else { Value::Fp(b) })
                    .collect();
                p.eval(&assign, &mut vals).unwrap();
                let mut m = fpsym_expr::Model::new();
                m.insert(x.clone(), Value::Fp(a));
                m.insert(y.clone(), Value::Fp(b));
                assert_eq!(vals[p.roots[0]], eval(&c, &m).unwrap());
                let d = p.distance(&vals);
                let sat =
                    eval(&c, &m).unwrap().as_bool().unwrap() && b.sub(Float::from_f32(1.5), rm).value.is_negative();
                assert_eq!(d == 0.0, sat, "distance {d} for x = {a:?}, y = {b:?}");
            }
        }
    }

    /// The distance of `x < c` shrinks as `x` moves towards `c`, and is 0
    /// exactly when it holds; `-0 < +0` does not hold.
    #[test]
    fn distances_are_ordinal() {
        let x = Term::var("x", Sort::Float(Format::BINARY64));
        let lt = Term::mk(Op::FpLt, vec![x.clone(), f64v(1.0)]);
        let p = Program::new(&[lt]);
        let mut vals = Vec::new();
        let d = |v: f64, vals: &mut Vec<Value>| {
            p.eval(&[Value::Fp(Float::from_f64(v))], vals).unwrap();
            p.distance(vals)
        };
        assert_eq!(d(0.5, &mut vals), 0.0);
        assert_eq!(d(1.0, &mut vals), 1.0);
        assert_eq!(d(f64::from_bits(1.0f64.to_bits() + 1), &mut vals), 2.0);
        assert!(d(2.0, &mut vals) < d(4.0, &mut vals));
        assert_eq!(d(f64::NAN, &mut vals), NAN_DISTANCE);
        let z = Term::mk(Op::FpLt, vec![x.clone(), f64v(0.0)]);
        let p = Program::new(&[z]);
        p.eval(&[Value::Fp(Float::from_f64(-0.0))], &mut vals).unwrap();
        assert_eq!(p.distance(&vals), 1.0);
    }
}
