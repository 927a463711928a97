//! Small value types: colours, files, ranks, squares and pieces.

use core::fmt;

/// A side: White or Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// The side that moves first.
    White = 0,
    /// The other side.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The opponent.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank this side's pieces start on (rank 1 for White, rank 8 for Black).
    #[inline]
    pub const fn back_rank(self) -> Rank {
        match self {
            Color::White => Rank::First,
            Color::Black => Rank::Eighth,
        }
    }

    /// `rank` seen from this side: rank 1 for White is rank 8 for Black.
    #[inline]
    pub const fn relative_rank(self, rank: Rank) -> Rank {
        match self {
            Color::White => rank,
            Color::Black => Rank::from_index(7 - rank as u8),
        }
    }

    /// The FEN letter (`w` or `b`).
    pub const fn to_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl core::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.flip()
    }
}

macro_rules! enum_index {
    ($name:ident, $doc:literal, [$($v:ident),*], $chars:literal) => {
        #[doc = $doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        #[allow(missing_docs)]
        pub enum $name { $($v),* }

        impl $name {
            /// All values in order.
            pub const ALL: [$name; 8] = [$($name::$v),*];

            /// The value with index `i` (0..8); `i` is taken modulo 8.
            #[inline]
            pub const fn from_index(i: u8) -> $name {
                Self::ALL[(i & 7) as usize]
            }

            /// The index 0..8.
            #[inline]
            pub const fn index(self) -> usize {
                self as usize
            }

            /// The letter or digit used in algebraic notation.
            #[inline]
            pub const fn to_char(self) -> char {
                $chars.as_bytes()[self as usize] as char
            }

            /// Parses the letter or digit used in algebraic notation.
            pub fn from_char(c: char) -> Option<$name> {
                $chars.find(c).map(|i| Self::ALL[i])
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.to_char())
            }
        }
    };
}

enum_index!(
    File,
    "A file (column), a to h.",
    [A, B, C, D, E, F, G, H],
    "abcdefgh"
);
enum_index!(
    Rank,
    "A rank (row), 1 to 8.",
    [First, Second, Third, Fourth, Fifth, Sixth, Seventh, Eighth],
    "12345678"
);

/// A square, numbered 0 (a1) to 63 (h8), rank by rank.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// a1.
    pub const A1: Square = Square(0);
    /// b1.
    pub const B1: Square = Square(1);
    /// c1.
    pub const C1: Square = Square(2);
    /// d1.
    pub const D1: Square = Square(3);
    /// e1.
    pub const E1: Square = Square(4);
    /// f1.
    pub const F1: Square = Square(5);
    /// g1.
    pub const G1: Square = Square(6);
    /// h1.
    pub const H1: Square = Square(7);
    /// e8.
    pub const E8: Square = Square(60);
    /// h8.
    pub const H8: Square = Square(63);

    /// The square with index `i`; `i` is taken modulo 64.
    #[inline]
    pub const fn from_index(i: u8) -> Square {
        Square(i & 63)
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(rank as u8 * 8 + file as u8)
    }

    /// The index 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file.
    #[inline]
    pub const fn file(self) -> File {
        File::from_index(self.0 & 7)
    }

    /// The rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::from_index(self.0 >> 3)
    }

    /// The square mirrored top to bottom (a1 <-> a8).
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square as seen from `color` (mirrored for Black).
    #[inline]
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_rank(),
        }
    }

    /// The square `delta` steps away in index terms, if on the board (no wrap check on files).
    #[inline]
    pub const fn offset(self, delta: i8) -> Option<Square> {
        let i = self.0 as i16 + delta as i16;
        if i >= 0 && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// Parses `e4`-style coordinates.
    pub fn parse(s: &str) -> Option<Square> {
        let mut chars = s.chars();
        let file = File::from_char(chars.next()?)?;
        let rank = Rank::from_char(chars.next()?)?;
        if chars.next().is_some() {
            return None;
        }
        Some(Square::new(file, rank))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), self.rank())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A kind of piece, without colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl PieceKind {
    /// All kinds, pawn first.
    pub const ALL: [PieceKind; 6] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
    ];

    /// The index 0..6.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with index `i` (0..6), if any.
    #[inline]
    pub const fn from_index(i: usize) -> Option<PieceKind> {
        if i < 6 {
            Some(Self::ALL[i])
        } else {
            None
        }
    }

    /// The lower-case letter (`p n b r q k`).
    pub const fn to_char(self) -> char {
        b"pnbrqk"[self as usize] as char
    }

    /// Parses a letter of either case.
    pub fn from_char(c: char) -> Option<PieceKind> {
        "pnbrqk"
            .find(c.to_ascii_lowercase())
            .map(|i| PieceKind::ALL[i])
    }
}

/// A piece: a colour and a kind, packed as `2 * kind + color`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece(u8);

impl Piece {
    /// The piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece((kind as u8) << 1 | color as u8)
    }

    /// The piece with index `i` (`2 * kind + color`); `i` must be below 12.
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(i: u8) -> Piece {
        Piece(i)
    }

    /// Its colour.
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Its kind.
    #[inline]
    pub const fn kind(self) -> PieceKind {
        PieceKind::ALL[(self.0 >> 1) as usize]
    }

    /// The index 0..12 (`2 * kind + color`).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The FEN letter: upper case for White.
    pub const fn to_char(self) -> char {
        let c = self.kind().to_char();
        match self.color() {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// Parses a FEN letter.
    pub fn from_char(c: char) -> Option<Piece> {
        let kind = PieceKind::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::new(sq.file(), sq.rank()), sq);
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("e9"), None);
        assert_eq!(Square::parse("e44"), None);
        assert_eq!(Square::parse(""), None);
    }

    #[test]
    fn piece_round_trip() {
        for c in "PNBRQKpnbrqk".chars() {
            assert_eq!(Piece::from_char(c).unwrap().to_char(), c);
        }
        assert!(Piece::from_char('x').is_none());
    }
}
