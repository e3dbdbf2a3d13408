//! The `printf` family: what is printed is kept (with
//! [`crate::Config::print`]) as the format string or the first argument;
//! every call returns 0.

use super::set_result;
use super::HookCall;
use crate::exec::{Exec, ExecError, Outcome};
use crate::state::State;
use crate::term::bv;
use crate::value::Val;

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
        if self.config.print {
            // fprintf's format follows the stream; the others print their first argument.
            let k = usize::from(name == "fprintf");
            let shown = args.get(k).and_then(|a| self.c_string(st, a.bv())).unwrap_or_default();
            self.printed.push(shown);
        }
        set(st, Val::Bv(bv(32, 0)));
        Ok(Outcome::Continue)
    }
}
