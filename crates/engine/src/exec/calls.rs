//! Memory access (pointer resolution, bounds and lifetime checks, symbolic
//! offsets), calls and returns.

use super::{End, Exec, ExecError, Feasible, Outcome};
use crate::checkers::{Kind, Violation};
use crate::memory::Cell;
use crate::prog::Callee;
use crate::state::{Frame, Loc, State};
use crate::term::{as_bv, bv, mk};
use crate::value::Val;
use either::Either;
use fpsym_expr::{eval, Op, Term, Value};
use llvm_ir::instruction::Call;
use llvm_ir::{Name, Operand, Type};

/// Objects larger than this are not read or written at a symbolic offset
/// (the offset is made concrete instead, with an event).
const SYMBOLIC_OFFSET_LIMIT: u64 = 4096;

/// Where an access goes.
pub enum Access {
    /// Object base and offset into it.
    At(u64, Term),
    /// The access is a bug on this path (the state was constrained to it).
    Bug(Violation),
    /// The pointer may also point elsewhere: these states re-execute the
    /// instruction under the other possibilities.
    Elsewhere(u64, Term, Vec<State>),
}

impl Exec<'_, '_> {
    /// Resolves an access of `n` bytes at `addr`.
    pub fn resolve(
        &mut self,
        st: &mut State,
        addr: &Term,
        n: u64,
        loc: &Option<Loc>,
        write: bool,
    ) -> Result<Access, ExecError> {
        let a = match as_bv(addr) {
            Some(a) => a as u64,
            None => {
                // A symbolic pointer: pick one object it may point into.
                let m = match self.feasible(st, &[]) {
                    Feasible::Yes(m) => m,
                    _ => return Err(ExecError::Unsupported("cannot resolve a symbolic pointer".into())),
                };
                let mut m = m;
                m.complete(&addr.vars());
                let v = match eval(addr, &m) {
                    Ok(Value::Bv(b)) => b.bits() as u64,
                    _ => return Err(ExecError::Unsupported("cannot evaluate a symbolic pointer".into())),
                };
                let target = st.mem.find(v).filter(|o| o.alive).map(|o| (o.base, o.size));
                let Some((base, size)) = target.filter(|(_, size)| *size >= n) else {
                    st.constrain(mk(Op::Eq, vec![addr.clone(), bv(64, v as u128)]));
                    return self.concrete_access(st, v, n, loc, write);
                };
                let lo = mk(Op::BvUle, vec![bv(64, base as u128), addr.clone()]);
                let hi = mk(Op::BvUle, vec![addr.clone(), bv(64, (base + size - n) as u128)]);
                let mut inside = mk(Op::And, vec![lo, hi]);
                if let Some(sz) = st.mem.get(base).and_then(|o| o.sym_size.clone()) {
                    // Within the symbolic size, not only the capacity.
                    let end = mk(Op::BvAdd, vec![addr.clone(), bv(64, n as u128)]);
                    let limit = mk(Op::BvAdd, vec![bv(64, base as u128), sz]);
                    inside = mk(Op::And, vec![inside, mk(Op::BvUle, vec![end, limit])]);
                }
                let taken = std::mem::replace(st, super::placeholder());
                let (yes, no) = self.fork(taken, inside, loc.clone());
                let mut others = Vec::new();
                if let Some(mut o) = no {
                    o.frame_mut().ip -= 1;
                    others.push(o);
                }
                let Some(y) = yes else {
                    // Cannot be inside after all: the model's address is
                    // still possible; check the access there.
                    *st = others.pop().ok_or_else(|| {
                        ExecError::Unsupported("cannot decide where a symbolic pointer points".into())
                    })?;
                    st.frame_mut().ip += 1;
                    st.constrain(mk(Op::Eq, vec![addr.clone(), bv(64, v as u128)]));
                    return self.concrete_access(st, v, n, loc, write);
                };
                *st = y;
                let off = mk(Op::BvSub, vec![addr.clone(), bv(64, base as u128)]);
                return Ok(if others.is_empty() {
                    Access::At(base, off)
                } else {
                    Access::Elsewhere(base, off, others)
                });
            }
        };
        self.concrete_access(st, a, n, loc, write)
    }

    /// Where offset `off` of object `o` is, for a message: `tab[9]` in an
    /// array (of the element there, or past the end), else `offset 72 of
    /// `o``.
    fn place(&self, o: &crate::memory::Object, off: u64) -> String {
        if let Some(llvm_ir::Type::ArrayType { element_type, .. }) =
            o.ty.as_ref().and_then(|t| self.prog.layout.resolve(t))
        {
            let size = self.prog.layout.alloc_size(element_type);
            if size > 0 {
                let rest = off % size;
                return if rest == 0 {
                    format!("`{}[{}]`", o.name, off / size)
                } else {
                    format!("byte {rest} of `{}[{}]`", o.name, off / size)
                };
            }
        }
        format!("offset {off} of `{}`", o.name)
    }

    fn concrete_access(
        &mut self,
        st: &mut State,
        a: u64,
        n: u64,
        loc: &Option<Loc>,
        write: bool,
    ) -> Result<Access, ExecError> {
        let _ = write;
        let Some(o) = st.mem.find(a) else {
            let what = if a == 0 {
                "null pointer dereference".to_string()
            } else if let Some(o) = st.mem.just_past(a) {
                format!(
                    "access of {n} byte(s) at {}, past the end of `{}` ({} bytes)",
                    self.place(o, a - o.base),
                    o.name,
                    o.size
                )
            } else {
                format!("access of {n} byte(s) at 0x{a:x}, outside every object")
            };
            return Ok(Access::Bug(
                Violation::new(Kind::OutOfBounds, loc.clone(), st).with_message(what),
            ));
        };
        if !o.alive {
            let what = format!(
                "access to `{}` after it was {}",
                o.name,
                if o.kind == crate::memory::Kind::Heap {
                    "freed"
                } else {
                    "popped"
                }
            );
            return Ok(Access::Bug(
                Violation::new(Kind::UseAfterFree, loc.clone(), st).with_message(what),
            ));
        }
        let off = a - o.base;
        if off + n > o.size {
            let what = format!(
                "access of {n} byte(s) at {}, past the end of `{}` ({} bytes)",
                self.place(o, off),
                o.name,
                o.size
            );
            return Ok(Access::Bug(
                Violation::new(Kind::OutOfBounds, loc.clone(), st).with_message(what),
            ));
        }
        let (base, name, sym) = (o.base, o.name.clone(), o.sym_size.clone());
        let Some(size) = sym else {
            return Ok(Access::At(base, bv(64, off as u128)));
        };
        // An object of a symbolic size: the access is a bug where it can
        // pass the size (forked off as a finding), fine elsewhere.
        let past = mk(Op::BvUgt, vec![bv(64, (off + n) as u128), size]);
        let v = Violation::new(Kind::OutOfBounds, loc.clone(), st).with_message(format!(
            "access of {n} byte(s) at offset {off} of `{name}`, whose size is symbolic"
        ));
        let taken = std::mem::replace(st, super::placeholder());
        match self.fork(taken, past, loc.clone()) {
            (Some(bad), Some(good)) => {
                self.effects.side_findings.push((bad, v));
                *st = good;
            }
            (Some(bad), None) => {
                *st = bad;
                return Ok(Access::Bug(v));
            }
            (None, Some(good)) => *st = good,
            (None, None) => {
                return Err(ExecError::Unsupported(format!(
                    "the bounds of `{name}` (a symbolic size) could not be decided"
                )))
            }
        }
        Ok(Access::At(base, bv(64, off as u128)))
    }

    /// `load ty, addr` into `dest`.
    pub fn load(
        &mut self,
        st: &mut State,
        addr: &Term,
        ty: &Type,
        dest: &Name,
        loc: Option<Loc>,
    ) -> Result<Outcome, ExecError> {
        let n = self.prog.layout.store_size(ty);
        let (base, off, forks) = match self.resolve(st, addr, n, &loc, false)? {
            Access::Bug(v) => return Ok(Outcome::End(End::Error(v))),
            Access::At(b, o) => (b, o, vec![]),
            Access::Elsewhere(b, o, f) => (b, o, f),
        };
        let v = self.read_at(st, base, &off, n, ty, &loc)?;
        st.frame_mut().regs.insert(dest.clone(), v);
        Ok(if forks.is_empty() {
            Outcome::Continue
        } else {
            Outcome::Fork(forks)
        })
    }

    /// Reads a value of type `ty` (`n` bytes) at offset `off` of an object.
    pub fn read_at(
        &mut self,
        st: &mut State,
        base: u64,
        off: &Term,
        n: u64,
        ty: &Type,
        loc: &Option<Loc>,
    ) -> Result<Val, ExecError> {
        if let Some(k) = as_bv(off) {
            let cells = st.mem.read(base, k as u64, n);
            return Ok(self.value_of(st, &cells, ty));
        }
        let off = self.bounded_offset(st, base, off, n, loc);
        if let Some(k) = as_bv(&off) {
            let cells = st.mem.read(base, k as u64, n);
            return Ok(self.value_of(st, &cells, ty));
        }
        let size = st.mem.get(base).map_or(0, |o| o.size);
        let mut acc: Option<Val> = None;
        for k in (0..=size - n).rev() {
            let cells = st.mem.read(base, k, n);
            let v = self.value_of(st, &cells, ty);
            acc = Some(match acc {
                None => v,
                Some(rest) => super::select(&mk(Op::Eq, vec![off.clone(), bv(64, k as u128)]), &v, &rest),
            });
        }
        Ok(acc.expect("object holds the access"))
    }

    /// A symbolic offset into a large object is made concrete (event).
    fn bounded_offset(&mut self, st: &mut State, base: u64, off: &Term, n: u64, loc: &Option<Loc>) -> Term {
        let size = st.mem.get(base).map_or(0, |o| o.size);
        if size <= SYMBOLIC_OFFSET_LIMIT || size < n {
            return off.clone();
        }
        let v = match self.feasible(st, &[]) {
            Feasible::Yes(mut m) => {
                m.complete(&off.vars());
                match eval(off, &m) {
                    Ok(Value::Bv(b)) => b.bits(),
                    _ => 0,
                }
            }
            _ => 0,
        };
        let c = bv(64, v);
        st.constrain(mk(Op::Eq, vec![off.clone(), c.clone()]));
        st.concretized = true;
        self.effects.events.push(crate::report::Event::Concretized {
            loc: loc.clone(),
            reason: format!("symbolic offset into an object of {size} bytes"),
        });
        c
    }

    /// `store val, addr`.
    pub fn store(
        &mut self,
        st: &mut State,
        addr: &Term,
        val: &Val,
        ty: &Type,
        loc: Option<Loc>,
    ) -> Result<Outcome, ExecError> {
        let cells = self.cells_of(val, ty);
        let n = cells.len() as u64;
        let (base, off, forks) = match self.resolve(st, addr, n, &loc, true)? {
            Access::Bug(v) => return Ok(Outcome::End(End::Error(v))),
            Access::At(b, o) => (b, o, vec![]),
            Access::Elsewhere(b, o, f) => (b, o, f),
        };
        self.write_at(st, base, &off, &cells, &loc);
        Ok(if forks.is_empty() {
            Outcome::Continue
        } else {
            Outcome::Fork(forks)
        })
    }

    /// Writes cells at offset `off` of an object.
    pub fn write_at(&mut self, st: &mut State, base: u64, off: &Term, cells: &[Cell], loc: &Option<Loc>) {
        let n = cells.len() as u64;
        let off = if as_bv(off).is_some() {
            off.clone()
        } else {
            self.bounded_offset(st, base, off, n, loc)
        };
        if let Some(k) = as_bv(&off) {
            st.mem.write(base, k as u64, cells);
            return;
        }
        let size = st.mem.get(base).map_or(0, |o| o.size);
        let old = st.mem.read(base, 0, size);
        let new_bytes: Vec<Term> = cells.iter().map(|c| self.byte_of(st, c)).collect();
        let mut out = Vec::with_capacity(size as usize);
        for (j, c) in old.iter().enumerate() {
            let j = j as u64;
            let mut b = self.byte_of(st, c);
            for k in j.saturating_sub(n - 1)..=j.min(size - n) {
                let hit = mk(Op::Eq, vec![off.clone(), bv(64, k as u128)]);
                b = mk(Op::Ite, vec![hit, new_bytes[(j - k) as usize].clone(), b]);
            }
            out.push(Cell::byte(b));
        }
        st.mem.write(base, 0, &out);
    }

    /// A call instruction.
    pub fn call(&mut self, st: &mut State, c: &Call, args: Vec<Val>, loc: Option<Loc>) -> Result<Outcome, ExecError> {
        let mut others = Vec::new();
        let callee = match &c.function {
            Either::Left(_) => return Err(ExecError::Unsupported("inline assembly".into())),
            Either::Right(Operand::ConstantOperand(k)) => match k.as_ref() {
                llvm_ir::Constant::GlobalReference { name, .. } => {
                    let n = super::operand::name_str(name);
                    match self.prog.func_index.get(&n) {
                        Some(&i) => Callee::Defined(i),
                        None => Callee::Declared(n),
                    }
                }
                _ => self.callee_at(st, &c.function, &loc, &mut others)?,
            },
            Either::Right(_) => self.callee_at(st, &c.function, &loc, &mut others)?,
        };
        let prog = self.prog;
        // Debug-information intrinsics describe the code; they are not
        // calls. Without observers or result checkers, nothing is noted.
        let observed = !matches!(&callee, Callee::Declared(n) if n.starts_with("llvm.dbg."))
            && (!self.plugins.observers.is_empty() || self.checks(super::PointKind::Returned));
        let name: std::borrow::Cow<'_, str> = match &callee {
            _ if !observed => "".into(),
            Callee::Defined(i) => prog.funcs[*i].name.as_str().into(),
            Callee::Declared(n) => n.clone().into(),
        };
        let depth = st.frames.len();
        let (bb, after) = (st.frame().bb, st.frame().ip);
        let args_seen = (observed && !self.plugins.observers.is_empty()).then(|| args.clone());
        let vector = matches!(self.prog.module.types.type_of(c).as_ref(), Type::VectorType { .. });
        let mut out = self.call_resolved(st, c, callee, args, loc.clone())?;
        if observed {
            // What a state did with the call: entered the callee's body (a
            // frame above the caller's, which stands after the call),
            // returned from a model (the caller stands after the call), or
            // neither (split off to execute the call again, or gone
            // elsewhere, as `exit` into an atexit handler).
            let after_call = |s: &State, d: usize| {
                s.frames.len() == d && s.frames.get(depth - 1).is_some_and(|f| f.bb == bb && f.ip == after)
            };
            let result = |s: &State| c.dest.as_ref().and_then(|d| s.frame().regs.get(d));
            let notify = |this: &mut Self, s: &mut State, ended: bool| -> Result<(), End> {
                let entered = after_call(s, depth + 1);
                let returned = !ended && after_call(s, depth);
                if entered || returned || (ended && s.frames.len() == depth) {
                    if let Some(args) = &args_seen {
                        for o in this.plugins.observers.iter_mut() {
                            o.at_call(s, &name, args);
                        }
                    }
                }
                if returned {
                    let r = result(s);
                    this.returned(s, &name, r.as_ref(), vector, loc.as_ref())?;
                }
                Ok(())
            };
            if let Outcome::Fork(forks) = &mut out {
                let mut kept = Vec::new();
                for mut f in std::mem::take(forks) {
                    if notify(self, &mut f, false).is_ok() {
                        kept.push(f);
                    }
                }
                *forks = kept;
            }
            let ended = matches!(out, Outcome::End(_));
            if let Err(end) = notify(self, st, ended) {
                let forks = match out {
                    Outcome::Fork(f) => f,
                    _ => Vec::new(),
                };
                out = self.end_keeping(st, end, forks);
            }
        }
        Ok(match (out, others.is_empty()) {
            (o, true) => o,
            (Outcome::Continue, false) => Outcome::Fork(others),
            (Outcome::Fork(mut f), false) => {
                f.extend(others);
                Outcome::Fork(f)
            }
            // This path ends; the other targets go on in their states.
            (Outcome::End(e), false) => self.end_keeping(st, e, others),
        })
    }

    /// Runs a call of `callee` by the hook precedence (user hook > built-in
    /// model > IR body > external), decided in [`crate::hooks::resolve`].
    fn call_resolved(
        &mut self,
        st: &mut State,
        c: &Call,
        callee: Callee,
        args: Vec<Val>,
        loc: Option<Loc>,
    ) -> Result<Outcome, ExecError> {
        use crate::hooks::{self, Hook, HookCall, Resolution};
        let name = match &callee {
            Callee::Defined(i) => self.prog.funcs[*i].name.clone(),
            Callee::Declared(n) => n.clone(),
        };
        self.constant_argument = c
            .arguments
            .iter()
            .any(|(a, _)| matches!(a, llvm_ir::Operand::ConstantOperand(_)));
        let call = HookCall {
            name: &name,
            args: &args,
            dest: c.dest.as_ref(),
            loc: &loc,
        };
        match hooks::resolve(&self.config.extensions.hooks, self.prog, &callee, &name, args.len()) {
            Resolution::User(hook) => hook.call(self, st, &call),
            Resolution::BuiltIn(family) => family.call(self, st, &call),
            Resolution::Body(i) => self.enter_body(st, c, i, args, loc),
            Resolution::External => {
                self.effects.events.push(crate::report::Event::ExternalCall {
                    loc: loc.clone(),
                    function: name.clone(),
                });
                Ok(Outcome::End(End::Partial(crate::report::Partial::External(
                    name.clone(),
                ))))
            }
        }
    }

    /// Enters the body of function `i` (called by `c` with `args`): a new
    /// frame.
    fn enter_body(
        &mut self,
        st: &mut State,
        c: &Call,
        i: usize,
        args: Vec<Val>,
        loc: Option<Loc>,
    ) -> Result<Outcome, ExecError> {
        let f = self.prog.funcs[i];
        let name = &f.name;
        if f.parameters.len() != args.len() && !f.is_var_arg {
            return Err(ExecError::Unsupported(format!(
                "call of {name} with {} arguments",
                args.len()
            )));
        }
        let fixed = f.parameters.len().min(args.len());
        let varargs = self.variadic_arguments(st, c, &args[fixed..], fixed, &loc)?;
        let mut args = args;
        let mut copies = Vec::new();
        for (k, p) in f.parameters.iter().enumerate().take(fixed) {
            let Some(ty) = p.attributes.iter().find_map(|a| match a {
                llvm_ir::function::ParameterAttribute::ByVal(t) => Some(t.clone()),
                _ => None,
            }) else {
                continue;
            };
            match self.byval_copy(st, &args[k], &ty, &super::operand::name_str(&p.name), &loc)? {
                Ok(copy) => {
                    copies.push(copy);
                    args[k] = Val::Bv(bv(64, copy as u128));
                }
                Err(v) => return Ok(Outcome::End(End::Error(v))),
            }
        }
        let mut regs = self.prog.regs(i);
        for (p, a) in f.parameters.iter().zip(args) {
            regs.insert(p.name.clone(), a);
        }
        st.frames.push(Frame {
            ret_dest: c.dest.clone(),
            call_site: loc.map(std::sync::Arc::new),
            varargs,
            allocas: copies,
            ..Frame::new(i, regs)
        });
        if st.frames.len() > self.config.limits.max_call_depth {
            return Ok(Outcome::End(End::Partial(crate::report::Partial::CallDepth(
                self.config.limits.max_call_depth,
            ))));
        }
        Ok(Outcome::Continue)
    }

    /// The callee's own copy of a `byval` argument (what the call's
    /// lowering makes: the callee may write to it, the caller's object
    /// stays as it was): a new stack object holding the `ty` at `ptr`,
    /// popped when the callee returns. Err: reading the argument is a bug
    /// (out of bounds, use after free).
    fn byval_copy(
        &mut self,
        st: &mut State,
        ptr: &Val,
        ty: &llvm_ir::TypeRef,
        name: &str,
        loc: &Option<Loc>,
    ) -> Result<Result<u64, Violation>, ExecError> {
        let n = self.prog.layout.alloc_size(ty);
        let (base, off) = match self.resolve(st, ptr.bv(), n, loc, false)? {
            Access::Bug(v) => return Ok(Err(v)),
            Access::At(b, o) => (b, o),
            Access::Elsewhere(..) => {
                return Err(ExecError::Unsupported(
                    "a by-value struct argument through a pointer to several objects".into(),
                ))
            }
        };
        // The bytes as they are (padding included) when the offset is
        // concrete; else the value, read at the symbolic offset.
        let cells = match as_bv(&off) {
            Some(k) => st.mem.read(base, k as u64, n),
            None => {
                let v = self.read_at(st, base, &off, n, ty, loc)?;
                self.cells_of(&v, ty)
            }
        };
        let copy = st.mem.allocate(
            n,
            16,
            crate::memory::Kind::Stack,
            name,
            Some(ty.clone()),
            Cell::byte(bv(8, 0)),
        );
        st.mem.write(copy, 0, &cells);
        Ok(Ok(copy))
    }

    /// The function a pointer designates. A symbolic pointer is resolved
    /// one target at a time: this state takes the target a model gives
    /// (constrained to it); a sibling without that target re-executes the
    /// call and lands in `others`.
    fn callee_at(
        &mut self,
        st: &mut State,
        f: &Either<llvm_ir::instruction::InlineAssembly, Operand>,
        loc: &Option<Loc>,
        others: &mut Vec<State>,
    ) -> Result<Callee, ExecError> {
        let Either::Right(op) = f else { unreachable!() };
        let v = self.operand(st, op)?;
        let p = v.bv().clone();
        let a = match as_bv(&p) {
            Some(a) => a,
            None => {
                let Feasible::Yes(mut m) = self.feasible(st, &[]) else {
                    return Err(ExecError::Unsupported(
                        "cannot resolve a symbolic function pointer".into(),
                    ));
                };
                m.complete(&p.vars());
                let Ok(Value::Bv(b)) = eval(&p, &m) else {
                    return Err(ExecError::Unsupported(
                        "cannot evaluate a symbolic function pointer".into(),
                    ));
                };
                let eq = mk(Op::Eq, vec![p.clone(), bv(64, b.bits())]);
                let taken = std::mem::replace(st, super::placeholder());
                let (yes, no) = self.fork(taken, eq, loc.clone());
                if let Some(mut n) = no {
                    n.frame_mut().ip -= 1;
                    others.push(n);
                }
                *st = yes.ok_or_else(|| ExecError::Unsupported("symbolic function pointer".into()))?;
                b.bits()
            }
        };
        self.prog
            .fn_at
            .get(&(a as u64))
            .cloned()
            .ok_or_else(|| ExecError::Unsupported(format!("call through an invalid function pointer 0x{a:x}")))
    }

    /// Returns from the current function with `v`.
    pub fn ret(&mut self, st: &mut State, v: Option<Val>) -> Result<Outcome, ExecError> {
        let frame = st.frames.pop().expect("a frame to return from");
        for a in frame.allocas.iter().chain(&frame.va_areas) {
            st.mem.kill(*a);
        }
        if st.frames.is_empty() {
            // The entry's result as C's `(int)`: narrower results extended
            // as the function's `signext`/`zeroext` says, wider ones
            // truncated (what `main`'s status and the --function replay
            // driver's `return (int)f(...)` give).
            let f = self.prog.funcs[frame.func];
            let signed = f
                .return_attributes
                .iter()
                .any(|a| matches!(a, llvm_ir::function::ParameterAttribute::SignExt));
            let code = match v.as_ref().and_then(|v| v.term()) {
                Some(t) if matches!(t.sort(), fpsym_expr::Sort::BitVec(_)) => super::resize(t, 32, signed),
                _ => bv(32, 0),
            };
            return self.exit_with(st, code, false);
        }
        let prog = self.prog;
        let f = prog.funcs[frame.func];
        let vector = matches!(prog.layout.resolve(&f.return_type), Some(Type::VectorType { .. }));
        if let Err(end) = self.returned(st, &f.name, v.as_ref(), vector, frame.call_site.as_deref()) {
            return Ok(Outcome::End(end));
        }
        if let Some(v) = v {
            let regs = &mut st.frame_mut().regs;
            if frame.ret_slot != u32::MAX {
                regs.set_slot(frame.ret_slot, crate::state::Slot::of(v));
            } else if let Some(d) = frame.ret_dest {
                regs.insert(d, v);
            }
        }
        Ok(Outcome::Continue)
    }
}
