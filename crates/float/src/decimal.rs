//! Exact decimals: a number as written in a command line or a paper, read
//! as the rational it denotes (never through a binary float).

use num_bigint::BigInt;
use num_rational::BigRational;

/// Reads an exact decimal (`-12.5`, `1e-5`, `156.25001`, `.5`) as a
/// rational.
pub fn parse_decimal(s: &str) -> Option<BigRational> {
    let s = s.trim();
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let (mantissa, exp) = match body.find(['e', 'E']) {
        Some(k) => (&body[..k], body[k + 1..].parse::<i64>().ok()?),
        None => (body, 0),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) => (i, f),
        None => (mantissa, ""),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if !int.chars().chain(frac.chars()).all(|c| c.is_ascii_digit()) {
        return None;
    }
    let digits: BigInt = format!("{int}{frac}0").parse::<BigInt>().ok()? / 10;
    let scale = exp - frac.len() as i64;
    if scale.unsigned_abs() > 100_000 {
        return None;
    }
    let ten = BigInt::from(10);
    let p = num_traits::pow(ten, scale.unsigned_abs() as usize);
    let q = if scale >= 0 {
        BigRational::from_integer(digits * p)
    } else {
        BigRational::new(digits, p)
    };
    Some(if neg { -q } else { q })
}
