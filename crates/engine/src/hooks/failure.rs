//! Failure points and process exits: `reach_error`/`__VERIFIER_error`,
//! `abort` and the assertion-failure functions end the path with a
//! finding; `exit` runs the `atexit` handlers first, `_exit`/`_Exit` do not.

use super::int_arg;
use super::HookCall;
use crate::checkers::{Kind, Violation};
use crate::exec::{End, Exec, ExecError, Outcome};
use crate::state::State;

/// The functions modelled here.
pub(super) const NAMES: &[&str] = &[
    "reach_error",
    "__VERIFIER_error",
    "abort",
    "exit",
    "_exit",
    "_Exit",
    "__assert_fail",
    "__assert_rtn",
    "__assert",
];

impl Exec<'_, '_> {
    /// Runs the model of a failure point or exit function.
    pub(super) fn failure(&mut self, st: &mut State, call: &HookCall<'_>) -> Result<Outcome, ExecError> {
        let HookCall { name, args, dest, loc } = *call;
        let arg_bv = |k: usize| int_arg(name, args, k);
        let _ = dest;
        let out = match name {
            "reach_error" | "__VERIFIER_error" => {
                Outcome::End(End::Error(Violation::new(Kind::ReachError, loc.clone(), st)))
            }
            "abort" => Outcome::End(End::Error(Violation::new(Kind::Abort, loc.clone(), st))),
            // exit runs the atexit handlers; _exit and _Exit do not.
            "exit" => return self.exit_with(st, arg_bv(0)?, true),
            "_exit" | "_Exit" => Outcome::End(End::Exit(arg_bv(0)?)),
            "__assert_fail" | "__assert_rtn" | "__assert" => {
                let text = self.c_string(st, &arg_bv(0)?).unwrap_or_default();
                Outcome::End(End::Error(
                    Violation::new(Kind::AssertionFailure, loc.clone(), st)
                        .with_message(format!("assertion `{text}` failed")),
                ))
            }
            _ => return Err(super::unmodelled(name)),
        };
        Ok(out)
    }
}
