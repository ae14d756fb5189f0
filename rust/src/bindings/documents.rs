//! Position documents (`diplo.model.position.Position` as JSON): the reader of a canonical adjudicate
//! document and the two writers, `position_json` (a dict) and `position_text` (its `json.dumps`).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use super::any::{new_game, Known};
use super::handles::PyCodeGame;
use crate::engine::game_map::{Bits, GameMap, Mask};
use crate::engine::state::State;

/// A state as `CodeGame.state` and `Verdict.state` give it: `(year, season, kind, units,
/// centers, dislodged)` with units `(power, is_fleet, loc)`, centres `(province, power)` and
/// dislodged `(power, is_fleet, loc, options)`.
pub(super) type RawState = (
    u32,
    &'static str,
    &'static str,
    Vec<(u8, bool, u16)>,
    Vec<(usize, u8)>,
    Vec<(u8, bool, u16, Vec<usize>)>,
);

/// `st` as a [`RawState`].
pub(super) fn raw_state<M: Mask>(map: &GameMap<M>, st: &State<M>) -> RawState {
    let season = ["S", "F", "W"][st.season as usize];
    let kind = ["M", "R", "A"][st.kind as usize];
    let mut units = Vec::new();
    let mut centers = Vec::new();
    let mut dislodged = Vec::new();
    for q in 0..map.provinces {
        let u = st.units[q];
        if u.is_some() {
            units.push((u.power, u.fleet, u.loc));
        }
        if st.centers[q] != crate::engine::game_map::NO_POWER {
            centers.push((q, st.centers[q]));
        }
        let d = st.dislodged[q];
        if d.is_some() {
            dislodged.push((d.power, d.fleet, d.loc, Bits(st.retreats[q]).collect()));
        }
    }
    (st.year, season, kind, units, centers, dislodged)
}

/// A unit as `CodeGame(...)` takes it: `(power, is_fleet, location)` indices.
pub(super) type RawPiece = (i64, i64, i64);

/// A document's `{power: value}` entries, the power as its index.
type PowerItems<'py> = Vec<(i64, Bound<'py, PyAny>)>;

/// A game at the position of a canonical adjudicate document, or `None` (see
/// `PyCodeMap::read_position`).
pub(super) fn read_position<M: Known>(
    map: &'static GameMap<M>,
    doc: &Bound<'_, PyAny>,
) -> PyResult<Option<PyCodeGame>> {
    let Ok(doc) = doc.downcast::<PyDict>() else {
        return Ok(None);
    };
    let exact = |v: &Bound<'_, PyAny>| -> Option<String> {
        v.is_exact_instance_of::<PyString>()
            .then(|| {
                v.downcast::<PyString>()
                    .ok()?
                    .to_str()
                    .ok()
                    .map(str::to_string)
            })
            .flatten()
    };
    let Some(phase) = doc.get_item("phase")?.and_then(|v| exact(&v)) else {
        return Ok(None);
    };
    let b = phase.as_bytes();
    if b.len() < 3 || b.len() > 7 || !b[1..b.len() - 1].iter().all(u8::is_ascii_digit) {
        return Ok(None);
    }
    let Ok(year) = phase[1..phase.len() - 1].parse::<i64>() else {
        return Ok(None);
    };
    let power_of = |v: &Bound<'_, PyAny>| -> Option<i64> {
        let name = exact(v)?;
        map.spec
            .powers
            .iter()
            .position(|p| *p == name)
            .map(|i| i as i64)
    };
    let loc_of = |v: &Bound<'_, PyAny>| -> Option<i64> {
        map.loc_index.get(exact(v)?.as_str()).map(|&i| i64::from(i))
    };
    let unit_of = |power: i64, v: &Bound<'_, PyAny>| -> Option<RawPiece> {
        let text = exact(v)?;
        let (kind, loc) = text.split_once(' ')?;
        let fleet = match kind {
            "A" => 0,
            "F" => 1,
            _ => return None,
        };
        Some((power, fleet, i64::from(*map.loc_index.get(loc)?)))
    };
    // `{power: value}` (absent or null: nothing), each power by its exact name.
    let by_power = |key: &str| -> PyResult<Option<PowerItems<'_>>> {
        let Some(raw) = doc.get_item(key)? else {
            return Ok(Some(Vec::new()));
        };
        if raw.is_none() {
            return Ok(Some(Vec::new()));
        }
        let Ok(raw) = raw.downcast::<PyDict>() else {
            return Ok(None);
        };
        let mut out = Vec::with_capacity(raw.len());
        for (k, v) in raw.iter() {
            let Some(p) = power_of(&k) else {
                return Ok(None);
            };
            out.push((p, v));
        }
        Ok(Some(out))
    };
    let mut units = Vec::new();
    let mut centers = Vec::new();
    let mut dislodged = Vec::new();
    let Some(groups) = by_power("units")? else {
        return Ok(None);
    };
    for (p, list) in groups {
        let Ok(list) = list.downcast::<PyList>() else {
            return Ok(None);
        };
        for item in list.iter() {
            let Some(u) = unit_of(p, &item) else {
                return Ok(None);
            };
            units.push(u);
        }
    }
    let Some(groups) = by_power("centers")? else {
        return Ok(None);
    };
    for (p, list) in groups {
        let Ok(list) = list.downcast::<PyList>() else {
            return Ok(None);
        };
        for item in list.iter() {
            match loc_of(&item) {
                Some(c) if (c as usize) < map.provinces => centers.push((c, p)),
                _ => return Ok(None),
            }
        }
    }
    let Some(groups) = by_power("dislodged")? else {
        return Ok(None);
    };
    for (p, entries) in groups {
        let Ok(entries) = entries.downcast::<PyDict>() else {
            return Ok(None);
        };
        for (unit, options) in entries.iter() {
            let Some(u) = unit_of(p, &unit) else {
                return Ok(None);
            };
            let Ok(options) = options.downcast::<PyList>() else {
                return Ok(None);
            };
            let mut locs = Vec::with_capacity(options.len());
            for o in options.iter() {
                let Some(l) = loc_of(&o) else {
                    return Ok(None);
                };
                locs.push(l);
            }
            dislodged.push((u, locs));
        }
    }
    let season = &phase[..1];
    let kind = &phase[phase.len() - 1..];
    Ok(
        State::new(map, year, season, kind, &units, &centers, &dislodged)
            .ok()
            .map(|state| PyCodeGame {
                game: new_game(map, state, None),
            }),
    )
}

/// The position as `diplo.model.position.Position.to_json` writes it (see `PyCodeGame::position_json`).
pub(super) fn position_json<'py, M: Mask>(
    py: Python<'py>,
    map: &GameMap<M>,
    st: &State<M>,
) -> PyResult<Bound<'py, PyDict>> {
    let board = BoardLists::of(map, st);
    let out = PyDict::new(py);
    out.set_item("phase", st.phase_name())?;
    fn grouped<'py, M: Mask, S: AsRef<str>>(
        py: Python<'py>,
        map: &GameMap<M>,
        lists: &[Vec<S>],
    ) -> PyResult<Bound<'py, PyDict>> {
        let by_power = PyDict::new(py);
        for (power, list) in lists.iter().enumerate() {
            if !list.is_empty() {
                let names = list.iter().map(AsRef::as_ref);
                by_power.set_item(map.power_name(power), PyList::new(py, names)?)?;
            }
        }
        Ok(by_power)
    }
    let units: Vec<Vec<String>> = board
        .units
        .iter()
        .map(|list| {
            list.iter()
                .map(|&(fleet, loc)| unit_text(fleet, loc))
                .collect()
        })
        .collect();
    out.set_item("units", grouped(py, map, &units)?)?;
    out.set_item("centers", grouped(py, map, &board.centers)?)?;
    let by_power = PyDict::new(py);
    for (power, qs) in board.dislodged.iter().enumerate() {
        if qs.is_empty() {
            continue;
        }
        let group = PyDict::new(py);
        for &q in qs {
            let options: Vec<&str> = Bits(st.retreats[q]).map(|l| map.loc_name(l)).collect();
            group.set_item(piece_text(map, st.dislodged[q]), PyList::new(py, options)?)?;
        }
        by_power.set_item(map.power_name(power), group)?;
    }
    out.set_item("dislodged", by_power)?;
    Ok(out)
}

/// See `PyCodeGame::position_json_text`: the same lists in the same order as `position_json`.
pub(super) fn position_text<M: Mask>(
    map: &GameMap<M>,
    st: &State<M>,
    phase: Option<&str>,
) -> String {
    use std::fmt::Write as _;
    let board = BoardLists::of(map, st);
    let mut out = String::with_capacity(1024);
    match phase {
        Some(p) => {
            let _ = write!(out, "{{\"phase\": \"{p}\", \"units\": {{");
        }
        None => out.push_str("{\"phase\": null, \"units\": {"),
    }
    /// `{power: [text, ...]}` of the non-empty lists, each item written by `item`.
    fn group<M: Mask, T>(
        out: &mut String,
        map: &GameMap<M>,
        lists: &[Vec<T>],
        item: impl Fn(&mut String, &T),
    ) {
        let mut first = true;
        for (power, list) in lists.iter().enumerate() {
            if list.is_empty() {
                continue;
            }
            if !first {
                out.push_str(", ");
            }
            first = false;
            out.push('"');
            out.push_str(map.power_name(power));
            out.push_str("\": [");
            for (i, x) in list.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push('"');
                item(out, x);
                out.push('"');
            }
            out.push(']');
        }
    }
    group(&mut out, map, &board.units, |out, &(fleet, loc)| {
        out.push_str(if fleet { "F " } else { "A " });
        out.push_str(loc);
    });
    out.push_str("}, \"centers\": {");
    group(&mut out, map, &board.centers, |out, name| {
        out.push_str(name)
    });
    out.push_str("}, \"dislodged\": {");
    let mut first = true;
    for (power, qs) in board.dislodged.iter().enumerate() {
        if qs.is_empty() {
            continue;
        }
        if !first {
            out.push_str(", ");
        }
        first = false;
        let _ = write!(out, "\"{}\": {{", map.power_name(power));
        for (i, &q) in qs.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, "\"{}\": [", piece_text(map, st.dislodged[q]));
            for (k, l) in Bits(st.retreats[q]).enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                out.push('"');
                out.push_str(map.loc_name(l));
                out.push('"');
            }
            out.push(']');
        }
        out.push('}');
    }
    out.push_str("}}");
    out
}

/// A unit as a position document writes it (`A PAR`, `F STP/SC`).
pub(super) fn piece_text<M: Mask>(map: &GameMap<M>, p: crate::engine::state::Piece) -> String {
    format!(
        "{} {}",
        if p.fleet { "F" } else { "A" },
        map.loc_name(p.loc as usize)
    )
}

/// A unit's text from its type and location name (`A PAR`, `F STP/SC`).
fn unit_text(fleet: bool, loc: &str) -> String {
    format!("{} {loc}", if fleet { "F" } else { "A" })
}

/// The lists of a position document (`diplo.model.position.Position.to_json`), per power in map
/// order: units and centres sorted by text, dislodged units (their provinces) in the order of
/// their locations' names. One home for both writers, `position_json` and `position_text`.
/// A unit is kept as its type (fleet or not) and location name: in that order they sort as
/// their texts (`A ...` before `F ...`, then by name).
struct BoardLists<'m> {
    units: Vec<Vec<(bool, &'m str)>>,
    centers: Vec<Vec<&'m str>>,
    dislodged: Vec<Vec<usize>>,
}

impl<'m> BoardLists<'m> {
    fn of<M: Mask>(map: &'m GameMap<M>, st: &State<M>) -> Self {
        let mut units: Vec<Vec<(bool, &'m str)>> = vec![Vec::new(); map.powers];
        let mut centers: Vec<Vec<&'m str>> = vec![Vec::new(); map.powers];
        let mut gone: Vec<(&'m str, usize)> = Vec::new();
        for q in 0..map.provinces {
            let u = st.units[q];
            if u.is_some() {
                units[u.power as usize].push((u.fleet, map.loc_name(u.loc as usize)));
            }
            let o = st.centers[q];
            if o != crate::engine::game_map::NO_POWER {
                centers[o as usize].push(map.loc_name(q));
            }
            if st.dislodged[q].is_some() {
                gone.push((map.loc_name(st.dislodged[q].loc as usize), q));
            }
        }
        units.iter_mut().for_each(|l| l.sort_unstable());
        centers.iter_mut().for_each(|l| l.sort_unstable());
        gone.sort_unstable();
        let mut dislodged: Vec<Vec<usize>> = vec![Vec::new(); map.powers];
        for &(_, q) in &gone {
            dislodged[st.dislodged[q].power as usize].push(q);
        }
        BoardLists {
            units,
            centers,
            dislodged,
        }
    }
}
