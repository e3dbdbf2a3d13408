//! Which state runs next.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::{HashMap, VecDeque};

/// Chooses the next state to run. Why this shape (KLEE's): the engine owns
/// the states; a searcher sees only ids and what changed, so policies can
/// be combined (interleaving) without sharing state storage.
pub trait Searcher {
    /// The state to run next (None when there is none).
    fn select(&mut self) -> Option<u64>;
    /// States added (new forks) and removed (ended), with a priority hint
    /// for each added state (higher: closer to uncovered code).
    fn update(&mut self, added: &[(u64, i64)], removed: &[u64]);
    /// No state left.
    fn is_empty(&self) -> bool;
}

/// Search policies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Depth-first: the newest state.
    Dfs,
    /// Breadth-first: the oldest state.
    Bfs,
    /// Uniformly random among states (KLEE's random-path approximated by
    /// random state choice).
    RandomPath,
    /// Highest priority first (states whose next block is uncovered).
    CoverageNew,
    /// States following a seed ([`crate::InputOptions::seeds`]) first, then
    /// depth-first (the newest state among equals).
    Seeded,
}

impl std::str::FromStr for Policy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "dfs" => Policy::Dfs,
            "bfs" => Policy::Bfs,
            "random-path" => Policy::RandomPath,
            "coverage-new" => Policy::CoverageNew,
            "seeded" => Policy::Seeded,
            _ => {
                return Err(format!(
                    "unknown search policy `{s}` (expected dfs, bfs, random-path, coverage-new or seeded)"
                ))
            }
        })
    }
}

/// One policy over a set of state ids.
pub struct Simple {
    policy: Policy,
    order: VecDeque<u64>,
    prio: HashMap<u64, i64>,
    rng: StdRng,
}

impl Simple {
    /// A searcher following `policy` (random choices from `seed`).
    pub fn new(policy: Policy, seed: u64) -> Simple {
        Simple {
            policy,
            order: VecDeque::new(),
            prio: HashMap::new(),
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

impl Searcher for Simple {
    fn select(&mut self) -> Option<u64> {
        match self.policy {
            Policy::Dfs => self.order.back().copied(),
            Policy::Bfs => self.order.front().copied(),
            Policy::RandomPath => {
                if self.order.is_empty() {
                    None
                } else {
                    let k = self.rng.gen_range(0..self.order.len());
                    self.order.get(k).copied()
                }
            }
            Policy::CoverageNew => {
                let best = self
                    .order
                    .iter()
                    .rev()
                    .max_by_key(|id| self.prio.get(id).copied().unwrap_or(0));
                best.copied()
            }
            Policy::Seeded => self
                .order
                .iter()
                .max_by_key(|id| self.prio.get(id).copied().unwrap_or(0))
                .copied(),
        }
    }
    fn update(&mut self, added: &[(u64, i64)], removed: &[u64]) {
        if !removed.is_empty() {
            self.order.retain(|id| !removed.contains(id));
            for r in removed {
                self.prio.remove(r);
            }
        }
        for (id, p) in added {
            self.order.push_back(*id);
            self.prio.insert(*id, *p);
        }
    }
    fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

/// Two searchers taking turns.
pub struct Interleaved {
    parts: [Box<dyn Searcher>; 2],
    turn: usize,
}

impl Interleaved {
    /// Alternates between `a` and `b`.
    pub fn new(a: Box<dyn Searcher>, b: Box<dyn Searcher>) -> Interleaved {
        Interleaved { parts: [a, b], turn: 0 }
    }
}

impl Searcher for Interleaved {
    fn select(&mut self) -> Option<u64> {
        self.turn ^= 1;
        self.parts[self.turn]
            .select()
            .or_else(|| self.parts[self.turn ^ 1].select())
    }
    fn update(&mut self, added: &[(u64, i64)], removed: &[u64]) {
        for p in &mut self.parts {
            p.update(added, removed);
        }
    }
    fn is_empty(&self) -> bool {
        self.parts[0].is_empty()
    }
}

/// Which searcher a run uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Search {
    /// One policy.
    One(Policy),
    /// Policies taking turns, one selection each (KLEE's interleaved
    /// searchers).
    Interleaved(Vec<Policy>),
}

impl Search {
    /// The searcher (random choices from `seed`).
    pub fn build(&self, seed: u64) -> Box<dyn Searcher> {
        fn chain(ps: &[Policy], seed: u64) -> Box<dyn Searcher> {
            match ps {
                [] => Box::new(Simple::new(Policy::Dfs, seed)),
                [p] => Box::new(Simple::new(*p, seed)),
                [p, rest @ ..] => Box::new(Interleaved::new(
                    Box::new(Simple::new(*p, seed)),
                    chain(rest, seed ^ 0x9e37),
                )),
            }
        }
        match self {
            Search::One(p) => chain(std::slice::from_ref(p), seed),
            Search::Interleaved(ps) => chain(ps, seed),
        }
    }
}
