//! `z = x ⊕ y` and `z = x ⊖ y` in any rounding mode: generic monotone
//! projections plus filtering by maximum ULP (the Marre–Michel property).

use super::mono::{Cut, MonoOp};
use super::{fp_of, mono_run, rm_of, Ctx, Empty};
use crate::cp::domain::Domain;
use crate::cp::ulp_max;
use fpsym_expr::Op;
use fpsym_float::{Float, FloatInterval, RoundingMode};

/// `x + y` (or `x - y`): monotone on finite × finite in the total order
/// (including signed zeros); infinities and NaN are their own pieces.
pub(crate) struct AddOp {
    /// Subtraction instead of addition.
    pub sub: bool,
}

impl MonoOp for AddOp {
    fn eval(&self, rm: RoundingMode, a: &[Float]) -> Float {
        if self.sub {
            a[0].sub(a[1], rm).value
        } else {
            a[0].add(a[1], rm).value
        }
    }
    fn cut(&self, _i: usize) -> Cut {
        Cut::Finite
    }
    fn hint(&self, _rm: RoundingMode, i: usize, z: Float, a: &[Float]) -> Option<Float> {
        let rne = RoundingMode::NearestTiesToEven;
        Some(match (self.sub, i) {
            (false, 0) => z.sub(a[1], rne).value,
            (false, _) => z.sub(a[0], rne).value,
            (true, 0) => z.add(a[1], rne).value,
            (true, _) => a[0].sub(z, rne).value,
        })
    }
}

/// Intersects `x` with `[lo, hi]`, counting the floats ULP-Max removed.
pub(crate) fn apply_ulp_bound(x: &mut FloatInterval, lo: Float, hi: Float, ctx: &mut Ctx) {
    let before = x.count();
    let nx = x.intersect(&FloatInterval::new(lo, hi, false));
    let after = nx.count();
    if after < before {
        ctx.stats.ulp_max_firings += 1;
        ctx.stats.ulp_max_pruned += (before - after) as f64;
        *x = nx;
    }
}

/// Propagates `z = rm(x + y)` or `z = rm(x - y)`; `args = [rm, x, y]`.
pub(crate) fn propagate(op: &Op, args: &mut [Domain], res: &mut Domain, ctx: &mut Ctx) -> Result<(), Empty> {
    let sub = matches!(op, Op::FpSub);
    let rms = rm_of(&args[0]);
    let mut xs = [fp_of(&args[1]), fp_of(&args[2])];
    let mut z = fp_of(res);
    let ok = mono_run(&AddOp { sub }, rms, &mut xs, &mut z, ctx.tie)?;
    if ctx.config.ulp_max {
        if let Some((lo, hi)) = ulp_max::add_bounds(&z) {
            apply_ulp_bound(&mut xs[0], lo, hi, ctx);
            // x - y = x + (-y): the bound applies to -y
            let (ylo, yhi) = if sub { (hi.neg(), lo.neg()) } else { (lo, hi) };
            apply_ulp_bound(&mut xs[1], ylo, yhi, ctx);
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
