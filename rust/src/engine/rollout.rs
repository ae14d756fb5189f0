//! Random games played entirely in the engine, for `diplo rollouts`: the default policy's
//! choices drawn from the same random numbers as Python's `random.Random(seed)`, so a game played
//! here is the game `diplo.rollouts.RandomPolicy` plays on the code API for the same seed.
//!
//! [`PyRandom`] is the Mersenne Twister (MT19937, Matsumoto and Nishimura, 1998) seeded as
//! CPython seeds `random.Random(n)` for an int `n` (`init_by_array` of the 32-bit words of
//! `abs(n)`, least significant first), and [`PyRandom::below`] is `random.Random._randbelow`
//! (`getrandbits` of `n`'s bit length until the draw is below `n`): `choice(options)` is
//! `options[rng.below(len(options))]`.
//!
//! [`random_orders`] gives one phase's orders as `diplo.rollouts` submits them: one random legal
//! code per slot, grouped by power in map order (slot order within a power); in an adjustment
//! phase a power whose only slot is its waive (it may build but has no vacant site) gives none.

use super::encode::Code;
use super::error::EngineError;
use super::game_map::Mask;
use super::phases::Game;
use super::state::ADJUSTMENTS;

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER: u32 = 0x8000_0000;
const LOWER: u32 = 0x7fff_ffff;

/// CPython's `random.Random(seed)` for an int seed (see the module documentation).
#[derive(Clone)]
pub struct PyRandom {
    mt: [u32; N],
    index: usize,
}

impl PyRandom {
    /// The generator of `random.Random(seed)`.
    pub fn new(seed: i64) -> PyRandom {
        let n = seed.unsigned_abs();
        let mut key = [n as u32, (n >> 32) as u32];
        let words = if n >> 32 != 0 { 2 } else { 1 };
        let mut rng = PyRandom::from_word(19_650_218);
        rng.mix(&mut key[..words]);
        rng
    }

    fn from_word(s: u32) -> PyRandom {
        let mut mt = [0u32; N];
        mt[0] = s;
        for i in 1..N {
            mt[i] = 1_812_433_253u32
                .wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        PyRandom { mt, index: N }
    }

    /// `init_by_array`'s mixing of `key` into the state.
    fn mix(&mut self, key: &mut [u32]) {
        let mt = &mut self.mt;
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..N.max(key.len()) {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
    }

    fn twist(&mut self) {
        let mt = &mut self.mt;
        let mag = |y: u32| if y & 1 == 1 { MATRIX_A } else { 0 };
        for k in 0..N {
            let y = (mt[k] & UPPER) | (mt[(k + 1) % N] & LOWER);
            mt[k] = mt[(k + M) % N] ^ (y >> 1) ^ mag(y);
        }
        self.index = 0;
    }

    /// The next 32 random bits (`genrand_uint32`).
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `random.Random._randbelow(n)` for `1 <= n < 2**32`.
    pub fn below(&mut self, n: u32) -> u32 {
        let bits = 32 - n.leading_zeros();
        loop {
            let r = self.next_u32() >> (32 - bits);
            if r < n {
                return r;
            }
        }
    }
}

/// The orders of the current phase of `game` as a rollout of the default policy gives them
/// (see the module documentation), into `codes` with each code's power in `owners`. Errors
/// (nothing drawn or written) when a slot has no legal order, where Python's `choice` raises.
pub fn random_orders<Mk: Mask>(
    game: &Game<Mk>,
    rng: &mut PyRandom,
    codes: &mut Vec<Code>,
    owners: &mut Vec<u8>,
) -> Result<(), EngineError> {
    codes.clear();
    owners.clear();
    let powers = game.map.powers;
    game.with_legal(|legal, slots| {
        let mut chosen: Vec<(u8, Code)> = Vec::with_capacity(slots.len());
        let mut orderable = vec![game.state.kind != ADJUSTMENTS; powers];
        for s in slots {
            let options = legal.codes_of(s);
            if options.is_empty() {
                return Err(EngineError::invalid(format!(
                    "{}: a slot of {} has no legal order",
                    game.state.phase_name(),
                    game.map.power_name(s.power as usize)
                )));
            }
            let k = rng.below(options.len() as u32) as usize;
            chosen.push((s.power, options[k]));
            if !s.key_is_power {
                orderable[s.power as usize] = true;
            }
        }
        // Stable: slot order within each power.
        chosen.sort_by_key(|&(p, _)| p);
        for (p, c) in chosen {
            if orderable[p as usize] {
                codes.push(c);
                owners.push(p);
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::PyRandom;

    // The values CPython gives: `random.Random(s).getrandbits(32)` three times, and
    // `[random.Random(42) ... .choice(range(n)) for n in (1, 2, 3, 5, 7, 17, 100, 1000)]`.
    #[test]
    fn draws_as_cpython() {
        let three = |seed: i64| {
            let mut r = PyRandom::new(seed);
            [r.next_u32(), r.next_u32(), r.next_u32()]
        };
        assert_eq!(three(0), [3_626_764_237, 1_654_615_998, 3_255_389_356]);
        assert_eq!(three(-5), [2_675_342_405, 1_097_127_993, 3_185_950_873]);
        assert_eq!(
            three((1 << 40) + 7),
            [2_635_837_658, 3_209_733_218, 3_500_038_837]
        );
        let mut r = PyRandom::new(42);
        let picks: Vec<u32> = [1, 2, 3, 5, 7, 17, 100, 1000]
            .iter()
            .map(|&n| r.below(n))
            .collect();
        assert_eq!(picks, [0, 0, 2, 2, 1, 7, 17, 754]);
    }

    #[test]
    fn many_draws_cross_a_twist() {
        // 700 draws pass the first regeneration of the state; CPython's 700th for seed 1.
        let mut r = PyRandom::new(1);
        let last = (0..700).map(|_| r.next_u32()).last();
        assert_eq!(last, Some(LAST_OF_700_SEED_1));
    }

    const LAST_OF_700_SEED_1: u32 = 3_348_972_608;
}
