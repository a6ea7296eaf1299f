use super::*;
use protean_rules::AnyRules;

/// A network of small pseudo-random weights for `kinds` on `cells`.
fn random_network(kinds: usize, cells: usize, seed: u64) -> Network {
    random_network_of(kinds, cells, seed, Activation::Clipped)
}

fn random_network_of(kinds: usize, cells: usize, seed: u64, activation: Activation) -> Network {
    let mut state = seed;
    let mut next = move |range: i32| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 33) as i32).rem_euclid(2 * range + 1) - range
    };
    let mut units = |range| std::array::from_fn(|_| next(range) as i16);
    let hidden_weights = (0..2 * kinds * cells).map(|_| units(60)).collect();
    let hidden_biases = units(100);
    Network::new(kinds, cells, false, activation, hidden_weights, hidden_biases, [units(120), units(120)], 1234, QB)
        .unwrap()
}

/// `net` with its output's weights read at another scale.
fn at_scale(net: &Network, output_scale: i32) -> Network {
    Network::new(
        net.kinds,
        net.cells,
        net.on_top,
        net.activation,
        net.hidden_weights.clone(),
        net.hidden_biases,
        net.output_weights,
        net.output_bias,
        output_scale,
    )
    .unwrap()
}

/// The same evaluation worked out another way: floats, the inputs
/// listed from the board's cells one by one.
fn by_floats<B: Bitboard>(net: &Network, pos: &Position<B>) -> f64 {
    let g = pos.rules().geometry;
    let hidden = |perspective: Color| -> Vec<f64> {
        let mut h: Vec<f64> = net.hidden_biases.iter().map(|&b| b as f64 / QA as f64).collect();
        for cell in 0..g.cells() {
            if let Some(piece) = pos.piece_at(cell) {
                let own = piece.color() == perspective;
                let seen = if perspective == Color::White { cell } else { g.mirror_rank(cell) };
                let index = ((!own as usize) * net.kinds + piece.kind()) * net.cells + seen;
                for (u, w) in h.iter_mut().zip(&net.hidden_weights[index]) {
                    *u += *w as f64 / QA as f64;
                }
            }
        }
        h.into_iter()
            .map(|u| match net.activation {
                Activation::Clipped => u.clamp(0.0, 1.0),
                Activation::Squared => u.clamp(0.0, 1.0).powi(2),
            })
            .collect()
    };
    let us = pos.side_to_move();
    let out: f64 = [hidden(us), hidden(!us)]
        .iter()
        .zip(&net.output_weights)
        .map(|(h, w)| h.iter().zip(w).map(|(u, &w)| u * w as f64 / net.output_scale as f64).sum::<f64>())
        .sum();
    (out + net.output_bias as f64 / (QA * net.output_scale) as f64) * SCALE as f64
}

#[test]
fn the_evaluation_is_the_float_network_up_to_rounding() {
    for (variant, fens) in [
        (
            "standard",
            vec![
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                "r3k2r/pp1n1ppp/2p1b3/q7/3P4/2N2N2/PP3PPP/R2QK2R w KQkq - 2 12",
                "8/5k2/8/3K4/8/8/1P6/8 w - - 0 60",
            ],
        ),
        ("perfect", vec![]),
        ("onedim", vec![]),
    ] {
        let rules = AnyRules::by_name(variant).unwrap();
        let mut positions: Vec<_> = fens.iter().map(|f| rules.from_fen(f).unwrap()).collect();
        positions.push(rules.start());
        for pos in positions {
            protean_rules::with_position!(&pos, p => {
                for activation in [Activation::Clipped, Activation::Squared] {
                    let net = random_network_of(p.rules().piece_types, p.rules().geometry.cells(), 7, activation);
                    assert!(net.fits(p.rules()));
                    let (exact, float) = (net.evaluate(p), by_floats(&net, p));
                    // Truncated once at the end (the squared units once
                    // more, by a side): within a centipawn.
                    assert!((exact as f64 - float).abs() <= 1.0, "{variant} {activation:?} {}: {exact} against {float}", p.fen());
                }
            });
        }
    }
}

/// One accumulator carried along random games, which make and unmake
/// moves, jump back to their start and meet a second network, gives
/// at every step what summing afresh gives.
#[test]
fn the_accumulator_follows_the_pieces_through_games() {
    let mut state = 5u64;
    let mut below = move |n: usize| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) as usize % n
    };
    let mut compared = 0;
    for variant in ["standard", "perfect", "onedim", "beyond"] {
        let rules = AnyRules::by_name(variant).unwrap();
        protean_rules::with_position!(&rules.start(), start => {
            let (kinds, cells) = (start.rules().piece_types, start.rules().geometry.cells());
            let nets = [random_network(kinds, cells, 1), random_network(kinds, cells, 2)];
            let mut accumulator = Accumulator::new(kinds);
            for _game in 0..4 {
                let mut pos = start.clone();
                for _ply in 0..60 {
                    let mut moves = protean_rules::MoveList::new();
                    pos.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    if below(5) == 0 && pos.last_move().is_some() {
                        pos.unmake();
                    } else {
                        pos.make(moves[below(moves.len())]);
                    }
                    let net = &nets[usize::from(below(8) == 0)];
                    assert_eq!(net.evaluate_from(&pos, &mut accumulator), net.evaluate(&pos), "{variant}: {}", pos.fen());
                    compared += 1;
                }
            }
        });
    }
    assert!(compared >= 600, "{compared}");
}

#[test]
fn a_position_and_its_colour_swapped_mirror_evaluate_alike() {
    let rules = AnyRules::by_name("standard").unwrap();
    let net = random_network(6, 64, 11);
    let a = rules.from_fen("r3k2r/pp1n1ppp/2p1b3/q7/3P4/2N2N2/PP3PPP/R2QK2R w KQkq - 2 12").unwrap();
    let b = rules.from_fen("r2qk2r/pp3ppp/2n2n2/3p4/Q7/2P1B3/PP1N1PPP/R3K2R b KQkq - 2 12").unwrap();
    let eval = |pos: &protean_rules::AnyPosition| protean_rules::with_position!(pos, p => net.evaluate(p));
    assert_eq!(eval(&a), eval(&b));
    assert_ne!(eval(&a), eval(&rules.start()));
}

#[test]
fn a_file_reads_back_the_same_and_a_bad_one_is_named() {
    let net = random_network(6, 64, 3);
    let bytes = net.to_bytes();
    assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    let short = Network::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err();
    assert!(short.0.contains("ends"), "{short}");
    let mut long = bytes.clone();
    long.push(0);
    assert!(Network::from_bytes(&long).unwrap_err().0.contains("1 bytes after"));
    assert!(Network::from_bytes(b"PRTNNUE0").unwrap_err().0.contains("PRTNNUE3"));
    let mut wide = bytes.clone();
    wide[16..20].copy_from_slice(&256u32.to_le_bytes());
    assert!(Network::from_bytes(&wide).unwrap_err().0.contains("256 units"));
    let mut on_top = bytes.clone();
    on_top[20] = 1;
    assert!(Network::from_bytes(&on_top).unwrap().on_top);
    on_top[20] = 2;
    assert!(Network::from_bytes(&on_top).unwrap_err().0.contains("2 where 0"));
    let mut squared = bytes.clone();
    squared[24] = 1;
    assert_eq!(Network::from_bytes(&squared).unwrap().activation, Activation::Squared);
    squared[24] = 2;
    assert!(Network::from_bytes(&squared).unwrap_err().0.contains("activation 2"));
    let mut scaled = bytes.clone();
    scaled[28..32].copy_from_slice(&64u32.to_le_bytes());
    assert_eq!(Network::from_bytes(&scaled).unwrap(), at_scale(&net, 64));
    for bad in [0, QB + 1] {
        scaled[28..32].copy_from_slice(&(bad as u32).to_le_bytes());
        let e = Network::from_bytes(&scaled).unwrap_err().0;
        assert!(e.contains(&format!("output scale of {bad}")), "{e}");
    }
    // The output's weights reach 120 here: beyond twice a scale of 59.
    scaled[28..32].copy_from_slice(&59u32.to_le_bytes());
    assert!(Network::from_bytes(&scaled).unwrap_err().0.contains("beyond twice the output scale (59)"));
    // The earlier forms: no output scale word, their scale 64; the
    // first without an activation word either, its units clipped.
    let mut second = b"PRTNNUE2".to_vec();
    second.extend(&bytes[8..28]);
    second.extend(&bytes[32..]);
    assert_eq!(Network::from_bytes(&second).unwrap(), at_scale(&net, 64));
    let mut first = b"PRTNNUE1".to_vec();
    first.extend(&bytes[8..24]);
    first.extend(&bytes[32..]);
    assert_eq!(Network::from_bytes(&first).unwrap(), at_scale(&net, 64));
    // A network of 6 kinds on 64 cells fits standard chess, not Perfect Chess.
    let rules = AnyRules::by_name("perfect").unwrap();
    protean_rules::with_position!(&rules.start(), p => assert!(!net.fits(p.rules())));
}

#[test]
fn every_built_in_network_reads_and_fits_its_variant() {
    for (name, bytes) in BUILT_IN {
        let net = Network::from_bytes(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let rules = AnyRules::by_name(name).unwrap();
        protean_rules::with_position!(&rules.start(), p => {
            assert!(net.fits(p.rules()), "{name}");
            assert!(built_in(p.rules()).is_some());
        });
    }
}

#[test]
fn a_variant_takes_the_fitted_files_of_the_game_it_evaluates_as() {
    // Chess960 and a user's file that only renames chess evaluate with
    // standard chess's network and weights; a file with a nightrider for
    // the knight, which no pawn promotes to, with neither (a network is
    // lent through a changed piece only where promotion is the same: the
    // next test); Flexichess (whose rules change) with weights of its own
    // and no network.
    protean_rules::variants::load("[renamedchess:chess]\n\n[nightchess:chess]\nknight = -\ncustomPiece1 = n:NN\n")
        .expect("the test's variants load");
    let files = |name: &str| {
        let rules = AnyRules::by_name(name).unwrap();
        protean_rules::with_position!(&rules.start(), p => (
            built_in(p.rules()).map(|net| net as *const Network),
            crate::weights::Weights::built_in(&p.rules().variant),
        ))
    };
    let standard = files("standard");
    assert!(standard.0.is_some() && standard.1.is_some());
    assert_eq!(files("chess960"), standard);
    assert_eq!(files("renamedchess"), standard);
    assert_eq!(files("nightchess"), (None, None));
    let flexichess = files("flexichess");
    assert!(flexichess.0.is_none() && flexichess.1.is_some_and(|own| Some(own) != standard.1));
    assert_ne!(files("perfect"), standard);
}

#[test]
fn a_variant_that_puts_a_piece_in_place_of_another_reads_a_network_through_its_kinds() {
    // Chess with an archbishop for the queen (no repository file has that
    // game, so nothing but lending reaches it), its kinds in another
    // order (P N B R K A against standard chess's P N B R Q K): the
    // network lent reads the archbishop as the queen, so the same
    // placements evaluate alike. With two pieces changed, no network is
    // lent.
    protean_rules::variants::load(
        "[archbishopforqueen:chess]\nqueen = -\narchbishop = a\n\
         startFen = rnbakbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBAKBNR w KQkq - 0 1\npromotionPieceTypes = arbn\n\n\
         [twochanged:archbishopforqueen]\nbishop = -\nchancellor = c\n\
         startFen = rncakcnr/pppppppp/8/8/8/8/PPPPPPPP/RNCAKCNR w KQkq - 0 1\npromotionPieceTypes = arcn\n",
    )
    .expect("the test's variants load");
    let evaluate = |name: &str, fen: &str| {
        let pos = AnyRules::by_name(name).unwrap().from_fen(fen).unwrap();
        protean_rules::with_position!(&pos, p => {
            let letters: String = p.rules().variant.pieces.iter().map(|piece| piece.letter).collect();
            (letters, built_in(p.rules()).map(|net| net.evaluate(p)))
        })
    };
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "r3k2r/ppp2ppp/2n5/3qp3/8/2N5/PPPQ1PPP/R3K2R b KQkq - 0 9",
    ];
    for fen in fens {
        let (standard_kinds, standard) = evaluate("standard", fen);
        let (placement, rest) = fen.split_once(' ').unwrap();
        let placement = placement.replace('q', "a").replace('Q', "A");
        let (kinds, lent) = evaluate("archbishopforqueen", &format!("{placement} {rest}"));
        assert_eq!((standard_kinds.as_str(), kinds.as_str()), ("PNBRQK", "PNBRKA"));
        assert!(standard.is_some());
        assert_eq!(lent, standard, "{fen}");
    }
    let (_, none) = evaluate("twochanged", "rncakcnr/pppppppp/8/8/8/8/PPPPPPPP/RNCAKCNR w KQkq - 0 1");
    assert_eq!(none, None);
}

#[test]
fn a_network_stretched_across_boards_reads_each_piece_where_the_lenders_stands() {
    // Chess on 9x9 with a chancellor: of the built-in games' networks
    // (Capablanca chess's file lends more), standard chess's is lent
    // across boards, its kinds matched by movement and the chancellor
    // read as the queen (the nearest in value). The 9x9 board's fifth
    // file and fifth rank read the same cells as the files and ranks
    // after them, so a standard position spread out over the rest of the
    // board, with or without a chancellor for its queens, reads the
    // lender's inputs exactly: the evaluations are the same integer.
    protean_rules::variants::load(
        "[stretchedchancellor:chess]\nmaxRank = 9\nmaxFile = i\nchancellor = c\n\
         startFen = rnbqkcnbr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKCNBR w - - 0 1\n\
         promotionPieceTypes = qrbnc\npromotionRegionWhite = *9\npromotionRegionBlack = *1\n\
         doubleStepRegionWhite = *2\ndoubleStepRegionBlack = *8\n",
    )
    .expect("the test's variant loads");
    let spread = |placement: &str| -> String {
        let mut ranks: Vec<String> = placement
            .split('/')
            .map(|rank| {
                let cells: Vec<char> = rank
                    .chars()
                    .flat_map(|c| match c.to_digit(10) {
                        Some(n) => vec!['.'; n as usize],
                        None => vec![c],
                    })
                    .collect();
                let mut cells: String = cells.iter().collect();
                cells.insert(4, '.');
                cells
            })
            .collect();
        ranks.insert(4, ".".repeat(9));
        let compress = |rank: &String| {
            let mut out = String::new();
            let mut empty = 0;
            for c in rank.chars() {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                    }
                    empty = 0;
                    out.push(c);
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        };
        ranks.iter().map(compress).collect::<Vec<_>>().join("/")
    };
    let standard = |fen: &str| {
        let pos = AnyRules::by_name("standard").unwrap().from_fen(fen).unwrap();
        protean_rules::with_position!(&pos, p => built_in(p.rules()).unwrap().evaluate(p))
    };
    let stretched = |fen: &str| {
        let pos = AnyRules::by_name("stretchedchancellor").unwrap().from_fen(fen).unwrap();
        protean_rules::with_position!(&pos, p => {
            let (lender, net) = stretched_from(p.rules(), built_in_lenders()).expect("standard chess's network is lent");
            assert_eq!(lender, "standard");
            net.evaluate(p)
        })
    };
    let fens = [
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w - - 4 4",
        "r3k2r/ppp2ppp/2n5/3qp3/8/2N5/PPPQ1PPP/R3K2R b - - 0 9",
        "8/5pk1/6p1/3Q4/8/6P1/q4PK1/8 w - - 0 40",
    ];
    for fen in fens {
        let (placement, rest) = fen.split_once(' ').unwrap();
        let wide = spread(placement);
        assert_eq!(stretched(&format!("{wide} {rest}")), standard(fen), "{fen}");
        let chancellors = wide.replace('q', "c").replace('Q', "C");
        assert_eq!(stretched(&format!("{chancellors} {rest}")), standard(fen), "{fen}, chancellors");
    }
}

#[test]
fn a_network_stretched_to_its_own_board_is_itself_and_a_pawn_of_other_moves_lends_nothing() {
    let net = random_network(6, 64, 7);
    let board = protean_rules::Geometry::new(8, 8).unwrap();
    assert_eq!(net.across_boards(board, board, &[0, 1, 2, 3, 4, 5]), net);
    // Pawns that never step two move otherwise than any built-in game's:
    // no built-in network is stretched to their game, Gardner's
    // minichess file's (pawns of one step) is.
    protean_rules::variants::load("[onestep:chess]\ndoubleStep = false\n").expect("the test's variant loads");
    let start = AnyRules::by_name("onestep").unwrap().start();
    protean_rules::with_position!(&start, p => assert!(stretched_from(p.rules(), built_in_lenders()).is_none()));
    protean_rules::with_position!(&start, p => assert_eq!(lent_across_boards(p.rules()).map(|(l, _)| l), Some("gardner")));
    let start = AnyRules::by_name("standard").unwrap().start();
    protean_rules::with_position!(&start, p => assert_eq!(lent_across_boards(p.rules()).map(|(l, _)| l), Some("standard")));
}

#[test]
fn between_lenders_that_match_as_well_the_nearer_board_lends() {
    // Hoppel-Poppel's king, queen, rook and pawn move as both standard
    // chess's and Perfect Chess's do; its knight and bishop as neither's.
    // Standard chess's 8x8 board is its own; Perfect Chess's 9x9 is not.
    // (Of every lender, the repository's Hoppel-Poppel file's lends.)
    let ini = "[hoppel:chess]\nknight = -\nbishop = -\ncustomPiece1 = n:mNcB\ncustomPiece2 = b:mBcN\n";
    protean_rules::variants::load(ini).expect("the test's variant loads");
    let start = AnyRules::by_name("hoppel").unwrap().start();
    protean_rules::with_position!(&start, p => {
        assert_eq!(stretched_from(p.rules(), built_in_lenders()).map(|(l, _)| l), Some("standard"));
        assert_eq!(lent_across_boards(p.rules()).map(|(l, _)| l), Some("hoppelpoppel"));
    });
}
