//! Positions and move generation for every Protean variant.
//!
//! A variant is data ([`Variant`]: geometry, Betza pieces, castling,
//! promotion, draw rules); [`Rules`] compiles it into per-cell tables for
//! one bitboard size; [`Position`] is generic over that size, so the hot
//! paths are monomorphised per board. [`AnyRules`] and [`AnyPosition`]
//! pick the size at run time.
//!
//! This crate knows nothing of search or protocols.

pub mod any;
pub mod attacks;
pub mod betza;
pub mod bitboard;
pub mod castling;
pub mod fen;
pub mod geometry;
pub mod legal;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod outcome;
pub mod perft;
pub mod piece;
pub mod placement;
pub mod position;
pub mod redefine;
pub mod rider_reach;
pub mod rule_change_state;
pub mod step_sets;
pub mod tables;
pub mod team;
pub mod tile_state;
pub mod tiles;
pub mod transfer;
pub mod variant;
pub mod variant_file;
pub mod variants;
mod zobrist;

pub use any::{AnyPosition, AnyRules};
pub use bitboard::{Bb256, Bitboard};
pub use fen::FenError;
pub use geometry::Geometry;
pub use moves::{Move, MoveKind, MoveList};
pub use notation::MoveError;
pub use outcome::Outcome;
pub use piece::{Color, Piece};
pub use position::Position;
pub use tables::Rules;
pub use variant::{StandIn, Variant};
pub use variants::UnknownVariant;
