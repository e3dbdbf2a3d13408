//! Branch sides whose feasibility query timed out, asked again with a
//! larger budget on a thread of their own while the run goes on with its
//! other states (see [`crate::RunContext::retry_solver`]).
//!
//! One query at a time: the run's own solver keeps one core busy, the
//! retry the other. Its budget carries a flag of its own, raised when the
//! run stops (for any reason) or this is dropped, so a retry never
//! outlasts its run by more than the solver's reaction to a cancellation.

use fpsym_solver::{Budget, Query, Reason, SolveResult, Solver, SolverError};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// What the thread answers: the result and the seconds it took.
type Answer = (Result<SolveResult, SolverError>, f64);

/// A solver on a thread of its own, asked one query at a time.
pub(crate) struct Background {
    ask: Option<mpsc::Sender<(Query, Budget)>>,
    answers: mpsc::Receiver<Answer>,
    stop: Arc<AtomicBool>,
    busy: bool,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Background {
    /// `solver` moved to a new thread; None if no thread can be made
    /// (the run then retries between its steps, as without one).
    pub(crate) fn new(mut solver: Box<dyn Solver>) -> Option<Background> {
        let (ask, questions) = mpsc::channel::<(Query, Budget)>();
        let (tell, answers) = mpsc::channel::<Answer>();
        let thread = std::thread::Builder::new()
            .name("fpsym-retry".into())
            .spawn(move || {
                for (q, budget) in questions {
                    let began = Instant::now();
                    let r = solver.check(&q, &budget);
                    if tell.send((r, began.elapsed().as_secs_f64())).is_err() {
                        break;
                    }
                }
            })
            .ok()?;
        Some(Background {
            ask: Some(ask),
            answers,
            stop: Arc::new(AtomicBool::new(false)),
            busy: false,
            thread: Some(thread),
        })
    }

    /// Asks `q` within `timeout`, and not past `deadline` (the run's).
    pub(crate) fn start(&mut self, q: Query, deadline: Option<Instant>, timeout: Duration) {
        debug_assert!(!self.busy, "one query at a time");
        let budget = Budget::until(deadline).with_cancel(self.stop.clone()).at_most(timeout);
        // A send fails only when the thread is gone: [`Background::answer`]
        // then finds its channel closed and answers `unknown`.
        if self.ask.as_ref().is_some_and(|ask| ask.send((q, budget)).is_err()) {
            self.ask = None;
        }
        self.busy = true;
    }

    /// The answer to the query asked, if it came within `wait`. A thread
    /// that died answers `unknown`.
    pub(crate) fn answer(&mut self, wait: Duration) -> Option<Answer> {
        if !self.busy {
            return None;
        }
        let got = if wait.is_zero() {
            self.answers
                .try_recv()
                .map_err(|e| matches!(e, mpsc::TryRecvError::Disconnected))
        } else {
            self.answers
                .recv_timeout(wait)
                .map_err(|e| matches!(e, mpsc::RecvTimeoutError::Disconnected))
        };
        match got {
            Ok(a) => {
                self.busy = false;
                Some(a)
            }
            Err(true) => {
                self.busy = false;
                self.ask = None;
                let why = Reason::Backend("the retry thread stopped".into());
                Some((Ok(SolveResult::Unknown(why)), 0.0))
            }
            Err(false) => None,
        }
    }
}

impl Drop for Background {
    /// Cancels the query asked, if any, and lets the thread end: waited
    /// for up to a fifth of a second (the chain's detached backends answer
    /// a cancellation within it), else left to end on its own (the run's
    /// limits hold within a second, its wrap-up included).
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.ask = None;
        if let Some(t) = self.thread.take() {
            let until = Instant::now() + Duration::from_millis(200);
            while !t.is_finished() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(5));
            }
            if t.is_finished() {
                let _ = t.join();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Answers sat with an empty model, or panics (a thread that dies).
    struct Scripted(bool);
    impl Solver for Scripted {
        fn name(&self) -> String {
            "scripted".into()
        }
        fn check(&mut self, _: &Query, _: &Budget) -> Result<SolveResult, SolverError> {
            assert!(self.0, "the backend fails");
            Ok(SolveResult::Sat(Default::default()))
        }
    }

    fn ask(bg: &mut Background) -> Result<SolveResult, SolverError> {
        bg.start(Query::new(Vec::new()), None, Duration::from_secs(5));
        bg.answer(Duration::from_secs(5)).expect("an answer").0
    }

    /// Answers come back; a thread that died answers `unknown`, every
    /// time (a retry is never left waiting).
    #[test]
    fn answers_come_back_and_a_dead_thread_answers_unknown() {
        let mut bg = Background::new(Box::new(Scripted(true))).expect("a thread");
        assert!(bg.answer(Duration::ZERO).is_none(), "nothing asked");
        assert!(matches!(ask(&mut bg), Ok(SolveResult::Sat(_))));
        let mut dead = Background::new(Box::new(Scripted(false))).expect("a thread");
        for _ in 0..2 {
            assert!(matches!(ask(&mut dead), Ok(SolveResult::Unknown(Reason::Backend(_)))));
        }
    }
}
