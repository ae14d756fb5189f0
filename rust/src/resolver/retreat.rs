//! What the movement phase leaves for the retreat phase: contested provinces and the retreat
//! options of every dislodged unit.

use super::map::CompiledMap;
use super::orders::{Board, NONE};

/// Marks `closed[p]` for every province that no dislodged unit may retreat to (occupied after
/// the movement phase, or contested) and lists the contested ones, sorted, in `contested`.
///
/// * `moved[u]` — unit `u` moved successfully.
/// * `moved_in[p]` — the unit that moved into province `p`, or NONE.
/// * `standoff[u]` — unit `u`'s move failed with a non-zero prevent strength (a working route and
///   not beaten head to head).
///
/// A province is contested (a standoff, DATC 6.H.6) when it is empty after movement and a move
/// into it failed with a non-zero prevent strength. A move without a route does not count
/// (DATC 6.F.7: a dislodged convoy leaves the landing province open), nor does the move of a
/// unit beaten head to head (prevent strength 0, DATC 5.B.6), which leaves the winner's origin
/// open (DATC 6.H.9). A unit dislodged by a convoyed swap partner still makes a standoff (DATC
/// 4.A.7 choice b).
pub(crate) fn mark_closed(
    map: &CompiledMap,
    board: &Board,
    moved: &[bool],
    moved_in: &[u16],
    standoff: &[bool],
    closed: &mut Vec<bool>,
    contested: &mut Vec<u16>,
) {
    let p = map.num_provinces();
    closed.clear();
    closed.resize(p, false);
    contested.clear();
    for (prov, slot) in closed.iter_mut().enumerate() {
        let stays = board.unit_at[prov];
        let occupied = moved_in[prov] != NONE || (stays != NONE && !moved[stays as usize]);
        if occupied {
            *slot = true;
        } else if board.movers_into(prov as u16).any(|m| standoff[m]) {
            *slot = true;
            contested.push(prov as u16);
        }
    }
}

/// Retreat options of a dislodged unit, sorted by location: every location it could move to by
/// plain adjacency (no convoy, DATC 6.H.13; a fleet gets each
/// reachable coast of a split-coast province as a separate option), except closed provinces
/// (DATC 6.H.6, 6.H.16: a contested province is closed on every coast) and the province the
/// attacker came from (DATC 6.H.5, 6.H.15: every coast of it) unless that attack was convoyed (DATC 4.A.5 choice b, 6.H.11,
/// 6.H.12). With `any_after_convoy` (MILA's `retreat_after_convoy="any"`) a unit dislodged by a
/// convoyed attack keeps every such location, closed provinces included (the retreat rule then
/// refuses the occupied ones).
#[allow(clippy::too_many_arguments)]
pub(crate) fn options(
    map: &CompiledMap,
    is_fleet: bool,
    loc: u16,
    attacker_origin: u16,
    attacker_convoyed: bool,
    any_after_convoy: bool,
    closed: &[bool],
    out: &mut Vec<u16>,
) {
    out.clear();
    let every = attacker_convoyed && any_after_convoy;
    let open =
        |q: u16| every || (!closed[q as usize] && (q != attacker_origin || attacker_convoyed));
    if is_fleet {
        out.extend(
            map.fleet_neighbours(loc)
                .iter()
                .copied()
                .filter(|&l| open(map.province_of(l))),
        );
    } else {
        let prov = map.province_of(loc);
        out.extend(
            map.army_neighbours(prov)
                .iter()
                .copied()
                .filter(|&q| open(q)),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 0 A - 1 B - 2 C (land triangle); 3 SPLIT with coasts 5 (north) and 6 (south), army-linked
    /// to A; 4 SEA fleet-linked to both coasts.
    fn map() -> CompiledMap {
        CompiledMap::new(
            vec![0, 1, 2, 3, 4, 3, 3],
            vec![false, false, false, false, true],
            vec![vec![1, 2, 3], vec![0, 2], vec![0, 1], vec![0], vec![]],
            vec![vec![], vec![], vec![], vec![], vec![5, 6], vec![4], vec![4]],
        )
        .unwrap()
    }

    #[test]
    fn army_options_exclude_closed_and_attacker_origin() {
        let m = map();
        let mut out = Vec::new();
        let closed = [false; 5];
        options(&m, false, 0, 1, false, false, &closed, &mut out);
        assert_eq!(out, vec![2, 3]);
        // DATC 4.A.5: dislodged by a convoyed army, the attacker's origin is open.
        options(&m, false, 0, 1, true, false, &closed, &mut out);
        assert_eq!(out, vec![1, 2, 3]);
        let closed = [false, false, true, false, false];
        options(&m, false, 0, 1, true, false, &closed, &mut out);
        assert_eq!(out, vec![1, 3]);
        // MILA (`retreat_after_convoy="any"`): after a convoyed attack every neighbour is listed,
        // closed ones included; after a plain attack the rulebook's exclusions stay.
        options(&m, false, 0, 1, true, true, &closed, &mut out);
        assert_eq!(out, vec![1, 2, 3]);
        options(&m, false, 0, 1, false, true, &closed, &mut out);
        assert_eq!(out, vec![3]);
    }

    #[test]
    fn fleet_gets_each_coast_and_contested_closes_both() {
        let m = map();
        let mut out = Vec::new();
        let closed = [false; 5];
        options(&m, true, 4, NONE, false, false, &closed, &mut out);
        assert_eq!(out, vec![5, 6]);
        // DATC 6.H.16: contested on one coast closes the whole province.
        let closed = [false, false, false, true, false];
        options(&m, true, 4, NONE, false, false, &closed, &mut out);
        assert!(out.is_empty());
    }
}
