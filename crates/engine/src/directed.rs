//! Directed search (seed 000's question: which input takes this path, or
//! reaches this line?): a target given by source lines, the analysis of
//! which blocks can still reach it, a [`BranchOracle`] that follows only
//! the sides that can (closest first), and the checker that ends a path
//! with a finding where the goal is met.
//!
//! Pruning is sound: a side is excluded only when no path from it reaches
//! the target, over the control-flow graphs and the call graph (a call
//! through a pointer may reach any function; every call may return; after
//! the entry function returns or `exit` is called, the `atexit` handlers
//! and destructors the program registers run, a handler given through a
//! pointer being any function). So
//! when a directed run explores every path it lets through exactly and
//! finds nothing, nothing reaches the target
//! ([`crate::Summary::directed_incomplete`] is None).

use crate::checkers::{Check, Checker, Kind, Point, PointKind};
use crate::plugin::{Branch, BranchOracle, Follow, Observer};
use crate::prog::{functions_named, strip_casts, successors};
use crate::state::State;
use fpsym_expr::Term;
use llvm_ir::{Constant, Function, Instruction, Module, Name, Operand, Terminator};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::sync::Arc;

pub mod order;

pub use fpsym_report::{PATH_FOLLOWED, REACHED};

/// Whether a debug location's file is `file` (as given on the command
/// line: the same path, or the same name when only a name is given).
fn same_file(recorded: &str, file: Option<&str>) -> bool {
    let Some(file) = file else { return true };
    if recorded == file || recorded.ends_with(&format!("/{file}")) {
        return true;
    }
    let name = |p: &str| std::path::Path::new(p).file_name().map(|n| n.to_owned());
    !file.contains('/') && name(recorded) == name(file)
}

/// The line of a debug location in `file` (any, if None).
fn loc_line(d: &Option<llvm_ir::DebugLoc>, file: Option<&str>) -> Option<u32> {
    crate::state::loc_of(d)
        .filter(|l| same_file(&l.file, file))
        .map(|l| l.line)
}

/// A branch's (line, column) when it is on one of `lines` of `file`.
fn on_lines(branch: &Branch<'_>, file: Option<&str>, lines: &BTreeSet<u32>) -> Option<(u32, u32)> {
    let l = branch.loc?;
    (same_file(&l.file, file) && lines.contains(&l.line)).then_some((l.line, l.column))
}

/// The direct callee of a call, or None for a call through a pointer.
fn callee(i: &Instruction) -> Option<Option<&str>> {
    let Instruction::Call(c) = i else { return None };
    Some(match &c.function {
        either::Either::Right(Operand::ConstantOperand(k)) => match strip_casts(k) {
            Constant::GlobalReference {
                name: Name::Name(n), ..
            } => Some(n.as_str()),
            _ => None,
        },
        _ => None,
    })
}

/// The functions the program registers to run at exit: the first
/// argument of each `atexit`, `on_exit` and `__cxa_atexit` call (None:
/// given through a pointer, any function), and the destructors of
/// `llvm.global_dtors`.
fn exit_handlers(module: &Module, index: &HashMap<String, usize>) -> Vec<Option<usize>> {
    let mut out = Vec::new();
    for f in &module.functions {
        for b in &f.basic_blocks {
            for i in &b.instrs {
                let Instruction::Call(c) = i else { continue };
                if !matches!(callee(i), Some(Some("atexit" | "on_exit" | "__cxa_atexit"))) {
                    continue;
                }
                match c.arguments.first().map(|(o, _)| o) {
                    Some(Operand::ConstantOperand(k)) => {
                        let mut named = Vec::new();
                        functions_named(k, index, &mut named);
                        if named.is_empty() {
                            out.push(None);
                        }
                        out.extend(named.into_iter().map(Some));
                    }
                    _ => out.push(None),
                }
            }
        }
    }
    for g in &module.global_vars {
        if matches!(&g.name, Name::Name(n) if n.as_str() == "llvm.global_dtors") {
            if let Some(k) = &g.initializer {
                let mut named = Vec::new();
                functions_named(k, index, &mut named);
                out.extend(named.into_iter().map(Some));
            }
        }
    }
    out
}

/// Which blocks can still reach a target: per function (module order) and
/// block, whether a path from the block's start reaches it in this
/// function or a callee, whether it can return, and a distance in blocks.
#[derive(Debug)]
pub struct Reachability {
    /// Function name → index.
    index: HashMap<String, usize>,
    /// Per function, per block: reaches the target (here or in a callee).
    reaches: Vec<Vec<bool>>,
    /// An exit handler reaches the target: code run after the entry
    /// function returns (`atexit` handlers, destructors) may.
    escape: bool,
    /// Per function, per block: can reach a `ret`.
    returns: Vec<Vec<bool>>,
    /// Per function, per block: blocks to the nearest one holding the
    /// target or a call into it (None: cannot reach).
    distance: Vec<Vec<Option<u32>>>,
    /// Per function, per block: successor block indices.
    succ: Vec<Vec<Vec<usize>>>,
}

impl Reachability {
    /// The blocks of `module` from which `is_target` (a function and one
    /// of its blocks) can be reached.
    pub fn new(module: &Module, is_target: impl Fn(&Function, &llvm_ir::BasicBlock) -> bool) -> Reachability {
        let funcs = &module.functions;
        let index: HashMap<String, usize> = funcs.iter().enumerate().map(|(i, f)| (f.name.clone(), i)).collect();
        let succ: Vec<Vec<Vec<usize>>> = funcs
            .iter()
            .map(|f| {
                let at: HashMap<&Name, usize> = f.basic_blocks.iter().enumerate().map(|(i, b)| (&b.name, i)).collect();
                f.basic_blocks
                    .iter()
                    .map(|b| {
                        successors(&b.term)
                            .into_iter()
                            .filter_map(|n| at.get(n).copied())
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let targets: Vec<Vec<bool>> = funcs
            .iter()
            .map(|f| f.basic_blocks.iter().map(|b| is_target(f, b)).collect())
            .collect();
        // Calls per block: direct callees (defined ones), and whether there
        // is a call through a pointer or to `exit` (which runs the
        // `atexit` handlers: functions called through pointers too).
        let calls: Vec<Vec<(Vec<usize>, bool)>> = funcs
            .iter()
            .map(|f| {
                f.basic_blocks
                    .iter()
                    .map(|b| {
                        let mut direct = Vec::new();
                        let mut indirect = false;
                        for i in &b.instrs {
                            match callee(i) {
                                Some(Some("exit")) => indirect = true,
                                Some(Some(n)) => direct.extend(index.get(n).copied()),
                                Some(None) => indirect = true,
                                None => {}
                            }
                        }
                        (direct, indirect)
                    })
                    .collect()
            })
            .collect();
        let backward = |f: usize, seed: &dyn Fn(usize) -> bool| -> Vec<Option<u32>> {
            let n = succ[f].len();
            let mut pred: Vec<Vec<usize>> = vec![Vec::new(); n];
            for (b, ss) in succ[f].iter().enumerate() {
                for &s in ss {
                    pred[s].push(b);
                }
            }
            let mut d: Vec<Option<u32>> = vec![None; n];
            let mut q = VecDeque::new();
            for (b, slot) in d.iter_mut().enumerate() {
                if seed(b) {
                    *slot = Some(0);
                    q.push_back(b);
                }
            }
            while let Some(b) = q.pop_front() {
                let next = d[b].expect("queued blocks have a distance") + 1;
                for &p in &pred[b] {
                    if d[p].is_none() {
                        d[p] = Some(next);
                        q.push_back(p);
                    }
                }
            }
            d
        };
        // Functions whose entry reaches the target: a fixpoint over the
        // call graph.
        let mut entry_reaches = vec![false; funcs.len()];
        let mut distance: Vec<Vec<Option<u32>>>;
        loop {
            let any = entry_reaches.iter().any(|r| *r);
            distance = (0..funcs.len())
                .map(|f| {
                    backward(f, &|b| {
                        targets[f][b] || calls[f][b].0.iter().any(|g| entry_reaches[*g]) || (calls[f][b].1 && any)
                    })
                })
                .collect();
            let next: Vec<bool> = distance
                .iter()
                .map(|d| d.first().is_some_and(|x| x.is_some()))
                .collect();
            if next == entry_reaches {
                break;
            }
            entry_reaches = next;
        }
        // After the entry function returns (or `exit`), the program's
        // `atexit` handlers and destructors run: the target is still
        // reachable then if one of them reaches it (a handler given as a
        // pointer may be any function).
        let escape = exit_handlers(module, &index)
            .into_iter()
            .any(|h| h.map_or(entry_reaches.iter().any(|r| *r), |f| entry_reaches[f]));
        let reaches = distance
            .iter()
            .map(|d| d.iter().map(|x| x.is_some()).collect())
            .collect();
        let returns = funcs
            .iter()
            .enumerate()
            .map(|(f, func)| {
                backward(f, &|b| matches!(func.basic_blocks[b].term, Terminator::Ret(_)))
                    .into_iter()
                    .map(|x| x.is_some())
                    .collect()
            })
            .collect();
        Reachability {
            index,
            escape,
            reaches,
            returns,
            distance,
            succ,
        }
    }

    /// Whether a state in block `b` of function `f` whose callers wait in
    /// `callers` (innermost first: function, block) can reach the target.
    fn can_reach(&self, f: usize, b: usize, callers: &mut dyn Iterator<Item = (usize, usize)>) -> bool {
        if self.reaches[f][b] {
            return true;
        }
        if !self.returns[f][b] {
            return false;
        }
        for (cf, cb) in callers {
            // The caller goes on after the call, somewhere in its block
            // (counted as the whole block: an over-approximation).
            if self.reaches[cf][cb] {
                return true;
            }
            if !self.returns[cf][cb] {
                return false;
            }
        }
        // The entry function returns: the `atexit` handlers run then.
        self.escape
    }

    /// Whether a call of `function` can reach the target before it
    /// returns (here or in a callee, directly or through a pointer).
    pub fn function_reaches(&self, function: &str) -> bool {
        self.index
            .get(function)
            .is_some_and(|&f| self.reaches[f].first().copied().unwrap_or(false))
    }

    /// Whether the target can be reached from `st`'s position.
    pub fn state_can_reach(&self, st: &State) -> bool {
        let top = st.frame();
        let mut callers = st.frames.iter().rev().skip(1).map(|fr| (fr.func, fr.bb));
        self.can_reach(top.func, top.bb, &mut callers)
    }

    /// Minus an estimate of `st`'s distance to the target (blocks, plus a
    /// thousand per frame to return from), for the searcher.
    pub fn priority(&self, st: &State) -> i64 {
        for (up, fr) in st.frames.iter().rev().enumerate() {
            if let Some(d) = self.distance.get(fr.func).and_then(|v| v.get(fr.bb)).copied().flatten() {
                return -(d as i64) - 1000 * up as i64;
            }
        }
        i64::MIN / 2
    }
}

/// Follows only the branch sides from which a target can be reached,
/// closest states first.
pub struct Directed {
    reach: Arc<Reachability>,
}

impl Directed {
    /// An oracle for `reach`.
    pub fn new(reach: Arc<Reachability>) -> Directed {
        Directed { reach }
    }
}

impl BranchOracle for Directed {
    fn decide(&mut self, st: &State, branch: &Branch<'_>) -> Follow {
        let r = &self.reach;
        let Some(&f) = r.index.get(branch.function) else {
            return Follow::Both;
        };
        let ss = &r.succ[f][branch.block];
        // Only two-way branches are pruned (a switch's "other" side goes
        // on to the next case).
        if ss.len() != 2 || branch.successor != 0 {
            return Follow::Both;
        }
        let side = |b: usize| {
            let mut callers = st.frames.iter().rev().skip(1).map(|fr| (fr.func, fr.bb));
            r.can_reach(f, b, &mut callers)
        };
        match (side(ss[0]), side(ss[1])) {
            (true, true) => Follow::Both,
            (true, false) => Follow::Then,
            (false, true) => Follow::Else,
            (false, false) => Follow::Neither,
        }
    }
    fn priority(&self, st: &State) -> Option<i64> {
        Some(self.reach.priority(st))
    }
    fn test_excluded(&self) -> bool {
        true
    }
}

/// Ends a path with a [`REACHED`] finding at the first instruction of a
/// target line, or at the first instruction of a block that held the line
/// before mem2reg ([`FoldedLines`]).
#[derive(Clone, Debug)]
pub struct ReachLine {
    /// The source file (None: any), as given.
    pub file: Option<String>,
    /// The line.
    pub line: u32,
    /// The first instruction (or terminator, for a block of none but
    /// phis) of each block whose line mem2reg folded away, by address in
    /// the module the engine executes.
    pub block_starts: std::collections::HashSet<usize>,
}

impl ReachLine {
    /// A checker for `line` of `file`, with the blocks of `module` that
    /// held it before mem2reg (`folded`).
    pub fn new(file: Option<String>, line: u32, module: &Module, folded: &FoldedLines) -> ReachLine {
        let mut block_starts = std::collections::HashSet::new();
        for f in &module.functions {
            for b in &f.basic_blocks {
                if folded.on_line(f, b, line) && !block_on_line(b, file.as_deref(), line) {
                    match b.instrs.iter().find(|i| !matches!(i, Instruction::Phi(_))) {
                        Some(i) => block_starts.insert(i as *const Instruction as usize),
                        None => block_starts.insert(&b.term as *const Terminator as usize),
                    };
                }
            }
        }
        ReachLine {
            file,
            line,
            block_starts,
        }
    }
}

impl Checker for ReachLine {
    fn name(&self) -> &str {
        "reach"
    }
    fn looks_at(&self, kind: PointKind) -> bool {
        kind != PointKind::Returned
    }
    fn check(&mut self, _st: &State, at: Point<'_>, _operands: &[Option<Term>]) -> Vec<Check> {
        use llvm_ir::HasDebugLoc;
        let (d, addr) = match at {
            Point::Instruction(i) => (i.get_debug_loc(), i as *const Instruction as usize),
            Point::Terminator(t) => (t.get_debug_loc(), t as *const Terminator as usize),
            Point::Returned { .. } => return vec![],
        };
        if loc_line(d, self.file.as_deref()) == Some(self.line) || self.block_starts.contains(&addr) {
            vec![Check::ending(
                Kind::Goal(fpsym_report::Goal::Reached),
                Term::bool(true),
                format!("line {} reached", self.line),
            )
            .at_line(self.line)]
        } else {
            vec![]
        }
    }
}

/// The lines of `module`'s functions that hold code (in `file`, if given).
pub fn code_lines(module: &Module, file: Option<&str>) -> BTreeSet<u32> {
    use llvm_ir::HasDebugLoc;
    let mut lines = BTreeSet::new();
    for f in &module.functions {
        for b in &f.basic_blocks {
            for i in &b.instrs {
                lines.extend(loc_line(i.get_debug_loc(), file));
            }
            lines.extend(loc_line(b.term.get_debug_loc(), file));
        }
    }
    lines.remove(&0);
    lines
}

/// The lines each block held before `opt -mem2reg`, from the module
/// clang emitted (`pre`): an assignment that mem2reg folds into a phi
/// (`else hi = mid;`) leaves its block with no instruction of its line,
/// though -O0 code executes a store there. Keyed by function and block
/// name (mem2reg keeps blocks and their names), in `file` if given.
#[derive(Clone, Debug, Default)]
pub struct FoldedLines {
    lines: HashMap<(String, Name), BTreeSet<u32>>,
}

impl FoldedLines {
    /// The lines of every block of `pre` (clang's module before mem2reg).
    pub fn new(pre: &Module, file: Option<&str>) -> FoldedLines {
        use llvm_ir::HasDebugLoc;
        let mut lines: HashMap<(String, Name), BTreeSet<u32>> = HashMap::new();
        for f in &pre.functions {
            for b in &f.basic_blocks {
                let set: BTreeSet<u32> = b
                    .instrs
                    .iter()
                    .filter(|i| callee(i).flatten().is_none_or(|c| !c.starts_with("llvm.dbg.")))
                    .filter_map(|i| loc_line(i.get_debug_loc(), file))
                    .chain(loc_line(b.term.get_debug_loc(), file))
                    .filter(|l| *l != 0)
                    .collect();
                if !set.is_empty() {
                    lines.insert((f.name.clone(), b.name.clone()), set);
                }
            }
        }
        FoldedLines { lines }
    }
    /// Every line of a block of a function `module` defines.
    pub fn lines(&self, module: &Module) -> BTreeSet<u32> {
        let mut out = BTreeSet::new();
        for f in &module.functions {
            for b in &f.basic_blocks {
                if let Some(s) = self.lines.get(&(f.name.clone(), b.name.clone())) {
                    out.extend(s);
                }
            }
        }
        out
    }
    /// Whether block `b` of function `f` held code of `line`.
    pub fn on_line(&self, f: &Function, b: &llvm_ir::BasicBlock, line: u32) -> bool {
        self.lines
            .get(&(f.name.clone(), b.name.clone()))
            .is_some_and(|s| s.contains(&line))
    }
}

/// Whether block `b` holds code of `line` (in `file`, if given).
pub fn block_on_line(b: &llvm_ir::BasicBlock, file: Option<&str>, line: u32) -> bool {
    use llvm_ir::HasDebugLoc;
    b.instrs.iter().any(|i| loc_line(i.get_debug_loc(), file) == Some(line))
        || loc_line(b.term.get_debug_loc(), file) == Some(line)
}

/// One decision of a path: the two-way branch at `line` (and `column`,
/// when the line has several) goes to its `taken` side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// Source line of the branch.
    pub line: u32,
    /// Source column, when given.
    pub column: Option<u32>,
    /// The side: true for the condition holding.
    pub taken: bool,
}

/// A path given as the sequence of decisions at the branches of some
/// source lines (the others are free), complete or a prefix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathSpec {
    /// The decisions in execution order.
    pub decisions: Vec<Decision>,
    /// True if the spec ends with `...`: any continuation.
    pub prefix: bool,
}

impl PathSpec {
    /// Reads `LINE[:COL]:T|F[*N],...[,...]`: each element a branch's
    /// line (and column), its side (T: the condition holds, F: it does
    /// not) and a repetition count; a final `...` makes it a prefix.
    pub fn parse(s: &str) -> Result<PathSpec, String> {
        let mut decisions = Vec::new();
        let mut prefix = false;
        let parts: Vec<&str> = s.split(',').map(str::trim).filter(|p| !p.is_empty()).collect();
        for (k, p) in parts.iter().enumerate() {
            if *p == "..." {
                if k + 1 != parts.len() {
                    return Err(format!("`...` must come last (element {})", k + 1));
                }
                prefix = true;
                continue;
            }
            let bad = || format!("`{p}`: expected LINE:T, LINE:F, LINE:COL:T or with *N (e.g. 12:T*3)");
            let (body, times) = match p.split_once('*') {
                Some((b, n)) => match n.trim().parse::<usize>() {
                    Ok(n @ 1..=100_000) => (b, n),
                    _ => return Err(format!("`{p}`: a repetition is from 1 to 100000")),
                },
                None => (*p, 1),
            };
            let fields: Vec<&str> = body.split(':').map(str::trim).collect();
            let (line, column, side) = match fields.as_slice() {
                [l, s] => (l.parse::<u32>().map_err(|_| bad())?, None, *s),
                [l, c, s] => (
                    l.parse::<u32>().map_err(|_| bad())?,
                    Some(c.parse::<u32>().map_err(|_| bad())?),
                    *s,
                ),
                _ => return Err(bad()),
            };
            let taken = match side {
                "T" | "t" | "true" => true,
                "F" | "f" | "false" => false,
                _ => return Err(bad()),
            };
            for _ in 0..times {
                decisions.push(Decision { line, column, taken });
            }
        }
        if decisions.is_empty() {
            return Err("an empty path: give at least one LINE:T or LINE:F".into());
        }
        Ok(PathSpec { decisions, prefix })
    }

    /// The lines whose branches the spec decides.
    pub fn lines(&self) -> BTreeSet<u32> {
        self.decisions.iter().map(|d| d.line).collect()
    }
}

/// The two-way branches of `module` by source line (in `file`, if given):
/// the columns of each line's branches (several when a line has more than
/// one condition) with how many branches each column has (more than one
/// when a macro puts several conditions at one place), and the lines with
/// a `switch`.
pub fn branch_sites(module: &Module, file: Option<&str>) -> (BTreeMap<u32, BTreeMap<u32, usize>>, BTreeSet<u32>) {
    use llvm_ir::HasDebugLoc;
    let mut two = BTreeMap::<u32, BTreeMap<u32, usize>>::new();
    let mut switches = BTreeSet::new();
    for f in &module.functions {
        for b in &f.basic_blocks {
            let d = b.term.get_debug_loc();
            let Some(line) = loc_line(d, file) else { continue };
            match &b.term {
                Terminator::CondBr(_) => {
                    *two.entry(line)
                        .or_default()
                        .entry(d.as_ref().and_then(|d| d.col).unwrap_or(0))
                        .or_default() += 1;
                }
                Terminator::Switch(_) => {
                    switches.insert(line);
                }
                _ => {}
            }
        }
    }
    (two, switches)
}

/// How far a state is along a [`PathSpec`] (its extension slot).
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress(pub usize);

fn progress(st: &State) -> usize {
    st.ext::<Progress>().map_or(0, |p| p.0)
}

/// Follows a [`PathSpec`]: at a branch of one of its lines, only the side
/// its next decision names (no side when the branch is not the next one,
/// or the spec is used up and is not a prefix); other branches are free.
pub struct FollowPath {
    spec: Arc<PathSpec>,
    file: Option<String>,
    lines: BTreeSet<u32>,
}

impl FollowPath {
    /// An oracle for `spec` (lines of `file`, if given).
    pub fn new(spec: Arc<PathSpec>, file: Option<String>) -> FollowPath {
        let lines = spec.lines();
        FollowPath { spec, file, lines }
    }
}

impl BranchOracle for FollowPath {
    fn decide(&mut self, st: &State, branch: &Branch<'_>) -> Follow {
        let Some((line, column)) = on_lines(branch, self.file.as_deref(), &self.lines) else {
            return Follow::Both;
        };
        let k = progress(st);
        match self.spec.decisions.get(k) {
            Some(d) if d.line == line && d.column.is_none_or(|c| c == column) => {
                if d.taken {
                    Follow::Then
                } else {
                    Follow::Else
                }
            }
            // Past the end of a prefix: free.
            None if self.spec.prefix => Follow::Both,
            _ => Follow::Neither,
        }
    }
    fn priority(&self, st: &State) -> Option<i64> {
        // Furthest along first.
        Some(progress(st) as i64)
    }
}

/// Counts the decisions a state has taken along a [`PathSpec`], and
/// tells when a path that took them all ended some other way than
/// [`PathDone`] sees (a failure, a trap): the path is then feasible all
/// the same.
pub struct PathProgress {
    file: Option<String>,
    lines: BTreeSet<u32>,
    decisions: usize,
    /// Set when a path ended (not cut short) after every decision.
    pub ended_after: Arc<std::sync::atomic::AtomicBool>,
}

impl PathProgress {
    /// The observer for `spec` (lines of `file`, if given).
    pub fn new(spec: &PathSpec, file: Option<String>) -> PathProgress {
        PathProgress {
            file,
            lines: spec.lines(),
            decisions: spec.decisions.len(),
            ended_after: Default::default(),
        }
    }
}

impl Observer for PathProgress {
    fn at_branch(&mut self, st: &mut State, branch: &Branch<'_>, _taken: bool) {
        let on = on_lines(branch, self.file.as_deref(), &self.lines).is_some();
        // (Past the end of a prefix the count goes on: the goal was met
        // at the end.)
        if on {
            let k = progress(st) + 1;
            st.ext_mut::<Progress>().0 = k;
        }
    }
    fn at_path_end(&mut self, st: &State, end: &crate::exec::End) {
        use crate::exec::End;
        if progress(st) == self.decisions && matches!(end, End::Exit(_) | End::Error(_)) {
            self.ended_after.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// Ends a path with a [`PATH_FOLLOWED`] finding once it has taken every
/// decision of a [`PathSpec`]: at once for a prefix; for a complete path,
/// where the entry function returns or the program exits.
pub struct PathDone {
    spec: Arc<PathSpec>,
}

impl PathDone {
    /// The checker for `spec`.
    pub fn new(spec: Arc<PathSpec>) -> PathDone {
        PathDone { spec }
    }
}

impl Checker for PathDone {
    fn name(&self) -> &str {
        "path"
    }
    fn looks_at(&self, kind: PointKind) -> bool {
        kind != PointKind::Returned
    }
    fn check(&mut self, st: &State, at: Point<'_>, _operands: &[Option<Term>]) -> Vec<Check> {
        use llvm_ir::HasDebugLoc;
        let n = self.spec.decisions.len();
        if progress(st) != n {
            return vec![];
        }
        // At code with a source line (the finding is placed there).
        let located = match at {
            Point::Instruction(i) => i.get_debug_loc().as_ref().is_some_and(|d| d.line > 0),
            Point::Terminator(t) => t.get_debug_loc().as_ref().is_some_and(|d| d.line > 0),
            Point::Returned { .. } => false,
        };
        if !located {
            return vec![];
        }
        let end = self.spec.prefix
            || match at {
                Point::Terminator(Terminator::Ret(_)) => st.frames.len() == 1,
                Point::Instruction(i) => matches!(
                    callee(i),
                    Some(Some(
                        "exit"
                            | "_exit"
                            | "_Exit"
                            | "abort"
                            | "__assert_fail"
                            | "__assert_rtn"
                            | "__assert"
                            | "reach_error"
                            | "__VERIFIER_error"
                    ))
                ),
                _ => false,
            };
        if !end {
            return vec![];
        }
        vec![Check::ending(
            Kind::Goal(fpsym_report::Goal::PathFollowed),
            Term::bool(true),
            format!("the path's {n} decisions taken"),
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_specs_read_lines_columns_sides_repetitions_and_prefixes() {
        let p = PathSpec::parse("48:T, 50:F*2, 12:9:T, ...").unwrap();
        assert!(p.prefix);
        assert_eq!(
            p.decisions,
            vec![
                Decision {
                    line: 48,
                    column: None,
                    taken: true
                },
                Decision {
                    line: 50,
                    column: None,
                    taken: false
                },
                Decision {
                    line: 50,
                    column: None,
                    taken: false
                },
                Decision {
                    line: 12,
                    column: Some(9),
                    taken: true
                },
            ]
        );
        assert_eq!(p.lines(), [12, 48, 50].into_iter().collect());
        assert!(!PathSpec::parse("48:T").unwrap().prefix);
        for bad in ["", "48", "48:X", "x:T", "48:T*y", "..., 48:T", "1:2:3:T"] {
            assert!(PathSpec::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn files_match_by_path_or_name() {
        assert!(same_file("/a/b/c.c", Some("c.c")));
        assert!(same_file("/a/b/c.c", Some("b/c.c")));
        assert!(same_file("/a/b/c.c", None));
        assert!(!same_file("/a/b/c.c", Some("d.c")));
        assert!(!same_file("/a/b/xc.c", Some("c.c")));
    }
}
