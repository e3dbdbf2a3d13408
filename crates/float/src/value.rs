//! The `Float` value type: encoding, classification, ordinals, neighbours.

use crate::format::Format;
use std::cmp::Ordering;
use std::fmt;

/// An IEEE-754 value of some [`Format`].
///
/// Stored as the SMT-LIB packed encoding (`sign | exponent | fraction`,
/// `eb + sb` bits). NaN is always the canonical quiet NaN, so derived equality
/// is SMT-LIB `=` (NaN equals NaN, `-0` differs from `+0`); IEEE equality is
/// [`Float::ieee_eq`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Float {
    fmt: Format,
    bits: u128,
}

/// The IEEE class of a value, without its sign.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Category {
    /// Not a number.
    Nan,
    /// Plus or minus infinity.
    Infinite,
    /// Plus or minus zero.
    Zero,
    /// Non-zero with the minimum exponent and no integer bit.
    Subnormal,
    /// Finite, non-zero, with an integer bit.
    Normal,
}

impl Float {
    /// The value whose SMT-LIB packed encoding is `bits` (the low `eb + sb` bits).
    /// Any NaN encoding gives the canonical NaN.
    pub fn from_packed(fmt: Format, bits: u128) -> Float {
        let fmt_p = fmt;
        let bits = bits & mask(fmt.packed_width());
        let f = Float { fmt: fmt_p, bits };
        if f.biased_exponent() == fmt.exp_mask() as u64 && f.fraction() != 0 {
            Float::nan(fmt)
        } else {
            f
        }
    }

    /// The SMT-LIB packed encoding (`eb + sb` bits).
    pub fn packed(self) -> u128 {
        self.bits
    }

    /// The value of an interchange encoding of `fmt.width()` bits. For
    /// x86_fp80, pseudo-denormals read as the value they denote; unnormals,
    /// pseudo-infinities and pseudo-NaNs (invalid operands on x87) read as NaN.
    pub fn from_bits(fmt: Format, bits: u128) -> Float {
        if !fmt.has_explicit_int_bit() {
            return Float::from_packed(fmt, bits);
        }
        let bits = bits & mask(fmt.width());
        let fb = fmt.frac_bits();
        let int_bit = (bits >> fb) & 1;
        let frac = bits & fmt.frac_mask();
        let exp = (bits >> (fb + 1)) & fmt.exp_mask();
        let sign = bits >> (fb + 1 + fmt.eb());
        if exp == 0 {
            if int_bit == 1 {
                // Pseudo-denormal: value int.frac * 2^emin, i.e. the normal with exponent 1.
                return Float::from_fields(fmt, sign == 1, 1, frac);
            }
            return Float::from_fields(fmt, sign == 1, 0, frac);
        }
        if int_bit == 0 {
            return Float::nan(fmt);
        }
        Float::from_fields(fmt, sign == 1, exp as u64, frac)
    }

    /// The interchange encoding (`fmt.width()` bits; 80 for x86_fp80 with the
    /// integer bit stored). NaN encodes as the canonical quiet NaN.
    pub fn to_bits(self) -> u128 {
        if !self.fmt.has_explicit_int_bit() {
            return self.bits;
        }
        let fb = self.fmt.frac_bits();
        let exp = self.biased_exponent() as u128;
        let int_bit: u128 = if exp != 0 { 1 } else { 0 };
        ((self.sign() as u128) << (fb + 1 + self.fmt.eb())) | (exp << (fb + 1)) | (int_bit << fb) | self.fraction()
    }

    /// The value with the given fields of the packed encoding. Out-of-range
    /// fields are masked.
    pub fn from_fields(fmt: Format, sign: bool, biased_exp: u64, fraction: u128) -> Float {
        let fb = fmt.frac_bits();
        let bits = ((sign as u128) << (fb + fmt.eb()))
            | (((biased_exp as u128) & fmt.exp_mask()) << fb)
            | (fraction & fmt.frac_mask());
        Float::from_packed(fmt, bits)
    }

    /// The format of this value.
    pub fn format(self) -> Format {
        self.fmt
    }
    /// The canonical quiet NaN.
    pub fn nan(fmt: Format) -> Float {
        let fb = fmt.frac_bits();
        Float {
            fmt,
            bits: (fmt.exp_mask() << fb) | (1u128 << (fb - 1)),
        }
    }
    /// Positive or negative infinity.
    pub fn infinity(fmt: Format, negative: bool) -> Float {
        Float::from_fields(fmt, negative, fmt.exp_mask() as u64, 0)
    }
    /// Positive or negative zero.
    pub fn zero(fmt: Format, negative: bool) -> Float {
        Float::from_fields(fmt, negative, 0, 0)
    }
    /// The largest finite value, with the given sign.
    pub fn largest(fmt: Format, negative: bool) -> Float {
        Float::from_fields(fmt, negative, fmt.exp_mask() as u64 - 1, fmt.frac_mask())
    }
    /// The smallest positive subnormal, with the given sign.
    pub fn smallest(fmt: Format, negative: bool) -> Float {
        Float::from_fields(fmt, negative, 0, 1)
    }
    /// The smallest positive normal, with the given sign.
    pub fn smallest_normal(fmt: Format, negative: bool) -> Float {
        Float::from_fields(fmt, negative, 1, 0)
    }
    /// One, with the given sign.
    pub fn one(fmt: Format, negative: bool) -> Float {
        Float::from_fields(fmt, negative, fmt.bias() as u64, 0)
    }

    /// Sign bit (true for negative, including `-0`; false for NaN).
    pub fn sign(self) -> bool {
        (self.bits >> (self.fmt.packed_width() - 1)) & 1 == 1
    }
    /// The biased exponent field.
    pub fn biased_exponent(self) -> u64 {
        ((self.bits >> self.fmt.frac_bits()) & self.fmt.exp_mask()) as u64
    }
    /// The fraction field (`sb - 1` bits, without the integer bit).
    pub fn fraction(self) -> u128 {
        self.bits & self.fmt.frac_mask()
    }
    /// The significand with its integer bit (`sb` bits; 0 for zero, NaN and infinities
    /// are not meaningful).
    pub fn significand(self) -> u128 {
        let hidden = if self.biased_exponent() != 0 {
            1u128 << self.fmt.frac_bits()
        } else {
            0
        };
        hidden | self.fraction()
    }
    /// The unbiased exponent of a finite non-zero value (`emin` for subnormals), or None.
    pub fn exponent(self) -> Option<i64> {
        match self.category() {
            Category::Normal => Some(self.biased_exponent() as i64 - self.fmt.bias()),
            Category::Subnormal => Some(self.fmt.emin()),
            _ => None,
        }
    }

    /// The IEEE class.
    pub fn category(self) -> Category {
        let e = self.biased_exponent();
        let f = self.fraction();
        if e == self.fmt.exp_mask() as u64 {
            if f == 0 {
                Category::Infinite
            } else {
                Category::Nan
            }
        } else if e == 0 {
            if f == 0 {
                Category::Zero
            } else {
                Category::Subnormal
            }
        } else {
            Category::Normal
        }
    }
    /// NaN?
    pub fn is_nan(self) -> bool {
        self.category() == Category::Nan
    }
    /// Plus or minus infinity?
    pub fn is_infinite(self) -> bool {
        self.category() == Category::Infinite
    }
    /// Plus or minus zero?
    pub fn is_zero(self) -> bool {
        self.category() == Category::Zero
    }
    /// Subnormal?
    pub fn is_subnormal(self) -> bool {
        self.category() == Category::Subnormal
    }
    /// Normal?
    pub fn is_normal(self) -> bool {
        self.category() == Category::Normal
    }
    /// Neither NaN nor infinite?
    pub fn is_finite(self) -> bool {
        !matches!(self.category(), Category::Nan | Category::Infinite)
    }
    /// SMT-LIB `fp.isNegative`: negative and not NaN (true for `-0`).
    pub fn is_negative(self) -> bool {
        !self.is_nan() && self.sign()
    }
    /// SMT-LIB `fp.isPositive`: positive and not NaN (true for `+0`).
    pub fn is_positive(self) -> bool {
        !self.is_nan() && !self.sign()
    }

    /// Absolute value (clears the sign; NaN stays NaN).
    pub fn abs(self) -> Float {
        if self.is_nan() {
            return self;
        }
        Float {
            fmt: self.fmt,
            bits: self.bits & !(1u128 << (self.fmt.packed_width() - 1)),
        }
    }
    /// Negation (flips the sign; NaN stays NaN).
    // Not `std::ops` traits: these return flags or are exact value operations.
    #[allow(clippy::should_implement_trait)]
    pub fn neg(self) -> Float {
        if self.is_nan() {
            return self;
        }
        Float {
            fmt: self.fmt,
            bits: self.bits ^ (1u128 << (self.fmt.packed_width() - 1)),
        }
    }
    /// This value with the given sign (`negative` = true for a negative sign;
    /// copysign). NaN stays NaN.
    pub fn copy_sign(self, negative: bool) -> Float {
        if self.sign() == negative {
            self
        } else {
            self.neg()
        }
    }

    /// The position of this value in the total order `-inf < ... < -0 < +0 < ... < +inf`
    /// as an integer: `+0` is 0, `-0` is -1, and neighbours differ by one. None for NaN.
    pub fn ordinal(self) -> Option<i128> {
        if self.is_nan() {
            return None;
        }
        let mag = (self.bits & mask(self.fmt.packed_width() - 1)) as i128;
        Some(if self.sign() { -mag - 1 } else { mag })
    }

    /// The value with the given ordinal, or None outside `[-inf, +inf]`.
    pub fn from_ordinal(fmt: Format, ord: i128) -> Option<Float> {
        let max = Float::infinity(fmt, false).bits as i128;
        if ord > max || ord < -max - 1 {
            return None;
        }
        Some(if ord >= 0 {
            Float { fmt, bits: ord as u128 }
        } else {
            Float {
                fmt,
                bits: ((-(ord + 1)) as u128) | (1u128 << (fmt.packed_width() - 1)),
            }
        })
    }

    /// The next value in the ordinal order (`-0` is followed by `+0`); None after `+inf` or for NaN.
    pub fn succ(self) -> Option<Float> {
        Float::from_ordinal(self.fmt, self.ordinal()? + 1)
    }
    /// The previous value in the ordinal order (`+0` is preceded by `-0`); None before `-inf` or for NaN.
    pub fn pred(self) -> Option<Float> {
        Float::from_ordinal(self.fmt, self.ordinal()? - 1)
    }

    /// The IEEE comparison key of a non-NaN value: its ordinal with `-0` and
    /// `+0` sharing key 0, so `x <= y` (IEEE) iff `key(x) <= key(y)`. None for NaN.
    pub fn ieee_key(self) -> Option<i128> {
        let o = self.ordinal()?;
        Some(if o < 0 { o + 1 } else { o })
    }
    /// The least value whose [`Float::ieee_key`] is at least `k` (clamped to
    /// `[-inf, +inf]`): `-0` for key 0.
    pub fn least_with_key(fmt: Format, k: i128) -> Float {
        Float::clamped_ordinal(fmt, if k > 0 { k } else { k - 1 })
    }
    /// The greatest value whose [`Float::ieee_key`] is at most `k` (clamped to
    /// `[-inf, +inf]`): `+0` for key 0.
    pub fn greatest_with_key(fmt: Format, k: i128) -> Float {
        Float::clamped_ordinal(fmt, if k >= 0 { k } else { k - 1 })
    }
    /// The value with ordinal `o`, clamped to `[-inf, +inf]`.
    pub fn clamped_ordinal(fmt: Format, o: i128) -> Float {
        let max = Float::infinity(fmt, false).bits as i128;
        Float::from_ordinal(fmt, o.clamp(-max - 1, max)).expect("clamped")
    }

    /// IEEE nextUp: the least value greater than this one (zeros of both signs go
    /// to the smallest subnormal; `+inf` stays; NaN stays).
    pub fn next_up(self) -> Float {
        match self.category() {
            Category::Nan => self,
            Category::Zero => Float::smallest(self.fmt, false),
            _ if self == Float::infinity(self.fmt, false) => self,
            _ => {
                let s = self.succ().expect("not +inf");
                if s.is_zero() {
                    // -smallest goes to -0
                    Float::zero(self.fmt, true)
                } else {
                    s
                }
            }
        }
    }
    /// IEEE nextDown: `-nextUp(-x)`.
    pub fn next_down(self) -> Float {
        self.neg().next_up().neg()
    }

    /// The unit in the last place of a finite value: the distance from `|x|` to
    /// the next larger-magnitude float of the same exponent, `2^(max(e, emin) - sb + 1)`.
    /// For infinities, the ulp of the largest finite value; NaN gives NaN.
    pub fn ulp(self) -> Float {
        let e = match self.category() {
            Category::Nan => return self,
            Category::Infinite => self.fmt.emax(),
            Category::Zero | Category::Subnormal => self.fmt.emin(),
            Category::Normal => self.exponent().unwrap(),
        };
        let u = e - (self.fmt.sb() as i64 - 1);
        Float::pow2(self.fmt, u).expect("ulp of a format is representable")
    }

    /// `2^k` if representable exactly in `fmt`.
    pub fn pow2(fmt: Format, k: i64) -> Option<Float> {
        let fb = fmt.frac_bits() as i64;
        if k > fmt.emax() || k < fmt.emin() - fb {
            return None;
        }
        if k >= fmt.emin() {
            Some(Float::from_fields(fmt, false, (k + fmt.bias()) as u64, 0))
        } else {
            Some(Float::from_fields(fmt, false, 0, 1u128 << (k - (fmt.emin() - fb))))
        }
    }

    /// IEEE equality (`fp.eq`): NaN is unequal to everything, `-0 == +0`.
    pub fn ieee_eq(self, other: Float) -> bool {
        self.ieee_cmp(other) == Some(Ordering::Equal)
    }
    /// IEEE comparison: None when either is NaN; `-0` and `+0` are equal.
    pub fn ieee_cmp(self, other: Float) -> Option<Ordering> {
        if self.is_nan() || other.is_nan() {
            return None;
        }
        if self.is_zero() && other.is_zero() {
            return Some(Ordering::Equal);
        }
        Some(self.ordinal()?.cmp(&other.ordinal()?))
    }
    /// The total order by ordinal (`-0 < +0`); None when either is NaN.
    pub fn total_cmp(self, other: Float) -> Option<Ordering> {
        Some(self.ordinal()?.cmp(&other.ordinal()?))
    }

    /// The value as an `f32` (the format must be binary32).
    pub fn to_f32(self) -> Option<f32> {
        (self.fmt.smtlib() == Format::BINARY32).then(|| f32::from_bits(self.bits as u32))
    }
    /// The value as an `f64` (the format must be binary64).
    pub fn to_f64(self) -> Option<f64> {
        (self.fmt.smtlib() == Format::BINARY64).then(|| f64::from_bits(self.bits as u64))
    }
    /// A binary32 value from an `f32` (any NaN becomes the canonical NaN).
    pub fn from_f32(x: f32) -> Float {
        Float::from_packed(Format::BINARY32, x.to_bits() as u128)
    }
    /// A binary64 value from an `f64` (any NaN becomes the canonical NaN).
    pub fn from_f64(x: f64) -> Float {
        Float::from_packed(Format::BINARY64, x.to_bits() as u128)
    }

    /// The SMT-LIB literal `(fp #b<sign> #b<exponent> #b<fraction>)`, or
    /// `(_ NaN eb sb)`, `(_ +oo eb sb)`, ... for special values.
    pub fn to_smtlib(self) -> String {
        let (eb, sb) = (self.fmt.eb(), self.fmt.sb());
        match self.category() {
            Category::Nan => format!("(_ NaN {eb} {sb})"),
            Category::Infinite => format!("(_ {}oo {eb} {sb})", if self.sign() { '-' } else { '+' }),
            Category::Zero => format!("(_ {}zero {eb} {sb})", if self.sign() { '-' } else { '+' }),
            _ => format!(
                "(fp #b{} #b{:0ew$b} #b{:0fw$b})",
                self.sign() as u8,
                self.biased_exponent(),
                self.fraction(),
                ew = eb as usize,
                fw = (sb - 1) as usize
            ),
        }
    }
}

pub(crate) fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

impl fmt::Debug for Float {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self)
    }
}

impl fmt::Display for Float {
    /// Decimal for binary32/binary64 (shortest round-trip), else the SMT-LIB literal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(x) = self.to_f32() {
            if self.fmt == Format::BINARY32 {
                return write!(f, "{:?}f32", x);
            }
        }
        if let Some(x) = self.to_f64() {
            if self.fmt == Format::BINARY64 {
                return write!(f, "{:?}", x);
            }
        }
        f.write_str(&self.to_smtlib())
    }
}
