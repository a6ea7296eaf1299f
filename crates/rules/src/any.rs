//! Choosing the bitboard size at run time.
//!
//! Everything below this layer is generic over the bitboard and so compiled
//! once per size; this enum is the one place where a variant's board picks
//! the size. Callers that need speed match once (with [`with_position!`])
//! and stay inside the generic code.

use crate::bitboard::{Bb256, Bitboard};
use crate::fen::{self, FenError};
use crate::moves::Move;
use crate::notation::MoveError;
use crate::outcome::Outcome;
use crate::piece::{Color, Piece};
use crate::position::Position;
use crate::tables::{Rules, RulesError};
use crate::variant::Variant;
use std::sync::Arc;

/// A variant's compiled rules, at the bitboard size its board needs.
#[derive(Clone, Debug)]
pub enum AnyRules {
    Small(Arc<Rules<u64>>),
    Medium(Arc<Rules<u128>>),
    Large(Arc<Rules<Bb256>>),
}

/// A position at the bitboard size of its variant. The sizes differ (a
/// 256-cell position is a few kilobytes), but positions are few and long
/// lived, so each is kept inline for direct, generic access.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum AnyPosition {
    Small(Position<u64>),
    Medium(Position<u128>),
    Large(Position<Bb256>),
}

fn move_piece<B: crate::Bitboard>(
    from: &mut Position<B>,
    to: &mut Position<B>,
    cell: usize,
    piece: Piece,
) -> Result<Piece, String> {
    to.can_drop(cell, piece).map_err(|e| e.to_string())?;
    from.lift(cell);
    to.drop_piece(cell, piece);
    Ok(piece)
}

/// Runs an expression on the position inside an [`AnyPosition`], whatever
/// its size: `with_position!(any, p => p.fen())`.
#[macro_export]
macro_rules! with_position {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            $crate::AnyPosition::Small($p) => $body,
            $crate::AnyPosition::Medium($p) => $body,
            $crate::AnyPosition::Large($p) => $body,
        }
    };
}

impl AnyRules {
    pub fn new(variant: Variant) -> Result<AnyRules, RulesError> {
        let cells = variant.geometry.cells();
        Ok(if cells <= u64::CAPACITY {
            AnyRules::Small(Arc::new(Rules::new(variant)?))
        } else if cells <= u128::CAPACITY {
            AnyRules::Medium(Arc::new(Rules::new(variant)?))
        } else {
            AnyRules::Large(Arc::new(Rules::new(variant)?))
        })
    }

    pub fn variant(&self) -> &Variant {
        match self {
            AnyRules::Small(r) => &r.variant,
            AnyRules::Medium(r) => &r.variant,
            AnyRules::Large(r) => &r.variant,
        }
    }

    pub fn from_fen(&self, fen: &str) -> Result<AnyPosition, FenError> {
        Ok(match self {
            AnyRules::Small(r) => AnyPosition::Small(fen::parse(r, fen)?),
            AnyRules::Medium(r) => AnyPosition::Medium(fen::parse(r, fen)?),
            AnyRules::Large(r) => AnyPosition::Large(fen::parse(r, fen)?),
        })
    }

    pub fn start(&self) -> AnyPosition {
        self.from_fen(&self.variant().start_fen).expect("a variant's start position is valid")
    }
}

impl AnyPosition {
    pub fn fen(&self) -> String {
        with_position!(self, p => p.fen())
    }
    pub fn side_to_move(&self) -> Color {
        with_position!(self, p => p.side_to_move())
    }
    /// The move number, as FEN's last field counts it.
    pub fn fullmove(&self) -> u32 {
        with_position!(self, p => p.fullmove())
    }
    pub fn variant(&self) -> &Variant {
        with_position!(self, p => &p.rules().variant)
    }
    /// Legal moves in coordinate notation.
    pub fn legal_moves(&mut self) -> Vec<String> {
        with_position!(self, p => p.legal_move_list().into_iter().map(|m| p.move_text(m)).collect())
    }
    /// Every legal move.
    pub fn legal_move_list(&mut self) -> Vec<Move> {
        with_position!(self, p => p.legal_move_list())
    }
    /// The legal move that `text` (coordinate notation) names.
    pub fn parse_move(&mut self, text: &str) -> Result<Move, MoveError> {
        with_position!(self, p => p.parse_move(text))
    }
    /// A legal move in coordinate notation.
    pub fn move_text(&self, m: Move) -> String {
        with_position!(self, p => p.move_text(m))
    }
    /// A line of legal moves from here, in coordinate notation; each is
    /// written in the position it is played from (a Flexichess rule change
    /// changes how later moves read).
    pub fn line_text(&self, line: &[Move]) -> Vec<String> {
        with_position!(self, p => {
            let mut p = p.clone();
            line.iter()
                .map(|&m| {
                    let text = p.move_text(m);
                    p.make(m);
                    text
                })
                .collect()
        })
    }
    /// How `reply` reads after `first` (a ponder move after the best).
    pub fn reply_text(&self, first: Move, reply: Move) -> String {
        self.line_text(&[first, reply]).swap_remove(1)
    }
    /// Plays a legal move.
    pub fn make(&mut self, m: Move) {
        with_position!(self, p => p.make(m))
    }
    /// Plays a move given in coordinate notation; on error nothing changes.
    pub fn play(&mut self, text: &str) -> Result<(), MoveError> {
        with_position!(self, p => {
            let m = p.parse_move(text)?;
            p.make(m);
            Ok(())
        })
    }
    /// Plays a move given in SAN, returning it in coordinate notation.
    pub fn play_san(&mut self, san: &str) -> Result<String, MoveError> {
        with_position!(self, p => {
            let m = p.parse_san(san)?;
            let text = p.move_text(m);
            p.make(m);
            Ok(text)
        })
    }
    /// SAN of a legal move given in coordinate notation.
    pub fn san(&mut self, text: &str) -> Result<String, MoveError> {
        with_position!(self, p => {
            let m = p.parse_move(text)?;
            Ok(p.san(m))
        })
    }
    pub fn outcome(&mut self) -> Option<Outcome> {
        with_position!(self, p => p.outcome())
    }
    pub fn in_check(&self) -> bool {
        with_position!(self, p => p.in_check())
    }
    /// Takes `color`'s piece on `cell` off this board for a transfer to
    /// `to` (on the same cell), if the rules allow both halves; changes
    /// nothing otherwise.
    pub fn transfer_to(&mut self, to: &mut AnyPosition, cell: &str, color: Color) -> Result<Piece, String> {
        let g = self.variant().geometry;
        let cell = g.parse_cell(cell).ok_or_else(|| format!("'{cell}' is not a cell"))?;
        let piece = with_position!(self, p => p.can_lift(cell, color)).map_err(|e| e.to_string())?;
        match (self, to) {
            (AnyPosition::Small(a), AnyPosition::Small(b)) => move_piece(a, b, cell, piece),
            (AnyPosition::Medium(a), AnyPosition::Medium(b)) => move_piece(a, b, cell, piece),
            (AnyPosition::Large(a), AnyPosition::Large(b)) => move_piece(a, b, cell, piece),
            _ => Err("the boards are of different sizes".into()),
        }
    }
    pub fn remove_kings(&mut self) {
        with_position!(self, p => p.remove_kings())
    }
    /// The pieces of each colour on the board (kings included).
    pub fn piece_counts(&self) -> [u32; 2] {
        with_position!(self, p => [p.pieces(Color::White).count(), p.pieces(Color::Black).count()])
    }
    pub fn perft(&mut self, depth: u32) -> u64 {
        with_position!(self, p => crate::perft::perft(p, depth))
    }
    /// Perft below each legal root move, with the move in coordinate
    /// notation, on `threads` threads (see [`crate::perft::divide`]);
    /// `None` if `stop` was set before it finished.
    pub fn divide(
        &self,
        depth: u32,
        threads: usize,
        stop: &std::sync::atomic::AtomicBool,
    ) -> Option<crate::perft::Divide<String>> {
        with_position!(self, p => crate::perft::divide(p, depth, threads, stop).map(|d| crate::perft::Divide {
            moves: d.moves.into_iter().map(|(m, n)| (p.move_text(m), n)).collect(),
            nodes: d.nodes,
        }))
    }
}
