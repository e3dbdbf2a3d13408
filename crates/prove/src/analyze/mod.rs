//! The abstract interpreter: a worklist fixpoint over each function's
//! control-flow graph, calls analysed inline in their caller's state.

use crate::itv;
use crate::value::{IntRange, Val};
use crate::{GiveUp, Invariant};
use fpsym_float::{Float, FloatInterval, Format};
use fpsym_frontend::llvm_ir::{
    self, constant::Float as CFloat, instruction::Instruction as I, terminator::Terminator as T, types::FPType,
    Constant, FPPredicate, Function, HasDebugLoc, IntPredicate, Module, Name, Operand, Type,
};
use fpsym_frontend::{Loc, Program};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::Instant;

mod memory;
mod refine;
pub(crate) mod relational;
mod transfer;

use itv::{fcmp_outcomes, fcmp_refine, fcmp_self};
use refine::{icmp_refine, negate_ipred};

/// A call context: which inlined call of a function (0 is the entry).
type Ctx = u32;

/// An IR value or a tracked global variable.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Key {
    Local(Ctx, Name),
    Global(String),
    /// The linear form of a value (a `Val::Lin`).
    Form(Box<Key>),
    /// The range of template direction `k` of loop head `block` (a `Val::R`).
    Dir(Ctx, usize, usize),
    /// A variable's value when its loop head (context, block) was entered:
    /// the symbols of the linear forms (a global changes during the
    /// iteration; its value at the head does not).
    Head(Ctx, usize, Box<Key>),
    /// The scalar at a byte offset of a local object (the `alloca` of a
    /// call context).
    Cell(Ctx, Name, i128),
    /// A claim: the register (a load's result) still holds the value of the
    /// memory it was loaded from (a cell or a global), which has not been
    /// written since; narrowing one narrows the other.
    Same(Box<Key>, Box<Key>),
}

/// The abstract state at a program point (None: unreachable).
pub(crate) type St = Option<HashMap<Key, Val>>;

/// An operand as the refinement sees it.
#[derive(Debug, Clone)]
enum Opnd {
    Var(Key),
    Const(Val),
}

/// How a value was computed, for refining its operands at a branch.
#[derive(Debug, Clone)]
enum Def {
    FCmp(FPPredicate, Opnd, Opnd),
    ICmp(IntPredicate, Opnd, Opnd),
    /// `zext`/`sext` of an `i1`, a parameter bound to an argument, `freeze`.
    Alias(Opnd),
    /// `xor i1 c, true`.
    Not(Opnd),
    And(Opnd, Opnd),
    Or(Opnd, Opnd),
    /// `fpext` (exact: the operand is the value in a narrower format).
    FExt(Opnd),
    /// A phi of `i1` (what `&&` and `||` compile to): per incoming edge, the
    /// value and the branch conditions known on the way to it.
    PhiBool(Vec<(Opnd, Vec<(Opnd, bool)>)>),
}

/// Where an error call was found reachable.
#[derive(Debug, Clone)]
pub(crate) struct Reached {
    pub function: String,
    pub loc: Option<Loc>,
}

pub(crate) struct Analyzer<'p> {
    prog: &'p Program,
    module: &'p Module,
    targets: &'p [String],
    /// Also find integer divisions by zero and `unreachable` reachable.
    checks: bool,
    /// The floating-point exceptions to find reachable.
    pub fp: crate::FpChecks,
    /// The entry's parameter ranges.
    pub params: &'p [fpsym_engine::harness::InputRange],
    deadline: Option<Instant>,
    cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    defs: HashMap<Key, Def>,
    contexts: HashMap<(Ctx, String, usize, usize), Ctx>,
    stack: Vec<String>,
    recording: bool,
    pub reached: Vec<Reached>,
    pub invariants: Vec<Invariant>,
    /// Scalar globals accessed only by loads and stores, with their initial values.
    pub tracked: HashMap<String, Val>,
    /// Constant global arrays of scalars: their elements.
    arrays: HashMap<String, Vec<Val>>,
    /// The local objects made so far, by call context and `alloca`.
    objects: HashMap<(Ctx, Name), std::rc::Rc<memory::Object>>,
    fthresholds: HashMap<Format, Vec<Float>>,
    ithresholds: Vec<i128>,
    /// Per function, each block's predecessors (by index).
    preds: HashMap<String, Vec<Vec<usize>>>,
    /// Per function, its loop heads.
    heads: HashMap<String, HashSet<usize>>,
    /// The template polyhedra of loop heads (context, block).
    templates: HashMap<(Ctx, usize), relational::Template>,
    /// Which loop head each symbol of the linear forms is a variable of.
    symbol_head: HashMap<Key, (Ctx, usize)>,
    /// A template was added: the function's fixpoint starts again.
    restart: bool,
    /// No template may be added (descending iterations, the check).
    frozen: bool,
}

/// Visits of a loop head before its state is widened.
const WIDEN_DELAY: u32 = 3;
/// Visits of a loop head with a template before it is widened.
const TEMPLATE_WIDEN_DELAY: u32 = 40;
/// Times a template's polytope is doubled before the bounds that still
/// grow are dropped (the loop diverges, or its invariant is not in the
/// template).
const DOUBLINGS: u32 = 12;
/// Descending passes after the widened fixpoint.
const NARROWING_PASSES: usize = 30;
/// Values of an array index below which a block is run once per value.
const PARTITION: i128 = 16;
/// Inlined calls deeper than this give up.
const MAX_DEPTH: usize = 24;

fn name_str(n: &Name) -> String {
    match n {
        Name::Name(s) => s.to_string(),
        Name::Number(k) => k.to_string(),
    }
}

fn fmt_of(t: &Type) -> Option<Format> {
    match t {
        Type::FPType(FPType::Single) => Some(Format::BINARY32),
        Type::FPType(FPType::Double) => Some(Format::BINARY64),
        _ => None,
    }
}

/// Every value of an IR type, or None for a type the analysis does not model.
fn top_of(t: &Type) -> Option<Val> {
    match t {
        Type::IntegerType { bits } if *bits <= 64 => Some(Val::I(IntRange::full(*bits))),
        Type::PointerType { .. } => Some(Val::Top),
        t => fmt_of(t).map(|f| Val::F(FloatInterval::full(f))),
    }
}

fn const_val(c: &Constant) -> Option<Val> {
    match c {
        Constant::Int { bits, value } if *bits <= 64 => {
            let v = if *bits == 1 {
                *value as i128 & 1
            } else if *bits < 64 && (*value >> (bits - 1)) & 1 == 1 {
                *value as i128 - (1i128 << bits)
            } else if *bits == 64 {
                *value as i64 as i128
            } else {
                *value as i128
            };
            Some(Val::I(IntRange::point(*bits, v)))
        }
        Constant::Float(CFloat::Single(x)) => Some(Val::F(FloatInterval::point(Float::from_f32(*x)))),
        Constant::Float(CFloat::Double(x)) => Some(Val::F(FloatInterval::point(Float::from_f64(*x)))),
        Constant::GlobalReference { name, .. } => Some(Val::Ptr {
            global: name_str(name),
            idx: None,
        }),
        Constant::Undef(t) | Constant::Poison(t) => top_of(t),
        // `&table[k]` as a constant (a constant index into a global array):
        // its element, as the instruction form gives it
        Constant::GetElementPtr(g) => match (g.address.as_ref(), g.indices.as_slice()) {
            (Constant::GlobalReference { name, .. }, [zero, k]) => {
                let (Some(Val::I(z)), Some(Val::I(k))) = (const_val(zero), const_val(k)) else {
                    return None;
                };
                (z.as_point() == Some(0)).then(|| Val::Ptr {
                    global: name_str(name),
                    idx: Some((k.lo, k.hi)),
                })
            }
            _ => None,
        },
        _ => None,
    }
}

fn callee_name(call: &llvm_ir::instruction::Call) -> Option<String> {
    match &call.function {
        either::Either::Right(Operand::ConstantOperand(c)) => match c.as_ref() {
            Constant::GlobalReference { name, .. } => Some(name_str(name)),
            _ => None,
        },
        _ => None,
    }
}

/// libm functions whose result is bounded by the interval domain (`sqrt`,
/// `fabs`) or is any value of its type (the rest: pure, no effect on memory).
const PURE_LIBM: &[&str] = &[
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "atan2",
    "sinh",
    "cosh",
    "tanh",
    "exp",
    "exp2",
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "pow",
    "cbrt",
    "hypot",
    "floor",
    "ceil",
    "round",
    "trunc",
    "fmod",
    "remainder",
    "nearbyint",
    "rint",
    "erf",
    "erfc",
];

impl<'p> Analyzer<'p> {
    pub(crate) fn new(
        prog: &'p Program,
        targets: &'p [String],
        checks: bool,
        deadline: Option<Instant>,
        cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    ) -> Analyzer<'p> {
        let mut a = Analyzer {
            prog,
            module: &prog.module,
            targets,
            checks,
            fp: crate::FpChecks::default(),
            params: &[],
            deadline,
            cancel,
            defs: HashMap::new(),
            contexts: HashMap::new(),
            stack: Vec::new(),
            recording: false,
            reached: Vec::new(),
            invariants: Vec::new(),
            tracked: HashMap::new(),
            arrays: HashMap::new(),
            objects: HashMap::new(),
            fthresholds: HashMap::new(),
            ithresholds: Vec::new(),
            preds: HashMap::new(),
            heads: HashMap::new(),
            templates: HashMap::new(),
            symbol_head: HashMap::new(),
            restart: false,
            frozen: false,
        };
        a.scan_globals();
        a.scan_constants();
        a
    }

    /// Finds the globals the analysis can follow: scalars used only as the
    /// address of loads and stores, and constant arrays of scalars.
    fn scan_globals(&mut self) {
        let mut escaped: HashSet<String> = HashSet::new();
        let mut stored: HashSet<String> = HashSet::new();
        for f in &self.module.functions {
            for bb in &f.basic_blocks {
                for i in &bb.instrs {
                    let (addr_ok, stored_value): (Option<&Operand>, Option<&Operand>) = match i {
                        I::Load(l) => (Some(&l.address), None),
                        I::Store(s) => (Some(&s.address), Some(&s.value)),
                        I::GetElementPtr(g) => (Some(&g.address), None),
                        _ => (None, None),
                    };
                    for op in fpsym_frontend::instruction_operands(i) {
                        let Some(g) = global_of(op) else { continue };
                        let is_addr = addr_ok.is_some_and(|a| std::ptr::eq(a, op));
                        if !is_addr || stored_value.is_some_and(|v| std::ptr::eq(v, op)) {
                            escaped.insert(g.clone());
                        }
                        if matches!(i, I::Store(_)) && is_addr {
                            stored.insert(g.clone());
                        }
                        if matches!(i, I::GetElementPtr(_)) {
                            // an element's address: fine for a constant array
                            stored.insert(format!("{g}[]"));
                        }
                    }
                }
                for op in terminator_operands(&bb.term) {
                    if let Some(g) = global_of(op) {
                        escaped.insert(g);
                    }
                }
            }
        }
        for g in &self.module.global_vars {
            let name = name_str(&g.name);
            let elem_ty = match g.ty.as_ref() {
                Type::PointerType { pointee_type, .. } => pointee_type.clone(),
                _ => continue,
            };
            let init = g.initializer.as_ref().map(|c| c.as_ref().clone());
            if escaped.contains(&name) {
                continue;
            }
            match elem_ty.as_ref() {
                Type::ArrayType { .. } if g.is_constant && !stored.contains(&name) => {
                    if let Some(Constant::Array { elements, .. }) = &init {
                        let vals: Option<Vec<Val>> = elements.iter().map(|e| const_val(e)).collect();
                        if let Some(v) = vals {
                            self.arrays.insert(name, v);
                        }
                    }
                }
                t if !stored.contains(&format!("{name}[]")) => {
                    let v = match &init {
                        Some(Constant::AggregateZero(_)) | Some(Constant::Null(_)) => zero_of(t),
                        Some(c) => const_val(c),
                        None => None,
                    };
                    if let Some(v) = v {
                        self.tracked.insert(name, v);
                    }
                }
                _ => {}
            }
        }
    }

    /// Widening thresholds: the program's constants, their negations and
    /// doubles, powers of two and of ten.
    fn scan_constants(&mut self) {
        let mut fl: Vec<f64> = Vec::new();
        let mut ints: BTreeSet<i128> = BTreeSet::new();
        for i in self
            .module
            .functions
            .iter()
            .flat_map(|f| &f.basic_blocks)
            .flat_map(|b| &b.instrs)
        {
            for op in fpsym_frontend::instruction_operands(i) {
                if let Operand::ConstantOperand(c) = op {
                    match const_val(c) {
                        Some(Val::F(x)) => {
                            if let Some(v) = x.lo().and_then(|v| {
                                v.to_f64().or_else(|| {
                                    v.convert(Format::BINARY64, fpsym_float::RoundingMode::NearestTiesToEven)
                                        .value
                                        .to_f64()
                                })
                            }) {
                                fl.push(v);
                            }
                        }
                        Some(Val::I(r)) => {
                            ints.insert(r.lo);
                        }
                        _ => {}
                    }
                }
            }
        }
        for k in -20..=64 {
            fl.push(2f64.powi(k));
        }
        for k in 0..=20 {
            fl.push(10f64.powi(k));
        }
        let base = fl.clone();
        for v in base {
            fl.extend([v, -v, 2.0 * v, -2.0 * v, v + 1.0, -v - 1.0, v - 1.0, 1.0 - v]);
        }
        fl.push(0.0);
        fl.retain(|v| v.is_finite());
        for fmt in [Format::BINARY32, Format::BINARY64] {
            let mut t: Vec<Float> = fl
                .iter()
                .map(|v| {
                    Float::from_f64(*v)
                        .convert(fmt, fpsym_float::RoundingMode::NearestTiesToEven)
                        .value
                })
                .filter(|v| !v.is_infinite() && !v.is_nan())
                .collect();
            t.sort_by_key(|v| v.ordinal());
            t.dedup();
            self.fthresholds.insert(fmt, t);
        }
        let mut it: BTreeSet<i128> = BTreeSet::new();
        for v in ints {
            it.extend([v, v + 1, v - 1, -v, -v + 1, -v - 1]);
        }
        self.ithresholds = it.into_iter().collect();
    }

    fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    }

    fn give_up(&self, function: &str, loc: Option<Loc>, what: impl Into<String>) -> GiveUp {
        GiveUp {
            function: function.to_string(),
            loc,
            what: what.into(),
        }
    }

    /// The context of a call at (block, instr) of the function running in `ctx`.
    fn context(&mut self, ctx: Ctx, func: &str, b: usize, i: usize) -> Ctx {
        let n = self.contexts.len() as Ctx + 1;
        *self.contexts.entry((ctx, func.to_string(), b, i)).or_insert(n)
    }

    /// Analyses `main` (or `entry`) from the program's initial state.
    pub(crate) fn run(&mut self, entry: &str) -> Result<(), GiveUp> {
        let f = self.prog.function(entry).ok_or_else(|| GiveUp {
            function: entry.to_string(),
            loc: None,
            what: "no such function".into(),
        })?;
        let mut st = HashMap::new();
        for (g, v) in &self.tracked {
            st.insert(Key::Global(g.clone()), v.clone());
        }
        for p in &f.parameters {
            let mut v = top_of(&p.ty)
                .ok_or_else(|| self.give_up(entry, None, format!("parameter `{}` of type {}", p.name, p.ty)))?;
            // `--range`: the floats inside it, as the symbolic run's inputs
            let named = self.params.iter().find(|r| r.name == name_str(&p.name));
            if let (Some(r), Val::F(x)) = (named, &v) {
                if let Some((lo, hi)) = r.floats(x.format()) {
                    v = Val::F(FloatInterval::new(lo, hi, false));
                }
            }
            st.insert(Key::Local(0, p.name.clone()), v);
        }
        self.recording = true;
        self.function(0, f, Some(st))?;
        Ok(())
    }

    /// Analyses one call of `f` in context `ctx` from `entry`; returns the
    /// state after it returns (every return joined) and the returned value.
    fn function(&mut self, ctx: Ctx, f: &'p Function, entry: St) -> Result<(St, Option<Val>), GiveUp> {
        if self.stack.len() > MAX_DEPTH || self.stack.contains(&f.name) {
            return Err(self.give_up(&f.name, None, "recursion or calls nested too deep"));
        }
        self.stack.push(f.name.clone());
        let recording = std::mem::replace(&mut self.recording, false);
        let r = self.fixpoint(ctx, f, entry, recording);
        self.recording = recording;
        self.stack.pop();
        r
    }

    fn fixpoint(&mut self, ctx: Ctx, f: &'p Function, entry: St, recording: bool) -> Result<(St, Option<Val>), GiveUp> {
        let n = f.basic_blocks.len();
        let index: HashMap<&Name, usize> = f.basic_blocks.iter().enumerate().map(|(i, b)| (&b.name, i)).collect();
        let succs: Vec<Vec<usize>> = f
            .basic_blocks
            .iter()
            .map(|b| successors(&b.term).iter().map(|s| index[s]).collect())
            .collect();
        let (rpo, heads) = order(&succs);
        let pos: Vec<usize> = {
            let mut p = vec![usize::MAX; n];
            for (k, b) in rpo.iter().enumerate() {
                p[*b] = k;
            }
            p
        };
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (b, ss) in succs.iter().enumerate() {
            for &s in ss {
                if !preds[s].contains(&b) {
                    preds[s].push(b);
                }
            }
        }
        self.preds.entry(f.name.clone()).or_insert(preds);
        self.heads.entry(f.name.clone()).or_insert_with(|| heads.clone());
        // (a caller's pending restart is its own, not this call's)
        let frozen = std::mem::replace(&mut self.frozen, false);
        let restart = std::mem::take(&mut self.restart);
        let mut states: Vec<St> = vec![None; n];
        states[0] = entry.clone();
        let mut visits = vec![0u32; n];
        let mut work: BTreeSet<usize> = BTreeSet::from([0]);
        let mut restarts = 0;
        // ascending iterations, widened at loop heads
        loop {
            let Some(p) = work.pop_first() else {
                // a loop head got a template: again, with it from the start
                if std::mem::take(&mut self.restart) && restarts < 3 {
                    restarts += 1;
                    states = vec![None; n];
                    states[0] = entry.clone();
                    visits = vec![0u32; n];
                    work = BTreeSet::from([0]);
                    continue;
                }
                break;
            };
            if self.expired() {
                return Err(self.give_up(&f.name, None, "time limit or interrupted"));
            }
            let b = rpo[p];
            for (s, edge) in self.block(ctx, f, b, &states[b], &index)?.0 {
                let old = &states[s];
                // A head with a template iterates longer before widening,
                // then scales its polytope by 9/8 (by 2 once that is not
                // enough, and to infinity after that: a divergent loop
                // ends the ascent): its Kleene iterates approach the least
                // fixpoint from below, and no descending iteration could
                // recover an overshoot where a path keeps the values
                // unchanged.
                let template = self.templates.contains_key(&(ctx, s));
                let delay = if template { TEMPLATE_WIDEN_DELAY } else { WIDEN_DELAY };
                let new = if heads.contains(&s) && visits[s] >= delay {
                    let factor = if visits[s] < 2 * TEMPLATE_WIDEN_DELAY {
                        Some((9, 8))
                    } else if visits[s] < 2 * TEMPLATE_WIDEN_DELAY + DOUBLINGS {
                        Some((2, 1))
                    } else {
                        None
                    };
                    widen(
                        old,
                        &edge,
                        &|fmt| self.fthresholds.get(&fmt).cloned().unwrap_or_default(),
                        &self.ithresholds,
                        factor,
                    )
                } else {
                    join(old, &edge)
                };
                if !leq(&new, old) {
                    if std::env::var_os("FPSYM_PROVE_DEBUG").is_some() && heads.contains(&s) {
                        eprintln!("head {s} visit {} restarts {restarts}: {}", visits[s], show_state(&new));
                    }
                    states[s] = new;
                    visits[s] += 1;
                    work.insert(pos[s]);
                }
            }
        }
        let widened = states.clone();
        self.frozen = true;
        // descending iterations: each one applies the transfer function to a
        // post-fixpoint, which gives a smaller post-fixpoint
        // (without a loop, the ascending pass in reverse postorder is
        // already the least fixpoint)
        let passes = if heads.is_empty() { 0 } else { NARROWING_PASSES };
        for _ in 0..passes {
            let mut next: Vec<St> = vec![None; n];
            next[0] = entry.clone();
            for &b in &rpo {
                for (s, edge) in self.block(ctx, f, b, &states[b], &index)?.0 {
                    next[s] = join(&next[s], &edge);
                }
            }
            // keep only what stays inside the previous iterate
            for b in 0..n {
                next[b] = meet(&next[b], &states[b]);
            }
            states = next;
        }
        // The descending iterates of a relational loop are post-fixpoints
        // only up to the last bits of the simplex's certified bounds: the
        // heads' states slightly enlarged, the rest recomputed from them.
        let mut inflated = states.clone();
        for h in &heads {
            if let (Some(st), true) = (&mut inflated[*h], self.templates.contains_key(&(ctx, *h))) {
                inflate(st);
            }
        }
        for &b in &rpo {
            if heads.contains(&b) || b == 0 {
                continue;
            }
            let mut s: St = None;
            for p in self.preds[&f.name][b].clone() {
                for (d, edge) in self.block(ctx, f, p, &inflated[p], &index)?.0 {
                    if d == b {
                        s = join(&s, &edge);
                    }
                }
            }
            inflated[b] = s;
        }
        // the result must be a post-fixpoint: checked, not assumed
        let mut result = None;
        let debug = std::env::var_os("FPSYM_PROVE_DEBUG").is_some();
        for (n, candidate) in [states, inflated, widened].into_iter().enumerate() {
            if debug {
                for h in &heads {
                    eprintln!("candidate {n} head {h}: {}", show_state(&candidate[*h]));
                }
            }
            let checked = self.check(ctx, f, &candidate, &entry, &rpo, &index, recording)?;
            if debug {
                eprintln!("candidate {n}: post-fixpoint {}", checked.is_some());
            }
            if let Some(r) = checked {
                if recording {
                    self.record_heads(ctx, f, &heads, &candidate);
                }
                result = Some(r);
                break;
            }
        }
        self.frozen = frozen;
        self.restart = restart;
        result.ok_or_else(|| self.give_up(&f.name, None, "the loop analysis found no invariant it could check"))
    }

    /// Re-applies the transfer function once; when every block's input
    /// contains what flows into it, returns the exit state and return value.
    #[allow(clippy::too_many_arguments)]
    fn check(
        &mut self,
        ctx: Ctx,
        f: &'p Function,
        states: &[St],
        entry: &St,
        rpo: &[usize],
        index: &HashMap<&Name, usize>,
        recording: bool,
    ) -> Result<Option<(St, Option<Val>)>, GiveUp> {
        let (reached, invariants) = (self.reached.len(), self.invariants.len());
        self.recording = recording;
        let mut flow: Vec<St> = vec![None; states.len()];
        flow[0] = entry.clone();
        let mut exit: St = None;
        let mut ret: Option<Val> = None;
        for &b in rpo {
            let (edges, out) = self.block(ctx, f, b, &states[b], index)?;
            for (s, edge) in edges {
                flow[s] = join(&flow[s], &edge);
            }
            if let Some((st, v)) = out {
                exit = join(&exit, &st);
                ret = match (ret, v) {
                    (Some(a), Some(b)) => Some(a.join(&b)),
                    (a, b) => a.or(b),
                };
            }
        }
        self.recording = false;
        if std::env::var_os("FPSYM_PROVE_DEBUG").is_some() {
            for (b, (fl, st)) in flow.iter().zip(states).enumerate() {
                if let (Some(x), Some(y)) = (fl, st) {
                    for (k, v) in x {
                        if !y.get(k).is_some_and(|w| v.leq(w)) {
                            eprintln!("block {b}: {k:?} = {v:?} not in {:?}", y.get(k));
                        }
                    }
                } else if fl.is_some() {
                    eprintln!("block {b}: reached, not in the state");
                }
            }
        }
        if flow.iter().zip(states).all(|(fl, st)| leq(fl, st)) {
            Ok(Some((exit, ret)))
        } else {
            self.reached.truncate(reached);
            self.invariants.truncate(invariants);
            Ok(None)
        }
    }

    fn record_heads(&mut self, ctx: Ctx, f: &Function, heads: &HashSet<usize>, states: &[St]) {
        let mut hs: Vec<usize> = heads.iter().copied().collect();
        hs.sort();
        for h in hs {
            let Some(st) = &states[h] else { continue };
            let bb = &f.basic_blocks[h];
            let mut vars = Vec::new();
            for i in &bb.instrs {
                if let I::Phi(p) = i {
                    if let Some(v) = st.get(&Key::Local(ctx, p.dest.clone())) {
                        vars.push((c_name(&p.dest), v.clone()));
                    }
                }
            }
            let mut globals: Vec<(String, Val)> = st
                .iter()
                .filter_map(|(k, v)| {
                    if let Key::Global(g) = k {
                        Some((g.clone(), v.clone()))
                    } else {
                        None
                    }
                })
                .collect();
            globals.sort_by(|a, b| a.0.cmp(&b.0));
            vars.extend(globals);
            // the scalars of this call's local objects, by their C names
            // (a caller's are not in scope here: a witness could not state them)
            let mut cells: Vec<(&Key, &Val)> = st
                .iter()
                .filter(|(k, v)| matches!((k, v), (Key::Cell(c, ..), Val::F(_) | Val::I(_)) if *c == ctx))
                .collect();
            cells.sort_by(|a, b| a.0.cmp(b.0));
            vars.extend(cells.into_iter().map(|(k, v)| (self.cell_name(k), v.clone())));
            // the first real line of the head (a phi's location is line 0)
            let loc = bb
                .instrs
                .iter()
                .filter_map(|i| i.get_debug_loc().as_ref())
                .chain(bb.term.get_debug_loc().as_ref())
                .find(|d| d.line > 0)
                .map(Loc::from_debugloc);
            let mut linear = Vec::new();
            if let Some(t) = self.templates.get(&(ctx, h)) {
                let names: Vec<(String, crate::HeadVar)> = t
                    .vars
                    .iter()
                    .map(|k| match k {
                        Key::Local(_, n) => (c_name(n), crate::HeadVar::Local(n.clone())),
                        Key::Global(g) => (g.clone(), crate::HeadVar::Global(g.clone())),
                        // (a caller's scalar, named so that no witness states it)
                        k @ Key::Cell(c, ..) => {
                            let name = if *c == ctx {
                                self.cell_name(k)
                            } else {
                                format!("{} (a caller's)", self.cell_name(k))
                            };
                            (name.clone(), crate::HeadVar::Memory(name))
                        }
                        _ => (String::new(), crate::HeadVar::Global(String::new())),
                    })
                    .collect();
                for (k, d) in t.dirs.iter().enumerate() {
                    if let Some(Val::R(r)) = st.get(&Key::Dir(ctx, h, k)) {
                        if r.lo.is_some() || r.hi.is_some() {
                            let (terms, vars) = names
                                .iter()
                                .cloned()
                                .zip(d.iter().cloned())
                                .filter(|(_, c)| *c != num_rational::BigRational::from_integer(0.into()))
                                .map(|((n, v), c)| ((n, c), v))
                                .unzip();
                            linear.push(crate::LinearBound {
                                terms,
                                vars,
                                range: r.clone(),
                            });
                        }
                    }
                }
            }
            let mut facts: Vec<(crate::HeadVar, Val)> = st
                .iter()
                .filter_map(|(k, v)| match k {
                    Key::Local(c, n) if *c == ctx => Some((crate::HeadVar::Local(n.clone()), v.clone())),
                    Key::Global(g) => Some((crate::HeadVar::Global(g.clone()), v.clone())),
                    _ => None,
                })
                .filter(|(_, v)| matches!(v, Val::F(_) | Val::I(_)))
                .collect();
            facts.sort_by_key(|(k, _)| format!("{k:?}"));
            self.invariants.push(Invariant {
                function: f.name.clone(),
                loc,
                vars,
                linear,
                head: bb.name.clone(),
                facts,
                in_entry: ctx == 0,
            });
        }
    }

    /// Runs block `b` from `input`: the states flowing to each successor
    /// (its phis assigned), and at a `ret`, the state and returned value.
    #[allow(clippy::type_complexity)]
    fn block(
        &mut self,
        ctx: Ctx,
        f: &'p Function,
        b: usize,
        input: &St,
        index: &HashMap<&Name, usize>,
    ) -> Result<(Vec<(usize, St)>, Option<(St, Option<Val>)>), GiveUp> {
        let Some(st0) = input else {
            return Ok((Vec::new(), None));
        };
        let bb = &f.basic_blocks[b];
        // Local trace partitioning: after an integer with a few values that
        // indexes an array later in the block (a table lookup), the block
        // goes on once per value, joined before its terminator.
        let mut first = st0.clone();
        if self.heads.get(&f.name).is_some_and(|h| h.contains(&b)) {
            self.enter_head(ctx, f, b, &mut first);
        }
        let mut sts = vec![first];
        for (k, i) in bb.instrs.iter().enumerate() {
            if matches!(i, I::Phi(_)) {
                continue;
            }
            let mut next = Vec::with_capacity(sts.len());
            for mut st in sts {
                if self.instruction(ctx, f, b, k, i, &mut st)? {
                    next.push(st);
                }
            }
            sts = next;
            let indexes_later = || bb.instrs[k + 1..].iter().any(|j| matches!(j, I::GetElementPtr(_)));
            if let (Some(d), true) = (i.try_get_result(), matches!(i, I::FPToSI(_) | I::FPToUI(_))) {
                let key = Key::Local(ctx, d.clone());
                let small = sts
                    .iter()
                    .all(|s| matches!(s.get(&key), Some(Val::I(r)) if r.hi - r.lo < PARTITION));
                if small && indexes_later() {
                    let src = match i {
                        I::FPToSI(x) => Some(&x.operand),
                        I::FPToUI(x) => Some(&x.operand),
                        _ => None,
                    };
                    let src = src.map(|o| self.opnd(ctx, o));
                    let mut parts = Vec::new();
                    for s in sts {
                        let Some(Val::I(r)) = s.get(&key).cloned() else {
                            parts.push(s);
                            continue;
                        };
                        for v in r.lo..=r.hi {
                            let mut s2 = s.clone();
                            s2.insert(key.clone(), Val::I(IntRange::point(r.bits, v)));
                            // the operand converts to v toward zero
                            let fmt = match src.as_ref().and_then(|o| self.get(&s2, o)) {
                                Some(Val::F(x)) => x.format(),
                                _ => {
                                    parts.push(s2);
                                    continue;
                                }
                            };
                            let at = |n: i128| itv::from_ints(fmt, n, n).lo().expect("an integer converts");
                            let lo = if v > 0 { at(v) } else { at(v - 1).next_up() };
                            let hi = if v < 0 { at(v) } else { at(v + 1).next_down() };
                            let s3 = self.assign(
                                Some(s2),
                                src.as_ref().expect("a source"),
                                Val::F(FloatInterval::new(lo, hi, false)),
                                0,
                            );
                            parts.extend(s3);
                        }
                    }
                    sts = parts;
                }
            }
        }
        let Some(st) = sts.into_iter().map(Some).reduce(|a, b| join(&a, &b)).flatten() else {
            return Ok((Vec::new(), None));
        };
        let loc = bb.term.get_debug_loc().as_ref().map(Loc::from_debugloc);
        let mut edges: Vec<(Name, St)> = Vec::new();
        match &bb.term {
            T::Br(br) => edges.push((br.dest.clone(), Some(st))),
            T::CondBr(c) => {
                edges.push((
                    c.true_dest.clone(),
                    self.refine_cond(ctx, Some(st.clone()), &c.condition, true),
                ));
                edges.push((
                    c.false_dest.clone(),
                    self.refine_cond(ctx, Some(st), &c.condition, false),
                ));
            }
            T::Switch(sw) => {
                let x = self.opnd(ctx, &sw.operand);
                let xv = self.eval(ctx, &st, &sw.operand);
                for (c, dest) in &sw.dests {
                    let cv = const_val(c).ok_or_else(|| self.give_up(&f.name, loc.clone(), "a switch case"))?;
                    let mut s2 = Some(st.clone());
                    if let (Some(Val::I(r)), Val::I(k)) = (&xv, &cv) {
                        s2 = r.meet(k.lo, k.lo).and_then(|nr| set(&x, Val::I(nr), s2));
                    }
                    edges.push((dest.clone(), s2));
                }
                edges.push((sw.default_dest.clone(), Some(st)));
            }
            T::Ret(r) => {
                let v = match &r.return_operand {
                    Some(op) => Some(
                        self.eval(ctx, &st, op)
                            .ok_or_else(|| self.give_up(&f.name, loc.clone(), "the returned value"))?,
                    ),
                    None => None,
                };
                return Ok((Vec::new(), Some((Some(st), v))));
            }
            T::Unreachable(_) => {
                // plain `run`'s finding (the analysis stops a path at a call
                // that does not return, before its `unreachable`)
                if self.checks && self.recording {
                    self.reached.push(Reached {
                        function: "`unreachable`".into(),
                        loc,
                    });
                }
                return Ok((Vec::new(), None));
            }
            other => return Err(self.give_up(&f.name, loc, format!("terminator `{other}`"))),
        }
        let mut out = Vec::new();
        for (dest, s) in edges {
            let Some(mut s) = s else { continue };
            let d = index[&dest];
            // the successor's phis, all read before any is written
            let mut assigned = Vec::new();
            let mut incoming = Vec::new();
            for i in &f.basic_blocks[d].instrs {
                let I::Phi(p) = i else { break };
                let Some((op, _)) = p.incoming_values.iter().find(|(_, from)| *from == bb.name) else {
                    return Err(self.give_up(&f.name, loc.clone(), "a phi without this predecessor"));
                };
                let v = self.eval(ctx, &s, op).ok_or_else(|| {
                    let what = transfer::unknown_operand(op, &format!("phi `{}`", p.dest));
                    self.give_up(&f.name, loc.clone(), what)
                })?;
                if matches!(v, Val::I(IntRange { bits: 1, .. })) {
                    let key = Key::Local(ctx, p.dest.clone());
                    if !self.defs.contains_key(&key) {
                        let def = self.phi_bool(ctx, f, d, p, index);
                        self.defs.insert(key, def);
                    }
                }
                let key = Key::Local(ctx, p.dest.clone());
                let o = self.opnd(ctx, op);
                if let (Opnd::Var(src), false) = (&o, self.heads.get(&f.name).is_some_and(|h| h.contains(&d))) {
                    // a phi elsewhere carries its operand's form
                    if let Some(form) = s.get(&Key::Form(Box::new(src.clone()))).cloned() {
                        assigned.push((Key::Form(Box::new(key.clone())), form));
                    }
                }
                incoming.push((key.clone(), o));
                assigned.push((key, v));
            }
            if self.heads.get(&f.name).is_some_and(|h| h.contains(&d)) {
                // the float globals and local scalars the loop keeps are its
                // variables too
                let mut globals: Vec<Key> = s
                    .iter()
                    .filter(|(k, v)| matches!((k, v), (Key::Global(_) | Key::Cell(..), Val::F(_))))
                    .map(|(k, _)| k.clone())
                    .collect();
                globals.sort();
                incoming.extend(globals.into_iter().map(|g| (g.clone(), Opnd::Var(g))));
            }
            if self.heads.get(&f.name).is_some_and(|h| h.contains(&d)) {
                let dirs = self.head_edge(ctx, f, d, &s, &incoming);
                assigned.extend(dirs);
            }
            // (a form a phi had in an earlier iteration is stale)
            for (k, _) in &incoming {
                if matches!(k, Key::Local(..)) {
                    s.remove(&Key::Form(Box::new(k.clone())));
                }
            }
            for (k, v) in assigned {
                s.insert(k, v);
            }
            out.push((d, Some(s)));
        }
        Ok((out, None))
    }

    fn opnd(&self, ctx: Ctx, op: &Operand) -> Opnd {
        match op {
            Operand::LocalOperand { name, .. } => Opnd::Var(Key::Local(ctx, name.clone())),
            Operand::ConstantOperand(c) => Opnd::Const(const_val(c).unwrap_or(Val::Top)),
            Operand::MetadataOperand => Opnd::Const(Val::Top),
        }
    }

    fn eval(&self, ctx: Ctx, st: &HashMap<Key, Val>, op: &Operand) -> Option<Val> {
        match op {
            Operand::LocalOperand { name, .. } => st.get(&Key::Local(ctx, name.clone())).cloned(),
            Operand::ConstantOperand(c) => const_val(c),
            Operand::MetadataOperand => Some(Val::Top),
        }
    }
}

fn zero_of(t: &Type) -> Option<Val> {
    match t {
        Type::IntegerType { bits } if *bits <= 64 => Some(Val::I(IntRange::point(*bits, 0))),
        t => fmt_of(t).map(|f| Val::F(FloatInterval::point(Float::zero(f, false)))),
    }
}

fn int_of(t: &Type) -> Option<u32> {
    match t {
        Type::IntegerType { bits } if *bits <= 64 => Some(*bits),
        _ => None,
    }
}

fn global_of(op: &Operand) -> Option<String> {
    match op {
        Operand::ConstantOperand(c) => match c.as_ref() {
            Constant::GlobalReference { name, .. } => Some(name_str(name)),
            _ => None,
        },
        _ => None,
    }
}

fn terminator_operands(t: &T) -> Vec<&Operand> {
    match t {
        T::Ret(r) => r.return_operand.iter().collect(),
        T::CondBr(c) => vec![&c.condition],
        T::Switch(s) => vec![&s.operand],
        _ => Vec::new(),
    }
}

fn successors(t: &T) -> Vec<Name> {
    match t {
        T::Br(b) => vec![b.dest.clone()],
        T::CondBr(c) => vec![c.true_dest.clone(), c.false_dest.clone()],
        T::Switch(s) => s
            .dests
            .iter()
            .map(|(_, d)| d.clone())
            .chain([s.default_dest.clone()])
            .collect(),
        _ => Vec::new(),
    }
}

/// Reverse post-order from block 0, and the targets of back edges.
fn order(succs: &[Vec<usize>]) -> (Vec<usize>, HashSet<usize>) {
    let n = succs.len();
    let mut post = Vec::with_capacity(n);
    let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
    let mut heads = HashSet::new();
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    state[0] = 1;
    while let Some((b, k)) = stack.pop() {
        if k < succs[b].len() {
            stack.push((b, k + 1));
            let s = succs[b][k];
            match state[s] {
                0 => {
                    state[s] = 1;
                    stack.push((s, 0));
                }
                1 => {
                    heads.insert(s);
                }
                _ => {}
            }
        } else {
            state[b] = 2;
            post.push(b);
        }
    }
    post.reverse();
    (post, heads)
}

/// The C name of an IR value (`x.0` is a phi of `x`).
fn c_name(n: &Name) -> String {
    let s = name_str(n);
    match s.split_once('.') {
        Some((base, _)) if !base.is_empty() => base.to_string(),
        _ => s,
    }
}

/// Whether a key is a claim (a linear form, a template range, a head
/// value): a claim absent from a state is no claim there, so a join keeps
/// a claim only when both sides make it. (An IR value absent from a state
/// is one not defined on that path, which no later use reads.)
fn is_claim(k: &Key) -> bool {
    matches!(k, Key::Form(_) | Key::Dir(..) | Key::Head(..) | Key::Same(..))
}

/// A state for `FPSYM_PROVE_DEBUG`: its values and ranges, sorted (forms
/// left out).
fn show_state(st: &St) -> String {
    let mut v: Vec<String> = st
        .iter()
        .flatten()
        .filter(|(k, _)| !matches!(k, Key::Form(_)))
        .map(|(k, v)| format!("{k:?}={v}"))
        .collect();
    v.sort();
    v.join(" ")
}

fn join(a: &St, b: &St) -> St {
    match (a, b) {
        (None, x) | (x, None) => x.clone(),
        (Some(x), Some(y)) => {
            let mut out = x.clone();
            out.retain(|k, _| !is_claim(k) || y.contains_key(k));
            for (k, v) in y {
                let nv = match x.get(k) {
                    Some(old) => old.join(v),
                    None if is_claim(k) => continue,
                    None => v.clone(),
                };
                out.insert(k.clone(), nv);
            }
            Some(out)
        }
    }
}

fn meet(a: &St, b: &St) -> St {
    let (x, y) = (a.as_ref()?, b.as_ref()?);
    let mut out = x.clone();
    for (k, v) in out.iter_mut() {
        if let Some(w) = y.get(k) {
            let m = match (&*v, w) {
                (Val::F(p), Val::F(q)) => Val::F(p.intersect(q)),
                (Val::I(p), Val::I(q)) => match p.meet(q.lo, q.hi) {
                    Some(r) => Val::I(r),
                    None => return None,
                },
                (Val::R(p), Val::R(q)) => match p.meet(q) {
                    Some(r) => Val::R(r),
                    None => return None,
                },
                (p, _) => p.clone(),
            };
            if let Val::F(f) = &m {
                if f.is_empty() {
                    return None;
                }
            }
            *v = m;
        }
    }
    Some(out)
}

/// The widening of a loop head's state: intervals jump to thresholds, a
/// template's polytope is scaled by `factor` about the origin where it
/// grows (None: its growing bounds are dropped).
fn widen(a: &St, b: &St, fthr: &dyn Fn(Format) -> Vec<Float>, ithr: &[i128], factor: Option<(i64, i64)>) -> St {
    match (a, b) {
        (None, x) | (x, None) => x.clone(),
        (Some(x), Some(y)) => {
            let mut out = x.clone();
            // a template's directions grow together: when one grows, the
            // whole polytope is scaled by 2 about the origin (independent
            // jumps would break the shape that makes it inductive)
            let mut grown: HashSet<(Ctx, usize)> = HashSet::new();
            out.retain(|k, _| !is_claim(k) || y.contains_key(k));
            for (k, v) in y {
                let nv = match (k, x.get(k)) {
                    (Key::Dir(c, h, _), Some(old)) => {
                        let j = old.join(v);
                        if !j.leq(old) {
                            grown.insert((*c, *h));
                        }
                        j
                    }
                    (_, Some(old)) => old.widen(&old.join(v), fthr, ithr),
                    (k, None) if is_claim(k) => continue,
                    (_, None) => v.clone(),
                };
                out.insert(k.clone(), nv);
            }
            let factor = factor.map(|f| num_rational::BigRational::new(f.0.into(), f.1.into()));
            let huge = num_rational::BigRational::from_integer(num_bigint::BigInt::from(1) << 1100usize);
            // a bound on the growing side (`up`: a positive upper bound, or
            // a negative lower one) scaled and rounded outward, or dropped
            // (no factor, or beyond every float)
            let grow = |q: num_rational::BigRational, up: bool| -> Option<num_rational::BigRational> {
                use num_traits::{Signed, Zero};
                if q.is_positive() != up || q.is_zero() {
                    return Some(q);
                }
                let s = q * factor.as_ref()?;
                (s.abs() < huge).then(|| relational::round_outward(&s, &s, up))
            };
            for (k, v) in out.iter_mut() {
                if let (Key::Dir(c, h, _), Val::R(r)) = (k, &mut *v) {
                    if grown.contains(&(*c, *h)) {
                        r.hi = r.hi.take().and_then(|q| grow(q, true));
                        r.lo = r.lo.take().and_then(|q| grow(q, false));
                    }
                }
            }
            Some(out)
        }
    }
}

/// Enlarges a loop head's state a little: each template range by 2^-20 of
/// its size (and 2^-60), each float interval by two ulps at each end.
fn inflate(st: &mut HashMap<Key, Val>) {
    let rel = num_rational::BigRational::new(1.into(), num_bigint::BigInt::from(1) << 20usize);
    let abs = num_rational::BigRational::new(1.into(), num_bigint::BigInt::from(1) << 60usize);
    for (k, v) in st.iter_mut() {
        match v {
            Val::R(r) => {
                let width = match (&r.lo, &r.hi) {
                    (Some(l), Some(h)) => (h - l) * &rel + &abs,
                    _ => continue,
                };
                r.lo = r.lo.take().map(|l| l - &width);
                r.hi = r.hi.take().map(|h| h + &width);
            }
            Val::F(x) if matches!(k, Key::Local(..)) => {
                if let Some((l, h)) = x.bounds() {
                    let (l, h) = (l.next_down().next_down(), h.next_up().next_up());
                    *x = FloatInterval::new(l, h, x.may_be_nan());
                }
            }
            _ => {}
        }
    }
}

fn leq(a: &St, b: &St) -> bool {
    match (a, b) {
        (None, _) => true,
        (Some(_), None) => false,
        // (a claim `b` makes must hold in `a`)
        (Some(x), Some(y)) => {
            x.iter().all(|(k, v)| match y.get(k) {
                Some(w) => v.leq(w),
                None => is_claim(k),
            }) && y.keys().all(|k| !is_claim(k) || x.contains_key(k))
        }
    }
}

fn set(o: &Opnd, v: Val, st: St) -> St {
    let mut st = st?;
    if let Opnd::Var(k) = o {
        st.insert(k.clone(), v);
    }
    Some(st)
}
