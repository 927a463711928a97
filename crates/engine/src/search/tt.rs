//! How the search uses the transposition table (`engram-tt`). The rules, one paragraph each:
//!
//! * **Probe everywhere.** Every node, quiescence included, probes with the board's Polyglot key
//!   before doing work. The table returns a copy; nothing is held across moves.
//! * **Cutoffs only in non-PV nodes**, when the stored draft is at least the remaining depth and
//!   the bound allows it: a lower bound ≥ beta, an upper bound ≤ alpha, or an exact score. PV
//!   nodes never cut, so the principal variation is always searched and printed from the
//!   search itself. Near the fifty-move limit (halfmove clock ≥ 90) no cutoff is taken: the
//!   stored score may have been found with more moves to spare.
//! * **The TT move is vetted** with `is_legal` (which includes `is_pseudo_legal`) before it is
//!   searched: a 16-bit signature can collide, and the move may come from another position. An
//!   entry whose move fails is treated as a miss for move ordering.
//! * **Mate scores are stored relative to the node** ("mate in n from here"), converted from
//!   and to "mate in n from the root" with the ply ([`to_tt`], [`from_tt`]). A stored mate
//!   that is farther away than the fifty-move rule allows from this node is downgraded to a
//!   plain winning score, since the rule could void it.
//! * **Static eval is cached** in the entry, so a transposition skips the evaluation.
//! * **Bounds stored**: Exact when a PV node raised alpha without failing high, Lower on a
//!   fail high (with the refutation move), Upper on a fail low (keeping the old move).
//! * **Prefetch**: before making a move the child's key is computed (`Board::key_after`) and
//!   its cluster prefetched, so the probe at the child finds it in cache.

use engram_tt::{Bound, Entry};

/// The score of a mate at the root (mated in 0).
pub const MATE: i32 = 32_000;
/// Maximum search ply.
pub const MAX_PLY: usize = 128;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 1;
/// Larger than any score.
pub const INF: i32 = MATE + 1;
/// The stored eval when a node had no static evaluation (in check).
pub const EVAL_NONE: i16 = i16::MIN;

/// A score as stored: mates counted from this node rather than from the root.
#[inline]
pub fn to_tt(score: i32, ply: usize) -> i16 {
    let s = if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    };
    s as i16
}

/// A stored score as seen at `ply` with the given halfmove clock.
#[inline]
pub fn from_tt(stored: i16, ply: usize, halfmove: u16) -> i32 {
    let s = stored as i32;
    let moves_left = 100 - halfmove as i32;
    if s >= MATE_BOUND {
        if MATE - s > moves_left {
            return MATE_BOUND - 1;
        }
        s - ply as i32
    } else if s <= -MATE_BOUND {
        if MATE + s > moves_left {
            return -MATE_BOUND + 1;
        }
        s + ply as i32
    } else {
        s
    }
}

/// Whether an entry's score may end the node without search.
#[inline]
pub fn cuts(entry: &Entry, score: i32, depth: i32, alpha: i32, beta: i32) -> bool {
    entry.depth >= depth
        && match entry.bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
            Bound::None => false,
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_round_trip() {
        // Mate in 3 plies from a node at ply 5 is MATE - 8 at the root.
        let root_score = MATE - 8;
        let stored = to_tt(root_score, 5);
        assert_eq!(stored as i32, MATE - 3);
        assert_eq!(from_tt(stored, 5, 0), root_score);
        // Seen from a node at ply 9 (a transposition), it is MATE - 12 at the root.
        assert_eq!(from_tt(stored, 9, 0), MATE - 12);
        assert_eq!(from_tt(to_tt(-MATE + 8, 5), 5, 0), -MATE + 8);
        // Plain scores pass unchanged.
        assert_eq!(from_tt(to_tt(123, 40), 3, 0), 123);
        // A mate 3 plies away with 98 half-moves on the clock may never happen.
        assert_eq!(from_tt(stored, 5, 98), MATE_BOUND - 1);
        assert_eq!(from_tt(to_tt(-MATE + 8, 5), 5, 98), -MATE_BOUND + 1);
    }
}
