//! LLVM intrinsics (`llvm.*`): FP operations (element-wise on vectors;
//! `llvm.powi` as the runtime library computes it, see [`powi`]),
//! constrained FP intrinsics, memory intrinsics, varargs, stack save and
//! restore, traps; debug and lifetime markers do nothing. An intrinsic
//! fpsym does not know stops the path as unsupported.

use crate::checkers::{Kind, Violation};
use crate::exec::{End, Exec, ExecError, Outcome};
use crate::memory::Cell;
use crate::state::{Loc, State};
use crate::term::{as_bv, bv, mk, rm};
use crate::value::Val;
use fpsym_expr::{Op, Term};
use fpsym_float::RoundingMode;
use llvm_ir::Name;

impl Exec<'_, '_> {
    /// Runs intrinsic `llvm.<intr>`.
    pub(super) fn intrinsic(
        &mut self,
        st: &mut State,
        intr: &str,
        args: &[Val],
        dest: Option<&Name>,
        loc: &Option<Loc>,
    ) -> Result<Outcome, ExecError> {
        let r = st.rm;
        let family = intr.split('.').next().unwrap_or("");
        let f = |k: usize| args[k].fp().clone();
        let set = |st: &mut State, v: Val| {
            if let Some(d) = dest {
                st.frame_mut().regs.insert(d.clone(), v);
            }
        };
        // Element-wise intrinsics work on scalars and on vectors lane by lane.
        let lanes = |st: &mut State, f: &mut dyn FnMut(&[Val]) -> Term| {
            let v = crate::exec::map_lanes(args, &mut |a| Val::Fp(f(a)));
            set(st, v);
        };
        match family {
            "experimental" if intr.starts_with("experimental.constrained.") => {
                return self.constrained(st, intr, args, dest, loc)
            }
            "va_start" => return self.va_start(st, &args[0], loc),
            "va_end" => {}
            "va_copy" => {
                // The va_list is 24 bytes (a pointer under ILP32); its
                // areas belong to the frame.
                let n = if self.prog.layout.ilp32 { 4 } else { 24 };
                let copy = [args[0].clone(), args[1].clone(), Val::Bv(bv(64, n)), Val::Bv(bv(1, 0))];
                return self.intrinsic(st, "memcpy.p0i8.p0i8.i64", &copy, None, loc);
            }
            "dbg" | "lifetime" | "experimental" | "assume" | "donothing" | "var" | "annotation" => {}
            // `__builtin_expect` in optimised IR: the value itself (the
            // expectation only steers code layout).
            "expect" => set(st, args[0].clone()),
            // `__builtin_constant_p` in optimised IR: LLVM lowers it when it
            // compiles, to true where the operand is then an IR constant.
            // A symbolic operand is none; a concrete one may or may not
            // have been one in the native build: either.
            "is" if intr.starts_with("is.constant") => {
                let concrete = args.first().and_then(Val::term).is_some_and(|t| t.as_const().is_some());
                let v = if concrete {
                    Term::var(&st.unique_name("fpsym.is_constant"), fpsym_expr::Sort::BitVec(1))
                } else {
                    bv(1, 0)
                };
                set(st, Val::Bv(v));
            }
            "fabs" => lanes(st, &mut |a| mk(Op::FpAbs, vec![a[0].fp().clone()])),
            "sqrt" => lanes(st, &mut |a| mk(Op::FpSqrt, vec![rm(r), a[0].fp().clone()])),
            "fma" => lanes(st, &mut |a| {
                mk(
                    Op::FpFma,
                    vec![rm(r), a[0].fp().clone(), a[1].fp().clone(), a[2].fp().clone()],
                )
            }),
            "fmuladd" => lanes(st, &mut |a| {
                // Unfused, as the x86-64 baseline lowers it.
                let p = mk(Op::FpMul, vec![rm(r), a[0].fp().clone(), a[1].fp().clone()]);
                mk(Op::FpAdd, vec![rm(r), p, a[2].fp().clone()])
            }),
            "powi" => {
                let n = args[1].bv().clone();
                lanes(st, &mut |a| powi(r, a[0].fp(), &n));
            }
            "copysign" if !matches!(args.first(), Some(Val::Agg(_))) => {
                let abs = mk(Op::FpAbs, vec![f(0)]);
                let neg = self.sign_bit(st, &f(1));
                set(
                    st,
                    Val::Fp(mk(Op::Ite, vec![neg, mk(Op::FpNeg, vec![abs.clone()]), abs])),
                );
            }
            "floor" | "ceil" | "trunc" | "rint" | "nearbyint" | "round" | "roundeven" => {
                let m = match family {
                    "floor" => RoundingMode::TowardNegative,
                    "ceil" => RoundingMode::TowardPositive,
                    "trunc" => RoundingMode::TowardZero,
                    "round" => RoundingMode::NearestTiesToAway,
                    "roundeven" => RoundingMode::NearestTiesToEven,
                    _ => r,
                };
                lanes(st, &mut |a| mk(Op::FpRoundToIntegral, vec![rm(m), a[0].fp().clone()]));
            }
            "minnum" | "maxnum" => {
                let max = family == "maxnum";
                let k = self.constant_argument;
                let v = crate::exec::map_lanes(args, &mut |a| {
                    Val::Fp(crate::exec::arith::intrinsic_min_max(st, max, a[0].fp(), a[1].fp(), k))
                });
                set(st, v);
            }
            "memcpy" | "memmove" | "memset" => {
                let mut forks = Vec::new();
                let n = self.length(st, args[2].bv(), loc, family);
                if n == 0 {
                    return Ok(Outcome::Continue);
                }
                let cells = if family == "memset" {
                    vec![Cell::byte(crate::exec::resize(args[1].bv(), 8, false)); n as usize]
                } else {
                    let (b, off) = match self.region(st, args[1].bv(), n, loc, false, &mut forks)? {
                        Ok(r) => r,
                        Err(end) => return Ok(self.end_keeping(st, end, forks)),
                    };
                    let Some(k) = as_bv(&off) else {
                        let end = End::Partial(crate::report::Partial::NotModelled(format!(
                            "{family} from a symbolic offset"
                        )));
                        return Ok(self.end_keeping(st, end, forks));
                    };
                    st.mem.read(b, k as u64, n)
                };
                let (b, off) = match self.region(st, args[0].bv(), n, loc, true, &mut forks)? {
                    Ok(r) => r,
                    Err(end) => return Ok(self.end_keeping(st, end, forks)),
                };
                self.write_at(st, b, &off, &cells, loc);
                if !forks.is_empty() {
                    return Ok(Outcome::Fork(forks));
                }
            }
            "stacksave" => {
                let mark = st.frame().allocas.len();
                set(st, Val::Bv(bv(64, mark as u128)));
            }
            "stackrestore" => {
                let mark = as_bv(args[0].bv()).unwrap_or(0) as usize;
                let n = st.frame().allocas.len();
                let gone: Vec<u64> = st.frame_mut().allocas.split_off(mark.min(n));
                for a in gone {
                    st.mem.kill(a);
                }
            }
            "trap" | "debugtrap" => {
                return Ok(Outcome::End(End::Error(
                    Violation::new(Kind::Abort, loc.clone(), st)
                        .with_message("llvm.trap")
                        .with_signal(fpsym_report::Termination::Trap),
                )))
            }
            "flt" => set(
                st,
                Val::Bv(bv(
                    32,
                    match r {
                        RoundingMode::TowardZero => 0,
                        RoundingMode::NearestTiesToEven | RoundingMode::NearestTiesToAway => 1,
                        RoundingMode::TowardPositive => 2,
                        RoundingMode::TowardNegative => 3,
                    },
                )),
            ),
            _ => return Err(ExecError::Unsupported(format!("intrinsic llvm.{intr}"))),
        }
        Ok(Outcome::Continue)
    }

    /// A byte count argument, made concrete (with an event) if symbolic.
    fn length(&mut self, st: &mut State, n: &Term, loc: &Option<Loc>, what: &str) -> u64 {
        match as_bv(n) {
            Some(n) => n as u64,
            None => self.concretize(st, n, loc, &format!("{what} of a symbolic length")) as u64,
        }
    }

    /// Resolves `n` bytes at `p` (object base and offset); states split
    /// off for other objects the pointer may reach go to `forks`; a bug
    /// ends the path (`Err`).
    fn region(
        &mut self,
        st: &mut State,
        p: &Term,
        n: u64,
        loc: &Option<Loc>,
        write: bool,
        forks: &mut Vec<State>,
    ) -> Result<Result<(u64, Term), End>, ExecError> {
        Ok(match self.resolve(st, p, n, loc, write)? {
            crate::exec::Access::At(b, o) => Ok((b, o)),
            crate::exec::Access::Bug(v) => Err(End::Error(v)),
            crate::exec::Access::Elsewhere(b, o, f) => {
                forks.extend(f);
                Ok((b, o))
            }
        })
    }
}

/// `llvm.powi(x, m)` (`__builtin_powi`) as libgcc's `__powidf2` (and
/// `__powisf2`, `__powixf2` in their own format; compiler-rt's are the
/// same) computes it, which x86-64 code calls: with n = |m|,
/// `y = n odd ? x : 1; while (n >>= 1) { x = x * x; if (n odd) y = y * x; }`,
/// then `1 / y` for a negative m; every step rounds in the current mode.
/// A symbolic exponent gives the term for all 32 bits (each bit selects
/// its product); a concrete one folds to the steps it takes.
pub(crate) fn powi(r: RoundingMode, x: &Term, m: &Term) -> Term {
    let fmt = crate::term::format_of(x);
    let mul = |a: &Term, b: &Term| mk(Op::FpMul, vec![rm(r), a.clone(), b.clone()]);
    let negative = mk(Op::BvSlt, vec![m.clone(), bv(32, 0)]);
    let n = mk(
        Op::Ite,
        vec![negative.clone(), mk(Op::BvNeg, vec![m.clone()]), m.clone()],
    );
    let bit = |k: u32| {
        let b = mk(Op::BvExtract(k, k), vec![n.clone()]);
        mk(Op::Eq, vec![b, bv(1, 1)])
    };
    let one = Term::fp(fpsym_float::Float::one(fmt, false));
    let mut y = mk(Op::Ite, vec![bit(0), x.clone(), one.clone()]);
    let mut p = x.clone();
    for k in 1..32 {
        // Squarings past n's top bit are never used: stop at a known top.
        let rest = mk(Op::BvLshr, vec![n.clone(), bv(32, u128::from(k))]);
        if as_bv(&rest) == Some(0) {
            break;
        }
        p = mul(&p, &p);
        y = mk(Op::Ite, vec![bit(k), mul(&y, &p), y]);
    }
    let recip = mk(Op::FpDiv, vec![rm(r), one, y.clone()]);
    mk(Op::Ite, vec![negative, recip, y])
}
