//! The listing tables: the moves and supports sections of a unit's list.

use super::*;

impl<M: Mask> Tables<M> {
    /// Section: the moves of the unit in `p`.
    pub(super) fn push_moves(
        &self,
        map: &GameMap<M>,
        st: &State<M>,
        p: usize,
        out: &mut Vec<Code>,
    ) {
        let u = st.units[p];
        let loc = u.loc as usize;
        if u.fleet {
            for m in Bits(map.fleet_adj[loc]) {
                if fleet_move(map, loc, m) == Ok(m) {
                    out.push(encode::move_to(loc, m, false));
                }
            }
            return;
        }
        // The neighbours, then the provinces only the fleets could carry it to; each plain and
        // "via convoy" where `army_move` allows.
        let land = map.army_adj[p];
        for q in Bits(land).chain(Bits(self.by_sea[p] & !land)) {
            for via in [false, true] {
                if army_move(map, self, p, q, via) == OK {
                    out.push(encode::move_to(loc, q, via));
                }
            }
        }
    }

    /// Sections: the supports by the unit in `p` into each province of `into` (provinces it
    /// could enter): to hold the unit there, and of every possible move into it (DATC 4.E.1) —
    /// a fleet's move into a split-coast province with the bare province and with each coast it
    /// can reach (DATC 6.B.9); a convoyed move only with a route that does not need this fleet
    /// (DATC 6.D.31).
    pub(super) fn push_supports(
        &self,
        map: &GameMap<M>,
        st: &State<M>,
        p: usize,
        into: M,
        out: &mut Vec<Code>,
    ) {
        let loc = st.units[p].loc as usize;
        let at_sea = convoys_from(map, st, p);
        let reach = support_reach(map, st, p);
        let mut avoiding = None;
        for q in Bits(into) {
            if support_hold_in(reach, st, p, q) == OK {
                out.push(encode::support_hold(loc, q));
            }
            // The units that could move into `q` but the supporter's own (which
            // `support_move` refuses, SUPPORT_SELF: not even asked).
            let movers = self.into[q] & !M::bit(p);
            if movers.is_zero() {
                continue;
            }
            // What the moves into `q` need beyond the plain support: the coasts of a fleet's
            // move (none unless `q` is split), the route of a convoyed army (only a fleet that
            // may convoy could be on it).
            let coasts = map.coasts[q];
            let convoyed = if at_sea { self.convoy_only[q] } else { M::ZERO };
            if coasts.is_zero() && convoyed.is_zero() {
                // The common case: one support per unit that could move there.
                for m in Bits(movers) {
                    if support_move_in(reach, st, p, m, q) == OK {
                        out.push(encode::support_move(loc, m, q));
                    }
                }
                continue;
            }
            for m in Bits(movers) {
                if support_move_in(reach, st, p, m, q) != OK {
                    continue;
                }
                if !convoyed.is_zero()
                    && has(convoyed, m)
                    && has(self.closure[m], p)
                    && !has(
                        avoiding
                            .get_or_insert_with(Avoiding::new)
                            .reach(map, self.fleets, m, p),
                        q,
                    )
                {
                    continue; // the army's sea route needs this fleet
                }
                out.push(encode::support_move(loc, m, q));
                if !coasts.is_zero() && st.units[m].fleet {
                    for c in Bits(map.fleet_adj[st.units[m].loc as usize] & coasts) {
                        out.push(encode::support_move(loc, m, c));
                    }
                }
            }
        }
    }
}

/// 6.D.31: per army, its reach by sea without the supporting fleet, worked out on first need
/// and kept for a few armies (one supporter at a time).
pub(super) struct Avoiding<M> {
    armies: [u16; 8],
    reach: [M; 8],
    cached: usize,
}

impl<M: Mask> Avoiding<M> {
    pub(super) fn new() -> Avoiding<M> {
        Avoiding {
            armies: [0; 8],
            reach: [M::ZERO; 8],
            cached: 0,
        }
    }

    /// Where the army in `m` could be carried by the fleets `fleets` other than the one in `p`.
    pub(super) fn reach(&mut self, map: &GameMap<M>, fleets: M, m: usize, p: usize) -> M {
        if let Some(i) = self.armies[..self.cached]
            .iter()
            .position(|&x| x as usize == m)
        {
            return self.reach[i];
        }
        let r = map.convoy_reach(m, fleets, M::bit(p)).0;
        if self.cached < self.armies.len() {
            self.armies[self.cached] = m as u16;
            self.reach[self.cached] = r;
            self.cached += 1;
        }
        r
    }
}
