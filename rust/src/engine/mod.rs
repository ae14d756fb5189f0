//! The game engine: whole games on encoded orders, behind every front end (the object API
//! through `diplo.engine.objects`, bots through `diplo.engine.codes`, which adjudicate millions
//! of phases).
//!
//! The Python reference (`diplo.reference.phase`, `diplo.reference.validation`) gives the same
//! meaning on strings and objects; `tests/test_codes.py` and `tests/test_engine.py` hold the two together.
//!
//! * [`encode`] — the order layout ([`encode::Code`], a `u64`).
//! * [`error`] — [`EngineError`]: the engine's errors, by kind ([`ErrorKind`]).
//! * [`mask`] — [`Mask`], the sets and tables sized to the map (`u128` up to 128 locations,
//!   wider up to 1,024): the engine is generic over it.
//! * [`board`] — the board's smallest values ([`board::Piece`], the seasons and phase kinds, the
//!   year range, "no power"), below the map, the hash and the state.
//! * [`zobrist`] — the keys of the board hash a state keeps as it changes.
//! * [`game_map`] — [`GameMap`], the per-map table (interned, shared by every game and thread).
//! * [`rules`] — [`Rules`]: the rulebook options, and every decision they change.
//! * [`state`] — [`State`], the board of one phase, a fixed-size value, and the decisions of the
//!   rules and the map that read it.
//! * [`legality`] — complete legal-order lists per slot, legality as membership, and why a code
//!   is refused (`diplo.reference.validation`'s reason codes), each rule decided once.
//! * [`phases`] — [`Game`]: validation, the three phase kinds, the next position.
//! * [`game_file`] — a movement phase's results as the game file's JSON text.
//! * [`rollout`] — random games as `diplo rollouts` plays them (Python's random numbers).
//! * [`batch`] — many games in parallel with scoped threads.
//! * [`search`] — a game's compact state (pickling) and many candidate order sets from one
//!   position.
//! * [`observe`] — observations of a board for learning bots, as flat integer arrays.
//! * [`dipcc_encode`] — dipcc's encoders (Cicero's engine) for `diplo.compat.dipcc`.
//! * [`vector`] — [`vector::VectorEnv`]: N games stepped together, observed in place.
//! * [`deepmind`] — [`deepmind::DeepMindEnv`]: N games in DeepMind's `DiplomacyState` protocol
//!   (their observation and actions), observed in place.

pub mod batch;
pub mod batched;
pub mod board;
pub mod deepmind;
pub mod dipcc_encode;
pub mod encode;
pub mod error;
pub mod game_file;
pub mod game_map;
pub mod legality;
pub mod mask;
pub mod mila_lists;
pub mod observe;
pub mod phases;
pub mod rollout;
pub mod rules;
pub mod search;
pub mod state;
pub mod text;
pub mod vector;
pub mod zobrist;

pub use error::{EngineError, EngineResult, ErrorKind};
pub use game_map::{GameMap, MapSpec};
pub use mask::{Mask, Wide, Width};
pub use phases::{Game, Outcome};
pub use rules::Rules;
pub use state::State;
