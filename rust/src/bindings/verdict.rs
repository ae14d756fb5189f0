//! `diplo._core.Verdict`: one phase's ruling (`crate::engine::phases::Verdict`), made by
//! `CodeGame.run` and `mila_play`, immutable. Everything the object API, the MILA records and the
//! rollout writer read of a phase is read here, from the verdict they were handed: the state it
//! was ruled from (`state`, `phase`, `texts`), the state it led to (`after_state`, `winner`),
//! and the rulings (per code its reason, normal form, result and facts; the implied results;
//! the units dislodged; the rows the model words).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};

use super::any::on_verdict;
use super::documents::{self, RawState};
use super::errors::guarded;
use super::handles::PyVerdict;
use super::texts::map_names;
use crate::engine::encode::{signed, Code};
use crate::engine::game_map::Bits;

#[pymethods]
impl PyVerdict {
    /// The name of the phase ruled (`S1901M`).
    #[getter]
    fn phase(&self) -> String {
        on_verdict!(self.get(), g => g.before.phase_name())
    }

    /// The state the phase was ruled from, as `CodeGame.state` gives it.
    fn state(&self) -> PyResult<RawState> {
        guarded(|| Ok(on_verdict!(self.get(), g => documents::raw_state(g.map, &g.before))))
    }

    /// The state the phase led to, as `CodeGame.state` gives it.
    fn after_state(&self) -> PyResult<RawState> {
        guarded(|| Ok(on_verdict!(self.get(), g => documents::raw_state(g.map, &g.after))))
    }

    /// The winner the phase decided (a power's name), or `None`.
    #[getter]
    fn winner(&self) -> Option<String> {
        on_verdict!(self.get(), g => g.winner.map(|w| g.map.power_name(w as usize).to_string()))
    }

    /// Per submitted code: its result code (index of `RESULT_NAMES`, 6: illegal).
    fn result_codes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        guarded(
            || on_verdict!(self.get(), g => PyList::new(py, g.outcome.results.iter().map(|&c| u32::from(c)))),
        )
    }

    /// Per submitted code: whether it succeeded.
    fn result_success(&self) -> Vec<bool> {
        on_verdict!(self.get(), g => g.outcome.success.clone())
    }

    /// What the phase did without an order: `(code, result, success)`.
    fn implied_results(&self) -> Vec<(i64, u8, bool)> {
        on_verdict!(self.get(), g => g.outcome.implied.iter().map(|&(c, r, s)| (signed(c), r, s)).collect())
    }

    /// The canonical texts of normal-form codes in the state the phase was ruled from.
    fn texts<'py>(&self, py: Python<'py>, codes: Vec<Code>) -> PyResult<Bound<'py, PyList>> {
        guarded(|| {
            on_verdict!(self.get(), g => {
                let mut buf = String::new();
                let items: Vec<Bound<'py, PyString>> = codes
                    .iter()
                    .map(|&c| {
                        crate::engine::text::order_text(g.map, &g.before, c, &mut buf);
                        PyString::new(py, &buf)
                    })
                    .collect();
                PyList::new(py, items)
            })
        })
    }

    /// Per submitted code: its reason code (index of `REASON_NAMES`; 0 when legal).
    fn reasons<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        guarded(
            || on_verdict!(self.get(), g => PyList::new(py, g.reasons.iter().map(|&c| u32::from(c)))),
        )
    }

    /// Per submitted code: its normal form (0 when refused).
    fn normal_forms(&self) -> Vec<i64> {
        on_verdict!(self.get(), g => g.normal.iter().map(|&c| signed(c)).collect())
    }

    /// Movement: per code then per implied hold, `(dislodged_by, by, attack,
    /// opposition, convoyed, szykman)` (locations, -1 for none).
    fn facts(&self) -> Vec<(i32, i32, u8, u8, bool, bool)> {
        on_verdict!(self.get(), g => g
            .facts
            .iter()
            .map(|f| {
                (
                    f.dislodged_by,
                    f.by,
                    f.attack,
                    f.opposition,
                    f.convoyed,
                    f.szykman,
                )
            })
            .collect())
    }

    /// Movement: every dislodged unit `(power, is_fleet, loc, options)`.
    #[allow(clippy::type_complexity)]
    fn gone(&self) -> PyResult<Vec<(u8, bool, u16, Vec<usize>)>> {
        guarded(|| {
            Ok(on_verdict!(self.get(), g => g
                .gone
                .iter()
                .map(|(p, m)| (p.power, p.fleet, p.loc, Bits(*m).collect()))
                .collect()))
        })
    }

    /// Movement: per submitted code,
    /// `None` when refused, else `(text, unit, kind, code, success, dislodged_by, by, attack,
    /// opposition, convoyed, szykman)`: the normal form's canonical text, the unit's text
    /// (`A PAR`), the order's class name and the arguments of `diplo.model.outcome.explain_facts`.
    /// Then per implied hold `(power, unit, province, code, success, dislodged_by)`.
    fn movement_rows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        guarded(|| {
            on_verdict!(self.get(), g => {
                let map = g.map;
                let st = &g.before;
                let names = map_names(py, map);
                let loc = |i: i32| -> Option<Bound<'py, PyString>> {
                    (i >= 0).then(|| names.locations[i as usize].bind(py).clone())
                };
                let mut buf = String::new();
                let mut rows: Vec<Bound<'py, PyAny>> = Vec::with_capacity(g.outcome.results.len());
                for j in 0..g.outcome.results.len() {
                    if g.reasons.get(j).copied().unwrap_or(1) != 0 || j >= g.facts.len() {
                        rows.push(py.None().into_bound(py));
                        continue;
                    }
                    let c = g.normal[j];
                    crate::engine::text::order_text(map, st, c, &mut buf);
                    let unit = &buf[..buf[2..].find(' ').map_or(buf.len(), |k| k + 2)];
                    let f = g.facts[j];
                    let row = (
                        buf.as_str(),
                        unit,
                        names.kinds[crate::engine::encode::kind_of(c) as usize].bind(py),
                        names.codes[g.outcome.results[j] as usize].bind(py),
                        g.outcome.success[j],
                        loc(f.dislodged_by),
                        loc(f.by),
                        f.attack,
                        f.opposition,
                        f.convoyed,
                        f.szykman,
                    );
                    rows.push(row.into_pyobject(py)?.into_any());
                }
                // Then the implied holds: (power, unit, province, code, success, dislodged_by).
                let n = g.outcome.results.len();
                for (k, &(code, res, ok)) in g.outcome.implied.iter().enumerate() {
                    let prov = map.prov_of[crate::engine::encode::loc_of(code)] as usize;
                    let u = st.units[prov];
                    if !u.is_some() {
                        return Err(PyValueError::new_err(
                            "the verdict has no unit where an implied hold was ruled",
                        ));
                    }
                    buf.clear();
                    buf.push_str(if u.fleet { "F " } else { "A " });
                    buf.push_str(map.loc_name(u.loc as usize));
                    let origin = g.facts.get(n + k).map_or(-1, |f| f.dislodged_by);
                    let row = (
                        names.powers[u.power as usize].bind(py),
                        buf.as_str(),
                        names.locations[prov].bind(py),
                        names.codes[res as usize].bind(py),
                        ok,
                        loc(origin),
                    );
                    rows.push(row.into_pyobject(py)?.into_any());
                }
                PyList::new(py, rows)
            })
        })
    }
    /// Movement, every submitted code legal: the results'
    /// JSON as `diplo.rollouts.write` writes them (`json.dumps` of `Result.to_json()` on a
    /// plain-named map), cut where each sentence's tail goes: `(parts, keys)`, the text being
    /// `parts[0] + tail(keys[0]) + parts[1] + ... + parts[n]`. `owners` names the power of each
    /// code (bytes of power indices). A key packs the facts the tail is worded from: bits 0-3
    /// the order kind, 4-6 the result code, 7-17 the dislodger's origin + 1 (0: none), 18-28
    /// the unit behind the result + 1, 29-36 attack, 37-44 opposition, 45 convoyed, 46 Szykman,
    /// 47 an implied hold (its tail follows the unit's text).
    fn movement_json(&self, owners: &Bound<'_, PyBytes>) -> PyResult<(Vec<String>, Vec<u64>)> {
        let owners = owners.as_bytes();
        guarded(|| {
            on_verdict!(self.get(), g => {
                let st = &g.before;
                Ok(crate::engine::game_file::movement_pieces(g, st, owners)?)
            })
        })
    }

    /// Retreats or adjustments: per
    /// submitted code `None` when refused, else `(code, success, unit, facts)`; then per implied
    /// result (disbands of dislodged units without a legal order, waives of unused builds,
    /// civil-disorder disbands) the same. `code` is the result code's name, `unit` the result's
    /// unit text (`None` for a waive), `facts` is `(why, power, unit, order, place, other, number,
    /// home, rivals)`: `why` an index of `EXPLAIN_NAMES`, then the facts
    /// `diplo.model.outcome.explain_ruling` words (names of the map, `None` when not used;
    /// `rivals` as `(power, unit)`).
    fn phase_rows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        use crate::engine::phases::{explain, Ruling};
        guarded(|| {
            on_verdict!(self.get(), g => {
                let map = g.map;
                let st = &g.before;
                let names = map_names(py, map);
                let loc = |i: i32| -> Option<Bound<'py, PyString>> {
                    (i >= 0).then(|| names.locations[i as usize].bind(py).clone())
                };
                let row = |code: u8, ok: bool, unit: Option<&str>, order: &str, r: &Ruling| {
                    let other = if r.other.is_some() {
                        Some(documents::piece_text(map, r.other))
                    } else {
                        (r.other_place >= 0).then(|| map.loc_name(r.other_place as usize).to_string())
                    };
                    let rivals: Vec<(&Bound<'py, PyString>, String)> = r
                        .rivals
                        .iter()
                        .map(|p| {
                            (
                                names.powers[p.power as usize].bind(py),
                                documents::piece_text(map, *p),
                            )
                        })
                        .collect();
                    let facts = (
                        r.why,
                        names.powers[r.power as usize].bind(py),
                        r.unit.is_some().then(|| documents::piece_text(map, r.unit)),
                        order,
                        loc(r.place),
                        other,
                        r.count,
                        r.home,
                        rivals,
                    );
                    let out = (names.codes[code as usize].bind(py), ok, unit, facts);
                    out.into_pyobject(py).map(|t| t.into_any())
                };
                let n = g.outcome.results.len();
                let mut rows: Vec<Option<Bound<'py, PyAny>>> = Vec::with_capacity(n + g.outcome.implied.len());
                let mut buf = String::new();
                for j in 0..n {
                    let r = match g.rulings.get(j) {
                        Some(r) if r.why != explain::NONE && g.reasons.get(j) == Some(&0) => r,
                        _ => {
                            rows.push(None);
                            continue;
                        }
                    };
                    crate::engine::text::order_text(map, st, g.normal[j], &mut buf);
                    let unit = (buf != "WAIVE")
                        .then(|| &buf[..buf[2..].find(' ').map_or(buf.len(), |k| k + 2)]);
                    rows.push(Some(row(g.outcome.results[j], g.outcome.success[j], unit, &buf, r)?));
                }
                for (k, &(code, res, ok)) in g.outcome.implied.iter().enumerate() {
                    let Some(r) = g.rulings.get(n + k) else {
                        break;
                    };
                    use crate::engine::encode::{kind, kind_of};
                    if kind_of(code) == kind::WAIVE {
                        rows.push(Some(row(res, ok, None, "WAIVE", r)?));
                    } else {
                        // A civil-disorder disband, or a neutral army raised again.
                        let unit = documents::piece_text(map, r.unit);
                        let verb = if kind_of(code) == kind::BUILD { "B" } else { "D" };
                        let order = format!("{unit} {verb}");
                        rows.push(Some(row(res, ok, Some(&unit), &order, r)?));
                    }
                }
                PyList::new(py, rows)
            })
        })
    }

    fn __repr__(&self) -> String {
        on_verdict!(self.get(), g => format!(
            "<Verdict {}: {} orders>",
            g.before.phase_name(),
            g.orders.len()
        ))
    }
}
