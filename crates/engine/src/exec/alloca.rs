//! `alloca`, including a symbolic element count (C99 variable-length
//! arrays, `alloca(n)`).
//!
//! Policy (bound, then fork): a size that can be at most
//! [`SYMBOLIC_SIZE_CAPACITY`] bytes stays symbolic. The object reserves
//! that capacity and keeps its size as a term; every access is checked
//! against the term (an access that can pass it forks an out-of-bounds
//! finding). When the size can also exceed the capacity, the state forks:
//! that side's size is made concrete from a model (a `Concretized` event,
//! so the verdict cannot be "verified").

use super::{Exec, ExecError, Outcome};
use crate::memory::{Cell, Kind};
use crate::state::{Loc, State};
use crate::term::{as_bv, bv, mk, width};
use crate::value::Val;
use fpsym_expr::{Op, Term};
use llvm_ir::instruction::Alloca;
use llvm_ir::Name;

/// The stack (8 MiB, Linux's default limit): a larger `alloca` overflows
/// it natively; the path stops there (no finding is claimed).
pub const STACK_LIMIT: u64 = 8 << 20;

/// Largest symbolic-size object kept symbolic, in bytes (the bound up to
/// which reads at symbolic offsets stay exact, see `calls.rs`).
pub const SYMBOLIC_SIZE_CAPACITY: u64 = 4096;

impl Exec<'_, '_> {
    /// `dest = alloca T, count`.
    pub(crate) fn alloca(
        &mut self,
        st: &mut State,
        x: &Alloca,
        count: &Term,
        loc: &Option<Loc>,
    ) -> Result<Outcome, ExecError> {
        let layout = self.prog.layout;
        let elem = layout.alloc_size(&x.allocated_type);
        let name = match &x.dest {
            Name::Name(s) => s.to_string(),
            Name::Number(k) => format!("%{k}"),
        };
        let align = (x.alignment as u64).max(layout.align(&x.allocated_type));
        if let Some(n) = as_bv(count) {
            let Some(size) = self.stack_size(elem, n as u64) else {
                return Ok(Outcome::End(too_big(elem, n as u64)));
            };
            let base = self.new_stack_object(st, size, align, &name, x);
            st.frame_mut()
                .regs
                .insert(x.dest.clone(), Val::Bv(bv(64, base as u128)));
            return Ok(Outcome::Continue);
        }
        // size = count · elem, as 64-bit unsigned (counts are unsigned).
        let n64 = super::resize(count, 64, false);
        let size = mk(Op::BvMul, vec![n64, bv(64, elem as u128)]);
        // An overflowing product is not a small size.
        let no_wrap = if width(count) <= 32 {
            None
        } else {
            Some(mk(
                Op::BvUle,
                vec![count.clone(), bv(width(count), (u64::MAX / elem.max(1)) as u128)],
            ))
        };
        let mut small = mk(Op::BvUle, vec![size.clone(), bv(64, SYMBOLIC_SIZE_CAPACITY as u128)]);
        if let Some(c) = no_wrap {
            small = mk(Op::And, vec![c, small]);
        }
        let taken = std::mem::replace(st, super::placeholder());
        let (fits, big) = self.fork(taken, small, loc.clone());
        let mut out = Vec::new();
        if let Some(mut s) = fits {
            // Reserve the smallest capacity the size cannot exceed (reads
            // at symbolic offsets cost one term per position).
            let mut cap = SYMBOLIC_SIZE_CAPACITY;
            for c in [64, 512] {
                let above = mk(Op::BvUgt, vec![size.clone(), bv(64, c as u128)]);
                if matches!(self.feasible(&s, &[above]), super::Feasible::No) {
                    cap = c;
                    break;
                }
            }
            let base = self.new_stack_object(&mut s, cap, align, &name, x);
            s.mem.set_symbolic_size(base, size.clone());
            s.frame_mut().regs.insert(x.dest.clone(), Val::Bv(bv(64, base as u128)));
            out.push(s);
        }
        if let Some(mut s) = big {
            let n = self.concretize(&mut s, count, loc, "alloca of a symbolic size above 4 KiB") as u64;
            match self.stack_size(elem, n) {
                Some(size) => {
                    let base = self.new_stack_object(&mut s, size, align, &name, x);
                    s.frame_mut().regs.insert(x.dest.clone(), Val::Bv(bv(64, base as u128)));
                    out.push(s);
                }
                None => self.effects.side_ends.push((s, too_big(elem, n))),
            }
        }
        self.resume(st, out)
    }

    /// `elem · n` bytes if that fits on the stack.
    fn stack_size(&self, elem: u64, n: u64) -> Option<u64> {
        elem.checked_mul(n).filter(|s| *s <= STACK_LIMIT)
    }

    fn new_stack_object(&mut self, st: &mut State, size: u64, align: u64, name: &str, x: &Alloca) -> u64 {
        let base = st.mem.allocate(
            size,
            align,
            Kind::Stack,
            name,
            Some(x.allocated_type.clone()),
            Cell::byte(bv(8, 0)),
        );
        st.frame_mut().allocas.push(base);
        base
    }
}

/// How a path ends whose `alloca` of `n` elements of `elem` bytes does not
/// fit on the stack (a stack overflow natively).
fn too_big(elem: u64, n: u64) -> super::End {
    super::End::Partial(crate::report::Partial::NotModelled(format!(
        "alloca of {n} elements of {elem} bytes: more than the 8 MiB stack (a stack overflow natively)"
    )))
}
