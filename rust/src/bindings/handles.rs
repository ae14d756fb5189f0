//! The data of the classes other classes take or return: `CodeMap` ([`PyCodeMap`]: a compiled
//! map), `CodeGame` ([`PyCodeGame`]: a game on the engine), `Verdict` ([`PyVerdict`]: a
//! phase's ruling, which `CodeGame.run` and `mila_play` return) and `Outcome` ([`PyOutcome`]: a
//! phase's results, which `CodeGame.process` returns). Their Python methods are in
//! `map`, `game`, `verdict` and `outcome`; the structs live here, below every class module, so that a class
//! taking a map or a game (`CodeGame(map, ...)`, `CodeMap.read_position`, `process_batch`,
//! `mila_turn`, `RolloutPlayer`, `VectorEnv`) needs no other class's module.

use pyo3::prelude::*;

use super::any::{on_game, on_verdict, AnyGame, AnyMap, AnyVerdict};
use super::intake::OrderClasses;
use crate::engine::phases::{recycle_outcome, recycle_verdict, Outcome};

/// A map compiled for the engine (built once per map by `diplo.engine.compile.code_map`; methods in
/// `map`).
#[pyclass(frozen, name = "CodeMap", module = "diplo._core")]
pub struct PyCodeMap {
    pub(super) map: AnyMap,
    /// How order objects' kinds are told (`order_classes`).
    pub(super) classes: OrderClasses,
}

/// One game on the engine (wrapped by `diplo.engine.codes.CodeGame`; methods in `game`).
#[pyclass(name = "CodeGame", module = "diplo._core")]
pub struct PyCodeGame {
    pub(super) game: AnyGame,
}

impl PyCodeGame {
    /// A copy of the game (`CodeGame.clone`), its panic test hook unset.
    pub(super) fn clone_game(&self) -> PyCodeGame {
        let mut game = self.game.clone();
        on_game!(&mut game, g => g.poisoned = false);
        PyCodeGame { game }
    }
}

/// One phase's ruling (`crate::engine::phases::Verdict`): immutable once made (methods in
/// `verdict`). Dropped, its buffers go back to the thread's spares for the next verdict.
#[pyclass(frozen, name = "Verdict", module = "diplo._core")]
pub struct PyVerdict {
    /// Always there but while the object is dropped.
    verdict: Option<AnyVerdict>,
}

impl PyVerdict {
    pub(super) fn new(verdict: AnyVerdict) -> PyVerdict {
        PyVerdict {
            verdict: Some(verdict),
        }
    }

    /// The verdict.
    pub(super) fn get(&self) -> &AnyVerdict {
        match &self.verdict {
            Some(v) => v,
            None => unreachable!("a verdict is taken only when dropped"),
        }
    }
}

impl Drop for PyVerdict {
    fn drop(&mut self) {
        if let Some(v) = self.verdict.take() {
            on_verdict!(v, v => recycle_verdict(v));
        }
    }
}

/// One phase's results (`crate::engine::phases::Outcome`), which `CodeGame.process` returns:
/// immutable once made (methods in `outcome`). Dropped, its buffers go back to the thread's
/// spares for the next outcome.
#[pyclass(frozen, name = "Outcome", module = "diplo._core")]
pub struct PyOutcome {
    pub(super) outcome: Outcome,
}

impl Drop for PyOutcome {
    fn drop(&mut self) {
        recycle_outcome(std::mem::take(&mut self.outcome));
    }
}
