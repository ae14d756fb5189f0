//! The benchmark boards of `rust/benches/boards.json`.

#![allow(dead_code)]

use super::*;

/// One benchmark board of `rust/benches/boards.json` (see `tests/test_bench_boards.py` and
/// `rust/tests/bench_boards.rs`, which hold each board to what it claims).
pub struct Board {
    pub name: String,
    pub phase: String,
    /// `(power, order)` in the notation; the unit of each order is on the board.
    pub orders: Vec<(String, String)>,
    /// The provinces whose move goes by convoy (DATC 4.A.3).
    pub convoyed: Vec<String>,
    /// Result code name (`bounce`, `cut`, ...) -> the provinces whose order gets it; every other
    /// order succeeds (`ok`).
    pub claims: Vec<(String, Vec<String>)>,
    /// Dislodged unit's province -> its retreat options.
    pub retreats: Vec<(String, Vec<String>)>,
    /// The retreat phase that follows, if the board times one.
    pub retreat_orders: Vec<(String, String)>,
}

impl Board {
    /// Every board of `rust/benches/boards.json`.
    pub fn all() -> Vec<Board> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/rust/benches/boards.json");
        let text = std::fs::read_to_string(path).expect("read boards.json");
        let json: serde_json::Value = serde_json::from_str(&text).expect("parse boards.json");
        let pairs = |v: &serde_json::Value| -> Vec<(String, String)> {
            v.as_array()
                .map(|a| {
                    a.iter()
                        .map(|p| {
                            (
                                p[0].as_str().unwrap().to_string(),
                                p[1].as_str().unwrap().to_string(),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let lists = |v: &serde_json::Value| -> Vec<(String, Vec<String>)> {
            v.as_object()
                .unwrap()
                .iter()
                .map(|(k, l)| (k.clone(), strings(l)))
                .collect()
        };
        json.as_array()
            .unwrap()
            .iter()
            .map(|b| Board {
                name: b["name"].as_str().unwrap().to_string(),
                phase: b["phase"].as_str().unwrap().to_string(),
                orders: pairs(&b["orders"]),
                convoyed: strings(&b["convoyed"]),
                claims: lists(&b["claims"]),
                retreats: lists(&b["retreats"]),
                retreat_orders: pairs(&b["retreat_orders"]),
            })
            .collect()
    }

    /// The orders as `(power, order)` string slices.
    pub fn order_refs(&self) -> Vec<(&str, &str)> {
        self.orders
            .iter()
            .map(|(p, o)| (p.as_str(), o.as_str()))
            .collect()
    }

    /// The units of the board as `(power, "A PAR")`.
    pub fn units(&self) -> Vec<(&str, String)> {
        self.orders
            .iter()
            .map(|(p, o)| {
                let words: Vec<&str> = o.split_whitespace().collect();
                (p.as_str(), format!("{} {}", words[0], words[1]))
            })
            .collect()
    }

    /// The fast-path game at the board's movement phase (no centres owned).
    pub fn game(&self, k: &Kit) -> Game<u128> {
        let units = self.units();
        let units: Vec<(&str, &str)> = units.iter().map(|(p, u)| (*p, u.as_str())).collect();
        k.game(k.state(&self.phase, &units, &[], &[]))
    }
}
