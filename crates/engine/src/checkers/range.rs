//! Critical values (seed 001): can the float computation put a result
//! outside the range the real-number computation stays in? At the entry
//! function's return, each expected value (the result, the floats an
//! out-parameter points to, a global's floats) is compared with its
//! expected range's exact bounds: below it, above it, or NaN, each a
//! finding with the input (a continuing check: the first path showing
//! each kind).
//!
//! The bounds are exact rationals (read from decimals, never through a C
//! double): for a float `r` and a rational `lo`, `r < lo` exactly when
//! `r < RU(lo)`, the least float not below `lo` (and `r > hi` when
//! `r > RD(hi)`), so the comparisons are the float ones against the bounds
//! rounded inward.
//!
//! At the same point, the checker encloses each expected value by interval
//! propagation over the path's constraint (the cp solver's
//! [`fpsym_solver::cp::enclose`], no search): the hull over the paths of
//! these enclosures is the float over-approximation of the value (the
//! seed's value analysis), shared with the mode through [`FloatRanges`].

use super::{Check, Checker, Kind, Operation, Point, PointKind};
use crate::memory::Cell;
use crate::state::State;
use crate::term::{format_of, mk};
use fpsym_expr::{Op, Sort, Term};
use fpsym_float::{Float, Format, RoundingMode};
use fpsym_solver::cp::{enclose, CpConfig, Domain, Enclosure};
use fpsym_solver::{Budget, Query};
use llvm_ir::Terminator;
use num_rational::BigRational;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A result below the expected range.
pub const BELOW_RANGE: &str = "below-range";
/// A result above the expected range.
pub const ABOVE_RANGE: &str = "above-range";
/// A NaN result (outside every range).
pub const NAN_RESULT: &str = "nan-result";

pub use fpsym_float::parse_decimal;

/// The finding kinds (below, above, NaN) of the `k`-th expectation of a
/// run (from 0): the plain names for the first, `below-range-2`, ... for
/// the others (a finding is one per kind and place, and they all sit at
/// the entry's return).
pub fn kinds(k: usize) -> [String; 3] {
    let names = [BELOW_RANGE, ABOVE_RANGE, NAN_RESULT];
    names.map(|n| {
        if k == 0 {
            n.to_string()
        } else {
            format!("{n}-{}", k + 1)
        }
    })
}

/// One float an expectation is about, in an object.
#[derive(Clone, Debug, PartialEq)]
pub struct Element {
    /// Its byte offset in the object.
    pub offset: u64,
    /// Its format.
    pub format: Format,
    /// How findings name it (`out[1]`, `g.x`).
    pub name: String,
}

/// What an expectation is about.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// The entry function's float result.
    Ret,
    /// Floats of the object a pointer parameter of the entry points to.
    Param {
        /// The parameter's IR name.
        param: String,
        /// The floats checked.
        elements: Vec<Element>,
    },
    /// Floats of a global variable.
    Global {
        /// Its name (the memory object's).
        name: String,
        /// The floats checked.
        elements: Vec<Element>,
    },
}

/// A value that must stay in `[lo, hi]` at the entry's return.
#[derive(Clone, Debug, PartialEq)]
pub struct Expectation {
    /// What.
    pub target: Target,
    /// The lower bound (None: none).
    pub lo: Option<BigRational>,
    /// The upper bound (None: none).
    pub hi: Option<BigRational>,
    /// Its finding kinds: below, above, NaN (see [`kinds`]).
    pub kinds: [String; 3],
}

/// The hull, over the paths that reached the entry's return, of the
/// enclosures of one expectation's values.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FloatRange {
    /// Paths that reached the return.
    pub paths: u64,
    /// Of these, paths whose constraint propagation refuted (they count
    /// for nothing).
    pub refuted: u64,
    /// Paths whose propagation stopped at its budget before a fixpoint
    /// (their enclosure is wider).
    pub not_fixpoint: u64,
    /// The least and greatest non-NaN float of the hull (None: none yet),
    /// in the values' format, or when they have several (a struct of
    /// floats and doubles) in one holding each of them exactly.
    pub bounds: Option<(Float, Float)>,
    /// The values have several formats.
    pub mixed: bool,
    /// Some path may give NaN.
    pub nan: bool,
    /// Why the hull does not enclose every value on the paths it saw
    /// (a value that could not be read or enclosed).
    pub unknown: Option<String>,
}

impl FloatRange {
    fn add(&mut self, d: &Domain) {
        let Domain::Fp(x) = d else {
            self.unknown.get_or_insert_with(|| "a value that is not a float".into());
            return;
        };
        self.nan |= x.may_be_nan();
        if let Some((l, h)) = x.bounds() {
            self.bounds = Some(match self.bounds {
                None => (l, h),
                Some((a, b)) => {
                    // Floats of different formats are compared in one
                    // wide enough for both (their ordinals are not
                    // comparable).
                    let (fa, fl) = (a.format(), l.format());
                    let common = if fa == fl {
                        fa
                    } else {
                        self.mixed = true;
                        Format::new(fa.eb().max(fl.eb()), fa.sb().max(fl.sb())).unwrap_or(fa)
                    };
                    let wide = |v: Float| v.convert(common, RoundingMode::NearestTiesToEven).value;
                    (min(wide(a), wide(l)), max(wide(b), wide(h)))
                }
            });
        }
    }
}

fn min(a: Float, b: Float) -> Float {
    if b.total_cmp(a) == Some(std::cmp::Ordering::Less) {
        b
    } else {
        a
    }
}

fn max(a: Float, b: Float) -> Float {
    if b.total_cmp(a) == Some(std::cmp::Ordering::Greater) {
        b
    } else {
        a
    }
}

/// The float ranges of a run's expectations (in their order), filled by
/// its checkers: shared between the checker factory's checkers and the
/// mode that reads them after the run.
pub type FloatRanges = Arc<Mutex<Vec<FloatRange>>>;

/// Checks the entry function's result, out-parameters and globals
/// against their expected ranges, and encloses them.
pub struct OutOfRange {
    expects: Vec<Expectation>,
    ranges: Option<FloatRanges>,
    config: CpConfig,
    budget: Duration,
}

impl OutOfRange {
    /// The check of the result against `[lo, hi]` (either bound may be
    /// absent), without enclosures.
    pub fn new(lo: Option<BigRational>, hi: Option<BigRational>) -> OutOfRange {
        OutOfRange::of(vec![Expectation {
            target: Target::Ret,
            lo,
            hi,
            kinds: kinds(0),
        }])
    }

    /// The checks of `expects`, without enclosures.
    pub fn of(expects: Vec<Expectation>) -> OutOfRange {
        OutOfRange {
            expects,
            ranges: None,
            config: CpConfig::default(),
            budget: Duration::from_secs(2),
        }
    }

    /// With the enclosure of each expectation's values on each path
    /// joined into `ranges` (one per expectation), by propagation with
    /// `config` for at most `budget` per value.
    pub fn enclosing(mut self, ranges: FloatRanges, config: CpConfig, budget: Duration) -> OutOfRange {
        {
            let mut r = ranges.lock().expect("float ranges");
            r.resize(self.expects.len(), FloatRange::default());
        }
        self.ranges = Some(ranges);
        self.config = config;
        self.budget = budget;
        self
    }
}

/// The float of format `f` at `off` of the object at `base`, as a term:
/// a float stored whole, or bytes put together. None: not readable so
/// (a part of a wider value, a pointer, no such bytes).
fn read_float(st: &State, base: u64, off: u64, f: Format) -> Option<Term> {
    let o = st.mem.get(base)?;
    let n = crate::layout::fp_store_size(f);
    if off + n > o.size || off + n > o.cells.len() as u64 {
        return None;
    }
    let cells: &[Cell] = &o.cells[off as usize..(off + n) as usize];
    let whole = cells
        .iter()
        .enumerate()
        .all(|(i, c)| c.size as u64 == n && c.idx as usize == i && c.val == cells[0].val);
    if whole && cells[0].val.sort() == Sort::Float(f) {
        return Some(cells[0].val.clone());
    }
    // Bytes: each an 8-bit term or a byte of a bit-vector value.
    let mut acc: Option<Term> = None;
    for c in cells {
        let b = match c.val.sort() {
            Sort::BitVec(8) if c.size == 1 => c.val.clone(),
            Sort::BitVec(w) if w == 8 * c.size as u32 => {
                let lo = 8 * c.idx as u32;
                mk(Op::BvExtract(lo + 7, lo), vec![c.val.clone()])
            }
            _ => return None,
        };
        acc = Some(match acc {
            None => b,
            Some(low) => mk(Op::BvConcat, vec![b, low]),
        });
    }
    let bits = acc?;
    let bits = if crate::term::width(&bits) > f.width() {
        mk(Op::BvExtract(f.width() - 1, 0), vec![bits])
    } else {
        bits
    };
    Some(crate::exec::float_from_bits(f, &bits))
}

/// The base of the object `name` (a global: the first object of that
/// name, globals being allocated before any input).
fn global_base(st: &State, name: &str) -> Option<u64> {
    st.mem
        .objects()
        .filter(|o| o.name == name && o.kind == crate::memory::Kind::Global)
        .map(|o| o.base)
        .min()
}

impl OutOfRange {
    /// The values of expectation `e` on `st` at the entry's return: each
    /// with its name, or why it cannot be read.
    fn values(&self, st: &State, e: &Expectation, ret: Option<&Term>) -> Vec<(String, Result<Term, String>)> {
        let (base, elements) = match &e.target {
            Target::Ret => {
                return match ret {
                    Some(r) if matches!(r.sort(), Sort::Float(_)) => vec![("return".into(), Ok(r.clone()))],
                    _ => vec![("return".into(), Err("the function returns no float".into()))],
                }
            }
            Target::Param { param, elements } => {
                let frame = &st.frames[0];
                let base = frame
                    .regs
                    .get(&llvm_ir::Name::from(param.as_str()))
                    .and_then(|v| match &v {
                        crate::value::Val::Bv(t) => crate::term::as_bv(t).map(|b| b as u64),
                        _ => None,
                    })
                    .and_then(|p| st.mem.find(p).map(|o| o.base));
                (
                    base.ok_or(format!("parameter {param} points to no known object")),
                    elements,
                )
            }
            Target::Global { name, elements } => (
                global_base(st, name).ok_or(format!("no global variable {name} in memory")),
                elements,
            ),
        };
        elements
            .iter()
            .map(|el| {
                let v = base.clone().and_then(|b| {
                    read_float(st, b, el.offset, el.format)
                        .ok_or_else(|| format!("{} does not hold a {} value fpsym can read", el.name, el.format.name()))
                });
                (el.name.clone(), v)
            })
            .collect()
    }
}

impl OutOfRange {
    /// The enclosure of `r` under `query`: by propagation with the run's
    /// configuration and, when it has a relative ε (which withdraws some
    /// narrowings), with none too; both are sound, so is their
    /// intersection (the two fixpoints differ either way).
    fn enclose(&self, query: &Query, r: &Term) -> Enclosure {
        let a = enclose(query, r, &self.config, &Budget::timeout(self.budget));
        if self.config.eps_direct == 0.0 && self.config.eps_indirect == 0.0 {
            return a;
        }
        let exact = self.config.clone().with_eps(0.0, 0.0);
        match (a, enclose(query, r, &exact, &Budget::timeout(self.budget))) {
            (Enclosure::Empty, _) | (_, Enclosure::Empty) => Enclosure::Empty,
            (
                Enclosure::Within {
                    domain: d1,
                    fixpoint: f1,
                },
                Enclosure::Within {
                    domain: d2,
                    fixpoint: f2,
                },
            ) => {
                let d = d1.intersect(&d2);
                if d.is_empty() {
                    Enclosure::Empty
                } else {
                    Enclosure::Within {
                        domain: d,
                        fixpoint: f1 && f2,
                    }
                }
            }
        }
    }
}

impl Checker for OutOfRange {
    fn name(&self) -> &str {
        "range"
    }
    fn looks_at(&self, kind: PointKind) -> bool {
        kind == PointKind::Terminator
    }
    fn check(&mut self, st: &State, at: Point<'_>, operands: &[Option<Term>]) -> Vec<Check> {
        let Point::Terminator(Terminator::Ret(_)) = at else {
            return vec![];
        };
        // Only the entry function's return.
        if st.frames.len() != 1 {
            return vec![];
        }
        let ret = operands.first().and_then(|r| r.as_ref());
        let mut checks = Vec::new();
        let query = Query::new(st.path.clone());
        for (k, e) in self.expects.iter().enumerate() {
            let values = self.values(st, e, ret);
            let mut range = FloatRange::default();
            let mut refuted = false;
            for (name, v) in &values {
                let r = match v {
                    Ok(r) => r,
                    Err(why) => {
                        range.unknown.get_or_insert_with(|| why.clone());
                        for kind in &e.kinds {
                            checks.push(Check::unchecked(Kind::Custom(kind.clone()), why.clone()));
                        }
                        continue;
                    }
                };
                if self.ranges.is_some() && !refuted {
                    match self.enclose(&query, r) {
                        Enclosure::Empty => refuted = true,
                        Enclosure::Within { domain, fixpoint } => {
                            range.add(&domain);
                            if !fixpoint {
                                range.not_fixpoint = 1;
                            }
                        }
                    }
                }
                let f = format_of(r);
                let op = Operation {
                    name: name.clone(),
                    operands: vec![r.clone()],
                    result: None,
                };
                let [below, above, nan] = &e.kinds;
                if let Some(lo) = &e.lo {
                    let up = Float::from_rational(f, lo, RoundingMode::TowardPositive).value;
                    checks.push(
                        Check::continuing(
                            Kind::Custom(below.clone()),
                            mk(Op::FpLt, vec![r.clone(), crate::term::fp(up)]),
                            format!("{name} is below {lo}"),
                        )
                        .about(&op),
                    );
                }
                if let Some(hi) = &e.hi {
                    let down = Float::from_rational(f, hi, RoundingMode::TowardNegative).value;
                    checks.push(
                        Check::continuing(
                            Kind::Custom(above.clone()),
                            mk(Op::FpGt, vec![r.clone(), crate::term::fp(down)]),
                            format!("{name} is above {hi}"),
                        )
                        .about(&op),
                    );
                }
                checks.push(
                    Check::continuing(
                        Kind::Custom(nan.clone()),
                        mk(Op::FpIsNaN, vec![r.clone()]),
                        format!("{name} is NaN"),
                    )
                    .about(&op),
                );
            }
            if let Some(shared) = &self.ranges {
                let mut all = shared.lock().expect("float ranges");
                let h = &mut all[k];
                h.paths += 1;
                if refuted {
                    // No model: the path contributes no value.
                    h.refuted += 1;
                    continue;
                }
                h.not_fixpoint += range.not_fixpoint;
                h.nan |= range.nan;
                if let Some((l, u)) = range.bounds {
                    h.bounds = Some(match h.bounds {
                        None => (l, u),
                        Some((a, b)) => (min(a, l), max(b, u)),
                    });
                }
                if h.unknown.is_none() {
                    h.unknown = range.unknown;
                }
            }
        }
        checks
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fpsym_float::Format;

    #[test]
    fn decimals_are_exact() {
        let q = |s: &str| parse_decimal(s).unwrap();
        assert_eq!(q("156.25001"), BigRational::new(15625001.into(), 100000.into()));
        assert_eq!(q("-1e-5"), BigRational::new((-1).into(), 100000.into()));
        assert_eq!(q("1.5e3"), BigRational::from_integer(1500.into()));
        assert_eq!(q(".5"), BigRational::new(1.into(), 2.into()));
        assert_eq!(q("+7"), BigRational::from_integer(7.into()));
        for bad in ["", "e5", "1.2.3", "0x10", "1e", "--1", "nan", "."] {
            assert!(parse_decimal(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn bounds_round_inward_so_float_comparisons_are_exact() {
        // 1000000000.01 rounds to the float 1e9 at nearest; inward, the
        // lower bound is the next float up, so 1e9 counts as below.
        let lo = parse_decimal("1000000000.01").unwrap();
        let up = Float::from_rational(Format::BINARY32, &lo, RoundingMode::TowardPositive).value;
        assert_eq!(up, Float::from_f32(1000000064.0));
        // A bound that is a float stays itself.
        let b = parse_decimal("156.25").unwrap();
        let d = Float::from_rational(Format::BINARY32, &b, RoundingMode::TowardNegative).value;
        assert_eq!(d, Float::from_f32(156.25));
    }

    #[test]
    fn kinds_are_one_set_per_expectation() {
        assert_eq!(kinds(0), ["below-range", "above-range", "nan-result"]);
        assert_eq!(kinds(2), ["below-range-3", "above-range-3", "nan-result-3"]);
        for k in kinds(1) {
            assert!(fpsym_report::FindingKind::custom(&k).is_ok(), "{k}");
        }
    }
}
