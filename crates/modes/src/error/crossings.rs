//! The random phase run natively: random inputs in batches, then the
//! crossings (inputs bisected to where a result's computed sign changes)
//! and the walks along them; and the objects the function never reads.

use super::*;

/// A lane of [`Search::native_crossings`]: an input, which of its floats
/// is bisected between `a` and `b`, which selected result's sign is
/// followed.
pub(super) struct Lane {
    /// A native record ([`native::Native::encode`]).
    pub(super) input: Vec<u8>,
    pub(super) scalar: usize,
    pub(super) result: usize,
    pub(super) a: Float,
    pub(super) b: Float,
}

impl Search<'_> {
    /// [`Search::random_phase`] natively: `native_budget` random inputs
    /// (fewer if `until` comes first), ranked by the metric against the
    /// wide build; the worst [`ELITE`] are measured on the engine (the
    /// best input and the refinement's starting points).
    pub(super) fn native_random_phase(&mut self, until: Instant, crossings: bool) -> anyhow::Result<()> {
        const BATCH: u64 = 8192;
        if crossings {
            // The evolution leaves output arrays alone.
            self.unread = self.outputs_only();
        }
        let mut native = self.native.take().expect("a native build");
        native.set_deadline(until);
        let elem_sizes: BTreeMap<String, u64> =
            self.scalars.iter().map(|s| (s.object.clone(), s.kind.size())).collect();
        let elem = |o: &str| elem_sizes.get(o).copied().unwrap_or(8);
        let mut elite: Worst = Vec::new();
        let mut failed = None;
        let at = native.scalar_offsets(&self.scalars);
        let size = native.record_size();
        let mut records = Vec::new();
        while self.native_inputs < self.native_budget && Instant::now() < until && !self.out_of_time() {
            let n = BATCH.min(self.native_budget - self.native_inputs);
            records.clear();
            for _ in 0..n {
                self.random_record(&at, &mut records);
            }
            let errors = match native.errors(&records, &self.output, self.metric, &elem) {
                Ok(e) => e,
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            };
            self.native_inputs += n;
            for (k, e) in errors.into_iter().enumerate() {
                if e != f64::NEG_INFINITY && (elite.len() < ELITE || e > elite[ELITE - 1].0) {
                    keep_worst(&mut elite, e, native.decode(&records[k * size..(k + 1) * size]));
                }
            }
        }
        // Crossings: from random inputs, one float input bisected (all
        // lanes at once) to where a result's computed sign changes, where
        // its condition number is unbounded; then the evolution, from the
        // worst inputs so far. Once in a reproducible run; again and again
        // until `until` in one cut by time.
        while failed.is_none() && crossings {
            let steps = self.native_steps;
            // A lane per thousand runs of the phase.
            let results = native.selected(&self.output, &elem).len();
            let lanes = (self.native_share(CROSSING_SHARE, results) / 1024).clamp(1, 4096) as usize;
            let found = self
                .native_crossings(&mut native, lanes, until, &elem)
                .and_then(|found| {
                    for (e, i) in found {
                        keep_worst(&mut elite, e, i);
                    }
                    self.native_evolution(&mut native, &elite, until, &elem)
                });
            match found {
                Ok(found) => {
                    for (e, i) in found {
                        keep_worst(&mut elite, e, i);
                    }
                }
                Err(e) => failed = Some(e),
            }
            // (No float input to move: nothing ran, nothing will.)
            if self.fixed.is_some() || self.native_steps == steps || Instant::now() >= until || self.out_of_time() {
                break;
            }
        }
        native.set_deadline(self.deadline);
        self.native = Some(native);
        if let Some(e) = failed {
            eprintln!("fpsym: note: the native random phase stopped ({e}); going on with the symbolic executor");
            self.native = None;
        }
        self.random_inputs += self.native_inputs;
        // The worst ones measured exactly (the engine's shadow values); the
        // worst one also when the time is up, so that what the phase found
        // is reported.
        for (n, (_, i)) in elite.into_iter().enumerate() {
            if n > 0 && self.out_of_time() {
                break;
            }
            let e = max_error(&self.measure(i.clone())?);
            keep_worst(&mut self.elite, e, i);
        }
        Ok(())
    }

    /// `lanes` bisections at once, natively: each lane a random input, one
    /// of its float inputs (at random) and one selected result; where the
    /// result's computed sign differs at the input's bounds, the input is
    /// bisected down to adjacent floats (a crossing: where the result's
    /// condition number is unbounded). Then walks: each crossing's input
    /// with another float input moved a few ulps, and the crossing found
    /// again near the last one (each walk is a fresh chance of an exact
    /// result far below the rounding error). Returns the worst inputs
    /// with their errors by the metric (against the wide build).
    pub(super) fn native_crossings(
        &mut self,
        native: &mut native::Native,
        lanes: usize,
        until: Instant,
        elem: &dyn Fn(&str) -> u64,
    ) -> Result<Worst, String> {
        /// Half the width in ulps of a walk's bracket. A walk moves an
        /// input up to 1024 ulps: the crossing moves by about as many ulps
        /// times the ratio of the two inputs' partial derivatives, and the
        /// distance from the exact zero to the nearest float changes
        /// (moves of a few ulps keep it nearly the same).
        const WIDTH: i128 = 1 << 14;
        // The walks' evaluations are counted against the same budget as
        // the random inputs'.
        let floats: Vec<usize> = (0..self.scalars.len())
            .filter(|k| matches!(self.scalars[*k].kind, ScalarKind::Float(_)))
            .collect();
        let results = native.selected(&self.output, elem);
        let budget = self.native_steps + self.native_share(CROSSING_SHARE, results.len());
        if floats.is_empty() || results.is_empty() {
            return Ok(Vec::new());
        }
        let at = native.scalar_offsets(&self.scalars);
        // New lanes: a random input, a float input bisected over its range.
        let fresh = |s: &mut Self, n: usize, into: &mut Vec<Lane>| {
            for _ in 0..n {
                let mut input = Vec::new();
                s.random_record(&at, &mut input);
                let scalar = floats[s.rng.gen_range(0..floats.len())];
                let result = s.rng.gen_range(0..results.len());
                let (lo, hi) = s.bounds(scalar);
                into.push(Lane {
                    input,
                    scalar,
                    result,
                    a: lo,
                    b: hi,
                });
            }
        };
        let mut lanes_v = Vec::with_capacity(lanes);
        fresh(self, lanes, &mut lanes_v);
        let mut worst: Worst = Vec::new();
        let mut crossings = self.bisect(native, lanes_v, &results, &at, until)?;
        loop {
            // Both sides of each crossing, with their errors.
            let mut records = Vec::with_capacity(2 * crossings.len() * native.record_size());
            for l in &crossings {
                for v in [l.a, l.b] {
                    let from = records.len();
                    records.extend_from_slice(&l.input);
                    put_record(&mut records[from..], at[l.scalar], v);
                }
            }
            let errors = native.errors(&records, &self.output, self.metric, elem)?;
            self.native_steps += errors.len() as u64;
            let size = native.record_size();
            for (k, e) in errors.into_iter().enumerate() {
                if e != f64::NEG_INFINITY && (worst.len() < ELITE || e > worst[ELITE - 1].0) {
                    keep_worst(&mut worst, e, native.decode(&records[k * size..(k + 1) * size]));
                }
            }
            if self.native_steps >= budget || floats.len() < 2 || Instant::now() >= until || self.out_of_time() {
                break;
            }
            let mut next = Vec::with_capacity(crossings.len());
            for mut l in crossings {
                let others: Vec<usize> = floats.iter().copied().filter(|k| *k != l.scalar).collect();
                let j = others[self.rng.gen_range(0..others.len())];
                let ScalarKind::Float(f) = self.scalars[j].kind else {
                    unreachable!()
                };
                let (lo, hi) = self.bounds(j);
                let step = self.rng.gen_range(1..=1024i128) * if self.rng.gen_bool(0.5) { 1 } else { -1 };
                let v = from_key(f, key(get_record(&l.input, at[j], f)) + step);
                if !v.is_finite() || key(v) < key(lo) || key(v) > key(hi) {
                    continue;
                }
                put_record(&mut l.input, at[j], v);
                let ScalarKind::Float(g) = self.scalars[l.scalar].kind else {
                    unreachable!()
                };
                let (lo, hi) = self.bounds(l.scalar);
                l.a = from_key(g, (key(l.a) - WIDTH).max(key(lo)));
                l.b = from_key(g, (key(l.b) + WIDTH).min(key(hi)));
                next.push(l);
            }
            // Lanes whose walk lost the crossing are replaced.
            let lost = lanes.saturating_sub(next.len());
            fresh(self, lost, &mut next);
            crossings = self.bisect(native, next, &results, &at, until)?;
        }
        Ok(worst)
    }

    /// Native runs for a phase of `share` runs per random input, scaled by
    /// the function's size (scalar inputs plus `results`): the runs of a
    /// function of 20 inputs and 16 results (a 4 x 4 matrix product) cost
    /// about seven times those of one of 4 inputs and a result. A count
    /// that depends on the function only, so that a reproducible run
    /// stays one; and one that fits the phases of a minute's run.
    pub(super) fn native_share(&self, share: u64, results: usize) -> u64 {
        let size = (self.scalars.len() + results).max(1) as f64;
        let scale = (SMALL / size).clamp(0.1, 4.0);
        (share as f64 * self.native_budget as f64 * scale) as u64
    }

    /// A float input's bounds: its range's floats, or the finite ones.
    pub(super) fn bounds(&self, k: usize) -> (Float, Float) {
        self.bounds[k]
    }

    /// The lanes whose result's computed sign differs at `a` and `b`,
    /// bisected (all at once, natively) to adjacent floats; a zero counts
    /// on a's side, so that b is the first float past the zeros.
    pub(super) fn bisect(
        &mut self,
        native: &mut native::Native,
        lanes: Vec<Lane>,
        results: &[(Option<String>, u64)],
        at: &[usize],
        until: Instant,
    ) -> Result<Vec<Lane>, String> {
        let side = |x: Option<Float>| x.filter(|x| !x.is_nan() && !x.is_zero()).map(|x| x.sign());
        let eval = |_: &Self, native: &mut native::Native, lanes: &[Lane], v: &dyn Fn(&Lane) -> Float| {
            let mut records = Vec::with_capacity(lanes.len() * native.record_size());
            for l in lanes {
                let from = records.len();
                records.extend_from_slice(&l.input);
                put_record(&mut records[from..], at[l.scalar], v(l));
            }
            let keys: Vec<&(Option<String>, u64)> = lanes.iter().map(|l| &results[l.result]).collect();
            native.computed_batch(&records, &keys)
        };
        let at_a = eval(self, native, &lanes, &|l| l.a)?;
        let at_b = eval(self, native, &lanes, &|l| l.b)?;
        self.native_steps += 2 * lanes.len() as u64;
        let mut live: Vec<(Lane, bool)> = Vec::new();
        for ((l, ra), rb) in lanes.into_iter().zip(at_a).zip(at_b) {
            if let (Some(sa), Some(sb)) = (side(ra), side(rb)) {
                if sa != sb {
                    live.push((l, sa));
                }
            }
        }
        let mut done = Vec::new();
        let mid = |s: &Self, l: &Lane| {
            let ScalarKind::Float(f) = s.scalars[l.scalar].kind else {
                unreachable!()
            };
            from_key(f, key(l.a) + (key(l.b) - key(l.a)) / 2)
        };
        while !live.is_empty() && Instant::now() < until && !self.out_of_time() {
            let (ls, signs): (Vec<Lane>, Vec<bool>) = live.into_iter().unzip();
            let at_m = eval(self, native, &ls, &|l| mid(self, l))?;
            self.native_steps += ls.len() as u64;
            let mut next = Vec::with_capacity(ls.len());
            for ((mut l, sa), r) in ls.into_iter().zip(signs).zip(at_m) {
                let m = mid(self, &l);
                match r {
                    Some(x) if x.is_zero() => l.a = m,
                    r => match side(r) {
                        None => continue,
                        Some(s) if s == sa => l.a = m,
                        Some(_) => l.b = m,
                    },
                }
                if key(l.b) - key(l.a) > 1 {
                    next.push((l, sa));
                } else {
                    done.push(l);
                }
            }
            live = next;
        }
        Ok(done)
    }

    /// The objects whose initial contents the function never reads (output
    /// arrays), found natively: eight random inputs, each beside a copy
    /// whose object is random again. Empty without a native build.
    pub(super) fn outputs_only(&mut self) -> BTreeSet<String> {
        let Some(mut native) = self.native.take() else {
            return BTreeSet::new();
        };
        let objects: BTreeSet<String> = self
            .scalars
            .iter()
            .filter(|s| s.offset > 0 || self.sizes.get(&s.object).is_some_and(|n| *n as u64 > s.kind.size()))
            .map(|s| s.object.clone())
            .collect();
        let mut unread = BTreeSet::new();
        for o in objects {
            let pairs: Vec<_> = (0..8)
                .map(|_| {
                    let a = self.random_input();
                    let mut b = a.clone();
                    if let Some(x) = self.random_input().remove(&o) {
                        b.insert(o.clone(), x);
                    }
                    (a, b)
                })
                .collect();
            if native.reads(&pairs, &o) == Ok(false) {
                unread.insert(o);
            }
        }
        self.native = Some(native);
        unread
    }
}
