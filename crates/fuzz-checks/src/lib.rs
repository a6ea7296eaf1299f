//! The checks behind Protean's fuzz targets.
//!
//! Each public function takes the raw bytes a fuzzer produces and panics
//! only when an invariant of the engine is broken; input that is not a
//! FEN, a Betza string, a move or a protocol command must be refused
//! cleanly (an `Err`, an error line), never by a panic. The functions live
//! here rather than in `fuzz/` so that one code path serves two runners:
//!
//! - `fuzz/` (a cargo-fuzz project with its own workspace, so the main
//!   build never needs libFuzzer or nightly) calls them from its targets;
//! - `tests/corpus.rs` runs them on the stable toolchain over the
//!   checked-in seed corpus `fuzz/corpus/<target>/`, so a regression that a
//!   seed (or a minimised finding added to the seeds) shows fails `cargo
//!   test` without any fuzzer.
//!
//! The invariants: a variant file is read or refused with its mistakes'
//! lines, never by a panic, and what it defines compiles; a position's FEN parses back to the same FEN and the
//! same Zobrist key; every legal move's coordinate text and SAN read back
//! as that move; `make` then `unmake` restores FEN and key; the key after
//! `make` equals the key of a fresh parse of the FEN after it; rejected
//! input changes nothing; both protocols answer `isready` / `ping` at the
//! end of any session and leave the position alone on a line they refuse.
//!
//! Every check keeps its cost bounded (input size, number of moves tried,
//! search depth and perft depth clamped), so that an input runs in
//! milliseconds and the fuzzer's time goes into breadth, not into search.

use protean_protocol::{Output, Uci, XBoard};
use protean_rules::{betza as betza_notation, variants, with_position, AnyPosition, AnyRules, Bitboard, Position};
use std::sync::{Arc, Mutex};

/// Longest FEN text tried (a Beyond Chess FEN is about 250 bytes).
const MAX_FEN_BYTES: usize = 400;
/// Longest Betza string tried.
const MAX_BETZA_BYTES: usize = 48;
/// At most this many legal moves of a position get the per-move checks,
/// spread over the whole list (Beyond Chess has thousands of turns).
const MAX_MOVES_CHECKED: usize = 48;
/// At most this many tokens of a move sequence are played.
const MAX_MOVE_TOKENS: usize = 64;
/// At most this many lines of a protocol session are sent.
const MAX_PROTOCOL_LINES: usize = 48;
const MAX_PROTOCOL_BYTES: usize = 4096;

fn variant_of(selector: u8) -> &'static str {
    variants::NAMES[selector as usize % variants::NAMES.len()]
}

fn rules_of(name: &str) -> AnyRules {
    AnyRules::by_name(name).expect("every name in variants::NAMES is a variant")
}

fn key(pos: &AnyPosition) -> u64 {
    with_position!(pos, p => p.key())
}

/// The position's FEN parses (with the variant's base rules) to the same
/// FEN and the same key.
fn check_fen_round_trip(base: &AnyRules, pos: &AnyPosition, context: &str) {
    let text = pos.fen();
    let again = match base.from_fen(&text) {
        Ok(p) => p,
        Err(e) => panic!("{context}: the position's own FEN {text:?} does not parse: {e}"),
    };
    assert_eq!(again.fen(), text, "{context}: FEN {text:?} reads back as another FEN");
    assert_eq!(key(&again), key(pos), "{context}: FEN {text:?} reads back with another key");
}

/// Up to `max` moves of `moves`, spread evenly over the list.
fn spread<T: Copy>(moves: &[T], max: usize) -> Vec<T> {
    if moves.len() <= max {
        return moves.to_vec();
    }
    (0..max).map(|i| moves[i * moves.len() / max]).collect()
}

/// The per-move invariants, for up to `max` legal moves of the position.
fn check_moves_of<B: Bitboard>(base: &AnyRules, p: &mut Position<B>, max: usize, context: &str) {
    let before_fen = p.fen();
    let before_key = p.key();
    let moves = p.legal_move_list();
    for m in spread(&moves, max) {
        let text = p.move_text(m);
        match p.parse_move(&text) {
            Ok(back) => {
                assert_eq!(back, m, "{context}: in {before_fen:?} the text {text:?} of {m:?} reads back as {back:?}")
            }
            Err(e) => {
                panic!("{context}: in {before_fen:?} the text {text:?} of the legal move {m:?} does not read back: {e}")
            }
        }
        let san = p.san(m);
        match p.parse_san(&san) {
            Ok(back) => assert_eq!(
                back,
                m,
                "{context}: in {before_fen:?} the SAN {san:?} of {text} reads back as {} (ambiguous SAN)",
                p.move_text(back)
            ),
            Err(e) => panic!("{context}: in {before_fen:?} the SAN {san:?} of {text} does not read back: {e}"),
        }
        assert_eq!(p.fen(), before_fen, "{context}: writing the SAN of {text} changed the position");

        p.make(m);
        let after_fen = p.fen();
        let after_key = p.key();
        match base.from_fen(&after_fen) {
            Ok(fresh) => {
                assert_eq!(
                    fresh.fen(),
                    after_fen,
                    "{context}: after {text} in {before_fen:?}, FEN {after_fen:?} reads back as another FEN"
                );
                assert_eq!(
                    key(&fresh),
                    after_key,
                    "{context}: after {text} in {before_fen:?}, the key differs from a fresh parse of {after_fen:?}"
                );
            }
            Err(e) => panic!("{context}: after {text} in {before_fen:?}, the FEN {after_fen:?} does not parse: {e}"),
        }
        p.unmake();
        assert_eq!(p.fen(), before_fen, "{context}: make/unmake of {text} does not restore the FEN");
        assert_eq!(p.key(), before_key, "{context}: make/unmake of {text} in {before_fen:?} does not restore the key");
    }
}

/// Every invariant of one position: its FEN round trip and the per-move
/// checks.
fn check_position(base: &AnyRules, pos: &mut AnyPosition, max_moves: usize, context: &str) {
    check_fen_round_trip(base, pos, context);
    with_position!(pos, p => check_moves_of(base, p, max_moves, context));
}

/// `fen`: a variant selector byte, then a FEN in UTF-8.
pub fn fen(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else { return };
    if rest.len() > MAX_FEN_BYTES {
        return;
    }
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let name = variant_of(selector);
    let base = rules_of(name);
    let Ok(mut pos) = base.from_fen(text) else { return };
    check_position(&base, &mut pos, MAX_MOVES_CHECKED, &format!("fen ({name}, input {text:?})"));
}

/// Longest variant file tried (the built-ins' variants.ini is about 6 KB).
const MAX_VARIANT_FILE_BYTES: usize = 8192;

/// `variant_file`: the text of a variant file. Reading it must not panic,
/// whatever its values; a file with mistakes names each with a line of
/// the file; a file without gives variants that compile and whose start
/// positions pass the position checks.
pub fn variant_file(data: &[u8]) {
    if data.len() > MAX_VARIANT_FILE_BYTES {
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else { return };
    let lines = text.lines().count().max(1);
    match protean_rules::variant_file::parse(text, |name| variants::names(name).is_some()) {
        Err(errors) => {
            assert!(!errors.is_empty(), "variant file {text:?}: refused without a reason");
            for e in &errors {
                assert!(
                    (1..=lines).contains(&e.line),
                    "variant file {text:?}: mistake on line {} of {lines}: {e}",
                    e.line
                );
            }
        }
        Ok(parsed) => {
            for variant in parsed {
                let name = variant.name.clone();
                let rules = AnyRules::new(variant)
                    .unwrap_or_else(|e| panic!("variant file {text:?}: [{name}] was read but does not compile: {e}"));
                let mut start = rules
                    .from_fen(&rules.variant().start_fen)
                    .unwrap_or_else(|e| panic!("variant file {text:?}: [{name}]'s start does not parse: {e}"));
                check_position(&rules, &mut start, 8, &format!("variant file [{name}]"));
            }
        }
    }
}

const STANDARD_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// `betza`: a Betza string. Parsing must not panic; a string that parses
/// must make a piece, compile into rules on every board size, and work as
/// a Flexichess rule change of a knight and of a pawn.
pub fn betza(data: &[u8]) {
    if data.len() > MAX_BETZA_BYTES {
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else { return };
    let parsed = betza_notation::parse(text);
    let made = protean_rules::variant::PieceDef::new("fuzzed", 'N', text, protean_rules::variant::Role::Other);
    assert_eq!(parsed.is_ok(), made.is_ok(), "betza {text:?}: the parser and PieceDef::new disagree");
    let Ok(movement) = parsed else { return };
    assert!(!movement.legs.is_empty(), "betza {text:?} parses to a piece without a single leg");
    let piece = made.expect("checked");

    // The knight replaced on each board size (8x8 in u64, 9x9 in u128,
    // Beyond Chess's 16x16 in Bb256): compiling must not panic, and if
    // the start position is still valid it must pass the position checks.
    for name in ["standard", "perfect", "beyond"] {
        let mut variant = rules_of(name).variant().clone();
        let knight = variant.piece_by_letter('N').expect("these variants have a knight");
        variant.pieces[knight] = piece.clone();
        if let Ok(rules) = AnyRules::new(variant) {
            if let Ok(mut pos) = rules.from_fen(&rules.variant().start_fen) {
                let max = if name == "beyond" { 8 } else { 16 };
                check_position(&rules, &mut pos, max, &format!("betza {text:?} as {name}'s knight"));
            }
        }
    }

    // The Flexichess rules field: the knight and the pawn redefined.
    if text.contains(char::is_whitespace) || text.contains(',') {
        return;
    }
    let flexi = rules_of("flexichess");
    for letter in ['N', 'P'] {
        let fen = format!("{STANDARD_START} {letter}={text}");
        if let Ok(mut pos) = flexi.from_fen(&fen) {
            check_position(&flexi, &mut pos, MAX_MOVES_CHECKED, &format!("betza {text:?} in Flexichess FEN {fen:?}"));
        }
    }
}

/// Placements the `rules_field` target puts in front of the fuzzed field.
pub const RULES_FIELD_POSITIONS: &[&str] = &[
    STANDARD_START,
    "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 2",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "4k3/1P6/8/2pP4/8/8/6p1/4K3 w - c6 0 40",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
];

/// `rules_field`: a selector byte for one of [`RULES_FIELD_POSITIONS`],
/// then a Flexichess rules field (`N=NN,B=W`) as the FEN's seventh field.
pub fn rules_field(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else { return };
    if rest.len() > 160 {
        return;
    }
    let Ok(field) = std::str::from_utf8(rest) else { return };
    let placement = RULES_FIELD_POSITIONS[selector as usize % RULES_FIELD_POSITIONS.len()];
    let fen = format!("{placement} {field}");
    let flexi = rules_of("flexichess");
    let Ok(mut pos) = flexi.from_fen(&fen) else { return };
    check_position(&flexi, &mut pos, MAX_MOVES_CHECKED, &format!("rules_field {fen:?}"));
}

/// `moves`: a variant selector byte, then move texts separated by white
/// space, played from the start position: each in coordinate notation
/// or, failing that, as SAN; a move that applies keeps the FEN round trip,
/// a move that does not changes nothing.
pub fn moves(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else { return };
    if rest.len() > 1024 {
        return;
    }
    let text = String::from_utf8_lossy(rest);
    let name = variant_of(selector);
    let base = rules_of(name);
    let mut pos = base.start();
    let mut played = Vec::new();
    for token in text.split_whitespace().take(MAX_MOVE_TOKENS) {
        let context = format!("moves ({name}, after {played:?})");
        let before = pos.fen();
        let before_key = key(&pos);
        let mut as_san = pos.clone();
        if pos.play(token).is_ok() {
            played.push(token.to_string());
            check_fen_round_trip(&base, &pos, &format!("{context} then {token}"));
            // Where coordinates are also SAN (a rule change, a geret, a
            // pawn naming its cell), both must play the same move.
            if let Ok(coordinates) = as_san.play_san(token) {
                assert_eq!(
                    as_san.fen(),
                    pos.fen(),
                    "{context}: {token:?} plays one move as coordinates and another ({coordinates}) as SAN"
                );
            }
            continue;
        }
        assert_eq!(pos.fen(), before, "{context}: the refused move {token:?} changed the position");
        assert_eq!(key(&pos), before_key, "{context}: the refused move {token:?} changed the key");
        match as_san.play_san(token) {
            Ok(coordinates) => {
                // SAN and coordinates must name the same move.
                let mut by_coordinates = pos.clone();
                match by_coordinates.play(&coordinates) {
                    Ok(()) => {
                        assert_eq!(
                            by_coordinates.fen(),
                            as_san.fen(),
                            "{context}: SAN {token:?} and its coordinates {coordinates:?} play differently"
                        );
                        assert_eq!(
                            key(&by_coordinates),
                            key(&as_san),
                            "{context}: SAN {token:?} and {coordinates:?} give different keys"
                        );
                    }
                    Err(e) => panic!("{context}: SAN {token:?} played as {coordinates:?}, which does not play: {e}"),
                }
                pos = as_san;
                played.push(coordinates);
                check_fen_round_trip(&base, &pos, &format!("{context} then SAN {token}"));
            }
            Err(_) => {
                assert_eq!(as_san.fen(), before, "{context}: the refused SAN {token:?} changed the position");
            }
        }
    }
    let max = if name == "beyond" { 8 } else { 16 };
    check_position(&base, &mut pos, max, &format!("moves ({name}, after {played:?})"));
}

/// What a captured protocol output holds from byte `from` on.
fn output_since(buffer: &Arc<Mutex<Vec<u8>>>, from: usize) -> String {
    let b = buffer.lock().unwrap_or_else(|e| e.into_inner());
    String::from_utf8_lossy(&b[from.min(b.len())..]).into_owned()
}

fn output_len(buffer: &Arc<Mutex<Vec<u8>>>) -> usize {
    buffer.lock().unwrap_or_else(|e| e.into_inner()).len()
}

/// The session's lines: lossy UTF-8, bounded in number and length.
fn session_lines(data: &[u8]) -> Option<Vec<String>> {
    if data.len() > MAX_PROTOCOL_BYTES {
        return None;
    }
    let text = String::from_utf8_lossy(data);
    Some(text.lines().take(MAX_PROTOCOL_LINES).map(str::to_string).collect())
}

/// Perft deeper than this would take more than milliseconds.
fn max_perft(variant: &str) -> u32 {
    match variant {
        "beyond" | "flexichess" => 1,
        _ => 2,
    }
}

/// A `go` line made cheap: `go perft N` with a small N, anything else a
/// depth-1 search (without `infinite`, `ponder`, `depth`, `nodes` or
/// `mate`, which could make it long; `searchmoves` kept).
fn clamp_uci_go(tokens: &[&str], variant: &str) -> Option<String> {
    if tokens.get(1) == Some(&"perft") {
        let depth = tokens.get(2).and_then(|d| d.parse::<u32>().ok());
        return match depth {
            Some(d) if d > max_perft(variant) => None,
            _ => Some(tokens.join(" ")),
        };
    }
    let mut out = vec!["go"];
    let mut i = 1;
    while i < tokens.len() {
        match tokens[i] {
            "infinite" | "ponder" => i += 1,
            "depth" | "nodes" | "mate" => i += 2,
            "searchmoves" => break,
            t => {
                out.push(t);
                i += 1;
            }
        }
    }
    out.extend(["depth", "1"]);
    out.extend(&tokens[i.min(tokens.len())..]);
    Some(out.join(" "))
}

/// The line as the UCI session sends it, or `None` to skip it.
fn clamp_uci(line: &str, variant: &str) -> Option<String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    match tokens.first() {
        Some(&"go") => clamp_uci_go(&tokens, variant),
        Some(&"setoption") => {
            let lower = line.to_ascii_lowercase();
            let value = tokens
                .iter()
                .position(|&t| t == "value")
                .and_then(|i| tokens.get(i + 1))
                .and_then(|v| v.parse::<u64>().ok());
            let too_big = match value {
                Some(v) if lower.contains("hash") => v > 16,
                Some(v) if lower.contains("threads") => v > 2,
                _ => false,
            };
            (!too_big).then(|| line.to_string())
        }
        _ => Some(line.to_string()),
    }
}

/// `uci_lines`: a UCI session, one command per line.
pub fn uci_lines(data: &[u8]) {
    let Some(lines) = session_lines(data) else { return };
    let (output, buffer) = Output::capture();
    let mut uci = Uci::new(output);
    for raw in &lines {
        let variant = uci.position().variant().name.clone();
        let Some(line) = clamp_uci(raw, &variant) else { continue };
        let before = uci.position().fen();
        let before_key = key(uci.position());
        let from = output_len(&buffer);
        let flow = uci.handle(&line);
        let said = output_since(&buffer, from);
        // A refusal is an `info string` naming a problem; the variant's
        // announcement and the note of a perft that the line stopped (it
        // runs on its own thread) are not.
        let refused = said.lines().any(|l| {
            l.starts_with("info string") && !l.starts_with("info string variant ") && l != "info string perft stopped"
        });
        if refused {
            assert_eq!(uci.position().fen(), before, "uci: the refused line {line:?} changed the position ({said:?})");
            assert_eq!(key(uci.position()), before_key, "uci: the refused line {line:?} changed the key");
        }
        if flow == protean_protocol::Flow::Quit {
            break;
        }
    }
    let from = output_len(&buffer);
    uci.handle("isready");
    let said = output_since(&buffer, from);
    assert!(said.lines().any(|l| l == "readyok"), "uci: no readyok after the session {lines:?}; got {said:?}");
    uci.handle("stop");
    check_fen_round_trip(&rules_of(&uci.position().variant().name.clone()), uci.position(), "uci: final position");
}

/// The line as the XBoard session sends it (possibly with a follow-up),
/// or nothing to skip it.
fn clamp_xboard(line: &str, variant: &str) -> Vec<String> {
    let trimmed = line.trim();
    let (command, rest) = trimmed.split_once(' ').map_or((trimmed, ""), |(c, r)| (c, r.trim()));
    let number = rest.parse::<u64>().ok();
    match command {
        // Infinite analysis: only `exit` or a new command ends it.
        "analyze" => vec![],
        "memory" if number.is_some_and(|n| n > 16) => vec![],
        "cores" if number.is_some_and(|n| n > 2) => vec![],
        "perft" if number.is_some_and(|n| n > max_perft(variant) as u64) => vec![],
        "sd" if number.is_some_and(|n| n > 1) => vec!["sd 1".into()],
        // `new` forgets the depth limit: set it again.
        "new" => vec![line.to_string(), "sd 1".into()],
        _ => vec![line.to_string()],
    }
}

/// `xboard_lines`: an XBoard session, one command per line.
pub fn xboard_lines(data: &[u8]) {
    let Some(lines) = session_lines(data) else { return };
    let (output, buffer) = Output::capture();
    let mut xboard = XBoard::new(output);
    // Every search the session starts is a depth-1 search.
    xboard.handle("sd 1");
    'session: for raw in &lines {
        let variant = xboard.position().variant().name.clone();
        for line in clamp_xboard(raw, &variant) {
            // A game search's move is applied by the next command: let
            // `ping` wait for it, so the position read here is the one
            // the line is handled in.
            xboard.handle("ping 0");
            let before = xboard.position().fen();
            let before_key = key(xboard.position());
            let from = output_len(&buffer);
            let flow = xboard.handle(&line);
            let said = output_since(&buffer, from);
            let refused = said
                .lines()
                .any(|l| l.starts_with("Error") || l.starts_with("Illegal") || l.starts_with("tellusererror Illegal"));
            if refused {
                assert_eq!(
                    xboard.position().fen(),
                    before,
                    "xboard: the refused line {line:?} changed the position ({said:?})"
                );
                assert_eq!(key(xboard.position()), before_key, "xboard: the refused line {line:?} changed the key");
            }
            if flow == protean_protocol::Flow::Quit {
                break 'session;
            }
        }
    }
    let from = output_len(&buffer);
    xboard.handle("ping 1");
    let said = output_since(&buffer, from);
    assert!(said.lines().any(|l| l == "pong 1"), "xboard: no pong after the session {lines:?}; got {said:?}");
    xboard.handle("force");
    check_fen_round_trip(
        &rules_of(&xboard.position().variant().name.clone()),
        xboard.position(),
        "xboard: final position",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_lines_become_cheap() {
        assert_eq!(clamp_uci("go infinite", "standard").as_deref(), Some("go depth 1"));
        assert_eq!(
            clamp_uci("go wtime 100 depth 30 searchmoves e2e4", "standard").as_deref(),
            Some("go wtime 100 depth 1 searchmoves e2e4")
        );
        assert_eq!(clamp_uci("go perft 5", "standard"), None);
        assert_eq!(clamp_uci("go perft 2", "standard").as_deref(), Some("go perft 2"));
        assert_eq!(clamp_uci("setoption name Hash value 4096", "standard"), None);
        assert!(clamp_xboard("analyze", "standard").is_empty());
        assert_eq!(clamp_xboard("sd 20", "standard"), vec!["sd 1".to_string()]);
    }

    #[test]
    fn garbage_is_refused_without_panic() {
        for data in [&b""[..], b"\xff\xfe", b"\x00rnbqkbnr", b"\x03 zz 99 e2e4"] {
            fen(data);
            betza(data);
            rules_field(data);
            moves(data);
            uci_lines(data);
            xboard_lines(data);
        }
    }
}
