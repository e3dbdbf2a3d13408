//! The concrete fast path: instructions whose operands are all concrete
//! run on machine values, without building terms.
//!
//! Each function is decoded once, when a state first enters it on this
//! path: registers become slot indices (see [`crate::state::Regs`]),
//! constants machine values, types widths and byte sizes, branch targets
//! block indices. Then [`run`] executes a state's instructions until one
//! is not *plain*, and the executor ([`crate::exec::Exec::step`]) takes
//! over for that one. Plain means that the result is the same as the
//! executor's and nothing else would have happened there:
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
use crate::state::{Frame, Loc, Regs, Slot, State};
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

mod decode;
mod eval;
#[cfg(test)]
mod tests;

use decode::Decoder;
use eval::{exec_op, quiet, read_slot};

/// A call the fast path made and has not returned from, kept out of
/// [`State::frames`]: it becomes a [`Frame`] only if the chunk ends
/// inside it (a call whose callee returns within the chunk builds no
/// frame). It never has allocas (an `alloca` goes to the executor, which
/// makes the frame real first). Its caller is the activation below it;
/// the call instruction is the caller's, just before the caller's `ip`
/// ([`call_before`]: the call site a frame made of it records).
struct Lite {
    func: usize,
    bb: usize,
    ip: usize,
    prev: Option<usize>,
    /// The result's slot in the caller ([`u32::MAX`]: none).
    ret: u32,
    regs: Regs,
}

/// Why a function's blocks stopped running.
enum Next {
    /// The chunk ends (a budget, a loop bound, an instruction that is not plain).
    Exit,
    /// The instruction at `ip` is a call.
    Call,
    /// The terminator is a return.
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
/// The running activation's position is kept in locals for a
/// function's blocks, and calls push no [`Frame`] until the chunk ends
/// inside them (see [`Lite`]).
pub fn run(fast: &mut Fast, cx: &Cx<'_, '_>, st: &mut State, step_budget: u64, instr_budget: u64) -> (u64, u64) {
    if fast.funcs.len() != cx.prog.funcs.len() {
        fast.funcs = vec![None; cx.prog.funcs.len()];
    }
    let (mut done, mut steps) = (0u64, 0u64);
    if st.split_at.is_some() || st.frames.is_empty() {
        return (0, 0);
    }
    let Fast {
        funcs,
        staged,
        storage,
        lite,
    } = fast;
    let State {
        frames,
        mem,
        trail,
        loop_visits,
        rm,
        ..
    } = st;
    let rm = *rm;
    // Lite activations above the top frame (`lite[..depth]`).
    let mut depth = 0usize;
    let bound = cx.config.limits.loop_bound.is_some();
    'frames: while steps < step_budget && done < instr_budget {
        let top = frames.len() - 1;
        let (fidx, bb, ip, prev) = match depth {
            0 => {
                let f = &frames[top];
                (f.func, f.bb, f.ip, f.prev_bb)
            }
            d => {
                let l = &lite[d - 1];
                (l.func, l.bb, l.ip, l.prev)
            }
        };
        if funcs[fidx].is_none() {
            let d = Decoder {
                cx,
                fidx,
                names: &cx.prog.reg_names[fidx],
            };
            funcs[fidx] = Some(d.function());
        }
        let func = funcs[fidx].as_ref().expect("decoded");
        if depth == 0 && !Arc::ptr_eq(&func.names, frames[top].regs.names()) {
            break;
        }
        // The function's blocks, one after another, until a call, a
        // return or the end of the chunk.
        let regs = match depth {
            0 => &mut frames[top].regs,
            d => &mut lite[d - 1].regs,
        };
        let mut pos = Pos { bb, ip, prev };
        let mut count = Count {
            done,
            steps,
            step_budget,
            instr_budget,
        };
        let env = Env {
            cx,
            func,
            fidx,
            bound,
            rm,
        };
        let next = blocks(&env, regs, mem, trail, loop_visits, staged, &mut pos, &mut count);
        (done, steps) = (count.done, count.steps);
        let (bb, ip, prev) = (pos.bb, pos.ip, pos.prev);
        match depth {
            0 => {
                let f = &mut frames[top];
                (f.bb, f.ip, f.prev_bb) = (bb, ip, prev);
            }
            d => {
                let l = &mut lite[d - 1];
                (l.bb, l.ip, l.prev) = (bb, ip, prev);
            }
        }
        match next {
            Next::Exit => break 'frames,
            Next::Call => {
                let inst = &func.blocks[bb].instrs[ip];
                let Op::Call { callee, args, .. } = &inst.op else {
                    unreachable!("Next::Call stops at a call")
                };
                let llvm = || &cx.prog.funcs[fidx].basic_blocks[bb].instrs[ip];
                // A result without a slot is the executor's to name.
                if inst.dest == u32::MAX && llvm().try_get_result().is_some() {
                    break 'frames;
                }
                if frames.len() + depth + 1 > cx.config.limits.max_call_depth {
                    break 'frames;
                }
                let caller = match depth {
                    0 => &frames[top].regs,
                    d => &lite[d - 1].regs,
                };
                if inst.checked != 0 && !quiet(cx, caller, inst, llvm()) {
                    break 'frames;
                }
                // The activation's registers: those of the last call at
                // this depth, emptied, when they are numbered alike.
                let names = &cx.prog.reg_names[*callee];
                if lite.len() == depth {
                    lite.push(Lite {
                        func: *callee,
                        bb: 0,
                        ip: 0,
                        prev: None,
                        ret: u32::MAX,
                        regs: Regs::new(names.clone()),
                    });
                } else if Arc::ptr_eq(lite[depth].regs.names(), names) {
                    lite[depth].regs.reset();
                } else {
                    let l = &mut lite[depth];
                    l.regs = Regs::with_storage(names.clone(), l.regs.take_storage());
                }
                let (below, above) = lite.split_at_mut(depth);
                let caller = match depth {
                    0 => &frames[top].regs,
                    d => &below[d - 1].regs,
                };
                let l = &mut above[0];
                let mut complete = true;
                for (k, a) in args.iter().enumerate() {
                    complete &= match a {
                        Src::Reg(j) => l.regs.copy_from(k as u32, caller, *j),
                        a => {
                            l.regs.set_slot(k as u32, read_slot(caller, a));
                            true
                        }
                    };
                }
                if !complete {
                    break 'frames;
                }
                (l.func, l.bb, l.ip, l.prev, l.ret) = (*callee, 0, 0, None, inst.dest);
                match depth {
                    0 => frames[top].ip += 1,
                    d => below[d - 1].ip += 1,
                }
                depth += 1;
                done += 1;
                steps += 1;
            }
            Next::Ret => {
                let FTerm::Ret(v) = &func.blocks[bb].term else {
                    unreachable!("Next::Ret stops at a return")
                };
                if depth == 0 && frames.len() < 2 {
                    break 'frames;
                }
                let regs = match depth {
                    0 => &frames[top].regs,
                    d => &lite[d - 1].regs,
                };
                let v = match v {
                    Some(s) => {
                        let v = read_slot(regs, s);
                        if v == Slot::Empty {
                            break 'frames;
                        }
                        Some(v)
                    }
                    None => None,
                };
                if depth == 0 {
                    // A frame: dropped where it is (moving it out copies
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
                } else {
                    // A lite activation.
                    depth -= 1;
                    if let Some(v) = v {
                        let dest = lite[depth].ret;
                        let caller = match depth {
                            0 => &mut frames[top].regs,
                            d => &mut lite[d - 1].regs,
                        };
                        if dest != u32::MAX {
                            caller.set_slot(dest, v);
                        }
                    }
                }
                done += 1;
                steps += 1;
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
    (done, steps)
}

/// What [`blocks`] needs that stays the same for an activation.
struct Env<'e, 'a, 'p> {
    cx: &'e Cx<'a, 'p>,
    func: &'e FFunc,
    fidx: usize,
    /// The run has a loop bound (a jump back to a loop header ends the chunk).
    bound: bool,
    rm: RoundingMode,
}

/// An activation's position: block, next instruction, block it came from.
struct Pos {
    bb: usize,
    ip: usize,
    prev: Option<usize>,
}

/// Instructions and steps run, and their budgets.
struct Count {
    done: u64,
    steps: u64,
    step_budget: u64,
    instr_budget: u64,
}

/// Runs an activation's blocks from `pos` (phis, instructions,
/// terminator, one block after another) until a call, a return, or the
/// end of the chunk; `pos` and `n` are left where it stopped. The
/// position and counts are locals here, written back once; [`run`]
/// around it makes the calls and returns.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn blocks(
    env: &Env<'_, '_, '_>,
    regs: &mut Regs,
    mem: &mut Memory,
    trail: &mut crate::state::Trail,
    visits: &mut crate::state::LoopVisits,
    staged: &mut Vec<Slot>,
    pos: &mut Pos,
    n: &mut Count,
) -> Next {
    let Env {
        cx,
        func,
        fidx,
        bound,
        rm,
    } = *env;
    let (mut bb, mut ip, mut prev) = (pos.bb, pos.ip, pos.prev);
    let (mut done, mut steps) = (n.done, n.steps);
    let (step_budget, instr_budget) = (n.step_budget, n.instr_budget);
    let next = loop {
        if steps >= step_budget || done >= instr_budget {
            break Next::Exit;
        }
        let block = &func.blocks[bb];
        // Phis, all read on entry, then written.
        if ip == 0 && !block.phis.is_empty() {
            let Some(p) = prev else { break Next::Exit };
            // The moves of the edge from `p` (whose terminator may be
            // the executor's: entered from outside the fast path).
            let Some(edge) = func.blocks[p].edges.iter().find(|e| e.to == bb) else {
                break Next::Exit;
            };
            let Some(moves) = &edge.moves else { break Next::Exit };
            if !phi_moves(moves, edge.independent, regs, staged) {
                break Next::Exit;
            }
            let k = block.phis.len();
            ip = k;
            done += k as u64;
            steps += 1;
            if steps >= step_budget || done >= instr_budget {
                break Next::Exit;
            }
        }
        if ip < block.instrs.len() {
            // The block's straight-line instructions, in one go, as
            // many as the budgets leave.
            let room = (step_budget - steps).min(instr_budget - done);
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
            done += (ip - start) as u64;
            steps += (ip - start) as u64;
            if ip < block.instrs.len() {
                if ip < end && matches!(block.instrs[ip].op, Op::Call { .. }) {
                    break Next::Call;
                }
                break Next::Exit;
            }
            if steps >= step_budget || done >= instr_budget {
                break Next::Exit;
            }
        }
        // The terminator.
        if !cx.terminators {
            break Next::Exit;
        }
        let k = match &block.term {
            FTerm::Slow => break Next::Exit,
            FTerm::Ret(_) => break Next::Ret,
            FTerm::Br(_) => 0,
            FTerm::CondBr { c, .. } => {
                if !cx.branches {
                    break Next::Exit;
                }
                let Some(c) = eval::int(regs, c) else { break Next::Exit };
                let k = (c == 0) as usize;
                trail.push((fidx, bb, k));
                k
            }
            FTerm::Switch { c, cases, .. } => {
                if !cx.branches {
                    break Next::Exit;
                }
                let Some(c) = eval::int(regs, c) else { break Next::Exit };
                // The executor's trail: the taken case's index, or the
                // number of cases for the default.
                let k = cases.iter().position(|(v, _)| *v == c).unwrap_or(cases.len());
                trail.push((fidx, bb, k));
                k
            }
        };
        let edge = &block.edges[k];
        done += 1;
        steps += 1;
        (prev, bb, ip) = (Some(bb), edge.to, 0);
        // As `State::enter_block`: a jump back to a loop header counts
        // a repetition, and ends the chunk under a loop bound.
        if edge.back {
            visits.bump((fidx, edge.to));
            if bound {
                break Next::Exit;
            }
        }
        // The target's phis, as the edge has them.
        let Some(moves) = &edge.moves else { break Next::Exit };
        if !moves.is_empty() {
            if steps >= step_budget || done >= instr_budget {
                break Next::Exit;
            }
            if !phi_moves(moves, edge.independent, regs, staged) {
                break Next::Exit;
            }
            ip = moves.len();
            done += ip as u64;
            steps += 1;
        }
    };
    (pos.bb, pos.ip, pos.prev) = (bb, ip, prev);
    (n.done, n.steps) = (done, steps);
    next
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

/// The call instruction that made lite activation `k` (`lite[k]`): the
/// one just before the `ip` of the activation below it (the top frame
/// for `k` = 0, which the materialized activations below `k` extend).
fn call_before<'f>(funcs: &'f [Option<FFunc>], frames: &[Frame], lite: &[Lite], k: usize) -> &'f FInst {
    let (func, bb, ip) = match k {
        0 => {
            let f = frames.last().expect("a frame");
            (f.func, f.bb, f.ip)
        }
        k => {
            let l = &lite[k - 1];
            (l.func, l.bb, l.ip)
        }
    };
    &funcs[func].as_ref().expect("decoded").blocks[bb].instrs[ip - 1]
}

/// Writes phis' values (slot, value): all read, then written (as soon as
/// each is read when `independent`: no value is another's slot). False
/// (perhaps some written, as the executor would write them again) when
/// one has no value yet.
#[inline(always)]
fn phi_moves(moves: &[(u32, Src)], independent: bool, regs: &mut Regs, staged: &mut Vec<Slot>) -> bool {
    if independent {
        for (dest, s) in moves {
            let complete = match s {
                Src::Reg(k) => regs.copy_slot(*k, *dest),
                s => {
                    regs.set_slot(*dest, read_slot(regs, s));
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
