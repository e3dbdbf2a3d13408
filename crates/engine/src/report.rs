//! What a run produces: tests, findings, events; and the sink that writes
//! them to an output directory as they are found.

use crate::state::Loc;
use fpsym_float::{Float, Format};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// One input of a test.
#[derive(Clone, Debug, Serialize)]
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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// For a float scalar: the value as a C hexadecimal-float literal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
    /// For an array or struct: its scalar elements in memory order, each
    /// read from `bytes` (a union shows every member).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub elements: Vec<TestElement>,
}

/// One scalar element of an array or struct input.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TestElement {
    /// A C expression naming it (`a[1]`, `p.x`, `m2[1][0]`, `p[0].next`).
    pub name: String,
    /// Its C type (`double`, `int`, `struct node *`).
    #[serde(rename = "type")]
    pub ty: String,
    /// Its value, as [`TestObject::value`].
    pub value: String,
    /// For floats: the value as a C hexadecimal-float literal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
}

/// A test: concrete inputs for one path.
#[derive(Clone, Debug, Serialize)]
pub struct Test {
    /// Sequence number (file `tests/NNNNNN.json`).
    pub id: u64,
    /// The inputs, in the order the program read them.
    pub objects: Vec<TestObject>,
    /// How the path ended: `exit`, `error`, `partial`.
    pub end: String,
    /// Exit status, error kind, or the reason the path stopped.
    pub detail: String,
}

/// A distinct bug with the test that triggers it.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    /// `assertion-failure`, `reach-error`, `division-by-zero`, ...
    pub kind: String,
    /// Source file.
    pub file: String,
    /// Line.
    pub line: u32,
    /// Column.
    pub column: u32,
    /// Call stack, innermost first (`function file:line:column`).
    pub stack: Vec<String>,
    /// The test's id.
    pub test: u64,
    /// Details.
    pub message: String,
}

/// Something the user should know about a run.
#[derive(Clone, Debug, Serialize)]
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
    /// A path stopped early.
    PathStopped {
        /// Where.
        loc: Option<Loc>,
        /// Why.
        reason: String,
    },
}

/// Receives results as they are found. Why this shape: the engine pushes
/// and never reads back, so files, JSON lines and in-memory collection are
/// interchangeable and a killed run keeps everything already pushed.
pub trait ReportSink {
    /// A new test.
    fn test(&mut self, t: &Test) -> std::io::Result<()>;
    /// A new distinct finding.
    fn finding(&mut self, f: &Finding) -> std::io::Result<()>;
    /// An event.
    fn event(&mut self, e: &Event) -> std::io::Result<()>;
}

/// Keeps everything in memory (tests, library users).
#[derive(Default, Debug)]
pub struct Collect {
    /// Tests.
    pub tests: Vec<Test>,
    /// Findings.
    pub findings: Vec<Finding>,
    /// Events.
    pub events: Vec<Event>,
}

impl ReportSink for Collect {
    fn test(&mut self, t: &Test) -> std::io::Result<()> {
        self.tests.push(t.clone());
        Ok(())
    }
    fn finding(&mut self, f: &Finding) -> std::io::Result<()> {
        self.findings.push(f.clone());
        Ok(())
    }
    fn event(&mut self, e: &Event) -> std::io::Result<()> {
        self.events.push(e.clone());
        Ok(())
    }
}

/// Writes `DIR/tests/NNNNNN.json`, `DIR/findings/NNN-KIND.json` and
/// `DIR/events.jsonl`, each as soon as it is pushed.
pub struct DirSink {
    dir: PathBuf,
    events: std::fs::File,
    findings: u64,
}

impl DirSink {
    /// Creates the directory layout under `dir`.
    pub fn create(dir: &Path) -> std::io::Result<DirSink> {
        std::fs::create_dir_all(dir.join("tests"))?;
        std::fs::create_dir_all(dir.join("findings"))?;
        let events = std::fs::File::create(dir.join("events.jsonl"))?;
        Ok(DirSink {
            dir: dir.to_path_buf(),
            events,
            findings: 0,
        })
    }
}

fn write_json(path: &Path, v: &impl Serialize) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(v).map_err(std::io::Error::other)?;
    std::fs::write(path, text + "\n")
}

impl ReportSink for DirSink {
    fn test(&mut self, t: &Test) -> std::io::Result<()> {
        write_json(&self.dir.join("tests").join(format!("{:06}.json", t.id)), t)
    }
    fn finding(&mut self, f: &Finding) -> std::io::Result<()> {
        self.findings += 1;
        write_json(
            &self
                .dir
                .join("findings")
                .join(format!("{:03}-{}.json", self.findings, f.kind)),
            f,
        )
    }
    fn event(&mut self, e: &Event) -> std::io::Result<()> {
        let line = serde_json::to_string(e).map_err(std::io::Error::other)?;
        writeln!(self.events, "{line}")
    }
}

/// C's name for a float format.
pub fn c_type_name(f: Format) -> &'static str {
    match (f.eb(), f.sb()) {
        (8, 24) => "float",
        (11, 53) => "double",
        (15, 64) => "long double",
        (15, 113) => "__float128",
        (5, 11) => "_Float16",
        _ => "float?",
    }
}

/// The value in decimal: shortest round-trip for binary32/64, else 21 or
/// 36 significant digits (enough to round-trip x86_fp80 / binary128).
pub fn decimal(x: Float) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if let Some(v) = x.to_f32().filter(|_| x.format() == Format::BINARY32) {
        return format!("{v:e}");
    }
    if let Some(v) = x.to_f64().filter(|_| x.format() == Format::BINARY64) {
        return format!("{v:e}");
    }
    if x.is_infinite() {
        return if x.is_negative() { "-inf".into() } else { "inf".into() };
    }
    let digits = if x.format().sb() > 64 { 36 } else { 21 };
    let r = x.to_rational().expect("finite");
    sci(&r, digits, x.is_negative())
}

fn sci(r: &num_rational::BigRational, digits: usize, negative: bool) -> String {
    use num_bigint::BigInt;
    use num_traits::{Signed, Zero};
    let r = r.abs();
    let sign = if negative { "-" } else { "" };
    if r.is_zero() {
        return format!("{sign}0e0");
    }
    // Find e with 10^e <= r < 10^(e+1).
    let ten = BigInt::from(10);
    let mut e: i64 = (r.numer().bits() as i64 - r.denom().bits() as i64) * 30103 / 100000;
    let pow = |k: i64| -> num_rational::BigRational {
        if k >= 0 {
            num_rational::BigRational::from_integer(ten.pow(k as u32))
        } else {
            num_rational::BigRational::new(BigInt::from(1), ten.pow((-k) as u32))
        }
    };
    while pow(e) > r {
        e -= 1;
    }
    while pow(e + 1) <= r {
        e += 1;
    }
    let scaled = &r / pow(e - digits as i64 + 1);
    // Round half to even.
    let fl = scaled.floor();
    let frac = &scaled - &fl;
    let half = num_rational::BigRational::new(BigInt::from(1), BigInt::from(2));
    let mut n = fl.to_integer();
    if frac > half || (frac == half && (&n % 2) == BigInt::from(1)) {
        n += 1;
    }
    let mut s = n.to_string();
    if s.len() > digits {
        s.truncate(digits);
        e += 1;
    }
    let (head, tail) = s.split_at(1);
    let tail = tail.trim_end_matches('0');
    if tail.is_empty() {
        format!("{sign}{head}e{e}")
    } else {
        format!("{sign}{head}.{tail}e{e}")
    }
}

/// The value as a C hexadecimal-float literal (`0x1.8p+1`, `-0x0p+0`,
/// `inf`, `nan`); subnormals as `0x0.…p<emin>`.
pub fn hex_float(x: Float) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    let sign = if x.is_negative() { "-" } else { "" };
    if x.is_infinite() {
        return format!("{sign}inf");
    }
    let f = x.format();
    let fb = f.frac_bits();
    let frac = x.fraction();
    let be = x.biased_exponent() as i64;
    let bias = (1i64 << (f.eb() - 1)) - 1;
    let (lead, exp) = if be == 0 {
        (0, if frac == 0 { 0 } else { 1 - bias })
    } else {
        (1, be - bias)
    };
    // Pad the fraction to a multiple of 4 bits.
    let pad = (4 - fb % 4) % 4;
    let digits = (fb + pad) / 4;
    let mut h = format!("{:0width$x}", frac << pad, width = digits as usize);
    while h.ends_with('0') {
        h.pop();
    }
    let dot = if h.is_empty() { String::new() } else { format!(".{h}") };
    format!("{sign}0x{lead}{dot}p{exp:+}")
}
