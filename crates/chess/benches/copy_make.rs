//! Copy-make or make/unmake? Measures, on the legal moves of the CPW positions, the cost of the
//! board copy that copy-make adds against the cost of `play` itself. Unmake must undo at least
//! what `play` did to the bitboards, mailbox and keys, so when the copy is cheap next to `play`,
//! copy-make wins. Run: `cargo bench -p engram-chess --bench copy_make`.

use engram_chess::{Board, Move};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ];
    let mut pairs: Vec<(Board, Move)> = Vec::new();
    for fen in fens {
        let b = Board::from_fen(fen, false).unwrap();
        for &m in b.legal_moves().iter() {
            pairs.push((b, m));
        }
    }
    let reps = 200_000;
    let mut copy_ns = Vec::new();
    let mut play_ns = Vec::new();
    for _ in 0..7 {
        let t = Instant::now();
        for _ in 0..reps / 10 {
            for (b, _) in &pairs {
                let c: Board = *black_box(b);
                black_box(&c);
            }
        }
        copy_ns.push(t.elapsed().as_nanos() as f64 / (reps / 10 * pairs.len()) as f64);
        let t = Instant::now();
        for _ in 0..reps / 10 {
            for (b, m) in &pairs {
                let mut c: Board = *black_box(b);
                c.play(black_box(*m));
                black_box(&c);
            }
        }
        play_ns.push(t.elapsed().as_nanos() as f64 / (reps / 10 * pairs.len()) as f64);
    }
    copy_ns.sort_by(f64::total_cmp);
    play_ns.sort_by(f64::total_cmp);
    let (c, p) = (copy_ns[3], play_ns[3]);
    println!("board size        : {} bytes", std::mem::size_of::<Board>());
    println!("copy only         : {c:.2} ns (median of 7)");
    println!("copy + play       : {p:.2} ns (median of 7)");
    println!("copy share of make: {:.0}%", 100.0 * c / p);
}
