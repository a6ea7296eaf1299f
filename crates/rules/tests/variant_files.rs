//! Variants read from Fairy-Stockfish's INI format (`variant_file`): a
//! reference file loads as is and plays as its variant should; a file with
//! mistakes names each one with its line and loads nothing.

use protean_rules::{variant_file, variants, AnyRules};

const PERFECT_INI: &str = include_str!("../../../engine-tests/reference/perfect.ini");

fn builtin(name: &str) -> bool {
    variants::names(name).is_some()
}

#[test]
fn fairy_stockfishs_perfect_chess_file_loads_as_is_and_gives_its_perft() {
    let loaded = variants::load(PERFECT_INI).expect("perfect.ini loads");
    assert_eq!(loaded, ["perfectchess9"]);
    let rules = AnyRules::by_name("perfectchess9").expect("loaded");
    let mut start = rules.start();
    // Perfect Chess's perft (the castling difference the file states does
    // not show this shallow).
    assert_eq!((1..=4).map(|d| start.perft(d)).collect::<Vec<_>>(), [22, 484, 12_228, 308_253]);
    assert!(variants::loaded_names().contains(&"perfectchess9".to_string()));
    assert!(variants::described().contains("perfectchess9"));
}

#[test]
fn every_mistake_is_named_with_its_line_and_nothing_loads() {
    let text = "\
# a file with four mistakes
[broken:chess]
maxFile = j
flyingPieces = true
customPiece1 = z:Xq7
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1

[kingless:chess]
king = -
";
    let errors = variant_file::parse(text, builtin).expect_err("mistakes");
    let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
    assert_eq!(lines, [4, 5, 6, 8], "{errors:?}");
    assert!(errors[0].message.contains("flyingPieces"), "{}", errors[0]);
    assert!(errors[1].message.contains("Xq7"), "{}", errors[1]);
    assert!(errors[2].message.contains("startFen"), "{}", errors[2]);
    assert!(errors[3].message.contains("no king"), "{}", errors[3]);
    assert!(variants::load(text).is_err());
    assert!(
        AnyRules::by_name("broken").is_err() && AnyRules::by_name("kingless").is_err(),
        "nothing of a bad file loads"
    );
}

#[test]
fn a_section_inherits_from_one_earlier_in_the_file_and_built_in_names_are_kept() {
    let text = "[tiny:chess]\nmaxRank = 5\nmaxFile = e\nstartFen = rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1\ndoubleStep = false\ncastling = false\npromotionRegionWhite = *5\n\n[tinier:tiny]\nqueen = -\nstartFen = rnbk1/ppppp/5/PPPPP/RNBK1 w - - 0 1\npromotionPieceTypes = rbn\n";
    let parsed = variant_file::parse(text, builtin).expect("loads");
    assert_eq!(parsed.len(), 2);
    assert_eq!(parsed[1].geometry.width(), 5);
    assert!(parsed[1].piece_by_letter('Q').is_none());
    assert_eq!(parsed[1].promotion.ranks, [4, 0]);
    let errors = variant_file::parse("[chess]\nmaxRank = 9\n[x:nowhere]\n", builtin).expect_err("refused");
    assert!(errors.iter().any(|e| e.line == 1 && e.message.contains("built-in")), "{errors:?}");
    assert!(errors.iter().any(|e| e.line == 3 && e.message.contains("nowhere")), "{errors:?}");
}

#[test]
fn rules_protean_does_not_have_are_refused_not_ignored() {
    for (line, key) in [
        ("stalemateValue = loss", "stalemateValue"),
        ("promotionRegionWhite = a8 b8", "promotionRegionWhite"),
        ("pieceDrops = true", "pieceDrops"),
        ("cannon = c", "cannon"),
    ] {
        let errors = variant_file::parse(&format!("[v:chess]\n{line}\n"), builtin).expect_err(line);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].line, 2);
        assert!(errors[0].message.starts_with(key), "{}", errors[0]);
    }
}

#[test]
fn what_fairy_stockfish_reads_otherwise_is_refused_and_odd_values_do_not_panic() {
    for (body, key, complaint) in [
        ("customPiece1 = z:fN", "customPiece1", "two jumps in Fairy-Stockfish"),
        ("customPiece1 = z:ifmW", "customPiece1", "initial moves"),
        ("customPiece0 = z:W", "customPiece0", "does not know"),
        ("promotionRank = 7", "promotionRank", "one rank a side"),
        ("promotionRank = 0", "promotionRank", "not a rank"),
        ("castlingKingsideFile = a", "castlingKingsideFile", "no cell for the rook"),
        ("castlingQueensideFile = h", "castlingQueensideFile", "no cell for the rook"),
        ("castlingKingsideFile = 200", "castlingKingsideFile", "not a file"),
        ("startFen = 99999999999999999999/8/8/8/8/8/8/8 w - - 0 1", "startFen", "cells, but the board has 8 files"),
    ] {
        let errors = variant_file::parse(&format!("[v:chess]\n{body}\n"), builtin).expect_err(body);
        assert!(
            errors.iter().any(|e| e.line == 2 && e.message.contains(key) && e.message.contains(complaint)),
            "{body}: {errors:?}"
        );
    }
    let errors = variant_file::parse("[v]\nmaxRank = 8\n", builtin).expect_err("no parent");
    assert!(errors[0].line == 1 && errors[0].message.contains("needs a parent"), "{errors:?}");
    for name in ["fairy", "perplexichess", "Chess"] {
        assert!(variant_file::parse(&format!("[{name}:chess]\n"), builtin).is_err(), "{name}");
    }
}

#[test]
fn a_removed_piece_is_no_promotion_choice_and_castling_takes_the_rook_piece() {
    // As Fairy-Stockfish reads New Zealand chess without naming the
    // promotion choices or the castling rook: the removed rook and knight
    // go from the choices, and the new `r` is no `rook`, so no castling.
    let text = "[nz:chess]\nrook = -\nknight = -\ncustomPiece1 = r:mRcN\ncustomPiece2 = n:mNcR\n";
    let v = &variant_file::parse(text, builtin).expect("loads")[0];
    let choices: Vec<char> = v.promotion.choices.iter().map(|&k| v.pieces[k].letter).collect();
    assert_eq!(choices, ['Q', 'B']);
    assert!(v.castling.is_empty());
    let v = &variant_file::parse(&format!("{text}castlingRookPieces = r\npromotionPieceTypes = qrbn\n"), builtin)
        .expect("loads")[0];
    assert_eq!(v.castling.len(), 2);
    assert_eq!(v.promotion.choices.len(), 4);
    // A piece given another letter stays a choice under its new letter.
    let v = &variant_file::parse(
        "[x:chess]\nbishop = x\nstartFen = rnxqkxnr/pppppppp/8/8/8/8/PPPPPPPP/RNXQKXNR w KQkq - 0 1\n",
        builtin,
    )
    .expect("loads")[0];
    assert!(v.promotion.choices.iter().any(|&k| v.pieces[k].letter == 'X'));
}

#[test]
fn protean_keys_write_flexichess_and_perfect_chess_from_a_file() {
    use protean_rules::variant::Role;
    let builtin_flexi = variants::by_name("flexichess").unwrap();
    let list = |role| {
        builtin_flexi
            .redefinitions
            .iter()
            .filter(|r| r.role == role)
            .map(|r| format!("{}:{}", r.name, r.betza))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let text =
        format!("[flexifile:chess]\nruleChanges = {}\npawnRuleChanges = {}\n", list(Role::Other), list(Role::Pawn));
    let v = variant_file::parse(&text, builtin).expect("loads").remove(0);
    assert_eq!(v.redefinitions, builtin_flexi.redefinitions);
    let mut start = AnyRules::new(v).unwrap().start();
    assert_eq!((1..=3).map(|d| start.perft(d)).collect::<Vec<_>>(), [79, 6_308, 511_942], "Flexichess's perft");

    // Perfect Chess with Protean's castling (the castle's own cell must be
    // safe) and repetition by placement: the built-in rules, where
    // Fairy-Stockfish's file differs. The black rook on i9 attacks i1.
    let ours = format!("{PERFECT_INI}castlingRookSafe = true\nrepetitionByPlacement = true\n")
        .replace("[perfectchess9:", "[perfectfile:");
    let v = variant_file::parse(&ours, builtin).expect("loads").remove(0);
    let builtin_perfect = variants::by_name("perfect").unwrap();
    assert_eq!((&v.castling, &v.draws.repetition), (&builtin_perfect.castling, &builtin_perfect.draws.repetition));
    let fen = "r3k3r/9/9/9/9/9/9/9/R3K3R w KQkq - 0 1";
    let mut from_file = AnyRules::new(v).unwrap().from_fen(fen).unwrap();
    let mut built_in = AnyRules::by_name("perfect").unwrap().from_fen(fen).unwrap();
    let (mut a, mut b) = (from_file.legal_moves(), built_in.legal_moves());
    a.sort();
    b.sort();
    assert_eq!(a, b);
    assert!(!a.contains(&"e1h1".to_string()), "no castling onto an attacked rook cell");
    assert_eq!(from_file.perft(3), built_in.perft(3));
}

#[test]
fn the_king_may_swap_with_a_piece_a_file_names() {
    let v = variant_file::parse(
        "[swap:chess]\nkingSwapsWith = r\ncastling = false\nstartFen = 4k3/8/8/8/8/8/8/3RK3 w - - 0 1\n",
        builtin,
    )
    .expect("loads")
    .remove(0);
    let mut p = AnyRules::new(v).unwrap().start();
    p.play("e1d1").expect("the king and the rook trade places");
    assert!(p.fen().starts_with("4k3/8/8/8/8/8/8/3KR3 b"), "{}", p.fen());
    let errors = variant_file::parse("[swap:chess]\nkingSwapsWith = z\n", builtin).expect_err("no z");
    assert!(errors[0].line == 2 && errors[0].message.contains("kingSwapsWith"), "{errors:?}");
}

#[test]
fn tiles_two_leg_jumps_and_piece_names_from_a_file() {
    // Beyond Chess's moving tiles on a small board of a user's own, and a
    // knight that jumps as One-dimensional chess's on a board with ranks.
    let text = "\
[smallbeyond:chess]
maxFile = 8
maxRank = 8
origin = c3
startFen = ********/********/**rnbk**/**pppp**/**PPPP**/**RNBK**/********/******** w - - 0 1 -
castling = false
doubleStep = false
promotionRegionWhite = *4
promotionRegionBlack = *1
movingTiles = true
geret = true

[legs:chess]
knight = -
twoLegPiece1 = n:U:2,0 3,0; -2,0 -3,0
pieceNames = n:leaper
promotionPieceTypes = qrb
";
    let parsed = variant_file::parse(text, builtin).expect("loads");
    let (small, legs) = (&parsed[0], &parsed[1]);
    assert_eq!(small.geometry.origin(), (2, 2));
    assert_eq!(small.promotion.ranks, [5, 2], "ranks named from the origin");
    assert!(small.tiles.as_ref().is_some_and(|t| t.geret && t.shuttle_limit == 8));
    let mut p = AnyRules::new(small.clone()).unwrap().start();
    // White's first turn has no tile shift; Black's turns carry one.
    p.play("b1a3").expect("a knight's move");
    assert!(p.legal_moves().iter().any(|m| m.contains(',')), "turns carry tile shifts: {:?}", p.legal_moves());
    assert!(p.perft(2) > 0);
    let n = legs.piece_by_letter('N').expect("the leaper");
    assert_eq!((legs.pieces[n].name.as_str(), legs.pieces[n].paths.len()), ("leaper", 2));

    for (body, key) in [
        ("geret = true", "geret"),
        ("shuttleLimit = 3", "shuttleLimit"),
        ("pieceNames = z:zebra", "pieceNames"),
        ("twoLegPiece1 = x:U:2,0", "twoLegPiece1"),
        ("twoLegPiece2 = x:U:0,0 1,0", "twoLegPiece2"),
        ("origin = z99", "origin"),
        ("minorPieces = y", "minorPieces"),
        ("startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP*/RNBQKBNR w KQkq - 0 1", "startFen"),
    ] {
        let errors = variant_file::parse(&format!("[v:chess]\n{body}\n"), builtin).expect_err(body);
        assert!(errors.len() == 1 && errors[0].line == 2 && errors[0].message.contains(key), "{body}: {errors:?}");
    }
}

#[test]
fn values_past_the_board_or_the_origin_are_mistakes_not_overflows() {
    // Each is refused with its line; none panics (tests build with
    // overflow checks) or wraps round to a rank or file on the board.
    for (body, line, key) in [
        ("origin = a4", 1, "start on [-1]"),
        ("maxRank = 16\norigin = e5\npromotionRegionWhite = *25", 4, "promotion on rank 25"),
        ("castlingKingsideFile = 254", 2, "castlingKingsideFile"),
        ("twoLegPiece1 = x:U:-128,0 2,0", 2, "twoLegPiece1"),
        ("chess960 = true\nruleChanges = nightrider:NN", 2, "chess960"),
    ] {
        let errors = variant_file::parse(&format!("[v:chess]\n{body}\n"), builtin).expect_err(body);
        assert!(errors.iter().any(|e| e.line == line && e.message.contains(key)), "{body}: {errors:?}");
    }
    // promotionRank counts from the origin like every other rank.
    // A 10-rank board with a rank of room above and below the pieces:
    // the zone from rank 9 (the last, named from a2) is its top row, and
    // Black's the mirror, its bottom row.
    let v = &variant_file::parse("[v:chess]\nmaxRank = 10\norigin = a2\npromotionRank = 9\nstartFen = 8/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1\n", builtin).expect("loads")[0];
    assert_eq!(v.promotion.ranks, [9, 0]);
}

#[test]
fn a_variant_with_one_piece_in_place_of_another_stands_for_the_game_it_changes() {
    let standard = variants::built_in_by_name("standard").unwrap();
    // The standard letters the kinds stand for, then the kinds' own.
    let letters = |v: &protean_rules::Variant, map: &[usize]| {
        let own: String = v.pieces.iter().map(|p| p.letter).collect();
        format!("{} for {own}", map.iter().map(|&k| standard.pieces[k].letter).collect::<String>())
    };
    let text = "\
[almost:chess]
queen = -
chancellor = c
startFen = rnbckbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBCKBNR w KQkq - 0 1
promotionPieceTypes = crbn

[renamed:chess]
queen = -
customPiece1 = y:RB
startFen = rnbykbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBYKBNR w KQkq - 0 1
promotionPieceTypes = yrbn

[twochanged:almost]
bishop = -
archbishop = a
startFen = rnackanr/pppppppp/8/8/8/8/PPPPPPPP/RNACKANR w KQkq - 0 1
promotionPieceTypes = cran

[fewerpromotions:almost]
promotionPieceTypes = rbn

[widerboard:almost]
maxFile = i
startFen = rnbckbnrr/ppppppppp/9/9/9/9/PPPPPPPPP/RNBCKBNRR w KQkq - 0 1
";
    let parsed = variant_file::parse(text, builtin).expect("loads");
    let by_name = |name: &str| parsed.iter().find(|v| v.name == name).unwrap();
    // The chancellor stands for the queen, the rest for themselves in
    // whatever order the file gives them.
    let almost = by_name("almost");
    let stand_in = almost.kinds_standing_for(standard).expect("almost stands for chess");
    assert_eq!(letters(almost, &stand_in.kinds), "PNBRKQ for PNBRKC");
    assert_eq!(stand_in.changed, almost.piece_by_letter('C'));
    // A queen under another letter: every kind for itself, none changed.
    let renamed = by_name("renamed");
    let stand_in = renamed.kinds_standing_for(standard).expect("a renamed queen");
    assert_eq!((letters(renamed, &stand_in.kinds).as_str(), stand_in.changed), ("PNBRKQ for PNBRKY", None));
    let itself = standard.kinds_standing_for(standard).expect("itself");
    assert!(itself.changed.is_none() && itself.kinds.iter().enumerate().all(|(i, &k)| i == k));
    for other in ["twochanged", "fewerpromotions", "widerboard"] {
        assert_eq!(by_name(other).kinds_standing_for(standard), None, "{other}");
    }
}
