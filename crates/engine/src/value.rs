//! Register values of the executor.

use crate::term::{format_of, width};
use fpsym_expr::{Sort, Term};
use fpsym_float::Format;

/// A value in a virtual register: integers and pointers are bit-vector
/// terms (pointers 64 bits, `i1` one bit), floats are float terms, structs
/// and arrays passed by value are vectors of their members.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    /// An integer or pointer.
    Bv(Term),
    /// A floating-point value.
    Fp(Term),
    /// A struct or array value.
    Agg(Vec<Val>),
}

impl Val {
    /// From a term of either scalar sort.
    pub fn of(t: Term) -> Val {
        match t.sort() {
            Sort::Float(_) => Val::Fp(t),
            _ => Val::Bv(t),
        }
    }
    /// The term of a scalar value.
    pub fn term(&self) -> Option<&Term> {
        match self {
            Val::Bv(t) | Val::Fp(t) => Some(t),
            Val::Agg(_) => None,
        }
    }
    /// The bit-vector term (panics on floats and aggregates: the IR was validated).
    pub fn bv(&self) -> &Term {
        match self {
            Val::Bv(t) => t,
            v => panic!("expected an integer or pointer value, found {v:?}"),
        }
    }
    /// The float term.
    pub fn fp(&self) -> &Term {
        match self {
            Val::Fp(t) => t,
            v => panic!("expected a floating-point value, found {v:?}"),
        }
    }
    /// Width in bits of an integer value.
    pub fn width(&self) -> u32 {
        width(self.bv())
    }
    /// The format of a float value.
    pub fn format(&self) -> Format {
        format_of(self.fp())
    }
}
