//! Encoded orders: one [`Code`] (a `u64`) per order, the currency of the game engine.
//!
//! ```text
//! bits  0-3   kind: 0 hold, 1 move, 2 support hold, 3 support move, 4 convoy,
//!                   5 retreat, 6 disband, 7 build, 8 waive
//! bits  4-13  the ordered unit's LOCATION (index of `Map.locations`; a fleet on a split coast is
//!             on its coast). Build: the build location (`STP/NC` for a fleet there). Waive: the
//!             POWER index (position in `Map.powers`).
//! bits 14-23  a: move / retreat destination location; support hold: the supported unit's
//!             province; support move: the moving unit's province; convoy: the army's province
//! bits 24-33  b: support move: the destination AS WRITTEN, a coast or a province (a coast in
//!             the support of a fleet must match the move, DATC 6.B.9); convoy: the destination
//!             province
//! bit  34     move: "via convoy"
//! bit  35     build: a fleet (else an army)
//! bits 36-63  zero
//! ```
//!
//! A field is 10 bits, so a map may have up to 1,024 locations ([`MAX_INDEX`], the engine's
//! widest set, `mask::MAX_LOCATIONS`); the sets and tables themselves are sized to each map
//! (see `mask`), the code is one layout for all. Python reads this layout from
//! `_core.CODE_LAYOUT` and never writes it out again.
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

/// One encoded order. Code names this type, never an integer type, so that the width of a code
/// can change in one place.
pub type Code = u64;

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
pub const KIND_MASK: Code = 0xF;
/// The width of each index field (`loc`, `a`, `b`).
pub const FIELD_WIDTH: u32 = 10;
/// An index field, shifted down.
pub const FIELD: Code = (1 << FIELD_WIDTH) - 1;
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
/// Bit 34: the move is ordered "via convoy".
pub const VIA: Code = 1 << VIA_SHIFT;
/// Bit 35: the build is a fleet.
pub const FLEET: Code = 1 << FLEET_SHIFT;
/// Every bit a well-formed code may use (bits 36-63 are zero).
pub const USED: Code = (1 << (FLEET_SHIFT + 1)) - 1;

/// The layout above by name (`_core.CODE_LAYOUT`), for the Python side's own encoder.
pub const LAYOUT: [(&str, Code); 10] = [
    ("kind_mask", KIND_MASK),
    ("field_width", FIELD_WIDTH as Code),
    ("field_mask", FIELD),
    ("loc_shift", LOC_SHIFT as Code),
    ("power_shift", POWER_SHIFT as Code),
    ("a_shift", A_SHIFT as Code),
    ("b_shift", B_SHIFT as Code),
    ("via_shift", VIA_SHIFT as Code),
    ("fleet_shift", FLEET_SHIFT as Code),
    ("used_mask", USED),
];

/// The most locations (and powers) a map may have for its indices to fit the 10-bit fields.
pub const MAX_INDEX: usize = 1 << FIELD_WIDTH;

/// The kind of a code (bits 0-3).
#[inline]
pub fn kind_of(code: Code) -> u32 {
    (code & KIND_MASK) as u32
}

/// The ordered unit's location (build: the build location; waive: the power index).
#[inline]
pub fn loc_of(code: Code) -> usize {
    ((code >> LOC_SHIFT) & FIELD) as usize
}

/// Field `a` (bits 14-23).
#[inline]
pub fn a_of(code: Code) -> usize {
    ((code >> A_SHIFT) & FIELD) as usize
}

/// Field `b` (bits 18-24).
#[inline]
pub fn b_of(code: Code) -> usize {
    ((code >> B_SHIFT) & FIELD) as usize
}

#[inline]
pub fn via_of(code: Code) -> bool {
    code & VIA != 0
}

#[inline]
pub fn fleet_of(code: Code) -> bool {
    code & FLEET != 0
}

#[inline]
fn pack(kind: u32, loc: usize, a: usize, b: usize) -> Code {
    debug_assert!(loc < MAX_INDEX && a < MAX_INDEX && b < MAX_INDEX);
    Code::from(kind) | (loc as Code) << LOC_SHIFT | (a as Code) << A_SHIFT | (b as Code) << B_SHIFT
}

#[inline]
pub fn hold(loc: usize) -> Code {
    pack(kind::HOLD, loc, 0, 0)
}

#[inline]
pub fn move_to(loc: usize, dest: usize, via: bool) -> Code {
    pack(kind::MOVE, loc, dest, 0) | if via { VIA } else { 0 }
}

#[inline]
pub fn support_hold(loc: usize, target: usize) -> Code {
    pack(kind::SUPPORT_HOLD, loc, target, 0)
}

#[inline]
pub fn support_move(loc: usize, mover: usize, dest: usize) -> Code {
    pack(kind::SUPPORT_MOVE, loc, mover, dest)
}

#[inline]
pub fn convoy(loc: usize, army: usize, dest: usize) -> Code {
    pack(kind::CONVOY, loc, army, dest)
}

#[inline]
pub fn retreat(loc: usize, dest: usize) -> Code {
    pack(kind::RETREAT, loc, dest, 0)
}

#[inline]
pub fn disband(loc: usize) -> Code {
    pack(kind::DISBAND, loc, 0, 0)
}

#[inline]
pub fn build(loc: usize, fleet: bool) -> Code {
    pack(kind::BUILD, loc, 0, 0) | if fleet { FLEET } else { 0 }
}

#[inline]
pub fn waive(power: usize) -> Code {
    pack(kind::WAIVE, power, 0, 0)
}

/// Whether `code` names an order at all on a map with `locations` locations, `provinces`
/// provinces and `powers` powers (see the module documentation); a malformed code is illegal.
pub fn well_formed(code: Code, locations: usize, provinces: usize, powers: usize) -> bool {
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
        let far = support_move(1023, 1000, 999);
        assert_eq!((loc_of(far), a_of(far), b_of(far)), (1023, 1000, 999));
        assert!(well_formed(far, 1024, 1001, 7));
        assert!(!well_formed(far, 1023, 1001, 7));
        let f = build(77, true);
        assert!(fleet_of(f) && kind_of(f) == kind::BUILD && loc_of(f) == 77);
        assert_eq!(waive(6), 8 | 6 << 4);
        assert!(well_formed(m, 128, 75, 7));
        assert!(!well_formed(m, 127, 75, 7));
        assert!(!well_formed(support_hold(1, 80), 81, 75, 7));
        assert!(!well_formed(waive(7), 81, 75, 7));
        assert!(!well_formed(hold(1) | 1 << 36, 81, 75, 7));
        assert!(!well_formed(hold(1) | VIA, 81, 75, 7));
        assert!(!well_formed(move_to(1, 2, false) | FLEET, 81, 75, 7));
        assert!(!well_formed(9, 81, 75, 7));
    }

    #[test]
    fn layout_is_the_documented_one() {
        assert_eq!((LOC_SHIFT, A_SHIFT, B_SHIFT, FIELD), (4, 14, 24, 0x3FF));
        assert_eq!((VIA, FLEET, USED), (1 << 34, 1 << 35, (1 << 36) - 1));
        assert_eq!(MAX_INDEX, super::super::mask::MAX_LOCATIONS);
        assert_eq!(kind::NAMES.len() as u32, kind::WAIVE + 1);
    }
}
