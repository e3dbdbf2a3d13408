//! k-induction over one loop of `main` (issue 34): a proof that no
//! `reach_error` call is reachable, by two symbolic runs of the engine.
//!
//! Call *arrivals* at the loop head `H` the jumps back to it the engine
//! counts (`State::loop_visits`). For `k >= 1`:
//!
//! - the **base case** runs the program from its entry and explores every
//!   path that has made at most `k` arrivals at `H` (a path is cut, as
//!   outside the question, at its `k + 1`-th); no path may reach the error;
//! - the **step case** starts at `H` in an *arbitrary* state (each register
//!   the rest of the function reads, the head's phis and every global that
//!   the program may write are fresh variables, narrowed by facts known to
//!   hold at every arrival, such as an abstract interpreter's invariant),
//!   assumes that the error is not reached before the `k`-th arrival (a path
//!   reaching it earlier is dropped), and asks whether it can be reached
//!   after the `k`-th arrival and before the `k + 1`-th (where every path is
//!   cut).
//!
//! Both without a finding and without an incomplete path prove the
//! property: an execution that reaches the error after `n` arrivals is a
//! path of the base case when `n <= k`, and otherwise the step case's path
//! from the state just after its `(n - k)`-th arrival (every state at `H`
//! is among the step case's start states).
//!
//! The step case is sound only when the state at `H` is the frame of `main`
//! (at the top of the stack), its registers, the globals and nothing else:
//! [`applicable`] refuses programs where it is more (a pointer register or
//! a pointer global the loop may read, state the C library keeps between
//! calls such as `rand`'s, `atexit` handlers or `errno`, a call of `main`,
//! finite inputs that would wrongly narrow the start state). A register the
//! step case cannot make a variable stays unwritten: a path that reads it
//! stops as unsupported, and the proof fails.

use crate::exec::operand::name_str;
use crate::report::{Collect, Summary, Verdict};
use crate::{Config, EngineError, Entry, RunContext};
use fpsym_float::{Float, RoundingMode};
use fpsym_frontend::llvm_ir::{self, Name};
use fpsym_frontend::Program;
use fpsym_solver::Solver;
use std::collections::HashSet;
use std::time::Instant;

/// Which run of a k-induction proof ([`Extensions::induction`]).
#[derive(Clone, Debug)]
pub struct Induction {
    /// The loop head: a block of `main` the engine counts as a loop header.
    pub head: Name,
    /// Arrivals at the head a path may make before the one that ends it.
    pub k: u32,
    /// The step case (from an arbitrary state at the head), or the base case
    /// (from the entry).
    pub step: Option<Vec<Fact>>,
    /// An invariant check ([`check_invariants`]) instead of a proof of the
    /// property: the facts to check where a path stands at the head past
    /// its phis after `k` arrivals, and where the indices of those that
    /// fail (or cannot be decided) are written.
    pub check: Option<InvariantCheck>,
}

/// The facts an invariant check asks about, and its answers.
#[derive(Clone, Debug, Default)]
pub struct InvariantCheck {
    /// The facts.
    pub facts: Vec<Fact>,
    /// The linear constraints (assumed with the facts in the step case;
    /// answered after them: index `facts.len() + j` in `failed` and
    /// `undecided`).
    pub linear: Vec<LinearFact>,
    /// Indices of the facts some path violates.
    pub failed: std::sync::Arc<std::sync::Mutex<std::collections::BTreeSet<usize>>>,
    /// Indices of the facts a query could not decide (or that say nothing
    /// of their value).
    pub undecided: std::sync::Arc<std::sync::Mutex<std::collections::BTreeSet<usize>>>,
}

/// Whether each fact of `facts`, stated of the loop head `head` of `main`,
/// is an inductive invariant under exact IEEE semantics: it holds at the
/// head's first entry (a run from the entry to there), and, from any state
/// at the head where all of them hold, at the next arrival (a run of one
/// iteration from an arbitrary state: the step case's start). One query per
/// fact and path. The answer per fact, in order: Some(true) inductive,
/// Some(false) not, None undecided in `time`.
/// The linear constraints `linear` are checked the same way (see
/// [`LinearFact`]), answered after the facts; with any, a path breaking a
/// fact leaves it undecided (None) rather than failed, for the directed
/// rounding of their sums.
#[allow(clippy::too_many_arguments)]
pub fn check_invariants(
    program: &Program,
    solver: &mut dyn Solver,
    config: &Config,
    head: &Name,
    facts: &[Fact],
    linear: &[LinearFact],
    time: std::time::Duration,
    interrupt: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> Result<Vec<Option<bool>>, String> {
    applicable(program, config)?;
    let deadline = Instant::now() + time;
    let check = InvariantCheck {
        facts: facts.to_vec(),
        linear: linear.to_vec(),
        ..Default::default()
    };
    let count = facts.len() + linear.len();
    for (k, step) in [(0, None), (1, Some(facts.to_vec()))] {
        let mut c = config.clone();
        c.extensions.induction = Some(Induction {
            head: head.clone(),
            k,
            step,
            check: Some(check.clone()),
        });
        c.limits.max_time = Some(deadline.saturating_duration_since(Instant::now()));
        c.goals.stop_at_finding = None;
        c.limits.loop_bound = None;
        c.input.seeds = Vec::new();
        c.input.crash_seeds = 0;
        // Paths must stop at the head: the fast path runs loops whole.
        c.policy.fast_path = false;
        let mut sink = Collect::default();
        let mut cx = RunContext {
            interrupt: interrupt.clone(),
            ..Default::default()
        };
        let s = crate::run(program, solver, &c, &mut sink, &mut cx).map_err(|e| e.to_string())?;
        if let Verdict::Incomplete(w) | Verdict::Unknown(w) = &s.verdict {
            // Every fact not yet shown to fail stays undecided.
            let failed = check.failed.lock().expect("not poisoned").clone();
            let mut u = check.undecided.lock().expect("not poisoned");
            u.extend((0..count).filter(|i| !failed.contains(i)));
            let _ = w;
        }
    }
    let failed = check.failed.lock().expect("not poisoned").clone();
    let undecided = check.undecided.lock().expect("not poisoned").clone();
    Ok((0..count)
        .map(|i| {
            if failed.contains(&i) {
                Some(false)
            } else if undecided.contains(&i) {
                None
            } else {
                Some(true)
            }
        })
        .collect())
}

/// A fact assumed of the state at every arrival at the loop head (the
/// step case's start), e.g. an invariant an abstract interpreter proved.
#[derive(Clone, Debug, PartialEq)]
pub struct Fact {
    /// What it constrains.
    pub var: HeadVar,
    /// Its range.
    pub range: Range,
}

/// A linear constraint on float values at the loop head: `lo <= c1*v1 +
/// ... + cn*vn <= hi` over the reals (either bound may be missing), with
/// binary64 coefficients and bounds, each value a `float` or a `double`
/// (a relational invariant, e.g. of a filter's state). The exact sum is
/// not computed: a constraint to check is asked of the sum rounded toward
/// the bound's side (so a state it passes satisfies the exact one), one
/// assumed, of the sum rounded away from it (so every state satisfying
/// the exact one passes). A NaN value satisfies no bound.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearFact {
    /// (value, coefficient) pairs.
    pub terms: Vec<(HeadVar, Float)>,
    /// The least value of the sum.
    pub lo: Option<Float>,
    /// The greatest value of the sum.
    pub hi: Option<Float>,
}

/// A value at the loop head.
#[derive(Clone, Debug, PartialEq)]
pub enum HeadVar {
    /// A register of `main` (a phi of the head, or a value defined before).
    Register(Name),
    /// A scalar global variable (its value, of its own type).
    Global(String),
}

/// A range of values.
#[derive(Clone, Debug, PartialEq)]
pub enum Range {
    /// `lo <= x <= hi` (IEEE comparison, so `-0` and `+0` both pass a bound
    /// of either), or NaN when `nan`. No bounds: only NaN.
    Float {
        /// The bounds, if any value is not NaN.
        bounds: Option<(Float, Float)>,
        /// NaN is possible.
        nan: bool,
    },
    /// `lo <= x <= hi` in the signed reading of the bits (`i1`: 0 and 1).
    Int {
        /// Least value.
        lo: i128,
        /// Greatest value.
        hi: i128,
    },
}

/// Calls that read or write state the C library keeps between calls (the
/// step case's start state does not have it).
const STATEFUL: &[&str] = &[
    "rand",
    "srand",
    "random",
    "srandom",
    "atexit",
    "on_exit",
    "__cxa_atexit",
    "__errno_location",
    "strtok",
    "setjmp",
    "_setjmp",
    "longjmp",
    "signal",
    "raise",
    "fesetenv",
    "feholdexcept",
    "feupdateenv",
    "fetestexcept",
    "feclearexcept",
    "feraiseexcept",
    "fegetexceptflag",
    "fesetexceptflag",
];

/// Why the step case cannot start at a head of `main` in this program and
/// configuration, or Ok.
pub fn applicable(program: &Program, config: &Config) -> Result<(), String> {
    if config.entry != Entry::Main {
        return Err("k-induction runs from `main`".into());
    }
    if config.input.finite_inputs {
        return Err("k-induction with --finite-inputs (the loop head's values may be infinite)".into());
    }
    if !config.input.sym_io.is_empty() {
        return Err("k-induction with symbolic arguments or standard input".into());
    }
    let m = &program.module;
    let named = |n: &str| m.functions.iter().any(|f| f.name == n) || m.func_declarations.iter().any(|f| f.name == n);
    if let Some(n) = STATEFUL.iter().find(|n| named(n)) {
        return Err(format!(
            "the program calls `{n}`, whose state the loop head's arbitrary state would not have"
        ));
    }
    for f in &m.functions {
        for b in &f.basic_blocks {
            for i in &b.instrs {
                if let llvm_ir::Instruction::Call(c) = i {
                    if matches!(&c.function, either::Either::Right(llvm_ir::Operand::ConstantOperand(k))
                        if matches!(k.as_ref(), llvm_ir::Constant::GlobalReference { name, .. } if name_str(name) == "main"))
                    {
                        return Err("the program calls `main`".into());
                    }
                }
            }
        }
    }
    for g in &m.global_vars {
        if g.is_constant || !written(m, &g.name) {
            continue;
        }
        if has_pointer(m, &crate::pointee(g)) {
            return Err(format!(
                "global `{}` holds a pointer (the loop head's arbitrary state cannot)",
                name_str(&g.name)
            ));
        }
    }
    Ok(())
}

/// Whether the program may change global `g`: it appears other than as the
/// address a `load` reads.
pub fn written(m: &llvm_ir::Module, g: &Name) -> bool {
    let is_g = |op: &llvm_ir::Operand| {
        matches!(op, llvm_ir::Operand::ConstantOperand(k)
            if matches!(k.as_ref(), llvm_ir::Constant::GlobalReference { name, .. } if name == g))
    };
    // Every mention of `g` in an instruction's text, against those that are
    // a load's address: a mention elsewhere (a store, a call argument, a
    // constant expression) may write it.
    let text = format!("@{}", name_str(g));
    let mentions = |s: &str| {
        s.match_indices(&text)
            .filter(|(i, _)| {
                let after = s[i + text.len()..].chars().next();
                !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$')
            })
            .count()
    };
    for f in &m.functions {
        for b in &f.basic_blocks {
            for i in &b.instrs {
                let n = mentions(&i.to_string());
                if n == 0 {
                    continue;
                }
                let loads = match i {
                    llvm_ir::Instruction::Load(l) if is_g(&l.address) => 1,
                    _ => 0,
                };
                if n > loads {
                    return true;
                }
            }
            if mentions(&b.term.to_string()) > 0 {
                return true;
            }
        }
    }
    // Initializers of other globals that take its address.
    m.global_vars
        .iter()
        .filter(|o| o.name != *g)
        .filter_map(|o| o.initializer.as_ref())
        .any(|c| mentions(&c.to_string()) > 0)
}

fn has_pointer(m: &llvm_ir::Module, t: &llvm_ir::TypeRef) -> bool {
    use llvm_ir::Type as T;
    match t.as_ref() {
        T::PointerType { .. } | T::FuncType { .. } => true,
        T::ArrayType { element_type, .. } | T::VectorType { element_type, .. } => has_pointer(m, element_type),
        T::StructType { element_types, .. } => element_types.iter().any(|e| has_pointer(m, e)),
        T::NamedStructType { name } => match m.types.named_struct_def(name) {
            Some(llvm_ir::types::NamedStructDef::Defined(t)) => has_pointer(m, t),
            _ => true,
        },
        _ => false,
    }
}

/// The loop heads of `main` k-induction may start at (block names, in
/// program order).
pub fn heads(program: &Program) -> Vec<Name> {
    let prog = crate::prog::Prog::new(program, |_| true);
    let Some(&f) = prog.func_index.get("main") else {
        return Vec::new();
    };
    prog.funcs[f]
        .basic_blocks
        .iter()
        .zip(&prog.loop_headers[f])
        .filter(|(_, h)| **h)
        .map(|(b, _)| b.name.clone())
        .collect()
}

/// The engine's side of a case: where a path stands, and the step case's
/// start.
impl crate::Engine<'_, '_> {
    /// With [`Extensions::induction`]: the arrivals of `st` at the loop head
    /// and the case's `k`.
    pub(crate) fn induction_visits(&self, st: &crate::state::State) -> Option<(u32, u32)> {
        let ind = self.config.extensions.induction.as_ref()?;
        let f = *self.prog.func_index.get("main")?;
        let h = *self.prog.blocks[f].get(&ind.head)?;
        Some((st.loop_visits.get(&(f, h)).copied().unwrap_or(0), ind.k))
    }

    /// The step case's start ([`induction`]): the frame of `main` at the
    /// loop head `head`, past its phis; the phis, the parameters and every
    /// value defined where the head cannot lead are fresh variables (the
    /// scalars; other registers stay unwritten), and so is every global the
    /// program may write; then `facts` narrow them.
    pub(crate) fn enter_head(
        &mut self,
        st: &mut crate::state::State,
        head: &llvm_ir::Name,
        facts: &[Fact],
    ) -> Result<(), EngineError> {
        use llvm_ir::{Instruction, Type};
        let prog = self.prog;
        let &fidx = prog
            .func_index
            .get("main")
            .ok_or_else(|| EngineError::Entry("no function `main` with a body in the program".into()))?;
        let f = prog.funcs[fidx];
        let &hb = prog.blocks[fidx]
            .get(head)
            .ok_or_else(|| EngineError::Entry(format!("`main` has no block {head}")))?;
        if !prog.loop_headers[fidx][hb] {
            return Err(EngineError::Entry(format!("block {head} of `main` is no loop head")));
        }
        let phis = f.basic_blocks[hb]
            .instrs
            .iter()
            .take_while(|i| matches!(i, Instruction::Phi(_)))
            .count();
        let havoc = head_registers(prog, fidx, hb);
        let mut regs = prog.regs(fidx);
        for (n, ty) in havoc {
            let label = st.unique_name(&format!("head:{}", name_str(&n)));
            let v = match prog.layout.resolve(&ty) {
                Some(Type::IntegerType { bits }) => {
                    crate::value::Val::Bv(fpsym_expr::Term::var(&label, fpsym_expr::Sort::BitVec(*bits)))
                }
                Some(Type::FPType(t)) => match crate::layout::fp_format(*t) {
                    Some(fmt) => crate::value::Val::Fp(fpsym_expr::Term::var(&label, fpsym_expr::Sort::Float(fmt))),
                    None => continue,
                },
                _ => continue,
            };
            regs.insert(n, v);
        }
        let mut ex = self.exec();
        for g in &prog.module.global_vars {
            if g.is_constant || !written(prog.module, &g.name) {
                continue;
            }
            let name = name_str(&g.name);
            let size = prog.layout.alloc_size(&crate::pointee(g));
            ex.make_symbolic_at(st, ex.globals[&name], 0, size, &format!("head:{name}"));
        }
        let mut frame = crate::state::Frame::new(fidx, regs);
        frame.bb = hb;
        frame.ip = phis;
        st.frames.push(frame);
        for fact in facts {
            if let Some(c) = head_value(&mut ex, st, &fact.var).and_then(|v| fact_term(&v, &fact.range)) {
                st.constrain(c);
            }
        }
        // An invariant check's linear constraints hold too (assumed: the
        // sums rounded away from their bounds).
        let linear = ex.config.extensions.induction.as_ref().and_then(|i| i.check.as_ref());
        for l in linear.map_or(&[][..], |c| c.linear.as_slice()) {
            if let Some(c) = linear_term(&mut ex, st, l, true) {
                st.constrain(c);
            }
        }
        Ok(())
    }

    /// With an invariant check ([`check_invariants`]) and `st` at the loop
    /// head past its phis after the case's `k` arrivals: asks, for each
    /// fact, whether the path lets it fail (writing the answers), and ends
    /// the path (None elsewhere).
    pub(crate) fn invariant_check(&mut self, st: &mut crate::state::State) -> Option<crate::exec::End> {
        let ind = self.config.extensions.induction.as_ref()?;
        let check = ind.check.clone()?;
        let (c, k) = self.induction_visits(st)?;
        let f = *self.prog.func_index.get("main")?;
        let h = *self.prog.blocks[f].get(&ind.head)?;
        let fr = st.frames.last()?;
        let phis = self.prog.funcs[f].basic_blocks[h]
            .instrs
            .iter()
            .take_while(|i| matches!(i, llvm_ir::Instruction::Phi(_)))
            .count();
        if c != k || st.frames.len() != 1 || fr.func != f || fr.bb != h || fr.ip != phis {
            return None;
        }
        let mut ex = self.exec();
        let mut holds: Vec<Option<fpsym_expr::Term>> = Vec::new();
        for fact in &check.facts {
            holds.push(head_value(&mut ex, st, &fact.var).and_then(|v| fact_term(&v, &fact.range)));
        }
        for l in &check.linear {
            holds.push(linear_term(&mut ex, st, l, false));
        }
        // A linear constraint is asked and assumed in directed rounding: a
        // path breaking what is asked may be one of the looser assumption,
        // or break only the rounded sum, so it shows no failure then, only
        // that the check did not show the fact inductive.
        let exact = check.linear.is_empty();
        for (i, holds) in holds.into_iter().enumerate() {
            let answer = match holds {
                Some(c) => {
                    let not = crate::term::mk(fpsym_expr::Op::Not, vec![c]);
                    match ex.feasible(st, &[not]) {
                        crate::exec::Feasible::Yes(_) if !exact => None,
                        crate::exec::Feasible::Yes(_) => Some(true),
                        crate::exec::Feasible::No => Some(false),
                        crate::exec::Feasible::Unknown(_) => None,
                    }
                }
                None => None,
            };
            match answer {
                Some(true) => {
                    check.failed.lock().expect("not poisoned").insert(i);
                }
                Some(false) => {}
                None => {
                    check.undecided.lock().expect("not poisoned").insert(i);
                }
            }
        }
        Some(crate::exec::End::Infeasible)
    }
}

/// The registers of function `fidx` that have a value at its loop head `hb`
/// (block index) and keep it through the loop: the parameters, the head's
/// phis and every value defined where the head cannot lead; with types.
fn head_registers(prog: &crate::prog::Prog<'_>, fidx: usize, hb: usize) -> Vec<(Name, llvm_ir::TypeRef)> {
    let f = prog.funcs[fidx];
    let mut reach = vec![false; f.basic_blocks.len()];
    reach[hb] = true;
    let mut work = vec![hb];
    while let Some(b) = work.pop() {
        for s in crate::prog::successors(&f.basic_blocks[b].term) {
            if let Some(&j) = prog.blocks[fidx].get(s) {
                if !reach[j] {
                    reach[j] = true;
                    work.push(j);
                }
            }
        }
    }
    let mut out: Vec<(Name, llvm_ir::TypeRef)> = f.parameters.iter().map(|p| (p.name.clone(), p.ty.clone())).collect();
    for (b, block) in f.basic_blocks.iter().enumerate() {
        if reach[b] && b != hb {
            continue;
        }
        for i in &block.instrs {
            if b == hb && !matches!(i, llvm_ir::Instruction::Phi(_)) {
                break;
            }
            if let Some(n) = i.try_get_result() {
                out.push((n.clone(), prog.module.type_of(i)));
            }
        }
    }
    out
}

/// The facts of `facts` about values the loop head `head` of `main` has:
/// its registers that keep their value through the loop (see
/// [`head_registers`]) and globals. (An analysis may know ranges of values
/// defined in the loop's body too; they are no state of the head.)
pub fn head_facts(program: &Program, head: &Name, facts: &[Fact]) -> Vec<Fact> {
    let prog = crate::prog::Prog::new(program, |_| true);
    let Some(&f) = prog.func_index.get("main") else {
        return Vec::new();
    };
    let Some(&hb) = prog.blocks[f].get(head) else {
        return Vec::new();
    };
    let regs: HashSet<Name> = head_registers(&prog, f, hb).into_iter().map(|(n, _)| n).collect();
    facts
        .iter()
        .filter(|x| match &x.var {
            HeadVar::Register(n) => regs.contains(n),
            HeadVar::Global(_) => true,
        })
        .cloned()
        .collect()
}

/// The value of `var` in `st` (a register of its frame, or a scalar global
/// read from memory), if it has one.
fn head_value(
    ex: &mut crate::exec::Exec<'_, '_>,
    st: &mut crate::state::State,
    var: &HeadVar,
) -> Option<crate::value::Val> {
    let prog = ex.prog;
    match var {
        HeadVar::Register(n) => st.frame().regs.get(n),
        HeadVar::Global(g) => {
            let gv = prog.module.global_vars.iter().find(|x| name_str(&x.name) == *g)?;
            let ty = crate::pointee(gv);
            let n = prog.layout.store_size(&ty);
            ex.read_at(st, ex.globals[g], &crate::term::bv(64, 0), n, &ty, &None)
                .ok()
        }
    }
}

/// What a k-induction attempt concluded.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Both cases hold at this head and `k`.
    Proved {
        /// The head.
        head: Name,
        /// Its first source location.
        loc: Option<fpsym_frontend::Loc>,
        /// The `k`.
        k: u32,
    },
    /// The base case reached the error: a bug (its summary and findings).
    Found(Box<Summary>, Vec<crate::report::Finding>),
    /// No proof up to the last `k` tried (why, for the message).
    Unknown(String),
}

/// Options of [`prove`].
pub struct Options<'a> {
    /// The facts known at each head (by head), assumed by the step case.
    pub facts: &'a dyn Fn(&Name) -> Vec<Fact>,
    /// The largest `k` tried.
    pub max_k: u32,
    /// When to stop trying.
    pub deadline: Instant,
    /// Raised to stop at once.
    pub interrupt: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

/// Tries k = 1, 2, ... up to `opts.max_k` at each head of `main`: the step
/// case first (it fails fast when the property is not inductive), then the
/// base case. `config` is the run's (its property must be unreach-call).
pub fn prove(program: &Program, solver: &mut dyn Solver, config: &Config, opts: &Options<'_>) -> Outcome {
    if let Err(why) = applicable(program, config) {
        return Outcome::Unknown(why);
    }
    let heads = heads(program);
    if heads.is_empty() {
        return Outcome::Unknown("`main` has no loop".into());
    }
    let mut why = String::from("no k tried");
    let mut base_done: HashSet<(Name, u32)> = HashSet::new();
    for k in 1..=opts.max_k {
        for h in &heads {
            let left = opts.deadline.saturating_duration_since(Instant::now());
            if left.is_zero() || opts.interrupt.load(std::sync::atomic::Ordering::Relaxed) {
                return Outcome::Unknown(format!("{why}; out of time at k = {k}"));
            }
            let facts = (opts.facts)(h);
            // (two thirds of what is left: a step case that holds leaves
            // time for its base case)
            let step = match run_case(program, solver, config, opts, h, k, Some(facts), left * 2 / 3) {
                Ok((s, _)) => s,
                Err(e) => return Outcome::Unknown(format!("the step case could not start: {e}")),
            };
            if step.stats.findings > 0 {
                why = format!("the step case fails at k = {k}");
                continue;
            }
            if let Verdict::Incomplete(w) | Verdict::Unknown(w) = &step.verdict {
                why = format!("the step case at k = {k} is incomplete ({w})");
                continue;
            }
            if !base_done.insert((h.clone(), k)) {
                continue;
            }
            let left = opts.deadline.saturating_duration_since(Instant::now());
            let (base, findings) = match run_case(program, solver, config, opts, h, k, None, left) {
                Ok(r) => r,
                Err(e) => return Outcome::Unknown(format!("the base case could not start: {e}")),
            };
            if base.stats.findings > 0 {
                return Outcome::Found(Box::new(base), findings);
            }
            match &base.verdict {
                Verdict::Verified => {
                    return Outcome::Proved {
                        head: h.clone(),
                        loc: head_loc(program, h),
                        k,
                    }
                }
                Verdict::Incomplete(w) | Verdict::Unknown(w) => {
                    why = format!("the base case at k = {k} is incomplete ({w})");
                }
                _ => why = format!("the base case at k = {k} gave no verdict"),
            }
        }
    }
    Outcome::Unknown(why)
}

/// One case at `head` and `k` (`step`: its facts; None: the base case),
/// for at most `time`.
#[allow(clippy::too_many_arguments)]
fn run_case(
    program: &Program,
    solver: &mut dyn Solver,
    config: &Config,
    opts: &Options<'_>,
    head: &Name,
    k: u32,
    step: Option<Vec<Fact>>,
    time: std::time::Duration,
) -> Result<(Summary, Vec<crate::report::Finding>), EngineError> {
    let mut c = config.clone();
    c.extensions.induction = Some(Induction {
        head: head.clone(),
        k,
        step,
        check: None,
    });
    c.limits.max_time = Some(time);
    c.goals.stop_at_finding = Some(crate::checkers::Kind::ReachError);
    c.limits.loop_bound = None;
    c.input.seeds = Vec::new();
    c.input.crash_seeds = 0;
    let mut sink = Collect::default();
    let mut cx = RunContext {
        interrupt: opts.interrupt.clone(),
        ..Default::default()
    };
    let s = crate::run(program, solver, &c, &mut sink, &mut cx)?;
    Ok((s, sink.findings))
}

/// The head block's first source location.
pub fn head_loc(program: &Program, head: &Name) -> Option<fpsym_frontend::Loc> {
    use llvm_ir::HasDebugLoc;
    let f = program.module.functions.iter().find(|f| f.name == "main")?;
    let b = f.basic_blocks.iter().find(|b| b.name == *head)?;
    b.instrs
        .iter()
        .filter_map(|i| i.get_debug_loc().as_ref())
        .chain(b.term.get_debug_loc().as_ref())
        .find(|d| d.line > 0)
        .map(fpsym_frontend::Loc::from_debugloc)
}

/// The rounding modes the step case starts in: the four of x86-64 when the
/// program may change the mode, else the default one.
pub(crate) fn start_modes(program: &Program) -> Vec<RoundingMode> {
    let m = &program.module;
    let sets = m.functions.iter().any(|f| f.name == "fesetround")
        || m.func_declarations.iter().any(|f| f.name == "fesetround");
    if sets {
        vec![
            RoundingMode::NearestTiesToEven,
            RoundingMode::TowardNegative,
            RoundingMode::TowardPositive,
            RoundingMode::TowardZero,
        ]
    } else {
        vec![RoundingMode::NearestTiesToEven]
    }
}

/// The constraint `l` puts on `st` at the head: assumed (`assume`), a
/// weaker one (each sum rounded away from its bound), else a stronger one
/// (rounded toward it); see [`LinearFact`]. None when a value is missing
/// or not a `float` or `double`.
fn linear_term(
    ex: &mut crate::exec::Exec<'_, '_>,
    st: &mut crate::state::State,
    l: &LinearFact,
    assume: bool,
) -> Option<fpsym_expr::Term> {
    use crate::term::{fp, mk};
    use fpsym_expr::Op;
    use fpsym_float::Format;
    let mut values = Vec::new();
    for (var, c) in &l.terms {
        let crate::value::Val::Fp(x) = head_value(ex, st, var)? else {
            return None;
        };
        let x = match crate::term::format_of(&x) {
            f if f == Format::BINARY64 => x,
            // exact: every float is a double
            f if f == Format::BINARY32 => mk(
                Op::ToFpFromFp(Format::BINARY64),
                vec![crate::term::rm(RoundingMode::NearestTiesToEven), x],
            ),
            _ => return None,
        };
        if c.format() != Format::BINARY64 {
            return None;
        }
        values.push((x, *c));
    }
    // The sum rounded up (at least the exact sum) or down (at most it).
    let sum = |up: bool| {
        let rm = crate::term::rm(if up {
            RoundingMode::TowardPositive
        } else {
            RoundingMode::TowardNegative
        });
        values
            .iter()
            .map(|(x, c)| mk(Op::FpMul, vec![rm.clone(), fp(*c), x.clone()]))
            .reduce(|a, b| mk(Op::FpAdd, vec![rm.clone(), a, b]))
    };
    let mut parts = Vec::new();
    if let Some(lo) = l.lo {
        // lo <= exact: assumed of the sum rounded up, asked of it rounded down.
        parts.push(mk(Op::FpLeq, vec![fp(lo), sum(assume)?]));
    }
    if let Some(hi) = l.hi {
        parts.push(mk(Op::FpLeq, vec![sum(!assume)?, fp(hi)]));
    }
    match parts.len() {
        0 => None,
        1 => parts.pop(),
        _ => Some(mk(Op::And, parts)),
    }
}

/// The constraint that value `v` lies in `r` (None when they do not match:
/// no constraint, which is weaker and so still sound).
pub(crate) fn fact_term(v: &crate::value::Val, r: &Range) -> Option<fpsym_expr::Term> {
    use crate::term::{bv, fp, mk, width};
    use fpsym_expr::Op;
    match (v, r) {
        (crate::value::Val::Fp(x), Range::Float { bounds, nan }) => {
            let fmt = crate::term::format_of(x);
            let mut alts = Vec::new();
            if let Some((lo, hi)) = bounds {
                if lo.format() != fmt || hi.format() != fmt {
                    return None;
                }
                alts.push(mk(
                    Op::And,
                    vec![
                        mk(Op::FpLeq, vec![fp(*lo), x.clone()]),
                        mk(Op::FpLeq, vec![x.clone(), fp(*hi)]),
                    ],
                ));
            }
            if *nan {
                alts.push(mk(Op::FpIsNaN, vec![x.clone()]));
            }
            match alts.len() {
                0 => None,
                1 => alts.pop(),
                _ => Some(mk(Op::Or, alts)),
            }
        }
        (crate::value::Val::Bv(x), Range::Int { lo, hi }) => {
            let w = width(x);
            if w == 0 || w > 128 {
                return None;
            }
            let mask = if w == 128 { u128::MAX } else { (1u128 << w) - 1 };
            let c = |v: i128| bv(w, (v as u128) & mask);
            let (le, l, h) = if w == 1 {
                (Op::BvUle, (*lo).clamp(0, 1), (*hi).clamp(0, 1))
            } else {
                (Op::BvSle, *lo, *hi)
            };
            Some(mk(
                Op::And,
                vec![mk(le.clone(), vec![c(l), x.clone()]), mk(le, vec![x.clone(), c(h)])],
            ))
        }
        _ => None,
    }
}
