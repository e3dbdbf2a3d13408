//! The debug-information reader on a small C file: parameters of a
//! function as C declares them (struct members with bit offsets, typedefs,
//! bit-fields, unions, arrays, pointees), locals behind their `alloca`s and
//! globals.

use std::path::{Path, PathBuf};

use fpsym_frontend::{build, CType, CompileOptions, FloatKind, ParamInfo, Program};

fn program(tag: &str) -> (Program, PathBuf) {
    let dir = std::env::temp_dir().join(format!("fpsym-debuginfo-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/debuginfo.c");
    let p = build(&[src], &CompileOptions::default(), &dir).expect("builds");
    (p, dir)
}

fn int(name: &str, bits: u32, signed: bool) -> CType {
    CType::Int {
        name: name.into(),
        bits,
        signed,
    }
}

fn double() -> CType {
    CType::Float {
        name: "double".into(),
        kind: FloatKind::Double,
    }
}

/// (field name, offset in bits, bit-field width, type name) of a record.
fn fields(t: &CType) -> Vec<(String, u64, Option<u32>, String)> {
    match t {
        CType::Record { fields, .. } => fields
            .iter()
            .map(|f| (f.name.clone(), f.offset_bits, f.bit_size, f.ty.name().to_string()))
            .collect(),
        other => panic!("not a record: {other:?}"),
    }
}

fn f(name: &str, off: u64, bits: Option<u32>, ty: &str) -> (String, u64, Option<u32>, String) {
    (name.into(), off, bits, ty.into())
}

#[test]
fn parameters_locals_and_globals_have_their_c_types() {
    let (p, dir) = program("params");
    let params: Vec<ParamInfo> = p.param_info("f").expect("f has debug information");
    let names: Vec<&str> = params.iter().map(|q| q.name.as_str()).collect();
    assert_eq!(names, ["p", "m", "q", "b", "un", "bg", "c", "flag", "fs", "n", "col"]);
    assert_eq!(
        params.iter().map(|q| q.arg).collect::<Vec<_>>(),
        (1..=11).collect::<Vec<_>>()
    );

    let pt = &params[0].ty;
    assert_eq!(pt.name(), "struct pt");
    assert_eq!(pt.size_bits(), 128);
    assert_eq!(fields(pt), [f("x", 0, None, "double"), f("y", 64, None, "double")]);
    assert_eq!(
        fields(&params[1].ty),
        [
            f("id", 0, None, "int"),
            f("flags", 32, None, "unsigned int"),
            f("w", 64, None, "float")
        ]
    );
    match &params[1].ty {
        CType::Record { fields, .. } => {
            assert_eq!(fields[0].ty, int("int", 32, true));
            assert_eq!(fields[1].ty, int("unsigned int", 32, false));
        }
        _ => unreachable!(),
    }
    // A pointer parameter carries its pointee (const dropped).
    match &params[2].ty {
        CType::Pointer { name, pointee } => {
            assert_eq!(name, "struct pt *");
            assert_eq!(pointee.as_deref(), Some(pt));
        }
        other => panic!("{other:?}"),
    }
    // Typedef of an anonymous struct with a bit-field.
    assert_eq!(params[3].ty.name(), "bits_t");
    assert_eq!(
        fields(&params[3].ty),
        [f("s", 0, Some(3), "short"), f("c", 8, None, "unsigned char")]
    );
    // A union: every member at offset 0, typedef names kept.
    match &params[4].ty {
        CType::Record { name, union, .. } => assert_eq!((name.as_str(), *union), ("union u", true)),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        fields(&params[4].ty),
        [f("d", 0, None, "double"), f("bits", 0, None, "uint64_t")]
    );
    // Arrays and long double inside a struct passed in memory.
    assert_eq!(
        fields(&params[5].ty),
        [f("v", 0, None, "double[3]"), f("ld", 256, None, "long double")]
    );
    match &params[5].ty {
        CType::Record { fields, size_bits, .. } => {
            assert_eq!(*size_bits, 384);
            assert_eq!(
                fields[0].ty,
                CType::Array {
                    name: "double[3]".into(),
                    element: Box::new(double()),
                    count: Some(3)
                }
            );
            assert!(matches!(
                fields[1].ty,
                CType::Float {
                    kind: FloatKind::X86Fp80,
                    ..
                }
            ));
        }
        _ => unreachable!(),
    }
    assert_eq!(params[6].ty, int("unsigned char", 8, false));
    assert_eq!(params[7].ty, int("_Bool", 8, false));
    assert_eq!(params[8].ty.name(), "float *");
    // A pointer inside the pointee is not followed.
    match &params[9].ty {
        CType::Pointer {
            pointee: Some(node), ..
        } => {
            assert_eq!(
                fields(node),
                [f("key", 0, None, "int"), f("next", 64, None, "struct node *")]
            );
            match node.as_ref() {
                CType::Record { fields, .. } => assert!(matches!(&fields[1].ty, CType::Pointer { pointee: None, .. })),
                _ => unreachable!(),
            }
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(params[10].ty, int("enum color", 32, false));

    // Locals by their alloca, including a shadowing one in a nested block.
    let a = p.local_variable("main", "a").expect("a");
    assert_eq!(
        (a.name.as_str(), a.ty.name(), a.ty.size_bits()),
        ("a", "double[3]", 192)
    );
    let m2 = p.local_variable("main", "m2").expect("m2");
    assert_eq!(m2.ty.name(), "double[2][3]");
    match &m2.ty {
        CType::Array { element, count, .. } => {
            assert_eq!(*count, Some(2));
            assert_eq!(element.name(), "double[3]");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        p.local_variable("main", "un").map(|v| v.ty),
        Some(int("unsigned int", 32, false))
    );
    let inner = p
        .function("main")
        .unwrap()
        .basic_blocks
        .iter()
        .flat_map(|b| &b.instrs)
        .filter_map(|i| match i {
            fpsym_frontend::llvm_ir::Instruction::Alloca(a) => Some(a.dest.to_string()),
            _ => None,
        })
        .find(|n| n != "%un" && n.starts_with("%un"))
        .expect("a second alloca for the inner `un`");
    let v = p.local_variable("main", &inner[1..]).expect("inner un");
    assert_eq!((v.name.as_str(), v.ty.clone()), ("un", int("int", 32, true)));
    assert_eq!(p.local_variable("main", "nothing"), None);
    // The struct parameter's own alloca in f is described too.
    assert_eq!(p.local_variable("f", "p").map(|v| v.ty), Some(pt.clone()));

    let g = p.global_variable("origin").expect("origin");
    assert_eq!((g.name.as_str(), &g.ty), ("origin", pt));
    // Functions without debug information (none here) and unknown names.
    assert_eq!(p.param_info("no_such_function"), None);
    let _ = std::fs::remove_dir_all(dir);
}
