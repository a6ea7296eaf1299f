//! The Zobrist keys a position keeps by `make` and `unmake` (the whole
//! position's, the pawns', each colour's other pieces') must be the keys
//! of the same position read afresh from its FEN, after every move of
//! random games in every variant and after each move is taken back; and
//! the pawns' key must change with a pawn, not with a piece, and each
//! colour's key with its own pieces only.

use protean_rules::{with_position, AnyPosition, AnyRules, Color};

mod parallel;

/// The three kinds of key, as the position keeps them.
fn keys(pos: &AnyPosition) -> (u64, u64, [u64; 2]) {
    with_position!(pos, p => (p.key(), p.pawn_key(), Color::ALL.map(|c| p.non_pawn_key(c))))
}

#[test]
fn kept_keys_are_the_keys_of_the_position_read_afresh() {
    parallel::for_each(&["standard", "chess960", "perfect", "onedim", "beyond", "flexichess"], |&variant| {
        let rules = AnyRules::by_name(variant).unwrap();
        // Chess960 compiles its castling from the FEN's rook files, so the
        // rules read afresh (and the whole key) may differ there.
        let whole = variant != "chess960";
        let afresh = |pos: &AnyPosition| {
            let fen = pos.fen();
            let (k, p, n) = keys(&rules.from_fen(&fen).unwrap_or_else(|e| panic!("{variant}: {fen}: {e:?}")));
            (if whole { k } else { keys(pos).0 }, p, n)
        };
        let mut pawn_moves = 0;
        for seed in 1..=3u64 {
            let mut pos = rules.start();
            let mut s = seed * 7_919;
            for _ in 0..60 {
                let moves = pos.legal_move_list();
                if moves.is_empty() {
                    break;
                }
                assert_eq!(keys(&pos), afresh(&pos), "{variant}: {}", pos.fen());
                for &m in &moves {
                    let before = keys(&pos);
                    pos.make(m);
                    let after = keys(&pos);
                    assert_eq!(after, afresh(&pos), "{variant}: after {m:?}: {}", pos.fen());
                    pawn_moves += usize::from(after.1 != before.1);
                    with_position!(&mut pos, p => p.unmake());
                    assert_eq!(keys(&pos), before, "{variant}: {m:?} taken back: {}", pos.fen());
                }
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                pos.make(moves[(s >> 33) as usize % moves.len()]);
            }
        }
        // One-dimensional chess has no pawns.
        let has_pawns = keys(&rules.start()).1 != 0;
        assert_eq!(pawn_moves > 0, has_pawns, "{variant}: {pawn_moves} moves changed the pawns' key");
    });
}

#[test]
fn each_key_follows_its_own_pieces() {
    let rules = AnyRules::by_name("standard").unwrap();
    let key = |fen: &str| keys(&rules.from_fen(fen).unwrap());
    let start = key("4k3/pp4pp/2n5/8/8/2N5/PP4PP/4K3 w - - 0 1");
    // A white pawn on another cell: only the pawns' key changes.
    let pawn = key("4k3/pp4pp/2n5/8/8/P1N5/1P4PP/4K3 w - - 0 1");
    assert_ne!(pawn.1, start.1);
    assert_eq!(pawn.2, start.2);
    // White's knight elsewhere: only White's other pieces' key changes.
    let knight = key("4k3/pp4pp/2n5/8/8/3N4/PP4PP/4K3 w - - 0 1");
    assert_eq!(knight.1, start.1);
    assert_ne!(knight.2[0], start.2[0]);
    assert_eq!(knight.2[1], start.2[1]);
    // Black's king elsewhere: only Black's.
    let king = key("3k4/pp4pp/2n5/8/8/2N5/PP4PP/4K3 w - - 0 1");
    assert_eq!((king.1, king.2[0]), (start.1, start.2[0]));
    assert_ne!(king.2[1], start.2[1]);
}
