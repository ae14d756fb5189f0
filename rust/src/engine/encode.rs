//! Encoded orders: one `u32` per order, the currency of the game engine.
//!
//! ```text
//! bits  0-3   kind: 0 hold, 1 move, 2 support hold, 3 support move, 4 convoy,
//!                   5 retreat, 6 disband, 7 build, 8 waive
//! bits  4-10  the ordered unit's LOCATION (index of `Map.locations`; a fleet on a split coast is
//!             on its coast). Build: the build location (`STP/NC` for a fleet there). Waive: the
//!             POWER index (position in `Map.powers`).
//! bits 11-17  a: move / retreat destination location; support hold: the supported unit's
//!             province; support move: the moving unit's province; convoy: the army's province
//! bits 18-24  b: support move: the destination AS WRITTEN, a coast or a province (a coast in
//!             the support of a fleet must match the move, DATC 6.B.9); convoy: the destination
//!             province
//! bit  25     move: "via convoy"
//! bit  26     build: a fleet (else an army)
//! bits 27-31  zero
//! ```
//!
//! Fields an order kind does not use are zero. A code breaking these rules (unknown kind, a field
//! out of range for the map, a province field holding a coast, stray bits) is *malformed*: it
//! names no order at all and is ruled illegal.
//!
//! The unit type is not part of a code: validation ignores a wrong one (DATC 4.C.2), so the order
//! is about whatever unit stands there. The meaning of a code is the normalised order validation
//! gives it in the position it is played in; the codes the engine lists as legal are exactly
//! these normal forms (the ordered unit's real location, a fleet's exact destination coast, an
//! army's destination as a province, ...), so legality is membership in that list once a
//! submitted code has been put in normal form (see `legality::Legal::canonical`).

/// One encoded order. New code names this type, never `u32`, so that the width of a code can
/// change in one place (more locations need wider fields).
pub type Code = u32;

/// Order kinds (bits 0-3).
pub mod kind {
    pub const HOLD: u32 = 0;
    pub const MOVE: u32 = 1;
    pub const SUPPORT_HOLD: u32 = 2;
    pub const SUPPORT_MOVE: u32 = 3;
    pub const CONVOY: u32 = 4;
    pub const RETREAT: u32 = 5;
    pub const DISBAND: u32 = 6;
    pub const BUILD: u32 = 7;
    pub const WAIVE: u32 = 8;

    /// The names of the kinds, by kind (`_core.ORDER_KINDS`): the `diplo.orders` classes.
    pub const NAMES: [&str; 9] = [
        "Hold",
        "Move",
        "SupportHold",
        "SupportMove",
        "Convoy",
        "Retreat",
        "Disband",
        "Build",
        "Waive",
    ];
}

/// Bits 0-3: the kind.
pub const KIND_MASK: u32 = 0xF;
/// The width of each index field (`loc`, `a`, `b`).
pub const FIELD_WIDTH: u32 = 7;
/// An index field, shifted down.
pub const FIELD: u32 = (1 << FIELD_WIDTH) - 1;
/// Where the ordered unit's location (a build's location, a waive's power) starts.
pub const LOC_SHIFT: u32 = 4;
/// Where a waive's power index starts: the location field.
pub const POWER_SHIFT: u32 = LOC_SHIFT;
/// Where field `a` starts.
pub const A_SHIFT: u32 = LOC_SHIFT + FIELD_WIDTH;
/// Where field `b` starts.
pub const B_SHIFT: u32 = A_SHIFT + FIELD_WIDTH;
/// The bit of a move's "via convoy".
pub const VIA_SHIFT: u32 = B_SHIFT + FIELD_WIDTH;
/// The bit of a fleet build.
pub const FLEET_SHIFT: u32 = VIA_SHIFT + 1;
/// Bit 25: the move is ordered "via convoy".
pub const VIA: u32 = 1 << VIA_SHIFT;
/// Bit 26: the build is a fleet.
pub const FLEET: u32 = 1 << FLEET_SHIFT;
/// Every bit a well-formed code may use (bits 27-31 are zero).
pub const USED: u32 = (1 << (FLEET_SHIFT + 1)) - 1;

/// The layout above by name (`_core.CODE_LAYOUT`), for the Python side's own encoder.
pub const LAYOUT: [(&str, u32); 10] = [
    ("kind_mask", KIND_MASK),
    ("field_width", FIELD_WIDTH),
    ("field_mask", FIELD),
    ("loc_shift", LOC_SHIFT),
    ("power_shift", POWER_SHIFT),
    ("a_shift", A_SHIFT),
    ("b_shift", B_SHIFT),
    ("via_shift", VIA_SHIFT),
    ("fleet_shift", FLEET_SHIFT),
    ("used_mask", USED),
];

/// The most locations (and powers) a map may have for its indices to fit the 7-bit fields.
pub const MAX_INDEX: usize = 128;

/// The kind of a code (bits 0-3).
#[inline]
pub fn kind_of(code: u32) -> u32 {
    code & KIND_MASK
}

/// The ordered unit's location (build: the build location; waive: the power index).
#[inline]
pub fn loc_of(code: u32) -> usize {
    ((code >> LOC_SHIFT) & FIELD) as usize
}

/// Field `a` (bits 11-17).
#[inline]
pub fn a_of(code: u32) -> usize {
    ((code >> A_SHIFT) & FIELD) as usize
}

/// Field `b` (bits 18-24).
#[inline]
pub fn b_of(code: u32) -> usize {
    ((code >> B_SHIFT) & FIELD) as usize
}

#[inline]
pub fn via_of(code: u32) -> bool {
    code & VIA != 0
}

#[inline]
pub fn fleet_of(code: u32) -> bool {
    code & FLEET != 0
}

#[inline]
fn pack(kind: u32, loc: usize, a: usize, b: usize) -> u32 {
    debug_assert!(loc < MAX_INDEX && a < MAX_INDEX && b < MAX_INDEX);
    kind | (loc as u32) << LOC_SHIFT | (a as u32) << A_SHIFT | (b as u32) << B_SHIFT
}

#[inline]
pub fn hold(loc: usize) -> u32 {
    pack(kind::HOLD, loc, 0, 0)
}

#[inline]
pub fn move_to(loc: usize, dest: usize, via: bool) -> u32 {
    pack(kind::MOVE, loc, dest, 0) | if via { VIA } else { 0 }
}

#[inline]
pub fn support_hold(loc: usize, target: usize) -> u32 {
    pack(kind::SUPPORT_HOLD, loc, target, 0)
}

#[inline]
pub fn support_move(loc: usize, mover: usize, dest: usize) -> u32 {
    pack(kind::SUPPORT_MOVE, loc, mover, dest)
}

#[inline]
pub fn convoy(loc: usize, army: usize, dest: usize) -> u32 {
    pack(kind::CONVOY, loc, army, dest)
}

#[inline]
pub fn retreat(loc: usize, dest: usize) -> u32 {
    pack(kind::RETREAT, loc, dest, 0)
}

#[inline]
pub fn disband(loc: usize) -> u32 {
    pack(kind::DISBAND, loc, 0, 0)
}

#[inline]
pub fn build(loc: usize, fleet: bool) -> u32 {
    pack(kind::BUILD, loc, 0, 0) | if fleet { FLEET } else { 0 }
}

#[inline]
pub fn waive(power: usize) -> u32 {
    pack(kind::WAIVE, power, 0, 0)
}

/// Whether `code` names an order at all on a map with `locations` locations, `provinces`
/// provinces and `powers` powers (see the module documentation); a malformed code is illegal.
pub fn well_formed(code: u32, locations: usize, provinces: usize, powers: usize) -> bool {
    if code & !USED != 0 {
        return false;
    }
    let (k, loc, a, b) = (kind_of(code), loc_of(code), a_of(code), b_of(code));
    let via = via_of(code);
    let fleet = fleet_of(code);
    if k > kind::WAIVE {
        return false;
    }
    if k == kind::WAIVE {
        return loc < powers && a == 0 && b == 0 && !via && !fleet;
    }
    if loc >= locations || (fleet && k != kind::BUILD) || (via && k != kind::MOVE) {
        return false;
    }
    match k {
        kind::HOLD | kind::DISBAND | kind::BUILD => a == 0 && b == 0,
        kind::MOVE | kind::RETREAT => a < locations && b == 0,
        kind::SUPPORT_HOLD => a < provinces && b == 0,
        kind::SUPPORT_MOVE => a < provinces && b < locations,
        _ => a < provinces && b < provinces, // CONVOY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip() {
        let c = support_move(80, 5, 76);
        assert_eq!(kind_of(c), kind::SUPPORT_MOVE);
        assert_eq!((loc_of(c), a_of(c), b_of(c)), (80, 5, 76));
        let m = move_to(3, 127, true);
        assert!(via_of(m) && !fleet_of(m));
        assert_eq!((loc_of(m), a_of(m)), (3, 127));
        let f = build(77, true);
        assert!(fleet_of(f) && kind_of(f) == kind::BUILD && loc_of(f) == 77);
        assert_eq!(waive(6), 8 | 6 << 4);
        assert!(well_formed(m, 128, 75, 7));
        assert!(!well_formed(m, 127, 75, 7));
        assert!(!well_formed(support_hold(1, 80), 81, 75, 7));
        assert!(!well_formed(waive(7), 81, 75, 7));
        assert!(!well_formed(hold(1) | 1 << 27, 81, 75, 7));
        assert!(!well_formed(hold(1) | VIA, 81, 75, 7));
        assert!(!well_formed(move_to(1, 2, false) | FLEET, 81, 75, 7));
        assert!(!well_formed(9, 81, 75, 7));
    }

    #[test]
    fn layout_is_the_documented_one() {
        assert_eq!((LOC_SHIFT, A_SHIFT, B_SHIFT, FIELD), (4, 11, 18, 0x7F));
        assert_eq!((VIA, FLEET, USED), (1 << 25, 1 << 26, (1 << 27) - 1));
        assert_eq!(kind::NAMES.len() as u32, kind::WAIVE + 1);
    }
}
