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
pub use map::CompiledMap;
pub use orders::{Order, Unit};
pub use outcome::{code, MovementOutcome};

/// Boards up to this many units are resolved on the caller's stack; larger ones (never seen on a
/// standard board, which has at most 34 units) on a helper thread with a stack sized for the
/// recursion depth, which grows with the number of decisions.
const INLINE_UNITS: usize = 256;

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
