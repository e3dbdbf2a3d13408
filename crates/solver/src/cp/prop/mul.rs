//! `z = x ⊗ y` and `z = x ⊘ y` in any rounding mode: generic monotone
//! projections on sign quadrants (zeros and infinities are pieces of their
//! own, so `0 × inf`, `0 / 0`, `inf / inf` and division by zero are exact)
//! plus filtering by maximum ULP.

use super::add::apply_ulp_bound;
use super::mono::{Cut, MonoOp};
use super::{fp_of, mono_run, rm_of, Ctx, Empty};
use crate::cp::domain::Domain;
use crate::cp::ulp_max::{self, Setting};
use fpsym_expr::Op;
use fpsym_float::{Float, RoundingMode};

/// `x * y`: monotone in each operand on sign-pure pieces.
pub(crate) struct MulOp;

impl MonoOp for MulOp {
    fn eval(&self, rm: RoundingMode, a: &[Float]) -> Float {
        a[0].mul(a[1], rm).value
    }
    fn cut(&self, _i: usize) -> Cut {
        Cut::Signs
    }
    fn hint(&self, _rm: RoundingMode, i: usize, z: Float, a: &[Float]) -> Option<Float> {
        Some(z.div(a[1 - i], RoundingMode::NearestTiesToEven).value)
    }
}

/// `x / y`: monotone in each operand on sign-pure pieces.
pub(crate) struct DivOp;

impl MonoOp for DivOp {
    fn eval(&self, rm: RoundingMode, a: &[Float]) -> Float {
        a[0].div(a[1], rm).value
    }
    fn cut(&self, _i: usize) -> Cut {
        Cut::Signs
    }
    fn hint(&self, _rm: RoundingMode, i: usize, z: Float, a: &[Float]) -> Option<Float> {
        let rne = RoundingMode::NearestTiesToEven;
        Some(if i == 0 {
            z.mul(a[1], rne).value
        } else {
            a[0].div(z, rne).value
        })
    }
}

/// Propagates `z = rm(x * y)` or `z = rm(x / y)`; `args = [rm, x, y]`.
pub(crate) fn propagate(op: &Op, args: &mut [Domain], res: &mut Domain, ctx: &mut Ctx) -> Result<(), Empty> {
    let div = matches!(op, Op::FpDiv);
    let rms = rm_of(&args[0]);
    let mut xs = [fp_of(&args[1]), fp_of(&args[2])];
    let mut z = fp_of(res);
    let ok = if div {
        mono_run(&DivOp, rms, &mut xs, &mut z, ctx.tie)?
    } else {
        mono_run(&MulOp, rms, &mut xs, &mut z, ctx.tie)?
    };
    if ctx.config.ulp_max {
        if let Some((lo, hi)) = ulp_max::muldiv_bounds(&z, ok.iter(), div, Setting::Ieee) {
            apply_ulp_bound(&mut xs[0], lo, hi, ctx);
            if !div {
                apply_ulp_bound(&mut xs[1], lo, hi, ctx);
            }
            if xs[0].is_empty() || xs[1].is_empty() {
                return Err(Empty);
            }
        }
    }
    args[0] = Domain::Rm(ok);
    args[1] = Domain::Fp(xs[0]);
    args[2] = Domain::Fp(xs[1]);
    *res = Domain::Fp(z);
    Ok(())
}
