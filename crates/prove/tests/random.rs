//! Soundness against the machine: random loop programs over `float` and
//! `double`, each run natively on thousands of nondet sequences rich in edge
//! values (signed zeros, infinities, NaN, subnormals, the extremes). A check
//! planted where a native run went is reachable and must never be proved;
//! a check the analysis proves must never be reached natively.

mod common;

use common::{analyse, analyse_fp, build, in_memory, native, native_flags, planted, Gen};
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

/// The same with the loop's values in local memory (an array through a
/// pointer, struct fields, scalars written through their addresses, an
/// array written at an index the input chooses, a pointer to one of two
/// scalars): what the analysis claims
/// of memory it follows holds natively, and some checks are proved.
#[test]
fn random_loops_in_local_memory_are_never_proved_where_the_machine_fails() {
    let dir = std::env::temp_dir().join(format!("fpsym-prove-random-mem-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut proved, mut planted_n, mut gave_up) = (0, 0, 0);
    for seed in 0..12u64 {
        let ty = if seed % 2 == 0 { "double" } else { "float" };
        let mut g = Gen {
            rng: StdRng::seed_from_u64(seed + 900),
            ty,
            inside: seed % 3 == 0,
        };
        let (template, range) = g.program();
        let template = in_memory(&template, ty, seed / 2);
        for (prog, hits) in planted(&dir, &template, range, seed) {
            planted_n += 1;
            match analyse(&dir, &prog) {
                Outcome::Proved(inv) => {
                    panic!("proved unreachable, but the machine reaches it {hits} times:\n{prog}\ninvariants: {inv:?}")
                }
                Outcome::GaveUp(g) => panic!("the analysis gave up on memory it should follow: {g}\n{prog}"),
                Outcome::MayReach(..) => {}
            }
        }
        let bound = [1.0, 10.0, 100.0, 1e4, 1e8][g.rng.gen_range(0..5)];
        let prog = template.replace("CHECK", &format!("v0 > {bound:?} || v0 < -{bound:?}"));
        match analyse(&dir, &prog) {
            Outcome::Proved(inv) => {
                proved += 1;
                let (hits, _, _) = native(&dir, &prog, range, seed + 1000);
                assert_eq!(
                    hits, 0,
                    "proved unreachable, but the machine reaches it:\n{prog}\ninvariants: {inv:?}"
                );
            }
            Outcome::GaveUp(_) => gave_up += 1,
            Outcome::MayReach(..) => {}
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("{planted_n} planted checks not proved; {proved} of 12 random checks proved, {gave_up} gave up");
    assert!(planted_n >= 12, "too few planted checks: {planted_n}");
    assert!(proved >= 3, "too few random checks proved: {proved}");
    assert_eq!(gave_up, 0, "the analysis gave up on memory it should follow");
}

/// Exceptions mode's proofs: on random loop programs, an overflow or a
/// division by zero the machine raises (FE_OVERFLOW, FE_DIVBYZERO over
/// thousands of native runs) is never proved absent, and some programs are
/// proved free of each.
#[test]
fn random_loops_are_never_proved_free_of_exceptions_the_machine_raises() {
    let dir = std::env::temp_dir().join(format!("fpsym-prove-random-fp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let overflow = fpsym_prove::FpChecks {
        overflow: true,
        ..Default::default()
    };
    let division = fpsym_prove::FpChecks {
        divide_by_zero: true,
        ..Default::default()
    };
    let (mut proved, mut raised) = ([0; 2], [0; 2]);
    for seed in 0..60u64 {
        let mut g = Gen {
            rng: StdRng::seed_from_u64(seed + 500),
            ty: if seed % 2 == 0 { "double" } else { "float" },
            inside: false,
        };
        let (template, range) = g.program();
        let prog = template.replace("CHECK", "0");
        let built = build(&dir, &prog);
        let flags = native_flags(&dir, &prog, range, seed);
        for (k, (checks, machine)) in [(overflow, flags.0), (division, flags.1)].into_iter().enumerate() {
            raised[k] += usize::from(machine);
            if let Outcome::Proved(inv) = analyse_fp(&built, checks) {
                proved[k] += 1;
                assert!(
                    !machine,
                    "proved free of {checks:?}, but the machine raises it:\n{prog}\ninvariants: {inv:?}"
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "overflow: {} proved, {} raised natively; division by zero: {} proved, {} raised",
        proved[0], raised[0], proved[1], raised[1]
    );
    assert!(proved[0] >= 5 && proved[1] >= 5, "too few proofs: {proved:?}");
    assert!(
        raised[0] >= 3 && raised[1] >= 3,
        "too few programs raising the flags: {raised:?}"
    );
}
