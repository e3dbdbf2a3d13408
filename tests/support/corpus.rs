//! Where the tests find the QF_FP benchmark corpus (shared by the smtlib
//! and solver test binaries with `#[path]`): `$FPSYM_CORPUS`, else
//! `../shared/bench/smtlib/qf_fp` beside the workspace, else
//! `/work/shared/bench/smtlib/qf_fp`. A missing corpus fails the test.

use std::path::{Path, PathBuf};

/// The QF_FP corpus directory; panics naming the places it looked when
/// there is none.
pub fn corpus_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("FPSYM_CORPUS") {
        let d = PathBuf::from(d);
        assert!(d.is_dir(), "FPSYM_CORPUS={}: not a directory", d.display());
        return d;
    }
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let places = [
        workspace.join("../shared/bench/smtlib/qf_fp"),
        PathBuf::from("/work/shared/bench/smtlib/qf_fp"),
    ];
    match places.iter().find(|d| d.is_dir()) {
        Some(d) => d.clone(),
        None => panic!(
            "the QF_FP corpus is missing: looked in {}; set FPSYM_CORPUS to its directory",
            places
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(" and ")
        ),
    }
}
