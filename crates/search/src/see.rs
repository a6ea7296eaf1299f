//! Static exchange evaluation: the material outcome of the capture
//! sequence on one cell, each side recapturing with its least valuable
//! attacker and free to stop. Riders' attacks are recomputed after each
//! capture from a rider line through the cell, so pieces behind the
//! first attacker (x-rays) join in, for any rider. Search only asks
//! whether an exchange reaches a threshold (as Stockfish's `see_ge` does),
//! which most often is known before the exchange is played out.

use crate::evaluate::EvalTables;
use protean_rules::variant::Role;
use protean_rules::{Bitboard, Move, MoveKind, Position};

/// Whether `m`'s exchange wins at least `threshold`: the capture
/// sequence on its cell, each side recapturing with its least valuable
/// attacker and free to stop. A move that captures nothing stakes
/// nothing (0).
pub fn see_at_least<B: Bitboard>(pos: &Position<B>, m: Move, t: &EvalTables<B>, threshold: i32) -> bool {
    let Some(capture_cell) = m.capture_cell() else {
        return threshold <= 0;
    };
    let occupied = pos.occupied() ^ B::cell(m.from()) ^ B::cell(capture_cell) | B::cell(m.to());
    let victim = pos.piece_at(capture_cell).map_or(0, |p| t.value(p.kind()));
    exchange_at_least(pos, m, t, occupied, victim, threshold)
}

/// Whether a quiet piece move keeps at least `threshold` (at most 0) of
/// its piece on its new cell: the exchange the other side may start
/// there. Only for a plain move from a cell to a cell (a castling, a
/// tile shift or a rule change stakes nothing: 0).
pub fn quiet_see_at_least<B: Bitboard>(pos: &Position<B>, m: Move, t: &EvalTables<B>, threshold: i32) -> bool {
    if m.kind != MoveKind::Quiet {
        return threshold <= 0;
    }
    let occupied = pos.occupied() ^ B::cell(m.from()) | B::cell(m.to());
    exchange_at_least(pos, m, t, occupied, 0, threshold)
}

/// Whether the exchange on `m`'s cell once `m` is made (`occupied` as it
/// leaves the board, `first` what `m` itself took) comes to at least
/// `threshold` for the side that made `m`.
///
/// Asked against a threshold, the exchange need not be played out (the
/// whole value, by the usual list of gains, is the tests' reference).
/// `balance` is how far the side to capture next would stand above its
/// line (ours is the threshold, theirs anything short of it) if it took
/// the piece now on the cell and nothing answered: where that is below
/// the line, it does not take, and the exchange is settled. Most of
/// search's questions are settled before any attacker is looked up.
fn exchange_at_least<B: Bitboard>(
    pos: &Position<B>,
    m: Move,
    t: &EvalTables<B>,
    mut occupied: B,
    first: i32,
    threshold: i32,
) -> bool {
    // `m` unanswered: below the threshold, nothing can lift it.
    let mut balance = first - threshold;
    if balance < 0 {
        return false;
    }
    let mover = pos.piece_at(m.from()).expect("a move starts on a piece");
    let on_square = m.promotion().map_or(t.value(mover.kind()), |k| t.value(k));
    // They take the piece `m` put there: if even that leaves us at the
    // threshold, it holds.
    balance = on_square - balance;
    if balance <= 0 {
        return true;
    }
    let rules = pos.rules();
    let to = m.to();
    let mut side = !mover.color();
    // Whether the side that made `m` holds the threshold, as the exchange
    // stands after the captures so far.
    let mut holds = true;
    // The exchange's running gain for the side that last took (by the
    // list of gains), and the worth of the piece that took: for the
    // cut-off below.
    let (mut gain, mut on_cell) = (first, on_square);
    // Leapers attack whatever stands between; only riders need looking
    // for again as pieces leave (x-rays).
    let leapers = pos.leaper_attackers_to(to);
    let mut riders = pos.rider_attackers_to(to, occupied);
    loop {
        let attackers = (leapers | riders) & occupied;
        let mine = attackers & pos.pieces(side);
        if mine.is_empty() {
            break;
        }
        let kind = *t.exchange_order.iter().find(|&&k| (mine & pos.kind_bb(k)).any()).expect("an attacker has a kind");
        // A king may not take a defended piece.
        if rules.roles[kind] == Role::Royal && (attackers & pos.pieces(!side)).any() {
            break;
        }
        // `side` takes, which settles the exchange its way unless the
        // other side, taking back, would stand above its own line (a tie
        // is ours: we need only reach the threshold).
        holds = !holds;
        balance = t.value(kind) - balance;
        // Where the side that took last would stand below nothing if it
        // stopped, and so would `side` taking now if nothing answered,
        // the exchange is cut off with `side`'s capture standing. A rule
        // of thumb, not the exchange's value: it ignores that the other
        // side may take back (bench's signature is the search's with it).
        let taken = on_cell - gain;
        let cut_off = (-gain).max(taken) < 0;
        (gain, on_cell) = (taken, t.value(kind));
        if cut_off || balance < i32::from(holds) {
            break;
        }
        let from = (mine & pos.kind_bb(kind)).lowest();
        occupied ^= B::cell(from);
        // A piece on no rider line through the cell hid nobody.
        if rules.sight[to].has(from) {
            riders = pos.rider_attackers_to(to, occupied);
        }
        side = !side;
    }
    holds
}

#[cfg(test)]
mod tests {
    use super::*;
    use protean_rules::AnyRules;

    /// The whole value of `m`'s exchange, played out by the usual list of
    /// gains (each side free to stop): the reference the thresholds are
    /// held to. `quiet` asks what a quiet move loses on its new cell.
    fn exchange_value<B: Bitboard>(pos: &Position<B>, m: Move, t: &EvalTables<B>, quiet: bool) -> i32 {
        let (mut occupied, first) = if quiet {
            if m.kind != MoveKind::Quiet {
                return 0;
            }
            (pos.occupied() ^ B::cell(m.from()) | B::cell(m.to()), 0)
        } else {
            let Some(capture_cell) = m.capture_cell() else { return 0 };
            (
                pos.occupied() ^ B::cell(m.from()) ^ B::cell(capture_cell) | B::cell(m.to()),
                pos.piece_at(capture_cell).map_or(0, |p| t.value(p.kind())),
            )
        };
        let to = m.to();
        let mover = pos.piece_at(m.from()).unwrap();
        let mut gains = vec![first];
        let mut on_square = m.promotion().map_or(t.value(mover.kind()), |k| t.value(k));
        let mut side = !mover.color();
        loop {
            // Every attacker looked up again from the pieces still on the
            // board: no x-ray bookkeeping.
            let attackers = (pos.leaper_attackers_to(to) | pos.rider_attackers_to(to, occupied)) & occupied;
            let mine = attackers & pos.pieces(side);
            let Some(kind) = t.exchange_order.iter().copied().find(|&k| (mine & pos.kind_bb(k)).any()) else { break };
            if pos.rules().roles[kind] == Role::Royal && (attackers & pos.pieces(!side)).any() {
                break;
            }
            gains.push(on_square - gains.last().unwrap());
            // The same cut-off as `exchange_at_least`'s.
            if (-gains[gains.len() - 2]).max(gains[gains.len() - 1]) < 0 {
                break;
            }
            occupied ^= B::cell((mine & pos.kind_bb(kind)).lowest());
            on_square = t.value(kind);
            side = !side;
        }
        while gains.len() > 1 {
            let last = gains.pop().unwrap();
            let before = gains.last_mut().unwrap();
            *before = -(-*before).max(last);
        }
        gains[0]
    }

    /// White's move `text` in a standard position: its exchange's value
    /// and what it loses as a quiet move, with the knight's and the
    /// pawn's values.
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
            let (see, quiet) = (exchange_value(p, m, &t, false), exchange_value(p, m, &t, true));
            // The thresholds agree with the values just around them.
            assert!(see_at_least(p, m, &t, see) && !see_at_least(p, m, &t, see + 1), "{fen} {text}");
            assert!(quiet_see_at_least(p, m, &t, quiet) && !quiet_see_at_least(p, m, &t, quiet + 1), "{fen} {text}");
            Exchanges { see, quiet, knight: t.value(1), pawn: t.value(0) }
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

    /// Every move of positions from random games, in every kind of
    /// variant: each threshold answers as the played-out value says.
    #[test]
    fn thresholds_agree_with_the_played_out_exchange() {
        let thresholds = [-1000, -400, -150, -45, -1, 0, 1, 45, 150, 400, 1000];
        let mut asked = 0;
        for variant in ["standard", "perfect", "onedim", "flexichess", "beyond"] {
            let mut pos = AnyRules::by_name(variant).unwrap().start();
            let mut seed = 0x5eed_u64;
            for _ in 0..80 {
                let moves = pos.legal_move_list();
                if moves.is_empty() || pos.clone().outcome().is_some() {
                    break;
                }
                protean_rules::with_position!(&pos, p => {
                    let t = EvalTables::new(p.rules());
                    for &m in &moves {
                        for (value, quiet) in [(exchange_value(p, m, &t, false), false), (exchange_value(p, m, &t, true), true)] {
                            let at_least = |th| if quiet { quiet_see_at_least(p, m, &t, th) } else { see_at_least(p, m, &t, th) };
                            for th in thresholds.into_iter().chain([value, value + 1]) {
                                assert_eq!(at_least(th), value >= th, "{variant} {} {m:?} (quiet {quiet}): value {value}, threshold {th}", p.fen());
                                asked += 1;
                            }
                        }
                    }
                });
                // A simple linear congruential choice of the next move;
                // captures twice as likely, so that exchanges build up.
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let captures: Vec<Move> = moves.iter().copied().filter(|m| m.is_capture()).collect();
                let pick = if !captures.is_empty() && seed >> 62 == 0 {
                    captures[(seed >> 33) as usize % captures.len()]
                } else {
                    moves[(seed >> 33) as usize % moves.len()]
                };
                pos.make(pick);
            }
        }
        assert!(asked > 50_000, "only {asked} questions asked");
    }
}
