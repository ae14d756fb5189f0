//! A phase's ruling as a value: `Game::rule` returns a `Verdict` with the same outcome as
//! `Game::process_into` gives, the reasons and rulings of each phase kind, the states before
//! and after; a verdict given back is refilled whole by the next ruling on the thread;
//! `Game::judge_all` gives the verdict's reasons with nothing played.

mod kit;

use diplo_core::engine::legality::NAMES as REASONS;
use diplo_core::engine::phases::{
    explain, recycle_verdict, result::OK, spare_verdict, Game, Verdict, EXPLAIN_NAMES,
};
use diplo_core::engine::{Outcome, State};
use kit::Kit;

fn rule(k: &Kit, game: &mut Game<u128>, orders: &[&str]) -> Box<Verdict<u128>> {
    game.orders = orders.iter().map(|o| k.code(o)).collect();
    game.rule().expect("ruled")
}

/// What tells two states apart: the phase and the board hash.
fn same(st: &State<u128>) -> (String, u64) {
    (st.phase_name(), st.hash)
}

#[test]
fn a_verdict_is_the_phase_the_game_played_and_says_why() {
    let k = Kit::standard();
    let start = k.state(
        "S1901M",
        &[
            ("FRANCE", "A PAR"),
            ("FRANCE", "A MAR"),
            ("GERMANY", "A BUR"),
        ],
        &[],
        &[],
    );
    let mut plain = k.game(start.clone());
    plain.orders = ["A PAR - BUR", "A MAR S A PAR - BUR", "A MAR - PIC"]
        .iter()
        .map(|o| k.code(o))
        .collect();
    let mut done = Outcome::default();
    plain.process_into(&mut done).expect("processed");
    let mut game = k.game(start.clone());
    let v = rule(
        &k,
        &mut game,
        &["A PAR - BUR", "A MAR S A PAR - BUR", "A MAR - PIC"],
    );
    // The same results as processing gives, and the same next state.
    assert_eq!(v.outcome, done);
    assert_eq!(same(&v.after), same(&plain.state));
    assert_eq!(same(&v.after), same(&game.state));
    assert_eq!(same(&v.before), same(&start));
    assert_ne!(same(&v.before), same(&v.after));
    let reasons: Vec<&str> = v.reasons.iter().map(|&r| REASONS[r as usize]).collect();
    // A refused order is no second order of its unit (DATC 4.D.3 counts legal orders).
    assert_eq!(reasons, ["ok", "ok", "not_adjacent"]);
    assert_eq!(v.normal[2], 0);
    // The dislodged army, its options.
    assert_eq!(v.gone.len(), 1);
    assert_eq!(k.map.loc_name(v.gone[0].0.loc as usize), "BUR");
    // Retreats: no order, the unit is disbanded, and the verdict says why.
    let r = rule(&k, &mut game, &[]);
    assert_eq!(r.outcome.implied.len(), 1);
    assert_eq!(EXPLAIN_NAMES[r.rulings[0].why as usize], "no_retreat");
    assert!(r.gone.is_empty() && r.facts.is_empty());
}

#[test]
fn a_recycled_verdict_is_refilled_whole() {
    let k = Kit::standard();
    let start = k.state(
        "W1901A",
        &[
            ("FRANCE", "A SPA"),
            ("GERMANY", "A MUN"),
            ("GERMANY", "A BER"),
            ("GERMANY", "A SIL"),
        ],
        &[("FRANCE", &["PAR", "MAR", "SPA"]), ("GERMANY", &["MUN"])],
        &[],
    );
    let mut game = k.game(start.clone());
    let first = rule(&k, &mut game, &["A PAR B", "A MAR B", "A MUN B"]);
    let whys: Vec<u8> = first.rulings.iter().map(|r| r.why).collect();
    assert_eq!(&whys[..3], [explain::BUILT, explain::BUILT, explain::NONE]);
    assert_eq!(first.outcome.results[..2], [OK, OK]);
    let kept = first.rulings.clone();
    recycle_verdict(first);
    // The next ruling on this thread fills the verdict given back: nothing of the first stays.
    let mut again = k.game(start);
    let second = rule(&k, &mut again, &["A PAR B"]);
    assert_eq!(second.orders.len(), 1);
    assert_eq!(second.rulings[0], kept[0]);
    assert_eq!(second.rulings.len(), 1 + 1 + 2); // PAR built; MAR unused (waived); two disorder
    assert_eq!(second.reasons, [0]);
    recycle_verdict(second);
    // A spare is handed out again, to be filled whole by its next ruling.
    let spare = spare_verdict(k.map, &again.state);
    let mut third = k.game(again.state.clone());
    let mut filled = spare;
    third.orders.clear();
    third.rule_into(&mut filled, false).expect("ruled");
    assert!(filled.orders.is_empty() && filled.rulings.is_empty() && filled.reasons.is_empty());
    assert_eq!(same(&filled.before), same(&again.state));
}

#[test]
fn judging_codes_gives_the_reasons_a_ruling_gives_and_plays_nothing() {
    let k = Kit::standard();
    let start = k.state(
        "S1901M",
        &[("ITALY", "A VEN"), ("ITALY", "A ROM"), ("AUSTRIA", "A TRI")],
        &[],
        &[],
    );
    let orders = [
        "A VEN - TYR",
        "A VEN - PIE", // a second, different order to VEN: both MULTIPLE_ORDERS
        "A ROM - TRI", // not adjacent
        "A TRI H",
        "A TRI H", // the same order twice is one order
    ];
    let codes: Vec<_> = orders.iter().map(|o| k.code(o)).collect();
    let game = k.game(start.clone());
    let mut judged = Vec::new();
    game.judge_all(&codes, &[], &mut judged);
    let names: Vec<&str> = judged.iter().map(|&r| REASONS[r as usize]).collect();
    assert_eq!(
        names,
        [
            "multiple_orders",
            "multiple_orders",
            "not_adjacent",
            "ok",
            "ok"
        ]
    );
    assert_eq!(same(&game.state), same(&start));
    assert!(game.orders.is_empty());
    let mut played = k.game(start);
    let v = rule(&k, &mut played, &orders);
    assert_eq!(v.reasons, judged);
}
