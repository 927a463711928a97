//! `Position`: a board plus the game history behind it — the stack of earlier boards for
//! unmake (copy-make), the moves played, and the key history for repetition detection.

use crate::board::Board;
use crate::chess_move::Move;

/// A game in progress: the current board, with make/unmake and draw detection.
#[derive(Clone, Debug)]
pub struct Position {
    boards: Vec<Board>,
    moves: Vec<Move>,
}

impl Position {
    /// A position with no history before `board`.
    pub fn new(board: Board) -> Position {
        let mut boards = Vec::with_capacity(256);
        boards.push(board);
        Position {
            boards,
            moves: Vec::with_capacity(256),
        }
    }

    /// The current board.
    #[inline]
    pub fn board(&self) -> &Board {
        self.boards.last().expect("a position always has a board")
    }

    /// Every board of the history, the first position first and the current one last:
    /// `boards()[i]` is the board after `moves()[..i]` (so `boards().len() == ply() + 1`).
    /// Per-ply caches such as NNUE accumulators can be indexed like it.
    #[inline]
    pub fn boards(&self) -> &[Board] {
        &self.boards
    }

    /// The number of moves (including null moves) played since the start.
    #[inline]
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The moves played since the start (null moves as [`Move::NULL`]).
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays a legal move.
    #[inline]
    pub fn make(&mut self, mv: Move) {
        // Copied once, into its slot, and played there.
        self.boards.push(*self.board());
        self.boards.last_mut().expect("just pushed").play(mv);
        self.moves.push(mv);
    }

    /// Passes the turn (not allowed in check).
    #[inline]
    pub fn make_null(&mut self) {
        self.boards.push(*self.board());
        self.boards.last_mut().expect("just pushed").play_null();
        self.moves.push(Move::NULL);
    }

    /// Takes back the last move or null move. Does nothing at the start of the history.
    #[inline]
    pub fn unmake(&mut self) {
        if self.boards.len() > 1 {
            self.boards.pop();
            self.moves.pop();
        }
    }

    /// A copy with only the reversible part of the history (since the last capture or pawn
    /// move, as far as it goes back): everything repetition detection needs here and after
    /// any further moves, in a few kilobytes whatever the length of the game.
    ///
    /// ```
    /// use engram_chess::{Board, Position};
    /// let mut pos = Position::new(Board::startpos());
    /// for m in ["e2e4", "g8f6", "g1f3", "f6g8", "f3g1"] {
    ///     let mv = pos.board().parse_uci(m).unwrap();
    ///     pos.make(mv);
    /// }
    /// let tail = pos.reversible_tail();
    /// assert_eq!(tail.ply(), 4);
    /// assert_eq!(tail.board(), pos.board());
    /// ```
    pub fn reversible_tail(&self) -> Position {
        let n = self.boards.len() - 1;
        let from = n - (self.board().halfmove_clock() as usize).min(n);
        let mut boards = Vec::with_capacity(n - from + 64);
        boards.extend_from_slice(&self.boards[from..]);
        let mut moves = Vec::with_capacity(n - from + 64);
        moves.extend_from_slice(&self.moves[from..]);
        Position { boards, moves }
    }

    /// How many earlier positions in the reversible part of the history (since the last capture,
    /// pawn move or null move) have the same key as the current one. Only positions with the
    /// same side to move are compared.
    pub fn repetitions(&self) -> usize {
        let current = self.board();
        let n = self.boards.len() - 1;
        let window = (current.halfmove_clock() as usize).min(n);
        let mut count = 0;
        let mut back = 2;
        while back <= window {
            let idx = n - back;
            if self.moves[idx].is_null() || self.moves[idx + 1].is_null() {
                break;
            }
            if self.boards[idx].key() == current.key() {
                count += 1;
            }
            back += 2;
        }
        count
    }

    /// Whether the side to move can repeat an earlier position with one reversible move
    /// (a cycle closes one move ahead): some earlier position of the reversible history, an
    /// odd number of plies back and at least three, differs from this one by a knight,
    /// bishop, rook, queen or king moving between two squares with nothing between them
    /// ([`crate::cuckoo`]). `ply` is the distance from the search's root: a cycle back to a
    /// position after the root counts whichever side's piece would move (Stockfish's rule);
    /// one back to the root or before it only if the piece is the side to move's. Legality
    /// is not checked (a pinned piece counts).
    pub fn upcoming_repetition(&self, ply: usize) -> bool {
        let current = self.board();
        let n = self.boards.len() - 1;
        let end = (current.halfmove_clock() as usize).min(n);
        if end < 3 {
            return false;
        }
        let key = current.key();
        let occupied = current.occupied();
        for back in 1..=end {
            // No cycle across a null move.
            if self.moves[n - back].is_null() {
                return false;
            }
            if back < 3 || back % 2 == 0 {
                continue;
            }
            let Some((a, b)) = crate::cuckoo::lookup(key ^ self.boards[n - back].key()) else {
                continue;
            };
            if (crate::attacks::between(a, b) & occupied).is_empty() {
                if ply > back {
                    return true;
                }
                let from = if occupied.has(a) { a } else { b };
                if current
                    .piece_on(from)
                    .is_some_and(|p| p.color() == current.side_to_move())
                {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the current position occurred before (one earlier occurrence is enough for a
    /// search to score it a draw).
    pub fn is_repetition(&self) -> bool {
        self.repetitions() >= 1
    }

    /// Whether the fifty-move rule ends the game: 100 half-moves without capture or pawn move,
    /// unless the side to move is checkmated.
    pub fn is_fifty_move_draw(&self) -> bool {
        let b = self.board();
        b.halfmove_clock() >= 100 && !b.is_checkmate()
    }

    /// Whether the game is drawn by rule here: threefold repetition, fifty moves, insufficient
    /// material or stalemate.
    pub fn is_draw_by_rule(&self) -> bool {
        let b = self.board();
        self.repetitions() >= 2
            || self.is_fifty_move_draw()
            || b.is_insufficient_material()
            || b.is_stalemate()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repetition_and_unmake() {
        let mut pos = Position::new(Board::startpos());
        let start = *pos.board();
        for _ in 0..2 {
            for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                let mv = pos.board().parse_uci(m).unwrap();
                pos.make(mv);
            }
        }
        assert_eq!(pos.repetitions(), 2);
        assert!(pos.is_draw_by_rule());
        for _ in 0..8 {
            pos.unmake();
        }
        assert_eq!(*pos.board(), start);
        assert_eq!(pos.repetitions(), 0);
        pos.make_null();
        assert_ne!(pos.board().key(), start.key());
        pos.make_null();
        assert_eq!(pos.board().key(), start.key());
        assert_eq!(pos.repetitions(), 0, "null moves cut the repetition window");
    }

    #[test]
    fn reversible_tail_keeps_repetitions() {
        let mut pos = Position::new(Board::startpos());
        for m in ["e2e4", "e7e5", "g1f3", "g8f6", "f3g1", "f6g8", "g1f3"] {
            let mv = pos.board().parse_uci(m).unwrap();
            pos.make(mv);
        }
        let mut tail = pos.reversible_tail();
        assert_eq!(tail.ply(), 5, "back to the last pawn move");
        assert_eq!(tail.board(), pos.board());
        assert_eq!(tail.repetitions(), pos.repetitions());
        for m in ["g8f6", "f3g1", "f6g8"] {
            let mv = tail.board().parse_uci(m).unwrap();
            tail.make(mv);
            pos.make(mv);
            assert_eq!(tail.repetitions(), pos.repetitions());
        }
        assert_eq!(
            tail.repetitions(),
            2,
            "after 1.e4 e5 and twice Nf3 Nf6 Ng1 Ng8"
        );
    }

    #[test]
    fn upcoming_repetition_of_a_knight_shuffle() {
        let mut pos = Position::new(Board::startpos());
        for m in ["g1f3", "g8f6", "f3g1"] {
            assert!(!pos.upcoming_repetition(10));
            let mv = pos.board().parse_uci(m).unwrap();
            pos.make(mv);
        }
        // Black's Nf6-g8 repeats the start, three plies back: at the root or inside a search.
        assert!(pos.upcoming_repetition(0));
        assert!(pos.upcoming_repetition(10));
        // A null move in the window hides it.
        let mut nulled = Position::new(Board::startpos());
        for m in ["g1f3", "g8f6"] {
            let mv = nulled.board().parse_uci(m).unwrap();
            nulled.make(mv);
        }
        nulled.make_null();
        nulled.make_null();
        nulled.make_null();
        assert!(!nulled.upcoming_repetition(10));
        // A rook that went round a pawn cannot come straight back: no cycle.
        let play = |fen: &str| {
            let mut pos = Position::new(Board::from_fen(fen, false).unwrap());
            for m in ["a1b1", "e8d8", "b1b3", "d8e8", "b3a3"] {
                let mv = pos.board().parse_uci(m).unwrap();
                pos.make(mv);
            }
            pos
        };
        let blocked = play("4k3/8/8/8/8/8/P7/R3K3 w - - 0 1");
        assert!(!blocked.upcoming_repetition(10));
        // Without the pawn Ra3-a1 repeats the start five plies back: inside a search that
        // counts, though it is White's rook and Black to move; at the root it does not.
        let open = play("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        assert!(open.upcoming_repetition(10));
        assert!(!open.upcoming_repetition(0));
    }

    /// Against a brute force over legal moves on random games of mostly reversible moves:
    /// every legal move of a knight, bishop, rook, queen or king that reaches a position an
    /// odd number (three or more) of plies back is found; and the detection equals the
    /// definition (one such piece's move, along an empty path, to an earlier key), checked
    /// with the attack tables, not the cuckoo tables.
    #[test]
    fn upcoming_repetition_matches_a_brute_force() {
        use crate::attacks::piece_attacks;
        use crate::types::{Color, PieceKind, Square};
        use crate::zobrist;
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut found, mut checked) = (0, 0);
        for _ in 0..300 {
            let mut pos = Position::new(Board::startpos());
            for _ in 0..80 {
                let b = *pos.board();
                let moves = b.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let n = pos.boards.len() - 1;
                let end = (b.halfmove_clock() as usize).min(n);
                let earlier: Vec<u64> = (3..=end)
                    .step_by(2)
                    .map(|back| pos.boards[n - back].key())
                    .collect();
                // Independent: a legal reversible move to an earlier position.
                let legal = moves.iter().any(|&m| {
                    let p = b.piece_on(m.from()).unwrap();
                    p.kind() != PieceKind::Pawn
                        && b.piece_on(m.to()).is_none()
                        && m.kind() == crate::MoveKind::Normal
                        && earlier.contains(&b.key_after(m))
                });
                // The definition, for the side to move's pieces (`ply` 0) and for both.
                let occ = b.occupied();
                let definition = |colors: &[Color]| {
                    Square::all().any(|from| {
                        b.piece_on(from).is_some_and(|p| {
                            p.kind() != PieceKind::Pawn
                                && colors.contains(&p.color())
                                && Square::all().any(|to| {
                                    piece_attacks(p.kind(), from, occ).has(to)
                                        && !occ.has(to)
                                        && earlier.contains(
                                            &(b.key()
                                                ^ zobrist::piece_square(p, from)
                                                ^ zobrist::piece_square(p, to)
                                                ^ zobrist::white_to_move()),
                                        )
                                })
                        })
                    })
                };
                let at_root = pos.upcoming_repetition(0);
                let inside = pos.upcoming_repetition(usize::MAX);
                if legal {
                    assert!(at_root, "{}", b.to_fen());
                    found += 1;
                }
                assert_eq!(at_root, definition(&[b.side_to_move()]), "{}", b.to_fen());
                assert_eq!(
                    inside,
                    definition(&[Color::White, Color::Black]),
                    "{}",
                    b.to_fen()
                );
                checked += 1;
                // Mostly reversible moves, so that cycles come up.
                let quiet: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| {
                        b.piece_on(m.from()).unwrap().kind() != PieceKind::Pawn
                            && b.piece_on(m.to()).is_none()
                    })
                    .collect();
                let pick = if !quiet.is_empty() && next() % 10 != 0 {
                    quiet[(next() % quiet.len() as u64) as usize]
                } else {
                    moves[(next() % moves.len() as u64) as usize]
                };
                pos.make(pick);
            }
        }
        assert!(
            checked > 10_000 && found > 500,
            "{checked} positions, {found} cycles"
        );
    }

    #[test]
    fn fifty_moves() {
        let pos =
            Position::new(Board::from_fen("4k3/8/8/8/8/8/8/4K2R w - - 100 80", false).unwrap());
        assert!(pos.is_fifty_move_draw());
        let mate =
            Position::new(Board::from_fen("R3k3/8/4K3/8/8/8/8/8 b - - 100 80", false).unwrap());
        assert!(!mate.is_fifty_move_draw());
    }
}
