//! Processing a game as every class does: refusing to go past the last year a state may have
//! ([`process_checked`]) and the error of a finished game ([`game_over`]).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::any::{AnyVerdict, Known};
use crate::engine::error::EngineError;
use crate::engine::game_map::Mask;
use crate::engine::phases::{spare_verdict, Game, Outcome};
use crate::engine::state::MAX_YEAR;

/// Whether processing `game` might take it past [`MAX_YEAR`] (a Fall or Winter of that year on
/// the standard calendar; on another, any phase whose next season's year would be past it).
pub(super) fn in_last_year<M: Mask>(game: &Game<M>) -> bool {
    let st = &game.state;
    !game.over && game.map.next_year(st.year, st.season) > MAX_YEAR
}

/// The error of processing a finished game.
pub(super) fn game_over() -> PyErr {
    EngineError::game_over().into()
}

/// Processes `game`, its results into `out`, refusing (the game unchanged) to go past
/// [`MAX_YEAR`].
pub(super) fn process_checked<M: Known>(game: &mut Game<M>, out: &mut Outcome) -> PyResult<()> {
    checked(game, |g| g.process_into(out))
}

/// Rules on `game`'s phase ([`Game::rule`]), refusing (the game unchanged) to go past
/// [`MAX_YEAR`]; `listed` as `Game::process_listed_into` takes it, when the phase cannot reach it.
pub(super) fn rule_checked<M: Known>(game: &mut Game<M>, listed: bool) -> PyResult<AnyVerdict> {
    let listed = listed && !in_last_year(game);
    let mut verdict = spare_verdict(game.map, &game.state);
    checked(game, |g| g.rule_into(&mut verdict, listed))?;
    Ok(M::wrap_verdict(verdict))
}

/// `step` on `game`, refusing (the game unchanged) to go past [`MAX_YEAR`].
fn checked<M: Known>(
    game: &mut Game<M>,
    step: impl FnOnce(&mut Game<M>) -> Result<(), EngineError>,
) -> PyResult<()> {
    if in_last_year(game) {
        // Rare: play a copy, kept only if it stays within the years a state may have.
        let mut trial = game.clone();
        step(&mut trial)?;
        if trial.state.year > MAX_YEAR {
            return Err(year_limit(&game.state.phase_name()));
        }
        *game = trial;
        return Ok(());
    }
    Ok(step(game)?)
}

/// The refusal of a phase that would go past [`MAX_YEAR`], naming it.
pub(super) fn year_limit(phase: &str) -> PyErr {
    PyValueError::new_err(format!(
        "{phase}: the game cannot go past the year {MAX_YEAR}"
    ))
}
