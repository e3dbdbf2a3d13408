//! The `printf` family: what is printed is kept (with
//! [`crate::Policies::print`]) as the format string or the first argument.
//! What each returns is glibc's (a program may branch on it): `puts` the
//! length plus one, `fputs` 1, `putchar`/`fputc`/`putc` the character as
//! an unsigned char, `fflush` 0, `printf`/`fprintf` the number of bytes
//! printed when the format has no conversion; a format with conversions
//! (whose output fpsym does not compute) returns any non-negative count.

use super::set_result;
use super::HookCall;
use crate::exec::{Exec, ExecError, Outcome};
use crate::state::State;
use crate::term::{bv, mk};
use crate::value::Val;
use fpsym_expr::{Op, Sort, Term};

/// The functions modelled here.
pub(super) const NAMES: &[&str] = &[
    "printf", "puts", "putchar", "fprintf", "fputs", "fputc", "putc", "fflush",
];

impl Exec<'_, '_> {
    /// Runs the model of a `printf`-family function.
    pub(super) fn stdio(&mut self, st: &mut State, call: &HookCall<'_>) -> Result<Outcome, ExecError> {
        let HookCall { name, args, dest, loc } = *call;
        let _ = loc;
        let set = |st: &mut State, v: Val| set_result(st, dest, v);
        if self.config.policy.print {
            // fprintf's format follows the stream; the others print their first argument.
            let k = usize::from(name == "fprintf");
            let shown = args.get(k).and_then(|a| self.c_string(st, a.bv())).unwrap_or_default();
            self.effects.printed.push(shown);
        }
        let any_count = |st: &mut State| {
            let n = Term::var(&st.unique_name("fpsym.printed"), Sort::BitVec(32));
            st.constrain(mk(Op::BvSge, vec![n.clone(), bv(32, 0)]));
            n
        };
        let r = match name {
            "putchar" | "fputc" | "putc" => match args.first() {
                Some(c) => mk(
                    Op::BvZeroExtend(24),
                    vec![mk(Op::BvExtract(7, 0), vec![c.bv().clone()])],
                ),
                None => any_count(st),
            },
            "fputs" => bv(32, 1),
            "fflush" => bv(32, 0),
            "puts" => match args.first().and_then(|a| self.c_string(st, a.bv())) {
                Some(s) => bv(32, s.len() as u128 + 1),
                None => any_count(st),
            },
            // printf, fprintf: exact without conversions ("%%" prints one %).
            _ => {
                let k = usize::from(name == "fprintf");
                match args.get(k).and_then(|a| self.c_string(st, a.bv())) {
                    Some(f) if !f.replace("%%", "").contains('%') => bv(32, f.replace("%%", "%").len() as u128),
                    _ => any_count(st),
                }
            }
        };
        set(st, Val::Bv(r));
        Ok(Outcome::Continue)
    }
}
