//! Local memory: the objects `alloca` makes (local arrays and structs,
//! variables whose address is taken), one abstract value per scalar they
//! hold, at its byte offset on x86-64 ([`Layout`]).
//!
//! A pointer into an object is a set of byte offsets ([`Addr`]). An access
//! is followed only when every offset it may use starts a scalar of the
//! accessed type inside the object; anything else (an index that may be
//! out of bounds, a scalar read as another type, a pointer that outlived
//! its call) makes the analysis give up, so a claim never rests on memory
//! it did not follow. A store to one offset replaces the scalar's value; to
//! several, it joins into each (any of them may be the one written).

use super::*;
use crate::value::Addr;
use fpsym_engine::layout::Layout;
use fpsym_frontend::llvm_ir::TypeRef;
use fpsym_frontend::CType;
use std::rc::Rc;

/// Objects holding more scalars than this are not followed.
const MAX_CELLS: usize = 4096;

/// What one `alloca` allocates.
#[derive(Debug)]
pub(super) struct Object {
    /// Each scalar's byte offset and IR type, in order.
    cells: Vec<(i128, TypeRef)>,
    /// The C variable (name, type), when the debug information has it.
    c: Option<(String, CType)>,
}

impl Object {
    fn cell(&self, off: i128) -> Option<&TypeRef> {
        self.cells
            .binary_search_by_key(&off, |(o, _)| *o)
            .ok()
            .map(|k| &self.cells[k].1)
    }

    /// The C expression of the scalar at `off` (`y[2]`, `s.b[1]`).
    pub(super) fn c_path(&self, var: &Name, off: i128) -> String {
        match &self.c {
            Some((name, ty)) => format!("{name}{}", c_path(ty, off as u64 * 8)),
            None if off == 0 => name_str(var),
            None => format!("{}+{off}", name_str(var)),
        }
    }
}

fn c_path(t: &CType, bits: u64) -> String {
    match t {
        CType::Array { element, .. } if element.size_bits() > 0 => {
            let s = element.size_bits();
            format!("[{}]{}", bits / s, c_path(element, bits % s))
        }
        CType::Record {
            fields, union: false, ..
        } => match fields.iter().rev().find(|f| f.offset_bits <= bits) {
            Some(f) => format!(".{}{}", f.name, c_path(&f.ty, bits - f.offset_bits)),
            None => String::new(),
        },
        _ if bits == 0 => String::new(),
        _ => format!("+{}", bits / 8),
    }
}

/// The scalars of a value of type `t` at byte `base`.
fn flatten(layout: &Layout, t: &TypeRef, base: i128, out: &mut Vec<(i128, TypeRef)>) -> Result<(), String> {
    if out.len() > MAX_CELLS {
        return Err(format!("more than {MAX_CELLS} scalars"));
    }
    match layout.resolve(t) {
        Some(Type::ArrayType {
            element_type,
            num_elements,
        }) => {
            let step = layout.alloc_size(element_type) as i128;
            for k in 0..*num_elements as i128 {
                flatten(layout, element_type, base + k * step, out)?;
            }
        }
        Some(Type::StructType {
            element_types,
            is_packed,
        }) => {
            let (offs, _) = layout.struct_offsets(element_types, *is_packed);
            for (f, o) in element_types.iter().zip(offs) {
                flatten(layout, f, base + o as i128, out)?;
            }
        }
        Some(_) => out.push((base, t.clone())),
        None => return Err("an opaque struct".into()),
    }
    Ok(())
}

/// A scalar of type `cell` may be accessed as type `t`: the same type, or
/// any two pointers.
fn same_type(cell: &Type, t: &Type) -> bool {
    cell == t || matches!((cell, t), (Type::PointerType { .. }, Type::PointerType { .. }))
}

/// The scalars of a constant (a global's initializer) at byte `base`, with
/// their values (None: a value the analysis does not read).
fn constant_cells(layout: &Layout, c: &Constant, base: i128, out: &mut Vec<(i128, TypeRef, Option<Val>)>) -> bool {
    match c {
        Constant::Array { element_type, elements } => {
            let step = layout.alloc_size(element_type) as i128;
            elements
                .iter()
                .enumerate()
                .all(|(k, e)| constant_cells(layout, e, base + k as i128 * step, out))
        }
        Constant::Struct { values, is_packed, .. } => {
            let types: Vec<TypeRef> = values.iter().map(|v| layout.types.type_of(v)).collect();
            let (offs, _) = layout.struct_offsets(&types, *is_packed);
            values
                .iter()
                .zip(offs)
                .all(|(v, o)| constant_cells(layout, v, base + o as i128, out))
        }
        Constant::AggregateZero(t) => {
            let mut cells = Vec::new();
            if flatten(layout, t, base, &mut cells).is_err() {
                return false;
            }
            out.extend(cells.into_iter().map(|(o, t)| {
                let v = zero_of(&t).or_else(|| matches!(t.as_ref(), Type::PointerType { .. }).then_some(Val::Top));
                (o, t, v)
            }));
            true
        }
        c => {
            let t = layout.types.type_of(c);
            let v = match c {
                Constant::Null(_) => Some(Val::Top),
                c => const_val(c),
            };
            out.push((base, t, v));
            true
        }
    }
}

impl<'p> Analyzer<'p> {
    /// `alloca`: a new object, every scalar of it any value of its type.
    pub(super) fn alloca(
        &mut self,
        ctx: Ctx,
        f: &Function,
        x: &llvm_ir::instruction::Alloca,
        st: &mut HashMap<Key, Val>,
    ) -> Result<Val, String> {
        let var = self
            .prog
            .local_variable(&f.name, &name_str(&x.dest))
            .map(|v| (v.name, v.ty));
        let shown = var.as_ref().map_or(name_str(&x.dest), |v| v.0.clone());
        match const_val_of(&x.num_elements) {
            Some(1) => {}
            _ => return Err(format!("`{shown}`: an array of variable length")),
        }
        let layout = Layout::new(self.module);
        let mut cells = Vec::new();
        flatten(&layout, &x.allocated_type, 0, &mut cells).map_err(|e| format!("`{shown}`: {e}"))?;
        if cells.len() > MAX_CELLS {
            return Err(format!("`{shown}`: more than {MAX_CELLS} scalars"));
        }
        // (an object made again: its earlier values are gone)
        let mine = |k: &Key| matches!(cell_of(k), Some((c, n, _)) if c == ctx && *n == x.dest);
        st.retain(|k, _| !mine(k) && !matches!(k, Key::Same(_, m) if mine(m)));
        for (off, t) in &cells {
            st.insert(Key::Cell(ctx, x.dest.clone(), *off), top_of(t).unwrap_or(Val::Top));
        }
        let size = layout.alloc_size(&x.allocated_type) as i128;
        self.objects
            .insert((ctx, x.dest.clone()), Rc::new(Object { cells, c: var }));
        Ok(Val::Addr(Addr {
            ctx,
            var: x.dest.clone(),
            lo: 0,
            hi: 0,
            stride: 0,
            size,
        }))
    }

    /// The C expression of a local object's scalar (its key).
    pub(super) fn cell_name(&self, k: &Key) -> String {
        match k {
            Key::Cell(c, n, off) => match self.objects.get(&(*c, n.clone())) {
                Some(o) => o.c_path(n, *off),
                None => format!("{}+{off}", name_str(n)),
            },
            _ => String::new(),
        }
    }

    fn object(&self, a: &Addr) -> Option<Rc<Object>> {
        self.objects.get(&(a.ctx, a.var.clone())).cloned()
    }

    /// The name of object `a` points into, for messages.
    fn shown(&self, a: &Addr) -> String {
        self.object(a)
            .and_then(|o| o.c.as_ref().map(|c| c.0.clone()))
            .unwrap_or_else(|| name_str(&a.var))
    }

    /// `getelementptr` from a pointer into an object: the offsets it may give.
    pub(super) fn gep(&self, a: &Addr, pointee: &TypeRef, indices: &[Val]) -> Result<Addr, String> {
        let layout = Layout::new(self.module);
        let bad = || {
            format!(
                "an address computed into `{}` the analysis does not follow",
                self.shown(a)
            )
        };
        let mut out = a.clone();
        let mut ty = pointee.clone();
        for (k, idx) in indices.iter().enumerate() {
            let Val::I(r) = idx else { return Err(bad()) };
            let step = if k == 0 {
                layout.alloc_size(&ty) as i128
            } else {
                match layout.resolve(&ty) {
                    Some(Type::ArrayType { element_type, .. }) | Some(Type::VectorType { element_type, .. }) => {
                        let e = element_type.clone();
                        ty = e;
                        layout.alloc_size(&ty) as i128
                    }
                    Some(Type::StructType { .. }) => {
                        let field = r.as_point().ok_or_else(bad)? as usize;
                        let off = layout.field_offset(&ty, field).ok_or_else(bad)? as i128;
                        ty = layout.member(&ty, field).ok_or_else(bad)?;
                        out = out.plus(1, 1, off).ok_or_else(bad)?;
                        continue;
                    }
                    _ => return Err(bad()),
                }
            };
            out = out.plus(r.lo, r.hi, step).ok_or_else(bad)?;
        }
        Ok(out)
    }

    /// The scalars an access of type `t` through a pointer to any of
    /// `places` may touch.
    fn cells_of(&self, places: &[Addr], t: &Type, st: &HashMap<Key, Val>) -> Result<Vec<Key>, String> {
        let mut out = Vec::new();
        for a in places {
            out.extend(self.cells(a, t, st)?);
        }
        if out.len() > MAX_CELLS {
            return Err(format!("an access at more than {MAX_CELLS} places"));
        }
        Ok(out)
    }

    /// The scalars an access of type `t` through `a` may touch.
    fn cells(&self, a: &Addr, t: &Type, st: &HashMap<Key, Val>) -> Result<Vec<Key>, String> {
        let name = self.shown(a);
        let gone = || format!("an access to `{name}` after its call returned");
        let obj = self.object(a).ok_or_else(gone)?;
        let offs = a
            .offsets(MAX_CELLS)
            .ok_or_else(|| format!("an access to `{name}` at more than {MAX_CELLS} places"))?;
        let mut out = Vec::with_capacity(offs.len());
        for off in offs {
            match obj.cell(off) {
                Some(ct) if same_type(ct, t) => {
                    let k = Key::Cell(a.ctx, a.var.clone(), off);
                    if !st.contains_key(&k) {
                        return Err(gone());
                    }
                    out.push(k)
                }
                Some(ct) => {
                    return Err(format!(
                        "`{}` (a {ct}) read or written as another type ({t})",
                        obj.c_path(&a.var, off)
                    ))
                }
                None if off < 0 || off >= a.size => {
                    return Err(format!("an access to `{name}` that may be out of its bounds"))
                }
                None => return Err(format!("an access inside a scalar of `{name}` (byte {off})")),
            }
        }
        Ok(out)
    }

    /// A load of type `t` through a pointer to `places`: the join of the
    /// scalars it may read.
    #[allow(clippy::type_complexity)]
    pub(super) fn load_local(
        &self,
        places: &[Addr],
        t: &Type,
        st: &HashMap<Key, Val>,
    ) -> Result<(Val, Option<Val>, Option<Key>), String> {
        let keys = self.cells_of(places, t, st)?;
        let v = keys
            .iter()
            .map(|k| st.get(k).cloned().unwrap_or(Val::Top))
            .reduce(|x, y| x.join(&y))
            .unwrap_or(Val::Top);
        // one scalar: its linear form goes with its value
        let (form, one) = match keys.as_slice() {
            [k] => (st.get(&Key::Form(Box::new(k.clone()))).cloned(), Some(k.clone())),
            _ => (None, None),
        };
        Ok((v, form, one))
    }

    /// A store of `v` (with its linear form) through a pointer to `places`:
    /// to one scalar, it replaces its value; to several, it may be any one
    /// of them.
    pub(super) fn store_local(
        &self,
        places: &[Addr],
        t: &Type,
        v: Val,
        form: Option<Val>,
        st: &mut HashMap<Key, Val>,
    ) -> Result<(), String> {
        let keys = self.cells_of(places, t, st)?;
        let strong = keys.len() == 1;
        for k in keys {
            written(st, &k);
            let fk = Key::Form(Box::new(k.clone()));
            if strong {
                match &form {
                    Some(f) => st.insert(fk, f.clone()),
                    None => st.remove(&fk),
                };
                st.insert(k, v.clone());
            } else {
                st.remove(&fk);
                let old = st.get(&k).cloned().unwrap_or(Val::Top);
                st.insert(k, old.join(&v));
            }
        }
        Ok(())
    }

    /// `memset`, `memcpy`, `memmove` (the intrinsics and the library
    /// functions): None when `name` is none of them.
    pub(super) fn mem_intrinsic(
        &self,
        ctx: Ctx,
        name: &str,
        args: &[Operand],
        st: &mut HashMap<Key, Val>,
    ) -> Option<Result<Option<Val>, String>> {
        let kind = ["memset", "memcpy", "memmove"]
            .into_iter()
            .find(|k| name == *k || name.starts_with(&format!("llvm.{k}.")))?;
        let r = (|| {
            let (Some(dst), Some(len)) = (args.first(), args.get(2)) else {
                return Err(format!("a call of `{name}`"));
            };
            let Some(Val::Addr(d)) = self.eval(ctx, st, dst) else {
                return Err(format!("`{name}` of memory the analysis does not follow"));
            };
            let n = match self.eval(ctx, st, len) {
                Some(Val::I(r)) if r.as_point().is_some_and(|n| n >= 0) => r.lo,
                _ => return Err(format!("`{name}` of a length that is not constant")),
            };
            let obj = self
                .object(&d)
                .ok_or_else(|| format!("`{name}` of memory the analysis does not follow"))?;
            if d.lo != d.hi || d.lo < 0 || d.lo + n > d.size {
                return Err(format!(
                    "`{name}` into `{}` that may be out of its bounds",
                    self.shown(&d)
                ));
            }
            let layout = Layout::new(self.module);
            let dst_cells: Vec<(i128, TypeRef)> = obj
                .cells
                .iter()
                .filter(|(o, t)| *o < d.lo + n && *o + layout.store_size(t) as i128 > d.lo)
                .cloned()
                .collect();
            let inside = |o: i128, t: &TypeRef| o >= d.lo && o + layout.store_size(t) as i128 <= d.lo + n;
            let mut writes: Vec<(i128, Val, Option<Val>)> = Vec::new();
            if kind == "memset" {
                let byte = match args.get(1).and_then(|b| self.eval(ctx, st, b)) {
                    Some(Val::I(r)) => r.as_point(),
                    _ => None,
                };
                for (o, t) in &dst_cells {
                    let v = match byte {
                        Some(0) if inside(*o, t) => zero_of(t).unwrap_or(Val::Top),
                        _ => top_of(t).unwrap_or(Val::Top),
                    };
                    writes.push((*o, v, None));
                }
            } else {
                // the source's scalars, by offset from where the copy starts
                let src: Vec<(i128, TypeRef, Option<Val>, Option<Val>)> =
                    match args.get(1).map(|s| self.source(ctx, s, st)) {
                        Some(Some(s)) => s,
                        _ => return Err(format!("`{name}` from memory the analysis does not follow")),
                    };
                for (o, t) in &dst_cells {
                    let rel = o - d.lo;
                    let found = src.iter().find(|(so, st2, _, _)| *so == rel && same_type(st2, t));
                    match found {
                        Some((_, _, Some(v), form)) if inside(*o, t) => writes.push((*o, v.clone(), form.clone())),
                        _ => {
                            return Err(format!(
                                "`{name}` into `{}` from memory of another shape",
                                obj.c_path(&d.var, *o)
                            ))
                        }
                    }
                }
            }
            for (o, v, form) in writes {
                let k = Key::Cell(d.ctx, d.var.clone(), o);
                written(st, &k);
                let fk = Key::Form(Box::new(k.clone()));
                match form {
                    Some(f) => st.insert(fk, f),
                    None => st.remove(&fk),
                };
                st.insert(k, v);
            }
            // (the library functions return their destination)
            Ok(Some(Val::Addr(d)))
        })();
        Some(r)
    }

    /// The scalars a copy reads from `src`, by offset from its start, with
    /// their values and forms: a local object at one offset, or a constant
    /// global (what `double t[4] = {...}` copies from).
    #[allow(clippy::type_complexity)]
    fn source(
        &self,
        ctx: Ctx,
        src: &Operand,
        st: &HashMap<Key, Val>,
    ) -> Option<Vec<(i128, TypeRef, Option<Val>, Option<Val>)>> {
        if let Some(Val::Addr(s)) = self.eval(ctx, st, src) {
            if s.lo != s.hi {
                return None;
            }
            let obj = self.object(&s)?;
            return Some(
                obj.cells
                    .iter()
                    .filter(|(o, _)| *o >= s.lo)
                    .map(|(o, t)| {
                        let k = Key::Cell(s.ctx, s.var.clone(), *o);
                        let form = st.get(&Key::Form(Box::new(k.clone()))).cloned();
                        (*o - s.lo, t.clone(), st.get(&k).cloned(), form)
                    })
                    .collect(),
            );
        }
        let Operand::ConstantOperand(c) = src else { return None };
        let mut c: &Constant = c.as_ref();
        while let Constant::BitCast(b) = c {
            c = b.operand.as_ref();
        }
        let Constant::GlobalReference { name, .. } = c else {
            return None;
        };
        let g = self.module.global_vars.iter().find(|g| g.name == *name)?;
        if !g.is_constant {
            return None;
        }
        let init = g.initializer.as_ref()?;
        let mut cells = Vec::new();
        if !constant_cells(&Layout::new(self.module), init, 0, &mut cells) {
            return None;
        }
        Some(cells.into_iter().map(|(o, t, v)| (o, t, v, None)).collect())
    }
}

/// Memory `m` (a cell or a global) is written: no register still equals it.
pub(super) fn written(st: &mut HashMap<Key, Val>, m: &Key) {
    st.retain(|k, _| !matches!(k, Key::Same(_, m2) if **m2 == *m));
}

/// Register `r` is loaded from `m` (None: from memory of several places).
pub(super) fn loaded(st: &mut HashMap<Key, Val>, r: &Key, m: Option<Key>) {
    st.retain(|k, _| !matches!(k, Key::Same(r2, _) if **r2 == *r));
    if let Some(m) = m {
        st.insert(Key::Same(Box::new(r.clone()), Box::new(m)), Val::Top);
    }
}

/// The object and offset of a scalar's key.
pub(super) fn cell_of(k: &Key) -> Option<(Ctx, &Name, i128)> {
    match k {
        Key::Cell(c, n, o) => Some((*c, n, *o)),
        _ => None,
    }
}

fn const_val_of(op: &Operand) -> Option<i128> {
    match op {
        Operand::ConstantOperand(c) => const_val(c)?.as_i()?.as_point(),
        _ => None,
    }
}
