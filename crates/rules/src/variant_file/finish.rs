//! A section's draft made into a [`Variant`] and checked: every rule
//! the draft asks for that Protean cannot play is a mistake with its
//! line, and the variant's tables are compiled once to prove it plays.

use super::keys::kinds_named;
use super::{Draft, VariantFileError};
use crate::any::AnyRules;
use crate::geometry::Geometry;
use crate::variant::{
    CastlingDef, CastlingStart, DrawRules, PieceDef, PromotionDef, Repetition, Role, StartPositions, TileRules, Variant,
};

/// The variant a section describes, checked by compiling its tables.
pub(super) fn finish(d: &Draft) -> Result<Variant, Vec<VariantFileError>> {
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
        eval_files: d.eval_files.clone(),
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
