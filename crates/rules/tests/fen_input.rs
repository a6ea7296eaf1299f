//! FEN input: every valid FEN round-trips, every broken one is an error
//! that names the problem, and nothing panics.

use protean_rules::AnyRules;

const GOOD: &[(&str, &str)] = &[
    ("standard", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("standard", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("standard", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
    ("perfect", "rnbqkqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKQBNR w KQkq - 0 1"),
    ("perfect", "r3k3r/9/9/9/9/9/9/9/R3K3R b Kq - 12 40"),
];

#[test]
fn valid_fens_round_trip() {
    for (variant, fen) in GOOD {
        let pos = AnyRules::by_name(variant).unwrap().from_fen(fen).unwrap();
        assert_eq!(&pos.fen(), fen);
    }
}

#[test]
fn missing_counters_default_like_stockfish() {
    let rules = AnyRules::by_name("standard").unwrap();
    let pos = rules.from_fen("4k3/8/8/8/8/8/8/4K3 w -").unwrap();
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

#[test]
fn broken_fens_name_the_problem() {
    let rules = AnyRules::by_name("standard").unwrap();
    let cases = [
        ("", "empty"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks"),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "longer than 8"),
        ("rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "has 7 cells"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "'X' is not a piece"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1", "White has 0 kings"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1", "castling right 'X'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "castling right 'K'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "en passant"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1", "en passant cell 'z9'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "half-move clock"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "7 fields"),
        ("4k3/8/8/8/8/8/8/4K2R b - - 0 1", ""),
        ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "not to move is in check"),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "a pawn on a8"),
        ("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "a pawn on a1"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1/", "not a number"),
        ("4k3/8/8/8/8/8/8/4K0003 w - - 0 1", "cannot start with 0"),
    ];
    for (fen, expected) in cases {
        match rules.from_fen(fen) {
            Ok(_) if expected.is_empty() => {}
            Ok(p) => panic!("accepted {fen:?} as {}", p.fen()),
            Err(e) => assert!(e.to_string().contains(expected), "{fen:?}: {e}"),
        }
    }
}

/// Every prefix of valid FENs, and random garbage: an error or a position
/// that round-trips, never a panic.
#[test]
fn truncated_and_garbage_fens_never_panic() {
    let mut seed = 0x1234_5678_9abc_def0u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let alphabet: Vec<char> = "pnbrqkPNBRQK0123456789/ -wbKQkqa1e3h6*x".chars().collect();
    for (variant, fen) in GOOD {
        let rules = AnyRules::by_name(variant).unwrap();
        let mut inputs: Vec<String> = (0..=fen.len()).map(|n| fen[..n].to_string()).collect();
        for _ in 0..3000 {
            let mut s: Vec<char> = fen.chars().collect();
            for _ in 0..(next() % 4 + 1) {
                let i = next() as usize % s.len();
                s[i] = alphabet[next() as usize % alphabet.len()];
            }
            inputs.push(s.into_iter().collect());
            let len = next() as usize % 80;
            inputs.push((0..len).map(|_| alphabet[next() as usize % alphabet.len()]).collect());
        }
        for input in inputs {
            if let Ok(mut pos) = rules.from_fen(&input) {
                let again = rules.from_fen(&pos.fen()).unwrap();
                assert_eq!(again.fen(), pos.fen(), "{input:?}");
                pos.perft(2);
            }
        }
    }
}
