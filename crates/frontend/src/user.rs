//! Which code is the user's: one definition for coverage during analysis
//! and for locating failures in native stack traces during replay.

use std::path::{Path, PathBuf};

/// The user's source files, by the names they go by in debug locations
/// and stack traces: the basename of each `.c` and `.i` input and, for a
/// `.i` file, the name of the source it was preprocessed from (its first
/// line marker, `# 1 "task.c"`). The default counts every file as the
/// user's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UserCode {
    /// None: every file.
    names: Option<Vec<String>>,
}

impl UserCode {
    /// The user's code among `inputs` (`.bc`/`.ll` inputs name no source).
    pub fn from_inputs(inputs: &[PathBuf]) -> UserCode {
        let mut names = Vec::new();
        for f in inputs {
            let ext = f.extension().and_then(|e| e.to_str()).unwrap_or("");
            if !matches!(ext, "c" | "i") {
                continue;
            }
            if let Some(n) = f.file_name() {
                names.push(n.to_string_lossy().into_owned());
            }
            if ext == "i" {
                if let Some(n) = line_marker_source(f) {
                    if !names.contains(&n) {
                        names.push(n);
                    }
                }
            }
        }
        UserCode { names: Some(names) }
    }

    /// The basenames of the user's files (empty when every file is).
    pub fn names(&self) -> &[String] {
        self.names.as_deref().unwrap_or(&[])
    }

    /// Whether `file` (a path as debug information or a stack trace gives
    /// it) is one of the user's files.
    pub fn is_user_file(&self, file: &str) -> bool {
        let Some(names) = &self.names else {
            return true;
        };
        let base = Path::new(file)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        names.contains(&base)
    }

    /// Whether `f` is defined in one of the user's files (functions without
    /// debug information never are; with the default, every file, fpsym's
    /// runtime is).
    pub fn is_user_function(&self, f: &llvm_ir::Function) -> bool {
        f.debugloc.as_ref().is_some_and(|d| self.is_user_file(&d.filename))
    }
}

/// The basename of the file the first line marker of a preprocessed file
/// names (`# 1 "dir/task.c"` or `#line 1 "task.c"`), skipping `<built-in>`.
fn line_marker_source(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines().take(200).find_map(|l| {
        let rest = l.strip_prefix('#')?.trim_start();
        let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
        let (num, name) = rest.split_once(char::is_whitespace)?;
        num.parse::<u64>().ok()?;
        let name = name.trim_start().strip_prefix('"')?.split('"').next()?;
        if name.starts_with('<') || name.is_empty() {
            return None;
        }
        Path::new(name).file_name().map(|n| n.to_string_lossy().into_owned())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_and_their_line_markers() {
        let dir = std::env::temp_dir().join(format!("fpsym-user-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let i = dir.join("task.i");
        std::fs::write(
            &i,
            "# 1 \"<built-in>\"\n# 1 \"src/task_orig.c\"\nint main(void){return 0;}\n",
        )
        .unwrap();
        let u = UserCode::from_inputs(&[PathBuf::from("a/prog.c"), i, PathBuf::from("lib.bc")]);
        assert_eq!(u.names(), ["prog.c", "task.i", "task_orig.c"]);
        assert!(u.is_user_file("/abs/a/prog.c"));
        assert!(u.is_user_file("task_orig.c"));
        assert!(!u.is_user_file("runtime.c"));
        assert!(!u.is_user_file("xprog.c"));
        assert!(UserCode::default().is_user_file("anything.c"));
        assert!(!UserCode::from_inputs(&[PathBuf::from("lib.bc")]).is_user_file("lib.c"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
