//! Every budget of a run (time, instructions, states, memory, Ctrl-C),
//! checked in one place, and the reading of a process's resident set.

use crate::Config;
use fpsym_report::{Stats, StopReason};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often the memory limit reads the process's resident set.
pub const MEMORY_CHECK_INTERVAL: Duration = Duration::from_millis(200);

/// The longest the end of a stopped run takes to write tests for the states
/// still live (a backend overstaying its deadline included).
pub const WRAP_UP: Duration = Duration::from_secs(1);

/// While states remain to run, retries of timed-out branch sides may use
/// this share of the run's wall-clock time; when none remain, retries run
/// until the pending sides are decided or dropped.
pub const RETRY_SHARE: f64 = 0.25;

/// The process's resident set in bytes (`VmRSS` of `/proc/self/status`),
/// None where it cannot be read.
pub fn resident_bytes() -> Option<u64> {
    resident_bytes_of("self")
}

/// The resident set in bytes of process `pid` (a number, or `self`).
pub fn resident_bytes_of(pid: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Every budget of a run, checked in one place (egg's `check_limits`).
pub(crate) struct Limits {
    max_time: Option<Duration>,
    deadline: Option<Instant>,
    interrupt: Arc<AtomicBool>,
    max_instructions: Option<u64>,
    max_queries: Option<u64>,
    max_states: usize,
    max_memory: u64,
    /// When the resident set was last read, and what it was.
    memory_read: Option<(Instant, u64)>,
    /// Calls of [`Limits::check`]: the clock is read on every
    /// [`CLOCK_EVERY`]th only (a step takes well under a microsecond on
    /// the concrete path, and a solver query has the run's deadline).
    calls: u32,
    /// The reason found when the clock was last read: it holds until the
    /// run stops (a later call that does not read the clock returns it).
    timed_out: Option<StopReason>,
}

/// Instructions the fast path runs at most between two checks of the
/// run's limits (at its speed, under a millisecond). Each chunk ends
/// with its stored bytes written to the cells, so that a larger one
/// spends less on that; the searcher's quantum (10,000 steps by default)
/// ends a chunk first, unless the state runs alone ([`LONE_QUANTUM`]).
pub(crate) const FAST_CHUNK: u64 = 65536;

/// Steps a state that runs alone (no other state, no branch side
/// waiting) runs on the fast path before the searcher chooses again: a
/// few milliseconds there.
pub(crate) const LONE_QUANTUM: u64 = 1 << 20;

/// See [`Limits::calls`].
const CLOCK_EVERY: u32 = 64;

impl Limits {
    pub(crate) fn new(config: &Config, deadline: Option<Instant>, interrupt: Arc<AtomicBool>) -> Limits {
        Limits {
            max_time: config.limits.max_time,
            deadline,
            interrupt,
            max_instructions: config.limits.max_instructions,
            max_queries: config.limits.max_queries,
            max_states: config.limits.max_states,
            max_memory: config.limits.max_memory,
            memory_read: None,
            calls: 0,
            timed_out: None,
        }
    }

    /// Why the run must stop now, if it must: a solver fault, Ctrl-C, the
    /// time limit, the instruction or query limit, too many live states, or the
    /// resident set over the memory limit (read at most every
    /// [`MEMORY_CHECK_INTERVAL`]; the largest reading goes to `stats`).
    ///
    /// Between two steps of one state (`step`), the clock is read on every
    /// [`CLOCK_EVERY`]th call only; elsewhere always.
    pub(crate) fn check(
        &mut self,
        stats: &mut Stats,
        live: usize,
        fault: Option<&fpsym_solver::SolverError>,
        step: bool,
    ) -> Option<StopReason> {
        if let Some(f) = fault {
            return Some(StopReason::SolverFault(f.to_string()));
        }
        if self.interrupt.load(Ordering::Relaxed) {
            return Some(StopReason::Interrupted);
        }
        if let Some(m) = self.max_instructions {
            if stats.instructions >= m {
                return Some(StopReason::MaxInstructions(stats.instructions));
            }
        }
        if let Some(m) = self.max_queries {
            if stats.queries >= m {
                return Some(StopReason::MaxQueries(stats.queries));
            }
        }
        if live > self.max_states {
            return Some(StopReason::MaxStates(live));
        }
        if let Some(s) = &self.timed_out {
            return Some(s.clone());
        }
        self.calls = self.calls.wrapping_add(1);
        if step && !self.calls.is_multiple_of(CLOCK_EVERY) {
            return match self.memory_read {
                Some((_, rss)) if rss > self.max_memory => Some(StopReason::MaxMemory(rss)),
                _ => None,
            };
        }
        if let (Some(d), Some(limit)) = (self.deadline, self.max_time) {
            if Instant::now() >= d {
                let s = StopReason::MaxTime(limit.as_secs_f64());
                self.timed_out = Some(s.clone());
                return Some(s);
            }
        }
        let stale = self
            .memory_read
            .is_none_or(|(at, _)| at.elapsed() >= MEMORY_CHECK_INTERVAL);
        if stale {
            let rss = resident_bytes().unwrap_or(0);
            stats.max_resident_bytes = stats.max_resident_bytes.max(rss);
            self.memory_read = Some((Instant::now(), rss));
        }
        match self.memory_read {
            Some((_, rss)) if rss > self.max_memory => Some(StopReason::MaxMemory(rss)),
            _ => None,
        }
    }
}
