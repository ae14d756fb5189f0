//! `diplo._core.CodeMap`: a map compiled for the engine, and the calls that read a phase's input
//! against it (order objects, canonical texts, a position document); the reading itself is in
//! `intake` and `documents`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyType};

use super::any::{on_map, AnyMap};
use super::documents;
use super::errors::guarded;
use super::handles::{PyCodeGame, PyCodeMap};
use super::intake::{self, OrderClasses};
use crate::engine::game_map::MapSpec;

fn powers_of(what: &str, v: &[i64]) -> PyResult<Vec<u8>> {
    v.iter()
        .map(|&x| {
            u8::try_from(x)
                .map_err(|_| PyValueError::new_err(format!("{what}: {x} is not a power")))
        })
        .collect()
}

fn years(what: &str, n: i64) -> PyResult<u32> {
    u32::try_from(n)
        .map_err(|_| PyValueError::new_err(format!("{what}: {n} is not a number of years")))
}

fn indices(what: &str, v: &[i64]) -> PyResult<Vec<u16>> {
    v.iter()
        .map(|&x| {
            u16::try_from(x)
                .map_err(|_| PyValueError::new_err(format!("{what}: {x} is not an index")))
        })
        .collect()
}

#[pymethods]
impl PyCodeMap {
    #[new]
    #[pyo3(signature = (
        locations, powers, loc_province, province_kind, army_adj, fleet_adj, centers, homes,
        name_rank, victory=0, *, order_classes=None, ports=None, calendar=None, neutral=None,
        rebuild=None, start_armies=None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        locations: Vec<String>,
        powers: Vec<String>,
        loc_province: Vec<i64>,
        province_kind: Vec<i64>,
        army_adj: Vec<Vec<i64>>,
        fleet_adj: Vec<Vec<i64>>,
        centers: Vec<i64>,
        homes: Vec<Vec<i64>>,
        name_rank: Vec<i64>,
        victory: i64,
        order_classes: Option<Vec<Bound<'_, PyType>>>,
        ports: Option<Vec<i64>>,
        calendar: Option<(i64, i64)>,
        neutral: Option<Vec<i64>>,
        rebuild: Option<Vec<i64>>,
        start_armies: Option<i64>,
    ) -> PyResult<Self> {
        guarded(|| {
            let lists = |what: &str, v: &[Vec<i64>]| -> PyResult<Vec<Vec<u16>>> {
                v.iter().map(|l| indices(what, l)).collect()
            };
            let kinds = province_kind
                .iter()
                .map(|&k| {
                    u8::try_from(k).map_err(|_| {
                        PyValueError::new_err(format!("province kind {k} is not 0, 1 or 2"))
                    })
                })
                .collect::<PyResult<Vec<u8>>>()?;
            let spec = MapSpec {
                locations,
                powers,
                loc_province: indices("loc_province", &loc_province)?,
                province_kind: kinds,
                army_adj: lists("army_adj", &army_adj)?,
                fleet_adj: lists("fleet_adj", &fleet_adj)?,
                centers: indices("centers", &centers)?,
                ports: indices("ports", &ports.unwrap_or_default())?,
                homes: lists("homes", &homes)?,
                name_rank: indices("name_rank", &name_rank)?,
                victory: u32::try_from(victory).map_err(|_| {
                    PyValueError::new_err(format!("victory {victory} is not a count"))
                })?,
                years_to_fall: years("calendar", calendar.map_or(0, |c| c.0))?,
                years_to_spring: years("calendar", calendar.map_or(1, |c| c.1))?,
                neutral: powers_of("neutral", &neutral.unwrap_or_default())?,
                rebuild: powers_of("rebuild", &rebuild.unwrap_or_default())?,
                start_armies: start_armies.map(|y| years("start_armies", y)).transpose()?,
            };
            let map = AnyMap::intern(spec)?;
            let classes = OrderClasses::new(order_classes)?;
            Ok(PyCodeMap { map, classes })
        })
    }

    #[getter]
    fn num_locations(&self) -> usize {
        self.map.locations()
    }

    #[getter]
    fn num_provinces(&self) -> usize {
        self.map.provinces()
    }

    #[getter]
    fn num_powers(&self) -> usize {
        self.map.powers()
    }

    /// The codes of order objects (`diplo.model.orders` classes) read by their fields, without
    /// parsing: -1 for an item that is not one of them, names a place the map does not have, or
    /// needs more than its fields (a waive, an untyped build); the caller rules on those.
    fn encode_objects(&self, items: &Bound<'_, PyList>) -> PyResult<Vec<i64>> {
        guarded(|| {
            let mut out = Vec::with_capacity(items.len());
            for item in items.iter() {
                let code = match self.classes.kind_of(&item) {
                    Some(k) => on_map!(self.map, map => intake::encode_object(map, k, &item)),
                    None => None,
                };
                out.push(code.map_or(-1, |c| i64::try_from(c).unwrap_or(-1)));
            }
            Ok(out)
        })
    }

    /// A phase's orders (`{power: [order, ...]}`, strings or order objects) as `(codes,
    /// powers, missing)`, one code and one power index per order in the mapping's order: a
    /// string in the canonical short form is read by `engine::text::parse_canonical`, an object
    /// by its fields; `missing` lists the orders that need the general parser or the model's
    /// intake (another notation, a power the map does not have: its index 255, an object that
    /// is not an order), whose code is 0 until the caller reads them, each text read once.
    /// `None` when the orders are not a dict of lists or tuples.
    #[allow(clippy::type_complexity)]
    fn submit_orders<'py>(
        &self,
        py: Python<'py>,
        orders: &Bound<'py, PyAny>,
        power_index: &Bound<'py, PyDict>,
    ) -> PyResult<Option<(Bound<'py, PyList>, Bound<'py, PyBytes>, Bound<'py, PyList>)>> {
        guarded(
            || on_map!(self.map, map => intake::submit_orders(map, &self.classes, py, orders, power_index)),
        )
    }

    /// A game at the position of an adjudicate document (`diplo.model.position.Position.from_json`'s
    /// input) written exactly in the canonical form: the phase as `S1901M`, powers by their
    /// names, units as `A PAR` / `F STP/SC`, centres and retreat options by their abbreviations.
    /// `None` for anything else, or a position that is not valid (the caller then reads the
    /// document with `Position.from_json`, which says what is wrong).
    fn read_position(&self, doc: &Bound<'_, PyAny>) -> PyResult<Option<PyCodeGame>> {
        guarded(|| on_map!(self.map, map => documents::read_position(map, doc)))
    }

    /// The code of an order text in the canonical short form, or `None` (see
    /// `engine::text::parse_canonical`).
    fn parse_canonical(&self, text: &str) -> PyResult<Option<u64>> {
        guarded(|| Ok(on_map!(self.map, map => crate::engine::text::parse_canonical(map, text))))
    }

    fn __repr__(&self) -> String {
        format!(
            "CodeMap(num_provinces={}, num_locations={}, num_powers={})",
            self.map.provinces(),
            self.map.locations(),
            self.map.powers()
        )
    }
}
