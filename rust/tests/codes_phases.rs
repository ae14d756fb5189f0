//! Phases of the code path on hand-made boards: results per submitted code, implied orders,
//! retreats, the Fall's centre changes and phase skipping, victory, the civil-disorder rule (DATC
//! 6.J), over-ordering (DATC 4.D.3-4.D.6) and batches. `tests/test_codes.py` holds the whole
//! machine to `process_phase` on random games; these pin down the rules by name.

mod kit;

use diplo_core::engine::batch::{process_all, process_all_with};
use diplo_core::engine::phases::result::{BOUNCE, DISLODGED, ILLEGAL, OK, VOID};
use diplo_core::engine::{ErrorKind, Game, Outcome};
use kit::Kit;

/// Plays `orders` on `game`: the phase's outcome.
fn play(k: &Kit, game: &mut Game<u128>, orders: &[&str]) -> Outcome {
    game.orders = orders.iter().map(|o| k.code(o)).collect();
    let mut out = Outcome::default();
    game.process_into(&mut out).expect("processed");
    out
}

fn units(k: &Kit, game: &Game<u128>) -> Vec<String> {
    let st = &game.state;
    let mut out = Vec::new();
    for q in 0..k.map.provinces {
        let u = st.units[q];
        if u.is_some() {
            let t = if u.fleet { "F" } else { "A" };
            out.push(format!("{t} {}", k.map.loc_name(u.loc as usize)));
        }
    }
    out.sort();
    out
}

fn implied(k: &Kit, out: &Outcome) -> Vec<String> {
    out.implied.iter().map(|&(c, _, _)| k.text(c)).collect()
}

#[test]
fn dislodgement_retreat_and_the_next_phases() {
    let k = Kit::standard();
    let mut game = k.game(k.state(
        "S1901M",
        &[
            ("FRANCE", "A PAR"),
            ("FRANCE", "A MAR"),
            ("GERMANY", "A BUR"),
            ("GERMANY", "A MUN"),
            ("ITALY", "A PIE"),
        ],
        &[],
        &[],
    ));
    let out = play(
        &k,
        &mut game,
        &[
            "A PAR - BUR",
            "A MAR S A PAR - BUR",
            "A BUR H",
            "A PIE - TUS",
        ],
    );
    assert_eq!(out.results, [OK, OK, DISLODGED, OK]);
    assert_eq!(implied(&k, &out), ["MUN H"]);
    assert_eq!(game.state.phase_name(), "S1901R");
    // The dislodged army may not go back to Paris (the attacker's origin, DATC 6.H.5); Marseilles
    // is still occupied; Munich is occupied.
    let slots = k.slots(&game);
    assert_eq!(slots.len(), 1);
    assert_eq!(
        slots[0].1,
        ["BUR D", "BUR R BEL", "BUR R GAS", "BUR R PIC", "BUR R RUH"]
    );
    let out = play(&k, &mut game, &["A BUR R BEL", "A BUR R PAR"]);
    assert_eq!(out.results, [OK, ILLEGAL]);
    assert_eq!(game.state.phase_name(), "F1901M");
    assert_eq!(
        units(&k, &game),
        ["A BEL", "A BUR", "A MAR", "A MUN", "A TUS"]
    );
}

#[test]
fn retreats_to_one_province_all_fail_datc_6_h_7() {
    let k = Kit::standard();
    let mut game = k.game(k.state(
        "F1901R",
        &[("ENGLAND", "F NTH")],
        &[],
        &[
            ("FRANCE", "F ENG", &["BEL", "IRI"]),
            ("GERMANY", "F HOL", &["BEL"]),
            ("ITALY", "A RUH", &["MUN"]),
        ],
    ));
    let out = play(&k, &mut game, &["F ENG R BEL", "F HOL R BEL"]);
    assert_eq!(out.results, [BOUNCE, BOUNCE]);
    assert_eq!(out.success, [false, false]);
    assert_eq!(implied(&k, &out), ["RUH D"]);
    // Fall retreats done: the winter follows only when someone can build or must disband; nobody
    // owns a centre here, so England (one unit, no centre) must disband.
    assert_eq!(game.state.phase_name(), "W1901A");
    assert_eq!(units(&k, &game), ["F NTH"]);
}

#[test]
fn fall_changes_centres_and_skips_an_idle_winter() {
    let k = Kit::standard();
    let mut game = k.game(k.state(
        "F1901M",
        &[("FRANCE", "A PAR"), ("FRANCE", "A BUR")],
        &[("FRANCE", &["PAR", "MUN"])],
        &[],
    ));
    // The army leaves Paris (it stays French: an empty centre keeps its owner) and Munich is
    // still French; two units, two centres: no winter.
    play(&k, &mut game, &["A PAR - PIC", "A BUR H"]);
    assert_eq!(game.state.phase_name(), "S1902M");
    let mut game2 = k.game(k.state(
        "F1901M",
        &[("FRANCE", "A BUR"), ("GERMANY", "A MUN")],
        &[("FRANCE", &["PAR"]), ("GERMANY", &["MUN", "BEL"])],
        &[],
    ));
    // France takes Belgium from Germany and may then build in Paris: the winter is played.
    play(&k, &mut game2, &["A BUR - BEL"]);
    assert_eq!(game2.state.phase_name(), "W1901A");
    let french = k.power("FRANCE") as u8;
    assert_eq!(game2.state.centers[k.loc("BEL")], french);
}

#[test]
fn victory_with_eighteen_centres() {
    let k = Kit::standard();
    let centres: &[&str] = &[
        "PAR", "MAR", "BRE", "SPA", "POR", "BEL", "HOL", "MUN", "KIE", "BER", "DEN", "SWE", "NWY",
        "LON", "LVP", "EDI", "TUN",
    ];
    let mut game = k.game(k.state(
        "F1905M",
        &[("FRANCE", "A RUH"), ("FRANCE", "F ION")],
        &[("FRANCE", centres)],
        &[],
    ));
    game.max_year = Some(1910);
    play(&k, &mut game, &["F ION - NAP", "A RUH H"]);
    assert_eq!(game.winner, Some(k.power("FRANCE") as u8));
    assert!(game.over);
    assert_eq!(game.state.phase_name(), "W1905A");
}

/// France takes its tenth centre (Belgium) while Germany holds ten: a tie at the top with the
/// victory count (10 here). The rulebook's victory names the first of them in map order (France
/// comes before Germany on the standard map); `victory_lead` (godip) names nobody, and a power
/// strictly ahead wins under either.
#[test]
fn victory_lead_wins_nobody_on_a_tie_at_the_top() {
    use diplo_core::engine::rules::RuleValue;
    let k = Kit::standard();
    let french: &[&str] = &[
        "PAR", "MAR", "BRE", "SPA", "POR", "HOL", "DEN", "SWE", "NWY",
    ];
    let german: &[&str] = &[
        "BER", "KIE", "MUN", "LON", "LVP", "EDI", "TUN", "NAP", "ROM", "VEN",
    ];
    let run = |lead: bool, edition: Option<&str>, german: &[&str]| {
        let mut st = k.state(
            "F1905M",
            &[("FRANCE", "A BUR"), ("GERMANY", "A RUH")],
            &[("FRANCE", french), ("GERMANY", german)],
            &[],
        );
        if let Some(e) = edition {
            st.rules.set("edition", RuleValue::Name(e)).unwrap();
        } else {
            st.rules.victory_lead = lead;
        }
        st.rules.victory_centers = Some(10);
        let mut game = k.game(st);
        play(&k, &mut game, &["A BUR - BEL", "A RUH H"]);
        (game.winner, game.over, game.state.phase_name())
    };
    let france = Some(k.power("FRANCE") as u8);
    assert_eq!(run(false, None, german), (france, true, "W1905A".into()));
    // No winner: the game goes on to the winter (both powers have builds to make).
    let none = (None, false, "W1905A".to_string());
    assert_eq!(run(true, None, german), none);
    assert_eq!(run(false, Some("godip"), german), none);
    assert_eq!(
        run(false, Some("2023"), german),
        (france, true, "W1905A".into())
    );
    // Germany one centre short of France: France is strictly ahead and wins under both rules.
    for lead in [false, true] {
        assert_eq!(
            run(lead, None, &german[..9]),
            (france, true, "W1905A".into())
        );
    }
}

#[test]
fn game_ends_after_max_year() {
    let k = Kit::standard();
    let mut game = k.game(k.state(
        "F1901M",
        &[("FRANCE", "A PAR")],
        &[("FRANCE", &["PAR"])],
        &[],
    ));
    game.max_year = Some(1901);
    play(&k, &mut game, &[]);
    assert!(game.over && game.winner.is_none());
    assert_eq!(game.state.phase_name(), "S1902M");
    assert!(game.process().is_err());
}

#[test]
fn two_orders_for_one_unit_datc_4_d_3() {
    let k = Kit::standard();
    let mut game = k.game(k.state(
        "S1901M",
        &[
            ("FRANCE", "A PAR"),
            ("FRANCE", "A MAR"),
            ("GERMANY", "A MUN"),
        ],
        &[],
        &[],
    ));
    let out = play(
        &k,
        &mut game,
        &[
            "A PAR - BUR",
            "A PAR - PIC",
            "A MAR - GAS",
            "A MAR - GAS",
            "A MUN - BER",
        ],
    );
    // Two different orders: both illegal, the unit holds. The same order twice is one order.
    assert_eq!(out.results, [ILLEGAL, ILLEGAL, OK, OK, OK]);
    assert_eq!(implied(&k, &out), ["PAR H"]);
    assert_eq!(units(&k, &game), ["A BER", "A GAS", "A PAR"]);
}

#[test]
fn builds_beyond_the_count_and_repeated_disbands() {
    let k = Kit::standard();
    let mut game = k.game(k.state(
        "W1901A",
        &[
            ("FRANCE", "A PAR"),
            ("FRANCE", "A MAR"),
            ("FRANCE", "F BRE"),
            ("FRANCE", "F NAO"),
            ("AUSTRIA", "A VIE"),
        ],
        &[
            ("FRANCE", &["PAR", "MAR"]),
            ("AUSTRIA", &["VIE", "BUD", "TRI"]),
        ],
        &[],
    ));
    let out = play(
        &k,
        &mut game,
        &[
            "F NAO D",
            "F NAO D",
            "A BUD B",
            "F TRI B",
            "A TRI B",
            "WAIVE AUSTRIA",
            "A PAR B",
        ],
    );
    // DATC 6.J.2: the repeat counts once, so the second disband France owes goes to civil
    // disorder: the fleet in Brest, one move from Paris, the armies standing on owned centres.
    // DATC 4.D.4, 4.D.5, 4.D.7: Austria's first two builds are used, the rest is void; Paris is
    // no Austrian home.
    assert_eq!(out.results, [OK, OK, OK, OK, VOID, VOID, ILLEGAL]);
    assert_eq!(implied(&k, &out), ["BRE D"]);
    assert_eq!(
        units(&k, &game),
        ["A BUD", "A MAR", "A PAR", "A VIE", "F TRI"]
    );
    assert_eq!(game.state.phase_name(), "S1902M");
}

/// The unit the civil-disorder rule removes, Russia (or `power`) ordering nothing.
fn removed(k: &Kit, power: &str, units: &[&str], centres: &[&str]) -> Vec<String> {
    let pieces: Vec<(&str, &str)> = units.iter().map(|u| (power, *u)).collect();
    let mut game = k.game(k.state("W1901A", &pieces, &[(power, centres)], &[]));
    let out = play(k, &mut game, &[]);
    implied(k, &out)
}

#[test]
fn civil_disorder_datc_6_j() {
    let k = Kit::standard();
    // 6.J.6: equal distance, alphabetical: Gulf of Bothnia before North Sea.
    assert_eq!(
        removed(&k, "RUSSIA", &["F BOT", "F NTH"], &["MUN"]),
        ["BOT D"]
    );
    // 6.J.7: fleets before an army at equal distance; North Sea before Skagerrak.
    assert_eq!(
        removed(&k, "RUSSIA", &["A BOH", "F SKA", "F NTH"], &["STP", "WAR"]),
        ["NTH D"]
    );
    // 6.J.8: the farther army goes although fleets come first on a tie.
    assert_eq!(
        removed(&k, "RUSSIA", &["A TYR", "F BAL"], &["WAR"]),
        ["TYR D"]
    );
    // 6.J.9: distance from both coasts of St Petersburg.
    assert_eq!(
        removed(&k, "RUSSIA", &["A GRE", "A SEV", "F BAL"], &["STP", "SEV"]),
        ["GRE D"]
    );
    // 6.J.10: an army's distance counts across the sea.
    assert_eq!(
        removed(&k, "ITALY", &["A GRE", "A PIE"], &["NAP"]),
        ["PIE D"]
    );
    // No centre at all: every unit goes, fleets first, then by name.
    assert_eq!(
        removed(&k, "ITALY", &["A ROM", "F NAP", "A APU"], &[]),
        ["NAP D", "APU D", "ROM D"]
    );
}

#[test]
fn batches_rule_like_one_by_one() {
    let k = Kit::standard();
    let base = k.game(k.state(
        "S1901M",
        &[
            ("FRANCE", "A PAR"),
            ("FRANCE", "A MAR"),
            ("GERMANY", "A BUR"),
            ("ITALY", "A PIE"),
        ],
        &[],
        &[],
    ));
    let orders = [
        vec!["A PAR - BUR", "A MAR S A PAR - BUR"],
        vec!["A PIE - MAR", "A MAR - BUR", "A BUR - MAR"],
        vec![],
        vec!["A PAR - PIC", "A PAR - GAS"],
    ];
    for threads in [1, 2, 3, 8] {
        let mut singles = Vec::new();
        let mut outcomes = Vec::new();
        let mut batch = Vec::new();
        for i in 0..40 {
            let mut g = base.clone();
            g.orders = orders[i % orders.len()].iter().map(|o| k.code(o)).collect();
            batch.push(g.clone());
            let mut out = Outcome::default();
            g.process_into(&mut out).unwrap();
            outcomes.push(out);
            singles.push(g);
        }
        let mut refs: Vec<&mut Game<u128>> = batch.iter_mut().collect();
        let mut outs = vec![Outcome::default(); refs.len()];
        process_all_with(&mut refs, Some(&mut outs), threads, |_, _| {}).unwrap();
        assert_eq!(outs, outcomes);
        for (a, b) in batch.iter().zip(&singles) {
            assert_eq!(units(&k, a), units(&k, b));
            assert_eq!(a.state.phase_name(), b.state.phase_name());
        }
    }
    // A panic in one game is reported; the others are processed.
    let mut games: Vec<Game<u128>> = (0..4).map(|_| base.clone()).collect();
    games[2].poisoned = true;
    let mut refs: Vec<&mut Game<u128>> = games.iter_mut().collect();
    let err = process_all(&mut refs, 2).unwrap_err();
    assert!(err.message().contains("deliberate panic"), "{err}");
    assert_eq!(err.kind(), ErrorKind::Internal);
    assert_eq!(games[0].state.phase_name(), "F1901M");
    assert_eq!(games[3].state.phase_name(), "F1901M");
}
