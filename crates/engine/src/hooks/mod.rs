//! Function models: what a call runs when it is not (only) the program's
//! own code. A registry with one documented precedence, decided in one
//! place ([`resolve`]) for every call the executor makes:
//!
//! | rank | what runs | when |
//! |---|---|---|
//! | 1 | a user hook ([`Hook`]) | one is registered for the name in [`crate::Extensions::hooks`] |
//! | 2 | fpsym's built-in model ([`Family`]) | fpsym models the name (for that many arguments), unless the program defines a C library function itself (its own `rand`, `sin`, `getenv`: see [`is_c_library_function`]), whose definition then wins |
//! | 3 | the IR body | the program (or fpsym's C runtime) defines the function |
//! | 4 | default | an [`crate::report::Event::ExternalCall`] event; the path ends partial |
//!
//! The built-in models come in families, one file each: KLEE's and
//! SV-COMP's inputs and assumptions (`klee`), failure points (`failure`),
//! the `printf` family (`stdio`), rounding-mode control (`fenv`), the heap
//! (`heap`), the process environment ([`mod@env`]), the libm functions IEEE
//! 754 defines exactly (`libm`), transcendental functions, concretized and
//! computed by the host's glibc (`transcendental`: an event; the run is
//! then never "verified"), and LLVM intrinsics (`intrinsics`). A model the
//! family does not have (an intrinsic fpsym does not know, a `long double`
//! transcendental) stops the path as unsupported, loudly.

mod failure;
mod fenv;
mod heap;
mod intrinsics;
mod klee;
mod libm;
mod stdio;
mod transcendental;

pub mod env;

use crate::exec::{End, Exec, ExecError, Feasible, Outcome};
use crate::prog::{Callee, Prog};
use crate::state::{Loc, State};
use crate::term::{as_bv, bv, mk, width};
use crate::value::Val;
use fpsym_expr::{eval, Op, Term, Value};
use fpsym_float::Format;
use llvm_ir::Name;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A model of a C function: what one call to it does on one path.
///
/// Why this shape: a model needs what fpsym's own models need, so it gets
/// the same three things they get: the executor (`ex`: solver queries,
/// fresh inputs, concretization, memory access, events), the calling
/// path's state (`st`: registers, memory, path condition, rounding mode),
/// and the call ([`HookCall`]: name, argument values, destination
/// register, source location). It answers like any instruction, with an
/// [`Outcome`]: the path goes on (`Continue`, the result written with
/// [`HookCall::ret`]), splits (`Fork`), or ends (`End`: an exit, a
/// finding, infeasible, partial); an [`ExecError`] stops the path as
/// unsupported. It takes `&self` and is `Send + Sync` because one
/// registered hook serves every path of every run sharing the
/// [`crate::Config`], possibly on several threads; what a path must
/// remember belongs in its state. fpsym's built-in families implement it
/// too ([`Family`]), so a user hook can do what a built-in model does, and
/// can fall back on one with [`Exec::hook`].
///
/// Closures of the right signature are hooks.
pub trait Hook: Send + Sync {
    /// Runs the call `call` on the path `st`.
    fn call(&self, ex: &mut Exec<'_, '_>, st: &mut State, call: &HookCall<'_>) -> Result<Outcome, ExecError>;
}

impl<F> Hook for F
where
    F: Fn(&mut Exec<'_, '_>, &mut State, &HookCall<'_>) -> Result<Outcome, ExecError> + Send + Sync,
{
    fn call(&self, ex: &mut Exec<'_, '_>, st: &mut State, call: &HookCall<'_>) -> Result<Outcome, ExecError> {
        self(ex, st, call)
    }
}

/// One call, as a [`Hook`] sees it.
#[derive(Clone, Copy, Debug)]
pub struct HookCall<'a> {
    /// The function's name.
    pub name: &'a str,
    /// The argument values (variadic ones included).
    pub args: &'a [Val],
    /// The register the result goes to (None: the result is unused or the
    /// function returns `void`).
    pub dest: Option<&'a Name>,
    /// The call's source location.
    pub loc: &'a Option<Loc>,
}

impl HookCall<'_> {
    /// Writes the call's result `v` into its destination register (if the
    /// call has one).
    pub fn ret(&self, st: &mut State, v: Val) {
        set_result(st, self.dest, v);
    }

    /// Argument `k` as an integer or pointer term (an error, not a panic,
    /// when the program passes something else).
    pub fn int_arg(&self, k: usize) -> Result<Term, ExecError> {
        int_arg(self.name, self.args, k)
    }

    /// Argument `k` as a floating-point term (an error, not a panic, when
    /// the program passes something else).
    pub fn fp_arg(&self, k: usize) -> Result<Term, ExecError> {
        match self.args.get(k) {
            Some(Val::Fp(t)) => Ok(t.clone()),
            Some(_) => Err(ExecError::Unsupported(format!(
                "{}: argument {k} is not a floating-point value",
                self.name
            ))),
            None => Err(ExecError::Unsupported(format!("{}: missing argument {k}", self.name))),
        }
    }
}

/// The user's hooks, by function name (rank 1 of the precedence). Cheap
/// to clone (the hooks are shared); printed as the list of names.
#[derive(Clone, Default)]
pub struct UserHooks {
    by_name: BTreeMap<String, Arc<dyn Hook>>,
}

impl UserHooks {
    /// No hooks.
    pub fn new() -> UserHooks {
        UserHooks::default()
    }

    /// Registers `hook` for calls to `name` (replacing the hook registered
    /// before, which is returned).
    pub fn insert(&mut self, name: impl Into<String>, hook: Arc<dyn Hook>) -> Option<Arc<dyn Hook>> {
        self.by_name.insert(name.into(), hook)
    }

    /// These hooks and `hook` for calls to `name`.
    pub fn with(mut self, name: impl Into<String>, hook: impl Hook + 'static) -> UserHooks {
        self.insert(name, Arc::new(hook));
        self
    }

    /// The hook registered for `name`.
    pub fn get(&self, name: &str) -> Option<&Arc<dyn Hook>> {
        self.by_name.get(name)
    }

    /// The names hooked, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.by_name.keys().map(String::as_str)
    }

    /// True if no hook is registered.
    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }
}

impl std::fmt::Debug for UserHooks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.names()).finish()
    }
}

/// The families of fpsym's built-in models (rank 2 of the precedence),
/// each in its own file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// KLEE's and SV-COMP's inputs and assumptions: `klee_make_symbolic`,
    /// `klee_int`, `klee_range`, `klee_assume`, `klee_silent_exit`,
    /// `__VERIFIER_assume`, `__VERIFIER_nondet_*`.
    Klee,
    /// Failure points and process exits: `reach_error`,
    /// `__VERIFIER_error`, `abort`, `exit`, `_exit`, `_Exit`,
    /// `__assert_fail`, `__assert_rtn`, `__assert`.
    Failure,
    /// The `printf` family (`printf`, `puts`, `fprintf`, ...): printed
    /// only with [`crate::Policies::print`], results 0.
    Stdio,
    /// Rounding-mode control: `fegetround`, `fesetround`.
    Fenv,
    /// The heap: `malloc`, `calloc`, `realloc`, `free`.
    Heap,
    /// The process environment ([`env::MODELLED`]): `getenv`, `time`,
    /// `rand`, `atexit`, `errno`, ...
    Env,
    /// The libm functions IEEE 754 defines exactly (`sqrt`, `fabs`, `fma`,
    /// `floor`, `fmod`, `ldexp`, `frexp`, ..., with their `f`/`l` forms)
    /// and the classification functions (`isnan`, `__signbit`, ...).
    Libm,
    /// Transcendental functions (`sin`, `exp`, `pow`, ...): arguments
    /// concretized, glibc computes.
    Transcendental,
    /// LLVM intrinsics (`llvm.*`).
    Intrinsics,
}

impl Family {
    /// The family whose model covers a call of `name` with `arity`
    /// arguments, if fpsym models it.
    pub fn of(name: &str, arity: usize) -> Option<Family> {
        Some(if name.starts_with("llvm.") {
            Family::Intrinsics
        } else if klee::models(name) {
            Family::Klee
        } else if failure::NAMES.contains(&name) {
            Family::Failure
        } else if env::MODELLED.contains(&name) {
            Family::Env
        } else if stdio::NAMES.contains(&name) {
            Family::Stdio
        } else if fenv::NAMES.contains(&name) {
            Family::Fenv
        } else if heap::NAMES.contains(&name) {
            Family::Heap
        } else if libm::models(name, arity) {
            Family::Libm
        } else if transcendental::models(name) {
            Family::Transcendental
        } else {
            return None;
        })
    }
}

impl Hook for Family {
    fn call(&self, ex: &mut Exec<'_, '_>, st: &mut State, call: &HookCall<'_>) -> Result<Outcome, ExecError> {
        let HookCall { name, args, dest, loc } = *call;
        if ex.prog.layout.ilp32 {
            if let Some(why) = i386_libm(self, name) {
                return Err(ExecError::Unsupported(why));
            }
        }
        match self {
            Family::Klee => ex.klee(st, call),
            Family::Failure => ex.failure(st, call),
            Family::Stdio => ex.stdio(st, call),
            Family::Fenv => ex.fenv(st, call),
            Family::Heap => ex.heap(st, call),
            Family::Env => ex.env_call(st, call),
            Family::Libm => ex.libm(st, call),
            Family::Transcendental => ex.transcendental(st, call),
            Family::Intrinsics => {
                let intr = name.strip_prefix("llvm.").ok_or_else(|| unmodelled(name))?;
                ex.intrinsic(st, intr, args, dest, loc)
            }
        }
    }
}

/// Why a libm call is not modelled under ILP32, if it is not: i386's
/// glibc computes transcendental functions other than x86-64's (measured:
/// exp, cos, log10, cbrt, atan2, hypot, pow, tanf, ... differ by ulps,
/// and their flags and errno), which fpsym models, `remainder` gives an
/// exact zero x's sign toward negative, and `llvm.powi` (libgcc's
/// `__powidf2`) multiplies in x87 registers (measured: 478 of 14,972
/// intrinsic cases differed, all of them powi).
fn i386_libm(family: &Family, name: &str) -> Option<String> {
    let differs = match family {
        Family::Transcendental => true,
        Family::Libm => libm_suffix(name, "remainder").is_some(),
        // libgcc's __powidf2 for i386 multiplies in x87 registers.
        Family::Intrinsics => name.starts_with("llvm.powi"),
        _ => false,
    };
    differs.then(|| format!("{name} under ILP32: i386's glibc computes it other than x86-64's, which fpsym models"))
}

/// What a call runs, by the precedence in the module documentation.
#[derive(Clone)]
pub enum Resolution {
    /// Rank 1: the user's hook for the name.
    User(Arc<dyn Hook>),
    /// Rank 2: fpsym's model, of this family.
    BuiltIn(Family),
    /// Rank 3: the function's IR body (an index into [`Prog::funcs`]).
    Body(usize),
    /// Rank 4: nothing models it: an `ExternalCall` event, the path ends
    /// partial.
    External,
}

impl std::fmt::Debug for Resolution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Resolution::User(_) => f.write_str("User"),
            Resolution::BuiltIn(family) => f.debug_tuple("BuiltIn").field(family).finish(),
            Resolution::Body(i) => f.debug_tuple("Body").field(i).finish(),
            Resolution::External => f.write_str("External"),
        }
    }
}

/// Decides what a call of `callee`, named `name`, with `arity` arguments,
/// runs: the one place the precedence is decided (see the module
/// documentation).
pub fn resolve(hooks: &UserHooks, prog: &Prog<'_>, callee: &Callee, name: &str, arity: usize) -> Resolution {
    if let Some(h) = hooks.get(name) {
        return Resolution::User(h.clone());
    }
    // A program's own `rand`, `sin`, `getenv`, ... is its own function:
    // the C library's model gives way to it.
    let own =
        matches!(callee, Callee::Defined(_)) && !prog.program.is_runtime_function(name) && is_c_library_function(name);
    if !own {
        if let Some(family) = Family::of(name, arity) {
            return Resolution::BuiltIn(family);
        }
    }
    match callee {
        Callee::Defined(i) => Resolution::Body(*i),
        Callee::Declared(_) => Resolution::External,
    }
}

/// True for the C library functions modelled here that a program may
/// define for itself (libm, the process environment); its own definition
/// then wins. The KLEE/SV-COMP API, failure points, the heap and fenv keep
/// their models whatever the program defines.
pub fn is_c_library_function(name: &str) -> bool {
    env::MODELLED.contains(&name)
        || transcendental::models(name)
        || libm::EXACT_LIBM.iter().any(|(b, _)| libm_suffix(name, b).is_some())
}

/// Writes a modelled call's result into its destination register (if the
/// call has one).
pub(crate) fn set_result(st: &mut State, dest: Option<&Name>, v: Val) {
    if let Some(d) = dest {
        st.frame_mut().regs.insert(d.clone(), v);
    }
}

/// Argument `k` of a call to `name` as an integer or pointer term (an
/// error, not a panic, when the program passes something else).
pub(crate) fn int_arg(name: &str, args: &[Val], k: usize) -> Result<Term, ExecError> {
    match args.get(k) {
        Some(Val::Bv(t)) => Ok(t.clone()),
        Some(_) => Err(ExecError::Unsupported(format!(
            "{name}: argument {k} is not an integer or a pointer"
        ))),
        None => Err(ExecError::Unsupported(format!("{name}: missing argument {k}"))),
    }
}

/// Why a run that called `function`, which has neither a model nor a body,
/// is incomplete, with what is modelled and how to give it a body.
pub fn unmodelled_call(function: &str) -> String {
    // fpsym's C runtime ends a path it does not model by calling
    // `fpsym_unsupported_WHAT`.
    if let Some(what) = function.strip_prefix("fpsym_unsupported_") {
        let what = match what {
            "stream" => "a stream other than stdin, stdout and stderr",
            "fstat_descriptor" => "fstat of a descriptor other than 0, 1 and 2",
            "stat_path" => "stat of a path other than a standard stream's",
            "langinfo" => "this nl_langinfo item",
            "scanf_directive" => "this scanf directive",
            "ungetc_depth" => "more than one character pushed back by ungetc",
            "scanf_token_length" => "a scanf token this long",
            other => other,
        };
        return format!("not modelled: {what} (fpsym's C runtime ends the path here)");
    }
    format!(
        "call to unmodelled function {function} (fpsym models the KLEE/SV-COMP API, libm, the printf \
         family, malloc/free, getenv/time/rand/errno/atexit, fenv, and glibc's string, ctype, stdlib, \
         stdio input, the standard streams (fileno, isatty, fstat) and locale functions; a C file defining {function}, named beside the program, \
         runs instead)"
    )
}

/// A call a family was given but has no model for (not reached: [`Family::of`]
/// only hands a family the calls it models).
fn unmodelled(name: &str) -> ExecError {
    ExecError::Unsupported(format!("{name} has no built-in model"))
}

/// The float format a libm name works in: `sinf` binary32, `sinl`
/// x86_fp80, else binary64; None if `name` is not `base` + suffix.
fn libm_suffix(name: &str, base: &str) -> Option<Format> {
    let rest = name.strip_prefix(base)?;
    match rest {
        "" => Some(Format::BINARY64),
        "f" => Some(Format::BINARY32),
        "l" => Some(Format::X86_FP80),
        "f128" => Some(Format::BINARY128),
        _ => None,
    }
}

impl Exec<'_, '_> {
    /// Runs fpsym's built-in model of `name` (rank 2 of the precedence) if
    /// it has one for this many arguments (None: it has none). User hooks
    /// are not consulted: this is what a hook falls back on.
    pub fn hook(
        &mut self,
        st: &mut State,
        name: &str,
        args: &[Val],
        dest: Option<&Name>,
        loc: &Option<Loc>,
    ) -> Result<Option<Outcome>, ExecError> {
        let Some(family) = Family::of(name, args.len()) else {
            return Ok(None);
        };
        family.call(self, st, &HookCall { name, args, dest, loc }).map(Some)
    }

    /// The C string at `p` if its bytes are concrete.
    pub fn c_string(&mut self, st: &mut State, p: &Term) -> Option<String> {
        let a = as_bv(p)? as u64;
        let o = st.mem.find(a)?;
        let (base, size) = (o.base, o.size);
        let mut out = Vec::new();
        for off in (a - base)..size {
            let c = st.mem.read(base, off, 1).pop()?;
            let b = self.byte_of(st, &c);
            let b = as_bv(&b)? as u8;
            if b == 0 {
                break;
            }
            out.push(b);
        }
        Some(String::from_utf8_lossy(&out).into_owned())
    }

    /// Makes a value concrete: picks a model value, constrains the path to
    /// it, records an event.
    pub fn concretize(&mut self, st: &mut State, t: &Term, loc: &Option<Loc>, why: &str) -> u128 {
        let v = match self.feasible(st, &[]) {
            Feasible::Yes(mut m) => {
                m.complete(&t.vars());
                match eval(t, &m) {
                    Ok(Value::Bv(b)) => b.bits(),
                    _ => 0,
                }
            }
            _ => 0,
        };
        st.constrain(mk(Op::Eq, vec![t.clone(), bv(width(t), v)]));
        st.concretized = true;
        self.effects.events.push(crate::report::Event::Concretized {
            loc: loc.clone(),
            reason: why.to_string(),
        });
        v
    }

    /// Ends `st` with `end` while the states in `forks` go on.
    pub fn end_keeping(&mut self, st: &mut State, end: End, mut forks: Vec<State>) -> Outcome {
        if forks.is_empty() {
            return Outcome::End(end);
        }
        let next = forks.remove(0);
        self.effects.side_ends.push((std::mem::replace(st, next), end));
        if forks.is_empty() {
            Outcome::Continue
        } else {
            Outcome::Fork(forks)
        }
    }

    /// The sign bit of a float (NaN included: its encoding's sign).
    fn sign_bit(&mut self, st: &mut State, x: &Term) -> Term {
        let b = self.bits_of(st, x);
        let w = width(&b);
        mk(Op::Eq, vec![mk(Op::BvExtract(w - 1, w - 1), vec![b]), bv(1, 1)])
    }
}

#[cfg(test)]
mod tests {
    use super::{is_c_library_function, Family};

    #[test]
    fn families_by_name_and_arity() {
        assert_eq!(Family::of("llvm.fma.f64", 3), Some(Family::Intrinsics));
        assert_eq!(Family::of("__VERIFIER_nondet_double", 0), Some(Family::Klee));
        assert_eq!(Family::of("__VERIFIER_nondet_struct", 0), None);
        assert_eq!(Family::of("abort", 0), Some(Family::Failure));
        assert_eq!(Family::of("getenv", 1), Some(Family::Env));
        assert_eq!(Family::of("fprintf", 2), Some(Family::Stdio));
        assert_eq!(Family::of("fesetround", 1), Some(Family::Fenv));
        assert_eq!(Family::of("realloc", 2), Some(Family::Heap));
        assert_eq!(Family::of("sqrtf", 1), Some(Family::Libm));
        assert_eq!(Family::of("__isnanl", 1), Some(Family::Libm));
        // The exact models exist for their own arity only.
        assert_eq!(Family::of("sqrt", 2), None);
        assert_eq!(Family::of("sinl", 1), Some(Family::Transcendental));
        assert_eq!(Family::of("sensor", 0), None);
    }

    #[test]
    fn c_library_functions() {
        for f in ["rand", "getenv", "sin", "powf", "sqrtl", "frexp"] {
            assert!(is_c_library_function(f), "{f}");
        }
        for f in ["abort", "malloc", "fesetround", "isnan", "klee_int", "sensor"] {
            assert!(!is_c_library_function(f), "{f}");
        }
    }
}
