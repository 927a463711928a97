//! Making moves: [`Board::play`] and [`Board::play_null`] update the board in place, keys
//! included; [`Board::key_after`] guesses a child's key and [`Board::gives_check`] tells
//! whether a move checks, both without playing the move.

use super::{Board, NO_PIECE};
use crate::attacks::{bishop_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::bitboard::Bitboard;
use crate::castling::CastleSide;
use crate::chess_move::{Move, MoveKind};
use crate::types::{Color, Piece, PieceKind, Square};
use crate::zobrist;

impl Board {
    /// Puts `piece` on the empty square `sq`, keys included.
    #[inline(always)]
    fn put(&mut self, piece: Piece, sq: Square) {
        let bb = Bitboard::from_square(sq);
        self.pieces[piece.kind().index()] |= bb;
        self.colors[piece.color().index()] |= bb;
        self.mailbox[sq.index()] = piece.index() as u8;
        let k = zobrist::piece_square(piece, sq);
        self.key ^= k;
        if matches!(piece.kind(), PieceKind::Pawn | PieceKind::King) {
            self.pawn_key ^= k;
        }
    }

    /// Takes `piece` off `sq`, where it stands, keys included.
    #[inline(always)]
    fn remove(&mut self, piece: Piece, sq: Square) {
        let bb = Bitboard::from_square(sq);
        self.pieces[piece.kind().index()] ^= bb;
        self.colors[piece.color().index()] ^= bb;
        self.mailbox[sq.index()] = NO_PIECE;
        let k = zobrist::piece_square(piece, sq);
        self.key ^= k;
        if matches!(piece.kind(), PieceKind::Pawn | PieceKind::King) {
            self.pawn_key ^= k;
        }
    }

    /// Plays `mv`, which must be legal in this position (see [`Board::is_legal`]).
    pub fn play(&mut self, mv: Move) {
        let us = self.side;
        let them = us.flip();
        let from = mv.from();
        let to = mv.to();
        let mover = Piece::from_index_unchecked(self.mailbox[from.index()]);

        if let Some(ep) = self.ep.take() {
            self.key ^= zobrist::en_passant(ep.file());
        }
        self.halfmove = self.halfmove.saturating_add(1);

        match mv.kind() {
            MoveKind::Castling => {
                let side = CastleSide::of(from, to);
                let rank = us.back_rank();
                let rook = Piece::new(us, PieceKind::Rook);
                self.remove(mover, from);
                self.remove(rook, to);
                self.put(mover, Square::new(side.king_to(), rank));
                self.put(rook, Square::new(side.rook_to(), rank));
            }
            MoveKind::EnPassant => {
                let captured = Square::new(to.file(), from.rank());
                self.remove(Piece::new(them, PieceKind::Pawn), captured);
                self.remove(mover, from);
                self.put(mover, to);
                self.halfmove = 0;
            }
            MoveKind::Normal | MoveKind::Promotion => {
                let target = self.mailbox[to.index()];
                if target != NO_PIECE {
                    self.remove(Piece::from_index_unchecked(target), to);
                    self.halfmove = 0;
                }
                self.remove(mover, from);
                if let Some(kind) = mv.promotion_kind() {
                    self.put(Piece::new(us, kind), to);
                } else {
                    self.put(mover, to);
                }
                if mover.kind() == PieceKind::Pawn {
                    self.halfmove = 0;
                    if from.index() ^ to.index() == 16 {
                        let ep = Square::from_index(((from.index() + to.index()) / 2) as u8);
                        // Test from the opponent's point of view: they move next.
                        if (pawn_attacks(us, ep) & self.colored(them, PieceKind::Pawn)).any() {
                            self.ep = Some(ep);
                            self.key ^= zobrist::en_passant(ep.file());
                        }
                    }
                }
            }
        }

        if self.castling.any() {
            self.update_castling(us, mover, from, to);
        }

        self.side = them;
        self.key ^= zobrist::white_to_move();
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.update_check_info();
    }

    /// Drops castling rights lost by a king move or by a rook leaving or being captured.
    #[inline]
    fn update_castling(&mut self, us: Color, mover: Piece, from: Square, to: Square) {
        for color in Color::ALL {
            let rank = color.back_rank();
            for side in CastleSide::ALL {
                if let Some(file) = self.castling.rook(color, side) {
                    let rook = Square::new(file, rank);
                    let king_moved = color == us && mover.kind() == PieceKind::King;
                    if king_moved || rook == from || rook == to {
                        self.castling.set(color, side, None);
                        self.key ^= zobrist::castling(color, side);
                    }
                }
            }
        }
    }

    /// Passes the turn (a null move, for null-move pruning). Must not be used when in check.
    pub fn play_null(&mut self) {
        if let Some(ep) = self.ep.take() {
            self.key ^= zobrist::en_passant(ep.file());
        }
        self.halfmove = self.halfmove.saturating_add(1);
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.flip();
        self.key ^= zobrist::white_to_move();
        self.update_check_info();
    }

    /// A cheap guess at the key of the position after `mv`, without playing it: a few XORs,
    /// meant only as a hint to prefetch the child's transposition-table entry, never as a key.
    ///
    /// It equals the child's [`Board::key`] for most quiet moves and captures: every normal move
    /// (not castling, en passant or a promotion) that leaves no en-passant square behind and
    /// changes no castling right. It differs:
    /// - for castling, en-passant captures and promotions: only the side to move and the old
    ///   en-passant file are updated, the pieces are left where they were;
    /// - after a double pawn push that gives the opponent an en-passant capture: the new
    ///   en-passant file is missing;
    /// - after a move that loses castling rights (a king move, a castling rook moving or being
    ///   captured): the lost rights are still in.
    #[inline]
    pub fn key_after(&self, mv: Move) -> u64 {
        let from = mv.from();
        let to = mv.to();
        let mut h = self.key ^ zobrist::white_to_move();
        if let Some(ep) = self.ep {
            h ^= zobrist::en_passant(ep.file());
        }
        if mv.kind() != MoveKind::Normal {
            return h;
        }
        let mover = self.mailbox[from.index()];
        if mover == NO_PIECE {
            return h;
        }
        let mover = Piece::from_index_unchecked(mover);
        h ^= zobrist::piece_square(mover, from) ^ zobrist::piece_square(mover, to);
        let target = self.mailbox[to.index()];
        if target != NO_PIECE {
            h ^= zobrist::piece_square(Piece::from_index_unchecked(target), to);
        }
        h
    }

    /// Whether `mv`, a legal move of this position, puts the opponent in check: directly, by
    /// discovery (en passant and castling included), or with the promoted piece. The same
    /// answer as playing the move and asking [`Board::in_check`], at the cost of a few
    /// attack lookups: the board after the move is described by its occupancy and the
    /// moving side's pieces, and the opponent's king is looked at from there.
    pub fn gives_check(&self, mv: Move) -> bool {
        let us = self.side;
        let king = self.king(us.flip());
        let from = mv.from();
        let to = mv.to();
        let mover = self.mailbox[from.index()];
        if mover == NO_PIECE {
            return false;
        }
        let mover = Piece::from_index_unchecked(mover);
        let mut occ = self.occupied().without(from);
        let ours = |kind: PieceKind| self.colored(us, kind);
        let mut pawns = ours(PieceKind::Pawn);
        let mut knights = ours(PieceKind::Knight);
        let mut diagonal = ours(PieceKind::Bishop) | ours(PieceKind::Queen);
        let mut straight = ours(PieceKind::Rook) | ours(PieceKind::Queen);
        // The piece that may give a direct check and its square after the move (when
        // castling, the rook: a king gives none); `occ` becomes the occupancy after the move.
        let (kind, to) = match mv.kind() {
            MoveKind::Castling => {
                let side = CastleSide::of(from, to);
                let rank = us.back_rank();
                let (king_to, rook_to) = (
                    Square::new(side.king_to(), rank),
                    Square::new(side.rook_to(), rank),
                );
                occ = occ.without(to).with(king_to).with(rook_to);
                straight = straight.without(to);
                (PieceKind::Rook, rook_to)
            }
            MoveKind::EnPassant => {
                occ = occ.without(Square::new(to.file(), from.rank())).with(to);
                (PieceKind::Pawn, to)
            }
            MoveKind::Normal | MoveKind::Promotion => {
                occ = occ.with(to);
                (mv.promotion_kind().unwrap_or(mover.kind()), to)
            }
        };
        let moved = Bitboard::from_square(to);
        match mover.kind() {
            PieceKind::Pawn => pawns = pawns.without(from),
            PieceKind::Knight => knights = knights.without(from),
            _ => {
                diagonal = diagonal.without(from);
                straight = straight.without(from);
            }
        }
        match kind {
            PieceKind::Pawn => pawns |= moved,
            PieceKind::Knight => knights |= moved,
            PieceKind::Bishop => diagonal |= moved,
            PieceKind::Rook => straight |= moved,
            PieceKind::Queen => {
                diagonal |= moved;
                straight |= moved;
            }
            PieceKind::King => {}
        }
        (pawn_attacks(us.flip(), king) & pawns).any()
            || (knight_attacks(king) & knights).any()
            || (bishop_attacks(king, occ) & diagonal).any()
            || (rook_attacks(king, occ) & straight).any()
    }
}
