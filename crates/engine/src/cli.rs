//! The `engram` command line (clap, derive). Without a command it is the UCI engine; each
//! subcommand is a [`Command`] variant with its own arguments struct and `run`, so new ones
//! (`analyse`, `hash`, `datagen`, ...) plug in as new variants. Argument limits come from the
//! constants the UCI side uses too ([`crate::options`], [`crate::perft::MAX_DEPTH`],
//! [`crate::bench::MAX_DEPTH`]).

use crate::args::{hash_parser, threads_parser, EngineArgs};
use crate::config::EngineConfig;
use crate::{bench, perft};
use clap::{value_parser, Args, Parser, Subcommand};
use engram_chess::{Board, STARTPOS};
use std::time::Instant;

/// Engram: a UCI chess engine built around its transposition table.
///
/// Without a command, speaks UCI on standard input and output (point a chess GUI,
/// cutechess-cli or fastchess at this binary).
#[derive(Debug, Parser)]
#[command(name = "Engram", bin_name = "engram", version)]
pub struct Cli {
    /// What to run instead of the UCI engine.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the leaf nodes of the legal move tree, divided by root move (as `go perft` prints).
    Perft(PerftArgs),
    /// Search the built-in positions to a fixed depth; prints the node count (with one
    /// thread, the `Bench:` signature of commits) and the speed.
    Bench(BenchArgs),
    /// Hash files (saved tables and compact memories).
    #[command(subcommand)]
    Hash(HashCommand),
    /// Show the moves a Polyglot opening book holds for a position.
    Book(BookArgs),
    /// Analyse a position, or annotate the games of a PGN file, for people (or as JSON).
    Analyse(crate::analyse::AnalyseArgs),
    /// Play self-play games at fixed nodes per move and write them as training data
    /// (resumable, deterministic for a seed).
    #[cfg(feature = "train")]
    Datagen(crate::datagen::DatagenArgs),
    /// Train a network on self-play data (the `(768 -> H) x 2 -> 1` NNUE) and write it
    /// quantised, with a plot of the losses.
    #[cfg(feature = "train")]
    Train(crate::train_cmd::TrainArgs),
    /// Fit the win/draw/loss model (`UCI_ShowWDL`) on self-play data and plot it.
    #[cfg(feature = "train")]
    FitWdl(crate::wdl_fit::FitWdlArgs),
}

/// `engram hash ...`.
#[derive(Debug, Subcommand)]
pub enum HashCommand {
    /// Show what a hash file's header says (checked, without reading the entries).
    Info {
        /// The hash file.
        file: std::path::PathBuf,
    },
    /// Merge hash files, keeping the deeper entry per position. Compact memories give a
    /// compact memory; if any input is a full table, the output is a full table of the same
    /// size (every full input must have that size; compact inputs are re-inserted into it).
    Merge {
        /// The files to merge (at least one).
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// The merged file (written atomically; it may be one of the inputs).
        #[arg(long, short = 'o', value_name = "FILE")]
        out: std::path::PathBuf,
    },
}

impl HashCommand {
    /// Runs the hash subcommand.
    pub fn run(&self) -> Result<(), String> {
        match self {
            HashCommand::Info { file } => {
                let info = engram_tt::read_info(file).map_err(|e| e.to_string())?;
                print!("{}", info_text(&info));
                Ok(())
            }
            HashCommand::Merge { files, out } => {
                println!("{}", crate::hashfile::merge(files, out)?);
                Ok(())
            }
        }
    }
}

/// `engram book FILE [--fen FEN] [--moves "e2e4 e7e5 ..."]`.
#[derive(Debug, Args)]
pub struct BookArgs {
    /// The Polyglot book (`.bin`).
    pub file: std::path::PathBuf,
    /// The position (default: the start position).
    #[arg(long, default_value = STARTPOS)]
    pub fen: String,
    /// Moves played from that position first (UCI or SAN, separated by spaces).
    #[arg(long, default_value = "")]
    pub moves: String,
}

impl BookArgs {
    /// The book's moves for the position, one line each: SAN, UCI, weight and share.
    pub fn run(&self) -> Result<String, String> {
        let book = engram_chess::Book::load(&self.file).map_err(|e| e.to_string())?;
        let mut board = Board::from_fen(&self.fen, false).map_err(|e| e.to_string())?;
        for text in self.moves.split_whitespace() {
            let mv = board
                .parse_uci(text)
                .or_else(|_| board.parse_san(text))
                .map_err(|_| format!("'{text}' is not a legal move here"))?;
            board.play(mv);
        }
        let moves = book.moves(&board);
        if moves.is_empty() {
            return Ok(format!("no book moves for {}\n", board.to_fen()));
        }
        let total: u64 = moves.iter().map(|b| u64::from(b.weight)).sum();
        let mut out = format!("{} book moves for {}\n", moves.len(), board.to_fen());
        for b in &moves {
            let share = 100.0 * f64::from(b.weight) / total.max(1) as f64;
            out += &format!(
                "{:<8} {:<6} weight {:>5}  {share:5.1}%\n",
                board.to_san(b.mv),
                board.to_uci(b.mv),
                b.weight
            );
        }
        Ok(out)
    }
}

/// The lines `engram hash info` prints.
pub fn info_text(info: &engram_tt::FileInfo) -> String {
    let mut out = format!("kind          {}\n", info.kind);
    out += &format!("format        version {}\n", info.version);
    out += &format!("key scheme    {}\n", info.key_scheme);
    out += &format!("writer        {}\n", info.writer);
    out += &format!("written       {} (seconds since 1970)\n", info.written);
    if info.kind == engram_tt::FileKind::Full {
        out += &format!(
            "table         {} clusters, {:.2} MiB, generation {}\n",
            info.clusters,
            info.table_bytes() as f64 / f64::from(1u32 << 20),
            info.generation
        );
    }
    out += &format!("entries       {}\n", info.entries);
    out += &format!("file          {} bytes\n", info.file_bytes());
    out += &format!(
        "checksum      {:016x} (XXH3-64 of the payload)\n",
        info.checksum
    );
    out
}

/// `engram perft <depth> [--fen FEN] [--chess960] [--hash MiB] [--threads N]`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Plies to search (0 counts the position itself).
    #[arg(value_parser = value_parser!(u32).range(0..=i64::from(perft::MAX_DEPTH)))]
    pub depth: u32,
    /// The position, in FEN (X-FEN or Shredder-FEN with --chess960).
    #[arg(long, value_name = "FEN", default_value = STARTPOS, hide_default_value = true)]
    pub fen: String,
    /// Chess960: castling rights in X-FEN or Shredder-FEN, castling moves as king-takes-rook.
    #[arg(long)]
    pub chess960: bool,
    /// Perft table size in MiB (any size): the counts of subtrees are kept and a subtree
    /// reached again by transposition is not walked again. 0, the default, is no table:
    /// every node is visited, the plain reference count for checking move generation.
    #[arg(
        long,
        value_name = "MiB",
        default_value_t = 0,
        value_parser = hash_parser(0),
    )]
    pub hash: usize,
    /// Threads counting at once, sharing the table; the output does not depend on it.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        value_parser = threads_parser(),
    )]
    pub threads: usize,
}

/// `engram bench [depth] [--no-tt] [--threads N] [--hash MiB] [--private-tt]
/// [--etc BOOL] [--nnue BOOL] [--eval-file PATH]`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Search depth per position.
    #[arg(
        default_value_t = bench::DEFAULT_DEPTH,
        value_parser = value_parser!(i32).range(1..=i64::from(bench::MAX_DEPTH)),
    )]
    pub depth: i32,
    /// Disable the transposition table (to measure what it saves).
    #[arg(long)]
    pub no_tt: bool,
    /// Threads and table size.
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Give each thread its own table instead of sharing one.
    #[arg(long)]
    pub private_tt: bool,
    /// Enhanced transposition cutoffs (the UCI option `ETC`).
    #[arg(long, value_name = "BOOL", default_value_t = crate::config::ETC_DEFAULT, action = clap::ArgAction::Set)]
    pub etc: bool,
    /// Evaluate with the network (the UCI option `Use NNUE`).
    #[arg(long, value_name = "BOOL", default_value_t = crate::config::NNUE_DEFAULT, action = clap::ArgAction::Set)]
    pub nnue: bool,
    /// The network file for `--nnue true` (the UCI option `EvalFile`; default: embedded).
    #[arg(long, value_name = "PATH")]
    pub eval_file: Option<std::path::PathBuf>,
}

impl Cli {
    /// Runs the command, or the UCI engine without one. An `Err` is the message to print
    /// after `error: ` (the process then exits non-zero).
    pub fn run(self) -> Result<(), String> {
        match self.command {
            #[cfg(feature = "cluster")]
            None => crate::cluster::mpi::run(),
            #[cfg(not(feature = "cluster"))]
            None => {
                crate::uci::Engine::new().run();
                Ok(())
            }
            Some(command) => command.run(),
        }
    }
}

impl Command {
    /// Runs the subcommand.
    pub fn run(self) -> Result<(), String> {
        match self {
            Command::Perft(args) => args.run(),
            Command::Bench(args) => bench::print(args.config()?),
            Command::Hash(hash) => hash.run(),
            Command::Book(args) => args.run().map(|text| print!("{text}")),
            Command::Analyse(args) => args.run(),
            #[cfg(feature = "train")]
            Command::Datagen(args) => args.run().map(|summary| println!("{summary}")),
            #[cfg(feature = "train")]
            Command::Train(args) => args.run(),
            #[cfg(feature = "train")]
            Command::FitWdl(args) => args.run(),
        }
    }
}

impl PerftArgs {
    /// Prints the divide to stdout and the time and speed to stderr (the time includes
    /// making the table, if any).
    pub fn run(&self) -> Result<(), String> {
        let board = Board::from_fen(&self.fen, self.chess960).map_err(|e| e.to_string())?;
        let start = Instant::now();
        let table = match self.hash {
            0 => None,
            mib => Some(perft::new_table(mib)?),
        };
        let total = perft::print_divide_with(&board, self.depth, table.as_ref(), self.threads);
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "time {:.3} s, {:.0} nodes/s",
            secs,
            total as f64 / secs.max(1e-9)
        );
        Ok(())
    }
}

impl BenchArgs {
    /// The bench configuration these arguments ask for (an error if the network file
    /// cannot be loaded).
    pub fn config(&self) -> Result<bench::Config, String> {
        let mut engine = EngineConfig {
            use_tt: !self.no_tt,
            threads: self.engine.threads,
            hash: self.engine.hash,
            etc: self.etc,
            use_nnue: self.nnue,
            ..EngineConfig::default()
        };
        if let (true, Some(path)) = (self.nnue, &self.eval_file) {
            engine.load_net(&path.to_string_lossy())?;
        }
        Ok(bench::Config {
            depth: self.depth,
            engine,
            private_tt: self.private_tt,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{HASH_MAX, THREADS_MAX};
    use clap::CommandFactory;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("engram").chain(args.iter().copied()))
    }

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn hash_info_shows_a_saved_table_and_refuses_a_bad_file() {
        let dir = std::env::temp_dir().join(format!("engram-cli-hash-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.hash");
        let table = engram_tt::Table::new(1).unwrap();
        table.store(42, engram_tt::Record::default());
        table.save(&path, "polyglot", "engram test").unwrap();
        let Some(Command::Hash(cmd)) = parse(&["hash", "info", path.to_str().unwrap()])
            .unwrap()
            .command
        else {
            panic!("not hash");
        };
        assert!(cmd.run().is_ok());
        let text = info_text(&engram_tt::read_info(&path).unwrap());
        assert!(text.contains("full table"), "{text}");
        assert!(text.contains("32768 clusters, 1.00 MiB"), "{text}");
        assert!(text.contains("entries       1\n"), "{text}");
        std::fs::write(&path, [b'x'; 200]).unwrap();
        let err = cmd.run().unwrap_err();
        assert!(err.contains("bad magic"), "{err}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn no_arguments_is_the_uci_engine() {
        assert!(parse(&[]).unwrap().command.is_none());
    }

    #[test]
    fn bench_defaults_are_the_bench_defaults() {
        let Some(Command::Bench(args)) = parse(&["bench"]).unwrap().command else {
            panic!("not bench");
        };
        let (got, want) = (args.config().unwrap(), bench::Config::default());
        let (g, w) = (&got.engine, &want.engine);
        assert_eq!(
            (got.depth, g.use_tt, g.threads, g.hash),
            (want.depth, w.use_tt, w.threads, w.hash)
        );
        assert_eq!(got.private_tt, want.private_tt);
        assert_eq!(
            (g.use_nnue, g.etc, &g.eval_file),
            (w.use_nnue, w.etc, &w.eval_file)
        );
    }

    #[test]
    fn perft_defaults_no_table_one_thread() {
        let Some(Command::Perft(args)) = parse(&["perft", "5"]).unwrap().command else {
            panic!("not perft");
        };
        assert_eq!((args.depth, args.hash, args.threads), (5, 0, 1));
        let cli = parse(&["perft", "--threads", "2", "6", "--hash", "100"]).unwrap();
        let Some(Command::Perft(args)) = cli.command else {
            panic!("not perft");
        };
        assert_eq!((args.depth, args.hash, args.threads), (6, 100, 2));
    }

    #[test]
    fn bench_flags_in_any_order() {
        let cli = parse(&[
            "bench",
            "--threads",
            "2",
            "9",
            "--no-tt",
            "--hash",
            "64",
            "--private-tt",
        ])
        .unwrap();
        let Some(Command::Bench(args)) = cli.command else {
            panic!("not bench");
        };
        let c = args.config().unwrap();
        let e = &c.engine;
        assert_eq!((c.depth, e.use_tt, e.threads, e.hash), (9, false, 2, 64));
        assert!(c.private_tt);
        let cli = parse(&["bench", "--nnue", "true", "--eval-file", "x.nnue", "5"]).unwrap();
        let Some(Command::Bench(args)) = cli.command else {
            panic!("not bench");
        };
        assert_eq!(args.eval_file, Some("x.nnue".into()));
        // The file does not exist: an error that names it, not a panic.
        let e = args.config().unwrap_err();
        assert!(e.contains("x.nnue"), "{e}");
    }

    #[test]
    fn limits_are_the_shared_constants() {
        let max = perft::MAX_DEPTH.to_string();
        let over = (perft::MAX_DEPTH + 1).to_string();
        assert!(parse(&["perft", "0"]).is_ok());
        assert!(parse(&["perft", &max]).is_ok());
        assert!(parse(&["perft", &over]).is_err());
        for (flag, min, max) in [("--threads", 1, THREADS_MAX), ("--hash", 0, HASH_MAX)] {
            assert!(parse(&["perft", "3", flag, &min.to_string()]).is_ok());
            assert!(parse(&["perft", "3", flag, &max.to_string()]).is_ok());
            assert!(parse(&["perft", "3", flag, &(max + 1).to_string()]).is_err());
        }
        assert!(parse(&["perft", "3", "--threads", "0"]).is_err());
        assert!(parse(&["perft", "3", "--hash", "-1"]).is_err());
        let max = bench::MAX_DEPTH.to_string();
        let over = (bench::MAX_DEPTH + 1).to_string();
        assert!(parse(&["bench", &max]).is_ok());
        assert!(parse(&["bench", &over]).is_err());
        assert!(parse(&["bench", "0"]).is_err());
        for (flag, max) in [("--threads", THREADS_MAX), ("--hash", HASH_MAX)] {
            assert!(parse(&["bench", flag, &max.to_string()]).is_ok());
            assert!(parse(&["bench", flag, &(max + 1).to_string()]).is_err());
            assert!(parse(&["bench", flag, "0"]).is_err());
            // The same declaration serves analyse and datagen.
            assert!(parse(&["analyse", flag, &max.to_string()]).is_ok());
            assert!(parse(&["analyse", flag, &(max + 1).to_string()]).is_err());
            assert!(parse(&["analyse", flag, "0"]).is_err());
            #[cfg(feature = "train")]
            assert!(parse(&["datagen", "--positions", "1", flag, "0"]).is_err());
        }
        // Analysis keeps its larger default table; bench has the engine's.
        let Some(Command::Analyse(a)) = parse(&["analyse"]).unwrap().command else {
            panic!("not analyse");
        };
        assert_eq!((a.engine.threads, a.engine.hash), (1, 64));
        let Some(Command::Bench(b)) = parse(&["bench"]).unwrap().command else {
            panic!("not bench");
        };
        let d = EngineConfig::default();
        assert_eq!((b.engine.threads, b.engine.hash), (d.threads, d.hash));
    }
}
