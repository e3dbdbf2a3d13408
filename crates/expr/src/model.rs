//! Models: assignments of values to variables.

use crate::term::Term;
use crate::value::Value;
use std::collections::HashMap;

/// An assignment of values to variable terms. Iteration is in variable-name
/// order, so printed models are stable.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Model {
    values: HashMap<Term, Value>,
}

impl Model {
    /// The empty model.
    pub fn new() -> Model {
        Model::default()
    }
    /// Sets the value of a variable. Panics if `var` is not a variable or the sorts differ.
    pub fn insert(&mut self, var: Term, value: Value) {
        assert!(var.var_name().is_some(), "model keys are variables");
        assert_eq!(var.sort(), value.sort(), "model value of the wrong sort for {:?}", var);
        self.values.insert(var, value);
    }
    /// The value of a variable, if assigned.
    pub fn get(&self, var: &Term) -> Option<Value> {
        self.values.get(var).copied()
    }
    /// Number of assigned variables.
    pub fn len(&self) -> usize {
        self.values.len()
    }
    /// No variable assigned?
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
    /// Gives every variable of `vars` without a value the default value of its sort.
    pub fn complete(&mut self, vars: &[Term]) {
        for v in vars {
            self.values
                .entry(v.clone())
                .or_insert_with(|| Value::default_of(v.sort()));
        }
    }
    /// The assignments, sorted by variable name.
    pub fn iter(&self) -> impl Iterator<Item = (&Term, &Value)> {
        let mut v: Vec<_> = self.values.iter().collect();
        v.sort_by(|a, b| a.0.var_name().cmp(&b.0.var_name()).then(a.0.sort().cmp(&b.0.sort())));
        v.into_iter()
    }
}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.iter().map(|(k, v)| (k.var_name().unwrap_or("?").to_string(), *v)))
            .finish()
    }
}
