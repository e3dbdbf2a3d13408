//! Every path of a program (seed 000's Table III: each path up to a loop
//! bound with its verdict): an observer and an oracle that, beside a plain
//! exploration, log the decisions each path took, the constraint it ended
//! with, and each branch side the run found no state on (an infeasible
//! path, named by its shortest infeasible prefix). The mode then decides
//! each logged path again on its own ([`PathLog`] keeps the constraints),
//! as the seed does, to time each one and to prove the infeasible ones.
//!
//! An infeasible path is counted once, at the decision that made it so:
//! every longer path through that decision is infeasible too, and is not
//! listed again (a syntactic enumeration would list each of them).

use crate::exec::End;
use crate::plugin::{Branch, BranchOracle, Follow, Observer};
use crate::state::State;
use crate::term::mk;
use fpsym_expr::{Op, Term};
use llvm_ir::{Module, Terminator};
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// One decision of a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The branch's source file as recorded ("" when unknown).
    pub file: String,
    /// Its line (0 when unknown).
    pub line: u32,
    /// Its column (0 when unknown).
    pub column: u32,
    /// For a `switch`, the case (index in its case list) this two-way
    /// decision compares against; None for a conditional branch.
    pub case: Option<usize>,
    /// The side: true for the condition (a switch: the case) holding.
    pub taken: bool,
}

/// How a logged path ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The program returned or exited.
    Exit,
    /// A finding ended it (its kind).
    Failure(String),
    /// The exploration stopped it (a loop bound, an unsupported construct):
    /// not a complete path.
    Cut(String),
    /// The run gave up on the branch side it ends with: the solver could
    /// not decide it in time (why). Its constraint includes the side.
    Undecided(String),
    /// A branch side no state went on to, or one set aside undecided and
    /// refuted when asked again: infeasible, unless the run could not
    /// decide it (the mode decides it again).
    NotTaken,
}

/// A path of the run.
#[derive(Clone, Debug)]
pub struct LoggedPath {
    /// Its decisions, in execution order (the last one is the side not
    /// taken for [`Ending::NotTaken`]).
    pub decisions: Vec<Decision>,
    /// The path constraint (with the inputs' ranges) in which it ends.
    pub constraint: Vec<Term>,
    /// How it ends.
    pub ending: Ending,
}

/// A branch being forked: which sides a state went on to.
struct Site {
    decisions: Arc<Vec<Decision>>,
    constraint: Vec<Term>,
    cond: Term,
    at: Decision,
    seen: [bool; 2],
}

/// The paths of a run, shared by [`EnumerateOracle`] and
/// [`EnumerateObserver`] and read by the mode after the run.
#[derive(Default)]
pub struct PathLog {
    /// The paths, in the order they ended (the side not taken at a branch
    /// once the run has moved past it).
    pub paths: Vec<LoggedPath>,
    site: Option<Site>,
}

impl PathLog {
    /// Closes the branch being forked: each side no state went on to is a
    /// path ([`Ending::NotTaken`]).
    fn close(&mut self) {
        let Some(s) = self.site.take() else { return };
        for (side, seen) in [(false, s.seen[0]), (true, s.seen[1])] {
            if seen {
                continue;
            }
            let mut decisions = (*s.decisions).clone();
            decisions.push(Decision {
                taken: side,
                ..s.at.clone()
            });
            let mut constraint = s.constraint.clone();
            constraint.push(if side {
                s.cond.clone()
            } else {
                mk(Op::Not, vec![s.cond.clone()])
            });
            self.paths.push(LoggedPath {
                decisions,
                constraint,
                ending: Ending::NotTaken,
            });
        }
    }
    /// The paths, once the run is over.
    pub fn finish(&mut self) -> Vec<LoggedPath> {
        self.close();
        std::mem::take(&mut self.paths)
    }
}

/// The decisions a state has taken (its extension slot).
#[derive(Clone, Debug, Default)]
struct Taken(Arc<Vec<Decision>>);

/// The switches of a module, to tell their case decisions from branches.
fn switches(module: &Module) -> HashSet<(String, usize)> {
    let mut out = HashSet::new();
    for f in &module.functions {
        for (i, b) in f.basic_blocks.iter().enumerate() {
            if matches!(b.term, Terminator::Switch(_)) {
                out.insert((f.name.clone(), i));
            }
        }
    }
    out
}

/// Where a branch is, as a decision (side to be set).
fn decision(branch: &Branch<'_>, switches: &HashSet<(String, usize)>) -> Decision {
    let is_switch = switches.contains(&(branch.function.to_string(), branch.block));
    Decision {
        file: branch.loc.map(|l| l.file.clone()).unwrap_or_default(),
        line: branch.loc.map_or(0, |l| l.line),
        column: branch.loc.map_or(0, |l| l.column),
        case: is_switch.then_some(branch.successor),
        taken: false,
    }
}

/// Follows both sides of every branch, noting each branch in the log
/// before it forks.
pub struct EnumerateOracle {
    log: Arc<Mutex<PathLog>>,
    switches: HashSet<(String, usize)>,
}

impl BranchOracle for EnumerateOracle {
    fn decide(&mut self, st: &State, branch: &Branch<'_>) -> Follow {
        let mut log = self.log.lock().unwrap_or_else(|e| e.into_inner());
        log.close();
        log.site = Some(Site {
            decisions: st.ext::<Taken>().map(|t| t.0.clone()).unwrap_or_default(),
            constraint: st.path.clone(),
            cond: branch.cond.clone(),
            at: decision(branch, &self.switches),
            seen: [false, false],
        });
        Follow::Both
    }
}

/// Records the side each state takes, and each path's end.
pub struct EnumerateObserver {
    log: Arc<Mutex<PathLog>>,
    switches: HashSet<(String, usize)>,
}

impl Observer for EnumerateObserver {
    fn at_branch(&mut self, st: &mut State, branch: &Branch<'_>, taken: bool) {
        let mut d = decision(branch, &self.switches);
        d.taken = taken;
        {
            let mut log = self.log.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(s) = log.site.as_mut() {
                if s.at.file == d.file && s.at.line == d.line && s.at.column == d.column && s.at.case == d.case {
                    s.seen[taken as usize] = true;
                }
            }
        }
        let t = &mut st.ext_mut::<Taken>().0;
        Arc::make_mut(t).push(d);
    }
    fn at_path_end(&mut self, st: &State, end: &End) {
        let ending = match end {
            End::Exit(_) => Ending::Exit,
            End::Error(v) => Ending::Failure(v.kind.to_string()),
            End::Partial(crate::report::Partial::Refuted { .. }) => Ending::NotTaken,
            End::Partial(crate::report::Partial::Dropped(w)) => Ending::Undecided(w.clone()),
            End::Partial(why) => Ending::Cut(why.to_string()),
            // Excluded by an assumption: not a path of the program; or
            // cut where it could no longer reach a target.
            End::Infeasible | End::Pruned => return,
        };
        let mut log = self.log.lock().unwrap_or_else(|e| e.into_inner());
        log.paths.push(LoggedPath {
            decisions: st.ext::<Taken>().map(|t| (*t.0).clone()).unwrap_or_default(),
            constraint: st.path.clone(),
            ending,
        });
    }
}

/// The oracle and observer that log every path of a run of `module` into
/// the returned log.
pub fn enumerate(module: &Module) -> (EnumerateOracle, EnumerateObserver, Arc<Mutex<PathLog>>) {
    let log = Arc::new(Mutex::new(PathLog::default()));
    let sw = switches(module);
    (
        EnumerateOracle {
            log: log.clone(),
            switches: sw.clone(),
        },
        EnumerateObserver {
            log: log.clone(),
            switches: sw,
        },
        log,
    )
}
