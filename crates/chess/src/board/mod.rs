//! `Board`: one chess position (piece bitboards plus mailbox, side to move, castling rights,
//! en-passant square, clocks, checkers, pins and incrementally updated Zobrist keys).
//!
//! A board is built, validated, from a [`crate::Setup`] ([`Board::from_setup`], in `build`) and
//! changed only by making moves ([`Board::play`], in place, in `make`). Its fields are private to
//! this module: the rest of the crate reads them through the accessors below. Engram uses
//! copy-make: to take a move back, keep the copy from before (see [`crate::Position`], which
//! keeps the stack and the key history).

mod build;
mod make;

use crate::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
    rook_rays,
};
use crate::bitboard::Bitboard;
use crate::castling::{CastleSide, CastlingRights};
use crate::types::{Color, File, Piece, PieceKind, Rank, Square};

/// The mailbox value of an empty square (pieces are stored as their index 0..12).
const NO_PIECE: u8 = 12;

/// A chess position.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Board {
    /// The pieces of each kind, both colours.
    pieces: [Bitboard; 6],
    /// The pieces of each colour.
    colors: [Bitboard; 2],
    /// The piece index on each square, or `NO_PIECE`.
    mailbox: [u8; 64],
    side: Color,
    castling: CastlingRights,
    /// Kept only when a pawn of the side to move stands ready to capture (the Polyglot rule).
    ep: Option<Square>,
    halfmove: u16,
    fullmove: u16,
    /// The pieces giving check to the side to move.
    checkers: Bitboard,
    /// The side to move's pieces pinned to their king.
    pinned: Bitboard,
    /// The position key, see [`Board::key`].
    key: u64,
    /// The pawn key, see [`Board::pawn_key`].
    pawn_key: u64,
    chess960: bool,
}

/// The two Zobrist keys of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keys {
    /// The position key (Polyglot), as [`Board::key`].
    pub key: u64,
    /// Pawns and kings only.
    pub pawn: u64,
}

impl Default for Board {
    fn default() -> Self {
        Board::startpos()
    }
}

impl Board {
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

    /// The position key: the Zobrist key on the Polyglot numbers, equal to the key every
    /// Polyglot opening book uses. It covers the pieces, the side to move, the castling rights
    /// and the en-passant file (only when a pawn of the side to move stands ready to capture);
    /// not the clocks. Transposition table and repetition detection use it.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The pawn key (pawns and kings).
    #[inline]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// Both keys.
    pub fn keys(&self) -> Keys {
        Keys {
            key: self.key,
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
    fn update_check_info(&mut self) {
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
