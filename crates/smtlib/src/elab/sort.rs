//! Sort expressions, `define-sort` and sort resolution.

use super::Env;
use crate::sexpr::{Arena, Id};
use crate::{LResult, Located, Pos};
use fpsym_expr::{Format, Sort};
use std::collections::HashMap;

/// Nesting limit of sort expressions and define-sort expansions.
const MAX_SORT_DEPTH: usize = 64;

/// A sort expression, kept for `define-sort` bodies (which may mention parameters).
#[derive(Clone, Debug)]
pub(crate) enum SortExpr {
    /// A sort symbol: `Bool`, a parameter, a defined sort.
    Sym(String),
    /// `(_ name i ...)`.
    Indexed(String, Vec<String>),
    /// `(name s ...)`: a parametric sort applied to sorts.
    App(String, Vec<SortExpr>),
}

/// A `define-sort`, or a `declare-sort` (no body).
#[derive(Clone, Debug)]
pub(crate) struct SortDef {
    pub params: Vec<String>,
    pub body: Option<SortExpr>,
}

fn uninterpreted(name: &str, pos: Pos) -> Located {
    Located::new(pos, format!("uninterpreted sort `{name}` (from `declare-sort`) is not supported: fpsym handles the sorts Bool, (_ BitVec n), (_ FloatingPoint eb sb) and RoundingMode"))
}

impl SortExpr {
    /// Reads a sort expression from a node.
    pub(crate) fn from_node(a: &Arena, src: &str, id: Id) -> LResult<SortExpr> {
        Self::from_node_depth(a, src, id, 0)
    }

    fn from_node_depth(a: &Arena, src: &str, id: Id, depth: usize) -> LResult<SortExpr> {
        let pos = a.pos(id);
        if depth > MAX_SORT_DEPTH {
            return Err(Located::new(pos, "sort expression nested too deeply"));
        }
        if let Some(name) = a.symbol(id) {
            return Ok(SortExpr::Sym(name.to_string()));
        }
        let Some(kids) = a.list(id) else {
            return Err(Located::new(
                pos,
                format!("expected a sort, found {}", a.describe(id, src)),
            ));
        };
        if kids.is_empty() {
            return Err(Located::new(pos, "expected a sort, found `()`"));
        }
        if a.bare_symbol(kids[0]) == Some("_") {
            let Some(name) = kids.get(1).and_then(|&k| a.symbol(k)) else {
                return Err(Located::new(
                    pos,
                    format!(
                        "expected an indexed sort `(_ name index ...)`, found {}",
                        a.describe(id, src)
                    ),
                ));
            };
            let mut idx = Vec::new();
            for &k in &kids[2..] {
                match a.numeral(k) {
                    Some(n) => idx.push(n.to_string()),
                    None => {
                        return Err(Located::new(
                            a.pos(k),
                            format!("expected a numeral index, found {}", a.describe(k, src)),
                        ))
                    }
                }
            }
            if idx.is_empty() {
                return Err(Located::new(
                    pos,
                    format!("expected at least one index in {}", a.describe(id, src)),
                ));
            }
            return Ok(SortExpr::Indexed(name.to_string(), idx));
        }
        let Some(head) = a.symbol(kids[0]) else {
            return Err(Located::new(
                a.pos(kids[0]),
                format!("expected a sort symbol, found {}", a.describe(kids[0], src)),
            ));
        };
        if kids.len() < 2 {
            return Err(Located::new(
                pos,
                format!("expected a sort, found {}", a.describe(id, src)),
            ));
        }
        let args = kids[1..]
            .iter()
            .map(|&k| Self::from_node_depth(a, src, k, depth + 1))
            .collect::<LResult<Vec<_>>>()?;
        Ok(SortExpr::App(head.to_string(), args))
    }
}

impl std::fmt::Display for SortExpr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = String::new();
        match self {
            SortExpr::Sym(n) => crate::push_symbol(&mut s, n),
            SortExpr::Indexed(n, idx) => {
                s.push_str("(_ ");
                crate::push_symbol(&mut s, n);
                for i in idx {
                    s.push(' ');
                    s.push_str(i);
                }
                s.push(')');
            }
            SortExpr::App(n, args) => {
                s.push('(');
                crate::push_symbol(&mut s, n);
                for a in args {
                    s.push_str(&format!(" {a}"));
                }
                s.push(')');
            }
        }
        f.write_str(&s)
    }
}

fn index(n: &str, pos: Pos) -> LResult<u32> {
    n.parse::<u32>()
        .map_err(|_| Located::new(pos, format!("index {n} is too large")))
}

const UNSUPPORTED_SORT: &str =
    "is not supported: fpsym handles the sorts Bool, (_ BitVec n), (_ FloatingPoint eb sb) and RoundingMode";

impl Env {
    /// Resolves a sort written at `id`.
    pub(crate) fn sort(&self, a: &Arena, src: &str, id: Id) -> LResult<Sort> {
        let e = SortExpr::from_node(a, src, id)?;
        self.resolve_sort(&e, &HashMap::new(), a.pos(id), 0)
    }

    /// Resolves a sort expression; errors are reported at `pos`.
    pub(crate) fn resolve_sort(
        &self,
        e: &SortExpr,
        params: &HashMap<String, Sort>,
        pos: Pos,
        depth: usize,
    ) -> LResult<Sort> {
        if depth > MAX_SORT_DEPTH {
            return Err(Located::new(pos, "define-sort expansion nested too deeply"));
        }
        match e {
            SortExpr::Sym(name) => {
                if let Some(s) = params.get(name) {
                    return Ok(*s);
                }
                if let Some(def) = self.sorts.get(name) {
                    let Some(body) = &def.body else {
                        return Err(uninterpreted(name, pos));
                    };
                    if !def.params.is_empty() {
                        return Err(Located::new(
                            pos,
                            format!("sort `{name}` expects {} sort parameter(s), found 0", def.params.len()),
                        ));
                    }
                    return self.resolve_sort(body, &HashMap::new(), pos, depth + 1);
                }
                Ok(match name.as_str() {
                    "Bool" => Sort::Bool,
                    "RoundingMode" => Sort::RoundingMode,
                    "Float16" => Sort::Float(Format::BINARY16),
                    "Float32" => Sort::Float(Format::BINARY32),
                    "Float64" => Sort::Float(Format::BINARY64),
                    "Float128" => Sort::Float(Format::BINARY128),
                    "Real" | "Int" | "String" | "RegLan" => {
                        return Err(Located::new(pos, format!("sort `{name}` {UNSUPPORTED_SORT}")))
                    }
                    _ => return Err(Located::new(pos, format!("unknown sort `{name}`"))),
                })
            }
            SortExpr::Indexed(name, idx) => match (name.as_str(), idx.as_slice()) {
                ("BitVec", [w]) => {
                    let w = index(w, pos)?;
                    if !(1..=128).contains(&w) {
                        return Err(Located::new(
                            pos,
                            format!("bit-vector width {w} is not supported (fpsym handles 1..=128 bits)"),
                        ));
                    }
                    Ok(Sort::BitVec(w))
                }
                ("FloatingPoint", [eb, sb]) => {
                    let f =
                        Format::new(index(eb, pos)?, index(sb, pos)?).map_err(|e| Located::new(pos, e.to_string()))?;
                    Ok(Sort::Float(f))
                }
                ("BitVec", _) | ("FloatingPoint", _) => {
                    let n = if name == "BitVec" { 1 } else { 2 };
                    Err(Located::new(
                        pos,
                        format!("sort `{name}` takes {n} index(es), found {}", idx.len()),
                    ))
                }
                _ => Err(Located::new(pos, format!("unknown indexed sort `{name}`"))),
            },
            SortExpr::App(name, args) => {
                if let Some(def) = self.sorts.get(name) {
                    let Some(body) = &def.body else {
                        return Err(uninterpreted(name, pos));
                    };
                    if def.params.len() != args.len() {
                        return Err(Located::new(
                            pos,
                            format!(
                                "sort `{name}` expects {} sort parameter(s), found {}",
                                def.params.len(),
                                args.len()
                            ),
                        ));
                    }
                    let mut bound = HashMap::new();
                    for (p, a) in def.params.iter().zip(args) {
                        bound.insert(p.clone(), self.resolve_sort(a, params, pos, depth + 1)?);
                    }
                    return self.resolve_sort(body, &bound, pos, depth + 1);
                }
                if name == "Array" {
                    return Err(Located::new(pos, format!("sort `Array` {UNSUPPORTED_SORT}")));
                }
                Err(Located::new(pos, format!("unknown sort `{name}`")))
            }
        }
    }
}
