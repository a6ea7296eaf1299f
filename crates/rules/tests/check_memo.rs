//! A position remembers whether its side to move is in check once asked
//! (the search asks three times a node). What it answers must always be
//! what the attack test says now: after every move of random games in
//! every variant, after the move is taken back (when the position before
//! it had been asked, and when it had not), and after a Perplexichess
//! transfer changes a board between moves.

use protean_rules::{with_position, AnyPosition, AnyRules, Bitboard, Color, Position};

/// What `in_check` must say, asked of the attack test directly.
fn attacked_now<B: Bitboard>(p: &Position<B>) -> bool {
    let us = p.side_to_move();
    p.king(us).is_some_and(|k| p.attacked(k, !us))
}

fn agrees(pos: &AnyPosition) -> bool {
    with_position!(pos, p => p.in_check() == attacked_now(p))
}

#[test]
fn in_check_is_the_attack_test_after_every_move_and_take_back() {
    for variant in ["standard", "chess960", "perfect", "onedim", "beyond", "flexichess"] {
        let mut checks = 0;
        for seed in 1..=4u64 {
            let mut pos = AnyRules::by_name(variant).unwrap().start();
            let mut s = seed * 104_729;
            for ply in 0..80 {
                let moves = pos.legal_move_list();
                if moves.is_empty() {
                    break;
                }
                // Half the time the position is asked before its moves are
                // tried, so that taking one back restores a known answer.
                if ply % 2 == 0 {
                    assert!(agrees(&pos), "{variant}: {}", pos.fen());
                }
                for &m in &moves {
                    pos.make(m);
                    assert!(agrees(&pos), "{variant}: after {m:?}: {}", pos.fen());
                    checks += usize::from(with_position!(&pos, p => p.in_check()));
                    with_position!(&mut pos, p => p.unmake());
                    assert!(agrees(&pos), "{variant}: {m:?} taken back: {}", pos.fen());
                }
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                pos.make(moves[(s >> 33) as usize % moves.len()]);
            }
        }
        // The games must have checks in them for the test to mean much.
        assert!(checks > 0, "{variant}: no move gave check");
    }
}

#[test]
fn a_transfer_that_blocks_or_opens_a_check_is_seen() {
    let flexi = AnyRules::by_name("flexichess").unwrap();
    // White to move, in check from the rook on e8; asked first.
    let mut target = flexi.from_fen("4r1k1/8/8/8/8/8/8/4K3 w - - 0 1 -").unwrap();
    let mut source = flexi.from_fen("6k1/8/8/8/8/8/4N3/K7 w - - 0 1 -").unwrap();
    assert!(with_position!(&target, p => p.in_check()));
    // A white knight arrives on e2, between them.
    let mut blocked = target.clone();
    source.transfer_to(&mut blocked, "e2", Color::White).unwrap();
    assert!(agrees(&blocked) && !with_position!(&blocked, p => p.in_check()), "{}", blocked.fen());
    // And the answer of the board that lost the knight follows it too.
    assert!(agrees(&source));
    // Black's rook lifted off the board ends the check.
    let mut elsewhere = flexi.from_fen("6k1/8/8/8/8/8/8/K7 b - - 0 1 -").unwrap();
    assert!(with_position!(&target, p => p.in_check()));
    target.transfer_to(&mut elsewhere, "e8", Color::Black).unwrap();
    assert!(agrees(&target) && !with_position!(&target, p => p.in_check()), "{}", target.fen());
}
