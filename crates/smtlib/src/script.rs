//! Scripts and commands.

use crate::Pos;
use fpsym_expr::{Sort, Term};

/// A parsed SMT-LIB script: its commands in order, with their positions.
///
/// Terms in commands are fully elaborated: `let`s, defined constants,
/// macros and named terms are expanded, so they mention only declared
/// variables (`Term::var`), constants and operations.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Script {
    /// The commands, in source order.
    pub commands: Vec<Command>,
    /// `positions[i]` is where `commands[i]` starts in the source (the `(` of
    /// the command). Scripts built in code may leave this empty or shorter
    /// than `commands`; see [`Script::pos`].
    pub positions: Vec<Pos>,
    /// Terms named with `(! t :named n)`, in source order.
    pub named: Vec<NamedTerm>,
}

/// A term named with the `:named` attribute.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedTerm {
    /// The name.
    pub name: String,
    /// The (elaborated) term.
    pub term: Term,
    /// Index in [`Script::commands`] of the command containing the annotation.
    pub command: usize,
}

/// One SMT-LIB command. Terms are elaborated (see [`Script`]).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Command {
    /// `(set-logic L)`.
    SetLogic(String),
    /// `(set-info :keyword value)`: the keyword (with its colon) and the
    /// value's source text (empty if absent).
    SetInfo(String, String),
    /// `(set-option :keyword value)`: the keyword (with its colon) and the
    /// value's source text.
    SetOption(String, String),
    /// `(get-info :keyword)`.
    GetInfo(String),
    /// `(get-option :keyword)`.
    GetOption(String),
    /// `(declare-fun name () sort)` or `(declare-const name sort)`: the
    /// variable `Term::var(name, sort)`.
    DeclareFun {
        /// The symbol.
        name: String,
        /// Its sort.
        sort: Sort,
    },
    /// `(define-fun name ((p S) ...) sort body)`. With no parameters the name
    /// stands for `body`; with parameters it is a macro expanded at each use.
    /// Parameters occur in `body` as `Term::var(param_name, param_sort)`
    /// (renamed when a parameter name would clash with a variable of the body).
    DefineFun {
        /// The symbol.
        name: String,
        /// Parameter names and sorts.
        params: Vec<(String, Sort)>,
        /// The result sort.
        sort: Sort,
        /// The elaborated body.
        body: Term,
    },
    /// `(define-sort name (params) sort)`: `body` is the sort expression's
    /// text (it may mention the parameters).
    DefineSort {
        /// The symbol.
        name: String,
        /// Sort parameters.
        params: Vec<String>,
        /// The sort expression, printed canonically.
        body: String,
    },
    /// `(declare-sort name arity)`. Accepted, but any use of the sort is an
    /// error (uninterpreted sorts are not supported).
    DeclareSort {
        /// The symbol.
        name: String,
        /// The number of sort parameters.
        arity: u32,
    },
    /// `(assert t)`.
    Assert(Term),
    /// `(check-sat)`.
    CheckSat,
    /// `(check-sat-assuming (t ...))`.
    CheckSatAssuming(Vec<Term>),
    /// `(get-model)`.
    GetModel,
    /// `(get-value (t ...))`.
    GetValue(Vec<Term>),
    /// `(get-assertions)`.
    GetAssertions,
    /// `(get-assignment)`.
    GetAssignment,
    /// `(get-unsat-core)`.
    GetUnsatCore,
    /// `(get-unsat-assumptions)`.
    GetUnsatAssumptions,
    /// `(get-proof)`.
    GetProof,
    /// `(push n)`.
    Push(u32),
    /// `(pop n)`.
    Pop(u32),
    /// `(reset)`.
    Reset,
    /// `(reset-assertions)`.
    ResetAssertions,
    /// `(echo "s")`: the string, unescaped.
    Echo(String),
    /// `(exit)`. The reader ignores whatever follows.
    Exit,
}

impl Script {
    /// A script of the given commands, without positions.
    pub fn new(commands: Vec<Command>) -> Script {
        Script {
            commands,
            positions: Vec::new(),
            named: Vec::new(),
        }
    }

    /// The source position of command `i`, if known.
    pub fn pos(&self, i: usize) -> Option<Pos> {
        self.positions.get(i).copied()
    }

    /// The assertions in force just before command `upto` (an index into
    /// [`Script::commands`]; `commands.len()` for the end of the script),
    /// following `push`, `pop`, `reset` and `reset-assertions`.
    pub fn assertions_before(&self, upto: usize) -> Vec<Term> {
        let mut stack: Vec<Vec<Term>> = vec![Vec::new()];
        for c in &self.commands[..upto.min(self.commands.len())] {
            match c {
                Command::Assert(t) => stack.last_mut().unwrap().push(t.clone()),
                Command::Push(n) => stack.extend((0..*n).map(|_| Vec::new())),
                Command::Pop(n) => {
                    let keep = stack.len().saturating_sub(*n as usize).max(1);
                    stack.truncate(keep);
                }
                Command::Reset | Command::ResetAssertions => stack = vec![Vec::new()],
                _ => {}
            }
        }
        stack.into_iter().flatten().collect()
    }

    /// The variables declared in the script (in order of declaration, each once).
    pub fn declared_vars(&self) -> Vec<Term> {
        let mut seen = std::collections::HashSet::new();
        self.commands
            .iter()
            .filter_map(|c| match c {
                Command::DeclareFun { name, sort } => Some(Term::var(name, *sort)),
                _ => None,
            })
            .filter(|t| seen.insert(t.clone()))
            .collect()
    }
}
