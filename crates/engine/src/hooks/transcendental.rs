//! Transcendental functions (`sin`, `exp`, `pow`, ... with their `f`
//! forms).
//!
//! Symbolic (the default, [`crate::LibmModel::Symbolic`]): on `float`,
//! `double` and `long double` (x87 80-bit) arguments the result is the
//! term `(fpsym.sin rm x)`, the value
//! glibc computes (see [`fpsym_expr::libm`]): the path goes on, branches
//! behind the call are explored, the cp solver reasons about it with sound
//! enclosures, and every model is checked against glibc itself. `errno`
//! follows glibc where it is a function of the result: EDOM when the
//! result is NaN from arguments that are not, ERANGE when it is infinite
//! from finite arguments (overflow, pole) or, for `exp`, `exp2`, `erfc`,
//! `tgamma`, `pow` and `atan2`, zero from finite arguments (underflow;
//! pow(±0, y) and atan2(±0, x) are exact zeros), as a native sweep of
//! glibc shows it does. `lgamma` in a program that reads `signgam` is not
//! modelled (the path ends partial).
//!
//! Concretized ([`crate::LibmModel::Concretize`], and the functions or
//! formats the symbolic form does not cover): the arguments are made
//! concrete (model values, constrained on the path, an event: the run is
//! then never "verified") and the host's glibc computes, in the path's
//! rounding mode, so replay agrees (`long double` forms by glibc's own
//! `sinl`, ..., see [`fpsym_expr::libm::call_fp80`]). Other formats
//! (`_Float128`) end the path partial where glibc cannot be asked.

use super::env::{EDOM, ERANGE};
use super::libm_suffix;
use super::HookCall;
use crate::exec::{End, Exec, ExecError, Outcome};
use crate::state::State;
use crate::term::{as_bv, format_of, mk, rm};
use crate::value::Val;
use fpsym_expr::libm::{call_f32, call_f64, call_fp80};
use fpsym_expr::{LibmFn, Op, Term};
use fpsym_float::{Float, Format, RoundingMode};

/// The function `name` is a form of (`sinf`, `sinl` → `sin`): every
/// [`LibmFn`], with its `f`/`l` forms.
pub(super) fn function(name: &str) -> Option<LibmFn> {
    LibmFn::ALL
        .into_iter()
        .find(|f| libm_suffix(name, f.c_name()).is_some())
}

/// True if this family models `name` (any arity: glibc is asked).
pub(super) fn models(name: &str) -> bool {
    function(name).is_some()
}

impl Exec<'_, '_> {
    /// A transcendental function: symbolic where it can be, else
    /// concretized.
    pub(super) fn transcendental(&mut self, st: &mut State, call: &HookCall<'_>) -> Result<Outcome, ExecError> {
        if self.config.policy.libm == crate::LibmModel::Symbolic {
            if let Some(o) = self.symbolic_libm(st, call) {
                return Ok(o);
            }
        }
        self.concretized_libm(st, call)
    }

    /// `y = f(x)` as the term `(fpsym.f rm x)` for `float`, `double` and
    /// `long double` arguments of one format (None otherwise: the caller
    /// concretizes).
    fn symbolic_libm(&mut self, st: &mut State, call: &HookCall<'_>) -> Option<Outcome> {
        let HookCall { name, args, dest, .. } = *call;
        let f = function(name)?;
        let xs: Vec<Term> = args
            .iter()
            .map(|a| match a {
                Val::Fp(t) => Some(t.clone()),
                _ => None,
            })
            .collect::<Option<_>>()?;
        // lgamma also writes `signgam`: where the program reads it, that
        // is not modelled (the caller's concretized path ends partial).
        if f == LibmFn::Lgamma && (self.globals.contains_key("signgam") || self.globals.contains_key("__signgam")) {
            return None;
        }
        let fmt = format_of(xs.first()?);
        if xs.len() != f.arity() || !LibmFn::evaluated_in(fmt) || xs.iter().any(|x| format_of(x) != fmt) {
            return None;
        }
        let r = st.rm;
        let mut operands = vec![rm(r)];
        operands.extend(xs.iter().cloned());
        let y = mk(Op::Libm(f), operands);
        if y.as_const().is_some() {
            // Every argument concrete: glibc's own errno.
            let vals: Vec<Float> = xs.iter().filter_map(|x| x.as_const().and_then(|v| v.as_fp())).collect();
            if let Some((_, e)) = f.glibc(r, &vals).filter(|(_, e)| *e != 0) {
                self.set_errno(st, None, e as u32);
            }
        } else {
            let not_nan: Vec<Term> = xs
                .iter()
                .map(|x| mk(Op::Not, vec![mk(Op::FpIsNaN, vec![x.clone()])]))
                .collect();
            let finite: Vec<Term> = xs
                .iter()
                .map(|x| {
                    mk(
                        Op::Not,
                        vec![mk(
                            Op::Or,
                            vec![mk(Op::FpIsNaN, vec![x.clone()]), mk(Op::FpIsInfinite, vec![x.clone()])],
                        )],
                    )
                })
                .collect();
            let all = |mut c: Vec<Term>, last: Term| {
                c.push(last);
                mk(Op::And, c)
            };
            let domain = all(not_nan, mk(Op::FpIsNaN, vec![y.clone()]));
            let mut range = vec![all(finite.clone(), mk(Op::FpIsInfinite, vec![y.clone()]))];
            // glibc also sets ERANGE when these underflow to zero (an
            // exact zero result of pow(±0, y) or atan2(±0, x) excepted).
            let nonzero = |t: &Term| mk(Op::Not, vec![mk(Op::FpIsZero, vec![t.clone()])]);
            let underflow = match f {
                LibmFn::Exp | LibmFn::Exp2 | LibmFn::Erfc | LibmFn::Tgamma => Some(vec![]),
                LibmFn::Pow | LibmFn::Atan2 => Some(vec![nonzero(&xs[0])]),
                _ => None,
            };
            if let Some(mut extra) = underflow {
                extra.extend(finite);
                range.push(all(extra, mk(Op::FpIsZero, vec![y.clone()])));
            }
            self.set_errno(st, Some(domain), EDOM);
            let range = if range.len() == 1 {
                range.remove(0)
            } else {
                mk(Op::Or, range)
            };
            self.set_errno(st, Some(range), ERANGE);
        }
        if let Some(d) = dest {
            st.frame_mut().regs.insert(d.clone(), Val::Fp(y));
        }
        Some(Outcome::Continue)
    }

    /// A transcendental function: the arguments are made concrete (model
    /// values, constrained on the path) and the host's libm computes.
    pub(super) fn concretized_libm(&mut self, st: &mut State, call: &HookCall<'_>) -> Result<Outcome, ExecError> {
        let HookCall { name, args, dest, loc } = *call;
        if libm_suffix(name, "lgamma").is_some()
            && (self.globals.contains_key("signgam") || self.globals.contains_key("__signgam"))
        {
            // glibc's lgamma sets the program's `signgam`; computed here it
            // would set fpsym's own.
            return Ok(Outcome::End(End::Partial(crate::report::Partial::NotModelled(
                format!("{name} sets signgam, which the program reads: not modelled"),
            ))));
        }
        let fp80 = args
            .iter()
            .any(|a| matches!(a, Val::Fp(t) if format_of(t) == Format::X86_FP80));
        if fp80 {
            return self.concretized_fp80(st, call);
        }
        if let Some(t) = args.iter().find_map(|a| match a {
            Val::Fp(t) if format_of(t) != Format::BINARY32 && format_of(t) != Format::BINARY64 => Some(t),
            _ => None,
        }) {
            // `_Float128` (`sinf128`): glibc's function is not called from
            // here, and a double stand-in would give wrong findings.
            return Ok(Outcome::End(End::Partial(crate::report::Partial::NotModelled(
                format!("{name} ({}) is not modelled", format_of(t).name()),
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
        self.effects.events.push(crate::report::Event::Concretized {
            loc: loc.clone(),
            reason: format!("call to {name} computed natively"),
        });
        let base: &str = match function(name) {
            Some(f) => f.c_name(),
            None => name,
        };
        let v = if fmt == Format::BINARY32 {
            let xs: Vec<f32> = xs.iter().map(|x| *x as f32).collect();
            call_f32(base, &xs, st.rm).map(|(v, e)| (f64::from(v), e))
        } else {
            call_f64(base, &xs, st.rm)
        };
        let Some((v, errno)) = v else {
            return Ok(Outcome::End(End::Partial(crate::report::Partial::NotModelled(
                format!("{name} is not modelled"),
            ))));
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

    /// [`Self::concretized_libm`] for `long double` arguments: made
    /// concrete, and glibc's own x87 function (`sinl`, ...) computes.
    fn concretized_fp80(&mut self, st: &mut State, call: &HookCall<'_>) -> Result<Outcome, ExecError> {
        let HookCall { name, args, dest, loc } = *call;
        let (Some(f), true) = (
            function(name),
            args.iter()
                .all(|a| matches!(a, Val::Fp(t) if format_of(t) == Format::X86_FP80)),
        ) else {
            return Ok(Outcome::End(End::Partial(crate::report::Partial::NotModelled(
                format!("{name} (long double) is not modelled"),
            ))));
        };
        let mut xs = Vec::new();
        for a in args {
            let t = a.fp().clone();
            let b = self.bits_of(st, &t);
            let v = match as_bv(&b) {
                Some(v) => v,
                None => self.concretize(st, &b, loc, &format!("argument of {name}")),
            };
            xs.push(Float::from_bits(Format::X86_FP80, v));
        }
        st.concretized = true;
        self.effects.events.push(crate::report::Event::Concretized {
            loc: loc.clone(),
            reason: format!("call to {name} computed natively"),
        });
        let Some((v, errno)) = call_fp80(f.c_name(), &xs, st.rm) else {
            return Ok(Outcome::End(End::Partial(crate::report::Partial::NotModelled(
                format!("{name} (long double) is not modelled"),
            ))));
        };
        if errno != 0 {
            self.set_errno(st, None, errno as u32);
        }
        if let Some(d) = dest {
            st.frame_mut().regs.insert(d.clone(), Val::Fp(Term::fp(v)));
        }
        Ok(Outcome::Continue)
    }
}
