//! Shared helpers for the integration tests: reading the perft EPD corpora.
#![allow(dead_code)]

use engram_chess::Board;

/// One EPD line: the FEN and the `(depth, nodes)` pairs it lists.
pub struct PerftCase {
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
}

/// Reads `tests/data/<name>` (format `FEN ;D1 n ;D2 n ...`).
pub fn load(name: &str) -> Vec<PerftCase> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let mut it = p.split_whitespace();
                    let d = it.next().unwrap().trim_start_matches('D').parse().unwrap();
                    let n = it.next().unwrap().parse().unwrap();
                    (d, n)
                })
                .collect();
            PerftCase { fen, counts }
        })
        .collect()
}

/// A small deterministic PRNG (xorshift64*), so tests need no extra dependency for randomness.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Random positions reached by random legal games from the perft corpora's FENs.
pub fn random_positions(count: usize, seed: u64) -> Vec<Board> {
    let mut starts: Vec<Board> = load("standard.epd")
        .iter()
        .chain(load("tricky.epd").iter())
        .map(|c| Board::from_fen(&c.fen, false).unwrap())
        .collect();
    starts.extend(
        load("fischer960.epd")
            .iter()
            .take(100)
            .map(|c| Board::from_fen(&c.fen, true).unwrap()),
    );
    let mut rng = Rng(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut b = starts[rng.below(starts.len())];
        let plies = rng.below(80);
        for _ in 0..plies {
            let moves = b.legal_moves();
            if moves.is_empty() {
                break;
            }
            b.play(moves[rng.below(moves.len())]);
            out.push(b);
        }
    }
    out.truncate(count);
    out
}
