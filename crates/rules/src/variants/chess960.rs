//! Chess960 (Fischer Random Chess): standard chess from one of 960 start
//! positions, the pieces of the back rank shuffled with the bishops on
//! both colours and the king between the rooks; castling takes the king
//! and the rook it names to where they would stand after castling in
//! chess (see the `castling` module). `startpos` is position 518, chess's
//! own.

use crate::variant::{CastlingStart, StartPositions, Variant};

pub fn variant() -> Variant {
    let mut v = super::standard::variant();
    v.name = "chess960".into();
    v.castling_start = CastlingStart::BackRank { rook: v.piece_by_letter('R').expect("chess has rooks") };
    v.start_positions = Some(StartPositions::Chess960);
    v
}
