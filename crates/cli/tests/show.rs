//! `fpsym show DIR|TEST.json`: every input by name and type, in decimal
//! and hex float, with its class computed from its bytes (NaN, inf,
//! subnormal, zero, normal; x87 long double too), arrays element by
//! element, the findings with their tests; `--json` the same as an
//! object; bad input (no such path, not a test record, a record edited by
//! hand, a test id not there) an input error, exit 2. Fixtures:
//! `tests/c/show.c`, `tests/c/records.c`.

mod common;

use fpsym_report::show_record::{Shown, ShownInput, ShownTest};
use fpsym_report::{FindingKind, Test};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(name)
}

/// `fpsym ARGS`: exit code, stdout, stderr.
fn fpsym(args: &[&str]) -> (Option<i32>, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_fpsym")).args(args).output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fpsym-show-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// `fpsym run show.c`, once for every test of this file: one finding,
/// whose test has every class of float.
fn special_run() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let out = scratch("special");
        let f = fixture("show.c");
        let (code, so, se) = fpsym(&[
            "run",
            f.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--solver",
            "z3",
            "--max-time",
            "120",
            "--fuzz-time",
            "0",
        ]);
        assert_eq!(code, Some(1), "{so}{se}");
        out
    })
}

/// The id of the test of the only finding of `dir`.
fn finding_test(dir: &Path) -> u64 {
    let (code, so, se) = fpsym(&["show", dir.to_str().unwrap(), "--json"]);
    assert_eq!(code, Some(0), "{so}{se}");
    let j: Shown = common::parse(&so);
    let f = &j.findings;
    assert_eq!(f.len(), 1, "{j:?}");
    f[0].test
}

fn input<'a>(test: &'a ShownTest, name: &str) -> &'a ShownInput {
    test.input(name)
}

#[test]
fn classes_are_computed_from_the_bytes() {
    let dir = special_run();
    let id = finding_test(dir);
    let (code, so, se) = fpsym(&["show", dir.to_str().unwrap(), "--test", &id.to_string(), "--json"]);
    assert_eq!(code, Some(0), "{so}{se}");
    let j: Shown = common::parse(&so);
    assert_eq!(j.entry.as_deref(), Some("main"));
    let t = j.tests.first().unwrap_or_else(|| panic!("{j:?}"));
    assert_eq!(t.id, id);
    assert_eq!(t.end, "error");
    assert_eq!(t.detail, "reach-error");
    assert_eq!(t.findings, [1]);
    let x = input(t, "x");
    assert_eq!((x.ty.as_str(), x.value.as_deref()), ("double", Some("nan")));
    assert_eq!(x.class.as_deref(), Some("NaN"));
    assert!(
        ["quiet", "signalling", "quiet, negative", "signalling, negative"]
            .contains(&x.class_detail.as_deref().unwrap()),
        "{x:?}"
    );
    let f = input(t, "f");
    assert_eq!((f.value.as_deref(), f.class.as_deref()), (Some("inf"), Some("inf")));
    assert_eq!(f.bytes, "0000807f");
    // The x87 subnormal: 16 bytes of memory, class from its 10.
    let l = input(t, "l");
    assert_eq!((l.ty.as_str(), l.size), ("long double", 16));
    assert_eq!(l.class.as_deref(), Some("subnormal"), "{l:?}");
    assert!(l.hex.as_deref().unwrap().starts_with("0x0."), "{l:?}");
    let n = input(t, "n");
    assert_eq!((n.value.as_deref(), n.class.as_deref()), (Some("-3"), None));
    // The array element by element.
    let arr = input(t, "arr");
    assert_eq!(arr.size, 24);
    let e = &arr.elements;
    let names: Vec<&str> = e.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["arr[0]", "arr[1]", "arr[2]"]);
    let classes: Vec<&str> = e.iter().map(|e| e.class.as_deref().unwrap()).collect();
    assert_eq!(classes, ["subnormal", "zero", "normal"]);
    assert_eq!((e[2].value.as_str(), e[2].hex.as_deref()), ("1.5e0", Some("0x1.8p+0")));
    // The element's decimal reads back to the element's bytes.
    let bytes = arr.bytes.as_str();
    let b: Vec<u8> = (0..8)
        .map(|k| u8::from_str_radix(&bytes[2 * k..2 * k + 2], 16).unwrap())
        .collect();
    let first = f64::from_le_bytes(b.try_into().unwrap());
    assert_eq!(e[0].value.parse::<f64>().unwrap(), first);
    assert!(first != 0.0 && first.abs() < f64::MIN_POSITIVE);

    // The text: the same, one input a line, elements below.
    let (code, so, se) = fpsym(&["show", dir.to_str().unwrap(), "--test", &id.to_string()]);
    assert_eq!(code, Some(0), "{so}{se}");
    assert!(so.contains(&format!("test {id:06}: reach-error")), "{so}");
    assert!(so.contains("  finding 001: reach-error at show.c:19:"), "{so}");
    assert!(so.contains("  x: double = nan  NaN ("), "{so}");
    assert!(so.contains("  f: float = inf  inf\n"), "{so}");
    assert!(so.contains("  n: int = -3\n"), "{so}");
    assert!(so.contains("  arr: double[3] (24 bytes)\n"), "{so}");
    assert!(so.contains("    arr[1]: double = "), "{so}");
    assert!(so.contains("    arr[2]: double = 1.5e0  0x1.8p+0  normal\n"), "{so}");
    assert!(so.contains("  subnormal\n"), "{so}");
    assert!(so.contains("findings:\n  001 reach-error at "), "{so}");
}

#[test]
fn a_directory_shows_every_test_and_its_findings() {
    let dir = scratch("records");
    let f = fixture("records.c");
    let (code, so, se) = fpsym(&[
        "run",
        f.to_str().unwrap(),
        "--function",
        "dist",
        "-o",
        dir.to_str().unwrap(),
        "--solver",
        "z3",
    ]);
    assert_eq!(code, Some(1), "{so}{se}");
    let (code, so, se) = fpsym(&["show", dir.to_str().unwrap(), "--json"]);
    assert_eq!(code, Some(0), "{so}{se}");
    let j: Shown = common::parse(&so);
    assert_eq!(j.entry.as_deref(), Some("--function dist"));
    let tests = &j.tests;
    let on_disk = std::fs::read_dir(dir.join("tests")).unwrap().count();
    assert_eq!(tests.len(), on_disk);
    let id = j.findings.first().unwrap_or_else(|| panic!("{j:?}")).test;
    let t = tests.iter().find(|t| t.id == id).unwrap();
    // A struct split into registers, by member.
    let m = input(t, "m.{id,flags}");
    let e = &m.elements;
    assert_eq!((e[0].name.as_str(), e[0].value.as_str()), ("m.id", "-5"));
    assert!(e[0].class.is_none());
    assert_eq!(input(t, "m.w").class.as_deref(), Some("normal"));
    assert_eq!(input(t, "m.w").value.as_deref(), Some("2.5e-1"));
    let q = input(t, "q");
    assert_eq!(q.elements[1].name, "q[0].y");
    assert_eq!(q.elements[1].class.as_deref(), Some("normal"));

    // One test file: the same test, with the findings of its directory.
    let file = dir.join("tests").join(format!("{id:06}.json"));
    let (code, so, se) = fpsym(&["show", file.to_str().unwrap(), "--json"]);
    assert_eq!(code, Some(0), "{so}{se}");
    let one: Shown = common::parse(&so);
    assert_eq!(one.tests.len(), 1);
    assert_eq!(one.tests[0].inputs, t.inputs);
    assert_eq!(one.findings.len(), 1);
    assert_eq!(one.findings[0].kind, FindingKind::ReachError);
    assert_eq!(one.findings[0].line, 14);

    // A test id that is not there: the ids that are.
    let (code, so, se) = fpsym(&["show", dir.to_str().unwrap(), "--test", "999"]);
    assert_eq!(code, Some(2), "{so}{se}");
    assert!(se.contains("no test 999 (the tests are 1"), "{se}");
    assert!(!se.contains("panicked"), "{se}");
}

#[test]
fn bad_input_is_an_input_error() {
    let dir = special_run();
    let id = finding_test(dir);
    let good: Test = common::test(dir, id);
    let work = scratch("bad");
    std::fs::create_dir_all(&work).unwrap();
    let show = |path: &Path| fpsym(&["show", path.to_str().unwrap()]);
    let expect_error = |path: &Path, want: &str| {
        let (code, so, se) = show(path);
        assert_eq!(code, Some(2), "{}: {so}{se}", path.display());
        assert!(se.contains(want), "{}: wanted `{want}` in\n{se}", path.display());
        assert!(!se.contains("panicked"), "{se}");
    };
    expect_error(&work.join("missing"), "No such file");
    // A directory that is not an output directory.
    expect_error(&work, "not a fpsym output directory");
    // A JSON file that is not a test record.
    expect_error(&dir.join("run.json"), "not a fpsym test record");
    // Test records edited by hand: written through their type (a record
    // that is not one is written as JSON below).
    let write = |name: &str, v: &Test| {
        let p = work.join(name);
        std::fs::write(&p, serde_json::to_string(v).unwrap()).unwrap();
        p
    };
    let edit = |f: &dyn Fn(&mut Test)| {
        let mut v = good.clone();
        f(&mut v);
        v
    };
    let idx = |name: &str| good.objects.iter().position(|o| o.name == name).unwrap();
    let (n, f, arr) = (idx("n"), idx("f"), idx("arr"));
    // The value changed, not the bytes.
    let p = write("value.json", &edit(&|v| v.objects[n].value = Some("4".into())));
    expect_error(&p, "input `n`: the record says 4 but its 4 bytes");
    let p = write("float.json", &edit(&|v| v.objects[f].value = Some("1e0".into())));
    expect_error(&p, "input `f`: the record says 1e0 (inf) but its bytes are inf (inf)");
    // Bytes that are not hex, or too few for the type.
    let p = write("hex.json", &edit(&|v| v.objects[f].bytes = "zz00807f".into()));
    expect_error(&p, "input `f`: its bytes `zz00807f` are not hex");
    let p = write("short.json", &edit(&|v| v.objects[f].bytes = "0000".into()));
    expect_error(&p, "input `f`: type `float` with 2 bytes");
    // An element whose value is not its hex float.
    let p = write(
        "element.json",
        &edit(&|v| v.objects[arr].elements[2].value = "2.5e0".into()),
    );
    expect_error(
        &p,
        "element `arr[2]`: 2.5e0 (0x1.8p+0) is not one float of type `double`",
    );
    // An element edited consistently (value and hex float agree) but not
    // its bytes: what replay feeds says otherwise.
    let p = write(
        "element-both.json",
        &edit(&|v| {
            v.objects[arr].elements[2].value = "2.5e0".into();
            v.objects[arr].elements[2].hex = Some("0x1.4p+1".into());
        }),
    );
    expect_error(
        &p,
        "element `arr[2]`: the record says 2.5e0 (0x1.4p+1) but its bytes are 1.5e0 (0x1.8p+0)",
    );
    // Fields missing.
    let p = work.join("fields.json");
    std::fs::write(&p, serde_json::json!({"id": 1}).to_string()).unwrap();
    expect_error(&p, "not a fpsym test record");
    // The good record still shows.
    let p = write("good.json", &good);
    let (code, so, se) = show(&p);
    assert_eq!(code, Some(0), "{so}{se}");
}

#[test]
fn standard_input_and_arguments_show_as_strings() {
    let dir = scratch("stdin");
    let f = fixture("symio_getchar.c");
    let (code, so, se) = fpsym(&[
        "run",
        f.to_str().unwrap(),
        "--sym-stdin",
        "4",
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(1), "{so}{se}");
    let id = finding_test(&dir);
    let (code, so, se) = fpsym(&["show", dir.to_str().unwrap(), "--test", &id.to_string()]);
    assert_eq!(code, Some(0), "{so}{se}");
    assert!(so.contains("  stdin: u8[4] = \"#!\\012x\"\n"), "{so}");
    let (code, so, se) = fpsym(&["show", dir.to_str().unwrap(), "--test", &id.to_string(), "--json"]);
    assert_eq!(code, Some(0), "{so}{se}");
    let j: Shown = common::parse(&so);
    let t = j.tests.first().unwrap_or_else(|| panic!("{j:?}"));
    assert_eq!(input(t, "stdin").string.as_deref(), Some("\"#!\\012x\""));
}
