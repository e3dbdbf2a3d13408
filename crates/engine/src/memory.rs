//! Memory: objects at concrete addresses with byte-level symbolic contents.
//!
//! Each byte of an object is a [`Cell`]: byte `idx` (little-endian) of a
//! value term `val` that is `size` bytes long. A store of a 4-byte float
//! writes four cells sharing the float term; a load of the same four bytes
//! gets the float term back unchanged, and a load of a part (or of the
//! bytes as an integer) takes the value's bit pattern apart. So floats
//! travel through memory as bit patterns (memcpy, unions, punning) without
//! every float becoming a concatenation of byte variables.
//!
//! Objects are never moved and addresses never reused: freed and popped
//! objects stay (dead) so that a use after free is recognised. Objects are
//! shared between forked states and copied on write.

use fpsym_expr::Term;
use std::sync::Arc;

/// One byte of memory: byte `idx` of the `size`-byte value `val`.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// A bit-vector or float term.
    pub val: Term,
    /// Bytes in `val`'s stored form.
    pub size: u8,
    /// Which byte, 0 = least significant.
    pub idx: u8,
}

impl Cell {
    /// A plain byte (an 8-bit term).
    pub fn byte(t: Term) -> Cell {
        Cell {
            val: t,
            size: 1,
            idx: 0,
        }
    }
}

/// Where an object lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A local variable (`alloca`); dies when its function returns.
    Stack,
    /// A global variable or string constant.
    Global,
    /// `malloc` and friends; dies at `free`.
    Heap,
}

/// A memory object.
#[derive(Clone, Debug)]
pub struct Object {
    /// First address.
    pub base: u64,
    /// Size in bytes.
    pub size: u64,
    /// Where it lives.
    pub kind: Kind,
    /// A name for messages (variable name, `malloc`, ...).
    pub name: String,
    /// False once freed or popped.
    pub alive: bool,
    /// Constant globals.
    pub read_only: bool,
    /// The allocated LLVM type, when known (allocas and globals).
    pub ty: Option<llvm_ir::TypeRef>,
    /// The contents.
    pub cells: Arc<Vec<Cell>>,
    /// For an object of a symbolic size (`alloca` of a symbolic count, a
    /// C99 VLA): its size in bytes as a 64-bit term; `size` is then the
    /// capacity reserved, and every access is checked against this term.
    pub sym_size: Option<fpsym_expr::Term>,
}

/// Machine bytes beside an object's cells: the fast path stores concrete
/// values here (a few byte writes, where a cell takes a term and a
/// counted reference per byte), and `Memory::flush_shadows` turns them
/// into the cells the executor would have written when the fast path
/// hands the state back. So every reader of `cells` outside the fast
/// path sees the executor's contents.
#[derive(Clone, Debug, Default)]
pub struct Shadow {
    /// The object's bytes where their tag is not 0.
    pub bytes: Vec<u8>,
    /// Per byte: 0 when `cells` holds it; otherwise how it was stored
    /// ([`Shadow::tag`]).
    pub tags: Vec<u8>,
    /// The bytes with a tag not 0 are in `[lo, hi)`.
    lo: usize,
    hi: usize,
}

/// Writes the `dst.len()` (1 to 8) low bytes of `bits` into `dst`,
/// little-endian: a fixed-size copy for 1, 2, 4 and 8 bytes (a copy of
/// a length known only at run time calls `memcpy`).
#[inline(always)]
pub(crate) fn put_le(dst: &mut [u8], bits: u64) {
    match dst.len() {
        8 => dst.copy_from_slice(&bits.to_le_bytes()),
        4 => dst.copy_from_slice(&(bits as u32).to_le_bytes()),
        2 => dst.copy_from_slice(&(bits as u16).to_le_bytes()),
        1 => dst[0] = bits as u8,
        n => dst.copy_from_slice(&bits.to_le_bytes()[..n]),
    }
}

/// The little-endian value of `src` (1 to 8 bytes), as [`put_le`] writes it.
#[inline(always)]
pub(crate) fn get_le(src: &[u8]) -> u64 {
    match *src {
        [a, b, c, d, e, f, g, h] => u64::from_le_bytes([a, b, c, d, e, f, g, h]),
        [a, b, c, d] => u32::from_le_bytes([a, b, c, d]) as u64,
        [a, b] => u16::from_le_bytes([a, b]) as u64,
        [a] => a as u64,
        _ => {
            let mut b = [0u8; 8];
            b[..src.len()].copy_from_slice(src);
            u64::from_le_bytes(b)
        }
    }
}

/// Whether each of the `n` (1 to 8) low bytes of `w` is not 0 (a word
/// at a time: a byte's borrow reaches its top bit only from 0).
#[inline(always)]
pub(crate) fn no_zero_byte(w: u64, n: usize) -> bool {
    let ones = (u64::MAX / 255) >> (64 - 8 * n);
    (w.wrapping_sub(ones) & !w & (ones << 7)) == 0
}

/// What a shadowed byte was stored as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stored {
    /// An integer (or pointer), zero-extended to its bytes.
    Int = 1,
    /// A binary32 value (never NaN).
    F32 = 2,
    /// A binary64 value (never NaN).
    F64 = 3,
}

impl Shadow {
    /// The tag of byte `idx` of a `size`-byte value (1 to 8 bytes) stored
    /// as `class`: never 0.
    #[inline(always)]
    pub fn tag(class: Stored, size: usize, idx: usize) -> u8 {
        (class as u8) << 6 | ((size - 1) as u8) << 3 | idx as u8
    }

    fn sized(n: usize) -> Box<Shadow> {
        Box::new(Shadow {
            bytes: vec![0; n],
            tags: vec![0; n],
            lo: n,
            hi: 0,
        })
    }

    /// Writes the `size` low bytes of `bits` at `off`; true when the
    /// shadow had no tagged byte before (the object must be flushed).
    #[inline(always)]
    fn put(&mut self, off: usize, bits: u64, size: usize, class: Stored) -> bool {
        let clean = self.hi == 0;
        put_le(&mut self.bytes[off..off + size], bits);
        // Byte i's tag is `tag(class, size, 0) + i` (i < 8: no carry),
        // written a word at a time.
        let first = Shadow::tag(class, size, 0) as u64 * (u64::MAX / 255);
        put_le(&mut self.tags[off..off + size], first + 0x0706_0504_0302_0100);
        self.lo = self.lo.min(off);
        self.hi = self.hi.max(off + size);
        clean
    }

    /// The cells the executor would hold for the tagged bytes, written
    /// into `cells`; every tag is 0 afterwards. A value whose bytes are
    /// all still as stored becomes one term shared by its cells (as the
    /// executor stores it); a byte left of a value partly overwritten
    /// becomes a plain byte (the same byte).
    fn flush(&mut self, cells: &mut [Cell]) {
        use fpsym_float::Float;
        let mut p = self.lo;
        while p < self.hi {
            let t = self.tags[p];
            if t == 0 {
                p += 1;
                continue;
            }
            let size = ((t >> 3) & 7) as usize + 1;
            let class = t >> 6;
            let intact = t & 7 == 0 && p + size <= self.hi && (0..size).all(|i| self.tags[p + i] == (t & !7) | i as u8);
            if !intact {
                cells[p] = Cell::byte(Term::bv(8, self.bytes[p] as u128));
                self.tags[p] = 0;
                p += 1;
                continue;
            }
            let bits = get_le(&self.bytes[p..p + size]);
            let val = match class {
                2 => Term::fp(Float::from_f32(f32::from_bits(bits as u32))),
                3 => Term::fp(Float::from_f64(f64::from_bits(bits))),
                _ => Term::bv(8 * size as u32, bits as u128),
            };
            for i in 0..size {
                cells[p + i] = Cell {
                    val: val.clone(),
                    size: size as u8,
                    idx: i as u8,
                };
                self.tags[p + i] = 0;
            }
            p += size;
        }
        (self.lo, self.hi) = (self.tags.len(), 0);
    }

    /// The tags of bytes `[off, off + n)` (1 to 8 bytes) as one
    /// little-endian word: 0 when none has a tag.
    #[inline(always)]
    pub fn tags_at(&self, off: usize, n: usize) -> u64 {
        if off < self.hi && off + n > self.lo {
            get_le(&self.tags[off..off + n])
        } else {
            0
        }
    }

    /// Whether bytes `[off, off + n)` have a tag.
    #[inline(always)]
    pub fn any(&self, off: usize, n: usize) -> bool {
        off < self.hi && off + n > self.lo && self.tags[off..off + n].iter().any(|t| *t != 0)
    }
}

/// The address space of one state.
#[derive(Debug)]
pub struct Memory {
    /// In address order: objects are only ever added, each above the
    /// last (a search is a binary search of a vector, cheaper than an
    /// ordered map's range query).
    objects: Vec<Arc<Object>>,
    next: u64,
    /// Bytes in live objects.
    pub live_bytes: u64,
    /// Concrete bytes the fast path stored, not yet in the cells, by
    /// object index (see [`Shadow`]): made on an object's first such
    /// store and kept. Outside the fast path every tag is 0 (the cells
    /// hold every byte). Beside the objects, not in them: a store needs
    /// no unique object (`Arc::make_mut`, an atomic operation) until
    /// the bytes are flushed.
    shadows: Vec<Option<Box<Shadow>>>,
    /// Indices of objects whose shadow has tagged bytes (empty outside
    /// the fast path).
    shadowed: Vec<usize>,
    /// The index of the object the fast path found last: the next access
    /// is most often to the same one (checked, never trusted).
    last: usize,
}

/// Gap left between objects, so that running off one object never lands in
/// the next.
const RED_ZONE: u64 = 64;
/// Addresses below this are never allocated (null and small integers).
pub const FIRST_ADDRESS: u64 = 0x1_0000;

impl Default for Memory {
    fn default() -> Self {
        Memory {
            objects: Vec::new(),
            next: FIRST_ADDRESS,
            live_bytes: 0,
            shadows: Vec::new(),
            shadowed: Vec::new(),
            last: 0,
        }
    }
}

/// A copy (a fork's). Only the shadows holding tagged bytes are copied
/// (there are none outside the fast path); each copy makes the others
/// again on its first store there.
impl Clone for Memory {
    fn clone(&self) -> Self {
        let mut shadows = Vec::new();
        for &k in &self.shadowed {
            if shadows.len() <= k {
                shadows.resize_with(k + 1, || None);
            }
            shadows[k] = self.shadows[k].clone();
        }
        Memory {
            objects: self.objects.clone(),
            next: self.next,
            live_bytes: self.live_bytes,
            shadows,
            shadowed: self.shadowed.clone(),
            last: self.last,
        }
    }
}

impl Memory {
    /// Allocates `size` bytes aligned to `align` (at least 16), filled with
    /// `fill`; returns the base address.
    pub fn allocate(
        &mut self,
        size: u64,
        align: u64,
        kind: Kind,
        name: &str,
        ty: Option<llvm_ir::TypeRef>,
        fill: Cell,
    ) -> u64 {
        let align = align.max(16);
        let base = self.next.div_ceil(align) * align;
        self.next = base + size.max(1) + RED_ZONE;
        self.live_bytes += size;
        debug_assert!(self.objects.last().is_none_or(|o| o.base < base));
        self.objects.push(Arc::new(Object {
            base,
            size,
            kind,
            name: name.to_string(),
            alive: true,
            read_only: false,
            ty,
            cells: Arc::new(vec![fill; size as usize]),
            sym_size: None,
        }));
        base
    }

    /// Gives the object at `base` a symbolic size (see [`Object::sym_size`]).
    pub fn set_symbolic_size(&mut self, base: u64, size: fpsym_expr::Term) {
        if let Some(o) = self.get_mut(base) {
            o.sym_size = Some(size);
        }
    }

    /// The object whose extent `[base, base + size)` contains `addr` (dead
    /// ones included); a zero-sized object matches its base only.
    pub fn find(&self, addr: u64) -> Option<&Object> {
        let o = &self.objects[self.below(addr)?];
        (addr < o.base + o.size.max(1)).then_some(o.as_ref())
    }

    /// Mutable access to the object [`Memory::find`] gives, if `ok` of it
    /// (copied if shared, after `ok` said yes).
    pub fn find_mut_if(&mut self, addr: u64, ok: impl FnOnce(&Object) -> bool) -> Option<&mut Object> {
        let k = self.index_of(addr)?;
        let o = &mut self.objects[k];
        ok(o).then(|| Arc::make_mut(o))
    }

    /// The object whose red zone (the gap after it) holds `addr`: what an
    /// access just past an object's end touched.
    pub fn just_past(&self, addr: u64) -> Option<&Object> {
        let o = &self.objects[self.below(addr)?];
        let end = o.base + o.size.max(1);
        (addr >= end && addr < end + RED_ZONE).then_some(o.as_ref())
    }

    /// The object starting at `base`.
    pub fn get(&self, base: u64) -> Option<&Object> {
        let k = self.below(base)?;
        (self.objects[k].base == base).then(|| self.objects[k].as_ref())
    }

    /// The index of the object [`Memory::find`] gives for `addr`, the
    /// one found last tried first (no search when the access is to it
    /// again).
    #[inline(always)]
    fn index_of(&mut self, addr: u64) -> Option<usize> {
        let within = |o: &Object| o.base <= addr && addr < o.base + o.size.max(1);
        if self.objects.get(self.last).is_some_and(|o| within(o)) {
            return Some(self.last);
        }
        let k = self.below(addr)?;
        within(&self.objects[k]).then(|| {
            self.last = k;
            k
        })
    }

    /// [`Memory::find`], faster when the object is the one found last
    /// (the fast path's loads), with its shadow if it has one.
    #[inline(always)]
    pub(crate) fn locate(&mut self, addr: u64) -> Option<(&Object, Option<&Shadow>)> {
        let k = self.index_of(addr)?;
        Some((self.objects[k].as_ref(), self.shadows.get(k).and_then(|s| s.as_deref())))
    }

    /// Whether some of the `n` bytes at `addr` are in their object's
    /// shadow (stored by the fast path, not yet in the cells).
    pub(crate) fn shadowed(&self, addr: u64, n: u64) -> bool {
        let Some(k) = self.below(addr) else { return false };
        let o = &self.objects[k];
        let within = addr - o.base + n <= o.size;
        self.shadows
            .get(k)
            .and_then(|s| s.as_deref())
            .is_some_and(|sh| within && sh.any((addr - o.base) as usize, n as usize))
    }

    /// The index of the last object starting at or below `addr`.
    #[inline]
    fn below(&self, addr: u64) -> Option<usize> {
        self.objects.partition_point(|o| o.base <= addr).checked_sub(1)
    }

    /// Mutable access to the object starting at `base` (copied if shared).
    pub fn get_mut(&mut self, base: u64) -> Option<&mut Object> {
        let k = self.below(base)?;
        let o = &mut self.objects[k];
        (o.base == base).then(|| Arc::make_mut(o))
    }

    /// Marks the object dead.
    pub fn kill(&mut self, base: u64) {
        if let Some(o) = self.get_mut(base) {
            if o.alive {
                o.alive = false;
                let size = o.size;
                self.live_bytes -= size;
            }
        }
    }

    /// Stores the `size` low bytes of `bits` (a value of 1 to 8 bytes
    /// stored as `class`) at `a`, in the shadow of the object holding
    /// it, if `ok` of that object: the fast path's store. The cells
    /// follow at [`Memory::flush_shadows`].
    #[inline(always)]
    pub(crate) fn store_shadowed(
        &mut self,
        a: u64,
        bits: u64,
        size: usize,
        class: Stored,
        ok: impl FnOnce(&Object) -> bool,
    ) -> Option<()> {
        let k = self.index_of(a)?;
        let o = &self.objects[k];
        if !ok(o) {
            return None;
        }
        let (off, n) = ((a - o.base) as usize, o.size as usize);
        if self.shadows.len() <= k {
            self.shadows.resize_with(k + 1, || None);
        }
        // (Not `get_or_insert_with`, which stayed a call per store.)
        let sh = match &mut self.shadows[k] {
            Some(sh) => sh,
            none => none.insert(Shadow::sized(n)),
        };
        if sh.put(off, bits, size, class) {
            self.shadowed.push(k);
        }
        Some(())
    }

    /// Writes every shadowed byte into its object's cells (see
    /// [`Shadow`]): the fast path does this before it hands a state back.
    pub(crate) fn flush_shadows(&mut self) {
        for k in std::mem::take(&mut self.shadowed) {
            let sh = self.shadows[k].as_mut().expect("a shadowed object has a shadow");
            let o = Arc::make_mut(&mut self.objects[k]);
            sh.flush(Arc::make_mut(&mut o.cells).as_mut_slice());
        }
    }

    /// Cells `[off, off + n)` of the object at `base` (caller checked bounds).
    pub fn read(&self, base: u64, off: u64, n: u64) -> Vec<Cell> {
        debug_assert!(
            self.shadowed.is_empty(),
            "cells read while the fast path's bytes are not in them"
        );
        let o = self.get(base).expect("a read of an existing object");
        o.cells[off as usize..(off + n) as usize].to_vec()
    }

    /// Overwrites cells starting at `off` of the object at `base`.
    pub fn write(&mut self, base: u64, off: u64, cells: &[Cell]) {
        debug_assert!(
            self.shadowed.is_empty(),
            "cells written while the fast path's bytes are not in them"
        );
        let o = self.get_mut(base).expect("write to an existing object");
        let v = Arc::make_mut(&mut o.cells);
        v[off as usize..off as usize + cells.len()].clone_from_slice(cells);
    }

    /// All objects, in address order.
    pub fn objects(&self) -> impl Iterator<Item = &Object> {
        self.objects.iter().map(|o| o.as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::{get_le, no_zero_byte, put_le};

    /// The word-at-a-time helpers agree with byte-by-byte reading on
    /// every length, with zero bytes at every position (alone, in runs,
    /// beside 0x01 and 0x80 bytes, which borrow tricks get wrong).
    #[test]
    fn word_helpers_agree_with_bytes() {
        let patterns: Vec<u64> = (0..8)
            .flat_map(|z| {
                [
                    0x0101_0101_0101_0101u64,
                    0x8080_8080_8080_8080,
                    0xff01_80ff_0180_ff01,
                    0x0123_4567_89ab_cdef,
                ]
                .map(|p| p & !(0xffu64 << (8 * z)))
            })
            .chain([0, u64::MAX, 0x0100, 0x8000_0000_0000_0001])
            .collect();
        for n in 1..=8usize {
            for &w in &patterns {
                let word = w & (u64::MAX >> (64 - 8 * n));
                let bytes = word.to_le_bytes();
                assert_eq!(
                    no_zero_byte(word, n),
                    bytes[..n].iter().all(|b| *b != 0),
                    "{word:#x} in {n} bytes"
                );
                let mut buf = vec![0u8; n];
                put_le(&mut buf, w);
                assert_eq!(buf, &w.to_le_bytes()[..n]);
                assert_eq!(get_le(&buf), word);
            }
        }
    }
}
