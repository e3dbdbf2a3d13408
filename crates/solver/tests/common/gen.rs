//! Random QF_FP / QF_BVFP formulas for differential tests (every float
//! operation, symbolic rounding modes, Booleans, bit-vector conversions and
//! bitcasts; formats (3,4), (4,5) and binary16), and a brute-force
//! adjudicator for the tiny formats. Used by `cp_differential.rs` and
//! `crosscheck.rs`; the generator is deterministic for a given seed.
#![allow(dead_code)]

use fpsym_expr::{eval, Float, Format, Model, Op, RoundingMode, Sort, Term, Value};
use fpsym_solver::Query;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The formats formulas are generated in; formula `i` of a run uses
/// `formats()[i % 3]`.
pub fn formats() -> [Format; 3] {
    [Format::new(3, 4).unwrap(), Format::new(4, 5).unwrap(), Format::BINARY16]
}

/// The query generated from `seed` in format `fmt`: one to three random
/// formulas (each an atom or a Boolean combination of two).
pub fn query(seed: u64, fmt: Format) -> Vec<Term> {
    let mut g = Gen {
        rng: StdRng::seed_from_u64(seed),
        fmt,
    };
    let k = g.rng.gen_range(1..=3);
    (0..k).map(|_| g.formula()).collect()
}

fn app(op: Op, args: Vec<Term>) -> Term {
    Term::app(op, args).expect("well-sorted generated term")
}

/// A random formula generator over three float variables `x`, `y`, `z` of
/// format `fmt`, a rounding-mode variable `r`, a Boolean `p` and bit-vectors
/// `b6` and `b<packed width>`.
pub struct Gen {
    pub rng: StdRng,
    pub fmt: Format,
}

impl Gen {
    pub fn fvar(&mut self) -> Term {
        let n = ["x", "y", "z"][self.rng.gen_range(0..3)];
        Term::var(n, Sort::Float(self.fmt))
    }
    pub fn bvvar(&mut self, w: u32) -> Term {
        Term::var(&format!("b{w}"), Sort::BitVec(w))
    }
    pub fn fconst(&mut self) -> Term {
        let f = self.fmt;
        let max = Float::infinity(f, false).ordinal().unwrap();
        Term::fp(match self.rng.gen_range(0..9) {
            0 => Float::zero(f, self.rng.gen()),
            1 => Float::infinity(f, self.rng.gen()),
            2 => Float::nan(f),
            3 => Float::one(f, self.rng.gen()),
            4 => Float::smallest(f, self.rng.gen()),
            _ => Float::from_ordinal(f, self.rng.gen_range(-max - 1..=max)).unwrap(),
        })
    }
    pub fn rm(&mut self) -> Term {
        if self.rng.gen_bool(0.2) {
            Term::var("r", Sort::RoundingMode)
        } else {
            Term::rm(RoundingMode::ALL[self.rng.gen_range(0..5)])
        }
    }
    pub fn float(&mut self, depth: u32) -> Term {
        if depth == 0 || self.rng.gen_bool(0.25) {
            return if self.rng.gen_bool(0.7) {
                self.fvar()
            } else {
                self.fconst()
            };
        }
        let d = depth - 1;
        let f = self.fmt;
        match self.rng.gen_range(0..20) {
            0..=2 => app(Op::FpAdd, vec![self.rm(), self.float(d), self.float(d)]),
            3 => app(Op::FpSub, vec![self.rm(), self.float(d), self.float(d)]),
            4 | 5 => app(Op::FpMul, vec![self.rm(), self.float(d), self.float(d)]),
            6 => app(Op::FpDiv, vec![self.rm(), self.float(d), self.float(d)]),
            // Z3 4.8.12 aborts (fpa2bv_converter.cpp:118) on fp.fma with a
            // symbolic rounding mode: fma gets constant modes here
            7 => app(
                Op::FpFma,
                vec![
                    Term::rm(RoundingMode::ALL[self.rng.gen_range(0..5)]),
                    self.float(d),
                    self.float(d),
                    self.float(d),
                ],
            ),
            8 => app(Op::FpSqrt, vec![self.rm(), self.float(d)]),
            9 => app(Op::FpRoundToIntegral, vec![self.rm(), self.float(d)]),
            10 => app(Op::FpRem, vec![self.float(d), self.float(d)]),
            11 => app(
                if self.rng.gen() { Op::FpMin } else { Op::FpMax },
                vec![self.float(d), self.float(d)],
            ),
            12 => app(if self.rng.gen() { Op::FpAbs } else { Op::FpNeg }, vec![self.float(d)]),
            13 => {
                let c = self.atom(d);
                app(Op::Ite, vec![c, self.float(d), self.float(d)])
            }
            14 => {
                // round trip through another format
                let g = if f == Format::BINARY16 {
                    Format::new(4, 5).unwrap()
                } else {
                    Format::BINARY16
                };
                let inner = app(Op::ToFpFromFp(g), vec![self.rm(), self.float(d)]);
                app(Op::ToFpFromFp(f), vec![self.rm(), inner])
            }
            15 => {
                let b = self.bvvar(6);
                app(
                    if self.rng.gen() {
                        Op::ToFpFromSbv(f)
                    } else {
                        Op::ToFpFromUbv(f)
                    },
                    vec![self.rm(), b],
                )
            }
            16 => {
                let b = self.bvvar(f.packed_width());
                app(Op::ToFpFromBits(f), vec![b])
            }
            _ => {
                let a = self.float(d);
                app(Op::FpAdd, vec![self.rm(), a.clone(), a])
            }
        }
    }
    pub fn atom(&mut self, depth: u32) -> Term {
        let k = self.rng.gen_range(0..12);
        if k < 6 {
            let ops = [Op::FpLeq, Op::FpLt, Op::FpGeq, Op::FpGt, Op::FpEq, Op::Eq];
            let (a, b) = (self.float(depth), self.float(depth));
            return app(ops[k].clone(), vec![a, b]);
        }
        if k < 9 {
            let ops = Op::FP_CLASSIFICATIONS;
            let op = ops[self.rng.gen_range(0..ops.len())].clone();
            return app(op, vec![self.float(depth)]);
        }
        if k == 9 {
            return Term::var("p", Sort::Bool);
        }
        // float to integer, compared with a constant
        let w = 5;
        let signed = self.rng.gen::<bool>();
        let conv = app(
            if signed { Op::FpToSbv(w) } else { Op::FpToUbv(w) },
            vec![self.rm(), self.float(depth)],
        );
        let c = Term::bv(w, self.rng.gen_range(0..32));
        let ops = [Op::BvUle, Op::BvSlt, Op::Eq, Op::BvUgt];
        app(ops[self.rng.gen_range(0..ops.len())].clone(), vec![conv, c])
    }
    pub fn formula(&mut self) -> Term {
        let a = self.atom(2);
        match self.rng.gen_range(0..7) {
            0 => a.not(),
            1 => app(Op::Or, vec![a, self.atom(1)]),
            2 => app(Op::And, vec![a, self.atom(1).not()]),
            3 => app(Op::Xor, vec![a, self.atom(1)]),
            _ => a,
        }
    }
}

/// Brute force over two float variables (x, y), r and p; None if the
/// formula mentions more than that or the format is not tiny.
pub fn brute_force(q: &[Term], f: Format) -> Option<bool> {
    if f.packed_width() > 7 {
        return None;
    }
    let vars: Vec<Term> = Query::new(q.to_vec()).vars();
    let floats: Vec<Float> = {
        let max = Float::infinity(f, false).ordinal().unwrap();
        let mut v: Vec<Float> = (-max - 1..=max).map(|o| Float::from_ordinal(f, o).unwrap()).collect();
        v.push(Float::nan(f));
        v
    };
    let choices: Vec<Vec<Value>> = vars
        .iter()
        .map(|v| match v.sort() {
            Sort::Float(_) => floats.iter().map(|&x| Value::Fp(x)).collect(),
            Sort::RoundingMode => RoundingMode::ALL.iter().map(|&m| Value::Rm(m)).collect(),
            Sort::Bool => vec![Value::Bool(false), Value::Bool(true)],
            Sort::BitVec(w) => (0..(1u128 << w))
                .map(|b| Value::Bv(fpsym_expr::BvValue::new(w, b)))
                .collect(),
        })
        .collect();
    let total: f64 = choices.iter().map(|c| c.len() as f64).product();
    if total > 3e5 {
        return None;
    }
    let mut idx = vec![0usize; vars.len()];
    loop {
        let mut m = Model::new();
        for (i, v) in vars.iter().enumerate() {
            m.insert(v.clone(), choices[i][idx[i]]);
        }
        if q.iter().all(|a| eval(a, &m) == Ok(Value::Bool(true))) {
            return Some(true);
        }
        let mut k = 0;
        loop {
            if k == idx.len() {
                return Some(false);
            }
            idx[k] += 1;
            if idx[k] < choices[k].len() {
                break;
            }
            idx[k] = 0;
            k += 1;
        }
    }
}
