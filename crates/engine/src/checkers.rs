//! Bugs the engine reports. Each finding has a kind, a location and the
//! call stack; the engine attaches the test that triggers it.
//!
//! Built-in checks run where the executor has the facts: division by zero
//! (and INT_MIN / -1) at every integer division, out-of-bounds and
//! use-after-free at every access, invalid free at `free`, and the
//! program's own failure points (assert, reach_error, abort, unreachable).
//! [`Checker`] is the extension point for checks on values (e.g. floating-
//! point exceptions): it sees every executed instruction with its operand
//! values and returns conditions that would be bugs.

use crate::state::{Loc, State};
use fpsym_expr::Term;

/// What went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `assert` failed (`__assert_fail`).
    AssertionFailure,
    /// `reach_error()` or `__VERIFIER_error()` was called.
    ReachError,
    /// `abort()` was called (or `llvm.trap`).
    Abort,
    /// Integer division or remainder by zero, or INT_MIN / -1.
    DivisionByZero,
    /// Access outside every live object, or past the end of one.
    OutOfBounds,
    /// Access to a freed heap object or a popped stack object.
    UseAfterFree,
    /// `free` of something that is not the start of a live heap object.
    InvalidFree,
    /// `unreachable` was executed.
    Unreachable,
    /// A [`Checker`]'s own kind.
    Custom(&'static str),
}

impl Kind {
    /// The name used in findings (`assertion-failure`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            Kind::AssertionFailure => "assertion-failure",
            Kind::ReachError => "reach-error",
            Kind::Abort => "abort",
            Kind::DivisionByZero => "division-by-zero",
            Kind::OutOfBounds => "out-of-bounds",
            Kind::UseAfterFree => "use-after-free",
            Kind::InvalidFree => "invalid-free",
            Kind::Unreachable => "unreachable",
            Kind::Custom(s) => s,
        }
    }
}

/// A bug on a path.
#[derive(Clone, Debug)]
pub struct Violation {
    /// What.
    pub kind: Kind,
    /// Where (the call site for reach_error and assert).
    pub loc: Option<Loc>,
    /// The call stack, innermost first: function (index into the
    /// program's functions) and the site it was called from.
    pub stack: Vec<(usize, Option<Loc>)>,
    /// Details.
    pub message: String,
}

impl Violation {
    /// A violation at `loc` with `st`'s call stack.
    pub fn new(kind: Kind, loc: Option<Loc>, st: &State) -> Violation {
        Violation {
            kind,
            loc,
            stack: Vec::new(),
            message: String::new(),
        }
        .with_stack(st)
    }
    /// Sets the message.
    pub fn with_message(mut self, m: impl Into<String>) -> Violation {
        self.message = m.into();
        self
    }
    fn with_stack(mut self, st: &State) -> Violation {
        self.stack = st.frames.iter().rev().map(|f| (f.func, f.call_site.clone())).collect();
        self
    }
}

/// A check on executed instructions. Why this shape: a checker only states
/// a condition (a Boolean term over the path's inputs); the engine asks the
/// solver whether the path allows it, forks off a finding with a test when
/// it does, and continues the path under its negation, so checkers never
/// touch states or solvers.
pub trait Checker: Send {
    /// A short name.
    fn name(&self) -> &'static str;
    /// Conditions under which executing `inst` with `operands` (the
    /// evaluated operand terms, None for aggregates) is a bug.
    fn check(&mut self, inst: &llvm_ir::Instruction, operands: &[Option<Term>]) -> Vec<(Kind, Term, String)>;
}

/// Integer division and remainder by zero, and INT_MIN / -1 (which traps
/// on x86-64 as well): `udiv`, `sdiv`, `urem`, `srem`.
pub struct DivisionChecker;

impl Checker for DivisionChecker {
    fn name(&self) -> &'static str {
        "division"
    }
    fn check(&mut self, inst: &llvm_ir::Instruction, operands: &[Option<Term>]) -> Vec<(Kind, Term, String)> {
        use crate::term::{bv, mk, width};
        use fpsym_expr::Op;
        use llvm_ir::Instruction as I;
        let signed = match inst {
            I::UDiv(_) | I::URem(_) => false,
            I::SDiv(_) | I::SRem(_) => true,
            _ => return vec![],
        };
        let (Some(Some(a)), Some(Some(b))) = (operands.first(), operands.get(1)) else {
            return vec![];
        };
        let w = width(b);
        let mut out = vec![(
            Kind::DivisionByZero,
            mk(Op::Eq, vec![b.clone(), bv(w, 0)]),
            "division by zero".to_string(),
        )];
        if signed {
            let min = mk(Op::Eq, vec![a.clone(), bv(w, 1u128 << (w - 1))]);
            let m1 = mk(Op::Eq, vec![b.clone(), bv(w, u128::MAX)]);
            out.push((
                Kind::DivisionByZero,
                mk(Op::And, vec![min, m1]),
                "signed division overflow (INT_MIN / -1)".to_string(),
            ));
        }
        out
    }
}

/// The checkers every run uses.
pub fn default_checkers() -> Vec<Box<dyn Checker>> {
    vec![Box::new(DivisionChecker)]
}
