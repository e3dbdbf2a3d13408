//! Execution states: call stack, memory, path constraints, rounding mode.

use crate::memory::Memory;
use crate::value::Val;
use fpsym_expr::Term;
use fpsym_float::RoundingMode;
use llvm_ir::Name;
use std::collections::HashMap;
use std::sync::Arc;

pub use fpsym_report::Loc;

/// The source location of llvm-ir's debug location.
pub fn loc_of(d: &Option<llvm_ir::DebugLoc>) -> Option<Loc> {
    d.as_ref().map(|d| Loc {
        file: match &d.directory {
            Some(dir) if !d.filename.starts_with('/') && !dir.is_empty() => format!("{dir}/{}", d.filename),
            _ => d.filename.clone(),
        },
        line: d.line,
        column: d.col.unwrap_or(0),
    })
}

/// The registers a function names, numbered: each gets a slot in
/// [`Regs`] (its parameters first, then the instructions' results in
/// order). Built once per function ([`crate::prog::Prog::reg_names`]) and
/// shared by its frames.
#[derive(Debug, Default, Clone)]
pub struct RegNames {
    index: rustc_hash::FxHashMap<Name, u32>,
}

impl RegNames {
    /// The numbering of `names` (duplicates keep their first slot).
    pub fn new<'n>(names: impl IntoIterator<Item = &'n Name>) -> RegNames {
        let mut r = RegNames::default();
        for n in names {
            r.add(n);
        }
        r
    }
    /// The slot of `n`.
    #[inline]
    pub fn slot(&self, n: &Name) -> Option<u32> {
        self.index.get(n).copied()
    }
    /// Slots numbered.
    pub fn len(&self) -> usize {
        self.index.len()
    }
    /// No registers.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }
    fn add(&mut self, n: &Name) -> u32 {
        let k = self.index.len() as u32;
        *self.index.entry(n.clone()).or_insert(k)
    }
}

/// A register's content. Concrete integers of up to 64 bits and concrete
/// floats other than NaN are kept as machine values (the concrete fast
/// path, [`crate::fast`], computes on them without building terms:
/// binary32 and binary64 as host floats, other formats as fpsym's
/// soft-float values); everything else as a [`Val`]. An explicit tag
/// (32 bytes, not 24 with the tag in `Val`'s niche): the fast path
/// tells the variants apart with one comparison.
#[derive(Clone, Debug, Default, PartialEq)]
#[repr(u8)]
pub enum Slot {
    /// Not written yet.
    #[default]
    Empty,
    /// A value as terms.
    Val(Val),
    /// An integer or pointer of the given width (at most 64 bits), its
    /// bits above the width zero.
    Int(u64, u32),
    /// A binary32 value (never NaN).
    F32(f32),
    /// A binary64 value (never NaN).
    F64(f64),
    /// A value of another float format (never NaN), boxed (it is 32
    /// bytes; the common slots are 16).
    Flt(Box<fpsym_float::Float>),
}

impl Slot {
    /// The slot holding `v`: a machine value when `v` is a constant that
    /// has one.
    pub fn of(v: Val) -> Slot {
        if let Some(c) = v.term().and_then(|t| t.as_const()) {
            match c {
                fpsym_expr::Value::Bv(b) if b.width() <= 64 => return Slot::Int(b.bits() as u64, b.width()),
                fpsym_expr::Value::Fp(f) => {
                    if let Some(s) = Slot::float(f) {
                        return s;
                    }
                }
                _ => {}
            }
        }
        Slot::Val(v)
    }
    /// The slot of a concrete float (None for NaN, kept as a term: its
    /// encoding is the executor's).
    pub fn float(f: fpsym_float::Float) -> Option<Slot> {
        use fpsym_float::Format;
        Some(match f.format() {
            _ if f.is_nan() => return None,
            Format::BINARY64 => Slot::F64(f.to_f64()?),
            Format::BINARY32 => Slot::F32(f.to_f32()?),
            _ => Slot::Flt(Box::new(f)),
        })
    }
    /// The value as terms (machine values become constants).
    pub fn val(&self) -> Option<Val> {
        Some(match self {
            Slot::Empty => return None,
            Slot::Val(v) => v.clone(),
            Slot::Int(x, w) => Val::Bv(Term::bv(*w, *x as u128)),
            Slot::F32(x) => Val::Fp(Term::fp(fpsym_float::Float::from_f32(*x))),
            Slot::F64(x) => Val::Fp(Term::fp(fpsym_float::Float::from_f64(*x))),
            Slot::Flt(f) => Val::Fp(Term::fp(**f)),
        })
    }
}

/// A frame's virtual registers: one slot per register of the function
/// (numbered by its [`RegNames`]), so that the fast path reads and writes
/// them by index and the executor by name.
#[derive(Clone, Debug, Default)]
pub struct Regs {
    names: Arc<RegNames>,
    slots: Vec<Slot>,
}

impl Regs {
    /// Empty registers numbered by `names`.
    pub fn new(names: Arc<RegNames>) -> Regs {
        let slots = vec![Slot::Empty; names.len()];
        Regs { names, slots }
    }
    /// Empty registers numbered by `names`, kept in `storage` (a returned
    /// frame's, reused: no allocation when it is large enough; its old
    /// values are dropped here).
    pub fn with_storage(names: Arc<RegNames>, mut storage: Vec<Slot>) -> Regs {
        let n = names.len();
        storage.truncate(n);
        let mut r = Regs { names, slots: storage };
        r.reset();
        r.slots.resize_with(n, || Slot::Empty);
        r
    }
    /// Empties every slot (the registers of a new activation of the
    /// same function, without allocating).
    #[inline]
    pub fn reset(&mut self) {
        for s in self.slots.iter_mut() {
            Regs::empty(s);
        }
    }
    /// Empties slot `s`, dropping its old value only when it owns something.
    #[inline(always)]
    fn empty(s: &mut Slot) {
        if matches!(s, Slot::Val(_) | Slot::Flt(_)) {
            *s = Slot::Empty;
        } else {
            std::mem::forget(std::mem::replace(s, Slot::Empty));
        }
    }
    /// Writes the integer `x` of width `w` to slot `k` (in place when it
    /// holds an integer already).
    #[inline(always)]
    pub fn set_int(&mut self, k: u32, x: u64, w: u32) {
        self.slots.set_int(k, x, w)
    }
    /// Writes the binary64 value `x` (not NaN) to slot `k`.
    #[inline(always)]
    pub fn set_f64(&mut self, k: u32, x: f64) {
        self.slots.set_f64(k, x)
    }
    /// Writes the binary32 value `x` (not NaN) to slot `k`.
    #[inline(always)]
    pub fn set_f32(&mut self, k: u32, x: f32) {
        self.slots.set_f32(k, x)
    }
    /// Copies slot `from` to slot `to`; false (nothing written) when
    /// `from` is empty.
    #[inline(always)]
    pub fn copy_slot(&mut self, from: u32, to: u32) -> bool {
        self.slots.copy_slot(from, to)
    }
    /// Copies slot `from` of `src` (another activation's registers) to
    /// slot `to`; false (nothing written) when it is empty.
    #[inline(always)]
    pub fn copy_from(&mut self, to: u32, src: &Regs, from: u32) -> bool {
        match src.slot(from) {
            Slot::Int(x, w) => self.set_int(to, *x, *w),
            Slot::F64(x) => self.set_f64(to, *x),
            Slot::F32(x) => self.set_f32(to, *x),
            Slot::Empty => return false,
            s => self.set_slot(to, s.clone()),
        }
        true
    }
    /// The slots' storage taken out (no slot left), for
    /// [`Regs::with_storage`].
    pub fn take_storage(&mut self) -> Vec<Slot> {
        std::mem::take(&mut self.slots)
    }
    /// The value of register `n`, if written.
    pub fn get(&self, n: &Name) -> Option<Val> {
        self.slots.get(self.names.slot(n)? as usize)?.val()
    }
    /// Writes register `n` (a name the function's numbering lacks gets a
    /// new slot).
    pub fn insert(&mut self, n: Name, v: Val) {
        let k = match self.names.slot(&n) {
            Some(k) => k as usize,
            None => {
                let k = Arc::make_mut(&mut self.names).add(&n) as usize;
                self.slots.resize(k + 1, Slot::Empty);
                k
            }
        };
        self.slots[k] = Slot::of(v);
    }
    /// The numbering the slots follow.
    pub fn names(&self) -> &Arc<RegNames> {
        &self.names
    }
    /// Slot `k`.
    #[inline]
    pub fn slot(&self, k: u32) -> &Slot {
        &self.slots[k as usize]
    }
    /// Writes slot `k`.
    #[inline]
    pub fn set_slot(&mut self, k: u32, s: Slot) {
        self.slots.set_slot(k, s)
    }
    /// The slots, for the fast path: an operation takes them once and
    /// reads and writes them by number (see [`SlotsMut`]).
    #[inline(always)]
    pub(crate) fn slots_mut(&mut self) -> &mut [Slot] {
        &mut self.slots
    }
}

/// Reads and writes a register file's slots by number, in place: what
/// [`Regs`] writes through, and the fast path's operations on the slice
/// they take once ([`Regs::slots_mut`]) or on its view without bounds
/// checks. An implementation gives slot access ([`SlotsMut::at`],
/// [`SlotsMut::at_mut`]); the writers follow from it.
pub(crate) trait SlotsMut {
    /// Slot `k`.
    fn at(&self, k: u32) -> &Slot;
    /// Slot `k`, to write.
    fn at_mut(&mut self, k: u32) -> &mut Slot;
    /// Writes the integer `x` of width `w` to slot `k` (one test of the
    /// old value: whether it owns something to drop).
    #[inline(always)]
    fn set_int(&mut self, k: u32, x: u64, w: u32) {
        self.set_slot(k, Slot::Int(x, w))
    }
    /// Writes the binary64 value `x` (not NaN) to slot `k`.
    #[inline(always)]
    fn set_f64(&mut self, k: u32, x: f64) {
        self.set_slot(k, Slot::F64(x))
    }
    /// Writes the binary32 value `x` (not NaN) to slot `k`.
    #[inline(always)]
    fn set_f32(&mut self, k: u32, x: f32) {
        self.set_slot(k, Slot::F32(x))
    }
    /// Writes slot `k`.
    #[inline(always)]
    fn set_slot(&mut self, k: u32, s: Slot) {
        let d = self.at_mut(k);
        if matches!(d, Slot::Val(_) | Slot::Flt(_)) {
            *d = s;
        } else {
            // Nothing to drop: the old value is overwritten in place (the
            // fast path's common case, without a call to drop it).
            std::mem::forget(std::mem::replace(d, s));
        }
    }
    /// Copies slot `from` to slot `to`; false (nothing written) when
    /// `from` is empty.
    #[inline(always)]
    fn copy_slot(&mut self, from: u32, to: u32) -> bool {
        // Integers first, without a jump table (phis move them most).
        if let Slot::Int(x, w) = *self.at(from) {
            self.set_int(to, x, w);
            return true;
        }
        match self.at(from) {
            Slot::F64(x) => {
                let x = *x;
                self.set_f64(to, x)
            }
            Slot::F32(x) => {
                let x = *x;
                self.set_f32(to, x)
            }
            Slot::Empty => return false,
            s => {
                let s = s.clone();
                self.set_slot(to, s)
            }
        }
        true
    }
}

impl SlotsMut for [Slot] {
    #[inline(always)]
    fn at(&self, k: u32) -> &Slot {
        &self[k as usize]
    }
    #[inline(always)]
    fn at_mut(&mut self, k: u32) -> &mut Slot {
        &mut self[k as usize]
    }
}

/// One activation record.
#[derive(Clone, Debug)]
pub struct Frame {
    /// Index of the function in [`crate::prog::Prog::funcs`].
    pub func: usize,
    /// Current block.
    pub bb: usize,
    /// Next instruction in the block (`instrs.len()` = the terminator).
    pub ip: usize,
    /// The block we came from (for phis).
    pub prev_bb: Option<usize>,
    /// Virtual registers.
    pub regs: Regs,
    /// Objects allocated by this activation (popped on return).
    pub allocas: Vec<u64>,
    /// Where the caller wants the result, by name: used when `ret_slot`
    /// is [`u32::MAX`] (the fast path, which runs only where no observer
    /// watches, leaves it None when it sets `ret_slot`).
    pub ret_dest: Option<Name>,
    /// The result's slot in the caller's registers when the fast path
    /// made the call and the result has one ([`u32::MAX`]: `ret_dest`
    /// names it, if there is a result).
    pub ret_slot: u32,
    /// The call site in the caller (shared: a call pushes it for every
    /// activation).
    pub call_site: Option<Arc<Loc>>,
    /// The arguments passed beyond a variadic function's fixed
    /// parameters, with their IR types (laid out by `llvm.va_start`).
    pub varargs: Vec<(Val, llvm_ir::TypeRef)>,
    /// The register save and overflow areas `llvm.va_start` built: they
    /// live until the function returns (`llvm.stackrestore` leaves them).
    pub va_areas: Vec<u64>,
}

impl Frame {
    /// A new activation of function `func` (an index into
    /// [`crate::prog::Prog::funcs`]) with its parameters in `regs`, at the
    /// start of its entry block.
    pub fn new(func: usize, regs: Regs) -> Frame {
        Frame {
            func,
            bb: 0,
            ip: 0,
            prev_bb: None,
            regs,
            allocas: Vec::new(),
            ret_dest: None,
            ret_slot: u32::MAX,
            call_site: None,
            varargs: Vec::new(),
            va_areas: Vec::new(),
        }
    }
}

/// An input the program received: a symbolic object or a nondet value.
#[derive(Clone, Debug)]
pub struct Symbolic {
    /// The name given by the program (made unique).
    pub name: String,
    /// Its type as tests show it: C's name when known (`double`, `struct
    /// pt`, `double[3]`), else `i32`, `u64`, `u8[16]`, ...
    pub ty: String,
    /// The value's bytes (little-endian), as 8-bit terms over the inputs'
    /// variables; evaluated under a model they give the test's bytes.
    pub bytes: Vec<Term>,
    /// How a test shows the bytes (C type, members, elements); None for
    /// bytes of no known type.
    pub shape: Option<crate::shape::Shape>,
    /// What the elements are named from when not `name`: the C parameter
    /// `m` for `m.{id,flags}`, the part of struct `m` passed in one
    /// register (elements `m.id`, `m.flags`).
    pub elements_root: Option<String>,
    /// The call that obtained it (None: a harness parameter, argv, stdin).
    pub site: Option<fpsym_report::InputSite>,
}

/// A branch edge: (function, block, successor index).
pub type Edge = (usize, usize, usize);

/// The branch edges a path took: the last one (coverage-new ranks states
/// by it) and each distinct one (branch coverage). A loop's edges are kept
/// once, so a long concrete loop does not grow it, nor the copy a fork
/// makes (it grew by 24 bytes per branch: 200 MB for three million
/// iterations of a loop with two branches).
#[derive(Clone, Debug, Default)]
pub struct Trail {
    last: Option<Edge>,
    seen: rustc_hash::FxHashSet<Edge>,
    /// Edges recently added to `seen`, direct-mapped: a loop's edges
    /// are found here without hashing.
    recent: [Option<Edge>; 16],
}

impl Trail {
    /// Records a branch taken.
    #[inline]
    pub fn push(&mut self, e: Edge) {
        if self.last != Some(e) {
            let k = (e.0.wrapping_mul(7) ^ e.1.wrapping_mul(3) ^ e.2) & 15;
            if self.recent[k] != Some(e) {
                self.seen.insert(e);
                self.recent[k] = Some(e);
            }
        }
        self.last = Some(e);
    }
    /// The last branch taken.
    pub fn last(&self) -> Option<&Edge> {
        self.last.as_ref()
    }
    /// Each edge taken (in no particular order).
    pub fn edges(&self) -> impl Iterator<Item = &Edge> {
        self.seen.iter()
    }
}

/// Repetitions of each loop on a path: (function, header block) → count.
/// A short list with the last loop bumped first: a running loop's count
/// is found without a search (the fast path bumps it every iteration).
#[derive(Clone, Debug, Default)]
pub struct LoopVisits {
    entries: Vec<((usize, usize), u32)>,
    last: usize,
}

impl LoopVisits {
    /// The count of loop `k`, if it was entered again at least once.
    pub fn get(&self, k: &(usize, usize)) -> Option<&u32> {
        self.entries.iter().find(|(e, _)| e == k).map(|(_, n)| n)
    }
    /// Counts one more repetition of loop `k`.
    #[inline]
    pub fn bump(&mut self, k: (usize, usize)) {
        if let Some((e, n)) = self.entries.get_mut(self.last) {
            if *e == k {
                *n += 1;
                return;
            }
        }
        match self.entries.iter().position(|(e, _)| *e == k) {
            Some(i) => {
                self.entries[i].1 += 1;
                self.last = i;
            }
            None => {
                self.last = self.entries.len();
                self.entries.push((k, 1));
            }
        }
    }
    /// Every loop's count.
    pub fn values(&self) -> impl Iterator<Item = &u32> {
        self.entries.iter().map(|(_, n)| n)
    }
}

/// One path being explored.
#[derive(Clone, Debug)]
pub struct State {
    /// Unique id.
    pub id: u64,
    /// Call stack (innermost last).
    pub frames: Vec<Frame>,
    /// Address space.
    pub mem: Memory,
    /// Path condition (conjunction of Boolean terms).
    pub path: Vec<Term>,
    /// The dynamic rounding mode (`fesetround`).
    pub rm: RoundingMode,
    /// Inputs in the order the program obtained them.
    pub symbolics: Vec<Symbolic>,
    /// Names handed out, for uniqueness.
    pub names: Arc<HashMap<String, u32>>,
    /// Counter for fresh auxiliary variables.
    pub fresh: u64,
    /// Instructions executed on this path.
    pub steps: u64,
    /// Set on a state a checker's injected branch split off before an
    /// instruction (function, block, instruction, depth): the checks there
    /// were made; the state executes the instruction without them.
    pub split_at: Option<(usize, usize, usize, usize)>,
    /// Repetitions of each loop on this path (jumps back to its header,
    /// all entries together): (function, header block) → count.
    pub loop_visits: LoopVisits,
    /// A value was concretized on this path.
    pub concretized: bool,
    /// Branches taken on this path.
    pub trail: Trail,
    /// Process state the C library keeps (rand, atexit, errno).
    pub env: crate::env::ProcessEnv,
    /// The modes' data on this path ([`State::ext`]), forked with it.
    pub ext: crate::plugin::Extensions,
    /// The bit-vector variable standing for each symbolic float's bit
    /// pattern on this path (tied to it by a constraint in `path`): one
    /// per float value, however many of its bytes are read.
    pub float_bits: Arc<rustc_hash::FxHashMap<Term, Term>>,
}

impl State {
    /// The innermost frame.
    pub fn frame(&self) -> &Frame {
        self.frames.last().expect("a running state has a frame")
    }
    /// The innermost frame, mutably.
    pub fn frame_mut(&mut self) -> &mut Frame {
        self.frames.last_mut().expect("a running state has a frame")
    }
    /// A name not used before on this path, derived from `base`.
    pub fn unique_name(&mut self, base: &str) -> String {
        let names = Arc::make_mut(&mut self.names);
        let n = names.entry(base.to_string()).or_insert(0);
        *n += 1;
        if *n == 1 {
            base.to_string()
        } else {
            format!("{base}#{}", *n - 1)
        }
    }
    /// Jumps to block `to` of the current function (whose loop headers
    /// are `headers`); a jump back to a loop's header counts one more
    /// repetition of the loop, and says so (true).
    #[inline]
    pub fn enter_block(&mut self, to: usize, headers: &[bool]) -> bool {
        let f = self.frame_mut();
        let (fidx, from) = (f.func, f.bb);
        f.prev_bb = Some(from);
        f.bb = to;
        f.ip = 0;
        if to <= from && headers.get(to).copied().unwrap_or(false) {
            self.loop_visits.bump((fidx, to));
            return true;
        }
        false
    }
    /// Adds a constraint to the path (constants are checked, not added).
    pub fn constrain(&mut self, c: Term) {
        if crate::term::as_bool(&c) != Some(true) {
            self.path.push(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Trail;

    #[test]
    fn a_trail_keeps_each_edge_once_and_the_last_one() {
        let mut t = Trail::default();
        for i in 0..1000 {
            t.push((0, 1, i % 2));
            t.push((0, 2, 0));
        }
        t.push((0, 1, 1));
        let mut edges: Vec<_> = t.edges().copied().collect();
        edges.sort();
        assert_eq!(edges, [(0, 1, 0), (0, 1, 1), (0, 2, 0)]);
        assert_eq!(t.last(), Some(&(0, 1, 1)));
    }
}
