//! Bound tightening by a linear relaxation of the network (after the
//! linear relaxations of FP operations of Belaid, Michel and Rueher, the
//! line of work of seed 001).
//!
//! Interval propagation reasons about one operation at a time, so it cannot
//! see that `a <= fl(b + c)` keeps `fl((a + b + c) / 2) - a` within a few
//! ulps of 0 (heron's critical query, bench/critical): that bound is
//! relational. Here every operation whose operands and result have finite,
//! NaN-free domains becomes linear rows over the real numbers: the exact
//! result `p` of `z = fl(p)` in a round-to-nearest mode is within half an
//! ulp of `z`, so `|p - z| <= D` with `D` half the ulp of the binade of
//! `max|z|` over `z`'s domain. `p` is `x ± y`, `k·x`, `x / k` or `x` (a
//! conversion); a product `x·y` is bounded by its four McCormick planes over
//! the operands' boxes. Decided comparisons and equalities are rows too.
//!
//! Each float variable of the rows is then minimized and maximized by the
//! exact LP solver ([`crate::cp::lp`]), whose bounds are certified, and its
//! domain is cut to the floats inside: every solution of the network lies in
//! the relaxation, so no solution is lost.

use crate::cp::compile::{Csp, VarId};
use crate::cp::domain::Domain;
use crate::cp::lp::{Bound, Lp, Simplex, Q};
use crate::Budget;
use fpsym_expr::Op;
use fpsym_float::{Float, FloatInterval, Format, RoundingMode};
use num_traits::{One, Signed, Zero};
use std::collections::HashMap;

/// Relaxations larger than this are not built (the dense exact simplex is
/// cubic in the size).
const MAX_VARS: usize = 80;

/// The relaxation under construction: LP columns for CP variables.
struct Builder<'a> {
    doms: &'a [Domain],
    lp: Lp,
    col: HashMap<VarId, usize>,
    vars: Vec<VarId>,
}

/// A linear expression over CP variables with a constant.
type Lin = (Vec<(VarId, Q)>, Q);

/// The exact bounds of a finite, NaN-free float domain.
fn finite(doms: &[Domain], v: VarId) -> Option<(Q, Q)> {
    let x = doms[v as usize].as_fp()?;
    if x.may_be_nan() {
        return None;
    }
    let (l, h) = x.bounds()?;
    Some((l.to_rational()?, h.to_rational()?))
}

impl<'a> Builder<'a> {
    fn column(&mut self, v: VarId) -> usize {
        if let Some(&c) = self.col.get(&v) {
            return c;
        }
        let (l, h) = finite(self.doms, v).expect("checked by the caller");
        let c = self.vars.len();
        self.col.insert(v, c);
        self.vars.push(v);
        self.lp.lo.push(l);
        self.lp.hi.push(h);
        c
    }

    /// Adds `Σ lin <= 0`; variables with one value are constants.
    fn le0(&mut self, lin: Lin) {
        let (terms, mut k) = lin;
        let mut coefs: Vec<(usize, Q)> = Vec::new();
        for (v, a) in terms {
            if a.is_zero() {
                continue;
            }
            if let Some(x) = self.point(v) {
                k += a * x;
                continue;
            }
            let c = self.column(v);
            match coefs.iter_mut().find(|(j, _)| *j == c) {
                Some((_, b)) => *b += a,
                None => coefs.push((c, a)),
            }
        }
        if coefs.is_empty() {
            // a constant row: keep it only if false (it proves infeasibility)
            if !k.is_positive() {
                return;
            }
        }
        self.lp.le(coefs, -k);
    }

    /// The bound `D` on the rounding error `|p - z|` of `z = round(p)` in a
    /// round-to-nearest mode, over `z`'s finite domain: half an ulp of the
    /// binade of `M = max|z|`, `2^(e(M) - precision)` (`e` the exponent,
    /// `emin` for subnormals and 0). Rounding is monotone and powers of two
    /// are floats, so `p` lies in a binade no higher than `z`'s; a `p` past
    /// the largest float that rounds to it is within half an ulp of it too.
    /// A power of two: the rows stay dyadic, which keeps the exact simplex's
    /// numbers small (a relative bound `(1 ± 2^-p)·z` makes them grow).
    fn error(&self, z: VarId) -> Option<Q> {
        let x = self.doms[z as usize].as_fp()?;
        let (l, h) = x.bounds()?;
        let fmt = x.format();
        let m = if l.abs().ordinal() > h.abs().ordinal() {
            l.abs()
        } else {
            h.abs()
        };
        let e = m.exponent().unwrap_or(fmt.emin()) - fmt.sb() as i64;
        Some(Q::from_integer(2.into()).pow(e as i32))
    }

    /// `z - D <= p <= z + D` for the exact result `p` (linear) of
    /// `z = round(p)` ([`Builder::error`]).
    fn rounded(&mut self, z: VarId, p: &[(VarId, Q)]) {
        let Some(d) = self.error(z) else { return };
        // z - p - D <= 0
        let mut lo: Vec<(VarId, Q)> = vec![(z, Q::one())];
        lo.extend(p.iter().map(|(v, c)| (*v, -c.clone())));
        self.le0((lo, -d.clone()));
        // p - z - D <= 0
        let mut hi: Vec<(VarId, Q)> = p.to_vec();
        hi.push((z, -Q::one()));
        self.le0((hi, -d));
    }

    /// `z = round(x·y)`: the four McCormick planes of `x·y` over the
    /// operands' boxes, with `x·y` within `D` of `z`.
    fn product(&mut self, z: VarId, x: VarId, y: VarId) {
        let (Some((xl, xh)), Some((yl, yh)), Some(d)) = (finite(self.doms, x), finite(self.doms, y), self.error(z))
        else {
            return;
        };
        let one = Q::one();
        // x·y >= xb·y + yb·x - xb·yb (two planes) and x·y <= z + D
        for (xb, yb) in [(&xl, &yl), (&xh, &yh)] {
            self.le0((
                vec![(y, xb.clone()), (x, yb.clone()), (z, -one.clone())],
                -(xb * yb) - &d,
            ));
        }
        // x·y <= xb·y + yb·x - xb·yb (two planes) and x·y >= z - D
        for (xb, yb) in [(&xh, &yl), (&xl, &yh)] {
            self.le0((vec![(z, one.clone()), (y, -xb.clone()), (x, -yb.clone())], xb * yb - &d));
        }
    }

    fn usable(&self, vs: &[VarId]) -> bool {
        vs.iter().all(|&v| finite(self.doms, v).is_some())
    }

    fn nearest(&self, rm: VarId) -> bool {
        self.doms[rm as usize]
            .as_rm()
            .and_then(|r| r.as_point())
            .is_some_and(|r| matches!(r, RoundingMode::NearestTiesToEven | RoundingMode::NearestTiesToAway))
    }

    fn point(&self, v: VarId) -> Option<Q> {
        let (l, h) = finite(self.doms, v)?;
        (l == h).then_some(l)
    }

    /// The rows of one propagator, if it has any.
    fn add(&mut self, op: &Op, args: &[VarId], res: VarId) {
        let one = || Q::one();
        match op {
            Op::FpAdd | Op::FpSub if self.nearest(args[0]) && self.usable(&[args[1], args[2], res]) => {
                let s = if matches!(op, Op::FpAdd) { one() } else { -one() };
                let p = if args[1] == args[2] {
                    vec![(args[1], one() + s)]
                } else {
                    vec![(args[1], one()), (args[2], s)]
                };
                self.rounded(res, &p);
            }
            Op::FpMul if self.nearest(args[0]) && self.usable(&[args[1], args[2], res]) => {
                if let Some(k) = self.point(args[1]) {
                    self.rounded(res, &[(args[2], k)]);
                } else if let Some(k) = self.point(args[2]) {
                    self.rounded(res, &[(args[1], k)]);
                } else if args[1] != args[2] {
                    self.product(res, args[1], args[2]);
                }
            }
            Op::FpDiv if self.nearest(args[0]) && self.usable(&[args[1], args[2], res]) => {
                if let Some(k) = self.point(args[2]).filter(|k| !k.is_zero()) {
                    self.rounded(res, &[(args[1], k.recip())]);
                }
            }
            Op::ToFpFromFp(_) if self.nearest(args[0]) && self.usable(&[args[1], res]) => {
                self.rounded(res, &[(args[1], one())]);
            }
            Op::FpNeg if self.usable(&[args[0], res]) => {
                self.le0((vec![(res, one()), (args[0], one())], Q::zero()));
                self.le0((vec![(res, -one()), (args[0], -one())], Q::zero()));
            }
            Op::FpAbs if self.usable(&[args[0], res]) => {
                self.le0((vec![(args[0], one()), (res, -one())], Q::zero()));
                self.le0((vec![(args[0], -one()), (res, -one())], Q::zero()));
            }
            Op::FpLeq | Op::FpLt | Op::FpGeq | Op::FpGt | Op::FpEq | Op::Eq
                if args.len() == 2 && self.usable(&[args[0], args[1]]) =>
            {
                let Some(b) = self.doms[res as usize].as_bool().and_then(|b| b.as_point()) else {
                    return;
                };
                // operands are NaN-free (usable): a false comparison is the opposite order
                crate::cp::order::comparison(op, args, b, true, |x, y, _| {
                    self.le0((vec![(x, one()), (y, -one())], Q::zero()))
                });
            }
            _ => {}
        }
    }
}

/// The smallest float of `fmt` at or above `l` (−0 for 0, so that −0 stays).
fn float_above(fmt: Format, l: &Q) -> Float {
    let f = Float::from_rational(fmt, l, RoundingMode::TowardPositive).value;
    if f.is_zero() {
        Float::zero(fmt, true)
    } else {
        f
    }
}

/// The largest float of `fmt` at or below `h` (+0 for 0).
fn float_below(fmt: Format, h: &Q) -> Float {
    let f = Float::from_rational(fmt, h, RoundingMode::TowardNegative).value;
    if f.is_zero() {
        Float::zero(fmt, false)
    } else {
        f
    }
}

/// What tightening found.
pub(crate) enum Tightened {
    /// The relaxation has no solution: neither has the network.
    Infeasible,
    /// Narrowed domains (possibly none).
    Narrowed(Vec<(VarId, Domain)>),
}

/// Minimizes and maximizes every float variable of the relaxation of the
/// network under `doms`; the domains this narrows. Stops early (with what
/// it has) when `budget` expires.
pub(crate) fn tighten(csp: &Csp, doms: &[Domain], budget: &Budget) -> Tightened {
    let mut b = Builder {
        doms,
        lp: Lp::default(),
        col: HashMap::new(),
        vars: Vec::new(),
    };
    for p in &csp.props {
        b.add(&p.op, &p.args, p.res);
    }
    let mut out = Vec::new();
    if b.lp.rows.is_empty() || b.vars.len() > MAX_VARS {
        return Tightened::Narrowed(out);
    }
    let mut simplex = Simplex::new(&b.lp, budget);
    if simplex.infeasible() {
        return Tightened::Infeasible;
    }
    for (c, &v) in b.vars.iter().enumerate() {
        if budget.expired() {
            break;
        }
        let x = *doms[v as usize].as_fp().expect("float");
        if x.is_point() {
            continue;
        }
        let fmt = x.format();
        let (mut lo, mut hi) = x.bounds().expect("non-empty");
        match simplex.minimize(&[(c, Q::one())]) {
            Bound::Infeasible => return Tightened::Infeasible,
            Bound::AtLeast(l) => lo = float_above(fmt, &l),
            Bound::Unknown => {}
        }
        match simplex.minimize(&[(c, -Q::one())]) {
            Bound::Infeasible => return Tightened::Infeasible,
            Bound::AtLeast(h) => hi = float_below(fmt, &-h),
            Bound::Unknown => {}
        }
        let n = x.intersect(&FloatInterval::new(lo, hi, false));
        if n.is_empty() {
            return Tightened::Infeasible;
        }
        if n != x {
            out.push((v, Domain::Fp(n)));
        }
    }
    Tightened::Narrowed(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cp::engine::Engine;
    use crate::cp::{CpConfig, Stats};
    use crate::Query;
    use fpsym_expr::{eval, Model, Sort, Term, Value};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    struct Gen {
        rng: StdRng,
        fmt: Format,
    }

    fn app(op: Op, args: Vec<Term>) -> Term {
        Term::app(op, args).expect("well-sorted")
    }

    impl Gen {
        fn finite(&mut self) -> Float {
            let max = Float::largest(self.fmt, false).ordinal().unwrap();
            Float::from_ordinal(self.fmt, self.rng.gen_range(-max..=max)).unwrap()
        }
        fn rm(&mut self) -> Term {
            Term::rm(if self.rng.gen_bool(0.85) {
                RoundingMode::NearestTiesToEven
            } else {
                RoundingMode::NearestTiesToAway
            })
        }
        fn float(&mut self, depth: u32) -> Term {
            if depth == 0 || self.rng.gen_bool(0.2) {
                return if self.rng.gen_bool(0.8) {
                    Term::var(["x", "y", "z"][self.rng.gen_range(0..3)], Sort::Float(self.fmt))
                } else {
                    Term::fp(self.finite())
                };
            }
            let d = depth - 1;
            match self.rng.gen_range(0..12) {
                0..=2 => app(Op::FpAdd, vec![self.rm(), self.float(d), self.float(d)]),
                3 | 4 => app(Op::FpSub, vec![self.rm(), self.float(d), self.float(d)]),
                5..=7 => app(Op::FpMul, vec![self.rm(), self.float(d), self.float(d)]),
                8 => {
                    let k = Term::fp(self.finite());
                    app(Op::FpDiv, vec![self.rm(), self.float(d), k])
                }
                9 => app(if self.rng.gen() { Op::FpNeg } else { Op::FpAbs }, vec![self.float(d)]),
                10 => {
                    let inner = app(Op::ToFpFromFp(Format::BINARY16), vec![self.rm(), self.float(d)]);
                    app(Op::ToFpFromFp(self.fmt), vec![self.rm(), inner])
                }
                _ => {
                    let narrow = Format::new(3, 3).unwrap();
                    let inner = app(Op::ToFpFromFp(narrow), vec![self.rm(), self.float(d)]);
                    app(Op::ToFpFromFp(self.fmt), vec![self.rm(), inner])
                }
            }
        }
        fn query(&mut self) -> Vec<Term> {
            let mut out = Vec::new();
            for v in ["x", "y", "z"] {
                let v = Term::var(v, Sort::Float(self.fmt));
                let (a, b) = (self.finite(), self.finite());
                let (lo, hi) = if a.ordinal() <= b.ordinal() { (a, b) } else { (b, a) };
                out.push(app(Op::FpLeq, vec![Term::fp(lo), v.clone()]));
                out.push(app(Op::FpLeq, vec![v, Term::fp(hi)]));
            }
            for _ in 0..self.rng.gen_range(1..=3) {
                let op = [Op::FpLeq, Op::FpLt, Op::FpGeq, Op::FpGt, Op::FpEq, Op::Eq][self.rng.gen_range(0..6)].clone();
                let (l, r) = (self.float(3), self.float(2));
                let c = app(op, vec![l, r]);
                out.push(if self.rng.gen_bool(0.25) { c.not() } else { c });
            }
            out
        }
    }

    /// `x <= y + 0.5`, `y <= z + 0.5`, `z <= x - 1.5` (rounded, binary32)
    /// with `x, y, z` in `[0, 1000]`: propagation shaves 0.5 per round and
    /// the ε rule stops it; the sum of the three rows refutes it at once.
    /// z3 confirms there is no solution.
    #[test]
    fn a_relational_contradiction_is_found_where_propagation_finds_none() {
        let fmt = Format::BINARY32;
        let c = |v: f64| Term::fp(Float::from_f32(v as f32));
        let v = |n: &str| Term::var(n, Sort::Float(fmt));
        let rne = || Term::rm(RoundingMode::NearestTiesToEven);
        let add = |a: Term, k: f64| app(Op::FpAdd, vec![rne(), a, c(k)]);
        let mut q = Vec::new();
        for n in ["x", "y", "z"] {
            q.push(app(Op::FpLeq, vec![c(0.0), v(n)]));
            q.push(app(Op::FpLeq, vec![v(n), c(1000.0)]));
        }
        q.push(app(Op::FpLeq, vec![v("x"), add(v("y"), 0.5)]));
        q.push(app(Op::FpLeq, vec![v("y"), add(v("z"), 0.5)]));
        q.push(app(Op::FpLeq, vec![v("z"), add(v("x"), -1.5)]));
        let q = Query::new(q);
        let mut z3 = crate::build(&crate::SolverConfig::bare(crate::Backend::Z3));
        assert!(matches!(
            z3.check(&q, &Budget::unlimited()),
            Ok(crate::SolveResult::Unsat)
        ));
        let csp = Csp::new(&q);
        let mut doms = csp.doms.clone();
        let (config, mut stats) = (CpConfig::default(), Stats::default());
        let mut engine = Engine::new(&csp, &config, Budget::unlimited(), &mut stats);
        assert!(
            engine.propagate_all(&mut doms).is_ok(),
            "propagation alone refutes it: not a test of the relaxation"
        );
        assert!(matches!(
            tighten(&csp, &doms, &Budget::unlimited()),
            Tightened::Infeasible
        ));
    }

    /// Every value each variable takes in some solution stays in its
    /// narrowed domain, and "infeasible" means no solution, by enumeration
    /// of every input in a tiny format.
    #[test]
    fn tightening_keeps_every_solution_by_enumeration() {
        let fmt = Format::new(3, 4).unwrap();
        let mut g = Gen {
            rng: StdRng::seed_from_u64(41),
            fmt,
        };
        let config = CpConfig::default();
        let budget = Budget::unlimited();
        let n: usize = std::env::var("LINEAR_TEST_N")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(1000);
        let (mut cases, mut narrowed, mut infeasible, mut solutions) = (0, 0, 0, 0u64);
        let mut lp_time = std::time::Duration::ZERO;
        for i in 0..n {
            let q = Query::new(g.query());
            let csp = Csp::new(&q);
            let mut doms = csp.doms.clone();
            let mut stats = Stats::default();
            let mut engine = Engine::new(&csp, &config, budget.clone(), &mut stats);
            if engine.propagate_all(&mut doms).is_err() {
                continue;
            }
            let size: u128 = csp
                .inputs
                .iter()
                .map(|(v, _)| doms[*v as usize].as_fp().unwrap().count())
                .product();
            if size > 20_000 {
                continue;
            }
            let t0 = std::time::Instant::now();
            let t = tighten(&csp, &doms, &budget);
            lp_time += t0.elapsed();
            cases += 1;
            match &t {
                Tightened::Infeasible => infeasible += 1,
                Tightened::Narrowed(n) if !n.is_empty() => narrowed += 1,
                _ => {}
            }
            // enumerate the inputs inside their propagated domains
            let values = |v: VarId| -> Vec<Float> {
                let x = doms[v as usize].as_fp().unwrap();
                let (l, h) = x.bounds().unwrap();
                let mut out: Vec<Float> = (l.ordinal().unwrap()..=h.ordinal().unwrap())
                    .map(|o| Float::from_ordinal(fmt, o).unwrap())
                    .collect();
                if x.may_be_nan() {
                    out.push(Float::nan(fmt));
                }
                out
            };
            let inputs: Vec<(Term, Vec<Float>)> = csp.inputs.iter().map(|(v, t)| (t.clone(), values(*v))).collect();
            let mut idx = vec![0usize; inputs.len()];
            'all: loop {
                let mut m = Model::new();
                for (k, (t, vals)) in inputs.iter().enumerate() {
                    m.insert(t.clone(), Value::Fp(vals[idx[k]]));
                }
                if q.assertions.iter().all(|a| eval(a, &m) == Ok(Value::Bool(true))) {
                    solutions += 1;
                    match &t {
                        Tightened::Infeasible => panic!(
                            "query {i}: a solution {m:?} of a query found infeasible: {:?}",
                            q.assertions
                        ),
                        Tightened::Narrowed(n) => {
                            for (v, d) in n {
                                let term = csp.terms[*v as usize].as_ref().unwrap();
                                let val = eval(term, &m).unwrap();
                                assert!(
                                    d.contains(&val),
                                    "query {i}: {term:?} = {val:?} in the solution {m:?} lies outside the narrowed {d:?}: {:?}",
                                    q.assertions
                                );
                            }
                        }
                    }
                }
                let mut k = 0;
                loop {
                    if k == idx.len() {
                        break 'all;
                    }
                    idx[k] += 1;
                    if idx[k] < inputs[k].1.len() {
                        break;
                    }
                    idx[k] = 0;
                    k += 1;
                }
            }
        }
        println!("{cases} networks: {narrowed} narrowed, {infeasible} infeasible, {solutions} solutions checked; LPs {lp_time:?}");
        assert!(cases > n / 4 && narrowed > n / 20 && solutions > 10_000);
    }
}
