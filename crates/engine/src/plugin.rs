//! Where a mode plugs into the engine without changing it: observers
//! (haybale's callbacks, KLEE's plug-in points), a branch oracle (which
//! sides of a branch a directed mode follows), and a per-state extension
//! slot for the mode's own data (shadow values, a position in a path).
//!
//! Checkers (conditions that would be bugs) are the other seam; they live
//! in [`crate::checkers`] and are chosen in [`crate::Extensions::checkers`].
//! Observers and the oracle are passed to [`crate::run`] in [`Plugins`]:
//! they belong to the mode that runs the engine, which reads their data
//! back after the run (`Box<dyn Observer>` upcasts to `dyn Any`).

use crate::exec::End;
use crate::state::{Loc, State};
use crate::value::Val;
use fpsym_expr::Term;
use std::any::Any;

/// A conditional branch about to be explored.
#[derive(Clone, Copy, Debug)]
pub struct Branch<'a> {
    /// The function's name.
    pub function: &'a str,
    /// The block (index in the function) ending in the branch.
    pub block: usize,
    /// The branch's source location.
    pub loc: Option<&'a Loc>,
    /// The condition of the `true` side (for a `switch`, the case's
    /// equality); its negation is the other side.
    pub cond: &'a Term,
    /// Which successor the `true` side is (0 for `br`; the case index for
    /// a `switch`, whose other side goes on to the next case).
    pub successor: usize,
}

/// Which sides of a branch to explore.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Follow {
    /// Both (whichever is feasible): plain symbolic execution.
    Both,
    /// Only the side where the condition holds.
    Then,
    /// Only the side where it does not.
    Else,
    /// Neither: the path ends here as infeasible (no test).
    Neither,
}

/// Calls after each instruction, at branches, at calls and returns, and at
/// path ends. Why this shape: a mode's analysis runs beside the engine's
/// (shadow values in higher precision, logs, coverage of its own), so it
/// needs the same events in the same order on each path but must not
/// decide anything; its data lives in the state's extension slot
/// ([`State::ext_mut`]) so that it forks with the state. Every method has
/// an empty default.
pub trait Observer: Any + Send {
    /// `inst` executed on `st` and the path goes on (also called for each
    /// state a fork split off that executed it, not for one split off to
    /// execute it again, e.g. for another target of a symbolic pointer;
    /// phis of a block are reported one by one after all of them were
    /// written; a call to a defined function is reported once the
    /// callee's frame is pushed, its result comes with
    /// [`Observer::at_return`]). Terminators are reported through
    /// [`Observer::at_branch`] and [`Observer::at_return`].
    fn after_instruction(&mut self, _st: &mut State, _inst: &llvm_ir::Instruction) {}
    /// `st` took one side of `branch`: `taken` says whether its condition
    /// holds on this side.
    fn at_branch(&mut self, _st: &mut State, _branch: &Branch<'_>, _taken: bool) {}
    /// `st` calls `callee` with `args`: told once the call was made (the
    /// callee's frame pushed, or a modelled function's result set, then
    /// [`Observer::at_return`] follows at once), never for a state split
    /// off to make the call again.
    fn at_call(&mut self, _st: &mut State, _callee: &str, _args: &[Val]) {}
    /// The function on top of `st`'s stack returns `operand` (its frame
    /// still there, so the operand's register can be read; the entry
    /// function's return too).
    fn before_return(&mut self, _st: &mut State, _operand: Option<&llvm_ir::Operand>) {}
    /// A call to `callee` returned on `st` with `result`.
    fn at_return(&mut self, _st: &mut State, _callee: &str, _result: Option<&Val>) {}
    /// `st`'s path ended so.
    fn at_path_end(&mut self, _st: &State, _end: &End) {}
    /// Whether the concrete fast path ([`crate::fast`]) may run while this
    /// observer watches. It then sees nothing of what runs there: no
    /// instruction, call or return, no branch on a concrete condition;
    /// so true suits observers that follow only the path condition (which
    /// those steps leave unchanged). Default: false (the fast path is off).
    fn fast_path_ok(&self) -> bool {
        false
    }
}

/// Decides which sides of each branch a directed mode follows. Why this
/// shape: the path mode follows one given path, the line mode prunes
/// states that cannot reach the target, seeded search replays an input;
/// all are a choice per branch made before the solver is asked, so an
/// excluded side costs no query (unless [`BranchOracle::test_excluded`]
/// asks for its test). The engine still asks the solver about
/// each followed side: an oracle never makes an infeasible side feasible.
pub trait BranchOracle: Any + Send {
    /// Which sides of `branch` `st` follows.
    fn decide(&mut self, st: &State, branch: &Branch<'_>) -> Follow;
    /// How soon `st` should run, higher first (with the `coverage-new`
    /// search, which runs the highest priority): e.g. minus its distance
    /// to a target. None: the engine's own (new coverage first). Default:
    /// None.
    fn priority(&self, _st: &State) -> Option<i64> {
        None
    }
    /// Whether a branch on a concrete condition may go to its one side
    /// without asking this oracle (on the concrete fast path): true for
    /// oracles that never exclude that side. Default: false (such
    /// branches go to the executor, which asks).
    fn fast_path_ok(&self) -> bool {
        false
    }
    /// Whether a feasible side this oracle excludes ends with a test
    /// ([`crate::exec::End::Pruned`]), so that replay checks natively
    /// what the exclusion claims: true for a directed run's target, whose
    /// "infeasible" rests on it. Default: false (the side is dropped).
    fn test_excluded(&self) -> bool {
        false
    }
}

/// What a mode plugs into one run.
#[derive(Default)]
pub struct Plugins {
    /// Called in order at each event.
    pub observers: Vec<Box<dyn Observer>>,
    /// Decides the sides of branches (None: both).
    pub oracle: Option<Box<dyn BranchOracle>>,
}

impl Plugins {
    /// The observer of type `T`, if one was plugged in.
    pub fn observer<T: Observer>(&self) -> Option<&T> {
        self.observers
            .iter()
            .find_map(|o| (o.as_ref() as &dyn Any).downcast_ref())
    }
    /// The oracle, as type `T`.
    pub fn oracle<T: BranchOracle>(&self) -> Option<&T> {
        self.oracle.as_deref().and_then(|o| (o as &dyn Any).downcast_ref())
    }
}

/// A value a state carries for a mode: cloned when the state forks.
trait Slot: Any + Send + Sync {
    fn clone_slot(&self) -> Box<dyn Slot>;
}

impl<T: Any + Clone + Send + Sync> Slot for T {
    fn clone_slot(&self) -> Box<dyn Slot> {
        Box::new(self.clone())
    }
}

/// The per-state extension slot: at most one value of each type, cloned
/// with the state on a fork.
#[derive(Default)]
pub struct Extensions(Vec<Box<dyn Slot>>);

impl Clone for Extensions {
    fn clone(&self) -> Self {
        Extensions(self.0.iter().map(|s| (**s).clone_slot()).collect())
    }
}

impl std::fmt::Debug for Extensions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Extensions({} values)", self.0.len())
    }
}

impl Extensions {
    /// The value of type `T`, if set.
    pub fn get<T: Any>(&self) -> Option<&T> {
        self.0.iter().find_map(|s| (s.as_ref() as &dyn Any).downcast_ref())
    }
    /// The value of type `T`, set to `T::default()` first if absent.
    pub fn get_mut<T: Any + Clone + Send + Sync + Default>(&mut self) -> &mut T {
        let k = match self.0.iter().position(|s| (s.as_ref() as &dyn Any).is::<T>()) {
            Some(k) => k,
            None => {
                self.0.push(Box::new(T::default()));
                self.0.len() - 1
            }
        };
        (self.0[k].as_mut() as &mut dyn Any)
            .downcast_mut()
            .expect("the slot holds a T")
    }
}

impl State {
    /// The mode's data of type `T` on this path, if set.
    pub fn ext<T: Any>(&self) -> Option<&T> {
        self.ext.get()
    }
    /// The mode's data of type `T` on this path (created with its default
    /// on first use).
    pub fn ext_mut<T: Any + Clone + Send + Sync + Default>(&mut self) -> &mut T {
        self.ext.get_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Default, PartialEq, Debug)]
    struct Shadow(Vec<u32>);

    #[test]
    fn extensions_fork_with_their_state() {
        let mut a = Extensions::default();
        a.get_mut::<Shadow>().0.push(1);
        *a.get_mut::<u64>() = 7;
        let mut b = a.clone();
        b.get_mut::<Shadow>().0.push(2);
        assert_eq!(a.get::<Shadow>(), Some(&Shadow(vec![1])));
        assert_eq!(b.get::<Shadow>(), Some(&Shadow(vec![1, 2])));
        assert_eq!(b.get::<u64>(), Some(&7));
        assert_eq!(a.get::<i32>(), None);
    }
}
