//! Static exchange evaluation: does a capture sequence on one square win at least a threshold?

use engram_chess::attacks::{bishop_attacks, rook_attacks};
use engram_chess::{Bitboard, Board, Move, PieceKind};

/// Piece values for exchange purposes (king is "infinite").
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// The value a move captures immediately (en passant captures a pawn; promotions add the gain).
pub fn capture_value(board: &Board, mv: Move) -> i32 {
    if mv.is_castling() {
        return 0;
    }
    let mut v = if mv.is_en_passant() {
        SEE_VALUE[0]
    } else {
        board
            .piece_on(mv.to())
            .map_or(0, |p| SEE_VALUE[p.kind().index()])
    };
    if let Some(k) = mv.promotion_kind() {
        v += SEE_VALUE[k.index()] - SEE_VALUE[0];
    }
    v
}

/// Whether the exchange started by `mv` gains at least `threshold` for the side to move.
pub fn see_ge(board: &Board, mv: Move, threshold: i32) -> bool {
    if mv.is_castling() || mv.is_en_passant() || mv.is_promotion() {
        return 0 >= threshold;
    }
    let from = mv.from();
    let to = mv.to();
    let mut swap = board
        .piece_on(to)
        .map_or(0, |p| SEE_VALUE[p.kind().index()])
        - threshold;
    if swap < 0 {
        return false;
    }
    let mover = board.piece_on(from).map_or(PieceKind::Pawn, |p| p.kind());
    swap = SEE_VALUE[mover.index()] - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = board.occupied().without(from).without(to);
    let mut attackers = board.attackers_to(to, occ) & occ;
    let mut stm = board.side_to_move();
    let bishops = board.pieces(PieceKind::Bishop) | board.pieces(PieceKind::Queen);
    let rooks = board.pieces(PieceKind::Rook) | board.pieces(PieceKind::Queen);
    let mut result = true;
    loop {
        stm = !stm;
        attackers &= occ;
        let ours = attackers & board.color(stm);
        if ours.is_empty() {
            break;
        }
        result = !result;
        let mut kind = PieceKind::Pawn;
        let mut from_bb = Bitboard::EMPTY;
        for k in PieceKind::ALL {
            let bb = ours & board.pieces(k);
            if bb.any() {
                kind = k;
                from_bb = Bitboard::from_square(bb.lsb());
                break;
            }
        }
        if kind == PieceKind::King {
            // The king may only capture last, when the other side has nothing left.
            if (attackers & board.color(!stm)).any() {
                result = !result;
            }
            break;
        }
        swap = SEE_VALUE[kind.index()] - swap;
        if swap < result as i32 {
            break;
        }
        occ ^= from_bb;
        if matches!(kind, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Queen) {
            attackers |= bishop_attacks(to, occ) & bishops;
        }
        if matches!(kind, PieceKind::Rook | PieceKind::Queen) {
            attackers |= rook_attacks(to, occ) & rooks;
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, mv: &str, t: i32) -> bool {
        let b = Board::from_fen(fen, false).unwrap();
        see_ge(&b, b.parse_uci(mv).unwrap(), t)
    }

    #[test]
    fn exchanges() {
        // Pawn takes undefended knight.
        assert!(see("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 300));
        // Queen takes defended pawn: loses.
        assert!(!see("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", 0));
        // Rook takes rook defended by rook, with our second rook behind (x-ray): even.
        assert!(see("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7", 0));
        assert!(!see("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7", 1));
        // Knight takes pawn defended by pawn: loses 220.
        assert!(!see("4k3/8/2p5/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5", 0));
        assert!(see("4k3/8/2p5/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5", -250));
    }
}
