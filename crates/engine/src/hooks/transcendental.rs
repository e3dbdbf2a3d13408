//! Transcendental functions (`sin`, `exp`, `pow`, ... with their `f`
//! forms): not modelled symbolically. The arguments are made concrete
//! (model values, constrained on the path, an event: the run is then never
//! "verified") and the host's glibc computes, in the path's rounding mode
//! (see `native_libm`), so replay agrees. `long double` forms end the path
//! partial.

use super::libm_suffix;
use super::native_libm;
use super::HookCall;
use crate::exec::{End, Exec, ExecError, Outcome};
use crate::state::State;
use crate::term::{as_bv, format_of};
use crate::value::Val;
use fpsym_expr::Term;
use fpsym_float::{Float, Format, RoundingMode};

/// The functions concretized here (with `f`/`l` forms).
pub(super) const NAMES: &[&str] = &[
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "exp",
    "exp2", "expm1", "log", "log2", "log10", "log1p", "pow", "cbrt", "hypot", "erf", "erfc", "tgamma", "lgamma",
];

/// True if this family models `name` (any arity: glibc is asked).
pub(super) fn models(name: &str) -> bool {
    NAMES.iter().any(|b| libm_suffix(name, b).is_some())
}

impl Exec<'_, '_> {
    /// A transcendental function: the arguments are made concrete (model
    /// values, constrained on the path) and the host's libm computes.
    pub(super) fn concretized_libm(&mut self, st: &mut State, call: &HookCall<'_>) -> Result<Outcome, ExecError> {
        let HookCall { name, args, dest, loc } = *call;
        if args
            .iter()
            .any(|a| matches!(a, Val::Fp(t) if format_of(t) == Format::X86_FP80))
        {
            // glibc's x87 versions cannot be called from here; a double
            // stand-in would give wrong findings.
            return Ok(Outcome::End(End::Partial(format!(
                "{name} (long double) is not modelled"
            ))));
        }
        let mut xs = Vec::new();
        let mut fmt = Format::BINARY64;
        for a in args {
            let t = a.fp().clone();
            fmt = format_of(&t);
            let b = self.bits_of(st, &t);
            let v = match as_bv(&b) {
                Some(v) => v,
                None => self.concretize(st, &b, loc, &format!("argument of {name}")),
            };
            let x = Float::from_bits(fmt, v);
            xs.push(
                x.to_f64()
                    .or_else(|| {
                        x.convert(Format::BINARY64, RoundingMode::NearestTiesToEven)
                            .value
                            .to_f64()
                    })
                    .unwrap_or(f64::NAN),
            );
        }
        st.concretized = true;
        self.events.push(crate::report::Event::Concretized {
            loc: loc.clone(),
            reason: format!("call to {name} computed natively"),
        });
        let base = NAMES
            .iter()
            .find(|b| libm_suffix(name, b).is_some())
            .copied()
            .unwrap_or(name);
        let v = if fmt == Format::BINARY32 {
            let xs: Vec<f32> = xs.iter().map(|x| *x as f32).collect();
            native_libm::call_f32(base, &xs, st.rm).map(|(v, e)| (f64::from(v), e))
        } else {
            native_libm::call_f64(base, &xs, st.rm)
        };
        let Some((v, errno)) = v else {
            return Ok(Outcome::End(End::Partial(format!("{name} is not modelled"))));
        };
        if errno != 0 {
            self.set_errno(st, None, errno as u32);
        }
        let r = Float::from_f64(v).convert(fmt, RoundingMode::NearestTiesToEven).value;
        if let Some(d) = dest {
            st.frame_mut().regs.insert(d.clone(), Val::Fp(Term::fp(r)));
        }
        Ok(Outcome::Continue)
    }
}
