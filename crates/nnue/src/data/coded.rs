//! The body of a version 2 chunk: the games of version 1, range-coded (`range.rs`).
//!
//! The same fields in the same order, each under its own adaptive model:
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

use super::range::{unzigzag, zigzag, BitTree, Decoder, Encoder, Magnitude};
use super::record::{decode_move, encode_move, End, GameRecord, GameResult};
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
    score: [Magnitude; 4],
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

/// The coded body of `games`.
///
/// Panics if a move is illegal: records are built by playing the moves.
pub fn encode_games(games: &[GameRecord]) -> Vec<u8> {
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
        let mut prev = 0i32;
        for &(mv, score) in &g.scored {
            let code = encode_move(&board, mv).expect("recorded moves are legal");
            m.scored_move.encode(&mut e, u32::from(code));
            let score = i32::from(score);
            m.score[score_context(prev)].encode(&mut e, zigzag(score + prev));
            prev = score;
            board.play(mv);
        }
    }
    e.finish()
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
        let mut prev = 0i32;
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
            } else {
                let z = m.score[score_context(prev)].decode(&mut d);
                truncated(&d, "scores")?;
                let score = z
                    .map(|z| unzigzag(z) - prev)
                    .and_then(|s| i16::try_from(s).ok())
                    .ok_or_else(|| bad(format!("ply {}: bad score", ply + 1)))?;
                record.scored.push((mv, score));
                prev = i32::from(score);
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
