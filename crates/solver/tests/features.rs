//! The engine depends on the `Solver` trait only (ARCHITECTURE.md, Style 1):
//! its dependency tree, dev-dependencies and build-dependencies included,
//! holds no `z3` or `z3-sys`. fpsym-solver's Z3 backend sits behind the `z3`
//! cargo feature, which the engine leaves off and the CLI turns on.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root (two levels above this crate).
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `cargo tree -p PACKAGE -e normal,build,dev --prefix none` in the workspace.
fn tree(package: &str) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| option_env!("CARGO").unwrap_or("cargo").to_string());
    let out = Command::new(&cargo)
        .current_dir(workspace())
        .args(["tree", "-p", package, "-e", "normal,build,dev", "--prefix", "none"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cargo} tree: {e}"));
    assert!(
        out.status.success(),
        "cargo tree -p {package} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("cargo tree prints UTF-8")
}

/// The lines of `tree` naming a z3 crate.
fn z3_lines(tree: &str) -> Vec<&str> {
    tree.lines().filter(|l| l.to_ascii_lowercase().contains("z3")).collect()
}

#[test]
fn the_engine_does_not_depend_on_z3() {
    let engine = tree("fpsym-engine");
    assert!(
        engine.contains("fpsym-solver"),
        "the engine's tree lacks fpsym-solver:\n{engine}"
    );
    let found = z3_lines(&engine);
    assert!(
        found.is_empty(),
        "z3 in the engine's dependency tree:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_z3_backend_is_on_by_default() {
    // The check above can see z3: fpsym-solver's own default tree has it.
    let solver = tree("fpsym-solver");
    assert!(
        !z3_lines(&solver).is_empty(),
        "no z3 in fpsym-solver's default tree:\n{solver}"
    );
}
