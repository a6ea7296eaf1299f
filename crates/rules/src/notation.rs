//! Move notation: coordinate notation for protocols (`e2e4`, `e8e9q`,
//! `a9a10`; castling as the king's from-to, `e1g1`, `e1b1`; a Beyond Chess
//! turn with its tile shift, `e7e5,h4i4`) and SAN for PGN (the tile shift
//! appended the same way: `e5,h4i4`; a capture on the middle cell of a
//! two-leg jump names that cell, then the landing cell: `Nxe1,h1`).

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind};
use crate::piece::Color;
use crate::position::Position;
use crate::variant::Role;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not coordinate notation on this board.
    Malformed(String),
    /// Well formed, but not a legal move here.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed(m) => write!(f, "malformed move '{m}'"),
            MoveError::Illegal(m) => write!(f, "illegal move '{m}'"),
        }
    }
}
impl std::error::Error for MoveError {}

/// The castling in a SAN move, without its check mark (`O-O`, `O-O-O`),
/// or nothing for any other move.
pub fn castling_in_san(san: &str) -> Option<&str> {
    let bare = san.trim_end_matches(['+', '#']);
    bare.starts_with("O-O").then_some(bare)
}

impl<B: Bitboard> Position<B> {
    /// Coordinate notation of a move in this position.
    pub fn move_text(&self, m: Move) -> String {
        let rules = self.rules();
        if m.kind == MoveKind::Redefine {
            return format!("{}={}", rules.variant.pieces[m.from()].letter, rules.variant.redefinitions[m.to()].betza);
        }
        let mut s = m.cells_text(rules.geometry);
        if let Some(kind) = m.promotion() {
            s.push(rules.variant.pieces[kind].letter.to_ascii_lowercase());
        }
        if let Some((from, to)) = m.shift.cells() {
            let g = rules.geometry;
            s += &format!(",{}{}", g.name(from), g.name(to));
        }
        s
    }

    /// Reads a move in coordinate notation and returns it if it is legal.
    pub fn parse_move(&mut self, text: &str) -> Result<Move, MoveError> {
        let g = self.rules().geometry;
        // A piece move (with a promotion letter), and after a comma either
        // its second leg (`c1e1,e1b1`) or the turn's tile shift
        // (`e7e5,h4i4`); which of them is legal is decided by the list.
        // A rule change: a piece letter, `=`, a movement in Betza (`N=NN`).
        if let Some((letter, movement)) = text.split_once('=') {
            let mut letters = letter.chars();
            let piece_ok = matches!((letters.next(), letters.next()), (Some(c), None) if c.is_ascii_uppercase() && self.rules().variant.piece_by_letter(c).is_some());
            if !piece_ok || crate::betza::parse(movement).is_err() {
                return Err(MoveError::Malformed(text.to_string()));
            }
            return self
                .legal_move_list()
                .into_iter()
                .find(|&m| self.move_text(m) == text)
                .ok_or_else(|| MoveError::Illegal(text.to_string()));
        }
        let (piece, second) = match text.split_once(',') {
            Some((piece, second)) => (piece, Some(second)),
            None => (text, None),
        };
        let piece_ok = g.parse_cell_pair(piece).is_some_and(|(_, _, rest)| {
            rest.is_empty()
                || (rest.len() == 1
                    && self.rules().variant.piece_by_letter(rest.chars().next().expect("one")).is_some())
        });
        let well_formed = piece_ok && second.is_none_or(|t| matches!(g.parse_cell_pair(t), Some((_, _, ""))));
        if !well_formed {
            return Err(MoveError::Malformed(text.to_string()));
        }
        self.legal_move_list()
            .into_iter()
            .find(|&m| self.move_text(m) == text)
            .ok_or_else(|| MoveError::Illegal(text.to_string()))
    }

    /// Reads a move in SAN (as `san` writes it, with or without `+`, `#`,
    /// `!`, `?`; castling also with zeros) and returns it if it is legal.
    pub fn parse_san(&mut self, text: &str) -> Result<Move, MoveError> {
        let plain = |s: &str| s.trim_end_matches(['+', '#', '!', '?']).replace('0', "O");
        // Zeros are castling's only; cells may contain 0 only in Beyond
        // Chess's arena, whose SAN keeps them: compare both ways.
        let wanted = text.trim_end_matches(['+', '#', '!', '?']).to_string();
        let castle_form = plain(text);
        let moves = self.legal_move_list();
        for m in moves {
            let san = self.san(m);
            let bare = san.trim_end_matches(['+', '#']);
            if bare == wanted || (m.kind == MoveKind::Castle && bare == castle_form) {
                return Ok(m);
            }
        }
        Err(MoveError::Illegal(text.to_string()))
    }

    /// Standard algebraic notation of a legal move, with `+` or `#`.
    pub fn san(&mut self, m: Move) -> String {
        let rules = self.rules().clone();
        let g = rules.geometry;
        let mut s = String::new();
        if m.kind == MoveKind::Redefine {
            // SAN has no rule changes: the coordinate form is its own.
            s = self.move_text(m);
        } else if m.kind == MoveKind::Geret {
            // A pawn riding its tile: no SAN form says that, so its
            // coordinates (`c4c5`, `j7j8=Q`), which no SAN move looks like.
            s += &format!("{}{}", g.name(m.from()), g.name(m.to()));
            if let Some(kind) = m.promotion() {
                s.push('=');
                s.push(rules.variant.pieces[kind].letter);
            }
        } else if m.kind == MoveKind::Castle {
            let c = &rules.castling[m.aux as usize];
            s += if g.file(c.rook_from) > g.file(c.king_from) { "O-O" } else { "O-O-O" };
        } else {
            let piece = self.piece_at(m.from()).expect("a move starts on a piece");
            let is_pawn = rules.roles[piece.kind()] == Role::Pawn;
            if !is_pawn {
                s.push(rules.variant.pieces[piece.kind()].letter);
            }
            let rivals: Vec<Move> = self
                .legal_move_list()
                .into_iter()
                .filter(|o| {
                    o.to == m.to
                        && o.from != m.from
                        && o.kind != MoveKind::Castle
                        && self.piece_at(o.from()) == Some(piece)
                })
                .filter(|o| {
                    (o.kind == MoveKind::LegCapture) == (m.kind == MoveKind::LegCapture)
                        && (m.kind != MoveKind::LegCapture || o.aux == m.aux)
                })
                .collect();
            let from = g.name(m.from()).to_string();
            let (file, rank) = from.split_at(1);
            // A pawn names its file when it captures, as in chess, and
            // also when another pawn could go there too (pawns redefined
            // to move diagonally or sideways).
            if (is_pawn && m.is_capture()) || !rivals.is_empty() {
                if rivals.iter().all(|o| g.file(o.from()) != g.file(m.from())) {
                    s += file;
                } else if rivals.iter().all(|o| g.rank(o.from()) != g.rank(m.from())) {
                    s += if is_pawn { &from } else { rank };
                } else {
                    s += &from;
                }
            }
            if m.is_capture() {
                s.push('x');
            }
            if m.kind == MoveKind::LegCapture {
                // The cell taken on, then the cell landed on: two such
                // jumps may land on one cell (`Nxe1,h1`, `Nxf1,h1`).
                s += &format!("{},", g.name(m.capture_cell().expect("a capture")));
            }
            s += &g.name(m.to()).to_string();
            if let Some(kind) = m.promotion() {
                s.push('=');
                s.push(rules.variant.pieces[kind].letter);
            }
        }
        if let Some((from, to)) = m.shift.cells() {
            s += &format!(",{}{}", g.name(from), g.name(to));
        }
        self.make(m);
        if self.in_check() {
            s.push(if self.legal_move_list().is_empty() { '#' } else { '+' });
        }
        self.unmake();
        s
    }
}

/// The name of a side as PGN and protocols write it.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}
