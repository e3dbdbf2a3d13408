//! The host's glibc for transcendental functions evaluated on concrete
//! arguments (the one foreign-code module of the engine). Calling glibc
//! itself, not a Rust port, gives the very values the program computes
//! natively, so replay agrees for `float` and `double`. `long double`
//! variants are evaluated in `double` (Rust has no x87 type).

macro_rules! glibc {
    (one: $($f:ident $ff:ident),* ; two: $($g:ident $gf:ident),*) => {
        extern "C" {
            $(fn $f(x: f64) -> f64; fn $ff(x: f32) -> f32;)*
            $(fn $g(x: f64, y: f64) -> f64; fn $gf(x: f32, y: f32) -> f32;)*
        }

        /// `base(args)` in double precision (None: not a known function or
        /// the wrong number of arguments).
        pub fn call_f64(base: &str, args: &[f64]) -> Option<f64> {
            // SAFETY: plain glibc math functions on plain values.
            unsafe {
                match (base, args) {
                    $((stringify!($f), [x]) => Some($f(*x)),)*
                    $((stringify!($g), [x, y]) => Some($g(*x, *y)),)*
                    _ => None,
                }
            }
        }

        /// `base(args)` with glibc's `float` variant (`sinf`, ...).
        pub fn call_f32(base: &str, args: &[f32]) -> Option<f32> {
            // SAFETY: as above.
            unsafe {
                match (base, args) {
                    $((stringify!($f), [x]) => Some($ff(*x)),)*
                    $((stringify!($g), [x, y]) => Some($gf(*x, *y)),)*
                    _ => None,
                }
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
    #[test]
    fn special_functions_are_glibcs() {
        assert_eq!(super::call_f64("erf", &[0.0]), Some(0.0));
        assert_eq!(super::call_f64("tgamma", &[5.0]), Some(24.0));
        assert_eq!(super::call_f32("lgamma", &[1.0]), Some(0.0));
        assert_eq!(super::call_f64("erfc", &[f64::INFINITY]), Some(0.0));
        assert_eq!(super::call_f64("pow", &[2.0, 10.0]), Some(1024.0));
        assert_eq!(super::call_f64("pow", &[2.0]), None);
    }
}
