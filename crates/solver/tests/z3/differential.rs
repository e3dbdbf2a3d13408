//! Randomized differential testing: Z3's floating-point semantics against
//! fpsym's (`fpsym_expr::eval` over `fpsym-float`).
//!
//! Each random term `t` over constants is evaluated by fpsym to `c`; Z3 must
//! then find `(= t c)` sat and `(distinct t c)` unsat. The *ground* test lets
//! Z3's rewriter fold `t` (Z3's software floats); the *pinned* test replaces
//! every float constant by a variable pinned to it with predicates
//! (`fp.eq`, `fp.isZero ∧ fp.isNegative`, `fp.isNaN`) so that Z3 goes through
//! its bit-blasting encoding instead.
//!
//! `FPSYM_DIFF_SEED` and `FPSYM_DIFF_N` override the seed and the number of terms.

use super::{app, distinct};
use fpsym_expr::{eval, Float, Format, Model, Op, RoundingMode, Term, Value};
use fpsym_solver::z3::Z3Solver;
use fpsym_solver::{build, Backend, Budget, Query, Reason, SolveResult, Solver, SolverConfig};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;

const FORMATS: [(u32, u32); 5] = [(3, 3), (4, 4), (5, 11), (8, 24), (11, 53)];
/// Z3 4.8.12 cannot bit-blast `fp.roundToIntegral` (nor, through fpsym's
/// guard, `fp.to_ubv`/`fp.to_sbv`) for formats with very few significand
/// bits, (3, 3) and (4, 4) among them ("invalid zero_extend application"),
/// nor `fp.div`/`fp.rem` when `sb < eb`; its rewriter folds them fine. The
/// pinned test, which goes through bit-blasting, uses small formats Z3 supports.
const PINNED_FORMATS: [(u32, u32); 3] = [(3, 5), (4, 6), (5, 11)];
const PINNED_WIDE_FORMATS: [(u32, u32); 2] = [(8, 24), (11, 53)];
const BV_WIDTHS: [u32; 10] = [1, 2, 3, 5, 8, 16, 32, 64, 100, 128];

struct Gen {
    rng: StdRng,
    formats: Vec<Format>,
}

impl Gen {
    fn new(seed: u64, formats: &[(u32, u32)]) -> Gen {
        Gen {
            rng: StdRng::seed_from_u64(seed),
            formats: formats.iter().map(|&(e, s)| Format::new(e, s).unwrap()).collect(),
        }
    }

    fn format(&mut self) -> Format {
        self.formats[self.rng.gen_range(0..self.formats.len())]
    }

    fn rm(&mut self) -> Term {
        let r = Term::rm(RoundingMode::ALL[self.rng.gen_range(0..5)]);
        if self.rng.gen_bool(0.05) {
            // A rounding mode chosen by a condition.
            let c = Term::bool(self.rng.gen_bool(0.5));
            let other = Term::rm(RoundingMode::ALL[self.rng.gen_range(0..5)]);
            return app(Op::Ite, vec![c, r, other]);
        }
        r
    }

    fn width(&mut self) -> u32 {
        BV_WIDTHS[self.rng.gen_range(0..BV_WIDTHS.len())]
    }

    fn float_const(&mut self, f: Format) -> Float {
        let neg = self.rng.gen_bool(0.5);
        match self.rng.gen_range(0..14) {
            0 => Float::zero(f, neg),
            1 => Float::infinity(f, neg),
            2 => Float::nan(f),
            3 => Float::smallest(f, neg),
            4 => Float::largest(f, neg),
            5 => Float::smallest_normal(f, neg),
            6 => Float::one(f, neg),
            7 => Float::from_fields(f, neg, 0, u128::MAX), // largest subnormal
            8 | 9 => {
                // A small integer or half-integer: exercises rounding to integral and conversions.
                let n: i64 = self.rng.gen_range(-300..300);
                let x = Float::from_bigint(f, &n.into(), RoundingMode::NearestTiesToEven).value;
                if self.rng.gen_bool(0.5) {
                    x.div(Float::pow2(f, 1).unwrap(), RoundingMode::NearestTiesToEven).value
                } else {
                    x
                }
            }
            10 => {
                // Near 1: exponent bias +-2.
                let e = (f.bias() + self.rng.gen_range(-2..=2)) as u64;
                Float::from_fields(f, neg, e, self.rng.gen())
            }
            _ => Float::from_packed(f, self.rng.gen()),
        }
    }

    fn bv_const(&mut self, w: u32) -> Term {
        let bits: u128 = match self.rng.gen_range(0..6) {
            0 => 0,
            1 => 1,
            2 => u128::MAX,
            3 => 1u128 << (w - 1),
            4 => self.rng.gen_range(0..600),
            _ => self.rng.gen(),
        };
        Term::bv(w, bits)
    }

    /// A random term of float format `f`.
    fn fp(&mut self, f: Format, depth: u32) -> Term {
        if depth == 0 || self.rng.gen_bool(0.2) {
            return Term::fp(self.float_const(f));
        }
        let d = depth - 1;
        let pick = self.rng.gen_range(0..19);
        match pick {
            0 => app(Op::FpAbs, vec![self.fp(f, d)]),
            1 => app(Op::FpNeg, vec![self.fp(f, d)]),
            2..=5 => {
                let op = [Op::FpAdd, Op::FpSub, Op::FpMul, Op::FpDiv][pick - 2].clone();
                app(op, vec![self.rm(), self.fp(f, d), self.fp(f, d)])
            }
            6 => app(Op::FpFma, vec![self.rm(), self.fp(f, d), self.fp(f, d), self.fp(f, d)]),
            7 => app(Op::FpSqrt, vec![self.rm(), self.fp(f, d)]),
            8 => app(Op::FpRem, vec![self.fp(f, d), self.fp(f, d)]),
            9 => app(Op::FpRoundToIntegral, vec![self.rm(), self.fp(f, d)]),
            10 => app(Op::FpMin, vec![self.fp(f, d), self.fp(f, d)]),
            11 => app(Op::FpMax, vec![self.fp(f, d), self.fp(f, d)]),
            12 => app(Op::Ite, vec![self.boolean(d), self.fp(f, d), self.fp(f, d)]),
            13 => {
                let g = self.format();
                app(Op::ToFpFromFp(f), vec![self.rm(), self.fp(g, d)])
            }
            14 => {
                let w = self.width();
                app(Op::ToFpFromSbv(f), vec![self.rm(), self.bv(w, d)])
            }
            15 => {
                let w = self.width();
                app(Op::ToFpFromUbv(f), vec![self.rm(), self.bv(w, d)])
            }
            16 => app(Op::ToFpFromBits(f), vec![self.bv(f.packed_width(), d)]),
            17 => app(
                Op::FpFromParts,
                vec![self.bv(1, d), self.bv(f.eb(), d), self.bv(f.frac_bits(), d)],
            ),
            _ => {
                // A same-format min/max with zero operands, the unspecified case.
                let z = Term::fp(Float::zero(f, self.rng.gen_bool(0.5)));
                let op = if self.rng.gen_bool(0.5) { Op::FpMin } else { Op::FpMax };
                app(op, vec![self.fp(f, d), z])
            }
        }
    }

    /// A random Boolean term.
    fn boolean(&mut self, depth: u32) -> Term {
        if depth == 0 {
            return Term::bool(self.rng.gen_bool(0.5));
        }
        let f = self.format();
        let d = depth - 1;
        let pick = self.rng.gen_range(0..22);
        match pick {
            0..=4 => {
                let op = [Op::FpLeq, Op::FpLt, Op::FpGeq, Op::FpGt, Op::FpEq][pick].clone();
                app(op, vec![self.fp(f, d), self.fp(f, d)])
            }
            5 => app(Op::Eq, vec![self.fp(f, d), self.fp(f, d)]),
            6..=12 => {
                let op = Op::FP_CLASSIFICATIONS[pick - 6].clone();
                app(op, vec![self.fp(f, d)])
            }
            13 | 14 => {
                let w = self.width();
                let ops = [
                    Op::BvUlt,
                    Op::BvUle,
                    Op::BvUgt,
                    Op::BvUge,
                    Op::BvSlt,
                    Op::BvSle,
                    Op::BvSgt,
                    Op::BvSge,
                ];
                let op = ops[self.rng.gen_range(0..ops.len())].clone();
                app(op, vec![self.bv(w, d), self.bv(w, d)])
            }
            15 => app(Op::Not, vec![self.boolean(d)]),
            16 => {
                let op = [Op::And, Op::Or, Op::Xor][self.rng.gen_range(0..3)].clone();
                let n = self.rng.gen_range(2..=3);
                app(op, (0..n).map(|_| self.boolean(d)).collect())
            }
            17 => app(Op::Implies, vec![self.boolean(d), self.boolean(d)]),
            18 => app(Op::Distinct, vec![self.fp(f, d), self.fp(f, d), self.fp(f, d)]),
            19 => {
                let w = self.width();
                app(Op::Eq, vec![self.bv(w, d), self.bv(w, d)])
            }
            20 => app(Op::Eq, vec![self.rm(), self.rm()]),
            _ => app(Op::Ite, vec![self.boolean(d), self.boolean(d), self.boolean(d)]),
        }
    }

    /// A random bit-vector term of width `w`.
    fn bv(&mut self, w: u32, depth: u32) -> Term {
        if depth == 0 || self.rng.gen_bool(0.3) {
            return self.bv_const(w);
        }
        let d = depth - 1;
        match self.rng.gen_range(0..9) {
            0 | 1 => {
                let f = self.format();
                let op = if self.rng.gen_bool(0.5) {
                    Op::FpToSbv(w)
                } else {
                    Op::FpToUbv(w)
                };
                app(op, vec![self.rm(), self.fp(f, d)])
            }
            2 if w > 1 => {
                let k = self.rng.gen_range(1..w);
                app(Op::BvConcat, vec![self.bv(k, d), self.bv(w - k, d)])
            }
            3 if w < 128 => {
                // Extract from a wider vector.
                let extra = self.rng.gen_range(1..=(128 - w).min(20));
                let lo = self.rng.gen_range(0..=extra);
                app(Op::BvExtract(lo + w - 1, lo), vec![self.bv(w + extra, d)])
            }
            4 if w > 1 => {
                let k = self.rng.gen_range(1..w);
                let op = if self.rng.gen_bool(0.5) {
                    Op::BvZeroExtend(w - k)
                } else {
                    Op::BvSignExtend(w - k)
                };
                app(op, vec![self.bv(k, d)])
            }
            5 => {
                let op = if self.rng.gen_bool(0.5) { Op::BvNot } else { Op::BvNeg };
                app(op, vec![self.bv(w, d)])
            }
            6 => app(Op::Ite, vec![self.boolean(d), self.bv(w, d), self.bv(w, d)]),
            _ => {
                let ops = [
                    Op::BvAnd,
                    Op::BvOr,
                    Op::BvXor,
                    Op::BvAdd,
                    Op::BvSub,
                    Op::BvMul,
                    Op::BvUdiv,
                    Op::BvUrem,
                    Op::BvSdiv,
                    Op::BvSrem,
                    Op::BvSmod,
                    Op::BvShl,
                    Op::BvLshr,
                    Op::BvAshr,
                ];
                let op = ops[self.rng.gen_range(0..ops.len())].clone();
                app(op, vec![self.bv(w, d), self.bv(w, d)])
            }
        }
    }

    fn root(&mut self) -> Term {
        let depth = self.rng.gen_range(1..=3);
        match self.rng.gen_range(0..10) {
            0..=5 => {
                let f = self.format();
                self.fp(f, depth)
            }
            6 | 7 => self.boolean(depth),
            _ => {
                let w = self.width();
                self.bv(w, depth)
            }
        }
    }
}

/// Replaces every float constant leaf by a variable, returning the new term
/// and the constraints pinning each variable to its constant.
fn pin(t: &Term) -> (Term, Vec<Term>) {
    let mut map: HashMap<u64, Term> = HashMap::new();
    let mut pins = Vec::new();
    let mut stack = vec![(t.clone(), false)];
    while let Some((u, ready)) = stack.pop() {
        if map.contains_key(&u.id()) {
            continue;
        }
        if let Some(Value::Fp(k)) = u.as_const() {
            let v = Term::var(&format!("k{}", pins.len()), u.sort());
            let is = |op: Op| app(op, vec![v.clone()]);
            pins.push(if k.is_nan() {
                is(Op::FpIsNaN)
            } else if k.is_zero() {
                Term::and(vec![
                    is(Op::FpIsZero),
                    is(if k.sign() { Op::FpIsNegative } else { Op::FpIsPositive }),
                ])
            } else {
                app(Op::FpEq, vec![v.clone(), u.clone()])
            });
            map.insert(u.id(), v);
        } else if u.args().is_empty() {
            map.insert(u.id(), u.clone());
        } else if ready {
            let args = u.args().iter().map(|a| map[&a.id()].clone()).collect();
            map.insert(u.id(), app(u.op().clone(), args));
        } else {
            stack.push((u.clone(), true));
            stack.extend(u.args().iter().map(|a| (a.clone(), false)));
        }
    }
    (map[&t.id()].clone(), pins)
}

/// Z3's own value of a ground term (no validation), for reports.
fn z3_value(t: &Term, pins: &[Term]) -> String {
    let v = Term::var("z3_value_of_t", t.sort());
    let mut q = pins.to_vec();
    q.push(v.eq(t));
    match Z3Solver::new().check(&Query::new(q), &Budget::unlimited()) {
        Ok(SolveResult::Sat(m)) => format!("{:?}", m.get(&v)),
        other => format!("{other:?}"),
    }
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

/// The formats to draw from: `FPSYM_DIFF_FORMATS` ("3,3 5,11 ...") or `default`.
fn formats(default: &[(u32, u32)]) -> Vec<(u32, u32)> {
    match std::env::var("FPSYM_DIFF_FORMATS") {
        Ok(s) => s
            .split_whitespace()
            .map(|f| {
                let (e, m) = f.split_once(',').expect("FPSYM_DIFF_FORMATS: eb,sb pairs");
                (e.parse().unwrap(), m.parse().unwrap())
            })
            .collect(),
        Err(_) => default.to_vec(),
    }
}

/// The backend declined: an operation it refuses, or (`fp.rem`) a part of
/// the search space it does not explore.
fn declined(r: &Result<SolveResult, fpsym_solver::SolverError>) -> bool {
    matches!(
        r,
        Ok(SolveResult::Unknown(Reason::Unsupported(_) | Reason::Incomplete(_)))
    )
}

fn has_rem(t: &Term) -> bool {
    let mut stack = vec![t.clone()];
    while let Some(u) = stack.pop() {
        if matches!(u.op(), Op::FpRem) {
            return true;
        }
        stack.extend(u.args().iter().cloned());
    }
    false
}

/// Checks `n` random terms; returns the disagreements found and the number
/// of terms the backend declined (both queries `unknown`).
fn run(seed: u64, n: u64, formats: &[(u32, u32)], pinned: bool) -> (Vec<String>, u64) {
    let mut g = Gen::new(seed, formats);
    let mut skipped = 0;
    let mut s = build(&SolverConfig::bare(Backend::Z3));
    let mut bad = Vec::new();
    for i in 0..n {
        let t = g.root();
        let c = eval(&t, &Model::new()).unwrap_or_else(|e| panic!("term {i} {t:?} does not evaluate: {e}"));
        let ct = Term::constant(c);
        let (t2, pins) = if pinned { pin(&t) } else { (t.clone(), vec![]) };
        let with = |extra: Term| {
            let mut q = pins.clone();
            q.push(extra);
            Query::new(q)
        };
        let r_eq = s.check(&with(t2.eq(&ct)), &Budget::unlimited());
        let r_ne = s.check(&with(distinct(&t2, &ct)), &Budget::unlimited());
        if declined(&r_eq) && declined(&r_ne) {
            skipped += 1;
            continue;
        }
        // With fp.rem the backend never claims unsat (see the z3 module).
        let unsat_ok = matches!(r_ne, Ok(SolveResult::Unsat))
            || (has_rem(&t) && matches!(r_ne, Ok(SolveResult::Unknown(Reason::Incomplete(_)))));
        let ok = matches!(r_eq, Ok(SolveResult::Sat(_))) && unsat_ok;
        if !ok {
            bad.push(format!(
                "seed {seed} term {i}: {t:?}\n  fpsym: {c}\n  z3:    {}\n  (= t c): {}\n  (distinct t c): {}",
                z3_value(&t2, &pins),
                show(&r_eq),
                show(&r_ne)
            ));
        }
    }
    (bad, skipped)
}

fn show(r: &Result<SolveResult, fpsym_solver::SolverError>) -> String {
    match r {
        Ok(x) => x.label().to_string(),
        Err(e) => format!("error: {e}"),
    }
}

#[test]
fn ground_terms_agree_with_fpsym() {
    let seed = env_u64("FPSYM_DIFF_SEED", 0x5eed_0001);
    let n = env_u64("FPSYM_DIFF_N", 600);
    let (bad, skipped) = run(seed, n, &formats(&FORMATS), false);
    eprintln!("{n} ground terms, {skipped} declined");
    assert!(
        bad.is_empty(),
        "{} of {n} ground terms disagree:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn pinned_terms_agree_with_fpsym() {
    let seed = env_u64("FPSYM_DIFF_SEED", 0x5eed_0002);
    let n = env_u64("FPSYM_DIFF_N", 300);
    let (bad, skipped) = run(seed, n, &formats(&PINNED_FORMATS), true);
    eprintln!("{n} pinned terms, {skipped} declined");
    assert!(
        bad.is_empty(),
        "{} of {n} pinned terms disagree:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn pinned_wide_terms_agree_with_fpsym() {
    let seed = env_u64("FPSYM_DIFF_SEED", 0x5eed_0003);
    let n = env_u64("FPSYM_DIFF_N", 60);
    let (bad, skipped) = run(seed, n, &formats(&PINNED_WIDE_FORMATS), true);
    eprintln!("{n} pinned terms, {skipped} declined");
    assert!(
        bad.is_empty(),
        "{} of {n} pinned terms disagree:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
