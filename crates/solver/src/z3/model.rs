//! Reading Z3 model values back as exact fpsym values.
//!
//! Floats are decoded from Z3's numeral API (class, sign, exponent field,
//! significand field), never through `f64`, so every format is exact. Each
//! decoded float is then re-encoded and Z3 is asked to confirm that the two
//! numerals are the same value (`=`, simplified to `true`), so a decoding
//! mistake is an error, never a wrong model.

use super::translate::{lbool, Builder};
use ::z3::ast::{Ast, Dynamic};
use fpsym_expr::{BvValue, Sort, Value};
use fpsym_float::{Float, Format, RoundingMode};
use std::ffi::CStr;
use z3_sys::*;

impl Builder {
    /// The value of a Z3 numeral of sort `sort`. `v` is the model's value of
    /// a variable, evaluated with model completion.
    pub(super) fn value_of(&mut self, v: &Dynamic, sort: Sort) -> Result<Value, String> {
        // Model values are numerals; a value that is still an application of
        // constructors (e.g. `(fp #b0 ...)`) is normalized by the simplifier.
        let v = if self.is_value(v) {
            v.clone()
        } else {
            // SAFETY: `v` is alive.
            let s = self.own(unsafe { Z3_simplify(self.raw(), v.get_z3_ast()) })?;
            if !self.is_value(&s) {
                return Err(format!("model value is not a numeral: {v:?}"));
            }
            s
        };
        match sort {
            Sort::Bool => {
                // SAFETY: `v` is alive.
                let b = lbool(unsafe { Z3_get_bool_value(self.raw(), v.get_z3_ast()) });
                b.map(Value::Bool)
                    .ok_or_else(|| format!("model value is not a Boolean constant: {v:?}"))
            }
            Sort::BitVec(w) => Ok(Value::Bv(BvValue::new(w, self.bv_bits(&v, w)?))),
            Sort::RoundingMode => self.rm_value(&v).map(Value::Rm),
            Sort::Float(f) => {
                let x = self.float_value(&v, f)?;
                self.confirm(&v, x)?;
                Ok(Value::Fp(x))
            }
        }
    }

    /// Is `v` a numeral (or `true`/`false`, or a rounding-mode constant)?
    fn is_value(&self, v: &Dynamic) -> bool {
        let c = self.raw();
        let a = v.get_z3_ast();
        // SAFETY: `a` is alive; these are queries without side effects.
        unsafe {
            if Z3_is_numeral_ast(c, a) || lbool(Z3_get_bool_value(c, a)).is_some() {
                return true;
            }
            self.decl_kind(a).is_some_and(|k| {
                matches!(
                    k,
                    DeclKind::FPA_NUM
                        | DeclKind::FPA_NAN
                        | DeclKind::FPA_PLUS_INF
                        | DeclKind::FPA_MINUS_INF
                        | DeclKind::FPA_PLUS_ZERO
                        | DeclKind::FPA_MINUS_ZERO
                        | DeclKind::FPA_RM_NEAREST_TIES_TO_EVEN
                        | DeclKind::FPA_RM_NEAREST_TIES_TO_AWAY
                        | DeclKind::FPA_RM_TOWARD_POSITIVE
                        | DeclKind::FPA_RM_TOWARD_NEGATIVE
                        | DeclKind::FPA_RM_TOWARD_ZERO
                )
            })
        }
    }

    /// The declaration kind of an application, or None.
    fn decl_kind(&self, a: Z3_ast) -> Option<DeclKind> {
        let c = self.raw();
        // SAFETY: `a` is alive; kind queries have no side effects.
        unsafe {
            if !matches!(Z3_get_ast_kind(c, a), AstKind::App | AstKind::Numeral) {
                return None;
            }
            let app = Z3_to_app(c, a)?;
            let d = Z3_get_app_decl(c, app)?;
            Some(Z3_get_decl_kind(c, d))
        }
    }

    /// The bits of a bit-vector numeral (decimal string, so up to 128 bits exactly).
    fn bv_bits(&self, v: &Dynamic, w: u32) -> Result<u128, String> {
        // SAFETY: `v` is alive; the returned string is owned by Z3 until the
        // next call, and copied at once.
        let s = unsafe {
            let p = Z3_get_numeral_string(self.raw(), v.get_z3_ast());
            if p.is_null() {
                return Err(self.error().unwrap_or_else(|| "not a numeral".into()));
            }
            CStr::from_ptr(p).to_string_lossy().into_owned()
        };
        let bits: u128 = s.parse().map_err(|_| format!("bad bit-vector numeral {s:?}"))?;
        if w < 128 && bits >> w != 0 {
            return Err(format!("bit-vector numeral {s} does not fit in {w} bits"));
        }
        Ok(bits)
    }

    fn rm_value(&self, v: &Dynamic) -> Result<RoundingMode, String> {
        Ok(match self.decl_kind(v.get_z3_ast()) {
            Some(DeclKind::FPA_RM_NEAREST_TIES_TO_EVEN) => RoundingMode::NearestTiesToEven,
            Some(DeclKind::FPA_RM_NEAREST_TIES_TO_AWAY) => RoundingMode::NearestTiesToAway,
            Some(DeclKind::FPA_RM_TOWARD_POSITIVE) => RoundingMode::TowardPositive,
            Some(DeclKind::FPA_RM_TOWARD_NEGATIVE) => RoundingMode::TowardNegative,
            Some(DeclKind::FPA_RM_TOWARD_ZERO) => RoundingMode::TowardZero,
            _ => return Err(format!("model value is not a rounding mode: {v:?}")),
        })
    }

    /// Decodes a float numeral: class first, then sign, then the fields.
    fn float_value(&mut self, v: &Dynamic, fmt: Format) -> Result<Float, String> {
        let c = self.raw();
        let a = v.get_z3_ast();
        // SAFETY: `a` is alive; the numeral queries have no side effects
        // besides the error code, which is checked.
        unsafe {
            if Z3_fpa_is_numeral_nan(c, a) {
                return Ok(Float::nan(fmt));
            }
            let mut sgn: std::ffi::c_int = 0;
            if !Z3_fpa_get_numeral_sign(c, a, &mut sgn) {
                return Err(self.error().unwrap_or_else(|| format!("no sign for {v:?}")));
            }
            let negative = sgn != 0;
            if Z3_fpa_is_numeral_inf(c, a) {
                return Ok(Float::infinity(fmt, negative));
            }
            if Z3_fpa_is_numeral_zero(c, a) {
                return Ok(Float::zero(fmt, negative));
            }
            let subnormal = Z3_fpa_is_numeral_subnormal(c, a);
            if !subnormal && !Z3_fpa_is_numeral_normal(c, a) {
                return Err(format!("float numeral of unknown class: {v:?}"));
            }
            let sig = self.own(Z3_fpa_get_numeral_significand_bv(c, a))?;
            let frac = self.bv_bits(&sig, fmt.frac_bits())?;
            let exp = if subnormal {
                0
            } else {
                let e = self.own(Z3_fpa_get_numeral_exponent_bv(c, a, true))?;
                self.bv_bits(&e, fmt.eb())? as u64
            };
            let x = Float::from_fields(fmt, negative, exp, frac);
            if x.is_subnormal() != subnormal || !x.is_finite() || x.is_zero() {
                return Err(format!("float numeral {v:?} decoded to {x:?} of another class"));
            }
            Ok(x)
        }
    }

    /// Checks with Z3 that the numeral `v` and the literal of `x` are the same value.
    fn confirm(&mut self, v: &Dynamic, x: Float) -> Result<(), String> {
        let k = self.fp_const(x)?;
        let c = self.raw();
        // SAFETY: both operands alive.
        let same = unsafe {
            let eq = self.own(Z3_mk_eq(c, v.get_z3_ast(), k.get_z3_ast()))?;
            let s = self.own(Z3_simplify(c, eq.get_z3_ast()))?;
            lbool(Z3_get_bool_value(c, s.get_z3_ast()))
        };
        if same != Some(true) {
            return Err(format!("decoded model value {x:?} differs from Z3's {v:?}"));
        }
        Ok(())
    }
}
