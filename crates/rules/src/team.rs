//! Perplexichess's team rules (RULINGS.md, Perplexichess 1-6) above the
//! single board: what a transfer names, how an unfinished board is judged
//! at the game's time limit, and how the boards' results make the team
//! result. Whether a transfer is legal on the boards is `transfer.rs`;
//! playing the boards is the arena's.

use crate::piece::Color;
use std::cmp::Ordering;

/// A transfer: a grand strategist of `color` moves his piece on `cell`
/// of board `from` (numbered from 0) to the same cell of board `to`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transfer {
    pub color: Color,
    pub from: usize,
    pub cell: String,
    pub to: usize,
}

/// The boards a team game is played on: 3 (small), 5 (medium) or 7 (large).
pub const BOARD_COUNTS: [usize; 3] = [3, 5, 7];

/// An unfinished board at the game's time limit goes to the side with
/// more pieces on it (`None`: equal counts, drawn). `counts` are White's
/// and Black's pieces.
pub fn time_limit_winner([white, black]: [u32; 2]) -> Option<Color> {
    match white.cmp(&black) {
        Ordering::Greater => Some(Color::White),
        Ordering::Less => Some(Color::Black),
        Ordering::Equal => None,
    }
}

/// The team game's result from its boards' winners (`None`: a drawn
/// board): boards won by White and by Black, and the team that won more
/// (`None`: drawn).
pub fn team_result(board_winners: &[Option<Color>]) -> ([usize; 2], Option<Color>) {
    let mut won = [0, 0];
    for winner in board_winners.iter().flatten() {
        won[*winner as usize] += 1;
    }
    let winner = match won[0].cmp(&won[1]) {
        Ordering::Greater => Some(Color::White),
        Ordering::Less => Some(Color::Black),
        Ordering::Equal => None,
    };
    (won, winner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_team_with_more_won_boards_wins() {
        let (w, b, d) = (Some(Color::White), Some(Color::Black), None);
        assert_eq!(team_result(&[w, b, d]), ([1, 1], None));
        assert_eq!(team_result(&[w, d, d]), ([1, 0], Some(Color::White)));
        assert_eq!(team_result(&[b, b, w, d, w]), ([2, 2], None));
        assert_eq!(team_result(&[b, b, w, d, d]), ([1, 2], Some(Color::Black)));
    }

    #[test]
    fn at_the_time_limit_more_pieces_win_a_board() {
        assert_eq!(time_limit_winner([9, 7]), Some(Color::White));
        assert_eq!(time_limit_winner([3, 12]), Some(Color::Black));
        assert_eq!(time_limit_winner([5, 5]), None);
    }
}
