//! The games format: round trips, and damaged files refused with an error, never a panic.

use engram_chess::{Board, Move};
use engram_nnue::features::Layout;
use engram_train::data::{
    chunk::{chunk_bytes, chunk_bytes_version, read_header, recode},
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
    // Version 4: every move, and the scores of the positions the trainer may learn from,
    // rounded to 4 cp.
    assert_eq!(chunk.games, in_version(&games, 4));
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

/// The games as format `version` keeps them.
fn in_version(games: &[GameRecord], version: u32) -> Vec<GameRecord> {
    games.iter().map(|g| g.in_version(version)).collect()
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
fn every_version_round_trips_and_each_is_smaller() {
    let games: Vec<_> = (0..40)
        .map(|i| random_game(50 + i, 20 + i as usize * 7))
        .collect();
    let v1 = chunk_bytes_version(header(), &games, 1);
    let v2 = chunk_bytes_version(header(), &games, 2);
    let v3 = chunk_bytes_version(header(), &games, 3);
    let v4 = chunk_bytes_version(header(), &games, 4);
    assert_eq!(v4, chunk_bytes(header(), &games), "version 4 is written");
    for (v, bytes) in [(1u32, &v1), (2, &v2), (3, &v3), (4, &v4)] {
        assert_eq!(&bytes[8..12], &v.to_le_bytes());
        let chunk = read_chunk(bytes).unwrap();
        assert_eq!(chunk.games, in_version(&games, v), "version {v}");
        assert_eq!(chunk.header, read_header(bytes).unwrap());
        // Up to version 3 the trainer gets the same positions and scores; version 4 the same
        // positions, their scores within 2 cp.
        let (got, want) = (extracted(&chunk.games), extracted(&games));
        if v < 4 {
            assert_eq!(got, want, "version {v}");
        } else {
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
        }
    }
    // Version 3 drops scores, and only those of positions no one trains on.
    let three = read_chunk(&v3).unwrap().games;
    let mut dropped = 0;
    for (g, orig) in three.iter().zip(&games) {
        let mut board = Board::startpos();
        for &mv in &g.opening {
            board.play(mv);
        }
        for (i, (&(mv, s), &(_, s0))) in g.scored.iter().zip(&orig.scored).enumerate() {
            let trained = trained_ply(&board, mv, g.opening.len() + i);
            assert_eq!(s, if trained { s0 } else { UNSCORED });
            dropped += usize::from(!trained);
            board.play(mv);
        }
    }
    assert!(dropped > 0);
    // Random moves and uniform scores are the worst case; self-play data gains 1.85x, and
    // version 3 another fifth.
    assert!(v2.len() < v1.len(), "{} against {}", v2.len(), v1.len());
    assert!(v3.len() < v2.len(), "{} against {}", v3.len(), v2.len());
    assert!(v4.len() < v3.len(), "{} against {}", v4.len(), v3.len());
    // Mate scores and extreme sums round-trip too (version 2 keeps any i16; version 3 any
    // score a search gives, and refuses to write a trained position without one).
    let mut g = random_game(9, 40);
    let n = g.scored.len();
    for (i, s) in [i16::MAX, -i16::MAX, -31990, 31990, i16::MIN, i16::MIN]
        .into_iter()
        .enumerate()
    {
        g.scored[n - 1 - i].1 = s;
    }
    let two = vec![g.clone()];
    let bytes = chunk_bytes_version(header(), &two, 2);
    assert_eq!(read_chunk(&bytes).unwrap().games, two);
    for s in &mut g.scored {
        if s.1 == i16::MIN {
            s.1 = -i16::MAX;
        }
    }
    let three = vec![g];
    for v in [3, 4] {
        assert_eq!(
            read_chunk(&chunk_bytes_version(header(), &three, v))
                .unwrap()
                .games,
            in_version(&three, v)
        );
    }
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
fn versions_3_and_4_need_every_trained_score() {
    let g = random_game(11, 60).trained_scores_only();
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
fn recoding_keeps_every_trained_position_and_leaves_current_chunks_alone() {
    let games: Vec<_> = (0..30)
        .map(|i| random_game(200 + i, 30 + i as usize * 5))
        .collect();
    let mut h = header();
    h.generator = 0xfeed_beef;
    let v1 = chunk_bytes_version(h, &games, 1);
    let v2 = chunk_bytes_version(h, &games, 2);
    let v3 = chunk_bytes_version(h, &games, 3);
    let v4 = recode(&v1).unwrap().expect("a version 1 chunk is recoded");
    // The image the generator would have written in version 4: same header, same games but
    // for the scores no one trains on and the rounding, the same training positions.
    assert_eq!(v4, chunk_bytes(h, &games));
    let (old, new) = (read_chunk(&v1).unwrap(), read_chunk(&v4).unwrap());
    assert_eq!(new.header, old.header);
    assert_eq!(new.games, in_version(&old.games, 4));
    assert_eq!(extracted(&new.games), extracted(&in_version(&old.games, 4)));
    assert_eq!(extracted(&new.games).len(), extracted(&old.games).len());
    for old in [&v2, &v3] {
        assert_eq!(
            recode(old).unwrap(),
            Some(v4.clone()),
            "versions 2 and 3 too"
        );
    }
    assert_eq!(recode(&v4).unwrap(), None, "version 4 is left as it is");
    // A damaged chunk is refused, not recoded.
    for at in [0, 9, 60, 70, v1.len() / 2] {
        let mut b = v1.clone();
        b[at] ^= 0x5a;
        assert!(recode(&b).is_err(), "byte {at}");
    }
    assert!(recode(&v1[..v1.len() - 1]).is_err());
}

#[test]
fn damage_is_an_error() {
    let games: Vec<_> = (0..5).map(|i| random_game(i, 60)).collect();
    for version in 1..=4 {
        damage_is_an_error_in(
            &in_version(&games, version),
            &chunk_bytes_version(header(), &games, version),
        );
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
