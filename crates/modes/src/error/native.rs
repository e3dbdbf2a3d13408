//! `fpsym error`'s native side: the function built twice with a record
//! harness ([`fpsym_replay::eval`]): as the engine models it, and with
//! `float` and `double` made `__float128` (FPGen's reference, branching on
//! its own values). The random phase runs here, millions of inputs a
//! minute, and ranks them by the metric against the wide build; the
//! `fpgen` metric takes its reference from the wide build.

use super::{Output, Scalar, ScalarKind};
use fpsym_float::{Float, Format};
use fpsym_precision::{exact_at, Metric};
use fpsym_replay::eval::{self, Build, Evaluator, Param, Signature};
use std::collections::BTreeMap;
use std::path::Path;

/// An input: each object's bytes.
type Input = BTreeMap<String, Vec<u8>>;

/// A float of the results: where it is in each build's result record.
#[derive(Clone, Debug)]
struct Slot {
    /// Its object (None: the return value).
    object: Option<String>,
    /// Its byte offset in that object (the program's layout).
    offset: u64,
    format: Format,
    plain_at: usize,
    wide_at: usize,
}

/// The two native builds of the function.
pub(super) struct Native {
    sig: Signature,
    /// The objects (parameters) in order.
    order: Vec<String>,
    slots: Vec<Slot>,
    plain: Evaluator,
    wide: Evaluator,
    /// The wide build, one input at a time (the `fpgen` reference of an
    /// input the engine measures).
    wide_one: Evaluator,
    /// The plain build, one input at a time (the refinement's bisection).
    plain_one: Evaluator,
    /// Whether the function returns a float.
    float_ret: bool,
}

fn scalar(kind: ScalarKind) -> eval::Scalar {
    match kind {
        ScalarKind::Float(f) if f == Format::BINARY32 => eval::Scalar::F32,
        ScalarKind::Float(_) => eval::Scalar::F64,
        ScalarKind::Int { bytes, signed } => eval::Scalar::Int {
            bytes: bytes as u32,
            signed,
        },
    }
}

impl Native {
    /// Builds both into `dir`; Err says why the function cannot be run
    /// natively (the random phase then runs on the engine). A record that
    /// does not finish is given up on (and after `deadline`, the rest of
    /// its batch).
    pub(super) fn new(
        record: &fpsym_report::RunRecord,
        scalars: &[Scalar],
        order: &[String],
        dir: &Path,
        deadline: std::time::Instant,
    ) -> Result<Native, String> {
        let fpsym_report::EntryRecord::Function {
            function, params, ret, ..
        } = &record.entry
        else {
            return Err("not a --function run".into());
        };
        let params = params
            .as_ref()
            .ok_or("the function's parameters have no C type a harness can declare")?;
        if params.len() != order.len() {
            return Err("the function's parameters are not its inputs one to one".into());
        }
        let mut sig_params = Vec::new();
        for (name, ty) in order.iter().zip(params) {
            let elems: Vec<&Scalar> = scalars.iter().filter(|s| &s.object == name).collect();
            let pointer = ty.ends_with('*');
            match (pointer, elems.as_slice()) {
                (false, [s]) if s.offset == 0 => sig_params.push(Param::Scalar(scalar(s.kind))),
                (true, es) if !es.is_empty() => {
                    sig_params.push(Param::Array(es.iter().map(|s| scalar(s.kind)).collect()))
                }
                _ => {
                    return Err(format!(
                        "parameter {name} of type {ty}: not a scalar or an array of scalars"
                    ))
                }
            }
        }
        let ret_scalar = match ret.as_deref() {
            Some("double") => Some(eval::Scalar::F64),
            Some("float") => Some(eval::Scalar::F32),
            Some("void") | None => None,
            Some(t) => ScalarKind::of(t).map(scalar),
        };
        let sig = Signature {
            function: function.clone(),
            params: sig_params,
            ret: ret_scalar,
        };
        // Where each float result is in each build's record.
        let mut slots = Vec::new();
        let (mut p, mut w) = (0usize, 0usize);
        let mut push = |object: Option<String>, offset: u64, s: eval::Scalar| {
            let format = match s {
                eval::Scalar::F32 => Some(Format::BINARY32),
                eval::Scalar::F64 => Some(Format::BINARY64),
                eval::Scalar::Int { .. } => None,
            };
            if let Some(format) = format {
                slots.push(Slot {
                    object,
                    offset,
                    format,
                    plain_at: p,
                    wide_at: w,
                });
            }
            p += s.result_size(Build::Plain);
            w += s.result_size(Build::Wide);
        };
        if let Some(r) = sig.ret {
            push(None, 0, r);
        }
        for (name, param) in order.iter().zip(&sig.params) {
            if let Param::Array(es) = param {
                let mut off = 0u64;
                for e in es {
                    push(Some(name.clone()), off, *e);
                    off += e.size() as u64;
                }
            }
        }
        let build = |b| eval::build(record, &sig, b, dir).map_err(|e| native_error(&e));
        let plain_exe = build(Build::Plain)?;
        let wide_exe = build(Build::Wide)?;
        let run = |exe: &std::path::PathBuf, b: Build, interactive: bool| {
            let mut e = Evaluator::new(exe.clone(), &sig, b, interactive);
            e.set_deadline(Some(deadline));
            e
        };
        Ok(Native {
            plain: run(&plain_exe, Build::Plain, false),
            wide: run(&wide_exe, Build::Wide, false),
            plain_one: run(&plain_exe, Build::Plain, true),
            wide_one: run(&wide_exe, Build::Wide, true),
            float_ret: matches!(sig.ret, Some(eval::Scalar::F32 | eval::Scalar::F64)),
            sig,
            order: order.to_vec(),
            slots,
        })
    }

    /// The time after which a batch gives up on its records after one that
    /// did not finish (see [`Evaluator::set_deadline`]).
    pub(super) fn set_deadline(&mut self, deadline: std::time::Instant) {
        for e in [&mut self.plain, &mut self.wide, &mut self.plain_one, &mut self.wide_one] {
            e.set_deadline(Some(deadline));
        }
    }

    /// Bytes of a record.
    pub(super) fn record_size(&self) -> usize {
        self.sig.record_size()
    }

    /// Where each of `scalars` is in a record (byte offset).
    pub(super) fn scalar_offsets(&self, scalars: &[Scalar]) -> Vec<usize> {
        let starts = self.starts();
        scalars
            .iter()
            .map(|s| starts.get(&s.object).copied().unwrap_or(0) + s.offset as usize)
            .collect()
    }

    /// Each object's first byte in a record.
    fn starts(&self) -> BTreeMap<String, usize> {
        let mut at = 0usize;
        let mut starts = BTreeMap::new();
        for (name, p) in self.order.iter().zip(&self.sig.params) {
            starts.insert(name.clone(), at);
            at += p.size();
        }
        starts
    }

    /// A record as an input (each object's bytes).
    pub(super) fn decode(&self, rec: &[u8]) -> BTreeMap<String, Vec<u8>> {
        let mut at = 0usize;
        let mut m = BTreeMap::new();
        for (name, p) in self.order.iter().zip(&self.sig.params) {
            let n = p.size();
            m.insert(name.clone(), rec[at..at + n].to_vec());
            at += n;
        }
        m
    }

    /// An input as a record: its objects' bytes in parameter order.
    pub(super) fn encode(&self, inputs: &BTreeMap<String, Vec<u8>>, into: &mut Vec<u8>) {
        for name in &self.order {
            if let Some(b) = inputs.get(name) {
                into.extend_from_slice(b);
            }
        }
    }

    /// The result slots `output` selects (`elem`: an object's element
    /// size).
    fn selected_slots(&self, output: &Output, elem: &dyn Fn(&str) -> u64) -> Vec<&Slot> {
        let selects = |s: &Slot| match output {
            Output::Ret => s.object.is_none(),
            Output::Object(o) => s.object.as_deref() == Some(o.as_str()),
            Output::Element(o, i) => s.object.as_deref() == Some(o.as_str()) && s.offset == i * elem(o),
            Output::Default => s.object.is_none() == self.float_ret,
        };
        self.slots.iter().filter(|s| selects(s)).collect()
    }

    /// The metric's error of each record of `records` (the largest over
    /// the selected results; -inf for a record the program did not
    /// finish), each build's result against the wide build's.
    pub(super) fn errors(
        &mut self,
        records: &[u8],
        output: &Output,
        metric: Metric,
        elem: &dyn Fn(&str) -> u64,
    ) -> Result<Vec<f64>, String> {
        let plain = self.plain.eval(records).map_err(|e| native_error(&e))?;
        let wide = self.wide.eval(records).map_err(|e| native_error(&e))?;
        let slots = self.selected_slots(output, elem);
        Ok(plain
            .iter()
            .zip(&wide)
            .map(|(p, w)| match (p, w) {
                (Some(p), Some(w)) => super::largest(slots.iter().map(|s| {
                    let f = read(p, s.plain_at, s.format);
                    let h = read(w, s.wide_at, Format::BINARY128);
                    // In double-double where it can be (the ranking needs
                    // no more; the search measures what it reports
                    // exactly), else exactly: 128 bits hold a binary128.
                    quick_error(metric, f, h.to_bits()).unwrap_or_else(|| metric.error(f, &exact_at(h, 128)))
                })),
                _ => f64::NEG_INFINITY,
            })
            .collect())
    }

    /// The results `output` selects, by (object, offset).
    pub(super) fn selected(&self, output: &Output, elem: &dyn Fn(&str) -> u64) -> Vec<(Option<String>, u64)> {
        self.selected_slots(output, elem)
            .into_iter()
            .map(|s| (s.object.clone(), s.offset))
            .collect()
    }

    /// What the program computes for result `keys[i]` on record `i` of
    /// `records` (None: it did not finish).
    pub(super) fn computed_batch(
        &mut self,
        records: &[u8],
        keys: &[&(Option<String>, u64)],
    ) -> Result<Vec<Option<Float>>, String> {
        let plain = self.plain.eval(records).map_err(|e| native_error(&e))?;
        Ok(plain
            .iter()
            .zip(keys)
            .map(|(p, k)| {
                let s = self.slots.iter().find(|s| s.object == k.0 && s.offset == k.1)?;
                Some(read(p.as_ref()?, s.plain_at, s.format))
            })
            .collect())
    }

    /// Whether the function reads object `object`'s initial contents:
    /// `pairs` are inputs that differ in that object only; it is read when
    /// some pair's results differ, apart from the object's elements the
    /// call leaves as they were (an output array written in part).
    pub(super) fn reads(&mut self, pairs: &[(Input, Input)], object: &str) -> Result<bool, String> {
        let mut records = Vec::new();
        for (a, b) in pairs {
            self.encode(a, &mut records);
            self.encode(b, &mut records);
        }
        let out = self.plain.eval(&records).map_err(|e| native_error(&e))?;
        for (k, (a, b)) in pairs.iter().enumerate() {
            let (Some(ra), Some(rb)) = (&out[2 * k], &out[2 * k + 1]) else {
                // A run that did not finish: the contents matter.
                return Ok(true);
            };
            let mut p = 0usize;
            let mut slot = |n: usize, mine: Option<(usize, usize)>| -> bool {
                let (x, y) = (&ra[p..p + n], &rb[p..p + n]);
                p += n;
                match mine {
                    // Untouched in both runs: not a result.
                    Some((at, len)) if x == &a[object][at..at + len] && y == &b[object][at..at + len] => false,
                    _ => x != y,
                }
            };
            let mut differ = false;
            if let Some(r) = self.sig.ret {
                differ |= slot(r.result_size(Build::Plain), None);
            }
            for (name, param) in self.order.iter().zip(&self.sig.params) {
                if let Param::Array(es) = param {
                    let mut at = 0usize;
                    for e in es {
                        let n = e.result_size(Build::Plain);
                        differ |= slot(n, (name == object).then_some((at, n)));
                        at += e.size();
                    }
                }
            }
            if differ {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// What the program computes for result `key` (object, offset) on one
    /// input; None when it did not finish or has no such result.
    pub(super) fn computed(
        &mut self,
        inputs: &BTreeMap<String, Vec<u8>>,
        key: &(Option<String>, u64),
    ) -> Option<Float> {
        let s = self.slots.iter().find(|s| s.object == key.0 && s.offset == key.1)?;
        let (at, format) = (s.plain_at, s.format);
        let mut rec = Vec::with_capacity(self.sig.record_size());
        self.encode(inputs, &mut rec);
        let p = self.plain_one.eval(&rec).ok()?.pop()??;
        Some(read(&p, at, format))
    }

    /// The wide build's value of every float result of one input, by
    /// (object, offset); None when the program did not finish.
    pub(super) fn reference(
        &mut self,
        inputs: &BTreeMap<String, Vec<u8>>,
    ) -> Option<BTreeMap<(Option<String>, u64), Float>> {
        let mut rec = Vec::with_capacity(self.sig.record_size());
        self.encode(inputs, &mut rec);
        let w = self.wide_one.eval(&rec).ok()?.pop()??;
        Some(
            self.slots
                .iter()
                .map(|s| ((s.object.clone(), s.offset), read(&w, s.wide_at, Format::BINARY128)))
                .collect(),
        )
    }
}

/// The float of `fmt` at byte `at` of a result record.
fn read(bytes: &[u8], at: usize, fmt: Format) -> Float {
    let n = (fmt.packed_width() / 8) as usize;
    let mut b = [0u8; 16];
    b[..n].copy_from_slice(&bytes[at..at + n]);
    Float::from_bits(fmt, u128::from_le_bytes(b))
}

/// A native build's failure in a line (with the compiler's first lines).
fn native_error(e: &fpsym_replay::ReplayError) -> String {
    match e.diagnostics() {
        Some(d) => format!("{e}: {}", d.lines().take(3).collect::<Vec<_>>().join(" / ")),
        None => e.to_string(),
    }
}

/// `metric`'s error of `f` (a binary32 or binary64 result) against the
/// binary128 `h` in double-double arithmetic, to about 2^-100 relative:
/// enough to rank inputs. None where that is not sure (infinities, NaN,
/// exponents near doubles' limits, Herbie's bits) and the exact
/// computation must decide.
fn quick_error(metric: Metric, f: Float, h: u128) -> Option<f64> {
    let fv = f.to_f64().or_else(|| f.to_f32().map(f64::from))?;
    if !fv.is_finite() {
        return None;
    }
    let (hi, lo) = double_double(h)?;
    let diff = ((hi - fv) + lo).abs();
    match metric {
        // Both floor the reference at FLT_MIN.
        Metric::Fpgen | Metric::Relative => Some(diff / hi.abs().max(f64::from(f32::MIN_POSITIVE))),
        Metric::Absolute => Some(diff),
        _ => None,
    }
}

/// The binary128 `h` as `hi + lo`: `hi` its leading 53 bits, `lo` the other
/// 60 rounded to a double; None unless `h` is zero or normal with an
/// exponent both parts keep normal.
fn double_double(h: u128) -> Option<(f64, f64)> {
    let sign = if h >> 127 == 1 { -1.0 } else { 1.0 };
    let biased = ((h >> 112) & 0x7fff) as i64;
    let frac = h & ((1u128 << 112) - 1);
    if biased == 0 {
        return (frac == 0).then_some((sign * 0.0, 0.0));
    }
    let exp = biased - 16383;
    if !(-900..=960).contains(&exp) {
        return None;
    }
    // 2^n for a normal exponent n.
    let pow2 = |n: i64| f64::from_bits(((n + 1023) as u64) << 52);
    let m = (1u128 << 112) | frac;
    let hi = (m >> 60) as f64 * pow2(exp - 52);
    let lo = (m & ((1u128 << 60) - 1)) as f64 * pow2(exp - 112);
    Some((sign * hi, sign * lo))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The double-double error agrees with the exact one to 1e-12
    /// relative, on results within a few ulps of their reference down to
    /// far apart, and on zeros and tiny references (FLT_MIN's floor).
    #[test]
    fn the_quick_error_agrees_with_the_exact_one() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut checked = 0;
        for _ in 0..20_000 {
            let v: f64 = rng.gen_range(-1e6..1e6) * 2f64.powi(rng.gen_range(-200..200));
            let f = if rng.gen_bool(0.5) {
                Float::from_f64(v)
            } else {
                Float::from_f64(v)
                    .convert(Format::BINARY32, fpsym_float::RoundingMode::NearestTiesToEven)
                    .value
            };
            // A reference near f (some ulps of binary128 away) or far.
            let h = Float::from_f64(v)
                .convert(Format::BINARY128, fpsym_float::RoundingMode::NearestTiesToEven)
                .value;
            let h = match rng.gen_range(0..4) {
                0 => h,
                1 => Float::from_bits(
                    Format::BINARY128,
                    h.to_bits().wrapping_add(rng.gen_range(1..1u128 << 70)),
                ),
                2 => Float::zero(Format::BINARY128, false),
                _ => {
                    Float::from_f64(rng.gen_range(-1e-40..1e-40))
                        .convert(Format::BINARY128, fpsym_float::RoundingMode::NearestTiesToEven)
                        .value
                }
            };
            for metric in [Metric::Fpgen, Metric::Relative, Metric::Absolute] {
                let Some(q) = quick_error(metric, f, h.to_bits()) else {
                    continue;
                };
                let e = metric.error(f, &exact_at(h, 128));
                assert!(
                    (q - e).abs() <= 1e-12 * e.abs() || (q == 0.0 && e == 0.0),
                    "{metric:?} f={f:?} h={h:?}: quick {q}, exact {e}"
                );
                checked += 1;
            }
        }
        assert!(checked > 40_000, "{checked}");
    }
}
