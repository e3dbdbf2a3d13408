//! Constants whose value llvm-ir 0.11 drops: floating-point constants in
//! `x86_fp80`, `fp128`, `half` and `bfloat`, and integer constants wider
//! than 64 bits (llvm-ir keeps their low 64 bits only), and the walk over
//! llvm-ir's operands in the order llvm-dis prints them, which pairs each
//! such constant with the token that [`crate::text`] read for it.

use llvm_ir::constant::Float;
use llvm_ir::{Constant, ConstantRef, Instruction, Operand, Terminator};

/// A floating-point format whose constants llvm-ir does not keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SpecialFloat {
    /// x87 80-bit extended precision (`long double`): 1 sign bit, 15
    /// exponent bits, a 64-bit significand with an explicit integer bit.
    X86Fp80,
    /// IEEE binary128 (`__float128`).
    Fp128,
    /// IEEE binary16 (`__fp16`, `_Float16`).
    Half,
    /// bfloat16 (`__bf16`).
    BFloat,
}

impl SpecialFloat {
    /// The width of the encoding in bits (80, 128, 16, 16).
    pub fn width(self) -> u32 {
        match self {
            SpecialFloat::X86Fp80 => 80,
            SpecialFloat::Fp128 => 128,
            SpecialFloat::Half | SpecialFloat::BFloat => 16,
        }
    }

    /// The kind of an llvm-ir float constant, if it is one llvm-ir drops the
    /// value of (`None` for `float`, `double` and `ppc_fp128`).
    pub fn of(float: &Float) -> Option<SpecialFloat> {
        match float {
            Float::X86_FP80 => Some(SpecialFloat::X86Fp80),
            Float::Quadruple => Some(SpecialFloat::Fp128),
            Float::Half => Some(SpecialFloat::Half),
            Float::BFloat => Some(SpecialFloat::BFloat),
            Float::Single(_) | Float::Double(_) | Float::PPC_FP128 => None,
        }
    }
}

/// The exact value of one `x86_fp80`, `fp128`, `half` or `bfloat` constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpecialConst {
    /// The constant's format.
    pub ty: SpecialFloat,
    /// The encoding, in the low [`SpecialFloat::width`] bits: for
    /// `x86_fp80` the 80-bit memory encoding (sign, 15-bit exponent, 64-bit
    /// significand with its explicit integer bit), for `fp128` the IEEE
    /// binary128 encoding, for `half`/`bfloat` the 16-bit encoding. The
    /// little-endian bytes of `bits` are the bytes a C program stores.
    pub bits: u128,
}

/// A constant whose value the frontend reads from the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dropped {
    /// A float constant in a format llvm-ir keeps no value for.
    Float(SpecialFloat),
    /// An integer constant of this many bits (65 to 128), of which llvm-ir
    /// keeps the low 64.
    WideInt(u32),
}

/// Integer constants of more than 64 and at most this many bits are
/// recovered from the text (wider ones are not represented at all).
pub(crate) const MAX_WIDE_INT: u32 = 128;

/// Calls `f` on every constant reachable from `c` whose value llvm-ir
/// dropped, in the order llvm-dis prints them.
pub(crate) fn walk_constant<'a>(c: &'a ConstantRef, f: &mut impl FnMut(&'a ConstantRef, Dropped)) {
    use Constant as C;
    match c.as_ref() {
        C::Float(fl) => {
            if let Some(ty) = SpecialFloat::of(fl) {
                f(c, Dropped::Float(ty));
            }
        }
        C::Int { bits, .. } => {
            if (65..=MAX_WIDE_INT).contains(bits) {
                f(c, Dropped::WideInt(*bits));
            }
        }
        C::Null(_)
        | C::AggregateZero(_)
        | C::Undef(_)
        | C::Poison(_)
        | C::BlockAddress
        | C::GlobalReference { .. }
        | C::TokenNone => {}
        C::Struct { values: v, .. } | C::Array { elements: v, .. } | C::Vector(v) => {
            v.iter().for_each(|e| walk_constant(e, f))
        }
        C::Add(e) => pair(&e.operand0, &e.operand1, f),
        C::Sub(e) => pair(&e.operand0, &e.operand1, f),
        C::Mul(e) => pair(&e.operand0, &e.operand1, f),
        C::UDiv(e) => pair(&e.operand0, &e.operand1, f),
        C::SDiv(e) => pair(&e.operand0, &e.operand1, f),
        C::URem(e) => pair(&e.operand0, &e.operand1, f),
        C::SRem(e) => pair(&e.operand0, &e.operand1, f),
        C::And(e) => pair(&e.operand0, &e.operand1, f),
        C::Or(e) => pair(&e.operand0, &e.operand1, f),
        C::Xor(e) => pair(&e.operand0, &e.operand1, f),
        C::Shl(e) => pair(&e.operand0, &e.operand1, f),
        C::LShr(e) => pair(&e.operand0, &e.operand1, f),
        C::AShr(e) => pair(&e.operand0, &e.operand1, f),
        C::FAdd(e) => pair(&e.operand0, &e.operand1, f),
        C::FSub(e) => pair(&e.operand0, &e.operand1, f),
        C::FMul(e) => pair(&e.operand0, &e.operand1, f),
        C::FDiv(e) => pair(&e.operand0, &e.operand1, f),
        C::FRem(e) => pair(&e.operand0, &e.operand1, f),
        C::ICmp(e) => pair(&e.operand0, &e.operand1, f),
        C::FCmp(e) => pair(&e.operand0, &e.operand1, f),
        C::ExtractElement(e) => pair(&e.vector, &e.index, f),
        C::InsertElement(e) => {
            pair(&e.vector, &e.element, f);
            walk_constant(&e.index, f);
        }
        C::ShuffleVector(e) => {
            pair(&e.operand0, &e.operand1, f);
            walk_constant(&e.mask, f);
        }
        C::ExtractValue(e) => walk_constant(&e.aggregate, f),
        C::InsertValue(e) => pair(&e.aggregate, &e.element, f),
        C::GetElementPtr(e) => {
            walk_constant(&e.address, f);
            e.indices.iter().for_each(|i| walk_constant(i, f));
        }
        C::Trunc(e) => walk_constant(&e.operand, f),
        C::ZExt(e) => walk_constant(&e.operand, f),
        C::SExt(e) => walk_constant(&e.operand, f),
        C::FPTrunc(e) => walk_constant(&e.operand, f),
        C::FPExt(e) => walk_constant(&e.operand, f),
        C::FPToUI(e) => walk_constant(&e.operand, f),
        C::FPToSI(e) => walk_constant(&e.operand, f),
        C::UIToFP(e) => walk_constant(&e.operand, f),
        C::SIToFP(e) => walk_constant(&e.operand, f),
        C::PtrToInt(e) => walk_constant(&e.operand, f),
        C::IntToPtr(e) => walk_constant(&e.operand, f),
        C::BitCast(e) => walk_constant(&e.operand, f),
        C::AddrSpaceCast(e) => walk_constant(&e.operand, f),
        C::Select(e) => {
            walk_constant(&e.condition, f);
            pair(&e.true_value, &e.false_value, f);
        }
    }
}

fn pair<'a>(a: &'a ConstantRef, b: &'a ConstantRef, f: &mut impl FnMut(&'a ConstantRef, Dropped)) {
    walk_constant(a, f);
    walk_constant(b, f);
}

/// Calls `f` on every dropped-value constant among `ops`, in order.
fn walk_operands<'a>(ops: &[&'a Operand], f: &mut impl FnMut(&'a ConstantRef, Dropped)) {
    for op in ops {
        if let Operand::ConstantOperand(c) = op {
            walk_constant(c, f);
        }
    }
}

/// The operands of `i` in the order llvm-dis prints them (a
/// `shufflevector`'s constant mask, printed last, is not an `Operand`).
pub fn instruction_operands(i: &Instruction) -> Vec<&Operand> {
    use Instruction as I;
    match i {
        I::Add(x) => vec![&x.operand0, &x.operand1],
        I::Sub(x) => vec![&x.operand0, &x.operand1],
        I::Mul(x) => vec![&x.operand0, &x.operand1],
        I::UDiv(x) => vec![&x.operand0, &x.operand1],
        I::SDiv(x) => vec![&x.operand0, &x.operand1],
        I::URem(x) => vec![&x.operand0, &x.operand1],
        I::SRem(x) => vec![&x.operand0, &x.operand1],
        I::And(x) => vec![&x.operand0, &x.operand1],
        I::Or(x) => vec![&x.operand0, &x.operand1],
        I::Xor(x) => vec![&x.operand0, &x.operand1],
        I::Shl(x) => vec![&x.operand0, &x.operand1],
        I::LShr(x) => vec![&x.operand0, &x.operand1],
        I::AShr(x) => vec![&x.operand0, &x.operand1],
        I::FAdd(x) => vec![&x.operand0, &x.operand1],
        I::FSub(x) => vec![&x.operand0, &x.operand1],
        I::FMul(x) => vec![&x.operand0, &x.operand1],
        I::FDiv(x) => vec![&x.operand0, &x.operand1],
        I::FRem(x) => vec![&x.operand0, &x.operand1],
        I::FNeg(x) => vec![&x.operand],
        I::ExtractElement(x) => vec![&x.vector, &x.index],
        I::InsertElement(x) => vec![&x.vector, &x.element, &x.index],
        I::ShuffleVector(x) => vec![&x.operand0, &x.operand1],
        I::ExtractValue(x) => vec![&x.aggregate],
        I::InsertValue(x) => vec![&x.aggregate, &x.element],
        I::Alloca(x) => vec![&x.num_elements],
        I::Load(x) => vec![&x.address],
        I::Store(x) => vec![&x.value, &x.address],
        I::Fence(_) => vec![],
        I::CmpXchg(x) => vec![&x.address, &x.expected, &x.replacement],
        I::AtomicRMW(x) => vec![&x.address, &x.value],
        I::GetElementPtr(x) => std::iter::once(&x.address).chain(x.indices.iter()).collect(),
        I::Trunc(x) => vec![&x.operand],
        I::ZExt(x) => vec![&x.operand],
        I::SExt(x) => vec![&x.operand],
        I::FPTrunc(x) => vec![&x.operand],
        I::FPExt(x) => vec![&x.operand],
        I::FPToUI(x) => vec![&x.operand],
        I::FPToSI(x) => vec![&x.operand],
        I::UIToFP(x) => vec![&x.operand],
        I::SIToFP(x) => vec![&x.operand],
        I::PtrToInt(x) => vec![&x.operand],
        I::IntToPtr(x) => vec![&x.operand],
        I::BitCast(x) => vec![&x.operand],
        I::AddrSpaceCast(x) => vec![&x.operand],
        I::ICmp(x) => vec![&x.operand0, &x.operand1],
        I::FCmp(x) => vec![&x.operand0, &x.operand1],
        I::Phi(x) => x.incoming_values.iter().map(|(v, _)| v).collect(),
        I::Select(x) => vec![&x.condition, &x.true_value, &x.false_value],
        I::Freeze(x) => vec![&x.operand],
        I::Call(x) => {
            let callee = x.function.as_ref().right().into_iter();
            callee.chain(x.arguments.iter().map(|(a, _)| a)).collect()
        }
        I::VAArg(x) => vec![&x.arg_list],
        // Exception-handling pads are rejected by validation before any
        // constant is read; their operands are not listed.
        I::LandingPad(_) | I::CatchPad(_) | I::CleanupPad(_) => vec![],
    }
}

/// The operands of `t` in the order llvm-dis prints them (a `switch`'s case
/// values, printed after its operand, are constants, not `Operand`s).
pub(crate) fn terminator_operands(t: &Terminator) -> Vec<&Operand> {
    use Terminator as T;
    match t {
        T::Ret(x) => x.return_operand.iter().collect(),
        T::Br(_) | T::Unreachable(_) => vec![],
        T::CondBr(x) => vec![&x.condition],
        T::Switch(x) => vec![&x.operand],
        T::IndirectBr(x) => vec![&x.operand],
        T::Invoke(x) => {
            let callee = x.function.as_ref().right().into_iter();
            callee.chain(x.arguments.iter().map(|(a, _)| a)).collect()
        }
        T::Resume(x) => vec![&x.operand],
        T::CallBr(x) => {
            let callee = x.function.as_ref().right().into_iter();
            callee.chain(x.arguments.iter().map(|(a, _)| a)).collect()
        }
        // Exception handling: rejected by validation.
        T::CleanupRet(_) | T::CatchRet(_) | T::CatchSwitch(_) => vec![],
    }
}

/// Calls `f` on every dropped-value constant among the operands of `i`, in
/// the order llvm-dis prints them.
pub(crate) fn walk_instruction<'a>(i: &'a Instruction, f: &mut impl FnMut(&'a ConstantRef, Dropped)) {
    walk_operands(&instruction_operands(i), f);
    if let Instruction::ShuffleVector(x) = i {
        walk_constant(&x.mask, f);
    }
}

/// Calls `f` on every dropped-value constant among the operands of `t`, in
/// the order llvm-dis prints them.
pub(crate) fn walk_terminator<'a>(t: &'a Terminator, f: &mut impl FnMut(&'a ConstantRef, Dropped)) {
    walk_operands(&terminator_operands(t), f);
    if let Terminator::Switch(x) = t {
        x.dests.iter().for_each(|(c, _)| walk_constant(c, f));
    }
}
