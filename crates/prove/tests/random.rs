//! Soundness against the machine: random loop programs over `float` and
//! `double`, each run natively on thousands of nondet sequences rich in edge
//! values (signed zeros, infinities, NaN, subnormals, the extremes). A check
//! planted where a native run went is reachable and must never be proved;
//! a check the analysis proves must never be reached natively.

mod common;

use common::{analyse, native, planted, Gen};
use fpsym_prove::Outcome;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

#[test]
fn random_loops_are_never_proved_where_the_machine_fails() {
    let dir = std::env::temp_dir().join(format!("fpsym-prove-random-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut proved, mut planted_n, mut checked) = (0, 0, 0);
    for seed in 0..30u64 {
        let mut g = Gen {
            rng: StdRng::seed_from_u64(seed),
            ty: if seed % 2 == 0 { "double" } else { "float" },
            inside: false,
        };
        let (template, range) = g.program();
        // 1-2. checks the machine reaches (the largest final v0, NaN) must
        // not be proved
        for (prog, hits) in planted(&dir, &template, range, seed) {
            planted_n += 1;
            if let Outcome::Proved(inv) = analyse(&dir, &prog) {
                panic!("proved unreachable, but the machine reaches it {hits} times:\n{prog}\ninvariants: {inv:?}");
            }
        }
        // 3. a random bound: when proved, no native run may reach it
        let bound = [1.0, 10.0, 100.0, 1e4, 1e8][g.rng.gen_range(0..5)];
        let prog = template.replace("CHECK", &format!("v0 > {bound:?} || v0 < -{bound:?}"));
        checked += 1;
        if let Outcome::Proved(inv) = analyse(&dir, &prog) {
            proved += 1;
            let (hits, _, _) = native(&dir, &prog, range, seed + 1000);
            assert_eq!(
                hits, 0,
                "proved unreachable, but the machine reaches it:\n{prog}\ninvariants: {inv:?}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "{planted_n} planted checks not proved; {proved} of {checked} random checks proved and not reached natively"
    );
    assert!(planted_n >= 30, "too few planted checks: {planted_n}");
    assert!(proved >= 8, "too few random checks proved: {proved}");
}
