//! Variadic functions: `llvm.va_start`, `llvm.va_copy`, `llvm.va_end`.
//!
//! clang lowers `va_arg` itself for x86-64 (it emits no `va_arg`
//! instruction), reading the SysV `va_list`:
//! `{ i32 gp_offset, i32 fp_offset, i8* overflow_arg_area, i8* reg_save_area }`.
//! So `va_start` builds what the caller's registers and stack would hold:
//! a 176-byte register save area (six 8-byte integer registers, then eight
//! 16-byte SSE registers) with the variadic arguments in the registers left
//! after the fixed parameters, the rest in an overflow area (8-byte slots;
//! `long double` in 16-byte slots aligned to 16, structs passed `byval` by
//! their bytes), and the `va_list` pointing
//! at both. Both areas live as long as the function's frame.
//!
//! Under ILP32 (i386) the `va_list` is a pointer to the arguments on the
//! stack, each in 4-byte slots (its bytes rounded up to 4: a `double` in
//! two, a `long double` in three), which clang's `va_arg` walks.

use super::{Exec, ExecError, Outcome};
use crate::layout::fp_format;
use crate::memory::{Cell, Kind as MemKind};
use crate::state::{Loc, State};
use crate::term::bv;
use crate::value::Val;
use fpsym_float::Format;
use llvm_ir::Type;

/// Bytes of integer registers in the save area (rdi, rsi, rdx, rcx, r8, r9).
const GP_AREA: u64 = 48;
/// End of the SSE registers in the save area (xmm0-xmm7, 16 bytes each).
const FP_AREA_END: u64 = GP_AREA + 8 * 16;

/// How an argument is passed.
enum Class {
    /// In an integer register (or an 8-byte stack slot).
    Integer,
    /// In an SSE register (or an 8-byte stack slot).
    Sse,
    /// Always in memory, 16 bytes aligned to 16 (x87 long double).
    Memory16,
    /// In memory, its bytes rounded up to 8 and aligned to its alignment
    /// (structs clang passes `byval`).
    Memory { size: u64, align: u64 },
}

impl Exec<'_, '_> {
    fn class_of(&self, t: &Type) -> Option<Class> {
        match self.prog.layout.resolve(t)? {
            Type::IntegerType { bits } if *bits <= 64 => Some(Class::Integer),
            Type::PointerType { .. } => Some(Class::Integer),
            Type::FPType(f) => match fp_format(*f)? {
                x if x == Format::BINARY32 || x == Format::BINARY64 => Some(Class::Sse),
                x if x == Format::X86_FP80 => Some(Class::Memory16),
                _ => None,
            },
            Type::StructType { .. } | Type::ArrayType { .. } => Some(Class::Memory {
                size: self.prog.layout.alloc_size(t).div_ceil(8) * 8,
                align: self.prog.layout.align(t).max(8),
            }),
            _ => None,
        }
    }

    /// The arguments of a call beyond the callee's `fixed` parameters, with
    /// their types; a struct passed `byval` is copied (the callee gets its
    /// bytes, not the pointer).
    pub(crate) fn variadic_arguments(
        &mut self,
        st: &mut State,
        c: &llvm_ir::instruction::Call,
        extra: &[Val],
        fixed: usize,
        loc: &Option<Loc>,
    ) -> Result<Vec<(Val, llvm_ir::TypeRef)>, ExecError> {
        let mut out = Vec::with_capacity(extra.len());
        for (k, v) in extra.iter().enumerate() {
            let (op, attrs) = &c.arguments[fixed + k];
            let byval = attrs.iter().find_map(|a| match a {
                llvm_ir::function::ParameterAttribute::ByVal(t) => Some(t.clone()),
                _ => None,
            });
            let Some(t) = byval else {
                out.push((v.clone(), self.prog.module.types.type_of(op)));
                continue;
            };
            let n = self.prog.layout.store_size(&t);
            let copied = match self.resolve(st, v.bv(), n, loc, false)? {
                super::Access::At(base, off) => self.read_at(st, base, &off, n, &t, loc)?,
                _ => {
                    return Err(ExecError::Unsupported(
                        "a byval variadic argument at an invalid or ambiguous address".into(),
                    ))
                }
            };
            out.push((copied, t));
        }
        Ok(out)
    }

    /// `llvm.va_start(ap)` in the current frame.
    pub(crate) fn va_start(&mut self, st: &mut State, ap: &Val, loc: &Option<Loc>) -> Result<Outcome, ExecError> {
        let func = self.prog.funcs[st.frame().func];
        if !func.is_var_arg {
            return Err(ExecError::Unsupported(
                "va_start in a function that is not variadic".into(),
            ));
        }
        if self.prog.layout.ilp32 {
            return self.va_start_i386(st, ap, loc);
        }
        // Registers taken by the fixed parameters.
        let (mut gp, mut fp) = (0u64, GP_AREA);
        for p in &func.parameters {
            let byval = p
                .attributes
                .iter()
                .any(|a| matches!(a, llvm_ir::function::ParameterAttribute::ByVal(_)));
            if byval {
                continue; // on the stack, no register taken
            }
            match self.class_of(&p.ty) {
                Some(Class::Integer) => gp = (gp + 8).min(GP_AREA),
                Some(Class::Sse) => fp = (fp + 16).min(FP_AREA_END),
                Some(Class::Memory16 | Class::Memory { .. }) => {}
                None => {
                    return Err(ExecError::Unsupported(format!(
                        "va_start after a fixed parameter of type {}",
                        p.ty
                    )))
                }
            }
        }
        let (gp_start, fp_start) = (gp, fp);
        let save = st.mem.allocate(
            FP_AREA_END,
            16,
            MemKind::Stack,
            "va_reg_save_area",
            None,
            Cell::byte(bv(8, 0)),
        );
        let mut overflow: Vec<Cell> = Vec::new();
        let varargs = st.frame().varargs.clone();
        for (v, ty) in &varargs {
            let cells = self.cells_of(v, ty);
            let class = self.class_of(ty).ok_or_else(|| {
                ExecError::Unsupported(format!("a variadic argument of type {ty} (only scalars are modelled)"))
            })?;
            match class {
                Class::Integer if gp + 8 <= GP_AREA => {
                    st.mem.write(save, gp, &cells);
                    gp += 8;
                }
                Class::Sse if fp + 16 <= FP_AREA_END => {
                    st.mem.write(save, fp, &cells);
                    fp += 16;
                }
                Class::Integer | Class::Sse => {
                    let at = overflow.len().div_ceil(8) * 8;
                    overflow.resize(at + 8, Cell::byte(bv(8, 0)));
                    overflow[at..at + cells.len()].clone_from_slice(&cells);
                }
                Class::Memory16 => {
                    let at = overflow.len().div_ceil(16) * 16;
                    overflow.resize(at + 16, Cell::byte(bv(8, 0)));
                    overflow[at..at + cells.len()].clone_from_slice(&cells);
                }
                Class::Memory { size, align } => {
                    let at = overflow.len().div_ceil(align as usize) * align as usize;
                    overflow.resize(at + size as usize, Cell::byte(bv(8, 0)));
                    overflow[at..at + cells.len()].clone_from_slice(&cells);
                }
            }
        }
        let size = (overflow.len() as u64).max(8);
        let area = st.mem.allocate(
            size,
            16,
            MemKind::Stack,
            "va_overflow_arg_area",
            None,
            Cell::byte(bv(8, 0)),
        );
        st.mem.write(area, 0, &overflow);
        st.frame_mut().va_areas.extend([save, area]);
        // The va_list itself: four fields, written as one struct value.
        let types = &self.prog.module.types;
        let ptr = types.pointer_to(types.i8());
        let list_ty = types.struct_of(vec![types.i32(), types.i32(), ptr.clone(), ptr], false);
        let list = Val::Agg(vec![
            Val::Bv(bv(32, gp_start as u128)),
            Val::Bv(bv(32, fp_start as u128)),
            Val::Bv(bv(64, area as u128)),
            Val::Bv(bv(64, save as u128)),
        ]);
        self.store(st, ap.bv(), &list, &list_ty, loc.clone())
    }

    /// i386's `va_start`: the variadic arguments in 4-byte stack slots, and
    /// the `va_list` (a pointer) at the first.
    fn va_start_i386(&mut self, st: &mut State, ap: &Val, loc: &Option<Loc>) -> Result<Outcome, ExecError> {
        let mut area: Vec<Cell> = Vec::new();
        let varargs = st.frame().varargs.clone();
        for (v, ty) in &varargs {
            if self.class_of(ty).is_none() {
                return Err(ExecError::Unsupported(format!(
                    "a variadic argument of type {ty} (only scalars and structs are modelled)"
                )));
            }
            let cells = self.cells_of(v, ty);
            let at = area.len();
            area.resize(at + cells.len().div_ceil(4) * 4, Cell::byte(bv(8, 0)));
            area[at..at + cells.len()].clone_from_slice(&cells);
        }
        let size = (area.len() as u64).max(4);
        let base = st
            .mem
            .allocate(size, 16, MemKind::Stack, "va_arg_area", None, Cell::byte(bv(8, 0)));
        st.mem.write(base, 0, &area);
        st.frame_mut().va_areas.push(base);
        let types = &self.prog.module.types;
        let ptr = types.pointer_to(types.i8());
        self.store(st, ap.bv(), &Val::Bv(bv(64, base as u128)), &ptr, loc.clone())
    }
}
