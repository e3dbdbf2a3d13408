//! Shared by the random soundness tests: a generator of random loop
//! programs over `float` and `double`, and their native runs.
#![allow(dead_code)]

use fpsym_prove::{prove, Outcome, ProveOptions};
use rand::rngs::StdRng;
use rand::Rng;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

/// Native runs of each program (one process, the program's `main` called
/// again for each nondet sequence).
pub const RUNS: u32 = 3000;

/// The driver: nondet values from a generator biased to edge values;
/// `reach_error` counts; the program's last value is kept for planting.
pub const DRIVER: &str = r#"
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
static uint64_t s = 88172645463325252ull;
static uint64_t next(void) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; }
static double unit(void) { return (next() >> 11) * 0x1p-53; }
static double pick(void) {
  static const double edge[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN, DBL_MAX, -DBL_MAX,
                                DBL_MIN, -DBL_MIN, 4.9e-324, -4.9e-324, FLT_MAX, -FLT_MAX, FLT_MIN, 1e-40};
  uint64_t r = next() % 10;
  if (r < 2) return edge[next() % (sizeof edge / sizeof edge[0])];
  if (r < 3) return ldexp(unit() * 2 - 1, (int)(next() % 200) - 100);
  return (unit() * 2 - 1) * LO_HI;
}
double __VERIFIER_nondet_double(void) { return pick(); }
float __VERIFIER_nondet_float(void) { return (float)pick(); }
int __VERIFIER_nondet_int(void) { return next() % 16 != 0; }
long hits;
double observed_max = -INFINITY;
int observed_nan;
void reach_error(void) { hits++; }
void observe(double v) {
  if (v != v) observed_nan = 1;
  else if (v > observed_max) observed_max = v;
}
int prog_main(void);
int main(int argc, char **argv) {
  s ^= (uint64_t)atoll(argv[1]) * 0x9E3779B97F4A7C15ull;
  for (int k = 0; k < RUNS; k++) prog_main();
  printf("%ld %a %d\n", hits, observed_max, observed_nan);
  return 0;
}
"#;

pub struct Gen {
    pub rng: StdRng,
    pub ty: &'static str,
    /// The check is made in the loop, after each iteration (else after it).
    pub inside: bool,
}

impl Gen {
    fn constant(&mut self) -> String {
        let c: f64 = match self.rng.gen_range(0..4) {
            0 => self.rng.gen_range(-2.0..2.0),
            1 => [0.5, 0.25, 0.75, 1.0, 2.0, 0.1, 0.9][self.rng.gen_range(0..7)],
            2 => self.rng.gen_range(-100.0..100.0),
            _ => [0.0, -0.0, 1e-3, 3.0][self.rng.gen_range(0..4)],
        };
        if self.ty == "float" {
            format!("{c:?}f")
        } else {
            format!("{c:?}")
        }
    }

    fn expr(&mut self, depth: u32) -> String {
        if depth == 0 || self.rng.gen_bool(0.3) {
            return match self.rng.gen_range(0..4) {
                0 => "v0".into(),
                1 => "v1".into(),
                2 => "x".into(),
                _ => self.constant(),
            };
        }
        let (a, b) = (self.expr(depth - 1), self.expr(depth - 1));
        let suffix = if self.ty == "float" { "f" } else { "" };
        match self.rng.gen_range(0..8) {
            0 | 1 => format!("({a} + {b})"),
            2 => format!("({a} - {b})"),
            3 | 4 => format!("({} * {a})", self.constant()),
            5 => format!("({a} * {b})"),
            6 => format!("({a} / {b})"),
            _ => format!("sqrt{suffix}(fabs{suffix}({a}))"),
        }
    }

    /// A program whose check is `CHECK` (a placeholder), and its input range.
    pub fn program(&mut self) -> (String, f64) {
        let ty = self.ty;
        let range = [1.0, 10.0, 1000.0][self.rng.gen_range(0..3)];
        let mut p = String::new();
        let _ = writeln!(p, "#include <math.h>");
        let _ = writeln!(
            p,
            "extern {ty} __VERIFIER_nondet_{ty}(void);\nextern int __VERIFIER_nondet_int(void);"
        );
        let _ = writeln!(p, "extern void reach_error(void);\nextern void observe(double);");
        let _ = writeln!(p, "int prog_main(void) {{");
        let _ = writeln!(
            p,
            "  {ty} v0 = {}, v1 = {};\n  int i = 0;",
            self.constant(),
            self.constant()
        );
        let bound = if self.rng.gen_bool(0.5) {
            format!("i < {} && ", self.rng.gen_range(1..50))
        } else {
            String::new()
        };
        let _ = writeln!(p, "  while ({bound}__VERIFIER_nondet_int()) {{");
        let _ = writeln!(p, "    {ty} x = __VERIFIER_nondet_{ty}();");
        let filter = match self.rng.gen_range(0..3) {
            0 => format!("!(x >= -{range:?} && x <= {range:?})"),
            1 => format!("x < -{range:?} || x > {range:?}"),
            _ => "0".into(),
        };
        let _ = writeln!(p, "    if ({filter}) continue;");
        let e0 = self.expr(2);
        let _ = writeln!(p, "    v0 = {e0};");
        if self.rng.gen_bool(0.4) {
            let c = self.constant();
            let _ = writeln!(p, "    if (v0 > {c}) v0 = {c};");
        }
        let e1 = self.expr(2);
        if self.inside {
            let _ = writeln!(
                p,
                "    v1 = {e1};\n    i++;\n    observe(v0);\n    if (CHECK) reach_error();\n  }}"
            );
            let _ = writeln!(p, "  return 0;\n}}");
        } else {
            let _ = writeln!(p, "    v1 = {e1};\n    i++;\n  }}");
            let _ = writeln!(p, "  observe(v0);\n  if (CHECK) reach_error();\n  return 0;\n}}");
        }
        (p, range)
    }
}

pub fn clang() -> &'static str {
    if Command::new("clang-14").arg("--version").output().is_ok() {
        "clang-14"
    } else {
        panic!("clang-14 is missing: the Debian package clang-14 (scripts/bootstrap installs it)")
    }
}

/// The program linked with a driver, natively (clang-14 -O0, no FMA
/// contraction), into `dir/exe`.
fn compile_native(dir: &Path, prog: &str, driver: &str, exe: &str, range: f64) -> std::path::PathBuf {
    std::fs::write(dir.join("prog.c"), prog).unwrap();
    let driver_c = dir.join(format!("{exe}_driver.c"));
    std::fs::write(&driver_c, driver).unwrap();
    let exe = dir.join(exe);
    let o = Command::new(clang())
        .args(["-O0", "-ffp-contract=off", "-o"])
        .arg(&exe)
        .arg(dir.join("prog.c"))
        .args(["-x", "c"])
        .arg(&driver_c)
        .arg(format!("-DLO_HI={range:?}"))
        .arg(format!("-DRUNS={RUNS}"))
        .arg("-lm")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}\n{prog}", String::from_utf8_lossy(&o.stderr));
    exe
}

/// Runs the program natively: (reach_error hits, the largest final v0, whether v0 was NaN).
pub fn native(dir: &Path, prog: &str, range: f64, seed: u64) -> (u64, f64, bool) {
    let exe = compile_native(dir, prog, DRIVER, "prog", range);
    let o = Command::new(&exe).arg(seed.to_string()).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let f: Vec<&str> = out.split_whitespace().collect();
    let max = if f[1].contains("inf") {
        if f[1].starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        }
    } else {
        hexf(f[1])
    };
    (f[0].parse().unwrap(), max, f[2] == "1")
}

/// A C99 hexadecimal float (`0x1.8p+1`, `-0x0p+0`).
pub fn hexf(s: &str) -> f64 {
    let (neg, s) = s.strip_prefix('-').map_or((false, s), |r| (true, r));
    let s = s.strip_prefix("0x").unwrap();
    let (mant, exp) = s.split_once('p').unwrap();
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let mut v = u64::from_str_radix(int, 16).unwrap() as f64;
    for (k, c) in frac.chars().enumerate() {
        v += c.to_digit(16).unwrap() as f64 * 16f64.powi(-(k as i32) - 1);
    }
    let v = v * 2f64.powi(exp.parse().unwrap());
    if neg {
        -v
    } else {
        v
    }
}

/// The program as the analyses see it: `main`, with stubs for the
/// driver's functions, built.
pub fn build(dir: &Path, prog: &str) -> fpsym_frontend::Program {
    let src = dir.join("task.c");
    std::fs::write(
        &src,
        prog.replace("int prog_main(void)", "int main(void)")
            + "void observe(double v) { (void)v; }\nvoid reach_error(void) {}\n",
    )
    .unwrap();
    let work = dir.join("build");
    fpsym_frontend::build(&[src], &fpsym_frontend::CompileOptions::default(), &work).expect("builds")
}

/// The abstract interpretation of the program.
pub fn analyse(dir: &Path, prog: &str) -> Outcome {
    analyse_built(&build(dir, prog))
}

/// The abstract interpretation of a built program.
pub fn analyse_built(p: &fpsym_frontend::Program) -> Outcome {
    analyse_fp(p, Default::default())
}

/// The abstract interpretation of a built program, with floating-point
/// exceptions among the targets.
pub fn analyse_fp(p: &fpsym_frontend::Program, fp: fpsym_prove::FpChecks) -> Outcome {
    prove(
        p,
        &ProveOptions {
            entry: "main".into(),
            targets: vec!["reach_error".into()],
            checks: false,
            fp,
            params: Vec::new(),
            deadline: None,
            cancel: None,
        },
    )
}

/// The program with a check planted that a native run reaches (`v0` at
/// least its largest value seen, or NaN when it was): each program with
/// its native hits (asserted nonzero).
pub fn planted(dir: &Path, template: &str, range: f64, seed: u64) -> Vec<(String, u64)> {
    let (_, max, nan) = native(dir, &template.replace("CHECK", "0"), range, seed);
    let mut plants = Vec::new();
    if max.is_finite() {
        plants.push(format!("v0 >= {max:?}"));
    }
    if nan {
        plants.push("v0 != v0".into());
    }
    plants
        .into_iter()
        .map(|check| {
            let prog = template.replace("CHECK", &check);
            let (hits, _, _) = native(dir, &prog, range, seed);
            assert!(
                hits > 0,
                "the planted check `{check}` was not reached natively:\n{prog}"
            );
            (prog, hits)
        })
        .collect()
}

/// Runs the program natively on [`RUNS`] nondet sequences: whether its
/// operations raised FE_OVERFLOW and FE_DIVBYZERO (the driver's own
/// conversions of the edge values to `float` leave the flags as they were).
pub fn native_flags(dir: &Path, prog: &str, range: f64, seed: u64) -> (bool, bool) {
    let driver = DRIVER
        .replace("#include <float.h>", "#include <float.h>\n#include <fenv.h>")
        .replace(
            "float __VERIFIER_nondet_float(void) { return (float)pick(); }",
            "float __VERIFIER_nondet_float(void) {\n  fexcept_t f;\n  fegetexceptflag(&f, FE_ALL_EXCEPT);\n  \
             float r = (float)pick();\n  fesetexceptflag(&f, FE_ALL_EXCEPT);\n  return r;\n}",
        )
        .replace(
            "printf(\"%ld %a %d\\n\", hits, observed_max, observed_nan);",
            "printf(\"%d %d\\n\", fetestexcept(FE_OVERFLOW) != 0, fetestexcept(FE_DIVBYZERO) != 0);",
        );
    assert!(
        driver.contains("fetestexcept") && driver.contains("fesetexceptflag"),
        "the driver changed"
    );
    let exe = compile_native(dir, prog, &driver, "prog_fe", range);
    let o = Command::new(&exe).arg(seed.to_string()).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let f: Vec<&str> = out.split_whitespace().collect();
    (f[0] == "1", f[1] == "1")
}

/// The program with `v0` and `v1` kept in memory, as the variant says:
/// 0, a local array read and written through a pointer to an element;
/// 1, fields of a local struct; 2, scalars written through their addresses
/// by a helper; 3, an array also written at an index the input chooses;
/// 4, the scalars also written through a pointer to one of them.
pub fn in_memory(template: &str, ty: &str, variant: u64) -> String {
    let decl = template
        .lines()
        .find(|l| l.starts_with(&format!("  {ty} v0 = ")))
        .expect("the generator's declaration of v0 and v1");
    let rest = decl.trim_start_matches(&format!("  {ty} v0 = ")).trim_end_matches(';');
    let (c0, c1) = rest.split_once(", v1 = ").expect("v0 then v1");
    let (defs, new_decl) = match variant % 5 {
        0 => (
            "#define v0 m[0]\n#define v1 (*p)\n".to_string(),
            format!("  {ty} m[3] = {{{c0}, {c1}, 0}};\n  {ty} *p = &m[1];"),
        ),
        1 => (
            "#define v0 s.a\n#define v1 s.b[1]\n".to_string(),
            format!("  struct {{ int n; {ty} a; {ty} b[2]; }} s = {{0, {c0}, {{0, {c1}}}}};"),
        ),
        2 => (
            format!("static void set({ty} *d, {ty} v) {{ *d = v; }}\n"),
            decl.to_string(),
        ),
        3 => (
            "#define v0 m[0]\n#define v1 m[1]\n".to_string(),
            format!("  {ty} m[2] = {{{c0}, {c1}}};"),
        ),
        _ => (String::new(), decl.to_string()),
    };
    let mut out = template
        .replace(decl, &new_decl)
        .replace("int prog_main(void)", &format!("{defs}int prog_main(void)"));
    match variant % 5 {
        2 => {
            // each assignment of v0 or v1 through the helper
            let lines: Vec<String> = out
                .lines()
                .map(|l| {
                    match l
                        .trim_start()
                        .strip_prefix("v0 = ")
                        .or_else(|| l.trim_start().strip_prefix("v1 = "))
                    {
                        Some(e) if !l.contains("if (") => {
                            let var = &l.trim_start()[..2];
                            format!("    set(&{var}, {});", e.trim_end_matches(';'))
                        }
                        _ => l.to_string(),
                    }
                })
                .collect();
            out = lines.join("\n") + "\n";
        }
        3 => {
            // the input over one of them, chosen by the input
            out = out.replace("    i++;", "    m[__VERIFIER_nondet_int() & 1] = x;\n    i++;");
        }
        4 => {
            // the input through a pointer to one of them, chosen by the input
            out = out.replace(
                "    i++;",
                &format!("    {{ {ty} *q = (__VERIFIER_nondet_int() & 1) ? &v0 : &v1; *q = x; }}\n    i++;"),
            );
        }
        _ => {}
    }
    assert!(out != template, "nothing was moved into memory");
    out
}
