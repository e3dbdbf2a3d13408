//! `--function` entries: every IR parameter becomes one input (one test
//! object, one record for replay), named and shown as C declares the
//! parameter.
//!
//! C's parameters and the IR's differ on x86-64 SysV: a struct of at most
//! 16 bytes is passed in registers, one IR parameter per eightbyte
//! (`p.coerce0` for bytes 0..8, `p.coerce1` for bytes 8..16, or one
//! `p.coerce`; two floats share one `<2 x float>`); a bigger one (or one
//! holding a `long double`) is a `byval` pointer; a returned struct adds a
//! leading `sret` pointer. [`param_views`] walks both lists together and
//! gives each IR parameter the part of its C parameter it carries, by byte
//! offset: `p.x` when the eightbyte is one member, `p` when it is the whole
//! struct, `m.{id,flags}` when it holds several.

use crate::exec::{Exec, ExecError};
use crate::layout;
use crate::memory::{Cell, Kind as MemKind};
use crate::prog::Prog;
use crate::report;
use crate::shape::Shape;
use crate::state::{State, Symbolic};
use crate::term::{self, bv, mk};
use crate::value::Val;
use fpsym_expr::{Op, Sort, Term};
use fpsym_frontend::CType;
use llvm_ir::function::{Parameter, ParameterAttribute};
use llvm_ir::{Function, Type};

/// How one IR parameter of a `--function` entry appears in tests.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamView {
    /// The IR parameter's name (what `--range` has always matched).
    pub ir_name: String,
    /// The test object's name: the C parameter's name, or the member path
    /// of the part of a struct the IR parameter carries (`p.x`).
    pub name: String,
    /// How a test shows the input; for a pointer, the object it points to
    /// (an array of the pointees). None: bytes only.
    pub shape: Option<Shape>,
    /// A struct passed in memory (`byval` pointer): its object is one
    /// struct, whatever `--array-len` says.
    pub byval: bool,
    /// What elements are named from when not `name`: the C parameter, for
    /// an IR parameter carrying several members (`m.{id,flags}` shows
    /// `m.id` and `m.flags`).
    pub root: Option<String>,
}

fn ir_name(p: &Parameter) -> String {
    match &p.name {
        llvm_ir::Name::Name(s) => s.to_string(),
        llvm_ir::Name::Number(n) => format!("arg{n}"),
    }
}

fn has(p: &Parameter, f: impl Fn(&ParameterAttribute) -> bool) -> bool {
    p.attributes.iter().any(f)
}

/// The view of each IR parameter of `f` (in order), from the debug
/// information where it has `f`, else from the IR types.
pub fn param_views(prog: &Prog, f: &Function, array_len: Option<u64>) -> Vec<ParamView> {
    let layout = &prog.layout;
    let n = array_len.unwrap_or(1);
    let byval = |p: &Parameter| has(p, |a| matches!(a, ParameterAttribute::ByVal(_)));
    let fallback = |p: &Parameter| -> ParamView {
        let b = byval(p);
        let shape = match layout.resolve(&p.ty) {
            Some(Type::PointerType { pointee_type, .. }) => {
                let e = Shape::from_ir(layout, pointee_type);
                if b {
                    e
                } else {
                    e.map(|e| Shape::array(e, n, 8 * layout.alloc_size(pointee_type)))
                }
            }
            _ => Shape::from_ir(layout, &p.ty),
        };
        ParamView {
            ir_name: ir_name(p),
            name: ir_name(p),
            shape,
            byval: b,
            root: None,
        }
    };
    let params = &f.parameters;
    let Some(cparams) = prog.program.param_info(&f.name) else {
        return params.iter().map(fallback).collect();
    };
    let mut views = Vec::with_capacity(params.len());
    let mut k = 0;
    for cp in &cparams {
        // Hidden parameters (a returned struct's storage) are not C's.
        while k < params.len() && has(&params[k], |a| matches!(a, ParameterAttribute::SRet(_))) {
            views.push(fallback(&params[k]));
            k += 1;
        }
        let Some(p) = params.get(k) else { break };
        let cshape = Shape::from_ctype(&cp.ty);
        let ir = layout.resolve(&p.ty);
        match (&cp.ty, ir) {
            (CType::Record { .. } | CType::Other { .. }, Some(Type::PointerType { .. })) => {
                views.push(ParamView {
                    ir_name: ir_name(p),
                    name: cp.name.clone(),
                    shape: cshape,
                    byval: byval(p),
                    root: None,
                });
                k += 1;
            }
            (CType::Record { .. } | CType::Other { .. }, _) => {
                // Passed in registers: one IR parameter per eightbyte.
                let size = cp.ty.size_bits();
                let mut off = 0;
                while off < size {
                    let Some(p) = params.get(k) else { break };
                    let len = 8 * layout.store_size(&p.ty);
                    let part = cshape.as_ref().and_then(|s| s.slice(off, len.min(size - off)));
                    views.push(match part {
                        Some((path, s)) => ParamView {
                            ir_name: ir_name(p),
                            root: path.starts_with(".{").then(|| cp.name.clone()),
                            name: format!("{}{path}", cp.name),
                            shape: Some(s),
                            byval: false,
                        },
                        None => fallback(p),
                    });
                    off = (off + len.max(1)).next_multiple_of(64);
                    k += 1;
                }
            }
            (CType::Pointer { pointee, .. }, Some(Type::PointerType { pointee_type, .. })) => {
                let e = pointee
                    .as_deref()
                    .and_then(Shape::from_ctype)
                    .filter(|_| pointee.as_ref().map(|c| c.size_bits()) == Some(8 * layout.alloc_size(pointee_type)))
                    .or_else(|| Shape::from_ir(layout, pointee_type));
                views.push(ParamView {
                    ir_name: ir_name(p),
                    name: cp.name.clone(),
                    shape: e.map(|e| Shape::array(e, n, 8 * layout.alloc_size(pointee_type))),
                    byval: false,
                    root: None,
                });
                k += 1;
            }
            (CType::Int { .. }, Some(Type::IntegerType { .. })) | (CType::Float { .. }, Some(Type::FPType(_))) => {
                views.push(ParamView {
                    ir_name: ir_name(p),
                    name: cp.name.clone(),
                    shape: cshape.or_else(|| Shape::from_ir(layout, &p.ty)),
                    byval: false,
                    root: None,
                });
                k += 1;
            }
            _ => {
                views.push(fallback(p));
                k += 1;
            }
        }
    }
    views.extend(params[k.min(params.len())..].iter().map(fallback));
    views
}

impl Exec<'_, '_> {
    /// A harness input for an IR parameter of type `t` shown as `view`:
    /// scalars are fresh inputs; vectors, arrays and structs passed by
    /// value one input of one variable per scalar; pointers point to a
    /// fresh object of `array_len` pointees (default 1; one struct for a
    /// `byval` pointer) made symbolic.
    pub fn harness_input(
        &mut self,
        st: &mut State,
        view: &ParamView,
        t: &Type,
        array_len: Option<u64>,
    ) -> Result<Val, ExecError> {
        let name = view.name.as_str();
        let shown = |st: &mut State, fallback: String| {
            let last = st.symbolics.last_mut().expect("an input was just recorded");
            last.ty = view.shape.as_ref().map_or(fallback, |s| s.ty().to_string());
            last.shape = view.shape.clone().or(last.shape.take());
            last.elements_root = view.root.clone();
        };
        Ok(match t {
            Type::IntegerType { bits } => {
                let ty = format!("i{bits}");
                let v = self.fresh_input(st, name, Sort::BitVec(*bits), &ty);
                shown(st, ty);
                Val::Bv(v)
            }
            Type::FPType(f) => {
                let fmt = layout::fp_format(*f).ok_or_else(|| ExecError::Unsupported("ppc_fp128 parameter".into()))?;
                let ty = report::c_type_name(fmt).to_string();
                let v = self.fresh_input(st, name, Sort::Float(fmt), &ty);
                shown(st, ty);
                Val::Fp(v)
            }
            Type::PointerType { pointee_type, .. } => {
                let n = if view.byval { 1 } else { array_len.unwrap_or(1) };
                let elem = self.prog.layout.alloc_size(pointee_type).max(1);
                // Every byte of an input object is a term: keep it to what
                // a harness needs.
                const LIMIT: u64 = 16 << 20;
                let size = elem
                    .checked_mul(n)
                    .filter(|s| *s <= LIMIT)
                    .ok_or_else(|| {
                        ExecError::Unsupported(format!(
                            "{n} elements of {elem} bytes behind parameter {name}: more than the 16 MiB an input object may have"
                        ))
                    })?;
                let arr_ty = self.prog.module.types.array_of(pointee_type.clone(), n as usize);
                let base = st
                    .mem
                    .allocate(size, 16, MemKind::Global, name, Some(arr_ty), Cell::byte(bv(8, 0)));
                let p = bv(64, base as u128);
                self.make_symbolic_at(st, base, 0, size, name);
                // The object is the parameter's, not a global's of the same name.
                let last = st.symbolics.last_mut().expect("an input was just recorded");
                last.shape = view.shape.clone();
                last.ty = view
                    .shape
                    .as_ref()
                    .map_or_else(|| format!("u8[{size}]"), |s| s.ty().to_string());
                last.elements_root = view.root.clone();
                Val::Bv(p)
            }
            Type::VectorType { .. } | Type::ArrayType { .. } | Type::StructType { .. } => {
                let uname = st.unique_name(name);
                let val = self.aggregate_input(&uname, t, 0)?;
                let cells = self.cells_of(st, &val, t);
                let bytes = cells.iter().map(|c| self.byte_of(st, c)).collect();
                let shape = view.shape.clone().or_else(|| Shape::from_ir(&self.prog.layout, t));
                let ty = shape
                    .as_ref()
                    .map_or_else(|| format!("u8[{}]", cells.len()), |s| s.ty().to_string());
                st.symbolics.push(Symbolic {
                    name: uname,
                    ty,
                    bytes,
                    shape,
                    elements_root: view.root.clone(),
                });
                val
            }
            other => return Err(ExecError::Unsupported(format!("parameter {name} of type {other:?}"))),
        })
    }

    /// A value of type `t` with one fresh variable per scalar, named
    /// `name@OFFSET` (its byte offset).
    fn aggregate_input(&self, name: &str, t: &Type, at: u64) -> Result<Val, ExecError> {
        let layout = self.prog.layout;
        let var = |sort| self.input_term(name, &format!("{name}@{at}"), sort, at);
        Ok(match layout.resolve(t) {
            Some(Type::IntegerType { bits }) => Val::Bv(var(Sort::BitVec(*bits))),
            Some(Type::PointerType { .. }) => Val::Bv(var(Sort::BitVec(64))),
            Some(Type::FPType(f)) => {
                let fmt = layout::fp_format(*f).ok_or_else(|| ExecError::Unsupported("ppc_fp128 parameter".into()))?;
                Val::Fp(var(Sort::Float(fmt)))
            }
            Some(Type::VectorType {
                element_type,
                num_elements,
                ..
            }) => {
                let s = layout.store_size(element_type);
                Val::Agg(
                    (0..*num_elements as u64)
                        .map(|k| self.aggregate_input(name, element_type, at + k * s))
                        .collect::<Result<_, _>>()?,
                )
            }
            Some(Type::ArrayType {
                element_type,
                num_elements,
            }) => {
                let s = layout.alloc_size(element_type);
                Val::Agg(
                    (0..*num_elements as u64)
                        .map(|k| self.aggregate_input(name, element_type, at + k * s))
                        .collect::<Result<_, _>>()?,
                )
            }
            Some(Type::StructType {
                element_types,
                is_packed,
            }) => {
                let (offs, _) = layout.struct_offsets(element_types, *is_packed);
                Val::Agg(
                    element_types
                        .iter()
                        .zip(offs)
                        .map(|(e, o)| self.aggregate_input(name, e, at + o))
                        .collect::<Result<_, _>>()?,
                )
            }
            other => return Err(ExecError::Unsupported(format!("parameter {name} of type {other:?}"))),
        })
    }

    /// `--range` on a pointer parameter: every float of the object it
    /// points to (each element of an array input) lies in `[lo, hi]`.
    pub fn range_pointee(&mut self, st: &mut State, p: &Val, bounds: (f64, f64)) -> Result<(), String> {
        let base = match p {
            Val::Bv(t) => term::as_bv(t).map(|b| b as u64),
            _ => None,
        }
        .ok_or("a pointer parameter whose object is not known")?;
        let o = st.mem.find(base).ok_or("a pointer parameter without an object")?;
        let floats: Vec<Term> = o
            .cells
            .iter()
            .filter(|c| c.idx == 0 && matches!(c.val.sort(), Sort::Float(_)))
            .map(|c| c.val.clone())
            .collect();
        if floats.is_empty() {
            return Err("its object holds no floating-point value".into());
        }
        for f in floats {
            self.range(st, &Val::Fp(f), bounds, None)?;
        }
        Ok(())
    }

    /// Constrains input `v` to `[lo, hi]` (numeric comparison in its
    /// type). An integer compares as signed or unsigned as its C type says
    /// (`signed`; without debug information: signed when `lo` is
    /// negative; `_Bool`, an `i1`, is unsigned); bounds outside the type's
    /// values are an error, never wrapped.
    pub fn range(&mut self, st: &mut State, v: &Val, (lo, hi): (f64, f64), signed: Option<bool>) -> Result<(), String> {
        match v {
            Val::Fp(t) => {
                let fmt = term::format_of(t);
                let c = |x: f64| {
                    Term::fp(
                        fpsym_float::Float::from_f64(x)
                            .convert(fmt, fpsym_float::RoundingMode::NearestTiesToEven)
                            .value,
                    )
                };
                st.constrain(mk(Op::FpGeq, vec![t.clone(), c(lo)]));
                st.constrain(mk(Op::FpLeq, vec![t.clone(), c(hi)]));
            }
            Val::Bv(t) => {
                let w = term::width(t);
                if lo.fract() != 0.0 || hi.fract() != 0.0 {
                    return Err(format!("an integer parameter needs integer bounds, got [{lo}, {hi}]"));
                }
                let signed = w > 1 && signed.unwrap_or(lo < 0.0);
                let (min, max): (i128, i128) = match (signed, w) {
                    (_, 127..) => (i128::MIN, i128::MAX), // beyond what an f64 bound says
                    (true, _) => (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1),
                    (false, _) => (0, (1i128 << w) - 1),
                };
                let (l, h) = (lo as i128, hi as i128);
                if l < min || h > max {
                    return Err(format!(
                        "[{lo}, {hi}] is outside the values of its type ({} {w}-bit: [{min}, {max}])",
                        if signed { "signed" } else { "unsigned" }
                    ));
                }
                let (ge, le) = if signed {
                    (Op::BvSge, Op::BvSle)
                } else {
                    (Op::BvUge, Op::BvUle)
                };
                st.constrain(mk(ge, vec![t.clone(), bv(w, l as u128)]));
                st.constrain(mk(le, vec![t.clone(), bv(w, h as u128)]));
            }
            Val::Agg(_) => {
                return Err(format!(
                    "not a scalar (a struct passed as one register; give a range to a scalar parameter)"
                ))
            }
        }
        Ok(())
    }
}

/// The C prototype the native replay driver declares the `--function`
/// entry `name` with: each parameter's C type (passed as the x86-64 ABI
/// passes the IR's; None when some parameter has none) and the result's.
pub fn driver_prototype(program: &fpsym_frontend::Program, name: &str) -> (Option<Vec<String>>, Option<String>) {
    let Some(f) = program.module.functions.iter().find(|f| f.name == name) else {
        return (None, None);
    };
    let layout = crate::layout::Layout::new(&program.module.types);
    let params = f.parameters.iter().map(|p| c_param_type(p, &layout)).collect();
    (params, c_return_type(f))
}

/// The C type of an IR type, for the replay driver's prototype (None:
/// not expressible simply).
fn c_type(t: &llvm_ir::Type) -> Option<String> {
    use llvm_ir::types::FPType;
    use llvm_ir::Type;
    Some(match t {
        Type::VoidType => "void".into(),
        Type::IntegerType { bits: 1 } => "_Bool".into(),
        Type::IntegerType { bits: 8 } => "signed char".into(),
        Type::IntegerType { bits: 16 } => "short".into(),
        Type::IntegerType { bits: 32 } => "int".into(),
        Type::IntegerType { bits: 64 } => "long long".into(),
        Type::FPType(FPType::Single) => "float".into(),
        Type::FPType(FPType::Double) => "double".into(),
        Type::FPType(FPType::X86_FP80) => "long double".into(),
        Type::FPType(FPType::FP128) => "__float128".into(),
        Type::PointerType { .. } => "void *".into(),
        _ => return None,
    })
}

/// The C type the replay driver declares a parameter with: one passed
/// the same way by the x86-64 ABI. A `byval` struct becomes a struct of
/// that many bytes and that alignment (passed in memory alike: over 16
/// bytes, or 16 bytes holding a `long double`); a small vector (clang's
/// `<2 x float>` for a struct of two floats) a GNU vector type.
fn c_param_type(p: &llvm_ir::function::Parameter, layout: &crate::layout::Layout) -> Option<String> {
    use llvm_ir::function::ParameterAttribute;
    use llvm_ir::Type;
    if let Some(t) = p.attributes.iter().find_map(|a| match a {
        ParameterAttribute::ByVal(t) => Some(t),
        _ => None,
    }) {
        let size = layout.alloc_size(t);
        let align = layout.align(t).max(8);
        return match size {
            s if s > 16 => Some(format!(
                "struct {{ unsigned char b[{s}]; }} __attribute__((aligned({align})))"
            )),
            16 => Some("struct { long double x; }".to_string()),
            _ => None,
        };
    }
    match layout.resolve(&p.ty)? {
        Type::VectorType {
            element_type,
            num_elements,
            scalable: false,
        } => {
            let e = c_type(element_type)?;
            let bytes = layout.store_size(element_type) * *num_elements as u64;
            (bytes.is_power_of_two() && bytes <= 16).then(|| format!("{e} __attribute__((vector_size({bytes})))"))
        }
        t => c_type(t),
    }
}

/// The C type of a function's result for the replay driver's prototype:
/// as `c_type`, with 8- and 16-bit results unsigned when the function
/// zero-extends them (`zeroext`), as C's `unsigned char`/`short` do.
fn c_return_type(f: &llvm_ir::Function) -> Option<String> {
    use llvm_ir::function::ParameterAttribute;
    let zext = f
        .return_attributes
        .iter()
        .any(|a| matches!(a, ParameterAttribute::ZeroExt));
    match f.return_type.as_ref() {
        llvm_ir::Type::IntegerType { bits: 8 } if zext => Some("unsigned char".into()),
        llvm_ir::Type::IntegerType { bits: 16 } if zext => Some("unsigned short".into()),
        t => c_type(t),
    }
}
