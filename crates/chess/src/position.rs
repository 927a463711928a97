//! `Position`: a board plus the game history behind it — the stack of earlier boards for
//! unmake (copy-make), the moves played, and the key history for repetition detection.

use crate::board::Board;
use crate::chess_move::Move;

/// A game in progress: the current board, with make/unmake and draw detection.
#[derive(Clone, Debug)]
pub struct Position {
    boards: Vec<Board>,
    moves: Vec<Move>,
}

impl Position {
    /// A position with no history before `board`.
    pub fn new(board: Board) -> Position {
        let mut boards = Vec::with_capacity(256);
        boards.push(board);
        Position {
            boards,
            moves: Vec::with_capacity(256),
        }
    }

    /// The current board.
    #[inline]
    pub fn board(&self) -> &Board {
        self.boards.last().expect("a position always has a board")
    }

    /// Every board of the history, the first position first and the current one last:
    /// `boards()[i]` is the board after `moves()[..i]` (so `boards().len() == ply() + 1`).
    /// Per-ply caches such as NNUE accumulators can be indexed like it.
    #[inline]
    pub fn boards(&self) -> &[Board] {
        &self.boards
    }

    /// The number of moves (including null moves) played since the start.
    #[inline]
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The moves played since the start (null moves as [`Move::NULL`]).
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays a legal move.
    #[inline]
    pub fn make(&mut self, mv: Move) {
        // Copied once, into its slot, and played there.
        self.boards.push(*self.board());
        self.boards.last_mut().expect("just pushed").play(mv);
        self.moves.push(mv);
    }

    /// Passes the turn (not allowed in check).
    #[inline]
    pub fn make_null(&mut self) {
        self.boards.push(*self.board());
        self.boards.last_mut().expect("just pushed").play_null();
        self.moves.push(Move::NULL);
    }

    /// Takes back the last move or null move. Does nothing at the start of the history.
    #[inline]
    pub fn unmake(&mut self) {
        if self.boards.len() > 1 {
            self.boards.pop();
            self.moves.pop();
        }
    }

    /// A copy with only the reversible part of the history (since the last capture or pawn
    /// move, as far as it goes back): everything repetition detection needs here and after
    /// any further moves, in a few kilobytes whatever the length of the game.
    ///
    /// ```
    /// use engram_chess::{Board, Position};
    /// let mut pos = Position::new(Board::startpos());
    /// for m in ["e2e4", "g8f6", "g1f3", "f6g8", "f3g1"] {
    ///     let mv = pos.board().parse_uci(m).unwrap();
    ///     pos.make(mv);
    /// }
    /// let tail = pos.reversible_tail();
    /// assert_eq!(tail.ply(), 4);
    /// assert_eq!(tail.board(), pos.board());
    /// ```
    pub fn reversible_tail(&self) -> Position {
        let n = self.boards.len() - 1;
        let from = n - (self.board().halfmove_clock() as usize).min(n);
        let mut boards = Vec::with_capacity(n - from + 64);
        boards.extend_from_slice(&self.boards[from..]);
        let mut moves = Vec::with_capacity(n - from + 64);
        moves.extend_from_slice(&self.moves[from..]);
        Position { boards, moves }
    }

    /// How many earlier positions in the reversible part of the history (since the last capture,
    /// pawn move or null move) have the same key as the current one. Only positions with the
    /// same side to move are compared.
    pub fn repetitions(&self) -> usize {
        let current = self.board();
        let n = self.boards.len() - 1;
        let window = (current.halfmove_clock() as usize).min(n);
        let mut count = 0;
        let mut back = 2;
        while back <= window {
            let idx = n - back;
            if self.moves[idx].is_null() || self.moves[idx + 1].is_null() {
                break;
            }
            if self.boards[idx].key() == current.key() {
                count += 1;
            }
            back += 2;
        }
        count
    }

    /// Whether the current position occurred before (one earlier occurrence is enough for a
    /// search to score it a draw).
    pub fn is_repetition(&self) -> bool {
        self.repetitions() >= 1
    }

    /// Whether the fifty-move rule ends the game: 100 half-moves without capture or pawn move,
    /// unless the side to move is checkmated.
    pub fn is_fifty_move_draw(&self) -> bool {
        let b = self.board();
        b.halfmove_clock() >= 100 && !b.is_checkmate()
    }

    /// Whether the game is drawn by rule here: threefold repetition, fifty moves, insufficient
    /// material or stalemate.
    pub fn is_draw_by_rule(&self) -> bool {
        let b = self.board();
        self.repetitions() >= 2
            || self.is_fifty_move_draw()
            || b.is_insufficient_material()
            || b.is_stalemate()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repetition_and_unmake() {
        let mut pos = Position::new(Board::startpos());
        let start = *pos.board();
        for _ in 0..2 {
            for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                let mv = pos.board().parse_uci(m).unwrap();
                pos.make(mv);
            }
        }
        assert_eq!(pos.repetitions(), 2);
        assert!(pos.is_draw_by_rule());
        for _ in 0..8 {
            pos.unmake();
        }
        assert_eq!(*pos.board(), start);
        assert_eq!(pos.repetitions(), 0);
        pos.make_null();
        assert_ne!(pos.board().key(), start.key());
        pos.make_null();
        assert_eq!(pos.board().key(), start.key());
        assert_eq!(pos.repetitions(), 0, "null moves cut the repetition window");
    }

    #[test]
    fn reversible_tail_keeps_repetitions() {
        let mut pos = Position::new(Board::startpos());
        for m in ["e2e4", "e7e5", "g1f3", "g8f6", "f3g1", "f6g8", "g1f3"] {
            let mv = pos.board().parse_uci(m).unwrap();
            pos.make(mv);
        }
        let mut tail = pos.reversible_tail();
        assert_eq!(tail.ply(), 5, "back to the last pawn move");
        assert_eq!(tail.board(), pos.board());
        assert_eq!(tail.repetitions(), pos.repetitions());
        for m in ["g8f6", "f3g1", "f6g8"] {
            let mv = tail.board().parse_uci(m).unwrap();
            tail.make(mv);
            pos.make(mv);
            assert_eq!(tail.repetitions(), pos.repetitions());
        }
        assert_eq!(
            tail.repetitions(),
            2,
            "after 1.e4 e5 and twice Nf3 Nf6 Ng1 Ng8"
        );
    }

    #[test]
    fn fifty_moves() {
        let pos =
            Position::new(Board::from_fen("4k3/8/8/8/8/8/8/4K2R w - - 100 80", false).unwrap());
        assert!(pos.is_fifty_move_draw());
        let mate =
            Position::new(Board::from_fen("R3k3/8/4K3/8/8/8/8/8 b - - 100 80", false).unwrap());
        assert!(!mate.is_fifty_move_draw());
    }
}
