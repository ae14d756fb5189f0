//! The code path's hot path allocates nothing: once a thread's buffers have grown, processing
//! games (cloned or not) and listing their legal orders does not touch the heap.

mod counting;
mod kit;

use diplo_core::engine::{Game, Outcome};
use kit::Kit;

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

/// Plays one phase of every game with the `pick`-th legal order of each slot, its results into
/// the game's outcome (as a bot keeping one per game does) or dropped; returns the number of
/// slots seen.
fn step(games: &mut [(Game<u128>, Outcome)], pick: usize) -> usize {
    let mut seen = 0;
    for (g, out) in games.iter_mut() {
        if g.over {
            continue;
        }
        let mut orders = std::mem::take(&mut g.orders);
        orders.clear();
        g.with_legal(|legal, slots| {
            seen += slots.len();
            for s in slots {
                let codes = legal.codes_of(s);
                orders.push(codes[pick % codes.len()]);
            }
        });
        g.orders = orders;
        // Results kept (a bot's outcome per game) or dropped (the thread's spare outcome).
        if pick.is_multiple_of(2) {
            g.process_into(out).unwrap();
        } else {
            g.process().unwrap();
        }
    }
    seen
}

#[test]
fn processing_again_does_not_allocate() {
    let k = Kit::standard();
    let mut units = Vec::new();
    for (p, u) in [
        ("AUSTRIA", "A VIE"),
        ("AUSTRIA", "A BUD"),
        ("AUSTRIA", "F TRI"),
        ("ENGLAND", "F LON"),
        ("ENGLAND", "F EDI"),
        ("ENGLAND", "A LVP"),
        ("FRANCE", "F BRE"),
        ("FRANCE", "A PAR"),
        ("FRANCE", "A MAR"),
        ("GERMANY", "F KIE"),
        ("GERMANY", "A BER"),
        ("GERMANY", "A MUN"),
        ("ITALY", "F NAP"),
        ("ITALY", "A ROM"),
        ("ITALY", "A VEN"),
        ("RUSSIA", "F STP/SC"),
        ("RUSSIA", "A MOS"),
        ("RUSSIA", "A WAR"),
        ("RUSSIA", "F SEV"),
        ("TURKEY", "F ANK"),
        ("TURKEY", "A CON"),
        ("TURKEY", "A SMY"),
    ] {
        units.push((p, u));
    }
    let start = k.state("S1901M", &units, &[], &[]);
    let mut base: Vec<Game<u128>> = (0..8).map(|_| k.game(start.clone())).collect();
    for g in &mut base {
        g.max_year = Some(1903);
        g.orders.reserve(64);
    }
    // Warm up: every phase kind, every list, every buffer at its size.
    let mut warm: Vec<(Game<u128>, Outcome)> = base
        .iter()
        .map(|g| (g.clone(), Outcome::default()))
        .collect();
    for pick in 0..12 {
        step(&mut warm, pick);
    }
    let mut games: Vec<(Game<u128>, Outcome)> = base
        .iter()
        .map(|g| {
            let mut out = Outcome::default();
            out.results.reserve(64);
            out.success.reserve(64);
            out.implied.reserve(64);
            (g.clone(), out)
        })
        .collect();
    for (g, _) in &mut games {
        g.orders.reserve(64);
    }
    let (seen, allocations) =
        counting::count(|| (0..12).map(|pick| step(&mut games, pick)).sum::<usize>());
    assert!(seen > 100);
    assert_eq!(allocations, 0, "the hot path allocated");
}
