//! IEEE-754 exceptions (seed 003's Table 1, bit-precise) and C's
//! float-to-integer conversions out of range, as continuing checks: the
//! program goes on after an exception (with the infinity, NaN or
//! subnormal IEEE gives), so each is one query and a finding with a test,
//! and the path goes on.
//!
//! Conditions, for an operation in the state's rounding mode `rm` on
//! operands `a`, `b` (`fin` = neither NaN nor infinite):
//! - invalid: the result is NaN while no operand is (0/0, ∞−∞, 0·∞,
//!   √(−x), fmod(x, 0), ...), or an operand is a signalling NaN (known
//!   where its bits are: an input; every NaN an operation makes is quiet).
//!   An ordering comparison or `fmin`/`fmax` signals on a quiet NaN or not
//!   as clang-14 -O0 lowers it, measured natively: `cmpltsd` for a float
//!   or double compare feeding a select of its type, `cmpltpd` for a
//!   vector, libgcc's `__lttf2` for binary128, and inline `minsd`/`maxsd`
//!   signal; `ucomisd` everywhere else (a branch, an integer result) and
//!   glibc's `fmin`/`fmax` do not (see [`signalling_compares`]).
//! - divide-by-zero: `a / ±0` with `a` finite and non-zero (and the poles
//!   of libm functions: log(0), pow(0, y<0), ...).
//! - overflow: finite operands, and the result rounded in the same
//!   precision with two more exponent bits exceeds the largest finite
//!   value (also in the modes that deliver that largest value). A
//!   transcendental call (`pow`, `lgamma`, ...): glibc's result (the
//!   call's symbolic value) is ±∞ from finite arguments, not at a pole.
//! - underflow (x86 SSE: tininess after rounding, and inexact): the result
//!   rounded in the same precision with two more exponent bits is non-zero
//!   and below the smallest normal, and the result is inexact.
//! - inexact: rounding up and rounding down give different results (the
//!   exact value is not representable).
//! - float-cast-overflow: `fptosi`/`fptoui` of a value whose truncation is
//!   outside the target type (or NaN, or infinite): C's undefined behaviour.
//!
//! What it cannot decide (libm rounding, x87 and binary128 operations,
//! aggregates, indirect calls, ...) is an unchecked check: a
//! `CheckUndecided` event when it can happen, so the run is never
//! "verified" then.

use super::{Check, Checker, Kind, Operation, Point, PointKind};
use crate::state::State;
use crate::term::{format_of, mk, rm};
use fpsym_expr::{LibmFn, Op, Term};
use fpsym_float::{Float, Format, RoundingMode};
use llvm_ir::Instruction as I;

/// Which exceptions a [`FpExceptions`] checker reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FpKinds {
    /// The result is too large for the format.
    pub overflow: bool,
    /// The result is tiny and inexact.
    pub underflow: bool,
    /// A finite non-zero value divided by zero (or a pole).
    pub divide_by_zero: bool,
    /// No meaningful result (NaN from non-NaN operands, signalling NaNs).
    pub invalid: bool,
    /// The result was rounded. Off unless asked: almost every operation
    /// is inexact.
    pub inexact: bool,
    /// A float converted to an integer type that cannot hold it.
    pub float_cast_overflow: bool,
}

impl Default for FpKinds {
    fn default() -> Self {
        FpKinds {
            overflow: true,
            underflow: true,
            divide_by_zero: true,
            invalid: true,
            inexact: false,
            float_cast_overflow: true,
        }
    }
}

impl FpKinds {
    /// Whether findings of `kind` are asked for.
    pub fn contains(&self, kind: &Kind) -> bool {
        match kind {
            Kind::FpOverflow => self.overflow,
            Kind::FpUnderflow => self.underflow,
            Kind::FpDivideByZero => self.divide_by_zero,
            Kind::FpInvalid => self.invalid,
            Kind::FpInexact => self.inexact,
            Kind::FloatCastOverflow => self.float_cast_overflow,
            _ => false,
        }
    }

    /// None of them.
    pub fn none() -> FpKinds {
        FpKinds {
            overflow: false,
            underflow: false,
            divide_by_zero: false,
            invalid: false,
            inexact: false,
            float_cast_overflow: false,
        }
    }
}

/// Reports floating-point exceptions and float-cast overflows where they
/// can happen (see the module documentation for the conditions).
#[derive(Clone, Debug, Default)]
pub struct FpExceptions {
    kinds: FpKinds,
    /// Functions with a body in the program: a call to one runs its body
    /// (whose operations are checked), even one named like libm's.
    defined: std::collections::HashSet<String>,
    /// The float/double ordering comparisons that x86-64 code lowers to a
    /// signalling compare (`cmpltsd`, `cmpltpd`), by their address in the
    /// module ([`signalling_compares`]).
    signalling_compares: std::collections::HashSet<usize>,
}

impl FpExceptions {
    /// A checker for `kinds`.
    pub fn new(kinds: FpKinds) -> FpExceptions {
        FpExceptions {
            kinds,
            defined: Default::default(),
            signalling_compares: Default::default(),
        }
    }
}

fn not(t: Term) -> Term {
    mk(Op::Not, vec![t])
}
fn and(mut ts: Vec<Term>) -> Term {
    match ts.len() {
        0 => Term::bool(true),
        1 => ts.pop().expect("one term"),
        _ => mk(Op::And, ts),
    }
}
fn or(mut ts: Vec<Term>) -> Term {
    match ts.len() {
        0 => Term::bool(false),
        1 => ts.pop().expect("one term"),
        _ => mk(Op::Or, ts),
    }
}
fn is_nan(x: &Term) -> Term {
    mk(Op::FpIsNaN, vec![x.clone()])
}
fn is_inf(x: &Term) -> Term {
    mk(Op::FpIsInfinite, vec![x.clone()])
}
fn is_zero(x: &Term) -> Term {
    mk(Op::FpIsZero, vec![x.clone()])
}
/// Neither NaN nor infinite.
fn fin(x: &Term) -> Term {
    and(vec![not(is_nan(x)), not(is_inf(x))])
}
fn lt(a: &Term, b: &Term) -> Term {
    mk(Op::FpLt, vec![a.clone(), b.clone()])
}
fn fpc(f: Float) -> Term {
    Term::fp(f)
}

/// Whether `x` is a signalling NaN, where its bits are known (a float made
/// from a bit pattern: an input, a bitcast); false elsewhere (every NaN an
/// operation produces is quiet).
fn signalling(x: &Term) -> Term {
    if let (Op::ToFpFromBits(fmt), [b]) = (x.op(), x.args()) {
        if !fmt.has_explicit_int_bit() {
            let fb = fmt.frac_bits();
            let w = fmt.width();
            let e = mk(Op::BvExtract(w - 2, fb), vec![b.clone()]);
            let quiet = mk(Op::BvExtract(fb - 1, fb - 1), vec![b.clone()]);
            let frac = mk(Op::BvExtract(fb - 1, 0), vec![b.clone()]);
            let ones = Term::bv(fmt.eb(), (1u128 << fmt.eb()) - 1);
            return and(vec![
                mk(Op::Eq, vec![e, ones]),
                mk(Op::Eq, vec![quiet, Term::bv(1, 0)]),
                not(mk(Op::Eq, vec![frac, Term::bv(fb, 0)])),
            ]);
        }
    }
    Term::bool(false)
}

/// An operation of the IEEE family this checker knows, applied in a given
/// rounding mode to operands (of `fmt`) converted to `to`.
#[derive(Clone, Copy)]
enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Fma,
    Sqrt,
    /// Conversion to another float format.
    Convert,
    /// Conversion of an integer (signed or not) to a float.
    FromInt(bool),
}

impl Arith {
    /// The LLVM opcode (or intrinsic) it stands for.
    fn name(self) -> &'static str {
        match self {
            Arith::Add => "fadd",
            Arith::Sub => "fsub",
            Arith::Mul => "fmul",
            Arith::Div => "fdiv",
            Arith::Fma => "fma",
            Arith::Sqrt => "sqrt",
            Arith::Convert => "fptrunc",
            Arith::FromInt(true) => "sitofp",
            Arith::FromInt(false) => "uitofp",
        }
    }
    /// The operation in mode `r` on `args` (already in format `to`; a
    /// conversion converts to `to`).
    fn apply(self, r: RoundingMode, args: &[Term], to: Format) -> Term {
        let mut v = vec![rm(r)];
        v.extend(args.iter().cloned());
        let op = match self {
            Arith::Add => Op::FpAdd,
            Arith::Sub => Op::FpSub,
            Arith::Mul => Op::FpMul,
            Arith::Div => Op::FpDiv,
            Arith::Fma => Op::FpFma,
            Arith::Sqrt => Op::FpSqrt,
            Arith::Convert => Op::ToFpFromFp(to),
            Arith::FromInt(true) => Op::ToFpFromSbv(to),
            Arith::FromInt(false) => Op::ToFpFromUbv(to),
        };
        mk(op, v)
    }
}

impl FpExceptions {
    /// The checks for `op` on `args` (format `from`) giving a result of
    /// format `to` in mode `r`.
    fn arith(&self, op: Arith, r: RoundingMode, args: &[Term], to: Format) -> Vec<Check> {
        let mut out = Vec::new();
        let Some(first) = args.first() else { return out };
        let float = |t: &&Term| matches!(t.sort(), fpsym_expr::Sort::Float(_));
        let from = if float(&first) { format_of(first) } else { to };
        let result = op.apply(r, args, to);
        let operation = Operation {
            name: op.name().into(),
            operands: args.to_vec(),
            result: Some(result.clone()),
        };
        let all_fin = and(args.iter().filter(float).map(fin).collect());
        let any_nan = or(args.iter().filter(float).map(is_nan).collect());
        if self.kinds.invalid && !matches!(op, Arith::FromInt(_)) {
            let mut why = vec![and(vec![is_nan(&result), not(any_nan.clone())])];
            why.extend(args.iter().filter(float).map(signalling));
            out.push(Check::continuing(Kind::FpInvalid, or(why), "invalid operation"));
        }
        if self.kinds.divide_by_zero {
            if let (Arith::Div, [a, b]) = (op, args) {
                out.push(Check::continuing(
                    Kind::FpDivideByZero,
                    and(vec![fin(a), not(is_zero(a)), is_zero(b)]),
                    "division of a finite non-zero value by zero",
                ));
            }
        }
        let not_by_zero = match (op, args) {
            (Arith::Div, [_, b]) => not(is_zero(b)),
            _ => Term::bool(true),
        };
        // Inexact: rounding up and down disagree (the exact value is not
        // representable). Under `fp.eq`, +0 and -0 agree.
        let inexact = || {
            let up = op.apply(RoundingMode::TowardPositive, args, to);
            let down = op.apply(RoundingMode::TowardNegative, args, to);
            and(vec![
                all_fin.clone(),
                not_by_zero.clone(),
                not(is_nan(&result)),
                not(mk(Op::FpEq, vec![up, down])),
            ])
        };
        // The result rounded as if the exponent were unbounded: in the same
        // precision with two more exponent bits than the wider of the two
        // formats (enough for every product, quotient and fma of finite
        // values, and for every value of a conversion's source). Operands
        // of the result's format convert exactly.
        let wide = Format::new(to.eb().max(from.eb()) + 2, to.sb()).ok();
        let wide_result = wide.and_then(|w| match op {
            Arith::Convert | Arith::FromInt(_) => Some(op.apply(r, args, w)),
            _ if from == to => {
                let conv = |x: &Term| mk(Op::ToFpFromFp(w), vec![rm(RoundingMode::NearestTiesToEven), x.clone()]);
                let wide_args: Vec<Term> = args.iter().map(conv).collect();
                Some(op.apply(r, &wide_args, w))
            }
            _ => None,
        });
        let in_wide = |f: Float| {
            fpc(f
                .convert(wide.expect("a wide format"), RoundingMode::NearestTiesToEven)
                .value)
        };
        if self.kinds.overflow {
            // IEEE overflow: that result exceeds the largest finite value
            // (also where the mode rounds the delivered result down to it).
            match &wide_result {
                Some(w) => out.push(Check::continuing(
                    Kind::FpOverflow,
                    and(vec![
                        all_fin.clone(),
                        not_by_zero.clone(),
                        mk(
                            Op::FpGt,
                            vec![mk(Op::FpAbs, vec![w.clone()]), in_wide(Float::largest(to, false))],
                        ),
                    ]),
                    "the result is too large for the format",
                )),
                // No wider format to round in (binary128).
                None => out.push(Check::unchecked(
                    Kind::FpOverflow,
                    "overflow in this format is not modelled",
                )),
            }
        }
        let tiny_possible = matches!(op, Arith::Mul | Arith::Div | Arith::Fma | Arith::Convert);
        if self.kinds.underflow && wide_result.is_none() && tiny_possible {
            out.push(Check::unchecked(
                Kind::FpUnderflow,
                "underflow in this format is not modelled",
            ));
        }
        // Additions, subtractions and square roots never underflow: a sum
        // below the smallest normal is exact, a square root is never tiny.
        let may_underflow = matches!(op, Arith::Mul | Arith::Div | Arith::Fma | Arith::Convert);
        if let (true, true, Some(w)) = (self.kinds.underflow, may_underflow, &wide_result) {
            // Tininess after rounding (x86 SSE), and inexact.
            let tiny = and(vec![
                not(is_zero(w)),
                lt(
                    &mk(Op::FpAbs, vec![w.clone()]),
                    &in_wide(Float::smallest_normal(to, false)),
                ),
            ]);
            out.push(Check::continuing(
                Kind::FpUnderflow,
                and(vec![tiny, inexact()]),
                "the result is tiny and inexact",
            ));
        }
        if self.kinds.inexact {
            out.push(Check::continuing(Kind::FpInexact, inexact(), "the result was rounded"));
        }
        out.into_iter().map(|c| c.about(&operation)).collect()
    }

    /// C's conversion of float `x` to a `w`-bit integer (`signed` or not):
    /// undefined behaviour when the truncated value is outside the type.
    fn cast(&self, x: &Term, w: u32, signed: bool) -> Vec<Check> {
        if !self.kinds.float_cast_overflow || w < 2 {
            return vec![];
        }
        let outside = self.cast_condition(x, w, signed);
        let ty = format!("{}{w}", if signed { "i" } else { "u" });
        vec![Check::continuing(
            Kind::FloatCastOverflow,
            outside,
            format!("the value is outside the range of {ty}"),
        )]
    }

    /// Whether converting `x` to a `w`-bit integer is out of range: its
    /// truncation outside the type, or NaN, or infinite.
    fn cast_condition(&self, x: &Term, w: u32, signed: bool) -> Term {
        let fmt = format_of(x);
        let t = mk(Op::FpRoundToIntegral, vec![rm(RoundingMode::TowardZero), x.clone()]);
        let hi_exp = if signed { w - 1 } else { w } as i64;
        let hi = Float::pow2(fmt, hi_exp).unwrap_or(Float::infinity(fmt, false));
        let lo = if signed {
            Float::pow2(fmt, (w - 1) as i64)
                .map(|f| f.neg())
                .unwrap_or(Float::infinity(fmt, true))
        } else {
            Float::zero(fmt, false)
        };
        let inside = and(vec![fin(x), mk(Op::FpGeq, vec![t.clone(), fpc(lo)]), lt(&t, &fpc(hi))]);
        not(inside)
    }

    /// Domain errors of libm function `name` on `args`.
    fn libm(&self, name: &str, args: &[Term]) -> Vec<Check> {
        let base = libm_base(name);
        let Some(x) = args.first() else { return vec![] };
        if !matches!(x.sort(), fpsym_expr::Sort::Float(_)) {
            return vec![];
        }
        let fmt = format_of(x);
        let c = |v: i64| {
            fpc(Float::from_f64(v as f64)
                .convert(fmt, RoundingMode::NearestTiesToEven)
                .value)
        };
        let zero = c(0);
        let neg = lt(x, &zero);
        let mut invalid = Vec::new();
        let mut pole = Vec::new();
        match base {
            "sqrt" => invalid.push(neg),
            "log" | "log2" | "log10" => {
                invalid.push(neg);
                pole.push(is_zero(x));
            }
            "log1p" => {
                invalid.push(lt(x, &c(-1)));
                pole.push(mk(Op::FpEq, vec![x.clone(), c(-1)]));
            }
            "acos" | "asin" => invalid.push(lt(&c(1), &mk(Op::FpAbs, vec![x.clone()]))),
            // No value at an infinity.
            "sin" | "cos" | "tan" => invalid.push(is_inf(x)),
            "acosh" => invalid.push(lt(x, &c(1))),
            "atanh" => {
                invalid.push(lt(&c(1), &mk(Op::FpAbs, vec![x.clone()])));
                pole.push(mk(Op::FpEq, vec![mk(Op::FpAbs, vec![x.clone()]), c(1)]));
            }
            "pow" => {
                if let Some(y) = args.get(1) {
                    let y_int = mk(
                        Op::FpEq,
                        vec![
                            mk(Op::FpRoundToIntegral, vec![rm(RoundingMode::TowardZero), y.clone()]),
                            y.clone(),
                        ],
                    );
                    invalid.push(and(vec![fin(x), neg, fin(y), not(y_int)]));
                    pole.push(and(vec![is_zero(x), fin(y), lt(y, &zero)]));
                }
            }
            "fmod" => {
                if let Some(y) = args.get(1) {
                    invalid.push(and(vec![not(is_nan(y)), is_inf(x)]));
                    invalid.push(and(vec![not(is_nan(x)), is_zero(y)]));
                }
            }
            _ => return vec![],
        }
        let mut out = Vec::new();
        if self.kinds.invalid && !invalid.is_empty() {
            out.push(Check::continuing(
                Kind::FpInvalid,
                or(invalid),
                format!("{name} outside its domain"),
            ));
        }
        if self.kinds.divide_by_zero && !pole.is_empty() {
            out.push(Check::continuing(
                Kind::FpDivideByZero,
                or(pole),
                format!("{name} at a pole"),
            ));
        }
        // Rounding, overflow and underflow of these functions are glibc's:
        // not modelled here (exact `sqrt` and `fmod` aside).
        if !matches!(base, "sqrt" | "fmod") {
            out.extend(self.unchecked_kinds(
                &[Kind::FpOverflow, Kind::FpUnderflow, Kind::FpInexact],
                &format!("rounding of {name} is not modelled"),
            ));
        }
        out
    }
}

/// Where glibc's exponential functions overflow and underflow, rounding
/// to nearest: (function, format's significand bits, the largest finite
/// argument whose result is finite: beyond it (in magnitude, both signs
/// for `sinh` and `cosh`) the result overflows; the smallest argument
/// whose result is normal, below which (down to `-inf`, excluded) it
/// underflows, when known). Read off glibc natively, a bisection over the
/// format's values watching `fetestexcept`; the unit test
/// `growth_thresholds_are_glibcs` checks each against the machine's libm.
/// `exp2`'s underflow is not a threshold (exact at integers below
/// -1022), nor `expm1`'s, `sinh`'s or `cosh`'s.
pub const GROWTH: [(&str, u32, f64, Option<f64>); 11] = [
    ("exp", 53, 709.782712893384, Some(-708.3964185322641)),
    ("expm1", 53, 709.782712893384, None),
    ("exp2", 53, 1023.9999999999999, None),
    ("exp10", 53, 308.2547155599167, Some(-307.6526555685887)),
    ("sinh", 53, 710.4758600739439, None),
    ("cosh", 53, 710.4758600739439, None),
    ("exp", 24, 88.72283172607422, Some(-87.33654022216797)),
    ("expm1", 24, 88.72283172607422, None),
    ("exp2", 24, 127.99999237060547, None),
    ("sinh", 24, 89.41598510742188, None),
    ("cosh", 24, 89.41598510742188, None),
];

/// Intrinsics on floats that raise no exception this checker reports
/// (exact, or signalling-NaN only): `llvm.fabs.*`, `llvm.copysign.*`, ...
const QUIET_INTRINSICS: [&str; 9] = [
    "fabs.",
    "copysign.",
    "floor.",
    "ceil.",
    "trunc.",
    "round.",
    "roundeven.",
    "nearbyint.",
    "dbg.",
];

/// libm functions with float arguments that raise none of the reported
/// kinds (exact results; NaN in, NaN out quietly).
const QUIET_LIBM: [&str; 11] = [
    "fabs",
    "copysign",
    "floor",
    "ceil",
    "trunc",
    "round",
    "nearbyint",
    "isnan",
    "isinf",
    "finite",
    "signbit",
];

impl FpExceptions {
    /// A call this checker does not model: every asked kind is unchecked
    /// there (the verdict cannot be "verified").
    fn unchecked(&self, name: &str) -> Vec<Check> {
        self.unchecked_kinds(
            &[
                Kind::FpOverflow,
                Kind::FpUnderflow,
                Kind::FpDivideByZero,
                Kind::FpInvalid,
                Kind::FpInexact,
            ],
            &format!("exceptions of {name} are not modelled"),
        )
    }

    /// `exp`, `exp2`, `exp10`, `expm1`, `sinh`, `cosh` (and their float
    /// forms, LLVM's `llvm.exp.*` and `llvm.exp2.*`): overflow and, where
    /// [`GROWTH`] knows it, underflow past glibc's thresholds, rounding to
    /// nearest; what they do in other rounding modes, their inexactness
    /// and the rest are unchecked. None for other functions.
    fn growth(&self, name: &str, r: RoundingMode, args: &[Term]) -> Option<Vec<Check>> {
        let base = libm_base(name);
        let x = args
            .first()
            .filter(|x| matches!(x.sort(), fpsym_expr::Sort::Float(_)))?;
        let fmt = format_of(x);
        let (_, _, over, under) = GROWTH.iter().find(|(f, sb, _, _)| *f == base && *sb == fmt.sb())?;
        if fmt.smtlib() != Format::BINARY64.smtlib() && fmt.smtlib() != Format::BINARY32.smtlib() {
            return None;
        }
        let mut out = Vec::new();
        let mut unchecked = vec![Kind::FpInexact];
        if r != RoundingMode::NearestTiesToEven {
            unchecked.extend([Kind::FpOverflow, Kind::FpUnderflow]);
        } else {
            let c = |v: f64| fpc(Float::from_f64(v).convert(fmt, RoundingMode::NearestTiesToEven).value);
            if self.kinds.overflow {
                let big = match base {
                    "sinh" | "cosh" => lt(&c(*over), &mk(Op::FpAbs, vec![x.clone()])),
                    _ => lt(&c(*over), x),
                };
                out.push(Check::continuing(
                    Kind::FpOverflow,
                    and(vec![fin(x), big]),
                    format!("{name} overflows past {over}"),
                ));
            }
            match under {
                Some(u) if self.kinds.underflow => out.push(Check::continuing(
                    Kind::FpUnderflow,
                    and(vec![fin(x), lt(x, &c(*u))]),
                    format!("{name} underflows below {u}"),
                )),
                Some(_) => {}
                None => unchecked.push(Kind::FpUnderflow),
            }
        }
        // No domain error, no pole: invalid only for a signalling NaN.
        if self.kinds.invalid {
            let s = signalling(x);
            if crate::term::as_bool(&s) != Some(false) {
                out.push(Check::continuing(
                    Kind::FpInvalid,
                    s,
                    format!("{name} of a signalling NaN"),
                ));
            }
        }
        out.extend(self.unchecked_kinds(&unchecked, &format!("{name} rounds as glibc does: not modelled")));
        Some(out)
    }

    /// A transcendental function glibc computes on `float` or `double`
    /// arguments ([`LibmFn`]; `exp`-like ones go to [`Self::growth`]
    /// first): what [`Self::libm`] says (or every kind unchecked), but
    /// overflow decided on the result itself, the term `(fpsym.f rm x)`
    /// the call's hook gives the call's value (by definition glibc's
    /// value). glibc raises overflow exactly when it returns ±inf from
    /// finite arguments that are not a pole (a pole raises
    /// divide-by-zero: see [`libm_poles`]); so in round-to-nearest that is
    /// the condition, and in the other modes (where an overflow may
    /// return the largest finite value instead) it is a sufficient one
    /// and the rest is unchecked. Underflow and inexact stay unchecked.
    /// None for other functions and formats.
    fn libm_overflow(&self, name: &str, r: RoundingMode, args: &[Term]) -> Option<Vec<Check>> {
        let base = libm_base(name);
        let f = LibmFn::from_c_name(base)?;
        let fmt = args.first().map(format_of)?;
        let floats = args.iter().all(|a| matches!(a.sort(), fpsym_expr::Sort::Float(_)));
        if !floats || args.len() != f.arity() || !LibmFn::evaluated_in(fmt) || args.iter().any(|a| format_of(a) != fmt)
        {
            return None;
        }
        let mut v = self.libm(name, args);
        if v.is_empty() {
            v = self.unchecked(name);
        }
        if !self.kinds.overflow {
            return Some(v);
        }
        v.retain(|c| !(c.kind == Kind::FpOverflow && c.then == super::OnViolation::Unchecked));
        let mut operands = vec![rm(r)];
        operands.extend(args.iter().cloned());
        let y = mk(Op::Libm(f), operands);
        let mut cond: Vec<Term> = args.iter().map(fin).collect();
        cond.push(is_inf(&y));
        cond.push(not(or(libm_poles(base, args))));
        v.push(Check::continuing(
            Kind::FpOverflow,
            and(cond),
            format!("{name} overflows (glibc returns an infinity)"),
        ));
        if r != RoundingMode::NearestTiesToEven {
            v.push(Check::unchecked(
                Kind::FpOverflow,
                format!("overflow of {name} rounding {r:?} (the largest finite value) is not modelled"),
            ));
        }
        Some(v)
    }

    /// The asked ones of `kinds`, unchecked for `why`.
    fn unchecked_kinds(&self, kinds: &[Kind], why: &str) -> Vec<Check> {
        kinds
            .iter()
            .filter(|k| self.kinds.contains(k))
            .map(|k| Check::unchecked(k.clone(), why))
            .collect()
    }

    /// `sqrt(x)`: invalid below zero (its domain), inexact as IEEE rounds.
    fn sqrt(&self, r: RoundingMode, args: &[Term], f: Format) -> Vec<Check> {
        let mut v = self.libm("sqrt", args);
        v.extend(
            self.arith(Arith::Sqrt, r, args, f)
                .into_iter()
                .filter(|c| c.kind != Kind::FpInvalid),
        );
        v
    }
}

/// Where glibc's transcendental function `base` (C's name of the `double`
/// form) has a pole on finite `args`: an infinite result raising
/// divide-by-zero, not overflow. log, log2, log10 at ±0; log1p at -1;
/// atanh at ±1; pow(±0, y) for finite y < 0; tgamma at ±0; lgamma at
/// non-positive integers (±0 included). No other function of
/// [`LibmFn`] returns an infinity from finite arguments except by
/// overflowing (tan never reaches its poles in floating point).
fn libm_poles(base: &str, args: &[Term]) -> Vec<Term> {
    let Some(x) = args.first() else { return vec![] };
    let fmt = format_of(x);
    let c = |v: i64| {
        fpc(Float::from_f64(v as f64)
            .convert(fmt, RoundingMode::NearestTiesToEven)
            .value)
    };
    let integral = |t: &Term| {
        mk(
            Op::FpEq,
            vec![
                mk(Op::FpRoundToIntegral, vec![rm(RoundingMode::TowardZero), t.clone()]),
                t.clone(),
            ],
        )
    };
    match base {
        "log" | "log2" | "log10" | "tgamma" => vec![is_zero(x)],
        "log1p" => vec![mk(Op::FpEq, vec![x.clone(), c(-1)])],
        "atanh" => vec![mk(Op::FpEq, vec![mk(Op::FpAbs, vec![x.clone()]), c(1)])],
        "pow" => match args.get(1) {
            Some(y) => vec![and(vec![is_zero(x), fin(y), lt(y, &c(0))])],
            None => vec![],
        },
        "lgamma" => vec![and(vec![fin(x), not(lt(&c(0), x)), integral(x)])],
        _ => vec![],
    }
}

/// The C library name a libm variant belongs to (`sinf`, `sinl` → `sin`;
/// `ceil` stays `ceil`).
fn libm_base(name: &str) -> &str {
    // One suffix only: `erff` is `erf`'s float form (trimming every
    // trailing f would leave `er`).
    ["f", "l"]
        .iter()
        .find_map(|s| name.strip_suffix(s).filter(|b| crate::hooks::is_c_library_function(b)))
        .unwrap_or(name)
}

/// The element type of a vector type, else the type itself.
fn scalar(t: &llvm_ir::Type) -> &llvm_ir::Type {
    match t {
        llvm_ir::Type::VectorType { element_type, .. } => element_type.as_ref(),
        t => t,
    }
}

/// The floating-point operations the checker looks at (besides calls).
fn fp_op(inst: &llvm_ir::Instruction) -> bool {
    matches!(
        inst,
        I::FAdd(_)
            | I::FSub(_)
            | I::FMul(_)
            | I::FDiv(_)
            | I::FRem(_)
            | I::FPTrunc(_)
            | I::FPExt(_)
            | I::FPToSI(_)
            | I::FPToUI(_)
            | I::SIToFP(_)
            | I::UIToFP(_)
            | I::FCmp(_)
    )
}

/// Whether an `fcmp` predicate orders its operands (`<`, `<=`, `>`, `>=`
/// and their unordered forms): those are the predicates whose x86
/// compares come in a signalling form.
fn ordering(p: llvm_ir::predicates::FPPredicate) -> bool {
    use llvm_ir::predicates::FPPredicate as P;
    matches!(p, P::OLT | P::OLE | P::OGT | P::OGE | P::ULT | P::ULE | P::UGT | P::UGE)
}

/// The float and double `fcmp`s of `module` that raise invalid on a quiet
/// NaN in the code clang-14 -O0 emits for x86-64 (measured natively):
/// - a vector compare (`cmpltpd`, `cmpltps`);
/// - a scalar compare that is the condition of a `select` of its own
///   operand type in its own block (FastISel's `cmpltsd` + blend).
///
/// Every other float/double comparison is `ucomisd`/`ucomiss` (a branch,
/// an `int r = a < b`, a `select` of integers or of another type, a
/// condition negated before the `select`), which signals on a signalling
/// NaN only; x87 comparisons are `fucomip` (quiet) everywhere; binary128's
/// ordering comparisons are libgcc calls (`__lttf2`, ...) that signal on
/// any NaN, decided by format in the checker. The result is the
/// instructions' addresses: the engine executes this same module.
fn signalling_compares(module: &llvm_ir::Module) -> std::collections::HashSet<usize> {
    use llvm_ir::types::FPType;
    use llvm_ir::Type;
    let sse = |t: &Type| matches!(t, Type::FPType(FPType::Single | FPType::Double));
    let mut out = std::collections::HashSet::new();
    for f in &module.functions {
        for bb in &f.basic_blocks {
            for inst in &bb.instrs {
                let I::FCmp(c) = inst else { continue };
                if !ordering(c.predicate) {
                    continue;
                }
                let ty = module.types.type_of(&c.operand0);
                let signals = match ty.as_ref() {
                    Type::VectorType { element_type, .. } => sse(element_type),
                    t if sse(t) => bb.instrs.iter().any(|j| match j {
                        I::Select(s) => {
                            matches!(&s.condition, llvm_ir::Operand::LocalOperand { name, .. } if *name == c.dest)
                                && module.types.type_of(&s.true_value) == ty
                        }
                        _ => false,
                    }),
                    _ => false,
                };
                if signals {
                    out.insert(inst as *const I as usize);
                }
            }
        }
    }
    out
}

/// The callee of a call instruction, by name, if it is a direct call.
fn callee(c: &llvm_ir::instruction::Call) -> Option<String> {
    match &c.function {
        either::Either::Right(llvm_ir::Operand::ConstantOperand(k)) => match k.as_ref() {
            llvm_ir::Constant::GlobalReference { name, .. } => Some(crate::exec::operand::name_str(name)),
            _ => None,
        },
        _ => None,
    }
}

impl Checker for FpExceptions {
    fn name(&self) -> &str {
        "fp-exceptions"
    }
    fn looks_at(&self, kind: PointKind) -> bool {
        kind == PointKind::Instruction
    }
    fn start(&mut self, module: &llvm_ir::Module) {
        self.defined = module.functions.iter().map(|f| f.name.clone()).collect();
        self.signalling_compares = signalling_compares(module);
    }
    fn may_check(&self, inst: &llvm_ir::Instruction, operands: Option<&[fpsym_expr::Value]>) -> bool {
        // What `checks_at` looks at: floating-point operations and calls
        // other than debug intrinsics, and any instruction with an x87
        // long double operand (not modelled).
        match inst {
            I::Call(c) => !callee(c).is_some_and(|n| n.starts_with("llvm.dbg.")),
            _ if fp_op(inst) => true,
            // Integer and address operands only.
            I::Add(_)
            | I::Sub(_)
            | I::Mul(_)
            | I::UDiv(_)
            | I::SDiv(_)
            | I::URem(_)
            | I::SRem(_)
            | I::And(_)
            | I::Or(_)
            | I::Xor(_)
            | I::Shl(_)
            | I::LShr(_)
            | I::AShr(_)
            | I::ICmp(_)
            | I::Load(_)
            | I::GetElementPtr(_)
            | I::Alloca(_)
            | I::Trunc(_)
            | I::ZExt(_)
            | I::SExt(_)
            | I::PtrToInt(_)
            | I::IntToPtr(_)
            | I::Phi(_) => false,
            _ => operands.is_none_or(|ops| {
                ops.iter()
                    .any(|v| matches!(v, fpsym_expr::Value::Fp(f) if f.format().has_explicit_int_bit()))
            }),
        }
    }
    fn check(&mut self, st: &State, at: Point<'_>, operands: &[Option<Term>]) -> Vec<Check> {
        let v = self.checks_at(st, at, operands);
        let Point::Instruction(inst) = at else {
            return v;
        };
        if v.is_empty() {
            return v;
        }
        // What the findings show: the operation and its operands (the
        // arguments of a call).
        let (name, skip) = match inst {
            I::Call(c) => (
                callee(c).unwrap_or_else(|| "an indirect call".into()),
                usize::from(c.function.is_right()),
            ),
            I::FAdd(_) => ("fadd".into(), 0),
            I::FSub(_) => ("fsub".into(), 0),
            I::FMul(_) => ("fmul".into(), 0),
            I::FDiv(_) => ("fdiv".into(), 0),
            I::FRem(_) => ("frem".into(), 0),
            I::FPTrunc(_) => ("fptrunc".into(), 0),
            I::FPExt(_) => ("fpext".into(), 0),
            I::FPToSI(_) => ("fptosi".into(), 0),
            I::FPToUI(_) => ("fptoui".into(), 0),
            I::SIToFP(_) => ("sitofp".into(), 0),
            I::UIToFP(_) => ("uitofp".into(), 0),
            I::FCmp(_) => ("fcmp".into(), 0),
            _ => ("operation".into(), 0),
        };
        let op = Operation {
            name,
            operands: operands.iter().skip(skip).flatten().cloned().collect(),
            result: None,
        };
        v.into_iter().map(|c| c.about(&op)).collect()
    }
}

impl FpExceptions {
    fn checks_at(&mut self, st: &State, at: Point<'_>, operands: &[Option<Term>]) -> Vec<Check> {
        let Point::Instruction(inst) = at else {
            return vec![];
        };
        let r = st.rm;
        let float = |t: &Term| matches!(t.sort(), fpsym_expr::Sort::Float(_));
        let fp_op = fp_op(inst);
        let call = match inst {
            I::Call(c) => Some(c),
            _ => None,
        };
        let name = call.and_then(callee);
        if name.as_deref().is_some_and(|n| n.starts_with("llvm.dbg.")) {
            return vec![];
        }
        let Some(ops) = operands.iter().cloned().collect::<Option<Vec<Term>>>() else {
            // An aggregate operand (a vector reduction, ...): not modelled.
            return if fp_op || call.is_some() {
                self.unchecked("an operation on aggregates")
            } else {
                vec![]
            };
        };
        // x87 long double: its traps are delivered late and change the
        // results natively; not modelled (the verdict says so).
        if ops.iter().any(|t| float(t) && format_of(t).has_explicit_int_bit()) {
            return self.unchecked("an x87 long double operation");
        }
        let nan_in = |xs: &[Term]| or(xs.iter().filter(|t| float(t)).map(is_nan).collect());
        match inst {
            I::FAdd(_) | I::FSub(_) | I::FMul(_) | I::FDiv(_) if ops.len() == 2 && float(&ops[0]) => {
                let op = match inst {
                    I::FAdd(_) => Arith::Add,
                    I::FSub(_) => Arith::Sub,
                    I::FMul(_) => Arith::Mul,
                    _ => Arith::Div,
                };
                self.arith(op, r, &ops, format_of(&ops[0]))
            }
            I::FRem(_) if ops.len() == 2 && float(&ops[0]) => self.libm("fmod", &ops),
            I::FPTrunc(x) if float(&ops[0]) => match scalar(&x.to_type) {
                llvm_ir::Type::FPType(t) => match crate::layout::fp_format(*t) {
                    Some(to) => self.arith(Arith::Convert, r, &ops, to),
                    None => self.unchecked("a conversion to this format"),
                },
                _ => vec![],
            },
            I::SIToFP(llvm_ir::instruction::SIToFP { to_type, .. })
            | I::UIToFP(llvm_ir::instruction::UIToFP { to_type, .. }) => match scalar(to_type) {
                llvm_ir::Type::FPType(t) => match crate::layout::fp_format(*t) {
                    Some(to) => self.arith(Arith::FromInt(matches!(inst, I::SIToFP(_))), r, &ops, to),
                    None => self.unchecked("a conversion to this format"),
                },
                _ => vec![],
            },
            I::FPExt(_) if float(&ops[0]) && self.kinds.invalid => vec![Check::continuing(
                Kind::FpInvalid,
                signalling(&ops[0]),
                "conversion of a signalling NaN",
            )],
            I::FPToSI(llvm_ir::instruction::FPToSI { to_type, .. })
            | I::FPToUI(llvm_ir::instruction::FPToUI { to_type, .. })
                if float(&ops[0]) =>
            {
                let llvm_ir::Type::IntegerType { bits } = scalar(to_type) else {
                    return vec![];
                };
                let x = &ops[0];
                let mut v = self.cast(x, *bits, matches!(inst, I::FPToSI(_)));
                // Natively the conversion also raises invalid (NaN, out of
                // range) and inexact (a fraction dropped), as its lowering
                // decides: not modelled.
                let dropped = not(mk(
                    Op::FpEq,
                    vec![
                        mk(Op::FpRoundToIntegral, vec![rm(RoundingMode::TowardZero), x.clone()]),
                        x.clone(),
                    ],
                ));
                if self.kinds.invalid {
                    let out_of_range = self.cast_condition(x, *bits, matches!(inst, I::FPToSI(_)));
                    v.push(Check::unchecked_if(
                        Kind::FpInvalid,
                        out_of_range,
                        "invalid in a conversion to an integer",
                    ));
                }
                if self.kinds.inexact {
                    v.push(Check::unchecked_if(
                        Kind::FpInexact,
                        dropped,
                        "inexact in a conversion to an integer",
                    ));
                }
                v
            }
            I::FCmp(c) if ops.len() == 2 && float(&ops[0]) && self.kinds.invalid => {
                // What the lowering decides ([`signalling_compares`]): a
                // signalling compare raises invalid on any NaN, a quiet one
                // (`ucomisd`, `fucomip`) on a signalling NaN only.
                let signals_on_quiet = ordering(c.predicate)
                    && (format_of(&ops[0]) == Format::BINARY128
                        || self.signalling_compares.contains(&(inst as *const I as usize)));
                if signals_on_quiet {
                    vec![Check::continuing(
                        Kind::FpInvalid,
                        nan_in(&ops),
                        "an ordering comparison with a NaN (a signalling compare)",
                    )]
                } else {
                    vec![Check::continuing(
                        Kind::FpInvalid,
                        or(vec![signalling(&ops[0]), signalling(&ops[1])]),
                        "comparison with a signalling NaN",
                    )]
                }
            }
            I::Call(c) => {
                // Operands: the callee (unless inline assembly), then the
                // arguments.
                let first = usize::from(c.function.is_right()).min(ops.len());
                let args = &ops[first..];
                let any_float = args.iter().any(float);
                let Some(name) = name else {
                    return if any_float {
                        self.unchecked("an indirect call")
                    } else {
                        vec![]
                    };
                };
                if self.defined.contains(&name) {
                    return vec![];
                }
                let floats = args.iter().all(float) && !args.is_empty();
                let fmt = args.first().filter(|a| float(a)).map(format_of);
                match (name.strip_prefix("llvm."), fmt) {
                    (Some(intr), Some(f)) if intr.starts_with("sqrt.") && floats => self.sqrt(r, args, f),
                    (Some(intr), Some(f)) if intr.starts_with("fma.") && floats && args.len() == 3 => {
                        self.arith(Arith::Fma, r, args, f)
                    }
                    (Some(intr), Some(f)) if intr.starts_with("fmuladd.") && floats && args.len() == 3 => {
                        // Unfused: a multiplication, then an addition.
                        let mut v = self.arith(Arith::Mul, r, &args[..2], f);
                        let p = Arith::Mul.apply(r, &args[..2], f);
                        v.extend(self.arith(Arith::Add, r, &[p, args[2].clone()], f));
                        v
                    }
                    (Some(intr), Some(_))
                        if intr.starts_with("exp.") || intr.starts_with("exp2.") || intr.starts_with("exp10.") =>
                    {
                        let base = intr.split('.').next().unwrap_or(intr);
                        self.growth(base, r, args).unwrap_or_else(|| self.unchecked(&name))
                    }
                    (Some(intr), _) if any_float && !QUIET_INTRINSICS.iter().any(|q| intr.starts_with(q)) => {
                        self.min_max_or_unchecked(&name, args)
                    }
                    (Some(_), _) => vec![],
                    (None, Some(f)) if crate::hooks::is_c_library_function(&name) => {
                        let base = libm_base(&name);
                        match base {
                            "fma" if args.len() == 3 && floats => self.arith(Arith::Fma, r, args, f),
                            "sqrt" => self.sqrt(r, args, f),
                            "fmin" | "fmax" => self.min_max_or_unchecked(&name, args),
                            _ => {
                                if let Some(v) = self.growth(&name, r, args) {
                                    return v;
                                }
                                if let Some(v) = self.libm_overflow(&name, r, args) {
                                    return v;
                                }
                                let v = self.libm(&name, args);
                                if v.is_empty() && !QUIET_LIBM.contains(&base) {
                                    self.unchecked(&name)
                                } else {
                                    v
                                }
                            }
                        }
                    }
                    // A C library function taking a float elsewhere than
                    // first (jn, yn, ...): not modelled.
                    (None, _) if any_float && crate::hooks::is_c_library_function(&name) => self.unchecked(&name),
                    _ => vec![],
                }
            }
            _ => vec![],
        }
    }
}

impl FpExceptions {
    /// `minnum`/`maxnum`/`fmin`/`fmax`, as measured natively: the inline
    /// float/double `llvm.minnum`/`llvm.maxnum` (`minsd`/`maxsd`, vector
    /// forms too) raise invalid on any NaN; glibc's `fmin`/`fmax`/`fminf`/
    /// `fmaxf` called by name on a signalling NaN only; binary128's on a
    /// signalling NaN and, not modelled, maybe on a quiet one. Other
    /// unmodelled intrinsics: unchecked.
    fn min_max_or_unchecked(&self, name: &str, args: &[Term]) -> Vec<Check> {
        let is_min_max = ["llvm.minnum.", "llvm.maxnum.", "fmin", "fmax"]
            .iter()
            .any(|p| name.starts_with(p));
        if !is_min_max {
            return self.unchecked(name);
        }
        if !self.kinds.invalid {
            return vec![];
        }
        let floats: Vec<Term> = args
            .iter()
            .filter(|t| matches!(t.sort(), fpsym_expr::Sort::Float(_)))
            .cloned()
            .collect();
        let sse = floats
            .first()
            .is_some_and(|t| [Format::BINARY32, Format::BINARY64].contains(&format_of(t)));
        if sse && name.starts_with("llvm.") {
            return vec![Check::continuing(
                Kind::FpInvalid,
                or(floats.iter().map(is_nan).collect()),
                format!("{name} of a NaN (minsd/maxsd signal on any NaN)"),
            )];
        }
        let mut v = vec![Check::continuing(
            Kind::FpInvalid,
            or(floats.iter().map(signalling).collect()),
            format!("{name} of a signalling NaN"),
        )];
        if !sse {
            v.push(Check::unchecked_if(
                Kind::FpInvalid,
                or(floats.iter().map(is_nan).collect()),
                format!("{name} of a quiet NaN"),
            ));
        }
        v
    }
}

#[cfg(test)]
mod tests;
