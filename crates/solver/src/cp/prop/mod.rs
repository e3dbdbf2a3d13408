//! Propagators: one per operation, each narrowing the domains of its
//! operands (indirect projections) and of its result (direct projection).
//!
//! A propagator receives copies of the domains of its operands and result,
//! narrows them in place and reports emptiness; the propagation engine
//! compares the narrowed domains with the current ones, applies the relative
//! ε rule and wakes the propagators watching changed variables. Every
//! propagator must be *sound*: it may only remove values that take part in no
//! solution of its own constraint.

pub(crate) mod add;
pub(crate) mod boolean;
pub(crate) mod bv;
pub(crate) mod compare;
pub(crate) mod convert;
pub(crate) mod fma;
pub(crate) mod libm;
pub(crate) mod mono;
pub(crate) mod mul;
pub(crate) mod rem;
pub(crate) mod unary;

use crate::cp::domain::{Domain, RmSet};
use crate::cp::{CpConfig, Stats};
use fpsym_expr::{apply, Op, Value};
use fpsym_float::{FloatInterval, RoundingMode};
use mono::MonoOp;

/// A domain became empty: the constraint has no solution in the current box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Empty;

/// What a propagator may read and count.
pub(crate) struct Ctx<'a> {
    /// The solver configuration (ULP-Max on/off, ...).
    pub config: &'a CpConfig,
    /// Counters (ULP-Max firings and floats pruned).
    pub stats: &'a mut Stats,
    /// The first two float operands are the same variable (`x + x`, `x * x`,
    /// `fma(x, x, c)`, ...): the operation is then projected on its diagonal.
    pub tie: bool,
}

/// Runs the propagator of `op` once.
pub(crate) fn run(op: &Op, args: &mut [Domain], res: &mut Domain, ctx: &mut Ctx) -> Result<(), Empty> {
    use Op::*;
    match op {
        FpAdd | FpSub => add::propagate(op, args, res, ctx)?,
        FpMul | FpDiv => mul::propagate(op, args, res, ctx)?,
        FpFma => fma::propagate(args, res, ctx.tie)?,
        FpSqrt | FpRoundToIntegral | FpAbs | FpNeg | ToFpFromFp(_) | FpMin | FpMax => {
            unary::propagate(op, args, res, ctx.tie)?
        }
        FpRem => rem::propagate(args, res)?,
        FpLeq | FpLt | FpGeq | FpGt | FpEq | FpIsNormal | FpIsSubnormal | FpIsZero | FpIsInfinite | FpIsNaN
        | FpIsNegative | FpIsPositive => compare::propagate(op, args, res)?,
        Eq if matches!(args[0], Domain::Fp(_)) => compare::propagate(op, args, res)?,
        Not | And | Or | Xor | Implies | Eq | Distinct | Ite => boolean::propagate(op, args, res)?,
        ToFpFromBits(_) | FpFromParts | ToFpFromSbv(_) | ToFpFromUbv(_) | FpToUbv(_) | FpToSbv(_) => {
            convert::propagate(op, args, res)?
        }
        Var(_) | BoolConst(_) | BvConst(_) | FpConst(_) | RmConst(_) => {}
        Libm(f) => libm::propagate(*f, args, res)?,
        _ => bv::propagate(op, args, res)?,
    }
    check(args, res)?;
    at_points(op, args, res)
}

fn check(args: &[Domain], res: &Domain) -> Result<(), Empty> {
    if res.is_empty() || args.iter().any(|a| a.is_empty()) {
        return Err(Empty);
    }
    Ok(())
}

/// The safety net of every propagator: when every operand is a single value,
/// the result is exactly the evaluated value.
fn at_points(op: &Op, args: &[Domain], res: &mut Domain) -> Result<(), Empty> {
    let mut vals: Vec<Value> = Vec::with_capacity(args.len());
    for a in args.iter() {
        match a.as_value() {
            Some(v) => vals.push(v),
            None => return Ok(()),
        }
    }
    let v = apply(op, &vals).map_err(|_| Empty)?;
    if !res.contains(&v) {
        return Err(Empty);
    }
    *res = Domain::point(v);
    Ok(())
}

/// The rounding modes of an operand domain.
pub(crate) fn rm_of(d: &Domain) -> RmSet {
    d.as_rm().expect("rounding-mode operand")
}

/// The float interval of an operand domain.
pub(crate) fn fp_of(d: &Domain) -> FloatInterval {
    *d.as_fp().expect("float operand")
}

/// Runs a monotone operation's projections for every rounding mode in `rms`
/// and takes the hull; modes for which the constraint has no solution in the
/// box are dropped. `args` and `z` are narrowed in place; the surviving modes
/// are returned.
pub(crate) fn mono_run(
    op: &dyn MonoOp,
    rms: RmSet,
    args: &mut [FloatInterval],
    z: &mut FloatInterval,
    tie: bool,
) -> Result<RmSet, Empty> {
    if tie {
        // operands 0 and 1 are one variable: project g(x) = f(x, x, rest…)
        let merged = args[0].intersect(&args[1]);
        let mut red: Vec<FloatInterval> = std::iter::once(merged).chain(args[2..].iter().copied()).collect();
        let ok = mono_run(&mono::Diag { inner: op }, rms, &mut red, z, false)?;
        args[0] = red[0];
        args[1] = red[0];
        args[2..].copy_from_slice(&red[1..]);
        return Ok(ok);
    }
    let fmt_z = z.format();
    let mut z_new = FloatInterval::empty(fmt_z);
    let mut a_new: Vec<FloatInterval> = args.iter().map(|a| FloatInterval::empty(a.format())).collect();
    let mut ok = RmSet::EMPTY;
    'modes: for rm in rms.iter() {
        let zr = z.intersect(&mono::direct(op, rm, args, fmt_z));
        if zr.is_empty() {
            continue;
        }
        let mut ar = args.to_vec();
        for i in 0..ar.len() {
            ar[i] = mono::indirect(op, rm, &ar, &zr, i);
            if ar[i].is_empty() {
                continue 'modes;
            }
        }
        ok = ok.union(RmSet::point(rm));
        z_new = z_new.hull(&zr);
        for i in 0..ar.len() {
            a_new[i] = a_new[i].hull(&ar[i]);
        }
    }
    if ok.is_empty() {
        return Err(Empty);
    }
    *z = z_new;
    args.copy_from_slice(&a_new);
    Ok(ok)
}

/// The one mode used for operations without a rounding-mode operand.
pub(crate) const NO_RM: RoundingMode = RoundingMode::NearestTiesToEven;
