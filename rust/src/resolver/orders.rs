//! Units and movement orders as they cross into the core, and their encoded form.
//!
//! The engine's validation (`crate::engine::legality`) rules on orders first: an illegal order
//! arrives as `Hold`. What is checked here is only what would make the integer encoding
//! meaningless (indices out of range, two units in one province, an order that cannot be given at
//! all); such input is an error, never a silent guess.
//!
//! [`Board`] is the encoded position the resolver works on: flat per-unit arrays and per-province
//! tables, plus intrusive linked lists (movers into a province, matching supports of a unit,
//! matching convoys of an army), so that the hot path allocates nothing once its buffers have
//! grown to the size of the board.

use super::map::CompiledMap;
use super::{AdjacentConvoy, ConvoyFallback, Rulings};

/// A unit on the board: owner, type and location (for a fleet, the exact coast).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    pub power: u8,
    pub is_fleet: bool,
    pub loc: u16,
}

/// One unit's order in a movement phase. Provinces and locations are map indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    Hold,
    /// `dest` is a location (for a fleet the exact coast); `via` is the "via convoy" tag.
    Move {
        dest: u16,
        via: bool,
    },
    /// Support the unit in province `target` to hold.
    SupportHold {
        target: u16,
    },
    /// Support the unit in province `from` moving to province `to`.
    SupportMove {
        from: u16,
        to: u16,
    },
    /// Convoy the army in province `from` to province `to`.
    Convoy {
        from: u16,
        to: u16,
    },
}

/// "No unit" / end of list.
pub(crate) const NONE: u16 = u16::MAX;

pub(crate) const HOLD: u8 = 0;
pub(crate) const MOVE: u8 = 1;
pub(crate) const SUPPORT_HOLD: u8 = 2;
pub(crate) const SUPPORT_MOVE: u8 = 3;
pub(crate) const CONVOY: u8 = 4;

/// godip ([`Rulings::convoy_any_chain`], `MustConvoy` with `ViaNation`): whether chains of any
/// fleets on the board that may convoy, whatever their orders, join the army `army` to the
/// convoying fleet `c` and that fleet to the army's destination.
fn joined_by_fleets(b: &Board, map: &CompiledMap, c: usize, army: usize) -> bool {
    let afloat: Vec<usize> = (0..b.n)
        .filter(|&i| b.fleet[i] && map.may_convoy(b.prov[i]))
        .collect();
    let (from, to) = (b.prov[army], b.a[army]);
    let mut seen = vec![false; b.n];
    seen[c] = true;
    let mut stack = vec![c];
    let (mut start, mut goal) = (false, false);
    while let Some(i) = stack.pop() {
        let here = b.prov[i];
        start |= map.convoy_link(from, here);
        goal |= map.convoy_link(here, to);
        for &j in &afloat {
            if !seen[j] && map.convoy_link(here, b.prov[j]) {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    start && goal
}

/// The encoded position and orders of one movement phase.
#[derive(Default, Debug)]
pub(crate) struct Board {
    pub n: usize,
    pub power: Vec<u8>,
    pub fleet: Vec<bool>,
    pub loc: Vec<u16>,
    pub prov: Vec<u16>,
    pub kind: Vec<u8>,
    /// MOVE: destination province; SUPPORT_HOLD: target; SUPPORT_MOVE / CONVOY: `from`.
    pub a: Vec<u16>,
    /// SUPPORT_MOVE / CONVOY: `to` (a province).
    pub b: Vec<u16>,
    /// MOVE: the destination location (the exact coast for a fleet). SUPPORT_MOVE: the coast the
    /// support names, or NONE when it names the province only.
    pub loc_arg: Vec<u16>,
    /// MOVE: treated as convoyed (DATC 4.A.3, v3.0 preference: no fallback to the land route).
    pub convoyed: Vec<bool>,
    /// MOVE: an army ordered "via convoy" or to a province it cannot walk to.
    pub explicit: Vec<bool>,
    /// SUPPORT / CONVOY: the order matches what the named unit was ordered (not void).
    pub matched: Vec<bool>,
    /// MOVE: the unit it meets head to head (neither move convoyed), or NONE.
    pub opp: Vec<u16>,
    /// Per province: the unit standing there, or NONE.
    pub unit_at: Vec<u16>,
    /// Per province: first unit ordered to move into it; continue with `into_next`.
    pub into_head: Vec<u16>,
    pub into_next: Vec<u16>,
    /// Per unit: first matching support of it; continue with `sup_next` (indexed by supporter).
    pub sup_head: Vec<u16>,
    pub sup_next: Vec<u16>,
    /// Per army: first matching convoy fleet; continue with `cv_next` (indexed by fleet).
    pub cv_head: Vec<u16>,
    pub cv_next: Vec<u16>,
}

/// Iterator over one of the board's intrusive lists.
pub(crate) struct ListIter<'a> {
    next: &'a [u16],
    cur: u16,
}

impl Iterator for ListIter<'_> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.cur == NONE {
            return None;
        }
        let u = self.cur as usize;
        self.cur = self.next[u];
        Some(u)
    }
}

/// Makes `v` hold `len` copies of `value`, reusing its buffer: the part it already has is
/// filled in place (inlined, a plain loop), and only a longer `v` calls `Vec::resize` (the
/// resolver's per-phase arrays mostly keep their length from one phase to the next).
#[inline]
pub(crate) fn reset<T: Copy>(v: &mut Vec<T>, len: usize, value: T) {
    v.truncate(len);
    v.fill(value);
    if v.len() < len {
        v.resize(len, value);
    }
}

impl Board {
    /// Units ordered to move into province `prov`, in province order of their origins.
    #[inline]
    pub fn movers_into(&self, prov: u16) -> ListIter<'_> {
        ListIter {
            next: &self.into_next,
            cur: self.into_head[prov as usize],
        }
    }

    /// Fleets with a matching convoy order for army `u`, in unit order.
    #[inline]
    pub fn convoys_of(&self, u: usize) -> ListIter<'_> {
        ListIter {
            next: &self.cv_next,
            cur: self.cv_head[u],
        }
    }

    /// Whether unit `u` holds a decision of the resolver (a move, a non-void support or convoy).
    #[inline]
    pub fn has_decision(&self, u: usize) -> bool {
        match self.kind[u] {
            MOVE => true,
            SUPPORT_HOLD | SUPPORT_MOVE | CONVOY => self.matched[u],
            _ => false,
        }
    }

    /// Encodes units and orders, reusing the buffers. On error the board is left unusable until
    /// the next successful load.
    pub fn load(
        &mut self,
        map: &CompiledMap,
        units: &[Unit],
        orders: &[Order],
        rulings: Rulings,
        overland: &[bool],
    ) -> Result<(), String> {
        if units.len() != orders.len() {
            return Err(format!(
                "{} units but {} orders (one order per unit, in unit order)",
                units.len(),
                orders.len()
            ));
        }
        let n = units.len();
        if n >= NONE as usize {
            return Err(format!("too many units: {n}"));
        }
        let p = map.num_provinces();
        let l = map.num_locations();
        self.n = n;
        reset(&mut self.power, n, 0);
        reset(&mut self.fleet, n, false);
        reset(&mut self.loc, n, 0);
        reset(&mut self.prov, n, 0);
        reset(&mut self.kind, n, HOLD);
        reset(&mut self.a, n, NONE);
        reset(&mut self.b, n, NONE);
        reset(&mut self.loc_arg, n, NONE);
        reset(&mut self.convoyed, n, false);
        reset(&mut self.explicit, n, false);
        reset(&mut self.matched, n, false);
        reset(&mut self.opp, n, NONE);
        reset(&mut self.into_next, n, NONE);
        reset(&mut self.sup_head, n, NONE);
        reset(&mut self.sup_next, n, NONE);
        reset(&mut self.cv_head, n, NONE);
        reset(&mut self.cv_next, n, NONE);
        reset(&mut self.unit_at, p, NONE);
        reset(&mut self.into_head, p, NONE);

        for (i, u) in units.iter().enumerate() {
            if u.loc as usize >= l {
                return Err(format!(
                    "unit {i}: location {} out of range (the map has {l} locations)",
                    u.loc
                ));
            }
            let prov = map.province_of(u.loc);
            if u.is_fleet {
                if (u.loc as usize) < p && map.has_coasts(prov) {
                    return Err(format!(
                        "unit {i}: fleet in split-coast province {prov} must stand on a coast"
                    ));
                }
            } else {
                if map.is_sea(prov) {
                    return Err(format!("unit {i}: army at sea (province {prov})"));
                }
                if u.loc as usize >= p {
                    return Err(format!(
                        "unit {i}: army on coast location {} (armies stand on provinces)",
                        u.loc
                    ));
                }
            }
            let other = self.unit_at[prov as usize];
            if other != NONE {
                return Err(format!(
                    "units {other} and {i} are both in province {prov} (at most one unit per province)"
                ));
            }
            self.unit_at[prov as usize] = i as u16;
            self.power[i] = u.power;
            self.fleet[i] = u.is_fleet;
            self.loc[i] = u.loc;
            self.prov[i] = prov;
        }

        let check_prov = |i: usize, what: &str, v: u16| -> Result<(), String> {
            if v as usize >= p {
                Err(format!(
                    "order of unit {i}: {what} {v} out of range (the map has {p} provinces)"
                ))
            } else {
                Ok(())
            }
        };
        for (i, o) in orders.iter().enumerate() {
            let here = self.prov[i];
            match *o {
                Order::Hold => {}
                Order::Move { dest, via } => {
                    if dest as usize >= l {
                        return Err(format!(
                            "order of unit {i}: destination {dest} out of range (the map has {l} locations)"
                        ));
                    }
                    let dp = map.province_of(dest);
                    if dp == here {
                        return Err(format!("order of unit {i}: move to its own province {dp}"));
                    }
                    if self.fleet[i] {
                        if !map.fleet_adjacent(self.loc[i], dest) {
                            return Err(format!(
                                "order of unit {i}: fleet cannot move from location {} to {dest}",
                                self.loc[i]
                            ));
                        }
                    } else {
                        if map.is_sea(dp) {
                            return Err(format!(
                                "order of unit {i}: army ordered to sea province {dp}"
                            ));
                        }
                        // DATC 4.A.3: an army move is convoyed when the destination is not
                        // adjacent or the order says "via convoy"; the third reason (an own
                        // convoying fleet) is added below, once all orders are known.
                        let adjacent = map.army_adjacent(here, dp);
                        self.explicit[i] = via || !adjacent;
                        self.convoyed[i] = !adjacent
                            || (via && rulings.adjacent_convoy != AdjacentConvoy::Opposite);
                    }
                    self.kind[i] = MOVE;
                    self.a[i] = dp;
                    self.loc_arg[i] = dest;
                }
                Order::SupportHold { target } => {
                    check_prov(i, "supported province", target)?;
                    if target == here {
                        return Err(format!("order of unit {i}: support of itself"));
                    }
                    self.kind[i] = SUPPORT_HOLD;
                    self.a[i] = target;
                }
                Order::SupportMove { from, to } => {
                    check_prov(i, "supported unit's province", from)?;
                    if to as usize >= l {
                        return Err(format!(
                            "order of unit {i}: supported destination {to} out of range (the map has {l} locations)"
                        ));
                    }
                    let to_prov = map.province_of(to);
                    if from == to_prov {
                        return Err(format!(
                            "order of unit {i}: supported move from {from} to itself"
                        ));
                    }
                    if from == here || to_prov == here {
                        return Err(format!(
                            "order of unit {i}: support of a move from or into its own province"
                        ));
                    }
                    self.kind[i] = SUPPORT_MOVE;
                    self.a[i] = from;
                    self.b[i] = to_prov;
                    if to != to_prov {
                        self.loc_arg[i] = to;
                    }
                }
                Order::Convoy { from, to } => {
                    check_prov(i, "convoyed army's province", from)?;
                    check_prov(i, "convoy destination", to)?;
                    // DATC 6.F.1: only fleets at sea (or in a port) convoy.
                    if !self.fleet[i] || !map.may_convoy(here) {
                        return Err(format!(
                            "order of unit {i}: only a fleet at sea or in a port can convoy"
                        ));
                    }
                    if from == to {
                        return Err(format!("order of unit {i}: convoy from {from} to itself"));
                    }
                    self.kind[i] = CONVOY;
                    self.a[i] = from;
                    self.b[i] = to;
                }
            }
        }

        // The army (if any) that a convoy order names, ordered to move to the convoy's `to`.
        let convoyed_army = |b: &Board, c: usize| -> Option<usize> {
            let army = b.unit_at[b.a[c] as usize];
            if army == NONE {
                return None;
            }
            let army = army as usize;
            (!b.fleet[army] && b.kind[army] == MOVE && b.a[army] == b.b[c]).then_some(army)
        };
        // DATC 4.A.3 (2000/2023 rules, v3.0 preference): a convoy order by a fleet of the army's
        // own power shows the intent to be convoyed, even to an adjacent province (6.G.1, 6.G.5);
        // a foreign fleet cannot (6.G.2 kidnapping).
        // The DPTG: no fleet shows intent, only "via convoy"; 1971: any fleet's convoy, when the
        // destination's unit moves the opposite way (a swap).
        for c in 0..n {
            if self.kind[c] == CONVOY {
                if let Some(army) = convoyed_army(self, c) {
                    let shown = match rulings.adjacent_convoy {
                        AdjacentConvoy::Intent if rulings.convoy_any_chain => {
                            self.power[army] == self.power[c]
                                && joined_by_fleets(self, map, c, army)
                        }
                        AdjacentConvoy::Intent => self.power[army] == self.power[c],
                        AdjacentConvoy::Explicit => false,
                        AdjacentConvoy::Opposite => {
                            let there = self.unit_at[self.a[army] as usize];
                            there != NONE
                                && self.kind[there as usize] == MOVE
                                && self.a[there as usize] == self.prov[army]
                        }
                    };
                    if shown {
                        self.convoyed[army] = true;
                    }
                }
            }
        }
        if rulings.convoy_fallback != ConvoyFallback::Never {
            // MILA: an army with convoy intent to a neighbouring province goes overland when
            // the convoy orders given for it form no route, or when a first resolution found
            // its convoy disrupted (`overland`, see `Adjudicator::resolve_into`). godip: only
            // one ordered "via convoy" whose convoy orders form no route.
            let via_only = matches!(
                rulings.convoy_fallback,
                ConvoyFallback::Via | ConvoyFallback::ViaAlways
            );
            for (u, order) in orders.iter().enumerate().take(n) {
                if self.kind[u] != MOVE || !self.convoyed[u] {
                    continue;
                }
                if via_only && !matches!(order, Order::Move { via: true, .. }) {
                    continue;
                }
                let (from, to) = (self.prov[u], self.a[u]);
                if !map.army_adjacent(from, to) {
                    continue;
                }
                let fleets: Vec<u16> = (0..n)
                    .filter(|&c| self.kind[c] == CONVOY && convoyed_army(self, c) == Some(u))
                    .map(|c| self.prov[c])
                    .collect();
                if overland.get(u).copied().unwrap_or(false)
                    || !super::convoy::route_exists(
                        map,
                        from,
                        to,
                        &fleets,
                        rulings.port_first_only,
                        |_| true,
                    )
                {
                    self.convoyed[u] = false;
                }
            }
        }

        // Lists are built by pushing at the head while walking units backwards, so that each
        // list comes out in increasing unit order; except the moves into a province, kept in
        // increasing province order of their origins whatever the order of the units: the unit a
        // reason names (who cut a support, who stopped a move) is the first in that order, the
        // same on every path into the core.
        for i in (0..n).rev() {
            match self.kind[i] {
                MOVE => {
                    let dp = self.a[i] as usize;
                    let origin = self.prov[i];
                    let mut prev = NONE;
                    let mut cur = self.into_head[dp];
                    while cur != NONE && self.prov[cur as usize] < origin {
                        prev = cur;
                        cur = self.into_next[cur as usize];
                    }
                    self.into_next[i] = cur;
                    if prev == NONE {
                        self.into_head[dp] = i as u16;
                    } else {
                        self.into_next[prev as usize] = i as u16;
                    }
                    // Head-to-head: two units moving into each other's province, neither move
                    // convoyed (DATC 6.G: a convoyed swap is not a head-to-head battle).
                    let other = self.unit_at[dp];
                    if other != NONE && !self.convoyed[i] {
                        let o = other as usize;
                        if self.kind[o] == MOVE && self.a[o] == self.prov[i] && !self.convoyed[o] {
                            self.opp[i] = other;
                        }
                    }
                }
                SUPPORT_HOLD => {
                    // Units ordered to hold, support or convoy can be supported in hold (DATC
                    // 6.D.4-6.D.6); a unit ordered to move cannot, even when its move fails
                    // (DATC 6.D.7, 6.D.8): such a support is void.
                    let t = self.unit_at[self.a[i] as usize];
                    if t != NONE && self.kind[t as usize] != MOVE {
                        self.matched[i] = true;
                        self.sup_next[i] = self.sup_head[t as usize];
                        self.sup_head[t as usize] = i as u16;
                    }
                }
                SUPPORT_MOVE => {
                    // Matches only the move actually ordered (DATC 6.D.9: no move support to a
                    // holding unit), to the coast the support names if it names one (DATC 6.B.9).
                    let t = self.unit_at[self.a[i] as usize];
                    let coast = self.loc_arg[i];
                    if t != NONE
                        && self.kind[t as usize] == MOVE
                        && self.a[t as usize] == self.b[i]
                        && (coast == NONE
                            || (rulings.support_coast_ignored && self.fleet[i])
                            || self.loc_arg[t as usize] == coast)
                    {
                        self.matched[i] = true;
                        self.sup_next[i] = self.sup_head[t as usize];
                        self.sup_head[t as usize] = i as u16;
                    }
                }
                CONVOY => {
                    // Void unless the army is ordered to move there *by convoy* (DATC 4.A.3).
                    if let Some(army) = convoyed_army(self, i) {
                        if self.convoyed[army] {
                            self.matched[i] = true;
                            self.cv_next[i] = self.cv_head[army];
                            self.cv_head[army] = i as u16;
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }
}
