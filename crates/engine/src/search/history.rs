//! Move-ordering statistics: killers, counter moves, butterfly (quiet) history, pawn-structure
//! history, capture history and continuation history, all updated with "gravity" (a bonus
//! shrinks as the value approaches its bound, so old information fades).

use super::params;
use engram_chess::{Board, Color, Move, Piece, Square};

/// History values stay within ±`HISTORY_MAX`.
pub const HISTORY_MAX: i32 = 16_384;

/// A piece-to index for continuation history: (piece index 0..12, to-square).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceTo(pub u16);

impl PieceTo {
    /// The index of `piece` moving to `to`.
    pub fn new(piece: Piece, to: Square) -> PieceTo {
        PieceTo((piece.index() * 64 + to.index()) as u16)
    }
    /// A placeholder for "no move" (null move, root).
    pub const NONE: PieceTo = PieceTo(12 * 64);
}

const PT: usize = 12 * 64 + 1;

/// Entries of the pawn-structure history (a power of two: indexed by the pawn key's low bits).
pub const PAWN_ENTRIES: usize = 512;

/// All history tables of one search thread.
pub struct History {
    /// Quiet moves by side, from and to.
    pub butterfly: Box<[[[i16; 64]; 64]; 2]>,
    /// Captures by moving piece-to and captured kind.
    pub capture: Box<[[i16; 6]; PT]>,
    /// Continuation history: previous piece-to → current piece-to.
    pub continuation: Vec<[i16; PT]>,
    /// Quiet moves by piece-to under a pawn structure (the pawn key's low bits), as
    /// Stockfish 16 has it: which moves work with these pawns.
    pub pawn: Vec<[i16; PT]>,
    /// The reply that refuted the previous move, by previous piece-to.
    pub counter: Box<[Move; PT]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            capture: Box::new([[0; 6]; PT]),
            continuation: vec![[0; PT]; PT],
            pawn: vec![[0; PT]; PAWN_ENTRIES],
            counter: Box::new([Move::NULL; PT]),
        }
    }
}

/// Applies a gravity-scaled bonus to one history value.
#[inline]
pub fn update(value: &mut i16, bonus: i32) {
    let v = *value as i32;
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *value = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
}

/// The history bonus for a move that caused a cutoff at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (depth * params::hist_bonus_mul() - params::hist_bonus_sub()).clamp(0, params::hist_bonus_max())
}

impl History {
    /// Forgets everything (for `ucinewgame`).
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// The butterfly score of a quiet move.
    #[inline]
    pub fn quiet(&self, side: Color, mv: Move) -> i32 {
        self.butterfly[side.index()][mv.from().index()][mv.to().index()] as i32
    }

    /// The continuation score of `cur` after `prev`.
    #[inline]
    pub fn cont(&self, prev: PieceTo, cur: PieceTo) -> i32 {
        self.continuation[prev.0 as usize][cur.0 as usize] as i32
    }

    /// Mutable access to a continuation value.
    #[inline]
    pub fn cont_mut(&mut self, prev: PieceTo, cur: PieceTo) -> &mut i16 {
        &mut self.continuation[prev.0 as usize][cur.0 as usize]
    }

    /// The pawn-structure score of the quiet move `cur` on `board`.
    #[inline]
    pub fn pawn(&self, board: &Board, cur: PieceTo) -> i32 {
        self.pawn[pawn_index(board)][cur.0 as usize] as i32
    }

    /// Mutable access to a pawn-structure value.
    #[inline]
    pub fn pawn_mut(&mut self, board: &Board, cur: PieceTo) -> &mut i16 {
        &mut self.pawn[pawn_index(board)][cur.0 as usize]
    }

    /// The capture-history score of a capture.
    #[inline]
    pub fn capture_score(&self, board: &Board, mv: Move) -> i32 {
        let (pt, victim) = capture_index(board, mv);
        self.capture[pt.0 as usize][victim] as i32
    }

    /// Mutable access to a capture-history value.
    #[inline]
    pub fn capture_mut(&mut self, board: &Board, mv: Move) -> &mut i16 {
        let (pt, victim) = capture_index(board, mv);
        &mut self.capture[pt.0 as usize][victim]
    }
}

/// The pawn-structure history's row for `board`: its pawn key's low bits.
#[inline]
fn pawn_index(board: &Board) -> usize {
    board.pawn_key() as usize % PAWN_ENTRIES
}

fn capture_index(board: &Board, mv: Move) -> (PieceTo, usize) {
    let piece = board.piece_on(mv.from());
    let pt = piece.map_or(PieceTo::NONE, |p| PieceTo::new(p, mv.to()));
    let victim = if mv.is_en_passant() {
        0
    } else {
        board.piece_on(mv.to()).map_or(0, |p| p.kind().index())
    };
    (pt, victim)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pawn-structure history is shared by positions with the same pawns (whatever the
    /// pieces do) and kept apart for other pawn structures.
    #[test]
    fn pawn_history_follows_the_pawn_structure() {
        let start = Board::from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            false,
        )
        .unwrap();
        let knight_out = Board::from_fen(
            "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2 2",
            false,
        )
        .unwrap();
        let e4 = Board::from_fen(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            false,
        )
        .unwrap();
        assert_eq!(start.pawn_key(), knight_out.pawn_key());
        assert_ne!(pawn_index(&start), pawn_index(&e4));
        let mv = start.parse_uci("g1f3").unwrap();
        let pt = PieceTo::new(start.piece_on(mv.from()).unwrap(), mv.to());
        let mut history = History::default();
        update(history.pawn_mut(&start, pt), 400);
        assert!(history.pawn(&start, pt) > 0);
        assert_eq!(history.pawn(&knight_out, pt), history.pawn(&start, pt));
        assert_eq!(history.pawn(&e4, pt), 0);
        update(history.pawn_mut(&e4, pt), -400);
        assert!(history.pawn(&e4, pt) < 0);
        assert!(history.pawn(&start, pt) > 0);
    }
}
