//! The four strengths of DATC 5.B.5-5.B.8. Each reads other decisions through `resolve`, so
//! during resolution a strength may rest on a guess; after resolution it is final.
//!
//! Strengths are `u32` here (a unit has few neighbours, but nothing needs to overflow); the
//! outcome saturates them to `u8`.

use super::adjudicator::Adjudicator;
use super::orders::{MOVE, NONE};

impl Adjudicator<'_> {
    /// Successful supports of unit `u`, not counting supporters of power `exclude` (the power of
    /// the unit attacked, DATC 5.B.8: no help in dislodging one's own unit, 6.D.12, 6.E.3).
    pub(crate) fn supports(&mut self, u: usize, exclude: Option<u8>) -> u32 {
        let mut count = 0;
        let mut cur = self.board.sup_head[u];
        while cur != NONE {
            let s = cur as usize;
            cur = self.board.sup_next[s];
            if exclude != Some(self.board.power[s]) && self.resolve(s) {
                count += 1;
            }
        }
        count
    }

    /// DATC 5.B.5 HOLD STRENGTH of a province: 0 when empty or when its unit moves away; 1 when
    /// its unit was ordered to move and failed (no hold support for a unit ordered to move,
    /// DATC 6.D.7); otherwise 1 plus the successful hold supports.
    pub(crate) fn hold_strength(&mut self, prov: u16) -> u32 {
        let d = self.board.unit_at[prov as usize];
        if d == NONE {
            return 0;
        }
        let d = d as usize;
        if self.board.kind[d] == MOVE {
            if self.resolve(d) {
                0
            } else {
                1
            }
        } else {
            1 + self.supports(d, None)
        }
    }

    /// DATC 5.B.8 ATTACK STRENGTH of unit `u`'s move.
    pub(crate) fn attack_strength(&mut self, u: usize) -> u32 {
        if !self.path(u) {
            return 0;
        }
        let d = self.board.unit_at[self.board.a[u] as usize];
        if d == NONE {
            return 1 + self.supports(u, None);
        }
        let d = d as usize;
        // A unit leaving the destination (not head to head) no longer defends it.
        if self.board.opp[u] == NONE && self.board.kind[d] == MOVE && self.resolve(d) {
            return 1 + self.supports(u, None);
        }
        let defender = self.board.power[d];
        // DATC 6.D.10, 6.D.11, 6.E.2: no self-dislodgement.
        if defender == self.board.power[u] {
            return 0;
        }
        // MILA: a power's support of a convoyed attack ("via convoy", or beyond the army's
        // neighbours) on its own unit counts.
        if self.rulings.own_support_of_convoyed && self.board.convoyed[u] && self.board.explicit[u]
        {
            return 1 + self.supports(u, None);
        }
        1 + self.supports(u, Some(defender))
    }

    /// DATC 5.B.7 DEFEND STRENGTH of unit `u` in its head-to-head battle with unit `against`.
    pub(crate) fn defend_strength(&mut self, u: usize, against: usize) -> u32 {
        if self.board.sup_head[u] == NONE {
            return 1;
        }
        let strength = 1 + self.supports(u, None);
        // MILA: the support a power gives to the attack on its own unit is void, so it defends
        // nothing either (DATC 6.E.12 counts it); where both moves have as many supports,
        // MILA bounces both, as the full count does.
        if self.rulings.head_to_head_own_support_void
            && 1 + self.supports(against, None) != strength
        {
            return 1 + self.supports(u, Some(self.board.power[against]));
        }
        strength
    }

    /// DATC 5.B.6 PREVENT STRENGTH of unit `u`'s move: 0 without a route; 0 when it lost a
    /// head-to-head battle (DATC 6.E.1 — only a head-to-head: a unit dislodged by a convoyed
    /// swap partner still bounces others, DATC 4.A.7 choice b, 6.G.10, 6.G.14-6.G.16).
    pub(crate) fn prevent_strength(&mut self, u: usize) -> u32 {
        if !self.path(u) {
            return 0;
        }
        let opp = self.board.opp[u];
        if opp != NONE && self.resolve(opp as usize) {
            return 0;
        }
        1 + self.supports(u, None)
    }
}
