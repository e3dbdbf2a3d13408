//! `fpsym show DIR|TEST.json`: a run's tests for people (KLEE's
//! ktest-tool, readable). Each input by name and type with its value in
//! decimal (shortest round-trip, as the record has it) and as a hex float,
//! and the IEEE class computed from its bytes and type; arrays and structs
//! element by element. With a directory, its findings too. `--json` prints
//! the same as one object. What is shown is checked against the bytes
//! (what replay feeds the program): a record whose value says otherwise
//! was edited by hand and is refused (exit 2), as are files that are not
//! test records.

use crate::Failure;
use fpsym_report::show_record::{Shown, ShownElement, ShownFinding, ShownInput, ShownTest};
use fpsym_report::{decimal, hex_float, Finding, RunRecord, Test, TestObject};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// `fpsym show`: the tests and findings of `path` (a run's directory or
/// one test file; only test `test` when given), for people or, with
/// `json`, as one JSON object.
pub fn run(path: &Path, test: Option<u64>, json: bool) -> anyhow::Result<ExitCode> {
    let shown = collect(path, test)?;
    let written = if json {
        let text = serde_json::to_string_pretty(&shown).map_err(|e| Failure::Internal(e.to_string()))?;
        writeln!(std::io::stdout().lock(), "{text}")
    } else {
        print(&shown)
    };
    match written {
        // The reader stopped reading (`| head`): not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(Failure::Internal(format!("writing to stdout: {e}")).into()),
        Ok(()) => Ok(ExitCode::SUCCESS),
    }
}

/// An input error (exit 2).
fn input(msg: impl Into<String>) -> anyhow::Error {
    Failure::Input(msg.into()).into()
}

/// Reads what `path` (a directory or a test file) holds.
fn collect(path: &Path, only: Option<u64>) -> anyhow::Result<Shown> {
    let meta = std::fs::metadata(path).map_err(|e| input(format!("{}: {e}", path.display())))?;
    let (dir, tests, findings) = if meta.is_dir() {
        if !path.join("tests").is_dir() && !path.join(fpsym_report::RUN_RECORD).is_file() {
            return Err(input(format!(
                "{}: not a fpsym output directory (no tests/, no run.json)",
                path.display()
            )));
        }
        let tests = fpsym_report::read_tests(path).map_err(|e| input(e.to_string()))?;
        let findings = fpsym_report::read_findings(path).map_err(|e| input(e.to_string()))?;
        (Some(path.to_path_buf()), tests, findings)
    } else {
        let t: Test = fpsym_report::read_json(path)
            .map_err(|e| input(format!("{e} (not a fpsym test record, tests/NNNNNN.json)")))?;
        // A test inside an output directory: its findings.
        let dir = path
            .parent()
            .filter(|p| p.file_name().is_some_and(|n| n == "tests"))
            .and_then(Path::parent)
            .filter(|d| d.join("findings").is_dir())
            .map(Path::to_path_buf);
        let findings = match &dir {
            Some(d) => fpsym_report::read_findings(d).map_err(|e| input(e.to_string()))?,
            None => Vec::new(),
        };
        (dir, vec![t], findings)
    };
    let tests: Vec<Test> = match only {
        Some(id) => {
            let available: Vec<u64> = tests.iter().map(|t| t.id).collect();
            let t: Vec<Test> = tests.into_iter().filter(|t| t.id == id).collect();
            if t.is_empty() {
                let e = fpsym_replay::ReplayError::NoSuchTest {
                    dir: path.to_path_buf(),
                    test: id,
                    available,
                };
                return Err(input(e.to_string()));
            }
            t
        }
        None => tests,
    };
    let entry = dir.as_ref().and_then(|d| {
        let r: RunRecord = fpsym_report::read_json(&d.join(fpsym_report::RUN_RECORD)).ok()?;
        Some(match r.entry.function() {
            Some(f) => format!("--function {f}"),
            None => "main".to_string(),
        })
    });
    let numbered: Vec<(usize, &Finding)> = findings
        .iter()
        .enumerate()
        .map(|(k, f)| (k + 1, f))
        // A whole directory: every finding; else those of the tests shown.
        .filter(|(_, f)| (meta.is_dir() && only.is_none()) || tests.iter().any(|t| t.id == f.test))
        .collect();
    let mut shown_tests = Vec::new();
    for t in &tests {
        let file = match &dir {
            Some(d) if meta.is_dir() => d.join("tests").join(format!("{:06}.json", t.id)),
            _ => path.to_path_buf(),
        };
        let inputs = t
            .objects
            .iter()
            .map(|o| shown_input(o).map_err(|why| input(format!("{}: input `{}`: {why}", file.display(), o.name))))
            .collect::<anyhow::Result<Vec<_>>>()?;
        shown_tests.push(ShownTest {
            id: t.id,
            file: file.display().to_string(),
            end: t.end.class().to_string(),
            detail: t.end.to_string(),
            findings: numbered
                .iter()
                .filter(|(_, f)| f.test == t.id)
                .map(|(n, _)| *n)
                .collect(),
            inputs,
        });
    }
    Ok(Shown {
        dir: dir.as_ref().map(|d| d.display().to_string()),
        entry,
        tests: shown_tests,
        findings: numbered
            .into_iter()
            .map(|(number, f)| ShownFinding {
                number,
                kind: f.kind.clone(),
                file: f.file.clone(),
                line: f.line,
                column: f.column,
                test: f.test,
                message: f.message.clone(),
                stack: f.stack.clone(),
            })
            .collect(),
    })
}

/// One input as shown: value and hex as recorded (checked against the
/// bytes), the class from the bytes and the type.
fn shown_input(o: &TestObject) -> Result<ShownInput, String> {
    let bytes = o
        .byte_values()
        .ok_or_else(|| format!("its bytes `{}` are not hex", o.bytes))?;
    // A scalar recorded as the one element of the same name (a long
    // double's 16 bytes of memory, 10 of them its value) is shown as one.
    let (ty, o_value, o_hex, o_elements) = match (&o.value, o.elements.as_slice()) {
        (None, [e]) if e.name == o.name => (&e.ty, Some(e.value.clone()), e.hex.clone(), &[][..]),
        _ => (&o.ty, o.value.clone(), o.hex.clone(), o.elements.as_slice()),
    };
    let mut value = o_value.clone();
    let mut hex = o_hex.clone();
    let (mut class, mut class_detail) = (None, None);
    match fpsym_replay::scalar_format(ty, &bytes, o_value.as_deref()) {
        Some(fmt) => {
            let x = float_at(&bytes, fmt);
            let (d, h) = (decimal(x), hex_float(x));
            if o_value.as_deref().is_some_and(|v| v != d) || o_hex.as_deref().is_some_and(|v| v != h) {
                return Err(format!(
                    "the record says {} ({}) but its bytes are {d} ({h}) (edited by hand? edit both, or neither)",
                    o_value.as_deref().unwrap_or("-"),
                    o_hex.as_deref().unwrap_or("-")
                ));
            }
            let (c, detail) = fpsym_replay::float_class(&bytes, fmt).ok_or("too few bytes for its type")?;
            (value, hex) = (Some(d), Some(h));
            (class, class_detail) = (Some(c.name()), detail);
        }
        None if o_hex.is_some() => {
            return Err(format!(
                "type `{ty}` with {} bytes and value {} is not a float of a known format (edited by hand?)",
                bytes.len(),
                o_value.as_deref().unwrap_or("-")
            ))
        }
        None => check_integer(o, &bytes)?,
    }
    // An array (`T[n]`) of n elements of type T: element k is the k-th
    // slice of the bytes, so its value and class come from them. (A
    // struct's members have no offsets in the record: their class is
    // read from their value.)
    let n = o_elements.len();
    let slices: Option<Vec<&[u8]>> =
        (n > 0 && bytes.len() % n == 0 && o_elements.iter().all(|e| *ty == format!("{}[{n}]", e.ty)))
            .then(|| bytes.chunks(bytes.len() / n).collect());
    let elements = o_elements
        .iter()
        .enumerate()
        .map(|(k, e)| {
            let (mut class, mut class_detail) = (None, None);
            if let Some(h) = &e.hex {
                let c = fpsym_replay::element_class(&e.ty, &e.value, h).ok_or_else(|| {
                    format!(
                        "element `{}`: {} ({h}) is not one float of type `{}` (edited by hand?)",
                        e.name, e.value, e.ty
                    )
                })?;
                class = Some(c.name());
                let slice = slices.as_ref().map(|s| s[k]);
                if let Some((b, fmt)) =
                    slice.and_then(|b| Some((b, fpsym_replay::scalar_format(&e.ty, b, Some(&e.value))?)))
                {
                    let x = float_at(b, fmt);
                    let (d, hx) = (decimal(x), hex_float(x));
                    if d != e.value || hx != *h {
                        return Err(format!(
                            "element `{}`: the record says {} ({h}) but its bytes are {d} ({hx}) (edited by hand? edit both, or neither)",
                            e.name, e.value
                        ));
                    }
                    let (c, detail) = fpsym_replay::float_class(b, fmt).ok_or("too few bytes for its type")?;
                    (class, class_detail) = (Some(c.name()), detail);
                }
            }
            Ok(ShownElement {
                name: e.name.clone(),
                ty: e.ty.clone(),
                value: e.value.clone(),
                hex: e.hex.clone(),
                class: class.map(str::to_string),
                class_detail: class_detail.map(str::to_string),
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    // Text: char arrays, and bytes of no type read as standard input.
    let text = (ty.ends_with(']') && ty.contains("char[")) || (o.name == "stdin" && ty.starts_with("u8["));
    let string = text.then(|| {
        let end = bytes
            .iter()
            .position(|b| *b == 0)
            .filter(|k| bytes[*k..].iter().all(|b| *b == 0));
        fpsym_replay::c_string_literal(&bytes[..end.unwrap_or(bytes.len())])
    });
    Ok(ShownInput {
        name: o.name.clone(),
        ty: ty.clone(),
        string,
        size: bytes.len(),
        bytes: o.bytes.clone(),
        value,
        hex,
        class: class.map(str::to_string),
        class_detail: class_detail.map(str::to_string),
        elements,
    })
}

/// The float of format `fmt` at the start of `bytes` (little-endian; as
/// many bytes as [`fpsym_replay::scalar_format`] found for it).
fn float_at(bytes: &[u8], fmt: fpsym_float::Format) -> fpsym_float::Float {
    let raw = bytes[..(fmt.width() / 8) as usize]
        .iter()
        .rev()
        .fold(0u128, |acc, b| (acc << 8) | *b as u128);
    fpsym_float::Float::from_bits(fmt, raw)
}

/// An integer's recorded value against its bytes: the same modulo
/// 2^(8 × size), signed or not.
fn check_integer(o: &TestObject, bytes: &[u8]) -> Result<(), String> {
    let Some(v) = o.value.as_deref() else {
        return Ok(());
    };
    let Ok(n) = v.parse::<i128>() else {
        // A pointer (hex address) or another rendering: shown as is.
        return Ok(());
    };
    if bytes.is_empty() || bytes.len() >= 16 {
        return Ok(());
    }
    let raw = bytes.iter().rev().fold(0i128, |acc, b| (acc << 8) | *b as i128);
    if n.rem_euclid(1i128 << (8 * bytes.len())) != raw {
        return Err(format!(
            "the record says {v} but its {} bytes {} say otherwise (edited by hand? edit both, or neither)",
            bytes.len(),
            o.bytes
        ));
    }
    Ok(())
}

/// The file name of a path.
fn basename(s: &str) -> String {
    Path::new(s)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| s.to_string())
}

/// A scalar's value, hex float and class on one line.
fn scalar_text(value: &str, hex: Option<&str>, class: Option<&str>, detail: Option<&str>) -> String {
    let mut s = value.to_string();
    if let Some(h) = hex.filter(|h| *h != value) {
        s.push_str(&format!("  {h}"));
    }
    if let Some(c) = class {
        s.push_str(&format!("  {c}"));
        if let Some(d) = detail {
            s.push_str(&format!(" ({d})"));
        }
    }
    s
}

/// The text form.
fn print(shown: &Shown) -> std::io::Result<()> {
    let out = std::io::stdout();
    let mut out = out.lock();
    if let Some(d) = &shown.dir {
        let entry = shown.entry.as_deref().map(|e| format!(" ({e})")).unwrap_or_default();
        writeln!(
            out,
            "{d}{entry}: {} test(s), {} finding(s)",
            shown.tests.len(),
            shown.findings.len()
        )?;
    }
    for t in &shown.tests {
        writeln!(out, "test {:06}: {} ({})", t.id, t.detail, t.file)?;
        for n in &t.findings {
            if let Some(f) = shown.findings.iter().find(|f| f.number == *n) {
                writeln!(
                    out,
                    "  finding {n:03}: {} at {}:{}:{}",
                    f.kind,
                    basename(&f.file),
                    f.line,
                    f.column
                )?;
            }
        }
        if t.inputs.is_empty() {
            writeln!(out, "  (no inputs)")?;
        }
        for i in &t.inputs {
            match &i.value {
                Some(v) => writeln!(
                    out,
                    "  {}: {} = {}",
                    i.name,
                    i.ty,
                    scalar_text(v, i.hex.as_deref(), i.class.as_deref(), i.class_detail.as_deref())
                )?,
                None if i.string.is_some() => writeln!(
                    out,
                    "  {}: {} = {}",
                    i.name,
                    i.ty,
                    i.string.as_deref().unwrap_or_default()
                )?,
                None if i.elements.is_empty() => writeln!(
                    out,
                    "  {}: {} ({} bytes) = {}",
                    i.name,
                    i.ty,
                    i.size,
                    if i.bytes.is_empty() { "(empty)" } else { &i.bytes }
                )?,
                None => writeln!(out, "  {}: {} ({} bytes)", i.name, i.ty, i.size)?,
            }
            for e in i.elements.iter().filter(|_| i.string.is_none()) {
                writeln!(
                    out,
                    "    {}: {} = {}",
                    e.name,
                    e.ty,
                    scalar_text(
                        &e.value,
                        e.hex.as_deref(),
                        e.class.as_deref(),
                        e.class_detail.as_deref()
                    )
                )?;
            }
        }
    }
    if shown.dir.is_some() && !shown.findings.is_empty() {
        writeln!(out, "findings:")?;
        for f in &shown.findings {
            writeln!(
                out,
                "  {:03} {} at {}:{}:{} (test {:06})",
                f.number, f.kind, f.file, f.line, f.column, f.test
            )?;
            if !f.message.is_empty() {
                writeln!(out, "      {}", f.message)?;
            }
        }
    }
    Ok(())
}

/// Array elements and string bytes a one-line input shows before `…`.
const LINE_ELEMENTS: usize = 6;
/// String bytes a one-line input shows before `…`.
const LINE_TEXT: usize = 32;

/// A test's inputs on one line, for the run summary and `--json`
/// (`x = 1.5e0, y = -inf`): each scalar's value as `fpsym show` gives it,
/// text as a C string literal, an array's values in braces and a struct's
/// members as designated initializers (`p = {.x = 1e0, .y = 2e0}`); past
/// six elements (32 bytes of text) the rest is left out and counted.
pub(crate) fn input_line(objects: &[TestObject]) -> String {
    if objects.is_empty() {
        return "(no inputs)".to_string();
    }
    objects
        .iter()
        .map(|o| format!("{} = {}", o.name, object_text(o)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One input's value in [`input_line`].
fn object_text(o: &TestObject) -> String {
    let bytes = o.byte_values().unwrap_or_default();
    // A scalar recorded as the one element of its own name (a long
    // double's 16 bytes of memory).
    if let (None, [e]) = (&o.value, o.elements.as_slice()) {
        if e.name == o.name {
            return e.value.clone();
        }
    }
    if let Some(v) = &o.value {
        return v.clone();
    }
    let text = (o.ty.ends_with(']') && o.ty.contains("char[")) || (o.name == "stdin" && o.ty.starts_with("u8["));
    if text {
        let end = bytes
            .iter()
            .position(|b| *b == 0)
            .filter(|k| bytes[*k..].iter().all(|b| *b == 0))
            .unwrap_or(bytes.len());
        return match end > LINE_TEXT {
            true => format!("{}… ({end} bytes)", fpsym_replay::c_string_literal(&bytes[..LINE_TEXT])),
            false => fpsym_replay::c_string_literal(&bytes[..end]),
        };
    }
    if o.elements.is_empty() {
        return match bytes.len() {
            0 => "(empty)".to_string(),
            n if n > LINE_TEXT => format!("0x{}… ({n} bytes)", &o.bytes[..2 * LINE_TEXT]),
            _ => format!("0x{}", o.bytes),
        };
    }
    // Elements `name[0]`, `name[1]`, ... in order: an array, its values
    // alone; else each with its designator (`.x`, `[1].next`).
    let plain = o
        .elements
        .iter()
        .enumerate()
        .all(|(k, e)| e.name == format!("{}[{k}]", o.name));
    let shown: Vec<String> = o
        .elements
        .iter()
        .take(LINE_ELEMENTS)
        .map(|e| match plain {
            true => e.value.clone(),
            false => {
                let designator = e.name.strip_prefix(o.name.as_str()).unwrap_or(&e.name);
                format!("{designator} = {}", e.value)
            }
        })
        .collect();
    match o.elements.len() {
        n if n > LINE_ELEMENTS => format!("{{{}, …}} ({n} elements)", shown.join(", ")),
        _ => format!("{{{}}}", shown.join(", ")),
    }
}

/// Test `id` of the output directory `dir`, if it is there and readable.
pub(crate) fn read_test(dir: &Path, id: u64) -> Option<Test> {
    fpsym_report::read_json(&dir.join("tests").join(format!("{id:06}.json"))).ok()
}
