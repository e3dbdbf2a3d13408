//! Rounding-mode control: `fegetround` reads the path's mode,
//! `fesetround` sets it (forking over the valid modes when the argument is
//! symbolic).

use super::HookCall;
use super::{int_arg, set_result};
use crate::exec::{End, Exec, ExecError, Outcome};
use crate::state::State;
use crate::term::{bv, mk, width};
use crate::value::Val;
use fpsym_expr::Op;
use fpsym_float::RoundingMode;

/// The functions modelled here.
pub(super) const NAMES: &[&str] = &["fegetround", "fesetround"];

/// x86-64 glibc's FE_* rounding-mode values.
const FE_TONEAREST: u128 = 0;
const FE_DOWNWARD: u128 = 0x400;
const FE_UPWARD: u128 = 0x800;
const FE_TOWARDZERO: u128 = 0xc00;

fn fe_of(r: RoundingMode) -> u128 {
    match r {
        RoundingMode::NearestTiesToEven | RoundingMode::NearestTiesToAway => FE_TONEAREST,
        RoundingMode::TowardNegative => FE_DOWNWARD,
        RoundingMode::TowardPositive => FE_UPWARD,
        RoundingMode::TowardZero => FE_TOWARDZERO,
    }
}

impl Exec<'_, '_> {
    /// Runs the model of a rounding-mode function.
    pub(super) fn fenv(&mut self, st: &mut State, call: &HookCall<'_>) -> Result<Outcome, ExecError> {
        let HookCall { name, args, dest, loc } = *call;
        let set = |st: &mut State, v: Val| set_result(st, dest, v);
        let arg_bv = |k: usize| int_arg(name, args, k);
        let out = match name {
            "fegetround" => {
                set(st, Val::Bv(bv(32, fe_of(st.rm))));
                Outcome::Continue
            }
            "fesetround" => {
                // A symbolic mode forks over the four valid modes and the
                // invalid rest (fesetround fails and keeps the mode).
                let m = arg_bv(0)?;
                let modes = [
                    (FE_TONEAREST, RoundingMode::NearestTiesToEven),
                    (FE_DOWNWARD, RoundingMode::TowardNegative),
                    (FE_UPWARD, RoundingMode::TowardPositive),
                    (FE_TOWARDZERO, RoundingMode::TowardZero),
                ];
                let w = width(&m);
                let mut rest = Some(std::mem::replace(st, crate::exec::placeholder()));
                let mut out: Vec<State> = Vec::new();
                for (v, r) in modes {
                    let Some(cur) = rest.take() else { break };
                    let (yes, no) = self.fork(cur, mk(Op::Eq, vec![m.clone(), bv(w, v)]), loc.clone());
                    if let Some(mut y) = yes {
                        y.rm = r;
                        set(&mut y, Val::Bv(bv(32, 0)));
                        out.push(y);
                    }
                    rest = no;
                }
                if let Some(mut bad) = rest {
                    set(&mut bad, Val::Bv(bv(32, 1)));
                    out.push(bad);
                }
                if out.is_empty() {
                    return Ok(Outcome::End(End::Infeasible));
                }
                *st = out.remove(0);
                if out.is_empty() {
                    Outcome::Continue
                } else {
                    Outcome::Fork(out)
                }
            }
            _ => return Err(super::unmodelled(name)),
        };
        Ok(out)
    }
}
