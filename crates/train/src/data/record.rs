//! One self-play game: its opening, its scored moves, its result; and the one-byte move code
//! of its opening moves.

use super::packed::trained_ply;
use engram_chess::{Board, Move};

/// A game's result, from White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// Black won.
    BlackWins,
    /// A draw.
    Draw,
    /// White won.
    WhiteWins,
}

impl GameResult {
    /// The stored code: 0, 1, 2.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The result for a stored code.
    pub fn from_code(code: u8) -> Option<GameResult> {
        match code {
            0 => Some(GameResult::BlackWins),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::WhiteWins),
            _ => None,
        }
    }

    /// The score from White's view: 0, ½ or 1.
    pub fn white_score(self) -> f32 {
        self as u8 as f32 / 2.0
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Checkmate on the board.
    Checkmate,
    /// Stalemate.
    Stalemate,
    /// Threefold repetition.
    Repetition,
    /// The fifty-move rule.
    FiftyMoves,
    /// Neither side can mate.
    InsufficientMaterial,
    /// Adjudicated as won: the score stayed decisive for both sides.
    AdjudicatedWin,
    /// Adjudicated as drawn: the score stayed near zero.
    AdjudicatedDraw,
    /// The game reached the ply limit (scored a draw).
    MaxLength,
}

impl End {
    /// Every way a game ends, in code order.
    pub const ALL: [End; 8] = [
        End::Checkmate,
        End::Stalemate,
        End::Repetition,
        End::FiftyMoves,
        End::InsufficientMaterial,
        End::AdjudicatedWin,
        End::AdjudicatedDraw,
        End::MaxLength,
    ];

    /// The stored code.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The way of ending for a stored code.
    pub fn from_code(code: u8) -> Option<End> {
        End::ALL.get(code as usize).copied()
    }

    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            End::Checkmate => "checkmate",
            End::Stalemate => "stalemate",
            End::Repetition => "repetition",
            End::FiftyMoves => "fifty moves",
            End::InsufficientMaterial => "insufficient material",
            End::AdjudicatedWin => "adjudicated win",
            End::AdjudicatedDraw => "adjudicated draw",
            End::MaxLength => "length limit",
        }
    }
}

/// The score of a position whose score is not stored: a chunk keeps only the scores of
/// positions the trainer may learn from ([`crate::data::trained_ply`]); the others read back
/// as this value, which no search returns (its scores lie within ±32,000).
pub const UNSCORED: i16 = i16::MIN;

/// A game from the start position: random opening moves, then moves with their scores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The random opening plies (not scored).
    pub opening: Vec<Move>,
    /// The later plies: the move played and the search's score of the position before it,
    /// from the side to move's view ([`UNSCORED`] where the chunk's format did not keep it).
    pub scored: Vec<(Move, i16)>,
    /// The result.
    pub result: GameResult,
    /// How the game ended.
    pub end: End,
}

impl GameRecord {
    /// Plies in all.
    pub fn plies(&self) -> usize {
        self.opening.len() + self.scored.len()
    }

    /// The game as a chunk stores it, and reads it back: every score of a position the trainer
    /// does not learn from ([`crate::data::trained_ply`]) replaced by [`UNSCORED`], and every
    /// other rounded by [`quantise_score`]. Training on either gives the same positions, their
    /// scores within 2 cp.
    pub fn as_stored(&self) -> GameRecord {
        let mut board = Board::startpos();
        for &mv in &self.opening {
            board.play(mv);
        }
        let mut out = self.clone();
        for (i, (mv, score)) in out.scored.iter_mut().enumerate() {
            *score = if trained_ply(&board, *mv, self.opening.len() + i) && *score != UNSCORED {
                quantise_score(*score)
            } else {
                UNSCORED
            };
            board.play(*mv);
        }
        out
    }
}

/// A chunk stores scores to this many centipawns ([`quantise_score`]).
pub const SCORE_QUANTUM: i16 = 4;

/// `score` as a chunk stores it: rounded to the nearest multiple of
/// [`SCORE_QUANTUM`], a tie to the multiple that is an even number of quanta (so the rounding
/// has no bias), and kept within ±32,764 (never [`UNSCORED`]). The error is at most 2 cp.
pub fn quantise_score(score: i16) -> i16 {
    let q = i32::from(SCORE_QUANTUM);
    let s = i32::from(score);
    let (mut n, r) = (s.div_euclid(q), s.rem_euclid(q));
    if 2 * r > q || (2 * r == q && n % 2 != 0) {
        n += 1;
    }
    let limit = i32::from(i16::MAX) / q;
    (n.clamp(-limit, limit) * q) as i16
}

/// The legal moves of `board` in code order (by their 16-bit encoding).
fn sorted_moves(board: &Board) -> Vec<u16> {
    let mut codes: Vec<u16> = board
        .legal_moves()
        .as_slice()
        .iter()
        .map(|m| m.to_u16())
        .collect();
    codes.sort_unstable();
    codes
}

/// The byte of legal move `mv` on `board`: its rank among the legal moves by 16-bit encoding.
/// `None` if `mv` is not legal.
pub fn encode_move(board: &Board, mv: Move) -> Option<u8> {
    sorted_moves(board)
        .binary_search(&mv.to_u16())
        .ok()
        .map(|i| i as u8)
}

/// The legal move of `board` with byte `code`, if there is one.
pub fn decode_move(board: &Board, code: u8) -> Option<Move> {
    sorted_moves(board)
        .get(code as usize)
        .map(|&c| Move::from_u16(c))
}
