//! Bitboards sized to the board.
//!
//! A board of up to 64 cells uses `u64`, up to 128 cells `u128`, and up to
//! 256 cells (the 16x16 Beyond Chess arena) [`Bb256`]. Cells are packed row
//! by row without padding (`cell = rank * width + file`), so shifts would
//! wrap between ranks: every move pattern is therefore precomputed into
//! per-cell tables (see `tables`); the one shift, [`Bitboard::shift`], moves
//! only cells whose tables say where they go (see `step_sets`).
//! Code that touches bitboards is generic over [`Bitboard`] and so is
//! compiled once per size: the 8x8 games run on plain `u64` arithmetic.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// The operations move generation needs from a set of cells. Sealed: only
/// this module's sets implement it, so that `rider_reach` may rely on
/// their `extract` staying inside a table's block (see `LineTables::reach`).
pub trait Bitboard:
    sealed::Sealed
    + Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// How many cells this type can hold.
    const CAPACITY: usize;
    const EMPTY: Self;

    fn cell(cell: usize) -> Self;
    fn is_empty(self) -> bool;
    fn count(self) -> u32;
    /// Lowest cell; the set must not be empty.
    fn lowest(self) -> usize;
    /// Highest cell; the set must not be empty.
    fn highest(self) -> usize;

    /// The set without its lowest member; the set must not be empty.
    fn without_lowest(self) -> Self;
    /// Every cell up to and including the lowest member; all cells if empty.
    fn lowest_and_below(self) -> Self;
    /// Every cell from the highest member up; all cells if empty.
    fn highest_and_above(self) -> Self;

    /// The members of `self` inside `mask`, packed into the low bits of an
    /// index in cell order (x86's PEXT): the index of a blocker pattern in
    /// a lookup table (see `rider_reach`).
    ///
    /// The index is below 2^(cells in `mask`), which the lookup tables'
    /// unchecked reads rely on.
    fn extract(self, mask: Self) -> usize;

    /// Every member moved `by` cells up (down where negative); members
    /// moved off either end are lost. `by` must be smaller in size than
    /// the capacity.
    fn shift(self, by: i32) -> Self;

    #[inline(always)]
    fn has(self, cell: usize) -> bool {
        !(self & Self::cell(cell)).is_empty()
    }
    #[inline(always)]
    fn any(self) -> bool {
        !self.is_empty()
    }
    /// More than one cell.
    #[inline(always)]
    fn several(self) -> bool {
        self.count() > 1
    }
    #[inline(always)]
    fn cells(self) -> Cells<Self> {
        Cells(self)
    }
}

/// Whether [`Bitboard::extract`] is one instruction per word on this
/// build (x86-64 compiled with BMI2, as `target-cpu=native` does on any
/// recent x86). Only then do lookup tables of rider reach beat walking
/// the rays, so only then are they built.
pub const FAST_EXTRACT: bool = cfg!(all(target_arch = "x86_64", target_feature = "bmi2"));

/// PEXT on one word: by the instruction where the build has it, else bit
/// by bit (then only table building calls it).
#[inline(always)]
fn extract_word(word: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the build enables BMI2, so the instruction exists.
        unsafe { std::arch::x86_64::_pext_u64(word, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let (mut out, mut bit, mut m) = (0, 1, mask);
        while m != 0 {
            if word & m & m.wrapping_neg() != 0 {
                out |= bit;
            }
            m &= m - 1;
            bit <<= 1;
        }
        out
    }
}

/// Iterates the cells of a bitboard from lowest to highest.
#[derive(Clone, Copy)]
pub struct Cells<B>(B);

impl<B: Bitboard> Iterator for Cells<B> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        let c = self.0.lowest();
        self.0 = self.0.without_lowest();
        Some(c)
    }
}

mod sealed {
    /// What only this module's sets are (see [`super::Bitboard`]).
    pub trait Sealed {}
    impl Sealed for u64 {}
    impl Sealed for u128 {}
    impl Sealed for super::Bb256 {}
}

macro_rules! native_bitboard {
    ($t:ty) => {
        impl Bitboard for $t {
            const CAPACITY: usize = <$t>::BITS as usize;
            const EMPTY: Self = 0;
            #[inline(always)]
            fn cell(cell: usize) -> Self {
                1 << cell
            }
            #[inline(always)]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn highest(self) -> usize {
                (<$t>::BITS - 1 - self.leading_zeros()) as usize
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & (self - 1)
            }
            #[inline(always)]
            fn lowest_and_below(self) -> Self {
                self ^ self.wrapping_sub(1)
            }
            #[inline(always)]
            fn highest_and_above(self) -> Self {
                // `| 1` makes the empty set yield bit 0, i.e. every cell.
                !((1 << (self | 1).highest()) - 1)
            }
            #[inline(always)]
            fn extract(self, mask: Self) -> usize {
                // One PEXT per 64-bit word, the results side by side; the
                // test on the width is settled when this compiles, so a
                // 128-bit board takes two PEXTs and no loop.
                let low = extract_word(self as u64, mask as u64) as usize;
                if <$t>::BITS <= 64 {
                    return low;
                }
                let high =
                    extract_word(self.checked_shr(64).unwrap_or(0) as u64, mask.checked_shr(64).unwrap_or(0) as u64)
                        as usize;
                low | high << (mask as u64).count_ones()
            }
            #[inline(always)]
            fn shift(self, by: i32) -> Self {
                if by >= 0 {
                    self << by
                } else {
                    self >> -by
                }
            }
        }
    };
}
native_bitboard!(u64);
native_bitboard!(u128);

/// 256 cells in four words, lowest word first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bb256(pub [u64; 4]);

impl Debug for Bb256 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bb256({:?})", self.cells().collect::<Vec<_>>())
    }
}

macro_rules! bb256_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bb256 {
            type Output = Bb256;
            #[inline(always)]
            fn $f(self, o: Bb256) -> Bb256 {
                Bb256([self.0[0] $op o.0[0], self.0[1] $op o.0[1], self.0[2] $op o.0[2], self.0[3] $op o.0[3]])
            }
        }
        impl $atr for Bb256 {
            #[inline(always)]
            fn $af(&mut self, o: Bb256) {
                *self = *self $op o;
            }
        }
    };
}
bb256_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bb256_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bb256_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bb256 {
    type Output = Bb256;
    #[inline(always)]
    fn not(self) -> Bb256 {
        Bb256([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }
}

impl Bitboard for Bb256 {
    const CAPACITY: usize = 256;
    const EMPTY: Self = Bb256([0; 4]);
    #[inline(always)]
    fn cell(cell: usize) -> Self {
        let mut words = [0; 4];
        words[cell >> 6] = 1 << (cell & 63);
        Bb256(words)
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn lowest(self) -> usize {
        for (i, w) in self.0.iter().enumerate() {
            if *w != 0 {
                return i * 64 + w.trailing_zeros() as usize;
            }
        }
        unreachable!("lowest() of an empty bitboard")
    }
    #[inline(always)]
    fn highest(self) -> usize {
        for i in (0..4).rev() {
            if self.0[i] != 0 {
                return i * 64 + 63 - self.0[i].leading_zeros() as usize;
            }
        }
        unreachable!("highest() of an empty bitboard")
    }
    #[inline(always)]
    fn has(self, cell: usize) -> bool {
        self.0[cell >> 6] >> (cell & 63) & 1 != 0
    }
    #[inline(always)]
    fn without_lowest(self) -> Self {
        let mut words = self.0;
        for w in words.iter_mut() {
            if *w != 0 {
                *w &= *w - 1;
                break;
            }
        }
        Bb256(words)
    }
    fn lowest_and_below(self) -> Self {
        if self.is_empty() {
            return !Self::EMPTY;
        }
        let c = self.lowest();
        let mut words = [0; 4];
        for (i, w) in words.iter_mut().enumerate() {
            *w = if i < c >> 6 {
                !0
            } else if i == c >> 6 {
                u64::MAX >> (63 - (c & 63))
            } else {
                0
            };
        }
        Bb256(words)
    }
    fn highest_and_above(self) -> Self {
        if self.is_empty() {
            return !Self::EMPTY;
        }
        let c = self.highest();
        let mut words = [0; 4];
        for (i, w) in words.iter_mut().enumerate() {
            *w = if i > c >> 6 {
                !0
            } else if i == c >> 6 {
                u64::MAX << (c & 63)
            } else {
                0
            };
        }
        Bb256(words)
    }
    #[inline(always)]
    fn extract(self, mask: Self) -> usize {
        let mut index = 0;
        let mut shift = 0;
        for (&word, &m) in self.0.iter().zip(&mask.0) {
            index |= (extract_word(word, m) as usize) << shift;
            shift += m.count_ones();
        }
        index
    }
    #[inline(always)]
    fn shift(self, by: i32) -> Self {
        let n = by.unsigned_abs() as usize;
        let (words, bits) = (n / 64, (n % 64) as u32);
        let word = |j: Option<usize>| j.and_then(|j| self.0.get(j).copied()).unwrap_or(0);
        let mut out = [0; 4];
        for (i, w) in out.iter_mut().enumerate() {
            // Word i takes the word `words` away, shifted by `bits`, and
            // the bits that shifting carries out of the word after that.
            *w = if by >= 0 {
                word(i.checked_sub(words)) << bits | word(i.checked_sub(words + 1)).checked_shr(64 - bits).unwrap_or(0)
            } else {
                word(Some(i + words)) >> bits | word(Some(i + words + 1)).checked_shl(64 - bits).unwrap_or(0)
            };
        }
        Bb256(out)
    }
}

/// Xorshift numbers for tests in this crate: random enough, repeatable.
#[cfg(test)]
pub(crate) fn test_random(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<B: Bitboard>() {
        let cells = [0, 1, 63, B::CAPACITY - 1, B::CAPACITY / 2];
        let mut b = B::EMPTY;
        for &c in &cells {
            b |= B::cell(c);
        }
        let mut sorted: Vec<usize> = cells.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(b.cells().collect::<Vec<_>>(), sorted);
        assert_eq!(b.count() as usize, sorted.len());
        assert_eq!(b.lowest(), 0);
        assert_eq!(b.highest(), B::CAPACITY - 1);
        assert!(b.has(63) && !b.has(2));
        assert!((b & !b).is_empty());
        let pair = B::cell(5) | B::cell(70.min(B::CAPACITY - 1));
        assert_eq!(pair.lowest_and_below().cells().collect::<Vec<_>>(), (0..=5).collect::<Vec<_>>());
        let hi = 70.min(B::CAPACITY - 1);
        assert_eq!(pair.highest_and_above().cells().collect::<Vec<_>>(), (hi..B::CAPACITY).collect::<Vec<_>>());
        assert_eq!(B::EMPTY.lowest_and_below(), !B::EMPTY);
        assert_eq!(B::EMPTY.highest_and_above(), !B::EMPTY);
    }

    /// `extract` against its definition: the i-th cell of the mask gives
    /// bit i of the index.
    fn extract_matches_definition<B: Bitboard>() {
        let mut random = test_random(0x9e37_79b9_7f4a_7c15);
        for _ in 0..200 {
            let (mut board, mut mask) = (B::EMPTY, B::EMPTY);
            for c in 0..B::CAPACITY {
                if random().is_multiple_of(3) {
                    board |= B::cell(c);
                }
                if random().is_multiple_of(8) && mask.count() < 20 {
                    mask |= B::cell(c);
                }
            }
            let expected = mask.cells().enumerate().filter(|&(_, c)| board.has(c)).fold(0, |i, (bit, _)| i | 1 << bit);
            assert_eq!(board.extract(mask), expected);
        }
    }

    /// `shift` against its definition: cell c goes to c + by, if that is
    /// a cell.
    fn shift_matches_definition<B: Bitboard>() {
        let mut random = test_random(0x2545_f491_4f6c_dd1d);
        for _ in 0..300 {
            let board = (0..B::CAPACITY).filter(|_| random().is_multiple_of(3)).fold(B::EMPTY, |b, c| b | B::cell(c));
            let by = (random() % (2 * B::CAPACITY as u64 - 1)) as i32 - (B::CAPACITY as i32 - 1);
            let expected = board
                .cells()
                .filter_map(|c| usize::try_from(c as i32 + by).ok().filter(|&to| to < B::CAPACITY))
                .fold(B::EMPTY, |b, c| b | B::cell(c));
            assert_eq!(board.shift(by), expected, "shift by {by}");
        }
    }

    #[test]
    fn every_size_shifts() {
        shift_matches_definition::<u64>();
        shift_matches_definition::<u128>();
        shift_matches_definition::<Bb256>();
    }

    #[test]
    fn every_size_extracts() {
        extract_matches_definition::<u64>();
        extract_matches_definition::<u128>();
        extract_matches_definition::<Bb256>();
    }

    #[test]
    fn every_size_iterates_and_counts() {
        round_trip::<u64>();
        round_trip::<u128>();
        round_trip::<Bb256>();
    }
}
