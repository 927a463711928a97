//! The strength limit (`UCI_LimitStrength`, `UCI_Elo`): a search to the level's depth only,
//! a move picked among four lines (not always the best at low levels, always a legal one),
//! full strength when the limit is off, and over UCI one `info` line per `MultiPV` asked.

use engram::config::EngineConfig;
use engram::search::skill::Skill;
use engram::search::SearchLimits;
use engram::session::Session;
use engram_chess::{Board, Position};
use std::collections::HashSet;
use std::time::Duration;

use crate::common;
use common::Engine;

fn limited(elo: i32) -> Session {
    Session::new(EngineConfig {
        limit_strength: true,
        uci_elo: elo,
        ..EngineConfig::default()
    })
    .unwrap()
}

const FEN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";

#[test]
fn a_limited_search_stops_at_its_depth_and_varies_its_moves() {
    let pos = Position::new(Board::from_fen(FEN, false).unwrap());
    let limits = || SearchLimits {
        depth: Some(30),
        ..SearchLimits::default()
    };
    let mut weak = limited(1500);
    let mut moves = HashSet::new();
    // A fractional level searches to its whole level's depth or a ply deeper.
    let (shallow, deep) = (
        Skill::from_elo(1500).depth(|| u64::MAX),
        Skill::from_elo(1500).depth(|| 0),
    );
    for _ in 0..30 {
        let r = weak.search(&pos, limits());
        assert!((shallow..=deep).contains(&r.depth), "{}", r.depth);
        assert!(pos.board().is_legal(r.best));
        moves.insert(r.best);
    }
    assert!(moves.len() >= 2, "a weak level varies its moves: {moves:?}");
    // The strongest limit still searches deeper than a weak one; no limit searches to 30
    // (cut here by a node limit).
    let r = limited(2500).search(&pos, limits());
    assert!(r.depth > deep);
    let mut full = Session::new(EngineConfig::default()).unwrap();
    let r = full.search(
        &pos,
        SearchLimits {
            nodes: Some(200_000),
            ..SearchLimits::default()
        },
    );
    assert!(
        r.depth > Skill::from_elo(2500).depth(|| u64::MAX).min(12),
        "{}",
        r.depth
    );
}

#[test]
fn uci_shows_the_lines_asked_for() {
    let t = Duration::from_secs(20);
    let mut e = Engine::start();
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 2000");
    e.send(&format!("position fen {FEN}"));
    e.send("go wtime 5000 btime 5000");
    e.bestmove(t);
    let infos: Vec<&String> = e
        .log
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!infos.is_empty());
    assert!(infos.iter().all(|l| l.contains(" multipv 1 ")), "{infos:?}");
    e.send("setoption name UCI_Elo value 99999");
    let said = e.wait_for(t, |l| l.starts_with("info string"));
    assert!(said.contains("error"), "{said}");
    e.quit();
}
