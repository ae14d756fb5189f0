//! The hot path allocates nothing: once an `Adjudicator` and a `MovementOutcome` have grown to
//! the size of the board, resolving further phases does not touch the heap.

mod counting;
mod kit;

use diplo_core::{Adjudicator, MovementOutcome};
use kit::World;

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

#[test]
fn resolving_again_does_not_allocate() {
    let w = World::standard();
    // Circular movement, a convoy paradox with its Szykman restart, bounces, a dislodgement with
    // retreat options, and a contested province: every path of the resolver and the outcome.
    let phases: Vec<_> = [
        &[
            ("T", "F ANK - CON"),
            ("T", "A CON - SMY"),
            ("T", "A SMY - ANK"),
            ("E", "F LON S F WAL - ENG"),
            ("E", "F WAL - ENG"),
            ("F", "A BRE - LON"),
            ("F", "F ENG C A BRE - LON"),
            ("G", "F NTH S F BEL - ENG"),
            ("G", "F BEL - ENG"),
            ("A", "A BUD S A TRI - VIE"),
            ("A", "A TRI - VIE"),
            ("G", "A MUN - BOH"),
            ("R", "A SIL - BOH"),
            ("I", "A VIE H"),
        ][..],
        &[
            ("E", "F EDI - NTH"),
            ("E", "F LON S F EDI - NTH"),
            ("F", "A BRE - LON"),
            ("F", "F ENG C A BRE - LON"),
            ("G", "F BEL S F PIC - ENG"),
            ("G", "F PIC - ENG"),
            ("R", "A NWY - BEL"),
            ("R", "F NTH C A NWY - BEL"),
        ][..],
    ]
    .iter()
    .map(|orders| w.encode(orders))
    .collect();
    let mut adj = Adjudicator::new(&w.map);
    let mut out = MovementOutcome::default();
    // Warm up: the buffers grow to the largest board.
    for (units, orders) in &phases {
        adj.resolve_into(units, orders, &mut out).unwrap();
    }
    let ((), allocations) = counting::count(|| {
        for _ in 0..10 {
            for (units, orders) in &phases {
                adj.resolve_into(units, orders, &mut out).unwrap();
            }
        }
    });
    assert_eq!(allocations, 0, "allocations on the hot path");
    assert!(!out.szykman.is_empty());
}

/// The counter itself works: an allocation inside `count` is seen (so a zero above means zero).
#[test]
fn the_counter_sees_an_allocation() {
    let (v, allocations) = counting::count(|| Vec::<u64>::with_capacity(8));
    assert_eq!(v.capacity(), 8);
    assert_eq!(allocations, 1);
}
