//! `fpsym critical`: can the float computation put a function's result
//! outside the range the real-number computation stays in (seed 001)?
//! `run` with the engine's range checker (`checkers::range`) at the entry
//! function's return; every path explored, so each side of the range
//! (below, above, NaN) gets its answer: an input with the result, "none"
//! (every path explored exactly), or "unknown" (why).

use crate::args::CriticalArgs;
use crate::run::{execute, prepare, RunOptions};
use crate::Failure;
use fpsym_engine::checkers::range::{parse_decimal, OutOfRange, ABOVE_RANGE, BELOW_RANGE, NAN_RESULT};
use fpsym_engine::checkers::CheckerFactory;
use fpsym_engine::report::Finding;
use fpsym_engine::Summary;
use num_rational::BigRational;
use std::process::ExitCode;

/// `ret=[LO,HI]`: the bounds (None for an infinite or empty one) and
/// their text.
type Expect = (Option<BigRational>, Option<BigRational>, String, String);

fn parse_expect(s: &str) -> Result<Expect, Failure> {
    let bad = |why: &str| Failure::Input(format!("--expect {s}: {why}"));
    let (what, range) = s.split_once('=').ok_or_else(|| bad("expected ret=[LO,HI]"))?;
    if what.trim() != "ret" {
        return Err(bad(
            "only the return value (ret) can be checked; out-parameters and globals are not supported yet",
        ));
    }
    let inner = range
        .trim()
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .ok_or_else(|| bad("expected ret=[LO,HI]"))?;
    let (lo, hi) = inner.split_once(',').ok_or_else(|| bad("expected ret=[LO,HI]"))?;
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
    Ok((l, h, lo.trim().to_string(), hi.trim().to_string()))
}

/// The answer for one side of the range.
fn side(kind: &str, s: &Summary, findings: &[Finding]) -> serde_json::Value {
    match findings.iter().find(|f| f.kind.to_string() == kind) {
        Some(f) => serde_json::json!({
            "answer": "sat",
            "test": f.test,
            "result": f.operands.first(),
            "at": format!("{}:{}", f.file, f.line),
        }),
        None => match &s.incomplete {
            None => serde_json::json!({"answer": "unsat"}),
            Some(why) => {
                serde_json::json!({"answer": "unknown", "why": format!("not every path was explored exactly: {why}")})
            }
        },
    }
}

pub fn run(raw: CriticalArgs) -> anyhow::Result<ExitCode> {
    let (lo, hi, lo_text, hi_text) = parse_expect(&raw.expect)?;
    if raw.run.function.is_none() {
        return Err(
            Failure::Input("fpsym critical needs --function F: the function whose result is checked".into()).into(),
        );
    }
    let unroll = raw.unroll;
    let opts = RunOptions::from_args(raw.run)?;
    let (mut engine, out, program) = prepare(&opts)?;
    if unroll.is_some() {
        engine.loop_bound = unroll;
    }
    let (l, h) = (lo.clone(), hi.clone());
    engine.checkers.push(CheckerFactory::new(move || {
        Box::new(OutOfRange::new(l.clone(), h.clone()))
    }));
    let mut written: anyhow::Result<()> = Ok(());
    let code = execute(&opts, &engine, &program, &out, |s, f| {
        let below = side(BELOW_RANGE, s, f);
        let above = side(ABOVE_RANGE, s, f);
        let nan = side(NAN_RESULT, s, f);
        println!();
        println!("result outside [{lo_text}, {hi_text}]:");
        for (name, a, shown) in [
            ("below", &below, lo.is_some()),
            ("above", &above, hi.is_some()),
            ("NaN", &nan, true),
        ] {
            if !shown {
                continue;
            }
            let line = match a["answer"].as_str() {
                Some("sat") => format!(
                    "yes: test {:06} gives {}",
                    a["test"].as_u64().unwrap_or(0),
                    a["result"].as_str().unwrap_or("?")
                ),
                Some("unsat") => "no (every path explored exactly)".into(),
                _ => format!("unknown ({})", a["why"].as_str().unwrap_or("?")),
            };
            println!("  {name}: {line}");
        }
        // Written before a replay, which reads the bounds from it.
        let a = serde_json::json!({
            "expect": {"lo": lo_text, "hi": hi_text},
            "below": below,
            "above": above,
            "nan": nan,
        });
        written = serde_json::to_string_pretty(&a)
            .map_err(anyhow::Error::from)
            .and_then(|t| Ok(std::fs::write(out.join("critical.json"), t + "\n")?));
    })?;
    written?;
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expectations_read_exact_bounds() {
        let (l, h, _, _) = parse_expect("ret=[-0.00001, 156.25001]").unwrap();
        assert_eq!(l, parse_decimal("-1e-5"));
        assert_eq!(h, parse_decimal("156.25001"));
        let (l, h, _, _) = parse_expect("ret=[0,]").unwrap();
        assert_eq!((l.is_some(), h), (true, None));
        let (l, _, _, _) = parse_expect("ret=[-inf,1]").unwrap();
        assert_eq!(l, None);
        for bad in ["ret", "x=[0,1]", "ret=[1,0]", "ret=[a,1]", "ret=(0,1)"] {
            assert!(parse_expect(bad).is_err(), "{bad}");
        }
    }
}
