//! Observations of a board for learning bots: fixed-size integer arrays, written in place (the
//! vectorised environment, [`super::vector`], fills NumPy buffers with them; `docs/env.md`
//! documents the layout for users).
//!
//! `board`: `int8[L, C]`, one row per location (`L` = the map's locations, provinces first and
//! then the split coasts, as `Map.locations`), `P` = the map's powers, columns:
//!
//! ```text
//! 0, 1                a unit is here: army, fleet (a fleet on a split coast is on the coast's row)
//! 2 .. 2+P-1          that unit's owner, one-hot
//! 2+P, 3+P            a dislodged unit is here (retreat phases): army, fleet
//! 4+P .. 4+2P-1       the dislodged unit's owner, one-hot
//! 4+2P                this row is a supply centre (on the province's own row)
//! 5+2P .. 5+3P-1      the centre's owner, one-hot (all zero: neutral)
//! 5+3P .. 5+4P-1      the centre is a home centre of that power, one-hot
//! 5+4P .. 5+4P+7      the previous phase's order of the unit (or build) that stood here:
//!                     hold, move, support hold, support move, convoy, retreat, disband, build
//! 13+4P               that order succeeded
//! 14+4P               this location was the destination of a previous move or retreat
//! ```
//!
//! so `C = 15 + 4P`. The first `5 + 3P` columns are the encoding `diplo.env` has always had. A
//! previous order is the order each unit had in the phase just played: the chosen code, or what
//! the engine implied (a hold, a disband, a civil-disorder disband); waives name no location and
//! are not shown.
//!
//! `phase`: `int16[7]`: the year minus the first year (the map's first year, or the start
//! position's when that is earlier: never negative), then the season one-hot (spring, fall,
//! winter), then the kind one-hot (movement, retreat, adjustment).

use super::encode::{self, kind, Code};
use super::game_map::{GameMap, NO_POWER};
use super::mask::{has, Mask};
use super::state::State;

/// Entries of a phase observation.
pub const PHASE_SIZE: usize = 7;
/// The order kinds a previous order is shown as (hold .. build; a waive names no location).
pub const PREV_KINDS: usize = 8;

/// Where each group of board columns starts, for one map (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub locations: usize,
    pub powers: usize,
    pub channels: usize,
    pub owner: usize,
    pub dislodged: usize,
    pub dislodged_owner: usize,
    pub centre: usize,
    pub centre_owner: usize,
    pub home: usize,
    pub prev_kind: usize,
    pub prev_success: usize,
    pub prev_target: usize,
}

impl Layout {
    pub fn new<M: Mask>(map: &GameMap<M>) -> Layout {
        let p = map.powers;
        let home = 5 + 3 * p;
        let prev_kind = home + p;
        Layout {
            locations: map.locations,
            powers: p,
            channels: prev_kind + PREV_KINDS + 2,
            owner: 2,
            dislodged: 2 + p,
            dislodged_owner: 4 + p,
            centre: 4 + 2 * p,
            centre_owner: 5 + 2 * p,
            home,
            prev_kind,
            prev_success: prev_kind + PREV_KINDS,
            prev_target: prev_kind + PREV_KINDS + 1,
        }
    }

    /// Entries of one board (`L * C`).
    pub fn board_size(&self) -> usize {
        self.locations * self.channels
    }

    /// The constant part of every board of `map`: centres and home centres.
    pub fn base<M: Mask>(&self, map: &GameMap<M>) -> Vec<i8> {
        let c = self.channels;
        let mut out = vec![0i8; self.board_size()];
        for q in 0..map.provinces {
            if has(map.centers, q) {
                out[q * c + self.centre] = 1;
            }
            let h = map.home_of[q];
            if h != NO_POWER {
                out[q * c + self.home + h as usize] = 1;
            }
        }
        out
    }

    /// Writes the board of `st` into `out` (`board_size` entries), starting from `base` (from
    /// [`Layout::base`]); `prev` holds the previous phase's orders with their success.
    pub fn board<M: Mask>(
        &self,
        map: &GameMap<M>,
        base: &[i8],
        st: &State<M>,
        prev: &[(Code, bool)],
        out: &mut [i8],
    ) {
        out.copy_from_slice(base);
        let c = self.channels;
        for q in 0..map.provinces {
            let u = st.units[q];
            if u.is_some() {
                let row = u.loc as usize * c;
                out[row + usize::from(u.fleet)] = 1;
                out[row + self.owner + u.power as usize] = 1;
            }
            let d = st.dislodged[q];
            if d.is_some() {
                let row = d.loc as usize * c;
                out[row + self.dislodged + usize::from(d.fleet)] = 1;
                out[row + self.dislodged_owner + d.power as usize] = 1;
            }
            let o = st.centers[q];
            if o != NO_POWER {
                out[q * c + self.centre_owner + o as usize] = 1;
            }
        }
        for &(code, ok) in prev {
            let k = encode::kind_of(code) as usize;
            if k >= PREV_KINDS {
                continue; // a waive
            }
            let loc = encode::loc_of(code);
            if loc >= self.locations {
                continue;
            }
            let row = loc * c;
            out[row + self.prev_kind + k] = 1;
            if ok {
                out[row + self.prev_success] = 1;
            }
            let k = k as u32;
            if k == kind::MOVE || k == kind::RETREAT {
                let dest = encode::a_of(code);
                if dest < self.locations {
                    out[dest * c + self.prev_target] = 1;
                }
            }
        }
    }
}

/// Writes the phase of `st` into `out` (`PHASE_SIZE` entries); `first_year` is at most the
/// state's year (see the module documentation).
pub fn phase<M: Mask>(st: &State<M>, first_year: u32, out: &mut [i16]) {
    out.fill(0);
    let years = st.year.saturating_sub(first_year).min(i16::MAX as u32);
    out[0] = years as i16;
    out[1 + st.season as usize] = 1;
    out[4 + st.kind as usize] = 1;
}
