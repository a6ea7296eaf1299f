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

use crate::any::AnyRules;
use crate::geometry::{Geometry, Step};
use crate::variant::{
    CastlingDef, CastlingStart, DrawRules, PieceDef, PromotionDef, Redefinition, Repetition, Role, StartPositions,
    TileRules, Variant,
};
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

/// A number that `fits`; else the error says it is not `what`.
fn number_where<T: std::str::FromStr>(value: &str, fits: impl Fn(&T) -> bool, what: &str) -> Result<T, String> {
    value.parse().ok().filter(fits).ok_or_else(|| format!("'{value}' is not {what}"))
}

/// A file as a letter (`i`) or a count (`9`), as an index from 0.
fn file_index(value: &str) -> Result<u8, String> {
    let mut chars = value.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_lowercase() => Ok(c as u8 - b'a'),
        _ => number_where::<u8>(value, |n| (1..=26).contains(n), "a file (a to z, or 1 to 26)").map(|n| n - 1),
    }
}

/// A region of one whole rank, `*9`: the rank (from 1).
fn whole_rank(value: &str) -> Result<u8, String> {
    value
        .strip_prefix('*')
        .and_then(|r| r.parse::<u8>().ok())
        .filter(|r| (1..=26).contains(r))
        .ok_or_else(|| format!("'{value}': Protean reads regions of one whole rank only, written *N"))
}

fn apply(d: &mut Draft, key: &str, value: &str, line: usize) -> Result<(), String> {
    if let Some((_, wanted)) = FIXED_KEYS.iter().find(|(k, _)| *k == key) {
        return if value == *wanted {
            Ok(())
        } else {
            Err(format!("Protean plays only {key} = {wanted}, not '{value}'"))
        };
    }
    if DISPLAY_KEYS.contains(&key) {
        return Ok(());
    }
    match key {
        "maxRank" => d.ranks = number_where(value, |r: &u8| (1..=26).contains(r), "a rank count from 1 to 26")?,
        "maxFile" => d.files = file_index(value)? + 1,
        "startFen" => d.start_fen = (value.to_string(), line),
        "doubleStep" => d.double_step = boolean(value)?,
        "doubleStepRegionWhite" => d.double_step_ranks[0] = Some((whole_rank(value)?, line)),
        "doubleStepRegionBlack" => d.double_step_ranks[1] = Some((whole_rank(value)?, line)),
        "promotionRegionWhite" | "promotionRegionBlack" => {
            d.promotion_ranks[usize::from(key.ends_with("Black"))] = (whole_rank(value)?, line);
            d.promotion_regions_given = true;
        }
        "promotionRank" => d.promotion_zone = Some((number_where(value, |r: &u8| *r >= 1, "a rank")?, line)),
        "promotionPieceTypes" => d.promotion_letters = (letters_or_none(value)?, line),
        "castlingRookPieces" | "castlingRookPiece" => d.castling_rooks = Some(letters(value)?),
        "mandatoryPawnPromotion" => d.mandatory_promotion = boolean(value)?,
        "castling" => d.castling = boolean(value)?,
        "castlingKingsideFile" => d.castling_files[0] = (file_index(value)?, line),
        "castlingQueensideFile" => d.castling_files[1] = (file_index(value)?, line),
        "nMoveRule" => d.n_move_rule = number(value)?,
        // Protean's own rules, which Fairy-Stockfish does not have.
        "castlingRookSafe" => d.castling_rook_safe = boolean(value)?,
        "repetitionByPlacement" => d.repetition_by_placement = boolean(value)?,
        "kingSwapsWith" => {
            d.king_swaps_with = Some((
                letters(value)
                    .ok()
                    .filter(|l| l.len() == 1)
                    .ok_or_else(|| format!("'{value}' is not one piece letter"))?[0],
                line,
            ))
        }
        "bareKingMoves" => d.bare_king_moves = Some(number_where(value, |n: &u16| *n > 0, "a move count")?),
        "ruleChanges" | "pawnRuleChanges" => {
            let role = if key == "ruleChanges" { Role::Other } else { Role::Pawn };
            d.rule_changes.retain(|r| r.role != role);
            for entry in value.split(',').map(str::trim) {
                let Some((name, betza)) = entry.rsplit_once(':') else {
                    return Err(format!("'{entry}' is not name:Betza"));
                };
                crate::betza::parse(betza.trim()).map_err(|e| format!("'{entry}': {e}"))?;
                d.rule_changes.push(Redefinition { name: name.trim().into(), betza: betza.trim().into(), role });
            }
        }
        "nFoldRule" => d.n_fold_rule = number_where(value, |n: &u8| *n >= 2, "a repetition count of 2 or more")?,
        "chess960" => d.chess960 = (boolean(value)?, line),
        "pieceNames" => {
            for entry in value.split(',').map(str::trim) {
                let named = entry.split_once(':').map(|(l, n)| (letters(l.trim()), n.trim()));
                let Some((Ok(letter), name)) =
                    named.filter(|(l, n)| l.as_ref().is_ok_and(|l| l.len() == 1) && !n.is_empty())
                else {
                    return Err(format!("'{entry}' is not letter:name"));
                };
                d.piece_names.retain(|(l, _, _)| *l != letter[0]);
                d.piece_names.push((letter[0], name.into(), line));
            }
        }
        "minorPieces" => d.minor_pieces = Some((letters_or_none(value)?, line)),
        "origin" => {
            let mut chars = value.chars();
            let file = chars.next().filter(char::is_ascii_lowercase).map(|c| c as u8 - b'a');
            let rank = chars.as_str().parse::<u8>().ok().filter(|r| *r >= 1);
            let (Some(file), Some(rank)) = (file, rank) else {
                return Err(format!("'{value}' is not a cell such as e5"));
            };
            d.origin = Some(((file, rank - 1), line));
        }
        "movingTiles" => d.moving_tiles = boolean(value)?,
        "geret" => d.geret = Some((boolean(value)?, line)),
        "shuttleLimit" => {
            d.shuttle_limit = Some((number_where(value, |n: &u8| *n >= 1, "a count from 1 to 255")?, line))
        }
        _ if key
            .strip_prefix("twoLegPiece")
            .and_then(|n| n.parse::<u8>().ok())
            .is_some_and(|n| (1..=25).contains(&n)) =>
        {
            let mut parts = value.splitn(3, ':');
            let (Some(letter), Some(shown), Some(paths)) = (parts.next(), parts.next(), parts.next()) else {
                return Err(format!("'{value}' is not letter:Betza:paths"));
            };
            // Shown to GUIs only (XBoard reads Betza): not parsed here.
            if shown.trim().is_empty() || !shown.trim().chars().all(|c| c.is_ascii_alphanumeric()) {
                return Err(format!("'{shown}' is not Betza to show"));
            }
            let paths = paths.split(';').map(two_leg_path).collect::<Result<Vec<_>, _>>()?;
            set_piece(d, key, letter, Some(shown.trim().to_string()), paths, line)?;
        }
        // As in Fairy-Stockfish, the king may be given a movement of its own.
        _ if key
            .strip_prefix("customPiece")
            .and_then(|n| n.parse::<u8>().ok())
            .is_some_and(|n| (1..=25).contains(&n))
            || (key == "king" && value.contains(':')) =>
        {
            let Some((letter, betza)) = value.split_once(':') else {
                return Err(format!("'{value}' is not letter:Betza"));
            };
            let betza = betza.trim();
            read_alike(betza)?;
            set_piece(d, key, letter, Some(betza.to_string()), Vec::new(), line)?;
        }
        "pawn" => set_piece(d, key, value, None, Vec::new(), line)?,
        _ => match named_betza(key) {
            Some(betza) => set_piece(d, key, value, Some(betza.to_string()), Vec::new(), line)?,
            None => return Err("Protean does not know this key, or cannot play the rule it sets".into()),
        },
    }
    Ok(())
}

/// Piece letters (`qrbn`), upper case.
fn letters(value: &str) -> Result<Vec<char>, String> {
    if value.is_empty() || !value.chars().all(|c| c.is_ascii_alphabetic()) {
        return Err(format!("'{value}' is not a list of piece letters"));
    }
    Ok(value.chars().map(|c| c.to_ascii_uppercase()).collect())
}

/// The kinds of the pieces `letters` name, and a mistake of `key` for
/// each letter that names none.
fn kinds_named(pieces: &[PieceDef], letters: &[char], key: &str) -> (Vec<usize>, Vec<String>) {
    let mut missing = Vec::new();
    let kinds = letters
        .iter()
        .filter_map(|l| {
            let kind = pieces.iter().position(|p| p.letter == *l);
            if kind.is_none() {
                missing.push(format!("{key}: {l} is no piece here"));
            }
            kind
        })
        .collect();
    (kinds, missing)
}

/// Piece letters, or `-` for none.
fn letters_or_none(value: &str) -> Result<Vec<char>, String> {
    if value == "-" {
        Ok(Vec::new())
    } else {
        letters(value)
    }
}

/// One two-leg jump, `dx,dy dx,dy` (first leg, then second, as White
/// plays them).
fn two_leg_path(text: &str) -> Result<[Step; 2], String> {
    let step = |leg: &str| -> Option<Step> {
        let (dx, dy) = leg.split_once(',')?;
        let (dx, dy) = (dx.trim().parse::<i16>().ok()?, dy.trim().parse::<i16>().ok()?);
        ((dx, dy) != (0, 0) && dx.abs() < 26 && dy.abs() < 26).then(|| Step::new(dx as i8, dy as i8))
    };
    let legs: Vec<Option<Step>> = text.split_whitespace().map(step).collect();
    match legs[..] {
        [Some(a), Some(b)] => Ok([a, b]),
        _ => Err(format!("'{}' is not a two-leg path such as '2,0 3,0'", text.trim())),
    }
}

/// Refuses the Betza that Fairy-Stockfish and Protean read differently:
/// one of `f b l r` alone on an oblique leaper (`fN`: two jumps there,
/// four here; write `ff`, `fs`, `fl`...) and initial moves (`i`: inside
/// the double-step region there, from the start ranks here).
fn read_alike(betza: &str) -> Result<(), String> {
    if betza.contains('i') {
        return Err(format!("'{betza}': initial moves (i) are read differently by Fairy-Stockfish and Protean"));
    }
    let mut modifiers = String::new();
    for c in betza.chars() {
        if c.is_ascii_lowercase() {
            modifiers.push(c);
            continue;
        }
        let directions: Vec<char> = modifiers.chars().filter(|m| "fblrvs".contains(*m)).collect();
        if "NCZ".contains(c) && directions.len() == 1 && "fblr".contains(directions[0]) {
            return Err(format!("'{betza}': a lone '{}' on {c} is two jumps in Fairy-Stockfish and four in Protean; write them doubled ({0}{0}{c}) or paired", directions[0]));
        }
        modifiers.clear();
    }
    Ok(())
}

/// Adds, replaces (same key) or, with the letter `-`, removes a piece; a
/// piece removed is no longer a promotion choice (as in Fairy-Stockfish).
fn set_piece(
    d: &mut Draft,
    key: &str,
    letter: &str,
    betza: Option<String>,
    paths: Vec<[Step; 2]>,
    line: usize,
) -> Result<(), String> {
    let letter = letter.trim();
    let old = d.pieces.iter().find(|p| p.key == key).map(|p| p.letter);
    d.pieces.retain(|p| p.key != key);
    if letter == "-" {
        if let Some(gone) = old {
            d.promotion_letters.0.retain(|l| *l != gone);
        }
        return Ok(());
    }
    let mut chars = letter.chars();
    let letter = match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
        _ => return Err(format!("'{letter}' is not one piece letter (or - to remove the piece)")),
    };
    if let Some(other) = d.pieces.iter().find(|p| p.letter == letter) {
        return Err(format!("letter {letter} is already the {}'s (line {})", other.key, other.line));
    }
    let role = match key {
        "pawn" => Role::Pawn,
        "king" => Role::Royal,
        _ => Role::Other,
    };
    if let Some(was) = old {
        d.promotion_letters.0.iter_mut().filter(|l| **l == was).for_each(|l| *l = letter);
    }
    d.pieces.push(DraftPiece { key: key.into(), letter, betza, paths, role, line });
    Ok(())
}

/// The variant a section describes, checked by compiling its tables.
fn finish(d: &Draft) -> Result<Variant, Vec<VariantFileError>> {
    let mut errors = Vec::new();
    let err = |line: usize, message: String| VariantFileError { line, message: format!("[{}] {message}", d.name) };
    let Some(mut geometry) = Geometry::new(d.files, d.ranks) else {
        errors
            .push(err(d.line, format!("a {}x{} board is more than Protean's 26 files or 256 cells", d.files, d.ranks)));
        return Err(errors);
    };
    // Files and ranks in the file are named from the origin, as the board
    // names its cells; `(ox, oy)` turns them into counts from the lower left.
    if let Some(((file, rank), line)) = d.origin {
        match geometry.with_origin(file, rank) {
            Some(g) => geometry = g,
            None => {
                errors.push(err(
                    line,
                    format!("origin: {}{} is not on a {}x{} board", (b'a' + file) as char, rank + 1, d.files, d.ranks),
                ));
                return Err(errors);
            }
        }
    }
    let (ox, oy) = (geometry.origin().0 as u8, geometry.origin().1 as u8);
    let (fen, fen_line) = (&d.start_fen.0, d.start_fen.1);
    // Pawns double-step from the ranks they start on in Protean: a region
    // elsewhere is a rule it does not have.
    let pawn_ranks = |white: bool| -> Vec<i32> {
        let rows = placement_rows(fen);
        let mut ranks: Vec<i32> = rows
            .iter()
            .enumerate()
            .filter(|(_, row)| row.contains(if white { 'P' } else { 'p' }))
            .map(|(i, _)| (rows.len() - i) as i32 - oy as i32)
            .collect();
        ranks.sort();
        ranks
    };
    if d.double_step {
        for side in 0..2 {
            let Some((rank, line)) = d.double_step_ranks[side] else { continue };
            let starts = pawn_ranks(side == 0);
            if !starts.is_empty() && starts != [rank as i32] {
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
        let name = d.piece_names.iter().find(|(l, _, _)| *l == p.letter).map_or(p.key.as_str(), |(_, n, _)| n.as_str());
        if !p.paths.is_empty() {
            pieces.push(PieceDef::two_leg(name, p.letter, &betza, p.paths.clone(), p.role));
            continue;
        }
        match PieceDef::new(name, p.letter, &betza, p.role) {
            Ok(def) => pieces.push(def),
            Err(e) => errors.push(err(p.line, format!("{}: bad Betza '{betza}': {e}", p.key))),
        }
    }
    for (letter, _, line) in &d.piece_names {
        if !d.pieces.iter().any(|p| p.letter == *letter) {
            errors.push(err(*line, format!("pieceNames: {letter} is no piece here")));
        }
    }
    if !pieces.iter().any(|p| p.role == Role::Royal) {
        errors.push(err(d.line, "no king: Protean's games need a royal piece (king = k)".into()));
    }
    let (promotion_letters, letters_line) = &d.promotion_letters;
    let (choices, missing) = kinds_named(&pieces, promotion_letters, "promotionPieceTypes");
    errors.extend(missing.into_iter().map(|m| err(*letters_line, m)));
    // Ranks are named from the origin: the board's row of rank r (from
    // 1) is r - 1 + oy, and the last rank is named `top`.
    let row_of =
        |rank: u8| (rank >= 1 && (rank - 1) as usize + (oy as usize) < d.ranks as usize).then(|| rank - 1 + oy);
    let top = d.ranks - oy;
    let [mut white, mut black] = d.promotion_ranks.map(|(rank, line)| (row_of(rank), rank, line));
    // promotionRank is a zone from that rank to the last, and yields to
    // the regions; Protean promotes on one rank a side.
    if let (Some((rank, line)), false) = (d.promotion_zone, d.promotion_regions_given) {
        if rank != top {
            errors.push(err(
                line,
                format!("promotionRank: a zone from rank {rank} to {top}; Protean promotes on one rank a side"),
            ));
        }
        let row = row_of(rank);
        (white, black) = ((row, rank, line), (row.map(|r| d.ranks - 1 - r), rank, line));
    }
    for (row, rank, line) in [white, black] {
        if row.is_none() {
            errors.push(err(line, format!("promotion on rank {rank}, which is not on a board of {top} ranks")));
        }
    }
    let promotion_rows = [white.0.unwrap_or(0), black.0.unwrap_or(0)];
    let king_swaps_with = d.king_swaps_with.and_then(|(letter, line)| {
        let (kinds, missing) = kinds_named(&pieces, &[letter], "kingSwapsWith");
        errors.extend(missing.into_iter().map(|m| err(line, m)));
        kinds.first().copied()
    });
    for (i, (file, line)) in d.castling_files.into_iter().enumerate().filter(|_| d.castling) {
        // The rook lands beside the king, inside: both on the board.
        let (cell, files) = (file as usize + ox as usize, d.files as usize);
        let fits = if i == 0 { (1..files).contains(&cell) } else { cell + 1 < files };
        if !fits {
            let side = if i == 0 { "castlingKingsideFile" } else { "castlingQueensideFile" };
            errors.push(err(
                line,
                format!(
                    "{side}: file {} leaves no cell for the rook on a board of {} files",
                    (b'a' + file) as char,
                    d.files
                ),
            ));
        }
    }
    let minor_pieces: Vec<usize> = match &d.minor_pieces {
        Some((letters, line)) => {
            let (kinds, missing) = kinds_named(&pieces, letters, "minorPieces");
            errors.extend(missing.into_iter().map(|m| err(*line, m)));
            kinds
        }
        // A lone knight or bishop cannot mate, as in chess.
        None => pieces.iter().enumerate().filter(|(_, p)| p.betza == "N" || p.betza == "B").map(|(i, _)| i).collect(),
    };
    for (given, line) in
        [d.geret.map(|(_, l)| ("geret", l)), d.shuttle_limit.map(|(_, l)| ("shuttleLimit", l))].into_iter().flatten()
    {
        if !d.moving_tiles {
            errors.push(err(line, format!("{given}: a rule of moving tiles, which need movingTiles = true")));
        }
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
        promotion: PromotionDef { ranks: promotion_rows, choices, mandatory: d.mandatory_promotion },
        draws: DrawRules {
            quiet_plies: (d.n_move_rule > 0).then(|| d.n_move_rule.saturating_mul(2)),
            repetition: if d.repetition_by_placement { Repetition::Placement } else { Repetition::FullPosition },
            repetition_count: d.n_fold_rule,
            minor_pieces,
            bare_king_moves: d.bare_king_moves,
        },
        king_swaps_with,
        tiles: d.moving_tiles.then(|| TileRules {
            geret: d.geret.is_some_and(|(g, _)| g),
            shuttle_limit: d.shuttle_limit.map_or(DEFAULT_SHUTTLE_LIMIT, |(n, _)| n),
        }),
        redefinitions: d.rule_changes.clone(),
    };
    let letter_of = |key: &str| d.pieces.iter().find(|p| p.key == key).map(|p| p.letter);
    let rooks = d.castling_rooks.clone().unwrap_or_else(|| letter_of("rook").into_iter().collect());
    if d.castling {
        variant.castling = castling(&variant, d.castling_files.map(|(f, _)| f + ox), letter_of("king"), &rooks);
        variant.castling.iter_mut().for_each(|c| c.rook_must_be_safe = d.castling_rook_safe);
    }
    if let (true, line) = d.chess960 {
        // Castling rights name their rook, the first castling piece; a
        // variant set up as chess may also start from the 960 positions.
        match rooks.first().and_then(|l| variant.piece_by_letter(*l)) {
            Some(rook) => variant.castling_start = CastlingStart::BackRank { rook },
            None => errors.push(err(line, "chess960: no piece castles with the king".into())),
        }
        // A Chess960 right names its rook on the first rank, and a rule
        // change compiles the variant's own castling, not a FEN's layout.
        if variant.castling.iter().any(|c| c.king_from.1 != 0) {
            errors.push(err(line, "chess960: the king must start on the first rank".into()));
        }
        if !variant.redefinitions.is_empty() {
            errors.push(err(
                line,
                "chess960 with rule changes (ruleChanges, pawnRuleChanges): Protean plays them apart only".into(),
            ));
        }
        let chess = StartPositions::Chess960.fen(518);
        if placement_rows(&variant.start_fen) == placement_rows(&chess)
            && geometry.width() == 8
            && geometry.height() == 8
        {
            variant.start_positions = Some(StartPositions::Chess960);
        }
    }
    // Rights for a castling the variant does not have mean nothing, as in
    // Fairy-Stockfish: the start position keeps only the others.
    let mut fields: Vec<String> = variant.start_fen.split(' ').map(str::to_string).collect();
    if let Some(rights) = fields.get_mut(2) {
        let kept: String = rights
            .chars()
            .filter(|c| variant.castling.iter().any(|d| d.fen_letter == c.to_ascii_uppercase()))
            .collect();
        *rights = if kept.is_empty() { "-".into() } else { kept };
        variant.start_fen = fields.join(" ");
    }
    // Compiling the tables reads the start position once more, under
    // every rule; then each side must have its king there.
    match AnyRules::new(variant.clone())
        .map_err(|e| e.0)
        .and_then(|rules| rules.from_fen(&variant.start_fen).map_err(|e| e.to_string()))
    {
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

/// The shuttle limit of `movingTiles` unless `shuttleLimit` gives one.
const DEFAULT_SHUTTLE_LIMIT: u8 = 8;

/// The rows of a FEN's placement, from the top.
fn placement_rows(fen: &str) -> Vec<&str> {
    fen.split(' ').next().unwrap_or("").split('/').collect()
}

/// The cells of one FEN row, left to right: a piece letter or empty
/// (counts of empty cells may have two digits on wide boards; a count
/// past any board's width stops growing, and the row does not fit).
fn row_cells(row: &str) -> Vec<Option<char>> {
    const PAST_ANY_WIDTH: usize = 27;
    let mut cells = Vec::new();
    let mut empty = 0;
    for c in row.chars() {
        match c.to_digit(10) {
            Some(n) => empty = (empty * 10 + n as usize).min(PAST_ANY_WIDTH),
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
    let rows = placement_rows(fen);
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

/// Fairy-Stockfish's castling: the king (the `king` piece) on its rank
/// (the first, unless the board has room below it) goes to the kingside
/// or queenside file, the outermost castling
/// piece on that side (the `rook`, or `castlingRookPieces`) lands beside
/// it, inside. The files are checked to fit the board before.
fn castling(variant: &Variant, [kingside, queenside]: [u8; 2], king: Option<char>, rooks: &[char]) -> Vec<CastlingDef> {
    let rows = placement_rows(&variant.start_fen);
    let Some(king) = king else { return Vec::new() };
    // The king's rank (the first, unless the board has room below it).
    let Some((i, files)) =
        rows.iter().map(|r| row_cells(r)).enumerate().rev().find(|(_, cells)| cells.contains(&Some(king)))
    else {
        return Vec::new();
    };
    let rank = (rows.len() - 1 - i) as u8;
    let king = files.iter().position(|c| *c == Some(king)).expect("found in the row");
    let rook_files: Vec<usize> =
        files.iter().enumerate().filter(|(_, c)| c.is_some_and(|c| rooks.contains(&c))).map(|(i, _)| i).collect();
    let mut defs = Vec::new();
    if let Some(&rook) = rook_files.iter().filter(|&&r| r > king).max() {
        defs.push(CastlingDef {
            fen_letter: 'K',
            king_from: (king as u8, rank),
            king_to: (kingside, rank),
            rook_from: (rook as u8, rank),
            rook_to: (kingside - 1, rank),
            rook_must_be_safe: false,
        });
    }
    if let Some(&rook) = rook_files.iter().filter(|&&r| r < king).min() {
        defs.push(CastlingDef {
            fen_letter: 'Q',
            king_from: (king as u8, rank),
            king_to: (queenside, rank),
            rook_from: (rook as u8, rank),
            rook_to: (queenside + 1, rank),
            rook_must_be_safe: false,
        });
    }
    defs
}
