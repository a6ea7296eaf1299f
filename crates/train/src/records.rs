//! Datagen's records: the one place their format is written and read.
//!
//! A record is one line of text: a quiet position's FEN (the variant's
//! own FEN, rule changes and tiles included), the result of the game it
//! came from for White in brackets (`[1.0]`, `[0.5]` or `[0.0]`, the form
//! Texel tuners read), and the search's score of the position in White's
//! centipawns: `FEN [1.0] 37`. `protean datagen` writes them with
//! [`format_record`]; `protean tune` and `protean train-network` read them
//! with [`read_records`], which also takes a line without a score (other
//! tools' data, and benches/reference-datagen.py's, may have none).

use protean_rules::{fen, Bitboard, Position, Rules};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::sync::Arc;

/// The line (without its newline) that records the position `fen`, whose
/// game White ended with `white_points` (1, 0.5 or 0) and which the search
/// scored `white_cp` centipawns for White (no score: none written).
pub fn format_record(fen: &str, white_points: f64, white_cp: Option<i32>) -> String {
    match white_cp {
        Some(cp) => format!("{fen} [{white_points:.1}] {cp}"),
        None => format!("{fen} [{white_points:.1}]"),
    }
}

/// Each line of the record files `paths` but blank ones, in order: its
/// position under `rules`, White's result and perhaps a score (White's
/// centipawns). An error, the data's or `each`'s, is given with its file
/// and line.
pub fn read_records<B: Bitboard>(
    rules: &Arc<Rules<B>>,
    paths: &[PathBuf],
    mut each: impl FnMut(Position<B>, f32, Option<f32>) -> Result<(), String>,
) -> Result<(), String> {
    for path in paths {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for (i, line) in BufReader::new(file).lines().enumerate() {
            let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
            if line.trim().is_empty() {
                continue;
            }
            let at = |reason: String| format!("{} line {}: {reason}", path.display(), i + 1);
            let (fen_text, result, score) = parse_record(&line).map_err(at)?;
            let pos = fen::parse(rules, fen_text).map_err(|e| at(e.to_string()))?;
            each(pos, result, score).map_err(at)?;
        }
    }
    Ok(())
}

/// How many lines the files `paths` have, blank ones included; an error
/// names a file that cannot be read. Opening every file before a long
/// read names a mistyped path at once.
pub(crate) fn count_lines(paths: &[PathBuf]) -> Result<usize, String> {
    let mut lines = 0;
    for path in paths {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        lines += BufReader::new(file).lines().count();
    }
    Ok(lines)
}

/// A record: a FEN, White's result in brackets, and perhaps a reference
/// engine's score for White in centipawns.
pub fn parse_record(line: &str) -> Result<(&str, f32, Option<f32>), String> {
    let line = line.trim();
    let open = line.rfind('[').ok_or("no [result] after the FEN")?;
    let (result_text, after) = line[open + 1..].split_once(']').ok_or("no ] after the result")?;
    let result = match result_text {
        "1.0" | "1" => 1.0,
        "0.5" => 0.5,
        "0.0" | "0" => 0.0,
        other => return Err(format!("result {other} is none of 1.0, 0.5, 0.0")),
    };
    let score = match after.trim() {
        "" => None,
        text => Some(
            text.parse::<i32>()
                .map_err(|_| format!("score {text} after the result is no whole number of centipawns"))?
                as f32,
        ),
    };
    Ok((line[..open].trim(), result, score))
}

#[cfg(test)]
mod tests {
    use super::{format_record, parse_record};

    #[test]
    fn a_line_is_a_fen_a_result_and_perhaps_a_score() {
        let fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(parse_record(&format!("{fen} [1.0]")), Ok((fen, 1.0, None)));
        assert_eq!(parse_record(&format!("{fen} [0.5] -37")), Ok((fen, 0.5, Some(-37.0))));
        assert!(parse_record(&format!("{fen} [0.7]")).unwrap_err().contains("0.7"));
        assert!(parse_record(&format!("{fen} [0.0] much")).unwrap_err().contains("much"));
        assert!(parse_record(fen).is_err());
    }

    /// What datagen writes is what the trainers read back.
    #[test]
    fn a_formatted_record_reads_back() {
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        assert_eq!(format_record(fen, 1.0, Some(37)), format!("{fen} [1.0] 37"));
        for (points, cp) in [(1.0, Some(37)), (0.5, Some(0)), (0.0, Some(-412)), (0.5, None)] {
            let line = format_record(fen, points, cp);
            assert_eq!(parse_record(&line), Ok((fen, points as f32, cp.map(|c| c as f32))), "{line}");
        }
    }
}
