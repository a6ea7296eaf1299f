//! One key of a section read into its draft: Fairy-Stockfish's keys,
//! Protean's own, the keys accepted at one value only, and the values
//! they take (booleans, numbers, files, ranks, piece letters, Betza).

use super::{named_betza, Draft, DraftPiece};
use crate::geometry::Step;
use crate::variant::{PieceDef, Redefinition, Role};

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

/// A file's path (`weightsFile`, `evalFile`).
fn file_path(value: &str) -> Result<std::path::PathBuf, String> {
    if value.is_empty() {
        return Err("a file's path is needed".into());
    }
    Ok(value.into())
}

/// A region of one whole rank, `*9`: the rank (from 1).
fn whole_rank(value: &str) -> Result<u8, String> {
    value
        .strip_prefix('*')
        .and_then(|r| r.parse::<u8>().ok())
        .filter(|r| (1..=26).contains(r))
        .ok_or_else(|| format!("'{value}': Protean reads regions of one whole rank only, written *N"))
}

pub(super) fn apply(d: &mut Draft, key: &str, value: &str, line: usize) -> Result<(), String> {
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
        "weightsFile" => d.eval_files.weights = Some(file_path(value)?),
        "evalFile" => d.eval_files.network = Some(file_path(value)?),
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
pub(super) fn kinds_named(pieces: &[PieceDef], letters: &[char], key: &str) -> (Vec<usize>, Vec<String>) {
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
