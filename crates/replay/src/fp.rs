//! Confirmation of floating-point exceptions and float-cast overflows:
//! the program goes on after them, so a native run shows them as raised
//! on the way, not as how it ended.
//!
//! - FP exceptions: the driver unmasks the finding kinds' exceptions in
//!   MXCSR (SSE; the x87 stays masked) and catches SIGFPE; the handler
//!   keeps the faulting address and the call stack (`backtrace`, so an
//!   exception inside libm is located at the user's call), masks every
//!   exception and single-steps the instruction (the trap flag); in the
//!   SIGTRAP that follows, the flags the masked instruction set (IEEE's
//!   masked semantics: underflow only when tiny and inexact; every kind an
//!   instruction raises) are printed with the location, and the kinds are
//!   unmasked again. So every exception of those kinds is seen, in order,
//!   and the run computes what it would have.
//! - float-cast-overflow: clang's `-fsanitize=float-cast-overflow`, which
//!   reports `FILE:LINE:COL: runtime error: … is outside the range of
//!   representable values of type …` and goes on.

use crate::classify::{basename, NativeRun};
use crate::confirm::Confirmation;
use fpsym_report::{Finding, FindingKind, Observed, Raised};

/// The trap handler shared by every FP-exception rule (the driver gets it
/// once).
const TRAP_HANDLER: &str = r#"
#include <execinfo.h>
#include <fenv.h>
#include <signal.h>
#include <ucontext.h>
#define FPSYM_REG_EFL 17 /* REG_EFL of <sys/ucontext.h> on x86-64 */
static unsigned fpsym_fe_enabled;            /* FE_* bits unmasked in MXCSR */
static void *fpsym_fe_where[65];             /* the faulting address, then the stack */
static int fpsym_fe_depth;
static unsigned fpsym_getcsr(void) { unsigned m; __asm__ volatile("stmxcsr %0" : "=m"(m)); return m; }
static void fpsym_setcsr(unsigned m) { __asm__ volatile("ldmxcsr %0" : : "m"(m)); }
/* The trap: remember where, mask every SSE exception, clear the flags and
   step the instruction again (masked, it sets the flags IEEE says). */
static void fpsym_on_fpe(int sig, siginfo_t *si, void *ctx) {
  ucontext_t *uc = (ucontext_t *)ctx;
  if (si->si_code != FPE_FLTDIV && si->si_code != FPE_FLTOVF && si->si_code != FPE_FLTUND &&
      si->si_code != FPE_FLTINV && si->si_code != FPE_FLTRES) {
    signal(SIGFPE, SIG_DFL);          /* integer division: die as usual */
    if (si->si_code <= 0) raise(sig); /* sent by a process */
    return;
  }
  fpsym_fe_where[0] = si->si_addr;
  fpsym_fe_depth = 1 + backtrace(fpsym_fe_where + 1, 64);
  uc->uc_mcontext.fpregs->mxcsr |= 0x1f80;
  uc->uc_mcontext.fpregs->mxcsr &= ~0x3fu;
  uc->uc_mcontext.gregs[FPSYM_REG_EFL] |= 0x100;
}
/* After the step: report each trapped kind the instruction raised, clear
   the flags, unmask again. */
static void fpsym_on_step(int sig, siginfo_t *si, void *ctx) {
  ucontext_t *uc = (ucontext_t *)ctx;
  if (si->si_code != 2 /* TRAP_TRACE */) { signal(sig, SIG_DFL); raise(sig); return; }
  uc->uc_mcontext.gregs[FPSYM_REG_EFL] &= ~0x100;
  unsigned flags = uc->uc_mcontext.fpregs->mxcsr & 0x3f & fpsym_fe_enabled;
  static const struct { unsigned bit; const char *kind; } kinds[] = {
    {FE_INVALID, "fp-invalid"}, {FE_DIVBYZERO, "fp-divide-by-zero"}, {FE_OVERFLOW, "fp-overflow"},
    {FE_UNDERFLOW, "fp-underflow"}, {FE_INEXACT, "fp-inexact"}};
  for (unsigned k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
    if (!(flags & kinds[k].bit)) continue;
    fprintf(stderr, "FPSYM-FPE: %s %p", kinds[k].kind, fpsym_fe_where[0]);
    for (int i = 1; i < fpsym_fe_depth; i++) fprintf(stderr, " %p", (void *)((char *)fpsym_fe_where[i] - 1));
    fprintf(stderr, "\n");
  }
  uc->uc_mcontext.fpregs->mxcsr &= ~0x3fu;
  uc->uc_mcontext.fpregs->mxcsr &= ~(fpsym_fe_enabled << 7);
}
/* Unmasks `excepts` (FE_* bits) in MXCSR only: x87 (long double) stays
   masked, as its traps arrive late and change results. */
static void fpsym_trap_fp(unsigned excepts) {
  if (!fpsym_fe_enabled) {
    void *warm[1];
    backtrace(warm, 1); /* loads the unwinder now, not inside a handler */
    struct sigaction a;
    memset(&a, 0, sizeof a);
    a.sa_sigaction = fpsym_on_fpe;
    a.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGFPE, &a, 0);
    a.sa_sigaction = fpsym_on_step;
    sigaction(SIGTRAP, &a, 0);
  }
  fpsym_fe_enabled |= excepts;
  fpsym_setcsr((fpsym_getcsr() & ~0x3fu) & ~(fpsym_fe_enabled << 7));
}
/* The kinds to trap come as -DFPSYM_TRAP_<KIND> from their rules. */
__attribute__((constructor)) static void fpsym_trap_init(void) {
  unsigned e = 0;
#ifdef FPSYM_TRAP_FE_OVERFLOW
  e |= FE_OVERFLOW;
#endif
#ifdef FPSYM_TRAP_FE_UNDERFLOW
  e |= FE_UNDERFLOW;
#endif
#ifdef FPSYM_TRAP_FE_DIVBYZERO
  e |= FE_DIVBYZERO;
#endif
#ifdef FPSYM_TRAP_FE_INVALID
  e |= FE_INVALID;
#endif
#ifdef FPSYM_TRAP_FE_INEXACT
  e |= FE_INEXACT;
#endif
  if (e) fpsym_trap_fp(e);
}
"#;

/// Confirms floating-point exceptions of one kind by trapping them.
#[derive(Clone, Debug)]
pub struct FpTrap {
    kind: FindingKind,
    /// The `FE_*` macro of the kind.
    fe: &'static str,
}

impl FpTrap {
    /// The rule for `kind`, if it is an IEEE exception kind.
    pub fn new(kind: FindingKind) -> Option<FpTrap> {
        let (fe, _) = kind.fe_flag()?;
        Some(FpTrap { kind, fe })
    }
}

/// Whether `o` raised `finding`'s kind at its line.
fn raised_at(finding: &Finding, o: &Observed) -> bool {
    let file = basename(&finding.file);
    o.raised
        .iter()
        .any(|r| r.kind == finding.kind && r.line == Some(finding.line) && r.file.as_deref() == Some(file.as_str()))
}

impl Confirmation for FpTrap {
    fn kind(&self) -> FindingKind {
        self.kind.clone()
    }
    fn driver_cflags(&self) -> Vec<String> {
        vec![format!("-DFPSYM_TRAP_{}", self.fe)]
    }
    fn driver_code(&self) -> String {
        TRAP_HANDLER.to_string()
    }
    fn raised(&self, run: &NativeRun, symbolize: &dyn Fn(&str) -> Option<(String, u32)>) -> Vec<Raised> {
        let mut out = Vec::new();
        for line in run.stderr.lines() {
            let Some(rest) = line.strip_prefix("FPSYM-FPE: ") else {
                continue;
            };
            let mut words = rest.split_whitespace();
            if words.next() != Some(self.kind.name()) {
                continue;
            }
            // The faulting instruction, then the stack (return addresses
            // less one): the first address in a user file locates it; with
            // none (a program of bitcode only), the innermost one with a
            // source place does, as the analysis places it then.
            let places: Vec<(String, u32)> = words.filter_map(symbolize).collect();
            let loc = places
                .iter()
                .find(|(f, _)| run.user.is_user_file(f))
                .or(places.first())
                .cloned();
            out.push(Raised {
                kind: self.kind.clone(),
                file: loc.as_ref().map(|l| l.0.clone()),
                line: loc.map(|l| l.1),
            });
        }
        out
    }
    fn confirms(&self, finding: &Finding, o: &Observed) -> bool {
        raised_at(finding, o)
    }
}

/// Confirms float-to-integer conversions out of range with clang's
/// `-fsanitize=float-cast-overflow`.
#[derive(Clone, Debug, Default)]
pub struct FloatCast;

impl Confirmation for FloatCast {
    fn kind(&self) -> FindingKind {
        FindingKind::FloatCastOverflow
    }
    fn extra_cflags(&self) -> Vec<String> {
        vec!["-fsanitize=float-cast-overflow".into()]
    }
    fn raised(&self, run: &NativeRun, _symbolize: &dyn Fn(&str) -> Option<(String, u32)>) -> Vec<Raised> {
        run.stderr
            .lines()
            .filter(|l| l.contains(": runtime error: ") && l.contains("is outside the range of representable values"))
            .map(|l| {
                // FILE:LINE:COL: runtime error: …
                let head = l.split(": runtime error: ").next().unwrap_or("");
                let mut parts = head.rsplitn(3, ':');
                let (_col, line, file) = (parts.next(), parts.next(), parts.next());
                Raised {
                    kind: FindingKind::FloatCastOverflow,
                    file: file.map(basename),
                    line: line.and_then(|l| l.parse().ok()),
                }
            })
            .collect()
    }
    fn confirms(&self, finding: &Finding, o: &Observed) -> bool {
        raised_at(finding, o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fpsym_frontend::UserCode;
    use std::path::PathBuf;

    #[test]
    fn traps_and_sanitizer_reports_are_read_as_raised() {
        let user = UserCode::from_inputs(&[PathBuf::from("prog.c")]);
        let run = NativeRun {
            stderr: "FPSYM-FPE: fp-overflow 0x401000 0x7f00 0x401234\n\
                     FPSYM-FPE: fp-invalid 0x402000\n\
                     prog.c:9:14: runtime error: 40000 is outside the range of representable values of type 'short'\n"
                .into(),
            code: Some(0),
            signal: None,
            timed_out: false,
            user: &user,
            profile: None,
        };
        let sym = |a: &str| match a {
            "0x401000" => Some(("libm.c".to_string(), 3)),
            "0x401234" => Some(("prog.c".to_string(), 7)),
            _ => None,
        };
        let r = FpTrap::new(FindingKind::FpOverflow).unwrap().raised(&run, &sym);
        assert_eq!(
            r,
            [Raised {
                kind: FindingKind::FpOverflow,
                file: Some("prog.c".into()),
                line: Some(7)
            }]
        );
        let r = FloatCast.raised(&run, &sym);
        assert_eq!(r.len(), 1);
        assert_eq!((r[0].file.as_deref(), r[0].line), (Some("prog.c"), Some(9)));
        assert!(FpTrap::new(FindingKind::Abort).is_none());
    }
}
