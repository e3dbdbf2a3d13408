//! SMT-LIB 2.6 reader and printer for fpsym terms, scripts and models.
//!
//! [`parse_script`] reads a script (QF_FP, QF_BV, QF_BVFP and their Boolean
//! core) and elaborates every term into hash-consed [`fpsym_expr::Term`]s:
//! `let`, `define-fun` (constants and macros), `define-sort`, `(! t :named n)`,
//! `push`/`pop` and `reset` are resolved while reading, so the commands of the
//! resulting [`Script`] only mention declared variables, constants and
//! operations of [`fpsym_expr::Op`]. Every error is a [`ParseError`] that
//! names the file, the 1-based line and column, and what was expected.
//!
//! [`print_term`], [`print_script`] and [`print_model`] write SMT-LIB back;
//! shared subterms are printed once with `let`, so output is linear in the
//! size of the term DAG, and printed scripts parse back to the same terms.
//!
//! ```
//! use fpsym_smtlib::{parse_script, print_term, Command};
//!
//! let src = "(declare-fun x () Float32)\n\
//!            (define-fun sq () Float32 (fp.mul RNE x x))\n\
//!            (assert (fp.lt sq ((_ to_fp 8 24) RTP 0.1)))";
//! let script = parse_script(src, "example.smt2").unwrap();
//! let Command::Assert(t) = &script.commands[2] else { unreachable!() };
//! assert_eq!(print_term(t), "(fp.lt (fp.mul RNE x x) (fp #b0 #b01111011 #b10011001100110011001101))");
//!
//! let err = parse_script("(assert (fp.isNaN y))", "bad.smt2").unwrap_err();
//! assert_eq!(err.to_string(), "bad.smt2:1:19: undeclared symbol `y`");
//! ```
//!
//! The reader is our own rather than the `smt2parser` crate: its visitor API
//! builds terms bottom-up without passing source positions to the term
//! constructors, so a sort error (the common error in practice) could not be
//! located. Lexing, S-expression reading and elaboration here are iterative
//! (explicit stacks), so very deep terms do not overflow the call stack.
#![deny(missing_docs)]

mod elab;
mod model;
mod print;
mod script;
mod sexpr;

use std::fmt;

pub use elab::{parse_script, parse_term, parse_values};
pub use model::{parse_model, print_model};
pub use print::{print_query, print_script, print_term};
pub use script::{Command, NamedTerm, Script};

/// A 1-based source position (line, column). Columns count characters, a
/// tab counting as one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
pub struct Pos {
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1.
    pub column: u32,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// A located error in an SMT-LIB input: lexical, syntactic, a sort error, or
/// a construct fpsym does not support. Displays as `file:line:column: message`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct ParseError {
    /// The file name given to the parser (used only for messages).
    pub file: String,
    /// Line of the offending token or list, from 1.
    pub line: u32,
    /// Column of the offending token or list, from 1.
    pub column: u32,
    /// What was expected and what was found.
    pub message: String,
}

impl ParseError {
    /// The position of the error.
    pub fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            column: self.column,
        }
    }
}

/// An error before the file name is attached.
#[derive(Debug, Clone)]
pub(crate) struct Located {
    pub pos: Pos,
    pub message: String,
}

impl Located {
    pub(crate) fn new(pos: Pos, message: impl Into<String>) -> Located {
        Located {
            pos,
            message: message.into(),
        }
    }
    pub(crate) fn in_file(self, file: &str) -> ParseError {
        ParseError {
            file: file.to_string(),
            line: self.pos.line,
            column: self.pos.column,
            message: self.message,
        }
    }
}

/// Shorthand for results with located errors.
pub(crate) type LResult<T> = Result<T, Located>;

/// True if `s` can be printed without `|...|` quotes.
pub(crate) fn is_simple_symbol(s: &str) -> bool {
    const RESERVED: [&str; 13] = [
        "let",
        "par",
        "_",
        "!",
        "as",
        "forall",
        "exists",
        "match",
        "NUMERAL",
        "DECIMAL",
        "STRING",
        "BINARY",
        "HEXADECIMAL",
    ];
    let Some(first) = s.chars().next() else { return false };
    !first.is_ascii_digit() && s.bytes().all(sexpr::is_symbol_byte) && !RESERVED.contains(&s)
}

/// Writes a symbol, quoting it when needed.
pub(crate) fn push_symbol(out: &mut String, s: &str) {
    if is_simple_symbol(s) {
        out.push_str(s);
    } else {
        out.push('|');
        out.push_str(s);
        out.push('|');
    }
}
