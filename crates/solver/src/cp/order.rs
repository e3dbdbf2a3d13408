//! A global order check over float variables, run whenever propagation
//! reaches a fixpoint.
//!
//! Interval propagation decides `x < y ∧ y < x` only by removing one float
//! per round (slow convergence, which the relative ε rule then stops), and
//! splitting domains cannot refute it either: every half is again
//! interval-consistent. This check collects the order relations the current
//! domains entail between float variables — decided comparisons, `fp.eq`,
//! `=`, `z = x ± y` with `y` of known sign, `x - y ∈ {±0}`, `min`, `max`,
//! `abs` — as a graph on IEEE comparison keys (ordinals with both zeros equal)
//! and computes its strongly connected components: a component containing a
//! strict edge or a disequality is a contradiction; the members of a
//! component have equal keys, so their domains are intersected.
//!
//! Every edge is valid in every solution inside the current domains (edges
//! are taken only when their endpoints cannot be NaN there), so the check is
//! sound.

use crate::cp::compile::{Csp, VarId};
use crate::cp::domain::{key, key_hi, key_lo, Domain};
use fpsym_expr::Op;
use fpsym_float::FloatInterval;
use std::collections::HashMap;

/// An edge `key(a) <= key(b)` (strict: `<`).
#[derive(Clone, Copy, Debug)]
struct Edge {
    a: VarId,
    b: VarId,
    strict: bool,
}

fn fp(doms: &[Domain], v: VarId) -> Option<&FloatInterval> {
    doms[v as usize].as_fp()
}

fn non_nan(doms: &[Domain], v: VarId) -> bool {
    fp(doms, v).is_some_and(|x| !x.may_be_nan() && x.bounds().is_some())
}

/// Key bounds of a non-NaN float domain.
fn keys(doms: &[Domain], v: VarId) -> Option<(i128, i128)> {
    fp(doms, v).and_then(|x| x.bounds()).map(|(l, h)| (key(l), key(h)))
}

/// For `z = a + d` (or `a - d` when `negate`): whether `z >= a` is entailed
/// (`Some(strict)`), and whether `z <= a` is. With `d >= +0`, `z >= a`; it is
/// strict when `a` is finite and `d >= +0` is at least the largest gap from a
/// member of `a`'s domain to its neighbour toward `+inf`: then `a + d` reaches
/// that neighbour (exactly representable) whatever the rounding, so nothing is
/// absorbed. Gaps grow with magnitude, so the largest is at an endpoint.
fn shift(doms: &[Domain], a: VarId, d: VarId, negate: bool) -> (Option<bool>, Option<bool>) {
    use fpsym_float::{Float, RoundingMode};
    let (Some(xa), Some(xd)) = (fp(doms, a), fp(doms, d)) else {
        return (None, None);
    };
    let (Some((al, ah)), Some((dl, dh))) = (xa.bounds(), xd.bounds()) else {
        return (None, None);
    };
    let (dl, dh) = if negate { (dh.neg(), dl.neg()) } else { (dl, dh) };
    let finite = al.is_finite() && ah.is_finite();
    let rne = RoundingMode::NearestTiesToEven;
    // gap from v to its neighbour upward / downward (exact: a power of two).
    // None when that neighbour is an infinity: beyond the largest finite
    // value a directed rounding saturates (-max + -max rounds up to -max),
    // so the sum may equal v and the edge is not strict.
    let gap_up = |v: Float| {
        if v.sign() {
            v.succ().map(|s| s.sub(v, rne).value)
        } else if v.succ().is_some_and(|s| s.is_finite()) {
            Some(v.ulp())
        } else {
            None
        }
    };
    let gap_down = |v: Float| {
        if !v.sign() {
            v.pred().map(|p| v.sub(p, rne).value)
        } else if v.pred().is_some_and(|p| p.is_finite()) {
            Some(v.ulp())
        } else {
            None
        }
    };
    let wider = |a: Option<Float>, b: Option<Float>| match (a, b) {
        (Some(a), Some(b)) => Some(if key(a) >= key(b) { a } else { b }),
        _ => None,
    };
    let need_up = if finite { wider(gap_up(al), gap_up(ah)) } else { None };
    let need_down = if finite {
        wider(gap_down(al), gap_down(ah))
    } else {
        None
    };
    let covers = |v: Float, need: Option<Float>| {
        v.is_finite() && !v.is_zero() && need.is_some_and(|n| key(v.abs()) >= key(n.abs()))
    };
    let up = (key(dl) >= 0).then(|| key(dl) > 0 && covers(dl, need_up));
    let down = (key(dh) <= 0).then(|| key(dh) < 0 && covers(dh, need_down));
    (up, down)
}

/// Collects edges and disequalities from the propagators `rel` (indices of
/// order-relevant propagators).
fn collect(csp: &Csp, rel: &[u32], doms: &[Domain], edges: &mut Vec<Edge>, neqs: &mut Vec<(VarId, VarId)>) {
    let mut le = |a: VarId, b: VarId, strict: bool| edges.push(Edge { a, b, strict });
    for &p in rel {
        let pr = &csp.props[p as usize];
        let b = doms[pr.res as usize].as_bool().and_then(|s| s.as_point());
        match &pr.op {
            Op::FpEq if b == Some(false) => {
                let (x, y) = (pr.args[0], pr.args[1]);
                if non_nan(doms, x) && non_nan(doms, y) {
                    neqs.push((x, y))
                }
            }
            Op::FpLeq | Op::FpLt | Op::FpGeq | Op::FpGt | Op::FpEq | Op::Eq => {
                if let Some(b) = b {
                    let ordered = non_nan(doms, pr.args[0]) && non_nan(doms, pr.args[1]);
                    comparison(&pr.op, &pr.args, b, ordered, &mut le);
                }
            }
            Op::FpAdd | Op::FpSub if non_nan(doms, pr.res) => {
                let (x, y, z) = (pr.args[1], pr.args[2], pr.res);
                let sub = matches!(pr.op, Op::FpSub);
                // z = x + y: y >= 0 gives z >= x, y <= 0 gives z <= x, strictly
                // when y cannot be absorbed (and symmetrically in x)
                let mut pairs = vec![(x, y, sub)];
                if !sub {
                    pairs.push((y, x, false));
                }
                for (a, d, negate) in pairs {
                    let (up, down) = shift(doms, a, d, negate);
                    if let Some(strict) = up {
                        le(a, z, strict);
                    }
                    if let Some(strict) = down {
                        le(z, a, strict);
                    }
                }
                if sub && keys(doms, z).is_some_and(|(l, h)| l == 0 && h == 0) {
                    // x - y = ±0 exactly: x and y are finite and equal
                    le(x, y, false);
                    le(y, x, false);
                }
            }
            Op::FpMin | Op::FpMax if non_nan(doms, pr.args[0]) && non_nan(doms, pr.args[1]) => {
                for &a in &pr.args {
                    if matches!(pr.op, Op::FpMin) {
                        le(pr.res, a, false);
                    } else {
                        le(a, pr.res, false);
                    }
                }
            }
            Op::FpAbs if non_nan(doms, pr.args[0]) => le(pr.args[0], pr.res, false),
            _ => {}
        }
    }
}

/// The order a decided comparison `op(x, y) = b` entails: `le(a, c, strict)`
/// for each `a <= c` (`a < c` when strict). A false one entails an order only
/// when neither operand is NaN (`ordered`); a false equality entails none.
/// Shared with the linear relaxation (`cp::linear`).
pub(crate) fn comparison(op: &Op, args: &[VarId], b: bool, ordered: bool, mut le: impl FnMut(VarId, VarId, bool)) {
    let (x, y) = (args[0], args[1]);
    match op {
        Op::FpLeq | Op::FpLt | Op::FpGeq | Op::FpGt => {
            let (x, y) = if matches!(op, Op::FpGeq | Op::FpGt) {
                (y, x)
            } else {
                (x, y)
            };
            let strict = matches!(op, Op::FpLt | Op::FpGt);
            if b {
                le(x, y, strict);
            } else if ordered {
                le(y, x, !strict);
            }
        }
        Op::FpEq | Op::Eq if b => {
            le(x, y, false);
            le(y, x, false);
        }
        _ => {}
    }
}

/// Whether a propagator can contribute order edges.
pub(crate) fn relevant(op: &Op, arg_is_float: bool) -> bool {
    match op {
        Op::FpLeq
        | Op::FpLt
        | Op::FpGeq
        | Op::FpGt
        | Op::FpEq
        | Op::FpAdd
        | Op::FpSub
        | Op::FpMin
        | Op::FpMax
        | Op::FpAbs => true,
        Op::Eq => arg_is_float,
        _ => false,
    }
}

/// Runs the check; returns the narrowings it proposes (applied by the engine
/// under the relative ε rule for indirect projections), or None on a
/// contradiction.
pub(crate) fn check(csp: &Csp, rel: &[u32], doms: &[Domain]) -> Option<Vec<(VarId, Domain)>> {
    let mut edges = Vec::new();
    let mut neqs = Vec::new();
    collect(csp, rel, doms, &mut edges, &mut neqs);
    if neqs.iter().any(|(a, b)| a == b) {
        return None;
    }
    if edges.is_empty() {
        return Some(vec![]);
    }
    // dense node numbering
    let mut idx: HashMap<VarId, usize> = HashMap::new();
    let mut nodes: Vec<VarId> = Vec::new();
    for e in &edges {
        for v in [e.a, e.b] {
            idx.entry(v).or_insert_with(|| {
                nodes.push(v);
                nodes.len() - 1
            });
        }
    }
    let n = nodes.len();
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in &edges {
        adj[idx[&e.a]].push(idx[&e.b]);
    }
    let comp = tarjan(&adj);
    for e in &edges {
        if e.strict && comp[idx[&e.a]] == comp[idx[&e.b]] {
            return None;
        }
    }
    for (a, b) in &neqs {
        if let (Some(&i), Some(&j)) = (idx.get(a), idx.get(b)) {
            if comp[i] == comp[j] {
                return None;
            }
        }
    }
    // members of a component have equal keys
    let mut ranges: HashMap<usize, (i128, i128, usize)> = HashMap::new();
    for (i, &v) in nodes.iter().enumerate() {
        let Some((l, h)) = keys(doms, v) else { continue };
        let r = ranges.entry(comp[i]).or_insert((i128::MIN, i128::MAX, 0));
        r.0 = r.0.max(l);
        r.1 = r.1.min(h);
        r.2 += 1;
    }
    let mut changed = Vec::new();
    for (i, &v) in nodes.iter().enumerate() {
        let Some(&(lo, hi, count)) = ranges.get(&comp[i]) else {
            continue;
        };
        if count < 2 {
            continue;
        }
        let Some(x) = fp(doms, v).copied() else { continue };
        // in a solution either every member is NaN (a component of `=`
        // edges only) or none is: the NaN flag stays as it is
        let fmt = x.format();
        let keep = if lo > hi {
            FloatInterval::empty(fmt)
        } else {
            FloatInterval::new(key_lo(fmt, lo), key_hi(fmt, hi), false)
        };
        let nx = x.without_nan().intersect(&keep).with_nan(x.may_be_nan());
        if nx.is_empty() {
            return None;
        }
        if nx != x {
            changed.push((v, Domain::Fp(nx)));
        }
    }
    Some(changed)
}

/// Strongly connected components (iterative Tarjan); returns a component id per node.
fn tarjan(adj: &[Vec<usize>]) -> Vec<usize> {
    let n = adj.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut comp = vec![usize::MAX; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut next = 0usize;
    let mut ncomp = 0usize;
    for s in 0..n {
        if index[s] != usize::MAX {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(s, 0)];
        index[s] = next;
        low[s] = next;
        next += 1;
        stack.push(s);
        on_stack[s] = true;
        while let Some(&mut (v, ref mut i)) = call.last_mut() {
            if *i < adj[v].len() {
                let w = adj[v][*i];
                *i += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(u, _)) = call.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    loop {
                        let w = stack.pop().unwrap();
                        on_stack[w] = false;
                        comp[w] = ncomp;
                        if w == v {
                            break;
                        }
                    }
                    ncomp += 1;
                }
            }
        }
    }
    comp
}

#[cfg(test)]
mod tests {
    use super::tarjan;

    #[test]
    fn components() {
        // 0 -> 1 -> 2 -> 0, 2 -> 3
        let c = tarjan(&[vec![1], vec![2], vec![0, 3], vec![]]);
        assert_eq!(c[0], c[1]);
        assert_eq!(c[1], c[2]);
        assert_ne!(c[2], c[3]);
    }
}
