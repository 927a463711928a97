//! The size of chunk files in each format: `cargo run --release -p engram-nnue --example
//! chunk_size -- FILE...` reads each chunk, writes its games in versions 1 and 2, checks
//! that both read back to the same games and prints the bytes a scored position takes.

use engram_nnue::data::chunk::{chunk_bytes_version, read_chunk, read_chunk_file};

fn main() {
    let (mut positions, mut v1, mut v2) = (0u64, 0usize, 0usize);
    for path in std::env::args().skip(1) {
        let chunk = match read_chunk_file(path.as_ref()) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(1);
            }
        };
        let one = chunk_bytes_version(chunk.header, &chunk.games, 1);
        let two = chunk_bytes_version(chunk.header, &chunk.games, 2);
        for bytes in [&one, &two] {
            assert_eq!(read_chunk(bytes).expect("reads back").games, chunk.games);
        }
        positions += chunk.header.positions;
        v1 += one.len();
        v2 += two.len();
    }
    let per = |n: usize| n as f64 / positions.max(1) as f64;
    println!(
        "{positions} scored positions: version 1 {v1} bytes ({:.3} a position), version 2 {v2} bytes ({:.3} a position), {:.3}x",
        per(v1),
        per(v2),
        v1 as f64 / v2.max(1) as f64
    );
}
