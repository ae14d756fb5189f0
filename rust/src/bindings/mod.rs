//! PyO3 bindings: the extension module `diplo._core` over the game engine (feature `python`),
//! wrapped by `python/diplo/engine.py` and `python/diplo/fast.py`; typed in
//! `python/diplo/_core.pyi`.
//!
//! * `errors` — `GameOverError` and the one panic guard (with its test hooks).
//! * `map` — the `FastMap` class.
//! * `game` — the `FastGame` class.
//! * `intake` — reading orders: codes, order objects, canonical texts.
//! * `documents` — the position document reader and writers.
//! * `texts` — a map's Python strings: names and interned order texts.
//! * `mila` — MILA's order texts, a bot's orders read back and played (`mila_turn`, `MilaCheck`, `mila_play`).
//! * `batch` — `process_batch`, `pack_orders`.
//! * `rollout` — the game-file writer of `diplo rollouts` and its `RolloutPlayer` class.
//! * `vector` — the `VectorEnv` class (NumPy buffers filled in place).

mod any;
mod batch;
mod documents;
mod errors;
mod game;
mod intake;
mod map;
mod mila;
mod rollout;
mod texts;
mod vector;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::engine::encode::{self, kind};
use crate::resolver::code;

/// The Rust core of diplo.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<map::PyFastMap>()?;
    m.add_class::<game::PyFastGame>()?;
    m.add_class::<rollout::PyRolloutPlayer>()?;
    batch::register(m)?;
    vector::register(m)?;
    mila::register(m)?;
    m.add("__version__", crate::version())?;
    // One table per concept, each from its one home in the core.
    m.add("REASON_NAMES", crate::engine::legality::NAMES.to_vec())?;
    m.add("RESULT_NAMES", code::NAMES.to_vec())?;
    m.add("ORDER_KINDS", kind::NAMES.to_vec())?;
    // The why codes of retreat and adjustment results (their sentences: diplo.model.outcome).
    m.add(
        "EXPLAIN_NAMES",
        crate::engine::phases::EXPLAIN_NAMES.to_vec(),
    )?;
    let layout = PyDict::new(m.py());
    for (name, value) in encode::LAYOUT {
        layout.set_item(name, value)?;
    }
    m.add("CODE_LAYOUT", layout)?;
    Ok(())
}
