//! The process environment real programs touch first: `getenv`,
//! `setlocale`, `time`, `clock`, `rand`/`srand`, `atexit`, `errno`.
//!
//! - `getenv(name)` is NULL unless the run was given `NAME=VALUE`
//!   ([`crate::InputOptions::env`]); replay runs the program with exactly that
//!   environment.
//! - `time` and `clock` return fresh inputs (any value is possible; the
//!   test records the one its path needs and replay feeds it back).
//! - `rand` follows glibc's generator exactly (seed 1 until `srand`), so a
//!   path's sequence is the native one; a symbolic seed is made concrete.
//! - `atexit` handlers run, last registered first, when `main` returns or
//!   `exit` is called.
//! - `__errno_location` points at one `int` per path (initially 0).
//! - `setlocale` answers "C" for the queries and "C"/"POSIX"/"" requests,
//!   NULL for other locales (only the C locale exists here).

use crate::exec::{End, Exec, ExecError, Outcome};
use crate::hooks::HookCall;
use crate::memory::{Cell, Kind as MemKind};
use crate::state::State;
use crate::term::{as_bv, bv};
use crate::value::Val;
use fpsym_expr::Sort;

/// The functions modelled here.
pub const MODELLED: &[&str] = &[
    "getenv",
    "secure_getenv",
    "setlocale",
    "time",
    "clock",
    "rand",
    "srand",
    "atexit",
    "__errno_location",
];

/// Linux's `EDOM` (a math function's argument outside its domain).
pub const EDOM: u32 = 33;
/// Linux's `ERANGE` (a math function's result out of range).
pub const ERANGE: u32 = 34;

/// Per-path process state.
#[derive(Clone, Debug, Default)]
pub struct ProcessEnv {
    /// glibc's `rand` state (None: not seeded yet, i.e. seed 1).
    rand: Option<GlibcRand>,
    /// `atexit` handlers (function addresses), in registration order.
    pub atexit: Vec<u64>,
    /// While the handlers run: the exit status to end with.
    pub exiting: Option<fpsym_expr::Term>,
    /// The path's `errno` object.
    errno: Option<u64>,
    /// Strings handed out by `getenv`/`setlocale` (the same pointer each
    /// time, as the C library's).
    strings: std::collections::BTreeMap<String, u64>,
}

/// glibc's `random_r` TYPE_3 generator (what `rand` uses): with `r` the
/// 31 words seeded from `s` by `r[i] = 16807 · r[i-1] mod (2^31 - 1)`,
/// then `r[i] = r[i-31]` for `i` in 31..34 and `r[i] = r[i-31] + r[i-3]`
/// (mod 2^32) after, output `k` is `r[k + 344] >> 1`.
#[derive(Clone, Debug)]
struct GlibcRand {
    /// The last 31 words, oldest first.
    window: Vec<u32>,
}

impl GlibcRand {
    fn new(seed: u32) -> GlibcRand {
        let seed = if seed == 0 { 1 } else { seed };
        let mut r: Vec<i64> = Vec::with_capacity(344);
        r.push(seed as i32 as i64);
        for i in 1..31 {
            // glibc's Schrage step, in 32-bit words as the C code stores them.
            let word = r[i - 1];
            let hi = word / 127_773;
            let lo = word % 127_773;
            let mut w = 16_807 * lo - 2_836 * hi;
            if w < 0 {
                w += 2_147_483_647;
            }
            r.push(w as i32 as i64);
        }
        let mut window: Vec<u32> = r.iter().map(|&x| x as u32).collect();
        for i in 31..34 {
            window.push(window[i - 31]);
        }
        let mut g = GlibcRand {
            window: window[3..].to_vec(),
        };
        // Words 34..344 are discarded.
        for _ in 34..344 {
            g.step();
        }
        g
    }

    fn step(&mut self) -> u32 {
        let next = self.window[0].wrapping_add(self.window[28]);
        self.window.remove(0);
        self.window.push(next);
        next
    }

    fn next(&mut self) -> i32 {
        (self.step() >> 1) as i32
    }
}

impl Exec<'_, '_> {
    /// Runs the model of an environment function (`name` in [`MODELLED`]).
    pub(crate) fn env_call(&mut self, st: &mut State, call: &HookCall<'_>) -> Result<Outcome, ExecError> {
        let HookCall { name, args, dest, loc } = *call;
        use super::{int_arg, set_result};
        let set = |st: &mut State, v: Val| set_result(st, dest, v);
        let arg = |k: usize| int_arg(name, args, k);
        match name {
            "getenv" | "secure_getenv" => {
                let var = self
                    .c_string(st, &arg(0)?)
                    .ok_or_else(|| ExecError::Unsupported(format!("{name} of a symbolic or invalid name")))?;
                let value = self
                    .config
                    .input
                    .env
                    .iter()
                    .find(|(n, _)| *n == var)
                    .map(|(_, v)| v.clone());
                let p = match value {
                    Some(v) => self.static_string(st, &format!("getenv({var})"), &v),
                    None => 0,
                };
                set(st, Val::Bv(bv(64, p as u128)));
            }
            "setlocale" => {
                let req = arg(1)?;
                let answer = if as_bv(&req) == Some(0) {
                    Some("C")
                } else {
                    match self.c_string(st, &req).as_deref() {
                        Some("" | "C" | "POSIX") => Some("C"),
                        Some(_) => None,
                        None => {
                            return Err(ExecError::Unsupported("setlocale of a symbolic locale name".into()));
                        }
                    }
                };
                let p = match answer {
                    Some(s) => self.static_string(st, "setlocale", s),
                    None => 0,
                };
                set(st, Val::Bv(bv(64, p as u128)));
            }
            // time_t and clock_t are `long`s.
            "time" => {
                let (w, ty) = self.long_type();
                let t = self.call_input(st, "time", loc, Sort::BitVec(w), ty);
                set(st, Val::Bv(t.clone()));
                let p = arg(0)?;
                if as_bv(&p) != Some(0) {
                    let ty = self.prog.module.types.int(w);
                    return self.store(st, &p, &Val::Bv(t), &ty, loc.clone());
                }
            }
            "clock" => {
                let (w, ty) = self.long_type();
                let t = self.call_input(st, "clock", loc, Sort::BitVec(w), ty);
                set(st, Val::Bv(t));
            }
            "srand" => {
                let s = arg(0)?;
                let seed = match as_bv(&s) {
                    Some(v) => v as u32,
                    None => self.concretize(st, &s, loc, "seed of srand") as u32,
                };
                st.env.rand = Some(GlibcRand::new(seed));
            }
            "rand" => {
                let g = st.env.rand.get_or_insert_with(|| GlibcRand::new(1));
                let v = g.next();
                set(st, Val::Bv(bv(32, v as u32 as u128)));
            }
            "atexit" => {
                let f = arg(0)?;
                let a = match as_bv(&f) {
                    Some(a) => a as u64,
                    None => self.concretize(st, &f, loc, "function pointer given to atexit") as u64,
                };
                st.env.atexit.push(a);
                set(st, Val::Bv(bv(32, 0)));
            }
            "__errno_location" => {
                let p = self.errno_object(st);
                set(st, Val::Bv(bv(64, p as u128)));
            }
            _ => return Err(ExecError::Unsupported(format!("environment function {name}"))),
        }
        Ok(Outcome::Continue)
    }

    /// The path's `errno` object (made, holding 0, on first use).
    /// The bits and test type of a C `long` (32 under ILP32, else 64).
    pub(crate) fn long_type(&self) -> (u32, &'static str) {
        if self.prog.layout.ilp32 {
            (32, "i32")
        } else {
            (64, "i64")
        }
    }

    fn errno_object(&mut self, st: &mut State) -> u64 {
        if let Some(p) = st.env.errno {
            return p;
        }
        let p = st
            .mem
            .allocate(4, 4, MemKind::Global, "errno", None, Cell::byte(bv(8, 0)));
        st.env.errno = Some(p);
        p
    }

    /// `errno = code` where `cond` holds (always when None), as glibc's
    /// math functions do on domain and range errors.
    pub(crate) fn set_errno(&mut self, st: &mut State, cond: Option<fpsym_expr::Term>, code: u32) {
        if cond.as_ref().and_then(crate::term::as_bool) == Some(false) {
            return;
        }
        let p = self.errno_object(st);
        let i32_ty = self.prog.module.types.i32();
        let new = bv(32, code as u128);
        let value = match cond {
            None => new,
            Some(c) => {
                let cells = st.mem.read(p, 0, 4);
                let old = self.value_of(st, &cells, &i32_ty);
                crate::term::mk(fpsym_expr::Op::Ite, vec![c, new, old.bv().clone()])
            }
        };
        let cells = self.cells_of(&Val::Bv(value), &i32_ty);
        st.mem.write(p, 0, &cells);
    }

    /// A NUL-terminated string in a global object, one per `what` on each
    /// path (asking again gives the same pointer); its address.
    fn static_string(&mut self, st: &mut State, what: &str, s: &str) -> u64 {
        let key = format!("{what}={s}");
        if let Some(p) = st.env.strings.get(&key) {
            return *p;
        }
        let bytes: Vec<Cell> = s
            .bytes()
            .chain(std::iter::once(0))
            .map(|c| Cell::byte(bv(8, c as u128)))
            .collect();
        let p = st
            .mem
            .allocate(bytes.len() as u64, 1, MemKind::Global, what, None, Cell::byte(bv(8, 0)));
        st.mem.write(p, 0, &bytes);
        st.env.strings.insert(key, p);
        p
    }

    /// The process ends with `code` (main returned or `exit` was called):
    /// the `atexit` handlers not yet run are called first, last registered
    /// first; the path ends when none is left.
    pub(crate) fn exit_with(
        &mut self,
        st: &mut State,
        code: fpsym_expr::Term,
        explicit: bool,
    ) -> Result<Outcome, ExecError> {
        // A handler that returns keeps the status being exited with; one
        // that calls `exit` itself replaces it (as glibc does).
        let saved = st.env.exiting.take();
        let code = match saved {
            Some(s) if !explicit => s,
            _ => code,
        };
        let Some(h) = st.env.atexit.pop() else {
            return Ok(Outcome::End(End::Exit(code)));
        };
        // `exit` does not unwind: the frames go, their locals stay valid
        // while the handlers run (a handler may read them through a pointer).
        st.frames.clear();
        st.env.exiting = Some(code);
        let callee = self
            .prog
            .fn_at
            .get(&h)
            .cloned()
            .ok_or_else(|| ExecError::Unsupported(format!("atexit handler at invalid address 0x{h:x}")))?;
        let crate::prog::Callee::Defined(i) = callee else {
            return Err(ExecError::Unsupported("an atexit handler without a body".into()));
        };
        st.frames.push(crate::state::Frame::new(i, self.prog.regs(i)));
        Ok(Outcome::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::GlibcRand;

    extern "C" {
        fn srand(seed: u32);
        fn rand() -> i32;
    }

    /// The model gives the host glibc's own sequence.
    #[test]
    fn rand_is_glibcs() {
        for seed in [1u32, 0, 42, 123_456_789, u32::MAX, 0x8000_0000] {
            let mut g = GlibcRand::new(seed);
            // SAFETY: srand/rand are plain libc calls; this test is the
            // only user of the generator in this process.
            unsafe { srand(seed) };
            for k in 0..1000 {
                assert_eq!(g.next(), unsafe { rand() }, "seed {seed}, output {k}");
            }
        }
    }
}
