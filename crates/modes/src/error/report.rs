//! What `fpsym error` prints and writes: the reference check at raised
//! precision, the digits it confirms, and `OUT/error.json`.

use super::*;

/// The most bits the reference check raises the precision to.
pub(super) const MAX_CHECK_BITS: u32 = 1 << 16;

/// The reference check of the worst input.
pub(super) struct Check {
    /// The error the search found at --precision.
    pub(super) searched: f64,
    /// The first check's precision and error.
    pub(super) bits: u32,
    pub(super) error: f64,
    /// Whether it agreed with the search's.
    pub(super) agrees: bool,
    /// The precision of the figures reported and the one that confirmed
    /// them (None: none did, up to [`MAX_CHECK_BITS`]).
    pub(super) confirmed: Option<(u32, u32)>,
}

/// Agreement of two errors: the same to a part in a million (both
/// infinite counts as the same).
pub(super) fn agrees(a: f64, b: f64) -> bool {
    a == b || (a.is_finite() && b.is_finite() && (a - b).abs() <= 1e-6 * a.abs().max(b.abs()))
}

/// An error for people (`inf`, or 7 significant digits).
pub(super) fn error_text(e: f64) -> String {
    if e.is_finite() {
        format!("{e:.6e}")
    } else {
        "inf".into()
    }
}

/// The significant digits (at most 40) on which the exact values of the
/// worst result at two precisions agree.
pub(super) fn confirmed_digits(now: &[Output1], before: &[Output1]) -> usize {
    let worst = |o: &[Output1]| {
        o.iter()
            .max_by(|a, b| a.error.partial_cmp(&b.error).unwrap_or(std::cmp::Ordering::Greater))
            .map(|w| (w.what.clone(), w.exact.clone()))
    };
    let Some((what, x)) = worst(now) else { return 0 };
    let Some(y) = before.iter().find(|o| o.what == what).map(|o| o.exact.clone()) else {
        return 0;
    };
    if !x.is_finite() || !y.is_finite() {
        return if mp_decimal(&x) == mp_decimal(&y) { 40 } else { 0 };
    }
    if x.is_zero() && y.is_zero() {
        return 40;
    }
    let (a, b) = (mp_decimal(&x), mp_decimal(&y));
    let split = |t: &str| -> (String, String) {
        let (m, e) = t.split_once('e').unwrap_or((t, "0"));
        (
            m.chars().filter(|c| c.is_ascii_digit() || *c == '-').collect(),
            e.to_string(),
        )
    };
    let ((ma, ea), (mb, eb)) = (split(&a), split(&b));
    if ea != eb {
        return 0;
    }
    ma.chars()
        .zip(mb.chars())
        .take_while(|(p, q)| p == q)
        .filter(|(p, _)| *p != '-')
        .count()
}

/// `x` to `digits` significant digits (`~` and 3 digits when none is
/// confirmed).
pub(super) fn mp_digits(x: &Mp, digits: usize) -> String {
    if !x.is_finite() || x.is_zero() {
        return mp_decimal(x);
    }
    if digits == 0 {
        return format!("~{} (not confirmed)", x.to_string_radix(10, Some(3)));
    }
    x.to_string_radix(10, Some(digits.min(40)))
}

/// A float's value in decimal, long enough for the exact value.
pub(super) fn mp_decimal(x: &Mp) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x.is_sign_negative() {
            "-inf".into()
        } else {
            "inf".into()
        };
    }
    x.to_string_radix(10, Some(40))
}

/// A scalar's value in decimal, as error.json's `inputs` give it.
pub(super) fn scalar_decimal(kind: ScalarKind, bits: u128) -> String {
    match kind {
        ScalarKind::Float(f) => values::decimal(Float::from_bits(f, bits)),
        ScalarKind::Int { bytes, signed } => {
            let w = 8 * bytes as u32;
            if signed && w < 128 {
                (((bits << (128 - w)) as i128) >> (128 - w)).to_string()
            } else {
                bits.to_string()
            }
        }
    }
}

/// error.json's `samples`: the names of the scalars, and the first and
/// last inputs measured with their relative errors (for the report's plot
/// of the error against the input).
pub(super) fn samples_json(s: &Search<'_>) -> serde_json::Value {
    let points: Vec<serde_json::Value> = s
        .samples
        .first
        .iter()
        .chain(&s.samples.last)
        .map(|(bits, e)| {
            let values: Vec<String> = s
                .scalars
                .iter()
                .zip(bits)
                .map(|(sc, b)| scalar_decimal(sc.kind, *b))
                .collect();
            serde_json::json!({"values": values, "error": error_json(*e)})
        })
        .collect();
    serde_json::json!({
        "inputs": s.scalars.iter().map(|sc| sc.name.clone()).collect::<Vec<_>>(),
        "measured": s.samples.seen,
        "kept": points.len(),
        "points": points,
    })
}

/// error.json's `budget`: how the search's phases were cut, and whether
/// the same command gives the same error.json.
fn budget_json(s: &Search<'_>) -> serde_json::Value {
    match s.fixed {
        None => serde_json::json!({
            "by": "time",
            "reproducible": false,
            "why_not": "the phases are cut by time (--seed or --rounds cuts them by counts)",
        }),
        Some(f) => {
            let cut = s.cut_by_time;
            let why_not = if cut {
                Some("--max-time ended the run before its counts")
            } else if !f.counted_solver {
                Some("the solver (--solver) is cut by time; z3 and the default take a resource limit")
            } else {
                None
            };
            serde_json::json!({
                "by": "counts",
                "rounds": f.rounds,
                "random_inputs": s.native_budget,
                "refined_per_round": super::ROUND_REFINED,
                "instructions_per_round": super::ROUND_INSTRUCTIONS,
                "queries_per_round": super::ROUND_QUERIES,
                "z3_rlimit": f.counted_solver.then_some(super::Z3_RLIMIT),
                "cut_by_max_time": cut,
                "reproducible": why_not.is_none(),
                "why_not": why_not,
            })
        }
    }
}

pub(super) fn error_json(e: f64) -> serde_json::Value {
    if e.is_finite() {
        serde_json::json!(e)
    } else {
        serde_json::json!("inf")
    }
}

/// Prints the result and writes `OUT/error.json`.
pub(super) fn report(
    s: &Search<'_>,
    best: &Measured,
    out: &Path,
    strategy: &str,
    check: Option<Check>,
    digits: usize,
    (metrics, fpgen_reference): (serde_json::Map<String, serde_json::Value>, &str),
) -> anyhow::Result<()> {
    let reference_check = match &check {
        Some(c) => serde_json::json!({
            "precision": c.bits,
            "max_error": error_json(c.error),
            "agrees": c.agrees,
            "reported_at": c.confirmed.map(|c| c.0),
            "confirmed_at": c.confirmed.map(|c| c.1),
        }),
        None => serde_json::Value::Null,
    };
    let input_values: Vec<serde_json::Value> = s
        .scalars
        .iter()
        .map(|sc| {
            let bits = bits_of(&best.inputs, sc);
            match sc.kind {
                ScalarKind::Float(f) => {
                    let x = Float::from_bits(f, bits);
                    serde_json::json!({"name": sc.name, "hex": values::hex_float(x), "decimal": values::decimal(x)})
                }
                ScalarKind::Int { bytes, signed } => {
                    let w = 8 * bytes as u32;
                    let v = if signed && w < 128 {
                        (((bits << (128 - w)) as i128) >> (128 - w)).to_string()
                    } else {
                        bits.to_string()
                    };
                    serde_json::json!({"name": sc.name, "decimal": v})
                }
            }
        })
        .collect();
    let worst = best
        .outputs
        .iter()
        .max_by(|a, b| a.error.partial_cmp(&b.error).unwrap_or(std::cmp::Ordering::Greater))
        .expect("a measured input has outputs");
    let mut sites: Vec<(&String, &fpsym_precision::SiteLoss)> = best.hp.sites.iter().collect();
    sites.sort_by_key(|(_, l)| std::cmp::Reverse((l.cancelled.max(l.lost), l.runs)));
    let diagnosis_sites: Vec<serde_json::Value> = sites
        .iter()
        .filter(|(_, l)| l.cancelled > 0 || l.lost > 0)
        .take(10)
        .map(
            |(at, l)| serde_json::json!({"at": at, "bits_cancelled": l.cancelled, "bits_lost": l.lost, "runs": l.runs}),
        )
        .collect();
    let divergences: Vec<serde_json::Value> = best
        .hp
        .divergences
        .iter()
        .map(|d| serde_json::json!({"function": d.function, "at": d.loc, "taken": d.taken, "high_precision_takes": !d.taken}))
        .collect();
    let per_output: Vec<serde_json::Value> = best
        .outputs
        .iter()
        .map(|o| {
            serde_json::json!({
                "output": o.what,
                "computed": values::decimal(o.computed),
                "exact": mp_decimal(&o.exact),
                "error": error_json(o.error),
                "relative_error": error_json(o.by(Metric::Relative)),
            })
        })
        .collect();
    let j = serde_json::json!({
        "strategy": strategy,
        "precision": s.precision,
        "metric": s.metric.name(),
        "max_error": error_json(best.error),
        "max_relative_error": metrics["relative"],
        "metrics": metrics,
        "fpgen_reference": fpgen_reference,
        "output": worst.what,
        "computed": values::decimal(worst.computed),
        "exact": mp_decimal(&worst.exact),
        "exact_digits": digits,
        "inputs": input_values,
        "outputs": per_output,
        "budget": budget_json(s),
        "measured_to_best": s.measured_to_best,
        "measured": s.measured,
        "random_inputs": s.random_inputs,
        "native_random_inputs": s.native_inputs,
        "native_bisection_steps": s.native_steps,
        "symbolic_inputs": s.symbolic_inputs,
        "refined_inputs": s.refined_inputs,
        "symbolic_rounds": s.rounds,
        "unread_objects": s.unread.iter().collect::<Vec<_>>(),
        "diagnosis": {"sites": diagnosis_sites, "divergences": divergences},
        "reference_check": reference_check,
        "samples": samples_json(s),
    });
    std::fs::write(out.join("error.json"), serde_json::to_string_pretty(&j)? + "\n")?;
    // Times apart: error.json is the same for the same reproducible run.
    let timing = serde_json::json!({
        "time_to_best": s.time_to_best,
        "seconds": s.start.elapsed().as_secs_f64(),
    });
    std::fs::write(
        out.join("error-timing.json"),
        serde_json::to_string_pretty(&timing)? + "\n",
    )?;
    say!(
        "max {} error: {} ({}: computed {}, exact {})",
        s.metric.name(),
        if best.error.is_finite() {
            format!("{:.6e}", best.error)
        } else {
            "inf".into()
        },
        worst.what,
        values::decimal(worst.computed),
        mp_digits(&worst.exact, digits)
    );
    if strategy == "given" {
        say!("measured the given input in {:.2} s", s.start.elapsed().as_secs_f64());
    } else {
        say!(
            "found after {:.2} s; {} inputs measured ({} random{}, {} from {} symbolic rounds, {} by refinement) in {:.1} s",
            s.time_to_best,
            s.measured + s.native_inputs,
            s.random_inputs,
            if s.native_inputs > 0 {
                format!(" of which {} natively", s.native_inputs)
            } else {
                String::new()
            },
            s.symbolic_inputs,
            s.rounds,
            s.refined_inputs,
            s.start.elapsed().as_secs_f64()
        );
    }
    let shown: Vec<String> = input_values
        .iter()
        .map(|v| {
            format!(
                "{} = {}",
                v["name"].as_str().unwrap_or("?"),
                v["decimal"].as_str().unwrap_or("?")
            )
        })
        .collect();
    say!("input: {}", shown.join(", "));
    if !diagnosis_sites.is_empty() {
        say!("diagnosis (bits cancelled / lost at + and -, worst first):");
        for d in &diagnosis_sites {
            say!(
                "  {}: {} cancelled, {} lost ({} runs)",
                d["at"].as_str().unwrap_or("?"),
                d["bits_cancelled"],
                d["bits_lost"],
                d["runs"]
            );
        }
    }
    for d in &best.hp.divergences {
        say!(
            "  divergence at {}: the program took the {} side, high precision would take the other",
            d.loc.as_deref().unwrap_or("?"),
            if d.taken { "true" } else { "false" }
        );
    }
    match &check {
        Some(c) if !c.agrees => say!(
            "warning: the {}-bit reference was not exact enough (it gave {}); the figures above are at {} (see --precision)",
            s.precision,
            error_text(c.searched),
            match c.confirmed {
                Some((at, by)) => format!("{at} bits, confirmed at {by} bits"),
                None => format!("{MAX_CHECK_BITS} bits, still unconfirmed"),
            }
        ),
        Some(_) => {}
        None => say!("warning: the re-run at a higher precision did not finish; the reference is unchecked"),
    }
    say!("written: {}", out.join("error.json").display());
    Ok(())
}
