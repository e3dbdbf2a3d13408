//! Lexer and S-expression reader with exact positions.
//!
//! S-expressions of one top-level form are stored in a flat [`Arena`] (nodes
//! refer to their children by index), so neither reading nor dropping a deep
//! expression recurses.

use crate::{LResult, Located, Pos};

/// True for the characters of SMT-LIB simple symbols besides letters and digits.
pub(crate) fn is_symbol_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"~!@$%^&*_-+=<>.?/".contains(&b)
}

/// An atom.
#[derive(Clone, Debug)]
pub(crate) enum Atom {
    /// A symbol; `quoted` if written `|...|`.
    Symbol { name: String, quoted: bool },
    /// A keyword, with its leading colon.
    Keyword(String),
    /// A numeral (digits).
    Numeral(String),
    /// A decimal `digits.digits`.
    Decimal(String),
    /// A hexadecimal literal's digits (after `#x`).
    Hex(String),
    /// A binary literal's digits (after `#b`).
    Binary(String),
    /// A string literal, unescaped.
    Str(String),
}

/// A node: an atom or a list of children.
#[derive(Clone, Debug)]
pub(crate) enum Kind {
    Atom(Atom),
    /// Children are `arena.kids[first..first + len]`.
    List {
        first: u32,
        len: u32,
    },
}

/// A node with its position and byte span in the source.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub kind: Kind,
    pub pos: Pos,
    pub start: usize,
    pub end: usize,
}

/// Index of a node in an [`Arena`].
pub(crate) type Id = u32;

/// Flat storage of the S-expressions of one top-level form.
#[derive(Default)]
pub(crate) struct Arena {
    nodes: Vec<Node>,
    kids: Vec<Id>,
}

impl Arena {
    pub(crate) fn clear(&mut self) {
        self.nodes.clear();
        self.kids.clear();
    }
    pub(crate) fn node(&self, id: Id) -> &Node {
        &self.nodes[id as usize]
    }
    pub(crate) fn pos(&self, id: Id) -> Pos {
        self.nodes[id as usize].pos
    }
    /// The children of a list, or None for an atom.
    pub(crate) fn list(&self, id: Id) -> Option<&[Id]> {
        match self.nodes[id as usize].kind {
            Kind::List { first, len } => Some(&self.kids[first as usize..(first + len) as usize]),
            Kind::Atom(_) => None,
        }
    }
    pub(crate) fn atom(&self, id: Id) -> Option<&Atom> {
        match &self.nodes[id as usize].kind {
            Kind::Atom(a) => Some(a),
            Kind::List { .. } => None,
        }
    }
    /// The symbol's name (quoted or not).
    pub(crate) fn symbol(&self, id: Id) -> Option<&str> {
        match self.atom(id) {
            Some(Atom::Symbol { name, .. }) => Some(name),
            _ => None,
        }
    }
    /// The symbol's name if written without quotes (reserved words are only
    /// recognized unquoted).
    pub(crate) fn bare_symbol(&self, id: Id) -> Option<&str> {
        match self.atom(id) {
            Some(Atom::Symbol { name, quoted: false }) => Some(name),
            _ => None,
        }
    }
    pub(crate) fn numeral(&self, id: Id) -> Option<&str> {
        match self.atom(id) {
            Some(Atom::Numeral(n)) => Some(n),
            _ => None,
        }
    }
    pub(crate) fn keyword(&self, id: Id) -> Option<&str> {
        match self.atom(id) {
            Some(Atom::Keyword(k)) => Some(k),
            _ => None,
        }
    }
    /// The node's source text on one line (whitespace runs collapsed).
    pub(crate) fn text(&self, id: Id, src: &str) -> String {
        let n = self.node(id);
        src[n.start..n.end].split_whitespace().collect::<Vec<_>>().join(" ")
    }
    /// A short description of a node for messages: its text in backquotes,
    /// abbreviated when long.
    pub(crate) fn describe(&self, id: Id, src: &str) -> String {
        let one_line = self.text(id, src);
        if one_line.chars().count() > 60 {
            let cut: String = one_line.chars().take(57).collect();
            format!("`{cut}...`")
        } else {
            format!("`{one_line}`")
        }
    }
    fn push(&mut self, node: Node) -> Id {
        self.nodes.push(node);
        (self.nodes.len() - 1) as Id
    }
}

/// A token.
enum Tok {
    Open,
    Close,
    Atom(Atom),
}

/// Reads tokens and top-level S-expressions from a source string.
pub(crate) struct Reader<'a> {
    src: &'a str,
    bytes: &'a [u8],
    i: usize,
    line: u32,
    col: u32,
    pending: Vec<Id>,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(src: &'a str) -> Reader<'a> {
        Reader {
            src,
            bytes: src.as_bytes(),
            i: 0,
            line: 1,
            col: 1,
            pending: Vec::new(),
        }
    }

    fn here(&self) -> Pos {
        Pos {
            line: self.line,
            column: self.col,
        }
    }

    fn bump(&mut self) {
        let b = self.bytes[self.i];
        self.i += 1;
        if b == b'\n' {
            self.line += 1;
            self.col = 1;
        } else if b & 0xC0 != 0x80 {
            self.col += 1;
        }
    }

    fn skip_space(&mut self) {
        while self.i < self.bytes.len() {
            match self.bytes[self.i] {
                b' ' | b'\t' | b'\r' | b'\n' | 0x0c => self.bump(),
                b';' => {
                    while self.i < self.bytes.len() && self.bytes[self.i] != b'\n' {
                        self.bump();
                    }
                }
                _ => break,
            }
        }
    }

    /// The next token with its position and byte span, or None at the end.
    fn token(&mut self) -> LResult<Option<(Tok, Pos, usize, usize)>> {
        self.skip_space();
        if self.i >= self.bytes.len() {
            return Ok(None);
        }
        let pos = self.here();
        let start = self.i;
        let b = self.bytes[self.i];
        let tok = match b {
            b'(' => {
                self.bump();
                Tok::Open
            }
            b')' => {
                self.bump();
                Tok::Close
            }
            b'"' => {
                self.bump();
                let mut s = String::new();
                loop {
                    if self.i >= self.bytes.len() {
                        return Err(Located::new(pos, "unterminated string literal: missing closing `\"`"));
                    }
                    if self.bytes[self.i] == b'"' {
                        self.bump();
                        if self.i < self.bytes.len() && self.bytes[self.i] == b'"' {
                            self.bump();
                            s.push('"');
                            continue;
                        }
                        break;
                    }
                    let from = self.i;
                    while self.i < self.bytes.len() && self.bytes[self.i] != b'"' {
                        self.bump();
                    }
                    s.push_str(&self.src[from..self.i]);
                }
                Tok::Atom(Atom::Str(s))
            }
            b'|' => {
                self.bump();
                let from = self.i;
                while self.i < self.bytes.len() && self.bytes[self.i] != b'|' {
                    self.bump();
                }
                if self.i >= self.bytes.len() {
                    return Err(Located::new(pos, "unterminated quoted symbol: missing closing `|`"));
                }
                let name = self.src[from..self.i].to_string();
                self.bump();
                Tok::Atom(Atom::Symbol { name, quoted: true })
            }
            _ => {
                while self.i < self.bytes.len()
                    && !matches!(
                        self.bytes[self.i],
                        b' ' | b'\t' | b'\r' | b'\n' | 0x0c | b'(' | b')' | b'"' | b'|' | b';'
                    )
                {
                    self.bump();
                }
                let text = &self.src[start..self.i];
                Tok::Atom(classify(text, pos)?)
            }
        };
        Ok(Some((tok, pos, start, self.i)))
    }

    /// Reads the next top-level S-expression into `arena`; None at the end of input.
    pub(crate) fn read(&mut self, arena: &mut Arena) -> LResult<Option<Id>> {
        // Open lists: position, start byte, index into `pending` of the first child.
        let mut frames: Vec<(Pos, usize, usize)> = Vec::new();
        self.pending.clear();
        loop {
            let Some((tok, pos, start, end)) = self.token()? else {
                let Some(&(open, _, _)) = frames.last() else {
                    return Ok(None);
                };
                let outer = frames[0].0;
                let mut msg = String::from("unbalanced parenthesis: this `(` is never closed (end of input reached)");
                if outer != open {
                    msg.push_str(&format!("; it is inside the form opened at {outer}"));
                }
                return Err(Located::new(open, msg));
            };
            let id = match tok {
                Tok::Open => {
                    frames.push((pos, start, self.pending.len()));
                    continue;
                }
                Tok::Close => {
                    let Some((open, s, first_pending)) = frames.pop() else {
                        return Err(Located::new(pos, "unbalanced parenthesis: `)` without a matching `(`"));
                    };
                    let first = arena.kids.len() as u32;
                    arena.kids.extend_from_slice(&self.pending[first_pending..]);
                    let len = (self.pending.len() - first_pending) as u32;
                    self.pending.truncate(first_pending);
                    arena.push(Node {
                        kind: Kind::List { first, len },
                        pos: open,
                        start: s,
                        end,
                    })
                }
                Tok::Atom(a) => arena.push(Node {
                    kind: Kind::Atom(a),
                    pos,
                    start,
                    end,
                }),
            };
            if frames.is_empty() {
                return Ok(Some(id));
            }
            self.pending.push(id);
        }
    }

    /// True when only whitespace and comments remain.
    pub(crate) fn at_end(&mut self) -> bool {
        self.skip_space();
        self.i >= self.bytes.len()
    }
}

/// Classifies a run of non-delimiter characters.
fn classify(text: &str, pos: Pos) -> LResult<Atom> {
    let bytes = text.as_bytes();
    if let Some(rest) = text.strip_prefix(':') {
        if rest.is_empty() || !rest.bytes().all(is_symbol_byte) {
            return Err(Located::new(
                pos,
                format!("bad keyword `{text}`: expected `:` followed by symbol characters"),
            ));
        }
        return Ok(Atom::Keyword(text.to_string()));
    }
    if let Some(rest) = text.strip_prefix("#b") {
        if rest.is_empty() || !rest.bytes().all(|b| b == b'0' || b == b'1') {
            return Err(Located::new(
                pos,
                format!("bad binary literal `{text}`: expected `#b` followed by the digits 0 and 1"),
            ));
        }
        return Ok(Atom::Binary(rest.to_string()));
    }
    if let Some(rest) = text.strip_prefix("#x") {
        if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(Located::new(
                pos,
                format!("bad hexadecimal literal `{text}`: expected `#x` followed by hexadecimal digits"),
            ));
        }
        return Ok(Atom::Hex(rest.to_string()));
    }
    if bytes[0] == b'#' {
        return Err(Located::new(
            pos,
            format!("bad literal `{text}`: expected `#b...` or `#x...`"),
        ));
    }
    if bytes[0].is_ascii_digit() {
        if bytes.iter().all(u8::is_ascii_digit) {
            return Ok(Atom::Numeral(text.to_string()));
        }
        if let Some((a, b)) = text.split_once('.') {
            if !b.is_empty() && a.bytes().all(|c| c.is_ascii_digit()) && b.bytes().all(|c| c.is_ascii_digit()) {
                return Ok(Atom::Decimal(text.to_string()));
            }
        }
        return Err(Located::new(
            pos,
            format!("bad numeric literal `{text}`: SMT-LIB numerals are digits and decimals are digits.digits (no exponent)"),
        ));
    }
    if let Some(c) = text.chars().find(|&c| !c.is_ascii() || !is_symbol_byte(c as u8)) {
        return Err(Located::new(
            pos,
            format!("unexpected character `{c}` in symbol `{text}` (use |...| to quote arbitrary symbols)"),
        ));
    }
    Ok(Atom::Symbol {
        name: text.to_string(),
        quoted: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(src: &str) -> LResult<Vec<(Pos, String)>> {
        let mut r = Reader::new(src);
        let mut a = Arena::default();
        let mut out = vec![];
        while let Some(id) = r.read(&mut a)? {
            out.push((a.pos(id), a.describe(id, src)));
            a.clear();
        }
        Ok(out)
    }

    #[test]
    fn positions_and_atoms() {
        let v = read_all("; c\n  (a |b c| \"x\"\"y\")\n(#b01 #xAf 12 1.5 :k)").unwrap();
        assert_eq!(v[0].0, Pos { line: 2, column: 3 });
        assert_eq!(v[1].0, Pos { line: 3, column: 1 });
    }

    #[test]
    fn unicode_columns() {
        let src = "(set-info :x |ä|) )";
        let e = read_all(src).unwrap_err();
        assert_eq!(e.pos, Pos { line: 1, column: 19 });
    }

    #[test]
    fn bad_literals() {
        for (src, col) in [
            ("(a #b102)", 4),
            ("(a 1.5e3)", 4),
            ("(a #q)", 4),
            ("(a :)", 4),
            ("(a 1.)", 4),
        ] {
            let e = read_all(src).unwrap_err();
            assert_eq!(e.pos.column, col, "{src}: {}", e.message);
        }
    }

    #[test]
    fn unclosed() {
        let e = read_all("(a\n (b c)\n (d").unwrap_err();
        assert_eq!(e.pos, Pos { line: 3, column: 2 });
        assert!(e.message.contains("1:1"), "{}", e.message);
    }
}
