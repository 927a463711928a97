//! The opening book on the real binary: `OwnBook`, `Book File` and `Best Book Move` with a
//! small Polyglot book written here; a damaged or missing file refused with the engine
//! playing on; and (ignored unless installed) Debian's `gnuchess-book`.

use crate::common;

use common::{best, Engine, TempDir};
use engram_chess::book::{encode_move, BookEntry};
use engram_chess::{Board, Book};
use std::path::{Path, PathBuf};
use std::time::Duration;

const T: Duration = Duration::from_secs(60);
const GNUCHESS_BOOK: &str = "/usr/share/games/gnuchess/book.bin";

/// A book: the start position with e2e4 (weight 40), d2d4 (10) and b1c3 (0, never played);
/// after 1. e4 the reply c7c5 (5).
fn small_book(dir: &TempDir) -> PathBuf {
    let start = Board::startpos();
    let entry = |board: &Board, uci: &str, weight| BookEntry {
        key: board.key(),
        raw_move: encode_move(board.parse_uci(uci).unwrap()),
        weight,
        learn: 0,
    };
    let mut after_e4 = start;
    after_e4.play(start.parse_uci("e2e4").unwrap());
    let book = Book::from_entries(vec![
        entry(&start, "e2e4", 40),
        entry(&start, "d2d4", 10),
        entry(&start, "b1c3", 0),
        entry(&after_e4, "c7c5", 5),
    ]);
    let path = dir.join("small.bin");
    std::fs::write(&path, book.to_bytes()).unwrap();
    path
}

fn set(e: &mut Engine, name: &str, value: &Path) {
    e.send(&format!("setoption name {name} value {}", value.display()));
}

/// `go` with a clock from `moves`; the lines up to `bestmove`.
fn play(e: &mut Engine, moves: &str) -> (Vec<String>, String) {
    e.sync(T);
    e.send(&format!("position startpos{moves}"));
    e.send("go wtime 10000 btime 10000 winc 100 binc 100");
    collect(e)
}

/// The lines up to `bestmove`, and that line.
fn collect(e: &mut Engine) -> (Vec<String>, String) {
    let mut lines = Vec::new();
    loop {
        let line = e.wait_for(T, |_| true);
        if line.starts_with("bestmove") {
            return (lines, line);
        }
        lines.push(line);
    }
}

fn is_book_move(lines: &[String]) -> bool {
    lines.iter().any(|l| l.starts_with("info string book move"))
}

#[test]
fn own_book_plays_book_moves_by_weight_then_searches() {
    let dir = TempDir::new("book-small");
    let path = small_book(&dir);
    let mut e = Engine::start();
    set(&mut e, "Book File", &path);
    let said = e.wait_for(T, |l| l.starts_with("info string"));
    assert!(said.contains("4 entries"), "{said}");

    // OwnBook off (the default): the book is loaded but the engine searches.
    let (lines, _) = play(&mut e, "");
    assert!(!is_book_move(&lines), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info depth")));

    e.send("setoption name OwnBook value true");
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..40 {
        let (lines, best_line) = play(&mut e, "");
        assert!(is_book_move(&lines), "{lines:?}");
        assert!(
            !lines.iter().any(|l| l.starts_with("info depth")),
            "{lines:?}"
        );
        seen.insert(best(&best_line).to_string());
    }
    // Weighted: both moves with weight come up over 40 draws (d2d4 at 1/5: missed with
    // probability 0.8^40 ≈ 1e-4); the weight-0 move never does.
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        ["d2d4", "e2e4"],
        "book moves drawn"
    );

    e.send("setoption name Best Book Move value true");
    for _ in 0..5 {
        let (_, best_line) = play(&mut e, "");
        assert_eq!(best(&best_line), "e2e4");
    }
    // Black's reply from the book, then out of book: a search.
    let (lines, best_line) = play(&mut e, " moves e2e4");
    assert!(
        is_book_move(&lines) && best(&best_line) == "c7c5",
        "{lines:?}"
    );
    let (lines, best_line) = play(&mut e, " moves e2e4 c7c5");
    assert!(!is_book_move(&lines), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info depth")));
    let mut board = Board::startpos();
    for m in ["e2e4", "c7c5"] {
        board.play(board.parse_uci(m).unwrap());
    }
    assert!(board.parse_uci(best(&best_line)).is_ok(), "{best_line}");

    // Analysis (`go infinite`) is not answered from the book; a fixed depth is (as any
    // limit of a game: Stockfish's rule when it had a book).
    e.send("position startpos");
    e.send("go depth 3");
    let (lines, _) = collect(&mut e);
    assert!(is_book_move(&lines), "{lines:?}");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    let (analysed, _) = collect(&mut e);
    assert!(!is_book_move(&analysed), "{analysed:?}");
    e.quit();
}

#[test]
fn a_bad_book_is_refused_and_the_engine_plays_on() {
    let dir = TempDir::new("book-bad");
    let good = small_book(&dir);
    let bytes = std::fs::read(&good).unwrap();
    let truncated = dir.join("truncated.bin");
    std::fs::write(&truncated, &bytes[..bytes.len() - 3]).unwrap();
    let mut unsorted_bytes = bytes[16..].to_vec();
    unsorted_bytes.extend_from_slice(&bytes[..16]);
    let unsorted = dir.join("unsorted.bin");
    std::fs::write(&unsorted, &unsorted_bytes).unwrap();

    let mut e = Engine::start();
    e.send("setoption name OwnBook value true");
    for (path, why) in [
        (truncated.as_path(), "whole number"),
        (unsorted.as_path(), "out of key order"),
        (Path::new("/nonexistent/book.bin"), "cannot read"),
    ] {
        set(&mut e, "Book File", path);
        let line = e.wait_for(T, |l| l.starts_with("info string"));
        assert!(
            line.starts_with("info string error") && line.contains(why),
            "{line}"
        );
        assert!(line.contains("no opening book is loaded"), "{line}");
    }
    // No book: OwnBook searches.
    let (lines, _) = play(&mut e, "");
    assert!(!is_book_move(&lines) && lines.iter().any(|l| l.starts_with("info depth")));
    // A good book, then a bad one: the good one stays.
    set(&mut e, "Book File", &good);
    e.wait_for(T, |l| l.starts_with("info string"));
    set(&mut e, "Book File", &truncated);
    let line = e.wait_for(T, |l| l.starts_with("info string"));
    assert!(
        line.contains("the opening book is") && line.contains("small.bin"),
        "{line}"
    );
    let (lines, _) = play(&mut e, "");
    assert!(is_book_move(&lines), "{lines:?}");
    // `<empty>` unloads it.
    e.send("setoption name Book File value <empty>");
    e.wait_for(T, |l| l.starts_with("info string"));
    let (lines, _) = play(&mut e, "");
    assert!(!is_book_move(&lines));
    e.quit();
}

#[test]
#[ignore = "needs Debian's gnuchess-book (/usr/share/games/gnuchess/book.bin)"]
fn gnuchess_book_opens_with_the_main_moves() {
    let path = Path::new(GNUCHESS_BOOK);
    if !path.exists() {
        eprintln!("skipped: {GNUCHESS_BOOK} is absent (apt-get install gnuchess-book)");
        return;
    }
    let book = Book::load(path).unwrap();
    assert_eq!(book.len(), 180_358);
    let start = Board::startpos();
    let moves: Vec<String> = book
        .moves(&start)
        .iter()
        .map(|b| start.to_uci(b.mv))
        .collect();
    for m in ["e2e4", "d2d4", "g1f3", "c2c4"] {
        assert!(moves.iter().any(|x| x == m), "{m} not in {moves:?}");
    }
    // On the binary: ten moves of a game from the book, each one legal.
    let mut e = Engine::start();
    set(&mut e, "Book File", path);
    e.wait_for(T, |l| l.starts_with("info string"));
    e.send("setoption name OwnBook value true");
    let mut played = String::new();
    let mut board = start;
    for _ in 0..6 {
        let (lines, best_line) = play(&mut e, &played);
        let mv = board.parse_uci(best(&best_line)).expect("a legal move");
        if !is_book_move(&lines) {
            break;
        }
        board.play(mv);
        played = if played.is_empty() {
            format!(" moves {}", best(&best_line))
        } else {
            format!("{played} {}", best(&best_line))
        };
    }
    assert!(played.split_whitespace().count() >= 3, "{played}");
    e.quit();
}

#[test]
fn book_subcommand_lists_the_moves_or_says_why_not() {
    let dir = TempDir::new("book-cli");
    let path = small_book(&dir);
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_engram"))
            .arg("book")
            .arg(&path)
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&[]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("3 book moves for rnbqkbnr/"), "{text}");
    assert!(
        lines[1].starts_with("e4") && lines[1].contains("80.0%"),
        "{text}"
    );
    assert!(
        lines[2].starts_with("d4") && lines[2].contains("20.0%"),
        "{text}"
    );
    let out = run(&["--moves", "e4"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("c5       c7c5"));
    let out = run(&["--moves", "e4 c5"]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("no book moves"));
    let out = run(&["--moves", "e5"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("'e5' is not a legal move"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_engram"))
        .args(["book", "/nonexistent.bin"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read the book"));
}
