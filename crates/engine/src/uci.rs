//! The UCI protocol: commands in from stdin, `info`/`bestmove` out. The main thread reads and
//! handles commands; searches run on the thread pool ([`crate::pool`]), whose main thread
//! prints `bestmove` itself, so
//! `isready`, `stop`, `ponderhit` and `quit` take effect while it runs. Bad input never panics
//! and never exits: it gets `info string error: ...` and the state stays as it was.

use crate::eval::{nnue, Evaluator};
use crate::options::{self, Setting};
use crate::pool::Pool;
use crate::search::{Control, SearchLimits};
use crate::time::Clock;
use crate::{bench, hashfile, perft};
use engram_chess::{Board, Color, Position, STARTPOS};
use engram_nnue::Network;
use engram_tt::Table;
use std::io::{self, BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

/// The engine's option values, as set with `setoption` (declared in [`crate::options`]).
/// `Threads` lives in the pool and `Ponder` needs no value.
#[derive(Clone, Debug)]
pub struct Options {
    /// Table size in MiB.
    pub hash: usize,
    /// Principal variations to report.
    pub multipv: usize,
    /// Milliseconds lost per move in communication.
    pub move_overhead: u64,
    /// Chess960 castling notation and FEN.
    pub chess960: bool,
    /// `Replacement`: the table's policy, by name.
    pub replacement: &'static str,
    /// `Replacement Age`: the buckets policies' age weight.
    pub replacement_age: u8,
    /// `Hash File`: where `Save Hash to File` writes and `Load Hash from File` reads.
    pub hash_file: String,
    /// `Never Clear Hash`: `ucinewgame` keeps the table.
    pub never_clear_hash: bool,
    /// `ETC`: enhanced transposition cutoffs.
    pub etc: bool,
    /// `EvalFile`: the network file loaded (empty: the embedded network).
    pub eval_file: String,
    /// `Use NNUE`: evaluate with the network.
    pub use_nnue: bool,
}

impl Options {
    /// The table configuration these options ask for, at `mib` MiB.
    pub fn table_config(&self, mib: usize) -> engram_tt::Config {
        engram_tt::Config {
            mib,
            policy: options::policy(self.replacement, self.replacement_age),
            huge_pages: true,
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash: options::HASH_DEFAULT,
            multipv: 1,
            move_overhead: options::OVERHEAD_DEFAULT,
            chess960: false,
            replacement: options::REPLACEMENT_VARS[0],
            replacement_age: 8,
            hash_file: String::new(),
            never_clear_hash: false,
            etc: options::ETC_DEFAULT,
            eval_file: String::new(),
            use_nnue: options::NNUE_DEFAULT,
        }
    }
}

/// The UCI engine state.
pub struct Engine {
    control: Arc<Control>,
    pool: Pool,
    position: Position,
    options: Options,
    /// The network `EvalFile` loaded (the embedded one at first).
    net: Arc<Network>,
}

fn error(msg: impl AsRef<str>) {
    println!("info string error: {}", msg.as_ref());
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// A new engine with default options.
    pub fn new() -> Engine {
        let options = Options::default();
        let tt = Arc::new(
            Table::with_config(options.table_config(options.hash))
                .expect("a 16 MiB table can be allocated"),
        );
        let control = Arc::new(Control::default());
        let pool = Pool::new(1, tt, control.clone());
        Engine {
            control,
            pool,
            position: Position::new(Board::startpos()),
            options,
            net: crate::eval::nnue::default_net(),
        }
    }

    /// Reads commands from stdin until `quit` or end of input.
    pub fn run(&mut self) {
        let stdin = io::stdin();
        let mut line = String::new();
        loop {
            line.clear();
            match stdin.lock().read_line(&mut line) {
                Ok(0) => break,
                Ok(_) => {}
                Err(_) => {
                    // Not UTF-8 or a read error: skip the line.
                    error("could not read the input line");
                    continue;
                }
            }
            if !self.handle(&line) {
                break;
            }
            let _ = io::stdout().flush();
        }
        self.stop_and_wait();
    }

    /// Handles one command line; returns `false` on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let mut tokens = line.split_whitespace();
        let Some(cmd) = tokens.next() else {
            return true;
        };
        let rest: Vec<&str> = tokens.collect();
        match cmd {
            "uci" => self.cmd_uci(),
            "isready" => println!("readyok"),
            "ucinewgame" => {
                self.stop_and_wait();
                if !self.options.never_clear_hash {
                    self.pool.table().clear(self.pool.threads());
                }
                self.pool.clear();
            }
            // The search works on its own copy of the position, so this needs no waiting.
            "position" => self.cmd_position(&rest),
            "go" => self.cmd_go(&rest),
            "stop" => {
                self.control.stop.store(true, Ordering::Relaxed);
            }
            "ponderhit" => {
                *self
                    .control
                    .ponderhit
                    .lock()
                    .unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
                self.control.pondering.store(false, Ordering::Relaxed);
            }
            "setoption" => {
                if self.idle() {
                    self.cmd_setoption(line);
                }
            }
            "quit" => return false,
            "debug" | "register" => {}
            "d" => self.cmd_d(),
            "eval" => {
                if !self.idle() {
                    return true;
                }
                let b = *self.position.board();
                let mut eval = Evaluator::default();
                println!("Static eval: {} cp (side to move)", eval.evaluate(&b));
                eval.configure(Some(&self.net));
                let scaled = eval.evaluate_position(&self.position);
                println!(
                    "NNUE eval: {scaled} cp (side to move; the network's {} cp scaled by \
                     material; {}, {})",
                    eval.nnue_raw(&self.position),
                    self.net_name(),
                    nnue::describe(&self.net)
                );
            }
            "bench" => {
                if !self.idle() {
                    return true;
                }
                let depth = match rest.first().map(|d| d.parse::<i32>()) {
                    None => bench::DEFAULT_DEPTH,
                    Some(Ok(d)) if (1..=bench::MAX_DEPTH).contains(&d) => d,
                    _ => {
                        error(format!(
                            "bench takes a depth from 1 to {}",
                            bench::MAX_DEPTH
                        ));
                        return true;
                    }
                };
                if let Err(e) = bench::print(bench::Config {
                    depth,
                    nnue: self.options.use_nnue,
                    eval_file: Some(&self.options.eval_file)
                        .filter(|f| !f.is_empty())
                        .map(Into::into),
                    ..bench::Config::default()
                }) {
                    error(e);
                }
            }
            // SPSA tuner input: OpenBench's format, or `tune json` for weather-factory.
            #[cfg(feature = "tune")]
            "tune" => match rest.first() {
                Some(&"json") => print!("{}", crate::search::params::weather_factory()),
                _ => print!("{}", crate::search::params::openbench()),
            },
            _ => error(format!("unknown command '{cmd}'")),
        }
        true
    }

    fn cmd_uci(&self) {
        println!("id name {}", crate::NAME);
        println!("id author the Engram developers");
        for line in options::uci_lines(options::extra()) {
            println!("{line}");
        }
        println!("uciok");
    }

    /// Whether no search is running; if one is, says so. Collects a finished search, and
    /// waits for one that was told to stop: a command sent right after `stop` (a GUI need not
    /// read the old `bestmove` first, a ponder miss sends `stop` and `go` together) is
    /// carried out once that search has printed its `bestmove`, as Stockfish does.
    fn idle(&mut self) -> bool {
        if self.pool.busy()
            && self.control.searching.load(Ordering::Acquire)
            && !self.control.stop.load(Ordering::Relaxed)
        {
            error("a search is running; command ignored (send 'stop' first)");
            return false;
        }
        self.pool.wait();
        true
    }

    fn stop_and_wait(&mut self) {
        self.control.stop.store(true, Ordering::Relaxed);
        self.control.pondering.store(false, Ordering::Relaxed);
        self.pool.wait();
    }

    fn cmd_position(&mut self, args: &[&str]) {
        let (board, moves) = match args.first() {
            Some(&"startpos") => {
                let rest = &args[1..];
                (Board::from_fen(STARTPOS, self.options.chess960), rest)
            }
            Some(&"fen") => {
                let end = args
                    .iter()
                    .position(|&t| t == "moves")
                    .unwrap_or(args.len());
                (
                    Board::from_fen(&args[1..end].join(" "), self.options.chess960),
                    &args[end..],
                )
            }
            _ => {
                error("position needs 'startpos' or 'fen <FEN>'");
                return;
            }
        };
        let board = match board {
            Ok(b) => b,
            Err(e) => {
                error(format!("bad FEN: {e}"));
                return;
            }
        };
        let mut pos = Position::new(board);
        match moves.first() {
            None => {}
            Some(&"moves") => {
                for text in &moves[1..] {
                    match pos.board().parse_uci(text) {
                        Ok(mv) => pos.make(mv),
                        Err(e) => {
                            error(format!("{e} in position command; position unchanged"));
                            return;
                        }
                    }
                }
            }
            Some(other) => {
                error(format!(
                    "unexpected '{other}' in position command; position unchanged"
                ));
                return;
            }
        }
        self.position = pos;
    }

    fn cmd_go(&mut self, args: &[&str]) {
        // A `go` while a search runs: that search is stopped first (it prints its own
        // `bestmove`), so every `go` gets exactly one `bestmove` and none waits forever.
        self.stop_and_wait();
        let board = *self.position.board();
        if args.first() == Some(&"perft") {
            match args.get(1).and_then(|d| d.parse::<u32>().ok()) {
                Some(d) if d <= perft::MAX_DEPTH => {
                    perft::print_divide(&board, d);
                }
                _ => error(format!(
                    "go perft needs a depth from 0 to {}",
                    perft::MAX_DEPTH
                )),
            }
            return;
        }

        let mut limits = SearchLimits {
            multipv: self.options.multipv,
            move_overhead: self.options.move_overhead,
            etc: self.options.etc,
            nnue: self.options.use_nnue.then(|| self.net.clone()),
            ..SearchLimits::default()
        };
        let mut clock = Clock::default();
        let (mut wtime, mut btime, mut winc, mut binc) = (None, None, 0, 0);
        let mut ponder = false;
        let mut i = 0;
        // Numbers beyond i64 saturate (a clock of 2^64 - 1 ms is "plenty", not "no clock").
        let num = |i: usize| -> Option<i64> {
            let v = args.get(i + 1)?;
            v.parse::<i64>().ok().or_else(|| {
                let wide = v.parse::<i128>().ok()?;
                Some(wide.clamp(i64::MIN.into(), i64::MAX.into()) as i64)
            })
        };
        while i < args.len() {
            let key = args[i];
            let takes_value = matches!(
                key,
                "wtime"
                    | "btime"
                    | "winc"
                    | "binc"
                    | "movestogo"
                    | "depth"
                    | "nodes"
                    | "mate"
                    | "movetime"
            );
            if takes_value {
                match num(i) {
                    Some(v) => {
                        let u = v.max(0) as u64;
                        match key {
                            "wtime" => wtime = Some(u),
                            "btime" => btime = Some(u),
                            "winc" => winc = u,
                            "binc" => binc = u,
                            "movestogo" => clock.movestogo = (u > 0).then_some(u),
                            "depth" => limits.depth = Some(v.clamp(1, 127) as i32),
                            "nodes" => limits.nodes = Some(u.max(1)),
                            "mate" => limits.mate = Some(v.clamp(1, 63) as i32),
                            _ => clock.movetime = Some(u),
                        }
                    }
                    None => error(format!("'{key}' needs a number; ignored")),
                }
                i += 2;
                continue;
            }
            match key {
                "infinite" => limits.infinite = true,
                "ponder" => ponder = true,
                "searchmoves" => {
                    i += 1;
                    while i < args.len() {
                        match board.parse_uci(args[i]) {
                            Ok(mv) => limits.searchmoves.push(mv),
                            Err(_) => break,
                        }
                        i += 1;
                    }
                    continue;
                }
                other => error(format!("unknown go parameter '{other}'; ignored")),
            }
            i += 1;
        }
        let (ours, theirs, inc) = match board.side_to_move() {
            Color::White => (wtime, btime, winc),
            Color::Black => (btime, wtime, binc),
        };
        clock.time = ours;
        clock.opp_time = theirs;
        clock.inc = inc;
        limits.clock = clock;
        *self
            .control
            .ponderhit
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = None;
        self.control.pondering.store(ponder, Ordering::Relaxed);
        self.control.searching.store(true, Ordering::Release);
        self.pool.start(&self.position, limits, true);
    }

    fn cmd_setoption(&mut self, line: &str) {
        let result = match options::parse_setoption(line, options::extra()) {
            Ok(setting) => self.apply(setting),
            Err(e) => Err(e.to_string()),
        };
        if let Err(e) = result {
            error(e);
        }
    }

    /// Applies a validated option value. On error the state stays as it was (a table that
    /// cannot be allocated leaves the old size, or a smaller one if even that fails).
    fn apply(&mut self, setting: Setting) -> Result<(), String> {
        match setting {
            Setting::Hash(mib) => return self.set_hash(mib),
            Setting::Threads(n) => {
                if n != self.pool.threads() {
                    self.pool.set_threads(n)?;
                }
            }
            Setting::ClearHash => self.pool.table().clear(self.pool.threads()),
            Setting::Ponder(_) => {}
            Setting::MultiPv(n) => self.options.multipv = n,
            Setting::MoveOverhead(ms) => self.options.move_overhead = ms,
            Setting::Chess960(on) => self.options.chess960 = on,
            Setting::Replacement(name) => {
                if name != self.options.replacement {
                    self.options.replacement = name;
                    return self.reallocate(self.options.hash);
                }
            }
            Setting::HashFile(path) => self.options.hash_file = path,
            Setting::SaveHash => {
                let path = self.hash_file()?;
                println!(
                    "info string {}",
                    hashfile::save_table(self.pool.table(), &path)?
                );
            }
            Setting::LoadHash => {
                let path = self.hash_file()?;
                println!("info string {}", hashfile::load(self.pool.table(), &path)?);
            }
            Setting::NeverClearHash(on) => self.options.never_clear_hash = on,
            Setting::Etc(on) => self.options.etc = on,
            Setting::EvalFile(path) => return self.set_eval_file(path),
            Setting::UseNnue(on) => self.options.use_nnue = on,
            Setting::ReplacementAge(k) => {
                if k != self.options.replacement_age {
                    self.options.replacement_age = k;
                    return self.reallocate(self.options.hash);
                }
            }
            // The search's tunable parameters (`options::extra()`, feature `tune`).
            #[cfg(feature = "tune")]
            Setting::Extra {
                name,
                value: options::Value::Spin(v),
            } => {
                let v = i32::try_from(v).map_err(|e| e.to_string())?;
                crate::search::params::set(name, v)?;
            }
            Setting::Extra { name, .. } => {
                return Err(format!("option '{name}' has no effect in this build"))
            }
        }
        Ok(())
    }

    /// Loads the network `path` (empty: the embedded one). A bad file is an error that keeps
    /// the current network.
    fn set_eval_file(&mut self, path: String) -> Result<(), String> {
        self.net = if path.is_empty() {
            nnue::default_net()
        } else {
            Arc::new(
                Network::load(path.as_ref())
                    .map_err(|e| format!("{e}; the network stays {}", self.net_name()))?,
            )
        };
        self.options.eval_file = path;
        println!(
            "info string NNUE evaluation using {} ({})",
            self.net_name(),
            nnue::describe(&self.net)
        );
        Ok(())
    }

    /// The current network's name: its file, or `<embedded>`.
    fn net_name(&self) -> &str {
        if self.options.eval_file.is_empty() {
            "<embedded>"
        } else {
            &self.options.eval_file
        }
    }

    /// The `Hash File` path, or an error if none was set.
    fn hash_file(&self) -> Result<std::path::PathBuf, String> {
        if self.options.hash_file.is_empty() {
            return Err("set the option 'Hash File' to a path first".into());
        }
        Ok(self.options.hash_file.clone().into())
    }

    fn set_hash(&mut self, mib: usize) -> Result<(), String> {
        if mib == self.options.hash {
            return Ok(());
        }
        self.reallocate(mib)
    }

    /// A new, empty table of `mib` MiB with the options' policy in place of the old one.
    fn reallocate(&mut self, mib: usize) -> Result<(), String> {
        // A size over the available memory, even with the old table's given back, is refused
        // before anything is freed: the old table stays, entries and all. (With overcommit
        // the allocation could succeed and the clear then get the engine OOM-killed.)
        Table::check_memory(mib, self.pool.table().bytes()).map_err(|e| {
            format!(
                "cannot allocate {mib} MiB for the hash table: {e}; the table stays at {} MiB",
                self.options.hash
            )
        })?;
        // Free the old table first so the two never need to fit in memory together.
        let small = Table::new(1).map_err(|e| e.to_string())?;
        self.pool.set_table(Arc::new(small));
        match Table::with_config(self.options.table_config(mib)) {
            Ok(t) => {
                // The fresh mapping is zero but not yet in memory: clearing it with every
                // search thread faults it in now, before `readyok`, so the first search does
                // not pay for it (as Stockfish does).
                t.clear(self.pool.threads());
                self.options.hash = mib;
                self.pool.set_table(Arc::new(t));
                Ok(())
            }
            Err(e) => {
                // Back to the old size, or the default, or else the 1 MiB table stays.
                let fallback = Table::with_config(self.options.table_config(self.options.hash))
                    .or_else(|_| {
                        Table::with_config(self.options.table_config(options::HASH_DEFAULT))
                    });
                if let Ok(t) = fallback {
                    t.clear(self.pool.threads());
                    self.pool.set_table(Arc::new(t));
                }
                self.options.hash = self.pool.table().mib();
                Err(format!("cannot allocate {mib} MiB for the hash table: {e}"))
            }
        }
    }

    fn cmd_d(&self) {
        let b = self.position.board();
        print!("{}", b.pretty());
        println!("Fen: {}", b.to_fen());
        println!("Key: {:016X}", b.key());
        let checkers: Vec<String> = b.checkers().iter().map(|s| s.to_string()).collect();
        println!("Checkers: {}", checkers.join(" "));
    }
}
