//! Enhanced transposition cutoffs (ETC; Plaat, Schaeffer, Pijls and de Bruin, 1996): before
//! a zero-window node searches its moves, it looks its children up in the table. A child
//! whose entry is deep enough and proves it fails low (an upper bound, or an exact score, at
//! most `-beta`) proves that this node fails high, without searching anything.
//!
//! The rules, each one a guard against a wrong cut:
//! * **Only zero-window nodes, from `params::etc_min_depth` up.** Each child costs a copy-make
//!   and a probe (a likely cache miss), worth it only where a search would cost more.
//! * **The child's key is its own** (`Board::play` then `key`), not the prefetch hint
//!   `key_after`, which differs after castling, en passant, promotions and lost rights.
//! * **The child's entry is read as the child would read it**: at `ply + 1`, with its halfmove
//!   clock, through `Probe::cutoff` with the child's window `(-beta, -beta + 1)` and depth
//!   `depth - 1`, so the fifty-move and mate-distance rules of a normal cut apply.
//! * **A child that repeats the line is a draw, not its entry**: a candidate move is made on
//!   the real position and `is_draw` asked before the cut is taken.
//!
//! A cut is stored like a fail high of the node (a lower bound with the move that proved it).

use super::{params, Searcher};
use engram_chess::{Board, Move};

impl Searcher {
    /// The fail-high score and move that the children's entries prove for the zero-window
    /// node at `ply` (`board`, `depth`, `beta`), if one does.
    pub(super) fn etc(
        &mut self,
        board: &Board,
        depth: i32,
        beta: i32,
        ply: usize,
    ) -> Option<(i32, Move)> {
        if !self.config.etc || !self.use_tt || depth < params::etc_min_depth() {
            return None;
        }
        for &mv in board.legal_moves().as_slice() {
            let mut child = *board;
            child.play(mv);
            let probe = self.probe(child.key(), ply + 1, child.halfmove_clock());
            let Some(score) = probe.cutoff(depth - 1, -beta, -beta + 1) else {
                continue;
            };
            if -score < beta {
                continue;
            }
            self.pos.make(mv);
            let draw = self.is_draw();
            self.pos.unmake();
            if !draw {
                return Some((-score, mv));
            }
        }
        None
    }
}
