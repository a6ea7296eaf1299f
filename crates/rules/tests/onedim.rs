//! One-dimensional chess against a second move generator written here,
//! plainly from RULINGS.md, sharing no code with the rules crate: perft
//! from the default line-up and 50 other positions to depth 6, and
//! hand-made positions for each special rule with their exact move lists.

use protean_rules::AnyRules;

mod parallel;

/// The plain generator: a row of 16 cells, each empty or (white?, letter).
mod plain {
    pub type Board = [Option<(bool, char)>; 16];

    #[derive(Clone)]
    pub struct Game {
        pub board: Board,
        pub white: bool,
    }

    pub fn parse(fen: &str) -> Game {
        let mut fields = fen.split_whitespace();
        let row = fields.next().unwrap();
        let mut board: Board = [None; 16];
        let mut i = 0;
        let mut digits = String::new();
        for c in row.chars().chain(std::iter::once(' ')) {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            if !digits.is_empty() {
                i += digits.parse::<usize>().unwrap();
                digits.clear();
            }
            if c != ' ' {
                board[i] = Some((c.is_ascii_uppercase(), c.to_ascii_uppercase()));
                i += 1;
            }
        }
        Game { board, white: fields.next() == Some("w") }
    }

    fn name(i: i32) -> String {
        format!("{}1", (b'a' + i as u8) as char)
    }

    /// A move by its cells: the knight's middle cell where it takes there.
    /// Kept as numbers, not text, so that perft allocates nothing per move.
    #[derive(Clone, Copy, PartialEq, Eq)]
    pub struct Move {
        from: i32,
        taken_on_the_way: Option<i32>,
        to: i32,
    }

    impl std::fmt::Display for Move {
        fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            match self.taken_on_the_way {
                None => write!(f, "{}{}", name(self.from), name(self.to)),
                Some(mid) => write!(f, "{}{},{}{}", name(self.from), name(mid), name(mid), name(self.to)),
            }
        }
    }

    fn inside(i: i32) -> bool {
        (0..16).contains(&i)
    }

    /// A move and the board after it.
    pub fn moves_ignoring_check(g: &Game) -> Vec<(Move, Board)> {
        let mut out = Vec::new();
        let own = |b: &Board, i: i32| b[i as usize].is_some_and(|(w, _)| w == g.white);
        let enemy = |b: &Board, i: i32| b[i as usize].is_some_and(|(w, _)| w != g.white);
        let go = |out: &mut Vec<(Move, Board)>, from: i32, to: i32| {
            let mut b = g.board;
            b[to as usize] = b[from as usize].take();
            out.push((Move { from, taken_on_the_way: None, to }, b));
        };
        for from in 0..16i32 {
            let Some((w, piece)) = g.board[from as usize] else { continue };
            if w != g.white {
                continue;
            }
            let rook = |out: &mut Vec<(Move, Board)>| {
                for dir in [-1, 1] {
                    for k in 1..=3 {
                        let to = from + dir * k;
                        if !inside(to) || own(&g.board, to) {
                            break;
                        }
                        go(out, from, to);
                        if enemy(&g.board, to) {
                            break;
                        }
                    }
                }
            };
            // Only cells of its own colour (2, 4, 6 away) matter to it.
            let bishop = |out: &mut Vec<(Move, Board)>| {
                for dir in [-1, 1] {
                    for k in 1..=3 {
                        let to = from + dir * 2 * k;
                        if !inside(to) || own(&g.board, to) {
                            break;
                        }
                        go(out, from, to);
                        if enemy(&g.board, to) {
                            break;
                        }
                    }
                }
            };
            match piece {
                'K' => {
                    for to in [from - 1, from + 1] {
                        if inside(to) && !own(&g.board, to) {
                            go(&mut out, from, to);
                        }
                        // The swap with a rook beside it.
                        if inside(to) && g.board[to as usize] == Some((g.white, 'R')) {
                            let mut b = g.board;
                            b.swap(from as usize, to as usize);
                            out.push((Move { from, taken_on_the_way: None, to }, b));
                        }
                    }
                }
                'R' => rook(&mut out),
                'B' => bishop(&mut out),
                'Q' => {
                    rook(&mut out);
                    bishop(&mut out);
                }
                'N' => {
                    let mut plain_targets = Vec::new();
                    for (a, b) in [(2, 3), (3, 2)] {
                        for first in [a, -a] {
                            for second in [b, -b] {
                                let mid = from + first;
                                let to = mid + second;
                                if !inside(mid) || !inside(to) {
                                    continue;
                                }
                                if !own(&g.board, to) && !plain_targets.contains(&to) {
                                    plain_targets.push(to);
                                    go(&mut out, from, to);
                                }
                                if enemy(&g.board, mid) && g.board[to as usize].is_none() {
                                    let mut bd = g.board;
                                    bd[mid as usize] = None;
                                    bd[to as usize] = bd[from as usize].take();
                                    out.push((Move { from, taken_on_the_way: Some(mid), to }, bd));
                                }
                            }
                        }
                    }
                }
                _ => unreachable!(),
            }
        }
        // A queen reaches a cell two away both as rook and as bishop: one move.
        let mut seen = Vec::new();
        out.retain(|(m, _)| {
            let fresh = !seen.contains(m);
            seen.push(*m);
            fresh
        });
        out
    }

    fn king_capturable(board: &Board, king_white: bool) -> bool {
        let Some(k) = board.iter().position(|c| *c == Some((king_white, 'K'))) else { return true };
        let them = Game { board: *board, white: !king_white };
        moves_ignoring_check(&them).iter().any(|(_, b)| b[k] != Some((king_white, 'K')))
    }

    pub fn legal(g: &Game) -> Vec<(Move, Game)> {
        moves_ignoring_check(g)
            .into_iter()
            .filter(|(_, b)| !king_capturable(b, g.white))
            .map(|(m, b)| (m, Game { board: b, white: !g.white }))
            .collect()
    }

    pub fn perft(g: &Game, depth: u32) -> u64 {
        let moves = legal(g);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|(_, next)| perft(next, depth - 1)).sum()
    }

    pub fn fen(g: &Game) -> String {
        let mut s = String::new();
        let mut run = 0;
        for c in g.board {
            match c {
                None => run += 1,
                Some((w, p)) => {
                    if run > 0 {
                        s += &run.to_string();
                        run = 0;
                    }
                    s.push(if w { p } else { p.to_ascii_lowercase() });
                }
            }
        }
        if run > 0 {
            s += &run.to_string();
        }
        format!("{s} {} - - 0 1", if g.white { "w" } else { "b" })
    }
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn protean_moves(fen: &str) -> Vec<String> {
    sorted(AnyRules::by_name("onedim").unwrap().from_fen(fen).unwrap().legal_moves())
}

/// Positions from random legal play in the plain generator, fixed seed.
fn positions() -> Vec<String> {
    let start = "KQRBN6nbrqk w - - 0 1";
    let mut out = vec![start.to_string()];
    let mut seed = 0x0D1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    while out.len() < 51 {
        let mut g = plain::parse(start);
        for _ in 0..(next() % 24) {
            let moves = plain::legal(&g);
            if moves.is_empty() {
                break;
            }
            g = moves[next() as usize % moves.len()].1.clone();
        }
        let fen = plain::fen(&g);
        if !plain::legal(&g).is_empty() && !out.contains(&fen) {
            out.push(fen);
        }
    }
    out
}

/// The first position below `fen` (within `depth` plies) where the two
/// generators list different moves: the position and both lists.
fn first_difference(fen: &str, depth: u32) -> Option<(String, Vec<String>, Vec<String>)> {
    let g = plain::parse(fen);
    let plain_moves = plain::legal(&g);
    let expected = sorted(plain_moves.iter().map(|(m, _)| m.to_string()).collect());
    let got = protean_moves(fen);
    if got != expected {
        return Some((fen.to_string(), got, expected));
    }
    if depth > 1 {
        for (_, next) in &plain_moves {
            if let Some(d) = first_difference(&plain::fen(next), depth - 1) {
                return Some(d);
            }
        }
    }
    None
}

#[test]
fn perft_agrees_with_the_plain_generator_to_depth_6() {
    let rules = AnyRules::by_name("onedim").unwrap();
    let check = |fen: &String| {
        let g = plain::parse(fen);
        // Move lists first: a mismatch names the moves, not just a count.
        let expected = sorted(plain::legal(&g).into_iter().map(|(m, _)| m.to_string()).collect());
        assert_eq!(protean_moves(fen), expected, "{fen}");
        let mut pos = rules.from_fen(fen).unwrap();
        if pos.perft(6) != plain::perft(&g, 6) {
            panic!("perft 6 differs below {fen}; first differing node: {:?}", first_difference(fen, 6));
        }
    };
    // The plain generator is slow by design.
    parallel::for_each(&positions(), check);
}

#[test]
fn knight_takes_on_its_middle_cell_with_the_last_cell_empty() {
    // Knight on c1, enemy rook on e1. Its jumps end 1 or 5 cells away:
    // b1 (via e1), d1 (via a1, over its own king) and h1 (via e1 or f1).
    // Through e1 it may instead take the rook, landing on b1 or h1.
    assert_eq!(protean_moves("K1N1r10k w - - 0 1"), ["a1b1", "c1b1", "c1d1", "c1e1,e1b1", "c1e1,e1h1", "c1h1"]);
    // With h1 occupied (by an enemy bishop) the capture landing there is
    // gone; the one landing on b1 stays, and the plain jump takes the
    // bishop. The king may not step to b1: the bishop reaches it.
    assert_eq!(protean_moves("K1N1r2b7k w - - 0 1"), ["c1b1", "c1d1", "c1e1,e1b1", "c1h1"]);
}

#[test]
fn knight_passes_an_enemy_without_taking_it() {
    let moves = protean_moves("K1N1r10k w - - 0 1");
    assert!(moves.contains(&"c1b1".to_string()) && moves.contains(&"c1h1".to_string()));
    let mut p = AnyRules::by_name("onedim").unwrap().from_fen("K1N1r10k w - - 0 1").unwrap();
    p.play("c1h1").unwrap();
    assert_eq!(p.fen(), "K3r2N7k b - - 1 1", "the rook on e1 stays");
    let mut p = AnyRules::by_name("onedim").unwrap().from_fen("K1N1r10k w - - 0 1").unwrap();
    p.play("c1e1,e1h1").unwrap();
    assert_eq!(p.fen(), "K6N7k b - - 0 1", "the rook on e1 is taken");
}

#[test]
fn king_rook_swap_out_of_check_but_not_into_it() {
    // King a1, rook b1: the swap (a1b1) or the rook's moves.
    assert_eq!(protean_moves("KR13k w - - 0 1"), ["a1b1", "b1c1", "b1d1", "b1e1"]);
    let mut p = AnyRules::by_name("onedim").unwrap().from_fen("KR13k w - - 0 1").unwrap();
    p.play("a1b1").unwrap();
    assert_eq!(p.fen(), "RK13k b - - 1 1");
    // In check from the bishop on c1 (two cells from a1): the swap takes
    // the king to b1, out of check; or the rook takes the bishop.
    assert_eq!(protean_moves("KRb12k w - - 0 1"), ["a1b1", "b1c1"]);
    // Not into check: after a swap the king would stand on b1, two cells
    // from the bishop on d1.
    assert_eq!(protean_moves("KR1b11k w - - 0 1"), ["b1c1", "b1d1"]);
}

#[test]
fn bishop_ignores_pieces_of_the_other_colour() {
    // Bishop on a1 (dark): c1, e1 and g1 are its cells; the knights on b1,
    // d1 and f1 stand on light cells and do not block it.
    assert_eq!(protean_moves("Bn1n1n6k2K w - - 0 1"), ["a1c1", "a1e1", "a1g1", "p1o1"]);
    // A piece on its own colour (the knight on e1) blocks it. That knight
    // lands on d1, f1 (both captures) or j1; through b1 it may not take,
    // since d1 behind it is occupied.
    assert_eq!(protean_moves("Bn1nNn6k2K w - - 0 1"), ["a1c1", "e1d1", "e1f1", "e1j1", "p1o1"]);
}

#[test]
fn stalemate() {
    let mut p = AnyRules::by_name("onedim").unwrap().from_fen("k1K13 b - - 0 1").unwrap();
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.outcome(), Some(protean_rules::Outcome::Stalemate));
}
