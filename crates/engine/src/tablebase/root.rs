//! The root of a search in the tables: every legal move ranked by its distance to zeroing
//! (DTZ), or by its WDL value where the DTZ tables are missing, as Stockfish ranks them; the
//! search then plays among the moves of the best rank only, so that a won ending is
//! converted within the fifty-move rule and a drawn one is never lost.

use super::{board_sets, Wdl, TABLES};
use engram_chess::{CastlingRights, Move, PieceKind, Position, Square};
use pyrrhic_rs::{DtzProbeValue, Piece, WdlProbeResult};

/// A rank beyond any distance: a win within the fifty-move rule ranks `MAX_DTZ`, a loss
/// `-MAX_DTZ`; a cursed win `MAX_DTZ` minus its distance, and so on (Stockfish's scale).
pub const MAX_DTZ: i32 = 1 << 18;

/// The root's moves as the tables rank them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootRanking {
    /// The legal moves of the best rank, in move-generation order.
    pub moves: Vec<Move>,
    /// That rank ([`MAX_DTZ`] scale: positive wins, 0 draws, negative losses).
    pub rank: i32,
    /// Whether the ranking came from the DTZ tables (exact distances: the search need not
    /// probe), rather than from the WDL tables alone.
    pub by_dtz: bool,
}

/// Ranks the legal moves of `pos` (its fifty-move counter and repetitions included) and keeps
/// those of the best rank; `rule50` (`Syzygy50MoveRule`): a win beyond the rule ranks below
/// the wins within it. `None` if the position is not in the tables, or has no legal move.
pub fn rank_root(pos: &Position, rule50: bool) -> Option<RootRanking> {
    let board = pos.board();
    if board.castling_rights() != CastlingRights::EMPTY
        || board.occupied().len() > super::max_pieces()
    {
        return None;
    }
    let legal = board.legal_moves();
    if legal.is_empty() {
        return None;
    }
    let ranked = by_dtz(pos, &legal).map(|r| (r, true)).or_else(|| {
        let ranks = legal
            .iter()
            .map(|&mv| {
                let mut child = pos.clone();
                child.make(mv);
                super::probe_wdl(child.board()).map(|w| wdl_rank(w.flip(), rule50))
            })
            .collect::<Option<Vec<i32>>>()?;
        Some((ranks, false))
    });
    let (ranks, by_dtz) = ranked?;
    let best = *ranks.iter().max()?;
    let moves = legal
        .iter()
        .zip(&ranks)
        .filter(|&(_, &r)| r == best)
        .map(|(&m, _)| m)
        .collect();
    Some(RootRanking {
        moves,
        rank: best,
        by_dtz,
    })
}

/// The rank of a move whose result is `wdl` (the mover's view) when only WDL is known.
fn wdl_rank(wdl: Wdl, rule50: bool) -> i32 {
    match wdl {
        Wdl::Win => MAX_DTZ,
        Wdl::CursedWin if !rule50 => MAX_DTZ,
        Wdl::CursedWin => MAX_DTZ - 101,
        Wdl::Draw => 0,
        Wdl::BlessedLoss if !rule50 => -MAX_DTZ,
        Wdl::BlessedLoss => -MAX_DTZ + 101,
        Wdl::Loss => -MAX_DTZ,
    }
}

/// The rank of each legal move from the DTZ tables, in the order of `legal`; `None` if a
/// table is missing or a move cannot be matched.
fn by_dtz(pos: &Position, legal: &[Move]) -> Option<Vec<i32>> {
    let board = pos.board();
    let cnt50 = i32::from(board.halfmove_clock());
    // The DTZ probe is not thread-safe: it runs under the write lock, alone.
    let guard = TABLES.write().unwrap_or_else(|e| e.into_inner());
    let loaded = guard.as_ref()?;
    let s = board_sets(board);
    let probe = loaded
        .tables
        .probe_root(
            s.white,
            s.black,
            s.kings,
            s.queens,
            s.rooks,
            s.bishops,
            s.knights,
            s.pawns,
            cnt50.min(255) as u32,
            s.ep,
            s.white_to_move,
        )
        .ok()?;
    drop(guard);
    let root_repeated = pos.is_repetition();
    let mut ranks = vec![None; legal.len()];
    for value in &probe.moves[..probe.num_moves] {
        let DtzProbeValue::DtzResult(r) = value else {
            return None;
        };
        let promotion = match r.promotion {
            Piece::Queen => Some(PieceKind::Queen),
            Piece::Rook => Some(PieceKind::Rook),
            Piece::Bishop => Some(PieceKind::Bishop),
            Piece::Knight => Some(PieceKind::Knight),
            _ => None,
        };
        let from = Square::from_index(r.from_square);
        let to = Square::from_index(r.to_square);
        let i = legal
            .iter()
            .position(|m| m.from() == from && m.to() == to && m.promotion_kind() == promotion)?;
        // The distance counted from the root: positive when the mover wins.
        let mut dtz = match r.wdl {
            WdlProbeResult::Win | WdlProbeResult::CursedWin => i32::from(r.dtz),
            WdlProbeResult::Draw => 0,
            WdlProbeResult::Loss | WdlProbeResult::BlessedLoss => -i32::from(r.dtz),
        };
        // A move into a threefold repetition is a draw, whatever the tables say.
        let mut child = pos.clone();
        child.make(legal[i]);
        if child.board().halfmove_clock() > 0 && child.repetitions() >= 2 {
            dtz = 0;
        }
        ranks[i] = Some(dtz_rank(dtz, cnt50, root_repeated));
    }
    ranks.into_iter().collect()
}

/// Stockfish's rank of a move `dtz` plies from zeroing (positive: the mover wins) with the
/// fifty-move counter at `cnt50`: a win that zeroes in time ranks [`MAX_DTZ`] (lower by its
/// distance once the root has repeated, so that the shortest way out of the cycle is
/// taken), a win too slow for the rule lower by its distance; a loss that comes later ranks
/// higher.
pub fn dtz_rank(dtz: i32, cnt50: i32, root_repeated: bool) -> i32 {
    if dtz > 0 {
        if dtz + cnt50 <= 99 && !root_repeated {
            MAX_DTZ
        } else {
            MAX_DTZ - (dtz + cnt50)
        }
    } else if dtz < 0 {
        if -dtz * 2 + cnt50 < 100 {
            -MAX_DTZ
        } else {
            -MAX_DTZ + (-dtz + cnt50)
        }
    } else {
        0
    }
}
