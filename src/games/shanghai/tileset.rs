//! A set of tile indices as a 256-bit mask: the remaining tiles of a position and the
//! precomputed neighbourhoods of a layout, so "is anything on it?" is four word tests.

/// Tile indices `0..256` as bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TileSet([u64; 4]);

impl TileSet {
    /// The set of no tile.
    pub const EMPTY: TileSet = TileSet([0; 4]);

    /// The set `{0, .., n-1}`.
    pub fn first(n: usize) -> TileSet {
        let mut s = TileSet::EMPTY;
        (0..n).for_each(|i| s.insert(i));
        s
    }

    /// Whether tile `i` is in the set.
    pub fn contains(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 == 1
    }

    /// The set `{i}`. `insert` and `remove` rewrite the whole set with it, not one word: the
    /// solver removes a tile and then reads the set whole, and a one-word store under a wider
    /// load stalls store forwarding (the turtle's eval and oracle ran 20-30% slower so).
    fn single(i: usize) -> TileSet {
        debug_assert!(i < 256, "tile {i} beyond a TileSet");
        TileSet(std::array::from_fn(|w| if w == i >> 6 { 1 << (i & 63) } else { 0 }))
    }

    /// Adds tile `i`.
    pub fn insert(&mut self, i: usize) {
        *self = self.or(&TileSet::single(i));
    }

    /// Removes tile `i`.
    pub fn remove(&mut self, i: usize) {
        *self = self.minus(&TileSet::single(i));
    }

    /// Whether the two sets share a tile.
    pub fn intersects(&self, other: &TileSet) -> bool {
        (0..4).any(|w| self.0[w] & other.0[w] != 0)
    }

    /// The tiles in both sets.
    pub fn and(&self, other: &TileSet) -> TileSet {
        TileSet(std::array::from_fn(|w| self.0[w] & other.0[w]))
    }

    /// The tiles in either set.
    pub fn or(&self, other: &TileSet) -> TileSet {
        TileSet(std::array::from_fn(|w| self.0[w] | other.0[w]))
    }

    /// The tiles of this set not in `other`.
    pub fn minus(&self, other: &TileSet) -> TileSet {
        TileSet(std::array::from_fn(|w| self.0[w] & !other.0[w]))
    }

    /// Whether the set holds no tile.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// Number of tiles in the set.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The indices in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..4).flat_map(move |w| {
            let mut bits = self.0[w];
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    w * 64 + b
                })
            })
        })
    }

    /// A 64-bit hash of the set (for transposition tables).
    pub fn hash64(&self) -> u64 {
        self.0.iter().fold(0x243F_6A88_85A3_08D3, |h, &w| crate::lab::rng::mix64(h ^ w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Any sequence of inserts and removes leaves the set a `BTreeSet` would hold.
        #[test]
        fn matches_a_btreeset(ops in proptest::collection::vec((proptest::bool::ANY, 0usize..256), 0..200)) {
            let (mut s, mut model) = (TileSet::EMPTY, std::collections::BTreeSet::new());
            for (add, i) in ops {
                if add {
                    s.insert(i);
                    model.insert(i);
                } else {
                    s.remove(i);
                    model.remove(&i);
                }
                proptest::prop_assert_eq!(s.contains(i), add);
            }
            proptest::prop_assert_eq!(s.iter().collect::<Vec<_>>(), model.into_iter().collect::<Vec<_>>());
        }
    }

    #[test]
    fn insert_remove_iterate() {
        let mut s = TileSet::EMPTY;
        for i in [0, 63, 64, 200, 255] {
            s.insert(i);
        }
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 63, 64, 200, 255]);
        s.remove(64);
        assert!(!s.contains(64) && s.contains(200));
        assert_eq!(s.len(), 4);
        assert_eq!(TileSet::first(70).len(), 70);
    }
}
