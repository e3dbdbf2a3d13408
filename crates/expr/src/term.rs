//! Hash-consed terms and their sort checking.

use crate::op::Op;
use crate::sort::Sort;
use crate::value::{BvValue, Value};
use fpsym_float::{Float, Format, RoundingMode};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};

struct Node {
    /// The id; unused (`LAZY`) for a constant made outside the table.
    id: u64,
    op: Op,
    args: Box<[Term]>,
    sort: Sort,
    /// For a constant made outside the table: its interned twin, made the
    /// first time the constant's identity is asked for.
    twin: OnceLock<Term>,
}

/// The id of a constant made outside the table (its twin has the real one).
const LAZY: u64 = u64::MAX;

/// A term: an operation applied to argument terms, with its sort.
///
/// Terms are hash-consed: structurally equal terms are the same allocation,
/// so equality and hashing are by identity and O(1). The interning table
/// holds weak references only; a term lives as long as someone holds it.
///
/// Constants are the exception that keeps concrete execution fast: a
/// constant is allocated without touching the table, and interned (its
/// "twin") only when its identity is needed: its [`Term::id`], its hash,
/// its order, or as an argument of an application. Equality, hashing and
/// order therefore behave exactly as if every constant were interned.
#[derive(Clone)]
pub struct Term(Arc<Node>);

/// An ill-sorted application.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{op}: {message}")]
pub struct SortError {
    /// The operation's SMT-LIB name.
    pub op: String,
    /// What was expected and what was given.
    pub message: String,
}

// The sort is part of the key: variables are identified by name *and* sort
// (`x` of sort Bool and `x` of sort BitVec 8 are different terms).
type Key = (Op, Vec<u64>, Sort);

struct Interner {
    table: Mutex<rustc_hash::FxHashMap<Key, Weak<Node>>>,
    next_id: AtomicU64,
    inserts_since_sweep: AtomicU64,
}

fn interner() -> &'static Interner {
    static I: OnceLock<Interner> = OnceLock::new();
    I.get_or_init(|| Interner {
        table: Mutex::new(Default::default()),
        next_id: AtomicU64::new(0),
        inserts_since_sweep: AtomicU64::new(0),
    })
}

impl Term {
    fn intern(op: Op, args: Vec<Term>, sort: Sort) -> Term {
        let i = interner();
        // Arguments are stored interned, so a node's arguments are the
        // canonical terms its key names.
        let args: Vec<Term> = args.into_iter().map(|a| a.canonical()).collect();
        let key: Key = (op, args.iter().map(|a| a.id()).collect(), sort);
        let mut table = i.table.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(node) = table.get(&key).and_then(Weak::upgrade) {
            return Term(node);
        }
        // Sweep dead entries now and then so the table tracks live terms.
        if i.inserts_since_sweep.fetch_add(1, Ordering::Relaxed) > 2 * table.len() as u64 + 4096 {
            table.retain(|_, w| w.strong_count() > 0);
            i.inserts_since_sweep.store(0, Ordering::Relaxed);
        }
        let node = Arc::new(Node {
            id: i.next_id.fetch_add(1, Ordering::Relaxed),
            op: key.0.clone(),
            args: args.into_boxed_slice(),
            sort,
            twin: OnceLock::new(),
        });
        table.insert(key, Arc::downgrade(&node));
        Term(node)
    }

    /// Whether both are the same node (then they are equal; equal terms
    /// may be different nodes: constants made outside the table). Cheaper
    /// than `==` where the same node is the common case.
    #[inline]
    pub fn same_node(&self, other: &Term) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// A unique id (stable while the term lives): equal terms have equal ids.
    pub fn id(&self) -> u64 {
        if self.0.id == LAZY {
            self.canonical_ref().0.id
        } else {
            self.0.id
        }
    }

    /// The interned term equal to this one (itself unless this is a
    /// constant made outside the table).
    fn canonical(self) -> Term {
        if self.0.id == LAZY {
            self.canonical_ref().clone()
        } else {
            self
        }
    }

    fn canonical_ref(&self) -> &Term {
        if self.0.id == LAZY {
            self.0
                .twin
                .get_or_init(|| Term::intern(self.0.op.clone(), vec![], self.0.sort))
        } else {
            self
        }
    }
    /// The operation at the root.
    pub fn op(&self) -> &Op {
        &self.0.op
    }
    /// The arguments.
    pub fn args(&self) -> &[Term] {
        &self.0.args
    }
    /// The sort.
    pub fn sort(&self) -> Sort {
        self.0.sort
    }
    /// The variable name, if this is a variable.
    pub fn var_name(&self) -> Option<&str> {
        match &self.0.op {
            Op::Var(n) => Some(n),
            _ => None,
        }
    }
    /// The value, if this is a constant.
    pub fn as_const(&self) -> Option<Value> {
        Some(match &self.0.op {
            Op::BoolConst(b) => Value::Bool(*b),
            Op::BvConst(b) => Value::Bv(*b),
            Op::FpConst(f) => Value::Fp(*f),
            Op::RmConst(r) => Value::Rm(*r),
            _ => return None,
        })
    }

    /// A variable of the given sort. Variables are identified by name and sort.
    pub fn var(name: &str, sort: Sort) -> Term {
        Term::intern(Op::Var(Arc::from(name)), vec![], sort)
    }
    /// A constant.
    pub fn constant(v: Value) -> Term {
        let op = match v {
            Value::Bool(b) => Op::BoolConst(b),
            Value::Bv(b) => Op::BvConst(b),
            Value::Fp(f) => Op::FpConst(f),
            Value::Rm(r) => Op::RmConst(r),
        };
        // Not interned until its identity is needed (see [`Term`]).
        Term(Arc::new(Node {
            id: LAZY,
            op,
            args: Box::new([]),
            sort: v.sort(),
            twin: OnceLock::new(),
        }))
    }
    /// `true` or `false`.
    pub fn bool(b: bool) -> Term {
        Term::constant(Value::Bool(b))
    }
    /// A bit-vector literal.
    pub fn bv(width: u32, bits: u128) -> Term {
        Term::constant(Value::Bv(BvValue::new(width, bits)))
    }
    /// A float literal.
    pub fn fp(f: Float) -> Term {
        Term::constant(Value::Fp(f))
    }
    /// A rounding-mode literal.
    pub fn rm(r: RoundingMode) -> Term {
        Term::constant(Value::Rm(r))
    }

    /// Applies `op` to `args` after checking sorts; does not fold.
    pub fn app(op: Op, args: Vec<Term>) -> Result<Term, SortError> {
        let sort = result_sort(&op, &args)?;
        Ok(Term::intern(op, args, sort))
    }

    /// Like [`Term::app`] for callers that built the arguments themselves and
    /// know the sorts are right. Panics on a sort error.
    pub fn mk(op: Op, args: Vec<Term>) -> Term {
        match Term::app(op, args) {
            Ok(t) => t,
            Err(e) => panic!("ill-sorted term built internally: {e}"),
        }
    }

    /// `not self`.
    pub fn not(&self) -> Term {
        Term::mk(Op::Not, vec![self.clone()])
    }
    /// The conjunction of `ts` (`true` when empty, the term itself when one).
    pub fn and(ts: Vec<Term>) -> Term {
        match ts.len() {
            0 => Term::bool(true),
            1 => ts.into_iter().next().unwrap(),
            _ => Term::mk(Op::And, ts),
        }
    }
    /// `self = other`.
    pub fn eq(&self, other: &Term) -> Term {
        Term::mk(Op::Eq, vec![self.clone(), other.clone()])
    }

    /// Every distinct variable in the term, in first-occurrence order.
    pub fn vars(&self) -> Vec<Term> {
        Term::vars_of(std::slice::from_ref(self))
    }

    /// Every distinct variable in `terms`, in first-occurrence order (one
    /// walk of their DAG: subterms they share are visited once).
    pub fn vars_of(terms: &[Term]) -> Vec<Term> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        let mut stack: Vec<Term> = terms.iter().rev().cloned().collect();
        while let Some(t) = stack.pop() {
            if !seen.insert(t.id()) {
                continue;
            }
            if t.var_name().is_some() {
                out.push(t.clone());
            }
            for a in t.args().iter().rev() {
                stack.push(a.clone());
            }
        }
        out
    }

    /// The number of distinct subterms (DAG size).
    pub fn dag_size(&self) -> usize {
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![self.clone()];
        while let Some(t) = stack.pop() {
            if seen.insert(t.id()) {
                stack.extend(t.args().iter().cloned());
            }
        }
        seen.len()
    }
}

impl Drop for Node {
    /// Drops argument chains iteratively: terms of long paths are deep, and a
    /// recursive drop would overflow the stack.
    fn drop(&mut self) {
        let mut stack: Vec<Term> = std::mem::take(&mut self.args).into_vec();
        while let Some(t) = stack.pop() {
            if let Ok(mut node) = Arc::try_unwrap(t.0) {
                stack.extend(std::mem::take(&mut node.args).into_vec());
            }
        }
    }
}

impl PartialEq for Term {
    fn eq(&self, other: &Self) -> bool {
        if Arc::ptr_eq(&self.0, &other.0) {
            return true;
        }
        match (self.0.id == LAZY, other.0.id == LAZY) {
            // Two interned terms are equal only if they are the same node.
            (false, false) => false,
            // A constant equals exactly the constants of the same value
            // and sort (the interning key of a leaf).
            _ => {
                self.0.args.is_empty()
                    && other.0.args.is_empty()
                    && self.0.sort == other.0.sort
                    && self.0.op == other.0.op
            }
        }
    }
}
impl Eq for Term {}
impl Hash for Term {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.id().hash(state)
    }
}
impl PartialOrd for Term {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Term {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.id().cmp(&other.id())
    }
}

impl fmt::Debug for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(n) = self.var_name() {
            return f.write_str(n);
        }
        if let Some(v) = self.as_const() {
            return write!(f, "{v}");
        }
        write!(f, "({}", self.op().name())?;
        for a in self.args() {
            write!(f, " {a:?}")?;
        }
        f.write_str(")")
    }
}

fn err(op: &Op, message: String) -> SortError {
    SortError {
        op: op.name().to_string(),
        message,
    }
}

fn arity(op: &Op, args: &[Term], n: usize) -> Result<(), SortError> {
    if args.len() != n {
        return Err(err(op, format!("expects {n} argument(s), got {}", args.len())));
    }
    Ok(())
}

fn want(op: &Op, t: &Term, pos: usize, pred: impl Fn(Sort) -> bool, what: &str) -> Result<(), SortError> {
    if !pred(t.sort()) {
        return Err(err(
            op,
            format!("argument {} must be {what}, got {}", pos + 1, t.sort()),
        ));
    }
    Ok(())
}

fn float_of(op: &Op, t: &Term, pos: usize) -> Result<Format, SortError> {
    t.sort().as_float().ok_or_else(|| {
        err(
            op,
            format!("argument {} must be a FloatingPoint, got {}", pos + 1, t.sort()),
        )
    })
}

fn bv_of(op: &Op, t: &Term, pos: usize) -> Result<u32, SortError> {
    t.sort()
        .as_bv()
        .ok_or_else(|| err(op, format!("argument {} must be a BitVec, got {}", pos + 1, t.sort())))
}

fn same_floats(op: &Op, args: &[Term], from: usize) -> Result<Format, SortError> {
    let f = float_of(op, &args[from], from)?;
    for (i, a) in args.iter().enumerate().skip(from + 1) {
        let g = float_of(op, a, i)?;
        if g != f {
            return Err(err(
                op,
                format!(
                    "arguments must have the same sort, got {} and {}",
                    Sort::Float(f),
                    Sort::Float(g)
                ),
            ));
        }
    }
    Ok(f)
}

fn same_bvs(op: &Op, args: &[Term]) -> Result<u32, SortError> {
    let w = bv_of(op, &args[0], 0)?;
    for (i, a) in args.iter().enumerate().skip(1) {
        let v = bv_of(op, a, i)?;
        if v != w {
            return Err(err(op, format!("arguments must have the same width, got {w} and {v}")));
        }
    }
    Ok(w)
}

fn is_rm(s: Sort) -> bool {
    s == Sort::RoundingMode
}

fn bv_width(op: &Op, w: u64) -> Result<u32, SortError> {
    if w == 0 || w > 128 {
        return Err(err(
            op,
            format!("bit-vector width {w} is not supported (fpsym handles 1..=128 bits)"),
        ));
    }
    Ok(w as u32)
}

/// The sort of `op` applied to `args`, or why it is ill-sorted.
fn result_sort(op: &Op, args: &[Term]) -> Result<Sort, SortError> {
    use Op::*;
    Ok(match op {
        Var(_) | BoolConst(_) | BvConst(_) | FpConst(_) | RmConst(_) => {
            return Err(err(op, "leaves are built with Term::var / Term::constant".into()))
        }
        Not => {
            arity(op, args, 1)?;
            want(op, &args[0], 0, |s| s == Sort::Bool, "Bool")?;
            Sort::Bool
        }
        And | Or | Xor | Implies => {
            if args.len() < 2 {
                return Err(err(op, format!("expects at least 2 arguments, got {}", args.len())));
            }
            if *op == Implies {
                arity(op, args, 2)?;
            }
            for (i, a) in args.iter().enumerate() {
                want(op, a, i, |s| s == Sort::Bool, "Bool")?;
            }
            Sort::Bool
        }
        Eq | Distinct => {
            if args.len() < 2 || (*op == Eq && args.len() != 2) {
                return Err(err(op, format!("unexpected number of arguments: {}", args.len())));
            }
            let s = args[0].sort();
            for (i, a) in args.iter().enumerate().skip(1) {
                if a.sort() != s {
                    return Err(err(
                        op,
                        format!("argument {} has sort {}, expected {s}", i + 1, a.sort()),
                    ));
                }
            }
            Sort::Bool
        }
        Ite => {
            arity(op, args, 3)?;
            want(op, &args[0], 0, |s| s == Sort::Bool, "Bool")?;
            if args[1].sort() != args[2].sort() {
                return Err(err(
                    op,
                    format!(
                        "branches have different sorts {} and {}",
                        args[1].sort(),
                        args[2].sort()
                    ),
                ));
            }
            args[1].sort()
        }
        FpAbs | FpNeg => {
            arity(op, args, 1)?;
            Sort::Float(float_of(op, &args[0], 0)?)
        }
        FpAdd | FpSub | FpMul | FpDiv => {
            arity(op, args, 3)?;
            want(op, &args[0], 0, is_rm, "RoundingMode")?;
            Sort::Float(same_floats(op, args, 1)?)
        }
        FpFma => {
            arity(op, args, 4)?;
            want(op, &args[0], 0, is_rm, "RoundingMode")?;
            Sort::Float(same_floats(op, args, 1)?)
        }
        FpSqrt | FpRoundToIntegral => {
            arity(op, args, 2)?;
            want(op, &args[0], 0, is_rm, "RoundingMode")?;
            Sort::Float(float_of(op, &args[1], 1)?)
        }
        Libm(f) => {
            arity(op, args, 1 + f.arity())?;
            want(op, &args[0], 0, is_rm, "RoundingMode")?;
            let fmt = same_floats(op, args, 1)?;
            if !crate::libm::LibmFn::evaluated_in(fmt) {
                return Err(err(
                    op,
                    "Float32, Float64 or (_ FloatingPoint 15 64) arguments expected (glibc's float, double and x87 long double functions)"
                        .to_string(),
                ));
            }
            Sort::Float(fmt)
        }
        FpRem | FpMin | FpMax => {
            arity(op, args, 2)?;
            Sort::Float(same_floats(op, args, 0)?)
        }
        FpLeq | FpLt | FpGeq | FpGt | FpEq => {
            arity(op, args, 2)?;
            same_floats(op, args, 0)?;
            Sort::Bool
        }
        FpIsNormal | FpIsSubnormal | FpIsZero | FpIsInfinite | FpIsNaN | FpIsNegative | FpIsPositive => {
            arity(op, args, 1)?;
            float_of(op, &args[0], 0)?;
            Sort::Bool
        }
        FpFromParts => {
            arity(op, args, 3)?;
            let (s, e, m) = (
                bv_of(op, &args[0], 0)?,
                bv_of(op, &args[1], 1)?,
                bv_of(op, &args[2], 2)?,
            );
            if s != 1 {
                return Err(err(op, format!("sign must be (_ BitVec 1), got (_ BitVec {s})")));
            }
            let f = Format::new(e, m + 1).map_err(|x| err(op, x.to_string()))?;
            Sort::Float(f)
        }
        ToFpFromBits(f) => {
            arity(op, args, 1)?;
            let w = bv_of(op, &args[0], 0)?;
            if w != f.packed_width() {
                return Err(err(
                    op,
                    format!(
                        "bit-vector must have {} bits for {}, got {w}",
                        f.packed_width(),
                        Sort::Float(*f)
                    ),
                ));
            }
            Sort::Float(*f)
        }
        ToFpFromFp(f) => {
            arity(op, args, 2)?;
            want(op, &args[0], 0, is_rm, "RoundingMode")?;
            float_of(op, &args[1], 1)?;
            Sort::Float(*f)
        }
        ToFpFromSbv(f) | ToFpFromUbv(f) => {
            arity(op, args, 2)?;
            want(op, &args[0], 0, is_rm, "RoundingMode")?;
            bv_of(op, &args[1], 1)?;
            Sort::Float(*f)
        }
        FpToUbv(w) | FpToSbv(w) => {
            arity(op, args, 2)?;
            want(op, &args[0], 0, is_rm, "RoundingMode")?;
            float_of(op, &args[1], 1)?;
            Sort::BitVec(bv_width(op, *w as u64)?)
        }
        BvConcat => {
            arity(op, args, 2)?;
            let (a, b) = (bv_of(op, &args[0], 0)?, bv_of(op, &args[1], 1)?);
            Sort::BitVec(bv_width(op, a as u64 + b as u64)?)
        }
        BvExtract(hi, lo) => {
            arity(op, args, 1)?;
            let w = bv_of(op, &args[0], 0)?;
            if hi < lo || *hi >= w {
                return Err(err(op, format!("(_ extract {hi} {lo}) needs {w} > hi >= lo")));
            }
            Sort::BitVec(hi - lo + 1)
        }
        BvZeroExtend(n) | BvSignExtend(n) => {
            arity(op, args, 1)?;
            let w = bv_of(op, &args[0], 0)?;
            Sort::BitVec(bv_width(op, w as u64 + *n as u64)?)
        }
        BvNot | BvNeg => {
            arity(op, args, 1)?;
            Sort::BitVec(bv_of(op, &args[0], 0)?)
        }
        BvAnd | BvOr | BvXor | BvAdd | BvSub | BvMul | BvUdiv | BvUrem | BvSdiv | BvSrem | BvSmod | BvShl | BvLshr
        | BvAshr => {
            arity(op, args, 2)?;
            Sort::BitVec(same_bvs(op, args)?)
        }
        BvUlt | BvUle | BvUgt | BvUge | BvSlt | BvSle | BvSgt | BvSge => {
            arity(op, args, 2)?;
            same_bvs(op, args)?;
            Sort::Bool
        }
    })
}
