use super::*;
use crate::weights::{per_kind, Layout, PerKind};
use protean_rules::{AnyPosition, AnyRules};

#[test]
fn values_from_mobility_match_chess_experience() {
    let AnyRules::Small(rules) = AnyRules::by_name("standard").unwrap() else { panic!() };
    let v: Vec<i32> = (1..5).map(|k| piece_value(&rules, k)).collect();
    let (n, b, r, q) = (v[0], v[1], v[2], v[3]);
    assert!((290..=350).contains(&n), "knight {n}");
    assert!((300..=360).contains(&b), "bishop {b}");
    assert!((470..=560).contains(&r), "rook {r}");
    assert!((880..=1000).contains(&q), "queen {q}");
    assert!(n < r && b < r && r < q);
}

#[test]
fn symmetric_positions_are_equal_but_for_tempo() {
    for variant in ["standard", "perfect", "beyond"] {
        let pos = AnyRules::by_name(variant).unwrap().start();
        let (score, tempo) = protean_rules::with_position!(&pos, p => {
            let t = EvalTables::new(p.rules());
            (evaluate(p, &t), t.weights()[scalar(Scalar::Tempo)].mg)
        });
        // All the start's pieces on the board: the middle-game tempo.
        assert_eq!(score, tempo, "{variant}");
    }
}

/// `fen` seen from the other side: the ranks in reverse order, the
/// colours of the pieces, the side to move, the castling rights and
/// the en-passant rank swapped (a board whose tiles stay put).
fn colours_swapped(fen: &str) -> String {
    let swap = |c: char| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
    let fields: Vec<&str> = fen.split(' ').collect();
    let ranks: Vec<String> = fields[0].split('/').rev().map(|r| r.chars().map(swap).collect()).collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    let mut castling: Vec<char> = fields[2].chars().map(swap).collect();
    castling.sort_by_key(|&c| (c.is_ascii_lowercase(), c));
    let en_passant = match fields[3] {
        "-" => "-".to_string(),
        cell => format!("{}{}", &cell[..1], ranks.len() + 1 - cell[1..].parse::<usize>().unwrap()),
    };
    format!(
        "{} {side} {} {en_passant} {}",
        ranks.join("/"),
        castling.into_iter().collect::<String>(),
        fields[4..].join(" ")
    )
}

/// Every term is written for either side alike: a position and its
/// mirror image with the colours swapped evaluate the same for the
/// side to move, over random games (an asymmetric term, a table built
/// for one colour only, shows here).
#[test]
fn a_position_and_its_colour_swapped_mirror_evaluate_alike() {
    let mut random = crate::skill::Random::seeded(7);
    for variant in ["standard", "perfect"] {
        let rules = AnyRules::by_name(variant).unwrap();
        for _game in 0..30 {
            let mut pos = rules.start();
            for _ply in 0..80 {
                let moves = pos.legal_move_list();
                if moves.is_empty() {
                    break;
                }
                pos.make(moves[random.below(moves.len() as u64) as usize]);
                let mirror = rules.from_fen(&colours_swapped(&pos.fen())).unwrap();
                let [a, b] = [&pos, &mirror]
                    .map(|p| protean_rules::with_position!(p, q => evaluate(q, &EvalTables::new(q.rules()))));
                assert_eq!(a, b, "{variant}: {} against its mirror {}", pos.fen(), mirror.fen());
            }
        }
    }
}

/// The tables a rule change's rules get from the root's
/// (`for_changed_rules`) are those built from nothing, along random
/// lines of Flexichess with rule changes two and three deep, from
/// roots with and without changes of their own.
#[test]
fn tables_for_changed_rules_are_those_built_from_nothing() {
    let mut random = crate::skill::Random::seeded(11);
    let rules = AnyRules::by_name("flexichess").unwrap();
    let roots = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -",
        "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16 P=fmWfcF,B=F",
    ];
    let mut compared = 0;
    for fen in roots {
        let root = rules.from_fen(fen).unwrap();
        protean_rules::with_position!(&root, p => {
            let root_tables = EvalTables::new(p.rules());
            for _line in 0..12 {
                let mut pos = p.clone();
                for _ply in 0..6 {
                    let mut moves = protean_rules::MoveList::new();
                    pos.legal_moves(&mut moves);
                    let changes: Vec<_> = moves.iter().copied().filter(|m| m.kind == protean_rules::MoveKind::Redefine).collect();
                    let pick = if !changes.is_empty() && random.below(2) == 0 { changes[random.below(changes.len() as u64) as usize] } else { moves[random.below(moves.len() as u64) as usize] };
                    pos.make(pick);
                    assert_eq!(root_tables.for_changed_rules(pos.rules()), EvalTables::new(pos.rules()), "{fen} then {}", pos.fen());
                    compared += 1;
                }
            }
        });
    }
    assert!(compared >= 100);
}

/// A piece-square weight counts for a piece of either colour on its
/// square, seen from the piece's side, on either wing.
#[test]
fn piece_square_weights_count_from_the_owners_side() {
    let rules = AnyRules::by_name("standard").unwrap();
    let layout = Layout::of(rules.variant());
    let c3 = layout.square(1, layout.parse_square("c3").unwrap());
    for (fen, sides) in [
        ("4k3/8/8/8/8/2N5/8/4K3 w - - 0 1", [ONE, 0]),
        ("4k3/8/8/8/8/5N2/8/4K3 w - - 0 1", [ONE, 0]),
        ("4k3/8/5n2/8/8/8/8/4K3 w - - 0 1", [0, ONE]),
        ("4k3/8/8/8/8/5n2/8/4K3 w - - 0 1", [0, 0]),
    ] {
        assert_eq!(counted_raw("standard", fen, c3), sides, "{fen}");
        let pos = rules.from_fen(fen).unwrap();
        let gain = protean_rules::with_position!(&pos, p => {
            let weighted = EvalTables::with_weights(p.rules(), "square N c3 40 40").unwrap();
            evaluate(p, &weighted) - evaluate(p, &EvalTables::with_weights(p.rules(), "").unwrap())
        });
        assert_eq!(gain, 40 * (sides[0] - sides[1]) / ONE, "{fen}");
    }
}

/// Each side's count of one term, by a recorder of features.
struct Counts {
    index: usize,
    sides: [i32; 2],
}
impl Terms for Counts {
    fn add(&mut self, color: Color, index: usize, feature: i32) {
        if index == self.index {
            self.sides[color as usize] += feature;
        }
    }
}
/// Each side's feature of the term at `index` in `fen` (in 256ths,
/// [`ONE`]).
fn counted_raw(variant: &str, fen: &str, index: usize) -> [i32; 2] {
    let pos = AnyRules::by_name(variant).unwrap().from_fen(fen).unwrap();
    protean_rules::with_position!(&pos, p => {
        let t = EvalTables::new(p.rules());
        let mut counts = Counts { index, sides: [0, 0] };
        terms(p, &t, &mut counts);
        counts.sides
    })
}

/// Each side's count of `term` in `fen`.
fn counted(variant: &str, fen: &str, term: Scalar) -> [i32; 2] {
    counted_raw(variant, fen, scalar(term)).map(|f| f / ONE)
}

#[test]
fn pawn_threats_unsafe_reach_bishop_pairs_and_open_files_are_counted() {
    // White's d-pawn attacks the knight on e5 and the rook on c5, not
    // the pawn beside them nor the king; Black's f6-pawn covers e5 and g5.
    let fen = "4k3/8/5p2/2r1n1p1/3P4/8/8/4K3 w - - 0 1";
    assert_eq!(counted("standard", fen, Scalar::PawnThreat), [2, 0]);
    // The knight on g3 reaches e4, f5, h5, e2, f1 and h1; the g6-pawn
    // covers f5 and h5.
    let fen = "4k3/8/6p1/8/8/6N1/8/4K3 w - - 0 1";
    assert_eq!(counted("standard", fen, Scalar::ReachIntoPawnAttacks), [2, 0]);
    // Bishops on both colours are a pair; two on one colour are not.
    assert_eq!(counted("standard", "2b1kb2/8/8/8/8/8/8/2B1K1B1 w - - 0 1", Scalar::BoundPair), [0, 1]);
    // The rook on the pawnless d-file counts; the one behind its own
    // pawn on a-file does not; Black's queen on its open h-file does.
    let fen = "4k2q/8/8/8/8/8/P7/R2RK3 w - - 0 1";
    assert_eq!(counted("standard", fen, Scalar::OpenFile), [1, 1]);
    // White's king on g1 has pawns ahead on f, g and h; Black's on e8
    // has none on d, e or f.
    let fen = "4k3/8/8/8/8/8/5PPP/6K1 w - - 0 1";
    assert_eq!(counted("standard", fen, Scalar::KingOpenFile), [0, 3]);
}

#[test]
fn threats_by_lesser_pieces_and_hanging_pieces_are_counted() {
    // White's knight on d4 attacks the rook on c6 and the queen on e6
    // (both worth more) and the bishop on f5 (not clearly more); no
    // black piece attacks a white one worth more.
    let fen = "4k3/8/2r1q3/5b2/3N4/8/8/4K3 w - - 0 1";
    assert_eq!(counted("standard", fen, Scalar::LesserAttacks), [2, 0]);
    // A rook attacking a queen counts; a queen attacking a rook does not.
    assert_eq!(counted("standard", "3qk3/8/8/8/8/8/8/3RK3 w - - 0 1", Scalar::LesserAttacks), [1, 0]);
    // The knight on d4 attacks the bishop on b5, which nothing
    // defends, and the rook on c6, which the queen on a8 defends;
    // Black's rook attacks the knight on c1, which the king defends,
    // and Black's pawn on e5 the knight on d4, which nothing defends.
    let fen = "q3k3/8/2r5/1b2p3/3N4/8/8/2NK4 w - - 0 1";
    assert_eq!(counted("standard", fen, Scalar::Hanging), [1, 1]);
}

#[test]
fn safe_checks_are_counted() {
    // White's rook checks safely from a8 and its knight from e7 (f6 is
    // covered by the g7-pawn); Black's knight checks safely from e2
    // (f3 is covered by the g2-pawn). No king or pawn counts.
    let fen = "6k1/5ppp/8/3N4/3n4/8/5PPP/R5K1 w - - 0 1";
    assert_eq!(counted("standard", fen, Scalar::SafeCheck), [2, 1]);
    // Black's rook checks from b1, which White's rook covers; its
    // own cell b8 cuts White's rook off the eighth rank.
    let fen = "1r4k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
    assert_eq!(counted("standard", fen, Scalar::SafeCheck), [0, 0]);
}

#[test]
fn king_danger_is_the_square_of_its_parts() {
    let danger = |fen| counted_raw("standard", fen, scalar(Scalar::KingDanger));
    // No piece near either king: nothing.
    assert_eq!(danger("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), [0, 0]);
    // A rook on a7 reaches f7, g7 and h7 of g8's ring (one attacker, 2;
    // three cells beside the king, 9; three only the king holds, 21),
    // checks safely from a8 (30) and unsafely from g7 (6): 68 units, less
    // 35 for an attack without a queen or its like.
    assert_eq!(danger("6k1/R7/8/8/8/8/8/6K1 w - - 0 1"), [33 * 33, 0]);
    // The queen on a1 reaches f6, g7 and h8 of g8's ring (f6 to h8): one
    // attacker (2), two cells beside the king (6), three cells only the
    // king holds (21), safe checks from a2 and a8 (60) and unsafe ones
    // from g7 and h8 (12); its three cells on the king's flank (f to h,
    // ranks 4 to 8) are too few to count, as are the king's five there.
    assert_eq!(danger("6k1/8/8/8/8/8/8/Q5K1 w - - 0 1"), [101 * 101, 0]);
}

#[test]
fn the_danger_ring_and_flank_stand_off_the_edge() {
    let pos = AnyRules::by_name("standard").unwrap().from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    protean_rules::with_position!(&pos, p => {
        let t = EvalTables::new(p.rules());
        let cells = |b: &dyn Fn(usize) -> bool| (0..64).filter(|&c| b(c)).collect::<Vec<_>>();
        let g1 = 6;
        // g1's ring is the 3x3 block f1-h3; a1's is a1-c3.
        assert_eq!(cells(&|c| t.danger_ring[g1].has(c)), [5, 6, 7, 13, 14, 15, 21, 22, 23]);
        assert_eq!(cells(&|c| t.danger_ring[0].has(c)), [0, 1, 2, 8, 9, 10, 16, 17, 18]);
        // White's g1 flank: files f to h, ranks 1 to 5; Black's g8 flank:
        // the same files, ranks 4 to 8.
        let flank = |color: Color, cell: usize| cells(&|c| t.king_flank[color as usize][cell].has(c));
        let files_fgh = |ranks: std::ops::Range<usize>| {
            ranks.flat_map(|r| [8 * r + 5, 8 * r + 6, 8 * r + 7]).collect::<Vec<_>>()
        };
        assert_eq!(flank(Color::White, g1), files_fgh(0..5));
        assert_eq!(flank(Color::Black, 62), files_fgh(3..8));
    });
}

#[test]
fn trapped_pieces_count_the_cells_they_lack() {
    // White's bishop on a1 is shut in by its b2-pawn (2 short of 2 free
    // cells) and its knight on h1 reaches only f2 and g3, which the e3-
    // and h4-pawns attack (2 short); Black's rook on a8 is shut in (2),
    // its knight on b8 free.
    let fen = "rn2k3/p7/8/8/6pp/4p3/1P6/B3K2N w - - 0 1";
    assert_eq!(counted("standard", fen, Scalar::Trapped), [4, 2]);
}

#[test]
fn safe_mobility_counts_cells_outside_enemy_pawn_attacks_and_own_pawns() {
    // White's knight on g3 covers e4, f1 and h1 safely (e2 holds its own
    // pawn, the g6-pawn attacks f5 and h5): 3 cells, (3 - 2) / (8 + 3).
    // Its bishop on a1 has only its own b2-pawn: 0 cells, -2/8. Black's
    // rook on a8 covers a7 to a4, a2, a1 (the bishop it attacks) and b8
    // to d8, not a3 (the b2-pawn attacks it) nor its own king on e8:
    // 9 cells, 7/17.
    let fen = "r3k3/8/6p1/8/8/6N1/1P2P3/B3K3 w - - 0 1";
    let feature = |m: i32| ONE * (m - 2) / (8 + m);
    assert_eq!(counted_raw("standard", fen, scalar(Scalar::SafeMobility)), [feature(3) + feature(0), feature(9)]);
}

#[test]
fn king_placement_reads_the_rank_from_its_own_side_and_the_file_from_the_edge() {
    let placement = |variant: &str, fen: &str| counted_raw(variant, fen, scalar(Scalar::KingPlacement));
    // b1 is where a king stands best (256); e8 is Black's d1 (0).
    assert_eq!(placement("standard", "4k3/8/8/8/8/8/8/1K6 w - - 0 1"), [256, 0]);
    // d4 is a king come out (-198); g7 is Black's b2 (208).
    assert_eq!(placement("standard", "8/6k1/8/8/3K4/8/8/8 w - - 0 1"), [-198, 208]);
    // On nine files the fifth from the edge counts as the fourth: e1 is d1.
    let perfect = AnyRules::by_name("perfect").unwrap().start().fen();
    assert_eq!(placement("perfect", &perfect), [0, 0]);
    // A board of one rank has no first rank to keep to.
    let onedim = AnyRules::by_name("onedim").unwrap().start().fen();
    assert_eq!(placement("onedim", &onedim), [0, 0]);
}

#[test]
fn passed_pawns_count_their_blockers_and_the_kings_near_them() {
    // White's e6-passer is blocked by Black's king on its stop cell
    // e7; the b2-pawn is no passer (the a7-pawn guards its path), nor
    // is the a7-pawn; Black's h3-passer has its stop h2 free.
    let fen = "8/p3k3/4P3/8/8/7p/1P6/4K3 w - - 0 1";
    assert_eq!(counted("standard", fen, Scalar::PassedBlocked), [1, 0]);
    // Each passer has come 4 of its 6 ranks (170/256). White's stop e7
    // is 0 steps from Black's king and 6 from White's; Black's stop h2
    // is 3 from White's king and 5 from Black's.
    let advance = 4 * ONE / 6;
    assert_eq!(
        counted_raw("standard", fen, scalar(Scalar::PassedKingDistance)),
        [(0 - 6) * advance, (3 - 5) * advance]
    );
}

#[test]
fn connected_pawns_are_counted() {
    // White: c3 defends d4, e4 stands beside d4 (d4 and e4 count),
    // a2 and h2 stand alone. Black: f7 and g6 are a chain (g6
    // counts), b7 and c6 a chain (c6 counts), a5 alone.
    let fen = "4k3/1p3p2/2p3p1/p7/3PP3/2P5/P6P/4K3 w - - 0 1";
    assert_eq!(counted("standard", fen, Scalar::Connected), [2, 2]);
    // d4 and e4 have come 2 of 6 ranks, g6 and c6 1 of 6.
    assert_eq!(counted_raw("standard", fen, scalar(Scalar::ConnectedAdvance)), [2 * (2 * ONE / 6), 2 * (ONE / 6)]);
}

#[test]
fn outposts_and_how_far_pieces_stand_up_the_board_are_counted() {
    // The knight on e5 is defended by the d4-pawn and no black pawn on
    // the d- or f-file can chase it; the bishop on b5, defended by the
    // a4-pawn, can be chased by the c6-pawn.
    let fen = "4k3/8/2p5/1B2N3/P2P4/8/8/4K3 w - - 0 1";
    assert_eq!(counted("standard", fen, Scalar::Outpost), [1, 0]);
    // The knight stands on the fifth rank, 4 of 7 ranks up; both
    // kings stand on their first ranks.
    let knight = 1;
    assert_eq!(counted_raw("standard", fen, per_kind(PerKind::Advance, knight)), [4 * 256 / 7, 0]);
    assert_eq!(counted_raw("standard", fen, per_kind(PerKind::Advance, 5)), [0, 0]);
    assert_eq!(
        counted_raw("standard", "8/8/8/3k4/8/8/8/4K3 w - - 0 1", per_kind(PerKind::Advance, 5)),
        [0, 3 * 256 / 7]
    );
}

#[test]
fn the_one_dimensional_pieces_have_sane_values() {
    let AnyRules::Small(rules) = AnyRules::by_name("onedim").unwrap() else { panic!() };
    let v: Vec<i32> = (1..5).map(|k| piece_value(&rules, k)).collect();
    let (q, r, b, n) = (v[0], v[1], v[2], v[3]);
    assert!(n > 100 && b > 100 && r > 100, "{v:?}");
    assert!(q > r && q > b && q > n, "{v:?}");
}

/// A sum that takes every term through `add`, whole features and
/// placed pieces too: the reference for the sum's own `count` and
/// `place`.
struct AddedOnly<'a>(Summed<'a>);

impl Terms for AddedOnly<'_> {
    fn wants(&self, index: usize) -> bool {
        self.0.wants(index)
    }
    fn add(&mut self, color: Color, index: usize, feature: i32) {
        self.0.add(color, index, feature);
    }
}

#[test]
fn cached_and_counted_sums_are_the_evaluation() {
    // One cache through random games of every variant (rule changes
    // and tile shifts included): each evaluation equals the uncached
    // one, whether its pawns were cached or not, and the one that
    // weighs whole features as 256ths divided by 256 and each placed
    // piece's terms one by one; and the trace (UCI's `eval`) adds up to
    // it, its rows within rounding of the blend, the tempo the side to
    // move's.
    let mut cache = PawnCache::new();
    let mut hits = 0;
    for variant in ["standard", "perfect", "onedim", "beyond", "flexichess"] {
        let mut pos = AnyRules::by_name(variant).unwrap().start();
        let mut s = 12345u64;
        for _ in 0..150 {
            let moves = pos.legal_move_list();
            if moves.is_empty() {
                break;
            }
            protean_rules::with_position!(&pos, p => {
                let t = EvalTables::new(p.rules());
                hits += usize::from(cache.entries.iter().any(|e| e.0 == PawnCache::key(p, &t)));
                assert_eq!(evaluate_cached(p, &t, &mut cache), evaluate(p, &t), "{variant}: {}", p.fen());
                assert_eq!(evaluate_cached(p, &t, &mut cache), evaluate(p, &t), "{variant}, cached: {}", p.fen());
                let mut added = AddedOnly(Summed { weights: &t.weights, sides: [Score::default(); 2] });
                let phase = terms(p, &t, &mut added);
                assert_eq!(finish(p, &t, added.0.sides, phase), evaluate(p, &t), "{variant}, added: {}", p.fen());
                let tr = trace(p, &t);
                let stm = if p.side_to_move() == Color::White { 1 } else { -1 };
                assert_eq!(tr.white_view, stm * evaluate(p, &t), "{variant}, traced: {}", p.fen());
                let mut rows = Score::default();
                for row in &tr.rows {
                    rows += Score::new(row.sides[0].mg - row.sides[1].mg, row.sides[0].eg - row.sides[1].eg);
                }
                assert!((taper(rows, tr.phase) - tr.white_view).abs() <= 1, "{variant}, rows: {}", p.fen());
                let tempo = tr.rows.iter().find(|r| r.name == "tempo").expect("a tempo row");
                assert_eq!(tempo.sides[!p.side_to_move() as usize], Score::default());
            });
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            pos.make(moves[(s >> 33) as usize % moves.len()]);
        }
    }
    assert!(hits > 100, "{hits} positions found their pawns cached");
}

#[test]
fn an_extra_queen_is_winning() {
    let rules = AnyRules::by_name("standard").unwrap();
    let pos = rules.from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
    let score = protean_rules::with_position!(&pos, p => evaluate(p, &EvalTables::new(p.rules())));
    assert!(score > 700, "{score}");
}

fn beyond(rows: [&str; 8], rest: &str) -> i32 {
    let rifts = "****************";
    let mut all = vec![rifts.to_string(); 4];
    all.extend(rows.iter().map(|r| format!("****{r}****")));
    all.extend(vec![rifts.to_string(); 4]);
    let pos = AnyRules::by_name("beyond").unwrap().from_fen(&format!("{} {rest}", all.join("/"))).unwrap();
    protean_rules::with_position!(&pos, p => evaluate(p, &EvalTables::new(p.rules())))
}

#[test]
fn rifts_beside_a_king_cost_it() {
    let open = beyond(["4k3", "8", "8", "8", "8", "8", "8", "R3K3"], "w - - 0 9 -");
    let boxed = beyond(["4k3", "8", "8", "8", "8", "8", "3***2", "R3K3"], "w - - 0 9 -");
    assert!(boxed < open, "{boxed} against {open}");
}

#[test]
fn a_rift_one_shift_from_opening_a_line_onto_the_king_is_a_threat() {
    // The rift on e5 stands between the black rook and the white king;
    // with d5 vacant a tile can be shifted in and the file opens.
    let fillable = beyond(["4r1k1", "8", "8", "4*3", "8", "8", "8", "R3K3"], "w - - 0 9 -");
    let sealed = beyond(["4r1k1", "8", "8", "3***2", "8", "8", "8", "R3K3"], "w - - 0 9 -");
    assert!(fillable < sealed - 20, "{fillable} against {sealed}");
}

#[test]
fn a_pawn_next_to_its_promotion_rank_is_worth_more() {
    let near = beyond(["4k3", "P7", "8", "8", "8", "8", "8", "4K3"], "w - - 0 9 -");
    let far = beyond(["4k3", "8", "8", "P7", "8", "8", "8", "4K3"], "w - - 0 9 -");
    assert!(near > far + 40, "{near} against {far}");
}

#[test]
fn a_redefined_piece_is_valued_from_its_new_moves() {
    let mut pos = AnyRules::by_name("flexichess").unwrap().start();
    let knight =
        |p: &protean_rules::AnyPosition| protean_rules::with_position!(p, q => EvalTables::new(q.rules()).value(1));
    let before = knight(&pos);
    pos.play("N=QN").unwrap();
    let amazon = knight(&pos);
    pos.play("N=W").unwrap();
    let wazir = knight(&pos);
    assert!(amazon > 1000 && wazir < before && before < amazon, "wazir {wazir}, knight {before}, amazon {amazon}");
}

#[test]
fn the_trace_names_the_terms_that_differ() {
    let rules = AnyRules::by_name("standard").unwrap();
    let pos = rules.from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
    let AnyPosition::Small(p) = &pos else { panic!() };
    let t = EvalTables::new(p.rules());
    let tr = trace(p, &t);
    let queen = tr.rows.iter().find(|r| r.name == "value Q").expect("the queen's value");
    assert!(queen.sides[0].mg > 800 && queen.sides[1] == Score::default(), "{queen:?}");
    assert!(tr.rows.iter().all(|r| r.name != "value P"), "no pawn, no pawn row");
}
