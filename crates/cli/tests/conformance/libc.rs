//! The categories of the C runtime: libm's transcendental functions at
//! their special cases and the decimal readers (`strtod`, `atof`,
//! `sscanf`).

use super::spec::*;
use fpsym_float::Float;

/// The transcendental functions fpsym models (`fpsym.sin`, ...: glibc
/// itself on concrete operands, a sound enclosure for the cp solver on
/// symbolic ones) at their special cases: ±0, ±inf, NaN, ±1, the
/// arguments where the result overflows or underflows, the poles, and
/// C's Annex F cases of `pow` (and of `atan2`, `hypot`), for float,
/// double and long double.
///
/// Native glibc is the truth. The concrete runs must agree exactly
/// (fpsym calls the machine's glibc). In the symbolic runs, with the
/// operands symbolic and pinned, a solver cannot compute glibc's
/// function: cp knows an enclosure of it and evaluates glibc on the
/// models it checks, z3 knows nothing of it. So there the check is that
/// the native result is *possible* ([`Check::Enclosure`]): the line
/// reaches `reach_error` if `r == native` is satisfiable; `r != native`
/// is satisfiable too whenever the enclosure holds more than one value,
/// which is not a mismatch. Only cp runs them (z3 declines every query
/// with a `fpsym.*` function).
pub(crate) fn libm_special(size: Size, cats: &mut Cats) {
    const UNARY: [&str; 24] = [
        "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "exp", "exp2",
        "expm1", "log", "log2", "log10", "log1p", "cbrt", "erf", "erfc", "tgamma", "lgamma",
    ];
    const BINARY: [&str; 3] = ["pow", "atan2", "hypot"];
    let mut ops = Vec::new();
    // (format, rounding modes, functions)
    let all: Vec<&str> = UNARY.iter().chain(BINARY.iter()).copied().collect();
    let few = vec!["exp", "log", "pow", "sin", "atan2", "lgamma"];
    let plan: Vec<(Ty, &'static [&'static str], Vec<&str>)> = match size {
        Size::Subset => vec![
            (D, &["FE_TONEAREST"], all.clone()),
            (D, &["FE_TOWARDZERO"], few.clone()),
            (F, &["FE_TONEAREST"], few.clone()),
            (L, &["FE_TONEAREST"], few.clone()),
        ],
        Size::Full => vec![
            (F, &MODES_FULL, all.clone()),
            (D, &MODES_FULL, all.clone()),
            (L, &MODES_FULL, all.clone()),
        ],
    };
    for (t, ms, fns) in plan {
        let fmt = format(t);
        let tag = t.tag();
        let (sfx, _) = suffixes(t);
        let qnan = nan_bits(fmt, false, true, 0);
        let min_sub = Float::smallest(fmt, false).to_bits();
        let max = Float::largest(fmt, false).to_bits();
        // Where exp overflows and underflows in this format.
        let (big, tiny) = match t {
            _ if t == F => (89.0, -104.0),
            _ if t == D => (710.0, -746.0),
            _ => (11357.0, -11400.0),
        };
        let mut unary = vec![
            fv(t, 0.0),
            fv(t, -0.0),
            fv(t, f64::INFINITY),
            fv(t, f64::NEG_INFINITY),
            qnan,
            fv(t, 1.0),
            fv(t, -1.0),
            fv(t, 0.5),
            fv(t, 2.0),
            fv(t, -2.0),
            fv(t, big),
            min_sub,
            max,
        ];
        let (mut xs, mut ys) = (
            vec![
                fv(t, 0.0),
                fv(t, -0.0),
                fv(t, 1.0),
                fv(t, -1.0),
                fv(t, f64::INFINITY),
                fv(t, f64::NEG_INFINITY),
                qnan,
                fv(t, -2.0),
                fv(t, 0.5),
            ],
            vec![
                fv(t, 0.0),
                fv(t, -0.0),
                fv(t, f64::INFINITY),
                fv(t, f64::NEG_INFINITY),
                qnan,
                fv(t, 3.0),
                fv(t, -3.0),
                fv(t, 0.5),
                fv(t, 1024.0),
                fv(t, -1075.0),
            ],
        );
        if size == Size::Full {
            unary.extend([
                nan_bits(fmt, true, true, 0),
                fv(t, -0.5),
                fv(t, 3.0),
                fv(t, 10.0),
                fv(t, 100.0),
                fv(t, -big),
                fv(t, tiny),
                fv(t, 1e-300),
                fv(t, 0.1),
                Float::smallest(fmt, true).to_bits(),
                Float::smallest_normal(fmt, false).to_bits(),
                Float::largest(fmt, true).to_bits(),
                Float::one(fmt, false).next_up().to_bits(),
                Float::one(fmt, false).next_down().to_bits(),
            ]);
            xs.extend([
                fv(t, 2.0),
                fv(t, -0.5),
                min_sub,
                max,
                fv(t, -8.0),
                fv(t, 10.0),
                nan_bits(fmt, true, true, 0),
            ]);
            ys.extend([
                fv(t, 1.0),
                fv(t, -1.0),
                fv(t, 2.0),
                fv(t, -0.5),
                fv(t, 1.0 / 3.0),
                fv(t, 2f64.powi(53)),
                fv(t, 2f64.powi(53) - 1.0),
                fv(t, 16385.0),
                fv(t, -16446.0),
                min_sub,
                max,
            ]);
        }
        for v in [&mut unary, &mut xs, &mut ys] {
            v.sort();
            v.dedup();
        }
        for m in ms {
            for f in &fns {
                let binary = BINARY.contains(f);
                let (args, inputs): (&[Ty], _) = if binary {
                    (&[t, t], vec![xs.clone(), ys.clone()])
                } else {
                    (&[t], vec![unary.clone()])
                };
                let call = if binary {
                    format!("{f}{sfx}(a, b)")
                } else {
                    format!("{f}{sfx}(a)")
                };
                ops.push(
                    op(&format!("{f}_{tag}_{m}"), t, args, &call, m)
                        .inputs(inputs)
                        .check(Check::Enclosure),
                );
            }
        }
    }
    cats.push(("libm_special", ops));
}

/// What reading a string costs fpsym's strtod.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum StrCost {
    /// No digits, hexadecimal, or a decimal of at most 15 significant
    /// digits and a decimal exponent within ±22: the short path.
    Short,
    /// Big integers.
    Long,
    /// Big integers near the exponent limits (|x| > 1e300 or < 1e-300).
    Huge,
}

pub(crate) fn strtod_cost(s: &str) -> StrCost {
    let t = s.trim_start().trim_start_matches(['+', '-']);
    if t.len() > 1 && t[..2].eq_ignore_ascii_case("0x") {
        return StrCost::Short;
    }
    let mantissa: String = t.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
    let digits = mantissa
        .trim_start_matches(['0', '.'])
        .chars()
        .filter(|c| c.is_ascii_digit())
        .count();
    // No digits: inf, nan, malformed.
    let Ok(x) = s.trim().parse::<f64>() else {
        return StrCost::Short;
    };
    if digits == 0 {
        return StrCost::Short;
    }
    let x = x.abs();
    if !(1e-300..=1e300).contains(&x) {
        StrCost::Huge
    } else if digits > 15 || !(1e-22..=1e22).contains(&x) {
        StrCost::Long
    } else {
        StrCost::Short
    }
}

/// `x` as C's `%a` prints it (`0x1.8p+1`, `0x0.0000000000001p-1022`).
pub(crate) fn hex_double(x: f64) -> String {
    if x.is_nan() || x.is_infinite() {
        return format!("{x}");
    }
    let bits = x.to_bits();
    let sign = if bits >> 63 == 1 { "-" } else { "" };
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1 << 52) - 1);
    let (lead, e) = match exp {
        0 if frac == 0 => (0, 0),
        0 => (0, -1022),
        _ => (1, exp - 1023),
    };
    let digits = format!("{frac:013x}");
    let digits = digits.trim_end_matches('0');
    let dot = if digits.is_empty() {
        String::new()
    } else {
        format!(".{digits}")
    };
    format!("{sign}0x{lead}{dot}p{e:+}")
}

/// A string as a C literal.
pub(crate) fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// fpsym's C runtime: `strtod` (correctly rounded in the current
/// rounding mode, hexadecimal, `inf`/`nan`, the end pointer), `atof`, and
/// `sscanf`'s `%lf` and `%f` (a float, rounded once from the decimal), on
/// strings written from edge values by `%.17g`, `%a` and the shortest
/// round trip, on ties and near-ties, and on malformed input. The
/// strings are made at generation time: fpsym has no model of
/// `snprintf`/`sprintf` (and `printf` prints its format only), so the
/// round trip cannot go through the program. A symbolic run makes the
/// string's bytes symbolic and pins them (`PIN`).
pub(crate) fn strtod(size: Size, cats: &mut Cats) {
    let mut ops = Vec::new();
    let doubles: Vec<f64> = vec![
        0.1,
        1.0 / 3.0,
        2.0 / 3.0,
        1e23,
        5e-324,
        -5e-324,
        2.2250738585072014e-308,
        2.225073858507201e-308,
        f64::MAX,
        -f64::MAX,
        9007199254740992.0,
        123456789012345680.0,
        1e-5,
        std::f64::consts::PI,
        -0.0,
        0.0,
        1.0,
        1.0 + f64::EPSILON,
        1e22,
        8.98846567431158e307,
        4.940_7e-320,
    ];
    let mut strings: Vec<String> = Vec::new();
    for (i, x) in doubles.iter().enumerate() {
        strings.push(format!("{x:.16e}"));
        strings.push(hex_double(*x));
        if size == Size::Full || i % 3 == 0 {
            strings.push(format!("{x:e}"));
            strings.push(format!("{x:.20e}"));
        }
    }
    for s in [
        "inf",
        "-INF",
        "Infinity",
        "nan",
        "-NaN",
        "nan(0x12)",
        "1e400",
        "-1e400",
        "1e-400",
        // Half the smallest subnormal, just below and just above.
        "2.4703282292062327e-324",
        "2.4703282292062328e-324",
        "1.7976931348623158e308",
        "1.7976931348623159e308",
        "0x1p-1074",
        "0x1p-1075",
        "0x1.8p-1075",
        "0x1.fffffffffffff8p1023",
        "0x1.00000000000008p0",
        "0x1.00000000000018p0",
        "0x1.000000000000080000001p0",
        "0x.8p1",
        "0X1P+1",
        "  \t+1.5e+3xyz",
        ".5",
        "5.",
        "1e",
        "1e+",
        "-0",
        "0x",
        "-.e1",
        "9007199254740993",
        "9007199254740993.0000000000000000001",
        "9007199254740995",
        "0.1000000000000000055511151231257827021181583404541015625",
        "0.1000000000000000055511151231257827021181583404541015624",
        "0.10000000000000000555111512312578270211815834045410156251",
        "1.000000059604644775390625",
        "1.0000000596046447753906250000001",
        "1.0000000596046447753906249999999",
        "3.4028235677973366e38",
        "3.4028235677973367e38",
        "7.0064923216240854e-46",
        "7.0064923216240862e-46",
        "000000000000000000000000000000000000000001e-5",
        "123456789012345678901234567890e-40",
    ] {
        strings.push(s.to_string());
    }
    let mut seen = std::collections::HashSet::new();
    strings.retain(|s| seen.insert(s.clone()));
    let mut cheap_k = 0;
    let mut big_k = 0;
    for (k, s) in strings.iter().enumerate() {
        let lit = c_string(s);
        let cost = strtod_cost(s);
        // Which operations read this string (the subset keeps the big
        // integer work small: a few thousand instructions per short
        // string, hundreds of thousands near the exponent limits).
        let (strtod_modes, scanf, others): (&[&'static str], bool, bool) = match (size, cost) {
            (Size::Full, _) => (&MODES_FULL, true, true),
            (Size::Subset, StrCost::Short) => {
                cheap_k += 1;
                (modes(size), cheap_k % 2 == 0, cheap_k % 4 == 1)
            }
            (Size::Subset, _) => {
                big_k += 1;
                // Strings at a float tie are there for sscanf's %f.
                let tie = s.starts_with("1.00000005960464477539062");
                let ms: &[&'static str] = if cost == StrCost::Huge && big_k % 3 != 0 {
                    &[]
                } else {
                    &MODES_FULL[..1]
                };
                (ms, tie, false)
            }
        };
        // Symbolically, every digit is a term the solver reasons about:
        // seconds for a short string, minutes for a long one (13 hex
        // digits: 25 s with z3; big integers: more). Long ones are checked
        // concretely only.
        let symbolic = cost == StrCost::Short && s.len() <= 10;
        let mut push = |o: OpSpec| {
            let mut o = o;
            o.symbolic = symbolic;
            ops.push(o);
        };
        for m in strtod_modes {
            push(op(
                &format!("strtod_{k}_{m}"),
                D,
                &[],
                &format!("strtod(PIN({lit}), 0)"),
                m,
            ));
        }
        if others {
            push(op(
                &format!("strtod_end_{k}"),
                Ty::Int(64, true),
                &[],
                &format!("({{ const char *p = PIN({lit}); char *e; strtod(p, &e); e - p; }})"),
                "FE_TONEAREST",
            ));
            push(op(
                &format!("atof_{k}"),
                D,
                &[],
                &format!("atof(PIN({lit}))"),
                "FE_TONEAREST",
            ));
            push(op(
                &format!("sscanf_count_{k}"),
                Ty::Int(32, true),
                &[],
                &format!("({{ double v; int n = sscanf(PIN({lit}), \"%lf\", &v); n; }})"),
                "FE_TONEAREST",
            ));
        }
        if scanf {
            let ms: &[&'static str] = if size == Size::Full {
                &MODES_FULL
            } else {
                &MODES_FULL[..1]
            };
            for m in ms {
                push(op(
                    &format!("sscanf_lf_{k}_{m}"),
                    D,
                    &[],
                    &format!("({{ double v = -1; sscanf(PIN({lit}), \"%lf\", &v); v; }})"),
                    m,
                ));
                push(op(
                    &format!("sscanf_f_{k}_{m}"),
                    F,
                    &[],
                    &format!("({{ float v = -1; sscanf(PIN({lit}), \"%f\", &v); v; }})"),
                    m,
                ));
            }
        }
    }
    cats.push(("strtod", ops));
}
