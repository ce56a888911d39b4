//! How one value of a state crosses, by its shape: the readers and writers the generated
//! `contract.rs` calls for each declared field. Only types are checked here; what a state may
//! hold is the kernel checker's (`check::state_from_fields`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PySequence, PyTuple};

use stargazer_kernel::contract::PendingFields;

pub(crate) fn corrupt(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(format!("not a state of this ruleset: {}", message.into()))
}

/// The field `name` of a Python `State`, or an error naming it when the object has none.
pub(crate) fn attribute<'py>(state: &Bound<'py, PyAny>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    state.getattr(name).map_err(|_| corrupt(format!("a state has a field {name}")))
}

/// One value of each shape (`stargazer_rules.contract.state.SHAPES`), `what` naming it.
pub(crate) mod read {
    use super::*;

    pub(crate) fn int(value: &Bound<'_, PyAny>, what: &str) -> PyResult<i64> {
        value.extract::<i64>().map_err(|_| corrupt(format!("{what} must be an integer")))
    }

    pub(crate) fn ints(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<i64>> {
        value.extract::<Vec<i64>>().map_err(|_| corrupt(format!("{what} must be a sequence of integers")))
    }

    pub(crate) fn int_lists(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Vec<i64>>> {
        value.extract::<Vec<Vec<i64>>>().map_err(|_| corrupt(format!("{what} must be a sequence of integer sequences")))
    }

    pub(crate) fn int_set(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<i64>> {
        let mut items = Vec::new();
        for item in value.try_iter().map_err(|_| corrupt(format!("{what} must be a set")))? {
            items.push(int(&item?, what)?);
        }
        Ok(items)
    }

    pub(crate) fn text(value: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
        value.extract::<String>().map_err(|_| corrupt(format!("{what} must be a string")))
    }

    pub(crate) fn texts(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<String>> {
        value.extract::<Vec<String>>().map_err(|_| corrupt(format!("{what} must be a sequence of strings")))
    }

    /// The pending effects: (slot, path, remaining, seat, card) each, the next first.
    pub(crate) fn pending(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<PendingFields>> {
        let shape = "a pending effect is (slot, path, remaining, seat, card)";
        let mut pending = Vec::new();
        for entry in value.try_iter().map_err(|_| corrupt(format!("{what} must be a sequence")))? {
            let entry = entry?;
            let entry = entry.cast::<PySequence>().map_err(|_| corrupt(shape))?;
            if entry.len()? != 5 {
                return Err(corrupt(shape));
            }
            pending.push((
                int(&entry.get_item(0)?, "a pending slot")?,
                ints(&entry.get_item(1)?, "a pending path")?,
                int(&entry.get_item(2)?, "remaining")?,
                int(&entry.get_item(3)?, "a pending seat")?,
                int(&entry.get_item(4)?, "a pending card")?,
            ));
        }
        Ok(pending)
    }
}

/// The pending effects as the Python engine's tuples (slot, path, remaining, seat, card).
pub(crate) fn pending_tuple<'py>(py: Python<'py>, pending: &[PendingFields]) -> PyResult<Bound<'py, PyAny>> {
    let items = pending
        .iter()
        .map(|(slot, path, remaining, seat, card)| (*slot, PyTuple::new(py, path)?, *remaining, *seat, *card).into_pyobject(py))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyTuple::new(py, items)?.into_any())
}
