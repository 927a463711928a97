//! Syzygy tablebases in play, on the shared 3–4-piece tables (`../shared/syzygy`; every test
//! is skipped with a message when the folder is absent): Engram, playing both sides with the
//! tables, converts won KQvKR, KRvK and KBNvK positions within the fifty-move rule, and
//! never loses a drawn KRvKR; the root's ranking keeps only moves that preserve the result;
//! `SyzygyPath` and `tbhits` over UCI.

use engram::config::EngineConfig;
use engram::search::SearchLimits;
use engram::session::Session;
use engram::tablebase::{self, Wdl};
use engram_chess::{Board, Color, Position};
use std::time::Duration;

mod common;
use common::{best, Engine};

fn tables() -> Option<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/syzygy");
    if std::path::Path::new(path).join("KQvK.rtbw").exists() {
        tablebase::set_path(path).expect("the shared tables load");
        Some(path.to_string())
    } else {
        eprintln!("skipped: the Syzygy test tables are not at {path}");
        None
    }
}

/// How a game ended.
#[derive(Debug, PartialEq, Eq)]
enum End {
    Mate(Color),
    Draw(&'static str),
}

/// Plays `pos` out, Engram against itself with `nodes` a move; the end and the plies played.
fn play(session: &mut Session, pos: &mut Position, nodes: u64) -> (End, usize) {
    session.new_game();
    for ply in 0..400 {
        let b = *pos.board();
        if b.is_checkmate() {
            return (End::Mate(!b.side_to_move()), ply);
        }
        if pos.is_fifty_move_draw() {
            return (End::Draw("fifty moves"), ply);
        }
        if pos.repetitions() >= 2 {
            return (End::Draw("repetition"), ply);
        }
        if b.is_stalemate() || b.is_insufficient_material() {
            return (End::Draw("stalemate or material"), ply);
        }
        let r = session.search(
            pos,
            SearchLimits {
                nodes: Some(nodes),
                ..SearchLimits::default()
            },
        );
        assert!(b.is_legal(r.best), "{}: {:?}", b.to_fen(), r.best);
        pos.make(r.best);
    }
    (End::Draw("400 plies"), 400)
}

/// Random positions of `white` against `black` (piece letters besides the kings, e.g. "QR"
/// for a queen against a rook), White to move, that the tables call `want`, from a fixed seed.
fn starts(white: &str, black: &str, want: Wdl, n: usize, seed: u64) -> Vec<Board> {
    let mut rng = seed;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut found = Vec::new();
    while found.len() < n {
        let mut grid = [None::<char>; 64];
        let pieces = std::iter::once('K')
            .chain(white.chars())
            .chain("k".chars())
            .chain(black.chars().map(|c| c.to_ascii_lowercase()));
        let mut ok = true;
        for p in pieces {
            let sq = (next() % 64) as usize;
            if grid[sq].is_some() {
                ok = false;
            }
            grid[sq] = Some(p);
        }
        if !ok {
            continue;
        }
        let rows: Vec<String> = (0..8)
            .rev()
            .map(|rank| {
                let mut row = String::new();
                let mut empty = 0;
                for file in 0..8 {
                    match grid[rank * 8 + file] {
                        Some(p) => {
                            if empty > 0 {
                                row.push_str(&empty.to_string());
                                empty = 0;
                            }
                            row.push(p);
                        }
                        None => empty += 1,
                    }
                }
                if empty > 0 {
                    row.push_str(&empty.to_string());
                }
                row
            })
            .collect();
        let fen = format!("{} w - - 0 1", rows.join("/"));
        let Ok(b) = Board::from_fen(&fen, false) else {
            continue;
        };
        if b.in_check() || b.legal_moves().is_empty() {
            continue;
        }
        if tablebase::probe_wdl(&b) == Some(want) {
            found.push(b);
        }
    }
    found
}

fn session() -> Session {
    Session::new(EngineConfig {
        hash: 16,
        ..EngineConfig::default()
    })
    .unwrap()
}

/// Won endings are won, by mate, before the fifty-move rule could draw them.
#[test]
fn won_endings_are_converted_within_fifty_moves() {
    if tables().is_none() {
        return;
    }
    let mut s = session();
    for (white, black, seed) in [("Q", "R", 11), ("R", "", 12), ("BN", "", 13)] {
        for b in starts(white, black, Wdl::Win, 3, seed) {
            let mut pos = Position::new(b);
            let (end, plies) = play(&mut s, &mut pos, 4_000);
            eprintln!("K{white}vK{black} {}: {end:?} in {plies} plies", b.to_fen());
            assert_eq!(end, End::Mate(Color::White), "{}", b.to_fen());
        }
    }
}

/// A drawn KRvKR is never lost, by either side.
#[test]
fn drawn_rook_endings_are_held() {
    if tables().is_none() {
        return;
    }
    let mut s = session();
    for b in starts("R", "R", Wdl::Draw, 4, 21) {
        let mut pos = Position::new(b);
        let (end, plies) = play(&mut s, &mut pos, 4_000);
        eprintln!("KRvKR {}: {end:?} in {plies} plies", b.to_fen());
        assert!(matches!(end, End::Draw(_)), "{}: {end:?}", b.to_fen());
    }
}

/// The root's ranking keeps exactly the moves that preserve the tables' result.
#[test]
fn the_root_keeps_only_moves_that_keep_the_result() {
    if tables().is_none() {
        return;
    }
    for (white, black, want, seed) in [
        ("Q", "R", Wdl::Win, 31),
        ("R", "R", Wdl::Draw, 32),
        ("", "Q", Wdl::Loss, 33),
    ] {
        for b in starts(white, black, want, 5, seed) {
            let pos = Position::new(b);
            let ranking = tablebase::rank_root(&pos, true).expect("in the tables");
            assert!(ranking.by_dtz);
            assert!(!ranking.moves.is_empty());
            for &mv in b.legal_moves().iter() {
                let mut child = b;
                child.play(mv);
                let after = if child.legal_moves().is_empty() {
                    if child.in_check() {
                        Wdl::Win
                    } else {
                        Wdl::Draw
                    }
                } else if child.occupied().len() == 2 {
                    Wdl::Draw
                } else {
                    tablebase::probe_wdl(&child).unwrap().flip()
                };
                let (fen, uci) = (b.to_fen(), b.to_uci(mv));
                match (want, ranking.moves.contains(&mv)) {
                    (Wdl::Win, true) => assert!(after >= Wdl::CursedWin, "{fen} {uci}"),
                    (Wdl::Draw, true) => assert_eq!(after, Wdl::Draw, "{fen} {uci}"),
                    // In a drawn position the moves left out lose.
                    (Wdl::Draw, false) => assert!(after < Wdl::Draw, "{fen} {uci}"),
                    _ => {}
                }
            }
        }
    }
}

/// The last `info depth` line the engine printed.
fn last_info(e: &Engine) -> String {
    let line = e.log.iter().rev().find(|l| l.starts_with("info depth"));
    line.expect("an info line").clone()
}

/// Over UCI: `SyzygyPath` says what it loaded, a bad folder is an error that keeps them,
/// and a search from a tablebase position reports `tbhits` and plays a winning move.
#[test]
fn uci_syzygy_path_and_tbhits() {
    let Some(path) = tables() else { return };
    let t = Duration::from_secs(20);
    let mut e = Engine::start();
    e.send("uci");
    e.wait_for(t, |l| l == "uciok");
    let listed = e.log.join("\n");
    assert!(listed.contains("option name SyzygyPath type string default <empty>"));
    assert!(listed.contains("option name SyzygyProbeLimit type spin default 7 min 0 max 7"));
    e.send(&format!("setoption name SyzygyPath value {path}"));
    e.wait_for(t, |l| {
        l.starts_with("info string tablebases: up to 4 pieces")
    });
    e.send("setoption name SyzygyPath value /no/such/folder");
    let said = e.wait_for(t, |l| l.starts_with("info string"));
    assert!(
        said.starts_with("info string error: SyzygyPath: '/no/such/folder' is not a folder")
            && said.ends_with(&format!("tablebases: up to 4 pieces from {path}")),
        "{said}"
    );
    // Castling rights at the root: the search probes the positions after captures.
    e.send("position fen 4k3/8/8/8/8/8/4p3/R3K2R w KQ - 0 1");
    e.send("go depth 8");
    e.bestmove(t);
    let info = last_info(&e);
    let hits: u64 = info
        .split_whitespace()
        .skip_while(|w| *w != "tbhits")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(hits > 0, "{info}");
    // KQvKR at the root: ranked by DTZ, shown as a tablebase win or a mate, a winning move.
    let fen = "8/8/8/4k3/8/3r4/8/KQ6 w - - 0 1";
    e.send(&format!("position fen {fen}"));
    e.send("go depth 6");
    let mv = best(&e.bestmove(t)).to_string();
    let info = last_info(&e);
    assert!(
        info.contains("score cp 20000") || info.contains("score mate"),
        "{info}"
    );
    let b = Board::from_fen(fen, false).unwrap();
    let m = *b
        .legal_moves()
        .iter()
        .find(|&&m| b.to_uci(m) == mv)
        .unwrap();
    let mut after = b;
    after.play(m);
    assert_eq!(
        tablebase::probe_wdl(&after),
        Some(Wdl::Loss),
        "{mv} keeps the win"
    );
    e.quit();
}

/// The measurement in `docs/measurements.md` ("Tablebases"): won positions played out by
/// Engram against itself at `nodes` a move, with the tables and without them; how many end
/// in mate (rather than a fifty-move draw or a repetition) and in how many plies. Run alone
/// (it unloads the tables the other tests use):
/// `cargo test --release -p engram --test tablebases -- --ignored --nocapture conversion`.
#[test]
#[ignore]
fn conversion_with_and_without_tables() {
    let Some(path) = tables() else { return };
    let nodes = 20_000;
    let mut s = session();
    println!("| ending | tables | mates | plies to mate (mean) | other ends |");
    println!("|---|---|---|---|---|");
    for (white, black, seed) in [("Q", "R", 41), ("R", "", 42), ("BN", "", 43)] {
        tablebase::set_path(&path).unwrap();
        let boards = starts(white, black, Wdl::Win, 20, seed);
        for with in [true, false] {
            tablebase::set_path(if with { &path } else { "" }).unwrap();
            let (mut mates, mut plies, mut other) = (0, 0, Vec::new());
            for &b in &boards {
                let (end, n) = play(&mut s, &mut Position::new(b), nodes);
                match end {
                    End::Mate(Color::White) => {
                        mates += 1;
                        plies += n;
                    }
                    e => other.push(format!("{e:?}")),
                }
            }
            println!(
                "| K{white}vK{black} | {} | {mates}/{} | {:.1} | {} |",
                if with { "yes" } else { "no" },
                boards.len(),
                plies as f64 / mates.max(1) as f64,
                other.join(", ")
            );
        }
    }
    tablebase::set_path(&path).unwrap();
}
