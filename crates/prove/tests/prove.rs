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
    for p in [
        "diverge.c",
        "wrap.c",
        "nan.c",
        "cast.c",
        "volatile.c",
        "array.c",
        "stale_load.c",
        "weak_store.c",
        "pointer_walk.c",
    ] {
        not_proved(p);
    }
}

#[test]
fn what_is_not_modelled_stops_the_proof_with_its_place() {
    for (file, line, what) in [
        ("punning.c", 8, "`v` (a double) read or written as another type (i64)"),
        ("out_of_bounds.c", 9, "an access to `buf` that may be out of its bounds"),
        ("dangling.c", 13, "an access to `t` after its call returned"),
    ] {
        match run(file) {
            Outcome::GaveUp(g) => {
                assert_eq!(g.loc.as_ref().map(|l| l.line), Some(line), "{file}: {g}");
                assert!(g.what.contains(what), "{file}: {g}");
            }
            other => panic!("{file}: {other:?}"),
        }
    }
    match run("long_double.c") {
        Outcome::GaveUp(g) => assert!(g.what.contains("`long double` value"), "{g}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn local_arrays_structs_and_addresses_are_followed() {
    let m = proved("local_memory.c");
    assert!(
        m.iter()
            .any(|i| i.contains("s.a in [-2.0, 2.0]") && i.contains("t[3] in 8.0") && i.contains("y[0] in [-0.875")),
        "{m:?}"
    );
    let a = proved("address_taken.c");
    assert_eq!(a, vec!["s in [-100.0, 100.0]".to_string()]);
    // a pointer to one of two variables
    let p = proved("select_pointer.c");
    assert!(
        p.iter()
            .any(|i| i.contains("left in [-1.0, 1.0]") && i.contains("right in [-1.0, 1.0]")),
        "{p:?}"
    );
    // the relational domain over an array's elements
    let f = proved("local_filter.c");
    assert!(
        f.iter()
            .any(|i| i.contains("y[0] in [-") && i.contains("y[1] in [-") && i.contains("linear constraints")),
        "{f:?}"
    );
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
