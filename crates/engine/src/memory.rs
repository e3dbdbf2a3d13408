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
use std::collections::BTreeMap;
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

/// The address space of one state.
#[derive(Clone, Debug)]
pub struct Memory {
    objects: BTreeMap<u64, Arc<Object>>,
    next: u64,
    /// Bytes in live objects.
    pub live_bytes: u64,
}

/// Gap left between objects, so that running off one object never lands in
/// the next.
const RED_ZONE: u64 = 64;
/// Addresses below this are never allocated (null and small integers).
pub const FIRST_ADDRESS: u64 = 0x1_0000;

impl Default for Memory {
    fn default() -> Self {
        Memory {
            objects: BTreeMap::new(),
            next: FIRST_ADDRESS,
            live_bytes: 0,
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
        self.objects.insert(
            base,
            Arc::new(Object {
                base,
                size,
                kind,
                name: name.to_string(),
                alive: true,
                read_only: false,
                ty,
                cells: Arc::new(vec![fill; size as usize]),
                sym_size: None,
            }),
        );
        base
    }

    /// Gives the object at `base` a symbolic size (see [`Object::sym_size`]).
    pub fn set_symbolic_size(&mut self, base: u64, size: fpsym_expr::Term) {
        if let Some(o) = self.objects.get_mut(&base) {
            Arc::make_mut(o).sym_size = Some(size);
        }
    }

    /// The object whose extent `[base, base + size)` contains `addr` (dead
    /// ones included); a zero-sized object matches its base only.
    pub fn find(&self, addr: u64) -> Option<&Object> {
        let (_, o) = self.objects.range(..=addr).next_back()?;
        (addr < o.base + o.size.max(1)).then_some(o.as_ref())
    }

    /// Mutable access to the object [`Memory::find`] gives, if `ok` of it
    /// (copied if shared, after `ok` said yes).
    pub fn find_mut_if(&mut self, addr: u64, ok: impl FnOnce(&Object) -> bool) -> Option<&mut Object> {
        let (_, o) = self.objects.range_mut(..=addr).next_back()?;
        (addr < o.base + o.size.max(1) && ok(o)).then(|| Arc::make_mut(o))
    }

    /// The object whose red zone (the gap after it) holds `addr`: what an
    /// access just past an object's end touched.
    pub fn just_past(&self, addr: u64) -> Option<&Object> {
        let (_, o) = self.objects.range(..=addr).next_back()?;
        let end = o.base + o.size.max(1);
        (addr >= end && addr < end + RED_ZONE).then_some(o.as_ref())
    }

    /// The object starting at `base`.
    pub fn get(&self, base: u64) -> Option<&Object> {
        self.objects.get(&base).map(|o| o.as_ref())
    }

    /// Mutable access to the object starting at `base` (copied if shared).
    pub fn get_mut(&mut self, base: u64) -> Option<&mut Object> {
        self.objects.get_mut(&base).map(Arc::make_mut)
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

    /// Cells `[off, off + n)` of the object at `base` (caller checked bounds).
    pub fn read(&self, base: u64, off: u64, n: u64) -> Vec<Cell> {
        let o = &self.objects[&base];
        o.cells[off as usize..(off + n) as usize].to_vec()
    }

    /// Overwrites cells starting at `off` of the object at `base`.
    pub fn write(&mut self, base: u64, off: u64, cells: &[Cell]) {
        let o = self.get_mut(base).expect("write to an existing object");
        let v = Arc::make_mut(&mut o.cells);
        v[off as usize..off as usize + cells.len()].clone_from_slice(cells);
    }

    /// All objects, in address order.
    pub fn objects(&self) -> impl Iterator<Item = &Object> {
        self.objects.values().map(|o| o.as_ref())
    }
}
