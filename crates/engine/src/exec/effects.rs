//! What one step of the executor produced besides its outcome.

use super::{End, Undecided, Violation};
use crate::state::{Loc, State};

/// What one step produced besides its [`Outcome`]: findings and ends of
/// states other than the one executing, states split off, events, what
/// the program printed. The run loop applies them in this order: events,
/// ends (side findings first), continued findings, input pairs, forks.
#[derive(Default)]
pub struct Effects {
    /// Findings raised on states that go on (checkers fork them off).
    pub side_findings: Vec<(State, Violation)>,
    /// Findings after which the path goes on ([`OnViolation::Continue`]):
    /// a copy of the state constrained to the violation, for its test.
    /// They end no path.
    pub continued: Vec<(State, Violation)>,
    /// With [`crate::InputOptions::count_inputs`]: inputs found reaching a
    /// finding already reported (its kind and location, the input bytes).
    pub pairs: Vec<((crate::checkers::Kind, Option<Loc>), Vec<u8>)>,
    /// States split off by checkers' injected branches
    /// ([`OnViolation::Split`]): they execute the instruction next.
    pub forked: Vec<State>,
    /// Events to report (concretizations, dropped branches, ...).
    pub events: Vec<crate::report::Event>,
    /// What the program printed (with `--print`).
    pub printed: Vec<String>,
    /// States that ended while the executing state went on in another.
    pub side_ends: Vec<(State, End)>,
    /// Branch sides forked as if feasible although their query timed out.
    pub undecided: Vec<Undecided>,
}
