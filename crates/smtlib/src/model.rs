//! Models in SMT-LIB form.

use crate::push_symbol;
use fpsym_expr::Model;

pub use crate::elab::parse_model;

/// Prints a model as SMT-LIB `(model (define-fun x () Sort value) ...)`, one
/// definition per line in variable-name order. Floats are written
/// `(fp #b.. #b.. #b..)` or as special literals (`(_ +zero 8 24)`, `(_ NaN 8 24)`, ...).
pub fn print_model(m: &Model) -> String {
    let mut out = String::from("(model\n");
    for (var, value) in m.iter() {
        out.push_str("  (define-fun ");
        push_symbol(&mut out, var.var_name().unwrap_or("?"));
        out.push_str(&format!(" () {} {value})\n", var.sort()));
    }
    out.push(')');
    out
}
