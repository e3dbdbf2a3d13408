//! The replay driver: C code linked before the program that feeds it a
//! test's inputs, stands in for `reach_error` and the verifier intrinsics,
//! and (for `--function` runs) calls the entry function.

use fpsym_report::TestObject;

/// The driver: inputs come from the file named by FPSYM_TEST, a sequence of
/// (u32 little-endian length, bytes) records in the order the program read
/// them during symbolic execution.
pub(crate) const DRIVER: &str = r#"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Coverage profiles are written at exit; runs that end in _exit or in a
   sanitizer report write them here instead. */
extern int __llvm_profile_write_file(void) __attribute__((weak));
extern void __sanitizer_set_death_callback(void (*)(void)) __attribute__((weak));
static void fpsym_dump(void) { if (__llvm_profile_write_file) __llvm_profile_write_file(); }
__attribute__((constructor)) static void fpsym_init(void) {
  if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(fpsym_dump);
}

static unsigned char *fpsym_buf;
static size_t fpsym_len, fpsym_pos;

static const unsigned char *fpsym_next(size_t *n) {
  if (!fpsym_buf) {
    const char *path = getenv("FPSYM_TEST");
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f) { fprintf(stderr, "FPSYM-REPLAY: cannot open FPSYM_TEST\n"); _exit(89); }
    fseek(f, 0, SEEK_END); long size = ftell(f); fseek(f, 0, SEEK_SET);
    fpsym_buf = malloc(size > 0 ? (size_t)size : 1);
    fpsym_len = fread(fpsym_buf, 1, (size_t)size, f);
    fclose(f);
  }
  if (fpsym_pos + 4 > fpsym_len) { fprintf(stderr, "FPSYM-REPLAY: out of inputs\n"); _exit(87); }
  uint32_t k; memcpy(&k, fpsym_buf + fpsym_pos, 4); fpsym_pos += 4;
  const unsigned char *d = fpsym_buf + fpsym_pos; fpsym_pos += k; *n = k;
  return d;
}

void klee_make_symbolic(void *p, size_t n, const char *name) {
  (void)name; size_t k; const unsigned char *d = fpsym_next(&k); memcpy(p, d, k < n ? k : n);
}
#define FPSYM_NONDET(T, N) T __VERIFIER_nondet_##N(void) { T v; memset(&v, 0, sizeof v); size_t k; \
  const unsigned char *d = fpsym_next(&k); memcpy(&v, d, k < sizeof v ? k : sizeof v); return v; }
FPSYM_NONDET(_Bool, bool) FPSYM_NONDET(char, char) FPSYM_NONDET(unsigned char, uchar)
FPSYM_NONDET(short, short) FPSYM_NONDET(unsigned short, ushort) FPSYM_NONDET(int, int)
FPSYM_NONDET(unsigned int, uint) FPSYM_NONDET(long, long) FPSYM_NONDET(unsigned long, ulong)
FPSYM_NONDET(long long, longlong) FPSYM_NONDET(unsigned long long, ulonglong)
FPSYM_NONDET(float, float) FPSYM_NONDET(double, double) FPSYM_NONDET(void *, pointer)
int klee_int(const char *name) { (void)name; int v = 0; size_t k; const unsigned char *d = fpsym_next(&k); memcpy(&v, d, k < 4 ? k : 4); return v; }
int klee_range(int lo, int hi, const char *name) { (void)lo; (void)hi; return klee_int(name); }
/* time and clock are inputs of the run (any value is possible). */
#include <time.h>
time_t time(time_t *t) { time_t v = 0; size_t k; const unsigned char *d = fpsym_next(&k);
  memcpy(&v, d, k < sizeof v ? k : sizeof v); if (t) *t = v; return v; }
clock_t clock(void) { clock_t v = 0; size_t k; const unsigned char *d = fpsym_next(&k);
  memcpy(&v, d, k < sizeof v ? k : sizeof v); return v; }
static void fpsym_assume(int c) { if (!c) { fprintf(stderr, "FPSYM-REPLAY: assumption violated\n"); fpsym_dump(); _exit(88); } }
void klee_assume(uintptr_t c) { fpsym_assume(c != 0); }
void __VERIFIER_assume(int c) { fpsym_assume(c); }
void klee_silent_exit(int s) { (void)s; fpsym_dump(); _exit(0); }
__attribute__((noinline)) void __fpsym_reach_error(void) {
  fprintf(stderr, "FPSYM-REPLAY: reach_error %p\n", (void *)((char *)__builtin_return_address(0) - 1));
  fflush(stderr); fpsym_dump(); _exit(86);
}
__attribute__((noinline)) void __fpsym_verifier_error(void) {
  fprintf(stderr, "FPSYM-REPLAY: reach_error %p\n", (void *)((char *)__builtin_return_address(0) - 1));
  fflush(stderr); fpsym_dump(); _exit(86);
}
"#;

/// The symbols of the program renamed so that the driver's definitions win:
/// `reach_error`, `__VERIFIER_error`, and for `--function` runs `main` (the
/// driver's main calls the function).
pub(crate) fn renames(function_run: bool) -> Vec<(&'static str, &'static str)> {
    let mut renames = vec![
        ("reach_error", "__fpsym_reach_error"),
        ("__VERIFIER_error", "__fpsym_verifier_error"),
    ];
    if function_run {
        renames.push(("main", "__fpsym_program_main"));
    }
    renames
}

/// The driver's `main` for a `--function` run: each parameter's input in
/// order (scalars by value, pointers to a copy of their object's bytes),
/// then the call. An integer result becomes the exit status, as the run
/// records it (`exit N`: the entry function's result), and is printed
/// whole on stderr (`FPSYM-RESULT: N`); a float or double result is
/// printed as its double's bits (`FPSYM-FRESULT: 16 hex digits`), a long
/// double one as its x87 bytes (`FPSYM-LRESULT: 20 hex digits`); other
/// results exit 0. Built with `-DFPSYM_DUMP_ARGS` (a confirmation about
/// out-parameters asks for it), the object each pointer parameter points
/// to is printed in hex after the call (`FPSYM-ARG k: bytes`, its first
/// MiB): what the function left there. (Not always: a function may free
/// its argument.)
pub(crate) fn harness(f: &str, params: &[String], ret: &str) -> String {
    // Struct types (for byval parameters) are named once, so that the
    // prototype and the local are the same type.
    let mut s = String::from("\n#undef main\n");
    let params: Vec<String> = params
        .iter()
        .enumerate()
        .map(|(k, t)| {
            if t.starts_with("struct {") {
                s.push_str(&format!("typedef {t} fpsym_arg{k};\n"));
                format!("fpsym_arg{k}")
            } else {
                t.to_string()
            }
        })
        .collect();
    let list = if params.is_empty() {
        "void".to_string()
    } else {
        params.join(", ")
    };
    s.push_str(&format!("{ret} {f}({list});\n"));
    s.push_str(
        "#ifdef FPSYM_DUMP_ARGS\nstatic void fpsym_print_arg(int k, const void *p, size_t n) {\n  const unsigned char *b = p;\n  fprintf(stderr, \"FPSYM-ARG %d: \", k);\n  for (size_t i = 0; i < n && i < (1u << 20); i++) fprintf(stderr, \"%02x\", b[i]);\n  fprintf(stderr, \"\\n\");\n}\n#endif\n",
    );
    s.push_str("int main(void) {\n");
    let mut args = Vec::new();
    let mut dump = String::new();
    for (k, t) in params.iter().enumerate() {
        if t == "void *" {
            s.push_str(&format!(
                "  size_t n{k}; const unsigned char *d{k} = fpsym_next(&n{k});\n  void *a{k} = malloc(n{k} ? n{k} : 1); memcpy(a{k}, d{k}, n{k});\n"
            ));
            dump.push_str(&format!(
                "#ifdef FPSYM_DUMP_ARGS\n  fpsym_print_arg({k}, a{k}, n{k});\n#endif\n"
            ));
        } else {
            s.push_str(&format!(
                "  {t} a{k}; memset(&a{k}, 0, sizeof a{k});\n  {{ size_t n; const unsigned char *d = fpsym_next(&n); memcpy(&a{k}, d, n < sizeof a{k} ? n : sizeof a{k}); }}\n"
            ));
        }
        args.push(format!("a{k}"));
    }
    let call = format!("{f}({})", args.join(", "));
    if integer_result(ret) {
        // The whole `(int)` result, not only the exit status's low 8 bits.
        s.push_str(&format!(
            "  int fpsym_r = (int){call};\n{dump}  fprintf(stderr, \"FPSYM-RESULT: %d\\n\", fpsym_r);\n  return fpsym_r;\n}}\n"
        ));
    } else if ret == "float" || ret == "double" {
        // A float result, exactly (its double's bits): for confirmations
        // about the value (a result out of its range).
        s.push_str(&format!(
            "  double fpsym_d = (double){call};\n{dump}  unsigned long long fpsym_b; memcpy(&fpsym_b, &fpsym_d, sizeof fpsym_b);\n  fprintf(stderr, \"FPSYM-FRESULT: %016llx\\n\", fpsym_b);\n  return 0;\n}}\n"
        ));
    } else if ret == "long double" {
        // Its x87 bytes (10 of them), exactly.
        s.push_str(&format!(
            "  long double fpsym_l = {call};\n{dump}  unsigned char fpsym_lb[sizeof fpsym_l]; memcpy(fpsym_lb, &fpsym_l, sizeof fpsym_l);\n  fprintf(stderr, \"FPSYM-LRESULT: \");\n  for (int fpsym_k = 0; fpsym_k < 10; fpsym_k++) fprintf(stderr, \"%02x\", fpsym_lb[fpsym_k]);\n  fprintf(stderr, \"\\n\");\n  return 0;\n}}\n"
        ));
    } else {
        s.push_str(&format!("  {call};\n{dump}  return 0;\n}}\n"));
    }
    s
}

/// Whether a `--function` result of C type `ret` is the exit status of the
/// driver (and of the run's `exit N`).
pub(crate) fn integer_result(ret: &str) -> bool {
    matches!(
        ret,
        "_Bool" | "signed char" | "unsigned char" | "short" | "unsigned short" | "int" | "long long"
    )
}

/// What the driver reads for a test: each object's bytes as a (u32
/// little-endian length, bytes) record, in order. None if some object's
/// hex is malformed (its name is the error).
pub(crate) fn encode_inputs(objects: &[TestObject]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    for o in objects {
        let bytes = o.byte_values().ok_or_else(|| o.name.clone())?;
        out.extend((bytes.len() as u32).to_le_bytes());
        out.extend(bytes);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_results_print_the_whole_value() {
        let h = harness("f", &["int".into(), "void *".into()], "int");
        assert!(h.contains("int f(int, void *);"), "{h}");
        assert!(h.contains("FPSYM-RESULT: %d\\n"), "{h}");
        assert!(h.contains("return fpsym_r;"), "{h}");
        // A float result: its exact bits, exit 0.
        let h = harness("g", &[], "double");
        assert!(h.contains("double g(void);"), "{h}");
        assert!(h.contains("double fpsym_d = (double)g();"), "{h}");
        assert!(h.contains("FPSYM-FRESULT: %016llx\\n"), "{h}");
        let h = harness("l", &[], "long double");
        assert!(h.contains("long double fpsym_l = l();"), "{h}");
        assert!(h.contains("FPSYM-LRESULT: "), "{h}");
        let h = harness("v", &[], "void");
        assert!(h.contains("  v();\n  return 0;"), "{h}");
        // Out-parameters: the objects are printed after the call.
        let h = harness("o", &["double".into(), "void *".into()], "void");
        assert!(
            h.contains("  o(a0, a1);\n#ifdef FPSYM_DUMP_ARGS\n  fpsym_print_arg(1, a1, n1);\n#endif\n  return 0;"),
            "{h}"
        );
        let h = harness("s", &["struct { double x; }".into()], "void");
        assert!(h.contains("typedef struct { double x; } fpsym_arg0;"), "{h}");
        assert!(h.contains("void s(fpsym_arg0);"), "{h}");
    }

    #[test]
    fn inputs_are_length_prefixed() {
        let obj = |bytes: &str| TestObject {
            name: "x".into(),
            ty: "u8[2]".into(),
            bytes: bytes.into(),
            value: None,
            hex: None,
            elements: vec![],
        };
        assert_eq!(
            encode_inputs(&[obj("0aff"), obj("")]).unwrap(),
            vec![2, 0, 0, 0, 0x0a, 0xff, 0, 0, 0, 0]
        );
        assert_eq!(encode_inputs(&[obj("0")]).unwrap_err(), "x");
    }
}
