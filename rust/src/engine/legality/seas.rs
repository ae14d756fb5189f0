//! The fleets that could convoy, in connected groups: where the fleets could carry an army is
//! the shores of the groups its province touches (`GameMap::convoy_reach`), so the groups are
//! found once per set of fleets instead of a search per army. DATC 6.D.31 asks it of the fleets
//! but one supporter, for every army the supporter's fleet might carry.

use super::*;

/// The connected groups of a set of fleets (at sea or in a port) over the links a convoy may
/// pass (`GameMap::sea_adj`, which holds both ways: a one-way edge carries no army), each found
/// when an army first touches it.
pub(super) struct SeaGroups<M: Mask> {
    /// The set grouped (the fleets a chain may pass on to).
    fleets: M,
    /// The fleets only first in a chain (MILA's ports, `port_first_only`), not grouped.
    first: M,
    /// The fleets whose group is found.
    grouped: M,
    /// Per province of `grouped`, the index of its group (other entries are stale).
    group_of: Vec<u16>,
    /// Per group: its seas, and the shore provinces they touch.
    groups: Vec<(M, M)>,
}

impl<M: Mask> SeaGroups<M> {
    pub(super) fn new() -> SeaGroups<M> {
        SeaGroups {
            fleets: M::ZERO,
            first: M::ZERO,
            grouped: M::ZERO,
            group_of: Vec::new(),
            groups: Vec::new(),
        }
    }

    /// Groups the fleets `fleets` but those of `barred` (each group on first need).
    pub(super) fn build(&mut self, map: &GameMap<M>, fleets: M, barred: M) {
        if self.group_of.len() < map.provinces {
            self.group_of.resize(map.provinces, 0);
        }
        self.fleets = fleets & !barred;
        self.first = fleets & barred;
        self.grouped = M::ZERO;
        self.groups.clear();
    }

    /// Finds the group of the fleet in `s`.
    fn group(&mut self, map: &GameMap<M>, s: usize) {
        let mut seen = M::bit(s);
        let mut frontier = seen;
        while !frontier.is_zero() {
            let mut next = M::ZERO;
            for x in Bits(frontier) {
                next |= map.sea_adj[x];
            }
            next &= self.fleets & !seen;
            seen |= next;
            frontier = next;
        }
        let index = self.groups.len() as u16;
        let mut shores = M::ZERO;
        for x in Bits(seen) {
            shores |= map.sea_shores[x];
            self.group_of[x] = index;
        }
        self.groups.push((seen, shores));
        self.grouped |= seen;
    }

    /// `map.convoy_reach(src, fleets, M::ZERO, barred)` for the fleets grouped: the provinces
    /// the fleets could carry an army in `src` to, and the seas such a convoy could use.
    pub(super) fn reach(&mut self, map: &GameMap<M>, src: usize) -> (M, M) {
        let mut seen = M::ZERO;
        let mut dests = M::ZERO;
        // A barred fleet first in the chain: its shores, and the groups it passes on to.
        let mut starts = map.shore_seas[src] & self.fleets;
        for s in Bits(map.shore_seas[src] & self.first) {
            seen |= M::bit(s);
            dests |= map.sea_shores[s];
            starts |= map.sea_adj[s] & self.fleets;
        }
        for s in Bits(starts) {
            if !has(seen, s) {
                if !has(self.grouped, s) {
                    self.group(map, s);
                }
                let (seas, shores) = self.groups[self.group_of[s] as usize];
                seen |= seas;
                dests |= shores;
            }
        }
        let reach = (dests & !M::bit(src), seen);
        debug_assert_eq!(
            reach,
            map.convoy_reach(src, self.fleets | self.first, M::ZERO, self.first)
        );
        reach
    }
}

/// DATC 6.D.31: where an army could be carried without the supporting fleet, by the groups of
/// the other fleets, made for one supporter at a time and kept while the state is the same; the
/// last few armies' answers kept besides (one supporter asks of one army for several provinces).
pub(super) struct Avoiding<M: Mask> {
    /// The supporter's province the answers are for (`usize::MAX`: none yet).
    supporter: usize,
    /// The supporter's province the groups leave out (`usize::MAX`: none yet).
    grouped: usize,
    groups: SeaGroups<M>,
    armies: [u16; 8],
    reach: [M; 8],
    cached: usize,
}

impl<M: Mask> Avoiding<M> {
    pub(super) fn new() -> Avoiding<M> {
        Avoiding {
            supporter: usize::MAX,
            grouped: usize::MAX,
            groups: SeaGroups::new(),
            armies: [0; 8],
            reach: [M::ZERO; 8],
            cached: 0,
        }
    }

    /// Forgets the groups (the state changed).
    pub(super) fn forget(&mut self) {
        self.supporter = usize::MAX;
        self.grouped = usize::MAX;
    }

    /// Where the army in `m` could be carried by the fleets `fleets` (the state's) other than
    /// the one in `p`.
    #[inline]
    pub(super) fn reach(
        &mut self,
        map: &GameMap<M>,
        fleets: M,
        barred: M,
        m: usize,
        p: usize,
    ) -> M {
        if self.supporter != p {
            self.supporter = p;
            self.cached = 0;
        }
        if let Some(i) = self.armies[..self.cached]
            .iter()
            .position(|&x| x as usize == m)
        {
            return self.reach[i];
        }
        self.search(map, fleets, barred, m, p)
    }

    /// [`Avoiding::reach`] not yet known for this supporter.
    #[inline(never)]
    fn search(&mut self, map: &GameMap<M>, fleets: M, barred: M, m: usize, p: usize) -> M {
        // The first army a supporter asks about is searched alone (most supporters ask about
        // one); from the second the groups are made, and each further army costs a lookup.
        let r = if self.cached == 0 {
            map.convoy_reach(m, fleets, M::bit(p), barred).0
        } else {
            if self.grouped != p {
                self.groups.build(map, fleets & !M::bit(p), barred);
                self.grouped = p;
            }
            self.groups.reach(map, m).0
        };
        if self.cached < self.armies.len() {
            self.armies[self.cached] = m as u16;
            self.reach[self.cached] = r;
            self.cached += 1;
        }
        r
    }
}
