//! Castling rights for standard chess and Chess960: for each colour and side, the file of the
//! rook that may castle, if any.

use crate::types::{Color, File};

/// Which side to castle to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum CastleSide {
    /// Short castling, towards the h-file (O-O): king to g, rook to f.
    King = 0,
    /// Long castling, towards the a-file (O-O-O): king to c, rook to d.
    Queen = 1,
}

impl CastleSide {
    /// Both sides, king side first.
    pub const ALL: [CastleSide; 2] = [CastleSide::King, CastleSide::Queen];

    /// The side of a castling move by the king on `king` with the rook on `rook`.
    #[inline]
    pub fn of(king: crate::Square, rook: crate::Square) -> CastleSide {
        if rook.file() > king.file() {
            CastleSide::King
        } else {
            CastleSide::Queen
        }
    }

    /// The file the king ends on.
    pub const fn king_to(self) -> File {
        match self {
            CastleSide::King => File::G,
            CastleSide::Queen => File::C,
        }
    }

    /// The file the rook ends on.
    pub const fn rook_to(self) -> File {
        match self {
            CastleSide::King => File::F,
            CastleSide::Queen => File::D,
        }
    }
}

/// The castling rights of both colours: the rook file for each (colour, side), if it may castle.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CastlingRights([[u8; 2]; 2]);

const NONE: u8 = 0xff;

impl Default for CastlingRights {
    fn default() -> Self {
        CastlingRights::EMPTY
    }
}

impl CastlingRights {
    /// No rights at all.
    pub const EMPTY: CastlingRights = CastlingRights([[NONE; 2]; 2]);

    /// Standard chess at the start: rooks on a and h for both colours.
    pub const STANDARD: CastlingRights = CastlingRights([[File::H as u8, File::A as u8]; 2]);

    /// The castling rook's file for `color` on `side`, if that right exists.
    #[inline]
    pub const fn rook(self, color: Color, side: CastleSide) -> Option<File> {
        let f = self.0[color as usize][side as usize];
        if f == NONE {
            None
        } else {
            Some(File::from_index(f))
        }
    }

    /// Whether `color` may castle on `side`.
    #[inline]
    pub const fn has(self, color: Color, side: CastleSide) -> bool {
        self.0[color as usize][side as usize] != NONE
    }

    /// The four rook files (or "none") packed in one word: equal words, equal rights. Perft's
    /// table keys on it, because the Polyglot key records which rights exist but not which rook
    /// each one castles with (two rooks on one side of a Chess960 king).
    #[inline]
    pub(crate) const fn to_bits(self) -> u32 {
        u32::from_le_bytes([self.0[0][0], self.0[0][1], self.0[1][0], self.0[1][1]])
    }

    /// Whether any right is left.
    #[inline]
    pub fn any(self) -> bool {
        self != CastlingRights::EMPTY
    }

    /// Sets (`Some`) or removes (`None`) a right.
    #[inline]
    pub fn set(&mut self, color: Color, side: CastleSide, file: Option<File>) {
        self.0[color.index()][side as usize] = file.map_or(NONE, |f| f as u8);
    }

    /// Removes both rights of `color`.
    #[inline]
    pub fn clear(&mut self, color: Color) {
        self.0[color.index()] = [NONE; 2];
    }

    /// The rights that exist, as (colour, side, rook file).
    pub fn iter(self) -> impl Iterator<Item = (Color, CastleSide, File)> {
        Color::ALL.into_iter().flat_map(move |c| {
            CastleSide::ALL
                .into_iter()
                .filter_map(move |s| self.rook(c, s).map(|f| (c, s, f)))
        })
    }
}

impl core::fmt::Debug for CastlingRights {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
