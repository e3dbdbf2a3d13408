//! A command's time, phase by phase: what each phase (the proof attempt,
//! the fuzzing phase, the symbolic search, the follow-up of crashes, the
//! mode's own step, the claim's native check, the invariants' check) was
//! given of `--max-time` and what it used. Written into stats.json's
//! `phases`, so that a run that took longer than its `--max-time` says
//! where the time went.

use fpsym_engine::report::PhaseTime;
use std::time::{Duration, Instant};

/// The phases of one command, as they run.
#[derive(Debug, Default)]
pub struct Budget {
    phases: Vec<PhaseTime>,
}

impl Budget {
    /// No phase yet.
    pub fn new() -> Budget {
        Budget::default()
    }

    /// Records a phase that ran: its name, its share (None: not bounded
    /// by `--max-time`) and the time it used.
    pub fn record(&mut self, phase: &str, given: Option<Duration>, used: Duration) {
        self.phases.push(PhaseTime {
            phase: phase.to_string(),
            given: given.map(|d| d.as_secs_f64()),
            used: used.as_secs_f64(),
        });
    }

    /// Runs `f` as the phase `phase` given `given`, and records it.
    pub fn time<T>(&mut self, phase: &str, given: Option<Duration>, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let r = f();
        self.record(phase, given, start.elapsed());
        r
    }

    /// The phases so far.
    pub fn phases(&self) -> &[PhaseTime] {
        &self.phases
    }
}
