//! diplo core: the movement resolver of the diplo Diplomacy adjudicator.
//!
//! The rules authority is the DATC v3.0 with its preferences (chapter 4) and Kruijswijk's
//! equations (chapter 5); comments cite the case or rule they implement (`DATC 6.E.4`). The
//! module contract is `docs/design.md` ("Outcomes", "The Rust core").
//!
//! * [`map`] — [`CompiledMap`], the map as integers and bit matrices.
//! * [`orders`] — [`Unit`], [`Order`] and their encoding.
//! * [`convoy`] — convoy route search.
//! * `strength` — hold, attack, defend and prevent strengths.
//! * [`resolver`] — Kruijswijk's guess algorithm with the backup rule ([`Adjudicator`]).
//! * `retreat` — contested provinces and retreat options.
//! * [`outcome`] — [`MovementOutcome`] and the result codes.
//! * `python` — the PyO3 bindings (`diplo._core`), only with feature `python`.

pub mod convoy;
pub mod fast;
pub mod map;
pub mod orders;
pub mod outcome;
pub mod resolver;
mod retreat;
mod strength;

#[cfg(feature = "python")]
mod py_errors;
#[cfg(feature = "python")]
mod py_fast;
#[cfg(feature = "python")]
mod py_texts;
#[cfg(feature = "python")]
mod python;

pub use map::CompiledMap;
pub use orders::{Order, Unit};
pub use outcome::{code, MovementOutcome};
pub use resolver::Adjudicator;

/// Boards up to this many units are resolved on the caller's stack; larger ones (never seen on a
/// standard board, which has at most 34 units) on a helper thread with a stack sized for the
/// recursion depth, which grows with the number of decisions.
const INLINE_UNITS: usize = 256;

/// Resolves one movement phase. `orders[i]` is the order of `units[i]`.
///
/// Errors (as a message naming the problem) on input that cannot be encoded: index out of range,
/// two units in one province, length mismatch, an order no unit could be given.
pub fn resolve_movement(
    map: &CompiledMap,
    units: &[Unit],
    orders: &[Order],
) -> Result<MovementOutcome, String> {
    let run = || {
        let mut adj = Adjudicator::new(map);
        let mut out = MovementOutcome::default();
        adj.resolve_into(units, orders, &mut out).map(|()| out)
    };
    if units.len() <= INLINE_UNITS {
        return run();
    }
    let stack = (1 << 20) + units.len() * (16 << 10);
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .stack_size(stack)
            .spawn_scoped(scope, run)
            .map_err(|e| format!("cannot start the resolver thread: {e}"))?;
        match handle.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// The crate version.
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}
