//! Flexichess (rule 2B of `shared/rules/seeds/perplexichess.txt`, as
//! RULINGS.md reads it): standard chess, in which a player may, instead of
//! moving, redefine how one kind of piece other than the king moves, for
//! both colours. The redefinitions the engine may choose are this
//! catalogue: the classic fairy movements for pieces, and the pawn moves
//! that keep a pawn a pawn. A position may carry any movement the Betza
//! parser reads (see the FEN's rules field), not only these.

use crate::variant::{Redefinition, Role, Variant};

/// (name, Betza) of the movements a piece may be given.
pub const PIECE_MOVEMENTS: &[(&str, &str)] = &[
    ("wazir", "W"),
    ("ferz", "F"),
    ("knight", "N"),
    ("bishop", "B"),
    ("rook", "R"),
    ("queen", "Q"),
    ("alfil", "A"),
    ("dabbaba", "D"),
    ("camel", "C"),
    ("zebra", "Z"),
    ("nightrider", "NN"),
    ("archbishop", "BN"),
    ("chancellor", "RN"),
    ("amazon", "QN"),
    ("mann", "K"),
];

/// (name, Betza) of the movements a pawn may be given: it still promotes
/// and takes en passant after a double step.
pub const PAWN_MOVEMENTS: &[(&str, &str)] = &[
    ("pawn", "fmWfcFifmR2"),
    ("pawn without the double step", "fmWfcF"),
    ("Berolina pawn", "fmFfcWifmF2"),
    ("pawn that also steps sideways", "fmWsmWfcFifmR2"),
];

pub fn variant() -> Variant {
    let mut v = super::standard::variant();
    v.name = "flexichess".into();
    let entry = |role: Role| move |&(name, betza): &(&str, &str)| Redefinition { name: name.into(), betza: betza.into(), role };
    v.redefinitions = PIECE_MOVEMENTS.iter().map(entry(Role::Other)).chain(PAWN_MOVEMENTS.iter().map(entry(Role::Pawn))).collect();
    v
}
