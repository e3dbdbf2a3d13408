//! The heap: `malloc`, `calloc`, `realloc`, `free`. Allocations above
//! [`crate::RunLimits::max_alloc`] return NULL; a symbolic size is made
//! concrete (an event); freeing twice or freeing what `malloc` did not
//! return is a finding.

use crate::checkers::{Kind, Violation};
use crate::exec::{End, Exec, ExecError, Outcome};
use crate::hooks::HookCall;
use crate::memory::{Cell, Kind as MemKind};
use crate::state::State;
use crate::term::{as_bv, bv};
use crate::value::Val;
use fpsym_expr::Term;

/// The functions modelled here.
pub(super) const NAMES: &[&str] = &["malloc", "calloc", "realloc", "free"];

impl Exec<'_, '_> {
    /// Runs the model of a heap function.
    pub(super) fn heap(&mut self, st: &mut State, call: &HookCall<'_>) -> Result<Outcome, ExecError> {
        let HookCall { name, args, dest, loc } = *call;
        let size_of = |this: &mut Self, st: &mut State, t: &Term| -> u64 {
            match as_bv(t) {
                Some(c) => c as u64,
                None => this.concretize(st, t, loc, "allocation of a symbolic size") as u64,
            }
        };
        let needed = if matches!(name, "calloc" | "realloc") { 2 } else { 1 };
        if args.len() < needed || args[..needed].iter().any(|a| !matches!(a, Val::Bv(_))) {
            return Err(ExecError::Unsupported(format!(
                "call of {name} with {} argument(s) that are not {needed} integer(s)",
                args.len()
            )));
        }
        let ret = |st: &mut State, v: u64| {
            if let Some(d) = dest {
                st.frame_mut().regs.insert(d.clone(), Val::Bv(bv(64, v as u128)));
            }
        };
        match name {
            "malloc" | "calloc" => {
                let size = if name == "malloc" {
                    size_of(self, st, args[0].bv())
                } else {
                    size_of(self, st, args[0].bv()).saturating_mul(size_of(self, st, args[1].bv()))
                };
                if size > self.config.limits.max_alloc {
                    ret(st, 0);
                    return Ok(Outcome::Continue);
                }
                let base = st
                    .mem
                    .allocate(size, 16, MemKind::Heap, name, None, Cell::byte(bv(8, 0)));
                ret(st, base);
            }
            "realloc" => {
                let p = as_bv(args[0].bv())
                    .ok_or_else(|| ExecError::Unsupported("realloc of a symbolic pointer".into()))?
                    as u64;
                let size = size_of(self, st, args[1].bv());
                let base = st
                    .mem
                    .allocate(size, 16, MemKind::Heap, "realloc", None, Cell::byte(bv(8, 0)));
                if p != 0 {
                    match st
                        .mem
                        .get(p)
                        .filter(|o| o.alive && o.kind == MemKind::Heap)
                        .map(|o| o.size)
                    {
                        Some(old) => {
                            let n = old.min(size);
                            let cells = st.mem.read(p, 0, n);
                            st.mem.write(base, 0, &cells);
                            st.mem.kill(p);
                        }
                        None => {
                            return Ok(Outcome::End(End::Error(
                                Violation::new(Kind::InvalidFree, loc.clone(), st)
                                    .with_message("realloc of a pointer malloc did not return"),
                            )))
                        }
                    }
                }
                ret(st, base);
            }
            _ => {
                let p = match as_bv(args[0].bv()) {
                    Some(p) => p as u64,
                    None => self.concretize(st, args[0].bv(), loc, "free of a symbolic pointer") as u64,
                };
                if p == 0 {
                    return Ok(Outcome::Continue);
                }
                let ok = st.mem.get(p).map(|o| (o.alive, o.kind == MemKind::Heap));
                match ok {
                    Some((true, true)) => st.mem.kill(p),
                    Some((false, true)) => {
                        return Ok(Outcome::End(End::Error(
                            Violation::new(Kind::InvalidFree, loc.clone(), st).with_message("double free"),
                        )))
                    }
                    _ => {
                        return Ok(Outcome::End(End::Error(
                            Violation::new(Kind::InvalidFree, loc.clone(), st)
                                .with_message("free of a pointer that is not the start of a heap object"),
                        )))
                    }
                }
            }
        }
        Ok(Outcome::Continue)
    }
}
