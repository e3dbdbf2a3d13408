//! `r = rm(x × y + c)` with a single rounding: monotone in the exact product
//! and in `c`, so the generic projections apply on boxes of sign-pure pieces
//! of `x` and `y` and finite/infinite pieces of `c`.

use super::mono::{Cut, MonoOp};
use super::{fp_of, mono_run, rm_of, Empty};
use crate::cp::domain::Domain;
use fpsym_float::{Float, RoundingMode};

/// Fused multiply-add.
pub(crate) struct FmaOp;

impl MonoOp for FmaOp {
    fn eval(&self, rm: RoundingMode, a: &[Float]) -> Float {
        a[0].fma(a[1], a[2], rm).value
    }
    fn cut(&self, i: usize) -> Cut {
        if i == 2 {
            Cut::Finite
        } else {
            Cut::Signs
        }
    }
    fn hint(&self, _rm: RoundingMode, i: usize, z: Float, a: &[Float]) -> Option<Float> {
        let rne = RoundingMode::NearestTiesToEven;
        Some(match i {
            0 => z.sub(a[2], rne).value.div(a[1], rne).value,
            1 => z.sub(a[2], rne).value.div(a[0], rne).value,
            _ => a[0].neg().fma(a[1], z, rne).value,
        })
    }
}

/// Propagates `r = fma(rm, x, y, c)`; `args = [rm, x, y, c]`.
pub(crate) fn propagate(args: &mut [Domain], res: &mut Domain, tie: bool) -> Result<(), Empty> {
    let rms = rm_of(&args[0]);
    let mut xs = [fp_of(&args[1]), fp_of(&args[2]), fp_of(&args[3])];
    let mut z = fp_of(res);
    let ok = mono_run(&FmaOp, rms, &mut xs, &mut z, tie)?;
    args[0] = Domain::Rm(ok);
    for i in 0..3 {
        args[i + 1] = Domain::Fp(xs[i]);
    }
    *res = Domain::Fp(z);
    Ok(())
}
