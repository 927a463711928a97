//! The staged move picker: the TT move first, without generating anything; then good captures
//! (SEE ≥ 0, ordered by victim value and capture history); killers; the counter move; quiet
//! moves by history; bad captures last. In check, all evasions, captures first.

use super::history::{History, PieceTo};
use super::params;
use super::see::{capture_value, see_ge};
use engram_chess::{Board, GenType, Move, MoveList};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TtMove,
    GenNoisy,
    GoodNoisy,
    Killer1,
    Killer2,
    Counter,
    GenQuiet,
    Quiet,
    BadNoisy,
    GenEvasions,
    Evasions,
    Done,
}

/// Hands out the moves of one node, best guesses first. Every move it returns is legal.
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    /// The generated moves of the current stage; bad captures, once passed over, are kept in
    /// the consumed front of it (`..bad_end`) and handed out last (`index` walks them again).
    list: MoveList,
    scores: [i32; 256],
    index: usize,
    bad_end: usize,
    /// Quiescence mode: no quiet moves (except evasions when in check).
    noisy_only: bool,
    /// Set by the search to skip the remaining quiet moves (late-move / futility pruning).
    pub skip_quiets: bool,
    /// Continuation-history keys of the moves one and two plies back.
    cont: [PieceTo; 2],
    /// Continuation-history keys of moves further back that also score quiet moves (the
    /// experiment `cont_far`: four and six plies back), the first `far_len` of them.
    far: [PieceTo; 2],
    far_len: usize,
}

impl MovePicker {
    /// A picker for a main-search node.
    pub fn new(
        board: &Board,
        tt_move: Move,
        killers: [Move; 2],
        counter: Move,
        cont: [PieceTo; 2],
    ) -> MovePicker {
        let in_check = board.in_check();
        let tt_ok = !tt_move.is_null() && board.is_legal(tt_move);
        MovePicker {
            stage: if tt_ok {
                Stage::TtMove
            } else if in_check {
                Stage::GenEvasions
            } else {
                Stage::GenNoisy
            },
            tt_move: if tt_ok { tt_move } else { Move::NULL },
            killers,
            counter,
            list: MoveList::new(),
            scores: [0; 256],
            index: 0,
            bad_end: 0,
            noisy_only: false,
            skip_quiets: false,
            cont,
            far: [PieceTo::NONE; 2],
            far_len: 0,
        }
    }

    /// Quiet moves are also scored by the continuation histories of `far` (moves four and
    /// six plies back, say), at most two.
    pub fn with_far_continuations(mut self, far: &[PieceTo]) -> MovePicker {
        self.far_len = far.len().min(2);
        self.far[..self.far_len].copy_from_slice(&far[..self.far_len]);
        self
    }

    /// A picker for a quiescence node: noisy moves only, unless in check.
    pub fn qsearch(board: &Board, tt_move: Move) -> MovePicker {
        let in_check = board.in_check();
        let tt_ok =
            !tt_move.is_null() && board.is_legal(tt_move) && (in_check || is_noisy(board, tt_move));
        let mut p = MovePicker::new(
            board,
            if tt_ok { tt_move } else { Move::NULL },
            [Move::NULL; 2],
            Move::NULL,
            [PieceTo::NONE; 2],
        );
        p.noisy_only = true;
        p
    }

    /// The first of the highest-scored moves left (at `index` or after), swapped to `index`.
    fn pick_best(&mut self) -> Option<Move> {
        let (start, len) = (self.index, self.list.len());
        if start >= len {
            return None;
        }
        // Two passes, both simple enough to vectorise: the highest score, then the first
        // move with it (the order a plain selection sort gives).
        let scores = &self.scores[start..len];
        let top = scores.iter().copied().fold(i32::MIN, i32::max);
        let best = start + scores.iter().position(|&s| s == top).unwrap_or(0);
        self.list.as_mut_slice().swap(start, best);
        self.scores.swap(start, best);
        let mv = self.list[start];
        self.index += 1;
        Some(mv)
    }

    /// The next move, or `None` when the node has no more.
    pub fn next(&mut self, board: &Board, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = if board.in_check() {
                        Stage::GenEvasions
                    } else {
                        Stage::GenNoisy
                    };
                    return Some(self.tt_move);
                }
                Stage::GenNoisy => {
                    self.list.clear();
                    board.generate(GenType::Noisy, &mut self.list);
                    for i in 0..self.list.len() {
                        let mv = self.list[i];
                        self.scores[i] = capture_value(board, mv) * 16
                            + history.capture_score(board, mv) * params::capt_hist_w() / 16;
                    }
                    self.index = 0;
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => {
                    while let Some(mv) = self.pick_best() {
                        if mv == self.tt_move {
                            continue;
                        }
                        if !self.noisy_only && !see_ge(board, mv, 0) {
                            // Its slot is consumed: keep it in the front of the list.
                            self.list.as_mut_slice()[self.bad_end] = mv;
                            self.bad_end += 1;
                            continue;
                        }
                        return Some(mv);
                    }
                    self.stage = if self.noisy_only {
                        Stage::Done
                    } else {
                        Stage::Killer1
                    };
                }
                Stage::Killer1 | Stage::Killer2 | Stage::Counter => {
                    let mv = match self.stage {
                        Stage::Killer1 => self.killers[0],
                        Stage::Killer2 => self.killers[1],
                        _ => self.counter,
                    };
                    self.stage = match self.stage {
                        Stage::Killer1 => Stage::Killer2,
                        Stage::Killer2 => Stage::Counter,
                        _ => Stage::GenQuiet,
                    };
                    let repeat = self.stage == Stage::GenQuiet
                        && (mv == self.killers[0] || mv == self.killers[1])
                        || self.stage == Stage::Counter && mv == self.killers[0];
                    if !self.skip_quiets
                        && !mv.is_null()
                        && !repeat
                        && mv != self.tt_move
                        && !is_noisy(board, mv)
                        && board.is_legal(mv)
                    {
                        return Some(mv);
                    }
                }
                Stage::GenQuiet => {
                    self.stage = Stage::Quiet;
                    self.list.truncate(self.bad_end);
                    self.index = self.bad_end;
                    if self.skip_quiets {
                        continue;
                    }
                    board.generate(GenType::Quiet, &mut self.list);
                    let side = board.side_to_move();
                    for i in self.bad_end..self.list.len() {
                        let mv = self.list[i];
                        let pt = board
                            .piece_on(mv.from())
                            .map_or(PieceTo::NONE, |p| PieceTo::new(p, mv.to()));
                        self.scores[i] = history.quiet(side, mv)
                            + history.cont(self.cont[0], pt)
                            + history.cont(self.cont[1], pt)
                            + history.pawn(board, pt)
                            + self.far[..self.far_len]
                                .iter()
                                .map(|&f| history.cont(f, pt))
                                .sum::<i32>();
                    }
                }
                Stage::Quiet => {
                    if !self.skip_quiets {
                        while let Some(mv) = self.pick_best() {
                            if mv == self.tt_move
                                || mv == self.killers[0]
                                || mv == self.killers[1]
                                || mv == self.counter
                            {
                                continue;
                            }
                            return Some(mv);
                        }
                    }
                    self.stage = Stage::BadNoisy;
                    self.index = 0;
                }
                Stage::BadNoisy => {
                    if self.index < self.bad_end {
                        self.index += 1;
                        return Some(self.list[self.index - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenEvasions => {
                    self.list.clear();
                    board.generate(GenType::All, &mut self.list);
                    let side = board.side_to_move();
                    for i in 0..self.list.len() {
                        let mv = self.list[i];
                        self.scores[i] = if is_noisy(board, mv) {
                            1_000_000 + capture_value(board, mv) * 16
                        } else {
                            let pt = board
                                .piece_on(mv.from())
                                .map_or(PieceTo::NONE, |p| PieceTo::new(p, mv.to()));
                            history.quiet(side, mv) + history.cont(self.cont[0], pt)
                        };
                    }
                    self.index = 0;
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => {
                    while let Some(mv) = self.pick_best() {
                        if mv != self.tt_move {
                            return Some(mv);
                        }
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

/// Whether a move is "noisy": a capture (including en passant) or a queen promotion.
#[inline]
pub fn is_noisy(board: &Board, mv: Move) -> bool {
    mv.is_en_passant()
        || (!mv.is_castling() && board.piece_on(mv.to()).is_some())
        || mv.promotion_kind() == Some(engram_chess::PieceKind::Queen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picker_yields_every_legal_move_once() {
        let fens = [
            engram_chess::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/8/8/2k5/3Pp3/8/8/4K2R b K d3 0 1",
            "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1",
        ];
        let history = History::default();
        for fen in fens {
            let board = Board::from_fen(fen, false).unwrap();
            let legal = board.legal_moves();
            for tt in [
                Move::NULL,
                legal[0],
                legal[legal.len() - 1],
                Move::from_u16(0x1234),
            ] {
                let killers = [legal[legal.len() / 2], Move::from_u16(77)];
                let mut p = MovePicker::new(
                    &board,
                    tt,
                    killers,
                    legal[1 % legal.len()],
                    [PieceTo::NONE; 2],
                );
                let mut seen = Vec::new();
                while let Some(mv) = p.next(&board, &history) {
                    assert!(legal.contains(mv), "{fen}: {mv:?}");
                    seen.push(mv);
                }
                seen.sort_by_key(|m| m.to_u16());
                let mut expected: Vec<Move> = legal.to_vec();
                expected.sort_by_key(|m| m.to_u16());
                assert_eq!(seen, expected, "{fen}");
            }
        }
    }
}
