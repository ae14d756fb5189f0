//! Search support: a game's compact, versioned state (what `pickle` and `copy.deepcopy` carry)
//! and many candidate order sets played from one position.
//!
//! # The state's bytes (version 4)
//!
//! Little-endian throughout; the map itself is not in it (the caller names the map; the counts
//! below must match it):
//!
//! ```text
//! "DGS" 4                  magic and version
//! u16 locations, u16 provinces, u16 powers
//! u32 year, u8 season, u8 kind
//! u32 max_year (0: none)   u8 over   u8 winner (255: none)
//! u8 civil_disorder, u8 build_sites, u32 victory_centers (0: none), u32 year_limit + 1 (0: none)
//!                          (build_sites: 0 home, 1 any, 2 any_home from version 3;
//!                          civil_disorder: bit 0 home, bit 1 disorder_tie="abbreviation",
//!                          from version 4)
//! u8 victory_lead          (from version 2; version 1 has none and reads as 0)
//! u32 victory_margin_year + 1 (0: none; from version 3, older versions read as none)
//! u32 n, n x (u8 power, u8 fleet, u16 loc)              units
//! u32 n, n x (u16 province, u8 power)                    centre owners
//! u32 n, n x (u8 power, u8 fleet, u16 loc, u16 k, k x u16 option)   dislodged units
//! u32 n, n x code                                        pending orders (code: u64)
//! u32 n, n x (u8 result, u8 success)                     last phase: results per code
//! u32 n, n x (code, u8 result, u8 success)               last phase: implied results
//! ```
//!
//! A game keeps no results of its last phase (they are the [`super::phases::Outcome`] its
//! caller was handed), so the last two lists are written empty; those of bytes written before
//! are read and checked all the same, then dropped.
//!
//! Reading checks every field (the position through [`State::new`], so a state read is one the
//! engine could have built) and that nothing follows: damaged bytes are an error naming what is
//! wrong, never a panic or a changed game.

use super::encode::{self, kind, Code};
use super::error::EngineError;
use super::game_map::{Bits, GameMap, Mask, NO_POWER};
use super::phases::{result, solo_winner, Game};
use super::rules::{BuildSites, CivilDisorder, DisorderTie, Rules};
use super::state::{RawUnit, State, ADJUSTMENTS};

/// The first bytes of a state, then its version.
const MAGIC: &[u8; 3] = b"DGS";
pub const STATE_VERSION: u8 = 4;
/// The oldest version read (version 1 has no `victory_lead`: the rulebook's victory; versions 1
/// and 2 have no `build_sites="any_home"` and no `victory_margin_year`; versions 1 to 3 have no
/// `disorder_tie`, which they read as `"name"`).
const OLDEST_VERSION: u8 = 1;
/// The most codes (pending orders, results) a state may hold: far more than any phase has.
const MAX_CODES: u32 = 1 << 16;

struct Writer(Vec<u8>);

impl Writer {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u16(&mut self, v: usize) {
        self.0.extend_from_slice(&(v as u16).to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn code(&mut self, c: Code) {
        self.0.extend_from_slice(&c.to_le_bytes());
    }
}

/// The bytes of a code in a state.
const CODE_BYTES: usize = size_of::<Code>();

/// The bytes of `game` (see the module documentation).
pub fn state_bytes<M: Mask>(game: &Game<M>) -> Vec<u8> {
    let map = game.map;
    let st = &game.state;
    let mut w = Writer(Vec::with_capacity(256));
    w.0.extend_from_slice(MAGIC);
    w.u8(STATE_VERSION);
    w.u16(map.locations);
    w.u16(map.provinces);
    w.u16(map.powers);
    w.u32(st.year);
    w.u8(st.season);
    w.u8(st.kind);
    w.u32(game.max_year.unwrap_or(0));
    w.u8(game.over as u8);
    w.u8(game.winner.unwrap_or(NO_POWER));
    let r = st.rules;
    w.u8(matches!(r.civil_disorder, CivilDisorder::HomeCentres) as u8
        | (matches!(r.disorder_tie, DisorderTie::Abbreviation) as u8) << 1);
    w.u8(match r.build_sites {
        BuildSites::HomeCentres => 0,
        BuildSites::AnyOwnedCentre => 1,
        BuildSites::AnyHomeCentre => 2,
    });
    w.u32(r.victory_centers.unwrap_or(0));
    w.u32(r.year_limit.map_or(0, |y| y.saturating_add(1)));
    w.u8(r.victory_lead as u8);
    w.u32(r.victory_margin_year.map_or(0, |y| y.saturating_add(1)));
    let units: Vec<usize> = (0..map.provinces)
        .filter(|&q| st.units[q].is_some())
        .collect();
    w.u32(units.len() as u32);
    for q in units {
        let u = st.units[q];
        w.u8(u.power);
        w.u8(u.fleet as u8);
        w.u16(u.loc as usize);
    }
    let owned: Vec<usize> = (0..map.provinces)
        .filter(|&q| st.centers[q] != NO_POWER)
        .collect();
    w.u32(owned.len() as u32);
    for q in owned {
        w.u16(q);
        w.u8(st.centers[q]);
    }
    w.u32(st.dislodged_at.count());
    for q in Bits(st.dislodged_at) {
        let d = st.dislodged[q];
        w.u8(d.power);
        w.u8(d.fleet as u8);
        w.u16(d.loc as usize);
        w.u16(st.retreats[q].count() as usize);
        for o in Bits(st.retreats[q]) {
            w.u16(o);
        }
    }
    w.u32(game.orders.len() as u32);
    for &c in &game.orders {
        w.code(c);
    }
    // The last phase's results and implied results: none kept (see the module documentation).
    w.u32(0);
    w.u32(0);
    w.0
}

struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize, what: &str) -> Result<&[u8], EngineError> {
        if self.data.len() - self.at < n {
            return Err(EngineError::invalid(format!(
                "the state ends early (at byte {}, reading {what})",
                self.at
            )));
        }
        let s = &self.data[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }
    fn u8(&mut self, what: &str) -> Result<u8, EngineError> {
        Ok(self.take(1, what)?[0])
    }
    fn u16(&mut self, what: &str) -> Result<u16, EngineError> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&mut self, what: &str) -> Result<u32, EngineError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn code(&mut self, what: &str) -> Result<Code, EngineError> {
        let b = self.take(CODE_BYTES, what)?;
        let mut a = [0u8; CODE_BYTES];
        a.copy_from_slice(b);
        Ok(Code::from_le_bytes(a))
    }
    fn flag(&mut self, what: &str) -> Result<bool, EngineError> {
        match self.u8(what)? {
            0 => Ok(false),
            1 => Ok(true),
            v => Err(EngineError::invalid(format!(
                "{what} must be 0 or 1, got {v}"
            ))),
        }
    }
    /// A count of items of at least `size` bytes each, checked against the bytes left (so a
    /// damaged count cannot make a huge allocation) and against `limit`.
    fn count(&mut self, what: &str, size: usize, limit: u32) -> Result<usize, EngineError> {
        let n = self.u32(what)?;
        if n > limit || (n as usize).saturating_mul(size) > self.data.len() - self.at {
            return Err(EngineError::invalid(format!(
                "{what}: a count of {n} does not fit the state"
            )));
        }
        Ok(n as usize)
    }
}

/// A game from the bytes of [`state_bytes`] on `map`; the error names what is wrong.
pub fn game_from_bytes<M: Mask>(
    map: &'static GameMap<M>,
    data: &[u8],
) -> Result<Game<M>, EngineError> {
    game_from_bytes_under(map, data, None)
}

/// [`game_from_bytes`] under `given` rules when they are known (the bytes keep only the options
/// of the adjustment phase and the game's end: `civil_disorder`, `disorder_tie`, `build_sites`,
/// `victory_centers`, `victory_lead`, `victory_margin_year` and `year_limit`; an edition and the
/// movement options ride beside them, as `diplo.engine.codes.CodeGame` pickles them). The given
/// rules must agree with those six.
pub fn game_from_bytes_under<M: Mask>(
    map: &'static GameMap<M>,
    data: &[u8],
    given: Option<Rules>,
) -> Result<Game<M>, EngineError> {
    let mut r = Reader { data, at: 0 };
    if r.take(3, "the magic").ok() != Some(MAGIC.as_slice()) {
        return Err(EngineError::invalid(
            "not a CodeGame state (bad magic bytes)",
        ));
    }
    let version = r.u8("the version")?;
    if !(OLDEST_VERSION..=STATE_VERSION).contains(&version) {
        return Err(EngineError::invalid(format!(
            "CodeGame state version {version} is not supported (this diplo reads versions \
             {OLDEST_VERSION} to {STATE_VERSION})"
        )));
    }
    let (locations, provinces, powers) = (
        r.u16("locations")? as usize,
        r.u16("provinces")? as usize,
        r.u16("powers")? as usize,
    );
    if (locations, provinces, powers) != (map.locations, map.provinces, map.powers) {
        return Err(EngineError::invalid(format!(
            "the state is of a map with {locations} locations, {provinces} provinces and \
             {powers} powers, not this one ({}, {}, {})",
            map.locations, map.provinces, map.powers
        )));
    }
    let year = r.u32("year")?;
    let season = r.u8("season")?;
    let kind = r.u8("kind")?;
    let season = *["S", "F", "W"]
        .get(season as usize)
        .ok_or_else(|| EngineError::invalid(format!("season {season} is not 0, 1 or 2")))?;
    let kind = *["M", "R", "A"]
        .get(kind as usize)
        .ok_or_else(|| EngineError::invalid(format!("phase kind {kind} is not 0, 1 or 2")))?;
    let max_year = match r.u32("max_year")? {
        0 => None,
        y => Some(y),
    };
    let over = r.flag("over")?;
    let winner = match r.u8("winner")? {
        NO_POWER => None,
        w if (w as usize) < powers => Some(w),
        w => {
            return Err(EngineError::invalid(format!(
                "winner {w} is not a power index"
            )))
        }
    };
    let disorder = r.u8("civil_disorder")?;
    if disorder > 3 || (disorder > 1 && version < 4) {
        return Err(EngineError::invalid(format!(
            "civil_disorder {disorder} is not 0, 1 or (from version 4) 2 or 3"
        )));
    }
    let civil = if disorder & 1 == 1 { "home" } else { "owned" };
    let sites = match r.u8("build_sites")? {
        0 => "home",
        1 => "any",
        2 if version >= 3 => "any_home",
        v => {
            return Err(EngineError::invalid(format!(
                "build_sites {v} is not 0, 1 or (from version 3) 2"
            )))
        }
    };
    let victory = match r.u32("victory_centers")? {
        0 => None,
        v => Some(v),
    };
    let limit = r.u32("year_limit")?.checked_sub(1);
    let mut kept = Rules::from_names(civil, sites, victory, limit)?;
    if disorder & 2 == 2 {
        kept.disorder_tie = DisorderTie::Abbreviation;
    }
    kept.victory_lead = version >= 2 && r.flag("victory_lead")?;
    kept.victory_margin_year = if version >= 3 {
        r.u32("victory_margin_year")?.checked_sub(1)
    } else {
        None
    };
    let rules = match given {
        None => kept,
        Some(g)
            if (
                g.civil_disorder,
                g.disorder_tie,
                g.build_sites,
                g.victory_centers,
                g.victory_lead,
                g.victory_margin_year,
                g.year_limit,
            ) == (
                kept.civil_disorder,
                kept.disorder_tie,
                kept.build_sites,
                kept.victory_centers,
                kept.victory_lead,
                kept.victory_margin_year,
                kept.year_limit,
            ) =>
        {
            g
        }
        Some(_) => {
            return Err(EngineError::invalid(
                "the rules given do not match the state's",
            ))
        }
    };

    let n = r.count("units", 4, provinces as u32)?;
    let mut units: Vec<RawUnit> = Vec::with_capacity(n);
    for _ in 0..n {
        let power = r.u8("a unit's power")?;
        let fleet = r.u8("a unit's type")?;
        let loc = r.u16("a unit's location")?;
        units.push((power as i64, fleet as i64, loc as i64));
    }
    let n = r.count("centres", 3, provinces as u32)?;
    let mut centers = Vec::with_capacity(n);
    for _ in 0..n {
        let prov = r.u16("a centre")?;
        let power = r.u8("a centre's owner")?;
        centers.push((prov as i64, power as i64));
    }
    let n = r.count("dislodged units", 6, provinces as u32)?;
    let mut dislodged = Vec::with_capacity(n);
    for _ in 0..n {
        let power = r.u8("a dislodged unit's power")?;
        let fleet = r.u8("a dislodged unit's type")?;
        let loc = r.u16("a dislodged unit's location")?;
        let k = r.u16("retreat options")? as usize;
        if k > locations {
            return Err(EngineError::invalid(format!(
                "a dislodged unit with {k} retreat options"
            )));
        }
        let mut options = Vec::with_capacity(k);
        for _ in 0..k {
            options.push(r.u16("a retreat option")? as i64);
        }
        dislodged.push(((power as i64, fleet as i64, loc as i64), options));
    }
    let state = State::<M>::with_rules(
        map,
        year as i64,
        season,
        kind,
        &units,
        &centers,
        &dislodged,
        rules,
    )?;
    if kind == "R" && dislodged.is_empty() {
        return Err(EngineError::invalid(
            "a retreat phase without a dislodged unit",
        ));
    }
    check_ending(map, &state, max_year, over, winner)?;
    let mut game = Game::new(map, state, None);
    game.max_year = max_year;
    game.over = over;
    game.winner = winner;
    let n = r.count("pending orders", CODE_BYTES, MAX_CODES)?;
    for _ in 0..n {
        let c = r.code("a pending order")?;
        game.orders.push(c);
    }
    let n = r.count("results", 2, MAX_CODES)?;
    for _ in 0..n {
        let code = r.u8("a result")?;
        if code > result::ILLEGAL {
            return Err(EngineError::invalid(format!(
                "result code {code} is not one of the engine's"
            )));
        }
        r.flag("a result's success")?; // checked, then dropped: a game keeps no results
    }
    let n = r.count("implied results", CODE_BYTES + 2, MAX_CODES)?;
    for _ in 0..n {
        let c = r.code("an implied result's code")?;
        // What a phase does without an order: a hold, a disband, a waive or a build.
        let implied_kind = matches!(
            encode::kind_of(c),
            kind::HOLD | kind::DISBAND | kind::WAIVE | kind::BUILD
        );
        if !implied_kind || !encode::well_formed(c, locations, provinces, powers) {
            return Err(EngineError::invalid(format!(
                "implied result code {c} is not a hold, disband, waive or build on this map"
            )));
        }
        let code = r.u8("an implied result")?;
        if code > result::ILLEGAL {
            return Err(EngineError::invalid(format!(
                "result code {code} is not one of the engine's"
            )));
        }
        r.flag("an implied result's success")?; // checked, then dropped
    }
    if r.at != data.len() {
        return Err(EngineError::invalid(format!(
            "{} bytes follow the end of the state",
            data.len() - r.at
        )));
    }
    Ok(game)
}

/// The end of a restored game as a played game ends (`Game::process`): a winner only in a game
/// over, in the winter after the Fall turn it won, wins on the state's centres
/// ([`solo_winner`]); a game over without one is past its last year; a game going on is not;
/// the last year is no later than the rules' year limit (`Game::new` takes the earlier).
fn check_ending<M: Mask>(
    map: &GameMap<M>,
    st: &State<M>,
    max_year: Option<u32>,
    over: bool,
    winner: Option<u8>,
) -> Result<(), EngineError> {
    let year = st.year;
    if let (Some(limit), m) = (st.rules.year_limit, max_year) {
        if m.is_none_or(|m| m > limit) {
            return Err(EngineError::invalid(format!(
                "the last year ({}) is not within the rules' year limit ({limit})",
                m.map_or_else(|| "none".to_string(), |m| m.to_string())
            )));
        }
    }
    if let Some(w) = winner {
        let mut centers = vec![0u32; map.powers];
        let wins = solo_winner(map, st, &mut centers);
        if !over || st.kind != ADJUSTMENTS || wins != Some(w as usize) {
            return Err(EngineError::invalid(format!(
                "{} is named the winner with {} centres in {}, but a power wins only at the \
                 Fall turn's end, in a game over, with the centres the rules ask ({})",
                map.spec.powers[w as usize],
                centers[w as usize],
                st.phase_name(),
                st.rules.victory(map)
            )));
        }
        return Ok(());
    }
    // The calendar's last year ends a game as `max_year` does (`Game::last_year`).
    let calendar = map.last_year();
    let max_year = Some(max_year.map_or(calendar, |y| y.min(calendar)));
    match (over, max_year) {
        (true, Some(last)) if year > last => Ok(()),
        (true, _) => Err(EngineError::invalid(format!(
            "a game over with no winner in {}, before its last year ended",
            st.phase_name()
        ))),
        (false, Some(last)) if year > last => Err(EngineError::invalid(format!(
            "the last year ({last}) is before the state's year ({year}) in a game going on"
        ))),
        (false, _) => Ok(()),
    }
}

/// What one candidate order set led to: the next position's hash, the centres each power owns
/// there, and the game itself (to continue from).
pub struct Candidate<M: Mask> {
    pub hash: u64,
    pub centers: Vec<u32>,
    pub game: Game<M>,
}

/// Plays every order set of `candidates` on a copy of `game` (which is not changed) and returns
/// what each led to, in order. `game` must not be over; the error is an internal one (a bug).
pub fn play_candidates<M: Mask>(
    game: &Game<M>,
    candidates: &[Vec<Code>],
) -> Result<Vec<Candidate<M>>, EngineError> {
    let map = game.map;
    let mut out = Vec::with_capacity(candidates.len());
    for codes in candidates {
        let mut g = game.clone();
        g.poisoned = false;
        g.orders.clear();
        g.orders.extend_from_slice(codes);
        g.process()?;
        let mut centers = vec![0u32; map.powers];
        g.state.center_counts(map, &mut centers);
        out.push(Candidate {
            hash: g.state.hash,
            centers,
            game: g,
        });
    }
    Ok(out)
}
