//! Betza notation: how a piece moves, as a string.
//!
//! Supported, after Ralph Betza and XBoard's reading of it:
//! - leaper atoms `W F D N A H C Z G` (each the eight symmetric jumps of one
//!   displacement) and the shorthands `K` (= `WF`), `R` (= `WW`), `B`
//!   (= `FF`), `Q` (= `RB`);
//! - riders: a doubled atom (`WW`, `NN`) rides without limit, a number after
//!   an atom or a rider limits its range (`R3` = rook up to three cells,
//!   `D3` = dabbaba rider up to three jumps);
//! - direction modifiers `f b l r v s`, alone or paired (`fl` on `F` is the
//!   forward-left diagonal, `ff`/`fs` on `N` the narrow and wide forward
//!   jumps); pairs that select nothing on an atom count as two single
//!   letters, so `fsW` is forward plus sideways;
//! - `m` move only, `c` capture only, `i` only from the piece's initial
//!   cells (see `Variant` for what those are).
//!
//! Parsing gives a [`Movement`]: one [`Leg`] per direction, which the
//! tables turn into per-cell bitboards.

use crate::geometry::Step;
use std::fmt;

/// Whether a leg may end on an empty cell, on an enemy, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mode {
    pub moves: bool,
    pub captures: bool,
}

/// One direction of a piece's movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Leg {
    pub step: Step,
    /// How many steps at most: 1 for a leaper, [`UNLIMITED`] for a full rider.
    pub range: u8,
    pub mode: Mode,
    pub initial_only: bool,
}

/// The range of a rider without limit (longer than any board).
pub const UNLIMITED: u8 = u8::MAX;

/// A parsed Betza string: every leg of a piece, as White plays it.
#[derive(Clone, Debug, Eq)]
pub struct Movement {
    pub legs: Vec<Leg>,
}

impl Movement {
    /// The legs in a fixed order without repeats, so that two notations
    /// of the same movement (`K` and `WF`, `R` and `WW`) compare equal.
    pub(crate) fn normal(&self) -> Vec<(Step, u8, bool, bool, bool)> {
        let mut legs: Vec<_> =
            self.legs.iter().map(|l| (l.step, l.range, l.mode.moves, l.mode.captures, l.initial_only)).collect();
        legs.sort();
        legs.dedup();
        legs
    }
}

/// Equal when the piece moves the same, however it is written.
impl PartialEq for Movement {
    fn eq(&self, other: &Movement) -> bool {
        self.normal() == other.normal()
    }
}

impl std::hash::Hash for Movement {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.normal().hash(state);
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    pub text: String,
    pub reason: String,
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad Betza notation '{}': {}", self.text, self.reason)
    }
}
impl std::error::Error for BetzaError {}

fn atom_displacement(atom: char) -> Option<(i8, i8)> {
    Some(match atom {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (2, 1),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' => (3, 1),
        'Z' => (3, 2),
        'G' => (3, 3),
        _ => return None,
    })
}

/// The eight (or four) symmetric steps of a displacement.
fn symmetric_steps((a, b): (i8, i8)) -> Vec<Step> {
    let mut steps = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let s = Step::new(x * sx, y * sy);
                if !steps.contains(&s) {
                    steps.push(s);
                }
            }
        }
    }
    steps.sort();
    steps
}

fn single(letter: char, s: Step) -> bool {
    let (x, y) = (s.dx.abs(), s.dy.abs());
    match letter {
        'f' => s.dy > 0,
        'b' => s.dy < 0,
        'l' => s.dx < 0,
        'r' => s.dx > 0,
        'v' => y > x,
        's' => x > y,
        _ => false,
    }
}

fn pair(first: char, second: char, s: Step) -> bool {
    let (x, y) = (s.dx.abs(), s.dy.abs());
    if first == second {
        // Doubled letters: the narrow jumps in that direction (`ffN`).
        return single(first, s) && if matches!(first, 'f' | 'b') { y > x } else { x > y };
    }
    single(first, s) && single(second, s)
}

/// Applies direction letters to an atom's steps (none selects all).
fn select_directions(dirs: &[char], steps: &[Step]) -> Vec<Step> {
    if dirs.is_empty() {
        return steps.to_vec();
    }
    let mut chosen = Vec::new();
    let mut i = 0;
    while i < dirs.len() {
        let paired = (i + 1 < dirs.len() && matches!(dirs[i], 'f' | 'b' | 'l' | 'r'))
            .then(|| steps.iter().copied().filter(|&s| pair(dirs[i], dirs[i + 1], s)).collect::<Vec<_>>())
            .filter(|found| !found.is_empty());
        match paired {
            Some(found) => {
                chosen.extend(found);
                i += 2;
            }
            None => {
                chosen.extend(steps.iter().copied().filter(|&s| single(dirs[i], s)));
                i += 1;
            }
        }
    }
    chosen.sort();
    chosen.dedup();
    chosen
}

/// Parses a Betza string such as `fmWfcF`, `BsW`, `R3` or `NN`.
pub fn parse(text: &str) -> Result<Movement, BetzaError> {
    let err = |reason: String| BetzaError { text: text.to_string(), reason };
    let chars: Vec<char> = text.chars().collect();
    let mut legs: Vec<Leg> = Vec::new();
    let mut i = 0;
    if chars.is_empty() {
        return Err(err("empty".into()));
    }
    while i < chars.len() {
        let mut dirs = Vec::new();
        let mut mode = Mode { moves: true, captures: true };
        let mut has_mode = false;
        let mut initial_only = false;
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            match chars[i] {
                'f' | 'b' | 'l' | 'r' | 'v' | 's' => dirs.push(chars[i]),
                'm' | 'c' => {
                    if !has_mode {
                        mode = Mode { moves: false, captures: false };
                        has_mode = true;
                    }
                    if chars[i] == 'm' {
                        mode.moves = true;
                    } else {
                        mode.captures = true;
                    }
                }
                'i' => initial_only = true,
                other => return Err(err(format!("modifier '{other}' is not supported"))),
            }
            i += 1;
        }
        let Some(&atom) = chars.get(i) else {
            return Err(err("modifiers without a piece letter at the end".into()));
        };
        i += 1;
        // Shorthands expand to atoms with a default range.
        let (atoms, mut range): (Vec<char>, u8) = match atom {
            'K' => (vec!['W', 'F'], 1),
            'R' => (vec!['W'], UNLIMITED),
            'B' => (vec!['F'], UNLIMITED),
            'Q' => (vec!['W', 'F'], UNLIMITED),
            a if atom_displacement(a).is_some() => (vec![a], 1),
            other => return Err(err(format!("'{other}' is not a piece letter"))),
        };
        if range == 1 && chars.get(i) == Some(&atom) {
            range = UNLIMITED;
            i += 1;
        }
        let digits: String = chars[i..].iter().take_while(|c| c.is_ascii_digit()).collect();
        if !digits.is_empty() {
            i += digits.len();
            range = match digits.parse::<u8>() {
                Ok(0) => UNLIMITED,
                Ok(n) if n < UNLIMITED => n,
                _ => return Err(err(format!("range {digits} is too large"))),
            };
        }
        let before = legs.len();
        for a in atoms {
            let steps = symmetric_steps(atom_displacement(a).expect("checked above"));
            let chosen = select_directions(&dirs, &steps);
            if chosen.is_empty() {
                let d: String = dirs.iter().collect();
                return Err(err(format!("directions '{d}' select no move of '{atom}'")));
            }
            for step in chosen {
                legs.push(Leg { step, range, mode, initial_only });
            }
        }
        // A part that adds nothing (`QQ`, `KW`) is a slip, not a piece: the
        // text would not say what the piece is in one way only.
        if legs[before..].iter().all(|l| legs[..before].contains(l)) {
            return Err(err(format!("'{atom}' repeats moves given before it")));
        }
    }
    Ok(Movement { legs })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(text: &str) -> Vec<(i8, i8, u8)> {
        let mut v: Vec<_> = parse(text).unwrap().legs.iter().map(|l| (l.step.dx, l.step.dy, l.range)).collect();
        v.sort();
        v
    }

    #[test]
    fn atoms_and_riders() {
        assert_eq!(steps("N").len(), 8);
        assert_eq!(steps("W").len(), 4);
        assert_eq!(steps("Q").len(), 8);
        assert!(steps("R").iter().all(|&(_, _, r)| r == UNLIMITED));
        assert!(steps("NN").iter().all(|&(_, _, r)| r == UNLIMITED));
        assert!(steps("R3").iter().all(|&(_, _, r)| r == 3));
        assert!(steps("D3").iter().all(|&(_, _, r)| r == 3));
        assert_eq!(steps("K"), steps("WF"));
        assert_eq!(steps("G").len(), 4);
    }

    #[test]
    fn directions() {
        assert_eq!(steps("fW"), vec![(0, 1, 1)]);
        assert_eq!(steps("fF"), vec![(-1, 1, 1), (1, 1, 1)]);
        assert_eq!(steps("flF"), vec![(-1, 1, 1)]);
        assert_eq!(steps("sW"), vec![(-1, 0, 1), (1, 0, 1)]);
        assert_eq!(steps("fsW"), vec![(-1, 0, 1), (0, 1, 1), (1, 0, 1)]);
        assert_eq!(steps("ffN"), vec![(-1, 2, 1), (1, 2, 1)]);
        assert_eq!(steps("fsN"), vec![(-2, 1, 1), (2, 1, 1)]);
        assert_eq!(steps("vR").len(), 2);
    }

    #[test]
    fn modes_and_initial() {
        let pawn = parse("fmWfcFifmR2").unwrap();
        let push = pawn.legs.iter().find(|l| l.step == Step::new(0, 1) && l.range == 1).unwrap();
        assert_eq!(push.mode, Mode { moves: true, captures: false });
        assert!(pawn.legs.iter().any(|l| l.initial_only && l.range == 2));
        assert!(pawn.legs.iter().filter(|l| l.step.dx != 0).all(|l| l.mode == Mode { moves: false, captures: true }));
    }

    #[test]
    fn errors_name_the_problem() {
        for bad in ["", "X", "fm", "xW", "fD9999", "bW1000"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert!(parse("lW").is_ok());
        assert!(parse("vF").is_err());
    }
}
