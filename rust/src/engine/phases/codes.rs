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
/// words from a [`Ruling`]'s facts. Indexes of [`EXPLAIN_NAMES`], the one table of these
/// numbers (exported to Python as `diplo._core.EXPLAIN_NAMES`).
pub mod explain {
    /// A retreat carried out (`place`: the destination).
    pub const RETREATED: u8 = 0;
    /// A disband ordered and carried out (retreat or adjustment phase).
    pub const DISBANDED: u8 = 1;
    /// DATC 6.H.7: a retreat to a province another unit retreats to (`place`: the destination,
    /// `other`: its province, `rivals`: the other units).
    pub const RETREAT_CLASH: u8 = 2;
    /// A dislodged unit without a legal retreat order, disbanded.
    pub const NO_RETREAT: u8 = 3;
    /// A build or waive of a power that owes disbands (`count`: how many).
    pub const BUILD_WHILE_OWING: u8 = 4;
    /// A build or waive with a centre surplus but no vacant owned home centre.
    pub const BUILD_NO_HOME_SITE: u8 = 5;
    /// The same under `build_sites="any"`: no vacant owned centre.
    pub const BUILD_NO_SITE: u8 = 6;
    /// A build or waive of a power with no more centres than units.
    pub const BUILD_NO_SURPLUS: u8 = 7;
    /// DATC 4.D.5: a second build in a province (`place`: the province, `other`: the first).
    pub const BUILD_SAME_PROVINCE: u8 = 8;
    /// DATC 4.D.4: a build or waive beyond the allowance (`count`: the builds allowed).
    pub const BUILD_EXCESS: u8 = 9;
    /// DATC 4.D.7: a waive carried out.
    pub const WAIVED: u8 = 10;
    /// A build carried out (`unit`: the new unit).
    pub const BUILT: u8 = 11;
    /// A disband of a power that may build (`count`: the builds allowed).
    pub const DISBAND_WHILE_BUILDING: u8 = 12;
    /// A disband of a power that owes none and may not build.
    pub const DISBAND_NOT_OWED: u8 = 13;
    /// DATC 6.J.2: a unit disbanded by an earlier order.
    pub const DISBAND_REPEAT: u8 = 14;
    /// DATC 4.D.6: a disband beyond those owed (`count`: the disbands owed).
    pub const DISBAND_EXCESS: u8 = 15;
    /// An allowed build left unused, waived (`count`: the builds allowed).
    pub const UNUSED_BUILD: u8 = 16;
    /// Civil disorder of a power that owns no centre (the 2023 rule).
    pub const DISORDER_NO_CENTRE: u8 = 17;
    /// Civil disorder of a power with no home centre (the older rule).
    pub const DISORDER_NO_HOME: u8 = 18;
    /// Civil disorder of a unit with no route to any centre the rule counts (`home`: the older
    /// rule).
    pub const DISORDER_NO_ROUTE: u8 = 19;
    /// Civil disorder of a unit on such a centre (`place`: the centre, `home`: the older rule).
    pub const DISORDER_ON_CENTRE: u8 = 20;
    /// Civil disorder of a unit `count` moves from the nearest such centre (`place`).
    pub const DISORDER_DISTANCE: u8 = 21;
    /// The same under `build_sites="any_home"`: no vacant owned centre that is some power's
    /// home.
    pub const BUILD_NO_ANY_HOME_SITE: u8 = 22;
    /// A rebuilding neutral power raises `unit` again in a vacant centre it owns.
    pub const NEUTRAL_REBUILT: u8 = 23;
    /// In the map's first phase (`MapSpec::start_armies`) an unordered build is `unit`.
    pub const START_ARMY: u8 = 24;
    /// No explanation (a refused code).
    pub const NONE: u8 = u8::MAX;
}

/// The names of the [`explain`] codes, indexed by code: the keys of the sentences in
/// `diplo.model.outcome`.
pub const EXPLAIN_NAMES: [&str; 25] = [
    "retreated",
    "disbanded",
    "retreat_clash",
    "no_retreat",
    "build_while_owing",
    "build_no_home_site",
    "build_no_site",
    "build_no_surplus",
    "build_same_province",
    "build_excess",
    "waived",
    "built",
    "disband_while_building",
    "disband_not_owed",
    "disband_repeat",
    "disband_excess",
    "unused_build",
    "disorder_no_centre",
    "disorder_no_home",
    "disorder_no_route",
    "disorder_on_centre",
    "disorder_distance",
    "build_no_any_home_site",
    "neutral_rebuilt",
    "start_army",
];

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
