//! The per-unit outcome of a movement phase (docs/design.md "Outcomes") and the result codes: the
//! values alone, below the resolver, which assembles them from its final decisions
//! (`Adjudicator::resolve_into`). The sentences are made in Python (`diplo.model.outcome`) from
//! these facts.

/// Result codes, shared with `diplo.model.outcome`. When several apply the first of VOID, DISLODGED,
/// NO_CONVOY, CUT, BOUNCE, OK wins.
pub mod code {
    pub const OK: u8 = 0;
    pub const BOUNCE: u8 = 1;
    pub const CUT: u8 = 2;
    pub const DISLODGED: u8 = 3;
    pub const NO_CONVOY: u8 = 4;
    pub const VOID: u8 = 5;

    /// The names of the codes, by code, as `diplo.model.outcome` spells them (`_core.RESULT_NAMES`).
    pub const NAMES: [&str; 6] = ["ok", "bounce", "cut", "dislodged", "no_convoy", "void"];
}

/// Outcome of a movement phase; every per-unit vector is indexed like the input units.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MovementOutcome {
    /// One of [`code`].
    pub codes: Vec<u8>,
    /// DATC sense: move moved; hold not dislodged; support matched and not cut (a dislodged
    /// supporter is cut); convoy not void, the army's route works and the fleet not dislodged.
    pub success: Vec<bool>,
    /// Origin province of the unit that dislodged this one, or -1.
    pub dislodged_by: Vec<i32>,
    /// The province behind the result: for a dislodged unit (whatever its code, so also a void
    /// order of a dislodged unit) the dislodger's origin; for a bounce the unit whose strength
    /// stopped the move (the greatest opposing strength; on a tie the destination's hold/defend
    /// before any prevent, then the lowest province among preventers); for a cut the lowest
    /// province among the cutting attackers; otherwise -1.
    pub by: Vec<i32>,
    /// Moves only: final attack strength (0 for other orders).
    pub attack: Vec<u8>,
    /// Moves only: the greatest opposing strength (0 for other orders).
    pub opposition: Vec<u8>,
    /// Whether each move was treated as convoyed (DATC 4.A.3); false for other orders.
    pub convoyed: Vec<bool>,
    /// Contested provinces (standoffs), sorted.
    pub contested: Vec<u16>,
    /// Per unit: retreat options (locations, sorted); empty unless dislodged.
    pub retreats: Vec<Vec<u16>>,
    /// Provinces of the convoying fleets whose convoy the Szykman rule failed (they were part of
    /// a paradox cycle, DATC 4.A.2), sorted.
    pub szykman: Vec<u16>,
}
