//! The body of a chunk: its games, range-coded (`range.rs`), each field under its own
//! adaptive model:
//!
//! | field | model |
//! |---|---|
//! | plies, opening plies | [`Magnitude`] each |
//! | result, end | [`BitTree`] of 2 and 3 bits |
//! | an opening move | its byte ([`encode_move`]: its index among the legal moves by 16-bit encoding) under a [`BitTree`] of 8 bits |
//! | a scored move | its rank in [`MoveOrder`] (`order.rs`), under one of three [`BitTree`]s of 8 bits chosen by [`rank_context`] |
//! | a stored score | `zigzag(quanta − prediction)` under one of eight [`Magnitude`]s, chosen by the prediction's size and by whether the position before was stored |
//!
//! A score is stored only for a position [`trained_ply`] accepts (from ply 16 on, not in
//! check, its move not a capture, en passant or promotion; mate scores are kept, for the
//! trainer's own mate filter); the other positions read back [`UNSCORED`]. A stored score is
//! rounded to the nearest multiple of [`SCORE_QUANTUM`] (4 cp; [`quantise_score`]) and coded
//! in quanta. Scores alternate sides, so the prediction of a score is minus the previous
//! position's, or, when that one was not stored, the last stored score with its sign flipped
//! once per ply since (0 before a game's first stored score).
//!
//! What each step gained, measured on self-play chunks as the format grew (versions 1 to 3
//! are no longer read): range-coding the plain 3-byte-a-position format (version 1) took
//! about 1.6–1.7 bytes a position (version 2); leaving out the scores no one trains on, about
//! a third of the positions, took 1.69 → 1.39 on chunks of gen1 and gen10 (version 3); the
//! move order and the 4 cp rounding together saved another 22% (gen12's 89 chunks: 14.67 MB
//! in version 3, 11.38 MB in version 4; gen9's 82: 13.78 and 10.79), moves about 5.5 → 4.4
//! bits and two bits less a score. The rounding moves the trainer's targets by at most 2 cp
//! (1 on average), with no bias, where the search's scores of two consecutive plies (both
//! stored, below 2,000 cp) differ by 27 cp on average, 16 at the median (gen12's first three
//! chunks).

use super::order::MoveOrder;
use super::packed::trained_ply;
use super::range::{unzigzag, zigzag, BitTree, Decoder, Encoder, Magnitude};
use super::record::{
    decode_move, encode_move, quantise_score, End, GameRecord, GameResult, SCORE_QUANTUM, UNSCORED,
};
use super::DataError;
use engram_chess::{Board, Move};

/// The models, in the state both sides start from.
#[derive(Default)]
struct Models {
    plies: Magnitude,
    opening_len: Magnitude,
    result: BitTree<2>,
    end: BitTree<3>,
    opening_move: BitTree<8>,
    score: [Magnitude; 8],
    /// A scored move's rank in [`MoveOrder`], by [`rank_context`].
    ranked_move: [BitTree<8>; 3],
    order: MoveOrder,
}

/// Which rank model codes a scored move: in check, fewer than 20 legal moves, or more.
fn rank_context(board: &Board, legal: usize) -> usize {
    if board.in_check() {
        0
    } else if legal < 20 {
        1
    } else {
        2
    }
}

/// Which score model follows a score of `prev`.
fn score_context(prev: i32) -> usize {
    match prev.unsigned_abs() {
        0..64 => 0,
        64..256 => 1,
        256..1024 => 2,
        _ => 3,
    }
}

/// How the next stored score is predicted: `pred` is the predicted score of the next
/// position (side to move's view), `gap` whether the position before it went unstored.
/// Scores and predictions are in quanta of [`SCORE_QUANTUM`] centipawns.
#[derive(Default)]
struct Scores {
    pred: i32,
    gap: bool,
}

/// [`SCORE_QUANTUM`] as an `i32`.
const QUANTUM: i32 = SCORE_QUANTUM as i32;

impl Scores {
    /// The stored number for `score`, in quanta.
    fn units(score: i16) -> i32 {
        i32::from(quantise_score(score)) / QUANTUM
    }

    /// The score of a stored number of quanta, if it is one a writer could have stored.
    fn score(units: i32) -> Option<i16> {
        let s = i16::try_from(units.checked_mul(QUANTUM)?).ok()?;
        (quantise_score(s) == s).then_some(s)
    }

    /// The model of the next stored score: by the prediction's size (in centipawns), and by
    /// whether the position before was stored.
    fn model<'m>(&self, m: &'m mut Models) -> &'m mut Magnitude {
        &mut m.score[score_context(self.pred * QUANTUM) + 4 * usize::from(self.gap)]
    }

    /// After a position whose score was `Some` stored or `None` not.
    fn advance(&mut self, score: Option<i32>) {
        match score {
            Some(s) => {
                self.pred = -s;
                self.gap = false;
            }
            None => {
                self.pred = -self.pred;
                self.gap = true;
            }
        }
    }
}

/// The coded body of `games`.
///
/// Panics if a move is illegal (records are built by playing the moves), or if the body
/// would need a score the record does not have ([`UNSCORED`] on a trained position).
pub fn encode_games(games: &[GameRecord]) -> Vec<u8> {
    let mut m = Models::default();
    let mut e = Encoder::default();
    for g in games {
        m.plies.encode(&mut e, g.plies() as u32);
        m.opening_len.encode(&mut e, g.opening.len() as u32);
        m.result.encode(&mut e, u32::from(g.result.code()));
        m.end.encode(&mut e, u32::from(g.end.code()));
        let mut board = Board::startpos();
        let mut last_to = None;
        for &mv in &g.opening {
            let code = encode_move(&board, mv).expect("recorded moves are legal");
            m.opening_move.encode(&mut e, u32::from(code));
            last_to = Some(mv.to().index() as u8);
            board.play(mv);
        }
        let mut scores = Scores::default();
        for (i, &(mv, score)) in g.scored.iter().enumerate() {
            let list = board.legal_moves();
            let moves = list.as_slice();
            let rank = m
                .order
                .rank(&board, moves, mv, last_to)
                .expect("recorded moves are legal");
            m.ranked_move[rank_context(&board, moves.len())].encode(&mut e, u32::from(rank));
            m.order.played(&board, mv);
            if trained_ply(&board, mv, g.opening.len() + i) {
                assert!(score != UNSCORED, "a trained position without a score");
                let units = Scores::units(score);
                scores
                    .model(&mut m)
                    .encode(&mut e, zigzag(units - scores.pred));
                scores.advance(Some(units));
            } else {
                scores.advance(None);
            }
            last_to = Some(mv.to().index() as u8);
            board.play(mv);
        }
    }
    e.finish()
}

/// The scored move at `board`, `None` if its rank is not a legal move's; counted in the move
/// order.
fn decode_scored_move(
    m: &mut Models,
    d: &mut Decoder,
    board: &Board,
    last_to: Option<u8>,
) -> (u32, Option<Move>) {
    let list = board.legal_moves();
    let moves = list.as_slice();
    let rank = m.ranked_move[rank_context(board, moves.len())].decode(d);
    let mv = m.order.nth(board, moves, rank as u8, last_to);
    if let Some(mv) = mv {
        m.order.played(board, mv);
    }
    (rank, mv)
}

/// The games of a coded body, every move replayed and checked; `games` from the header.
pub fn decode_games(body: &[u8], games: u32) -> Result<Vec<GameRecord>, DataError> {
    let mut m = Models::default();
    let mut d = Decoder::new(body);
    let truncated = |d: &Decoder, what| {
        if d.overrun() {
            Err(DataError::Truncated { what })
        } else {
            Ok(())
        }
    };
    // Capacity from the body, not the header: a damaged count must not allocate.
    let mut out = Vec::with_capacity((games as usize).min(body.len()));
    for game in 0..games as usize {
        let bad = |why: String| DataError::Malformed { game, why };
        let plies = m.plies.decode(&mut d);
        let opening_len = m.opening_len.decode(&mut d);
        let result = m.result.decode(&mut d) as u8;
        let end = m.end.decode(&mut d) as u8;
        truncated(&d, "game header")?;
        let plies = plies
            .filter(|&p| p <= u32::from(u16::MAX))
            .ok_or_else(|| bad("bad ply count".into()))?;
        let opening_len = opening_len
            .filter(|&n| n <= plies.min(255))
            .ok_or_else(|| bad(format!("bad opening length in a game of {plies} plies")))?;
        let result =
            GameResult::from_code(result).ok_or_else(|| bad(format!("result code {result}")))?;
        let end = End::from_code(end).ok_or_else(|| bad(format!("end code {end}")))?;
        let mut board = Board::startpos();
        let mut record = GameRecord {
            opening: Vec::with_capacity(opening_len as usize),
            scored: Vec::with_capacity(((plies - opening_len) as usize).min(body.len())),
            result,
            end,
        };
        let mut scores = Scores::default();
        let mut last_to = None;
        for ply in 0..plies {
            let opening = ply < opening_len;
            let (code, mv) = if opening {
                let code = m.opening_move.decode(&mut d);
                (code, decode_move(&board, code as u8))
            } else {
                decode_scored_move(&mut m, &mut d, &board, last_to)
            };
            truncated(&d, "moves")?;
            let mv = mv.ok_or_else(|| {
                bad(format!(
                    "ply {}: move code {code} is not a legal move",
                    ply + 1
                ))
            })?;
            if opening {
                record.opening.push(mv);
            } else if trained_ply(&board, mv, ply as usize) {
                let z = scores.model(&mut m).decode(&mut d);
                truncated(&d, "scores")?;
                let units = z
                    .and_then(|z| unzigzag(z).checked_add(scores.pred))
                    .ok_or_else(|| bad(format!("ply {}: bad score", ply + 1)))?;
                let score = Scores::score(units)
                    .ok_or_else(|| bad(format!("ply {}: bad score", ply + 1)))?;
                record.scored.push((mv, score));
                scores.advance(Some(units));
            } else {
                record.scored.push((mv, UNSCORED));
                scores.advance(None);
            }
            last_to = Some(mv.to().index() as u8);
            board.play(mv);
        }
        out.push(record);
    }
    if d.consumed() != body.len() {
        return Err(DataError::Malformed {
            game: games as usize,
            why: format!("{} bytes after the last game", body.len() - d.consumed()),
        });
    }
    Ok(out)
}
