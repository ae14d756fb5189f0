//! The vectorised environment (`engine::vector`) against games played one by one: the same
//! positions for the same choices, on any thread count, and refused actions that change nothing.

mod kit;

use diplo_core::engine::batched::Start;
use diplo_core::engine::encode;
use diplo_core::engine::legality::Legal;
use diplo_core::engine::observe::Layout;
use diplo_core::engine::state::MOVEMENT;
use diplo_core::engine::vector::{Config, VectorEnv};
use diplo_core::engine::ErrorKind;
use diplo_core::engine::Game;
use kit::{opening, Kit, VectorOut as Out};

fn env(k: &Kit, n: usize) -> VectorEnv<u128> {
    env_with(k, n, false)
}

fn env_with(k: &Kit, n: usize, keep_lists: bool) -> VectorEnv<u128> {
    let start = k.state(
        "S1901M",
        &[
            ("FRANCE", "A PAR"),
            ("FRANCE", "F BRE"),
            ("GERMANY", "A MUN"),
            ("GERMANY", "F KIE"),
            ("ENGLAND", "F LON"),
            ("ENGLAND", "F EDI"),
        ],
        &[
            ("FRANCE", &["PAR", "BRE"]),
            ("GERMANY", &["MUN", "KIE"]),
            ("ENGLAND", &["LON", "EDI"]),
        ],
        &[],
    );
    let cfg = Config {
        start: Start {
            state: start,
            max_year: Some(1903),
        },
        first_year: 1901,
        slots: 18,
        choices: 512,
        win: 10.0,
        draw: 10.0,
        keep_lists,
    };
    VectorEnv::new(k.map, cfg, n).expect("an environment")
}

/// A deterministic choice per entry (some at or past the slot's count: nothing ordered).
fn actions(step: u64, len: usize) -> Vec<i64> {
    (0..len as u64)
        .map(|i| {
            let x = (i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ step.wrapping_mul(0xBF58_476D_1CE4_E5B9);
            ((x >> 40) % 9) as i64 - 1
        })
        .collect()
}

#[test]
fn it_plays_what_the_games_play_on_any_thread_count() {
    plays_what_the_games_play(false);
}

#[test]
fn it_plays_what_the_games_play_keeping_the_lists() {
    plays_what_the_games_play(true);
}

fn plays_what_the_games_play(keep_lists: bool) {
    let k = Kit::standard();
    let n = 23;
    let mut one = env_with(&k, n, keep_lists);
    let mut two = env_with(&k, n, !keep_lists);
    let (mut a, mut b) = (Out::new(&one), Out::new(&two));
    one.reset(a.bufs(), 1).unwrap();
    two.reset(b.bufs(), 2).unwrap();
    let mut twins: Vec<Game<u128>> = one.games.iter().map(|e| e.game.clone()).collect();
    let per = one.sizes().counts;
    let mut ended = 0;
    for step in 0..40 {
        let acts = actions(step, n * per);
        for (i, twin) in twins.iter_mut().enumerate() {
            if one.games[i].done {
                let start = &one.setup.cfg.start;
                *twin = Game::new(k.map, start.state.clone(), start.max_year);
                continue;
            }
            let legal = one.legal(i).unwrap();
            twin.orders.clear();
            for (p, slots) in legal.iter().enumerate() {
                for (s, (codes, _)) in slots.iter().enumerate() {
                    if let Ok(c) = usize::try_from(acts[i * per + p * 18 + s]) {
                        if c < codes.len() {
                            twin.orders.push(codes[c]);
                        }
                    }
                }
            }
            twin.process().unwrap();
        }
        one.step(&acts, a.bufs(), 1).unwrap();
        two.step(&acts, b.bufs(), 2).unwrap();
        assert_eq!(a.board, b.board);
        assert_eq!(a.counts, b.counts);
        assert_eq!(a.rewards, b.rewards);
        assert_eq!(a.terminated, b.terminated);
        for (i, twin) in twins.iter().enumerate() {
            let g = &one.games[i].game;
            assert_eq!(g.state.phase_name(), twin.state.phase_name());
            assert_eq!(g.state.units, twin.state.units);
            assert_eq!(g.state.centers[..], twin.state.centers[..]);
            assert_eq!(g.over, twin.over);
            ended += usize::from(a.terminated[i]);
        }
    }
    assert!(ended >= n, "every game ended at least once ({ended})");
}

#[test]
fn refused_actions_change_nothing() {
    let k = Kit::standard();
    let mut e = env(&k, 3);
    let mut out = Out::new(&e);
    let per = e.sizes().counts;
    let early = e.step(&vec![0; 3 * per], out.bufs(), 1).unwrap_err();
    assert_eq!(early.kind(), ErrorKind::WrongState, "{early}"); // before a reset
    e.reset(out.bufs(), 1).unwrap();
    let board = out.board.clone();
    let mut bad = vec![0; 3 * per];
    bad[per + 5] = 512;
    let err = e.step(&bad, out.bufs(), 2).unwrap_err();
    assert!(err.message().contains("actions[1, 0, 5] = 512"), "{err}");
    assert_eq!(err.kind(), ErrorKind::Action);
    assert_eq!(err.index(), Some(&[1, 0, 5][..])); // the entry's place, for the bindings
    assert!(e.step(&vec![-2; 3 * per], out.bufs(), 1).is_err());
    assert!(e.step(&[0; 5], out.bufs(), 1).is_err());
    assert_eq!(out.board, board);
    assert!(e
        .games
        .iter()
        .all(|g| g.game.state.phase_name() == "S1901M"));
    // The board's static columns: centres and home centres.
    let lay = Layout::new(k.map);
    let par = k.loc("PAR") * lay.channels;
    assert_eq!(out.board[par + lay.centre], 1);
    assert_eq!(out.board[par + lay.home + k.power("FRANCE")], 1);
    assert_eq!(out.board[par + lay.owner + k.power("FRANCE")], 1);
}

/// `Legal::movement_count` and `Legal::movement_nth` (what the environment uses instead of the
/// lists) are the length and the entries of every unit's list, in every movement phase of
/// random games from the opening (convoys, split coasts and supports a convoy needs included).
#[test]
fn counts_and_entries_are_the_lists() {
    let k = Kit::standard();
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    let (mut phases, mut convoys, mut coasts) = (0, 0, 0);
    for _ in 0..25 {
        let mut game = Game::new(k.map, opening(&k), Some(1915));
        while !game.over {
            let st = game.state.clone();
            let lists: Vec<(usize, Vec<u64>)> = game.with_legal(|legal, slots| {
                slots
                    .iter()
                    .map(|s| (s.key as usize, legal.codes_of(s).to_vec()))
                    .collect()
            });
            if st.kind == MOVEMENT {
                phases += 1;
                // A fresh table, as a thread that has not listed this state would have.
                let mut legal: Legal<u128> = Legal::default();
                legal.prepare(k.map, &st, game.stamp);
                for (q, list) in &lists {
                    assert_eq!(
                        legal.movement_count(k.map, &st, *q),
                        list.len(),
                        "{} {}",
                        st.phase_name(),
                        k.map.loc_name(*q)
                    );
                    for (i, &c) in list.iter().enumerate() {
                        assert_eq!(legal.movement_nth(k.map, &st, *q, i), Some(c));
                        let kind = encode::kind_of(c);
                        convoys += usize::from(kind == encode::kind::CONVOY);
                        coasts += usize::from(
                            kind == encode::kind::SUPPORT_MOVE
                                && encode::b_of(c) >= k.map.provinces,
                        );
                    }
                    assert_eq!(legal.movement_nth(k.map, &st, *q, list.len()), None);
                }
            }
            game.orders.clear();
            for (_, list) in &lists {
                game.orders.push(list[next(list.len())]);
            }
            game.process().unwrap();
        }
    }
    assert!(
        phases > 500 && convoys > 100 && coasts > 0,
        "{phases} {convoys} {coasts}"
    );
}
