//! One self-play game: random opening plies, then fixed-node searches to the end or to an
//! adjudication. Everything depends only on the run's seed, the game's number and the
//! settings, never on timing, so a game is the same on any thread and in any run.

use crate::config::EngineConfig;
use crate::search::{SearchLimits, MATE_BOUND};
use crate::session::Session;
use engram_chess::{Board, Position};
use engram_train::data::{End, GameRecord, GameResult};
use engram_train::rng::Rng;
use std::sync::Arc;

/// A win is adjudicated after this many plies in a row at or beyond [`WIN_SCORE`] (for the
/// same side, both sides agreeing).
pub const WIN_PLIES: usize = 4;
/// The score (centipawns) that counts as decisive.
pub const WIN_SCORE: i32 = 2000;
/// A draw is adjudicated after this many plies in a row within ±[`DRAW_SCORE`] ...
pub const DRAW_PLIES: usize = 12;
/// ... the score that counts as dead level ...
pub const DRAW_SCORE: i32 = 10;
/// ... once the game is this many plies long.
pub const DRAW_MIN_PLY: usize = 60;
/// A game this long is stopped and scored a draw.
pub const MAX_PLIES: usize = 400;
/// A random opening whose searched score is beyond this is thrown away and drawn again.
pub const OPENING_MAX_SCORE: i32 = 1000;

/// The generator of game `game` of the run with `seed` (SplitMix64, one output skipped).
pub fn game_rng(seed: u64, game: u64) -> Rng {
    let mut r = Rng::new(seed ^ game.wrapping_mul(0xd1b5_4a32_d192_ed03));
    r.next_u64();
    r
}

/// A number in `0..n` (`n` > 0) from the high 32 bits of the next output.
fn pick(rng: &mut Rng, n: usize) -> usize {
    (((rng.next_u64() >> 32) * n as u64) >> 32) as usize
}

/// How games are played.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Nodes per move.
    pub nodes: u64,
    /// Random plies at the start: this many, or one more (half the games each).
    pub random_plies: usize,
    /// The table's size in MiB (cleared before each game).
    pub hash_mib: usize,
    /// The network evaluating positions (`None`: the hand-crafted evaluation).
    pub nnue: Option<Arc<engram_nnue::Network>>,
}

/// A player of self-play games: a one-thread engine with its own table.
pub struct Player {
    engine: Session,
    settings: Settings,
}

impl Player {
    /// A player with a fresh table of `settings.hash_mib`.
    pub fn new(settings: Settings) -> Result<Player, String> {
        let mut config = EngineConfig {
            hash: settings.hash_mib,
            use_nnue: settings.nnue.is_some(),
            ..EngineConfig::default()
        };
        if let Some(net) = &settings.nnue {
            config.net = net.clone();
        }
        let engine = Session::new(config)?;
        Ok(Player { engine, settings })
    }

    /// The search's move and score (side to move's view) at `pos`.
    fn search(&mut self, pos: &Position) -> (engram_chess::Move, i32) {
        let limits = SearchLimits {
            nodes: Some(self.settings.nodes),
            ..SearchLimits::default()
        };
        let r = self.engine.search(&pos.reversible_tail(), limits);
        (r.best, r.score)
    }

    /// A random opening that is not already decided: `random_plies` (or one more) random legal
    /// moves whose resulting position searches within ±[`OPENING_MAX_SCORE`].
    fn opening(&mut self, rng: &mut Rng) -> Position {
        loop {
            let mut pos = Position::new(Board::startpos());
            let plies = self.settings.random_plies + pick(rng, 2);
            let mut ok = true;
            for _ in 0..plies {
                let moves = pos.board().legal_moves();
                if moves.is_empty() {
                    ok = false;
                    break;
                }
                pos.make(moves.as_slice()[pick(rng, moves.len())]);
            }
            if ok && !pos.board().legal_moves().is_empty() {
                let (_, score) = self.search(&pos);
                if score.abs() <= OPENING_MAX_SCORE {
                    return pos;
                }
            }
        }
    }

    /// Plays game number `game` of the run with `seed`.
    pub fn play(&mut self, seed: u64, game: u64) -> GameRecord {
        self.engine.new_game();
        let mut rng = game_rng(seed, game);
        let mut pos = self.opening(&mut rng);
        let mut record = GameRecord {
            opening: pos.moves().to_vec(),
            scored: Vec::new(),
            result: GameResult::Draw,
            end: End::MaxLength,
        };
        let (mut win_run, mut draw_run) = (0usize, 0usize);
        let mut last_winner = None;
        loop {
            let board = *pos.board();
            if let Some((result, end)) = game_over(&pos) {
                record.result = result;
                record.end = end;
                break;
            }
            if pos.ply() >= MAX_PLIES {
                break;
            }
            let (best, score) = self.search(&pos);
            record
                .scored
                .push((best, score.clamp(-32_000, 32_000) as i16));
            pos.make(best);

            // Adjudication on the score from White's view.
            let white = if board.side_to_move() == engram_chess::Color::White {
                score
            } else {
                -score
            };
            if white.abs() >= WIN_SCORE || white.abs() >= MATE_BOUND {
                let winner = white > 0;
                win_run = if last_winner == Some(winner) {
                    win_run + 1
                } else {
                    1
                };
                last_winner = Some(winner);
            } else {
                win_run = 0;
                last_winner = None;
            }
            draw_run = if white.abs() <= DRAW_SCORE {
                draw_run + 1
            } else {
                0
            };
            if win_run >= WIN_PLIES {
                record.result = if white > 0 {
                    GameResult::WhiteWins
                } else {
                    GameResult::BlackWins
                };
                record.end = End::AdjudicatedWin;
                break;
            }
            if draw_run >= DRAW_PLIES && pos.ply() >= DRAW_MIN_PLY {
                record.end = End::AdjudicatedDraw;
                break;
            }
        }
        record
    }
}

/// The result if the game is over by the rules: mate, stalemate, threefold repetition, the
/// fifty-move rule, or insufficient material.
fn game_over(pos: &Position) -> Option<(GameResult, End)> {
    let b = pos.board();
    if b.legal_moves().is_empty() {
        return Some(if b.in_check() {
            let result = if b.side_to_move() == engram_chess::Color::White {
                GameResult::BlackWins
            } else {
                GameResult::WhiteWins
            };
            (result, End::Checkmate)
        } else {
            (GameResult::Draw, End::Stalemate)
        });
    }
    let end = if pos.repetitions() >= 2 {
        End::Repetition
    } else if pos.is_fifty_move_draw() {
        End::FiftyMoves
    } else if b.is_insufficient_material() {
        End::InsufficientMaterial
    } else {
        return None;
    };
    Some((GameResult::Draw, end))
}
