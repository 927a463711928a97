//! Attack tables: leapers (knight, king, pawn), lines between squares, and sliding attacks
//! by "fancy" magic bitboards. Every table is built at compile time by `const fn`, so the hot
//! path is a plain array lookup with no initialisation check.

use crate::bitboard::Bitboard;
use crate::types::{Color, PieceKind, Square};

/// Magic multipliers, found once by a randomised search (fixed shift `64 - mask bits`).
const ROOK_MAGICS: [u64; 64] = [
    0x0080008040002018,
    0x0040100040002001,
    0x09000d0010200040,
    0x8080080010008004,
    0xa280080002340080,
    0x2500050024000208,
    0x0280010000800200,
    0x1100144380220100,
    0xa92080048c204002,
    0x0802804003200080,
    0x0108802000100089,
    0x8060800800801002,
    0xa002000822000410,
    0x950a001002000824,
    0x1202000408010200,
    0x02950008408a0100,
    0x40a0a18000814000,
    0x0080848020004011,
    0x0800828010002000,
    0x0500420010200a00,
    0x0008818004000802,
    0x0000808004000200,
    0x0000040001020810,
    0x0081120000442081,
    0x0522400180002090,
    0x2800200040401000,
    0x402004a180100481,
    0x0880420200200810,
    0x000a040080800800,
    0x080a000404001020,
    0x0000010400820810,
    0x4000d08200004c09,
    0x0100804000800020,
    0xcc01028026004200,
    0x0081002001004010,
    0x0000800800801000,
    0x0009800401802800,
    0x0002000902000410,
    0x0000180144001022,
    0x00008100c6002884,
    0x1200800040008024,
    0x2000200050044000,
    0x0090882200420010,
    0x6a1810200a020040,
    0x0480040008008080,
    0x0206001108160014,
    0xc010040200010100,
    0x000001018046000c,
    0x00b0400880042080,
    0x0040002010080220,
    0x0020004228110100,
    0x0150000804004140,
    0x0028008004000980,
    0x0801000804000300,
    0x2c80210208900400,
    0x0000040130408200,
    0x4001409100258001,
    0x0005004002883021,
    0x019041e003001019,
    0x8000200900041001,
    0x4021001002040801,
    0x0011000400080201,
    0x1600010210408804,
    0x2010810084003042,
];
const BISHOP_MAGICS: [u64; 64] = [
    0x0032482800818200,
    0x0819022820450000,
    0x4242108204880008,
    0x8044404080410224,
    0x1407104000080100,
    0x1b01100210004000,
    0x0b0c0888841010c1,
    0x08a0108201104020,
    0x00003888654c0410,
    0x0010220202520a00,
    0x4003048400820001,
    0x1007022082000002,
    0x3c22040420040a18,
    0x3440508820080030,
    0x1204208090082100,
    0x0000930501012000,
    0x0010842002d00100,
    0x0202000404484208,
    0x0008000100410602,
    0x0088000404200800,
    0xa004100202020232,
    0x0004200100a01002,
    0x0201000208020200,
    0x2022010022020200,
    0x80100410100410b0,
    0x3010704848011100,
    0x2000380010048320,
    0x8068080000202120,
    0x0001010080104000,
    0x4808004120806000,
    0x5000821000823008,
    0x0004010000504224,
    0x0088044010040808,
    0x0812022000032814,
    0xa000280800110202,
    0x2882200802010105,
    0x0508082400024100,
    0x8001010200030800,
    0x4001260e00019820,
    0x0c02040308507180,
    0x0880884441009000,
    0x20a84202a0011000,
    0x00010410820c1000,
    0x4000002018000108,
    0x0080091124004a00,
    0x0409010302010700,
    0x0088128802040040,
    0x1801010408801100,
    0x0184010190110800,
    0x0000404208210000,
    0x0000120908880000,
    0x9006180020884020,
    0x900000400488410a,
    0x0410218401020100,
    0x0004d00428008100,
    0x0002021404008400,
    0x0911410150222026,
    0x0300202088041040,
    0x0100a06124122800,
    0x001c042000420200,
    0x0004018208030400,
    0x0044040405080200,
    0x040820200402b680,
    0x0204200411020410,
];

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

const fn on_board(f: i8, r: i8) -> bool {
    f >= 0 && f < 8 && r >= 0 && r < 8
}

/// Slow ray walk used to build the tables: attacks from `sq` along `dirs`, stopping at blockers.
/// With `edge` false, the last square of each ray is left out (the relevant-occupancy mask).
const fn ray_attacks(sq: usize, occ: u64, dirs: &[(i8, i8); 4], edge: bool) -> u64 {
    let mut attacks = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut f = (sq % 8) as i8 + df;
        let mut r = (sq / 8) as i8 + dr;
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            if !edge && !on_board(f + df, r + dr) {
                break;
            }
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occ & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    attacks
}

/// One square's magic lookup parameters.
#[derive(Clone, Copy)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

impl Magic {
    #[inline(always)]
    const fn index(&self, occ: u64) -> usize {
        self.offset as usize + ((occ & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

const ROOK_TABLE_SIZE: usize = 102_400;
const BISHOP_TABLE_SIZE: usize = 5_248;
const SLIDER_TABLE_SIZE: usize = ROOK_TABLE_SIZE + BISHOP_TABLE_SIZE;

const fn build_magics(dirs: &[(i8, i8); 4], magics: &[u64; 64], start: u32) -> [Magic; 64] {
    let mut out = [Magic {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut offset = start;
    let mut sq = 0;
    while sq < 64 {
        let mask = ray_attacks(sq, 0, dirs, false);
        let bits = mask.count_ones();
        out[sq] = Magic {
            mask,
            magic: magics[sq],
            shift: 64 - bits,
            offset,
        };
        offset += 1 << bits;
        sq += 1;
    }
    out
}

const fn fill_table(
    table: &mut [u64; SLIDER_TABLE_SIZE],
    magics: &[Magic; 64],
    dirs: &[(i8, i8); 4],
) {
    let mut sq = 0;
    while sq < 64 {
        let m = magics[sq];
        // Enumerate every subset of the mask (carry-rippler).
        let mut sub = 0u64;
        loop {
            table[m.index(sub)] = ray_attacks(sq, sub, dirs, true);
            sub = sub.wrapping_sub(m.mask) & m.mask;
            if sub == 0 {
                break;
            }
        }
        sq += 1;
    }
}

const ROOK_MAGIC: [Magic; 64] = build_magics(&ROOK_DIRS, &ROOK_MAGICS, 0);
const BISHOP_MAGIC: [Magic; 64] =
    build_magics(&BISHOP_DIRS, &BISHOP_MAGICS, ROOK_TABLE_SIZE as u32);

static SLIDER_TABLE: [u64; SLIDER_TABLE_SIZE] = {
    let mut table = [0u64; SLIDER_TABLE_SIZE];
    fill_table(&mut table, &ROOK_MAGIC, &ROOK_DIRS);
    fill_table(&mut table, &BISHOP_MAGIC, &BISHOP_DIRS);
    table
};

const fn leaper_table(steps: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < steps.len() {
            let f = (sq % 8) as i8 + steps[i].0;
            let r = (sq / 8) as i8 + steps[i].1;
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                table[sq] |= 1 << (r * 8 + f);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u64; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[u64; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

/// `(between, line)` for every pair of squares: the squares strictly between two aligned
/// squares, and the whole line through them (both empty when not aligned).
const fn line_tables() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let dirs: [(i8, i8); 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = dirs[d];
            // The full line through `a` in this direction (both ways).
            let mut full = 1u64 << a;
            let mut sign = 0;
            while sign < 2 {
                let (sf, sr) = if sign == 0 { (df, dr) } else { (-df, -dr) };
                let mut f = (a % 8) as i8 + sf;
                let mut r = (a / 8) as i8 + sr;
                while f >= 0 && f < 8 && r >= 0 && r < 8 {
                    full |= 1 << (r * 8 + f);
                    f += sf;
                    r += sr;
                }
                sign += 1;
            }
            let mut f = (a % 8) as i8 + df;
            let mut r = (a / 8) as i8 + dr;
            let mut path = 0u64;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                let b = (r * 8 + f) as usize;
                between[a][b] = path;
                line[a][b] = full;
                path |= 1 << b;
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static LINES: ([[u64; 64]; 64], [[u64; 64]; 64]) = line_tables();

/// Squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks (captures diagonally forward).
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// Squares a rook on `sq` attacks given the occupied squares `occ`.
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(SLIDER_TABLE[ROOK_MAGIC[sq.index()].index(occ.0)])
}

/// Squares a bishop on `sq` attacks given the occupied squares `occ`.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(SLIDER_TABLE[BISHOP_MAGIC[sq.index()].index(occ.0)])
}

/// Squares a queen on `sq` attacks given the occupied squares `occ`.
#[inline(always)]
pub fn queen_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attacks(sq, occ) | bishop_attacks(sq, occ)
}

/// Rook attacks on an empty board.
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    rook_attacks(sq, Bitboard::EMPTY)
}

/// Bishop attacks on an empty board.
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    bishop_attacks(sq, Bitboard::EMPTY)
}

/// The squares a piece of `kind` on `sq` attacks with `occ` occupied (none for a pawn, whose
/// attacks depend on its colour: [`pawn_attacks`]).
#[inline(always)]
pub fn piece_attacks(kind: PieceKind, sq: Square, occ: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Knight => knight_attacks(sq),
        PieceKind::Bishop => bishop_attacks(sq, occ),
        PieceKind::Rook => rook_attacks(sq, occ),
        PieceKind::Queen => queen_attacks(sq, occ),
        PieceKind::King => king_attacks(sq),
        PieceKind::Pawn => Bitboard::EMPTY,
    }
}

/// The squares strictly between `a` and `b` if they share a rank, file or diagonal; else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.0[a.index()][b.index()])
}

/// The whole line (edge to edge) through `a` and `b` if they are aligned; else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.1[a.index()][b.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sliders_match_ray_walk() {
        // A fixed pseudo-random sequence of occupancies, checked against the slow walk.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = x & x.rotate_left(17);
            for sq in 0..64 {
                let s = Square::from_index(sq as u8);
                assert_eq!(
                    rook_attacks(s, Bitboard(occ)).0,
                    ray_attacks(sq, occ, &ROOK_DIRS, true)
                );
                assert_eq!(
                    bishop_attacks(s, Bitboard(occ)).0,
                    ray_attacks(sq, occ, &BISHOP_DIRS, true)
                );
            }
        }
    }

    #[test]
    fn lines() {
        let a1 = Square::A1;
        let h8 = Square::H8;
        assert_eq!(between(a1, h8).len(), 6);
        assert_eq!(line(a1, h8).len(), 8);
        assert!(between(Square::A1, Square::B1).is_empty());
        assert!(line(Square::A1, Square::parse("b3").unwrap()).is_empty());
        assert_eq!(knight_attacks(a1).len(), 2);
        assert_eq!(king_attacks(Square::E1).len(), 5);
        assert_eq!(pawn_attacks(Color::White, Square::E1).len(), 2);
        assert_eq!(
            pawn_attacks(Color::Black, Square::parse("a7").unwrap()).len(),
            1
        );
    }
}
