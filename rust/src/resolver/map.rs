//! The compiled map: provinces, locations and adjacency as small integers.
//!
//! Locations are numbered as `diplo.model.map.Map.locations`: provinces first (`0..P`), then every coast
//! location (`P..L`). `loc_province[loc]` is the province of a location (identity below `P`).
//! Everything the resolver asks in its inner loops (is this army move adjacent, can this fleet
//! reach that location, are these two provinces linked for a convoy chain) is a bit lookup in a
//! dense matrix built once here.

/// A dense square bit matrix: `get(r, c)` is one shift and one mask.
#[derive(Clone, Debug)]
struct BitMatrix {
    words_per_row: usize,
    bits: Vec<u64>,
}

impl BitMatrix {
    fn new(size: usize) -> Self {
        let words_per_row = size.div_ceil(64).max(1);
        BitMatrix {
            words_per_row,
            bits: vec![0; words_per_row * size],
        }
    }

    #[inline]
    fn get(&self, r: usize, c: usize) -> bool {
        (self.bits[r * self.words_per_row + c / 64] >> (c % 64)) & 1 == 1
    }

    fn set(&mut self, r: usize, c: usize) {
        self.bits[r * self.words_per_row + c / 64] |= 1 << (c % 64);
    }
}

/// One map, compiled for the resolver. Immutable once built; share it between threads freely.
#[derive(Clone, Debug)]
pub struct CompiledMap {
    loc_province: Vec<u16>,
    province_is_sea: Vec<bool>,
    /// Ports: coastal provinces whose fleets may convoy ([`CompiledMap::with_ports`]).
    province_is_port: Vec<bool>,
    province_has_coasts: Vec<bool>,
    army_adj: Vec<Vec<u16>>,
    fleet_adj: Vec<Vec<u16>>,
    /// P x P: army may move between the provinces.
    army_matrix: BitMatrix,
    /// L x L: fleet may move between the locations.
    fleet_matrix: BitMatrix,
    /// P x P: some location of one province is fleet-adjacent to some location of the other.
    /// This is the link of a convoy chain (army province to sea, sea to sea, sea to destination).
    convoy_link: BitMatrix,
}

/// The largest number of locations: `u16::MAX` itself is the resolver's "no unit" marker.
pub const MAX_LOCATIONS: usize = u16::MAX as usize;

impl CompiledMap {
    /// Checks and compiles a map.
    ///
    /// * `loc_province` — one entry per location, its province (identity for provinces).
    /// * `province_is_sea` — one entry per province; its length is the number of provinces `P`.
    /// * `army_adj` — per province, the provinces an army there can move to.
    /// * `fleet_adj` — per location, the locations a fleet there can move to.
    ///
    /// Rejects indices out of range, self-referencing edges, army edges touching a sea, and fleet
    /// edges touching a bare split-coast province (a fleet there stands on a coast). An edge
    /// listed one way only is a one-way edge: units cross it that way, convoys never.
    pub fn new(
        loc_province: Vec<u16>,
        province_is_sea: Vec<bool>,
        army_adj: Vec<Vec<u16>>,
        fleet_adj: Vec<Vec<u16>>,
    ) -> Result<CompiledMap, String> {
        let p = province_is_sea.len();
        let l = loc_province.len();
        if l < p {
            return Err(format!(
                "loc_province has {l} entries but there are {p} provinces (it needs one per location)"
            ));
        }
        if l > MAX_LOCATIONS {
            return Err(format!("too many locations: {l} (at most {MAX_LOCATIONS})"));
        }
        let mut province_has_coasts = vec![false; p];
        for (loc, &prov) in loc_province.iter().enumerate() {
            let prov = prov as usize;
            if loc < p {
                if prov != loc {
                    return Err(format!(
                        "loc_province[{loc}] is {prov}: a province's location must map to itself"
                    ));
                }
            } else {
                if prov >= p {
                    return Err(format!(
                        "loc_province[{loc}] is {prov}, not a province (there are {p})"
                    ));
                }
                if province_is_sea[prov] {
                    return Err(format!(
                        "coast location {loc} belongs to sea province {prov}"
                    ));
                }
                province_has_coasts[prov] = true;
            }
        }
        if army_adj.len() != p {
            return Err(format!(
                "army_adj has {} entries, expected one per province ({p})",
                army_adj.len()
            ));
        }
        if fleet_adj.len() != l {
            return Err(format!(
                "fleet_adj has {} entries, expected one per location ({l})",
                fleet_adj.len()
            ));
        }

        let mut army_matrix = BitMatrix::new(p);
        let mut army_lists = Vec::with_capacity(p);
        for (a, list) in army_adj.iter().enumerate() {
            let mut sorted = Vec::with_capacity(list.len());
            for &b in list {
                let b = b as usize;
                if b >= p {
                    return Err(format!(
                        "army_adj[{a}] names {b}, not a province (there are {p})"
                    ));
                }
                if b == a {
                    return Err(format!("army_adj[{a}] names province {a} itself"));
                }
                if province_is_sea[a] || province_is_sea[b] {
                    return Err(format!("army edge {a}-{b} touches a sea province"));
                }
                army_matrix.set(a, b);
                sorted.push(b as u16);
            }
            sorted.sort_unstable();
            sorted.dedup();
            army_lists.push(sorted);
        }

        let mut fleet_matrix = BitMatrix::new(l);
        let mut convoy_link = BitMatrix::new(p);
        let mut fleet_lists = Vec::with_capacity(l);
        for (a, list) in fleet_adj.iter().enumerate() {
            let mut sorted = Vec::with_capacity(list.len());
            for &b in list {
                let b = b as usize;
                if b >= l {
                    return Err(format!(
                        "fleet_adj[{a}] names {b}, not a location (there are {l})"
                    ));
                }
                let (pa, pb) = (loc_province[a] as usize, loc_province[b] as usize);
                if pa == pb {
                    return Err(format!(
                        "fleet edge {a}-{b} joins two locations of province {pa}"
                    ));
                }
                for end in [a, b] {
                    if end < p && province_has_coasts[end] {
                        return Err(format!(
                            "fleet edge {a}-{b} touches bare split-coast province {end} \
                             (use one of its coast locations)"
                        ));
                    }
                }
                fleet_matrix.set(a, b);
                sorted.push(b as u16);
            }
            sorted.sort_unstable();
            sorted.dedup();
            fleet_lists.push(sorted);
        }
        // A convoy runs along edges a fleet may cross both ways: a one-way edge (godip's
        // northseawars) carries no army (`diplo.model.map.Map.convoy_links`).
        for (a, list) in fleet_lists.iter().enumerate() {
            for &b in list {
                if fleet_matrix.get(b as usize, a) {
                    convoy_link.set(loc_province[a] as usize, loc_province[b as usize] as usize);
                }
            }
        }

        Ok(CompiledMap {
            loc_province,
            province_is_sea,
            province_has_coasts,
            army_adj: army_lists,
            fleet_adj: fleet_lists,
            army_matrix,
            fleet_matrix,
            convoy_link,
            province_is_port: vec![false; p],
        })
    }

    /// The same map with the ports `ports` (coastal provinces whose fleets may convoy, as a
    /// fleet at sea does).
    pub fn with_ports(mut self, ports: &[u16]) -> Result<CompiledMap, String> {
        for &q in ports {
            let q = q as usize;
            if q >= self.num_provinces() || self.province_is_sea[q] {
                return Err(format!("port {q} is not a coastal province"));
            }
            self.province_is_port[q] = true;
        }
        Ok(self)
    }

    /// Number of provinces `P`.
    #[inline]
    pub fn num_provinces(&self) -> usize {
        self.province_is_sea.len()
    }

    /// Number of locations `L` (provinces and coasts).
    #[inline]
    pub fn num_locations(&self) -> usize {
        self.loc_province.len()
    }

    /// The province of a location.
    #[inline]
    pub fn province_of(&self, loc: u16) -> u16 {
        self.loc_province[loc as usize]
    }

    #[inline]
    pub fn is_sea(&self, prov: u16) -> bool {
        self.province_is_sea[prov as usize]
    }

    /// Whether a fleet in the province may convoy: a sea or a port.
    #[inline]
    pub fn may_convoy(&self, prov: u16) -> bool {
        self.province_is_sea[prov as usize] || self.province_is_port[prov as usize]
    }

    /// Whether the province is a port ([`CompiledMap::with_ports`]).
    #[inline]
    pub fn is_port(&self, prov: u16) -> bool {
        self.province_is_port[prov as usize]
    }

    /// Whether the province has coast locations (a fleet there must stand on one of them).
    #[inline]
    pub fn has_coasts(&self, prov: u16) -> bool {
        self.province_has_coasts[prov as usize]
    }

    /// Army move between two provinces.
    #[inline]
    pub fn army_adjacent(&self, a: u16, b: u16) -> bool {
        self.army_matrix.get(a as usize, b as usize)
    }

    /// Fleet move between two exact locations.
    #[inline]
    pub fn fleet_adjacent(&self, a: u16, b: u16) -> bool {
        self.fleet_matrix.get(a as usize, b as usize)
    }

    /// Province-level fleet link used by convoy chains: some location of `a` is fleet-adjacent to
    /// some location of `b`.
    #[inline]
    pub fn convoy_link(&self, a: u16, b: u16) -> bool {
        self.convoy_link.get(a as usize, b as usize)
    }

    /// Provinces an army in `prov` can move to, sorted.
    #[inline]
    pub fn army_neighbours(&self, prov: u16) -> &[u16] {
        &self.army_adj[prov as usize]
    }

    /// Locations a fleet at `loc` can move to, sorted.
    #[inline]
    pub fn fleet_neighbours(&self, loc: u16) -> &[u16] {
        &self.fleet_adj[loc as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 0 LAND (inland), 1 COAST, 2 SEA, 3 SPLIT (coasts 5 = north, 6 = south), 4 SEA2.
    fn tiny() -> Result<CompiledMap, String> {
        CompiledMap::new(
            vec![0, 1, 2, 3, 4, 3, 3],
            vec![false, false, true, false, true],
            vec![vec![1, 3], vec![0, 3], vec![], vec![0, 1], vec![]],
            vec![
                vec![],
                vec![2, 5],
                vec![1, 5, 4],
                vec![],
                vec![2, 6],
                vec![1, 2],
                vec![4],
            ],
        )
    }

    #[test]
    fn compiles_and_answers_adjacency() {
        let m = tiny().unwrap();
        assert_eq!(m.num_provinces(), 5);
        assert_eq!(m.num_locations(), 7);
        assert!(m.army_adjacent(0, 1) && m.army_adjacent(1, 0));
        assert!(!m.army_adjacent(0, 2));
        assert!(m.fleet_adjacent(1, 5) && !m.fleet_adjacent(1, 6));
        assert_eq!(m.province_of(5), 3);
        assert!(m.has_coasts(3) && !m.has_coasts(1));
        // Province level: SPLIT touches SEA (north coast) and SEA2 (south coast).
        assert!(m.convoy_link(3, 2) && m.convoy_link(3, 4) && m.convoy_link(2, 4));
        assert!(!m.convoy_link(1, 4));
        assert_eq!(m.fleet_neighbours(2), &[1, 4, 5]);
    }

    #[test]
    fn rejects_bad_maps() {
        // A one-way army edge is taken: the army crosses it one way only.
        let m = CompiledMap::new(
            vec![0, 1],
            vec![false; 2],
            vec![vec![1], vec![]],
            vec![vec![], vec![]],
        )
        .unwrap();
        assert!(m.army_neighbours(0) == [1] && m.army_neighbours(1).is_empty());
        // Out of range.
        let e = CompiledMap::new(
            vec![0, 1],
            vec![false; 2],
            vec![vec![5], vec![]],
            vec![vec![], vec![]],
        )
        .unwrap_err();
        assert!(e.contains("not a province"), "{e}");
        // Army edge into a sea.
        let e = CompiledMap::new(
            vec![0, 1],
            vec![false, true],
            vec![vec![1], vec![0]],
            vec![vec![], vec![]],
        )
        .unwrap_err();
        assert!(e.contains("sea"), "{e}");
        // Fleet edge at a bare split-coast province.
        let e = CompiledMap::new(
            vec![0, 1, 1],
            vec![true, false],
            vec![vec![], vec![]],
            vec![vec![1], vec![0], vec![]],
        )
        .unwrap_err();
        assert!(e.contains("split-coast"), "{e}");
        // Province location not mapping to itself.
        let e = CompiledMap::new(
            vec![1, 1],
            vec![false; 2],
            vec![vec![], vec![]],
            vec![vec![], vec![]],
        )
        .unwrap_err();
        assert!(e.contains("itself"), "{e}");
        // Wrong list lengths.
        assert!(CompiledMap::new(vec![0], vec![false], vec![], vec![vec![]]).is_err());
        assert!(CompiledMap::new(vec![0], vec![false], vec![vec![]], vec![]).is_err());
    }
}
