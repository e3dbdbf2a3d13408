//! Values as tests show them: C type names of float formats, decimal
//! (shortest round-trip where it exists) and C hexadecimal-float literals.

use fpsym_float::{Float, Format};

/// C's name for a float format.
pub fn c_type_name(f: Format) -> &'static str {
    match (f.eb(), f.sb()) {
        (8, 24) => "float",
        (11, 53) => "double",
        (15, 64) => "long double",
        (15, 113) => "__float128",
        (5, 11) => "_Float16",
        _ => "float?",
    }
}

/// The value in decimal: shortest round-trip for binary32/64, else 21 or
/// 36 significant digits (enough to round-trip x86_fp80 / binary128).
pub fn decimal(x: Float) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if let Some(v) = x.to_f32().filter(|_| x.format() == Format::BINARY32) {
        return format!("{v:e}");
    }
    if let Some(v) = x.to_f64().filter(|_| x.format() == Format::BINARY64) {
        return format!("{v:e}");
    }
    if x.is_infinite() {
        return if x.is_negative() { "-inf".into() } else { "inf".into() };
    }
    let digits = if x.format().sb() > 64 { 36 } else { 21 };
    let r = x.to_rational().expect("finite");
    sci(&r, digits, x.is_negative())
}

fn sci(r: &num_rational::BigRational, digits: usize, negative: bool) -> String {
    use num_bigint::BigInt;
    use num_traits::{Signed, Zero};
    let r = r.abs();
    let sign = if negative { "-" } else { "" };
    if r.is_zero() {
        return format!("{sign}0e0");
    }
    // Find e with 10^e <= r < 10^(e+1).
    let ten = BigInt::from(10);
    let mut e: i64 = (r.numer().bits() as i64 - r.denom().bits() as i64) * 30103 / 100000;
    let pow = |k: i64| -> num_rational::BigRational {
        if k >= 0 {
            num_rational::BigRational::from_integer(ten.pow(k as u32))
        } else {
            num_rational::BigRational::new(BigInt::from(1), ten.pow((-k) as u32))
        }
    };
    while pow(e) > r {
        e -= 1;
    }
    while pow(e + 1) <= r {
        e += 1;
    }
    let scaled = &r / pow(e - digits as i64 + 1);
    // Round half to even.
    let fl = scaled.floor();
    let frac = &scaled - &fl;
    let half = num_rational::BigRational::new(BigInt::from(1), BigInt::from(2));
    let mut n = fl.to_integer();
    if frac > half || (frac == half && (&n % 2) == BigInt::from(1)) {
        n += 1;
    }
    let mut s = n.to_string();
    if s.len() > digits {
        s.truncate(digits);
        e += 1;
    }
    let (head, tail) = s.split_at(1);
    let tail = tail.trim_end_matches('0');
    if tail.is_empty() {
        format!("{sign}{head}e{e}")
    } else {
        format!("{sign}{head}.{tail}e{e}")
    }
}

/// The value as a C hexadecimal-float literal (`0x1.8p+1`, `-0x0p+0`,
/// `inf`, `nan`); subnormals as `0x0.…p<emin>`.
pub fn hex_float(x: Float) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    let sign = if x.is_negative() { "-" } else { "" };
    if x.is_infinite() {
        return format!("{sign}inf");
    }
    let f = x.format();
    let fb = f.frac_bits();
    let frac = x.fraction();
    let be = x.biased_exponent() as i64;
    let bias = (1i64 << (f.eb() - 1)) - 1;
    let (lead, exp) = if be == 0 {
        (0, if frac == 0 { 0 } else { 1 - bias })
    } else {
        (1, be - bias)
    };
    // Pad the fraction to a multiple of 4 bits.
    let pad = (4 - fb % 4) % 4;
    let digits = (fb + pad) / 4;
    let mut h = format!("{:0width$x}", frac << pad, width = digits as usize);
    while h.ends_with('0') {
        h.pop();
    }
    let dot = if h.is_empty() { String::new() } else { format!(".{h}") };
    format!("{sign}0x{lead}{dot}p{exp:+}")
}
