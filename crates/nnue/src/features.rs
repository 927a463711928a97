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
//!
//! **King buckets** (a network's [`Layout::KingBuckets4`]): king-side mirroring, and four
//! sets of the 768 inputs, one per region of the perspective's own king (seen from its side,
//! after the mirroring): on its first rank on files a–b (castled), on its first rank on files
//! c–d (at home, or castled long), on its second rank, or further up. So the same piece on
//! the same square can weigh differently behind a castled king and beside a wandering one.
//! An accumulator is refreshed when its king changes region or mirror side.
//!
//! Both are carried by one number per perspective, the **view** ([`Layout::view`]): its low
//! three bits are the XOR applied to square indices (0, or 7 to mirror files), the bits
//! above them the king's bucket. [`index`] applies it; two boards whose views of a
//! perspective are equal light that perspective's inputs the same way for the same pieces,
//! so an accumulator can be updated incrementally between them.

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
    /// King-mirrored, with four sets of inputs chosen by the region of the perspective's own
    /// king ([`king_bucket`]): `4 · 768` inputs per perspective.
    KingBuckets4,
}

/// King buckets of [`Layout::KingBuckets4`].
pub const KING_BUCKETS: usize = 4;

/// The bucket of a king on `sq`, a square seen from its own side (rank 0 its first rank) and
/// already mirrored to files a–d: 0 on the first rank on files a–b, 1 on the first rank on
/// files c–d, 2 on the second rank, 3 further up.
#[inline(always)]
pub fn king_bucket(sq: usize) -> usize {
    match (sq / 8, sq % 8) {
        (0, 0..=1) => 0,
        (0, _) => 1,
        (1, _) => 2,
        _ => 3,
    }
}

impl Layout {
    /// Its name: `plain`, `king-mirrored` or `king-buckets-4`.
    pub fn name(self) -> &'static str {
        match self {
            Layout::Plain => "plain",
            Layout::KingMirror => "king-mirrored",
            Layout::KingBuckets4 => "king-buckets-4",
        }
    }

    /// Its code in a network file's header (byte 22): 0 plain, 1 king-mirrored, 2 king
    /// buckets.
    pub fn code(self) -> u8 {
        match self {
            Layout::Plain => 0,
            Layout::KingMirror => 1,
            Layout::KingBuckets4 => 2,
        }
    }

    /// The layout of header code `code`, if there is one.
    pub fn from_code(code: u8) -> Option<Layout> {
        match code {
            0 => Some(Layout::Plain),
            1 => Some(Layout::KingMirror),
            2 => Some(Layout::KingBuckets4),
            _ => None,
        }
    }

    /// Sets of 768 inputs: [`KING_BUCKETS`] for [`Layout::KingBuckets4`], else 1.
    pub fn buckets(self) -> usize {
        match self {
            Layout::KingBuckets4 => KING_BUCKETS,
            _ => 1,
        }
    }

    /// Inputs per perspective: `768 ·` [`Layout::buckets`].
    pub fn inputs(self) -> usize {
        INPUTS * self.buckets()
    }

    /// The view of `perspective` whose own king stands on `king`: the XOR applied to every
    /// square's index (7, file a ↔ file h, for a mirroring layout with the king on files
    /// e–h, else 0) plus 8 · the king's bucket. Pass it to [`index`].
    #[inline(always)]
    pub fn view(self, perspective: Color, king: Square) -> usize {
        let flip = 7 * (king.index() & 4 != 0) as usize;
        match self {
            Layout::Plain => 0,
            Layout::KingMirror => flip,
            Layout::KingBuckets4 => {
                let own = if perspective == Color::White { 0 } else { 56 };
                flip | king_bucket(king.index() ^ own ^ flip) << 3
            }
        }
    }

    /// [`Layout::view`] for `perspective` on `board` (0 on a board without that king).
    #[inline]
    pub fn view_on(self, board: &Board, perspective: Color) -> usize {
        if self == Layout::Plain {
            return 0;
        }
        board
            .colored(perspective, PieceKind::King)
            .into_iter()
            .next()
            .map_or(0, |king| self.view(perspective, king))
    }
}

/// The feature index of `piece` on `sq` seen from `perspective` with `view` (from
/// [`Layout::view`]): `768 · bucket + 64 · piece + square`, with the piece numbered from the
/// perspective's side, the square mirrored vertically for Black and its index XORed with the
/// view's low three bits, the bucket the view's bits above them.
#[inline(always)]
pub fn index(perspective: Color, piece: Piece, sq: Square, view: usize) -> usize {
    let own = (piece.color() != perspective) as usize;
    let sq = if perspective == Color::White {
        sq.index()
    } else {
        sq.index() ^ 56
    };
    INPUTS * (view >> 3) + 64 * (6 * own + piece.kind().index()) + (sq ^ (view & 7))
}

/// The active features of `board` from `perspective` under `layout`, in square order.
pub fn active(
    board: &Board,
    perspective: Color,
    layout: Layout,
) -> impl Iterator<Item = usize> + '_ {
    let view = layout.view_on(board, perspective);
    board.occupied().into_iter().map(move |sq| {
        let piece = board.piece_on(sq).expect("an occupied square has a piece");
        index(perspective, piece, sq, view)
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
        for layout in [Layout::Plain, Layout::KingMirror, Layout::KingBuckets4] {
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
        let w = Color::White;
        assert_eq!(Layout::Plain.view(w, Square::E1), 0);
        assert_eq!(Layout::KingMirror.view(w, Square::D1), 0);
        assert_eq!(Layout::KingMirror.view(w, Square::E1), 7);
        assert_eq!(Layout::KingMirror.view(Color::Black, Square::H8), 7);
        assert_eq!(Layout::KingMirror.view(w, Square::from_index(56)), 0);
        // The start position's kings are on e1 and e8: both perspectives flip, so the
        // features are the plain ones mirrored.
        let start = Board::startpos();
        let plain: Vec<_> = active(&start, Color::White, Layout::Plain).collect();
        let mirrored: Vec<_> = active(&start, Color::White, Layout::KingMirror).collect();
        let flipped: Vec<_> = plain.iter().map(|f| f ^ 7).collect();
        assert_eq!(mirrored, flipped);
    }

    #[test]
    fn king_buckets_by_region_from_each_side() {
        let kb = Layout::KingBuckets4;
        let (w, b) = (Color::White, Color::Black);
        // Castled short (g1 mirrors to b1) or on a1/b1: bucket 0; the same for Black on g8.
        assert_eq!(kb.view(w, Square::G1), 7);
        assert_eq!(kb.view(w, Square::B1), 0);
        assert_eq!(kb.view(b, Square::from_index(62)), 7);
        // At home on e1 (mirrored to d1) or castled long on c1: bucket 1.
        assert_eq!(kb.view(w, Square::E1), 7 | 1 << 3);
        assert_eq!(kb.view(w, Square::C1), 1 << 3);
        assert_eq!(kb.view(b, Square::from_index(60)), 7 | 1 << 3);
        // Second rank: bucket 2; further up: bucket 3 (a White king on e8 is far from home).
        assert_eq!(kb.view(w, Square::from_index(9)), 2 << 3);
        assert_eq!(kb.view(b, Square::from_index(49)), 2 << 3);
        assert_eq!(kb.view(w, Square::from_index(60)), 7 | 3 << 3);
        assert_eq!(kb.view(b, Square::E1), 7 | 3 << 3);
        // The index puts each bucket's inputs in a block of its own.
        let wp = Piece::new(Color::White, PieceKind::Pawn);
        assert_eq!(index(w, wp, Square::A1, 3 << 3), 3 * INPUTS);
        assert_eq!(index(w, wp, Square::A1, 7 | 3 << 3), 3 * INPUTS + 7);
        assert_eq!(kb.inputs(), 4 * INPUTS);
        let start = Board::startpos();
        assert!(active(&start, w, kb).all(|f| (INPUTS..2 * INPUTS).contains(&f)));
    }
}
