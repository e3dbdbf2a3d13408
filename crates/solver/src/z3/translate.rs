//! Translation of fpsym terms into Z3 ASTs.
//!
//! Terms are DAGs with heavy sharing, so translation is memoized by
//! [`Term::id`] and runs over an explicit stack (linear in the DAG size, no
//! recursion depth limit). Every Z3 AST is wrapped in a reference-counted
//! [`Dynamic`] the moment Z3 returns it: in a reference-counting context a
//! fresh AST with count zero may be reclaimed by the next API call.
//!
//! Where SMT-LIB leaves a result unspecified, Z3 is free to pick any value
//! (it models such results with fresh functions), so the translation guards
//! those cases with `ite` and gives fpsym's fixed value: see [`Builder::min_max`]
//! and [`Builder::fp_to_bv`].

use ::z3::ast::{Ast, Dynamic};
use ::z3::Context;
use fpsym_expr::{Op, Sort, Term};
use fpsym_float::{Float, Format, RoundingMode};
use std::collections::HashMap;
use std::ffi::CStr;
use z3_sys::*;

/// A Z3 sort kept alive by a reference count for as long as the builder lives.
struct SortRef {
    raw: Z3_sort,
}

/// Builds Z3 ASTs for fpsym terms in one Z3 context.
pub(super) struct Builder {
    ctx: Context,
    c: Z3_context,
    memo: HashMap<u64, Dynamic>,
    sorts: HashMap<Sort, SortRef>,
    /// Float sorts outside fpsym's formats, keyed by (eb, sb).
    raw_fp_sorts: HashMap<(u32, u32), SortRef>,
    vars: usize,
    /// The divisor of every `fp.rem` translated (see [`Builder::rem_divisors`]).
    rem_divisors: Vec<Dynamic>,
}

impl Drop for Builder {
    fn drop(&mut self) {
        self.memo.clear();
        self.rem_divisors.clear();
        let raw = self.raw_fp_sorts.drain().map(|(_, s)| s);
        for s in self.sorts.drain().map(|(_, s)| s).chain(raw).collect::<Vec<_>>() {
            // SAFETY: the sort was inc_ref'd in `sort` and the context is alive
            // (held by `self.ctx`).
            unsafe {
                if let Some(a) = Z3_sort_to_ast(self.c, s.raw) {
                    Z3_dec_ref(self.c, a);
                }
            }
        }
    }
}

/// Why a term could not be translated.
#[derive(Debug)]
pub(super) enum Failure {
    /// The term uses something Z3 gets wrong (see [`unsupported`]).
    Unsupported(String),
    /// A Z3 API call failed.
    Z3(String),
}

impl From<String> for Failure {
    fn from(s: String) -> Failure {
        Failure::Z3(s)
    }
}

/// What C and SMT-LIB users call a format, when it has a common name
/// (`binary64`, `x87 long double`, `binary128`).
fn c_format_name(f: Format) -> Option<&'static str> {
    Some(match f {
        Format::BINARY16 => "binary16",
        Format::BINARY32 => "binary32",
        Format::BINARY64 => "binary64",
        Format::X86_FP80 => "x87 long double",
        Format::BINARY128 => "binary128",
        _ => return None,
    })
}

/// Operations Z3 4.8.12 is known to get wrong, which the backend refuses
/// (answering `unknown`) rather than risk an unsound answer.
///
/// - `fp.fma` in formats with `sb <= 3`: Z3's rewriter folds constant
///   `fp.fma` incorrectly there (e.g. `fp.fma RNE 1 1 1` in (3, 3) gives 0.5;
///   about 90% of random finite cases are wrong), and the rewriter runs on
///   any subterm that becomes constant during solving. cvc5 and fpsym agree
///   with each other and with an exact rational model. Real formats have
///   `sb >= 8`.
/// - `fp.rem` in formats with `eb >= 11` (binary64 and wider): Z3's
///   encoding unrolls a loop over the exponent range; a binary64 `fp.rem`
///   with both operands fixed exhausted 24 GB. (Its results for subnormal
///   divisors are also wrong; see [`Builder::rem_divisors`].)
/// - `fp.roundToIntegral` in formats with `eb = 2` (where every value below
///   1 is subnormal): Z3 rounds subnormals wrongly, both when folding and
///   when bit-blasting (e.g. `fp.roundToIntegral RNE 0.25` in (2, 5) gives
///   1). `fp.to_ubv`/`fp.to_sbv` are refused there too, as fpsym's guard
///   for their unspecified cases uses `fp.roundToIntegral`.
fn unsupported(u: &Term) -> Option<String> {
    let arg_format = |i: usize| u.args().get(i).and_then(|a| a.sort().as_float());
    match u.op() {
        Op::FpFma => match u.sort() {
            Sort::Float(f) if f.sb() <= 3 => Some(format!(
                "fp.fma in {} (Z3 4.8.12 folds fp.fma wrongly when sb <= 3)",
                Sort::Float(f)
            )),
            _ => None,
        },
        Op::FpRem => match u.sort() {
            Sort::Float(f) if f.eb() >= 11 => Some(format!(
                "fp.rem in {}{}: Z3 4.8.12's encoding of fp.rem grows with 2^eb and exhausts memory from binary64 on",
                c_format_name(f).map(|n| format!("{n} ")).unwrap_or_default(),
                Sort::Float(f),
            )),
            _ => None,
        },
        Op::Libm(f) => Some(format!(
            "{} (glibc's {f}: Z3 has no theory of it; fpsym's cp solver encloses it)",
            u.op().name()
        )),
        Op::FpRoundToIntegral | Op::FpToUbv(_) | Op::FpToSbv(_) => match arg_format(1) {
            Some(f) if f.eb() == 2 => Some(format!(
                "{} in {} (Z3 4.8.12 rounds subnormals to integers wrongly when eb = 2)",
                u.op().name(),
                Sort::Float(f)
            )),
            _ => None,
        },
        _ => None,
    }
}

/// The Bool constant `true`/`false` of a `Z3_lbool`.
pub(super) fn lbool(v: Z3_lbool) -> Option<bool> {
    match v {
        Z3_L_TRUE => Some(true),
        Z3_L_FALSE => Some(false),
        _ => None,
    }
}

impl Builder {
    /// A builder over `ctx` (the thread's current z3 context).
    pub(super) fn new(ctx: Context) -> Builder {
        let c = ctx.get_z3_context();
        Builder {
            ctx,
            c,
            memo: HashMap::new(),
            sorts: HashMap::new(),
            raw_fp_sorts: HashMap::new(),
            vars: 0,
            rem_divisors: Vec::new(),
        }
    }

    /// The raw context.
    pub(super) fn raw(&self) -> Z3_context {
        self.c
    }

    /// The last Z3 error, if any.
    pub(super) fn error(&self) -> Option<String> {
        // SAFETY: the context is alive.
        unsafe {
            let code = Z3_get_error_code(self.c);
            if code == ErrorCode::OK {
                return None;
            }
            let msg = Z3_get_error_msg(self.c, code);
            Some(if msg.is_null() {
                format!("{code:?}")
            } else {
                CStr::from_ptr(msg).to_string_lossy().into_owned()
            })
        }
    }

    /// Takes ownership of an AST Z3 just returned (increments its count).
    /// Must be called before any other Z3 call.
    pub(super) fn own(&self, r: Option<Z3_ast>) -> Result<Dynamic, String> {
        match r {
            // SAFETY: `a` is a valid AST of this context that Z3 just returned.
            Some(a) => {
                let d = unsafe { <Dynamic as Ast>::wrap(&self.ctx, a) };
                match self.error() {
                    None => Ok(d),
                    Some(e) => Err(e),
                }
            }
            None => Err(self.error().unwrap_or_else(|| "Z3 returned no AST".into())),
        }
    }

    /// The Z3 sort of an fpsym sort.
    pub(super) fn sort(&mut self, s: Sort) -> Result<Z3_sort, String> {
        if let Some(r) = self.sorts.get(&s) {
            return Ok(r.raw);
        }
        let c = self.c;
        // SAFETY: plain constructors on a live context; the sort is
        // inc_ref'd at once and dec_ref'd on drop.
        let raw = unsafe {
            match s {
                Sort::Bool => Z3_mk_bool_sort(c),
                Sort::BitVec(w) => Z3_mk_bv_sort(c, w),
                Sort::Float(f) => Z3_mk_fpa_sort(c, f.eb(), f.sb()),
                Sort::RoundingMode => Z3_mk_fpa_rounding_mode_sort(c),
            }
        };
        let raw = raw.ok_or_else(|| self.error().unwrap_or_else(|| format!("cannot make sort {s}")))?;
        // SAFETY: as above.
        unsafe {
            let a = Z3_sort_to_ast(c, raw).ok_or("sort_to_ast failed")?;
            Z3_inc_ref(c, a);
        }
        self.sorts.insert(s, SortRef { raw });
        Ok(raw)
    }

    /// Did any translated term involve a float or rounding-mode sort?
    pub(super) fn uses_floats(&self) -> bool {
        self.sorts
            .keys()
            .any(|s| matches!(s, Sort::Float(_) | Sort::RoundingMode))
    }

    /// The Z3 float sort `(eb, sb)`, whether or not fpsym handles that format.
    fn raw_fp_sort(&mut self, eb: u32, sb: u32) -> Result<Z3_sort, String> {
        if let Some(r) = self.raw_fp_sorts.get(&(eb, sb)) {
            return Ok(r.raw);
        }
        let c = self.c;
        // SAFETY: as in `sort`.
        unsafe {
            let raw =
                Z3_mk_fpa_sort(c, eb, sb).ok_or_else(|| self.error().unwrap_or_else(|| "cannot make sort".into()))?;
            let a = Z3_sort_to_ast(c, raw).ok_or("sort_to_ast failed")?;
            Z3_inc_ref(c, a);
            self.raw_fp_sorts.insert((eb, sb), SortRef { raw });
            Ok(raw)
        }
    }

    /// The divisors of the `fp.rem` terms translated so far. Z3 4.8.12
    /// computes `fp.rem` wrongly when the divisor is subnormal (e.g. the
    /// largest binary32 rem the largest subnormal gives 0, not 2^-149), so
    /// the caller restricts these to non-subnormal values and never claims
    /// `unsat` for such a query.
    pub(super) fn rem_divisors(&self) -> &[Dynamic] {
        &self.rem_divisors
    }

    /// The translation of an already translated term.
    pub(super) fn get(&self, t: &Term) -> Option<&Dynamic> {
        self.memo.get(&t.id())
    }

    /// Translates `t` (and every subterm not yet translated).
    pub(super) fn translate(&mut self, t: &Term) -> Result<Dynamic, Failure> {
        let mut stack: Vec<(Term, bool)> = vec![(t.clone(), false)];
        while let Some((u, ready)) = stack.pop() {
            if self.memo.contains_key(&u.id()) {
                continue;
            }
            if ready || u.args().is_empty() {
                if let Some(why) = unsupported(&u) {
                    return Err(Failure::Unsupported(why));
                }
                let d = self.node(&u)?;
                self.memo.insert(u.id(), d);
            } else {
                stack.push((u.clone(), true));
                for a in u.args().iter().rev() {
                    if !self.memo.contains_key(&a.id()) {
                        stack.push((a.clone(), false));
                    }
                }
            }
        }
        Ok(self.memo[&t.id()].clone())
    }

    /// A bit-vector numeral.
    fn bv_numeral(&mut self, width: u32, bits: u128) -> Result<Dynamic, String> {
        let s = self.sort(Sort::BitVec(width))?;
        let digits = std::ffi::CString::new(bits.to_string()).expect("digits");
        // SAFETY: valid context, sort and NUL-terminated string.
        self.own(unsafe { Z3_mk_numeral(self.c, digits.as_ptr(), s) })
    }

    /// A float literal (exact bit pattern; NaN is Z3's NaN).
    pub(super) fn fp_const(&mut self, f: Float) -> Result<Dynamic, String> {
        let fmt = f.format();
        if f.is_nan() {
            let s = self.sort(Sort::Float(fmt))?;
            // SAFETY: valid context and sort.
            return self.own(unsafe { Z3_mk_fpa_nan(self.c, s) });
        }
        let sign = self.bv_numeral(1, f.sign() as u128)?;
        let exp = self.bv_numeral(fmt.eb(), f.biased_exponent() as u128)?;
        let frac = self.bv_numeral(fmt.frac_bits(), f.fraction())?;
        // SAFETY: the three arguments are alive.
        self.own(unsafe { Z3_mk_fpa_fp(self.c, sign.get_z3_ast(), exp.get_z3_ast(), frac.get_z3_ast()) })
    }

    /// A rounding-mode literal.
    fn rm_const(&self, r: RoundingMode) -> Result<Dynamic, String> {
        let c = self.c;
        // SAFETY: plain constructors on a live context.
        self.own(unsafe {
            match r {
                RoundingMode::NearestTiesToEven => Z3_mk_fpa_rne(c),
                RoundingMode::NearestTiesToAway => Z3_mk_fpa_rna(c),
                RoundingMode::TowardPositive => Z3_mk_fpa_rtp(c),
                RoundingMode::TowardNegative => Z3_mk_fpa_rtn(c),
                RoundingMode::TowardZero => Z3_mk_fpa_rtz(c),
            }
        })
    }

    /// A fresh Z3 constant for a variable. Variables get integer symbols
    /// (`k!0`, `k!1`, ...) so no name needs escaping; the memo maps each
    /// fpsym variable to its constant.
    fn var(&mut self, t: &Term) -> Result<Dynamic, String> {
        let s = self.sort(t.sort())?;
        let idx = i32::try_from(self.vars).map_err(|_| "too many variables")?;
        self.vars += 1;
        // SAFETY: valid context; the symbol is a plain value.
        unsafe {
            let sym = Z3_mk_int_symbol(self.c, idx).ok_or("cannot make symbol")?;
            self.own(Z3_mk_const(self.c, sym, s))
        }
    }

    /// Translates one node whose arguments are translated.
    fn node(&mut self, u: &Term) -> Result<Dynamic, String> {
        use Op::*;
        let op = u.op();
        match op {
            Var(_) => return self.var(u),
            BoolConst(b) => {
                // SAFETY: plain constructors.
                return self.own(unsafe {
                    if *b {
                        Z3_mk_true(self.c)
                    } else {
                        Z3_mk_false(self.c)
                    }
                });
            }
            BvConst(b) => return self.bv_numeral(b.width(), b.bits()),
            FpConst(f) => return self.fp_const(*f),
            RmConst(r) => return self.rm_const(*r),
            FpMin | FpMax => return self.min_max(u),
            FpToUbv(w) | FpToSbv(w) => return self.fp_to_bv(u, *w, matches!(op, FpToSbv(_))),
            ToFpFromFp(to) => return self.fp_to_fp(u, *to),
            FpRem => {
                let y = self.memo[&u.args()[1].id()].clone();
                let x = self.memo[&u.args()[0].id()].get_z3_ast();
                // SAFETY: both operands alive.
                let r = self.own(unsafe { Z3_mk_fpa_rem(self.c, x, y.get_z3_ast()) })?;
                self.rem_divisors.push(y);
                return Ok(r);
            }
            FpFma if u.args()[0].as_const().is_none() => {
                // Z3 4.8.12 aborts the process (fpa2bv_converter.cpp:118) on
                // fp.fma with a symbolic rounding mode: case-split on the mode.
                let rm = self.memo[&u.args()[0].id()].clone();
                let x: Vec<Z3_ast> = u.args()[1..].iter().map(|a| self.memo[&a.id()].get_z3_ast()).collect();
                let mut acc: Option<Dynamic> = None;
                for mode in RoundingMode::ALL.iter().rev() {
                    let m = self.rm_const(*mode)?;
                    // SAFETY: operands alive in the memo or just built.
                    let f = self.own(unsafe { Z3_mk_fpa_fma(self.c, m.get_z3_ast(), x[0], x[1], x[2]) })?;
                    acc = Some(match acc {
                        None => f,
                        Some(rest) => {
                            // SAFETY: as above.
                            let is = self.own(unsafe { Z3_mk_eq(self.c, rm.get_z3_ast(), m.get_z3_ast()) })?;
                            self.own(unsafe { Z3_mk_ite(self.c, is.get_z3_ast(), f.get_z3_ast(), rest.get_z3_ast()) })?
                        }
                    });
                }
                return Ok(acc.expect("five rounding modes"));
            }
            Xor => {
                let mut acc = self.memo[&u.args()[0].id()].clone();
                for a in &u.args()[1..] {
                    let b = self.memo[&a.id()].get_z3_ast();
                    // SAFETY: both operands alive.
                    acc = self.own(unsafe { Z3_mk_xor(self.c, acc.get_z3_ast(), b) })?;
                }
                return Ok(acc);
            }
            _ => {}
        }
        let x: Vec<Z3_ast> = u.args().iter().map(|a| self.memo[&a.id()].get_z3_ast()).collect();
        let n = x.len() as u32;
        // Sorts needed by conversions, made before the unsafe block.
        let target = match op {
            ToFpFromBits(f) | ToFpFromSbv(f) | ToFpFromUbv(f) => Some(self.sort(Sort::Float(*f))?),
            _ => None,
        };
        let c = self.c;
        // SAFETY: every argument is alive in the memo; arities and sorts were
        // checked when the term was built.
        let r = unsafe {
            match op {
                Not => Z3_mk_not(c, x[0]),
                And => Z3_mk_and(c, n, x.as_ptr()),
                Or => Z3_mk_or(c, n, x.as_ptr()),
                Implies => Z3_mk_implies(c, x[0], x[1]),
                Eq => Z3_mk_eq(c, x[0], x[1]),
                Distinct => Z3_mk_distinct(c, n, x.as_ptr()),
                Ite => Z3_mk_ite(c, x[0], x[1], x[2]),

                FpAbs => Z3_mk_fpa_abs(c, x[0]),
                FpNeg => Z3_mk_fpa_neg(c, x[0]),
                FpAdd => Z3_mk_fpa_add(c, x[0], x[1], x[2]),
                FpSub => Z3_mk_fpa_sub(c, x[0], x[1], x[2]),
                FpMul => Z3_mk_fpa_mul(c, x[0], x[1], x[2]),
                FpDiv => Z3_mk_fpa_div(c, x[0], x[1], x[2]),
                FpFma => Z3_mk_fpa_fma(c, x[0], x[1], x[2], x[3]),
                FpSqrt => Z3_mk_fpa_sqrt(c, x[0], x[1]),
                FpRoundToIntegral => Z3_mk_fpa_round_to_integral(c, x[0], x[1]),
                FpLeq => Z3_mk_fpa_leq(c, x[0], x[1]),
                FpLt => Z3_mk_fpa_lt(c, x[0], x[1]),
                FpGeq => Z3_mk_fpa_geq(c, x[0], x[1]),
                FpGt => Z3_mk_fpa_gt(c, x[0], x[1]),
                FpEq => Z3_mk_fpa_eq(c, x[0], x[1]),
                FpIsNormal => Z3_mk_fpa_is_normal(c, x[0]),
                FpIsSubnormal => Z3_mk_fpa_is_subnormal(c, x[0]),
                FpIsZero => Z3_mk_fpa_is_zero(c, x[0]),
                FpIsInfinite => Z3_mk_fpa_is_infinite(c, x[0]),
                FpIsNaN => Z3_mk_fpa_is_nan(c, x[0]),
                FpIsNegative => Z3_mk_fpa_is_negative(c, x[0]),
                FpIsPositive => Z3_mk_fpa_is_positive(c, x[0]),
                FpFromParts => Z3_mk_fpa_fp(c, x[0], x[1], x[2]),
                ToFpFromBits(_) => Z3_mk_fpa_to_fp_bv(c, x[0], target.unwrap()),
                ToFpFromSbv(_) => Z3_mk_fpa_to_fp_signed(c, x[0], x[1], target.unwrap()),
                ToFpFromUbv(_) => Z3_mk_fpa_to_fp_unsigned(c, x[0], x[1], target.unwrap()),

                BvConcat => Z3_mk_concat(c, x[0], x[1]),
                BvExtract(hi, lo) => Z3_mk_extract(c, *hi, *lo, x[0]),
                BvZeroExtend(k) => Z3_mk_zero_ext(c, *k, x[0]),
                BvSignExtend(k) => Z3_mk_sign_ext(c, *k, x[0]),
                BvNot => Z3_mk_bvnot(c, x[0]),
                BvNeg => Z3_mk_bvneg(c, x[0]),
                BvAnd => Z3_mk_bvand(c, x[0], x[1]),
                BvOr => Z3_mk_bvor(c, x[0], x[1]),
                BvXor => Z3_mk_bvxor(c, x[0], x[1]),
                BvAdd => Z3_mk_bvadd(c, x[0], x[1]),
                BvSub => Z3_mk_bvsub(c, x[0], x[1]),
                BvMul => Z3_mk_bvmul(c, x[0], x[1]),
                BvUdiv => Z3_mk_bvudiv(c, x[0], x[1]),
                BvUrem => Z3_mk_bvurem(c, x[0], x[1]),
                BvSdiv => Z3_mk_bvsdiv(c, x[0], x[1]),
                BvSrem => Z3_mk_bvsrem(c, x[0], x[1]),
                BvSmod => Z3_mk_bvsmod(c, x[0], x[1]),
                BvShl => Z3_mk_bvshl(c, x[0], x[1]),
                BvLshr => Z3_mk_bvlshr(c, x[0], x[1]),
                BvAshr => Z3_mk_bvashr(c, x[0], x[1]),
                BvUlt => Z3_mk_bvult(c, x[0], x[1]),
                BvUle => Z3_mk_bvule(c, x[0], x[1]),
                BvUgt => Z3_mk_bvugt(c, x[0], x[1]),
                BvUge => Z3_mk_bvuge(c, x[0], x[1]),
                BvSlt => Z3_mk_bvslt(c, x[0], x[1]),
                BvSle => Z3_mk_bvsle(c, x[0], x[1]),
                BvSgt => Z3_mk_bvsgt(c, x[0], x[1]),
                BvSge => Z3_mk_bvsge(c, x[0], x[1]),

                Var(_) | BoolConst(_) | BvConst(_) | FpConst(_) | RmConst(_) | Xor | FpMin | FpMax | FpToUbv(_)
                | FpToSbv(_) | ToFpFromFp(_) | FpRem => unreachable!("handled above"),
                Libm(_) => unreachable!("refused by `unsupported`"),
            }
        };
        self.own(r)
    }

    /// `((_ to_fp eb sb) rm x)` for a float `x`. Z3 4.8.12 bit-blasts this
    /// conversion wrongly for subnormal `x` when x's format has exactly two
    /// more exponent bits than the target (e.g. 2^-24 in (5, 11) to (3, 5)
    /// gives +oo, and (13, 30) to (11, 53) is wrong too; its constant folder
    /// is right). There the conversion goes through `(x.eb + 1, x.sb)` first,
    /// which holds every value of x's format exactly, so the result is still
    /// rounded once.
    fn fp_to_fp(&mut self, u: &Term, to: Format) -> Result<Dynamic, String> {
        let rm = self.memo[&u.args()[0].id()].clone();
        let mut x = self.memo[&u.args()[1].id()].clone();
        let from = u.args()[1].sort().as_float().ok_or("to_fp of a non-float")?;
        if from.eb() == to.eb() + 2 {
            let s = self.raw_fp_sort(from.eb() + 1, from.sb())?;
            // SAFETY: operands alive; the sort is cached for the builder's life.
            x = self.own(unsafe { Z3_mk_fpa_to_fp_float(self.c, rm.get_z3_ast(), x.get_z3_ast(), s) })?;
        }
        let s = self.sort(Sort::Float(to))?;
        // SAFETY: as above.
        self.own(unsafe { Z3_mk_fpa_to_fp_float(self.c, rm.get_z3_ast(), x.get_z3_ast(), s) })
    }

    /// `fp.min` / `fp.max`. The query went through `fpsym_expr::specify`,
    /// so zeros of both signs never reach Z3's unspecified choice.
    fn min_max(&mut self, u: &Term) -> Result<Dynamic, String> {
        let is_min = matches!(u.op(), Op::FpMin);
        let x = self.memo[&u.args()[0].id()].clone();
        let y = self.memo[&u.args()[1].id()].clone();
        let (xa, ya, c) = (x.get_z3_ast(), y.get_z3_ast(), self.c);
        // SAFETY: every operand is held by a live `Dynamic`.
        unsafe {
            self.own(if is_min {
                Z3_mk_fpa_min(c, xa, ya)
            } else {
                Z3_mk_fpa_max(c, xa, ya)
            })
        }
    }

    /// `((_ fp.to_ubv w) rm x)` / `((_ fp.to_sbv w) rm x)`. The query went
    /// through `fpsym_expr::specify`, so Z3's choice for NaN, infinities and
    /// out-of-range values is never consulted.
    fn fp_to_bv(&mut self, u: &Term, w: u32, signed: bool) -> Result<Dynamic, String> {
        let rm = self.memo[&u.args()[0].id()].clone();
        let x = self.memo[&u.args()[1].id()].clone();
        let (ra, xa, c) = (rm.get_z3_ast(), x.get_z3_ast(), self.c);
        // SAFETY: every operand is held by a live `Dynamic`.
        unsafe {
            if signed && w == 1 {
                // Z3 4.8.12 cannot bit-blast a 1-bit fp.to_sbv ("bit-vector size
                // must be greater than zero"). In range, the value is -1 or 0,
                // whose 2-bit encoding ends in the 1-bit one.
                let two = self.own(Z3_mk_fpa_to_sbv(c, ra, xa, 2))?;
                self.own(Z3_mk_extract(c, 0, 0, two.get_z3_ast()))
            } else {
                self.own(if signed {
                    Z3_mk_fpa_to_sbv(c, ra, xa, w)
                } else {
                    Z3_mk_fpa_to_ubv(c, ra, xa, w)
                })
            }
        }
    }
}
