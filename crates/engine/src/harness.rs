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
use fpsym_float::{Float, RoundingMode};
use fpsym_frontend::CType;
use llvm_ir::function::{Parameter, ParameterAttribute};
use llvm_ir::{Function, Type};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Signed;

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
                let val = self.aggregate_input(&uname, st.symbolics.len(), t, 0)?;
                self.finite_value(st, &val);
                let cells = self.cells_of(&val, t);
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
                    site: None,
                });
                val
            }
            other => return Err(ExecError::Unsupported(format!("parameter {name} of type {other:?}"))),
        })
    }

    /// A value of type `t` with one fresh variable per scalar, named
    /// `name@OFFSET` (its byte offset).
    fn aggregate_input(&self, name: &str, index: usize, t: &Type, at: u64) -> Result<Val, ExecError> {
        let layout = self.prog.layout;
        let var = |sort| self.input_term(name, index, &format!("{name}@{at}"), sort, at);
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
                        .map(|k| self.aggregate_input(name, index, element_type, at + k * s))
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
                        .map(|k| self.aggregate_input(name, index, element_type, at + k * s))
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
                        .map(|(e, o)| self.aggregate_input(name, index, e, at + o))
                        .collect::<Result<_, _>>()?,
                )
            }
            other => return Err(ExecError::Unsupported(format!("parameter {name} of type {other:?}"))),
        })
    }

    /// `--range` on a pointer parameter: every float of the object it
    /// points to (each element of an array input) lies in the range.
    pub fn range_pointee(&mut self, st: &mut State, p: &Val, range: &InputRange) -> Result<(), String> {
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
            self.range(st, &Val::Fp(f), range, None)?;
        }
        Ok(())
    }

    /// Constrains input `v` to the range (numeric comparison in its type,
    /// against the exact bounds). A float takes the floats inside the real
    /// interval (see [`InputRange::floats`]). An integer takes the
    /// integers inside it, compared as signed or unsigned as its C type
    /// says (`signed`; without debug information: signed when the lower
    /// bound is negative; `_Bool`, an `i1`, is unsigned); bounds outside
    /// the type's values are an error, never wrapped. An empty range is an
    /// error.
    pub fn range(&mut self, st: &mut State, v: &Val, range: &InputRange, signed: Option<bool>) -> Result<(), String> {
        match v {
            Val::Fp(t) => {
                let fmt = term::format_of(t);
                let (lo, hi) = range.floats(fmt).ok_or_else(|| {
                    format!(
                        "{} holds no {} value (its bounds are read as exact decimals)",
                        range.text,
                        report::c_type_name(fmt)
                    )
                })?;
                st.constrain(mk(Op::FpGeq, vec![t.clone(), Term::fp(lo)]));
                st.constrain(mk(Op::FpLeq, vec![t.clone(), Term::fp(hi)]));
            }
            Val::Bv(t) => {
                let w = term::width(t);
                let neg_lo = match &range.lo {
                    Bound::NegInf => true,
                    Bound::Finite(q) => q.is_negative(),
                    Bound::PosInf => false,
                };
                let signed = w > 1 && signed.unwrap_or(neg_lo);
                let one = BigInt::from(1);
                let (min, max): (BigInt, BigInt) = if signed {
                    (-(&one << (w - 1)), (&one << (w - 1)) - 1)
                } else {
                    (BigInt::from(0), (&one << w) - 1)
                };
                let inside = || {
                    format!(
                        "{} is outside the values of its type ({} {w}-bit: [{min}, {max}])",
                        range.text,
                        if signed { "signed" } else { "unsigned" }
                    )
                };
                let l = match &range.lo {
                    Bound::NegInf => min.clone(),
                    Bound::Finite(q) => q.ceil().to_integer(),
                    Bound::PosInf => return Err(inside()),
                };
                let h = match &range.hi {
                    Bound::PosInf => max.clone(),
                    Bound::Finite(q) => q.floor().to_integer(),
                    Bound::NegInf => return Err(inside()),
                };
                if l > h {
                    return Err(format!("{} holds no integer", range.text));
                }
                if l < min || h > max {
                    return Err(inside());
                }
                let bits = |x: &BigInt| -> u128 {
                    let m: BigInt = (x.clone() + (&one << w)) % (&one << w);
                    m.try_into().expect("below 2^128")
                };
                let (ge, le) = if signed {
                    (Op::BvSge, Op::BvSle)
                } else {
                    (Op::BvUge, Op::BvUle)
                };
                st.constrain(mk(ge, vec![t.clone(), bv(w, bits(&l))]));
                st.constrain(mk(le, vec![t.clone(), bv(w, bits(&h))]));
            }
            Val::Agg(_) => {
                return Err(
                    "not a scalar (a struct passed as one register; give a range to a scalar parameter)".to_string(),
                )
            }
        }
        Ok(())
    }
}

/// One end of a `--range`: an exact rational, or an infinity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// `-inf`.
    NegInf,
    /// A decimal, exactly.
    Finite(BigRational),
    /// `inf`.
    PosInf,
}

impl Bound {
    /// Reads `-inf`, `inf` (`+inf`, `infinity`) or an exact decimal.
    pub fn parse(s: &str) -> Option<Bound> {
        let s = s.trim();
        let l = s.to_ascii_lowercase();
        match l.as_str() {
            "-inf" | "-infinity" => Some(Bound::NegInf),
            "inf" | "+inf" | "infinity" | "+infinity" => Some(Bound::PosInf),
            _ => fpsym_float::parse_decimal(s).map(Bound::Finite),
        }
    }

    /// The nearest float of `fmt` on the side `rm` says (toward positive:
    /// the least float not below the bound).
    fn float(&self, fmt: fpsym_float::Format, rm: RoundingMode) -> Float {
        match self {
            Bound::NegInf => Float::infinity(fmt, true),
            Bound::PosInf => Float::infinity(fmt, false),
            Bound::Finite(q) => Float::from_rational(fmt, q, rm).value,
        }
    }
}

/// `--range PARAM=[LO,HI]`: the inputs of a parameter lie in `[LO, HI]`,
/// its bounds exact decimals (never read through a C double) or
/// infinities.
#[derive(Clone, Debug, PartialEq)]
pub struct InputRange {
    /// The parameter: its IR name or the name tests show (`p.x`).
    pub name: String,
    /// The lower bound.
    pub lo: Bound,
    /// The upper bound.
    pub hi: Bound,
    /// `[LO,HI]` as written, for messages.
    pub text: String,
}

impl InputRange {
    /// Reads `PARAM=[LO,HI]`; the error says what is wrong.
    pub fn parse(s: &str) -> Result<InputRange, String> {
        let bad = |why: &str| format!("--range {s}: {why}");
        let usage = "expected PARAM=[LO,HI], e.g. x=[-1,1]";
        let (name, rest) = s.split_once('=').ok_or_else(|| bad(usage))?;
        let inner = rest
            .trim()
            .strip_prefix('[')
            .and_then(|r| r.strip_suffix(']'))
            .ok_or_else(|| bad(usage))?;
        let (lo, hi) = inner.split_once(',').ok_or_else(|| bad(usage))?;
        let bound =
            |b: &str| Bound::parse(b).ok_or_else(|| bad(&format!("{} is not a decimal number, -inf or inf", b.trim())));
        let (lo, hi) = (bound(lo)?, bound(hi)?);
        let empty = match (&lo, &hi) {
            (Bound::Finite(l), Bound::Finite(h)) => l > h,
            (Bound::PosInf, Bound::PosInf) | (Bound::NegInf, Bound::NegInf) => false,
            (Bound::PosInf, _) | (_, Bound::NegInf) => true,
            _ => false,
        };
        if empty || name.trim().is_empty() {
            return Err(bad(if empty { "empty range" } else { usage }));
        }
        Ok(InputRange {
            name: name.trim().to_string(),
            lo,
            hi,
            text: format!("[{}]", inner.trim()),
        })
    }

    /// The least and the greatest float of `fmt` in the range: the lower
    /// bound rounded up, the upper one rounded down (from the exact
    /// decimal, in one rounding). A finite bound admits no infinity (a
    /// lower bound above the largest float leaves nothing); NaN is never
    /// in a range. None: no float lies in it (`[0.1,0.1]` for a float).
    pub fn floats(&self, fmt: fpsym_float::Format) -> Option<(Float, Float)> {
        let lo = self.lo.float(fmt, RoundingMode::TowardPositive);
        let hi = self.hi.float(fmt, RoundingMode::TowardNegative);
        let overflow = (matches!(self.lo, Bound::Finite(_)) && lo.is_infinite() && !lo.is_negative())
            || (matches!(self.hi, Bound::Finite(_)) && hi.is_infinite() && hi.is_negative());
        if overflow || lo.ieee_cmp(hi) == Some(std::cmp::Ordering::Greater) {
            return None;
        }
        Some((lo, hi))
    }

    /// The range as doubles, rounded inward (the least double not below
    /// the lower bound, the greatest not above the upper one), for
    /// sampling: rounding these to a narrower format in the same
    /// directions gives [`InputRange::floats`] exactly. None when no
    /// double lies in the range.
    pub fn doubles(&self) -> Option<(f64, f64)> {
        let (lo, hi) = self.floats(fpsym_float::Format::BINARY64)?;
        Some((lo.to_f64()?, hi.to_f64()?))
    }
}

/// The C prototype the native replay driver declares the `--function`
/// entry `name` with: each parameter's C type (passed as the x86-64 ABI
/// passes the IR's; None when some parameter has none) and the result's.
pub fn driver_prototype(program: &fpsym_frontend::Program, name: &str) -> (Option<Vec<String>>, Option<String>) {
    let Some(f) = program.module.functions.iter().find(|f| f.name == name) else {
        return (None, None);
    };
    let layout = crate::layout::Layout::new(&program.module);
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

#[cfg(test)]
mod tests {
    use super::*;
    use fpsym_float::Format;

    #[test]
    fn ranges_take_the_floats_inside_the_exact_interval() {
        let r = |s: &str| InputRange::parse(s).unwrap();
        let f32s = |s: &str| {
            r(s).floats(Format::BINARY32)
                .map(|(l, h)| (l.to_f32().unwrap(), h.to_f32().unwrap()))
        };
        // No float is 0.1.
        assert_eq!(f32s("x=[0.1,0.1]"), None);
        assert_eq!(
            f32s("x=[0.1,0.2]"),
            Some((0.1f32, f32::from_bits(0.2f32.to_bits() - 1)))
        );
        // 0.5 + 1e-20 is 0.5 as a double; rounded up directly, the float after.
        let next = f32::from_bits(0.5f32.to_bits() + 1);
        assert_eq!(f32s("x=[0.50000000000000000001,1]"), Some((next, 1.0)));
        // Inward doubles round to the same floats (directed roundings compose).
        let (l, h) = r("x=[0.50000000000000000001,1]").doubles().unwrap();
        assert_eq!(
            Float::from_f64(l)
                .convert(Format::BINARY32, RoundingMode::TowardPositive)
                .value,
            Float::from_f32(next)
        );
        assert_eq!(h, 1.0);
        // Infinities as bounds; a finite bound beyond the largest float
        // admits no infinity.
        assert_eq!(f32s("x=[-inf,inf]"), Some((f32::NEG_INFINITY, f32::INFINITY)));
        assert_eq!(f32s("x=[1e39,1e40]"), None);
        assert_eq!(f32s("x=[1e38,1e40]").map(|p| p.1), Some(f32::MAX));
        for bad in [
            "x=[1,0]",
            "x=[inf,1]",
            "x=[1,-inf]",
            "x=(0,1)",
            "=[0,1]",
            "x=[0,nan]",
            "x=[0x1,2]",
        ] {
            assert!(InputRange::parse(bad).is_err(), "{bad}");
        }
    }
}
