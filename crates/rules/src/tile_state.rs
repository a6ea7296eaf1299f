//! What a position of a variant with moving tiles (Beyond Chess) holds
//! beyond pieces: where the rifts are, the shuttle count, and whether the
//! turn's tile shift is still owed. A position of any other variant has
//! none of it (`Position`'s `tiles` is `None`). The moves that change it
//! are generated in `tiles`; the FEN's shuttle field is read and written
//! here.

use crate::bitboard::Bitboard;
use crate::geometry::Geometry;

/// The last tile shift and how many shifts in a row have moved that tile
/// back and forth between the same two cells (Beyond Chess's shuttle
/// limit).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shuttle {
    pub from: u8,
    pub to: u8,
    pub count: u8,
}

impl Shuttle {
    /// The FEN's shuttle field: `-` or `<from><to>:<count>` (`d4e4:3`).
    pub fn parse(g: Geometry, text: &str) -> Option<Shuttle> {
        if text == "-" {
            return Some(Shuttle::default());
        }
        let (cells, n) = text.split_once(':')?;
        let (from, to, rest) = g.parse_cell_pair(cells)?;
        let count: u8 = n.parse().ok()?;
        (rest.is_empty() && count >= 1).then_some(Shuttle { from: from as u8, to: to as u8, count })
    }

    pub fn text(self, g: Geometry) -> String {
        if self.count == 0 {
            "-".into()
        } else {
            format!("{}{}:{}", g.name(self.from as usize), g.name(self.to as usize), self.count)
        }
    }
}

/// The part of the tiles' state that a move replaces and `unmake` puts
/// back as it was (the rifts are moved back instead).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TileTurn {
    pub shuttle: Shuttle,
    /// A piece move has been made and the same side's tile shift follows
    /// (when search plays a turn as two plies).
    pub shift_pending: bool,
}

#[derive(Clone, Debug)]
pub struct TileState<B> {
    /// Cells without a tile; they block riders.
    pub rifts: B,
    pub turn: TileTurn,
}

impl<B: Bitboard> TileState<B> {
    pub(crate) fn new() -> TileState<B> {
        TileState { rifts: B::EMPTY, turn: TileTurn::default() }
    }

    /// Moves the tile on `from` into the rift on `to`.
    #[inline(always)]
    pub(crate) fn move_tile(&mut self, from: usize, to: usize) {
        self.rifts ^= B::cell(from) | B::cell(to);
    }

    /// A tile shift of the turn: moves the tile and counts shuttles.
    pub(crate) fn shift(&mut self, from: usize, to: usize) {
        self.move_tile(from, to);
        let s = self.turn.shuttle;
        let back = s.from as usize == to && s.to as usize == from;
        self.turn.shuttle =
            Shuttle { from: from as u8, to: to as u8, count: if back { s.count.saturating_add(1) } else { 1 } };
    }
}
