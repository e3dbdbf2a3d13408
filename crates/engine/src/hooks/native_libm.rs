//! The host's glibc for transcendental functions evaluated on concrete
//! arguments (the one foreign-code module of the engine). Calling glibc
//! itself, not a Rust port, gives the very values the program computes
//! natively, so replay agrees for `float` and `double`: the call runs in
//! the program's rounding mode (set on this thread around the call) and
//! reports the `errno` glibc set. `long double` variants are not evaluated
//! here (Rust has no x87 type).

use fpsym_float::RoundingMode;

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
    use super::{call_f32, call_f64};
    use fpsym_float::RoundingMode as R;
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
}
