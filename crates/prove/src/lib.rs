//! Proofs through loops: an abstract interpreter over the program's LLVM IR.
//!
//! Symbolic execution proves a property only by enumerating every path; a
//! loop without a bound has infinitely many. This crate proves properties of
//! such programs the way Astrée-class verifiers do: it computes, for every
//! program point, a set of values that contains every value the program can
//! have there (an *invariant*), by iterating the program's transfer
//! functions over an abstract domain to a post-fixpoint, with widening at
//! loop heads so that the iteration ends. A call to an error function in a
//! block the analysis shows unreachable is a proof that the error cannot
//! happen.
//!
//! Soundness is for the code clang-14 emits for x86-64, in every rounding
//! mode: the float domain ([`itv`]) bounds every mode's result, integer
//! overflow and out-of-range float-to-integer conversions give the full
//! range, and anything the analysis does not model (memory it cannot follow,
//! an unknown call, a `long double`) makes it give up on the property, never
//! guess.
#![deny(missing_docs)]

mod analyze;
pub mod itv;
pub mod value;

use fpsym_frontend::{Loc, Program};
use std::fmt;
use std::time::Instant;
pub use value::{IntRange, RatRange, Val};

/// What to prove.
#[derive(Debug, Clone)]
pub struct ProveOptions {
    /// The function the program starts in (`main`).
    pub entry: String,
    /// The functions that must never be called (`reach_error`).
    pub targets: Vec<String>,
    /// Also prove that no integer division by zero (or `INT_MIN / -1`) and
    /// no `unreachable` instruction is reachable: with the failure calls
    /// among the targets, the findings of a plain `fpsym run`.
    pub checks: bool,
    /// The floating-point exceptions to prove absent (exceptions mode's
    /// claims): each operation that may raise one is reachable as a
    /// target would be.
    pub fp: FpChecks,
    /// Ranges of the entry function's parameters (`--range`): a float
    /// parameter named here starts in its range (no NaN), any other at
    /// every value of its type.
    pub params: Vec<fpsym_engine::harness::InputRange>,
    /// When to stop trying.
    pub deadline: Option<Instant>,
    /// Set from outside (Ctrl-C, SIGTERM) to stop trying at once.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// Floating-point exceptions whose absence the analysis proves: an
/// operation that may raise one (in any rounding mode, from its operands'
/// ranges) is reported reachable, named as the finding kind
/// (`fp-overflow`, `fp-divide-by-zero`, `float-cast-overflow`). A call of a
/// math function the analysis does not bound (`exp`, `pow`, ...) may raise
/// each of them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FpChecks {
    /// A finite result out of range: `+`, `-`, `*`, `/`, a narrowing
    /// `fptrunc` or an integer-to-float conversion whose result may be
    /// infinite from finite operands.
    pub overflow: bool,
    /// A finite nonzero value divided by a zero.
    pub divide_by_zero: bool,
    /// `fptosi`/`fptoui` of a value that may be NaN, infinite or out of
    /// the integer type's range.
    pub cast_overflow: bool,
}

impl FpChecks {
    /// No check asked.
    pub fn any(&self) -> bool {
        self.overflow || self.divide_by_zero || self.cast_overflow
    }
}

/// An invariant at a loop head: a range for every value the loop carries.
#[derive(Debug, Clone)]
pub struct Invariant {
    /// The function the loop is in.
    pub function: String,
    /// The loop head's first source location.
    pub loc: Option<Loc>,
    /// Each value the loop carries (by its C name) with its range.
    pub vars: Vec<(String, Val)>,
    /// The relational part: linear combinations of the carried values (C
    /// names, exact coefficients) with their ranges (real arithmetic).
    pub linear: Vec<LinearBound>,
    /// The loop head's block.
    pub head: llvm_ir::Name,
    /// The ranges at the head of every IR value of the function the
    /// analysis knows there (the head's phis, values defined before the
    /// loop) and of the tracked globals: what k-induction may assume.
    pub facts: Vec<(HeadVar, Val)>,
    /// The loop is in the entry function itself (not in a call of it).
    pub in_entry: bool,
}

/// A value at a loop head.
#[derive(Debug, Clone, PartialEq)]
pub enum HeadVar {
    /// An IR value of the function.
    Local(llvm_ir::Name),
    /// A global variable.
    Global(String),
    /// A scalar inside a local object (its C expression: `y[2]`, `s.x`),
    /// which k-induction does not assume anything of.
    Memory(String),
}

/// `lo <= Σ c_i x_i <= hi` over a loop's values, in exact rationals.
#[derive(Debug, Clone)]
pub struct LinearBound {
    /// The coefficients, by C name.
    pub terms: Vec<(String, num_rational::BigRational)>,
    /// The values the names stand for, in the same order.
    pub vars: Vec<HeadVar>,
    /// The range of the combination.
    pub range: value::RatRange,
}

/// A [`LinearBound`] as a witness states it, in binary64: each
/// coefficient rounded to nearest, the lower bound rounded down and the
/// upper bound up. (A statement of its own: with rounded coefficients it
/// may not be an invariant where the exact one is; a check by queries
/// decides.)
#[derive(Debug, Clone)]
pub struct StatedBound {
    /// (C name, value, coefficient).
    pub terms: Vec<(String, HeadVar, fpsym_float::Float)>,
    /// The least value of the combination.
    pub lo: Option<fpsym_float::Float>,
    /// The greatest value.
    pub hi: Option<fpsym_float::Float>,
}

impl LinearBound {
    /// The bound as stated in binary64 (see [`StatedBound`]).
    pub fn stated(&self) -> StatedBound {
        use fpsym_float::{Float, Format, RoundingMode as Rm};
        let lit = |q: &num_rational::BigRational, rm| Float::from_rational(Format::BINARY64, q, rm).value;
        StatedBound {
            terms: self
                .terms
                .iter()
                .zip(&self.vars)
                .map(|((n, c), v)| (n.clone(), v.clone(), lit(c, Rm::NearestTiesToEven)))
                .collect(),
            lo: self.range.lo.as_ref().map(|q| lit(q, Rm::TowardNegative)),
            hi: self.range.hi.as_ref().map(|q| lit(q, Rm::TowardPositive)),
        }
    }
}

/// The linear constraints of the invariants at `head` of `main`, as
/// stated (see [`LinearBound::stated`]), for an invariant check by
/// queries; the constraints over values that are not all C variables
/// (which no witness states) are left out.
pub fn linear_facts(invs: &[Invariant], head: &llvm_ir::Name) -> Vec<fpsym_engine::induction::LinearFact> {
    use fpsym_engine::induction::{HeadVar as V, LinearFact};
    invs.iter()
        .filter(|i| i.in_entry && i.function == "main" && i.head == *head)
        .flat_map(|i| i.linear.iter())
        .map(LinearBound::stated)
        .filter(|b| {
            b.terms
                .iter()
                .all(|(n, v, _)| is_c_identifier(n) && !matches!(v, HeadVar::Memory(_)))
        })
        .map(|b| LinearFact {
            terms: b
                .terms
                .into_iter()
                .map(|(_, v, c)| {
                    let v = match v {
                        HeadVar::Local(n) => V::Register(n),
                        HeadVar::Global(g) => V::Global(g),
                        HeadVar::Memory(_) => unreachable!("left out above"),
                    };
                    (v, c)
                })
                .collect(),
            lo: b.lo,
            hi: b.hi,
        })
        .collect()
}

/// Whether `n` is a C identifier (a name a witness can state).
pub fn is_c_identifier(n: &str) -> bool {
    n.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl fmt::Display for Invariant {
    /// `x in [lo, hi], i in [0, 100]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = self.vars.iter().map(|(n, v)| format!("{n} in {v}")).collect();
        if !self.linear.is_empty() {
            parts.push(format!("and {} linear constraints", self.linear.len()));
        }
        f.write_str(&parts.join(", "))
    }
}

/// Why the analysis gave up: what it met that it does not model, and where.
#[derive(Debug, Clone)]
pub struct GiveUp {
    /// The function it was in.
    pub function: String,
    /// The instruction's location, when known.
    pub loc: Option<Loc>,
    /// What it met.
    pub what: String,
}

impl fmt::Display for GiveUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.loc {
            Some(l) => write!(f, "{l}: {} (in {})", self.what, self.function),
            None => write!(f, "{} (in {})", self.what, self.function),
        }
    }
}

/// The analysis' answer.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// No target call is reachable; the invariants at the loop heads are
    /// what proves it.
    Proved(Vec<Invariant>),
    /// A target call may be reachable (the analysis over-approximates: this
    /// is not a bug, only no proof): where, and the invariants it found
    /// (they hold all the same).
    MayReach(Vec<(String, Option<Loc>)>, Vec<Invariant>),
    /// The analysis met something it does not model.
    GaveUp(GiveUp),
}

/// Proves that no call of `opts.targets` is reachable from `opts.entry`.
pub fn prove(program: &Program, opts: &ProveOptions) -> Outcome {
    let mut a = analyze::Analyzer::new(program, &opts.targets, opts.checks, opts.deadline, opts.cancel.clone());
    a.fp = opts.fp;
    a.params = &opts.params;
    match a.run(&opts.entry) {
        Err(g) => Outcome::GaveUp(g),
        Ok(()) if a.reached.is_empty() => Outcome::Proved(a.invariants),
        Ok(()) => Outcome::MayReach(
            a.reached.into_iter().map(|r| (r.function, r.loc)).collect(),
            a.invariants,
        ),
    }
}

/// The ranges the invariants give at loop head `head` of `main`, as
/// k-induction's step case assumes them ([`fpsym_engine::induction`]).
pub fn induction_facts(invs: &[Invariant], head: &llvm_ir::Name) -> Vec<fpsym_engine::induction::Fact> {
    use fpsym_engine::induction::{Fact, HeadVar as V, Range};
    invs.iter()
        .filter(|i| i.in_entry && i.function == "main" && i.head == *head)
        .flat_map(|i| i.facts.iter())
        .filter_map(|(v, val)| {
            let var = match v {
                HeadVar::Local(n) => V::Register(n.clone()),
                HeadVar::Global(g) => V::Global(g.clone()),
                HeadVar::Memory(_) => return None,
            };
            let range = match val {
                Val::F(x) => Range::Float {
                    bounds: x.bounds(),
                    nan: x.may_be_nan(),
                },
                Val::I(r) => Range::Int { lo: r.lo, hi: r.hi },
                _ => return None,
            };
            Some(Fact { var, range })
        })
        .collect()
}
