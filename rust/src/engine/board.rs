//! The board's smallest values, below the map ([`super::game_map`]), the board hash
//! ([`super::zobrist`]) and the state ([`super::state`]), which all speak of them: a unit
//! ([`Piece`]), "no power", the seasons and phase kinds, and the years a state may be built in.

/// "No power" in a per-province table.
pub const NO_POWER: u8 = u8::MAX;

/// Seasons and phase kinds.
pub const SPRING: u8 = 0;
pub const FALL: u8 = 1;
pub const WINTER: u8 = 2;
pub const MOVEMENT: u8 = 0;
pub const RETREATS: u8 = 1;
pub const ADJUSTMENTS: u8 = 2;

/// The years a state may be built in (`diplo.model.limits.MIN_YEAR..=MAX_YEAR`).
pub const MIN_YEAR: u32 = 0;
pub const MAX_YEAR: u32 = 9_999;

/// A unit: owner, type and exact location. `power == NO_POWER` is "no unit".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub power: u8,
    pub fleet: bool,
    pub loc: u16,
}

impl Piece {
    pub const NONE: Piece = Piece {
        power: NO_POWER,
        fleet: false,
        loc: 0,
    };

    #[inline]
    pub fn is_some(&self) -> bool {
        self.power != NO_POWER
    }
}
