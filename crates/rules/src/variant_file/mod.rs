//! Variants from a file: Fairy-Stockfish's INI format, read into
//! [`Variant`]s.
//!
//! A section `[name:parent]` starts from its parent (`chess` or `fairy`,
//! both standard chess here, or a section earlier in the same file) and
//! changes what its keys say. The keys are Fairy-Stockfish's, so its files
//! load unchanged where Protean has the rules they ask for; a key or a
//! value Protean cannot honour is an error naming it and its line, never a
//! silent difference. Every mistake of a file is reported, each with its
//! line, and a file with any mistake loads nothing.
//!
//! Supported: `maxRank`, `maxFile`, `startFen`; pieces by Fairy-Stockfish's
//! names (`knight = n`, `bishop = -` to remove one, `archbishop = a`, ...)
//! and `customPieceN = letter:Betza` (Betza as `betza.rs` reads it); pawns
//! with `doubleStep`, `doubleStepRegionWhite/Black` (the ranks the pawns
//! start on), `promotionRegionWhite/Black` (one rank each),
//! `promotionRank`, `promotionPieceTypes`, `mandatoryPawnPromotion`. As
//! in Fairy-Stockfish, a variant that starts from chess keeps chess's
//! regions (double steps from ranks 2 and 7, promotion on 8 and 1) on a
//! board of another size unless its file gives them; where Protean's
//! pawns could not play those, the file is refused with the reason;
//! `castling`, `castlingKingsideFile`, `castlingQueensideFile`
//! (the king's destinations; the rook lands beside it, inside); `nMoveRule`,
//! `nFoldRule`; `king = k:Betza` (a king that moves otherwise); `chess960`
//! (castling rights name their rook; a variant set up as chess also
//! starts from the 960 positions); and, at the values Protean plays,
//! `checking = true`, `stalemateValue = draw`, `nFoldValue = draw`,
//! `pocketSize = 0`. Keys that only change how a GUI shows a variant
//! (`pieceToCharTable`, `variantTemplate`) are accepted and have no effect.
//!
//! Protean's own rules have keys of their own: `castlingRookSafe`,
//! `repetitionByPlacement`, `kingSwapsWith`, `bareKingMoves`,
//! `minorPieces` (letters of pieces that cannot mate alone), `pieceNames`
//! (`b:slide bishop, ...`), two-leg jumps that may take on the middle cell
//! (`twoLegPieceN = letter:Betza shown:paths`, a path `dx,dy dx,dy`, paths
//! split by `;`), moving tiles (`movingTiles`, `geret`, `shuttleLimit`,
//! `origin`: the cell, counted from the lower left, that the board names
//! a1; files and ranks in the file are named from it), and Flexichess's
//! catalogue, `ruleChanges` and `pawnRuleChanges` (`name:Betza, ...`).
//! The built-in variants are written in this format (`variants.ini`).
//!
//! `mod.rs` reads the sections and keeps each as a draft; `keys` reads
//! one key into a draft; `finish` checks a draft and makes its variant.

use crate::geometry::Step;
use crate::variant::{EvalFiles, Redefinition, Role, Variant};
use finish::finish;
use keys::apply;
use std::fmt;

mod finish;
mod keys;

/// A mistake in a variant file, with the line it is on (from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantFileError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for VariantFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Fairy-Stockfish's names of the pieces Protean can play, with their
/// Betza (the pawn's depends on `doubleStep` and is made apart).
const NAMED_PIECES: &[(&str, &str)] = &[
    ("knight", "N"),
    ("bishop", "B"),
    ("rook", "R"),
    ("queen", "Q"),
    ("king", "K"),
    ("fers", "F"),
    ("wazir", "W"),
    ("alfil", "A"),
    ("commoner", "K"),
    ("archbishop", "BN"),
    ("chancellor", "RN"),
    ("amazon", "QN"),
    ("centaur", "KN"),
    ("bers", "RF"),
    ("dragonHorse", "BW"),
    ("silver", "FfW"),
    ("gold", "WfF"),
    ("lance", "fR"),
    ("shogiKnight", "ffN"),
];

#[derive(Clone, Debug)]
struct DraftPiece {
    /// The key that made it (`knight`, `customPiece1`), which a later key
    /// of the same name replaces; also the piece's name.
    key: String,
    letter: char,
    /// `None` for the pawn, whose Betza depends on `doubleStep`.
    betza: Option<String>,
    /// Two-leg jumps (`twoLegPieceN`); then `betza` is only shown.
    paths: Vec<[Step; 2]>,
    role: Role,
    line: usize,
}

/// A section as read so far, in Fairy-Stockfish's terms.
#[derive(Clone, Debug)]
struct Draft {
    name: String,
    line: usize,
    files: u8,
    ranks: u8,
    pieces: Vec<DraftPiece>,
    start_fen: (String, usize),
    double_step: bool,
    /// Ranks (from 1) of the double step, with the lines that gave them.
    double_step_ranks: [Option<(u8, usize)>; 2],
    /// Ranks (from 1) of promotion, with the lines that gave them.
    promotion_ranks: [(u8, usize); 2],
    /// `promotionRank`: a zone from this rank up, which the regions
    /// override.
    promotion_zone: Option<(u8, usize)>,
    promotion_regions_given: bool,
    promotion_letters: (Vec<char>, usize),
    mandatory_promotion: bool,
    castling: bool,
    /// The king's destination files, kingside and queenside, with lines.
    castling_files: [(u8, usize); 2],
    /// Letters of the pieces that castle with the king
    /// (`castlingRookPieces`); the `rook` unless given.
    castling_rooks: Option<Vec<char>>,
    n_move_rule: u16,
    n_fold_rule: u8,
    /// Protean's own keys (see `apply`).
    castling_rook_safe: bool,
    repetition_by_placement: bool,
    king_swaps_with: Option<(char, usize)>,
    bare_king_moves: Option<u16>,
    rule_changes: Vec<Redefinition>,
    /// `weightsFile`, `evalFile`.
    eval_files: EvalFiles,
    /// `pieceNames`: (letter, name, line).
    piece_names: Vec<(char, String, usize)>,
    /// `minorPieces`: letters, with the line.
    minor_pieces: Option<(Vec<char>, usize)>,
    /// `chess960`, with its line.
    chess960: (bool, usize),
    /// `origin`: the cell named a1, with the line.
    origin: Option<((u8, u8), usize)>,
    /// `movingTiles`, `geret`, `shuttleLimit`, with the lines of the last two.
    moving_tiles: bool,
    geret: Option<(bool, usize)>,
    shuttle_limit: Option<(u8, usize)>,
}

impl Draft {
    /// Standard chess, as Fairy-Stockfish's `chess` starts.
    fn chess(name: &str, line: usize) -> Draft {
        let piece = |key: &str, letter: char, role| DraftPiece {
            key: key.into(),
            letter,
            betza: (role != Role::Pawn).then(|| named_betza(key).expect("a named piece").to_string()),
            paths: Vec::new(),
            role,
            line,
        };
        Draft {
            name: name.into(),
            line,
            files: 8,
            ranks: 8,
            pieces: vec![
                piece("pawn", 'P', Role::Pawn),
                piece("knight", 'N', Role::Other),
                piece("bishop", 'B', Role::Other),
                piece("rook", 'R', Role::Other),
                piece("queen", 'Q', Role::Other),
                piece("king", 'K', Role::Royal),
            ],
            start_fen: ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(), line),
            // Fairy-Stockfish's chess regions, which a larger board keeps
            // unless its file says otherwise.
            double_step: true,
            double_step_ranks: [Some((2, line)), Some((7, line))],
            promotion_ranks: [(8, line), (1, line)],
            promotion_zone: None,
            promotion_regions_given: false,
            promotion_letters: (vec!['Q', 'R', 'B', 'N'], line),
            mandatory_promotion: true,
            castling: true,
            castling_files: [(6, line), (2, line)],
            castling_rooks: None,
            n_move_rule: 50,
            n_fold_rule: 3,
            castling_rook_safe: false,
            repetition_by_placement: false,
            king_swaps_with: None,
            bare_king_moves: None,
            rule_changes: Vec::new(),
            eval_files: EvalFiles::default(),
            piece_names: Vec::new(),
            minor_pieces: None,
            chess960: (false, line),
            origin: None,
            moving_tiles: false,
            geret: None,
            shuttle_limit: None,
        }
    }

    /// Fairy-Stockfish's `fairy`: chess with a silver, a fers, an
    /// archbishop, a chancellor and a commoner available to the file.
    fn fairy(name: &str, line: usize) -> Draft {
        let mut d = Draft::chess(name, line);
        for (key, letter) in
            [("silver", 'S'), ("fers", 'F'), ("archbishop", 'A'), ("chancellor", 'C'), ("commoner", 'M')]
        {
            d.pieces.push(DraftPiece {
                key: key.into(),
                letter,
                betza: Some(named_betza(key).expect("a named piece").into()),
                paths: Vec::new(),
                role: Role::Other,
                line,
            });
        }
        d
    }
}

fn named_betza(key: &str) -> Option<&'static str> {
    NAMED_PIECES.iter().find(|(k, _)| *k == key).map(|(_, b)| *b)
}

/// Names a section may not take: the built-ins' (checked by the caller),
/// the parents', and the team game played over Flexichess boards.
const RESERVED_NAMES: &[&str] = &["fairy", "perplexichess"];

/// Reads every section of `text`. `known` answers whether a variant of
/// that name exists already (a section may not take a built-in's name).
pub fn parse(text: &str, known: impl Fn(&str) -> bool) -> Result<Vec<Variant>, Vec<VariantFileError>> {
    let mut errors = Vec::new();
    let mut drafts: Vec<Draft> = Vec::new();
    let mut current: Option<Draft> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        // As in Fairy-Stockfish, a comment is a whole line.
        let content = raw.trim();
        if content.is_empty() || content.starts_with(['#', ';']) {
            continue;
        }
        let mut fail = |message: String| errors.push(VariantFileError { line, message });
        if let Some(header) = content.strip_prefix('[') {
            let Some(header) = header.strip_suffix(']') else {
                fail(format!("'{content}' is not a section header: [name] or [name:parent]"));
                continue;
            };
            drafts.extend(current.take());
            let (name, parent) = match header.split_once(':') {
                Some((n, p)) => (n.trim(), Some(p.trim())),
                None => (header.trim(), None),
            };
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
                fail(format!("'{name}' is not a variant name (letters, digits, '-', '_')"));
            } else if known(name) || RESERVED_NAMES.iter().any(|r| r.eq_ignore_ascii_case(name)) {
                fail(format!("'{name}' is the name of a built-in variant"));
            } else if drafts.iter().any(|d| d.name.eq_ignore_ascii_case(name)) {
                fail(format!("variant '{name}' is defined twice in this file"));
            }
            current = Some(match parent {
                Some("chess") => Draft::chess(name, line),
                Some("fairy") => Draft::fairy(name, line),
                None => {
                    // Fairy-Stockfish starts such a section from nothing,
                    // which Protean would only guess at.
                    fail(format!(
                        "[{name}] needs a parent: [{name}:chess], [{name}:fairy] or a variant earlier in this file"
                    ));
                    Draft::chess(name, line)
                }
                Some(parent) => match drafts.iter().find(|d| d.name.eq_ignore_ascii_case(parent)) {
                    Some(d) => Draft { name: name.into(), line, ..d.clone() },
                    None => {
                        fail(format!("parent '{parent}' is neither chess, fairy nor a variant earlier in this file"));
                        Draft::chess(name, line)
                    }
                },
            });
            continue;
        }
        let Some((key, value)) = content.split_once('=') else {
            fail(format!("'{content}' is neither a section header nor key = value"));
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        let Some(draft) = current.as_mut() else {
            fail(format!("key '{key}' comes before any [section]"));
            continue;
        };
        if let Err(message) = apply(draft, key, value, line) {
            fail(format!("{key}: {message}"));
        }
    }
    drafts.extend(current);
    let mut variants = Vec::new();
    for draft in &drafts {
        match finish(draft) {
            Ok(v) => variants.push(v),
            Err(mut e) => errors.append(&mut e),
        }
    }
    if errors.is_empty() {
        Ok(variants)
    } else {
        errors.sort_by_key(|e| e.line);
        Err(errors)
    }
}
