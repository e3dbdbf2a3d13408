//! The libm functions IEEE 754 defines exactly (correctly rounded, or
//! exact), modelled as terms in the path's rounding mode, with glibc's
//! `errno` behaviour: `fabs`, `sqrt`, `floor`, `ceil`, `trunc`, `round`,
//! `rint`, `nearbyint`, `lrint`, `llrint`, `lround`, `llround`, `fmin`,
//! `fmax`, `copysign`, `fmod`, `remainder`,
//! `fma`, `ldexp`, `scalbn`, `modf`, `frexp` (with their `f`/`l`/`f128`
//! forms), and the classification functions (`isnan`, `__signbit`, ...).

use super::env::{EDOM, ERANGE};
use super::libm_suffix;
use super::HookCall;
use crate::exec::arith;
use crate::exec::{Exec, ExecError, Outcome};
use crate::state::{Loc, State};
use crate::term::{as_bv, bv, format_of, mk, rm};
use crate::value::Val;
use fpsym_expr::{Op, Term};
use fpsym_float::{Float, Format, RoundingMode};
use llvm_ir::{Name, Type};

/// The libm functions modelled exactly (with `f`/`l` forms), with their
/// number of arguments.
pub(super) const EXACT_LIBM: &[(&str, usize)] = &[
    ("fabs", 1),
    ("sqrt", 1),
    ("floor", 1),
    ("ceil", 1),
    ("trunc", 1),
    ("round", 1),
    ("rint", 1),
    ("nearbyint", 1),
    ("fmin", 2),
    ("fmax", 2),
    ("copysign", 2),
    ("fmod", 2),
    ("remainder", 2),
    ("fma", 3),
    ("ldexp", 2),
    ("scalbn", 2),
    ("modf", 2),
    ("frexp", 2),
    ("lrint", 1),
    ("llrint", 1),
    ("lround", 1),
    ("llround", 1),
];

/// The classification functions modelled (one argument each; with `f`/`l`
/// forms).
const CLASSIFY: &[&str] = &[
    "__isnan",
    "__isinf",
    "__finite",
    "__signbit",
    "isnan",
    "isinf",
    "finite",
];

/// True if this family models a call of `name` with `arity` arguments.
pub(super) fn models(name: &str, arity: usize) -> bool {
    EXACT_LIBM
        .iter()
        .any(|&(b, n)| n == arity && libm_suffix(name, b).is_some())
        || (arity == 1 && CLASSIFY.iter().any(|b| libm_suffix(name, b).is_some()))
}

impl Exec<'_, '_> {
    /// Runs the model of an exact libm function (one [`models`] accepts).
    pub(super) fn libm(&mut self, st: &mut State, call: &HookCall<'_>) -> Result<Outcome, ExecError> {
        let HookCall { name, args, dest, loc } = *call;
        let r = st.rm;
        let f = |k: usize| args[k].fp().clone();
        let one_arg = |base: &str| libm_suffix(name, base).is_some() && args.len() == 1;
        let two_args = |base: &str| libm_suffix(name, base).is_some() && args.len() == 2;
        let res: Term = if one_arg("fabs") {
            mk(Op::FpAbs, vec![f(0)])
        } else if one_arg("sqrt") {
            // glibc: EDOM for x < 0.
            let zero = Term::fp(Float::zero(format_of(&f(0)), false));
            self.set_errno(st, Some(mk(Op::FpLt, vec![f(0), zero])), EDOM);
            mk(Op::FpSqrt, vec![rm(r), f(0)])
        } else if one_arg("floor") {
            mk(Op::FpRoundToIntegral, vec![rm(RoundingMode::TowardNegative), f(0)])
        } else if one_arg("ceil") {
            mk(Op::FpRoundToIntegral, vec![rm(RoundingMode::TowardPositive), f(0)])
        } else if one_arg("trunc") {
            mk(Op::FpRoundToIntegral, vec![rm(RoundingMode::TowardZero), f(0)])
        } else if one_arg("round") {
            mk(Op::FpRoundToIntegral, vec![rm(RoundingMode::NearestTiesToAway), f(0)])
        } else if one_arg("rint") || one_arg("nearbyint") {
            mk(Op::FpRoundToIntegral, vec![rm(r), f(0)])
        } else if two_args("fmin") || two_args("fmax") {
            // C: if one argument is NaN, the other is returned (glibc: NaN
            // for a signalling NaN); which of two zeros glibc's functions
            // return differs between them: either.
            let (a, b) = (f(0), f(1));
            let mut choice = || Term::var(&st.unique_name("fpsym.zero_tie"), fpsym_expr::Sort::Bool);
            arith::min_max(
                name.starts_with("fmax"),
                &a,
                &b,
                arith::ZeroTie::Either,
                true,
                &mut choice,
            )
        } else if two_args("copysign") {
            let (a, b) = (f(0), f(1));
            let abs = mk(Op::FpAbs, vec![a]);
            mk(
                Op::Ite,
                vec![self.sign_bit(st, &b), mk(Op::FpNeg, vec![abs.clone()]), abs],
            )
        } else if two_args("fmod") || two_args("remainder") {
            // glibc: EDOM for y = 0 (x not NaN) or x infinite (y not NaN).
            let (x, y) = (f(0), f(1));
            let not_nan = |t: &Term| mk(Op::Not, vec![mk(Op::FpIsNaN, vec![t.clone()])]);
            let zero_y = mk(Op::And, vec![mk(Op::FpIsZero, vec![y.clone()]), not_nan(&x)]);
            let inf_x = mk(Op::And, vec![mk(Op::FpIsInfinite, vec![x.clone()]), not_nan(&y)]);
            self.set_errno(st, Some(mk(Op::Or, vec![zero_y, inf_x])), EDOM);
            if name.starts_with("fmod") {
                arith::fmod(&x, &y)
            } else {
                mk(Op::FpRem, vec![x, y])
            }
        } else if libm_suffix(name, "fma").is_some() && args.len() == 3 {
            mk(Op::FpFma, vec![rm(r), f(0), f(1), f(2)])
        } else if let Some(op) = [
            "__isnan",
            "__isinf",
            "__finite",
            "__signbit",
            "isnan",
            "isinf",
            "finite",
        ]
        .iter()
        .find(|b| libm_suffix(name, b).is_some() && args.len() == 1)
        {
            let x = f(0);
            let c = match *op {
                "__isnan" | "isnan" => mk(Op::FpIsNaN, vec![x]),
                "__isinf" | "isinf" => mk(Op::FpIsInfinite, vec![x]),
                "__finite" | "finite" => mk(
                    Op::Not,
                    vec![mk(
                        Op::Or,
                        vec![mk(Op::FpIsNaN, vec![x.clone()]), mk(Op::FpIsInfinite, vec![x])],
                    )],
                ),
                _ => self.sign_bit(st, &x),
            };
            let v = mk(Op::Ite, vec![c, bv(32, 1), bv(32, 0)]);
            if let Some(d) = dest {
                st.frame_mut().regs.insert(d.clone(), Val::Bv(v));
            }
            return Ok(Outcome::Continue);
        } else if ["lrint", "llrint", "lround", "llround"].iter().any(|b| one_arg(b)) {
            // long is 64 bits (32 under ILP32), long long 64. glibc rounds in the current
            // mode (lrint: cvtsd2si, fistp) or half away from zero (lround)
            // and gives the integer indefinite 100…0 for NaN, infinities
            // and out-of-range values, as fp.to_sbv does in fpsym.
            let m = if name.contains("round") {
                RoundingMode::NearestTiesToAway
            } else {
                r
            };
            let w = if name.starts_with("ll") { 64 } else { self.long_type().0 };
            let v = mk(Op::FpToSbv(w), vec![rm(m), f(0)]);
            if let Some(d) = dest {
                st.frame_mut().regs.insert(d.clone(), Val::Bv(v));
            }
            return Ok(Outcome::Continue);
        } else if two_args("ldexp") || two_args("scalbn") {
            return self.ldexp(st, name, &f(0), args[1].bv(), dest, loc);
        } else if two_args("modf") || two_args("frexp") {
            return self.split_float(st, name, &f(0), args[1].bv(), dest, loc);
        } else {
            return Err(super::unmodelled(name));
        };
        if let Some(d) = dest {
            st.frame_mut().regs.insert(d.clone(), Val::Fp(res));
        }
        Ok(Outcome::Continue)
    }

    /// ldexp(x, n) = x·2^n, rounded once in the current mode (exact unless
    /// it overflows or underflows). A symbolic n is made concrete.
    fn ldexp(
        &mut self,
        st: &mut State,
        name: &str,
        x: &Term,
        n: &Term,
        dest: Option<&Name>,
        loc: &Option<Loc>,
    ) -> Result<Outcome, ExecError> {
        let n = match as_bv(n) {
            Some(v) => v as u32 as i32 as i64,
            None => self.concretize(st, n, loc, &format!("exponent of {name}")) as u32 as i32 as i64,
        };
        let fmt = format_of(x);
        let r = st.rm;
        // 2^n may not be a float of the format: scale in steps that stay
        // exact (powers of two within range), rounding only at the last.
        let mut acc = x.clone();
        let mut left = n;
        let step = fmt.emax() - 1;
        while left > step || left < -step {
            let k = if left > 0 { step } else { -step };
            let p = Term::fp(Float::pow2(fmt, k).expect("in range"));
            // Intermediate products are exact unless they overflow (then
            // the result overflows anyway) or fall below the normal range,
            // which only the final, rounded step may do: move the large
            // factor first when scaling down.
            acc = mk(Op::FpMul, vec![rm(r), acc, p]);
            left -= k;
        }
        let p = Term::fp(Float::pow2(fmt, left).expect("in range"));
        let res = mk(Op::FpMul, vec![rm(r), acc, p]);
        // glibc: ERANGE when a finite non-zero x gives an infinity or a zero.
        let finite_nonzero = mk(
            Op::Not,
            vec![mk(
                Op::Or,
                vec![
                    mk(Op::FpIsNaN, vec![x.clone()]),
                    mk(Op::FpIsInfinite, vec![x.clone()]),
                    mk(Op::FpIsZero, vec![x.clone()]),
                ],
            )],
        );
        let out = mk(
            Op::Or,
            vec![
                mk(Op::FpIsInfinite, vec![res.clone()]),
                mk(Op::FpIsZero, vec![res.clone()]),
            ],
        );
        self.set_errno(st, Some(mk(Op::And, vec![finite_nonzero, out])), ERANGE);
        if let Some(d) = dest {
            st.frame_mut().regs.insert(d.clone(), Val::Fp(res));
        }
        Ok(Outcome::Continue)
    }

    /// modf(x, &ip): ip = trunc(x), returns x - ip with x's sign (±0 for
    /// infinities). frexp(x, &e): x = m·2^e with 0.5 <= |m| < 1; a symbolic
    /// x is made concrete for frexp.
    fn split_float(
        &mut self,
        st: &mut State,
        name: &str,
        x: &Term,
        p: &Term,
        dest: Option<&Name>,
        loc: &Option<Loc>,
    ) -> Result<Outcome, ExecError> {
        let fmt = format_of(x);
        let fty = match fmt {
            f if f == Format::BINARY32 => Type::FPType(llvm_ir::types::FPType::Single),
            f if f == Format::X86_FP80 => Type::FPType(llvm_ir::types::FPType::X86_FP80),
            _ => Type::FPType(llvm_ir::types::FPType::Double),
        };
        let (ret, stored, sty) = if name.starts_with("modf") {
            let ip = mk(Op::FpRoundToIntegral, vec![rm(RoundingMode::TowardZero), x.clone()]);
            let diff = mk(
                Op::FpSub,
                vec![rm(RoundingMode::NearestTiesToEven), x.clone(), ip.clone()],
            );
            let zero = Term::fp(Float::zero(fmt, false));
            let frac = mk(Op::Ite, vec![mk(Op::FpIsInfinite, vec![x.clone()]), zero, diff]);
            let abs = mk(Op::FpAbs, vec![frac]);
            let neg = self.sign_bit(st, x);
            let frac = mk(Op::Ite, vec![neg, mk(Op::FpNeg, vec![abs.clone()]), abs]);
            (Val::Fp(frac), Val::Fp(ip), fty)
        } else {
            let b = self.bits_of(st, x);
            let v = match as_bv(&b) {
                Some(v) => v,
                None => self.concretize(st, &b, loc, &format!("argument of {name}")),
            };
            let xv = Float::from_bits(fmt, v);
            let (m, e) = if xv.is_nan() || xv.is_infinite() || xv.is_zero() {
                (xv, 0i64)
            } else {
                // |x| = m·2^e with m in [0.5, 1): e = floor(log2|x|) + 1.
                let mut e = xv.exponent().expect("finite non-zero") + 1;
                let scaled = |e: i64| {
                    let mut acc = xv;
                    let mut left = -e;
                    while left != 0 {
                        let k = left.clamp(-(fmt.emax() - 1), fmt.emax() - 1);
                        acc = acc
                            .mul(Float::pow2(fmt, k).expect("in range"), RoundingMode::NearestTiesToEven)
                            .value;
                        left -= k;
                    }
                    acc
                };
                let half = num_rational::BigRational::new(1.into(), 2.into());
                let mut m = scaled(e);
                while m.abs().to_rational().is_some_and(|r| r < half) {
                    e -= 1;
                    m = scaled(e);
                }
                (m, e)
            };
            (
                Val::Fp(Term::fp(m)),
                Val::Bv(bv(32, e as i32 as u32 as u128)),
                Type::IntegerType { bits: 32 },
            )
        };
        match self.store(st, p, &stored, &sty, loc.clone())? {
            Outcome::Continue => {}
            other => return Ok(other),
        }
        if let Some(d) = dest {
            st.frame_mut().regs.insert(d.clone(), ret);
        }
        Ok(Outcome::Continue)
    }
}
