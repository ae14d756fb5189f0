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
        debug_assert_eq!(loc, p, "an army stands on its province");
        let land = map.army_adj[p];
        for q in Bits(land).chain(Bits(self.by_sea[p] & !land)) {
            self.push_army_moves_to(map, p, q, out);
        }
    }

    /// The part of [`Tables::push_moves`]'s section of the army in `p` that moves it to the
    /// province `q`: plain and "via convoy", where `army_move` allows. (Its whole section when
    /// `q` is neither a neighbour nor where the fleets could carry it: none.)
    #[inline(always)]
    pub(super) fn push_army_moves_to(
        &self,
        map: &GameMap<M>,
        p: usize,
        q: usize,
        out: &mut Vec<Code>,
    ) {
        if !has(map.army_adj[p] | self.by_sea[p], q) {
            return;
        }
        for via in [false, true] {
            if army_move(map, self, p, q, via) == OK {
                out.push(encode::move_to(p, q, via));
            }
        }
    }

    /// Sections: the supports by the unit in `p` into each province of `into` (provinces it
    /// could enter): to hold the unit there, and of every possible move into it (DATC 4.E.1) —
    /// a fleet's move into a split-coast province with the bare province and with each coast it
    /// can reach (DATC 6.B.9); a convoyed move only with a route that does not need this fleet
    /// (DATC 6.D.31). Needs the `into` tables ([`Legal::ensure_into`]).
    pub(super) fn push_supports(
        &self,
        map: &GameMap<M>,
        st: &State<M>,
        p: usize,
        into: M,
        out: &mut Vec<Code>,
    ) {
        debug_assert!(
            self.into_ready,
            "the into tables are made before listing supports"
        );
        let at_sea = convoys_from(map, st, p);
        let reach = support_reach(map, st, p);
        let mut avoiding = None;
        for q in Bits(into) {
            push_support_hold(reach, st, p, q, out);
            // The units that could move into `q` but the supporter's own (which
            // `support_move` refuses, SUPPORT_SELF: not even asked).
            let movers = self.into[q] & !M::bit(p);
            if movers.is_zero() {
                continue;
            }
            // Only a fleet that may convoy could be on a convoyed army's route.
            let convoyed = if at_sea { self.convoy_only[q] } else { M::ZERO };
            self.push_support_moves(map, st, p, reach, q, movers, convoyed, &mut avoiding, out);
        }
    }

    /// The section of [`Tables::push_supports`] where a support by the unit in `p` of the unit
    /// in `m`'s move into the province `q` (in the supporter's reach) would be listed: the
    /// supports of that one unit's moves into `q`. `into[q]` and `convoy_only[q]` read for the
    /// one unit ([`Tables::reach_of`], [`Tables::convoy_only_of`]), so no table is needed.
    pub(super) fn push_supports_of(
        &self,
        map: &GameMap<M>,
        st: &State<M>,
        p: usize,
        m: usize,
        q: usize,
        out: &mut Vec<Code>,
    ) {
        if m == p || !st.units[m].is_some() || !has(self.reach_of(map, st, m), q) {
            return;
        }
        let at_sea = convoys_from(map, st, p);
        let convoyed = if at_sea && has(self.convoy_only_of(map, st, m), q) {
            M::bit(m)
        } else {
            M::ZERO
        };
        let reach = support_reach(map, st, p);
        let mut avoiding = None;
        self.push_support_moves(
            map,
            st,
            p,
            reach,
            q,
            M::bit(m),
            convoyed,
            &mut avoiding,
            out,
        );
    }

    /// The supports by the unit in `p` (whose [`support_reach`] is `reach`) of the moves into
    /// `q` of the units `movers` (some of them could move there; `convoyed`: those only a
    /// convoy could carry there, when this unit is a fleet that may convoy).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn push_support_moves(
        &self,
        map: &GameMap<M>,
        st: &State<M>,
        p: usize,
        reach: M,
        q: usize,
        movers: M,
        convoyed: M,
        avoiding: &mut Option<Avoiding<M>>,
        out: &mut Vec<Code>,
    ) {
        let loc = st.units[p].loc as usize;
        // What the moves into `q` need beyond the plain support: the coasts of a fleet's
        // move (none unless `q` is split), the route of a convoyed army.
        let coasts = map.coasts[q];
        if coasts.is_zero() && convoyed.is_zero() {
            // The common case: one support per unit that could move there.
            for m in Bits(movers) {
                if support_move_in(reach, st, p, m, q) == OK {
                    out.push(encode::support_move(loc, m, q));
                }
            }
            return;
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

    /// The provinces the unit in `m` could move into, by land, as a fleet or carried by the
    /// fleets at sea: `into[q]` holds `m` exactly when this holds `q`.
    #[inline]
    pub(super) fn reach_of(&self, map: &GameMap<M>, st: &State<M>, m: usize) -> M {
        let u = st.units[m];
        if u.fleet {
            map.fleet_reach[u.loc as usize]
        } else {
            map.army_adj[m] | self.by_sea[m]
        }
    }

    /// The provinces the unit in `m` could reach only by convoy (none for a fleet):
    /// `convoy_only[q]` holds `m` exactly when this holds `q`.
    #[inline]
    pub(super) fn convoy_only_of(&self, map: &GameMap<M>, st: &State<M>, m: usize) -> M {
        if st.units[m].fleet {
            M::ZERO
        } else {
            self.by_sea[m] & !map.army_adj[m]
        }
    }
}

/// Section: the support to hold of the unit in `q` by the unit in `p` (whose
/// [`support_reach`] is `reach`), when the rule allows it.
#[inline(always)]
pub(super) fn push_support_hold<M: Mask>(
    reach: M,
    st: &State<M>,
    p: usize,
    q: usize,
    out: &mut Vec<Code>,
) {
    if support_hold_in(reach, st, p, q) == OK {
        out.push(encode::support_hold(st.units[p].loc as usize, q));
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
