//! Integration tests: C fixtures through clang-14, llvm-link-14, opt-14 and
//! llvm-ir; special float constants checked against a native build.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use fpsym_frontend::{build, load, CompileOptions, FrontendError, Program, SpecialConst, SpecialFloat};
use llvm_ir::{Instruction, Operand, Terminator};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

/// A scratch directory removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("fpsym-frontend-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn build_fixtures(names: &[&str], opts: &CompileOptions, dir: &Scratch) -> Result<Program, FrontendError> {
    let inputs: Vec<PathBuf> = names.iter().map(|n| fixture(n)).collect();
    build(&inputs, opts, &dir.0)
}

/// All special constants of a function, instruction by instruction.
fn function_specials(p: &Program, name: &str) -> Vec<SpecialConst> {
    let f = p.function(name).unwrap_or_else(|| panic!("no function {name}"));
    let mut out = Vec::new();
    for (b, bb) in f.basic_blocks.iter().enumerate() {
        for i in 0..=bb.instrs.len() {
            out.extend_from_slice(p.special_consts(name, b, i));
        }
    }
    out
}

/// Position (block, instr) of the first instruction matching `pred`.
fn find_instr(p: &Program, name: &str, pred: impl Fn(&Instruction) -> bool) -> (usize, usize, Instruction) {
    let f = p.function(name).unwrap();
    for (b, bb) in f.basic_blocks.iter().enumerate() {
        for (i, inst) in bb.instrs.iter().enumerate() {
            if pred(inst) {
                return (b, i, inst.clone());
            }
        }
    }
    panic!("no matching instruction in {name}");
}

#[test]
fn compiles_loads_and_keeps_debug_locations() {
    let dir = Scratch::new("basic");
    let p = build_fixtures(&["basic.c"], &CompileOptions::default(), &dir).unwrap();
    assert!(p.function("main").is_some());
    assert!(p.function("scale").is_some());
    assert_eq!(p.sources(), [fixture("basic.c")]);
    // mem2reg ran: no alloca left in `scale`.
    let f = p.function("scale").unwrap();
    assert!(f
        .basic_blocks
        .iter()
        .flat_map(|b| &b.instrs)
        .all(|i| !matches!(i, Instruction::Alloca(_))));

    let (b, i, _) = find_instr(&p, "scale", |i| matches!(i, Instruction::FMul(_)));
    let loc = p.location("scale", b, i).unwrap();
    assert!(loc.file.ends_with("basic.c"), "{loc:?}");
    assert_eq!((loc.line, loc.column), (4, 16));
    assert_eq!(loc.path(), fixture("basic.c"));
    assert!(p.instruction_text("scale", b, i).unwrap().contains("= fmul double %"));
    let (b, i, _) = find_instr(&p, "scale", |i| matches!(i, Instruction::FAdd(_)));
    assert_eq!(p.location("scale", b, i).unwrap().line, 5);
    // The terminator is the last instruction of its block.
    let last = f.basic_blocks.len() - 1;
    let term = f.basic_blocks[last].instrs.len();
    assert!(matches!(f.basic_blocks[last].term, Terminator::Ret(_)));
    assert_eq!(p.location("scale", last, term).unwrap().line, 5);
    assert!(p.location("scale", last, term + 1).is_none());
    // strlen comes from the runtime.
    assert!(p.is_runtime_function("strlen"));
    assert!(!p.is_runtime_function("main"));
}

/// The native bytes (as u128, little-endian) of the constants of consts.c.
struct Native {
    ld: Vec<u128>,
    q: Vec<u128>,
    h: Vec<u128>,
}

fn native_constants(dir: &Scratch) -> Native {
    let src = dir.0.join("native.c");
    std::fs::write(
        &src,
        r#"#include <stdio.h>
static void p(const void *v, int n) {
  const unsigned char *b = v;
  for (int i = n - 1; i >= 0; i--) printf("%02x", b[i]);
  printf("\n");
}
int main(void) {
  long double ld[] = {1.1L, 0.1L, -3.0e4000L, 1e-4940L, 2.2L};
  __float128 q[] = {1.1Q, -0x1.23456789abcdef0123456789abcdp-16000Q, 3.3Q};
  __fp16 h[] = {0.1, -65504};
  for (int i = 0; i < 5; i++) p(&ld[i], 10);
  for (int i = 0; i < 3; i++) p(&q[i], 16);
  for (int i = 0; i < 2; i++) p(&h[i], 2);
  return 0;
}
"#,
    )
    .unwrap();
    let exe = dir.0.join("native");
    let status = Command::new("clang-14").arg(&src).arg("-o").arg(&exe).status().unwrap();
    assert!(status.success());
    let out = Command::new(&exe).output().unwrap();
    let v: Vec<u128> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| u128::from_str_radix(l, 16).unwrap())
        .collect();
    assert_eq!(v.len(), 10);
    Native {
        ld: v[0..5].to_vec(),
        q: v[5..8].to_vec(),
        h: v[8..10].to_vec(),
    }
}

#[test]
fn special_constants_have_native_bits() {
    let dir = Scratch::new("consts");
    let p = build_fixtures(&["consts.c"], &CompileOptions::default(), &dir).unwrap();
    let n = native_constants(&dir);
    let ld = |v: u128| SpecialConst {
        ty: SpecialFloat::X86Fp80,
        bits: v,
    };
    let q = |v: u128| SpecialConst {
        ty: SpecialFloat::Fp128,
        bits: v,
    };
    let h = |v: u128| SpecialConst {
        ty: SpecialFloat::Half,
        bits: v,
    };
    // Sanity: 1.1L is 0x3FFF 8CCCCCCCCCCCCCCD; binary128 1.1 is 0x3FFF1999…999A.
    assert_eq!(n.ld[0], 0x3FFF_8CCC_CCCC_CCCC_CCCD);
    assert_eq!(n.q[0], 0x3FFF_1999_9999_9999_9999_9999_9999_999A);

    assert_eq!(
        p.global_special_consts("g_ld"),
        [ld(n.ld[0]), ld(n.ld[1]), ld(n.ld[2]), ld(n.ld[3])]
    );
    assert_eq!(p.global_special_consts("g_q"), [q(n.q[0]), q(n.q[1])]);
    assert_eq!(p.global_special_consts("g_h"), [h(n.h[0]), h(n.h[1])]);
    assert_eq!(p.global_special_consts("g_s"), [ld(n.ld[4]), q(n.q[2])]);
    assert!(p.global_special_consts("no_such_global").is_empty());

    assert_eq!(function_specials(&p, "f_ld"), [ld(n.ld[0]), ld(n.ld[1])]);
    let mut phi = function_specials(&p, "f_phi");
    phi.sort_by_key(|c| c.bits);
    let mut want = vec![ld(n.ld[2]), ld(n.ld[3])];
    want.sort_by_key(|c| c.bits);
    assert_eq!(phi, want);
    assert_eq!(function_specials(&p, "f_sel"), [ld(n.ld[0])]);
    assert_eq!(function_specials(&p, "f_cmp"), [ld(n.ld[1])]);
    assert_eq!(function_specials(&p, "f_store"), [ld(n.ld[0])]);
    assert_eq!(function_specials(&p, "f_q"), [q(n.q[0]), q(n.q[2])]);
    assert_eq!(function_specials(&p, "f_h"), [h(n.h[0])]);
    // Call arguments in order.
    assert_eq!(function_specials(&p, "f_call"), [ld(n.ld[0]), ld(n.ld[1]), ld(n.ld[4])]);

    // Per instruction: the fmul of f_ld has 1.1L as its second operand.
    let (b, i, inst) = find_instr(&p, "f_ld", |i| matches!(i, Instruction::FMul(_)));
    assert_eq!(p.special_consts("f_ld", b, i), [ld(n.ld[0])]);
    let Instruction::FMul(m) = inst else { unreachable!() };
    let Operand::ConstantOperand(c) = &m.operand1 else {
        panic!("constant operand expected")
    };
    // A clone of the instruction shares the constant (Arc), so lookup works.
    assert_eq!(p.special_const(c), Some(ld(n.ld[0])));
    // Each phi incoming value resolves by address to the value the text gave.
    let (b, i, inst) = find_instr(&p, "f_phi", |i| matches!(i, Instruction::Phi(_)));
    let Instruction::Phi(phi) = inst else { unreachable!() };
    let by_addr: Vec<SpecialConst> = phi
        .incoming_values
        .iter()
        .map(|(v, _)| match v {
            Operand::ConstantOperand(c) => p.special_const(c).unwrap(),
            _ => panic!("constant expected"),
        })
        .collect();
    assert_eq!(by_addr, p.special_consts("f_phi", b, i));
    // Global initializer constants resolve by address too.
    let g = p
        .module
        .global_vars
        .iter()
        .find(|g| g.name == llvm_ir::Name::from("g_ld"))
        .unwrap();
    let llvm_ir::Constant::Array { elements, .. } = g.initializer.as_ref().unwrap().as_ref() else {
        panic!("array initializer expected")
    };
    let vals: Vec<_> = elements.iter().map(|e| p.special_const(e).unwrap()).collect();
    assert_eq!(vals, p.global_special_consts("g_ld"));
    // Non-special constants have no entry.
    let (_, _, inst) = find_instr(&p, "f_h", |i| matches!(i, Instruction::FMul(_)));
    let Instruction::FMul(m) = inst else { unreachable!() };
    if let Operand::ConstantOperand(c) = &m.operand0 {
        assert_eq!(p.special_const(c), None);
    }
}

#[test]
fn links_bc_and_ll_beside_c() {
    let dir = Scratch::new("link");
    let bc = dir.0.join("linklib.bc");
    let status = Command::new("clang-14")
        .args(["-g", "-O0", "-emit-llvm", "-c"])
        .arg(fixture("linklib.c"))
        .arg("-o")
        .arg(&bc)
        .status()
        .unwrap();
    assert!(status.success());
    let inputs = vec![fixture("linkmain.c"), bc.clone(), fixture("linkhelper.ll")];
    let p = build(&inputs, &CompileOptions::default(), &dir.0.join("work")).unwrap();
    for f in ["main", "from_bc", "twice", "helper_ld"] {
        assert!(p.function(f).is_some(), "{f} missing");
    }
    assert_eq!(
        function_specials(&p, "helper_ld"),
        [SpecialConst {
            ty: SpecialFloat::X86Fp80,
            bits: 0x3FFF_8CCC_CCCC_CCCC_CCCD
        }]
    );
    assert_eq!(p.sources(), inputs.as_slice());
    // The linked module can be loaded again, as bitcode and as text.
    for path in [dir.0.join("work/program.bc"), dir.0.join("work/program.ll")] {
        let q = load(&path).unwrap();
        assert!(q.function("twice").is_some());
        assert_eq!(function_specials(&q, "helper_ld"), function_specials(&p, "helper_ld"));
    }
}

#[test]
fn clang_errors_are_verbatim() {
    let dir = Scratch::new("syntax");
    let err = build_fixtures(&["syntax_error.c"], &CompileOptions::default(), &dir).unwrap_err();
    let FrontendError::Clang { stderr, status, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(*status, Some(1));
    assert!(stderr.contains("syntax_error.c:2:12: error: expected ';'"), "{stderr}");
    assert_eq!(err.to_string(), stderr.trim_end());
}

#[test]
fn unsupported_constructs_name_their_lines() {
    // Listed with their lines, not rejected: a path reaching one stops there.
    let dir = Scratch::new("unsupported");
    let p = build_fixtures(&["unsupported.c"], &CompileOptions::default(), &dir).unwrap();
    let sites = p.unsupported_sites();
    assert_eq!(sites.len(), 2, "{sites:#?}");
    assert_eq!(sites[0].function, "bump");
    assert!(sites[0].what.contains("atomicrmw"));
    assert!(sites[0].instruction.contains("atomicrmw add"));
    assert_eq!(sites[0].loc.as_ref().unwrap().line, 4);
    let f = p.function("bump").unwrap();
    assert!(f.basic_blocks[sites[0].block].instrs[sites[0].index]
        .to_string()
        .contains("atomicrmw"));
    assert_eq!(sites[1].function, "rdtsc_low");
    assert_eq!(sites[1].what, "inline assembly");
    assert_eq!(sites[1].loc.as_ref().unwrap().line, 9);
    let msg = sites[0].to_string();
    assert!(
        msg.contains("unsupported.c:4:10: in function `bump`: unsupported atomic"),
        "{msg}"
    );
}

#[test]
fn a_programs_own_definition_beats_the_runtime() {
    let dir = Scratch::new("strlen");
    let p = build_fixtures(&["own_strlen.c"], &CompileOptions::default(), &dir).unwrap();
    assert!(p.function("strlen").is_some());
    assert!(!p.is_runtime_function("strlen"));
    assert!(p.is_runtime_function("strcmp"));
    // Only what the program needs is linked.
    assert!(p.function("strncmp").is_none());
    assert_eq!(p.runtime_functions().collect::<Vec<_>>(), ["strcmp"]);
}

#[test]
fn runtime_functions_are_linked_and_valid() {
    let dir = Scratch::new("runtime");
    let p = build_fixtures(&["runtime_use.c"], &CompileOptions::default(), &dir).unwrap();
    for f in ["atoi", "strtol", "strtoll", "strtod", "strlen", "__ctype_b_loc"] {
        assert!(p.is_runtime_function(f), "{f} not from the runtime");
    }
    assert!(p.function("qsort").is_none());
    // Without the runtime they stay declarations.
    let mut opts = CompileOptions::default();
    opts.runtime = false;
    let dir2 = Scratch::new("noruntime");
    let p = build_fixtures(&["runtime_use.c"], &opts, &dir2).unwrap();
    assert!(p.function("atoi").is_none());
    assert!(p.declaration("atoi").is_some());
    assert_eq!(p.runtime_functions().count(), 0);
}

#[test]
fn klee_and_svcomp_headers_are_on_the_include_path() {
    let dir = Scratch::new("headers");
    let p = build_fixtures(&["headers.c"], &CompileOptions::default(), &dir).unwrap();
    assert!(p.function("reach_error").is_some());
    for d in [
        "klee_make_symbolic",
        "klee_assume",
        "klee_range",
        "__VERIFIER_nondet_double",
        "__assert_fail",
    ] {
        assert!(p.declaration(d).is_some(), "{d} not declared");
    }
    assert!(p.diagnostics().is_empty(), "{}", p.diagnostics());
}

#[test]
fn user_flags_reach_clang() {
    let dir = Scratch::new("flags");
    let inc = dir.0.join("inc");
    std::fs::create_dir_all(&inc).unwrap();
    std::fs::write(inc.join("val.h"), "#define BASE 40\n").unwrap();
    let src = dir.0.join("flags.c");
    std::fs::write(
        &src,
        "#include \"val.h\"\nint main(void) { int unused; return BASE + EXTRA; }\n",
    )
    .unwrap();
    let mut opts = CompileOptions::default();
    opts.include_dirs.push(inc);
    opts.defines.push("EXTRA=2".to_string());
    opts.cflags.push("-Wunused-variable".to_string());
    let p = build(&[src], &opts, &dir.0.join("work")).unwrap();
    assert!(p.function("main").is_some());
    assert!(
        p.diagnostics().contains("warning: unused variable 'unused'"),
        "{}",
        p.diagnostics()
    );
}

#[test]
fn bfloat_constants_and_wrong_targets_in_ir_inputs() {
    let p = load(&fixture("bfloat.ll")).unwrap();
    let bf = |v| SpecialConst {
        ty: SpecialFloat::BFloat,
        bits: v,
    };
    assert_eq!(function_specials(&p, "bf"), [bf(0x3FC0)]);
    assert_eq!(p.global_special_consts("g"), [bf(0x3F80), bf(0xC000)]);
    let err = load(&fixture("aarch64.ll")).unwrap_err();
    assert!(
        matches!(&err, FrontendError::Target { triple } if triple.starts_with("aarch64")),
        "{err:?}"
    );
}

#[test]
fn bad_inputs_are_reported() {
    let dir = Scratch::new("bad");
    let err = build(&[PathBuf::from("x.cpp")], &CompileOptions::default(), &dir.0).unwrap_err();
    assert!(matches!(err, FrontendError::UnsupportedInput { .. }), "{err:?}");
    let err = build(&[], &CompileOptions::default(), &dir.0).unwrap_err();
    assert!(matches!(err, FrontendError::NoInputs), "{err:?}");
    let err = build(&[dir.0.join("missing.bc")], &CompileOptions::default(), &dir.0).unwrap_err();
    assert!(matches!(err, FrontendError::Io { .. }), "{err:?}");
    // Two strong definitions: llvm-link's message.
    let a = dir.0.join("a.c");
    std::fs::write(&a, "int f(void) { return 1; }\nint main(void) { return f(); }\n").unwrap();
    let b = dir.0.join("b.c");
    std::fs::write(&b, "int f(void) { return 2; }\n").unwrap();
    let err = build(&[a, b], &CompileOptions::default(), &dir.0.join("work")).unwrap_err();
    let FrontendError::Tool { tool, stderr, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(tool, "llvm-link-14");
    assert!(stderr.contains("symbol multiply defined"), "{stderr}");
}

/// A deterministic xorshift generator for the randomized test.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random decimal or hexadecimal floating literal (without suffix) whose
/// magnitude spans `max_exp` decimal orders both ways.
fn random_literal(rng: &mut Rng, max_exp: i64) -> String {
    let mut s = String::new();
    if rng.below(4) == 0 {
        s.push('-');
    }
    if rng.below(5) == 0 {
        let digits: String = (0..1 + rng.below(30)).map(|_| format!("{:x}", rng.below(16))).collect();
        let e = rng.below(2 * max_exp as u64 * 3) as i64 - max_exp * 3;
        return format!("{s}0x{}.{}p{e}", &digits[..1], &digits[1..]);
    }
    let max_digits = if rng.below(8) == 0 { 60 } else { 20 };
    let nd = 1 + rng.below(max_digits);
    let digits: String = (0..nd).map(|_| char::from(b'0' + rng.below(10) as u8)).collect();
    let point = rng.below(nd + 1) as usize;
    s.push_str(&digits[..point]);
    s.push('.');
    s.push_str(&digits[point..]);
    let e = rng.below(2 * max_exp as u64) as i64 - max_exp;
    s.push_str(&format!("e{e}"));
    s
}

#[test]
fn random_constants_match_native() {
    let dir = Scratch::new("random");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let ld: Vec<String> = (0..240).map(|_| random_literal(&mut rng, 4960) + "L").collect();
    let q: Vec<String> = (0..120).map(|_| random_literal(&mut rng, 4960) + "Q").collect();
    let h: Vec<String> = (0..60).map(|_| random_literal(&mut rng, 9)).collect();

    // The analysed program uses each literal once, in varied positions.
    let mut src = String::from("long double h3(long double, long double, long double);\n");
    src += "__float128 hq(__float128, __float128);\n";
    src += &format!("long double g_ld[40] = {{{}}};\n", ld[..40].join(", "));
    src += &format!("__float128 g_q[20] = {{{}}};\n", q[..20].join(", "));
    src += &format!("__fp16 g_h[30] = {{{}}};\n", h[..30].join(", "));
    for (i, c) in ld[40..].chunks(5).enumerate() {
        src += &format!(
            "long double f{i}(long double x, int c, long double *p) {{\n  *p = {};\n  if (x < {})\n    x = x * {} + (c ? x : {});\n  return h3(x, {}, x);\n}}\n",
            c[0], c[1], c[2], c[3], c[4]
        );
    }
    for (i, c) in q[20..].chunks(4).enumerate() {
        src += &format!(
            "__float128 q{i}(__float128 x, int c) {{\n  x = c ? {} : x / {};\n  return hq(x - {}, {});\n}}\n",
            c[0], c[1], c[2], c[3]
        );
    }
    for (i, c) in h[30..].iter().enumerate() {
        src += &format!("float hf{i}(float x) {{\n  __fp16 t = {c};\n  return x * t;\n}}\n");
    }
    let path = dir.0.join("random.c");
    std::fs::write(&path, &src).unwrap();
    let mut opts = CompileOptions::default();
    opts.runtime = false;
    opts.cflags.push("-w".to_string());
    let p = build(&[path], &opts, &dir.0.join("work")).unwrap();
    let mut got: Vec<SpecialConst> = Vec::new();
    for f in &p.module.functions {
        got.extend(function_specials(&p, &f.name));
    }
    for g in ["g_ld", "g_q", "g_h"] {
        got.extend_from_slice(p.global_special_consts(g));
    }

    // The native program prints each literal's bytes.
    let mut native = String::from("#include <stdio.h>\n");
    native += "static void p(const void *v, int n) {\n  const unsigned char *b = v;\n";
    native += "  for (int i = n - 1; i >= 0; i--) printf(\"%02x\", b[i]);\n  printf(\"\\n\");\n}\n";
    native += &format!("long double ld[] = {{{}}};\n", ld.join(", "));
    native += &format!("__float128 q[] = {{{}}};\n", q.join(", "));
    native += &format!("__fp16 h[] = {{{}}};\n", h.join(", "));
    native += "int main(void) {\n";
    native += &format!("  for (int i = 0; i < {}; i++) p(&ld[i], 10);\n", ld.len());
    native += &format!("  for (int i = 0; i < {}; i++) p(&q[i], 16);\n", q.len());
    native += &format!("  for (int i = 0; i < {}; i++) p(&h[i], 2);\n", h.len());
    native += "  return 0;\n}\n";
    let nsrc = dir.0.join("native.c");
    std::fs::write(&nsrc, native).unwrap();
    let exe = dir.0.join("native");
    assert!(Command::new("clang-14")
        .arg("-w")
        .arg(&nsrc)
        .arg("-o")
        .arg(&exe)
        .status()
        .unwrap()
        .success());
    let out = String::from_utf8(Command::new(&exe).output().unwrap().stdout).unwrap();
    let bits: Vec<u128> = out.lines().map(|l| u128::from_str_radix(l, 16).unwrap()).collect();
    let (nl, nq) = (ld.len(), q.len());
    let mut want: Vec<SpecialConst> = Vec::new();
    want.extend(bits[..nl].iter().map(|&b| SpecialConst {
        ty: SpecialFloat::X86Fp80,
        bits: b,
    }));
    want.extend(bits[nl..nl + nq].iter().map(|&b| SpecialConst {
        ty: SpecialFloat::Fp128,
        bits: b,
    }));
    want.extend(bits[nl + nq..].iter().map(|&b| SpecialConst {
        ty: SpecialFloat::Half,
        bits: b,
    }));

    let key = |c: &SpecialConst| (c.ty as u8, c.bits);
    got.sort_by_key(key);
    want.sort_by_key(key);
    assert_eq!(got.len(), want.len());
    assert_eq!(got, want);
}

/// The runtime's functions behave as glibc's: compiled natively with every
/// function renamed `my_NAME` and compared on fixed and random inputs by
/// tests/fixtures/runtime_check.c (strtod in all four rounding modes, the
/// ctype tables glibc's macros read).
#[test]
fn runtime_matches_glibc() {
    let dir = Scratch::new("glibc");
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("runtime");
    let renamed = [
        "strlen",
        "strnlen",
        "strcmp",
        "strncmp",
        "strcpy",
        "strncpy",
        "strcat",
        "strncat",
        "strchr",
        "strrchr",
        "strspn",
        "strcspn",
        "strpbrk",
        "strstr",
        "memcmp",
        "memchr",
        "memcpy",
        "memmove",
        "memset",
        "strtod",
        "strtol",
        "strtoul",
        "strtoll",
        "strtoull",
        "atof",
        "atoi",
        "atol",
        "atoll",
        "abs",
        "labs",
        "llabs",
        "qsort",
        "bsearch",
        "__ctype_b_loc",
        "__ctype_toupper_loc",
        "__ctype_tolower_loc",
        "isdigit",
        "isupper",
        "islower",
        "isalpha",
        "isalnum",
        "isxdigit",
        "isspace",
        "isblank",
        "iscntrl",
        "isprint",
        "isgraph",
        "ispunct",
        "toupper",
        "tolower",
    ];
    let defines: Vec<String> = renamed.iter().map(|f| format!("-D{f}=my_{f}")).collect();
    let mut objects = Vec::new();
    for src in ["string.c", "stdlib.c", "ctype.c"] {
        let obj = dir.0.join(src).with_extension("o");
        let status = Command::new("clang-14")
            .args(["-O0", "-w", "-c"])
            .args(&defines)
            .arg(runtime.join(src))
            .arg("-o")
            .arg(&obj)
            .status()
            .unwrap();
        assert!(status.success());
        objects.push(obj);
    }
    let exe = dir.0.join("runtime_check");
    let status = Command::new("clang-14")
        .args(["-O0", "-w"])
        .arg(fixture("runtime_check.c"))
        .args(&objects)
        .args(["-lm", "-o"])
        .arg(&exe)
        .status()
        .unwrap();
    assert!(status.success());
    let out = Command::new(&exe).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && stdout.contains("bad=0"), "{stdout}");
}
