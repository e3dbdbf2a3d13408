//! Measurements, not tests: run with
//! `cargo test -p fpsym-solver --test cp_bench -- --ignored --nocapture`.
//!
//! `cp_vs_z3_on_scripts` decides every `*.smt2` script of `$CP_BENCH_DIR`
//! (default `target/cpbench_dich` in the workspace, made by
//! `python3 bench/cp/gen_dichotomic.py target/cpbench_dich`; a missing
//! directory fails the measurement)
//! with the CP solver with and without ULP-Max and with Z3, each under
//! `$CP_BENCH_TIMEOUT` seconds (default 60), and prints seed 000's columns:
//! constraints, variables, ULP-Max firings (NbE) and floats pruned (NbD),
//! nodes and times (`CP_BENCH_NO_Z3=1` skips Z3).

use fpsym_solver::cp::{CpConfig, CpSolver};
use fpsym_solver::{build, Backend, Budget, Query, SolveResult, Solver, SolverConfig};
use std::time::{Duration, Instant};

fn run(s: &mut dyn Solver, q: &Query, t: Duration) -> (String, f64) {
    let t0 = Instant::now();
    let r = s.check(q, &Budget::timeout(t));
    let el = t0.elapsed().as_secs_f64();
    let label = match r {
        Ok(SolveResult::Unknown(r)) => format!("unknown({r})"),
        Ok(r) => r.label().to_string(),
        Err(e) => format!("ERROR {e}"),
    };
    (label, el)
}

#[test]
#[ignore]
fn cp_vs_z3_on_scripts() {
    let default = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/cpbench_dich");
    let dir = std::env::var_os("CP_BENCH_DIR").map_or(default, std::path::PathBuf::from);
    let secs: u64 = std::env::var("CP_BENCH_TIMEOUT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let t = Duration::from_secs(secs);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e}; make it with `python3 bench/cp/gen_dichotomic.py DIR` and set CP_BENCH_DIR=DIR",
                dir.display()
            )
        })
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "smt2"));
    files.sort();
    assert!(!files.is_empty(), "no .smt2 scripts in {}", dir.display());
    println!(
        "{:<28} {:>4} {:>4} | {:>8} {:>9} {:>7} {:>9} {:>12} | {:>8} {:>9} {:>7} | {:>8} {:>9}",
        "script", "NbC", "NbV", "cp", "time", "nodes", "NbE", "NbD", "no-ulp", "time", "nodes", "z3", "time"
    );
    for p in files {
        let src = std::fs::read_to_string(&p).unwrap();
        let script = fpsym_smtlib::parse_script(&src, &p.display().to_string()).expect("parses");
        let q = Query::new(script.assertions_before(script.commands.len()));
        let mut on = CpSolver::new(CpConfig::default());
        let (a_on, t_on) = run(&mut on, &q, t);
        let st = on.statistics().clone();
        let mut off = CpSolver::new(CpConfig::default().with_ulp_max(false));
        let (a_off, t_off) = run(&mut off, &q, t);
        let st_off = off.statistics().clone();
        let (a_z3, t_z3) = if std::env::var("CP_BENCH_NO_Z3").is_ok() {
            ("-".to_string(), 0.0)
        } else {
            let mut z3 = build(&SolverConfig::bare(Backend::Z3));
            run(z3.as_mut(), &q, t)
        };
        println!(
            "{:<28} {:>4} {:>4} | {:>8} {:>9.3} {:>7} {:>9} {:>12.0} | {:>8} {:>9.3} {:>7} | {:>8} {:>9.3}",
            p.file_name().unwrap().to_string_lossy(),
            st.constraints,
            st.variables,
            a_on,
            t_on,
            st.nodes,
            st.ulp_max_firings,
            st.ulp_max_pruned,
            a_off,
            t_off,
            st_off.nodes,
            a_z3,
            t_z3
        );
    }
}

/// Time per propagator run for typical binary64 domains.
#[test]
#[ignore]
fn propagator_speed() {
    use fpsym_expr::{Float, Op, RoundingMode};
    use fpsym_float::FloatInterval;
    use fpsym_solver::cp::{propagate_op_counting, Domain, RmSet, Stats};
    let f = |x: f64| Float::from_f64(x);
    let iv = |a: f64, b: f64| Domain::Fp(FloatInterval::new(f(a), f(b), false));
    let cfg = CpConfig::default();
    for (name, op, x, y, z) in [
        ("add narrow", Op::FpAdd, iv(1.0, 2.0), iv(-1e10, 1e10), iv(0.5, 0.75)),
        (
            "add full",
            Op::FpAdd,
            Domain::Fp(FloatInterval::full(fpsym_float::Format::BINARY64)),
            Domain::Fp(FloatInterval::full(fpsym_float::Format::BINARY64)),
            iv(0.5, 0.75),
        ),
        ("mul", Op::FpMul, iv(-3.0, 1e5), iv(-1e10, 1e10), iv(0.5, 0.75)),
        ("div", Op::FpDiv, iv(-3.0, 1e5), iv(-1e10, 1e10), iv(0.5, 0.75)),
    ] {
        let n = 200;
        let t0 = Instant::now();
        let mut st = Stats::default();
        for _ in 0..n {
            let mut args = vec![Domain::Rm(RmSet::point(RoundingMode::NearestTiesToEven)), x, y];
            let mut res = z;
            propagate_op_counting(&op, &mut args, &mut res, &cfg, &mut st);
        }
        let el = t0.elapsed();
        println!(
            "{name:<12} {:>8.1} µs per fixpoint, {:.1} runs per fixpoint",
            el.as_secs_f64() * 1e6 / n as f64,
            st.propagations as f64 / n as f64
        );
    }
    let t0 = Instant::now();
    let mut k = 0u64;
    let a = Float::from_f64(1.2345);
    let b = Float::from_f64(9.87654e10);
    while t0.elapsed() < Duration::from_millis(300) {
        for _ in 0..100 {
            std::hint::black_box(a.add(b, RoundingMode::NearestTiesToEven));
        }
        k += 100;
    }
    println!("Float::add: {:.0} ns", t0.elapsed().as_secs_f64() * 1e9 / k as f64);
}

/// The effect of ULP-Max on small families where the Marre–Michel bound
/// decides: `x ⊕ y ∈ [1, 2]` (or `x ⊖ y`) with `x` forced above or below β.
#[test]
#[ignore]
fn ulp_max_effect() {
    use fpsym_expr::{Float, Format, Op, RoundingMode, Sort, Term};
    let rne = || Term::rm(RoundingMode::NearestTiesToEven);
    let app = |op: Op, a: Vec<Term>| Term::app(op, a).unwrap();
    let mut rows = Vec::new();
    for (fmt, lo_exp) in [
        (Format::BINARY32, 20),
        (Format::BINARY32, 26),
        (Format::BINARY64, 50),
        (Format::BINARY64, 55),
    ] {
        for sub in [false, true] {
            let x = Term::var("x", Sort::Float(fmt));
            let y = Term::var("y", Sort::Float(fmt));
            let c = |v: Float| Term::fp(v);
            let z = app(
                if sub { Op::FpSub } else { Op::FpAdd },
                vec![rne(), x.clone(), y.clone()],
            );
            let q = Query::new(vec![
                app(Op::FpGeq, vec![z.clone(), c(Float::one(fmt, false))]),
                app(Op::FpLeq, vec![z, c(Float::pow2(fmt, 1).unwrap())]),
                app(Op::FpGeq, vec![x.clone(), c(Float::pow2(fmt, lo_exp).unwrap())]),
            ]);
            let name = format!(
                "{} x {} y in [1,2], x >= 2^{lo_exp} ({})",
                if sub { "-" } else { "+" },
                fmt.name(),
                fmt.sb()
            );
            let mut cells = Vec::new();
            for ulp in [true, false] {
                let mut s = CpSolver::new(CpConfig::default().with_ulp_max(ulp));
                let (a, t) = run(&mut s, &q, Duration::from_secs(20));
                let st = s.statistics();
                cells.push(format!(
                    "{a:>9} {t:>7.3}s nodes {:>7} NbE {:>3} NbD {:>12.3e}",
                    st.nodes, st.ulp_max_firings, st.ulp_max_pruned
                ));
            }
            rows.push(format!("{name:<42} | with: {} | without: {}", cells[0], cells[1]));
        }
    }
    for r in rows {
        println!("{r}");
    }
}

/// One script decided repeatedly (for profiling): `$CP_PROFILE_FILE`.
#[test]
#[ignore]
fn profile_one_script() {
    let p = std::env::var("CP_PROFILE_FILE").expect("set CP_PROFILE_FILE to the .smt2 script to profile");
    let src = std::fs::read_to_string(&p).unwrap();
    let script = fpsym_smtlib::parse_script(&src, &p).expect("parses");
    let q = Query::new(script.assertions_before(script.commands.len()));
    for _ in 0..3 {
        let mut s = CpSolver::new(CpConfig::default());
        let (a, t) = run(&mut s, &q, Duration::from_secs(60));
        println!("{a} {t:.3}s {:?}", s.statistics());
    }
}
