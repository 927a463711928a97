//! The network's inputs: 768 binary features per perspective, one per (piece, square).
//!
//! From a perspective (the colour whose accumulator it is), pieces are numbered 0–5 for its own
//! pawn..king and 6–11 for the other side's, and squares are seen from that side: White's
//! squares as they are, Black's mirrored vertically (`sq ^ 56`). So a position and its colour-
//! swapped mirror light the same features, which is what makes the evaluation symmetric.

use engram_chess::{Board, Color, Piece, Square};

/// Inputs per perspective: 2 colours × 6 kinds × 64 squares.
pub const INPUTS: usize = 768;

/// The feature index of `piece` on `sq` seen from `perspective`: `64 · piece + square`, with
/// the piece numbered from the perspective's side and the square mirrored for Black.
#[inline(always)]
pub fn index(perspective: Color, piece: Piece, sq: Square) -> usize {
    let own = (piece.color() != perspective) as usize;
    let sq = if perspective == Color::White {
        sq.index()
    } else {
        sq.index() ^ 56
    };
    64 * (6 * own + piece.kind().index()) + sq
}

/// The active features of `board` from `perspective`, in square order.
pub fn active(board: &Board, perspective: Color) -> impl Iterator<Item = usize> + '_ {
    board.occupied().into_iter().map(move |sq| {
        let piece = board.piece_on(sq).expect("an occupied square has a piece");
        index(perspective, piece, sq)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use engram_chess::PieceKind;

    #[test]
    fn indices() {
        let wp = Piece::new(Color::White, PieceKind::Pawn);
        let bk = Piece::new(Color::Black, PieceKind::King);
        assert_eq!(index(Color::White, wp, Square::A1), 0);
        assert_eq!(index(Color::White, bk, Square::H8), 767);
        assert_eq!(index(Color::Black, bk, Square::H8), 64 * 5 + 7);
        assert_eq!(index(Color::Black, wp, Square::A1), 64 * 6 + 56);
        let start = Board::startpos();
        let mut w: Vec<_> = active(&start, Color::White).collect();
        let mut b: Vec<_> = active(&start, Color::Black).collect();
        w.sort();
        b.sort();
        assert_eq!(w, b, "the start position looks the same from both sides");
        assert_eq!(w.len(), 32);
    }
}
