//! `Board`: one chess position (piece bitboards plus mailbox, side to move, castling rights,
//! en-passant square, clocks, checkers, pins and incrementally updated Zobrist keys).
//!
//! Moves are applied with [`Board::play`], in place. Engram uses copy-make: to take a move back,
//! keep the copy from before (see [`crate::Position`], which keeps the stack and the key history).

use crate::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
    rook_rays,
};
use crate::bitboard::Bitboard;
use crate::castling::{CastleSide, CastlingRights};
use crate::chess_move::{Move, MoveKind};
use crate::types::{Color, File, Piece, PieceKind, Rank, Square};
use crate::zobrist;

pub(crate) const NO_PIECE: u8 = 12;

/// A chess position.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Board {
    pub(crate) pieces: [Bitboard; 6],
    pub(crate) colors: [Bitboard; 2],
    pub(crate) mailbox: [u8; 64],
    pub(crate) side: Color,
    pub(crate) castling: CastlingRights,
    pub(crate) ep: Option<Square>,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) checkers: Bitboard,
    pub(crate) pinned: Bitboard,
    pub(crate) hash: u64,
    pub(crate) pawn_key: u64,
    pub(crate) chess960: bool,
}

/// The two Zobrist keys of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keys {
    /// The main (Polyglot) key.
    pub hash: u64,
    /// Pawns and kings only.
    pub pawn: u64,
}

impl Default for Board {
    fn default() -> Self {
        Board::startpos()
    }
}

impl Board {
    /// The standard starting position.
    pub fn startpos() -> Board {
        Board::from_fen(crate::fen::STARTPOS, false).expect("the start position is valid")
    }

    pub(crate) fn empty() -> Board {
        Board {
            pieces: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
            mailbox: [NO_PIECE; 64],
            side: Color::White,
            castling: CastlingRights::EMPTY,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            hash: 0,
            pawn_key: 0,
            chess960: false,
        }
    }

    // ---- Accessors -------------------------------------------------------------------------

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// All pieces of `kind`, both colours.
    #[inline]
    pub fn pieces(&self, kind: PieceKind) -> Bitboard {
        self.pieces[kind.index()]
    }

    /// All pieces of `color`.
    #[inline]
    pub fn color(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// The pieces of `color` and `kind`.
    #[inline]
    pub fn colored(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.pieces[kind.index()] & self.colors[color.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        let p = self.mailbox[sq.index()];
        if p == NO_PIECE {
            None
        } else {
            Some(Piece::from_index_unchecked(p))
        }
    }

    /// The square of `color`'s king.
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.colored(color, PieceKind::King).lsb()
    }

    /// The castling rights.
    #[inline]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The en-passant square, kept only when a pawn of the side to move stands ready to capture
    /// on it (the Polyglot rule; the capture may still be illegal because of a pin).
    #[inline]
    pub fn en_passant(&self) -> Option<Square> {
        self.ep
    }

    /// Half-moves since the last capture or pawn move (the fifty-move rule counter).
    #[inline]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// The move number, starting at 1 and incremented after Black's move.
    #[inline]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// The side to move's pieces pinned to their king.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// The main Zobrist key (Polyglot-compatible).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The pawn key (pawns and kings).
    #[inline]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// Both keys.
    pub fn keys(&self) -> Keys {
        Keys {
            hash: self.hash,
            pawn: self.pawn_key,
        }
    }

    /// Whether this board is in Chess960 mode (castling written king-takes-rook in UCI).
    #[inline]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Switches Chess960 move notation on or off. Positions that need Chess960 castling
    /// (a king or rook off its standard square with rights) stay playable either way.
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    /// The square of the castling rook for `color` on `side`, if the right exists.
    #[inline]
    pub fn castling_rook(&self, color: Color, side: CastleSide) -> Option<Square> {
        self.castling
            .rook(color, side)
            .map(|f| Square::new(f, color.back_rank()))
    }

    // ---- Attacks ---------------------------------------------------------------------------

    /// All pieces of either colour attacking `sq`, with occupancy `occ`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let p = &self.pieces;
        let rooks = p[PieceKind::Rook.index()] | p[PieceKind::Queen.index()];
        let bishops = p[PieceKind::Bishop.index()] | p[PieceKind::Queen.index()];
        (pawn_attacks(Color::White, sq) & self.colored(Color::Black, PieceKind::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.colored(Color::White, PieceKind::Pawn))
            | (knight_attacks(sq) & p[PieceKind::Knight.index()])
            | (king_attacks(sq) & p[PieceKind::King.index()])
            | (rook_attacks(sq, occ) & rooks)
            | (bishop_attacks(sq, occ) & bishops)
    }

    /// Whether a piece of `by` attacks `sq`, with occupancy `occ`.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let them = self.colors[by.index()];
        let p = &self.pieces;
        let rooks = (p[PieceKind::Rook.index()] | p[PieceKind::Queen.index()]) & them;
        let bishops = (p[PieceKind::Bishop.index()] | p[PieceKind::Queen.index()]) & them;
        (knight_attacks(sq) & p[PieceKind::Knight.index()] & them).any()
            || (pawn_attacks(by.flip(), sq) & p[PieceKind::Pawn.index()] & them).any()
            || (king_attacks(sq) & p[PieceKind::King.index()] & them).any()
            || (rook_attacks(sq, occ) & rooks).any()
            || (bishop_attacks(sq, occ) & bishops).any()
    }

    /// Recomputes checkers and pins for the side to move.
    #[inline]
    pub(crate) fn update_check_info(&mut self) {
        let us = self.side;
        let them = us.flip();
        let king = self.king(us);
        let occ = self.occupied();
        let their = self.colors[them.index()];
        let p = &self.pieces;
        let rooks = (p[PieceKind::Rook.index()] | p[PieceKind::Queen.index()]) & their;
        let bishops = (p[PieceKind::Bishop.index()] | p[PieceKind::Queen.index()]) & their;

        let mut checkers = (knight_attacks(king) & p[PieceKind::Knight.index()]
            | pawn_attacks(us, king) & p[PieceKind::Pawn.index()])
            & their;
        let mut pinned = Bitboard::EMPTY;
        let snipers = (rook_rays(king) & rooks) | (bishop_rays(king) & bishops);
        for s in snipers {
            let blockers = between(king, s) & occ;
            if blockers.is_empty() {
                checkers = checkers.with(s);
            } else if !blockers.has_many() {
                pinned |= blockers;
            }
        }
        self.checkers = checkers;
        self.pinned = pinned & self.colors[us.index()];
    }

    // ---- Making moves ----------------------------------------------------------------------

    #[inline(always)]
    fn put(&mut self, piece: Piece, sq: Square) {
        let bb = Bitboard::from_square(sq);
        self.pieces[piece.kind().index()] |= bb;
        self.colors[piece.color().index()] |= bb;
        self.mailbox[sq.index()] = piece.index() as u8;
        let k = zobrist::piece_square(piece, sq);
        self.hash ^= k;
        if matches!(piece.kind(), PieceKind::Pawn | PieceKind::King) {
            self.pawn_key ^= k;
        }
    }

    #[inline(always)]
    fn remove(&mut self, piece: Piece, sq: Square) {
        let bb = Bitboard::from_square(sq);
        self.pieces[piece.kind().index()] ^= bb;
        self.colors[piece.color().index()] ^= bb;
        self.mailbox[sq.index()] = NO_PIECE;
        let k = zobrist::piece_square(piece, sq);
        self.hash ^= k;
        if matches!(piece.kind(), PieceKind::Pawn | PieceKind::King) {
            self.pawn_key ^= k;
        }
    }

    /// Whether a pawn of the side to move attacks the en-passant square `ep` (the Polyglot
    /// condition for keeping it).
    #[inline(always)]
    fn ep_capturable(&self, ep: Square) -> bool {
        (pawn_attacks(self.side.flip(), ep) & self.colored(self.side, PieceKind::Pawn)).any()
    }

    /// Plays `mv`, which must be legal in this position (see [`Board::is_legal`]).
    pub fn play(&mut self, mv: Move) {
        let us = self.side;
        let them = us.flip();
        let from = mv.from();
        let to = mv.to();
        let mover = Piece::from_index_unchecked(self.mailbox[from.index()]);

        if let Some(ep) = self.ep.take() {
            self.hash ^= zobrist::en_passant(ep.file());
        }
        self.halfmove += 1;

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
                            self.hash ^= zobrist::en_passant(ep.file());
                        }
                    }
                }
            }
        }

        if self.castling.any() {
            self.update_castling(us, mover, from, to);
        }

        self.side = them;
        self.hash ^= zobrist::white_to_move();
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
                        self.hash ^= zobrist::castling(color, side);
                    }
                }
            }
        }
    }

    /// Passes the turn (a null move, for null-move pruning). Must not be used when in check.
    pub fn play_null(&mut self) {
        if let Some(ep) = self.ep.take() {
            self.hash ^= zobrist::en_passant(ep.file());
        }
        self.halfmove += 1;
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.flip();
        self.hash ^= zobrist::white_to_move();
        self.update_check_info();
    }

    /// The main key of the position after `mv`, without playing it (exact except for the
    /// en-passant file, which is ignored). Used to prefetch the TT entry of a child.
    #[inline]
    pub fn key_after(&self, mv: Move) -> u64 {
        let from = mv.from();
        let to = mv.to();
        let mut h = self.hash ^ zobrist::white_to_move();
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

    // ---- Keys from scratch -----------------------------------------------------------------

    /// Computes both keys from scratch (for tests and for building a position).
    pub fn compute_keys(&self) -> Keys {
        let mut keys = Keys { hash: 0, pawn: 0 };
        for sq in self.occupied() {
            let piece = self.piece_on(sq).expect("occupied square has a piece");
            let k = zobrist::piece_square(piece, sq);
            keys.hash ^= k;
            if matches!(piece.kind(), PieceKind::Pawn | PieceKind::King) {
                keys.pawn ^= k;
            }
        }
        for (color, side, _) in self.castling.iter() {
            keys.hash ^= zobrist::castling(color, side);
        }
        if let Some(ep) = self.ep {
            keys.hash ^= zobrist::en_passant(ep.file());
        }
        if self.side == Color::White {
            keys.hash ^= zobrist::white_to_move();
        }
        keys
    }

    /// Sets the en-passant square if it passes the Polyglot condition (used by the FEN parser).
    pub(crate) fn set_ep_if_capturable(&mut self, ep: Square) {
        if self.ep_capturable(ep) {
            self.ep = Some(ep);
        }
    }

    /// Builds a board from its parts; used by the FEN parser after validation.
    pub(crate) fn place(&mut self, piece: Piece, sq: Square) {
        self.put(piece, sq);
    }

    /// Recomputes derived state (keys, checks) after the FEN parser set the fields.
    pub(crate) fn finish_setup(&mut self) {
        let keys = self.compute_keys();
        self.hash = keys.hash;
        self.pawn_key = keys.pawn;
        self.update_check_info();
    }

    // ---- Draw rules ------------------------------------------------------------------------

    /// Whether neither side can possibly checkmate (K v K, K+minor v K, K+B v K+B with
    /// same-coloured bishops, any number of bishops all on one colour).
    pub fn is_insufficient_material(&self) -> bool {
        let p = &self.pieces;
        if (p[PieceKind::Pawn.index()] | p[PieceKind::Rook.index()] | p[PieceKind::Queen.index()])
            .any()
        {
            return false;
        }
        let knights = p[PieceKind::Knight.index()];
        let bishops = p[PieceKind::Bishop.index()];
        let minors = knights | bishops;
        if minors.len() <= 1 {
            return true;
        }
        if knights.is_empty() {
            const DARK: u64 = 0xaa55_aa55_aa55_aa55;
            return bishops.0 & DARK == 0 || bishops.0 & !DARK == 0;
        }
        false
    }

    /// A compact text picture of the board (White at the bottom), as `d` prints it.
    pub fn pretty(&self) -> String {
        let mut s = String::new();
        s.push_str(" +---+---+---+---+---+---+---+---+\n");
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let c = self
                    .piece_on(Square::new(file, *rank))
                    .map_or(' ', |p| p.to_char());
                s.push_str(" | ");
                s.push(c);
            }
            s.push_str(&format!(
                " | {}\n +---+---+---+---+---+---+---+---+\n",
                rank.to_char()
            ));
        }
        s.push_str("   a   b   c   d   e   f   g   h\n");
        s
    }
}

impl core::fmt::Debug for Board {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Board({})", self.to_fen())
    }
}

impl core::fmt::Display for Board {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.to_fen())
    }
}
