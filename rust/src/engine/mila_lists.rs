//! MILA's order of a board's lists, its sticky `influence` and its Zobrist hash, on the engine's
//! indices: what `diplo.compat.mila.order` (the readable reference) and
//! `diplo.compat.mila.zobrist` work out in Python, made here so that the drop-in's `get_state`
//! costs a fraction of MILA's.
//!
//! MILA keeps each power's units, dislodged units, centres and influence as lists it edits as the
//! game goes, so their order is a fact of the game's history. [`MilaLists::after`] applies one
//! processed phase to the lists, as `order.next_lists` does (the rules are written there); where
//! the reference tells from the boards whether a unit moved, the engine reads its own ruling (a
//! move that succeeded), which is the same thing. [`MilaLists::arranged`] lays a board out in the
//! lists' order (`order.arrange`), and [`Zobrist::hash`] is MILA's hash of that layout. A unit
//! dislodged with nowhere to retreat leaves its power's list in the movement phase, as MILA takes
//! it off the board (kept, it came back twice once the power stood there again: found by
//! `tools/mila_search.py`); laying out filters whatever else the board no longer holds.

use super::encode::{a_of, fleet_of, kind, kind_of, loc_of};
use super::game_map::{Bits, GameMap, Mask, NO_POWER};
use super::phases::Verdict;
use super::state::{Piece, State, ADJUSTMENTS, MOVEMENT, RETREATS};

/// A unit in a list: its type and exact location (a fleet on a split coast is on its coast).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Entry {
    pub fleet: bool,
    pub loc: u16,
}

/// One board's lists in MILA's order, per power (map order): units on the board, dislodged units,
/// centres (provinces) and influence (locations; a retreat names its coast).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MilaLists {
    pub units: Vec<Vec<Entry>>,
    pub dislodged: Vec<Vec<Entry>>,
    pub centers: Vec<Vec<u16>>,
    pub influence: Vec<Vec<u16>>,
}

/// A board laid out in the lists' order, per power: its units, its dislodged units (each with its
/// retreat options, in MILA's order of the location's neighbours) and its centres.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Arranged {
    pub units: Vec<Vec<Entry>>,
    pub dislodged: Vec<Vec<(Entry, Vec<u16>)>>,
    pub centers: Vec<Vec<u16>>,
}

/// The map's facts the lists need that are MILA's, not diplo's: its centres in MILA's order, the
/// rank of each retreat option among a location's neighbours (MILA's `loc_abut`), and the order
/// texts sort in when a unit or centre is not in the lists (by location: its name's rank).
#[derive(Clone, Debug, Default)]
pub struct MilaOrder {
    /// The map's centres (provinces) in MILA's order.
    pub scs: Vec<u16>,
    /// Per location: `(option, rank)` for the options MILA's neighbours name, and the rank of
    /// any other option.
    pub ranks: Vec<(Vec<(u16, u16)>, u16)>,
    /// Per location, its rank among the locations' names sorted (ties: none, names differ).
    pub name_rank: Vec<u32>,
}

impl MilaOrder {
    fn rank_of(&self, site: usize, option: u16) -> u16 {
        match self.ranks.get(site) {
            Some((known, other)) => known
                .iter()
                .find(|&&(o, _)| o == option)
                .map_or(*other, |&(_, r)| r),
            None => 0,
        }
    }

    /// The sort key of a unit's text (`"A PAR"` before `"F BRE"`, then by location name).
    fn unit_key(&self, e: Entry) -> (bool, u32) {
        (e.fleet, self.name_rank[e.loc as usize])
    }
}

fn piece_at(pieces: Piece, power: usize, e: Entry) -> bool {
    pieces.power as usize == power && pieces.fleet == e.fleet && pieces.loc == e.loc
}

/// Moves `loc` into `power`'s influence, out of whichever power's held it (the last in map order
/// whose list names it, as the reference's table of holders has it).
fn enter(influence: &mut [Vec<u16>], holder: &mut Option<Vec<u8>>, power: usize, loc: u16) {
    let held = holder.get_or_insert_with(|| {
        let top = influence
            .iter()
            .flatten()
            .map(|&l| l as usize + 1)
            .max()
            .unwrap_or(0);
        let mut h = vec![NO_POWER; top.max(loc as usize + 1)];
        for (p, listed) in influence.iter().enumerate() {
            for &l in listed {
                h[l as usize] = p as u8;
            }
        }
        h
    });
    if held.len() <= loc as usize {
        held.resize(loc as usize + 1, NO_POWER);
    }
    let had = held[loc as usize];
    if had != NO_POWER {
        let list = &mut influence[had as usize];
        if let Some(i) = list.iter().position(|&l| l == loc) {
            list.remove(i);
        }
    }
    influence[power].push(loc);
    held[loc as usize] = power as u8;
}

/// The entries of `listed` on the board (`held`; repeats kept), then, when they are fewer or more
/// than the board's `count`, those of the board the list does not name (`truth()`), sorted by
/// `key`: `order._in_order`, which looks at the board's whole list only then.
fn in_order<T: Copy + PartialEq, K: Ord>(
    listed: &[T],
    held: impl Fn(T) -> bool,
    count: usize,
    truth: impl FnOnce() -> Vec<T>,
    key: impl Fn(T) -> K,
) -> Vec<T> {
    let mut out: Vec<T> = listed.iter().copied().filter(|&x| held(x)).collect();
    if out.len() != count {
        let mut missing: Vec<T> = truth().into_iter().filter(|x| !out.contains(x)).collect();
        missing.sort_by_key(|&x| key(x));
        out.extend(missing);
    }
    out
}

impl MilaLists {
    /// Empty lists for `powers` powers.
    pub fn empty(powers: usize) -> MilaLists {
        MilaLists {
            units: vec![Vec::new(); powers],
            dislodged: vec![Vec::new(); powers],
            centers: vec![Vec::new(); powers],
            influence: vec![Vec::new(); powers],
        }
    }

    /// The lists after the phase ruled in `g`, as the drop-in plays (`g.normal` and
    /// `g.outcome.success`: per code given, its normal form and success; `g.before` the board it was
    /// ruled from, `g.after` the board it left).
    pub fn after<M: Mask>(&self, map: &GameMap<M>, g: &Verdict<M>, order: &MilaOrder) -> MilaLists {
        let powers = self.units.len();
        let (before, after) = (&g.before, &g.after);
        let mut units = self.units.clone();
        let mut dislodged: Vec<Vec<Entry>> = vec![Vec::new(); powers];
        let mut influence = self.influence.clone();
        let mut holder: Option<Vec<u8>> = None;
        let prov = |loc: usize| map.prov_of[loc] as usize;
        // Each code played, in its normal form (refused ones left out), with its success, in
        // the order given (power by power in the map's order, as `mila_play` reads them).
        let played = g
            .normal
            .iter()
            .zip(&g.outcome.success)
            .filter(|&(&code, _)| code != 0)
            .map(|(&code, &ok)| (code, ok));
        match before.kind {
            MOVEMENT => {
                // Where each unit that moved went: location -> destination location.
                let mut went: Vec<Option<u16>> = vec![None; map.locations];
                for (code, ok) in played {
                    if ok && kind_of(code) == kind::MOVE {
                        went[loc_of(code)] = Some(a_of(code) as u16);
                    }
                }
                for p in 0..powers {
                    let mut standing = std::mem::take(&mut units[p]);
                    if (0..map.provinces).any(|q| {
                        after.dislodged[q].is_some() && after.dislodged[q].power as usize == p
                    }) {
                        dislodged[p] = standing
                            .iter()
                            .copied()
                            .filter(|&e| piece_at(after.dislodged[prov(e.loc as usize)], p, e))
                            .collect();
                        standing.retain(|e| !dislodged[p].contains(e));
                    }
                    let moved = |e: Entry| -> Option<Entry> {
                        let dest = went[e.loc as usize]? as usize;
                        if !piece_at(before.units[prov(e.loc as usize)], p, e) {
                            return None;
                        }
                        let arrived = after.units[prov(dest)];
                        (arrived.power as usize == p && arrived.fleet == e.fleet).then_some(Entry {
                            fleet: arrived.fleet,
                            loc: arrived.loc,
                        })
                    };
                    // Those that stayed, then those that moved (each in the list's order);
                    // each province entered goes to the mover's influence in that order.
                    let went_to: Vec<Option<Entry>> = standing.iter().map(|&e| moved(e)).collect();
                    let mut list: Vec<Entry> = standing
                        .iter()
                        .zip(&went_to)
                        .filter(|(_, to)| to.is_none())
                        .map(|(&e, _)| e)
                        .collect();
                    // A unit dislodged with nowhere to go is off the board: off the list too.
                    list.retain(|&e| piece_at(after.units[prov(e.loc as usize)], p, e));
                    for &to in went_to.iter().flatten() {
                        list.push(to);
                        enter(&mut influence, &mut holder, p, map.prov_of[to.loc as usize]);
                    }
                    units[p] = list;
                }
            }
            RETREATS => {
                for (code, ok) in played {
                    if !ok || kind_of(code) != kind::RETREAT {
                        continue;
                    }
                    let from = before.dislodged[prov(loc_of(code))];
                    if !from.is_some() {
                        continue;
                    }
                    let p = from.power as usize;
                    let dest = a_of(code);
                    let arrived = after.units[prov(dest)];
                    if arrived.power as usize != p || arrived.fleet != from.fleet {
                        continue;
                    }
                    let came = Entry {
                        fleet: arrived.fleet,
                        loc: arrived.loc,
                    };
                    if !units[p].contains(&came) {
                        units[p].push(came);
                        enter(&mut influence, &mut holder, p, dest as u16);
                    }
                }
            }
            _ => {
                debug_assert_eq!(before.kind, ADJUSTMENTS);
                for (p, list) in units.iter_mut().enumerate() {
                    list.retain(|&e| piece_at(after.units[prov(e.loc as usize)], p, e));
                }
                for (code, ok) in played {
                    if !ok || kind_of(code) != kind::BUILD {
                        continue;
                    }
                    let arrived = after.units[prov(loc_of(code))];
                    if !arrived.is_some() || arrived.fleet != fleet_of(code) {
                        continue;
                    }
                    let built = Entry {
                        fleet: arrived.fleet,
                        loc: arrived.loc,
                    };
                    let list = &mut units[arrived.power as usize];
                    if !list.contains(&built) {
                        list.push(built);
                    }
                }
            }
        }
        let centers = self.captured(after, order);
        MilaLists {
            units,
            dislodged,
            centers,
            influence,
        }
    }

    /// The centres' lists once the owners are those of `after`, handed over as MILA does: each
    /// power's lost centres (its list in order) go last in the taker's list, then the centres no
    /// list named in MILA's order (`order._captured`).
    fn captured<M: Mask>(&self, after: &State<M>, order: &MilaOrder) -> Vec<Vec<u16>> {
        let mut out = self.centers.clone();
        for p in 0..out.len() {
            let current = out[p].clone();
            for c in current {
                let taker = after.centers[c as usize];
                if taker as usize != p {
                    if let Some(i) = out[p].iter().position(|&x| x == c) {
                        out[p].remove(i);
                    }
                    if taker != NO_POWER && (taker as usize) < out.len() {
                        out[taker as usize].push(c);
                    }
                }
            }
        }
        for &c in &order.scs {
            let taker = after.centers[c as usize];
            if taker != NO_POWER
                && (taker as usize) < out.len()
                && !self.centers.iter().any(|l| l.contains(&c))
            {
                out[taker as usize].push(c);
            }
        }
        out
    }

    /// The board `st` laid out in the lists' order (`order.arrange`).
    pub fn arranged<M: Mask>(
        &self,
        map: &GameMap<M>,
        st: &State<M>,
        order: &MilaOrder,
    ) -> Arranged {
        let powers = self.units.len();
        let prov = |loc: u16| map.prov_of[loc as usize] as usize;
        // What the board holds per power: units, dislodged units, centres.
        let mut counts = vec![[0usize; 3]; powers];
        for q in 0..map.provinces {
            for (i, owner) in [st.units[q].power, st.dislodged[q].power, st.centers[q]]
                .into_iter()
                .enumerate()
            {
                if owner != NO_POWER && (owner as usize) < powers {
                    counts[owner as usize][i] += 1;
                }
            }
        }
        let pieces = |table: &M::Table<Piece>, p: usize| -> Vec<Entry> {
            (0..map.provinces)
                .map(|q| table[q])
                .filter(|u| u.is_some() && u.power as usize == p)
                .map(|u| Entry {
                    fleet: u.fleet,
                    loc: u.loc,
                })
                .collect()
        };
        let unit_key = |e: Entry| order.unit_key(e);
        let mut out = Arranged::default();
        for (p, [units, dislodged, centres]) in counts.into_iter().enumerate() {
            out.units.push(in_order(
                &self.units[p],
                |e| piece_at(st.units[prov(e.loc)], p, e),
                units,
                || pieces(&st.units, p),
                unit_key,
            ));
            let gone = in_order(
                &self.dislodged[p],
                |e| piece_at(st.dislodged[prov(e.loc)], p, e),
                dislodged,
                || pieces(&st.dislodged, p),
                unit_key,
            );
            out.dislodged.push(
                gone.into_iter()
                    .map(|e| {
                        let mut options: Vec<u16> =
                            Bits(st.retreats[prov(e.loc)]).map(|o| o as u16).collect();
                        options.sort_by_key(|&o| order.rank_of(e.loc as usize, o));
                        (e, options)
                    })
                    .collect(),
            );
            out.centers.push(in_order(
                &self.centers[p],
                |c| st.centers[c as usize] as usize == p,
                centres,
                || {
                    (0..map.provinces as u16)
                        .filter(|&q| st.centers[q as usize] as usize == p)
                        .collect()
                },
                |c| order.name_rank[c as usize],
            ));
        }
        out
    }
}

/// MILA's Zobrist numbers of one map on the engine's indices (drawn by `diplo.compat.mila.zobrist`,
/// which reproduces MILA's draw): per power, type and location a unit's and a dislodged unit's,
/// per power and province a centre's and a home's; 0 where MILA has none.
#[derive(Clone, Debug, Default)]
pub struct Zobrist {
    pub locations: usize,
    pub units: Vec<u64>,
    pub dislodged: Vec<u64>,
    pub centers: Vec<u64>,
    pub homes: Vec<u64>,
}

impl Zobrist {
    fn unit(&self, table: &[u64], power: usize, e: Entry) -> u64 {
        let at = (power * 2 + usize::from(e.fleet)) * self.locations + e.loc as usize;
        table.get(at).copied().unwrap_or(0)
    }

    fn place(&self, table: &[u64], power: usize, loc: u16) -> u64 {
        table
            .get(power * self.locations + loc as usize)
            .copied()
            .unwrap_or(0)
    }

    /// The hash of a laid-out board and the homes listed per power (`zobrist.hash_of`).
    pub fn hash(&self, board: &Arranged, homes: &[Vec<u16>]) -> u64 {
        let mut value = 0u64;
        for (p, list) in board.units.iter().enumerate() {
            for &e in list {
                value ^= self.unit(&self.units, p, e);
            }
        }
        for (p, list) in board.dislodged.iter().enumerate() {
            for (e, _) in list {
                value ^= self.unit(&self.dislodged, p, *e);
            }
        }
        for (p, list) in board.centers.iter().enumerate() {
            for &c in list {
                value ^= self.place(&self.centers, p, c);
            }
        }
        for (p, list) in homes.iter().enumerate() {
            for &h in list {
                value ^= self.place(&self.homes, p, h);
            }
        }
        value
    }
}
