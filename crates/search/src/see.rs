//! Static exchange evaluation: the material outcome of the capture
//! sequence on one cell, each side recapturing with its least valuable
//! attacker and free to stop. Riders' attacks are recomputed after each
//! capture from a rider line through the cell, so pieces behind the
//! first attacker (x-rays) join in, for any rider.

use crate::evaluate::EvalTables;
use protean_rules::variant::Role;
use protean_rules::{Bitboard, Move, MoveKind, Position};

pub fn see<B: Bitboard>(pos: &Position<B>, m: Move, t: &EvalTables<B>) -> i32 {
    let Some(capture_cell) = m.capture_cell() else {
        return 0;
    };
    let occupied = pos.occupied() ^ B::cell(m.from()) ^ B::cell(capture_cell) | B::cell(m.to());
    let victim = pos.piece_at(capture_cell).map_or(0, |p| t.value(p.kind()));
    exchange(pos, m, t, occupied, victim)
}

/// What a quiet piece move loses on its new cell: 0 where the other side
/// cannot take the piece there with profit, else the exchange that
/// follows (negative). Only for a plain move from a cell to a cell (a
/// castling, a tile shift or a rule change stakes nothing: 0).
pub fn quiet_see<B: Bitboard>(pos: &Position<B>, m: Move, t: &EvalTables<B>) -> i32 {
    if m.kind != MoveKind::Quiet {
        return 0;
    }
    let occupied = pos.occupied() ^ B::cell(m.from()) | B::cell(m.to());
    exchange(pos, m, t, occupied, 0)
}

/// The exchange on `m`'s cell once `m` is made (`occupied` as it leaves
/// the board, `first` what `m` itself took).
fn exchange<B: Bitboard>(pos: &Position<B>, m: Move, t: &EvalTables<B>, mut occupied: B, first: i32) -> i32 {
    let rules = pos.rules();
    let to = m.to();
    let mut gain = [0i32; 64];
    gain[0] = first;
    let mover = pos.piece_at(m.from()).expect("a move starts on a piece");
    let mut on_square = m.promotion().map_or(t.value(mover.kind()), |k| t.value(k));
    let mut side = !mover.color();
    let mut d = 0;
    // Leapers attack whatever stands between; only riders need looking
    // for again as pieces leave (x-rays).
    let leapers = pos.leaper_attackers_to(to);
    let mut riders = pos.rider_attackers_to(to, occupied);
    loop {
        let attackers = (leapers | riders) & occupied;
        let mine = attackers & pos.pieces(side);
        if mine.is_empty() || d + 1 >= gain.len() {
            break;
        }
        let kind = *t.exchange_order.iter().find(|&&k| (mine & pos.kind_bb(k)).any()).expect("an attacker has a kind");
        // A king may not take a defended piece.
        if rules.roles[kind] == Role::Royal && (attackers & pos.pieces(!side)).any() {
            break;
        }
        d += 1;
        gain[d] = on_square - gain[d - 1];
        if (-gain[d - 1]).max(gain[d]) < 0 {
            break;
        }
        let from = (mine & pos.kind_bb(kind)).lowest();
        occupied ^= B::cell(from);
        // A piece on no rider line through the cell hid nobody.
        if rules.sight[to].has(from) {
            riders = pos.rider_attackers_to(to, occupied);
        }
        on_square = t.value(kind);
        side = !side;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use protean_rules::AnyRules;

    /// White's move `text` in a standard position: its `see` and its
    /// `quiet_see`, with the knight's and the pawn's values.
    struct Exchanges {
        see: i32,
        quiet: i32,
        knight: i32,
        pawn: i32,
    }

    fn exchanges(fen: &str, text: &str) -> Exchanges {
        let mut pos = AnyRules::by_name("standard").unwrap().from_fen(fen).unwrap();
        let m = pos.parse_move(text).unwrap();
        protean_rules::with_position!(&pos, p => {
            let t = EvalTables::new(p.rules());
            Exchanges { see: see(p, m, &t), quiet: quiet_see(p, m, &t), knight: t.value(1), pawn: t.value(0) }
        })
    }

    #[test]
    fn exchanges_count_recaptures_and_stop_when_they_lose() {
        // The knight takes a pawn that a pawn defends: a knight for a pawn.
        let e = exchanges("4k3/8/3p4/4p3/8/3N4/8/4K3 w - - 0 1", "d3e5");
        let (knight, pawn) = (e.knight, e.pawn);
        assert_eq!(e.see, pawn - knight);
        // Undefended: the pawn, whole.
        assert_eq!(exchanges("4k3/8/8/4p3/8/3N4/8/4K3 w - - 0 1", "d3e5").see, pawn);
        // A rook on the file joins in: the knight is lost for a pawn, then
        // the rook wins back the pawn that took it.
        assert_eq!(exchanges("4k3/8/3p4/4p3/8/3N4/8/4R1K1 w - - 0 1", "d3e5").see, pawn - knight + pawn);
        // A quiet move exchanges nothing.
        assert_eq!(exchanges("4k3/8/3p4/8/8/3N4/8/4K3 w - - 0 1", "d3e5").see, 0);
    }

    #[test]
    fn a_quiet_move_loses_what_can_be_taken_on_its_cell() {
        // The knight steps where a pawn takes it.
        let e = exchanges("4k3/8/3p4/8/8/3N4/8/4K3 w - - 0 1", "d3e5");
        let (knight, pawn) = (e.knight, e.pawn);
        assert_eq!(e.quiet, -knight);
        // A pawn defends the cell and a pawn attacks it: the knight for a pawn.
        assert_eq!(exchanges("4k3/8/3p4/8/3P4/3N4/8/4K3 w - - 0 1", "d3e5").quiet, pawn - knight);
        // Nobody attacks the cell, or only a piece worth more that the
        // knight's defender would win back: nothing lost.
        assert_eq!(exchanges("4k3/8/8/8/8/3N4/8/4K3 w - - 0 1", "d3e5").quiet, 0);
        assert_eq!(exchanges("4k3/8/8/2q5/3P4/3N4/8/4K3 w - - 0 1", "d3e5").quiet, 0);
        // Castling stakes nothing.
        assert_eq!(exchanges("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1").quiet, 0);
    }
}
