//! KLEE's and SV-COMP's input and assumption functions:
//! `klee_make_symbolic`, `klee_int`, `klee_range`, `klee_assume` and
//! `__VERIFIER_assume`, `klee_silent_exit`, `__VERIFIER_nondet_*`; and the
//! input variables they (and harnesses, `time`, `clock`) create.

use super::HookCall;
use super::{int_arg, set_result};
use crate::checkers::{Kind, Violation};
use crate::exec::{End, Exec, ExecError, Feasible, Outcome};
use crate::memory::Cell;
use crate::state::{Loc, State, Symbolic};
use crate::term::{as_bv, bv, mk, width};
use crate::value::Val;
use fpsym_expr::{Op, Sort, Term};
use fpsym_float::Format;
use llvm_ir::Type;

/// The functions modelled here, besides `__VERIFIER_nondet_*`.
const NAMES: &[&str] = &[
    "klee_make_symbolic",
    "klee_assume",
    "__VERIFIER_assume",
    "klee_int",
    "klee_range",
    "klee_silent_exit",
];

/// True if this family models `name`.
pub(super) fn models(name: &str) -> bool {
    NAMES.contains(&name)
        || name
            .strip_prefix("__VERIFIER_nondet_")
            .is_some_and(|t| nondet_sort(t, false).is_some())
}

/// The sort and test type of the input `__VERIFIER_nondet_<suffix>` returns
/// (`long`, `size_t` and pointers in 32 bits when `ilp32`).
fn nondet_sort(suffix: &str, ilp32: bool) -> Option<(Sort, &'static str)> {
    Some(match suffix {
        "long" if ilp32 => (Sort::BitVec(32), "i32"),
        "ulong" | "size_t" | "pointer" if ilp32 => (Sort::BitVec(32), "u32"),
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
        _ => return None,
    })
}

impl Exec<'_, '_> {
    /// Runs the model of a KLEE/SV-COMP input or assumption function.
    pub(super) fn klee(&mut self, st: &mut State, call: &HookCall<'_>) -> Result<Outcome, ExecError> {
        let HookCall { name, args, dest, loc } = *call;
        let set = |st: &mut State, v: Val| set_result(st, dest, v);
        let arg_bv = |k: usize| int_arg(name, args, k);
        let out = match name {
            "klee_make_symbolic" => {
                let size = as_bv(&arg_bv(1)?)
                    .ok_or_else(|| ExecError::Unsupported("klee_make_symbolic of a symbolic size".into()))?
                    as u64;
                let label = self.c_string(st, &arg_bv(2)?).unwrap_or_else(|| "sym".into());
                return self.make_symbolic(st, &arg_bv(0)?, size, &label, loc);
            }
            "klee_assume" | "__VERIFIER_assume" => {
                let c = arg_bv(0)?;
                let w = width(&c);
                let holds = mk(Op::Not, vec![mk(Op::Eq, vec![c, bv(w, 0)])]);
                if crate::term::as_bool(&holds) == Some(false) {
                    return Ok(Outcome::End(End::Infeasible));
                }
                match self.feasible(st, std::slice::from_ref(&holds)) {
                    Feasible::Yes(_) => st.constrain(holds),
                    Feasible::No => return Ok(Outcome::End(End::Infeasible)),
                    Feasible::Unknown(why) => {
                        return Ok(Outcome::End(End::Partial(crate::report::Partial::AssumptionUndecided(
                            why.to_string(),
                        ))))
                    }
                }
                Outcome::Continue
            }
            "klee_int" => {
                let label = self.c_string(st, &arg_bv(0)?).unwrap_or_else(|| "int".into());
                let v = self.fresh_input(st, &label, Sort::BitVec(32), "i32");
                self.mark_site(st, name, loc);
                set(st, Val::Bv(v));
                Outcome::Continue
            }
            "klee_range" => {
                let (lo, hi) = (arg_bv(0)?, arg_bv(1)?);
                let label = self.c_string(st, &arg_bv(2)?).unwrap_or_else(|| "range".into());
                let v = self.fresh_input(st, &label, Sort::BitVec(32), "i32");
                self.mark_site(st, name, loc);
                st.constrain(mk(Op::BvSge, vec![v.clone(), lo]));
                st.constrain(mk(Op::BvSlt, vec![v.clone(), hi]));
                set(st, Val::Bv(v));
                Outcome::Continue
            }
            "klee_silent_exit" => Outcome::End(End::Infeasible),
            n if n.starts_with("__VERIFIER_nondet_") => {
                let suffix = &n["__VERIFIER_nondet_".len()..];
                let (sort, ty) = nondet_sort(suffix, self.prog.layout.ilp32).ok_or_else(|| super::unmodelled(n))?;
                let v = self.call_input(st, n, loc, sort, ty);
                // bool is an i1 or an i8 in the IR (the declaration decides);
                // a pointer's register holds 64 bits.
                let v = match (suffix, sort) {
                    (_, Sort::BitVec(1)) => mk(Op::BvZeroExtend(7), vec![v]),
                    ("pointer", Sort::BitVec(32)) => mk(Op::BvZeroExtend(32), vec![v]),
                    _ => v,
                };
                set(st, Val::of(v));
                Outcome::Continue
            }
            _ => return Err(super::unmodelled(name)),
        };
        Ok(out)
    }

    /// The input variable `var` of sort `sort`, at byte offset `at` of
    /// the input object `object`, the path's `index`-th (from 0): a
    /// constant when [`crate::InputOptions::inputs`] gives that object's bytes
    /// (little-endian, as tests hold them) or [`crate::InputOptions::ordered_inputs`]
    /// gives the path's `index`-th object's, else a fresh variable.
    pub fn input_term(&self, object: &str, index: usize, var: &str, sort: Sort, at: u64) -> Term {
        let n = match sort {
            Sort::Float(f) => crate::layout::fp_store_size(f),
            Sort::BitVec(w) => w.div_ceil(8) as u64,
            _ => 0,
        };
        let by_name = self
            .config
            .input
            .inputs
            .as_ref()
            .and_then(|m| m.get(object))
            .filter(|_| !self.config.input.keep_symbolic.contains(&(object.to_string(), at)))
            .and_then(|b| b.get(at as usize..(at + n) as usize).map(<[u8]>::to_vec));
        // A record gives the object's first bytes; zeros follow (as the
        // replay driver reads it).
        let by_order = || {
            let record = self
                .config
                .input
                .ordered_inputs
                .as_ref()?
                .get(index)
                .map_or(&[][..], Vec::as_slice);
            Some(
                (at..at + n)
                    .map(|i| record.get(i as usize).copied().unwrap_or(0))
                    .collect::<Vec<u8>>(),
            )
        };
        let bytes = by_name.or_else(by_order);
        match (bytes.as_deref(), sort) {
            (Some(b), Sort::Float(f)) if n <= 16 => {
                let bits = b.iter().rev().fold(0u128, |a, x| (a << 8) | *x as u128);
                let mask = if f.packed_width() >= 128 {
                    u128::MAX
                } else {
                    (1u128 << f.packed_width()) - 1
                };
                crate::term::fp(fpsym_float::Float::from_bits(f, bits & mask))
            }
            (Some(b), Sort::BitVec(w)) if w <= 128 => {
                let bits = b.iter().rev().fold(0u128, |a, x| (a << 8) | *x as u128);
                let mask = if w >= 128 { u128::MAX } else { (1u128 << w) - 1 };
                crate::term::bv(w, bits & mask)
            }
            _ => Term::var(var, sort),
        }
    }

    /// A fresh input variable, recorded as a test object.
    pub fn fresh_input(&mut self, st: &mut State, label: &str, sort: Sort, ty: &str) -> Term {
        let name = st.unique_name(label);
        let v = self.input_term(&name, st.symbolics.len(), &name, sort, 0);
        self.finite_input(st, &v);
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
            site: None,
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
        self.mark_site(st, "klee_make_symbolic", loc);
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
            let v = self.input_term(&name, st.symbolics.len(), &vname, *sort, *lo);
            self.finite_input(st, &v);
            for i in 0..n {
                cells[(lo + i) as usize] = Some(Cell {
                    val: v.clone(),
                    size: n as u8,
                    idx: i as u8,
                });
            }
        }
        let index = st.symbolics.len();
        let cells: Vec<Cell> = cells
            .into_iter()
            .enumerate()
            .map(|(i, c)| {
                c.unwrap_or_else(|| {
                    Cell::byte(self.input_term(&name, index, &format!("{name}[{i}]"), Sort::BitVec(8), i as u64))
                })
            })
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
            site: None,
        });
    }

    /// The call of `function` at `loc` in the current frame, as the site
    /// of an input it gives (None when the call has no location).
    pub fn input_site(&self, st: &State, function: &str, loc: &Option<Loc>) -> Option<fpsym_report::InputSite> {
        let loc = loc.as_ref().filter(|l| l.line > 0)?;
        Some(fpsym_report::InputSite {
            call: function.to_string(),
            function: self.prog.funcs[st.frame().func].name.clone(),
            file: loc.file.clone(),
            line: loc.line,
            column: loc.column,
        })
    }

    /// [`Exec::fresh_input`] for the result of the call of `function` at
    /// `loc`: the input records where it was obtained.
    pub fn call_input(&mut self, st: &mut State, function: &str, loc: &Option<Loc>, sort: Sort, ty: &str) -> Term {
        let label = function
            .strip_prefix("__VERIFIER_nondet_")
            .unwrap_or(function)
            .to_string();
        let v = self.fresh_input(st, &label, sort, ty);
        self.mark_site(st, function, loc);
        v
    }

    /// Records the call of `function` at `loc` as the site of the input
    /// obtained last.
    fn mark_site(&self, st: &mut State, function: &str, loc: &Option<Loc>) {
        let site = self.input_site(st, function, loc);
        if let Some(s) = st.symbolics.last_mut() {
            s.site = site;
        }
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
}
