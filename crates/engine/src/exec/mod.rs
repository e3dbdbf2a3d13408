//! The executor: one instruction at a time on one state. Instruction
//! families live in their own files (arith, casts via arith, memory, calls).

mod effects;
pub use effects::Effects;
mod alloca;
pub mod arith;
mod calls;
mod constrained;
mod memops;
pub mod operand;
mod varargs;

pub use alloca::SYMBOLIC_SIZE_CAPACITY;
pub use calls::Access;
pub use memops::float_from_bits;

use crate::checkers::{Check, OnViolation, Point, PointKind, Violation};
use crate::plugin::{Branch, Follow};
use crate::prog::Prog;
use crate::state::{Loc, State};
use crate::term::{as_bool, as_bv, bv, bv1_to_bool, format_of, mk, rm, width};
use crate::value::Val;
use crate::{Config, Stats};
use fpsym_expr::{Model, Op, Term};
use fpsym_float::{Float, RoundingMode};
use fpsym_solver::{Budget, Query, SolveResult, Solver};
use llvm_ir::{Constant, Instruction, Module, Name, Operand, Terminator, Type, TypeRef};
use std::collections::HashMap;
use std::time::Instant;

/// Why an instruction could not be executed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ExecError {
    /// Something fpsym does not model (the path ends, incomplete).
    #[error("unsupported: {0}")]
    Unsupported(String),
}

/// How a path ended.
#[derive(Debug, Clone)]
pub enum End {
    /// `main` returned or `exit` was called, with this status (an integer
    /// term; a symbolic status is evaluated in the test's model).
    Exit(Term),
    /// A bug: the path ends here with a finding.
    Error(Violation),
    /// `klee_assume`/`__VERIFIER_assume` of something false, or an
    /// infeasible choice: no test.
    Infeasible,
    /// Stopped early (loop bound, unsupported construct, solver unknown):
    /// a test is written, the verdict is incomplete.
    Partial(crate::report::Partial),
    /// A feasible branch side the oracle excluded (it cannot reach a
    /// directed run's target): a test is written, so that replay checks
    /// natively that its input does not reach the target either; the
    /// verdict stays complete.
    Pruned,
}

/// What one step did.
pub enum Outcome {
    /// The state goes on.
    Continue,
    /// The state goes on, and these new states were split off.
    Fork(Vec<State>),
    /// The state ended.
    End(End),
}

/// Result of a feasibility question.
pub enum Feasible {
    /// Yes, with a model.
    Yes(Model),
    /// No.
    No,
    /// The solver could not tell.
    Unknown(String),
}

/// A feasibility answer that keeps whether an undecided query timed out
/// (see [`Exec::decide`]).
pub enum Decision {
    /// Yes, with a model.
    Yes(Model),
    /// No.
    No,
    /// The query ran out of its time (the per-query timeout, the run's
    /// deadline, or a raised cancellation flag).
    Timeout,
    /// The solver could not tell for another reason (unsupported, gave up),
    /// or failed (the fault is recorded in [`Exec::fault`]).
    Unknown(String),
}

/// A branch condition whose side could not be decided in time (or not at
/// all, after a solver fault): the side's state went on as if feasible;
/// the engine finds it by its condition in the path at the end of the step
/// and keeps it aside, to be asked again with a longer timeout (or dropped
/// with an event when the run stops).
#[derive(Clone, Debug)]
pub struct Undecided {
    /// The condition the side added to its path.
    pub cond: Term,
    /// The timeout its query had.
    pub timeout: std::time::Duration,
    /// Where the branch is.
    pub loc: Option<Loc>,
    /// Why it is undecided (`timeout`, or the solver fault).
    pub reason: String,
    /// A side of a branch of the program (not of a checker's fork).
    pub branch: bool,
}

/// The undecided condition on `st`'s path with the longest timeout, if any.
pub fn undecided_in<'u>(undecided: &'u [Undecided], st: &State) -> Option<&'u Undecided> {
    undecided
        .iter()
        .filter(|u| st.path.contains(&u.cond))
        .max_by_key(|u| u.timeout)
}

/// The executor's view of the run: program, solver, options, counters.
pub struct Exec<'e, 'p> {
    /// The program.
    pub prog: &'e Prog<'p>,
    /// The solver chain.
    pub solver: &'e mut dyn Solver,
    /// Options.
    pub config: &'e Config,
    /// Counters.
    pub stats: &'e mut Stats,
    /// Global variable addresses (by name).
    pub globals: &'e HashMap<String, u64>,
    /// End of the whole run.
    pub deadline: Option<Instant>,
    /// What the step being run produced besides its outcome; [`Exec::step`]
    /// returns it.
    pub(crate) effects: Effects,
    /// Findings already reported (kind, location): a continuing check
    /// of one of them asks no query.
    pub found: &'e std::collections::HashSet<(crate::checkers::Kind, Option<Loc>)>,
    /// Checks already reported as undecided (kind, location): reported
    /// once.
    pub unchecked: &'e mut std::collections::HashSet<(crate::checkers::Kind, Option<Loc>)>,
    /// Checks run on every instruction.
    pub checkers: &'e mut Vec<Box<dyn crate::checkers::Checker>>,
    /// The mode's observers and branch oracle.
    pub plugins: &'e mut crate::plugin::Plugins,
    /// Raised to stop the run (Ctrl-C): passed into every query's budget,
    /// so a running solver stops within its polling interval.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// The first solver fault of the run (an error that is not an answer);
    /// once set, no more queries are asked and the run stops.
    pub fault: &'e mut Option<fpsym_solver::SolverError>,
    /// Set while a branch of the program forks (see [`Undecided::branch`]).
    pub branching: bool,
    /// Whether an argument of the call being run is a constant in the IR
    /// (a model whose native code depends on it reads this: `fmax`).
    pub constant_argument: bool,
}

/// Resizes a bit-vector term to `w` bits (truncate, or extend by sign/zero).
pub fn resize(t: &Term, w: u32, signed: bool) -> Term {
    let v = width(t);
    if v == w {
        t.clone()
    } else if v > w {
        mk(Op::BvExtract(w - 1, 0), vec![t.clone()])
    } else if signed {
        mk(Op::BvSignExtend(w - v), vec![t.clone()])
    } else {
        mk(Op::BvZeroExtend(w - v), vec![t.clone()])
    }
}

/// The pointee type of a constant pointer's type.
pub fn const_type(m: &Module, c: &Constant) -> TypeRef {
    match m.types.type_of(c).as_ref() {
        Type::PointerType { pointee_type, .. } => pointee_type.clone(),
        _ => m.types.i8(),
    }
}

/// The debug location of an instruction.
pub fn instr_loc(i: &Instruction) -> Option<Loc> {
    use llvm_ir::HasDebugLoc;
    crate::state::loc_of(i.get_debug_loc())
}

impl<'e, 'p> Exec<'e, 'p> {
    /// Asks whether `st.path ∧ extra` is satisfiable, within the per-query
    /// timeout (`config.solver_timeout`).
    pub fn feasible(&mut self, st: &State, extra: &[Term]) -> Feasible {
        match self.decide(st, extra, self.config.limits.solver_timeout) {
            Decision::Yes(m) => Feasible::Yes(m),
            Decision::No => Feasible::No,
            Decision::Timeout => Feasible::Unknown("timeout".into()),
            Decision::Unknown(why) => Feasible::Unknown(why),
        }
    }

    /// Asks whether `st.path ∧ extra` is satisfiable within `timeout` (and
    /// the run's deadline and cancellation flag). A solver error is not an
    /// answer: it is recorded in [`Exec::fault`] (the first one) and the
    /// answer is `Unknown`; once a fault is recorded, no query is asked.
    pub fn decide(&mut self, st: &State, extra: &[Term], timeout: Option<std::time::Duration>) -> Decision {
        let mut a = st.path.clone();
        a.extend(extra.iter().filter(|t| as_bool(t) != Some(true)).cloned());
        if a.iter().any(|t| as_bool(t) == Some(false)) {
            return Decision::No;
        }
        if let Some(f) = self.fault.as_ref() {
            return Decision::Unknown(format!("not asked after a solver fault ({f})"));
        }
        let q = Query::new(a);
        let mut budget = Budget::until(self.deadline);
        if let Some(flag) = &self.cancel {
            budget = budget.with_cancel(flag.clone());
        }
        if let Some(t) = timeout {
            budget = budget.at_most(t);
        }
        let start = Instant::now();
        self.stats.queries += 1;
        let r = self.solver.check(&q, &budget);
        self.stats.solver_seconds += start.elapsed().as_secs_f64();
        decision(r, self.fault)
    }

    /// For a float-to-integer conversion that x86-64 code makes by a library
    /// call ([`arith::lib_conversion`]), whose out-of-range results fpsym
    /// does not model: `st` goes on where the value `a` is in the range of
    /// the `w`-bit destination, and the inputs where it is not end partial
    /// (so no claim covers them). `Some` when no input is in range.
    fn library_conversion_range(
        &mut self,
        st: &mut State,
        a: &Val,
        w: u32,
        signed: bool,
        loc: Option<Loc>,
    ) -> Option<Outcome> {
        let Val::Fp(x) = a else { return None };
        let fmt = format_of(x);
        if !arith::lib_conversion(fmt, w) {
            return None;
        }
        let bound = |k: u32, negative: bool| {
            let p = Float::pow2(fmt, k as i64).unwrap_or_else(|| Float::infinity(fmt, false));
            Term::fp(if negative { p.neg() } else { p })
        };
        let (lo, hi) = if signed {
            (bound(w - 1, true), bound(w - 1, false))
        } else {
            // Values in (-1, 0) truncate to 0, in range.
            (Term::fp(Float::one(fmt, true)), bound(w, false))
        };
        let r = mk(Op::FpRoundToIntegral, vec![rm(RoundingMode::TowardZero), x.clone()]);
        let lo_ok = if signed {
            mk(Op::FpLeq, vec![lo, r.clone()])
        } else {
            mk(Op::FpLt, vec![lo, r.clone()])
        };
        let cond = mk(Op::And, vec![lo_ok, mk(Op::FpLt, vec![r, hi])]);
        let why = format!(
            "conversion of an out-of-range {} value to a {w}-bit {} integer (a library call whose result fpsym does not model)",
            fpsym_report::values::c_type_name(fmt),
            if signed { "signed" } else { "unsigned" }
        );
        let (yes, no) = self.fork(st.clone(), cond, loc);
        if let Some(n) = no {
            if yes.is_none() {
                *st = n;
                return Some(Outcome::End(End::Partial(crate::report::Partial::NotModelled(why))));
            }
            self.effects
                .side_ends
                .push((n, End::Partial(crate::report::Partial::NotModelled(why))));
        }
        match yes {
            Some(y) => {
                *st = y;
                None
            }
            None => Some(Outcome::End(End::Infeasible)),
        }
    }

    /// Splits `st` on `cond`: (state where cond holds, state where it does
    /// not), each present when feasible. A side whose query timed out (with
    /// a per-query timeout set) is returned as if feasible and recorded in
    /// [`Exec::undecided`]: the engine keeps it aside and asks again later
    /// with a longer timeout. So is a side left undecided by a solver fault
    /// (the run stops; the side is then dropped with an event). Sides
    /// undecided for another reason are dropped with an event at once (the
    /// verdict becomes incomplete).
    pub fn fork(&mut self, st: State, cond: Term, loc: Option<Loc>) -> (Option<State>, Option<State>) {
        self.fork_sides(st, cond, loc, Follow::Both)
    }

    /// [`Exec::fork`] restricted to the sides `follow` names: a side not
    /// followed is not asked about and not returned.
    pub fn fork_sides(
        &mut self,
        st: State,
        cond: Term,
        loc: Option<Loc>,
        follow: Follow,
    ) -> (Option<State>, Option<State>) {
        let (want_yes, want_no) = match follow {
            Follow::Both => (true, true),
            Follow::Then => (true, false),
            Follow::Else => (false, true),
            Follow::Neither => (false, false),
        };
        match as_bool(&cond) {
            Some(true) => return (Some(st).filter(|_| want_yes), None),
            Some(false) => return (None, Some(st).filter(|_| want_no)),
            None => {}
        }
        let neg = mk(Op::Not, vec![cond.clone()]);
        let timeout = self.config.limits.solver_timeout;
        let yes = if want_yes {
            self.decide(&st, std::slice::from_ref(&cond), timeout)
        } else {
            Decision::No
        };
        let no = if want_no {
            self.decide(&st, std::slice::from_ref(&neg), timeout)
        } else {
            Decision::No
        };
        let side = |d: Decision, c: Term, st: State, this: &mut Self| -> Option<State> {
            let kept = match (&d, this.fault.as_ref()) {
                (Decision::Unknown(_), Some(_)) => Some("solver fault".to_string()),
                (Decision::Timeout, None) if timeout.is_some() => Some("timeout".to_string()),
                _ => None,
            };
            if let Some(reason) = kept {
                this.effects.undecided.push(Undecided {
                    cond: c.clone(),
                    timeout: timeout.unwrap_or_default(),
                    loc: loc.clone(),
                    reason,
                    branch: this.branching,
                });
                let mut s = st;
                s.constrain(c);
                return Some(s);
            }
            match d {
                Decision::Yes(_) => {
                    let mut s = st;
                    s.constrain(c);
                    Some(s)
                }
                Decision::No => None,
                Decision::Timeout => {
                    this.effects.events.push(crate::report::Event::BranchDropped {
                        loc: loc.clone(),
                        reason: "timeout".into(),
                    });
                    this.stats.dropped += 1;
                    None
                }
                Decision::Unknown(why) => {
                    this.effects.events.push(crate::report::Event::BranchDropped {
                        loc: loc.clone(),
                        reason: why,
                    });
                    this.stats.dropped += 1;
                    None
                }
            }
        };
        match (yes, no) {
            (Decision::No, no) => (None, side(no, neg, st, self)),
            (yes, Decision::No) => (side(yes, cond, st, self), None),
            (yes, no) => {
                let other = st.clone();
                let a = side(yes, cond, st, self);
                let b = side(no, neg, other, self);
                (a, b)
            }
        }
    }

    /// Records a finding if `bad` can hold on `st`; `st` goes on with
    /// `¬bad` if that is feasible (None: the path cannot avoid the bug).
    pub fn check(&mut self, st: State, bad: Term, v: Violation) -> Option<State> {
        let loc = v.loc.clone();
        let (b, good) = self.fork(st, bad, loc);
        if let Some(b) = b {
            self.effects.side_findings.push((b, v));
        }
        good
    }

    /// Records a finding if `bad` can hold on `st` (one query; a copy of
    /// `st` constrained to `bad` gives its test); `st` goes on as it is.
    /// A finding already reported at the same place asks nothing; under
    /// the unreach-call property only `reach_error` counts, so nothing is
    /// asked either. An undecided query is a `CheckUndecided` event: the
    /// verdict cannot be "verified" then.
    pub fn check_continuing(&mut self, st: &State, bad: Term, v: Violation) {
        let key = (v.kind.clone(), v.loc.clone());
        let known = self.found.contains(&key);
        if crate::term::as_bool(&bad) == Some(false)
            || (known && !self.config.input.count_inputs)
            || (self.config.goals.property.reach_error_only() && v.kind != crate::checkers::Kind::ReachError)
        {
            return;
        }
        match self.decide(st, std::slice::from_ref(&bad), self.config.limits.solver_timeout) {
            // Found before: one more input reaching it, counted.
            Decision::Yes(m) if known => self.effects.pairs.push((key, crate::input_bytes(st, &m))),
            Decision::Yes(_) => {
                let mut b = st.clone();
                b.constrain(bad);
                self.effects.continued.push((b, v));
            }
            Decision::No => {}
            Decision::Timeout | Decision::Unknown(_) if known => {}
            // a proof before the run decided it
            Decision::Timeout | Decision::Unknown(_) if self.config.goals.proved_absent.contains(&v.kind) => {}
            Decision::Timeout => self.effects.events.push(crate::report::Event::CheckUndecided {
                loc: v.loc.clone(),
                kind: v.kind.clone(),
                reason: "timeout".into(),
            }),
            Decision::Unknown(reason) => self.effects.events.push(crate::report::Event::CheckUndecided {
                loc: v.loc.clone(),
                kind: v.kind.clone(),
                reason,
            }),
        }
    }

    /// A `CheckUndecided` event if `cond` can hold on `st` (asked once per
    /// kind and location; not under the unreach-call property).
    fn check_unchecked(&mut self, st: &State, cond: Term, v: Violation) {
        let key = (v.kind.clone(), v.loc.clone());
        if crate::term::as_bool(&cond) == Some(false)
            || self.unchecked.contains(&key)
            || self.config.goals.property.reach_error_only()
            || self.config.goals.proved_absent.contains(&v.kind)
        {
            return;
        }
        let possible = crate::term::as_bool(&cond) == Some(true)
            || !matches!(
                self.decide(st, std::slice::from_ref(&cond), self.config.limits.solver_timeout),
                Decision::No
            );
        if possible {
            self.unchecked.insert(key);
            self.effects.events.push(crate::report::Event::CheckUndecided {
                loc: v.loc.clone(),
                kind: v.kind.clone(),
                reason: v.message,
            });
        }
    }

    /// Whether some checker looks at points of `kind`.
    fn checks(&self, kind: PointKind) -> bool {
        self.checkers.iter().any(|c| c.looks_at(kind))
    }

    /// Runs the checkers at `at` on `st` (operand values `vals`; a vector
    /// operation lane by lane when `vector` says the result is a vector):
    /// each violation that can happen is split off or recorded as its
    /// check says. None when the path cannot avoid a violation that ends
    /// it (the path ends, infeasible past it).
    fn run_checkers(
        &mut self,
        st: &mut State,
        at: Point<'_>,
        vals: &[Option<Val>],
        vector: bool,
        loc: &dyn Fn() -> Option<Loc>,
    ) -> Option<()> {
        if !self.checks(at.kind()) {
            return Some(());
        }
        let site = {
            let f = st.frame();
            (f.func, f.bb, f.ip, st.frames.len())
        };
        if matches!(at, Point::Instruction(_)) && st.split_at.take() == Some(site) {
            return Some(());
        }
        // A vector operation is checked lane by lane (a division of
        // vectors divides each lane).
        let lanes = vals
            .iter()
            .filter_map(|v| match v {
                Some(Val::Agg(xs)) => Some(xs.len()),
                _ => None,
            })
            .min()
            .filter(|_| vector);
        let lane_terms = |k: Option<usize>| -> Vec<Option<Term>> {
            vals.iter()
                .map(|v| match (v, k) {
                    (Some(Val::Agg(xs)), Some(k)) => xs.get(k).and_then(|x| x.term().cloned()),
                    (v, _) => v.as_ref().and_then(|v| v.term().cloned()),
                })
                .collect()
        };
        let per_lane: Vec<Option<usize>> = match lanes {
            Some(n) => (0..n).map(Some).collect(),
            None => vec![None],
        };
        let mut conds: Vec<Check> = Vec::new();
        for k in per_lane {
            let terms = lane_terms(k);
            for c in self.checkers.iter_mut().filter(|c| c.looks_at(at.kind())) {
                conds.extend(c.check(st, at, &terms));
            }
        }
        // Outside the user's code, a finding after which the path goes on
        // is placed where the user's code called in (the innermost user
        // frame's call site: where a native stack trace shows it). In
        // fpsym's C runtime (strtod, ...), which stands for the C library,
        // an exception is glibc's to raise or not: undecided, not found.
        // With no user frame at all, a finding stays where it is.
        if conds.is_empty() {
            return Some(());
        }
        let loc = &loc();
        let fidx = st.frame().func;
        let (runtime, user_site) = if self.prog.user[fidx] {
            (false, None)
        } else {
            let site = st
                .frames
                .iter()
                .rposition(|f| self.prog.user[f.func])
                .and_then(|i| st.frames.get(i + 1))
                .and_then(|callee| callee.call_site.as_deref().cloned());
            // Without a user frame (only bitcode inputs, no debug
            // information), a finding stays where it is.
            (self.prog.runtime[fidx], site)
        };
        for c in conds {
            let at = match (c.line, loc) {
                (None, l) => l.clone(),
                (Some(n), Some(l)) => Some(Loc {
                    line: n,
                    column: 0,
                    ..l.clone()
                }),
                (Some(n), None) => crate::state::loc_of(&self.prog.funcs[fidx].debugloc).map(|l| Loc {
                    line: n,
                    column: 0,
                    ..l
                }),
            };
            let mut v = Violation::new(c.kind, at, st).with_message(c.message);
            v.operation = c.operation;
            match c.then {
                OnViolation::Continue if runtime => {
                    let why = format!("{} in fpsym's C runtime, where the C library decides", v.message);
                    self.check_unchecked(st, c.cond, v.with_message(why))
                }
                // A conversion out of range is confirmed by clang's
                // sanitizer, which instruments only what is compiled from
                // source: in library bitcode, nothing can show it natively.
                OnViolation::Continue if user_site.is_some() && v.kind == crate::checkers::Kind::FloatCastOverflow => {
                    let why = format!("{} in library code, where no sanitizer sees it", v.message);
                    self.check_unchecked(st, c.cond, v.with_message(why))
                }
                OnViolation::Continue => {
                    let v = match &user_site {
                        Some(at) => {
                            let inner = loc.as_ref().map(|l| format!(" (at {l})")).unwrap_or_default();
                            let name = &self.prog.funcs[fidx].name;
                            let m = format!("{} in {name}{inner}, called here", v.message);
                            Violation {
                                loc: Some(at.clone()),
                                ..v
                            }
                            .with_message(m)
                        }
                        None => v,
                    };
                    self.check_continuing(st, c.cond, v)
                }
                OnViolation::Split => {
                    let taken = std::mem::replace(st, placeholder());
                    match self.fork(taken, c.cond, loc.clone()) {
                        (Some(mut yes), Some(no)) => {
                            yes.split_at = Some(site);
                            self.effects.forked.push(yes);
                            *st = no;
                        }
                        (Some(one), None) | (None, Some(one)) => *st = one,
                        (None, None) => return None,
                    }
                }
                OnViolation::Unchecked => self.check_unchecked(st, c.cond, v),
                OnViolation::EndPath => {
                    let taken = std::mem::replace(st, placeholder());
                    *st = self.check(taken, c.cond, v)?;
                }
            }
        }
        Some(())
    }

    /// Executes the next instruction of `st`.
    pub fn step(&mut self, st: &mut State) -> (Result<Outcome, ExecError>, Effects) {
        let outcome = self.step_one(st);
        (outcome, std::mem::take(&mut self.effects))
    }

    /// [`Exec::step`] without the effects (left in `self.effects`).
    fn step_one(&mut self, st: &mut State) -> Result<Outcome, ExecError> {
        let (fidx, bb, ip) = {
            let f = st.frame();
            (f.func, f.bb, f.ip)
        };
        let func = self.prog.funcs[fidx];
        let block = &func.basic_blocks[bb];
        st.steps += 1;
        self.stats.instructions += 1;
        if ip == block.instrs.len() {
            if self.prog.unsupported.contains_key(&(fidx, bb, ip)) {
                return Err(self.unsupported_here(fidx, bb, ip));
            }
            if self.checks(PointKind::Terminator) {
                use llvm_ir::HasDebugLoc;
                let ops: Vec<&Operand> = match &block.term {
                    Terminator::CondBr(c) => vec![&c.condition],
                    Terminator::Switch(x) => vec![&x.operand],
                    Terminator::Ret(r) => r.return_operand.iter().collect(),
                    _ => vec![],
                };
                let vals = ops
                    .into_iter()
                    .map(|o| self.operand(st, o).map(Some))
                    .collect::<Result<Vec<_>, _>>()?;
                let loc = || crate::state::loc_of(block.term.get_debug_loc());
                if self
                    .run_checkers(st, Point::Terminator(&block.term), &vals, false, &loc)
                    .is_none()
                {
                    return Ok(Outcome::End(End::Infeasible));
                }
            }
            return self.terminator(st, fidx, bb, &block.term);
        }
        if ip == 0 && matches!(block.instrs.first(), Some(Instruction::Phi(_))) {
            let out = self.phis(st, block)?;
            if !self.plugins.observers.is_empty() {
                for inst in block.instrs.iter().take_while(|i| matches!(i, Instruction::Phi(_))) {
                    for o in self.plugins.observers.iter_mut() {
                        o.after_instruction(st, inst);
                    }
                }
            }
            return Ok(out);
        }
        let inst = &block.instrs[ip];
        if self.prog.unsupported.contains_key(&(fidx, bb, ip)) {
            return Err(self.unsupported_here(fidx, bb, ip));
        }
        let ops = fpsym_frontend::instruction_operands(inst);
        let mut vals: Vec<Option<Val>> = vec![None; ops.len()];
        if !matches!(inst, Instruction::Phi(_)) {
            for (k, o) in ops.iter().enumerate() {
                vals[k] = Some(self.operand(st, o)?);
            }
        }
        // The location is made only where it is used (it is a string).
        let loc = || instr_loc(inst);
        // Checkers: each condition that would be a bug here is split off
        // as a finding (or recorded); the path goes on where none holds.
        // (The result's type is looked at only when an operand is an
        // aggregate: scalar code, the common case, pays nothing.)
        let vector = vals.iter().any(|v| matches!(v, Some(Val::Agg(_))))
            && inst.try_get_result().is_some()
            && matches!(self.prog.module.types.type_of(inst).as_ref(), Type::VectorType { .. });
        if self
            .run_checkers(st, Point::Instruction(inst), &vals, vector, &loc)
            .is_none()
        {
            return Ok(Outcome::End(End::Infeasible));
        }
        st.frame_mut().ip += 1;
        let depth = st.frames.len();
        let mut out = self.instruction(st, inst, vals, &ops, &loc)?;
        if !self.plugins.observers.is_empty() {
            let mut going_on: Vec<&mut State> = match &mut out {
                Outcome::Continue => vec![st],
                Outcome::Fork(others) => std::iter::once(st).chain(others.iter_mut()).collect(),
                Outcome::End(_) => vec![],
            };
            // A state split off to execute this instruction again (another
            // target of a symbolic pointer) has not executed it.
            going_on.retain(|s| !reexecutes(s, depth, bb, ip));
            for s in going_on.iter_mut() {
                for o in self.plugins.observers.iter_mut() {
                    o.after_instruction(s, inst);
                }
            }
        }
        Ok(out)
    }

    #[allow(clippy::too_many_arguments)]
    fn instruction(
        &mut self,
        st: &mut State,
        inst: &Instruction,
        vals: Vec<Option<Val>>,
        ops: &[&Operand],
        loc: &dyn Fn() -> Option<Loc>,
    ) -> Result<Outcome, ExecError> {
        use Instruction as I;
        let v = |k: usize| vals[k].clone().expect("operand evaluated");
        let set = |st: &mut State, d: &Name, x: Val| {
            st.frame_mut().regs.insert(d.clone(), x);
        };
        let rmode = st.rm;
        // Addresses and sizes are scalars (vectors of pointers, as in a
        // vector getelementptr, are not modelled).
        let address_ops = match inst {
            I::GetElementPtr(_) => 0..vals.len(),
            I::Load(_) | I::Alloca(_) => 0..1,
            I::Store(_) => 1..2,
            _ => 0..0,
        };
        if address_ops
            .into_iter()
            .any(|k| matches!(vals.get(k), Some(Some(Val::Agg(_)))))
        {
            return Err(ExecError::Unsupported(format!("vector operand in `{inst}`")));
        }
        // Scalars, or vectors lane by lane.
        macro_rules! int2 {
            ($x:expr, $name:expr) => {{
                let r = lift2(&v(0), &v(1), &mut |a, b| {
                    Val::Bv(arith::int_binop($name, a.bv(), b.bv()))
                });
                set(st, &$x.dest, r);
            }};
        }
        macro_rules! fp2 {
            ($x:expr, $name:expr) => {{
                let r = lift2(&v(0), &v(1), &mut |a, b| {
                    Val::Fp(arith::fp_binop($name, rmode, a.fp(), b.fp()))
                });
                set(st, &$x.dest, r);
            }};
        }
        macro_rules! cast {
            ($x:expr, $f:expr) => {{
                let r = lift1(&v(0), &mut $f);
                set(st, &$x.dest, r);
            }};
        }
        match inst {
            I::Add(x) => int2!(x, "add"),
            I::Sub(x) => int2!(x, "sub"),
            I::Mul(x) => int2!(x, "mul"),
            I::And(x) => int2!(x, "and"),
            I::Or(x) => int2!(x, "or"),
            I::Xor(x) => int2!(x, "xor"),
            I::Shl(x) => {
                let r = shift(st, "shl", &v(0), &v(1));
                set(st, &x.dest, r);
            }
            I::LShr(x) => {
                let r = shift(st, "lshr", &v(0), &v(1));
                set(st, &x.dest, r);
            }
            I::AShr(x) => {
                let r = shift(st, "ashr", &v(0), &v(1));
                set(st, &x.dest, r);
            }
            I::UDiv(x) => int2!(x, "udiv"),
            I::SDiv(x) => int2!(x, "sdiv"),
            I::URem(x) => int2!(x, "urem"),
            I::SRem(x) => int2!(x, "srem"),
            I::FAdd(x) => fp2!(x, "fadd"),
            I::FSub(x) => fp2!(x, "fsub"),
            I::FMul(x) => fp2!(x, "fmul"),
            I::FDiv(x) => fp2!(x, "fdiv"),
            I::FRem(x) => fp2!(x, "frem"),
            I::FNeg(x) => cast!(x, |a: &Val| Val::Fp(mk(Op::FpNeg, vec![a.fp().clone()]))),
            I::ICmp(x) => {
                let r = lift2(&v(0), &v(1), &mut |a, b| {
                    Val::Bv(arith::i1(arith::icmp(x.predicate, a.bv(), b.bv())))
                });
                set(st, &x.dest, r);
            }
            I::FCmp(x) => {
                let r = lift2(&v(0), &v(1), &mut |a, b| {
                    Val::Bv(arith::i1(arith::fcmp(x.predicate, a.fp(), b.fp())))
                });
                set(st, &x.dest, r);
            }
            I::Select(x) => {
                let r = match v(0) {
                    // A vector condition selects lane by lane.
                    Val::Agg(cs) => match (v(1), v(2)) {
                        (Val::Agg(a), Val::Agg(b)) => Val::Agg(
                            cs.iter()
                                .zip(a.iter().zip(&b))
                                .map(|(c, (a, b))| select(&bv1_to_bool(c.bv()), a, b))
                                .collect(),
                        ),
                        _ => return Err(ExecError::Unsupported("select of a vector condition on scalars".into())),
                    },
                    c => select(&bv1_to_bool(c.bv()), &v(1), &v(2)),
                };
                set(st, &x.dest, r);
            }
            I::Phi(_) => return Err(ExecError::Unsupported("phi after a non-phi instruction".into())),
            I::Trunc(x) => {
                let w = int_width(&x.to_type);
                cast!(x, |a: &Val| Val::Bv(resize(a.bv(), w, false)))
            }
            I::ZExt(x) => {
                let w = int_width(&x.to_type);
                cast!(x, |a: &Val| Val::Bv(resize(a.bv(), w, false)))
            }
            I::SExt(x) => {
                let w = int_width(&x.to_type);
                cast!(x, |a: &Val| Val::Bv(resize(a.bv(), w, true)))
            }
            I::FPTrunc(x) => {
                let to = self.float_format(&x.to_type)?;
                cast!(x, |a: &Val| Val::Fp(arith::to_float("fptrunc", rmode, a.fp(), to)))
            }
            I::FPExt(x) => {
                let to = self.float_format(&x.to_type)?;
                cast!(x, |a: &Val| Val::Fp(arith::to_float("fpext", rmode, a.fp(), to)))
            }
            I::SIToFP(x) => {
                let to = self.float_format(&x.to_type)?;
                cast!(x, |a: &Val| Val::Fp(arith::to_float("sitofp", rmode, a.bv(), to)))
            }
            I::UIToFP(x) => {
                let to = self.float_format(&x.to_type)?;
                // Vectors have their own code (see arith::vector_uint_to_float).
                let ilp32 = self.prog.layout.ilp32;
                if matches!(v(0), Val::Agg(_)) && ilp32 {
                    return Err(ExecError::Unsupported("a vector uitofp under ILP32".into()));
                } else if matches!(v(0), Val::Agg(_)) {
                    cast!(x, |a: &Val| Val::Fp(arith::vector_uint_to_float(rmode, a.bv(), to)))
                } else {
                    cast!(x, |a: &Val| Val::Fp(arith::uint_to_float(rmode, a.bv(), to, ilp32)))
                }
            }
            I::FPToSI(x) => {
                let w = int_width(&x.to_type);
                if let Some(end) = self.library_conversion_range(st, &v(0), w, true, loc()) {
                    return Ok(end);
                }
                cast!(x, |a: &Val| Val::Bv(arith::fp_to_int(true, a.fp(), w)))
            }
            I::FPToUI(x) => {
                let w = int_width(&x.to_type);
                if let Some(end) = self.library_conversion_range(st, &v(0), w, false, loc()) {
                    return Ok(end);
                }
                // Vectors have their own code (see arith::vector_fp_to_int).
                if matches!(v(0), Val::Agg(_)) && self.prog.layout.ilp32 {
                    return Err(ExecError::Unsupported("a vector fptoui under ILP32".into()));
                } else if self.prog.layout.ilp32 {
                    cast!(x, |a: &Val| Val::Bv(arith::fp_to_int_i386(false, a.fp(), w)))
                } else if matches!(v(0), Val::Agg(_)) {
                    cast!(x, |a: &Val| Val::Bv(arith::vector_fp_to_int(false, a.fp(), w)))
                } else {
                    cast!(x, |a: &Val| Val::Bv(arith::fp_to_int(false, a.fp(), w)))
                }
            }
            I::PtrToInt(x) => {
                let w = int_width(&x.to_type);
                cast!(x, |a: &Val| Val::Bv(resize(a.bv(), w, false)))
            }
            I::IntToPtr(x) => cast!(x, |a: &Val| Val::Bv(resize(a.bv(), 64, false))),
            I::AddrSpaceCast(x) => set(st, &x.dest, v(0)),
            I::Freeze(x) => set(st, &x.dest, v(0)),
            I::BitCast(x) => {
                let from = self.prog.module.types.type_of(&x.operand);
                let r = self.bitcast(st, v(0), &from, &x.to_type)?;
                set(st, &x.dest, r);
            }
            I::ExtractElement(x) => {
                let Val::Agg(lanes) = v(0) else {
                    return Err(ExecError::Unsupported("extractelement of a non-vector".into()));
                };
                let r = lane(&lanes, v(1).bv())?;
                set(st, &x.dest, r);
            }
            I::InsertElement(x) => {
                let Val::Agg(mut lanes) = v(0) else {
                    return Err(ExecError::Unsupported("insertelement into a non-vector".into()));
                };
                let (el, idx) = (v(1), v(2));
                match as_bv(idx.bv()) {
                    Some(k) if (k as usize) < lanes.len() => lanes[k as usize] = el,
                    Some(_) => return Err(ExecError::Unsupported("insertelement past the vector's end".into())),
                    None => {
                        let w = width(idx.bv());
                        for (k, l) in lanes.iter_mut().enumerate() {
                            let hit = mk(Op::Eq, vec![idx.bv().clone(), bv(w, k as u128)]);
                            *l = select(&hit, &el, l);
                        }
                    }
                }
                set(st, &x.dest, Val::Agg(lanes));
            }
            I::ShuffleVector(x) => {
                let (Val::Agg(a), Val::Agg(b)) = (v(0), v(1)) else {
                    return Err(ExecError::Unsupported("shufflevector of non-vectors".into()));
                };
                let Constant::Vector(mask) = x.mask.as_ref() else {
                    return Err(ExecError::Unsupported("shufflevector with a non-constant mask".into()));
                };
                let undef = a.first().cloned();
                let mut out = Vec::with_capacity(mask.len());
                for m in mask {
                    out.push(match m.as_ref() {
                        Constant::Int { value, .. } => {
                            let k = *value as usize;
                            if k < a.len() {
                                a[k].clone()
                            } else {
                                b.get(k - a.len())
                                    .cloned()
                                    .ok_or_else(|| ExecError::Unsupported("shufflevector mask out of range".into()))?
                            }
                        }
                        // An undefined lane: any value is right; take lane 0's.
                        _ => undef
                            .clone()
                            .ok_or_else(|| ExecError::Unsupported("shufflevector of an empty vector".into()))?,
                    });
                }
                set(st, &x.dest, Val::Agg(out));
            }
            I::ExtractValue(x) => {
                let mut cur = v(0);
                for i in &x.indices {
                    cur = match cur {
                        Val::Agg(mut items) if (*i as usize) < items.len() => items.swap_remove(*i as usize),
                        _ => return Err(ExecError::Unsupported("extractvalue out of range".into())),
                    };
                }
                set(st, &x.dest, cur);
            }
            I::InsertValue(x) => {
                let r = insert(v(0), &x.indices, v(1))?;
                set(st, &x.dest, r);
            }
            I::Alloca(x) => return self.alloca(st, x, v(0).bv(), &loc()),
            I::GetElementPtr(x) => {
                let idx: Vec<Val> = (1..ops.len()).map(v).collect();
                let r = self.gep(v(0).bv(), &x.source_element_type, &idx)?;
                set(st, &x.dest, Val::Bv(r));
            }
            I::Load(x) => {
                let addr = v(0).bv().clone();
                let ty = match self.prog.module.types.type_of(&x.address).as_ref() {
                    Type::PointerType { pointee_type, .. } => pointee_type.clone(),
                    other => return Err(ExecError::Unsupported(format!("load through a {other:?}"))),
                };
                self.memory_type(&ty)?;
                return self.load(st, &addr, &ty, &x.dest, loc());
            }
            I::Store(x) => {
                let ty = self.prog.module.types.type_of(&x.value);
                self.memory_type(&ty)?;
                let addr = v(1).bv().clone();
                return self.store(st, &addr, &v(0), &ty, loc());
            }
            I::Call(c) => {
                // The operand list starts with the callee (unless it is
                // inline assembly), then the arguments.
                let first = usize::from(c.function.is_right());
                let args: Vec<Val> = (first..ops.len()).map(v).collect();
                return self.call(st, c, args, loc());
            }
            other => return Err(ExecError::Unsupported(format!("instruction {other}"))),
        }
        Ok(Outcome::Continue)
    }

    /// The error for an unsupported instruction a path reached: its
    /// location, what is unsupported, and the instruction's text.
    fn unsupported_here(&self, fidx: usize, bb: usize, ip: usize) -> ExecError {
        ExecError::Unsupported(self.prog.unsupported[&(fidx, bb, ip)].clone())
    }

    /// The phis at the head of the block just entered, all evaluated from
    /// the registers as they were on entry (a loop rotating `a, b, c`
    /// reads the old values), then written together.
    fn phis(&mut self, st: &mut State, block: &llvm_ir::BasicBlock) -> Result<Outcome, ExecError> {
        let prev = st
            .frame()
            .prev_bb
            .ok_or_else(|| ExecError::Unsupported("phi in an entry block".into()))?;
        let func = self.prog.funcs[st.frame().func];
        let prev_name = &func.basic_blocks[prev].name;
        let mut staged = Vec::new();
        for inst in &block.instrs {
            let Instruction::Phi(x) = inst else { break };
            let (op, _) = x
                .incoming_values
                .iter()
                .find(|(_, b)| b == prev_name)
                .ok_or_else(|| ExecError::Unsupported("phi without an entry for the predecessor".into()))?;
            staged.push((x.dest.clone(), self.operand(st, op)?));
        }
        let n = staged.len();
        self.stats.instructions += n as u64 - 1;
        st.steps += n as u64 - 1;
        let f = st.frame_mut();
        for (d, v) in staged {
            f.regs.insert(d, v);
        }
        f.ip = n;
        Ok(Outcome::Continue)
    }

    /// The float format of `t` (of its elements for a vector type).
    fn float_format(&self, t: &Type) -> Result<fpsym_float::Format, ExecError> {
        match self.prog.layout.resolve(t) {
            Some(Type::VectorType { element_type, .. }) => self.float_format(element_type),
            Some(Type::FPType(f)) => {
                crate::layout::fp_format(*f).ok_or_else(|| ExecError::Unsupported("ppc_fp128".into()))
            }
            other => Err(ExecError::Unsupported(format!(
                "expected a float type, found {other:?}"
            ))),
        }
    }

    /// Rejects types whose memory image the executor does not lay out:
    /// vectors of lanes narrower than a byte (`<8 x i1>` is bit-packed).
    fn memory_type(&self, t: &Type) -> Result<(), ExecError> {
        match self.prog.layout.resolve(t) {
            Some(Type::VectorType { element_type, .. }) if matches!(element_type.as_ref(), Type::IntegerType { bits } if bits % 8 != 0) => {
                Err(ExecError::Unsupported(format!(
                    "memory image of the bit-packed vector type {t}"
                )))
            }
            _ => Ok(()),
        }
    }

    /// `bitcast` from `from` to `to`: scalars reinterpret their bits;
    /// anything involving a vector goes through its memory image (a
    /// `<2 x float>` is the 8 bytes of two floats).
    fn bitcast(&mut self, st: &mut State, x: Val, from: &Type, to: &Type) -> Result<Val, ExecError> {
        let layout = self.prog.layout;
        let vector = |t: &Type| matches!(layout.resolve(t), Some(Type::VectorType { .. }));
        if vector(from) || vector(to) {
            self.memory_type(from)?;
            self.memory_type(to)?;
            let (a, b) = (layout.store_size(from), layout.store_size(to));
            if a != b {
                return Err(ExecError::Unsupported(format!("bitcast of {a} bytes into {b}")));
            }
            let cells = self.cells_of(&x, from);
            return Ok(self.value_of(st, &cells, to));
        }
        Ok(match (x, layout.resolve(to)) {
            (Val::Bv(t), Some(Type::FPType(f))) => {
                let fmt = crate::layout::fp_format(*f).ok_or_else(|| ExecError::Unsupported("ppc_fp128".into()))?;
                Val::Fp(float_from_bits(fmt, &t))
            }
            (Val::Fp(t), Some(Type::IntegerType { .. })) => Val::Bv(self.bits_of(st, &t)),
            (x, _) => x,
        })
    }

    /// Address arithmetic: `base + Σ index·size` through `ty`.
    pub fn gep(&mut self, base: &Term, ty: &Type, idx: &[Val]) -> Result<Term, ExecError> {
        let layout = self.prog.layout;
        let Some((first, rest)) = idx.split_first() else {
            return Ok(base.clone());
        };
        let mut addr = mk(Op::BvAdd, vec![base.clone(), scale(first.bv(), layout.alloc_size(ty))]);
        let opaque = || ExecError::Unsupported("getelementptr through an opaque type".into());
        let mut cur: Type = layout.resolve(ty).cloned().ok_or_else(opaque)?;
        for i in rest {
            let next: TypeRef = match &cur {
                Type::StructType { .. } => {
                    let k =
                        as_bv(i.bv()).ok_or_else(|| ExecError::Unsupported("symbolic struct index".into()))? as usize;
                    let off = layout.field_offset(&cur, k).unwrap_or(0);
                    addr = mk(Op::BvAdd, vec![addr, bv(64, off as u128)]);
                    layout
                        .member(&cur, k)
                        .ok_or_else(|| ExecError::Unsupported("getelementptr field".into()))?
                }
                Type::ArrayType { element_type, .. } | Type::VectorType { element_type, .. } => {
                    addr = mk(Op::BvAdd, vec![addr, scale(i.bv(), layout.alloc_size(element_type))]);
                    element_type.clone()
                }
                other => return Err(ExecError::Unsupported(format!("getelementptr into {other:?}"))),
            };
            cur = layout.resolve(&next).cloned().ok_or_else(opaque)?;
        }
        Ok(addr)
    }

    fn terminator(&mut self, st: &mut State, fidx: usize, bb: usize, t: &Terminator) -> Result<Outcome, ExecError> {
        use llvm_ir::HasDebugLoc;
        let loc = crate::state::loc_of(t.get_debug_loc());
        match t {
            Terminator::Br(b) => {
                self.goto(st, &b.dest)?;
                Ok(Outcome::Continue)
            }
            Terminator::CondBr(c) => {
                let cv = self.operand(st, &c.condition)?;
                let cond = bv1_to_bool(cv.bv());
                let taken = std::mem::replace(st, placeholder());
                let (t, f) = self.branch(taken, cond, loc, fidx, bb, 0);
                let mut out = Vec::new();
                for (s, dest, k) in [(t, &c.true_dest, 0), (f, &c.false_dest, 1)] {
                    if let Some(mut s) = s {
                        s.trail.push((fidx, bb, k));
                        self.goto(&mut s, dest)?;
                        out.push(s);
                    }
                }
                self.resume(st, out)
            }
            Terminator::Switch(s) => {
                let x = self.operand(st, &s.operand)?;
                let x = x.bv().clone();
                let taken = std::mem::replace(st, placeholder());
                let mut rest = Some(taken);
                let mut out = Vec::new();
                for (k, (c, dest)) in s.dests.iter().enumerate() {
                    let Some(cur) = rest.take() else { break };
                    // (Constants need no state: a copy of the state per
                    // case once made a switch quadratic in the path's
                    // length.)
                    let cv = self.constant(c)?;
                    let eq = mk(Op::Eq, vec![x.clone(), cv.bv().clone()]);
                    let (yes, no) = self.branch(cur, eq, loc.clone(), fidx, bb, k);
                    if let Some(mut y) = yes {
                        y.trail.push((fidx, bb, k));
                        self.goto(&mut y, dest)?;
                        out.push(y);
                    }
                    rest = no;
                }
                if let Some(mut d) = rest {
                    d.trail.push((fidx, bb, s.dests.len()));
                    self.goto(&mut d, &s.default_dest)?;
                    out.push(d);
                }
                self.resume(st, out)
            }
            Terminator::Ret(r) => {
                for o in self.plugins.observers.iter_mut() {
                    o.before_return(st, r.return_operand.as_ref());
                }
                let v = match &r.return_operand {
                    Some(o) => Some(self.operand(st, o)?),
                    None => None,
                };
                // i386 returns a float or double in x87's st0: loading a
                // signalling NaN there quiets it.
                let v = match v {
                    Some(Val::Fp(t)) if self.prog.layout.ilp32 => Some(Val::Fp(arith::x87_load(&t))),
                    v => v,
                };
                self.ret(st, v)
            }
            Terminator::Unreachable(_) => Ok(Outcome::End(End::Error(Violation::new(
                crate::checkers::Kind::Unreachable,
                loc,
                st,
            )))),
            other => Err(ExecError::Unsupported(format!("terminator {other}"))),
        }
    }

    /// A branch of the program: the oracle (if any) says which sides to
    /// follow, [`Exec::fork_sides`] splits `st`, observers see each side.
    fn branch(
        &mut self,
        st: State,
        cond: Term,
        loc: Option<Loc>,
        fidx: usize,
        bb: usize,
        successor: usize,
    ) -> (Option<State>, Option<State>) {
        let prog = self.prog;
        let function = &prog.funcs[fidx].name;
        let site = Branch {
            function,
            block: bb,
            loc: loc.as_ref(),
            cond: &cond,
            successor,
        };
        let follow = match self.plugins.oracle.as_mut() {
            Some(o) => o.decide(&st, &site),
            None => Follow::Both,
        };
        self.stats.excluded += match follow {
            Follow::Both => 0,
            Follow::Then | Follow::Else => 1,
            Follow::Neither => 2,
        };
        // A copy for a side the oracle excludes: if feasible, it ends
        // pruned, with a test (see End::Pruned).
        let test_excluded = self.plugins.oracle.as_ref().is_some_and(|o| o.test_excluded());
        let excluded = match follow {
            Follow::Both => None,
            _ if !test_excluded => None,
            _ => Some(st.clone()),
        };
        self.branching = true;
        let (mut t, mut f) = self.fork_sides(st, cond.clone(), loc.clone(), follow);
        self.branching = false;
        if let Some(copy) = excluded {
            let neg = mk(Op::Not, vec![cond.clone()]);
            let sides = match follow {
                Follow::Then => vec![neg],
                Follow::Else => vec![cond.clone()],
                _ => vec![cond.clone(), neg],
            };
            for c in sides {
                let feasible = match as_bool(&c) {
                    Some(b) => b,
                    None => matches!(
                        self.decide(&copy, std::slice::from_ref(&c), self.config.limits.solver_timeout),
                        Decision::Yes(_)
                    ),
                };
                if feasible {
                    let mut s = copy.clone();
                    s.constrain(c);
                    self.effects.side_ends.push((s, End::Pruned));
                }
            }
        }
        if !self.plugins.observers.is_empty() {
            for o in self.plugins.observers.iter_mut() {
                if let Some(s) = t.as_mut() {
                    o.at_branch(s, &site, true);
                }
                if let Some(s) = f.as_mut() {
                    o.at_branch(s, &site, false);
                }
            }
        }
        (t, f)
    }

    /// A call to `callee` returned on `st` with `result`: observers see it,
    /// checkers check it (at [`Point::Returned`], the result as operand).
    /// Err(End) when a checker's violation cannot be avoided.
    /// `vector` says whether the result is a vector (checked lane by
    /// lane), not a struct.
    pub(crate) fn returned(
        &mut self,
        st: &mut State,
        callee: &str,
        result: Option<&Val>,
        vector: bool,
        loc: Option<&Loc>,
    ) -> Result<(), End> {
        for o in self.plugins.observers.iter_mut() {
            o.at_return(st, callee, result);
        }
        if !self.checks(PointKind::Returned) {
            return Ok(());
        }
        let vals = [result.cloned()];
        match self.run_checkers(st, Point::Returned { callee }, &vals, vector, &|| loc.cloned()) {
            Some(()) => Ok(()),
            None => Err(End::Infeasible),
        }
    }

    /// Continues with the first of `out` in place of `st`, the others forked.
    fn resume(&mut self, st: &mut State, mut out: Vec<State>) -> Result<Outcome, ExecError> {
        if out.is_empty() {
            return Ok(Outcome::End(End::Infeasible));
        }
        *st = out.remove(0);
        Ok(if out.is_empty() {
            Outcome::Continue
        } else {
            Outcome::Fork(out)
        })
    }

    /// Jumps to block `dest` of the current function, counting loop
    /// repetitions.
    pub fn goto(&mut self, st: &mut State, dest: &Name) -> Result<(), ExecError> {
        let fidx = st.frame().func;
        let to = *self.prog.blocks[fidx]
            .get(dest)
            .ok_or_else(|| ExecError::Unsupported(format!("branch to unknown block {dest}")))?;
        st.enter_block(to, &self.prog.loop_headers[fidx]);
        Ok(())
    }
}

/// Whether `st` stands before instruction `ip` of block `bb` in its frame
/// at depth `depth`: split off to execute that instruction again.
pub(crate) fn reexecutes(st: &State, depth: usize, bb: usize, ip: usize) -> bool {
    st.frames.len() == depth && st.frames.last().is_some_and(|f| f.bb == bb && f.ip == ip)
}

/// The decision of a solver's answer; an error is recorded in `fault`
/// (the first one: the run's solver fault) and is no answer.
pub(crate) fn decision(
    r: Result<SolveResult, fpsym_solver::SolverError>,
    fault: &mut Option<fpsym_solver::SolverError>,
) -> Decision {
    match r {
        Ok(SolveResult::Sat(m)) => Decision::Yes(m),
        Ok(SolveResult::Unsat) => Decision::No,
        Ok(SolveResult::Unknown(fpsym_solver::Reason::Timeout)) => Decision::Timeout,
        Ok(SolveResult::Unknown(r)) => Decision::Unknown(r.to_string()),
        Err(e) => {
            let why = format!("solver error: {e}");
            fault.get_or_insert(e);
            Decision::Unknown(why)
        }
    }
}

/// A state-shaped placeholder while the real one is being forked.
pub fn placeholder() -> State {
    State {
        id: u64::MAX,
        frames: Vec::new(),
        mem: Default::default(),
        path: Vec::new(),
        rm: fpsym_float::RoundingMode::NearestTiesToEven,
        symbolics: Vec::new(),
        names: Default::default(),
        fresh: 0,
        steps: 0,
        split_at: None,
        loop_visits: Default::default(),
        concretized: false,
        trail: Default::default(),
        env: Default::default(),
        ext: Default::default(),
        float_bits: Default::default(),
    }
}

fn scale(i: &Term, size: u64) -> Term {
    let i = resize(i, 64, true);
    mk(Op::BvMul, vec![i, bv(64, size as u128)])
}

fn int_width(t: &Type) -> u32 {
    match t {
        Type::IntegerType { bits } => *bits,
        Type::VectorType { element_type, .. } => int_width(element_type),
        _ => 64,
    }
}

/// `c ? a : b` on values of the same shape.
pub fn select(c: &Term, a: &Val, b: &Val) -> Val {
    match (a, b) {
        (Val::Bv(x), Val::Bv(y)) => Val::Bv(mk(Op::Ite, vec![c.clone(), x.clone(), y.clone()])),
        (Val::Fp(x), Val::Fp(y)) => Val::Fp(mk(Op::Ite, vec![c.clone(), x.clone(), y.clone()])),
        (Val::Agg(xs), Val::Agg(ys)) => Val::Agg(xs.iter().zip(ys).map(|(x, y)| select(c, x, y)).collect()),
        (x, _) => x.clone(),
    }
}

/// `f` on the arguments of an element-wise operation: once on scalars, or
/// once per lane when the first argument is a vector (vector arguments
/// give their lane, scalar ones are passed as they are).
pub(crate) fn map_lanes(args: &[Val], f: &mut dyn FnMut(&[Val]) -> Val) -> Val {
    match args.first() {
        Some(Val::Agg(lanes)) => Val::Agg(
            (0..lanes.len())
                .map(|k| {
                    let lane: Vec<Val> = args
                        .iter()
                        .map(|a| match a {
                            Val::Agg(xs) => xs[k].clone(),
                            x => x.clone(),
                        })
                        .collect();
                    f(&lane)
                })
                .collect(),
        ),
        _ => f(args),
    }
}

/// A shift (`shl`, `lshr`, `ashr`) on scalars or lane by lane on vectors.
/// A scalar amount past the width is taken modulo what x86 masks it to
/// ([`arith::int_binop`]). A vector lane shifted by its width or more is
/// any value: x86's vector code gives 0 for an amount splat across the
/// lanes (`pslld`), and for amounts that differ by lane it depends on the
/// lane width (bytes take the amount modulo 8), which the IR does not
/// decide.
fn shift(st: &mut State, op: &str, a: &Val, b: &Val) -> Val {
    match (a, b) {
        (Val::Agg(xs), Val::Agg(ys)) => Val::Agg(xs.iter().zip(ys).map(|(x, y)| shift_lane(st, op, x, y)).collect()),
        _ => Val::Bv(arith::int_binop(op, a.bv(), b.bv())),
    }
}

fn shift_lane(st: &mut State, op: &str, x: &Val, y: &Val) -> Val {
    if let (Val::Agg(_), _) | (_, Val::Agg(_)) = (x, y) {
        return shift(st, op, x, y);
    }
    let (x, y) = (x.bv(), y.bv());
    let w = width(x);
    let r = arith::int_binop(op, x, y);
    let past = mk(Op::BvUge, vec![y.clone(), bv(w, u128::from(w))]);
    if as_bool(&past) == Some(false) {
        return Val::Bv(r);
    }
    let any = Term::var(&st.unique_name("fpsym.vector_shift"), fpsym_expr::Sort::BitVec(w));
    Val::Bv(mk(Op::Ite, vec![past, any, r]))
}

/// `f` on a scalar, or on each lane of a vector.
fn lift1(a: &Val, f: &mut dyn FnMut(&Val) -> Val) -> Val {
    match a {
        Val::Agg(xs) => Val::Agg(xs.iter().map(|x| lift1(x, f)).collect()),
        _ => f(a),
    }
}

/// `f` on two scalars, or lane by lane on two vectors.
fn lift2(a: &Val, b: &Val, f: &mut dyn FnMut(&Val, &Val) -> Val) -> Val {
    match (a, b) {
        (Val::Agg(xs), Val::Agg(ys)) => Val::Agg(xs.iter().zip(ys).map(|(x, y)| lift2(x, y, f)).collect()),
        _ => f(a, b),
    }
}

/// Lane `idx` of a vector (a symbolic index selects among the lanes; an
/// index past the end is poison, for which any lane is right).
fn lane(lanes: &[Val], idx: &Term) -> Result<Val, ExecError> {
    if let Some(k) = as_bv(idx) {
        return lanes
            .get(k as usize)
            .or(lanes.last())
            .cloned()
            .ok_or_else(|| ExecError::Unsupported("extractelement of an empty vector".into()));
    }
    let w = width(idx);
    let mut acc = lanes
        .last()
        .cloned()
        .ok_or_else(|| ExecError::Unsupported("extractelement of an empty vector".into()))?;
    for (k, l) in lanes.iter().enumerate().rev().skip(1) {
        acc = select(&mk(Op::Eq, vec![idx.clone(), bv(w, k as u128)]), l, &acc);
    }
    Ok(acc)
}

fn insert(agg: Val, idx: &[u32], el: Val) -> Result<Val, ExecError> {
    let Some((first, rest)) = idx.split_first() else {
        return Ok(el);
    };
    match agg {
        Val::Agg(mut items) if (*first as usize) < items.len() => {
            let k = *first as usize;
            let inner = std::mem::replace(&mut items[k], Val::Agg(vec![]));
            items[k] = insert(inner, rest, el)?;
            Ok(Val::Agg(items))
        }
        _ => Err(ExecError::Unsupported("insertvalue out of range".into())),
    }
}
