//! Native confirmation of critical values (`fpsym critical`): the
//! driver prints a float result's exact bits (`FPSYM-FRESULT:`), the
//! objects pointer parameters point to after the call (`FPSYM-ARG k:`,
//! with `-DFPSYM_DUMP_ARGS`) and, from a destructor this module adds, a
//! global variable's bytes at exit (`FPSYM-GLOBAL k:`, found through the
//! executable's symbol table when it is `static`); the floats read
//! from them are compared with the expected range's exact bounds.

use crate::classify::NativeRun;
use crate::confirm::Confirmation;
use fpsym_float::{Float, Format};
use fpsym_report::{Finding, FindingKind, Observed, Raised};
use num_rational::BigRational;

/// Finding kinds, as the engine's range checker names them (for the
/// first expectation of a run).
const BELOW: &str = "below-range";
const ABOVE: &str = "above-range";
const NAN: &str = "nan-result";

/// Which side of the range a confirmation is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Below,
    Above,
    Nan,
}

/// Where the values a range is about are, natively.
#[derive(Clone, Debug, PartialEq)]
pub enum Watched {
    /// The function's float result.
    Ret,
    /// Floats of the object parameter `index` (from 0, as the IR
    /// declares them) points to, after the call: (byte offset, format).
    Arg {
        /// The parameter's index.
        index: usize,
        /// The floats: byte offset and format.
        elements: Vec<(u64, Format)>,
    },
    /// Floats of a global variable when the program exits (a `static`
    /// one found by its name in the executable's symbol table; when the
    /// name is not there once, its findings stay unconfirmed).
    Global {
        /// Its symbol.
        name: String,
        /// Bytes to print.
        size: u64,
        /// The floats: byte offset and format.
        elements: Vec<(u64, Format)>,
    },
}

/// C code finding the address of the one object symbol named `name` in
/// the executable's ELF symbol table (null when none or several); defined
/// once however many globals are watched.
const FIND_SYMBOL: &str = r#"
#ifndef FPSYM_FIND_SYMBOL
#define FPSYM_FIND_SYMBOL
#include <elf.h>
static void *fpsym_find_symbol(const char *name) {
  FILE *f = fopen("/proc/self/exe", "rb");
  if (!f) return 0;
  Elf64_Ehdr eh; void *found = 0; int count = 0;
  if (fread(&eh, sizeof eh, 1, f) != 1 || eh.e_shentsize != sizeof(Elf64_Shdr)) { fclose(f); return 0; }
  Elf64_Shdr *sh = calloc(eh.e_shnum ? eh.e_shnum : 1, sizeof *sh);
  if (fseek(f, (long)eh.e_shoff, SEEK_SET) || fread(sh, sizeof *sh, eh.e_shnum, f) != eh.e_shnum) { free(sh); fclose(f); return 0; }
  for (unsigned i = 0; i < eh.e_shnum; i++) {
    if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh.e_shnum) continue;
    Elf64_Shdr *st = &sh[sh[i].sh_link];
    char *strs = malloc(st->sh_size + 1);
    size_t n = sh[i].sh_size / sizeof(Elf64_Sym);
    Elf64_Sym *syms = malloc(n ? n * sizeof *syms : 1);
    if (!fseek(f, (long)st->sh_offset, SEEK_SET) && fread(strs, 1, st->sh_size, f) == st->sh_size
        && !fseek(f, (long)sh[i].sh_offset, SEEK_SET) && fread(syms, sizeof *syms, n, f) == n) {
      strs[st->sh_size] = 0;
      for (size_t k = 0; k < n; k++)
        if (ELF64_ST_TYPE(syms[k].st_info) == STT_OBJECT && syms[k].st_name < st->sh_size
            && strcmp(strs + syms[k].st_name, name) == 0) { found = (void *)syms[k].st_value; count++; }
    }
    free(strs); free(syms);
  }
  free(sh); fclose(f);
  return count == 1 ? found : 0;
}
#endif
"#;

/// The result the driver printed, if it did.
fn result(run: &NativeRun) -> Option<f64> {
    let bits = run.marker("FPSYM-FRESULT: ")?;
    u64::from_str_radix(bits.trim(), 16).ok().map(f64::from_bits)
}

/// The bytes of a hex string.
fn bytes_of(hex: &str) -> Option<Vec<u8>> {
    let hex = hex.trim();
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

/// The floats at `elements` of little-endian `bytes`.
fn floats(bytes: &[u8], elements: &[(u64, Format)]) -> Option<Vec<Float>> {
    elements
        .iter()
        .map(|(off, f)| {
            let n = f.width().div_ceil(8) as u64;
            let b = bytes.get(*off as usize..(off + n) as usize)?;
            let raw = b.iter().rev().fold(0u128, |acc, x| (acc << 8) | *x as u128);
            Some(Float::from_bits(*f, raw))
        })
        .collect()
}

/// Where `x` lies against `[lo, hi]`, if outside.
fn outside(x: Float, lo: Option<&BigRational>, hi: Option<&BigRational>) -> Option<Side> {
    if x.is_nan() {
        return Some(Side::Nan);
    }
    let below = |b: &BigRational| match x.to_rational() {
        Some(q) => q < *b,
        None => x.is_negative(),
    };
    let above = |b: &BigRational| match x.to_rational() {
        Some(q) => q > *b,
        None => !x.is_negative(),
    };
    if lo.is_some_and(below) {
        Some(Side::Below)
    } else if hi.is_some_and(above) {
        Some(Side::Above)
    } else {
        None
    }
}

/// A value below, above, or NaN against the expected range: the native
/// run's value is so (its exact value against the exact bounds); for an
/// object, some float of it is.
pub struct ResultRange {
    kind: String,
    side: Side,
    lo: Option<BigRational>,
    hi: Option<BigRational>,
    watched: Watched,
    /// Tells this range's markers from another's (its place in the run).
    tag: usize,
}

impl ResultRange {
    /// The three confirmations (below, above, NaN) of `[lo, hi]` for the
    /// function's result, with the first expectation's kinds.
    pub fn all(lo: Option<BigRational>, hi: Option<BigRational>) -> Vec<ResultRange> {
        ResultRange::sides([BELOW, ABOVE, NAN].map(String::from), lo, hi, Watched::Ret, 0)
    }

    /// The three confirmations of `[lo, hi]` for `watched`, with finding
    /// kinds `kinds` (below, above, NaN); `tag` tells this expectation
    /// from the run's others.
    pub fn sides(
        kinds: [String; 3],
        lo: Option<BigRational>,
        hi: Option<BigRational>,
        watched: Watched,
        tag: usize,
    ) -> Vec<ResultRange> {
        kinds
            .into_iter()
            .zip([Side::Below, Side::Above, Side::Nan])
            .map(|(kind, side)| ResultRange {
                kind,
                side,
                lo: lo.clone(),
                hi: hi.clone(),
                watched: watched.clone(),
                tag,
            })
            .collect()
    }

    /// The values the native run shows (None: it does not show them).
    fn values(&self, run: &NativeRun) -> Option<Vec<Float>> {
        match &self.watched {
            Watched::Ret => match run.marker("FPSYM-LRESULT: ") {
                Some(hex) => floats(&bytes_of(hex)?, &[(0, Format::X86_FP80)]),
                None => result(run).map(|x| vec![Float::from_f64(x)]),
            },
            Watched::Arg { index, elements } => {
                let hex = run
                    .stderr
                    .lines()
                    .find_map(|l| l.strip_prefix(&format!("FPSYM-ARG {index}: ")))?;
                floats(&bytes_of(hex)?, elements)
            }
            Watched::Global { elements, .. } => {
                let hex = run.marker(&format!("FPSYM-GLOBAL {}: ", self.tag))?;
                floats(&bytes_of(hex)?, elements)
            }
        }
    }
}

impl Confirmation for ResultRange {
    fn kind(&self) -> FindingKind {
        FindingKind::Custom(self.kind.clone())
    }
    fn driver_cflags(&self) -> Vec<String> {
        match self.watched {
            Watched::Arg { .. } => vec!["-DFPSYM_DUMP_ARGS".into()],
            _ => Vec::new(),
        }
    }
    fn driver_code(&self) -> String {
        let Watched::Global { name, size, .. } = &self.watched else {
            return String::new();
        };
        // A weak reference: null when the program has no such external
        // symbol (a `static` global), which is then looked up by name in
        // the executable's symbol table (a fixed address: the replay build
        // is not position-independent).
        let t = self.tag;
        let name = name.replace(['"', '\\'], "");
        format!(
            "{FIND_SYMBOL}\nextern unsigned char fpsym_global_{t}[] __asm__(\"{name}\") __attribute__((weak));\n\
             __attribute__((destructor)) static void fpsym_print_global_{t}(void) {{\n\
             \x20 unsigned char *volatile p = fpsym_global_{t};\n\
             \x20 if (!p) p = fpsym_find_symbol(\"{name}\");\n\
             \x20 if (!p) return;\n\
             \x20 fprintf(stderr, \"FPSYM-GLOBAL {t}: \");\n\
             \x20 for (unsigned long i = 0; i < {size}UL; i++) fprintf(stderr, \"%02x\", p[i]);\n\
             \x20 fprintf(stderr, \"\\n\");\n\
             }}\n"
        )
    }
    fn raised(&self, run: &NativeRun, _symbolize: &dyn Fn(&str) -> Option<(String, u32)>) -> Vec<Raised> {
        let shown = self.values(run).is_some_and(|vs| {
            vs.into_iter()
                .any(|x| outside(x, self.lo.as_ref(), self.hi.as_ref()) == Some(self.side))
        });
        if shown {
            vec![Raised {
                kind: self.kind(),
                file: None,
                line: None,
            }]
        } else {
            Vec::new()
        }
    }
    fn confirms(&self, finding: &Finding, o: &Observed) -> bool {
        o.raised.iter().any(|r| r.kind == finding.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_placed_exactly_against_the_bounds() {
        let lo = fpsym_float::parse_decimal("1000000000.01");
        let hi = fpsym_float::parse_decimal("26.00001");
        let f = |x: f64| Float::from_f64(x);
        assert_eq!(outside(f(1e9), lo.as_ref(), None), Some(Side::Below));
        assert_eq!(outside(f(1000000064.0), lo.as_ref(), None), None);
        // The float nearest 26.00001 is below it; the next one is above.
        assert_eq!(outside(f(26.00001f32 as f64), None, hi.as_ref()), None);
        let next = f32::from_bits(26.00001f32.to_bits() + 1);
        assert_eq!(outside(f(next as f64), None, hi.as_ref()), Some(Side::Above));
        assert_eq!(outside(f(26.0), None, hi.as_ref()), None);
        assert_eq!(outside(f(f64::NAN), None, None), Some(Side::Nan));
        assert_eq!(outside(f(f64::NEG_INFINITY), lo.as_ref(), None), Some(Side::Below));
        assert_eq!(outside(f(f64::INFINITY), None, hi.as_ref()), Some(Side::Above));
    }

    #[test]
    fn objects_are_read_as_little_endian_floats() {
        // 1.5f, then the double -2.
        let mut b = 1.5f32.to_le_bytes().to_vec();
        b.extend([0; 4]);
        b.extend((-2.0f64).to_le_bytes());
        let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
        let got = floats(
            &bytes_of(&hex).unwrap(),
            &[(0, Format::BINARY32), (8, Format::BINARY64)],
        )
        .unwrap();
        assert_eq!(got, vec![Float::from_f32(1.5), Float::from_f64(-2.0)]);
        assert!(floats(&b, &[(12, Format::BINARY64)]).is_none());
        assert!(bytes_of("abc").is_none());
    }
}
