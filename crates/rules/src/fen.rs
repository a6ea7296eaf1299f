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
use crate::castling::{Castling, Entry};
use crate::geometry::{Geometry, Step};
use crate::piece::Color;
use crate::position::Position;
use crate::tables::Rules;
use crate::tile_state::Shuttle;
use crate::variant::{CastlingDef, CastlingStart, Role};
use std::sync::Arc;

use crate::placement::error;
pub use crate::placement::{parse_placement, FenError, Placement};

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
        if !pos.set_rift(cell) {
            return error(format!("a rift ('*') on {}, but the tiles of {} do not move", g.name(cell), variant.name));
        }
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

    parse_castling_rights(&mut pos, fields.get(2).copied().unwrap_or("-"))?;

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
            let shuttle = Shuttle::parse(g, text)
                .ok_or_else(|| FenError(format!("shuttle field '{text}' is neither '-' nor like 'd4e4:3'")))?;
            pos.set_shuttle(shuttle);
        }
    }

    if let Some(k) = pos.king(!side) {
        if pos.attacked(k, side) {
            return error("the side not to move is in check");
        }
    }
    Ok(pos)
}

fn back_rank(g: Geometry, color: Color) -> usize {
    if color == Color::White {
        0
    } else {
        g.height() - 1
    }
}

/// Reads the castling field into rights (and, in Chess960, the rules
/// compiled for the rooks it names).
fn parse_castling_rights<B: Bitboard>(pos: &mut Position<B>, field: &str) -> Result<(), FenError> {
    let rules = pos.rules().clone();
    let variant = &rules.variant;
    if field == "-" {
        pos.set_castling(0);
        return Ok(());
    }
    let g = rules.geometry;
    let CastlingStart::BackRank { rook } = variant.castling_start else {
        let mut rights = 0u8;
        for c in field.chars() {
            let Some(i) = rules.castling.iter().position(|k| k.fen_letter == c) else {
                return Err(FenError(format!("castling right '{c}' is not one of {}", variant.name)));
            };
            if rights >> i & 1 == 1 {
                return Err(FenError(format!("castling right '{c}' is given twice")));
            }
            let k = &rules.castling[i];
            let king_ok =
                pos.piece_at(k.king_from).is_some_and(|p| p.color() == k.color && Some(p.kind()) == rules.royal);
            let rook_ok =
                pos.piece_at(k.rook_from).is_some_and(|p| p.color() == k.color && rules.roles[p.kind()] == Role::Other);
            if !king_ok || !rook_ok {
                return Err(FenError(format!(
                    "castling right '{c}' without king on {} and rook on {}",
                    g.name(k.king_from),
                    g.name(k.rook_from)
                )));
            }
            rights |= 1 << i;
        }
        pos.set_castling(rights);
        return Ok(());
    };
    let mut entries: Vec<Entry> = Vec::new();
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let rank = back_rank(g, color);
        let Some(king) = pos.king(color).filter(|&k| g.rank(k) == rank) else {
            return Err(FenError(format!("castling right '{c}' without the king on its back rank")));
        };
        let king_file = g.file(king);
        let rooks: Vec<usize> = (0..g.width())
            .filter(|&f| pos.piece_at(g.cell(f, rank)).is_some_and(|p| p.color() == color && p.kind() == rook))
            .collect();
        let file = match c.to_ascii_lowercase() {
            'k' => rooks.iter().copied().filter(|&f| f > king_file).max(),
            'q' => rooks.iter().copied().filter(|&f| f < king_file).min(),
            l if l.is_ascii_lowercase() && ((l as u8 - b'a') as usize) < g.width() => {
                Some((l as u8 - b'a') as usize).filter(|f| rooks.contains(f))
            }
            _ => return Err(FenError(format!("castling right '{c}' is not K, Q or a file letter"))),
        };
        let Some(file) = file else {
            return Err(FenError(format!("castling right '{c}' names no rook on its back rank")));
        };
        let short = file > king_file;
        if entries.iter().any(|(col, d)| *col == color && (d.rook_from.0 as usize > d.king_from.0 as usize) == short) {
            return Err(FenError(format!("castling right '{c}' is a second right on one side")));
        }
        let Some(template) = variant.castling.iter().find(|d| (d.rook_from.0 > d.king_from.0) == short) else {
            return Err(FenError(format!("castling right '{c}': {} has no castling on that side", variant.name)));
        };
        entries.push((
            color,
            CastlingDef { king_from: (king_file as u8, 0), rook_from: (file as u8, 0), ..template.clone() },
        ));
    }
    // One order for one layout: White first, the short side first.
    entries.sort_by_key(|(color, d)| (*color as u8, d.rook_from.0 < d.king_from.0));
    let same = entries.len() == rules.castling.len()
        && entries.iter().zip(&rules.castling).all(|((color, d), c)| {
            *color == c.color
                && g.file(c.king_from) == d.king_from.0 as usize
                && g.file(c.rook_from) == d.rook_from.0 as usize
        });
    if !same {
        let compiled = rules.with_castling(&entries).map_err(|e| FenError(format!("castling: {e}")))?;
        pos.set_rules(Arc::new(compiled));
    }
    pos.set_castling(((1u16 << entries.len()) - 1) as u8);
    Ok(())
}

/// The castling field of a position: the rights' letters, in Chess960
/// X-FEN (`K`/`Q` unless another rook stands further out on that side).
fn castling_rights_text<B: Bitboard>(pos: &Position<B>) -> String {
    let rules = pos.rules();
    let g = rules.geometry;
    let outer_rook = |c: &Castling<B>, rook: usize| {
        let rank = g.rank(c.rook_from);
        let (lo, hi) = if g.file(c.rook_from) > g.file(c.king_from) {
            (g.file(c.rook_from) + 1, g.width())
        } else {
            (0, g.file(c.rook_from))
        };
        (lo..hi).any(|f| pos.piece_at(g.cell(f, rank)).is_some_and(|p| p.color() == c.color && p.kind() == rook))
    };
    let text: String = rules
        .castling
        .iter()
        .enumerate()
        .filter(|(i, _)| pos.castling_rights() >> i & 1 == 1)
        .map(|(_, c)| match rules.variant.castling_start {
            CastlingStart::BackRank { rook } if outer_rook(c, rook) => {
                let file = (b'a' + g.file(c.rook_from) as u8) as char;
                if c.color == Color::White {
                    file.to_ascii_uppercase()
                } else {
                    file
                }
            }
            _ => c.fen_letter,
        })
        .collect();
    if text.is_empty() {
        "-".into()
    } else {
        text
    }
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
        let kind = letter
            .chars()
            .next()
            .filter(|c| letter.len() == 1 && c.is_ascii_uppercase())
            .and_then(|c| pos.rules().variant.piece_by_letter(c));
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
/// of `target`, holds no piece (in Beyond Chess it may be a rift: the
/// turn's tile shift can move away the tile the pawn left) and from which
/// its kind's moves reach it in one move. The step straight forward is
/// looked at first; pawns redefined to step two cells another way
/// (Flexichess) have the other seven directions, and of those only the
/// moves they have: a pawn beside the cell on its own start rank did not
/// come from the far side, since pawns do not step back.
fn en_passant_victim<B: Bitboard>(pos: &Position<B>, target: usize) -> Option<usize> {
    let rules = pos.rules();
    let g = rules.geometry;
    let forward: i8 = if pos.side_to_move() == Color::White { -1 } else { 1 };
    let mut steps = vec![Step::new(0, forward)];
    steps.extend(
        (-1..=1)
            .flat_map(|dx| (-1..=1).map(move |dy| Step::new(dx, dy)))
            .filter(|&s| s != Step::new(0, 0) && s != Step::new(0, forward)),
    );
    steps.into_iter().find_map(|s| {
        let victim = g.offset(target, s)?;
        let origin = g.offset(target, s.reversed())?;
        let pawn = pos.piece_at(victim)?;
        let stepped_there =
            || rules.targets(pawn.color(), pawn.kind(), origin, B::EMPTY, rules.all_cells, B::EMPTY).0.has(victim);
        let is_victim = pawn.color() != pos.side_to_move()
            && rules.roles[pawn.kind()] == Role::Pawn
            && pos.piece_at(origin).is_none()
            && stepped_there();
        is_victim.then_some(victim)
    })
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
                    if p.color() == Color::White {
                        l
                    } else {
                        l.to_ascii_lowercase()
                    }
                })
            }
        });
        out.push(' ');
        out.push(if self.side_to_move() == Color::White { 'w' } else { 'b' });
        out.push(' ');
        out += &castling_rights_text(self);
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
        if self.tiles_move() {
            out.push(' ');
            out += &self.shuttle().text(g);
        }
        out
    }
}

/// A position shows itself as its FEN.
impl<B: Bitboard> std::fmt::Debug for Position<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}
