//! Unit tests: the x86_fp80 interchange encoding, special constructors,
//! SMT-LIB literals and display, formats, rounding modes and status flags,
//! and wide-exponent formats.

mod common;

use common::*;
use fpsym_float::{Category, Float, FloatInterval, Format, FormatError, RoundingMode, Status, StatusAnd};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::One;
use rustc_apfloat::ieee::X87DoubleExtended;
use rustc_apfloat::Float as _;
use std::time::Instant;

const X: Format = Format::X86_FP80;

fn x87(bits: u128) -> Float {
    Float::from_bits(X, bits)
}

fn rat(q: &str) -> BigRational {
    q.parse().unwrap()
}

// ----------------------------------------------------------------------------
// x86_fp80

#[test]
fn x87_format_shape() {
    assert_eq!((X.eb(), X.sb(), X.width(), X.packed_width()), (15, 64, 80, 79));
    assert!(X.has_explicit_int_bit());
    assert_eq!(X.smtlib(), Format::new(15, 64).unwrap());
    assert_ne!(X, Format::new(15, 64).unwrap());
    assert!(!X.smtlib().has_explicit_int_bit());
    assert_eq!(X.name(), "x86_fp80");
    assert_eq!(X.to_string(), "(_ FloatingPoint 15 64)");
    assert_eq!(
        (X.bias(), X.emin(), X.emax(), X.frac_bits()),
        (16383, -16382, 16383, 63)
    );
}

#[test]
fn x87_normal_encodings() {
    let cases: [(u128, &str); 6] = [
        (0x3FFF_8000_0000_0000_0000, "1"),
        (0xC000_8000_0000_0000_0000, "-2"),
        (0x3FFE_C000_0000_0000_0000, "3/4"),
        (0x4000_C000_0000_0000_0000, "3"),
        (0x3FFF_8000_0000_0000_0001, "9223372036854775809/9223372036854775808"),
        (0x401E_FFFF_FFFF_0000_0000, "4294967295"),
    ];
    for (bits, q) in cases {
        let f = x87(bits);
        assert_eq!(f.category(), Category::Normal, "{bits:#x}");
        assert_eq!(f.to_rational(), Some(rat(q)), "{bits:#x}");
        assert_eq!(f.to_bits(), bits, "round trip {bits:#x}");
        assert_eq!(f.format(), X);
    }
    assert_eq!(x87(0x3FFF_8000_0000_0000_0000), Float::one(X, false));
    // The explicit integer bit is not part of the packed (SMT-LIB) encoding.
    assert_eq!(Float::one(X, false).packed(), 0x3FFF << 63);
    assert_eq!(Float::largest(X, false).to_bits(), 0x7FFE_FFFF_FFFF_FFFF_FFFF);
    assert_eq!(Float::smallest_normal(X, true).to_bits(), 0x8001_8000_0000_0000_0000);
    // Bits above the 80 are ignored.
    assert_eq!(x87(0xFFFF << 80 | 0x3FFF_8000_0000_0000_0000), Float::one(X, false));
}

#[test]
fn x87_special_encodings() {
    // Zeros, denormals.
    assert_eq!(x87(0), Float::zero(X, false));
    assert_eq!(x87(1 << 79), Float::zero(X, true));
    assert_eq!(Float::zero(X, true).to_bits(), 1 << 79);
    let tiny = x87(1);
    assert_eq!(tiny, Float::smallest(X, false));
    assert_eq!(tiny.category(), Category::Subnormal);
    assert_eq!(tiny.to_rational(), Some(pow2(-16382 - 63)));
    assert_eq!(tiny.to_bits(), 1);
    let big_sub = x87(0x0000_7FFF_FFFF_FFFF_FFFF);
    assert!(big_sub.is_subnormal());
    assert_eq!(big_sub.to_bits(), 0x0000_7FFF_FFFF_FFFF_FFFF);
    assert_eq!(big_sub.next_up(), Float::smallest_normal(X, false));
    // Infinities and the canonical NaN (the quiet "real indefinite" pattern, positive).
    assert_eq!(x87(0x7FFF_8000_0000_0000_0000), Float::infinity(X, false));
    assert_eq!(x87(0xFFFF_8000_0000_0000_0000), Float::infinity(X, true));
    assert_eq!(Float::infinity(X, true).to_bits(), 0xFFFF_8000_0000_0000_0000);
    assert_eq!(Float::nan(X).to_bits(), 0x7FFF_C000_0000_0000_0000);
    for nan in [
        0x7FFF_C000_0000_0000_0000u128, // quiet NaN
        0xFFFF_C000_0000_0000_0000,     // real indefinite
        0x7FFF_8000_0000_0000_0001,     // signalling NaN
        0x7FFF_FFFF_FFFF_FFFF_FFFF,
    ] {
        assert!(x87(nan).is_nan(), "{nan:#x}");
        assert_eq!(x87(nan), Float::nan(X));
    }
}

#[test]
fn x87_invalid_encodings() {
    // Pseudo-infinity, pseudo-NaNs (exponent all ones, integer bit clear) and
    // unnormals (exponent neither 0 nor all ones, integer bit clear) are
    // invalid operands on x87 and read as NaN.
    for bits in [
        0x7FFF_0000_0000_0000_0000u128,
        0xFFFF_0000_0000_0000_0000,
        0x7FFF_4000_0000_0000_0000,
        0x7FFF_0000_0000_0000_0001,
        0x3FFF_0000_0000_0000_0000,
        0x3FFF_4000_0000_0000_0000,
        0x0001_0000_0000_0000_0000,
        0x7FFE_7FFF_FFFF_FFFF_FFFF,
        0xBFFF_0000_0000_0000_0001,
    ] {
        assert!(x87(bits).is_nan(), "{bits:#x} reads as NaN");
        assert!(
            X87DoubleExtended::from_bits(bits).is_nan(),
            "apfloat agrees on {bits:#x}"
        );
    }
}

#[test]
fn x87_pseudo_denormals() {
    // Exponent 0 with the integer bit set denotes int.frac * 2^emin: the
    // same value as the normal with biased exponent 1, which is how it is
    // written back.
    let pd = x87(0x0000_8000_0000_0000_0000);
    assert_eq!(pd, Float::smallest_normal(X, false));
    assert!(pd.is_normal());
    assert_eq!(pd.to_bits(), 0x0001_8000_0000_0000_0000);
    let pd = x87(0x8000_C000_0000_0000_0001);
    assert_eq!(pd.to_rational(), Some(-(rat("3/2") + pow2(-63)) * pow2(-16382)));
    assert_eq!(pd.to_bits(), 0x8001_C000_0000_0000_0001);
    for bits in [
        0x0000_8000_0000_0000_0000u128,
        0x8000_FFFF_FFFF_FFFF_FFFF,
        0x0000_8000_0000_0000_0001,
    ] {
        let ap = X87DoubleExtended::from_bits(bits);
        assert_eq!(x87(bits).to_bits(), ap.to_bits(), "{bits:#x} agrees with apfloat");
    }
}

#[test]
fn x87_round_trip_and_integer_bit() {
    let mut rng = Rng(80);
    for _ in 0..20_000 {
        let f = Float::from_packed(X, rng.next_u128());
        let bits = f.to_bits();
        assert!(bits < 1 << 80);
        let int_bit = (bits >> 63) & 1 == 1;
        let exp = (bits >> 64) & 0x7FFF;
        assert_eq!(int_bit, exp != 0, "integer bit of {f}");
        assert_eq!(x87(bits), f);
        // The packed encoding is the 80-bit one without the integer bit.
        let packed = ((bits >> 64) << 63) | (bits & ((1 << 63) - 1));
        assert_eq!(packed, f.packed());
        // Same value set as (15, 64).
        let g = f.convert(X.smtlib(), RNE);
        assert_eq!(g.status, Status::OK);
        assert_eq!(g.value.packed(), f.packed());
        // And apfloat reads the same value.
        let ap = X87DoubleExtended::from_bits(bits);
        assert_eq!(ap.is_nan(), f.is_nan());
        if !f.is_nan() {
            assert_eq!(ap.to_bits(), bits);
        }
    }
}

// ----------------------------------------------------------------------------
// Special constructors

#[test]
fn special_constructors() {
    for fmt in [
        Format::BINARY16,
        Format::BFLOAT16,
        Format::BINARY32,
        Format::BINARY64,
        X,
        Format::BINARY128,
        Format::new(3, 3).unwrap(),
        Format::new(2, 2).unwrap(),
    ] {
        let p = fmt.sb() as i64;
        let (emin, emax) = (fmt.emin(), fmt.emax());
        assert_eq!(emin, 1 - emax);
        assert_eq!(fmt.bias(), (1 << (fmt.eb() - 1)) - 1);
        let nan = Float::nan(fmt);
        assert!(nan.is_nan() && !nan.sign() && nan.category() == Category::Nan);
        assert_eq!(nan.biased_exponent(), (1 << fmt.eb()) - 1);
        assert_eq!(nan.fraction(), 1 << (fmt.sb() - 2), "quiet bit only");
        assert_eq!(Float::from_packed(fmt, nan.packed() | 1), nan, "NaNs are canonicalised");
        assert_eq!(Float::from_fields(fmt, true, (1 << fmt.eb()) - 1, 1), nan);
        for neg in [false, true] {
            let s = |q: BigRational| if neg { -q } else { q };
            let inf = Float::infinity(fmt, neg);
            assert!(inf.is_infinite() && inf.sign() == neg && inf.fraction() == 0);
            let z = Float::zero(fmt, neg);
            assert!(z.is_zero() && z.sign() == neg && z.packed() == (neg as u128) << (fmt.packed_width() - 1));
            let largest = (BigRational::from_integer(2.into()) - pow2(1 - p)) * pow2(emax);
            assert_eq!(Float::largest(fmt, neg).to_rational(), Some(s(largest)));
            assert_eq!(Float::largest(fmt, neg).succ_abs(), Some(inf));
            assert_eq!(Float::smallest(fmt, neg).to_rational(), Some(s(pow2(emin - p + 1))));
            assert!(Float::smallest(fmt, neg).is_subnormal());
            assert_eq!(Float::smallest_normal(fmt, neg).to_rational(), Some(s(pow2(emin))));
            assert!(Float::smallest_normal(fmt, neg).is_normal());
            assert_eq!(Float::one(fmt, neg).to_rational(), Some(s(BigRational::one())));
            assert_eq!(Float::one(fmt, neg).exponent(), Some(0));
        }
        assert_eq!(Float::pow2(fmt, emax + 1), None);
        assert_eq!(Float::pow2(fmt, emin - p), None);
        assert_eq!(Float::pow2(fmt, emin - p + 1), Some(Float::smallest(fmt, false)));
        assert_eq!(Float::pow2(fmt, emin), Some(Float::smallest_normal(fmt, false)));
        assert_eq!(Float::pow2(fmt, 0), Some(Float::one(fmt, false)));
        assert_eq!(Float::one(fmt, false).ulp(), Float::pow2(fmt, 1 - p).unwrap());
        assert_eq!(Float::zero(fmt, true).ulp(), Float::smallest(fmt, false));
        assert_eq!(Float::infinity(fmt, true).ulp(), Float::largest(fmt, false).ulp());
        assert_eq!(Float::infinity(fmt, false).next_up(), Float::infinity(fmt, false));
        assert_eq!(Float::infinity(fmt, true).next_up(), Float::largest(fmt, true));
        assert_eq!(Float::largest(fmt, false).next_up(), Float::infinity(fmt, false));
        assert_eq!(Float::zero(fmt, true).next_up(), Float::smallest(fmt, false));
        assert_eq!(Float::smallest(fmt, true).next_up(), Float::zero(fmt, true));
        assert_eq!(Float::smallest(fmt, false).next_down(), Float::zero(fmt, false));
        assert_eq!(Float::zero(fmt, false).next_down(), Float::smallest(fmt, true));
    }
}

trait SuccAbs {
    fn succ_abs(self) -> Option<Float>;
}
impl SuccAbs for Float {
    /// The next value away from zero.
    fn succ_abs(self) -> Option<Float> {
        if self.sign() {
            self.pred()
        } else {
            self.succ()
        }
    }
}

#[test]
fn host_interop() {
    assert_eq!(Float::from_f32(f32::MAX), Float::largest(Format::BINARY32, false));
    assert_eq!(
        Float::from_f32(f32::MIN_POSITIVE),
        Float::smallest_normal(Format::BINARY32, false)
    );
    assert_eq!(
        Float::from_f32(-f32::from_bits(1)),
        Float::smallest(Format::BINARY32, true)
    );
    assert_eq!(Float::from_f64(f64::MAX), Float::largest(Format::BINARY64, false));
    assert_eq!(
        Float::from_f64(f64::MIN_POSITIVE),
        Float::smallest_normal(Format::BINARY64, false)
    );
    assert_eq!(
        Float::from_f64(f64::NEG_INFINITY),
        Float::infinity(Format::BINARY64, true)
    );
    assert_eq!(Float::from_f64(-0.0), Float::zero(Format::BINARY64, true));
    assert_eq!(
        Float::from_f32(f32::from_bits(0x7F80_0001)),
        Float::nan(Format::BINARY32)
    );
    assert_eq!(Float::from_f64(f64::NAN).to_f64().map(|x| x.is_nan()), Some(true));
    assert_eq!(Float::from_f64(1.5).to_f64(), Some(1.5));
    assert_eq!(Float::from_f64(1.5).to_f32(), None);
    assert_eq!(Float::from_f32(1.5).to_f64(), None);
    assert_eq!(Float::nan(Format::BINARY32).to_f32().unwrap().to_bits(), 0x7FC0_0000);
    assert_eq!(Float::nan(Format::BINARY64).packed(), 0x7FF8_0000_0000_0000);
    assert_eq!(
        Float::from_f64(0.1).to_rational(),
        Some(rat("3602879701896397/36028797018963968"))
    );
}

// ----------------------------------------------------------------------------
// SMT-LIB literals and display

#[test]
fn smtlib_literals() {
    let b32 = Format::BINARY32;
    assert_eq!(
        Float::from_f32(1.0).to_smtlib(),
        "(fp #b0 #b01111111 #b00000000000000000000000)"
    );
    assert_eq!(
        Float::from_f32(-2.5).to_smtlib(),
        "(fp #b1 #b10000000 #b01000000000000000000000)"
    );
    assert_eq!(
        Float::smallest(b32, false).to_smtlib(),
        "(fp #b0 #b00000000 #b00000000000000000000001)"
    );
    assert_eq!(Float::nan(b32).to_smtlib(), "(_ NaN 8 24)");
    assert_eq!(Float::infinity(b32, false).to_smtlib(), "(_ +oo 8 24)");
    assert_eq!(Float::infinity(b32, true).to_smtlib(), "(_ -oo 8 24)");
    assert_eq!(Float::zero(b32, false).to_smtlib(), "(_ +zero 8 24)");
    assert_eq!(Float::zero(b32, true).to_smtlib(), "(_ -zero 8 24)");
    assert_eq!(Float::zero(Format::BINARY64, true).to_smtlib(), "(_ -zero 11 53)");
    // x86_fp80: the SMT-LIB sort (_ FloatingPoint 15 64), no explicit integer bit.
    assert_eq!(
        Float::one(X, true).to_smtlib(),
        format!("(fp #b1 #b011111111111111 #b{})", "0".repeat(63))
    );
    assert_eq!(Float::nan(X).to_smtlib(), "(_ NaN 15 64)");
    let t = Format::new(3, 3).unwrap();
    assert_eq!(Float::smallest(t, true).to_smtlib(), "(fp #b1 #b000 #b01)");
    assert_eq!(Float::largest(t, false).to_smtlib(), "(fp #b0 #b110 #b11)");
    assert_eq!(
        Float::largest(Format::BINARY128, false).to_smtlib(),
        format!("(fp #b0 #b{}0 #b{})", "1".repeat(14), "1".repeat(112))
    );
    // Every encoding of a small format: the literal spells the packed bits.
    for bits in 0..1u128 << 6 {
        let f = Float::from_packed(t, bits);
        let s = f.to_smtlib();
        if f.is_finite() && !f.is_zero() {
            let digits: String = s.chars().filter(|c| *c == '0' || *c == '1').collect();
            assert_eq!(u128::from_str_radix(&digits, 2).unwrap(), bits, "{s}");
        }
    }
}

#[test]
fn display() {
    assert_eq!(Float::from_f32(1.0).to_string(), "1.0f32");
    assert_eq!(Float::from_f32(-0.1).to_string(), "-0.1f32");
    assert_eq!(Float::from_f64(0.1).to_string(), "0.1");
    assert_eq!(Float::from_f64(-0.0).to_string(), "-0.0");
    assert_eq!(Float::nan(Format::BINARY64).to_string(), "NaN");
    assert_eq!(Float::infinity(Format::BINARY32, true).to_string(), "-inff32");
    assert_eq!(
        Float::one(Format::BINARY16, false).to_string(),
        "(fp #b0 #b01111 #b0000000000)"
    );
    assert_eq!(format!("{:?}", Float::from_f64(2.0)), "2.0");
}

// ----------------------------------------------------------------------------
// Formats, modes, flags

#[test]
fn formats() {
    assert_eq!(Format::new(1, 5), Err(FormatError::TooSmall(1, 5)));
    assert_eq!(Format::new(5, 1), Err(FormatError::TooSmall(5, 1)));
    assert_eq!(Format::new(31, 10), Err(FormatError::TooLarge(31, 10)));
    assert_eq!(Format::new(15, 114), Err(FormatError::TooLarge(15, 114)));
    assert!(Format::new(30, 98).is_ok());
    assert!(Format::new(2, 126).is_ok());
    assert!(!FormatError::TooLarge(31, 10).to_string().is_empty());
    assert_eq!(Format::new(8, 24).unwrap(), Format::BINARY32);
    assert_eq!(Format::new(11, 53).unwrap(), Format::BINARY64);
    assert_eq!(Format::new(5, 11).unwrap(), Format::BINARY16);
    assert_eq!(Format::new(8, 8).unwrap(), Format::BFLOAT16);
    assert_eq!(Format::new(15, 113).unwrap(), Format::BINARY128);
    for (f, n, w) in [
        (Format::BINARY16, "binary16", 16),
        (Format::BFLOAT16, "bfloat16", 16),
        (Format::BINARY32, "binary32", 32),
        (Format::BINARY64, "binary64", 64),
        (Format::BINARY128, "binary128", 128),
        (Format::new(3, 4).unwrap(), "(_ FloatingPoint 3 4)", 7),
    ] {
        assert_eq!(f.name(), n);
        assert_eq!(f.width(), w);
        assert_eq!(f.packed_width(), w);
        assert_eq!(f.smtlib(), f);
        assert_eq!(f.frac_bits(), f.sb() - 1);
    }
    assert_eq!(Format::BINARY64.to_string(), "(_ FloatingPoint 11 53)");
    assert_eq!((Format::BINARY32.emin(), Format::BINARY32.emax()), (-126, 127));
}

#[test]
fn rounding_modes() {
    assert_eq!(RoundingMode::ALL, MODES);
    let names = ["RNE", "RNA", "RTP", "RTN", "RTZ"];
    let long = [
        "roundNearestTiesToEven",
        "roundNearestTiesToAway",
        "roundTowardPositive",
        "roundTowardNegative",
        "roundTowardZero",
    ];
    for (i, rm) in RoundingMode::ALL.iter().enumerate() {
        assert_eq!(rm.smtlib_name(), names[i]);
        assert_eq!(rm.to_string(), names[i]);
        assert_eq!(RoundingMode::from_smtlib(names[i]), Some(*rm));
        assert_eq!(RoundingMode::from_smtlib(long[i]), Some(*rm));
        assert_eq!(rm.mirrored().mirrored(), *rm);
    }
    assert_eq!(RoundingMode::from_smtlib("rne"), None);
    assert_eq!(RTP.mirrored(), RTN);
    assert_eq!(RNA.mirrored(), RNA);
    // mirrored: rounding -x in mode m is -(rounding x in m.mirrored()).
    let t = Format::new(4, 4).unwrap();
    for bits in 0..1u128 << 8 {
        let x = Float::from_packed(t, bits);
        let third = Float::from_rational(t, &rat("1/3"), RNE).value;
        for rm in MODES {
            let a = x.mul(third, rm).value.neg();
            let b = x.neg().mul(third, rm.mirrored()).value;
            assert_eq!(a, b, "{x} {rm}");
        }
    }
}

#[test]
fn status_flags() {
    let all = [
        Status::INVALID,
        Status::DIV_BY_ZERO,
        Status::OVERFLOW,
        Status::UNDERFLOW,
        Status::INEXACT,
    ];
    assert_eq!(all.map(|s| s.bits()), [1, 2, 4, 8, 16]);
    assert!(Status::OK.is_ok() && Status::default().is_ok());
    let s = Status::OVERFLOW | Status::INEXACT;
    assert!(s.contains(Status::OVERFLOW) && s.contains(Status::INEXACT) && !s.contains(Status::UNDERFLOW));
    assert!(s.contains(Status::OK));
    let mut t = Status::OK;
    t |= Status::INVALID;
    assert_eq!(t, Status::INVALID);
    assert_eq!(Status::from_bits(0xFF).bits(), 31);
    assert_eq!(format!("{:?}", Status::OK), "ok");
    assert_eq!(
        format!("{:?}", Status::UNDERFLOW | Status::INEXACT),
        "underflow|inexact"
    );
    assert_eq!(
        format!("{:?}", Status::from_bits(31)),
        "invalid|div-by-zero|overflow|underflow|inexact"
    );
    let r = StatusAnd::new(3, Status::INEXACT).map(|x| x * 2);
    assert_eq!((r.value, r.status), (6, Status::INEXACT));
    assert_eq!(StatusAnd::exact(1).status, Status::OK);
}

#[test]
fn ieee_examples() {
    let b = Format::BINARY64;
    let f = Float::from_f64;
    // Exact cancellation: +0, or -0 when rounding toward negative.
    assert_eq!(f(1.5).sub(f(1.5), RNE).value, f(0.0));
    assert_eq!(f(1.5).sub(f(1.5), RTN).value, f(-0.0));
    assert_eq!(f(-0.0).add(f(-0.0), RNE).value, f(-0.0));
    assert_eq!(f(-0.0).add(f(0.0), RTN).value, f(-0.0));
    assert_eq!(f(-0.0).add(f(0.0), RTP).value, f(0.0));
    // A negative result that underflows to zero keeps its sign.
    let r = f(-1e-300).mul(f(1e-300), RNE);
    assert_eq!((r.value, r.status), (f(-0.0), Status::UNDERFLOW | Status::INEXACT));
    // Overflow by rounding direction.
    let big = Float::largest(b, false);
    assert_eq!(big.add(big, RTZ).value, big);
    assert_eq!(big.add(big, RTZ).status, Status::OVERFLOW | Status::INEXACT);
    assert_eq!(big.neg().add(big.neg(), RTP).value, big.neg());
    assert_eq!(big.neg().add(big.neg(), RTN).value, Float::infinity(b, true));
    // Invalid operations.
    for r in [
        Float::infinity(b, false).sub(Float::infinity(b, false), RNE),
        f(0.0).mul(Float::infinity(b, true), RNE),
        f(0.0).div(f(-0.0), RNE),
        Float::infinity(b, true).div(Float::infinity(b, false), RNE),
        f(-1.0).sqrt(RNE),
        Float::infinity(b, true).sqrt(RNE),
        f(1.0).rem(f(0.0)),
        Float::infinity(b, false).rem(f(1.0)),
        Float::infinity(b, false).fma(f(0.0), f(1.0), RNE),
        Float::infinity(b, false).fma(f(1.0), Float::infinity(b, true), RNE),
    ] {
        assert!(r.value.is_nan());
        assert_eq!(r.status, Status::INVALID);
    }
    assert_eq!(
        f(-1.0).div(f(0.0), RNE),
        StatusAnd::new(Float::infinity(b, true), Status::DIV_BY_ZERO)
    );
    assert_eq!(f(-0.0).sqrt(RNE).value, f(-0.0));
    // Remainder: ties to even quotient, zero takes the sign of x.
    assert_eq!(f(5.0).rem(f(2.0)).value, f(1.0));
    assert_eq!(f(7.0).rem(f(2.0)).value, f(-1.0));
    assert_eq!(f(-4.0).rem(f(2.0)).value, f(-0.0));
    assert_eq!(f(3.0).rem(Float::infinity(b, true)).value, f(3.0));
    // roundToIntegral keeps the sign of zero results.
    assert_eq!(
        f(-0.25).round_to_integral(RNE),
        StatusAnd::new(f(-0.0), Status::INEXACT)
    );
    assert_eq!(f(2.5).round_to_integral(RNE).value, f(2.0));
    assert_eq!(f(2.5).round_to_integral(RNA).value, f(3.0));
    assert_eq!(f(-2.5).round_to_integral(RTP).value, f(-2.0));
    // fp.min/fp.max on zeros and NaN.
    assert_eq!(f(0.0).min(f(-0.0)), f(-0.0));
    assert_eq!(f(-0.0).max(f(0.0)), f(0.0));
    assert_eq!(f(f64::NAN).min(f(1.0)), f(1.0));
    assert_eq!(f(1.0).max(f(f64::NAN)), f(1.0));
    // Integer conversions.
    assert_eq!(f(-1.5).to_bv(RTZ, 8, true), StatusAnd::new(Some(0xFF), Status::INEXACT));
    assert_eq!(
        f(255.5).to_bv(RTZ, 8, false),
        StatusAnd::new(Some(255), Status::INEXACT)
    );
    assert_eq!(f(255.5).to_bv(RNE, 8, false), StatusAnd::new(None, Status::INVALID));
    assert_eq!(f(-0.5).to_bv(RTZ, 8, false), StatusAnd::new(Some(0), Status::INEXACT));
    assert_eq!(f(-128.0).to_bv(RNE, 8, true), StatusAnd::exact(Some(0x80)));
    assert_eq!(f(f64::NAN).to_bv(RNE, 32, true), StatusAnd::new(None, Status::INVALID));
    assert_eq!(Float::from_bv(b, 0x80, 8, true, RNE).value, f(-128.0));
    assert_eq!(Float::from_bv(b, 0x80, 8, false, RNE).value, f(128.0));
    assert_eq!(Float::from_bv(b, 0, 8, true, RTN).value, f(0.0));
    assert_eq!(
        Float::from_bv(b, u128::MAX, 128, false, RTZ).value,
        f(2f64.powi(128) - 2f64.powi(75))
    );
    assert_eq!(Float::from_bigint(b, &BigInt::from(-3), RNE).value, f(-3.0));
    assert_eq!(Float::from_rational(b, &rat("0"), RTN).value, f(0.0));
}

// ----------------------------------------------------------------------------
// Wide exponents

/// Operations whose exact intermediate integers could span the whole exponent
/// range (2^31 bits for eb = 30) stay fast.
#[test]
fn wide_exponent_formats_stay_fast() {
    let start = Instant::now();
    for fmt in [
        Format::new(30, 98).unwrap(),
        Format::new(30, 3).unwrap(),
        Format::new(24, 40).unwrap(),
        Format::BINARY128,
    ] {
        let big = Float::largest(fmt, false);
        let tiny = Float::smallest(fmt, false);
        // largest is a multiple of smallest.
        assert_eq!(big.rem(tiny).value, Float::zero(fmt, false), "{fmt}");
        assert_eq!(big.neg().rem(tiny).value, Float::zero(fmt, true), "{fmt}");
        // 2^E rem 3*2^k = ±2^k: 2^n mod 3 is 1 for even n and 2 (nearer to 3) for odd n.
        let three_tiny = Float::from_fields(fmt, false, 0, 3);
        let e = fmt.emax();
        let n = e - (fmt.emin() - fmt.sb() as i64 + 1);
        let p = Float::pow2(fmt, e).unwrap();
        let want = if n % 2 == 0 { tiny } else { tiny.neg() };
        assert_eq!(p.rem(three_tiny), StatusAnd::exact(want), "{fmt}");
        let p1 = Float::pow2(fmt, e - 1).unwrap();
        assert_eq!(p1.rem(three_tiny).value, want.neg(), "{fmt}");
        for rm in MODES {
            assert_eq!(big.to_bv(rm, 128, false), StatusAnd::new(None, Status::INVALID));
            assert_eq!(big.neg().to_bv(rm, 64, true), StatusAnd::new(None, Status::INVALID));
            assert_eq!(tiny.to_bv(rm, 8, true).value, Some(if rm == RTP { 1 } else { 0 }));
            let r = big.mul(tiny, rm);
            assert!(r.value.is_finite());
            let s = big.add(tiny, rm);
            assert_eq!(s.value, if rm == RTP { Float::infinity(fmt, false) } else { big });
            let q = tiny.div(big, rm);
            assert!(q.value.is_zero() || q.value == tiny);
            assert!(q.status.contains(Status::UNDERFLOW));
            let f = big.fma(tiny, big.neg(), rm);
            assert!(f.value.is_finite() && f.value.is_negative());
            assert!(big.sqrt(rm).value.is_normal());
            assert_eq!(big.round_to_integral(rm).value, big);
        }
        assert!(FloatInterval::full(fmt).count() > 4);
    }
    assert!(start.elapsed().as_secs_f64() < 5.0, "took {:?}", start.elapsed());
}

/// Counts and midpoints of intervals spanning most of a 128-bit format do
/// not overflow the i128 ordinals.
#[test]
fn interval_counts_near_128_bits() {
    for fmt in [
        Format::BINARY128,
        Format::new(2, 126).unwrap(),
        Format::new(30, 98).unwrap(),
    ] {
        let inf = Float::infinity(fmt, false);
        let n = inf.ordinal().unwrap() as u128;
        let full = FloatInterval::full(fmt);
        assert_eq!(full.count(), 2 * (n + 1) + 1, "{fmt}");
        assert_eq!(full.count_non_nan(), 2 * (n + 1));
        assert_eq!(full.midpoint(), Some(Float::zero(fmt, true)));
        let pos = FloatInterval::new(Float::zero(fmt, false), inf, false);
        assert_eq!(pos.count(), n + 1);
        assert_eq!(pos.midpoint().unwrap().ordinal(), Some(n as i128 / 2));
        let (a, b) = pos.split().unwrap();
        assert_eq!(a.count() + b.count(), pos.count());
        assert_eq!(a.hi().unwrap().succ(), b.lo());
        let neg = FloatInterval::new(inf.neg(), Float::zero(fmt, true), true);
        assert_eq!(neg.midpoint().unwrap().ordinal(), Some((-(n as i128) - 2) / 2));
        assert_eq!(neg.intersect(&pos).count(), 0);
        assert_eq!(neg.hull(&pos), full);
    }
}
