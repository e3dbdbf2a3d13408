//! `fpsym critical`: can the float computation put a function's result
//! (or what it leaves behind an out-parameter or in a global) outside the
//! range the real-number computation stays in (seed 001)? `run` with the
//! engine's range checker (`checkers::range`) at the entry function's
//! return; every path explored, so each side of the range (below, above,
//! NaN) gets its answer: an input with the value, "none" (every path
//! explored exactly), or "unknown" (why). The checker also encloses each
//! value by interval propagation over each path's constraint: the hull is
//! the float range of the value, and the suspicious intervals between it
//! and the real range are answered (proved empty by propagation, or the
//! side's answer).

use crate::run::{execute, prepare, PropertySpec, RunOptions};
use crate::Failure;
use fpsym_engine::checkers::range::{
    kinds, parse_decimal, Element, Expectation, FloatRange, FloatRanges, OutOfRange, Target,
};
use fpsym_engine::checkers::CheckerFactory;
use fpsym_engine::report::critical_record::{
    Answer, CriticalRecord, ElementRecord, ExpectRecord, FloatRangeRecord, SideKinds, Suspicious, TargetRecord,
    CRITICAL_RECORD,
};
use fpsym_engine::report::values::decimal;
use fpsym_engine::report::Event;
use fpsym_engine::report::Finding;
use fpsym_engine::shape::Shape;
use fpsym_engine::{Entry, Property, Summary};
use fpsym_float::Float;
use num_rational::BigRational;
use std::process::ExitCode;
use std::time::Duration;

/// What an `--expect` names, before the program is read.
#[derive(Clone, Debug, PartialEq)]
enum What {
    Ret,
    /// A pointer parameter or a global, possibly one element (`out[2]`).
    Named(String, Option<u64>),
}

/// One `--expect WHAT=[LO,HI]`: what, the bounds (None for an infinite
/// or empty one), their text and the whole text.
#[derive(Clone, Debug)]
struct Expect {
    what: What,
    lo: Option<BigRational>,
    hi: Option<BigRational>,
    lo_text: String,
    hi_text: String,
    text: String,
}

fn parse_expect(s: &str) -> Result<Expect, Failure> {
    let usage = "expected ret=[LO,HI], PARAM=[LO,HI], PARAM[i]=[LO,HI] or GLOBAL=[LO,HI]";
    let bad = |why: &str| Failure::Input(format!("--expect {s}: {why}"));
    let (what, range) = s.split_once('=').ok_or_else(|| bad(usage))?;
    let what = what.trim();
    let what = if what == "ret" {
        What::Ret
    } else {
        let (name, index) = match what.split_once('[') {
            Some((n, rest)) => {
                let i = rest
                    .strip_suffix(']')
                    .and_then(|i| i.trim().parse::<u64>().ok())
                    .ok_or_else(|| bad(&format!("{what}: expected NAME[INDEX], e.g. out[0]")))?;
                (n.trim(), Some(i))
            }
            None => (what, None),
        };
        let ident = !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
        if !ident {
            return Err(bad(usage));
        }
        What::Named(name.to_string(), index)
    };
    let inner = range
        .trim()
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .ok_or_else(|| bad(usage))?;
    let (lo, hi) = inner.split_once(',').ok_or_else(|| bad(usage))?;
    let bound = |b: &str, inf: &str| -> Result<Option<BigRational>, Failure> {
        let b = b.trim();
        if b.is_empty() || b == inf || (inf == "+inf" && b == "inf") {
            return Ok(None);
        }
        parse_decimal(b)
            .map(Some)
            .ok_or_else(|| bad(&format!("{b} is not a decimal number")))
    };
    let (l, h) = (bound(lo, "-inf")?, bound(hi, "+inf")?);
    if let (Some(l), Some(h)) = (&l, &h) {
        if l > h {
            return Err(bad("the lower bound is above the upper one"));
        }
    }
    Ok(Expect {
        what,
        lo: l,
        hi: h,
        lo_text: lo.trim().to_string(),
        hi_text: hi.trim().to_string(),
        text: s.to_string(),
    })
}

/// The name of an LLVM name.
fn name_of(n: &llvm_ir::Name) -> String {
    match n {
        llvm_ir::Name::Name(s) => s.to_string(),
        llvm_ir::Name::Number(k) => k.to_string(),
    }
}

/// The floats of `shape` named from `root`, only those of element
/// `index` when given (`[index]` of an array).
fn elements(root: &str, shape: &Shape, index: Option<u64>, e: &Expect) -> Result<Vec<Element>, Failure> {
    let all = shape.floats();
    let picked: Vec<Element> = all
        .into_iter()
        .filter(|(path, _, _)| match index {
            None => true,
            Some(i) => {
                let p = format!("[{i}]");
                path.starts_with(&p)
            }
        })
        .map(|(path, offset, format)| Element {
            offset,
            format,
            name: format!("{root}{path}"),
        })
        .collect();
    if picked.is_empty() {
        let why = match (index, shape) {
            (Some(i), Shape::Array { len, .. }) if i >= *len => {
                format!("{root} has {len} element(s) (--array-len for a parameter), no [{i}]")
            }
            (Some(_), Shape::Array { .. }) => format!("that element of {root} holds no float"),
            (Some(_), _) => format!("{root} is not an array"),
            (None, _) => format!("{root} holds no float (a {})", shape.ty()),
        };
        return Err(Failure::Input(format!("--expect {}: {why}", e.text)));
    }
    Ok(picked)
}

/// What `e` names in `program`, run from `function` with `array_len`
/// elements behind each pointer parameter.
fn resolve(
    program: &fpsym_frontend::Program,
    function: &str,
    array_len: Option<u64>,
    e: &Expect,
) -> Result<Target, Failure> {
    let module = &program.module;
    let Some(f) = module.functions.iter().find(|f| f.name == function) else {
        // The run says there is no such function.
        return Ok(Target::Ret);
    };
    let layout = fpsym_engine::layout::Layout::new(module);
    let (name, index) = match &e.what {
        What::Ret => {
            return match layout.resolve(&f.return_type) {
                Some(llvm_ir::Type::FPType(_)) => Ok(Target::Ret),
                _ => Err(Failure::Input(format!(
                    "--expect {}: {function} does not return a float; name a pointer parameter or a global instead",
                    e.text
                ))),
            }
        }
        What::Named(n, i) => (n.as_str(), *i),
    };
    // A pointer parameter of the entry, by its IR name or its C name.
    let prog = fpsym_engine::prog::Prog::new(program, |_| true);
    let views = fpsym_engine::harness::param_views(&prog, f, array_len);
    if let Some((k, view)) = views
        .iter()
        .enumerate()
        .find(|(_, v)| v.ir_name == name || v.name == name)
    {
        let p = &f.parameters[k];
        let pointer = matches!(layout.resolve(&p.ty), Some(llvm_ir::Type::PointerType { .. }));
        if !pointer || view.byval {
            return Err(Failure::Input(format!(
                "--expect {}: parameter {name} of {function} is passed by value; name a pointer parameter (an out-parameter), a global, or ret",
                e.text
            )));
        }
        let shape = view.shape.as_ref().ok_or_else(|| {
            Failure::Input(format!(
                "--expect {}: the object {name} points to has no known type",
                e.text
            ))
        })?;
        return Ok(Target::Param {
            param: view.ir_name.clone(),
            elements: elements(&view.name, shape, index, e)?,
        });
    }
    // A global variable.
    if let Some(g) = module.global_vars.iter().find(|g| name_of(&g.name) == name) {
        let ty = match g.ty.as_ref() {
            llvm_ir::Type::PointerType { pointee_type, .. } => pointee_type.clone(),
            _ => g.ty.clone(),
        };
        let size = layout.alloc_size(&ty);
        let shape = program
            .global_variable(name)
            .filter(|v| v.ty.size_bits() == 8 * size)
            .and_then(|v| Shape::from_ctype(&v.ty))
            .or_else(|| Shape::from_ir(&layout, &ty))
            .ok_or_else(|| Failure::Input(format!("--expect {}: global {name} has no known type", e.text)))?;
        return Ok(Target::Global {
            name: name.to_string(),
            elements: elements(name, &shape, index, e)?,
        });
    }
    let pointers: Vec<&str> = views
        .iter()
        .zip(&f.parameters)
        .filter(|(_, p)| matches!(layout.resolve(&p.ty), Some(llvm_ir::Type::PointerType { .. })))
        .map(|(v, _)| v.name.as_str())
        .collect();
    Err(Failure::Input(format!(
        "--expect {}: {function} has no parameter {name} and the program no global variable {name} (pointer parameters of {function}: {})",
        e.text,
        if pointers.is_empty() { "none".to_string() } else { pointers.join(", ") }
    )))
}

/// The checks of each kind the run left undecided, with why (from its
/// events).
fn undecided_checks(events: &[Event]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::CheckUndecided { kind, reason, .. } => Some((kind.to_string(), reason.clone())),
            _ => None,
        })
        .collect()
}

/// The run's events (OUT/events.jsonl), or None when a line cannot be
/// read.
fn read_events(out: &std::path::Path) -> Option<Vec<Event>> {
    let text = std::fs::read_to_string(out.join("events.jsonl")).unwrap_or_default();
    text.lines().map(|l| serde_json::from_str::<Event>(l).ok()).collect()
}

/// The answer for one side of the range (finding kind `kind`): found,
/// none (every path explored and no check of this kind left undecided),
/// or unknown. `lost`: why not every path was explored ([`paths_lost`]);
/// `undecided`: [`undecided_checks`].
fn side(
    kind: &str,
    s: &Summary,
    findings: &[Finding],
    lost: &Option<String>,
    undecided: &[(String, String)],
) -> Answer {
    match findings.iter().find(|f| f.kind.to_string() == kind) {
        Some(f) => Answer::Sat {
            test: f.test,
            result: f.operands.first().cloned(),
            what: f.operation.clone(),
            at: format!("{}:{}", f.file, f.line),
            side: None,
        },
        None => match &s.incomplete {
            None => Answer::Unsat { why: None },
            // Only checks left undecided, none of this kind: every path
            // was explored and this check refuted on each.
            Some(_) if lost.is_none() && !undecided.is_empty() && !undecided.iter().any(|(k, _)| k == kind) => {
                Answer::Unsat { why: None }
            }
            Some(_) if lost.is_none() && undecided.iter().any(|(k, _)| k == kind) => {
                let why = undecided
                    .iter()
                    .find(|(k, _)| k == kind)
                    .map(|(_, w)| w.clone())
                    .unwrap_or_default();
                Answer::Unknown {
                    why: format!(
                        "{} {kind} check was undecided: {why}",
                        fpsym_engine::report::article(kind)
                    ),
                }
            }
            Some(why) => {
                // The reason paths were lost, if known, else the run's first.
                let why = lost.as_deref().unwrap_or(why);
                Answer::Unknown {
                    why: format!("not every path was explored exactly: {why}"),
                }
            }
        },
    }
}

/// Why not every path of the run reached its end (None: all did, so the
/// hull of the enclosures at the entry's return covers every value): the
/// run stopped early, some path stopped early (a loop bound, something
/// unsupported) or a value was made concrete or a branch dropped (from
/// the run's events). Undecided checks lose no path.
fn paths_lost(s: &Summary, events: Option<&[Event]>) -> Option<String> {
    if s.stop != fpsym_engine::StopReason::Exhausted {
        return Some(format!("the run stopped early ({})", s.stop));
    }
    if s.stats.paths_partial > 0 {
        return Some(format!(
            "{} path(s) stopped early{}",
            s.stats.paths_partial,
            s.incomplete.as_ref().map(|w| format!(" ({w})")).unwrap_or_default()
        ));
    }
    let Some(events) = events else {
        return Some("the run's events cannot be read".into());
    };
    // (A path stopped: something unsupported, or a path whose test could
    // not be made, with the finding it would have carried.)
    events
        .iter()
        .find(|e| {
            matches!(e, Event::PathStopped { .. }) || e.makes_incomplete() && !matches!(e, Event::CheckUndecided { .. })
        })
        .map(|e| e.describe())
}

/// The float range of one expectation as found: its JSON, and whether it
/// encloses every value of every path (so an interval outside it is
/// proved empty). `lost`: why not every path was seen.
fn float_range(r: &FloatRange, lost: &Option<String>) -> (FloatRangeRecord, bool) {
    let why = if let Some(l) = lost {
        Some(format!("not every path was explored: {l}"))
    } else if r.paths == 0 {
        Some("no path reached the function's return".to_string())
    } else {
        r.unknown.clone()
    };
    let every = why.is_none();
    let j = FloatRangeRecord {
        lo: r.bounds.map(|b| decimal(b.0)),
        hi: r.bounds.map(|b| decimal(b.1)),
        nan: r.nan,
        every_path: every,
        paths: r.paths,
        refuted: r.refuted,
        not_fixpoint: r.not_fixpoint,
        why,
    };
    (j, every)
}

/// Exact value of a float (None: infinite or NaN).
fn exact(x: Float) -> Option<BigRational> {
    x.to_rational()
}

/// Whether the float range `r` reaches below `bound` (`below`) or above
/// it (false when `r` holds no non-NaN value).
fn reaches(r: &FloatRange, bound: &BigRational, below: bool) -> bool {
    let Some((l, h)) = r.bounds else { return false };
    if below {
        match exact(l) {
            Some(q) => q < *bound,
            None => l.is_negative(),
        }
    } else {
        match exact(h) {
            Some(q) => q > *bound,
            None => !h.is_negative(),
        }
    }
}

/// The float of format `f` a finding shows (its shortest round-trip
/// decimal, or an infinity).
fn shown_value(a: &Answer, f: fpsym_float::Format) -> Option<Float> {
    let Answer::Sat { result: Some(text), .. } = a else {
        return None;
    };
    match text.as_str() {
        "inf" => Some(Float::infinity(f, false)),
        "-inf" => Some(Float::infinity(f, true)),
        _ => {
            parse_decimal(text).map(|q| Float::from_rational(f, &q, fpsym_float::RoundingMode::NearestTiesToEven).value)
        }
    }
}

/// The target's description for critical.json (what replay reads).
fn target_record(t: &Target, params: &[String]) -> TargetRecord {
    let els = |es: &[Element]| -> Vec<ElementRecord> {
        es.iter()
            .map(|e| ElementRecord {
                name: e.name.clone(),
                offset: e.offset,
                c_type: fpsym_engine::report::values::c_type_name(e.format).to_string(),
            })
            .collect()
    };
    match t {
        Target::Ret => TargetRecord::Ret { ret: true },
        Target::Param { param, elements } => TargetRecord::Param {
            param: param.clone(),
            index: params.iter().position(|n| n == param),
            elements: els(elements),
        },
        Target::Global { name, elements } => TargetRecord::Global {
            global: name.clone(),
            size: elements
                .iter()
                .map(|e| e.offset + fpsym_engine::layout::fp_store_size(e.format))
                .max(),
            elements: els(elements),
        },
    }
}

/// The options of `fpsym critical`.
#[derive(Debug, Default)]
pub struct Options {
    /// The options of `run` it takes (`--function` is needed).
    pub run: RunOptions,
    /// The expected ranges, `WHAT=[LO,HI]` each (`ret`, a parameter's
    /// floats, a global).
    pub expect: Vec<String>,
    /// The time of the interval enclosure of the result's range.
    pub enclose_timeout: Duration,
    /// Loops unrolled at most this many times (the answers then say so).
    pub unroll: Option<u32>,
}

/// Checks each expected range: an input whose result leaves it, or a
/// proof that none does.
pub fn run(raw: Options) -> anyhow::Result<ExitCode> {
    let expects: Vec<Expect> = raw.expect.iter().map(|e| parse_expect(e)).collect::<Result<_, _>>()?;
    let Entry::Function { name: function, .. } = &raw.run.engine.entry else {
        return Err(
            Failure::Input("fpsym critical needs --function F: the function whose result is checked".into()).into(),
        );
    };
    let function = function.clone();
    if !matches!(raw.run.property, PropertySpec::Named(Property::AllFindings)) {
        // (A property would leave the range checks unasked.)
        return Err(
            Failure::Input("fpsym critical checks the result's range; --property does not apply".into()).into(),
        );
    }
    let unroll = raw.unroll;
    let budget = raw.enclose_timeout;
    let mut opts = raw.run;
    opts.set_mode(fpsym_engine::report::Mode::Critical)?;
    let (mut engine, out, program) = prepare(&opts)?;
    if unroll.is_some() {
        engine.limits.loop_bound = unroll;
    }
    let array_len = match &engine.entry {
        Entry::Function { array_len, .. } => *array_len,
        Entry::Main => None,
    };
    let mut checked = Vec::new();
    for (k, e) in expects.iter().enumerate() {
        checked.push(Expectation {
            target: resolve(&program, &function, array_len, e)?,
            lo: e.lo.clone(),
            hi: e.hi.clone(),
            kinds: kinds(k),
        });
    }
    let params: Vec<String> = program
        .module
        .functions
        .iter()
        .find(|f| f.name == function)
        .map(|f| f.parameters.iter().map(|p| name_of(&p.name)).collect())
        .unwrap_or_default();
    let ranges: FloatRanges = Default::default();
    let shared = ranges.clone();
    let cp = opts.solver_config().cp.clone();
    let for_checker = checked.clone();
    engine.extensions.checkers.push(CheckerFactory::new(move || {
        Box::new(OutOfRange::of(for_checker.clone()).enclosing(shared.clone(), cp.clone(), budget))
    }));
    let mut written: anyhow::Result<()> = Ok(());
    let mut outcome = 0;
    let code = execute(&opts, &engine, &program, &out, |s, f| {
        let hulls = ranges.lock().map(|r| r.clone()).unwrap_or_default();
        let events = read_events(&out);
        let lost = paths_lost(s, events.as_deref());
        let undecided = undecided_checks(events.as_deref().unwrap_or_default());
        let mut all = Vec::new();
        for (k, (e, x)) in expects.iter().zip(&checked).enumerate() {
            let [bk, ak, nk] = &x.kinds;
            let side = |k: &str| side(k, s, f, &lost, &undecided);
            let (below, above, mut nan) = (side(bk), side(ak), side(nk));
            let hull = hulls.get(k).cloned().unwrap_or_default();
            let (fr, every) = float_range(&hull, &lost);
            let what = match &e.what {
                What::Ret => "ret".to_string(),
                What::Named(n, None) => n.clone(),
                What::Named(n, Some(i)) => format!("{n}[{i}]"),
            };
            if every && !hull.nan {
                if let Answer::Sat { test, .. } = &nan {
                    written = Err(Failure::Internal(format!(
                        "{what}: test {test} gives NaN, which propagation excluded: a bug in fpsym"
                    ))
                    .into());
                } else {
                    nan = Answer::Unsat {
                        why: Some("proved by interval propagation".into()),
                    };
                }
            }
            // The suspicious intervals: between the float range and the
            // real one, each with the side's answer (or proved empty).
            let mut suspicious = Vec::new();
            let (flo, fhi) = (fr.lo.clone(), fr.hi.clone());
            for (is_below, bound, text, answer) in
                [(true, &e.lo, &e.lo_text, &below), (false, &e.hi, &e.hi_text, &above)]
            {
                let Some(b) = bound else { continue };
                let (lo, lo_closed, hi, hi_closed) = if is_below {
                    (flo.clone(), true, Some(text.clone()), false)
                } else {
                    (Some(text.clone()), false, fhi.clone(), true)
                };
                let empty = every && !reaches(&hull, b, is_below);
                let mut a = if empty {
                    Answer::Unsat {
                        why: Some("empty: proved by interval propagation".into()),
                    }
                } else {
                    answer.clone()
                };
                // A value found must lie in the float range: else the
                // enclosure is wrong (a bug in fpsym). (Values of several
                // formats: their decimal text is not read back exactly in
                // the hull's format, so not checked.)
                if let (true, false, Answer::Sat { test, result, .. }) = (every, hull.mixed, answer) {
                    if let Some((l, h)) = hull.bounds {
                        let inside = shown_value(answer, l.format()).is_none_or(|v| {
                            v.ieee_cmp(l) != Some(std::cmp::Ordering::Less)
                                && v.ieee_cmp(h) != Some(std::cmp::Ordering::Greater)
                        });
                        if !inside || empty {
                            written = Err(Failure::Internal(format!(
                                "{what}: test {test} gives {}, outside the float range found by propagation [{}, {}]: a bug in fpsym",
                                result.as_deref().unwrap_or("?"), decimal(l), decimal(h)
                            ))
                            .into());
                        }
                    }
                }
                let name = if is_below { "below" } else { "above" };
                if let Answer::Sat { side, .. } = &mut a {
                    *side = Some(name.into());
                }
                suspicious.push(Suspicious {
                    side: name.into(),
                    lo,
                    lo_closed,
                    hi,
                    hi_closed,
                    empty,
                    answer: a,
                });
            }
            say!();
            say!("{what} outside [{}, {}]:", e.lo_text, e.hi_text);
            let range_line = match (&fr.lo, &fr.hi) {
                (Some(l), Some(h)) => format!("[{l}, {h}]"),
                _ => "no float value".to_string(),
            };
            let nan_too = if hull.nan { " and NaN" } else { "" };
            match fr.why.as_deref() {
                None => say!("  float range (interval propagation, every path): {range_line}{nan_too}"),
                Some(w) => say!(
                    "  float range (interval propagation): {range_line}{nan_too} (not an enclosure of every value: {w})"
                ),
            }
            for sus in &suspicious {
                let below = sus.side == "below";
                let interval = format!(
                    "{}{}, {}{}",
                    if below { "[" } else { "(" },
                    sus.lo.as_deref().unwrap_or("-inf"),
                    sus.hi.as_deref().unwrap_or("inf"),
                    if below { ")" } else { "]" },
                );
                let name = if below { "below" } else { "above" };
                if sus.empty {
                    let bound = if below { &e.lo_text } else { &e.hi_text };
                    say!("  {name}: no (the float range has no value {name} {bound}: proved by interval propagation)");
                } else {
                    say!("  {name}, in {interval}: {}", sus.answer.words());
                }
            }
            say!("  NaN: {}", nan.words());
            all.push(ExpectRecord {
                what,
                lo: e.lo_text.clone(),
                hi: e.hi_text.clone(),
                kinds: SideKinds {
                    below: bk.clone(),
                    above: ak.clone(),
                    nan: nk.clone(),
                },
                target: target_record(&x.target, &params),
                below,
                above,
                nan,
                float_range: fr,
                suspicious,
            });
        }
        // Written before a replay, which reads the bounds from it.
        let Some(record) = CriticalRecord::of(all) else { return };
        outcome = record.exit_code();
        let w = fpsym_engine::report::write_json(&out.join(CRITICAL_RECORD), &record).map_err(anyhow::Error::from);
        if written.is_ok() {
            written = w;
        }
    })?;
    written?;
    // A finding of another kind also counts as found.
    Ok(if crate::raw_code(code) == 1 {
        code
    } else {
        ExitCode::from(outcome)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expectations_read_exact_bounds() {
        let e = parse_expect("ret=[-0.00001, 156.25001]").unwrap();
        assert_eq!(e.lo, parse_decimal("-1e-5"));
        assert_eq!(e.hi, parse_decimal("156.25001"));
        let e = parse_expect("ret=[0,]").unwrap();
        assert_eq!((e.lo.is_some(), e.hi), (true, None));
        let e = parse_expect("ret=[-inf,1]").unwrap();
        assert_eq!(e.lo, None);
        assert_eq!(parse_expect("out=[0,1]").unwrap().what, What::Named("out".into(), None));
        assert_eq!(
            parse_expect("out[2]=[0,1]").unwrap().what,
            What::Named("out".into(), Some(2))
        );
        for bad in [
            "ret",
            "ret=[1,0]",
            "ret=[a,1]",
            "ret=(0,1)",
            "out[x]=[0,1]",
            "1x=[0,1]",
            "=[0,1]",
        ] {
            assert!(parse_expect(bad).is_err(), "{bad}");
        }
    }
}
