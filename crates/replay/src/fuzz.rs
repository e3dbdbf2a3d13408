//! The native fuzzing phase: the program built with a generated libFuzzer
//! harness (`clang-14 -fsanitize=fuzzer,address`) whose inputs are in the
//! replay driver's format (length-prefixed records, one per input the
//! program reads: see [`crate::encode_inputs`]), so every input the fuzzer
//! keeps is a replayable test and a seed of the symbolic search.
//!
//! The harness's custom mutator (`LLVMFuzzerCustomMutator`) knows floats:
//! for a float or double slot of a record it puts in special values (±0,
//! ±inf, NaN, ±1, min/max normal, min subnormal), the program's own FP
//! constants (read from its LLVM IR) and their ulp neighbours, ulp steps,
//! sign flips, exponent jumps, a value of another slot; one time in four
//! it lets libFuzzer mutate the bytes (`LLVMFuzzerMutate`); it adds
//! records when an input has fewer than the program reads, and repeats a
//! run of records in place (a loop's iteration, read again with the same
//! values: how a filter fed a constant signal diverges). Slot widths
//! come from a `--function` run's parameter types; elsewhere a record is
//! taken as doubles or floats at random.
//!
//! In the harness the program's `exit` (and an input that runs out, or a
//! violated assumption) return to libFuzzer instead of ending the
//! process, and so do `abort` and failed assertions under a property
//! where only `reach_error` counts (unreach-call); otherwise
//! `reach_error`, failed assertions, `abort`, signals and AddressSanitizer
//! reports are crashes, kept in `DIR/fuzz/crashes`.
//! The program's globals are not reset between inputs (in-process
//! fuzzing), so what the fuzzer finds is a candidate: the symbolic run
//! seeded with it decides, and native replay confirms.

use crate::driver::{harness_with, input_functions, renames, Ending};
use crate::native::{build_step, io};
use crate::ReplayError;
use fpsym_report::{EntryRecord, RunRecord};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The most FP constants of the program the mutator uses.
pub const MAX_CONSTANTS: usize = 256;

/// The longest input the fuzzer makes (libFuzzer's `-max_len`): room for
/// a loop's records repeated a few hundred times.
pub const MAX_INPUT_BYTES: usize = 16384;

/// What a fuzzing phase found.
#[derive(Clone, Debug, Default)]
pub struct FuzzOutcome {
    /// Inputs that added coverage (the corpus libFuzzer kept), in the
    /// replay driver's format, with their files.
    pub corpus: Vec<(PathBuf, Vec<u8>)>,
    /// Inputs that crashed the program (a failed assertion, `abort`,
    /// `reach_error`, a signal, an AddressSanitizer report), with their
    /// files.
    pub crashes: Vec<(PathBuf, Vec<u8>)>,
    /// Inputs executed (libFuzzer's count, summed over its runs).
    pub executions: u64,
    /// Wall-clock seconds of the phase, build included.
    pub seconds: f64,
    /// Seconds from the start of the phase to the first crash.
    pub first_crash_seconds: Option<f64>,
    /// Whether the interrupt flag stopped the phase.
    pub interrupted: bool,
    /// Whether the phase ended early: the corpus stopped growing.
    pub plateaued: bool,
}

/// The program's floating-point constants the mutator uses.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Constants {
    /// Float and double constants, as doubles ([`float_constants`]).
    pub doubles: Vec<f64>,
    /// x86_fp80 constants, as their 80-bit patterns
    /// ([`long_double_constants`]).
    pub long_doubles: Vec<u128>,
}

impl Constants {
    /// The constants of LLVM IR text.
    pub fn of_ir(ll: &str) -> Constants {
        Constants {
            doubles: float_constants(ll),
            long_doubles: long_double_constants(ll),
        }
    }
}

/// The x86_fp80 constants of LLVM IR text (`x86_fp80 0xK3FFB8000000000000000`,
/// the 80-bit pattern: sign and exponent, then the 64-bit significand with
/// its integer bit), finite normal or subnormal and distinct, at most
/// [`MAX_CONSTANTS`].
pub fn long_double_constants(ll: &str) -> Vec<u128> {
    let mut out: Vec<u128> = Vec::new();
    for tok in ll.split(|c: char| !c.is_ascii_alphanumeric()) {
        let Some(h) = tok.strip_prefix("0xK") else { continue };
        let Ok(b) = u128::from_str_radix(h, 16) else { continue };
        let (exp, integer) = ((b >> 64) & 0x7fff, (b >> 63) & 1);
        // Not the infinities and NaNs, nor the encodings x87 rejects.
        let valid = h.len() == 20 && exp != 0x7fff && (integer == 1) == (exp != 0);
        if valid && !out.contains(&b) {
            out.push(b);
            if out.len() == MAX_CONSTANTS {
                break;
            }
        }
    }
    out
}

/// An x86_fp80 pattern as an exact C `long double` literal (hexadecimal:
/// the significand times a power of two).
fn long_double_literal(b: u128) -> String {
    let sign = if b >> 79 & 1 == 1 { "-" } else { "" };
    let exp = ((b >> 64) & 0x7fff) as i64;
    let significand = b as u64;
    format!("{sign}0x{significand:x}p{}L", exp.max(1) - 16383 - 63)
}

/// The floating-point constants of LLVM IR text (`double 1.5`,
/// `float 0x3FB99999A0000000`; hexadecimal constants are the double's
/// bits, as LLVM prints floats too), finite and distinct, at most
/// [`MAX_CONSTANTS`].
pub fn float_constants(ll: &str) -> Vec<f64> {
    let mut out: Vec<f64> = Vec::new();
    // LLVM prints FP constants as `1.000000e+01` or as the double's bits
    // (`0x3FB99999A0000000`); integers are decimal, names start with % or @.
    let tokens = ll.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '-' | '%' | '@' | '_')));
    for tok in tokens {
        let v = if let Some(h) = tok.strip_prefix("0x") {
            match u64::from_str_radix(h, 16) {
                Ok(b) if h.len() == 16 => f64::from_bits(b),
                _ => continue,
            }
        } else if tok.starts_with(|c: char| c.is_ascii_digit() || c == '-') && tok.contains('.') && tok.contains('e') {
            match tok.parse::<f64>() {
                Ok(v) => v,
                Err(_) => continue,
            }
        } else {
            continue;
        };
        if v.is_finite() && !out.iter().any(|o| o.to_bits() == v.to_bits()) {
            out.push(v);
            if out.len() == MAX_CONSTANTS {
                break;
            }
        }
    }
    out
}

/// What a `--function` run's inputs keep to (`--range`, `--finite-inputs`,
/// `--array-len`), which the fuzzer keeps to as well: its harness rejects
/// other inputs and its mutator moves values and objects back inside, so
/// that every crash it reports is an input the run could take.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InputBounds {
    /// Per parameter, in order (a missing entry: unbounded).
    pub params: Vec<ParamBounds>,
}

/// The bounds of one `--function` parameter ([`InputBounds`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParamBounds {
    /// A `float`, `double` or `long double` parameter's values: the least
    /// and the greatest, as the bytes of its C type (`long double`: 10,
    /// the x87 encoding). NaN is never inside.
    pub range: Option<(Vec<u8>, Vec<u8>)>,
    /// A pointer parameter: the size in bytes of the object it points to.
    pub object_size: Option<usize>,
    /// An integer parameter's values (of at most 64 bits): the least and
    /// the greatest, in its C type's signedness.
    pub int_range: Option<(i128, i128)>,
}

/// An integer of at most 64 bits as a C constant of its value.
fn c_int(v: i128) -> String {
    if v == i128::from(i64::MIN) {
        "(-9223372036854775807LL - 1)".into()
    } else if v < 0 {
        format!("({v}LL)")
    } else {
        format!("{v}ULL")
    }
}

/// The C suffix of the bounds helpers for a float type.
fn float_suffix(ty: &str) -> Option<&'static str> {
    match ty {
        "float" => Some("f"),
        "double" => Some("d"),
        "long double" => Some("ld"),
        _ => None,
    }
}

/// A C array initializer of `bytes`, zero-padded to `n`.
fn c_bytes(bytes: &[u8], n: usize) -> String {
    let v: Vec<String> = (0..n)
        .map(|i| format!("{}", bytes.get(i).copied().unwrap_or(0)))
        .collect();
    format!("{{{}}}", v.join(", "))
}

/// The harness's bounds code: the byte arrays of each range, the checks
/// run before the call (`checks`, see [`crate::driver::harness_with`]),
/// and `fpsym_fix`, which the mutator applies to every input it makes:
/// pointer objects resized to their run's size, missing records added,
/// float values outside their range replaced by one inside.
fn bounds_code(params: &[String], bounds: &InputBounds) -> (String, String) {
    let mut globals = String::new();
    let mut checks = String::new();
    let mut sizes = Vec::new();
    let mut fixes = String::new();
    for (k, t) in params.iter().enumerate() {
        let b = bounds.params.get(k).cloned().unwrap_or_default();
        let size = match (t.as_str(), b.object_size) {
            ("void *", Some(n)) => {
                checks.push_str(&format!("  if (n{k} != {n}) fpsym_leave(88);\n"));
                n
            }
            _ => param_slot(t).1,
        };
        sizes.push(size.to_string());
        if let (Some((lo, hi)), None) = (b.int_range, float_suffix(t)) {
            let (l, h) = (c_int(lo), c_int(hi));
            checks.push_str(&format!(
                "  if ((__int128)a{k} < (__int128){l} || (__int128)a{k} > (__int128){h}) fpsym_leave(88);\n"
            ));
            fixes.push_str(&format!(
                "  if (n > {k} && len[{k}] >= sizeof({t})) {{ {t} x; memcpy(&x, data + off[{k}], sizeof x); __int128 v = x;\n    if (v < (__int128){l} || v > (__int128){h}) {{ unsigned __int128 span = (unsigned __int128)((__int128){h} - (__int128){l}) + 1; v = (__int128){l} + (__int128)((unsigned __int128)(v - (__int128){l}) % span); x = ({t})v; memcpy(data + off[{k}], &x, sizeof x); }} }}\n"
            ));
        }
        if let (Some((lo, hi)), Some(sfx)) = (&b.range, float_suffix(t)) {
            let n = match sfx {
                "f" => 4,
                "d" => 8,
                _ => 16,
            };
            globals.push_str(&format!(
                "static const unsigned char fpsym_lo{k}[{n}] = {}, fpsym_hi{k}[{n}] = {};\n",
                c_bytes(lo, n),
                c_bytes(hi, n)
            ));
            checks.push_str(&format!(
                "  if (!fpsym_in_{sfx}(a{k}, fpsym_lo{k}, fpsym_hi{k})) fpsym_leave(88);\n"
            ));
            let bytes = if sfx == "ld" { 10 } else { n };
            fixes.push_str(&format!(
                "  if (n > {k} && len[{k}] >= {bytes}) {{ {t} x; memset(&x, 0, sizeof x); memcpy(&x, data + off[{k}], {bytes});\n    if (!fpsym_in_{sfx}(x, fpsym_lo{k}, fpsym_hi{k})) {{ x = fpsym_pick_{sfx}(x, fpsym_lo{k}, fpsym_hi{k}); memcpy(data + off[{k}], &x, {bytes}); }} }}\n"
            ));
        }
    }
    let resize = bounds.params.iter().any(|b| b.object_size.is_some());
    globals.push_str(&format!(
        "static const size_t fpsym_nparams = {};\nstatic const size_t fpsym_sizes[] = {{{}}};\nstatic const int fpsym_resize = {};\n",
        params.len(),
        if sizes.is_empty() { "0".to_string() } else { sizes.join(", ") },
        u8::from(resize)
    ));
    globals.push_str(BOUNDS_HELPERS);
    globals.push_str(&format!(
        "static size_t fpsym_fix(uint8_t *data, size_t size, size_t max) {{\n  size_t off[64], len[64], n;\n  size = fpsym_records(data, size, max, off, len, &n);\n{fixes}  return size;\n}}\n"
    ));
    (globals, checks)
}

/// C helpers of [`bounds_code`]: range tests and picks per float type,
/// and the record walk that resizes pointer objects.
const BOUNDS_HELPERS: &str = r#"
#define FPSYM_BOUNDED(T, S, MAX, NEXT) \
static int fpsym_in_##S(T x, const unsigned char *lo, const unsigned char *hi) { \
  T l, h; memcpy(&l, lo, sizeof l); memcpy(&h, hi, sizeof h); return x >= l && x <= h; } \
static T fpsym_pick_##S(T x, const unsigned char *lo, const unsigned char *hi) { \
  T l, h, v; memcpy(&l, lo, sizeof l); memcpy(&h, hi, sizeof h); \
  switch (fpsym_rand() % 8) { \
  case 0: v = l; break; case 1: v = h; break; case 2: v = NEXT(l, h); break; case 3: v = NEXT(h, l); break; \
  case 4: case 5: v = x != x ? l : x < l ? l : h; break; \
  default: { long double fl = __builtin_isinf(l) ? -(long double)MAX : l, fh = __builtin_isinf(h) ? (long double)MAX : h; \
    long double u = (long double)(fpsym_rand() >> 11) / 9007199254740992.0L; v = (T)(fl * (1 - u) + fh * u); } } \
  if (!(v >= l)) v = l; if (v > h) v = h; return v; }
FPSYM_BOUNDED(float, f, FLT_MAX, nextafterf)
FPSYM_BOUNDED(double, d, DBL_MAX, nextafter)
FPSYM_BOUNDED(long double, ld, LDBL_MAX, nextafterl)
/* The records of an input (offsets and lengths of their bytes); with
   pointer objects of fixed sizes, the input is rewritten first: one record
   per parameter, each object its size (cut or zero-filled). */
static size_t fpsym_walk(const uint8_t *data, size_t size, size_t *off, size_t *len) {
  size_t n = 0, p = 0;
  while (p + 4 <= size && n < 64) {
    uint32_t k; memcpy(&k, data + p, 4);
    if (k > size - p - 4) k = (uint32_t)(size - p - 4);
    off[n] = p + 4; len[n] = k; n++; p += 4 + k;
  }
  return n;
}
static size_t fpsym_records(uint8_t *data, size_t size, size_t max, size_t *off, size_t *len, size_t *n) {
  *n = fpsym_walk(data, size, off, len);
  if (!fpsym_resize) return size;
  uint8_t *out = malloc(max ? max : 1); size_t p = 0;
  size_t records = *n > fpsym_nparams ? *n : fpsym_nparams;
  for (size_t r = 0; r < records && r < 64; r++) {
    size_t want = r < fpsym_nparams ? fpsym_sizes[r] : len[r];
    if (p + 4 + want > max) break;
    uint32_t w = (uint32_t)want; memcpy(out + p, &w, 4);
    size_t have = r < *n ? len[r] : 0;
    memset(out + p + 4, 0, want);
    if (have) memcpy(out + p + 4, data + off[r], have < want ? have : want);
    p += 4 + want;
  }
  memcpy(data, out, p); free(out);
  *n = fpsym_walk(data, p, off, len);
  return p;
}
"#;

/// The width in bytes of a slot of a `--function` parameter of C type
/// `ty` for the mutator (4 float, 8 double, 16 long double, 0 not a
/// float), and the size of its record in a starting input.
fn param_slot(ty: &str) -> (u32, usize) {
    match ty {
        "float" => (4, 4),
        "double" => (8, 8),
        "long double" => (16, 16),
        "_Bool" | "char" | "signed char" | "unsigned char" => (0, 1),
        "short" | "unsigned short" => (0, 2),
        "int" | "unsigned int" => (0, 4),
        "void *" => (0, 64),
        t if t.starts_with("struct") || t.starts_with('<') => (0, 32),
        _ => (0, 8),
    }
}

/// The harness: the replay driver's input functions over libFuzzer's
/// buffer, the mutator, and the entry.
fn harness_source(
    record: &RunRecord,
    constants: &Constants,
    bounds: &InputBounds,
) -> Result<(String, Vec<Vec<u8>>), ReplayError> {
    let mut s = String::from(FUZZ_PRELUDE);
    s.push_str(input_functions!());
    s.push_str(FUZZ_RANDOM);
    let (hints, starts): (Vec<u32>, Vec<Vec<u8>>) = match &record.entry {
        EntryRecord::Function {
            function, params, ret, ..
        } => {
            let params = params.as_ref().ok_or_else(|| ReplayError::Undeclarable {
                dir: PathBuf::new(),
                function: function.clone(),
            })?;
            let (globals, checks) = bounds_code(params, bounds);
            s.push_str(&globals);
            let h = harness_with(
                function,
                params,
                ret.as_deref().unwrap_or("void"),
                Ending::Replay,
                &checks,
            )
            .replace("int main(void) {", "static int fpsym_entry(void) {");
            s.push_str(&h);
            let slots: Vec<(u32, usize)> = params.iter().map(|p| param_slot(p)).collect();
            // A starting record per parameter: zeros, a pointer's object
            // of its size, a bounded float its least value.
            let mut start = Vec::new();
            for (k, (_, n)) in slots.iter().enumerate() {
                let b = bounds.params.get(k).cloned().unwrap_or_default();
                let n = b.object_size.filter(|_| params[k] == "void *").unwrap_or(*n);
                let mut bytes = vec![0u8; n];
                if let Some((lo, _)) = b.range.filter(|_| float_suffix(&params[k]).is_some()) {
                    for (i, x) in lo.iter().enumerate().take(n) {
                        bytes[i] = *x;
                    }
                }
                if let Some((lo, _)) = b.int_range.filter(|_| float_suffix(&params[k]).is_none()) {
                    for (i, x) in lo.to_le_bytes().iter().enumerate().take(n) {
                        bytes[i] = *x;
                    }
                }
                start.extend((n as u32).to_le_bytes());
                start.extend(bytes);
            }
            (slots.iter().map(|(w, _)| *w).collect(), vec![start])
        }
        EntryRecord::Main { .. } => {
            s.push_str(
                "static size_t fpsym_fix(uint8_t *data, size_t size, size_t max) { (void)data; (void)max; return size; }\n",
            );
            s.push_str(
                "int __fpsym_program_main();\nstatic int fpsym_entry(void) {\n  static char *argv[] = {\"program\", 0};\n  return __fpsym_program_main(1, argv);\n}\n",
            );
            let record8: Vec<u8> = 8u32.to_le_bytes().into_iter().chain([0; 8]).collect();
            (Vec::new(), vec![Vec::new(), record8.repeat(4)])
        }
    };
    let list = |v: Vec<String>| if v.is_empty() { "0".to_string() } else { v.join(", ") };
    s.push_str(&format!(
        "static const double fpsym_consts[] = {{{}}};\nstatic const size_t fpsym_nconsts = {};\n",
        list(constants.doubles.iter().map(|c| format!("{:e}", c)).collect()),
        constants.doubles.len()
    ));
    s.push_str(&format!(
        "static const long double fpsym_consts_ld[] = {{{}}};\nstatic const size_t fpsym_nconsts_ld = {};\n",
        list(constants.long_doubles.iter().map(|c| long_double_literal(*c)).collect()),
        constants.long_doubles.len()
    ));
    s.push_str(&format!(
        "static const int fpsym_hint[] = {{{}}};\nstatic const size_t fpsym_nhint = {};\n",
        list(hints.iter().map(|h| h.to_string()).collect()),
        hints.len()
    ));
    s.push_str(FUZZ_MUTATOR);
    Ok((s, starts))
}

/// The harness's plumbing: `fpsym_next` over libFuzzer's buffer (zeros
/// once it runs out), returns to libFuzzer from `exit` and the driver's
/// `_exit`s, `reach_error` as a crash.
const FUZZ_PRELUDE: &str = r#"
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const unsigned char *fpsym_buf;
static size_t fpsym_len, fpsym_pos;
static unsigned char fpsym_zeros[4096];
static jmp_buf fpsym_jmp;
static int fpsym_active;

static void fpsym_dump(void) {}
/* Back to libFuzzer: 1 a normal end, 2 an input to reject. */
static void fpsym_leave(int status) {
  if (fpsym_active) longjmp(fpsym_jmp, status == 88 ? 2 : 1);
  _exit(status);
}
__attribute__((noreturn)) void exit(int status) { fpsym_leave(status); __builtin_unreachable(); }
static const unsigned char *fpsym_next(size_t *n) {
  if (fpsym_pos + 4 > fpsym_len) { *n = sizeof fpsym_zeros; return fpsym_zeros; }
  uint32_t k; memcpy(&k, fpsym_buf + fpsym_pos, 4); fpsym_pos += 4;
  if (k > fpsym_len - fpsym_pos) k = (uint32_t)(fpsym_len - fpsym_pos);
  const unsigned char *d = fpsym_buf + fpsym_pos; fpsym_pos += k; *n = k;
  return d;
}
#define _exit fpsym_leave
__attribute__((noinline)) void __fpsym_reach_error(void) { fprintf(stderr, "FPSYM-FUZZ: reach_error\n"); __builtin_abort(); }
__attribute__((noinline)) void __fpsym_verifier_error(void) { fprintf(stderr, "FPSYM-FUZZ: reach_error\n"); __builtin_abort(); }
#ifdef FPSYM_REACH_ERROR_ONLY
/* Under unreach-call an abort (assume_abort_if_not) or a failed assertion
   ends a run normally: back to libFuzzer, not a crash that restarts it.
   (-D renames the program's abort and __assert_fail to these.) */
__attribute__((noreturn)) void abort(void) { fpsym_leave(1); __builtin_unreachable(); }
__attribute__((noreturn)) void __assert_fail(const char *a, const char *f, unsigned l, const char *fn) {
  (void)a; (void)f; (void)l; (void)fn; fpsym_leave(1); __builtin_unreachable();
}
#endif
"#;

/// The mutator's random numbers (xorshift).
const FUZZ_RANDOM: &str = r#"
static uint64_t fpsym_rng = 88172645463325252ull;
static uint64_t fpsym_rand(void) { fpsym_rng ^= fpsym_rng << 13; fpsym_rng ^= fpsym_rng >> 7; fpsym_rng ^= fpsym_rng << 17; return fpsym_rng; }
"#;

/// The FP-aware mutator and libFuzzer's entry.
const FUZZ_MUTATOR: &str = r#"
#undef _exit
static int fpsym_entry(void);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max);

static double fpsym_special_d(void) {
  static const double v[] = {0.0, -0.0, 1.0, -1.0, DBL_MIN, -DBL_MIN, DBL_MAX, -DBL_MAX, 4.9406564584124654e-324, -4.9406564584124654e-324, 2.2250738585072009e-308};
  switch (fpsym_rand() % 16) { case 0: return __builtin_inf(); case 1: return -__builtin_inf(); case 2: return __builtin_nan(""); default: return v[fpsym_rand() % (sizeof v / sizeof v[0])]; }
}
static float fpsym_special_f(void) {
  static const float v[] = {0.0f, -0.0f, 1.0f, -1.0f, FLT_MIN, -FLT_MIN, FLT_MAX, -FLT_MAX, 1.40129846e-45f, -1.40129846e-45f, 1.17549421e-38f};
  switch (fpsym_rand() % 16) { case 0: return __builtin_inff(); case 1: return -__builtin_inff(); case 2: return __builtin_nanf(""); default: return v[fpsym_rand() % (sizeof v / sizeof v[0])]; }
}
static double fpsym_mutate_d(double x, double other) {
  switch (fpsym_rand() % 8) {
  case 0: return fpsym_special_d();
  case 1: case 2: {
    if (!fpsym_nconsts) return fpsym_special_d();
    double c = fpsym_consts[fpsym_rand() % fpsym_nconsts];
    if (fpsym_rand() % 2) c = -c;
    int k = (int)(fpsym_rand() % 4);
    double to = fpsym_rand() % 2 ? __builtin_inf() : -__builtin_inf();
    while (k--) c = nextafter(c, to);
    return c;
  }
  case 3: { int k = 1 + (int)(fpsym_rand() % 16); double to = fpsym_rand() % 2 ? __builtin_inf() : -__builtin_inf(); while (k--) x = nextafter(x, to); return x; }
  case 4: return -x;
  case 5: { uint64_t b; memcpy(&b, &x, 8); b = (b & ~(0x7ffull << 52)) | ((fpsym_rand() % 2047) << 52); memcpy(&x, &b, 8); return x; }
  case 6: return ldexp(x == 0 ? 1.0 : x, (int)(fpsym_rand() % 129) - 64);
  default: return other;
  }
}
static float fpsym_mutate_f(float x, float other) {
  switch (fpsym_rand() % 8) {
  case 0: return fpsym_special_f();
  case 1: case 2: {
    if (!fpsym_nconsts) return fpsym_special_f();
    float c = (float)fpsym_consts[fpsym_rand() % fpsym_nconsts];
    if (fpsym_rand() % 2) c = -c;
    int k = (int)(fpsym_rand() % 4);
    float to = fpsym_rand() % 2 ? __builtin_inff() : -__builtin_inff();
    while (k--) c = nextafterf(c, to);
    return c;
  }
  case 3: { int k = 1 + (int)(fpsym_rand() % 16); float to = fpsym_rand() % 2 ? __builtin_inff() : -__builtin_inff(); while (k--) x = nextafterf(x, to); return x; }
  case 4: return -x;
  case 5: { uint32_t b; memcpy(&b, &x, 4); b = (b & ~(0xffu << 23)) | ((uint32_t)(fpsym_rand() % 255) << 23); memcpy(&x, &b, 4); return x; }
  case 6: return ldexpf(x == 0 ? 1.0f : x, (int)(fpsym_rand() % 65) - 32);
  default: return other;
  }
}

/* long double: x86's 80-bit format in a 16-byte slot (64-bit significand
   with its integer bit in bytes 0-7, sign and 15-bit exponent in bytes 8-9). */
static long double fpsym_special_ld(void) {
  static const long double v[] = {0.0L, -0.0L, 1.0L, -1.0L, LDBL_MIN, -LDBL_MIN, LDBL_MAX, -LDBL_MAX, __LDBL_DENORM_MIN__, -__LDBL_DENORM_MIN__, LDBL_MIN - __LDBL_DENORM_MIN__,
                                  DBL_MAX, -DBL_MAX, DBL_MIN, (long double)4.9406564584124654e-324, FLT_MAX, FLT_MIN};
  switch (fpsym_rand() % 16) { case 0: return __builtin_infl(); case 1: return -__builtin_infl(); case 2: return __builtin_nanl(""); default: return v[fpsym_rand() % (sizeof v / sizeof v[0])]; }
}
static long double fpsym_mutate_ld(long double x, long double other) {
  switch (fpsym_rand() % 8) {
  case 0: return fpsym_special_ld();
  case 1: case 2: {
    if (!fpsym_nconsts && !fpsym_nconsts_ld) return fpsym_special_ld();
    /* The program's long double constants, or its doubles'. */
    long double c = fpsym_nconsts_ld && (!fpsym_nconsts || fpsym_rand() % 2) ? fpsym_consts_ld[fpsym_rand() % fpsym_nconsts_ld]
                                                                             : fpsym_consts[fpsym_rand() % fpsym_nconsts];
    if (fpsym_rand() % 2) c = -c;
    int k = (int)(fpsym_rand() % 4);
    long double to = fpsym_rand() % 2 ? __builtin_infl() : -__builtin_infl();
    while (k--) c = nextafterl(c, to);
    return c;
  }
  case 3: { int k = 1 + (int)(fpsym_rand() % 16); long double to = fpsym_rand() % 2 ? __builtin_infl() : -__builtin_infl(); while (k--) x = nextafterl(x, to); return x; }
  case 4: return -x;
#if LDBL_MANT_DIG == 64
  case 5: {
    /* A new exponent (not the infinities' and NaNs'), the integer bit set:
       a normal number (or a pseudo-denormal for exponent 0). */
    unsigned char b[sizeof x]; uint16_t e;
    memcpy(b, &x, sizeof x); memcpy(&e, b + 8, 2);
    e = (uint16_t)((e & 0x8000) | (fpsym_rand() % 32767));
    memcpy(b + 8, &e, 2); b[7] |= 0x80;
    memcpy(&x, b, sizeof x); return x;
  }
#endif
  case 6: return ldexpl(x == 0 ? 1.0L : x, (int)(fpsym_rand() % 257) - 128);
  default: return other;
  }
}
/* A long double into a slot: its 10 bytes, the padding zero. */
static void fpsym_put_ld(uint8_t *at, long double x) {
  memset(at, 0, 16);
  memcpy(at, &x, 10);
}

/* The most records the mutator parses (an input longer is cut there). */
#define FPSYM_RECORDS 2048
static size_t fpsym_mutate(uint8_t *data, size_t size, size_t max, unsigned int seed);
/* Every input the mutator makes keeps to the run's bounds. */
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned int seed) {
  return fpsym_fix(data, fpsym_mutate(data, size, max, seed), max);
}
static size_t fpsym_mutate(uint8_t *data, size_t size, size_t max, unsigned int seed) {
  fpsym_rng ^= seed ? seed : 1;
  fpsym_rand();
  if (fpsym_rand() % 4 == 0) return LLVMFuzzerMutate(data, size, max);
  static size_t off[FPSYM_RECORDS], len[FPSYM_RECORDS];
  size_t n = 0, p = 0;
  while (p + 4 <= size && n < FPSYM_RECORDS) {
    uint32_t k; memcpy(&k, data + p, 4);
    if (k > size - p - 4) k = (uint32_t)(size - p - 4);
    off[n] = p + 4; len[n] = k; n++; p += 4 + k;
  }
  size = p < size ? p : size;
  /* A loop reads the same records on each iteration: a run of 1 to 4
     records (one iteration's inputs) repeated in place, up to 256 times,
     takes a loop deep with the same values (a filter fed a constant
     signal), which single-record mutations reach one record at a time. */
  if (n > 0 && fpsym_rand() % 8 == 0) {
    size_t a = fpsym_rand() % n, l = 1 + fpsym_rand() % 4;
    if (a + l > n) l = n - a;
    size_t from = off[a] - 4, end = off[a + l - 1] + len[a + l - 1], block = end - from;
    size_t times = 1 + fpsym_rand() % 256;
    if (block == 0 || size >= max) return size;
    if (times > (max - size) / block) times = (max - size) / block;
    if (times == 0) return size;
    memmove(data + end + times * block, data + end, size - end);
    for (size_t t = 1; t <= times; t++) memmove(data + from + t * block, data + from, block);
    return size + times * block;
  }
  /* Fewer records than the program may read: add one. */
  if ((n == 0 || fpsym_rand() % 16 == 0) && n < FPSYM_RECORDS) {
    uint32_t w = n < fpsym_nhint && fpsym_hint[n] ? (uint32_t)fpsym_hint[n] : (fpsym_rand() % 2 ? 8 : 4);
    if (size + 4 + w <= max) {
      memcpy(data + size, &w, 4);
      if (w == 16) fpsym_put_ld(data + size + 4, fpsym_special_ld());
      else if (w == 8) { double d = fpsym_special_d(); memcpy(data + size + 4, &d, 8); }
      else if (w == 4) { float f = fpsym_special_f(); memcpy(data + size + 4, &f, 4); }
      else memset(data + size + 4, 0, w);
      off[n] = size + 4; len[n] = w; n++; size += 4 + w;
    }
  }
  if (n == 0) return LLVMFuzzerMutate(data, size, max);
  for (int rounds = 1 + (int)(fpsym_rand() % 2); rounds > 0; rounds--) {
    size_t r = fpsym_rand() % n;
    /* Without a hint, a 16-byte record (a long double read by the program) is
       taken as one half of the time. */
    size_t w = r < fpsym_nhint && fpsym_hint[r] ? (size_t)fpsym_hint[r]
               : len[r] == 16 && fpsym_rand() % 2 ? 16 : (fpsym_rand() % 2 ? 8 : 4);
    if (len[r] < w) { if (len[r] >= 4) w = 4; else continue; }
    size_t slots = len[r] / w, at = off[r] + w * (fpsym_rand() % slots), from = off[r] + w * (fpsym_rand() % slots);
    if (w == 16) { long double x = 0, o = 0; memcpy(&x, data + at, 10); memcpy(&o, data + from, 10); fpsym_put_ld(data + at, fpsym_mutate_ld(x, o)); }
    else if (w == 8) { double x, o; memcpy(&x, data + at, 8); memcpy(&o, data + from, 8); x = fpsym_mutate_d(x, o); memcpy(data + at, &x, 8); }
    else { float x, o; memcpy(&x, data + at, 4); memcpy(&o, data + from, 4); x = fpsym_mutate_f(x, o); memcpy(data + at, &x, 4); }
  }
  return size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fpsym_buf = data; fpsym_len = size; fpsym_pos = 0;
  int r = setjmp(fpsym_jmp);
  if (r == 0) { fpsym_active = 1; fpsym_entry(); }
  fpsym_active = 0;
  return r == 2 ? -1 : 0;
}
"#;

/// Builds the fuzzing harness `DIR/fuzz/fuzzer` for the run recorded in
/// `record` (its sources, flags and entry), with the program's FP
/// `constants` in the mutator; returns the binary and the starting inputs.
/// `.i` inputs are not supported (their symbols cannot be renamed by
/// `-D`): an error names them.
pub fn build_fuzzer(
    dir: &Path,
    record: &RunRecord,
    constants: &Constants,
    bounds: &InputBounds,
) -> Result<(PathBuf, Vec<Vec<u8>>), ReplayError> {
    let fdir = dir.join("fuzz");
    std::fs::create_dir_all(&fdir).map_err(io(&fdir))?;
    let (text, starts) = harness_source(record, constants, bounds)?;
    let driver = fdir.join("harness.c");
    std::fs::write(&driver, text).map_err(io(&driver))?;
    let exe = fdir.join("fuzzer");
    let mut cmd = Command::new("clang-14");
    cmd.args(fpsym_frontend::NATIVE_FLAGS)
        .args(["-fsanitize=fuzzer,address", "-fno-omit-frame-pointer", "-w"])
        .arg("-I")
        .arg(dir.join("build").join("include"));
    let mut renames = renames(true);
    renames.push(("exit", "__fpsym_fuzz_exit_"));
    if record.property.is_some_and(|p| p.reach_error_only()) {
        renames.push(("abort", "__fpsym_fuzz_abort_"));
        renames.push(("__assert_fail", "__fpsym_fuzz_assert_fail_"));
        cmd.arg("-DFPSYM_REACH_ERROR_ONLY");
    }
    for (from, to) in &renames {
        cmd.arg(format!("-D{from}={to}"));
    }
    crate::native::record_flags(&mut cmd, record);
    cmd.arg(&driver);
    for f in &record.files {
        if f.ends_with(".i") {
            return Err(ReplayError::NotFuzzable {
                file: f.clone(),
                what: "preprocessed C (.i: its symbols cannot be renamed by -D)".into(),
            });
        }
        cmd.arg(f);
    }
    cmd.args(["-lm", "-Wl,--allow-multiple-definition", "-o"]).arg(&exe);
    build_step(cmd, "clang-14", "clang-14")?;
    Ok((exe, starts))
}

/// Builds the harness and fuzzes for `time` (or until `interrupt` is
/// raised: the fuzzer's process group is stopped within a second, what it
/// wrote is kept; or, with `plateau`, once the corpus has not grown for
/// that long). libFuzzer stops at a crash; it is started again on the
/// corpus so far until the time is up. Writes `DIR/fuzz/corpus`,
/// `DIR/fuzz/crashes` and `DIR/fuzz/fuzzer.log`.
pub fn fuzz(
    dir: &Path,
    record: &RunRecord,
    constants: &Constants,
    bounds: &InputBounds,
    time: Duration,
    plateau: Option<Duration>,
    interrupt: &Arc<AtomicBool>,
) -> Result<FuzzOutcome, ReplayError> {
    let start = Instant::now();
    let (exe, starts) = build_fuzzer(dir, record, constants, bounds)?;
    let fdir = dir.join("fuzz");
    let corpus = fdir.join("corpus");
    let crashes = fdir.join("crashes");
    for d in [&corpus, &crashes] {
        std::fs::create_dir_all(d).map_err(io(d))?;
    }
    for (k, s) in starts.iter().enumerate() {
        let f = corpus.join(format!("start-{k}"));
        std::fs::write(&f, s).map_err(io(&f))?;
    }
    let log_path = fdir.join("fuzzer.log");
    let mut outcome = FuzzOutcome::default();
    let deadline = start + time;
    let mut seen_crashes = 0;
    let mut corpus_size = count_files(&corpus, |_| true);
    let mut last_new = Instant::now();
    let mut plateaued = false;
    for round in 0..32u32 {
        if plateaued {
            break;
        }
        let now = Instant::now();
        if now >= deadline || interrupt.load(Ordering::Relaxed) {
            break;
        }
        let left = (deadline - now).as_secs_f64().ceil().max(1.0) as u64;
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log_path)
            .map_err(io(&log_path))?;
        let mut cmd = Command::new(&exe);
        cmd.arg(&corpus)
            .arg(format!("-max_total_time={left}"))
            .arg("-timeout=5")
            .arg("-rss_limit_mb=2048")
            .arg("-detect_leaks=0")
            .arg(format!("-seed={}", round + 1))
            .arg(format!("-max_len={MAX_INPUT_BYTES}"))
            .arg("-close_fd_mask=3")
            .arg("-print_final_stats=1")
            .arg(format!("-artifact_prefix={}/", crashes.display()))
            .env("ASAN_OPTIONS", "detect_leaks=0:abort_on_error=0")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log);
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd.spawn().map_err(io(&exe))?;
        let pid = child.id() as i32;
        let mut stop_sent: Option<Instant> = None;
        loop {
            match child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) => {}
                Err(e) => return Err(io(&exe)(e)),
            }
            let late = Instant::now() > deadline + Duration::from_secs(1);
            let n = count_files(&corpus, |_| true);
            if n != corpus_size {
                corpus_size = n;
                last_new = Instant::now();
            }
            plateaued |= plateau.is_some_and(|p| last_new.elapsed() > p);
            if stop_sent.is_none() && (interrupt.load(Ordering::Relaxed) || late || plateaued) {
                outcome.interrupted |= interrupt.load(Ordering::Relaxed);
                // SAFETY: a signal to the process group of the child we started.
                unsafe { libc::kill(-pid, libc::SIGINT) };
                stop_sent = Some(Instant::now());
            }
            if stop_sent.is_some_and(|t| t.elapsed() > Duration::from_millis(500)) {
                // SAFETY: as above; the group did not stop on SIGINT.
                unsafe { libc::kill(-pid, libc::SIGKILL) };
                let _ = child.wait();
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let n = count_files(&crashes, |f| f.starts_with("crash-"));
        if n > seen_crashes && outcome.first_crash_seconds.is_none() {
            outcome.first_crash_seconds = Some(start.elapsed().as_secs_f64());
        }
        seen_crashes = n;
    }
    if let Ok(text) = std::fs::read_to_string(&log_path) {
        outcome.executions = text
            .lines()
            .filter_map(|l| l.strip_prefix("stat::number_of_executed_units:"))
            .filter_map(|v| v.trim().parse::<u64>().ok())
            .sum();
    }
    outcome.plateaued = plateaued;
    outcome.corpus = read_dir_inputs(&corpus, |_| true)?;
    outcome.crashes = read_dir_inputs(&crashes, |n| n.starts_with("crash-"))?;
    outcome.seconds = start.elapsed().as_secs_f64();
    Ok(outcome)
}

/// The files of `dir` whose names `keep` accepts, counted.
fn count_files(dir: &Path, keep: impl Fn(&str) -> bool) -> usize {
    std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| keep(&e.file_name().to_string_lossy()))
                .count()
        })
        .unwrap_or(0)
}

/// The files of `dir` whose names `keep` accepts, with their bytes, by name.
fn read_dir_inputs(dir: &Path, keep: impl Fn(&str) -> bool) -> Result<Vec<(PathBuf, Vec<u8>)>, ReplayError> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).map_err(io(dir))? {
        let e = e.map_err(io(dir))?;
        if keep(&e.file_name().to_string_lossy()) {
            let p = e.path();
            let bytes = std::fs::read(&p).map_err(io(&p))?;
            out.push((p, bytes));
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_are_read_from_the_ir() {
        let ll = "%3 = fcmp olt double %2, 1.000000e+01\n!7 = !DIFile(filename: \"a-1.0e.c\")\n%4 = fadd float %x, 0x3FB99999A0000000\nstore double -2.5e-3, double* %p\n%5 = fmul double %a, 1.000000e+01\n";
        let c = float_constants(ll);
        assert_eq!(c, vec![10.0, f64::from_bits(0x3FB99999A0000000), -2.5e-3]);
    }

    #[test]
    fn long_double_constants_are_read_from_the_ir_and_written_exactly() {
        // 0.1L, -2.0L twice, +inf, a NaN, an unnormal (no integer bit), the
        // smallest subnormal; a double's bits are not a long double.
        let ll = "%3 = fcmp olt x86_fp80 %2, 0xK3FFBCCCCCCCCCCCCCCCD\n\
                  %4 = fmul x86_fp80 0xKC0008000000000000000, %x\n\
                  %5 = fadd x86_fp80 %4, 0xKC0008000000000000000\n\
                  %6 = fadd x86_fp80 0xK7FFF8000000000000000, 0xK7FFFC000000000000000\n\
                  %7 = fadd x86_fp80 0xK3FFF0000000000000001, 0xK00000000000000000001\n\
                  %8 = fadd double %y, 0x3FB99999A0000000\n";
        let c = long_double_constants(ll);
        assert_eq!(
            c,
            vec![0x3FFBCCCCCCCCCCCCCCCD, 0xC0008000000000000000, 0x00000000000000000001]
        );
        let lits: Vec<String> = c.into_iter().map(long_double_literal).collect();
        assert_eq!(
            lits,
            vec!["0xcccccccccccccccdp-67L", "-0x8000000000000000p-62L", "0x1p-16445L"]
        );
        assert_eq!(Constants::of_ir(ll).doubles, vec![f64::from_bits(0x3FB99999A0000000)]);
    }

    #[test]
    fn function_harness_starts_with_a_record_per_parameter() {
        let record = RunRecord {
            files: vec![],
            include: vec![],
            defines: vec![],
            cflags: vec![],
            env: Default::default(),
            entry: EntryRecord::Function {
                function: "f".into(),
                array_len: 1,
                params: Some(vec!["double".into(), "float".into(), "long double".into()]),
                ret: Some("int".into()),
            },
            property: None,
            sym_args: vec![],
            sym_stdin: None,
            mode: None,
        };
        let constants = Constants {
            doubles: vec![1.5],
            long_doubles: vec![0x3FFBCCCCCCCCCCCCCCCD],
        };
        let (text, starts) = harness_source(&record, &constants, &InputBounds::default()).unwrap();
        assert!(text.contains("static int fpsym_entry(void) {"), "{text}");
        assert!(!text.contains("int main(void)"), "{text}");
        assert!(text.contains("fpsym_hint[] = {8, 4, 16}"), "{text}");
        assert!(text.contains("fpsym_consts[] = {1.5e0}"), "{text}");
        assert!(text.contains("fpsym_consts_ld[] = {0xcccccccccccccccdp-67L}"), "{text}");
        assert_eq!(
            starts,
            vec![[
                vec![8, 0, 0, 0],
                vec![0; 8],
                vec![4, 0, 0, 0],
                vec![0; 4],
                vec![16, 0, 0, 0],
                vec![0; 16]
            ]
            .concat()]
        );
    }
}
