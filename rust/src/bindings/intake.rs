//! Reading a phase's orders from Python: codes (ints, lists, tuples, any iterable), order objects
//! by their fields, and canonical texts (read by `engine::text::parse_canonical`).

use pyo3::exceptions::PyValueError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyInt, PyList, PyString, PyTuple, PyType};

use crate::engine::encode::{self, kind, signed, Code};
use crate::engine::game_map::{GameMap, Mask, NO_POWER};

/// A code that is not a [`Code`] (negative, too large): malformed, so ruled illegal.
pub(super) const GARBAGE: Code = Code::MAX;

/// Reads one code: an `int`; one outside `0..2**64` is kept as a malformed code.
pub(super) fn code_of(i: usize, item: &Bound<'_, PyAny>) -> PyResult<Code> {
    if item.is_instance_of::<PyBool>() {
        return Err(PyValueError::new_err(format!(
            "orders[{i}]: expected an int code, got a bool"
        )));
    }
    match item.extract::<i64>() {
        Ok(v) => Ok(Code::try_from(v).unwrap_or(GARBAGE)),
        Err(_) if item.is_instance_of::<PyInt>() => Ok(GARBAGE),
        Err(_) => Err(PyValueError::new_err(format!(
            "orders[{i}]: expected an int code, got {}",
            item.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| "?".into())
        ))),
    }
}

/// A list of `codes` as Python ints, made without PyO3's general conversion (a bot asks for
/// the legal orders of every phase: one list per slot).
pub(super) fn code_list<'py>(py: Python<'py>, codes: &[Code]) -> PyResult<Bound<'py, PyList>> {
    let n = ffi::Py_ssize_t::try_from(codes.len())
        .map_err(|_| PyValueError::new_err("too many codes for a list"))?;
    // SAFETY: the GIL is held; the new list owns each item set (PyList_SetItem steals the
    // reference, even when it fails) and every slot is set before the list is handed out, or
    // the list is dropped (its unset slots are NULL, which the list's deallocation skips).
    unsafe {
        let list = ffi::PyList_New(n);
        if list.is_null() {
            return Err(PyErr::fetch(py));
        }
        let list = Bound::from_owned_ptr(py, list).downcast_into_unchecked::<PyList>();
        for (i, &c) in codes.iter().enumerate() {
            let item = ffi::PyLong_FromLongLong(signed(c));
            if item.is_null() {
                return Err(PyErr::fetch(py));
            }
            if ffi::PyList_SetItem(list.as_ptr(), i as ffi::Py_ssize_t, item) != 0 {
                return Err(PyErr::fetch(py));
            }
        }
        Ok(list)
    }
}

/// Reads a sequence of codes into `out`.
pub(super) fn read_codes(orders: &Bound<'_, PyAny>, out: &mut Vec<Code>) -> PyResult<()> {
    out.clear();
    if let Ok(list) = orders.downcast::<PyList>() {
        // The common case, read without PyO3's general conversion (this loop runs under the
        // GIL before a batch goes parallel): a list of exact ints.
        let py = orders.py();
        let n = list.len();
        out.reserve(n);
        for i in 0..n {
            // An item's `__index__` is Python code, which may change the list: refused, as
            // the list read is no longer the list given.
            if list.len() != n {
                return Err(PyValueError::new_err(format!(
                    "orders changed while they were read (from {n} to {} items, at item {i})",
                    list.len()
                )));
            }
            // SAFETY: `i` is below the length (checked just above) and no Python code runs
            // while the borrowed item is used (a non-int item is taken as a new reference).
            let item = unsafe { ffi::PyList_GetItem(list.as_ptr(), i as ffi::Py_ssize_t) };
            if item.is_null() {
                return Err(PyErr::fetch(py));
            }
            // SAFETY: `item` is a live object.
            if unsafe { ffi::PyLong_CheckExact(item) } != 0 {
                // SAFETY: `item` is an int.
                let v = unsafe { ffi::PyLong_AsLongLong(item) };
                if v == -1 && PyErr::take(py).is_some() {
                    out.push(GARBAGE); // beyond 64 bits
                } else {
                    out.push(Code::try_from(v).unwrap_or(GARBAGE));
                }
            } else {
                // SAFETY: a borrowed reference to a live object, used at once.
                let item = unsafe { Bound::from_borrowed_ptr(py, item) };
                out.push(code_of(i, &item)?);
            }
        }
        return Ok(());
    }
    if let Ok(tuple) = orders.downcast::<PyTuple>() {
        for (i, item) in tuple.iter().enumerate() {
            out.push(code_of(i, &item)?);
        }
        return Ok(());
    }
    if orders.is_instance_of::<PyString>() || orders.is_instance_of::<PyBytes>() {
        return Err(PyValueError::new_err(
            "orders must be a sequence of int codes, not a string",
        ));
    }
    let iter = orders
        .try_iter()
        .map_err(|_| PyValueError::new_err("orders must be a sequence of int codes"))?;
    for (i, item) in iter.enumerate() {
        out.push(code_of(i, &item?)?);
    }
    Ok(())
}

/// A phase's orders as `(codes, powers, missing)` (see `PyCodeMap::submit_orders`).
#[allow(clippy::type_complexity)]
pub(super) fn submit_orders<'py, M: Mask>(
    map: &GameMap<M>,
    classes: &OrderClasses,
    py: Python<'py>,
    orders: &Bound<'py, PyAny>,
    power_index: &Bound<'py, PyDict>,
) -> PyResult<Option<(Bound<'py, PyList>, Bound<'py, PyBytes>, Bound<'py, PyList>)>> {
    let mut codes: Vec<Code> = Vec::with_capacity(40);
    let mut powers: Vec<u8> = Vec::with_capacity(40);
    let mut missing: Vec<usize> = Vec::new();
    if !read_submission(
        map,
        classes,
        orders,
        power_index,
        &mut codes,
        &mut powers,
        &mut missing,
    )? {
        return Ok(None);
    }
    Ok(Some((
        PyList::new(py, codes)?,
        PyBytes::new(py, &powers),
        PyList::new(py, missing)?,
    )))
}

/// What [`submit_orders`] reads, into `codes`, `powers` and `missing` (appended to); false when
/// the orders are not a dict of lists or tuples (then what was appended means nothing).
pub(super) fn read_submission<'py, M: Mask>(
    map: &GameMap<M>,
    classes: &OrderClasses,
    orders: &Bound<'py, PyAny>,
    power_index: &Bound<'py, PyDict>,
    codes: &mut Vec<Code>,
    powers: &mut Vec<u8>,
    missing: &mut Vec<usize>,
) -> PyResult<bool> {
    let Ok(orders) = orders.downcast::<PyDict>() else {
        return Ok(false);
    };
    for (power, given) in orders.iter() {
        // A power the map does not have: each of its orders is left to the caller.
        let pi: Option<u8> = match power_index.get_item(&power)? {
            Some(pi) => Some(pi.extract()?),
            None => None,
        };
        let one = |item: Bound<'py, PyAny>| -> PyResult<Option<Code>> {
            let Some(pi) = pi else {
                return Ok(None);
            };
            if item.is_exact_instance_of::<PyString>() {
                let text = item.downcast::<PyString>()?.to_str()?;
                if text == "WAIVE" {
                    return Ok(Some(encode::waive(pi as usize)));
                }
                return Ok(crate::engine::text::parse_canonical(map, text));
            }
            match classes.kind_of(&item) {
                Some(kind::WAIVE) => Ok(Some(encode::waive(pi as usize))),
                Some(k) => Ok(encode_object(map, k, &item)),
                None => Ok(None),
            }
        };
        let mut take = |item: Bound<'py, PyAny>| -> PyResult<()> {
            match one(item)? {
                Some(code) => codes.push(code),
                None => {
                    missing.push(codes.len());
                    codes.push(0);
                }
            }
            powers.push(pi.unwrap_or(NO_POWER));
            Ok(())
        };
        if let Ok(list) = given.downcast::<PyList>() {
            for item in list.iter() {
                take(item)?;
            }
        } else if let Ok(tuple) = given.downcast::<PyTuple>() {
            for item in tuple.iter() {
                take(item)?;
            }
        } else {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A location named by a string attribute of `obj`.
fn loc_attr<M: Mask>(
    map: &GameMap<M>,
    obj: &Bound<'_, PyAny>,
    name: &Bound<'_, PyString>,
) -> Option<usize> {
    let value = obj.getattr(name).ok()?;
    let text = value.downcast::<PyString>().ok()?;
    map.loc_index.get(text.to_str().ok()?).map(|&i| i as usize)
}

/// The location of the unit in attribute `name` of `obj` (a `diplo.model.orders.Unit`).
fn unit_loc<M: Mask>(
    map: &GameMap<M>,
    obj: &Bound<'_, PyAny>,
    name: &Bound<'_, PyString>,
) -> Option<usize> {
    let py = obj.py();
    loc_attr(map, &obj.getattr(name).ok()?, pyo3::intern!(py, "loc"))
}

/// How the kind of an order object is told: by its class, compared by identity with the classes
/// `CodeMap` was given once, in `ORDER_KINDS` order (`diplo.model.orders.Hold`, ..., `Waive`).
pub(super) struct OrderClasses(Option<Vec<Py<PyType>>>);

impl OrderClasses {
    /// The classes given to `CodeMap` (`order_classes`), one per order kind; without them no
    /// object is read by the core (the caller encodes its objects itself).
    pub(super) fn new(classes: Option<Vec<Bound<'_, PyType>>>) -> PyResult<Self> {
        let Some(classes) = classes else {
            return Ok(OrderClasses(None));
        };
        if classes.len() != kind::NAMES.len() {
            return Err(PyValueError::new_err(format!(
                "order_classes: expected {} classes ({}), got {}",
                kind::NAMES.len(),
                kind::NAMES.join(", "),
                classes.len()
            )));
        }
        Ok(OrderClasses(Some(
            classes.into_iter().map(Bound::unbind).collect(),
        )))
    }

    /// The kind of `item` (a `kind` number), or `None` for an object that is not an order.
    pub(super) fn kind_of(&self, item: &Bound<'_, PyAny>) -> Option<u32> {
        let ty = item.get_type();
        let classes = self.0.as_ref()?;
        let found = classes.iter().position(|c| c.as_ptr() == ty.as_ptr());
        found.map(|k| k as u32)
    }
}

/// One order object of kind `k` (see [`OrderClasses::kind_of`]) as a code (see
/// `PyCodeMap::encode_objects`); `None` for a waive (its code names its power, which the object
/// does not say).
pub(super) fn encode_object<M: Mask>(
    map: &GameMap<M>,
    k: u32,
    item: &Bound<'_, PyAny>,
) -> Option<Code> {
    let py = item.py();
    let prov = |l: usize| map.prov_of[l] as usize;
    let here = || unit_loc(map, item, pyo3::intern!(py, "unit"));
    let dest = || loc_attr(map, item, pyo3::intern!(py, "dest"));
    Some(match k {
        kind::HOLD => encode::hold(here()?),
        kind::MOVE => {
            let via = item
                .getattr(pyo3::intern!(py, "via"))
                .ok()?
                .is_truthy()
                .ok()?;
            encode::move_to(here()?, dest()?, via)
        }
        kind::SUPPORT_HOLD => encode::support_hold(
            here()?,
            prov(unit_loc(map, item, pyo3::intern!(py, "supported"))?),
        ),
        kind::SUPPORT_MOVE => encode::support_move(
            here()?,
            prov(unit_loc(map, item, pyo3::intern!(py, "supported"))?),
            dest()?,
        ),
        kind::CONVOY => encode::convoy(
            here()?,
            prov(unit_loc(map, item, pyo3::intern!(py, "army"))?),
            prov(dest()?),
        ),
        kind::RETREAT => encode::retreat(here()?, dest()?),
        kind::DISBAND => encode::disband(here()?),
        kind::BUILD => {
            let unit = item.getattr(pyo3::intern!(py, "unit")).ok()?;
            let t = unit.getattr(pyo3::intern!(py, "type")).ok()?;
            let fleet = match t.downcast::<PyString>().ok()?.to_str().ok()? {
                "A" => false,
                "F" => true,
                _ => return None,
            };
            encode::build(loc_attr(map, &unit, pyo3::intern!(py, "loc"))?, fleet)
        }
        _ => return None,
    })
}
