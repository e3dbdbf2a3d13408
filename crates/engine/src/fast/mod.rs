//! The concrete fast path: instructions whose operands are all concrete
//! run on machine values, without building terms.
//!
//! Each function is decoded once, when a state first enters it on this
//! path: registers become slot indices (see [`crate::state::Regs`]),
//! constants machine values, types widths and byte sizes, branch targets
//! block indices; each block's instructions are also kept in a compact
//! form for their common case (`KOp`, run by `kernel`). Then [`run`]
//! executes a state's instructions until one is not *plain*, and the
//! executor ([`crate::exec::Exec::step`]) takes over for that one. Plain
//! means that the result is the same as the executor's and nothing else
//! would have happened there:
//!
//! - every operand is a machine value (a concrete integer of at most 64
//!   bits, a binary32 or binary64 value that is not NaN), except that a
//!   `select` of a concrete condition, a phi and a call argument move any
//!   value;
//! - floating-point arithmetic in round-to-nearest-even whose result is
//!   not NaN (host arithmetic is IEEE 754's there; fpsym's NaN has its own
//!   encoding); integer division with a nonzero divisor, and no INT_MIN / -1;
//!   conversions to integers in range;
//! - loads and stores within a live object of a concrete size, reading
//!   bytes that are all concrete;
//! - calls of functions whose body runs (no user hook, no model, not
//!   variadic), returns to a caller, and branches on a concrete condition;
//! - no checker may report at the instruction ([`Checker::may_check`], asked
//!   with the operands' values), no observer watches (the fast path is off
//!   then, unless every observer allows it:
//!   [`crate::plugin::Observer::fast_path_ok`]), and no oracle chooses
//!   branch sides (branches go to the executor then, unless the oracle
//!   allows it: [`crate::plugin::BranchOracle::fast_path_ok`]).
//!
//! Anything else (symbolic operands, NaN, other rounding modes, formats
//! other than binary32/binary64, vectors and aggregates, the instructions
//! not listed) goes to the executor, instruction by instruction, and the
//! fast path resumes after it. So the fast path changes the speed of a
//! run, never its result.

use crate::checkers::Checker;
use crate::hooks::{self, Resolution};
use crate::layout::fp_format;
use crate::memory::{Cell, Memory};
use crate::prog::{Callee, Prog};
use crate::state::{Frame, Loc, Regs, Slot, SlotsMut, State};
use crate::Config;
use fpsym_expr::{BvValue, Term, Value};
use fpsym_float::{Float, Format, RoundingMode};
use llvm_ir::predicates::{FPPredicate, IntPredicate};
use llvm_ir::{Constant, Instruction, Name, Operand, Terminator, Type};
use std::collections::HashMap;
use std::sync::Arc;

/// Decoded functions of one run, made on first use.
#[derive(Default)]
pub struct Fast {
    funcs: Vec<Option<FFunc>>,
    /// A block's phis' values (in the block's order), all read before
    /// any is written: kept between blocks so that entering one does not
    /// allocate.
    staged: Vec<Slot>,
    /// Register storage of returned frames, for the next calls.
    storage: Vec<Vec<Slot>>,
    /// Lite activations (see [`Lite`]): those of a chunk, then kept for
    /// the next calls at their depth.
    lite: Vec<Lite>,
    /// The registers of a call run whole at once (see [`run_call`]).
    leaf: Regs,
}

/// Returned frames' register storage kept for reuse.
const STORAGE_KEPT: usize = 64;

/// What [`run`] needs of the run.
pub struct Cx<'a, 'p> {
    /// The program.
    pub prog: &'a Prog<'p>,
    /// Options (hooks, call depth, loop bound).
    pub config: &'a Config,
    /// Global variable addresses.
    pub globals: &'a HashMap<String, u64>,
    /// The run's checkers.
    pub checkers: &'a [Box<dyn Checker>],
    /// Branches may be taken here (no oracle chooses sides).
    pub branches: bool,
    /// Terminators may be executed here (no checker looks at them, nor
    /// at returns).
    pub terminators: bool,
}

/// An operand: a register's slot or a constant.
#[derive(Clone, Debug)]
enum Src {
    Reg(u32),
    Int(u64, u32),
    F32(f32),
    F64(f64),
    /// A float of another format (not NaN), boxed: the common operands
    /// stay small.
    Flt(Box<Float>),
}

#[derive(Clone, Copy, Debug)]
enum IOp {
    Add,
    Sub,
    Mul,
    And,
    Or,
    Xor,
    Shl,
    LShr,
    AShr,
    UDiv,
    SDiv,
    URem,
    SRem,
}

#[derive(Clone, Copy, Debug)]
enum FOp {
    Add,
    Sub,
    Mul,
    Div,
}

/// How a value sits in memory.
#[derive(Clone, Copy, Debug)]
enum Mem {
    /// An integer of this width (or a pointer, 64), in `width.div_ceil(8)` bytes.
    Int(u32),
    F32,
    F64,
    /// Another float format (x86_fp80, binary128, binary16, bfloat16).
    Flt(Format),
}

#[derive(Clone, Copy, Debug)]
enum Conv {
    /// trunc, zext, ptrtoint, inttoptr to this width.
    Zext(u32),
    Sext(u32),
    /// Any value, unchanged (freeze, addrspacecast, pointer bitcasts).
    Move,
    IntToF32 {
        signed: bool,
    },
    IntToF64 {
        signed: bool,
    },
    FToInt {
        signed: bool,
        w: u32,
    },
    F32ToF64,
    F64ToF32,
    /// Between other float formats (or into or out of one): fpsym's
    /// soft-float, in the current rounding mode.
    ToFormat(Format),
    /// Bit pattern to float.
    BitsToF32,
    BitsToF64,
    /// Float to its bit pattern.
    FToBits,
}

#[derive(Clone, Debug)]
enum Op {
    Slow,
    Nop,
    IBin {
        op: IOp,
        w: u32,
        a: Src,
        b: Src,
    },
    /// [`Op::IBin`] of two registers: the common shapes are read without
    /// matching their operands.
    IBinRR {
        op: IOp,
        w: u32,
        a: u32,
        b: u32,
    },
    /// [`Op::IBin`] of a register and a constant (`add %i, 1`).
    IBinRC {
        op: IOp,
        w: u32,
        a: u32,
        c: u64,
    },
    /// [`Op::ICmp`] of two registers.
    ICmpRR {
        p: IntPredicate,
        w: u32,
        a: u32,
        b: u32,
    },
    /// [`Op::ICmp`] of a register and a constant (`icmp slt %i, 100`).
    ICmpRC {
        p: IntPredicate,
        w: u32,
        a: u32,
        c: u64,
    },
    ICmp {
        p: IntPredicate,
        /// The operands' width.
        w: u32,
        a: Src,
        b: Src,
    },
    FBin {
        op: FOp,
        /// The operands' format.
        m: Mem,
        a: Src,
        b: Src,
    },
    FNeg {
        a: Src,
    },
    FCmp {
        p: FPPredicate,
        a: Src,
        b: Src,
    },
    Conv {
        c: Conv,
        a: Src,
    },
    Select {
        c: Src,
        a: Src,
        b: Src,
    },
    Gep {
        base: Src,
        offset: u64,
        scaled: Vec<(Src, u64)>,
    },
    Load {
        addr: Src,
        m: Mem,
    },
    Store {
        v: Src,
        addr: Src,
        m: Mem,
    },
    Call {
        callee: usize,
        args: Vec<Src>,
        /// The callee's entry block returns ([`run_call`] may run it).
        returns: bool,
        loc: Option<std::sync::Arc<Loc>>,
    },
}

#[derive(Clone, Debug)]
struct FInst {
    op: Op,
    /// The index of the next instruction to run after this one: the
    /// next, or past the no-ops that follow it (each still counted as
    /// run, as the executor runs it), where no checker looks at them.
    next: u32,
    /// The result's slot (unused without a result).
    dest: u32,
    /// Some checker may report here: it is asked with the operands.
    /// Which checkers may report here (bit k: checker k; bit 63 also
    /// stands for every later one): they are asked with the operands.
    checked: u64,
}

/// An explicit tag (`repr(u8)`): read with one load, where the niche
/// in a `Vec` took a decoding at every terminator.
#[derive(Clone, Debug)]
#[repr(u8)]
enum FTerm {
    Slow,
    Br(usize),
    CondBr {
        c: Src,
        t: usize,
        f: usize,
    },
    /// A switch over an integer of at most 64 bits: the case values
    /// (masked to the width) with their blocks, then the default block.
    Switch {
        c: Src,
        cases: Vec<(u64, usize)>,
        default: usize,
    },
    Ret(Option<Src>),
}

#[derive(Clone, Debug)]
struct FBlock {
    /// Phis: (slot, incoming value per predecessor block index).
    phis: Vec<(u32, Vec<(usize, Src)>)>,
    instrs: Vec<FInst>,
    term: FTerm,
    /// The terminator's edges, in the executor's trail order: a branch's
    /// true then false side, a switch's cases then its default, a jump's
    /// one target.
    edges: Vec<FEdge>,
    /// The instructions after the phis in the form [`kernel`] runs (the
    /// no-ops left out), each with its index in `instrs`.
    kops: Vec<(KOp, u32)>,
    /// For each index in `instrs` from the first after the phis, the
    /// index in `kops` of the instruction run there (past no-ops).
    kidx: Vec<u32>,
}

/// An instruction as [`kernel`] runs it: the common operations with
/// their result's slot (each has one), read without matching operand
/// kinds; any other plain one through [`exec_op`].
#[derive(Clone, Copy, Debug)]
enum KOp {
    /// The common integer operations of two registers, one variant each:
    /// the kernel dispatches once.
    AddRR(RR),
    SubRR(RR),
    MulRR(RR),
    AndRR(RR),
    OrRR(RR),
    XorRR(RR),
    /// The same of a register and a constant.
    AddRC(RC),
    SubRC(RC),
    MulRC(RC),
    AndRC(RC),
    OrRC(RC),
    XorRC(RC),
    /// Any other integer operation (shifts, divisions) of two registers.
    IBinRR {
        op: IOp,
        w: u32,
        d: u32,
        a: u32,
        b: u32,
    },
    IBinRC {
        op: IOp,
        w: u32,
        d: u32,
        a: u32,
        c: u64,
    },
    ICmpRR {
        p: IntPredicate,
        w: u32,
        d: u32,
        a: u32,
        b: u32,
    },
    ICmpRC {
        p: IntPredicate,
        w: u32,
        d: u32,
        a: u32,
        c: u64,
    },
    /// `zext`/`trunc` (`signed` false) or `sext` of a register to `to` bits.
    Ext {
        signed: bool,
        to: u32,
        d: u32,
        a: u32,
    },
    /// binary64 `a op b` of registers, or of a register and a constant
    /// (`F64RC`: `a op c`; `F64CR`: `c op b`), in round-to-nearest-even
    /// (other rounding modes through [`exec_op`]).
    F64RR {
        op: FOp,
        d: u32,
        a: u32,
        b: u32,
    },
    F64RC {
        op: FOp,
        d: u32,
        a: u32,
        c: f64,
    },
    F64CR {
        op: FOp,
        d: u32,
        c: f64,
        b: u32,
    },
    /// `sitofp`/`uitofp` of an integer register to binary64 (in
    /// round-to-nearest-even; other modes through [`exec_op`]).
    IToF64 {
        signed: bool,
        d: u32,
        a: u32,
    },
    /// A load of a value of class `m` (not [`Mem::Flt`]) from the
    /// address in register `a`; `Load1`, `Load4` and `Load8` for the
    /// classes of 1, 4 and 8 bytes (no dispatch on the class to reach
    /// their body).
    Load {
        m: Mem,
        d: u32,
        a: u32,
    },
    Load1 {
        m: Mem,
        d: u32,
        a: u32,
    },
    Load4 {
        m: Mem,
        d: u32,
        a: u32,
    },
    Load8 {
        m: Mem,
        d: u32,
        a: u32,
    },
    /// A store of register `v`'s value as class `m` (not [`Mem::Flt`])
    /// at the address in register `a`; `Store1`, `Store4` and `Store8`
    /// as for loads.
    Store {
        m: Mem,
        v: u32,
        a: u32,
    },
    Store1 {
        m: Mem,
        v: u32,
        a: u32,
    },
    Store4 {
        m: Mem,
        v: u32,
        a: u32,
    },
    Store8 {
        m: Mem,
        v: u32,
        a: u32,
    },
    /// `getelementptr` of register `base`: `base + offset`, plus
    /// register `idx` (sign-extended) times `size` unless `idx` is
    /// [`u32::MAX`].
    Gep {
        d: u32,
        base: u32,
        offset: u64,
        idx: u32,
        size: u64,
    },
    /// The instruction, through [`exec_op`].
    Inst,
    /// A call, an instruction that is not plain, or one a checker may
    /// look at: [`kernel`] stops before it.
    Stop,
}

/// The operands of a [`KOp`] integer operation of two registers `a` and
/// `b`, its result `d`, of `w` bits (`m`: their mask).
#[derive(Clone, Copy, Debug)]
struct RR {
    w: u32,
    d: u32,
    a: u32,
    b: u32,
    m: u64,
}

/// The operands of a [`KOp`] integer operation of register `a` and
/// constant `c`, its result `d`, of `w` bits (`m`: their mask).
#[derive(Clone, Copy, Debug)]
struct RC {
    w: u32,
    d: u32,
    a: u32,
    m: u64,
    c: u64,
}

/// A jump from one block to another, with what entering the target
/// takes: its phis' values for this edge, and whether it is a loop's
/// back edge.
#[derive(Clone, Debug)]
struct FEdge {
    to: usize,
    /// The target is a loop header at or above the source (as
    /// `State::enter_block` counts a repetition).
    back: bool,
    /// The target's phis, (slot, value) for this edge; None when one is
    /// left to the executor (no decoded value, no slot).
    moves: Option<Vec<(u32, Src)>>,
    /// No move's value is another of the target's phis: each may be
    /// written as soon as it is read.
    independent: bool,
}

#[derive(Clone, Debug)]
struct FFunc {
    names: std::sync::Arc<crate::state::RegNames>,
    blocks: Vec<FBlock>,
    /// Above every slot its blocks' kernel operations and phi moves
    /// name ([`decode::slot_bound`]): [`Bounded`] views of its registers
    /// hold at least this many.
    slots: usize,
}

/// A register file's slots as [`kernel`] and [`phi_moves`] read and
/// write them, without a bounds check at each access (they were a
/// twentieth of a concrete loop's instructions). A view is made only
/// over at least as many slots as the bound of the operations it serves
/// ([`FFunc::slots`], from [`decode::slot_bound`]), and is given only
/// slot numbers those operations hold, which are below it.
struct Bounded<'s>(&'s mut [Slot]);

impl<'s> Bounded<'s> {
    /// The view of `s` for operations whose slots are below `bound`;
    /// None when `s` has fewer slots.
    #[inline(always)]
    fn new(s: &'s mut [Slot], bound: usize) -> Option<Bounded<'s>> {
        (s.len() >= bound).then_some(Bounded(s))
    }
}

impl SlotsMut for Bounded<'_> {
    #[inline(always)]
    fn at(&self, k: u32) -> &Slot {
        debug_assert!((k as usize) < self.0.len(), "slot {k} of {}", self.0.len());
        // SAFETY: `k` is a slot of a decoded operation, below the bound
        // `Bounded::new` checked the slice against (see the type).
        unsafe { self.0.get_unchecked(k as usize) }
    }
    #[inline(always)]
    fn at_mut(&mut self, k: u32) -> &mut Slot {
        debug_assert!((k as usize) < self.0.len(), "slot {k} of {}", self.0.len());
        // SAFETY: as in `at`.
        unsafe { self.0.get_unchecked_mut(k as usize) }
    }
}

/// `x`'s low `w` bits (`w` from 1 to 64), without a branch.
#[inline(always)]
fn mask(x: u64, w: u32) -> u64 {
    debug_assert!((1..=64).contains(&w));
    x & (u64::MAX >> (64 - w))
}

/// The `w`-bit value `x` (`w` from 1 to 64) sign-extended, without a branch.
#[inline(always)]
fn sext(x: u64, w: u32) -> i64 {
    debug_assert!((1..=64).contains(&w));
    ((x << (64 - w)) as i64) >> (64 - w)
}

/// The machine value of a slot, as an operand.
#[derive(Clone, Debug)]
enum M {
    Int(u64, u32),
    F32(f32),
    F64(f64),
    Flt(Box<Float>),
}

impl M {
    fn value(self) -> Value {
        match self {
            M::Int(x, w) => Value::Bv(BvValue::new(w, x as u128)),
            M::F32(x) => Value::Fp(Float::from_f32(x)),
            M::F64(x) => Value::Fp(Float::from_f64(x)),
            M::Flt(f) => Value::Fp(*f),
        }
    }
    fn float(self) -> Option<Float> {
        match self {
            M::Int(..) => None,
            M::F32(x) => Some(Float::from_f32(x)),
            M::F64(x) => Some(Float::from_f64(x)),
            M::Flt(f) => Some(*f),
        }
    }
}

mod calls;
mod decode;
mod eval;
#[cfg(test)]
mod tests;

use calls::{call_before, run_call, Acts, Calls, Lite, Run};
use decode::Decoder;
use eval::{exec_op, quiet, read_slot};

/// Why [`blocks`] stopped.
enum Next {
    /// The chunk ends (a budget, a loop bound, an instruction that is not plain).
    Exit,
    /// The instruction at the running activation's `ip` is a call to
    /// this function, not decoded yet.
    Decode(usize),
    /// The terminator is a return from the top frame.
    Ret,
}

/// Executes plain instructions of `st`, at most `step_budget` steps and
/// `instr_budget` instructions; returns how many instructions and steps
/// ran. A step is what one [`crate::exec::Exec::step`] executes: one
/// instruction, or all the phis at a block's head (each counted as an
/// instruction). Stops before the first instruction that is not plain,
/// and after a jump back to a loop header when the run has a loop bound
/// (the engine checks it).
///
/// The running activation's position is kept in locals (see
/// `blocks`), and calls push no [`Frame`] until the chunk ends inside
/// them (see `Lite`).
pub fn run(fast: &mut Fast, cx: &Cx<'_, '_>, st: &mut State, step_budget: u64, instr_budget: u64) -> (u64, u64) {
    if fast.funcs.len() != cx.prog.funcs.len() {
        fast.funcs = vec![None; cx.prog.funcs.len()];
    }
    if st.split_at.is_some() || st.frames.is_empty() {
        return (0, 0);
    }
    let Fast {
        funcs,
        staged,
        storage,
        lite,
        leaf,
    } = fast;
    let State {
        frames,
        mem,
        trail,
        loop_visits,
        rm,
        ..
    } = st;
    let env = Env {
        cx,
        bound: cx.config.limits.loop_bound.is_some(),
        rm: *rm,
    };
    let decode = |funcs: &mut Vec<Option<FFunc>>, fidx: usize| {
        if funcs[fidx].is_none() {
            let d = Decoder {
                cx,
                fidx,
                names: &cx.prog.reg_names[fidx],
            };
            funcs[fidx] = Some(d.function());
        }
    };
    // Lite activations above the top frame (`lite[..depth]`).
    let mut depth = 0usize;
    let mut count = Count {
        done: 0,
        steps: 0,
        step_budget,
        instr_budget,
    };
    'frames: while count.steps < step_budget && count.done < instr_budget {
        let top = frames.len() - 1;
        if depth == 0 {
            let f = &frames[top];
            decode(funcs, f.func);
            let names = &funcs[f.func].as_ref().expect("decoded").names;
            if !Arc::ptr_eq(names, f.regs.names()) {
                break;
            }
        }
        let n = frames.len();
        let acts = Acts {
            frame: &mut frames[top],
            lite,
            depth,
            frames: n,
        };
        let (next, d) = blocks(&env, funcs, acts, mem, trail, loop_visits, staged, leaf, &mut count);
        depth = d;
        match next {
            Next::Exit => break 'frames,
            Next::Decode(callee) => decode(funcs, callee),
            Next::Ret => {
                // From the top frame (lite activations return in `blocks`).
                let f = &frames[top];
                let FTerm::Ret(v) = &funcs[f.func].as_ref().expect("decoded").blocks[f.bb].term else {
                    unreachable!("Next::Ret stops at a return")
                };
                if frames.len() < 2 {
                    break 'frames;
                }
                let v = match v {
                    Some(s) => {
                        let v = read_slot(&f.regs, s);
                        if v == Slot::Empty {
                            break 'frames;
                        }
                        Some(v)
                    }
                    None => None,
                };
                // The frame is dropped where it is (moving it out copies
                // it), after what is needed is taken.
                let frame = &mut frames[top];
                for a in frame.allocas.iter().chain(&frame.va_areas) {
                    mem.kill(*a);
                }
                let (ret_slot, ret_dest) = (frame.ret_slot, frame.ret_dest.take());
                if storage.len() < STORAGE_KEPT {
                    // Its slots are emptied when it is used again
                    // (`Regs::with_storage`), in the same pass that fills it.
                    storage.push(frame.regs.take_storage());
                }
                frames.truncate(top);
                if let Some(v) = v {
                    let f = frames.last_mut().expect("a caller");
                    if ret_slot != u32::MAX {
                        f.regs.set_slot(ret_slot, v);
                    } else if let Some(d) = ret_dest {
                        match f.regs.names().slot(&d) {
                            Some(k) => f.regs.set_slot(k, v),
                            None => f.regs.insert(d, v.val().expect("a written value")),
                        }
                    }
                }
                count.done += 1;
                count.steps += 1;
            }
        }
    }
    // Lite activations the chunk ends in become frames, in call order.
    for k in 0..depth {
        let inst = call_before(funcs, frames, lite, k);
        let Op::Call { loc, .. } = &inst.op else {
            unreachable!("a lite activation's caller stands after a call")
        };
        let (ret_slot, call_site) = (inst.dest, loc.clone());
        let l = &mut lite[k];
        let regs = std::mem::take(&mut l.regs);
        frames.push(Frame {
            bb: l.bb,
            ip: l.ip,
            prev_bb: l.prev,
            ret_slot,
            call_site,
            ..Frame::new(l.func, regs)
        });
    }
    // The bytes stored here go to the cells before anyone else reads them.
    mem.flush_shadows();
    (count.done, count.steps)
}

/// What [`blocks`] needs that stays the same in a chunk.
struct Env<'e, 'a, 'p> {
    cx: &'e Cx<'a, 'p>,
    /// The run has a loop bound (a jump back to a loop header ends the chunk).
    bound: bool,
    rm: RoundingMode,
}

/// Why an activation's blocks stopped running ([`blocks`] within).
enum Stop {
    /// The chunk ends.
    Exit,
    /// The instruction at `ip` is a call.
    Call,
    /// The instruction at `ip` is a call that [`run_call`] ran up to this
    /// index of its callee's entry block.
    Inside(usize),
    /// The terminator is a return.
    Ret,
}

/// Instructions and steps run, and their budgets.
struct Count {
    done: u64,
    steps: u64,
    step_budget: u64,
    instr_budget: u64,
}

/// Runs blocks from the running activation's position (phis,
/// instructions, terminator, one block after another), and the calls
/// and returns of lite activations, until a return from the top frame,
/// a call to a function not decoded yet, or the end of the chunk; each
/// activation's position is left where it stopped, and the depth is
/// returned. The running activation's position and the counts are
/// locals here, written back when it changes and at the end.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn blocks(
    env: &Env<'_, '_, '_>,
    funcs: &[Option<FFunc>],
    mut acts: Acts<'_>,
    mem: &mut Memory,
    trail: &mut crate::state::Trail,
    visits: &mut crate::state::LoopVisits,
    staged: &mut Vec<Slot>,
    leaf: &mut Regs,
    n: &mut Count,
) -> (Next, usize) {
    let Env { cx, bound, rm } = *env;
    let (terminators, branches) = (cx.terminators, cx.branches);
    let (mut fidx, mut bb, mut ip, mut prev) = acts.pos(acts.depth);
    // Steps, and the instructions beyond one per step (a block's phis
    // are one step): the budgets come to one limit on steps.
    let (mut steps, mut extra) = (n.steps, n.done - n.steps);
    let (step_budget, instr_budget) = (n.step_budget, n.instr_budget);
    let limit_of = |extra: u64| step_budget.min(instr_budget.saturating_sub(extra));
    let mut limit = limit_of(extra);
    let next = 'acts: loop {
        let func = funcs[fidx].as_ref().expect("decoded");
        let depth = acts.depth;
        // A call made here stays within the call depth limit.
        let below_limit = acts.frames + depth < cx.config.limits.max_call_depth;
        // Calls may be run whole here (by `run_call`): below the limit,
        // with returns executed on the fast path.
        let mut calls = Calls {
            funcs,
            leaf: &mut *leaf,
            ok: terminators && below_limit,
        };
        let regs = acts.regs(depth);
        let stop = loop {
            if steps >= limit {
                break Stop::Exit;
            }
            let block = &func.blocks[bb];
            // Phis, all read on entry, then written.
            if ip == 0 && !block.phis.is_empty() {
                let Some(p) = prev else { break Stop::Exit };
                // The moves of the edge from `p` (whose terminator may be
                // the executor's: entered from outside the fast path).
                let Some(edge) = func.blocks[p].edges.iter().find(|e| e.to == bb) else {
                    break Stop::Exit;
                };
                let Some(moves) = &edge.moves else { break Stop::Exit };
                if !phi_moves(moves, edge.independent, regs, func.slots, staged) {
                    break Stop::Exit;
                }
                let k = block.phis.len();
                ip = k;
                steps += 1;
                extra += k as u64 - 1;
                limit = limit_of(extra);
                if steps >= limit {
                    break Stop::Exit;
                }
            }
            // The block's instructions in their common form, up to a call or
            // one that is not, when the budgets leave room for all of them.
            if let Some(&j) = block.kidx.get(ip.wrapping_sub(block.phis.len())) {
                let room = limit - steps;
                if (block.instrs.len() - ip) as u64 <= room {
                    let start = ip;
                    ip = kernel(regs, mem, rm, &block.kops[j as usize..], func.slots, &block.instrs);
                    steps += (ip - start) as u64;
                    // Stopped at a call: run whole here when it can be, and
                    // the block goes on after it (the call a step, then
                    // the callee's); else made below (what `straight`
                    // would do first is to stop there too).
                    if ip < block.instrs.len() && matches!(block.instrs[ip].op, Op::Call { .. }) {
                        // (One a checker may look at is asked there.)
                        let inst = &block.instrs[ip];
                        if inst.checked != 0 || !matches!(inst.op, Op::Call { returns: true, .. }) {
                            break Stop::Call;
                        }
                        match run_call(&mut calls, limit - steps, regs, mem, rm, inst) {
                            Run::Whole(n) => {
                                steps += 1 + n;
                                ip += 1;
                                continue;
                            }
                            Run::Not => break Stop::Call,
                            Run::Inside(end) => {
                                steps += 1 + end as u64;
                                break Stop::Inside(end);
                            }
                        }
                    }
                }
            }
            if ip < block.instrs.len() {
                // The block's straight-line instructions, in one go, as
                // many as the budgets leave.
                let room = limit - steps;
                let end = block
                    .instrs
                    .len()
                    .min(ip.saturating_add(room.try_into().unwrap_or(usize::MAX)));
                let start = ip;
                loop {
                    ip = straight(regs, mem, rm, &block.instrs, ip, end);
                    // Stopped at an instruction a checker may look at: run
                    // when no checker reports with these operands.
                    let Some(inst) = block.instrs[..end].get(ip).filter(|i| i.checked != 0) else {
                        break;
                    };
                    if !quiet(cx, regs, inst, &cx.prog.funcs[fidx].basic_blocks[bb].instrs[ip])
                        || exec_op(regs, mem, rm, inst).is_none()
                    {
                        break;
                    }
                    ip += 1;
                }
                steps += (ip - start) as u64;
                if ip < block.instrs.len() {
                    if ip < end && matches!(block.instrs[ip].op, Op::Call { .. }) {
                        break Stop::Call;
                    }
                    break Stop::Exit;
                }
                if steps >= limit {
                    break Stop::Exit;
                }
            }
            // The terminator.
            if !terminators {
                break Stop::Exit;
            }
            let k = match &block.term {
                FTerm::Slow => break Stop::Exit,
                FTerm::Ret(_) => break Stop::Ret,
                FTerm::Br(_) => 0,
                FTerm::CondBr { c, .. } => {
                    if !branches {
                        break Stop::Exit;
                    }
                    let Some(c) = eval::int(regs, c) else { break Stop::Exit };
                    let k = (c == 0) as usize;
                    trail.push((fidx, bb, k));
                    k
                }
                FTerm::Switch { c, cases, .. } => {
                    if !branches {
                        break Stop::Exit;
                    }
                    let Some(c) = eval::int(regs, c) else { break Stop::Exit };
                    // The executor's trail: the taken case's index, or the
                    // number of cases for the default.
                    let k = cases.iter().position(|(v, _)| *v == c).unwrap_or(cases.len());
                    trail.push((fidx, bb, k));
                    k
                }
            };
            let edge = &block.edges[k];
            steps += 1;
            (prev, bb, ip) = (Some(bb), edge.to, 0);
            // As `State::enter_block`: a jump back to a loop header counts
            // a repetition, and ends the chunk under a loop bound.
            if edge.back {
                visits.bump((fidx, edge.to));
                if bound {
                    break Stop::Exit;
                }
            }
            // The target's phis, as the edge has them.
            let Some(moves) = &edge.moves else { break Stop::Exit };
            if !moves.is_empty() {
                if steps >= limit {
                    break Stop::Exit;
                }
                if !phi_moves(moves, edge.independent, regs, func.slots, staged) {
                    break Stop::Exit;
                }
                ip = moves.len();
                steps += 1;
                extra += ip as u64 - 1;
                limit = limit_of(extra);
            }
        };
        match stop {
            Stop::Exit => break 'acts Next::Exit,
            Stop::Ret if depth == 0 => break 'acts Next::Ret,
            Stop::Call => {
                // A call at `ip`: into a lite activation.
                let inst = &func.blocks[bb].instrs[ip];
                let Op::Call { callee, args, .. } = &inst.op else {
                    unreachable!("stopped at a call")
                };
                let llvm = || &cx.prog.funcs[fidx].basic_blocks[bb].instrs[ip];
                // (A call whose result has no slot is decoded slow.)
                if !below_limit {
                    break 'acts Next::Exit;
                }
                if inst.checked != 0 && !quiet(cx, acts.regs(depth), inst, llvm()) {
                    break 'acts Next::Exit;
                }
                let Some(callee_func) = &funcs[*callee] else {
                    break 'acts Next::Decode(*callee);
                };
                let d = acts.depth;
                if !acts.call(*callee, &callee_func.names, args, inst.dest) {
                    break 'acts Next::Exit;
                }
                acts.set_pos(d, bb, ip + 1, prev);
                (fidx, bb, ip, prev) = (*callee, 0, 0, None);
                steps += 1;
            }
            Stop::Inside(end) => {
                // The call at `ip`, run by the kernel up to `end` of its
                // callee: into a lite activation there.
                let inst = &func.blocks[bb].instrs[ip];
                let Op::Call { callee, .. } = &inst.op else {
                    unreachable!("stopped in a call")
                };
                let f = funcs[*callee].as_ref().expect("run, so decoded");
                let d = acts.depth;
                if !acts.enter_at(f, inst, *callee, leaf, end) {
                    unreachable!("the arguments were read before the callee ran");
                }
                acts.set_pos(d, bb, ip + 1, prev);
                (fidx, bb, ip, prev) = (*callee, 0, end, None);
            }
            Stop::Ret => {
                let FTerm::Ret(v) = &func.blocks[bb].term else {
                    unreachable!("stopped at a return")
                };
                if !acts.ret(v.as_ref()) {
                    break 'acts Next::Exit;
                }
                (fidx, bb, ip, prev) = acts.pos(acts.depth);
                steps += 1;
            }
        }
    };
    acts.set_pos(acts.depth, bb, ip, prev);
    (n.done, n.steps) = (steps + extra, steps);
    (next, acts.depth)
}
/// Executes `instrs[ip..end]` in order while each is plain and no checker
/// looks at it; returns where it stopped. The no-ops after an
/// instruction (`llvm.dbg.*` calls) are passed over with it.
#[inline(always)]
fn straight(regs: &mut Regs, mem: &mut Memory, rm: RoundingMode, instrs: &[FInst], mut ip: usize, end: usize) -> usize {
    while ip < end {
        let inst = &instrs[ip];
        // One dispatch: `exec_op` does nothing for a no-op and leaves
        // calls and slow instructions (None).
        if inst.checked != 0 || exec_op(regs, mem, rm, inst).is_none() {
            break;
        }
        ip = (inst.next as usize).min(end);
    }
    ip
}

/// Runs `kops` (the rest of a block's, see [`FBlock::kops`]) in order
/// while each is plain; returns the index in `instrs` where it stopped
/// (its length: after all of them). `bound` is above every slot `kops`
/// name ([`FFunc::slots`]).
#[inline(always)]
fn kernel(
    regs: &mut Regs,
    mem: &mut Memory,
    rm: RoundingMode,
    kops: &[(KOp, u32)],
    bound: usize,
    instrs: &[FInst],
) -> usize {
    let rne = rm == RoundingMode::NearestTiesToEven;
    let Some(mut s) = Bounded::new(regs.slots_mut(), bound) else {
        return kops.first().map_or(instrs.len(), |(_, ip)| *ip as usize);
    };
    // `a op b` of integer registers, or of a register and a constant
    // (`op` a constant: no dispatch on it).
    macro_rules! rr {
        ($o:ident, $ip:ident, $op:expr) => {{
            let (Slot::Int(x, _), Slot::Int(y, _)) = (s.at($o.a), s.at($o.b)) else {
                return $ip as usize;
            };
            let r = eval::wrapping($op, *x, *y) & $o.m;
            s.set_int($o.d, r, $o.w)
        }};
    }
    macro_rules! rc {
        ($o:ident, $ip:ident, $op:expr) => {{
            let Slot::Int(x, _) = s.at($o.a) else {
                return $ip as usize;
            };
            let r = eval::wrapping($op, *x, $o.c) & $o.m;
            s.set_int($o.d, r, $o.w)
        }};
    }
    // A load or store of the address in register `a` through `f`.
    macro_rules! load {
        ($ip:ident, $m:ident, $d:ident, $a:ident, |$mem:ident, $x:ident| $f:expr) => {{
            let Slot::Int($x, _) = s.at($a) else {
                return $ip as usize;
            };
            let ($mem, $x) = (&mut *mem, *$x);
            if $f.and_then(|b| eval::put_loaded(&mut s, $d, $m, b)).is_none() {
                return $ip as usize;
            }
        }};
    }
    macro_rules! store {
        ($ip:ident, $m:ident, $v:ident, $a:ident, |$mem:ident, $x:ident, $bits:ident, $class:ident| $f:expr) => {{
            let Slot::Int($x, _) = s.at($a) else {
                return $ip as usize;
            };
            let ($mem, $x) = (&mut *mem, *$x);
            if eval::reg_bits(&s, $m, $v).and_then(|($bits, $class)| $f).is_none() {
                return $ip as usize;
            }
        }};
    }
    for (k, ip) in kops {
        let ip = *ip;
        match *k {
            KOp::AddRR(o) => rr!(o, ip, IOp::Add),
            KOp::SubRR(o) => rr!(o, ip, IOp::Sub),
            KOp::MulRR(o) => rr!(o, ip, IOp::Mul),
            KOp::AndRR(o) => rr!(o, ip, IOp::And),
            KOp::OrRR(o) => rr!(o, ip, IOp::Or),
            KOp::XorRR(o) => rr!(o, ip, IOp::Xor),
            KOp::AddRC(o) => rc!(o, ip, IOp::Add),
            KOp::SubRC(o) => rc!(o, ip, IOp::Sub),
            KOp::MulRC(o) => rc!(o, ip, IOp::Mul),
            KOp::AndRC(o) => rc!(o, ip, IOp::And),
            KOp::OrRC(o) => rc!(o, ip, IOp::Or),
            KOp::XorRC(o) => rc!(o, ip, IOp::Xor),
            KOp::IBinRR { op, w, d, a, b } => match eval::ibin_rr(&s, op, w, a, b) {
                Some(r) => s.set_int(d, r, w),
                None => return ip as usize,
            },
            KOp::IBinRC { op, w, d, a, c } => match eval::ibin_rc(&s, op, w, a, c) {
                Some(r) => s.set_int(d, r, w),
                None => return ip as usize,
            },
            KOp::ICmpRR { p, w, d, a, b } => match eval::icmp_rr(&s, p, w, a, b) {
                Some(r) => s.set_int(d, r as u64, 1),
                None => return ip as usize,
            },
            KOp::ICmpRC { p, w, d, a, c } => match eval::icmp_rc(&s, p, w, a, c) {
                Some(r) => s.set_int(d, r as u64, 1),
                None => return ip as usize,
            },
            KOp::Ext { signed, to, d, a } => match eval::ext(&s, signed, to, a) {
                Some(r) => s.set_int(d, r, to),
                None => return ip as usize,
            },
            KOp::F64RR { op, d, a, b } if rne => match (eval::f64_reg(&s, a), eval::f64_reg(&s, b)) {
                (Some(x), Some(y)) => match eval::fbin64(op, x, y) {
                    Some(r) => s.set_f64(d, r),
                    None => return ip as usize,
                },
                _ => return ip as usize,
            },
            KOp::F64RC { op, d, a, c } if rne => match eval::f64_reg(&s, a).and_then(|x| eval::fbin64(op, x, c)) {
                Some(r) => s.set_f64(d, r),
                None => return ip as usize,
            },
            KOp::F64CR { op, d, c, b } if rne => match eval::f64_reg(&s, b).and_then(|y| eval::fbin64(op, c, y)) {
                Some(r) => s.set_f64(d, r),
                None => return ip as usize,
            },
            KOp::IToF64 { signed, d, a } if rne => match s.at(a) {
                Slot::Int(x, w) => {
                    let r = eval::int_to_f64(*x, *w, signed);
                    s.set_f64(d, r)
                }
                _ => return ip as usize,
            },
            KOp::Load { m, d, a } => load!(ip, m, d, a, |mem, x| eval::load_bits(mem, x, m)),
            KOp::Load1 { m, d, a } => load!(ip, m, d, a, |mem, x| eval::load1(mem, x, m)),
            KOp::Load4 { m, d, a } => load!(ip, m, d, a, |mem, x| eval::load4(mem, x, m)),
            KOp::Load8 { m, d, a } => load!(ip, m, d, a, |mem, x| eval::load8(mem, x, m)),
            KOp::Store { m, v, a } => store!(ip, m, v, a, |mem, x, bits, class| eval::store_bits(
                mem, x, m, bits, class
            )),
            KOp::Store1 { m, v, a } => store!(ip, m, v, a, |mem, x, bits, class| eval::store1(mem, x, bits, class)),
            KOp::Store4 { m, v, a } => store!(ip, m, v, a, |mem, x, bits, class| eval::store4(mem, x, bits, class)),
            KOp::Store8 { m, v, a } => store!(ip, m, v, a, |mem, x, bits, class| eval::store8(mem, x, bits, class)),
            KOp::Gep {
                d,
                base,
                offset,
                idx,
                size,
            } => {
                let Slot::Int(x, _) = s.at(base) else {
                    return ip as usize;
                };
                let mut addr = x.wrapping_add(offset);
                if idx != u32::MAX {
                    match eval::scaled_index(&s, idx, size) {
                        Some(y) => addr = addr.wrapping_add(y),
                        None => return ip as usize,
                    }
                }
                s.set_int(d, addr, 64);
            }
            KOp::Stop => return ip as usize,
            // Other instructions, and the float ones in other rounding modes.
            _ => {
                if exec_op(regs, mem, rm, &instrs[ip as usize]).is_none() {
                    return ip as usize;
                }
                // Registers are never removed: the view holds again (else
                // the kernel stops after the instruction).
                s = match Bounded::new(regs.slots_mut(), bound) {
                    Some(v) => v,
                    None => return instrs[ip as usize].next as usize,
                };
            }
        }
    }
    instrs.len()
}

/// Writes phis' values (slot, value): all read, then written (as soon as
/// each is read when `independent`: no value is another's slot). False
/// (perhaps some written, as the executor would write them again) when
/// one has no value yet. `bound` is above every slot they name
/// ([`FFunc::slots`]).
#[inline(always)]
fn phi_moves(moves: &[(u32, Src)], independent: bool, regs: &mut Regs, bound: usize, staged: &mut Vec<Slot>) -> bool {
    if independent {
        let Some(mut s) = Bounded::new(regs.slots_mut(), bound) else {
            return false;
        };
        for (dest, v) in moves {
            let complete = match v {
                Src::Reg(k) => s.copy_slot(*k, *dest),
                c => {
                    s.set_slot(*dest, eval::constant(c));
                    true
                }
            };
            if !complete {
                return false;
            }
        }
        return true;
    }
    staged.clear();
    for (_, s) in moves {
        let v = read_slot(regs, s);
        if v == Slot::Empty {
            return false;
        }
        staged.push(v);
    }
    for ((d, _), v) in moves.iter().zip(staged.drain(..)) {
        regs.set_slot(*d, v);
    }
    true
}
