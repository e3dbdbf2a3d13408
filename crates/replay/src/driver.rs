//! The replay driver: C code linked before the program that feeds it a
//! test's inputs, stands in for `reach_error` and the verifier intrinsics,
//! and (for `--function` runs) calls the entry function.

use fpsym_report::TestObject;

/// The C functions that hand a test's inputs to the program, in the order
/// it asks for them: `klee_make_symbolic`, `__VERIFIER_nondet_*`,
/// `klee_int`, `klee_range`, `time`, `clock` (each takes the next input),
/// `fstat` and `stat` of a standard stream (the machine's answer, its
/// device, inode, owner and times the next input),
/// `klee_assume`/`__VERIFIER_assume` (a violated assumption ends the run,
/// exit 88), `klee_silent_exit`. They need, defined before them,
/// `fpsym_next(size_t *n)` (the next input's bytes and length; exit 87
/// when there is none) and `fpsym_dump()` (called before a run ends by
/// `_exit`). The replay driver's `fpsym_next` reads the FPSYM_TEST file;
/// a reproducer's hands out its literals: one definition of what a test's
/// inputs mean to the program.
macro_rules! input_functions {
    () => {
        r#"
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
static void fpsym_assume(int c);
int klee_range(int lo, int hi, const char *name) { int v = klee_int(name); fpsym_assume(v >= lo && v < hi); return v; }
/* time and clock are inputs of the run (any value is possible). */
#include <time.h>
time_t time(time_t *t) { time_t v = 0; size_t k; const unsigned char *d = fpsym_next(&k);
  memcpy(&v, d, k < sizeof v ? k : sizeof v); if (t) *t = v; return v; }
clock_t clock(void) { clock_t v = 0; size_t k; const unsigned char *d = fpsym_next(&k);
  memcpy(&v, d, k < sizeof v ? k : sizeof v); return v; }
/* fstat and stat of the standard streams: the machine's answer, with what
   varies from machine to machine (device, inode, owner, times) the test's
   input "fstat", one per file as fpsym's model makes them (its C runtime's
   streams.c: standard input is standard output's /dev/null unless it is a
   pipe); other descriptors and paths as the machine says. x86-64's
   struct stat. */
#if defined(__x86_64__)
#include <sys/syscall.h>
long syscall(long, ...);
struct fpsym_kstat { unsigned long dev, ino, nlink; unsigned int mode, uid, gid; int pad0; unsigned long rdev;
  long size, blksize, blocks; long times[6]; long reserved[3]; };
struct fpsym_stat_inputs { unsigned long dev, ino; unsigned int uid, gid; long times[6]; };
static struct fpsym_stat_inputs fpsym_stat_files[3];
static int fpsym_stat_made[3];
int fstat(int fd, void *buf) {
  struct fpsym_kstat *s = buf;
  if (syscall(SYS_fstat, fd, s) != 0) return -1;
  if (fd >= 0 && fd <= 2) {
    struct fpsym_kstat in0;
    int stdin_pipe = syscall(SYS_fstat, 0, &in0) == 0 && (in0.mode & 0170000) == 0010000;
    int file = fd == 0 && !stdin_pipe ? 1 : fd;
    struct fpsym_stat_inputs *in = &fpsym_stat_files[file];
    if (!fpsym_stat_made[file]) {
      memset(in, 0, sizeof *in); size_t k; const unsigned char *d = fpsym_next(&k);
      memcpy(in, d, k < sizeof *in ? k : sizeof *in);
      fpsym_stat_made[file] = 1;
    }
    s->dev = in->dev; s->ino = in->ino; s->uid = in->uid; s->gid = in->gid; memcpy(s->times, in->times, sizeof in->times);
  }
  return 0;
}
int fstat64(int fd, void *buf) { return fstat(fd, buf); }
static int fpsym_stream_path(const char *p) {
  static const char *const names[] = {"/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/fd/0", "/dev/fd/1",
    "/dev/fd/2", "/proc/self/fd/0", "/proc/self/fd/1", "/proc/self/fd/2"};
  for (int i = 0; i < 9; i++) if (strcmp(p, names[i]) == 0) return i % 3;
  return -1;
}
int stat(const char *path, void *buf) {
  int fd = fpsym_stream_path(path);
  if (fd >= 0) return fstat(fd, buf);
  return syscall(SYS_stat, path, buf) == 0 ? 0 : -1;
}
int stat64(const char *path, void *buf) { return stat(path, buf); }
#endif
static void fpsym_assume(int c) { if (!c) { fprintf(stderr, "FPSYM-REPLAY: assumption violated\n"); fpsym_dump(); _exit(88); } }
void klee_assume(uintptr_t c) { fpsym_assume(c != 0); }
void __VERIFIER_assume(int c) { fpsym_assume(c); }
void klee_silent_exit(int s) { (void)s; fpsym_dump(); _exit(0); }
"#
    };
}
pub(crate) use input_functions;

/// The driver: inputs come from the file named by FPSYM_TEST, in the
/// format of [`encode_inputs`] (the order the program read them during
/// symbolic execution); the functions handing them to the program are
/// [`input_functions!`], shared with the reproducers of `fpsym export`;
/// `reach_error` and `__VERIFIER_error` (renamed to the driver's, see
/// [`renames`]) report their caller's address.
pub(crate) const DRIVER: &str = concat!(
    r#"
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
  if (k > fpsym_len - fpsym_pos) k = (uint32_t)(fpsym_len - fpsym_pos); /* a truncated file */
  const unsigned char *d = fpsym_buf + fpsym_pos; fpsym_pos += k; *n = k;
  return d;
}

"#,
    input_functions!(),
    r#"
__attribute__((noinline)) void __fpsym_reach_error(void) {
  fprintf(stderr, "FPSYM-REPLAY: reach_error %p\n", (void *)((char *)__builtin_return_address(0) - 1));
  fflush(stderr); fpsym_dump(); _exit(86);
}
__attribute__((noinline)) void __fpsym_verifier_error(void) {
  fprintf(stderr, "FPSYM-REPLAY: reach_error %p\n", (void *)((char *)__builtin_return_address(0) - 1));
  fflush(stderr); fpsym_dump(); _exit(86);
}
"#
);

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

/// How the `main` of [`harness_with`] ends after the call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// The replay driver's: the result on stderr in a form replay reads
    /// back exactly (see [`harness`]).
    Replay,
    /// A reproducer's: the result for people on stdout (`F returned V`,
    /// floats also as a hex-float), then the floating-point exceptions the
    /// call raised (`fpsym_report_fe`, defined by the reproducer).
    Reproducer,
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
    harness_with(f, params, ret, Ending::Replay, "")
}

/// [`harness`] with the given ending: the parameters are set up and the
/// function called the same way for replay and for a reproducer. `checks`
/// is C code run between reading the arguments (`a0`, `a1`, ...; `nK`
/// bytes for a pointer's object) and the call (the fuzzing harness
/// rejects inputs the run could not take there).
pub(crate) fn harness_with(f: &str, params: &[String], ret: &str, ending: Ending, checks: &str) -> String {
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
    if ending == Ending::Replay {
        s.push_str(
        "#ifdef FPSYM_DUMP_ARGS\nstatic void fpsym_print_arg(int k, const void *p, size_t n) {\n  const unsigned char *b = p;\n  fprintf(stderr, \"FPSYM-ARG %d: \", k);\n  for (size_t i = 0; i < n && i < (1u << 20); i++) fprintf(stderr, \"%02x\", b[i]);\n  fprintf(stderr, \"\\n\");\n}\n#endif\n",
        );
    }
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
    s.push_str(checks);
    let call = format!("{f}({})", args.join(", "));
    match ending {
        Ending::Replay => s.push_str(&replay_ending(&call, ret, &dump)),
        Ending::Reproducer => s.push_str(&reproducer_ending(f, &call, ret)),
    }
    s
}

/// The replay driver's call and result (see [`harness`]).
fn replay_ending(call: &str, ret: &str, dump: &str) -> String {
    if integer_result(ret) {
        // The whole `(int)` result, not only the exit status's low 8 bits.
        format!(
            "  int fpsym_r = (int){call};\n{dump}  fprintf(stderr, \"FPSYM-RESULT: %d\\n\", fpsym_r);\n  return fpsym_r;\n}}\n"
        )
    } else if ret == "float" || ret == "double" {
        // A float result, exactly (its double's bits): for confirmations
        // about the value (a result out of its range).
        format!(
            "  double fpsym_d = (double){call};\n{dump}  unsigned long long fpsym_b; memcpy(&fpsym_b, &fpsym_d, sizeof fpsym_b);\n  fprintf(stderr, \"FPSYM-FRESULT: %016llx\\n\", fpsym_b);\n  return 0;\n}}\n"
        )
    } else if ret == "long double" {
        // Its x87 bytes (10 of them), exactly.
        format!(
            "  long double fpsym_l = {call};\n{dump}  unsigned char fpsym_lb[sizeof fpsym_l]; memcpy(fpsym_lb, &fpsym_l, sizeof fpsym_l);\n  fprintf(stderr, \"FPSYM-LRESULT: \");\n  for (int fpsym_k = 0; fpsym_k < 10; fpsym_k++) fprintf(stderr, \"%02x\", fpsym_lb[fpsym_k]);\n  fprintf(stderr, \"\\n\");\n  return 0;\n}}\n"
        )
    } else {
        format!("  {call};\n{dump}  return 0;\n}}\n")
    }
}

/// A reproducer's call and result: the FP exception flags cleared just
/// before the call and reported after it, the result printed on stdout
/// (`F returned V`; floats in decimal with enough digits to round-trip,
/// then exactly as a hex-float), and the exit status as in replay (an
/// integer result's `(int)`, else 0).
fn reproducer_ending(f: &str, call: &str, ret: &str) -> String {
    let (decl, print, status) = if integer_result(ret) {
        (
            format!("long long fpsym_r = {call};"),
            format!("printf(\"{f} returned %lld\\n\", fpsym_r);"),
            "(int)fpsym_r",
        )
    } else if ret == "float" {
        (
            format!("float fpsym_r = {call};"),
            format!("printf(\"{f} returned %.9g (%a)\\n\", (double)fpsym_r, (double)fpsym_r);"),
            "0",
        )
    } else if ret == "double" {
        (
            format!("double fpsym_r = {call};"),
            format!("printf(\"{f} returned %.17g (%a)\\n\", fpsym_r, fpsym_r);"),
            "0",
        )
    } else if ret == "long double" {
        (
            format!("long double fpsym_r = {call};"),
            format!("printf(\"{f} returned %.21Lg (%La)\\n\", fpsym_r, fpsym_r);"),
            "0",
        )
    } else if ret == "void *" {
        (
            format!("void *fpsym_r = {call};"),
            format!("printf(\"{f} returned %p\\n\", fpsym_r);"),
            "0",
        )
    } else {
        (format!("{call};"), format!("printf(\"{f} returned\\n\");"), "0")
    };
    format!(
        "  feclearexcept(FE_ALL_EXCEPT);\n  {decl}\n  int fpsym_fe = fetestexcept(FE_ALL_EXCEPT);\n  {print}\n  fpsym_report_fe(\"raised by the call\", fpsym_fe);\n  return {status};\n}}\n"
    )
}

/// Whether a `--function` result of C type `ret` is the exit status of the
/// driver (and of the run's `exit N`).
pub(crate) fn integer_result(ret: &str) -> bool {
    matches!(
        ret,
        "_Bool" | "signed char" | "unsigned char" | "short" | "unsigned short" | "int" | "long long"
    )
}

/// A test's inputs as the replay driver reads them (the file FPSYM_TEST
/// names) and as `fpsym export --libfuzzer` writes a corpus file: for each
/// input, in the order the program read it during symbolic execution (the
/// test's `objects`), its length in bytes as a 4-byte little-endian
/// unsigned integer, then its bytes (little-endian, as `bytes` in the test
/// record gives them). Inputs are read one per request of the program
/// (`klee_make_symbolic` copies the first `min(length, size)` bytes of the
/// next one, a `__VERIFIER_nondet_T` call the first `sizeof(T)`, zeros
/// beyond), so inputs of any size (a pointer parameter's object, strings)
/// keep their boundaries. A file that ends early ends the run ("out of
/// inputs", exit 87); a length past the end is cut to what is left.
/// With symbolic arguments or standard input, the test's first objects
/// are those (`argv[1]`, ..., `stdin`): replay gives them to the process
/// and encodes the rest for the driver; a corpus file encodes them all.
/// Err(name) if the hex of the input `name` is malformed.
pub fn encode_inputs(objects: &[TestObject]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    for o in objects {
        let bytes = o.byte_values().ok_or_else(|| o.name.clone())?;
        out.extend((bytes.len() as u32).to_le_bytes());
        out.extend(bytes);
    }
    Ok(out)
}

/// The inputs of an [`encode_inputs`] stream, as the driver reads them:
/// each record's bytes in order, a length past the end cut to what is
/// left, a final record shorter than its 4-byte length ignored.
pub fn decode_inputs(mut data: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    while data.len() >= 4 {
        let k = u32::from_le_bytes([data[0], data[1], data[2], data[3]]) as usize;
        data = &data[4..];
        let k = k.min(data.len());
        out.push(data[..k].to_vec());
        data = &data[k..];
    }
    out
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
    fn reproducers_call_the_same_way_and_print_for_people() {
        let params = ["double".to_string(), "void *".to_string()];
        let replay = harness("f", &params, "double");
        let repro = harness_with("f", &params, "double", Ending::Reproducer, "");
        // The same parameters, set up the same way.
        let setup = |h: &str| h[h.find("int main(void) {").unwrap()..h.find("f(a0, a1)").unwrap()].to_string();
        let (a, b) = (setup(&replay), setup(&repro));
        assert!(
            b.ends_with(&format!(
                "{}  feclearexcept(FE_ALL_EXCEPT);\n  double fpsym_r = ",
                a.trim_end_matches("  double fpsym_d = (double)")
            )),
            "{a}\n{b}"
        );
        assert!(
            repro.contains("printf(\"f returned %.17g (%a)\\n\", fpsym_r, fpsym_r);"),
            "{repro}"
        );
        assert!(
            repro.contains("fpsym_report_fe(\"raised by the call\", fpsym_fe);"),
            "{repro}"
        );
        assert!(
            !repro.contains("FPSYM_DUMP_ARGS") && !repro.contains("FPSYM-FRESULT"),
            "{repro}"
        );
        let repro = harness_with("g", &[], "int", Ending::Reproducer, "");
        assert!(repro.contains("long long fpsym_r = g();"), "{repro}");
        assert!(repro.contains("return (int)fpsym_r;"), "{repro}");
        let repro = harness_with("v", &[], "void", Ending::Reproducer, "");
        assert!(repro.contains("  v();\n"), "{repro}");
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
            site: None,
        };
        assert_eq!(
            encode_inputs(&[obj("0aff"), obj("")]).unwrap(),
            vec![2, 0, 0, 0, 0x0a, 0xff, 0, 0, 0, 0]
        );
        assert_eq!(encode_inputs(&[obj("0")]).unwrap_err(), "x");
        // Read back as the driver reads it.
        let bytes = encode_inputs(&[obj("0aff"), obj(""), obj("01")]).unwrap();
        assert_eq!(decode_inputs(&bytes), [vec![0x0a, 0xff], vec![], vec![1]]);
        assert_eq!(decode_inputs(&[9, 0, 0, 0, 7, 8, 1]), [vec![7, 8, 1]]);
        assert_eq!(decode_inputs(&[1, 0]), Vec::<Vec<u8>>::new());
    }
}
