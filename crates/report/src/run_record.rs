//! `run.json`: what a run analysed and how, so that `replay` (and later
//! `show`, `merge`) can rebuild the program natively and read its tests.

use crate::Property;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The record of a run's input (`DIR/run.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// The input files, absolute.
    pub files: Vec<String>,
    /// `-I` directories, absolute.
    #[serde(default)]
    pub include: Vec<String>,
    /// `-D` definitions (`NAME` or `NAME=VALUE`).
    #[serde(default)]
    pub defines: Vec<String>,
    /// Extra compiler flags.
    #[serde(default)]
    pub cflags: Vec<String>,
    /// The environment the program saw (`--env`).
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// What ran.
    pub entry: EntryRecord,
    /// The property checked (None: every finding counts).
    #[serde(default)]
    pub property: Option<Property>,
    /// Symbolic command-line arguments (`--sym-arg`, `--sym-args`), in
    /// order: each test's first objects are its arguments (`argv[1]`,
    /// `argv[2]`, ...), which replay passes to the process.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sym_args: Vec<SymArgs>,
    /// `--sym-stdin N`: the object `stdin` after the arguments holds the N
    /// bytes replay writes to the process's standard input (None: stdin is
    /// empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sym_stdin: Option<u64>,
    /// The command that ran (`run`, `exceptions`, `error`, `path`,
    /// `critical`; None in records of older runs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<crate::Mode>,
}

/// A group of symbolic command-line arguments: between `min` and `max`
/// of them (KLEE's `--sym-args MIN MAX N`; `--sym-arg N` is one, `min` =
/// `max` = 1), each a string of at most `len` characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SymArgs {
    /// The fewest arguments of the group.
    pub min: u32,
    /// The most.
    pub max: u32,
    /// The most characters of each (its object has `len + 1` bytes, the
    /// last one NUL).
    pub len: u32,
}

/// The entry point of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum EntryRecord {
    /// A `--function` run.
    Function {
        /// The function.
        function: String,
        /// Elements of each pointer parameter's object.
        array_len: u64,
        /// The C types the replay driver declares the parameters with
        /// (passed as the x86-64 ABI passes the IR's); None when some
        /// parameter has no such type.
        params: Option<Vec<String>>,
        /// The C type of the result (None: not expressible simply).
        ret: Option<String>,
    },
    /// `main`.
    Main {
        /// Always true.
        main: bool,
    },
}

impl EntryRecord {
    /// The `--function` name, if the run had one.
    pub fn function(&self) -> Option<&str> {
        match self {
            EntryRecord::Function { function, .. } => Some(function),
            EntryRecord::Main { .. } => None,
        }
    }
}

impl RunRecord {
    /// The sources among the inputs (`.c` and `.i`), absolute.
    pub fn sources(&self) -> Vec<String> {
        self.files
            .iter()
            .filter(|f| f.ends_with(".c") || f.ends_with(".i"))
            .cloned()
            .collect()
    }
    /// The environment as (name, value) pairs.
    pub fn env_pairs(&self) -> Vec<(String, String)> {
        self.env.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
    }
}

/// The finding kind of a line reached (`fpsym path --reach`).
pub const REACHED: &str = "reached";
/// The finding kind of a path taken (`fpsym path --path`).
pub const PATH_FOLLOWED: &str = "path-followed";

/// `DIR/path.json`: the path a `fpsym path --path` run followed, for
/// replay to check the native run of its test takes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathRecord {
    /// The path as given (`48:T,50:F,...`).
    pub spec: String,
    /// The source file whose lines it names (as given), if one was.
    pub file: Option<String>,
    /// Its decisions in execution order.
    pub decisions: Vec<PathDecision>,
    /// True if any continuation is allowed (a final `...`).
    pub prefix: bool,
}

/// One decision of a [`PathRecord`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathDecision {
    /// The branch's line.
    pub line: u32,
    /// Its column, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    /// The side: true for the condition holding.
    pub taken: bool,
}
