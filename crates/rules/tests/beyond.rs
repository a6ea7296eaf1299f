//! Beyond Chess against a second move generator written here, plainly from
//! RULINGS.md and sharing no code with the rules crate: perft from the
//! start to depth 3 and from 30 other positions (custom tile layouts among
//! them) to depth 2, then hand-made positions for each special rule with
//! their exact lists of legal turns.

use protean_rules::{fen, AnyPosition, AnyRules};

mod parallel;

/// The plain generator: a 16x16 arena of cells, each a rift, an empty
/// tile or a tile with a piece, and the frame's a1 at (4, 4).
mod plain {
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub enum Cell {
        Rift,
        Empty,
        Piece(bool, char),
    }
    use Cell::*;

    #[derive(Clone)]
    pub struct Game {
        pub cells: [[Cell; 16]; 16], // [y][x]
        pub white: bool,
        pub rights: String,
        pub ep: Option<(i32, i32)>,
        pub first_turn: bool,
    }

    fn name(x: i32, y: i32) -> String {
        let f = x - 4;
        let letter = if f >= 0 { (b'a' + f as u8) as char } else { (b'z' + 1 - (-f) as u8) as char };
        format!("{letter}{}", y - 3)
    }

    fn parse_name(s: &str) -> (i32, i32) {
        let letter = s.as_bytes()[0];
        let x = if letter >= b'w' { 4 - (b'z' + 1 - letter) as i32 } else { 4 + (letter - b'a') as i32 };
        (x, s[1..].parse::<i32>().unwrap() + 3)
    }

    pub fn parse(fen: &str) -> Game {
        let f: Vec<&str> = fen.split_whitespace().collect();
        let mut cells = [[Rift; 16]; 16];
        for (i, row) in f[0].split('/').enumerate() {
            let y = 15 - i;
            let mut x = 0;
            let mut digits = String::new();
            for c in row.chars().chain(std::iter::once(' ')) {
                if c.is_ascii_digit() {
                    digits.push(c);
                    continue;
                }
                if !digits.is_empty() {
                    for _ in 0..digits.parse::<usize>().unwrap() {
                        cells[y][x] = Empty;
                        x += 1;
                    }
                    digits.clear();
                }
                match c {
                    ' ' => {}
                    '*' => x += 1,
                    _ => {
                        cells[y][x] = Piece(c.is_ascii_uppercase(), c.to_ascii_uppercase());
                        x += 1;
                    }
                }
            }
        }
        let white = f[1] == "w";
        Game {
            cells,
            white,
            rights: f[2].replace('-', ""),
            ep: (f[3] != "-").then(|| parse_name(f[3])),
            first_turn: white && f.get(5).is_none_or(|n| *n == "1"),
        }
    }

    fn inside(x: i32, y: i32) -> bool {
        (0..16).contains(&x) && (0..16).contains(&y)
    }

    impl Game {
        pub fn at(&self, x: i32, y: i32) -> Cell {
            if inside(x, y) {
                self.cells[y as usize][x as usize]
            } else {
                Rift
            }
        }
        fn set(&mut self, x: i32, y: i32, c: Cell) {
            self.cells[y as usize][x as usize] = c;
        }
        fn is_tile(&self, x: i32, y: i32) -> bool {
            self.at(x, y) != Rift
        }

        /// Whether a piece of colour `by` attacks (x, y).
        fn attacked(&self, x: i32, y: i32, by: bool) -> bool {
            let has = |dx: i32, dy: i32, kinds: &str| matches!(self.at(x + dx, y + dy), Piece(w, k) if w == by && kinds.contains(k));
            let back = if by { -1 } else { 1 };
            if has(-1, back, "P") || has(1, back, "P") {
                return true;
            }
            for (dx, dy) in [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)] {
                if has(dx, dy, "N") {
                    return true;
                }
            }
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if (dx, dy) != (0, 0) && has(dx, dy, "K") {
                        return true;
                    }
                    if (dx, dy) == (0, 0) {
                        continue;
                    }
                    let kinds = if dx == 0 || dy == 0 { "RQ" } else { "BQ" };
                    let (mut cx, mut cy) = (x + dx, y + dy);
                    loop {
                        match self.at(cx, cy) {
                            Empty => {}
                            Rift => break,
                            Piece(w, k) => {
                                if w == by && kinds.contains(k) {
                                    return true;
                                }
                                break;
                            }
                        }
                        cx += dx;
                        cy += dy;
                    }
                }
            }
            false
        }

        fn king_safe(&self, color: bool) -> bool {
            for y in 0..16 {
                for x in 0..16 {
                    if self.at(x, y) == Piece(color, 'K') {
                        return !self.attacked(x, y, !color);
                    }
                }
            }
            true
        }

        /// Whether the tile at (x, y) may move to the rift at (tx, ty):
        /// it keeps touching a tile it touched, and the tiles stay one group.
        fn tile_may_move(&self, x: i32, y: i32, tx: i32, ty: i32) -> bool {
            let mut touches = false;
            for dx in -1..=1 {
                for dy in -1..=1 {
                    let (nx, ny) = (x + dx, y + dy);
                    if (nx, ny) != (x, y)
                        && (nx, ny) != (tx, ty)
                        && self.is_tile(nx, ny)
                        && (nx - tx).abs() <= 1
                        && (ny - ty).abs() <= 1
                    {
                        touches = true;
                    }
                }
            }
            if !touches {
                return false;
            }
            let mut after = self.clone();
            after.set(tx, ty, self.at(x, y));
            after.set(x, y, Rift);
            after.one_group()
        }

        fn one_group(&self) -> bool {
            let mut seen = [[false; 16]; 16];
            let mut todo: Vec<(i32, i32)> = (0..16)
                .flat_map(|y| (0..16).map(move |x| (x, y)))
                .filter(|&(x, y)| self.is_tile(x, y))
                .take(1)
                .collect();
            let mut reached = 0;
            while let Some((x, y)) = todo.pop() {
                if seen[y as usize][x as usize] {
                    continue;
                }
                seen[y as usize][x as usize] = true;
                reached += 1;
                for dx in -1..=1 {
                    for dy in -1..=1 {
                        if self.is_tile(x + dx, y + dy) {
                            todo.push((x + dx, y + dy));
                        }
                    }
                }
            }
            let tiles = (0..16).flat_map(|y| (0..16).map(move |x| (x, y))).filter(|&(x, y)| self.is_tile(x, y)).count();
            reached == tiles
        }

        /// Piece moves (with their text), legal on their own.
        fn piece_moves(&self) -> Vec<(String, Game)> {
            let us = self.white;
            let mut out = Vec::new();
            let mut add = |text: String, g: Game| {
                if g.king_safe(us) {
                    out.push((text, g));
                }
            };
            let promo_row = if us { 11 } else { 4 };
            let start_row = if us { 5 } else { 10 };
            let fwd = if us { 1 } else { -1 };
            for y in 0..16 {
                for x in 0..16 {
                    let Piece(w, kind) = self.at(x, y) else { continue };
                    if w != us {
                        continue;
                    }
                    let go = |tx: i32, ty: i32| {
                        let mut g = self.clone();
                        g.ep = None;
                        g.set(tx, ty, Piece(us, kind));
                        g.set(x, y, Empty);
                        // Rights go when a king or rook leaves, or a rook is taken, on its corner.
                        for (c, cx, cy) in [('K', 11, 4), ('Q', 4, 4), ('k', 11, 11), ('q', 4, 11)] {
                            let king_x = 8;
                            let white = c.is_ascii_uppercase();
                            let row = if white { 4 } else { 11 };
                            if (x, y) == (cx, cy) || (tx, ty) == (cx, cy) || (x, y) == (king_x, row) {
                                g.rights = g.rights.replace(c, "");
                            }
                        }
                        g
                    };
                    let text = |tx: i32, ty: i32| format!("{}{}", name(x, y), name(tx, ty));
                    let free = |tx: i32, ty: i32| self.at(tx, ty) == Empty;
                    let enemy = |tx: i32, ty: i32| matches!(self.at(tx, ty), Piece(w, _) if w != us);
                    match kind {
                        'P' => {
                            let mut targets = Vec::new();
                            if free(x, y + fwd) {
                                targets.push((x, y + fwd));
                                if y == start_row && free(x, y + 2 * fwd) {
                                    let mut g = go(x, y + 2 * fwd);
                                    g.ep = Some((x, y + fwd));
                                    add(text(x, y + 2 * fwd), g);
                                }
                            }
                            for dx in [-1, 1] {
                                if enemy(x + dx, y + fwd) {
                                    targets.push((x + dx, y + fwd));
                                }
                                if self.ep == Some((x + dx, y + fwd)) && free(x + dx, y + fwd) {
                                    let mut g = go(x + dx, y + fwd);
                                    g.set(x + dx, y, Empty);
                                    add(text(x + dx, y + fwd), g);
                                }
                            }
                            for (tx, ty) in targets {
                                if ty == promo_row {
                                    for p in ['Q', 'R', 'B', 'N'] {
                                        let mut g = go(tx, ty);
                                        g.set(tx, ty, Piece(us, p));
                                        add(format!("{}{}", text(tx, ty), p.to_ascii_lowercase()), g);
                                    }
                                } else {
                                    add(text(tx, ty), go(tx, ty));
                                }
                            }
                        }
                        'N' | 'K' => {
                            let steps: Vec<(i32, i32)> = if kind == 'N' {
                                vec![(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
                            } else {
                                (-1..=1).flat_map(|a| (-1..=1).map(move |b| (a, b))).filter(|&s| s != (0, 0)).collect()
                            };
                            for (dx, dy) in steps {
                                if free(x + dx, y + dy) || enemy(x + dx, y + dy) {
                                    add(text(x + dx, y + dy), go(x + dx, y + dy));
                                }
                            }
                        }
                        _ => {
                            let dirs: Vec<(i32, i32)> = match kind {
                                'R' => vec![(1, 0), (-1, 0), (0, 1), (0, -1)],
                                'B' => vec![(1, 1), (-1, 1), (1, -1), (-1, -1)],
                                _ => (-1..=1)
                                    .flat_map(|a| (-1..=1).map(move |b| (a, b)))
                                    .filter(|&s| s != (0, 0))
                                    .collect(),
                            };
                            for (dx, dy) in dirs {
                                let (mut tx, mut ty) = (x + dx, y + dy);
                                while free(tx, ty) || enemy(tx, ty) {
                                    add(text(tx, ty), go(tx, ty));
                                    if enemy(tx, ty) {
                                        break;
                                    }
                                    tx += dx;
                                    ty += dy;
                                }
                            }
                        }
                    }
                    if kind == 'K' {
                        let row = if us { 4 } else { 11 };
                        for (right, rook_x, king_to, rook_to, between) in
                            [('K', 11, 10, 9, vec![9, 10]), ('Q', 4, 6, 7, vec![5, 6, 7])]
                        {
                            let right = if us { right } else { right.to_ascii_lowercase() };
                            if !self.rights.contains(right)
                                || (x, y) != (8, row)
                                || self.at(rook_x, row) != Piece(us, 'R')
                            {
                                continue;
                            }
                            if !between.iter().all(|&bx| free(bx, row)) {
                                continue;
                            }
                            let passes: Vec<i32> = if king_to > 8 { vec![8, 9, 10] } else { vec![8, 7, 6] };
                            if passes.iter().any(|&px| self.attacked(px, row, !us)) {
                                continue;
                            }
                            let mut g = go(king_to, row);
                            g.set(rook_x, row, Empty);
                            g.set(rook_to, row, Piece(us, 'R'));
                            add(text(king_to, row), g);
                        }
                    }
                }
            }
            out
        }

        /// Every legal turn and the game after it.
        pub fn turns(&self) -> Vec<(String, Game)> {
            let us = self.white;
            let mut out = Vec::new();
            // Piece moves leave the tiles where they are, so which tiles
            // the board's shape lets move is the same after each of them.
            let mut shape = Vec::new();
            for y in 0..16 {
                for x in 0..16 {
                    for (dx, dy) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                        let (tx, ty) = (x + dx, y + dy);
                        if self.is_tile(x, y)
                            && inside(tx, ty)
                            && self.at(tx, ty) == Rift
                            && self.tile_may_move(x, y, tx, ty)
                        {
                            shape.push((x, y, tx, ty));
                        }
                    }
                }
            }
            for (text, mut g) in self.piece_moves() {
                if self.first_turn {
                    g.first_turn = false;
                    g.white = !us;
                    out.push((text, g));
                    continue;
                }
                let mut shifted = false;
                for &(x, y, tx, ty) in &shape {
                    if g.at(x, y) != Empty {
                        continue;
                    }
                    let mut h = g.clone();
                    h.set(tx, ty, Empty);
                    h.set(x, y, Rift);
                    if h.ep == Some((x, y)) {
                        h.ep = None;
                    }
                    if h.king_safe(us) {
                        h.white = !us;
                        out.push((format!("{text},{}{}", name(x, y), name(tx, ty)), h));
                        shifted = true;
                    }
                }
                if !shifted {
                    g.white = !us;
                    out.push((text, g));
                }
            }
            if self.first_turn {
                return out;
            }
            // Gerets: a pawn and its tile, forward or sideways, into a rift.
            let fwd = if us { 1 } else { -1 };
            let promo_row = if us { 11 } else { 4 };
            for y in 0..16 {
                for x in 0..16 {
                    if self.at(x, y) != Piece(us, 'P') {
                        continue;
                    }
                    for (dx, dy) in [(0, fwd), (-1, 0), (1, 0)] {
                        let (tx, ty) = (x + dx, y + dy);
                        if !inside(tx, ty) || self.at(tx, ty) != Rift || !self.tile_may_move(x, y, tx, ty) {
                            continue;
                        }
                        let kinds: Vec<char> = if ty == promo_row { vec!['Q', 'R', 'B', 'N'] } else { vec!['P'] };
                        for k in kinds {
                            let mut g = self.clone();
                            g.set(tx, ty, Piece(us, k));
                            g.set(x, y, Rift);
                            g.ep = None;
                            if g.king_safe(us) {
                                g.white = !us;
                                let suffix = if k == 'P' { String::new() } else { k.to_ascii_lowercase().to_string() };
                                out.push((format!("{}{}{suffix}", name(x, y), name(tx, ty)), g));
                            }
                        }
                    }
                }
            }
            out
        }
    }

    pub fn perft(g: &Game, depth: u32) -> u64 {
        let turns = g.turns();
        if depth == 1 {
            return turns.len() as u64;
        }
        turns.iter().map(|(_, next)| perft(next, depth - 1)).sum()
    }
}

fn beyond() -> AnyRules {
    AnyRules::by_name("beyond").unwrap()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// Compares the legal turn lists, then perft, of the engine and the plain
/// generator.
fn agree(fen: &str, depth: u32) {
    let mut pos = beyond().from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let game = plain::parse(fen);
    let engine = sorted(pos.legal_moves());
    let reference = sorted(game.turns().into_iter().map(|(t, _)| t).collect());
    if engine != reference {
        let only_engine: Vec<_> = engine.iter().filter(|m| !reference.contains(m)).take(10).collect();
        let only_plain: Vec<_> = reference.iter().filter(|m| !engine.contains(m)).take(10).collect();
        panic!("{fen}\nengine only: {only_engine:?}\nplain only: {only_plain:?}");
    }
    assert_eq!(pos.perft(depth), plain::perft(&game, depth), "perft {depth} of {fen}");
}

/// A small deterministic generator, so that failures reproduce.
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

const RIFTS: &str = "****************";

/// Custom layouts: the rulebook's variations are any connected set of
/// tiles with any placement.
fn layouts() -> Vec<String> {
    let frame = |rows: [&str; 8]| {
        let mut all = vec![RIFTS.to_string(); 4];
        all.extend(rows.iter().map(|r| format!("****{r}****")));
        all.extend(vec![RIFTS.to_string(); 4]);
        all.join("/")
    };
    vec![
        beyond().variant().start_fen.clone(),
        // The frame split into two halves that touch only at a corner.
        format!("{} w - - 0 5 -", frame(["rnbqkbnr", "pppppppp", "8", "4****", "****4", "8", "PPPPPPPP", "RNBQKBNR"])),
        // A board with holes in the middle and castling through them.
        format!(
            "{} b KQkq - 0 9 -",
            frame(["r3k2r", "pppp*ppp", "2n*1n2", "3**3", "2*2*2", "2N2N2", "PPP*PPPP", "R3K2R"])
        ),
        // Tiles outside the frame, Black's king and rook above rank 8.
        [
            RIFTS,
            RIFTS,
            "******4******",
            "****r2k4****",
            "****8****",
            "***1ppp5****",
            "****8****",
            "****3P4****",
            "****8****",
            "****2K5****",
            "****8****",
            RIFTS,
            RIFTS,
            RIFTS,
            RIFTS,
            RIFTS,
        ]
        .join("/")
            + " w - - 0 12 -",
    ]
}

fn random_positions(count: usize) -> Vec<String> {
    let mut rng = Lcg(0xBE10D);
    let mut out = Vec::new();
    let starts = layouts();
    while out.len() < count {
        let start = &starts[out.len() % starts.len()];
        let mut pos: AnyPosition = beyond().from_fen(start).unwrap();
        let plies = 4 + rng.below(40);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer gerets and captures now and then, so they occur.
            pos.play(&moves[rng.below(moves.len())]).unwrap();
        }
        if !pos.legal_moves().is_empty() {
            out.push(pos.fen());
        }
    }
    out
}

#[test]
fn perft_from_the_start_agrees_to_depth_3() {
    let fen = beyond().variant().start_fen.clone();
    agree(&fen, 2);
    let mut pos = beyond().start();
    assert_eq!(pos.perft(3), plain::perft(&plain::parse(&fen), 3));
}

#[test]
fn perft_from_30_positions_agrees_to_depth_2() {
    let mut positions = layouts();
    positions.extend(random_positions(30));
    parallel::for_each(&positions, |fen| agree(fen, 2));
}

/// A position from a short description: `tiles` are rectangles of empty
/// tiles (`a1-h8`), `rifts` cells taken out of them, `pieces` letters on
/// cells (`Ke1`); everything else is a rift.
fn board(tiles: &[&str], rifts: &[&str], pieces: &[&str], rest: &str) -> String {
    let g = beyond().variant().geometry;
    let cell = |name: &str| g.parse_cell(name).unwrap_or_else(|| panic!("{name}"));
    let mut grid = vec![Some('*'); g.cells()];
    for rect in tiles {
        let (a, b) = rect.split_once('-').unwrap_or((rect, rect));
        let (a, b) = (cell(a), cell(b));
        for rank in g.rank(a)..=g.rank(b) {
            for file in g.file(a)..=g.file(b) {
                grid[g.cell(file, rank)] = None;
            }
        }
    }
    for r in rifts {
        grid[cell(r)] = Some('*');
    }
    for p in pieces {
        grid[cell(&p[1..])] = p.chars().next();
    }
    format!("{} {rest}", fen::board_rows(g, |c| grid[c]))
}

fn turns(fen: &str) -> Vec<String> {
    let fen_checked = fen.to_string();
    let mut pos = beyond().from_fen(fen).unwrap_or_else(|e| panic!("{fen_checked}: {e}"));
    agree(fen, 1);
    sorted(pos.legal_moves())
}

fn strings(list: &[&str]) -> Vec<String> {
    sorted(list.iter().map(|s| s.to_string()).collect())
}

#[test]
fn the_first_turn_has_no_tile_shift_and_the_second_has() {
    let mut pos = beyond().start();
    let first = pos.legal_moves();
    assert_eq!(first.len(), 20);
    assert!(first.iter().all(|m| !m.contains(',')));
    pos.play("e2e4").unwrap();
    let second = pos.legal_moves();
    // Every turn has a tile shift but the gerets of the edge pawns.
    let alone: Vec<&String> = second.iter().filter(|m| !m.contains(',')).collect();
    assert_eq!(alone, vec!["a7z7", "h7i7"]);
    assert!(second.contains(&"e7e5,h4i4".to_string()));
    assert_eq!(pos.play("e7e5"), Err(protean_rules::MoveError::Illegal("e7e5".into())));
    assert_eq!(pos.san("e7e5,h4i4").unwrap(), "e5,h4i4");
    assert_eq!(pos.san("a7z7").unwrap(), "a7z7");
    assert_eq!(pos.san("g8f6,g8g9").unwrap(), "Nf6,g8g9");
}

#[test]
fn orphaning_and_splitting_tiles_is_refused() {
    // Tiles a1 b2 c1 d1 in a V: after Kb2, c1 may go up (c2) but not left
    // (b1 would leave d1 alone: split) or down (c0: a1-b2 and c0-d1
    // split); a1 may go up or right but not down or left (orphaned).
    let fen = board(&["a1", "b2", "c1-d1"], &[], &["Ka1", "kd1"], "w - - 0 2 -");
    assert_eq!(turns(&fen), strings(&["a1b2,a1a2", "a1b2,a1b1", "a1b2,c1c2"]));
}

#[test]
fn the_eighth_shuttle_of_a_tile_draws() {
    // The last shift took the tile from a1 to b1, the seventh such shift
    // in a row; taking it back is the eighth.
    let fen = board(&["b1", "b2", "c1-d1", "a2", "c3"], &[], &["Kb2", "kd1", "Pc3"], "w - - 0 20 a1b1:7");
    let list = turns(&fen);
    assert!(list.contains(&"b2a2,b1a1".to_string()), "{list:?}");
    let mut pos = beyond().from_fen(&fen).unwrap();
    pos.play("b2a2,b1a1").unwrap();
    assert!(pos.fen().ends_with(" b1a1:8"), "{}", pos.fen());
    assert_eq!(pos.outcome(), Some(protean_rules::Outcome::Shuttle));
    let mut pos = beyond().from_fen(&fen).unwrap();
    pos.play("b2a2,c1c2").unwrap();
    assert!(pos.fen().ends_with(" c1c2:1"), "{}", pos.fen());
    assert_eq!(pos.outcome(), None);
}

#[test]
fn a_pawn_gerets_forward_and_sideways_but_never_backward() {
    // The pawn on c4 has rifts ahead (c5), to its right (d4) and behind
    // (c3); b4 to its left is a tile.
    let fen = board(&["a2-e2", "a3-b3", "d3-e3", "b4-c4"], &[], &["Ka2", "ke2", "Pc4"], "w - - 0 2 -");
    let list = turns(&fen);
    let pawn: Vec<&String> = list.iter().filter(|m| m.starts_with("c4")).collect();
    assert_eq!(pawn, vec!["c4c5", "c4d4"], "{list:?}");
    let mut pos = beyond().from_fen(&fen).unwrap();
    pos.play("c4d4").unwrap();
    assert_eq!(
        pos.fen().split(' ').next(),
        board(&["a2-e2", "a3-b3", "d3-e3", "b4", "d4"], &[], &["Ka2", "ke2", "Pd4"], "").split(' ').next()
    );
}

#[test]
fn check_is_answered_by_the_piece_move_only() {
    // The rook on e8 checks; moving the empty tile e4 to f4 would leave a
    // rift that blocks, but a tile shift never answers a check: every
    // turn's piece move is a king move out of check.
    let fen = board(&["a1-h8"], &["f4"], &["Ke1", "Na1", "re8", "ka8"], "w - - 0 2 -");
    let list = turns(&fen);
    let mut pieces: Vec<&str> = list.iter().map(|m| m.split(',').next().unwrap()).collect();
    pieces.dedup();
    assert_eq!(pieces, vec!["e1d1", "e1d2", "e1f1", "e1f2"]);
    assert!(!list.iter().any(|m| m.starts_with("a1")));
}

#[test]
fn a_tile_shift_may_not_expose_the_own_king_but_may_give_check() {
    // The rift on e4 shields the king on e1 from the rook on e8. A tile
    // moving into it from the side (d4, f4) opens the file again; one
    // from the file itself (e3, e5) leaves a rift behind that still shields.
    let fen = board(&["a1-h8"], &["e4"], &["Ke1", "Ra1", "re8", "kh8"], "w - - 0 2 -");
    let list = turns(&fen);
    let into_e4 = |piece: &str| -> Vec<String> {
        list.iter().filter(|m| m.starts_with(piece) && m.ends_with("e4")).cloned().collect()
    };
    assert_eq!(into_e4("a1a2,"), strings(&["a1a2,e3e4", "a1a2,e5e4"]), "the king stays on the file");
    assert_eq!(into_e4("e1d1,"), strings(&["e1d1,d4e4", "e1d1,e3e4", "e1d1,e5e4", "e1d1,f4e4"]));
    // Black: the same tile shift opens the e-file onto White's king.
    let fen = board(&["a1-h8"], &["e4"], &["Ke1", "Ra1", "re8", "kh8"], "b - - 0 2 -");
    let mut pos = beyond().from_fen(&fen).unwrap();
    assert!(!pos.in_check());
    pos.play("h8g8,d4e4").unwrap();
    assert!(pos.in_check(), "the shift gave check: {}", pos.fen());
}

#[test]
fn castling_across_a_rift_is_refused() {
    let fen = board(&["a1-h8"], &["b1"], &["Ke1", "Ra1", "Rh1", "ke8"], "w KQ - 0 2 -");
    let mut pieces: Vec<String> =
        turns(&fen).iter().filter(|m| m.starts_with("e1")).map(|m| m.split(',').next().unwrap().to_string()).collect();
    pieces.dedup();
    assert_eq!(pieces, strings(&["e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"]));
}

#[test]
fn pawns_promote_on_the_kings_rank_outside_the_frame() {
    // i7 and i8 lie right of the frame; the pawn on j7 has a rift ahead
    // and gerets onto rank 8, promoting as it goes.
    let fen = board(&["a1-h8", "i7-i8", "j7"], &[], &["Ke1", "ke8", "Pi7", "Pj7"], "w - - 0 2 -");
    let list = turns(&fen);
    let mut pawn: Vec<String> = list
        .iter()
        .filter(|m| m.starts_with('i') || m.starts_with('j'))
        .map(|m| m.split(',').next().unwrap().to_string())
        .collect();
    pawn.dedup();
    assert_eq!(pawn, strings(&["i7i8b", "i7i8n", "i7i8q", "i7i8r", "j7j8b", "j7j8n", "j7j8q", "j7j8r"]));
}

#[test]
fn a_bare_king_must_be_mated_within_30_moves() {
    // Black has only its king; White has 30 of its own moves to mate.
    let fen = board(&["a1-h8"], &[], &["Ka1", "Qb3", "Rc2", "kh8"], "w - - 0 2 -");
    let mut pos = beyond().from_fen(&fen).unwrap();
    // White moves on even turns: its 30th move is turn 58.
    for turn in 0..59 {
        let moves = pos.legal_moves();
        // Any turn that neither mates nor gives up material nor repeats.
        let pick = (0..moves.len())
            .map(|i| &moves[(i + turn * 7) % moves.len()])
            .find(|m| {
                let mut next = pos.clone();
                next.play(m).unwrap();
                let white = turn % 2 == 0;
                let keeps_material = white || next.fen().matches(['Q', 'R']).count() == 2;
                keeps_material
                    && !matches!(
                        next.outcome(),
                        Some(protean_rules::Outcome::Checkmate { .. } | protean_rules::Outcome::Repetition)
                    )
            })
            .expect("a quiet turn")
            .clone();
        assert_eq!(pos.outcome(), None, "turn {turn}: {}", pos.fen());
        pos.play(&pick).unwrap();
    }
    assert_eq!(pos.outcome(), Some(protean_rules::Outcome::BareKing), "{}", pos.fen());
}

#[test]
fn en_passant_reads_back_when_the_pawns_start_tile_has_moved_away() {
    // Black's pawn goes a7-a5 and the turn's shift moves the tile it left
    // (a7 to z7): a6 can still be taken en passant, and the FEN written
    // then, whose a7 is a rift, must read back with that right.
    let fen = "****************/****************/****************/*******1q1******/****r*1**rnk****/****pb2np2****/***2*N3pp****/**1*1Pppp2*1***/*****3P1*2***/****P1NP1K*1*1**/****1RP2PPP****/****3Q*BR*1***/********1*******/****************/****************/**************** b - - 0 21 b6a6:1";
    let mut pos = beyond().from_fen(fen).unwrap();
    pos.play("a7a5,a7z7").unwrap();
    let written = pos.fen();
    assert!(written.contains(" w - a6 "), "{written}");
    let mut read = beyond().from_fen(&written).unwrap();
    assert_eq!(read.fen(), written);
    let moves = read.legal_moves();
    assert!(moves.iter().any(|m| m.starts_with("b5a6")), "{moves:?}");
}
