//! Convoy route search (DATC 5.B.4 PATH).
//!
//! A convoyed army's route works when a chain of fleets links its province to its destination,
//! every fleet of the chain ordered to convoy this very move (the caller passes only those) and
//! not dislodged (the caller's `alive` callback, which is where the resolver's CONVOY decisions
//! are consulted). Links are province level ([`CompiledMap::convoy_link`]): the army's province is
//! linked to a fleet when any of its locations is fleet-adjacent to the fleet; fleets are linked
//! when adjacent; the last fleet is linked to the destination province likewise.
//!
//! Several routes may exist: the move is disrupted only when every route is broken (DATC 4.A.1,
//! 6.F.9-6.F.12). The search is a breadth-first search that asks `alive` lazily, only for fleets
//! reachable from the army through fleets already known to be alive, and stops at the first
//! complete route, so a fleet off every route (6.F.12) is never consulted.
//!
//! With `port_first` (MILA's routes, `Rulings::port_first_only`) a fleet in a port is a link of
//! a chain only as its first fleet, next to the army's province.

use super::map::CompiledMap;

const UNKNOWN: u8 = 0;
const DEAD: u8 = 1;
const REACHED: u8 = 2;

/// Whether some chain of live fleets links province `from` to province `to`.
///
/// `fleet_provs[i]` is the province of candidate fleet `i`; `alive(i)` says whether that fleet
/// carries the army (is not dislodged). `alive` is called at most once per fleet.
pub fn route_exists<F: FnMut(usize) -> bool>(
    map: &CompiledMap,
    from: u16,
    to: u16,
    fleet_provs: &[u16],
    port_first: bool,
    mut alive: F,
) -> bool {
    let n = fleet_provs.len();
    if n == 0 {
        return false;
    }
    // Small fixed buffers on the stack: the search may be re-entered (through `alive`) for
    // another army, so it cannot share a buffer with other searches.
    if n <= 32 {
        let mut state = [UNKNOWN; 32];
        let mut queue = [0u16; 32];
        search(
            map,
            (from, to, port_first),
            fleet_provs,
            &mut state[..n],
            &mut queue[..n],
            &mut alive,
        )
    } else {
        let mut state = vec![UNKNOWN; n];
        let mut queue = vec![0u16; n];
        search(
            map,
            (from, to, port_first),
            fleet_provs,
            &mut state,
            &mut queue,
            &mut alive,
        )
    }
}

fn search<F: FnMut(usize) -> bool>(
    map: &CompiledMap,
    (from, to, port_first): (u16, u16, bool),
    provs: &[u16],
    state: &mut [u8],
    queue: &mut [u16],
    alive: &mut F,
) -> bool {
    let mut len = 0;
    // Seed: fleets linked to the army's province.
    for i in 0..provs.len() {
        if map.convoy_link(from, provs[i]) {
            if alive(i) {
                if map.convoy_link(provs[i], to) {
                    return true;
                }
                state[i] = REACHED;
                queue[len] = i as u16;
                len += 1;
            } else {
                state[i] = DEAD;
            }
        }
    }
    let mut head = 0;
    while head < len {
        let here = provs[queue[head] as usize];
        head += 1;
        for j in 0..provs.len() {
            if state[j] == UNKNOWN
                && map.convoy_link(here, provs[j])
                && !(port_first && map.is_port(provs[j]))
            {
                if alive(j) {
                    if map.convoy_link(provs[j], to) {
                        return true;
                    }
                    state[j] = REACHED;
                    queue[len] = j as u16;
                    len += 1;
                } else {
                    state[j] = DEAD;
                }
            }
        }
    }
    false
}

/// Which candidate fleets lie on some chain linking province `from` to province `to`, whether
/// or not they are dislodged (DATC 4.A.1, 1971: the loss of any of them disrupts the convoy).
/// With `port_first` a port's fleet is on a chain only as its first: walking from the army no
/// port is reached past the first fleets, walking from the destination none is walked past.
pub fn on_routes(
    map: &CompiledMap,
    from: u16,
    to: u16,
    fleet_provs: &[u16],
    port_first: bool,
) -> Vec<bool> {
    let port = |i: usize| port_first && map.is_port(fleet_provs[i]);
    let reach = |start: u16, forward: bool| -> Vec<bool> {
        let n = fleet_provs.len();
        let mut seen = vec![false; n];
        let mut queue: Vec<usize> = Vec::with_capacity(n);
        for i in 0..n {
            if map.convoy_link(start, fleet_provs[i]) {
                seen[i] = true;
                queue.push(i);
            }
        }
        while let Some(i) = queue.pop() {
            if !forward && port(i) {
                continue;
            }
            for j in 0..n {
                if !seen[j]
                    && map.convoy_link(fleet_provs[i], fleet_provs[j])
                    && !(forward && port(j))
                {
                    seen[j] = true;
                    queue.push(j);
                }
            }
        }
        seen
    };
    let forward = reach(from, true);
    let backward = reach(to, false);
    forward
        .iter()
        .zip(&backward)
        .map(|(&f, &b)| f && b)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line of provinces: 0 LAND - 1 S1 - 2 S2 - 3 LAND2, plus 4 S3 linked to 0 and 3 only
    /// (a second route), and 5 S4 linked to 0 only (a dead end, DATC 6.F.12).
    fn line() -> CompiledMap {
        CompiledMap::new(
            vec![0, 1, 2, 3, 4, 5],
            vec![false, true, true, false, true, true],
            vec![vec![], vec![], vec![], vec![], vec![], vec![]],
            vec![
                vec![1, 4, 5],
                vec![0, 2],
                vec![1, 3],
                vec![2, 4],
                vec![0, 3],
                vec![0],
            ],
        )
        .unwrap()
    }

    #[test]
    fn single_chain_needs_every_fleet() {
        let m = line();
        assert!(route_exists(&m, 0, 3, &[1, 2], false, |_| true));
        assert!(!route_exists(&m, 0, 3, &[1, 2], false, |i| i != 1));
        assert!(!route_exists(&m, 0, 3, &[1], false, |_| true));
        assert!(!route_exists(&m, 0, 3, &[], false, |_| true));
    }

    #[test]
    fn multi_route_fails_only_when_all_routes_break() {
        // DATC 4.A.1 / 6.F.9: one route broken, the other works.
        let m = line();
        assert!(route_exists(&m, 0, 3, &[1, 2, 4], false, |i| i != 0));
        assert!(route_exists(&m, 0, 3, &[1, 2, 4], false, |i| i != 2));
        assert!(!route_exists(&m, 0, 3, &[1, 2, 4], false, |i| i == 1));
    }

    #[test]
    fn fleet_off_route_is_never_asked() {
        // DATC 6.F.12: the dead-end fleet does not matter, and is not consulted once a route is
        // complete without it.
        let m = line();
        let mut asked = Vec::new();
        assert!(route_exists(&m, 0, 3, &[4, 5], false, |i| {
            asked.push(i);
            i == 0
        }));
        assert_eq!(asked, vec![0]);
        let mut asked = Vec::new();
        assert!(!route_exists(&m, 0, 2, &[5], false, |i| {
            asked.push(i);
            true
        }));
        assert_eq!(asked, vec![0]);
    }

    #[test]
    fn fleets_on_some_route() {
        // Both routes' fleets are on a route; the dead end (DATC 6.F.12) is not.
        let m = line();
        assert_eq!(
            on_routes(&m, 0, 3, &[1, 2, 4, 5], false),
            vec![true, true, true, false]
        );
        assert_eq!(on_routes(&m, 0, 3, &[1], false), vec![false]);
    }

    #[test]
    fn many_fleets_use_the_heap_buffers() {
        // 40 candidates all in province 4 (the check is only about the buffer path).
        let m = line();
        let provs = vec![4u16; 40];
        assert!(route_exists(&m, 0, 3, &provs, false, |i| i == 39));
        assert!(!route_exists(&m, 0, 3, &provs, false, |_| false));
    }

    #[test]
    fn a_port_links_a_chain_only_first_under_port_first() {
        // 0 LAND - 1 S1 - 2 PORT - 3 LAND2: MILA carries 3 to 0 (the port first), not 0 to 3.
        let m = CompiledMap::new(
            vec![0, 1, 2, 3],
            vec![false, true, false, false],
            vec![vec![], vec![], vec![], vec![]],
            vec![vec![1], vec![0, 2], vec![1, 3], vec![2]],
        )
        .unwrap()
        .with_ports(&[2])
        .unwrap();
        assert!(route_exists(&m, 0, 3, &[1, 2], false, |_| true));
        assert!(!route_exists(&m, 0, 3, &[1, 2], true, |_| true));
        assert!(route_exists(&m, 3, 0, &[2, 1], true, |_| true));
        assert_eq!(on_routes(&m, 0, 3, &[1, 2], true), vec![false, false]);
        assert_eq!(on_routes(&m, 3, 0, &[2, 1], true), vec![true, true]);
        assert_eq!(on_routes(&m, 0, 3, &[1, 2], false), vec![true, true]);
    }
}
