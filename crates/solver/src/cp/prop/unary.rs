//! Square root, roundToIntegral, format conversion (monotone, generic
//! projections), `fp.min`/`fp.max` (total-order min/max with the NaN rule),
//! and the exact closed forms for `fp.abs` and `fp.neg`.

use super::mono::{Cut, MonoOp};
use super::{fp_of, mono_run, rm_of, Empty, NO_RM};
use crate::cp::domain::{Domain, RmSet};
use fpsym_expr::Op;
use fpsym_float::{Float, FloatInterval, Format, RoundingMode};

struct SqrtOp;

impl MonoOp for SqrtOp {
    fn eval(&self, rm: RoundingMode, a: &[Float]) -> Float {
        a[0].sqrt(rm).value
    }
    fn cut(&self, _i: usize) -> Cut {
        Cut::Sqrt
    }
    fn hint(&self, _rm: RoundingMode, _i: usize, z: Float, _a: &[Float]) -> Option<Float> {
        Some(z.mul(z, RoundingMode::NearestTiesToEven).value)
    }
}

struct RtiOp;

impl MonoOp for RtiOp {
    fn eval(&self, rm: RoundingMode, a: &[Float]) -> Float {
        a[0].round_to_integral(rm).value
    }
    fn cut(&self, _i: usize) -> Cut {
        Cut::Whole
    }
    fn hint(&self, _rm: RoundingMode, _i: usize, z: Float, _a: &[Float]) -> Option<Float> {
        Some(z)
    }
}

struct ConvertOp {
    to: Format,
    from: Format,
}

impl MonoOp for ConvertOp {
    fn eval(&self, rm: RoundingMode, a: &[Float]) -> Float {
        a[0].convert(self.to, rm).value
    }
    fn cut(&self, _i: usize) -> Cut {
        Cut::Whole
    }
    fn hint(&self, _rm: RoundingMode, _i: usize, z: Float, _a: &[Float]) -> Option<Float> {
        Some(z.convert(self.from, RoundingMode::NearestTiesToEven).value)
    }
}

struct MinMaxOp {
    max: bool,
}

impl MonoOp for MinMaxOp {
    fn eval(&self, _rm: RoundingMode, a: &[Float]) -> Float {
        if self.max {
            a[0].max(a[1])
        } else {
            a[0].min(a[1])
        }
    }
    fn cut(&self, _i: usize) -> Cut {
        Cut::Whole
    }
    fn hint(&self, _rm: RoundingMode, _i: usize, z: Float, _a: &[Float]) -> Option<Float> {
        Some(z)
    }
}

/// Negates an interval (NaN stays).
pub(crate) fn neg_interval(x: &FloatInterval) -> FloatInterval {
    match x.bounds() {
        None => *x,
        Some((l, h)) => FloatInterval::new(h.neg(), l.neg(), x.may_be_nan()),
    }
}

/// `{|v| : v in x}` as an interval.
fn abs_interval(x: &FloatInterval) -> FloatInterval {
    let fmt = x.format();
    let nz = Float::zero(fmt, true);
    let pz = Float::zero(fmt, false);
    let neg = x
        .without_nan()
        .intersect(&FloatInterval::new(Float::infinity(fmt, true), nz, false));
    let pos = x
        .without_nan()
        .intersect(&FloatInterval::new(pz, Float::infinity(fmt, false), false));
    neg_interval(&neg).hull(&pos).with_nan(x.may_be_nan())
}

/// Propagates the unary operations, min and max.
pub(crate) fn propagate(op: &Op, args: &mut [Domain], res: &mut Domain, tie: bool) -> Result<(), Empty> {
    let mut z = fp_of(res);
    match op {
        Op::FpAbs => {
            let x = fp_of(&args[0]);
            z = z.intersect(&abs_interval(&x));
            // x ∈ z ∪ -z
            let nx = x.intersect(&z).hull(&x.intersect(&neg_interval(&z)));
            args[0] = Domain::Fp(nx);
        }
        Op::FpNeg => {
            let x = fp_of(&args[0]);
            z = z.intersect(&neg_interval(&x));
            args[0] = Domain::Fp(x.intersect(&neg_interval(&z)));
        }
        Op::FpMin | Op::FpMax => {
            let mut xs = [fp_of(&args[0]), fp_of(&args[1])];
            mono_run(
                &MinMaxOp {
                    max: matches!(op, Op::FpMax),
                },
                RmSet::point(NO_RM),
                &mut xs,
                &mut z,
                tie,
            )?;
            args[0] = Domain::Fp(xs[0]);
            args[1] = Domain::Fp(xs[1]);
        }
        _ => {
            let rms = rm_of(&args[0]);
            let mut xs = [fp_of(&args[1])];
            let ok = match op {
                Op::FpSqrt => mono_run(&SqrtOp, rms, &mut xs, &mut z, false)?,
                Op::FpRoundToIntegral => mono_run(&RtiOp, rms, &mut xs, &mut z, false)?,
                Op::ToFpFromFp(to) => mono_run(
                    &ConvertOp {
                        to: *to,
                        from: xs[0].format(),
                    },
                    rms,
                    &mut xs,
                    &mut z,
                    false,
                )?,
                _ => unreachable!("not a unary float operation: {op:?}"),
            };
            args[0] = Domain::Rm(ok);
            args[1] = Domain::Fp(xs[0]);
        }
    }
    *res = Domain::Fp(z);
    Ok(())
}
