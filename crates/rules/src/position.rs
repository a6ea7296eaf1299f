//! A position: placement, side to move, rights, counters and the history
//! that repetition needs. Changed only by `make`/`unmake` (and built only
//! by `fen`), which keep the bitboards, the mailbox and the Zobrist keys in
//! step, so a `Position` is always one that the FEN parser accepted or that
//! legal moves reached.

use crate::bitboard::Bitboard;
use crate::geometry::MAX_CELLS;
use crate::moves::{Move, MoveKind, TileShift};
use crate::piece::{Color, Piece};
use crate::rule_change_state::RuleChangeState;
use crate::tables::Rules;
use crate::tile_state::{Shuttle, TileState, TileTurn};
use crate::variant::{Repetition, Role, MAX_PIECE_TYPES};
use crate::zobrist;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

const EMPTY: u8 = u8::MAX;
pub(crate) const NO_CELL: u8 = u8::MAX;
/// The pawns' and the rifts' parts of `Position::placement_keys`, after
/// the colours'.
const PAWNS: usize = 2;
const RIFTS: usize = 3;

/// What `unmake` needs to restore, and what repetition compares.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    moved: u8,
    captured: u8,
    castling: u8,
    ep: u8,
    ep_victim: u8,
    quiet_plies: u16,
    bare_plies: Option<u16>,
    fullmove: u32,
    tile_turn: TileTurn,
    /// Whether the move ended the turn (the side to move changed).
    ended_turn: bool,
    /// Repetition key of the position before the move.
    key: u64,
    /// What was known of check before the move.
    check: Option<bool>,
}

/// Whether the side to move is in check, once someone asked (see
/// `attacks::in_check`): `None` until then. Every change to the placement,
/// the side or the rules forgets it; `unmake` restores what was known
/// before the move. An atomic, so that `&self` may write it and a position
/// shared between threads (perft's, datagen's) stays `Sync`: two threads
/// asking at once store the same answer, and a relaxed load or store is a
/// plain move on x86.
#[derive(Debug)]
struct CheckMemo(AtomicU8);

const UNKNOWN: u8 = 2;

impl CheckMemo {
    fn new() -> CheckMemo {
        CheckMemo(AtomicU8::new(UNKNOWN))
    }
    #[inline(always)]
    fn get(&self) -> Option<bool> {
        match self.0.load(Ordering::Relaxed) {
            UNKNOWN => None,
            checked => Some(checked == 1),
        }
    }
    #[inline(always)]
    fn set(&self, known: Option<bool>) {
        self.0.store(known.map_or(UNKNOWN, u8::from), Ordering::Relaxed);
    }
}

impl Clone for CheckMemo {
    fn clone(&self) -> CheckMemo {
        CheckMemo(AtomicU8::new(self.0.load(Ordering::Relaxed)))
    }
}

#[derive(Clone)]
pub struct Position<B: Bitboard> {
    rules: Arc<Rules<B>>,
    mailbox: [u8; MAX_CELLS],
    by_color: [B; 2],
    by_kind: [B; MAX_PIECE_TYPES],
    side: Color,
    castling: u8,
    ep: u8,
    ep_victim: u8,
    quiet_plies: u16,
    /// Where a bare king must be mated in so many moves (Beyond Chess):
    /// the plies since one side was left with its king alone.
    bare_plies: Option<u16>,
    fullmove: u32,
    /// The placement's key in parts: each colour's pieces but its pawns
    /// (its king among them), the pawns of both colours, the rifts. The
    /// search's correction history and pawn cache tell positions apart by
    /// the first three.
    placement_keys: [u64; 4],
    kings: [u8; 2],
    history: Vec<Undo>,
    /// Where tiles move (Beyond Chess): the rifts, the shuttle count, a
    /// tile shift owed.
    tiles: Option<TileState<B>>,
    /// Where rules change (Flexichess): the rules before each change and
    /// the rule sets compiled so far.
    rule_changes: Option<RuleChangeState<B>>,
    /// Whether the side to move is in check, once asked.
    check: CheckMemo,
}

impl<B: Bitboard> Position<B> {
    /// An empty board with White to move; `fen` fills it in.
    pub(crate) fn empty(rules: Arc<Rules<B>>) -> Position<B> {
        Position {
            tiles: rules.variant.tiles.is_some().then(TileState::new),
            rule_changes: (!rules.variant.redefinitions.is_empty()).then(RuleChangeState::new),
            bare_plies: rules.variant.draws.bare_king_moves.map(|_| 0),
            rules,
            mailbox: [EMPTY; MAX_CELLS],
            by_color: [B::EMPTY; 2],
            by_kind: [B::EMPTY; MAX_PIECE_TYPES],
            side: Color::White,
            castling: 0,
            ep: NO_CELL,
            ep_victim: NO_CELL,
            quiet_plies: 0,
            fullmove: 1,
            placement_keys: [0; 4],
            kings: [NO_CELL; 2],
            history: Vec::new(),
            check: CheckMemo::new(),
        }
    }

    #[inline(always)]
    pub fn rules(&self) -> &Arc<Rules<B>> {
        &self.rules
    }
    pub(crate) fn rule_changes(&self) -> Option<&RuleChangeState<B>> {
        self.rule_changes.as_ref()
    }
    /// Puts the position under other rules (a FEN's rule changes).
    pub(crate) fn set_rules(&mut self, rules: Arc<Rules<B>>) {
        self.rules = rules;
        self.forget_check();
    }
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    #[inline(always)]
    pub fn piece_at(&self, cell: usize) -> Option<Piece> {
        let p = self.mailbox[cell];
        (p != EMPTY).then(|| Piece::from_index(p))
    }
    #[inline(always)]
    pub fn pieces(&self, color: Color) -> B {
        self.by_color[color as usize]
    }
    /// Pieces of either colour of the kinds in the bit set `kinds`.
    #[inline(always)]
    pub fn kinds_bb(&self, kinds: u32) -> B {
        let (mut set, mut found) = (kinds, B::EMPTY);
        while set != 0 {
            found |= self.by_kind[set.trailing_zeros() as usize];
            set &= set - 1;
        }
        found
    }
    #[inline(always)]
    pub fn pieces_of(&self, color: Color, kind: usize) -> B {
        self.by_color[color as usize] & self.by_kind[kind]
    }
    #[inline(always)]
    pub fn kind_bb(&self, kind: usize) -> B {
        self.by_kind[kind]
    }
    #[inline(always)]
    pub fn occupied(&self) -> B {
        self.by_color[0] | self.by_color[1]
    }
    /// Everything a rider cannot pass: pieces and rifts.
    #[inline(always)]
    pub fn blockers(&self) -> B {
        match &self.tiles {
            Some(t) => self.occupied() | t.rifts,
            None => self.occupied(),
        }
    }
    #[inline(always)]
    pub fn rifts(&self) -> B {
        self.tiles.as_ref().map_or(B::EMPTY, |t| t.rifts)
    }
    /// Cells a piece may land on (tiles).
    #[inline(always)]
    pub fn tiles(&self) -> B {
        match &self.tiles {
            Some(t) => self.rules.all_cells & !t.rifts,
            None => self.rules.all_cells,
        }
    }
    /// Tiles with no piece on them.
    #[inline(always)]
    pub fn vacant(&self) -> B {
        self.tiles() & !self.occupied()
    }
    #[inline(always)]
    pub fn king(&self, color: Color) -> Option<usize> {
        let k = self.kings[color as usize];
        (k != NO_CELL).then_some(k as usize)
    }
    #[inline(always)]
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }
    #[inline(always)]
    pub fn en_passant(&self) -> Option<usize> {
        (self.ep != NO_CELL).then_some(self.ep as usize)
    }
    #[inline(always)]
    pub fn quiet_plies(&self) -> u16 {
        self.quiet_plies
    }
    #[inline(always)]
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }
    #[inline(always)]
    pub fn bare_plies(&self) -> u16 {
        self.bare_plies.unwrap_or(0)
    }
    #[inline(always)]
    pub fn shuttle(&self) -> Shuttle {
        self.tiles.as_ref().map_or(Shuttle::default(), |t| t.turn.shuttle)
    }
    /// Whether the side to move has made its piece move and owes the
    /// turn's tile shift.
    #[inline(always)]
    pub fn shift_pending(&self) -> bool {
        self.tiles.as_ref().is_some_and(|t| t.turn.shift_pending)
    }
    /// Whether tiles move in this variant.
    #[inline(always)]
    pub fn tiles_move(&self) -> bool {
        self.tiles.is_some()
    }
    /// White's first turn of a game with moving tiles has no tile shift;
    /// a position with White to move on move 1 is such a turn.
    #[inline(always)]
    pub fn first_turn(&self) -> bool {
        self.side == Color::White && self.fullmove == 1
    }
    /// Plies played since the position was set up.
    pub fn plies_played(&self) -> usize {
        self.history.len()
    }
    #[inline(always)]
    pub fn role(&self, kind: usize) -> Role {
        self.rules.roles[kind]
    }

    /// The Zobrist key of the whole position (placement, side, castling,
    /// en passant).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        let z = zobrist::keys();
        let mut k = self.placement_key() ^ z.castling[self.castling as usize] ^ self.rules.key;
        if self.side == Color::Black {
            k ^= z.black_to_move;
        }
        if self.ep != NO_CELL {
            k ^= z.en_passant[self.ep as usize];
        }
        if self.shift_pending() {
            k ^= z.shift_pending;
        }
        k
    }

    /// The Zobrist key of the pieces and rifts.
    #[inline(always)]
    fn placement_key(&self) -> u64 {
        let [white, black, pawns, rifts] = self.placement_keys;
        white ^ black ^ pawns ^ rifts
    }

    /// The Zobrist key of the pawns' cells (pieces whose role is pawn),
    /// both colours'.
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.placement_keys[PAWNS]
    }

    /// The Zobrist key of `color`'s pieces but its pawns, its king's cell
    /// among them.
    #[inline(always)]
    pub fn non_pawn_key(&self, color: Color) -> u64 {
        self.placement_keys[color as usize]
    }

    /// The key the variant's repetition rule compares.
    #[inline(always)]
    pub fn repetition_key(&self) -> u64 {
        match self.rules.variant.draws.repetition {
            Repetition::FullPosition => self.key(),
            Repetition::Placement => self.placement_key(),
        }
    }

    /// How many earlier positions in the game had this repetition key;
    /// only positions since the last irreversible move can.
    pub fn repetitions(&self) -> usize {
        let key = self.repetition_key();
        // A turn played as two plies leaves two entries; the pending
        // half's key never equals a whole turn's.
        let plies = self.quiet_plies as usize * if self.tiles_move() { 2 } else { 1 };
        self.history.iter().rev().take(plies).filter(|u| u.key == key).count()
    }

    pub(crate) fn put(&mut self, cell: usize, piece: Piece) {
        debug_assert_eq!(self.mailbox[cell], EMPTY);
        let b = B::cell(cell);
        self.forget_check();
        self.mailbox[cell] = piece.index() as u8;
        self.by_color[piece.color() as usize] |= b;
        self.by_kind[piece.kind()] |= b;
        self.toggle_keys(piece, cell);
        if Some(piece.kind()) == self.rules.royal {
            self.kings[piece.color() as usize] = cell as u8;
        }
    }

    /// Adds `piece` on `cell` to the keys, or takes it out of them.
    #[inline(always)]
    fn toggle_keys(&mut self, piece: Piece, cell: usize) {
        let key = zobrist::keys().pieces[piece.index()][cell];
        // Without a branch: perft makes and unmakes little else.
        let is_pawn = self.rules.pawn_kinds >> piece.kind() & 1 == 1;
        self.placement_keys[if is_pawn { PAWNS } else { piece.color() as usize }] ^= key;
    }

    pub(crate) fn remove(&mut self, cell: usize) -> Piece {
        let piece = self.piece_at(cell).expect("remove() from an empty cell");
        let b = B::cell(cell);
        self.forget_check();
        self.mailbox[cell] = EMPTY;
        self.by_color[piece.color() as usize] ^= b;
        self.by_kind[piece.kind()] ^= b;
        self.toggle_keys(piece, cell);
        if Some(piece.kind()) == self.rules.royal && self.kings[piece.color() as usize] == cell as u8 {
            self.kings[piece.color() as usize] = NO_CELL;
        }
        piece
    }

    /// The tiles' state, in a variant whose tiles move (the only one
    /// that has moves or FEN fields changing it).
    fn tile_state(&mut self) -> &mut TileState<B> {
        self.tiles.as_mut().expect("tiles move in this variant")
    }

    /// Makes `cell` a rift; `false` (and nothing changes) where tiles do
    /// not move.
    pub(crate) fn set_rift(&mut self, cell: usize) -> bool {
        let Some(tiles) = self.tiles.as_mut() else { return false };
        tiles.rifts |= B::cell(cell);
        self.placement_keys[RIFTS] ^= zobrist::keys().rifts[cell];
        self.forget_check();
        true
    }
    pub(crate) fn set_shuttle(&mut self, shuttle: Shuttle) {
        self.tile_state().turn.shuttle = shuttle;
    }

    /// Moves the tile on `from` into the rift on `to`.
    fn move_tile(&mut self, from: usize, to: usize) {
        self.tile_state().move_tile(from, to);
        self.tile_moved(from, to);
    }

    /// A tile shift of the turn: moves the tile and counts shuttles.
    fn shift_tile(&mut self, from: usize, to: usize) {
        self.tile_state().shift(from, to);
        self.tile_moved(from, to);
    }

    /// Keeps the key and the en passant right in step with a tile moved.
    fn tile_moved(&mut self, from: usize, to: usize) {
        self.forget_check();
        let z = zobrist::keys();
        self.placement_keys[RIFTS] ^= z.rifts[from] ^ z.rifts[to];
        if self.ep as usize == from {
            // En passant needs the passed cell to be a tile.
            self.clear_en_passant();
        }
    }

    /// Whether `color` has nothing but its king.
    pub fn is_bare(&self, color: Color) -> bool {
        self.pieces(color).count() == 1 && self.king(color).is_some()
    }
    pub(crate) fn set_side(&mut self, side: Color) {
        self.forget_check();
        self.side = side;
    }
    pub(crate) fn set_castling(&mut self, rights: u8) {
        self.castling = rights;
    }
    pub(crate) fn clear_en_passant(&mut self) {
        self.ep = NO_CELL;
        self.ep_victim = NO_CELL;
    }
    pub(crate) fn set_counters(&mut self, quiet_plies: u16, fullmove: u32) {
        self.quiet_plies = quiet_plies;
        self.fullmove = fullmove.max(1);
    }

    /// Sets the en passant target if a pawn of the side to move could take
    /// there, so that equal positions hash equally whatever their history.
    pub(crate) fn set_en_passant(&mut self, target: usize, victim: usize) {
        self.ep = NO_CELL;
        self.ep_victim = NO_CELL;
        if self.vacant().has(target) && self.en_passant_takers(target, self.side).any() {
            self.ep = target as u8;
            self.ep_victim = victim as u8;
        }
    }

    /// The pawns of `by` that could take en passant on `target`: those
    /// that capture onto it but could not simply move there. A pawn whose
    /// rules (Flexichess) let it move there anyway just moves there: one
    /// text, `e5d6`, is one move.
    pub(crate) fn en_passant_takers(&self, target: usize, by: Color) -> B {
        let mut takers = B::EMPTY;
        let (blockers, empty, enemies) = (self.blockers(), self.vacant(), self.pieces(!by));
        for (kind, table) in &self.rules.attacks[by as usize].leaps {
            if self.rules.roles[*kind] != Role::Pawn {
                continue;
            }
            for from in (table[target] & self.pieces_of(by, *kind)).cells() {
                if !self.rules.targets(by, *kind, from, blockers, empty, enemies).0.has(target) {
                    takers |= B::cell(from);
                }
            }
        }
        takers
    }

    /// Plays a move that `generate` produced (legal or not; `unmake`
    /// restores the position either way).
    pub fn make(&mut self, m: Move) {
        let undo = Undo {
            mv: m,
            moved: self.mailbox[m.from()],
            captured: EMPTY,
            castling: self.castling,
            ep: self.ep,
            ep_victim: self.ep_victim,
            quiet_plies: self.quiet_plies,
            bare_plies: self.bare_plies,
            fullmove: self.fullmove,
            tile_turn: self.tiles.as_ref().map_or(TileTurn::default(), |t| t.turn),
            ended_turn: m.shift != TileShift::FOLLOWS,
            key: self.repetition_key(),
            check: self.check.get(),
        };
        self.history.push(undo);
        let us = self.side;

        if m.kind != MoveKind::Shift {
            // Any move but the turn's tile shift ends the en passant right
            // and counts towards the n-move rule. The counters stop at
            // their largest values rather than wrap; the FEN parser
            // accepts no larger ones (see `fen`).
            self.ep = NO_CELL;
            self.ep_victim = NO_CELL;
            self.quiet_plies = self.quiet_plies.saturating_add(1);
        }
        match m.kind {
            MoveKind::Shift => {
                if m.from != m.to {
                    self.shift_tile(m.from(), m.to());
                }
                self.tile_state().turn.shift_pending = false;
                self.end_turn(us);
                return;
            }
            // Only the side and the en passant right change.
            MoveKind::Null => {}
            MoveKind::Redefine => {
                let changes = self.rule_changes.as_mut().expect("rules change in this variant");
                let betza = &self.rules.variant.redefinitions[m.to()].betza;
                let changed =
                    changes.rules_with(&self.rules, m.from(), betza).expect("the catalogue's movements compile");
                changes.push(std::mem::replace(&mut self.rules, changed));
                self.forget_check();
            }
            MoveKind::Swap => self.move_two((m.from(), m.to()), (m.to(), m.from())),
            MoveKind::Castle => {
                let c = &self.rules.castling[m.aux as usize];
                let (kf, kt, rf, rt) = (c.king_from, c.king_to, c.rook_from, c.rook_to);
                self.move_two((kf, kt), (rf, rt));
                self.castling &= self.rules.castling_keep[kf] & self.rules.castling_keep[rf];
            }
            MoveKind::Geret => {
                let pawn = self.remove(m.from());
                self.move_tile(m.from(), m.to());
                self.put(m.to(), m.promotion().map_or(pawn, |kind| Piece::new(us, kind)));
                self.quiet_plies = 0;
                self.tile_state().turn.shuttle = Shuttle::default();
            }
            MoveKind::Quiet | MoveKind::Capture | MoveKind::EnPassant | MoveKind::LegCapture => {
                self.make_piece_move(m, us)
            }
        }
        if m.shift == TileShift::FOLLOWS {
            self.tile_state().turn.shift_pending = true;
            return;
        }
        if let Some((from, to)) = m.shift.cells() {
            self.shift_tile(from, to);
        }
        self.end_turn(us);
    }

    /// Moves two pieces at once, each `(from, to)`; either may land where
    /// the other stood (castling, the king's swap, and their unmaking).
    #[inline]
    fn move_two(&mut self, (a_from, a_to): (usize, usize), (b_from, b_to): (usize, usize)) {
        let a = self.remove(a_from);
        let b = self.remove(b_from);
        self.put(a_to, a);
        self.put(b_to, b);
    }

    /// A piece moving, perhaps capturing or promoting.
    fn make_piece_move(&mut self, m: Move, us: Color) {
        if let Some(cell) = m.capture_cell() {
            let captured = self.remove(cell);
            self.history.last_mut().expect("pushed by make").captured = captured.index() as u8;
            self.quiet_plies = 0;
        }
        let piece = self.remove(m.from());
        let is_pawn = self.rules.roles[piece.kind()] == Role::Pawn;
        let placed = m.promotion().map_or(piece, |kind| Piece::new(us, kind));
        self.put(m.to(), placed);
        self.castling &= self.rules.castling_keep[m.from()] & self.rules.castling_keep[m.to()];
        if is_pawn {
            self.quiet_plies = 0;
            // A two-cell step along a line over an empty cell leaves
            // that cell open to en passant.
            if m.kind == MoveKind::Quiet && self.rules.two_steps[m.from()].has(m.to()) {
                let mid = (m.from() + m.to()) / 2;
                self.side = !us;
                self.set_en_passant(mid, m.to());
                self.side = us;
            }
        }
    }

    /// Hands the turn to the other side.
    fn end_turn(&mut self, us: Color) {
        if let Some(plies) = self.bare_plies {
            // Counts the moves of the side facing a bare king.
            self.bare_plies = Some(if self.is_bare(!us) && !self.is_bare(us) {
                plies.saturating_add(1)
            } else if self.is_bare(us) {
                plies
            } else {
                0
            });
        }
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = !us;
        self.forget_check();
    }

    /// The move that led here, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv)
    }

    /// Takes back the last move made.
    pub fn unmake(&mut self) {
        let undo = self.history.pop().expect("unmake() without a move");
        let m = undo.mv;
        if undo.ended_turn {
            self.side = !self.side;
        }
        self.fullmove = undo.fullmove;
        // The turn's tile shift came after its piece move: back first.
        if let Some((from, to)) = m.shift.cells() {
            self.move_tile(to, from);
        }
        match m.kind {
            MoveKind::Shift => {
                if m.from != m.to {
                    self.move_tile(m.to(), m.from());
                }
            }
            MoveKind::Null => {}
            MoveKind::Redefine => self.rules = self.rule_changes.as_mut().expect("rules change in this variant").pop(),
            MoveKind::Swap => self.move_two((m.to(), m.from()), (m.from(), m.to())),
            MoveKind::Castle => {
                let c = &self.rules.castling[m.aux as usize];
                self.move_two((c.king_to, c.king_from), (c.rook_to, c.rook_from));
            }
            MoveKind::Geret => {
                self.remove(m.to());
                self.move_tile(m.to(), m.from());
                self.put(m.from(), Piece::from_index(undo.moved));
            }
            MoveKind::Quiet | MoveKind::Capture | MoveKind::EnPassant | MoveKind::LegCapture => {
                self.remove(m.to());
                self.put(m.from(), Piece::from_index(undo.moved));
                if undo.captured != EMPTY {
                    self.put(m.capture_cell().expect("a capture"), Piece::from_index(undo.captured));
                }
            }
        }
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.ep_victim = undo.ep_victim;
        self.quiet_plies = undo.quiet_plies;
        self.bare_plies = undo.bare_plies;
        if let Some(tiles) = self.tiles.as_mut() {
            tiles.turn = undo.tile_turn;
        }
        self.check.set(undo.check);
    }

    /// Whether the side to move is in check, if that is known since the
    /// position last changed (`attacks::in_check` asks and remembers).
    #[inline(always)]
    pub(crate) fn known_check(&self) -> Option<bool> {
        self.check.get()
    }

    #[inline(always)]
    pub(crate) fn remember_check(&self, checked: bool) {
        self.check.set(Some(checked));
    }

    #[inline(always)]
    fn forget_check(&self) {
        self.check.set(None);
    }

    #[inline(always)]
    pub(crate) fn ep_victim(&self) -> usize {
        self.ep_victim as usize
    }
}
