//! Encoded orders: one [`Code`] (a `u64`) per order, the currency of the game engine.
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
//! bits 27-29  the location's high 3 bits (indices 128 and up)
//! bits 30-32  a's high 3 bits
//! bits 33-35  b's high 3 bits
//! bits 36-63  zero
//! ```
//!
//! An index is 10 bits, so a map may have up to 1,024 locations ([`MAX_INDEX`], the engine's
//! widest set, `mask::MAX_LOCATIONS`): its low 7 bits where they have always been and its high 3
//! bits above the flags. A map of at most 128 locations (the standard map) has codes below 2**27,
//! exactly as before maps could be larger, so Python holds them as one-digit ints and no
//! fixture changes; the sets and tables are sized to each map (see `mask`), the code is one
//! layout for all. Python reads this layout from `_core.CODE_LAYOUT` and never writes it out
//! again.
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

    /// The names of the kinds, by kind (`_core.ORDER_KINDS`): the `diplo.model.orders` classes.
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
/// The width of an index (`loc`, `a`, `b`): its low part and its high part.
pub const FIELD_WIDTH: u32 = 10;
/// An index, shifted down and put together.
pub const FIELD: Code = (1 << FIELD_WIDTH) - 1;
/// The width of the low part of an index.
pub const LOW_WIDTH: u32 = 7;
/// The low part of an index.
pub const LOW: Code = (1 << LOW_WIDTH) - 1;
/// The high part of an index, shifted down.
pub const HIGH: Code = FIELD >> LOW_WIDTH;
/// Where the ordered unit's location (a build's location, a waive's power) starts.
pub const LOC_SHIFT: u32 = 4;
/// Where a waive's power index starts: the location field.
pub const POWER_SHIFT: u32 = LOC_SHIFT;
/// Where field `a` starts.
pub const A_SHIFT: u32 = LOC_SHIFT + LOW_WIDTH;
/// Where field `b` starts.
pub const B_SHIFT: u32 = A_SHIFT + LOW_WIDTH;
/// The bit of a move's "via convoy".
pub const VIA_SHIFT: u32 = B_SHIFT + LOW_WIDTH;
/// The bit of a fleet build.
pub const FLEET_SHIFT: u32 = VIA_SHIFT + 1;
/// Where the location's high bits start.
pub const LOC_HIGH_SHIFT: u32 = FLEET_SHIFT + 1;
/// Where `a`'s high bits start.
pub const A_HIGH_SHIFT: u32 = LOC_HIGH_SHIFT + FIELD_WIDTH - LOW_WIDTH;
/// Where `b`'s high bits start.
pub const B_HIGH_SHIFT: u32 = A_HIGH_SHIFT + FIELD_WIDTH - LOW_WIDTH;
/// Bit 25: the move is ordered "via convoy".
pub const VIA: Code = 1 << VIA_SHIFT;
/// Bit 26: the build is a fleet.
pub const FLEET: Code = 1 << FLEET_SHIFT;
/// Every bit a well-formed code may use (bits 36-63 are zero).
pub const USED: Code = (1 << (B_HIGH_SHIFT + FIELD_WIDTH - LOW_WIDTH)) - 1;

/// The layout above by name (`_core.CODE_LAYOUT`), for the Python side's own encoder: an index
/// `i` of a field is `(i & low_mask) << shift | (i >> low_width) << high_shift`.
pub const LAYOUT: [(&str, Code); 15] = [
    ("kind_mask", KIND_MASK),
    ("field_width", FIELD_WIDTH as Code),
    ("field_mask", FIELD),
    ("low_width", LOW_WIDTH as Code),
    ("low_mask", LOW),
    ("loc_shift", LOC_SHIFT as Code),
    ("power_shift", POWER_SHIFT as Code),
    ("a_shift", A_SHIFT as Code),
    ("b_shift", B_SHIFT as Code),
    ("loc_high_shift", LOC_HIGH_SHIFT as Code),
    ("a_high_shift", A_HIGH_SHIFT as Code),
    ("b_high_shift", B_HIGH_SHIFT as Code),
    ("via_shift", VIA_SHIFT as Code),
    ("fleet_shift", FLEET_SHIFT as Code),
    ("used_mask", USED),
];

/// A code as a signed integer, the form Python makes its ints from fastest (every code is
/// below 2**36).
#[inline]
pub fn signed(code: Code) -> i64 {
    code as i64
}

/// The most locations (and powers) a map may have for its indices to fit the 10-bit fields.
pub const MAX_INDEX: usize = 1 << FIELD_WIDTH;

/// An index put in a field whose low part starts at `low` and high part at `high`.
#[inline]
fn put(i: usize, low: u32, high: u32) -> Code {
    let i = i as Code;
    (i & LOW) << low | (i >> LOW_WIDTH) << high
}

/// The index of the field whose low part starts at `low` and high part at `high`.
#[inline]
fn get(code: Code, low: u32, high: u32) -> usize {
    ((code >> low & LOW) | (code >> high & HIGH) << LOW_WIDTH) as usize
}

/// The kind of a code (bits 0-3).
#[inline]
pub fn kind_of(code: Code) -> u32 {
    (code & KIND_MASK) as u32
}

/// The ordered unit's location (build: the build location; waive: the power index).
#[inline]
pub fn loc_of(code: Code) -> usize {
    get(code, LOC_SHIFT, LOC_HIGH_SHIFT)
}

/// Field `a` (bits 11-17 and 30-32).
#[inline]
pub fn a_of(code: Code) -> usize {
    get(code, A_SHIFT, A_HIGH_SHIFT)
}

/// Field `b` (bits 18-24 and 33-35).
#[inline]
pub fn b_of(code: Code) -> usize {
    get(code, B_SHIFT, B_HIGH_SHIFT)
}

/// `code` with field `a` set to `a` (the text caches key a support by its unit's location).
#[inline]
pub fn with_a(code: Code, a: usize) -> Code {
    code & !(LOW << A_SHIFT | HIGH << A_HIGH_SHIFT) | put(a, A_SHIFT, A_HIGH_SHIFT)
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
    Code::from(kind)
        | put(loc, LOC_SHIFT, LOC_HIGH_SHIFT)
        | put(a, A_SHIFT, A_HIGH_SHIFT)
        | put(b, B_SHIFT, B_HIGH_SHIFT)
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
        assert_eq!(loc_of(waive(250)), 250);
        assert!(well_formed(m, 128, 75, 7));
        assert!(!well_formed(m, 127, 75, 7));
        assert!(!well_formed(support_hold(1, 80), 81, 75, 7));
        assert!(!well_formed(waive(7), 81, 75, 7));
        assert!(!well_formed(hold(1) | 1 << 36, 81, 75, 7));
        assert!(!well_formed(hold(1) | 1 << 27, 81, 75, 7)); // location 129
        assert!(!well_formed(hold(1) | VIA, 81, 75, 7));
        assert!(!well_formed(move_to(1, 2, false) | FLEET, 81, 75, 7));
        assert!(!well_formed(9, 81, 75, 7));
    }

    #[test]
    fn layout_is_the_documented_one() {
        assert_eq!((LOC_SHIFT, A_SHIFT, B_SHIFT, LOW), (4, 11, 18, 0x7F));
        assert_eq!((VIA, FLEET), (1 << 25, 1 << 26));
        assert_eq!((LOC_HIGH_SHIFT, A_HIGH_SHIFT, B_HIGH_SHIFT), (27, 30, 33));
        assert_eq!((FIELD, USED), (0x3FF, (1 << 36) - 1));
        // A small map's codes are below 2**27, as before wider maps.
        assert!(support_move(127, 127, 127) < 1 << 25);
        assert_eq!(
            support_move(128 + 5, 256 + 6, 512 + 7),
            3 | 5 << 4 | 6 << 11 | 7 << 18 | 1 << 27 | 2 << 30 | 4 << 33
        );
        assert_eq!(a_of(with_a(support_move(1, 2, 3), 700)), 700);
        assert_eq!(b_of(with_a(support_move(1, 2, 3), 700)), 3);
        assert_eq!(MAX_INDEX, super::super::mask::MAX_LOCATIONS);
        assert_eq!(kind::NAMES.len() as u32, kind::WAIVE + 1);
    }
}
