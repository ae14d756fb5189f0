//! diplo core: the Rust half of the diplo Diplomacy adjudicator, in two parts and their bindings.
//!
//! The rules authority is the DATC v3.0 with its preferences (chapter 4) and Kruijswijk's
//! equations (chapter 5); comments cite the case or rule they implement (`DATC 6.E.4`). The
//! module contract is `docs/design.md` ("Outcomes", "One engine, two readable front ends", "The
//! code front end").
//!
//! * [`resolver`] — the movement resolver: one movement phase of validated orders on a
//!   [`CompiledMap`], adjudicated by Kruijswijk's guess algorithm ([`Adjudicator`],
//!   [`resolve_movement`]) into a [`MovementOutcome`].
//! * [`engine`] — the game engine behind every front end: whole games on `u64` order codes
//!   (legal orders, validation and its reasons, the three phase kinds, the next position,
//!   batches of games on threads), resolving movement with the resolver.
//! * `bindings` — the PyO3 module `diplo._core` over the engine, only with feature `python`
//!   (typed in `python/diplo/_core.pyi`).

pub mod engine;
pub mod resolver;

#[cfg(feature = "python")]
mod bindings;

pub use resolver::{
    code, resolve_movement, Adjudicator, CompiledMap, MovementOutcome, Order, Unit,
};

/// The crate version.
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}
