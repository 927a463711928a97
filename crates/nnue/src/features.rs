//! The network's inputs: 768 binary features per perspective, one per (piece, square).
//!
//! From a perspective (the colour whose accumulator it is), pieces are numbered 0–5 for its own
//! pawn..king and 6–11 for the other side's, and squares are seen from that side: White's
//! squares as they are, Black's mirrored vertically (`sq ^ 56`). So a position and its colour-
//! swapped mirror light the same features, which is what makes the evaluation symmetric.
//!
//! **King-side mirroring** (a network's [`Layout::KingMirror`]): from a perspective whose own
//! king stands on files e–h, every square is also mirrored left to right (file a ↔ file h,
//! `sq ^ 7`), so the network only ever sees that side's king on files a–d and each weight
//! learns from twice the positions. An accumulator must be refreshed from scratch when its
//! king crosses between files d and e; every other move updates it incrementally as before.

use engram_chess::{Board, Color, Piece, PieceKind, Square};

/// Inputs per perspective: 2 colours × 6 kinds × 64 squares.
pub const INPUTS: usize = 768;

/// How a network maps squares to its inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Layout {
    /// Squares as they are (Black's mirrored vertically).
    #[default]
    Plain,
    /// Also mirrored left to right from a perspective whose king is on files e–h.
    KingMirror,
}

impl Layout {
    /// Its name: `plain` or `king-mirrored`.
    pub fn name(self) -> &'static str {
        match self {
            Layout::Plain => "plain",
            Layout::KingMirror => "king-mirrored",
        }
    }

    /// Its code in a network file's header (byte 22): 0 plain, 1 king-mirrored.
    pub fn code(self) -> u8 {
        match self {
            Layout::Plain => 0,
            Layout::KingMirror => 1,
        }
    }

    /// The layout of header code `code`, if there is one.
    pub fn from_code(code: u8) -> Option<Layout> {
        match code {
            0 => Some(Layout::Plain),
            1 => Some(Layout::KingMirror),
            _ => None,
        }
    }

    /// The XOR applied to every square's index from a perspective whose own king stands on
    /// `king`: 7 (file a ↔ file h) for [`Layout::KingMirror`] with the king on files e–h,
    /// else 0. Pass it to [`index`].
    #[inline(always)]
    pub fn flip(self, king: Square) -> usize {
        match self {
            Layout::Plain => 0,
            Layout::KingMirror => 7 * (king.index() & 4 != 0) as usize,
        }
    }

    /// [`Layout::flip`] for `perspective` on `board` (0 on a board without that king).
    #[inline]
    pub fn flip_on(self, board: &Board, perspective: Color) -> usize {
        if self == Layout::Plain {
            return 0;
        }
        board
            .colored(perspective, PieceKind::King)
            .into_iter()
            .next()
            .map_or(0, |king| self.flip(king))
    }
}

/// The feature index of `piece` on `sq` seen from `perspective`: `64 · piece + square`, with
/// the piece numbered from the perspective's side, the square mirrored vertically for Black
/// and its index XORed with `flip` (0, or 7 from [`Layout::flip`]).
#[inline(always)]
pub fn index(perspective: Color, piece: Piece, sq: Square, flip: usize) -> usize {
    let own = (piece.color() != perspective) as usize;
    let sq = if perspective == Color::White {
        sq.index()
    } else {
        sq.index() ^ 56
    };
    64 * (6 * own + piece.kind().index()) + (sq ^ flip)
}

/// The active features of `board` from `perspective` under `layout`, in square order.
pub fn active(
    board: &Board,
    perspective: Color,
    layout: Layout,
) -> impl Iterator<Item = usize> + '_ {
    let flip = layout.flip_on(board, perspective);
    board.occupied().into_iter().map(move |sq| {
        let piece = board.piece_on(sq).expect("an occupied square has a piece");
        index(perspective, piece, sq, flip)
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
        assert_eq!(index(Color::White, wp, Square::A1, 0), 0);
        assert_eq!(index(Color::White, bk, Square::H8, 0), 767);
        assert_eq!(index(Color::Black, bk, Square::H8, 0), 64 * 5 + 7);
        assert_eq!(index(Color::Black, wp, Square::A1, 0), 64 * 6 + 56);
        assert_eq!(index(Color::White, wp, Square::A1, 7), 7);
        assert_eq!(index(Color::Black, wp, Square::A1, 7), 64 * 6 + 63);
        let start = Board::startpos();
        for layout in [Layout::Plain, Layout::KingMirror] {
            let mut w: Vec<_> = active(&start, Color::White, layout).collect();
            let mut b: Vec<_> = active(&start, Color::Black, layout).collect();
            w.sort();
            b.sort();
            assert_eq!(w, b, "the start position looks the same from both sides");
            assert_eq!(w.len(), 32);
        }
    }

    #[test]
    fn king_mirror_flips_on_files_e_to_h() {
        assert_eq!(Layout::Plain.flip(Square::E1), 0);
        assert_eq!(Layout::KingMirror.flip(Square::D1), 0);
        assert_eq!(Layout::KingMirror.flip(Square::E1), 7);
        assert_eq!(Layout::KingMirror.flip(Square::H8), 7);
        assert_eq!(Layout::KingMirror.flip(Square::from_index(56)), 0);
        // The start position's kings are on e1 and e8: both perspectives flip, so the
        // features are the plain ones mirrored.
        let start = Board::startpos();
        let plain: Vec<_> = active(&start, Color::White, Layout::Plain).collect();
        let mirrored: Vec<_> = active(&start, Color::White, Layout::KingMirror).collect();
        let flipped: Vec<_> = plain.iter().map(|f| f ^ 7).collect();
        assert_eq!(mirrored, flipped);
    }
}
