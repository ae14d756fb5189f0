//! The data of the two classes every other class takes or returns: `FastMap` ([`PyFastMap`]:
//! a compiled map) and `FastGame` ([`PyFastGame`]: a game on the engine). Their Python methods
//! are in `map` and `game`; the structs live here, below every class module, so that a class
//! taking a map or a game (`FastGame(map, ...)`, `FastMap.read_position`, `process_batch`,
//! `mila_turn`, `RolloutPlayer`, `VectorEnv`) needs no other class's module.

use pyo3::prelude::*;

use super::any::{on_game, AnyGame, AnyMap};
use super::intake::OrderClasses;

/// A map compiled for the engine (built once per map by `diplo.engine.compile.fast_map`; methods in
/// `map`).
#[pyclass(frozen, name = "FastMap", module = "diplo._core")]
pub struct PyFastMap {
    pub(super) map: AnyMap,
    /// How order objects' kinds are told (`order_classes`).
    pub(super) classes: OrderClasses,
}

/// One game on the engine (wrapped by `diplo.engine.codes.FastGame`; methods in `game`).
#[pyclass(name = "FastGame", module = "diplo._core")]
pub struct PyFastGame {
    pub(super) game: AnyGame,
}

impl PyFastGame {
    /// A copy of the game (`FastGame.clone`), its panic test hook unset.
    pub(super) fn clone_game(&self) -> PyFastGame {
        let mut game = self.game.clone();
        on_game!(&mut game, g => g.poisoned = false);
        PyFastGame { game }
    }
}
