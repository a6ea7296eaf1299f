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
//! `nFoldRule`; and, at the values Protean plays, `checking = true`,
//! `stalemateValue = draw`, `nFoldValue = draw`, `chess960 = false`,
//! `pocketSize = 0`. Keys that only change how a GUI shows a variant
//! (`pieceToCharTable`, `variantTemplate`) are accepted and have no effect.

use crate::any::AnyRules;
use crate::geometry::Geometry;
use crate::variant::{CastlingDef, CastlingStart, DrawRules, PieceDef, PromotionDef, Repetition, Role, Variant};
use std::fmt;

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

/// Keys accepted only at one value: the rule Protean plays.
const FIXED_KEYS: &[(&str, &str)] = &[
    ("checking", "true"),
    ("stalemateValue", "draw"),
    ("nFoldValue", "draw"),
    ("chess960", "false"),
    ("pocketSize", "0"),
    ("pieceDrops", "false"),
    ("twoBoards", "false"),
    ("mustCapture", "false"),
];

/// Keys about how a GUI shows a variant; nothing Protean plays.
const DISPLAY_KEYS: &[&str] = &["pieceToCharTable", "variantTemplate"];

#[derive(Clone, Debug)]
struct DraftPiece {
    /// The key that made it (`knight`, `customPiece1`), which a later key
    /// of the same name replaces.
    key: String,
    name: String,
    letter: char,
    /// `None` for the pawn, whose Betza depends on `doubleStep`.
    betza: Option<String>,
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
    /// Ranks (from 1) of promotion; Black's `None`: White's mirrored.
    promotion_ranks: [Option<u8>; 2],
    promotion_letters: Vec<char>,
    mandatory_promotion: bool,
    castling: bool,
    castling_files: [u8; 2],
    n_move_rule: u16,
    n_fold_rule: u8,
}

impl Draft {
    /// Standard chess, as Fairy-Stockfish's `chess` and `fairy` start.
    fn chess(name: &str, line: usize) -> Draft {
        let piece = |key: &str, letter: char, role| DraftPiece {
            key: key.into(),
            name: key.into(),
            letter,
            betza: (role != Role::Pawn).then(|| NAMED_PIECES.iter().find(|(k, _)| *k == key).expect("a named piece").1.to_string()),
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
            promotion_ranks: [Some(8), Some(1)],
            promotion_letters: vec!['Q', 'R', 'B', 'N'],
            mandatory_promotion: true,
            castling: true,
            castling_files: [6, 2],
            n_move_rule: 50,
            n_fold_rule: 3,
        }
    }
}

/// Reads every section of `text`. `known` answers whether a variant of
/// that name exists already (a section may not take a built-in's name).
pub fn parse(text: &str, known: impl Fn(&str) -> bool) -> Result<Vec<Variant>, Vec<VariantFileError>> {
    let mut errors = Vec::new();
    let mut drafts: Vec<Draft> = Vec::new();
    let mut current: Option<Draft> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split(['#', ';']).next().unwrap_or("").trim();
        if content.is_empty() {
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
            } else if known(name) {
                fail(format!("'{name}' is the name of a built-in variant"));
            } else if drafts.iter().any(|d| d.name.eq_ignore_ascii_case(name)) {
                fail(format!("variant '{name}' is defined twice in this file"));
            }
            current = Some(match parent {
                None | Some("chess") | Some("fairy") => Draft::chess(name, line),
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

fn boolean(value: &str) -> Result<bool, String> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("'{value}' is neither true nor false")),
    }
}

fn number<T: std::str::FromStr>(value: &str) -> Result<T, String> {
    value.parse().map_err(|_| format!("'{value}' is not a number in range"))
}

/// A file as a letter (`i`) or a count (`9`), as an index from 0.
fn file_index(value: &str) -> Result<u8, String> {
    let mut chars = value.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_lowercase() => Ok(c as u8 - b'a'),
        _ => number::<u8>(value).ok().filter(|n| *n >= 1).map(|n| n - 1).ok_or_else(|| format!("'{value}' is not a file")),
    }
}

/// A region of one whole rank, `*9`: the rank (from 1).
fn whole_rank(value: &str) -> Result<u8, String> {
    value
        .strip_prefix('*')
        .and_then(|r| r.parse::<u8>().ok())
        .filter(|r| *r >= 1)
        .ok_or_else(|| format!("'{value}': Protean reads regions of one whole rank only, written *N"))
}

fn apply(d: &mut Draft, key: &str, value: &str, line: usize) -> Result<(), String> {
    if let Some((_, wanted)) = FIXED_KEYS.iter().find(|(k, _)| *k == key) {
        return if value == *wanted { Ok(()) } else { Err(format!("Protean plays only {key} = {wanted}, not '{value}'")) };
    }
    if DISPLAY_KEYS.contains(&key) {
        return Ok(());
    }
    match key {
        "maxRank" => d.ranks = number::<u8>(value).ok().filter(|r| (1..=26).contains(r)).ok_or_else(|| format!("'{value}' is not a rank count from 1 to 26"))?,
        "maxFile" => d.files = file_index(value)? + 1,
        "startFen" => d.start_fen = (value.to_string(), line),
        "doubleStep" => d.double_step = boolean(value)?,
        "doubleStepRegionWhite" => d.double_step_ranks[0] = Some((whole_rank(value)?, line)),
        "doubleStepRegionBlack" => d.double_step_ranks[1] = Some((whole_rank(value)?, line)),
        "promotionRegionWhite" => d.promotion_ranks[0] = Some(whole_rank(value)?),
        "promotionRegionBlack" => d.promotion_ranks[1] = Some(whole_rank(value)?),
        "promotionRank" => {
            let rank = number::<u8>(value)?;
            d.promotion_ranks = [Some(rank), None];
        }
        "promotionPieceTypes" => {
            if !value.chars().all(|c| c.is_ascii_alphabetic()) {
                return Err(format!("'{value}' is not a list of piece letters"));
            }
            d.promotion_letters = value.chars().map(|c| c.to_ascii_uppercase()).collect();
        }
        "mandatoryPawnPromotion" => d.mandatory_promotion = boolean(value)?,
        "castling" => d.castling = boolean(value)?,
        "castlingKingsideFile" => d.castling_files[0] = file_index(value)?,
        "castlingQueensideFile" => d.castling_files[1] = file_index(value)?,
        "nMoveRule" => d.n_move_rule = number(value)?,
        "nFoldRule" => d.n_fold_rule = number::<u8>(value).ok().filter(|n| *n >= 2).ok_or_else(|| format!("'{value}' is not a repetition count of 2 or more"))?,
        _ if key.starts_with("customPiece") && key["customPiece".len()..].parse::<u8>().is_ok() => {
            let Some((letter, betza)) = value.split_once(':') else { return Err(format!("'{value}' is not letter:Betza")) };
            set_piece(d, key, key, letter, Some(betza.trim().to_string()), line)?;
        }
        "pawn" => set_piece(d, key, key, value, None, line)?,
        _ => match NAMED_PIECES.iter().find(|(k, _)| *k == key) {
            Some((_, betza)) => set_piece(d, key, key, value, Some(betza.to_string()), line)?,
            None => return Err("Protean does not know this key, or cannot play the rule it sets".into()),
        },
    }
    Ok(())
}

/// Adds, replaces (same key) or, with the letter `-`, removes a piece.
fn set_piece(d: &mut Draft, key: &str, name: &str, letter: &str, betza: Option<String>, line: usize) -> Result<(), String> {
    let letter = letter.trim();
    d.pieces.retain(|p| p.key != key);
    if letter == "-" {
        return Ok(());
    }
    let mut chars = letter.chars();
    let letter = match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
        _ => return Err(format!("'{letter}' is not one piece letter (or - to remove the piece)")),
    };
    if let Some(other) = d.pieces.iter().find(|p| p.letter == letter) {
        return Err(format!("letter {letter} is already the {}'s (line {})", other.name, other.line));
    }
    let role = match key {
        "pawn" => Role::Pawn,
        "king" => Role::Royal,
        _ => Role::Other,
    };
    d.pieces.push(DraftPiece { key: key.into(), name: name.into(), letter, betza, role, line });
    Ok(())
}

/// The variant a section describes, checked by compiling its tables.
fn finish(d: &Draft) -> Result<Variant, Vec<VariantFileError>> {
    let mut errors = Vec::new();
    let err = |line: usize, message: String| VariantFileError { line, message: format!("[{}] {message}", d.name) };
    let Some(geometry) = Geometry::new(d.files, d.ranks) else {
        errors.push(err(d.line, format!("a {}x{} board is larger than Protean's 256 cells", d.files, d.ranks)));
        return Err(errors);
    };
    let (fen, fen_line) = (&d.start_fen.0, d.start_fen.1);
    // Pawns double-step from the ranks they start on in Protean: a region
    // elsewhere is a rule it does not have.
    let pawn_ranks = |white: bool| -> Vec<u8> {
        let rows: Vec<&str> = fen.split(' ').next().unwrap_or("").split('/').collect();
        let mut ranks: Vec<u8> = rows
            .iter()
            .enumerate()
            .filter(|(_, row)| row.contains(if white { 'P' } else { 'p' }))
            .map(|(i, _)| (rows.len() - i) as u8)
            .collect();
        ranks.sort();
        ranks
    };
    if d.double_step {
        for side in 0..2 {
            let Some((rank, line)) = d.double_step_ranks[side] else { continue };
            let starts = pawn_ranks(side == 0);
            if !starts.is_empty() && starts != [rank] {
                errors.push(err(line, format!("pawns double-step from rank {rank} but start on {starts:?}: Protean's pawns double-step from the rank they start on")));
            }
        }
    }
    if let Err(message) = fen_fits(fen, d.files, d.ranks) {
        errors.push(err(fen_line, format!("startFen: {message}")));
    }
    let mut pieces = Vec::new();
    for p in &d.pieces {
        let betza = match &p.betza {
            Some(b) => b.clone(),
            None if d.double_step => "fmWfcFifmR2".into(),
            None => "fmWfcF".into(),
        };
        match PieceDef::new(&p.name, p.letter, &betza, p.role) {
            Ok(def) => pieces.push(def),
            Err(e) => errors.push(err(p.line, format!("{}: bad Betza '{betza}': {e}", p.key))),
        }
    }
    if !pieces.iter().any(|p| p.role == Role::Royal) {
        errors.push(err(d.line, "no king: Protean's games need a royal piece (king = k)".into()));
    }
    let choices: Vec<usize> = d
        .promotion_letters
        .iter()
        .filter_map(|l| match pieces.iter().position(|p| p.letter == *l) {
            Some(i) => Some(i),
            None => {
                errors.push(err(d.line, format!("promotionPieceTypes names {l}, which is no piece here")));
                None
            }
        })
        .collect();
    let white_rank = d.promotion_ranks[0].unwrap_or(d.ranks);
    let black_rank = d.promotion_ranks[1].unwrap_or(d.ranks + 1 - white_rank.min(d.ranks));
    if white_rank > d.ranks || black_rank > d.ranks || black_rank == 0 {
        errors.push(err(d.line, format!("promotion ranks {white_rank} and {black_rank} are not on a board of {} ranks", d.ranks)));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut variant = Variant {
        name: d.name.clone(),
        geometry,
        pieces,
        start_fen: fen.clone(),
        castling: Vec::new(),
        castling_start: CastlingStart::Fixed,
        start_positions: None,
        promotion: PromotionDef { ranks: [white_rank - 1, black_rank - 1], choices, mandatory: d.mandatory_promotion },
        draws: DrawRules {
            quiet_plies: (d.n_move_rule > 0).then(|| d.n_move_rule.saturating_mul(2)),
            repetition: Repetition::FullPosition,
            repetition_count: d.n_fold_rule,
            minor_pieces: Vec::new(),
            bare_king_moves: None,
        },
        king_swaps_with: None,
        tiles: None,
        redefinitions: Vec::new(),
    };
    // A lone knight or bishop cannot mate, as in chess.
    variant.draws.minor_pieces = variant.pieces.iter().enumerate().filter(|(_, p)| p.betza == "N" || p.betza == "B").map(|(i, _)| i).collect();
    if d.castling {
        variant.castling = castling(&variant, d.castling_files);
    }
    // Compiling the tables reads the start position once more, under
    // every rule; then each side must have its king there.
    match AnyRules::new(variant.clone()).map_err(|e| e.0).and_then(|rules| rules.from_fen(fen).map_err(|e| e.to_string())) {
        Ok(start) => {
            let kings = crate::with_position!(&start, p => [crate::Color::White, crate::Color::Black].map(|c| p.king(c).is_some()));
            if kings != [true, true] {
                errors.push(err(fen_line, "startFen: each side needs its king".into()));
            }
        }
        Err(e) => errors.push(err(fen_line, format!("startFen: {e}"))),
    }
    if errors.is_empty() {
        Ok(variant)
    } else {
        Err(errors)
    }
}

/// The cells of one FEN row, left to right: a piece letter or empty
/// (counts of empty cells may have two digits on wide boards).
fn row_cells(row: &str) -> Vec<Option<char>> {
    let mut cells = Vec::new();
    let mut empty = 0;
    for c in row.chars() {
        match c.to_digit(10) {
            Some(n) => empty = empty * 10 + n as usize,
            None => {
                cells.extend(std::iter::repeat_n(None, empty));
                empty = 0;
                cells.push(Some(c));
            }
        }
    }
    cells.extend(std::iter::repeat_n(None, empty));
    cells
}

/// Whether a FEN's placement has the board's ranks and files, before its
/// pieces are known (so that a bad piece and a bad FEN are both named).
fn fen_fits(fen: &str, files: u8, ranks: u8) -> Result<(), String> {
    let rows: Vec<&str> = fen.split(' ').next().unwrap_or("").split('/').collect();
    if rows.len() != ranks as usize {
        return Err(format!("{} ranks, but the board has {ranks}", rows.len()));
    }
    for (i, row) in rows.iter().enumerate() {
        let cells = row_cells(row).len();
        if cells != files as usize {
            return Err(format!("rank {} has {cells} cells, but the board has {files} files", ranks as usize - i));
        }
    }
    Ok(())
}

/// Fairy-Stockfish's castling: the king on the first rank goes to the
/// kingside or queenside file, the outermost rook on that side lands
/// beside it, inside.
fn castling(variant: &Variant, [kingside, queenside]: [u8; 2]) -> Vec<CastlingDef> {
    let files = row_cells(variant.start_fen.split(' ').next().unwrap_or("").split('/').next_back().unwrap_or(""));
    let king = files.iter().position(|c| *c == Some('K'));
    let rooks: Vec<usize> = files.iter().enumerate().filter(|(_, c)| **c == Some('R')).map(|(i, _)| i).collect();
    let Some(king) = king else { return Vec::new() };
    let mut defs = Vec::new();
    if let Some(&rook) = rooks.iter().filter(|&&r| r > king).max() {
        defs.push(CastlingDef { fen_letter: 'K', king_from: (king as u8, 0), king_to: (kingside, 0), rook_from: (rook as u8, 0), rook_to: (kingside - 1, 0), rook_must_be_safe: false });
    }
    if let Some(&rook) = rooks.iter().filter(|&&r| r < king).min() {
        defs.push(CastlingDef { fen_letter: 'Q', king_from: (king as u8, 0), king_to: (queenside, 0), rook_from: (rook as u8, 0), rook_to: (queenside + 1, 0), rook_must_be_safe: false });
    }
    defs
}
