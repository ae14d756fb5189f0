//! Maps beyond 128 locations: every width of the engine (`engine::mask`) plays, and a chain of
//! a thousand moves resolves on a thread with a small stack (no recursion limit).

use diplo_core::engine::encode;
use diplo_core::engine::{ErrorKind, Game, GameMap, MapSpec, Mask, Outcome, State, Wide};

/// `n` land provinces in a line (a ring with `ring`), one power.
fn line(n: usize, ring: bool) -> MapSpec {
    let mut army_adj = vec![Vec::new(); n];
    for i in 0..n - 1 {
        army_adj[i].push(i as u16 + 1);
        army_adj[i + 1].push(i as u16);
    }
    if ring {
        army_adj[0].push(n as u16 - 1);
        army_adj[n - 1].push(0);
    }
    MapSpec {
        locations: (0..n).map(|i| format!("P{i}")).collect(),
        powers: vec!["ONE".into()],
        loc_province: (0..n as u16).collect(),
        province_kind: vec![0; n],
        army_adj,
        fleet_adj: vec![Vec::new(); n],
        centers: Vec::new(),
        ports: Vec::new(),
        homes: vec![Vec::new()],
        name_rank: (0..n as u16).collect(),
        victory: 0,
        years_to_fall: 0,
        years_to_spring: 1,
        neutral: vec![],
        rebuild: vec![],
        start_armies: None,
    }
}

/// Armies on `0..armies`, each ordered one province on (around the ring); the results.
fn chain<M: Mask>(n: usize, armies: usize, ring: bool) -> Vec<u8> {
    let map: &'static GameMap<M> = GameMap::intern(line(n, ring)).expect("the line compiles");
    let units: Vec<(i64, i64, i64)> = (0..armies).map(|i| (0, 0, i as i64)).collect();
    let state = State::new(map, 1901, "S", "M", &units, &[], &[]).expect("a valid state");
    let mut game = Game::new(map, state, None);
    // Given from the head back, so that each decision waits on the one after it.
    game.orders = (0..armies)
        .rev()
        .map(|i| encode::move_to(i, (i + 1) % n, false))
        .collect();
    let mut outcome = Outcome::default();
    game.process_into(&mut outcome).expect("processed");
    outcome.results
}

#[test]
fn every_width_plays_a_long_chain_on_a_small_stack() {
    let small = std::thread::Builder::new().stack_size(128 << 10);
    let results = small
        .spawn(|| {
            (
                chain::<u128>(128, 127, false),
                chain::<Wide<4>>(256, 255, false),
                chain::<Wide<16>>(1024, 1023, false),
                chain::<Wide<16>>(1024, 1024, true),
            )
        })
        .expect("thread")
        .join()
        .expect("no stack overflow");
    assert_eq!(results.0, vec![0; 127]);
    assert_eq!(results.1, vec![0; 255]);
    assert_eq!(results.2, vec![0; 1023]);
    // The whole ring turns (a circular movement, DATC 6.C.1).
    assert_eq!(results.3, vec![0; 1024]);
}

#[test]
fn a_map_must_fit_its_width() {
    let err = GameMap::<u128>::build(line(129, false)).unwrap_err();
    assert!(err.message().contains("129 locations"), "{err}");
    assert_eq!(err.kind(), ErrorKind::Limit);
    assert!(GameMap::<Wide<4>>::build(line(129, false)).is_ok());
}
