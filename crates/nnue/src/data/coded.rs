//! The bodies of version 2 and 3 chunks: the games of version 1, range-coded (`range.rs`).
//!
//! Version 2 codes the same fields in the same order, each under its own adaptive model:
//!
//! | field | model |
//! |---|---|
//! | plies, opening plies | [`Magnitude`] each |
//! | result, end | [`BitTree`] of 2 and 3 bits |
//! | an opening move's byte | a [`BitTree`] of 8 bits |
//! | a scored move's byte | another [`BitTree`] of 8 bits |
//! | a score | `zigzag(score + previous score)` under one of four [`Magnitude`]s, chosen by the previous score's size |
//!
//! Scores alternate sides, so a score is close to minus the one before it (0 before a game's
//! first scored ply): their sum is small and cheap. On the gen5 data this takes about 1.6
//! bytes a position where version 1 takes 3.
//!
//! Version 3 is version 2 without the scores no one trains on: a score is coded only for a
//! position [`trained_ply`] accepts (from ply 16 on, not in check, its move not a capture, en
//! passant or promotion; mate scores are kept, for the trainer's own mate filter), and
//! the other positions read back [`UNSCORED`]. A third of the positions of self-play data
//! are of that kind, and their scores took about a fifth of a version 2 body (1.69 → 1.39
//! bytes a position on chunks of gen1 and gen10). The prediction of a score is minus the
//! previous position's, or, when that one was not stored, the last stored score with its
//! sign flipped once per ply since; `zigzag(score − prediction)` is coded under one of eight
//! [`Magnitude`]s, chosen by the prediction's size and by whether the position before was
//! stored.

use super::packed::trained_ply;
use super::range::{unzigzag, zigzag, BitTree, Decoder, Encoder, Magnitude};
use super::record::{decode_move, encode_move, End, GameRecord, GameResult, UNSCORED};
use super::DataError;
use engram_chess::Board;

/// The models, in the state both sides start from.
#[derive(Default)]
struct Models {
    plies: Magnitude,
    opening_len: Magnitude,
    result: BitTree<2>,
    end: BitTree<3>,
    opening_move: BitTree<8>,
    scored_move: BitTree<8>,
    score: [Magnitude; 8],
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

/// The scores a body of `version` (2 or 3) holds, and how each is predicted: `pred` is the
/// predicted score of the next position (side to move's view), `gap` whether the position
/// before it went unstored.
struct Scores {
    keep_all: bool,
    pred: i32,
    gap: bool,
}

impl Scores {
    fn new(version: u32) -> Scores {
        assert!(
            version == 2 || version == 3,
            "coded bodies are versions 2 and 3"
        );
        Scores {
            keep_all: version == 2,
            pred: 0,
            gap: false,
        }
    }

    /// Whether the score of the position `board` before `mv` at `ply` is stored.
    fn stored(&self, board: &Board, mv: engram_chess::Move, ply: usize) -> bool {
        self.keep_all || trained_ply(board, mv, ply)
    }

    /// The model of the next stored score: by the prediction's size, and by whether the
    /// position before was stored.
    fn model<'m>(&self, m: &'m mut Models) -> &'m mut Magnitude {
        &mut m.score[score_context(self.pred) + 4 * usize::from(self.gap)]
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

/// The coded body of `games` in `version` 2 or 3.
///
/// Panics if a move is illegal (records are built by playing the moves), or if a version 3
/// body would need a score the record does not have ([`UNSCORED`] on a trained position).
pub fn encode_games(games: &[GameRecord], version: u32) -> Vec<u8> {
    let mut m = Models::default();
    let mut e = Encoder::default();
    for g in games {
        m.plies.encode(&mut e, g.plies() as u32);
        m.opening_len.encode(&mut e, g.opening.len() as u32);
        m.result.encode(&mut e, u32::from(g.result.code()));
        m.end.encode(&mut e, u32::from(g.end.code()));
        let mut board = Board::startpos();
        for &mv in &g.opening {
            let code = encode_move(&board, mv).expect("recorded moves are legal");
            m.opening_move.encode(&mut e, u32::from(code));
            board.play(mv);
        }
        let mut scores = Scores::new(version);
        for (i, &(mv, score)) in g.scored.iter().enumerate() {
            let code = encode_move(&board, mv).expect("recorded moves are legal");
            m.scored_move.encode(&mut e, u32::from(code));
            if scores.stored(&board, mv, g.opening.len() + i) {
                assert!(
                    version == 2 || score != UNSCORED,
                    "a trained position without a score"
                );
                let score = i32::from(score);
                scores
                    .model(&mut m)
                    .encode(&mut e, zigzag(score - scores.pred));
                scores.advance(Some(score));
            } else {
                scores.advance(None);
            }
            board.play(mv);
        }
    }
    e.finish()
}

/// The games of a coded body of `version` 2 or 3, every move replayed and checked; `games`
/// from the header.
pub fn decode_games(body: &[u8], games: u32, version: u32) -> Result<Vec<GameRecord>, DataError> {
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
        let mut scores = Scores::new(version);
        for ply in 0..plies {
            let opening = ply < opening_len;
            let model = if opening {
                &mut m.opening_move
            } else {
                &mut m.scored_move
            };
            let code = model.decode(&mut d) as u8;
            truncated(&d, "moves")?;
            let mv = decode_move(&board, code).ok_or_else(|| {
                bad(format!(
                    "ply {}: move code {code} is not a legal move",
                    ply + 1
                ))
            })?;
            if opening {
                record.opening.push(mv);
            } else if scores.stored(&board, mv, ply as usize) {
                let z = scores.model(&mut m).decode(&mut d);
                truncated(&d, "scores")?;
                let score = z
                    .map(|z| unzigzag(z) + scores.pred)
                    .and_then(|s| i16::try_from(s).ok())
                    .filter(|&s| version == 2 || s != UNSCORED)
                    .ok_or_else(|| bad(format!("ply {}: bad score", ply + 1)))?;
                record.scored.push((mv, score));
                scores.advance(Some(i32::from(score)));
            } else {
                record.scored.push((mv, UNSCORED));
                scores.advance(None);
            }
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
