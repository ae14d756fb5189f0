//! Sets of provinces or locations, sized to the map: the engine is generic over [`Mask`], and a
//! map picks the narrowest width it fits in ([`Width::of`]).
//!
//! * `u128` — maps of at most 128 locations (the standard map and most variants). A set is one
//!   machine value, and a per-province table ([`Mask::Table`]) is a fixed array of 128 entries
//!   living inside its owner (a state is a plain value, cloned without touching the heap). This
//!   is the engine as it was before maps could be larger: the standard map pays nothing for them.
//! * [`Wide<4>`] — up to 256 locations (`modern`, `empire`, `world`), and [`Wide<16>`] — up to
//!   1,024 (`known_world_901`, bigger home-made maps): `W` 64-bit words, and tables that are
//!   vectors of exactly that many entries.
//!
//! Every rule is written once, against the trait; the compiler makes one copy of the engine per
//! width. Only the bindings choose (`bindings::any`), once per map.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Index, IndexMut, Not};

/// What a per-province or per-location table of a given width must offer.
pub trait TableOf<T>:
    Clone + Debug + Send + Sync + Index<usize, Output = T> + IndexMut<usize> + AsRef<[T]> + AsMut<[T]>
{
}

impl<T, X> TableOf<T> for X where
    X: Clone
        + Debug
        + Send
        + Sync
        + Index<usize, Output = T>
        + IndexMut<usize>
        + AsRef<[T]>
        + AsMut<[T]>
{
}

/// A set of indices below [`Mask::BITS`] (bit `i` is index `i`), and the tables that go with it.
pub trait Mask:
    Copy
    + Eq
    + Hash
    + Debug
    + Send
    + Sync
    + 'static
    + BitOr<Output = Self>
    + BitAnd<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitOrAssign
    + BitAndAssign
{
    /// The empty set.
    const ZERO: Self;
    /// How many indices a set can hold: the most locations (and powers) of a map of this width.
    const BITS: usize;
    /// A table with one entry per index below [`Mask::BITS`].
    type Table<T: Copy + Debug + Send + Sync + 'static>: TableOf<T>;
    /// A table with every entry `fill`.
    fn table<T: Copy + Debug + Send + Sync + 'static>(fill: T) -> Self::Table<T>;
    /// The set `{i}`.
    fn bit(i: usize) -> Self;
    /// Whether `i` is in the set.
    fn has(self, i: usize) -> bool;
    /// Whether the set is empty.
    fn is_zero(self) -> bool;
    /// Its size.
    fn count(self) -> u32;
    /// Its smallest index, if any.
    fn first(self) -> Option<usize>;
    /// Removes and returns its smallest index, if any.
    fn pop_first(&mut self) -> Option<usize>;
}

impl Mask for u128 {
    const ZERO: Self = 0;
    const BITS: usize = 128;
    type Table<T: Copy + Debug + Send + Sync + 'static> = [T; 128];
    #[inline]
    fn table<T: Copy + Debug + Send + Sync + 'static>(fill: T) -> [T; 128] {
        [fill; 128]
    }
    #[inline]
    fn bit(i: usize) -> Self {
        1u128 << i
    }
    #[inline]
    fn has(self, i: usize) -> bool {
        (self >> i) & 1 == 1
    }
    #[inline]
    fn is_zero(self) -> bool {
        self == 0
    }
    #[inline]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn first(self) -> Option<usize> {
        (self != 0).then(|| self.trailing_zeros() as usize)
    }
    #[inline]
    fn pop_first(&mut self) -> Option<usize> {
        // A word at a time: the low word alone in the common case, where the 128-bit count
        // and decrement would work on both (the loops of the legal-order lists pop millions).
        let low = *self as u64;
        if low != 0 {
            *self ^= u128::from(low & low.wrapping_neg());
            return Some(low.trailing_zeros() as usize);
        }
        let high = (*self >> 64) as u64;
        if high == 0 {
            return None;
        }
        *self ^= u128::from(high & high.wrapping_neg()) << 64;
        Some(64 + high.trailing_zeros() as usize)
    }
}

/// A set of `64 * W` indices in `W` words (see the module documentation).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Wide<const W: usize>(pub [u64; W]);

impl<const W: usize> BitOr for Wide<W> {
    type Output = Self;
    #[inline]
    fn bitor(mut self, o: Self) -> Self {
        self |= o;
        self
    }
}

impl<const W: usize> BitAnd for Wide<W> {
    type Output = Self;
    #[inline]
    fn bitand(mut self, o: Self) -> Self {
        self &= o;
        self
    }
}

impl<const W: usize> BitXor for Wide<W> {
    type Output = Self;
    #[inline]
    fn bitxor(mut self, o: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a ^= b;
        }
        self
    }
}

impl<const W: usize> Not for Wide<W> {
    type Output = Self;
    #[inline]
    fn not(mut self) -> Self {
        for a in &mut self.0 {
            *a = !*a;
        }
        self
    }
}

impl<const W: usize> BitOrAssign for Wide<W> {
    #[inline]
    fn bitor_assign(&mut self, o: Self) {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a |= b;
        }
    }
}

impl<const W: usize> BitAndAssign for Wide<W> {
    #[inline]
    fn bitand_assign(&mut self, o: Self) {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a &= b;
        }
    }
}

/// A fixed-length table on the heap (a wide map's tables are too big to live inline).
#[derive(Clone, Debug)]
pub struct Boxed<T>(Box<[T]>);

impl<T> Index<usize> for Boxed<T> {
    type Output = T;
    #[inline]
    fn index(&self, i: usize) -> &T {
        &self.0[i]
    }
}

impl<T> IndexMut<usize> for Boxed<T> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.0[i]
    }
}

impl<T> AsRef<[T]> for Boxed<T> {
    fn as_ref(&self) -> &[T] {
        &self.0
    }
}

impl<T> AsMut<[T]> for Boxed<T> {
    fn as_mut(&mut self) -> &mut [T] {
        &mut self.0
    }
}

impl<const W: usize> Mask for Wide<W> {
    const ZERO: Self = Wide([0; W]);
    const BITS: usize = 64 * W;
    type Table<T: Copy + Debug + Send + Sync + 'static> = Boxed<T>;
    fn table<T: Copy + Debug + Send + Sync + 'static>(fill: T) -> Boxed<T> {
        Boxed(vec![fill; 64 * W].into_boxed_slice())
    }
    #[inline]
    fn bit(i: usize) -> Self {
        let mut m = Self::ZERO;
        m.0[i / 64] = 1 << (i % 64);
        m
    }
    #[inline]
    fn has(self, i: usize) -> bool {
        (self.0[i / 64] >> (i % 64)) & 1 == 1
    }
    #[inline]
    fn is_zero(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn first(self) -> Option<usize> {
        let (i, w) = self.0.iter().enumerate().find(|(_, &w)| w != 0)?;
        Some(64 * i + w.trailing_zeros() as usize)
    }
    #[inline]
    fn pop_first(&mut self) -> Option<usize> {
        let (i, w) = self.0.iter_mut().enumerate().find(|(_, w)| **w != 0)?;
        let b = w.trailing_zeros() as usize;
        *w &= *w - 1;
        Some(64 * i + b)
    }
}

/// The widths the engine is compiled for, narrowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// `u128`: at most 128 locations.
    W128,
    /// `Wide<4>`: at most 256.
    W256,
    /// `Wide<16>`: at most 1,024.
    W1024,
}

/// The most locations (and powers) any map may have.
pub const MAX_LOCATIONS: usize = <Wide<16> as Mask>::BITS;

impl Width {
    /// The narrowest width for a map of `locations` locations and `powers` powers, or `None`
    /// when it is over [`MAX_LOCATIONS`].
    pub fn of(locations: usize, powers: usize) -> Option<Width> {
        let n = locations.max(powers);
        if n <= <u128 as Mask>::BITS {
            Some(Width::W128)
        } else if n <= <Wide<4> as Mask>::BITS {
            Some(Width::W256)
        } else if n <= MAX_LOCATIONS {
            Some(Width::W1024)
        } else {
            None
        }
    }
}

/// The set `{i}`.
#[inline]
pub fn bit<M: Mask>(i: usize) -> M {
    M::bit(i)
}

/// Whether `i` is in `mask`.
#[inline]
pub fn has<M: Mask>(mask: M, i: usize) -> bool {
    mask.has(i)
}

/// The indices of a mask, in increasing order.
#[derive(Clone, Copy)]
pub struct Bits<M>(pub M);

impl<M: Mask> Iterator for Bits<M> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        self.0.pop_first()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sets_agree<M: Mask>() {
        let idx = [0usize, 1, 63, 64, 65, 127];
        let m = idx.iter().fold(M::ZERO, |m, &i| m | bit::<M>(i));
        assert_eq!(Bits(m).collect::<Vec<_>>(), idx);
        assert_eq!(m.count(), 6);
        assert_eq!(m.first(), Some(0));
        assert!(m.has(64) && !m.has(2));
        assert!((m & !m).is_zero());
        assert_eq!((m ^ bit(0)).first(), Some(1));
        let t = M::table(7u8);
        assert_eq!(t.as_ref().len(), M::BITS);
        assert!(M::ZERO.first().is_none());
    }

    #[test]
    fn every_width_is_one_set() {
        sets_agree::<u128>();
        sets_agree::<Wide<4>>();
        sets_agree::<Wide<16>>();
        let top = bit::<Wide<16>>(1023);
        assert_eq!(Bits(top).collect::<Vec<_>>(), [1023]);
    }

    #[test]
    fn widths_are_chosen_by_size() {
        assert_eq!(Width::of(81, 7), Some(Width::W128));
        assert_eq!(Width::of(214, 17), Some(Width::W256));
        assert_eq!(Width::of(281, 10), Some(Width::W1024));
        assert_eq!(Width::of(1024, 300), Some(Width::W1024));
        assert_eq!(Width::of(1025, 3), None);
    }
}
