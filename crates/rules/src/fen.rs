//! FEN for any board size: ranks from the top, runs of empty cells as
//! decimal numbers of any length (`9`, `10`, `16`), `*` for a cell without a
//! tile, then side, castling, en passant, half-move clock and move number
//! (the last two may be left out, as Stockfish allows). Where tiles move
//! (Beyond Chess) a seventh field carries the shuttle count: `-`, or the
//! last tile shift and how many shifts in a row have moved that tile back
//! and forth between its two cells (`d4e4:3`).
//!
//! Parsing refuses anything it cannot make a valid position of and says
//! what and where; it never builds a half-valid position.

use crate::bitboard::Bitboard;
use crate::geometry::{Geometry, Step};
use crate::piece::{Color, Piece};
use crate::position::{Position, Shuttle};
use crate::tables::Rules;
use crate::variant::{Role, Variant};
use std::fmt;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid FEN: {}", self.0)
    }
}
impl std::error::Error for FenError {}

fn error<T>(msg: impl Into<String>) -> Result<T, FenError> {
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

/// Builds a position from a FEN, checking that it is one a game can reach
/// in the ways that matter to move generation.
pub fn parse<B: Bitboard>(rules: &Arc<Rules<B>>, fen: &str) -> Result<Position<B>, FenError> {
    let variant = &rules.variant;
    let g = rules.geometry;
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() {
        return error("empty");
    }
    let max_fields = if variant.tiles.is_some() || !variant.redefinitions.is_empty() { 7 } else { 6 };
    if fields.len() > max_fields {
        return error(format!("{} fields, at most {max_fields} expected", fields.len()));
    }
    let placement = parse_placement(variant, fields[0])?;
    let mut pos = Position::empty(rules.clone());
    for &cell in &placement.rifts {
        pos.set_rift(cell);
    }
    for &(cell, piece) in &placement.pieces {
        pos.put(cell, piece);
    }

    let side = match fields.get(1).copied().unwrap_or("w") {
        "w" => Color::White,
        "b" => Color::Black,
        other => return error(format!("side to move '{other}' is neither 'w' nor 'b'")),
    };
    pos.set_side(side);

    if let Some(royal) = rules.royal {
        for color in Color::ALL {
            let n = pos.pieces_of(color, royal).count();
            if n != 1 {
                let name = if color == Color::White { "White" } else { "Black" };
                return error(format!("{name} has {n} kings, not 1"));
            }
        }
    }
    // The rules come first: the en passant field is read under them.
    if !variant.redefinitions.is_empty() {
        if let Some(&text) = fields.get(6) {
            parse_redefinitions(&mut pos, text)?;
        }
    }
    for &(cell, piece) in &placement.pieces {
        if rules.roles[piece.kind()] != Role::Pawn {
            continue;
        }
        let rank = g.rank(cell);
        let back = if piece.color() == Color::White { 0 } else { g.height() - 1 };
        let promo = variant.promotion.ranks[piece.color() as usize] as usize;
        // Where rules change, a pawn redefined to move backwards may have
        // reached its own first rank.
        let back_reachable = !variant.redefinitions.is_empty();
        if (rank == back && !back_reachable) || (rank == promo && variant.promotion.mandatory) {
            return error(format!("a pawn on {}, where no pawn can stand", g.name(cell)));
        }
    }

    crate::castling::parse_rights(&mut pos, fields.get(2).copied().unwrap_or("-"))?;

    let ep = fields.get(3).copied().unwrap_or("-");
    if ep != "-" {
        let Some(target) = g.parse_cell(ep) else {
            return error(format!("en passant cell '{ep}' is not a cell of this board"));
        };
        if !pos.vacant().has(target) {
            return error(format!("en passant cell {ep} is not an empty cell"));
        }
        let Some(victim) = en_passant_victim(&pos, target) else {
            return error(format!("en passant cell {ep} has no pawn that just made a double step over it"));
        };
        pos.set_en_passant(target, victim);
    }

    let number = |i: usize, name: &str, default: u32| -> Result<u32, FenError> {
        match fields.get(i) {
            None => Ok(default),
            Some(t) => t.parse::<u32>().map_err(|_| FenError(format!("{name} '{t}' is not a number"))),
        }
    };
    let quiet = number(4, "half-move clock", 0)?;
    let fullmove = number(5, "move number", 1)?;
    let Ok(quiet) = u16::try_from(quiet) else {
        return error(format!("half-move clock {quiet} is larger than {}", u16::MAX));
    };
    // Move number 0 reads as 1, as in Stockfish.
    pos.set_counters(quiet, fullmove);

    if variant.tiles.is_some() {
        if !pos.is_one_group(pos.tiles()) {
            return error("the tiles do not form one group");
        }
        if let Some(&text) = fields.get(6) {
            pos.set_shuttle(parse_shuttle(g, text)?);
        }
    }

    if let Some(k) = pos.king(!side) {
        if pos.attacked(k, side) {
            return error("the side not to move is in check");
        }
    }
    Ok(pos)
}

/// The rules field (Flexichess): `-`, or the kinds that move other than
/// in the variant's own rules, each as letter, `=`, Betza (`N=NN,B=BW`).
fn parse_redefinitions<B: Bitboard>(pos: &mut Position<B>, text: &str) -> Result<(), FenError> {
    if text == "-" {
        return Ok(());
    }
    let mut seen = 0u32;
    for item in text.split(',') {
        let Some((letter, betza)) = item.split_once('=') else {
            return error(format!("rule '{item}' is not like 'N=NN'"));
        };
        let kind = letter.chars().next().filter(|c| letter.len() == 1 && c.is_ascii_uppercase()).and_then(|c| pos.rules().variant.piece_by_letter(c));
        let Some(kind) = kind.filter(|&k| pos.rules().roles[k] != Role::Royal) else {
            return error(format!("rule '{item}' does not name a piece other than the king"));
        };
        if seen >> kind & 1 == 1 {
            return error(format!("rule '{item}': {letter} is given twice"));
        }
        seen |= 1 << kind;
        if betza == pos.rules().original_betza[kind] {
            return error(format!("rule '{item}' is {letter}'s own movement, not a change"));
        }
        let rules = pos.rules_with(kind, betza).map_err(|e| FenError(format!("rule '{item}': {e}")))?;
        pos.set_rules(rules);
    }
    Ok(())
}

/// The pawn that just made the double step over `target`: an enemy pawn
/// (of the side not to move) beside it whose start cell, on the far side
/// of `target`, is empty. The step straight forward is looked at first;
/// pawns redefined to step two cells another way (Flexichess) have the
/// other seven directions.
fn en_passant_victim<B: Bitboard>(pos: &Position<B>, target: usize) -> Option<usize> {
    let g = pos.rules().geometry;
    let forward: i8 = if pos.side_to_move() == Color::White { -1 } else { 1 };
    let mut steps = vec![Step::new(0, forward)];
    steps.extend((-1..=1).flat_map(|dx| (-1..=1).map(move |dy| Step::new(dx, dy))).filter(|&s| s != Step::new(0, 0) && s != Step::new(0, forward)));
    steps.into_iter().find_map(|s| {
        let victim = g.offset(target, s)?;
        let origin = g.offset(target, s.reversed())?;
        let pawn = pos.piece_at(victim)?;
        let is_victim = pawn.color() != pos.side_to_move() && pos.rules().roles[pawn.kind()] == Role::Pawn && pos.vacant().has(origin);
        is_victim.then_some(victim)
    })
}

/// The shuttle field: `-` or `<from><to>:<count>`.
fn parse_shuttle(g: Geometry, text: &str) -> Result<Shuttle, FenError> {
    if text == "-" {
        return Ok(Shuttle::default());
    }
    let parsed = text.split_once(':').and_then(|(cells, n)| {
        let (from, to, rest) = g.parse_cell_pair(cells)?;
        let count: u8 = n.parse().ok()?;
        (rest.is_empty() && count >= 1).then_some(Shuttle { from: from as u8, to: to as u8, count })
    });
    parsed.ok_or_else(|| FenError(format!("shuttle field '{text}' is neither '-' nor like 'd4e4:3'")))
}

/// Board text as FEN writes it: ranks from the top separated by `/`, each
/// cell's character or, for runs of cells without one, the run's length.
pub fn board_rows(g: Geometry, text: impl Fn(usize) -> Option<char>) -> String {
    let mut out = String::new();
    for rank in (0..g.height()).rev() {
        let mut run = 0;
        for file in 0..g.width() {
            match text(g.cell(file, rank)) {
                None => run += 1,
                Some(c) => {
                    if run > 0 {
                        out += &run.to_string();
                        run = 0;
                    }
                    out.push(c);
                }
            }
        }
        if run > 0 {
            out += &run.to_string();
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

impl<B: Bitboard> Position<B> {
    pub fn fen(&self) -> String {
        let rules = self.rules();
        let g = rules.geometry;
        let mut out = board_rows(g, |cell| {
            if self.rifts().has(cell) {
                Some('*')
            } else {
                self.piece_at(cell).map(|p| {
                    let l = rules.variant.pieces[p.kind()].letter;
                    if p.color() == Color::White { l } else { l.to_ascii_lowercase() }
                })
            }
        });
        out.push(' ');
        out.push(if self.side_to_move() == Color::White { 'w' } else { 'b' });
        out.push(' ');
        out += &crate::castling::rights_text(self);
        out.push(' ');
        match self.en_passant() {
            Some(c) => out += &g.name(c).to_string(),
            None => out.push('-'),
        }
        out += &format!(" {} {}", self.quiet_plies(), self.fullmove());
        if !rules.variant.redefinitions.is_empty() {
            out.push(' ');
            out += &self.redefinitions_text();
        }
        if rules.variant.tiles.is_some() {
            let s = self.shuttle();
            if s.count == 0 {
                out += " -";
            } else {
                out += &format!(" {}{}:{}", g.name(s.from as usize), g.name(s.to as usize), s.count);
            }
        }
        out
    }
}
