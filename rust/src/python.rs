//! PyO3 bindings: the `diplo._core` extension module (feature `python`).
//!
//! Units and orders cross as integer tuples, already validated by `diplo.validation` (an illegal
//! order is sent as a hold). Malformed input raises `ValueError` naming the problem; the resolver
//! runs with the GIL released and inside `catch_unwind`, so a bug surfaces as `RuntimeError` and
//! no panic ever crosses into Python. The typed stub is `python/diplo/_core.pyi`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::map::CompiledMap;
use crate::orders::{Order, Unit};
use crate::outcome::MovementOutcome;

fn index(what: impl FnOnce() -> String, v: i64) -> PyResult<u16> {
    u16::try_from(v)
        .ok()
        .filter(|&x| x != u16::MAX)
        .ok_or_else(|| PyValueError::new_err(format!("{}: {v} is not a valid index", what())))
}

/// A map compiled for the resolver (see `diplo.backend`). Locations are numbered as
/// `Map.locations`: provinces first, then coasts.
#[pyclass(frozen, name = "CompiledMap", module = "diplo._core")]
pub struct PyCompiledMap {
    inner: CompiledMap,
}

#[pymethods]
impl PyCompiledMap {
    #[new]
    fn new(
        loc_province: Vec<i64>,
        province_is_sea: Vec<bool>,
        army_adj: Vec<Vec<i64>>,
        fleet_adj: Vec<Vec<i64>>,
    ) -> PyResult<Self> {
        let loc_province = loc_province
            .iter()
            .enumerate()
            .map(|(i, &v)| index(|| format!("loc_province[{i}]"), v))
            .collect::<PyResult<Vec<u16>>>()?;
        let lists = |name: &str, lists: &[Vec<i64>]| -> PyResult<Vec<Vec<u16>>> {
            lists
                .iter()
                .enumerate()
                .map(|(i, list)| {
                    list.iter()
                        .map(|&v| index(|| format!("{name}[{i}]"), v))
                        .collect()
                })
                .collect()
        };
        let army_adj = lists("army_adj", &army_adj)?;
        let fleet_adj = lists("fleet_adj", &fleet_adj)?;
        let inner = CompiledMap::new(loc_province, province_is_sea, army_adj, fleet_adj)
            .map_err(PyValueError::new_err)?;
        Ok(PyCompiledMap { inner })
    }

    /// Number of provinces.
    #[getter]
    fn num_provinces(&self) -> usize {
        self.inner.num_provinces()
    }

    /// Number of locations (provinces and coasts).
    #[getter]
    fn num_locations(&self) -> usize {
        self.inner.num_locations()
    }

    fn __repr__(&self) -> String {
        format!(
            "CompiledMap(num_provinces={}, num_locations={})",
            self.inner.num_provinces(),
            self.inner.num_locations()
        )
    }
}

/// The outcome of one movement phase; per-unit lists are indexed like the units given.
#[pyclass(frozen, get_all, name = "MovementOutcome", module = "diplo._core")]
pub struct PyMovementOutcome {
    codes: Vec<u32>,
    success: Vec<bool>,
    dislodged_by: Vec<i32>,
    by: Vec<i32>,
    attack: Vec<u32>,
    opposition: Vec<u32>,
    convoyed: Vec<bool>,
    contested: Vec<u32>,
    retreats: Vec<Vec<u32>>,
    szykman: Vec<u32>,
}

impl From<MovementOutcome> for PyMovementOutcome {
    fn from(o: MovementOutcome) -> Self {
        let wide = |v: Vec<u8>| v.into_iter().map(u32::from).collect();
        PyMovementOutcome {
            codes: wide(o.codes),
            success: o.success,
            dislodged_by: o.dislodged_by,
            by: o.by,
            attack: wide(o.attack),
            opposition: wide(o.opposition),
            convoyed: o.convoyed,
            contested: o.contested.into_iter().map(u32::from).collect(),
            retreats: o
                .retreats
                .into_iter()
                .map(|r| r.into_iter().map(u32::from).collect())
                .collect(),
            szykman: o.szykman.into_iter().map(u32::from).collect(),
        }
    }
}

/// `[True, False]`, as Python writes a list of booleans.
fn py_bools(v: &[bool]) -> String {
    let items: Vec<&str> = v
        .iter()
        .map(|&b| if b { "True" } else { "False" })
        .collect();
    format!("[{}]", items.join(", "))
}

#[pymethods]
impl PyMovementOutcome {
    fn __repr__(&self) -> String {
        format!(
            "MovementOutcome(codes={:?}, success={}, dislodged_by={:?}, by={:?}, attack={:?}, \
             opposition={:?}, convoyed={}, contested={:?}, retreats={:?}, szykman={:?})",
            self.codes,
            py_bools(&self.success),
            self.dislodged_by,
            self.by,
            self.attack,
            self.opposition,
            py_bools(&self.convoyed),
            self.contested,
            self.retreats,
            self.szykman
        )
    }
}

fn decode_unit(i: usize, t: &[i64]) -> PyResult<Unit> {
    let [power, is_fleet, loc] = t else {
        return Err(PyValueError::new_err(format!(
            "units[{i}]: expected a tuple (power, is_fleet, loc), got {} values",
            t.len()
        )));
    };
    let power = u8::try_from(*power).map_err(|_| {
        PyValueError::new_err(format!("units[{i}]: power {power} is not in 0..=255"))
    })?;
    let is_fleet = match is_fleet {
        0 => false,
        1 => true,
        other => {
            return Err(PyValueError::new_err(format!(
                "units[{i}]: is_fleet must be 0 or 1, got {other}"
            )))
        }
    };
    let loc = index(|| format!("units[{i}] location"), *loc)?;
    Ok(Unit {
        power,
        is_fleet,
        loc,
    })
}

fn decode_order(map: &CompiledMap, i: usize, t: &[i64]) -> PyResult<Order> {
    let [kind, a, b, c] = t else {
        return Err(PyValueError::new_err(format!(
            "orders[{i}]: expected a tuple (kind, a, b, c), got {} values",
            t.len()
        )));
    };
    let field = |name: &'static str, v: i64| index(|| format!("orders[{i}] {name}"), v);
    Ok(match kind {
        0 => Order::Hold,
        1 => Order::Move {
            dest: field("destination", *a)?,
            via: match b {
                0 => false,
                1 => true,
                other => {
                    return Err(PyValueError::new_err(format!(
                        "orders[{i}]: via must be 0 or 1, got {other}"
                    )))
                }
            },
        },
        2 => Order::SupportHold {
            target: field("supported province", *a)?,
        },
        3 => {
            let to = field("supported destination", *b)?;
            // `c` is the destination as the support writes it: a coast location demands that
            // coast (DATC 6.B.9); a province (or 0, unused) leaves the coast open.
            let written = field("supported destination as written", *c)?;
            let to = if (written as usize) < map.num_provinces() {
                to
            } else if (written as usize) < map.num_locations() && map.province_of(written) == to {
                written
            } else {
                return Err(PyValueError::new_err(format!(
                    "orders[{i}]: supported destination as written ({written}) is not a coast \
                     of province {to}"
                )));
            };
            Order::SupportMove {
                from: field("supported unit's province", *a)?,
                to,
            }
        }
        4 => Order::Convoy {
            from: field("convoyed army's province", *a)?,
            to: field("convoy destination", *b)?,
        },
        other => {
            return Err(PyValueError::new_err(format!(
                "orders[{i}]: unknown order kind {other} (0 hold, 1 move, 2 support hold, \
                 3 support move, 4 convoy)"
            )))
        }
    })
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// Resolves one movement phase.
///
/// `units`: `(power, is_fleet 0/1, loc)`; `orders`, one per unit in unit order:
/// `(kind, a, b, c)` — 0 hold; 1 move `a`=destination location `b`=via convoy 0/1; 2 support
/// hold `a`=province; 3 support move `a`=from province `b`=to province `c`=the destination as
/// written (a coast location demands that coast, DATC 6.B.9; a province or 0 does not);
/// 4 convoy `a`=from province `b`=to province. `c` is otherwise unused.
#[pyfunction]
fn resolve_movement(
    py: Python<'_>,
    map: &Bound<'_, PyCompiledMap>,
    units: Vec<Vec<i64>>,
    orders: Vec<Vec<i64>>,
) -> PyResult<PyMovementOutcome> {
    if units.len() != orders.len() {
        return Err(PyValueError::new_err(format!(
            "{} units but {} orders (one order per unit, in unit order)",
            units.len(),
            orders.len()
        )));
    }
    let map = &map.get().inner;
    let units = units
        .iter()
        .enumerate()
        .map(|(i, t)| decode_unit(i, t))
        .collect::<PyResult<Vec<Unit>>>()?;
    let orders = orders
        .iter()
        .enumerate()
        .map(|(i, t)| decode_order(map, i, t))
        .collect::<PyResult<Vec<Order>>>()?;
    guarded(py, || crate::resolve_movement(map, &units, &orders)).map(Into::into)
}

/// Runs pure Rust work with the GIL released, turning an error message into `ValueError` and a
/// panic into `RuntimeError`: no panic ever crosses into Python.
pub(crate) fn guarded<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> Result<T, String> + Send,
) -> PyResult<T> {
    match py.allow_threads(|| catch_unwind(AssertUnwindSafe(work))) {
        Ok(Ok(out)) => Ok(out),
        Ok(Err(message)) => Err(PyValueError::new_err(message)),
        Err(payload) => Err(PyRuntimeError::new_err(format!(
            "internal error in the diplo core: {}",
            panic_message(payload.as_ref())
        ))),
    }
}

/// Panics inside the same guard as every entry point, so that a test can prove a panic arrives
/// in Python as `RuntimeError` (it is not part of the API).
#[pyfunction]
fn _panic_for_test(py: Python<'_>, message: String) -> PyResult<()> {
    guarded(py, move || -> Result<(), String> { panic!("{message}") })
}

/// The Rust core of diplo.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCompiledMap>()?;
    m.add_class::<PyMovementOutcome>()?;
    m.add_function(wrap_pyfunction!(resolve_movement, m)?)?;
    crate::py_errors::register(m)?;
    crate::py_fast::register(m)?;
    crate::py_texts::register(m)?;
    m.add_function(wrap_pyfunction!(_panic_for_test, m)?)?;
    m.add("__version__", crate::version())?;
    // Names of the result codes, indexed by code (docs/design.md "Outcomes").
    m.add(
        "CODES",
        ("ok", "bounce", "cut", "dislodged", "no_convoy", "void"),
    )?;
    Ok(())
}
