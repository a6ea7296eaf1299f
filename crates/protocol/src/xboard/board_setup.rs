//! What XBoard is told to draw: the board, start and piece moves of a
//! variant it does not know (`setup`, `piece`), and the targets of a
//! lifted piece (`highlight`).

use protean_rules::variant::Role;
use protean_rules::{AnyPosition, Bitboard, Position};

/// Marks for `highlight`: per cell, the colour letter or nothing.
pub(super) fn target_marks<B: Bitboard>(p: &mut Position<B>, from: usize) -> Vec<Option<char>> {
    let mut marks = vec![None; p.rules().geometry.cells()];
    for m in p.legal_move_list().into_iter().filter(|m| m.from() == from) {
        let mark = if m.promotion().is_some() {
            'M'
        } else if m.is_capture() {
            'R'
        } else {
            'Y'
        };
        // A promotion mark wins over the plain move to the same cell.
        if marks[m.to()] != Some('M') {
            marks[m.to()] = Some(mark);
        }
    }
    marks
}

/// The `setup` and `piece` lines that teach XBoard a variant it does not
/// know: its board and start position, and every piece's moves.
pub fn engine_defined_variant(pos: &AnyPosition) -> Vec<String> {
    let variant = pos.variant();
    let g = variant.geometry;
    // XBoard's table is positional, in its own order of piece types
    // (P N B R Q F E A C W M O H I J G D V L S U, then the king last);
    // a type the variant lacks is a '.', and the table stops after the
    // last type used, the king closing it. So P N B R Q K and the fairy
    // letters XBoard knows (an archbishop A, a chancellor C) get XBoard's
    // own images; a letter outside its order gets none.
    const ORDER: &str = "PNBRQFEACWMOHIJGDVLSU";
    let used = ORDER.rfind(|c| variant.piece_by_letter(c).is_some()).unwrap_or(0);
    let mut letters: String =
        ORDER[..=used].chars().map(|c| if variant.piece_by_letter(c).is_some() { c } else { '.' }).collect();
    letters.push(if variant.piece_by_letter('K').is_some() { 'K' } else { '.' });
    // XBoard's FEN has six fields; a seventh (Beyond Chess's shuttle
    // count) is ours alone.
    let fen: Vec<&str> = variant.start_fen.split_whitespace().take(6).collect();
    let mut lines = vec![format!(
        "setup ({}{}) {}x{}+0_fairy {}",
        letters,
        letters.to_lowercase(),
        g.width(),
        g.height(),
        fen.join(" ")
    )];
    for piece in &variant.pieces {
        let betza = match piece.role {
            // XBoard writes the double step as a lame, initial dabbaba and
            // en passant with `e`.
            Role::Pawn => piece.betza.replace("ifmR2", "ifmnD").replace("fcF", "fceF"),
            Role::Royal => {
                let castle =
                    variant.castling.first().map(|c| (c.king_to.0 as i32 - c.king_from.0 as i32).unsigned_abs());
                match castle {
                    Some(n) => format!("{}isO{}", piece.betza, n),
                    None => piece.betza.clone(),
                }
            }
            Role::Other => piece.betza.clone(),
        };
        lines.push(format!("piece {}& {}", piece.letter, betza));
    }
    lines
}
