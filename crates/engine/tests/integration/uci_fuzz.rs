//! A UCI stream fuzzer: random command streams, valid and malformed, sent to the real `engram`
//! binary, with a model of the protocol on the test side that says what must come back.
//!
//! # The streams
//!
//! A stream is fully determined by one `u64` seed (a small splitmix64 generator, no
//! dependency). It is a list of writes to the engine's stdin, each one or more lines, each
//! followed by a pause of 0 to 30 ms (often none: bursts; 1 in 50 a pause of 100 to 300 ms
//! lets a search get deep). The lines mix `uci`, `isready`, `ucinewgame`, `position`
//! (legal move sequences in both castling notations, repetitions, malformed FENs, illegal
//! moves, stray tokens, lines hundreds of moves long), `go` with random limits (depth 1 to 8,
//! nodes, movetime, clocks with zero, negative and overflowing numbers, `infinite`, `ponder`,
//! `searchmoves` legal and not, `mate`, `perft`, unknown tokens, keys without values),
//! `stop`, `ponderhit`, `setoption` (valid and invalid names and values for every option;
//! `Threads` 1 or 2, `Hash` 1 to 64 MiB), `d`, `eval`, empty lines, invalid UTF-8, Unicode
//! (Unicode whitespace around commands too), unknown commands and lines of up to 200 kB; and
//! the combinations that hurt: `stop` and `go` in one write, bursts of `go`, `go
//! infinite`/`stop` pairs, `Threads` and `Hash` changed between searches, `go ponder` followed
//! by `ponderhit`, `stop`, or a ponder miss. Odd seeds start with `Threads 2`, even ones with
//! 1; `Threads` changes during the stream, and `SMP` (an option of old) is refused. Every stream ends with `stop`, `isready`,
//! then, once every answer due has arrived, `quit`.
//!
//! # The contract checked
//!
//! [`Model`] replays the lines as the engine's documented rules say it reads them (the same
//! `trim`/`split_whitespace` tokenising, `engram_chess` for FENs and move legality, the
//! option table of `uci`) and derives what the output must contain:
//!
//! - the process stays alive until `quit`, then exits with status 0;
//! - the replies of the UCI thread come in command order, each as the model says: `readyok`
//!   per `isready`, `uciok` per `uci`, `Fen: <the position the model holds>` per `d` (a
//!   malformed `position` leaves the previous one), `Nodes searched: <perft of that
//!   position>` per valid `go perft N`;
//! - bad input gets `info string error: ...`, valid input none: before each reply, the count
//!   of error lines is the model's (a range where a search may or may not still be running:
//!   `setoption` and `eval` are refused during a search not told to stop);
//! - every accepted `go` (anything but `go perft`; unknown tokens are ignored) gets exactly
//!   one `bestmove`, in order: a `go` sent while a search runs stops that one first. It is a
//!   legal move of the position that `go` searched, one of its `searchmoves` if it had some,
//!   or `0000` exactly when that position has no legal move; a `ponder` move is legal after
//!   the best move;
//! - a search with a small limit (depth 8, 200 000 nodes, 1 s movetime or 10 s on the clock
//!   at most), not `infinite` and not pondering (`ponderhit` received), ends by itself: now
//!   and then, and at the end of a stream, the test waits for its `bestmove` before `stop`;
//! - order without timing: a reply is never printed before the `bestmove` of a search that an
//!   earlier `go` or `ucinewgame` (or `setoption`/`eval` with no search possibly running)
//!   waited for, nor after the `bestmove` of a `go` sent after it;
//! - the `info` lines between two `bestmove`s belong to the later search: their `pv` is a
//!   legal line, their `currmove` a legal root move, both within its `searchmoves`;
//! - `eval` prints `Static eval` at most once, and exactly once when no search can be running;
//! - no output line is two lines run together, no search thread reports a failure, and stderr
//!   shows no panic (`panicked`, `RUST_BACKTRACE`).
//!
//! Nothing depends on timing: stdin is written and stdout and stderr are read on threads, and
//! the only clock is a generous deadline (30 s) for answers that are due.
//!
//! # Running
//!
//! - `cargo test -p engram --release --test integration uci_fuzz::`: the bounded run, [`CI_SEEDS`] (about
//!   25 s on two cores).
//! - `FUZZ_STREAMS=200 FUZZ_SEED=42 cargo test -p engram --release --test integration --
//!   --ignored --nocapture uci_fuzz::fuzz_long`: the long run, `FUZZ_STEPS` writes a stream (default 80); the
//!   stream seeds derive from `FUZZ_SEED` (default: the clock, printed), and each failing
//!   stream's seed is printed with its transcript and output.
//! - `FUZZ_STREAM=0x1234abcd FUZZ_STEPS=80 ... -- --ignored --nocapture fuzz_long`: replays
//!   one stream, printing its commands and the engine's output; with `FUZZ_MINIMIZE=1` a
//!   failing stream is then cut down to the fewest writes and lines that still fail the same
//!   way.

use engram_chess::{perft, Board, Color, Move, STARTPOS};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Seeds of the bounded run (odd ones start with two threads).
const CI_SEEDS: &[u64] = &[
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
];

/// Writes per stream in the bounded run.
const CI_STEPS: usize = 60;

/// How long the last answers of a stream may take.
const FINAL_WAIT: Duration = Duration::from_secs(30);

// ---------------------------------------------------------------------------------------------
// Random numbers

/// splitmix64.
#[derive(Clone)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (0 if `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo + 1) as u64)) as i64
    }

    fn chance(&mut self, pct: u64) -> bool {
        self.next() % 100 < pct
    }

    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

/// The seed of stream `i` of a run seeded with `base`.
fn stream_seed(base: u64, i: u64) -> u64 {
    Rng(base ^ i.wrapping_mul(0xD1B5_4A32_D192_ED03)).next()
}

// ---------------------------------------------------------------------------------------------
// The model

/// A reply of the UCI thread, in command order.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Reply {
    ReadyOk,
    UciOk,
    Fen(String),
    Perft(u64),
}

/// An expected reply with what may precede it.
#[derive(Clone, Debug)]
struct Due {
    reply: Reply,
    /// `bestmove`s printed before it at least (searches a command before it waited for).
    min_best: usize,
    /// and at most (searches started before it).
    max_best: usize,
    /// `info string error` lines printed before it: at least, at most.
    errors: (usize, usize),
    /// The command (line number in the stream) that asked for it.
    line: usize,
}

/// An accepted `go`.
#[derive(Clone, Debug)]
struct Search {
    board: Board,
    searchmoves: Vec<Move>,
    line: usize,
    /// Ends without `stop` once it is not pondering (a small depth, node or time limit, or
    /// no legal move; not `infinite`).
    ends: bool,
    /// `go ponder` and no `ponderhit` yet.
    pondering: bool,
}

/// The protocol state the engine must be in after the lines seen so far, and what it owes.
#[derive(Clone)]
struct Model {
    /// `UCI_Chess960`; `None` once a `setoption` of it may or may not have been applied.
    chess960: Option<bool>,
    /// The position of the next `go`.
    board: Board,
    /// Whether a search may be running (a search was started and nothing stopped it since).
    may_run: bool,
    /// The `bestmove`s printed for sure before the next reply (searches waited for).
    waited: usize,
    /// Lines seen.
    lines: usize,
    replies: Vec<Due>,
    searches: Vec<Search>,
    /// `Static eval` lines: at least / at most.
    evals: (usize, usize),
    /// `info string error: ...` lines (bad input): at least / at most.
    errors: (usize, usize),
    /// Set when the model cannot say what the engine does (a stream the generator never
    /// makes, or `quit` in the middle).
    ambiguous: Option<String>,
}

/// `go` keywords that take a number (the next token is consumed even if it is not one).
const TAKES_VALUE: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
];

/// An option's type, as `uci` declares it.
#[derive(Clone, Copy)]
enum Kind {
    Spin(i64, i64),
    Check,
    Button,
}

/// The options `uci` lists (the README's table).
const OPTIONS: &[(&str, Kind)] = &[
    ("Hash", Kind::Spin(1, 1 << 20)),
    ("Threads", Kind::Spin(1, 1024)),
    ("Clear Hash", Kind::Button),
    ("Ponder", Kind::Check),
    ("MultiPV", Kind::Spin(1, 256)),
    ("Move Overhead", Kind::Spin(0, 5000)),
    ("UCI_Chess960", Kind::Check),
];

/// A valid `setoption` (arguments after the command): the option's name and value, or
/// `None` if the engine must refuse it. Keywords and names are case-insensitive, names and
/// values may have several words.
fn valid_setoption(args: &[&str]) -> Option<(&'static str, String)> {
    if !args.first()?.eq_ignore_ascii_case("name") {
        return None;
    }
    let rest = &args[1..];
    let value_at = rest.iter().position(|t| t.eq_ignore_ascii_case("value"));
    let (name, value) = match value_at {
        Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" "))),
        None => (rest.join(" "), None),
    };
    let &(name, kind) = OPTIONS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(&name))?;
    if let Kind::Button = kind {
        return Some((name, String::new()));
    }
    let value = value.filter(|v| !v.is_empty())?;
    let ok = match kind {
        Kind::Spin(lo, hi) => value.parse::<i64>().is_ok_and(|v| (lo..=hi).contains(&v)),
        Kind::Check => ["true", "false"].contains(&value.to_ascii_lowercase().as_str()),
        Kind::Button => true,
    };
    ok.then_some((name, value))
}

impl Model {
    fn new() -> Model {
        Model {
            chess960: Some(false),
            board: Board::startpos(),
            may_run: false,
            waited: 0,
            lines: 0,
            replies: Vec::new(),
            searches: Vec::new(),
            evals: (0, 0),
            errors: (0, 0),
            ambiguous: None,
        }
    }

    fn due(&mut self, reply: Reply) {
        self.replies.push(Due {
            reply,
            min_best: self.waited,
            max_best: self.searches.len(),
            errors: self.errors,
            line: self.lines,
        });
    }

    /// `n` error lines for sure.
    fn error(&mut self, n: usize) {
        self.errors.0 += n;
        self.errors.1 += n;
    }

    /// A command that stops any search and waits for its `bestmove`.
    fn stop_and_wait(&mut self) {
        self.may_run = false;
        self.waited = self.searches.len();
    }

    fn unsure(&mut self, why: &str) {
        let line = self.lines;
        self.ambiguous.get_or_insert(format!("line {line}: {why}"));
    }

    /// Feeds one input line (without its `\n`).
    fn feed(&mut self, bytes: &[u8]) {
        self.lines += 1;
        // A line that is not UTF-8 is skipped with an error.
        let Ok(line) = std::str::from_utf8(bytes) else {
            self.error(1);
            return;
        };
        let line = line.trim();
        let mut tokens = line.split_whitespace();
        let Some(cmd) = tokens.next() else { return };
        let args: Vec<&str> = tokens.collect();
        match cmd {
            "uci" => self.due(Reply::UciOk),
            "isready" => self.due(Reply::ReadyOk),
            "ucinewgame" => self.stop_and_wait(),
            "position" => {
                if !self.position(&args) {
                    self.error(1);
                }
            }
            "go" => self.go(&args),
            "stop" => self.may_run = false,
            "setoption" => self.setoption(&args),
            "d" => {
                let fen = self.board.to_fen();
                self.due(Reply::Fen(fen));
            }
            "eval" => {
                // Refused (with an error) while a search runs that was not told to stop.
                self.evals.1 += 1;
                if self.may_run {
                    self.errors.1 += 1;
                } else {
                    self.evals.0 += 1;
                    self.stop_and_wait();
                }
            }
            "ponderhit" => {
                if self.may_run {
                    if let Some(s) = self.searches.last_mut() {
                        s.pondering = false;
                    }
                }
            }
            "debug" | "register" => {}
            "quit" | "bench" | "tune" => self.unsure(cmd),
            _ => self.error(1),
        }
    }

    /// A `position` command; whether it was accepted.
    fn position(&mut self, args: &[&str]) -> bool {
        let Some(chess960) = self.chess960 else {
            self.unsure("position, UCI_Chess960 unknown");
            return true;
        };
        let (board, moves) = match args.first() {
            Some(&"startpos") => (Board::from_fen(STARTPOS, chess960), &args[1..]),
            Some(&"fen") => {
                let end = args
                    .iter()
                    .position(|&t| t == "moves")
                    .unwrap_or(args.len());
                (
                    Board::from_fen(&args[1..end].join(" "), chess960),
                    &args[end..],
                )
            }
            _ => return false,
        };
        let Ok(mut board) = board else { return false };
        match moves.first() {
            None => {}
            Some(&"moves") => {
                for text in &moves[1..] {
                    match board.parse_uci(text) {
                        Ok(mv) => board.play(mv),
                        Err(_) => return false,
                    }
                }
            }
            Some(_) => return false,
        }
        self.board = board;
        true
    }

    fn go(&mut self, args: &[&str]) {
        self.stop_and_wait();
        let board = self.board;
        if args.first() == Some(&"perft") {
            match args.get(1).and_then(|d| d.parse::<u32>().ok()) {
                Some(d) if d <= 20 => {
                    assert!(d <= 5, "the generator keeps perft small");
                    self.due(Reply::Perft(perft(&board, d)));
                }
                _ => self.error(1),
            }
            return;
        }
        let mut searchmoves = Vec::new();
        // The limits that end a search by itself (values as the engine reads them; a later
        // key overrides an earlier one).
        let (mut depth, mut nodes, mut movetime, mut wtime, mut btime) =
            (None, None, None, None, None);
        let (mut infinite, mut ponder) = (false, false);
        let mut i = 0;
        while i < args.len() {
            if TAKES_VALUE.contains(&args[i]) {
                // Numbers beyond i64 saturate, as the engine reads them.
                let number = |v: &str| {
                    v.parse::<i64>().ok().or_else(|| {
                        let wide = v.parse::<i128>().ok()?;
                        Some(wide.clamp(i64::MIN.into(), i64::MAX.into()) as i64)
                    })
                };
                match args.get(i + 1).and_then(|v| number(v)) {
                    Some(v) => match args[i] {
                        "depth" => depth = Some(v.clamp(1, 127)),
                        "nodes" => nodes = Some(v.max(1)),
                        "movetime" => movetime = Some(v.max(0)),
                        "wtime" => wtime = Some(v.max(0)),
                        "btime" => btime = Some(v.max(0)),
                        _ => {}
                    },
                    None => self.error(1),
                }
                i += 2;
                continue;
            }
            match args[i] {
                "infinite" => infinite = true,
                "ponder" => ponder = true,
                "searchmoves" => {
                    i += 1;
                    while i < args.len() {
                        match board.parse_uci(args[i]) {
                            Ok(mv) => searchmoves.push(mv),
                            Err(_) => break,
                        }
                        i += 1;
                    }
                    continue;
                }
                _ => self.error(1),
            }
            i += 1;
        }
        let (ours, theirs) = match board.side_to_move() {
            Color::White => (wtime, btime),
            Color::Black => (btime, wtime),
        };
        let timed = match movetime {
            Some(t) => t <= 1_000,
            None => ours.or(theirs).is_some_and(|t| t <= 10_000),
        };
        let bounded = depth.is_some_and(|d| d <= 8) || nodes.is_some_and(|n| n <= 200_000) || timed;
        self.searches.push(Search {
            board,
            searchmoves,
            line: self.lines,
            ends: !infinite && (bounded || !board.has_legal_moves()),
            pondering: ponder,
        });
        self.may_run = true;
    }

    /// Whether the search last started must end by itself: one that still runs, with a
    /// limit of a few seconds at most, neither `infinite` nor pondering.
    fn must_end(&self) -> bool {
        self.may_run && self.searches.last().is_some_and(|s| s.ends && !s.pondering)
    }

    fn setoption(&mut self, args: &[&str]) {
        let valid = valid_setoption(args);
        if self.may_run {
            // Refused with an error if the search still runs, else carried out.
            self.errors.0 += usize::from(valid.is_none());
            self.errors.1 += 1;
            if let Some(("UCI_Chess960", v)) = &valid {
                if self.chess960 != Some(v.eq_ignore_ascii_case("true")) {
                    self.chess960 = None;
                }
            }
            return;
        }
        // The engine waits for a search told to stop before applying an option.
        self.stop_and_wait();
        match valid {
            None => self.error(1),
            Some(("UCI_Chess960", v)) => self.chess960 = Some(v.eq_ignore_ascii_case("true")),
            Some(_) => {}
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The generator

/// One write to the engine's stdin and the pause after it.
#[derive(Clone, Debug)]
struct Step {
    lines: Vec<Vec<u8>>,
    pause_ms: u64,
    /// Before the pause, wait for every `bestmove` due so far (the search running must end
    /// by itself, see [`Model::must_end`]).
    await_best: bool,
}

impl Step {
    fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for l in &self.lines {
            out.extend_from_slice(l);
            out.push(b'\n');
        }
        out
    }
}

/// A generated stream and what the engine owes for it.
struct Stream {
    seed: u64,
    threads: usize,
    steps: Vec<Step>,
    model: Model,
}

const FENS: &[&str] = &[
    STARTPOS,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
    // Checkmated, stalemated: no legal move.
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1",
    // One legal move; mate in one; bare kings; a huge halfmove clock.
    "K7/8/1k6/8/8/8/8/7r w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 150 200",
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    // Endgames where the search gets very deep quickly; the fifty-move rule at hand.
    "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
    "8/8/8/8/8/5k2/8/4K1Q1 w - - 0 1",
    "7k/8/8/8/8/8/8/R6K w - - 0 1",
    "8/8/4k3/8/2K1P3/8/8/8 w - - 0 1",
    "k7/8/8/8/8/8/8/K5Q1 w - - 99 100",
    // Stalemate in a corner.
    "6k1/8/8/8/8/8/5q2/7K w - - 0 1",
    // Chess960 (Shredder-FEN castling: refused unless UCI_Chess960 is on).
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1",
    "2r5/8/8/8/8/8/6PP/k2KR3 w K - 0 1",
    "4r3/3k4/8/8/8/8/6PP/qR1K1R2 w KQ - 0 1",
];

/// Well-formed tokens that are no legal move here, and junk.
const BAD_MOVES: &[&str] = &[
    "e2e5", "a1a1", "e1g1", "e8c8", "e7e8k", "e2e4e", "0000", "z9z9", "E2E4", "e2-e4", "Nf3",
    "moves", "--", "é2é4", "e7e8q", "h1h8",
];

const GARBAGE_WORDS: &[&str] = &[
    "foo",
    "Isready",
    "STOP",
    "go2",
    "bestmove e2e4",
    "readyok",
    "info depth 1 pv e2e4",
    "debug on",
    "register later",
    "position2 startpos",
    "setoptionname Hash value 1",
    "ucinewgame2",
    "\u{1b}[A\u{0}",
    "#",
    "d d d",
    "eval eval",
];

const UNICODE: &[&str] = &[
    "é", "♔", "日本", "\u{200B}", "🙂", "\u{0}", "ß", "\u{00A0}", "\u{3000}", "\u{2028}", "a", " ",
    "\t", "\u{FEFF}", "Ω",
];

struct Gen {
    rng: Rng,
    model: Model,
    steps: Vec<Step>,
}

impl Gen {
    fn pause(&mut self) -> u64 {
        if self.rng.chance(40) {
            0
        } else if self.rng.chance(2) {
            // Now and then time for a deep search.
            self.rng.range(100, 300) as u64
        } else {
            self.rng.range(1, 30) as u64
        }
    }

    /// Queues one write of `lines`, followed by a random pause.
    fn write(&mut self, lines: Vec<String>) {
        let pause = self.pause();
        self.write_bytes(lines.into_iter().map(String::into_bytes).collect(), pause);
    }

    fn write_bytes(&mut self, lines: Vec<Vec<u8>>, pause_ms: u64) {
        for l in &lines {
            debug_assert!(!l.contains(&b'\n'));
            self.model.feed(l);
        }
        // Now and then, check that a search with a small limit ends by itself.
        let await_best = self.model.must_end() && self.rng.chance(8);
        self.steps.push(Step {
            lines,
            pause_ms,
            await_best,
        });
    }

    fn chess960(&self) -> bool {
        self.model
            .chess960
            .expect("the generator keeps UCI_Chess960 known")
    }

    /// A legal move's text in `board`, sometimes in the other castling notation.
    fn move_text(&mut self, board: &Board, mv: Move) -> String {
        let text = board.to_uci(mv);
        if mv.is_castling() && self.rng.chance(40) {
            // King to its target square <-> king takes rook.
            let from = mv.from().to_string();
            if board.is_chess960() {
                let king_to = if mv.to().file() > mv.from().file() {
                    'g'
                } else {
                    'c'
                };
                return format!("{from}{king_to}{}", &from[1..]);
            }
            return format!("{from}{}", mv.to());
        }
        text
    }

    /// ` moves ...` from `board`: a legal walk, sometimes long, sometimes spoiled.
    fn moves_suffix(&mut self, board: &Board) -> String {
        if *board == Board::startpos() && self.rng.chance(10) {
            // Repetitions: the position is already drawn by the threefold rule.
            let shuffle = " g1f3 g8f6 f3g1 f6g8";
            return format!(" moves{}", shuffle.repeat(self.rng.range(1, 30) as usize));
        }
        let len = if self.rng.chance(8) {
            self.rng.range(40, 300)
        } else {
            self.rng.range(0, 10)
        };
        let mut b = *board;
        let mut out = String::from(" moves");
        for _ in 0..len {
            let moves = b.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves.as_slice()[self.rng.below(moves.len())];
            let text = self.move_text(&b, mv);
            out.push(' ');
            out.push_str(&text);
            b.play(mv);
        }
        if self.rng.chance(15) {
            // An illegal move or junk at the end (the whole command is then refused).
            out.push(' ');
            out.push_str(self.rng.pick(BAD_MOVES));
            if self.rng.chance(50) {
                out.push_str(" e7e5");
            }
        }
        out
    }

    fn mutated_fen(&mut self) -> String {
        const ALPHABET: &[u8] = b"pnbrqkPNBRQK0123456789/ -wbKQkqAHah";
        let mut fen = self.rng.pick(FENS).as_bytes().to_vec();
        for _ in 0..self.rng.range(1, 3) {
            let i = self.rng.below(fen.len());
            match self.rng.below(5) {
                0 => fen[i] = self.rng.pick(ALPHABET),
                1 if fen.len() > 1 => {
                    fen.remove(i);
                }
                2 => fen.insert(i, self.rng.pick(ALPHABET)),
                3 => fen.truncate(i.max(1)),
                _ => fen.extend_from_slice(b" x"),
            }
        }
        String::from_utf8(fen).unwrap()
    }

    fn position(&mut self) -> String {
        let chess960 = self.chess960();
        let r = self.rng.below(100);
        let (mut text, base) = if r < 35 {
            (
                "position startpos".to_string(),
                Board::from_fen(STARTPOS, chess960),
            )
        } else if r < 70 {
            let fen = self.rng.pick(FENS);
            (
                format!("position fen {fen}"),
                Board::from_fen(fen, chess960),
            )
        } else if r < 80 {
            let fen = self.model.board.to_fen();
            let b = Board::from_fen(&fen, chess960);
            (format!("position fen {fen}"), b)
        } else if r < 92 {
            let fen = self.mutated_fen();
            let b = Board::from_fen(&fen, chess960);
            (format!("position fen {fen}"), b)
        } else {
            return self
                .rng
                .pick(&[
                    "position",
                    "position startpos moves",
                    "position fen",
                    "position fen moves e2e4",
                    "position startpos e2e4",
                    "position foo",
                    "position startpos moves e2e4 moves e7e5",
                    "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
                    "position  startpos \t moves  e2e4  ",
                    "position startpos moves e2e4 e7e5 e1e3",
                ])
                .to_string();
        };
        if let Ok(b) = base {
            if self.rng.chance(75) {
                let suffix = self.moves_suffix(&b);
                text.push_str(&suffix);
            }
        } else if self.rng.chance(30) {
            text.push_str(" moves e2e4");
        }
        text
    }

    fn number(&mut self) -> String {
        match self.rng.below(12) {
            0 => "0".into(),
            1 => format!("-{}", self.rng.range(1, 100_000)),
            2 => i64::MAX.to_string(),
            3 => "99999999999999999999".into(),
            4 => i64::MIN.to_string(),
            5 => self.rng.pick(&["abc", "1.5", "+3", "", "1e3"]).into(),
            6 => self.rng.range(1, 100).to_string(),
            _ => self.rng.range(1, 120_000).to_string(),
        }
    }

    /// `go ...`; `ponder` only when `ponder` is set.
    fn go(&mut self, ponder: bool) -> String {
        let board = self.model.board;
        if !ponder && self.rng.chance(6) {
            let depth = if board.legal_moves().len() < 12 { 4 } else { 3 };
            return match self.rng.below(8) {
                0 => "go perft".into(),
                1 => self
                    .rng
                    .pick(&["go perft -1", "go perft x", "go perft 21"])
                    .into(),
                2 => "go depth 2 perft 3".into(),
                _ => format!("go perft {}", self.rng.range(0, depth)),
            };
        }
        let mut t = vec!["go".to_string()];
        if ponder {
            t.push("ponder".into());
        }
        for _ in 0..self.rng.range(0, 4) {
            match self.rng.below(16) {
                0..=3 => {
                    t.push("depth".into());
                    t.push(if self.rng.chance(85) {
                        self.rng.range(1, 8).to_string()
                    } else {
                        self.number()
                    });
                }
                4 => {
                    t.push("nodes".into());
                    t.push(if self.rng.chance(85) {
                        self.rng.range(1, 200_000).to_string()
                    } else {
                        self.number()
                    });
                }
                5 => {
                    t.push("movetime".into());
                    t.push(if self.rng.chance(85) {
                        self.rng.range(0, 40).to_string()
                    } else {
                        self.number()
                    });
                }
                6..=8 => {
                    for key in ["wtime", "btime", "winc", "binc", "movestogo"] {
                        if self.rng.chance(60) {
                            t.push(key.into());
                            let v = if self.rng.chance(60) {
                                match key {
                                    "wtime" | "btime" => self.rng.range(0, 3_000),
                                    "movestogo" => self.rng.range(0, 40),
                                    _ => self.rng.range(0, 100),
                                }
                                .to_string()
                            } else {
                                self.number()
                            };
                            t.push(v);
                        }
                    }
                }
                9 => t.push("infinite".into()),
                10 | 11 => {
                    t.push("searchmoves".into());
                    let moves = board.legal_moves();
                    for _ in 0..self.rng.range(0, 4) {
                        if moves.is_empty() {
                            break;
                        }
                        let mv = moves.as_slice()[self.rng.below(moves.len())];
                        let text = self.move_text(&board, mv);
                        t.push(text);
                    }
                    if self.rng.chance(30) {
                        t.push(self.rng.pick(BAD_MOVES).into());
                    }
                }
                12 => {
                    t.push("mate".into());
                    t.push(self.rng.range(1, 4).to_string());
                }
                13 => t.push(
                    self.rng
                        .pick(&["foo", "ponderx", "-1", "searchmove", "é"])
                        .into(),
                ),
                14 => t.push(self.rng.pick(TAKES_VALUE).into()),
                _ => {}
            }
        }
        t.join(" ")
    }

    fn setoption(&mut self) -> String {
        let s = match self.rng.below(17) {
            0 => format!("setoption name Hash value {}", self.rng.range(1, 64)),
            1 => "setoption name Hash value 1".into(),
            2 => format!(
                "setoption name Hash value {}",
                self.rng
                    .pick(&["0", "-1", "lots", "99999999999999999999", ""])
            ),
            3 | 4 => format!("setoption name Threads value {}", self.rng.range(1, 2)),
            5 => format!(
                "setoption name Threads value {}",
                self.rng.pick(&["0", "-2", "two", "1e30"])
            ),
            6 | 15 => format!(
                "setoption name MultiPV value {}",
                self.rng.pick(&["1", "2", "3", "4", "0", "257"])
            ),
            7 => format!(
                "setoption name Move Overhead value {}",
                self.rng.pick(&["0", "10", "100", "5000", "5001", "-1"])
            ),
            8 => format!(
                "setoption name SMP value {}",
                self.rng.pick(&["Split", "Lazy", "lazy", "SPLIT", "Both"])
            ),
            9 => self
                .rng
                .pick(&[
                    "setoption name Clear Hash",
                    "setoption name clear hash value now",
                ])
                .into(),
            10 => format!(
                "setoption name Ponder value {}",
                self.rng.pick(&["true", "false", "maybe"])
            ),
            11 | 12 => format!(
                "setoption name {} value {}",
                self.rng.pick(&["UCI_Chess960", "uci_chess960"]),
                self.rng.pick(&["true", "false", "TRUE", "yes", ""])
            ),
            13 => "setoption NAME threads VALUE 1".into(),
            _ => self
                .rng
                .pick(&[
                    "setoption",
                    "setoption name",
                    "setoption value 3",
                    "setoption name Hash",
                    "setoption name Foo value 1",
                    "setoption name Hash value 8 value 9",
                    "setoption name  Move   Overhead  value 20",
                ])
                .into(),
        };
        s
    }

    /// A line of junk: invalid UTF-8, Unicode, unknown words, whitespace, or very long.
    fn garbage(&mut self) -> Vec<u8> {
        match self.rng.below(8) {
            0 => {
                // Random bytes, usually invalid UTF-8.
                let mut b = vec![0x80 | self.rng.next() as u8];
                for _ in 0..self.rng.range(0, 60) {
                    let x = self.rng.next() as u8;
                    b.push(if x == b'\n' { b' ' } else { x });
                }
                b
            }
            1 => {
                let mut s = String::new();
                for _ in 0..self.rng.range(1, 20) {
                    s.push_str(self.rng.pick(UNICODE));
                }
                s.into_bytes()
            }
            2 => self.rng.pick(GARBAGE_WORDS).as_bytes().to_vec(),
            3 => self
                .rng
                .pick(&["", "   ", "\t", "\r", " \u{00A0} "])
                .as_bytes()
                .to_vec(),
            4 => {
                // Unicode whitespace around a command: still that command.
                let cmd = self.rng.pick(&["isready", "d", "stop"]);
                format!("\u{3000}{cmd}\u{00A0}\r").into_bytes()
            }
            5 => {
                // A very long line.
                let n = self.rng.range(10_000, 200_000) as usize;
                match self.rng.below(4) {
                    0 => vec![b'a'; n],
                    1 => {
                        let mut s = b"isready".to_vec();
                        s.extend(std::iter::repeat_n(b' ', n));
                        s
                    }
                    2 => {
                        let mut s = b"setoption name ".to_vec();
                        s.extend(std::iter::repeat_n(b'x', n));
                        s
                    }
                    _ => {
                        let mut s = b"x".to_vec();
                        for _ in 0..n / 8 {
                            s.extend_from_slice(b" e2e4 \xe2\x99\x94");
                        }
                        s
                    }
                }
            }
            6 => {
                // A long go: every legal move as searchmoves, many times.
                let board = self.model.board;
                let moves: Vec<String> = board
                    .legal_moves()
                    .iter()
                    .map(|&m| board.to_uci(m))
                    .collect();
                let mut s = String::from("go depth 2 searchmoves");
                for _ in 0..self.rng.range(1, 200) {
                    for m in &moves {
                        s.push(' ');
                        s.push_str(m);
                    }
                }
                s.into_bytes()
            }
            _ => b"\xff\xfeisready".to_vec(),
        }
    }

    /// The combinations that tend to hurt.
    fn nasty(&mut self) {
        match self.rng.below(9) {
            0 => {
                let go = self.go(false);
                self.write(vec!["stop".into(), go]);
            }
            1 => {
                let n = self.rng.range(2, 10) as usize;
                let lines = (0..n)
                    .flat_map(|_| ["go infinite".to_string(), "stop".to_string()])
                    .collect();
                self.write(lines);
            }
            2 => {
                let threads = self.rng.range(1, 2);
                let go = self.go(false);
                self.write(vec![
                    "stop".into(),
                    format!("setoption name Threads value {threads}"),
                    go,
                ]);
            }
            3 => {
                let n = self.rng.range(2, 5);
                let lines = (0..n).map(|_| self.go(false)).collect();
                self.write(lines);
            }
            4 => self.write(vec![
                "go infinite".into(),
                "isready".into(),
                "ucinewgame".into(),
                "isready".into(),
            ]),
            5 | 6 => self.ponder(),
            7 => {
                let p = self.position();
                let go = self.go(false);
                self.write(vec![p, go, "d".into(), "isready".into()]);
            }
            _ => {
                let hash = self.rng.range(1, 64);
                let go = self.go(false);
                self.write(vec![
                    "go depth 3".into(),
                    "d".into(),
                    "eval".into(),
                    "stop".into(),
                    format!("setoption name Hash value {hash}"),
                    "setoption name MultiPV value 3".into(),
                    go,
                    "go perft 2".into(),
                ]);
            }
        }
    }

    /// `go ponder`, then a ponder hit or miss.
    fn ponder(&mut self) {
        let go = self.go(true);
        let pause = self.rng.range(0, 30) as u64;
        self.write_bytes(vec![go.into_bytes()], pause);
        let next: Vec<String> = match self.rng.below(7) {
            0 => vec!["ponderhit".into()],
            1 => vec!["stop".into()],
            2 => {
                // A miss: the GUI stops the ponder search and starts another.
                let p = self.position();
                let go = self.go(false);
                vec!["stop".into(), p, go]
            }
            3 => vec!["ponderhit".into(), "stop".into()],
            4 => {
                let go = self.go(false);
                vec!["ponderhit".into(), go]
            }
            5 => vec!["ponderhit".into(), "ponderhit".into(), "isready".into()],
            _ => {
                let p = self.position();
                vec![p, "ponderhit".into()]
            }
        };
        self.write(next);
    }

    /// One random write.
    fn step(&mut self) {
        match self.rng.below(100) {
            0..=16 => {
                let p = self.position();
                self.write(vec![p]);
            }
            17..=36 => {
                let go = self.go(false);
                self.write(vec![go]);
            }
            37..=43 => self.write(vec!["stop".into()]),
            44..=50 => self.write(vec!["isready".into()]),
            51..=58 => {
                let s = self.setoption();
                let mut lines = vec![];
                if self.model.may_run && s.to_ascii_lowercase().contains("chess960") {
                    // Applied only once the search has ended: make sure it has.
                    lines.push("stop".to_string());
                }
                lines.push(s);
                self.write(lines);
            }
            59..=61 => self.write(vec!["ucinewgame".into()]),
            62..=65 => self.write(vec!["d".into()]),
            66..=68 => self.write(vec!["eval".into()]),
            69..=70 => self.write(vec!["uci".into()]),
            71..=73 => self.write(vec!["ponderhit".into()]),
            74..=83 => {
                let g = self.garbage();
                let pause = self.pause();
                self.write_bytes(vec![g], pause);
            }
            _ => self.nasty(),
        }
    }
}

fn generate(seed: u64, steps: usize) -> Stream {
    let threads = if seed & 1 == 1 { 2 } else { 1 };
    let mut g = Gen {
        rng: Rng(seed),
        model: Model::new(),
        steps: Vec::new(),
    };
    let mut start = vec![format!("setoption name Threads value {threads}")];
    if g.rng.chance(50) {
        start.insert(0, "uci".into());
        start.push("isready".into());
    }
    g.write(start);
    for _ in 0..steps {
        g.step();
    }
    if g.model.must_end() {
        g.steps.last_mut().unwrap().await_best = true;
    }
    g.write_bytes(vec![b"stop".to_vec(), b"isready".to_vec()], 0);
    assert!(g.model.ambiguous.is_none(), "{:?}", g.model.ambiguous);
    Stream {
        seed,
        threads,
        steps: g.steps,
        model: g.model,
    }
}

impl Stream {
    /// A stream of given steps (as the minimiser makes them), or `None` if the model cannot
    /// predict the engine's answers to it.
    fn of_steps(seed: u64, threads: usize, steps: Vec<Step>) -> Option<Stream> {
        let mut model = Model::new();
        for l in steps.iter().flat_map(|s| &s.lines) {
            model.feed(l);
        }
        model.ambiguous.is_none().then_some(Stream {
            seed,
            threads,
            steps,
            model,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// The engine process

/// The engine, with stdin fed from a thread (so a stuck engine cannot block the test) and
/// stdout and stderr read on threads.
struct Proc {
    child: Child,
    input: Option<Sender<Vec<u8>>>,
    writer: Option<JoinHandle<()>>,
    lines: Receiver<Option<String>>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_reader: Option<JoinHandle<()>>,
    /// Every stdout line so far.
    log: Vec<String>,
    eof: bool,
}

impl Proc {
    fn start() -> Proc {
        let mut child = Command::new(env!("CARGO_BIN_EXE_engram"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env("RUST_BACKTRACE", "0")
            .spawn()
            .expect("engram starts");
        let stdin: ChildStdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut stderr_pipe = child.stderr.take().unwrap();
        let (in_tx, in_rx) = channel::<Vec<u8>>();
        let writer = std::thread::spawn(move || {
            let mut stdin = stdin;
            for chunk in in_rx {
                if stdin.write_all(&chunk).and_then(|_| stdin.flush()).is_err() {
                    break;
                }
            }
        });
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        while buf.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
                            buf.pop();
                        }
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if tx.send(Some(line)).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = tx.send(None);
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = stderr.clone();
        let stderr_reader = std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = stderr_pipe.read_to_end(&mut buf);
            sink.lock().unwrap().extend_from_slice(&buf);
        });
        Proc {
            child,
            input: Some(in_tx),
            writer: Some(writer),
            lines: rx,
            stderr,
            stderr_reader: Some(stderr_reader),
            log: Vec::new(),
            eof: false,
        }
    }

    fn send(&self, bytes: Vec<u8>) {
        if let Some(tx) = &self.input {
            let _ = tx.send(bytes);
        }
    }

    /// Reads what arrives during `wait` (at least what has arrived already).
    fn pump(&mut self, wait: Duration) {
        let deadline = Instant::now() + wait;
        loop {
            if self.eof {
                std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
                return;
            }
            match self
                .lines
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(Some(line)) => self.log.push(line),
                Ok(None) | Err(RecvTimeoutError::Disconnected) => self.eof = true,
                Err(RecvTimeoutError::Timeout) => return,
            }
        }
    }

    fn count(&self, pred: impl Fn(&str) -> bool) -> usize {
        self.log.iter().filter(|l| pred(l)).count()
    }

    fn stderr_text(&mut self) -> String {
        if let Some(h) = self.stderr_reader.take() {
            let _ = h.join();
        }
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    /// Sends `quit` and waits for the exit status and the end of stdout.
    fn quit(&mut self) -> Result<(), String> {
        self.send(b"quit\n".to_vec());
        self.input = None;
        if let Some(w) = self.writer.take() {
            let _ = w.join();
        }
        let start = Instant::now();
        let status = loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                break status;
            }
            if start.elapsed() > Duration::from_secs(10) {
                return Err("did not exit within 10 s of quit".into());
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        while !self.eof && start.elapsed() < Duration::from_secs(15) {
            self.pump(Duration::from_millis(100));
        }
        if !status.success() {
            return Err(format!("exit status after quit: {status}"));
        }
        Ok(())
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------------------------------------
// Checking the output

fn is_bestmove(l: &str) -> bool {
    l.starts_with("bestmove")
}

fn is_reply(l: &str) -> bool {
    l == "readyok" || l == "uciok" || l.starts_with("Fen: ") || l.starts_with("Nodes searched: ")
}

/// The legal move of `board` whose UCI text (as the engine writes it) is `text`.
fn find_move(board: &Board, text: &str) -> Option<Move> {
    board
        .legal_moves()
        .iter()
        .copied()
        .find(|&m| board.to_uci(m) == text)
}

fn check_bestmove(line: &str, s: &Search) -> Result<(), String> {
    let t: Vec<&str> = line.split(' ').collect();
    let legal = s.board.legal_moves();
    let fen = s.board.to_fen();
    match t.as_slice() {
        ["bestmove", "0000"] => {
            if !legal.is_empty() {
                return Err(format!(
                    "'{line}' but {fen} has {} legal moves",
                    legal.len()
                ));
            }
        }
        ["bestmove", mv] | ["bestmove", mv, "ponder", _] => {
            let Some(best) = find_move(&s.board, mv) else {
                return Err(format!("'{line}': {mv} is not a legal move in {fen}"));
            };
            if !s.searchmoves.is_empty() && !s.searchmoves.contains(&best) {
                return Err(format!("'{line}': {mv} is not one of the searchmoves"));
            }
            if let ["bestmove", _, "ponder", p] = t.as_slice() {
                let mut after = s.board;
                after.play(best);
                if find_move(&after, p).is_none() {
                    return Err(format!(
                        "'{line}': ponder move {p} is not legal after {mv} in {fen}"
                    ));
                }
            }
        }
        _ => return Err(format!("malformed bestmove line '{line}'")),
    }
    Ok(())
}

/// An `info` line of search `s`: its `pv` is legal, its `currmove` a legal root move.
fn check_info(line: &str, s: &Search) -> Result<(), String> {
    let t: Vec<&str> = line.split_whitespace().collect();
    let fen = s.board.to_fen();
    if let Some(i) = t.iter().position(|&x| x == "currmove") {
        let Some(mv) = t.get(i + 1).and_then(|m| find_move(&s.board, m)) else {
            return Err(format!("'{line}': currmove is not a legal move in {fen}"));
        };
        if !s.searchmoves.is_empty() && !s.searchmoves.contains(&mv) {
            return Err(format!("'{line}': currmove is not one of the searchmoves"));
        }
    }
    if let Some(i) = t.iter().position(|&x| x == "pv") {
        let mut b = s.board;
        for (k, m) in t[i + 1..].iter().enumerate() {
            let Some(mv) = find_move(&b, m) else {
                return Err(format!("'{line}': pv move {m} is illegal ({fen})"));
            };
            if k == 0 && !s.searchmoves.is_empty() && !s.searchmoves.contains(&mv) {
                return Err(format!("'{line}': pv starts outside the searchmoves"));
            }
            b.play(mv);
        }
    }
    Ok(())
}

/// Checks the whole output of a stream against the model.
fn check_output(m: &Model, log: &[String], stderr: &str) -> Result<(), String> {
    let mut best = 0;
    let mut replies = 0;
    let mut evals = 0;
    let mut errors = 0;
    for (n, line) in log.iter().enumerate() {
        let at = |e: String| format!("output line {}: {e}", n + 1);
        if is_bestmove(line) {
            let Some(s) = m.searches.get(best) else {
                return Err(at(format!(
                    "'{line}' is bestmove #{} but only {} go were accepted",
                    best + 1,
                    m.searches.len()
                )));
            };
            check_bestmove(line, s).map_err(|e| at(format!("go of input line {}: {e}", s.line)))?;
            best += 1;
        } else if is_reply(line) {
            let Some(due) = m.replies.get(replies) else {
                return Err(at(format!("unexpected '{line}'")));
            };
            let ok = match &due.reply {
                Reply::ReadyOk => line == "readyok",
                Reply::UciOk => line == "uciok",
                Reply::Fen(fen) => line.strip_prefix("Fen: ") == Some(fen.as_str()),
                Reply::Perft(n) => line.strip_prefix("Nodes searched: ") == Some(&n.to_string()),
            };
            if !ok {
                return Err(at(format!(
                    "'{line}' but input line {} expects {:?}",
                    due.line, due.reply
                )));
            }
            if best < due.min_best || best > due.max_best {
                return Err(at(format!(
                    "'{line}' (input line {}) after {best} bestmoves, expected {}..={}",
                    due.line, due.min_best, due.max_best
                )));
            }
            if errors < due.errors.0 || errors > due.errors.1 {
                return Err(at(format!(
                    "'{line}' (input line {}) after {errors} error lines, expected {}..={}",
                    due.line, due.errors.0, due.errors.1
                )));
            }
            replies += 1;
        } else if line.starts_with("Static eval") {
            evals += 1;
        } else if line.starts_with("info string error: search thread") {
            return Err(at(format!("a search thread failed: '{line}'")));
        } else if line.starts_with("info string error: ") {
            errors += 1;
        } else if line.starts_with("info") && !line.starts_with("info string") {
            let Some(s) = m.searches.get(best) else {
                return Err(at(format!("'{line}' after the last bestmove")));
            };
            check_info(line, s).map_err(|e| at(format!("go of input line {}: {e}", s.line)))?;
        }
        if !line.starts_with("info string")
            && ["bestmove", "readyok", "uciok", "info "]
                .iter()
                .any(|w| line.get(1..).is_some_and(|rest| rest.contains(w)))
        {
            return Err(at(format!("lines run together: '{line}'")));
        }
    }
    if best != m.searches.len() {
        return Err(format!(
            "{best} bestmoves for {} accepted go",
            m.searches.len()
        ));
    }
    if replies != m.replies.len() {
        return Err(format!(
            "{replies} replies (readyok/uciok/Fen/Nodes) for {} due; next due: {:?}",
            m.replies.len(),
            m.replies.get(replies)
        ));
    }
    if errors < m.errors.0 || errors > m.errors.1 {
        return Err(format!(
            "{errors} 'info string error' lines, expected {}..={}",
            m.errors.0, m.errors.1
        ));
    }
    if evals < m.evals.0 || evals > m.evals.1 {
        return Err(format!(
            "{evals} 'Static eval' lines, expected {}..={}",
            m.evals.0, m.evals.1
        ));
    }
    if stderr.contains("panicked") || stderr.contains("RUST_BACKTRACE") {
        return Err(format!("panic on stderr:\n{stderr}"));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Running streams

#[derive(Default, Debug, Clone, Copy)]
struct Stats {
    streams: usize,
    writes: usize,
    lines: usize,
    searches: usize,
    replies: usize,
}

impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.streams += o.streams;
        self.writes += o.writes;
        self.lines += o.lines;
        self.searches += o.searches;
        self.replies += o.replies;
    }
}

fn transcript(steps: &[Step]) -> String {
    let mut out = String::new();
    let mut n = 0;
    for s in steps {
        for (k, l) in s.lines.iter().enumerate() {
            n += 1;
            let text = String::from_utf8_lossy(l);
            let text: String = if text.len() > 200 {
                let cut = (0..=200).rev().find(|&i| text.is_char_boundary(i)).unwrap();
                format!("{}... ({} bytes)", &text[..cut], l.len())
            } else {
                text.into_owned()
            };
            let join = if k + 1 < s.lines.len() { " \\" } else { "" };
            out.push_str(&format!("{n:4}  {text:?}{join}\n"));
        }
        if s.await_best {
            out.push_str("      (wait for the bestmove)\n");
        }
        if s.pause_ms > 0 {
            out.push_str(&format!("      (pause {} ms)\n", s.pause_ms));
        }
    }
    out
}

/// Runs one stream; on failure, the reason with the stream's transcript and output.
fn run(stream: &Stream, verbose: bool) -> Result<Stats, String> {
    let m = &stream.model;
    let mut p = Proc::start();
    let mut so_far = Model::new();
    let mut result = Ok(());
    for step in &stream.steps {
        p.send(step.bytes());
        for l in &step.lines {
            so_far.feed(l);
        }
        if step.await_best {
            let deadline = Instant::now() + FINAL_WAIT;
            while p.count(is_bestmove) < so_far.searches.len() && !p.eof {
                if Instant::now() > deadline {
                    let s = so_far.searches.last().unwrap();
                    result = Err(format!(
                        "the search of input line {} did not end by itself within {FINAL_WAIT:?}",
                        s.line
                    ));
                    break;
                }
                p.pump(Duration::from_millis(20));
            }
            if result.is_err() {
                break;
            }
        }
        p.pump(Duration::from_millis(step.pause_ms));
    }
    let want_ready = m
        .replies
        .iter()
        .filter(|d| d.reply == Reply::ReadyOk)
        .count();
    let deadline = Instant::now() + FINAL_WAIT;
    while result.is_ok() {
        let ready = p.count(|l| l == "readyok");
        let best = p.count(is_bestmove);
        if ready >= want_ready && best >= m.searches.len() {
            break;
        }
        if p.eof {
            let status = p.child.try_wait().ok().flatten();
            result = Err(format!(
                "the engine exited before quit (status {status:?}); {best}/{} bestmoves, \
                 {ready}/{want_ready} readyok",
                m.searches.len()
            ));
            break;
        }
        if Instant::now() > deadline {
            result = Err(format!(
                "no answer within {FINAL_WAIT:?} of the last command: {best}/{} bestmoves, \
                 {ready}/{want_ready} readyok",
                m.searches.len()
            ));
            break;
        }
        p.pump(Duration::from_millis(50));
    }
    if result.is_ok() {
        result = p.quit();
    }
    if result.is_err() {
        // A stuck engine: kill it, so that its stderr ends.
        let _ = p.child.kill();
        let _ = p.child.wait();
    }
    let stderr = p.stderr_text();
    if result.is_ok() {
        result = check_output(m, &p.log, &stderr);
    }
    let report = |e: &str| {
        let tail: Vec<&String> = p.log.iter().rev().take(400).collect();
        let log: Vec<String> = tail
            .into_iter()
            .rev()
            .map(|l| {
                if l.len() > 300 {
                    format!("{}...", &l[..l.floor_char_boundary(300)])
                } else {
                    l.clone()
                }
            })
            .collect();
        format!(
            "stream seed {:#x} (threads {}): {e}\n--- input ---\n{}--- output ({} lines, last 400) ---\n{}\n--- stderr ---\n{stderr}",
            stream.seed,
            stream.threads,
            transcript(&stream.steps),
            p.log.len(),
            log.join("\n")
        )
    };
    if verbose {
        println!("{}", report(result.as_ref().err().map_or("ok", |e| e)));
    }
    result.map_err(|e| report(&e))?;
    Ok(Stats {
        streams: 1,
        writes: stream.steps.len() + 1,
        lines: m.lines + 1,
        searches: m.searches.len(),
        replies: m.replies.len(),
    })
}

/// Runs the streams of `seeds`; returns the totals and the failures (seed, report).
fn run_all(seeds: &[u64], steps: usize) -> (Stats, Vec<(u64, String)>) {
    let mut stats = Stats::default();
    let mut failures = Vec::new();
    for &seed in seeds {
        let stream = generate(seed, steps);
        match run(&stream, false) {
            Ok(s) => stats += s,
            Err(e) => {
                println!("FAILED: stream seed {seed:#x}\n{e}\n");
                failures.push((seed, e));
            }
        }
    }
    (stats, failures)
}

fn summary(failures: &[(u64, String)], steps: usize) -> String {
    let seeds: Vec<String> = failures.iter().map(|(s, _)| format!("{s:#x}")).collect();
    let first = failures.first().map_or("", |(_, e)| e.as_str());
    let release = if cfg!(debug_assertions) {
        ""
    } else {
        " --release"
    };
    format!(
        "{} failing stream(s), seeds [{}] (replay: FUZZ_STREAM=<seed> FUZZ_STEPS={steps} \
         cargo test -p engram{release} --test integration -- --ignored --nocapture uci_fuzz::fuzz_long)\n\
         first failure: {first}",
        failures.len(),
        seeds.join(", ")
    )
}

/// What kind of failure a report is: its first line without numbers and quoted text.
fn signature(report: &str) -> String {
    let first = report.lines().next().unwrap_or("");
    let first = first.split_once("): ").map_or(first, |(_, e)| e);
    let mut out = String::new();
    let mut quoted = false;
    for c in first.chars() {
        match c {
            '\'' => quoted = !quoted,
            _ if quoted || c.is_ascii_digit() => {}
            _ => out.push(c),
        }
    }
    out.split_whitespace().take(8).collect::<Vec<_>>().join(" ")
}

/// Whether `steps` still fail the way `sig` says, in one of `tries` runs.
fn still_fails(stream: &Stream, steps: Vec<Step>, sig: &str, tries: usize) -> Option<Stream> {
    let candidate = Stream::of_steps(stream.seed, stream.threads, steps)?;
    for _ in 0..tries {
        if let Err(e) = run(&candidate, false) {
            if signature(&e) == sig {
                return Some(candidate);
            }
        }
    }
    None
}

/// Greedy minimisation of a failing stream: drops runs of writes (halving their length),
/// then single lines of the writes left, then the pauses, as long as it still fails the
/// same way (a run that does not fail is retried: races need not show every time).
fn minimize(stream: Stream, first_failure: &str) -> Stream {
    let sig = signature(first_failure);
    println!("minimising stream {:#x}, failure: {sig}", stream.seed);
    let tries = 3;
    let mut best = stream;
    let mut chunk = best.steps.len() / 2;
    while chunk >= 1 {
        let mut i = 0;
        while i < best.steps.len() {
            let mut steps = best.steps.clone();
            steps.drain(i..(i + chunk).min(steps.len()));
            match still_fails(&best, steps, &sig, tries) {
                Some(s) => {
                    best = s;
                    println!("  {} writes", best.steps.len());
                }
                None => i += chunk,
            }
        }
        chunk /= 2;
    }
    for i in 0..best.steps.len() {
        let mut k = 0;
        while k < best.steps.get(i).map_or(0, |s| s.lines.len()) {
            let mut steps = best.steps.clone();
            steps[i].lines.remove(k);
            if steps[i].lines.is_empty() {
                steps.remove(i);
            }
            match still_fails(&best, steps, &sig, tries) {
                Some(s) => best = s,
                None => k += 1,
            }
        }
    }
    let mut steps = best.steps.clone();
    for s in &mut steps {
        s.pause_ms = 0;
    }
    if let Some(s) = still_fails(&best, steps, &sig, tries) {
        best = s;
    }
    best
}

#[test]
fn model_follows_the_documented_rules() {
    // The model itself, on a hand-written stream.
    let mut m = Model::new();
    for l in [
        "position startpos moves e2e4",
        "position startpos moves e2e4 e7e5 e1e3",
        "d",
        "go depth 1 searchmoves e7e5 d7d5 e2e4 depth 2",
        "isready",
        "go perft 1",
        "go depth searchmoves e7e5",
        "setoption name UCI_Chess960 value true",
        "stop",
        "setoption name uci_chess960 value TRUE",
        "position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "\u{3000}isready\u{00A0}",
    ] {
        m.feed(l.as_bytes());
    }
    m.feed(b"\xffisready");
    assert!(m.ambiguous.is_none());
    assert_eq!(m.chess960, Some(true));
    assert_eq!(m.searches.len(), 2);
    assert_eq!(m.searches[0].searchmoves.len(), 2);
    assert!(m.searches[1].searchmoves.is_empty());
    let replies: Vec<&Reply> = m.replies.iter().map(|d| &d.reply).collect();
    assert_eq!(
        replies,
        [
            &Reply::Fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into()),
            &Reply::ReadyOk,
            &Reply::Perft(20),
            &Reply::ReadyOk,
        ]
    );
    assert_eq!((m.replies[1].min_best, m.replies[1].max_best), (0, 1));
    assert_eq!((m.replies[2].min_best, m.replies[2].max_best), (1, 1));
    assert_eq!(m.board.to_fen().split(' ').nth(2), Some("HFhf"));
    // The positions the generator starts from are legal (with Chess960 castling allowed).
    for fen in FENS {
        assert!(Board::from_fen(fen, true).is_ok(), "{fen}");
    }
    let no_move = FENS
        .iter()
        .filter(|f| !Board::from_fen(f, true).unwrap().has_legal_moves())
        .count();
    assert_eq!(no_move, 4, "one checkmate, three stalemates");
    // The generator is deterministic.
    let a = generate(99, 50);
    let b = generate(99, 50);
    assert_eq!(transcript(&a.steps), transcript(&b.steps));
}

/// The bounded run: [`CI_SEEDS`], [`CI_STEPS`] writes each.
#[test]
fn fuzz_fixed_seeds() {
    let start = Instant::now();
    let (stats, failures) = run_all(CI_SEEDS, CI_STEPS);
    println!("{stats:?} in {:?}", start.elapsed());
    assert!(failures.is_empty(), "{}", summary(&failures, CI_STEPS));
}

fn env_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let v = v.trim();
    match v.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => v.parse().ok(),
    }
}

/// The long run: `FUZZ_STREAMS` streams (default 200) of `FUZZ_STEPS` writes (default 80)
/// from `FUZZ_SEED` (default: the clock); or with `FUZZ_STREAM=<seed>` that one stream,
/// printed.
#[test]
#[ignore]
fn fuzz_long() {
    let steps = env_u64("FUZZ_STEPS").unwrap_or(80) as usize;
    if let Some(seed) = env_u64("FUZZ_STREAM") {
        let stream = generate(seed, steps);
        let Err(e) = run(&stream, true) else { return };
        if env_u64("FUZZ_MINIMIZE").is_some_and(|v| v != 0) {
            let small = minimize(stream, &e);
            println!("--- minimised ---");
            let _ = run(&small, true);
        }
        panic!(
            "stream seed {seed:#x} failed: {}",
            e.lines().next().unwrap_or("")
        );
    }
    let base = env_u64("FUZZ_SEED").unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64
    });
    let n = env_u64("FUZZ_STREAMS").unwrap_or(200);
    println!("FUZZ_SEED={base} FUZZ_STREAMS={n} FUZZ_STEPS={steps}");
    let seeds: Vec<u64> = (0..n).map(|i| stream_seed(base, i)).collect();
    let start = Instant::now();
    let (stats, failures) = run_all(&seeds, steps);
    println!("{stats:?} in {:?}", start.elapsed());
    assert!(failures.is_empty(), "{}", summary(&failures, steps));
}
