//! Filtering by maximum ULP: seed 000's Examples 4.1–4.3 in the paper's
//! subnormal-free setting and in IEEE binary32 with subnormals, μ⊕ of
//! Definition 4.2 (with the paper's correction), and the Marre–Michel bounds
//! checked against brute force at their edges.

use fpsym_expr::Op;
use fpsym_float::{Float, FloatInterval, Format, RoundingMode};
use fpsym_solver::cp::ulp_max::{add_bounds, alpha_beta, div_bound, mu_add, mul_bound, Setting};
use fpsym_solver::cp::{propagate_op_counting, CpConfig, Domain, RmSet, Stats};

const RNE: RoundingMode = RoundingMode::NearestTiesToEven;

fn f32v(x: f32) -> Float {
    Float::from_f32(x)
}
fn p2(k: i64) -> Float {
    Float::pow2(Format::BINARY32, k).unwrap()
}
/// `1.1…1 × 2^k` in binary32.
fn ones(k: i64) -> Float {
    Float::from_fields(Format::BINARY32, false, (k + 127) as u64, u128::MAX)
}
fn iv(l: Float, h: Float) -> FloatInterval {
    FloatInterval::new(l, h, false)
}
fn full() -> FloatInterval {
    FloatInterval::new(
        Float::infinity(Format::BINARY32, true),
        Float::infinity(Format::BINARY32, false),
        false,
    )
}

/// Runs one propagator; returns the narrowed float operands and the counters.
fn prop(
    op: Op,
    x: FloatInterval,
    y: FloatInterval,
    z: FloatInterval,
    ulp: bool,
) -> (FloatInterval, FloatInterval, Stats) {
    let mut args = vec![Domain::Rm(RmSet::point(RNE)), Domain::Fp(x), Domain::Fp(y)];
    let mut res = Domain::Fp(z);
    let mut st = Stats::default();
    let cfg = CpConfig::default().with_ulp_max(ulp).with_eps(0.0, 0.0);
    assert!(propagate_op_counting(&op, &mut args, &mut res, &cfg, &mut st));
    (*args[1].as_fp().unwrap(), *args[2].as_fp().unwrap(), st)
}

#[test]
fn example_4_1_addition() {
    // z = x ⊕ y, z ∈ [1, 2], x ∈ [-2^50, 2^50], y ∈ [-2^30, 2^30]
    let z = iv(f32v(1.0), f32v(2.0));
    // μ⊕ = 2.0 (different binades), α = 1.1…1 × 2^24, β = α + 2 = 2^25;
    // the same in both settings (subnormals play no role for ⊕)
    assert_eq!(mu_add(f32v(1.0), f32v(2.0)), f32v(2.0));
    assert_eq!(alpha_beta(f32v(2.0)), (Some(ones(24)), Some(p2(25))));
    assert_eq!(add_bounds(&z), Some((ones(24).neg(), p2(25))));
    let (x, y) = (iv(p2(50).neg(), p2(50)), iv(p2(30).neg(), p2(30)));
    let (cx, cy, st0) = prop(Op::FpAdd, x, y, z, false);
    println!("Example 4.1 classical: x ∈ {cx:?}, y ∈ {cy:?}");
    assert_eq!(st0.ulp_max_firings, 0);
    // classical filtering stays around ±2^30
    assert!(cx.lo().unwrap().ordinal() < p2(29).neg().ordinal());
    let (ux, uy, st) = prop(Op::FpAdd, x, y, z, true);
    println!(
        "Example 4.1 ULP-Max:   x ∈ {ux:?}, y ∈ {uy:?}; NbE = {}, NbD = {}",
        st.ulp_max_firings, st.ulp_max_pruned
    );
    assert_eq!(ux, iv(ones(24).neg(), p2(25)));
    assert_eq!(uy, iv(ones(24).neg(), p2(25)));
    assert!(st.ulp_max_firings >= 2 && st.ulp_max_pruned > 1e8);
    // subtraction: z = x ⊖ y gives x ∈ [-α, β], y ∈ [-β, α] (Table I)
    let (sx, sy, _) = prop(Op::FpSub, x, y, z, true);
    assert_eq!(sx, iv(ones(24).neg(), p2(25)));
    assert_eq!(sy, iv(p2(25).neg(), ones(24)));
}

#[test]
fn definition_4_2_mu_with_correction() {
    // same binade: common prefix 1.01, then zl = 1.0100 has only zeros below:
    // the corrected μ is zl itself (the original algorithm gives 1.011)
    let (zl, zh) = (f32v(1.25), f32v(1.4375));
    assert_eq!(mu_add(zl, zh), zl);
    // zl = 1.0101: μ = 1.011 (prefix 1.01, then a = 1)
    assert_eq!(mu_add(f32v(1.3125), f32v(1.4375)), f32v(1.375));
    // equal bounds
    assert_eq!(mu_add(f32v(1.3125), f32v(1.3125)), f32v(1.3125));
    // subnormals: [3 f_min, 5 f_min] → 4 f_min
    let fm = Float::smallest(Format::BINARY32, false);
    let k = |n: u128| Float::from_fields(Format::BINARY32, false, 0, n);
    assert_eq!(mu_add(k(3), k(5)), k(4));
    // f_min = 2^-149: α = 2^-125 - 2^-149 = 1.1…1 × 2^-126, β = α + f_min = 2^-125
    assert_eq!(alpha_beta(fm), (Some(ones(-126)), Some(p2(-125))));
    // μ maximises α over the interval: compare with every member of a small range
    let lo = f32v(3.0);
    let mut v = lo;
    let hi = Float::from_ordinal(Format::BINARY32, lo.ordinal().unwrap() + 300).unwrap();
    let best = alpha_beta(mu_add(lo, hi)).1.unwrap();
    while v.ordinal() <= hi.ordinal() {
        let b = alpha_beta(v).1.unwrap();
        assert!(b.ordinal() <= best.ordinal(), "δ⊕({v}) = {b} exceeds δ⊕(μ) = {best}");
        v = v.succ().unwrap();
    }
}

#[test]
fn example_4_2_multiplication() {
    // z = x ⊗ y, z ∈ [2^-50, 2^-30], x, y ∈ [-inf, +inf]
    let m = p2(-30);
    assert_eq!(
        mul_bound(m, RNE, Setting::NoSubnormals),
        p2(96),
        "paper setting: 2^-30 · 2^126"
    );
    assert_eq!(mul_bound(m, RNE, Setting::Ieee), p2(119), "IEEE: 2^-30 · 2^149");
    let z = iv(p2(-50), p2(-30));
    let (x, y, st) = prop(Op::FpMul, full(), full(), z, true);
    println!("Example 4.2 (IEEE): x ∈ {x:?}, y ∈ {y:?}; NbE = {}", st.ulp_max_firings);
    assert_eq!(x, iv(p2(119).neg(), p2(119)));
    assert_eq!(y, iv(p2(119).neg(), p2(119)));
    // fpsym's classical projection already splits zeros off the divisor
    // interval, so it reaches the same bound without ULP-Max
    let (x0, y0, st0) = prop(Op::FpMul, full(), full(), z, false);
    assert_eq!((x0, y0), (x, y));
    assert_eq!(st0.ulp_max_firings, 0);
}

#[test]
fn example_4_3_division() {
    // z = x ⊘ y, z ∈ [-2^-110, -2^-121], x, y ∈ [-inf, +inf]
    let m = p2(-110);
    for s in [Setting::NoSubnormals, Setting::Ieee] {
        assert_eq!(div_bound(m, RNE, s), ones(17), "{s:?}: 2^-110 · f_max = 1.1…1 × 2^17");
    }
    let z = iv(p2(-110).neg(), p2(-121).neg());
    let (x, _, _) = prop(Op::FpDiv, full(), full(), z, true);
    println!("Example 4.3: x ∈ {x:?}");
    assert_eq!(x, iv(ones(17).neg(), ones(17)));
}

/// The division bound is exact (attained, and its successor is not a
/// solution); how often it differs from the paper's `|z| ⊗ f_max` is printed.
#[test]
fn division_bound_is_exact() {
    let fmt = Format::BINARY32;
    let big = Float::largest(fmt, false);
    let mut checked = 0;
    let mut above_paper = 0;
    let mut m = f32v(0.3);
    for _ in 0..200 {
        let b = div_bound(m, RNE, Setting::Ieee);
        // b is a solution: b ⊘ f_max <= m, and its successor is not
        assert!(b.div(big, RNE).value.ordinal() <= m.ordinal());
        let n = b.succ().unwrap();
        assert!(n.is_infinite() || n.div(big, RNE).value.ordinal() > m.ordinal());
        let paper = m.mul(big, RNE).value;
        if paper.ordinal() < b.ordinal() {
            above_paper += 1;
        }
        checked += 1;
        m = m.mul(f32v(0.77), RNE).value;
    }
    println!("division bound: {above_paper} of {checked} cases exceed the paper's |z| ⊗ f_max");
}

/// Brute force at the edges of the Marre–Michel bounds on binary16, every
/// rounding mode: no `x` beyond `β` (or below `-α`) has a partner `y` with
/// `x ⊕ y = z`, and the bounds are attained.
#[test]
fn add_bounds_sound_and_attained_binary16() {
    let fmt = Format::BINARY16;
    let max_ord = Float::largest(fmt, false).ordinal().unwrap();
    let mut tested = 0;
    for zo in (1..max_ord).step_by(97) {
        let z = Float::from_ordinal(fmt, zo).unwrap();
        let (Some(alpha), Some(beta)) = alpha_beta(z) else {
            continue;
        };
        for rm in RoundingMode::ALL {
            // attained: β + (-α) = z exactly
            assert_eq!(beta.add(alpha.neg(), rm).value, z);
            let solvable = |x: Float| -> bool {
                // y with x ⊕ y = z lies within a few ulps of z - x
                let c = z.sub(x, RoundingMode::NearestTiesToEven).value;
                if !c.is_finite() {
                    return false;
                }
                let o = c.ordinal().unwrap();
                (-4..=4)
                    .any(|d| Float::from_ordinal(fmt, o + d).is_some_and(|y| !y.is_nan() && x.add(y, rm).value == z))
            };
            for k in 1..=40 {
                let xo = beta.ordinal().unwrap() + k;
                if xo <= max_ord {
                    assert!(
                        !solvable(Float::from_ordinal(fmt, xo).unwrap()),
                        "z={z} rm={rm} x above β"
                    );
                }
                let xo = alpha.neg().ordinal().unwrap() - k;
                if xo >= -max_ord - 1 {
                    assert!(
                        !solvable(Float::from_ordinal(fmt, xo).unwrap()),
                        "z={z} rm={rm} x below -α"
                    );
                }
            }
            tested += 1;
        }
    }
    assert!(tested > 100);
}

#[test]
fn ulp_max_counts_in_stats_and_can_be_disabled() {
    let z = iv(f32v(1.0), f32v(2.0));
    let (x, y) = (iv(p2(50).neg(), p2(50)), iv(p2(30).neg(), p2(30)));
    let (_, _, on) = prop(Op::FpAdd, x, y, z, true);
    let (_, _, off) = prop(Op::FpAdd, x, y, z, false);
    assert!(on.ulp_max_firings > 0 && on.ulp_max_pruned > 0.0);
    assert_eq!((off.ulp_max_firings, off.ulp_max_pruned), (0, 0.0));
}

fn bits(b: u32) -> Float {
    Float::from_packed(Format::BINARY32, b as u128)
}

/// Test vectors of /work/notes/cp_design.md §2.2–§2.6 (IEEE traps of the paper's formulas).
#[test]
fn ieee_vectors_from_the_design_notes() {
    use RoundingMode::*;
    let fm = Float::smallest(Format::BINARY32, false);
    // ⊗ with z = f_min: |z|/f_min = 1 is unsound (1.25 * f_min rounds to f_min in RNE)
    assert_eq!(mul_bound(fm, RNE, Setting::Ieee), bits(0x3FBF_FFFF));
    assert_eq!(mul_bound(fm, NearestTiesToAway, Setting::Ieee), bits(0x3FBF_FFFF));
    assert_eq!(mul_bound(fm, TowardNegative, Setting::Ieee), bits(0x3FFF_FFFF));
    assert_eq!(mul_bound(fm, TowardZero, Setting::Ieee), bits(0x3FFF_FFFF));
    assert_eq!(mul_bound(fm, TowardPositive, Setting::Ieee), f32v(1.0));
    assert_eq!(f32v(1.25).mul(fm, RNE).value, fm);
    // ⊘ with z = f_min: |z| ⊗ f_max is unsound; exact bound 3·2^-22 - 2^-44
    assert_eq!(div_bound(fm, RNE, Setting::Ieee), bits(0x353F_FFFF));
    assert_eq!(p2(-21).div(Float::largest(Format::BINARY32, false), RNE).value, fm);
    // Example 4.3 in the directed modes: z < 0, so the magnitude rounds in the mirrored mode
    let z = iv(p2(-110).neg(), p2(-121).neg());
    for (rm, want) in [
        (RNE, ones(17)),
        (NearestTiesToAway, ones(17)),
        (TowardNegative, ones(17)),
        (TowardPositive, p2(18)),
        (TowardZero, p2(18)),
    ] {
        let mut args = vec![Domain::Rm(RmSet::point(rm)), Domain::Fp(full()), Domain::Fp(full())];
        let mut res = Domain::Fp(z);
        assert!(propagate_op_counting(
            &Op::FpDiv,
            &mut args,
            &mut res,
            &CpConfig::default().with_eps(0.0, 0.0),
            &mut Stats::default()
        ));
        assert_eq!(*args[1].as_fp().unwrap(), iv(want.neg(), want), "{rm:?}");
    }
    // ⊕ with z = f_min: [-(2^-125 - 2^-149), 2^-125], all modes
    assert_eq!(add_bounds(&iv(fm, fm)), Some((bits(0x80FF_FFFF), bits(0x0100_0000))));
    // Definition 4.2's correction: Z = [1, 1.5] has μ = 1 (β = 2^24); the
    // uncorrected μ = 1.5 would give β = 2^23 + 1 and lose x = 2^24, y = -(2^24 - 1)
    assert_eq!(mu_add(f32v(1.0), f32v(1.5)), f32v(1.0));
    assert_eq!(alpha_beta(f32v(1.0)), (Some(f32v(16777215.0)), Some(f32v(16777216.0))));
    assert_eq!(f32v(16777216.0).add(f32v(-16777215.0), RNE).value, f32v(1.0));
    assert_eq!(mu_add(f32v(1.25), f32v(1.375)), f32v(1.25));
    assert_eq!(alpha_beta(f32v(1.25)).1, Some(bits(0x4A80_0002)));
}

/// Footnote 4 of seed 000 has a typo (`x̄ = mid(z̄, z̄⁺) ⊖ ȳ`) and rounds
/// midpoints; the solver's projections keep the solutions those lose.
#[test]
fn footnote_4_counterexamples() {
    // Z = [1, 1], X = [-10, 10], Y = [+0, 1]: x = 1 (with y = +0) is a solution
    let (x, y, _) = prop(
        Op::FpAdd,
        iv(f32v(-10.0), f32v(10.0)),
        iv(Float::zero(Format::BINARY32, false), f32v(1.0)),
        iv(f32v(1.0), f32v(1.0)),
        false,
    );
    assert!(x.contains(f32v(1.0)) && x.contains(f32v(0.0)) && y.contains(f32v(0.0)));
    // Z = [1, 1], Y = {-2^-24}: x = 1 + 2^-23 is a solution (a tie to even)
    let x1 = f32v(1.0 + f32::EPSILON);
    assert_eq!(x1.add(p2(-24).neg(), RNE).value, f32v(1.0));
    let (x, _, _) = prop(
        Op::FpAdd,
        full(),
        iv(p2(-24).neg(), p2(-24).neg()),
        iv(f32v(1.0), f32v(1.0)),
        false,
    );
    assert!(x.contains(x1), "{x:?}");
}
