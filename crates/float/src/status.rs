//! Rounding modes and IEEE status flags.

use std::fmt;
use std::ops::{BitOr, BitOrAssign};

/// The five IEEE-754 rounding-direction attributes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum RoundingMode {
    /// roundTiesToEven (SMT-LIB `RNE`).
    NearestTiesToEven,
    /// roundTiesToAway (SMT-LIB `RNA`).
    NearestTiesToAway,
    /// roundTowardPositive (SMT-LIB `RTP`).
    TowardPositive,
    /// roundTowardNegative (SMT-LIB `RTN`).
    TowardNegative,
    /// roundTowardZero (SMT-LIB `RTZ`).
    TowardZero,
}

impl RoundingMode {
    /// All five modes, in SMT-LIB order RNE, RNA, RTP, RTN, RTZ.
    pub const ALL: [RoundingMode; 5] = [
        RoundingMode::NearestTiesToEven,
        RoundingMode::NearestTiesToAway,
        RoundingMode::TowardPositive,
        RoundingMode::TowardNegative,
        RoundingMode::TowardZero,
    ];

    /// The SMT-LIB short name (`RNE`, `RNA`, `RTP`, `RTN`, `RTZ`).
    pub fn smtlib_name(self) -> &'static str {
        match self {
            RoundingMode::NearestTiesToEven => "RNE",
            RoundingMode::NearestTiesToAway => "RNA",
            RoundingMode::TowardPositive => "RTP",
            RoundingMode::TowardNegative => "RTN",
            RoundingMode::TowardZero => "RTZ",
        }
    }

    /// Parses either SMT-LIB spelling (`RNE` or `roundNearestTiesToEven`, ...).
    pub fn from_smtlib(name: &str) -> Option<RoundingMode> {
        Some(match name {
            "RNE" | "roundNearestTiesToEven" => RoundingMode::NearestTiesToEven,
            "RNA" | "roundNearestTiesToAway" => RoundingMode::NearestTiesToAway,
            "RTP" | "roundTowardPositive" => RoundingMode::TowardPositive,
            "RTN" | "roundTowardNegative" => RoundingMode::TowardNegative,
            "RTZ" | "roundTowardZero" => RoundingMode::TowardZero,
            _ => return None,
        })
    }

    /// The mode that rounds `-x` as this mode rounds `x`, negated
    /// (`RTP` and `RTN` swap; the others are symmetric).
    pub fn mirrored(self) -> RoundingMode {
        match self {
            RoundingMode::TowardPositive => RoundingMode::TowardNegative,
            RoundingMode::TowardNegative => RoundingMode::TowardPositive,
            m => m,
        }
    }
}

impl fmt::Display for RoundingMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.smtlib_name())
    }
}

/// A set of IEEE-754 exception flags.
///
/// Underflow follows the x86-64 SSE convention (the target of fpsym): tininess
/// is detected after rounding, and the flag is raised only when the result is
/// also inexact (IEEE 754 default exception handling).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Status(u8);

impl Status {
    /// No flag raised.
    pub const OK: Status = Status(0);
    /// Invalid operation (e.g. `0/0`, `inf - inf`, `sqrt(-1)`, NaN to integer).
    pub const INVALID: Status = Status(1);
    /// Division of a finite non-zero value by zero.
    pub const DIV_BY_ZERO: Status = Status(2);
    /// The rounded result's magnitude exceeds the largest finite value.
    pub const OVERFLOW: Status = Status(4);
    /// The result is tiny (after rounding) and inexact.
    pub const UNDERFLOW: Status = Status(8);
    /// The rounded result differs from the exact result.
    pub const INEXACT: Status = Status(16);

    /// True when every flag of `other` is raised in `self`.
    pub fn contains(self, other: Status) -> bool {
        self.0 & other.0 == other.0
    }
    /// True when no flag is raised.
    pub fn is_ok(self) -> bool {
        self.0 == 0
    }
    /// The raw flag bits (invalid=1, div-by-zero=2, overflow=4, underflow=8, inexact=16).
    pub fn bits(self) -> u8 {
        self.0
    }
    /// The flags from raw bits; unknown bits are dropped.
    pub fn from_bits(bits: u8) -> Status {
        Status(bits & 31)
    }
}

impl BitOr for Status {
    type Output = Status;
    fn bitor(self, rhs: Status) -> Status {
        Status(self.0 | rhs.0)
    }
}

impl BitOrAssign for Status {
    fn bitor_assign(&mut self, rhs: Status) {
        self.0 |= rhs.0
    }
}

impl fmt::Debug for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = [
            (Status::INVALID, "invalid"),
            (Status::DIV_BY_ZERO, "div-by-zero"),
            (Status::OVERFLOW, "overflow"),
            (Status::UNDERFLOW, "underflow"),
            (Status::INEXACT, "inexact"),
        ];
        let set: Vec<&str> = names
            .iter()
            .filter(|(s, _)| self.contains(*s))
            .map(|(_, n)| *n)
            .collect();
        if set.is_empty() {
            f.write_str("ok")
        } else {
            f.write_str(&set.join("|"))
        }
    }
}

/// A value together with the status flags its computation raised.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct StatusAnd<T> {
    /// The result.
    pub value: T,
    /// The flags raised while computing it.
    pub status: Status,
}

impl<T> StatusAnd<T> {
    /// A result with the given flags.
    pub fn new(value: T, status: Status) -> Self {
        StatusAnd { value, status }
    }
    /// An exact result: no flag raised.
    pub fn exact(value: T) -> Self {
        StatusAnd {
            value,
            status: Status::OK,
        }
    }
    /// Maps the value, keeping the flags.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> StatusAnd<U> {
        StatusAnd {
            value: f(self.value),
            status: self.status,
        }
    }
}
