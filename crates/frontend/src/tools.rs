//! The LLVM 14 command-line tools: finding them and running them.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::FrontendError;

/// An LLVM 14 tool the frontend runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tool {
    Clang,
    Link,
    Opt,
    Dis,
    As,
}

impl Tool {
    /// The versioned name looked up on `PATH`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Tool::Clang => "clang-14",
            Tool::Link => "llvm-link-14",
            Tool::Opt => "opt-14",
            Tool::Dis => "llvm-dis-14",
            Tool::As => "llvm-as-14",
        }
    }

    /// The unversioned name inside `/usr/lib/llvm-14/bin`.
    fn base_name(self) -> &'static str {
        match self {
            Tool::Clang => "clang",
            Tool::Link => "llvm-link",
            Tool::Opt => "opt",
            Tool::Dis => "llvm-dis",
            Tool::As => "llvm-as",
        }
    }

    /// The tool's path: its versioned name on `PATH`, else
    /// `/usr/lib/llvm-14/bin/NAME`.
    pub(crate) fn find(self) -> Result<PathBuf, FrontendError> {
        let on_path = std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(self.name()))
                .find(|p| p.is_file())
        });
        let fallback = Path::new("/usr/lib/llvm-14/bin").join(self.base_name());
        on_path
            .or_else(|| fallback.is_file().then_some(fallback))
            .ok_or(FrontendError::ToolMissing {
                tool: self.name().to_string(),
            })
    }

    /// Runs the tool with `args`, feeding `stdin` if given; returns its output
    /// whatever its exit status.
    pub(crate) fn run<S: AsRef<std::ffi::OsStr>>(
        self,
        args: &[S],
        stdin: Option<&[u8]>,
    ) -> Result<Output, FrontendError> {
        let path = self.find()?;
        let mut cmd = Command::new(&path);
        cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
        let io_err = |source| FrontendError::Io {
            path: path.clone(),
            source,
        };
        match stdin {
            None => cmd.stdin(Stdio::null()).output().map_err(io_err),
            Some(bytes) => {
                cmd.stdin(Stdio::piped());
                let mut child = cmd.spawn().map_err(io_err)?;
                let mut pipe = child.stdin.take().expect("piped stdin");
                let bytes = bytes.to_vec();
                let writer = std::thread::spawn(move || {
                    use std::io::Write;
                    pipe.write_all(&bytes)
                });
                let out = child.wait_with_output().map_err(io_err)?;
                // A tool that exits early closes the pipe; its status says why.
                let _ = writer.join();
                Ok(out)
            }
        }
    }

    /// Runs the tool and turns a failure into [`FrontendError::Tool`].
    pub(crate) fn run_ok<S: AsRef<std::ffi::OsStr>>(
        self,
        args: &[S],
        stdin: Option<&[u8]>,
    ) -> Result<Output, FrontendError> {
        let out = self.run(args, stdin)?;
        if out.status.success() {
            Ok(out)
        } else {
            Err(FrontendError::Tool {
                tool: self.name().to_string(),
                status: out.status.code(),
                stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            })
        }
    }
}
