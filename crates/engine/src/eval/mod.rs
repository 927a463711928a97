//! Hand-crafted, tapered evaluation: material and piece-square tables (PeSTO), mobility, pawn
//! structure (cached in the pawn hash table), king safety, bishop pair, rooks on open files,
//! and simple endgame knowledge (drawish material, driving a lone king to the edge).
//!
//! Or the network (`nnue.rs`): [`Evaluator::evaluate`], which the search calls,
//! uses the NNUE when [`Evaluator::use_nnue`] is on, with the thread's lazily updated
//! accumulators; [`Evaluator::evaluate`] is the hand-crafted evaluation of one board.
//!
//! | file | holds |
//! |---|---|
//! | `mod.rs` | the hand-crafted evaluation and the [`Evaluator`] the search calls |
//! | `pawns.rs` | pawn structure and its hash table |
//! | `psqt.rs` | material and piece-square tables (PeSTO) |
//! | `nnue.rs` | the embedded network and the per-thread accumulator stack |

pub mod nnue;
pub mod pawns;
pub mod psqt;
pub mod wdl;

use engram_chess::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use engram_chess::{Bitboard, Board, Color, File, PieceKind, Position, Square};
use engram_nnue::Network;
use nnue::Accumulators;
pub use pawns::PawnTable;
use psqt::{psqt, PHASE, S};
use std::sync::Arc;

/// Mobility: (per square, baseline count) for knight, bishop, rook, queen.
const MOBILITY: [(S, i32); 4] = [(S(4, 4), 4), (S(4, 5), 6), (S(2, 4), 6), (S(1, 3), 12)];
/// King-attack weight per attacked king-zone square, by attacker kind (knight..queen).
const ATTACK_WEIGHT: [i32; 4] = [2, 2, 3, 5];
const BISHOP_PAIR: S = S(30, 50);
const ROOK_OPEN: S = S(25, 10);
const ROOK_SEMI_OPEN: S = S(12, 6);
const PASSED_FREE: S = S(5, 25);
const TEMPO: i32 = 10;

/// Largest NNUE evaluation, in centipawns: well inside the search's non-mate scores (and the
/// table's `i16`), whatever the network says.
pub const NNUE_LIMIT: i32 = 20_000;

/// The network's evaluation is scaled by `(MATERIAL_SCALE_BASE + material) /
/// MATERIAL_SCALE_ONE`, where `material` is [`scale_material`]: 1 with all the pieces of the
/// start position, 0.76 with kings and sixteen pawns, 0.72 with kings alone. Fewer pieces
/// leave an advantage harder to convert, and the search learns to keep pieces when ahead and
/// to trade them when behind.
const MATERIAL_SCALE_BASE: i32 = 26_500;
/// [`MATERIAL_SCALE_BASE`] plus the start position's [`scale_material`].
const MATERIAL_SCALE_ONE: i32 = MATERIAL_SCALE_BASE + 10_300;

/// Both sides' material for the evaluation's scaling: pawn 100, knight and bishop 450, rook
/// 650, queen 1,250 (10,300 in the start position).
pub fn scale_material(board: &Board) -> i32 {
    const WEIGHT: [(PieceKind, i32); 5] = [
        (PieceKind::Pawn, 100),
        (PieceKind::Knight, 450),
        (PieceKind::Bishop, 450),
        (PieceKind::Rook, 650),
        (PieceKind::Queen, 1_250),
    ];
    WEIGHT
        .iter()
        .map(|&(k, w)| w * board.pieces(k).len() as i32)
        .sum()
}

/// Everything the evaluation needs besides the position: the pawn hash table, and the
/// network with this thread's accumulators.
pub struct Evaluator {
    /// The pawn-structure cache.
    pub pawns: PawnTable,
    /// Evaluate with the network instead of the hand-crafted evaluation.
    pub use_nnue: bool,
    /// The network and its accumulator stack.
    nnue: Accumulators,
}

impl Default for Evaluator {
    fn default() -> Self {
        Evaluator {
            pawns: PawnTable::default(),
            use_nnue: false,
            nnue: Accumulators::new(nnue::default_net()),
        }
    }
}

/// The non-pawn material of `color` (middlegame values), used by search and scaling.
pub fn non_pawn_material(board: &Board, color: Color) -> i32 {
    [
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ]
    .iter()
    .map(|&k| psqt::MG_VALUE[k.index()] * board.colored(color, k).len() as i32)
    .sum()
}

fn center_distance(sq: Square) -> i32 {
    let f = sq.file().index() as i32;
    let r = sq.rank().index() as i32;
    (3 - f).max(f - 4) + (3 - r).max(r - 4)
}

fn king_distance(a: Square, b: Square) -> i32 {
    let df = (a.file().index() as i32 - b.file().index() as i32).abs();
    let dr = (a.rank().index() as i32 - b.rank().index() as i32).abs();
    df.max(dr)
}

impl Evaluator {
    /// Evaluates with `net`, or with the hand-crafted evaluation for `None` (how
    /// [`crate::search::SearchLimits::nnue`] reaches each search thread).
    pub fn configure(&mut self, net: Option<&Arc<Network>>) {
        self.use_nnue = net.is_some();
        if let Some(net) = net {
            self.nnue.set_network(net.clone());
        }
    }

    /// The network in use (when [`Evaluator::use_nnue`] is on).
    pub fn network(&self) -> &Arc<Network> {
        self.nnue.network()
    }

    /// Forgets the cached pawn structures and accumulators.
    pub fn clear(&mut self) {
        self.pawns.clear();
        self.nnue.clear();
    }

    /// The static evaluation of `pos`'s current board in centipawns, side to move's view:
    /// the network's, scaled by material and within ±[`NNUE_LIMIT`], if
    /// [`Evaluator::use_nnue`], else the hand-crafted one. Insufficient material is 0 either
    /// way.
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        if !self.use_nnue {
            return self.hand_crafted(pos.board());
        }
        let board = pos.board();
        if board.is_insufficient_material() {
            return 0;
        }
        let scale = MATERIAL_SCALE_BASE + scale_material(board);
        let v = i64::from(self.nnue_raw(pos)) * i64::from(scale) / i64::from(MATERIAL_SCALE_ONE);
        // Clamped before narrowing: a scale above 1 (promoted pieces) could overflow `i32`.
        v.clamp(-i64::from(NNUE_LIMIT), i64::from(NNUE_LIMIT)) as i32
    }

    /// The network's evaluation of `pos`, unclamped (what `Network::evaluate_scalar` gives).
    pub fn nnue_raw(&mut self, pos: &Position) -> i32 {
        self.nnue.evaluate(pos)
    }

    /// The hand-crafted static evaluation of `board` in centipawns, from the side to move's
    /// point of view (what [`Evaluator::evaluate`] uses without the network).
    pub fn hand_crafted(&mut self, board: &Board) -> i32 {
        if board.is_insufficient_material() {
            return 0;
        }
        let mut score = S(0, 0);
        let mut phase = 0;
        let occ = board.occupied();
        let pawn_info = self.pawns.probe(board);
        score += pawn_info.score;

        for color in Color::ALL {
            let sign = if color == Color::White { 1 } else { -1 };
            let ours = board.color(color);
            let our_pawns = board.colored(color, PieceKind::Pawn);
            let their_pawns = board.colored(!color, PieceKind::Pawn);
            let their_pawn_attacks = their_pawns
                .iter()
                .fold(Bitboard::EMPTY, |a, s| a | pawn_attacks(!color, s));
            let mobility_area = !ours & !their_pawn_attacks;
            let their_king = board.king(!color);
            let king_zone = king_attacks(their_king).with(their_king);
            let mut attackers = 0;
            let mut attack_units = 0;
            let mut s = S(0, 0);

            for sq in ours {
                let kind = board.piece_on(sq).map_or(PieceKind::Pawn, |p| p.kind());
                s += psqt(color, kind, sq);
                phase += PHASE[kind.index()];
                let attacks = match kind {
                    PieceKind::Knight => knight_attacks(sq),
                    PieceKind::Bishop => bishop_attacks(sq, occ),
                    PieceKind::Rook => rook_attacks(sq, occ),
                    PieceKind::Queen => queen_attacks(sq, occ),
                    _ => continue,
                };
                let i = kind.index() - 1;
                let (weight, base) = MOBILITY[i];
                s += weight * ((attacks & mobility_area).len() as i32 - base);
                let zone_hits = (attacks & king_zone).len() as i32;
                if zone_hits > 0 {
                    attackers += 1;
                    attack_units += ATTACK_WEIGHT[i] * zone_hits;
                }
                if kind == PieceKind::Rook {
                    let file = Bitboard::file(sq.file());
                    if (file & our_pawns).is_empty() {
                        s += if (file & their_pawns).is_empty() {
                            ROOK_OPEN
                        } else {
                            ROOK_SEMI_OPEN
                        };
                    }
                }
            }
            if attackers >= 2 && board.colored(color, PieceKind::Queen).any() {
                s += S((attack_units * attack_units / 4).min(500), attack_units * 2);
            }
            if board.colored(color, PieceKind::Bishop).has_many() {
                s += BISHOP_PAIR;
            }
            // Passed pawns with a free path ahead.
            for sq in pawn_info.passed & our_pawns {
                if (pawns::front_span(color, sq) & occ).is_empty() {
                    let rank = color.relative_rank(sq.rank()).index() as i32;
                    s += PASSED_FREE * (rank - 1).max(0);
                }
            }
            score += s * sign;
        }

        let phase = phase.min(24);
        let mut eval = (score.0 * phase + score.1 * (24 - phase)) / 24;
        eval = self.endgame_adjust(board, eval);
        let stm = if board.side_to_move() == Color::White {
            eval
        } else {
            -eval
        };
        stm + TEMPO
    }

    /// Endgame knowledge: scale drawish material down, and drive a lone king to the edge.
    fn endgame_adjust(&self, board: &Board, eval: i32) -> i32 {
        let strong = if eval > 0 { Color::White } else { Color::Black };
        let weak = !strong;
        let strong_pawns = board.colored(strong, PieceKind::Pawn).len();
        let strong_npm = non_pawn_material(board, strong);
        let weak_npm = non_pawn_material(board, weak);
        let weak_alone = board.color(weak).len() == 1;

        // No pawns and at most a minor piece ahead: usually a draw (KR v KB, KN v KN, KNN v K).
        if strong_pawns == 0 && strong_npm - weak_npm <= psqt::MG_VALUE[PieceKind::Bishop.index()] {
            return eval / 8;
        }
        if strong_pawns == 0
            && board.colored(strong, PieceKind::Knight).len() == 2
            && strong_npm == 2 * psqt::MG_VALUE[PieceKind::Knight.index()]
        {
            return eval / 16;
        }

        // Opposite-coloured bishops with only pawns besides: drawish.
        let bishops = board.pieces(PieceKind::Bishop);
        let only_bishops = strong_npm == psqt::MG_VALUE[PieceKind::Bishop.index()]
            && weak_npm == psqt::MG_VALUE[PieceKind::Bishop.index()];
        if only_bishops && bishops.len() == 2 {
            const DARK: u64 = 0xaa55_aa55_aa55_aa55;
            if (bishops.0 & DARK).count_ones() == 1 {
                return eval / 2;
            }
        }

        // Mop-up: a lone king against mating material goes to the edge (to the bishop's
        // corner with KBN v K), and the strong king comes closer.
        if weak_alone && strong_npm >= psqt::MG_VALUE[PieceKind::Rook.index()]
            || weak_alone && strong_pawns == 0 && strong_npm > 0
        {
            let wk = board.king(weak);
            let sk = board.king(strong);
            let mut bonus = 20 * center_distance(wk) + 10 * (14 - manhattan(wk, sk));
            let strong_bishops = board.colored(strong, PieceKind::Bishop);
            if strong_bishops.len() == 1
                && board.colored(strong, PieceKind::Knight).len() == 1
                && strong_npm < 800
            {
                const DARK: u64 = 0xaa55_aa55_aa55_aa55;
                let dark = strong_bishops.0 & DARK != 0;
                let corners = if dark {
                    [Square::A1, Square::H8]
                } else {
                    [Square::H1, Square::new(File::A, engram_chess::Rank::Eighth)]
                };
                let d = corners
                    .iter()
                    .map(|&c| king_distance(wk, c))
                    .min()
                    .unwrap_or(0);
                bonus += 30 * (7 - d);
            }
            let eval = eval
                + if strong == Color::White {
                    bonus
                } else {
                    -bonus
                };
            return eval.clamp(-20_000, 20_000);
        }
        eval
    }
}

fn manhattan(a: Square, b: Square) -> i32 {
    (a.file().index() as i32 - b.file().index() as i32).abs()
        + (a.rank().index() as i32 - b.rank().index() as i32).abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        Evaluator::default().hand_crafted(&Board::from_fen(fen, false).unwrap())
    }

    #[test]
    fn symmetric() {
        // Mirrored positions (colours swapped) evaluate the same for the side to move.
        let pairs = [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                "r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b KQkq - 0 1",
            ),
            (
                "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                "8/4p1p1/8/1r3P1K/kp5R/3P4/2P5/8 b - - 0 1",
            ),
        ];
        for (a, b) in pairs {
            assert_eq!(eval(a), eval(b), "{a} vs {b}");
        }
    }

    #[test]
    fn sane_values() {
        let start = eval(engram_chess::STARTPOS);
        assert!(start.abs() < 40, "{start}");
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 700);
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 b - - 0 1") < -700);
        assert_eq!(eval("4k3/8/8/8/8/8/8/3NK3 w - - 0 1"), 0);
        assert!(
            eval("4k3/8/8/8/8/8/8/2R1K1b1 w - - 0 1").abs() < 60,
            "KR v KB is drawish"
        );
        // The lone king is better off in the centre than in the corner.
        assert!(eval("8/8/8/4k3/8/8/8/1R2K3 w - - 0 1") < eval("k7/8/8/8/8/8/8/1R2K3 w - - 0 1"));
    }
}
