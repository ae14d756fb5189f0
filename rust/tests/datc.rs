//! DATC v3.0 chapter 6 cases on the standard map, translated by hand. Orders the DATC calls
//! illegal are written as the holds validation turns them into (`diplo.validation`, DATC 4.E.1),
//! since illegal orders never reach the core. Expectations follow the DATC's preferred rules.

mod common;

use std::sync::OnceLock;

use common::*;

fn world() -> &'static World {
    static WORLD: OnceLock<World> = OnceLock::new();
    WORLD.get_or_init(World::standard)
}

/// Runs a phase and checks the success of each listed order and the set of dislodged units.
fn case(orders: &[(&str, &str)], results: &[(&str, bool)], dislodged: &[&str]) -> Phase<'static> {
    let r = world().run(orders);
    r.expect(results);
    let mut got = r.dislodged();
    got.sort_unstable();
    let mut want = dislodged.to_vec();
    want.sort_unstable();
    assert_eq!(got, want, "dislodged units\n{:#?}", r.out);
    r
}

// ---- 6.B coasts ----

#[test]
fn datc_6_b_4_support_to_unreachable_coast_allowed() {
    case(
        &[
            ("F", "F GAS - SPA/NC"),
            ("F", "F MAR S F GAS - SPA/NC"),
            ("I", "F WES - SPA/SC"),
        ],
        &[("GAS", true), ("MAR", true), ("WES", false)],
        &[],
    );
}

#[test]
fn datc_6_b_9_supporting_with_wrong_coast() {
    let r = case(
        &[
            ("F", "F POR S F MAO - SPA/NC"),
            ("F", "F MAO - SPA/SC"),
            ("I", "F LYO S F WES - SPA/SC"),
            ("I", "F WES - SPA/SC"),
        ],
        &[("POR", false), ("MAO", false), ("LYO", true), ("WES", true)],
        &[],
    );
    assert_eq!(r.code("POR"), VOID);
    // Without a coast, the support matches the move to either coast (DATC 4.B.4).
    case(
        &[
            ("F", "F POR S F MAO - SPA"),
            ("F", "F MAO - SPA/SC"),
            ("I", "F LYO S F WES - SPA/SC"),
            ("I", "F WES - SPA/SC"),
        ],
        &[("POR", true), ("MAO", false), ("WES", false)],
        &[],
    );
}

// ---- 6.C circular movement ----

#[test]
fn datc_6_c_1_three_army_circular_movement() {
    case(
        &[
            ("T", "F ANK - CON"),
            ("T", "A CON - SMY"),
            ("T", "A SMY - ANK"),
        ],
        &[("ANK", true), ("CON", true), ("SMY", true)],
        &[],
    );
}

#[test]
fn datc_6_c_2_circular_movement_with_support() {
    case(
        &[
            ("T", "F ANK - CON"),
            ("T", "A CON - SMY"),
            ("T", "A SMY - ANK"),
            ("T", "A BUL S F ANK - CON"),
        ],
        &[("ANK", true), ("CON", true), ("SMY", true), ("BUL", true)],
        &[],
    );
}

#[test]
fn datc_6_c_3_disrupted_circular_movement() {
    case(
        &[
            ("T", "F ANK - CON"),
            ("T", "A CON - SMY"),
            ("T", "A SMY - ANK"),
            ("T", "A BUL - CON"),
        ],
        &[
            ("ANK", false),
            ("CON", false),
            ("SMY", false),
            ("BUL", false),
        ],
        &[],
    );
}

#[test]
fn datc_6_c_4_circular_movement_with_attacked_convoy() {
    case(
        &[
            ("A", "A TRI - SER"),
            ("A", "A SER - BUL"),
            ("T", "A BUL - TRI"),
            ("T", "F AEG C A BUL - TRI"),
            ("T", "F ION C A BUL - TRI"),
            ("T", "F ADR C A BUL - TRI"),
            ("I", "F NAP - ION"),
        ],
        &[
            ("TRI", true),
            ("SER", true),
            ("BUL", true),
            ("ION", true),
            ("NAP", false),
        ],
        &[],
    );
}

#[test]
fn datc_6_c_5_circular_movement_disrupted_by_dislodged_convoy() {
    let r = case(
        &[
            ("A", "A TRI - SER"),
            ("A", "A SER - BUL"),
            ("T", "A BUL - TRI"),
            ("T", "F AEG C A BUL - TRI"),
            ("T", "F ION C A BUL - TRI"),
            ("T", "F ADR C A BUL - TRI"),
            ("I", "F NAP - ION"),
            ("I", "F TUN S F NAP - ION"),
        ],
        &[
            ("TRI", false),
            ("SER", false),
            ("BUL", false),
            ("NAP", true),
        ],
        &["ION"],
    );
    assert_eq!(r.code("BUL"), NO_CONVOY);
    assert_eq!(r.code("AEG"), NO_CONVOY);
}

#[test]
fn datc_6_c_6_two_armies_with_two_convoys() {
    case(
        &[
            ("E", "F NTH C A LON - BEL"),
            ("E", "A LON - BEL"),
            ("F", "F ENG C A BEL - LON"),
            ("F", "A BEL - LON"),
        ],
        &[("LON", true), ("BEL", true), ("NTH", true), ("ENG", true)],
        &[],
    );
}

#[test]
fn datc_6_c_7_disrupted_unit_swap() {
    case(
        &[
            ("E", "F NTH C A LON - BEL"),
            ("E", "A LON - BEL"),
            ("F", "F ENG C A BEL - LON"),
            ("F", "A BEL - LON"),
            ("F", "A BUR - BEL"),
        ],
        &[("LON", false), ("BEL", false), ("BUR", false)],
        &[],
    );
}

#[test]
fn datc_6_c_8_no_self_dislodgement_in_disrupted_circular_movement() {
    case(
        &[
            ("T", "F CON - BLA"),
            ("T", "A BUL - CON"),
            ("T", "A SMY S A BUL - CON"),
            ("R", "F BLA - BUL/EC"),
            ("A", "A SER - BUL"),
        ],
        &[
            ("CON", false),
            ("BUL", false),
            ("BLA", false),
            ("SER", false),
        ],
        &[],
    );
}

#[test]
fn datc_6_c_9_no_help_dislodging_own_unit_in_disrupted_circular_movement() {
    case(
        &[
            ("T", "F CON - BLA"),
            ("T", "A SMY S A BUL - CON"),
            ("R", "F BLA - BUL/EC"),
            ("A", "A SER - BUL"),
            ("A", "A BUL - CON"),
        ],
        &[
            ("CON", false),
            ("BUL", false),
            ("BLA", false),
            ("SER", false),
        ],
        &[],
    );
}

// ---- 6.D supports and dislodges ----

#[test]
fn datc_6_d_1_to_3_hold_support_and_cuts() {
    case(
        &[
            ("A", "F ADR S A TRI - VEN"),
            ("A", "A TRI - VEN"),
            ("I", "A VEN H"),
            ("I", "A TYR S A VEN"),
        ],
        &[("TRI", false), ("TYR", true)],
        &[],
    );
    let r = case(
        &[
            ("A", "F ADR S A TRI - VEN"),
            ("A", "A TRI - VEN"),
            ("A", "A VIE - TYR"),
            ("I", "A VEN H"),
            ("I", "A TYR S A VEN"),
        ],
        &[("TRI", true), ("TYR", false)],
        &["VEN"],
    );
    assert_eq!(r.code("TYR"), CUT);
    assert_eq!(r.by("TYR"), Some("VIE"));
    let r = case(
        &[
            ("A", "F ADR S A TRI - VEN"),
            ("A", "A TRI - VEN"),
            ("I", "A VEN H"),
            ("I", "F ION - ADR"),
        ],
        &[("TRI", false), ("ADR", false), ("ION", false)],
        &[],
    );
    assert_eq!(r.code("ADR"), CUT);
}

#[test]
fn datc_6_d_4_to_6_hold_support_on_supporting_and_convoying_units() {
    case(
        &[
            ("G", "A BER S F KIE"),
            ("G", "F KIE S A BER"),
            ("R", "F BAL S A PRU - BER"),
            ("R", "A PRU - BER"),
        ],
        &[("PRU", false), ("KIE", true)],
        &[],
    );
    case(
        &[
            ("G", "A BER S A MUN - SIL"),
            ("G", "F KIE S A BER"),
            ("G", "A MUN - SIL"),
            ("R", "F BAL S A PRU - BER"),
            ("R", "A PRU - BER"),
        ],
        &[("PRU", false), ("BER", false), ("MUN", true)],
        &[],
    );
    case(
        &[
            ("G", "A BER - SWE"),
            ("G", "F BAL C A BER - SWE"),
            ("G", "F PRU S F BAL"),
            ("R", "F LVN - BAL"),
            ("R", "F BOT S F LVN - BAL"),
        ],
        &[("BER", true), ("BAL", true), ("LVN", false)],
        &[],
    );
}

#[test]
fn datc_6_d_7_and_8_no_hold_support_for_moving_unit() {
    let r = case(
        &[
            ("G", "F BAL - SWE"),
            ("G", "F PRU S F BAL"),
            ("R", "F LVN - BAL"),
            ("R", "F BOT S F LVN - BAL"),
            ("R", "A FIN - SWE"),
        ],
        &[("PRU", false), ("LVN", true), ("BAL", false)],
        &["BAL"],
    );
    assert_eq!(r.code("PRU"), VOID);
    let r = case(
        &[
            ("A", "F ION H"),
            ("A", "A SER S A ALB - GRE"),
            ("A", "A ALB - GRE"),
            ("T", "A GRE - NAP"),
            ("T", "A BUL S A GRE"),
        ],
        &[("ALB", true), ("BUL", false), ("GRE", false)],
        &["GRE"],
    );
    assert_eq!(r.code("BUL"), VOID);
    assert!(r.convoyed("GRE"));
}

#[test]
fn datc_6_d_9_no_move_support_for_holding_unit() {
    let r = case(
        &[
            ("I", "A VEN - TRI"),
            ("I", "A TYR S A VEN - TRI"),
            ("A", "A ALB S A TRI - SER"),
            ("A", "A TRI H"),
        ],
        &[("VEN", true), ("ALB", false)],
        &["TRI"],
    );
    assert_eq!(r.code("ALB"), VOID);
}

#[test]
fn datc_6_d_10_to_14_self_dislodgement() {
    case(
        &[
            ("G", "A BER H"),
            ("G", "F KIE - BER"),
            ("G", "A MUN S F KIE - BER"),
        ],
        &[("KIE", false)],
        &[],
    );
    case(
        &[
            ("G", "A BER - PRU"),
            ("G", "F KIE - BER"),
            ("G", "A MUN S F KIE - BER"),
            ("R", "A WAR - PRU"),
        ],
        &[("BER", false), ("KIE", false), ("WAR", false)],
        &[],
    );
    case(
        &[
            ("A", "F TRI H"),
            ("A", "A VIE S A VEN - TRI"),
            ("I", "A VEN - TRI"),
        ],
        &[("VEN", false)],
        &[],
    );
    case(
        &[
            ("A", "F TRI - ADR"),
            ("A", "A VIE S A VEN - TRI"),
            ("I", "A VEN - TRI"),
            ("I", "F APU - ADR"),
        ],
        &[("TRI", false), ("VEN", false), ("APU", false)],
        &[],
    );
    case(
        &[
            ("A", "F TRI H"),
            ("A", "A VIE S A VEN - TRI"),
            ("I", "A VEN - TRI"),
            ("I", "A TYR S A VEN - TRI"),
            ("I", "F ADR S A VEN - TRI"),
        ],
        &[("VEN", true)],
        &["TRI"],
    );
}

#[test]
fn datc_6_d_15_to_19_dislodge_rule() {
    case(
        &[
            ("R", "F CON S F BLA - ANK"),
            ("R", "F BLA - ANK"),
            ("T", "F ANK - CON"),
        ],
        &[("CON", true), ("BLA", true), ("ANK", false)],
        &["ANK"],
    );
    let r = case(
        &[
            ("E", "A LON H"),
            ("E", "F NTH C A BEL - LON"),
            ("F", "F ENG S A BEL - LON"),
            ("F", "A BEL - LON"),
        ],
        &[("BEL", true), ("NTH", true)],
        &["LON"],
    );
    assert_eq!(r.dislodged_by("LON"), Some("BEL"));
    let r = case(
        &[
            ("R", "F CON S F BLA - ANK"),
            ("R", "F BLA - ANK"),
            ("T", "F ANK - CON"),
            ("T", "A SMY S F ANK - CON"),
            ("T", "A ARM - ANK"),
        ],
        &[
            ("ANK", true),
            ("BLA", false),
            ("ARM", false),
            ("CON", false),
        ],
        &["CON"],
    );
    assert_eq!(r.code("CON"), DISLODGED);
    case(
        &[
            ("R", "F CON S F BLA - ANK"),
            ("R", "F BLA - ANK"),
            ("R", "A BUL S F CON"),
            ("T", "F ANK - CON"),
            ("T", "A SMY S F ANK - CON"),
            ("T", "A ARM - ANK"),
        ],
        &[("BLA", true), ("ANK", false), ("ARM", false)],
        &["ANK"],
    );
    case(
        &[
            ("R", "F CON S F BLA - ANK"),
            ("R", "F BLA - ANK"),
            ("R", "A SMY S F ANK - CON"),
            ("T", "F ANK - CON"),
        ],
        &[("BLA", true), ("CON", true)],
        &["ANK"],
    );
}

#[test]
fn datc_6_d_20_and_21_cuts() {
    case(
        &[
            ("E", "F LON S F NTH - ENG"),
            ("E", "F NTH - ENG"),
            ("E", "A YOR - LON"),
            ("F", "F ENG H"),
        ],
        &[("LON", true), ("NTH", true), ("YOR", false)],
        &["ENG"],
    );
    case(
        &[
            ("A", "F TRI H"),
            ("I", "A VEN - TRI"),
            ("I", "A TYR S A VEN - TRI"),
            ("G", "A MUN - TYR"),
            ("R", "A SIL - MUN"),
            ("R", "A BER S A SIL - MUN"),
        ],
        &[("VEN", false), ("TYR", false), ("SIL", true)],
        &["MUN"],
    );
}

#[test]
fn datc_6_d_33_and_34() {
    case(
        &[
            ("A", "A SER - BUD"),
            ("A", "A VIE - BUD"),
            ("R", "A GAL S A SER - BUD"),
            ("T", "A BUL - SER"),
        ],
        &[("SER", true), ("VIE", false), ("BUL", true)],
        &[],
    );
    // The Italian support targeting its own area is illegal and arrives as a hold.
    case(
        &[
            ("G", "A BER - PRU"),
            ("G", "A SIL S A BER - PRU"),
            ("G", "F BAL S A BER - PRU"),
            ("I", "A PRU H"),
            ("R", "A WAR S A LVN - PRU"),
            ("R", "A LVN - PRU"),
        ],
        &[("BER", true), ("LVN", false)],
        &["PRU"],
    );
}

// ---- 6.E head-to-head battles and beleaguered garrisons ----

#[test]
fn datc_6_e_1_to_3() {
    case(
        &[
            ("G", "A BER - PRU"),
            ("G", "F KIE - BER"),
            ("G", "A SIL S A BER - PRU"),
            ("R", "A PRU - BER"),
        ],
        &[("BER", true), ("KIE", true), ("PRU", false)],
        &["PRU"],
    );
    case(
        &[
            ("G", "A BER - KIE"),
            ("G", "F KIE - BER"),
            ("G", "A MUN S A BER - KIE"),
        ],
        &[("BER", false), ("KIE", false)],
        &[],
    );
    case(
        &[
            ("G", "A BER - KIE"),
            ("G", "A MUN S F KIE - BER"),
            ("E", "F KIE - BER"),
        ],
        &[("BER", false), ("KIE", false)],
        &[],
    );
}

fn north_sea_battle(extra: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    let mut v = vec![
        ("G", "F HOL - NTH"),
        ("G", "F HEL S F HOL - NTH"),
        ("G", "F SKA S F HOL - NTH"),
        ("F", "F NTH - HOL"),
        ("F", "F BEL S F NTH - HOL"),
        ("E", "F EDI S F NWG - NTH"),
        ("E", "F YOR S F NWG - NTH"),
        ("E", "F NWG - NTH"),
        ("A", "A KIE S A RUH - HOL"),
        ("A", "A RUH - HOL"),
    ];
    v.extend_from_slice(extra);
    v
}

#[test]
fn datc_6_e_4_non_dislodged_loser_still_has_effect() {
    case(
        &north_sea_battle(&[]),
        &[
            ("HOL", false),
            ("NTH", false),
            ("NWG", false),
            ("RUH", false),
        ],
        &[],
    );
}

#[test]
fn datc_6_e_5_loser_dislodged_by_another_army_still_has_effect() {
    let r = case(
        &north_sea_battle(&[("E", "F LON S F NWG - NTH")]),
        &[
            ("HOL", false),
            ("NTH", false),
            ("NWG", true),
            ("RUH", false),
        ],
        &["NTH"],
    );
    assert_eq!(r.dislodged_by("NTH"), Some("NWG"));
}

#[test]
fn datc_6_e_6_not_dislodged_because_of_own_support() {
    case(
        &[
            ("G", "F HOL - NTH"),
            ("G", "F HEL S F HOL - NTH"),
            ("F", "F NTH - HOL"),
            ("F", "F BEL S F NTH - HOL"),
            ("F", "F ENG S F HOL - NTH"),
            ("A", "A KIE S A RUH - HOL"),
            ("A", "A RUH - HOL"),
        ],
        &[("HOL", false), ("NTH", false), ("RUH", false)],
        &[],
    );
}

fn beleaguered_north_sea(english: &'static str) -> Vec<(&'static str, &'static str)> {
    vec![
        ("E", english),
        ("E", "F YOR S F NWY - NTH"),
        ("G", "F HOL S F HEL - NTH"),
        ("G", "F HEL - NTH"),
        ("R", "F SKA S F NWY - NTH"),
        ("R", "F NWY - NTH"),
    ]
}

#[test]
fn datc_6_e_7_to_10_self_dislodgement_with_beleaguered_garrison() {
    case(
        &beleaguered_north_sea("F NTH H"),
        &[("HEL", false), ("NWY", false)],
        &[],
    );
    case(
        &beleaguered_north_sea("F NTH - NWY"),
        &[("NTH", false), ("HEL", false), ("NWY", false)],
        &[],
    );
    case(
        &beleaguered_north_sea("F NTH - NWG"),
        &[("NTH", true), ("HEL", false), ("NWY", true)],
        &[],
    );
    let mut orders = beleaguered_north_sea("F NTH - DEN");
    orders.push(("G", "F DEN - HEL"));
    case(
        &orders,
        &[
            ("NTH", false),
            ("HEL", false),
            ("NWY", false),
            ("DEN", false),
        ],
        &[],
    );
}

#[test]
fn datc_6_e_11_swap_with_adjacent_convoy_and_two_coasts() {
    let r = case(
        &[
            ("F", "A SPA - POR via"),
            ("F", "F MAO C A SPA - POR"),
            ("F", "F LYO S F POR - SPA/NC"),
            ("G", "A MAR S A GAS - SPA"),
            ("G", "A GAS - SPA"),
            ("I", "F POR - SPA/NC"),
            ("I", "F WES S F POR - SPA/NC"),
        ],
        &[("SPA", true), ("POR", true), ("GAS", false)],
        &[],
    );
    assert!(r.convoyed("SPA"));
}

#[test]
fn datc_6_e_12_to_15() {
    case(
        &[
            ("A", "A BUD - RUM"),
            ("A", "A SER S A VIE - BUD"),
            ("I", "A VIE - BUD"),
            ("R", "A GAL - BUD"),
            ("R", "A RUM S A GAL - BUD"),
        ],
        &[("BUD", false), ("VIE", false), ("GAL", false)],
        &[],
    );
    case(
        &[
            ("E", "F EDI S F YOR - NTH"),
            ("E", "F YOR - NTH"),
            ("F", "F BEL - NTH"),
            ("F", "F ENG S F BEL - NTH"),
            ("G", "F NTH H"),
            ("R", "F NWG - NTH"),
            ("R", "F NWY S F NWG - NTH"),
        ],
        &[("YOR", false), ("BEL", false), ("NWG", false)],
        &[],
    );
    // 6.E.14: the illegal fleet move arrives as a hold and still defends.
    case(
        &[("E", "A LVP - EDI"), ("R", "F EDI H")],
        &[("LVP", false)],
        &[],
    );
    case(
        &[
            ("E", "F HOL S A RUH - KIE"),
            ("E", "A RUH - KIE"),
            ("F", "A KIE - BER"),
            ("F", "A MUN S A KIE - BER"),
            ("F", "A SIL S A KIE - BER"),
            ("G", "A BER - KIE"),
            ("G", "F DEN S A BER - KIE"),
            ("G", "F HEL S A BER - KIE"),
            ("R", "F BAL S A PRU - BER"),
            ("R", "A PRU - BER"),
        ],
        &[
            ("RUH", false),
            ("KIE", false),
            ("BER", false),
            ("PRU", false),
        ],
        &[],
    );
}

// ---- 6.F convoys ----

#[test]
fn datc_6_f_1_to_3() {
    // 6.F.1: the convoy order of the coastal fleet is illegal and arrives as a hold.
    let r = case(
        &[
            ("T", "A GRE - SEV"),
            ("T", "F AEG C A GRE - SEV"),
            ("T", "F CON H"),
            ("T", "F BLA C A GRE - SEV"),
        ],
        &[("GRE", false)],
        &[],
    );
    assert_eq!(r.code("GRE"), NO_CONVOY);
    case(
        &[
            ("E", "F ENG C A LON - BRE"),
            ("E", "A LON - BRE"),
            ("F", "A PAR - BRE"),
        ],
        &[("LON", false), ("PAR", false), ("ENG", true)],
        &[],
    );
    case(
        &[
            ("E", "F ENG C A LON - BRE"),
            ("E", "A LON - BRE"),
            ("E", "F MAO S A LON - BRE"),
            ("F", "A PAR - BRE"),
        ],
        &[("LON", true), ("PAR", false)],
        &[],
    );
}

#[test]
fn datc_6_f_4_to_8_attacked_and_dislodged_convoys() {
    case(
        &[
            ("E", "F NTH C A LON - HOL"),
            ("E", "A LON - HOL"),
            ("G", "F SKA - NTH"),
        ],
        &[("LON", true), ("SKA", false)],
        &[],
    );
    case(
        &[
            ("E", "F NTH C A LON - HOL"),
            ("E", "A LON - HOL"),
            ("F", "F ENG - NTH"),
            ("F", "F BEL S F ENG - NTH"),
            ("G", "F SKA - NTH"),
            ("G", "F DEN S F SKA - NTH"),
        ],
        &[("LON", true), ("ENG", false), ("SKA", false)],
        &[],
    );
    case(
        &[
            ("E", "F NTH C A LON - HOL"),
            ("E", "A LON - HOL"),
            ("G", "A HOL S A BEL"),
            ("G", "A BEL S A HOL"),
            ("G", "F HEL S F SKA - NTH"),
            ("G", "F SKA - NTH"),
            ("F", "A PIC - BEL"),
            ("F", "A BUR S A PIC - BEL"),
        ],
        &[("LON", false), ("HOL", true), ("PIC", false), ("SKA", true)],
        &["NTH"],
    );
    let r = case(
        &[
            ("E", "F NTH C A LON - HOL"),
            ("E", "A LON - HOL"),
            ("G", "F HEL S F SKA - NTH"),
            ("G", "F SKA - NTH"),
        ],
        &[("LON", false), ("SKA", true)],
        &["NTH"],
    );
    assert!(r.retreats("NTH").contains(&"HOL"));
    assert!(r.contested().is_empty());
    case(
        &[
            ("E", "F NTH C A LON - HOL"),
            ("E", "A LON - HOL"),
            ("G", "F HEL S F SKA - NTH"),
            ("G", "F SKA - NTH"),
            ("G", "A BEL - HOL"),
        ],
        &[("LON", false), ("BEL", true)],
        &["NTH"],
    );
}

#[test]
fn datc_6_f_9_to_13_multi_route_convoys() {
    case(
        &[
            ("E", "F ENG C A LON - BEL"),
            ("E", "F NTH C A LON - BEL"),
            ("E", "A LON - BEL"),
            ("F", "F BRE S F MAO - ENG"),
            ("F", "F MAO - ENG"),
        ],
        &[("LON", true), ("MAO", true)],
        &["ENG"],
    );
    case(
        &[
            ("E", "F NTH C A LON - BEL"),
            ("E", "A LON - BEL"),
            ("G", "F ENG C A LON - BEL"),
            ("F", "F BRE S F MAO - ENG"),
            ("F", "F MAO - ENG"),
        ],
        &[("LON", true)],
        &["ENG"],
    );
    case(
        &[
            ("E", "A LON - BEL"),
            ("G", "F ENG C A LON - BEL"),
            ("R", "F NTH C A LON - BEL"),
            ("F", "F BRE S F MAO - ENG"),
            ("F", "F MAO - ENG"),
        ],
        &[("LON", true)],
        &["ENG"],
    );
    case(
        &[
            ("E", "F ENG C A LON - BEL"),
            ("E", "A LON - BEL"),
            ("E", "F IRI C A LON - BEL"),
            ("F", "F NAO S F MAO - IRI"),
            ("F", "F MAO - IRI"),
        ],
        &[("LON", true), ("MAO", true)],
        &["IRI"],
    );
    case(
        &[
            ("E", "A LON - BEL"),
            ("E", "F NTH C A LON - BEL"),
            ("F", "F ENG C A LON - BEL"),
            ("G", "F HOL S F DEN - NTH"),
            ("G", "F DEN - NTH"),
        ],
        &[("LON", true), ("DEN", true)],
        &["NTH"],
    );
}

#[test]
fn datc_6_f_14_simple_convoy_paradox() {
    let r = case(
        &[
            ("E", "F LON S F WAL - ENG"),
            ("E", "F WAL - ENG"),
            ("F", "A BRE - LON"),
            ("F", "F ENG C A BRE - LON"),
        ],
        &[("LON", true), ("WAL", true), ("BRE", false), ("ENG", false)],
        &["ENG"],
    );
    assert_eq!(r.code("BRE"), NO_CONVOY);
    assert_eq!(r.szykman(), vec!["ENG"]);
}

#[test]
fn datc_6_f_15_simple_convoy_paradox_with_additional_convoy() {
    case(
        &[
            ("E", "F LON S F WAL - ENG"),
            ("E", "F WAL - ENG"),
            ("F", "A BRE - LON"),
            ("F", "F ENG C A BRE - LON"),
            ("I", "F IRI C A NAF - WAL"),
            ("I", "F MAO C A NAF - WAL"),
            ("I", "A NAF - WAL"),
        ],
        &[("WAL", true), ("NAF", true), ("BRE", false), ("LON", true)],
        &["ENG"],
    );
}

#[test]
fn datc_6_f_16_pandins_paradox() {
    let r = case(
        &[
            ("E", "F LON S F WAL - ENG"),
            ("E", "F WAL - ENG"),
            ("F", "A BRE - LON"),
            ("F", "F ENG C A BRE - LON"),
            ("G", "F NTH S F BEL - ENG"),
            ("G", "F BEL - ENG"),
        ],
        &[
            ("LON", true),
            ("WAL", false),
            ("BEL", false),
            ("BRE", false),
            ("ENG", false),
        ],
        &[],
    );
    assert_eq!(r.code("ENG"), NO_CONVOY);
}

#[test]
fn datc_6_f_17_pandins_extended_paradox() {
    let r = case(
        &[
            ("E", "F LON S F WAL - ENG"),
            ("E", "F WAL - ENG"),
            ("F", "A BRE - LON"),
            ("F", "F ENG C A BRE - LON"),
            ("F", "F YOR S A BRE - LON"),
            ("G", "F NTH S F BEL - ENG"),
            ("G", "F BEL - ENG"),
        ],
        &[
            ("LON", true),
            ("WAL", false),
            ("BEL", false),
            ("BRE", false),
            ("ENG", false),
        ],
        &[],
    );
    assert_eq!(r.code("BRE"), NO_CONVOY);
}

#[test]
fn datc_6_f_18_betrayal_paradox() {
    let r = case(
        &[
            ("E", "F NTH C A LON - BEL"),
            ("E", "A LON - BEL"),
            ("E", "F ENG S A LON - BEL"),
            ("F", "F BEL S F NTH"),
            ("G", "F HEL S F SKA - NTH"),
            ("G", "F SKA - NTH"),
        ],
        &[
            ("LON", false),
            ("BEL", true),
            ("SKA", false),
            ("NTH", false),
        ],
        &[],
    );
    assert_eq!(r.code("NTH"), NO_CONVOY);
    assert_eq!(r.code("LON"), NO_CONVOY);
}

#[test]
fn datc_6_f_19_multi_route_convoy_disruption_paradox() {
    let r = case(
        &[
            ("F", "A TUN - NAP"),
            ("F", "F TYS C A TUN - NAP"),
            ("F", "F ION C A TUN - NAP"),
            ("I", "F NAP S F ROM - TYS"),
            ("I", "F ROM - TYS"),
        ],
        &[
            ("TUN", false),
            ("NAP", false),
            ("ROM", false),
            ("TYS", true),
        ],
        &[],
    );
    assert_eq!(r.code("TUN"), BOUNCE);
    assert_eq!(r.code("NAP"), CUT);
}

#[test]
fn datc_6_f_20_unwanted_multi_route_convoy_paradox() {
    case(
        &[
            ("F", "A TUN - NAP"),
            ("F", "F TYS C A TUN - NAP"),
            ("I", "F NAP S F ION"),
            ("I", "F ION C A TUN - NAP"),
            ("T", "F AEG S F EAS - ION"),
            ("T", "F EAS - ION"),
        ],
        &[("NAP", false), ("EAS", true), ("TUN", false)],
        &["ION"],
    );
}

#[test]
fn datc_6_f_21_dads_army_convoy() {
    let r = case(
        &[
            ("R", "A EDI S A NWY - CLY"),
            ("R", "F NWG C A NWY - CLY"),
            ("R", "A NWY - CLY"),
            ("F", "F IRI S F MAO - NAO"),
            ("F", "F MAO - NAO"),
            ("E", "A LVP - CLY via"),
            ("E", "F NAO C A LVP - CLY"),
            ("E", "F CLY S F NAO"),
        ],
        &[("MAO", true), ("CLY", false), ("LVP", false), ("NWY", true)],
        &["NAO", "CLY"],
    );
    assert_eq!(r.code("LVP"), NO_CONVOY);
}

#[test]
fn datc_6_f_22_second_order_paradox_with_two_resolutions() {
    let r = case(
        &[
            ("E", "F EDI - NTH"),
            ("E", "F LON S F EDI - NTH"),
            ("F", "A BRE - LON"),
            ("F", "F ENG C A BRE - LON"),
            ("G", "F BEL S F PIC - ENG"),
            ("G", "F PIC - ENG"),
            ("R", "A NWY - BEL"),
            ("R", "F NTH C A NWY - BEL"),
        ],
        &[
            ("EDI", true),
            ("LON", true),
            ("BRE", false),
            ("BEL", true),
            ("PIC", true),
            ("NWY", false),
        ],
        &["ENG", "NTH"],
    );
    assert_eq!(r.szykman(), vec!["ENG", "NTH"]);
}

#[test]
fn datc_6_f_23_second_order_paradox_with_two_exclusive_convoys() {
    let r = case(
        &[
            ("E", "F EDI - NTH"),
            ("E", "F YOR S F EDI - NTH"),
            ("F", "A BRE - LON"),
            ("F", "F ENG C A BRE - LON"),
            ("G", "F BEL S F ENG"),
            ("G", "F LON S F NTH"),
            ("I", "F MAO - ENG"),
            ("I", "F IRI S F MAO - ENG"),
            ("R", "A NWY - BEL"),
            ("R", "F NTH C A NWY - BEL"),
        ],
        &[
            ("EDI", false),
            ("BRE", false),
            ("BEL", true),
            ("LON", true),
            ("MAO", false),
            ("NWY", false),
        ],
        &[],
    );
    assert_eq!(r.code("ENG"), NO_CONVOY);
    assert_eq!(r.code("NTH"), NO_CONVOY);
}

#[test]
fn datc_6_f_24_second_order_paradox_with_no_resolution() {
    case(
        &[
            ("E", "F EDI - NTH"),
            ("E", "F LON S F EDI - NTH"),
            ("E", "F IRI - ENG"),
            ("E", "F MAO S F IRI - ENG"),
            ("F", "A BRE - LON"),
            ("F", "F ENG C A BRE - LON"),
            ("F", "F BEL S F ENG"),
            ("R", "A NWY - BEL"),
            ("R", "F NTH C A NWY - BEL"),
        ],
        &[
            ("EDI", true),
            ("LON", true),
            ("IRI", false),
            ("BRE", false),
            ("BEL", true),
            ("NWY", false),
        ],
        &["NTH"],
    );
}

#[test]
fn datc_6_f_25_cut_support_last() {
    case(
        &[
            ("G", "A RUH - BEL"),
            ("G", "A HOL S A RUH - BEL"),
            ("G", "A DEN - NWY"),
            ("G", "F SKA C A DEN - NWY"),
            ("G", "A FIN S A DEN - NWY"),
            ("E", "A YOR - HOL"),
            ("E", "F NTH C A YOR - HOL"),
            ("E", "F HEL S A YOR - HOL"),
            ("E", "A BEL H"),
            ("R", "F NWG - NTH"),
            ("R", "F NWY S F NWG - NTH"),
            ("R", "F SWE - SKA"),
        ],
        &[
            ("RUH", false),
            ("HOL", false),
            ("DEN", true),
            ("YOR", true),
            ("NWG", false),
            ("NWY", false),
            ("SWE", false),
        ],
        &["NWY", "HOL"],
    );
}

// ---- 6.G convoying to adjacent provinces ----

#[test]
fn datc_6_g_1_and_2_swap_and_kidnapping() {
    case(
        &[
            ("E", "A NWY - SWE"),
            ("E", "F SKA C A NWY - SWE"),
            ("R", "A SWE - NWY"),
        ],
        &[("NWY", true), ("SWE", true)],
        &[],
    );
    let r = case(
        &[
            ("E", "A NWY - SWE"),
            ("R", "F SWE - NWY"),
            ("G", "F SKA C A NWY - SWE"),
        ],
        &[("NWY", false), ("SWE", false), ("SKA", false)],
        &[],
    );
    assert_eq!(r.code("SKA"), VOID);
}

#[test]
fn datc_6_g_3_and_4_unwanted_disrupted_convoy() {
    let orders = [
        ("F", "F BRE - ENG"),
        ("F", "A PIC - BEL"),
        ("F", "A BUR S A PIC - BEL"),
        ("F", "F MAO S F BRE - ENG"),
        ("E", "F ENG C A PIC - BEL"),
    ];
    let r = case(&orders, &[("PIC", true), ("BRE", true)], &["ENG"]);
    assert!(!r.convoyed("PIC"));
    assert_eq!(r.code("ENG"), VOID);
    // Void, and dislodged all the same: `by` names the dislodger.
    assert_eq!(r.by("ENG"), Some("BRE"));
    assert_eq!(r.dislodged_by("ENG"), Some("BRE"));
    assert!(r.szykman().is_empty());
    let mut orders = orders.to_vec();
    orders.push(("E", "A BEL - PIC"));
    case(&orders, &[("PIC", true), ("BEL", false)], &["ENG", "BEL"]);
}

#[test]
fn datc_6_g_5_to_7_intent() {
    case(
        &[
            ("I", "A ROM - APU"),
            ("I", "F TYS C A APU - ROM"),
            ("T", "A APU - ROM"),
            ("T", "F ION C A APU - ROM"),
        ],
        &[("ROM", true), ("APU", true)],
        &[],
    );
    case(
        &[
            ("E", "A LVP - EDI"),
            ("E", "F ENG C A LVP - EDI"),
            ("G", "A EDI - LVP"),
            ("F", "F IRI H"),
            ("F", "F NTH H"),
            ("R", "F NWG C A LVP - EDI"),
            ("R", "F NAO C A LVP - EDI"),
        ],
        &[("LVP", true), ("EDI", true)],
        &[],
    );
    // 6.G.7: the impossible Russian convoy arrives as a hold; the English one shows no intent.
    let r = case(
        &[
            ("E", "F SKA C A SWE - NWY"),
            ("E", "F NWY - SWE"),
            ("R", "A SWE - NWY"),
            ("R", "F BOT H"),
        ],
        &[("NWY", false), ("SWE", false)],
        &[],
    );
    assert_eq!(r.code("SKA"), VOID);
}

#[test]
fn datc_6_g_8_explicit_convoy_that_isnt_there() {
    let r = case(
        &[
            ("F", "A BEL - HOL via"),
            ("E", "F NTH - HEL"),
            ("E", "A HOL - KIE"),
        ],
        &[("BEL", false), ("NTH", true), ("HOL", true)],
        &[],
    );
    assert_eq!(r.code("BEL"), NO_CONVOY);
}

#[test]
fn datc_6_g_9_and_10_swapped_or_dislodged() {
    case(
        &[
            ("E", "A NWY - SWE"),
            ("E", "F SKA C A NWY - SWE"),
            ("E", "F FIN S A NWY - SWE"),
            ("R", "A SWE - NWY"),
        ],
        &[("NWY", true), ("SWE", true)],
        &[],
    );
    let r = case(
        &[
            ("E", "A NWY - SWE via"),
            ("E", "F DEN S A NWY - SWE"),
            ("E", "F FIN S A NWY - SWE"),
            ("G", "F SKA C A NWY - SWE"),
            ("R", "A SWE - NWY"),
            ("R", "F BAR S A SWE - NWY"),
            ("F", "F NWG - NWY"),
            ("F", "F NTH S F NWG - NWY"),
        ],
        &[("NWY", true), ("SWE", false), ("NWG", false)],
        &["SWE"],
    );
    // DATC 4.A.7 choice b: the dislodged unit still bounces the fleet and makes a standoff.
    assert_eq!(r.by("NWG"), Some("SWE"));
    assert_eq!(r.contested(), vec!["NWY"]);
}

#[test]
fn datc_6_g_11_convoy_to_adjacent_province_with_paradox() {
    case(
        &[
            ("E", "F NWY S F NTH - SKA"),
            ("E", "F NTH - SKA"),
            ("R", "A SWE - NWY"),
            ("R", "F SKA C A SWE - NWY"),
            ("R", "F BAR S A SWE - NWY"),
        ],
        &[("NTH", true), ("SWE", false), ("NWY", true)],
        &["SKA"],
    );
}

#[test]
fn datc_6_g_12_swapping_two_units_with_two_convoys() {
    case(
        &[
            ("E", "A LVP - EDI via"),
            ("E", "F NAO C A LVP - EDI"),
            ("E", "F NWG C A LVP - EDI"),
            ("G", "A EDI - LVP via"),
            ("G", "F NTH C A EDI - LVP"),
            ("G", "F ENG C A EDI - LVP"),
            ("G", "F IRI C A EDI - LVP"),
        ],
        &[("LVP", true), ("EDI", true)],
        &[],
    );
}

#[test]
fn datc_6_g_13_support_cut_on_attack_on_itself_via_convoy() {
    case(
        &[
            ("A", "F ADR C A TRI - VEN"),
            ("A", "A TRI - VEN via"),
            ("I", "A VEN S F ALB - TRI"),
            ("I", "F ALB - TRI"),
        ],
        &[("VEN", true), ("ALB", true), ("TRI", false)],
        &["TRI"],
    );
}

#[test]
fn datc_6_g_14_and_15_bounce_by_convoy_to_adjacent_province() {
    case(
        &[
            ("E", "A NWY - SWE"),
            ("E", "F DEN S A NWY - SWE"),
            ("E", "F FIN S A NWY - SWE"),
            ("F", "F NWG - NWY"),
            ("F", "F NTH S F NWG - NWY"),
            ("G", "F SKA C A SWE - NWY"),
            ("R", "A SWE - NWY via"),
            ("R", "F BAR S A SWE - NWY"),
        ],
        &[("NWY", true), ("NWG", false), ("SWE", false)],
        &["SWE"],
    );
    case(
        &[
            ("E", "F NTH C A LON - BEL"),
            ("E", "A HOL S A LON - BEL"),
            ("E", "A YOR - LON"),
            ("E", "A LON - BEL via"),
            ("F", "F ENG C A BEL - LON"),
            ("F", "A BEL - LON via"),
        ],
        &[("LON", true), ("BEL", false), ("YOR", false)],
        &["BEL"],
    );
}

#[test]
fn datc_6_g_16_to_18_two_units_in_one_area_bug() {
    case(
        &[
            ("E", "A NWY - SWE"),
            ("E", "A DEN S A NWY - SWE"),
            ("E", "F BAL S A NWY - SWE"),
            ("E", "F NTH - NWY"),
            ("R", "A SWE - NWY via"),
            ("R", "F SKA C A SWE - NWY"),
            ("R", "F NWG S A SWE - NWY"),
        ],
        &[("NWY", true), ("SWE", true), ("NTH", false)],
        &[],
    );
    case(
        &[
            ("E", "A NWY - SWE via"),
            ("E", "A DEN S A NWY - SWE"),
            ("E", "F BAL S A NWY - SWE"),
            ("E", "F SKA C A NWY - SWE"),
            ("E", "F NTH - NWY"),
            ("R", "A SWE - NWY"),
            ("R", "F NWG S A SWE - NWY"),
        ],
        &[("NWY", true), ("SWE", true), ("NTH", false)],
        &[],
    );
    case(
        &[
            ("E", "F NTH C A LON - BEL"),
            ("E", "A HOL S A LON - BEL"),
            ("E", "A YOR - LON"),
            ("E", "A LON - BEL"),
            ("E", "A RUH S A LON - BEL"),
            ("F", "F ENG C A BEL - LON"),
            ("F", "A BEL - LON"),
            ("F", "A WAL S A BEL - LON"),
        ],
        &[("LON", true), ("BEL", true), ("YOR", false)],
        &[],
    );
}

#[test]
fn datc_6_g_19_and_20() {
    // 6.G.19: the unnecessary French convoy is illegal and arrives as a hold; the Italian fleet
    // cannot show intent for a French army.
    let r = case(
        &[
            ("F", "A MAR - SPA"),
            ("F", "F WES H"),
            ("I", "F LYO C A MAR - SPA"),
            ("I", "A SPA - MAR"),
        ],
        &[("MAR", false), ("SPA", false)],
        &[],
    );
    assert_eq!(r.code("LYO"), VOID);
    let r = case(
        &[
            ("F", "F BRE - ENG"),
            ("F", "A PIC - BEL via"),
            ("F", "A BUR S A PIC - BEL"),
            ("F", "F MAO S F BRE - ENG"),
            ("E", "F ENG C A PIC - BEL"),
        ],
        &[("PIC", false), ("BRE", true)],
        &["ENG"],
    );
    assert_eq!(r.code("PIC"), NO_CONVOY);
}

// ---- 6.H what the movement phase leaves for retreats ----

#[test]
fn datc_6_h_5_and_6_attacker_origin_and_standoff() {
    let r = case(
        &[
            ("R", "F CON S F BLA - ANK"),
            ("R", "F BLA - ANK"),
            ("T", "F ANK H"),
        ],
        &[("BLA", true)],
        &["ANK"],
    );
    assert_eq!(r.retreats("ANK"), vec!["ARM"]);
    let r = case(
        &[
            ("A", "A BUD S A TRI - VIE"),
            ("A", "A TRI - VIE"),
            ("G", "A MUN - BOH"),
            ("G", "A SIL - BOH"),
            ("I", "A VIE H"),
        ],
        &[("TRI", true), ("MUN", false), ("SIL", false)],
        &["VIE"],
    );
    assert_eq!(r.contested(), vec!["BOH"]);
    assert_eq!(r.retreats("VIE"), vec!["GAL", "TYR"]);
}

#[test]
fn datc_6_h_9_dislodged_unit_will_not_make_attackers_area_contested() {
    let r = case(
        &[
            ("E", "F HEL - KIE"),
            ("E", "F DEN S F HEL - KIE"),
            ("G", "A BER - PRU"),
            ("G", "F KIE H"),
            ("G", "A SIL S A BER - PRU"),
            ("R", "A PRU - BER"),
        ],
        &[("HEL", true), ("BER", true), ("PRU", false)],
        &["KIE", "PRU"],
    );
    assert!(r.contested().is_empty());
    assert_eq!(r.retreats("KIE"), vec!["BAL", "BER", "HOL"]);
}

#[test]
fn datc_6_h_10_not_retreating_to_attacker_does_not_mean_contested() {
    let r = case(
        &[
            ("E", "A KIE H"),
            ("G", "A BER - KIE"),
            ("G", "A MUN S A BER - KIE"),
            ("G", "A PRU H"),
            ("R", "A WAR - PRU"),
            ("R", "A SIL S A WAR - PRU"),
        ],
        &[("BER", true), ("WAR", true)],
        &["KIE", "PRU"],
    );
    assert_eq!(r.retreats("KIE"), vec!["DEN", "HOL", "RUH"]);
    assert_eq!(r.retreats("PRU"), vec!["BER", "LVN"]);
}

#[test]
fn datc_6_h_11_and_12_retreat_when_dislodged_by_adjacent_convoy() {
    let r = case(
        &[
            ("F", "A GAS - MAR via"),
            ("F", "A BUR S A GAS - MAR"),
            ("F", "F MAO C A GAS - MAR"),
            ("F", "F WES C A GAS - MAR"),
            ("F", "F LYO C A GAS - MAR"),
            ("I", "A MAR H"),
        ],
        &[("GAS", true)],
        &["MAR"],
    );
    assert_eq!(r.retreats("MAR"), vec!["GAS", "PIE", "SPA"]);
    let r = case(
        &[
            ("E", "A LVP - EDI via"),
            ("E", "F IRI C A LVP - EDI"),
            ("E", "F ENG C A LVP - EDI"),
            ("E", "F NTH C A LVP - EDI"),
            ("F", "F BRE - ENG"),
            ("F", "F MAO S F BRE - ENG"),
            ("R", "A EDI - LVP via"),
            ("R", "F NWG C A EDI - LVP"),
            ("R", "F NAO C A EDI - LVP"),
            ("R", "A CLY S A EDI - LVP"),
        ],
        &[("EDI", true), ("LVP", false), ("BRE", true)],
        &["LVP", "ENG"],
    );
    assert_eq!(r.code("LVP"), DISLODGED);
    assert_eq!(r.retreats("LVP"), vec!["EDI", "WAL", "YOR"]);
}

#[test]
fn datc_6_h_13_to_16_retreat_options() {
    let r = case(
        &[
            ("E", "A PIC H"),
            ("E", "F ENG C A PIC - LON"),
            ("F", "A PAR - PIC"),
            ("F", "A BRE S A PAR - PIC"),
        ],
        &[("PAR", true)],
        &["PIC"],
    );
    assert_eq!(r.retreats("PIC"), vec!["BEL", "BUR"]);
    let r = case(
        &[
            ("E", "A PIC H"),
            ("E", "F ENG S A PIC - BEL"),
            ("F", "A PAR - PIC"),
            ("F", "A BRE S A PAR - PIC"),
            ("F", "A BUR H"),
            ("G", "A MUN S A MAR - BUR"),
            ("G", "A MAR - BUR"),
        ],
        &[("PAR", true), ("MAR", true), ("ENG", false)],
        &["PIC", "BUR"],
    );
    assert!(r.retreats("PIC").contains(&"BEL"));
    assert!(r.retreats("BUR").contains(&"BEL"));
    let r = case(
        &[
            ("E", "F POR H"),
            ("F", "F SPA/SC - POR"),
            ("F", "F MAO S F SPA/SC - POR"),
        ],
        &[("SPA", true)],
        &["POR"],
    );
    assert!(r.retreats("POR").is_empty());
    let r = case(
        &[
            ("F", "F MAO - SPA/NC"),
            ("F", "F GAS - SPA/NC"),
            ("F", "F WES H"),
            ("I", "F TUN S F TYS - WES"),
            ("I", "F TYS - WES"),
        ],
        &[("TYS", true), ("MAO", false), ("GAS", false)],
        &["WES"],
    );
    assert_eq!(r.contested(), vec!["SPA"]);
    assert_eq!(r.retreats("WES"), vec!["LYO", "NAF"]);
}
