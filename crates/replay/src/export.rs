//! Tests made reusable outside fpsym: a standalone reproducer `.c` per
//! finding (`fpsym export --c`), and what a test's input values are in C
//! (`fpsym show`): the float format of a typed input, its IEEE class read
//! from its bytes, its hex-float literal read back exactly.
//!
//! A reproducer is the replay driver with its input source swapped: the
//! same [`input_functions!`] (`klee_make_symbolic`, `__VERIFIER_nondet_*`,
//! ...) and, for a `--function` run, the same harness ([`harness_with`])
//! hand the program its inputs, from C literals instead of the FPSYM_TEST
//! file. Each literal is checked here to denote exactly the bytes the
//! replay driver would feed (its memory image is computed and compared);
//! an input that no literal denotes exactly (a NaN with its payload, a
//! struct with padding, a pointer) is written as its bytes.

use crate::driver::{harness_with, input_functions, Ending};
use crate::ReplayError;
use fpsym_float::{Float, Format};
use fpsym_report::{decimal, hex_float, EntryRecord, Finding, FindingKind, RunRecord, Test, TestObject};
use std::path::Path;

/// The IEEE class of a float's encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatClass {
    /// Finite, non-zero, with the format's full precision.
    Normal,
    /// Non-zero, below the smallest normal (x87: also a pseudo-denormal).
    Subnormal,
    /// Plus or minus zero.
    Zero,
    /// Plus or minus infinity.
    Infinite,
    /// Not a number (x87: also the encodings the FPU rejects as invalid
    /// operands: unnormals, pseudo-infinities, pseudo-NaNs).
    Nan,
}

impl FloatClass {
    /// `normal`, `subnormal`, `zero`, `inf`, `NaN`.
    pub fn name(self) -> &'static str {
        match self {
            FloatClass::Normal => "normal",
            FloatClass::Subnormal => "subnormal",
            FloatClass::Zero => "zero",
            FloatClass::Infinite => "inf",
            FloatClass::Nan => "NaN",
        }
    }
}

impl std::fmt::Display for FloatClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The float format C's type `ty` names, if it is a floating type by its
/// standard name.
fn named_format(ty: &str) -> Option<Format> {
    Some(match ty.trim() {
        "float" | "_Float32" => Format::BINARY32,
        "double" | "_Float64" => Format::BINARY64,
        "long double" => Format::X86_FP80,
        "__float128" | "_Float128" => Format::BINARY128,
        "_Float16" | "__fp16" => Format::BINARY16,
        _ => return None,
    })
}

/// Bytes a value of `fmt` occupies in memory on x86-64 (`long double`:
/// 10 significant bytes, 16 with padding; 10 or 16 match).
fn format_sizes(fmt: Format) -> &'static [usize] {
    match fmt {
        Format::X86_FP80 => &[10, 16],
        Format::BINARY16 => &[2],
        Format::BINARY32 => &[4],
        Format::BINARY64 => &[8],
        Format::BINARY128 => &[16],
        _ => &[],
    }
}

/// The encoding of a value of `fmt` at the start of `bytes`
/// (little-endian), if there are enough.
fn raw_bits(bytes: &[u8], fmt: Format) -> Option<u128> {
    let n = (fmt.width() / 8) as usize;
    if bytes.len() < n {
        return None;
    }
    Some(bytes[..n].iter().rev().fold(0u128, |acc, b| (acc << 8) | *b as u128))
}

/// The float format of a scalar input of C type `ty` with these `bytes`
/// and recorded decimal `value`: the type's when it names a floating type;
/// for another name (a typedef), the format of that size whose decimal
/// rendering of the bytes is `value` (a `long double` and a `__float128`
/// both take 16 bytes). None when it is not a float of a known format.
pub fn scalar_format(ty: &str, bytes: &[u8], value: Option<&str>) -> Option<Format> {
    if let Some(f) = named_format(ty) {
        return format_sizes(f).contains(&bytes.len()).then_some(f);
    }
    let value = value?;
    [
        Format::BINARY64,
        Format::BINARY32,
        Format::X86_FP80,
        Format::BINARY128,
        Format::BINARY16,
    ]
    .into_iter()
    .find(|f| {
        format_sizes(*f).contains(&bytes.len())
            && raw_bits(bytes, *f).is_some_and(|b| decimal(Float::from_bits(*f, b)) == value)
    })
}

/// The class of the float of format `fmt` encoded at the start of
/// `bytes`, with a detail when the class alone hides something: a NaN is
/// `quiet` or `signalling` (`, negative` when its sign bit is set: C's
/// `-nan`); an x87 encoding may be a `pseudo-denormal`
/// (read as the normal it denotes), an `unnormal`, a `pseudo-infinity` or
/// a `pseudo-NaN` (invalid operands: the FPU answers NaN). None when
/// `bytes` is too short.
pub fn float_class(bytes: &[u8], fmt: Format) -> Option<(FloatClass, Option<&'static str>)> {
    let bits = raw_bits(bytes, fmt)?;
    let fb = fmt.frac_bits();
    let emax = (1u128 << fmt.eb()) - 1;
    let sign_bit = fmt.eb() + fmt.sb() - u32::from(!fmt.has_explicit_int_bit());
    let negative = (bits >> sign_bit) & 1 == 1;
    let nan = |frac: u128, top: u32| {
        let quiet = (frac >> top) & 1 == 1;
        let detail = match (quiet, negative) {
            (true, false) => "quiet",
            (false, false) => "signalling",
            (true, true) => "quiet, negative",
            (false, true) => "signalling, negative",
        };
        (FloatClass::Nan, Some(detail))
    };
    if fmt.has_explicit_int_bit() {
        // x87: 63 fraction bits, the integer bit, 15 exponent bits, sign.
        let frac = bits & ((1u128 << fb) - 1);
        let int_bit = (bits >> fb) & 1;
        let exp = (bits >> (fb + 1)) & emax;
        return Some(match (exp, int_bit) {
            (0, 0) if frac == 0 => (FloatClass::Zero, None),
            (0, 0) => (FloatClass::Subnormal, None),
            (0, _) => (FloatClass::Subnormal, Some("pseudo-denormal")),
            (e, 0) if e == emax && frac == 0 => (FloatClass::Nan, Some("pseudo-infinity")),
            (e, 0) if e == emax => (FloatClass::Nan, Some("pseudo-NaN")),
            (e, _) if e == emax && frac == 0 => (FloatClass::Infinite, None),
            (e, _) if e == emax => nan(frac, fb - 1),
            (_, 0) => (FloatClass::Nan, Some("unnormal")),
            _ => (FloatClass::Normal, None),
        });
    }
    let frac = bits & ((1u128 << fb) - 1);
    let exp = (bits >> fb) & emax;
    Some(match exp {
        0 if frac == 0 => (FloatClass::Zero, None),
        0 => (FloatClass::Subnormal, None),
        e if e == emax && frac == 0 => (FloatClass::Infinite, None),
        e if e == emax => nan(frac, fb - 1),
        _ => (FloatClass::Normal, None),
    })
}

/// The value of `fmt` a hex-float literal as tests write them denotes
/// (the form of [`fpsym_report::hex_float`]: `0x1.8p+1`, `-0x0p+0`,
/// `0x0.8p-1022` for a subnormal, `inf`, `-inf`). None for `nan` (a NaN's
/// payload is in the bytes only) and for anything not in that form or not
/// exactly a value of `fmt`.
pub fn hex_float_value(s: &str, fmt: Format) -> Option<Float> {
    let (negative, body) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    if body == "inf" {
        return Some(Float::infinity(fmt, negative));
    }
    let body = body.strip_prefix("0x")?;
    let (mant, exp) = body.split_once('p')?;
    let exp: i64 = exp.parse().ok()?;
    let (lead, digits) = match mant.split_once('.') {
        Some((l, d)) if !d.is_empty() => (l, d),
        Some(_) => return None,
        None => (mant, ""),
    };
    let fb = fmt.frac_bits();
    let pad = (4 - fb % 4) % 4;
    let width = ((fb + pad) / 4) as usize;
    if digits.len() > width || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let padded = format!("{digits:0<width$}");
    let raw = u128::from_str_radix(&padded, 16).ok().unwrap_or(0);
    if raw & ((1u128 << pad) - 1) != 0 {
        return None;
    }
    let frac = raw >> pad;
    let bias = (1i64 << (fmt.eb() - 1)) - 1;
    let x = match lead {
        "1" => {
            let biased = exp + bias;
            if biased < 1 || biased >= (1i64 << fmt.eb()) - 1 {
                return None;
            }
            Float::from_fields(fmt, negative, biased as u64, frac)
        }
        "0" if frac == 0 && exp == 0 => Float::zero(fmt, negative),
        "0" if frac != 0 && exp == 1 - bias => Float::from_fields(fmt, negative, 0, frac),
        _ => return None,
    };
    // The inverse of hex_float, exactly.
    (hex_float(x) == s).then_some(x)
}

/// The class of an array or struct element as a test records it (no
/// bytes of its own: its C type name `ty`, decimal `value` and exact
/// `hex`, both read from the input's bytes by the run): `nan` is a NaN;
/// otherwise the float of the type's format (for a typedef, the first of
/// binary64, binary32, x87, binary128, binary16) whose hex-float is `hex`
/// and decimal `value`. None when no float is both (not a float element,
/// or a hand-edited record).
pub fn element_class(ty: &str, value: &str, hex: &str) -> Option<FloatClass> {
    if hex == "nan" {
        return (value == "nan").then_some(FloatClass::Nan);
    }
    let formats: Vec<Format> = match named_format(ty) {
        Some(f) => vec![f],
        None => vec![
            Format::BINARY64,
            Format::BINARY32,
            Format::X86_FP80,
            Format::BINARY128,
            Format::BINARY16,
        ],
    };
    let x = formats
        .into_iter()
        .find_map(|f| hex_float_value(hex, f).filter(|x| decimal(*x) == value))?;
    Some(if x.is_infinite() {
        FloatClass::Infinite
    } else if x.is_zero() {
        FloatClass::Zero
    } else if x.is_subnormal() {
        FloatClass::Subnormal
    } else {
        FloatClass::Normal
    })
}

/// A scalar in C: its type, a literal denoting it exactly, and the bytes
/// of its memory image.
struct Literal {
    ty: String,
    text: String,
    image: Vec<u8>,
}

/// Width in bytes, signedness and C spelling of an integer type by its
/// name (C's, stdint's, fpsym's `i32`/`u64`).
fn named_int(ty: &str) -> Option<(usize, bool, &'static str)> {
    Some(match ty.trim() {
        "_Bool" | "bool" => (1, false, "_Bool"),
        "char" => (1, true, "char"),
        "signed char" | "i8" | "int8_t" => (1, true, "signed char"),
        "unsigned char" | "u8" | "uint8_t" => (1, false, "unsigned char"),
        "short" | "short int" | "signed short" | "signed short int" | "i16" | "int16_t" => (2, true, "short"),
        "unsigned short" | "unsigned short int" | "u16" | "uint16_t" => (2, false, "unsigned short"),
        "int" | "signed" | "signed int" | "i32" | "int32_t" => (4, true, "int"),
        "unsigned" | "unsigned int" | "u32" | "uint32_t" => (4, false, "unsigned int"),
        "long" | "long int" | "signed long" | "long long" | "long long int" | "signed long long" | "i64"
        | "int64_t" | "ssize_t" | "ptrdiff_t" | "intptr_t" | "time_t" | "clock_t" | "off_t" => (8, true, "long long"),
        "unsigned long"
        | "unsigned long int"
        | "unsigned long long"
        | "unsigned long long int"
        | "u64"
        | "uint64_t"
        | "size_t"
        | "uintptr_t" => (8, false, "unsigned long long"),
        _ => return None,
    })
}

/// The least and greatest integer of `bytes` bytes (up to 8), `signed` or not.
pub(crate) fn int_range(bytes: usize, signed: bool) -> (i128, i128) {
    let bits = 8 * bytes as u32;
    if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// An integer literal of `bytes` bytes (`signed` or not) for `v`, and its
/// image; None when `v` does not fit.
fn int_literal(v: i128, bytes: usize, signed: bool, ty: &str) -> Option<Literal> {
    let (lo, hi) = int_range(bytes, signed);
    if v < lo || v > hi {
        return None;
    }
    let suffix = match (bytes, signed) {
        (8, true) => "LL",
        (8, false) => "ULL",
        (4, false) => "u",
        _ => "",
    };
    let text = if signed && v == lo && bytes >= 4 {
        format!("(-{hi}{suffix} - 1)")
    } else {
        format!("{v}{suffix}")
    };
    let image = (0..bytes).map(|k| (v >> (8 * k)) as u8).collect();
    Some(Literal {
        ty: ty.to_string(),
        text,
        image,
    })
}

/// A float literal (hex-float, so exact) of `x`, and its image (the
/// encoding, then zeros to the C type's size); None for NaN and formats C
/// has no portable literal for here.
fn float_literal(x: Float) -> Option<Literal> {
    let (ty, suffix, size, inf) = match x.format() {
        Format::BINARY32 => ("float", "f", 4, "__builtin_inff()"),
        Format::BINARY64 => ("double", "", 8, "__builtin_inf()"),
        Format::X86_FP80 => ("long double", "L", 16, "__builtin_infl()"),
        _ => return None,
    };
    if x.is_nan() {
        return None;
    }
    let text = if x.is_infinite() {
        format!("{}{inf}", if x.is_negative() { "-" } else { "" })
    } else {
        format!("{}{suffix}", hex_float(x))
    };
    let bits = x.to_bits();
    let width = (x.format().width() / 8) as usize;
    let image = (0..size)
        .map(|k| if k < width { (bits >> (8 * k)) as u8 } else { 0 })
        .collect();
    Some(Literal {
        ty: ty.to_string(),
        text,
        image,
    })
}

/// A NaN literal with the sign and payload of the encoding `raw` of a
/// `float` or `double` (`-__builtin_nan("0x0")`, `__builtin_nans("0x1")`
/// for a signalling one), and its image.
fn nan_literal(fmt: Format, raw: u128) -> Option<Literal> {
    let (ty, f) = match fmt {
        Format::BINARY32 => ("float", "f"),
        Format::BINARY64 => ("double", ""),
        _ => return None,
    };
    let fb = fmt.frac_bits();
    let quiet = (raw >> (fb - 1)) & 1 == 1;
    let payload = raw & ((1u128 << (fb - 1)) - 1);
    let negative = (raw >> (fmt.width() - 1)) & 1 == 1;
    if !quiet && payload == 0 {
        return None; // an infinity
    }
    let builtin = if quiet { "nan" } else { "nans" };
    let width = (fmt.width() / 8) as usize;
    Some(Literal {
        ty: ty.to_string(),
        text: format!(
            "{}__builtin_{builtin}{f}(\"{payload:#x}\")",
            if negative { "-" } else { "" }
        ),
        image: (0..width).map(|k| (raw >> (8 * k)) as u8).collect(),
    })
}

/// The literal of one scalar of C type name `ty` whose memory is `bytes`
/// (an input's, or an element's slice of it), as the record shows it
/// (`value`, and `hex` for a float): None when the bytes are not what
/// the record says or C has no exact literal for them. The caller checks
/// the image against the bytes.
fn scalar_literal(ty: &str, value: &str, hex: Option<&str>, bytes: &[u8]) -> Option<Literal> {
    if hex.is_some() {
        let formats: Vec<Format> = match named_format(ty) {
            Some(f) => vec![f],
            None => vec![Format::BINARY64, Format::BINARY32, Format::X86_FP80],
        };
        return formats.into_iter().find_map(|f| {
            if !format_sizes(f).contains(&bytes.len()) {
                return None;
            }
            let raw = raw_bits(bytes, f)?;
            let x = Float::from_bits(f, raw);
            if decimal(x) != value || hex != Some(hex_float(x).as_str()) {
                return None;
            }
            match x.is_nan() {
                true => nan_literal(f, raw),
                false => float_literal(x),
            }
        });
    }
    let v: i128 = value.parse().ok()?;
    match named_int(ty) {
        Some((size, signed, cty)) => int_literal(v, size, signed, cty),
        None => {
            // A typedef of an integer: its size from the bytes.
            let size = bytes.len();
            if ![1, 2, 4, 8].contains(&size) {
                return None;
            }
            let signed = v < 0;
            let cty = format!("{}int{}_t", if signed { "" } else { "u" }, 8 * size);
            int_literal(v, size, signed, &cty)
        }
    }
}

/// Whether `image` is `bytes` followed by zeros only (a literal's padding).
fn denotes(image: &[u8], bytes: &[u8]) -> bool {
    image.len() >= bytes.len() && image[..bytes.len()] == *bytes && image[bytes.len()..].iter().all(|b| *b == 0)
}

/// A C identifier for input `k` named `name` (`in0_x`, `in2_q_0_x`).
fn c_ident(k: usize, name: &str) -> String {
    let mut id = format!("fpsym_in{k}_");
    let mut last_underscore = true;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            id.push(c);
            last_underscore = false;
        } else if !last_underscore {
            id.push('_');
            last_underscore = true;
        }
    }
    while id.ends_with('_') {
        id.pop();
    }
    id
}

/// Text safe inside a C block comment, on one line.
fn comment_safe(s: &str) -> String {
    s.replace("*/", "*\\/").replace(['\n', '\r'], " ")
}

/// `bytes` as a C string literal (`"5e2"`; quotes, backslashes, `?` and
/// bytes outside printable ASCII as 3-digit octal escapes, so that no
/// escape runs into the next character). The literal's own final NUL is
/// not in `bytes`.
pub fn c_string_literal(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    for b in bytes {
        match b {
            b'"' | b'\\' | b'?' => s.push_str(&format!("\\{:03o}", b)),
            0x20..=0x7e => s.push(*b as char),
            _ => s.push_str(&format!("\\{:03o}", b)),
        }
    }
    s.push('"');
    s
}

/// An input's value for people: `1.5e0 (0x1.8p+0)`, `-7`, or its
/// elements.
fn shown_value(o: &TestObject) -> String {
    match (&o.value, &o.hex) {
        (Some(v), Some(h)) => format!("{v} ({h})"),
        (Some(v), None) => v.clone(),
        _ if !o.elements.is_empty() => o
            .elements
            .iter()
            .map(|e| match &e.hex {
                Some(h) => format!("{} = {} ({h})", e.name, e.value),
                None => format!("{} = {}", e.name, e.value),
            })
            .collect::<Vec<_>>()
            .join(", "),
        _ => format!("bytes {}", if o.bytes.is_empty() { "(none)" } else { &o.bytes }),
    }
}

/// The declaration of input `k` (a literal denoting exactly its bytes, or
/// the bytes) and the expression of its address.
fn declare_input(k: usize, o: &TestObject, bytes: &[u8]) -> (String, String) {
    let id = c_ident(k, &o.name);
    let head = format!("/* input {k}: {} ({}) */\n", comment_safe(&o.name), comment_safe(&o.ty));
    // A scalar (or the one element of the same name: a long double's 16
    // bytes of memory).
    let scalar = match (&o.value, o.elements.as_slice()) {
        (Some(v), _) => Some((o.ty.as_str(), v.as_str(), o.hex.as_deref())),
        (None, [e]) if e.name == o.name => Some((e.ty.as_str(), e.value.as_str(), e.hex.as_deref())),
        _ => None,
    };
    if let Some((ty, value, hex)) = scalar {
        if let Some(l) = scalar_literal(ty, value, hex, bytes) {
            if denotes(&l.image, bytes) {
                return (
                    format!("{head}static const {} {id} = {};\n", l.ty, l.text),
                    format!("&{id}"),
                );
            }
        }
    }
    // An array (or a struct without padding) of scalars of one type, each
    // read from its slice of the bytes.
    let n = o.elements.len();
    if n > 0 && bytes.len().is_multiple_of(n) && o.elements.iter().all(|e| e.ty == o.elements[0].ty) {
        let size = bytes.len() / n;
        let lits: Option<Vec<Literal>> = o
            .elements
            .iter()
            .zip(bytes.chunks(size))
            .map(|(e, b)| scalar_literal(&e.ty, &e.value, e.hex.as_deref(), b).filter(|l| l.image == b))
            .collect();
        if let Some(lits) = lits.filter(|l| l.iter().all(|x| x.ty == l[0].ty)) {
            let names: Vec<&str> = o.elements.iter().map(|e| e.name.as_str()).collect();
            let items: Vec<&str> = lits.iter().map(|l| l.text.as_str()).collect();
            return (
                format!(
                    "{head}/* {} */\nstatic const {} {id}[{n}] = {{{}}};\n",
                    comment_safe(&names.join(", ")),
                    lits[0].ty,
                    items.join(", ")
                ),
                id,
            );
        }
    }
    // The bytes, with the value for people.
    let mut text = format!("{head}/* {} */\n", comment_safe(&shown_value(o)));
    let n = bytes.len().max(1);
    text.push_str(&format!("static const unsigned char {id}[{n}] = {{"));
    if bytes.is_empty() {
        text.push('0');
    }
    for (i, b) in bytes.iter().enumerate() {
        if i % 12 == 0 {
            text.push_str("\n  ");
        } else {
            text.push(' ');
        }
        text.push_str(&format!("0x{b:02x}"));
        if i + 1 < bytes.len() {
            text.push(',');
        }
    }
    text.push_str("};\n");
    (text, id)
}

/// Compiler flags a reproducer of `kind` needs for the failure to show:
/// AddressSanitizer for memory errors, UBSan's float-cast-overflow check.
fn kind_flags(kind: &FindingKind) -> &'static [&'static str] {
    match kind {
        FindingKind::OutOfBounds | FindingKind::UseAfterFree | FindingKind::InvalidFree => &["-fsanitize=address"],
        FindingKind::FloatCastOverflow => &["-fsanitize=float-cast-overflow"],
        _ => &[],
    }
}

/// The `FE_*` flag of a floating-point exception kind.
fn fe_flag(kind: &FindingKind) -> Option<(&'static str, &'static str)> {
    kind.fe_flag()
}

/// The command that builds a reproducer at `source` with the program of
/// the run in `dir` (clang-14, the replay build's
/// [`fpsym_frontend::NATIVE_FLAGS`], the sanitizer the finding `kind`
/// needs, fpsym's headers, the run's `-I`, `-D` and `--cflag`s, for a
/// `--function` run `main` renamed away in the program as replay does,
/// the reproducer then the program's files, libm, and
/// `--allow-multiple-definition` so that the reproducer's definitions
/// (first) win over a program's own `reach_error` or verifier functions).
/// It writes `./a.out`.
pub fn build_command(dir: &Path, record: &RunRecord, kind: &FindingKind, source: &Path) -> Vec<String> {
    let mut argv: Vec<String> = vec!["clang-14".into()];
    argv.extend(fpsym_frontend::NATIVE_FLAGS.iter().map(|s| s.to_string()));
    argv.extend(kind_flags(kind).iter().map(|s| s.to_string()));
    let include = dir.join("build").join("include");
    if include.is_dir() {
        let include = include.canonicalize().unwrap_or(include);
        argv.push(format!("-I{}", include.display()));
    }
    argv.extend(record.include.iter().map(|i| format!("-I{i}")));
    argv.extend(record.defines.iter().map(|d| format!("-D{d}")));
    argv.extend(record.cflags.iter().cloned());
    if record.entry.function().is_some() || has_streams(record) {
        argv.push("-Dmain=__fpsym_program_main".into());
    }
    argv.push(source.display().to_string());
    argv.extend(record.files.iter().cloned());
    argv.push("-lm".into());
    argv.push("-Wl,--allow-multiple-definition".into());
    argv
}

/// Whether the run's `main` got symbolic command-line arguments or
/// standard input: a reproducer's `main` then calls the program's with
/// them.
fn has_streams(record: &RunRecord) -> bool {
    !record.sym_args.is_empty() || record.sym_stdin.is_some()
}

/// `argv` as one POSIX shell command line (words quoted where needed).
pub fn shell_line(argv: &[String]) -> String {
    argv.iter()
        .map(|a| {
            let plain = !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=+,:@%^".contains(c));
            if plain {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A standalone reproducer of one finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reproducer {
    /// The C source.
    pub source: String,
    /// The command that builds it with the program ([`build_command`]).
    pub command: Vec<String>,
}

/// What running a reproducer of `kind` shows.
fn expectation(kind: &FindingKind, function_run: bool, test: &Test) -> String {
    match kind {
        FindingKind::AssertionFailure => "glibc prints the failed assertion, then the program aborts (SIGABRT).".into(),
        FindingKind::ReachError => {
            "reach_error() is called: `fpsym reproducer: reach_error() called` on stderr, then SIGABRT.".into()
        }
        FindingKind::Abort => "abort() is called: SIGABRT.".into(),
        FindingKind::DivisionByZero => "an integer division by zero (or INT_MIN / -1): SIGFPE.".into(),
        FindingKind::OutOfBounds | FindingKind::UseAfterFree | FindingKind::InvalidFree => {
            "AddressSanitizer reports the access or free (the build has -fsanitize=address) and ends the program."
                .into()
        }
        FindingKind::Unreachable => "`unreachable` is executed: undefined behaviour (often SIGILL or a crash).".into(),
        FindingKind::FloatCastOverflow => "UndefinedBehaviorSanitizer reports `... is outside the range of \
             representable values of type ...` (the build has -fsanitize=float-cast-overflow)."
            .into(),
        k => match fe_flag(k) {
            Some((fe, name)) => format!(
                "the {name} flag is raised: the reproducer prints `FP exceptions {}: ... {name} ...`. \
                 Add -DFPSYM_TRAP={fe} to the build to stop at the operation with SIGFPE (in gdb: run, then bt).",
                if function_run { "raised by the call" } else { "at exit" }
            ),
            None => format!("the run's test ends: {}.", test.end),
        },
    }
}

/// A standalone reproducer of `finding` (the `index`-th of the run in
/// `dir`, from 1) with the inputs of `test`, to be written at `path`
/// (absolute: the build command in its header names it). The header
/// comment says the finding, where, the command that builds and runs it
/// and what to expect; then each input as a literal ([`hex_float`] for
/// floats, exact), and the input functions and `--function` harness the
/// replay driver uses. Results are printed (a `--function` run's result,
/// the floating-point exceptions raised) on stdout.
pub fn reproducer(
    dir: &Path,
    record: &RunRecord,
    index: usize,
    finding: &Finding,
    test: &Test,
    path: &Path,
) -> Result<Reproducer, ReplayError> {
    let command = build_command(dir, record, &finding.kind, path);
    let function_run = record.entry.function().is_some();
    let bad = |object| ReplayError::BadTest {
        dir: dir.to_path_buf(),
        test: test.id,
        object,
    };
    // Arguments and standard input go to the program's main, the rest
    // through the input functions (as replay splits them).
    let (streams, objects) = crate::native::streams(record, &test.objects).map_err(bad)?;
    let mut s = String::new();
    s.push_str(&format!(
        "/* fpsym reproducer: finding {index:03} of {}\n *\n *   {} at {}:{}:{}\n",
        comment_safe(&dir.display().to_string()),
        finding.kind,
        comment_safe(&finding.file),
        finding.line,
        finding.column
    ));
    if !finding.stack.is_empty() {
        s.push_str(&format!(
            " *   in {}\n",
            comment_safe(
                &finding
                    .stack
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", from ")
            )
        ));
    }
    if !finding.message.is_empty() {
        s.push_str(&format!(" *   {}\n", comment_safe(&finding.message)));
    }
    if let Some(op) = &finding.operation {
        let result = finding.result.as_deref().map(|r| format!(" = {r}")).unwrap_or_default();
        s.push_str(&format!(
            " *   operation: {op}({}){}\n",
            comment_safe(&finding.operands.join(", ")),
            comment_safe(&result)
        ));
    }
    s.push_str(&format!(
        " *   test {:06} (the run's path ends: {})\n",
        test.id,
        comment_safe(&test.end.to_string())
    ));
    s.push_str(" *\n * Build and run (the program's sources with the run's flags):\n *\n *   ");
    s.push_str(&comment_safe(&format!("{} && ./a.out", shell_line(&command))));
    s.push_str(&format!(
        "\n *\n * Expected: {}\n",
        comment_safe(&expectation(&finding.kind, function_run, test))
    ));
    if let EntryRecord::Function { function, .. } = &record.entry {
        s.push_str(&format!(
            " * main() calls {function} with the inputs below (declared as the x86-64 ABI passes\n * its parameters) and prints its result.\n"
        ));
    }
    if has_streams(record) {
        let args: Vec<String> = streams.args.iter().map(|a| c_string_literal(a)).collect();
        s.push_str(&format!(
            " * main() calls the program's main with the arguments ({}) and standard\n * input ({}) of the test.\n",
            comment_safe(&if args.is_empty() {
                "none".to_string()
            } else {
                args.join(" ")
            }),
            comment_safe(&if streams.stdin.is_empty() {
                "empty".to_string()
            } else {
                c_string_literal(&streams.stdin)
            })
        ));
    }
    s.push_str(" *\n * Inputs, in the order the program reads them:\n");
    for o in &test.objects {
        s.push_str(&format!(
            " *   {}: {} = {}\n",
            comment_safe(&o.name),
            comment_safe(&o.ty),
            comment_safe(&shown_value(o))
        ));
    }
    if test.objects.is_empty() {
        s.push_str(" *   (none)\n");
    }
    s.push_str(" */\n");
    s.push_str(PRELUDE);
    let mut table = Vec::new();
    let first = test.objects.len() - objects.len();
    for (k, o) in objects.iter().enumerate().map(|(k, o)| (k + first, o)) {
        let bytes = o.byte_values().ok_or_else(|| bad(o.name.clone()))?;
        let (decl, addr) = declare_input(k, o, &bytes);
        s.push_str(&decl);
        table.push(format!("  {{{addr}, {}}},", bytes.len()));
    }
    s.push_str(&format!(
        "\n/* The inputs in order: where each one's bytes are, how many. */\nstatic const struct {{ const void *bytes; size_t size; }} fpsym_inputs[] = {{\n{}\n  {{0, 0}}\n}};\nstatic const size_t fpsym_count = {};\n",
        table.join("\n"),
        table.len()
    ));
    s.push_str(NEXT);
    s.push_str(input_functions!());
    s.push_str(ERRORS);
    match &record.entry {
        EntryRecord::Function {
            function, params, ret, ..
        } => {
            let params = params.as_ref().ok_or_else(|| ReplayError::Undeclarable {
                dir: dir.to_path_buf(),
                function: function.clone(),
            })?;
            s.push_str(&harness_with(
                function,
                params,
                ret.as_deref().unwrap_or("void"),
                Ending::Reproducer,
                "",
            ));
        }
        EntryRecord::Main { .. } => {
            s.push_str(AT_EXIT);
            if has_streams(record) {
                s.push_str(&main_with_streams(&streams.args, &streams.stdin));
            }
        }
    }
    Ok(Reproducer { source: s, command })
}

/// A reproducer's `main` for a run with symbolic arguments or standard
/// input: the program's `main` (renamed by the build command) called with
/// the test's arguments after the program's name, standard input holding
/// the test's bytes (a pipe on descriptor 0, written by a child process;
/// empty: `/dev/null`, as replay gives it: `fstat` sees what the run
/// modelled).
fn main_with_streams(args: &[Vec<u8>], stdin: &[u8]) -> String {
    let mut s = String::from("\n#undef main\nint __fpsym_program_main(int, char **);\n");
    for (k, a) in args.iter().enumerate() {
        s.push_str(&format!(
            "static char fpsym_arg{}[] = {};\n",
            k + 1,
            c_string_literal(a)
        ));
    }
    s.push_str(&format!(
        "static const char fpsym_stdin[] = {};\nint main(int argc, char **argv) {{\n  (void)argc;\n",
        c_string_literal(stdin)
    ));
    let list: Vec<String> = (1..=args.len()).map(|k| format!("fpsym_arg{k}")).collect();
    s.push_str(&format!(
        "  char *args[] = {{argv[0], {}0}};\n",
        list.iter().map(|a| format!("{a}, ")).collect::<String>()
    ));
    if stdin.is_empty() {
        s.push_str(
            "  FILE *in = fopen(\"/dev/null\", \"r\");\n  if (!in || dup2(fileno(in), 0) < 0) { perror(\"fpsym reproducer: standard input\"); return 89; }\n",
        );
    } else {
        s.push_str(&format!(
            "  int fds[2];\n  if (pipe(fds) != 0 || dup2(fds[0], 0) < 0) {{ perror(\"fpsym reproducer: standard input\"); return 89; }}\n  \
             if (fork() == 0) {{ close(fds[0]); close(0); (void)!write(fds[1], fpsym_stdin, {}); _exit(0); }}\n  close(fds[0]);\n  close(fds[1]);\n",
            stdin.len()
        ));
    }
    s.push_str(&format!(
        "  return __fpsym_program_main({}, args);\n}}\n",
        args.len() + 1
    ));
    s
}

/// The reproducer's includes and its floating-point exception report.
const PRELUDE: &str = r#"
#define _GNU_SOURCE
#include <fenv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The floating-point exception flags in `fe`, on stdout. */
static void fpsym_report_fe(const char *when, int fe) {
  static const struct { int bit; const char *name; } names[] = {
    {FE_INVALID, "invalid"}, {FE_DIVBYZERO, "divide-by-zero"}, {FE_OVERFLOW, "overflow"},
    {FE_UNDERFLOW, "underflow"}, {FE_INEXACT, "inexact"}};
  printf("FP exceptions %s:", when);
  for (unsigned k = 0; k < sizeof names / sizeof names[0]; k++)
    if (fe & names[k].bit) printf(" %s", names[k].name);
  printf("%s\n", fe & FE_ALL_EXCEPT ? "" : " none");
  fflush(stdout);
}

/* -DFPSYM_TRAP=FE_OVERFLOW (or another FE_ flag): the first operation
   raising it stops the program with SIGFPE, where a debugger shows it. */
#ifdef FPSYM_TRAP
__attribute__((constructor)) static void fpsym_trap(void) { feenableexcept(FPSYM_TRAP); }
#endif

"#;

/// The reproducer's input source: the literals above, in order.
const NEXT: &str = r#"
static size_t fpsym_pos;
/* The next input's bytes and size (the replay driver reads the same from
   a file). */
static const unsigned char *fpsym_next(size_t *n) {
  if (fpsym_pos >= fpsym_count) {
    fprintf(stderr, "fpsym reproducer: out of inputs (the program asks for more than the test has)\n");
    exit(87);
  }
  *n = fpsym_inputs[fpsym_pos].size;
  return (const unsigned char *)fpsym_inputs[fpsym_pos++].bytes;
}
static void fpsym_dump(void) { fflush(stdout); }
"#;

/// `reach_error` and `__VERIFIER_error` of a reproducer.
const ERRORS: &str = r#"
void reach_error(void) {
  fprintf(stderr, "fpsym reproducer: reach_error() called\n");
  abort();
}
void __VERIFIER_error(void) {
  fprintf(stderr, "fpsym reproducer: __VERIFIER_error() called\n");
  abort();
}
"#;

/// A `main` program's reproducer reports the exception flags at exit.
const AT_EXIT: &str = r#"
static void fpsym_fe_at_exit(void) { fpsym_report_fe("at exit", fetestexcept(FE_ALL_EXCEPT)); }
__attribute__((constructor)) static void fpsym_at_exit(void) { atexit(fpsym_fe_at_exit); }
"#;

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(name: &str, ty: &str, bytes: &str, value: Option<&str>, hex: Option<&str>) -> TestObject {
        TestObject {
            name: name.into(),
            ty: ty.into(),
            bytes: bytes.into(),
            value: value.map(String::from),
            hex: hex.map(String::from),
            elements: vec![],
            site: None,
        }
    }

    #[test]
    fn classes_come_from_the_encoding() {
        let d = |x: f64| x.to_le_bytes().to_vec();
        let c = |b: &[u8], f| float_class(b, f).unwrap();
        assert_eq!(c(&d(1.5), Format::BINARY64), (FloatClass::Normal, None));
        assert_eq!(c(&d(-0.0), Format::BINARY64), (FloatClass::Zero, None));
        assert_eq!(c(&d(5e-324), Format::BINARY64), (FloatClass::Subnormal, None));
        assert_eq!(c(&d(f64::NEG_INFINITY), Format::BINARY64), (FloatClass::Infinite, None));
        assert_eq!(c(&d(f64::NAN), Format::BINARY64), (FloatClass::Nan, Some("quiet")));
        assert_eq!(
            c(&d(-f64::NAN), Format::BINARY64),
            (FloatClass::Nan, Some("quiet, negative"))
        );
        assert_eq!(
            c(&(-f32::NAN).to_le_bytes(), Format::BINARY32),
            (FloatClass::Nan, Some("quiet, negative"))
        );
        let snan = 0x7ff0_0000_0000_0001u64.to_le_bytes();
        assert_eq!(c(&snan, Format::BINARY64), (FloatClass::Nan, Some("signalling")));
        assert_eq!(c(&1e-40f32.to_le_bytes(), Format::BINARY32).0, FloatClass::Subnormal);
        assert_eq!(c(&[0x00, 0x3c], Format::BINARY16).0, FloatClass::Normal);
        assert_eq!(c(&[0x01, 0x00], Format::BINARY16).0, FloatClass::Subnormal);
        // x87: 1.0 is 0x3fff_8000000000000000; without the integer bit an unnormal.
        let one = [0, 0, 0, 0, 0, 0, 0, 0x80, 0xff, 0x3f];
        assert_eq!(c(&one, Format::X86_FP80), (FloatClass::Normal, None));
        let unnormal = [0, 0, 0, 0, 0, 0, 0, 0x00, 0xff, 0x3f];
        assert_eq!(c(&unnormal, Format::X86_FP80), (FloatClass::Nan, Some("unnormal")));
        let pseudo_denormal = [1, 0, 0, 0, 0, 0, 0, 0x80, 0, 0];
        assert_eq!(c(&pseudo_denormal, Format::X86_FP80).1, Some("pseudo-denormal"));
        let inf = [0, 0, 0, 0, 0, 0, 0, 0x80, 0xff, 0x7f];
        assert_eq!(c(&inf, Format::X86_FP80).0, FloatClass::Infinite);
        assert!(float_class(&[0; 3], Format::BINARY32).is_none());
        // Elements: from their exact hex-float and decimal.
        assert_eq!(element_class("double", "5e-1", "0x1p-1"), Some(FloatClass::Normal));
        assert_eq!(element_class("double", "-0e0", "-0x0p+0"), Some(FloatClass::Zero));
        assert_eq!(element_class("double", "inf", "inf"), Some(FloatClass::Infinite));
        assert_eq!(element_class("float", "nan", "nan"), Some(FloatClass::Nan));
        let sub = Float::from_f32(1e-40);
        assert_eq!(
            element_class("real32", &decimal(sub), &hex_float(sub)),
            Some(FloatClass::Subnormal)
        );
        assert_eq!(element_class("double", "1e0", "0x1p-1"), None);
        assert_eq!(element_class("int", "3", "0x1.8p+1"), None);
    }

    #[test]
    fn formats_by_name_or_by_value() {
        let b = 1.5f64.to_le_bytes();
        assert_eq!(scalar_format("double", &b, None), Some(Format::BINARY64));
        assert_eq!(scalar_format("real", &b, Some("1.5e0")), Some(Format::BINARY64));
        assert_eq!(scalar_format("real", &b, Some("2.5e0")), None);
        assert_eq!(scalar_format("float", &b, None), None);
        assert_eq!(scalar_format("int", &b, Some("3")), None);
        // 16 bytes: a long double or a __float128, as the value says.
        let ld = [0, 0, 0, 0, 0, 0, 0, 0xc0, 0xff, 0x3f, 0, 0, 0, 0, 0, 0];
        assert_eq!(scalar_format("long double", &ld, None), Some(Format::X86_FP80));
        assert_eq!(scalar_format("ld_t", &ld, Some("1.5e0")), Some(Format::X86_FP80));
    }

    #[test]
    fn hex_floats_read_back_exactly() {
        for x in [
            1.5f64,
            -0.0,
            0.0,
            5e-324,
            2.2250738585072014e-308,
            f64::MAX,
            -3.25e-310,
            0.1,
        ] {
            let f = Float::from_f64(x);
            assert_eq!(hex_float_value(&hex_float(f), Format::BINARY64), Some(f), "{x}");
        }
        for x in [1e-40f32, 3.4028235e38, -1.0] {
            let f = Float::from_f32(x);
            assert_eq!(hex_float_value(&hex_float(f), Format::BINARY32), Some(f), "{x}");
        }
        let inf = Float::infinity(Format::BINARY32, true);
        assert_eq!(hex_float_value("-inf", Format::BINARY32), Some(inf));
        assert_eq!(hex_float_value("nan", Format::BINARY64), None);
        // Not the canonical form, or not a value of the format.
        assert_eq!(hex_float_value("0x3p+0", Format::BINARY64), None);
        assert_eq!(hex_float_value("0x1.8000000000001p+0", Format::BINARY32), None);
        assert_eq!(hex_float_value("0x1p+1024", Format::BINARY64), None);
        assert_eq!(hex_float_value("0x1.80p+0", Format::BINARY64), None);
        assert_eq!(hex_float_value("1.5", Format::BINARY64), None);
    }

    #[test]
    fn literals_denote_the_bytes_exactly() {
        let (d, addr) = declare_input(
            0,
            &obj("x", "double", "000000000000f83f", Some("1.5e0"), Some("0x1.8p+0")),
            &1.5f64.to_le_bytes(),
        );
        assert!(d.contains("static const double fpsym_in0_x = 0x1.8p+0;"), "{d}");
        assert_eq!(addr, "&fpsym_in0_x");
        let b = (-7i32).to_le_bytes();
        let (d, _) = declare_input(1, &obj("n", "int", "f9ffffff", Some("-7"), None), &b);
        assert!(d.contains("static const int fpsym_in1_n = -7;"), "{d}");
        let b = i32::MIN.to_le_bytes();
        let (d, _) = declare_input(1, &obj("n", "i32", "00000080", Some("-2147483648"), None), &b);
        assert!(d.contains("= (-2147483647 - 1);"), "{d}");
        let b = 4000000001u32.to_le_bytes();
        let (d, _) = declare_input(2, &obj("u", "unsigned int", "01286bee", Some("4000000001"), None), &b);
        assert!(
            d.contains("static const unsigned int fpsym_in2_u = 4000000001u;"),
            "{d}"
        );
        let b = 5u64.to_le_bytes();
        let (d, _) = declare_input(3, &obj("s", "size_t", "", Some("5"), None), &b);
        assert!(d.contains("static const unsigned long long fpsym_in3_s = 5ULL;"), "{d}");
        let (d, _) = declare_input(3, &obj("s", "my_int", "", Some("-5"), None), &(-5i16).to_le_bytes());
        assert!(d.contains("static const int16_t fpsym_in3_s = -5;"), "{d}");
        let (d, _) = declare_input(
            4,
            &obj("f", "float", "", Some("-inf"), Some("-inf")),
            &f32::NEG_INFINITY.to_le_bytes(),
        );
        assert!(d.contains("static const float fpsym_in4_f = -__builtin_inff();"), "{d}");
        // A NaN keeps its sign and payload, quiet or signalling.
        let nan = 0x7ff4_0000_0000_0001u64.to_le_bytes();
        let (d, addr) = declare_input(5, &obj("y", "double", "", Some("nan"), Some("nan")), &nan);
        assert!(
            d.contains("static const double fpsym_in5_y = __builtin_nans(\"0x4000000000001\");"),
            "{d}"
        );
        assert_eq!(addr, "&fpsym_in5_y");
        let nan = 0xffc0_0000u32.to_le_bytes();
        let (d, _) = declare_input(5, &obj("y", "float", "", Some("nan"), Some("nan")), &nan);
        assert!(
            d.contains("static const float fpsym_in5_y = -__builtin_nanf(\"0x0\");"),
            "{d}"
        );
        // A long double NaN: its bytes.
        let mut ld = vec![0, 0, 0, 0, 0, 0, 0, 0xc0, 0xff, 0x7f];
        ld.resize(16, 0);
        let (d, _) = declare_input(5, &obj("y", "long double", "", Some("nan"), Some("nan")), &ld);
        assert!(d.contains("static const unsigned char fpsym_in5_y[16] = {"), "{d}");
        // A value that does not match its bytes (a hand-edited record): bytes.
        let (d, _) = declare_input(
            6,
            &obj("x", "double", "", Some("2.5e0"), Some("0x1.4p+1")),
            &1.5f64.to_le_bytes(),
        );
        assert!(d.contains("unsigned char fpsym_in6_x[8]"), "{d}");
        // A long double of 16 bytes, padding zero.
        let mut ld = vec![0, 0, 0, 0, 0, 0, 0, 0xc0, 0xff, 0x3f];
        ld.resize(16, 0);
        let (d, _) = declare_input(7, &obj("l", "long double", "", Some("1.5e0"), Some("0x1.8p+0")), &ld);
        assert!(d.contains("static const long double fpsym_in7_l = 0x1.8p+0L;"), "{d}");
        // As the run records it: one element of the same name.
        let mut o = obj("l", "long double bytes 0..16", "", None, None);
        o.elements = vec![fpsym_report::TestElement {
            name: "l".into(),
            ty: "long double".into(),
            value: "1.5e0".into(),
            hex: Some("0x1.8p+0".into()),
        }];
        let (d, addr) = declare_input(7, &o, &ld);
        assert!(d.contains("static const long double fpsym_in7_l = 0x1.8p+0L;"), "{d}");
        assert_eq!(addr, "&fpsym_in7_l");
    }

    #[test]
    fn arrays_of_one_type_are_initializers() {
        let elem = |name: &str, v: &str, h: &str| fpsym_report::TestElement {
            name: name.into(),
            ty: "double".into(),
            value: v.into(),
            hex: Some(h.into()),
        };
        let mut o = obj("q", "struct pt[1]", "", None, None);
        o.elements = vec![elem("q[0].x", "0e0", "0x0p+0"), elem("q[0].y", "5e-1", "0x1p-1")];
        let bytes: Vec<u8> = [0.0f64, 0.5].iter().flat_map(|x| x.to_le_bytes()).collect();
        let (d, addr) = declare_input(4, &o, &bytes);
        assert!(
            d.contains("static const double fpsym_in4_q[2] = {0x0p+0, 0x1p-1};"),
            "{d}"
        );
        assert!(d.contains("/* q[0].x, q[0].y */"), "{d}");
        assert_eq!(addr, "fpsym_in4_q");
        // Padding or other bytes than the elements say: bytes.
        let mut padded = bytes.clone();
        padded.extend([0; 8]);
        let (d, _) = declare_input(4, &o, &padded);
        assert!(d.contains("unsigned char fpsym_in4_q[24]"), "{d}");
        assert!(d.contains("q[0].x = 0e0 (0x0p+0), q[0].y = 5e-1 (0x1p-1)"), "{d}");
        let mut other = bytes.clone();
        other[15] = 0x40;
        let (d, _) = declare_input(4, &o, &other);
        assert!(d.contains("unsigned char fpsym_in4_q[16]"), "{d}");
        // A NaN element, from its bytes.
        o.elements[0] = elem("q[0].x", "nan", "nan");
        let bytes: Vec<u8> = [f64::from_bits(0xfff8_0000_0000_0000), 0.5]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let (d, _) = declare_input(4, &o, &bytes);
        assert!(d.contains("= {-__builtin_nan(\"0x0\"), 0x1p-1};"), "{d}");
    }

    #[test]
    fn commands_quote_what_the_shell_would_split() {
        let argv: Vec<String> = ["clang-14", "-DNAME=a b", "/x/it's.c", "-O0"]
            .map(String::from)
            .to_vec();
        assert_eq!(shell_line(&argv), r#"clang-14 '-DNAME=a b' '/x/it'\''s.c' -O0"#);
        assert_eq!(c_ident(2, "m.{id,flags}"), "fpsym_in2_m_id_flags");
        assert_eq!(c_ident(0, "q[0].x"), "fpsym_in0_q_0_x");
        assert_eq!(comment_safe("a */ b\nc"), "a *\\/ b c");
        assert_eq!(c_string_literal(b"5e2"), "\"5e2\"");
        assert_eq!(c_string_literal(b"a\"\\?\n\x001"), "\"a\\042\\134\\077\\012\\0001\"");
        let m = main_with_streams(&[b"2e2".to_vec()], b"#!\nx");
        assert!(m.contains("static char fpsym_arg1[] = \"2e2\";"), "{m}");
        assert!(m.contains("char *args[] = {argv[0], fpsym_arg1, 0};"), "{m}");
        assert!(m.contains("write(fds[1], fpsym_stdin, 4);"), "{m}");
        assert!(m.contains("return __fpsym_program_main(2, args);"), "{m}");
    }
}
