//! C library functions over floats: `(fpsym.sin rm x)` is the value this
//! machine's glibc computes for `sin(x)` (`sinf` for `Float32`) in rounding
//! mode `rm`. Calling glibc itself, not a Rust port or a correctly rounded
//! stand-in, gives the very values the program computes natively, so a
//! model is checked against what replay will see; the solvers only know
//! sound enclosures of these functions (cp), or nothing (the others).
//!
//! The one foreign-code module of the term layer: glibc's functions are
//! looked up in `libm.so.6` by name (see `libm_handle`), and the call runs
//! in the asked rounding mode (set on this thread around the call) and reports the
//! `errno` glibc set. `Float32`, `Float64` and the x87 80-bit format of
//! `long double` (`X86_FP80`, or `(_ FloatingPoint 15 64)` in SMT-LIB) are
//! evaluated: Rust has no x87 type, so the `l` functions (`sinl`, ...) are
//! called through a small C shim (`csrc/fp80.c`, built by `build.rs`) that
//! passes the 10-byte encodings.

use fpsym_float::{Float, Format, RoundingMode};

/// A function of the C library over floats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum LibmFn {
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Atan2,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    Exp,
    Exp2,
    Expm1,
    Log,
    Log2,
    Log10,
    Log1p,
    Pow,
    Cbrt,
    Hypot,
    Erf,
    Erfc,
    Tgamma,
    Lgamma,
}

impl LibmFn {
    /// Every function, in the order of [`LibmFn::c_name`]'s table.
    pub const ALL: [LibmFn; 27] = [
        LibmFn::Sin,
        LibmFn::Cos,
        LibmFn::Tan,
        LibmFn::Asin,
        LibmFn::Acos,
        LibmFn::Atan,
        LibmFn::Atan2,
        LibmFn::Sinh,
        LibmFn::Cosh,
        LibmFn::Tanh,
        LibmFn::Asinh,
        LibmFn::Acosh,
        LibmFn::Atanh,
        LibmFn::Exp,
        LibmFn::Exp2,
        LibmFn::Expm1,
        LibmFn::Log,
        LibmFn::Log2,
        LibmFn::Log10,
        LibmFn::Log1p,
        LibmFn::Pow,
        LibmFn::Cbrt,
        LibmFn::Hypot,
        LibmFn::Erf,
        LibmFn::Erfc,
        LibmFn::Tgamma,
        LibmFn::Lgamma,
    ];

    /// C's name of the `double` function (`sin`; `sinf` is its `float` form).
    pub fn c_name(self) -> &'static str {
        use LibmFn::*;
        match self {
            Sin => "sin",
            Cos => "cos",
            Tan => "tan",
            Asin => "asin",
            Acos => "acos",
            Atan => "atan",
            Atan2 => "atan2",
            Sinh => "sinh",
            Cosh => "cosh",
            Tanh => "tanh",
            Asinh => "asinh",
            Acosh => "acosh",
            Atanh => "atanh",
            Exp => "exp",
            Exp2 => "exp2",
            Expm1 => "expm1",
            Log => "log",
            Log2 => "log2",
            Log10 => "log10",
            Log1p => "log1p",
            Pow => "pow",
            Cbrt => "cbrt",
            Hypot => "hypot",
            Erf => "erf",
            Erfc => "erfc",
            Tgamma => "tgamma",
            Lgamma => "lgamma",
        }
    }

    /// The SMT-LIB name fpsym reads and writes: `fpsym.` and C's name
    /// (`fpsym.sin`, `fpsym.pow`), applied to a rounding mode and one or
    /// two floats of one format (`Float32`, `Float64`, or the x87
    /// `(_ FloatingPoint 15 64)` of `long double`).
    pub fn smtlib_name(self) -> &'static str {
        use LibmFn::*;
        match self {
            Sin => "fpsym.sin",
            Cos => "fpsym.cos",
            Tan => "fpsym.tan",
            Asin => "fpsym.asin",
            Acos => "fpsym.acos",
            Atan => "fpsym.atan",
            Atan2 => "fpsym.atan2",
            Sinh => "fpsym.sinh",
            Cosh => "fpsym.cosh",
            Tanh => "fpsym.tanh",
            Asinh => "fpsym.asinh",
            Acosh => "fpsym.acosh",
            Atanh => "fpsym.atanh",
            Exp => "fpsym.exp",
            Exp2 => "fpsym.exp2",
            Expm1 => "fpsym.expm1",
            Log => "fpsym.log",
            Log2 => "fpsym.log2",
            Log10 => "fpsym.log10",
            Log1p => "fpsym.log1p",
            Pow => "fpsym.pow",
            Cbrt => "fpsym.cbrt",
            Hypot => "fpsym.hypot",
            Erf => "fpsym.erf",
            Erfc => "fpsym.erfc",
            Tgamma => "fpsym.tgamma",
            Lgamma => "fpsym.lgamma",
        }
    }

    /// The function C calls `name` (`sin`, not `sinf`).
    pub fn from_c_name(name: &str) -> Option<LibmFn> {
        LibmFn::ALL.into_iter().find(|f| f.c_name() == name)
    }

    /// The function SMT-LIB calls `name` (`fpsym.sin`).
    pub fn from_smtlib_name(name: &str) -> Option<LibmFn> {
        LibmFn::ALL.into_iter().find(|f| f.smtlib_name() == name)
    }

    /// The functions of one float argument.
    pub fn unary() -> impl Iterator<Item = LibmFn> {
        LibmFn::ALL.into_iter().filter(|f| f.arity() == 1)
    }

    /// The functions of two float arguments (`atan2`, `pow`, `hypot`).
    pub fn binary() -> impl Iterator<Item = LibmFn> {
        LibmFn::ALL.into_iter().filter(|f| f.arity() == 2)
    }

    /// The number of float arguments (2 for `atan2`, `pow`, `hypot`).
    pub fn arity(self) -> usize {
        match self {
            LibmFn::Atan2 | LibmFn::Pow | LibmFn::Hypot => 2,
            _ => 1,
        }
    }

    /// Whether glibc's function is evaluated for floats of format `f`
    /// (`Float32`, `Float64`, and on x86-64 the x87 80-bit format, as
    /// [`Format::X86_FP80`] or its SMT-LIB twin `(_ FloatingPoint 15 64)`).
    pub fn evaluated_in(f: Format) -> bool {
        f == Format::BINARY32 || f == Format::BINARY64 || (FP80_CALLS && is_fp80(f))
    }

    /// glibc's value on `args` (one format, [`LibmFn::evaluated_in`]) in
    /// rounding mode `rm`, with the `errno` it set (0: none). None for
    /// another format or the wrong number of arguments.
    pub fn glibc(self, rm: RoundingMode, args: &[Float]) -> Option<(Float, i32)> {
        if args.len() != self.arity() {
            return None;
        }
        let fmt = args[0].format();
        if args.iter().any(|a| a.format() != fmt) {
            return None;
        }
        if fmt == Format::BINARY64 {
            let xs: Vec<f64> = args.iter().map(|a| a.to_f64().expect("a Float64")).collect();
            call_f64(self.c_name(), &xs, rm).map(|(v, e)| (Float::from_f64(v), e))
        } else if fmt == Format::BINARY32 {
            let xs: Vec<f32> = args.iter().map(|a| a.to_f32().expect("a Float32")).collect();
            call_f32(self.c_name(), &xs, rm).map(|(v, e)| (Float::from_f32(v), e))
        } else if Self::evaluated_in(fmt) {
            call_fp80(self.c_name(), args, rm)
        } else {
            None
        }
    }
}

impl std::fmt::Display for LibmFn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.c_name())
    }
}

extern "C" {
    fn fesetround(mode: i32) -> i32;
    fn __errno_location() -> *mut i32;
}

/// x86-64 glibc's FE_* value of a rounding mode (ties-away has none: it
/// runs as to-nearest, which is what a C program can ask for).
fn fe(r: RoundingMode) -> i32 {
    match r {
        RoundingMode::NearestTiesToEven | RoundingMode::NearestTiesToAway => 0,
        RoundingMode::TowardNegative => 0x400,
        RoundingMode::TowardPositive => 0x800,
        RoundingMode::TowardZero => 0xc00,
    }
}

/// Runs `f` in rounding mode `r` with `errno` cleared; its value and the
/// `errno` it left (0: none).
fn in_mode<T>(r: RoundingMode, f: impl FnOnce() -> T) -> (T, i32) {
    // SAFETY: fesetround and errno are this thread's own state; both are
    // restored before returning.
    unsafe {
        let e = __errno_location();
        let saved = *e;
        *e = 0;
        fesetround(fe(r));
        let v = f();
        fesetround(0);
        let err = *e;
        *e = saved;
        (v, err)
    }
}

/// glibc's own `libm.so.6`, opened once. Why not `extern "C"`: the
/// binary also links Rust's `compiler_builtins`, whose `cbrt`/`cbrtf`
/// (a port, not glibc's) the linker may pick first, and a value that is
/// not glibc's makes a model disagree with native replay. Looking each
/// function up in glibc's library by name gives glibc's.
fn libm_handle() -> Option<usize> {
    static HANDLE: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    *HANDLE.get_or_init(|| {
        // SAFETY: dlopen of a system library with a NUL-terminated name;
        // the handle is never closed.
        let h = unsafe { libc::dlopen(c"libm.so.6".as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        (!h.is_null()).then_some(h as usize)
    })
}

/// The address of glibc's function `name` (None if it has none).
fn glibc_symbol(name: &str) -> Option<usize> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<String, Option<usize>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = map.get(name) {
        return *p;
    }
    let handle = libm_handle()?;
    let c = std::ffi::CString::new(name).ok()?;
    // SAFETY: a valid handle and a NUL-terminated name.
    let p = unsafe { libc::dlsym(handle as *mut libc::c_void, c.as_ptr()) };
    let p = (!p.is_null()).then_some(p as usize);
    map.insert(name.to_string(), p);
    p
}

/// The C names fpsym evaluates (`double` forms; `f` appended for `float`).
fn known(base: &str) -> bool {
    LibmFn::from_c_name(base).is_some()
}

/// `base(args)` in double precision in rounding mode `r`, with the
/// `errno` it set (None: not a known function or the wrong number of
/// arguments).
pub fn call_f64(base: &str, args: &[f64], r: RoundingMode) -> Option<(f64, i32)> {
    if !known(base) {
        return None;
    }
    let p = glibc_symbol(base)?;
    let call = || match args {
        [x] => {
            // SAFETY: glibc's `double f(double)` under this name.
            let f: extern "C" fn(f64) -> f64 = unsafe { std::mem::transmute(p) };
            Some(f(*x))
        }
        [x, y] => {
            // SAFETY: glibc's `double f(double, double)` under this name.
            let f: extern "C" fn(f64, f64) -> f64 = unsafe { std::mem::transmute(p) };
            Some(f(*x, *y))
        }
        _ => None,
    };
    let arity_ok = LibmFn::from_c_name(base).is_some_and(|f| f.arity() == args.len());
    if !arity_ok {
        return None;
    }
    match in_mode(r, call) {
        (Some(v), e) => Some((v, e)),
        (None, _) => None,
    }
}

/// `base(args)` with glibc's `float` variant (`sinf`, ...).
pub fn call_f32(base: &str, args: &[f32], r: RoundingMode) -> Option<(f32, i32)> {
    if !known(base) {
        return None;
    }
    let arity_ok = LibmFn::from_c_name(base).is_some_and(|f| f.arity() == args.len());
    if !arity_ok {
        return None;
    }
    let p = glibc_symbol(&format!("{base}f"))?;
    let call = || match args {
        [x] => {
            // SAFETY: glibc's `float f(float)` under this name.
            let f: extern "C" fn(f32) -> f32 = unsafe { std::mem::transmute(p) };
            Some(f(*x))
        }
        [x, y] => {
            // SAFETY: glibc's `float f(float, float)` under this name.
            let f: extern "C" fn(f32, f32) -> f32 = unsafe { std::mem::transmute(p) };
            Some(f(*x, *y))
        }
        _ => None,
    };
    match in_mode(r, call) {
        (Some(v), e) => Some((v, e)),
        (None, _) => None,
    }
}

/// Whether `f` has the value set of x87's 80-bit format (`X86_FP80`, or
/// `(_ FloatingPoint 15 64)` as SMT-LIB writes it).
pub fn is_fp80(f: Format) -> bool {
    f.smtlib() == Format::X86_FP80.smtlib()
}

/// Whether glibc's `long double` functions can be called here (x86-64,
/// where `long double` is x87's 80-bit format and `csrc/fp80.c` is built).
const FP80_CALLS: bool = cfg!(target_arch = "x86_64");

#[cfg(target_arch = "x86_64")]
extern "C" {
    /// `out = f(x)` or `out = f(x, y)` in C's `long double` (csrc/fp80.c);
    /// operands and result are 10-byte x87 encodings in 16-byte buffers.
    fn fpsym_fp80_call(f: *const libc::c_void, arity: u32, x: *const u8, y: *const u8, out: *mut u8);
}

/// The 16-byte buffer holding `x`'s x87 encoding (`x` of an 80-bit format).
fn x87_bytes(x: Float) -> [u8; 16] {
    let x = if x.format() == Format::X86_FP80 {
        x
    } else {
        // the same value set: exact
        x.convert(Format::X86_FP80, RoundingMode::NearestTiesToEven).value
    };
    x.to_bits().to_le_bytes()
}

/// `base(args)` with glibc's `long double` variant (`sinl`, ...) in
/// rounding mode `r`, with the `errno` it set: the arguments of one 80-bit
/// format ([`is_fp80`]), the result in that format. None: not a known
/// function, the wrong number or format of arguments, or not x86-64.
pub fn call_fp80(base: &str, args: &[Float], r: RoundingMode) -> Option<(Float, i32)> {
    let fmt = args.first()?.format();
    if !FP80_CALLS || !is_fp80(fmt) || args.iter().any(|a| a.format() != fmt) {
        return None;
    }
    let arity_ok = LibmFn::from_c_name(base).is_some_and(|f| f.arity() == args.len());
    if !arity_ok {
        return None;
    }
    let p = glibc_symbol(&format!("{base}l"))?;
    let x = x87_bytes(args[0]);
    let y = args.get(1).map_or([0u8; 16], |a| x87_bytes(*a));
    let mut out = [0u8; 16];
    let call = || {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `p` is glibc's `long double f(long double[, long
        // double])` of this arity; the buffers are 16 bytes each.
        unsafe {
            fpsym_fp80_call(
                p as *const libc::c_void,
                args.len() as u32,
                x.as_ptr(),
                y.as_ptr(),
                out.as_mut_ptr(),
            )
        };
        let _ = p;
    };
    let ((), e) = in_mode(r, call);
    let v = Float::from_bits(Format::X86_FP80, u128::from_le_bytes(out));
    let v = if fmt == Format::X86_FP80 {
        v
    } else {
        v.convert(fmt, RoundingMode::NearestTiesToEven).value
    };
    Some((v, e))
}

#[cfg(test)]
mod tests {
    use super::{call_f32, call_f64, call_fp80, LibmFn};
    use fpsym_float::{Float, Format, RoundingMode as R};
    const N: R = R::NearestTiesToEven;

    #[test]
    fn special_functions_are_glibcs() {
        assert_eq!(call_f64("erf", &[0.0], N), Some((0.0, 0)));
        assert_eq!(call_f64("tgamma", &[5.0], N), Some((24.0, 0)));
        assert_eq!(call_f32("lgamma", &[1.0], N), Some((0.0, 0)));
        assert_eq!(call_f64("erfc", &[f64::INFINITY], N), Some((0.0, 0)));
        assert_eq!(call_f64("pow", &[2.0, 10.0], N), Some((1024.0, 0)));
        assert_eq!(call_f64("pow", &[2.0], N), None);
    }

    #[test]
    fn errno_and_rounding_mode_are_glibcs() {
        // EDOM = 33, ERANGE = 34 on Linux.
        assert_eq!(call_f64("log", &[-1.0], N).map(|(_, e)| e), Some(33));
        assert_eq!(call_f64("exp", &[1000.0], N), Some((f64::INFINITY, 34)));
        // exp(1) rounded down and up differ by one ulp.
        let (lo, _) = call_f64("exp", &[1.0], R::TowardNegative).unwrap();
        let (hi, _) = call_f64("exp", &[1.0], R::TowardPositive).unwrap();
        assert_eq!(hi.to_bits() - lo.to_bits(), 1);
    }

    #[test]
    fn cbrt_is_glibcs_not_a_port() {
        // glibc's cbrt (1 ulp, not correctly rounded) differs from Rust's
        // compiler_builtins port here; the native program gets glibc's.
        let x = 0.9998097912676489f64;
        assert_eq!(
            call_f64("cbrt", &[x], N).map(|(v, _)| v.to_bits()),
            Some(0.9999365930688625f64.to_bits())
        );
    }

    /// An x87 value from its 80-bit encoding (sign+exponent, significand).
    fn x87(hi: u16, lo: u64) -> Float {
        Float::from_bits(Format::X86_FP80, (u128::from(hi) << 64) | u128::from(lo))
    }

    #[test]
    fn long_double_shim_calls_glibcs_x87_functions() {
        // Values glibc's sinl, expl, logl, powl give in C (printed from a
        // `long double` program on this machine: 0.841470984807896506665,
        // 2.71828182845904523543, 2.30258509299404568404).
        let l = |x: f64| Float::from_f64(x).convert(Format::X86_FP80, N).value;
        assert_eq!(
            call_fp80("sin", &[l(1.0)], N),
            Some((x87(0x3ffe, 0xd76aa47848677021), 0))
        );
        assert_eq!(
            call_fp80("exp", &[l(1.0)], N),
            Some((x87(0x4000, 0xadf85458a2bb4a9b), 0))
        );
        assert_eq!(
            call_fp80("log", &[l(10.0)], N),
            Some((x87(0x4000, 0x935d8dddaaa8ac17), 0))
        );
        assert_eq!(
            call_fp80("pow", &[l(2.0), l(100.0)], N),
            Some((x87(0x4063, 0x8000000000000000), 0))
        );
        // a result with more precision than a double's
        assert_ne!(call_fp80("sin", &[l(1.0)], N).unwrap().0, l(1f64.sin()));
        // an argument beyond double's range: sinl(1e4000)
        let big = Float::from_rational(
            Format::X86_FP80,
            &num_rational::BigRational::from_integer(num_bigint::BigInt::from(10).pow(4000)),
            N,
        )
        .value;
        assert_eq!(call_fp80("sin", &[big], N), Some((x87(0x3ffe, 0x90de0837a745738a), 0)));
        // the rounding mode reaches the x87 unit: expl(1) down and up
        assert_eq!(
            call_fp80("exp", &[l(1.0)], R::TowardNegative),
            Some((x87(0x4000, 0xadf85458a2bb4a9a), 0))
        );
        assert_eq!(
            call_fp80("exp", &[l(1.0)], R::TowardPositive),
            Some((x87(0x4000, 0xadf85458a2bb4a9b), 0))
        );
        // errno: EDOM, ERANGE
        assert_eq!(
            call_fp80("log", &[l(-1.0)], N).map(|(v, e)| (v.is_nan(), e)),
            Some((true, 33))
        );
        assert_eq!(
            call_fp80("exp", &[l(20000.0)], N),
            Some((Float::infinity(Format::X86_FP80, false), 34))
        );
        // the SMT-LIB twin (15, 64) is the same value set
        let f = Format::new(15, 64).unwrap();
        let one = Float::one(f, false);
        let (v, _) = LibmFn::Sin.glibc(N, &[one]).unwrap();
        assert_eq!(v.format(), f);
        assert_eq!(v.convert(Format::X86_FP80, N).value, x87(0x3ffe, 0xd76aa47848677021));
        // wrong arity or format
        assert_eq!(call_fp80("pow", &[l(2.0)], N), None);
        assert_eq!(call_fp80("sin", &[Float::from_f64(1.0)], N), None);
        assert!(LibmFn::evaluated_in(Format::X86_FP80) && LibmFn::evaluated_in(f));
        assert!(!LibmFn::evaluated_in(Format::BINARY128));
    }

    #[test]
    fn names_and_formats() {
        for f in LibmFn::ALL {
            assert_eq!(LibmFn::from_c_name(f.c_name()), Some(f));
            assert_eq!(LibmFn::from_smtlib_name(f.smtlib_name()), Some(f));
            let args = vec![Float::from_f32(0.5); f.arity()];
            assert!(f.glibc(N, &args).is_some(), "{f}");
            let args = vec![Float::one(Format::X86_FP80, false); f.arity()];
            assert!(f.glibc(N, &args).is_some(), "{f}l");
        }
        assert_eq!(
            LibmFn::Exp.glibc(N, &[Float::from_f32(1.0)]).map(|(v, _)| v.to_f32()),
            Some(Some(1.0f32.exp()))
        );
        assert_eq!(LibmFn::Pow.glibc(N, &[Float::from_f64(2.0)]), None);
    }
}
