//! Built-in models of functions (precedence: built-in model > the
//! program's own body > error). KLEE's and SV-COMP's input and assumption
//! functions, failure points, heap, rounding-mode control, and the libm
//! functions IEEE 754 defines exactly; transcendental functions are
//! concretized (an event; the run is then never "verified").

use crate::checkers::{Kind, Violation};
use crate::exec::arith;
use crate::exec::{End, Exec, ExecError, Feasible, Outcome};
use crate::memory::{Cell, Kind as MemKind};
use crate::state::{Loc, State, Symbolic};
use crate::term::{as_bv, bv, format_of, mk, rm, width};
use crate::value::Val;
use fpsym_expr::{eval, Op, Sort, Term, Value};
use fpsym_float::{Float, Format, RoundingMode};
use llvm_ir::{Name, Type};

/// x86-64 glibc's FE_* rounding-mode values.
const FE_TONEAREST: u128 = 0;
const FE_DOWNWARD: u128 = 0x400;
const FE_UPWARD: u128 = 0x800;
const FE_TOWARDZERO: u128 = 0xc00;

fn fe_of(r: RoundingMode) -> u128 {
    match r {
        RoundingMode::NearestTiesToEven | RoundingMode::NearestTiesToAway => FE_TONEAREST,
        RoundingMode::TowardNegative => FE_DOWNWARD,
        RoundingMode::TowardPositive => FE_UPWARD,
        RoundingMode::TowardZero => FE_TOWARDZERO,
    }
}

/// The float format a libm name works in: `sinf` binary32, `sinl`
/// x86_fp80, else binary64; None if `name` is not `base` + suffix.
fn libm_suffix(name: &str, base: &str) -> Option<Format> {
    let rest = name.strip_prefix(base)?;
    match rest {
        "" => Some(Format::BINARY64),
        "f" => Some(Format::BINARY32),
        "l" => Some(Format::X86_FP80),
        "f128" => Some(Format::BINARY128),
        _ => None,
    }
}

/// The libm functions modelled exactly (with `f`/`l` forms).
const EXACT_LIBM: &[&str] = &[
    "fabs",
    "sqrt",
    "floor",
    "ceil",
    "trunc",
    "round",
    "rint",
    "nearbyint",
    "fmin",
    "fmax",
    "copysign",
    "fmod",
    "remainder",
    "fma",
    "ldexp",
    "scalbn",
    "modf",
    "frexp",
];

/// True for the C library functions modelled here that a program may
/// define for itself (libm, the process environment); its own definition
/// then wins. The KLEE/SV-COMP API, failure points, the heap and fenv keep
/// their models whatever the program defines.
pub fn is_c_library_function(name: &str) -> bool {
    crate::env::MODELLED.contains(&name)
        || TRANSCENDENTAL
            .iter()
            .chain(EXACT_LIBM)
            .any(|b| libm_suffix(name, b).is_some())
}

/// Writes a modelled call's result into its destination register (if the
/// call has one).
pub(crate) fn set_result(st: &mut State, dest: Option<&Name>, v: Val) {
    if let Some(d) = dest {
        st.frame_mut().regs.insert(d.clone(), v);
    }
}

/// Argument `k` of a call to `name` as an integer or pointer term (an
/// error, not a panic, when the program passes something else).
pub(crate) fn int_arg(name: &str, args: &[Val], k: usize) -> Result<Term, ExecError> {
    match args.get(k) {
        Some(Val::Bv(t)) => Ok(t.clone()),
        Some(_) => Err(ExecError::Unsupported(format!(
            "{name}: argument {k} is not an integer or a pointer"
        ))),
        None => Err(ExecError::Unsupported(format!("{name}: missing argument {k}"))),
    }
}

const TRANSCENDENTAL: &[&str] = &[
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "exp",
    "exp2", "expm1", "log", "log2", "log10", "log1p", "pow", "cbrt", "hypot", "erf", "erfc", "tgamma", "lgamma",
];

impl Exec<'_, '_> {
    /// Runs the built-in model of `name` if there is one.
    pub fn hook(
        &mut self,
        st: &mut State,
        name: &str,
        args: &[Val],
        dest: Option<&Name>,
        loc: &Option<Loc>,
    ) -> Result<Option<Outcome>, ExecError> {
        let set = |st: &mut State, v: Val| set_result(st, dest, v);
        let arg_bv = |k: usize| int_arg(name, args, k);
        // Intrinsics.
        if let Some(intr) = name.strip_prefix("llvm.") {
            return self.intrinsic(st, intr, args, dest, loc).map(Some);
        }
        let out = match name {
            "klee_make_symbolic" => {
                let size = as_bv(&arg_bv(1)?)
                    .ok_or_else(|| ExecError::Unsupported("klee_make_symbolic of a symbolic size".into()))?
                    as u64;
                let label = self.c_string(st, &arg_bv(2)?).unwrap_or_else(|| "sym".into());
                return self.make_symbolic(st, &arg_bv(0)?, size, &label, loc).map(Some);
            }
            "klee_assume" | "__VERIFIER_assume" => {
                let c = arg_bv(0)?;
                let w = width(&c);
                let holds = mk(Op::Not, vec![mk(Op::Eq, vec![c, bv(w, 0)])]);
                if crate::term::as_bool(&holds) == Some(false) {
                    return Ok(Some(Outcome::End(End::Infeasible)));
                }
                match self.feasible(st, std::slice::from_ref(&holds)) {
                    Feasible::Yes(_) => st.constrain(holds),
                    Feasible::No => return Ok(Some(Outcome::End(End::Infeasible))),
                    Feasible::Unknown(why) => {
                        return Ok(Some(Outcome::End(End::Partial(format!("assumption undecided: {why}")))))
                    }
                }
                Outcome::Continue
            }
            "klee_int" => {
                let label = self.c_string(st, &arg_bv(0)?).unwrap_or_else(|| "int".into());
                let v = self.fresh_input(st, &label, Sort::BitVec(32), "i32");
                set(st, Val::Bv(v));
                Outcome::Continue
            }
            "klee_range" => {
                let (lo, hi) = (arg_bv(0)?, arg_bv(1)?);
                let label = self.c_string(st, &arg_bv(2)?).unwrap_or_else(|| "range".into());
                let v = self.fresh_input(st, &label, Sort::BitVec(32), "i32");
                st.constrain(mk(Op::BvSge, vec![v.clone(), lo]));
                st.constrain(mk(Op::BvSlt, vec![v.clone(), hi]));
                set(st, Val::Bv(v));
                Outcome::Continue
            }
            "klee_silent_exit" => Outcome::End(End::Infeasible),
            "reach_error" | "__VERIFIER_error" => {
                Outcome::End(End::Error(Violation::new(Kind::ReachError, loc.clone(), st)))
            }
            "abort" => Outcome::End(End::Error(Violation::new(Kind::Abort, loc.clone(), st))),
            // exit runs the atexit handlers; _exit and _Exit do not.
            "exit" => return self.exit_with(st, arg_bv(0)?, true).map(Some),
            "_exit" | "_Exit" => Outcome::End(End::Exit(arg_bv(0)?)),
            n if crate::env::MODELLED.contains(&n) => return self.env_call(st, n, args, dest, loc).map(Some),
            "__assert_fail" | "__assert_rtn" | "__assert" => {
                let text = self.c_string(st, &arg_bv(0)?).unwrap_or_default();
                Outcome::End(End::Error(
                    Violation::new(Kind::AssertionFailure, loc.clone(), st)
                        .with_message(format!("assertion `{text}` failed")),
                ))
            }
            "printf" | "puts" | "putchar" | "fprintf" | "fputs" | "fputc" | "putc" | "fflush" => {
                if self.config.print {
                    // fprintf's format follows the stream; the others print their first argument.
                    let k = usize::from(name == "fprintf");
                    let shown = args.get(k).and_then(|a| self.c_string(st, a.bv())).unwrap_or_default();
                    self.printed.push(shown);
                }
                set(st, Val::Bv(bv(32, 0)));
                Outcome::Continue
            }
            "fegetround" => {
                set(st, Val::Bv(bv(32, fe_of(st.rm))));
                Outcome::Continue
            }
            "fesetround" => {
                // A symbolic mode forks over the four valid modes and the
                // invalid rest (fesetround fails and keeps the mode).
                let m = arg_bv(0)?;
                let modes = [
                    (FE_TONEAREST, RoundingMode::NearestTiesToEven),
                    (FE_DOWNWARD, RoundingMode::TowardNegative),
                    (FE_UPWARD, RoundingMode::TowardPositive),
                    (FE_TOWARDZERO, RoundingMode::TowardZero),
                ];
                let w = width(&m);
                let mut rest = Some(std::mem::replace(st, crate::exec::placeholder()));
                let mut out: Vec<State> = Vec::new();
                for (v, r) in modes {
                    let Some(cur) = rest.take() else { break };
                    let (yes, no) = self.fork(cur, mk(Op::Eq, vec![m.clone(), bv(w, v)]), loc.clone());
                    if let Some(mut y) = yes {
                        y.rm = r;
                        set(&mut y, Val::Bv(bv(32, 0)));
                        out.push(y);
                    }
                    rest = no;
                }
                if let Some(mut bad) = rest {
                    set(&mut bad, Val::Bv(bv(32, 1)));
                    out.push(bad);
                }
                if out.is_empty() {
                    return Ok(Some(Outcome::End(End::Infeasible)));
                }
                *st = out.remove(0);
                if out.is_empty() {
                    Outcome::Continue
                } else {
                    Outcome::Fork(out)
                }
            }
            "malloc" | "calloc" | "realloc" | "free" => return self.heap(st, name, args, dest, loc).map(Some),
            n if n.starts_with("__VERIFIER_nondet_") => {
                let (sort, ty): (Sort, &str) = match &n["__VERIFIER_nondet_".len()..] {
                    "bool" | "_Bool" => (Sort::BitVec(1), "bool"),
                    "char" => (Sort::BitVec(8), "i8"),
                    "uchar" => (Sort::BitVec(8), "u8"),
                    "short" => (Sort::BitVec(16), "i16"),
                    "ushort" => (Sort::BitVec(16), "u16"),
                    "int" => (Sort::BitVec(32), "i32"),
                    "uint" | "unsigned" | "unsigned_int" => (Sort::BitVec(32), "u32"),
                    "long" | "longlong" => (Sort::BitVec(64), "i64"),
                    "ulong" | "ulonglong" | "size_t" => (Sort::BitVec(64), "u64"),
                    "float" => (Sort::Float(Format::BINARY32), "float"),
                    "double" => (Sort::Float(Format::BINARY64), "double"),
                    "pointer" => (Sort::BitVec(64), "u64"),
                    _ => return Ok(None),
                };
                let label = n["__VERIFIER_nondet_".len()..].to_string();
                let v = self.fresh_input(st, &label, sort, ty);
                // bool is an i1 or an i8 in the IR (the declaration decides).
                let v = match (dest, sort) {
                    (_, Sort::BitVec(1)) => mk(Op::BvZeroExtend(7), vec![v]),
                    _ => v,
                };
                set(st, Val::of(v));
                Outcome::Continue
            }
            _ => return self.libm(st, name, args, dest, loc),
        };
        Ok(Some(out))
    }

    /// A fresh input variable, recorded as a test object.
    pub fn fresh_input(&mut self, st: &mut State, label: &str, sort: Sort, ty: &str) -> Term {
        let name = st.unique_name(label);
        let v = Term::var(&name, sort);
        let (bytes, shape) = match sort {
            Sort::Float(f) => {
                let n = crate::layout::fp_store_size(f);
                let cells: Vec<Cell> = (0..n)
                    .map(|i| Cell {
                        val: v.clone(),
                        size: n as u8,
                        idx: i as u8,
                    })
                    .collect();
                let bytes = cells.iter().map(|c| self.byte_of(st, c)).collect();
                let shape = crate::shape::Shape::Float {
                    ty: ty.to_string(),
                    format: f,
                };
                (bytes, Some(shape))
            }
            Sort::BitVec(w) => {
                let n = w.div_ceil(8);
                let wide = if w % 8 != 0 {
                    mk(Op::BvZeroExtend(8 * n - w), vec![v.clone()])
                } else {
                    v.clone()
                };
                // `u32`, `u64`, `bool`: unsigned; `i32`, `i64`: signed.
                let shape = crate::shape::Shape::Int {
                    ty: ty.to_string(),
                    bits: w,
                    signed: !(ty.starts_with('u') || ty == "bool"),
                };
                (
                    (0..n)
                        .map(|i| mk(Op::BvExtract(8 * i + 7, 8 * i), vec![wide.clone()]))
                        .collect(),
                    Some(shape),
                )
            }
            _ => (vec![], None),
        };
        st.symbolics.push(Symbolic {
            name,
            ty: ty.to_string(),
            bytes,
            shape,
            elements_root: None,
        });
        v
    }

    /// The C string at `p` if its bytes are concrete.
    pub fn c_string(&mut self, st: &mut State, p: &Term) -> Option<String> {
        let a = as_bv(p)? as u64;
        let o = st.mem.find(a)?;
        let (base, size) = (o.base, o.size);
        let mut out = Vec::new();
        for off in (a - base)..size {
            let c = st.mem.read(base, off, 1).pop()?;
            let b = self.byte_of(st, &c);
            let b = as_bv(&b)? as u8;
            if b == 0 {
                break;
            }
            out.push(b);
        }
        Some(String::from_utf8_lossy(&out).into_owned())
    }

    /// Makes a value concrete: picks a model value, constrains the path to
    /// it, records an event.
    pub fn concretize(&mut self, st: &mut State, t: &Term, loc: &Option<Loc>, why: &str) -> u128 {
        let v = match self.feasible(st, &[]) {
            Feasible::Yes(mut m) => {
                m.complete(&t.vars());
                match eval(t, &m) {
                    Ok(Value::Bv(b)) => b.bits(),
                    _ => 0,
                }
            }
            _ => 0,
        };
        st.constrain(mk(Op::Eq, vec![t.clone(), bv(width(t), v)]));
        st.concretized = true;
        self.events.push(crate::report::Event::Concretized {
            loc: loc.clone(),
            reason: why.to_string(),
        });
        v
    }

    /// klee_make_symbolic(p, size, name): the bytes become inputs. An
    /// object of a float or integer type (or an array or struct of them)
    /// gets one variable per scalar, of that scalar's sort; other bytes one
    /// 8-bit variable each.
    fn make_symbolic(
        &mut self,
        st: &mut State,
        p: &Term,
        size: u64,
        label: &str,
        loc: &Option<Loc>,
    ) -> Result<Outcome, ExecError> {
        let a = match as_bv(p) {
            Some(a) => a as u64,
            None => self.concretize(st, p, loc, "klee_make_symbolic of a symbolic pointer") as u64,
        };
        let Some(o) = st.mem.find(a).filter(|o| o.alive) else {
            return Ok(Outcome::End(End::Error(
                Violation::new(Kind::OutOfBounds, loc.clone(), st)
                    .with_message("klee_make_symbolic of an invalid pointer"),
            )));
        };
        let (base, osize) = (o.base, o.size);
        let off = a - base;
        if off + size > osize {
            return Ok(Outcome::End(End::Error(
                Violation::new(Kind::OutOfBounds, loc.clone(), st)
                    .with_message("klee_make_symbolic past the end of the object"),
            )));
        }
        self.make_symbolic_at(st, base, off, size, label);
        Ok(Outcome::Continue)
    }

    /// Makes `size` bytes at offset `off` of the object at `base` inputs
    /// named `label` (see `klee_make_symbolic`). Tests show them as the C
    /// variable's type (see [`Exec::object_shape`]).
    pub fn make_symbolic_at(&mut self, st: &mut State, base: u64, off: u64, size: u64, label: &str) {
        let ty = st.mem.get(base).and_then(|o| o.ty.clone());
        let shape = self.object_shape(st, base, off, size);
        let name = st.unique_name(label);
        let mut leaves: Vec<(u64, Sort)> = Vec::new();
        if let (0, Some(t)) = (off, &ty) {
            if self.prog.layout.alloc_size(t) == size || self.prog.layout.store_size(t) == size {
                self.scalar_leaves(t, 0, &mut leaves);
            }
        }
        let mut cells: Vec<Option<Cell>> = vec![None; size as usize];
        let single = leaves.len() == 1;
        for (lo, sort) in &leaves {
            let n = match sort {
                Sort::Float(f) => crate::layout::fp_store_size(*f),
                Sort::BitVec(w) => w.div_ceil(8) as u64,
                _ => 1,
            };
            let vname = if single { name.clone() } else { format!("{name}@{lo}") };
            let v = Term::var(&vname, *sort);
            for i in 0..n {
                cells[(lo + i) as usize] = Some(Cell {
                    val: v.clone(),
                    size: n as u8,
                    idx: i as u8,
                });
            }
        }
        let cells: Vec<Cell> = cells
            .into_iter()
            .enumerate()
            .map(|(i, c)| c.unwrap_or_else(|| Cell::byte(Term::var(&format!("{name}[{i}]"), Sort::BitVec(8)))))
            .collect();
        st.mem.write(base, off, &cells);
        let bytes = cells.iter().map(|c| self.byte_of(st, c)).collect();
        let tyname = match &shape {
            Some(s) => s.ty().to_string(),
            None => format!("u8[{size}]"),
        };
        st.symbolics.push(Symbolic {
            name,
            ty: tyname,
            bytes,
            shape,
            elements_root: None,
        });
    }

    fn scalar_leaves(&self, t: &Type, at: u64, out: &mut Vec<(u64, Sort)>) {
        let layout = self.prog.layout;
        match layout.resolve(t) {
            Some(Type::IntegerType { bits }) => out.push((at, Sort::BitVec(*bits))),
            Some(Type::PointerType { .. }) => out.push((at, Sort::BitVec(64))),
            Some(Type::FPType(f)) => {
                if let Some(fmt) = crate::layout::fp_format(*f) {
                    out.push((at, Sort::Float(fmt)));
                }
            }
            Some(Type::ArrayType {
                element_type,
                num_elements,
            }) => {
                let s = layout.alloc_size(element_type);
                for k in 0..*num_elements as u64 {
                    self.scalar_leaves(element_type, at + k * s, out);
                }
            }
            // Lanes are packed at their store size (i1 lanes are not bytes).
            Some(Type::VectorType {
                element_type,
                num_elements,
                ..
            }) if !matches!(layout.resolve(element_type), Some(Type::IntegerType { bits: 1 })) => {
                let s = layout.store_size(element_type);
                for k in 0..*num_elements as u64 {
                    self.scalar_leaves(element_type, at + k * s, out);
                }
            }
            Some(
                st @ Type::StructType {
                    element_types,
                    is_packed,
                },
            ) => {
                let _ = st;
                let (offs, _) = layout.struct_offsets(element_types, *is_packed);
                for (o, e) in offs.iter().zip(element_types) {
                    self.scalar_leaves(e, at + o, out);
                }
            }
            _ => {}
        }
    }

    fn heap(
        &mut self,
        st: &mut State,
        name: &str,
        args: &[Val],
        dest: Option<&Name>,
        loc: &Option<Loc>,
    ) -> Result<Outcome, ExecError> {
        let size_of = |this: &mut Self, st: &mut State, t: &Term| -> u64 {
            match as_bv(t) {
                Some(c) => c as u64,
                None => this.concretize(st, t, loc, "allocation of a symbolic size") as u64,
            }
        };
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
                if size > self.config.max_alloc {
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

    /// libm: exact IEEE functions modelled; transcendental ones concretized.
    fn libm(
        &mut self,
        st: &mut State,
        name: &str,
        args: &[Val],
        dest: Option<&Name>,
        loc: &Option<Loc>,
    ) -> Result<Option<Outcome>, ExecError> {
        let r = st.rm;
        let f = |k: usize| args[k].fp().clone();
        let one_arg = |base: &str| libm_suffix(name, base).is_some() && args.len() == 1;
        let two_args = |base: &str| libm_suffix(name, base).is_some() && args.len() == 2;
        let res: Term = if one_arg("fabs") {
            mk(Op::FpAbs, vec![f(0)])
        } else if one_arg("sqrt") {
            // glibc: EDOM for x < 0.
            let zero = Term::fp(Float::zero(format_of(&f(0)), false));
            self.set_errno(st, Some(mk(Op::FpLt, vec![f(0), zero])), crate::env::EDOM);
            mk(Op::FpSqrt, vec![rm(r), f(0)])
        } else if one_arg("floor") {
            mk(Op::FpRoundToIntegral, vec![rm(RoundingMode::TowardNegative), f(0)])
        } else if one_arg("ceil") {
            mk(Op::FpRoundToIntegral, vec![rm(RoundingMode::TowardPositive), f(0)])
        } else if one_arg("trunc") {
            mk(Op::FpRoundToIntegral, vec![rm(RoundingMode::TowardZero), f(0)])
        } else if one_arg("round") {
            mk(Op::FpRoundToIntegral, vec![rm(RoundingMode::NearestTiesToAway), f(0)])
        } else if one_arg("rint") || one_arg("nearbyint") {
            mk(Op::FpRoundToIntegral, vec![rm(r), f(0)])
        } else if two_args("fmin") || two_args("fmax") {
            // C: if one argument is NaN, the other is returned.
            let (a, b) = (f(0), f(1));
            let o = if name.starts_with("fmin") { Op::FpMin } else { Op::FpMax };
            mk(o, vec![a, b])
        } else if two_args("copysign") {
            let (a, b) = (f(0), f(1));
            let abs = mk(Op::FpAbs, vec![a]);
            mk(
                Op::Ite,
                vec![self.sign_bit(st, &b), mk(Op::FpNeg, vec![abs.clone()]), abs],
            )
        } else if two_args("fmod") || two_args("remainder") {
            // glibc: EDOM for y = 0 (x not NaN) or x infinite (y not NaN).
            let (x, y) = (f(0), f(1));
            let not_nan = |t: &Term| mk(Op::Not, vec![mk(Op::FpIsNaN, vec![t.clone()])]);
            let zero_y = mk(Op::And, vec![mk(Op::FpIsZero, vec![y.clone()]), not_nan(&x)]);
            let inf_x = mk(Op::And, vec![mk(Op::FpIsInfinite, vec![x.clone()]), not_nan(&y)]);
            self.set_errno(st, Some(mk(Op::Or, vec![zero_y, inf_x])), crate::env::EDOM);
            if name.starts_with("fmod") {
                arith::fmod(&x, &y)
            } else {
                mk(Op::FpRem, vec![x, y])
            }
        } else if libm_suffix(name, "fma").is_some() && args.len() == 3 {
            mk(Op::FpFma, vec![rm(r), f(0), f(1), f(2)])
        } else if let Some(op) = [
            "__isnan",
            "__isinf",
            "__finite",
            "__signbit",
            "isnan",
            "isinf",
            "finite",
        ]
        .iter()
        .find(|b| libm_suffix(name, b).is_some() && args.len() == 1)
        {
            let x = f(0);
            let c = match *op {
                "__isnan" | "isnan" => mk(Op::FpIsNaN, vec![x]),
                "__isinf" | "isinf" => mk(Op::FpIsInfinite, vec![x]),
                "__finite" | "finite" => mk(
                    Op::Not,
                    vec![mk(
                        Op::Or,
                        vec![mk(Op::FpIsNaN, vec![x.clone()]), mk(Op::FpIsInfinite, vec![x])],
                    )],
                ),
                _ => self.sign_bit(st, &x),
            };
            let v = mk(Op::Ite, vec![c, bv(32, 1), bv(32, 0)]);
            if let Some(d) = dest {
                st.frame_mut().regs.insert(d.clone(), Val::Bv(v));
            }
            return Ok(Some(Outcome::Continue));
        } else if two_args("ldexp") || two_args("scalbn") {
            return self.ldexp(st, name, &f(0), args[1].bv(), dest, loc).map(Some);
        } else if two_args("modf") || two_args("frexp") {
            return self.split_float(st, name, &f(0), args[1].bv(), dest, loc).map(Some);
        } else if TRANSCENDENTAL.iter().any(|b| libm_suffix(name, b).is_some()) {
            return self.concretized_libm(st, name, args, dest, loc).map(Some);
        } else {
            return Ok(None);
        };
        if let Some(d) = dest {
            st.frame_mut().regs.insert(d.clone(), Val::Fp(res));
        }
        Ok(Some(Outcome::Continue))
    }

    /// ldexp(x, n) = x·2^n, rounded once in the current mode (exact unless
    /// it overflows or underflows). A symbolic n is made concrete.
    fn ldexp(
        &mut self,
        st: &mut State,
        name: &str,
        x: &Term,
        n: &Term,
        dest: Option<&Name>,
        loc: &Option<Loc>,
    ) -> Result<Outcome, ExecError> {
        let n = match as_bv(n) {
            Some(v) => v as u32 as i32 as i64,
            None => self.concretize(st, n, loc, &format!("exponent of {name}")) as u32 as i32 as i64,
        };
        let fmt = format_of(x);
        let r = st.rm;
        // 2^n may not be a float of the format: scale in steps that stay
        // exact (powers of two within range), rounding only at the last.
        let mut acc = x.clone();
        let mut left = n;
        let step = fmt.emax() - 1;
        while left > step || left < -step {
            let k = if left > 0 { step } else { -step };
            let p = Term::fp(Float::pow2(fmt, k).expect("in range"));
            // Intermediate products are exact unless they overflow (then
            // the result overflows anyway) or fall below the normal range,
            // which only the final, rounded step may do: move the large
            // factor first when scaling down.
            acc = mk(Op::FpMul, vec![rm(r), acc, p]);
            left -= k;
        }
        let p = Term::fp(Float::pow2(fmt, left).expect("in range"));
        let res = mk(Op::FpMul, vec![rm(r), acc, p]);
        // glibc: ERANGE when a finite non-zero x gives an infinity or a zero.
        let finite_nonzero = mk(
            Op::Not,
            vec![mk(
                Op::Or,
                vec![
                    mk(Op::FpIsNaN, vec![x.clone()]),
                    mk(Op::FpIsInfinite, vec![x.clone()]),
                    mk(Op::FpIsZero, vec![x.clone()]),
                ],
            )],
        );
        let out = mk(
            Op::Or,
            vec![
                mk(Op::FpIsInfinite, vec![res.clone()]),
                mk(Op::FpIsZero, vec![res.clone()]),
            ],
        );
        self.set_errno(st, Some(mk(Op::And, vec![finite_nonzero, out])), crate::env::ERANGE);
        if let Some(d) = dest {
            st.frame_mut().regs.insert(d.clone(), Val::Fp(res));
        }
        Ok(Outcome::Continue)
    }

    /// modf(x, &ip): ip = trunc(x), returns x - ip with x's sign (±0 for
    /// infinities). frexp(x, &e): x = m·2^e with 0.5 <= |m| < 1; a symbolic
    /// x is made concrete for frexp.
    fn split_float(
        &mut self,
        st: &mut State,
        name: &str,
        x: &Term,
        p: &Term,
        dest: Option<&Name>,
        loc: &Option<Loc>,
    ) -> Result<Outcome, ExecError> {
        let fmt = format_of(x);
        let fty = match fmt {
            f if f == Format::BINARY32 => Type::FPType(llvm_ir::types::FPType::Single),
            f if f == Format::X86_FP80 => Type::FPType(llvm_ir::types::FPType::X86_FP80),
            _ => Type::FPType(llvm_ir::types::FPType::Double),
        };
        let (ret, stored, sty) = if name.starts_with("modf") {
            let ip = mk(Op::FpRoundToIntegral, vec![rm(RoundingMode::TowardZero), x.clone()]);
            let diff = mk(
                Op::FpSub,
                vec![rm(RoundingMode::NearestTiesToEven), x.clone(), ip.clone()],
            );
            let zero = Term::fp(Float::zero(fmt, false));
            let frac = mk(Op::Ite, vec![mk(Op::FpIsInfinite, vec![x.clone()]), zero, diff]);
            let abs = mk(Op::FpAbs, vec![frac]);
            let neg = self.sign_bit(st, x);
            let frac = mk(Op::Ite, vec![neg, mk(Op::FpNeg, vec![abs.clone()]), abs]);
            (Val::Fp(frac), Val::Fp(ip), fty)
        } else {
            let b = self.bits_of(st, x);
            let v = match as_bv(&b) {
                Some(v) => v,
                None => self.concretize(st, &b, loc, &format!("argument of {name}")),
            };
            let xv = Float::from_bits(fmt, v);
            let (m, e) = if xv.is_nan() || xv.is_infinite() || xv.is_zero() {
                (xv, 0i64)
            } else {
                // |x| = m·2^e with m in [0.5, 1): e = floor(log2|x|) + 1.
                let mut e = xv.exponent().expect("finite non-zero") + 1;
                let scaled = |e: i64| {
                    let mut acc = xv;
                    let mut left = -e;
                    while left != 0 {
                        let k = left.clamp(-(fmt.emax() - 1), fmt.emax() - 1);
                        acc = acc
                            .mul(Float::pow2(fmt, k).expect("in range"), RoundingMode::NearestTiesToEven)
                            .value;
                        left -= k;
                    }
                    acc
                };
                let half = num_rational::BigRational::new(1.into(), 2.into());
                let mut m = scaled(e);
                while m.abs().to_rational().is_some_and(|r| r < half) {
                    e -= 1;
                    m = scaled(e);
                }
                (m, e)
            };
            (
                Val::Fp(Term::fp(m)),
                Val::Bv(bv(32, e as i32 as u32 as u128)),
                Type::IntegerType { bits: 32 },
            )
        };
        match self.store(st, p, &stored, &sty, loc.clone())? {
            Outcome::Continue => {}
            other => return Ok(other),
        }
        if let Some(d) = dest {
            st.frame_mut().regs.insert(d.clone(), ret);
        }
        Ok(Outcome::Continue)
    }

    /// A byte count argument, made concrete (with an event) if symbolic.
    fn length(&mut self, st: &mut State, n: &Term, loc: &Option<Loc>, what: &str) -> u64 {
        match as_bv(n) {
            Some(n) => n as u64,
            None => self.concretize(st, n, loc, &format!("{what} of a symbolic length")) as u64,
        }
    }

    /// Resolves `n` bytes at `p` (object base and offset); states split
    /// off for other objects the pointer may reach go to `forks`; a bug
    /// ends the path (`Err`).
    fn region(
        &mut self,
        st: &mut State,
        p: &Term,
        n: u64,
        loc: &Option<Loc>,
        write: bool,
        forks: &mut Vec<State>,
    ) -> Result<Result<(u64, Term), End>, ExecError> {
        Ok(match self.resolve(st, p, n, loc, write)? {
            crate::exec::Access::At(b, o) => Ok((b, o)),
            crate::exec::Access::Bug(v) => Err(End::Error(v)),
            crate::exec::Access::Elsewhere(b, o, f) => {
                forks.extend(f);
                Ok((b, o))
            }
        })
    }

    /// Ends `st` with `end` while the states in `forks` go on.
    pub fn end_keeping(&mut self, st: &mut State, end: End, mut forks: Vec<State>) -> Outcome {
        if forks.is_empty() {
            return Outcome::End(end);
        }
        let next = forks.remove(0);
        self.side_ends.push((std::mem::replace(st, next), end));
        if forks.is_empty() {
            Outcome::Continue
        } else {
            Outcome::Fork(forks)
        }
    }

    /// The sign bit of a float (NaN included: its encoding's sign).
    fn sign_bit(&mut self, st: &mut State, x: &Term) -> Term {
        let b = self.bits_of(st, x);
        let w = width(&b);
        mk(Op::Eq, vec![mk(Op::BvExtract(w - 1, w - 1), vec![b]), bv(1, 1)])
    }

    /// A transcendental function: the arguments are made concrete (model
    /// values, constrained on the path) and the host's libm computes.
    fn concretized_libm(
        &mut self,
        st: &mut State,
        name: &str,
        args: &[Val],
        dest: Option<&Name>,
        loc: &Option<Loc>,
    ) -> Result<Outcome, ExecError> {
        if args
            .iter()
            .any(|a| matches!(a, Val::Fp(t) if format_of(t) == Format::X86_FP80))
        {
            // glibc's x87 versions cannot be called from here; a double
            // stand-in would give wrong findings.
            return Ok(Outcome::End(End::Partial(format!(
                "{name} (long double) is not modelled"
            ))));
        }
        let mut xs = Vec::new();
        let mut fmt = Format::BINARY64;
        for a in args {
            let t = a.fp().clone();
            fmt = format_of(&t);
            let b = self.bits_of(st, &t);
            let v = match as_bv(&b) {
                Some(v) => v,
                None => self.concretize(st, &b, loc, &format!("argument of {name}")),
            };
            let x = Float::from_bits(fmt, v);
            xs.push(
                x.to_f64()
                    .or_else(|| {
                        x.convert(Format::BINARY64, RoundingMode::NearestTiesToEven)
                            .value
                            .to_f64()
                    })
                    .unwrap_or(f64::NAN),
            );
        }
        st.concretized = true;
        self.events.push(crate::report::Event::Concretized {
            loc: loc.clone(),
            reason: format!("call to {name} computed natively"),
        });
        let base = TRANSCENDENTAL
            .iter()
            .find(|b| libm_suffix(name, b).is_some())
            .copied()
            .unwrap_or(name);
        let v = if fmt == Format::BINARY32 {
            let xs: Vec<f32> = xs.iter().map(|x| *x as f32).collect();
            crate::native_libm::call_f32(base, &xs, st.rm).map(|(v, e)| (f64::from(v), e))
        } else {
            crate::native_libm::call_f64(base, &xs, st.rm)
        };
        let Some((v, errno)) = v else {
            return Ok(Outcome::End(End::Partial(format!("{name} is not modelled"))));
        };
        if errno != 0 {
            self.set_errno(st, None, errno as u32);
        }
        let r = Float::from_f64(v).convert(fmt, RoundingMode::NearestTiesToEven).value;
        if let Some(d) = dest {
            st.frame_mut().regs.insert(d.clone(), Val::Fp(Term::fp(r)));
        }
        Ok(Outcome::Continue)
    }

    fn intrinsic(
        &mut self,
        st: &mut State,
        intr: &str,
        args: &[Val],
        dest: Option<&Name>,
        loc: &Option<Loc>,
    ) -> Result<Outcome, ExecError> {
        let r = st.rm;
        let family = intr.split('.').next().unwrap_or("");
        let f = |k: usize| args[k].fp().clone();
        let set = |st: &mut State, v: Val| {
            if let Some(d) = dest {
                st.frame_mut().regs.insert(d.clone(), v);
            }
        };
        // Element-wise intrinsics work on scalars and on vectors lane by lane.
        let lanes = |st: &mut State, f: &mut dyn FnMut(&[Val]) -> Term| {
            let v = crate::exec::map_lanes(args, &mut |a| Val::Fp(f(a)));
            set(st, v);
        };
        match family {
            "experimental" if intr.starts_with("experimental.constrained.") => {
                return self.constrained(st, intr, args, dest, loc)
            }
            "va_start" => return self.va_start(st, &args[0], loc),
            "va_end" => {}
            "va_copy" => {
                // The va_list is 24 bytes; its areas belong to the frame.
                let copy = [args[0].clone(), args[1].clone(), Val::Bv(bv(64, 24)), Val::Bv(bv(1, 0))];
                return self.intrinsic(st, "memcpy.p0i8.p0i8.i64", &copy, None, loc);
            }
            "dbg" | "lifetime" | "experimental" | "assume" | "donothing" | "var" | "annotation" => {}
            "fabs" => lanes(st, &mut |a| mk(Op::FpAbs, vec![a[0].fp().clone()])),
            "sqrt" => lanes(st, &mut |a| mk(Op::FpSqrt, vec![rm(r), a[0].fp().clone()])),
            "fma" => lanes(st, &mut |a| {
                mk(
                    Op::FpFma,
                    vec![rm(r), a[0].fp().clone(), a[1].fp().clone(), a[2].fp().clone()],
                )
            }),
            "fmuladd" => lanes(st, &mut |a| {
                // Unfused, as the x86-64 baseline lowers it.
                let p = mk(Op::FpMul, vec![rm(r), a[0].fp().clone(), a[1].fp().clone()]);
                mk(Op::FpAdd, vec![rm(r), p, a[2].fp().clone()])
            }),
            "copysign" if !matches!(args.first(), Some(Val::Agg(_))) => {
                let abs = mk(Op::FpAbs, vec![f(0)]);
                let neg = self.sign_bit(st, &f(1));
                set(
                    st,
                    Val::Fp(mk(Op::Ite, vec![neg, mk(Op::FpNeg, vec![abs.clone()]), abs])),
                );
            }
            "floor" | "ceil" | "trunc" | "rint" | "nearbyint" | "round" | "roundeven" => {
                let m = match family {
                    "floor" => RoundingMode::TowardNegative,
                    "ceil" => RoundingMode::TowardPositive,
                    "trunc" => RoundingMode::TowardZero,
                    "round" => RoundingMode::NearestTiesToAway,
                    "roundeven" => RoundingMode::NearestTiesToEven,
                    _ => r,
                };
                lanes(st, &mut |a| mk(Op::FpRoundToIntegral, vec![rm(m), a[0].fp().clone()]));
            }
            "minnum" | "maxnum" => {
                let o = if family == "minnum" { Op::FpMin } else { Op::FpMax };
                lanes(st, &mut |a| mk(o.clone(), vec![a[0].fp().clone(), a[1].fp().clone()]));
            }
            "memcpy" | "memmove" | "memset" => {
                let mut forks = Vec::new();
                let n = self.length(st, args[2].bv(), loc, family);
                if n == 0 {
                    return Ok(Outcome::Continue);
                }
                let cells = if family == "memset" {
                    vec![Cell::byte(crate::exec::resize(args[1].bv(), 8, false)); n as usize]
                } else {
                    let (b, off) = match self.region(st, args[1].bv(), n, loc, false, &mut forks)? {
                        Ok(r) => r,
                        Err(end) => return Ok(self.end_keeping(st, end, forks)),
                    };
                    let Some(k) = as_bv(&off) else {
                        let end = End::Partial(format!("{family} from a symbolic offset"));
                        return Ok(self.end_keeping(st, end, forks));
                    };
                    st.mem.read(b, k as u64, n)
                };
                let (b, off) = match self.region(st, args[0].bv(), n, loc, true, &mut forks)? {
                    Ok(r) => r,
                    Err(end) => return Ok(self.end_keeping(st, end, forks)),
                };
                self.write_at(st, b, &off, &cells, loc);
                if !forks.is_empty() {
                    return Ok(Outcome::Fork(forks));
                }
            }
            "stacksave" => {
                let mark = st.frame().allocas.len();
                st.frame_mut().stack_marks.push(mark);
                set(st, Val::Bv(bv(64, mark as u128)));
            }
            "stackrestore" => {
                let mark = as_bv(args[0].bv()).unwrap_or(0) as usize;
                let n = st.frame().allocas.len();
                let gone: Vec<u64> = st.frame_mut().allocas.split_off(mark.min(n));
                for a in gone {
                    st.mem.kill(a);
                }
            }
            "trap" | "debugtrap" => {
                return Ok(Outcome::End(End::Error(
                    Violation::new(Kind::Abort, loc.clone(), st).with_message("llvm.trap"),
                )))
            }
            "flt" => set(
                st,
                Val::Bv(bv(
                    32,
                    match r {
                        RoundingMode::TowardZero => 0,
                        RoundingMode::NearestTiesToEven | RoundingMode::NearestTiesToAway => 1,
                        RoundingMode::TowardPositive => 2,
                        RoundingMode::TowardNegative => 3,
                    },
                )),
            ),
            _ => return Err(ExecError::Unsupported(format!("intrinsic llvm.{intr}"))),
        }
        Ok(Outcome::Continue)
    }
}
