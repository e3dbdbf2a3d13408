//! What a path produces: tests (inputs and how the path ended), findings,
//! events; with the source locations and finding kinds they name.

use serde::{Deserialize, Serialize};

/// A source location.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Loc {
    /// Source file as recorded in the debug information.
    pub file: String,
    /// 1-based line (0: unknown).
    pub line: u32,
    /// 1-based column (0: unknown).
    pub column: u32,
}

impl std::fmt::Display for Loc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// One frame of a finding's call stack: the function, and where it was
/// called from (None for the outermost, or where unknown). Written in
/// records as `function (called at file:line:column)`, or `function`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Frame {
    /// The function.
    pub function: String,
    /// Its call site.
    pub call_site: Option<Loc>,
}

impl Frame {
    /// A frame of `function` called at `call_site`.
    pub fn new(function: impl Into<String>, call_site: Option<Loc>) -> Frame {
        Frame {
            function: function.into(),
            call_site,
        }
    }

    /// Reads a frame as records write it; a call site that does not parse
    /// is left out.
    pub fn parse(text: &str) -> Frame {
        let Some((function, rest)) = text.split_once(" (called at ") else {
            return Frame::new(text, None);
        };
        let at = rest.strip_suffix(')').unwrap_or(rest);
        let mut parts = at.rsplitn(3, ':');
        let site = match (parts.next(), parts.next(), parts.next()) {
            (Some(col), Some(line), Some(file)) => match (line.parse(), col.parse()) {
                (Ok(line), Ok(column)) => Some(Loc {
                    file: file.to_string(),
                    line,
                    column,
                }),
                _ => None,
            },
            _ => None,
        };
        Frame::new(function, site)
    }
}

impl std::fmt::Display for Frame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.call_site {
            Some(l) => write!(f, "{} (called at {l})", self.function),
            None => f.write_str(&self.function),
        }
    }
}

impl From<&str> for Frame {
    fn from(text: &str) -> Frame {
        Frame::parse(text)
    }
}

impl Serialize for Frame {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Frame {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Frame, D::Error> {
        Ok(Frame::parse(&String::deserialize(d)?))
    }
}

/// What went wrong: the kind of a finding, one table for the engine that
/// raises it, the records that store it and replay that confirms it.
/// Written in records by its kebab-case [`FindingKind::name`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FindingKind {
    /// `assert` failed (`__assert_fail`).
    AssertionFailure,
    /// `reach_error()` or `__VERIFIER_error()` was called.
    ReachError,
    /// `abort()` was called (or `llvm.trap`).
    Abort,
    /// Integer division or remainder by zero, or INT_MIN / -1.
    DivisionByZero,
    /// Access outside every live object, or past the end of one.
    OutOfBounds,
    /// Access to a freed heap object or a popped stack object.
    UseAfterFree,
    /// `free` of something that is not the start of a live heap object.
    InvalidFree,
    /// `unreachable` was executed.
    Unreachable,
    /// IEEE overflow: a result too large for its format.
    FpOverflow,
    /// IEEE underflow: a tiny, inexact result (x86: tininess after rounding).
    FpUnderflow,
    /// IEEE divide-by-zero: a finite non-zero value divided by zero, or a
    /// pole of a libm function.
    FpDivideByZero,
    /// IEEE invalid operation: no meaningful result (0/0, ∞−∞, √−1, a
    /// signalling NaN operand).
    FpInvalid,
    /// IEEE inexact: the result was rounded.
    FpInexact,
    /// A float converted to an integer type that cannot hold its value
    /// (C's undefined behaviour).
    FloatCastOverflow,
    /// A directed mode's question answered (`fpsym path`): not a bug.
    Goal(Goal),
    /// A kind raised by a checker from outside this table: its name,
    /// kebab-case and not a built-in one ([`FindingKind::custom`] checks).
    Custom(String),
}

/// What a directed mode asked for and a path reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Goal {
    /// The line asked for (`fpsym path --reach`): `reached`.
    Reached,
    /// The path asked for (`fpsym path --path`): `path-followed`.
    PathFollowed,
}

impl FindingKind {
    /// Every built-in kind (not [`FindingKind::Custom`]).
    pub const BUILT_IN: [FindingKind; 16] = [
        FindingKind::AssertionFailure,
        FindingKind::ReachError,
        FindingKind::Abort,
        FindingKind::DivisionByZero,
        FindingKind::OutOfBounds,
        FindingKind::UseAfterFree,
        FindingKind::InvalidFree,
        FindingKind::Unreachable,
        FindingKind::FpOverflow,
        FindingKind::FpUnderflow,
        FindingKind::FpDivideByZero,
        FindingKind::FpInvalid,
        FindingKind::FpInexact,
        FindingKind::FloatCastOverflow,
        FindingKind::Goal(Goal::Reached),
        FindingKind::Goal(Goal::PathFollowed),
    ];

    /// The name used in findings and file names (`assertion-failure`, ...).
    pub fn name(&self) -> &str {
        match self {
            FindingKind::Custom(s) => s,
            k => k.info().map_or("", |i| i.name),
        }
    }

    /// The kind's line of [`KINDS`] (None for a custom kind).
    pub fn info(&self) -> Option<&'static KindInfo> {
        KINDS.iter().find(|i| &i.kind == self)
    }

    /// Its family (a custom kind: [`KindClass::Custom`]).
    pub fn class(&self) -> KindClass {
        self.info().map_or(KindClass::Custom, |i| i.class)
    }

    /// Whether `fpsym exceptions` reports it: an IEEE exception or a
    /// float-to-integer conversion out of range.
    pub fn is_fp_exception(&self) -> bool {
        self.class() == KindClass::FpException
    }

    /// The `FE_*` flag of an IEEE exception kind and its name in words
    /// (`FE_OVERFLOW`, `overflow`).
    pub fn fe_flag(&self) -> Option<(&'static str, &'static str)> {
        self.info().and_then(|i| i.fe_flag)
    }

    /// The kind as a file-name part (`NNN-KIND.json`, `NNN-KIND.c`): its
    /// name, anything but ASCII letters, digits and `-` replaced by `_`.
    pub fn file_stem(&self) -> String {
        self.name()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' })
            .collect()
    }

    /// A custom kind named `name`: kebab-case (lower-case letters, digits,
    /// `-`), not a built-in name (it names files: `findings/NNN-NAME.json`).
    pub fn custom(name: &str) -> Result<FindingKind, String> {
        let ok = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            && !name.starts_with('-');
        if !ok {
            return Err(format!("finding kind `{name}`: expected kebab-case, e.g. fp-overflow"));
        }
        match FindingKind::from_name(name) {
            FindingKind::Custom(_) => Ok(FindingKind::Custom(name.to_string())),
            _ => Err(format!("finding kind `{name}` is built in")),
        }
    }

    /// The kind named `s` (a name not in the table is a custom kind).
    pub fn from_name(s: &str) -> FindingKind {
        FindingKind::BUILT_IN
            .iter()
            .find(|k| k.name() == s)
            .cloned()
            .unwrap_or_else(|| FindingKind::Custom(s.to_string()))
    }
}

/// The family of a finding kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KindClass {
    /// The program says it failed: `assert`, `reach_error`, `abort`,
    /// `unreachable`.
    Failure,
    /// Integer arithmetic (division by zero).
    Arithmetic,
    /// Memory safety (out of bounds, use after free, invalid free).
    Memory,
    /// An IEEE exception, or a float-to-integer conversion out of range
    /// (what `fpsym exceptions` reports).
    FpException,
    /// A directed mode's question answered ([`FindingKind::Goal`]).
    Goal,
    /// A custom checker's kind.
    Custom,
}

/// How serious a finding is (SARIF's `level`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// A bug.
    Error,
    /// Likely a bug.
    Warning,
    /// Worth knowing.
    Note,
}

impl Level {
    /// SARIF's name of the level.
    pub fn name(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
        }
    }
}

/// One line of the finding-kind table: everything fpsym says of a kind
/// (in the manner of KLEE's TerminationTypes.h).
#[derive(Clone, Debug)]
pub struct KindInfo {
    /// The kind.
    pub kind: FindingKind,
    /// Its name in records and file names.
    pub name: &'static str,
    /// Its family.
    pub class: KindClass,
    /// Its SARIF level.
    pub level: Level,
    /// What it means, for people (SARIF's rule text, the reports).
    pub description: &'static str,
    /// For an IEEE exception: its `FE_*` flag and the flag's name in
    /// words, by which replay and the C reproducers trap it natively.
    pub fe_flag: Option<(&'static str, &'static str)>,
}

/// Every built-in finding kind, in [`FindingKind::BUILT_IN`]'s order.
pub static KINDS: [KindInfo; 16] = [
    KindInfo {
        kind: FindingKind::AssertionFailure,
        name: "assertion-failure",
        class: KindClass::Failure,
        level: Level::Error,
        description: "An assertion failed (`assert`).",
        fe_flag: None,
    },
    KindInfo {
        kind: FindingKind::ReachError,
        name: "reach-error",
        class: KindClass::Failure,
        level: Level::Error,
        description: "`reach_error()` or `__VERIFIER_error()` was called.",
        fe_flag: None,
    },
    KindInfo {
        kind: FindingKind::Abort,
        name: "abort",
        class: KindClass::Failure,
        level: Level::Error,
        description: "`abort()` was called (or `llvm.trap`).",
        fe_flag: None,
    },
    KindInfo {
        kind: FindingKind::DivisionByZero,
        name: "division-by-zero",
        class: KindClass::Arithmetic,
        level: Level::Error,
        description: "Integer division or remainder by zero, or INT_MIN / -1.",
        fe_flag: None,
    },
    KindInfo {
        kind: FindingKind::OutOfBounds,
        name: "out-of-bounds",
        class: KindClass::Memory,
        level: Level::Error,
        description: "An access outside every live object, or past the end of one.",
        fe_flag: None,
    },
    KindInfo {
        kind: FindingKind::UseAfterFree,
        name: "use-after-free",
        class: KindClass::Memory,
        level: Level::Error,
        description: "An access to a freed heap object or a popped stack object.",
        fe_flag: None,
    },
    KindInfo {
        kind: FindingKind::InvalidFree,
        name: "invalid-free",
        class: KindClass::Memory,
        level: Level::Error,
        description: "`free` of something that is not the start of a live heap object (a double free).",
        fe_flag: None,
    },
    KindInfo {
        kind: FindingKind::Unreachable,
        name: "unreachable",
        class: KindClass::Failure,
        level: Level::Error,
        description: "`unreachable` was executed.",
        fe_flag: None,
    },
    KindInfo {
        kind: FindingKind::FpOverflow,
        name: "fp-overflow",
        class: KindClass::FpException,
        level: Level::Warning,
        description: "IEEE overflow: a result too large for its format.",
        fe_flag: Some(("FE_OVERFLOW", "overflow")),
    },
    KindInfo {
        kind: FindingKind::FpUnderflow,
        name: "fp-underflow",
        class: KindClass::FpException,
        level: Level::Note,
        description: "IEEE underflow: a tiny, inexact result.",
        fe_flag: Some(("FE_UNDERFLOW", "underflow")),
    },
    KindInfo {
        kind: FindingKind::FpDivideByZero,
        name: "fp-divide-by-zero",
        class: KindClass::FpException,
        level: Level::Warning,
        description: "IEEE divide-by-zero: a finite non-zero value divided by zero, or a pole of a libm function.",
        fe_flag: Some(("FE_DIVBYZERO", "divide-by-zero")),
    },
    KindInfo {
        kind: FindingKind::FpInvalid,
        name: "fp-invalid",
        class: KindClass::FpException,
        level: Level::Warning,
        description: "IEEE invalid operation: no meaningful result (0/0, inf-inf, sqrt(-1), a signalling NaN operand).",
        fe_flag: Some(("FE_INVALID", "invalid")),
    },
    KindInfo {
        kind: FindingKind::FpInexact,
        name: "fp-inexact",
        class: KindClass::FpException,
        level: Level::Note,
        description: "IEEE inexact: the result was rounded.",
        fe_flag: Some(("FE_INEXACT", "inexact")),
    },
    KindInfo {
        kind: FindingKind::FloatCastOverflow,
        name: "float-cast-overflow",
        class: KindClass::FpException,
        level: Level::Error,
        description: "A float converted to an integer type that cannot hold its value (undefined behaviour in C).",
        fe_flag: None,
    },
    KindInfo {
        kind: FindingKind::Goal(Goal::Reached),
        name: crate::REACHED,
        class: KindClass::Goal,
        level: Level::Note,
        description: "The line asked for is reached.",
        fe_flag: None,
    },
    KindInfo {
        kind: FindingKind::Goal(Goal::PathFollowed),
        name: crate::PATH_FOLLOWED,
        class: KindClass::Goal,
        level: Level::Note,
        description: "The path asked for is taken.",
        fe_flag: None,
    },
];

impl std::fmt::Display for FindingKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for FindingKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for FindingKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Ok(FindingKind::from_name(&s))
    }
}

/// How a program ended normally without an exit status: under
/// `--property unreach-call` these are ordinary ends, not findings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// `abort()`: SIGABRT.
    Abort,
    /// A failed `assert`: glibc's message, then SIGABRT.
    AssertionFailure,
    /// Integer division by zero: SIGFPE.
    DivisionByZero,
    /// `llvm.trap`: SIGILL.
    Trap,
}

impl Termination {
    /// The kebab-case name (`abort`, `trap`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Termination::Abort => "abort",
            Termination::AssertionFailure => "assertion-failure",
            Termination::DivisionByZero => "division-by-zero",
            Termination::Trap => "trap",
        }
    }
}

/// How a path ended (KLEE's termination classes, as one table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathEnd {
    /// The program exited (main returned, `exit`), or the `--function`
    /// entry returned: C's `int` of the status or result.
    Exit(i64),
    /// The program ended by a signal that the property does not count as
    /// a finding (`--property unreach-call`).
    Terminated(Termination),
    /// The path ends in a bug of this kind (a finding names the test).
    Error(FindingKind),
    /// The path stopped early (loop bound, budget, unsupported construct):
    /// why.
    Partial(Partial),
}

/// Why a path stopped before its end (a test is written; the verdict is
/// incomplete, except for [`Partial::Pruned`]). Written in records as
/// text (`detail`), read back by [`Partial::parse`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Partial {
    /// A call to a function without a body that fpsym does not model.
    External(String),
    /// A construct the executor does not support: what.
    Unsupported(String),
    /// A library function or operation fpsym does not model on this path
    /// (a format, a side effect, a symbolic offset): why, as said.
    NotModelled(String),
    /// Calls nested deeper than the limit.
    CallDepth(usize),
    /// A loop ran `--loop-bound` times.
    LoopBound(u32),
    /// The run stopped (its time, states, an interrupt) with the path
    /// unfinished: why.
    Stopped(String),
    /// A branch side found infeasible only after retries.
    Refuted {
        /// The retries.
        retries: u32,
    },
    /// A branch side given up on: its query was not decided (why).
    Dropped(String),
    /// A check whose query was not decided (why).
    CheckUndecided(String),
    /// An assumption (`klee_assume`) whose query was not decided (why).
    AssumptionUndecided(String),
    /// Undefined behaviour past which the property cannot be judged:
    /// the kind and place.
    UndefinedBehaviour(String),
    /// Cut where it can no longer reach a directed run's target.
    Pruned,
}

impl Partial {
    /// The prefix of [`Partial::Dropped`]'s text.
    pub const DROPPED: &'static str = "dropped: ";
    /// The prefix of [`Partial::Refuted`]'s text.
    pub const REFUTED: &'static str = "refuted: ";

    /// Reads the text [`Partial`]'s `Display` writes (a text of no known
    /// form is [`Partial::NotModelled`]).
    pub fn parse(text: &str) -> Partial {
        let between = |pre: &str, post: &str| text.strip_prefix(pre).and_then(|r| r.strip_suffix(post));
        if let Some(n) = between("call depth above ", "").and_then(|n| n.parse().ok()) {
            return Partial::CallDepth(n);
        }
        if let Some(n) = between("loop bound ", " reached").and_then(|n| n.parse().ok()) {
            return Partial::LoopBound(n);
        }
        if let Some(n) = between("refuted: after ", " retries").and_then(|n| n.parse().ok()) {
            return Partial::Refuted { retries: n };
        }
        if let Some(f) = between("call to external function `", "`, which fpsym does not model") {
            return Partial::External(f.to_string());
        }
        if text == "pruned: cannot reach the target" {
            return Partial::Pruned;
        }
        if let Some(w) = between("undefined behaviour (", ")") {
            return Partial::UndefinedBehaviour(w.to_string());
        }
        let prefixed: [(&str, fn(String) -> Partial); 5] = [
            ("unsupported: ", Partial::Unsupported),
            ("stopped: ", Partial::Stopped),
            (Partial::DROPPED, Partial::Dropped),
            ("a check left undecided: ", Partial::CheckUndecided),
            ("assumption undecided: ", Partial::AssumptionUndecided),
        ];
        for (pre, make) in prefixed {
            if let Some(rest) = text.strip_prefix(pre) {
                return make(rest.to_string());
            }
        }
        Partial::NotModelled(text.to_string())
    }
}

impl From<&str> for Partial {
    fn from(text: &str) -> Partial {
        Partial::parse(text)
    }
}

impl std::fmt::Display for Partial {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Partial::External(name) => write!(f, "call to external function `{name}`, which fpsym does not model"),
            Partial::Unsupported(what) => write!(f, "unsupported: {what}"),
            Partial::NotModelled(why) => f.write_str(why),
            Partial::CallDepth(n) => write!(f, "call depth above {n}"),
            Partial::LoopBound(b) => write!(f, "loop bound {b} reached"),
            Partial::Stopped(why) => write!(f, "stopped: {why}"),
            Partial::Refuted { retries } => write!(f, "{}after {retries} retries", Partial::REFUTED),
            Partial::Dropped(why) => write!(f, "{}{why}", Partial::DROPPED),
            Partial::CheckUndecided(why) => write!(f, "a check left undecided: {why}"),
            Partial::AssumptionUndecided(why) => write!(f, "assumption undecided: {why}"),
            Partial::UndefinedBehaviour(what) => write!(f, "undefined behaviour ({what})"),
            Partial::Pruned => f.write_str("pruned: cannot reach the target"),
        }
    }
}

impl PathEnd {
    /// The class: `exit` (for exits and terminations), `error`, `partial`.
    pub fn class(&self) -> &'static str {
        match self {
            PathEnd::Exit(_) | PathEnd::Terminated(_) => "exit",
            PathEnd::Error(_) => "error",
            PathEnd::Partial(_) => "partial",
        }
    }
}

impl std::fmt::Display for PathEnd {
    /// What the test's `detail` says: `exit N`, `abort`, the finding kind,
    /// or the reason a partial path stopped.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PathEnd::Exit(n) => write!(f, "exit {n}"),
            PathEnd::Terminated(t) => f.write_str(t.name()),
            PathEnd::Error(k) => f.write_str(k.name()),
            PathEnd::Partial(why) => write!(f, "{why}"),
        }
    }
}

/// One input of a test.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TestObject {
    /// The name the program gave it (`klee_make_symbolic`'s name, a
    /// `--function` parameter's C name, `p.x` for the part of a struct
    /// parameter passed in one register).
    pub name: String,
    /// Its type: C's name when the debug information gives it (`double`,
    /// `unsigned int`, `struct pt`, `double[3]`), else fpsym's (`i32`,
    /// `u64`, `u8[16]` for bytes of no known type).
    #[serde(rename = "type")]
    pub ty: String,
    /// Its bytes, little-endian, in hex (what replay feeds the program).
    pub bytes: String,
    /// For a scalar: its value (integers in decimal, signed or unsigned as
    /// the type says; floats in decimal, shortest round-trip for float and
    /// double, 21 significant digits for long double and binary128;
    /// pointers in hex).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// For a float scalar: the value as a C hexadecimal-float literal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
    /// For an array or struct: its scalar elements in memory order, each
    /// read from `bytes` (a union shows every member).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub elements: Vec<TestElement>,
    /// Where the program obtained it: the call of its input function
    /// (`__VERIFIER_nondet_float`, `klee_make_symbolic`, ...). None for
    /// inputs no call made (a `--function` parameter, `argv`, stdin).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site: Option<InputSite>,
}

/// The call through which a program obtained an input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputSite {
    /// The input function called (`__VERIFIER_nondet_float`).
    pub call: String,
    /// The function the call is in.
    pub function: String,
    /// The call's source file, as the debug information records it.
    pub file: String,
    /// Its 1-based line.
    pub line: u32,
    /// Its 1-based column (where the callee's name starts; 0: unknown).
    pub column: u32,
}

impl TestObject {
    /// The object's bytes (from the hex of [`TestObject::bytes`]); None if
    /// the hex is malformed.
    pub fn byte_values(&self) -> Option<Vec<u8>> {
        let h = self.bytes.as_bytes();
        if !h.len().is_multiple_of(2) {
            return None;
        }
        h.chunks(2)
            .map(|c| u8::from_str_radix(std::str::from_utf8(c).ok()?, 16).ok())
            .collect()
    }
}

/// One scalar element of an array or struct input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TestElement {
    /// A C expression naming it (`a[1]`, `p.x`, `m2[1][0]`, `p[0].next`).
    pub name: String,
    /// Its C type (`double`, `int`, `struct node *`).
    #[serde(rename = "type")]
    pub ty: String,
    /// Its value, as [`TestObject::value`].
    pub value: String,
    /// For floats: the value as a C hexadecimal-float literal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
}

/// A test: concrete inputs for one path, and how the path ends.
///
/// In JSON (`tests/NNNNNN.json`): `id`, `objects`, `end` (`exit`, `error`,
/// `partial`), the typed end (`status` for an exit, `how` for a
/// termination, `kind` for an error), and `detail`, the end as text for
/// people (`exit 3`, `abort`, `reach-error`, the reason of a partial
/// path). Readers use the typed fields; `detail` is the reason of a
/// partial path and otherwise only shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "TestRepr", try_from = "TestRepr")]
pub struct Test {
    /// Sequence number (file `tests/NNNNNN.json`).
    pub id: u64,
    /// The inputs, in the order the program read them.
    pub objects: Vec<TestObject>,
    /// How the path ended.
    pub end: PathEnd,
}

/// A test as written in JSON.
#[derive(Serialize, Deserialize)]
struct TestRepr {
    id: u64,
    objects: Vec<TestObject>,
    end: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    status: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    how: Option<Termination>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    kind: Option<FindingKind>,
    #[serde(default)]
    detail: String,
}

impl From<Test> for TestRepr {
    fn from(t: Test) -> TestRepr {
        let detail = t.end.to_string();
        let (status, how, kind) = match &t.end {
            PathEnd::Exit(n) => (Some(*n), None, None),
            PathEnd::Terminated(h) => (None, Some(*h), None),
            PathEnd::Error(k) => (None, None, Some(k.clone())),
            PathEnd::Partial(_) => (None, None, None),
        };
        TestRepr {
            id: t.id,
            objects: t.objects,
            end: t.end.class().to_string(),
            status,
            how,
            kind,
            detail,
        }
    }
}

impl TryFrom<TestRepr> for Test {
    type Error = String;
    fn try_from(r: TestRepr) -> Result<Test, String> {
        let id = r.id;
        let end = match (r.end.as_str(), r.status, r.how, r.kind) {
            ("exit", Some(n), None, None) => PathEnd::Exit(n),
            ("exit", None, Some(h), None) => PathEnd::Terminated(h),
            ("error", None, None, Some(k)) => PathEnd::Error(k),
            ("partial", None, None, None) => PathEnd::Partial(Partial::parse(&r.detail)),
            (e, ..) => {
                return Err(format!(
                    "test {id}: end `{e}` needs exactly one of `status` or `how` (exit), `kind` (error), \
                     none (partial); a record written by an older fpsym must be made again"
                ))
            }
        };
        // `detail` is the typed end for people: a record where they differ
        // was edited by hand, and is refused rather than half believed.
        if !matches!(end, PathEnd::Partial(_)) && end.to_string() != r.detail {
            return Err(format!(
                "test {id}: `detail` says `{}` but the end is `{end}` (edit both, or neither)",
                r.detail
            ));
        }
        Ok(Test {
            id,
            objects: r.objects,
            end,
        })
    }
}

/// A distinct bug with the test that triggers it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// What kind of bug.
    pub kind: FindingKind,
    /// Source file.
    pub file: String,
    /// Line.
    pub line: u32,
    /// Column.
    pub column: u32,
    /// Call stack, innermost first (written `function (called at
    /// file:line:column)`).
    pub stack: Vec<Frame>,
    /// The test's id.
    pub test: u64,
    /// Details.
    pub message: String,
    /// How many distinct inputs were found reaching it (Ariadne's
    /// input-location pairs; `fpsym exceptions` counts them). None: not
    /// counted (one, its test's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inputs: Option<u64>,
    /// For an overflow or underflow: whether it is avoidable, i.e. the
    /// function's results computed in high precision along the same path
    /// are zero or normal (seed 003, Section 5.3). None: not judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avoidable: Option<bool>,
    /// The operation at fault (`fmul`, `log`), when the check says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation: Option<String>,
    /// Its operands' values with the test's input (decimal).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub operands: Vec<String>,
    /// Its result with the test's input (decimal), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
}

/// Something the user should know about a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// A value was made concrete; verdicts depending on it are incomplete.
    Concretized {
        /// Where.
        loc: Option<Loc>,
        /// Why.
        reason: String,
    },
    /// A call to a function fpsym does not model ended the path.
    ExternalCall {
        /// Where.
        loc: Option<Loc>,
        /// The function.
        function: String,
    },
    /// The solver could not decide a branch side, which was dropped.
    BranchDropped {
        /// Where.
        loc: Option<Loc>,
        /// Why.
        reason: String,
    },
    /// The solver could not decide whether a check's violation can
    /// happen here (the path went on; the violation was not ruled out).
    CheckUndecided {
        /// Where.
        loc: Option<Loc>,
        /// The violation's kind.
        kind: FindingKind,
        /// Why.
        reason: String,
    },
    /// A path stopped early.
    PathStopped {
        /// Where.
        loc: Option<Loc>,
        /// Why.
        reason: String,
    },
    /// A finding the native fuzzing phase found first: the symbolic run,
    /// seeded with the fuzzer's crashing input, reached it with that input.
    FuzzFinding {
        /// Where the finding is.
        loc: Option<Loc>,
        /// Its kind.
        kind: FindingKind,
        /// The test that triggers it.
        test: u64,
        /// The fuzzer's input file (`DIR/fuzz/crashes/...`).
        input: String,
    },
}

impl Event {
    /// Whether the event makes a "verified" verdict impossible (something
    /// was concretized, dropped, or not modelled).
    pub fn makes_incomplete(&self) -> bool {
        matches!(
            self,
            Event::Concretized { .. }
                | Event::BranchDropped { .. }
                | Event::ExternalCall { .. }
                | Event::CheckUndecided { .. }
        )
    }

    /// The event in a few words, for a verdict's "why".
    pub fn describe(&self) -> String {
        match self {
            Event::Concretized { reason, .. } => format!("concretized: {reason}"),
            Event::BranchDropped { reason, .. } => format!("a branch was dropped: {reason}"),
            Event::ExternalCall { function, .. } => format!("call to unmodelled function {function}"),
            Event::CheckUndecided { kind, reason, .. } => {
                format!("{} {kind} check was undecided: {reason}", article(kind.name()))
            }
            Event::PathStopped { reason, .. } => reason.clone(),
            Event::FuzzFinding { kind, test, input, .. } => {
                format!("{kind} found by the fuzzing phase ({input}), test {test:06}")
            }
        }
    }
}

/// The indefinite article before a kind's name, as it is read aloud:
/// "an above-range", "an underflow", "an fp-overflow" (eff-pee), but "a
/// use-after-free", "a nan-result", "a float-cast-overflow".
pub fn article(word: &str) -> &'static str {
    let w = word.to_ascii_lowercase();
    let vowel = match w.chars().next() {
        Some('a' | 'e' | 'i' | 'o') => true,
        Some('u') => w.starts_with("un"),
        // Initialisms read letter by letter: F, L, M, N, R, S, X begin
        // with a vowel sound.
        _ => ["fp-", "fp ", "lu-", "mpfr", "smt", "sv-"]
            .iter()
            .any(|p| w.starts_with(p)),
    };
    if vowel {
        "an"
    } else {
        "a"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn articles_follow_the_sound() {
        for (w, a) in [
            ("above-range", "an"),
            ("below-range", "a"),
            ("nan-result", "a"),
            ("fp-overflow", "an"),
            ("underflow", "an"),
            ("use-after-free", "a"),
            ("out-of-bounds", "an"),
            ("float-cast-overflow", "a"),
        ] {
            assert_eq!(article(w), a, "{w}");
        }
        let e = Event::CheckUndecided {
            loc: None,
            kind: FindingKind::Custom("above-range".into()),
            reason: "timeout".into(),
        };
        assert_eq!(e.describe(), "an above-range check was undecided: timeout");
    }

    fn test(end: PathEnd) -> Test {
        Test {
            id: 7,
            objects: vec![],
            end,
        }
    }

    #[test]
    fn tests_round_trip_with_typed_ends() {
        for end in [
            PathEnd::Exit(-5),
            PathEnd::Terminated(Termination::Trap),
            PathEnd::Error(FindingKind::ReachError),
            PathEnd::Error(FindingKind::Custom("fdiv-by-zero".into())),
            PathEnd::Error(FindingKind::FpOverflow),
            PathEnd::Partial(Partial::LoopBound(3)),
        ] {
            let t = test(end);
            let text = serde_json::to_string(&t).unwrap();
            let back: Test = serde_json::from_str(&text).unwrap();
            assert_eq!(back, t, "{text}");
        }
        let v = serde_json::to_value(test(PathEnd::Exit(3))).unwrap();
        assert_eq!(v["end"], "exit");
        assert_eq!(v["status"], 3);
        assert_eq!(v["detail"], "exit 3");
        let v = serde_json::to_value(test(PathEnd::Terminated(Termination::Abort))).unwrap();
        assert_eq!((v["end"].as_str(), v["detail"].as_str()), (Some("exit"), Some("abort")));
    }

    #[test]
    fn inconsistent_tests_are_refused() {
        let bad = r#"{"id":1,"objects":[],"end":"exit","detail":"exit 3"}"#;
        let e = serde_json::from_str::<Test>(bad).unwrap_err().to_string();
        assert!(e.contains("needs exactly one of"), "{e}");
    }

    #[test]
    fn hand_edited_details_are_refused() {
        let bad = r#"{"id":1,"objects":[],"end":"exit","status":2,"detail":"exit 5"}"#;
        let e = serde_json::from_str::<Test>(bad).unwrap_err().to_string();
        assert!(e.contains("`detail` says `exit 5` but the end is `exit 2`"), "{e}");
    }

    #[test]
    fn custom_kinds_are_kebab_case_and_new() {
        assert_eq!(
            FindingKind::custom("my-check"),
            Ok(FindingKind::Custom("my-check".into()))
        );
        assert!(FindingKind::custom("fp-overflow").is_err());
        assert!(FindingKind::custom("abort").is_err());
        assert!(FindingKind::custom("a/b").is_err());
        assert!(FindingKind::custom("").is_err());
    }

    #[test]
    fn finding_kinds_by_name() {
        for k in FindingKind::BUILT_IN {
            assert_eq!(FindingKind::from_name(k.name()), k);
        }
        assert_eq!(FindingKind::from_name("fp-invalid"), FindingKind::FpInvalid);
        assert_eq!(
            FindingKind::from_name("my-check"),
            FindingKind::Custom("my-check".into())
        );
    }

    #[test]
    fn every_partial_reason_reads_back_from_its_text() {
        let all = [
            Partial::External("mystery".into()),
            Partial::Unsupported("inline assembly".into()),
            Partial::NotModelled("sinf128 (binary128) is not modelled".into()),
            Partial::CallDepth(1000),
            Partial::LoopBound(3),
            Partial::Stopped("time limit".into()),
            Partial::Refuted { retries: 2 },
            Partial::Dropped("timeout; still undecided".into()),
            Partial::CheckUndecided("unknown".into()),
            Partial::AssumptionUndecided("timeout".into()),
            Partial::UndefinedBehaviour("float-cast-overflow at a.c:3:4".into()),
            Partial::Pruned,
        ];
        for p in all {
            assert_eq!(Partial::parse(&p.to_string()), p, "{p}");
        }
    }

    #[test]
    fn a_frame_reads_back_from_its_text_and_keeps_colons_in_file_names() {
        let f = Frame::new(
            "g",
            Some(Loc {
                file: "/a/b:c.c".into(),
                line: 12,
                column: 5,
            }),
        );
        assert_eq!(f.to_string(), "g (called at /a/b:c.c:12:5)");
        assert_eq!(Frame::parse(&f.to_string()), f);
        assert_eq!(Frame::parse("main"), Frame::new("main", None));
        // A call site that does not parse is left out, the function kept.
        assert_eq!(Frame::parse("h (called at ?)"), Frame::new("h", None));
        let json = serde_json::to_string(&vec![f.clone()]).unwrap();
        assert_eq!(json, r#"["g (called at /a/b:c.c:12:5)"]"#);
        assert_eq!(serde_json::from_str::<Vec<Frame>>(&json).unwrap(), vec![f]);
    }
}
