//! Model validation: every `Sat` answer is re-checked by the evaluator.

use crate::{Budget, Query, SolveResult, Solver, SolverError};
use fpsym_expr::{eval_until, EvalError, Value};
use std::collections::BTreeMap;

/// Wraps a solver and re-evaluates every model it returns against the query
/// with `fpsym_expr::eval`. Variables the backend left unassigned (it did not
/// care about them) get their sort's default value first. A model that makes
/// an assertion false, or cannot be evaluated, is a [`SolverError::InvalidModel`];
/// one the budget runs out on before it is checked, a timeout.
pub struct Validated<S: ?Sized> {
    inner: Box<S>,
    checked: u64,
}

impl<S: Solver + ?Sized> Validated<S> {
    /// Wraps `inner`.
    pub fn new(inner: Box<S>) -> Self {
        Validated { inner, checked: 0 }
    }
}

impl<S: Solver + ?Sized> Solver for Validated<S> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn check(&mut self, query: &Query, budget: &Budget) -> Result<SolveResult, SolverError> {
        let res = self.inner.check(query, budget)?;
        let SolveResult::Sat(mut model) = res else {
            return Ok(res);
        };
        model.complete(&query.vars());
        let stop = || budget.expired();
        for (i, a) in query.assertions.iter().enumerate() {
            let ok = eval_until(a, &model, &stop);
            // Out of time before the model was checked: no answer.
            if ok == Err(EvalError::Stopped) {
                return Ok(SolveResult::Unknown(crate::Reason::Timeout));
            }
            if ok != Ok(Value::Bool(true)) {
                let why = match ok {
                    Ok(_) => "it evaluates to false".to_string(),
                    Err(e) => e.to_string(),
                };
                return Err(SolverError::InvalidModel {
                    backend: self.inner.name(),
                    assertion: i,
                    detail: format!("{why}; assertion {a:?}; model {model:?}"),
                });
            }
        }
        self.checked += 1;
        Ok(SolveResult::Sat(model))
    }

    fn learn(&mut self, query: &Query, result: &SolveResult) {
        self.inner.learn(query, result);
    }

    fn stats(&self) -> BTreeMap<String, f64> {
        let mut s = self.inner.stats();
        s.insert("models_validated".into(), self.checked as f64);
        s
    }
}
