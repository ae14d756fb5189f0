//! The boards of `rust/benches/resolve.rs` (`rust/benches/boards.json`) are legal and contain what
//! they claim: the bench feeds the core unvalidated orders, so an illegal one would be timed as if
//! it were part of a real phase. (`tests/test_bench_boards.py` checks the same boards against the
//! Python reference's validation.)

mod kit;

use diplo_core::engine::phases::result::ILLEGAL;
use diplo_core::engine::Outcome;
use kit::{Board, Kit, World};

const CODE_NAMES: [&str; 6] = ["ok", "bounce", "cut", "dislodged", "no_convoy", "void"];

#[test]
fn every_order_of_every_board_is_legal() {
    let k = Kit::standard();
    for board in Board::all() {
        let game = board.game(&k);
        if board.name == "battle" {
            // The check can fail: the Irish Sea does not border London.
            assert!(k.verdict(&game, "F IRI S F ENG - LON").is_none());
        }
        for (power, order) in &board.orders {
            assert!(
                k.verdict(&game, order).is_some(),
                "{}: {power} {order:?} is illegal",
                board.name
            );
        }
    }
}

#[test]
fn every_board_contains_what_it_claims() {
    let w = World::standard();
    for board in Board::all() {
        let r = w.run(&board.order_refs());
        for (power, order) in &board.orders {
            let here = order.split_whitespace().nth(1).unwrap();
            let province = here.split('/').next().unwrap();
            let got = CODE_NAMES[r.code(here) as usize];
            let want = board
                .claims
                .iter()
                .find(|(_, provinces)| provinces.iter().any(|p| p == province))
                .map_or("ok", |(code, _)| code.as_str());
            assert_eq!(got, want, "{}: {power} {order:?}", board.name);
            let convoyed = board.convoyed.iter().any(|p| p == province);
            assert_eq!(
                r.convoyed(here),
                convoyed,
                "{}: {order:?} by convoy",
                board.name
            );
        }
        let mut dislodged: Vec<&str> = r.dislodged();
        dislodged.sort_unstable();
        let claimed: Vec<&str> = board.retreats.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(dislodged, claimed, "{}: dislodged units", board.name);
        for (province, options) in &board.retreats {
            assert_eq!(
                &r.retreats(province),
                options,
                "{}: retreats of {province}",
                board.name
            );
        }
    }
    let names: Vec<String> = Board::all().into_iter().map(|b| b.name).collect();
    assert_eq!(names, ["midgame", "paradox", "battle"]);
}

#[test]
fn the_retreat_phases_are_legal_and_succeed() {
    let k = Kit::standard();
    let mut timed = 0;
    for board in Board::all()
        .into_iter()
        .filter(|b| !b.retreat_orders.is_empty())
    {
        let mut game = board.game(&k);
        game.orders = board.orders.iter().map(|(_, o)| k.code(o)).collect();
        game.process().unwrap();
        assert_eq!(
            game.state.kind, 1,
            "{}: a retreat phase follows",
            board.name
        );
        game.orders = board
            .retreat_orders
            .iter()
            .map(|(_, o)| k.code(o))
            .collect();
        let mut out = Outcome::default();
        game.process_into(&mut out).unwrap();
        assert!(
            out.results.iter().all(|&r| r != ILLEGAL) && out.success.iter().all(|&s| s),
            "{}: retreats {:?} {:?}",
            board.name,
            out.results,
            out.success
        );
        timed += 1;
    }
    assert_eq!(timed, 1);
}
