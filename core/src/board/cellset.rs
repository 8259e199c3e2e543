//! Cells as small integers and cell sets as fixed-width bitmasks (bit `i` = cell `i`).
//!
//! The reference keeps cell sets as Python ints of any width; every shipped board has at most
//! 144 cells, so three 64-bit words (192 cells) hold any of them without allocation.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A cell: `y * width + x`, row 0 at the top.
pub type Cell = u8;

/// Words in a [`CellSet`].
pub const WORDS: usize = 3;

/// The most cells a board can have.
pub const MAX_CELLS: usize = 64 * WORDS;

const _: () = assert!(
    MAX_CELLS <= Cell::MAX as usize + 1,
    "a Cell must index every bit"
);

/// A set of cells as a bitmask.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellSet([u64; WORDS]);

impl CellSet {
    /// No cell.
    pub const EMPTY: CellSet = CellSet([0; WORDS]);

    /// The set of the given words, lowest cells first.
    pub const fn from_words(words: [u64; WORDS]) -> Self {
        CellSet(words)
    }

    /// The words, lowest cells first.
    pub const fn words(&self) -> [u64; WORDS] {
        self.0
    }

    /// Cells `0 .. n` (every cell of a board of `n` cells).
    ///
    /// # Panics
    /// When `n > MAX_CELLS`.
    pub fn below(n: usize) -> Self {
        assert!(n <= MAX_CELLS, "{n} cells do not fit a CellSet");
        let mut words = [0u64; WORDS];
        for (i, word) in words.iter_mut().enumerate() {
            let start = 64 * i;
            *word = match n.saturating_sub(start) {
                0 => 0,
                k if k >= 64 => u64::MAX,
                k => (1u64 << k) - 1,
            };
        }
        CellSet(words)
    }

    /// The one-cell set.
    #[inline]
    pub fn single(cell: Cell) -> Self {
        let mut set = Self::EMPTY;
        set.insert(cell);
        set
    }

    #[inline]
    pub fn contains(&self, cell: Cell) -> bool {
        let c = usize::from(cell);
        self.0[c / 64] >> (c % 64) & 1 == 1
    }

    #[inline]
    pub fn insert(&mut self, cell: Cell) {
        let c = usize::from(cell);
        self.0[c / 64] |= 1 << (c % 64);
    }

    #[inline]
    pub fn remove(&mut self, cell: Cell) {
        let c = usize::from(cell);
        self.0[c / 64] &= !(1 << (c % 64));
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// How many cells.
    #[inline]
    pub fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether the two sets share a cell (one AND, as a line-of-sight test is).
    #[inline]
    pub fn intersects(&self, other: CellSet) -> bool {
        self.0.iter().zip(other.0.iter()).any(|(a, b)| a & b != 0)
    }

    /// Whether every cell of `self` is in `other`.
    #[inline]
    pub fn is_subset(&self, other: CellSet) -> bool {
        (*self & other) == *self
    }

    /// The cells in increasing order.
    pub fn iter(&self) -> Cells {
        Cells {
            words: self.0,
            word: 0,
        }
    }
}

/// The cells of a [`CellSet`], lowest first.
pub struct Cells {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for Cells {
    type Item = Cell;

    fn next(&mut self) -> Option<Cell> {
        while self.word < WORDS {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some((64 * self.word + w.trailing_zeros() as usize) as Cell);
            }
            self.word += 1;
        }
        None
    }
}

impl IntoIterator for CellSet {
    type Item = Cell;
    type IntoIter = Cells;

    fn into_iter(self) -> Cells {
        self.iter()
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(cells: I) -> Self {
        let mut set = Self::EMPTY;
        for c in cells {
            set.insert(c);
        }
        set
    }
}

macro_rules! bitwise {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign:ident) => {
        impl $assign_trait for CellSet {
            #[inline]
            fn $assign(&mut self, other: CellSet) {
                for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
                    a.$assign(*b);
                }
            }
        }

        impl $trait for CellSet {
            type Output = CellSet;

            #[inline]
            fn $method(mut self, other: CellSet) -> CellSet {
                self.$assign(other);
                self
            }
        }
    };
}

bitwise!(BitAnd, bitand, BitAndAssign, bitand_assign);
bitwise!(BitOr, bitor, BitOrAssign, bitor_assign);
bitwise!(BitXor, bitxor, BitXorAssign, bitxor_assign);

impl Not for CellSet {
    type Output = CellSet;

    /// Every cell not in the set, up to [`MAX_CELLS`] (AND with a board's cells to stay on it).
    #[inline]
    fn not(self) -> CellSet {
        CellSet(self.0.map(|w| !w))
    }
}

impl std::fmt::Debug for CellSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_iterate_in_order_across_words() {
        let cells: Vec<Cell> = vec![0, 5, 63, 64, 130, 191];
        let set: CellSet = cells.iter().copied().collect();
        assert_eq!(set.iter().collect::<Vec<_>>(), cells);
        assert_eq!(set.len(), 6);
        assert!(set.contains(130) && !set.contains(129));
    }

    #[test]
    fn below_is_every_cell_under_n() {
        for n in [0, 1, 63, 64, 65, 128, 144, 192] {
            let set = CellSet::below(n);
            assert_eq!(set.len() as usize, n);
            assert_eq!(
                set.iter().collect::<Vec<_>>(),
                (0..n).map(|c| c as Cell).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn set_operations() {
        let a: CellSet = [1, 70, 140].into_iter().collect();
        let b: CellSet = [70, 141].into_iter().collect();
        assert_eq!((a & b).iter().collect::<Vec<_>>(), vec![70]);
        assert_eq!((a | b).len(), 4);
        assert!(a.intersects(b) && !a.intersects(CellSet::single(2)));
        assert!(CellSet::single(70).is_subset(a));
        let mut c = a;
        c.remove(70);
        assert_eq!(c ^ a, CellSet::single(70));
    }
}
