//! The suite's vocabulary: the C types it passes, an operation and how
//! its result is checked, the edge values of each type.

use fpsym_float::{Float, Format, RoundingMode};

/// A C type the suite passes or returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    Float(Format),
    Int(u32, bool),
}

pub(crate) const F: Ty = Ty::Float(Format::BINARY32);
pub(crate) const D: Ty = Ty::Float(Format::BINARY64);
pub(crate) const L: Ty = Ty::Float(Format::X86_FP80);
pub(crate) const Q: Ty = Ty::Float(Format::BINARY128);

impl Ty {
    pub(crate) fn c(self) -> String {
        match self {
            Ty::Float(f) if f == Format::BINARY32 => "float".into(),
            Ty::Float(f) if f == Format::BINARY64 => "double".into(),
            Ty::Float(f) if f == Format::X86_FP80 => "long double".into(),
            Ty::Float(_) => "__float128".into(),
            Ty::Int(128, s) => if s { "__int128" } else { "unsigned __int128" }.into(),
            Ty::Int(1, _) => "int".into(),
            Ty::Int(w, s) => format!("{}int{w}_t", if s { "" } else { "u" }),
        }
    }
    /// Significant bytes (x86_fp80: 10 of its 16).
    pub(crate) fn bytes(self) -> u32 {
        match self {
            Ty::Float(f) => f.width() / 8,
            Ty::Int(1, _) => 4,
            Ty::Int(w, _) => w / 8,
        }
    }
    pub(crate) fn tag(self) -> String {
        match self {
            Ty::Float(f) if f == Format::BINARY32 => "f".into(),
            Ty::Float(f) if f == Format::BINARY64 => "d".into(),
            Ty::Float(f) if f == Format::X86_FP80 => "l".into(),
            Ty::Float(_) => "q".into(),
            Ty::Int(w, s) => format!("{}{w}", if s { "i" } else { "u" }),
        }
    }
    pub(crate) fn is_nan(self, bits: u128) -> bool {
        match self {
            Ty::Float(f) => Float::from_bits(f, bits).is_nan(),
            Ty::Int(..) => false,
        }
    }
}

/// One operation: a C expression over `a`, `b`, `c`, under a rounding mode.
#[derive(Clone)]
pub(crate) struct OpSpec {
    pub(crate) name: String,
    pub(crate) ret: Ty,
    pub(crate) args: Vec<Ty>,
    pub(crate) expr: String,
    pub(crate) mode: &'static str,
    /// Skips inputs the operation must not see (a trap: integer division
    /// by zero) or that fpsym does not model by design (out-of-range
    /// conversions by a library call: their paths end partial).
    pub(crate) skip: std::sync::Arc<dyn Fn(&[u128]) -> bool>,
    /// The result depends on which NaN glibc's `fmaxl`/`fminl` return for
    /// a signalling long double NaN operand (fpsym's result is some quiet
    /// NaN), a known divergence these cases are counted under rather than
    /// compared. (Signs of long double NaNs, `signbitl` and `copysignl`,
    /// are compared: fpsym keeps a NaN's encoding.)
    pub(crate) nan_sign: bool,
    /// A pragma that opens the operation's body (`STDC FENV_ACCESS ON`).
    pub(crate) pragma: Option<&'static str>,
    /// The values of each operand, where the edge values of its type
    /// ([`values`]) are not the interesting ones (libm special cases,
    /// `powi` exponents).
    pub(crate) inputs: Option<std::sync::Arc<Vec<Vec<u128>>>>,
    /// How fpsym's result is compared with the native one.
    pub(crate) check: Check,
    /// Whether the symbolic runs may check it (a string that takes
    /// minutes symbolically is checked concretely only).
    pub(crate) symbolic: bool,
}

/// How a case's result is compared with the native one.
#[derive(Clone)]
pub(crate) enum Check {
    /// fpsym's result must be the native one (it may not be anything
    /// else).
    Exact,
    /// On the inputs the function accepts the native result depends on
    /// context the IR does not show (`fmax(a, 0.0)` of a zero: which zero
    /// depends on how the constant is materialised), and fpsym lets every
    /// outcome be possible: the native result must be one of them. Exact
    /// on the other inputs.
    Possible(std::sync::Arc<dyn Fn(&[u128]) -> bool>),
    /// Exact in the concrete runs (where fpsym computes as the machine
    /// does: glibc's function itself); in the symbolic runs the solvers
    /// know the operation by a sound enclosure only (the transcendental
    /// functions), so the native result must be possible there.
    Enclosure,
}

pub(crate) fn no_skip(_: &[u128]) -> bool {
    false
}

/// How much of the suite to run.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Size {
    Subset,
    Full,
}

pub(crate) const MODES_FULL: [&str; 4] = ["FE_TONEAREST", "FE_UPWARD", "FE_DOWNWARD", "FE_TOWARDZERO"];
pub(crate) const MODES_SUBSET: [&str; 2] = ["FE_TONEAREST", "FE_TOWARDZERO"];

pub(crate) fn modes(size: Size) -> &'static [&'static str] {
    match size {
        Size::Subset => &MODES_SUBSET,
        Size::Full => &MODES_FULL,
    }
}

/// The raw encoding of a NaN of `fmt` (sign, quiet bit, payload), which
/// `Float` would canonicalise.
pub(crate) fn nan_bits(fmt: Format, negative: bool, quiet: bool, payload: u128) -> u128 {
    let fb = fmt.frac_bits();
    let quiet_bit = 1u128 << (fb - 1);
    let frac = (payload & (quiet_bit - 1)) | if quiet { quiet_bit } else { 0 };
    let frac = if frac == 0 { 1 } else { frac };
    let exp_mask = (1u128 << fmt.eb()) - 1;
    if fmt.has_explicit_int_bit() {
        ((negative as u128) << (fb + 1 + fmt.eb())) | (exp_mask << (fb + 1)) | (1u128 << fb) | frac
    } else {
        ((negative as u128) << (fb + fmt.eb())) | (exp_mask << fb) | frac
    }
}

/// Edge values of a float format, as interchange bits.
pub(crate) fn float_values(fmt: Format, size: Size) -> Vec<u128> {
    let from = |x: f64| Float::from_f64(x).convert(fmt, RoundingMode::NearestTiesToEven).value;
    let pow2 = |k: i64| Float::pow2(fmt, k);
    let mut v: Vec<Float> = vec![
        Float::zero(fmt, false),
        Float::zero(fmt, true),
        Float::smallest(fmt, false),
        Float::infinity(fmt, false),
        Float::infinity(fmt, true),
        Float::one(fmt, false),
        from(-2.5),
        Float::largest(fmt, false),
        from(-0.5),
    ];
    v.extend(pow2(31));
    if size == Size::Full {
        for neg in [false, true] {
            let s = |x: Float| if neg { x.neg() } else { x };
            v.push(Float::smallest(fmt, neg));
            v.push(s(Float::smallest_normal(fmt, false)));
            v.push(s(Float::smallest_normal(fmt, false)).next_down());
            v.push(s(Float::largest(fmt, false)));
            v.push(s(Float::one(fmt, false)));
            v.push(s(Float::one(fmt, false).next_up()));
            v.push(s(Float::one(fmt, false).next_down()));
            for x in [0.5, 1.5, 2.5, 3.0, 0.1, 1e300] {
                v.push(s(from(x)));
            }
            for k in [7, 8, 15, 16, 31, 32, 63, 64, 127, 128] {
                if let Some(p) = pow2(k) {
                    v.push(s(p));
                    v.push(s(p.next_down()));
                    v.push(s(p.next_up()));
                }
            }
        }
    }
    let mut bits: Vec<u128> = v.into_iter().map(|x| x.to_bits()).collect();
    bits.push(nan_bits(fmt, true, true, 0));
    bits.push(nan_bits(fmt, false, false, 1));
    if size == Size::Full {
        bits.push(nan_bits(fmt, false, true, 0));
        bits.push(nan_bits(fmt, false, true, 0x1234));
        bits.push(nan_bits(fmt, true, false, 0x55));
    }
    bits.sort();
    bits.dedup();
    bits
}

/// Edge values of an integer type, as bits.
pub(crate) fn int_values(w: u32, signed: bool, size: Size) -> Vec<u128> {
    let mask = if w == 128 { u128::MAX } else { (1u128 << w) - 1 };
    let mut v: Vec<i128> = vec![0, 1, 2, 3, -1, 7, 100, -100];
    let top = if signed { w - 1 } else { w };
    for k in [7, 8, 15, 16, 24, 31, 32, 53, 54, 63, 64, 127] {
        if k <= top && k < 127 {
            let p = 1i128 << k;
            v.extend([p, p - 1, p + 1, -p, -p - 1]);
        }
    }
    if size == Size::Subset {
        v.retain(|x| {
            matches!(x.unsigned_abs(), 0 | 1 | 3 | 100) || [7, 31, 63].iter().any(|k| x.unsigned_abs() == 1u128 << k)
        });
    }
    // Every value in range and the extremes.
    let mut bits: Vec<u128> = v.into_iter().map(|x| (x as u128) & mask).collect();
    if signed {
        bits.push(1u128 << (w - 1));
        bits.push((1u128 << (w - 1)) - 1);
    } else {
        bits.push(mask);
    }
    bits.sort();
    bits.dedup();
    bits
}

pub(crate) fn values(t: Ty, size: Size) -> Vec<u128> {
    match t {
        Ty::Float(f) => float_values(f, size),
        Ty::Int(1, _) => vec![0, 1],
        Ty::Int(w, s) => int_values(w, s, size),
    }
}

pub(crate) fn op(name: &str, ret: Ty, args: &[Ty], expr: &str, mode: &'static str) -> OpSpec {
    OpSpec {
        name: name.to_string(),
        ret,
        args: args.to_vec(),
        expr: expr.to_string(),
        mode,
        skip: std::sync::Arc::new(no_skip),
        nan_sign: false,
        pragma: None,
        inputs: None,
        check: Check::Exact,
        symbolic: true,
    }
}

impl OpSpec {
    pub(crate) fn pragma(mut self, p: &'static str) -> Self {
        self.pragma = Some(p);
        self
    }
    pub(crate) fn inputs(mut self, v: Vec<Vec<u128>>) -> Self {
        assert_eq!(v.len(), self.args.len(), "{}: a value list per operand", self.name);
        self.inputs = Some(std::sync::Arc::new(v));
        self
    }
    pub(crate) fn check(mut self, c: Check) -> Self {
        self.check = c;
        self
    }
    pub(crate) fn skip(mut self, f: impl Fn(&[u128]) -> bool + 'static) -> Self {
        self.skip = std::sync::Arc::new(f);
        self
    }
    /// Whether the native result only needs to be possible for fpsym on
    /// this case (`symbolic`: in a symbolic run).
    pub(crate) fn possible(&self, inputs: &[u128], symbolic: bool) -> bool {
        match &self.check {
            Check::Exact => false,
            Check::Possible(when) => when(inputs),
            Check::Enclosure => symbolic,
        }
    }
}

pub(crate) type Cats = Vec<(&'static str, Vec<OpSpec>)>;

pub(crate) fn format(t: Ty) -> Format {
    match t {
        Ty::Float(f) => f,
        Ty::Int(..) => unreachable!("{t:?} is not a float"),
    }
}

/// `x` in `t`'s format (rounded to nearest), as bits.
pub(crate) fn fv(t: Ty, x: f64) -> u128 {
    Float::from_f64(x)
        .convert(format(t), RoundingMode::NearestTiesToEven)
        .value
        .to_bits()
}

/// `x` as a `w`-bit integer's bits.
pub(crate) fn iv(w: u32, x: i128) -> u128 {
    (x as u128) & if w == 128 { u128::MAX } else { (1u128 << w) - 1 }
}

/// The libm suffix of a float type (`sinf`, `sin`, `sinl`) and of its
/// literals (`0.0f`, `0.0`, `0.0L`).
pub(crate) fn suffixes(t: Ty) -> (&'static str, &'static str) {
    match t {
        _ if t == F => ("f", "f"),
        _ if t == L => ("l", "L"),
        _ => ("", ""),
    }
}

/// Whether the first operand is a zero.
pub(crate) fn first_is_zero(t: Ty) -> impl Fn(&[u128]) -> bool {
    move |v: &[u128]| Float::from_bits(format(t), v[0]).is_zero()
}

/// A few values of a float type for the categories whose operations are
/// checked elsewhere lane by lane or one by one (vectors, constrained):
/// zeros, one, a value no format holds exactly, the largest, infinity, a
/// quiet NaN.
pub(crate) fn few_floats(t: Ty, size: Size) -> Vec<u128> {
    let fmt = format(t);
    let mut v = vec![
        fv(t, 0.0),
        fv(t, -0.0),
        fv(t, 1.0),
        fv(t, 0.1),
        fv(t, f64::INFINITY),
        nan_bits(fmt, false, true, 0),
    ];
    if size == Size::Full {
        v.extend([
            fv(t, -1.0),
            fv(t, -2.5),
            fv(t, 3.0),
            fv(t, 0.5),
            fv(t, 2f64.powi(31)),
            fv(t, 2f64.powi(63)),
            fv(t, f64::NEG_INFINITY),
            Float::smallest(fmt, false).to_bits(),
            Float::smallest_normal(fmt, true).to_bits(),
            Float::largest(fmt, false).to_bits(),
            Float::largest(fmt, true).to_bits(),
            Float::one(fmt, false).next_up().to_bits(),
            nan_bits(fmt, true, false, 0x55),
        ]);
    }
    v.sort();
    v.dedup();
    v
}

/// A few values of an integer type: 0, 1, 3, 100, all ones, the top bit,
/// the largest signed value.
pub(crate) fn few_ints(w: u32, size: Size) -> Vec<u128> {
    let mut v = vec![
        iv(w, 0),
        iv(w, 1),
        iv(w, -1),
        iv(w, 1 << (w - 1)),
        iv(w, (1i128 << (w - 1)).wrapping_sub(1)),
    ];
    if size == Size::Full {
        v.extend([
            iv(w, 3),
            iv(w, 100),
            iv(w, -100),
            iv(w, 0x80),
            iv(w, 0x7f),
            iv(w, 1 << (w / 2)),
        ]);
    }
    v.sort();
    v.dedup();
    v
}
