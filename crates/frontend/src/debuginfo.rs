//! C types and variable names from the module's debug information.
//!
//! llvm-ir 0.11 exposes debug locations only, so the metadata is read from
//! llvm-dis's text: `DISubprogram` (per `define … !dbg !N`) → its
//! `DILocalVariable(arg: N)` parameters, `llvm.dbg.declare` of an `alloca`
//! → its `DILocalVariable`, a global's `!dbg` → `DIGlobalVariable`, and
//! their types (`DIBasicType`, `DIDerivedType` pointers, typedefs,
//! qualifiers and members, `DICompositeType` structs, unions, arrays and
//! enums). Nothing here is needed for execution: it names and types the
//! inputs written into tests. A node that cannot be read is left out (its
//! user gets no C type), never guessed.

use std::collections::HashMap;

/// The floating-point types C has on x86-64 SysV.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatKind {
    /// `_Float16` / `__fp16`: IEEE binary16.
    Half,
    /// `__bf16`: bfloat16.
    BFloat,
    /// `float`: binary32.
    Single,
    /// `double`: binary64.
    Double,
    /// `long double`: x86 80-bit extended, stored in 16 bytes.
    X86Fp80,
    /// `__float128` / `_Float128`: binary128.
    Quad,
}

/// A C type as the debug information describes it. Typedef names replace
/// the name of the type they stand for; qualifiers (`const`, `volatile`,
/// `restrict`) are dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CType {
    /// An integer type: `char`, `short`, `int`, `long`, `_Bool`, an enum, ….
    Int {
        /// C's name (`unsigned int`, `enum color`, a typedef name).
        name: String,
        /// Width in bits.
        bits: u32,
        /// Signed (two's complement) or unsigned.
        signed: bool,
    },
    /// A floating-point type.
    Float {
        /// C's name (`double`, a typedef name).
        name: String,
        /// Which format.
        kind: FloatKind,
    },
    /// A pointer.
    Pointer {
        /// C's name (`struct pt *`).
        name: String,
        /// What it points to, when resolved (pointers inside a pointee are
        /// not followed further; `void *` and function pointers have none).
        pointee: Option<Box<CType>>,
    },
    /// An array.
    Array {
        /// C's name (`double[2][3]`).
        name: String,
        /// The element type.
        element: Box<CType>,
        /// Number of elements (None: flexible or variable length).
        count: Option<u64>,
    },
    /// A struct or union.
    Record {
        /// C's name (`struct pt`, `union u`, a typedef name, `struct
        /// <anonymous>`).
        name: String,
        /// A union (every member at offset 0).
        union: bool,
        /// Size in bits.
        size_bits: u64,
        /// The members in declaration order.
        fields: Vec<Field>,
    },
    /// Anything else (`void`, complex numbers, functions, vectors).
    Other {
        /// C's name.
        name: String,
        /// Size in bits (0 when unknown).
        size_bits: u64,
    },
}

impl CType {
    /// C's name of the type.
    pub fn name(&self) -> &str {
        match self {
            CType::Int { name, .. }
            | CType::Float { name, .. }
            | CType::Pointer { name, .. }
            | CType::Array { name, .. }
            | CType::Record { name, .. }
            | CType::Other { name, .. } => name,
        }
    }

    /// Size in bits as `sizeof` counts it (`long double`: 128).
    pub fn size_bits(&self) -> u64 {
        match self {
            CType::Int { bits, .. } => *bits as u64,
            CType::Float { kind, .. } => match kind {
                FloatKind::Half | FloatKind::BFloat => 16,
                FloatKind::Single => 32,
                FloatKind::Double => 64,
                FloatKind::X86Fp80 | FloatKind::Quad => 128,
            },
            CType::Pointer { .. } => 64,
            CType::Array { element, count, .. } => element.size_bits() * count.unwrap_or(0),
            CType::Record { size_bits, .. } | CType::Other { size_bits, .. } => *size_bits,
        }
    }

    fn renamed(mut self, new: String) -> CType {
        match &mut self {
            CType::Int { name, .. }
            | CType::Float { name, .. }
            | CType::Pointer { name, .. }
            | CType::Array { name, .. }
            | CType::Record { name, .. }
            | CType::Other { name, .. } => *name = new,
        }
        self
    }
}

/// A member of a struct or union.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Its name (empty for an anonymous struct or union member, whose
    /// members are then reached as members of the enclosing record).
    pub name: String,
    /// Offset from the start of the record, in bits.
    pub offset_bits: u64,
    /// For a bit-field, its width in bits.
    pub bit_size: Option<u32>,
    /// Its type.
    pub ty: CType,
}

/// A parameter of a function as C declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamInfo {
    /// Its name (`arg<N>` when the debug information names none).
    pub name: String,
    /// Its position, from 1.
    pub arg: u32,
    /// Its type.
    pub ty: CType,
}

/// A named variable (local or global) as C declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    /// Its name in the source.
    pub name: String,
    /// Its type.
    pub ty: CType,
}

/// One metadata node: a specialized node `!Kind(key: value, …)` or a tuple
/// `!{…}` (kind empty, items in `items`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Node {
    kind: String,
    fields: Vec<(String, String)>,
    items: Vec<String>,
}

impl Node {
    fn get(&self, key: &str) -> Option<&str> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
    fn num(&self, key: &str) -> Option<u64> {
        self.get(key).and_then(|v| v.parse().ok())
    }
    fn reference(&self, key: &str) -> Option<u32> {
        self.get(key).and_then(node_ref)
    }
    fn string(&self, key: &str) -> Option<String> {
        self.get(key).and_then(unquote)
    }
}

/// The debug information of a module, indexed for [`DebugInfo::params`],
/// [`DebugInfo::local`] and [`DebugInfo::global`].
#[derive(Clone, Debug, Default)]
pub(crate) struct DebugInfo {
    nodes: HashMap<u32, Node>,
    /// Function name → its `DISubprogram`.
    subprograms: HashMap<String, u32>,
    /// `DISubprogram` → `(arg, DILocalVariable)` of its parameters.
    params: HashMap<u32, Vec<(u32, u32)>>,
    /// (function, alloca name) → `DILocalVariable`.
    locals: HashMap<(String, String), u32>,
    /// Global variable name → `DIGlobalVariable`.
    globals: HashMap<String, u32>,
}

/// The node kinds kept (`DILocation`s, the bulk of the metadata, are not).
const KEPT: &[&str] = &[
    "DISubprogram",
    "DISubroutineType",
    "DICompositeType",
    "DIDerivedType",
    "DIBasicType",
    "DISubrange",
    "DILocalVariable",
    "DIGlobalVariable",
    "DIGlobalVariableExpression",
];

/// Indexes the debug information in llvm-dis text.
pub(crate) fn parse(ir_text: &str) -> DebugInfo {
    let mut d = DebugInfo::default();
    let mut function: Option<String> = None;
    for line in ir_text.lines() {
        if let Some(rest) = line.strip_prefix('!') {
            if let Some((id, node)) = parse_node(rest) {
                d.nodes.insert(id, node);
            }
        } else if let Some(rest) = line.strip_prefix("define ") {
            let name = rest.find('@').and_then(|at| read_name(&rest[at + 1..])).map(|(n, _)| n);
            if let (Some(name), Some(sp)) = (&name, attachment(line, "!dbg")) {
                d.subprograms.insert(name.clone(), sp);
            }
            function = name;
        } else if line.starts_with('}') {
            function = None;
        } else if let Some(rest) = line.strip_prefix('@') {
            if let (Some((name, _)), Some(gve)) = (read_name(rest), attachment(line, "!dbg")) {
                d.globals.insert(name, gve);
            }
        } else if let Some(f) = &function {
            if let Some((alloca, var)) = dbg_declare(line) {
                d.locals.insert((f.clone(), alloca), var);
            }
        }
    }
    for (&id, n) in &d.nodes {
        if n.kind == "DILocalVariable" {
            if let (Some(arg), Some(scope)) = (n.num("arg"), n.reference("scope")) {
                d.params.entry(scope).or_default().push((arg as u32, id));
            }
        }
    }
    for v in d.params.values_mut() {
        v.sort();
    }
    // Globals point at a DIGlobalVariableExpression; keep the variable.
    let globals: Vec<(String, u32)> = d.globals.drain().collect();
    for (name, id) in globals {
        let var = match d.nodes.get(&id) {
            Some(n) if n.kind == "DIGlobalVariableExpression" => n.reference("var"),
            Some(n) if n.kind == "DIGlobalVariable" => Some(id),
            _ => None,
        };
        if let Some(var) = var {
            d.globals.insert(name, var);
        }
    }
    d
}

/// `N = [distinct] !Kind(...)` or `N = [distinct] !{...}` (after the `!`).
fn parse_node(s: &str) -> Option<(u32, Node)> {
    let (id, rest) = s.split_once(" = ")?;
    let id: u32 = id.parse().ok()?;
    let rest = rest.strip_prefix("distinct ").unwrap_or(rest).strip_prefix('!')?;
    if let Some(body) = rest.strip_prefix('{') {
        let body = body.strip_suffix('}')?;
        return Some((
            id,
            Node {
                items: split_top(body).into_iter().map(str::to_string).collect(),
                ..Node::default()
            },
        ));
    }
    let open = rest.find('(')?;
    let kind = &rest[..open];
    if !KEPT.contains(&kind) {
        return None;
    }
    let body = rest[open + 1..].strip_suffix(')')?;
    let fields = split_top(body)
        .into_iter()
        .filter_map(|f| f.split_once(": "))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    Some((
        id,
        Node {
            kind: kind.to_string(),
            fields,
            items: Vec::new(),
        },
    ))
}

/// Splits at top-level `, ` (outside quotes and brackets).
fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut quoted = false;
    let mut start = 0;
    let b = s.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'"' => quoted = !quoted,
            b'(' | b'{' | b'[' | b'<' if !quoted => depth += 1,
            b')' | b'}' | b']' | b'>' if !quoted => depth -= 1,
            b',' if !quoted && depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s[start..].trim().is_empty() {
        out.push(s[start..].trim());
    }
    out
}

/// `!N` → N.
fn node_ref(s: &str) -> Option<u32> {
    s.trim().strip_prefix('!')?.parse().ok()
}

/// A metadata string `"…"` with `\XX` escapes decoded.
fn unquote(s: &str) -> Option<String> {
    let inner = s.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some(decode_escapes(inner))
}

fn decode_escapes(raw: &str) -> String {
    let b = raw.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 2 < b.len() {
            if let Some(v) = std::str::from_utf8(&b[i + 1..i + 3])
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
            {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// An LLVM identifier after its sigil: `"quoted"` (escapes decoded) or bare.
fn read_name(s: &str) -> Option<(String, &str)> {
    if let Some(rest) = s.strip_prefix('"') {
        let end = rest.find('"')?;
        return Some((decode_escapes(&rest[..end]), &rest[end + 1..]));
    }
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || "-$._".contains(c)))
        .unwrap_or(s.len());
    (end > 0).then(|| (s[..end].to_string(), &s[end..]))
}

/// The node of the first `<key> !N` attachment on a line.
fn attachment(line: &str, key: &str) -> Option<u32> {
    let pat = format!("{key} !");
    let at = line.find(&pat)? + pat.len();
    let digits: String = line[at..].chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// `call void @llvm.dbg.declare(metadata T* %x, metadata !N, …)` → (x, N).
fn dbg_declare(line: &str) -> Option<(String, u32)> {
    let at = line.find("@llvm.dbg.declare(metadata ")?;
    let args = &line[at + "@llvm.dbg.declare(metadata ".len()..];
    let sep = args.find(", metadata !")?;
    let var: u32 = {
        let rest = &args[sep + ", metadata !".len()..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()?
    };
    let value = &args[..sep];
    let name = if value.ends_with('"') {
        let start = value.rfind("%\"")?;
        read_name(&value[start + 1..])?.0
    } else {
        let start = value.rfind('%')?;
        read_name(&value[start + 1..])?.0
    };
    Some((name, var))
}

/// How deep types are followed (guards against malformed cycles).
const MAX_DEPTH: u32 = 64;

impl DebugInfo {
    /// The C parameters of `function` in order (None without debug
    /// information for it).
    pub(crate) fn params(&self, function: &str) -> Option<Vec<ParamInfo>> {
        let sp = *self.subprograms.get(function)?;
        let node = self.nodes.get(&sp)?;
        // Declared parameter types (the first entry is the return type; a
        // trailing `null` marks a variadic function).
        let types: Vec<Option<u32>> = node
            .reference("type")
            .and_then(|t| self.nodes.get(&t))
            .and_then(|t| t.reference("types"))
            .and_then(|t| self.nodes.get(&t))
            .map(|t| t.items.iter().skip(1).map(|i| node_ref(i)).collect())
            .unwrap_or_default();
        let declared = match types.last() {
            Some(None) => types.len() - 1,
            _ => types.len(),
        };
        let vars: HashMap<u32, u32> = self.params.get(&sp).cloned().unwrap_or_default().into_iter().collect();
        let n = declared.max(vars.keys().copied().max().unwrap_or(0) as usize);
        let mut out = Vec::with_capacity(n);
        for k in 1..=n as u32 {
            let var = vars.get(&k).and_then(|v| self.nodes.get(v));
            let name = var.and_then(|v| v.string("name")).unwrap_or_else(|| format!("arg{k}"));
            let ty = var
                .and_then(|v| v.get("type"))
                .and_then(node_ref)
                .or_else(|| types.get(k as usize - 1).copied().flatten());
            let ty = self.ctype(ty, 1, 0)?;
            out.push(ParamInfo { name, arg: k, ty });
        }
        Some(out)
    }

    /// The local variable `function` keeps in its `alloca` named `alloca`.
    pub(crate) fn local(&self, function: &str, alloca: &str) -> Option<Variable> {
        let id = self.locals.get(&(function.to_string(), alloca.to_string()))?;
        self.variable(*id)
    }

    /// The C variable behind global `global`.
    pub(crate) fn global(&self, global: &str) -> Option<Variable> {
        self.variable(*self.globals.get(global)?)
    }

    fn variable(&self, id: u32) -> Option<Variable> {
        let n = self.nodes.get(&id)?;
        let name = n.string("name")?;
        let ty = self.ctype(n.reference("type"), 1, 0)?;
        Some(Variable { name, ty })
    }

    /// The type of node `id` (None: void). `pointers` is how many levels
    /// of pointers are followed to their pointee.
    fn ctype(&self, id: Option<u32>, pointers: u32, depth: u32) -> Option<CType> {
        let Some(id) = id else {
            return Some(CType::Other {
                name: "void".into(),
                size_bits: 0,
            });
        };
        if depth > MAX_DEPTH {
            return None;
        }
        let n = self.nodes.get(&id)?;
        let name = n.string("name");
        let size = n.num("size").unwrap_or(0);
        match n.kind.as_str() {
            "DIBasicType" => {
                let name = name?;
                let enc = n.get("encoding").unwrap_or("");
                Some(match enc {
                    "DW_ATE_float" => {
                        let kind = match (size, name.as_str()) {
                            (16, "__bf16") => FloatKind::BFloat,
                            (16, _) => FloatKind::Half,
                            (32, _) => FloatKind::Single,
                            (64, _) => FloatKind::Double,
                            (128 | 80, "long double") => FloatKind::X86Fp80,
                            (128, _) => FloatKind::Quad,
                            _ => return Some(CType::Other { name, size_bits: size }),
                        };
                        CType::Float { name, kind }
                    }
                    "DW_ATE_signed" | "DW_ATE_signed_char" => CType::Int {
                        name,
                        bits: size as u32,
                        signed: true,
                    },
                    "DW_ATE_unsigned" | "DW_ATE_unsigned_char" | "DW_ATE_boolean" | "DW_ATE_UTF" => CType::Int {
                        name,
                        bits: size as u32,
                        signed: false,
                    },
                    _ => CType::Other { name, size_bits: size },
                })
            }
            "DIDerivedType" => {
                let base = n.reference("baseType");
                match n.get("tag")? {
                    "DW_TAG_typedef" => {
                        let t = self.ctype(base, pointers, depth + 1)?;
                        Some(match name {
                            Some(nm) => t.renamed(nm),
                            None => t,
                        })
                    }
                    "DW_TAG_const_type" | "DW_TAG_volatile_type" | "DW_TAG_restrict_type" | "DW_TAG_atomic_type" => {
                        self.ctype(base, pointers, depth + 1)
                    }
                    "DW_TAG_pointer_type" => {
                        let pointee = if pointers > 0 {
                            self.ctype(base, pointers - 1, depth + 1)
                        } else {
                            None
                        };
                        let pname = match &pointee {
                            Some(p) => p.name().to_string(),
                            None => self.type_name(base, depth + 1),
                        };
                        let pointee = pointee.filter(|p| !matches!(p, CType::Other { .. }));
                        Some(CType::Pointer {
                            name: format!("{pname} *"),
                            pointee: pointee.map(Box::new),
                        })
                    }
                    _ => None,
                }
            }
            "DICompositeType" => match n.get("tag")? {
                "DW_TAG_structure_type" | "DW_TAG_union_type" => {
                    let union = n.get("tag") == Some("DW_TAG_union_type");
                    let kw = if union { "union" } else { "struct" };
                    let name = format!("{kw} {}", name.unwrap_or_else(|| "<anonymous>".into()));
                    let mut fields = Vec::new();
                    let members = n.reference("elements").and_then(|e| self.nodes.get(&e));
                    for m in members.map(|m| m.items.as_slice()).unwrap_or_default() {
                        let Some(m) = node_ref(m).and_then(|m| self.nodes.get(&m)) else {
                            continue;
                        };
                        if m.kind != "DIDerivedType" || m.get("tag") != Some("DW_TAG_member") {
                            continue;
                        }
                        let Some(ty) = self.ctype(m.reference("baseType"), pointers, depth + 1) else {
                            continue;
                        };
                        let bitfield = m.get("flags").is_some_and(|f| f.contains("DIFlagBitField"));
                        fields.push(Field {
                            name: m.string("name").unwrap_or_default(),
                            offset_bits: m.num("offset").unwrap_or(0),
                            bit_size: if bitfield {
                                m.num("size").map(|s| s as u32)
                            } else {
                                None
                            },
                            ty,
                        });
                    }
                    Some(CType::Record {
                        name,
                        union,
                        size_bits: size,
                        fields,
                    })
                }
                "DW_TAG_enumeration_type" => {
                    let signed = match self.ctype(n.reference("baseType"), 0, depth + 1) {
                        Some(CType::Int { signed, .. }) => signed,
                        _ => true,
                    };
                    Some(CType::Int {
                        name: format!("enum {}", name.unwrap_or_else(|| "<anonymous>".into())),
                        bits: size as u32,
                        signed,
                    })
                }
                "DW_TAG_array_type" => {
                    let element = self.ctype(n.reference("baseType"), pointers, depth + 1)?;
                    let ranges = n.reference("elements").and_then(|e| self.nodes.get(&e))?;
                    let counts: Vec<Option<u64>> = ranges
                        .items
                        .iter()
                        .map(|r| {
                            let r = self.nodes.get(&node_ref(r)?)?;
                            r.get("count")
                                .and_then(|c| c.parse::<i64>().ok())
                                .and_then(|c| u64::try_from(c).ok())
                        })
                        .collect();
                    let base = element.name().to_string();
                    // Innermost dimension first.
                    let mut t = element;
                    for (k, count) in counts.iter().enumerate().rev() {
                        let dims: String = counts[k..]
                            .iter()
                            .map(|c| c.map_or("[]".to_string(), |c| format!("[{c}]")))
                            .collect();
                        t = CType::Array {
                            name: format!("{base}{dims}"),
                            element: Box::new(t),
                            count: *count,
                        };
                    }
                    Some(t)
                }
                _ => Some(CType::Other {
                    name: name.unwrap_or_default(),
                    size_bits: size,
                }),
            },
            _ => Some(CType::Other {
                name: name.unwrap_or_default(),
                size_bits: size,
            }),
        }
    }

    /// A type's name without resolving its members (for pointers not followed).
    fn type_name(&self, id: Option<u32>, depth: u32) -> String {
        let Some(n) = id.and_then(|i| self.nodes.get(&i)) else {
            return "void".into();
        };
        if depth > MAX_DEPTH {
            return "?".into();
        }
        let name = n.string("name");
        match (n.kind.as_str(), n.get("tag")) {
            ("DIDerivedType", Some("DW_TAG_pointer_type")) => {
                format!("{} *", self.type_name(n.reference("baseType"), depth + 1))
            }
            ("DIDerivedType", Some("DW_TAG_typedef")) if name.is_some() => name.unwrap_or_default(),
            ("DIDerivedType", _) => self.type_name(n.reference("baseType"), depth + 1),
            ("DICompositeType", Some(tag)) => {
                let kw = match tag {
                    "DW_TAG_structure_type" => "struct ",
                    "DW_TAG_union_type" => "union ",
                    "DW_TAG_enumeration_type" => "enum ",
                    _ => "",
                };
                format!("{kw}{}", name.unwrap_or_else(|| "<anonymous>".into()))
            }
            ("DISubroutineType", _) => "function".into(),
            _ => name.unwrap_or_else(|| "?".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_fields_outside_quotes_and_brackets() {
        assert_eq!(
            split_top(r#"name: "a, b", scope: !1, expr: !DIExpression(DW_OP_plus, 8), flags: A | B"#),
            vec![
                r#"name: "a, b""#,
                "scope: !1",
                "expr: !DIExpression(DW_OP_plus, 8)",
                "flags: A | B"
            ]
        );
        assert_eq!(unquote(r#""a\22b""#).as_deref(), Some("a\"b"));
    }

    #[test]
    fn reads_dbg_declare() {
        let l = "  call void @llvm.dbg.declare(metadata { double, double }* %\"p q\", metadata !58, metadata !DIExpression()), !dbg !59";
        assert_eq!(dbg_declare(l), Some(("p q".to_string(), 58)));
        let l =
            "  call void @llvm.dbg.declare(metadata %struct.pt* %p, metadata !7, metadata !DIExpression()), !dbg !9";
        assert_eq!(dbg_declare(l), Some(("p".to_string(), 7)));
    }
}
