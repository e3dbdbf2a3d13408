//! The decorators of the solver chain, each against a scripted backend that
//! records what reaches it: every test here fails if its decorator is taken
//! out of the chain (a cache that does not cache, an independence layer that
//! does not split, a deadline that is not honoured).

use fpsym_expr::{Float, Format, Model, Op, Sort, Term, Value};
use fpsym_solver::{
    build, Backend, Budget, Cached, CexReuse, Detached, Independent, Portfolio, PortfolioMode, Query, Reason,
    SolveResult, Solver, SolverConfig, SolverError, OVERSTAY,
};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn f32v(name: &str) -> Term {
    Term::var(name, Sort::Float(Format::BINARY32))
}
fn c(x: f32) -> Term {
    Term::fp(Float::from_f32(x))
}
fn lt(a: &Term, b: &Term) -> Term {
    Term::app(Op::FpLt, vec![a.clone(), b.clone()]).unwrap()
}

/// What reached a scripted backend.
#[derive(Default)]
struct Log {
    queries: Vec<Query>,
}

/// A backend that answers by brute force over a few candidate values per
/// variable (enough for the small queries here), slowly, and logs each query.
struct Scripted {
    log: Arc<Mutex<Log>>,
    delay: Duration,
    /// Ignore the budget while sleeping (a backend that overstays).
    stubborn: bool,
}

impl Scripted {
    fn new(log: &Arc<Mutex<Log>>) -> Scripted {
        Scripted {
            log: log.clone(),
            delay: Duration::from_millis(5),
            stubborn: false,
        }
    }
}

const CANDIDATES: [f32; 7] = [-2.0, -1.0, 0.0, 0.5, 1.0, 2.0, 3.0];

fn brute(query: &Query) -> SolveResult {
    let vars = query.vars();
    let n = vars.len() as u32;
    for i in 0..CANDIDATES.len().pow(n) {
        let mut m = Model::new();
        let mut k = i;
        for v in &vars {
            m.insert(v.clone(), Value::Fp(Float::from_f32(CANDIDATES[k % CANDIDATES.len()])));
            k /= CANDIDATES.len();
        }
        if query
            .assertions
            .iter()
            .all(|a| fpsym_expr::eval(a, &m) == Ok(Value::Bool(true)))
        {
            return SolveResult::Sat(m);
        }
    }
    SolveResult::Unsat
}

impl Solver for Scripted {
    fn name(&self) -> String {
        "scripted".into()
    }
    fn check(&mut self, query: &Query, budget: &Budget) -> Result<SolveResult, SolverError> {
        self.log.lock().unwrap().queries.push(query.clone());
        let end = Instant::now() + self.delay;
        while Instant::now() < end {
            if !self.stubborn && budget.expired() {
                return Ok(SolveResult::Unknown(Reason::Timeout));
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        Ok(brute(query))
    }
    fn stats(&self) -> BTreeMap<String, f64> {
        BTreeMap::from([("scripted.queries".into(), self.log.lock().unwrap().queries.len() as f64)])
    }
}

fn calls(log: &Arc<Mutex<Log>>) -> usize {
    log.lock().unwrap().queries.len()
}

fn unlimited() -> Budget {
    Budget::unlimited()
}

#[test]
fn cache_answers_a_repeated_query_without_the_backend() {
    let log = Arc::new(Mutex::new(Log::default()));
    let mut s = Cached::new(Box::new(Scripted::new(&log)), 100);
    let (x, y) = (f32v("x"), f32v("y"));
    let q = Query::new(vec![lt(&x, &c(1.0)), lt(&c(0.0), &x), lt(&x, &y)]);
    let first = s.check(&q, &unlimited()).unwrap();
    assert!(matches!(first, SolveResult::Sat(_)));
    // The same set of assertions in another order and with a duplicate.
    let q2 = Query::new(vec![lt(&x, &y), lt(&c(0.0), &x), lt(&x, &c(1.0)), lt(&x, &y)]);
    assert_eq!(s.check(&q2, &unlimited()).unwrap(), first, "same query, same model");
    let unsat = Query::new(vec![lt(&x, &c(0.0)), lt(&c(1.0), &x)]);
    assert_eq!(s.check(&unsat, &unlimited()).unwrap(), SolveResult::Unsat);
    assert_eq!(s.check(&unsat, &unlimited()).unwrap(), SolveResult::Unsat);
    assert_eq!(calls(&log), 2, "two distinct queries reach the backend");
    let st = s.stats();
    assert_eq!(st["cache.hits"], 2.0);
    assert_eq!(st["cache.misses"], 2.0);
}

#[test]
fn cache_does_not_keep_unknown() {
    let log = Arc::new(Mutex::new(Log::default()));
    let mut slow = Scripted::new(&log);
    slow.delay = Duration::from_millis(300);
    let mut s = Cached::new(Box::new(slow), 100);
    let x = f32v("x");
    let q = Query::new(vec![lt(&x, &c(1.0))]);
    let r = s.check(&q, &Budget::timeout(Duration::from_millis(20))).unwrap();
    assert_eq!(r, SolveResult::Unknown(Reason::Timeout));
    assert!(matches!(s.check(&q, &unlimited()).unwrap(), SolveResult::Sat(_)));
    assert_eq!(calls(&log), 2);
}

#[test]
fn counterexample_reuse_answers_from_related_queries() {
    let log = Arc::new(Mutex::new(Log::default()));
    let mut s = CexReuse::new(Box::new(Scripted::new(&log)), 64, 8);
    let (x, y) = (f32v("x"), f32v("y"));
    let a = lt(&c(0.0), &x);
    let b = lt(&x, &c(3.0));
    // 1. {a, b} sat: the backend is called.
    let m = match s.check(&Query::new(vec![a.clone(), b.clone()]), &unlimited()).unwrap() {
        SolveResult::Sat(m) => m,
        r => panic!("{r:?}"),
    };
    assert_eq!(calls(&log), 1);
    // 2. {a} ⊆ {a, b}: the superset's model answers.
    assert!(matches!(
        s.check(&Query::new(vec![a.clone()]), &unlimited()).unwrap(),
        SolveResult::Sat(_)
    ));
    // 3. {a, b, x < y+...}: a new constraint the old model happens to satisfy.
    let xv = match m.get(&x) {
        Some(Value::Fp(f)) => f.to_f32().unwrap(),
        v => panic!("{v:?}"),
    };
    let loose = lt(&x, &c(xv + 10.0));
    assert!(matches!(
        s.check(&Query::new(vec![a.clone(), b.clone(), loose]), &unlimited())
            .unwrap(),
        SolveResult::Sat(_)
    ));
    assert_eq!(calls(&log), 1, "answered by reusing the model");
    // 4. An unsat core, then a superset of it: unsat without the backend.
    let core = vec![lt(&x, &c(0.0)), lt(&c(1.0), &x)];
    assert_eq!(
        s.check(&Query::new(core.clone()), &unlimited()).unwrap(),
        SolveResult::Unsat
    );
    assert_eq!(calls(&log), 2);
    let mut bigger = core.clone();
    bigger.push(lt(&y, &c(2.0)));
    assert_eq!(s.check(&Query::new(bigger), &unlimited()).unwrap(), SolveResult::Unsat);
    assert_eq!(calls(&log), 2, "the unsat subset answers");
    // 5. A query no model satisfies and no subset refutes reaches the backend.
    assert!(matches!(
        s.check(&Query::new(vec![lt(&c(2.5), &y)]), &unlimited()).unwrap(),
        SolveResult::Sat(_)
    ));
    assert_eq!(calls(&log), 3);
    let st = s.stats();
    assert_eq!(st["cex.sat_superset"], 1.0);
    assert_eq!(st["cex.model_reused"], 1.0);
    assert_eq!(st["cex.unsat_subset"], 1.0);
    assert_eq!(st["cex.misses"], 3.0);
}

#[test]
fn independence_splits_and_merges() {
    let log = Arc::new(Mutex::new(Log::default()));
    let mut s = Independent::new(Box::new(Scripted::new(&log)));
    let (x, y, z, w) = (f32v("x"), f32v("y"), f32v("z"), f32v("w"));
    let q = Query::new(vec![
        lt(&x, &y),
        lt(&c(0.0), &z),
        lt(&y, &c(1.0)),
        lt(&z, &w),
        Term::bool(true),
    ]);
    let parts = s.partition(&q);
    assert_eq!(parts.len(), 3, "{{x,y}}, {{z,w}} and the ground assertion");
    let m = match s.check(&q, &unlimited()).unwrap() {
        SolveResult::Sat(m) => m,
        r => panic!("{r:?}"),
    };
    for v in [&x, &y, &z, &w] {
        assert!(m.get(v).is_some(), "{v:?} assigned");
    }
    // The last assertion's group first, then the others in their order.
    let sizes: Vec<usize> = log.lock().unwrap().queries.iter().map(|q| q.assertions.len()).collect();
    assert_eq!(sizes, vec![1, 2, 2]);
    // An unsat group makes the query unsat.
    let q = Query::new(vec![lt(&x, &c(0.0)), lt(&c(1.0), &x), lt(&z, &w)]);
    assert_eq!(s.check(&q, &unlimited()).unwrap(), SolveResult::Unsat);
    assert_eq!(s.stats()["independence.split"], 2.0);
}

#[test]
fn independence_with_cache_resolves_only_the_changed_group() {
    let log = Arc::new(Mutex::new(Log::default()));
    let cached = CexReuse::new(Box::new(Cached::new(Box::new(Scripted::new(&log)), 100)), 64, 0);
    let mut s = Independent::new(Box::new(cached));
    let (x, y) = (f32v("x"), f32v("y"));
    let mut path = vec![lt(&c(0.0), &x), lt(&c(0.0), &y)];
    s.check(&Query::new(path.clone()), &unlimited()).unwrap();
    assert_eq!(calls(&log), 2);
    // A new branch condition on y: only y's group reaches the backend.
    path.push(lt(&y, &c(2.0)));
    s.check(&Query::new(path.clone()), &unlimited()).unwrap();
    assert_eq!(calls(&log), 3);
    assert_eq!(log.lock().unwrap().queries[2].vars(), vec![y.clone()]);
}

#[test]
fn detached_backend_answers_by_the_deadline_even_when_it_overstays() {
    let log = Arc::new(Mutex::new(Log::default()));
    let mut stubborn = Scripted::new(&log);
    stubborn.delay = Duration::from_secs(3);
    stubborn.stubborn = true;
    let mut s = Detached::new(Box::new(stubborn));
    let q = Query::new(vec![lt(&f32v("x"), &c(1.0))]);
    let start = Instant::now();
    let r = s.check(&q, &Budget::timeout(Duration::from_millis(200))).unwrap();
    let took = start.elapsed();
    assert_eq!(r, SolveResult::Unknown(Reason::Timeout));
    assert!(
        took < Duration::from_millis(200) + OVERSTAY + Duration::from_millis(300),
        "took {took:?}"
    );
}

#[test]
fn portfolio_takes_the_first_definite_answer_and_cancels_the_rest() {
    let log_fast = Arc::new(Mutex::new(Log::default()));
    let log_slow = Arc::new(Mutex::new(Log::default()));
    let fast = Scripted::new(&log_fast);
    let mut slow = Scripted::new(&log_slow);
    slow.delay = Duration::from_secs(5);
    let mut p = Portfolio::new(vec![Box::new(slow), Box::new(fast)], PortfolioMode::Parallel);
    let q = Query::new(vec![lt(&f32v("x"), &c(1.0))]);
    let start = Instant::now();
    assert!(matches!(p.check(&q, &unlimited()).unwrap(), SolveResult::Sat(_)));
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "did not wait for the slow member"
    );
    // The slow member was cancelled: its thread is free again for the next
    // query well before its 5 s delay.
    let start = Instant::now();
    assert!(matches!(p.check(&q, &unlimited()).unwrap(), SolveResult::Sat(_)));
    assert!(start.elapsed() < Duration::from_secs(2));
    assert_eq!(p.stats()["portfolio.wins.scripted"], 2.0);
}

#[test]
fn sequential_portfolio_gives_the_first_member_a_slice() {
    let log_a = Arc::new(Mutex::new(Log::default()));
    let log_b = Arc::new(Mutex::new(Log::default()));
    let mut a = Scripted::new(&log_a);
    a.delay = Duration::from_secs(5);
    let b = Scripted::new(&log_b);
    let mode = PortfolioMode::Sequential {
        share: 0.2,
        cap: Duration::from_millis(300),
    };
    let mut p = Portfolio::new(vec![Box::new(a), Box::new(b)], mode);
    let q = Query::new(vec![lt(&f32v("x"), &c(1.0))]);
    let start = Instant::now();
    assert!(matches!(
        p.check(&q, &Budget::timeout(Duration::from_secs(10))).unwrap(),
        SolveResult::Sat(_)
    ));
    let took = start.elapsed();
    assert!(took < Duration::from_millis(1500), "first member capped: {took:?}");
    assert_eq!((calls(&log_a), calls(&log_b)), (1, 1));
}

/// A backend that gives up at once (like z3 on some fp.rem queries).
struct GivesUp;

impl Solver for GivesUp {
    fn name(&self) -> String {
        "gives-up".into()
    }
    fn check(&mut self, _query: &Query, _budget: &Budget) -> Result<SolveResult, SolverError> {
        Ok(SolveResult::Unknown(Reason::Backend("incomplete".into())))
    }
}

/// When the last member gives up early, the member cut off by its slice
/// gets the rest of the budget: the portfolio does not answer unknown while
/// time remains. (Before, this answered unknown after the first slice.)
#[test]
fn sequential_portfolio_hands_the_rest_of_the_budget_on_when_a_member_gives_up() {
    let log_a = Arc::new(Mutex::new(Log::default()));
    let mut a = Scripted::new(&log_a);
    a.delay = Duration::from_millis(800);
    let mode = PortfolioMode::Sequential {
        share: 0.2,
        cap: Duration::from_millis(200),
    };
    let mut p = Portfolio::new(vec![Box::new(a), Box::new(GivesUp)], mode);
    let q = Query::new(vec![lt(&f32v("x"), &c(1.0))]);
    let start = Instant::now();
    let r = p.check(&q, &Budget::timeout(Duration::from_secs(10))).unwrap();
    assert!(matches!(r, SolveResult::Sat(_)), "{r:?}");
    assert!(start.elapsed() < Duration::from_secs(5));
    // Cut at 200 ms, then again with the rest, where it answered.
    assert_eq!(calls(&log_a), 2);
    assert_eq!(p.stats()["portfolio.wins.scripted"], 1.0);

    // All give up and nothing was cut off: unknown at once, with the reason.
    let mut p = Portfolio::new(vec![Box::new(GivesUp), Box::new(GivesUp)], mode);
    let start = Instant::now();
    let r = p.check(&q, &Budget::timeout(Duration::from_secs(10))).unwrap();
    assert_eq!(r, SolveResult::Unknown(Reason::Backend("incomplete".into())));
    assert!(start.elapsed() < Duration::from_secs(1));

    // A member that always needs more than the budget: unknown (timeout)
    // only when the budget is spent.
    let log_b = Arc::new(Mutex::new(Log::default()));
    let mut b = Scripted::new(&log_b);
    b.delay = Duration::from_secs(60);
    let mut p = Portfolio::new(vec![Box::new(b), Box::new(GivesUp)], mode);
    let start = Instant::now();
    let r = p.check(&q, &Budget::timeout(Duration::from_millis(1500))).unwrap();
    assert_eq!(r, SolveResult::Unknown(Reason::Timeout));
    assert!(start.elapsed() >= Duration::from_millis(1400), "{:?}", start.elapsed());
}

/// Staged mode: an easy query is the first member's alone; a hard one that
/// the first member decides only after the others started is raced with
/// them (here the last never answers), neither starved nor restarted. (The sequential mode gave the last member all the time left, and
/// the first, cut at its 2 s slice, never came back: examples/c/heron.c's
/// path conditions, which cp decides in 3 s, timed out there.)
#[test]
fn staged_portfolio_lets_the_first_member_run_on_beside_the_others() {
    let mode = PortfolioMode::Staged {
        share: 0.05,
        cap: Duration::from_millis(100),
        learn: true,
    };
    let q = Query::new(vec![lt(&f32v("x"), &c(1.0))]);
    // Easy: the first member answers within its try; the others never run.
    let (log_a, log_b) = (
        Arc::new(Mutex::new(Log::default())),
        Arc::new(Mutex::new(Log::default())),
    );
    let mut p = Portfolio::new(
        vec![Box::new(Scripted::new(&log_a)), Box::new(Scripted::new(&log_b))],
        mode,
    );
    assert!(matches!(
        p.check(&q, &Budget::timeout(Duration::from_secs(10))).unwrap(),
        SolveResult::Sat(_)
    ));
    assert_eq!((calls(&log_a), calls(&log_b)), (1, 0));

    // Hard: the first needs 800 ms, the second gives up, the last never
    // answers in time.
    let (log_a, log_c) = (
        Arc::new(Mutex::new(Log::default())),
        Arc::new(Mutex::new(Log::default())),
    );
    let mut a = Scripted::new(&log_a);
    a.delay = Duration::from_millis(800);
    let mut last = Scripted::new(&log_c);
    last.delay = Duration::from_secs(60);
    let mut p = Portfolio::new(vec![Box::new(a), Box::new(GivesUp), Box::new(last)], mode);
    let start = Instant::now();
    let r = p.check(&q, &Budget::timeout(Duration::from_secs(10))).unwrap();
    assert!(matches!(r, SolveResult::Sat(_)), "{r:?}");
    let took = start.elapsed();
    assert!(took < Duration::from_secs(3), "the first member was starved: {took:?}");
    // Never restarted; the last member started too.
    assert_eq!((calls(&log_a), calls(&log_c)), (1, 1));

    // Nobody decides: unknown (timeout) at the deadline.
    let log = Arc::new(Mutex::new(Log::default()));
    let mut slow = Scripted::new(&log);
    slow.delay = Duration::from_secs(60);
    let mut slower = Scripted::new(&log);
    slower.delay = Duration::from_secs(60);
    let mut p = Portfolio::new(vec![Box::new(slow), Box::new(GivesUp), Box::new(slower)], mode);
    let start = Instant::now();
    let r = p.check(&q, &Budget::timeout(Duration::from_millis(800))).unwrap();
    assert_eq!(r, SolveResult::Unknown(Reason::Timeout));
    let took = start.elapsed();
    assert!(
        took >= Duration::from_millis(700) && took < Duration::from_secs(3),
        "{took:?}"
    );
}

/// A backend that declines every query at once (z3 on `fpsym.pow`, cvc5
/// on a format it refuses).
struct Declines(&'static str);

impl Solver for Declines {
    fn name(&self) -> String {
        self.0.into()
    }
    fn check(&mut self, _query: &Query, _budget: &Budget) -> Result<SolveResult, SolverError> {
        Ok(SolveResult::Unknown(Reason::Unsupported("fpsym.pow".into())))
    }
}

/// A member that cannot take the query neither ends the portfolio's run
/// nor becomes its answer: the others get its time, and a query nobody
/// decided in time is a timeout (worth more time), not "unsupported".
#[test]
fn a_member_declining_the_query_gives_its_time_to_the_others() {
    let q = Query::new(vec![lt(&f32v("x"), &c(1.0))]);
    let sequential = PortfolioMode::Sequential {
        share: 0.2,
        cap: Duration::from_millis(100),
    };
    let staged = PortfolioMode::Staged {
        share: 0.05,
        cap: Duration::from_millis(100),
        learn: true,
    };
    for mode in [sequential, staged, PortfolioMode::Parallel] {
        // Declining first, in the middle, or last: the member that can
        // answers (after 400 ms: past the sequential first slice).
        for at in 0..3 {
            let log = Arc::new(Mutex::new(Log::default()));
            let mut a = Scripted::new(&log);
            a.delay = Duration::from_millis(400);
            let mut members: Vec<Box<dyn Solver>> = vec![Box::new(Declines("z3")), Box::new(Declines("cvc5"))];
            members.insert(at, Box::new(a));
            let mut p = Portfolio::new(members, mode);
            let r = p.check(&q, &Budget::timeout(Duration::from_secs(10))).unwrap();
            assert!(matches!(r, SolveResult::Sat(_)), "{mode:?}, member at {at}: {r:?}");
            assert_eq!(p.stats()["portfolio.wins.scripted"], 1.0, "{mode:?}, member at {at}");
        }
        // The members that can take it (two, as cp and ls: their second
        // round halves what is left until too little remains) need more
        // than the budget: unknown by timeout, at the deadline, not the
        // decliner's "unsupported" (which dropped the branch before).
        let log = Arc::new(Mutex::new(Log::default()));
        let mut slow = Scripted::new(&log);
        slow.delay = Duration::from_secs(60);
        let mut slower = Scripted::new(&log);
        slower.delay = Duration::from_secs(60);
        let mut p = Portfolio::new(vec![Box::new(slow), Box::new(slower), Box::new(Declines("z3"))], mode);
        let start = Instant::now();
        let r = p.check(&q, &Budget::timeout(Duration::from_millis(800))).unwrap();
        assert_eq!(r, SolveResult::Unknown(Reason::Timeout), "{mode:?}");
        assert!(
            start.elapsed() >= Duration::from_millis(700),
            "{mode:?}: {:?}",
            start.elapsed()
        );
        // Nobody can take it: unsupported at once, naming each member's
        // reason.
        let mut p = Portfolio::new(vec![Box::new(Declines("z3")), Box::new(Declines("cvc5"))], mode);
        let start = Instant::now();
        let r = p.check(&q, &Budget::timeout(Duration::from_secs(10))).unwrap();
        assert_eq!(
            r,
            SolveResult::Unknown(Reason::Unsupported("z3: fpsym.pow; cvc5: fpsym.pow".into())),
            "{mode:?}"
        );
        assert!(start.elapsed() < Duration::from_secs(1));
        // A member that took it and gave up (incomplete) is the cause
        // rather than one that declined.
        let mut p = Portfolio::new(vec![Box::new(Declines("z3")), Box::new(GivesUp)], mode);
        let r = p.check(&q, &Budget::timeout(Duration::from_secs(10))).unwrap();
        assert_eq!(
            r,
            SolveResult::Unknown(Reason::Backend("incomplete".into())),
            "{mode:?}"
        );
    }
}

/// Factoring a 62-bit semiprime whose factors lie far from every bound a
/// search would try first: far beyond one second for every backend.
fn hard() -> Query {
    let bv = |w| Sort::BitVec(w);
    let (x, y) = (Term::var("p", bv(32)), Term::var("q", bv(32)));
    let wide = |v: &Term| Term::app(Op::BvZeroExtend(32), vec![v.clone()]).unwrap();
    let n: u128 = 1000000007 * 3735928579;
    let gt1 = |v: &Term| Term::app(Op::BvUgt, vec![v.clone(), Term::bv(32, 1)]).unwrap();
    Query::new(vec![
        Term::app(Op::BvMul, vec![wide(&x), wide(&y)])
            .unwrap()
            .eq(&Term::bv(64, n)),
        gt1(&x),
        gt1(&y),
        Term::app(Op::BvUlt, vec![x.clone(), y.clone()]).unwrap(),
    ])
}

#[test]
fn every_chain_honours_the_deadline() {
    let mut backends = vec!["cp", "portfolio", "process:z3 -in"];
    if cfg!(feature = "z3") {
        backends.insert(0, "z3");
    }
    for name in backends {
        let mut config = SolverConfig::default();
        config.backend = Backend::parse(name).unwrap();
        let mut s = build(&config);
        let start = Instant::now();
        let r = s.check(&hard(), &Budget::timeout(Duration::from_secs(1))).unwrap();
        let took = start.elapsed();
        eprintln!("{name}: {} after {took:?}", r.label());
        assert_eq!(r, SolveResult::Unknown(Reason::Timeout), "{name}");
        assert!(
            took < Duration::from_millis(1000) + OVERSTAY + Duration::from_millis(300),
            "{name}: {took:?}"
        );
    }
}

#[test]
fn a_cancelled_budget_stops_z3_and_cp() {
    let mut backends = vec!["cp"];
    if cfg!(feature = "z3") {
        backends.insert(0, "z3");
    }
    for name in backends {
        let mut s = build(&SolverConfig::bare(Backend::parse(name).unwrap()));
        let flag = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let b = Budget::unlimited().with_cancel(flag.clone());
        let raiser = {
            let flag = flag.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(300));
                flag.store(true, std::sync::atomic::Ordering::Relaxed);
            })
        };
        let start = Instant::now();
        let r = s.check(&hard(), &b).unwrap();
        let took = start.elapsed();
        raiser.join().unwrap();
        assert_eq!(r, SolveResult::Unknown(Reason::Timeout), "{name}");
        assert!(took < Duration::from_millis(1000), "{name}: {took:?}");
    }
}

/// A solver process starts at once while Z3 works in another thread of the
/// same process. libz3 registers a fork handler that takes its allocator
/// lock, so a fork() (which std's `Command` uses when given a `pre_exec`
/// hook) waited on the busy Z3: in a portfolio or the cross-check, every
/// process query ran into its deadline.
#[cfg(feature = "z3")]
#[test]
fn a_solver_process_starts_while_z3_works_in_another_thread() {
    let busy = std::thread::spawn(|| {
        let mut z3 = build(&SolverConfig::bare(Backend::Z3));
        z3.check(&hard(), &Budget::timeout(Duration::from_secs(6))).unwrap()
    });
    std::thread::sleep(Duration::from_millis(300));
    let x = Term::var("x", Sort::Float(Format::BINARY32));
    let q = Query::new(vec![
        Term::app(Op::FpGt, vec![x, Term::fp(Float::from_f32(1.0))]).unwrap()
    ]);
    let mut process = build(&SolverConfig::bare(Backend::parse("process:z3 -in").unwrap()));
    let start = Instant::now();
    for i in 0..10 {
        let r = process.check(&q, &Budget::timeout(Duration::from_secs(2))).unwrap();
        assert!(
            matches!(r, SolveResult::Sat(_)),
            "query {i}: {r:?} after {:?}",
            start.elapsed()
        );
    }
    assert!(start.elapsed() < Duration::from_secs(4), "{:?}", start.elapsed());
    busy.join().unwrap();
}

/// A backend that answers `sat` with the model `x = 1` after the budget
/// ran out (one that overstays its deadline).
struct LateSat;

impl Solver for LateSat {
    fn name(&self) -> String {
        "late".into()
    }
    fn check(&mut self, _query: &Query, budget: &Budget) -> Result<SolveResult, SolverError> {
        while !budget.expired() {
            std::thread::sleep(Duration::from_millis(1));
        }
        let mut m = Model::new();
        m.insert(f32v("x"), Value::Fp(Float::from_f32(1.0)));
        Ok(SolveResult::Sat(m))
    }
    fn stats(&self) -> BTreeMap<String, f64> {
        BTreeMap::new()
    }
}

/// `s = s * 0.5 + x` 100,000 times from 0, below 3: an assertion of
/// 200,000 nodes (a long loop's value), true for x in [-1, 1].
fn deep_assertion() -> Term {
    let rm = Term::rm(fpsym_expr::RoundingMode::NearestTiesToEven);
    let x = f32v("x");
    let s = (0..100_000).fold(c(0.0), |s, _| {
        let half = Term::mk(Op::FpMul, vec![rm.clone(), s, c(0.5)]);
        Term::mk(Op::FpAdd, vec![rm.clone(), half, x.clone()])
    });
    lt(&s, &c(3.0))
}

#[test]
fn a_model_of_a_huge_query_past_the_budget_is_not_checked() {
    // Validation evaluates the query under the model (here x = 1, which
    // satisfies it): past the budget it gives up after a few thousand
    // nodes, answering a timeout, rather than evaluating the whole query
    // after the deadline.
    let q = Query::new(vec![deep_assertion()]);
    let mut s = fpsym_solver::Validated::new(Box::new(LateSat));
    let r = s.check(&q, &Budget::timeout(Duration::from_millis(20))).unwrap();
    assert_eq!(r, SolveResult::Unknown(Reason::Timeout));
    // The model does satisfy it: only the budget made the answer unknown.
    let mut m = Model::new();
    m.insert(f32v("x"), Value::Fp(Float::from_f32(1.0)));
    assert_eq!(fpsym_expr::eval(&q.assertions[0], &m), Ok(Value::Bool(true)));
}

#[test]
fn counterexample_reuse_does_not_evaluate_past_the_budget() {
    // A model remembered from a small query (x = -2, which satisfies the
    // huge one too) would be tried on the huge one: past the budget it is
    // not, and the backend is asked (and answers a timeout at once).
    let log = Arc::new(Mutex::new(Log::default()));
    let mut s = CexReuse::new(Box::new(Scripted::new(&log)), 16, 4);
    let x = f32v("x");
    assert!(matches!(
        s.check(&Query::new(vec![lt(&x, &c(1.0))]), &unlimited()).unwrap(),
        SolveResult::Sat(_)
    ));
    let deep = Query::new(vec![deep_assertion()]);
    let r = s.check(&deep, &Budget::timeout(Duration::ZERO)).unwrap();
    assert_eq!(r, SolveResult::Unknown(Reason::Timeout));
    assert_eq!(calls(&log), 2, "the backend is asked, no model is tried");
    // Within a budget the remembered model answers it.
    assert!(matches!(s.check(&deep, &unlimited()).unwrap(), SolveResult::Sat(_)));
    assert_eq!(calls(&log), 2);
}

/// A backend whose time and whether it decides depend on the query:
/// `script(query, answer)` gives the delay and whether it then answers
/// (`brute`'s answer) or gives up; each call's running time is logged.
struct ByQuery {
    name: &'static str,
    script: fn(&Query, &SolveResult) -> (Duration, bool),
    ran: Arc<Mutex<Vec<Duration>>>,
}

impl Solver for ByQuery {
    fn name(&self) -> String {
        self.name.into()
    }
    fn check(&mut self, query: &Query, budget: &Budget) -> Result<SolveResult, SolverError> {
        let start = Instant::now();
        let answer = brute(query);
        let (delay, decides) = (self.script)(query, &answer);
        let r = loop {
            if start.elapsed() >= delay {
                break if decides {
                    answer
                } else {
                    SolveResult::Unknown(Reason::Incomplete("gives up".into()))
                };
            }
            if budget.expired() {
                break SolveResult::Unknown(Reason::Timeout);
            }
            std::thread::sleep(Duration::from_millis(1));
        };
        self.ran.lock().unwrap().push(start.elapsed());
        Ok(r)
    }
}

/// Staged mode learns per query shape (all queries here share one: a
/// float variable under comparisons). A member that decided such queries
/// only quickly (here: the satisfiable ones, in 5 ms, as cp and ls do) no
/// longer holds a core for long once another member has needed a second
/// for one (as z3 on an overflow-freedom proof); and when the member that
/// needs long gives up, the capped one runs again with the time left, so
/// the cap never costs an answer.
#[test]
fn staged_portfolio_caps_a_member_that_only_decides_quickly_on_a_shape() {
    let mode = PortfolioMode::Staged {
        share: 0.05,
        cap: Duration::from_millis(100),
        learn: true,
    };
    let x = f32v("x");
    let sat = Query::new(vec![lt(&x, &c(1.0))]);
    let unsat = Query::new(vec![lt(&x, &c(1.0)), lt(&c(2.0), &x)]);
    // Satisfiable, three assertions: the quick member needs 600 ms, the
    // deep one gives up.
    let late = Query::new(vec![lt(&x, &c(1.0)), lt(&c(-5.0), &x), lt(&c(-6.0), &x)]);
    let quick_ran = Arc::new(Mutex::new(Vec::new()));
    let quick = ByQuery {
        name: "quick",
        script: |q, a| match a {
            SolveResult::Sat(_) if q.assertions.len() == 3 => (Duration::from_millis(600), true),
            SolveResult::Sat(_) => (Duration::from_millis(5), true),
            _ => (Duration::from_secs(60), false),
        },
        ran: quick_ran.clone(),
    };
    let deep = ByQuery {
        name: "deep",
        script: |q, _| match q.assertions.len() {
            3 => (Duration::ZERO, false),
            _ => (Duration::from_millis(1000), true),
        },
        ran: Arc::new(Mutex::new(Vec::new())),
    };
    let mut p = Portfolio::new(vec![Box::new(quick), Box::new(deep)], mode);
    let budget = || Budget::timeout(Duration::from_secs(20));
    // Learning: quick decides the sat queries, deep the unsat one; quick
    // runs until deep decides.
    assert!(matches!(p.check(&sat, &budget()).unwrap(), SolveResult::Sat(_)));
    assert_eq!(p.check(&unsat, &budget()).unwrap(), SolveResult::Unsat);
    assert!(matches!(p.check(&sat, &budget()).unwrap(), SolveResult::Sat(_)));
    // A cancelled member logs after the portfolio has answered.
    let ran = |k: usize| {
        let end = Instant::now() + Duration::from_secs(5);
        while quick_ran.lock().unwrap().len() <= k && Instant::now() < end {
            std::thread::sleep(Duration::from_millis(5));
        }
        quick_ran.lock().unwrap()[k]
    };
    let before = ran(1);
    assert!(
        before >= Duration::from_millis(800),
        "quick ran {before:?} on the first unsat query"
    );
    // Learned: on the next unsat query quick stops at the floor (250 ms).
    assert_eq!(p.check(&unsat, &budget()).unwrap(), SolveResult::Unsat);
    let capped = ran(3);
    assert!(capped < Duration::from_millis(700), "quick ran {capped:?}: not capped");
    assert!(p.stats()["portfolio.learned_caps"] >= 1.0, "{:?}", p.stats());
    // Deep gives up and quick needs more than its cap: quick again, with
    // the time left.
    assert!(matches!(p.check(&late, &budget()).unwrap(), SolveResult::Sat(_)));
    assert_eq!(p.stats()["portfolio.second_rounds"], 1.0, "{:?}", p.stats());
}

/// An answer found elsewhere (a retry's solver) and learned by the chain
/// answers the queries that contain it without the backend: the exact
/// query (`Cached`), a group of a larger query split by `Independent`
/// (its part of the model), a superset of a learned unsat query
/// (`CexReuse`). An unsat answer to a query of several groups is not
/// learned (which group is unsat is not known).
#[test]
fn an_answer_learned_from_elsewhere_answers_later_queries() {
    let log = Arc::new(Mutex::new(Log::default()));
    let mut s = Independent::new(Box::new(CexReuse::new(
        Box::new(Cached::new(Box::new(Scripted::new(&log)), 100)),
        64,
        0,
    )));
    let (x, y, z) = (f32v("x"), f32v("y"), f32v("z"));
    let hard = Query::new(vec![lt(&c(0.0), &x), lt(&c(0.0), &y)]);
    let mut m = Model::new();
    m.insert(x.clone(), Value::Fp(Float::from_f32(1.0)));
    m.insert(y.clone(), Value::Fp(Float::from_f32(2.0)));
    m.insert(z.clone(), Value::Fp(Float::from_f32(7.0)));
    s.learn(&hard, &SolveResult::Sat(m));
    // The same query, and each of its groups inside a larger query whose
    // other group the backend decides alone.
    assert!(matches!(s.check(&hard, &unlimited()).unwrap(), SolveResult::Sat(_)));
    assert_eq!(calls(&log), 0);
    let more = Query::new(vec![lt(&c(0.0), &x), lt(&c(0.0), &y), lt(&z, &c(0.0))]);
    match s.check(&more, &unlimited()).unwrap() {
        SolveResult::Sat(m) => assert_eq!(m.get(&x), Some(Value::Fp(Float::from_f32(1.0)))),
        r => panic!("{r:?}"),
    }
    let reached = log.lock().unwrap().queries.clone();
    assert_eq!(
        reached.len(),
        1,
        "only the other group reaches the backend: {reached:?}"
    );
    assert!(reached.iter().all(|q| q.vars() == vec![z.clone()]), "{reached:?}");
    // An unsat answer of one group: its supersets are unsat.
    let never = Query::new(vec![lt(&x, &c(0.0)), lt(&c(0.0), &x)]);
    s.learn(&never, &SolveResult::Unsat);
    let bigger = Query::new(vec![lt(&x, &c(0.0)), lt(&c(0.0), &x), lt(&x, &c(5.0))]);
    assert_eq!(s.check(&bigger, &unlimited()).unwrap(), SolveResult::Unsat);
    assert_eq!(calls(&log), 1);
    // Unsat over two groups: not learned, the backend is asked.
    let two = Query::new(vec![lt(&y, &c(-5.0)), lt(&c(5.0), &z)]);
    s.learn(&two, &SolveResult::Unsat);
    assert!(matches!(
        s.check(&two, &unlimited()).unwrap(),
        SolveResult::Sat(_) | SolveResult::Unsat
    ));
    assert!(calls(&log) > 1);
}

/// The group of the query's last assertion (a path's new branch
/// condition) is asked first: unsat at once, it decides the query, even
/// when a group of the path before it would use up the budget.
#[test]
fn independence_asks_the_last_assertions_group_first() {
    let ran = Arc::new(Mutex::new(Vec::new()));
    // Any query on x runs past every budget here; the others take 1 ms.
    let slow_on_x = |q: &Query, _: &SolveResult| {
        let on_x = q.vars().iter().any(|v| format!("{v:?}").contains('x'));
        (Duration::from_secs(if on_x { 3600 } else { 0 }), true)
    };
    let backend = ByQuery {
        name: "slow-on-x",
        script: slow_on_x,
        ran: ran.clone(),
    };
    let mut s = Independent::new(Box::new(backend));
    let (x, y) = (f32v("x"), f32v("y"));
    // x's group comes first in the path; the branch condition 1 < y
    // contradicts y < 0.
    let q = Query::new(vec![lt(&c(0.0), &x), lt(&y, &c(0.0)), lt(&c(1.0), &y)]);
    let started = Instant::now();
    let budget = Budget::unlimited().at_most(Duration::from_millis(300));
    assert_eq!(s.check(&q, &budget).unwrap(), SolveResult::Unsat);
    assert_eq!(ran.lock().unwrap().len(), 1, "x's group never reached the backend");
    assert!(
        started.elapsed() < Duration::from_millis(250),
        "{:?}",
        started.elapsed()
    );
}
