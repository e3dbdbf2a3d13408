//! Evaluation of terms under a model, with the exact semantics of `fpsym-float`.

use crate::model::Model;
use crate::op::Op;
use crate::term::Term;
use crate::value::{BvValue, Value};
use fpsym_float::{Float, Format, RoundingMode};
use std::collections::HashMap;

/// Why a term could not be evaluated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// A variable has no value in the model.
    #[error("variable `{0}` has no value in the model")]
    Unassigned(String),
    /// A variable's value in the model has the wrong sort.
    #[error("variable `{0}` has a value of the wrong sort")]
    WrongSort(String),
    /// An operation received values of unexpected sorts (a bug in the caller).
    #[error("operation {0} applied to values of the wrong sort")]
    BadOperands(&'static str),
    /// [`eval_until`]'s `stop` said to stop before the value was known.
    #[error("stopped before the end of the evaluation")]
    Stopped,
}

/// Evaluates `t` under `model`. Every variable of `t` must have a value.
pub fn eval(t: &Term, model: &Model) -> Result<Value, EvalError> {
    eval_until(t, model, &|| false)
}

/// How many nodes [`eval_until`] evaluates between two calls of `stop`.
const STOP_EVERY: u32 = 1 << 14;

/// [`eval`], asking `stop` every few thousand nodes and giving up with
/// [`EvalError::Stopped`] when it says so: a term of millions of nodes
/// (a long loop's value) takes seconds to evaluate, past a deadline.
pub fn eval_until(t: &Term, model: &Model, stop: &dyn Fn() -> bool) -> Result<Value, EvalError> {
    let mut memo: HashMap<u64, Value> = HashMap::new();
    // Iterative post-order traversal: deep terms must not overflow the stack.
    let mut stack: Vec<(Term, bool)> = vec![(t.clone(), false)];
    let mut count = 0u32;
    while let Some((u, ready)) = stack.pop() {
        count += 1;
        if count.is_multiple_of(STOP_EVERY) && stop() {
            return Err(EvalError::Stopped);
        }
        if memo.contains_key(&u.id()) {
            continue;
        }
        if let Some(name) = u.var_name() {
            let v = model.get(&u).ok_or_else(|| EvalError::Unassigned(name.to_string()))?;
            if v.sort() != u.sort() {
                return Err(EvalError::WrongSort(name.to_string()));
            }
            memo.insert(u.id(), v);
            continue;
        }
        if let Some(v) = u.as_const() {
            memo.insert(u.id(), v);
            continue;
        }
        // ite evaluates only the branch taken (its other branch may be unassigned-free anyway).
        if ready {
            let vals: Vec<Value> = u.args().iter().map(|a| memo[&a.id()]).collect();
            memo.insert(u.id(), apply(u.op(), &vals)?);
        } else {
            stack.push((u.clone(), true));
            for a in u.args() {
                if !memo.contains_key(&a.id()) {
                    stack.push((a.clone(), false));
                }
            }
        }
    }
    Ok(memo[&t.id()])
}

fn b(v: &Value, op: &Op) -> Result<bool, EvalError> {
    v.as_bool().ok_or(EvalError::BadOperands(op.name()))
}
fn f(v: &Value, op: &Op) -> Result<Float, EvalError> {
    v.as_fp().ok_or(EvalError::BadOperands(op.name()))
}
fn r(v: &Value, op: &Op) -> Result<RoundingMode, EvalError> {
    v.as_rm().ok_or(EvalError::BadOperands(op.name()))
}
fn bv(v: &Value, op: &Op) -> Result<BvValue, EvalError> {
    v.as_bv().ok_or(EvalError::BadOperands(op.name()))
}

/// Applies a non-leaf operation to argument values.
pub fn apply(op: &Op, a: &[Value]) -> Result<Value, EvalError> {
    use Op::*;
    let bad = || EvalError::BadOperands(op.name());
    Ok(match op {
        Var(_) | BoolConst(_) | BvConst(_) | FpConst(_) | RmConst(_) => return Err(bad()),
        Not => Value::Bool(!b(&a[0], op)?),
        And => Value::Bool(
            a.iter()
                .map(|x| b(x, op))
                .collect::<Result<Vec<_>, _>>()?
                .into_iter()
                .all(|x| x),
        ),
        Or => Value::Bool(
            a.iter()
                .map(|x| b(x, op))
                .collect::<Result<Vec<_>, _>>()?
                .into_iter()
                .any(|x| x),
        ),
        Xor => Value::Bool(
            a.iter()
                .map(|x| b(x, op))
                .collect::<Result<Vec<_>, _>>()?
                .into_iter()
                .fold(false, |x, y| x ^ y),
        ),
        Implies => Value::Bool(!b(&a[0], op)? || b(&a[1], op)?),
        Eq => Value::Bool(a[0] == a[1]),
        Distinct => {
            let mut all = true;
            for i in 0..a.len() {
                for j in i + 1..a.len() {
                    all &= a[i] != a[j];
                }
            }
            Value::Bool(all)
        }
        Ite => {
            if b(&a[0], op)? {
                a[1]
            } else {
                a[2]
            }
        }
        Libm(g) => {
            let xs = a[1..].iter().map(|x| f(x, op)).collect::<Result<Vec<_>, _>>()?;
            Value::Fp(g.glibc(r(&a[0], op)?, &xs).ok_or(EvalError::BadOperands(op.name()))?.0)
        }
        FpAbs => Value::Fp(f(&a[0], op)?.abs()),
        FpNeg => Value::Fp(f(&a[0], op)?.neg()),
        FpAdd => Value::Fp(f(&a[1], op)?.add(f(&a[2], op)?, r(&a[0], op)?).value),
        FpSub => Value::Fp(f(&a[1], op)?.sub(f(&a[2], op)?, r(&a[0], op)?).value),
        FpMul => Value::Fp(f(&a[1], op)?.mul(f(&a[2], op)?, r(&a[0], op)?).value),
        FpDiv => Value::Fp(f(&a[1], op)?.div(f(&a[2], op)?, r(&a[0], op)?).value),
        FpFma => Value::Fp(f(&a[1], op)?.fma(f(&a[2], op)?, f(&a[3], op)?, r(&a[0], op)?).value),
        FpSqrt => Value::Fp(f(&a[1], op)?.sqrt(r(&a[0], op)?).value),
        FpRem => Value::Fp(f(&a[0], op)?.rem(f(&a[1], op)?).value),
        FpRoundToIntegral => Value::Fp(f(&a[1], op)?.round_to_integral(r(&a[0], op)?).value),
        FpMin => Value::Fp(f(&a[0], op)?.min(f(&a[1], op)?)),
        FpMax => Value::Fp(f(&a[0], op)?.max(f(&a[1], op)?)),
        FpLeq => Value::Bool(matches!(f(&a[0], op)?.ieee_cmp(f(&a[1], op)?), Some(o) if o.is_le())),
        FpLt => Value::Bool(matches!(f(&a[0], op)?.ieee_cmp(f(&a[1], op)?), Some(o) if o.is_lt())),
        FpGeq => Value::Bool(matches!(f(&a[0], op)?.ieee_cmp(f(&a[1], op)?), Some(o) if o.is_ge())),
        FpGt => Value::Bool(matches!(f(&a[0], op)?.ieee_cmp(f(&a[1], op)?), Some(o) if o.is_gt())),
        FpEq => Value::Bool(f(&a[0], op)?.ieee_eq(f(&a[1], op)?)),
        FpIsNormal => Value::Bool(f(&a[0], op)?.is_normal()),
        FpIsSubnormal => Value::Bool(f(&a[0], op)?.is_subnormal()),
        FpIsZero => Value::Bool(f(&a[0], op)?.is_zero()),
        FpIsInfinite => Value::Bool(f(&a[0], op)?.is_infinite()),
        FpIsNaN => Value::Bool(f(&a[0], op)?.is_nan()),
        FpIsNegative => Value::Bool(f(&a[0], op)?.is_negative()),
        FpIsPositive => Value::Bool(f(&a[0], op)?.is_positive()),
        FpFromParts => {
            let (s, e, m) = (bv(&a[0], op)?, bv(&a[1], op)?, bv(&a[2], op)?);
            let fmt = Format::new(e.width(), m.width() + 1).map_err(|_| bad())?;
            Value::Fp(Float::from_fields(fmt, s.bits() == 1, e.bits() as u64, m.bits()))
        }
        ToFpFromBits(fmt) => Value::Fp(Float::from_packed(*fmt, bv(&a[0], op)?.bits())),
        ToFpFromFp(fmt) => Value::Fp(f(&a[1], op)?.convert(*fmt, r(&a[0], op)?).value),
        ToFpFromSbv(fmt) | ToFpFromUbv(fmt) => {
            let x = bv(&a[1], op)?;
            let signed = matches!(op, ToFpFromSbv(_));
            Value::Fp(Float::from_bv(*fmt, x.bits(), x.width(), signed, r(&a[0], op)?).value)
        }
        FpToUbv(w) | FpToSbv(w) => {
            let signed = matches!(op, FpToSbv(_));
            let x = f(&a[1], op)?;
            let bits = x.to_bv(r(&a[0], op)?, *w, signed).value;
            let unspecified = if signed { 1u128 << (w - 1) } else { 0 };
            Value::Bv(BvValue::new(*w, bits.unwrap_or(unspecified)))
        }
        _ => apply_bv(op, a)?,
    })
}

fn apply_bv(op: &Op, a: &[Value]) -> Result<Value, EvalError> {
    use Op::*;
    let x = bv(&a[0], op)?;
    let w = x.width();
    let m = x.mask();
    let y = if a.len() > 1 { Some(bv(&a[1], op)?) } else { None };
    let yb = || y.map(|v| v.bits()).unwrap_or(0);
    let mk = |bits: u128| Value::Bv(BvValue::new(w, bits));
    let udiv = |p: u128, q: u128| p.checked_div(q).unwrap_or(m);
    let urem = |p: u128, q: u128| p.checked_rem(q).unwrap_or(p);
    let neg = |p: u128| p.wrapping_neg() & m;
    Ok(match op {
        BvConcat => {
            let y = y.unwrap();
            Value::Bv(BvValue::new(w + y.width(), (x.bits() << y.width()) | y.bits()))
        }
        BvExtract(hi, lo) => Value::Bv(BvValue::new(hi - lo + 1, x.bits() >> lo)),
        BvZeroExtend(n) => Value::Bv(BvValue::new(w + n, x.bits())),
        BvSignExtend(n) => Value::Bv(BvValue::new(w + n, x.signed() as u128)),
        BvNot => mk(!x.bits()),
        BvNeg => mk(neg(x.bits())),
        BvAnd => mk(x.bits() & yb()),
        BvOr => mk(x.bits() | yb()),
        BvXor => mk(x.bits() ^ yb()),
        BvAdd => mk(x.bits().wrapping_add(yb())),
        BvSub => mk(x.bits().wrapping_sub(yb())),
        BvMul => mk(x.bits().wrapping_mul(yb())),
        BvUdiv => mk(udiv(x.bits(), yb())),
        BvUrem => mk(urem(x.bits(), yb())),
        BvSdiv | BvSrem | BvSmod => {
            let y = y.unwrap();
            let (sx, sy) = (x.msb(), y.msb());
            let ax = if sx { neg(x.bits()) } else { x.bits() };
            let ay = if sy { neg(y.bits()) } else { y.bits() };
            match op {
                BvSdiv => {
                    let q = udiv(ax, ay);
                    mk(if sx != sy { neg(q) } else { q })
                }
                BvSrem => {
                    let r = urem(ax, ay);
                    mk(if sx { neg(r) } else { r })
                }
                _ => {
                    // SMT-LIB bvsmod: sign follows the divisor.
                    let u = urem(ax, ay);
                    if u == 0 {
                        mk(u)
                    } else {
                        match (sx, sy) {
                            (false, false) => mk(u),
                            (true, false) => mk(neg(u).wrapping_add(y.bits())),
                            (false, true) => mk(u.wrapping_add(y.bits())),
                            (true, true) => mk(neg(u)),
                        }
                    }
                }
            }
        }
        BvShl => mk(if yb() >= w as u128 { 0 } else { x.bits() << yb() }),
        BvLshr => mk(if yb() >= w as u128 { 0 } else { x.bits() >> yb() }),
        BvAshr => {
            let s = yb().min(w as u128 - 1) as u32;
            let v = if yb() >= w as u128 {
                if x.msb() {
                    m
                } else {
                    0
                }
            } else {
                (x.signed() >> s) as u128
            };
            mk(v)
        }
        BvUlt => Value::Bool(x.bits() < yb()),
        BvUle => Value::Bool(x.bits() <= yb()),
        BvUgt => Value::Bool(x.bits() > yb()),
        BvUge => Value::Bool(x.bits() >= yb()),
        BvSlt => Value::Bool(x.signed() < y.unwrap().signed()),
        BvSle => Value::Bool(x.signed() <= y.unwrap().signed()),
        BvSgt => Value::Bool(x.signed() > y.unwrap().signed()),
        BvSge => Value::Bool(x.signed() >= y.unwrap().signed()),
        _ => return Err(EvalError::BadOperands(op.name())),
    })
}
