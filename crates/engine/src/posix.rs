//! Symbolic command-line arguments and standard input of a `main` run, as
//! KLEE's POSIX runtime gives them: `--sym-arg N` (one more argument, a
//! string of up to N characters), `--sym-args MIN MAX N` (between MIN and
//! MAX more, each of up to N characters) and `--sym-stdin N` (standard
//! input holds N symbolic bytes, then end of file).
//!
//! Each argument is an input object of N + 1 bytes named `argv[1]`,
//! `argv[2]`, ... (its position in `argv`): the first N are symbolic, the
//! last is NUL, and every byte after the first NUL is NUL too (so a test
//! holds the string exactly as replay passes it to the process, and a
//! string of k < N characters has one set of bytes). The count of a
//! `--sym-args` group is not an input: the run starts one path per count
//! (per combination of counts for several groups), and a test lists the
//! arguments its path had. Standard input is the object `stdin` of N
//! bytes, created after the arguments; fpsym's C runtime (`stdio.c`) reads
//! it through the globals `fpsym_stdin_data` and `fpsym_stdin_size`, which
//! the run sets when the program has them (that is, when it calls a
//! reading function). Without `--sym-stdin` standard input is empty: the
//! first read returns end of file, as natively with `/dev/null`.
//!
//! Replay knows these objects from the run record
//! ([`fpsym_report::RunRecord::sym_args`], `sym_stdin`): the arguments
//! come first in a test's objects, then `stdin`; names the program gives
//! its own inputs cannot collide, since names are made unique in creation
//! order (a later `stdin` is `stdin#1`).

use crate::exec::Exec;
use crate::memory::{Cell, Kind as MemKind};
use crate::shape::Shape;
use crate::state::{State, Symbolic};
use crate::term::{bv, mk};
use crate::value::Val;
use fpsym_expr::{Op, Sort, Term};

pub use fpsym_report::SymArgs;

/// The longest symbolic argument (`N` of `--sym-arg N`).
pub const MAX_ARG_LEN: u32 = 4096;
/// The most symbolic bytes of standard input.
pub const MAX_STDIN: u64 = 1 << 20;
/// The most combinations of `--sym-args` counts (initial paths) a run
/// starts with.
pub const MAX_LAYOUTS: usize = 4096;

/// The global of fpsym's C runtime pointing to standard input's bytes.
pub const STDIN_DATA: &str = "fpsym_stdin_data";
/// The global of fpsym's C runtime holding standard input's length.
pub const STDIN_SIZE: &str = "fpsym_stdin_size";
/// The name of the standard input object in tests.
pub const STDIN_OBJECT: &str = "stdin";

/// What of a `main` run's command line and standard input is symbolic.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SymIo {
    /// Argument groups in command-line order (`--sym-arg N` is `{min: 1,
    /// max: 1, len: N}`).
    pub args: Vec<SymArgs>,
    /// `--sym-stdin N`: N symbolic bytes on standard input (None: empty).
    pub stdin: Option<u64>,
}

impl SymIo {
    /// Neither symbolic arguments nor symbolic standard input.
    pub fn is_empty(&self) -> bool {
        self.args.is_empty() && self.stdin.is_none()
    }

    /// Checks the bounds (MIN ≤ MAX, lengths at most [`MAX_ARG_LEN`],
    /// standard input at most [`MAX_STDIN`] bytes, at most
    /// [`MAX_LAYOUTS`] combinations of counts); the message names the
    /// flag.
    pub fn validate(&self) -> Result<(), String> {
        for a in &self.args {
            let flag = if a.min == 1 && a.max == 1 {
                format!("--sym-arg {}", a.len)
            } else {
                format!("--sym-args {} {} {}", a.min, a.max, a.len)
            };
            if a.min > a.max {
                return Err(format!("{flag}: MIN is larger than MAX"));
            }
            if a.len > MAX_ARG_LEN {
                return Err(format!("{flag}: at most {MAX_ARG_LEN} characters per argument"));
            }
        }
        if let Some(n) = self.stdin {
            if n > MAX_STDIN {
                return Err(format!("--sym-stdin {n}: at most {MAX_STDIN} bytes"));
            }
        }
        let combos = self
            .args
            .iter()
            .try_fold(1usize, |acc, a| acc.checked_mul((a.max - a.min) as usize + 1))
            .filter(|c| *c <= MAX_LAYOUTS);
        if combos.is_none() {
            return Err(format!(
                "--sym-args: more than {MAX_LAYOUTS} combinations of argument counts (one initial path each)"
            ));
        }
        Ok(())
    }

    /// Every argument list the run starts a path with: the maximal length
    /// of each argument, in order; one list per combination of the
    /// groups' counts (fewest arguments first).
    pub fn layouts(&self) -> Vec<Vec<u32>> {
        let mut out: Vec<Vec<u32>> = vec![Vec::new()];
        for a in &self.args {
            let mut next = Vec::new();
            for prefix in &out {
                for k in a.min..=a.max {
                    let mut l = prefix.clone();
                    l.extend(std::iter::repeat_n(a.len, k as usize));
                    next.push(l);
                }
            }
            out = next;
        }
        out
    }
}

impl Exec<'_, '_> {
    /// `argv` for `main`: `{"prog", argv[1], ..., NULL}` with one
    /// symbolic string object per entry of `lens` (its maximal length);
    /// returns the address of the array.
    pub(crate) fn sym_argv(&mut self, st: &mut State, lens: &[u32]) -> u64 {
        let prog = st
            .mem
            .allocate(5, 16, MemKind::Global, "argv[0]", None, Cell::byte(bv(8, 0)));
        let cells: Vec<Cell> = b"prog\0".iter().map(|c| Cell::byte(bv(8, *c as u128))).collect();
        st.mem.write(prog, 0, &cells);
        let mut entries = vec![prog];
        for (k, len) in lens.iter().enumerate() {
            entries.push(self.sym_string(st, &format!("argv[{}]", k + 1), *len));
        }
        let ptr = self.prog.layout.pointer_bytes();
        let size = ptr * (entries.len() as u64 + 1);
        let argv = st
            .mem
            .allocate(size, 16, MemKind::Global, "argv", None, Cell::byte(bv(8, 0)));
        let ptr_ty = self.prog.module.types.pointer_to(self.prog.module.types.i8());
        for (k, e) in entries.iter().enumerate() {
            let c = self.cells_of(&Val::Bv(bv(64, *e as u128)), &ptr_ty);
            st.mem.write(argv, ptr * k as u64, &c);
        }
        argv
    }

    /// A symbolic C string object `name` of `len + 1` bytes: `len`
    /// symbolic characters, then NUL; every byte after the first NUL is
    /// NUL. Recorded as an input; returns its address.
    fn sym_string(&mut self, st: &mut State, name: &str, len: u32) -> u64 {
        let n = len as u64 + 1;
        let name = st.unique_name(name);
        let base = st
            .mem
            .allocate(n, 1, MemKind::Global, &name, None, Cell::byte(bv(8, 0)));
        let mut bytes: Vec<Term> = (0..len as u64)
            .map(|i| self.input_term(&name, st.symbolics.len(), &format!("{name}[{i}]"), Sort::BitVec(8), i))
            .collect();
        bytes.push(bv(8, 0));
        let zero = |b: &Term| mk(Op::Eq, vec![b.clone(), bv(8, 0)]);
        for w in bytes.windows(2) {
            st.constrain(mk(Op::Implies, vec![zero(&w[0]), zero(&w[1])]));
        }
        let cells: Vec<Cell> = bytes.iter().map(|b| Cell::byte(b.clone())).collect();
        st.mem.write(base, 0, &cells);
        let char_shape = Shape::Int {
            ty: "char".into(),
            bits: 8,
            signed: true,
        };
        let shape = Shape::array(char_shape, n, 8);
        st.symbolics.push(Symbolic {
            name,
            ty: shape.ty().to_string(),
            bytes,
            shape: Some(shape),
            elements_root: None,
            site: None,
        });
        base
    }

    /// `--sym-stdin n`: the input object `stdin` of `n` symbolic bytes,
    /// handed to the C runtime's reading functions through its globals
    /// (when the program has them).
    pub(crate) fn sym_stdin(&mut self, st: &mut State, n: u64) {
        let name = st.unique_name(STDIN_OBJECT);
        let base = st
            .mem
            .allocate(n.max(1), 1, MemKind::Global, &name, None, Cell::byte(bv(8, 0)));
        let bytes: Vec<Term> = (0..n)
            .map(|i| self.input_term(&name, st.symbolics.len(), &format!("{name}[{i}]"), Sort::BitVec(8), i))
            .collect();
        let cells: Vec<Cell> = bytes.iter().map(|b| Cell::byte(b.clone())).collect();
        st.mem.write(base, 0, &cells);
        st.symbolics.push(Symbolic {
            name,
            ty: format!("u8[{n}]"),
            bytes,
            shape: None,
            elements_root: None,
            site: None,
        });
        let types = &self.prog.module.types;
        let (ptr_ty, size_ty) = (types.pointer_to(types.i8()), types.i64());
        if let Some(&g) = self.globals.get(STDIN_DATA) {
            let c = self.cells_of(&Val::Bv(bv(64, base as u128)), &ptr_ty);
            st.mem.write(g, 0, &c);
        }
        if let Some(&g) = self.globals.get(STDIN_SIZE) {
            let c = self.cells_of(&Val::Bv(bv(64, n as u128)), &size_ty);
            st.mem.write(g, 0, &c);
        }
    }

    /// With [`crate::InputOptions::finite_inputs`], a float input variable `t`
    /// is neither NaN nor infinite on this path (other sorts: nothing).
    pub(crate) fn finite_input(&self, st: &mut State, t: &Term) {
        if self.config.input.finite_inputs && matches!(t.sort(), Sort::Float(_)) {
            st.constrain(mk(Op::Not, vec![mk(Op::FpIsNaN, vec![t.clone()])]));
            st.constrain(mk(Op::Not, vec![mk(Op::FpIsInfinite, vec![t.clone()])]));
        }
    }

    /// [`Exec::finite_input`] for every float of a value (the scalars of
    /// an aggregate).
    pub(crate) fn finite_value(&self, st: &mut State, v: &Val) {
        match v {
            Val::Fp(t) => self.finite_input(st, t),
            Val::Agg(items) => items.iter().for_each(|i| self.finite_value(st, i)),
            Val::Bv(_) => {}
        }
    }
}

/// What a finding's test prefers of the symbolic arguments and standard
/// input of a path (asked first, dropped when the path cannot have it):
/// every argument byte printable ASCII or NUL, every standard input byte
/// printable ASCII, a newline or a tab. Empty without symbolic arguments
/// and standard input.
pub(crate) fn preferences(io: &SymIo, st: &State) -> Vec<Term> {
    if io.is_empty() {
        return Vec::new();
    }
    let printable = |b: &Term| {
        mk(
            Op::And,
            vec![
                mk(Op::BvUge, vec![b.clone(), bv(8, 0x20)]),
                mk(Op::BvUle, vec![b.clone(), bv(8, 0x7e)]),
            ],
        )
    };
    let either = |b: &Term, c: u8| {
        mk(
            Op::Or,
            vec![printable(b), mk(Op::Eq, vec![b.clone(), bv(8, c as u128)])],
        )
    };
    let mut out = Vec::new();
    // The engine's objects come first: the arguments, then stdin.
    let mut k = 1;
    for s in &st.symbolics {
        if s.name == format!("argv[{k}]") && !io.args.is_empty() {
            out.extend(s.bytes.iter().map(|b| either(b, 0)));
            k += 1;
        } else if s.name == STDIN_OBJECT && io.stdin.is_some() {
            out.extend(s.bytes.iter().map(|b| {
                mk(
                    Op::Or,
                    vec![either(b, b'\n'), mk(Op::Eq, vec![b.clone(), bv(8, b'\t' as u128)])],
                )
            }));
            break;
        } else {
            break;
        }
    }
    out.retain(|t| crate::term::as_bool(t) != Some(true));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_are_every_combination_of_counts_in_order() {
        let io = SymIo {
            args: vec![
                SymArgs { min: 1, max: 1, len: 3 },
                SymArgs { min: 0, max: 2, len: 2 },
                SymArgs { min: 1, max: 1, len: 5 },
            ],
            stdin: None,
        };
        assert_eq!(io.layouts(), vec![vec![3, 5], vec![3, 2, 5], vec![3, 2, 2, 5]]);
        assert_eq!(SymIo::default().layouts(), vec![Vec::<u32>::new()]);
        assert!(io.validate().is_ok());
        let bad = SymIo {
            args: vec![SymArgs { min: 2, max: 1, len: 1 }],
            stdin: None,
        };
        assert!(bad.validate().unwrap_err().contains("--sym-args 2 1 1"));
        let big = SymIo {
            args: vec![
                SymArgs {
                    min: 0,
                    max: 100,
                    len: 1
                };
                2
            ],
            stdin: None,
        };
        assert!(big.validate().is_err());
        let stdin = SymIo {
            args: vec![],
            stdin: Some(MAX_STDIN + 1),
        };
        assert!(stdin.validate().unwrap_err().starts_with("--sym-stdin"));
    }
}
