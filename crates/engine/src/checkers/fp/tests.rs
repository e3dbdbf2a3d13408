//! The checks' conditions evaluated against the operations they guard.

use super::*;
use fpsym_expr::{eval, Model, Sort, Value};

/// Evaluates a check's condition with `a`, `b` bound.
fn holds(c: &Check, vars: &[(&Term, Float)]) -> bool {
    let mut m = Model::default();
    for (v, x) in vars {
        m.insert((*v).clone(), Value::Fp(*x));
    }
    matches!(eval(&c.cond, &m), Ok(Value::Bool(true)))
}

/// Against crates/float's status flags, exhaustively on a tiny format:
/// every pair of values, every rounding mode, +, −, ×, ÷.
#[test]
fn conditions_agree_with_the_status_flags_on_a_tiny_format() {
    let f = Format::new(3, 3).unwrap();
    let a = Term::var("a", Sort::Float(f));
    let b = Term::var("b", Sort::Float(f));
    let all = FpKinds {
        inexact: true,
        ..FpKinds::default()
    };
    let chk = FpExceptions::new(all);
    let values: Vec<Float> = (0..(1u128 << f.width()))
        .map(|bits| Float::from_bits(f, bits))
        .collect();
    let mut compared = 0;
    for r in [
        RoundingMode::NearestTiesToEven,
        RoundingMode::TowardPositive,
        RoundingMode::TowardNegative,
        RoundingMode::TowardZero,
    ] {
        for (op, name) in [
            (Arith::Add, "add"),
            (Arith::Sub, "sub"),
            (Arith::Mul, "mul"),
            (Arith::Div, "div"),
        ] {
            let checks = chk.arith(op, r, &[a.clone(), b.clone()], f);
            for x in &values {
                for y in &values {
                    if x.is_nan() || y.is_nan() {
                        continue;
                    }
                    let st = match op {
                        Arith::Add => x.add(*y, r),
                        Arith::Sub => x.sub(*y, r),
                        Arith::Mul => x.mul(*y, r),
                        _ => x.div(*y, r),
                    };
                    for c in &checks {
                        let Some(want) = flag(&c.kind, st.status) else { continue };
                        let got = holds(c, &[(&a, *x), (&b, *y)]);
                        assert_eq!(got, want, "{name} {r:?} {x:?} {y:?}: {:?}", c.kind);
                        compared += 1;
                    }
                }
            }
        }
    }
    assert!(compared > 10_000, "{compared}");
}

extern "C" {
    fn exp(x: f64) -> f64;
    fn expm1(x: f64) -> f64;
    fn exp2(x: f64) -> f64;
    fn exp10(x: f64) -> f64;
    fn sinh(x: f64) -> f64;
    fn cosh(x: f64) -> f64;
    fn expf(x: f32) -> f32;
    fn expm1f(x: f32) -> f32;
    fn exp2f(x: f32) -> f32;
    fn sinhf(x: f32) -> f32;
    fn coshf(x: f32) -> f32;
    fn feclearexcept(e: i32) -> i32;
    fn fetestexcept(e: i32) -> i32;
}
/// x86's FE_OVERFLOW and FE_UNDERFLOW.
const FE_OVERFLOW: i32 = 0x08;
const FE_UNDERFLOW: i32 = 0x10;

/// The flags glibc's `name` raises at `x` (rounding to nearest).
fn glibc_flags(name: &str, sb: u32, x: f64) -> i32 {
    use std::hint::black_box;
    // Narrowed first: the narrowing raises flags of its own.
    let xf = black_box(x as f32);
    let x = black_box(x);
    unsafe {
        feclearexcept(FE_OVERFLOW | FE_UNDERFLOW);
        match (name, sb) {
            ("exp", 53) => black_box(exp(x)),
            ("expm1", 53) => black_box(expm1(x)),
            ("exp2", 53) => black_box(exp2(x)),
            ("exp10", 53) => black_box(exp10(x)),
            ("sinh", 53) => black_box(sinh(x)),
            ("cosh", 53) => black_box(cosh(x)),
            ("exp", 24) => black_box(expf(xf)) as f64,
            ("expm1", 24) => black_box(expm1f(xf)) as f64,
            ("exp2", 24) => black_box(exp2f(xf)) as f64,
            ("sinh", 24) => black_box(sinhf(xf)) as f64,
            ("cosh", 24) => black_box(coshf(xf)) as f64,
            _ => panic!("no native {name} for {sb} bits"),
        };
        fetestexcept(FE_OVERFLOW | FE_UNDERFLOW)
    }
}

/// Each threshold of [`GROWTH`] against the machine's glibc: at the
/// threshold, one value past it, far past it, and at the infinities,
/// the checker's overflow and underflow conditions hold exactly when
/// glibc raises the flag.
#[test]
fn growth_thresholds_are_glibcs() {
    let chk = FpExceptions::new(FpKinds::default());
    let mut compared = 0;
    for (name, sb, over, under) in GROWTH {
        let (fmt, next_up, next_down): (Format, fn(f64) -> f64, fn(f64) -> f64) = if sb == 53 {
            (Format::BINARY64, f64::next_up, f64::next_down)
        } else {
            (
                Format::BINARY32,
                |x| (x as f32).next_up() as f64,
                |x| (x as f32).next_down() as f64,
            )
        };
        let x = Term::var("x", Sort::Float(fmt));
        let checks = chk
            .growth(name, RoundingMode::NearestTiesToEven, std::slice::from_ref(&x))
            .expect("a growth function");
        let mut points = vec![over, next_up(over), 2.0 * over, -over, next_down(-over), 0.0, 1.0, -1.0];
        points.extend([f64::INFINITY, f64::NEG_INFINITY, f64::MAX, f64::MIN]);
        if let Some(u) = under {
            points.extend([u, next_down(u), 2.0 * u, next_up(u)]);
        }
        for p in points {
            let native = glibc_flags(name, sb, p);
            let v = Float::from_f64(p).convert(fmt, RoundingMode::NearestTiesToEven).value;
            for c in &checks {
                let want = match c.kind {
                    Kind::FpOverflow => native & FE_OVERFLOW != 0,
                    Kind::FpUnderflow => native & FE_UNDERFLOW != 0,
                    _ => continue,
                };
                if c.then != crate::checkers::OnViolation::Continue {
                    continue;
                }
                assert_eq!(holds(c, &[(&x, v)]), want, "{name} ({sb} bits) at {p:e}: {:?}", c.kind);
                compared += 1;
            }
        }
    }
    assert!(compared > 100, "{compared}");
}

/// The flag a check stands for.
fn flag(kind: &Kind, flags: fpsym_float::Status) -> Option<bool> {
    use fpsym_float::Status;
    Some(match kind {
        Kind::FpInvalid => flags.contains(Status::INVALID),
        Kind::FpDivideByZero => flags.contains(Status::DIV_BY_ZERO),
        Kind::FpOverflow => flags.contains(Status::OVERFLOW),
        Kind::FpUnderflow => flags.contains(Status::UNDERFLOW),
        Kind::FpInexact => flags.contains(Status::INEXACT),
        _ => return None,
    })
}

const MODES: [RoundingMode; 4] = [
    RoundingMode::NearestTiesToEven,
    RoundingMode::TowardPositive,
    RoundingMode::TowardNegative,
    RoundingMode::TowardZero,
];

/// Conversions between two tiny formats (both ways) and square roots
/// exhaustively, fma on a third of the triples, against the status
/// flags.
#[test]
fn conversions_roots_and_fma_agree_with_the_status_flags() {
    let all = FpKinds {
        inexact: true,
        ..FpKinds::default()
    };
    let chk = FpExceptions::new(all);
    let small = Format::new(3, 3).unwrap();
    let big = Format::new(5, 4).unwrap();
    let values = |f: Format| -> Vec<Float> {
        (0..(1u128 << f.width()))
            .map(|b| Float::from_bits(f, b))
            .filter(|x| !x.is_nan())
            .collect()
    };
    let mut compared = 0;
    let mut agree = |checks: &[Check], vars: &[(&Term, Float)], flags: fpsym_float::Status, what: &str| {
        for c in checks {
            if c.then != super::super::OnViolation::Continue {
                continue;
            }
            let Some(want) = flag(&c.kind, flags) else { continue };
            assert_eq!(holds(c, vars), want, "{what}: {:?}", c.kind);
            compared += 1;
        }
    };
    for r in MODES {
        for (from, to) in [(big, small), (small, big)] {
            let x = Term::var("x", Sort::Float(from));
            let checks = chk.arith(Arith::Convert, r, std::slice::from_ref(&x), to);
            for v in values(from) {
                let st = v.convert(to, r);
                agree(&checks, &[(&x, v)], st.status, &format!("convert {r:?} {v:?}"));
            }
        }
        let x = Term::var("x", Sort::Float(small));
        let checks = chk.arith(Arith::Sqrt, r, std::slice::from_ref(&x), small);
        for v in values(small) {
            agree(&checks, &[(&x, v)], v.sqrt(r).status, &format!("sqrt {r:?} {v:?}"));
        }
        let (a, b, c) = (
            Term::var("a", Sort::Float(small)),
            Term::var("b", Sort::Float(small)),
            Term::var("c", Sort::Float(small)),
        );
        let checks = chk.arith(Arith::Fma, r, &[a.clone(), b.clone(), c.clone()], small);
        let vs = values(small);
        for x in vs.iter().step_by(3) {
            for y in vs.iter().step_by(2) {
                for z in vs.iter().step_by(5) {
                    let st = x.fma(*y, *z, r);
                    agree(
                        &checks,
                        &[(&a, *x), (&b, *y), (&c, *z)],
                        st.status,
                        &format!("fma {r:?} {x:?} {y:?} {z:?}"),
                    );
                }
            }
        }
    }
    assert!(compared > 10_000, "{compared}");
}

mod native {
    extern "C" {
        pub fn pow(x: f64, y: f64) -> f64;
        pub fn hypot(x: f64, y: f64) -> f64;
        pub fn atan2(x: f64, y: f64) -> f64;
        pub fn lgamma(x: f64) -> f64;
        pub fn tgamma(x: f64) -> f64;
        pub fn log(x: f64) -> f64;
        pub fn log1p(x: f64) -> f64;
        pub fn atanh(x: f64) -> f64;
        pub fn tan(x: f64) -> f64;
        pub fn erfc(x: f64) -> f64;
        pub fn powf(x: f32, y: f32) -> f32;
        pub fn lgammaf(x: f32) -> f32;
        pub fn tgammaf(x: f32) -> f32;
    }
}

/// Whether glibc's `name` raises overflow at `a` (and `b`), rounding
/// to nearest.
fn glibc_overflows(name: &str, a: f64, b: f64) -> bool {
    use std::hint::black_box;
    let (af, bf) = (black_box(a as f32), black_box(b as f32));
    let (a, b) = (black_box(a), black_box(b));
    unsafe {
        feclearexcept(FE_OVERFLOW);
        match name {
            "pow" => black_box(native::pow(a, b)),
            "hypot" => black_box(native::hypot(a, b)),
            "atan2" => black_box(native::atan2(a, b)),
            "lgamma" => black_box(native::lgamma(a)),
            "tgamma" => black_box(native::tgamma(a)),
            "log" => black_box(native::log(a)),
            "log1p" => black_box(native::log1p(a)),
            "atanh" => black_box(native::atanh(a)),
            "tan" => black_box(native::tan(a)),
            "erfc" => black_box(native::erfc(a)),
            "powf" => black_box(native::powf(af, bf)) as f64,
            "lgammaf" => black_box(native::lgammaf(af)) as f64,
            "tgammaf" => black_box(native::tgammaf(af)) as f64,
            _ => panic!("no native {name}"),
        };
        fetestexcept(FE_OVERFLOW) != 0
    }
}

/// The overflow condition of a transcendental call (an infinity from
/// finite arguments that are not a pole, on the symbolic result)
/// against glibc's own flag, on values around the poles, the
/// overflow thresholds, the infinities and NaN: with a pole missing
/// from [`libm_poles`], divide-by-zero would be reported as overflow.
#[test]
fn libm_overflow_is_glibcs_flag() {
    let chk = FpExceptions::new(FpKinds::default());
    let values = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.0,
        -2.0,
        -3.0,
        0.5,
        -0.5,
        10.0,
        -10.0,
        1e-310,
        -1e-310,
        5e-324,
        1e-40,
        -1e-40,
        40.0,
        171.0,
        171.7,
        -171.5,
        400.0,
        -400.0,
        1e300,
        -1e300,
        1e306,
        3e38,
        f64::MAX,
        -f64::MAX,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    let mut compared = 0;
    for name in [
        "pow", "hypot", "atan2", "lgamma", "tgamma", "log", "log1p", "atanh", "tan", "erfc", "powf", "lgammaf",
        "tgammaf",
    ] {
        let f = LibmFn::from_c_name(libm_base(name)).unwrap();
        let fmt = if name.ends_with('f') {
            Format::BINARY32
        } else {
            Format::BINARY64
        };
        let vars: Vec<Term> = ["x", "y"][..f.arity()]
            .iter()
            .map(|v| Term::var(v, Sort::Float(fmt)))
            .collect();
        let checks = chk.libm_overflow(name, RoundingMode::NearestTiesToEven, &vars).unwrap();
        assert!(
            !checks
                .iter()
                .any(|c| c.kind == Kind::FpOverflow && c.then != crate::checkers::OnViolation::Continue),
            "{name}: overflow is decided"
        );
        let over = checks
            .iter()
            .find(|c| c.kind == Kind::FpOverflow)
            .expect("an overflow check");
        let seconds: &[f64] = if f.arity() == 2 { &values } else { &[0.0] };
        for &a in &values {
            for &b in seconds {
                let at = |v: f64| Float::from_f64(v).convert(fmt, RoundingMode::NearestTiesToEven).value;
                let bound: Vec<(&Term, Float)> = vars.iter().zip([at(a), at(b)]).collect();
                assert_eq!(holds(over, &bound), glibc_overflows(name, a, b), "{name}({a}, {b})");
                compared += 1;
            }
        }
    }
    assert!(compared > 3000, "{compared}");
}
