//! Legal orders of the code path on hand-made boards: the corners the lists must get right
//! (split coasts, convoy legality DATC 6.G.19, 6.D.31, 6.D.32, builds with coasts) and the normal
//! forms submitted codes are judged in. The property tests in `tests/test_codes.py` compare every
//! list with `diplo.reference.legal` on generated boards; these pin down the reasons.

mod kit;

use diplo_core::engine::encode;
use kit::{Board, Kit};

fn sorted(items: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = items.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn opening_lists() {
    let k = Kit::standard();
    let mut units = Vec::new();
    for (p, u) in [
        ("ENGLAND", "F LON"),
        ("ENGLAND", "F EDI"),
        ("ENGLAND", "A LVP"),
        ("FRANCE", "F BRE"),
        ("FRANCE", "A PAR"),
        ("FRANCE", "A MAR"),
        ("GERMANY", "A MUN"),
        ("ITALY", "A VEN"),
        ("RUSSIA", "F STP/SC"),
        ("RUSSIA", "A MOS"),
        ("RUSSIA", "A WAR"),
    ] {
        units.push((p, u));
    }
    let game = k.game(k.state("S1901M", &units, &[], &[]));
    assert_eq!(
        k.list(&game, "LON"),
        sorted(&[
            "LON - ENG",
            "LON - NTH",
            "LON - WAL",
            "LON - YOR",
            "LON H",
            "LON S LVP - WAL",
            "LON S LVP - YOR",
            "LON S BRE - ENG",
            "LON S EDI - NTH",
            "LON S EDI - YOR",
        ])
    );
    // A fleet on a split coast moves from that coast only.
    assert_eq!(
        k.list(&game, "STP"),
        sorted(&[
            "STP/SC - BOT",
            "STP/SC - FIN",
            "STP/SC - LVN",
            "STP/SC H",
            "STP/SC S MOS - LVN",
            "STP/SC S WAR - LVN",
        ])
    );
    // An army into a split-coast province moves to the province.
    assert_eq!(
        k.list(&game, "MAR"),
        sorted(&[
            "MAR - BUR",
            "MAR - GAS",
            "MAR - PIE",
            "MAR - SPA",
            "MAR H",
            "MAR S MUN - BUR",
            "MAR S PAR - BUR",
            "MAR S PAR - GAS",
            "MAR S VEN - PIE",
            "MAR S BRE - GAS",
        ])
    );
    // Slots come in province order, one per unit.
    let keys: Vec<String> = k.slots(&game).into_iter().map(|(key, _)| key).collect();
    let mut by_index = keys.clone();
    by_index.sort_by_key(|name| k.loc(name));
    assert_eq!(keys, by_index);
    assert_eq!(keys.len(), units.len());
}

#[test]
fn split_coasts_moves_and_supports() {
    let k = Kit::standard();
    let game = k.game(k.state(
        "S1901M",
        &[
            ("FRANCE", "F MAO"),
            ("FRANCE", "F GAS"),
            ("FRANCE", "F POR"),
            ("ITALY", "A MAR"),
        ],
        &[],
        &[],
    ));
    let mao = k.list(&game, "MAO");
    // Each coast apart, never the bare province (DATC 4.B.1).
    assert!(mao.contains(&"MAO - SPA/NC".into()) && mao.contains(&"MAO - SPA/SC".into()));
    assert!(!mao.contains(&"MAO - SPA".into()));
    // A fleet's move into a split-coast province is supported with the bare province and with
    // each coast the mover reaches (DATC 6.B.9 keeps the coast written).
    let por = k.list(&game, "POR");
    for s in [
        "POR S MAO - SPA",
        "POR S MAO - SPA/NC",
        "POR S MAO - SPA/SC",
    ] {
        assert!(por.contains(&s.into()), "{s} in {por:?}");
    }
    // Gascony reaches only the north coast.
    assert!(por.contains(&"POR S GAS - SPA/NC".into()));
    assert!(!por.contains(&"POR S GAS - SPA/SC".into()));
    // An army's move is supported to the province.
    assert!(por.contains(&"POR S MAR - SPA".into()));
    assert!(!por.contains(&"POR S MAR - SPA/SC".into()));

    // Normal forms: with one coast reachable it is meant (4.B.2); with two, illegal (4.B.1).
    assert_eq!(k.verdict(&game, "F GAS - SPA"), Some("GAS - SPA/NC".into()));
    assert_eq!(k.verdict(&game, "F MAO - SPA"), None);
    assert_eq!(k.verdict(&game, "F GAS - SPA/SC"), None);
    // A coast on an army's move or on the support of an army's move is ignored (4.B.6).
    assert_eq!(k.verdict(&game, "A MAR - SPA/SC"), Some("MAR - SPA".into()));
    assert_eq!(
        k.verdict(&game, "F POR S A MAR - SPA/NC"),
        Some("POR S MAR - SPA".into())
    );
    // A support to a coast the moving fleet cannot reach is illegal.
    assert_eq!(k.verdict(&game, "F POR S F GAS - SPA/SC"), None);
    // The ordered unit is the one on the board, whatever type and coast the order names
    // (DATC 4.B.5, 4.C.2).
    assert_eq!(k.verdict(&game, "A MAO H"), Some("MAO H".into()));
}

#[test]
fn wrong_coast_of_the_ordered_fleet_is_ignored() {
    let k = Kit::standard();
    let game = k.game(k.state("S1901M", &[("RUSSIA", "F STP/SC")], &[], &[]));
    assert_eq!(
        k.verdict(&game, "F STP/NC - BOT"),
        Some("STP/SC - BOT".into())
    );
    assert_eq!(k.verdict(&game, "F STP/NC - BAR"), None);
}

#[test]
fn convoy_only_on_minimal_routes_datc_6_g_19() {
    let k = Kit::standard();
    let game = k.game(k.state(
        "S1901M",
        &[
            ("FRANCE", "A MAR"),
            ("FRANCE", "F WES"),
            ("ITALY", "F LYO"),
            ("ITALY", "A SPA"),
        ],
        &[],
        &[],
    ));
    // MAR - LYO - SPA is a route; so is MAR - LYO - WES - SPA, but it is not minimal.
    assert_eq!(
        k.verdict(&game, "F LYO C A MAR - SPA"),
        Some("LYO C MAR - SPA".into())
    );
    assert_eq!(k.verdict(&game, "F WES C A MAR - SPA"), None);
    assert!(!k
        .list(&game, "WES")
        .iter()
        .any(|o| o.contains("C MAR - SPA")));
    // To North Africa: MAR - LYO - WES - NAF is minimal, so both fleets may convoy; from Spain
    // WES alone is a route, and the longer one through LYO is not minimal.
    let wes = k.list(&game, "WES");
    assert!(wes.contains(&"WES C MAR - NAF".into()), "{wes:?}");
    assert!(wes.contains(&"WES C SPA - NAF".into()), "{wes:?}");
    let lyo = k.list(&game, "LYO");
    assert!(lyo.contains(&"LYO C MAR - NAF".into()), "{lyo:?}");
    assert!(!lyo.contains(&"LYO C SPA - NAF".into()), "{lyo:?}");
}

#[test]
fn support_of_a_convoy_that_needs_the_supporter_datc_6_d_31() {
    let k = Kit::standard();
    let game = k.game(k.state(
        "S1901M",
        &[("AUSTRIA", "A RUM"), ("TURKEY", "F BLA")],
        &[],
        &[],
    ));
    assert_eq!(k.verdict(&game, "F BLA S A RUM - ARM"), None);
    assert!(!k.list(&game, "BLA").contains(&"BLA S RUM - ARM".into()));
    // The army itself may go by that convoy.
    assert!(k.list(&game, "RUM").contains(&"RUM - ARM".into()));
    // The fleet convoys it, on the only (minimal) route.
    assert!(k.list(&game, "BLA").contains(&"BLA C RUM - ARM".into()));
}

#[test]
fn convoyed_moves_need_fleets_on_the_board_datc_6_d_32() {
    let k = Kit::standard();
    let units = [
        ("ENGLAND", "F EDI"),
        ("ENGLAND", "A LVP"),
        ("FRANCE", "F LON"),
        ("GERMANY", "A YOR"),
    ];
    let game = k.game(k.state("S1901M", &units, &[], &[]));
    assert_eq!(k.verdict(&game, "A YOR - HOL"), None);
    // "via convoy" to a neighbour also needs fleets that could carry the army (DATC 4.E.1).
    assert_eq!(k.verdict(&game, "A YOR - LON via"), None);
    assert_eq!(k.verdict(&game, "A YOR - LON"), Some("YOR - LON".into()));
    let mut with_fleet = units.to_vec();
    with_fleet.push(("GERMANY", "F NTH"));
    let game = k.game(k.state("S1901M", &with_fleet, &[], &[]));
    assert_eq!(k.verdict(&game, "A YOR - HOL"), Some("YOR - HOL".into()));
    assert_eq!(
        k.verdict(&game, "A YOR - LON via"),
        Some("YOR - LON via".into())
    );
    // And a support of that move is possible now (a unit that could reach Holland: none of the
    // English; the fleet itself is on the only route, DATC 6.D.31).
    assert_eq!(k.verdict(&game, "F NTH S A YOR - HOL"), None);
}

#[test]
fn builds_with_coasts_and_waives() {
    let k = Kit::standard();
    let game = k.game(k.state(
        "W1901A",
        &[("RUSSIA", "A WAR"), ("FRANCE", "A PAR")],
        &[
            ("RUSSIA", &["STP", "MOS", "WAR", "SEV", "RUM"]),
            ("FRANCE", &["PAR"]),
        ],
        &[],
    ));
    // One slot per owned vacant home centre with its builds, then the power's waive alone
    // (after the sites: orders given slot by slot never put a waive before a build).
    assert_eq!(
        k.list(&game, "STP"),
        sorted(&["A STP B", "F STP/NC B", "F STP/SC B"])
    );
    assert_eq!(k.list(&game, "MOS"), sorted(&["A MOS B"]));
    assert_eq!(k.list(&game, "SEV"), sorted(&["A SEV B", "F SEV B"]));
    assert_eq!(k.list(&game, "RUSSIA"), sorted(&["WAIVE RUSSIA"]));
    let keys: Vec<String> = k.slots(&game).into_iter().map(|(key, _)| key).collect();
    assert_eq!(keys, ["MOS", "SEV", "STP", "RUSSIA"]);
    // Normal forms: a coast on an army build is ignored (4.B.6); a fleet needs the coast
    // (4.B.7); no fleet inland (4.C.4); no build on a foreign or occupied home.
    assert_eq!(k.verdict(&game, "A STP/NC B"), Some("A STP B".into()));
    assert_eq!(k.verdict(&game, "F STP B"), None);
    assert_eq!(k.verdict(&game, "F MOS B"), None);
    assert_eq!(k.verdict(&game, "A WAR B"), None);
    assert_eq!(k.verdict(&game, "A PAR B"), None);
    assert_eq!(
        k.verdict(&game, "WAIVE RUSSIA"),
        Some("WAIVE RUSSIA".into())
    );
    assert_eq!(k.verdict(&game, "WAIVE FRANCE"), None);
}

#[test]
fn waive_of_a_power_without_build_site() {
    let k = Kit::standard();
    let game = k.game(k.state(
        "W1901A",
        &[
            ("FRANCE", "A PAR"),
            ("FRANCE", "A MAR"),
            ("FRANCE", "F BRE"),
        ],
        &[("FRANCE", &["PAR", "MAR", "BRE", "SPA"])],
        &[],
    ));
    assert_eq!(
        k.slots(&game),
        vec![("FRANCE".to_string(), vec!["WAIVE FRANCE".to_string()])]
    );
}

#[test]
fn retreat_lists_and_coasts() {
    let k = Kit::standard();
    let game = k.game(k.state(
        "F1901R",
        &[("ENGLAND", "F MAO")],
        &[],
        &[
            ("FRANCE", "F MAO", &["SPA/NC", "SPA/SC", "IRI"]),
            ("ITALY", "F WES", &["SPA/SC", "TYS"]),
        ],
    ));
    assert_eq!(
        k.list(&game, "MAO"),
        sorted(&["MAO R SPA/NC", "MAO R SPA/SC", "MAO R IRI", "MAO D"])
    );
    // Two coasts open: the coast must be named; one open: a bare province means it.
    assert_eq!(k.verdict(&game, "F MAO R SPA"), None);
    assert_eq!(k.verdict(&game, "F WES R SPA"), Some("WES R SPA/SC".into()));
    // A retreat may be written as a move.
    assert_eq!(k.verdict(&game, "F WES - TYS"), Some("WES R TYS".into()));
    assert_eq!(k.verdict(&game, "F WES R LYO"), None);
    assert_eq!(k.verdict(&game, "F WES H"), None);
}

#[test]
fn malformed_codes_are_illegal() {
    let k = Kit::standard();
    let game = k.game(k.state("S1901M", &[("FRANCE", "A PAR")], &[], &[]));
    let par = k.loc("PAR");
    let n = k.map.locations;
    for code in [
        encode::hold(par) | 1 << 36,
        encode::hold(par) | 1 << 27, // location par + 128
        encode::hold(par) | encode::VIA,
        encode::hold(par) | encode::FLEET,
        encode::support_hold(par, n - 1), // a coast where a province belongs
        encode::move_to(par, k.loc("BUR"), false) | 1 << encode::B_SHIFT,
        9 | (par as encode::Code) << 4,
        encode::hold(n.min(1023)),
    ] {
        let mut legal = diplo_core::engine::legality::Legal::default();
        legal.prepare(k.map, &game.state, game.stamp);
        assert!(legal.check(k.map, &game.state, code).is_none(), "{code:#x}");
    }
}

/// A check needs no list: the part of a section it builds when no list was asked for, and the
/// unit's whole list once every list is made, give the same verdict on every code a unit on
/// the benchmark boards could be given (moves with and without "via", supports to hold and of
/// every unit's move to every location, convoys of every unit to every province); a listed
/// code is its own normal form.
#[test]
fn verdicts_without_and_with_the_lists_agree() {
    use diplo_core::engine::legality::Legal;
    let k = Kit::standard();
    let map = k.map;
    let mut checked = 0;
    for board in Board::all() {
        let game = board.game(&k);
        let st = &game.state;
        let mut listed = Legal::default();
        listed.prepare(map, st, game.stamp);
        listed.all_slots(map, st);
        let slots = listed.slots().to_vec();
        for slot in &slots {
            for &code in listed.codes_of(slot).to_vec().iter() {
                let mut fresh = Legal::default();
                fresh.prepare(map, st, game.stamp);
                let want = Some((slot.key as usize, code));
                assert_eq!(fresh.check(map, st, code), want, "{}", k.text(code));
                assert_eq!(listed.check(map, st, code), want, "{}", k.text(code));
            }
        }
        let mut fresh = Legal::default();
        fresh.prepare(map, st, game.stamp);
        for slot in &slots {
            let here = st.units[slot.key as usize].loc as usize;
            let mut codes = vec![encode::hold(here)];
            for a in 0..map.locations {
                codes.push(encode::move_to(here, a, false));
                codes.push(encode::move_to(here, a, true));
                if a >= map.provinces {
                    continue;
                }
                codes.push(encode::support_hold(here, a));
                if !st.units[a].is_some() {
                    continue; // no unit to support or convoy: refused before any list
                }
                for b in 0..map.locations {
                    codes.push(encode::support_move(here, a, b));
                    if b < map.provinces {
                        codes.push(encode::convoy(here, a, b));
                    }
                }
            }
            for code in codes {
                assert_eq!(
                    fresh.check(map, st, code),
                    listed.check(map, st, code),
                    "{}: {code:#x}",
                    board.name
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}
