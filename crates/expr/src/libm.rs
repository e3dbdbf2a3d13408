//! C library functions over floats: `(fpsym.sin rm x)` is the value this
//! machine's glibc computes for `sin(x)` (`sinf` for `Float32`) in rounding
//! mode `rm`. Calling glibc itself, not a Rust port or a correctly rounded
//! stand-in, gives the very values the program computes natively, so a
//! model is checked against what replay will see; the solvers only know
//! sound enclosures of these functions (cp), or nothing (the others).
//!
//! The one foreign-code module of the term layer: the call runs in the
//! asked rounding mode (set on this thread around the call) and reports the
//! `errno` glibc set. Only `Float32` and `Float64` are evaluated (Rust has
//! no x87 type for the `long double` variants).

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
    /// two floats of one format (`Float32` or `Float64`).
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
    /// (`Float32`, `Float64`).
    pub fn evaluated_in(f: Format) -> bool {
        f == Format::BINARY32 || f == Format::BINARY64
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

macro_rules! glibc {
    (one: $($f:ident $ff:ident),* ; two: $($g:ident $gf:ident),*) => {
        extern "C" {
            $(fn $f(x: f64) -> f64; fn $ff(x: f32) -> f32;)*
            $(fn $g(x: f64, y: f64) -> f64; fn $gf(x: f32, y: f32) -> f32;)*
        }

        /// `base(args)` in double precision in rounding mode `r`, with the
        /// `errno` it set (None: not a known function or the wrong number
        /// of arguments).
        pub fn call_f64(base: &str, args: &[f64], r: RoundingMode) -> Option<(f64, i32)> {
            // SAFETY: plain glibc math functions on plain values.
            let call = || unsafe {
                match (base, args) {
                    $((stringify!($f), [x]) => Some($f(*x)),)*
                    $((stringify!($g), [x, y]) => Some($g(*x, *y)),)*
                    _ => None,
                }
            };
            match in_mode(r, call) {
                (Some(v), e) => Some((v, e)),
                (None, _) => None,
            }
        }

        /// `base(args)` with glibc's `float` variant (`sinf`, ...).
        pub fn call_f32(base: &str, args: &[f32], r: RoundingMode) -> Option<(f32, i32)> {
            // SAFETY: as above.
            let call = || unsafe {
                match (base, args) {
                    $((stringify!($f), [x]) => Some($ff(*x)),)*
                    $((stringify!($g), [x, y]) => Some($gf(*x, *y)),)*
                    _ => None,
                }
            };
            match in_mode(r, call) {
                (Some(v), e) => Some((v, e)),
                (None, _) => None,
            }
        }
    };
}

glibc!(
    one: sin sinf, cos cosf, tan tanf, asin asinf, acos acosf, atan atanf, sinh sinhf, cosh coshf,
         tanh tanhf, asinh asinhf, acosh acoshf, atanh atanhf, exp expf, exp2 exp2f, expm1 expm1f,
         log logf, log2 log2f, log10 log10f, log1p log1pf, cbrt cbrtf, erf erff, erfc erfcf,
         tgamma tgammaf, lgamma lgammaf;
    two: atan2 atan2f, pow powf, hypot hypotf
);

#[cfg(test)]
mod tests {
    use super::{call_f32, call_f64, LibmFn};
    use fpsym_float::{Float, RoundingMode as R};
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
    fn names_and_formats() {
        for f in LibmFn::ALL {
            assert_eq!(LibmFn::from_c_name(f.c_name()), Some(f));
            assert_eq!(LibmFn::from_smtlib_name(f.smtlib_name()), Some(f));
            let args = vec![Float::from_f32(0.5); f.arity()];
            assert!(f.glibc(N, &args).is_some(), "{f}");
        }
        assert_eq!(
            LibmFn::Exp.glibc(N, &[Float::from_f32(1.0)]).map(|(v, _)| v.to_f32()),
            Some(Some(1.0f32.exp()))
        );
        assert_eq!(LibmFn::Pow.glibc(N, &[Float::from_f64(2.0)]), None);
    }
}
