//! The headers and C runtime sources fpsym ships, embedded in the binary and
//! written into the caller's work directory at build time.

use std::path::Path;

use crate::FrontendError;

/// Headers, relative to the include directory, with their contents.
pub(crate) const HEADERS: &[(&str, &str)] = &[
    ("klee/klee.h", include_str!("../include/klee/klee.h")),
    ("fpsym/svcomp.h", include_str!("../include/fpsym/svcomp.h")),
];

/// Runtime sources (file name, contents).
pub(crate) const RUNTIME: &[(&str, &str)] = &[
    ("string.c", include_str!("../runtime/string.c")),
    ("stdlib.c", include_str!("../runtime/stdlib.c")),
    ("ctype.c", include_str!("../runtime/ctype.c")),
    ("stdio.c", include_str!("../runtime/stdio.c")),
    ("streams.c", include_str!("../runtime/streams.c")),
];

/// Writes `files` under `dir`, creating directories; a file already holding
/// the same contents is left alone.
pub(crate) fn write_files(dir: &Path, files: &[(&str, &str)]) -> Result<(), FrontendError> {
    for (rel, contents) in files {
        let path = dir.join(rel);
        let io = |source| FrontendError::Io {
            path: path.clone(),
            source,
        };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        if std::fs::read(&path).ok().as_deref() == Some(contents.as_bytes()) {
            continue;
        }
        std::fs::write(&path, contents).map_err(io)?;
    }
    Ok(())
}
