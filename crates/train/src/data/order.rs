//! The move order chunks code moves by: a move is stored as its rank in this order,
//! and a good order puts the move the engine played near the top, where its rank is cheap.
//!
//! The order is a deterministic function of the position, the previous move's target square
//! and what the coder has seen so far in the chunk, so the decoder rebuilds it exactly:
//!
//! 1. the move's rough material balance ([`material`]): what it captures or promotes to, less
//!    what it leaves hanging on its target square, plus a little for moving a piece that
//!    stood attacked and for giving check, highest first;
//! 2. recaptures (a capture on the square the previous move went to) first;
//! 3. how often the side to move has played this move (piece, from-square and to-square,
//!    from its own side of the board) earlier in the chunk, most often first;
//! 4. the 16-bit move encoding, lowest first.
//!
//! The ranks are coded under three adaptive models (in check, fewer than 20 legal moves, more).
//! On self-play chunks of gen9, gen12 and gen13 this takes the moves from about 5.5 bits
//! each (their index in code order, under an adaptive model) to about 4.4. (Measured and not
//! kept: a second history by piece and target square only, no better.)

use engram_chess::{Bitboard, Board, Color, Move, PieceKind};

/// Piece values in pawns for [`material`], by [`PieceKind::index`] (the king 0: it never
/// hangs, since its moves are legal).
const VALUE: [i32; 6] = [1, 3, 3, 5, 9, 0];

/// What giving check adds to a move's [`material`] key, in tenths of a pawn.
const CHECK: i32 = 5;

/// Entries of the history: side × piece × from × to.
const HISTORY_LEN: usize = 2 * 6 * 64 * 64;

/// The order's state: the counts of the moves played so far in a chunk.
pub struct MoveOrder {
    history: Vec<u32>,
}

impl Default for MoveOrder {
    fn default() -> MoveOrder {
        MoveOrder {
            history: vec![0; HISTORY_LEN],
        }
    }
}

/// A legal move with its sort key: larger keys come first, then lower codes.
#[derive(Clone, Copy)]
struct Keyed {
    key: (i32, bool, u32),
    code: u16,
}

impl Keyed {
    /// The move's place in the order: smaller comes first.
    fn place(&self) -> (std::cmp::Reverse<(i32, bool, u32)>, u16) {
        (std::cmp::Reverse(self.key), self.code)
    }
}

impl MoveOrder {
    /// The history entry of `mv`, a move of `board`'s side to move, squares seen from that
    /// side (Black's flipped vertically).
    fn slot(board: &Board, mv: Move) -> usize {
        let side = board.side_to_move();
        let flip = if side == Color::White { 0 } else { 56 };
        let piece = board.piece_on(mv.from()).map_or(0, |p| p.kind().index());
        (((side as usize) * 6 + piece) * 64 + (mv.from().index() ^ flip)) * 64
            + (mv.to().index() ^ flip)
    }

    fn keyed(&self, board: &Board, mv: Move, last_to: Option<u8>) -> Keyed {
        let recapture = !mv.is_castling()
            && Some(mv.to().index() as u8) == last_to
            && board.piece_on(mv.to()).is_some();
        Keyed {
            key: (
                material(board, mv) + if board.gives_check(mv) { CHECK } else { 0 },
                recapture,
                self.history[Self::slot(board, mv)],
            ),
            code: mv.to_u16(),
        }
    }

    /// The rank of `mv` among `moves`, `board`'s legal moves, `last_to` the target square of
    /// the move before (if any). `None` if `mv` is not among them.
    pub fn rank(&self, board: &Board, moves: &[Move], mv: Move, last_to: Option<u8>) -> Option<u8> {
        if !moves.contains(&mv) {
            return None;
        }
        let me = self.keyed(board, mv, last_to);
        let ahead = moves
            .iter()
            .filter(|&&m| m != mv && self.keyed(board, m, last_to).place() < me.place())
            .count();
        Some(ahead as u8)
    }

    /// The move of `moves`, `board`'s legal moves, with rank `rank`, if there is one.
    pub fn nth(
        &self,
        board: &Board,
        moves: &[Move],
        rank: u8,
        last_to: Option<u8>,
    ) -> Option<Move> {
        let mut keyed: Vec<Keyed> = moves
            .iter()
            .map(|&m| self.keyed(board, m, last_to))
            .collect();
        if rank as usize >= keyed.len() {
            return None;
        }
        keyed.sort_unstable_by_key(Keyed::place);
        Some(Move::from_u16(keyed[rank as usize].code))
    }

    /// Counts `mv`, about to be played on `board`.
    pub fn played(&mut self, board: &Board, mv: Move) {
        let slot = Self::slot(board, mv);
        self.history[slot] = self.history[slot].saturating_add(1);
    }
}

/// A rough material balance of `mv` on `board`, in tenths of a pawn: the captured piece (a
/// pawn for en passant) and a promotion's gain; less the moving piece if its target square is
/// attacked by the other side and not defended, or less the difference if the cheapest
/// attacker is worth less than it; plus 3 if the moving piece stood attacked. Castling is 0.
pub fn material(board: &Board, mv: Move) -> i32 {
    if mv.is_castling() {
        return 0;
    }
    let us = board.side_to_move();
    let them = us.flip();
    let Some(mover) = board.piece_on(mv.from()).map(|p| p.kind()) else {
        return 0;
    };
    let mut gain = if mv.is_en_passant() {
        1
    } else {
        board
            .piece_on(mv.to())
            .map_or(0, |p| VALUE[p.kind().index()])
    };
    if mover == PieceKind::King {
        return gain * 10;
    }
    let mut value = VALUE[mover.index()];
    if let Some(k) = mv.promotion_kind() {
        gain += VALUE[k.index()] - 1;
        value = VALUE[k.index()];
    }
    let to = mv.to();
    let occ = (board.occupied() ^ Bitboard::from(mv.from())) | Bitboard::from(to);
    let attackers = board.attackers_to(to, occ) & occ;
    let theirs = attackers & board.color(them) & !Bitboard::from(to);
    let ours = attackers & board.color(us);
    let mut loss = 0;
    if theirs != Bitboard::EMPTY {
        let cheapest = theirs
            .into_iter()
            .filter_map(|sq| board.piece_on(sq))
            .map(|p| match p.kind() {
                PieceKind::King => 100,
                k => VALUE[k.index()],
            })
            .min()
            .unwrap_or(100);
        if ours == Bitboard::EMPTY {
            loss = value;
        } else if cheapest < value {
            loss = value - cheapest;
        }
    }
    let attacked = board.attackers_to(mv.from(), board.occupied()) & board.color(them);
    let escape = if attacked != Bitboard::EMPTY { 3 } else { 0 };
    (gain - loss) * 10 + escape
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_nth_agree_on_every_move() {
        let mut order = MoveOrder::default();
        let mut board = Board::startpos();
        let mut last_to = None;
        let mut s = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..200 {
            let list = board.legal_moves();
            let moves = list.as_slice();
            if moves.is_empty() {
                break;
            }
            let mut ranks: Vec<u8> = Vec::new();
            for &m in moves {
                let r = order.rank(&board, moves, m, last_to).unwrap();
                assert_eq!(order.nth(&board, moves, r, last_to), Some(m));
                ranks.push(r);
            }
            ranks.sort_unstable();
            assert_eq!(ranks, (0..moves.len() as u8).collect::<Vec<_>>());
            assert_eq!(order.nth(&board, moves, moves.len() as u8, last_to), None);
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let mv = moves[(s % moves.len() as u64) as usize];
            order.played(&board, mv);
            last_to = Some(mv.to().index() as u8);
            board.play(mv);
        }
        let list = board.legal_moves();
        assert_eq!(order.rank(&board, list.as_slice(), Move::NULL, None), None);
    }

    #[test]
    fn a_free_capture_comes_first_and_a_hanging_move_scores_below_zero() {
        // White's queen, attacked by the rook on d5, can take it for free.
        let board = Board::from_fen("4k3/8/8/3r4/8/8/8/3QK3 w - - 0 1", false).unwrap();
        let order = MoveOrder::default();
        let find = |uci: &str| board.parse_uci(uci).unwrap();
        let take = find("d1d5");
        assert_eq!(material(&board, take), 50 + 3);
        let list = board.legal_moves();
        assert_eq!(order.rank(&board, list.as_slice(), take, None), Some(0));
        // Qd1-d4 stays on the rook's file, undefended: the queen hangs.
        assert_eq!(material(&board, find("d1d4")), -90 + 3);
        // The king's move is worth nothing.
        assert_eq!(material(&board, find("e1f1")), 0);
    }
}
