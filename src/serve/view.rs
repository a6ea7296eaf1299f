//! What the browser is told about a position: the board's cells with their
//! pieces and tiles, and the legal moves taken apart into the parts a
//! player picks one after another (piece and destination, then promotion,
//! then the cell a two-leg jump captures on, then the tile shift). The
//! browser decides nothing: it offers exactly these moves and sends back
//! the text of the one chosen.

use protean_rules::moves::MoveKind;
use protean_rules::{with_position, AnyPosition, Bitboard, Color};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Serialize)]
pub struct BoardView {
    pub width: usize,
    pub height: usize,
    /// Row by row from the top (the highest rank), left to right.
    pub cells: Vec<CellView>,
}

#[derive(Serialize)]
pub struct CellView {
    pub name: String,
    pub file: usize,
    pub rank: usize,
    /// FEN letter: upper case White, lower case Black.
    pub piece: Option<char>,
    /// Whether the cell is a rift (Beyond Chess: no tile there).
    pub rift: bool,
    pub dark: bool,
}

/// One legal move, in its parts.
#[derive(Serialize)]
pub struct MoveView {
    /// What the browser sends to play it.
    pub text: String,
    pub from: String,
    pub to: String,
    /// Letter of the piece a pawn becomes; `None` where it stays a pawn
    /// (Perfect Chess's optional promotion offers both).
    pub promotion: Option<char>,
    /// The middle cell a two-leg jump captures on (One-dimensional
    /// chess's knight); `None` for the plain jump.
    pub captures_on: Option<String>,
    /// The tile shift of the same turn (Beyond Chess): from, to.
    pub shift: Option<[String; 2]>,
    /// A pawn moving with its tile into a rift.
    pub geret: bool,
}

/// A Flexichess rule change the side to move may make.
#[derive(Serialize)]
pub struct RuleChangeView {
    pub text: String,
    pub piece: char,
    pub betza: String,
    /// The catalogue's name for the movement (`nightrider`).
    pub name: String,
}

/// How a kind of piece moves in this position.
#[derive(Serialize)]
pub struct PieceRuleView {
    pub piece: char,
    pub name: String,
    pub betza: String,
    /// Differs from the variant's own rules (a Flexichess change).
    pub changed: bool,
}

pub fn board(position: &AnyPosition) -> BoardView {
    with_position!(position, p => {
        let rules = p.rules();
        let g = rules.geometry;
        let rifts = p.rifts();
        let mut cells = Vec::with_capacity(g.cells());
        for rank in (0..g.height()).rev() {
            for file in 0..g.width() {
                let cell = g.cell(file, rank);
                let piece = p.piece_at(cell).map(|piece| {
                    let letter = rules.variant.pieces[piece.kind()].letter;
                    if piece.color() == Color::White { letter.to_ascii_uppercase() } else { letter.to_ascii_lowercase() }
                });
                cells.push(CellView { name: g.name(cell).to_string(), file, rank, piece, rift: rifts.has(cell), dark: g.is_dark(cell) });
            }
        }
        BoardView { width: g.width(), height: g.height(), cells }
    })
}

/// The legal piece moves (and turns) and rule changes of the side to move.
pub fn legal_moves(position: &mut AnyPosition) -> (Vec<MoveView>, Vec<RuleChangeView>) {
    with_position!(position, p => {
        let rules = p.rules().clone();
        let g = rules.geometry;
        let (mut moves, mut changes) = (Vec::new(), Vec::new());
        for m in p.legal_move_list() {
            let text = p.move_text(m);
            if m.kind == MoveKind::Redefine {
                let r = &rules.variant.redefinitions[m.to()];
                changes.push(RuleChangeView { text, piece: rules.variant.pieces[m.from()].letter, betza: r.betza.clone(), name: r.name.clone() });
                continue;
            }
            moves.push(MoveView {
                text,
                from: g.name(m.from()).to_string(),
                to: g.name(m.to()).to_string(),
                promotion: m.promotion().map(|k| rules.variant.pieces[k].letter.to_ascii_uppercase()),
                captures_on: (m.kind == MoveKind::LegCapture).then(|| g.name(m.aux as usize).to_string()),
                shift: m.shift.cells().map(|(a, b)| [g.name(a).to_string(), g.name(b).to_string()]),
                geret: m.kind == MoveKind::Geret,
            });
        }
        (moves, changes)
    })
}

/// The moves grouped by the cell they start from.
pub fn by_origin(moves: Vec<MoveView>) -> BTreeMap<String, Vec<MoveView>> {
    let mut groups: BTreeMap<String, Vec<MoveView>> = BTreeMap::new();
    for m in moves {
        groups.entry(m.from.clone()).or_default().push(m);
    }
    groups
}

/// Every kind of piece with the movement it has here.
pub fn piece_rules(position: &AnyPosition) -> Vec<PieceRuleView> {
    with_position!(position, p => {
        let rules = p.rules();
        rules
            .variant
            .pieces
            .iter()
            .zip(&rules.original_betza)
            .map(|(piece, original)| PieceRuleView { piece: piece.letter, name: piece.name.clone(), betza: piece.betza.clone(), changed: piece.betza != *original })
            .collect()
    })
}

/// Why the side to move may make no rule change in a variant whose rules
/// change, for the page to say beside its closed rule panel: in check,
/// only a piece move answers (RULINGS.md, Flexichess 5).
pub fn rule_changes_closed(position: &AnyPosition) -> Option<&'static str> {
    with_position!(position, p => {
        (!p.rules().variant.redefinitions.is_empty() && p.in_check())
            .then_some("In check: only a piece move answers a check, never a rule change.")
    })
}

/// The cell of the side to move's king when it is in check.
pub fn checked_king(position: &AnyPosition) -> Option<String> {
    with_position!(position, p => {
        if !p.in_check() {
            return None;
        }
        p.king(p.side_to_move()).map(|k| p.rules().geometry.name(k).to_string())
    })
}

/// The cells of the last move, and of its tile shift.
pub fn last_move_cells(position: &AnyPosition) -> Vec<String> {
    with_position!(position, p => {
        let g = p.rules().geometry;
        match p.last_move() {
            Some(m) if m.kind != MoveKind::Redefine && m.kind != MoveKind::Null => {
                let mut cells = vec![g.name(m.from()).to_string(), g.name(m.to()).to_string()];
                if let Some((a, b)) = m.shift.cells() {
                    cells.push(g.name(a).to_string());
                    cells.push(g.name(b).to_string());
                }
                cells
            }
            _ => Vec::new(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use protean_rules::AnyRules;

    fn start(variant: &str) -> AnyPosition {
        AnyRules::by_name(variant).expect("variant").start()
    }

    #[test]
    fn every_legal_move_is_offered_once_in_parts_that_name_it() {
        for variant in ["standard", "perfect", "onedim", "beyond", "flexichess"] {
            let mut p = start(variant);
            let mut legal = p.legal_moves();
            let (moves, changes) = legal_moves(&mut p);
            let mut offered: Vec<String> =
                moves.iter().map(|m| m.text.clone()).chain(changes.iter().map(|c| c.text.clone())).collect();
            legal.sort();
            offered.sort();
            assert_eq!(offered, legal, "{variant}");
            for m in &moves {
                assert!(m.text.starts_with(&m.from), "{variant}: {} from {}", m.text, m.from);
            }
        }
    }

    #[test]
    fn the_board_lists_every_cell_with_its_piece_and_rifts() {
        let b = board(&start("standard"));
        assert_eq!((b.width, b.height, b.cells.len()), (8, 8, 64));
        assert_eq!((b.cells[0].name.as_str(), b.cells[0].piece), ("a8", Some('r')));
        assert_eq!((b.cells[60].name.as_str(), b.cells[60].piece), ("e1", Some('K')));
        let arena = board(&start("beyond"));
        assert_eq!(arena.cells.len(), 256);
        assert_eq!(arena.cells.iter().filter(|c| !c.rift).count(), 64, "the frame's 64 tiles");
    }

    #[test]
    fn a_middle_cell_capture_and_an_optional_promotion_are_told_apart() {
        // One-dimensional: the knight on c1 may jump to h1 over the rook on
        // e1, or take the rook on its middle cell and land on h1.
        let mut p = AnyRules::by_name("onedim").unwrap().from_fen("K1N1r10k w - - 0 1").expect("fen");
        let (moves, _) = legal_moves(&mut p);
        let to_h1: Vec<Option<&str>> =
            moves.iter().filter(|m| m.from == "c1" && m.to == "h1").map(|m| m.captures_on.as_deref()).collect();
        assert_eq!(to_h1.len(), 2);
        assert!(to_h1.contains(&None) && to_h1.contains(&Some("e1")), "{to_h1:?}");
        let mut perfect =
            AnyRules::by_name("perfect").unwrap().from_fen("4k4/2P6/9/9/9/9/9/9/4K4 w - - 0 1").expect("fen");
        let (moves, _) = legal_moves(&mut perfect);
        let to_last: Vec<Option<char>> =
            moves.iter().filter(|m| m.from == "c8" && m.to == "c9").map(|m| m.promotion).collect();
        assert!(to_last.contains(&None), "Perfect Chess's pawn may stay a pawn: {to_last:?}");
        assert!(to_last.iter().filter(|p| p.is_some()).count() >= 4, "{to_last:?}");
    }
}
