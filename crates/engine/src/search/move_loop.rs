//! A node's move loop: what it needs from the node ([`Node`]), what each move's search needs
//! ([`Child`]), and the choice of the next move worth searching ([`next_child`]: late-move,
//! futility and SEE pruning).

use super::history::{History, PieceTo};
use super::params;
use super::picker::{is_noisy, MovePicker};
use super::see::see_ge;
use super::tt::TB_BOUND;
use engram_chess::{Board, Move};

/// What a node's move loop needs to choose and prune its moves.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Node {
    pub depth: i32,
    pub improving: bool,
    pub in_check: bool,
    pub static_eval: i32,
    /// The side to move has pieces besides pawns.
    pub has_material: bool,
    /// Continuation-history keys of the moves one and two plies back.
    pub prev: PieceTo,
    pub prev2: PieceTo,
    /// The table move and its extension from the singular search.
    pub tt_move: Move,
    pub singular_ext: i32,
    /// The move a singular search leaves out (null: none).
    pub excluded: Move,
}

/// A move to search, with what its search needs from the node.
#[derive(Clone, Copy, Debug)]
pub(super) struct Child {
    pub mv: Move,
    /// The move's number among the moves searched, for reductions: at an inner node 1 is
    /// the first; at the root 0 is the first of this pass.
    pub n: usize,
    pub quiet: bool,
    /// History score of a quiet move.
    pub hist: i32,
    /// Continuation-history key of the move.
    pub pt: PieceTo,
    /// Plies of extension (or, negative, reduction) from the singular search.
    pub ext: i32,
}

/// The next move of a node worth searching: moves come from `picker`, late-move, futility
/// and SEE pruning drop some; `searched` counts the moves handed out.
pub(super) fn next_child(
    picker: &mut MovePicker,
    board: &Board,
    history: &History,
    node: &Node,
    searched: &mut usize,
    best_score: i32,
    alpha: i32,
) -> Option<Child> {
    let Node {
        depth,
        improving,
        in_check,
        static_eval,
        has_material,
        prev,
        prev2,
        tt_move,
        singular_ext,
        excluded,
        ..
    } = *node;
    let us = board.side_to_move();
    while let Some(mv) = picker.next(board, history) {
        if mv == excluded {
            continue;
        }
        let quiet = !is_noisy(board, mv);
        let pt = board
            .piece_on(mv.from())
            .map_or(PieceTo::NONE, |p| PieceTo::new(p, mv.to()));
        let hist = if quiet {
            history.quiet(us, mv) + history.cont(prev, pt) + history.cont(prev2, pt)
        } else {
            0
        };
        if best_score > -TB_BOUND && has_material {
            if quiet {
                // Late-move pruning (with the experiment `check_guards`, not in check).
                let lmp = (params::lmp_base() + depth * depth) / (2 - improving as i32);
                let guarded = params::check_guards() != 0;
                if *searched as i32 >= lmp && !(guarded && in_check) {
                    picker.skip_quiets = true;
                    continue;
                }
                // Futility pruning (with `check_guards`, not of a move that gives check).
                if !in_check
                    && depth <= params::fp_max_depth()
                    && static_eval + params::fp_base() + params::fp_per_depth() * depth <= alpha
                    && !(guarded && board.gives_check(mv))
                {
                    picker.skip_quiets = true;
                    continue;
                }
            }
            // SEE pruning.
            let margin = if quiet {
                params::see_quiet()
            } else {
                params::see_noisy()
            };
            if depth <= params::see_max_depth() && !see_ge(board, mv, -margin * depth) {
                continue;
            }
        }
        *searched += 1;
        return Some(Child {
            mv,
            n: *searched,
            quiet,
            hist,
            pt,
            ext: if mv == tt_move { singular_ext } else { 0 },
        });
    }
    None
}
