//! The rulebook options of a game: the same value, with the same meaning, as `diplo.model.rules.Rules`
//! (see that module for the options and their DATC references). The defaults are the DATC v3.0
//! preferences (the 2023 rulebook).
//!
//! A `State` carries its rules (like a Python `Position`), so the rules sit below it. Every rule
//! the options change is one method of [`Rules`], called by the phase code and the legal-order
//! tables and nothing else: the victory ([`Rules::victory`], [`Rules::winner`]) here; those that
//! read a board (the build sites and allowance, `Rules::build_sites` and `Rules::allowance`, the
//! centres the civil-disorder distance is measured to, `Rules::disorder_sources`) in
//! `super::state`, above both the rules and the board.

use super::error::EngineError;
use super::game_map::{GameMap, Mask};
use crate::resolver::{AdjacentConvoy, ConvoyDisruption, ConvoyFallback, Paradox, Rulings};

// `Edition` (every edition, its name and its choices) and `OPTION_VALUES`, made by
// `rust/build.rs` from the one table of the editions, `python/diplo/data/editions.json`, which
// `diplo.model.rules.EDITIONS` reads as well.
include!(concat!(env!("OUT_DIR"), "/editions.rs"));

impl Edition {
    /// The edition named `name` (as `diplo.model.rules.Rules` spells it).
    pub fn named(name: &str) -> Option<Edition> {
        Self::NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| Self::ALL[i])
    }
}

/// What the civil-disorder distance is measured to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CivilDisorder {
    /// The nearest supply centre the power owns (2023 rulebook, DATC 4.D.8, 6.J.11).
    #[default]
    OwnedCentres,
    /// The nearest home centre of the power (the older rulebooks, DATC 6.J.11).
    HomeCentres,
}

/// Which of two units as far from the centres civil disorder goes first, after fleets before
/// armies (DATC 6.J.7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DisorderTie {
    /// The alphabetical order of the provinces' English names (DATC 6.J.4, 6.J.6).
    #[default]
    Name,
    /// The order of the provinces' abbreviations in lower case, character by character
    /// (godip's `remoteUnitSlice.Less`, by its province ids).
    Abbreviation,
}

/// Where a power may build.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BuildSites {
    /// Its owned, vacant home centres (the rulebook).
    #[default]
    HomeCentres,
    /// Any owned, vacant supply centre ("build anywhere").
    AnyOwnedCentre,
    /// Any owned, vacant supply centre that is a home centre of some power, its own or
    /// another's (godip's `AnyHomeCenter`, twentytwenty): never one that is nobody's home.
    AnyHomeCentre,
}

/// The options a game is played under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    pub civil_disorder: CivilDisorder,
    pub disorder_tie: DisorderTie,
    pub build_sites: BuildSites,
    /// Centres needed to win alone; `None`: the map's count.
    pub victory_centers: Option<u32>,
    /// godip: the power with the victory count wins only with more centres than any other
    /// (off: the count alone wins, the rulebook).
    pub victory_lead: bool,
    /// godip's twentytwenty: a year `Y` such that a power with strictly more centres than every
    /// other also wins when its lead is greater than `Y` minus the year; `None`: no such win.
    pub victory_margin_year: Option<u32>,
    /// The last year played; `None`: no limit.
    pub year_limit: Option<u32>,
    /// The rulebook edition the other choices started from.
    pub edition: Edition,
    /// The movement choices (DATC 4.A.1-4.A.3), read by the resolver.
    pub resolver: Rulings,
    /// MILA: a waive never uses up a build (off: it does, DATC 4.D.7).
    pub waive_free: bool,
    /// MILA (`Game._get_distance_to_home`): a fleet's civil-disorder distance counts only the
    /// moves a fleet can make, from its location (off: every border, DATC 6.J.6).
    pub disorder_fleet_moves: bool,
    /// MILA (`Game._valid_order`, `_has_convoy_path('A', army, dest)`;
    /// `convoyed_support="any_route"`): a support of an army's convoyed move is legal when any
    /// chain of the fleets on the board, the supporter's own included, runs from the army to
    /// the destination. Off: only a chain without the supporting fleet (DATC 6.D.31), read
    /// from the destination back under MILA's ports (as MILA lists such supports).
    pub support_any_route: bool,
}

/// The value of one option as `diplo.model.rules.Rules.to_json()` writes it: a name, a count or a
/// flag (a JSON boolean).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleValue<'a> {
    Name(&'a str),
    Count(Option<u32>),
    Flag(bool),
}

impl Rules {
    /// Sets the option `name` (as `diplo.model.rules.Rules` names it) to `value`: the one place that
    /// reads an option's name and values, so the bindings pass the rules by name and a new
    /// option touches only this file among the engine's plumbing.
    pub fn set(&mut self, name: &str, value: RuleValue<'_>) -> Result<(), EngineError> {
        let bad = |what: &str, v: &str| {
            Err(EngineError::invalid(format!(
                "rules: {what} must be one of {v:?}"
            )))
        };
        match (name, value) {
            ("edition", RuleValue::Name(v)) => match Edition::named(v) {
                Some(edition) => self.set_edition(edition),
                None => return bad("edition", &Edition::NAMES.join(" ")),
            },
            ("adjacent_convoy", RuleValue::Name(v)) => {
                self.resolver.adjacent_convoy = match v {
                    "intent" => AdjacentConvoy::Intent,
                    "explicit" => AdjacentConvoy::Explicit,
                    "opposite" => AdjacentConvoy::Opposite,
                    _ => return bad("adjacent_convoy", "intent explicit opposite"),
                }
            }
            ("convoy_disruption", RuleValue::Name(v)) => {
                self.resolver.convoy_disruption = match v {
                    "all" => ConvoyDisruption::AllRoutes,
                    "any" => ConvoyDisruption::AnyRoute,
                    _ => return bad("convoy_disruption", "all any"),
                }
            }
            ("convoy_fallback", RuleValue::Name(v)) => {
                self.resolver.convoy_fallback = match v {
                    "none" => ConvoyFallback::Never,
                    "land" => ConvoyFallback::Land,
                    "via" => ConvoyFallback::Via,
                    "via_always" => ConvoyFallback::ViaAlways,
                    _ => return bad("convoy_fallback", "none land via via_always"),
                }
            }
            ("support_coast", RuleValue::Name(v)) => {
                self.resolver.support_coast_ignored = match v {
                    "match" => false,
                    "any" => true,
                    _ => return bad("support_coast", "match any"),
                }
            }
            ("own_support", RuleValue::Name(v)) => {
                self.resolver.own_support_of_convoyed = match v {
                    "never" => false,
                    "convoyed" => true,
                    _ => return bad("own_support", "never convoyed"),
                }
            }
            ("head_to_head_own_support", RuleValue::Name(v)) => {
                self.resolver.head_to_head_own_support_void = match v {
                    "counts" => false,
                    "void" => true,
                    _ => return bad("head_to_head_own_support", "counts void"),
                }
            }
            ("convoyed_attack_from", RuleValue::Name(v)) => {
                self.resolver.attack_from_sea = match v {
                    "army" => false,
                    "sea" => true,
                    _ => return bad("convoyed_attack_from", "army sea"),
                }
            }
            ("retreat_after_convoy", RuleValue::Name(v)) => {
                self.resolver.retreat_any_after_convoy = match v {
                    "vacant" => false,
                    "any" => true,
                    _ => return bad("retreat_after_convoy", "vacant any"),
                }
            }
            ("convoy_broken_by", RuleValue::Name(v)) => {
                self.resolver.convoy_any_support = match v {
                    "dislodgement" => false,
                    "any_support" => true,
                    _ => return bad("convoy_broken_by", "dislodgement any_support"),
                }
            }
            ("convoy_chains", RuleValue::Name(v)) => {
                self.resolver.convoy_any_chain = match v {
                    "route" => false,
                    "any_fleets" => true,
                    _ => return bad("convoy_chains", "route any_fleets"),
                }
            }
            ("convoyed_support", RuleValue::Name(v)) => {
                self.support_any_route = match v {
                    "unneeded" => false,
                    "any_route" => true,
                    _ => return bad("convoyed_support", "unneeded any_route"),
                }
            }
            ("port_convoy", RuleValue::Name(v)) => {
                self.resolver.port_first_only = match v {
                    "anywhere" => false,
                    "first" => true,
                    _ => return bad("port_convoy", "anywhere first"),
                }
            }
            ("disorder_distance", RuleValue::Name(v)) => {
                self.disorder_fleet_moves = match v {
                    "any_border" => false,
                    "fleet_moves" => true,
                    _ => return bad("disorder_distance", "any_border fleet_moves"),
                }
            }
            ("waive", RuleValue::Name(v)) => {
                self.waive_free = match v {
                    "uses_build" => false,
                    "free" => true,
                    _ => return bad("waive", "uses_build free"),
                }
            }
            ("paradox", RuleValue::Name(v)) => {
                self.resolver.paradox = match v {
                    "szykman" => Paradox::Szykman,
                    "1971" => Paradox::Rule1971,
                    "1982" => Paradox::Rule1982,
                    "2000" => Paradox::Rule2000,
                    _ => return bad("paradox", "szykman 1971 1982 2000"),
                }
            }
            ("civil_disorder", RuleValue::Name(v)) => {
                self.civil_disorder = match v {
                    "owned" => CivilDisorder::OwnedCentres,
                    "home" => CivilDisorder::HomeCentres,
                    other => {
                        return Err(EngineError::invalid(format!(
                            "rules: civil_disorder must be 'owned' or 'home', got {other:?}"
                        )))
                    }
                }
            }
            ("disorder_tie", RuleValue::Name(v)) => {
                self.disorder_tie = match v {
                    "name" => DisorderTie::Name,
                    "abbreviation" => DisorderTie::Abbreviation,
                    _ => return bad("disorder_tie", "name abbreviation"),
                }
            }
            ("build_sites", RuleValue::Name(v)) => {
                self.build_sites = match v {
                    "home" => BuildSites::HomeCentres,
                    "any" => BuildSites::AnyOwnedCentre,
                    "any_home" => BuildSites::AnyHomeCentre,
                    other => {
                        return Err(EngineError::invalid(format!(
                            "rules: build_sites must be 'home', 'any' or 'any_home', got {other:?}"
                        )))
                    }
                }
            }
            ("victory_centers", RuleValue::Count(v)) => {
                if v == Some(0) {
                    return Err(EngineError::invalid(
                        "rules: victory_centers must be at least 1",
                    ));
                }
                self.victory_centers = v;
            }
            ("victory_lead", RuleValue::Flag(v)) => self.victory_lead = v,
            ("victory_lead", other) => {
                return Err(EngineError::invalid(format!(
                    "rules: victory_lead must be true or false, got {other:?}"
                )))
            }
            ("year_limit", RuleValue::Count(v)) => self.year_limit = v,
            ("victory_margin_year", RuleValue::Count(v)) => self.victory_margin_year = v,
            (name, value) => {
                return Err(EngineError::invalid(format!(
                    "rules: bad option {name:?} = {value:?}"
                )))
            }
        }
        Ok(())
    }

    /// Sets the edition and every choice the DATC (chapter 4) ties to it: the edition's row of
    /// the one table of them (`python/diplo/data/editions.json`, which
    /// `diplo.model.rules.EDITIONS` reads too), each choice read by [`Rules::set`] as an option
    /// given by name. Options set after it override its choices.
    pub fn set_edition(&mut self, edition: Edition) {
        self.edition = edition;
        for &(name, value) in edition.choices() {
            // rust/build.rs let in only the values the table lists for each option, and
            // `every_edition_and_every_listed_value_is_read` below holds `set` to that list.
            self.set(name, value)
                .expect("the editions table gives only values Rules::set reads");
        }
    }

    /// Reads the names `diplo.model.rules.Rules` uses (`"owned"`/`"home"`, `"home"`/`"any"`).
    pub fn from_names(
        civil_disorder: &str,
        build_sites: &str,
        victory_centers: Option<u32>,
        year_limit: Option<u32>,
    ) -> Result<Rules, EngineError> {
        let mut rules = Rules::default();
        rules.set("civil_disorder", RuleValue::Name(civil_disorder))?;
        rules.set("build_sites", RuleValue::Name(build_sites))?;
        rules.set("victory_centers", RuleValue::Count(victory_centers))?;
        rules.set("year_limit", RuleValue::Count(year_limit))?;
        Ok(rules)
    }

    /// Centres a power needs after a Fall turn to win alone.
    #[inline]
    pub fn victory<M: Mask>(&self, map: &GameMap<M>) -> u32 {
        self.victory_centers.unwrap_or(map.victory)
    }

    /// The power that wins alone with `centers` centres per power (map order) after the Fall
    /// turn of `year`: the one with the most among those with the victory count (the first in
    /// map order on a tie), and under `victory_lead` only when no other power has as many;
    /// failing that, under `victory_margin_year` the power with strictly more centres than
    /// every other when its lead is greater than that year minus `year`.
    pub fn winner<M: Mask>(&self, map: &GameMap<M>, centers: &[u32], year: u32) -> Option<usize> {
        let needed = self.victory(map);
        let mut best: Option<usize> = None;
        for (power, &n) in centers.iter().enumerate() {
            if n >= needed && best.is_none_or(|b| n > centers[b]) {
                best = Some(power);
            }
        }
        if let Some(b) = best {
            if !self.victory_lead || lead(centers, b) > 0 {
                return Some(b);
            }
        }
        let margin = self.victory_margin_year?;
        // The first power with the most centres: the leader, if its lead is strict.
        let leader = (0..centers.len()).rev().max_by_key(|&p| centers[p])?;
        let ahead = lead(centers, leader);
        (ahead > 0 && ahead > i64::from(margin) - i64::from(year)).then_some(leader)
    }
}

/// How many more centres `power` owns than the next power (0 or less: no lead).
fn lead(centers: &[u32], power: usize) -> i64 {
    let next = centers
        .iter()
        .enumerate()
        .filter(|&(p, _)| p != power)
        .map(|(_, &n)| n)
        .max()
        .unwrap_or(0);
    i64::from(centers[power]) - i64::from(next)
}

/// The home centres of every power (`build_sites="any_home"` builds only there).
pub fn some_home<M: Mask>(map: &GameMap<M>) -> M {
    map.homes.iter().fold(M::ZERO, |m, &h| m | h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_as_python_writes_them() {
        assert_eq!(
            Rules::from_names("owned", "home", None, None),
            Ok(Rules::default())
        );
        let r = Rules::from_names("home", "any", Some(10), Some(1910)).unwrap();
        assert_eq!(r.civil_disorder, CivilDisorder::HomeCentres);
        assert_eq!(r.build_sites, BuildSites::AnyOwnedCentre);
        assert_eq!((r.victory_centers, r.year_limit), (Some(10), Some(1910)));
        assert!(Rules::from_names("own", "home", None, None).is_err());
        assert!(Rules::from_names("owned", "anywhere", None, None).is_err());
        assert!(Rules::from_names("owned", "home", Some(0), None).is_err());
    }

    #[test]
    fn every_edition_and_every_listed_value_is_read() {
        for (i, edition) in Edition::ALL.into_iter().enumerate() {
            let mut r = Rules::default();
            r.set("edition", RuleValue::Name(Edition::NAMES[i]))
                .unwrap();
            assert_eq!(r.edition, edition);
            assert_eq!(Edition::named(Edition::NAMES[i]), Some(edition));
        }
        assert_eq!(Edition::default(), Edition::named("2023").unwrap());
        for &(option, names) in OPTION_VALUES {
            for name in names {
                let mut r = Rules::default();
                assert!(
                    r.set(option, RuleValue::Name(name)).is_ok(),
                    "{option}={name}"
                );
            }
            let mut r = Rules::default();
            assert!(
                r.set(option, RuleValue::Name("no such value")).is_err(),
                "{option}"
            );
        }
    }

    #[test]
    fn an_edition_sets_its_choices_and_later_options_override_them() {
        let mut r = Rules::default();
        r.set("edition", RuleValue::Name("1971")).unwrap();
        assert_eq!(r.edition, Edition::E1971);
        assert_eq!(r.civil_disorder, CivilDisorder::HomeCentres);
        assert_eq!(r.resolver.adjacent_convoy, AdjacentConvoy::Opposite);
        assert_eq!(r.resolver.convoy_disruption, ConvoyDisruption::AnyRoute);
        assert_eq!(r.resolver.paradox, Paradox::Rule1971);
        assert!(r.resolver.convoy_fallback == ConvoyFallback::Land && !r.waive_free);
        r.set("paradox", RuleValue::Name("szykman")).unwrap();
        assert_eq!(r.resolver.paradox, Paradox::Szykman);
        r.set("edition", RuleValue::Name("2023")).unwrap();
        assert_eq!(r, Rules::default());
        r.set("edition", RuleValue::Name("mila")).unwrap();
        assert!(r.waive_free && r.resolver.convoy_fallback == ConvoyFallback::Land);
        assert!(r.resolver.attack_from_sea);
        assert!(r.resolver.retreat_any_after_convoy);
        assert!(r.resolver.port_first_only && r.support_any_route);
        r.set("convoyed_support", RuleValue::Name("unneeded"))
            .unwrap();
        assert!(!r.support_any_route);
        assert!(r.set("convoyed_support", RuleValue::Name("any")).is_err());
        r.set("port_convoy", RuleValue::Name("anywhere")).unwrap();
        assert!(!r.resolver.port_first_only);
        assert!(r.set("port_convoy", RuleValue::Name("last")).is_err());
        r.set("port_convoy", RuleValue::Name("first")).unwrap();
        r.set("retreat_after_convoy", RuleValue::Name("vacant"))
            .unwrap();
        assert!(!r.resolver.retreat_any_after_convoy);
        assert!(r
            .set("retreat_after_convoy", RuleValue::Name("open"))
            .is_err());
        assert!(r.resolver.convoy_any_support);
        r.set("convoy_broken_by", RuleValue::Name("dislodgement"))
            .unwrap();
        assert!(!r.resolver.convoy_any_support);
        assert!(r
            .set("convoy_broken_by", RuleValue::Name("attack"))
            .is_err());
        r.set("waive", RuleValue::Name("uses_build")).unwrap();
        assert!(!r.waive_free);
        assert!(r.disorder_fleet_moves && r.disorder_tie == DisorderTie::Abbreviation);
        r.set("disorder_distance", RuleValue::Name("any_border"))
            .unwrap();
        assert!(!r.disorder_fleet_moves);
        r.set("edition", RuleValue::Name("godip")).unwrap();
        assert!(r.victory_lead && !r.waive_free);
        assert_eq!(r.civil_disorder, CivilDisorder::HomeCentres);
        assert_eq!(r.disorder_tie, DisorderTie::Abbreviation);
        assert_eq!(r.resolver.convoy_fallback, ConvoyFallback::Via);
        assert!(r.resolver.convoy_any_chain);
        assert!(r.set("convoy_chains", RuleValue::Name("all")).is_err());
        assert_eq!(
            Rules {
                edition: Edition::E2023,
                victory_lead: false,
                civil_disorder: CivilDisorder::OwnedCentres,
                disorder_tie: DisorderTie::Name,
                resolver: Rulings {
                    convoy_fallback: ConvoyFallback::Never,
                    convoy_any_chain: false,
                    ..r.resolver
                },
                ..r
            },
            Rules::default()
        );
        r.set("disorder_tie", RuleValue::Name("name")).unwrap();
        assert_eq!(r.disorder_tie, DisorderTie::Name);
        assert!(r.set("disorder_tie", RuleValue::Name("id")).is_err());
        assert!(r.set("convoy_fallback", RuleValue::Name("sea")).is_err());
        // dipcc: only "VIA" convoys to a neighbour, falling back overland whenever it fails.
        r.set("edition", RuleValue::Name("dipcc")).unwrap();
        assert!(!r.victory_lead && !r.waive_free);
        assert_eq!(r.resolver.adjacent_convoy, AdjacentConvoy::Explicit);
        assert_eq!(r.resolver.convoy_fallback, ConvoyFallback::ViaAlways);
        assert_eq!(r.civil_disorder, CivilDisorder::HomeCentres);
        assert_eq!(r.disorder_tie, DisorderTie::Abbreviation);
        r.set("convoy_fallback", RuleValue::Name("via")).unwrap();
        assert_eq!(r.resolver.convoy_fallback, ConvoyFallback::Via);
        r.set("convoy_fallback", RuleValue::Name("via_always"))
            .unwrap();
        assert_eq!(r.resolver.convoy_fallback, ConvoyFallback::ViaAlways);
        r.set("edition", RuleValue::Name("mila")).unwrap();
        assert!(!r.victory_lead);
        r.set("victory_lead", RuleValue::Flag(true)).unwrap();
        assert!(r.victory_lead && r.edition == Edition::Mila);
        assert!(r.set("victory_lead", RuleValue::Name("yes")).is_err());
        assert!(r.set("victory_lead", RuleValue::Count(Some(1))).is_err());
        assert!(r.set("edition", RuleValue::Name("1983")).is_err());
        r.set("build_sites", RuleValue::Name("any_home")).unwrap();
        assert_eq!(r.build_sites, BuildSites::AnyHomeCentre);
        r.set("victory_margin_year", RuleValue::Count(Some(2020)))
            .unwrap();
        assert_eq!(r.victory_margin_year, Some(2020));
        assert!(r.set("victory_margin_year", RuleValue::Flag(true)).is_err());
        assert!(r.set("paradox", RuleValue::Name("none")).is_err());
    }
}
