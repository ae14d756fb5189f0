//! The convoy walk: the seas on some minimal route of every army a convoy could carry.

use super::*;

impl<M: Mask> Legal<M> {
    /// For every army a convoy could carry: per destination, the seas on some minimal route
    /// (the definition of `diplo.reference.convoys.route_fleets`: an induced chain of fleet seas, only its
    /// first touching the army's province and only its last the destination).
    pub(super) fn ensure_routes(&mut self, map: &GameMap<M>, st: &State<M>) {
        if self.routes_ready {
            return;
        }
        self.routes_ready = true;
        self.routes.clear();
        let fleets = self.tables.fleets;
        for a in Bits(self.tables.occupied & map.shores) {
            if st.units[a].fleet || self.tables.by_sea[a].is_zero() {
                continue;
            }
            let src_seas = map.shore_seas[a] & fleets;
            let mut found = M::ZERO;
            for first in Bits(src_seas) {
                walk(
                    map,
                    fleets,
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
    }
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
