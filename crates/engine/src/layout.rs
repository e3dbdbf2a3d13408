//! Sizes, alignments and field offsets of LLVM types on x86-64 SysV (the
//! target fixed in ARCHITECTURE.md) and on i386 SysV (the ILP32 data model:
//! 4-byte pointers, `long long` and `double` aligned to 4, `long double` in
//! 12 bytes aligned to 4), and the mapping of LLVM float types to fpsym
//! formats.

use fpsym_float::Format;
use llvm_ir::types::{FPType, NamedStructDef, Types};
use llvm_ir::Type;

/// The fpsym format of an LLVM floating-point type (None: PPC_FP128).
pub fn fp_format(t: FPType) -> Option<Format> {
    Some(match t {
        FPType::Half => Format::BINARY16,
        FPType::BFloat => Format::BFLOAT16,
        FPType::Single => Format::BINARY32,
        FPType::Double => Format::BINARY64,
        FPType::X86_FP80 => Format::X86_FP80,
        FPType::FP128 => Format::BINARY128,
        FPType::PPC_FP128 => return None,
    })
}

/// Bytes a value of the format occupies in memory when stored (10 for x86_fp80).
pub fn fp_store_size(f: Format) -> u64 {
    (f.width() as u64).div_ceil(8)
}

/// Type layout queries against a module's named struct definitions.
#[derive(Clone, Copy)]
pub struct Layout<'m> {
    /// The module's types.
    pub types: &'m Types,
    /// The module is i386's (ILP32), not x86-64's.
    pub ilp32: bool,
}

impl<'m> Layout<'m> {
    /// The layout of `module`'s target (i386 or x86-64, by its triple).
    pub fn new(module: &'m llvm_ir::Module) -> Self {
        let ilp32 = module.target_triple.as_deref().is_some_and(fpsym_frontend::is_i386);
        Layout {
            types: &module.types,
            ilp32,
        }
    }

    /// Bytes of a pointer (8, or 4 under ILP32).
    pub fn pointer_bytes(&self) -> u64 {
        if self.ilp32 {
            4
        } else {
            8
        }
    }

    /// Resolves a named struct to its definition (None: opaque).
    pub fn resolve<'a>(&'a self, t: &'a Type) -> Option<&'a Type> {
        match t {
            Type::NamedStructType { name } => match self.types.named_struct_def(name)? {
                NamedStructDef::Opaque => None,
                NamedStructDef::Defined(d) => Some(d.as_ref()),
            },
            t => Some(t),
        }
    }

    /// Bytes written by a store of this type (LLVM's store size).
    pub fn store_size(&self, t: &Type) -> u64 {
        match self.resolve(t) {
            Some(Type::IntegerType { bits }) => (*bits as u64).div_ceil(8),
            Some(Type::FPType(f)) => fp_format(*f).map_or(16, fp_store_size),
            Some(Type::PointerType { .. }) => self.pointer_bytes(),
            // Lanes are packed (`<3 x float>` stores 12 bytes, allocates 16).
            Some(Type::VectorType {
                element_type,
                num_elements,
                ..
            }) => self.store_size(element_type) * *num_elements as u64,
            Some(Type::ArrayType { .. } | Type::StructType { .. }) => self.alloc_size(t),
            // Functions, void, labels, metadata, opaque structs: no bytes
            // (a function pointer's pointee is not data).
            _ => 0,
        }
    }

    /// Bytes between consecutive elements of this type in an array (LLVM's
    /// alloc size: store size rounded up to the alignment).
    pub fn alloc_size(&self, t: &Type) -> u64 {
        match self.resolve(t) {
            Some(Type::ArrayType {
                element_type,
                num_elements,
            }) => self.alloc_size(element_type) * *num_elements as u64,
            Some(Type::VectorType {
                element_type,
                num_elements,
                ..
            }) => (self.store_size(element_type) * *num_elements as u64).next_power_of_two(),
            Some(Type::StructType {
                element_types,
                is_packed,
            }) => {
                let (offs, end) = self.struct_offsets(element_types, *is_packed);
                let _ = offs;
                let a = if *is_packed { 1 } else { self.align(t) };
                end.div_ceil(a) * a
            }
            Some(other) => {
                let s = self.store_size(other);
                let a = self.align(other);
                s.div_ceil(a) * a
            }
            None => 0,
        }
    }

    /// ABI alignment in bytes.
    pub fn align(&self, t: &Type) -> u64 {
        match self.resolve(t) {
            // i386: `i64:32:64-f64:32:64-f80:32` (ABI alignment 4; wider
            // integers take i64's).
            Some(Type::IntegerType { bits }) => match bits {
                0..=8 => 1,
                9..=16 => 2,
                17..=32 => 4,
                _ if self.ilp32 => 4,
                33..=64 => 8,
                _ => 16,
            },
            Some(Type::FPType(f)) => match f {
                FPType::Half | FPType::BFloat => 2,
                FPType::Single => 4,
                FPType::Double | FPType::X86_FP80 if self.ilp32 => 4,
                FPType::Double => 8,
                _ => 16,
            },
            Some(Type::PointerType { .. }) => self.pointer_bytes(),
            Some(Type::ArrayType { element_type, .. }) => self.align(element_type),
            Some(Type::VectorType { .. }) => self.alloc_size(t).min(32),
            Some(Type::StructType {
                element_types,
                is_packed,
            }) => {
                if *is_packed {
                    1
                } else {
                    element_types.iter().map(|e| self.align(e)).max().unwrap_or(1)
                }
            }
            _ => 1,
        }
    }

    /// Offsets of the fields of a struct and the end of the last field.
    pub fn struct_offsets(&self, fields: &[llvm_ir::TypeRef], packed: bool) -> (Vec<u64>, u64) {
        let mut off = 0u64;
        let mut out = Vec::with_capacity(fields.len());
        for f in fields {
            let a = if packed { 1 } else { self.align(f) };
            off = off.div_ceil(a) * a;
            out.push(off);
            off += self.alloc_size(f);
        }
        (out, off)
    }

    /// The byte offset of field `i` of a struct type.
    pub fn field_offset(&self, t: &Type, i: usize) -> Option<u64> {
        match self.resolve(t)? {
            Type::StructType {
                element_types,
                is_packed,
            } => self.struct_offsets(element_types, *is_packed).0.get(i).copied(),
            _ => None,
        }
    }

    /// The type of field/element `i` of an aggregate.
    pub fn member(&self, t: &Type, i: usize) -> Option<llvm_ir::TypeRef> {
        match self.resolve(t)? {
            Type::StructType { element_types, .. } => element_types.get(i).cloned(),
            Type::ArrayType { element_type, .. } | Type::VectorType { element_type, .. } => Some(element_type.clone()),
            _ => None,
        }
    }
}
