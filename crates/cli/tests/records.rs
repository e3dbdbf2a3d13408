//! What a test file shows: every input's value, read from its bytes.
//! Scalars in decimal (and hex-float for floats), arrays element by
//! element, structs by member name from the debug information, also for
//! the struct parameters of a `--function` entry that clang splits into
//! registers. Fixture: `tests/c/records.c`; native replay still confirms.

mod common;

use common::replay_confirms;
use fpsym_report::{FindingKind, Test, TestElement, TestObject};
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name)
}

/// Runs `fpsym run records.c` with `extra` into a fresh directory; returns
/// the exit code, the output and the directory.
fn run(tag: &str, extra: &[&str]) -> (Option<i32>, String, PathBuf) {
    let out = std::env::temp_dir().join(format!("fpsym-records-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym"))
        .args([
            "run",
            fixture("records.c").to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .args(["--solver", "z3", "--max-time", "300", "--fuzz-time", "0"])
        .args(extra)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    (o.status.code(), text, out)
}

/// The test of the only finding, which must be a reach-error at `line`.
fn finding_test(out: &Path, line: u32) -> Test {
    let findings = common::findings(out);
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0].kind, FindingKind::ReachError, "{findings:?}");
    assert_eq!(findings[0].line, line, "{findings:?}");
    common::test(out, findings[0].test)
}

fn hex_bytes(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

fn f64_at(b: &[u8]) -> f64 {
    f64::from_le_bytes(b[..8].try_into().unwrap())
}

fn f32_at(b: &[u8]) -> f32 {
    f32::from_le_bytes(b[..4].try_into().unwrap())
}

/// Checks a value (decimal, plus hex-float for floats) against the bytes
/// of a scalar of C type `ty`; returns how many bytes it occupies.
fn check_scalar(what: &str, ty: &str, value: Option<&str>, hex: Option<&str>, b: &[u8]) -> usize {
    let value = value.unwrap_or_else(|| panic!("{what}: no value"));
    match ty {
        "double" => {
            let want = f64_at(b);
            let got: f64 = value.parse().unwrap();
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "{what}: {value} vs {want:e}"
            );
            assert!(
                hex.is_some_and(|h| h.contains("0x") || h.contains("nan") || h.contains("inf")),
                "{what}"
            );
            8
        }
        "float" => {
            let want = f32_at(b);
            let got: f32 = value.parse().unwrap();
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "{what}: {value} vs {want:e}"
            );
            assert!(hex.is_some(), "{what}");
            4
        }
        "int" => {
            assert_eq!(
                value.parse::<i32>().unwrap(),
                i32::from_le_bytes(b[..4].try_into().unwrap()),
                "{what}"
            );
            assert!(hex.is_none(), "{what}");
            4
        }
        "unsigned int" => {
            assert_eq!(
                value.parse::<u32>().unwrap(),
                u32::from_le_bytes(b[..4].try_into().unwrap()),
                "{what}"
            );
            4
        }
        other => panic!("{what}: unexpected type {other}"),
    }
}

/// Every object of every test: a scalar's value, or each element's, is
/// what its bytes hold (the fixture's structs have no padding, so elements
/// follow one another).
fn check_all_consistent(out: &Path) {
    let mut n = 0;
    for t in common::tests(out) {
        for o in &t.objects {
            let b = hex_bytes(&o.bytes);
            let name = &o.name;
            // Records list `elements` only when there are some.
            if !o.elements.is_empty() {
                assert!(o.value.is_none(), "{o:?}");
                let mut at = 0;
                for e in &o.elements {
                    at += check_scalar(&e.name, &e.ty, Some(&e.value), e.hex.as_deref(), &b[at..]);
                }
                assert_eq!(at, b.len(), "{o:?}");
            } else {
                let used = check_scalar(name, &o.ty, o.value.as_deref(), o.hex.as_deref(), &b);
                assert_eq!(used, b.len(), "{o:?}");
            }
            n += 1;
        }
    }
    assert!(n > 0);
}

/// (name, type) of an object's elements.
fn element_names(o: &TestObject) -> Vec<(String, String)> {
    assert!(!o.elements.is_empty(), "no elements: {o:?}");
    o.elements.iter().map(|e| (e.name.clone(), e.ty.clone())).collect()
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

/// A scalar object's value.
fn value_f64(v: &TestObject) -> f64 {
    v.value
        .as_deref()
        .unwrap_or_else(|| panic!("no value: {v:?}"))
        .parse()
        .unwrap()
}

/// An element's value.
fn element_f64(e: &TestElement) -> f64 {
    e.value.parse().unwrap()
}

#[test]
fn klee_inputs_show_elements_members_and_integers() {
    let (code, text, out) = run("main", &[]);
    assert_eq!(code, Some(1), "{text}");
    let t = finding_test(&out, 28);
    let objs = &t.objects;
    let names: Vec<&str> = objs.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["a", "s", "n", "u"]);

    let a = &objs[0];
    assert_eq!(a.ty, "double[3]");
    assert_eq!(
        element_names(a),
        pairs(&[("a[0]", "double"), ("a[1]", "double"), ("a[2]", "double")])
    );
    assert!(element_f64(&a.elements[1]) > 2.5, "{a:?}");
    assert_eq!(
        a.elements[1].value.parse::<f64>().unwrap(),
        f64_at(&hex_bytes(&a.bytes)[8..])
    );

    let s = &objs[1];
    assert_eq!(s.ty, "struct pt");
    assert_eq!(element_names(s), pairs(&[("s.x", "double"), ("s.y", "double")]));
    assert!(element_f64(&s.elements[1]) < -1.0, "{s:?}");

    let n = &objs[2];
    assert_eq!(
        (n.ty.as_str(), n.value.as_deref(), n.bytes.as_str()),
        ("int", Some("-7"), "f9ffffff")
    );
    assert!(n.elements.is_empty() && n.hex.is_none(), "{n:?}");
    let u = &objs[3];
    assert_eq!(u.ty, "unsigned int");
    assert!(
        u.value.as_deref().unwrap().parse::<u32>().unwrap() > 4_000_000_000,
        "{u:?}"
    );

    check_all_consistent(&out);
    replay_confirms(&out);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn function_struct_parameters_are_named_by_member() {
    // `--range` also takes the name tests show.
    let (code, text, out) = run("dist", &["--function", "dist", "--range", "p.x=[1.5,1.75]"]);
    assert_eq!(code, Some(1), "{text}");
    let t = finding_test(&out, 14);
    let json = serde_json::to_string(&t).unwrap();
    assert!(!json.contains("coerce"), "{json}");
    let objs = &t.objects;
    let shown: Vec<(&str, &str)> = objs.iter().map(|o| (o.name.as_str(), o.ty.as_str())).collect();
    // One object per IR parameter (replay feeds them in this order).
    assert_eq!(
        shown,
        [
            ("p.x", "double"),
            ("p.y", "double"),
            ("m.{id,flags}", "struct mix bytes 0..8"),
            ("m.w", "float"),
            ("q", "struct pt[1]"),
        ]
    );
    let px = value_f64(&objs[0]);
    assert!(px > 1.5 && px <= 1.75, "{:?}", objs[0]);
    assert!(objs[0].hex.as_deref().unwrap().starts_with("0x1."), "{:?}", objs[0]);
    assert!(value_f64(&objs[1]) < -2.0, "{:?}", objs[1]);
    assert_eq!(
        element_names(&objs[2]),
        pairs(&[("m.id", "int"), ("m.flags", "unsigned int")])
    );
    assert_eq!(objs[2].elements[0].value, "-5");
    assert!(objs[2].elements[1].value.parse::<u32>().unwrap() > 4_000_000_000);
    assert_eq!(
        (objs[3].value.as_deref(), objs[3].hex.as_deref()),
        (Some("2.5e-1"), Some("0x1p-2"))
    );
    assert_eq!(
        element_names(&objs[4]),
        pairs(&[("q[0].x", "double"), ("q[0].y", "double")])
    );
    assert_eq!(objs[4].elements[1].value, "5e-1");

    check_all_consistent(&out);
    replay_confirms(&out);
    let _ = std::fs::remove_dir_all(&out);
}
