//! SV-COMP violation witnesses, format 2.0 (YAML): written from a test
//! that reaches `reach_error`, and read back to be checked natively.
//!
//! A witness is a list of entries; fpsym writes one `violation_sequence`:
//! one segment per `__VERIFIER_nondet_*` call the test's path makes, in
//! call order, whose `follow` waypoint is a `function_return` at the call
//! (the location of its closing parenthesis, as the format asks) with the
//! ACSL constraint `\result == V` on the value the test gives it; the last
//! segment's waypoint is the `target`, the call of `reach_error`.
//!
//! Values are exact: floats as hexadecimal literals (`0x1.8p+1`), a
//! negative zero as `\result == -0x0p+0 && \sign(\result) == \Negative`,
//! infinities and NaN by ACSL's predicates (`\is_plus_infinity(\result)`,
//! `\is_minus_infinity(\result)`, `\is_NaN(\result)`: the format has no
//! word for a NaN's payload, which is read back as the default quiet NaN).
//!
//! [`witness_inputs`] reads a witness back into the inputs the replay
//! driver feeds the program, one per `function_return` waypoint, typed by
//! the `__VERIFIER_nondet_*` function called at its location in the
//! source; [`check_witness`] runs them natively.

use crate::export::hex_float_value;
use crate::{ReplayError, ReplayOptions};
use fpsym_float::{Float, Format};
use fpsym_report::{hex_float, FindingKind, InputSite, Observation, Observed, TestObject};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The file a run writes its witness to: `OUT/witness.yml`.
pub use fpsym_report::WITNESS;

/// The specification of `unreach-call` as witnesses state it.
pub const UNREACH_CALL: &str = "G ! call(reach_error())";

/// The data model of a build with `cflags` (`ILP32` when they compile for
/// i386: `-m32`, as `--data-model ILP32` adds; otherwise `LP64`).
pub fn data_model(cflags: &[String]) -> &'static str {
    if cflags.iter().any(|f| f == "-m32") {
        "ILP32"
    } else {
        "LP64"
    }
}

/// One entry of a witness file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// `violation_sequence` (or `invariant_set`, which fpsym reads past).
    pub entry_type: String,
    /// Who made it, when, for which task.
    pub metadata: Metadata,
    /// The segments of a violation sequence, or the invariants of an
    /// invariant set.
    #[serde(default)]
    pub content: Vec<ContentItem>,
}

/// An item of an entry's content.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ContentItem {
    /// A violation sequence's segment.
    Segment(SegmentEntry),
    /// An invariant set's invariant (kept as written).
    Invariant {
        /// The invariant.
        invariant: serde_yaml_ng::Value,
    },
}

/// A witness's metadata.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Metadata {
    /// `2.0`.
    pub format_version: String,
    /// A random UUID.
    pub uuid: String,
    /// When it was written (RFC 3339).
    pub creation_time: String,
    /// The tool that wrote it.
    pub producer: Producer,
    /// The verification task.
    pub task: Task,
}

/// The tool that wrote a witness.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Producer {
    /// `fpsym`.
    pub name: String,
    /// Its version.
    pub version: String,
    /// The command line of the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command_line: Option<String>,
}

/// The verification task a witness is for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Task {
    /// The program's files, as given to the tool.
    pub input_files: Vec<String>,
    /// Each file's SHA-256 (lowercase hex).
    pub input_file_hashes: BTreeMap<String, String>,
    /// The property, as an LTL formula (`G ! call(reach_error())`).
    pub specification: String,
    /// `ILP32` or `LP64`.
    pub data_model: String,
    /// `C`.
    pub language: String,
}

/// `- segment: [...]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SegmentEntry {
    /// The segment's waypoints: `avoid` ones, then one `follow`.
    pub segment: Vec<WaypointEntry>,
}

/// `- waypoint: {...}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WaypointEntry {
    /// The waypoint.
    pub waypoint: Waypoint,
}

/// A point an execution passes (`follow`) or must not pass (`avoid`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Waypoint {
    /// `assumption`, `target`, `function_enter`, `function_return`, `branching`.
    #[serde(rename = "type")]
    pub kind: String,
    /// `follow` or `avoid`.
    pub action: String,
    /// Where.
    pub location: Location,
    /// What holds there (not for `target`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constraint: Option<Constraint>,
}

/// A source location.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Location {
    /// The file, as in the task's `input_files`.
    pub file_name: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    /// The function the location is in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
}

/// A waypoint's constraint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Constraint {
    /// The expression (`\result == 0x1.8p+1`).
    pub value: String,
    /// `acsl_expression` or `c_expression`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
}

/// Why a witness could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum WitnessError {
    /// The test has an input a witness cannot describe.
    #[error("input `{input}` was not obtained through a __VERIFIER_nondet_* call (a witness describes only those)")]
    NotNondet {
        /// The input's name.
        input: String,
    },
    /// A source file could not be read.
    #[error("{}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The witness is not YAML of format 2.0's shape.
    #[error("{}: not a witness of format 2.0: {message}", path.display())]
    Malformed {
        /// The witness file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A waypoint fpsym cannot turn into an input.
    #[error("{}: waypoint {index} ({file}:{line}): {message}", path.display())]
    Waypoint {
        /// The witness file.
        path: PathBuf,
        /// Its 1-based position among the witness's waypoints.
        index: usize,
        /// Its file.
        file: String,
        /// Its line.
        line: u32,
        /// What is wrong.
        message: String,
    },
    /// The native run failed.
    #[error(transparent)]
    Replay(#[from] ReplayError),
}

/// The task a witness is for.
pub struct TaskInfo<'a> {
    /// The program's files as the user named them (relative or absolute).
    pub files: &'a [PathBuf],
    /// The specification (see [`UNREACH_CALL`]).
    pub specification: &'a str,
    /// `ILP32` or `LP64`.
    pub data_model: &'a str,
    /// fpsym's version.
    pub version: &'a str,
    /// The command line of the run.
    pub command_line: Option<String>,
}

/// What a violation witness is written from.
pub struct ViolationSource<'a> {
    /// The task.
    pub task: TaskInfo<'a>,
    /// The test reaching the target: its inputs, in call order.
    pub inputs: &'a [TestObject],
    /// The target: the file, line and column of the `reach_error` call.
    pub target: (&'a str, u32, u32),
    /// The function the target call is in.
    pub target_function: &'a str,
}

/// The violation witness of `src`: one `function_return` waypoint per
/// input, then the target.
pub fn violation_witness(src: &ViolationSource<'_>) -> Result<Vec<Entry>, WitnessError> {
    let sources = Sources::new(src.task.files)?;
    let mut content = Vec::new();
    for o in src.inputs {
        let site = o
            .site
            .as_ref()
            .filter(|s| s.call.starts_with("__VERIFIER_nondet_"))
            .ok_or_else(|| WitnessError::NotNondet { input: o.name.clone() })?;
        let value = result_constraint(o).ok_or_else(|| WitnessError::NotNondet { input: o.name.clone() })?;
        let (file_name, text) = sources.find(&site.file);
        let column = text
            .and_then(|t| closing_paren(t, site))
            .or((site.column > 0).then_some(site.column));
        content.push(ContentItem::Segment(SegmentEntry {
            segment: vec![WaypointEntry {
                waypoint: Waypoint {
                    kind: "function_return".into(),
                    action: "follow".into(),
                    location: Location {
                        file_name,
                        line: site.line,
                        column,
                        function: Some(site.function.clone()),
                    },
                    constraint: Some(Constraint {
                        value,
                        format: Some("acsl_expression".into()),
                    }),
                },
            }],
        }));
    }
    let (file, line, column) = src.target;
    content.push(ContentItem::Segment(SegmentEntry {
        segment: vec![WaypointEntry {
            waypoint: Waypoint {
                kind: "target".into(),
                action: "follow".into(),
                location: Location {
                    file_name: sources.find(file).0,
                    line,
                    column: (column > 0).then_some(column),
                    function: Some(src.target_function.to_string()),
                },
                constraint: None,
            },
        }],
    }));
    Ok(vec![Entry {
        entry_type: "violation_sequence".into(),
        metadata: metadata(&src.task, &sources),
        content,
    }])
}

/// A loop invariant of a proof: a C expression that holds at a loop head
/// each time the loop's condition is about to be evaluated.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopInvariant {
    /// The file, as the program's debug information names it.
    pub file: String,
    /// The loop's line (1-based).
    pub line: u32,
    /// The column of its `while`/`for`/`do` keyword, when found.
    pub column: Option<u32>,
    /// The function the loop is in.
    pub function: String,
    /// The invariant (`y >= -0x1p+1 && y <= 0x1p+1`).
    pub value: String,
    /// `c_expression`, or `acsl_expression` (arithmetic in the reals: a
    /// linear combination of the loop's values).
    pub format: String,
}

/// The correctness witness of a task fpsym proved: an `invariant_set` with
/// the proof's loop invariants, or none when the proof explored every path
/// exactly (the exhaustion of the paths needs none; a validator proves the
/// task again with whatever invariants it finds).
pub fn correctness_witness(task: &TaskInfo<'_>, invariants: &[LoopInvariant]) -> Result<Vec<Entry>, WitnessError> {
    use serde_yaml_ng::{Mapping, Value};
    let sources = Sources::new(task.files)?;
    let mut content = Vec::new();
    for inv in invariants {
        let mut location = Mapping::new();
        location.insert("file_name".into(), sources.find(&inv.file).0.into());
        location.insert("line".into(), inv.line.into());
        if let Some(c) = inv.column {
            location.insert("column".into(), c.into());
        }
        location.insert("function".into(), inv.function.clone().into());
        let mut m = Mapping::new();
        m.insert("type".into(), "loop_invariant".into());
        m.insert("location".into(), Value::Mapping(location));
        m.insert("value".into(), inv.value.clone().into());
        m.insert("format".into(), inv.format.clone().into());
        content.push(ContentItem::Invariant {
            invariant: Value::Mapping(m),
        });
    }
    Ok(vec![Entry {
        entry_type: "invariant_set".into(),
        metadata: metadata(task, &sources),
        content,
    }])
}

/// A witness's metadata: a fresh UUID, the time now, the task's files
/// with their hashes.
fn metadata(task: &TaskInfo<'_>, sources: &Sources) -> Metadata {
    let mut hashes = BTreeMap::new();
    for (name, text) in &sources.files {
        hashes.insert(name.clone(), sha256_hex(text.as_bytes()));
    }
    Metadata {
        format_version: "2.0".into(),
        uuid: uuid::Uuid::new_v4().to_string(),
        creation_time: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        producer: Producer {
            name: "fpsym".into(),
            version: task.version.to_string(),
            command_line: task.command_line.clone(),
        },
        task: Task {
            input_files: sources.files.iter().map(|(n, _)| n.clone()).collect(),
            input_file_hashes: hashes,
            specification: task.specification.to_string(),
            data_model: task.data_model.to_string(),
            language: "C".into(),
        },
    }
}

/// The witness as YAML. The creation time is quoted: YAML 1.1 readers
/// (PyYAML, SnakeYAML: the validators') would read a plain RFC 3339 time
/// as a timestamp, where the format says string.
pub fn to_yaml(entries: &[Entry]) -> String {
    let text = serde_yaml_ng::to_string(entries).expect("witness entries serialize");
    text.lines()
        .map(|l| match l.split_once("creation_time: ") {
            Some((indent, t)) if !t.starts_with('\'') => format!("{indent}creation_time: '{t}'\n"),
            _ => format!("{l}\n"),
        })
        .collect()
}

/// Reads the witness at `path`.
pub fn read_witness(path: &Path) -> Result<Vec<Entry>, WitnessError> {
    let text = std::fs::read_to_string(path).map_err(|source| WitnessError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    serde_yaml_ng::from_str(&text).map_err(|e| WitnessError::Malformed {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

/// The lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// The program's source files: the name each has in the witness (as the
/// user gave it) and its text.
struct Sources {
    files: Vec<(String, String)>,
    canonical: Vec<Option<PathBuf>>,
}

impl Sources {
    fn new(files: &[PathBuf]) -> Result<Sources, WitnessError> {
        let mut out = Sources {
            files: Vec::new(),
            canonical: Vec::new(),
        };
        for f in files {
            let text = std::fs::read_to_string(f).map_err(|source| WitnessError::Read {
                path: f.clone(),
                source,
            })?;
            out.files.push((f.display().to_string(), text));
            out.canonical.push(std::fs::canonicalize(f).ok());
        }
        Ok(out)
    }

    /// The witness's name of the file the debug information calls
    /// `file`, and its text (the name as recorded and no text when it is
    /// none of the program's files, e.g. a header).
    fn find(&self, file: &str) -> (String, Option<&str>) {
        let c = std::fs::canonicalize(file).ok();
        match self.canonical.iter().position(|k| k.is_some() && *k == c) {
            Some(i) => (self.files[i].0.clone(), Some(self.files[i].1.as_str())),
            None => (file.to_string(), None),
        }
    }
}

/// The 1-based column of the closing parenthesis of the call at `site`
/// (whose column is where the callee's name starts), if the source has
/// one there on the same line.
fn closing_paren(text: &str, site: &InputSite) -> Option<u32> {
    let line = text.lines().nth(site.line.checked_sub(1)? as usize)?;
    let start = (site.column as usize).checked_sub(1)?;
    let rest = line.get(start..)?;
    let after_name = rest.strip_prefix(site.call.as_str())?;
    let open = after_name.find(|c: char| !c.is_whitespace())?;
    if !after_name[open..].starts_with('(') {
        return None;
    }
    let mut depth = 0usize;
    for (i, c) in after_name.char_indices().skip(open) {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some((start + site.call.len() + i + 1) as u32);
                }
            }
            _ => {}
        }
    }
    None
}

/// The callee whose call closes at 1-based `column` of `line` (the
/// identifier before the matching opening parenthesis).
fn callee_closing_at(line: &str, column: u32) -> Option<&str> {
    let close = (column as usize).checked_sub(1)?;
    if line.as_bytes().get(close) != Some(&b')') {
        return None;
    }
    let mut depth = 0usize;
    let mut open = None;
    for (i, c) in line[..=close].char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' => {
                depth -= 1;
                if depth == 0 {
                    open = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    let name = line[..open?].trim_end();
    let begin = name
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    let ident = &name[begin..];
    (!ident.is_empty()).then_some(ident)
}

/// What `__VERIFIER_nondet_<suffix>` returns: a float format, or an
/// integer's bytes and signedness (LP64's; see [`nondet_type`] for ILP32).
#[derive(Clone, Copy, Debug, PartialEq)]
enum NondetType {
    Float(Format),
    Int { bytes: usize, signed: bool },
}

fn nondet_type(suffix: &str, ilp32: bool) -> Option<(NondetType, &'static str)> {
    let (ty, c) = lp64_nondet_type(suffix)?;
    // ILP32: `long` and pointers are 4 bytes (`long long` stays 8).
    Some(match ty {
        NondetType::Int { signed, .. } if ilp32 && matches!(suffix, "long" | "ulong" | "size_t" | "pointer") => {
            (NondetType::Int { bytes: 4, signed }, c)
        }
        _ => (ty, c),
    })
}

fn lp64_nondet_type(suffix: &str) -> Option<(NondetType, &'static str)> {
    use NondetType::*;
    Some(match suffix {
        "bool" | "_Bool" => (
            Int {
                bytes: 1,
                signed: false,
            },
            "_Bool",
        ),
        "char" => (Int { bytes: 1, signed: true }, "char"),
        "uchar" => (
            Int {
                bytes: 1,
                signed: false,
            },
            "unsigned char",
        ),
        "short" => (Int { bytes: 2, signed: true }, "short"),
        "ushort" => (
            Int {
                bytes: 2,
                signed: false,
            },
            "unsigned short",
        ),
        "int" => (Int { bytes: 4, signed: true }, "int"),
        "uint" | "unsigned" | "unsigned_int" => (
            Int {
                bytes: 4,
                signed: false,
            },
            "unsigned int",
        ),
        "long" => (Int { bytes: 8, signed: true }, "long"),
        "longlong" => (Int { bytes: 8, signed: true }, "long long"),
        "ulong" => (
            Int {
                bytes: 8,
                signed: false,
            },
            "unsigned long",
        ),
        "ulonglong" => (
            Int {
                bytes: 8,
                signed: false,
            },
            "unsigned long long",
        ),
        "size_t" => (
            Int {
                bytes: 8,
                signed: false,
            },
            "size_t",
        ),
        "pointer" => (
            Int {
                bytes: 8,
                signed: false,
            },
            "void *",
        ),
        "float" => (Float(Format::BINARY32), "float"),
        "double" => (Float(Format::BINARY64), "double"),
        _ => return None,
    })
}

/// The ACSL constraint on `\result` that gives exactly the input `o` (a
/// `__VERIFIER_nondet_*` result); None for an input of no nondet type.
pub fn result_constraint(o: &TestObject) -> Option<String> {
    let suffix = o.site.as_ref()?.call.strip_prefix("__VERIFIER_nondet_")?;
    let bytes = o.byte_values()?;
    // The input's own size says the data model (4-byte `long` under ILP32).
    let (ty, _) = nondet_type(suffix, bytes.len() == 4)?;
    match ty {
        NondetType::Float(f) => {
            let bits = raw(&bytes, (f.width() / 8) as usize)?;
            let x = Float::from_bits(f, bits);
            Some(if x.is_nan() {
                "\\is_NaN(\\result)".to_string()
            } else if x.is_infinite() {
                if x.is_negative() {
                    "\\is_minus_infinity(\\result)".into()
                } else {
                    "\\is_plus_infinity(\\result)".into()
                }
            } else if x.is_zero() && x.is_negative() {
                "\\result == -0x0p+0 && \\sign(\\result) == \\Negative".into()
            } else {
                format!("\\result == {}", hex_float(x))
            })
        }
        NondetType::Int { bytes: n, signed } => {
            let v = raw(&bytes, n)?;
            let bits = 8 * n as u32;
            Some(if signed && (v >> (bits - 1)) & 1 == 1 {
                format!("\\result == {}", v as i128 - (1i128 << bits))
            } else {
                format!("\\result == {v}")
            })
        }
    }
}

/// The little-endian integer of the first `n` bytes (zeros past the end
/// of `bytes`, as the driver reads a short input).
fn raw(bytes: &[u8], n: usize) -> Option<u128> {
    (n <= 16).then(|| {
        (0..n)
            .rev()
            .fold(0u128, |acc, i| (acc << 8) | *bytes.get(i).unwrap_or(&0) as u128)
    })
}

/// The bytes of a value of `ty` that `constraint` (a form
/// [`result_constraint`] writes, or `\result == N` with any C number
/// literal of the type) fixes.
fn constraint_bytes(constraint: &str, ty: NondetType) -> Result<Vec<u8>, String> {
    let c: String = constraint.split_whitespace().collect::<Vec<_>>().join(" ");
    let le = |v: u128, n: usize| v.to_le_bytes()[..n].to_vec();
    match ty {
        NondetType::Float(f) => {
            let n = (f.width() / 8) as usize;
            let x = match c.as_str() {
                "\\is_NaN(\\result)" => Float::nan(f),
                "\\is_plus_infinity(\\result)" => Float::infinity(f, false),
                "\\is_minus_infinity(\\result)" => Float::infinity(f, true),
                "\\result == -0x0p+0 && \\sign(\\result) == \\Negative" => Float::zero(f, true),
                _ => {
                    let lit = c
                        .strip_prefix("\\result == ")
                        .ok_or_else(|| format!("constraint `{constraint}` is not one fpsym reads (`\\result == V`)"))?
                        .trim_end_matches(['f', 'F']);
                    float_literal(lit, f).ok_or_else(|| format!("`{lit}` is not a value of the call's type"))?
                }
            };
            Ok(le(x.to_bits(), n))
        }
        NondetType::Int { bytes: n, signed } => {
            let lit = c
                .strip_prefix("\\result == ")
                .ok_or_else(|| format!("constraint `{constraint}` is not one fpsym reads (`\\result == V`)"))?
                .trim_end_matches(['u', 'U', 'l', 'L']);
            let v: i128 = lit.parse().map_err(|_| format!("`{lit}` is not a decimal integer"))?;
            let (lo, hi) = crate::export::int_range(n, signed);
            if v < lo || v > hi {
                return Err(format!("{v} is out of the call's type's range"));
            }
            Ok(le(v as u128, n))
        }
    }
}

/// A float literal: a hex float exactly (as fpsym writes them), or a
/// decimal rounded to nearest.
fn float_literal(lit: &str, f: Format) -> Option<Float> {
    if let Some(x) = hex_float_value(lit, f) {
        return Some(x);
    }
    match f {
        Format::BINARY32 => lit
            .parse::<f32>()
            .ok()
            .map(|v| Float::from_bits(f, v.to_bits() as u128)),
        Format::BINARY64 => lit
            .parse::<f64>()
            .ok()
            .map(|v| Float::from_bits(f, v.to_bits() as u128)),
        _ => None,
    }
}

/// The inputs a witness gives the program: one per `function_return`
/// waypoint, in order, typed by the `__VERIFIER_nondet_*` call at its
/// location (the source files of `files` are read to find it; `long` is 4
/// bytes when `ilp32`). Also
/// returns the target's location and how many waypoints of other types
/// were passed over (assumptions and branchings are not checked here).
pub fn witness_inputs(path: &Path, files: &[PathBuf], ilp32: bool) -> Result<WitnessInputs, WitnessError> {
    let entries = read_witness(path)?;
    let malformed = |message: String| WitnessError::Malformed {
        path: path.to_path_buf(),
        message,
    };
    let entry = entries
        .iter()
        .find(|e| e.entry_type == "violation_sequence")
        .ok_or_else(|| malformed("no entry of type violation_sequence".into()))?;
    let sources = Sources::new(files)?;
    let mut out = WitnessInputs::default();
    let waypoints = entry.content.iter().flat_map(|c| match c {
        ContentItem::Segment(s) => s.segment.iter().map(|w| &w.waypoint).collect(),
        ContentItem::Invariant { .. } => Vec::new(),
    });
    for (k, w) in waypoints.enumerate() {
        let err = |message: String| WitnessError::Waypoint {
            path: path.to_path_buf(),
            index: k + 1,
            file: w.location.file_name.clone(),
            line: w.location.line,
            message,
        };
        match (w.kind.as_str(), w.action.as_str()) {
            ("target", _) => out.target = Some(w.location.clone()),
            ("function_return", "follow") => {
                let text = sources
                    .files
                    .iter()
                    .zip(&sources.canonical)
                    .find(|((name, _), c)| {
                        *name == w.location.file_name
                            || (c.is_some() && *c == &std::fs::canonicalize(&w.location.file_name).ok())
                    })
                    .map(|((_, t), _)| t.as_str())
                    .ok_or_else(|| err("its file is not one of the program's".into()))?;
                let column = w.location.column.ok_or_else(|| err("no column".into()))?;
                let line = text
                    .lines()
                    .nth(w.location.line.saturating_sub(1) as usize)
                    .ok_or_else(|| err("no such line".into()))?;
                let callee =
                    callee_closing_at(line, column).ok_or_else(|| err(format!("no call closes at column {column}")))?;
                let (ty, c_type) = callee
                    .strip_prefix("__VERIFIER_nondet_")
                    .and_then(|s| nondet_type(s, ilp32))
                    .ok_or_else(|| err(format!("`{callee}` is not a __VERIFIER_nondet_* function")))?;
                let constraint = w.constraint.as_ref().ok_or_else(|| err("no constraint".into()))?;
                let bytes = constraint_bytes(&constraint.value, ty).map_err(err)?;
                out.inputs.push(TestObject {
                    name: callee.to_string(),
                    ty: c_type.to_string(),
                    bytes: bytes.iter().map(|b| format!("{b:02x}")).collect(),
                    value: None,
                    hex: None,
                    elements: vec![],
                    site: None,
                });
            }
            _ => out.skipped += 1,
        }
    }
    if out.target.is_none() {
        return Err(malformed("no target waypoint".into()));
    }
    Ok(out)
}

/// What [`witness_inputs`] read.
#[derive(Clone, Debug, Default)]
pub struct WitnessInputs {
    /// The inputs, in call order.
    pub inputs: Vec<TestObject>,
    /// The target's location.
    pub target: Option<Location>,
    /// Waypoints of other types or actions, not checked.
    pub skipped: usize,
}

/// A witness run natively ([`check_witness`]).
#[derive(Clone, Debug)]
pub struct WitnessCheck {
    /// What the witness said.
    pub read: WitnessInputs,
    /// What the native run did.
    pub observed: Observed,
    /// It called `reach_error` at the target's line.
    pub confirmed: bool,
}

/// Runs the program of the run in `dir` (its native replay build) with the
/// values the witness at `path` gives its `__VERIFIER_nondet_*` calls, and
/// says whether it calls `reach_error` at the witness's target line.
pub fn check_witness(dir: &Path, path: &Path, opts: &ReplayOptions) -> Result<WitnessCheck, WitnessError> {
    let record: fpsym_report::RunRecord =
        fpsym_report::read_json(&dir.join(fpsym_report::RUN_RECORD)).map_err(|source| {
            ReplayError::NotARunDirectory {
                dir: dir.to_path_buf(),
                source,
            }
        })?;
    let files: Vec<PathBuf> = record.files.iter().map(PathBuf::from).collect();
    let read = witness_inputs(path, &files, data_model(&record.cflags) == "ILP32")?;
    let input = crate::encode_inputs(&read.inputs).expect("witness inputs are hex");
    let confirmations = crate::Confirmations::default();
    let observed = crate::observe_inputs(dir, opts, &confirmations, &[input])?
        .pop()
        .expect("one input, one observation");
    let target = read.target.as_ref().expect("witness_inputs requires a target");
    let base = |p: &str| Path::new(p).file_name().map(|n| n.to_os_string());
    let confirmed = observed.kind == Observation::Finding(FindingKind::ReachError)
        && observed.line == Some(target.line)
        && observed.file.as_deref().map(base) == Some(base(&target.file_name));
    Ok(WitnessCheck {
        read,
        observed,
        confirmed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(call: &str) -> InputSite {
        InputSite {
            call: call.into(),
            function: "main".into(),
            file: "p.c".into(),
            line: 1,
            column: 11,
        }
    }

    fn obj(call: &str, bytes: &str) -> TestObject {
        TestObject {
            name: "x".into(),
            ty: "?".into(),
            bytes: bytes.into(),
            value: None,
            hex: None,
            elements: vec![],
            site: Some(site(call)),
        }
    }

    #[test]
    fn constraints_read_back_to_the_same_bytes() {
        let cases = [
            ("__VERIFIER_nondet_float", "0000c03f", "\\result == 0x1.8p+0"),
            (
                "__VERIFIER_nondet_float",
                "00000080",
                "\\result == -0x0p+0 && \\sign(\\result) == \\Negative",
            ),
            ("__VERIFIER_nondet_float", "0000807f", "\\is_plus_infinity(\\result)"),
            (
                "__VERIFIER_nondet_double",
                "000000000000f0ff",
                "\\is_minus_infinity(\\result)",
            ),
            (
                "__VERIFIER_nondet_double",
                "0100000000000000",
                "\\result == 0x0.0000000000001p-1022",
            ),
            ("__VERIFIER_nondet_int", "ffffffff", "\\result == -1"),
            ("__VERIFIER_nondet_uint", "ffffffff", "\\result == 4294967295"),
            ("__VERIFIER_nondet_char", "80", "\\result == -128"),
            ("__VERIFIER_nondet_bool", "01", "\\result == 1"),
        ];
        for (call, bytes, want) in cases {
            let o = obj(call, bytes);
            let c = result_constraint(&o).unwrap();
            assert_eq!(c, want, "{call} {bytes}");
            let (ty, _) = nondet_type(call.strip_prefix("__VERIFIER_nondet_").unwrap(), false).unwrap();
            let back: String = constraint_bytes(&c, ty)
                .unwrap()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            assert_eq!(back, bytes, "{c}");
        }
        // A NaN's payload is not in the witness: read back as the quiet NaN.
        let c = result_constraint(&obj("__VERIFIER_nondet_float", "0100807f")).unwrap();
        assert_eq!(c, "\\is_NaN(\\result)");
        assert_eq!(
            constraint_bytes(&c, NondetType::Float(Format::BINARY32)).unwrap(),
            vec![0, 0, 0xc0, 0x7f]
        );
        // Decimal literals of other tools round to nearest; junk is refused.
        let ty = NondetType::Float(Format::BINARY64);
        assert_eq!(
            constraint_bytes("\\result == 0.1", ty).unwrap(),
            0.1f64.to_bits().to_le_bytes().to_vec()
        );
        assert!(constraint_bytes("\\result > 0.1", ty).is_err());
        assert!(constraint_bytes(
            "\\result == 300",
            NondetType::Int {
                bytes: 1,
                signed: false
            }
        )
        .is_err());
    }

    #[test]
    fn the_creation_time_is_a_quoted_string() {
        let task = TaskInfo {
            files: &[],
            specification: UNREACH_CALL,
            data_model: "LP64",
            version: "1",
            command_line: None,
        };
        let yaml = to_yaml(&correctness_witness(&task, &[]).unwrap());
        let line = yaml.lines().find(|l| l.contains("creation_time")).unwrap();
        assert!(
            line.trim().starts_with("creation_time: '20") && line.ends_with('\''),
            "{yaml}"
        );
        let back: Vec<Entry> = serde_yaml_ng::from_str(&yaml).unwrap();
        assert!(!back[0].metadata.creation_time.contains('\''), "{yaml}");
    }

    #[test]
    fn calls_are_found_by_their_parentheses() {
        let line = "  float x = __VERIFIER_nondet_float(), y = f(g(1), 2);";
        let s = InputSite {
            column: 13,
            ..site("__VERIFIER_nondet_float")
        };
        let close = closing_paren(line, &s).unwrap();
        assert_eq!(&line[close as usize - 1..close as usize], ")");
        assert_eq!(callee_closing_at(line, close), Some("__VERIFIER_nondet_float"));
        let outer = line.rfind(')').unwrap() as u32 + 1;
        assert_eq!(callee_closing_at(line, outer), Some("f"));
        // A column that is not the callee's start finds nothing.
        assert_eq!(closing_paren(line, &InputSite { column: 12, ..s }), None);
    }
}
