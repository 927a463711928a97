//! `engram analyse`: analysis for people, in their notation. One position (`--fen`,
//! `--moves`), or every move of the games of a PGN file (`--pgn`), annotated and written back
//! as PGN. `--json` gives one JSON object per line instead, for programs.
//!
//! | file | what it holds |
//! |---|---|
//! | `mod.rs` | the arguments and what runs |
//! | `session.rs` | the engine of one run: pool, table, the `--memory` file in and out |
//! | `position.rs` | one position: live lines and a summary |
//! | `game.rs` | PGN games: a search per move, comments, NAGs, the annotated PGN, progress |
//! | `judge.rs` | the NAGs: thresholds on the drop in expected score |
//! | `text.rs` | scores in pawns, SAN lines, JSON |

pub mod game;
pub mod judge;
pub mod position;
pub mod session;
pub mod text;

use crate::options::MULTIPV_MAX;
use clap::builder::RangedU64ValueParser;
use clap::{value_parser, Args};
use engram_chess::STARTPOS;
use session::{Limits, Session};
use std::path::PathBuf;

/// Seconds per position when no limit is given, for `--fen`.
pub const DEFAULT_POSITION_MS: u64 = 10_000;
/// Seconds per move when no limit is given, for `--pgn`.
pub const DEFAULT_MOVE_MS: u64 = 1_000;

/// `--hash` of `engram analyse`, MiB: more than the engine's default, for long analysis.
pub const ANALYSE_HASH_DEFAULT: &str = "64";

/// `engram analyse ...`.
#[derive(Debug, Args)]
#[command(mut_arg("hash", |a| a.default_value(ANALYSE_HASH_DEFAULT)))]
pub struct AnalyseArgs {
    /// The position, in FEN (default: the start position).
    #[arg(long, value_name = "FEN", conflicts_with = "pgn")]
    pub fen: Option<String>,
    /// Moves played from the position, in SAN or UCI, separated by spaces ("e4 e5 Nf3").
    #[arg(
        long,
        value_name = "MOVES",
        conflicts_with = "pgn",
        allow_hyphen_values = true
    )]
    pub moves: Option<String>,
    /// A PGN file: annotate every move of its games.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Which games of the PGN file: a number (the first is 1) or `all`.
    #[arg(long, value_name = "N|all", default_value = "all", requires = "pgn")]
    pub game: String,
    /// Only shard I of N of the games: games I, I+N, I+2N, ... (I from 1), so that N
    /// processes (a job array: `--shard $SLURM_ARRAY_TASK_ID/N`) split a collection; each
    /// game is analysed as a new game, so the shards' outputs together are one whole run's.
    #[arg(long, value_name = "I/N", requires = "pgn", conflicts_with = "game")]
    pub shard: Option<String>,
    /// Where to write the annotated PGN (default: standard output).
    #[arg(long, short = 'o', value_name = "FILE", requires = "pgn")]
    pub out: Option<PathBuf>,
    /// Search depth (per position, or per move of a game).
    #[arg(long, value_name = "PLIES", value_parser = value_parser!(i32).range(1..=127))]
    pub depth: Option<i32>,
    /// Milliseconds per position (per move of a game). Without any limit: 10 s a position,
    /// 1 s a move of a game.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Nodes per position (per move of a game).
    #[arg(long, value_name = "N", value_parser = value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Principal variations to show (positions only).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        value_parser = RangedU64ValueParser::<usize>::new().range(1..=MULTIPV_MAX as u64),
    )]
    pub multipv: usize,
    /// Threads and table size (`--hash` defaults to 64 MiB here).
    #[command(flatten)]
    pub engine: crate::args::EngineArgs,
    /// A compact memory file: loaded into the table before, merged with this run's deep
    /// entries and saved (atomically) after. Created if missing.
    #[arg(long, value_name = "FILE")]
    pub memory: Option<PathBuf>,
    /// The shallowest entries the memory keeps, in plies of search depth.
    #[arg(
        long,
        value_name = "PLIES",
        default_value_t = crate::hashfile::HARVEST_DEPTH,
        value_parser = value_parser!(i32).range(1..=100),
        requires = "memory"
    )]
    pub memory_depth: i32,
    /// One JSON object per line instead of text for people.
    #[arg(long)]
    pub json: bool,
    /// Chess960: X-FEN or Shredder-FEN castling.
    #[arg(long)]
    pub chess960: bool,
}

impl AnalyseArgs {
    /// The search limits: as given, or the default time when none is.
    pub fn limits(&self) -> Limits {
        let none = self.depth.is_none() && self.movetime.is_none() && self.nodes.is_none();
        let default_ms = if self.pgn.is_some() {
            DEFAULT_MOVE_MS
        } else {
            DEFAULT_POSITION_MS
        };
        Limits {
            depth: self.depth,
            movetime: if none {
                Some(default_ms)
            } else {
                self.movetime
            },
            nodes: self.nodes,
            multipv: if self.pgn.is_some() { 1 } else { self.multipv },
        }
    }

    /// Runs the analysis. An `Err` is the message for `error: ` (the process exits non-zero);
    /// for PGN input, games with errors are reported on stderr and the others annotated,
    /// and the run fails at the end if any game had one.
    pub fn run(&self) -> Result<(), String> {
        // Check the input before a large table is allocated.
        let pos = match &self.pgn {
            None => Some(position::setup(
                self.fen.as_deref().unwrap_or(STARTPOS),
                self.moves.as_deref().unwrap_or(""),
                self.chess960,
            )?),
            Some(_) => None,
        };
        let select = match (&self.pgn, &self.shard) {
            (Some(_), Some(shard)) => Some(game::Select::parse_shard(shard)?),
            (Some(_), None) => Some(game::Select::parse(&self.game)?),
            (None, _) => None,
        };
        let limits = self.limits();
        let (mut session, note) = Session::new(
            self.engine.threads,
            self.engine.hash,
            limits.multipv,
            self.memory.clone(),
            self.memory_depth,
        )?;
        if let Some(note) = note {
            eprintln!("{note}");
        }
        let outcome = match (&pos, &self.pgn, select) {
            (Some(pos), _, _) => {
                position::run(&mut session, pos, &limits, self.json);
                Ok(())
            }
            (None, Some(path), Some(select)) => game::run(
                &mut session,
                path,
                select,
                self.out.as_deref(),
                &limits,
                self.json,
            ),
            _ => Ok(()),
        };
        // The memory is written even when some games had errors: the work done is kept.
        if let Some(note) = session.finish()? {
            eprintln!("{note}");
        }
        outcome
    }
}
