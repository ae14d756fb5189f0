//! PyO3 bindings: the extension module `diplo._core` over the game engine (feature `python`),
//! wrapped by the `diplo.engine` package (`python/diplo/engine/codes.py`,
//! `python/diplo/engine/objects.py`, `python/diplo/engine/compile.py`); typed in
//! `python/diplo/_core.pyi`.
//!
//! # The modules, as a tree
//!
//! Two layers. The helpers below hold no class's Python methods and import no class module;
//! each class module above them imports helpers only, never another class module (a class that
//! takes or returns a map or a game finds its struct in `handles`). So there is no circle:
//!
//! ```text
//! mod.rs (registers everything)
//! ├── classes: map, game, verdict, outcome, mila, mila_board, rollout, vector, deepmind, batch,
//! │            dipcc
//! │     map ──────► any, documents, errors, handles, intake
//! │     game ─────► any, documents, errors, handles, intake, process, texts
//! │     verdict ──► any, documents, errors, handles, texts
//! │     outcome ──► handles
//! │     mila ─────► any, cache, errors, handles, intake, process, texts
//! │     mila_board ► any, errors, handles
//! │     rollout ──► any, cache, documents, errors, handles
//! │     vector ───► any, arrays, errors, handles
//! │     deepmind ─► any, arrays, errors, handles
//! │     batch ────► any, errors, handles, intake, process
//! │     dipcc ────► any, arrays, errors, handles, process
//! └── helpers
//!       arrays ───► errors
//!       documents ► any, handles
//!       handles ──► any, intake
//!       process ──► any, errors
//!       texts ────► cache, errors
//!       any, cache, errors, intake: no other binding module
//! ```
//!
//! Classes:
//!
//! * `map` — the `CodeMap` class's methods.
//! * `game` — the `CodeGame` class's methods.
//! * `verdict` — the `Verdict` class's methods: one phase's ruling, which `CodeGame.run` and
//!   `mila_play` return.
//! * `outcome` — the `Outcome` class's methods: one phase's results, which `CodeGame.process`
//!   returns.
//! * `mila` — MILA's order texts, a bot's orders read back and played (`mila_turn`,
//!   `MilaCheck`, `mila_play`).
//! * `mila_board` — the `MilaTables` and `MilaBoard` classes: MILA's lists kept in its order
//!   phase by phase, and `get_state`'s dictionary made from them in one call.
//! * `rollout` — the `RolloutPlayer` class: whole random games written as game files.
//! * `vector` — the `VectorEnv` class (NumPy buffers filled in place).
//! * `deepmind` — the `DeepMindEnv` class: DeepMind's protocol for N games (NumPy buffers).
//! * `batch` — `process_batch`, `pack_orders`.
//! * `dipcc` — the `DipccEncoder` class: dipcc's encoders (Cicero's engine) over NumPy arrays,
//!   and the drop-in's phases on the engine (`step`: the staged orders ruled and a `CodeGame`
//!   processed; `engine_game`: a board's `CodeGame`).
//!
//! Helpers:
//!
//! * `handles` — the structs of `CodeMap`, `CodeGame` and `Verdict`, which other classes take
//!   and return.
//! * `any` — a map or game of any width (`AnyMap`, `AnyGame`) and the macros that dispatch on it.
//! * `process` — processing as every class does (the last year a state may have, a finished
//!   game's error).
//! * `errors` — `GameOverError`, the one mapping of engine errors to Python exceptions (by
//!   kind), and the one panic guard (with its test hooks).
//! * `intake` — reading orders: codes, order objects, canonical texts.
//! * `documents` — the position document reader and writers.
//! * `texts` — a map's Python strings: names and the order texts.
//! * `arrays` — the environments' NumPy side, their one skeleton: the output arrays declared
//!   once per class (`arrays!`), one call (`call`: actions read, arrays lent, the engine run with
//!   the GIL released), thread counts, sizes, a busy buffer.
//! * `cache` — the integer-keyed caches (`KeyHasher`, `TextArena`, `PerMap`).
//!
//! What needs no Python is in the engine: the game file's text of a movement phase is
//! `crate::engine::game_file`, the order texts `crate::engine::text`.

// The helpers (no class's methods; none imports a class module).
mod any;
mod arrays;
mod cache;
mod documents;
mod errors;
mod handles;
mod intake;
mod process;
mod texts;

// One module per Python class (or family of functions); none imports another.
mod batch;
mod deepmind;
mod dipcc;
mod game;
mod map;
mod mila;
mod mila_board;
mod outcome;
mod rollout;
mod vector;
mod verdict;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::engine::encode::{self, kind};
use crate::resolver::code;

/// The Rust core of diplo.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<handles::PyCodeMap>()?;
    m.add_class::<handles::PyCodeGame>()?;
    m.add_class::<handles::PyVerdict>()?;
    m.add_class::<handles::PyOutcome>()?;
    m.add_class::<rollout::PyRolloutPlayer>()?;
    batch::register(m)?;
    vector::register(m)?;
    deepmind::register(m)?;
    dipcc::register(m)?;
    mila::register(m)?;
    m.add_class::<mila_board::MilaTables>()?;
    m.add_class::<mila_board::MilaBoard>()?;
    m.add_function(wrap_pyfunction!(mila_board::mila_copy, m)?)?;
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
