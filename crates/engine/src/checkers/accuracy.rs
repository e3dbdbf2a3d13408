//! FPGen's inaccuracy checks (seed 002, Section 3.1): after a floating-point
//! addition or subtraction `r = a ± b` at a chosen site, a three-way
//! branch injected into the search ([`super::OnViolation::Split`]):
//!
//! - precision loss: the operands' exponents differ by at least `sigma`
//!   (the smaller one's low bits are lost): `|a| >= 2^sigma |b|` or the
//!   other way round;
//! - cancellation: the result's exponent is at least `theta` below the
//!   larger operand's: `max(|a|, |b|) >= 2^theta |r|` (a total
//!   cancellation, `r = 0`, included);
//! - accurate: neither.
//!
//! The comparisons are on magnitudes, scaled exactly in a format two
//! exponent bits wider (so `2^sigma |b|` cannot overflow), which is the
//! exponent comparison up to the one binade between `2^e` and `|x|`.
//! Operands that are zero, infinite or NaN are neither. Sites are every
//! `+`/`-` ([`Sites::All`]), those inside loops ([`Sites::Loops`], the
//! accumulations FPGen targets), or given lines; inside a loop only the
//! sampled iterations are split ([`Sampling`]), so that a loop of n
//! iterations does not make 3^n paths.

use super::{Check, Checker, Kind, Point, PointKind};
use crate::state::State;
use crate::term::{format_of, mk, rm};
use fpsym_expr::{Op, Term};
use fpsym_float::{Float, Format, RoundingMode};
use llvm_ir::Instruction as I;
use std::collections::BTreeSet;

/// Which additions and subtractions get the injected branches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sites {
    /// Every floating-point `+` and `-` of the user's code.
    All,
    /// Those inside a loop.
    Loops,
    /// Those on these source lines.
    Lines(BTreeSet<u32>),
}

/// Which iterations of a loop get the injected branches (counted from 0 by
/// the repetitions of the innermost loop before the site).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sampling {
    /// start, start + step, start + 2 step, ...
    Uniform {
        /// First sampled iteration.
        start: u32,
        /// Distance between samples (at least 1).
        step: u32,
    },
    /// start, start * step, start * step^2, ... (start at least 1, step at
    /// least 2).
    Log {
        /// First sampled iteration.
        start: u32,
        /// Factor between samples.
        step: u32,
    },
}

impl Sampling {
    /// Whether iteration `k` is sampled.
    pub fn samples(self, k: u32) -> bool {
        match self {
            Sampling::Uniform { start, step } => k >= start && (k - start).is_multiple_of(step.max(1)),
            Sampling::Log { start, step } => {
                let (start, step) = (start.max(1), step.max(2));
                let mut s = start;
                while s < k {
                    s = match s.checked_mul(step) {
                        Some(n) => n,
                        None => return false,
                    };
                }
                s == k
            }
        }
    }
}

/// The two kinds of inaccuracy the injected branches tell apart.
pub const PRECISION_LOSS: &str = "precision-loss";
/// See [`PRECISION_LOSS`].
pub const CANCELLATION: &str = "cancellation";

/// The checker injecting FPGen's inaccuracy branches.
pub struct Inaccuracy {
    sigma: u32,
    theta: u32,
    sites: Sites,
    sampling: Sampling,
    /// Per function (module order): the blocks inside a loop and, for
    /// each, its innermost loop header.
    loops: Vec<Vec<Option<usize>>>,
}

impl Inaccuracy {
    /// Branches on losses of `sigma` bits and cancellations of `theta`
    /// bits at `sites`, in the `sampling` iterations of loops.
    pub fn new(sigma: u32, theta: u32, sites: Sites, sampling: Sampling) -> Inaccuracy {
        Inaccuracy {
            sigma,
            theta,
            sites,
            sampling,
            loops: Vec::new(),
        }
    }

    /// 2^k in `f`.
    fn pow2(f: Format, k: u32) -> Term {
        crate::term::fp(Float::from_fields(f, false, (f.bias() + k as i64) as u64, 0))
    }
}

/// Blocks inside loops, by the back edges of a function laid out as clang
/// lays it out (a loop's blocks between its header and its latch): for
/// each block, the innermost header whose loop holds it.
fn loop_blocks(f: &llvm_ir::Function) -> Vec<Option<usize>> {
    let index: std::collections::HashMap<&llvm_ir::Name, usize> =
        f.basic_blocks.iter().enumerate().map(|(k, b)| (&b.name, k)).collect();
    let mut inner: Vec<Option<usize>> = vec![None; f.basic_blocks.len()];
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for (j, b) in f.basic_blocks.iter().enumerate() {
        let targets: Vec<&llvm_ir::Name> = match &b.term {
            llvm_ir::Terminator::Br(br) => vec![&br.dest],
            llvm_ir::Terminator::CondBr(c) => vec![&c.true_dest, &c.false_dest],
            _ => vec![],
        };
        for t in targets {
            if let Some(&h) = index.get(t) {
                if h <= j {
                    spans.push((h, j));
                }
            }
        }
    }
    // Wider spans first, so the innermost header is written last.
    spans.sort_by_key(|(h, j)| std::cmp::Reverse(j - h));
    for (h, j) in spans {
        for slot in inner.iter_mut().take(j + 1).skip(h) {
            *slot = Some(h);
        }
    }
    inner
}

impl Checker for Inaccuracy {
    fn name(&self) -> &str {
        "inaccuracy"
    }
    fn looks_at(&self, kind: PointKind) -> bool {
        kind == PointKind::Instruction
    }
    fn start(&mut self, module: &llvm_ir::Module) {
        self.loops = module.functions.iter().map(loop_blocks).collect();
    }
    fn check(&mut self, st: &State, at: Point<'_>, operands: &[Option<Term>]) -> Vec<Check> {
        let Point::Instruction(inst) = at else {
            return vec![];
        };
        let (sub, line) = match inst {
            I::FAdd(i) => (false, i.debugloc.as_ref().map(|l| l.line)),
            I::FSub(i) => (true, i.debugloc.as_ref().map(|l| l.line)),
            _ => return vec![],
        };
        let [Some(a), Some(b)] = operands else {
            return vec![];
        };
        if !matches!(a.sort(), fpsym_expr::Sort::Float(_)) {
            return vec![];
        }
        let frame = st.frame();
        let header = self
            .loops
            .get(frame.func)
            .and_then(|l| l.get(frame.bb))
            .copied()
            .flatten();
        let chosen = match &self.sites {
            Sites::All => true,
            Sites::Loops => header.is_some(),
            Sites::Lines(ls) => line.is_some_and(|l| ls.contains(&l)),
        };
        if !chosen {
            return vec![];
        }
        if let Some(h) = header {
            let repeats = st.loop_visits.get(&(frame.func, h)).copied().unwrap_or(0);
            if !self.sampling.samples(repeats) {
                return vec![];
            }
        }
        let f = format_of(a);
        let Ok(wide) = Format::new(f.eb() + 2, f.sb()) else {
            return vec![];
        };
        let r = mk(
            if sub { Op::FpSub } else { Op::FpAdd },
            vec![rm(st.rm), a.clone(), b.clone()],
        );
        let widen = |x: &Term| {
            mk(
                Op::FpAbs,
                vec![mk(
                    Op::ToFpFromFp(wide),
                    vec![rm(RoundingMode::NearestTiesToEven), x.clone()],
                )],
            )
        };
        let (wa, wb, wr) = (widen(a), widen(b), widen(&r));
        let scaled = |k: u32, x: &Term| {
            mk(
                Op::FpMul,
                vec![
                    rm(RoundingMode::NearestTiesToEven),
                    Inaccuracy::pow2(wide, k),
                    x.clone(),
                ],
            )
        };
        let geq = |x: Term, y: Term| mk(Op::FpGeq, vec![x, y]);
        let proper = |x: &Term| {
            mk(
                Op::And,
                vec![
                    mk(Op::Not, vec![mk(Op::FpIsZero, vec![x.clone()])]),
                    mk(Op::Not, vec![mk(Op::FpIsInfinite, vec![x.clone()])]),
                    mk(Op::Not, vec![mk(Op::FpIsNaN, vec![x.clone()])]),
                ],
            )
        };
        let operands_ok = mk(Op::And, vec![proper(a), proper(b)]);
        let loss = mk(
            Op::And,
            vec![
                operands_ok.clone(),
                mk(
                    Op::Or,
                    vec![
                        geq(wa.clone(), scaled(self.sigma, &wb)),
                        geq(wb.clone(), scaled(self.sigma, &wa)),
                    ],
                ),
            ],
        );
        let larger = mk(Op::FpMax, vec![wa, wb]);
        let cancel = mk(Op::And, vec![operands_ok, geq(larger, scaled(self.theta, &wr))]);
        vec![
            Check::split(
                Kind::Custom(PRECISION_LOSS.into()),
                loss,
                format!("operand exponents {} or more apart", self.sigma),
            ),
            Check::split(
                Kind::Custom(CANCELLATION.into()),
                cancel,
                format!("{} or more bits cancel", self.theta),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampling_picks_iterations() {
        let u = Sampling::Uniform { start: 2, step: 3 };
        let got: Vec<u32> = (0..12).filter(|k| u.samples(*k)).collect();
        assert_eq!(got, vec![2, 5, 8, 11]);
        let l = Sampling::Log { start: 1, step: 2 };
        let got: Vec<u32> = (0..40).filter(|k| l.samples(*k)).collect();
        assert_eq!(got, vec![1, 2, 4, 8, 16, 32]);
    }
}
