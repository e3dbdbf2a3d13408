//! A small exact linear program solver with certified answers, for the
//! linear relaxation ([`crate::cp::linear`]).
//!
//! The problem is `minimize c·x` subject to rows `a·x <= b` and a finite
//! box `lo <= x <= hi`, all in exact rationals. A dense two-phase simplex
//! with Bland's rule finds an optimal basis; its reduced costs on the slack
//! columns are multipliers `λ >= 0` of the rows. The answer is then *checked*,
//! not trusted: for any `λ >= 0` and any `x` in the box satisfying the rows,
//!
//! `c·x >= g·x - λ·b >= Σ_j min(g_j lo_j, g_j hi_j) - λ·b`, where `g = c + Σ_i λ_i a_i`,
//!
//! which is the lower bound returned (and with `c = 0`, a bound above 0
//! proves the rows infeasible in the box). Soundness therefore rests on this
//! one inequality, computed exactly, and not on the simplex code. (No LP crate
//! gives exact answers with dual values; the problems here have tens of
//! variables, where an exact dense tableau is fast enough.)

use crate::Budget;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

/// A rational.
pub type Q = BigRational;

/// A row `Σ coef·x <= rhs`.
#[derive(Clone, Debug)]
pub struct Row {
    /// The coefficients, by variable.
    pub coefs: Vec<(usize, Q)>,
    /// The right-hand side.
    pub rhs: Q,
}

/// A linear program's constraints: rows over variables with finite boxes.
#[derive(Clone, Debug, Default)]
pub struct Lp {
    /// Each variable's lower bound.
    pub lo: Vec<Q>,
    /// Each variable's upper bound.
    pub hi: Vec<Q>,
    /// The rows.
    pub rows: Vec<Row>,
}

/// A certified answer to a minimization.
#[derive(Clone, Debug, PartialEq)]
pub enum Bound {
    /// `c·x >= value` for every `x` satisfying the rows in the box.
    AtLeast(Q),
    /// No `x` in the box satisfies the rows.
    Infeasible,
    /// The simplex stopped (pivot limit, budget) or its certificate did not check.
    Unknown,
}

/// Most pivots per phase before giving up.
const MAX_PIVOTS: usize = 2000;

impl Lp {
    /// Adds a row `Σ coefs <= rhs`.
    pub fn le(&mut self, coefs: Vec<(usize, Q)>, rhs: Q) {
        self.rows.push(Row { coefs, rhs });
    }

    /// The certified lower bound of `c·x` implied by multipliers `lambda` (one
    /// per row; negative ones are read as 0): `Σ_j min(g_j lo_j, g_j hi_j) - λ·b`.
    fn certify(&self, c: &[(usize, Q)], lambda: &[Q]) -> Q {
        let mut g = vec![Q::zero(); self.lo.len()];
        for (j, q) in c {
            g[*j] += q;
        }
        let mut bound = Q::zero();
        for (row, l) in self.rows.iter().zip(lambda) {
            if !l.is_positive() {
                continue;
            }
            for (j, a) in &row.coefs {
                g[*j] += l * a;
            }
            bound -= l * &row.rhs;
        }
        for (j, gj) in g.iter().enumerate() {
            bound += if gj.is_negative() {
                gj * &self.hi[j]
            } else {
                gj * &self.lo[j]
            };
        }
        bound
    }

    /// A certified lower bound of `c·x` over the rows and the box.
    #[cfg(test)]
    pub(crate) fn minimize(&self, c: &[(usize, Q)]) -> Bound {
        Simplex::new(self, &Budget::unlimited()).minimize(c)
    }
}

/// The simplex over one [`Lp`], for several objectives: phase one runs
/// once, and each objective's phase two starts from the previous optimal
/// basis (still feasible, since only the objective changes). It runs in
/// `f64` first (fast; its multipliers are certified exactly all the same)
/// and falls back to exact rationals where that gives no certified answer
/// (data outside `f64`'s range, a certificate that does not check).
pub struct Simplex<'a> {
    lp: &'a Lp,
    budget: &'a Budget,
    fast: Option<Run<f64>>,
    exact: Option<Run<Q>>,
}

/// A tableau after phase one, with its verdict.
struct Run<T> {
    t: Tableau<T>,
    /// None while feasible (or undecided); the phase-one verdict otherwise.
    verdict: Option<Bound>,
    artificials_out: bool,
}

impl<T: Num> Run<T> {
    fn new(lp: &Lp, budget: &Budget) -> Option<Run<T>> {
        let mut t = Tableau::<T>::new(lp)?;
        let verdict = if !t.phase1(budget) {
            Some(Bound::Unknown)
        } else if t.obj_value().is_pos() {
            // infeasible per the simplex: check the Farkas multipliers
            let lambda = t.slack_costs(lp.rows.len());
            Some(if lp.certify(&[], &lambda).is_positive() {
                Bound::Infeasible
            } else {
                Bound::Unknown
            })
        } else {
            None
        };
        Some(Run {
            t,
            verdict,
            artificials_out: false,
        })
    }

    fn minimize(&mut self, lp: &Lp, c: &[(usize, Q)], budget: &Budget) -> Bound {
        if let Some(v) = &self.verdict {
            return v.clone();
        }
        if !self.artificials_out {
            self.t.drive_out_artificials();
            self.artificials_out = true;
        }
        let Some(cost) = c
            .iter()
            .map(|(j, q)| T::of(q).map(|v| (*j, v)))
            .collect::<Option<Vec<_>>>()
        else {
            return Bound::Unknown;
        };
        if !self.t.phase2(&cost, budget) {
            return Bound::Unknown;
        }
        let lambda = self.t.slack_costs(lp.rows.len());
        Bound::AtLeast(lp.certify(c, &lambda))
    }
}

impl<'a> Simplex<'a> {
    /// Runs phase one. Every pivot checks `budget`; an expired one makes
    /// every answer `Unknown`.
    pub fn new(lp: &'a Lp, budget: &'a Budget) -> Simplex<'a> {
        Simplex {
            lp,
            budget,
            fast: Run::new(lp, budget),
            exact: None,
        }
    }

    fn exact(&mut self) -> &mut Run<Q> {
        let (lp, budget) = (self.lp, self.budget);
        self.exact
            .get_or_insert_with(|| Run::new(lp, budget).expect("rationals represent every row"))
    }

    /// Whether the rows were proved infeasible in the box.
    pub fn infeasible(&mut self) -> bool {
        match self.fast.as_ref().map(|f| f.verdict.clone()) {
            Some(Some(Bound::Infeasible)) => true,
            Some(None) => false,
            _ => self.exact().verdict == Some(Bound::Infeasible),
        }
    }

    /// A certified lower bound of `c·x` over the rows and the box.
    pub fn minimize(&mut self, c: &[(usize, Q)]) -> Bound {
        if let Some(f) = &mut self.fast {
            match f.minimize(self.lp, c, self.budget) {
                Bound::Unknown => {}
                b => return b,
            }
        }
        if self.budget.expired() {
            return Bound::Unknown;
        }
        let (lp, budget) = (self.lp, self.budget);
        self.exact().minimize(lp, c, budget)
    }
}

/// The arithmetic of a tableau: exact rationals, or `f64` with tolerances
/// in the pivoting decisions (its answers are certified exactly anyway).
trait Num:
    Clone
    + PartialOrd
    + std::ops::SubAssign
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
    + std::ops::Neg<Output = Self>
{
    /// 0.
    fn nil() -> Self;
    /// 1.
    fn unit() -> Self;
    /// The value of a rational, if representable (approximately, for `f64`).
    fn of(q: &Q) -> Option<Self>;
    /// The exact rational value.
    fn to_q(&self) -> Q;
    /// Exactly zero (skipped in updates).
    fn is_zero(&self) -> bool;
    /// Below zero beyond the tolerance.
    fn is_neg(&self) -> bool;
    /// Above zero beyond the tolerance.
    fn is_pos(&self) -> bool;
    /// `self -= f·x`.
    fn sub_mul(&mut self, f: &Self, x: &Self) {
        *self -= f.clone() * x.clone();
    }
    /// `self / p`.
    fn quot(&self, p: &Self) -> Self {
        self.clone() / p.clone()
    }
    /// `-self`.
    fn negated(&self) -> Self {
        -self.clone()
    }
}

impl Num for Q {
    fn nil() -> Self {
        Zero::zero()
    }
    fn unit() -> Self {
        One::one()
    }
    fn of(q: &Q) -> Option<Self> {
        Some(q.clone())
    }
    fn to_q(&self) -> Q {
        self.clone()
    }
    fn is_zero(&self) -> bool {
        Zero::is_zero(self)
    }
    fn is_neg(&self) -> bool {
        Signed::is_negative(self)
    }
    fn is_pos(&self) -> bool {
        Signed::is_positive(self)
    }
}

/// Tolerance of the `f64` tableau's sign tests.
const TOL: f64 = 1e-9;

impl Num for f64 {
    fn nil() -> Self {
        0.0
    }
    fn unit() -> Self {
        1.0
    }
    fn of(q: &Q) -> Option<Self> {
        use num_traits::ToPrimitive;
        q.to_f64().filter(|v| v.is_finite())
    }
    fn to_q(&self) -> Q {
        Q::from_float(*self).unwrap_or_else(Q::zero)
    }
    fn is_zero(&self) -> bool {
        *self == 0.0
    }
    fn is_neg(&self) -> bool {
        *self < -TOL
    }
    fn is_pos(&self) -> bool {
        *self > TOL
    }
}

/// A dense simplex tableau over `y = x - lo >= 0`: the program's rows, then
/// one row `y_j <= hi_j - lo_j` per variable; columns are the `y`, one slack
/// per row, one artificial per row whose right-hand side was negative, then
/// the right-hand side. `obj` holds the reduced costs and `-value`.
struct Tableau<T> {
    m: Vec<Vec<T>>,
    obj: Vec<T>,
    basis: Vec<usize>,
    n: usize,
    rows: usize,
    arts: usize,
}

impl<T: Num> Tableau<T> {
    /// None if a number of the program has no value in `T`.
    fn new(lp: &Lp) -> Option<Tableau<T>> {
        let n = lp.lo.len();
        let mut dense: Vec<(Vec<Q>, Q)> = Vec::new();
        for r in &lp.rows {
            let mut a = vec![Q::zero(); n];
            let mut rhs = r.rhs.clone();
            for (j, q) in &r.coefs {
                a[*j] += q;
                rhs -= q * &lp.lo[*j];
            }
            dense.push((a, rhs));
        }
        for j in 0..n {
            let mut a = vec![Q::zero(); n];
            a[j] = Q::one();
            dense.push((a, &lp.hi[j] - &lp.lo[j]));
        }
        let rows = dense.len();
        // the sign of a right-hand side decides the artificials: exactly
        let arts = dense.iter().filter(|(_, r)| Signed::is_negative(r)).count();
        let width = n + rows + arts + 1;
        let mut m = Vec::with_capacity(rows);
        let mut basis = Vec::with_capacity(rows);
        let mut k = 0;
        for (i, (a, rhs)) in dense.into_iter().enumerate() {
            let mut row = vec![T::nil(); width];
            let flip = Signed::is_negative(&rhs);
            for (j, q) in a.into_iter().enumerate() {
                row[j] = T::of(&if flip { -q } else { q })?;
            }
            row[n + i] = if flip { T::unit().negated() } else { T::unit() };
            row[width - 1] = T::of(&if flip { -rhs } else { rhs })?;
            if flip {
                row[n + rows + k] = T::unit();
                basis.push(n + rows + k);
                k += 1;
            } else {
                basis.push(n + i);
            }
            m.push(row);
        }
        Some(Tableau {
            m,
            obj: vec![T::nil(); width],
            basis,
            n,
            rows,
            arts,
        })
    }

    fn width(&self) -> usize {
        self.n + self.rows + self.arts + 1
    }

    /// The objective's value at the current basis.
    fn obj_value(&self) -> T {
        self.obj[self.width() - 1].negated()
    }

    /// The reduced costs of the first `k` slack columns, exactly.
    fn slack_costs(&self, k: usize) -> Vec<Q> {
        (0..k).map(|i| self.obj[self.n + i].to_q()).collect()
    }

    /// Sets the objective row for costs `cost` (per column) and the current basis.
    fn set_objective(&mut self, cost: &[T]) {
        let w = self.width();
        let mut obj: Vec<T> = (0..w)
            .map(|j| if j < cost.len() { cost[j].clone() } else { T::nil() })
            .collect();
        for (i, &b) in self.basis.iter().enumerate() {
            let cb = if b < cost.len() { cost[b].clone() } else { T::nil() };
            if cb.is_zero() {
                continue;
            }
            for j in 0..w {
                if !self.m[i][j].is_zero() {
                    obj[j].sub_mul(&cb, &self.m[i][j]);
                }
            }
        }
        self.obj = obj;
    }

    fn pivot(&mut self, r: usize, c: usize) {
        let w = self.width();
        let p = self.m[r][c].clone();
        for j in 0..w {
            if !self.m[r][j].is_zero() {
                self.m[r][j] = self.m[r][j].quot(&p);
            }
        }
        let prow = self.m[r].clone();
        for i in 0..self.m.len() {
            if i == r || self.m[i][c].is_zero() {
                continue;
            }
            let f = self.m[i][c].clone();
            for j in 0..w {
                if !prow[j].is_zero() {
                    self.m[i][j].sub_mul(&f, &prow[j]);
                }
            }
        }
        if !self.obj[c].is_zero() {
            let f = self.obj[c].clone();
            for j in 0..w {
                if !prow[j].is_zero() {
                    self.obj[j].sub_mul(&f, &prow[j]);
                }
            }
        }
        self.basis[r] = c;
    }

    /// Simplex iterations with Bland's rule over the columns `< limit`;
    /// false at the pivot limit or when `budget` expires (the box makes the
    /// program bounded).
    fn optimize(&mut self, limit: usize, budget: &Budget) -> bool {
        let rhs = self.width() - 1;
        for _ in 0..MAX_PIVOTS {
            if budget.expired() {
                return false;
            }
            let Some(c) = (0..limit).find(|&j| self.obj[j].is_neg()) else {
                return true;
            };
            let mut best: Option<(usize, T)> = None;
            for i in 0..self.m.len() {
                if !self.m[i][c].is_pos() {
                    continue;
                }
                let ratio = self.m[i][rhs].quot(&self.m[i][c]);
                let better = match &best {
                    None => true,
                    Some((bi, br)) => ratio < *br || (ratio == *br && self.basis[i] < self.basis[*bi]),
                };
                if better {
                    best = Some((i, ratio));
                }
            }
            let Some((r, _)) = best else {
                return false;
            };
            self.pivot(r, c);
        }
        false
    }

    /// Phase one: minimizes the sum of the artificials. False at the pivot limit.
    fn phase1(&mut self, budget: &Budget) -> bool {
        let w = self.width();
        let cost: Vec<T> = (0..w - 1)
            .map(|j| if j >= self.n + self.rows { T::unit() } else { T::nil() })
            .collect();
        self.set_objective(&cost);
        self.optimize(w - 1, budget)
    }

    /// After phase one: pivots basic artificials out where their row has
    /// another nonzero column. An artificial still basic sits in a row that is
    /// zero on every other column: it stays 0 whatever the pivots.
    fn drive_out_artificials(&mut self) {
        let first_art = self.n + self.rows;
        for r in 0..self.m.len() {
            if self.basis[r] >= first_art {
                if let Some(col) = (0..first_art).find(|&j| self.m[r][j].is_pos() || self.m[r][j].is_neg()) {
                    self.pivot(r, col);
                }
            }
        }
    }

    /// Phase two from the current feasible basis: minimizes `c` over the
    /// structural and slack columns. False at the pivot limit.
    fn phase2(&mut self, c: &[(usize, T)], budget: &Budget) -> bool {
        let first_art = self.n + self.rows;
        let mut cost = vec![T::nil(); first_art];
        for (j, q) in c {
            cost[*j] = q.clone();
        }
        self.set_objective(&cost);
        self.optimize(first_art, budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Q {
        Q::new(n.into(), d.into())
    }

    fn lp(boxes: &[(i64, i64)]) -> Lp {
        Lp {
            lo: boxes.iter().map(|b| q(b.0, 1)).collect(),
            hi: boxes.iter().map(|b| q(b.1, 1)).collect(),
            rows: Vec::new(),
        }
    }

    #[test]
    fn the_bounds_are_the_optima_and_hold() {
        // x, y in [0, 10]; x + y >= 3 (−x − y <= −3); x − y <= 1; 2y − x <= 8
        let mut p = lp(&[(0, 10), (0, 10)]);
        p.le(vec![(0, q(-1, 1)), (1, q(-1, 1))], q(-3, 1));
        p.le(vec![(0, q(1, 1)), (1, q(-1, 1))], q(1, 1));
        p.le(vec![(0, q(-1, 1)), (1, q(2, 1))], q(8, 1));
        // min x: x >= 0 (y = 3); min y: y >= 1 (x = 2); max y: 2y <= 8 + x, y <= 10 → y <= 9 at x = 10
        assert_eq!(p.minimize(&[(0, q(1, 1))]), Bound::AtLeast(q(0, 1)));
        assert_eq!(p.minimize(&[(1, q(1, 1))]), Bound::AtLeast(q(1, 1)));
        assert_eq!(p.minimize(&[(1, q(-1, 1))]), Bound::AtLeast(q(-9, 1)));
        // min x + y = 3
        assert_eq!(p.minimize(&[(0, q(1, 1)), (1, q(1, 1))]), Bound::AtLeast(q(3, 1)));
        // brute force over a grid of quarter points: every feasible point obeys the bounds
        for i in 0..=40 {
            for j in 0..=40 {
                let (x, y) = (q(i, 4), q(j, 4));
                let ok = p.rows.iter().all(|r| {
                    let s: Q = r.coefs.iter().map(|(k, a)| a * if *k == 0 { &x } else { &y }).sum();
                    s <= r.rhs
                });
                if ok {
                    assert!(y >= q(1, 1) && y <= q(9, 1) && &x + &y >= q(3, 1));
                }
            }
        }
    }

    #[test]
    fn infeasible_rows_are_proved_infeasible() {
        // x + y >= 15 with x, y in [0, 7]
        let mut p = lp(&[(0, 7), (0, 7)]);
        p.le(vec![(0, q(-1, 1)), (1, q(-1, 1))], q(-15, 1));
        assert_eq!(p.minimize(&[(0, q(1, 1))]), Bound::Infeasible);
        // x <= y - 1, y <= x - 1
        let mut p = lp(&[(-5, 5), (-5, 5)]);
        p.le(vec![(0, q(1, 1)), (1, q(-1, 1))], q(-1, 1));
        p.le(vec![(1, q(1, 1)), (0, q(-1, 1))], q(-1, 1));
        assert_eq!(p.minimize(&[]), Bound::Infeasible);
    }

    /// The `f64` tableau's certified bounds against the exact optima on
    /// random programs: never above (both are proofs), and within 1e-9 on
    /// most (multipliers like 1/3 have no exact `f64`).
    #[test]
    fn the_fast_bounds_are_never_above_the_exact_optima() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let (mut equal, mut compared, mut infeasible) = (0, 0, 0);
        for _ in 0..300 {
            let n = rng.gen_range(2..=5);
            let mut p = lp(&vec![(-8, 8); n]);
            for _ in 0..rng.gen_range(2..=7) {
                let coefs = (0..n)
                    .map(|j| (j, q(rng.gen_range(-6..=6), rng.gen_range(1..=4))))
                    .collect();
                p.le(coefs, q(rng.gen_range(-20..=20), rng.gen_range(1..=8)));
            }
            let budget = Budget::unlimited();
            let (mut fast, mut exact) = (
                Run::<f64>::new(&p, &budget).unwrap(),
                Run::<Q>::new(&p, &budget).unwrap(),
            );
            if exact.verdict == Some(Bound::Infeasible) {
                infeasible += 1;
            }
            if fast.verdict == Some(Bound::Infeasible) {
                assert_eq!(exact.verdict, Some(Bound::Infeasible));
            }
            for j in 0..n {
                for sign in [1, -1] {
                    let c = [(j, q(sign, 1))];
                    if let Bound::AtLeast(e) = exact.minimize(&p, &c, &budget) {
                        match fast.minimize(&p, &c, &budget) {
                            Bound::AtLeast(f) => {
                                assert!(f <= e, "fast {f} above the exact optimum {e}: {p:?}");
                                compared += 1;
                                let gap: f64 = num_traits::ToPrimitive::to_f64(&(&e - &f)).unwrap();
                                let scale: f64 = num_traits::ToPrimitive::to_f64(&e).unwrap().abs();
                                equal += usize::from(gap <= 1e-9 * (1.0 + scale));
                            }
                            Bound::Unknown => {}
                            Bound::Infeasible => panic!("fast infeasible, exact optimum {e}: {p:?}"),
                        }
                    }
                }
            }
        }
        println!("{compared} bounds compared, {equal} within 1e-9; {infeasible} infeasible programs");
        assert!(compared > 500 && equal * 10 > compared * 9 && infeasible > 10);
    }

    #[test]
    fn a_wrong_multiplier_gives_a_weaker_bound_never_a_wrong_one() {
        let mut p = lp(&[(0, 10)]);
        p.le(vec![(0, q(-1, 1))], q(-2, 1)); // x >= 2
                                             // λ = 1 gives the optimum 2; any other λ gives at most 2
        for l in [0, 1, 2, 5] {
            assert!(p.certify(&[(0, q(1, 1))], &[q(l, 1)]) <= q(2, 1));
        }
        assert_eq!(p.certify(&[(0, q(1, 1))], &[q(1, 1)]), q(2, 1));
    }
}
