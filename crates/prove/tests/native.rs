//! The interval domain against the machine. Every transfer function of
//! [`fpsym_prove::itv`] is applied to intervals whose ends are edge values
//! (signed zeros, subnormals, the extremes, infinities, integer and float
//! range limits, values whose rounding differs by mode); the result must
//! contain what the machine computes, in each of the four rounding modes
//! (`fesetround`), for every edge value inside the operands. The machine's
//! results come from one C program built with clang-14 at -O0 and run
//! natively (volatile operands: nothing is folded at compile time).
//!
//! The unit tests of `itv` check the same claims exhaustively on tiny
//! formats against fpsym-float; this test checks binary32 and binary64
//! against the hardware itself.

use fpsym_float::{Float, FloatInterval, Format};
use fpsym_frontend::llvm_ir::FPPredicate;
use fpsym_prove::itv;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::process::Command;

const MODES: [&str; 4] = ["FE_TONEAREST", "FE_DOWNWARD", "FE_UPWARD", "FE_TOWARDZERO"];

/// Double edge values (NaN last).
fn doubles() -> Vec<f64> {
    let e = f64::EPSILON;
    let mut v = vec![
        f64::INFINITY,
        f64::MAX,
        1e308,
        1.8446744073709552e19,
        9.223_372_036_854_776e18,
        9.223_372_036_854_775e18,
        1.0e16,
        9007199254740994.0,
        9007199254740992.0,
        4294967296.0,
        4294967295.0,
        2147483648.0,
        2147483647.5,
        2147483647.0,
        16777217.0,
        f32::MAX as f64 * (1.0 + 2f64.powi(-30)),
        f32::MAX as f64,
        3.0,
        2.0,
        1.5,
        1.0 + e,
        1.0,
        1.0 - e / 2.0,
        0.5,
        1.0 / 3.0,
        0.1,
        f32::MIN_POSITIVE as f64,
        1e-40,
        1.401298464324817e-45,
        7.0e-46,
        f64::MIN_POSITIVE,
        f64::MIN_POSITIVE - 5e-324,
        5e-324,
        0.0,
    ];
    let neg: Vec<f64> = v.iter().map(|x| -x).collect();
    v.extend(neg);
    v.push(f64::NAN);
    v
}

/// Float edge values (NaN last).
fn floats() -> Vec<f32> {
    let e = f32::EPSILON;
    let mut v = vec![
        f32::INFINITY,
        f32::MAX,
        1e38,
        1.8446744e19,
        9.223372e18,
        4294967296.0,
        2147483648.0,
        2147483520.0,
        16777216.0,
        16777215.0,
        3.0,
        2.0,
        1.5,
        1.0 + e,
        1.0,
        1.0 - e / 2.0,
        0.5,
        1.0 / 3.0,
        0.1,
        f32::MIN_POSITIVE,
        f32::MIN_POSITIVE - 1e-45,
        1e-40,
        1e-45,
        0.0,
    ];
    let neg: Vec<f32> = v.iter().map(|x| -x).collect();
    v.extend(neg);
    v.push(f32::NAN);
    v
}

/// Signed integers converted to floats (`sitofp`).
const SIGNED: [i64; 18] = [
    i64::MIN,
    i64::MIN + 1,
    -(1 << 53) - 1,
    -(1 << 31) - 1,
    -(1 << 31),
    -(1 << 24) - 1,
    -3,
    -1,
    0,
    1,
    3,
    (1 << 24) + 1,
    (1 << 31) - 1,
    1 << 31,
    (1 << 53) + 1,
    (1 << 62) + 1,
    i64::MAX - 1024,
    i64::MAX,
];

/// Unsigned integers converted to floats (`uitofp`).
const UNSIGNED: [u64; 11] = [
    0,
    1,
    (1 << 24) + 1,
    (1 << 53) + 1,
    (1 << 63) - 1,
    1 << 63,
    (1 << 63) + 1,
    (1 << 63) + 1025,
    u64::MAX - 1025,
    u64::MAX - 1,
    u64::MAX,
];

/// The C program: every operation on every pair of edge values in every
/// mode, one line each: `OP MODE I J BITS` (BITS in hex; J 0 for unary).
fn program(d: &[f64], f: &[f32]) -> String {
    let mut p = String::from(
        "#include <fenv.h>\n#include <math.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <string.h>\n",
    );
    let list = |v: Vec<String>| v.join(", ");
    let _ = writeln!(
        p,
        "static const uint64_t D[] = {{{}}};",
        list(d.iter().map(|x| format!("0x{:016x}ull", x.to_bits())).collect())
    );
    let _ = writeln!(
        p,
        "static const uint32_t F[] = {{{}}};",
        list(f.iter().map(|x| format!("0x{:08x}u", x.to_bits())).collect())
    );
    let _ = writeln!(
        p,
        "static const int64_t S[] = {{{}}};",
        list(SIGNED.iter().map(|x| format!("(int64_t){}ull", *x as u64)).collect())
    );
    let _ = writeln!(
        p,
        "static const uint64_t U[] = {{{}}};",
        list(UNSIGNED.iter().map(|x| format!("{x}ull")).collect())
    );
    let _ = writeln!(p, "static const int MODES[] = {{{}}};", MODES.join(", "));
    p.push_str(
        r#"
#define N(a) ((int)(sizeof a / sizeof a[0]))
static double dbl(uint64_t b) { double x; memcpy(&x, &b, 8); return x; }
static float flt(uint32_t b) { float x; memcpy(&x, &b, 4); return x; }
static uint64_t bd(double x) { uint64_t b; memcpy(&b, &x, 8); return b; }
static uint32_t bf(float x) { uint32_t b; memcpy(&b, &x, 4); return b; }
volatile double va, vb; volatile float fa, fb; volatile int64_t vs; volatile uint64_t vu;
int main(void) {
  for (int m = 0; m < 4; m++) {
    fesetround(MODES[m]);
    for (int i = 0; i < N(D); i++) {
      va = dbl(D[i]);
      printf("dsqrt %d %d 0 %llx\n", m, i, (unsigned long long)bd(sqrt(va)));
      printf("trunc %d %d 0 %x\n", m, i, bf((float)va));
      for (int j = 0; j < N(D); j++) {
        va = dbl(D[i]); vb = dbl(D[j]);
        printf("dadd %d %d %d %llx\n", m, i, j, (unsigned long long)bd(va + vb));
        printf("dsub %d %d %d %llx\n", m, i, j, (unsigned long long)bd(va - vb));
        printf("dmul %d %d %d %llx\n", m, i, j, (unsigned long long)bd(va * vb));
        printf("ddiv %d %d %d %llx\n", m, i, j, (unsigned long long)bd(va / vb));
      }
    }
    for (int i = 0; i < N(F); i++) {
      fa = flt(F[i]);
      printf("fsqrt %d %d 0 %x\n", m, i, bf(sqrtf(fa)));
      printf("ext %d %d 0 %llx\n", m, i, (unsigned long long)bd((double)fa));
      for (int j = 0; j < N(F); j++) {
        fa = flt(F[i]); fb = flt(F[j]);
        printf("fadd %d %d %d %x\n", m, i, j, bf(fa + fb));
        printf("fsub %d %d %d %x\n", m, i, j, bf(fa - fb));
        printf("fmul %d %d %d %x\n", m, i, j, bf(fa * fb));
        printf("fdiv %d %d %d %x\n", m, i, j, bf(fa / fb));
      }
    }
    for (int i = 0; i < N(S); i++) {
      vs = S[i];
      printf("sd %d %d 0 %llx\n", m, i, (unsigned long long)bd((double)vs));
      printf("sf %d %d 0 %x\n", m, i, bf((float)vs));
      vs = (int32_t)S[i];
      printf("s32d %d %d 0 %llx\n", m, i, (unsigned long long)bd((double)(int32_t)vs));
      printf("s32f %d %d 0 %x\n", m, i, bf((float)(int32_t)vs));
    }
    for (int i = 0; i < N(U); i++) {
      vu = U[i];
      printf("ud %d %d 0 %llx\n", m, i, (unsigned long long)bd((double)vu));
      printf("uf %d %d 0 %x\n", m, i, bf((float)vu));
    }
  }
  for (int i = 0; i < N(D); i++) {
    va = dbl(D[i]);
    printf("dneg 0 %d 0 %llx\n", i, (unsigned long long)bd(-va));
    printf("dabs 0 %d 0 %llx\n", i, (unsigned long long)bd(fabs(va)));
    printf("dtoi32 0 %d 0 %x\n", i, (uint32_t)(int32_t)va);
    printf("dtoi64 0 %d 0 %llx\n", i, (unsigned long long)(int64_t)va);
    printf("dtou32 0 %d 0 %x\n", i, (uint32_t)va);
    printf("dtou64 0 %d 0 %llx\n", i, (unsigned long long)(uint64_t)va);
    for (int j = 0; j < N(D); j++) {
      va = dbl(D[i]); vb = dbl(D[j]);
      printf("dcmp 0 %d %d %d%d%d%d%d%d%d\n", i, j, va == vb, va != vb, va < vb, va <= vb, va > vb, va >= vb, isunordered(va, vb));
    }
  }
  for (int i = 0; i < N(F); i++) {
    fa = flt(F[i]);
    printf("fneg 0 %d 0 %x\n", i, bf(-fa));
    printf("fabs 0 %d 0 %x\n", i, bf(fabsf(fa)));
    printf("ftoi32 0 %d 0 %x\n", i, (uint32_t)(int32_t)fa);
    printf("ftoi64 0 %d 0 %llx\n", i, (unsigned long long)(int64_t)fa);
    printf("ftou64 0 %d 0 %llx\n", i, (unsigned long long)(uint64_t)fa);
    for (int j = 0; j < N(F); j++) {
      fa = flt(F[i]); fb = flt(F[j]);
      printf("fcmp 0 %d %d %d%d%d%d%d%d%d\n", i, j, fa == fb, fa != fb, fa < fb, fa <= fb, fa > fb, fa >= fb, isunordered(fa, fb));
    }
  }
  return 0;
}
"#,
    );
    p
}

fn clang() -> &'static str {
    if Command::new("clang-14").arg("--version").output().is_ok() {
        "clang-14"
    } else {
        panic!("clang-14 is missing: the Debian package clang-14 (scripts/bootstrap installs it)")
    }
}

/// The machine's results: (op, mode, i, j) -> the result's text.
type Table = HashMap<(String, usize, usize, usize), String>;

fn run_natively(src: &str) -> Table {
    let dir = std::env::temp_dir().join(format!("fpsym-prove-native-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (c, exe) = (dir.join("ops.c"), dir.join("ops"));
    std::fs::write(&c, src).unwrap();
    let o = Command::new(clang())
        .args(["-O0", "-ffp-contract=off", "-frounding-math", "-o"])
        .arg(&exe)
        .arg(&c)
        .arg("-lm")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = Command::new(&exe).output().unwrap();
    assert!(o.status.success());
    let _ = std::fs::remove_dir_all(&dir);
    let mut t = Table::new();
    for line in String::from_utf8(o.stdout).unwrap().lines() {
        let f: Vec<&str> = line.split(' ').collect();
        let n = |k: usize| f[k].parse::<usize>().unwrap();
        t.insert((f[0].to_string(), n(1), n(2), n(3)), f[4].to_string());
    }
    t
}

/// The machine's result as a float of `fmt`.
fn result(t: &Table, op: &str, m: usize, i: usize, j: usize, fmt: Format) -> Float {
    let text = t
        .get(&(op.to_string(), m, i, j))
        .unwrap_or_else(|| panic!("no native result for {op} {m} {i} {j}"));
    Float::from_bits(fmt, u128::from_str_radix(text, 16).unwrap())
}

/// Operand intervals over edge values `e` (as floats of one format): each
/// value alone, each run of up to four neighbours in the total order, a
/// few wide ones, and NaN with some of them.
fn operands(e: &[Float]) -> Vec<FloatInterval> {
    let fmt = e[0].format();
    let mut sorted: Vec<Float> = e.iter().copied().filter(|x| !x.is_nan()).collect();
    sorted.sort_by_key(|x| x.ordinal().unwrap());
    let mut out: Vec<FloatInterval> = sorted.iter().map(|&x| FloatInterval::point(x)).collect();
    for w in 1..4 {
        for k in 0..sorted.len().saturating_sub(w) {
            out.push(FloatInterval::new(sorted[k], sorted[k + w], false));
        }
    }
    let (ninf, pinf) = (Float::infinity(fmt, true), Float::infinity(fmt, false));
    let (nz, pz, one) = (Float::zero(fmt, true), Float::zero(fmt, false), Float::from_f64(1.0));
    let one = one.convert(fmt, fpsym_float::RoundingMode::NearestTiesToEven).value;
    for (lo, hi) in [
        (ninf, pinf),
        (pz, pinf),
        (ninf, nz),
        (nz, pz),
        (one.neg(), one),
        (pz, one),
    ] {
        out.push(FloatInterval::new(lo, hi, false));
    }
    out.push(FloatInterval::nan_only(fmt));
    out.push(FloatInterval::new(one.neg(), one, true));
    out.push(FloatInterval::full(fmt));
    out
}

/// Which edge values (indices) an interval holds.
fn members(x: &FloatInterval, e: &[Float]) -> Vec<usize> {
    (0..e.len()).filter(|&i| x.contains(e[i])).collect()
}

/// Collects the failures (the first few are printed in the panic).
#[derive(Default)]
struct Failures(Vec<String>, usize);

impl Failures {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.1 += 1;
        if !ok {
            self.0.push(what());
        }
    }
    fn assert_none(&self, name: &str) {
        assert!(self.1 > 0, "{name}: nothing was checked");
        eprintln!(
            "{name}: {} checks against the machine, {} failures",
            self.1,
            self.0.len()
        );
        assert!(
            self.0.is_empty(),
            "{name}: {} results of the machine outside the analysis's interval:\n{}",
            self.0.len(),
            self.0.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
        );
    }
}

type Binary = fn(&FloatInterval, &FloatInterval) -> FloatInterval;

fn binary_ops(t: &Table, prefix: &str, e: &[Float], bad: &mut Failures) {
    let ops: [(&str, Binary); 4] = [
        ("add", itv::add),
        ("sub", itv::sub),
        ("mul", itv::mul),
        ("div", itv::div),
    ];
    let xs = operands(e);
    let mem: Vec<Vec<usize>> = xs.iter().map(|x| members(x, e)).collect();
    for (name, op) in ops {
        let code = format!("{prefix}{name}");
        for (a, ma) in xs.iter().zip(&mem) {
            for (b, mb) in xs.iter().zip(&mem) {
                let r = op(a, b);
                for &i in ma {
                    for &j in mb {
                        for m in 0..4 {
                            let v = result(t, &code, m, i, j, e[0].format());
                            bad.check(r.contains(v), || {
                                format!(
                                    "{code} {a:?} {b:?} in {}: {:?} {:?} gives {v:?}, not in {r:?}",
                                    MODES[m], e[i], e[j]
                                )
                            });
                        }
                    }
                }
            }
        }
    }
}

/// `x * x` (the transfer function of an `fmul` of one operand by itself):
/// `|x| * |x|` holds the machine's square of every member, in every mode.
fn squares(t: &Table, prefix: &str, e: &[Float], bad: &mut Failures) {
    let code = format!("{prefix}mul");
    for a in operands(e) {
        let r = itv::mul(&itv::abs(&a), &itv::abs(&a));
        for i in members(&a, e) {
            for m in 0..4 {
                let v = result(t, &code, m, i, i, e[0].format());
                bad.check(r.contains(v), || {
                    format!(
                        "{code} square {a:?} in {}: {:?} gives {v:?}, not in {r:?}",
                        MODES[m], e[i]
                    )
                });
            }
        }
    }
}

fn unary_op(
    t: &Table,
    code: &str,
    e: &[Float],
    to: Format,
    op: impl Fn(&FloatInterval) -> FloatInterval,
    bad: &mut Failures,
) {
    for a in operands(e) {
        let r = op(&a);
        for i in members(&a, e) {
            for m in 0..4 {
                let v = result(t, code, m, i, 0, to);
                bad.check(r.contains(v), || {
                    format!("{code} {a:?} in {}: {:?} gives {v:?}, not in {r:?}", MODES[m], e[i])
                });
            }
        }
    }
}

/// Every `fcmp` predicate, from the machine's `==`, `!=`, `<`, `<=`, `>`,
/// `>=` and `isunordered` (in that order in the table's text).
fn predicate(p: FPPredicate, r: &[bool]) -> bool {
    let [eq, ne, lt, le, gt, ge, uno] = [r[0], r[1], r[2], r[3], r[4], r[5], r[6]];
    use FPPredicate::*;
    match p {
        False => false,
        OEQ => eq,
        OGT => gt,
        OGE => ge,
        OLT => lt,
        OLE => le,
        ONE => lt || gt,
        ORD => !uno,
        UNO => uno,
        UEQ => uno || eq,
        UGT => uno || gt,
        UGE => uno || ge,
        ULT => uno || lt,
        ULE => uno || le,
        UNE => ne,
        True => true,
    }
}

const PREDICATES: [FPPredicate; 16] = {
    use FPPredicate::*;
    [
        False, OEQ, OGT, OGE, OLT, OLE, ONE, ORD, UNO, UEQ, UGT, UGE, ULT, ULE, UNE, True,
    ]
};

/// `fcmp`'s transfer functions (what the analysis narrows a branch's
/// operands to, and whether each side can be taken), every predicate.
fn comparisons(t: &Table, code: &str, e: &[Float], bad: &mut Failures) {
    let xs = operands(e);
    let mem: Vec<Vec<usize>> = xs.iter().map(|x| members(x, e)).collect();
    let native = |i: usize, j: usize| -> Vec<bool> {
        t.get(&(code.to_string(), 0, i, j))
            .unwrap()
            .bytes()
            .map(|c| c == b'1')
            .collect()
    };
    // `x PRED x`, one operand compared with itself
    for (a, ma) in xs.iter().zip(&mem) {
        for p in PREDICATES {
            for &i in ma {
                let holds = predicate(p, &native(i, i));
                let kept = itv::fcmp_self(p, holds, a);
                bad.check(kept.is_some_and(|x| x.contains(e[i])), || {
                    format!(
                        "{code} {p:?} {a:?} with itself: {:?} is {holds}, refined to {kept:?}",
                        e[i]
                    )
                });
            }
        }
    }
    for (a, ma) in xs.iter().zip(&mem) {
        for (b, mb) in xs.iter().zip(&mem) {
            for p in PREDICATES {
                let sides = [itv::fcmp_refine(p, false, a, b), itv::fcmp_refine(p, true, a, b)];
                let outcomes = itv::fcmp_outcomes(p, a, b);
                for &i in ma {
                    for &j in mb {
                        let holds = predicate(p, &native(i, j));
                        let kept = &sides[holds as usize];
                        bad.check(kept.is_some_and(|(x, y)| x.contains(e[i]) && y.contains(e[j])), || {
                            format!(
                                "{code} {p:?} {a:?} {b:?}: {:?} vs {:?} is {holds}, refined to {kept:?}",
                                e[i], e[j]
                            )
                        });
                        bad.check(if holds { outcomes.0 } else { outcomes.1 }, || {
                            format!(
                                "{code} {p:?} {a:?} {b:?}: {:?} vs {:?} is {holds}, outcomes {outcomes:?}",
                                e[i], e[j]
                            )
                        });
                    }
                }
            }
        }
    }
}

fn to_integers(t: &Table, code: &str, e: &[Float], width: u32, signed: bool, bad: &mut Failures) {
    for a in operands(e) {
        let Some((lo, hi)) = itv::to_ints(&a, width, signed) else {
            continue;
        };
        for i in members(&a, e) {
            let bits = u128::from_str_radix(t.get(&(code.to_string(), 0, i, 0)).unwrap(), 16).unwrap();
            let v = if signed && bits >> (width - 1) & 1 == 1 {
                bits as i128 - (1i128 << width)
            } else {
                bits as i128
            };
            bad.check(lo <= v && v <= hi, || {
                format!("{code} {a:?}: {:?} gives {v}, not in [{lo}, {hi}]", e[i])
            });
        }
    }
}

fn from_integers(t: &Table, code: &str, ints: &[i128], to: Format, bad: &mut Failures) {
    let mut idx: Vec<usize> = (0..ints.len()).collect();
    idx.sort_by_key(|&i| ints[i]);
    for (p, &lo_i) in idx.iter().enumerate() {
        for &hi_i in &idx[p..] {
            let (lo, hi) = (ints[lo_i], ints[hi_i]);
            let r = itv::from_ints(to, lo, hi);
            for (i, &n) in ints.iter().enumerate() {
                if n < lo || n > hi {
                    continue;
                }
                for m in 0..4 {
                    let v = result(t, code, m, i, 0, to);
                    bad.check(r.contains(v), || {
                        format!("{code} [{lo}, {hi}] in {}: {n} gives {v:?}, not in {r:?}", MODES[m])
                    });
                }
            }
        }
    }
}

#[test]
fn every_transfer_function_contains_what_the_machine_computes_in_every_rounding_mode() {
    let (d, f) = (doubles(), floats());
    let t = run_natively(&program(&d, &f));
    let (f64s, f32s) = (Format::BINARY64, Format::BINARY32);
    let de: Vec<Float> = d.iter().map(|&x| Float::from_f64(x)).collect();
    let fe: Vec<Float> = f.iter().map(|&x| Float::from_f32(x)).collect();
    let mut bad = Failures::default();
    binary_ops(&t, "d", &de, &mut bad);
    binary_ops(&t, "f", &fe, &mut bad);
    squares(&t, "d", &de, &mut bad);
    squares(&t, "f", &fe, &mut bad);
    unary_op(&t, "dsqrt", &de, f64s, itv::sqrt, &mut bad);
    unary_op(&t, "fsqrt", &fe, f32s, itv::sqrt, &mut bad);
    unary_op(&t, "trunc", &de, f32s, |a| itv::convert(a, f32s), &mut bad);
    unary_op(&t, "ext", &fe, f64s, |a| itv::convert(a, f64s), &mut bad);
    comparisons(&t, "dcmp", &de, &mut bad);
    comparisons(&t, "fcmp", &fe, &mut bad);
    for (code, width, signed) in [
        ("dtoi32", 32, true),
        ("dtoi64", 64, true),
        ("dtou32", 32, false),
        ("dtou64", 64, false),
    ] {
        to_integers(&t, code, &de, width, signed, &mut bad);
    }
    for (code, width, signed) in [("ftoi32", 32, true), ("ftoi64", 64, true), ("ftou64", 64, false)] {
        to_integers(&t, code, &fe, width, signed, &mut bad);
    }
    let signed: Vec<i128> = SIGNED.iter().map(|&x| x as i128).collect();
    let narrow: Vec<i128> = SIGNED.iter().map(|&x| x as i32 as i128).collect();
    let unsigned: Vec<i128> = UNSIGNED.iter().map(|&x| x as i128).collect();
    from_integers(&t, "sd", &signed, f64s, &mut bad);
    from_integers(&t, "sf", &signed, f32s, &mut bad);
    from_integers(&t, "s32d", &narrow, f64s, &mut bad);
    from_integers(&t, "s32f", &narrow, f32s, &mut bad);
    from_integers(&t, "ud", &unsigned, f64s, &mut bad);
    from_integers(&t, "uf", &unsigned, f32s, &mut bad);
    for (e, fmt, p) in [(&de, f64s, "d"), (&fe, f32s, "f")] {
        for a in operands(e) {
            for (op, r) in [("neg", itv::neg(&a)), ("abs", itv::abs(&a))] {
                for i in members(&a, e) {
                    let v = result(&t, &format!("{p}{op}"), 0, i, 0, fmt);
                    bad.check(r.contains(v), || {
                        format!("{p}{op} {a:?}: {:?} gives {v:?}, not in {r:?}", e[i])
                    });
                }
            }
        }
    }
    bad.assert_none("itv against the machine");
}
