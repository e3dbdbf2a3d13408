//! The native evolution after the random phase: a population of inputs,
//! mutated and run natively in batches, kept by their error (a fuzzer's
//! havoc over float inputs, with moves of the shapes large errors have).
//!
//! Uniform random inputs almost never build the inputs of the largest
//! errors: a tiny value absorbed by a large one and the large one
//! cancelled later (sums, dot products), data equal to within a few ulps
//! (variances), a product cancelled by the same product negated. Each
//! such input is a few moves from a random one, and every move alone
//! changes nothing; so a child takes one to four stacked moves, and a
//! child as bad as the population's least is kept too (neutral drift).

use super::*;

/// Native runs the evolution gets per input of the random phase, for a
/// function of [`SMALL`] inputs and results (see [`Search::native_share`]).
const EVOLVE_SHARE: u64 = 8;

/// Inputs the evolution keeps.
const POPULATION: usize = 64;

/// Children run natively at once.
const BATCH: u64 = 4096;

/// What the moves pick from, made once per evolution (not per move).
struct Moves {
    /// The float inputs (scalar indices) the moves change.
    floats: Vec<usize>,
    /// The float inputs of each object, by offset.
    groups: Vec<Vec<usize>>,
    /// Per scalar index, its object's place in `groups`.
    group_of: Vec<usize>,
    /// Per scalar index, the float inputs of its format.
    same: Vec<Vec<usize>>,
}

impl Search<'_> {
    /// Evolves the inputs of `seeds` (and fresh random ones) natively for
    /// [`EVOLVE_SHARE`] runs per random input, scaled by the function's
    /// size (fewer if `until` comes first). Returns the worst inputs with their errors by the metric.
    pub(super) fn native_evolution(
        &mut self,
        native: &mut native::Native,
        seeds: &Worst,
        until: Instant,
        elem: &dyn Fn(&str) -> u64,
    ) -> Result<Worst, String> {
        let floats: Vec<usize> = (0..self.scalars.len())
            .filter(|k| matches!(self.scalars[*k].kind, ScalarKind::Float(_)))
            .filter(|k| !self.unread.contains(&self.scalars[*k].object))
            .collect();
        if floats.is_empty() {
            return Ok(Vec::new());
        }
        let mut by_object: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for &k in &floats {
            by_object.entry(self.scalars[k].object.as_str()).or_default().push(k);
        }
        let groups: Vec<Vec<usize>> = by_object.into_values().collect();
        let mut group_of = vec![0; self.scalars.len()];
        let mut same = vec![Vec::new(); self.scalars.len()];
        for (n, g) in groups.iter().enumerate() {
            for &k in g {
                group_of[k] = n;
                let ScalarKind::Float(f) = self.scalars[k].kind else {
                    continue;
                };
                same[k] = floats
                    .iter()
                    .copied()
                    .filter(|j| matches!(self.scalars[*j].kind, ScalarKind::Float(g) if g == f))
                    .collect();
            }
        }
        let moves = Moves {
            floats,
            groups,
            group_of,
            same,
        };
        let at = native.scalar_offsets(&self.scalars);
        let size = native.record_size();
        let mut population: Vec<(f64, Vec<u8>)> = seeds
            .iter()
            .filter(|(e, _)| !e.is_nan())
            .map(|(e, i)| {
                let mut r = Vec::with_capacity(size);
                native.encode(i, &mut r);
                (*e, r)
            })
            .filter(|(_, r)| r.len() == size)
            .collect();
        let budget = self.native_share(EVOLVE_SHARE, native.selected(&self.output, elem).len());
        let mut spent = 0u64;
        let mut worst: Worst = Vec::new();
        let mut records = Vec::new();
        while spent < budget && Instant::now() < until && !self.out_of_time() {
            let n = BATCH.min(budget - spent);
            records.clear();
            for _ in 0..n {
                let from = records.len();
                if population.is_empty() || self.rng.gen_ratio(1, 16) {
                    self.random_record(&at, &mut records);
                } else {
                    let a = self.parent(&population);
                    records.extend_from_slice(&population[a].1);
                    if population.len() > 1 && self.rng.gen_ratio(1, 8) {
                        // A crossing of two parents: each object from either.
                        let b = self.parent(&population);
                        for g in &moves.groups {
                            if self.rng.gen_bool(0.5) {
                                for &k in g {
                                    let w = self.scalars[k].kind.size() as usize;
                                    records[from + at[k]..from + at[k] + w]
                                        .copy_from_slice(&population[b].1[at[k]..at[k] + w]);
                                }
                            }
                        }
                    }
                }
                let stacked = 1 + self.rng.gen_range(0..4);
                for _ in 0..stacked {
                    self.mutate(&mut records[from..], &moves, &at);
                }
            }
            let errors = native.errors(&records, &self.output, self.metric, elem)?;
            spent += n;
            for (k, e) in errors.into_iter().enumerate() {
                if e == f64::NEG_INFINITY || e.is_nan() {
                    continue;
                }
                let rec = &records[k * size..(k + 1) * size];
                if worst.len() < ELITE || e > worst[ELITE - 1].0 {
                    keep_worst(&mut worst, e, native.decode(rec));
                }
                if population.len() < POPULATION {
                    population.push((e, rec.to_vec()));
                    continue;
                }
                let least = population.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
                if e >= least {
                    // The least one (a random one of equal least errors).
                    let ties: Vec<usize> = (0..population.len()).filter(|i| population[*i].0 == least).collect();
                    let i = ties[self.rng.gen_range(0..ties.len())];
                    population[i] = (e, rec.to_vec());
                }
            }
        }
        self.native_steps += spent;
        Ok(worst)
    }

    /// A parent: the worse of two drawn at random.
    fn parent(&mut self, population: &[(f64, Vec<u8>)]) -> usize {
        let a = self.rng.gen_range(0..population.len());
        let b = self.rng.gen_range(0..population.len());
        if population[b].0 > population[a].0 {
            b
        } else {
            a
        }
    }

    /// One move on a native record: a float input set to another's value
    /// (or its negation, or a few ulps from it), to a value far below
    /// another's (absorbed when added to it), to a value of note, a few
    /// ulps or a power of two away, or at random; or a whole object moved:
    /// every element within a few ulps of one (near-equal data), or one
    /// position copied to another in every object and negated in one (a
    /// product that cancels its twin). Values outside an input's range
    /// are not set.
    fn mutate(&mut self, rec: &mut [u8], moves: &Moves, at: &[usize]) {
        let k = moves.floats[self.rng.gen_range(0..moves.floats.len())];
        let ScalarKind::Float(f) = self.scalars[k].kind else {
            return;
        };
        let same = &moves.same[k];
        let cur = get_record(rec, at[k], f);
        let signed = |s: &mut Self, v: Float| if s.rng.gen_bool(0.5) { v } else { v.neg() };
        let v = match self.rng.gen_range(0..10) {
            0..=2 => {
                let j = same[self.rng.gen_range(0..same.len())];
                let v = signed(self, get_record(rec, at[j], f));
                if self.rng.gen_ratio(1, 4) {
                    from_key(f, key(v) + self.rng.gen_range(-2..=2))
                } else {
                    v
                }
            }
            3 => {
                let j = same[self.rng.gen_range(0..same.len())];
                let top = key(get_record(rec, at[j], f).abs());
                if top < 2 {
                    return;
                }
                let t = from_key(f, self.rng.gen_range(1..top));
                signed(self, t)
            }
            4 => {
                let (lo, hi) = self.bounds(k);
                let note = [
                    Float::zero(f, false),
                    Float::smallest(f, false),
                    Float::smallest_normal(f, false),
                    Float::one(f, false),
                    lo,
                    hi,
                ];
                let v = note[self.rng.gen_range(0..note.len())];
                signed(self, v)
            }
            5 => {
                let d = 1i128 << self.rng.gen_range(0..24);
                from_key(f, key(cur) + if self.rng.gen_bool(0.5) { d } else { -d })
            }
            6 => {
                if !cur.is_normal() {
                    return;
                }
                let e = self.rng.gen_range(-40i128..=40);
                let v = from_key(f, key(cur.abs()) + (e << f.frac_bits()));
                if cur.sign() {
                    v.neg()
                } else {
                    v
                }
            }
            7 => Float::from_bits(f, self.random_bits(k)),
            8 => {
                // Near-equal data: k's object within a few ulps of k.
                let g = &moves.groups[moves.group_of[k]];
                for &j in g {
                    if matches!(self.scalars[j].kind, ScalarKind::Float(h) if h == f) {
                        let v = from_key(f, key(cur) + self.rng.gen_range(-3..=3));
                        self.put_in_range(rec, j, at, v);
                    }
                }
                return;
            }
            _ => {
                // A position copied to another in every object, negated in one.
                let g = &moves.groups[moves.group_of[k]];
                if g.len() < 2 {
                    return;
                }
                let i = self.rng.gen_range(0..g.len());
                let mut t = self.rng.gen_range(0..g.len() - 1);
                if t >= i {
                    t += 1;
                }
                let holders: Vec<&Vec<usize>> = moves.groups.iter().filter(|h| h.len() > i.max(t)).collect();
                let negated = self.rng.gen_range(0..holders.len());
                for (n, h) in holders.into_iter().enumerate() {
                    let (a, b) = (h[i], h[t]);
                    let ScalarKind::Float(fa) = self.scalars[a].kind else {
                        continue;
                    };
                    if !matches!(self.scalars[b].kind, ScalarKind::Float(fb) if fb == fa) {
                        continue;
                    }
                    let v = get_record(rec, at[a], fa);
                    self.put_in_range(rec, b, at, if n == negated { v.neg() } else { v });
                }
                return;
            }
        };
        self.put_in_range(rec, k, at, v);
    }

    /// Sets float input `k` of a native record to `v` if `v` is in its range.
    fn put_in_range(&self, rec: &mut [u8], k: usize, at: &[usize], v: Float) {
        let (lo, hi) = self.bounds(k);
        if v.is_finite() && key(v) >= key(lo) && key(v) <= key(hi) {
            put_record(rec, at[k], v);
        }
    }
}
