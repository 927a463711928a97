//! Mate tests: each position is answered with the exact `score mate N`. Mates in 2 are W. T.
//! Harvey's (verified exhaustively); mates in 3–5 are problems confirmed by Stockfish
//! (see `tests/data/README.md`).

use engram::config::EngineConfig;
use engram::search::{Control, SearchLimits, Searcher};
use engram::session::Session;
use engram::uci::text::score_text;
use engram_chess::{Board, Position};
use engram_tt::Table;
use std::sync::Arc;

fn mates() -> Vec<(String, i32)> {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/mates.txt"))
            .unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let (fen, n) = l.split_once(';').unwrap();
            (fen.trim().to_string(), n.trim().parse().unwrap())
        })
        .collect()
}

fn solve(fen: &str, n: i32, max_nodes: u64) -> String {
    let tt = Arc::new(Table::new(16).unwrap());
    let mut s = Searcher::new(tt, Arc::new(Control::default()));
    let pos = Position::new(Board::from_fen(fen, false).unwrap());
    let r = s.search(
        &pos,
        SearchLimits {
            mate: Some(n),
            nodes: Some(max_nodes),
            ..SearchLimits::default()
        },
        &Arc::new(EngineConfig::default()),
    );
    score_text(r.score)
}

#[test]
fn mates_in_two() {
    let all = mates();
    let twos: Vec<_> = all.iter().filter(|(_, n)| *n == 2).collect();
    assert!(twos.len() >= 20);
    for (fen, n) in twos {
        assert_eq!(solve(fen, *n, 5_000_000), format!("mate {n}"), "{fen}");
    }
}

/// Mate scores survive Lazy SMP's depth spreading and the threads' vote.
#[test]
fn mates_in_two_with_two_threads() {
    let twos: Vec<_> = mates().into_iter().filter(|(_, n)| *n == 2).collect();
    for threads in [2, 3] {
        let mut session = Session::new(EngineConfig {
            threads,
            ..EngineConfig::default()
        })
        .unwrap();
        for (fen, n) in &twos {
            let pos = Position::new(Board::from_fen(fen, false).unwrap());
            let limits = SearchLimits {
                mate: Some(*n),
                nodes: Some(5_000_000),
                ..SearchLimits::default()
            };
            let r = session.search(&pos, limits);
            assert_eq!(
                score_text(r.score),
                format!("mate {n}"),
                "{fen} threads {threads}"
            );
            assert!(pos.board().is_legal(r.best), "{fen}");
        }
    }
}

#[test]
fn mates_in_three_to_five() {
    let deeper: Vec<_> = mates().into_iter().filter(|(_, n)| *n > 2).collect();
    assert!(deeper.len() >= 5);
    let mut solved = 0;
    for (fen, n) in &deeper {
        let got = solve(fen, *n, 20_000_000);
        println!("{fen}: dm {n}, got {got}");
        if got == format!("mate {n}") {
            solved += 1;
        }
    }
    assert_eq!(solved, deeper.len());
}
