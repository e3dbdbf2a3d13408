//! The textual IR (`llvm-dis-14` output) of the final module, cut into
//! function bodies, basic blocks and instructions, and global variable
//! definitions.
//!
//! llvm-ir 0.11 keeps no value for `x86_fp80`, `fp128`, `half` and `bfloat`
//! constants; llvm-dis prints them exactly as hexadecimal tokens (`0xK…`,
//! `0xL…`, `0xH…`, `0xR…`). It keeps only the low 64 bits of integer
//! constants wider than 64 bits; llvm-dis prints them in decimal. This
//! module finds those tokens per instruction and per global initializer, in
//! textual order. The caller checks that the
//! shape (blocks, instructions, number and kinds of constants) agrees with
//! what llvm-ir loaded, so a disagreement is an error, never a guess.

use crate::special::{SpecialConst, SpecialFloat, MAX_WIDE_INT};

/// One function definition of the textual IR.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TextFunction {
    /// The function's name (without `@`, quotes and escapes decoded).
    pub name: String,
    /// Per basic block, the text of each instruction (the terminator last);
    /// a multi-line instruction (`switch`) is joined with single spaces.
    pub blocks: Vec<Vec<String>>,
}

/// One global variable definition or declaration of the textual IR.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TextGlobal {
    /// The global's name (without `@`; numbered globals as decimal strings).
    pub name: String,
    /// The line's text after the `=`.
    pub text: String,
}

/// The parts of a textual module that the frontend uses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct TextModule {
    /// Function definitions in module order.
    pub functions: Vec<TextFunction>,
    /// Global variables (not aliases or ifuncs) in module order.
    pub globals: Vec<TextGlobal>,
}

/// Depth change of `(`, `[`, `{` on a line, outside quoted strings.
fn bracket_delta(line: &str) -> i64 {
    let mut depth = 0i64;
    let mut in_quote = false;
    for c in line.chars() {
        match c {
            '"' => in_quote = !in_quote,
            '(' | '[' | '{' if !in_quote => depth += 1,
            ')' | ']' | '}' if !in_quote => depth -= 1,
            ';' if !in_quote => break,
            _ => {}
        }
    }
    depth
}

/// Reads an LLVM identifier after a sigil (`@` or `%`): a quoted name with
/// `\XX` escapes or a bare name. Returns the decoded name and the rest.
fn read_name(s: &str) -> Option<(String, &str)> {
    if let Some(rest) = s.strip_prefix('"') {
        let end = rest.find('"')?;
        let raw = &rest[..end];
        let mut bytes = Vec::with_capacity(raw.len());
        let b = raw.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'\\' && i + 2 < b.len() {
                let hex = std::str::from_utf8(&b[i + 1..i + 3]).ok()?;
                bytes.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            } else {
                bytes.push(b[i]);
                i += 1;
            }
        }
        Some((String::from_utf8_lossy(&bytes).into_owned(), &rest[end + 1..]))
    } else {
        let end = s
            .find(|c: char| !(c.is_ascii_alphanumeric() || "-$._".contains(c)))
            .unwrap_or(s.len());
        if end == 0 {
            return None;
        }
        Some((s[..end].to_string(), &s[end..]))
    }
}

/// Is `line` a basic block label (`name:` or `"quoted":`, maybe followed by a
/// `; preds` comment)?
fn is_label(line: &str) -> bool {
    if line.starts_with(char::is_whitespace) || line.is_empty() {
        return false;
    }
    let mut in_quote = false;
    let mut end = line.len();
    for (i, c) in line.char_indices() {
        match c {
            '"' => in_quote = !in_quote,
            ';' if !in_quote => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    line[..end].trim_end().ends_with(':')
}

/// Cuts llvm-dis output into functions, blocks, instructions and globals.
pub(crate) fn parse_module(text: &str) -> Result<TextModule, String> {
    let mut module = TextModule::default();
    let mut lines = text.lines().enumerate();
    while let Some((lineno, line)) = lines.next() {
        if let Some(rest) = line.strip_prefix('@') {
            let (name, after) =
                read_name(rest).ok_or_else(|| format!("line {}: cannot read a global's name", lineno + 1))?;
            let after = after.trim_start();
            let Some(after) = after.strip_prefix('=') else { continue };
            let kind = after
                .split_whitespace()
                .find(|w| matches!(*w, "global" | "constant" | "alias" | "ifunc"));
            if matches!(kind, Some("global" | "constant")) {
                module.globals.push(TextGlobal {
                    name,
                    text: after.to_string(),
                });
            }
            continue;
        }
        if !line.starts_with("define ") {
            continue;
        }
        let at = line
            .find('@')
            .ok_or_else(|| format!("line {}: `define` without a name", lineno + 1))?;
        let (name, _) =
            read_name(&line[at + 1..]).ok_or_else(|| format!("line {}: cannot read a function's name", lineno + 1))?;
        let mut blocks: Vec<Vec<String>> = Vec::new();
        let mut current: Option<Vec<String>> = None;
        let mut closed = false;
        while let Some((lineno, line)) = lines.next() {
            if line == "}" {
                closed = true;
                break;
            }
            if line.trim().is_empty() || line.trim_start().starts_with(';') {
                continue;
            }
            if is_label(line) {
                if let Some(b) = current.take() {
                    blocks.push(b);
                }
                current = Some(Vec::new());
                continue;
            }
            let trimmed = line.trim();
            if trimmed.starts_with("uselistorder") {
                continue;
            }
            let mut instr = trimmed.to_string();
            let mut depth = bracket_delta(line);
            while depth > 0 {
                let (_, more) = lines
                    .next()
                    .ok_or_else(|| format!("line {}: unterminated instruction", lineno + 1))?;
                instr.push(' ');
                instr.push_str(more.trim());
                depth += bracket_delta(more);
            }
            current.get_or_insert_with(Vec::new).push(instr);
        }
        if !closed {
            return Err(format!("function @{name}: no closing `}}`"));
        }
        if let Some(b) = current.take() {
            blocks.push(b);
        }
        module.functions.push(TextFunction { name, blocks });
    }
    Ok(module)
}

/// Is `b` a character that can continue an LLVM identifier or number?
fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-$._".contains(&b)
}

/// The index just past the quoted string that starts at `i` (its `"`).
fn skip_quoted(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < b.len() && b[i] != b'"' {
        i += 1;
    }
    i + 1
}

/// The end of a `metadata` argument starting at `i`: the index of the `,`
/// or `)` that ends it (or the end of the text).
fn skip_metadata(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0i64;
    let mut in_quote = false;
    while i < b.len() {
        match b[i] {
            b'"' => in_quote = !in_quote,
            b'(' | b'[' | b'{' if !in_quote => depth += 1,
            b')' | b']' | b'}' if !in_quote => {
                if depth == 0 {
                    break;
                }
                depth -= 1;
            }
            b',' if !in_quote && depth == 0 => break,
            _ => {}
        }
        i += 1;
    }
    i
}

/// Keywords whose integer argument is not a constant operand (`align 16`,
/// `dereferenceable(16)`, ...).
const INT_ATTRIBUTES: &[&str] = &[
    "align",
    "alignstack",
    "addrspace",
    "allocsize",
    "dereferenceable",
    "dereferenceable_or_null",
    "vscale_range",
];

/// Type keywords that end an integer type's scope.
const OTHER_TYPES: &[&str] = &[
    "void",
    "half",
    "bfloat",
    "float",
    "double",
    "x86_fp80",
    "fp128",
    "ppc_fp128",
    "x86_mmx",
    "x86_amx",
    "label",
    "metadata",
    "token",
    "ptr",
    "opaque",
];

/// The integer constants wider than 64 bits (and at most
/// [`MAX_WIDE_INT`]) in one instruction's or global's text, in textual
/// order, as (width, value modulo 2^width).
///
/// llvm-dis prints an integer constant in decimal after its type, or, for
/// an instruction's later operands, after the type printed with the first
/// (`add i128 %x, -1`, `icmp eq i128 %x, 5`, `phi i128 [ 5, %bb ]`): a
/// decimal token belongs to the last integer type printed before it, unless
/// an attribute (`align 16`) or an aggregate's length (`[2 x i128]`) owns
/// it. The caller checks the result against llvm-ir's constants (their
/// number, widths and low 64 bits), so a misreading is detected, not used.
pub(crate) fn scan_wide_ints(text: &str) -> Vec<(u32, u128)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut ty: Option<u32> = None;
    let mut prev = "";
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' {
            i = skip_quoted(b, i);
            prev = "";
            continue;
        }
        if !is_ident_byte(c) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && is_ident_byte(b[i]) {
            i += 1;
        }
        let tok = &text[start..i];
        if start > 0 && b"%@!#^$".contains(&b[start - 1]) {
            // A name: a register, global, label, metadata or attribute group.
            prev = "";
            continue;
        }
        if tok == "metadata" {
            i = skip_metadata(b, i);
            ty = None;
            prev = "";
            continue;
        }
        let rest = text[i..].trim_start();
        if let Some(w) = tok.strip_prefix('i').and_then(|d| d.parse::<u32>().ok()) {
            // `i128*` is a pointer type.
            ty = (!rest.starts_with('*')).then_some(w);
        } else if OTHER_TYPES.contains(&tok) {
            ty = None;
        } else if let (Some(w), Some(v)) = (ty, parse_decimal(tok)) {
            let length = rest.starts_with("x ");
            if !length && !INT_ATTRIBUTES.contains(&prev) && (65..=MAX_WIDE_INT).contains(&w) {
                let mask = if w == 128 { u128::MAX } else { (1u128 << w) - 1 };
                out.push((w, v & mask));
            }
        }
        prev = tok;
    }
    out
}

/// A decimal integer token (`5`, `-1`), as its two's complement in 128 bits.
fn parse_decimal(tok: &str) -> Option<u128> {
    let digits = tok.strip_prefix('-').unwrap_or(tok);
    if digits.is_empty() || !digits.bytes().all(|d| d.is_ascii_digit()) {
        return None;
    }
    if tok.starts_with('-') {
        let m: u128 = digits.parse().ok()?;
        (m <= 1u128 << 127).then(|| m.wrapping_neg())
    } else {
        digits.parse().ok()
    }
}

/// The special floating-point constants in one instruction's or global's
/// text, in textual order. Quoted strings and `metadata` arguments (which
/// llvm-ir keeps as opaque `MetadataOperand`s) are skipped; a `0xM`
/// (ppc_fp128) token is an error.
pub(crate) fn scan_specials(text: &str) -> Result<Vec<SpecialConst>, String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' {
            i = skip_quoted(b, i);
            continue;
        }
        let at_word_start = i == 0 || !is_ident_byte(b[i - 1]);
        if at_word_start && text[i..].starts_with("metadata ") {
            i = skip_metadata(b, i);
            continue;
        }
        if at_word_start && c == b'0' && i + 2 < b.len() && b[i + 1] == b'x' {
            let (ty, digits) = match b[i + 2] {
                b'K' => (Some(SpecialFloat::X86Fp80), 20),
                b'L' => (Some(SpecialFloat::Fp128), 32),
                b'H' => (Some(SpecialFloat::Half), 4),
                b'R' => (Some(SpecialFloat::BFloat), 4),
                b'M' => return Err("ppc_fp128 constants are not supported".to_string()),
                _ => (None, 0),
            };
            if let Some(ty) = ty {
                let start = i + 3;
                let end = start + digits;
                let hex = text.get(start..end).ok_or("truncated hexadecimal float")?;
                let hex_ok = hex.bytes().all(|d| d.is_ascii_hexdigit());
                let boundary = end == b.len() || !is_ident_byte(b[end]);
                if !hex_ok || !boundary {
                    return Err(format!("malformed hexadecimal float near `{}`", &text[i..]));
                }
                let raw = u128::from_str_radix(hex, 16).map_err(|e| e.to_string())?;
                let bits = match ty {
                    // LLVM prints binary128 as 0xL, the low 64 bits first.
                    SpecialFloat::Fp128 => raw.rotate_right(64),
                    _ => raw,
                };
                out.push(SpecialConst { ty, bits });
                i = end;
                continue;
            }
        }
        i += 1;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"; ModuleID = 'x.bc'
@a = dso_local global x86_fp80 0xK3FFF8CCCCCCCCCCCCCCD, align 16, !dbg !0
@"odd name" = internal constant [2 x half] [half 0xH3C00, half 0xH4000]
@s = private unnamed_addr constant [6 x i8] c"0xK12\00", align 1
@al = dso_local alias i32, i32* @x
@0 = private global fp128 0xL999999999999999A3FFF199999999999

define dso_local i32 @f(i32 noundef %0) #0 !dbg !35 {
  call void @llvm.dbg.value(metadata half 0xH3C66, metadata !39, metadata !DIExpression()), !dbg !40
  switch i32 %0, label %4 [
    i32 1, label %2
    i32 2, label %3
  ], !dbg !41

2:                                                ; preds = %1
  %x = fadd x86_fp80 0xK3FFF8000000000000000, 0xK4000C000000000000000
  br label %4

"quoted label":                                  ; preds = %2
  ret i32 0
}

define internal void @"\01g"() {
entry:
  ret void
}
"#;

    #[test]
    fn cuts_functions_blocks_and_globals() {
        let m = parse_module(SAMPLE).unwrap();
        assert_eq!(m.functions.len(), 2);
        let f = &m.functions[0];
        assert_eq!(f.name, "f");
        assert_eq!(f.blocks.len(), 3);
        assert_eq!(f.blocks[0].len(), 2);
        assert!(f.blocks[0][1].starts_with("switch i32 %0, label %4 [ i32 1"));
        assert!(f.blocks[0][1].ends_with("], !dbg !41"));
        assert_eq!(f.blocks[1].len(), 2);
        assert_eq!(f.blocks[2], vec!["ret i32 0".to_string()]);
        assert_eq!(m.functions[1].name, "\u{1}g");
        assert_eq!(m.functions[1].blocks.len(), 1);
        let names: Vec<_> = m.globals.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(names, ["a", "odd name", "s", "0"]);
    }

    #[test]
    fn scans_wide_integer_constants_in_their_types_scope() {
        let wide = |t: &str| scan_wide_ints(t);
        let m128 = u128::MAX;
        assert_eq!(wide("add nsw i128 %4, -1, !dbg !12"), [(128, m128)]);
        assert_eq!(wide("icmp eq i128 %0, 18446744073709551616"), [(128, 1u128 << 64)]);
        assert_eq!(
            wide(
                "switch i128 %0, label %4 [ i128 -170141183460469231731687303715884105728, label %2 i128 7, label %3 ]"
            ),
            [(128, 1u128 << 127), (128, 7)]
        );
        assert_eq!(wide("phi i128 [ 5, %3 ], [ %x, %4 ]"), [(128, 5)]);
        assert_eq!(wide("select i1 %c, i128 5, i128 -2"), [(128, 5), (128, m128 - 1)]);
        // i65..i127 wrap at their own width.
        assert_eq!(wide("and i100 %x, -1"), [(100, (1u128 << 100) - 1)]);
        // Not constants of a wide type: other types' literals, attributes,
        // aggregate lengths, names, pointers, metadata, strings.
        assert!(wide("alloca i128, align 16").is_empty());
        assert!(wide("store i32 5, i32* %p, align 4").is_empty());
        assert!(wide("store i128 %v, i128* %p, align 16").is_empty());
        assert!(wide("getelementptr inbounds [4 x i128], [4 x i128]* %a, i64 0, i64 3").is_empty());
        assert!(wide("call void @g(i128* noundef nonnull align 16 dereferenceable(16) %p, i32 1)").is_empty());
        assert!(wide("call void @llvm.dbg.value(metadata i128 5, metadata !39, metadata !DIExpression())").is_empty());
        assert!(wide("store i128 %x, i128* @\"12\", align 16").is_empty());
        assert_eq!(
            wide("insertvalue { i128, [2 x i128] } %s, [2 x i128] [i128 1, i128 2], 0"),
            [(128, 1), (128, 2), (128, 0)],
            "an insertvalue's trailing index reads as one more constant: the pairing's count check refuses the line"
        );
        assert_eq!(wide("call i128 @f(i32 noundef 1, i128 noundef 9)"), [(128, 9)]);
        assert!(wide("fadd double 1.000000e+00, %x").is_empty());
        assert!(wide("c\"i128 5\"").is_empty());
    }

    #[test]
    fn scans_special_constants_in_order() {
        let m = parse_module(SAMPLE).unwrap();
        let f = &m.functions[0];
        // The metadata argument of llvm.dbg.value is skipped.
        assert!(scan_specials(&f.blocks[0][0]).unwrap().is_empty());
        let c = scan_specials(&f.blocks[1][0]).unwrap();
        assert_eq!(
            c,
            [
                SpecialConst {
                    ty: SpecialFloat::X86Fp80,
                    bits: 0x3FFF_8000_0000_0000_0000
                },
                SpecialConst {
                    ty: SpecialFloat::X86Fp80,
                    bits: 0x4000_C000_0000_0000_0000
                },
            ]
        );
        let g: Vec<_> = m.globals.iter().map(|g| scan_specials(&g.text).unwrap()).collect();
        assert_eq!(
            g[0],
            [SpecialConst {
                ty: SpecialFloat::X86Fp80,
                bits: 0x3FFF_8CCC_CCCC_CCCC_CCCD
            }]
        );
        assert_eq!(
            g[1],
            [
                SpecialConst {
                    ty: SpecialFloat::Half,
                    bits: 0x3C00
                },
                SpecialConst {
                    ty: SpecialFloat::Half,
                    bits: 0x4000
                }
            ]
        );
        assert!(g[2].is_empty(), "tokens inside strings are not constants");
        assert_eq!(
            g[3],
            [SpecialConst {
                ty: SpecialFloat::Fp128,
                bits: 0x3FFF_1999_9999_9999_9999_9999_9999_999A
            }]
        );
    }

    #[test]
    fn rejects_malformed_and_ppc_tokens() {
        assert!(scan_specials("fadd ppc_fp128 %a, 0xM00000000000000000000000000000000").is_err());
        assert!(scan_specials("fadd x86_fp80 %a, 0xK3FFF").is_err());
        assert!(scan_specials("%a0xK3FFF8000000000000000 = fadd").unwrap().is_empty());
        assert_eq!(scan_specials("double 0x3FF0000000000000").unwrap(), []);
    }
}
