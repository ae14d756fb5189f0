//! dipcc's encoders (the `ThreadPool` of Meta's `pydipcc`, Cicero's engine) for the drop-in
//! `diplo.compat.dipcc`: a board's encoding, its possible orders in dipcc's terms, the orders
//! of the last phases and the candidate orders of each power as vocabulary indices, written
//! into caller-owned buffers (the NumPy arrays of `bindings/dipcc.rs`), one game at a time on
//! any thread.
//!
//! The readable reference is Python's: `diplo.compat.dipcc.encoding` (the encoders) and
//! `diplo.compat.dipcc.state` (dipcc's possible orders); `tests/test_compat_dipcc_encode.py`
//! holds this module to it bit for bit on many seeded games and every input version. The
//! board's facts (dipcc's location codes, adjacencies, centres, homes) are handed in from
//! `diplo.compat.dipcc.board.board()`, their one home, when a [`Board`] is made. The layouts
//! were learnt from dipcc's sources (`encoding_v1.cc`, `encoding_v2.cc`, `orders_encoder.cc`,
//! `thread_pool.cc`, `game_state.cc` in facebookresearch/diplomacy_cicero); no code of
//! dipcc's is here.
//!
//! A game comes packed as bytes (made by `diplo.compat.dipcc.encoding`): its scoring system,
//! its current state, then every played phase since the last movement phase (that one
//! included), each a state and the orders given in it. A state is
//! `[kind, season, year (u16, little-endian), unit per code (82 bytes: 0 none, else
//! 1 + 2 * power + type - 1), centre owner per code (82 bytes: 0 none, else 1 + power),
//! dislodged count, then per dislodged unit power, type, code, count of destinations,
//! destinations]`; an order is its seven fields as in Python's `DipccOrder`.

use crate::engine::encode::{self, Code};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A hasher for the vocabulary's keys (an order packed in a `u64`, or a few of them): one
/// multiply per word, no DoS hardening needed for the caller's own vocabulary. The product's
/// low bits depend only on the key's low bits (the unit's type and location), and the hash
/// table picks its bucket by the low bits: `finish` rotates the well-mixed high bits down, or
/// every order of one unit would fall in one probe chain.
#[derive(Default, Clone, Copy)]
pub struct OrderHasher(u64);

impl Hasher for OrderHasher {
    fn finish(&self) -> u64 {
        self.0.rotate_left(26)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

type Fast<K> = HashMap<K, i32, BuildHasherDefault<OrderHasher>>;

/// dipcc's locations on the standard map.
pub const N_LOCS: usize = 81;
/// The codes 0 (none) to 81.
const N_CODES: usize = N_LOCS + 1;
/// The seven powers.
pub const N_POWERS: usize = 7;
/// The width of an encoded action (dipcc's `PREV_ORDERS_WIDTH`).
pub const ORDERS_WIDTH: usize = 100;
/// The steps of one power's candidates (`OrdersEncoder::MAX_SEQ_LEN`).
pub const MAX_SEQ_LEN: usize = 17;
/// The steps of every power's candidates at once (the centres).
pub const N_SCS: usize = 34;

/// Unit types as dipcc numbers them.
pub const ARMY: u8 = 1;
/// A fleet.
pub const FLEET: u8 = 2;
/// Order types as dipcc numbers them (`enums.h`).
pub const HOLD: u8 = 1;
/// A move.
pub const MOVE: u8 = 2;
/// A support of a hold.
pub const SUPPORT_HOLD: u8 = 3;
/// A support of a move.
pub const SUPPORT_MOVE: u8 = 4;
/// A convoy.
pub const CONVOY: u8 = 5;
/// A retreat.
pub const RETREAT: u8 = 6;
/// A build.
pub const BUILD: u8 = 7;
/// A disband.
pub const DISBAND: u8 = 8;

/// One order as dipcc's tuple; its order is dipcc's `std::set<Order>` order (and Python's
/// `DipccOrder` tuple order): the fields compared in turn, done as one integer comparison.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DOrder {
    pub unit_type: u8,
    pub unit_loc: u8,
    pub kind: u8,
    pub target_type: u8,
    pub target_loc: u8,
    pub dest: u8,
    pub via: bool,
}

impl Ord for DOrder {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl PartialOrd for DOrder {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl DOrder {
    /// The fields as seven bytes, in the tuple's order (`via` as 0 or 1): the form the
    /// bindings hand to Python (its `pack_orders`) and the listed orders are kept in.
    pub fn bytes(&self) -> [u8; 7] {
        [
            self.unit_type,
            self.unit_loc,
            self.kind,
            self.target_type,
            self.target_loc,
            self.dest,
            u8::from(self.via),
        ]
    }

    /// The fields as one word, the first the most significant: comparing two ranks compares
    /// the fields in turn (the tuple order).
    fn rank(&self) -> u64 {
        let [a, b, c, d, e, f, g] = self.bytes();
        u64::from_be_bytes([a, b, c, d, e, f, g, 0])
    }

    /// The order as one word (the vocabulary's key).
    fn key(&self) -> u64 {
        u64::from_le_bytes([
            self.unit_type,
            self.unit_loc,
            self.kind,
            self.target_type,
            self.target_loc,
            self.dest,
            u8::from(self.via),
            0,
        ])
    }

    fn new(unit_type: u8, unit_loc: u8, kind: u8) -> Self {
        DOrder {
            unit_type,
            unit_loc,
            kind,
            ..Default::default()
        }
    }

    /// The order with every location put to its province (dipcc's `smarter_order_index`
    /// looks an order up so when it is not in the vocabulary as it is).
    fn rooted(&self, b: &Board) -> Self {
        DOrder {
            unit_loc: b.root[self.unit_loc as usize],
            target_loc: b.root[self.target_loc as usize],
            dest: b.root[self.dest as usize],
            ..*self
        }
    }
}

/// The facts of dipcc's board, by location code (index 0 is "none").
#[derive(Clone, Debug)]
pub struct Board {
    names: Vec<String>,
    root: Vec<u8>,
    coasts: Vec<Vec<u8>>,
    water: Vec<bool>,
    /// Whether a code is a centre's root.
    center_roots: Vec<u8>,
    adjacent: [Vec<Vec<u8>>; 2],
    adjacent_all: [Vec<Vec<u8>>; 2],
    homes: Vec<Vec<u8>>,
    army_builds: Vec<Vec<u8>>,
    fleet_builds: Vec<Vec<u8>>,
    /// Per code: 0 land, 1 water, 2 coast (the encoding's area channels).
    area: Vec<u8>,
}

/// The tables a [`Board`] is made of, as Python hands them over (every list by code, 0 to 81).
pub struct BoardSpec {
    pub names: Vec<String>,
    pub root: Vec<u8>,
    pub coasts: Vec<Vec<u8>>,
    pub water: Vec<u8>,
    pub centers: Vec<u8>,
    pub army_adjacent: Vec<Vec<u8>>,
    pub fleet_adjacent: Vec<Vec<u8>>,
    pub army_adjacent_all: Vec<Vec<u8>>,
    pub fleet_adjacent_all: Vec<Vec<u8>>,
    pub homes: Vec<Vec<u8>>,
    pub army_builds: Vec<Vec<u8>>,
    pub fleet_builds: Vec<Vec<u8>>,
}

fn check_codes(what: &str, codes: &[u8]) -> Result<(), String> {
    match codes.iter().find(|&&c| c == 0 || c as usize > N_LOCS) {
        Some(c) => Err(format!("{what}: location code {c} out of range 1..81")),
        None => Ok(()),
    }
}

impl Board {
    /// The board from its tables, each checked (lengths, codes in range).
    pub fn new(spec: BoardSpec) -> Result<Board, String> {
        if spec.names.len() != N_LOCS {
            return Err(format!(
                "names: expected {N_LOCS}, got {}",
                spec.names.len()
            ));
        }
        for (what, len) in [
            ("root", spec.root.len()),
            ("coasts", spec.coasts.len()),
            ("army_adjacent", spec.army_adjacent.len()),
            ("fleet_adjacent", spec.fleet_adjacent.len()),
            ("army_adjacent_all", spec.army_adjacent_all.len()),
            ("fleet_adjacent_all", spec.fleet_adjacent_all.len()),
        ] {
            if len != N_CODES {
                return Err(format!("{what}: expected {N_CODES} entries, got {len}"));
            }
        }
        for (what, len) in [
            ("homes", spec.homes.len()),
            ("army_builds", spec.army_builds.len()),
            ("fleet_builds", spec.fleet_builds.len()),
        ] {
            if len != N_POWERS {
                return Err(format!("{what}: expected {N_POWERS} powers, got {len}"));
            }
        }
        check_codes("root", &spec.root[1..])?;
        for (what, table) in [
            ("coasts", &spec.coasts),
            ("army_adjacent", &spec.army_adjacent),
            ("fleet_adjacent", &spec.fleet_adjacent),
            ("army_adjacent_all", &spec.army_adjacent_all),
            ("fleet_adjacent_all", &spec.fleet_adjacent_all),
            ("homes", &spec.homes),
            ("army_builds", &spec.army_builds),
            ("fleet_builds", &spec.fleet_builds),
        ] {
            for codes in table.iter() {
                check_codes(what, codes)?;
            }
        }
        check_codes("water", &spec.water)?;
        check_codes("centers", &spec.centers)?;
        let mut water = vec![false; N_CODES];
        for &c in &spec.water {
            water[c as usize] = true;
        }
        let mut center_roots = Vec::new();
        for &c in &spec.centers {
            if spec.root[c as usize] == c {
                center_roots.push(c);
            }
        }
        center_roots.sort_unstable();
        let mut root = spec.root;
        root[0] = 0;
        let mut area = vec![0u8; N_CODES];
        for code in 1..N_CODES {
            area[code] = if water[code] {
                1
            } else if !spec.fleet_adjacent[code].is_empty()
                || spec.coasts[code]
                    .iter()
                    .any(|&c| !spec.fleet_adjacent[c as usize].is_empty())
            {
                2
            } else {
                0
            };
        }
        Ok(Board {
            names: spec.names,
            root,
            coasts: spec.coasts,
            water,
            center_roots,
            adjacent: [spec.army_adjacent, spec.fleet_adjacent],
            adjacent_all: [spec.army_adjacent_all, spec.fleet_adjacent_all],
            homes: spec.homes,
            army_builds: spec.army_builds,
            fleet_builds: spec.fleet_builds,
            area,
        })
    }

    /// A location's name (`STP/NC`).
    pub fn name(&self, code: u8) -> &str {
        &self.names[code as usize - 1]
    }

    /// The order in dipcc's notation (`A PAR - BUR`, `A LON - NWY VIA`, `F STP/NC B`), as
    /// Python's `diplo.compat.dipcc.board.format_order`.
    pub fn format(&self, o: &DOrder, out: &mut String) {
        let letter = |t: u8| if t == ARMY { "A" } else { "F" };
        out.push_str(letter(o.unit_type));
        out.push(' ');
        out.push_str(self.name(o.unit_loc));
        match o.kind {
            HOLD => out.push_str(" H"),
            BUILD => out.push_str(" B"),
            DISBAND => out.push_str(" D"),
            MOVE => {
                out.push_str(" - ");
                out.push_str(self.name(o.dest));
                if o.via {
                    out.push_str(" VIA");
                }
            }
            RETREAT => {
                out.push_str(" R ");
                out.push_str(self.name(o.dest));
            }
            _ => {
                out.push_str(if o.kind == CONVOY { " C " } else { " S " });
                out.push_str(letter(o.target_type));
                out.push(' ');
                out.push_str(self.name(o.target_loc));
                if o.kind != SUPPORT_HOLD {
                    out.push_str(" - ");
                    out.push_str(self.name(o.dest));
                }
            }
        }
    }

    fn text(&self, orders: &[DOrder]) -> String {
        let mut texts: Vec<String> = orders
            .iter()
            .map(|o| {
                let mut s = String::new();
                self.format(o, &mut s);
                s
            })
            .collect();
        texts.sort();
        texts.join(";")
    }
}

/// A dislodged unit of a retreat phase and where it may go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dislodged {
    pub power: u8,
    pub unit_type: u8,
    pub loc: u8,
    pub dests: Vec<u8>,
}

/// One phase's board as dipcc keeps it (Python's `diplo.compat.dipcc.state.State`).
#[derive(Clone, Debug)]
pub struct DState {
    /// `M`, `R`, `A` or `C` (completed).
    pub kind: u8,
    /// `S`, `F`, `W` or `C`.
    pub season: u8,
    pub year: u16,
    /// 0 none, else 1 + 2 * power + type - 1, by exact code.
    pub units: [u8; N_CODES],
    /// 0 none, else 1 + power, by province code.
    pub centers: [u8; N_CODES],
    pub dislodged: Vec<Dislodged>,
}

/// A reader of the packed bytes; every misstep is an error naming what was wrong.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if self.at + n > self.bytes.len() {
            return Err("packed game: truncated".into());
        }
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    fn byte(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, String> {
        let s = self.take(2)?;
        Ok(u16::from_le_bytes([s[0], s[1]]))
    }

    fn code(&mut self) -> Result<u8, String> {
        let c = self.byte()?;
        if c == 0 || c as usize > N_LOCS {
            return Err(format!("packed game: location code {c} out of range"));
        }
        Ok(c)
    }

    fn state(&mut self) -> Result<DState, String> {
        let kind = self.byte()?;
        let season = self.byte()?;
        if !b"MRAC".contains(&kind) || !b"SFWC".contains(&season) {
            return Err(format!("packed game: bad phase {kind}/{season}"));
        }
        let year = self.u16()?;
        let mut units = [0u8; N_CODES];
        units.copy_from_slice(self.take(N_CODES)?);
        let mut centers = [0u8; N_CODES];
        centers.copy_from_slice(self.take(N_CODES)?);
        if units.iter().any(|&u| u as usize > 2 * N_POWERS)
            || centers.iter().any(|&c| c as usize > N_POWERS)
            || units[0] != 0
            || centers[0] != 0
        {
            return Err("packed game: bad unit or centre".into());
        }
        let n = self.byte()? as usize;
        let mut dislodged = Vec::with_capacity(n);
        for _ in 0..n {
            let power = self.byte()?;
            let unit_type = self.byte()?;
            if power as usize >= N_POWERS || !(ARMY..=FLEET).contains(&unit_type) {
                return Err("packed game: bad dislodged unit".into());
            }
            let loc = self.code()?;
            let k = self.byte()? as usize;
            let mut dests = Vec::with_capacity(k);
            for _ in 0..k {
                dests.push(self.code()?);
            }
            dislodged.push(Dislodged {
                power,
                unit_type,
                loc,
                dests,
            });
        }
        Ok(DState {
            kind,
            season,
            year,
            units,
            centers,
            dislodged,
        })
    }

    fn orders(&mut self) -> Result<Vec<DOrder>, String> {
        let n = self.u16()? as usize;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let f = self.take(7)?;
            let ok_type = |t: u8| (ARMY..=FLEET).contains(&t);
            let ok_loc = |c: u8| c as usize <= N_LOCS;
            if !ok_type(f[0])
                || f[1] == 0
                || !ok_loc(f[1])
                || !(HOLD..=DISBAND).contains(&f[2])
                || f[3] > FLEET
                || !ok_loc(f[4])
                || !ok_loc(f[5])
                || f[6] > 1
            {
                return Err("packed game: bad order".into());
            }
            out.push(DOrder {
                unit_type: f[0],
                unit_loc: f[1],
                kind: f[2],
                target_type: f[3],
                target_loc: f[4],
                dest: f[5],
                via: f[6] == 1,
            });
        }
        Ok(out)
    }
}

/// A game as the encoders read it: its scoring system, its board now and the played phases
/// since the last movement phase (that one first), each with the orders given in it.
#[derive(Clone, Debug)]
pub struct Packed {
    pub scoring: u8,
    pub state: DState,
    pub since: Vec<(DState, Vec<DOrder>)>,
}

impl Packed {
    /// Reads one packed game (the layout is at the top of the module).
    pub fn read(bytes: &[u8]) -> Result<Packed, String> {
        let mut r = Reader { bytes, at: 0 };
        let scoring = r.byte()?;
        if scoring > 1 {
            return Err(format!("packed game: bad scoring system {scoring}"));
        }
        let state = r.state()?;
        let n = r.byte()? as usize;
        let mut since = Vec::with_capacity(n);
        for _ in 0..n {
            let s = r.state()?;
            let o = r.orders()?;
            since.push((s, o));
        }
        if r.at != bytes.len() {
            return Err("packed game: trailing bytes".into());
        }
        Ok(Packed {
            scoring,
            state,
            since,
        })
    }

    /// Reads a batch: each game preceded by its length (u32, little-endian).
    pub fn read_batch(bytes: &[u8], n: usize) -> Result<Vec<Packed>, String> {
        let mut out = Vec::with_capacity(n);
        let mut at = 0usize;
        for _ in 0..n {
            if at + 4 > bytes.len() {
                return Err("packed batch: truncated".into());
            }
            let len = u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
                as usize;
            at += 4;
            if at + len > bytes.len() {
                return Err("packed batch: truncated".into());
            }
            out.push(Packed::read(&bytes[at..at + len])?);
            at += len;
        }
        if at != bytes.len() {
            return Err("packed batch: trailing bytes".into());
        }
        Ok(out)
    }
}

/// dipcc's possible orders of a board: per exact code, sorted; the codes each power may
/// order (sorted by exact code, then put to their provinces); the builds owed.
#[derive(Clone, Debug)]
pub struct Possible {
    pub orders: Vec<Vec<DOrder>>,
    pub orderable: [Vec<u8>; N_POWERS],
    pub builds: [i32; N_POWERS],
}

impl Possible {
    /// No orders (what a board's encoding reads of a phase that is no adjustment).
    pub fn none() -> Possible {
        Possible {
            orders: vec![Vec::new(); N_CODES],
            orderable: Default::default(),
            builds: [0; N_POWERS],
        }
    }
}

fn unit_of(u: u8) -> Option<(u8, u8)> {
    if u == 0 {
        None
    } else {
        Some(((u - 1) / 2, (u - 1) % 2 + 1))
    }
}

impl DState {
    /// The unit at exact code `c`: (power, type).
    pub fn unit(&self, c: u8) -> Option<(u8, u8)> {
        unit_of(self.units[c as usize])
    }

    /// The unit anywhere in `code`'s province: (exact code, power, type).
    pub fn unit_in(&self, b: &Board, code: u8) -> Option<(u8, u8, u8)> {
        b.coasts[code as usize]
            .iter()
            .find_map(|&c| self.unit(c).map(|(p, t)| (c, p, t)))
    }

    /// The builds each power is owed (negative: disbands), in an adjustment phase.
    fn owed(&self) -> [i32; N_POWERS] {
        let mut out = [0i32; N_POWERS];
        for &c in self.centers.iter() {
            if c > 0 {
                out[c as usize - 1] += 1;
            }
        }
        for &u in self.units.iter() {
            if let Some((p, _)) = unit_of(u) {
                out[p as usize] -= 1;
            }
        }
        out
    }

    /// dipcc's possible orders (Python's `State._load`).
    pub fn possible(&self, b: &Board) -> Possible {
        let mut found: Vec<Vec<DOrder>> = vec![Vec::new(); N_CODES];
        let mut powers: [Vec<u8>; N_POWERS] = Default::default();
        let mut builds = [0i32; N_POWERS];
        match self.kind {
            b'M' => self.movement(b, &mut found, &mut powers),
            b'R' => {
                for d in &self.dislodged {
                    let orders = &mut found[d.loc as usize];
                    orders.push(DOrder::new(d.unit_type, d.loc, DISBAND));
                    for &dest in &d.dests {
                        orders.push(DOrder {
                            dest,
                            ..DOrder::new(d.unit_type, d.loc, RETREAT)
                        });
                    }
                    powers[d.power as usize].push(d.loc);
                }
            }
            b'A' => {
                builds = self.owed();
                for p in 0..N_POWERS {
                    if builds[p] <= 0 {
                        continue;
                    }
                    for (utype, sites) in [(ARMY, &b.army_builds[p]), (FLEET, &b.fleet_builds[p])] {
                        for &site in sites {
                            let owner = self.centers[b.root[site as usize] as usize];
                            if owner as usize == p + 1 && self.unit_in(b, site).is_none() {
                                found[site as usize].push(DOrder::new(utype, site, BUILD));
                                powers[p].push(b.root[site as usize]);
                            }
                        }
                    }
                }
                for loc in 1..N_CODES as u8 {
                    if let Some((p, t)) = self.unit(loc) {
                        if builds[p as usize] < 0 {
                            found[loc as usize].push(DOrder::new(t, loc, DISBAND));
                            powers[p as usize].push(b.root[loc as usize]);
                        }
                    }
                }
            }
            _ => {}
        }
        for orders in found.iter_mut() {
            orders.sort_unstable();
            orders.dedup();
        }
        let mut orderable: [Vec<u8>; N_POWERS] = Default::default();
        for (p, locs) in powers.iter_mut().enumerate() {
            locs.sort_unstable();
            locs.dedup();
            orderable[p] = locs.iter().map(|&c| b.root[c as usize]).collect();
        }
        Possible {
            orders: found,
            orderable,
            builds,
        }
    }

    fn movement(&self, b: &Board, found: &mut [Vec<DOrder>], powers: &mut [Vec<u8>; N_POWERS]) {
        let mut by_dest: Vec<Vec<DOrder>> = vec![Vec::new(); N_CODES];
        let mut chained = [false; N_CODES];
        for loc in 1..N_CODES as u8 {
            let Some((power, utype)) = self.unit(loc) else {
                continue;
            };
            let t = utype as usize - 1;
            powers[power as usize].push(loc);
            found[loc as usize].push(DOrder::new(utype, loc, HOLD));
            for &dest in &b.adjacent[t][loc as usize] {
                by_dest[dest as usize].push(DOrder {
                    dest,
                    ..DOrder::new(utype, loc, MOVE)
                });
            }
            for &near in &b.adjacent_all[t][loc as usize] {
                let Some((_, other)) = self.unit(near) else {
                    continue;
                };
                let base = DOrder {
                    target_type: other,
                    ..DOrder::new(utype, loc, SUPPORT_HOLD)
                };
                found[loc as usize].push(DOrder {
                    target_loc: near,
                    ..base
                });
                let r = b.root[near as usize];
                if r != near {
                    found[loc as usize].push(DOrder {
                        target_loc: r,
                        ..base
                    });
                }
            }
            if utype == FLEET && b.water[loc as usize] && !chained[loc as usize] {
                self.convoys(b, loc, &mut chained, found, &mut by_dest);
            }
        }
        for loc in 1..N_CODES as u8 {
            let Some((_, utype)) = self.unit(loc) else {
                continue;
            };
            let t = utype as usize - 1;
            for &dest in &b.adjacent_all[t][loc as usize] {
                if dest == loc {
                    continue;
                }
                let r = b.root[dest as usize];
                for mv in &by_dest[dest as usize] {
                    if mv.unit_loc == loc {
                        continue;
                    }
                    let base = DOrder {
                        target_type: mv.unit_type,
                        target_loc: mv.unit_loc,
                        ..DOrder::new(utype, loc, SUPPORT_MOVE)
                    };
                    found[loc as usize].push(DOrder { dest, ..base });
                    if r != dest {
                        found[loc as usize].push(DOrder { dest: r, ..base });
                    }
                }
            }
        }
        for moves in by_dest {
            for mv in moves {
                found[mv.unit_loc as usize].push(mv);
            }
        }
    }

    /// A chain of fleets at sea: each army beside it may go "VIA" to each coast beside it, and
    /// each fleet of it may convoy that move (Python's `State._convoys`).
    fn convoys(
        &self,
        b: &Board,
        start: u8,
        chained: &mut [bool; N_CODES],
        found: &mut [Vec<DOrder>],
        by_dest: &mut [Vec<DOrder>],
    ) {
        let mut fleets = Vec::new();
        let mut todo = vec![start];
        chained[start as usize] = true;
        let mut armies = [false; N_CODES];
        let mut coasts = [false; N_CODES];
        while let Some(fleet) = todo.pop() {
            fleets.push(fleet);
            for &near in &b.adjacent_all[1][fleet as usize] {
                if !b.water[near as usize] {
                    coasts[b.root[near as usize] as usize] = true;
                }
                let Some((_, t)) = self.unit(near) else {
                    continue;
                };
                if t == FLEET && b.water[near as usize] && !chained[near as usize] {
                    chained[near as usize] = true;
                    todo.push(near);
                } else if t == ARMY {
                    armies[near as usize] = true;
                }
            }
        }
        for army in 1..N_CODES as u8 {
            if !armies[army as usize] {
                continue;
            }
            for dest in 1..N_CODES as u8 {
                if !coasts[dest as usize] || dest == army {
                    continue;
                }
                by_dest[dest as usize].push(DOrder {
                    dest,
                    via: true,
                    ..DOrder::new(ARMY, army, MOVE)
                });
                for &fleet in &fleets {
                    found[fleet as usize].push(DOrder {
                        target_type: ARMY,
                        target_loc: army,
                        dest,
                        ..DOrder::new(FLEET, fleet, CONVOY)
                    });
                }
            }
        }
    }
}

/// Calls `f` with every `k`-combination of `0..n` in lexicographic order (as Python's
/// `itertools.combinations`), stopping at the first error.
fn combinations(
    n: usize,
    k: usize,
    start: usize,
    combo: &mut Vec<usize>,
    f: &mut dyn FnMut(&[usize]) -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    if combo.len() == k {
        return f(combo);
    }
    for i in start..n {
        if n - i < k - combo.len() {
            break;
        }
        combo.push(i);
        combinations(n, k, i + 1, combo, f)?;
        combo.pop();
    }
    Ok(())
}

/// Calls `f` with every pick of one order from each of `choices[i]`, `i` in `combo`, the last
/// fastest (as Python's `itertools.product`), stopping at the first error.
fn picks(
    choices: &[Vec<DOrder>],
    combo: &[usize],
    pick: &mut Vec<DOrder>,
    f: &mut dyn FnMut(&[DOrder]) -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    let depth = pick.len();
    if depth == combo.len() {
        return f(pick);
    }
    for &o in &choices[combo[depth]] {
        pick.push(o);
        picks(choices, combo, pick, f)?;
        pick.pop();
    }
    Ok(())
}

/// Channel offsets of a board-state encoding by input version (Python's `_V1`, `_V2`).
struct Layout {
    width: usize,
    army: usize,
    fleet: usize,
    none: Option<(usize, usize)>,
    owner: usize,
    build: usize,
    remove: usize,
    d_army: usize,
    d_fleet: usize,
    d_none: Option<(usize, usize)>,
    d_owner: usize,
    land: usize,
    sc: usize,
    home: Option<usize>,
}

const V1: Layout = Layout {
    width: 35,
    army: 0,
    fleet: 1,
    none: Some((2, 10)),
    owner: 3,
    build: 11,
    remove: 12,
    d_army: 13,
    d_fleet: 14,
    d_none: Some((15, 23)),
    d_owner: 16,
    land: 24,
    sc: 27,
    home: None,
};
const V2: Layout = Layout {
    width: 38,
    army: 0,
    fleet: 1,
    none: None,
    owner: 2,
    build: 9,
    remove: 10,
    d_army: 11,
    d_fleet: 12,
    d_none: None,
    d_owner: 13,
    land: 20,
    sc: 23,
    home: Some(31),
};

fn layout(version: u8) -> &'static Layout {
    if version == 1 {
        &V1
    } else {
        &V2
    }
}

/// The channels per location of a board-state encoding: 35 (input version 1) or 38.
pub fn width(version: u8) -> usize {
    layout(version).width
}

/// The board-state encoding of `s` into `out` (`81 * width` floats, every one written);
/// `possible` is read only in an adjustment phase (the builds).
pub fn encode_board(b: &Board, s: &DState, possible: &Possible, version: u8, out: &mut [f32]) {
    let lay = layout(version);
    let w = lay.width;
    out.fill(0.0);
    for code in 1..N_CODES {
        let row = (code - 1) * w;
        out[row + lay.land + b.area[code] as usize] = 1.0;
    }
    if let Some(home) = lay.home {
        for (p, homes) in b.homes.iter().enumerate() {
            for &h in homes {
                out[(h as usize - 1) * w + home + p] = 1.0;
            }
        }
    }
    let winter = s.season == b'W';
    let mut filled = [false; N_CODES];
    for code in 1..N_CODES as u8 {
        let Some((p, t)) = s.unit(code) else { continue };
        let removable = winter && s.kind == b'A' && possible.builds[p as usize] < 0;
        for c in [code, b.root[code as usize]] {
            let row = (c as usize - 1) * w;
            out[row + if t == ARMY { lay.army } else { lay.fleet }] = 1.0;
            out[row + lay.owner + p as usize] = 1.0;
            out[row + lay.remove] = if removable { 1.0 } else { 0.0 };
            filled[c as usize] = true;
        }
    }
    if let Some((none, owner_none)) = lay.none {
        for code in 1..N_CODES {
            if !filled[code] {
                out[(code - 1) * w + none] = 1.0;
                out[(code - 1) * w + owner_none] = 1.0;
            }
        }
    }
    if s.kind == b'A' {
        for orders in &possible.orders {
            if let Some(first) = orders.first() {
                if first.kind == BUILD {
                    out[(first.unit_loc as usize - 1) * w + lay.build] = 1.0;
                }
            }
        }
    }
    let mut filled = [false; N_CODES];
    for d in &s.dislodged {
        for c in [d.loc, b.root[d.loc as usize]] {
            let row = (c as usize - 1) * w;
            out[row
                + if d.unit_type == ARMY {
                    lay.d_army
                } else {
                    lay.d_fleet
                }] = 1.0;
            out[row + lay.d_owner + d.power as usize] = 1.0;
            filled[c as usize] = true;
        }
    }
    if let Some((none, owner_none)) = lay.d_none {
        for code in 1..N_CODES {
            if !filled[code] {
                out[(code - 1) * w + none] = 1.0;
                out[(code - 1) * w + owner_none] = 1.0;
            }
        }
    }
    for &center in &b.center_roots {
        let owner = s.centers[center as usize];
        let offset = if owner == 0 { 7 } else { owner as usize - 1 };
        for &c in &b.coasts[center as usize] {
            out[(c as usize - 1) * w + lay.sc + offset] = 1.0;
        }
    }
}

/// Why an encoding failed; the bindings raise it as the Python reference does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EncodeError {
    /// `ValueError`.
    Value(String),
    /// `RuntimeError`.
    Runtime(String),
}

/// The caller's order vocabulary: each order (and each combined build, its orders sorted) to
/// its index.
#[derive(Clone, Debug, Default)]
pub struct Vocabulary {
    single: Fast<u64>,
    combined: Fast<Vec<u64>>,
}

impl Vocabulary {
    /// Adds an entry: its orders (one, or the parts of a combined build) and its index.
    pub fn add(&mut self, mut orders: Vec<DOrder>, idx: i32) {
        if orders.len() == 1 {
            self.single.insert(orders[0].key(), idx);
        } else {
            orders.sort_unstable();
            self.combined
                .insert(orders.iter().map(DOrder::key).collect(), idx);
        }
    }

    /// dipcc's `smarter_order_index`: the order's index, or that of the order with every
    /// coast left out, or none.
    fn index(&self, b: &Board, o: &DOrder) -> Option<i32> {
        self.single
            .get(&o.key())
            .or_else(|| self.single.get(&o.rooted(b).key()))
            .copied()
    }

    /// Orders to `(2, 100)`: vocabulary index and unit location index of each order found,
    /// sorted (Python's `ThreadPool._encode_into`); a support naming a fleet on a coast by its
    /// province is looked up under the coast when its board is given.
    pub fn encode_orders(
        &self,
        b: &Board,
        orders: &[(&DOrder, Option<&DState>)],
        out: &mut [i64],
    ) -> Result<(), EncodeError> {
        let mut pairs: Vec<(i64, i64)> = Vec::with_capacity(orders.len());
        for &(o, state) in orders {
            if let Some(&idx) = self.single.get(&o.key()) {
                pairs.push((idx as i64, o.unit_loc as i64 - 1));
                continue;
            }
            let Some(state) = state else { continue };
            if o.kind != SUPPORT_HOLD && o.kind != SUPPORT_MOVE {
                continue;
            }
            let Some((at, _, t)) = state.unit_in(b, o.target_loc) else {
                continue;
            };
            if t != FLEET || at == o.target_loc {
                continue;
            }
            let alternative = DOrder {
                target_type: t,
                target_loc: at,
                ..*o
            };
            if let Some(&idx) = self.single.get(&alternative.key()) {
                pairs.push((idx as i64, alternative.unit_loc as i64 - 1));
            }
        }
        if pairs.len() >= ORDERS_WIDTH {
            return Err(EncodeError::Runtime("orders exceeds max size".into()));
        }
        pairs.sort_unstable();
        out.fill(0);
        for (i, (idx, loc)) in pairs.into_iter().enumerate() {
            out[i] = idx;
            out[ORDERS_WIDTH + i] = loc;
        }
        Ok(())
    }

    /// dipcc's `filter_orders_in_vocab`: the indices found, duplicates kept under input
    /// versions 1 and 2 (`buggy`), then sorted.
    /// Without `buggy` the indices of this call are left sorted (every caller sorts them
    /// after, so the order they come in does not show; dipcc keeps the first of each).
    fn in_vocabulary(&self, b: &Board, orders: &[DOrder], buggy: bool, out: &mut Vec<i32>) {
        let start = out.len();
        out.extend(orders.iter().filter_map(|o| self.index(b, o)));
        if buggy {
            return;
        }
        out[start..].sort_unstable();
        let mut kept = start;
        for i in start..out.len() {
            if kept == start || out[i] != out[kept - 1] {
                out[kept] = out[i];
                kept += 1;
            }
        }
        out.truncate(kept);
    }
}

/// One game's state-only fields (dipcc's `new_data_fields_state_only`), borrowed from the
/// batch's arrays.
pub struct StateOut<'a> {
    pub board: &'a mut [f32],
    pub prev_board: &'a mut [f32],
    pub prev_orders: &'a mut [i64],
    pub season: &'a mut [f32],
    pub year: &'a mut [f32],
    pub in_adj: &'a mut f32,
    pub builds: &'a mut [f32],
    pub scoring: &'a mut [f32],
}

/// One game's candidate orders: `(7, steps, cands)` int32, `(7, 81)` int8 and, for the
/// all-powers form, `(7, 34)` int64.
pub struct CandidatesOut<'a> {
    pub actions: &'a mut [i32],
    pub loc_idxs: &'a mut [i8],
    pub powers: Option<&'a mut [i64]>,
    pub steps: usize,
    pub cands: usize,
}

/// The encoder: the board and the caller's vocabulary.
pub struct Encoder {
    pub board: Board,
    pub vocabulary: Vocabulary,
}

impl Encoder {
    /// Every state-only field of one game (Python's `encode_inputs_state_only_multi`, one row),
    /// and its possible orders.
    pub fn state_only(
        &self,
        g: &Packed,
        possible: &Possible,
        version: u8,
        out: StateOut<'_>,
    ) -> Result<(), EncodeError> {
        let b = &self.board;
        let s = &g.state;
        encode_board(b, s, possible, version, out.board);
        out.prev_orders.fill(0);
        if let Some((first, _)) = g.since.first() {
            // the last movement phase: no builds to show, so no possible orders needed
            encode_board(b, first, &Possible::none(), version, out.prev_board);
            let given: Vec<(&DOrder, Option<&DState>)> = g
                .since
                .iter()
                .rev()
                .flat_map(|(st, orders)| orders.iter().map(move |o| (o, Some(st))))
                .collect();
            self.vocabulary.encode_orders(b, &given, out.prev_orders)?;
        } else {
            out.prev_board.fill(0.0);
        }
        out.season.fill(0.0);
        out.season[match s.season {
            b'S' => 0,
            b'F' => 1,
            _ => 2,
        }] = 1.0;
        out.year[0] = (0.1f64 * (f64::from(s.year) - 1901.0)).clamp(0.0, 5.0) as f32;
        out.builds.fill(0.0);
        if s.kind == b'A' {
            *out.in_adj = 1.0;
            for (slot, &n) in out.builds.iter_mut().zip(possible.builds.iter()) {
                *slot = n as f32;
            }
        } else {
            *out.in_adj = 0.0;
        }
        out.scoring.fill(0.0);
        out.scoring[g.scoring as usize] = 1.0;
        Ok(())
    }

    /// The orderable provinces as the locations their units' orders are listed under (a coast
    /// for a fleet on one), sorted (Python's `ThreadPool._actual_locs`).
    fn actual_locs(&self, possible: &Possible, roots: impl Iterator<Item = u8>) -> Vec<u8> {
        let b = &self.board;
        let mut locs = Vec::new();
        for r in roots {
            let coasts = &b.coasts[r as usize];
            if coasts.len() == 1 {
                locs.push(r);
                continue;
            }
            if let Some(&c) = coasts
                .iter()
                .find(|&&c| !possible.orders[c as usize].is_empty())
            {
                locs.push(c);
            }
        }
        locs.sort_unstable();
        locs
    }

    fn put(
        actions: &mut [i32],
        steps: usize,
        cands: usize,
        row: usize,
        idxs: &[i32],
    ) -> Result<(), EncodeError> {
        if idxs.len() > cands {
            return Err(EncodeError::Value(format!(
                "{} candidate orders exceed max_order_cands={cands}",
                idxs.len()
            )));
        }
        if row >= steps {
            return Err(EncodeError::Value(format!(
                "more than {steps} orderable locations"
            )));
        }
        actions[row * cands..row * cands + idxs.len()].copy_from_slice(idxs);
        Ok(())
    }

    /// One power's candidates in an adjustment phase (Python's `ThreadPool._adjustment`).
    #[allow(clippy::too_many_arguments)]
    fn adjustment(
        &self,
        p: usize,
        possible: &Possible,
        actions: &mut [i32],
        loc_idxs: &mut [i8],
        steps: usize,
        cands: usize,
        buggy: bool,
    ) -> Result<(), EncodeError> {
        let b = &self.board;
        let roots = &possible.orderable[p];
        if roots.is_empty() {
            return Ok(());
        }
        let locs = self.actual_locs(possible, roots.iter().copied());
        let owed = possible.builds[p];
        if owed > 0 {
            let n = (owed as usize).min(locs.len());
            let choices: Vec<Vec<DOrder>> = locs
                .iter()
                .map(|&loc| {
                    b.coasts[loc as usize]
                        .iter()
                        .flat_map(|&c| possible.orders[c as usize].iter().copied())
                        .collect()
                })
                .collect();
            let mut idxs = Vec::new();
            let mut combo = Vec::with_capacity(n);
            let mut pick = Vec::with_capacity(n);
            combinations(choices.len(), n, 0, &mut combo, &mut |combo| {
                picks(&choices, combo, &mut pick, &mut |pick| {
                    let idx = if pick.len() == 1 {
                        self.vocabulary.single.get(&pick[0].key()).copied()
                    } else {
                        let mut sorted = pick.to_vec();
                        sorted.sort_unstable();
                        let key: Vec<u64> = sorted.iter().map(DOrder::key).collect();
                        self.vocabulary.combined.get(&key).copied()
                    };
                    match idx {
                        Some(i) => {
                            idxs.push(i);
                            Ok(())
                        }
                        None => Err(EncodeError::Value(format!(
                            "the order vocabulary has no '{}'",
                            b.text(pick)
                        ))),
                    }
                })
            })?;
            idxs.sort_unstable();
            Self::put(actions, steps, cands, 0, &idxs)?;
        } else if owed < 0 {
            let mut idxs = Vec::new();
            for &loc in &locs {
                self.vocabulary
                    .in_vocabulary(b, &possible.orders[loc as usize], buggy, &mut idxs);
            }
            idxs.sort_unstable();
            for row in 0..(-owed) as usize {
                Self::put(actions, steps, cands, row, &idxs)?;
            }
        } else {
            return Ok(());
        }
        for &loc in &locs {
            loc_idxs[b.root[loc as usize] as usize - 1] = -2;
        }
        Ok(())
    }

    /// Every power's candidate orders of one game (Python's `ThreadPool._valid_orders`, or
    /// `_valid_orders_all_powers` when `out.powers` is given). The arrays are filled with -1
    /// first (here, in the game's own thread: the pages are first touched where they are
    /// written).
    pub fn candidates(
        &self,
        s: &DState,
        possible: &Possible,
        version: u8,
        mut out: CandidatesOut<'_>,
    ) -> Result<(), EncodeError> {
        out.actions.fill(-1);
        out.loc_idxs.fill(-1);
        if let Some(powers) = out.powers.as_mut() {
            powers.fill(-1);
        }
        let b = &self.board;
        let buggy = version < 3;
        let (steps, cands) = (out.steps, out.cands);
        let per_power = steps * cands;
        let mut idxs = Vec::new();
        match out.powers {
            None => {
                for p in 0..N_POWERS {
                    let actions = &mut out.actions[p * per_power..(p + 1) * per_power];
                    let loc_idxs = &mut out.loc_idxs[p * N_LOCS..(p + 1) * N_LOCS];
                    if s.kind == b'A' {
                        self.adjustment(p, possible, actions, loc_idxs, steps, cands, buggy)?;
                        continue;
                    }
                    let locs = self.actual_locs(possible, possible.orderable[p].iter().copied());
                    for (step, &loc) in locs.iter().enumerate() {
                        idxs.clear();
                        self.vocabulary.in_vocabulary(
                            b,
                            &possible.orders[loc as usize],
                            buggy,
                            &mut idxs,
                        );
                        idxs.sort_unstable();
                        Self::put(actions, steps, cands, step, &idxs)?;
                        if !idxs.is_empty() {
                            loc_idxs[b.root[loc as usize] as usize - 1] = step as i8;
                        }
                    }
                }
            }
            Some(powers) => {
                if s.kind == b'A' {
                    for p in 0..N_POWERS {
                        let actions = &mut out.actions[p * per_power..(p + 1) * per_power];
                        let loc_idxs = &mut out.loc_idxs[p * N_LOCS..(p + 1) * N_LOCS];
                        self.adjustment(p, possible, actions, loc_idxs, steps, cands, buggy)?;
                        powers[p * N_SCS..(p + 1) * N_SCS].fill(p as i64);
                    }
                    return Ok(());
                }
                let mut owner = [0u8; N_CODES];
                let mut roots = Vec::new();
                for (p, rs) in possible.orderable.iter().enumerate() {
                    for &r in rs {
                        owner[r as usize] = p as u8;
                        roots.push(r);
                    }
                }
                let locs = self.actual_locs(possible, roots.into_iter());
                let actions = &mut out.actions[..per_power];
                for (step, &loc) in locs.iter().enumerate() {
                    idxs.clear();
                    self.vocabulary.in_vocabulary(
                        b,
                        &possible.orders[loc as usize],
                        buggy,
                        &mut idxs,
                    );
                    idxs.sort_unstable();
                    Self::put(actions, steps, cands, step, &idxs)?;
                    let r = b.root[loc as usize];
                    out.loc_idxs[r as usize - 1] = step as i8;
                    powers[step] = i64::from(owner[r as usize]);
                }
            }
        }
        Ok(())
    }
}

/// A board's possible orders as bytes kept beside the board on the Python side (so that the
/// orders staged on it are ruled on without working them out again, as dipcc's game keeps
/// them): `N_CODES + 1` offsets (u16, little-endian, in orders) into the orders of each exact
/// code, then every order's seven bytes, the codes in turn.
pub fn listed_bytes(p: &Possible) -> Vec<u8> {
    let n: usize = p.orders.iter().map(Vec::len).sum();
    let mut out = Vec::with_capacity(2 * (N_CODES + 1) + 7 * n);
    let mut at = 0u16;
    for orders in &p.orders {
        out.extend_from_slice(&at.to_le_bytes());
        at = at.saturating_add(u16::try_from(orders.len()).unwrap_or(u16::MAX));
    }
    out.extend_from_slice(&at.to_le_bytes());
    for o in p.orders.iter().flatten() {
        out.extend_from_slice(&o.bytes());
    }
    out
}

/// Whether `o` is one of the orders of [`listed_bytes`] (an error when the bytes are not such).
fn is_listed(listed: &[u8], o: &DOrder) -> Result<bool, String> {
    let head = 2 * (N_CODES + 1);
    let at = |i: usize| -> Result<usize, String> {
        listed
            .get(2 * i..2 * i + 2)
            .map(|b| usize::from(u16::from_le_bytes([b[0], b[1]])))
            .ok_or_else(|| "listed orders: truncated".to_string())
    };
    let c = o.unit_loc as usize;
    if c >= N_CODES {
        return Ok(false);
    }
    let (from, to) = (head + 7 * at(c)?, head + 7 * at(c + 1)?);
    let rows = listed
        .get(from..to)
        .ok_or_else(|| "listed orders: truncated".to_string())?;
    let want = o.bytes();
    Ok(rows.chunks_exact(7).any(|r| r == want))
}

/// How a staged order fares in dipcc's `process` (before the adjudication).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ruling {
    /// Not an order of a unit of the power's there: left out.
    Foreign,
    /// Not possible: the unit is unordered.
    Dropped,
    /// Ruled on as this order (a move possible only by convoy made "VIA").
    Ruled(DOrder),
}

/// The orders dipcc's `process` rules on, of `staged` (`(power, order)`, in the order given)
/// on board `s` whose possible orders are `listed` ([`listed_bytes`]). Movement and retreats:
/// each unit's order from its owner (a dislodged unit's in a retreat phase), the last one given
/// for its province kept, an impossible one leaving the unit unordered, a move possible only
/// by convoy made "VIA"; adjustments: every possible order, in the order given.
pub fn rule_staged(
    b: &Board,
    s: &DState,
    listed: &[u8],
    staged: &[(u8, DOrder)],
) -> Result<Vec<DOrder>, String> {
    let rule = |power: u8, o: &DOrder| -> Result<Ruling, String> {
        if s.kind != b'A' {
            let owner = if s.kind == b'R' {
                s.dislodged
                    .iter()
                    .find(|d| d.loc == o.unit_loc)
                    .map(|d| (d.power, d.unit_type))
            } else {
                s.unit(o.unit_loc)
            };
            if owner.map(|(p, _)| p) != Some(power) {
                return Ok(Ruling::Foreign);
            }
        }
        if is_listed(listed, o)? {
            return Ok(Ruling::Ruled(*o));
        }
        let via = DOrder { via: true, ..*o };
        if s.kind == b'M' && o.kind == MOVE && !o.via && is_listed(listed, &via)? {
            return Ok(Ruling::Ruled(via));
        }
        Ok(Ruling::Dropped)
    };
    if s.kind == b'A' {
        let mut out = Vec::with_capacity(staged.len());
        for (power, o) in staged {
            if let Ruling::Ruled(r) = rule(*power, o)? {
                out.push(r);
            }
        }
        return Ok(out);
    }
    // by province, in the order each province was first given an order
    let mut by_province: Vec<(u8, Option<DOrder>)> = Vec::with_capacity(staged.len());
    for (power, o) in staged {
        let ruled = match rule(*power, o)? {
            Ruling::Foreign => continue,
            Ruling::Dropped => None,
            Ruling::Ruled(r) => Some(r),
        };
        let province = b.root[o.unit_loc as usize];
        match by_province.iter_mut().find(|(p, _)| *p == province) {
            Some(slot) => slot.1 = ruled,
            None => by_province.push((province, ruled)),
        }
    }
    Ok(by_province.into_iter().filter_map(|(_, r)| r).collect())
}

/// The engine's code ([`crate::engine::encode`]) of a dipcc order, `engine[c]` the engine's
/// location index of dipcc's code `c` (a province's index is its root's).
pub fn engine_code(b: &Board, engine: &[u8], o: &DOrder) -> Result<Code, String> {
    let at = |c: u8| -> Result<usize, String> {
        engine
            .get(c as usize)
            .map(|&i| i as usize)
            .ok_or_else(|| format!("no engine location for dipcc location {c}"))
    };
    let province = |c: u8| at(b.root[c as usize]);
    let here = at(o.unit_loc)?;
    Ok(match o.kind {
        HOLD => encode::hold(here),
        MOVE => encode::move_to(here, at(o.dest)?, o.via),
        SUPPORT_HOLD => encode::support_hold(here, province(o.target_loc)?),
        SUPPORT_MOVE => encode::support_move(here, province(o.target_loc)?, at(o.dest)?),
        CONVOY => encode::convoy(here, province(o.target_loc)?, province(o.dest)?),
        RETREAT => encode::retreat(here, at(o.dest)?),
        DISBAND => encode::disband(here),
        BUILD => encode::build(here, o.unit_type == FLEET),
        k => return Err(format!("not a dipcc order kind: {k}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_come_in_python_order() {
        let mut seen = Vec::new();
        let mut combo = Vec::new();
        combinations(4, 2, 0, &mut combo, &mut |c| {
            seen.push(c.to_vec());
            Ok(())
        })
        .unwrap();
        let want: Vec<Vec<usize>> = vec![
            vec![0, 1],
            vec![0, 2],
            vec![0, 3],
            vec![1, 2],
            vec![1, 3],
            vec![2, 3],
        ];
        assert_eq!(seen, want);
        // choose none: one empty combination, as itertools.combinations(x, 0)
        let mut n = 0;
        combinations(3, 0, 0, &mut Vec::new(), &mut |c| {
            assert!(c.is_empty());
            n += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(n, 1);
    }

    #[test]
    fn picks_run_the_last_fastest_and_stop_at_an_error() {
        let o = |loc| DOrder::new(ARMY, loc, BUILD);
        let choices = vec![vec![o(1), o(2)], vec![o(3), o(4)]];
        let mut seen = Vec::new();
        picks(&choices, &[0, 1], &mut Vec::new(), &mut |p| {
            seen.push((p[0].unit_loc, p[1].unit_loc));
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, vec![(1, 3), (1, 4), (2, 3), (2, 4)]);
        let mut calls = 0;
        let stopped = picks(&choices, &[0, 1], &mut Vec::new(), &mut |_| {
            calls += 1;
            Err(EncodeError::Value("no".into()))
        });
        assert_eq!(stopped, Err(EncodeError::Value("no".into())));
        assert_eq!(calls, 1);
    }

    #[test]
    fn listed_bytes_hold_each_codes_orders_and_no_other() {
        let mut p = Possible::none();
        let hold = DOrder::new(ARMY, 5, HOLD);
        let mv = DOrder {
            dest: 2,
            ..DOrder::new(ARMY, 5, MOVE)
        };
        let via = DOrder { via: true, ..mv };
        let fleet = DOrder::new(FLEET, 81, HOLD);
        p.orders[5] = vec![hold, mv];
        p.orders[81] = vec![fleet];
        let listed = listed_bytes(&p);
        assert_eq!(listed.len(), 2 * (N_CODES + 1) + 7 * 3);
        for o in [hold, mv, fleet] {
            assert_eq!(is_listed(&listed, &o), Ok(true));
        }
        for o in [via, DOrder::new(ARMY, 4, HOLD), DOrder::new(FLEET, 5, HOLD)] {
            assert_eq!(is_listed(&listed, &o), Ok(false));
        }
        assert!(is_listed(&listed[..20], &hold).is_err());
    }

    #[test]
    fn the_order_sort_is_the_tuple_sort() {
        let hold = DOrder::new(ARMY, 5, HOLD);
        let mv = DOrder {
            dest: 2,
            ..DOrder::new(ARMY, 5, MOVE)
        };
        let via = DOrder { via: true, ..mv };
        let fleet = DOrder::new(FLEET, 1, HOLD);
        let mut orders = vec![fleet, via, mv, hold];
        orders.sort();
        assert_eq!(orders, vec![hold, mv, via, fleet]);
        assert_ne!(mv.key(), via.key());
    }

    #[test]
    fn the_rank_compares_the_fields_in_turn() {
        let tuple = |o: &DOrder| {
            (
                o.unit_type,
                o.unit_loc,
                o.kind,
                o.target_type,
                o.target_loc,
                o.dest,
                o.via,
            )
        };
        let mut orders = Vec::new();
        for (i, via) in [false, true].into_iter().enumerate() {
            for v in [0u8, 1, 2, 80, 81, 255] {
                let w = v.wrapping_mul(37).wrapping_add(i as u8);
                orders.push(DOrder {
                    unit_type: v % 3,
                    unit_loc: w,
                    kind: v % 9,
                    target_type: w % 3,
                    target_loc: v,
                    dest: w,
                    via,
                });
            }
        }
        for a in &orders {
            for b in &orders {
                assert_eq!(a.cmp(b), tuple(a).cmp(&tuple(b)), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn the_hash_spreads_one_units_orders() {
        // the bucket is picked by the low bits: the orders of one unit must not share them
        use std::hash::BuildHasher;
        let build = BuildHasherDefault::<OrderHasher>::default();
        let mut buckets = std::collections::HashSet::new();
        for dest in 1..82u8 {
            let o = DOrder {
                dest,
                ..DOrder::new(ARMY, 5, MOVE)
            };
            buckets.insert(build.hash_one(o.key()) & 0x3ff);
        }
        assert!(buckets.len() > 60, "{} buckets of 1024", buckets.len());
    }

    #[test]
    fn packed_games_are_read_whole_or_refused() {
        let mut state = vec![b'M', b'S'];
        state.extend_from_slice(&1901u16.to_le_bytes());
        let mut units = [0u8; N_CODES];
        units[3] = 1 + 2 * 2 + 1; // a French fleet
        state.extend_from_slice(&units);
        state.extend_from_slice(&[0u8; N_CODES]);
        state.push(0);
        let mut game = vec![0u8];
        game.extend_from_slice(&state);
        game.push(0);
        let read = Packed::read(&game).unwrap();
        assert_eq!(read.state.unit(3), Some((2, FLEET)));
        assert_eq!(read.state.year, 1901);
        assert!(Packed::read(&game[..game.len() - 1]).is_err());
        let mut longer = game.clone();
        longer.push(0);
        assert!(Packed::read(&longer).is_err());
        let mut bad = game.clone();
        bad[1] = b'X';
        assert!(Packed::read(&bad).is_err());
        let mut batch = (game.len() as u32).to_le_bytes().to_vec();
        batch.extend_from_slice(&game);
        assert_eq!(Packed::read_batch(&batch, 1).unwrap().len(), 1);
        assert!(Packed::read_batch(&batch, 2).is_err());
    }
}
