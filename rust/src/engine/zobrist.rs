//! The board hash: a 64-bit Zobrist hash of a state, kept up to date by the state's own setters
//! (`State::set_unit`, `set_center`, `set_dislodged`, `clear_dislodged`, `set_phase`) as units
//! move, so reading it costs nothing (`state::full_hash` works it out from scratch). Here are
//! the keys alone, below the map and the state: a key is made from the map's seed
//! (`game_map::map_seed`) and a fact of the board.
//!
//! What is hashed (each fact has its own key; the hash is the XOR of the keys of the facts that
//! hold):
//!
//! * every unit on the board: its location (a coast for a fleet on one), owner and type;
//! * the owner of every owned supply centre;
//! * in a retreat phase, every dislodged unit (location, owner, type) and each of its retreat
//!   options;
//! * the phase: year, season and kind.
//!
//! Not hashed: the rules (a game keeps them all its life), the pending orders, the year limit,
//! whether the game is over and its winner. Same position, same hash, whatever the history.
//!
//! The keys are not a table: key `k` of a fact is [`mix`] (the SplitMix64 finaliser, a bijection)
//! of the map's seed plus the fact's number times an odd constant, so two different facts never
//! share a key, and a key is the same in every process and every run. The seed of a map is the
//! FNV-1a hash of everything of the map that rules a game, names and tables
//! (`game_map::map_seed`): games on one map share their keys, and the same position on two maps
//! that play differently hashes differently, even where the two maps share every name.

use super::board::Piece;

/// The kinds of fact (the low byte of a fact's number).
const UNIT: u64 = 1;
const CENTER: u64 = 2;
const DISLODGED: u64 = 3;
const RETREAT: u64 = 4;
const PHASE: u64 = 5;

/// The SplitMix64 finaliser: a bijection of `u64` that spreads every input bit over the output.
#[inline]
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of fact `(kind, a, b)` under `seed`: `a` below 2^24 and `b` below 2^32, so distinct
/// facts have distinct numbers and (the map being a bijection) distinct keys.
#[inline]
fn key(seed: u64, kind: u64, a: u64, b: u64) -> u64 {
    debug_assert!(a < 1 << 24 && b < 1 << 32);
    let fact = kind | a << 8 | b << 32;
    mix(seed.wrapping_add(fact.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
}

/// The key of a unit standing on the board.
#[inline]
pub fn unit_key(seed: u64, p: Piece) -> u64 {
    key(seed, UNIT, p.loc as u64, piece_number(p))
}

/// The key of a dislodged unit.
#[inline]
pub fn dislodged_key(seed: u64, p: Piece) -> u64 {
    key(seed, DISLODGED, p.loc as u64, piece_number(p))
}

/// The key of retreat option `option` (a location) of the unit dislodged in province `prov`.
#[inline]
pub fn retreat_key(seed: u64, prov: usize, option: usize) -> u64 {
    key(seed, RETREAT, prov as u64, option as u64)
}

/// The key of `power` owning the centre `prov`.
#[inline]
pub fn center_key(seed: u64, prov: usize, power: u8) -> u64 {
    key(seed, CENTER, prov as u64, power as u64)
}

/// The key of a phase.
#[inline]
pub fn phase_key(seed: u64, year: u32, season: u8, kind: u8) -> u64 {
    key(seed, PHASE, year as u64, (season as u64) * 3 + kind as u64)
}

#[inline]
fn piece_number(p: Piece) -> u64 {
    (p.power as u64) << 1 | p.fleet as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_differ_per_fact() {
        let mut seen = std::collections::HashSet::new();
        for loc in 0..128u16 {
            for power in 0..8u8 {
                for fleet in [false, true] {
                    let p = Piece { power, fleet, loc };
                    assert!(seen.insert(unit_key(7, p)));
                    assert!(seen.insert(dislodged_key(7, p)));
                }
                assert!(seen.insert(center_key(7, loc as usize, power)));
            }
            for o in 0..128 {
                assert!(seen.insert(retreat_key(7, loc as usize, o)));
            }
        }
        for year in 0..=9999 {
            for (s, k) in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 2)] {
                assert!(seen.insert(phase_key(7, year, s, k)));
            }
        }
        // A fixed function of its input: the same in every run.
        assert_eq!(mix(0), 0);
        assert_eq!(mix(1), 0x5692_161D_100B_05E5);
    }
}
