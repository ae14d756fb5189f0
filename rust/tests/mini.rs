//! The resolver on a small hand-built map (`common::World::mini`): strengths, head-to-head
//! battles, beleaguered garrisons, support cuts, self-dislodgement, circular movement, convoys
//! and paradoxes, retreats, and input errors.

mod kit;

use diplo_core::{resolve_movement, Adjudicator, MovementOutcome, Order, Unit};
use kit::*;

#[test]
fn simple_bounce_reports_strengths_and_standoff() {
    // DATC 6.A.11 shape: two equal attacks on an empty province.
    let w = World::mini();
    let r = w.run(&[("F", "A PAR - BUR"), ("G", "A RUH - BUR")]);
    assert_eq!(r.code("PAR"), BOUNCE);
    assert_eq!(r.code("RUH"), BOUNCE);
    assert_eq!((r.attack("PAR"), r.opposition("PAR")), (1, 1));
    assert_eq!(r.by("PAR"), Some("RUH"));
    assert_eq!(r.by("RUH"), Some("PAR"));
    assert_eq!(r.contested(), vec!["BUR"]);
}

#[test]
fn supported_attack_beats_prevent_and_reports_opposition() {
    let w = World::mini();
    let r = w.run(&[
        ("F", "A PAR - BUR"),
        ("F", "A GAS S A PAR - BUR"),
        ("G", "A RUH - BUR"),
        ("I", "A MAR - BUR"),
    ]);
    assert_eq!(r.code("PAR"), OK);
    assert_eq!((r.attack("PAR"), r.opposition("PAR")), (2, 1));
    // Ties between preventers: the lowest province index (RUH=9 < MAR=13).
    assert_eq!(r.by("MAR"), Some("PAR"));
    assert_eq!(r.opposition("MAR"), 2);
    assert_eq!(r.code("GAS"), OK);
    assert!(r.contested().is_empty(), "BUR is occupied");
}

#[test]
fn hold_strength_counts_hold_supports() {
    // DATC 6.D.1: supported hold prevents dislodgement.
    let w = World::mini();
    let r = w.run(&[
        ("F", "A PAR - BUR"),
        ("F", "A GAS S A PAR - BUR"),
        ("G", "A BUR"),
        ("G", "A RUH S A BUR"),
    ]);
    assert_eq!(r.code("PAR"), BOUNCE);
    assert_eq!((r.attack("PAR"), r.opposition("PAR")), (2, 2));
    assert_eq!(r.by("PAR"), Some("BUR"));
    assert_eq!(r.code("BUR"), OK);
    assert!(r.success("RUH"));
    // An empty province that only saw a failed attack on an occupied one is not contested.
    assert!(r.contested().is_empty());
}

#[test]
fn hold_strength_of_failed_mover_is_one() {
    // DATC 6.D.7: a unit ordered to move cannot be supported to hold; it defends with 1.
    let w = World::mini();
    let r = w.run(&[
        ("G", "A BUR - MAR"),
        ("G", "A RUH S A BUR"),
        ("F", "A GAS - MAR"),
        ("F", "A PAR - BUR"),
        ("F", "A PIC S A PAR - BUR"),
    ]);
    assert_eq!(r.code("RUH"), VOID);
    assert!(!r.success("RUH"));
    assert_eq!(r.code("BUR"), DISLODGED);
    assert_eq!(r.dislodged_by("BUR"), Some("PAR"));
    assert_eq!(r.opposition("PAR"), 1);
    // MAR saw a standoff and stays empty: contested, so BUR cannot retreat there.
    assert_eq!(r.contested(), vec!["MAR"]);
    assert_eq!(r.retreats("BUR"), vec!["BEL"]);
}

#[test]
fn head_to_head_supported_side_wins_and_loser_has_no_effect() {
    // DATC 6.E.1: the dislodged loser of a head-to-head has no effect on the winner's origin.
    let w = World::mini();
    let r = w.run(&[
        ("G", "A BUR - PAR"),
        ("G", "A PIC S A BUR - PAR"),
        ("F", "A PAR - BUR"),
        ("I", "A GAS - BUR"),
    ]);
    assert_eq!(r.code("BUR"), OK);
    assert_eq!(r.code("PAR"), DISLODGED);
    assert_eq!(r.dislodged_by("PAR"), Some("BUR"));
    // The loser's prevent strength is 0: GAS enters Burgundy.
    assert_eq!(r.code("GAS"), OK);
    assert_eq!(r.opposition("GAS"), 0);
    // Retreats of PAR: not BUR (occupied and attacker origin), not PIC (occupied); GAS was
    // left empty.
    assert_eq!(r.retreats("PAR"), vec!["BRE", "GAS"]);
    assert!(r.contested().is_empty());
}

#[test]
fn head_to_head_equal_strength_both_bounce() {
    let w = World::mini();
    let r = w.run(&[("G", "A BUR - PAR"), ("F", "A PAR - BUR")]);
    assert_eq!(r.code("BUR"), BOUNCE);
    assert_eq!(r.code("PAR"), BOUNCE);
    assert_eq!(r.by("BUR"), Some("PAR"));
    assert_eq!((r.attack("BUR"), r.opposition("BUR")), (1, 1));
}

#[test]
fn head_to_head_loser_leaves_winner_origin_open_for_retreat() {
    // DATC 6.H.9: the loser of a head-to-head does not make the winner's origin contested.
    let w = World::mini();
    let r = w.run(&[
        ("E", "F ENG - BRE"),
        ("E", "F MAO S F ENG - BRE"),
        ("G", "A PIC - PAR"),
        ("G", "F BRE"),
        ("G", "A BUR S A PIC - PAR"),
        ("R", "A PAR - PIC"),
    ]);
    assert_eq!(r.code("PIC"), OK);
    assert_eq!(r.code("PAR"), DISLODGED);
    assert_eq!(r.code("BRE"), DISLODGED);
    assert!(r.contested().is_empty());
    assert_eq!(r.retreats("BRE"), vec!["PIC", "GAS"]);
}

#[test]
fn beleaguered_garrison_holds() {
    // DATC 6.E.13 shape: two equal supported attacks on one unit; neither succeeds.
    let w = World::mini();
    let r = w.run(&[
        ("F", "A PAR - BUR"),
        ("F", "A PIC S A PAR - BUR"),
        ("G", "A RUH - BUR"),
        ("G", "A BEL S A RUH - BUR"),
        ("I", "A BUR"),
    ]);
    assert_eq!(r.code("PAR"), BOUNCE);
    assert_eq!(r.code("RUH"), BOUNCE);
    assert_eq!(r.code("BUR"), OK);
    assert_eq!(r.opposition("PAR"), 2);
    // Hold 1 < prevent 2: the preventer is named.
    assert_eq!(r.by("PAR"), Some("RUH"));
}

#[test]
fn support_is_cut_by_attack_but_not_from_target() {
    // DATC 6.D.2 / 6.D.15.
    let w = World::mini();
    let r = w.run(&[
        ("F", "A PAR - BUR"),
        ("F", "A PIC S A PAR - BUR"),
        ("G", "A BUR - PIC"),
    ]);
    assert_eq!(
        r.code("PIC"),
        OK,
        "an attack from the supported destination does not cut"
    );
    assert_eq!(r.code("PAR"), OK);
    assert_eq!(r.code("BUR"), DISLODGED);
    let r = w.run(&[
        ("F", "A PAR - BUR"),
        ("F", "A PIC S A PAR - BUR"),
        ("G", "A BUR"),
        ("G", "A BEL - PIC"),
        ("G", "F ENG - PIC"),
    ]);
    assert_eq!(r.code("PIC"), CUT);
    assert!(!r.success("PIC"));
    assert_eq!(r.by("PIC"), Some("BEL"));
    assert_eq!(r.code("PAR"), BOUNCE);
}

#[test]
fn own_power_never_cuts() {
    // DATC 6.D.20.
    let w = World::mini();
    let r = w.run(&[
        ("F", "A PAR - BUR"),
        ("F", "A PIC S A PAR - BUR"),
        ("F", "A BEL - PIC"),
        ("G", "A BUR"),
    ]);
    assert_eq!(r.code("PIC"), OK);
    assert_eq!(r.code("PAR"), OK);
    assert_eq!(r.code("BEL"), BOUNCE);
}

#[test]
fn convoyed_attack_from_target_does_not_cut() {
    // DATC 4.A.4 / 6.G.13: the exemption uses the army's starting province even by convoy.
    let w = World::mini();
    let r = w.run(&[
        ("F", "A BEL - PIC via"),
        ("F", "F ENG C A BEL - PIC"),
        ("E", "A PIC S F NTH - BEL"),
        ("E", "F NTH - BEL"),
    ]);
    assert!(r.convoyed("BEL"));
    assert_eq!(r.code("PIC"), OK);
    assert_eq!(r.code("BEL"), DISLODGED);
    assert_eq!(r.dislodged_by("BEL"), Some("NTH"));
}

#[test]
fn no_self_dislodgement() {
    // DATC 6.D.10: own unit holding.
    let w = World::mini();
    let r = w.run(&[
        ("G", "A BUR"),
        ("G", "A PAR - BUR"),
        ("G", "A PIC S A PAR - BUR"),
    ]);
    assert_eq!(r.code("PAR"), BOUNCE);
    assert_eq!(r.attack("PAR"), 0);
    assert_eq!(r.code("BUR"), OK);
    // DATC 6.D.12: a foreign attack supported by the owner of the attacked unit.
    let r = w.run(&[
        ("G", "A BUR"),
        ("G", "A PIC S A PAR - BUR"),
        ("F", "A PAR - BUR"),
    ]);
    assert_eq!(r.attack("PAR"), 1);
    assert_eq!(r.code("PAR"), BOUNCE);
    // DATC 6.D.11: own unit that failed to leave.
    let r = w.run(&[
        ("G", "A BUR - MAR"),
        ("G", "A PAR - BUR"),
        ("G", "A PIC S A PAR - BUR"),
        ("I", "A GAS - MAR"),
    ]);
    assert_eq!(r.code("BUR"), BOUNCE);
    assert_eq!(r.code("PAR"), BOUNCE);
    assert!(r.dislodged().is_empty());
}

#[test]
fn circular_movement_succeeds() {
    // DATC 6.C.1.
    let w = World::mini();
    let r = w.run(&[
        ("E", "A LON - WAL"),
        ("E", "A WAL - YOR"),
        ("E", "A YOR - LON"),
    ]);
    for p in ["LON", "WAL", "YOR"] {
        assert_eq!(r.code(p), OK, "{p}");
    }
    // DATC 6.C.3: disrupted by a bounce.
    let r = w.run(&[
        ("F", "A PAR - BUR"),
        ("F", "A BUR - PIC"),
        ("F", "A PIC - PAR"),
        ("G", "A RUH - BUR"),
    ]);
    for p in ["PAR", "BUR", "PIC", "RUH"] {
        assert_eq!(r.code(p), BOUNCE, "{p}");
    }
    // Four-unit circle including a split-coast province (fleets).
    let r = w.run(&[
        ("F", "F MAO - SPA/NC"),
        ("F", "F SPA/NC - POR"),
        ("F", "F POR - MAO"),
    ]);
    for p in ["MAO", "SPA", "POR"] {
        assert_eq!(r.code(p), OK, "{p}");
    }
}

#[test]
fn convoyed_swap_is_not_head_to_head() {
    // DATC 6.G.1: own convoying fleet shows intent; the swap succeeds.
    let w = World::mini();
    let r = w.run(&[
        ("F", "A PIC - BEL"),
        ("F", "F ENG C A PIC - BEL"),
        ("G", "A BEL - PIC"),
    ]);
    assert!(r.convoyed("PIC"));
    assert!(!r.convoyed("BEL"));
    assert_eq!(r.code("PIC"), OK);
    assert_eq!(r.code("BEL"), OK);
    assert_eq!(r.code("ENG"), OK);
    // DATC 6.G.2: a foreign fleet cannot kidnap: head-to-head, both bounce, convoy void.
    let r = w.run(&[
        ("F", "A PIC - BEL"),
        ("E", "F ENG C A PIC - BEL"),
        ("G", "A BEL - PIC"),
    ]);
    assert!(!r.convoyed("PIC"));
    assert_eq!(r.code("PIC"), BOUNCE);
    assert_eq!(r.code("BEL"), BOUNCE);
    assert_eq!(r.code("ENG"), VOID);
}

#[test]
fn via_convoy_without_route_fails() {
    // DATC 6.G.8 / 6.G.20: no fallback to the land route.
    let w = World::mini();
    let r = w.run(&[("F", "A PIC - BEL via")]);
    assert_eq!(r.code("PIC"), NO_CONVOY);
    assert_eq!(r.attack("PIC"), 0);
    assert!(r.by("PIC").is_none());
    assert!(
        r.contested().is_empty(),
        "a move without a route makes no standoff"
    );
}

#[test]
fn multi_route_convoy_survives_one_broken_route() {
    // DATC 6.F.9.
    let w = World::mini();
    let r = w.run(&[
        ("E", "F ENG C A LON - BEL"),
        ("E", "F NTH C A LON - BEL"),
        ("E", "A LON - BEL"),
        ("F", "F BRE S F MAO - ENG"),
        ("F", "F MAO - ENG"),
    ]);
    assert_eq!(r.code("ENG"), DISLODGED);
    assert_eq!(r.code("NTH"), OK);
    assert_eq!(r.code("LON"), OK);
    // Both routes broken: no convoy.
    let r = w.run(&[
        ("E", "F ENG C A LON - BEL"),
        ("E", "F NTH C A LON - BEL"),
        ("E", "A LON - BEL"),
        ("F", "F BRE S F MAO - ENG"),
        ("F", "F MAO - ENG"),
        ("G", "F HOL - NTH"),
        ("G", "F YOR S F HOL - NTH"),
    ]);
    assert_eq!(r.code("LON"), NO_CONVOY);
    assert_eq!(r.code("NTH"), DISLODGED);
    assert!(!r.success("NTH"));
    // DATC 6.F.7: the dislodged convoy does not contest the landing province.
    assert!(r.contested().is_empty());
    assert_eq!(r.retreats("NTH"), vec!["BEL"]);
}

#[test]
fn simple_convoy_paradox_szykman() {
    // DATC 6.F.14.
    let w = World::mini();
    let r = w.run(&[
        ("E", "F LON S F WAL - ENG"),
        ("E", "F WAL - ENG"),
        ("F", "A BRE - LON"),
        ("F", "F ENG C A BRE - LON"),
    ]);
    assert_eq!(r.code("LON"), OK);
    assert_eq!(r.code("WAL"), OK);
    assert_eq!(r.code("BRE"), NO_CONVOY);
    assert_eq!(r.code("ENG"), DISLODGED);
}

#[test]
fn pandins_paradox() {
    // DATC 5.D / 6.F.16.
    let w = World::mini();
    let r = w.run(&[
        ("E", "F LON S F WAL - ENG"),
        ("E", "F WAL - ENG"),
        ("F", "A BRE - LON"),
        ("F", "F ENG C A BRE - LON"),
        ("G", "F NTH S F BEL - ENG"),
        ("G", "F BEL - ENG"),
    ]);
    assert_eq!(r.code("LON"), OK);
    assert_eq!(r.code("WAL"), BOUNCE);
    assert_eq!(r.code("BEL"), BOUNCE);
    assert_eq!(r.code("BRE"), NO_CONVOY);
    assert_eq!(r.code("ENG"), NO_CONVOY);
    assert!(r.dislodged().is_empty());
    assert_eq!(r.contested(), Vec::<&str>::new());
    // DATC 6.F.17: the extended paradox, with a support for the convoyed army.
    let r = w.run(&[
        ("E", "F LON S F WAL - ENG"),
        ("E", "F WAL - ENG"),
        ("F", "A BRE - LON"),
        ("F", "F ENG C A BRE - LON"),
        ("F", "F YOR S A BRE - LON"),
        ("G", "F NTH S F BEL - ENG"),
        ("G", "F BEL - ENG"),
    ]);
    assert_eq!(r.code("BRE"), NO_CONVOY);
    assert_eq!(r.attack("BRE"), 0);
    assert!(r.dislodged().is_empty());
}

#[test]
fn split_coast_retreat_options_are_per_coast() {
    let w = World::mini();
    let r = w.run(&[
        ("E", "F MAO"),
        ("F", "F BRE - MAO"),
        ("F", "F ENG S F BRE - MAO"),
        ("F", "F POR H"),
    ]);
    assert_eq!(r.code("MAO"), DISLODGED);
    assert_eq!(
        r.retreats("MAO"),
        vec!["GAS", "IRI", "WES", "SPA/NC", "SPA/SC"]
    );
    // A standoff on one coast closes both (DATC 6.H.16).
    let r = w.run(&[
        ("E", "F MAO"),
        ("F", "F BRE - MAO"),
        ("F", "F ENG S F BRE - MAO"),
        ("I", "F WES - SPA/SC"),
        ("G", "F GAS - SPA/NC"),
    ]);
    assert_eq!(r.contested(), vec!["SPA"]);
    assert_eq!(r.retreats("MAO"), vec!["POR", "IRI"]);
}

#[test]
fn adjudicator_reuse_gives_same_results() {
    let w = World::mini();
    let phases: [&[(&str, &str)]; 3] = [
        &[
            ("E", "A LON - WAL"),
            ("E", "A WAL - YOR"),
            ("E", "A YOR - LON"),
        ],
        &[
            ("E", "F LON S F WAL - ENG"),
            ("E", "F WAL - ENG"),
            ("F", "A BRE - LON"),
            ("F", "F ENG C A BRE - LON"),
        ],
        &[("F", "A PAR - BUR"), ("G", "A RUH - BUR")],
    ];
    let mut adj = Adjudicator::new(&w.map);
    let mut out = MovementOutcome::default();
    for _ in 0..2 {
        for orders in phases {
            let (units, encoded) = w.encode(orders);
            adj.resolve_into(&units, &encoded, &mut out).unwrap();
            assert_eq!(out, resolve_movement(&w.map, &units, &encoded).unwrap());
        }
    }
}

#[test]
fn input_errors_name_the_problem() {
    let w = World::mini();
    let unit = |loc: &str, fleet: bool| Unit {
        power: 0,
        is_fleet: fleet,
        loc: w.loc(loc),
    };
    let err =
        |units: &[Unit], orders: &[Order]| resolve_movement(&w.map, units, orders).unwrap_err();
    let e = err(&[unit("PAR", false)], &[]);
    assert!(e.contains("1 units but 0 orders"), "{e}");
    let e = err(
        &[unit("PAR", false), unit("PAR", false)],
        &[Order::Hold, Order::Hold],
    );
    assert!(e.contains("both in province"), "{e}");
    let e = err(
        &[unit("SPA/NC", true), unit("SPA", false)],
        &[Order::Hold, Order::Hold],
    );
    assert!(e.contains("both in province"), "{e}");
    let e = err(
        &[Unit {
            power: 0,
            is_fleet: false,
            loc: 999,
        }],
        &[Order::Hold],
    );
    assert!(e.contains("out of range"), "{e}");
    let e = err(&[unit("ENG", false)], &[Order::Hold]);
    assert!(e.contains("army at sea"), "{e}");
    let e = err(&[unit("SPA", true)], &[Order::Hold]);
    assert!(e.contains("must stand on a coast"), "{e}");
    let e = err(
        &[unit("PAR", false)],
        &[Order::Move {
            dest: 999,
            via: false,
        }],
    );
    assert!(e.contains("out of range"), "{e}");
    let e = err(
        &[unit("PAR", false)],
        &[Order::Move {
            dest: w.loc("PAR"),
            via: false,
        }],
    );
    assert!(e.contains("own province"), "{e}");
    let e = err(
        &[unit("ENG", true)],
        &[Order::Move {
            dest: w.loc("PAR"),
            via: false,
        }],
    );
    assert!(e.contains("cannot move"), "{e}");
    let e = err(
        &[unit("PAR", false)],
        &[Order::SupportHold {
            target: w.loc("PAR"),
        }],
    );
    assert!(e.contains("itself"), "{e}");
    let e = err(
        &[unit("PAR", false)],
        &[Order::SupportMove { from: 500, to: 1 }],
    );
    assert!(e.contains("out of range"), "{e}");
    let e = err(&[unit("BRE", true)], &[Order::Convoy { from: 0, to: 5 }]);
    assert!(e.contains("only a fleet at sea"), "{e}");
}

#[test]
fn large_board_runs_on_helper_thread() {
    // A long chain of circular movement on a synthetic ring map of 3000 provinces: deep
    // recursion, resolved off the caller's stack.
    let n: u16 = 3000;
    let army_adj: Vec<Vec<u16>> = (0..n).map(|i| vec![(i + 1) % n, (i + n - 1) % n]).collect();
    let map = diplo_core::CompiledMap::new(
        (0..n).collect(),
        vec![false; n as usize],
        army_adj,
        vec![Vec::new(); n as usize],
    )
    .unwrap();
    let units: Vec<Unit> = (0..n)
        .map(|i| Unit {
            power: (i % 7) as u8,
            is_fleet: false,
            loc: i,
        })
        .collect();
    let orders: Vec<Order> = (0..n)
        .map(|i| Order::Move {
            dest: (i + 1) % n,
            via: false,
        })
        .collect();
    let out = resolve_movement(&map, &units, &orders).unwrap();
    assert!(out.success.iter().all(|&s| s));
}
