//! The propagation engine: a queue of propagators run to a fixpoint (2B, or
//! hull consistency on floats), with the relative ε rule of seed 000 V-B.

use crate::cp::compile::{Csp, VarId};
use crate::cp::domain::Domain;
use crate::cp::prop::{self, Ctx};
use crate::cp::{CpConfig, Stats};
use crate::Budget;
use std::collections::VecDeque;

/// Why propagation stopped short of a fixpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// A domain became empty: no solution below this node.
    Fail,
    /// The deadline passed.
    Timeout,
}

/// Runs propagators over a network.
pub(crate) struct Engine<'a> {
    pub csp: &'a Csp,
    pub config: &'a CpConfig,
    pub budget: Budget,
    pub stats: &'a mut Stats,
    queue: VecDeque<u32>,
    queued: Vec<bool>,
    /// Debugging: the value of every variable in a known solution; a
    /// propagator that removes it while it was inside every domain panics.
    pub witness: Option<Vec<fpsym_expr::Value>>,
}

impl<'a> Engine<'a> {
    pub(crate) fn new(csp: &'a Csp, config: &'a CpConfig, budget: Budget, stats: &'a mut Stats) -> Self {
        let n = csp.props.len();
        Engine {
            csp,
            config,
            budget,
            stats,
            queue: VecDeque::new(),
            queued: vec![false; n],
            witness: None,
        }
    }

    /// True once the deadline has passed or the budget was cancelled.
    pub(crate) fn expired(&self) -> bool {
        self.budget.expired()
    }

    fn push(&mut self, p: u32) {
        if !self.queued[p as usize] {
            self.queued[p as usize] = true;
            self.queue.push_back(p);
        }
    }

    fn clear(&mut self) {
        for p in self.queue.drain(..) {
            self.queued[p as usize] = false;
        }
    }

    /// Propagates every constraint to a fixpoint.
    pub(crate) fn propagate_all(&mut self, doms: &mut [Domain]) -> Result<(), Stop> {
        for p in 0..self.csp.props.len() as u32 {
            self.push(p);
        }
        self.run(doms)
    }

    /// Propagates after the domain of `v` changed.
    pub(crate) fn propagate_from(&mut self, doms: &mut [Domain], v: VarId) -> Result<(), Stop> {
        for i in 0..self.csp.watch[v as usize].len() {
            let p = self.csp.watch[v as usize][i];
            self.push(p);
        }
        self.run(doms)
    }

    fn run(&mut self, doms: &mut [Domain]) -> Result<(), Stop> {
        let r = self.run_inner(doms);
        if r.is_err() {
            self.clear();
        }
        r
    }

    /// The global order check over comparison and arithmetic order edges:
    /// fails on a contradiction, else applies its narrowings (queueing their watchers).
    fn order_check(&mut self, doms: &mut [Domain]) -> Result<(), Stop> {
        self.stats.order_checks += 1;
        let changed = crate::cp::order::check(self.csp, &self.csp.order_props, doms).ok_or(Stop::Fail)?;
        for (v, d) in changed {
            self.update(doms, v, &d, self.config.eps_indirect)?;
        }
        Ok(())
    }

    fn run_inner(&mut self, doms: &mut [Domain]) -> Result<(), Stop> {
        let csp = self.csp;
        let mut args: Vec<Domain> = Vec::with_capacity(4);
        let mut since_check = usize::MAX;
        loop {
            // the order check runs first, at every fixpoint, and every 1024
            // propagations (slow convergence may never reach a fixpoint)
            if since_check >= 1024 && !csp.order_props.is_empty() && !self.queue.is_empty() {
                since_check = 0;
                self.order_check(doms)?;
            }
            since_check = since_check.saturating_add(1);
            let Some(p) = self.queue.pop_front() else {
                // fixpoint: run the global order check, continue if it narrowed
                if csp.order_props.is_empty() {
                    return Ok(());
                }
                self.order_check(doms)?;
                if self.queue.is_empty() {
                    return Ok(());
                }
                continue;
            };
            self.queued[p as usize] = false;
            self.stats.propagations += 1;
            if self.stats.propagations.is_multiple_of(64) && self.expired() {
                return Err(Stop::Timeout);
            }
            let prop = &csp.props[p as usize];
            args.clear();
            args.extend(prop.args.iter().map(|&v| doms[v as usize]));
            let mut res = doms[prop.res as usize];
            let mut ctx = Ctx {
                config: self.config,
                stats: self.stats,
                tie: prop.tie,
            };
            let before: Option<(Vec<Domain>, Domain)> = self.witness.as_ref().map(|_| (args.clone(), res));
            let failed = prop::run(&prop.op, &mut args, &mut res, &mut ctx).is_err();
            if let (Some(w), Some((a0, r0))) = (&self.witness, before) {
                let vars: Vec<VarId> = prop.args.iter().copied().chain(std::iter::once(prop.res)).collect();
                let inside = vars.iter().all(|&v| doms[v as usize].contains(&w[v as usize]));
                let kept = !failed
                    && prop
                        .args
                        .iter()
                        .enumerate()
                        .all(|(i, &v)| args[i].contains(&w[v as usize]))
                    && res.contains(&w[prop.res as usize]);
                if inside && !kept {
                    let wv: Vec<_> = vars.iter().map(|&v| w[v as usize]).collect();
                    panic!(
                        "witness lost by {:?} (tie {}): operands {:?} -> {:?}, result {:?} -> {:?} (failed {failed}); witness {:?}",
                        prop.op, prop.tie, a0, args, r0, res, wv
                    );
                }
            }
            if failed {
                return Err(Stop::Fail);
            }
            for (i, &v) in prop.args.iter().enumerate() {
                self.update(doms, v, &args[i], self.config.eps_indirect)?;
            }
            self.update(doms, prop.res, &res, self.config.eps_direct)?;
        }
    }

    /// One round of bound tightening by the linear relaxation, then
    /// propagation to a fixpoint: whether a domain changed.
    pub(crate) fn linear_round(&mut self, doms: &mut [Domain]) -> Result<bool, Stop> {
        self.stats.linear_rounds += 1;
        let t0 = std::time::Instant::now();
        let tightened = crate::cp::linear::tighten(self.csp, doms, &self.budget);
        self.stats.linear_time += t0.elapsed().as_secs_f64();
        let narrowed = match tightened {
            crate::cp::linear::Tightened::Infeasible => return Err(Stop::Fail),
            crate::cp::linear::Tightened::Narrowed(n) => n,
        };
        if self.expired() {
            return Err(Stop::Timeout);
        }
        let mut changed = false;
        for (v, d) in narrowed {
            let before = doms[v as usize];
            self.update(doms, v, &d, 0.0)?;
            if doms[v as usize] != before {
                self.stats.linear_narrowed += 1;
                changed = true;
            }
        }
        self.run(doms)?;
        Ok(changed)
    }

    /// Narrows `doms[v]` to `new`, unless the relative ε rule withdraws it.
    fn update(&mut self, doms: &mut [Domain], v: VarId, new: &Domain, eps: f64) -> Result<(), Stop> {
        let old = doms[v as usize];
        let mut n = old.intersect(new);
        if n.is_empty() {
            return Err(Stop::Fail);
        }
        if n == old {
            return Ok(());
        }
        if let (Domain::Fp(o), Domain::Fp(x)) = (&old, &n) {
            if eps > 0.0 && x.bounds() != o.bounds() && x.bounds().is_some() {
                let (before, after) = (o.count_non_nan() as f64, x.count_non_nan() as f64);
                // applied only if it removes more than ε of the floats (seed 000 V-B)
                if (before - after) / before <= eps {
                    // withdraw the narrowing of the bounds; keep a NaN removal
                    n = Domain::Fp(o.with_nan(x.may_be_nan()));
                    self.stats.eps_withdrawn += 1;
                    if n == old {
                        return Ok(());
                    }
                }
            }
        }
        doms[v as usize] = n;
        for i in 0..self.csp.watch[v as usize].len() {
            let p = self.csp.watch[v as usize][i];
            self.push(p);
        }
        Ok(())
    }
}
