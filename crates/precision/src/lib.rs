//! High precision beside the engine: a test's path run again with every
//! floating-point value shadowed by its value in MPFR at [`PRECISION`]
//! bits (through `rug`), so that a mode can compare what the program
//! computed with what it would have computed without rounding, overflow
//! or underflow.
//!
//! How: the engine runs the test's inputs as constants
//! ([`fpsym_engine::InputOptions::inputs`]), so it follows the one path the test
//! took, and a [`Shadow`] observer computes, beside each float operation
//! (arithmetic, conversions, `fma`, `sqrt` and the libm functions MPFR
//! has), the same operation on the operands' shadows. Shadows follow
//! values through registers, phis, selects, calls, returns, loads and
//! stores (a load gets the shadow of the store that wrote the bits it
//! reads; `memcpy` copies them). A value the observer cannot follow (an
//! unmodelled call's result, bits reinterpreted as a float) shadows as
//! itself: exact from there on.
//!
//! Branches follow the floats (the path of the test), not the shadows:
//! the high-precision value is that of the program's own path. This is
//! where fpsym departs from Ariadne's rational re-run (seed 003, Section
//! 5.3), which branches on the rationals: the same path keeps the
//! comparison about the operations, not about a different control flow.

use fpsym_engine::exec::End;
use fpsym_engine::plugin::Observer;
use fpsym_engine::report::Collect;
use fpsym_engine::state::State;
use fpsym_engine::value::Val;
use fpsym_engine::{Config, RunContext};
use fpsym_expr::{Term, Value};
use fpsym_float::{Float, Format};
use llvm_ir::{Constant, Instruction, Name, Operand};
use rug::float::Special;
use std::collections::{BTreeMap, HashMap};

/// Bits of MPFR precision of shadow values: far more than any format's
/// significand, so that the shadow of a short computation is its exact
/// value up to a relative 2^-1000 per operation.
pub const PRECISION: u32 = 1024;

/// A value in high precision.
pub type Mp = rug::Float;

/// The exact value of `x` in MPFR at [`PRECISION`] bits (NaN,
/// infinities and signed zeros included).
pub fn exact(x: Float) -> Mp {
    exact_at(x, PRECISION)
}

/// The exact value of `x` in MPFR, at `prec` bits or the format's
/// significand's if more: arithmetic on it rounds to that many.
pub fn exact_at(x: Float, prec: u32) -> Mp {
    let prec = prec.max(x.format().sb());
    if x.is_nan() {
        return Mp::with_val(prec, Special::Nan);
    }
    if x.is_infinite() {
        let s = if x.is_negative() {
            Special::NegInfinity
        } else {
            Special::Infinity
        };
        return Mp::with_val(prec, s);
    }
    if x.is_zero() {
        let s = if x.is_negative() {
            Special::NegZero
        } else {
            Special::Zero
        };
        return Mp::with_val(prec, s);
    }
    if let Some(d) = x.to_f64() {
        return Mp::with_val(prec, d);
    }
    if let Some(f) = x.to_f32() {
        return Mp::with_val(prec, f);
    }
    if x.format() == Format::BINARY128 {
        // significand * 2^(exponent - fraction bits), exactly.
        let fmt = x.format();
        let m = Mp::with_val(prec, rug::Integer::from(x.significand()));
        let e = x.exponent().expect("finite, non-zero") - fmt.frac_bits() as i64;
        let v = m << e as i32;
        return if x.is_negative() { -v } else { v };
    }
    let q = x.to_rational().expect("a finite float is a rational");
    let r: rug::Rational = format!("{}/{}", q.numer(), q.denom())
        .parse()
        .expect("a rational's decimal digits parse");
    Mp::with_val(prec, &r)
}

/// Whether `v` is zero or of a magnitude in `[λ, Ω]` of `fmt` (its
/// smallest normal and largest finite): a value `fmt` holds without
/// overflow or underflow, as Ariadne's classifier asks of a function's
/// exact result (seed 003, Section 5.3; `x + (y - x)/2` at `x = -Ω,
/// y = Ω` is exactly 0: its overflow is avoidable).
pub fn in_normal_range(v: &Mp, fmt: Format) -> bool {
    if v.is_zero() {
        return true;
    }
    if !v.is_finite() {
        return false;
    }
    let a = Mp::with_val(PRECISION, v.abs_ref());
    a >= exact(Float::smallest_normal(fmt, false)) && a <= exact(Float::largest(fmt, false))
}

/// One float result of the entry function, computed and in high
/// precision.
#[derive(Clone, Debug)]
pub struct ShadowResult {
    /// Which: `return value`, or `p+8` (a float the function left at byte
    /// 8 of the object its pointer parameter `p` points to, or of the
    /// global variable `p`).
    pub what: String,
    /// The pointer parameter or global variable holding it; None for the
    /// return value.
    pub object: Option<String>,
    /// Its byte offset in that object.
    pub offset: u64,
    /// Whether the object is one a pointer parameter points to.
    pub param: bool,
    /// What the program computed.
    pub computed: Float,
    /// Its value in high precision along the same path.
    pub shadow: Mp,
}

/// What one `+`/`-` site did on the re-run path: FPGen's diagnosis.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SiteLoss {
    /// The most bits cancelled: the larger operand's exponent minus the
    /// result's (all the significand's bits for a zero result).
    pub cancelled: u32,
    /// The most bits of the smaller operand lost: the difference of the
    /// operands' exponents (at most the significand's width).
    pub lost: u32,
    /// Executions of the site.
    pub runs: u32,
}

/// A branch the high-precision values would have decided otherwise.
#[derive(Clone, Debug)]
pub struct Divergence {
    /// The function.
    pub function: String,
    /// Where (file:line), when known.
    pub loc: Option<String>,
    /// The side the program took (true: its condition held).
    pub taken: bool,
}

/// The relative error of `computed` against the high-precision `exact`,
/// as FPGen measures it (seed 002, Section 3.3): `|r - r0| / max(FLT_MIN,
/// |r0|)`; a NaN or infinite result, or one whose exact value is, counts
/// as the largest error (infinity) unless both are NaN (the exact
/// computation is undefined too: `0 * inf`, no accuracy to lose) or the
/// same infinity.
pub fn relative_error(computed: Float, exact: &Mp) -> f64 {
    if let Some(e) = not_finite_error(computed, exact) {
        return e;
    }
    let p = exact.prec().max(computed.format().sb());
    let r = exact_at(computed, p);
    let diff = Mp::with_val(p, &r - exact).abs();
    let flt_min = Mp::with_val(p, f32::MIN_POSITIVE);
    let den = Mp::with_val(p, exact.abs_ref()).max(&flt_min);
    Mp::with_val(p, diff / den).to_f64()
}

/// The error of `relative_error` and `absolute_error` when either side
/// is NaN or infinite: 0 for NaN on both sides or the same infinity,
/// else infinity; None when both are finite.
fn not_finite_error(computed: Float, exact: &Mp) -> Option<f64> {
    if computed.is_nan() && exact.is_nan() {
        return Some(0.0);
    }
    if computed.is_nan() || exact.is_nan() {
        return Some(f64::INFINITY);
    }
    if computed.is_infinite() || exact.is_infinite() {
        let same = computed.is_infinite() && exact.is_infinite() && computed.is_negative() == exact.is_sign_negative();
        return Some(if same { 0.0 } else { f64::INFINITY });
    }
    None
}

/// How the error of a result is measured (`fpsym error --metric`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Metric {
    /// [`relative_error`]: `|r - r0| / max(FLT_MIN, |r0|)`, a NaN or
    /// infinite disagreement the largest.
    #[default]
    Relative,
    /// [`fpgen_error`]: FPGen's own rule, in `__float128`, a NaN error 0.
    Fpgen,
    /// [`bits_error`]: Herbie's bits of error.
    Bits,
    /// [`absolute_error`]: `|r - r0|`.
    Absolute,
}

impl Metric {
    /// Every metric, in the order error.json lists them.
    pub const ALL: [Metric; 4] = [Metric::Relative, Metric::Fpgen, Metric::Bits, Metric::Absolute];

    /// Its name on the command line and in error.json.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Relative => "relative",
            Metric::Fpgen => "fpgen",
            Metric::Bits => "bits",
            Metric::Absolute => "absolute",
        }
    }

    /// The error of `computed` against `reference` by this metric.
    pub fn error(self, computed: Float, reference: &Mp) -> f64 {
        match self {
            Metric::Relative => relative_error(computed, reference),
            Metric::Fpgen => fpgen_error(computed, reference),
            Metric::Bits => bits_error(computed, reference),
            Metric::Absolute => absolute_error(computed, reference),
        }
    }
}

/// The error FPGen's benchmarks compute (seed 002's sources):
/// `|h - f| / (|h| < FLT_MIN ? FLT_MIN : |h|)` with `h` the reference
/// rounded to `__float128` and every operation in `__float128` (nearest);
/// a NaN error counts as 0 (FPGen's `err > max` is false for it: a NaN
/// result, or the same infinity on both sides) and an infinite one as
/// infinity.
pub fn fpgen_error(computed: Float, reference: &Mp) -> f64 {
    const Q: u32 = 113;
    let q = |x: Mp| Mp::with_val(Q, x);
    let h = Mp::with_val(Q, reference);
    let f = exact(computed);
    let diff = q(Mp::with_val(PRECISION, &f - &h)).abs();
    let flt_min = Mp::with_val(Q, f32::MIN_POSITIVE);
    let den = if Mp::with_val(Q, h.abs_ref()) < flt_min {
        flt_min
    } else {
        Mp::with_val(Q, h.abs_ref())
    };
    let e = q(Mp::with_val(PRECISION, diff / den));
    if e.is_nan() {
        0.0
    } else {
        e.to_f64()
    }
}

/// `x` rounded to the nearest value of `fmt` (ties to even, subnormals
/// and overflow as the format has them).
pub fn round_to(x: &Mp, fmt: Format) -> Float {
    if x.is_nan() {
        return Float::nan(fmt);
    }
    if x.is_infinite() {
        return Float::infinity(fmt, x.is_sign_negative());
    }
    if x.is_zero() {
        return Float::zero(fmt, x.is_sign_negative());
    }
    if fmt == Format::BINARY64 {
        return Float::from_f64(x.to_f64());
    }
    if fmt == Format::BINARY32 {
        return Float::from_bits(fmt, x.to_f32().to_bits() as u128);
    }
    let r = x.to_rational().expect("a finite value is a rational");
    let q: num_rational::BigRational = format!("{}/{}", r.numer(), r.denom())
        .parse()
        .expect("a rational's decimal digits parse");
    Float::from_rational(fmt, &q, fpsym_float::RoundingMode::NearestTiesToEven).value
}

/// Herbie's bits of error: `log2(1 + n)` with `n` the number of floats of
/// `computed`'s format between it and the exact value rounded to that
/// format (the two zeros are one value); a NaN on one side only is the
/// format's width, NaN on both 0.
pub fn bits_error(computed: Float, exact: &Mp) -> f64 {
    let fmt = computed.format();
    let e = round_to(exact, fmt);
    match (computed.is_nan(), e.is_nan()) {
        (true, true) => return 0.0,
        (true, false) | (false, true) => return fmt.packed_width() as f64,
        _ => {}
    }
    // Ordinals with -0 and +0 the same.
    let ord = |x: Float| {
        let o = x.ordinal().expect("not NaN");
        if o < 0 {
            o + 1
        } else {
            o
        }
    };
    let n = (ord(computed) - ord(e)).unsigned_abs() as f64;
    (1.0 + n).log2()
}

/// `|computed - exact|` (NaN on both sides 0, on one side infinity; the
/// same infinity 0, another infinity).
pub fn absolute_error(computed: Float, exact: &Mp) -> f64 {
    if let Some(e) = not_finite_error(computed, exact) {
        return e;
    }
    let p = exact.prec().max(computed.format().sb());
    Mp::with_val(p, &exact_at(computed, p) - exact).abs().to_f64()
}

/// What a high-precision re-run of a test gives.
#[derive(Clone, Debug, Default)]
pub struct HighPrecision {
    /// The entry function's float results (its return value, then the
    /// floats it left in its pointer parameters' objects); empty when the
    /// entry is `main` or the path did not return.
    pub results: Vec<ShadowResult>,
    /// How the path ended, if it did.
    pub ended: Option<String>,
    /// Branches the high-precision values would have taken otherwise.
    pub divergences: Vec<Divergence>,
    /// Cancellations and losses per `+`/`-` site (file:line:column).
    pub sites: BTreeMap<String, SiteLoss>,
    /// A value went beyond even MPFR's exponent range (about 2^±2^62:
    /// `exp(-1e308)`): it became zero or infinite there, so the shadows
    /// are not exact values and nothing is judged from them.
    pub out_of_range: bool,
}

impl HighPrecision {
    /// Ariadne's avoidable-Xflow classifier: `Some(true)` when every
    /// result's high-precision value is zero or normal in its format (so
    /// another evaluation order could avoid the over/underflow), `None`
    /// when the function has no float result to judge.
    pub fn avoidable(&self) -> Option<bool> {
        if self.results.is_empty() || self.out_of_range {
            return None;
        }
        let judged: Vec<&ShadowResult> = self.results.iter().filter(|r| r.object.is_none() || r.param).collect();
        if judged.is_empty() {
            return None;
        }
        Some(judged.iter().all(|r| in_normal_range(&r.shadow, r.computed.format())))
    }
}

/// Why a re-run could not be made.
#[derive(Debug, thiserror::Error)]
#[error("the high-precision re-run failed: {0}")]
pub struct RerunError(pub String);

/// Runs `inputs` (test objects by name, their bytes) through `config`'s
/// entry with shadow values at `precision` bits, for at most `budget`.
pub fn rerun(
    program: &fpsym_frontend::Program,
    config: &Config,
    inputs: BTreeMap<String, Vec<u8>>,
    solver: &mut dyn fpsym_solver::Solver,
    precision: u32,
    budget: std::time::Duration,
) -> Result<HighPrecision, RerunError> {
    let shadow = Shadow::with_precision(program, precision);
    rerun_with(program, config, inputs, solver, shadow, budget)
}

/// [`rerun`] with a given observer (made once for many re-runs of one
/// program, each with [`Shadow::fresh`]).
pub fn rerun_with(
    program: &fpsym_frontend::Program,
    config: &Config,
    inputs: BTreeMap<String, Vec<u8>>,
    solver: &mut dyn fpsym_solver::Solver,
    shadow: Shadow,
    budget: std::time::Duration,
) -> Result<HighPrecision, RerunError> {
    let mut c = config.clone();
    c.input.inputs = Some(inputs);
    c.extensions.checkers = Vec::new();
    c.limits.max_time = Some(budget);
    c.policy.search = fpsym_engine::searcher::Search::One(fpsym_engine::searcher::Policy::Dfs);
    let mut cx = RunContext::default();
    cx.plugins.observers.push(Box::new(shadow));
    let mut sink = Collect::default();
    // MPFR's widest exponent range, and its flags cleared to tell whether
    // a value left even that (MPFR's range and flags are per thread).
    use gmp_mpfr_sys::mpfr;
    // SAFETY: plain setters and flag accessors of MPFR's per-thread state;
    // the range is widened, so no existing value falls outside it.
    unsafe {
        mpfr::set_emin(mpfr::get_emin_min());
        mpfr::set_emax(mpfr::get_emax_max());
        mpfr::clear_flags();
    }
    fpsym_engine::run(program, solver, &c, &mut sink, &mut cx).map_err(|e| RerunError(e.to_string()))?;
    // SAFETY: reads MPFR's per-thread flags.
    let out_of_range = unsafe { mpfr::underflow_p() != 0 || mpfr::overflow_p() != 0 };
    let shadow = cx
        .plugins
        .observer::<Shadow>()
        .expect("the shadow observer was plugged in");
    Ok(HighPrecision {
        results: shadow.results.clone(),
        ended: shadow.ended.clone(),
        divergences: shadow.divergences.clone(),
        sites: shadow.sites.clone(),
        out_of_range,
    })
}

/// No shadows (a path before its first float operation).
static NO_SHADOWS: std::sync::LazyLock<Shadows> = std::sync::LazyLock::new(Shadows::default);

/// Shadows of one path (forked with its state).
#[derive(Clone, Default)]
struct Shadows {
    /// Per frame (by depth): register → (the float it held when its
    /// shadow was set, the shadow). A register whose value changed since
    /// shadows as itself.
    regs: Vec<HashMap<Name, (Float, Mp)>>,
    /// Address → (the float term stored there, its shadow).
    mem: HashMap<u64, (Term, Mp)>,
    /// Bits of precision of values shadowed from floats.
    prec: u32,
    /// Per (frame depth, register): what a floating-point comparison gives
    /// on the shadows.
    conds: HashMap<(usize, Name), bool>,
    /// Phis of the current block still to skip (all of a block's phis are
    /// shadowed at its first: they read the values before any of them).
    skip_phis: usize,
}

/// One phi: its destination and incoming (value, block) pairs.
type Phi = (Name, Vec<(Operand, Name)>);

/// The shadow-value observer (see the crate's documentation).
#[derive(Clone)]
pub struct Shadow {
    /// What the observer needs of the program (shared by the re-runs of
    /// one program: [`Shadow::fresh`]).
    info: std::sync::Arc<ProgramInfo>,
    /// Branches where the high-precision values would have taken the
    /// other side (first path only).
    pub divergences: Vec<Divergence>,
    /// Per `+`/`-` site (first path only): the most bits cancelled and
    /// lost, and how often the site ran.
    pub sites: BTreeMap<String, SiteLoss>,
    /// Bits of precision of the shadows.
    precision: u32,
    /// The entry function's results (from the first path that returned).
    pub results: Vec<ShadowResult>,
    /// How the first path ended.
    pub ended: Option<String>,
}

/// What the shadow observer reads of the program, computed once.
struct ProgramInfo {
    /// Per defined function (in module order, as frames index them): its
    /// parameters' names and pointer-ness, its blocks' names, the phis at
    /// the start of each block.
    params: Vec<Vec<(Name, bool)>>,
    blocks: Vec<Vec<Name>>,
    phis: Vec<Vec<Vec<Phi>>>,
    /// The program's global variables.
    globals: std::collections::HashSet<String>,
    /// Per (function, block): the condition register of its conditional
    /// branch.
    conditions: HashMap<(String, usize), Name>,
}

impl Shadow {
    /// The same observer for another re-run: nothing recorded yet, the
    /// program's information shared.
    pub fn fresh(&self) -> Shadow {
        Shadow {
            info: self.info.clone(),
            divergences: Vec::new(),
            sites: BTreeMap::new(),
            precision: self.precision,
            results: Vec::new(),
            ended: None,
        }
    }

    /// An observer for `program`'s functions, shadowing at [`PRECISION`]
    /// bits.
    pub fn new(program: &fpsym_frontend::Program) -> Shadow {
        Shadow::with_precision(program, PRECISION)
    }

    /// An observer shadowing at `precision` bits.
    pub fn with_precision(program: &fpsym_frontend::Program, precision: u32) -> Shadow {
        let fs = &program.module.functions;
        let info = ProgramInfo {
            params: fs
                .iter()
                .map(|f| {
                    f.parameters
                        .iter()
                        .map(|p| (p.name.clone(), matches!(*p.ty, llvm_ir::Type::PointerType { .. })))
                        .collect()
                })
                .collect(),
            blocks: fs
                .iter()
                .map(|f| f.basic_blocks.iter().map(|b| b.name.clone()).collect())
                .collect(),
            phis: fs
                .iter()
                .map(|f| {
                    f.basic_blocks
                        .iter()
                        .map(|b| {
                            b.instrs
                                .iter()
                                .map_while(|i| match i {
                                    Instruction::Phi(p) => Some((p.dest.clone(), p.incoming_values.clone())),
                                    _ => None,
                                })
                                .collect()
                        })
                        .collect()
                })
                .collect(),
            globals: program
                .module
                .global_vars
                .iter()
                .map(|g| match &g.name {
                    Name::Name(n) => n.to_string(),
                    Name::Number(n) => n.to_string(),
                })
                .collect(),
            conditions: fs
                .iter()
                .flat_map(|f| {
                    f.basic_blocks
                        .iter()
                        .enumerate()
                        .filter_map(move |(k, b)| match &b.term {
                            llvm_ir::Terminator::CondBr(c) => match &c.condition {
                                Operand::LocalOperand { name, .. } => Some(((f.name.clone(), k), name.clone())),
                                _ => None,
                            },
                            _ => None,
                        })
                })
                .collect(),
        };
        Shadow {
            info: std::sync::Arc::new(info),
            precision,
            divergences: Vec::new(),
            sites: BTreeMap::new(),
            results: Vec::new(),
            ended: None,
        }
    }
}

/// The float a term holds, if constant.
fn float_of(t: &Term) -> Option<Float> {
    match t.as_const()? {
        Value::Fp(f) => Some(f),
        _ => None,
    }
}

/// The integer (bits, width) a term holds, if constant.
fn int_of(t: &Term) -> Option<(u128, u32)> {
    match t.as_const()? {
        Value::Bv(b) => Some((b.bits(), b.width())),
        _ => None,
    }
}

/// The float value of `op` in frame `depth` (1 = the entry's) and its
/// shadow (the value itself when it has none).
fn fval(st: &State, sh: &Shadows, depth: usize, op: &Operand) -> Option<(Float, Mp)> {
    match op {
        Operand::LocalOperand { name, .. } => {
            let f = match st.frames.get(depth - 1)?.regs.get(name)? {
                Val::Fp(t) => float_of(&t)?,
                _ => return None,
            };
            let shadow = sh
                .regs
                .get(depth - 1)
                .and_then(|m| m.get(name))
                .filter(|(was, _)| was.to_bits() == f.to_bits() && was.format() == f.format())
                .map(|(_, s)| s.clone());
            Some((f, shadow.unwrap_or_else(|| exact_at(f, sh.prec))))
        }
        Operand::ConstantOperand(c) => {
            let f = match c.as_ref() {
                Constant::Float(llvm_ir::constant::Float::Double(d)) => Float::from_f64(*d),
                Constant::Float(llvm_ir::constant::Float::Single(s)) => Float::from_f32(*s),
                _ => return None,
            };
            Some((f, exact_at(f, sh.prec)))
        }
        Operand::MetadataOperand => None,
    }
}

/// The integer value of `op` in frame `depth`.
fn ival(st: &State, depth: usize, op: &Operand) -> Option<(u128, u32)> {
    match op {
        Operand::LocalOperand { name, .. } => match st.frames.get(depth - 1)?.regs.get(name)? {
            Val::Bv(t) => int_of(&t),
            _ => None,
        },
        Operand::ConstantOperand(c) => match c.as_ref() {
            // llvm-ir keeps only the low 64 bits of wider constants.
            Constant::Int { bits, value } if *bits <= 64 => Some((*value as u128, *bits)),
            Constant::Null(_) => Some((0, 64)),
            // A global variable's address: its object's.
            Constant::GlobalReference {
                name: Name::Name(n), ..
            } => st
                .mem
                .objects()
                .find(|o| o.alive && o.kind == fpsym_engine::memory::Kind::Global && o.name == n.as_str())
                .map(|o| (o.base as u128, 64)),
            _ => None,
        },
        Operand::MetadataOperand => None,
    }
}

/// The current float in register `dest` of the top frame.
fn dest_float(st: &State, dest: &Name) -> Option<Float> {
    match st.frames.last()?.regs.get(dest)? {
        Val::Fp(t) => float_of(&t),
        _ => None,
    }
}

fn signed(bits: u128, width: u32) -> i128 {
    if width == 0 || width >= 128 {
        return bits as i128;
    }
    let shift = 128 - width;
    ((bits << shift) as i128) >> shift
}

/// The name of a libm function (or LLVM intrinsic) without its type
/// suffix: `llvm.sqrt.f64` and `sqrtf` are `sqrt`.
fn base_name(callee: &str) -> &str {
    const NAMES: [&str; 38] = [
        "sqrt", "cbrt", "fabs", "exp", "exp2", "expm1", "exp10", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
        "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc", "tgamma", "lgamma",
        "floor", "ceil", "trunc", "round", "pow", "atan2", "hypot", "fmod", "copysign", "fma", "fmuladd",
    ];
    let n = match callee.strip_prefix("llvm.") {
        Some(rest) => rest.split('.').next().unwrap_or(rest),
        None => callee,
    };
    let n = match n {
        "minnum" | "fmin" | "fminf" | "fminl" => return "fmin",
        "maxnum" | "fmax" | "fmaxf" | "fmaxl" => return "fmax",
        "ldexp" | "ldexpf" | "ldexpl" | "scalbn" | "scalbnf" | "scalbnl" => return "ldexp",
        n => n,
    };
    if let Some(k) = NAMES.iter().find(|k| **k == n) {
        return k;
    }
    for suffix in ["f", "l"] {
        if let Some(b) = n.strip_suffix(suffix) {
            if let Some(k) = NAMES.iter().find(|k| **k == b) {
                return k;
            }
        }
    }
    n
}

/// The high-precision value of libm function `name` at `a`.
fn libm(name: &str, a: &[Mp]) -> Option<Mp> {
    let x = a.first()?.clone();
    Some(match (name, a.len()) {
        ("sqrt", 1) => x.sqrt(),
        ("cbrt", 1) => x.cbrt(),
        ("fabs", 1) => x.abs(),
        ("exp", 1) => x.exp(),
        ("exp2", 1) => x.exp2(),
        ("expm1", 1) => x.exp_m1(),
        ("exp10", 1) => x.exp10(),
        ("log", 1) => x.ln(),
        ("log2", 1) => x.log2(),
        ("log10", 1) => x.log10(),
        ("log1p", 1) => x.ln_1p(),
        ("sin", 1) => x.sin(),
        ("cos", 1) => x.cos(),
        ("tan", 1) => x.tan(),
        ("asin", 1) => x.asin(),
        ("acos", 1) => x.acos(),
        ("atan", 1) => x.atan(),
        ("sinh", 1) => x.sinh(),
        ("cosh", 1) => x.cosh(),
        ("tanh", 1) => x.tanh(),
        ("asinh", 1) => x.asinh(),
        ("acosh", 1) => x.acosh(),
        ("atanh", 1) => x.atanh(),
        ("erf", 1) => x.erf(),
        ("erfc", 1) => x.erfc(),
        ("tgamma", 1) => x.gamma(),
        ("lgamma", 1) => x.ln_abs_gamma().0,
        ("floor", 1) => x.floor(),
        ("ceil", 1) => x.ceil(),
        ("trunc", 1) => x.trunc(),
        ("round", 1) => x.round(),
        ("pow", 2) => Mp::with_val(x.prec(), rug::ops::Pow::pow(&x, &a[1])),
        ("atan2", 2) => x.atan2(&a[1]),
        ("hypot", 2) => x.hypot(&a[1]),
        ("fmod", 2) => x % &a[1],
        ("copysign", 2) => x.copysign(&a[1]),
        ("fmin", 2) => x.min(&a[1]),
        ("fmax", 2) => x.max(&a[1]),
        ("fma" | "fmuladd", 3) => x.mul_add(&a[1], &a[2]),
        _ => return None,
    })
}

impl Shadow {
    /// Sets (or, with None, clears) the shadow of `dest` in the top frame.
    fn set(st: &mut State, dest: &Name, v: Option<Mp>) {
        let depth = st.frames.len();
        let now = dest_float(st, dest);
        let sh = st.ext_mut::<Shadows>();
        if sh.regs.len() < depth {
            sh.regs.resize_with(depth, HashMap::new);
        }
        match (now, v) {
            (Some(f), Some(v)) => {
                sh.regs[depth - 1].insert(dest.clone(), (f, v));
            }
            _ => {
                sh.regs[depth - 1].remove(dest);
            }
        }
    }

    /// The shadow of a binary operation's result.
    fn binary(st: &State, a: &Operand, b: &Operand, f: impl Fn(Mp, &Mp) -> Mp) -> Option<Mp> {
        let sh = st.ext::<Shadows>().unwrap_or(&NO_SHADOWS);
        let d = st.frames.len();
        let (_, x) = fval(st, sh, d, a)?;
        let (_, y) = fval(st, sh, d, b)?;
        Some(f(x, &y))
    }

    fn unary(st: &State, a: &Operand) -> Option<Mp> {
        let sh = st.ext::<Shadows>()?;
        fval(st, sh, st.frames.len(), a).map(|(_, x)| x)
    }

    /// A call returned (a modelled one) or entered a defined function.
    fn call(&mut self, st: &mut State, c: &llvm_ir::instruction::Call) {
        let callee = match &c.function {
            either::Either::Right(Operand::ConstantOperand(k)) => match k.as_ref() {
                Constant::GlobalReference {
                    name: Name::Name(n), ..
                } => n.to_string(),
                _ => String::new(),
            },
            _ => String::new(),
        };
        let depth = st.frames.len();
        // A frame was just pushed (at the start of its first block: a
        // caller is past its call), directly or through a pointer: the
        // callee's parameters shadow the arguments.
        let top = st.frames.last().expect("a frame");
        if top.bb == 0 && top.ip == 0 && depth >= 2 {
            let fi = top.func;
            let sh = st.ext::<Shadows>().unwrap_or(&NO_SHADOWS);
            let mut frame = HashMap::new();
            for ((arg, _), (pname, _)) in c.arguments.iter().zip(&self.info.params[fi]) {
                if let Some((f, s)) = fval(st, sh, depth - 1, arg) {
                    frame.insert(pname.clone(), (f, s));
                }
            }
            let sh = st.ext_mut::<Shadows>();
            sh.regs.resize_with(depth, HashMap::new);
            sh.regs[depth - 1] = frame;
            sh.conds.retain(|(d, _), _| *d < depth);
            return;
        }
        let base = base_name(&callee);
        if base == "memcpy"
            || base == "memmove"
            || callee.starts_with("llvm.memcpy")
            || callee.starts_with("llvm.memmove")
        {
            let args: Vec<_> = c.arguments.iter().map(|(a, _)| ival(st, depth, a)).collect();
            if let [Some((dst, _)), Some((src, _)), Some((n, _)), ..] = args[..] {
                let (dst, src, n) = (dst as u64, src as u64, n as u64);
                let sh = st.ext_mut::<Shadows>();
                let moved: Vec<(u64, (Term, Mp))> = sh
                    .mem
                    .iter()
                    .filter(|(a, _)| **a >= src && **a < src.saturating_add(n))
                    .map(|(a, v)| (dst + (a - src), v.clone()))
                    .collect();
                sh.mem.retain(|a, _| *a < dst || *a >= dst.saturating_add(n));
                sh.mem.extend(moved);
            }
            return;
        }
        let Some(dest) = &c.dest else { return };
        let v = if base == "ldexp" {
            let sh = st.ext::<Shadows>().unwrap_or(&NO_SHADOWS);
            match (
                c.arguments.first().and_then(|(a, _)| fval(st, sh, depth, a)),
                c.arguments.get(1).and_then(|(a, _)| ival(st, depth, a)),
            ) {
                (Some((_, x)), Some((n, w))) => Some(x << (signed(n, w) as i32)),
                _ => None,
            }
        } else {
            let sh = st.ext::<Shadows>().unwrap_or(&NO_SHADOWS);
            let args: Option<Vec<Mp>> = c
                .arguments
                .iter()
                .map(|(a, _)| fval(st, sh, depth, a).map(|(_, s)| s))
                .collect();
            args.and_then(|a| libm(base, &a))
        };
        Shadow::set(st, dest, v);
    }
}

impl Shadow {
    /// Records the cancellation and loss of `dest = a ± b` (computed
    /// values) at its site.
    fn site_loss(&mut self, st: &State, a: &Operand, b: &Operand, dest: &Name, loc: Option<&llvm_ir::DebugLoc>) {
        let Some(sh) = st.ext::<Shadows>() else { return };
        let d = st.frames.len();
        let (Some((x, _)), Some((y, _)), Some(r)) = (fval(st, sh, d, a), fval(st, sh, d, b), dest_float(st, dest))
        else {
            return;
        };
        let (Some(ex), Some(ey)) = (x.exponent(), y.exponent()) else {
            return;
        };
        let sb = r.format().sb() as i64;
        let big = ex.max(ey);
        let cancelled = match r.exponent() {
            Some(er) => (big - er).clamp(0, sb),
            None if r.is_zero() => sb,
            None => 0,
        };
        let lost = (ex - ey).abs().min(sb);
        let key = match loc {
            Some(l) => format!("{}:{}:{}", l.filename, l.line, l.col.unwrap_or(0)),
            None => "?".into(),
        };
        let s = self.sites.entry(key).or_default();
        s.cancelled = s.cancelled.max(cancelled as u32);
        s.lost = s.lost.max(lost as u32);
        s.runs += 1;
    }
}

/// A floating-point comparison on high-precision values.
fn fcmp(p: llvm_ir::predicates::FPPredicate, x: &Mp, y: &Mp) -> bool {
    use llvm_ir::predicates::FPPredicate as P;
    let unordered = x.is_nan() || y.is_nan();
    match p {
        P::False => false,
        P::True => true,
        P::ORD => !unordered,
        P::UNO => unordered,
        P::OEQ => !unordered && x == y,
        P::OGT => !unordered && x > y,
        P::OGE => !unordered && x >= y,
        P::OLT => !unordered && x < y,
        P::OLE => !unordered && x <= y,
        P::ONE => !unordered && x != y,
        P::UEQ => unordered || x == y,
        P::UGT => unordered || x > y,
        P::UGE => unordered || x >= y,
        P::ULT => unordered || x < y,
        P::ULE => unordered || x <= y,
        P::UNE => unordered || x != y,
    }
}

impl Observer for Shadow {
    fn after_instruction(&mut self, st: &mut State, inst: &Instruction) {
        use Instruction as I;
        st.ext_mut::<Shadows>().prec = self.precision;
        let arith = |st: &State, a, b, f: fn(Mp, &Mp) -> Mp| Shadow::binary(st, a, b, f);
        if self.ended.is_none() {
            match inst {
                I::FAdd(i) => self.site_loss(st, &i.operand0, &i.operand1, &i.dest, i.debugloc.as_ref()),
                I::FSub(i) => self.site_loss(st, &i.operand0, &i.operand1, &i.dest, i.debugloc.as_ref()),
                _ => {}
            }
        }
        let (dest, v): (&Name, Option<Mp>) = match inst {
            I::FAdd(i) => (&i.dest, arith(st, &i.operand0, &i.operand1, |x, y| x + y)),
            I::FSub(i) => (&i.dest, arith(st, &i.operand0, &i.operand1, |x, y| x - y)),
            I::FMul(i) => (&i.dest, arith(st, &i.operand0, &i.operand1, |x, y| x * y)),
            I::FDiv(i) => (&i.dest, arith(st, &i.operand0, &i.operand1, |x, y| x / y)),
            I::FRem(i) => (&i.dest, arith(st, &i.operand0, &i.operand1, |x, y| x % y)),
            I::FNeg(i) => (&i.dest, Shadow::unary(st, &i.operand).map(|x| -x)),
            // Over the reals a change of format changes nothing.
            I::FPExt(i) => (&i.dest, Shadow::unary(st, &i.operand)),
            I::FPTrunc(i) => (&i.dest, Shadow::unary(st, &i.operand)),
            I::SIToFP(i) => (
                &i.dest,
                ival(st, st.frames.len(), &i.operand).map(|(b, w)| Mp::with_val(self.precision.max(128), signed(b, w))),
            ),
            I::UIToFP(i) => (
                &i.dest,
                ival(st, st.frames.len(), &i.operand).map(|(b, _)| Mp::with_val(self.precision.max(128), b)),
            ),
            I::Select(i) => {
                let c = ival(st, st.frames.len(), &i.condition).map(|(b, _)| b != 0);
                let chosen = match c {
                    Some(true) => Some(&i.true_value),
                    Some(false) => Some(&i.false_value),
                    None => None,
                };
                (&i.dest, chosen.and_then(|o| Shadow::unary(st, o)))
            }
            I::Phi(_) => {
                let sh = st.ext_mut::<Shadows>();
                if sh.skip_phis > 0 {
                    sh.skip_phis -= 1;
                    return;
                }
                // All of the block's phis at once, from the values before.
                let Some(frame) = st.frames.last() else { return };
                let (fi, bb) = (frame.func, frame.bb);
                let Some(prev) = frame.prev_bb.and_then(|b| self.info.blocks[fi].get(b)).cloned() else {
                    return;
                };
                let phis = &self.info.phis[fi][bb];
                let sh = st.ext::<Shadows>().unwrap_or(&NO_SHADOWS);
                let d = st.frames.len();
                let written: Vec<&Name> = phis.iter().map(|(dest, _)| dest).collect();
                let vals: Vec<(Name, Option<Mp>)> = phis
                    .iter()
                    .map(|(dest, inc)| {
                        let v = inc.iter().find(|(_, b)| *b == prev).and_then(|(o, _)| {
                            // The incoming value as it was: its register's
                            // shadow, checked against the phi's new value.
                            let (_, s) = fval_before(st, sh, d, o, &written)?;
                            Some(s)
                        });
                        (dest.clone(), v)
                    })
                    .collect();
                for (dest, v) in vals {
                    Shadow::set(st, &dest, v);
                }
                st.ext_mut::<Shadows>().skip_phis = phis.len().saturating_sub(1);
                return;
            }
            I::Load(l) => {
                let addr = ival(st, st.frames.len(), &l.address).map(|(a, _)| a as u64);
                let now = match st.frames.last().and_then(|f| f.regs.get(&l.dest)) {
                    Some(Val::Fp(t)) => Some(t.clone()),
                    _ => None,
                };
                let v = match (addr, now) {
                    (Some(a), Some(t)) => st
                        .ext::<Shadows>()
                        .and_then(|sh| sh.mem.get(&a))
                        .filter(|(stored, _)| *stored == t)
                        .map(|(_, s)| s.clone()),
                    _ => None,
                };
                (&l.dest, v)
            }
            I::Store(s) => {
                let d = st.frames.len();
                let Some((a, _)) = ival(st, d, &s.address) else { return };
                let sh = st.ext::<Shadows>().unwrap_or(&NO_SHADOWS);
                let stored = match &s.value {
                    Operand::LocalOperand { name, .. } => match st.frames.last().and_then(|f| f.regs.get(name)) {
                        Some(Val::Fp(t)) => Some(t.clone()),
                        _ => None,
                    },
                    Operand::ConstantOperand(_) => fval(st, sh, d, &s.value).map(|(f, _)| fpsym_engine::term::fp(f)),
                    Operand::MetadataOperand => None,
                };
                let v = fval(st, sh, d, &s.value).map(|(_, s)| s);
                let sh = st.ext_mut::<Shadows>();
                match (stored, v) {
                    (Some(t), Some(v)) => {
                        sh.mem.insert(a as u64, (t, v));
                    }
                    _ => {
                        sh.mem.remove(&(a as u64));
                    }
                }
                return;
            }
            I::Call(c) => {
                self.call(st, c);
                return;
            }
            I::FCmp(c) => {
                let d = st.frames.len();
                let sh = st.ext::<Shadows>().unwrap_or(&NO_SHADOWS);
                let v = match (fval(st, sh, d, &c.operand0), fval(st, sh, d, &c.operand1)) {
                    (Some((_, x)), Some((_, y))) => Some(fcmp(c.predicate, &x, &y)),
                    _ => None,
                };
                let sh = st.ext_mut::<Shadows>();
                match v {
                    Some(b) => sh.conds.insert((d, c.dest.clone()), b),
                    None => sh.conds.remove(&(d, c.dest.clone())),
                };
                return;
            }
            other => match other.try_get_result() {
                Some(dest) => {
                    // Not a comparison of shadows any more.
                    let d = st.frames.len();
                    if let Some(sh) = st.ext::<Shadows>() {
                        if sh.conds.contains_key(&(d, dest.clone())) {
                            st.ext_mut::<Shadows>().conds.remove(&(d, dest.clone()));
                        }
                    }
                    (dest, None)
                }
                None => return,
            },
        };
        Shadow::set(st, dest, v);
    }

    fn before_return(&mut self, st: &mut State, operand: Option<&Operand>) {
        st.ext_mut::<Shadows>().prec = self.precision;
        let depth = st.frames.len();
        let sh = st.ext::<Shadows>().unwrap_or(&NO_SHADOWS);
        let value = operand.and_then(|o| fval(st, sh, depth, o));
        if depth >= 2 {
            // The callee's registers go; its result goes into the caller's
            // register that receives it.
            let dest = st.frames.last().and_then(|f| f.ret_dest.clone());
            let sh = st.ext_mut::<Shadows>();
            sh.regs.resize_with(depth, HashMap::new);
            sh.regs[depth - 1].clear();
            sh.conds.retain(|(d, _), _| *d < depth);
            let Some(dest) = dest else { return };
            match value {
                Some(v) => {
                    sh.regs[depth - 2].insert(dest, v);
                }
                None => {
                    sh.regs[depth - 2].remove(&dest);
                }
            }
            return;
        }
        if !self.results.is_empty() || self.ended.is_some() {
            return;
        }
        // The entry returns: its float result, then the floats it leaves
        // behind its pointer parameters.
        if let Some((f, s)) = value {
            self.results.push(ShadowResult {
                what: "return value".into(),
                object: None,
                offset: 0,
                param: false,
                computed: f,
                shadow: s,
            });
        }
        let Some(frame) = st.frames.first() else { return };
        // The objects pointer parameters point to, then global variables.
        let mut objects: Vec<(String, u64, bool)> = Vec::new();
        for (pname, pointer) in &self.info.params[frame.func] {
            if !pointer {
                continue;
            }
            let Some(Val::Bv(t)) = frame.regs.get(pname) else {
                continue;
            };
            let Some((base, _)) = int_of(&t) else { continue };
            let Some(o) = st.mem.find(base as u64) else { continue };
            let pn = match pname {
                Name::Name(n) => n.to_string(),
                Name::Number(n) => format!("arg{n}"),
            };
            objects.push((pn, o.base, true));
        }
        for o in st.mem.objects() {
            if o.alive && self.info.globals.contains(&o.name) && !objects.iter().any(|(_, b, _)| *b == o.base) {
                objects.push((o.name.clone(), o.base, false));
            }
        }
        for (name, base, param) in objects {
            let Some(o) = st.mem.get(base) else { continue };
            let (lo, hi) = (o.base, o.base + o.size);
            let mut left: Vec<(&u64, &(Term, Mp))> = sh.mem.iter().filter(|(a, _)| **a >= lo && **a < hi).collect();
            left.sort_by_key(|(a, _)| **a);
            for (a, (t, s)) in left {
                let current = st.mem.read(lo, a - lo, 1);
                let still = current.first().is_some_and(|c| c.val == *t && c.idx == 0);
                if let (true, Some(f)) = (still, float_of(t)) {
                    self.results.push(ShadowResult {
                        what: format!("{name}+{}", a - lo),
                        object: Some(name.clone()),
                        offset: a - lo,
                        param,
                        computed: f,
                        shadow: s.clone(),
                    });
                }
            }
        }
        self.ended = Some("returned".into());
    }

    fn at_branch(&mut self, st: &mut State, branch: &fpsym_engine::plugin::Branch<'_>, taken: bool) {
        if self.ended.is_some() {
            return;
        }
        let Some(cond) = self.info.conditions.get(&(branch.function.to_string(), branch.block)) else {
            return;
        };
        let d = st.frames.len();
        let shadow = st
            .ext::<Shadows>()
            .and_then(|sh| sh.conds.get(&(d, cond.clone())).copied());
        if shadow.is_some_and(|s| s != taken) {
            self.divergences.push(Divergence {
                function: branch.function.to_string(),
                loc: branch.loc.map(|l| format!("{}:{}", l.file, l.line)),
                taken,
            });
        }
    }

    fn at_path_end(&mut self, _st: &State, end: &End) {
        if self.ended.is_none() {
            self.ended = Some(match end {
                End::Exit(_) => "exit".into(),
                End::Error(v) => format!("error: {}", v.kind),
                End::Infeasible => "infeasible".into(),
                End::Pruned => "pruned".into(),
                End::Partial(why) => format!("stopped: {why}"),
            });
        }
    }
}

/// Like [`fval`], for a phi's incoming value as it was before the
/// block's phis (`written`) were written: an incoming register that is
/// itself one of them holds its new value now, so its recorded shadow
/// (still the old one) is taken unchecked, and without one it has none.
fn fval_before(st: &State, sh: &Shadows, depth: usize, op: &Operand, written: &[&Name]) -> Option<(Float, Mp)> {
    if let Operand::LocalOperand { name, .. } = op {
        if written.contains(&name) {
            return sh.regs.get(depth - 1).and_then(|m| m.get(name)).cloned();
        }
    }
    fval(st, sh, depth, op)
}
