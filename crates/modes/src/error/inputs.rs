//! The inputs of the measured function: its scalars (where each one's
//! bytes are in its object and in a native record), reading and writing
//! them, the input `--input` gives, and the layout a probe run finds.

use super::*;

/// One scalar of the inputs: where its bytes are and what they hold.
#[derive(Clone, Debug)]
pub(super) struct Scalar {
    /// Its input object (a parameter).
    pub(super) object: String,
    /// Byte offset in the object.
    pub(super) offset: u64,
    /// How tests name it (`x`, `x[3]`).
    pub(super) name: String,
    pub(super) kind: ScalarKind,
    /// `--range` of its parameter, as doubles rounded inward (see
    /// `InputRange::doubles`).
    pub(super) range: Option<(f64, f64)>,
}

#[derive(Clone, Copy, Debug)]
pub(super) enum ScalarKind {
    Float(Format),
    Int { bytes: u64, signed: bool },
}

impl ScalarKind {
    pub(super) fn size(self) -> u64 {
        match self {
            ScalarKind::Float(f) => (f.packed_width() / 8) as u64,
            ScalarKind::Int { bytes, .. } => bytes,
        }
    }
    /// From a C type name as tests give it.
    pub(super) fn of(ty: &str) -> Option<ScalarKind> {
        Some(match ty {
            "double" => ScalarKind::Float(Format::BINARY64),
            "float" => ScalarKind::Float(Format::BINARY32),
            "char" | "signed char" | "i8" => ScalarKind::Int { bytes: 1, signed: true },
            "unsigned char" | "_Bool" | "bool" | "u8" => ScalarKind::Int {
                bytes: 1,
                signed: false,
            },
            "short" | "i16" => ScalarKind::Int { bytes: 2, signed: true },
            "unsigned short" | "u16" => ScalarKind::Int {
                bytes: 2,
                signed: false,
            },
            "int" | "i32" => ScalarKind::Int { bytes: 4, signed: true },
            "unsigned int" | "u32" => ScalarKind::Int {
                bytes: 4,
                signed: false,
            },
            "long" | "long long" | "i64" => ScalarKind::Int { bytes: 8, signed: true },
            "unsigned long" | "unsigned long long" | "size_t" | "u64" => ScalarKind::Int {
                bytes: 8,
                signed: false,
            },
            _ => return None,
        })
    }
}

/// The entry's scalars, each object's size, the objects in parameter
/// order.
pub(super) type Layout = (Vec<Scalar>, BTreeMap<String, usize>, Vec<String>);

/// A float scalar's bounds: its range's floats, or the finite ones (zeros
/// for an integer).
pub(super) fn float_bounds(s: &Scalar) -> (Float, Float) {
    let ScalarKind::Float(f) = s.kind else {
        return (Float::from_f64(0.0), Float::from_f64(0.0));
    };
    match s.range {
        Some((lo, hi)) => (
            Float::from_f64(lo).convert(f, RoundingMode::TowardPositive).value,
            Float::from_f64(hi).convert(f, RoundingMode::TowardNegative).value,
        ),
        None => (Float::largest(f, true), Float::largest(f, false)),
    }
}

/// Writes float `x` at byte `at` of a native record.
pub(super) fn put_record(rec: &mut [u8], at: usize, x: Float) {
    let n = (x.format().packed_width() / 8) as usize;
    rec[at..at + n].copy_from_slice(&x.to_bits().to_le_bytes()[..n]);
}

/// The float of format `f` at byte `at` of a native record.
pub(super) fn get_record(rec: &[u8], at: usize, f: Format) -> Float {
    let n = (f.packed_width() / 8) as usize;
    let mut b = [0u8; 16];
    b[..n].copy_from_slice(&rec[at..at + n]);
    Float::from_bits(f, u128::from_le_bytes(b))
}

/// Writes a float scalar's bytes into its object.
pub(super) fn put(inputs: &mut BTreeMap<String, Vec<u8>>, s: &Scalar, x: Float) {
    put_bits(inputs, s, x.to_bits());
}

/// Writes a scalar's low bytes of `b` (little-endian) into its object.
pub(super) fn put_bits(inputs: &mut BTreeMap<String, Vec<u8>>, s: &Scalar, b: u128) {
    if let Some(o) = inputs.get_mut(&s.object) {
        let at = s.offset as usize;
        let n = s.kind.size() as usize;
        if at + n <= o.len() {
            for (k, byte) in o[at..at + n].iter_mut().enumerate() {
                *byte = (b >> (8 * k)) as u8;
            }
        }
    }
}

/// A float scalar's value in its object.
pub(super) fn get(inputs: &BTreeMap<String, Vec<u8>>, s: &Scalar) -> Float {
    let ScalarKind::Float(f) = s.kind else {
        unreachable!("get is called on float scalars")
    };
    Float::from_bits(f, bits_of(inputs, s))
}

/// A scalar's bytes in its object, as an integer (little-endian).
pub(super) fn bits_of(inputs: &BTreeMap<String, Vec<u8>>, s: &Scalar) -> u128 {
    let bytes = &inputs[&s.object][s.offset as usize..(s.offset + s.kind.size()) as usize];
    bytes.iter().rev().fold(0u128, |a, b| (a << 8) | *b as u128)
}

/// A float's place on the number line ([`Float::ordinal`]); NaNs (which
/// are not asked) at 0.
pub(super) fn key(x: Float) -> i128 {
    x.ordinal().unwrap_or(0)
}

/// The float of a [`key`] (clamped to the infinities).
pub(super) fn from_key(f: Format, k: i128) -> Float {
    let inf = Float::infinity(f, false).ordinal().unwrap_or(0);
    Float::from_ordinal(f, k.clamp(-inf - 1, inf)).unwrap_or(Float::infinity(f, k < 0))
}

/// The input `--input NAME=V,...` gives (unnamed scalars 0).
pub(super) fn given_input(
    specs: &[String],
    scalars: &[Scalar],
    sizes: &BTreeMap<String, usize>,
) -> Result<BTreeMap<String, Vec<u8>>, Failure> {
    let mut m: BTreeMap<String, Vec<u8>> = sizes.iter().map(|(k, n)| (k.clone(), vec![0u8; *n])).collect();
    for spec in specs {
        let bad = |why: String| Failure::Input(format!("--input {spec}: {why}"));
        let (name, values) = spec
            .split_once('=')
            .ok_or_else(|| bad("expected NAME=V or NAME=V,V,...".into()))?;
        let name = name.trim();
        let mine: Vec<&Scalar> = scalars.iter().filter(|s| s.object == name).collect();
        if mine.is_empty() {
            let names: BTreeSet<&str> = scalars.iter().map(|s| s.object.as_str()).collect();
            return Err(bad(format!(
                "no input named {name} (the inputs: {})",
                names.into_iter().collect::<Vec<_>>().join(", ")
            )));
        }
        let values: Vec<&str> = values.split(',').map(str::trim).collect();
        if values.len() > mine.len() {
            return Err(bad(format!(
                "{} values for {name}, which has {} elements",
                values.len(),
                mine.len()
            )));
        }
        for (sc, v) in mine.into_iter().zip(values) {
            match sc.kind {
                ScalarKind::Float(f) => {
                    let x = if f == Format::BINARY32 {
                        v.parse::<f32>().map(Float::from_f32)
                    } else {
                        v.parse::<f64>().map(Float::from_f64)
                    }
                    .map_err(|_| bad(format!("{v} is not a decimal number")))?;
                    // An overflow to infinity is refused (`inf` itself is
                    // allowed); so is a non-zero value that becomes zero.
                    let named_inf = v.trim_start_matches(['+', '-']).to_ascii_lowercase().starts_with("inf");
                    let zero_text = fpsym_float::parse_decimal(v)
                        .is_some_and(|q| q == num_rational::BigRational::from_integer(0.into()));
                    if (x.is_infinite() && !named_inf)
                        || (x.is_zero() && fpsym_float::parse_decimal(v).is_some() && !zero_text)
                    {
                        return Err(bad(format!("{v} is out of the range of {}", sc.name)));
                    }
                    put(&mut m, sc, x);
                }
                ScalarKind::Int { bytes, signed } => {
                    let x: i128 = v.parse().map_err(|_| bad(format!("{v} is not an integer")))?;
                    let w = 8 * bytes as u32;
                    let (min, max) = match (signed, w) {
                        (_, 128..) => (i128::MIN, i128::MAX),
                        (true, _) => (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1),
                        (false, _) => (0, (1i128 << w) - 1),
                    };
                    if x < min || x > max {
                        return Err(bad(format!("{v} does not fit {} ({min} to {max})", sc.name)));
                    }
                    put_bits(&mut m, sc, x as u128);
                }
            }
        }
    }
    Ok(m)
}

/// A test's inputs, by object.
pub(super) fn inputs_of(t: &Test) -> BTreeMap<String, Vec<u8>> {
    t.objects
        .iter()
        .filter_map(|o| Some((o.name.clone(), o.byte_values()?)))
        .collect()
}

/// The scalars of the entry's inputs, from a test's objects (a probe run
/// that stops at once).
pub(super) fn layout(
    program: &fpsym_frontend::Program,
    base: &Config,
    solver: &mut dyn fpsym_solver::Solver,
    ranges: &[fpsym_engine::harness::InputRange],
) -> anyhow::Result<Layout> {
    let mut c = base.clone();
    c.limits.max_instructions = Some(1);
    c.extensions.checkers = Vec::new();
    let mut sink = Collect::default();
    fpsym_engine::run(program, solver, &c, &mut sink, &mut Default::default())
        .map_err(|e| Failure::Input(e.to_string()))?;
    let t = sink
        .tests
        .first()
        .ok_or_else(|| Failure::Internal("the probe run made no test".into()))?;
    let mut scalars = Vec::new();
    let mut sizes = BTreeMap::new();
    let order = t.objects.iter().map(|o| o.name.clone()).collect();
    for o in &t.objects {
        let n = o.bytes.len() / 2;
        sizes.insert(o.name.clone(), n);
        let range = match ranges.iter().find(|r| r.name == o.name) {
            Some(r) => Some(
                r.doubles()
                    .ok_or_else(|| Failure::Input(format!("--range {}={}: no double lies in it", r.name, r.text)))?,
            ),
            None => None,
        };
        let unsupported = || {
            Failure::Input(format!(
                "parameter {} of type {}: fpsym error takes scalar and array parameters of float, double and integer types",
                o.name, o.ty
            ))
        };
        if o.elements.is_empty() {
            let kind = ScalarKind::of(&o.ty).ok_or_else(unsupported)?;
            scalars.push(Scalar {
                object: o.name.clone(),
                offset: 0,
                name: o.name.clone(),
                kind,
                range,
            });
        } else {
            let mut at = 0;
            for e in &o.elements {
                let kind = ScalarKind::of(&e.ty).ok_or_else(unsupported)?;
                scalars.push(Scalar {
                    object: o.name.clone(),
                    offset: at,
                    name: e.name.clone(),
                    kind,
                    range,
                });
                at += kind.size();
            }
            if at as usize != n {
                return Err(unsupported().into());
            }
        }
    }
    Ok((scalars, sizes, order))
}
