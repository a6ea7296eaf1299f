//! XBoard transcripts.

mod common;

use common::Session;
use protean_protocol::XBoard;
use std::time::Duration;

const MOVE_WAIT: Duration = Duration::from_secs(60);

/// A session after the handshake.
fn session() -> Session<XBoard> {
    let mut s = Session::new(XBoard::new);
    s.send("xboard");
    s.send("protover 2");
    s
}

#[test]
fn handshake_announces_the_features() {
    let s = session();
    let features = s.take();
    for f in [
        "ping=1",
        "setboard=1",
        "usermove=1",
        "san=0",
        "sigint=0",
        "sigterm=0",
        "colors=0",
        "analyze=1",
        "memory=1",
        "smp=1",
        "exclude=0",
        "highlight=1",
        "variants=\"normal,fischerandom,perfect,onedim,beyond,flexichess\"",
        "done=1",
        "myname=\"Protean",
        "option=\"Use NNUE -check 1\"",
        "option=\"EvalFile -file <built-in>\"",
    ] {
        assert!(features.contains(f), "{f} missing: {features}");
    }
}

#[test]
fn eval_file_names_a_file_it_cannot_read() {
    let mut s = session();
    s.take();
    let missing = std::env::temp_dir().join("protean-no-such-network.nnue");
    s.send(&format!("option EvalFile={}", missing.display()));
    let told = s.take();
    assert!(told.starts_with("Error (EvalFile ") && told.contains("the network stays as it was"), "{told}");
    s.send("option EvalFile=<built-in>");
    assert_eq!(s.take(), "# EvalFile: the built-in networks\n");
}

#[test]
fn perfect_chess_is_taught_to_xboard_and_played() {
    let mut s = session();
    s.take();
    s.send("new");
    s.send("variant perfect");
    let taught = s.take();
    let lines: Vec<&str> = taught.lines().collect();
    assert_eq!(
        lines[0],
        "setup (PNBRQKpnbrqk) 9x9+0_fairy rnbqkqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKQBNR w KQkq - 0 1"
    );
    assert_eq!(
        &lines[1..],
        ["piece P& fmWfceFifmnD", "piece N& N", "piece B& BsW", "piece R& R", "piece Q& Q", "piece K& KisO3"]
    );
    s.send("sd 4");
    s.send("usermove e2e4");
    let reply = s.wait_for("move ", MOVE_WAIT);
    let mv = reply.strip_prefix("move ").unwrap();
    let mut pos = protean_rules::AnyRules::by_name("perfect").unwrap().start();
    pos.play("e2e4").unwrap();
    assert!(pos.legal_moves().iter().any(|m| m == mv), "{mv} is not legal");
    s.take();
    s.send("ping 3");
    assert_eq!(s.take(), "pong 3\n");
    // The engine's move is part of the game now: the user answers it.
    s.send("usermove i2i3");
    s.wait_for("move ", MOVE_WAIT);
}

#[test]
fn illegal_moves_are_named_and_change_nothing() {
    let mut s = session();
    s.send("new");
    s.send("force");
    s.take();
    s.send("usermove e2e5");
    assert_eq!(s.take(), "Illegal move (not a legal move here): e2e5\n");
    s.send("usermove e2");
    assert_eq!(s.take(), "Illegal move (not a move on this board): e2\n");
    s.send("e2");
    assert_eq!(s.take(), "Error (unknown command): e2\n");
    s.send("usermove i2i4");
    assert_eq!(s.take(), "Illegal move (not a move on this board): i2i4\n");
    s.send("usermove e2e4");
    s.send("usermove d7d5");
    s.send("undo");
    s.send("usermove e7e5");
    assert!(s.take().is_empty());
    assert_eq!(s.engine.position().fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    s.send("remove");
    assert_eq!(s.engine.position().fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    s.send("setboard 8/8/8");
    assert!(s.take().starts_with("tellusererror Illegal position"));
}

#[test]
fn lift_highlights_targets_captures_and_promotions() {
    let mut s = session();
    s.send("new");
    s.send("force");
    s.send("setboard 1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    s.take();
    s.send("lift a7");
    assert_eq!(s.take(), "highlight MM6/8/8/8/8/8/8/8\n");
    s.send("lift e1");
    assert_eq!(s.take(), "highlight 8/8/8/8/8/8/3YYY2/3Y1Y2\n");
    s.send("setboard 4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    s.send("lift e4");
    assert_eq!(s.take(), "highlight 8/8/8/3RY3/8/8/8/8\n");
}

#[test]
fn analyze_posts_thinking_until_exit() {
    let mut s = session();
    s.send("new");
    s.send("force");
    s.send("post");
    s.take();
    s.send("analyze");
    std::thread::sleep(Duration::from_millis(300));
    s.send("exit");
    let text = s.take();
    let first = text.lines().next().unwrap_or_default();
    let fields: Vec<&str> = first.split_whitespace().collect();
    assert!(fields.len() >= 5 && fields[..4].iter().all(|f| f.parse::<i64>().is_ok()), "thinking line: {first}");
    assert!(!text.contains("move "), "analysis must not move");
}

#[test]
fn go_plays_and_force_stops_without_moving() {
    let mut s = session();
    s.send("new");
    s.send("st 1");
    s.send("go");
    let reply = s.wait_for("move ", MOVE_WAIT);
    assert!(reply.len() >= 9);
    s.send("force");
    s.take();
    s.send("usermove e7e5");
    std::thread::sleep(Duration::from_millis(50));
    assert!(s.take().is_empty(), "in force mode the engine does not answer");
}

#[test]
fn one_dimensional_chess_is_taught_and_takes_multi_leg_moves() {
    let mut s = session();
    s.take();
    s.send("new");
    s.send("variant onedim");
    let taught = s.take();
    let lines: Vec<&str> = taught.lines().collect();
    assert_eq!(lines[0], "setup (.NBRQK.nbrqk) 16x1+0_fairy KQRBN6nbrqk w - - 0 1");
    assert_eq!(&lines[1..], ["piece K& W", "piece Q& R3D3", "piece R& R3", "piece B& D3", "piece N& U"]);
    s.send("force");
    s.send("setboard K1N1r10k w - - 0 1");
    s.send("usermove c1e1,e1h1");
    assert!(s.take().is_empty());
    assert_eq!(s.engine.position().fen(), "K6N7k b - - 0 1");
}

#[test]
fn fractional_seconds_a_move_and_analysis_after_a_depth_limit() {
    // python-chess sends `st 0.2` for Limit(time=0.2), and `sd 3` for
    // Limit(depth=3) before it analyses.
    let mut s = session();
    s.send("new");
    s.send("st 0.2");
    s.send("usermove e2e4");
    let start = std::time::Instant::now();
    s.wait_for("move ", MOVE_WAIT);
    assert!(start.elapsed() < Duration::from_secs(2), "{:?}", start.elapsed());
    assert!(!s.text().contains("Error"), "{}", s.text());
    s.send("force");
    s.send("sd 3");
    s.send("analyze");
    // Posted lines are `depth score time nodes pv`: depth 6 comes, past `sd`.
    s.wait_for("6 ", MOVE_WAIT);
    s.send("exit");
    s.send("ping 1");
    s.wait_for("pong 1", MOVE_WAIT);
    for bad in ["st 0", "st -1", "st x"] {
        s.send(bad);
        s.wait_for(&format!("Error (bad seconds): {bad}"), MOVE_WAIT);
    }
}

/// The engine's move and its hint (the reply it ponders on).
fn move_and_hint(s: &mut Session<XBoard>) -> (String, String) {
    let mv = s.wait_for("move ", MOVE_WAIT).trim_start_matches("move ").trim().to_string();
    s.take();
    s.send("hint");
    let hint = s.wait_for("Hint: ", MOVE_WAIT).trim_start_matches("Hint: ").trim().to_string();
    (mv, hint)
}

#[test]
fn pondering_plays_on_a_hit_and_drops_its_search_on_a_miss() {
    let mut s = session();
    s.send("new");
    s.send("hard");
    s.send("post");
    s.send("st 0.3");
    s.send("usermove e2e4");
    let (_, hint) = move_and_hint(&mut s);
    // While the user thinks, the engine does: thinking lines, no input.
    std::thread::sleep(Duration::from_millis(300));
    let pondering = s.take();
    assert!(
        pondering.lines().any(|l| l.split_whitespace().count() > 4 && l.starts_with(|c: char| c.is_ascii_digit())),
        "no thinking after {hint}: {pondering}"
    );
    // The expected reply: the ponder search becomes the next move's.
    let start = std::time::Instant::now();
    s.send(&format!("usermove {hint}"));
    s.send("ping 1");
    // `ping` is answered once the move is made.
    let after_hit = s.take();
    let lines: Vec<&str> = after_hit.lines().filter(|l| l.starts_with("move ") || l.starts_with("pong")).collect();
    assert_eq!(lines.len(), 2, "one move after the hit, then the pong: {after_hit}");
    assert!(lines[0].starts_with("move ") && lines[1] == "pong 1", "{after_hit}");
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    // Another reply than the one pondered on: the ponder search is void
    // and the engine answers the move played, legally.
    let mut pos = protean_rules::AnyRules::by_name("standard").unwrap().start();
    pos.play("e2e4").unwrap();
    s.send("force");
    s.send("new");
    s.send("hard");
    s.send("st 0.3");
    s.send("usermove e2e4");
    let (mv, hint) = move_and_hint(&mut s);
    pos.play(&mv).unwrap();
    let other = pos.legal_moves().into_iter().find(|m| *m != hint).unwrap();
    pos.play(&other).unwrap();
    s.take();
    s.send(&format!("usermove {other}"));
    s.wait_for("move ", MOVE_WAIT);
    s.send("ping 9");
    let text = s.take();
    let moves: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("move ")).collect();
    assert_eq!(moves.len(), 1, "the void ponder search must not move: {text}");
    assert!(pos.legal_moves().iter().any(|m| m == moves[0]), "{} after a miss", moves[0]);
    // `easy` ends the pondering: a ping is answered at once.
    s.send("easy");
    s.send("ping 2");
    s.wait_for("pong 2", Duration::from_secs(2));
}

#[test]
fn nps_turns_the_time_for_a_move_into_nodes() {
    let mut s = session();
    s.send("new");
    s.send("post");
    s.send("nps 20000");
    s.send("st 1");
    s.send("usermove e2e4");
    s.wait_for("move ", MOVE_WAIT);
    let text = s.take();
    // A thinking line: depth score time nodes pv.
    let nodes: Vec<u64> = text.lines().filter_map(|l| l.split_whitespace().nth(3)?.parse().ok()).collect();
    let last = *nodes.last().expect("thinking output");
    assert!(last <= 21_000, "{last} nodes for 1 s at 20000 nodes a second");
}

#[test]
fn without_a_clock_a_move_takes_the_default_time() {
    let mut s = session();
    s.send("new");
    let start = std::time::Instant::now();
    s.send("usermove e2e4");
    s.wait_for("move ", MOVE_WAIT);
    let took = start.elapsed();
    assert!(took >= Duration::from_secs(4) && took < Duration::from_secs(8), "{took:?}");
}

#[test]
fn fischerandom_castles_as_o_o_both_ways() {
    let mut s = session();
    s.send("new");
    s.send("variant fischerandom");
    s.send("force");
    s.send("setboard 1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1");
    s.take();
    s.send("usermove O-O");
    s.send("usermove O-O-O");
    assert_eq!(s.take(), "");
    // Black's long castling took it to c8, the rook to d8.
    s.send("undo");
    s.send("usermove b8b7");
    assert!(s.take().starts_with("Illegal move"));
}

#[test]
fn a_game_over_by_the_rules_is_claimed_not_left_waiting() {
    // Threefold repetition with the engine to move: XBoard waited for a
    // move for ever (a GUI game hung so).
    let mut s = session();
    s.send("new");
    assert_knights_shuffled_to_a_claim(&mut s, ["g1f3", "g8f6", "f3g1", "f6g8"]);
    // The engine's own move that mates is followed by the claim.
    s.send("new");
    s.send("force");
    s.send("setboard 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
    s.send("st 0.5");
    s.send("go");
    s.wait_for("1-0 {White mates}", MOVE_WAIT);
    assert!(s.text().contains("move a1a8\n"), "{}", s.text());
}

#[test]
fn a_repetition_of_placement_only_is_offered_as_a_draw_not_claimed() {
    // Perfect Chess repeats by placement (rule 6.3), XBoard by whole
    // positions, and a claim XBoard cannot verify forfeits the game (a GUI
    // game was lost so): the kings' triangle below brings the placement of
    // the first position back a third time, the whole position a second.
    const TRIANGLE: [&str; 11] =
        ["c6b6", "a3b3", "b6c6", "b3a3", "c6b7", "a3b3", "b7b6", "b3a3", "b6a6", "a3b3", "a6b6"];
    let mut s = session();
    perfect_chess_from(&mut s, "9/9/9/2k6/p1p6/2P6/K8/9/9 b - - 0 1", &TRIANGLE);
    // Asked to move, the engine offers the draw and plays on (its move,
    // b3a3 here, may repeat the placement again and be offered again).
    s.send("st 0.2");
    s.send("go");
    s.wait_for("move ", MOVE_WAIT);
    s.send("force");
    s.send("ping 1");
    s.wait_for("pong 1", MOVE_WAIT);
    let told = s.take();
    let before_move = told.split("move ").next().unwrap_or_default();
    assert!(told.starts_with("offer draw\n") && before_move.lines().all(|l| l == "offer draw"), "{told}");
    assert!(told.contains("\nmove ") && !told.contains("1/2-1/2"), "{told}");
    // Offered the draw where the rules drew the game, it takes it.
    s.send("undo");
    s.take();
    s.send("draw");
    assert_eq!(s.take(), "offer draw\n");
    // The engine's own move brings the placement back a third time (a
    // queen down, Black takes the draw): the offer comes before the move,
    // as the protocol asks of a claim that the move makes, so XBoard holds
    // it when the opponent sees the move.
    perfect_chess_from(&mut s, "9/9/9/2k6/p1p6/2P6/K8/9/8Q b - - 0 1", &TRIANGLE[..10]);
    s.send("st 0.2");
    s.send("go");
    s.wait_for("move ", MOVE_WAIT);
    s.send("ping 2");
    s.wait_for("pong 2", MOVE_WAIT);
    assert_eq!(s.take(), "offer draw\nmove a6b6\npong 2\n");
    // Where the whole position came back three times, XBoard sees it too:
    // claimed as in standard chess.
    s.send("new");
    s.send("variant perfect");
    assert_knights_shuffled_to_a_claim(&mut s, ["b1c3", "b9c7", "c3b1", "c7b9"]);
}

/// A Perfect Chess game from `fen` with `moves` played in force mode.
fn perfect_chess_from(s: &mut Session<XBoard>, fen: &str, moves: &[&str]) {
    s.send("new");
    s.send("variant perfect");
    s.send("force");
    s.send(&format!("setboard {fen}"));
    for m in moves {
        s.send(&format!("usermove {m}"));
    }
    s.take();
}

/// Plays the knights' round trip `shuffle` twice in force mode: the start
/// position a third time, which the engine told to move claims.
fn assert_knights_shuffled_to_a_claim(s: &mut Session<XBoard>, shuffle: [&str; 4]) {
    s.send("force");
    for m in shuffle.iter().chain(&shuffle) {
        s.send(&format!("usermove {m}"));
    }
    s.take();
    s.send("go");
    assert_eq!(s.take(), "1/2-1/2 {Draw by repetition}\n");
}
