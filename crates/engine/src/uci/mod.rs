//! The UCI protocol: commands in from stdin, `info`/`bestmove` out. The main thread reads and
//! handles commands; searches run on the thread pool ([`crate::pool`]), whose main thread
//! prints `bestmove` itself, so
//! `isready`, `stop`, `ponderhit` and `quit` take effect while it runs. Bad input never panics
//! and never exits: it gets `info string error: ...` and the state stays as it was.

use crate::cluster::Peers;
use crate::config::EngineConfig;
use crate::eval::{nnue, Evaluator};
use crate::options::{self, Effect};
use crate::search::report::{Event, Reporter};
use crate::search::{Control, Gather, SearchLimits};
use crate::session::Session;
use crate::time::Clock;
use crate::{bench, hashfile, perft};
use engram_chess::{Board, Color, Position, STARTPOS};
use std::io::{self, BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

pub mod text;

/// The UCI engine state.
pub struct Engine {
    session: Session,
    position: Position,
    /// The other ranks of a cluster (`mpirun`), if any.
    peers: Option<Arc<dyn Peers>>,
    /// A follower rank: the number of the search its current `go` belongs to.
    follower_search: Option<u64>,
}

use crate::random::random_u64;

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
        Engine {
            session: Session::new(EngineConfig::default())
                .expect("a 16 MiB table and one thread can be had"),
            position: Position::new(Board::startpos()),
            peers: None,
            follower_search: None,
        }
    }

    /// One rank's engine in a cluster: rank 0 reads UCI and leads the others
    /// ([`Engine::run`]), the others follow it ([`Engine::follow`]).
    pub fn with_peers(peers: Arc<dyn Peers>) -> Engine {
        let mut engine = Engine::new();
        let exchange = peers.exchange();
        exchange.set_table(engine.session.table().clone());
        let _ = engine.control().exchange.set(exchange);
        engine.peers = Some(peers);
        engine
    }

    /// The cluster's other ranks, when this is rank 0.
    fn followers(&self) -> Option<&Arc<dyn Peers>> {
        self.peers.as_ref().filter(|p| p.rank() == 0)
    }

    /// A follower rank's loop: runs the commands rank 0 sends (`lines`: each with the
    /// search it belongs to) until `quit`; reports its node count while it searches.
    pub fn follow(&mut self, lines: std::sync::mpsc::Receiver<(u64, String)>) {
        use std::sync::mpsc::RecvTimeoutError;
        let Some(peers) = self.peers.clone() else {
            return;
        };
        let mut current = 0;
        loop {
            match lines.recv_timeout(std::time::Duration::from_millis(10)) {
                Ok((id, line)) => {
                    if line.split_whitespace().next() == Some("go") {
                        current = id;
                        self.follower_search = Some(id);
                        self.handle(&line);
                        self.follower_search = None;
                    } else if !self.handle(&line) {
                        break;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    if self.session.busy() && self.control().searching.load(Ordering::Relaxed) {
                        peers.send_nodes(current, self.session.nodes());
                    }
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        self.stop_and_wait();
    }

    fn control(&self) -> &Arc<Control> {
        self.session.control()
    }

    fn config(&self) -> &EngineConfig {
        self.session.config()
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
        if let Some(peers) = self.followers() {
            peers.forward("quit");
        }
    }

    /// Handles one command line; returns `false` on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let mut tokens = line.split_whitespace();
        let Some(cmd) = tokens.next() else {
            return true;
        };
        let rest: Vec<&str> = tokens.collect();
        // Rank 0 of a cluster: the commands that change state reach every rank.
        if let Some(peers) = self.followers() {
            if matches!(cmd, "position" | "setoption" | "ucinewgame" | "stop") {
                peers.forward(line);
            }
        }
        match cmd {
            "uci" => self.cmd_uci(),
            "isready" => println!("readyok"),
            "ucinewgame" => {
                self.stop_and_wait();
                self.session.new_game();
            }
            // The search works on its own copy of the position, so this needs no waiting.
            "position" => self.cmd_position(&rest),
            "go" => self.cmd_go(&rest),
            "stop" => {
                self.control().stop.store(true, Ordering::Relaxed);
            }
            "ponderhit" => {
                *self
                    .control()
                    .ponderhit
                    .lock()
                    .unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
                self.control().pondering.store(false, Ordering::Relaxed);
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
                let config = self.config();
                let mut eval = Evaluator::default();
                println!("Static eval: {} cp (side to move)", eval.hand_crafted(&b));
                eval.configure(Some(&config.net));
                let scaled = eval.evaluate(&self.position);
                println!(
                    "NNUE eval: {scaled} cp (side to move; the network's {} cp scaled by \
                     material; {}, {})",
                    eval.nnue_raw(&self.position),
                    config.net_name(),
                    nnue::describe(&config.net)
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
                // The bench's own settings (one thread, 16 MiB), with this engine's network.
                let config = self.config();
                let engine = EngineConfig {
                    use_nnue: config.use_nnue,
                    net: config.net.clone(),
                    eval_file: config.eval_file.clone(),
                    ..bench::Config::default().engine
                };
                if let Err(e) = bench::print(bench::Config {
                    depth,
                    engine,
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
        if self.session.busy()
            && self.control().searching.load(Ordering::Acquire)
            && !self.control().stop.load(Ordering::Relaxed)
        {
            error("a search is running; command ignored (send 'stop' first)");
            return false;
        }
        self.session.wait();
        true
    }

    fn stop_and_wait(&mut self) {
        self.control().stop.store(true, Ordering::Relaxed);
        self.control().pondering.store(false, Ordering::Relaxed);
        self.session.wait();
    }

    fn cmd_position(&mut self, args: &[&str]) {
        let (board, moves) = match args.first() {
            Some(&"startpos") => {
                let rest = &args[1..];
                (Board::from_fen(STARTPOS, self.config().chess960), rest)
            }
            Some(&"fen") => {
                let end = args
                    .iter()
                    .position(|&t| t == "moves")
                    .unwrap_or(args.len());
                (
                    Board::from_fen(&args[1..end].join(" "), self.config().chess960),
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

        // The search's events become UCI lines on stdout, from this position.
        let root = board;
        let wdl = self.config().show_wdl;
        let reporter = Reporter::new(move |event| {
            println!("{}", text::event_line(&root, event, wdl));
            if matches!(event, Event::BestMove { .. }) {
                let _ = io::stdout().flush();
            }
        });
        let mut limits = SearchLimits {
            reporter: Some(reporter),
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
        if self.config().own_book
            && !ponder
            && !limits.infinite
            && limits.mate.is_none()
            && self.follower_search.is_none()
        {
            if let Some(line) = self.book_answer(&board, &limits) {
                println!("{line}");
                let _ = io::stdout().flush();
                return;
            }
        }
        if let Some(peers) = self.peers.clone() {
            self.cluster_limits(&peers, &mut limits, &mut ponder, args);
        }
        let control = self.control();
        *control.ponderhit.lock().unwrap_or_else(|e| e.into_inner()) = None;
        control.pondering.store(ponder, Ordering::Relaxed);
        control.searching.store(true, Ordering::Release);
        self.session.start(&self.position, limits);
    }

    /// A cluster's search: the node limit shared among the ranks; rank 0 starts the others'
    /// search, adds their nodes to its `info` and has them vote; a follower searches
    /// without a clock (rank 0 stops it) and sends rank 0 its result.
    fn cluster_limits(
        &self,
        peers: &Arc<dyn Peers>,
        limits: &mut SearchLimits,
        ponder: &mut bool,
        args: &[&str],
    ) {
        let exchange = peers.exchange();
        crate::cluster::configure(&exchange);
        exchange.set_table(self.session.table().clone());
        exchange.search_started();
        let ranks = peers.ranks() as u64;
        limits.nodes = limits.nodes.map(|n| n.div_ceil(ranks).max(1));
        match self.follower_search {
            None => {
                let id = peers.start_search(&format!("go {}", args.join(" ")));
                if let Some(inner) = limits.reporter.take() {
                    let p = peers.clone();
                    limits.reporter = Some(Reporter::new(move |event| match event {
                        Event::Info(info) => {
                            let mut info = info.clone();
                            info.nodes += p.remote_nodes(id);
                            inner.report(&Event::Info(info));
                        }
                        other => inner.report(other),
                    }));
                }
                let p = peers.clone();
                limits.gather = Some(Gather(Arc::new(move |_| {
                    p.exchange().search_ended();
                    p.gather(id)
                })));
            }
            Some(id) => {
                limits.clock = Clock::default();
                *ponder = false;
                let p = peers.clone();
                limits.gather = Some(Gather(Arc::new(move |result| {
                    p.exchange().search_ended();
                    p.send_result(id, result);
                    Vec::new()
                })));
            }
        }
    }

    /// `OwnBook`: the book's move for `board` as an `info string` and a `bestmove` line, or
    /// `None` to search (no book, no book move, or a `searchmoves` list the move is not in).
    fn book_answer(&self, board: &Board, limits: &SearchLimits) -> Option<String> {
        let config = self.config();
        let book = config.book.as_ref()?;
        let choice = book.pick(board, config.best_book_move, random_u64())?;
        if !limits.searchmoves.is_empty() && !limits.searchmoves.contains(&choice.mv) {
            return None;
        }
        let offered = book.moves(board);
        Some(format!(
            "{}\n{}",
            text::book_line(board, choice, &offered),
            text::bestmove_line(board, choice.mv, None)
        ))
    }

    fn cmd_setoption(&mut self, line: &str) {
        if let Err(e) = self.setoption(line) {
            error(e);
        }
    }

    /// Applies a `setoption` line: the option writes a copy of the configuration, which the
    /// session then takes (a new table or threads where needed). On error the state stays as
    /// it was (a table that cannot be allocated leaves the old size, or a smaller one if even
    /// that fails).
    fn setoption(&mut self, line: &str) -> Result<(), String> {
        let setting =
            options::parse_setoption(line, options::extra()).map_err(|e| e.to_string())?;
        let mut next = (**self.session.config()).clone();
        let effect = setting.apply(&mut next)?;
        self.session.reconfigure(next)?;
        match effect {
            Effect::None => {}
            Effect::ClearHash => self.session.clear_table(),
            // In a cluster only rank 0 writes the file.
            Effect::SaveHash if self.peers.as_ref().is_some_and(|p| p.rank() != 0) => {}
            Effect::SaveHash => {
                let path = self.hash_file()?;
                println!(
                    "info string {}",
                    hashfile::save_table(self.session.table(), &path)?
                );
            }
            Effect::LoadHash => {
                let path = self.hash_file()?;
                println!(
                    "info string {}",
                    hashfile::load(self.session.table(), &path)?
                );
            }
            Effect::BookLoaded => println!("info string {}", self.config().book_text()),
            Effect::TablebasesLoaded => {
                println!("info string {}", crate::tablebase::describe_loaded())
            }
            Effect::NetLoaded => {
                let config = self.config();
                println!(
                    "info string NNUE evaluation using {} ({})",
                    config.net_name(),
                    nnue::describe(&config.net)
                );
            }
        }
        Ok(())
    }

    /// The `Hash File` path, or an error if none was set.
    fn hash_file(&self) -> Result<std::path::PathBuf, String> {
        if self.config().hash_file.is_empty() {
            return Err("set the option 'Hash File' to a path first".into());
        }
        Ok(self.config().hash_file.clone().into())
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
