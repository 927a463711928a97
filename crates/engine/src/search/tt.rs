//! How the search uses the transposition table (`engram-tt`). The rules, one paragraph each,
//! and the code that applies them (`Searcher::probe`, `Probe::cutoff`, `Probe::eval`,
//! `Probe::refine`, `Searcher::store`; the prefetch is in `Searcher::enter`, `node.rs`):
//!
//! * **Probe everywhere.** Every node, quiescence included, probes with the board's Polyglot key
//!   before doing work. The table returns a copy; nothing is held across moves.
//! * **Cutoffs only in non-PV nodes**, when the stored draft is at least the remaining depth and
//!   the bound allows it: a lower bound ≥ beta, an upper bound ≤ alpha, or an exact score. PV
//!   nodes never cut, so the principal variation is always searched and printed from the
//!   search itself. Near the fifty-move limit (halfmove clock ≥ `params::tt_cut_halfmove`, 90)
//!   no cutoff is taken: the stored score may have been found with more moves to spare.
//! * **The TT move is vetted** with `is_legal` (which includes `is_pseudo_legal`) before it is
//!   searched (by the move picker): a 16-bit signature can collide, and the move may come from
//!   another position. An entry whose move fails is treated as a miss for move ordering.
//! * **Mate scores are stored relative to the node** ("mate in n from here"), converted from
//!   and to "mate in n from the root" with the ply ([`to_tt`], [`from_tt`]). A stored mate
//!   that is farther away than the fifty-move rule allows from this node is downgraded to a
//!   plain winning score, since the rule could void it.
//! * **Static eval is cached** in the entry, so a transposition skips the evaluation; a stored
//!   score whose bound points the right way refines it for pruning decisions.
//! * **Singular extensions** (`node.rs`): at depth ≥ `params::se_min_depth`, a table move
//!   whose entry is a lower bound or exact, at most `params::se_tt_depth` plies shallower,
//!   is tested: the node is searched again at half depth without it, against a window just
//!   below the stored score. If nothing else comes close, the move is extended by a ply; if
//!   the other moves still beat beta, the node is cut (multi-cut); if only the stored score
//!   was above beta, the move loses a ply. That search stores nothing (its result is not the
//!   position's) and takes no cutoff from the entry it is testing.
//! * **Bounds stored**: Exact when a PV node raised alpha without failing high, Lower on a
//!   fail high (with the refutation move), Upper on a fail low (keeping the old move).
//! * **Prefetch**: before making a move the child's key is guessed (`Board::key_after`, a hint
//!   that is exact for most moves) and its cluster prefetched, so the probe at the child finds
//!   it in cache.

use super::{params, Searcher};
use engram_chess::Move;
use engram_tt::{Bound, Entry, Record};

/// The score of a mate at the root (mated in 0).
pub const MATE: i32 = 32_000;
/// Maximum search ply.
pub const MAX_PLY: usize = 128;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 1;
/// Larger than any score.
pub const INF: i32 = MATE + 1;
/// A tablebase win at the root: a probe at `ply` scores `TB_WIN - ply`, just below the mates.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores from here up to [`MATE_BOUND`] are tablebase wins ("decisive" without a mate).
pub const TB_BOUND: i32 = TB_WIN - MAX_PLY as i32;

/// Whether `score` is a proven result: a mate or a tablebase win (or their losses).
#[inline]
pub fn is_decisive(score: i32) -> bool {
    score.abs() >= TB_BOUND
}

/// Centipawns shown for a score that is not a mate: a tablebase win `n` plies from the
/// probe shows as `20000 - n` (as Stockfish 16 prints it), other scores as they are.
pub fn display_cp(score: i32) -> i32 {
    if score >= TB_BOUND {
        20_000 - (TB_WIN - score)
    } else if score <= -TB_BOUND {
        -20_000 + (TB_WIN + score)
    } else {
        score
    }
}

/// The score shown for the root's tablebase rank (`engram_chess`-independent scale of
/// [`crate::tablebase::MAX_DTZ`]): a win within the fifty-move rule (or any win without
/// `rule50`) is [`TB_WIN`]; a cursed win a small plus that shrinks with its distance, as
/// Stockfish shows it; the losses likewise.
pub fn tb_rank_score(rank: i32, rule50: bool) -> i32 {
    use crate::tablebase::MAX_DTZ;
    let bound = if rule50 { MAX_DTZ - 100 } else { 1 };
    if rank >= bound {
        TB_WIN
    } else if rank > 0 {
        (rank - (MAX_DTZ - 200)).max(3) / 2
    } else if rank == 0 {
        0
    } else if rank > -bound {
        (rank + (MAX_DTZ - 200)).min(-3) / 2
    } else {
        -TB_WIN
    }
}
/// The stored eval when a node had no static evaluation (in check); also what the table
/// returns when it keeps none (`engram_tt::NO_EVAL`).
pub const EVAL_NONE: i16 = engram_tt::NO_EVAL;

/// A score as stored: mates and tablebase wins counted from this node rather than from the
/// root.
#[inline]
pub fn to_tt(score: i32, ply: usize) -> i16 {
    let s = if score >= TB_BOUND {
        score + ply as i32
    } else if score <= -TB_BOUND {
        score - ply as i32
    } else {
        score
    };
    s as i16
}

/// A stored score as seen at `ply` with the given halfmove clock. A mate or tablebase win
/// farther away than the fifty-move rule allows from here becomes the largest plain score.
#[inline]
pub fn from_tt(stored: i16, ply: usize, halfmove: u16) -> i32 {
    let s = stored as i32;
    let moves_left = 100 - halfmove as i32;
    if s >= TB_BOUND {
        let distance = if s >= MATE_BOUND {
            MATE - s
        } else {
            TB_WIN - s
        };
        if distance > moves_left {
            return TB_BOUND - 1;
        }
        s - ply as i32
    } else if s <= -TB_BOUND {
        let distance = if s <= -MATE_BOUND {
            MATE + s
        } else {
            TB_WIN + s
        };
        if distance > moves_left {
            return -TB_BOUND + 1;
        }
        s + ply as i32
    } else {
        s
    }
}

/// Whether an entry's score may end the node without search.
#[inline]
fn cuts(entry: &Entry, score: i32, depth: i32, alpha: i32, beta: i32) -> bool {
    entry.depth >= depth
        && match entry.bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
            Bound::None => false,
        }
}

/// What a node learns from the table before it searches.
#[derive(Clone, Copy, Debug)]
pub(super) struct Probe {
    entry: Option<Entry>,
    /// The stored move (not vetted yet: the picker does that), null on a miss.
    pub mv: Move,
    /// The stored score as seen from this node (`-INF` on a miss).
    pub score: i32,
    halfmove: u16,
}

impl Probe {
    /// The score that ends a non-PV node searched to `depth` with window `(alpha, beta)`
    /// without a search, if the entry allows it.
    #[inline]
    pub fn cutoff(&self, depth: i32, alpha: i32, beta: i32) -> Option<i32> {
        let e = self.entry.as_ref()?;
        (i32::from(self.halfmove) < params::tt_cut_halfmove()
            && cuts(e, self.score, depth, alpha, beta))
        .then_some(self.score)
    }

    /// [`Probe::cutoff`] at an inner node, whose type (`cut_node`) may also decide
    /// (the experiment `tt_cut_strict`): then a fail high needs an entry deeper than
    /// `depth` (a score above beta), and at depth 5 or less the score must say what the
    /// node's type expects (a fail high at a cut node, a fail low at an all node).
    #[inline]
    pub fn node_cutoff(&self, depth: i32, alpha: i32, beta: i32, cut_node: bool) -> Option<i32> {
        let score = self.cutoff(depth, alpha, beta)?;
        if params::tt_cut_strict() == 0 {
            return Some(score);
        }
        let e = self.entry.as_ref()?;
        let deep_enough = score <= beta || e.depth > depth;
        let agrees = depth > 5 || cut_node == (score >= beta);
        (deep_enough && agrees).then_some(score)
    }

    /// Whether the entry was stored by a PV node (or, with the experiment `ttpv_lmr`, by a
    /// node that was once on a PV).
    #[inline]
    pub fn was_pv(&self) -> bool {
        self.entry.as_ref().is_some_and(|e| e.pv)
    }

    /// Whether the table had an entry (read by the `lab` counters).
    #[cfg(feature = "lab")]
    #[inline]
    pub fn hit(&self) -> bool {
        self.entry.is_some()
    }

    /// The cached static evaluation, if the entry has one.
    #[inline]
    pub fn eval(&self) -> Option<i32> {
        self.entry
            .as_ref()
            .filter(|e| e.eval != EVAL_NONE)
            .map(|e| i32::from(e.eval))
    }

    /// Whether the entry is a lower bound or an exact score, not a mate, from a search at
    /// least `depth` deep: a table move that a singular search may test.
    #[inline]
    pub fn proves_at_least(&self, depth: i32) -> bool {
        self.entry.as_ref().is_some_and(|e| {
            e.depth >= depth
                && matches!(e.bound, Bound::Lower | Bound::Exact)
                && !is_decisive(self.score)
        })
    }

    /// `static_eval`, or the stored score when its bound says it is the better estimate
    /// (a lower bound above it, an upper bound below it, or exact; never a mate score).
    #[inline]
    pub fn refine(&self, static_eval: i32) -> i32 {
        match &self.entry {
            Some(e) if !is_decisive(self.score) => match e.bound {
                Bound::Lower if self.score > static_eval => self.score,
                Bound::Upper if self.score < static_eval => self.score,
                Bound::Exact => self.score,
                _ => static_eval,
            },
            _ => static_eval,
        }
    }
}

impl Searcher {
    /// Probes the table for the node at `ply` with position key `key` and halfmove clock
    /// `halfmove`.
    #[inline(always)]
    pub(super) fn probe(&self, key: u64, ply: usize, halfmove: u16) -> Probe {
        let entry = if self.use_tt {
            self.tt.probe(key)
        } else {
            None
        };
        let (mv, score) = match &entry {
            Some(e) => (Move::from_u16(e.mv), from_tt(e.score, ply, halfmove)),
            None => (Move::NULL, -INF),
        };
        Probe {
            entry,
            mv,
            score,
            halfmove,
        }
    }

    /// Stores a node's result: a lower bound on a fail high, exact when a PV node raised alpha,
    /// otherwise an upper bound. `alpha` is the node's alpha on entry; `eval` its static
    /// evaluation (`EVAL_NONE` in check); `subtree` the nodes this thread searched below it
    /// (the size that `Policy::TwoBig1` ranks entries by); `tt_pv`: the node was on a PV
    /// before (the entry keeps the PV flag of a PV node, or of such a node).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn store<const PV: bool>(
        &self,
        key: u64,
        ply: usize,
        depth: i32,
        best: i32,
        alpha: i32,
        beta: i32,
        mv: Move,
        eval: i16,
        subtree: u64,
        tt_pv: bool,
    ) {
        if !self.use_tt {
            return;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if PV && best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let record = Record {
            mv: mv.to_u16(),
            score: to_tt(best, ply),
            eval,
            depth,
            bound,
            pv: PV || tt_pv,
            nodes: subtree,
        };
        self.tt.store(key, record);
        self.outbox.borrow_mut().push(key, &record);
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
        assert_eq!(from_tt(stored, 5, 98), TB_BOUND - 1);
        assert_eq!(from_tt(to_tt(-MATE + 8, 5), 5, 98), -TB_BOUND + 1);
        // Tablebase wins the same way, below the mates.
        let tb = to_tt(TB_WIN - 7, 4);
        assert_eq!(tb as i32, TB_WIN - 3);
        assert_eq!(from_tt(tb, 4, 0), TB_WIN - 7);
        assert_eq!(from_tt(tb, 10, 0), TB_WIN - 13);
        assert_eq!(from_tt(to_tt(-TB_WIN + 7, 4), 4, 0), -TB_WIN + 7);
        assert_eq!(from_tt(tb, 4, 98), TB_BOUND - 1);
        assert!(!is_decisive(TB_BOUND - 1) && is_decisive(TB_WIN - 100));
    }
}
