//! The vectorised environment's buffers, owned ([`VectorOut`]), and the standard opening.

#![allow(dead_code)]

use super::*;

/// The buffers a vectorised environment fills (`engine::vector::Buffers`), owned, sized for
/// `env`: the tests' and the benchmark's stand-in for the NumPy arrays.
pub struct VectorOut {
    pub board: Vec<i8>,
    pub phase: Vec<i16>,
    pub counts: Vec<i16>,
    pub rewards: Vec<f32>,
    pub terminated: Vec<bool>,
    pub truncated: Vec<bool>,
    pub centres: Vec<i16>,
    pub alive: Vec<bool>,
    pub winner: Vec<i8>,
    pub steps: Vec<i32>,
    pub episodes: Vec<i32>,
}

impl VectorOut {
    pub fn new(env: &VectorEnv<u128>) -> VectorOut {
        let n = env.games.len();
        let z = env.sizes();
        VectorOut {
            board: vec![0; n * z.board],
            phase: vec![0; n * z.phase],
            counts: vec![0; n * z.counts],
            rewards: vec![0.0; n * z.powers],
            terminated: vec![false; n],
            truncated: vec![false; n],
            centres: vec![0; n * z.powers],
            alive: vec![false; n * z.powers],
            winner: vec![0; n],
            steps: vec![0; n],
            episodes: vec![0; n],
        }
    }

    pub fn bufs(&mut self) -> Buffers<'_> {
        Buffers {
            board: &mut self.board,
            phase: &mut self.phase,
            counts: &mut self.counts,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            centres: &mut self.centres,
            alive: &mut self.alive,
            winner: &mut self.winner,
            steps: &mut self.steps,
            episodes: &mut self.episodes,
        }
    }
}

/// The standard opening (units as the map file gives them, centres at home).
pub fn opening(k: &Kit) -> State<u128> {
    let units: [(&str, &str); 22] = [
        ("AUSTRIA", "A BUD"),
        ("AUSTRIA", "F TRI"),
        ("AUSTRIA", "A VIE"),
        ("ENGLAND", "F EDI"),
        ("ENGLAND", "F LON"),
        ("ENGLAND", "A LVP"),
        ("FRANCE", "F BRE"),
        ("FRANCE", "A MAR"),
        ("FRANCE", "A PAR"),
        ("GERMANY", "F KIE"),
        ("GERMANY", "A BER"),
        ("GERMANY", "A MUN"),
        ("ITALY", "F NAP"),
        ("ITALY", "A ROM"),
        ("ITALY", "A VEN"),
        ("RUSSIA", "A MOS"),
        ("RUSSIA", "F SEV"),
        ("RUSSIA", "F STP/SC"),
        ("RUSSIA", "A WAR"),
        ("TURKEY", "F ANK"),
        ("TURKEY", "A CON"),
        ("TURKEY", "A SMY"),
    ];
    let homes: Vec<(String, Vec<&str>)> = MapData::standard()
        .powers
        .iter()
        .map(|(p, h)| (p.clone(), h.iter().map(String::as_str).collect()))
        .collect();
    let centers: Vec<(&str, &[&str])> = homes
        .iter()
        .map(|(p, h)| (p.as_str(), h.as_slice()))
        .collect();
    k.state("S1901M", &units, &centers, &[])
}
