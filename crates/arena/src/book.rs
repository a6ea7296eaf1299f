//! Opening books: the positions and lines games start from, read from EPD
//! files (a position a line) or PGN files (a game's start and first moves).

use crate::pgn;
use protean_rules::{AnyPosition, AnyRules};
use std::path::Path;

/// A game's start: a FEN (`None`: the variant's start) and moves after it.
#[derive(Clone, Debug, Default)]
pub struct Opening {
    pub fen: Option<String>,
    /// Coordinate notation, checked against the rules.
    pub moves: Vec<String>,
}

/// A book line: a whole FEN (which a variant's own fields, such as
/// Flexichess's rule changes and Beyond Chess's shuttles, need), or an EPD
/// line (placement, side, castling, en passant, then operations). Gives
/// the FEN that parsed and its position.
pub fn book_position(rules: &AnyRules, line: &str) -> Result<(String, AnyPosition), String> {
    let line = line.trim();
    if let Ok(pos) = rules.from_fen(line) {
        return Ok((line.to_string(), pos));
    }
    let fields: Vec<&str> = line.split_whitespace().take(4).collect();
    let fen = fields.join(" ");
    let pos = rules.from_fen(&fen).map_err(|e| e.to_string())?;
    Ok((fen, pos))
}

/// Openings from an EPD file (a position per line) or a PGN file (a game
/// per opening: its FEN tag if any and its first `plies` moves in SAN).
pub fn read_openings(rules: &AnyRules, file: &str, format: &str, plies: usize) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let mut out = Vec::new();
    match format {
        "epd" => {
            for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                let (fen, _) = book_position(rules, line).map_err(|e| format!("{file}:{}: {e}", i + 1))?;
                out.push(Opening { fen: Some(fen), moves: Vec::new() });
            }
        }
        "pgn" => {
            for (i, game) in pgn::games(&text).into_iter().enumerate() {
                let mut pos = match game.fen() {
                    Some(f) => rules.from_fen(f).map_err(|e| format!("{file}: game {}: {e}", i + 1))?,
                    None => rules.start(),
                };
                let mut moves = Vec::new();
                for san in game.moves.iter().take(plies) {
                    moves.push(pos.play_san(san).map_err(|e| format!("{file}: game {}: {e}", i + 1))?);
                }
                out.push(Opening { fen: game.fen().map(str::to_string), moves });
            }
        }
        _ => return Err(format!("-openings: format '{format}' is neither epd nor pgn")),
    }
    if out.is_empty() {
        return Err(format!("{file}: no openings"));
    }
    Ok(out)
}

/// The positions of a book file: a FEN a line (an EPD line's first four
/// fields will do); blank lines and lines starting with `#` are passed over.
pub fn read_positions(rules: &AnyRules, path: &Path) -> Result<Vec<AnyPosition>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut positions = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (_, pos) = book_position(rules, line).map_err(|e| format!("{}: line {}: {e}", path.display(), n + 1))?;
        positions.push(pos);
    }
    if positions.is_empty() {
        return Err(format!("{}: no positions", path.display()));
    }
    Ok(positions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_book_line_keeps_a_variants_own_fields() {
        let flexi = AnyRules::by_name("flexichess").unwrap();
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 N=NN";
        let (kept, pos) = book_position(&flexi, fen).unwrap();
        assert_eq!((kept.as_str(), pos.fen()), (fen, fen.to_string()));
        // An EPD line: its operations are not part of the position.
        let standard = AnyRules::by_name("standard").unwrap();
        let (kept, _) = book_position(&standard, "8/8/8/8/8/8/8/K1k5 w - - bm Kb1; id \"x\";").unwrap();
        assert_eq!(kept, "8/8/8/8/8/8/8/K1k5 w - -");
        assert!(book_position(&standard, "8/8/8 w - -").is_err());
    }
}
