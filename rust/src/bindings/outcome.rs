//! `diplo._core.Outcome`: one phase's results (`crate::engine::phases::Outcome`), returned by
//! `CodeGame.process`, immutable: per submitted code its result and success, and what the phase
//! did without an order. The same three methods as `Verdict`'s, so a reader takes either.

use pyo3::prelude::*;
use pyo3::types::PyList;

use super::handles::PyOutcome;
use crate::engine::encode::signed;

#[pymethods]
impl PyOutcome {
    /// Per submitted code: its result code (index of `RESULT_NAMES`, 6: illegal).
    fn result_codes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        // Not `Vec<u8>`: PyO3 would make that `bytes`.
        PyList::new(py, self.outcome.results.iter().map(|&c| u32::from(c)))
    }

    /// Per submitted code: whether it succeeded.
    fn result_success(&self) -> Vec<bool> {
        self.outcome.success.clone()
    }

    /// What the phase did without an order: `(code, result, success)`.
    fn implied_results(&self) -> Vec<(i64, u8, bool)> {
        self.outcome
            .implied
            .iter()
            .map(|&(c, r, s)| (signed(c), r, s))
            .collect()
    }

    /// Equal outcomes: the same results, successes and implied results.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<PyOutcome>()
            .is_ok_and(|o| o.get().outcome == self.outcome)
    }

    fn __repr__(&self) -> String {
        format!(
            "<Outcome of {} codes, {} implied>",
            self.outcome.results.len(),
            self.outcome.implied.len()
        )
    }
}
