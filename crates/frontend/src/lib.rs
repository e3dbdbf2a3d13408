//! fpsym's frontend: C sources and LLVM 14 bitcode in, a loaded and
//! validated [`Program`] out.
//!
//! [`build`] compiles each `.c` input with the flags fixed in
//! ARCHITECTURE.md (`clang-14 -g -O0 -Xclang -disable-O0-optnone
//! -ffp-contract=off -emit-llvm -c`, plus the user's `-I`, `-D` and extra
//! flags, plus fpsym's own include directory holding `klee/klee.h` and
//! `fpsym/svcomp.h`), takes `.bc` and `.ll` inputs as they are, links
//! everything with `llvm-link-14` (then fpsym's C runtime, weak definitions
//! of common `string.h`, `stdlib.h`, `ctype.h` functions and `stdio.h`'s
//! stdin readers, with
//! `--only-needed`), runs `opt-14 -mem2reg`, and loads the result with
//! llvm-ir. [`load`] loads an already linked module.
//!
//! Loading also recovers what llvm-ir drops: the exact bits of `x86_fp80`,
//! `fp128`, `half` and `bfloat` constants ([`Program::special_consts`],
//! [`Program::special_const`]) and the values of integer constants wider
//! than 64 bits ([`Program::int_const`]), read from `llvm-dis-14`'s text and
//! checked against llvm-ir's module shape. Validation then lists, with their
//! source lines, the constructs the executor does not support (see
//! [`UnsupportedSite`], [`Program::unsupported_sites`]); they are not
//! errors at load time: a path that reaches one stops there. The debug
//! information is indexed too (llvm-ir keeps only locations): C parameters,
//! locals and globals with their types, struct members and bit offsets
//! ([`Program::param_info`], [`Program::local_variable`],
//! [`Program::global_variable`]), so tests can show inputs as C declares
//! them.

#![deny(missing_docs)]

mod debuginfo;
mod embedded;
mod program;
mod special;
mod text;
mod tools;
mod user;
mod validate;

use std::fmt;
use std::path::{Path, PathBuf};

pub use debuginfo::{CType, Field, FloatKind, ParamInfo, Variable};
/// The llvm-ir crate the module is loaded with (use it rather than another
/// version for [`Program::module`]).
pub use llvm_ir;
pub use program::{is_i386, Loc, Program};
pub use special::{instruction_operands, SpecialConst, SpecialFloat};
pub use user::UserCode;
pub use validate::UnsupportedSite;

/// The code-generation flags of every build of the program, for analysis
/// and for native replay alike (fixed in ARCHITECTURE.md): debug
/// information, no optimisation, no contraction of `a*b+c` into an fma.
/// The analysis build adds what makes IR for fpsym (`-Xclang
/// -disable-O0-optnone -emit-llvm`); the replay build adds sanitizers.
pub const NATIVE_FLAGS: &[&str] = &["-g", "-O0", "-ffp-contract=off"];

/// The flags of the ILP32 data model (`--data-model ILP32`, SV-COMP's
/// 32-bit tasks): i386 code with 4-byte `long` and pointers, whose `float`
/// and `double` arithmetic is SSE2's as on x86-64 (clang's i386 default is
/// x87's, which fpsym does not model).
pub const ILP32_FLAGS: &[&str] = &["-m32", "-msse2", "-mfpmath=sse"];

/// How to compile the C inputs of [`build`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct CompileOptions {
    /// Extra include directories (`-I`), searched before fpsym's own.
    /// Default: none.
    pub include_dirs: Vec<PathBuf>,
    /// Macro definitions (`-D`), each `NAME` or `NAME=VALUE`. Default: none.
    pub defines: Vec<String>,
    /// Extra clang flags, appended after the fixed ones. Default: none.
    pub cflags: Vec<String>,
    /// Link fpsym's C runtime (string.h, stdlib.h, ctype.h functions and
    /// stdio.h's stdin readers, all
    /// weak so the program's own definitions win). Default: true.
    pub runtime: bool,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            include_dirs: Vec::new(),
            defines: Vec::new(),
            cflags: Vec::new(),
            runtime: true,
        }
    }
}

/// Why a program could not be built, loaded or accepted.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FrontendError {
    /// A tool (clang-14, llvm-link-14, opt-14, llvm-dis-14, llvm-as-14) is
    /// neither on `PATH` nor in `/usr/lib/llvm-14/bin`.
    #[error(
        "`{tool}` was not found on PATH nor in /usr/lib/llvm-14/bin; install the Debian package {} (scripts/bootstrap does)",
        tool_package(.tool)
    )]
    ToolMissing {
        /// The tool's name.
        tool: String,
    },
    /// clang rejected a C source; `stderr` holds its diagnostics exactly as
    /// clang printed them, and the error displays them verbatim.
    #[error("{}", clang_message(.input, *.status, .stderr))]
    Clang {
        /// The source clang was compiling.
        input: PathBuf,
        /// clang's exit code (`None` if it was killed by a signal).
        status: Option<i32>,
        /// clang's diagnostics, verbatim.
        stderr: String,
    },
    /// Another LLVM tool failed, e.g. llvm-link-14 on two strong
    /// definitions of one symbol, or on an unreadable bitcode input.
    #[error("{tool} failed{}:\n{}", status_suffix(*.status), .stderr.trim_end())]
    Tool {
        /// The tool's name.
        tool: String,
        /// Its exit code (`None` if it was killed by a signal).
        status: Option<i32>,
        /// Its diagnostics, verbatim.
        stderr: String,
    },
    /// An input is neither `.c`, `.i`, `.bc` nor `.ll`.
    #[error("{}: unsupported input (expected a .c, .i, .bc or .ll file)", .path.display())]
    UnsupportedInput {
        /// The input.
        path: PathBuf,
    },
    /// No input was given to [`build`].
    #[error("no input files")]
    NoInputs,
    /// A file could not be read or written, or a tool could not be started.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The file or tool.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// llvm-ir could not load the linked module.
    #[error("{}: cannot load the module: {message}", .path.display())]
    Load {
        /// The bitcode file.
        path: PathBuf,
        /// llvm-ir's message.
        message: String,
    },
    /// The module is not for x86-64 or i386 (fpsym's targets).
    #[error("module targets `{triple}`; fpsym supports x86-64 (LP64) and i386 (ILP32) only")]
    Target {
        /// The module's target triple.
        triple: String,
    },
    /// An i386 function whose float arithmetic is x87's (compiled without
    /// `-msse2 -mfpmath=sse`).
    #[error(
        "function `{function}` is compiled for i386 without SSE2: its float arithmetic would be x87's, \
         which fpsym does not model; compile with `-msse2 -mfpmath=sse` (as `--data-model ILP32` does)"
    )]
    X87 {
        /// The function.
        function: String,
    },
    /// llvm-dis's text and llvm-ir's module disagree (a bug in fpsym, or IR
    /// that the constant recovery does not understand); nothing is guessed.
    #[error("internal error while loading the module: {message}")]
    Internal {
        /// What disagreed.
        message: String,
    },
}

/// The Debian package that provides an LLVM 14 tool.
fn tool_package(tool: &str) -> &'static str {
    if tool.starts_with("clang") {
        "clang-14"
    } else {
        "llvm-14"
    }
}

fn status_suffix(status: Option<i32>) -> String {
    match status {
        Some(code) => format!(" (exit status {code})"),
        None => " (killed by a signal)".to_string(),
    }
}

fn clang_message(input: &Path, status: Option<i32>, stderr: &str) -> String {
    if stderr.trim().is_empty() {
        format!("clang-14 failed on {}{}", input.display(), status_suffix(status))
    } else {
        stderr.trim_end().to_string()
    }
}

/// Compiles and links `inputs` (`.c` sources, `.bc`/`.ll` LLVM 14 modules)
/// and loads the result; see the crate documentation for the pipeline.
///
/// `workdir` is a scratch directory the caller owns: fpsym's headers go to
/// `workdir/include`, the runtime to `workdir/fpsym-runtime`, intermediate
/// bitcode to `workdir/obj`, and the final module to `workdir/program.bc`
/// (with its text in `workdir/program.ll`).
pub fn build(inputs: &[PathBuf], opts: &CompileOptions, workdir: &Path) -> Result<Program, FrontendError> {
    program::build(inputs, opts, workdir)
}

/// Loads the program [`build`] left in `workdir` for `inputs` (the same
/// inputs and options), without compiling again: `fpsym batch` builds a
/// library once and every function's run loads it.
pub fn reuse(inputs: &[PathBuf], workdir: &Path) -> Result<Program, FrontendError> {
    program::reuse(inputs, workdir)
}

/// Loads and validates an already linked module (`.bc`, or `.ll` text).
/// No runtime is linked; [`Program::sources`] is empty.
pub fn load(bitcode: &Path) -> Result<Program, FrontendError> {
    program::load(bitcode)
}

impl fmt::Display for SpecialFloat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SpecialFloat::X86Fp80 => "x86_fp80",
            SpecialFloat::Fp128 => "fp128",
            SpecialFloat::Half => "half",
            SpecialFloat::BFloat => "bfloat",
        })
    }
}
