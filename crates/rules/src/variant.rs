//! A variant is data: geometry, pieces in Betza notation, start position,
//! castling, promotion and draw rules. Nothing in move generation asks which
//! variant it plays; it reads these values (through `tables::Rules`).

use crate::betza::{self, BetzaError, Movement};
use crate::geometry::{Geometry, Step};

/// At most this many kinds of piece in one variant.
pub const MAX_PIECE_TYPES: usize = 16;

/// What a piece means beyond how it moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Must not be left in check; its loss ends the game.
    Royal,
    /// Promotes, captures en passant after a double step, resets the
    /// 50-move count.
    Pawn,
    Other,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PieceDef {
    pub name: String,
    /// Upper case for White in FEN; lower case in promotion suffixes.
    pub letter: char,
    pub betza: String,
    pub movement: Movement,
    /// Two-leg jumps (first step, second step), over anything, that may
    /// capture on the middle cell instead of the last, the final cell then
    /// empty (One-dimensional chess's knight). Empty for most pieces.
    pub paths: Vec<[Step; 2]>,
    pub role: Role,
}

impl PieceDef {
    pub fn new(name: &str, letter: char, betza: &str, role: Role) -> Result<PieceDef, BetzaError> {
        Ok(PieceDef {
            name: name.to_string(),
            letter: letter.to_ascii_uppercase(),
            betza: betza.to_string(),
            movement: betza::parse(betza)?,
            paths: Vec::new(),
            role,
        })
    }

    /// Whether it moves as `other` (however the moves are written) and
    /// has its role: an evaluation learnt for one may read the other.
    pub fn moves_as(&self, other: &PieceDef) -> bool {
        self.movement == other.movement && self.paths == other.paths && self.role == other.role
    }

    /// A piece that moves by two-leg jumps only (see `paths`); `betza` is
    /// how its moves are shown to humans and GUIs.
    pub fn two_leg(name: &str, letter: char, betza: &str, paths: Vec<[Step; 2]>, role: Role) -> PieceDef {
        PieceDef {
            name: name.to_string(),
            letter: letter.to_ascii_uppercase(),
            betza: betza.to_string(),
            movement: Movement { legs: Vec::new() },
            paths,
            role,
        }
    }

    /// A piece that only ever reaches cells of one colour.
    pub fn is_colourbound(&self) -> bool {
        self.movement.legs.iter().all(|l| (l.step.dx + l.step.dy) % 2 == 0)
            && self.paths.iter().all(|[a, b]| (a.dx + a.dy + b.dx + b.dy) % 2 == 0)
    }
}

/// One way to castle, as White plays it (files and ranks from White's
/// lower left); Black castles the mirror image on its own back rank.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CastlingDef {
    /// The FEN letter for White (`K`, `Q`); Black uses the lower case.
    pub fen_letter: char,
    pub king_from: (u8, u8),
    pub king_to: (u8, u8),
    pub rook_from: (u8, u8),
    pub rook_to: (u8, u8),
    /// Perfect Chess: the castle's own cell must not be attacked either.
    pub rook_must_be_safe: bool,
}

/// Where the king and the rooks that castle start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingStart {
    /// On the cells `castling` gives; a FEN right is an entry's letter.
    Fixed,
    /// Anywhere on the back rank (Chess960): a FEN right names its rook, a
    /// piece of kind `rook`; `castling` says where king and rook end on
    /// each side (see the `castling` module).
    BackRank { rook: usize },
}

/// Numbered start positions that a game may begin from instead of
/// `start_fen` (which is one of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StartPositions {
    /// The 960 of Chess960, by Scharnagl's numbers (518 is chess's).
    Chess960,
}

impl StartPositions {
    pub fn count(self) -> u32 {
        match self {
            StartPositions::Chess960 => 960,
        }
    }

    /// The FEN of position `n` (taken modulo the count).
    pub fn fen(self, n: u32) -> String {
        match self {
            StartPositions::Chess960 => chess960_fen(n),
        }
    }
}

/// Chess960 start position number `n` (0-959, Scharnagl's numbering: 518
/// is the standard one), as the placement of White's back rank.
pub fn chess960_back_rank(n: u32) -> [char; 8] {
    let mut rank = [' '; 8];
    let mut n = (n % 960) as usize;
    // Bishops on a light and a dark square, then the queen, then the
    // knights by a table of their ten placements on the five cells left,
    // then rook, king, rook on the last three.
    rank[2 * (n % 4) + 1] = 'B';
    n /= 4;
    rank[2 * (n % 4)] = 'B';
    n /= 4;
    let empty = |rank: &[char; 8]| (0..8).filter(|&i| rank[i] == ' ').collect::<Vec<_>>();
    rank[empty(&rank)[n % 6]] = 'Q';
    n /= 6;
    const KNIGHTS: [(usize, usize); 10] =
        [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
    let (a, b) = KNIGHTS[n];
    let cells = empty(&rank);
    rank[cells[a]] = 'N';
    rank[cells[b]] = 'N';
    for (cell, piece) in empty(&rank).into_iter().zip(['R', 'K', 'R']) {
        rank[cell] = piece;
    }
    rank
}

/// The FEN of Chess960 start position `n` (X-FEN rights, `KQkq`).
pub fn chess960_fen(n: u32) -> String {
    let white: String = chess960_back_rank(n).iter().collect();
    format!("{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1", white.to_ascii_lowercase())
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PromotionDef {
    /// The rank (absolute, from White's side) where White's and Black's pawns promote.
    pub ranks: [u8; 2],
    /// Piece types a pawn may become, by index into `Variant::pieces`.
    pub choices: Vec<usize>,
    /// Whether the pawn must promote (standard) or may stay a pawn (Perfect Chess).
    pub mandatory: bool,
}

/// What "the same position" means for repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Repetition {
    /// Placement, side to move, castling and en passant rights (FIDE).
    FullPosition,
    /// Placement of the pieces only (Perfect Chess rule 6.3).
    Placement,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DrawRules {
    /// Half-moves without capture or pawn move that make a draw (100 = the 50-move rule).
    pub quiet_plies: Option<u16>,
    pub repetition: Repetition,
    /// How many times a position must occur.
    pub repetition_count: u8,
    /// Piece types of which a lone one (with the king) can never mate.
    pub minor_pieces: Vec<usize>,
    /// Once one side has only its king, the other must mate within this
    /// many of its own moves (Beyond Chess's 30-move rule).
    pub bare_king_moves: Option<u16>,
}

/// Tiles that move (Beyond Chess): the board is a set of tiles in a larger
/// arena, and a turn is a piece move followed by a tile shift.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TileRules {
    /// A player may instead move one of his pawns together with its tile,
    /// forward or sideways, as the whole turn ("gereting").
    pub geret: bool,
    /// The shift that would move the same tile between the same two cells
    /// for this many times in a row ends the game as a draw.
    pub shuttle_limit: u8,
}

/// Files of a fitted evaluation that a variant file names for its
/// variant (`weightsFile`, `evalFile`: what `protean learn` writes), the
/// engine's `WeightsFile` and `EvalFile` for the variant unless the user
/// gives those. A relative path is from the variant file's directory.
/// Nothing in the rules reads them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct EvalFiles {
    pub weights: Option<std::path::PathBuf>,
    pub network: Option<std::path::PathBuf>,
}

impl EvalFiles {
    /// Relative paths made paths from `dir`.
    pub fn relative_to(&mut self, dir: &std::path::Path) {
        for path in [&mut self.weights, &mut self.network].into_iter().flatten() {
            if path.is_relative() {
                *path = dir.join(&*path);
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// The name protocols use (`standard`, `perfect`).
    pub name: String,
    pub geometry: Geometry,
    pub pieces: Vec<PieceDef>,
    pub start_fen: String,
    pub castling: Vec<CastlingDef>,
    pub castling_start: CastlingStart,
    /// Other setups a game may start from (Chess960's 960).
    pub start_positions: Option<StartPositions>,
    pub promotion: PromotionDef,
    pub draws: DrawRules,
    /// A king may swap places with an adjacent friendly piece of this kind
    /// as a move, at any time (One-dimensional chess's castling).
    pub king_swaps_with: Option<usize>,
    /// Moving tiles, for the variants whose board moves.
    pub tiles: Option<TileRules>,
    /// Flexichess: instead of moving, a player may redefine how one kind
    /// of piece (never the king) moves, for both colours, choosing from
    /// this catalogue. Empty where rules never change.
    pub redefinitions: Vec<Redefinition>,
    /// The fitted evaluation a variant file names for it.
    pub eval_files: EvalFiles,
}

/// A movement that a rule change may give a kind of piece.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Redefinition {
    /// Its usual name (`nightrider`).
    pub name: String,
    pub betza: String,
    /// For pawns (which keep promotion and en passant) or for the others.
    pub role: Role,
}

impl Variant {
    pub fn piece_by_letter(&self, letter: char) -> Option<usize> {
        let up = letter.to_ascii_uppercase();
        self.pieces.iter().position(|p| p.letter == up)
    }

    /// Whether castling rights name their rook and a castling is written
    /// as the king taking it (Chess960): see the `castling` module.
    pub fn castles_by_rook(&self) -> bool {
        matches!(self.castling_start, CastlingStart::BackRank { .. })
    }

    pub fn royal(&self) -> Option<usize> {
        self.pieces.iter().position(|p| p.role == Role::Royal)
    }

    /// Whether a position of this variant is, to an evaluation, a
    /// position of `other`: the same board, the same pieces (letters,
    /// movements and roles, whatever their names), the same promotion,
    /// and the same systems of rules (moving tiles, rule changes, the
    /// king's swap). The start, castling and draw rules may differ:
    /// Chess960 evaluates as standard chess, and so does a user's file
    /// that renames it.
    pub fn evaluates_as(&self, other: &Variant) -> bool {
        let same_pieces = self.pieces.len() == other.pieces.len()
            && self
                .pieces
                .iter()
                .zip(&other.pieces)
                .all(|(a, b)| a.letter == b.letter && a.betza == b.betza && a.paths == b.paths && a.role == b.role);
        self.same_board_and_systems(other)
            && same_pieces
            && self.promotion == other.promotion
            && self.king_swaps_with == other.king_swaps_with
    }

    /// The same board and the same systems of rules (moving tiles, rule
    /// changes), which any evaluation of one variant read for another
    /// needs.
    fn same_board_and_systems(&self, other: &Variant) -> bool {
        self.geometry == other.geometry && self.tiles == other.tiles && self.redefinitions == other.redefinitions
    }

    /// Where this variant is `other` but for at most one piece put in
    /// place of another (chess with a chancellor or an amazon for its
    /// queen): for each of its kinds, the kind of `other` it stands for.
    /// Kinds are matched by movement (however written) and role, whatever
    /// their letters and order; the one piece left over on each side may
    /// be neither a pawn nor royal. The board, the rule systems and the
    /// promotion (through the match) must be the same. An evaluation
    /// learnt for `other` may read this variant's positions through it.
    /// `None` where they differ more.
    pub fn kinds_standing_for(&self, other: &Variant) -> Option<StandIn> {
        if self.pieces.len() != other.pieces.len() || !self.same_board_and_systems(other) {
            return None;
        }
        let mut map: Vec<Option<usize>> = vec![None; self.pieces.len()];
        let mut taken = vec![false; other.pieces.len()];
        for (kind, piece) in self.pieces.iter().enumerate() {
            if let Some(j) = (0..other.pieces.len()).find(|&j| !taken[j] && piece.moves_as(&other.pieces[j])) {
                map[kind] = Some(j);
                taken[j] = true;
            }
        }
        let left: Vec<usize> = (0..map.len()).filter(|&k| map[k].is_none()).collect();
        let changed = match left.as_slice() {
            [] => None,
            &[kind] => {
                let stands_for = taken.iter().position(|&t| !t)?;
                if self.pieces[kind].role != Role::Other || other.pieces[stands_for].role != Role::Other {
                    return None;
                }
                map[kind] = Some(stands_for);
                Some(kind)
            }
            _ => return None,
        };
        let map: Vec<usize> = map.into_iter().flatten().collect();
        let promotes_to = |choices: &[usize], through: &dyn Fn(usize) -> usize| {
            let mut kinds: Vec<usize> = choices.iter().map(|&k| through(k)).collect();
            kinds.sort_unstable();
            kinds
        };
        let same_promotion = self.promotion.ranks == other.promotion.ranks
            && self.promotion.mandatory == other.promotion.mandatory
            && promotes_to(&self.promotion.choices, &|k| map[k]) == promotes_to(&other.promotion.choices, &|k| k);
        (same_promotion && self.king_swaps_with.map(|k| map[k]) == other.king_swaps_with)
            .then_some(StandIn { kinds: map, changed })
    }
}

/// How a variant's kinds stand for another variant's
/// ([`Variant::kinds_standing_for`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandIn {
    /// For each kind, the other variant's kind it stands for.
    pub kinds: Vec<usize>,
    /// The kind put in place of another, if one was.
    pub changed: Option<usize>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scharnagl_numbers() {
        let rank = |n| chess960_back_rank(n).iter().collect::<String>();
        assert_eq!(rank(518), "RNBQKBNR");
        assert_eq!(rank(0), "BBQNNRKR");
        assert_eq!(rank(959), "RKRNNQBB");
        let all: std::collections::HashSet<String> = (0..960).map(rank).collect();
        assert_eq!(all.len(), 960);
    }
}
