//! Board geometry: size, cell indices and cell names.
//!
//! Cells are numbered `rank * width + file` from White's lower left. Names
//! are a file letter and a rank number (`a1`, `i9`, `p1`, `a10`), so boards
//! up to 26 files and any number of ranks have names that round-trip.
//!
//! A board may name its cells from an origin other than its lower left
//! corner: Beyond Chess's arena keeps the names of the 8x8 frame in its
//! middle (a1..h8), continues past h as i, j, k, l and past 8 as 9..12, and
//! names the files left of a from the end of the alphabet (z next to a,
//! then y, x, w) and the ranks below 1 as 0, -1, -2, -3. The letters never
//! collide because a board has at most 26 files.

use std::fmt;

/// The largest board any variant may use: a 16x16 arena is 256 cells.
pub const MAX_CELLS: usize = 256;

/// The file and rank of each cell, by board width: a lookup where
/// dividing by a width known only at run time takes tens of cycles
/// (offsets and files are asked for in the evaluation, static exchanges
/// and every compile of a rule change's rules).
static FILE_RANK: [[(u8, u8); MAX_CELLS]; MAX_FILES + 1] = file_rank_table();

/// At most one letter per file.
const MAX_FILES: usize = 26;

const fn file_rank_table() -> [[(u8, u8); MAX_CELLS]; MAX_FILES + 1] {
    let mut table = [[(0, 0); MAX_CELLS]; MAX_FILES + 1];
    let mut width = 1;
    while width <= MAX_FILES {
        let mut cell = 0;
        while cell < MAX_CELLS {
            table[width][cell] = ((cell % width) as u8, (cell / width) as u8);
            cell += 1;
        }
        width += 1;
    }
    table
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    width: u8,
    height: u8,
    /// The file and rank index of the cell named `a1`.
    origin: (u8, u8),
}

/// A direction or displacement in cells, White's point of view: `dy > 0`
/// is forward for White.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Step {
    pub dx: i8,
    pub dy: i8,
}

impl Step {
    pub const fn new(dx: i8, dy: i8) -> Step {
        Step { dx, dy }
    }
    pub fn reversed(self) -> Step {
        Step::new(-self.dx, -self.dy)
    }
    /// The same step as Black sees it (forward is down the board).
    pub fn for_black(self) -> Step {
        Step::new(self.dx, -self.dy)
    }
}

impl Geometry {
    /// A board of `width` x `height` cells, at most [`MAX_CELLS`] in all and
    /// at most 26 files (one letter per file).
    pub fn new(width: u8, height: u8) -> Option<Geometry> {
        let ok =
            width >= 1 && height >= 1 && width as usize <= MAX_FILES && (width as usize * height as usize) <= MAX_CELLS;
        ok.then_some(Geometry { width, height, origin: (0, 0) })
    }

    /// The same board with `a1` on file index `file` and rank index `rank`.
    pub fn with_origin(self, file: u8, rank: u8) -> Option<Geometry> {
        (file < self.width && rank < self.height).then_some(Geometry { origin: (file, rank), ..self })
    }

    /// File and rank indices of the cell named `a1`.
    pub fn origin(self) -> (usize, usize) {
        (self.origin.0 as usize, self.origin.1 as usize)
    }

    #[inline(always)]
    pub fn width(self) -> usize {
        self.width as usize
    }
    #[inline(always)]
    pub fn height(self) -> usize {
        self.height as usize
    }
    #[inline(always)]
    pub fn cells(self) -> usize {
        self.width() * self.height()
    }
    #[inline(always)]
    pub fn file(self, cell: usize) -> usize {
        match FILE_RANK[self.width()].get(cell) {
            Some(&(file, _)) => file as usize,
            None => cell % self.width(),
        }
    }
    #[inline(always)]
    pub fn rank(self, cell: usize) -> usize {
        match FILE_RANK[self.width()].get(cell) {
            Some(&(_, rank)) => rank as usize,
            None => cell / self.width(),
        }
    }
    #[inline(always)]
    pub fn cell(self, file: usize, rank: usize) -> usize {
        rank * self.width() + file
    }

    /// The cell `step` away from `cell`, if it is on the board.
    pub fn offset(self, cell: usize, step: Step) -> Option<usize> {
        let f = self.file(cell) as i32 + step.dx as i32;
        let r = self.rank(cell) as i32 + step.dy as i32;
        let inside = (0..self.width() as i32).contains(&f) && (0..self.height() as i32).contains(&r);
        inside.then(|| self.cell(f as usize, r as usize))
    }

    /// The same cell seen from the other side of the board (rank mirrored).
    pub fn mirror_rank(self, cell: usize) -> usize {
        self.cell(self.file(cell), self.height() - 1 - self.rank(cell))
    }

    /// Light and dark cells alternate with a1 dark; returns true for dark.
    pub fn is_dark(self, cell: usize) -> bool {
        (self.file(cell) + self.rank(cell)).is_multiple_of(2)
    }

    pub fn name(self, cell: usize) -> CellName {
        CellName {
            file: self.file(cell) as i8 - self.origin.0 as i8,
            rank: self.rank(cell) as i16 - self.origin.1 as i16 + 1,
        }
    }

    /// Parses a whole cell name such as `e4` or `a10`.
    pub fn parse_cell(self, s: &str) -> Option<usize> {
        match self.parse_cell_prefix(s) {
            Some((cell, "")) => Some(cell),
            _ => None,
        }
    }

    /// Parses a cell name at the start of `s` and returns the rest. The rank
    /// takes as many digits as make a rank of this board, so `a10` on a
    /// 16-rank board is one cell and `a1a2` is two.
    pub fn parse_cell_prefix(self, s: &str) -> Option<(usize, &str)> {
        let bytes = s.as_bytes();
        let letter = *bytes.first()?;
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let index = (letter - b'a') as i32;
        let (x0, y0) = (self.origin.0 as i32, self.origin.1 as i32);
        // Letters from `a` on name the files from the origin rightwards;
        // the files left of it take letters back from `z`.
        let file = if index < self.width() as i32 - x0 { x0 + index } else { x0 - (26 - index) };
        if file < 0 {
            return None;
        }
        let negative = bytes.get(1) == Some(&b'-');
        let start = 1 + negative as usize;
        let digits = bytes[start..].iter().take_while(|b| b.is_ascii_digit()).count();
        // Longest run of digits that still names a rank of this board.
        for len in (1..=digits.min(3)).rev() {
            let text = &s[start..start + len];
            // `0` names a rank only alone and unsigned; no leading zeros.
            if text.starts_with('0') && (len > 1 || negative) {
                continue;
            }
            let number: i32 = text.parse().ok()?;
            let rank = y0 - 1 + if negative { -number } else { number };
            if (0..self.height() as i32).contains(&rank) {
                return Some((self.cell(file as usize, rank as usize), &s[start + len..]));
            }
        }
        None
    }
}

impl Geometry {
    /// Two cell names at the start of `text` (a move's from and to), and
    /// what follows them.
    pub fn parse_cell_pair(self, text: &str) -> Option<(usize, usize, &str)> {
        let (a, rest) = self.parse_cell_prefix(text)?;
        let (b, rest) = self.parse_cell_prefix(rest)?;
        Some((a, b, rest))
    }
}

/// The printable name of a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellName {
    /// Files from the origin: 0 is `a`, -1 is `z`.
    file: i8,
    /// Ranks as named: 1 is the origin's rank, 0 and below lie under it.
    rank: i16,
}

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = if self.file >= 0 { b'a' + self.file as u8 } else { (b'z' as i8 + 1 + self.file) as u8 };
        write!(f, "{}{}", letter as char, self.rank)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The looked-up file and rank are the division's, on every board.
    #[test]
    fn files_and_ranks_are_the_division_by_the_width() {
        for width in 1..=MAX_FILES as u8 {
            let g = Geometry::new(width, (MAX_CELLS / width as usize).min(255) as u8).unwrap();
            for cell in 0..g.cells() + 3 {
                assert_eq!(
                    (g.file(cell), g.rank(cell)),
                    (cell % width as usize, cell / width as usize),
                    "cell {cell}, width {width}"
                );
            }
        }
    }

    #[test]
    fn names_round_trip_on_every_size() {
        for (w, h) in [(8, 8), (9, 9), (16, 1), (16, 16), (10, 12)] {
            let g = Geometry::new(w, h).unwrap();
            for c in 0..g.cells() {
                let name = g.name(c).to_string();
                assert_eq!(g.parse_cell(&name), Some(c), "{name} on {w}x{h}");
            }
        }
    }

    #[test]
    fn names_round_trip_around_an_origin() {
        let g = Geometry::new(16, 16).unwrap().with_origin(4, 4).unwrap();
        for c in 0..g.cells() {
            let name = g.name(c).to_string();
            assert_eq!(g.parse_cell(&name), Some(c), "{name}");
        }
        assert_eq!(g.name(g.cell(4, 4)).to_string(), "a1");
        assert_eq!(g.name(g.cell(15, 15)).to_string(), "l12");
        assert_eq!(g.name(g.cell(3, 3)).to_string(), "z0");
        assert_eq!(g.name(g.cell(0, 0)).to_string(), "w-3");
        assert_eq!(g.parse_cell_prefix("e-1e0"), Some((g.cell(8, 2), "e0")));
        assert_eq!(g.parse_cell("a-0"), None);
        assert_eq!(g.parse_cell("a13"), None);
        assert_eq!(g.parse_cell("v1"), None);
    }

    #[test]
    fn multi_digit_ranks_split_where_they_must() {
        let g = Geometry::new(16, 16).unwrap();
        assert_eq!(g.parse_cell_prefix("a10b2"), Some((g.cell(0, 9), "b2")));
        assert_eq!(g.parse_cell_prefix("a1a2"), Some((0, "a2")));
        let small = Geometry::new(8, 8).unwrap();
        assert_eq!(small.parse_cell("a9"), None);
        assert_eq!(small.parse_cell("i1"), None);
        assert_eq!(small.parse_cell("a0"), None);
        assert_eq!(small.parse_cell(""), None);
    }

    #[test]
    fn offsets_stay_on_the_board() {
        let g = Geometry::new(8, 8).unwrap();
        assert_eq!(g.offset(g.cell(7, 0), Step::new(1, 0)), None);
        assert_eq!(g.offset(g.cell(0, 0), Step::new(1, 2)), Some(g.cell(1, 2)));
    }
}
