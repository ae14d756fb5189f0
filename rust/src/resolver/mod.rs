//! The movement resolver: one movement phase of already validated orders, adjudicated by
//! Kruijswijk's guess algorithm with the backup rule (DATC chapter 5).
//!
//! * [`map`] — [`CompiledMap`], the map as integers and bit matrices.
//! * [`orders`] — [`Unit`], [`Order`] and their encoding.
//! * [`convoy`] — convoy route search.
//! * `strength` — hold, attack, defend and prevent strengths.
//! * [`adjudicator`] — the decisions and the guess algorithm ([`Adjudicator`]).
//! * `retreat` — contested provinces and retreat options.
//! * [`outcome`] — [`MovementOutcome`] and the result codes.

pub mod adjudicator;
pub mod convoy;
pub mod map;
pub mod orders;
pub mod outcome;
mod retreat;
mod strength;

pub use adjudicator::Adjudicator;

/// How an army ordered to a neighbouring province comes to go by convoy (DATC 4.A.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AdjacentConvoy {
    /// "Via convoy", or a fleet of its own power ordered to convoy it; no land fallback (1982,
    /// 2000, 2023; the DATC v3.0 preference).
    #[default]
    Intent,
    /// Only "via convoy" (the DPTG).
    Explicit,
    /// Any fleet's convoy, but only when the destination's unit moves the opposite way (1971).
    Opposite,
}

/// When a convoy with several routes is disrupted (DATC 4.A.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ConvoyDisruption {
    /// When every route is broken (1982 onwards).
    #[default]
    AllRoutes,
    /// When any route is broken (1971).
    AnyRoute,
}

/// The convoy paradox rule (DATC 4.A.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Paradox {
    /// Szykman's: the convoying fleets of a paradox do not convoy (the DATC's preference).
    #[default]
    Szykman,
    /// 1971: a convoyed army does not cut the support of a fleet attacking one of its convoying
    /// fleets (Szykman's rule where that gives no answer).
    Rule1971,
    /// 1982: a convoyed army does not cut a support of an action in a sea holding a convoying
    /// fleet (Szykman's rule where that gives no answer).
    Rule1982,
    /// The 2000 and 2023 rulebooks' text: a convoyed army does not cut the support of an attack
    /// on a fleet that every route of it needs (Szykman's rule where that gives no answer).
    Rule2000,
}

/// When an army with convoy intent to a neighbouring province moves overland instead (DATC
/// 4.A.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ConvoyFallback {
    /// Never (DATC 4.A.3 v3.0, 6.G.8, 6.G.20).
    #[default]
    Never,
    /// MILA's (and 1971's reading of 6.G.4): when its convoy orders form no route, or (not
    /// ordered "via convoy") when its convoy is disrupted.
    Land,
    /// godip's (`MustConvoy`, DATC v2.4's 6.G.8): only an army ordered "via convoy" whose convoy
    /// orders form no route.
    Via,
    /// dipcc's (`via_adj` in `process_m` and `_disable_convoy_fleet`): an army ordered "via
    /// convoy" whenever its convoy does not carry it: its convoy orders form no route, or its
    /// convoy is disrupted or stopped by a paradox.
    ViaAlways,
}

/// The rulebook choices the movement resolver reads, set from the game's rules
/// (`crate::engine::rules::Rules`, which decides them per edition); the default is today's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rulings {
    pub adjacent_convoy: AdjacentConvoy,
    pub convoy_disruption: ConvoyDisruption,
    pub paradox: Paradox,
    /// The land fallback ([`ConvoyFallback`]).
    pub convoy_fallback: ConvoyFallback,
    /// MILA: a fleet's move support counts whatever coast it names (off: the coast must match,
    /// 6.B.9).
    pub support_coast_ignored: bool,
    /// MILA: a power's support of an attack on its own unit counts when the attack is convoyed
    /// "via convoy" or beyond the army's neighbours (off: 6.D.12).
    pub own_support_of_convoyed: bool,
    /// MILA: in a head-to-head battle a power's support of the attack on its own unit gives
    /// that attack no defence either, unless both moves have as many supports (off: it counts
    /// for all but dislodging, DATC 6.E.12).
    pub head_to_head_own_support_void: bool,
    /// MILA: a convoyed attack comes from its convoying sea, so it does not cut a support to
    /// hold a fleet every route of it needs (off: it comes from the army's province, 4.A.4).
    pub attack_from_sea: bool,
    /// MILA: a unit dislodged by a convoyed attack lists every place it could move to among
    /// its retreat options, occupied provinces and standoffs included (a retreat never goes
    /// where a unit stands). Off: only vacant provinces no standoff left empty (DATC 6.H.6).
    pub retreat_any_after_convoy: bool,
    /// MILA (`Game._check_disruptions`): a convoying fleet stops convoying when a foreign
    /// attack on it beats its opposition counting every support, those of the fleet's own
    /// power included, though such an attack does not dislodge it. Off: only a dislodged fleet
    /// breaks its convoy (DATC 5.B.3, 6.D.12).
    pub convoy_any_support: bool,
    /// MILA (`utils/convoy_paths.py`, `_get_convoy_paths`): a fleet in a port carries an army
    /// only as the first fleet of its chain (a port reached from a sea is a destination). Off:
    /// anywhere in the chain, as a fleet at sea.
    pub port_first_only: bool,
    /// godip (`orders/convoy.go`, `MustConvoy` with `ViaNation`; `convoy_chains="any_fleets"`): a
    /// convoy order by a fleet of the army's power shows the intent to go by convoy only when
    /// chains of any fleets on the board join the army to that fleet and that fleet to the
    /// destination; and (the legal orders) a fleet at sea may convoy an army wherever any chain
    /// of fleets carries it. Off: a fleet on a route of the army (DATC 6.G.19, 4.E.1).
    pub convoy_any_chain: bool,
}
pub use map::CompiledMap;
pub use orders::{Order, Unit};
pub use outcome::{code, MovementOutcome};

/// Boards up to this many units are resolved on the caller's stack; larger ones (never seen on a
/// standard board, which has at most 34 units) on a helper thread with a stack sized for the
/// recursion depth, which grows with the number of decisions. An unoptimised (debug) build's
/// frames are several times larger, so there the helper thread takes over sooner: a chain of 255
/// moves overflowed a 128 KiB stack in `cargo test` (`rust/tests/wide.rs`) but not in release.
const INLINE_UNITS: usize = if cfg!(debug_assertions) { 64 } else { 256 };

/// Resolves one movement phase. `orders[i]` is the order of `units[i]`.
///
/// Errors (as a message naming the problem) on input that cannot be encoded: index out of range,
/// two units in one province, length mismatch, an order no unit could be given.
pub fn resolve_movement(
    map: &CompiledMap,
    units: &[Unit],
    orders: &[Order],
) -> Result<MovementOutcome, String> {
    let mut adj = Adjudicator::new(map);
    let mut out = MovementOutcome::default();
    resolve_with(&mut adj, units, orders, &mut out).map(|()| out)
}

/// [`Adjudicator::resolve_into`] with the stack the recursion needs: on the caller's stack up to
/// [`INLINE_UNITS`] units, beyond that on a helper thread whose stack grows with the number of
/// units, so that no board (a chain of a thousand moves included) overflows a thread's stack.
pub fn resolve_with(
    adj: &mut Adjudicator<'_>,
    units: &[Unit],
    orders: &[Order],
    out: &mut MovementOutcome,
) -> Result<(), String> {
    if units.len() <= INLINE_UNITS {
        return adj.resolve_into(units, orders, out);
    }
    let stack = (1 << 20) + units.len() * (16 << 10);
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .stack_size(stack)
            .spawn_scoped(scope, || adj.resolve_into(units, orders, out))
            .map_err(|e| format!("cannot start the resolver thread: {e}"))?;
        match handle.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}
