//! The abstract interpreter: a worklist fixpoint over each function's
//! control-flow graph, calls analysed inline in their caller's state.

use crate::itv::{self, Rel};
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

/// A call context: which inlined call of a function (0 is the entry).
type Ctx = u32;

/// An IR value or a tracked global variable.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Key {
    Local(Ctx, Name),
    Global(String),
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
    deadline: Option<Instant>,
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
    fthresholds: HashMap<Format, Vec<Float>>,
    ithresholds: Vec<i128>,
    /// Per function, each block's predecessors (by index).
    preds: HashMap<String, Vec<Vec<usize>>>,
}

/// Visits of a loop head before its state is widened.
const WIDEN_DELAY: u32 = 3;
/// Descending passes after the widened fixpoint.
const NARROWING_PASSES: usize = 3;
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
    pub(crate) fn new(prog: &'p Program, targets: &'p [String], deadline: Option<Instant>) -> Analyzer<'p> {
        let mut a = Analyzer {
            prog,
            module: &prog.module,
            targets,
            deadline,
            defs: HashMap::new(),
            contexts: HashMap::new(),
            stack: Vec::new(),
            recording: false,
            reached: Vec::new(),
            invariants: Vec::new(),
            tracked: HashMap::new(),
            arrays: HashMap::new(),
            fthresholds: HashMap::new(),
            ithresholds: Vec::new(),
            preds: HashMap::new(),
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
        for f in &self.module.functions {
            for bb in &f.basic_blocks {
                for i in &bb.instrs {
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
            let v = top_of(&p.ty)
                .ok_or_else(|| self.give_up(entry, None, format!("parameter `{}` of type {}", p.name, p.ty)))?;
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
        let mut states: Vec<St> = vec![None; n];
        states[0] = entry.clone();
        let mut visits = vec![0u32; n];
        let mut work: BTreeSet<usize> = BTreeSet::from([0]);
        // ascending iterations, widened at loop heads
        while let Some(p) = work.pop_first() {
            if self.expired() {
                return Err(self.give_up(&f.name, None, "time limit"));
            }
            let b = rpo[p];
            for (s, edge) in self.block(ctx, f, b, &states[b], &index)?.0 {
                let old = &states[s];
                let new = if heads.contains(&s) && visits[s] >= WIDEN_DELAY {
                    widen(
                        old,
                        &edge,
                        &|fmt| self.fthresholds.get(&fmt).cloned().unwrap_or_default(),
                        &self.ithresholds,
                    )
                } else {
                    join(old, &edge)
                };
                if !leq(&new, old) {
                    states[s] = new;
                    visits[s] += 1;
                    work.insert(pos[s]);
                }
            }
        }
        let widened = states.clone();
        // descending iterations: each one applies the transfer function to a
        // post-fixpoint, which gives a smaller post-fixpoint
        for _ in 0..NARROWING_PASSES {
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
        // the result must be a post-fixpoint: checked, not assumed
        let mut result = None;
        for candidate in [states, widened] {
            if let Some(r) = self.check(ctx, f, &candidate, &entry, &rpo, &index, recording)? {
                if recording {
                    self.record_heads(ctx, f, &heads, &candidate);
                }
                result = Some(r);
                break;
            }
        }
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
            // the first real line of the head (a phi's location is line 0)
            let loc = bb
                .instrs
                .iter()
                .filter_map(|i| i.get_debug_loc().as_ref())
                .chain(bb.term.get_debug_loc().as_ref())
                .find(|d| d.line > 0)
                .map(Loc::from_debugloc);
            self.invariants.push(Invariant {
                function: f.name.clone(),
                loc,
                vars,
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
        let mut sts = vec![st0.clone()];
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
            T::Unreachable(_) => {}
            other => return Err(self.give_up(&f.name, loc, format!("terminator `{other}`"))),
        }
        let mut out = Vec::new();
        for (dest, s) in edges {
            let Some(mut s) = s else { continue };
            let d = index[&dest];
            // the successor's phis, all read before any is written
            let mut assigned = Vec::new();
            for i in &f.basic_blocks[d].instrs {
                let I::Phi(p) = i else { break };
                let Some((op, _)) = p.incoming_values.iter().find(|(_, from)| *from == bb.name) else {
                    return Err(self.give_up(&f.name, loc.clone(), "a phi without this predecessor"));
                };
                let v = self
                    .eval(ctx, &s, op)
                    .ok_or_else(|| self.give_up(&f.name, loc.clone(), format!("phi `{}`", p.dest)))?;
                if matches!(v, Val::I(IntRange { bits: 1, .. })) {
                    let key = Key::Local(ctx, p.dest.clone());
                    if !self.defs.contains_key(&key) {
                        let def = self.phi_bool(ctx, f, d, p, index);
                        self.defs.insert(key, def);
                    }
                }
                assigned.push((Key::Local(ctx, p.dest.clone()), v));
            }
            for (k, v) in assigned {
                s.insert(k, v);
            }
            out.push((d, Some(s)));
        }
        Ok((out, None))
    }

    /// The definition of an `i1` phi of block `d`: for each incoming edge,
    /// its value and the branch conditions that held on the way, walking up
    /// through blocks with one predecessor.
    fn phi_bool(
        &self,
        ctx: Ctx,
        f: &Function,
        d: usize,
        p: &llvm_ir::instruction::Phi,
        index: &HashMap<&Name, usize>,
    ) -> Def {
        let preds = &self.preds[&f.name];
        let edge = |from: usize, to: usize| -> Option<(Opnd, bool)> {
            match &f.basic_blocks[from].term {
                T::CondBr(c) if c.true_dest != c.false_dest => {
                    let to_name = &f.basic_blocks[to].name;
                    Some((self.opnd(ctx, &c.condition), c.true_dest == *to_name))
                }
                _ => None,
            }
        };
        let mut entries = Vec::new();
        for (op, from) in &p.incoming_values {
            let from = index[from];
            let mut guards: Vec<(Opnd, bool)> = edge(from, d).into_iter().collect();
            let (mut cur, mut steps) = (from, 0);
            while preds[cur].len() == 1 && steps < 16 {
                let q = preds[cur][0];
                if q == cur {
                    break;
                }
                guards.extend(edge(q, cur));
                cur = q;
                steps += 1;
            }
            entries.push((self.opnd(ctx, op), guards));
        }
        Def::PhiBool(entries)
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

    /// Executes one instruction; false when the path ends (abort, exit, an
    /// error call, an assumption that cannot hold).
    fn instruction(
        &mut self,
        ctx: Ctx,
        f: &'p Function,
        b: usize,
        k: usize,
        i: &'p I,
        st: &mut HashMap<Key, Val>,
    ) -> Result<bool, GiveUp> {
        let loc = i.get_debug_loc().as_ref().map(Loc::from_debugloc);
        let fname = &f.name;
        let unsupported = |a: &Self, what: String| a.give_up(fname, loc.clone(), what);
        macro_rules! ev {
            ($op:expr) => {
                match self.eval(ctx, st, $op) {
                    Some(v) => v,
                    None => return Err(unsupported(self, format!("an operand of `{i}`"))),
                }
            };
        }
        let dest = |n: &Name| Key::Local(ctx, n.clone());
        let fbin = |a: &Val, b: &Val, op: fn(&FloatInterval, &FloatInterval) -> FloatInterval| match (a, b) {
            (Val::F(x), Val::F(y)) => Some(Val::F(op(x, y))),
            _ => None,
        };
        let result: Option<(Key, Val)> = match i {
            I::FAdd(x) => fbin(&ev!(&x.operand0), &ev!(&x.operand1), itv::add).map(|v| (dest(&x.dest), v)),
            I::FSub(x) => fbin(&ev!(&x.operand0), &ev!(&x.operand1), itv::sub).map(|v| (dest(&x.dest), v)),
            I::FMul(x) => fbin(&ev!(&x.operand0), &ev!(&x.operand1), itv::mul).map(|v| (dest(&x.dest), v)),
            I::FDiv(x) => fbin(&ev!(&x.operand0), &ev!(&x.operand1), itv::div).map(|v| (dest(&x.dest), v)),
            I::FRem(x) => ev!(&x.operand0)
                .as_f()
                .map(|a| (dest(&x.dest), Val::F(FloatInterval::full(a.format())))),
            I::FNeg(x) => ev!(&x.operand).as_f().map(|a| (dest(&x.dest), Val::F(itv::neg(a)))),
            I::FPExt(x) => {
                let to = fmt_of(&x.to_type).ok_or_else(|| unsupported(self, format!("`{i}`")))?;
                self.defs.insert(dest(&x.dest), Def::FExt(self.opnd(ctx, &x.operand)));
                ev!(&x.operand)
                    .as_f()
                    .map(|a| (dest(&x.dest), Val::F(itv::convert(a, to))))
            }
            I::FPTrunc(x) => {
                let to = fmt_of(&x.to_type).ok_or_else(|| unsupported(self, format!("`{i}`")))?;
                ev!(&x.operand)
                    .as_f()
                    .map(|a| (dest(&x.dest), Val::F(itv::convert(a, to))))
            }
            I::SIToFP(x) => {
                let to = fmt_of(&x.to_type).ok_or_else(|| unsupported(self, format!("`{i}`")))?;
                ev!(&x.operand).as_i().map(|r| {
                    let (lo, hi) = if r.bits == 1 { (-r.hi, -r.lo) } else { (r.lo, r.hi) };
                    (dest(&x.dest), Val::F(itv::from_ints(to, lo, hi)))
                })
            }
            I::UIToFP(x) => {
                let to = fmt_of(&x.to_type).ok_or_else(|| unsupported(self, format!("`{i}`")))?;
                ev!(&x.operand).as_i().map(|r| {
                    let (lo, hi) = if r.lo >= 0 {
                        (r.lo, r.hi)
                    } else {
                        (0, (1i128 << r.bits) - 1)
                    };
                    (dest(&x.dest), Val::F(itv::from_ints(to, lo, hi)))
                })
            }
            I::FPToSI(x) => int_of(&x.to_type)
                .map(|bits| {
                    let r = ev!(&x.operand).as_f().and_then(|a| itv::to_ints(a, bits, true));
                    Ok((
                        dest(&x.dest),
                        Val::I(
                            r.map(|(l, h)| IntRange::fitted(bits, l, h))
                                .unwrap_or(IntRange::full(bits)),
                        ),
                    ))
                })
                .transpose()?,
            I::FPToUI(x) => int_of(&x.to_type)
                .map(|bits| {
                    let r = ev!(&x.operand).as_f().and_then(|a| itv::to_ints(a, bits, false));
                    Ok((
                        dest(&x.dest),
                        Val::I(
                            r.map(|(l, h)| IntRange::fitted(bits, l, h))
                                .unwrap_or(IntRange::full(bits)),
                        ),
                    ))
                })
                .transpose()?,
            I::FCmp(x) => {
                self.defs.insert(
                    dest(&x.dest),
                    Def::FCmp(x.predicate, self.opnd(ctx, &x.operand0), self.opnd(ctx, &x.operand1)),
                );
                match (ev!(&x.operand0), ev!(&x.operand1)) {
                    (Val::F(a), Val::F(b)) => {
                        let (t, fl) = fcmp_outcomes(x.predicate, &a, &b);
                        Some((dest(&x.dest), bool_range(t, fl)))
                    }
                    _ => None,
                }
            }
            I::ICmp(x) => {
                self.defs.insert(
                    dest(&x.dest),
                    Def::ICmp(x.predicate, self.opnd(ctx, &x.operand0), self.opnd(ctx, &x.operand1)),
                );
                match (ev!(&x.operand0), ev!(&x.operand1)) {
                    (Val::I(a), Val::I(b)) => {
                        let t = icmp_refine(x.predicate, &a, &b).is_some();
                        let fl = icmp_refine(negate_ipred(x.predicate), &a, &b).is_some();
                        Some((dest(&x.dest), bool_range(t, fl)))
                    }
                    _ => Some((dest(&x.dest), Val::I(IntRange::full(1)))),
                }
            }
            I::Add(x) => int_arith(&ev!(&x.operand0), &ev!(&x.operand1), |a, b| {
                Some((a.lo + b.lo, a.hi + b.hi))
            })
            .map(|v| (dest(&x.dest), v)),
            I::Sub(x) => int_arith(&ev!(&x.operand0), &ev!(&x.operand1), |a, b| {
                Some((a.lo - b.hi, a.hi - b.lo))
            })
            .map(|v| (dest(&x.dest), v)),
            I::Mul(x) => int_arith(&ev!(&x.operand0), &ev!(&x.operand1), |a, b| {
                let c = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi];
                Some((*c.iter().min()?, *c.iter().max()?))
            })
            .map(|v| (dest(&x.dest), v)),
            I::SDiv(x) => int_arith(&ev!(&x.operand0), &ev!(&x.operand1), |a, b| {
                let k = b.as_point().filter(|k| *k > 0)?;
                Some((a.lo.div_euclid(k).min(a.lo / k), a.hi / k))
            })
            .map(|v| (dest(&x.dest), v)),
            I::SRem(x) => int_arith(&ev!(&x.operand0), &ev!(&x.operand1), |a, b| {
                let k = b.as_point().filter(|k| *k > 0)?;
                Some(if a.lo >= 0 {
                    (0, a.hi.min(k - 1))
                } else {
                    (-(k - 1), k - 1)
                })
            })
            .map(|v| (dest(&x.dest), v)),
            I::And(x) => {
                let (a, b2) = (ev!(&x.operand0), ev!(&x.operand1));
                if let (Val::I(r), _) = (&a, &b2) {
                    if r.bits == 1 {
                        self.defs.insert(
                            dest(&x.dest),
                            Def::And(self.opnd(ctx, &x.operand0), self.opnd(ctx, &x.operand1)),
                        );
                    }
                }
                int_arith(&a, &b2, |a, b| {
                    let m = [a, b].into_iter().filter(|r| r.lo >= 0).map(|r| r.hi).min()?;
                    Some((0, m))
                })
                .map(|v| (dest(&x.dest), v))
            }
            I::Or(x) => {
                let (a, b2) = (ev!(&x.operand0), ev!(&x.operand1));
                if a.as_i().is_some_and(|r| r.bits == 1) {
                    self.defs.insert(
                        dest(&x.dest),
                        Def::Or(self.opnd(ctx, &x.operand0), self.opnd(ctx, &x.operand1)),
                    );
                    int_arith(&a, &b2, |a, b| Some((a.lo.max(b.lo), a.hi.max(b.hi)))).map(|v| (dest(&x.dest), v))
                } else {
                    int_arith(&a, &b2, |_, _| None).map(|v| (dest(&x.dest), v))
                }
            }
            I::Xor(x) => {
                let (a, b2) = (ev!(&x.operand0), ev!(&x.operand1));
                match (&a, &b2) {
                    (Val::I(r), Val::I(c)) if r.bits == 1 && c.as_point() == Some(1) => {
                        self.defs.insert(dest(&x.dest), Def::Not(self.opnd(ctx, &x.operand0)));
                        Some((
                            dest(&x.dest),
                            Val::I(IntRange {
                                bits: 1,
                                lo: 1 - r.hi,
                                hi: 1 - r.lo,
                            }),
                        ))
                    }
                    _ => int_arith(&a, &b2, |_, _| None).map(|v| (dest(&x.dest), v)),
                }
            }
            I::Shl(x) => int_arith(&ev!(&x.operand0), &ev!(&x.operand1), |a, b| {
                let k = b.as_point().filter(|k| (0..63).contains(k))?;
                Some((a.lo.checked_mul(1 << k)?, a.hi.checked_mul(1 << k)?))
            })
            .map(|v| (dest(&x.dest), v)),
            I::LShr(x) => int_arith(&ev!(&x.operand0), &ev!(&x.operand1), |a, b| {
                let k = b.as_point().filter(|k| (0..63).contains(k))?;
                (a.lo >= 0).then_some((a.lo >> k, a.hi >> k))
            })
            .map(|v| (dest(&x.dest), v)),
            I::AShr(x) => int_arith(&ev!(&x.operand0), &ev!(&x.operand1), |a, b| {
                let k = b.as_point().filter(|k| (0..63).contains(k))?;
                Some((a.lo >> k, a.hi >> k))
            })
            .map(|v| (dest(&x.dest), v)),
            I::UDiv(x) => int_arith(&ev!(&x.operand0), &ev!(&x.operand1), |a, b| {
                let k = b.as_point().filter(|k| *k > 0)?;
                (a.lo >= 0).then_some((a.lo / k, a.hi / k))
            })
            .map(|v| (dest(&x.dest), v)),
            I::URem(x) => int_arith(&ev!(&x.operand0), &ev!(&x.operand1), |a, b| {
                let k = b.as_point().filter(|k| *k > 0)?;
                (a.lo >= 0).then_some((0, a.hi.min(k - 1)))
            })
            .map(|v| (dest(&x.dest), v)),
            I::ZExt(x) => {
                let bits = int_of(&x.to_type).ok_or_else(|| unsupported(self, format!("`{i}`")))?;
                let a = ev!(&x.operand);
                let r = a.as_i().ok_or_else(|| unsupported(self, format!("`{i}`")))?;
                if r.bits == 1 {
                    self.defs.insert(dest(&x.dest), Def::Alias(self.opnd(ctx, &x.operand)));
                }
                let v = if r.lo >= 0 {
                    IntRange::fitted(bits, r.lo, r.hi)
                } else {
                    IntRange::fitted(bits, 0, (1i128 << r.bits) - 1)
                };
                Some((dest(&x.dest), Val::I(v)))
            }
            I::SExt(x) => {
                let bits = int_of(&x.to_type).ok_or_else(|| unsupported(self, format!("`{i}`")))?;
                let r = *ev!(&x.operand)
                    .as_i()
                    .ok_or_else(|| unsupported(self, format!("`{i}`")))?;
                let (lo, hi) = if r.bits == 1 { (-r.hi, -r.lo) } else { (r.lo, r.hi) };
                Some((dest(&x.dest), Val::I(IntRange::fitted(bits, lo, hi))))
            }
            I::Trunc(x) => {
                let bits = int_of(&x.to_type).ok_or_else(|| unsupported(self, format!("`{i}`")))?;
                let r = *ev!(&x.operand)
                    .as_i()
                    .ok_or_else(|| unsupported(self, format!("`{i}`")))?;
                let v = if bits == 1 {
                    match r.as_point() {
                        Some(p) => IntRange::point(1, p & 1),
                        None => IntRange::full(1),
                    }
                } else {
                    IntRange::fitted(bits, r.lo, r.hi)
                };
                Some((dest(&x.dest), Val::I(v)))
            }
            I::Select(x) => {
                let c = ev!(&x.condition);
                let (t, e) = (ev!(&x.true_value), ev!(&x.false_value));
                let v = match c.as_i().and_then(|r| r.as_point()) {
                    Some(1) => t,
                    Some(_) => e,
                    None => t.join(&e),
                };
                Some((dest(&x.dest), v))
            }
            I::Freeze(x) => {
                let v = ev!(&x.operand);
                self.defs.insert(dest(&x.dest), Def::Alias(self.opnd(ctx, &x.operand)));
                Some((dest(&x.dest), v))
            }
            I::Load(x) => {
                let addr = ev!(&x.address);
                let ty = self.module.type_of(i);
                let v = match &addr {
                    Val::Ptr { global, idx: None } if self.tracked.contains_key(global) => {
                        st.get(&Key::Global(global.clone())).cloned()
                    }
                    Val::Ptr {
                        global,
                        idx: Some((l, h)),
                    } => self.arrays.get(global).and_then(|els| {
                        if *l < 0 || *h >= els.len() as i128 {
                            return None;
                        }
                        els[*l as usize..=*h as usize].iter().cloned().reduce(|a, b| a.join(&b))
                    }),
                    _ => None,
                };
                match v {
                    Some(v) if top_of(&ty).is_some_and(|t| same_kind(&t, &v)) => Some((dest(&x.dest), v)),
                    _ => {
                        return Err(unsupported(
                            self,
                            format!("a load from `{}` the analysis does not follow", x.address),
                        ))
                    }
                }
            }
            I::Store(x) => {
                let addr = ev!(&x.address);
                let v = ev!(&x.value);
                match &addr {
                    Val::Ptr { global, idx: None } if self.tracked.contains_key(global) => {
                        st.insert(Key::Global(global.clone()), v);
                        None
                    }
                    _ => {
                        return Err(unsupported(
                            self,
                            format!("a store to `{}` the analysis does not follow", x.address),
                        ))
                    }
                }
            }
            I::GetElementPtr(x) => {
                let addr = ev!(&x.address);
                match (&addr, x.indices.as_slice()) {
                    (Val::Ptr { global, idx: None }, [first, second]) if self.arrays.contains_key(global) => {
                        let z = ev!(first);
                        let e = ev!(second);
                        match (z.as_i().and_then(|r| r.as_point()), e.as_i()) {
                            (Some(0), Some(r)) => Some((
                                dest(&x.dest),
                                Val::Ptr {
                                    global: global.clone(),
                                    idx: Some((r.lo, r.hi)),
                                },
                            )),
                            _ => return Err(unsupported(self, format!("`{i}`"))),
                        }
                    }
                    _ => return Err(unsupported(self, format!("`{i}`"))),
                }
            }
            I::Call(c) => return self.call(ctx, f, b, k, c, st, loc),
            I::Alloca(x) => {
                // allocas mem2reg leaves: arrays, structs, variables whose address is taken
                let var = self
                    .prog
                    .local_variable(fname, &name_str(&x.dest))
                    .map_or(name_str(&x.dest), |v| v.name);
                let loc = loc.or_else(|| first_use(f, &x.dest));
                return Err(self.give_up(
                    fname,
                    loc,
                    format!("`{var}`: an alloca (a local array or struct, or a variable whose address is taken)"),
                ));
            }
            other => return Err(unsupported(self, format!("`{other}`"))),
        };
        if let Some((key, v)) = result {
            st.insert(key, v);
        } else if let Some(d) = i.try_get_result() {
            // an operand of a kind the operation does not take
            return Err(unsupported(self, format!("`{i}` (operand kinds) -> {d}")));
        }
        Ok(true)
    }

    #[allow(clippy::too_many_arguments)]
    fn call(
        &mut self,
        ctx: Ctx,
        f: &'p Function,
        b: usize,
        k: usize,
        c: &'p llvm_ir::instruction::Call,
        st: &mut HashMap<Key, Val>,
        loc: Option<Loc>,
    ) -> Result<bool, GiveUp> {
        let Some(name) = callee_name(c) else {
            return Err(self.give_up(&f.name, loc, "an indirect call or inline assembly"));
        };
        let ret_ty = c.dest.as_ref().map(|_| self.module.type_of(c));
        let set_ret = |st: &mut HashMap<Key, Val>, v: Val| {
            if let Some(d) = &c.dest {
                st.insert(Key::Local(ctx, d.clone()), v);
            }
        };
        if self.targets.iter().any(|t| *t == name) {
            if self.recording {
                self.reached.push(Reached { function: name, loc });
            }
            return Ok(false);
        }
        if name.starts_with("llvm.dbg.") || name.starts_with("llvm.lifetime.") {
            return Ok(true);
        }
        let arg = |k: usize| c.arguments.get(k).map(|a| &a.0);
        match name.as_str() {
            "abort" | "exit" | "_exit" | "__assert_fail" | "__VERIFIER_error" => return Ok(false),
            "__VERIFIER_assume" => {
                let Some(a) = arg(0) else { return Ok(false) };
                return Ok(match self.refine_cond(ctx, Some(st.clone()), a, true) {
                    Some(s) => {
                        *st = s;
                        true
                    }
                    None => false,
                });
            }
            "sqrt" | "sqrtf" | "llvm.sqrt.f64" | "llvm.sqrt.f32" | "fabs" | "fabsf" | "llvm.fabs.f64"
            | "llvm.fabs.f32" => {
                let a = arg(0).and_then(|a| self.eval(ctx, st, a));
                let Some(Val::F(x)) = a else {
                    return Err(self.give_up(&f.name, loc, format!("a call of `{name}`")));
                };
                set_ret(
                    st,
                    Val::F(if name.contains("sqrt") {
                        itv::sqrt(&x)
                    } else {
                        itv::abs(&x)
                    }),
                );
                return Ok(true);
            }
            "printf" | "puts" | "putchar" => {
                if let Some(t) = &ret_ty {
                    set_ret(st, top_of(t).unwrap_or(Val::Top));
                }
                return Ok(true);
            }
            _ => {}
        }
        let base = name.trim_end_matches('f');
        if name.starts_with("__VERIFIER_nondet_") || PURE_LIBM.contains(&name.as_str()) || PURE_LIBM.contains(&base) {
            if let Some(t) = &ret_ty {
                let v =
                    top_of(t).ok_or_else(|| self.give_up(&f.name, loc.clone(), format!("`{name}` returning {t}")))?;
                set_ret(st, v);
            }
            return Ok(true);
        }
        let Some(callee) = self.prog.function(&name) else {
            return Err(self.give_up(&f.name, loc, format!("a call of `{name}`, which has no body here")));
        };
        let cctx = self.context(ctx, &f.name, b, k);
        let mut entry = st.clone();
        for (p, (a, _)) in callee.parameters.iter().zip(&c.arguments) {
            let v = self
                .eval(ctx, st, a)
                .ok_or_else(|| self.give_up(&f.name, loc.clone(), format!("an argument of `{name}`")))?;
            let key = Key::Local(cctx, p.name.clone());
            self.defs.insert(key.clone(), Def::Alias(self.opnd(ctx, a)));
            entry.insert(key, v);
        }
        let (after, ret) = self.function(cctx, callee, Some(entry))?;
        let Some(mut after) = after else { return Ok(false) };
        after.retain(|k, _| !matches!(k, Key::Local(c2, _) if *c2 == cctx));
        *st = after;
        if let Some(t) = &ret_ty {
            let v = ret.or_else(|| top_of(t)).unwrap_or(Val::Top);
            set_ret(st, v);
        }
        Ok(true)
    }

    /// The state where `cond` has the value `truth` (None when it cannot),
    /// with the operands of the comparison behind it narrowed.
    fn refine_cond(&self, ctx: Ctx, st: St, cond: &Operand, truth: bool) -> St {
        let o = self.opnd(ctx, cond);
        self.refine_opnd(st, &o, truth, 0)
    }

    fn refine_opnd(&self, st: St, o: &Opnd, truth: bool, depth: usize) -> St {
        let st = st?;
        let t = truth as i128;
        let key = match o {
            Opnd::Const(Val::I(r)) => return (r.lo <= t && t <= r.hi).then_some(st),
            Opnd::Const(_) => return Some(st),
            Opnd::Var(k) => k.clone(),
        };
        let cur = st.get(&key).cloned();
        let mut st = match cur {
            Some(Val::I(r)) if r.bits == 1 => {
                let nr = r.meet(t, t)?;
                let mut s = st;
                s.insert(key.clone(), Val::I(nr));
                s
            }
            _ => st,
        };
        if depth > 16 {
            return Some(st);
        }
        match self.defs.get(&key) {
            Some(Def::Alias(a)) => self.refine_opnd(Some(st), a, truth, depth + 1),
            Some(Def::Not(a)) => self.refine_opnd(Some(st), a, !truth, depth + 1),
            Some(Def::And(a, b)) if truth => {
                let s = self.refine_opnd(Some(st), a, true, depth + 1);
                self.refine_opnd(s, b, true, depth + 1)
            }
            Some(Def::Or(a, b)) if !truth => {
                let s = self.refine_opnd(Some(st), a, false, depth + 1);
                self.refine_opnd(s, b, false, depth + 1)
            }
            Some(Def::PhiBool(entries)) => {
                // the join, over the edges where the phi can be `truth`, of
                // the state refined by that edge's conditions
                let mut out: St = None;
                for (v, guards) in entries {
                    let mut s = Some(st.clone());
                    for (g, gt) in guards {
                        s = self.refine_opnd(s, g, *gt, depth + 1);
                    }
                    s = self.refine_opnd(s, v, truth, depth + 1);
                    out = join(&out, &s);
                }
                out
            }
            Some(Def::FCmp(p, a, b)) => {
                let (av, bv) = (self.get(&st, a)?, self.get(&st, b)?);
                let (Val::F(x), Val::F(y)) = (&av, &bv) else {
                    return Some(st);
                };
                let (nx, ny) = fcmp_refine(*p, truth, x, y)?;
                let s = self.assign(Some(st), a, Val::F(nx), depth);
                self.assign(s, b, Val::F(ny), depth)
            }
            Some(Def::ICmp(p, a, b)) => {
                let (av, bv) = (self.get(&st, a)?, self.get(&st, b)?);
                let (Val::I(x), Val::I(y)) = (&av, &bv) else {
                    return Some(st);
                };
                let pred = if truth { *p } else { negate_ipred(*p) };
                let (nx, ny) = icmp_refine(pred, x, y)?;
                let s = self.assign(Some(st), a, Val::I(nx), depth);
                self.assign(s, b, Val::I(ny), depth)
            }
            _ => {
                if let Some(Val::I(r)) = st.get(&key) {
                    if r.bits == 1 && !(r.lo <= t && t <= r.hi) {
                        return None;
                    }
                }
                st.entry(key).or_insert(Val::I(IntRange::point(1, t)));
                Some(st)
            }
        }
    }

    fn get(&self, st: &HashMap<Key, Val>, o: &Opnd) -> Option<Val> {
        match o {
            Opnd::Var(k) => st.get(k).cloned(),
            Opnd::Const(v) => Some(v.clone()),
        }
    }

    /// Narrows an operand to `v` and what it was computed from.
    fn assign(&self, st: St, o: &Opnd, v: Val, depth: usize) -> St {
        let mut st = st?;
        let Opnd::Var(k) = o else { return Some(st) };
        let v = match (st.get(k), &v) {
            (Some(Val::F(old)), Val::F(new)) => {
                let m = old.intersect(new);
                if m.is_empty() {
                    return None;
                }
                Val::F(m)
            }
            (Some(Val::I(old)), Val::I(new)) => Val::I(old.meet(new.lo, new.hi)?),
            _ => return Some(st),
        };
        st.insert(k.clone(), v.clone());
        if depth > 16 {
            return Some(st);
        }
        match (self.defs.get(k), &v) {
            (Some(Def::FExt(inner)), Val::F(wide)) => {
                // the narrower values whose extension is in `wide`
                let Some(Val::F(cur)) = self.get(&st, inner) else {
                    return Some(st);
                };
                let back = itv::convert(wide, cur.format());
                self.assign(Some(st), inner, Val::F(back), depth + 1)
            }
            (Some(Def::Alias(inner)), Val::I(r)) => {
                let cur = self.get(&st, inner);
                match cur {
                    Some(Val::I(c)) if c.bits == 1 => {
                        // zext of a condition
                        if r.lo > 0 {
                            self.refine_opnd(Some(st), inner, true, depth + 1)
                        } else if r.hi < 1 {
                            self.refine_opnd(Some(st), inner, false, depth + 1)
                        } else {
                            Some(st)
                        }
                    }
                    Some(Val::I(c)) if c.bits == r.bits => self.assign(Some(st), inner, v.clone(), depth + 1),
                    _ => Some(st),
                }
            }
            (Some(Def::Alias(inner)), Val::F(_)) => self.assign(Some(st), inner, v.clone(), depth + 1),
            _ => Some(st),
        }
    }
}

/// The location of the first instruction of `f` that uses `name`.
fn first_use(f: &Function, name: &Name) -> Option<Loc> {
    f.basic_blocks.iter().flat_map(|b| &b.instrs).find_map(|i| {
        let uses = fpsym_frontend::instruction_operands(i)
            .iter()
            .any(|o| matches!(o, Operand::LocalOperand { name: n, .. } if n == name));
        if uses {
            i.get_debug_loc()
                .as_ref()
                .filter(|d| d.line > 0)
                .map(Loc::from_debugloc)
        } else {
            None
        }
    })
}

fn same_kind(a: &Val, b: &Val) -> bool {
    match (a, b) {
        (Val::F(x), Val::F(y)) => x.format() == y.format(),
        (Val::I(x), Val::I(y)) => x.bits == y.bits,
        (Val::Top, _) => true,
        _ => false,
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

fn join(a: &St, b: &St) -> St {
    match (a, b) {
        (None, x) | (x, None) => x.clone(),
        (Some(x), Some(y)) => {
            let mut out = x.clone();
            for (k, v) in y {
                let nv = match x.get(k) {
                    Some(old) => old.join(v),
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

fn widen(a: &St, b: &St, fthr: &dyn Fn(Format) -> Vec<Float>, ithr: &[i128]) -> St {
    match (a, b) {
        (None, x) | (x, None) => x.clone(),
        (Some(x), Some(y)) => {
            let mut out = x.clone();
            for (k, v) in y {
                let nv = match x.get(k) {
                    Some(old) => old.widen(&old.join(v), fthr, ithr),
                    None => v.clone(),
                };
                out.insert(k.clone(), nv);
            }
            Some(out)
        }
    }
}

fn leq(a: &St, b: &St) -> bool {
    match (a, b) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(x), Some(y)) => x.iter().all(|(k, v)| y.get(k).is_some_and(|w| v.leq(w))),
    }
}

fn set(o: &Opnd, v: Val, st: St) -> St {
    let mut st = st?;
    if let Opnd::Var(k) = o {
        st.insert(k.clone(), v);
    }
    Some(st)
}

fn bool_range(can_true: bool, can_false: bool) -> Val {
    Val::I(match (can_true, can_false) {
        (true, true) => IntRange::full(1),
        (true, false) => IntRange::point(1, 1),
        _ => IntRange::point(1, 0),
    })
}

fn int_arith(a: &Val, b: &Val, op: impl Fn(&IntRange, &IntRange) -> Option<(i128, i128)>) -> Option<Val> {
    let (Val::I(x), Val::I(y)) = (a, b) else { return None };
    Some(Val::I(match op(x, y) {
        Some((lo, hi)) => IntRange::fitted(x.bits, lo, hi),
        None => IntRange::full(x.bits),
    }))
}

/// An FP predicate as (relation, ordered); None for `true`, `false`, `ord`, `uno`.
fn split_fpred(p: FPPredicate) -> Option<(Rel, bool)> {
    use FPPredicate::*;
    Some(match p {
        OEQ => (Rel::Eq, true),
        OGT => (Rel::Gt, true),
        OGE => (Rel::Ge, true),
        OLT => (Rel::Lt, true),
        OLE => (Rel::Le, true),
        ONE => (Rel::Ne, true),
        UEQ => (Rel::Eq, false),
        UGT => (Rel::Gt, false),
        UGE => (Rel::Ge, false),
        ULT => (Rel::Lt, false),
        ULE => (Rel::Le, false),
        UNE => (Rel::Ne, false),
        _ => return None,
    })
}

/// Whether `a PRED b` can be true, and can be false.
fn fcmp_outcomes(p: FPPredicate, a: &FloatInterval, b: &FloatInterval) -> (bool, bool) {
    (
        fcmp_refine(p, true, a, b).is_some(),
        fcmp_refine(p, false, a, b).is_some(),
    )
}

/// The operands' values for which `a PRED b` is `truth` (None: no pair).
fn fcmp_refine(
    p: FPPredicate,
    truth: bool,
    a: &FloatInterval,
    b: &FloatInterval,
) -> Option<(FloatInterval, FloatInterval)> {
    let nonempty = |x: FloatInterval, y: FloatInterval| (!x.is_empty() && !y.is_empty()).then_some((x, y));
    let either_nan = a.may_be_nan() || b.may_be_nan();
    match p {
        FPPredicate::True => return if truth { nonempty(*a, *b) } else { None },
        FPPredicate::False => return if truth { None } else { nonempty(*a, *b) },
        FPPredicate::ORD | FPPredicate::UNO => {
            let ordered = (p == FPPredicate::ORD) == truth;
            return if ordered {
                nonempty(a.without_nan(), b.without_nan())
            } else if !either_nan {
                None
            } else if !a.may_be_nan() {
                nonempty(*a, b.intersect(&FloatInterval::nan_only(b.format())))
            } else if !b.may_be_nan() {
                nonempty(a.intersect(&FloatInterval::nan_only(a.format())), *b)
            } else {
                Some((*a, *b))
            };
        }
        _ => {}
    }
    let (rel, ordered) = split_fpred(p)?;
    // the predicate that holds: an ordered relation, or the relation or unordered
    let (rel, ordered) = if truth {
        (rel, ordered)
    } else {
        (rel.negated(), !ordered)
    };
    let ra = itv::refine(a, rel, b);
    let rb = itv::refine(b, rel.swapped(), a);
    if ordered {
        nonempty(ra, rb)
    } else {
        // the relation holds, or one operand is NaN
        let na = if b.may_be_nan() {
            *a
        } else {
            ra.with_nan(a.may_be_nan())
        };
        let nb = if a.may_be_nan() {
            *b
        } else {
            rb.with_nan(b.may_be_nan())
        };
        if !either_nan && (ra.is_empty() || rb.is_empty()) {
            return None;
        }
        nonempty(na, nb)
    }
}

fn negate_ipred(p: IntPredicate) -> IntPredicate {
    use IntPredicate::*;
    match p {
        EQ => NE,
        NE => EQ,
        UGT => ULE,
        UGE => ULT,
        ULT => UGE,
        ULE => UGT,
        SGT => SLE,
        SGE => SLT,
        SLT => SGE,
        SLE => SGT,
    }
}

/// The operands' ranges for which `a PRED b` holds (None: no pair).
fn icmp_refine(p: IntPredicate, a: &IntRange, b: &IntRange) -> Option<(IntRange, IntRange)> {
    use IntPredicate::*;
    let unsigned_ok = a.lo >= 0 && b.lo >= 0;
    let p = match p {
        UGT if unsigned_ok => SGT,
        UGE if unsigned_ok => SGE,
        ULT if unsigned_ok => SLT,
        ULE if unsigned_ok => SLE,
        UGT | UGE | ULT | ULE => return Some((*a, *b)),
        p => p,
    };
    match p {
        EQ => {
            let m = a.meet(b.lo, b.hi)?;
            Some((m, m))
        }
        NE => {
            let cut = |x: &IntRange, y: &IntRange| -> Option<IntRange> {
                match y.as_point() {
                    Some(c) if x.lo == c && x.hi == c => None,
                    Some(c) if x.lo == c => Some(IntRange { lo: c + 1, ..*x }),
                    Some(c) if x.hi == c => Some(IntRange { hi: c - 1, ..*x }),
                    _ => Some(*x),
                }
            };
            Some((cut(a, b)?, cut(b, a)?))
        }
        SLT => Some((a.meet(i128::MIN, b.hi - 1)?, b.meet(a.lo + 1, i128::MAX)?)),
        SLE => Some((a.meet(i128::MIN, b.hi)?, b.meet(a.lo, i128::MAX)?)),
        SGT => Some((a.meet(b.lo + 1, i128::MAX)?, b.meet(i128::MIN, a.hi - 1)?)),
        SGE => Some((a.meet(b.lo, i128::MAX)?, b.meet(i128::MIN, a.hi)?)),
        _ => unreachable!("unsigned predicates mapped above"),
    }
}
