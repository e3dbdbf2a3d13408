//! `((_ to_fp eb sb) rm <real literal>)` is converted exactly and rounded
//! correctly in all five rounding modes. Ground truth: known bit patterns,
//! Rust's correctly rounded `str::parse` (round-to-nearest-even), exact
//! rational bracketing, and Z3 when it is installed.

use fpsym_expr::{Float, Format, RoundingMode, Term};
use fpsym_smtlib::parse_term;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Signed;
use std::io::Write;
use std::process::{Command, Stdio};

fn to_fp(fmt: Format, rm: RoundingMode, lit: &str) -> Float {
    let src = format!("((_ to_fp {} {}) {} {lit})", fmt.eb(), fmt.sb(), rm.smtlib_name());
    let t = parse_term(&src, &[]).unwrap_or_else(|e| panic!("{e}"));
    t.as_const()
        .and_then(|v| v.as_fp())
        .unwrap_or_else(|| panic!("{src} is not a constant: {t:?}"))
}

use RoundingMode::*;

#[test]
fn point_one_in_binary32_differs_by_one_ulp_between_rtp_and_rtn() {
    let f = |rm| to_fp(Format::BINARY32, rm, "0.1").packed();
    assert_eq!(f(NearestTiesToEven), 0x3dcc_cccd);
    assert_eq!(f(NearestTiesToAway), 0x3dcc_cccd);
    assert_eq!(f(TowardPositive), 0x3dcc_cccd);
    assert_eq!(f(TowardNegative), 0x3dcc_cccc);
    assert_eq!(f(TowardZero), 0x3dcc_cccc);
    let g = |rm| to_fp(Format::BINARY32, rm, "(- 0.1)").packed();
    assert_eq!(g(TowardPositive), 0xbdcc_cccc);
    assert_eq!(g(TowardNegative), 0xbdcc_cccd);
    assert_eq!(g(TowardZero), 0xbdcc_cccc);
    assert_eq!(f(TowardPositive) - f(TowardNegative), 1);
}

#[test]
fn ties() {
    let h = |rm, lit| to_fp(Format::BINARY16, rm, lit).to_rational().unwrap();
    let int = |v: i64| BigRational::from_integer(BigInt::from(v));
    // 2049 lies halfway between 2048 and 2050 (spacing 2 in binary16).
    assert_eq!(h(NearestTiesToEven, "2049"), int(2048));
    assert_eq!(h(NearestTiesToAway, "2049.0"), int(2050));
    assert_eq!(h(TowardPositive, "2049"), int(2050));
    assert_eq!(h(TowardNegative, "2049"), int(2048));
    assert_eq!(h(TowardZero, "2049"), int(2048));
    assert_eq!(h(NearestTiesToEven, "2051"), int(2052));
    assert_eq!(h(NearestTiesToAway, "(- 2049)"), int(-2050));
    assert_eq!(h(NearestTiesToEven, "(- 2049)"), int(-2048));
    assert_eq!(h(TowardNegative, "(- 2049)"), int(-2050));
    assert_eq!(h(TowardPositive, "(/ (- 4098) 2)"), int(-2048));
}

#[test]
fn overflow_and_underflow() {
    let big = "1000000000000000000000000000000000000000.0"; // 1e39 > max binary32
    let f = |rm, lit: &str| to_fp(Format::BINARY32, rm, lit);
    let max = Float::largest(Format::BINARY32, false);
    let inf = Float::infinity(Format::BINARY32, false);
    assert_eq!(f(NearestTiesToEven, big), inf);
    assert_eq!(f(NearestTiesToAway, big), inf);
    assert_eq!(f(TowardPositive, big), inf);
    assert_eq!(f(TowardNegative, big), max);
    assert_eq!(f(TowardZero, big), max);
    assert_eq!(f(TowardNegative, &format!("(- {big})")), inf.neg());
    assert_eq!(f(TowardPositive, &format!("(- {big})")), max.neg());
    let tiny = format!("0.{}1", "0".repeat(45)); // 1e-46 < half the smallest subnormal
    let min = Float::smallest(Format::BINARY32, false);
    assert_eq!(f(NearestTiesToEven, &tiny), Float::zero(Format::BINARY32, false));
    assert_eq!(f(TowardPositive, &tiny), min);
    assert_eq!(f(TowardZero, &tiny), Float::zero(Format::BINARY32, false));
    assert_eq!(f(TowardNegative, &format!("(- {tiny})")), min.neg());
    assert_eq!(f(NearestTiesToEven, "0.0"), Float::zero(Format::BINARY32, false));
    assert_eq!(f(TowardNegative, "(- 0.0)"), Float::zero(Format::BINARY32, false));
}

const LITERALS: [&str; 16] = [
    "0.1",
    "(- 0.1)",
    "0.2",
    "0.3",
    "1.1",
    "3.14159265358979323846264338327950288",
    "(- 2.718281828459045235360287)",
    "(/ 1 3)",
    "(/ 2 3)",
    "(- (/ 1 7))",
    "123456789.987654321",
    "0.000000000000000000000000000000000000011754943",
    "16777217",
    "9007199254740993",
    "(/ 1.0 10.0)",
    "340282356779733661637539395458142568448",
];

fn formats() -> Vec<Format> {
    vec![
        Format::BINARY16,
        Format::BINARY32,
        Format::BINARY64,
        Format::BFLOAT16,
        Format::new(3, 4).unwrap(),
        Format::BINARY128,
    ]
}

/// The exact value of a literal of `LITERALS`, computed independently of the reader.
fn rational(lit: &str) -> BigRational {
    fn atom(s: &str) -> BigRational {
        match s.split_once('.') {
            Some((i, f)) => BigRational::new(
                format!("{i}{f}").parse().unwrap(),
                num_traits::pow(BigInt::from(10), f.len()),
            ),
            None => BigRational::from_integer(s.parse().unwrap()),
        }
    }
    let s = lit.trim();
    if let Some(inner) = s.strip_prefix("(- ").and_then(|r| r.strip_suffix(')')) {
        return -rational(inner);
    }
    if let Some(inner) = s.strip_prefix("(/ ").and_then(|r| r.strip_suffix(')')) {
        let (a, b) = inner.split_once(' ').unwrap();
        return rational(a) / rational(b);
    }
    atom(s)
}

/// The result brackets the exact value as each mode requires.
#[test]
fn results_bracket_the_exact_value_in_every_mode() {
    for fmt in formats() {
        for lit in LITERALS {
            let q = rational(lit);
            for rm in RoundingMode::ALL {
                let r = to_fp(fmt, rm, lit);
                let ctx = format!("{lit} in {} {rm:?}: {r:?}", fmt.name());
                if r.is_infinite() {
                    // Overflow: only allowed beyond the largest finite value.
                    let max = Float::largest(fmt, false).to_rational().unwrap();
                    assert!(q.abs() > max, "{ctx}");
                    continue;
                }
                let v = r.to_rational().unwrap();
                let up = r.next_up();
                let down = r.next_down();
                let above = |f: Float| f.to_rational().map(|x| x > q).unwrap_or(true);
                let below = |f: Float| f.to_rational().map(|x| x < q).unwrap_or(true);
                match rm {
                    TowardNegative => assert!(v <= q && above(up), "{ctx}"),
                    TowardPositive => assert!(v >= q && below(down), "{ctx}"),
                    TowardZero => {
                        if q.is_positive() {
                            assert!(v <= q && above(up), "{ctx}")
                        } else {
                            assert!(v >= q && below(down), "{ctx}")
                        }
                    }
                    _ => {
                        let d = (&v - &q).abs();
                        for n in [up, down] {
                            if let Some(w) = n.to_rational() {
                                assert!(d <= (&w - &q).abs(), "{ctx}: a neighbour is closer");
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Rust's `parse` is correctly rounded to nearest-even.
#[test]
fn nearest_even_matches_rust_parse() {
    for lit in [
        "0.1",
        "0.2",
        "0.3",
        "1.1",
        "3.14159265358979323846264338327950288",
        "123456789.987654321",
        "16777217",
        "9007199254740993",
    ] {
        assert_eq!(
            to_fp(Format::BINARY32, NearestTiesToEven, lit),
            Float::from_f32(lit.parse().unwrap()),
            "{lit}"
        );
        assert_eq!(
            to_fp(Format::BINARY64, NearestTiesToEven, lit),
            Float::from_f64(lit.parse().unwrap()),
            "{lit}"
        );
    }
}

/// Z3 as an independent oracle, when installed.
#[test]
fn agrees_with_z3() {
    let Ok(mut child) = Command::new("z3")
        .arg("-in")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    else {
        panic!("z3 not found: install the Debian package z3 (scripts/bootstrap)");
    };
    let mut cases = Vec::new();
    let mut input = String::new();
    for fmt in formats() {
        for lit in LITERALS {
            for rm in RoundingMode::ALL {
                input.push_str(&format!(
                    "(simplify ((_ to_fp {} {}) {} {lit}))\n",
                    fmt.eb(),
                    fmt.sb(),
                    rm.smtlib_name()
                ));
                cases.push((fmt, lit, rm));
            }
        }
    }
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), cases.len(), "z3 output:\n{text}");
    for ((fmt, lit, rm), line) in cases.into_iter().zip(lines) {
        let theirs = parse_term(line, &[]).unwrap_or_else(|e| panic!("{e}: {line}"));
        let ours = Term::fp(to_fp(fmt, rm, lit));
        assert_eq!(ours, theirs, "{lit} in {} {rm:?}", fmt.name());
    }
}
