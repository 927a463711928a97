//! How the search uses the Syzygy tablebases (`crate::tablebase`) inside the tree, as
//! Stockfish does: at a node with few enough pieces, just after a capture or a pawn move (the
//! fifty-move counter at zero, which the WDL tables assume) and without castling rights, the
//! WDL table is probed. A win is a lower bound ([`TB_WIN`] less the ply: the distance to mate
//! is unknown, but it is better than any evaluation), a loss an upper bound, a draw exact (a
//! cursed win or blessed loss, under `Syzygy50MoveRule`, a draw by ±2). The node ends when
//! the bound settles it (stored in the table a few plies deeper than the node); otherwise a
//! PV node searches on with the bound as a floor or a ceiling. The root is not probed here:
//! the pool ranks the root's moves by DTZ before the search (`tablebase/root.rs`), and then
//! the search does not probe at all.

use super::tt::{to_tt, EVAL_NONE, TB_WIN};
use super::{Searcher, MAX_PLY};
use crate::tablebase::{self, Wdl};
use engram_chess::{Board, CastlingRights};
use engram_tt::{Bound, Record};

/// What a node learns from the tables.
pub(super) enum TbVerdict {
    /// Nothing (not probed, or not in the tables).
    None,
    /// The node's score: the verdict settles it.
    Ends(i32),
    /// A PV node's score is at least this (a win).
    Floor(i32),
    /// A PV node's score is at most this (a loss).
    Ceiling(i32),
}

impl Searcher {
    /// Probes the node at `ply` (position `board`, key `key`) searched to `depth` with window
    /// `(alpha, beta)`: a verdict that settles the node is stored and ends it; at a PV node
    /// one that does not bounds the search's score.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn tb_verdict<const PV: bool>(
        &mut self,
        board: &Board,
        key: u64,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> TbVerdict {
        let Some((score, bound)) = self.probe_tb(board, depth, ply) else {
            return TbVerdict::None;
        };
        let settles = match bound {
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
            _ => true,
        };
        if settles {
            self.store_tb(key, ply, depth, score, bound);
            TbVerdict::Ends(score)
        } else if !PV {
            TbVerdict::None
        } else if bound == Bound::Lower {
            TbVerdict::Floor(score)
        } else {
            TbVerdict::Ceiling(score)
        }
    }

    /// The tables' verdict on the node at `ply` searched to `depth`, as a score and the bound
    /// it is, if the node qualifies and the tables hold it (counted in `tbhits`).
    #[inline]
    fn probe_tb(&mut self, board: &Board, depth: i32, ply: usize) -> Option<(i32, Bound)> {
        let tb = self.limits.tb;
        let pieces = board.occupied().len();
        if pieces > tb.cardinality
            || (pieces == tb.cardinality && depth < tb.probe_depth)
            || board.halfmove_clock() != 0
            || board.castling_rights() != CastlingRights::EMPTY
        {
            return None;
        }
        let wdl = tablebase::probe_wdl(board)?;
        self.tbhits += 1;
        let win = TB_WIN - ply as i32;
        Some(match wdl {
            Wdl::Win => (win, Bound::Lower),
            Wdl::CursedWin if !tb.rule50 => (win, Bound::Lower),
            Wdl::CursedWin => (2, Bound::Exact),
            Wdl::Draw => (0, Bound::Exact),
            Wdl::BlessedLoss if tb.rule50 => (-2, Bound::Exact),
            Wdl::BlessedLoss | Wdl::Loss => (-win, Bound::Upper),
        })
    }

    /// Stores a node's tablebase verdict: `score` as `bound`, no move, no evaluation, with a
    /// draft a few plies beyond the node's `depth` (the verdict holds at any depth).
    fn store_tb(&self, key: u64, ply: usize, depth: i32, score: i32, bound: Bound) {
        if !self.use_tt {
            return;
        }
        self.tt.store(
            key,
            Record {
                mv: 0,
                score: to_tt(score, ply),
                eval: EVAL_NONE,
                depth: (depth + 6).min(MAX_PLY as i32 - 1),
                bound,
                pv: false,
                nodes: 0,
            },
        );
    }
}
