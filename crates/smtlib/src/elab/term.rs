//! Iterative elaboration of terms: an explicit work stack replaces recursion,
//! so deeply nested terms and `let`s cannot overflow the call stack.

use super::builtin::{self, Builtin};
use super::{Entry, Env, Lookup, Macro};
use crate::sexpr::{Arena, Atom, Id};
use crate::{LResult, Located};
use fpsym_expr::{Float, Format, Op, RoundingMode, Sort, Term};
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::HashMap;
use std::rc::Rc;

/// What a function symbol in head position stands for.
pub(crate) enum Func {
    Builtin(Builtin),
    Macro(Rc<Macro>),
}

enum Work {
    /// Elaborate a node and push its term.
    Eval(Id),
    /// Apply a function to the values pushed since `base`.
    Apply { node: Id, func: Func, base: usize },
    /// `((_ to_fp eb sb) rm <real literal>)` once `rm` is on the stack.
    ToFpReal { node: Id, fmt: Format },
    /// Bind the `let` variables to the values pushed since `base`, then elaborate the body.
    LetBody { node: Id, base: usize },
    /// Unbind the `let` variables.
    LetEnd { node: Id },
    /// Process the attributes of `(! t ...)` with `t` on the stack.
    Named { node: Id },
}

/// The context of one term elaboration.
pub(crate) struct TermCx<'a> {
    pub arena: &'a Arena,
    pub src: &'a str,
    pub env: &'a mut Env,
    /// Terms named while elaborating.
    pub named: &'a mut Vec<(String, Term)>,
}

fn let_bindings(a: &Arena, node: Id) -> &[Id] {
    a.list(a.list(node).unwrap()[1]).unwrap()
}

fn binding_name(a: &Arena, b: Id) -> &str {
    a.symbol(a.list(b).unwrap()[0]).unwrap()
}

impl TermCx<'_> {
    fn err<T>(&self, id: Id, msg: impl Into<String>) -> LResult<T> {
        Err(Located::new(self.arena.pos(id), msg))
    }

    /// Elaborates the term at `id`.
    pub(crate) fn elaborate(&mut self, id: Id) -> LResult<Term> {
        let mut work = vec![Work::Eval(id)];
        let r = self.run(&mut work);
        if r.is_err() {
            // Leave the environment as it was: unbind the open lets.
            for w in work.iter().rev() {
                if let Work::LetEnd { node } = w {
                    for &b in let_bindings(self.arena, *node) {
                        self.env.pop_let(binding_name(self.arena, b));
                    }
                }
            }
        }
        r
    }

    fn run(&mut self, work: &mut Vec<Work>) -> LResult<Term> {
        let a = self.arena;
        let mut vals: Vec<(Term, Id)> = Vec::new();
        while let Some(w) = work.pop() {
            match w {
                Work::Eval(id) => self.eval(id, work, &mut vals)?,
                Work::Apply { node, func, base } => {
                    let args = vals.split_off(base);
                    let t = self.apply(&func, node, args)?;
                    vals.push((t, node));
                }
                Work::ToFpReal { node, fmt } => {
                    let kids = a.list(node).unwrap();
                    let (rm, rm_id) = vals.pop().unwrap();
                    let fname = a.text(kids[0], self.src);
                    if rm.sort() != Sort::RoundingMode {
                        return self.err(
                            rm_id,
                            format!(
                                "expected a RoundingMode term, found {}, as argument 1 of `{fname}`",
                                rm.sort()
                            ),
                        );
                    }
                    let q = real_literal(a, kids[2], 0).unwrap()?;
                    let t = to_fp_real(fmt, &q, &rm);
                    vals.push((t, node));
                }
                Work::LetBody { node, base } => {
                    let values = vals.split_off(base);
                    for (&b, (t, _)) in let_bindings(a, node).iter().zip(values) {
                        self.env.push_let(binding_name(a, b), t);
                    }
                    work.push(Work::LetEnd { node });
                    work.push(Work::Eval(a.list(node).unwrap()[2]));
                }
                Work::LetEnd { node } => {
                    for &b in let_bindings(a, node) {
                        self.env.pop_let(binding_name(a, b));
                    }
                }
                Work::Named { node } => {
                    let t = vals.last().unwrap().0.clone();
                    self.attributes(node, &t)?;
                }
            }
        }
        debug_assert_eq!(vals.len(), 1);
        Ok(vals.pop().unwrap().0)
    }

    fn eval(&mut self, id: Id, work: &mut Vec<Work>, vals: &mut Vec<(Term, Id)>) -> LResult<()> {
        let a = self.arena;
        let Some(kids) = a.list(id) else {
            vals.push((self.atom(id)?, id));
            return Ok(());
        };
        let Some((&head, args)) = kids.split_first() else {
            return self.err(id, "expected a term, found `()`");
        };
        match a.bare_symbol(head) {
            Some("let") => {
                self.check_let(id)?;
                work.push(Work::LetBody {
                    node: id,
                    base: vals.len(),
                });
                for &b in let_bindings(a, id).iter().rev() {
                    work.push(Work::Eval(a.list(b).unwrap()[1]));
                }
                return Ok(());
            }
            Some("!") => {
                if args.len() < 2 {
                    return self.err(id, "expected `(! term :attribute ...)`");
                }
                work.push(Work::Named { node: id });
                work.push(Work::Eval(args[0]));
                return Ok(());
            }
            Some("_") => {
                vals.push((self.indexed_constant(id)?, id));
                return Ok(());
            }
            Some(q @ ("forall" | "exists")) => {
                return self.err(
                    head,
                    format!("quantifiers (`{q}`) are not supported: fpsym handles quantifier-free logics"),
                )
            }
            Some(q @ ("as" | "match" | "lambda" | "par")) => {
                return self.err(head, format!("`{q}` terms are not supported"))
            }
            _ => {}
        }
        let func = self.head(head)?;
        if let Func::Builtin(Builtin::ToFp(fmt)) = func {
            if args.len() == 2 && real_literal(a, args[1], 0).is_some() {
                work.push(Work::ToFpReal { node: id, fmt });
                work.push(Work::Eval(args[0]));
                return Ok(());
            }
        }
        work.push(Work::Apply {
            node: id,
            func,
            base: vals.len(),
        });
        for &x in args.iter().rev() {
            work.push(Work::Eval(x));
        }
        Ok(())
    }

    fn check_let(&self, id: Id) -> LResult<()> {
        let a = self.arena;
        let kids = a.list(id).unwrap();
        if kids.len() != 3 {
            return self.err(
                id,
                format!(
                    "expected `(let ((x t) ...) body)`, found {} parts after `let`",
                    kids.len() - 1
                ),
            );
        }
        let Some(bs) = a.list(kids[1]) else {
            return self.err(
                kids[1],
                format!(
                    "expected the bindings `((x t) ...)` of `let`, found {}",
                    a.describe(kids[1], self.src)
                ),
            );
        };
        if bs.is_empty() {
            return self.err(kids[1], "expected at least one binding in `let`");
        }
        for (i, &b) in bs.iter().enumerate() {
            match a.list(b) {
                Some(&[x, _]) if a.symbol(x).is_some() => {
                    let name = a.symbol(x).unwrap();
                    if bs[..i].iter().any(|&c| binding_name(a, c) == name) {
                        return self.err(x, format!("`{name}` is bound twice in the same `let`"));
                    }
                }
                _ => {
                    return self.err(
                        b,
                        format!("expected a binding `(name term)`, found {}", a.describe(b, self.src)),
                    )
                }
            }
        }
        Ok(())
    }

    fn attributes(&mut self, node: Id, t: &Term) -> LResult<()> {
        let a = self.arena;
        let kids = a.list(node).unwrap();
        let mut i = 2;
        while i < kids.len() {
            let Some(kw) = a.keyword(kids[i]) else {
                return self.err(
                    kids[i],
                    format!(
                        "expected an attribute `:keyword`, found {}",
                        a.describe(kids[i], self.src)
                    ),
                );
            };
            let value = kids.get(i + 1).copied().filter(|&v| a.keyword(v).is_none());
            if kw == ":named" {
                let Some(name) = value.and_then(|v| a.symbol(v)) else {
                    return self.err(kids[i], "expected a symbol after `:named`");
                };
                let pos = a.pos(value.unwrap());
                self.env.bind_global(name, Entry::Term(t.clone(), pos), pos)?;
                self.named.push((name.to_string(), t.clone()));
            }
            i += if value.is_some() { 2 } else { 1 };
        }
        Ok(())
    }

    /// The function a head stands for.
    fn head(&self, head: Id) -> LResult<Func> {
        let a = self.arena;
        if let Some(name) = a.symbol(head) {
            match self.env.lookup(name) {
                Some(Lookup::Macro(m)) => return Ok(Func::Macro(m.clone())),
                Some(Lookup::Term(t)) => {
                    return self.err(
                        head,
                        format!(
                            "`{name}` is a constant of sort {}, not a function: it cannot be applied to arguments",
                            t.sort()
                        ),
                    )
                }
                None => {}
            }
            if let Some(b) = builtin::by_name(name) {
                return Ok(Func::Builtin(b));
            }
            if let Some(m) = builtin::unsupported(name) {
                return self.err(head, m);
            }
            if is_constant_name(name) {
                return self.err(
                    head,
                    format!("`{name}` is a constant, not a function: it cannot be applied to arguments"),
                );
            }
            return self.err(head, format!("unknown function symbol `{name}`"));
        }
        if let Some(kids) = a.list(head) {
            if kids.first().and_then(|&k| a.bare_symbol(k)) == Some("_") {
                let (name, idx) = self.indices(head)?;
                return builtin::indexed(&name, &idx)
                    .map(Func::Builtin)
                    .map_err(|m| Located::new(a.pos(head), m));
            }
            if kids.first().and_then(|&k| a.bare_symbol(k)) == Some("as") {
                return self.err(head, "qualified function symbols `(as f Sort)` are not supported");
            }
        }
        self.err(
            head,
            format!("expected a function symbol, found {}", a.describe(head, self.src)),
        )
    }

    /// The name and numeral indices of `(_ name i ...)`.
    fn indices(&self, id: Id) -> LResult<(String, Vec<u32>)> {
        let a = self.arena;
        let kids = a.list(id).unwrap();
        let Some(name) = kids.get(1).and_then(|&k| a.symbol(k)) else {
            return self.err(
                id,
                format!("expected `(_ symbol index ...)`, found {}", a.describe(id, self.src)),
            );
        };
        let mut idx = Vec::new();
        for &k in &kids[2..] {
            let Some(n) = a.numeral(k) else {
                return self.err(
                    k,
                    format!("expected a numeral index, found {}", a.describe(k, self.src)),
                );
            };
            idx.push(
                n.parse::<u32>()
                    .map_err(|_| Located::new(a.pos(k), format!("index {n} is too large")))?,
            );
        }
        Ok((name.to_string(), idx))
    }

    /// `(_ bvN w)`, `(_ +zero eb sb)`, `(_ -zero eb sb)`, `(_ +oo eb sb)`, `(_ -oo eb sb)`, `(_ NaN eb sb)`.
    fn indexed_constant(&self, id: Id) -> LResult<Term> {
        let a = self.arena;
        let kids = a.list(id).unwrap();
        let Some(name) = kids.get(1).and_then(|&k| a.symbol(k)) else {
            return self.err(
                id,
                format!("expected `(_ symbol index ...)`, found {}", a.describe(id, self.src)),
            );
        };
        if let Some(digits) = name
            .strip_prefix("bv")
            .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        {
            let (_, idx) = self.indices(id)?;
            let [w] = idx[..] else {
                return self.err(id, format!("expected `(_ {name} width)`, found {} indices", idx.len()));
            };
            if !(1..=128).contains(&w) {
                return self.err(
                    id,
                    format!("bit-vector width {w} is not supported (fpsym handles 1..=128 bits)"),
                );
            }
            let v: BigUint = digits.parse().unwrap();
            let v = v % (BigUint::one() << w);
            let bits = v
                .iter_u64_digits()
                .enumerate()
                .fold(0u128, |acc, (i, d)| acc | ((d as u128) << (64 * i)));
            return Ok(Term::bv(w, bits));
        }
        let special = matches!(name, "+zero" | "-zero" | "+oo" | "-oo" | "NaN");
        if special {
            let (_, idx) = self.indices(id)?;
            let [eb, sb] = idx[..] else {
                return self.err(id, format!("expected `(_ {name} eb sb)`, found {} indices", idx.len()));
            };
            let f = Format::new(eb, sb).map_err(|e| Located::new(a.pos(id), e.to_string()))?;
            let v = match name {
                "+zero" => Float::zero(f, false),
                "-zero" => Float::zero(f, true),
                "+oo" => Float::infinity(f, false),
                "-oo" => Float::infinity(f, true),
                _ => Float::nan(f),
            };
            return Ok(Term::fp(v));
        }
        if builtin::is_indexed_function(name) {
            return self.err(
                id,
                format!("{} is a function: apply it to arguments", a.describe(id, self.src)),
            );
        }
        self.err(id, format!("unknown indexed constant {}", a.describe(id, self.src)))
    }

    fn atom(&self, id: Id) -> LResult<Term> {
        let a = self.arena;
        match a.atom(id).unwrap() {
            Atom::Symbol { name, .. } => self.symbol(name, id),
            Atom::Keyword(k) => self.err(id, format!("expected a term, found the keyword `{k}`")),
            Atom::Numeral(n) | Atom::Decimal(n) => self.err(
                id,
                format!("`{n}` is an Int/Real literal: Int and Real terms are not supported (real literals are accepted only as the last argument of `to_fp`)"),
            ),
            Atom::Str(_) => self.err(id, "string literals are not supported as terms"),
            Atom::Binary(b) => {
                if b.len() > 128 {
                    return self.err(id, format!("bit-vector literal of {} bits is not supported (fpsym handles 1..=128 bits)", b.len()));
                }
                Ok(Term::bv(b.len() as u32, u128::from_str_radix(b, 2).unwrap()))
            }
            Atom::Hex(h) => {
                if h.len() > 32 {
                    return self.err(id, format!("bit-vector literal of {} bits is not supported (fpsym handles 1..=128 bits)", 4 * h.len()));
                }
                Ok(Term::bv(4 * h.len() as u32, u128::from_str_radix(h, 16).unwrap()))
            }
        }
    }

    fn symbol(&self, name: &str, id: Id) -> LResult<Term> {
        match self.env.lookup(name) {
            Some(Lookup::Term(t)) => return Ok(t.clone()),
            Some(Lookup::Macro(m)) => {
                let n = m.params.len();
                return self.err(
                    id,
                    format!("`{name}` is a function of {n} argument(s): apply it as `({name} ...)`"),
                );
            }
            None => {}
        }
        match name {
            "true" => return Ok(Term::bool(true)),
            "false" => return Ok(Term::bool(false)),
            _ => {}
        }
        if let Some(rm) = RoundingMode::from_smtlib(name) {
            return Ok(Term::rm(rm));
        }
        if builtin::by_name(name).is_some() {
            return self.err(id, format!("`{name}` is a function: apply it to arguments"));
        }
        if let Some(m) = builtin::unsupported(name) {
            return self.err(id, m);
        }
        self.err(id, format!("undeclared symbol `{name}`"))
    }

    fn apply(&mut self, func: &Func, node: Id, args: Vec<(Term, Id)>) -> LResult<Term> {
        let a = self.arena;
        let fname = a.text(a.list(node).unwrap()[0], self.src);
        match func {
            Func::Builtin(b) => self.apply_builtin(b, &fname, node, args),
            Func::Macro(m) => {
                if args.len() != m.params.len() {
                    return self.err(
                        node,
                        format!("`{fname}` expects {} argument(s), found {}", m.params.len(), args.len()),
                    );
                }
                let mut map = HashMap::new();
                for (i, ((t, at), (s, ph))) in args.into_iter().zip(m.params.iter().zip(&m.placeholders)).enumerate() {
                    if t.sort() != *s {
                        return self.err(
                            at,
                            format!(
                                "expected a term of sort {s}, found {}, as argument {} of `{fname}`",
                                t.sort(),
                                i + 1
                            ),
                        );
                    }
                    map.insert(ph.clone(), t);
                }
                substitute(&m.body, &map).map_err(|e| Located::new(a.pos(node), e))
            }
        }
    }
}

/// True for the names of built-in constants.
fn is_constant_name(name: &str) -> bool {
    name == "true" || name == "false" || RoundingMode::from_smtlib(name).is_some()
}

/// The rational value of a real literal: a numeral, a decimal, `(- r)` or
/// `(/ r r)`. None if the node is not of that form; `Some(Err)` for `(/ r 0)`.
fn real_literal(a: &Arena, id: Id, depth: u32) -> Option<LResult<BigRational>> {
    if depth > 3 {
        return None;
    }
    match a.atom(id) {
        Some(Atom::Numeral(n)) => return Some(Ok(BigRational::from_integer(n.parse::<BigInt>().unwrap()))),
        Some(Atom::Decimal(d)) => {
            let (i, f) = d.split_once('.').unwrap();
            let num: BigInt = format!("{i}{f}").parse().unwrap();
            let den = num_traits::pow(BigInt::from(10), f.len());
            return Some(Ok(BigRational::new(num, den)));
        }
        Some(_) => return None,
        None => {}
    }
    let kids = a.list(id)?;
    match (kids.first().and_then(|&k| a.bare_symbol(k)), kids.len()) {
        (Some("-"), 2) => Some(real_literal(a, kids[1], depth + 1)?.map(|q| -q)),
        (Some("/"), 3) => {
            let n = real_literal(a, kids[1], depth + 1)?;
            let d = real_literal(a, kids[2], depth + 1)?;
            Some(match (n, d) {
                (Ok(_), Ok(d)) if d.is_zero() => Err(Located::new(a.pos(id), "division by zero in a real literal")),
                (Ok(n), Ok(d)) => Ok(n / d),
                (Err(e), _) | (_, Err(e)) => Err(e),
            })
        }
        _ => None,
    }
}

/// `((_ to_fp eb sb) rm q)`: a constant when `rm` is, else an `ite` over the five modes.
fn to_fp_real(fmt: Format, q: &BigRational, rm: &Term) -> Term {
    let value = |m: RoundingMode| Term::fp(Float::from_rational(fmt, q, m).value);
    if let Some(m) = rm.as_const().and_then(|v| v.as_rm()) {
        return value(m);
    }
    let [first @ .., last] = RoundingMode::ALL;
    let mut acc = value(last);
    for m in first.into_iter().rev() {
        let v = value(m);
        acc = if v == acc {
            acc
        } else {
            Term::mk(Op::Ite, vec![rm.eq(&Term::rm(m)), v, acc])
        };
    }
    acc
}

/// Replaces, simultaneously, every subterm that is a key of `map` by its value.
pub(crate) fn substitute(t: &Term, map: &HashMap<Term, Term>) -> Result<Term, String> {
    let mut memo: HashMap<u64, Term> = HashMap::new();
    let mut stack = vec![(t.clone(), false)];
    while let Some((u, ready)) = stack.pop() {
        if memo.contains_key(&u.id()) {
            continue;
        }
        if let Some(r) = map.get(&u) {
            memo.insert(u.id(), r.clone());
            continue;
        }
        if u.args().is_empty() {
            memo.insert(u.id(), u.clone());
            continue;
        }
        if !ready {
            stack.push((u.clone(), true));
            for x in u.args() {
                if !memo.contains_key(&x.id()) {
                    stack.push((x.clone(), false));
                }
            }
            continue;
        }
        let args: Vec<Term> = u.args().iter().map(|x| memo[&x.id()].clone()).collect();
        let out = if args.iter().zip(u.args()).all(|(x, y)| x == y) {
            u.clone()
        } else {
            Term::app(u.op().clone(), args).map_err(|e| e.to_string())?
        };
        memo.insert(u.id(), out);
    }
    Ok(memo[&t.id()].clone())
}
