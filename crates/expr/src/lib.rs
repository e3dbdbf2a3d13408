//! Hash-consed terms over the sorts Bool, BitVec(n), FloatingPoint(eb, sb)
//! and RoundingMode, covering the SMT-LIB FloatingPoint theory, the core
//! theory and the QF_BV operations that path conditions of C programs use.
//!
//! Terms are immutable and shared: building the same operation on the same
//! arguments twice yields the same [`Term`] (pointer-equal, same id), so
//! terms are cheap to compare, hash and cache. [`eval`] evaluates any term
//! under a [`Model`] with the exact semantics of `fpsym-float`; [`fold`]
//! folds constant subterms with the same semantics.
//!
//! Where SMT-LIB leaves a result unspecified, fpsym fixes one, and every
//! backend is made to agree (see [`Op::FpToUbv`], [`Op::FpToSbv`],
//! [`Op::FpMin`], [`Op::FpMax`]).
#![deny(missing_docs)]

mod eval;
mod fold;
pub mod libm;
mod model;
mod op;
mod sort;
mod specify;
mod term;
mod value;

pub use eval::{apply, eval, eval_until, EvalError};
pub use fold::{fold, mk_normalized, normalize};
pub use libm::LibmFn;
pub use model::Model;
pub use op::Op;
pub use sort::Sort;
pub use specify::specify;
pub use term::{SortError, Term};
pub use value::{BvValue, Value};

pub use fpsym_float::{Float, Format, RoundingMode};
