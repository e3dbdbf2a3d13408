//! Operations.

use crate::value::BvValue;
use fpsym_float::{Float, Format, RoundingMode};
use std::sync::Arc;

/// An operation: a leaf (variable or constant) or a function symbol applied
/// to the term's arguments. Argument order is SMT-LIB's (rounding mode first).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Op {
    /// A free variable (an SMT-LIB constant declared with `declare-fun`/`declare-const`).
    Var(Arc<str>),
    /// `true` / `false`.
    BoolConst(bool),
    /// A bit-vector literal.
    BvConst(BvValue),
    /// A float literal.
    FpConst(Float),
    /// A rounding-mode literal.
    RmConst(RoundingMode),

    /// `not`.
    Not,
    /// `and` (n-ary).
    And,
    /// `or` (n-ary).
    Or,
    /// `xor` (n-ary, left-associative).
    Xor,
    /// `=>` (binary; the reader right-associates longer chains).
    Implies,
    /// `=` on any sort (binary; SMT-LIB equality: NaN = NaN, -0 ≠ +0).
    Eq,
    /// `distinct` (n-ary, pairwise).
    Distinct,
    /// `ite` (condition, then, else).
    Ite,

    /// `fp.abs`.
    FpAbs,
    /// `fp.neg`.
    FpNeg,
    /// `fp.add` (rm, x, y).
    FpAdd,
    /// `fp.sub` (rm, x, y).
    FpSub,
    /// `fp.mul` (rm, x, y).
    FpMul,
    /// `fp.div` (rm, x, y).
    FpDiv,
    /// `fp.fma` (rm, x, y, z) = x*y+z rounded once.
    FpFma,
    /// `fp.sqrt` (rm, x).
    FpSqrt,
    /// `fp.rem` (x, y): IEEE remainder.
    FpRem,
    /// `fp.roundToIntegral` (rm, x).
    FpRoundToIntegral,
    /// `fp.min`; a NaN operand yields the other; `fp.min(-0, +0)` and
    /// `fp.min(+0, -0)` are `-0` (unspecified in SMT-LIB, fixed by fpsym).
    FpMin,
    /// `fp.max`; `fp.max` of zeros of both signs is `+0` (fixed by fpsym).
    FpMax,
    /// `fp.leq` (binary; the reader expands chains).
    FpLeq,
    /// `fp.lt`.
    FpLt,
    /// `fp.geq`.
    FpGeq,
    /// `fp.gt`.
    FpGt,
    /// `fp.eq` (IEEE equality).
    FpEq,
    /// `fp.isNormal`.
    FpIsNormal,
    /// `fp.isSubnormal`.
    FpIsSubnormal,
    /// `fp.isZero`.
    FpIsZero,
    /// `fp.isInfinite`.
    FpIsInfinite,
    /// `fp.isNaN`.
    FpIsNaN,
    /// `fp.isNegative`.
    FpIsNegative,
    /// `fp.isPositive`.
    FpIsPositive,
    /// `(fp s e m)` built from three bit-vectors (1, eb and sb-1 bits).
    FpFromParts,
    /// `((_ to_fp eb sb) bv)`: reinterpret a bit-vector of `eb + sb` bits.
    ToFpFromBits(Format),
    /// `((_ to_fp eb sb) rm x)` for a float `x` of another format.
    ToFpFromFp(Format),
    /// `((_ to_fp eb sb) rm bv)`: signed integer to float.
    ToFpFromSbv(Format),
    /// `((_ to_fp_unsigned eb sb) rm bv)`: unsigned integer to float.
    ToFpFromUbv(Format),
    /// `((_ fp.to_ubv n) rm x)`. NaN, infinities and out-of-range values give 0
    /// (unspecified in SMT-LIB, fixed by fpsym).
    FpToUbv(u32),
    /// `((_ fp.to_sbv n) rm x)`. NaN, infinities and out-of-range values give
    /// the most negative value `100…0`, as x86-64's conversions do
    /// (unspecified in SMT-LIB, fixed by fpsym).
    FpToSbv(u32),

    /// `concat`.
    BvConcat,
    /// `(_ extract hi lo)`.
    BvExtract(u32, u32),
    /// `(_ zero_extend n)`.
    BvZeroExtend(u32),
    /// `(_ sign_extend n)`.
    BvSignExtend(u32),
    /// `bvnot`.
    BvNot,
    /// `bvneg`.
    BvNeg,
    /// `bvand`.
    BvAnd,
    /// `bvor`.
    BvOr,
    /// `bvxor`.
    BvXor,
    /// `bvadd`.
    BvAdd,
    /// `bvsub`.
    BvSub,
    /// `bvmul`.
    BvMul,
    /// `bvudiv` (division by zero gives all ones).
    BvUdiv,
    /// `bvurem` (remainder by zero gives the dividend).
    BvUrem,
    /// `bvsdiv`.
    BvSdiv,
    /// `bvsrem`.
    BvSrem,
    /// `bvsmod`.
    BvSmod,
    /// `bvshl`.
    BvShl,
    /// `bvlshr`.
    BvLshr,
    /// `bvashr`.
    BvAshr,
    /// `bvult`.
    BvUlt,
    /// `bvule`.
    BvUle,
    /// `bvugt`.
    BvUgt,
    /// `bvuge`.
    BvUge,
    /// `bvslt`.
    BvSlt,
    /// `bvsle`.
    BvSle,
    /// `bvsgt`.
    BvSgt,
    /// `bvsge`.
    BvSge,

    /// A C library function (`(fpsym.sin rm x)`, `(fpsym.pow rm x y)`):
    /// the value glibc computes on this machine, in rounding mode `rm`,
    /// for floats of one format, `Float32` or `Float64` (see
    /// [`crate::libm`]).
    Libm(crate::libm::LibmFn),
}

impl Op {
    /// The seven classification predicates of the FloatingPoint theory
    /// (`fp.isNormal` ... `fp.isPositive`), in SMT-LIB order.
    pub const FP_CLASSIFICATIONS: [Op; 7] = [
        Op::FpIsNormal,
        Op::FpIsSubnormal,
        Op::FpIsZero,
        Op::FpIsInfinite,
        Op::FpIsNaN,
        Op::FpIsNegative,
        Op::FpIsPositive,
    ];

    /// The SMT-LIB function symbol (without indices), e.g. `fp.add`, `to_fp`,
    /// `extract`. Leaves return their kind (`var`, `const`).
    pub fn name(&self) -> &'static str {
        use Op::*;
        match self {
            Var(_) => "var",
            BoolConst(_) | BvConst(_) | FpConst(_) | RmConst(_) => "const",
            Not => "not",
            And => "and",
            Or => "or",
            Xor => "xor",
            Implies => "=>",
            Eq => "=",
            Distinct => "distinct",
            Ite => "ite",
            FpAbs => "fp.abs",
            FpNeg => "fp.neg",
            FpAdd => "fp.add",
            FpSub => "fp.sub",
            FpMul => "fp.mul",
            FpDiv => "fp.div",
            FpFma => "fp.fma",
            FpSqrt => "fp.sqrt",
            FpRem => "fp.rem",
            FpRoundToIntegral => "fp.roundToIntegral",
            FpMin => "fp.min",
            FpMax => "fp.max",
            FpLeq => "fp.leq",
            FpLt => "fp.lt",
            FpGeq => "fp.geq",
            FpGt => "fp.gt",
            FpEq => "fp.eq",
            FpIsNormal => "fp.isNormal",
            FpIsSubnormal => "fp.isSubnormal",
            FpIsZero => "fp.isZero",
            FpIsInfinite => "fp.isInfinite",
            FpIsNaN => "fp.isNaN",
            FpIsNegative => "fp.isNegative",
            FpIsPositive => "fp.isPositive",
            FpFromParts => "fp",
            ToFpFromBits(_) | ToFpFromFp(_) | ToFpFromSbv(_) => "to_fp",
            ToFpFromUbv(_) => "to_fp_unsigned",
            FpToUbv(_) => "fp.to_ubv",
            FpToSbv(_) => "fp.to_sbv",
            BvConcat => "concat",
            BvExtract(..) => "extract",
            BvZeroExtend(_) => "zero_extend",
            BvSignExtend(_) => "sign_extend",
            BvNot => "bvnot",
            BvNeg => "bvneg",
            BvAnd => "bvand",
            BvOr => "bvor",
            BvXor => "bvxor",
            BvAdd => "bvadd",
            BvSub => "bvsub",
            BvMul => "bvmul",
            BvUdiv => "bvudiv",
            BvUrem => "bvurem",
            BvSdiv => "bvsdiv",
            BvSrem => "bvsrem",
            BvSmod => "bvsmod",
            BvShl => "bvshl",
            BvLshr => "bvlshr",
            BvAshr => "bvashr",
            BvUlt => "bvult",
            BvUle => "bvule",
            BvUgt => "bvugt",
            BvUge => "bvuge",
            BvSlt => "bvslt",
            BvSle => "bvsle",
            BvSgt => "bvsgt",
            BvSge => "bvsge",
            Libm(f) => f.smtlib_name(),
        }
    }

    /// True for variables and constants.
    pub fn is_leaf(&self) -> bool {
        matches!(
            self,
            Op::Var(_) | Op::BoolConst(_) | Op::BvConst(_) | Op::FpConst(_) | Op::RmConst(_)
        )
    }

    /// True for constants.
    pub fn is_const(&self) -> bool {
        matches!(
            self,
            Op::BoolConst(_) | Op::BvConst(_) | Op::FpConst(_) | Op::RmConst(_)
        )
    }
}
