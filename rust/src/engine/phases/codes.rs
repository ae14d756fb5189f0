//! Result codes, explain codes and [`Ruling`].

use super::*;

/// Result codes of submitted orders: the core's codes and ILLEGAL.
pub mod result {
    pub use crate::resolver::code::{BOUNCE, CUT, DISLODGED, NO_CONVOY, OK, VOID};
    /// An order refused by validation (the one code the engine adds to the resolver's).
    pub const ILLEGAL: u8 = 6;
    /// The name of [`ILLEGAL`], as `diplo.model.outcome` spells it.
    pub const ILLEGAL_NAME: &str = "illegal";
}

/// Why a retreat or adjustment result is what it is: the sentence `diplo.model.outcome`
/// words from a [`Ruling`]'s facts. Indexes of [`EXPLAIN_NAMES`]; both made by `rust/build.rs`
/// from the one table of reasons, `python/diplo/data/reasons.json` (its `rulings`), where each
/// code's facts are described.
pub mod explain {
    include!(concat!(env!("OUT_DIR"), "/ruling_codes.rs"));
    /// No explanation (a refused code).
    pub const NONE: u8 = u8::MAX;
}

include!(concat!(env!("OUT_DIR"), "/ruling_names.rs"));

/// What a retreat or adjustment result rests on: why ([`explain`]) and the facts its sentence
/// names (each why uses some of them; the others keep their defaults).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    pub why: u8,
    /// The power concerned (`NO_POWER` for none).
    pub power: u8,
    /// The unit concerned (`Piece::NONE` for none).
    pub unit: Piece,
    /// A location (-1 for none): a retreat's destination, a province, the nearest centre.
    pub place: i32,
    /// A location (-1 for none): the province of a clashing retreat.
    pub other_place: i32,
    /// Another unit (`Piece::NONE` for none): the first build in a province.
    pub other: Piece,
    pub count: i32,
    /// Civil disorder under the older rulebooks' rule (distance to a home centre).
    pub home: bool,
    /// A clashing retreat's rivals, in the order their orders were given.
    pub rivals: Vec<Piece>,
}

impl Ruling {
    /// `why` about `power`, every other fact at its default.
    pub fn new(why: u8, power: u8) -> Ruling {
        Ruling {
            why,
            power,
            unit: Piece::NONE,
            place: -1,
            other_place: -1,
            other: Piece::NONE,
            count: 0,
            home: false,
            rivals: Vec::new(),
        }
    }

    /// `why` about the unit `unit` (and its power).
    pub fn of_unit(why: u8, unit: Piece) -> Ruling {
        Ruling {
            unit,
            ..Ruling::new(why, unit.power)
        }
    }
}
