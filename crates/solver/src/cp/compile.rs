//! Compiling a [`Query`] into a constraint network: one CP variable per
//! distinct subterm (a DAG node, memoised by term id), constants as fixed
//! domains, one propagator per operation node, assertions fixed to true.

use crate::cp::domain::Domain;
use crate::Query;
use fpsym_expr::{fold, Op, Sort, Term, Value};
use std::collections::HashMap;

/// Index of a CP variable.
pub(crate) type VarId = u32;

/// A propagator: `res = op(args)`.
#[derive(Clone, Debug)]
pub(crate) struct Prop {
    pub op: Op,
    pub args: Vec<VarId>,
    pub res: VarId,
    /// The first two float operands are the same variable (see `prop::Ctx::tie`).
    pub tie: bool,
}

/// The propagator for `op(args)`: `x + (-x)` becomes `x - x` and `x - (-x)`
/// becomes `x + x` (identical in IEEE arithmetic, including signed zeros and
/// NaN), so that the diagonal projections apply; marks ties.
fn shape(u: &Term, mut op: Op, mut args: Vec<VarId>) -> (Op, Vec<VarId>, bool) {
    if matches!(op, Op::FpAdd | Op::FpSub) {
        let (a, b) = (&u.args()[1], &u.args()[2]);
        if matches!(b.op(), Op::FpNeg) && b.args()[0] == *a {
            op = if matches!(op, Op::FpAdd) { Op::FpSub } else { Op::FpAdd };
            args[2] = args[1];
        }
    }
    let first = match op {
        Op::FpAdd | Op::FpSub | Op::FpMul | Op::FpDiv | Op::FpFma => 1,
        Op::FpMin | Op::FpMax => 0,
        _ => return (op, args, false),
    };
    let tie = args[first] == args[first + 1];
    (op, args, tie)
}

/// The compiled network.
#[derive(Clone, Debug, Default)]
pub(crate) struct Csp {
    /// Initial domains.
    pub doms: Vec<Domain>,
    /// Sort of every variable.
    pub sorts: Vec<Sort>,
    /// Propagators.
    pub props: Vec<Prop>,
    /// For each variable, the propagators mentioning it.
    pub watch: Vec<Vec<u32>>,
    /// The free variables of the query with their CP variable, in
    /// first-occurrence order.
    pub inputs: Vec<(VarId, Term)>,
    /// Boolean variables that are results of operations (search may branch on them).
    pub inner_bools: Vec<VarId>,
    /// The (folded) assertions.
    pub assertions: Vec<Term>,
    /// An assertion folded to false.
    pub trivially_false: bool,
    /// Propagators the global order check reads.
    pub order_props: Vec<u32>,
    /// The term of every variable (for debugging with a witness model).
    pub terms: Vec<Option<Term>>,
    /// Per variable: a bit-vector input that only names a float's bits
    /// (see [`bit_names`]); search branches on it last.
    pub deferred: Vec<bool>,
}

/// The bit-vector variables `b` that an assertion `to_fp(b) = x` (alone,
/// or as the else branch of `ite(isNaN x, b = NaN, to_fp(b) = x)`, the
/// engine's encoding of a float stored as bytes) ties to a float term `x`
/// without `b`: each is determined by the variables of `x`, so branching
/// on its 2^32 or 2^64 values before theirs only multiplies the search.
fn bit_names(assertions: &[Term]) -> std::collections::HashSet<u64> {
    let mut out = std::collections::HashSet::new();
    for a in assertions {
        let eq = match a.op() {
            Op::Ite => a.args().get(2),
            Op::Eq => Some(a),
            _ => None,
        };
        let Some(e) = eq.filter(|e| matches!(e.op(), Op::Eq) && e.args().len() == 2) else {
            continue;
        };
        for (l, r) in [(&e.args()[0], &e.args()[1]), (&e.args()[1], &e.args()[0])] {
            if let (Op::ToFpFromBits(_), [b]) = (l.op(), l.args()) {
                if b.var_name().is_some() && !r.vars().contains(b) {
                    out.insert(b.id());
                }
            }
        }
    }
    out
}

impl Csp {
    /// Compiles `q`.
    pub(crate) fn new(q: &Query) -> Csp {
        Csp::with_terms(q, &[]).0
    }

    /// Compiles `q` with the terms `extra` as variables of the network
    /// too (constrained by nothing but their definitions): the network,
    /// and the variable of each extra term.
    pub(crate) fn with_terms(q: &Query, extra: &[Term]) -> (Csp, Vec<VarId>) {
        let mut csp = Csp::default();
        let mut memo: HashMap<u64, VarId> = HashMap::new();
        let mut roots = Vec::new();
        for a in &q.assertions {
            let a = fold(a);
            match a.as_const() {
                Some(Value::Bool(true)) => continue,
                Some(Value::Bool(false)) => {
                    csp.trivially_false = true;
                    continue;
                }
                _ => {}
            }
            let v = csp.add_term(&a, &mut memo);
            roots.push(v);
            csp.assertions.push(a);
        }
        for r in roots {
            let d = csp.doms[r as usize].intersect(&Domain::point(Value::Bool(true)));
            csp.doms[r as usize] = d;
        }
        let extra: Vec<VarId> = extra.iter().map(|t| csp.add_term(&fold(t), &mut memo)).collect();
        // inputs the folded assertions no longer mention still need a value
        for v in q.vars() {
            if !csp.inputs.iter().any(|(_, t)| *t == v) {
                let id = csp.new_var(Domain::full(v.sort()), v.sort());
                csp.inputs.push((id, v));
            }
        }
        let bits = bit_names(&csp.assertions);
        csp.deferred = vec![false; csp.doms.len()];
        for (v, t) in &csp.inputs {
            csp.deferred[*v as usize] = bits.contains(&t.id());
        }
        (csp, extra)
    }

    fn new_var(&mut self, d: Domain, s: Sort) -> VarId {
        self.terms.push(None);
        self.doms.push(d);
        self.sorts.push(s);
        self.watch.push(Vec::new());
        (self.doms.len() - 1) as VarId
    }

    fn add_term(&mut self, t: &Term, memo: &mut HashMap<u64, VarId>) -> VarId {
        // explicit post-order stack: path conditions can be very deep
        let mut stack: Vec<(Term, bool)> = vec![(t.clone(), false)];
        while let Some((u, ready)) = stack.pop() {
            if memo.contains_key(&u.id()) {
                continue;
            }
            if let Some(v) = u.as_const() {
                let id = self.new_var(Domain::point(v), u.sort());
                self.terms[id as usize] = Some(u.clone());
                memo.insert(u.id(), id);
                continue;
            }
            if u.var_name().is_some() {
                let id = self.new_var(Domain::full(u.sort()), u.sort());
                self.terms[id as usize] = Some(u.clone());
                self.inputs.push((id, u.clone()));
                memo.insert(u.id(), id);
                continue;
            }
            if !ready {
                stack.push((u.clone(), true));
                for a in u.args().iter().rev() {
                    if !memo.contains_key(&a.id()) {
                        stack.push((a.clone(), false));
                    }
                }
                continue;
            }
            let args: Vec<VarId> = u.args().iter().map(|a| memo[&a.id()]).collect();
            let (op, args, tie) = shape(&u, u.op().clone(), args);
            let res = self.new_var(Domain::full(u.sort()), u.sort());
            if u.sort() == Sort::Bool {
                self.inner_bools.push(res);
            }
            let pid = self.props.len() as u32;
            let float_args = args
                .first()
                .is_some_and(|&a| matches!(self.sorts[a as usize], Sort::Float(_)));
            if crate::cp::order::relevant(&op, float_args) {
                self.order_props.push(pid);
            }
            for &a in args.iter().chain(std::iter::once(&res)) {
                let w = &mut self.watch[a as usize];
                if w.last() != Some(&pid) {
                    w.push(pid);
                }
            }
            self.props.push(Prop { op, args, res, tie });
            self.terms[res as usize] = Some(u.clone());
            memo.insert(u.id(), res);
        }
        memo[&t.id()]
    }
}
