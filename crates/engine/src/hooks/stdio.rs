//! The `printf` family: what is printed is kept (with
//! [`crate::Config::print`]) as the format string or the first argument;
//! every call returns 0.

use super::set_result;
use crate::exec::{Exec, ExecError, Outcome};
use crate::state::{Loc, State};
use crate::term::bv;
use crate::value::Val;
use llvm_ir::Name;

/// The functions modelled here.
pub(super) const NAMES: &[&str] = &[
    "printf", "puts", "putchar", "fprintf", "fputs", "fputc", "putc", "fflush",
];

impl Exec<'_, '_> {
    /// Runs the model of a `printf`-family function.
    pub(super) fn stdio(
        &mut self,
        st: &mut State,
        name: &str,
        args: &[Val],
        dest: Option<&Name>,
        loc: &Option<Loc>,
    ) -> Result<Outcome, ExecError> {
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
