//! Running backends on their own threads: [`Portfolio`] races or chains
//! several, [`Detached`] runs one so that the caller gets its answer by the
//! deadline even when the backend overstays it.
//!
//! A backend that ignores its deadline (Z3 sometimes finishes a bit-blasting
//! phase before it looks at its interrupt flag) keeps running on its thread
//! after the caller has moved on with `unknown`; its next query waits for it
//! (within that query's own budget).
//!
//! Every thread started here is counted in a [`Workers`] handle owned by
//! the chain it belongs to (no process-wide counter): a program about to
//! exit asks the handles of the chains it built whether any is still busy.

use crate::{Budget, Query, Reason, SolveResult, Solver, SolverError};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// How long after the deadline a caller waits for a backend's own answer
/// before answering `unknown` (timeout) without it.
pub const OVERSTAY: Duration = Duration::from_millis(300);

/// How often a waiting caller looks at its budget's cancellation flag.
const TICK: Duration = Duration::from_millis(20);

type Answer = Result<SolveResult, SolverError>;

/// Counts the solver threads still running (abandoned ones that overstayed
/// their deadline included) of the [`Detached`] backends and [`Portfolio`]s
/// sharing it. Clones share one count; [`crate::build_with_workers`] gives
/// every detached part of a chain the caller's handle.
///
/// Why a handle rather than a global: a program about to exit while some
/// thread is busy (a backend that ignored its cancellation) should leave
/// without running C++ static destructors under it (`_exit`), since libz3
/// may crash otherwise; a process that runs many analyses must be able to
/// ask that of the chains it built without one analysis seeing another's
/// threads.
#[derive(Clone, Debug, Default)]
pub struct Workers {
    busy: Arc<AtomicUsize>,
}

impl Workers {
    /// A fresh count at zero.
    pub fn new() -> Workers {
        Workers::default()
    }

    /// How many threads counted here are still running.
    pub fn busy(&self) -> usize {
        self.busy.load(Ordering::SeqCst)
    }
}

/// A backend behind a lock, run on a thread per query.
struct Member {
    name: String,
    solver: Arc<Mutex<Box<dyn Solver>>>,
    /// Statistics as of the member's last completed query.
    stats: Arc<Mutex<BTreeMap<String, f64>>>,
    /// Where its running threads are counted.
    workers: Workers,
}

impl Member {
    fn new(solver: Box<dyn Solver>, workers: Workers) -> Member {
        Member {
            name: solver.name(),
            stats: Arc::new(Mutex::new(solver.stats())),
            solver: Arc::new(Mutex::new(solver)),
            workers,
        }
    }

    /// Starts `query` on a new thread; the answer arrives on `tx` tagged `i`.
    fn spawn(&self, i: usize, query: &Query, budget: Budget, tx: mpsc::Sender<(usize, Answer)>) {
        let solver = self.solver.clone();
        let stats = self.stats.clone();
        let query = query.clone();
        let busy = self.workers.busy.clone();
        busy.fetch_add(1, Ordering::SeqCst);
        std::thread::spawn(move || {
            let mut s = solver.lock().unwrap_or_else(|e| e.into_inner());
            let r = if budget.expired() {
                Ok(SolveResult::Unknown(Reason::Timeout))
            } else {
                s.check(&query, &budget)
            };
            *stats.lock().unwrap_or_else(|e| e.into_inner()) = s.stats();
            drop(s);
            busy.fetch_sub(1, Ordering::SeqCst);
            let _ = tx.send((i, r));
        });
    }

    fn stats(&self) -> BTreeMap<String, f64> {
        self.stats.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// Runs `members` (indices into `all`) at once on `query` within `budget`.
/// Returns the index (into `all`) and answer of the first definite answer or
/// error (cancelling the others); when all answered unknown, the first
/// member's unknown; when the budget expires and [`OVERSTAY`] passes without
/// an answer, `(None, unknown)`.
fn race(all: &[Member], members: &[usize], query: &Query, budget: &Budget) -> (Option<usize>, Answer) {
    match race_detail(all, members, query, budget, &[], None) {
        Raced::Won(i, a, _) => (Some(i), a),
        Raced::Unknown(reasons) => {
            let reasons: Vec<(&str, Reason)> = reasons.into_iter().map(|(i, r)| (all[i].name.as_str(), r)).collect();
            (None, Ok(SolveResult::Unknown(combined(&reasons, false))))
        }
        Raced::Expired => (None, Ok(SolveResult::Unknown(Reason::Timeout))),
    }
}

/// How a [`race_detail`] ended.
enum Raced {
    /// Member `i` gave a definite answer or an error, after running this
    /// long.
    Won(usize, Answer, Duration),
    /// Every member answered unknown: (member, reason) in the order given.
    Unknown(Vec<(usize, Reason)>),
    /// The budget expired and [`OVERSTAY`] passed without every answer.
    Expired,
}

/// [`race`], keeping each member's reason when none decided; member `i`
/// runs within `caps[i]` of the time left when given one. With `stagger`,
/// the k-th of `members` starts k staggers after the first (at once when
/// every member started so far has answered unknown), and none is
/// stopped before the end: the first decides the easy queries alone, and
/// no member's work is thrown away when the others join.
fn race_detail(
    all: &[Member],
    members: &[usize],
    query: &Query,
    budget: &Budget,
    caps: &[Option<Slice>],
    stagger: Option<Duration>,
) -> Raced {
    let (tx, rx) = mpsc::channel();
    let mut tx = Some(tx);
    let flags: Vec<Arc<AtomicBool>> = members.iter().map(|_| Arc::new(AtomicBool::new(false))).collect();
    let started_at = Instant::now();
    let mut started = 0;
    let mut started_times: Vec<Instant> = Vec::with_capacity(members.len());
    let mut unknowns: Vec<Option<Reason>> = vec![None; members.len()];
    let mut answered = 0;
    let mut expired_at: Option<Instant> = None;
    loop {
        // Start the members whose time has come (all of them at once
        // without a stagger), or the next when the others gave up.
        while started < members.len()
            && !budget.expired()
            && (answered == started || stagger.is_none_or(|d| started_at.elapsed() >= d * started as u32))
        {
            let (k, i) = (started, members[started]);
            let b = match caps.get(i).copied().flatten() {
                Some(s) => budget.at_most(budget.remaining().map_or(s.cap, |r| r.mul_f64(s.share).min(s.cap))),
                None => budget.clone(),
            };
            if let Some(tx) = &tx {
                all[i].spawn(k, query, b.with_cancel(flags[k].clone()), tx.clone());
            }
            started_times.push(Instant::now());
            started += 1;
        }
        if started == members.len() {
            tx = None;
        }
        if answered == members.len() {
            break;
        }
        // Out of time with no member running (an expired budget starts none).
        if answered == started && budget.expired() {
            return Raced::Expired;
        }
        let cancel_all = || flags.iter().for_each(|f| f.store(true, Ordering::Relaxed));
        if budget.expired() {
            cancel_all();
            let t = *expired_at.get_or_insert_with(Instant::now);
            if t.elapsed() >= OVERSTAY {
                return Raced::Expired;
            }
        }
        match rx.recv_timeout(TICK) {
            Ok((k, r)) => {
                answered += 1;
                match r {
                    Ok(SolveResult::Unknown(reason)) => unknowns[k] = Some(reason),
                    r => {
                        cancel_all();
                        return Raced::Won(members[k], r, started_times[k].elapsed());
                    }
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    Raced::Unknown(
        members
            .iter()
            .zip(unknowns)
            .filter_map(|(&i, r)| Some((i, r?)))
            .collect(),
    )
}

/// Why no member decided a query, from each one's last `unknown`: a
/// timeout when one that took the query ran out of time (`ran_out` or its
/// reason; more time may decide it, so it is not given up); else the
/// reason of the first that took it and gave up (incomplete, its own
/// `unknown`); else every member declined the query (unsupported), and
/// the reason names each one's.
fn combined(reasons: &[(&str, Reason)], ran_out: bool) -> Reason {
    if ran_out || reasons.iter().any(|(_, r)| *r == Reason::Timeout) {
        return Reason::Timeout;
    }
    if let Some((_, r)) = reasons.iter().find(|(_, r)| !matches!(r, Reason::Unsupported(_))) {
        return r.clone();
    }
    match reasons {
        [] => Reason::Backend("no answer".into()),
        [(_, r)] => r.clone(),
        _ => Reason::Unsupported(
            reasons
                .iter()
                .map(|(n, r)| match r {
                    Reason::Unsupported(why) => format!("{n}: {why}"),
                    r => format!("{n}: {r}"),
                })
                .collect::<Vec<_>>()
                .join("; "),
        ),
    }
}

/// How a [`Portfolio`] combines its members.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PortfolioMode {
    /// All members at once, one thread each; the first definite answer wins
    /// and the others are cancelled.
    Parallel,
    /// One after another: each member but the last gets at most this
    /// fraction of the remaining budget (and at most `cap`; a member given
    /// its own [`Slice`] with [`Portfolio::with_slice`] gets that instead),
    /// the last gets what is left. When every member has answered unknown
    /// and time remains (a member gave up early), the members that were cut
    /// off by their slice run again, one after another, sharing what is
    /// left: the portfolio answers unknown only when the budget is spent or
    /// no member can use more time.
    Sequential {
        /// Fraction of the remaining time for each member but the last.
        share: f64,
        /// Upper bound on each member but the last.
        cap: Duration,
    },
    /// The members start one after another, a stagger apart (`share` of
    /// the remaining time, at most `cap`; the next at once when those
    /// started have all given up), and each runs on until the budget ends
    /// or one decides: the first decides the easy queries alone, and the
    /// one that would decide a hard query is never starved by the order
    /// nor restarted (one given a cap with [`Portfolio::with_race_cap`]
    /// runs within it). With `learn`, the order and some members' time
    /// follow what the run learned about the query's [`Shape`].
    Staged {
        /// Fraction of the remaining time between two starts.
        share: f64,
        /// Upper bound on the time between two starts.
        cap: Duration,
        /// Whether to learn per query shape (see [`Learned`]).
        learn: bool,
    },
}

/// A member's first-round time in a sequential portfolio: at most `share`
/// of the remaining budget and at most `cap`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slice {
    /// Fraction of the remaining time.
    pub share: f64,
    /// Upper bound.
    pub cap: Duration,
}

/// A member's second-round run is worth starting only with at least this
/// much time left.
const MIN_RETRY: Duration = Duration::from_millis(20);

/// Several backends deciding the same query; see [`PortfolioMode`].
pub struct Portfolio {
    members: Vec<Member>,
    /// Per-member first-round slices overriding the mode's.
    slices: Vec<Option<Slice>>,
    /// Per-member limits in staged mode's race (a member that can only
    /// answer one way, as ls only finds models, should not take a core
    /// for the whole of an unsat query).
    race_caps: Vec<Option<Slice>>,
    mode: PortfolioMode,
    wins: Vec<u64>,
    timeouts: u64,
    /// What staged mode learned in this run: per query shape, each member's
    /// wins and slowest win (see [`Learned`]).
    learned: Learned,
}

/// A query's shape for the portfolio's learning: which kinds of operation
/// it holds (a bit each), how many floating-point variables (bucketed) and
/// its widest floating-point format. Queries a run asks about one program
/// point share a shape; which member decides them, and how fast, is what
/// the portfolio learns per shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    ops: u16,
    vars: u8,
    widest: u8,
}

impl Shape {
    /// The shape of `query` (one walk over its DAG).
    pub fn of(query: &Query) -> Shape {
        use fpsym_expr::{Op, Sort};
        let mut seen = std::collections::HashSet::new();
        let mut stack: Vec<&fpsym_expr::Term> = query.assertions.iter().collect();
        let (mut ops, mut vars, mut widest) = (0u16, 0usize, 0u8);
        while let Some(t) = stack.pop() {
            if !seen.insert(t.id()) {
                continue;
            }
            let bit = match t.op() {
                Op::FpAdd | Op::FpSub => 0,
                Op::FpMul => 1,
                Op::FpDiv => 2,
                Op::FpFma => 3,
                Op::FpSqrt => 4,
                Op::FpRem => 5,
                Op::FpRoundToIntegral => 6,
                Op::FpMin | Op::FpMax => 7,
                Op::ToFpFromFp(_) => 8,
                Op::ToFpFromSbv(_) | Op::ToFpFromUbv(_) => 9,
                Op::FpToSbv(_) | Op::FpToUbv(_) => 10,
                Op::BvMul | Op::BvUdiv | Op::BvUrem | Op::BvSdiv | Op::BvSrem | Op::BvSmod => 11,
                Op::Libm(_) => 12,
                Op::Var(_) => {
                    if let Sort::Float(f) = t.sort() {
                        vars += 1;
                        widest = widest.max(match f.sb() {
                            0..=11 => 1,
                            12..=24 => 2,
                            25..=53 => 3,
                            _ => 4,
                        });
                    }
                    15
                }
                _ => 15,
            };
            if bit < 15 {
                ops |= 1 << bit;
            }
            stack.extend(t.args());
        }
        let vars = match vars {
            0..=2 => vars as u8,
            3..=4 => 3,
            5..=8 => 4,
            _ => 5,
        };
        Shape { ops, vars, widest }
    }
}

/// Staged mode's memory: for each [`Shape`], each member's definite
/// answers and the longest one took it. From the first decided query of a
/// shape on, its members start in order of wins, and each member that has
/// only decided such queries quickly runs within twice its slowest win
/// (at least [`Learned::FLOOR`]); once [`Learned::AFTER`] are decided, a
/// member that decided none runs within the floor. The member with the
/// slowest win is never capped, nor any at more than that win took. When a race ends undecided with time
/// left, the capped members run again with all of it: a cap costs time,
/// never an answer the budget allowed.
#[derive(Default)]
struct Learned {
    shapes: std::collections::HashMap<Shape, Vec<(u64, Duration)>>,
    capped: u64,
    second_rounds: u64,
}

impl Learned {
    /// Decided queries of a shape before a member that decided none is
    /// capped.
    const AFTER: u64 = 2;
    /// The least time a capped member gets.
    const FLOOR: Duration = Duration::from_millis(250);

    fn record(&mut self, shape: Shape, n: usize, winner: usize, took: Duration) {
        let s = self.shapes.entry(shape).or_insert_with(|| vec![(0, Duration::ZERO); n]);
        s[winner].0 += 1;
        s[winner].1 = s[winner].1.max(took);
    }

    /// The order to start the members in (most wins on `shape` first, the
    /// given order between equals) and each one's learned cap.
    fn plan(&self, shape: Shape, n: usize) -> (Vec<usize>, Vec<Option<Duration>>) {
        let mut order: Vec<usize> = (0..n).collect();
        let Some(s) = self.shapes.get(&shape) else {
            return (order, vec![None; n]);
        };
        order.sort_by_key(|&i| std::cmp::Reverse(s[i].0));
        let decided: u64 = s.iter().map(|w| w.0).sum();
        let deep = (0..n).max_by_key(|&i| (s[i].1, s[i].0)).unwrap_or(0);
        let caps = (0..n)
            .map(|i| match s[i] {
                _ if i == deep => None,
                (0, _) => (decided >= Self::AFTER).then_some(Self::FLOOR),
                (_, slowest) => Some((slowest * 2).max(Self::FLOOR)),
            })
            // Only below what the deep member has needed: capping at more
            // than any win took learns nothing.
            .map(|c| c.filter(|&c| c < s[deep].1))
            .collect();
        (order, caps)
    }
}

impl Portfolio {
    /// A portfolio over `members` (at least one), its threads counted in a
    /// fresh [`Workers`] (see [`Portfolio::workers`]).
    pub fn new(members: Vec<Box<dyn Solver>>, mode: PortfolioMode) -> Portfolio {
        Portfolio::with_workers(members, mode, &Workers::new())
    }

    /// A portfolio over `members` (at least one), its threads counted in
    /// `workers`.
    pub fn with_workers(members: Vec<Box<dyn Solver>>, mode: PortfolioMode, workers: &Workers) -> Portfolio {
        assert!(!members.is_empty(), "a portfolio needs a member");
        let n = members.len();
        Portfolio {
            members: members.into_iter().map(|m| Member::new(m, workers.clone())).collect(),
            slices: vec![None; n],
            race_caps: vec![None; n],
            mode,
            wins: vec![0; n],
            timeouts: 0,
            learned: Learned::default(),
        }
    }

    /// The same portfolio with member `i`'s first-round slice in
    /// sequential mode set to `slice` (the last member still gets all that
    /// is left).
    pub fn with_slice(mut self, i: usize, slice: Slice) -> Portfolio {
        self.slices[i] = Some(slice);
        self
    }

    /// The same portfolio with member `i` limited to `cap` of the time
    /// left in staged mode's race.
    pub fn with_race_cap(mut self, i: usize, cap: Slice) -> Portfolio {
        self.race_caps[i] = Some(cap);
        self
    }

    /// The count its threads are kept in.
    pub fn workers(&self) -> Workers {
        self.members[0].workers.clone()
    }

    /// Sequential mode: the members in order, each within its slice, then
    /// the ones cut off by their slice again with what is left.
    fn sequential(&self, query: &Query, budget: &Budget, share: f64, cap: Duration) -> (Option<usize>, Answer) {
        let n = self.members.len();
        // Each member's last `unknown`.
        let mut reasons: Vec<Option<Reason>> = vec![None; n];
        // Members that answered `unknown` (timeout) because their slice ran out.
        let mut cut = std::collections::VecDeque::new();
        for i in 0..n {
            let b = if i + 1 == n {
                budget.clone()
            } else {
                let s = self.slices[i].unwrap_or(Slice { share, cap });
                let slice = budget.remaining().map_or(s.cap, |r| r.mul_f64(s.share).min(s.cap));
                budget.at_most(slice)
            };
            let (w, a) = race(&self.members, &[i], query, &b);
            match a {
                Ok(SolveResult::Unknown(r)) => {
                    if r == Reason::Timeout && i + 1 < n {
                        cut.push_back(i);
                    }
                    reasons[i] = Some(r);
                }
                a => return (w, a),
            }
            if budget.expired() {
                return (None, Ok(SolveResult::Unknown(Reason::Timeout)));
            }
        }
        // Time is left (some member gave up early): the cut-off members
        // again, sharing what remains (only under a deadline).
        while budget.deadline.is_some() {
            let Some(i) = cut.pop_front() else { break };
            let rem = budget.remaining().unwrap_or(Duration::ZERO);
            if rem < MIN_RETRY {
                break;
            }
            let b = budget.at_most(rem / (cut.len() as u32 + 1));
            let (w, a) = race(&self.members, &[i], query, &b);
            match a {
                Ok(SolveResult::Unknown(r)) => {
                    if r == Reason::Timeout {
                        cut.push_back(i);
                    }
                    reasons[i] = Some(r);
                }
                a => return (w, a),
            }
        }
        // A member that declined (z3 on `fpsym.pow`, cvc5 on a format it
        // refuses) does not make the answer: when another ran out of time,
        // the query is worth more time (timeout), not given up.
        let last: Vec<(&str, Reason)> = self
            .members
            .iter()
            .zip(reasons)
            .filter_map(|(m, r)| Some((m.name.as_str(), r?)))
            .collect();
        let r = combined(&last, budget.expired() || !cut.is_empty());
        (None, Ok(SolveResult::Unknown(r)))
    }

    /// Member `i`'s answer `a` after `took`: learned for `shape` when it
    /// is definite.
    fn won(&mut self, shape: Option<Shape>, i: usize, a: Answer, took: Duration) -> (Option<usize>, Answer) {
        if let Some(shape) = shape.filter(|_| a.as_ref().is_ok_and(|r| !matches!(r, SolveResult::Unknown(_)))) {
            self.learned.record(shape, self.members.len(), i, took);
        }
        (Some(i), a)
    }

    /// Staged mode: the members started a stagger apart, all running on,
    /// in the order and within the caps learned for the query's shape;
    /// the members a learned cap stopped run again, with all that is
    /// left, when no one decided.
    fn staged(
        &mut self,
        query: &Query,
        budget: &Budget,
        share: f64,
        cap: Duration,
        learn: bool,
    ) -> (Option<usize>, Answer) {
        let n = self.members.len();
        // The shape only when learning (a walk over the query).
        let shape = learn.then(|| Shape::of(query));
        let (order, learned) = match shape {
            Some(shape) => self.learned.plan(shape, n),
            None => ((0..n).collect(), vec![None; n]),
        };
        let caps: Vec<Option<Slice>> = (0..n)
            .map(|i| match (self.race_caps[i], learned[i]) {
                (Some(c), Some(l)) => Some(Slice {
                    share: c.share,
                    cap: c.cap.min(l),
                }),
                (c, None) => c,
                (None, Some(l)) => Some(Slice { share: 1.0, cap: l }),
            })
            .collect();
        self.learned.capped += learned.iter().flatten().count() as u64;
        let stagger = budget.remaining().map_or(cap, |r| r.mul_f64(share).min(cap));
        let mut reasons = match race_detail(&self.members, &order, query, budget, &caps, Some(stagger)) {
            Raced::Won(i, a, took) => return self.won(shape, i, a, took),
            Raced::Unknown(rs) => rs,
            Raced::Expired => return (None, Ok(SolveResult::Unknown(Reason::Timeout))),
        };
        // The members a learned cap stopped, again without it.
        let again: Vec<usize> = reasons
            .iter()
            .filter(|(i, r)| learned[*i].is_some() && *r == Reason::Timeout)
            .map(|(i, _)| *i)
            .collect();
        if !again.is_empty() && budget.remaining().is_none_or(|r| r >= MIN_RETRY) {
            self.learned.second_rounds += 1;
            match race_detail(&self.members, &again, query, budget, &self.race_caps, None) {
                Raced::Won(i, a, took) => return self.won(shape, i, a, took),
                Raced::Unknown(rs) => {
                    reasons.retain(|(i, _)| !again.contains(i));
                    reasons.extend(rs);
                }
                Raced::Expired => return (None, Ok(SolveResult::Unknown(Reason::Timeout))),
            }
        }
        let reasons: Vec<(&str, Reason)> = reasons
            .into_iter()
            .map(|(i, r)| (self.members[i].name.as_str(), r))
            .collect();
        (None, Ok(SolveResult::Unknown(combined(&reasons, budget.expired()))))
    }
}

impl Solver for Portfolio {
    fn name(&self) -> String {
        let names: Vec<&str> = self.members.iter().map(|m| m.name.as_str()).collect();
        format!("portfolio({})", names.join(","))
    }

    fn check(&mut self, query: &Query, budget: &Budget) -> Result<SolveResult, SolverError> {
        let (winner, answer) = match self.mode {
            PortfolioMode::Parallel => {
                let all: Vec<usize> = (0..self.members.len()).collect();
                race(&self.members, &all, query, budget)
            }
            PortfolioMode::Sequential { share, cap } => self.sequential(query, budget, share, cap),
            PortfolioMode::Staged { share, cap, learn } => self.staged(query, budget, share, cap, learn),
        };
        match (&winner, &answer) {
            (Some(i), Ok(_)) => self.wins[*i] += 1,
            (None, Ok(SolveResult::Unknown(Reason::Timeout))) => self.timeouts += 1,
            _ => {}
        }
        answer
    }

    /// Every member's statistics, plus `portfolio.wins.NAME` (definite
    /// answers given by each member) and `portfolio.timeouts`.
    fn stats(&self) -> BTreeMap<String, f64> {
        let mut s = BTreeMap::new();
        for (m, w) in self.members.iter().zip(&self.wins) {
            s.extend(m.stats());
            s.insert(format!("portfolio.wins.{}", m.name), *w as f64);
        }
        s.insert("portfolio.timeouts".into(), self.timeouts as f64);
        s.insert("portfolio.learned_caps".into(), self.learned.capped as f64);
        s.insert("portfolio.second_rounds".into(), self.learned.second_rounds as f64);
        s
    }
}

/// One backend on its own thread: the answer comes by the deadline plus
/// [`OVERSTAY`] (as `unknown`, timeout, if the backend overstays), and a
/// raised cancellation flag is passed on.
pub struct Detached {
    member: [Member; 1],
}

impl Detached {
    /// Wraps `inner`, its threads counted in a fresh [`Workers`] (see
    /// [`Detached::workers`]).
    pub fn new(inner: Box<dyn Solver>) -> Detached {
        Detached::with_workers(inner, &Workers::new())
    }

    /// Wraps `inner`, its threads counted in `workers`.
    pub fn with_workers(inner: Box<dyn Solver>, workers: &Workers) -> Detached {
        Detached {
            member: [Member::new(inner, workers.clone())],
        }
    }

    /// The count its threads are kept in.
    pub fn workers(&self) -> Workers {
        self.member[0].workers.clone()
    }
}

impl Solver for Detached {
    fn name(&self) -> String {
        self.member[0].name.clone()
    }

    fn check(&mut self, query: &Query, budget: &Budget) -> Result<SolveResult, SolverError> {
        race(&self.member, &[0], query, budget).1
    }

    fn stats(&self) -> BTreeMap<String, f64> {
        self.member[0].stats()
    }
}
