//! The analysis on C programs, each with its expected outcome.

mod common;

use fpsym_prove::Outcome;
use std::path::PathBuf;

fn run(name: &str) -> Outcome {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    let work = std::env::temp_dir().join(format!("fpsym-prove-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    let prog = fpsym_frontend::build(&[src], &fpsym_frontend::CompileOptions::default(), &work).expect("builds");
    let out = common::analyse_built(&prog);
    let _ = std::fs::remove_dir_all(&work);
    out
}

fn proved(name: &str) -> Vec<String> {
    match run(name) {
        Outcome::Proved(inv) => inv.iter().map(|i| i.to_string()).collect(),
        other => panic!("{name}: not proved: {other:?}"),
    }
}

fn not_proved(name: &str) {
    if let Outcome::Proved(inv) = run(name) {
        panic!("{name}: proved, but it reaches the error: {inv:?}");
    }
}

#[test]
fn a_stable_filter_is_proved_with_its_invariant() {
    let inv = proved("filter1.c");
    assert_eq!(inv, vec!["y in [-2.0, 2.0]".to_string()]);
}

#[test]
fn loops_with_saturation_bisection_and_tables_are_proved() {
    let s = proved("saturate.c");
    assert!(s.iter().any(|i| i.contains("s in [-0.0, 100.0]")), "{s:?}");
    let b = proved("bisect.c");
    assert!(
        b.iter()
            .any(|i| i.contains("lo in [0.0, 4.0]") && i.contains("hi in [0.0, 4.0]") && i.contains("i in [0, 60]")),
        "{b:?}"
    );
    proved("table.c");
    // a rounding-mode change, and table elements at constant indices
    let r = proved("rounding_table.c");
    assert!(r.iter().any(|i| i.contains("y in [-1.0")), "{r:?}");
}

#[test]
fn reachable_errors_are_never_proved() {
    // each of these reaches reach_error natively
    for p in ["diverge.c", "wrap.c", "nan.c", "cast.c", "volatile.c"] {
        not_proved(p);
    }
}

#[test]
fn what_is_not_modelled_stops_the_proof_with_its_place() {
    match run("array.c") {
        Outcome::GaveUp(g) => {
            let l = g.loc.clone().expect("a location");
            assert_eq!(l.line, 7, "{g}");
            assert!(g.what.contains("alloca"), "{g}");
        }
        other => panic!("{other:?}"),
    }
    match run("long_double.c") {
        Outcome::GaveUp(g) => assert!(g.what.contains("`long double` value"), "{g}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_second_order_filter_needs_and_gets_its_polytope() {
    // intervals alone grow without bound (1.5 + 0.7 > 1); the template
    // polyhedron along the loop's chains of directions bounds both values
    // near the filter's true gain (4.64)
    let inv = proved("filter2.c");
    assert_eq!(inv.len(), 1, "{inv:?}");
    let bound = |name: &str| -> f64 {
        let s = &inv[0];
        let at = s
            .find(&format!("{name} in [-"))
            .unwrap_or_else(|| panic!("{name} in {s}"));
        let rest = &s[at + name.len() + 6..];
        rest[..rest.find(',').unwrap()].parse().unwrap()
    };
    for v in ["y1", "y2"] {
        let b = bound(v);
        assert!((4.6..8.0).contains(&b), "{v}: {b} in {inv:?}");
    }
}
