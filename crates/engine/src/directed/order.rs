//! Whether a [`PathSpec`] names its decisions in an order some execution
//! can produce. A path is followed by counting the branches on its lines
//! ([`super::PathProgress`]): between two decisions no other branch of
//! those lines may run. When, over the control-flow and call graphs, the
//! next decision's branch cannot be reached from the side the previous
//! one takes (or, for the first, from its function's entry) without
//! passing another branch of the path's lines, no execution takes the
//! decisions in that order: the spec is an input error (most often the
//! conditions of one line given in column order, while `a && b` runs the
//! branch of `a`, placed at the `&&`, before that of `b`, placed at the
//! start of the condition).
//!
//! The graphs over-approximate executions (every call may return to any
//! of its callee's call sites), so "cannot occur" is a proof; where the
//! graphs miss edges (a call through a pointer, a function handed to
//! other code, `setjmp`/`longjmp`, `indirectbr`) nothing is claimed.

use super::{callee, loc_line, Decision, PathSpec};
use crate::prog::successors;
use llvm_ir::{Constant, HasDebugLoc, Instruction, Module, Name, Operand, Terminator};
use std::collections::{BTreeSet, HashMap, HashSet};

/// One two-way branch of a source line, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    /// Column of the branch: what `LINE:COL:T` names.
    pub column: u32,
    /// Column of the instruction computing the branch's condition (a
    /// comparison's operator) when it is on the same line.
    pub at: Option<u32>,
}

/// A decision of a path that no execution takes where the path puts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Misordered {
    /// Its index in [`PathSpec::decisions`].
    pub index: usize,
    /// The decision.
    pub decision: Decision,
    /// The decision before it; None when it is the first.
    pub after: Option<Decision>,
    /// The branches of the path's lines (line, column) that every way
    /// from the previous decision (or the function's entry) meets first.
    pub instead: Vec<(u32, u32)>,
    /// The two-way branches of the decision's line in the order they
    /// execute (reverse post-order of their function's blocks).
    pub conditions: Vec<Condition>,
}

/// The blocks of a module as one graph: CFG edges, call edges into
/// defined callees, return edges to every call site.
struct Graph {
    /// Per function: its first block.
    first: Vec<usize>,
    /// Per block: its function.
    func_of: Vec<usize>,
    succ: Vec<Vec<usize>>,
    calls: Vec<Vec<usize>>,
    ret_to: Vec<Vec<usize>>,
    /// The block's terminator is a two-way branch on one of the path's
    /// lines: (line, column).
    on_path: Vec<Option<(u32, u32)>>,
    /// The taken and not-taken successors of a two-way branch.
    sides: Vec<Option<(usize, usize)>>,
}

/// A function reference (possibly cast) as an operand.
fn function_ref<'a>(o: &'a Operand, defined: &HashMap<&str, usize>) -> Option<&'a str> {
    let Operand::ConstantOperand(k) = o else { return None };
    let mut k = k.as_ref();
    while let Constant::BitCast(c) = k {
        k = c.operand.as_ref();
    }
    match k {
        Constant::GlobalReference {
            name: Name::Name(n), ..
        } if defined.contains_key(n.as_str()) => Some(n.as_str()),
        _ => None,
    }
}

impl Graph {
    /// The graph of `module` for a path on `lines` of `file`; None where
    /// it would miss edges.
    fn new(module: &Module, file: Option<&str>, lines: &BTreeSet<u32>) -> Option<Graph> {
        let funcs = &module.functions;
        let defined: HashMap<&str, usize> = funcs.iter().enumerate().map(|(i, f)| (f.name.as_str(), i)).collect();
        let mut g = Graph {
            first: Vec::new(),
            func_of: Vec::new(),
            succ: Vec::new(),
            calls: Vec::new(),
            ret_to: Vec::new(),
            on_path: Vec::new(),
            sides: Vec::new(),
        };
        let mut callers: Vec<Vec<usize>> = vec![Vec::new(); funcs.len()];
        let mut returns: Vec<(usize, usize)> = Vec::new();
        for (fi, f) in funcs.iter().enumerate() {
            let base = g.succ.len();
            g.first.push(base);
            let at: HashMap<&Name, usize> = f
                .basic_blocks
                .iter()
                .enumerate()
                .map(|(i, b)| (&b.name, base + i))
                .collect();
            for (bi, b) in f.basic_blocks.iter().enumerate() {
                let mut calls = Vec::new();
                for i in &b.instrs {
                    match (callee(i), i) {
                        (Some(None), _) => return None,
                        (Some(Some("setjmp" | "_setjmp" | "sigsetjmp" | "longjmp" | "_longjmp" | "siglongjmp")), _) => {
                            return None
                        }
                        (Some(Some(n)), Instruction::Call(c)) => {
                            if let Some(&gi) = defined.get(n) {
                                calls.push(gi);
                                callers[gi].push(base + bi);
                            }
                            // A function handed to other code may run
                            // from there.
                            if c.arguments.iter().any(|(a, _)| function_ref(a, &defined).is_some()) {
                                return None;
                            }
                        }
                        (_, Instruction::Store(s)) if function_ref(&s.value, &defined).is_some() => return None,
                        _ => {}
                    }
                }
                if matches!(
                    b.term,
                    Terminator::IndirectBr(_) | Terminator::Invoke(_) | Terminator::CallBr(_)
                ) {
                    return None;
                }
                g.func_of.push(fi);
                g.succ.push(
                    successors(&b.term)
                        .into_iter()
                        .filter_map(|n| at.get(n).copied())
                        .collect(),
                );
                g.calls.push(calls);
                g.ret_to.push(Vec::new());
                if matches!(b.term, Terminator::Ret(_)) {
                    returns.push((fi, base + bi));
                }
                let (on, sides) = match &b.term {
                    Terminator::CondBr(c) => {
                        let d = c.get_debug_loc();
                        let on = loc_line(d, file)
                            .filter(|l| lines.contains(l))
                            .map(|l| (l, d.as_ref().and_then(|d| d.col).unwrap_or(0)));
                        (on, at.get(&c.true_dest).copied().zip(at.get(&c.false_dest).copied()))
                    }
                    _ => (None, None),
                };
                g.on_path.push(on);
                g.sides.push(sides);
            }
        }
        for (fi, b) in returns {
            g.ret_to[b] = callers[fi].clone();
        }
        Some(g)
    }

    /// Whether a walk from `starts` meets a branch for which `target`
    /// holds before any other branch of the path's lines: Ok, or the
    /// (line, column) of the branches of those lines met instead.
    fn meets(
        &self,
        starts: impl IntoIterator<Item = usize>,
        target: &dyn Fn(u32, u32) -> bool,
    ) -> Result<(), Vec<(u32, u32)>> {
        let mut seen = HashSet::new();
        let mut met = BTreeSet::new();
        let mut todo: Vec<usize> = starts.into_iter().collect();
        while let Some(b) = todo.pop() {
            if !seen.insert(b) {
                continue;
            }
            // The calls run before the terminator; each may return here.
            todo.extend(self.calls[b].iter().map(|&f| self.first[f]));
            match self.on_path[b] {
                Some((l, c)) if target(l, c) => return Ok(()),
                Some(lc) => {
                    met.insert(lc);
                    continue;
                }
                None => {}
            }
            todo.extend(self.succ[b].iter().copied());
            todo.extend(self.ret_to[b].iter().copied());
        }
        Err(met.into_iter().collect())
    }
}

/// The first decision of `spec` that no execution of `module` takes
/// where the spec puts it (lines of `file`, if given), with its line's
/// conditions in execution order; None when every decision can follow
/// the one before it, or when the module's graphs cannot tell.
pub fn misordered(module: &Module, file: Option<&str>, spec: &PathSpec) -> Option<Misordered> {
    let g = Graph::new(module, file, &spec.lines())?;
    let is = |d: Decision| move |l: u32, c: u32| l == d.line && d.column.is_none_or(|x| x == c);
    let g = &g;
    let branches = |d: Decision| -> Vec<usize> {
        (0..g.on_path.len())
            .filter(|&b| g.on_path[b].is_some_and(|(l, c)| is(d)(l, c)))
            .collect()
    };
    type Key = (Option<(u32, Option<u32>, bool)>, u32, Option<u32>);
    let mut known: HashMap<Key, Result<(), Vec<(u32, u32)>>> = HashMap::new();
    for (k, &d) in spec.decisions.iter().enumerate() {
        let after = k.checked_sub(1).map(|j| spec.decisions[j]);
        let key = (after.map(|a| (a.line, a.column, a.taken)), d.line, d.column);
        let ok = known.entry(key).or_insert_with(|| {
            let starts: Vec<usize> = match after {
                // From the entry of each function holding the branch.
                None => branches(d)
                    .into_iter()
                    .map(|b| g.first[g.func_of[b]])
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect(),
                // From the side the previous decision takes.
                Some(a) => branches(a)
                    .into_iter()
                    .filter_map(|b| g.sides[b].map(|(t, f)| if a.taken { t } else { f }))
                    .collect(),
            };
            g.meets(starts, &is(d))
        });
        if let Err(instead) = ok {
            return Some(Misordered {
                index: k,
                decision: d,
                after,
                instead: instead.clone(),
                conditions: conditions(module, file, d.line),
            });
        }
    }
    None
}

/// The two-way branches of `line` (in `file`, if given) in the order they
/// execute: functions in module order, blocks in reverse post-order.
pub fn conditions(module: &Module, file: Option<&str>, line: u32) -> Vec<Condition> {
    let mut out: Vec<Condition> = Vec::new();
    for f in &module.functions {
        let at: HashMap<&Name, usize> = f.basic_blocks.iter().enumerate().map(|(i, b)| (&b.name, i)).collect();
        // Reverse post-order by an iterative depth-first walk.
        let n = f.basic_blocks.len();
        let mut seen = vec![false; n];
        let mut post = Vec::with_capacity(n);
        let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
        if n > 0 {
            seen[0] = true;
        }
        while let Some((b, k)) = stack.last_mut().map(|x| (x.0, x.1)) {
            let next: Vec<usize> = successors(&f.basic_blocks[b].term)
                .into_iter()
                .filter_map(|s| at.get(s).copied())
                .collect();
            if k < next.len() {
                stack.last_mut().expect("non-empty").1 += 1;
                let s = next[k];
                if !seen[s] {
                    seen[s] = true;
                    stack.push((s, 0));
                }
            } else {
                post.push(b);
                stack.pop();
            }
        }
        for &b in post.iter().rev() {
            let Terminator::CondBr(c) = &f.basic_blocks[b].term else {
                continue;
            };
            let d = c.get_debug_loc();
            if loc_line(d, file) != Some(line) {
                continue;
            }
            let column = d.as_ref().and_then(|d| d.col).unwrap_or(0);
            if out.iter().any(|x| x.column == column) {
                continue;
            }
            // The instruction computing the condition; through a phi
            // (a loop header's `a && b` is a value: false, or b) its
            // computed incoming value.
            let def = |o: &Operand| match o {
                Operand::LocalOperand { name, .. } => f
                    .basic_blocks
                    .iter()
                    .flat_map(|b| &b.instrs)
                    .find(|i| i.try_get_result() == Some(name)),
                _ => None,
            };
            let at = def(&c.condition)
                .and_then(|i| match i {
                    Instruction::Phi(p) => p.incoming_values.iter().find_map(|(v, _)| def(v)),
                    i => Some(i),
                })
                .and_then(|i| {
                    let d = i.get_debug_loc();
                    (loc_line(d, file) == Some(line))
                        .then(|| d.as_ref().and_then(|d| d.col))
                        .flatten()
                });
            out.push(Condition { column, at });
        }
    }
    out
}
