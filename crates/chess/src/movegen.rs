//! Legal move generation, in the stages a search needs, and exact legality tests for any
//! 16-bit move value (a move read from the transposition table may come from another position).
//!
//! The generator works piece by piece: for each piece it computes the set of legal destination
//! squares ([`PieceMoves`]) from the check mask, the pin lines and, for the king, the attacked
//! squares. Perft's last ply counts those sets with `popcount` instead of listing moves.

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, piece_attacks,
    rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::castling::CastleSide;
use crate::chess_move::{Move, MoveKind};
use crate::types::{Color, PieceKind, Rank, Square};

/// The legal destinations of one piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceMoves {
    /// The kind of the moving piece.
    pub piece: PieceKind,
    /// Where it stands.
    pub from: Square,
    /// Where it may go. For the king this includes the castling rooks' squares (castling is
    /// "king takes own rook"); for pawns, promotion squares count once here but stand for four
    /// moves (see [`PieceMoves::len`]).
    pub to: Bitboard,
}

impl PieceMoves {
    /// The number of moves these destinations stand for (promotions count four).
    #[inline]
    pub fn len(&self) -> usize {
        if self.piece == PieceKind::Pawn {
            const BACK_RANKS: Bitboard = Bitboard(0xff00_0000_0000_00ff);
            (self.to.len() + 3 * (self.to & BACK_RANKS).len()) as usize
        } else {
            self.to.len() as usize
        }
    }

    /// Whether there are no destinations.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.to.is_empty()
    }
}

/// Which moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenType {
    /// Every legal move.
    All,
    /// Captures (including en passant) and queen promotions (capturing or not).
    Noisy,
    /// Everything else: quiet moves, castling and under-promotions (capturing or not).
    Quiet,
}

/// A list of moves on the stack (no position has more than 218 legal moves).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; 256],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; 256],
            len: 0,
        }
    }

    /// Appends a move.
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        debug_assert!(self.len < 256);
        self.moves[self.len & 255] = mv;
        self.len += 1;
    }

    /// The number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether `mv` is in the list.
    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for sorting).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Keeps the first `len` moves (all of them if there are fewer).
    ///
    /// ```
    /// use engram_chess::{Board, GenType, MoveList};
    /// let mut list = MoveList::new();
    /// Board::startpos().generate(GenType::All, &mut list);
    /// let first = list[0];
    /// list.truncate(1);
    /// assert_eq!(list.as_slice(), &[first]);
    /// list.truncate(5);
    /// assert_eq!(list.len(), 1);
    /// ```
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl core::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl core::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

const PROMO_RANKS: Bitboard = Bitboard(0xff00_0000_0000_00ff);

/// Shifts a set by `delta` squares (positive: towards rank 8). Callers mask off file wraps.
#[inline(always)]
fn shift(bb: Bitboard, delta: i8) -> Bitboard {
    if delta >= 0 {
        Bitboard(bb.0 << delta)
    } else {
        Bitboard(bb.0 >> -delta)
    }
}

/// The squares attacked by the pawns `pawns` of `color`.
#[inline(always)]
fn pawn_attacks_set(color: Color, pawns: Bitboard) -> Bitboard {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    match color {
        Color::White => Bitboard((pawns.0 & NOT_A) << 7 | (pawns.0 & NOT_H) << 9),
        Color::Black => Bitboard((pawns.0 & NOT_A) >> 9 | (pawns.0 & NOT_H) >> 7),
    }
}

/// Where the generator puts moves: a list, a counter, or a check for "any move at all".
trait Sink {
    /// The legal destinations of one piece; returns `true` to stop generating.
    fn piece(&mut self, pm: PieceMoves) -> bool;
    /// Pawn moves given set-wise: each square of `to` is reached from `to - delta`.
    fn pawns(&mut self, to: Bitboard, delta: i8) -> bool;
}

/// Counts moves (promotions count four) without listing them.
struct Counter(u64);

impl Sink for Counter {
    #[inline(always)]
    fn piece(&mut self, pm: PieceMoves) -> bool {
        self.0 += pm.len() as u64;
        false
    }
    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, _delta: i8) -> bool {
        self.0 += (to.len() + 3 * (to & PROMO_RANKS).len()) as u64;
        false
    }
}

/// Stops at the first move.
struct AnyMove;

impl Sink for AnyMove {
    #[inline(always)]
    fn piece(&mut self, _: PieceMoves) -> bool {
        true
    }
    #[inline(always)]
    fn pawns(&mut self, _: Bitboard, _: i8) -> bool {
        true
    }
}

/// Lists moves of one kind into a [`MoveList`].
struct Lister<'a> {
    board: &'a Board,
    gen: GenType,
    list: &'a mut MoveList,
}

impl Sink for Lister<'_> {
    #[inline(always)]
    fn piece(&mut self, pm: PieceMoves) -> bool {
        self.board.expand(pm, self.gen, self.list);
        false
    }
    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, delta: i8) -> bool {
        for t in to {
            let from = Square::from_index((t.index() as i8 - delta) as u8);
            self.board.push_pawn_move(from, t, self.gen, self.list);
        }
        false
    }
}

impl Board {
    /// The squares the king of the side to move can go to without being attacked: the
    /// enemy's leaper attacks are computed set-wise, sliders are checked square by square
    /// with the king removed from the board (so it cannot hide behind itself).
    #[inline(always)]
    fn king_targets(&self, king: Square, candidates: Bitboard, occ: Bitboard) -> Bitboard {
        if candidates.is_empty() {
            return candidates;
        }
        let them = self.side_to_move().flip();
        let their = self.color(them);
        let their_pawns = self.pieces(PieceKind::Pawn) & their;
        let mut danger = pawn_attacks_set(them, their_pawns) | king_attacks(self.king(them));
        for n in self.pieces(PieceKind::Knight) & their {
            danger |= knight_attacks(n);
        }
        let mut safe = candidates - danger;
        let rooks = (self.pieces(PieceKind::Rook) | self.pieces(PieceKind::Queen)) & their;
        let bishops = (self.pieces(PieceKind::Bishop) | self.pieces(PieceKind::Queen)) & their;
        if (rooks | bishops).any() {
            let occ = occ.without(king);
            for sq in safe {
                if (rook_attacks(sq, occ) & rooks).any()
                    || (bishop_attacks(sq, occ) & bishops).any()
                {
                    safe = safe.without(sq);
                }
            }
        }
        safe
    }

    /// Whether castling with the rook on `rook` (towards `side`) is legal, assuming the right exists.
    #[inline]
    fn castling_legal(&self, side: CastleSide, king: Square, rook: Square) -> bool {
        if self.in_check() {
            return false;
        }
        let rank = self.side_to_move().back_rank();
        let king_to = Square::new(side.king_to(), rank);
        let rook_to = Square::new(side.rook_to(), rank);
        let occ = self.occupied().without(king).without(rook);
        let must_be_empty =
            between(king, king_to).with(king_to) | between(rook, rook_to).with(rook_to);
        if (must_be_empty & occ).any() {
            return false;
        }
        let them = self.side_to_move().flip();
        // Without the castling rook on the board: in Chess960 it may shield the king's target.
        for sq in between(king, king_to).with(king_to) {
            if self.is_attacked(sq, them, occ) {
                return false;
            }
        }
        true
    }

    /// Whether the en-passant capture by the pawn on `from` leaves our king safe.
    #[inline]
    fn en_passant_legal(&self, from: Square, ep: Square) -> bool {
        let us = self.side_to_move();
        let their = self.color(us.flip());
        let king = self.king(us);
        let captured = Square::new(ep.file(), from.rank());
        let occ = self.occupied().without(from).without(captured).with(ep);
        let rooks = (self.pieces(PieceKind::Rook) | self.pieces(PieceKind::Queen)) & their;
        let bishops = (self.pieces(PieceKind::Bishop) | self.pieces(PieceKind::Queen)) & their;
        let leapers = (self.pieces(PieceKind::Knight) | self.pieces(PieceKind::Pawn)) & their;
        (rook_attacks(king, occ) & rooks).is_empty()
            && (bishop_attacks(king, occ) & bishops).is_empty()
            && (self.checkers() & leapers).without(captured).is_empty()
    }

    /// Feeds the legal moves of kind `gen` to `sink`, piece by piece (pawns mostly set-wise).
    /// Stops early and returns `true` as soon as the sink asks to.
    #[inline(always)]
    fn generate_into<S: Sink>(&self, gen: GenType, sink: &mut S) -> bool {
        let us = self.side_to_move();
        let our = self.color(us);
        let their = self.color(us.flip());
        let occ = our | their;
        let king = self.king(us);
        let (mask, pawn_mask) = match gen {
            GenType::All => (Bitboard::FULL, Bitboard::FULL),
            GenType::Noisy => (their, their | PROMO_RANKS),
            GenType::Quiet => (!occ, !occ | PROMO_RANKS),
        };

        // King.
        let mut king_to = self.king_targets(king, king_attacks(king) & !our & mask, occ);
        if gen != GenType::Noisy && self.castling_rights().any() && !self.in_check() {
            for side in CastleSide::ALL {
                if let Some(rook) = self.castling_rook(us, side) {
                    if self.castling_legal(side, king, rook) {
                        king_to = king_to.with(rook);
                    }
                }
            }
        }
        if king_to.any()
            && sink.piece(PieceMoves {
                piece: PieceKind::King,
                from: king,
                to: king_to,
            })
        {
            return true;
        }
        if self.checkers().has_many() {
            return false;
        }
        let target = match self.checkers().first() {
            Some(c) => between(king, c).with(c),
            None => Bitboard::FULL,
        } - our;
        let pinned = self.pinned();

        // Knights (a pinned knight can never move).
        for from in self.pieces(PieceKind::Knight) & our & !pinned {
            let to = knight_attacks(from) & target & mask;
            if to.any()
                && sink.piece(PieceMoves {
                    piece: PieceKind::Knight,
                    from,
                    to,
                })
            {
                return true;
            }
        }

        // Sliders; a queen is fed twice, once per direction set.
        let queens = self.pieces(PieceKind::Queen);
        for from in (self.pieces(PieceKind::Bishop) | queens) & our {
            let mut to = bishop_attacks(from, occ) & target & mask;
            if pinned.has(from) {
                to &= line(king, from);
            }
            let piece = if queens.has(from) {
                PieceKind::Queen
            } else {
                PieceKind::Bishop
            };
            if to.any() && sink.piece(PieceMoves { piece, from, to }) {
                return true;
            }
        }
        for from in (self.pieces(PieceKind::Rook) | queens) & our {
            let mut to = rook_attacks(from, occ) & target & mask;
            if pinned.has(from) {
                to &= line(king, from);
            }
            let piece = if queens.has(from) {
                PieceKind::Queen
            } else {
                PieceKind::Rook
            };
            if to.any() && sink.piece(PieceMoves { piece, from, to }) {
                return true;
            }
        }

        // Pawns: unpinned ones set-wise, pinned ones one by one.
        let pawns = self.pieces(PieceKind::Pawn) & our;
        let empty = !occ;
        let free = pawns - pinned;
        let (third_rank, up) = match us {
            Color::White => (Bitboard::rank(Rank::Third), 8i8),
            Color::Black => (Bitboard::rank(Rank::Sixth), -8i8),
        };
        let push1 = shift(free, up) & empty;
        let push2 = shift(push1 & third_rank, up) & empty;
        let pawn_target = target & pawn_mask;
        const NOT_A: Bitboard = Bitboard(!0x0101_0101_0101_0101);
        const NOT_H: Bitboard = Bitboard(!0x8080_8080_8080_8080);
        let west = shift(free & NOT_A, up - 1) & their & pawn_target;
        let east = shift(free & NOT_H, up + 1) & their & pawn_target;
        for (to, delta) in [
            (push1 & pawn_target, up),
            (push2 & pawn_target, 2 * up),
            (west, up - 1),
            (east, up + 1),
        ] {
            if to.any() && sink.pawns(to, delta) {
                return true;
            }
        }
        for from in pawns & pinned {
            let mut to = pawn_attacks(us, from) & their;
            let one = Square::from_index((from.index() as i8 + up) as u8);
            if empty.has(one) {
                to = to.with(one);
                let two = Square::from_index((one.index() as i8 + up) as u8);
                if third_rank.has(one) && empty.has(two) {
                    to = to.with(two);
                }
            }
            to &= pawn_target & line(king, from);
            if to.any()
                && sink.piece(PieceMoves {
                    piece: PieceKind::Pawn,
                    from,
                    to,
                })
            {
                return true;
            }
        }
        if let Some(ep) = self.en_passant() {
            if gen != GenType::Quiet {
                for from in pawn_attacks(us.flip(), ep) & pawns {
                    if self.en_passant_legal(from, ep)
                        && sink.piece(PieceMoves {
                            piece: PieceKind::Pawn,
                            from,
                            to: Bitboard::from_square(ep),
                        })
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Appends the pawn move from `from` to `to` as `gen` wants it (promotion pieces differ).
    #[inline(always)]
    fn push_pawn_move(&self, from: Square, to: Square, gen: GenType, list: &mut MoveList) {
        if PROMO_RANKS.has(to) {
            if gen != GenType::Quiet {
                list.push(Move::promotion(from, to, PieceKind::Queen));
            }
            if gen != GenType::Noisy {
                list.push(Move::promotion(from, to, PieceKind::Knight));
                list.push(Move::promotion(from, to, PieceKind::Rook));
                list.push(Move::promotion(from, to, PieceKind::Bishop));
            }
        } else if Some(to) == self.en_passant() {
            list.push(Move::en_passant(from, to));
        } else {
            list.push(Move::normal(from, to));
        }
    }

    /// Appends the moves of `pm` to `list`, as `gen` wants them.
    #[inline(always)]
    fn expand(&self, pm: PieceMoves, gen: GenType, list: &mut MoveList) {
        let from = pm.from;
        match pm.piece {
            PieceKind::Pawn => {
                for to in pm.to {
                    self.push_pawn_move(from, to, gen, list);
                }
            }
            PieceKind::King => {
                let our = self.color(self.side_to_move());
                for to in pm.to {
                    list.push(if our.has(to) {
                        Move::castling(from, to)
                    } else {
                        Move::normal(from, to)
                    });
                }
            }
            _ => {
                for to in pm.to {
                    list.push(Move::normal(from, to));
                }
            }
        }
    }

    /// Appends the legal moves of kind `gen` to `list`.
    pub fn generate(&self, gen: GenType, list: &mut MoveList) {
        self.generate_into(
            gen,
            &mut Lister {
                board: self,
                gen,
                list,
            },
        );
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(GenType::All, &mut list);
        list
    }

    /// Legal check evasions: every legal move when in check (empty when not in check).
    pub fn evasions(&self, list: &mut MoveList) {
        if self.in_check() {
            self.generate(GenType::All, list);
        }
    }

    /// The number of legal moves (fast: counts destination sets, lists nothing).
    #[inline]
    pub fn count_moves(&self) -> u64 {
        let mut counter = Counter(0);
        self.generate_into(GenType::All, &mut counter);
        counter.0
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_moves(&self) -> bool {
        self.generate_into(GenType::All, &mut AnyMove)
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_moves()
    }

    /// Whether the side to move is stalemated.
    pub fn is_stalemate(&self) -> bool {
        !self.in_check() && !self.has_legal_moves()
    }

    /// Whether `mv` is pseudo-legal here: its encoding is one the generator can produce and the
    /// piece can make it on this board, ignoring only whether it leaves the own king in check.
    /// Exact and cheap for any 16-bit value; the null move is never pseudo-legal.
    pub fn is_pseudo_legal(&self, mv: Move) -> bool {
        let us = self.side_to_move();
        let from = mv.from();
        let to = mv.to();
        let Some(mover) = self.piece_on(from) else {
            return false;
        };
        if from == to || mover.color() != us {
            return false;
        }
        // Unused promotion bits must be zero on non-promotions.
        if !mv.is_promotion() && mv.to_u16() & 0x3000 != 0 {
            return false;
        }
        let our = self.color(us);
        let their = self.color(us.flip());
        let occ = our | their;
        match mv.kind() {
            MoveKind::Castling => {
                mover.kind() == PieceKind::King
                    && CastleSide::ALL
                        .iter()
                        .any(|&side| self.castling_rook(us, side) == Some(to))
                    && from.rank() == us.back_rank()
            }
            MoveKind::EnPassant => {
                mover.kind() == PieceKind::Pawn
                    && Some(to) == self.en_passant()
                    && pawn_attacks(us, from).has(to)
            }
            MoveKind::Promotion | MoveKind::Normal => {
                if our.has(to) {
                    return false;
                }
                if mover.kind() != PieceKind::Pawn {
                    return !mv.is_promotion() && piece_attacks(mover.kind(), from, occ).has(to);
                }
                if mv.is_promotion() != PROMO_RANKS.has(to) {
                    return false;
                }
                if pawn_attacks(us, from).has(to) {
                    return their.has(to);
                }
                let up: i8 = if us == Color::White { 8 } else { -8 };
                let one = from.index() as i8 + up;
                if to.index() as i8 == one {
                    return !occ.has(to);
                }
                let start = if us == Color::White {
                    Rank::Second
                } else {
                    Rank::Seventh
                };
                to.index() as i8 == one + up
                    && from.rank() == start
                    && !occ.has(to)
                    && !occ.has(Square::from_index(one as u8))
            }
        }
    }

    /// Whether `mv` is legal here. Exact for any 16-bit value: agrees with [`Board::legal_moves`].
    pub fn is_legal(&self, mv: Move) -> bool {
        self.is_pseudo_legal(mv) && self.is_legal_pseudo(mv)
    }

    /// Whether a pseudo-legal move leaves the own king safe.
    #[inline]
    fn is_legal_pseudo(&self, mv: Move) -> bool {
        let us = self.side_to_move();
        let from = mv.from();
        let to = mv.to();
        let king = self.king(us);
        match mv.kind() {
            MoveKind::Castling => {
                let side = CastleSide::of(from, to);
                self.castling_legal(side, from, to)
            }
            MoveKind::EnPassant => self.en_passant_legal(from, to),
            _ if from == king => !self.is_attacked(to, us.flip(), self.occupied().without(king)),
            _ => {
                if let Some(checker) = self.checkers().first() {
                    if self.checkers().has_many() || !between(king, checker).with(checker).has(to) {
                        return false;
                    }
                }
                !self.pinned().has(from) || line(king, from).has(to)
            }
        }
    }
}
