//! The rulebook options of a game: the same value, with the same meaning, as `diplo.rules.Rules`
//! (see that module for the options and their DATC references). The defaults are the DATC v3.0
//! preferences (the 2023 rulebook).
//!
//! A [`State`] carries its rules (like a Python `Position`), and every rule the options change is
//! decided here, in one place: the build allowance and the build sites ([`Rules::build_sites`],
//! [`Rules::allowance`]), the centres the civil-disorder distance is measured to
//! ([`Rules::disorder_sources`]) and the victory count ([`Rules::victory`]). The phase code and
//! the legal-order tables call these and nothing else.

use super::game_map::{Bits, GameMap, Mask};
use super::state::State;

/// What the civil-disorder distance is measured to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CivilDisorder {
    /// The nearest supply centre the power owns (2023 rulebook, DATC 4.D.8, 6.J.11).
    #[default]
    OwnedCentres,
    /// The nearest home centre of the power (the older rulebooks, DATC 6.J.11).
    HomeCentres,
}

/// Where a power may build.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BuildSites {
    /// Its owned, vacant home centres (the rulebook).
    #[default]
    HomeCentres,
    /// Any owned, vacant supply centre ("build anywhere").
    AnyOwnedCentre,
}

/// The options a game is played under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    pub civil_disorder: CivilDisorder,
    pub build_sites: BuildSites,
    /// Centres needed to win alone; `None`: the map's count.
    pub victory_centers: Option<u32>,
    /// The last year played; `None`: no limit.
    pub year_limit: Option<u32>,
}

/// The value of one option as `diplo.rules.Rules.to_json()` writes it: a name or a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleValue<'a> {
    Name(&'a str),
    Count(Option<u32>),
}

impl Rules {
    /// Sets the option `name` (as `diplo.rules.Rules` names it) to `value`: the one place that
    /// reads an option's name and values, so the bindings pass the rules by name and a new
    /// option touches only this file among the engine's plumbing.
    pub fn set(&mut self, name: &str, value: RuleValue<'_>) -> Result<(), String> {
        match (name, value) {
            ("civil_disorder", RuleValue::Name(v)) => {
                self.civil_disorder = match v {
                    "owned" => CivilDisorder::OwnedCentres,
                    "home" => CivilDisorder::HomeCentres,
                    other => {
                        return Err(format!(
                            "rules: civil_disorder must be 'owned' or 'home', got {other:?}"
                        ))
                    }
                }
            }
            ("build_sites", RuleValue::Name(v)) => {
                self.build_sites = match v {
                    "home" => BuildSites::HomeCentres,
                    "any" => BuildSites::AnyOwnedCentre,
                    other => {
                        return Err(format!(
                            "rules: build_sites must be 'home' or 'any', got {other:?}"
                        ))
                    }
                }
            }
            ("victory_centers", RuleValue::Count(v)) => {
                if v == Some(0) {
                    return Err("rules: victory_centers must be at least 1".into());
                }
                self.victory_centers = v;
            }
            ("year_limit", RuleValue::Count(v)) => self.year_limit = v,
            (name, value) => return Err(format!("rules: bad option {name:?} = {value:?}")),
        }
        Ok(())
    }

    /// Reads the names `diplo.rules.Rules` uses (`"owned"`/`"home"`, `"home"`/`"any"`).
    pub fn from_names(
        civil_disorder: &str,
        build_sites: &str,
        victory_centers: Option<u32>,
        year_limit: Option<u32>,
    ) -> Result<Rules, String> {
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

    /// The provinces where `power` may build now: owned, vacant home centres (or any owned,
    /// vacant centre under [`BuildSites::AnyOwnedCentre`]).
    pub fn build_sites<M: Mask>(&self, map: &GameMap<M>, st: &State<M>, power: usize) -> M {
        let candidates = match self.build_sites {
            BuildSites::HomeCentres => map.homes[power],
            BuildSites::AnyOwnedCentre => map.centers,
        };
        Bits(candidates)
            .filter(|&q| st.centers[q] == power as u8 && !st.units[q].is_some())
            .fold(M::ZERO, |m, q| m | M::bit(q))
    }

    /// Builds allowed (> 0) or disbands owed (< 0) to `power` with `centers` centres and
    /// `units` units: the surplus, capped at the number of build sites (DATC 4.D.7: a power
    /// whose every site is taken builds nothing, though it may still waive).
    pub fn allowance<M: Mask>(
        &self,
        map: &GameMap<M>,
        st: &State<M>,
        power: usize,
        centers: u32,
        units: u32,
    ) -> i64 {
        let surplus = i64::from(centers) - i64::from(units);
        if surplus > 0 {
            surplus.min(i64::from(self.build_sites(map, st, power).count()))
        } else {
            surplus
        }
    }

    /// The provinces the civil-disorder distance of `power`'s units is measured to.
    pub fn disorder_sources<M: Mask>(&self, map: &GameMap<M>, st: &State<M>, power: usize) -> M {
        match self.civil_disorder {
            // DATC 6.J.11 (2023 rules): the nearest owned centre.
            CivilDisorder::OwnedCentres => Bits(map.centers)
                .filter(|&q| st.centers[q] == power as u8)
                .fold(M::ZERO, |m, q| m | M::bit(q)),
            // The older rulebooks (DATC 6.J.11): the nearest home centre.
            CivilDisorder::HomeCentres => map.homes[power],
        }
    }
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
}
