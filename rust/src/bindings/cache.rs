//! Caches keyed by integers, for the bindings' per-map stores: [`KeyHasher`] (keys already well
//! spread), [`TextArena`] (texts made once and kept by key) and [`PerMap`] (one value per map,
//! made on first use and kept for the life of the process, as the map itself is).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::Mutex;

use crate::engine::game_map::{GameMap, Mask};

/// A hasher for integer text keys (a multiply: the keys are already well spread).
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u32(&mut self, v: u32) {
        self.0 = u64::from(v).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
}

/// A map from integer keys hashed by [`KeyHasher`].
pub(crate) type KeyMap<K, V> = HashMap<K, V, BuildHasherDefault<KeyHasher>>;

/// Texts made once and kept by key: `index` maps a key to its entry in `arena`.
pub(crate) struct TextArena<K, E> {
    pub(crate) index: KeyMap<K, u32>,
    pub(crate) arena: Vec<E>,
}

impl<K, E> Default for TextArena<K, E> {
    fn default() -> Self {
        TextArena {
            index: HashMap::default(),
            arena: Vec::new(),
        }
    }
}

/// One `T` per map, by the map's address: made by `make` on first use, never dropped.
pub(crate) struct PerMap<T: 'static>(Mutex<Option<HashMap<usize, &'static T>>>);

impl<T: 'static> PerMap<T> {
    pub(crate) const fn new() -> Self {
        PerMap(Mutex::new(None))
    }

    /// The value of `map`, made by `make` on first use.
    pub(crate) fn get<M: Mask>(
        &'static self,
        map: &'static GameMap<M>,
        make: impl FnOnce() -> T,
    ) -> &'static T {
        let key = map as *const GameMap<M> as usize;
        let mut guard = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let all = guard.get_or_insert_with(HashMap::new);
        if let Some(&found) = all.get(&key) {
            return found;
        }
        let made: &'static T = Box::leak(Box::new(make()));
        all.insert(key, made);
        made
    }
}
