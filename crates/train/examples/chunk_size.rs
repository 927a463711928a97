//! The size of chunk files in each format: `cargo run --release -p engram-train --example
//! chunk_size -- FILE...` reads each chunk, writes its games in versions 1, 2 and 3, checks
//! that each reads back to the same games (version 3 without the scores no one trains on)
//! and prints the bytes a scored position takes. (Chunks already in version 3 have no
//! untrained scores left to write in versions 1 and 2.)

use engram_train::data::chunk::{chunk_bytes_version, read_chunk, read_chunk_file};
use engram_train::data::GameRecord;

fn main() {
    let mut positions = 0u64;
    let mut size = [0usize; 3];
    for path in std::env::args().skip(1) {
        let chunk = match read_chunk_file(path.as_ref()) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(1);
            }
        };
        let trained: Vec<GameRecord> = chunk
            .games
            .iter()
            .map(GameRecord::trained_scores_only)
            .collect();
        for (i, version) in [1u32, 2, 3].into_iter().enumerate() {
            let bytes = chunk_bytes_version(chunk.header, &chunk.games, version);
            let want = if version == 3 { &trained } else { &chunk.games };
            assert_eq!(&read_chunk(&bytes).expect("reads back").games, want);
            size[i] += bytes.len();
        }
        positions += chunk.header.positions;
    }
    let per = |n: usize| n as f64 / positions.max(1) as f64;
    println!(
        "{positions} scored positions: version 1 {} bytes ({:.3} a position), version 2 {} bytes ({:.3}), version 3 {} bytes ({:.3}); 1/2 {:.3}x, 2/3 {:.3}x",
        size[0],
        per(size[0]),
        size[1],
        per(size[1]),
        size[2],
        per(size[2]),
        size[0] as f64 / size[1].max(1) as f64,
        size[1] as f64 / size[2].max(1) as f64
    );
}
