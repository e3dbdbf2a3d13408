//! Loads, stores, and the conversion between register values and memory
//! cells (see [`crate::memory`]).

use crate::layout::{fp_format, fp_store_size};
use crate::memory::Cell;
use crate::state::State;
use crate::term::{as_bv, bv, mk, width};
use crate::value::Val;
use fpsym_expr::{Op, Sort, Term};
use fpsym_float::{Float, Format};
use llvm_ir::Type;

use super::Exec;

/// The encoding a NaN computed by arithmetic gets: x86-64's default NaN
/// (sign set, quiet bit set, zero payload), what SSE and x87 produce for an
/// invalid operation.
fn nan_bits(fmt: Format) -> Term {
    bv(fmt.width(), Float::nan(fmt).to_bits() | (1u128 << (fmt.width() - 1)))
}

/// For a term of an IEEE operation that x86 computes in hardware (SSE,
/// x87: an invalid one gives the default NaN, an operand's NaN is
/// propagated), the condition that none of its float operands is NaN.
/// None for other terms (inputs, loads, selects, library models), whose
/// NaN may have any encoding.
fn made_from_numbers(t: &Term) -> Option<Term> {
    match t.op() {
        Op::FpAdd | Op::FpSub | Op::FpMul | Op::FpDiv | Op::FpFma | Op::FpSqrt | Op::FpRoundToIntegral => {}
        _ => return None,
    }
    let numbers: Vec<Term> = t
        .args()
        .iter()
        .filter(|a| matches!(a.sort(), Sort::Float(_)))
        .map(|a| mk(Op::Not, vec![mk(Op::FpIsNaN, vec![a.clone()])]))
        .collect();
    Some(
        numbers
            .into_iter()
            .reduce(|a, b| mk(Op::And, vec![a, b]))
            .unwrap_or(Term::bool(true)),
    )
}

/// Decodes an interchange encoding (`fmt.width()` bits) into a float term.
/// For x86_fp80, pseudo-denormals read as the value they denote and
/// unnormals as NaN (what the x87 unit does with an invalid operand).
/// A NaN read from a concrete encoding other than the default NaN keeps
/// its encoding (float and double): the term stays `to_fp(bits)` instead
/// of folding to fpsym's one NaN, so that its sign and payload, which
/// `signbit`, `copysign` and a later store see, are the machine's.
pub fn float_from_bits(fmt: Format, b: &Term) -> Term {
    if !fmt.has_explicit_int_bit() {
        if let Some(v) = as_bv(b) {
            let x = Float::from_bits(fmt, v);
            if x.is_nan() && bv(fmt.width(), v) != nan_bits(fmt) {
                return Term::mk(Op::ToFpFromBits(fmt), vec![b.clone()]);
            }
        }
        return mk(Op::ToFpFromBits(fmt), vec![b.clone()]);
    }
    let fb = fmt.frac_bits();
    let w = fmt.width();
    // A NaN of concrete bytes other than the default NaN keeps its
    // encoding (as float and double do): the packed term, unfolded, which
    // [`Exec::bits_of`] reads back.
    if let Some(v) = as_bv(b) {
        let e_ones = (v >> (fb + 1)) & ((1u128 << fmt.eb()) - 1) == (1u128 << fmt.eb()) - 1;
        let int_bit = (v >> fb) & 1 == 1;
        let frac = v & ((1u128 << fb) - 1);
        if e_ones && int_bit && frac != 0 && bv(w, v) != nan_bits(fmt) {
            let packed = ((v >> (w - 1)) << (w - 2)) | (((v >> (fb + 1)) & ((1u128 << fmt.eb()) - 1)) << fb) | frac;
            return Term::mk(Op::ToFpFromBits(fmt), vec![bv(w - 1, packed)]);
        }
    }
    let s = mk(Op::BvExtract(w - 1, w - 1), vec![b.clone()]);
    let e = mk(Op::BvExtract(w - 2, fb + 1), vec![b.clone()]);
    let i = mk(Op::BvExtract(fb, fb), vec![b.clone()]);
    let f = mk(Op::BvExtract(fb - 1, 0), vec![b.clone()]);
    let packed = |e: Term| mk(Op::BvConcat, vec![mk(Op::BvConcat, vec![s.clone(), e]), f.clone()]);
    let normal = mk(Op::ToFpFromBits(fmt), vec![packed(e.clone())]);
    let pseudo = mk(Op::ToFpFromBits(fmt), vec![packed(bv(fmt.eb(), 1))]);
    let e_zero = mk(Op::Eq, vec![e.clone(), bv(fmt.eb(), 0)]);
    let i_one = mk(Op::Eq, vec![i, bv(1, 1)]);
    let consistent = mk(Op::Eq, vec![i_one.clone(), mk(Op::Not, vec![e_zero.clone()])]);
    let odd = mk(Op::Ite, vec![e_zero, pseudo, crate::term::nan(fmt)]);
    mk(Op::Ite, vec![consistent, normal, odd])
}

impl Exec<'_, '_> {
    /// The bit pattern of a scalar term as a bit-vector (floats: their
    /// interchange encoding; NaN is the canonical quiet NaN). A symbolic
    /// float gets a bit-vector variable tied to it by a path constraint,
    /// made once per float term on a path ([`State::float_bits`]).
    pub fn bits_of(&mut self, st: &mut State, t: &Term) -> Term {
        let fmt = match t.sort() {
            Sort::Float(f) => f,
            _ => return t.clone(),
        };
        if let Some(v) = t.as_const() {
            let f = v.as_fp().expect("float constant");
            return if f.is_nan() {
                nan_bits(fmt)
            } else {
                bv(fmt.width(), f.to_bits())
            };
        }
        // A float that was loaded from a bit pattern and only moved since
        // keeps its pattern (loads and stores do not touch NaN payloads).
        if let (Op::ToFpFromBits(_), [b]) = (t.op(), t.args()) {
            if !fmt.has_explicit_int_bit() {
                return b.clone();
            }
            // x87: the packed NaN of [`float_from_bits`], its integer bit
            // set again.
            if let Some(p) = as_bv(b) {
                let fb = fmt.frac_bits();
                let v = ((p >> fb) << (fb + 1)) | (1u128 << fb) | (p & ((1u128 << fb) - 1));
                return bv(fmt.width(), v);
            }
        }
        // Sign operations touch the sign bit alone, a NaN's too (`xorps`,
        // `andps`, x87's `fchs`/`fabs`), and a choice is one of its values.
        let sign = bv(fmt.width(), 1u128 << (fmt.width() - 1));
        match (t.op(), t.args()) {
            (Op::FpNeg, [x]) => {
                let b = self.bits_of(st, x);
                return mk(Op::BvXor, vec![b, sign]);
            }
            (Op::FpAbs, [x]) => {
                let b = self.bits_of(st, x);
                return mk(Op::BvAnd, vec![b, mk(Op::BvNot, vec![sign])]);
            }
            (Op::Ite, [c, x, y]) => {
                let (bx, by) = (self.bits_of(st, x), self.bits_of(st, y));
                return mk(Op::Ite, vec![c.clone(), bx, by]);
            }
            _ => {}
        }
        if let Some(b) = st.float_bits.get(t) {
            return b.clone();
        }
        st.fresh += 1;
        let b = Term::var(&format!("!bits{}", st.fresh), Sort::BitVec(fmt.width()));
        std::sync::Arc::make_mut(&mut st.float_bits).insert(t.clone(), b.clone());
        // `=` holds between any two NaNs: a NaN may have any quiet
        // encoding (an input's sign and payload are free, as on the
        // machine; a signalling NaN comes only from bits, which the FP
        // exception checker sees) ...
        let same = mk(Op::Eq, vec![float_from_bits(fmt, &b), t.clone()]);
        st.constrain(same);
        let is_nan = mk(Op::FpIsNaN, vec![t.clone()]);
        let implies = |a: Term, c: Term| mk(Op::Or, vec![mk(Op::Not, vec![a]), c]);
        let q = fmt.frac_bits() - 1;
        let quiet = mk(Op::Eq, vec![mk(Op::BvExtract(q, q), vec![b.clone()]), bv(1, 1)]);
        st.constrain(implies(is_nan.clone(), quiet));
        // ... except a NaN that an IEEE operation makes from operands
        // none of which is NaN: the invalid operation's default NaN.
        if let Some(no_nan_operand) = made_from_numbers(t) {
            let canon = mk(Op::Eq, vec![b.clone(), nan_bits(fmt)]);
            st.constrain(implies(mk(Op::And, vec![is_nan, no_nan_operand]), canon));
        }
        b
    }

    /// The cells a value of type `ty` occupies when stored.
    pub fn cells_of(&mut self, v: &Val, ty: &Type) -> Vec<Cell> {
        let layout = self.prog.layout;
        let ty = layout.resolve(ty).cloned().unwrap_or(Type::VoidType);
        match (v, &ty) {
            (Val::Bv(t), _) => {
                let n = layout.store_size(&ty) as u32;
                let w = width(t);
                // A pointer (64 bits in a register) stores its low 4 bytes
                // under ILP32: every address is below 2^32.
                let t = if w < 8 * n {
                    mk(Op::BvZeroExtend(8 * n - w), vec![t.clone()])
                } else if w > 8 * n {
                    mk(Op::BvExtract(8 * n - 1, 0), vec![t.clone()])
                } else {
                    t.clone()
                };
                (0..n)
                    .map(|i| Cell {
                        val: t.clone(),
                        size: n as u8,
                        idx: i as u8,
                    })
                    .collect()
            }
            (Val::Fp(t), _) => {
                let n = fp_store_size(crate::term::format_of(t)) as u8;
                (0..n)
                    .map(|i| Cell {
                        val: t.clone(),
                        size: n,
                        idx: i,
                    })
                    .collect()
            }
            (
                Val::Agg(items),
                Type::StructType {
                    element_types,
                    is_packed,
                },
            ) => {
                let size = layout.alloc_size(&ty) as usize;
                let (offs, _) = layout.struct_offsets(element_types, *is_packed);
                let mut out = vec![Cell::byte(bv(8, 0)); size];
                for ((item, off), ety) in items.iter().zip(offs).zip(element_types) {
                    let cs = self.cells_of(item, ety);
                    out[off as usize..off as usize + cs.len()].clone_from_slice(&cs);
                }
                out
            }
            (Val::Agg(items), Type::ArrayType { element_type, .. } | Type::VectorType { element_type, .. }) => {
                // Array elements are apart by their alloc size, vector lanes
                // packed at their store size.
                let stride = if matches!(ty, Type::VectorType { .. }) {
                    layout.store_size(element_type)
                } else {
                    layout.alloc_size(element_type)
                } as usize;
                let mut out = vec![Cell::byte(bv(8, 0)); stride * items.len()];
                for (k, item) in items.iter().enumerate() {
                    let cs = self.cells_of(item, element_type);
                    out[k * stride..k * stride + cs.len()].clone_from_slice(&cs);
                }
                out
            }
            (v, t) => panic!("cannot store {v:?} as {t:?}"),
        }
    }

    /// The 8-bit term of one cell.
    pub fn byte_of(&mut self, st: &mut State, c: &Cell) -> Term {
        if c.size == 1 && matches!(c.val.sort(), Sort::BitVec(8)) {
            return c.val.clone();
        }
        let bits = self.bits_of(st, &c.val);
        let lo = 8 * c.idx as u32;
        mk(Op::BvExtract(lo + 7, lo), vec![bits])
    }

    /// The value of type `ty` stored in `cells` (as many as the type's store size).
    pub fn value_of(&mut self, st: &mut State, cells: &[Cell], ty: &Type) -> Val {
        let layout = self.prog.layout;
        let ty = layout.resolve(ty).cloned().unwrap_or(Type::VoidType);
        match &ty {
            Type::StructType {
                element_types,
                is_packed,
            } => {
                let (offs, _) = layout.struct_offsets(element_types, *is_packed);
                Val::Agg(
                    offs.iter()
                        .zip(element_types)
                        .map(|(o, e)| {
                            let n = layout.store_size(e) as usize;
                            self.value_of(st, &cells[*o as usize..*o as usize + n], e)
                        })
                        .collect(),
                )
            }
            Type::ArrayType {
                element_type,
                num_elements,
            } => {
                let stride = layout.alloc_size(element_type) as usize;
                let n = layout.store_size(element_type) as usize;
                Val::Agg(
                    (0..*num_elements)
                        .map(|k| self.value_of(st, &cells[k * stride..k * stride + n], element_type))
                        .collect(),
                )
            }
            Type::VectorType {
                element_type,
                num_elements,
                ..
            } => {
                let n = layout.store_size(element_type) as usize;
                Val::Agg(
                    (0..*num_elements)
                        .map(|k| self.value_of(st, &cells[k * n..(k + 1) * n], element_type))
                        .collect(),
                )
            }
            Type::FPType(f) => {
                let fmt = fp_format(*f).expect("validated float type");
                let n = fp_store_size(fmt) as usize;
                let c = &cells[..n];
                if whole(c) && c[0].val.sort() == Sort::Float(fmt) {
                    return Val::Fp(c[0].val.clone());
                }
                let b = self.concat(st, c);
                let b = if width(&b) > fmt.width() {
                    mk(Op::BvExtract(fmt.width() - 1, 0), vec![b])
                } else {
                    b
                };
                Val::Fp(float_from_bits(fmt, &b))
            }
            Type::IntegerType { bits } => {
                let n = bits.div_ceil(8) as usize;
                let c = &cells[..n];
                let b = if whole(c) && matches!(c[0].val.sort(), Sort::BitVec(w) if w == 8 * n as u32) {
                    c[0].val.clone()
                } else {
                    self.concat(st, c)
                };
                Val::Bv(if width(&b) > *bits {
                    mk(Op::BvExtract(bits - 1, 0), vec![b])
                } else {
                    b
                })
            }
            Type::PointerType { .. } => {
                // 8 bytes, or 4 under ILP32 (zero-extended: a register holds
                // a pointer in 64 bits).
                let n = layout.pointer_bytes() as usize;
                let c = &cells[..n];
                let b = if whole(c) && matches!(c[0].val.sort(), Sort::BitVec(w) if w == 8 * n as u32) {
                    c[0].val.clone()
                } else {
                    self.concat(st, c)
                };
                Val::Bv(if n < 8 {
                    mk(Op::BvZeroExtend(64 - 8 * n as u32), vec![b])
                } else {
                    b
                })
            }
            t => panic!("cannot load a value of type {t:?}"),
        }
    }

    /// The little-endian concatenation of the cells' bytes.
    fn concat(&mut self, st: &mut State, cells: &[Cell]) -> Term {
        let mut acc: Option<Term> = None;
        for c in cells {
            let b = self.byte_of(st, c);
            acc = Some(match acc {
                None => b,
                Some(lo) => mk(Op::BvConcat, vec![b, lo]),
            });
        }
        acc.expect("at least one byte")
    }

    /// The concrete value of a bit-vector term, if it has one.
    pub fn concrete(&self, t: &Term) -> Option<u128> {
        as_bv(t)
    }
}

/// All cells are the bytes 0..n of one n-byte value, in order.
fn whole(c: &[Cell]) -> bool {
    let n = c.len();
    c.iter()
        .enumerate()
        .all(|(i, x)| x.size as usize == n && x.idx as usize == i && x.val == c[0].val)
}
