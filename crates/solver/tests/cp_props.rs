//! Soundness of every CP propagator against brute force on tiny formats.
//!
//! For each operation, random operand and result domains (NaN flags, signed
//! zeros, infinities, subnormals, sets of rounding modes) are drawn over the
//! formats (3,3) and (4,4); the exact solution set of `result = op(args)`
//! inside them is enumerated with `fpsym_expr::apply` (the exact semantics of
//! fpsym-float), the propagator is run to its fixpoint with
//! `cp::propagate_op`, and every solution must survive. Tightness (how many
//! values the narrowed domains keep beyond the hull of the solutions) is
//! printed, not asserted.

use fpsym_expr::{apply, BvValue, Op, Value};
use fpsym_float::{Float, FloatInterval, Format, RoundingMode};
use fpsym_solver::cp::{propagate_op, BoolSet, BvRange, CpConfig, Domain, RmSet};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn f33() -> Format {
    Format::new(3, 3).unwrap()
}
fn f44() -> Format {
    Format::new(4, 4).unwrap()
}

/// Every member of a (small) domain.
fn members(d: &Domain) -> Vec<Value> {
    match d {
        Domain::Bool(b) => [false, true]
            .into_iter()
            .filter(|&v| b.contains(v))
            .map(Value::Bool)
            .collect(),
        Domain::Rm(r) => r.iter().map(Value::Rm).collect(),
        Domain::Fp(x) => {
            let mut out = Vec::new();
            if let Some((l, h)) = x.bounds() {
                let mut v = l;
                loop {
                    out.push(Value::Fp(v));
                    if v == h {
                        break;
                    }
                    v = v.succ().unwrap();
                }
            }
            if x.may_be_nan() {
                out.push(Value::Fp(Float::nan(x.format())));
            }
            out
        }
        Domain::Bv(b) => match b.bounds() {
            None => vec![],
            Some((l, h)) => (l..=h).map(|v| Value::Bv(BvValue::new(b.width(), v))).collect(),
        },
    }
}

fn random_float(rng: &mut StdRng, fmt: Format) -> Float {
    let max = Float::infinity(fmt, false).ordinal().unwrap();
    // bias toward special values
    match rng.gen_range(0..10) {
        0 => Float::zero(fmt, rng.gen()),
        1 => Float::infinity(fmt, rng.gen()),
        2 => Float::smallest(fmt, rng.gen()),
        3 => Float::largest(fmt, rng.gen()),
        4 => Float::one(fmt, rng.gen()),
        _ => Float::from_ordinal(fmt, rng.gen_range(-max - 1..=max)).unwrap(),
    }
}

fn random_interval(rng: &mut StdRng, fmt: Format) -> FloatInterval {
    match rng.gen_range(0..20) {
        0..=1 => FloatInterval::full(fmt),
        2 => FloatInterval::nan_only(fmt),
        3..=5 => FloatInterval::point(random_float(rng, fmt)),
        _ => {
            let (a, b) = (random_float(rng, fmt), random_float(rng, fmt));
            let (l, h) = if a.ordinal() <= b.ordinal() { (a, b) } else { (b, a) };
            FloatInterval::new(l, h, rng.gen_bool(0.4))
        }
    }
}

fn random_fp(rng: &mut StdRng, fmt: Format) -> Domain {
    Domain::Fp(random_interval(rng, fmt))
}

fn random_rm(rng: &mut StdRng) -> Domain {
    if rng.gen_bool(0.6) {
        Domain::Rm(RmSet::point(RoundingMode::ALL[rng.gen_range(0..5)]))
    } else {
        let mut s = RmSet::EMPTY;
        while s.is_empty() {
            for m in RoundingMode::ALL {
                if rng.gen_bool(0.5) {
                    s = s.union(RmSet::point(m));
                }
            }
        }
        Domain::Rm(s)
    }
}

fn random_bool(rng: &mut StdRng) -> Domain {
    Domain::Bool([BoolSet::TRUE, BoolSet::FALSE, BoolSet::BOTH][rng.gen_range(0..3)])
}

fn random_bv(rng: &mut StdRng, w: u32) -> Domain {
    let m = (1u128 << w) - 1;
    match rng.gen_range(0..6) {
        0 => Domain::Bv(BvRange::full(w)),
        1 => Domain::Bv(BvRange::point(w, rng.gen_range(0..=m))),
        _ => {
            let (a, b) = (rng.gen_range(0..=m), rng.gen_range(0..=m));
            Domain::Bv(BvRange::new(w, a.min(b), a.max(b)))
        }
    }
}

/// Statistics of one operation's trials.
#[derive(Default)]
struct Tally {
    trials: u64,
    with_solutions: u64,
    kept: f64,
    exact: f64,
}

/// Runs one trial: enumerates solutions, propagates, checks soundness.
fn trial(op: &Op, args: Vec<Domain>, res: Domain, tally: &mut Tally) {
    let cfg = CpConfig::default().with_eps(0.0, 0.0);
    let vals: Vec<Vec<Value>> = args.iter().map(members).collect();
    let mut sols: Vec<(Vec<Value>, Value)> = Vec::new();
    let mut idx = vec![0usize; vals.len()];
    if vals.iter().all(|v| !v.is_empty()) {
        'outer: loop {
            let tuple: Vec<Value> = idx.iter().zip(&vals).map(|(&i, v)| v[i]).collect();
            let r = apply(op, &tuple).expect("well-sorted");
            if res.contains(&r) {
                sols.push((tuple, r));
            }
            let mut k = 0;
            loop {
                if k == idx.len() {
                    break 'outer;
                }
                idx[k] += 1;
                if idx[k] < vals[k].len() {
                    break;
                }
                idx[k] = 0;
                k += 1;
            }
        }
    }
    let (mut a2, mut r2) = (args.clone(), res);
    let ok = propagate_op(op, &mut a2, &mut r2, &cfg);
    tally.trials += 1;
    if sols.is_empty() {
        return;
    }
    tally.with_solutions += 1;
    assert!(
        ok,
        "{op:?}: propagator failed but {} solutions exist, e.g. {:?}; domains {args:?} -> {res:?}",
        sols.len(),
        sols[0]
    );
    for (t, r) in &sols {
        for (i, v) in t.iter().enumerate() {
            assert!(
                a2[i].contains(v),
                "{op:?}: solution {t:?} -> {r:?} lost operand {i} ({v:?}); domains {args:?} -> {res:?} narrowed to {a2:?} -> {r2:?}"
            );
        }
        assert!(
            r2.contains(r),
            "{op:?}: solution {t:?} -> {r:?} lost its result; domains {args:?} -> {res:?} narrowed to {a2:?} -> {r2:?}"
        );
    }
    // tightness on float positions: values kept vs the hull of solutions
    for (i, d) in a2.iter().enumerate() {
        if let Domain::Fp(x) = d {
            let mut hull = FloatInterval::empty(x.format());
            for (t, _) in &sols {
                hull = hull.hull(&FloatInterval::point(t[i].as_fp().unwrap()));
            }
            tally.kept += x.count() as f64;
            tally.exact += hull.count() as f64;
        }
    }
}

fn report(name: &str, t: &Tally) {
    println!(
        "{name:<28} trials {:>5}  with solutions {:>5}  floats kept / hull of solutions = {:.3}",
        t.trials,
        t.with_solutions,
        if t.exact > 0.0 { t.kept / t.exact } else { 1.0 }
    );
}

/// Random trials of an operation whose domains come from `gen`.
fn run(name: &str, op: Op, n: usize, seed: u64, mut gen: impl FnMut(&mut StdRng) -> (Vec<Domain>, Domain)) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut t = Tally::default();
    for _ in 0..n {
        let (a, r) = gen(&mut rng);
        trial(&op, a, r, &mut t);
    }
    report(name, &t);
}

fn binary_rm(op: Op, fmt: Format, n: usize, seed: u64) {
    let name = format!("{} {}", op.name(), fmt);
    run(&name, op, n, seed, |rng| {
        (
            vec![random_rm(rng), random_fp(rng, fmt), random_fp(rng, fmt)],
            random_fp(rng, fmt),
        )
    });
}

#[test]
fn add_sub_sound() {
    for (fmt, n) in [(f33(), 400), (f44(), 120)] {
        binary_rm(Op::FpAdd, fmt, n, 1);
        binary_rm(Op::FpSub, fmt, n, 2);
    }
}

#[test]
fn mul_div_sound() {
    for (fmt, n) in [(f33(), 400), (f44(), 120)] {
        binary_rm(Op::FpMul, fmt, n, 3);
        binary_rm(Op::FpDiv, fmt, n, 4);
    }
}

#[test]
fn fma_sound() {
    let fmt = f33();
    run("fp.fma (3,3)", Op::FpFma, 250, 5, |rng| {
        (
            vec![
                random_rm(rng),
                random_fp(rng, fmt),
                random_fp(rng, fmt),
                random_fp(rng, fmt),
            ],
            random_fp(rng, fmt),
        )
    });
    let fmt = f44();
    run("fp.fma (4,4) narrow", Op::FpFma, 60, 6, |rng| {
        // keep the product of domain sizes manageable
        let small = |rng: &mut StdRng| {
            let a = random_float(rng, fmt);
            let o = a.ordinal().unwrap();
            let b = Float::from_ordinal(
                fmt,
                (o + rng.gen_range(0..30)).min(Float::infinity(fmt, false).ordinal().unwrap()),
            )
            .unwrap();
            Domain::Fp(FloatInterval::new(a, b, rng.gen_bool(0.3)))
        };
        (
            vec![random_rm(rng), small(rng), small(rng), small(rng)],
            random_fp(rng, fmt),
        )
    });
}

#[test]
fn unary_sound() {
    for (fmt, n) in [(f33(), 300), (f44(), 300)] {
        for (op, seed) in [(Op::FpSqrt, 7), (Op::FpRoundToIntegral, 8)] {
            let name = format!("{} {}", op.name(), fmt);
            run(&name, op, n, seed, |rng| {
                (vec![random_rm(rng), random_fp(rng, fmt)], random_fp(rng, fmt))
            });
        }
        for (op, seed) in [(Op::FpAbs, 9), (Op::FpNeg, 10)] {
            let name = format!("{} {}", op.name(), fmt);
            run(&name, op, n, seed, |rng| {
                (vec![random_fp(rng, fmt)], random_fp(rng, fmt))
            });
        }
    }
}

#[test]
fn rem_min_max_sound() {
    for (fmt, n) in [(f33(), 300), (f44(), 80)] {
        for (op, seed) in [(Op::FpRem, 11), (Op::FpMin, 12), (Op::FpMax, 13)] {
            let name = format!("{} {}", op.name(), fmt);
            run(&name, op, n, seed, |rng| {
                (vec![random_fp(rng, fmt), random_fp(rng, fmt)], random_fp(rng, fmt))
            });
        }
    }
}

/// `fp.rem` on narrow boxes, where the nearest integer to `x / y` is often
/// one `n` over the whole box and the propagator narrows all three as
/// `r = x - n·y`: every solution survives (enumeration on (3,3), (4,4) and
/// (5,5)), the result of points is the remainder itself, and the narrowed
/// result is never more than the hull of the solutions' results plus its
/// outward rounding.
#[test]
fn rem_on_one_tooth_sound_and_exact() {
    let f55 = Format::new(5, 5).unwrap();
    for (fmt, n, seed) in [(f33(), 3000, 21), (f44(), 3000, 22), (f55, 1500, 23)] {
        let mut rng = StdRng::seed_from_u64(seed);
        let narrow = |rng: &mut StdRng| -> Domain {
            let v = random_float(rng, fmt);
            let Some(o) = v.ordinal() else {
                return Domain::Fp(FloatInterval::point(v));
            };
            let max = Float::infinity(fmt, false).ordinal().unwrap();
            let lo = (o - rng.gen_range(0..6)).max(-max);
            let hi = (o + rng.gen_range(0..6)).min(max);
            Domain::Fp(FloatInterval::new(
                Float::from_ordinal(fmt, lo).unwrap(),
                Float::from_ordinal(fmt, hi).unwrap(),
                false,
            ))
        };
        run(&format!("fp.rem narrow {fmt}"), Op::FpRem, n, seed, |rng| {
            let res = if rng.gen_bool(0.5) {
                narrow(rng)
            } else {
                random_fp(rng, fmt)
            };
            (vec![narrow(rng), narrow(rng)], res)
        });
        // Points: exactly the remainder.
        let cfg = CpConfig::default().with_eps(0.0, 0.0);
        for _ in 0..500 {
            let (x, y) = (random_float(&mut rng, fmt), random_float(&mut rng, fmt));
            let mut args = vec![Domain::Fp(FloatInterval::point(x)), Domain::Fp(FloatInterval::point(y))];
            let mut res = Domain::Fp(FloatInterval::full(fmt));
            assert!(propagate_op(&Op::FpRem, &mut args, &mut res, &cfg));
            let r = x.rem(y).value;
            let Domain::Fp(z) = &res else { panic!("{res:?}") };
            assert!(
                z.is_point() && z.contains(r),
                "rem({x:?}, {y:?}) = {r:?}, propagated {z:?}"
            );
        }
    }
    // binary64: x in [5.0, 5.2], y in [3.6, 3.8] has x / y in [1.31, 1.45],
    // so n = 1 and r = x - y in [1.2, 1.6]; r >= 1.5 gives x >= 5.1 and
    // y <= 3.7.
    let f = Float::from_f64;
    let cfg = CpConfig::default().with_eps(0.0, 0.0);
    let mut args = vec![
        Domain::Fp(FloatInterval::new(f(5.0), f(5.2), false)),
        Domain::Fp(FloatInterval::new(f(3.6), f(3.8), false)),
    ];
    let mut res = Domain::Fp(FloatInterval::new(f(1.5), f(100.0), false));
    assert!(propagate_op(&Op::FpRem, &mut args, &mut res, &cfg));
    let bounds = |d: &Domain| match d {
        Domain::Fp(x) => {
            let (l, h) = x.bounds().unwrap();
            (l.to_f64().unwrap(), h.to_f64().unwrap())
        }
        _ => panic!("{d:?}"),
    };
    let (rl, rh) = bounds(&res);
    assert!(rl == 1.5 && rh <= 1.6 + 1e-15, "{res:?}");
    assert!(bounds(&args[0]).0 >= 5.1 - 1e-15, "{:?}", args[0]);
    assert!(bounds(&args[1]).1 <= 3.7 + 1e-15, "{:?}", args[1]);
}

#[test]
fn conversions_sound() {
    let pairs = [
        (f33(), f44()),
        (f44(), f33()),
        (f33(), Format::new(2, 4).unwrap()),
        (Format::new(2, 4).unwrap(), f33()),
    ];
    for (i, (from, to)) in pairs.into_iter().enumerate() {
        run(
            &format!("to_fp {from} -> {to}"),
            Op::ToFpFromFp(to),
            300,
            20 + i as u64,
            |rng| (vec![random_rm(rng), random_fp(rng, from)], random_fp(rng, to)),
        );
    }
    for fmt in [f33(), f44()] {
        for w in [3u32, 5, 7] {
            run(
                &format!("to_fp sbv{w} -> {fmt}"),
                Op::ToFpFromSbv(fmt),
                200,
                30 + w as u64,
                |rng| (vec![random_rm(rng), random_bv(rng, w)], random_fp(rng, fmt)),
            );
            run(
                &format!("to_fp_unsigned bv{w} -> {fmt}"),
                Op::ToFpFromUbv(fmt),
                200,
                40 + w as u64,
                |rng| (vec![random_rm(rng), random_bv(rng, w)], random_fp(rng, fmt)),
            );
        }
        for w in [2u32, 3, 5] {
            run(
                &format!("fp.to_ubv {w} {fmt}"),
                Op::FpToUbv(w),
                200,
                50 + w as u64,
                |rng| (vec![random_rm(rng), random_fp(rng, fmt)], random_bv(rng, w)),
            );
            run(
                &format!("fp.to_sbv {w} {fmt}"),
                Op::FpToSbv(w),
                200,
                60 + w as u64,
                |rng| (vec![random_rm(rng), random_fp(rng, fmt)], random_bv(rng, w)),
            );
        }
        let w = fmt.packed_width();
        run(&format!("to_fp bits {fmt}"), Op::ToFpFromBits(fmt), 300, 70, |rng| {
            (vec![random_bv(rng, w)], random_fp(rng, fmt))
        });
        run(&format!("fp parts {fmt}"), Op::FpFromParts, 300, 71, |rng| {
            (
                vec![
                    random_bv(rng, 1),
                    random_bv(rng, fmt.eb()),
                    random_bv(rng, fmt.sb() - 1),
                ],
                random_fp(rng, fmt),
            )
        });
    }
}

#[test]
fn comparisons_sound() {
    for fmt in [f33(), f44()] {
        for (op, seed) in [
            (Op::FpLeq, 80),
            (Op::FpLt, 81),
            (Op::FpGeq, 82),
            (Op::FpGt, 83),
            (Op::FpEq, 84),
            (Op::Eq, 85),
            (Op::Distinct, 86),
        ] {
            let name = format!("{} {}", op.name(), fmt);
            run(&name, op, 400, seed, |rng| {
                (vec![random_fp(rng, fmt), random_fp(rng, fmt)], random_bool(rng))
            });
        }
        for (i, op) in Op::FP_CLASSIFICATIONS.into_iter().enumerate() {
            let name = format!("{} {}", op.name(), fmt);
            run(&name, op, 300, 90 + i as u64, |rng| {
                (vec![random_fp(rng, fmt)], random_bool(rng))
            });
        }
        run(&format!("ite {fmt}"), Op::Ite, 300, 99, |rng| {
            (
                vec![random_bool(rng), random_fp(rng, fmt), random_fp(rng, fmt)],
                random_fp(rng, fmt),
            )
        });
    }
}

#[test]
fn booleans_sound() {
    for (op, n) in [
        (Op::Not, 1),
        (Op::And, 3),
        (Op::Or, 3),
        (Op::Xor, 3),
        (Op::Implies, 2),
        (Op::Eq, 2),
        (Op::Distinct, 3),
    ] {
        run(&format!("{} bool", op.name()), op, 200, 100, |rng| {
            ((0..n).map(|_| random_bool(rng)).collect(), random_bool(rng))
        });
    }
    run("= rm", Op::Eq, 200, 101, |rng| {
        (vec![random_rm(rng), random_rm(rng)], random_bool(rng))
    });
    run("ite rm", Op::Ite, 200, 102, |rng| {
        (vec![random_bool(rng), random_rm(rng), random_rm(rng)], random_rm(rng))
    });
}

#[test]
fn bitvectors_sound() {
    use Op::*;
    let w = 4;
    for (i, op) in [
        BvAdd, BvSub, BvMul, BvUdiv, BvUrem, BvSdiv, BvSrem, BvSmod, BvAnd, BvOr, BvXor, BvShl, BvLshr, BvAshr,
    ]
    .into_iter()
    .enumerate()
    {
        run(&format!("{} bv{w}", op.name()), op, 300, 200 + i as u64, |rng| {
            (vec![random_bv(rng, w), random_bv(rng, w)], random_bv(rng, w))
        });
    }
    for (i, op) in [BvUlt, BvUle, BvUgt, BvUge, BvSlt, BvSle, BvSgt, BvSge, Eq, Distinct]
        .into_iter()
        .enumerate()
    {
        run(&format!("{} bv{w}", op.name()), op, 300, 220 + i as u64, |rng| {
            (vec![random_bv(rng, w), random_bv(rng, w)], random_bool(rng))
        });
    }
    for (i, op) in [BvNot, BvNeg].into_iter().enumerate() {
        run(&format!("{} bv{w}", op.name()), op, 300, 240 + i as u64, |rng| {
            (vec![random_bv(rng, w)], random_bv(rng, w))
        });
    }
    run("concat", BvConcat, 300, 250, |rng| {
        (vec![random_bv(rng, 3), random_bv(rng, 2)], random_bv(rng, 5))
    });
    run("extract 4 2", BvExtract(4, 2), 300, 251, |rng| {
        (vec![random_bv(rng, 5)], random_bv(rng, 3))
    });
    run("extract 2 0", BvExtract(2, 0), 300, 252, |rng| {
        (vec![random_bv(rng, 5)], random_bv(rng, 3))
    });
    run("extract 3 1", BvExtract(3, 1), 300, 253, |rng| {
        (vec![random_bv(rng, 5)], random_bv(rng, 3))
    });
    run("zero_extend 2", BvZeroExtend(2), 300, 254, |rng| {
        (vec![random_bv(rng, 3)], random_bv(rng, 5))
    });
    run("sign_extend 2", BvSignExtend(2), 300, 255, |rng| {
        (vec![random_bv(rng, 3)], random_bv(rng, 5))
    });
}

/// Brute force for operations whose first two float operands are one
/// variable (the solver's diagonal projections).
fn trial_diagonal(op: &Op, args: Vec<Domain>, res: Domain, first: usize, tally: &mut Tally) {
    let cfg = CpConfig::default().with_eps(0.0, 0.0);
    let mut sols = Vec::new();
    let rest: Vec<Vec<Value>> = args.iter().map(members).collect();
    // enumerate with positions first and first+1 tied
    let mut idx = vec![0usize; args.len()];
    'outer: loop {
        if rest.iter().enumerate().all(|(k, v)| k == first + 1 || !v.is_empty()) {
            let mut t: Vec<Value> = Vec::new();
            for k in 0..args.len() {
                t.push(if k == first + 1 { t[first] } else { rest[k][idx[k]] });
            }
            let r = apply(op, &t).unwrap();
            if res.contains(&r) {
                sols.push((t, r));
            }
        } else {
            break;
        }
        let mut k = 0;
        loop {
            if k == idx.len() {
                break 'outer;
            }
            if k != first + 1 {
                idx[k] += 1;
                if idx[k] < rest[k].len() {
                    break;
                }
                idx[k] = 0;
            }
            k += 1;
        }
    }
    let (mut a2, mut r2) = (args.clone(), res);
    let ok = fpsym_solver::cp::propagate_op_diagonal(op, &mut a2, &mut r2, &cfg);
    tally.trials += 1;
    if sols.is_empty() {
        return;
    }
    tally.with_solutions += 1;
    assert!(
        ok,
        "{op:?} diagonal: failed with solutions {:?}; {args:?} -> {res:?}",
        sols[0]
    );
    for (t, r) in &sols {
        for (i, v) in t.iter().enumerate() {
            assert!(
                a2[i].contains(v),
                "{op:?} diagonal: lost {t:?} -> {r:?}; {args:?} -> {res:?} narrowed to {a2:?} -> {r2:?}"
            );
        }
        assert!(
            r2.contains(r),
            "{op:?} diagonal: lost result of {t:?} -> {r:?}; narrowed to {a2:?} -> {r2:?}"
        );
    }
}

#[test]
fn diagonal_sound() {
    for fmt in [f33(), f44()] {
        let mut rng = StdRng::seed_from_u64(300);
        for op in [
            Op::FpAdd,
            Op::FpSub,
            Op::FpMul,
            Op::FpDiv,
            Op::FpFma,
            Op::FpMin,
            Op::FpMax,
        ] {
            let mut t = Tally::default();
            let first = usize::from(!matches!(op, Op::FpMin | Op::FpMax));
            for _ in 0..150 {
                let x = random_fp(&mut rng, fmt);
                let mut args = Vec::new();
                if first == 1 {
                    args.push(random_rm(&mut rng));
                }
                args.push(x);
                args.push(x);
                if matches!(op, Op::FpFma) {
                    args.push(random_fp(&mut rng, fmt));
                }
                trial_diagonal(&op, args, random_fp(&mut rng, fmt), first, &mut t);
            }
            report(&format!("{} diagonal {fmt}", op.name()), &t);
        }
    }
}

/// A random interval of `fmt` containing `v` (ordinal offsets of random magnitude).
fn interval_around(rng: &mut StdRng, v: Float) -> FloatInterval {
    let fmt = v.format();
    let max = Float::infinity(fmt, false).ordinal().unwrap();
    let wide = |rng: &mut StdRng| -> i128 {
        match rng.gen_range(0..4) {
            0 => 0,
            1 => rng.gen_range(0..4),
            2 => rng.gen_range(0..1 << 20),
            _ => rng.gen_range(0..=max),
        }
    };
    match v.ordinal() {
        None => {
            if rng.gen_bool(0.5) {
                FloatInterval::nan_only(fmt)
            } else {
                random_interval(rng, fmt).with_nan(true)
            }
        }
        Some(o) => {
            let lo = o.saturating_sub(wide(rng)).max(-max - 1);
            let hi = o.saturating_add(wide(rng)).min(max);
            FloatInterval::new(
                Float::from_ordinal(fmt, lo).unwrap(),
                Float::from_ordinal(fmt, hi).unwrap(),
                rng.gen_bool(0.3),
            )
        }
    }
}

fn domain_around(rng: &mut StdRng, v: &Value) -> Domain {
    match v {
        Value::Fp(x) => Domain::Fp(interval_around(rng, *x)),
        Value::Rm(m) => {
            if rng.gen_bool(0.5) {
                Domain::Rm(RmSet::point(*m))
            } else {
                Domain::Rm(RmSet::ALL)
            }
        }
        Value::Bool(b) => Domain::Bool(if rng.gen_bool(0.5) {
            BoolSet::point(*b)
        } else {
            BoolSet::BOTH
        }),
        Value::Bv(b) => {
            let m = b.mask();
            let lo = b.bits().saturating_sub(rng.gen_range(0..1000u128));
            let hi = b.bits().saturating_add(rng.gen_range(0..1000u128)).min(m);
            Domain::Bv(BvRange::new(b.width(), lo, hi))
        }
    }
}

/// Soundness on wide formats (binary16 … binary128, x87 values), where
/// enumeration is impossible: sample a solution, build random domains
/// around it, propagate, and check the solution survives.
#[test]
fn sampled_soundness_wide_formats() {
    let mut rng = StdRng::seed_from_u64(4242);
    let cfg = CpConfig::default().with_eps(0.0, 0.0);
    let formats = [
        Format::BINARY16,
        Format::BINARY32,
        Format::BINARY64,
        Format::X86_FP80.smtlib(),
        Format::BINARY128,
    ];
    let mut checked = 0;
    for i in 0..1500 {
        let fmt = formats[i % formats.len()];
        let rmv = Value::Rm(RoundingMode::ALL[rng.gen_range(0..5)]);
        let fv = |rng: &mut StdRng| Value::Fp(random_float(rng, fmt));
        let nanv = |rng: &mut StdRng| {
            if rng.gen_bool(0.05) {
                Value::Fp(Float::nan(fmt))
            } else {
                fv(rng)
            }
        };
        let (op, vals): (Op, Vec<Value>) = match rng.gen_range(0..16) {
            0 => (Op::FpAdd, vec![rmv, nanv(&mut rng), nanv(&mut rng)]),
            1 => (Op::FpSub, vec![rmv, nanv(&mut rng), nanv(&mut rng)]),
            2 => (Op::FpMul, vec![rmv, nanv(&mut rng), nanv(&mut rng)]),
            3 => (Op::FpDiv, vec![rmv, nanv(&mut rng), nanv(&mut rng)]),
            4 => (Op::FpFma, vec![rmv, nanv(&mut rng), nanv(&mut rng), nanv(&mut rng)]),
            5 => (Op::FpSqrt, vec![rmv, nanv(&mut rng)]),
            6 => (Op::FpRoundToIntegral, vec![rmv, nanv(&mut rng)]),
            7 => (Op::FpRem, vec![nanv(&mut rng), nanv(&mut rng)]),
            8 => (
                if rng.gen() { Op::FpMin } else { Op::FpMax },
                vec![nanv(&mut rng), nanv(&mut rng)],
            ),
            9 => (Op::ToFpFromFp(Format::BINARY32), vec![rmv, nanv(&mut rng)]),
            10 => (
                [Op::FpLeq, Op::FpLt, Op::FpEq, Op::Eq][rng.gen_range(0..4)].clone(),
                vec![nanv(&mut rng), nanv(&mut rng)],
            ),
            11 => (
                [Op::FpIsNormal, Op::FpIsSubnormal, Op::FpIsZero, Op::FpIsNegative][rng.gen_range(0..4)].clone(),
                vec![nanv(&mut rng)],
            ),
            12 => (Op::FpToSbv(32), vec![rmv, nanv(&mut rng)]),
            13 => (Op::FpToUbv(64), vec![rmv, nanv(&mut rng)]),
            14 => (
                Op::ToFpFromSbv(fmt),
                vec![rmv, Value::Bv(BvValue::new(64, rng.gen::<u64>() as u128))],
            ),
            _ => (
                Op::ToFpFromBits(fmt),
                vec![Value::Bv(BvValue::new(fmt.packed_width(), rng.gen::<u128>()))],
            ),
        };
        let r = apply(&op, &vals).unwrap();
        let mut args: Vec<Domain> = vals.iter().map(|v| domain_around(&mut rng, v)).collect();
        let mut res = domain_around(&mut rng, &r);
        let (a0, r0) = (args.clone(), res);
        let ok = propagate_op(&op, &mut args, &mut res, &cfg);
        assert!(
            ok,
            "{op:?} failed on a solution {vals:?} -> {r:?}; domains {a0:?} -> {r0:?}"
        );
        for (d, v) in args.iter().zip(&vals) {
            assert!(
                d.contains(v),
                "{op:?} lost {v:?} of {vals:?} -> {r:?}; domains {a0:?} -> {r0:?} narrowed to {args:?} -> {res:?}"
            );
        }
        assert!(
            res.contains(&r),
            "{op:?} lost the result {r:?} of {vals:?}; {a0:?} -> {r0:?} narrowed to {args:?} -> {res:?}"
        );
        checked += 1;
    }
    assert_eq!(checked, 1500);
}
