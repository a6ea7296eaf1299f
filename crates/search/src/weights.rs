//! The evaluation's weights as data: what each term of `evaluate` is
//! worth, in the middle game and the end game.
//!
//! Every term is a weight times a feature the evaluation counts (pieces
//! of a kind, cells a piece reaches, how far a pawn has come), so the
//! evaluation is linear in its weights and `texel` (in `protean-train`)
//! can fit them to game results. A variant's fitted weights are a text file in
//! `crates/search/weights/`, named after the variant and built into the
//! binary; the code names no variant. A weight a file leaves out, and
//! every weight of a variant without a file, is the default below: piece
//! values from how the pieces move (`evaluate::piece_value`) and
//! positional weights set by hand. A piece whose moves a rule change
//! (Flexichess) redefined keeps only defaults: its fitted weights were
//! fitted for moves it no longer has.
//!
//! The file format, one weight a line, `#` to the end of a line a comment:
//! ```text
//! value N 310 298      # per kind, by the piece's letter: material
//! mobility N 5 3       # per cell the piece reaches
//! centre K -8 8        # per step nearer the centre
//! passed 10 20         # a term of the whole position
//! square N b3 -12 4    # per piece of a kind on a square (see `Layout`)
//! ```

use protean_rules::variant::{Role, Variant};
use protean_rules::Color;
use std::fmt::Write;

/// A middle-game and an end-game value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub mg: i32,
    pub eg: i32,
}

impl Score {
    pub const fn new(mg: i32, eg: i32) -> Score {
        Score { mg, eg }
    }
}

impl std::ops::AddAssign for Score {
    #[inline(always)]
    fn add_assign(&mut self, o: Score) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

/// Terms of the whole position, one weight each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    /// Per pawn, by how far it has come (0 on its start rank, 1 on the
    /// promotion rank).
    PawnAdvance,
    /// Per passed pawn (no enemy pawn ahead on its file or the next ones).
    Passed,
    /// Per passed pawn, by how far it has come.
    PassedAdvance,
    /// Per pawn with an own pawn ahead on its file.
    Doubled,
    /// Per pawn with no own pawn on the next files.
    Isolated,
    /// Per own pawn beside the king and ahead of it.
    KingShield,
    /// Attacks on the enemy king's ring times the pieces making them, when
    /// two or more pieces do.
    KingAttack,
    /// Per rift beside the king (Beyond Chess).
    RiftBesideKing,
    /// Per rift between the king and an enemy rider that one tile shift
    /// could fill.
    RiftOpensLine,
    /// Per pawn one rank from promotion, where tiles move.
    PawnOneFromPromotion,
    /// Per pawn two ranks from promotion, where tiles move.
    PawnTwoFromPromotion,
    /// For the side to move.
    Tempo,
    /// Per enemy piece (not a pawn, not the king) that our pawns attack.
    PawnThreat,
    /// Per cell our pieces (not pawns, not the king) reach that an enemy
    /// pawn attacks: mobility that is not safe.
    ReachIntoPawnAttacks,
    /// Per kind of colour-bound piece that we have on cells of both
    /// colours (the bishop pair).
    BoundPair,
    /// Per piece that slides along its file with no own pawn ahead of it
    /// there (a rook on an open or half-open file).
    OpenFile,
    /// Per file at or beside our king with no own pawn ahead of it.
    KingOpenFile,
    /// Per enemy piece (not a pawn, not the king) that one of our pieces
    /// worth less attacks: a rook attacked by a knight must move or the
    /// exchange is lost.
    LesserAttacks,
    /// Per enemy piece (not a pawn, not the king) that we attack and no
    /// enemy piece defends.
    Hanging,
    /// Per passed pawn with a piece of either colour on the cell ahead.
    PassedBlocked,
    /// Per passed pawn, by how far it has come: how much nearer our king
    /// is than theirs to the cell ahead of it (in king steps).
    PassedKingDistance,
    /// Per piece (not a pawn, not the king) on a cell from the fourth
    /// rank of eight on (`OUTPOST_ADVANCE` of the board's height) that an
    /// own pawn defends and no enemy pawn can ever attack (an outpost).
    Outpost,
    /// Per pawn that an own pawn defends or stands beside on its rank (a
    /// connected pawn: a chain or a phalanx).
    Connected,
    /// Per connected pawn, by how far it has come.
    ConnectedAdvance,
    /// Per cell from which one of our pieces (not a pawn, not the king)
    /// could give check by moving there and that no enemy piece or pawn
    /// attacks: a safe check.
    SafeCheck,
    /// The square of the danger to the enemy king (over 256;
    /// see `evaluate::terms::king_danger`): pieces reaching its ring,
    /// their attacks there, ring cells only the king defends, checks safe
    /// and not. Squared, as Stockfish's classical king danger is, because
    /// an attack grows faster than its parts: one piece near a king is
    /// nothing, four with a safe check are mate.
    KingDanger,
    /// Per piece (not a pawn, not the king), how many fewer than
    /// `evaluate::terms::TRAPPED_BELOW` cells it reaches that no enemy
    /// pawn attacks: a piece with nowhere to go is lost or useless, more
    /// than its few cells of mobility say.
    Trapped,
    /// Per piece (not a pawn, not the king), of the `m` cells it moves to,
    /// takes on or defends, but those an enemy pawn attacks and its own
    /// pawns' and king's: `(m - 2) / (8 + m)`, from -1/4 for a piece with
    /// nowhere to go to nearly 1. Fairy-Stockfish's mobility for a piece
    /// it has no table for: the first safe cells are worth much more
    /// than the twentieth.
    SafeMobility,
    /// Where the king stands, in the middle game: on its first rank a file
    /// or two from the edge best, worse the further it comes out (see
    /// `evaluate::tables::KING_PLACEMENT`). Stockfish's classical king
    /// table; the per-kind `centre` weighs the end game's.
    KingPlacement,
}

impl Scalar {
    pub const ALL: [Scalar; 29] = [
        Scalar::PawnAdvance,
        Scalar::Passed,
        Scalar::PassedAdvance,
        Scalar::Doubled,
        Scalar::Isolated,
        Scalar::KingShield,
        Scalar::KingAttack,
        Scalar::RiftBesideKing,
        Scalar::RiftOpensLine,
        Scalar::PawnOneFromPromotion,
        Scalar::PawnTwoFromPromotion,
        Scalar::Tempo,
        Scalar::PawnThreat,
        Scalar::ReachIntoPawnAttacks,
        Scalar::BoundPair,
        Scalar::OpenFile,
        Scalar::KingOpenFile,
        Scalar::LesserAttacks,
        Scalar::Hanging,
        Scalar::PassedBlocked,
        Scalar::PassedKingDistance,
        Scalar::Outpost,
        Scalar::Connected,
        Scalar::ConnectedAdvance,
        Scalar::SafeCheck,
        Scalar::KingDanger,
        Scalar::Trapped,
        Scalar::SafeMobility,
        Scalar::KingPlacement,
    ];

    /// The scalar term a weights file calls `name`.
    pub fn by_name(name: &str) -> Option<Scalar> {
        Scalar::ALL.into_iter().find(|s| s.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            Scalar::PawnAdvance => "pawn_advance",
            Scalar::Passed => "passed",
            Scalar::PassedAdvance => "passed_advance",
            Scalar::Doubled => "doubled",
            Scalar::Isolated => "isolated",
            Scalar::KingShield => "king_shield",
            Scalar::KingAttack => "king_attack",
            Scalar::RiftBesideKing => "rift_beside_king",
            Scalar::RiftOpensLine => "rift_opens_line",
            Scalar::PawnOneFromPromotion => "pawn_one_from_promotion",
            Scalar::PawnTwoFromPromotion => "pawn_two_from_promotion",
            Scalar::Tempo => "tempo",
            Scalar::PawnThreat => "pawn_threat",
            Scalar::ReachIntoPawnAttacks => "reach_into_pawn_attacks",
            Scalar::BoundPair => "bound_pair",
            Scalar::OpenFile => "open_file",
            Scalar::KingOpenFile => "king_open_file",
            Scalar::LesserAttacks => "lesser_attacks",
            Scalar::Hanging => "hanging",
            Scalar::PassedBlocked => "passed_blocked",
            Scalar::PassedKingDistance => "passed_king_distance",
            Scalar::Outpost => "outpost",
            Scalar::Connected => "connected",
            Scalar::ConnectedAdvance => "connected_advance",
            Scalar::SafeCheck => "safe_check",
            Scalar::KingDanger => "king_danger",
            Scalar::Trapped => "trapped",
            Scalar::SafeMobility => "safe_mobility",
            Scalar::KingPlacement => "king_placement",
        }
    }

    /// The hand-set weight.
    const fn default(self) -> Score {
        match self {
            Scalar::PawnAdvance => Score::new(10, 40),
            Scalar::Passed => Score::new(10, 20),
            Scalar::PassedAdvance => Score::new(50, 120),
            Scalar::Doubled => Score::new(-12, -20),
            Scalar::Isolated => Score::new(-12, -15),
            Scalar::KingShield => Score::new(12, 0),
            Scalar::KingAttack => Score::new(6, 0),
            Scalar::RiftBesideKing => Score::new(-6, -10),
            Scalar::RiftOpensLine => Score::new(-40, -25),
            Scalar::PawnOneFromPromotion => Score::new(40, 70),
            Scalar::PawnTwoFromPromotion => Score::new(15, 30),
            Scalar::Tempo => Score::new(12, 12),
            // A variant without a fit must still fear a king hunt, which
            // self-play at a few thousand nodes seldom shows a fit.
            Scalar::KingDanger => Score::new(KING_DANGER_DEFAULT, 0),
            Scalar::Trapped => TRAPPED_DEFAULT,
            Scalar::SafeMobility => SAFE_MOBILITY_DEFAULT,
            Scalar::KingPlacement => KING_PLACEMENT_DEFAULT,
            // Threats, the bishop pair, outposts and passers' escorts: the
            // mean of standard chess's and Perfect Chess's fits (rounded
            // toward zero). What a piece attacks and what a pawn needs
            // are much the same game to game; each of these lowered the
            // held-out loss of Capablanca chess's self-play (see
            // docs/architecture.md).
            Scalar::PawnThreat => Score::new(88, 8),
            Scalar::BoundPair => Score::new(35, 68),
            Scalar::LesserAttacks => Score::new(77, 9),
            Scalar::Hanging => Score::new(13, 40),
            Scalar::PassedBlocked => Score::new(-16, -9),
            Scalar::PassedKingDistance => Score::new(-29, 37),
            Scalar::Outpost => Score::new(34, 22),
            // Nothing until a fit gives them a worth: their two fits
            // raised that loss, or (safe checks) king danger counts them.
            Scalar::ReachIntoPawnAttacks
            | Scalar::OpenFile
            | Scalar::KingOpenFile
            | Scalar::Connected
            | Scalar::ConnectedAdvance
            | Scalar::SafeCheck => Score::new(0, 0),
        }
    }
}

/// [`Scalar::KingDanger`]'s middle-game weight where no fit gives one
/// (its feature the danger squared over 256): Fairy-Stockfish's classical
/// king safety in Capablanca chess, regressed on the feature over 109
/// positions of its games against Protean, is about 18 centipawns a unit
/// (`benches/eval-gap` finds the positions); self-play at a few thousand
/// nodes seldom shows a fit a king hunt.
const KING_DANGER_DEFAULT: i32 = 16;

/// [`Scalar::Trapped`]'s weights where no fit gives them, a cell short:
/// what Stockfish's classical mobility tables take from a knight, bishop
/// or rook with one safe cell or none, over a straight line through their
/// other entries (about 22 in the middle game and 35 in the end game at
/// its scale, a pawn 126/208), at ours (a pawn 90/125).
const TRAPPED_DEFAULT: Score = Score::new(-16, -20);

/// [`Scalar::SafeMobility`]'s weights where no fit gives them: about
/// 1.5 times Fairy-Stockfish's `MaxMobility` (150, 200 at its scale, a
/// pawn 126/208) at ours (a pawn 90/125, 107/120), which gained in
/// Capablanca chess's self-play over the plain conversion (Protean's
/// reach has no x-rays, and Stockfish's own tables for the rook and the
/// bishop are steeper than this curve). The hand-set mobility per cell
/// of each kind is nothing beside it.
const SAFE_MOBILITY_DEFAULT: Score = Score::new(160, 180);

/// [`Scalar::KingPlacement`]'s weight where no fit gives one: the 129
/// centipawns Stockfish's classical king table gives b1 over d1 (a pawn
/// 126), at Protean's scale (a pawn 90).
const KING_PLACEMENT_DEFAULT: Score = Score::new(92, 0);

/// Terms of each kind of piece, one weight per kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerKind {
    Value,
    Mobility,
    Centre,
    /// How far up the board from its own side a piece stands (not for
    /// pawns, which have their own advance): a knight on the sixth rank,
    /// a king that left its back rank.
    Advance,
}

impl PerKind {
    pub const ALL: [PerKind; 4] = [PerKind::Value, PerKind::Mobility, PerKind::Centre, PerKind::Advance];

    /// The per-kind term a weights file calls `name`.
    pub fn by_name(name: &str) -> Option<PerKind> {
        PerKind::ALL.into_iter().find(|t| t.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            PerKind::Value => "value",
            PerKind::Mobility => "mobility",
            PerKind::Centre => "centre",
            PerKind::Advance => "advance",
        }
    }
}

/// Where a term's weight is in a [`Weights`] list (see [`Layout`]).
#[inline(always)]
pub const fn scalar(s: Scalar) -> usize {
    s as usize
}
#[inline(always)]
pub const fn per_kind(term: PerKind, kind: usize) -> usize {
    Scalar::ALL.len() + kind * PerKind::ALL.len() + term as usize
}
/// Where every term of a variant sits in a [`Weights`] list: the scalars,
/// four per kind, then the piece-square terms, one per kind and square.
///
/// A piece-square term weighs a piece of a kind for the cell it stands
/// on, seen from its owner's side. On a board with ranks the files fold
/// in two (a knight on g3 counts as one on b3): both wings weigh alike,
/// and half the weights need half the data. A board of one rank
/// (One-dimensional chess) has its two sides at its two ends: it does not
/// fold, and Black's files are counted from the other end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    kinds: usize,
    width: usize,
    height: usize,
}

impl Layout {
    pub fn of(variant: &Variant) -> Layout {
        let g = variant.geometry;
        Layout { kinds: variant.pieces.len(), width: g.width(), height: g.height() }
    }

    fn one_rank(self) -> bool {
        self.height == 1
    }

    /// Files of the squares (the folded board's width).
    fn files(self) -> usize {
        if self.one_rank() {
            self.width
        } else {
            self.width.div_ceil(2)
        }
    }

    /// Squares per kind.
    pub fn squares(self) -> usize {
        self.files() * self.height
    }

    /// How many terms (weights) the variant has.
    pub fn terms(self) -> usize {
        Scalar::ALL.len() + self.kinds * (PerKind::ALL.len() + self.squares())
    }

    /// Where the piece-square weight of `kind` on `square` is.
    #[inline(always)]
    pub fn square(self, kind: usize, square: usize) -> usize {
        self.squares_start() + kind * self.squares() + square
    }

    /// Where every piece-square weight is: after all the others.
    pub fn square_terms(self) -> std::ops::Range<usize> {
        self.squares_start()..self.terms()
    }

    fn squares_start(self) -> usize {
        Scalar::ALL.len() + self.kinds * PerKind::ALL.len()
    }

    /// The square of a piece of `color` on `cell` (file and rank indices).
    pub fn square_of(self, color: Color, file: usize, rank: usize) -> usize {
        let white = color == Color::White;
        if self.one_rank() {
            return if white { file } else { self.width - 1 - file };
        }
        let rank = if white { rank } else { self.height - 1 - rank };
        rank * self.files() + file.min(self.width - 1 - file)
    }

    /// The kind a per-kind or piece-square term's index belongs to;
    /// `None` for a scalar.
    pub fn kind_of(self, index: usize) -> Option<usize> {
        let squares_start = self.squares_start();
        if index < Scalar::ALL.len() {
            None
        } else if index < squares_start {
            Some((index - Scalar::ALL.len()) / PerKind::ALL.len())
        } else {
            Some((index - squares_start) / self.squares())
        }
    }

    /// A square's name as White sees it: `b3`.
    pub fn square_name(self, square: usize) -> String {
        let (file, rank) = (square % self.files(), square / self.files());
        format!("{}{}", (b'a' + file as u8) as char, rank + 1)
    }

    /// The square `square_name` calls `name`.
    pub fn parse_square(self, name: &str) -> Option<usize> {
        let mut chars = name.chars();
        let file = (chars.next()? as usize).checked_sub('a' as usize)?;
        let rank = chars.as_str().parse::<usize>().ok()?.checked_sub(1)?;
        (file < self.files() && rank < self.height).then(|| rank * self.files() + file)
    }
}

/// Every weight of one variant's evaluation, by term index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    pub terms: Vec<Score>,
}

/// What a weights file can get wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError {
    pub line: usize,
    pub reason: String,
}

impl std::fmt::Display for WeightsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}
impl std::error::Error for WeightsError {}

/// What a weights file calls a piece-square term: `square N b3 -12 4`.
pub const SQUARE: &str = "square";

/// The largest weight a file may give: features reach a few thousand, so
/// sums stay far from overflow.
pub const MAX_WEIGHT: i32 = 10_000;

/// The weight files built into the binary, by variant name.
const BUILT_IN: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/weight_files.rs"));

/// Of `files` (fitted files by the name of the built-in variant they were
/// fitted for), the one of `variant`'s own name, else the first whose
/// variant `variant` evaluates as (`Variant::evaluates_as`: the same
/// board, pieces and rule systems, another start or castling): what was
/// learnt of a game holds for its other setups and for a file that only
/// renames it.
pub fn fitted_for<'a, T>(files: &'a [(&str, T)], variant: &Variant) -> Option<&'a T> {
    let own = files.iter().find(|(name, _)| *name == variant.name);
    own.or_else(|| {
        files.iter().find(|(name, _)| {
            protean_rules::variants::built_in_by_name(name).is_some_and(|fitted| variant.evaluates_as(fitted))
        })
    })
    .map(|(_, file)| file)
}

impl Weights {
    /// The hand-set weights, with `kinds` giving each kind's role and
    /// material value; no piece-square weights (`squares` of them per
    /// kind) until a fit gives them.
    pub fn defaults(kinds: &[(Role, Score)], squares: usize) -> Weights {
        let mut terms: Vec<Score> = Scalar::ALL.iter().map(|s| s.default()).collect();
        for &(role, value) in kinds {
            terms.extend(Weights::kind_defaults(role, value));
        }
        terms.extend(std::iter::repeat_n(Score::default(), kinds.len() * squares));
        Weights { terms }
    }

    /// The hand-set value, mobility, centre and advance weights of one
    /// kind (advance: nothing until a fit weighs it).
    pub fn kind_defaults(role: Role, value: Score) -> [Score; 4] {
        let centre = match role {
            // Shelter early, centre late.
            Role::Royal => Score::new(-8, 8),
            Role::Pawn => Score::new(2, 0),
            Role::Other => Score::new(3, 0),
        };
        // Mobility: [`Scalar::SafeMobility`] weighs it where no fit gives
        // a kind its own weight per cell.
        [value, Score::new(0, 0), centre, Score::new(0, 0)]
    }

    /// The built-in file of a variant, if one fits it: its own, else that
    /// of a built-in variant it evaluates as (Chess960 takes standard
    /// chess's; see [`fitted_for`]), else that of a variant of the
    /// repository's variant files it evaluates as (`variant_files`).
    pub fn built_in(variant: &Variant) -> Option<&'static str> {
        fitted_for(BUILT_IN, variant).copied().or_else(|| crate::variant_files::weights_for(variant))
    }

    /// `base` with the weights a file gives changed; `variant` names the
    /// kinds by their letters.
    pub fn parse(text: &str, variant: &Variant, base: Weights) -> Result<Weights, WeightsError> {
        let mut w = base;
        let layout = Layout::of(variant);
        for (i, raw) in text.lines().enumerate() {
            let error = |reason: String| WeightsError { line: i + 1, reason };
            let words: Vec<&str> = raw.split('#').next().unwrap_or("").split_whitespace().collect();
            if words.is_empty() {
                continue;
            }
            let kind = || {
                let letter = words.get(1).ok_or_else(|| error(format!("{} needs a piece letter", words[0])))?;
                variant
                    .pieces
                    .iter()
                    .position(|p| p.letter.to_string().eq_ignore_ascii_case(letter))
                    .ok_or_else(|| error(format!("no piece {letter} in {}", variant.name)))
            };
            let (index, numbers) = if let Some(term) = PerKind::by_name(words[0]) {
                (per_kind(term, kind()?), &words[2..])
            } else if words[0] == SQUARE {
                let kind = kind()?;
                let name = words.get(2).ok_or_else(|| error("square needs a piece letter and a square (b3)".into()))?;
                let square = layout.parse_square(name).ok_or_else(|| {
                    error(format!(
                        "no square {name} on a board folded to {} files and {} ranks",
                        layout.files(),
                        layout.height
                    ))
                })?;
                (layout.square(kind, square), &words[3..])
            } else if let Some(s) = Scalar::by_name(words[0]) {
                (scalar(s), &words[1..])
            } else {
                return Err(error(format!("unknown term {}", words[0])));
            };
            let [mg, eg] = numbers else {
                return Err(error(format!("{} needs two whole numbers, middle game and end game", words[0])));
            };
            let parse = |n: &str| {
                n.parse::<i32>()
                    .ok()
                    .filter(|v| v.abs() <= MAX_WEIGHT)
                    .ok_or_else(|| error(format!("not a weight: {n}")))
            };
            w.terms[index] = Score::new(parse(mg)?, parse(eg)?);
        }
        Ok(w)
    }

    /// The weights as a file `parse` reads back.
    pub fn to_text(&self, variant: &Variant) -> String {
        let mut out = String::new();
        for s in Scalar::ALL {
            let v = self.terms[scalar(s)];
            let _ = writeln!(out, "{} {} {}", s.name(), v.mg, v.eg);
        }
        for (kind, piece) in variant.pieces.iter().enumerate() {
            for term in PerKind::ALL {
                let v = self.terms[per_kind(term, kind)];
                let _ = writeln!(out, "{} {} {} {}", term.name(), piece.letter.to_ascii_uppercase(), v.mg, v.eg);
            }
        }
        let layout = Layout::of(variant);
        for (kind, piece) in variant.pieces.iter().enumerate() {
            for square in 0..layout.squares() {
                let v = self.terms[layout.square(kind, square)];
                if v != Score::default() {
                    let _ = writeln!(
                        out,
                        "{SQUARE} {} {} {} {}",
                        piece.letter.to_ascii_uppercase(),
                        layout.square_name(square),
                        v.mg,
                        v.eg
                    );
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protean_rules::AnyRules;

    fn variant(name: &str) -> Variant {
        AnyRules::by_name(name).unwrap().variant().clone()
    }

    #[test]
    fn a_file_reads_back_what_it_wrote() {
        let v = variant("perfect");
        let mut w =
            Weights::defaults(&vec![(Role::Other, Score::new(100, 120)); v.pieces.len()], Layout::of(&v).squares());
        for (i, s) in w.terms.iter_mut().enumerate() {
            *s = Score::new(i as i32 * 3 - 20, 7 - i as i32);
        }
        let text = w.to_text(&v);
        assert_eq!(
            Weights::parse(
                &text,
                &v,
                Weights::defaults(&vec![(Role::Other, Score::default()); v.pieces.len()], Layout::of(&v).squares())
            ),
            Ok(w)
        );
    }

    #[test]
    fn mistakes_are_named_with_their_line() {
        let v = variant("standard");
        let base = Weights::defaults(&vec![(Role::Other, Score::default()); v.pieces.len()], Layout::of(&v).squares());
        for (text, needle) in [
            ("tempo 1 2\nspeed 3 4", "line 2: unknown term speed"),
            ("value Z 1 2", "no piece Z"),
            ("passed 1", "needs two whole numbers"),
            ("passed 1 x", "not a weight: x"),
            ("mobility", "needs a piece letter"),
            ("square N f3 1 2", "no square f3"),
            ("square N", "needs a piece letter and a square"),
        ] {
            let e = Weights::parse(text, &v, base.clone()).unwrap_err().to_string();
            assert!(e.contains(needle), "{text:?}: {e}");
        }
    }

    #[test]
    fn squares_are_seen_from_their_owners_side_and_fold_the_wings() {
        let standard = Layout::of(&variant("standard"));
        assert_eq!(standard.squares(), 4 * 8);
        // White's b3 is Black's b6, and g3 on the other wing folds onto it.
        let b3 = standard.square_of(Color::White, 1, 2);
        assert_eq!(standard.square_name(b3), "b3");
        assert_eq!(standard.square_of(Color::Black, 1, 5), b3);
        assert_eq!(standard.square_of(Color::White, 6, 2), b3);
        assert_ne!(standard.square_of(Color::White, 1, 5), b3);
        // Nine files fold onto five, the e-file on itself.
        let perfect = Layout::of(&variant("perfect"));
        assert_eq!(perfect.squares(), 5 * 9);
        assert_eq!(perfect.square_name(perfect.square_of(Color::Black, 4, 8)), "e1");
        // One rank: its ends are the two sides, and nothing folds.
        let onedim = Layout::of(&variant("onedim"));
        assert_eq!(onedim.squares(), 16);
        assert_eq!(onedim.square_of(Color::Black, 13, 0), onedim.square_of(Color::White, 2, 0));
        assert_ne!(onedim.square_of(Color::White, 13, 0), onedim.square_of(Color::White, 2, 0));
        for layout in [standard, perfect, onedim, Layout::of(&variant("beyond"))] {
            for square in 0..layout.squares() {
                assert_eq!(layout.parse_square(&layout.square_name(square)), Some(square));
            }
            // The piece-square terms come last, by kind.
            assert_eq!(layout.kind_of(layout.square(3, 7)), Some(3));
            assert_eq!(layout.kind_of(per_kind(PerKind::Centre, 2)), Some(2));
            assert_eq!(layout.kind_of(scalar(Scalar::Tempo)), None);
            assert_eq!(layout.square(layout.kinds - 1, layout.squares() - 1) + 1, layout.terms());
            assert_eq!(layout.square_terms().len(), layout.kinds * layout.squares());
        }
        assert_eq!(perfect.parse_square("f1"), None);
        assert_eq!(onedim.parse_square("p2"), None);
    }

    #[test]
    fn every_built_in_file_reads() {
        for (name, text) in BUILT_IN {
            let v = variant(name);
            let base =
                Weights::defaults(&vec![(Role::Other, Score::default()); v.pieces.len()], Layout::of(&v).squares());
            if let Err(e) = Weights::parse(text, &v, base) {
                panic!("weights/{name}.txt: {e}");
            }
        }
    }
}
