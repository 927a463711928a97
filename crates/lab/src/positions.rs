//! The positions the studies search: Engram's bench positions, a fixed selection from the
//! shared EPD suites (`data/suites.epd`), and game sequences (`data/sequences.txt`) for
//! studies that follow a game move by move.

use anyhow::{anyhow, Context as _};
use engram_chess::{Board, Position};

/// A named position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    /// Short unique name, e.g. `bench.07` or `WAC.019`.
    pub name: String,
    /// The position as FEN (6 fields).
    pub fen: String,
}

/// A game fragment: a start position and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sequence {
    /// Short unique name.
    pub name: String,
    /// The start position as FEN.
    pub start: String,
    /// The moves in UCI notation (`e2e4`, `e7e8q`, castling as `e1g1`).
    pub moves: Vec<String>,
}

impl Sequence {
    /// Plays the moves from the start position and returns the game, checking that the FEN
    /// parses and every move is legal.
    pub fn replay(&self) -> anyhow::Result<Position> {
        let board = Board::from_fen(&self.start, false)
            .map_err(|e| anyhow!("{}: bad start FEN: {e}", self.name))?;
        let mut pos = Position::new(board);
        for (i, text) in self.moves.iter().enumerate() {
            let mv = pos
                .board()
                .parse_uci(text)
                .with_context(|| format!("{}: move {} ('{text}')", self.name, i + 1))?;
            pos.make(mv);
        }
        Ok(pos)
    }
}

const SUITES: &str = include_str!("../data/suites.epd");
const SEQUENCES: &str = include_str!("../data/sequences.txt");

/// Engram's bench positions (`engram::bench::POSITIONS`), named `bench.01`, `bench.02`, ….
pub fn bench() -> Vec<Named> {
    engram::bench::POSITIONS
        .iter()
        .enumerate()
        .map(|(i, fen)| Named {
            name: format!("bench.{:02}", i + 1),
            fen: fen.to_string(),
        })
        .collect()
}

/// The suite positions of `data/suites.epd` (64 positions from the shared EPD corpora; the
/// file's header says which).
pub fn suites() -> Vec<Named> {
    parse_suites(SUITES).expect("data/suites.epd is well formed (checked by the tests)")
}

/// The positions searched one by one: [`bench`] then [`suites`]; a quick run takes the first
/// 4 of each.
pub fn singles(quick: bool) -> Vec<Named> {
    let take = if quick { 4 } else { usize::MAX };
    bench()
        .into_iter()
        .take(take)
        .chain(suites().into_iter().take(take))
        .collect()
}

/// The game sequences of `data/sequences.txt`.
pub fn sequences() -> Vec<Sequence> {
    parse_sequences(SEQUENCES).expect("data/sequences.txt is well formed (checked by the tests)")
}

/// Parses the suite format: one position per line, `<FEN>; id "<name>";`; `#` lines and
/// blank lines are skipped.
pub fn parse_suites(text: &str) -> anyhow::Result<Vec<Named>> {
    data_lines(text)
        .map(|(n, line)| {
            let (fen, ops) = line
                .split_once(';')
                .ok_or_else(|| anyhow!("line {n}: no ';' after the FEN"))?;
            let name = ops
                .trim()
                .strip_prefix("id \"")
                .and_then(|rest| rest.split_once('"'))
                .map(|(id, _)| id.to_string())
                .ok_or_else(|| anyhow!("line {n}: no id \"...\" after the FEN"))?;
            Ok(Named {
                name,
                fen: fen.trim().to_string(),
            })
        })
        .collect()
}

/// Parses the sequence format: one sequence per line, `name;start FEN;move move …` with
/// UCI moves separated by spaces; `#` lines and blank lines are skipped.
pub fn parse_sequences(text: &str) -> anyhow::Result<Vec<Sequence>> {
    data_lines(text)
        .map(|(n, line)| {
            let mut parts = line.splitn(3, ';');
            let (Some(name), Some(start), Some(moves)) = (parts.next(), parts.next(), parts.next())
            else {
                return Err(anyhow!("line {n}: expected 'name;start FEN;moves'"));
            };
            let name = name.trim();
            if name.is_empty() {
                return Err(anyhow!("line {n}: empty name"));
            }
            Ok(Sequence {
                name: name.to_string(),
                start: start.trim().to_string(),
                moves: moves.split_whitespace().map(str::to_string).collect(),
            })
        })
        .collect()
}

/// The non-blank, non-comment lines with their 1-based line numbers.
fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn assert_parses(set: &[Named]) {
        for p in set {
            Board::from_fen(&p.fen, false)
                .unwrap_or_else(|e| panic!("{}: {} does not parse: {e}", p.name, p.fen));
            assert_eq!(p.fen.split_whitespace().count(), 6, "{}", p.name);
        }
    }

    #[test]
    fn bench_positions_parse() {
        let b = bench();
        assert_eq!(b.len(), engram::bench::POSITIONS.len());
        assert_eq!(b[0].name, "bench.01");
        assert_parses(&b);
    }

    #[test]
    fn suite_positions_parse_and_are_distinct() {
        let s = suites();
        assert!(s.len() >= 50, "{} suite positions", s.len());
        assert_eq!(s.len(), 64);
        assert_parses(&s);
        let names: HashSet<_> = s.iter().map(|p| &p.name).collect();
        assert_eq!(names.len(), s.len(), "suite names are unique");
        // No position twice, and none that is also a bench position.
        let placement = |fen: &str| fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
        let mut seen: HashSet<String> = bench().iter().map(|p| placement(&p.fen)).collect();
        for p in &s {
            assert!(
                seen.insert(placement(&p.fen)),
                "{} repeats a position",
                p.name
            );
        }
    }

    #[test]
    fn singles_are_bench_then_suites() {
        let all = singles(false);
        assert_eq!(all.len(), bench().len() + suites().len());
        let quick = singles(true);
        assert_eq!(quick.len(), 8);
        assert_eq!(quick[0], bench()[0]);
        assert_eq!(quick[4], suites()[0]);
    }

    #[test]
    fn sequences_replay_legally() {
        let seqs = sequences();
        assert!(!seqs.is_empty());
        let names: HashSet<_> = seqs.iter().map(|s| &s.name).collect();
        assert_eq!(names.len(), seqs.len(), "sequence names are unique");
        for s in &seqs {
            assert!(!s.moves.is_empty(), "{}", s.name);
            let pos = s.replay().unwrap_or_else(|e| panic!("{e:#}"));
            assert_eq!(pos.ply(), s.moves.len());
        }
    }

    #[test]
    fn malformed_data_is_reported() {
        assert!(parse_suites("8/8/8/8/8/8/8/K6k w - - 0 1\n").is_err());
        assert!(parse_suites("8/8/8/8/8/8/8/K6k w - - 0 1; bm Ka2;\n").is_err());
        let ok = parse_suites("# c\n\n8/8/8/8/8/8/8/K6k w - - 0 1; id \"x\";\n").unwrap();
        assert_eq!(ok[0].name, "x");
        assert!(parse_sequences("just a name\n").is_err());
        let seq = parse_sequences("s;8/8/8/8/8/8/8/K6k w - - 0 1;a1a2 h1h2\n").unwrap();
        assert_eq!(seq[0].moves, ["a1a2", "h1h2"]);
        seq[0].replay().unwrap();
        let bad = parse_sequences("s;8/8/8/8/8/8/8/K6k w - - 0 1;a1a3\n").unwrap();
        let err = format!("{:#}", bad[0].replay().unwrap_err());
        assert!(err.contains("move 1") && err.contains("a1a3"), "{err}");
    }
}
