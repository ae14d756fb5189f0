//! Property test of the game engine: arbitrary boards (any units that fit the terrain, any centre
//! owners, dislodged units with any subset of their valid retreat options) and arbitrary codes
//! (any `u64`, and any code of the used bits, mixed with legal ones). Whatever comes in, processing never panics or fails, and
//! the state afterwards is one `State::new` accepts (one unit per province, terrain, retreat
//! options reachable and empty) with every unit accounted for.
//!
//! Fixed seed and a bounded number of cases, so CI is deterministic and short; the long run is
//! `PROPTEST_CASES=100000 cargo test --release --test codes_fuzz` (see `docs/fuzzing.md`).

#![allow(clippy::needless_range_loop)] // tables indexed by province, several at once

mod kit;

use diplo_core::engine::game_map::{has, Bits, NO_POWER, SEA};
use diplo_core::engine::rules::{RuleValue, Rules};
use diplo_core::engine::{encode, EngineError, ErrorKind, Game, Outcome, State};
use kit::Kit;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};

const PHASES: [(&str, &str); 5] = [("S", "M"), ("S", "R"), ("F", "M"), ("F", "R"), ("W", "A")];

/// Per province: nothing, or (power, coin for the unit type, coin for the coast).
type Draw = (
    Vec<Option<(u8, bool, u8)>>,
    Vec<Option<u8>>,
    usize,
    Vec<(u8, bool, u8, u128)>,
);

fn draws(k: &Kit) -> impl Strategy<Value = (Draw, Vec<encode::Code>, Vec<u16>)> {
    let provinces = k.map.provinces;
    let powers = k.map.powers as u8;
    let unit = proptest::option::weighted(0.45, (0..powers, any::<bool>(), any::<u8>()));
    let owner = proptest::option::of(0..powers);
    let dislodged = proptest::collection::vec(
        (
            0..provinces as u8,
            any::<bool>(),
            any::<u8>(),
            any::<u128>(),
        ),
        0..6,
    );
    let board = (
        proptest::collection::vec(unit, provinces),
        proptest::collection::vec(owner, provinces),
        0..PHASES.len(),
        dislodged,
    );
    // Arbitrary codes, and picks among the legal lists (an index into each).
    let codes = proptest::collection::vec(prop_oneof![any::<u64>(), 0..=encode::USED], 0..40);
    let picks = proptest::collection::vec(any::<u16>(), 0..80);
    (board, codes, picks)
}

/// A unit of `power` in province `q` fitting its terrain, as `State::new` takes it.
fn fitting(k: &Kit, q: usize, power: u8, fleet_coin: bool, coast_coin: u8) -> (i64, i64, i64) {
    let map = k.map;
    let fleet = map.kind[q] == SEA || (map.kind[q] != 0 && fleet_coin);
    let loc = if fleet && map.coasts[q] != 0 {
        let coasts: Vec<usize> = Bits(map.coasts[q]).collect();
        coasts[coast_coin as usize % coasts.len()]
    } else {
        q
    };
    (i64::from(power), i64::from(fleet), loc as i64)
}

fn build(k: &Kit, d: &Draw) -> State<u128> {
    let map = k.map;
    let (units, owners, phase, dislodged) = d;
    let (season, kind) = PHASES[*phase];
    let raw: Vec<_> = units
        .iter()
        .enumerate()
        .filter_map(|(q, u)| u.map(|(p, f, c)| fitting(k, q, p, f, c)))
        .collect();
    let centers: Vec<(i64, i64)> = owners
        .iter()
        .enumerate()
        .filter(|(q, _)| has(map.centers, *q))
        .filter_map(|(q, o)| o.map(|p| (q as i64, i64::from(p))))
        .collect();
    let mut gone = Vec::new();
    if kind == "R" {
        let occupied: Vec<bool> = units.iter().map(Option::is_some).collect();
        let mut seen = vec![false; map.provinces];
        for &(q, coin, coast, subset) in dislodged {
            let q = q as usize;
            if seen[q] {
                continue;
            }
            seen[q] = true;
            let piece = fitting(k, q, coin as u8 % map.powers as u8, coin, coast);
            let reach = if piece.1 == 1 {
                map.fleet_adj[piece.2 as usize]
            } else {
                map.army_adj[q]
            };
            let options: Vec<i64> = Bits(reach)
                .enumerate()
                .filter(|&(i, o)| {
                    subset >> (i % 128) & 1 == 1 && !occupied[map.prov_of[o] as usize]
                })
                .map(|(_, o)| o as i64)
                .collect();
            gone.push((piece, options));
        }
    }
    State::new(map, 1901, season, kind, &raw, &centers, &gone).expect("a valid generated state")
}

/// The state written back the way `State::new` reads it, and read again: it must be valid.
fn reread(k: &Kit, st: &State<u128>) -> Result<State<u128>, EngineError> {
    let map = k.map;
    let mut units = Vec::new();
    let mut centers = Vec::new();
    let mut gone = Vec::new();
    for q in 0..map.provinces {
        let u = st.units[q];
        if u.is_some() {
            if map.prov_of[u.loc as usize] as usize != q {
                return Err(EngineError::invalid(format!(
                    "unit at {} filed under province {q}",
                    u.loc
                )));
            }
            units.push((i64::from(u.power), i64::from(u.fleet), i64::from(u.loc)));
        }
        if st.centers[q] != NO_POWER {
            centers.push((q as i64, i64::from(st.centers[q])));
        }
        let d = st.dislodged[q];
        if d.is_some() {
            let options = Bits(st.retreats[q]).map(|o| o as i64).collect();
            gone.push((
                (i64::from(d.power), i64::from(d.fleet), i64::from(d.loc)),
                options,
            ));
        }
    }
    let season = ["S", "F", "W"][st.season as usize];
    let kind = ["M", "R", "A"][st.kind as usize];
    State::new(
        map,
        i64::from(st.year),
        season,
        kind,
        &units,
        &centers,
        &gone,
    )
}

fn count(k: &Kit, st: &State<u128>) -> (usize, usize) {
    let units = (0..k.map.provinces)
        .filter(|&q| st.units[q].is_some())
        .count();
    let gone = (0..k.map.provinces)
        .filter(|&q| st.dislodged[q].is_some())
        .count();
    (units, gone)
}

fn check_phase(
    k: &Kit,
    d: &Draw,
    codes: &[encode::Code],
    picks: &[u16],
) -> Result<(), TestCaseError> {
    let state = build(k, d);
    let mut game: Game<u128> = k.game(state.clone());
    let mut orders: Vec<encode::Code> = codes.to_vec();
    game.with_legal(|legal, slots| {
        for (s, pick) in slots.iter().zip(picks) {
            let list = legal.codes_of(s);
            if !list.is_empty() {
                orders.push(list[*pick as usize % list.len()]);
            }
        }
    });
    game.orders = orders.clone();
    let (units_before, gone_before) = count(k, &state);
    let mut outcome = Outcome::default();
    game.process_into(&mut outcome)
        .map_err(|e| TestCaseError::fail(format!("process failed: {e}")))?;
    prop_assert_eq!(outcome.results.len(), orders.len());
    let after = &game.state;
    reread(k, after).map_err(|e| TestCaseError::fail(format!("invalid state after: {e}")))?;
    let (units_after, gone_after) = count(k, after);
    match state.kind {
        // No unit is created and none vanishes: a unit missing afterwards was dislodged, so
        // another unit stands in its province now, and a unit waiting to retreat is one of those.
        0 => {
            let mut replaced = vec![false; k.map.provinces];
            let mut kinds = std::collections::HashMap::new();
            for q in 0..k.map.provinces {
                let (b, a) = (state.units[q], after.units[q]);
                replaced[q] = b.is_some() && a.is_some() && a != b;
                if b.is_some() {
                    *kinds.entry((b.power, b.fleet)).or_insert(0i32) += 1;
                }
                for u in [a, after.dislodged[q]] {
                    if u.is_some() {
                        *kinds.entry((u.power, u.fleet)).or_insert(0i32) -= 1;
                    }
                }
                if after.dislodged[q].is_some() {
                    prop_assert!(
                        replaced[q],
                        "a unit waits to retreat from where nobody moved in"
                    );
                }
            }
            prop_assert!(kinds.values().all(|&n| n >= 0), "a unit was created");
            let lost = units_before - units_after;
            prop_assert!(lost <= replaced.iter().filter(|&&r| r).count());
            prop_assert!(gone_after <= lost);
        }
        // Units that were not dislodged stay; at most every dislodged unit comes back.
        1 => {
            prop_assert!(units_after >= units_before);
            prop_assert!(units_after <= units_before + gone_before);
            for q in 0..k.map.provinces {
                let u = state.units[q];
                if u.is_some() {
                    prop_assert_eq!(after.units[q], u, "a unit that was not dislodged changed");
                }
            }
        }
        // Builds only on empty home centres; every surviving unit is where it was.
        _ => {
            for q in 0..k.map.provinces {
                let (b, a) = (state.units[q], after.units[q]);
                if b.is_some() && a.is_some() {
                    prop_assert_eq!(a, b, "an adjustment moved a unit");
                }
            }
        }
    }
    Ok(())
}

#[test]
fn arbitrary_boards_and_codes_keep_the_state_valid() {
    let k = Kit::standard();
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(300);
    let config = Config {
        cases,
        rng_seed: RngSeed::Fixed(13),
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    runner
        .run(&draws(&k), |(d, codes, picks)| {
            check_phase(&k, &d, &codes, &picks)
        })
        .unwrap();
}

#[test]
fn occupied_or_unreachable_retreat_options_are_refused() {
    let k = Kit::standard();
    let pic = |opts: &[i64]| {
        State::new(
            k.map,
            1901,
            "F",
            "R",
            &[(1, 1, k.loc("BRE") as i64)],
            &[],
            &[((2, 0, k.loc("PIC") as i64), opts.to_vec())],
        )
    };
    let err = pic(&[k.loc("BRE") as i64, k.loc("BEL") as i64]).unwrap_err();
    assert!(err.message().contains("BRE holds a unit"), "{err}");
    assert_eq!(err.kind(), ErrorKind::Invalid);
    // MILA's retreat lists (`retreat_after_convoy="any"`) name occupied provinces: a state holds
    // one only under those rules (the retreat rule never lets the unit go there).
    let mut mila = Rules::default();
    mila.set("edition", RuleValue::Name("mila")).unwrap();
    let listed = State::with_rules(
        k.map,
        1901,
        "F",
        "R",
        &[(1, 1, k.loc("BRE") as i64)],
        &[],
        &[(
            (2, 0, k.loc("PIC") as i64),
            vec![k.loc("BRE") as i64, k.loc("BEL") as i64],
        )],
        mila,
    )
    .unwrap();
    assert_eq!(listed.rules, mila);
    let err = pic(&[k.loc("NTH") as i64]).unwrap_err();
    assert!(
        err.message().contains("cannot move to its option NTH"),
        "{err}"
    );
    assert!(pic(&[k.loc("BEL") as i64]).is_ok());
    let err = State::new(
        k.map,
        1901,
        "F",
        "M",
        &[],
        &[],
        &[((2, 0, k.loc("PIC") as i64), vec![])],
    )
    .unwrap_err();
    assert!(
        err.message().contains("only held in retreat phases"),
        "{err}"
    );
    let err = State::new(k.map, 10_000, "S", "M", &[], &[], &[]).unwrap_err();
    assert_eq!(err.to_string(), "year 10000 is not in 0..=9999");
    assert_eq!(err.kind(), ErrorKind::OutOfRange);
}
