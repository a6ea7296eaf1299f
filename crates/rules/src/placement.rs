//! The placement field of a FEN (the first), read against a variant's
//! board and pieces: below the compiled tables, which read the start
//! placement once (for the ranks where initial moves apply), and below
//! `fen`, which reads the whole FEN into a position.

use crate::piece::{Color, Piece};
use crate::variant::Variant;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid FEN: {}", self.0)
    }
}
impl std::error::Error for FenError {}

pub(crate) fn error<T>(msg: impl Into<String>) -> Result<T, FenError> {
    Err(FenError(msg.into()))
}

/// The placement field, read against a variant's board and pieces.
#[derive(Clone, Debug, Default)]
pub struct Placement {
    pub pieces: Vec<(usize, Piece)>,
    pub rifts: Vec<usize>,
}

pub fn parse_placement(variant: &Variant, text: &str) -> Result<Placement, FenError> {
    let g = variant.geometry;
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != g.height() {
        return error(format!("{} ranks, but the {} board has {}", ranks.len(), variant.name, g.height()));
    }
    let mut placement = Placement::default();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = g.height() - 1 - i;
        let mut file = 0usize;
        let mut chars = rank_text.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '0' {
                return error(format!("rank {}: a run of empty cells cannot start with 0", rank + 1));
            }
            if c.is_ascii_digit() {
                let mut run = c.to_digit(10).expect("digit") as usize;
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    // Stop counting once the run is past the board: a run
                    // of any length must not wrap round to a small one.
                    run = (run * 10 + d as usize).min(g.width() + 1);
                    chars.next();
                }
                file += run;
            } else {
                if file >= g.width() {
                    return error(format!("rank {} is longer than {} cells", rank + 1, g.width()));
                }
                let cell = g.cell(file, rank);
                if c == '*' {
                    placement.rifts.push(cell);
                } else {
                    let Some(kind) = variant.piece_by_letter(c) else {
                        return error(format!("'{c}' is not a piece of {}", variant.name));
                    };
                    let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
                    placement.pieces.push((cell, Piece::new(color, kind)));
                }
                file += 1;
            }
            if file > g.width() {
                return error(format!("rank {} is longer than {} cells", rank + 1, g.width()));
            }
        }
        if file < g.width() {
            return error(format!("rank {} has {} cells, not {}", rank + 1, file, g.width()));
        }
    }
    Ok(placement)
}
