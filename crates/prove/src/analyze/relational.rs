//! The relational part: linear forms and template polyhedra at loop heads.
//!
//! Intervals lose what a filter keeps: `y = 1.5*y1 - 0.7*y2 + x` is stable
//! because y1 and y2 move together, and an interval of each, iterated,
//! grows without bound. Here each float value computed in a loop also
//! carries an *affine form* over the values its loop head started the
//! iteration with, `Σ c_i p_i + [lo, hi]` in exact rationals, where the
//! interval holds the inputs and every rounding error (at most an ulp of
//! the largest result the operation can give, in any rounding mode).
//! At a loop head with two or more float variables, the state also keeps
//! the range of `d · p` for a set of template directions `d`: chains
//! `e, Aᵀe, (Aᵀ)²e, ...` from each variable's axis through the loop's
//! linear part `A` (computed in `f64`, then used as exact rationals: the
//! directions are only a choice, never a claim). A value's interval is narrowed to the
//! bounds of its form over that polytope, computed by the exact simplex
//! of fpsym-solver, whose answers are certified by their dual multipliers.

use super::*;
use crate::value::RatRange;
use fpsym_solver::cp::lp::{Bound, Lp, Simplex, Q};
use fpsym_solver::Budget;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::collections::BTreeMap;
use std::rc::Rc;

/// `Σ coefs[k] · k + [lo, hi]`: a value as a linear form of loop-head
/// values (symbols), exact.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Affine {
    pub coefs: BTreeMap<Key, Q>,
    pub lo: Q,
    pub hi: Q,
}

impl Affine {
    fn constant(lo: Q, hi: Q) -> Affine {
        Affine {
            coefs: BTreeMap::new(),
            lo,
            hi,
        }
    }
    fn symbol(k: Key) -> Affine {
        Affine {
            coefs: BTreeMap::from([(k, Q::one())]),
            lo: Q::zero(),
            hi: Q::zero(),
        }
    }
    fn add(&self, o: &Affine, sign: i32) -> Affine {
        let mut coefs = self.coefs.clone();
        for (k, c) in &o.coefs {
            let e = coefs.entry(k.clone()).or_insert_with(Q::zero);
            if sign > 0 {
                *e += c;
            } else {
                *e -= c;
            }
        }
        coefs.retain(|_, c| !c.is_zero());
        let (lo, hi) = if sign > 0 {
            (&self.lo + &o.lo, &self.hi + &o.hi)
        } else {
            (&self.lo - &o.hi, &self.hi - &o.lo)
        };
        Affine { coefs, lo, hi }
    }
    fn scale(&self, c: &Q) -> Affine {
        let coefs = self
            .coefs
            .iter()
            .filter(|_| !c.is_zero())
            .map(|(k, v)| (k.clone(), v * c))
            .collect();
        let (a, b) = (&self.lo * c, &self.hi * c);
        let (lo, hi) = if c.is_negative() { (b, a) } else { (a, b) };
        Affine { coefs, lo, hi }
    }
    /// The form with its interval enlarged by `e` each side and rounded
    /// outward to 2^-64 of its magnitude: sound, and its rationals stay
    /// small however many operations it went through.
    fn widened(mut self, e: &Q) -> Affine {
        self.lo -= e;
        self.hi += e;
        let mag = self.lo.abs().max(self.hi.abs()).max(e.clone());
        self.lo = round_outward(&self.lo, &mag, false);
        self.hi = round_outward(&self.hi, &mag, true);
        self
    }
    /// The point constant, if the form is one.
    fn as_point(&self) -> Option<&Q> {
        (self.coefs.is_empty() && self.lo == self.hi).then_some(&self.lo)
    }
}

/// `q` rounded up (or down) to a multiple of 2^-64 of `|mag|`: a rational
/// with a small denominator, on the safe side of `q`.
pub(crate) fn round_outward(q: &Q, mag: &Q, up: bool) -> Q {
    let bits = mag
        .abs()
        .to_f64()
        .filter(|m| *m > 0.0 && m.is_finite())
        .map_or(0, |m| m.log2().floor() as i64);
    let k = (64 - bits).clamp(-1100, 1200);
    let scale = if k >= 0 {
        Q::from_integer(num_bigint::BigInt::from(1) << k as usize)
    } else {
        Q::one() / Q::from_integer(num_bigint::BigInt::from(1) << (-k) as usize)
    };
    let scaled = q * &scale;
    (if up { scaled.ceil() } else { scaled.floor() }) / scale
}

/// The relational facts of one loop head: its float variables (the
/// symbols) and the template directions over them.
#[derive(Debug, Clone)]
pub(crate) struct Template {
    pub vars: Vec<Key>,
    pub dirs: Vec<Vec<Q>>,
    /// The linear parts of the back edges seen (each gave its chains).
    pub maps: Vec<Vec<Vec<f64>>>,
}

/// The exact value of a finite float.
fn q_of(f: Float) -> Option<Q> {
    f.to_rational()
}

/// A finite, NaN-free interval's bounds as rationals.
fn q_bounds(x: &FloatInterval) -> Option<(Q, Q)> {
    if x.may_be_nan() {
        return None;
    }
    let (l, h) = x.bounds()?;
    Some((q_of(l)?, q_of(h)?))
}

/// Where an exact result in `[lo, hi]` lands once rounded to `fmt`, in any
/// rounding mode: `[RTN lo, RTP hi]`, from `-0` when `lo <= 0` (a rational
/// has no sign: an exact zero rounds to `-0` for some modes and operand
/// signs, and a tiny negative to `-0`).
fn rounded(fmt: Format, lo: &Q, hi: &Q) -> FloatInterval {
    let mut down = Float::from_rational(fmt, lo, fpsym_float::RoundingMode::TowardNegative).value;
    if down.is_zero() && !lo.is_positive() {
        down = Float::zero(fmt, true);
    }
    let up = Float::from_rational(fmt, hi, fpsym_float::RoundingMode::TowardPositive).value;
    FloatInterval::new(down, up, false)
}

/// A bound on `|rounded - exact|` for an operation whose rounded results
/// (every rounding mode) are in `r`: an ulp of its largest magnitude. None
/// when `r` is not finite (an overflow rounds anywhere up to the largest
/// float).
fn rounding_error(r: &FloatInterval) -> Option<Q> {
    q_bounds(r)?;
    let (rl, rh) = r.bounds()?;
    let big = if rl.abs().ordinal() > rh.abs().ordinal() {
        rl.abs()
    } else {
        rh.abs()
    };
    q_of(big.ulp())
}

/// Directions in template polyhedra: the most kept per loop head.
const TEMPLATE_SIZE: usize = 32;

impl<'p> Analyzer<'p> {
    /// The form of an operand: its recorded form, or its interval as a
    /// constant form (None when it may be NaN or infinite).
    fn form_of(&self, st: &HashMap<Key, Val>, o: &Opnd) -> Option<Affine> {
        if let Opnd::Var(k) = o {
            if let Some(Val::Lin(l)) = st.get(&Key::Form(Box::new(k.clone()))) {
                return Some((*l.0).clone());
            }
        }
        match self.get(st, o)? {
            Val::F(x) => q_bounds(&x).map(|(l, h)| Affine::constant(l, h)),
            _ => None,
        }
    }

    /// The bounds of a form over the current polytope: the boxes of its
    /// symbols and the template rows of their loop heads. None when a
    /// symbol has no finite box.
    fn bounds_of(&self, st: &HashMap<Key, Val>, f: &Affine) -> Option<(Q, Q)> {
        self.bounds_many(st, std::slice::from_ref(f)).pop().flatten()
    }

    /// [`Self::bounds_of`] for several forms over one polytope: one simplex,
    /// phase one once, each objective from the last optimal basis.
    fn bounds_many(&self, st: &HashMap<Key, Val>, forms: &[Affine]) -> Vec<Option<(Q, Q)>> {
        // the LP's variables: the forms' symbols and their heads' variables
        let mut vars: Vec<Key> = Vec::new();
        let mut heads: Vec<(Ctx, usize)> = Vec::new();
        for k in forms.iter().flat_map(|f| f.coefs.keys()) {
            if let Some(h) = self.symbol_head.get(k) {
                if let (false, Some(t)) = (heads.contains(h), self.templates.get(h)) {
                    heads.push(*h);
                    let syms: Vec<Key> = t
                        .vars
                        .iter()
                        .map(|v| Key::Head(h.0, h.1, Box::new(v.clone())))
                        .filter(|v| !vars.contains(v))
                        .collect();
                    vars.extend(syms);
                }
            }
            if !vars.contains(k) {
                vars.push(k.clone());
            }
        }
        let mut lp = Lp::default();
        for v in &vars {
            let Some((l, h)) = (match st.get(v) {
                Some(Val::F(x)) => q_bounds(x),
                _ => None,
            }) else {
                return forms
                    .iter()
                    .map(|f| f.coefs.is_empty().then(|| (f.lo.clone(), f.hi.clone())))
                    .collect();
            };
            lp.lo.push(l);
            lp.hi.push(h);
        }
        // one symbol alone, or no template: the box is the polytope
        let boxed = |obj: &[(usize, Q)], lp: &Lp| -> (Q, Q) {
            let mut lo = Q::zero();
            let mut hi = Q::zero();
            for (j, c) in obj {
                let (a, b) = (c * &lp.lo[*j], c * &lp.hi[*j]);
                lo += a.clone().min(b.clone());
                hi += a.max(b);
            }
            (lo, hi)
        };
        for h in &heads {
            let t = &self.templates[h];
            for (k, d) in t.dirs.iter().enumerate() {
                let Some(Val::R(r)) = st.get(&Key::Dir(h.0, h.1, k)) else {
                    continue;
                };
                let row: Vec<(usize, Q)> = t
                    .vars
                    .iter()
                    .zip(d)
                    .map(|(v, c)| {
                        let s = Key::Head(h.0, h.1, Box::new(v.clone()));
                        (vars.iter().position(|w| *w == s).expect("a head's variable"), c.clone())
                    })
                    .collect();
                if let Some(hi) = &r.hi {
                    lp.le(row.clone(), hi.clone());
                }
                if let Some(lo) = &r.lo {
                    lp.le(row.iter().map(|(j, c)| (*j, -c)).collect(), -lo);
                }
            }
        }
        let budget = Budget::unlimited();
        let mut simplex: Option<Simplex<'_>> = None;
        let mut out = Vec::with_capacity(forms.len());
        for f in forms {
            let obj: Vec<(usize, Q)> = f
                .coefs
                .iter()
                .map(|(k, c)| (vars.iter().position(|w| w == k).expect("a symbol"), c.clone()))
                .collect();
            let (bl, bh) = boxed(&obj, &lp);
            if obj.len() <= 1 || lp.rows.is_empty() {
                out.push(Some((bl + &f.lo, bh + &f.hi)));
                continue;
            }
            let sx = simplex.get_or_insert_with(|| Simplex::new(&lp, &budget));
            let neg: Vec<(usize, Q)> = obj.iter().map(|(j, c)| (*j, -c)).collect();
            let min = match sx.minimize(&obj) {
                Bound::AtLeast(q) => q.max(bl),
                Bound::Infeasible => {
                    out.push(None);
                    continue;
                }
                Bound::Unknown => bl,
            };
            let max = match sx.minimize(&neg) {
                Bound::AtLeast(q) => (-q).min(bh),
                Bound::Infeasible => {
                    out.push(None);
                    continue;
                }
                Bound::Unknown => bh,
            };
            out.push(Some((min + &f.lo, max + &f.hi)));
        }
        out
    }

    /// After a float operation: the result's form (from its operands'),
    /// its interval narrowed to the form's bounds, the form recorded.
    pub(super) fn relate(&mut self, ctx: Ctx, i: &I, st: &mut HashMap<Key, Val>, key: &Key, val: &mut Val) {
        let Val::F(r) = val else { return };
        if !matches!(
            i,
            I::FAdd(_) | I::FSub(_) | I::FMul(_) | I::FDiv(_) | I::FNeg(_) | I::FPExt(_) | I::FPTrunc(_)
        ) {
            // (a load sets its own form)
            return;
        }
        let form = |a: &Self, st: &HashMap<Key, Val>, o: &Operand| a.form_of(st, &a.opnd(ctx, o));
        let exact: Option<(Affine, bool)> = (|| match i {
            I::FAdd(x) => Some((form(self, st, &x.operand0)?.add(&form(self, st, &x.operand1)?, 1), true)),
            I::FSub(x) => Some((
                form(self, st, &x.operand0)?.add(&form(self, st, &x.operand1)?, -1),
                true,
            )),
            I::FMul(x) => {
                let (a, b) = (form(self, st, &x.operand0)?, form(self, st, &x.operand1)?);
                match (a.as_point(), b.as_point()) {
                    (Some(c), _) => Some((b.scale(c), true)),
                    (_, Some(c)) => Some((a.scale(c), true)),
                    _ => None,
                }
            }
            I::FDiv(x) => {
                let (a, b) = (form(self, st, &x.operand0)?, form(self, st, &x.operand1)?);
                let c = b.as_point().filter(|c| !c.is_zero())?;
                Some((a.scale(&(Q::one() / c)), true))
            }
            I::FNeg(x) => Some((form(self, st, &x.operand)?.scale(&-Q::one()), false)),
            I::FPExt(x) => Some((form(self, st, &x.operand)?, false)),
            I::FPTrunc(x) => Some((form(self, st, &x.operand)?, true)),
            _ => None,
        })();
        st.remove(&Key::Form(Box::new(key.clone())));
        let Some((f, rounds)) = exact else { return };
        if f.coefs.is_empty() {
            return;
        }
        if let Some((lo, hi)) = self.bounds_of(st, &f) {
            *r = r.intersect(&rounded(r.format(), &lo, &hi).with_nan(r.may_be_nan()));
        }
        if q_bounds(r).is_none() {
            return;
        }
        let f = if rounds {
            match rounding_error(r) {
                Some(u) => f.widened(&u),
                None => return,
            }
        } else {
            f
        };
        st.insert(
            Key::Form(Box::new(key.clone())),
            Val::Lin(crate::value::Linear(Rc::new(f))),
        );
    }

    /// At the entry of loop head `b`: its float variables become the
    /// symbols of the forms computed in this iteration.
    pub(super) fn enter_head(&mut self, ctx: Ctx, f: &Function, b: usize, st: &mut HashMap<Key, Val>) {
        let vars: Vec<Key> = match self.templates.get(&(ctx, b)) {
            Some(t) => t.vars.clone(),
            None => float_vars(ctx, f, b, st),
        };
        if !(1..=4).contains(&vars.len()) {
            return;
        }
        let finite = vars
            .iter()
            .all(|v| matches!(st.get(v), Some(Val::F(x)) if q_bounds(x).is_some()));
        for v in &vars {
            let fk = Key::Form(Box::new(v.clone()));
            if finite {
                // the symbol: the value now, kept as the iteration's start
                let hk = Key::Head(ctx, b, Box::new(v.clone()));
                self.symbol_head.insert(hk.clone(), (ctx, b));
                st.insert(hk.clone(), st[v].clone());
                st.insert(fk, Val::Lin(crate::value::Linear(Rc::new(Affine::symbol(hk)))));
            } else {
                st.remove(&fk);
            }
        }
    }

    /// On an edge into loop head `d` whose float variables were assigned
    /// `assigned` (key, operand): the ranges of the template directions
    /// over the values they take, and the forms they carry in.
    /// Returns the directions' ranges, to be set with the phis.
    pub(super) fn head_edge(
        &mut self,
        ctx: Ctx,
        f: &Function,
        d: usize,
        st: &HashMap<Key, Val>,
        incoming: &[(Key, Opnd)],
    ) -> Vec<(Key, Val)> {
        let mut out = Vec::new();
        let is_float = |o: &Opnd| matches!(self.get(st, o), Some(Val::F(_)));
        let floats: Vec<&(Key, Opnd)> = incoming.iter().filter(|(_, o)| is_float(o)).collect();
        if floats.len() < 2 || floats.len() > 4 {
            return out;
        }
        let forms: Vec<Option<Affine>> = floats.iter().map(|(_, o)| self.form_of(st, o)).collect();
        if !self.frozen {
            // the loop's linear part on this edge, from the forms it carries
            let vars: Vec<Key> = match self.templates.get(&(ctx, d)) {
                Some(t) => t.vars.clone(),
                None => floats.iter().map(|(k, _)| k.clone()).collect(),
            };
            let syms: Vec<Key> = vars.iter().map(|v| Key::Head(ctx, d, Box::new(v.clone()))).collect();
            let own = |a: &Affine| a.coefs.keys().all(|k| syms.contains(k)) && !a.coefs.is_empty();
            let same_vars = vars.iter().eq(floats.iter().map(|(k, _)| k));
            if same_vars && forms.iter().all(|f| f.as_ref().is_some_and(own)) {
                let a: Vec<Vec<f64>> = forms
                    .iter()
                    .map(|f| {
                        let f = f.as_ref().expect("checked");
                        syms.iter()
                            .map(|v| f.coefs.get(v).and_then(|c| c.to_f64()).unwrap_or(0.0))
                            .collect()
                    })
                    .collect();
                let t = self.templates.entry((ctx, d)).or_insert_with(|| Template {
                    vars: vars.clone(),
                    dirs: Vec::new(),
                    maps: Vec::new(),
                });
                if !t.maps.contains(&a) && t.maps.len() < 4 {
                    // each back edge's map adds its chains
                    let before = t.dirs.len();
                    for q in directions(&a) {
                        if !t.dirs.contains(&q) && t.dirs.len() < 2 * TEMPLATE_SIZE {
                            t.dirs.push(q);
                        }
                    }
                    t.maps.push(a);
                    if t.dirs.len() > before {
                        self.restart = true;
                    }
                    for v in syms {
                        self.symbol_head.insert(v, (ctx, d));
                    }
                }
            }
            let _ = f;
        }
        let Some(t) = self.templates.get(&(ctx, d)).cloned() else {
            return out;
        };
        // An edge that keeps the head's values (a `continue`) keeps its
        // ranges exactly (a simplex bound would only be as tight).
        let identity = t.vars.iter().all(|v| {
            let pos = floats.iter().position(|(k2, _)| k2 == v);
            pos.and_then(|p| forms[p].as_ref())
                .is_some_and(|a| *a == Affine::symbol(Key::Head(ctx, d, Box::new(v.clone()))))
        });
        if identity {
            for k in 0..t.dirs.len() {
                let r = match st.get(&Key::Dir(ctx, d, k)) {
                    Some(Val::R(r)) => r.clone(),
                    _ => RatRange::full(),
                };
                out.push((Key::Dir(ctx, d, k), Val::R(r)));
            }
            return out;
        }
        // d · (the incoming values), for each direction
        let sums: Vec<Option<Affine>> = t
            .dirs
            .iter()
            .map(|dir| {
                let mut sum = Affine::constant(Q::zero(), Q::zero());
                for (v, c) in t.vars.iter().zip(dir) {
                    let pos = floats.iter().position(|(k2, _)| k2 == v)?;
                    sum = sum.add(&forms[pos].as_ref()?.scale(c), 1);
                }
                Some(sum)
            })
            .collect();
        let known: Vec<Affine> = sums.iter().flatten().cloned().collect();
        let mut bounds = self.bounds_many(st, &known).into_iter();
        for (k, sum) in sums.iter().enumerate() {
            let b = if sum.is_some() { bounds.next().flatten() } else { None };
            let range = match b {
                Some((lo, hi)) => RatRange {
                    lo: Some(lo),
                    hi: Some(hi),
                },
                None => RatRange::full(),
            };
            out.push((Key::Dir(ctx, d, k), Val::R(range)));
        }
        out
    }
}

/// The float phis of block `b` (their keys), in order.
fn float_vars(ctx: Ctx, f: &Function, b: usize, st: &HashMap<Key, Val>) -> Vec<Key> {
    let mut globals: Vec<Key> = st
        .iter()
        .filter(|(k, v)| matches!((k, v), (Key::Global(_) | Key::Cell(..), Val::F(_))))
        .map(|(k, _)| k.clone())
        .collect();
    globals.sort();
    let phis: Vec<Key> = f.basic_blocks[b]
        .instrs
        .iter()
        .map_while(|i| {
            if let I::Phi(p) = i {
                Some(Key::Local(ctx, p.dest.clone()))
            } else {
                None
            }
        })
        .filter(|k| matches!(st.get(k), Some(Val::F(_))))
        .collect();
    phis.into_iter().chain(globals).collect()
}

/// Template directions for a loop whose linear part is `a` (next = a ·
/// current): for each variable's axis `e`, the chain `e, Aᵀe, (Aᵀ)²e, ...`
/// while it has not died out (a stable loop) nor grown (an unstable one).
/// A polytope on such a chain is nearly closed under the loop: the range of
/// `d · (A p)` over it is the range of `(Aᵀd) · p`, the next direction's;
/// so its ranges converge to the reachable set's own support (the sum of
/// the inputs' contributions along the chain). Rounded to dyadic
/// rationals: any directions are sound, these are the ones likely to be
/// inductive.
fn directions(a: &[Vec<f64>]) -> Vec<Vec<Q>> {
    let n = a.len();
    let mut out: Vec<Vec<Q>> = Vec::new();
    for i in 0..n {
        let mut d: Vec<f64> = (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect();
        for _ in 0..TEMPLATE_SIZE / n {
            let m = d.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            if !(1e-9..=1e9).contains(&m) {
                break;
            }
            // normalised, then 2^-24 precision
            let q: Vec<Q> = d
                .iter()
                .map(|v| Q::from_float(((v / m) * 16777216.0).round() / 16777216.0).unwrap_or_else(Q::zero))
                .collect();
            if q.iter().any(|c| !c.is_zero()) && !out.contains(&q) {
                out.push(q);
            }
            // d <- Aᵀ d
            d = (0..n).map(|j| (0..n).map(|k| a[k][j] * d[k]).sum()).collect();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use fpsym_float::RoundingMode;

    const MODES: [RoundingMode; 5] = RoundingMode::ALL;

    /// Every finite value of a format.
    fn finite(fmt: Format) -> Vec<Float> {
        let max = Float::infinity(fmt, false).ordinal().unwrap();
        (-max..max).map(|o| Float::from_ordinal(fmt, o).unwrap()).collect()
    }

    type Exact = fn(&Q, &Q) -> Option<Q>;
    type Concrete = fn(Float, Float, RoundingMode) -> Float;

    /// The two claims the forms rest on, for every pair of finite values of
    /// tiny formats, every operation and every rounding mode: the rounded
    /// result is in [`rounded`] of the exact one, and it differs from the
    /// exact one by at most [`rounding_error`] of the results' interval
    /// (the hull over modes, as the analysis has it) whenever that
    /// interval is finite.
    #[test]
    fn rounding_claims_hold_for_every_value_of_tiny_formats() {
        let ops: [(
            &str,
            Exact,
            Concrete,
            fn(&FloatInterval, &FloatInterval) -> FloatInterval,
        ); 4] = [
            ("add", |a, b| Some(a + b), |x, y, m| x.add(y, m).value, crate::itv::add),
            ("sub", |a, b| Some(a - b), |x, y, m| x.sub(y, m).value, crate::itv::sub),
            ("mul", |a, b| Some(a * b), |x, y, m| x.mul(y, m).value, crate::itv::mul),
            (
                "div",
                |a, b| (!b.is_zero()).then(|| a / b),
                |x, y, m| x.div(y, m).value,
                crate::itv::div,
            ),
        ];
        let mut checked = 0u64;
        for fmt in [Format::new(3, 3).unwrap(), Format::new(4, 4).unwrap()] {
            let all = finite(fmt);
            for (name, exact, conc, abs) in ops {
                for &x in &all {
                    for &y in &all {
                        let Some(q) = exact(&q_of(x).unwrap(), &q_of(y).unwrap()) else {
                            continue;
                        };
                        let hull = abs(&FloatInterval::point(x), &FloatInterval::point(y));
                        let err = rounding_error(&hull);
                        let enclosure = rounded(fmt, &q, &q);
                        for m in MODES {
                            let r = conc(x, y, m);
                            assert!(
                                enclosure.contains(r),
                                "{name} {x:?} {y:?} in {m:?}: {r:?} not in {enclosure:?}"
                            );
                            if let Some(e) = &err {
                                let d = (q_of(r).unwrap() - &q).abs();
                                assert!(
                                    &d <= e,
                                    "{name} {x:?} {y:?} in {m:?}: {r:?} is {d} from exact, bound {e}"
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
            // fptrunc: (4,4) to (3,3)
            let small = Format::new(3, 3).unwrap();
            if fmt == small {
                continue;
            }
            for &x in &all {
                let q = q_of(x).unwrap();
                let hull = crate::itv::convert(&FloatInterval::point(x), small);
                let (enclosure, err) = (rounded(small, &q, &q), rounding_error(&hull));
                for m in MODES {
                    let r = x.convert(small, m).value;
                    assert!(
                        enclosure.contains(r),
                        "trunc {x:?} in {m:?}: {r:?} not in {enclosure:?}"
                    );
                    if let Some(e) = &err {
                        assert!((q_of(r).unwrap() - &q).abs() <= *e, "trunc {x:?} in {m:?}: {r:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }

    /// A form's interval widened by `e` and rounded outward contains the
    /// exact widening, for random rationals of every magnitude.
    #[test]
    fn widening_a_form_keeps_every_value_it_had() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let big = |rng: &mut rand::rngs::StdRng| {
            let n = num_bigint::BigInt::from(rng.gen_range(-1_000_000_007i64..1_000_000_007));
            let d = num_bigint::BigInt::from(1) << rng.gen_range(0usize..1200);
            let m = num_bigint::BigInt::from(1) << rng.gen_range(0usize..1200);
            Q::new(n * m, d)
        };
        for _ in 0..2000 {
            let (a, b, e) = (big(&mut rng), big(&mut rng), big(&mut rng).abs());
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            let w = Affine::constant(lo.clone(), hi.clone()).widened(&e);
            assert!(w.lo <= &lo - &e && w.hi >= &hi + &e, "{lo} {hi} {e}: {} {}", w.lo, w.hi);
        }
    }

    #[test]
    fn a_stable_filter_gets_its_chains_of_directions() {
        // y' = 1.5 y - 0.7 y2, y2' = y: the chains from both axes
        let a = vec![vec![1.5, -0.7], vec![1.0, 0.0]];
        let d = directions(&a);
        assert!(d.len() > 16, "{}", d.len());
        assert_eq!(d[0], vec![Q::one(), Q::zero()]);
        // Aᵀ e1 = (1.5, -0.7), normalised
        assert_eq!(d[1][0], Q::one());
        // an unstable loop's chains stop growing at 1e9
        assert!(directions(&[vec![100.0, 0.0], vec![0.0, 100.0]]).len() <= 2);
    }
}
