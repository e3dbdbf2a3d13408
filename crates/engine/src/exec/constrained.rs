//! `llvm.experimental.constrained.*`: the FP operations clang emits under
//! `#pragma STDC FENV_ACCESS ON`, `#pragma STDC FENV_ROUND` or
//! `-ffp-model=strict`. Each carries its rounding mode and (for compares)
//! its predicate as metadata strings, which llvm-ir drops; they are read
//! from the instruction's llvm-dis text. Every operation rounds in the
//! state's current mode (`fesetround`), as the x86-64 code clang 14 emits
//! does, whatever static mode the metadata names (see [`rounding`]).

use super::{arith, map_lanes, Exec, ExecError, Outcome};
use crate::state::State;
use crate::term::{mk, rm};
use crate::value::Val;
use fpsym_expr::{Op, Term};
use fpsym_float::{Format, RoundingMode};
use llvm_ir::{FPPredicate, Name};

/// The metadata strings of an instruction's text, in order
/// (`metadata !"round.dynamic"` gives `round.dynamic`).
fn metadata_strings(text: &str) -> Vec<&str> {
    text.split("metadata !\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect()
}

/// The rounding mode an operation with these metadata strings rounds in.
///
/// Static modes (`round.upward`, ... as `#pragma STDC FENV_ROUND` asks)
/// only promise the compiler that the dynamic mode *is* that mode; clang
/// 14's x86-64 backend does not set it (it warns that the pragma is not
/// supported) and the hardware rounds in the dynamic mode. Native
/// execution is the ground truth, so every mode is the dynamic one
/// (`current`); unknown strings are rejected.
fn rounding(meta: &[&str], current: RoundingMode) -> Result<RoundingMode, ExecError> {
    match meta.iter().find(|m| m.starts_with("round.")).copied() {
        None
        | Some(
            "round.dynamic"
            | "round.tonearest"
            | "round.tonearestaway"
            | "round.downward"
            | "round.upward"
            | "round.towardzero",
        ) => Ok(current),
        Some(other) => Err(ExecError::Unsupported(format!("rounding metadata \"{other}\""))),
    }
}

/// The predicate of a constrained compare (`metadata !"olt"`).
fn predicate(meta: &[&str]) -> Result<FPPredicate, ExecError> {
    use FPPredicate as P;
    let p = meta
        .iter()
        .find(|m| !m.starts_with("round.") && !m.starts_with("fpexcept."))
        .copied()
        .unwrap_or("");
    Ok(match p {
        "false" => P::False,
        "oeq" => P::OEQ,
        "ogt" => P::OGT,
        "oge" => P::OGE,
        "olt" => P::OLT,
        "ole" => P::OLE,
        "one" => P::ONE,
        "ord" => P::ORD,
        "uno" => P::UNO,
        "ueq" => P::UEQ,
        "ugt" => P::UGT,
        "uge" => P::UGE,
        "ult" => P::ULT,
        "ule" => P::ULE,
        "une" => P::UNE,
        "true" => P::True,
        other => {
            return Err(ExecError::Unsupported(format!(
                "constrained fcmp predicate \"{other}\""
            )))
        }
    })
}

/// The result type of an overloaded intrinsic: the first type in its name
/// after the operation (`fptosi.i32.f64` → `i32`, `fptrunc.v2f32.v2f64` →
/// `f32` lanes). Integers give their width, floats their format.
enum Scalar {
    Int(u32),
    Float(Format),
}

fn result_scalar(suffix: &str) -> Option<Scalar> {
    let t = suffix.split('.').next()?;
    // Vector types are `v<N><scalar>`.
    let t = match t.strip_prefix('v') {
        Some(rest) => rest.trim_start_matches(|c: char| c.is_ascii_digit()),
        None => t,
    };
    Some(match t {
        "f16" => Scalar::Float(Format::BINARY16),
        "f32" => Scalar::Float(Format::BINARY32),
        "f64" => Scalar::Float(Format::BINARY64),
        "f80" => Scalar::Float(Format::X86_FP80),
        "f128" => Scalar::Float(Format::BINARY128),
        i => Scalar::Int(i.strip_prefix('i')?.parse().ok()?),
    })
}

impl Exec<'_, '_> {
    /// The llvm-dis text of the instruction being executed (the step has
    /// already advanced past it).
    fn current_text(&self, st: &State) -> Option<&str> {
        let f = st.frame();
        let name = &self.prog.funcs[f.func].name;
        self.prog.program.instruction_text(name, f.bb, f.ip.checked_sub(1)?)
    }

    /// Executes `llvm.experimental.constrained.<op>.<types>` (`intr` is the
    /// name without `llvm.`).
    pub(crate) fn constrained(
        &mut self,
        st: &mut State,
        intr: &str,
        args: &[Val],
        dest: Option<&Name>,
        loc: &Option<crate::state::Loc>,
    ) -> Result<Outcome, ExecError> {
        let rest = &intr["experimental.constrained.".len()..];
        let (op, types) = rest.split_once('.').unwrap_or((rest, ""));
        let text = self
            .current_text(st)
            .ok_or_else(|| ExecError::Unsupported(format!("llvm.{intr} without its instruction text")))?
            .to_string();
        let meta = metadata_strings(&text);
        let r = rounding(&meta, st.rm)?;
        let unsupported = || ExecError::Unsupported(format!("intrinsic llvm.{intr}"));
        // i386's strict conversions between integers and floats are other
        // instruction sequences than x86-64's, not modelled.
        if self.prog.layout.ilp32 && matches!(op, "fptosi" | "fptoui" | "sitofp" | "uitofp") {
            return Err(ExecError::Unsupported(format!(
                "intrinsic llvm.{intr} under ILP32 (i386's strict conversions are not modelled)"
            )));
        }
        let float_to = || match result_scalar(types) {
            Some(Scalar::Float(f)) => Ok(f),
            _ => Err(unsupported()),
        };
        let int_to = || match result_scalar(types) {
            Some(Scalar::Int(w)) => Ok(w),
            _ => Err(unsupported()),
        };
        let fixed =
            |m: RoundingMode| move |a: &[Val]| Val::Fp(mk(Op::FpRoundToIntegral, vec![rm(m), a[0].fp().clone()]));
        let res: Val = match op {
            "fadd" | "fsub" | "fmul" | "fdiv" | "frem" => {
                map_lanes(args, &mut |a| Val::Fp(arith::fp_binop(op, r, a[0].fp(), a[1].fp())))
            }
            "fma" => map_lanes(args, &mut |a| {
                Val::Fp(mk(
                    Op::FpFma,
                    vec![rm(r), a[0].fp().clone(), a[1].fp().clone(), a[2].fp().clone()],
                ))
            }),
            // Unfused, as the x86-64 baseline lowers it (like llvm.fmuladd).
            "fmuladd" => map_lanes(args, &mut |a| {
                let p = mk(Op::FpMul, vec![rm(r), a[0].fp().clone(), a[1].fp().clone()]);
                Val::Fp(mk(Op::FpAdd, vec![rm(r), p, a[2].fp().clone()]))
            }),
            "sqrt" => map_lanes(args, &mut |a| Val::Fp(mk(Op::FpSqrt, vec![rm(r), a[0].fp().clone()]))),
            "fptrunc" | "fpext" => {
                let to = float_to()?;
                map_lanes(args, &mut |a| Val::Fp(arith::to_float(op, r, a[0].fp(), to)))
            }
            "sitofp" | "uitofp" => {
                let to = float_to()?;
                map_lanes(args, &mut |a| Val::Fp(arith::to_float(op, r, a[0].bv(), to)))
            }
            // Conversions to integers truncate whatever the rounding mode.
            "fptosi" | "fptoui" => {
                let w = int_to()?;
                let signed = op == "fptosi";
                map_lanes(args, &mut |a| Val::Bv(arith::strict_fp_to_int(signed, a[0].fp(), w)))
            }
            "fcmp" | "fcmps" => {
                let p = predicate(&meta)?;
                map_lanes(args, &mut |a| Val::Bv(arith::i1(arith::fcmp(p, a[0].fp(), a[1].fp()))))
            }
            "ceil" => map_lanes(args, &mut fixed(RoundingMode::TowardPositive)),
            "floor" => map_lanes(args, &mut fixed(RoundingMode::TowardNegative)),
            "trunc" => map_lanes(args, &mut fixed(RoundingMode::TowardZero)),
            "round" => map_lanes(args, &mut fixed(RoundingMode::NearestTiesToAway)),
            "roundeven" => map_lanes(args, &mut fixed(RoundingMode::NearestTiesToEven)),
            "rint" | "nearbyint" => map_lanes(args, &mut fixed(r)),
            // Not inline code, as llvm.maxnum is: x86-64 calls glibc's
            // fmax/fmin (as a call of fmax in the source does, see the
            // libm model): of two zeros either, NaN for a signalling NaN.
            "maxnum" | "minnum" => {
                let max = op == "maxnum";
                map_lanes(args, &mut |a| {
                    let mut choice = || Term::var(&st.unique_name("fpsym.zero_tie"), fpsym_expr::Sort::Bool);
                    Val::Fp(arith::min_max(
                        max,
                        a[0].fp(),
                        a[1].fp(),
                        arith::ZeroTie::Either,
                        true,
                        &mut choice,
                    ))
                })
            }
            "lrint" | "llrint" | "lround" | "llround" => {
                let w = int_to()?;
                let m = if op.contains("round") {
                    RoundingMode::NearestTiesToAway
                } else {
                    r
                };
                map_lanes(args, &mut |a| {
                    let i: Term = mk(Op::FpRoundToIntegral, vec![rm(m), a[0].fp().clone()]);
                    Val::Bv(arith::fp_to_int(true, &i, w))
                })
            }
            // Transcendental functions: as their libm counterparts.
            "sin" | "cos" | "exp" | "exp2" | "log" | "log10" | "log2" | "pow" => {
                let libm = match args.first().map(|a| a.format()) {
                    Some(f) if f == Format::BINARY32 => format!("{op}f"),
                    Some(f) if f == Format::X86_FP80 => format!("{op}l"),
                    _ => op.to_string(),
                };
                // Only the float operands (the metadata operands evaluate
                // to placeholders).
                let floats: Vec<Val> = args.iter().filter(|a| !matches!(a, Val::Bv(_))).cloned().collect();
                return self.hook(st, &libm, &floats, dest, loc)?.ok_or_else(unsupported);
            }
            _ => return Err(unsupported()),
        };
        if let Some(d) = dest {
            st.frame_mut().regs.insert(d.clone(), res);
        }
        Ok(Outcome::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_metadata_and_types() {
        let t = r#"%5 = call double @llvm.experimental.constrained.fadd.f64(double %3, double %4, metadata !"round.upward", metadata !"fpexcept.strict") #2, !dbg !20"#;
        let m = metadata_strings(t);
        assert_eq!(m, ["round.upward", "fpexcept.strict"]);
        // The dynamic mode rounds, as on the hardware.
        assert_eq!(
            rounding(&m, RoundingMode::TowardZero).unwrap(),
            RoundingMode::TowardZero
        );
        assert!(rounding(&["round.sideways"], RoundingMode::TowardZero).is_err());
        let c = r#"%7 = call i1 @llvm.experimental.constrained.fcmps.f64(double %5, double %6, metadata !"ult", metadata !"fpexcept.strict")"#;
        assert_eq!(predicate(&metadata_strings(c)).unwrap(), FPPredicate::ULT);
        assert!(matches!(result_scalar("i32.f64"), Some(Scalar::Int(32))));
        assert!(matches!(result_scalar("v2f32.v2f64"), Some(Scalar::Float(f)) if f == Format::BINARY32));
    }
}
