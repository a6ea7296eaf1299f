//! Perft against published counts and against the reference files in
//! `epd/perft/` (made by Stockfish and Fairy-Stockfish, see
//! `engine-tests/make_perft_epd.py`).

use protean_rules::AnyRules;
use std::path::Path;

fn perft(variant: &str, fen: &str, depth: u32) -> u64 {
    AnyRules::by_name(variant).unwrap().from_fen(fen).unwrap().perft(depth)
}

/// The six positions of the Chess Programming Wiki perft page, depth 5.
#[test]
fn classic_positions_to_depth_5() {
    let cases = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4_865_609),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 193_690_690),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 674_624),
        ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 15_833_292),
        ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 89_941_194),
        ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 164_075_551),
    ];
    for (fen, nodes) in cases {
        assert_eq!(perft("standard", fen, 5), nodes, "{fen}");
    }
}

#[test]
fn perfect_chess_from_the_start() {
    let mut pos = AnyRules::by_name("perfect").unwrap().start();
    let counts: Vec<u64> = (1..=4).map(|d| pos.perft(d)).collect();
    assert_eq!(counts, [22, 484, 12_228, 308_253]);
}

fn check_epd(variant: &str, file: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../epd/perft").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut positions = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim();
        for field in parts {
            let (d, n) = field.trim().split_once(' ').unwrap();
            let depth: u32 = d.trim_start_matches('D').parse().unwrap();
            let nodes: u64 = n.trim().parse().unwrap();
            assert_eq!(perft(variant, fen, depth), nodes, "{fen} depth {depth}");
        }
        positions += 1;
    }
    assert!(positions >= 100, "{file} has only {positions} positions");
}

#[test]
fn standard_epd_matches_stockfish() {
    check_epd("standard", "standard.epd");
}

#[test]
fn perfect_epd_matches_fairy_stockfish() {
    check_epd("perfect", "perfect.epd");
}

/// The divide that `protean perft` and the protocols print: the same
/// counts on one thread and on several, in generation order, summing to
/// the perft; at depth 0 the root alone.
#[test]
fn divide_on_threads_matches_perft() {
    use std::sync::atomic::AtomicBool;
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let mut pos = AnyRules::by_name("standard").unwrap().from_fen(fen).unwrap();
    let stop = AtomicBool::new(false);
    let one = pos.divide(3, 1, &stop).unwrap();
    assert_eq!(one.nodes, 97_862);
    assert_eq!(one.moves.len(), 48);
    assert_eq!(one.moves.iter().map(|(_, n)| n).sum::<u64>(), one.nodes);
    let first = pos.legal_move_list()[0];
    assert_eq!(one.moves[0].0, pos.move_text(first));
    assert_eq!(pos.divide(3, 3, &stop), Some(one));
    let root = pos.divide(0, 2, &stop).unwrap();
    assert_eq!((root.moves.len(), root.nodes), (0, 1));
    assert_eq!(pos.divide(3, 2, &AtomicBool::new(true)), None);
}
