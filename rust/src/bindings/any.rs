//! The one place the bindings choose a width (`engine::mask`): a map is compiled at the
//! narrowest width it fits ([`AnyMap::intern`]) and a game is of its map's width ([`AnyGame`]).
//! Every other binding is written once, generic over the width, inside [`on_map!`] or
//! [`on_game!`], which expand their body once per width.

use crate::engine::error::EngineError;
use crate::engine::game_map::{GameMap, MapSpec};
use crate::engine::mask::{Mask, Wide, Width, MAX_LOCATIONS};
use crate::engine::phases::{Game, Verdict};
use crate::engine::state::State;

/// A map compiled for the engine, at its width.
#[derive(Clone, Copy, Debug)]
pub enum AnyMap {
    W128(&'static GameMap<u128>),
    W256(&'static GameMap<Wide<4>>),
    W1024(&'static GameMap<Wide<16>>),
}

/// A game on the engine, at its map's width. The narrow game is held inline (its state is a
/// plain value, as it was before maps could be wider: the standard map's games touch no more
/// memory than they did); the wide ones keep their tables on the heap.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum AnyGame {
    W128(Game<u128>),
    W256(Game<Wide<4>>),
    W1024(Game<Wide<16>>),
}

/// A phase's ruling ([`Verdict`]), at its map's width, on the heap: its Python object stays
/// small (a verdict holds two states), so making one neither zeroes nor copies the states.
#[derive(Clone, Debug)]
pub enum AnyVerdict {
    W128(Box<Verdict<u128>>),
    W256(Box<Verdict<Wide<4>>>),
    W1024(Box<Verdict<Wide<16>>>),
}

/// `match` on an [`AnyMap`], binding `$v` to the map of each width in turn.
macro_rules! on_map {
    ($m:expr, $v:ident => $body:expr) => {
        match $m {
            $crate::bindings::any::AnyMap::W128($v) => $body,
            $crate::bindings::any::AnyMap::W256($v) => $body,
            $crate::bindings::any::AnyMap::W1024($v) => $body,
        }
    };
}

/// `match` on an [`AnyGame`] (or a reference to one), binding `$v` to the game of each width.
macro_rules! on_game {
    ($g:expr, $v:ident => $body:expr) => {
        match $g {
            $crate::bindings::any::AnyGame::W128($v) => $body,
            $crate::bindings::any::AnyGame::W256($v) => $body,
            $crate::bindings::any::AnyGame::W1024($v) => $body,
        }
    };
}

/// `match` on an [`AnyVerdict`] (or a reference to one), binding `$v` to the verdict of each
/// width.
macro_rules! on_verdict {
    ($g:expr, $v:ident => $body:expr) => {
        match $g {
            $crate::bindings::any::AnyVerdict::W128($v) => $body,
            $crate::bindings::any::AnyVerdict::W256($v) => $body,
            $crate::bindings::any::AnyVerdict::W1024($v) => $body,
        }
    };
}

pub(crate) use {on_game, on_map, on_verdict};

/// The widths the bindings know: how to wrap a game of this width, and to find or wrap a
/// verdict of it.
pub trait Known: Mask {
    fn wrap(game: Game<Self>) -> AnyGame;
    fn verdict(any: &AnyVerdict) -> Option<&Verdict<Self>>;
    fn wrap_verdict(verdict: Box<Verdict<Self>>) -> AnyVerdict;
}

macro_rules! known {
    ($t:ty, $variant:ident) => {
        impl Known for $t {
            fn wrap(game: Game<Self>) -> AnyGame {
                AnyGame::$variant(game)
            }
            fn verdict(any: &AnyVerdict) -> Option<&Verdict<Self>> {
                match any {
                    AnyVerdict::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn wrap_verdict(verdict: Box<Verdict<Self>>) -> AnyVerdict {
                AnyVerdict::$variant(verdict)
            }
        }
    };
}

known!(u128, W128);
known!(Wide<4>, W256);
known!(Wide<16>, W1024);

/// The verdict in `other` if it is of `like`'s map.
pub fn verdict_of<'a, M: Known>(like: &Game<M>, other: &'a AnyVerdict) -> Option<&'a Verdict<M>> {
    M::verdict(other).filter(|v| std::ptr::eq(v.map, like.map))
}

impl AnyMap {
    /// The table for `spec` at the narrowest width it fits (see `GameMap::intern`).
    pub fn intern(spec: MapSpec) -> Result<AnyMap, EngineError> {
        let (l, p) = (spec.loc_province.len(), spec.powers.len());
        match Width::of(l, p) {
            Some(Width::W128) => GameMap::intern(spec).map(AnyMap::W128),
            Some(Width::W256) => GameMap::intern(spec).map(AnyMap::W256),
            Some(Width::W1024) => GameMap::intern(spec).map(AnyMap::W1024),
            None => Err(EngineError::limit(format!(
                "the map has {l} locations and {p} powers; the engine takes at most \
                 {MAX_LOCATIONS} locations"
            ))),
        }
    }

    pub fn provinces(&self) -> usize {
        on_map!(self, m => m.provinces)
    }

    pub fn locations(&self) -> usize {
        on_map!(self, m => m.locations)
    }

    pub fn powers(&self) -> usize {
        on_map!(self, m => m.powers)
    }
}

/// A new game on `map` from `state` (see `Game::new`).
pub fn new_game<M: Known>(
    map: &'static GameMap<M>,
    state: State<M>,
    max_year: Option<u32>,
) -> AnyGame {
    M::wrap(Game::new(map, state, max_year))
}

impl AnyGame {
    pub fn over(&self) -> bool {
        on_game!(self, g => g.over)
    }

    pub fn map(&self) -> AnyMap {
        match self {
            AnyGame::W128(g) => AnyMap::W128(g.map),
            AnyGame::W256(g) => AnyMap::W256(g.map),
            AnyGame::W1024(g) => AnyMap::W1024(g.map),
        }
    }
}
