//! The games format: round trips, the committed chunks, and damaged files refused with an
//! error, never a panic.

use engram_chess::{Board, Move};
use engram_nnue::features::Layout;
use engram_train::data::{
    chunk::{chunk_bytes, read_chunk_file, read_header},
    extract, quantise_score, read_chunk, trained_ply, ChunkHeader, DataError, End, GameRecord,
    GameResult, Packed, UNSCORED,
};

/// A random game of up to `plies` plies from the start, with made-up scores.
fn random_game(seed: u64, plies: usize) -> GameRecord {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut board = Board::startpos();
    let opening_len = 8 + (next() % 2) as usize;
    let mut g = GameRecord {
        opening: Vec::new(),
        scored: Vec::new(),
        result: GameResult::from_code((next() % 3) as u8).unwrap(),
        end: End::from_code((next() % 8) as u8).unwrap(),
    };
    for ply in 0..plies {
        let moves = board.legal_moves();
        if moves.is_empty() || board.halfmove_clock() >= 100 {
            break;
        }
        let mv: Move = moves.as_slice()[(next() % moves.len() as u64) as usize];
        if ply < opening_len {
            g.opening.push(mv);
        } else {
            g.scored.push((mv, (next() % 4001) as i16 - 2000));
        }
        board.play(mv);
    }
    g
}

fn header() -> ChunkHeader {
    ChunkHeader {
        games: 0,
        positions: 0,
        seed: 7,
        index: 3,
        nodes: 5000,
        generator: 0,
    }
}

#[test]
fn round_trip() {
    let games: Vec<_> = (0..40)
        .map(|i| random_game(i, 20 + i as usize * 7))
        .collect();
    let bytes = chunk_bytes(header(), &games);
    let chunk = read_chunk(&bytes).unwrap();
    // Every move, and the scores of the positions the trainer may learn from, rounded to 4 cp.
    assert_eq!(chunk.games, stored(&games));
    assert_eq!(chunk.header.games, 40);
    assert_eq!(
        chunk.header.positions,
        games.iter().map(|g| g.scored.len() as u64).sum::<u64>()
    );
    assert_eq!(
        (chunk.header.seed, chunk.header.index, chunk.header.nodes),
        (7, 3, 5000)
    );
    // About 3 bytes a position.
    let plies: usize = games.iter().map(|g| g.plies()).sum();
    assert!(bytes.len() < 72 + 5 * 40 + 3 * plies);
}

/// The games as a chunk keeps them.
fn stored(games: &[GameRecord]) -> Vec<GameRecord> {
    games.iter().map(GameRecord::as_stored).collect()
}

/// The positions and scores the trainer takes from `games`.
fn extracted(games: &[GameRecord]) -> Vec<Packed> {
    let mut out = Vec::new();
    for g in games {
        extract(g, &mut out);
    }
    out
}

#[test]
fn the_trainer_gets_the_same_positions_with_scores_within_2_cp() {
    let games: Vec<_> = (0..40)
        .map(|i| random_game(50 + i, 20 + i as usize * 7))
        .collect();
    let bytes = chunk_bytes(header(), &games);
    assert_eq!(&bytes[8..12], &4u32.to_le_bytes());
    let chunk = read_chunk(&bytes).unwrap();
    assert_eq!(chunk.games, stored(&games));
    assert_eq!(chunk.header, read_header(&bytes).unwrap());
    // The same positions, their scores within 2 cp.
    let (got, want) = (extracted(&chunk.games), extracted(&games));
    assert_eq!(got.len(), want.len());
    for (a, b) in got.iter().zip(&want) {
        assert!(
            (a.score - b.score).abs() <= 2,
            "{} against {}",
            a.score,
            b.score
        );
        let (mut a, mut b) = (*a, *b);
        a.score = 0;
        b.score = 0;
        assert_eq!(a, b);
    }
    // Scores are dropped, and only those of positions no one trains on; the others rounded.
    let mut dropped = 0;
    for (g, orig) in chunk.games.iter().zip(&games) {
        let mut board = Board::startpos();
        for &mv in &g.opening {
            board.play(mv);
        }
        for (i, (&(mv, s), &(_, s0))) in g.scored.iter().zip(&orig.scored).enumerate() {
            let trained = trained_ply(&board, mv, g.opening.len() + i);
            assert_eq!(
                s,
                if trained {
                    quantise_score(s0)
                } else {
                    UNSCORED
                }
            );
            dropped += usize::from(!trained);
            board.play(mv);
        }
    }
    assert!(dropped > 0);
    // Mate scores and extreme sums round-trip too (any score a search gives).
    let mut g = random_game(9, 40);
    let n = g.scored.len();
    for (i, s) in [i16::MAX, -i16::MAX, -31990, 31990, -i16::MAX, -i16::MAX]
        .into_iter()
        .enumerate()
    {
        g.scored[n - 1 - i].1 = s;
    }
    let games = vec![g];
    assert_eq!(
        read_chunk(&chunk_bytes(header(), &games)).unwrap().games,
        stored(&games)
    );
}

#[test]
fn quantised_scores_round_to_the_nearest_four_without_bias() {
    assert_eq!(quantise_score(0), 0);
    assert_eq!(quantise_score(1), 0);
    assert_eq!(
        quantise_score(2),
        0,
        "a tie goes to an even number of quanta"
    );
    assert_eq!(quantise_score(3), 4);
    assert_eq!(quantise_score(6), 8);
    assert_eq!(quantise_score(-2), 0);
    assert_eq!(quantise_score(-6), -8);
    assert_eq!(quantise_score(-31_990), -31_992);
    assert_eq!(quantise_score(i16::MAX), 32_764);
    assert_eq!(quantise_score(-i16::MAX), -32_764);
    assert_eq!(quantise_score(i16::MIN), -32_764);
    let mut sum = 0i64;
    for s in -4000..4000i16 {
        let q = quantise_score(s);
        assert!((q - s).abs() <= 2 && q % 4 == 0 && quantise_score(q) == q);
        sum += i64::from(q - s);
    }
    assert_eq!(sum, 0, "no bias");
}

#[test]
#[should_panic(expected = "a trained position without a score")]
fn every_trained_position_needs_a_score() {
    let g = random_game(11, 60).as_stored();
    let mut board = Board::startpos();
    for &mv in &g.opening {
        board.play(mv);
    }
    let mut g = g;
    for i in 0..g.scored.len() {
        let mv = g.scored[i].0;
        if trained_ply(&board, mv, g.opening.len() + i) {
            g.scored[i].1 = UNSCORED;
            break;
        }
        board.play(mv);
    }
    chunk_bytes(header(), &[g]);
}

#[test]
fn damage_is_an_error() {
    let games: Vec<_> = (0..5).map(|i| random_game(i, 60)).collect();
    damage_is_an_error_in(&stored(&games), &chunk_bytes(header(), &games));
    // Another format version, older ones included, is refused as such.
    for v in [0u32, 1, 2, 3, 5] {
        let mut b = chunk_bytes(header(), &games);
        b[8..12].copy_from_slice(&v.to_le_bytes());
        assert_eq!(read_chunk(&b), Err(DataError::Version(v)));
    }
}

fn damage_is_an_error_in(games: &[GameRecord], bytes: &[u8]) {
    let bytes = bytes.to_vec();
    for len in 0..bytes.len() {
        assert!(read_chunk(&bytes[..len]).is_err(), "truncated to {len}");
    }
    for at in 0..bytes.len() {
        let mut b = bytes.clone();
        b[at] ^= 0x5a;
        // Flipping a header field other than magic/version/lengths/checksum (seed, index, ...)
        // reads back with that field changed; anything else must be refused.
        if let Ok(c) = read_chunk(&b) {
            assert!((12..56).contains(&at) && c.games == games, "byte {at}");
        }
    }
    let mut b = bytes.clone();
    b[0] = b'X';
    assert_eq!(read_chunk(&b), Err(DataError::BadMagic));
    assert!(read_header(&bytes[..72]).is_ok());
}

#[test]
fn malformed_body_with_valid_checksum() {
    // A move code past the legal moves, with the checksum recomputed: refused by the replay.
    let games = vec![random_game(1, 30)];
    let mut bytes = chunk_bytes(header(), &games);
    bytes[72 + 5] = 250;
    let sum = xxhash_rust::xxh3::xxh3_64(&bytes[72..]);
    bytes[64..72].copy_from_slice(&sum.to_le_bytes());
    assert!(matches!(
        read_chunk(&bytes),
        Err(DataError::Malformed { game: 0, .. })
    ));
}

/// The chunk files of `data/selfplay`, by directory (`gen6` before `gen14`), sorted.
fn committed_chunks() -> Vec<Vec<std::path::PathBuf>> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/selfplay");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort_by_key(|d| (d.as_os_str().len(), d.clone()));
    dirs.iter()
        .map(|d| {
            let mut files: Vec<_> = std::fs::read_dir(d)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "games"))
                .collect();
            files.sort();
            files
        })
        .collect()
}

#[test]
fn committed_chunks_are_read_and_written_back_byte_for_byte() {
    // Every committed chunk has a version 4 header; the first chunk of the oldest and of the
    // newest directory read in full, and writing their games gives the file byte for byte.
    let dirs = committed_chunks();
    assert!(!dirs.is_empty());
    for files in &dirs {
        assert!(!files.is_empty());
        for path in files {
            let mut head = [0u8; 72];
            std::io::Read::read_exact(&mut std::fs::File::open(path).unwrap(), &mut head).unwrap();
            read_header(&head).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
    for path in [&dirs[0][0], &dirs[dirs.len() - 1][0]] {
        let chunk = read_chunk_file(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!chunk.games.is_empty());
        let bytes = std::fs::read(path).unwrap();
        assert!(
            chunk_bytes(chunk.header, &chunk.games) == bytes,
            "{} written back",
            path.display()
        );
    }
}

#[test]
fn extraction_filters_and_packs() {
    let mut kept = Vec::new();
    let mut scored = 0;
    for i in 0..50 {
        let g = random_game(100 + i, 120);
        scored += g.scored.len();
        let n = extract(&g, &mut kept);
        assert!(n <= g.scored.len());
    }
    assert!(!kept.is_empty() && kept.len() < scored);
    for p in &kept {
        assert!(p.ply as usize >= engram_train::data::MIN_PLY);
        assert_eq!(Packed::from_bytes(&p.to_bytes()), Some(*p));
        assert_eq!(p.pieces().count(), p.occupancy.count_ones() as usize);
    }
    // The packed start position lights the start position's features.
    let start = Packed::new(&Board::startpos(), 25, GameResult::WhiteWins, 0);
    assert_eq!(start.result, 2);
    for layout in [Layout::Plain, Layout::KingMirror] {
        let mut f: Vec<usize> = start.features(layout).map(|(us, _)| us).collect();
        let mut g: Vec<usize> =
            engram_nnue::features::active(&Board::startpos(), engram_chess::Color::White, layout)
                .collect();
        f.sort();
        g.sort();
        assert_eq!(f, g);
    }
    // Off the start position too, both perspectives: Black's king on the d file is not
    // mirrored, White's on g1 is.
    let board = Board::from_fen("3k4/8/8/8/8/8/5PPP/6K1 b - - 0 1", false).unwrap();
    let packed = Packed::new(&board, 0, GameResult::Draw, 30);
    let (mut us, mut them): (Vec<usize>, Vec<usize>) = packed.features(Layout::KingMirror).unzip();
    let mut g_us: Vec<usize> =
        engram_nnue::features::active(&board, engram_chess::Color::Black, Layout::KingMirror)
            .collect();
    let mut g_them: Vec<usize> =
        engram_nnue::features::active(&board, engram_chess::Color::White, Layout::KingMirror)
            .collect();
    for v in [&mut us, &mut them, &mut g_us, &mut g_them] {
        v.sort();
    }
    assert_eq!((us, them), (g_us, g_them));
}

#[test]
fn mirroring_flips_files_and_keeps_the_rest() {
    let mut kept = Vec::new();
    for i in 0..20 {
        extract(&random_game(300 + i, 120), &mut kept);
    }
    assert!(!kept.is_empty());
    for p in &kept {
        let m = p.mirrored();
        assert_eq!(m.mirrored(), *p, "mirroring twice is the identity");
        assert_eq!(
            Packed::from_bytes(&m.to_bytes()),
            Some(m),
            "a valid position"
        );
        assert_eq!(
            (m.score, m.result, m.stm, m.ply),
            (p.score, p.result, p.stm, p.ply)
        );
        let mut want: Vec<_> = p
            .pieces()
            .map(|(piece, sq)| (piece, sq.index() ^ 7))
            .collect();
        let mut got: Vec<_> = m.pieces().map(|(piece, sq)| (piece, sq.index())).collect();
        want.sort_by_key(|&(_, sq)| sq);
        got.sort_by_key(|&(_, sq)| sq);
        assert_eq!(got, want);
    }
    // The start position is its own mirror image, but for the kings and queens.
    let start = Packed::new(&Board::startpos(), 0, GameResult::Draw, 0);
    assert_ne!(start.mirrored(), start);
    assert_eq!(start.mirrored().occupancy, start.occupancy);
}
