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
use crate::state::{Frame, Loc, Slot, State};
use crate::Config;
use fpsym_expr::{BvValue, Term, Value};
use fpsym_float::{Float, Format, RoundingMode};
use llvm_ir::predicates::{FPPredicate, IntPredicate};
use llvm_ir::{Constant, Instruction, Name, Operand, Terminator, Type};
use std::collections::HashMap;

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
    /// The result's slot (unused without a result).
    dest: u32,
    /// Some checker may report here: it is asked with the operands.
    /// Which checkers may report here (bit k: checker k; bit 63 also
    /// stands for every later one): they are asked with the operands.
    checked: u64,
}

#[derive(Clone, Debug)]
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
    /// No phi's incoming value is another phi's register: each may be
    /// written as soon as it is read.
    independent: bool,
    instrs: Vec<FInst>,
    term: FTerm,
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
use eval::{exec_op, quiet, read, read_slot};

/// Executes plain instructions of `st`, at most `step_budget` steps and
/// `instr_budget` instructions; returns how many instructions and steps
/// ran. A step is what one [`crate::exec::Exec::step`] executes: one
/// instruction, or all the phis at a block's head (each counted as an
/// instruction). Stops before the first instruction that is not plain,
/// and after a jump back to a loop header when the run has a loop bound
/// (the engine checks it).
pub fn run(fast: &mut Fast, cx: &Cx<'_, '_>, st: &mut State, step_budget: u64, instr_budget: u64) -> (u64, u64) {
    if fast.funcs.len() != cx.prog.funcs.len() {
        fast.funcs = vec![None; cx.prog.funcs.len()];
    }
    let (mut done, mut steps) = (0u64, 0u64);
    'frames: while steps < step_budget && done < instr_budget && st.split_at.is_none() {
        let Some(frame) = st.frames.last() else { break };
        let fidx = frame.func;
        if fast.funcs[fidx].is_none() {
            let d = Decoder {
                cx,
                fidx,
                names: &cx.prog.reg_names[fidx],
            };
            fast.funcs[fidx] = Some(d.function());
        }
        let func = fast.funcs[fidx].as_ref().expect("decoded");
        if !std::sync::Arc::ptr_eq(&func.names, st.frame().regs.names()) {
            break;
        }
        let top = st.frames.len() - 1;
        // The function's blocks, one after another, until a call or a
        // return changes the frame.
        'blocks: loop {
            if steps >= step_budget || done >= instr_budget {
                break 'frames;
            }
            let (bb, ip) = (st.frames[top].bb, st.frames[top].ip);
            let block = &func.blocks[bb];
            // Phis, all read on entry, then written.
            if ip == 0 && !block.phis.is_empty() {
                let Some(prev) = st.frame().prev_bb else { break 'frames };
                if block.independent {
                    // Copied straight in; one missing leaves the phis to the
                    // executor, which reads the same values.
                    let regs = &mut st.frame_mut().regs;
                    let mut complete = true;
                    for (dest, incoming) in &block.phis {
                        let Some((_, s)) = incoming.iter().find(|(b, _)| *b == prev) else {
                            complete = false;
                            break;
                        };
                        complete = *dest != u32::MAX
                            && match s {
                                Src::Reg(k) => regs.copy_slot(*k, *dest),
                                s => {
                                    regs.set_slot(*dest, read_slot(regs, s));
                                    true
                                }
                            };
                        if !complete {
                            break;
                        }
                    }
                    if !complete {
                        break 'frames;
                    }
                    let n = block.phis.len();
                    st.frame_mut().ip = n;
                    done += n as u64;
                    steps += 1;
                    continue 'blocks;
                }
                let regs = &st.frame().regs;
                let staged = &mut fast.staged;
                staged.clear();
                for (dest, incoming) in &block.phis {
                    let Some((_, s)) = incoming.iter().find(|(b, _)| *b == prev) else {
                        break;
                    };
                    if *dest == u32::MAX {
                        break;
                    }
                    let v = read_slot(regs, s);
                    if v == Slot::Empty {
                        break;
                    }
                    staged.push(v);
                }
                if staged.len() != block.phis.len() {
                    break 'frames;
                }
                let n = staged.len();
                let f = st.frame_mut();
                for ((d, _), v) in block.phis.iter().zip(staged.drain(..)) {
                    f.regs.set_slot(*d, v);
                }
                f.ip = n;
                done += n as u64;
                steps += 1;
                continue 'blocks;
            }
            let prog_block = || &cx.prog.funcs[fidx].basic_blocks[bb];
            if ip < block.instrs.len() {
                // The block's straight-line instructions, in one go, as
                // many as the budgets leave.
                let room = (step_budget - steps).min(instr_budget - done);
                let end = block
                    .instrs
                    .len()
                    .min(ip.saturating_add(room.try_into().unwrap_or(usize::MAX)));
                let start = ip;
                let mut ip = ip;
                let frame = &mut st.frames[top];
                while ip < end {
                    let inst = &block.instrs[ip];
                    if inst.checked != 0 && !quiet(cx, &frame.regs, inst, &prog_block().instrs[ip]) {
                        break;
                    }
                    // One dispatch: `exec_op` does nothing for a no-op and
                    // leaves calls and slow instructions (None).
                    if exec_op(&mut frame.regs, &mut st.mem, st.rm, inst).is_none() {
                        break;
                    }
                    ip += 1;
                }
                frame.ip = ip;
                done += (ip - start) as u64;
                steps += (ip - start) as u64;
                if ip == block.instrs.len() || steps >= step_budget || done >= instr_budget {
                    continue 'blocks;
                }
                let inst = &block.instrs[ip];
                let Op::Call { callee, args, loc } = &inst.op else {
                    break 'frames;
                };
                if inst.checked != 0 && !quiet(cx, &st.frames[top].regs, inst, &prog_block().instrs[ip]) {
                    break 'frames;
                }
                if st.frames.len() + 1 > cx.config.limits.max_call_depth {
                    break 'frames;
                }
                let regs = &st.frames[top].regs;
                let names = cx.prog.reg_names[*callee].clone();
                let mut r = match fast.storage.pop() {
                    Some(v) => crate::state::Regs::with_storage(names, v),
                    None => crate::state::Regs::new(names),
                };
                let mut complete = true;
                for (k, a) in args.iter().enumerate() {
                    let v = read_slot(regs, a);
                    complete &= v != Slot::Empty;
                    r.set_slot(k as u32, v);
                }
                if !complete {
                    break 'frames;
                }
                // The result's slot; its name only where it has none (a
                // name is a string: cloning it is an allocation per call).
                let dest = if inst.dest == u32::MAX {
                    prog_block().instrs[ip].try_get_result().cloned()
                } else {
                    None
                };
                st.frames[top].ip += 1;
                st.frames.push(Frame {
                    ret_dest: dest,
                    ret_slot: inst.dest,
                    call_site: loc.clone(),
                    ..Frame::new(*callee, r)
                });
                done += 1;
                steps += 1;
                continue 'frames;
            }
            // The terminator.
            if !cx.terminators {
                break 'frames;
            }
            match &block.term {
                FTerm::Slow => break 'frames,
                FTerm::Br(to) => {
                    done += 1;
                    steps += 1;
                    if goto(cx, st, fidx, *to) {
                        break 'frames;
                    }
                }
                FTerm::CondBr { c, t, f } => {
                    if !cx.branches {
                        break 'frames;
                    }
                    let Some(M::Int(c, _)) = read(&st.frame().regs, c) else {
                        break 'frames;
                    };
                    let (to, k) = if c != 0 { (*t, 0) } else { (*f, 1) };
                    st.trail.push((fidx, bb, k));
                    done += 1;
                    steps += 1;
                    if goto(cx, st, fidx, to) {
                        break 'frames;
                    }
                }
                FTerm::Switch { c, cases, default } => {
                    if !cx.branches {
                        break 'frames;
                    }
                    let Some(M::Int(c, _)) = read(&st.frame().regs, c) else {
                        break 'frames;
                    };
                    // The executor's trail: the taken case's index, or the
                    // number of cases for the default.
                    let (k, to) = match cases.iter().position(|(v, _)| *v == c) {
                        Some(k) => (k, cases[k].1),
                        None => (cases.len(), *default),
                    };
                    st.trail.push((fidx, bb, k));
                    done += 1;
                    steps += 1;
                    if goto(cx, st, fidx, to) {
                        break 'frames;
                    }
                }
                FTerm::Ret(v) => {
                    if st.frames.len() < 2 {
                        break 'frames;
                    }
                    let v = match v {
                        Some(s) => {
                            let v = read_slot(&st.frame().regs, s);
                            if v == Slot::Empty {
                                break 'frames;
                            }
                            Some(v)
                        }
                        None => None,
                    };
                    // The frame is dropped where it is (moving it out
                    // copies it), after what is needed is taken.
                    let frame = &mut st.frames[top];
                    for a in frame.allocas.iter().chain(&frame.va_areas) {
                        st.mem.kill(*a);
                    }
                    let (ret_slot, ret_dest) = (frame.ret_slot, frame.ret_dest.take());
                    if fast.storage.len() < STORAGE_KEPT {
                        // Its slots are emptied when it is used again
                        // (`Regs::with_storage`), in the same pass that fills it.
                        fast.storage.push(frame.regs.take_storage());
                    }
                    st.frames.truncate(top);
                    if let Some(v) = v {
                        let f = st.frame_mut();
                        if ret_slot != u32::MAX {
                            f.regs.set_slot(ret_slot, v);
                        } else if let Some(d) = ret_dest {
                            match f.regs.names().slot(&d) {
                                Some(k) => f.regs.set_slot(k, v),
                                None => f.regs.insert(d, v.val().expect("a written value")),
                            }
                        }
                    }
                    done += 1;
                    steps += 1;
                    continue 'frames;
                }
            }
        }
    }
    // The bytes stored here go to the cells before anyone else reads them.
    st.mem.flush_shadows();
    (done, steps)
}

/// Jumps to block `to` of the current function, counting loop
/// repetitions as [`crate::exec::Exec::goto`] does. True when the chunk
/// must end here (a loop repeated under a loop bound).
#[inline(always)]
fn goto(cx: &Cx<'_, '_>, st: &mut State, fidx: usize, to: usize) -> bool {
    st.enter_block(to, &cx.prog.loop_headers[fidx]) && cx.config.limits.loop_bound.is_some()
}
