//! Floating-point formats.

use std::fmt;

/// A binary floating-point format `(eb, sb)`: `eb` exponent bits and `sb`
/// significand bits *including* the hidden bit, as in SMT-LIB
/// `(_ FloatingPoint eb sb)`.
///
/// The value set of `x86_fp80` is that of `(15, 64)`; it differs only in its
/// 80-bit interchange encoding, which stores the integer bit explicitly
/// ([`Format::X86_FP80`] sets `explicit_int`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Format {
    eb: u32,
    sb: u32,
    explicit_int: bool,
}

/// Why a format cannot be represented.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// Exponent or significand width below 2.
    #[error("floating-point format (_ FloatingPoint {0} {1}) needs eb >= 2 and sb >= 2")]
    TooSmall(u32, u32),
    /// The packed encoding does not fit in 128 bits or the exponent in 30 bits.
    #[error(
        "floating-point format (_ FloatingPoint {0} {1}) is not supported: fpsym handles eb <= 30 and eb + sb <= 128"
    )]
    TooLarge(u32, u32),
}

impl Format {
    /// IEEE binary16.
    pub const BINARY16: Format = Format {
        eb: 5,
        sb: 11,
        explicit_int: false,
    };
    /// bfloat16.
    pub const BFLOAT16: Format = Format {
        eb: 8,
        sb: 8,
        explicit_int: false,
    };
    /// IEEE binary32 (C `float`).
    pub const BINARY32: Format = Format {
        eb: 8,
        sb: 24,
        explicit_int: false,
    };
    /// IEEE binary64 (C `double`).
    pub const BINARY64: Format = Format {
        eb: 11,
        sb: 53,
        explicit_int: false,
    };
    /// x87 double extended (C `long double` on x86-64): values of `(15, 64)`,
    /// 80-bit encoding with an explicit integer bit.
    pub const X86_FP80: Format = Format {
        eb: 15,
        sb: 64,
        explicit_int: true,
    };
    /// IEEE binary128.
    pub const BINARY128: Format = Format {
        eb: 15,
        sb: 113,
        explicit_int: false,
    };

    /// The format `(_ FloatingPoint eb sb)`.
    pub fn new(eb: u32, sb: u32) -> Result<Format, FormatError> {
        if eb < 2 || sb < 2 {
            return Err(FormatError::TooSmall(eb, sb));
        }
        if eb > 30 || eb + sb > 128 {
            return Err(FormatError::TooLarge(eb, sb));
        }
        Ok(Format {
            eb,
            sb,
            explicit_int: false,
        })
    }

    /// Exponent field width.
    pub fn eb(self) -> u32 {
        self.eb
    }
    /// Precision in bits, counting the hidden (or explicit) integer bit.
    pub fn sb(self) -> u32 {
        self.sb
    }
    /// True for x86_fp80, whose interchange encoding stores the integer bit.
    pub fn has_explicit_int_bit(self) -> bool {
        self.explicit_int
    }
    /// The same value set with the SMT-LIB packed encoding (drops the explicit integer bit).
    pub fn smtlib(self) -> Format {
        Format {
            explicit_int: false,
            ..self
        }
    }
    /// Width of the SMT-LIB packed encoding: `eb + sb`.
    pub fn packed_width(self) -> u32 {
        self.eb + self.sb
    }
    /// Width of the interchange encoding (80 for x86_fp80, else `eb + sb`).
    pub fn width(self) -> u32 {
        self.eb + self.sb + self.explicit_int as u32
    }
    /// Exponent bias `2^(eb-1) - 1`.
    pub fn bias(self) -> i64 {
        (1i64 << (self.eb - 1)) - 1
    }
    /// Largest unbiased exponent of a finite value.
    pub fn emax(self) -> i64 {
        self.bias()
    }
    /// Smallest unbiased exponent of a normal value, `1 - bias`.
    pub fn emin(self) -> i64 {
        1 - self.bias()
    }
    /// Number of fraction bits stored in the packed encoding (`sb - 1`).
    pub fn frac_bits(self) -> u32 {
        self.sb - 1
    }
    pub(crate) fn exp_mask(self) -> u128 {
        (1u128 << self.eb) - 1
    }
    pub(crate) fn frac_mask(self) -> u128 {
        (1u128 << (self.sb - 1)) - 1
    }
    /// A conventional name (`binary32`, ...) or the SMT-LIB sort.
    pub fn name(self) -> String {
        match self {
            Format::BINARY16 => "binary16".into(),
            Format::BFLOAT16 => "bfloat16".into(),
            Format::BINARY32 => "binary32".into(),
            Format::BINARY64 => "binary64".into(),
            Format::X86_FP80 => "x86_fp80".into(),
            Format::BINARY128 => "binary128".into(),
            _ => format!("(_ FloatingPoint {} {})", self.eb, self.sb),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(_ FloatingPoint {} {})", self.eb, self.sb)
    }
}
