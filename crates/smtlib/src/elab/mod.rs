//! Elaboration of S-expressions into commands and terms.

mod builtin;
mod sort;
mod term;

use crate::script::{Command, NamedTerm, Script};
use crate::sexpr::{Arena, Atom, Id, Reader};
use crate::{LResult, Located, ParseError, Pos};
use fpsym_expr::{Sort, Term};
use sort::{SortDef, SortExpr};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

pub(crate) use term::substitute;

/// A macro: `define-fun` with parameters. The body mentions the parameters
/// as placeholder variables whose names cannot be written in SMT-LIB.
pub(crate) struct Macro {
    pub params: Vec<Sort>,
    pub placeholders: Vec<Term>,
    pub body: Term,
}

/// What a global symbol stands for.
pub(crate) enum Entry {
    /// A variable, a defined constant or a named term.
    Term(Term, Pos),
    /// A macro.
    Macro(Rc<Macro>, Pos),
}

impl Entry {
    fn pos(&self) -> Pos {
        match self {
            Entry::Term(_, p) | Entry::Macro(_, p) => *p,
        }
    }
}

enum Undo {
    Name(String),
    Sort(String),
}

/// The symbol tables: global symbols and sorts with push/pop levels, and
/// the `let`/parameter bindings of the term being elaborated.
#[derive(Default)]
pub(crate) struct Env {
    globals: HashMap<String, Entry>,
    sorts: HashMap<String, SortDef>,
    lets: HashMap<String, Vec<Term>>,
    undo: Vec<Undo>,
    levels: Vec<usize>,
    global_decls: bool,
}

impl Env {
    pub(crate) fn bind_global(&mut self, name: &str, entry: Entry, pos: Pos) -> LResult<()> {
        if let Some(old) = self.globals.get(name) {
            return Err(Located::new(
                pos,
                format!("symbol `{name}` is already declared (at {})", old.pos()),
            ));
        }
        self.globals.insert(name.to_string(), entry);
        if !self.global_decls {
            self.undo.push(Undo::Name(name.to_string()));
        }
        Ok(())
    }

    fn bind_sort(&mut self, name: &str, def: SortDef, pos: Pos) -> LResult<()> {
        if self.sorts.contains_key(name)
            || matches!(
                name,
                "Bool" | "RoundingMode" | "Float16" | "Float32" | "Float64" | "Float128"
            )
        {
            return Err(Located::new(pos, format!("sort `{name}` is already defined")));
        }
        self.sorts.insert(name.to_string(), def);
        if !self.global_decls {
            self.undo.push(Undo::Sort(name.to_string()));
        }
        Ok(())
    }

    pub(crate) fn push_let(&mut self, name: &str, t: Term) {
        self.lets.entry(name.to_string()).or_default().push(t);
    }

    pub(crate) fn pop_let(&mut self, name: &str) {
        if let Some(v) = self.lets.get_mut(name) {
            v.pop();
            if v.is_empty() {
                self.lets.remove(name);
            }
        }
    }

    fn push(&mut self, n: u32) {
        for _ in 0..n {
            self.levels.push(self.undo.len());
        }
    }

    fn pop(&mut self, n: u32) -> Result<(), String> {
        if n as usize > self.levels.len() {
            return Err(format!("cannot pop {n} level(s): only {} pushed", self.levels.len()));
        }
        for _ in 0..n {
            let mark = self.levels.pop().unwrap();
            while self.undo.len() > mark {
                match self.undo.pop().unwrap() {
                    Undo::Name(s) => {
                        self.globals.remove(&s);
                    }
                    Undo::Sort(s) => {
                        self.sorts.remove(&s);
                    }
                }
            }
        }
        Ok(())
    }

    fn reset_assertions(&mut self) {
        self.levels.clear();
        if !self.global_decls {
            self.globals.clear();
            self.sorts.clear();
        }
        self.undo.clear();
    }

    /// The term a symbol stands for in the current scope, if any.
    pub(crate) fn lookup(&self, name: &str) -> Option<Lookup<'_>> {
        if let Some(t) = self.lets.get(name).and_then(|v| v.last()) {
            return Some(Lookup::Term(t));
        }
        match self.globals.get(name)? {
            Entry::Term(t, _) => Some(Lookup::Term(t)),
            Entry::Macro(m, _) => Some(Lookup::Macro(m)),
        }
    }
}

/// The result of looking a symbol up.
pub(crate) enum Lookup<'a> {
    Term(&'a Term),
    Macro(&'a Rc<Macro>),
}

/// The state of a script being read.
struct Elaborator<'s> {
    src: &'s str,
    env: Env,
    named: Vec<NamedTerm>,
    command_index: usize,
}

fn arity_err(pos: Pos, what: &str, want: &str, found: usize) -> Located {
    Located::new(pos, format!("`{what}` expects {want}, found {found}"))
}

impl<'s> Elaborator<'s> {
    fn new(src: &'s str) -> Self {
        Elaborator {
            src,
            env: Env::default(),
            named: Vec::new(),
            command_index: 0,
        }
    }

    fn term(&mut self, a: &Arena, id: Id) -> LResult<Term> {
        let mut named = Vec::new();
        let t = term::TermCx {
            arena: a,
            src: self.src,
            env: &mut self.env,
            named: &mut named,
        }
        .elaborate(id)?;
        for (name, term) in named {
            self.named.push(NamedTerm {
                name,
                term,
                command: self.command_index,
            });
        }
        Ok(t)
    }

    fn bool_term(&mut self, a: &Arena, id: Id, what: &str) -> LResult<Term> {
        let t = self.term(a, id)?;
        if t.sort() != Sort::Bool {
            return Err(Located::new(
                a.pos(id),
                format!("expected a Bool term, found {}, as the argument of `{what}`", t.sort()),
            ));
        }
        Ok(t)
    }

    fn symbol(&self, a: &Arena, id: Id, what: &str) -> LResult<String> {
        a.symbol(id).map(str::to_string).ok_or_else(|| {
            Located::new(
                a.pos(id),
                format!("expected a symbol ({what}), found {}", a.describe(id, self.src)),
            )
        })
    }

    fn keyword(&self, a: &Arena, id: Id) -> LResult<String> {
        a.keyword(id).map(str::to_string).ok_or_else(|| {
            Located::new(
                a.pos(id),
                format!("expected a keyword `:name`, found {}", a.describe(id, self.src)),
            )
        })
    }

    fn raw(&self, a: &Arena, id: Id) -> String {
        let n = a.node(id);
        self.src[n.start..n.end].to_string()
    }

    fn level_arg(&self, a: &Arena, args: &[Id], pos: Pos, what: &str) -> LResult<u32> {
        match args {
            [] => Ok(1),
            [n] => a.numeral(*n).and_then(|s| s.parse::<u32>().ok()).ok_or_else(|| {
                Located::new(
                    a.pos(*n),
                    format!(
                        "expected a numeral (the number of levels), found {}",
                        a.describe(*n, self.src)
                    ),
                )
            }),
            _ => Err(arity_err(pos, what, "at most 1 argument", args.len())),
        }
    }

    fn term_list(&mut self, a: &Arena, id: Id, what: &str, bools: bool) -> LResult<Vec<Term>> {
        let Some(items) = a.list(id) else {
            return Err(Located::new(
                a.pos(id),
                format!(
                    "expected a list of terms `(t ...)` for `{what}`, found {}",
                    a.describe(id, self.src)
                ),
            ));
        };
        let items = items.to_vec();
        items
            .iter()
            .map(|&k| {
                if bools {
                    self.bool_term(a, k, what)
                } else {
                    self.term(a, k)
                }
            })
            .collect()
    }

    /// Elaborates one command.
    fn command(&mut self, a: &Arena, id: Id) -> LResult<Command> {
        let pos = a.pos(id);
        let Some(kids) = a.list(id) else {
            return Err(Located::new(
                pos,
                format!("expected a command `(...)`, found {}", a.describe(id, self.src)),
            ));
        };
        let Some((&head, args)) = kids.split_first() else {
            return Err(Located::new(pos, "expected a command, found `()`"));
        };
        let Some(name) = a.bare_symbol(head) else {
            return Err(Located::new(
                a.pos(head),
                format!("expected a command name, found {}", a.describe(head, self.src)),
            ));
        };
        let n = args.len();
        let exact = |k: usize| -> LResult<()> {
            if n != k {
                let want = match k {
                    0 => "no arguments".to_string(),
                    1 => "1 argument".to_string(),
                    _ => format!("{k} arguments"),
                };
                return Err(arity_err(pos, name, &want, n));
            }
            Ok(())
        };
        Ok(match name {
            "set-logic" => {
                exact(1)?;
                Command::SetLogic(self.symbol(a, args[0], "the logic")?)
            }
            "set-info" | "set-option" => {
                if n == 0 || n > 2 {
                    return Err(arity_err(pos, name, "a keyword and a value", n));
                }
                let kw = self.keyword(a, args[0])?;
                let value = args.get(1).map(|&v| self.raw(a, v)).unwrap_or_default();
                if name == "set-info" {
                    Command::SetInfo(kw, value)
                } else {
                    if kw == ":global-declarations" {
                        self.env.global_decls = value == "true";
                    }
                    Command::SetOption(kw, value)
                }
            }
            "get-info" | "get-option" => {
                exact(1)?;
                let kw = self.keyword(a, args[0])?;
                if name == "get-info" {
                    Command::GetInfo(kw)
                } else {
                    Command::GetOption(kw)
                }
            }
            "declare-fun" | "declare-const" => {
                let (sym, sort_id) = if name == "declare-fun" {
                    exact(3)?;
                    match a.list(args[1]) {
                        Some([]) => {}
                        Some(ps) => {
                            let f = a.symbol(args[0]).unwrap_or("?");
                            return Err(Located::new(
                                a.pos(args[1]),
                                format!(
                                    "uninterpreted function `{f}` with {} parameter(s) is not supported: fpsym handles only constants `(declare-fun {f} () Sort)`",
                                    ps.len()
                                ),
                            ));
                        }
                        None => {
                            return Err(Located::new(
                                a.pos(args[1]),
                                format!(
                                    "expected the parameter sort list `()`, found {}",
                                    a.describe(args[1], self.src)
                                ),
                            ))
                        }
                    }
                    (args[0], args[2])
                } else {
                    exact(2)?;
                    (args[0], args[1])
                };
                let sym_name = self.symbol(a, sym, "the name of the new constant")?;
                let sort = self.env.sort(a, self.src, sort_id)?;
                let var = Term::var(&sym_name, sort);
                self.env
                    .bind_global(&sym_name, Entry::Term(var, a.pos(sym)), a.pos(sym))?;
                Command::DeclareFun { name: sym_name, sort }
            }
            "define-fun" => {
                exact(4)?;
                self.define_fun(a, args)?
            }
            "define-sort" => {
                exact(3)?;
                let sym_name = self.symbol(a, args[0], "the name of the new sort")?;
                let Some(ps) = a.list(args[1]) else {
                    return Err(Located::new(
                        a.pos(args[1]),
                        format!(
                            "expected the sort parameter list `(X ...)`, found {}",
                            a.describe(args[1], self.src)
                        ),
                    ));
                };
                let mut params = Vec::new();
                for &p in ps {
                    let pn = self.symbol(a, p, "a sort parameter")?;
                    if params.contains(&pn) {
                        return Err(Located::new(a.pos(p), format!("sort parameter `{pn}` appears twice")));
                    }
                    params.push(pn);
                }
                let body = SortExpr::from_node(a, self.src, args[2])?;
                // Check the body now (parameters stand for any sort; use Bool).
                let probe: HashMap<String, Sort> = params.iter().map(|p| (p.clone(), Sort::Bool)).collect();
                self.env.resolve_sort(&body, &probe, a.pos(args[2]), 0)?;
                let text = body.to_string();
                self.env.bind_sort(
                    &sym_name,
                    SortDef {
                        params: params.clone(),
                        body: Some(body),
                    },
                    a.pos(args[0]),
                )?;
                Command::DefineSort {
                    name: sym_name,
                    params,
                    body: text,
                }
            }
            "declare-sort" => {
                // Accepted so scripts that declare but never use one still
                // parse; any use of the sort is rejected.
                exact(2)?;
                let sym_name = self.symbol(a, args[0], "the name of the new sort")?;
                let arity = a.numeral(args[1]).and_then(|n| n.parse::<u32>().ok()).ok_or_else(|| {
                    Located::new(
                        a.pos(args[1]),
                        format!(
                            "expected a numeral (the sort's arity), found {}",
                            a.describe(args[1], self.src)
                        ),
                    )
                })?;
                let params = (0..arity).map(|i| format!("|{i}|")).collect();
                self.env
                    .bind_sort(&sym_name, SortDef { params, body: None }, a.pos(args[0]))?;
                Command::DeclareSort { name: sym_name, arity }
            }
            "define-fun-rec" | "define-funs-rec" => {
                return Err(Located::new(
                    pos,
                    format!("recursive definitions (`{name}`) are not supported"),
                ))
            }
            "declare-datatype" | "declare-datatypes" => {
                return Err(Located::new(pos, format!("datatypes (`{name}`) are not supported")))
            }
            "assert" => {
                exact(1)?;
                Command::Assert(self.bool_term(a, args[0], "assert")?)
            }
            "check-sat" => {
                exact(0)?;
                Command::CheckSat
            }
            "check-sat-assuming" => {
                exact(1)?;
                Command::CheckSatAssuming(self.term_list(a, args[0], name, true)?)
            }
            "get-value" => {
                exact(1)?;
                let ts = self.term_list(a, args[0], name, false)?;
                if ts.is_empty() {
                    return Err(Located::new(
                        a.pos(args[0]),
                        "expected at least one term in `get-value`",
                    ));
                }
                Command::GetValue(ts)
            }
            "get-model"
            | "get-assertions"
            | "get-assignment"
            | "get-unsat-core"
            | "get-unsat-assumptions"
            | "get-proof"
            | "reset"
            | "reset-assertions"
            | "exit" => {
                exact(0)?;
                match name {
                    "get-model" => Command::GetModel,
                    "get-assertions" => Command::GetAssertions,
                    "get-assignment" => Command::GetAssignment,
                    "get-unsat-core" => Command::GetUnsatCore,
                    "get-unsat-assumptions" => Command::GetUnsatAssumptions,
                    "get-proof" => Command::GetProof,
                    "reset" => {
                        self.env = Env::default();
                        Command::Reset
                    }
                    "reset-assertions" => {
                        self.env.reset_assertions();
                        Command::ResetAssertions
                    }
                    _ => Command::Exit,
                }
            }
            "push" => {
                let k = self.level_arg(a, args, pos, name)?;
                self.env.push(k);
                Command::Push(k)
            }
            "pop" => {
                let k = self.level_arg(a, args, pos, name)?;
                self.env.pop(k).map_err(|m| Located::new(pos, m))?;
                Command::Pop(k)
            }
            "echo" => {
                exact(1)?;
                match a.atom(args[0]) {
                    Some(Atom::Str(s)) => Command::Echo(s.clone()),
                    _ => {
                        return Err(Located::new(
                            a.pos(args[0]),
                            format!("expected a string literal, found {}", a.describe(args[0], self.src)),
                        ))
                    }
                }
            }
            _ => return Err(Located::new(a.pos(head), format!("unknown command `{name}`"))),
        })
    }

    fn define_fun(&mut self, a: &Arena, args: &[Id]) -> LResult<Command> {
        let name = self.symbol(a, args[0], "the name of the new function")?;
        let name_pos = a.pos(args[0]);
        let Some(ps) = a.list(args[1]) else {
            return Err(Located::new(
                a.pos(args[1]),
                format!(
                    "expected the parameter list `((x Sort) ...)`, found {}",
                    a.describe(args[1], self.src)
                ),
            ));
        };
        let mut params: Vec<(String, Sort)> = Vec::new();
        for &p in ps {
            match a.list(p) {
                Some(&[pn, ps]) => {
                    let pname = self.symbol(a, pn, "a parameter name")?;
                    if params.iter().any(|(q, _)| *q == pname) {
                        return Err(Located::new(a.pos(pn), format!("parameter `{pname}` appears twice")));
                    }
                    params.push((pname, self.env.sort(a, self.src, ps)?));
                }
                _ => {
                    return Err(Located::new(
                        a.pos(p),
                        format!("expected a parameter `(name Sort)`, found {}", a.describe(p, self.src)),
                    ))
                }
            }
        }
        let sort = self.env.sort(a, self.src, args[2])?;
        let placeholders: Vec<Term> = params
            .iter()
            .enumerate()
            .map(|(i, (_, s))| Term::var(&format!("|param{i}|{s}|"), *s))
            .collect();
        for ((pname, _), ph) in params.iter().zip(&placeholders) {
            self.env.push_let(pname, ph.clone());
        }
        let body = self.term(a, args[3]);
        for (pname, _) in &params {
            self.env.pop_let(pname);
        }
        let body = body?;
        if body.sort() != sort {
            return Err(Located::new(
                a.pos(args[3]),
                format!(
                    "expected a term of sort {sort} (the declared sort of `{name}`), found {}",
                    body.sort()
                ),
            ));
        }
        if params.is_empty() {
            self.env
                .bind_global(&name, Entry::Term(body.clone(), name_pos), name_pos)?;
            return Ok(Command::DefineFun {
                name,
                params,
                sort,
                body,
            });
        }
        // The public body names parameters by their names, renamed if a
        // variable of the body has the same name.
        let used: HashSet<String> = body
            .vars()
            .iter()
            .filter_map(|v| v.var_name().map(str::to_string))
            .collect();
        let mut shown = Vec::new();
        let mut map = HashMap::new();
        for ((pname, s), ph) in params.iter().zip(&placeholders) {
            let mut n = pname.clone();
            let mut k = 1;
            let var = loop {
                if !used.contains(&n) && !shown.iter().any(|(q, _): &(String, Sort)| *q == n) {
                    break Term::var(&n, *s);
                }
                n = format!("{pname}!{k}");
                k += 1;
            };
            map.insert(ph.clone(), var);
            shown.push((n, *s));
        }
        let display = substitute(&body, &map).map_err(|m| Located::new(a.pos(args[3]), m))?;
        let mac = Macro {
            params: params.iter().map(|p| p.1).collect(),
            placeholders,
            body,
        };
        self.env
            .bind_global(&name, Entry::Macro(Rc::new(mac), name_pos), name_pos)?;
        Ok(Command::DefineFun {
            name,
            params: shown,
            sort,
            body: display,
        })
    }
}

/// Parses and elaborates an SMT-LIB script. `file` is used in error messages only.
///
/// Commands are processed in order, so the first error in the source is the
/// one reported. Reading stops at `(exit)`.
pub fn parse_script(src: &str, file: &str) -> Result<Script, ParseError> {
    let mut reader = Reader::new(src);
    let mut arena = Arena::default();
    let mut el = Elaborator::new(src);
    let mut script = Script::default();
    loop {
        arena.clear();
        let Some(id) = reader.read(&mut arena).map_err(|e| e.in_file(file))? else {
            break;
        };
        el.command_index = script.commands.len();
        let cmd = el.command(&arena, id).map_err(|e| e.in_file(file))?;
        let exit = cmd == Command::Exit;
        script.commands.push(cmd);
        script.positions.push(arena.pos(id));
        if exit {
            break;
        }
    }
    script.named = el.named;
    Ok(script)
}

/// Parses one term in which the given variables (`Term::var`s) are declared.
/// Useful for tests and for reading terms typed by users; errors name the
/// file `<term>`.
pub fn parse_term(src: &str, vars: &[Term]) -> Result<Term, ParseError> {
    const FILE: &str = "<term>";
    let mut reader = Reader::new(src);
    let mut arena = Arena::default();
    let mut el = Elaborator::new(src);
    for v in vars {
        if let Some(name) = v.var_name() {
            el.env
                .globals
                .insert(name.to_string(), Entry::Term(v.clone(), Pos { line: 0, column: 0 }));
        }
    }
    let Some(id) = reader.read(&mut arena).map_err(|e| e.in_file(FILE))? else {
        return Err(Located::new(Pos { line: 1, column: 1 }, "expected a term, found the end of input").in_file(FILE));
    };
    let t = el.term(&arena, id).map_err(|e| e.in_file(FILE))?;
    if !reader.at_end() {
        let mut tail = Arena::default();
        let extra = reader.read(&mut tail).map_err(|e| e.in_file(FILE))?;
        if let Some(x) = extra {
            return Err(Located::new(tail.pos(x), "unexpected input after the term").in_file(FILE));
        }
    }
    Ok(t)
}

/// Reads a model as printed by [`crate::print_model`] or by SMT solvers in
/// answer to `(get-model)`: `(model (define-fun x () Sort value) ...)`, the
/// same without the `model` keyword, or a bare sequence of `define-fun`s.
/// Each value must be a closed term (`(fp ...)`, `#b...`, `(_ +zero 8 24)`,
/// `((_ to_fp 8 24) #x...)`, ...); it is evaluated to a constant.
pub fn parse_model(src: &str) -> Result<fpsym_expr::Model, ParseError> {
    const FILE: &str = "<model>";
    let mut reader = Reader::new(src);
    let mut arena = Arena::default();
    let mut model = fpsym_expr::Model::new();
    let mut el = Elaborator::new(src);
    loop {
        arena.clear();
        let Some(top) = reader.read(&mut arena).map_err(|e| e.in_file(FILE))? else {
            break;
        };
        let kids = arena.list(top).unwrap_or(&[]).to_vec();
        let is_define = |id: Id| {
            arena
                .list(id)
                .and_then(|k| k.first())
                .and_then(|&h| arena.bare_symbol(h))
                == Some("define-fun")
        };
        let entries: Vec<Id> = if is_define(top) {
            vec![top]
        } else if kids.first().and_then(|&h| arena.bare_symbol(h)) == Some("model") {
            kids[1..].to_vec()
        } else {
            kids
        };
        for id in entries {
            if !is_define(id) {
                return Err(Located::new(
                    arena.pos(id),
                    format!(
                        "expected `(define-fun name () Sort value)`, found {}",
                        arena.describe(id, src)
                    ),
                )
                .in_file(FILE));
            }
            el.model_entry(&arena, id, &mut model).map_err(|e| e.in_file(FILE))?;
        }
    }
    Ok(model)
}

/// Reads a solver's answer to `(get-value (x y ...))` over variables:
/// `((x value) (y value) ...)`. Each `x` must name one of `vars` (matched by
/// symbol); each value must be a closed term of that variable's sort, and is
/// evaluated to a constant.
pub fn parse_values(src: &str, vars: &[Term]) -> Result<fpsym_expr::Model, ParseError> {
    const FILE: &str = "<get-value>";
    let mut reader = Reader::new(src);
    let mut arena = Arena::default();
    let mut model = fpsym_expr::Model::new();
    let mut el = Elaborator::new(src);
    let by_name: HashMap<&str, &Term> = vars.iter().filter_map(|v| Some((v.var_name()?, v))).collect();
    let Some(top) = reader.read(&mut arena).map_err(|e| e.in_file(FILE))? else {
        return Err(Located::new(
            Pos { line: 1, column: 1 },
            "expected `((name value) ...)`, found the end of input",
        )
        .in_file(FILE));
    };
    let Some(pairs) = arena.list(top).map(|k| k.to_vec()) else {
        return Err(Located::new(
            arena.pos(top),
            format!("expected `((name value) ...)`, found {}", arena.describe(top, src)),
        )
        .in_file(FILE));
    };
    for id in pairs {
        let pair = match arena.list(id) {
            Some(k) if k.len() == 2 => k.to_vec(),
            _ => {
                return Err(Located::new(
                    arena.pos(id),
                    format!("expected `(name value)`, found {}", arena.describe(id, src)),
                )
                .in_file(FILE))
            }
        };
        let name = el
            .symbol(&arena, pair[0], "a variable name")
            .map_err(|e| e.in_file(FILE))?;
        let Some(&var) = by_name.get(name.as_str()) else {
            return Err(
                Located::new(arena.pos(pair[0]), format!("`{name}` is not a variable of the query")).in_file(FILE),
            );
        };
        let t = el.term(&arena, pair[1]).map_err(|e| e.in_file(FILE))?;
        if t.sort() != var.sort() {
            return Err(Located::new(
                arena.pos(pair[1]),
                format!("expected a value of sort {}, found {}", var.sort(), t.sort()),
            )
            .in_file(FILE));
        }
        let v = fpsym_expr::eval(&t, &fpsym_expr::Model::new()).map_err(|e| {
            Located::new(arena.pos(pair[1]), format!("value of `{name}` is not a constant: {e}")).in_file(FILE)
        })?;
        model.insert(var.clone(), v);
    }
    Ok(model)
}

impl Elaborator<'_> {
    fn model_entry(&mut self, a: &Arena, id: Id, model: &mut fpsym_expr::Model) -> LResult<()> {
        let kids = a.list(id).unwrap();
        if kids.len() != 5 {
            return Err(arity_err(a.pos(id), "define-fun", "4 arguments", kids.len() - 1));
        }
        let name = self.symbol(a, kids[1], "a variable name")?;
        if a.list(kids[2]).is_none_or(|p| !p.is_empty()) {
            return Err(Located::new(
                a.pos(kids[2]),
                format!("model entry `{name}` has parameters: only constants are supported"),
            ));
        }
        let sort = self.env.sort(a, self.src, kids[3])?;
        let t = self.term(a, kids[4])?;
        if t.sort() != sort {
            return Err(Located::new(
                a.pos(kids[4]),
                format!("expected a value of sort {sort}, found {}", t.sort()),
            ));
        }
        let v = fpsym_expr::eval(&t, &fpsym_expr::Model::new()).map_err(|e| {
            Located::new(
                a.pos(kids[4]),
                format!("model value of `{name}` is not a constant: {e}"),
            )
        })?;
        let var = Term::var(&name, sort);
        model.insert(var, v);
        Ok(())
    }
}
