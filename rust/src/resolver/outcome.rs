//! The per-unit outcome of a movement phase (docs/design.md "Outcomes"), assembled from the
//! resolved decisions. The sentences are made in Python (`diplo.model.outcome`) from these facts.

use super::adjudicator::Adjudicator;
use super::orders::{CONVOY, MOVE, NONE, SUPPORT_HOLD, SUPPORT_MOVE};
use super::retreat;

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

fn reset<T: Copy>(v: &mut Vec<T>, len: usize, value: T) {
    v.clear();
    v.resize(len, value);
}

#[inline]
fn sat(v: u32) -> u8 {
    v.min(u8::MAX as u32) as u8
}

/// Fills `out` from the resolved adjudicator, reusing `out`'s buffers.
// The per-unit data lives in parallel arrays, indexed together.
#[allow(clippy::needless_range_loop)]
pub(crate) fn fill(adj: &mut Adjudicator<'_>, out: &mut MovementOutcome) {
    let n = adj.board.n;
    let p = adj.map.num_provinces();
    reset(&mut out.codes, n, code::OK);
    reset(&mut out.success, n, false);
    reset(&mut out.dislodged_by, n, -1);
    reset(&mut out.by, n, -1);
    reset(&mut out.attack, n, 0);
    reset(&mut out.opposition, n, 0);
    out.convoyed.clear();
    out.convoyed.extend_from_slice(&adj.board.convoyed);
    // Retreat lists beyond this board are parked rather than dropped, so that their buffers
    // serve again when a larger board comes back.
    while out.retreats.len() > n {
        let spare = out.retreats.pop().unwrap_or_default();
        adj.spare_retreats.push(spare);
    }
    while out.retreats.len() < n {
        out.retreats
            .push(adj.spare_retreats.pop().unwrap_or_default());
    }
    for r in &mut out.retreats {
        r.clear();
    }

    // Who moved, and who moved into each province (in a consistent resolution at most one).
    let mut moved = std::mem::take(&mut adj.scratch_moved);
    let mut standoff = std::mem::take(&mut adj.scratch_standoff);
    let mut moved_in = std::mem::take(&mut adj.scratch_prov);
    reset(&mut moved, n, false);
    reset(&mut standoff, n, false);
    reset(&mut moved_in, p, NONE);
    for u in 0..n {
        if adj.board.kind[u] == MOVE && adj.outcome_of(u) {
            moved[u] = true;
            let dest = adj.board.a[u] as usize;
            if moved_in[dest] == NONE {
                moved_in[dest] = u as u16;
            }
        }
    }

    for u in 0..n {
        let here = adj.board.prov[u];
        // DATC 5.A: dislodged when it did not move and another unit moved into its province.
        let dislodger = if moved[u] {
            NONE
        } else {
            moved_in[here as usize]
        };
        let dislodged = dislodger != NONE;
        let dislodger_prov = if dislodged {
            adj.board.prov[dislodger as usize] as i32
        } else {
            -1
        };
        out.dislodged_by[u] = dislodger_prov;
        out.by[u] = dislodger_prov;
        match adj.board.kind[u] {
            MOVE => move_outcome(adj, u, moved[u], dislodger_prov, &mut standoff, out),
            SUPPORT_HOLD | SUPPORT_MOVE => {
                if !adj.board.matched[u] {
                    out.codes[u] = code::VOID;
                } else if dislodged {
                    out.codes[u] = code::DISLODGED;
                } else if !adj.outcome_of(u) {
                    out.codes[u] = code::CUT;
                    let cutter = adj.cut_by(u);
                    out.by[u] = if cutter == NONE { -1 } else { cutter as i32 };
                } else {
                    out.success[u] = true;
                }
            }
            CONVOY => {
                if !adj.board.matched[u] {
                    out.codes[u] = code::VOID;
                } else {
                    let army = adj.board.unit_at[adj.board.a[u] as usize] as usize;
                    let carried = adj.path(army);
                    if dislodged {
                        out.codes[u] = code::DISLODGED;
                    } else if !carried {
                        out.codes[u] = code::NO_CONVOY;
                    } else {
                        out.success[u] = true;
                    }
                }
            }
            _ => {
                if dislodged {
                    out.codes[u] = code::DISLODGED;
                } else {
                    out.success[u] = true;
                }
            }
        }
    }

    out.szykman.clear();
    for u in 0..n {
        if adj.szykman[u] {
            out.szykman.push(adj.board.prov[u]);
        }
    }
    out.szykman.sort_unstable();

    let mut closed = std::mem::take(&mut adj.scratch_closed);
    retreat::mark_closed(
        adj.map,
        &adj.board,
        &moved,
        &moved_in,
        &standoff,
        &mut closed,
        &mut out.contested,
    );
    for u in 0..n {
        let by = out.dislodged_by[u];
        if by >= 0 {
            let attacker = adj.board.unit_at[by as usize] as usize;
            retreat::options(
                adj.map,
                adj.board.fleet[u],
                adj.board.loc[u],
                by as u16,
                adj.board.convoyed[attacker],
                adj.rulings.retreat_any_after_convoy,
                &closed,
                &mut out.retreats[u],
            );
        }
    }
    adj.scratch_moved = moved;
    adj.scratch_standoff = standoff;
    adj.scratch_prov = moved_in;
    adj.scratch_closed = closed;
}

fn move_outcome(
    adj: &mut Adjudicator<'_>,
    u: usize,
    moved: bool,
    dislodger_prov: i32,
    standoff: &mut [bool],
    out: &mut MovementOutcome,
) {
    let attack = adj.attack_strength(u);
    let (best, best_prov) = adj.opposition(u, u32::MAX);
    out.attack[u] = sat(attack);
    out.opposition[u] = sat(best);
    if moved {
        out.success[u] = true;
        return;
    }
    standoff[u] = adj.prevent_strength(u) > 0;
    if dislodger_prov >= 0 {
        out.codes[u] = code::DISLODGED;
    } else if adj.board.convoyed[u] && !adj.path(u) {
        out.codes[u] = code::NO_CONVOY;
    } else {
        out.codes[u] = code::BOUNCE;
        out.by[u] = best_prov as i32;
    }
}
