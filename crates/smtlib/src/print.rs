//! Printing terms and scripts in SMT-LIB syntax.
//!
//! Non-leaf subterms used more than once are bound with `let` (grouped by
//! depth, so independent bindings share one `let`), which keeps the output
//! linear in the size of the term DAG. Printing is iterative.

use crate::push_symbol;
use crate::script::{Command, Script};
use fpsym_expr::{Op, Term};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Prints a term in SMT-LIB syntax. Shared non-leaf subterms are bound with
/// `let`; the `let` names avoid the names of the term's variables.
pub fn print_term(t: &Term) -> String {
    let taken: HashSet<String> = t
        .vars()
        .iter()
        .filter_map(|v| v.var_name().map(str::to_string))
        .collect();
    let mut out = String::new();
    write_term(&mut out, t, &Names::default(), &taken);
    out
}

/// Names of non-leaf terms defined with `define-fun` and in scope, with the
/// names currently hidden (shadowed by macro parameters).
#[derive(Default)]
struct Names {
    by_id: HashMap<u64, Vec<String>>,
    hidden: HashSet<String>,
}

impl Names {
    fn get(&self, t: &Term) -> Option<&str> {
        if t.op().is_leaf() {
            return None;
        }
        let n = self.by_id.get(&t.id())?.last()?;
        (!self.hidden.contains(n)).then_some(n.as_str())
    }
}

pub(crate) fn write_leaf(out: &mut String, t: &Term) {
    match t.op() {
        Op::Var(n) => push_symbol(out, n),
        Op::BoolConst(b) => out.push_str(if *b { "true" } else { "false" }),
        Op::BvConst(v) => out.push_str(&v.to_string()),
        Op::FpConst(f) => out.push_str(&f.to_smtlib()),
        Op::RmConst(r) => out.push_str(r.smtlib_name()),
        _ => unreachable!("not a leaf"),
    }
}

fn write_head(out: &mut String, op: &Op) {
    use std::fmt::Write;
    let _ = match op {
        Op::ToFpFromBits(f) | Op::ToFpFromFp(f) | Op::ToFpFromSbv(f) => write!(out, "(_ to_fp {} {})", f.eb(), f.sb()),
        Op::ToFpFromUbv(f) => write!(out, "(_ to_fp_unsigned {} {})", f.eb(), f.sb()),
        Op::FpToUbv(n) => write!(out, "(_ fp.to_ubv {n})"),
        Op::FpToSbv(n) => write!(out, "(_ fp.to_sbv {n})"),
        Op::BvExtract(h, l) => write!(out, "(_ extract {h} {l})"),
        Op::BvZeroExtend(n) => write!(out, "(_ zero_extend {n})"),
        Op::BvSignExtend(n) => write!(out, "(_ sign_extend {n})"),
        op => {
            out.push_str(op.name());
            Ok(())
        }
    };
}

/// Writes `root`, printing defined terms by name and shared subterms with `let`.
fn write_term(out: &mut String, root: &Term, names: &Names, taken: &HashSet<String>) {
    if let Some(n) = names.get(root) {
        push_symbol(out, n);
        return;
    }
    if root.op().is_leaf() {
        write_leaf(out, root);
        return;
    }
    let inner = |t: &Term| !t.op().is_leaf() && names.get(t).is_none();
    // Post-order of the inner (non-leaf, unnamed) nodes, with reference counts.
    let mut count: HashMap<u64, u32> = HashMap::new();
    let mut order: Vec<Term> = Vec::new();
    let mut visited: HashSet<u64> = HashSet::new();
    let mut stack: Vec<(Term, bool)> = vec![(root.clone(), false)];
    while let Some((t, done)) = stack.pop() {
        if done {
            order.push(t);
            continue;
        }
        if !visited.insert(t.id()) {
            continue;
        }
        stack.push((t.clone(), true));
        for a in t.args().iter().rev() {
            if inner(a) {
                *count.entry(a.id()).or_insert(0) += 1;
                if !visited.contains(&a.id()) {
                    stack.push((a.clone(), false));
                }
            }
        }
    }
    let shared = |t: &Term| count.get(&t.id()).is_some_and(|&c| c > 1);
    // Level of a shared term: 1 + the highest level of shared terms below it
    // (reached without crossing another shared term).
    let mut height: HashMap<u64, u32> = HashMap::new();
    let mut groups: BTreeMap<u32, Vec<Term>> = BTreeMap::new();
    for t in &order {
        let mut h = 0;
        for a in t.args() {
            if inner(a) {
                let ha = height[&a.id()];
                h = h.max(if shared(a) { ha + 1 } else { ha });
            }
        }
        height.insert(t.id(), h);
        if shared(t) {
            groups.entry(h + 1).or_default().push(t.clone());
        }
    }
    let mut let_names: HashMap<u64, String> = HashMap::new();
    let mut counter = 0usize;
    for t in groups.values().flatten() {
        let name = loop {
            let n = format!("?x{counter}");
            counter += 1;
            if !taken.contains(&n) {
                break n;
            }
        };
        let_names.insert(t.id(), name);
    }
    for group in groups.values() {
        out.push_str("(let (");
        for (i, t) in group.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push('(');
            out.push_str(&let_names[&t.id()]);
            out.push(' ');
            write_body(out, t, names, &let_names);
            out.push(')');
        }
        out.push_str(") ");
    }
    write_body(out, root, names, &let_names);
    for _ in 0..groups.len() {
        out.push(')');
    }
}

enum Item {
    Term(Term),
    Close,
}

/// Writes the application at the root of `top`, with let-bound and defined
/// subterms by name.
fn write_body(out: &mut String, top: &Term, names: &Names, let_names: &HashMap<u64, String>) {
    let mut stack = vec![Item::Term(top.clone())];
    let mut first = true;
    while let Some(item) = stack.pop() {
        let t = match item {
            Item::Close => {
                out.push(')');
                continue;
            }
            Item::Term(t) => t,
        };
        let is_top = std::mem::take(&mut first);
        if !is_top {
            out.push(' ');
            if let Some(n) = let_names.get(&t.id()) {
                out.push_str(n);
                continue;
            }
            if let Some(n) = names.get(&t) {
                push_symbol(out, n);
                continue;
            }
        }
        if t.op().is_leaf() {
            write_leaf(out, &t);
            continue;
        }
        out.push('(');
        write_head(out, t.op());
        stack.push(Item::Close);
        for a in t.args().iter().rev() {
            stack.push(Item::Term(a.clone()));
        }
    }
}

/// Writes a string literal.
fn push_string(out: &mut String, s: &str) {
    out.push('"');
    out.push_str(&s.replace('"', "\"\""));
    out.push('"');
}

/// Additions made in one push level, undone by `pop`.
#[derive(Default)]
struct Frame {
    defs: Vec<u64>,
    decls: Vec<String>,
}

/// The scoped state of the script printer.
#[derive(Default)]
struct ScriptPrinter {
    names: Names,
    declared: HashSet<String>,
    frames: Vec<Frame>,
    global: bool,
    taken: HashSet<String>,
}

impl ScriptPrinter {
    fn frame(&mut self) -> Option<&mut Frame> {
        if self.global {
            None
        } else {
            self.frames.last_mut()
        }
    }

    fn declare(&mut self, name: &str) {
        self.declared.insert(name.to_string());
        if let Some(f) = self.frame() {
            f.decls.push(name.to_string());
        }
    }

    fn define(&mut self, t: &Term, name: &str) {
        if t.op().is_leaf() {
            return;
        }
        self.names.by_id.entry(t.id()).or_default().push(name.to_string());
        if let Some(f) = self.frame() {
            f.defs.push(t.id());
        }
    }

    fn pop(&mut self, n: u32) {
        for _ in 0..n {
            let Some(f) = self.frames.pop() else { return };
            for d in f.decls {
                self.declared.remove(&d);
            }
            for id in f.defs {
                if let Some(v) = self.names.by_id.get_mut(&id) {
                    v.pop();
                    if v.is_empty() {
                        self.names.by_id.remove(&id);
                    }
                }
            }
        }
    }

    /// Declares, before the command, the variables of `ts` not declared yet.
    fn declare_free(&mut self, out: &mut String, ts: &[&Term], params: &[(String, fpsym_expr::Sort)]) {
        let mut visited = HashSet::new();
        let mut stack: Vec<Term> = ts.iter().map(|t| (*t).clone()).collect();
        let mut new = Vec::new();
        while let Some(t) = stack.pop() {
            if !visited.insert(t.id()) || self.names.get(&t).is_some() {
                continue;
            }
            if let Some(n) = t.var_name() {
                if !self.declared.contains(n)
                    && !params.iter().any(|(p, _)| p == n)
                    && !new.iter().any(|v: &Term| v.var_name() == Some(n))
                {
                    new.push(t.clone());
                }
                continue;
            }
            stack.extend(t.args().iter().rev().cloned());
        }
        for v in new {
            out.push_str("(declare-fun ");
            push_symbol(out, v.var_name().unwrap());
            out.push_str(&format!(" () {})\n", v.sort()));
            self.declare(v.var_name().unwrap());
        }
    }

    fn term(&self, out: &mut String, t: &Term) {
        write_term(out, t, &self.names, &self.taken);
    }

    fn terms(&self, out: &mut String, ts: &[Term]) {
        out.push('(');
        for (i, t) in ts.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            self.term(out, t);
        }
        out.push(')');
    }
}

/// Every symbol the script mentions (declared, defined, variables of terms),
/// so `let` names can avoid them.
fn all_names(s: &Script) -> HashSet<String> {
    let mut names = HashSet::new();
    let mut visited = HashSet::new();
    let mut stack: Vec<Term> = Vec::new();
    for c in &s.commands {
        match c {
            Command::DeclareFun { name, .. } => {
                names.insert(name.clone());
            }
            Command::DefineFun { name, params, body, .. } => {
                names.insert(name.clone());
                names.extend(params.iter().map(|p| p.0.clone()));
                stack.push(body.clone());
            }
            Command::Assert(t) => stack.push(t.clone()),
            Command::CheckSatAssuming(ts) | Command::GetValue(ts) => stack.extend(ts.iter().cloned()),
            _ => {}
        }
    }
    names.extend(s.named.iter().map(|n| n.name.clone()));
    while let Some(t) = stack.pop() {
        if !visited.insert(t.id()) {
            continue;
        }
        if let Some(n) = t.var_name() {
            names.insert(n.to_string());
        }
        stack.extend(t.args().iter().cloned());
    }
    names
}

/// Prints a script, one command per line. Terms are printed with `let` for
/// shared subterms and with the names of constants defined by `define-fun`
/// where they are in scope; variables used but never declared are declared
/// (`declare-fun`) just before the first command using them. An assertion
/// named as a whole with `(! t :named n)` keeps its name; other `:named`
/// annotations are expanded away. The output parses back (with
/// [`crate::parse_script`]) to the same commands.
pub fn print_script(s: &Script) -> String {
    let mut p = ScriptPrinter {
        taken: all_names(s),
        ..Default::default()
    };
    let mut out = String::new();
    for (index, c) in s.commands.iter().enumerate() {
        match c {
            Command::SetLogic(l) => {
                out.push_str("(set-logic ");
                push_symbol(&mut out, l);
                out.push(')');
            }
            Command::SetInfo(k, v) | Command::SetOption(k, v) => {
                out.push_str(if matches!(c, Command::SetInfo(..)) {
                    "(set-info "
                } else {
                    "(set-option "
                });
                out.push_str(k);
                if !v.is_empty() {
                    out.push(' ');
                    out.push_str(v);
                }
                out.push(')');
                if matches!(c, Command::SetOption(..)) && k == ":global-declarations" {
                    p.global = v == "true";
                }
            }
            Command::GetInfo(k) => out.push_str(&format!("(get-info {k})")),
            Command::GetOption(k) => out.push_str(&format!("(get-option {k})")),
            Command::DeclareFun { name, sort } => {
                out.push_str("(declare-fun ");
                push_symbol(&mut out, name);
                out.push_str(&format!(" () {sort})"));
                p.declare(name);
            }
            Command::DefineFun {
                name,
                params,
                sort,
                body,
            } => {
                p.declare_free(&mut out, &[body], params);
                out.push_str("(define-fun ");
                push_symbol(&mut out, name);
                out.push_str(" (");
                for (i, (pn, ps)) in params.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    out.push('(');
                    push_symbol(&mut out, pn);
                    out.push_str(&format!(" {ps})"));
                }
                out.push_str(&format!(") {sort} "));
                p.names.hidden = params.iter().map(|x| x.0.clone()).collect();
                p.term(&mut out, body);
                p.names.hidden.clear();
                out.push(')');
                if params.is_empty() {
                    p.define(body, name);
                }
            }
            Command::DefineSort { name, params, body } => {
                out.push_str("(define-sort ");
                push_symbol(&mut out, name);
                out.push_str(" (");
                for (i, pn) in params.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    push_symbol(&mut out, pn);
                }
                out.push_str(&format!(") {body})"));
            }
            Command::DeclareSort { name, arity } => {
                out.push_str("(declare-sort ");
                push_symbol(&mut out, name);
                out.push_str(&format!(" {arity})"));
            }
            Command::Assert(t) => {
                p.declare_free(&mut out, &[t], &[]);
                out.push_str("(assert ");
                // A name given to the whole assertion is kept (unsat cores use it).
                let name = s
                    .named
                    .iter()
                    .find(|n| n.command == index && n.term == *t)
                    .map(|n| n.name.as_str());
                if name.is_some() {
                    out.push_str("(! ");
                }
                p.term(&mut out, t);
                if let Some(n) = name {
                    out.push_str(" :named ");
                    push_symbol(&mut out, n);
                    out.push(')');
                }
                out.push(')');
            }
            Command::CheckSat => out.push_str("(check-sat)"),
            Command::CheckSatAssuming(ts) | Command::GetValue(ts) => {
                let refs: Vec<&Term> = ts.iter().collect();
                p.declare_free(&mut out, &refs, &[]);
                out.push_str(if matches!(c, Command::GetValue(_)) {
                    "(get-value "
                } else {
                    "(check-sat-assuming "
                });
                p.terms(&mut out, ts);
                out.push(')');
            }
            Command::GetModel => out.push_str("(get-model)"),
            Command::GetAssertions => out.push_str("(get-assertions)"),
            Command::GetAssignment => out.push_str("(get-assignment)"),
            Command::GetUnsatCore => out.push_str("(get-unsat-core)"),
            Command::GetUnsatAssumptions => out.push_str("(get-unsat-assumptions)"),
            Command::GetProof => out.push_str("(get-proof)"),
            Command::Push(n) => {
                out.push_str(&format!("(push {n})"));
                p.frames.extend((0..*n).map(|_| Frame::default()));
            }
            Command::Pop(n) => {
                out.push_str(&format!("(pop {n})"));
                p.pop(*n);
            }
            Command::Reset => {
                out.push_str("(reset)");
                p = ScriptPrinter {
                    taken: std::mem::take(&mut p.taken),
                    ..Default::default()
                };
            }
            Command::ResetAssertions => {
                out.push_str("(reset-assertions)");
                p.frames.clear();
                if !p.global {
                    p.names.by_id.clear();
                    p.declared.clear();
                }
            }
            Command::Echo(s) => {
                out.push_str("(echo ");
                push_string(&mut out, s);
                out.push(')');
            }
            Command::Exit => out.push_str("(exit)"),
        }
        out.push('\n');
    }
    out
}

/// Prints the query `assertions` as a standalone script: `(set-logic …)`
/// (`QF_BVFP` if a bit-vector term occurs, else `QF_FP`), then `(set-info :status …)` when `status` is
/// `sat` or `unsat`, the declarations, one `assert` per assertion and
/// `(check-sat)`; then `(exit)`.
pub fn print_query(assertions: &[Term], status: Option<&str>) -> String {
    let mut seen = HashSet::new();
    let mut stack: Vec<&Term> = assertions.iter().collect();
    let mut bv = false;
    while let Some(t) = stack.pop() {
        if seen.insert(t.id()) {
            bv |= matches!(t.sort(), fpsym_expr::Sort::BitVec(_));
            stack.extend(t.args());
        }
    }
    let mut commands = vec![Command::SetLogic(if bv { "QF_BVFP" } else { "QF_FP" }.into())];
    if let Some(s @ ("sat" | "unsat")) = status {
        commands.push(Command::SetInfo(":status".into(), s.into()));
    }
    commands.extend(assertions.iter().map(|a| Command::Assert(a.clone())));
    commands.push(Command::CheckSat);
    commands.push(Command::Exit);
    print_script(&Script {
        commands,
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use fpsym_expr::{Format, Sort};

    #[test]
    fn shares_with_let() {
        let x = Term::var("x", Sort::Float(Format::BINARY32));
        let rm = Term::rm(fpsym_expr::RoundingMode::NearestTiesToEven);
        let sq = Term::mk(Op::FpMul, vec![rm.clone(), x.clone(), x.clone()]);
        let s2 = Term::mk(Op::FpAdd, vec![rm.clone(), sq.clone(), sq.clone()]);
        let t = Term::mk(Op::FpLt, vec![s2.clone(), s2.clone()]);
        assert_eq!(
            print_term(&t),
            "(let ((?x0 (fp.mul RNE x x))) (let ((?x1 (fp.add RNE ?x0 ?x0))) (fp.lt ?x1 ?x1)))"
        );
    }
}
