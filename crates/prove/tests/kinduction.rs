//! k-induction against the machine: the random loop programs of
//! `random.rs`, with their check after the loop or inside it (after each
//! iteration), run natively on thousands of nondet sequences rich in edge
//! values. k-induction, alone and assuming the abstract interpretation's
//! invariants, must never prove a check a native run reaches; a check it
//! proves must never be reached natively.

mod common;

use common::{analyse_built, build, native, planted, Gen};
use fpsym_engine::induction::{self, Outcome as K};
use fpsym_prove::Outcome;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::Path;
use std::time::{Duration, Instant};

/// Programs tried (half with the check in the loop).
const PROGRAMS: u64 = 16;

/// k-induction on the program at `dir`, assuming the abstract
/// interpretation's invariants when `strengthened`.
fn kind(p: &fpsym_frontend::Program, strengthened: bool) -> K {
    let invs = match (strengthened, analyse_built(p)) {
        (true, Outcome::Proved(i) | Outcome::MayReach(_, i)) => i,
        _ => Vec::new(),
    };
    let facts = |h: &fpsym_frontend::llvm_ir::Name| fpsym_prove::induction_facts(&invs, h);
    let mut config = fpsym_engine::Config::default();
    config.goals.property = fpsym_engine::Property::UnreachCall;
    let mut solver = fpsym_solver::build(&Default::default());
    induction::prove(
        p,
        solver.as_mut(),
        &config,
        &induction::Options {
            facts: &facts,
            max_k: 3,
            deadline: Instant::now() + Duration::from_secs(3),
            interrupt: Default::default(),
        },
    )
}

fn proved(dir: &Path, prog: &str) -> Option<(bool, u32)> {
    let p = build(dir, prog);
    for strengthened in [false, true] {
        if let K::Proved { k, .. } = kind(&p, strengthened) {
            return Some((strengthened, k));
        }
    }
    None
}

#[test]
fn k_induction_never_proves_what_the_machine_reaches() {
    let dir = std::env::temp_dir().join(format!("fpsym-kinduction-random-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut proved_n, mut planted_n, mut checked) = (0, 0, 0);
    for seed in 0..PROGRAMS {
        let mut g = Gen {
            rng: StdRng::seed_from_u64(seed + 500),
            ty: if seed % 4 < 2 { "double" } else { "float" },
            inside: seed % 2 == 0,
        };
        let (template, range) = g.program();
        // 1-2. checks the machine reaches (the largest v0 checked, NaN)
        // must not be proved
        for (prog, hits) in planted(&dir, &template, range, seed) {
            planted_n += 1;
            if let Some((s, k)) = proved(&dir, &prog) {
                panic!("k-induction (k = {k}, strengthened: {s}) proves it unreachable, but the machine reaches it {hits} times:\n{prog}");
            }
        }
        // 3. a random bound: when proved, no native run may reach it
        let bound = [1.0, 10.0, 100.0, 1e4, 1e8][g.rng.gen_range(0..5)];
        let prog = template.replace("CHECK", &format!("v0 > {bound:?} || v0 < -{bound:?}"));
        checked += 1;
        if let Some((s, k)) = proved(&dir, &prog) {
            proved_n += 1;
            let (hits, _, _) = native(&dir, &prog, range, seed + 1000);
            assert_eq!(
                hits, 0,
                "k-induction (k = {k}, strengthened: {s}) proves it unreachable, but the machine reaches it:\n{prog}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "{planted_n} planted checks not proved; {proved_n} of {checked} random checks proved and not reached natively"
    );
    assert!(planted_n >= 14, "too few planted checks: {planted_n}");
    assert!(proved_n >= 3, "too few random checks proved: {proved_n}");
}
