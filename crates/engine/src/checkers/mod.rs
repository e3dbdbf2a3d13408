//! Bugs the engine reports. Each finding has a kind, a location and the
//! call stack; the engine attaches the test that triggers it.
//!
//! Built-in checks run where the executor has the facts: division by zero
//! (and INT_MIN / -1) at every integer division, out-of-bounds and
//! use-after-free at every access, invalid free at `free`, and the
//! program's own failure points (assert, reach_error, abort, unreachable).
//! [`Checker`] is the extension point for checks on values (e.g. floating-
//! point exceptions): it sees every executed instruction, terminator and
//! call result with the state and operand values, and returns conditions
//! that would be bugs. The set of checkers is [`crate::Extensions::checkers`].

pub mod accuracy;
pub mod fp;
pub mod range;

use crate::state::{Loc, State};
use fpsym_expr::Term;

/// What went wrong: the finding kinds, one table shared with the records
/// and replay (`fpsym-report`).
pub use fpsym_report::FindingKind as Kind;

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
    /// How the program ends at a native run: by this signal rather than
    /// the one its kind implies (`llvm.trap` aborts with SIGILL, not
    /// SIGABRT). Default: None.
    pub signal: Option<fpsym_report::Termination>,
    /// The operation at fault, its operands and result, shown with the
    /// finding's input (continuing checks). Default: None.
    pub operation: Option<Operation>,
}

/// An operation a finding is about: `fmul` of these operands, giving this.
#[derive(Clone, Debug)]
pub struct Operation {
    /// Its name: the instruction's opcode (`fmul`) or the callee (`log`).
    pub name: String,
    /// Its operands.
    pub operands: Vec<Term>,
    /// Its result, when the checker knows it.
    pub result: Option<Term>,
}

impl Violation {
    /// A violation at `loc` with `st`'s call stack.
    pub fn new(kind: Kind, loc: Option<Loc>, st: &State) -> Violation {
        Violation {
            kind,
            loc,
            stack: Vec::new(),
            message: String::new(),
            signal: None,
            operation: None,
        }
        .with_stack(st)
    }
    /// Sets the message.
    pub fn with_message(mut self, m: impl Into<String>) -> Violation {
        self.message = m.into();
        self
    }
    /// Sets how the program ends natively.
    pub fn with_signal(mut self, t: fpsym_report::Termination) -> Violation {
        self.signal = Some(t);
        self
    }
    fn with_stack(mut self, st: &State) -> Violation {
        self.stack = st
            .frames
            .iter()
            .rev()
            .map(|f| (f.func, f.call_site.as_deref().cloned()))
            .collect();
        self
    }
}

/// Where a checker looks: before an instruction (calls included) or a
/// terminator executes, or after a call returned with its result.
#[derive(Clone, Copy, Debug)]
pub enum Point<'a> {
    /// Before this instruction; operands are its evaluated operands (for a
    /// call: the callee operand, absent for inline assembly, followed by
    /// the arguments).
    Instruction(&'a llvm_ir::Instruction),
    /// Before this terminator; operands are its evaluated operands (the
    /// condition of `br`, the value of `switch` and `ret`).
    Terminator(&'a llvm_ir::Terminator),
    /// A call to `callee` returned (a modelled call at once, a defined
    /// function at its `ret`); the operand is its result, if any.
    Returned {
        /// The function called.
        callee: &'a str,
    },
}

/// The kinds of [`Point`], for [`Checker::looks_at`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointKind {
    /// [`Point::Instruction`].
    Instruction,
    /// [`Point::Terminator`].
    Terminator,
    /// [`Point::Returned`].
    Returned,
}

impl Point<'_> {
    /// The point's kind.
    pub fn kind(&self) -> PointKind {
        match self {
            Point::Instruction(_) => PointKind::Instruction,
            Point::Terminator(_) => PointKind::Terminator,
            Point::Returned { .. } => PointKind::Returned,
        }
    }
}

/// What happens to a path on which a violation can happen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnViolation {
    /// The violation ends its path (a trap, undefined behaviour): the
    /// path splits into one that violates (a finding, with its test) and
    /// one that goes on under the negated condition. Two queries.
    #[default]
    EndPath,
    /// The program goes on after it (an IEEE exception gives inf, NaN or a
    /// subnormal): one query; if the condition can hold, a finding with a
    /// test that reaches it, and the path goes on unconstrained.
    Continue,
    /// The checker cannot tell whether the violation happens when the
    /// condition holds (an operation it does not model, a comparison whose
    /// lowering decides): if the condition can hold (one query; none for
    /// `true`), a `CheckUndecided` event, so the run is never "verified"
    /// for this kind; no finding.
    Unchecked,
    /// Not a bug but a branch the checker injects (FPGen's inaccuracy
    /// checks, seed 002): the path forks into one where the condition
    /// holds and one where it does not, both going on (each feasible side;
    /// two queries), so the search reaches each behaviour and each side's
    /// path ends with a test of its own. No finding. For instructions
    /// only; the split-off side executes the instruction without running
    /// the checks there again (any checker's: the parent state ran them
    /// before the split, those after the split on its other side only).
    Split,
}

/// A condition that would be a bug at a point.
#[derive(Clone, Debug)]
pub struct Check {
    /// The finding's kind.
    pub kind: Kind,
    /// The condition (a Boolean term over the path's values).
    pub cond: Term,
    /// What the finding says.
    pub message: String,
    /// What happens to the path if the condition can hold.
    pub then: OnViolation,
    /// The operation checked (see [`Violation::operation`]).
    pub operation: Option<Operation>,
    /// The source line to report the finding at instead of the
    /// instruction's (a line whose code the analysis build folded away,
    /// see [`crate::directed::FoldedLines`]). Default: None.
    pub line: Option<u32>,
}

impl Check {
    /// A check whose violation ends the path.
    pub fn ending(kind: Kind, cond: Term, message: impl Into<String>) -> Check {
        Check {
            kind,
            cond,
            message: message.into(),
            then: OnViolation::EndPath,
            operation: None,
            line: None,
        }
    }
    /// The same check, reported at `line` of the instruction's file (or
    /// the function's, for an instruction without a location).
    pub fn at_line(mut self, line: u32) -> Check {
        self.line = Some(line);
        self
    }
    /// The same check, about `operation` (set when none is).
    pub fn about(mut self, operation: &Operation) -> Check {
        self.operation.get_or_insert_with(|| operation.clone());
        self
    }
    /// The checker cannot tell whether `kind` can happen here: why.
    pub fn unchecked(kind: Kind, why: impl Into<String>) -> Check {
        Check::unchecked_if(kind, fpsym_expr::Term::bool(true), why)
    }
    /// The checker cannot tell whether `kind` happens where `cond` holds.
    pub fn unchecked_if(kind: Kind, cond: Term, why: impl Into<String>) -> Check {
        Check {
            then: OnViolation::Unchecked,
            ..Check::ending(kind, cond, why)
        }
    }
    /// A branch the checker injects (see [`OnViolation::Split`]).
    pub fn split(kind: Kind, cond: Term, message: impl Into<String>) -> Check {
        Check {
            then: OnViolation::Split,
            ..Check::ending(kind, cond, message)
        }
    }
    /// A check after whose violation the path goes on.
    pub fn continuing(kind: Kind, cond: Term, message: impl Into<String>) -> Check {
        Check {
            then: OnViolation::Continue,
            ..Check::ending(kind, cond, message)
        }
    }
}

/// A check on executed code. Why this shape: a checker only states
/// conditions (Boolean terms over the path's values) and how a violation
/// affects the path; the engine asks the solver whether the path allows
/// each, makes the finding and its test, and forks or goes on as the
/// check says. So checkers never touch solvers or the set of states, and
/// a mode adds one through [`crate::Extensions::checkers`] without changing
/// the executor. They see the whole state (path condition, rounding mode
/// `st.rm`, frames, extension data) read-only.
pub trait Checker: Send {
    /// A short name.
    fn name(&self) -> &str;
    /// Whether the checker looks at points of this kind (the engine does
    /// not evaluate operands for points no checker looks at). Default: all.
    fn looks_at(&self, _kind: PointKind) -> bool {
        true
    }
    /// Conditions under which executing `at` on `st` with `operands`
    /// (evaluated operand terms, None for aggregates; a vector operation
    /// is checked lane by lane) is a bug.
    fn check(&mut self, st: &State, at: Point<'_>, operands: &[Option<Term>]) -> Vec<Check>;
    /// Whether [`Checker::check`] may return a check at instruction
    /// `inst`: asked once per instruction without operands (None), and
    /// then, where the answer was yes, on each concrete execution with the
    /// operands' values. False lets the concrete fast path (`exec::fast`)
    /// execute the instruction without calling `check`; so it must be
    /// false only where `check` would return no check (or only checks
    /// whose condition is false). Default: wherever the checker looks at
    /// instructions.
    fn may_check(&self, _inst: &llvm_ir::Instruction, _operands: Option<&[fpsym_expr::Value]>) -> bool {
        self.looks_at(PointKind::Instruction)
    }
    /// Whether [`Checker::may_check`] can say yes at `inst` only for
    /// operands the concrete fast path never executes (integer division
    /// by zero, or INT_MIN / -1, which it leaves to the executor): then
    /// the fast path does not ask it at each execution. Default: false.
    fn only_where_not_plain(&self, _inst: &llvm_ir::Instruction) -> bool {
        false
    }
    /// Told once, before the run, which program it checks (e.g. which
    /// functions have a body there: a program's own `sqrt` is not libm's).
    /// Default: nothing.
    fn start(&mut self, _module: &llvm_ir::Module) {}
}

/// Makes a fresh checker for each run (a run's checkers keep state of
/// their own; [`crate::Config`] is cloneable and shared).
#[derive(Clone)]
pub struct CheckerFactory(std::sync::Arc<dyn Fn() -> Box<dyn Checker> + Send + Sync>);

impl CheckerFactory {
    /// A factory calling `make`.
    pub fn new(make: impl Fn() -> Box<dyn Checker> + Send + Sync + 'static) -> CheckerFactory {
        CheckerFactory(std::sync::Arc::new(make))
    }
    /// A new checker.
    pub fn make(&self) -> Box<dyn Checker> {
        (self.0)()
    }
}

impl std::fmt::Debug for CheckerFactory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CheckerFactory")
    }
}

/// Integer division and remainder by zero, and INT_MIN / -1 (which traps
/// on x86-64 as well): `udiv`, `sdiv`, `urem`, `srem`.
pub struct DivisionChecker;

impl Checker for DivisionChecker {
    fn name(&self) -> &str {
        "division"
    }
    fn only_where_not_plain(&self, inst: &llvm_ir::Instruction) -> bool {
        // The fast path's integer division (fast::eval::int_op) leaves a
        // zero divisor and INT_MIN / -1 to the executor: what this
        // checker reports.
        use llvm_ir::Instruction as I;
        matches!(inst, I::UDiv(_) | I::SDiv(_) | I::URem(_) | I::SRem(_))
    }
    fn looks_at(&self, kind: PointKind) -> bool {
        kind == PointKind::Instruction
    }
    fn may_check(&self, inst: &llvm_ir::Instruction, operands: Option<&[fpsym_expr::Value]>) -> bool {
        use llvm_ir::Instruction as I;
        let signed = match inst {
            I::UDiv(_) | I::URem(_) => false,
            I::SDiv(_) | I::SRem(_) => true,
            _ => return false,
        };
        let Some(ops) = operands else { return true };
        // The conditions `check` states, on constants: b = 0, or
        // a = INT_MIN and b = -1 for signed division.
        match ops {
            [fpsym_expr::Value::Bv(a), fpsym_expr::Value::Bv(b)] => {
                let w = b.width();
                let ones = if w >= 128 { u128::MAX } else { (1u128 << w) - 1 };
                b.bits() == 0 || (signed && a.bits() == 1u128 << (w - 1) && b.bits() == ones)
            }
            _ => true,
        }
    }
    fn check(&mut self, _st: &State, at: Point<'_>, operands: &[Option<Term>]) -> Vec<Check> {
        use crate::term::{bv, mk, width};
        use fpsym_expr::Op;
        use llvm_ir::Instruction as I;
        let Point::Instruction(inst) = at else {
            return vec![];
        };
        let signed = match inst {
            I::UDiv(_) | I::URem(_) => false,
            I::SDiv(_) | I::SRem(_) => true,
            _ => return vec![],
        };
        let (Some(Some(a)), Some(Some(b))) = (operands.first(), operands.get(1)) else {
            return vec![];
        };
        let w = width(b);
        let mut out = vec![Check::ending(
            Kind::DivisionByZero,
            mk(Op::Eq, vec![b.clone(), bv(w, 0)]),
            "division by zero",
        )];
        if signed {
            let min = mk(Op::Eq, vec![a.clone(), bv(w, 1u128 << (w - 1))]);
            let m1 = mk(Op::Eq, vec![b.clone(), bv(w, u128::MAX)]);
            out.push(Check::ending(
                Kind::DivisionByZero,
                mk(Op::And, vec![min, m1]),
                "signed division overflow (INT_MIN / -1)",
            ));
        }
        out
    }
}

/// The checkers a run uses unless its [`crate::Config`] says otherwise:
/// integer division.
pub fn default_checkers() -> Vec<CheckerFactory> {
    vec![CheckerFactory::new(|| Box::new(DivisionChecker))]
}
