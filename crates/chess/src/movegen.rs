//! Legal move generation, in the stages a search needs, and exact legality tests for any
//! 16-bit move value (a move read from the transposition table may come from another position).
//!
//! The generator works piece by piece: for each piece it computes the set of legal destination
//! squares ([`PieceMoves`]) from the check mask, the pin lines and, for the king, the attacked
//! squares. Perft's last ply counts those sets with `popcount` instead of listing moves.

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, queen_attacks,
    rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::board::{Board, NO_PIECE};
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

impl Board {
    /// The squares the king of the side to move could be attacked on, given the occupancy with
    /// the king removed (so it cannot hide behind itself along a slider's line).
    #[inline(always)]
    fn king_targets(&self, king: Square, our: Bitboard, occ: Bitboard) -> Bitboard {
        let them = self.side.flip();
        let occ = occ.without(king);
        let mut safe = Bitboard::EMPTY;
        for sq in king_attacks(king) - our {
            if !self.is_attacked(sq, them, occ) {
                safe = safe.with(sq);
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
        let rank = self.side.back_rank();
        let king_to = Square::new(side.king_to(), rank);
        let rook_to = Square::new(side.rook_to(), rank);
        let occ = self.occupied().without(king).without(rook);
        let must_be_empty =
            between(king, king_to).with(king_to) | between(rook, rook_to).with(rook_to);
        if (must_be_empty & occ).any() {
            return false;
        }
        let them = self.side.flip();
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
        let us = self.side;
        let their = self.colors[us.flip().index()];
        let king = self.king(us);
        let captured = Square::new(ep.file(), from.rank());
        let occ = self.occupied().without(from).without(captured).with(ep);
        let p = &self.pieces;
        let rooks = (p[PieceKind::Rook.index()] | p[PieceKind::Queen.index()]) & their;
        let bishops = (p[PieceKind::Bishop.index()] | p[PieceKind::Queen.index()]) & their;
        let leapers = (p[PieceKind::Knight.index()] | p[PieceKind::Pawn.index()]) & their;
        (rook_attacks(king, occ) & rooks).is_empty()
            && (bishop_attacks(king, occ) & bishops).is_empty()
            && (self.checkers & leapers).without(captured).is_empty()
    }

    /// Calls `f` with the legal destinations of each piece of the side to move that can move,
    /// restricted by `gen`. Stops early and returns `true` as soon as `f` returns `true`.
    #[inline(always)]
    pub fn for_each_piece_moves(
        &self,
        gen: GenType,
        mut f: impl FnMut(PieceMoves) -> bool,
    ) -> bool {
        let us = self.side;
        let our = self.colors[us.index()];
        let their = self.colors[us.flip().index()];
        let occ = our | their;
        let king = self.king(us);
        let ep_bb = self.ep.map_or(Bitboard::EMPTY, Bitboard::from_square);
        let (mask, pawn_mask) = match gen {
            GenType::All => (Bitboard::FULL, Bitboard::FULL),
            GenType::Noisy => (their, their | ep_bb | PROMO_RANKS),
            GenType::Quiet => (!occ, (!occ - ep_bb) | PROMO_RANKS),
        };

        // King.
        let mut king_to = self.king_targets(king, our, occ) & mask;
        if gen != GenType::Noisy && self.castling.any() && !self.in_check() {
            for side in CastleSide::ALL {
                if let Some(rook) = self.castling_rook(us, side) {
                    if self.castling_legal(side, king, rook) {
                        king_to = king_to.with(rook);
                    }
                }
            }
        }
        if king_to.any()
            && f(PieceMoves {
                piece: PieceKind::King,
                from: king,
                to: king_to,
            })
        {
            return true;
        }
        if self.checkers.has_many() {
            return false;
        }
        let target = match self.checkers.first() {
            Some(c) => between(king, c).with(c),
            None => Bitboard::FULL,
        } - our;
        let pinned = self.pinned;

        // Knights (a pinned knight can never move).
        for from in self.colored(us, PieceKind::Knight) - pinned {
            let to = knight_attacks(from) & target & mask;
            if to.any()
                && f(PieceMoves {
                    piece: PieceKind::Knight,
                    from,
                    to,
                })
            {
                return true;
            }
        }

        // Sliders.
        for (kind, attacks) in [
            (
                PieceKind::Bishop,
                bishop_attacks as fn(Square, Bitboard) -> Bitboard,
            ),
            (PieceKind::Rook, rook_attacks),
            (PieceKind::Queen, queen_attacks),
        ] {
            for from in self.colored(us, kind) {
                let mut to = attacks(from, occ) & target & mask;
                if pinned.has(from) {
                    to &= line(king, from);
                }
                if to.any()
                    && f(PieceMoves {
                        piece: kind,
                        from,
                        to,
                    })
                {
                    return true;
                }
            }
        }

        // Pawns.
        let (up, start_rank): (i8, Rank) = match us {
            Color::White => (8, Rank::Second),
            Color::Black => (-8, Rank::Seventh),
        };
        let empty = !occ;
        for from in self.colored(us, PieceKind::Pawn) {
            let mut to = pawn_attacks(us, from) & their;
            let one = Square::from_index((from.index() as i8 + up) as u8);
            if empty.has(one) {
                to = to.with(one);
                if from.rank() == start_rank {
                    let two = Square::from_index((one.index() as i8 + up) as u8);
                    if empty.has(two) {
                        to = to.with(two);
                    }
                }
            }
            to &= target;
            if pinned.has(from) {
                to &= line(king, from);
            }
            if let Some(ep) = self.ep {
                if pawn_attacks(us, from).has(ep) && self.en_passant_legal(from, ep) {
                    to = to.with(ep);
                }
            }
            to &= pawn_mask;
            if to.any()
                && f(PieceMoves {
                    piece: PieceKind::Pawn,
                    from,
                    to,
                })
            {
                return true;
            }
        }
        false
    }

    /// Appends the moves of `pm` to `list`, as `gen` wants them (promotion pieces differ).
    #[inline(always)]
    fn expand(&self, pm: PieceMoves, gen: GenType, list: &mut MoveList) {
        let from = pm.from;
        match pm.piece {
            PieceKind::Pawn => {
                for to in pm.to {
                    if PROMO_RANKS.has(to) {
                        if gen != GenType::Quiet {
                            list.push(Move::promotion(from, to, PieceKind::Queen));
                        }
                        if gen != GenType::Noisy {
                            list.push(Move::promotion(from, to, PieceKind::Knight));
                            list.push(Move::promotion(from, to, PieceKind::Rook));
                            list.push(Move::promotion(from, to, PieceKind::Bishop));
                        }
                    } else if Some(to) == self.ep {
                        list.push(Move::en_passant(from, to));
                    } else {
                        list.push(Move::normal(from, to));
                    }
                }
            }
            PieceKind::King => {
                let our = self.colors[self.side.index()];
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
        self.for_each_piece_moves(gen, |pm| {
            self.expand(pm, gen, list);
            false
        });
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
        let mut n = 0u64;
        self.for_each_piece_moves(GenType::All, |pm| {
            n += pm.len() as u64;
            false
        });
        n
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_moves(&self) -> bool {
        self.for_each_piece_moves(GenType::All, |_| true)
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
        let us = self.side;
        let from = mv.from();
        let to = mv.to();
        let raw = self.mailbox[from.index()];
        if raw == NO_PIECE || from == to {
            return false;
        }
        let mover = crate::types::Piece::from_index_unchecked(raw);
        if mover.color() != us {
            return false;
        }
        // Unused promotion bits must be zero on non-promotions.
        if !mv.is_promotion() && mv.to_u16() & 0x3000 != 0 {
            return false;
        }
        let our = self.colors[us.index()];
        let their = self.colors[us.flip().index()];
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
                    && Some(to) == self.ep
                    && pawn_attacks(us, from).has(to)
            }
            MoveKind::Promotion | MoveKind::Normal => {
                if our.has(to) {
                    return false;
                }
                if mover.kind() != PieceKind::Pawn {
                    return !mv.is_promotion()
                        && self.piece_attacks(mover.kind(), from, occ).has(to);
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

    /// The squares a non-pawn piece of `kind` on `from` attacks.
    #[inline]
    fn piece_attacks(&self, kind: PieceKind, from: Square, occ: Bitboard) -> Bitboard {
        match kind {
            PieceKind::Knight => knight_attacks(from),
            PieceKind::Bishop => bishop_attacks(from, occ),
            PieceKind::Rook => rook_attacks(from, occ),
            PieceKind::Queen => queen_attacks(from, occ),
            PieceKind::King => king_attacks(from),
            PieceKind::Pawn => Bitboard::EMPTY,
        }
    }

    /// Whether `mv` is legal here. Exact for any 16-bit value: agrees with [`Board::legal_moves`].
    pub fn is_legal(&self, mv: Move) -> bool {
        self.is_pseudo_legal(mv) && self.is_legal_pseudo(mv)
    }

    /// Whether a pseudo-legal move leaves the own king safe.
    #[inline]
    fn is_legal_pseudo(&self, mv: Move) -> bool {
        let us = self.side;
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
                if let Some(checker) = self.checkers.first() {
                    if self.checkers.has_many() || !between(king, checker).with(checker).has(to) {
                        return false;
                    }
                }
                !self.pinned.has(from) || line(king, from).has(to)
            }
        }
    }
}
