//! How a test shows an input: the C view of its bytes ([`Shape`]), taken
//! from the debug information when there is some (C names, signedness,
//! struct members by name) or from the LLVM type otherwise, and read from
//! the test's concrete bytes into scalar values ([`Shape::scalar`],
//! [`Shape::elements`]). Reading the bytes (rather than the input's
//! variables) keeps what a test shows consistent with what replay feeds
//! the program.

use crate::exec::Exec;
use crate::layout::{fp_format, Layout};
use crate::memory::Kind as MemKind;
use crate::report::{c_type_name, decimal, hex_float, TestElement};
use crate::state::State;
use fpsym_float::{Float, Format};
use fpsym_frontend::{CType, FloatKind};
use llvm_ir::Type;

/// The C view of an input's bytes.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// An integer (or a bit-field: `bits` is then its width).
    Int {
        /// Type name.
        ty: String,
        /// Width in bits.
        bits: u32,
        /// Two's complement or unsigned.
        signed: bool,
    },
    /// A float.
    Float {
        /// Type name.
        ty: String,
        /// Its format.
        format: Format,
    },
    /// A pointer (shown as an address).
    Pointer {
        /// Type name.
        ty: String,
    },
    /// An array (or a vector).
    Array {
        /// Type name.
        ty: String,
        /// The element.
        element: Box<Shape>,
        /// Number of elements.
        len: u64,
        /// Bits from one element to the next.
        stride_bits: u64,
    },
    /// A struct or union.
    Record {
        /// Type name.
        ty: String,
        /// Size in bits.
        bits: u64,
        /// Members with a shape, in declaration order.
        fields: Vec<FieldShape>,
    },
}

/// A member of a [`Shape::Record`].
#[derive(Clone, Debug, PartialEq)]
pub struct FieldShape {
    /// Its name: a C member name, empty for an anonymous member (its own
    /// members then read as members of the enclosing record), or a path
    /// (`in.a`, `[1]`) for a part of a record.
    pub name: String,
    /// Offset in bits from the start of the record.
    pub offset_bits: u64,
    /// Its shape.
    pub shape: Shape,
}

impl Shape {
    /// The type name.
    pub fn ty(&self) -> &str {
        match self {
            Shape::Int { ty, .. }
            | Shape::Float { ty, .. }
            | Shape::Pointer { ty }
            | Shape::Array { ty, .. }
            | Shape::Record { ty, .. } => ty,
        }
    }

    /// Bits the value covers (x86_fp80: 80).
    pub fn size_bits(&self) -> u64 {
        match self {
            Shape::Int { bits, .. } => *bits as u64,
            Shape::Float { format, .. } => format.width() as u64,
            Shape::Pointer { .. } => 64,
            Shape::Array { len, stride_bits, .. } => len * stride_bits,
            Shape::Record { bits, .. } => *bits,
        }
    }

    /// The shape of a C type (None for types not shown: `void`, complex
    /// numbers, functions).
    pub fn from_ctype(t: &CType) -> Option<Shape> {
        Some(match t {
            CType::Int { name, bits, signed } if (1..=128).contains(bits) => Shape::Int {
                ty: name.clone(),
                bits: *bits,
                signed: *signed,
            },
            CType::Float { name, kind } => Shape::Float {
                ty: name.clone(),
                format: match kind {
                    FloatKind::Half => Format::BINARY16,
                    FloatKind::BFloat => Format::BFLOAT16,
                    FloatKind::Single => Format::BINARY32,
                    FloatKind::Double => Format::BINARY64,
                    FloatKind::X86Fp80 => Format::X86_FP80,
                    FloatKind::Quad => Format::BINARY128,
                },
            },
            CType::Pointer { name, .. } => Shape::Pointer { ty: name.clone() },
            CType::Array { name, element, count } => Shape::Array {
                ty: name.clone(),
                stride_bits: element.size_bits(),
                element: Box::new(Shape::from_ctype(element)?),
                len: count.unwrap_or(0),
            },
            CType::Record {
                name,
                size_bits,
                fields,
                ..
            } => Shape::Record {
                ty: name.clone(),
                bits: *size_bits,
                fields: fields
                    .iter()
                    .filter_map(|f| {
                        let shape = match (Shape::from_ctype(&f.ty)?, f.bit_size) {
                            (Shape::Int { ty, signed, .. }, Some(b)) => Shape::Int { ty, bits: b, signed },
                            (s, _) => s,
                        };
                        Some(FieldShape {
                            name: f.name.clone(),
                            offset_bits: f.offset_bits,
                            shape,
                        })
                    })
                    .collect(),
            },
            _ => return None,
        })
    }

    /// The shape of an LLVM type, for inputs without debug information:
    /// integers read as signed, struct members named by position.
    pub fn from_ir(layout: &Layout, t: &Type) -> Option<Shape> {
        Some(match layout.resolve(t)? {
            Type::IntegerType { bits } if (1..=128).contains(bits) => Shape::Int {
                ty: format!("i{bits}"),
                bits: *bits,
                signed: *bits > 1,
            },
            Type::FPType(f) => {
                let format = fp_format(*f)?;
                Shape::Float {
                    ty: c_type_name(format).into(),
                    format,
                }
            }
            Type::PointerType { .. } => Shape::Pointer { ty: "ptr".into() },
            Type::ArrayType {
                element_type,
                num_elements,
            } => {
                let element = Shape::from_ir(layout, element_type)?;
                Shape::array(element, *num_elements as u64, 8 * layout.alloc_size(element_type))
            }
            Type::VectorType {
                element_type,
                num_elements,
                ..
            } => {
                let element = Shape::from_ir(layout, element_type)?;
                let stride = 8 * layout.store_size(element_type);
                Shape::Array {
                    ty: format!("<{num_elements} x {}>", element.ty()),
                    element: Box::new(element),
                    len: *num_elements as u64,
                    stride_bits: stride,
                }
            }
            r @ Type::StructType {
                element_types,
                is_packed,
            } => {
                let (offs, _) = layout.struct_offsets(element_types, *is_packed);
                let ty = match t {
                    Type::NamedStructType { name } => match name.split_once('.') {
                        Some((kw @ ("struct" | "union"), rest)) => format!("{kw} {rest}"),
                        _ => name.clone(),
                    },
                    _ => "struct".into(),
                };
                Shape::Record {
                    ty,
                    bits: 8 * layout.alloc_size(r),
                    fields: element_types
                        .iter()
                        .zip(offs)
                        .enumerate()
                        .filter_map(|(k, (e, o))| {
                            Some(FieldShape {
                                name: format!("_{k}"),
                                offset_bits: 8 * o,
                                shape: Shape::from_ir(layout, e)?,
                            })
                        })
                        .collect(),
                }
            }
            _ => return None,
        })
    }

    /// `len` elements of `element`, `stride_bits` apart (`double[3]`,
    /// `double[2][3]` for an array of arrays).
    pub fn array(element: Shape, len: u64, stride_bits: u64) -> Shape {
        let ety = element.ty();
        let ty = match (&element, ety.find('[')) {
            (Shape::Array { .. }, Some(i)) => format!("{}[{len}]{}", &ety[..i], &ety[i..]),
            _ => format!("{ety}[{len}]"),
        };
        Shape::Array {
            ty,
            element: Box::new(element),
            len,
            stride_bits,
        }
    }

    /// The part of the value covering bits `[off, off + len)`: the member
    /// or element there, with its path (`.x`, `[1]`, `.in.a`; empty for
    /// the whole); for a range over several members, a record of the
    /// scalars inside it with the path `.{a,b}`. None when no scalar lies
    /// inside the range.
    pub fn slice(&self, off: u64, len: u64) -> Option<(String, Shape)> {
        if off == 0 && len == self.size_bits() {
            return Some((String::new(), self.clone()));
        }
        match self {
            Shape::Record { fields, .. } => {
                for f in fields {
                    let end = f.offset_bits + f.shape.size_bits();
                    if off >= f.offset_bits && off + len <= end {
                        if let Some((p, s)) = f.shape.slice(off - f.offset_bits, len) {
                            return Some((join_path("", &f.name) + &p, s));
                        }
                    }
                }
            }
            Shape::Array {
                element,
                len: n,
                stride_bits,
                ..
            } if *stride_bits > 0 => {
                let k = off / stride_bits;
                if k < *n && off + len <= k * stride_bits + element.size_bits() {
                    if let Some((p, s)) = element.slice(off - k * stride_bits, len) {
                        return Some((format!("[{k}]{p}"), s));
                    }
                }
            }
            _ => {}
        }
        let mut leaves = Vec::new();
        self.leaves(String::new(), 0, &mut leaves);
        let fields: Vec<FieldShape> = leaves
            .into_iter()
            .filter(|(_, o, s)| *o >= off && o + s.size_bits() <= off + len)
            .map(|(path, o, shape)| FieldShape {
                name: path.strip_prefix('.').map(str::to_string).unwrap_or(path),
                offset_bits: o - off,
                shape,
            })
            .collect();
        if fields.is_empty() {
            return None;
        }
        let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
        Some((
            format!(".{{{}}}", names.join(",")),
            Shape::Record {
                ty: format!("{} bytes {}..{}", self.ty(), off / 8, (off + len).div_ceil(8)),
                bits: len,
                fields,
            },
        ))
    }

    /// Every scalar inside, with its path and bit offset.
    fn leaves(&self, path: String, at: u64, out: &mut Vec<(String, u64, Shape)>) {
        match self {
            Shape::Array {
                element,
                len,
                stride_bits,
                ..
            } => {
                for k in 0..*len {
                    element.leaves(format!("{path}[{k}]"), at + k * stride_bits, out);
                }
            }
            Shape::Record { fields, .. } => {
                for f in fields {
                    f.shape.leaves(join_path(&path, &f.name), at + f.offset_bits, out);
                }
            }
            s => out.push((path, at, s.clone())),
        }
    }

    /// A scalar's value read from `bytes` at bit `at`: (value, hex-float).
    /// None for aggregates and for bits past the end.
    pub fn scalar(&self, bytes: &[u8], at: u64) -> Option<(String, Option<String>)> {
        match self {
            Shape::Int { bits, signed, .. } => {
                let raw = bits_at(bytes, at, *bits as u64)?;
                Some((
                    if *signed && *bits < 128 && (raw >> (bits - 1)) & 1 == 1 {
                        ((raw as i128) - (1i128 << bits)).to_string()
                    } else if *signed {
                        (raw as i128).to_string()
                    } else {
                        raw.to_string()
                    },
                    None,
                ))
            }
            Shape::Float { format, .. } => {
                let raw = bits_at(bytes, at, format.width() as u64)?;
                let x = Float::from_bits(*format, raw);
                Some((decimal(x), Some(hex_float(x))))
            }
            Shape::Pointer { .. } => Some((format!("{:#x}", bits_at(bytes, at, 64)?), None)),
            Shape::Array { .. } | Shape::Record { .. } => None,
        }
    }

    /// The floats it holds: each one's path from the root (`[1]`, `.x`,
    /// empty for a float itself), byte offset and format.
    pub fn floats(&self) -> Vec<(String, u64, Format)> {
        let mut leaves = Vec::new();
        self.leaves(String::new(), 0, &mut leaves);
        leaves
            .into_iter()
            .filter_map(|(path, at, s)| match s {
                Shape::Float { format, .. } if at % 8 == 0 => Some((path, at / 8, format)),
                _ => None,
            })
            .collect()
    }

    /// The scalars of an aggregate read from `bytes`, named from `root`
    /// (`a[1]`, `p.x`); empty for a scalar.
    pub fn elements(&self, root: &str, bytes: &[u8]) -> Vec<TestElement> {
        if !matches!(self, Shape::Array { .. } | Shape::Record { .. }) {
            return Vec::new();
        }
        let mut leaves = Vec::new();
        self.leaves(String::new(), 0, &mut leaves);
        leaves
            .into_iter()
            .filter_map(|(path, at, s)| {
                let (value, hex) = s.scalar(bytes, at)?;
                Some(TestElement {
                    name: format!("{root}{path}"),
                    ty: s.ty().to_string(),
                    value,
                    hex,
                })
            })
            .collect()
    }
}

/// `path` then member `name` (`.name`; a path-like name as is; nothing
/// for an anonymous member).
fn join_path(path: &str, name: &str) -> String {
    if name.is_empty() {
        path.to_string()
    } else if name.starts_with('.') || name.starts_with('[') {
        format!("{path}{name}")
    } else {
        format!("{path}.{name}")
    }
}

/// `n` bits (at most 128) at bit `at` of little-endian `bytes`.
fn bits_at(bytes: &[u8], at: u64, n: u64) -> Option<u128> {
    if n == 0 || n > 128 || at + n > 8 * bytes.len() as u64 {
        return None;
    }
    let mut v: u128 = 0;
    for i in 0..n {
        let b = at + i;
        if (bytes[(b / 8) as usize] >> (b % 8)) & 1 == 1 {
            v |= 1 << i;
        }
    }
    Some(v)
}

impl Exec<'_, '_> {
    /// The C view of `size` bytes at offset `off` of the object at `base`:
    /// the variable's type from the debug information (a local through
    /// its `alloca` in the frame that owns it, a global by name), else the
    /// object's LLVM type; then the part at `off`. None for bytes of no
    /// known type (heap objects).
    pub fn object_shape(&self, st: &State, base: u64, off: u64, size: u64) -> Option<Shape> {
        let o = st.mem.get(base)?;
        let program = self.prog.program;
        let var = match o.kind {
            MemKind::Stack => st
                .frames
                .iter()
                .rev()
                .find(|f| f.allocas.contains(&base))
                .and_then(|f| program.local_variable(&self.prog.funcs[f.func].name, &o.name)),
            MemKind::Global => program.global_variable(&o.name),
            MemKind::Heap => None,
        };
        let whole = var
            .filter(|v| v.ty.size_bits() == 8 * o.size)
            .and_then(|v| Shape::from_ctype(&v.ty))
            .or_else(|| {
                let t = o.ty.as_ref()?;
                let s = Shape::from_ir(&self.prog.layout, t)?;
                (self.prog.layout.alloc_size(t) == o.size).then_some(s)
            })?;
        whole.slice(8 * off, 8 * size).map(|(_, s)| s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn double() -> Shape {
        Shape::Float {
            ty: "double".into(),
            format: Format::BINARY64,
        }
    }

    fn int(ty: &str, bits: u32, signed: bool) -> Shape {
        Shape::Int {
            ty: ty.into(),
            bits,
            signed,
        }
    }

    fn field(name: &str, offset_bits: u64, shape: Shape) -> FieldShape {
        FieldShape {
            name: name.into(),
            offset_bits,
            shape,
        }
    }

    /// struct mix { int id; unsigned flags; float w; } (96 bits).
    fn mix() -> Shape {
        Shape::Record {
            ty: "struct mix".into(),
            bits: 96,
            fields: vec![
                field("id", 0, int("int", 32, true)),
                field("flags", 32, int("unsigned int", 32, false)),
                field(
                    "w",
                    64,
                    Shape::Float {
                        ty: "float".into(),
                        format: Format::BINARY32,
                    },
                ),
            ],
        }
    }

    #[test]
    fn elements_are_read_from_the_bytes() {
        let mut bytes = Vec::new();
        bytes.extend((-7i32).to_le_bytes());
        bytes.extend(4_000_000_000u32.to_le_bytes());
        bytes.extend(2.5f32.to_le_bytes());
        let e = mix().elements("m", &bytes);
        let got: Vec<(&str, &str, &str, Option<&str>)> = e
            .iter()
            .map(|e| (e.name.as_str(), e.ty.as_str(), e.value.as_str(), e.hex.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("m.id", "int", "-7", None),
                ("m.flags", "unsigned int", "4000000000", None),
                ("m.w", "float", "2.5e0", Some("0x1.4p+1")),
            ]
        );
        // Arrays of arrays, named element by element.
        let m = Shape::array(Shape::array(double(), 3, 64), 2, 192);
        assert_eq!(m.ty(), "double[2][3]");
        let bytes: Vec<u8> = (0..6).flat_map(|k| (k as f64).to_le_bytes()).collect();
        let e = m.elements("m2", &bytes);
        assert_eq!(e.len(), 6);
        assert_eq!((e[4].name.as_str(), e[4].value.as_str()), ("m2[1][1]", "4e0"));
        // Scalars have no elements; their value comes from `scalar`.
        assert!(double().elements("x", &1.0f64.to_le_bytes()).is_empty());
        assert_eq!(
            double().scalar(&(-0.0f64).to_le_bytes(), 0),
            Some(("-0e0".to_string(), Some("-0x0p+0".to_string())))
        );
    }

    #[test]
    fn bit_fields_and_unions() {
        // struct { short s : 3; unsigned char c; } and union { double d; uint64_t bits; }
        let b = Shape::Record {
            ty: "bits_t".into(),
            bits: 16,
            fields: vec![
                field("s", 0, int("short", 3, true)),
                field("c", 8, int("unsigned char", 8, false)),
            ],
        };
        let e = b.elements("b", &[0b101, 200]);
        assert_eq!((e[0].value.as_str(), e[1].value.as_str()), ("-3", "200"));
        let u = Shape::Record {
            ty: "union u".into(),
            bits: 64,
            fields: vec![field("d", 0, double()), field("bits", 0, int("uint64_t", 64, false))],
        };
        let e = u.elements("un", &1.0f64.to_le_bytes());
        assert_eq!(e[0].value, "1e0");
        assert_eq!(e[1].value, 0x3ff0_0000_0000_0000u64.to_string());
    }

    #[test]
    fn slices_name_the_members_they_cover() {
        let pt = Shape::Record {
            ty: "struct pt".into(),
            bits: 128,
            fields: vec![field("x", 0, double()), field("y", 64, double())],
        };
        assert_eq!(pt.slice(0, 64), Some((".x".to_string(), double())));
        assert_eq!(pt.slice(64, 64), Some((".y".to_string(), double())));
        assert_eq!(pt.slice(0, 128).map(|(p, _)| p), Some(String::new()));
        // The first eightbyte of struct mix holds two members.
        let (path, part) = mix().slice(0, 64).unwrap();
        assert_eq!(path, ".{id,flags}");
        let mut bytes = (-1i32).to_le_bytes().to_vec();
        bytes.extend(3u32.to_le_bytes());
        let e = part.elements("m", &bytes);
        assert_eq!(
            e.iter()
                .map(|e| (e.name.as_str(), e.value.as_str()))
                .collect::<Vec<_>>(),
            [("m.id", "-1"), ("m.flags", "3")]
        );
        assert_eq!(
            mix().slice(64, 32).map(|(p, s)| (p, s.ty().to_string())),
            Some((".w".into(), "float".into()))
        );
        // Elements of an array of structs.
        let arr = Shape::array(pt.clone(), 2, 128);
        assert_eq!(arr.slice(192, 64), Some(("[1].y".to_string(), double())));
        assert_eq!(arr.elements("p", &[0; 32])[3].name, "p[1].y");
        // Nothing inside: no slice.
        assert_eq!(pt.slice(8, 16), None);
    }
}
