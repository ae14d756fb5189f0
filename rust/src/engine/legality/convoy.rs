//! The convoy walk: the seas on some minimal route of every army a convoy could carry.
//!
//! On a map whose seas form at most `MAX_SEA_CHAINS` chains ([`GameMap::exact_routes`]) every
//! minimal route is walked. On a map with more (a grid of seas has millions) a fleet may convoy
//! when it lies on a *shortest* chain between a pair of end seas (a first sea touching the
//! army's province and not the destination, a last touching the destination and not the army's
//! province) through seas touching neither end, or alone touches both: breadth-first layers
//! from either end, the rule of `diplo.reference.convoys` (its module documentation), so both
//! engines list the same orders on every map.

use super::*;

impl<M: Mask> Legal<M> {
    /// For every army a convoy could carry: per destination, the seas on some minimal route
    /// (the definition of `diplo.reference.convoys.route_fleets`: an induced chain of fleet seas, only its
    /// first touching the army's province and only its last the destination). Afterwards
    /// `routes` lists them by army province, then destination province (the lists' order).
    pub(super) fn ensure_routes(&mut self, map: &GameMap<M>, st: &State<M>) {
        if self.routes_ready {
            return;
        }
        self.routes_ready = true;
        for a in Bits(self.tables.occupied & !self.tables.afloat & map.shores & !self.routed) {
            if self.tables.by_sea[a].is_zero() {
                // No fleet could carry it: no route (as `army_routes` finds).
                self.routed |= M::bit(a);
                self.route_span[a] = Span { start: 0, len: 0 };
            } else {
                self.army_routes(map, st, a);
            }
        }
        if !self.routes_sorted {
            // Some armies were walked first, for a check: put every army's routes in order.
            self.routes.sort_unstable_by_key(|r| (r.army, r.dst));
            self.routes_sorted = true;
            for a in Bits(self.routed) {
                self.route_span[a] = Span { start: 0, len: 0 };
            }
            let mut i = 0;
            while i < self.routes.len() {
                let army = self.routes[i].army;
                let start = i;
                while i < self.routes.len() && self.routes[i].army == army {
                    i += 1;
                }
                self.route_span[army as usize] = Span {
                    start: start as u32,
                    len: (i - start) as u32,
                };
            }
        }
    }

    /// The routes of the army in province `a` (none unless a convoy could carry an army
    /// there), as a span of `routes`: walked on first need, once per state.
    #[inline]
    pub(super) fn army_routes(&mut self, map: &GameMap<M>, st: &State<M>, a: usize) -> Span {
        if has(self.routed, a) {
            return self.route_span[a];
        }
        self.routed |= M::bit(a);
        let start = self.routes.len();
        let u = st.units[a];
        if u.is_some() && !u.fleet && !self.tables.by_sea[a].is_zero() && has(map.shores, a) {
            if start > 0 && self.routes[start - 1].army as usize > a {
                self.routes_sorted = false;
            }
            if st.rules.resolver.convoy_any_chain {
                // godip: every fleet that may convoy, to every shore a chain reaches.
                for d in Bits(self.tables.by_sea[a]) {
                    self.routes.push(Route {
                        army: a as u16,
                        dst: d as u16,
                        seas: self.tables.fleets,
                    });
                }
            } else if map.exact_routes {
                self.walk_routes(map, a);
            } else {
                self.shortest_routes(map, a);
            }
        }
        let span = Span {
            start: start as u32,
            len: (self.routes.len() - start) as u32,
        };
        self.route_span[a] = span;
        span
    }

    /// Every minimal route of the army in `a`, walked (module documentation).
    fn walk_routes(&mut self, map: &GameMap<M>, a: usize) {
        let fleets = self.tables.fleets;
        let src_seas = map.shore_seas[a] & fleets;
        let mut found = M::ZERO;
        for first in Bits(src_seas) {
            walk(
                map,
                fleets & !self.tables.barred,
                src_seas,
                Step {
                    path: M::bit(first),
                    last: first,
                    blocked: M::bit(first),
                    touched: M::bit(a),
                },
                &mut self.steps,
                &mut self.useful,
                &mut found,
            );
        }
        for d in Bits(found) {
            self.routes.push(Route {
                army: a as u16,
                dst: d as u16,
                seas: self.useful[d],
            });
            self.useful[d] = M::ZERO;
        }
    }

    /// The routes of the army in `a` on a map with too many chains to walk (module
    /// documentation).
    fn shortest_routes(&mut self, map: &GameMap<M>, a: usize) {
        // (a barred port only as a first fleet: never passed on to, never ending a chain)
        let first = map.shore_seas[a] & self.tables.fleets;
        let fleets = self.tables.fleets & !self.tables.barred;
        let mut from_a: Vec<M> = Vec::new();
        let mut from_b: Vec<M> = Vec::new();
        let reached = layers(map, fleets, first, fleets, &mut from_a);
        let dests = Bits(reached).fold(M::ZERO, |m, s| m | map.sea_shores[s]) & !M::bit(a);
        for d in Bits(dests) {
            let last = map.shore_seas[d] & (fleets | first);
            let seas = shortest_chain_seas(map, fleets, first, last, &mut from_a, &mut from_b);
            if !seas.is_zero() {
                self.routes.push(Route {
                    army: a as u16,
                    dst: d as u16,
                    seas,
                });
            }
        }
    }
}

/// Breadth-first layers from the seas `start` over the seas of `allowed` (each next to one
/// of the layer before, along links between fleets): `out[k]` the seas first reached in `k`
/// steps (`out[0]` is `start`, which need not lie in `allowed`). Returns every sea reached.
fn layers<M: Mask>(map: &GameMap<M>, fleets: M, start: M, allowed: M, out: &mut Vec<M>) -> M {
    out.clear();
    out.push(start);
    let mut seen = start;
    let mut frontier = start;
    while !frontier.is_zero() {
        let next =
            Bits(frontier).fold(M::ZERO, |m, s| m | map.sea_adj[s]) & fleets & allowed & !seen;
        if next.is_zero() {
            break;
        }
        seen |= next;
        out.push(next);
        frontier = next;
    }
    seen
}

/// The fleets of `fleets` on a shortest chain between a pair of end seas, for an army whose
/// province touches the fleets `first` and a destination touching `last` (with the seas
/// touching both): `ConvoyTable._compute_necessary` of the reference.
fn shortest_chain_seas<M: Mask>(
    map: &GameMap<M>,
    fleets: M,
    first: M,
    last: M,
    from_a: &mut Vec<M>,
    from_b: &mut Vec<M>,
) -> M {
    let mut useful = first & last;
    let starts = first & !last;
    let ends = last & !first;
    if starts.is_zero() || ends.is_zero() {
        return useful;
    }
    let corridor = fleets & !first & !last;
    for sa in Bits(starts) {
        layers(map, fleets, M::bit(sa), corridor, from_a);
        for b in Bits(ends) {
            let b_adj = map.sea_adj[b] & fleets;
            if b_adj.has(sa) {
                useful |= M::bit(sa) | M::bit(b);
                continue;
            }
            // The nearest layer of the corridor next to `b`: the chain has that many steps and one.
            let Some(k) = (1..from_a.len()).find(|&k| !(from_a[k] & b_adj).is_zero()) else {
                continue;
            };
            let length = k + 1;
            layers(map, fleets, M::bit(b), corridor, from_b);
            useful |= M::bit(sa) | M::bit(b);
            for i in 1..=k {
                if let (Some(&x), Some(&y)) = (from_a.get(i), from_b.get(length - i)) {
                    useful |= x & y;
                }
            }
        }
    }
    useful
}

/// One step of the minimal-route walk: the seas so far, the last, the seas no later step may
/// use (neighbours of earlier seas: a chord would make a shorter route) and the shores touched
/// before `last` (with the army's own province).
#[derive(Clone, Copy)]
pub(super) struct Step<M> {
    path: M,
    last: usize,
    blocked: M,
    touched: M,
}

/// Every minimal route from the army's seas `src_seas` that starts with `start`: marks in
/// `useful` (per destination) the seas on such routes, and in `found` the destinations. An
/// explicit stack (`stack`, a reusable buffer), not recursion: a chain of a thousand seas is as
/// safe as a chain of three.
fn walk<M: Mask>(
    map: &GameMap<M>,
    fleets: M,
    src_seas: M,
    start: Step<M>,
    stack: &mut Vec<Step<M>>,
    useful: &mut M::Table<M>,
    found: &mut M,
) {
    stack.clear();
    stack.push(start);
    while let Some(s) = stack.pop() {
        let shores = map.sea_shores[s.last];
        let ends = shores & !s.touched;
        for d in Bits(ends) {
            useful[d] |= s.path;
        }
        *found |= ends;
        let touched = s.touched | shores;
        let adj = map.sea_adj[s.last] & fleets;
        let blocked = s.blocked | adj;
        for next in Bits(adj & !s.blocked & !src_seas & !s.path) {
            stack.push(Step {
                path: s.path | M::bit(next),
                last: next,
                blocked,
                touched,
            });
        }
    }
}
