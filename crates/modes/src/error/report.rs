//! What `fpsym error` prints and writes: the reference check at raised
//! precision, the digits it confirms, and `OUT/error.json`.

use super::*;
use fpsym_engine::report::mode_records::{
    Diagnosis, DivergenceRecord, ErrorBudget, ErrorInput, ErrorRecord, ErrorTiming, ErrorValue, OutputError,
    ReferenceCheck, SamplePoint, Samples, SiteLossRecord, ERROR_RECORD, ERROR_TIMING,
};

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
pub(super) fn samples_record(s: &Search<'_>) -> Samples {
    let points: Vec<SamplePoint> = s
        .samples
        .first
        .iter()
        .chain(&s.samples.last)
        .map(|(bits, e)| SamplePoint {
            values: s
                .scalars
                .iter()
                .zip(bits)
                .map(|(sc, b)| scalar_decimal(sc.kind, *b))
                .collect(),
            error: ErrorValue(*e),
        })
        .collect();
    Samples {
        inputs: s.scalars.iter().map(|sc| sc.name.clone()).collect(),
        measured: s.samples.seen,
        kept: points.len(),
        points,
    }
}

/// error.json's `budget`: how the search's phases were cut, and whether
/// the same command gives the same error.json.
fn budget_record(s: &Search<'_>) -> ErrorBudget {
    match s.fixed {
        None => ErrorBudget::Time {
            reproducible: false,
            why_not: "the phases are cut by time (--seed or --rounds cuts them by counts)".into(),
        },
        Some(f) => {
            let cut = s.cut_by_time;
            let why_not = if cut {
                Some("--max-time ended the run before its counts")
            } else if !f.counted_solver {
                Some("the solver (--solver) is cut by time; z3 and the default take a resource limit")
            } else {
                None
            };
            ErrorBudget::Counts {
                rounds: f.rounds,
                random_inputs: s.native_budget,
                refined_per_round: super::ROUND_REFINED,
                instructions_per_round: super::ROUND_INSTRUCTIONS,
                queries_per_round: super::ROUND_QUERIES,
                z3_rlimit: f.counted_solver.then_some(super::Z3_RLIMIT),
                cut_by_max_time: cut,
                reproducible: why_not.is_none(),
                why_not: why_not.map(String::from),
            }
        }
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
    (metrics, fpgen_reference): (BTreeMap<String, ErrorValue>, &str),
) -> anyhow::Result<()> {
    let reference_check = check.as_ref().map(|c| ReferenceCheck {
        precision: c.bits,
        max_error: ErrorValue(c.error),
        agrees: c.agrees,
        reported_at: c.confirmed.map(|c| c.0),
        confirmed_at: c.confirmed.map(|c| c.1),
    });
    let input_values: Vec<ErrorInput> = s
        .scalars
        .iter()
        .map(|sc| {
            let bits = bits_of(&best.inputs, sc);
            match sc.kind {
                ScalarKind::Float(f) => {
                    let x = Float::from_bits(f, bits);
                    ErrorInput {
                        name: sc.name.clone(),
                        hex: Some(values::hex_float(x)),
                        decimal: values::decimal(x),
                    }
                }
                ScalarKind::Int { bytes, signed } => {
                    let w = 8 * bytes as u32;
                    let v = if signed && w < 128 {
                        (((bits << (128 - w)) as i128) >> (128 - w)).to_string()
                    } else {
                        bits.to_string()
                    };
                    ErrorInput {
                        name: sc.name.clone(),
                        hex: None,
                        decimal: v,
                    }
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
    let diagnosis_sites: Vec<SiteLossRecord> = sites
        .iter()
        .filter(|(_, l)| l.cancelled > 0 || l.lost > 0)
        .take(10)
        .map(|(at, l)| SiteLossRecord {
            at: at.to_string(),
            bits_cancelled: l.cancelled,
            bits_lost: l.lost,
            runs: l.runs,
        })
        .collect();
    let divergences: Vec<DivergenceRecord> = best
        .hp
        .divergences
        .iter()
        .map(|d| DivergenceRecord {
            function: d.function.clone(),
            at: d.loc.clone(),
            taken: d.taken,
            high_precision_takes: !d.taken,
        })
        .collect();
    let per_output: Vec<OutputError> = best
        .outputs
        .iter()
        .map(|o| OutputError {
            output: o.what.clone(),
            computed: values::decimal(o.computed),
            exact: mp_decimal(&o.exact),
            error: ErrorValue(o.error),
            relative_error: ErrorValue(o.by(Metric::Relative)),
        })
        .collect();
    let record = ErrorRecord {
        strategy: strategy.to_string(),
        precision: s.precision,
        metric: s.metric.name().to_string(),
        max_error: ErrorValue(best.error),
        max_relative_error: metrics.get("relative").copied().unwrap_or(ErrorValue(f64::INFINITY)),
        metrics,
        fpgen_reference: fpgen_reference.to_string(),
        output: worst.what.clone(),
        computed: values::decimal(worst.computed),
        exact: mp_decimal(&worst.exact),
        exact_digits: digits,
        inputs: input_values,
        outputs: per_output,
        budget: budget_record(s),
        measured_to_best: s.measured_to_best,
        measured: s.measured,
        random_inputs: s.random_inputs,
        native_random_inputs: s.native_inputs,
        native_bisection_steps: s.native_steps,
        symbolic_inputs: s.symbolic_inputs,
        refined_inputs: s.refined_inputs,
        symbolic_rounds: s.rounds,
        unread_objects: s.unread.iter().cloned().collect(),
        diagnosis: Diagnosis {
            sites: diagnosis_sites,
            divergences,
        },
        reference_check,
        samples: samples_record(s),
    };
    fpsym_engine::report::write_json(&out.join(ERROR_RECORD), &record)?;
    // Times apart: error.json is the same for the same reproducible run.
    let timing = ErrorTiming {
        time_to_best: s.time_to_best,
        seconds: s.start.elapsed().as_secs_f64(),
    };
    fpsym_engine::report::write_json(&out.join(ERROR_TIMING), &timing)?;
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
    let shown: Vec<String> = record
        .inputs
        .iter()
        .map(|v| format!("{} = {}", v.name, v.decimal))
        .collect();
    say!("input: {}", shown.join(", "));
    if !record.diagnosis.sites.is_empty() {
        say!("diagnosis (bits cancelled / lost at + and -, worst first):");
        for d in &record.diagnosis.sites {
            say!(
                "  {}: {} cancelled, {} lost ({} runs)",
                d.at,
                d.bits_cancelled,
                d.bits_lost,
                d.runs
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
