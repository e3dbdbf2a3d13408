//! Operand evaluation: registers and constants (including constant
//! expressions and the float constants llvm-ir keeps no value for).

use super::{Exec, ExecError};
use crate::layout::fp_format;
use crate::state::State;
use crate::term::{bv, mk};
use crate::value::Val;
use fpsym_expr::{Op, Term};
use fpsym_float::Float;
use llvm_ir::constant::Float as CFloat;
use llvm_ir::{Constant, Operand, Type};

impl Exec<'_, '_> {
    /// The value of an operand.
    pub fn operand(&mut self, st: &mut State, op: &Operand) -> Result<Val, ExecError> {
        match op {
            Operand::LocalOperand { name, .. } => st
                .frame()
                .regs
                .get(name)
                .ok_or_else(|| ExecError::Unsupported(format!("register {name} read before it is written"))),
            Operand::ConstantOperand(c) => self.constant(c),
            Operand::MetadataOperand => Ok(Val::Bv(bv(1, 0))),
        }
    }

    /// The value of a constant.
    pub fn constant(&mut self, c: &Constant) -> Result<Val, ExecError> {
        use llvm_ir::constant as k;
        Ok(match c {
            Constant::Int { bits, .. } => {
                // llvm-ir keeps the low 64 bits of wider constants; the
                // frontend read their values from the text.
                let value = self.prog.program.int_const(c).ok_or_else(|| {
                    ExecError::Unsupported(format!("an i{bits} constant whose value was not recovered"))
                })?;
                Val::Bv(bv(*bits, value))
            }
            Constant::Float(f) => Val::Fp(Term::fp(match f {
                CFloat::Single(x) => Float::from_f32(*x),
                CFloat::Double(x) => Float::from_f64(*x),
                other => {
                    // The frontend recovered the exact bits of every such
                    // constant in the module, keyed by the constant itself.
                    let s = self.prog.program.special_const(c).ok_or_else(|| {
                        ExecError::Unsupported(format!("no recovered value for the {other:?} constant"))
                    })?;
                    let fmt = match other {
                        CFloat::X86_FP80 => fpsym_float::Format::X86_FP80,
                        CFloat::Quadruple => fpsym_float::Format::BINARY128,
                        CFloat::Half => fpsym_float::Format::BINARY16,
                        CFloat::BFloat => fpsym_float::Format::BFLOAT16,
                        _ => return Err(ExecError::Unsupported(format!("float constant {other:?}"))),
                    };
                    Float::from_bits(fmt, s.bits)
                }
            })),
            Constant::Null(_) => Val::Bv(bv(64, 0)),
            Constant::AggregateZero(t) | Constant::Undef(t) | Constant::Poison(t) => self.zero(t)?,
            Constant::Struct { values, .. } => {
                Val::Agg(values.iter().map(|v| self.constant(v)).collect::<Result<_, _>>()?)
            }
            Constant::Vector(elements) => {
                Val::Agg(elements.iter().map(|v| self.constant(v)).collect::<Result<_, _>>()?)
            }
            Constant::Array { elements, .. } => {
                Val::Agg(elements.iter().map(|v| self.constant(v)).collect::<Result<_, _>>()?)
            }
            Constant::GlobalReference { name, .. } => {
                let n = name_str(name);
                if let Some(a) = self.globals.get(&n) {
                    Val::Bv(bv(64, *a as u128))
                } else if let Some(a) = self.prog.fn_addr.get(&n) {
                    Val::Bv(bv(64, *a as u128))
                } else {
                    return Err(ExecError::Unsupported(format!("reference to unknown global @{n}")));
                }
            }
            Constant::BitCast(k::BitCast { operand, .. })
            | Constant::AddrSpaceCast(k::AddrSpaceCast { operand, .. }) => self.constant(operand)?,
            Constant::PtrToInt(k::PtrToInt { operand, to_type })
            | Constant::IntToPtr(k::IntToPtr { operand, to_type }) => {
                let v = self.constant(operand)?;
                let w = match to_type.as_ref() {
                    Type::IntegerType { bits } => *bits,
                    _ => 64,
                };
                Val::Bv(super::resize(v.bv(), w, false))
            }
            Constant::GetElementPtr(k::GetElementPtr { address, indices, .. }) => {
                let base = self.constant(address)?;
                let idx: Vec<Val> = indices.iter().map(|i| self.constant(i)).collect::<Result<_, _>>()?;
                let ty = crate::exec::const_type(self.prog.module, address);
                Val::Bv(self.gep(base.bv(), &ty, &idx)?)
            }
            Constant::Trunc(k::Trunc { operand, to_type })
            | Constant::ZExt(k::ZExt { operand, to_type })
            | Constant::SExt(k::SExt { operand, to_type }) => {
                let v = self.constant(operand)?;
                let w = match to_type.as_ref() {
                    Type::IntegerType { bits } => *bits,
                    _ => 64,
                };
                Val::Bv(super::resize(v.bv(), w, matches!(c, Constant::SExt(_))))
            }
            Constant::Add(k::Add { operand0, operand1 }) | Constant::Sub(k::Sub { operand0, operand1 }) => {
                let a = self.constant(operand0)?;
                let b = self.constant(operand1)?;
                let o = if matches!(c, Constant::Add(_)) {
                    Op::BvAdd
                } else {
                    Op::BvSub
                };
                Val::Bv(mk(o, vec![a.bv().clone(), b.bv().clone()]))
            }
            other => return Err(ExecError::Unsupported(format!("constant expression {other}"))),
        })
    }

    /// The all-zero value of a type.
    pub fn zero(&self, t: &Type) -> Result<Val, ExecError> {
        let layout = self.prog.layout;
        Ok(match layout.resolve(t) {
            Some(Type::IntegerType { bits }) => Val::Bv(bv(*bits, 0)),
            Some(Type::PointerType { .. }) => Val::Bv(bv(64, 0)),
            Some(Type::FPType(f)) => {
                let fmt = fp_format(*f).ok_or_else(|| ExecError::Unsupported("ppc_fp128".into()))?;
                Val::Fp(Term::fp(Float::zero(fmt, false)))
            }
            Some(Type::StructType { element_types, .. }) => {
                Val::Agg(element_types.iter().map(|e| self.zero(e)).collect::<Result<_, _>>()?)
            }
            Some(
                Type::ArrayType {
                    element_type,
                    num_elements,
                }
                | Type::VectorType {
                    element_type,
                    num_elements,
                    ..
                },
            ) => {
                let z = self.zero(element_type)?;
                Val::Agg(vec![z; *num_elements])
            }
            other => return Err(ExecError::Unsupported(format!("zero value of type {other:?}"))),
        })
    }
}

/// A global or function name as a string.
pub fn name_str(n: &llvm_ir::Name) -> String {
    match n {
        llvm_ir::Name::Name(s) => s.to_string(),
        llvm_ir::Name::Number(k) => k.to_string(),
    }
}
