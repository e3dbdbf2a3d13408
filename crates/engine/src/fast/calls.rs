//! Calls on the fast path: the activations [`super::blocks`] runs in
//! (the top frame and lite activations above it), the copies of
//! arguments and returned values, and calls run whole in place
//! ([`run_call`]).

use super::{eval, kernel, read_slot, FFunc, FInst, FTerm, Op, Src};
use crate::memory::Memory;
use crate::state::{Frame, Regs, Slot};
use fpsym_float::RoundingMode;
use std::sync::Arc;

/// A call the fast path made and has not returned from, kept out of
/// [`crate::state::State::frames`]: it becomes a [`Frame`] only if the chunk ends
/// inside it (a call whose callee returns within the chunk builds no
/// frame). A call whose callee's entry block returns is not even one of
/// these unless it stops partway: [`run_call`] runs it whole where the
/// kernel meets it. It never has allocas (an `alloca` goes to the executor, which
/// makes the frame real first). Its caller is the activation below it;
/// the call instruction is the caller's, just before the caller's `ip`
/// ([`call_before`]: the call site a frame made of it records).
pub(super) struct Lite {
    pub(super) func: usize,
    pub(super) bb: usize,
    pub(super) ip: usize,
    pub(super) prev: Option<usize>,
    /// The result's slot in the caller ([`u32::MAX`]: none).
    pub(super) ret: u32,
    pub(super) regs: Regs,
}

/// The activations [`super::blocks`] runs in: the top frame, and the lite
/// activations above it (`lite[..depth]`).
pub(super) struct Acts<'s> {
    pub(super) frame: &'s mut Frame,
    pub(super) lite: &'s mut Vec<Lite>,
    pub(super) depth: usize,
    /// The state's frames (for the call depth limit).
    pub(super) frames: usize,
}

impl Acts<'_> {
    /// Activation `d`'s function and position (0: the top frame's).
    pub(super) fn pos(&self, d: usize) -> (usize, usize, usize, Option<usize>) {
        match d {
            0 => (self.frame.func, self.frame.bb, self.frame.ip, self.frame.prev_bb),
            d => {
                let l = &self.lite[d - 1];
                (l.func, l.bb, l.ip, l.prev)
            }
        }
    }
    /// Keeps activation `d`'s position.
    pub(super) fn set_pos(&mut self, d: usize, bb: usize, ip: usize, prev: Option<usize>) {
        match d {
            0 => (self.frame.bb, self.frame.ip, self.frame.prev_bb) = (bb, ip, prev),
            d => {
                let l = &mut self.lite[d - 1];
                (l.bb, l.ip, l.prev) = (bb, ip, prev);
            }
        }
    }
    /// Activation `d`'s registers.
    pub(super) fn regs(&mut self, d: usize) -> &mut Regs {
        match d {
            0 => &mut self.frame.regs,
            d => &mut self.lite[d - 1].regs,
        }
    }
    /// Starts lite activation `depth + 1` of `callee` (whose registers
    /// are numbered by `names`) for the call `inst` of the running one,
    /// its arguments copied; false (no activation started) when one has
    /// no value.
    #[inline(always)]
    pub(super) fn call(&mut self, callee: usize, names: &Arc<crate::state::RegNames>, args: &[Src], ret: u32) -> bool {
        let depth = self.depth;
        let lite = &mut *self.lite;
        // The activation's registers: those of the last call at this
        // depth, emptied, when they are numbered alike.
        if lite.len() == depth {
            lite.push(Lite {
                func: callee,
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
            0 => &self.frame.regs,
            d => &below[d - 1].regs,
        };
        let l = &mut above[0];
        if !copy_args(&mut l.regs, caller, args) {
            return false;
        }
        (l.func, l.bb, l.ip, l.prev, l.ret) = (callee, 0, 0, None, ret);
        self.depth += 1;
        true
    }
    /// Returns from the running lite activation (`depth` > 0) with the
    /// value of `v`, copied to its result's slot in the caller; false
    /// (still in the callee) when `v` is a register with no value.
    #[inline(always)]
    pub(super) fn ret(&mut self, v: Option<&Src>) -> bool {
        let depth = self.depth;
        let (below, above) = self.lite.split_at_mut(depth - 1);
        let callee = &above[0];
        let dest = callee.ret;
        if let Some(v) = v {
            let caller = match depth - 1 {
                0 => &mut self.frame.regs,
                d => &mut below[d - 1].regs,
            };
            if !ret_value(caller, dest, &callee.regs, v) {
                return false;
            }
        }
        self.depth -= 1;
        true
    }
    /// Makes the call `inst` of the running activation a lite
    /// activation stopped at index `end` of its callee's entry block,
    /// after [`run_call`] ran it there in `leaf`'s registers: the
    /// arguments and the results written so far copied from them.
    #[cold]
    #[inline(never)]
    pub(super) fn enter_at(&mut self, f: &FFunc, inst: &FInst, callee: usize, leaf: &Regs, end: usize) -> bool {
        let Op::Call { args, .. } = &inst.op else {
            unreachable!("a call")
        };
        if !self.call(callee, &f.names, args, inst.dest) {
            return false;
        }
        let regs = &mut self.lite[self.depth - 1].regs;
        for i in &f.blocks[0].instrs[..end] {
            if i.dest != u32::MAX {
                regs.copy_from(i.dest, leaf, i.dest);
            }
        }
        true
    }
}

/// Copies a call's arguments, read in the caller's registers, to the
/// callee's first slots; false when one has no value.
#[inline(always)]
fn copy_args(callee: &mut Regs, caller: &Regs, args: &[Src]) -> bool {
    for (k, a) in args.iter().enumerate() {
        let complete = match a {
            Src::Reg(j) => callee.copy_from(k as u32, caller, *j),
            a => {
                callee.set_slot(k as u32, read_slot(caller, a));
                true
            }
        };
        if !complete {
            return false;
        }
    }
    true
}

/// Copies a returned value `v`, read in the callee's registers, to the
/// caller's slot `dest` (none: [`u32::MAX`]); false when it has no value.
#[inline(always)]
fn ret_value(caller: &mut Regs, dest: u32, callee: &Regs, v: &Src) -> bool {
    match v {
        // The value's type is the caller's: copied as it is.
        Src::Reg(k) if dest != u32::MAX => caller.copy_from(dest, callee, *k),
        Src::Reg(k) => *callee.slot(*k) != Slot::Empty,
        c => {
            if dest != u32::MAX {
                caller.set_slot(dest, eval::constant(c));
            }
            true
        }
    }
}

/// What [`run_call`] needs of the run.
pub(super) struct Calls<'c> {
    pub(super) funcs: &'c [Option<FFunc>],
    /// The registers calls are run in.
    pub(super) leaf: &'c mut Regs,
    /// Calls may be run: below the call depth limit, with returns
    /// executed on the fast path.
    pub(super) ok: bool,
}

/// How [`run_call`] ran a call.
pub(super) enum Run {
    /// Whole, in this many steps beyond the call's own (the callee's
    /// instructions and its return): the caller goes on after the call.
    Whole(u64),
    /// Not at all (nothing done).
    Not,
    /// Up to this index of its callee's entry block, where the kernel
    /// stopped: the call is made a lite activation there
    /// ([`Acts::enter_at`]).
    Inside(usize),
}

/// Runs call `inst` of the activation whose registers are `regs` whole,
/// when `calls` (below the call depth limit, returns executed here), its
/// callee is decoded, the callee's entry block returns and the `left`
/// steps of the budgets leave room for the call and the whole block (as
/// [`super::blocks`] would run it, the return then taken): its arguments copied
/// into `leaf`, the block run by [`kernel`], the returned value copied
/// back (no checker may look at the call: the caller made sure). `leaf` is kept from call
/// to call, and its slots are not emptied first: the entry block writes
/// each register (its arguments, then each instruction's result) before
/// reading it.
#[inline(never)]
pub(super) fn run_call(
    c: &mut Calls<'_>,
    left: u64,
    regs: &mut Regs,
    mem: &mut Memory,
    rm: RoundingMode,
    inst: &FInst,
) -> Run {
    let Calls { funcs, leaf, ok } = c;
    let leaf: &mut Regs = leaf;
    let Op::Call { callee, args, .. } = &inst.op else {
        return Run::Not;
    };
    let Some(f) = funcs[*callee].as_ref() else {
        return Run::Not;
    };
    let body = &f.blocks[0];
    let FTerm::Ret(v) = &body.term else {
        return Run::Not;
    };
    // The call a step, then (when a step is left) the block's.
    let need = body.instrs.len() as u64 + 1;
    if !*ok || left < 2 || need > left {
        return Run::Not;
    }
    if !Arc::ptr_eq(leaf.names(), &f.names) {
        *leaf = Regs::with_storage(f.names.clone(), leaf.take_storage());
    }
    if !copy_args(leaf, regs, args) {
        return Run::Not;
    }
    let end = kernel(leaf, mem, rm, &body.kops, f.slots, &body.instrs);
    if end == body.instrs.len() && v.as_ref().is_none_or(|v| ret_value(regs, inst.dest, leaf, v)) {
        return Run::Whole(need);
    }
    Run::Inside(end)
}

/// The call instruction that made lite activation `k` (`lite[k]`): the
/// one just before the `ip` of the activation below it (the top frame
/// for `k` = 0, which the materialized activations below `k` extend).
pub(super) fn call_before<'f>(funcs: &'f [Option<FFunc>], frames: &[Frame], lite: &[Lite], k: usize) -> &'f FInst {
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
