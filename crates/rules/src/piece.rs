//! Colours and pieces.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    #[inline(always)]
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.other()
    }
}

/// A piece: a kind (index into the variant's piece list) and a colour,
/// packed in one byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece(u8);

impl Piece {
    #[inline(always)]
    pub fn new(color: Color, kind: usize) -> Piece {
        Piece((kind as u8) << 1 | color as u8)
    }
    #[inline(always)]
    pub fn color(self) -> Color {
        if self.0 & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }
    #[inline(always)]
    pub fn kind(self) -> usize {
        (self.0 >> 1) as usize
    }
    #[inline(always)]
    pub(crate) fn from_index(index: u8) -> Piece {
        Piece(index)
    }
    /// A dense index (`kind * 2 + colour`) for tables such as Zobrist keys.
    #[inline(always)]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
