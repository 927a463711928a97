//! `engram analyse --pgn FILE [--game N|all]`: every move of each game searched and annotated.
//!
//! Each position of a game is searched once (the one before each move, and the last): the
//! search of the position before a move gives the best move and its score, the search of
//! the position after it gives the played move's score. Each move then gets
//! * a comment with the evaluation after it, White's view, in the `[%eval 0.35,18]` form
//!   (pawns, then depth; `#-3` for mates) that lichess and python-chess read;
//! * when it is not the engine's choice, a variation with the engine's line and its
//!   evaluation;
//! * a NAG `?!`, `?` or `??` from the drop in expected score (`judge.rs`), with a comment such
//!   as `Mistake. Nf3 was best.`
//!
//! The game keeps its tags, comments, NAGs and variations; `Annotator` is set to Engram.
//! A game that cannot be read (bad FEN tag, illegal move, ...) is reported on standard error
//! with its number, players, line and move, and the other games are annotated all the same.

use super::judge::judge;
use super::session::{Limits, Session};
use super::text::{self, Json};
use crate::search::SearchResult;
use engram_chess::pgn::{self, Game, PgnError};
use engram_chess::{Board, Position};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::Path;

/// Which games of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Select {
    /// Every game.
    All,
    /// Game N (from 1).
    One(usize),
    /// Shard `index` of `count` (`index` from 1): games `index`, `index + count`,
    /// `index + 2 count`, ... (`--shard I/N`, for job arrays).
    Shard {
        /// Which shard, from 1 to `count`.
        index: usize,
        /// How many shards the file is split into.
        count: usize,
    },
}

impl Select {
    /// `all` or a number from 1.
    pub fn parse(text: &str) -> Result<Select, String> {
        if text.eq_ignore_ascii_case("all") {
            return Ok(Select::All);
        }
        match text.parse::<usize>() {
            Ok(n) if n >= 1 => Ok(Select::One(n)),
            _ => Err(format!(
                "--game takes a game number from 1 or 'all', not '{text}'"
            )),
        }
    }

    /// `I/N`, with `1 <= I <= N`: shard I of N.
    pub fn parse_shard(text: &str) -> Result<Select, String> {
        let bad = || {
            format!(
                "--shard takes I/N with 1 <= I <= N (shards count from 1, as a Slurm job \
                 array --array=1-N does), not '{text}'"
            )
        };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        match (i.trim().parse::<usize>(), n.trim().parse::<usize>()) {
            (Ok(index), Ok(count)) if index >= 1 && index <= count => {
                Ok(Select::Shard { index, count })
            }
            _ => Err(bad()),
        }
    }
}

/// A game of a file: its number (from 1), and the game or why it could not be read.
pub type Numbered = (usize, Result<Game, PgnError>);

/// The games `select` picks from `text`, each with its number in the file (from 1).
pub fn pick(text: &str, select: Select) -> Result<Vec<Numbered>, String> {
    let games: Vec<Numbered> = pgn::read_games(text)
        .into_iter()
        .enumerate()
        .map(|(i, g)| (i + 1, g))
        .collect();
    match select {
        Select::All => Ok(games),
        Select::Shard { index, count } => Ok(games
            .into_iter()
            .filter(|(n, _)| (n - 1) % count == index - 1)
            .collect()),
        Select::One(n) if n <= games.len() => Ok(games.into_iter().skip(n - 1).take(1).collect()),
        Select::One(n) => Err(format!(
            "there is no game {n}: the file has {} game{}",
            games.len(),
            if games.len() == 1 { "" } else { "s" }
        )),
    }
}

/// `[%eval 0.35,18]` for a White's-view score at `depth`.
pub fn eval_command(white_score: i32, depth: i32) -> String {
    let value = match text::mate_moves(white_score) {
        Some(n) => format!("#{n}"),
        None => format!("{:.2}", f64::from(white_score) / 100.0),
    };
    format!("[%eval {value},{depth}]")
}

/// One searched position of a game.
struct Searched {
    board: Board,
    result: SearchResult,
}

/// Searches every position of `game` (the progress bar counts them) and returns the game
/// annotated. The game is analysed as a new game (`Session::new_game`), so its annotation
/// does not depend on the games analysed before it: a game comes out the same in a shard
/// as in a run over the whole file, given a node or depth limit and one thread.
fn annotate(
    session: &mut Session,
    game: &Game,
    number: usize,
    limits: &Limits,
    bar: &ProgressBar,
    json: bool,
) -> Game {
    session.new_game();
    let players = players(game);
    let mut pos = Position::new(game.start);
    let mut searched = Vec::with_capacity(game.moves.len() + 1);
    for ply in 0..=game.moves.len() {
        let board = *pos.board();
        let label = game
            .move_label(ply)
            .unwrap_or_else(|| "final position".into());
        bar.set_message(format!("game {number}{players}: {label}"));
        let result = session.search(&pos, limits, |_| {});
        bar.inc(1);
        searched.push(Searched { board, result });
        if let Some(&mv) = game.moves.get(ply) {
            pos.make(mv);
        }
    }

    let mut out = game.clone();
    out.set_tag("Annotator", crate::NAME);
    out.notes.resize_with(out.moves.len(), Default::default);
    for ply in 0..game.moves.len() {
        let (before, after) = (&searched[ply], &searched[ply + 1]);
        let mv = game.moves[ply];
        let best = before.result.best;
        let is_best = best == mv;
        // Scores from the mover's view: the best move's, and the played move's (the score of
        // the position after it, from the other side).
        let best_score = before.result.score;
        let played_score = -after.result.score;
        let judgement = judge(best_score, played_score, is_best);
        let white_after = text::white_view(&after.board, after.result.score);
        let notes = &mut out.notes[ply];
        let mut comment = String::new();
        if let Some(j) = judgement {
            if !notes.nags.iter().any(|n| matches!(n.0, 1..=6)) {
                notes.nags.push(j.nag());
            }
            comment += &format!("{}. {} was best. ", j.word(), before.board.to_san(best));
        }
        // A game-ending position (mate, stalemate) speaks for itself.
        if !after.result.best.is_null() {
            comment += &eval_command(white_after, after.result.depth);
        }
        if !comment.is_empty() {
            notes.comments.push(comment.trim_end().to_string());
        }
        if !is_best && !best.is_null() {
            let white_best = text::white_view(&before.board, best_score);
            if let Ok(v) = out.add_variation(ply, &before.result.pv) {
                if let Some(first) = v.notes.first_mut() {
                    first
                        .comments
                        .push(eval_command(white_best, before.result.depth));
                }
            }
        }
        if json {
            let (pv, pv_uci) = text::move_texts(&before.board, &before.result.pv);
            let mut line = Json::new()
                .str("type", "move")
                .num("game", number)
                .num("ply", ply + 1)
                .str("label", &game.move_label(ply).unwrap_or_default())
                .str("move", &before.board.to_san(mv))
                .str("move_uci", &before.board.to_uci(mv))
                .score("score", white_after)
                .num("depth", after.result.depth);
            line = match judgement {
                Some(j) => line.str("nag", j.nag().suffix().unwrap_or("")),
                None => line.raw("nag", "null"),
            };
            if best.is_null() {
                line = line.raw("best", "null");
            } else {
                line = line
                    .str("best", &before.board.to_san(best))
                    .str("best_uci", &before.board.to_uci(best))
                    .score("best_score", text::white_view(&before.board, best_score))
            }
            println!("{}", line.strs("pv", &pv).strs("pv_uci", &pv_uci).line());
        }
    }
    out
}

/// ` (White - Black)` from the tags, or nothing.
fn players(game: &Game) -> String {
    match (game.tag("White"), game.tag("Black")) {
        (Some(w), Some(b)) => format!(" ({w} - {b})"),
        _ => String::new(),
    }
}

/// Annotates the games `select` picks from the PGN file at `path`; writes the annotated PGN
/// to `out` (atomically) or, without `--json`, to standard output. Games that cannot be read
/// are reported and skipped; the run then ends in an error naming how many.
pub fn run(
    session: &mut Session,
    path: &Path,
    select: Select,
    out: Option<&Path>,
    limits: &Limits,
    json: bool,
) -> Result<(), String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let games = pick(&text, select)?;
    let total: u64 = games
        .iter()
        .map(|(_, g)| g.as_ref().map_or(0, |g| g.moves.len() as u64 + 1))
        .sum();
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} positions, {elapsed} elapsed, about {eta} left  {wide_msg}",
        )
        .expect("the template is valid"),
    );
    let mut errors = 0usize;
    let mut annotated = Vec::new();
    for (number, game) in &games {
        match game {
            Ok(game) => annotated.push(annotate(session, game, *number, limits, &bar, json)),
            Err(e) => {
                errors += 1;
                if json {
                    println!(
                        "{}",
                        Json::new()
                            .str("type", "error")
                            .num("game", number)
                            .str("message", &e.to_string())
                            .line()
                    );
                }
                bar.suspend(|| eprintln!("error: {e}"));
            }
        }
    }
    bar.finish_and_clear();
    let pgn = pgn::write_games(&annotated).map_err(|e| format!("cannot write the PGN: {e}"))?;
    match out {
        Some(path) => engram_tt::write_atomic(path, |f| {
            use std::io::Write;
            f.write_all(pgn.as_bytes())
        })
        .map_err(|e| format!("cannot write '{}': {e}", path.display()))?,
        None if !json => print!("{pgn}"),
        None => {}
    }
    if errors > 0 {
        return Err(format!(
            "{errors} of {} game{} could not be read (see above); the others were annotated",
            games.len(),
            if games.len() == 1 { "" } else { "s" }
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    #[test]
    fn eval_commands() {
        assert_eq!(eval_command(35, 18), "[%eval 0.35,18]");
        assert_eq!(eval_command(-120, 9), "[%eval -1.20,9]");
        assert_eq!(eval_command(-(MATE - 5), 12), "[%eval #-3,12]");
    }

    #[test]
    fn selecting_games() {
        let text = "1. e4 e5 *\n\n1. d4 d5 *\n";
        assert_eq!(pick(text, Select::All).unwrap().len(), 2);
        let one = pick(text, Select::One(2)).unwrap();
        assert_eq!(one[0].0, 2);
        assert!(pick(text, Select::One(3))
            .unwrap_err()
            .contains("the file has 2 games"));
        assert!(Select::parse("0").is_err() && Select::parse("x").is_err());
        assert_eq!(Select::parse("ALL"), Ok(Select::All));
    }

    #[test]
    fn shards_split_the_games() {
        let text = "1. e4 *\n\n1. d4 *\n\n1. c4 *\n\n1. Nf3 *\n\n1. g3 *\n";
        let numbers = |i, n| -> Vec<usize> {
            pick(text, Select::Shard { index: i, count: n })
                .unwrap()
                .into_iter()
                .map(|(k, _)| k)
                .collect()
        };
        assert_eq!(numbers(1, 2), [1, 3, 5]);
        assert_eq!(numbers(2, 2), [2, 4]);
        assert_eq!(numbers(3, 3), [3]);
        assert_eq!(numbers(1, 1), [1, 2, 3, 4, 5]);
        assert_eq!(numbers(5, 7), [5]);
        assert!(numbers(6, 7).is_empty());
        assert_eq!(
            Select::parse_shard("2/4"),
            Ok(Select::Shard { index: 2, count: 4 })
        );
        for bad in ["0/4", "5/4", "1", "a/b", "1/0", "-1/2", "/"] {
            let e = Select::parse_shard(bad).unwrap_err();
            assert!(e.contains("1 <= I <= N"), "{bad}: {e}");
        }
    }
}
