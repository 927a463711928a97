//! The lazy, incremental accumulators against the scalar reference
//! (`Network::evaluate_scalar`) over random games, and the evaluation's colour symmetry.

use super::*;
use crate::eval::Evaluator;
use engram_chess::{Move, Position};
use engram_nnue::{Activation, Layout};
use engram_train::random::{random_bucketed_network, random_network};
use proptest::prelude::*;

/// The start position, the CPW perft positions 2–5 (castling, en passant, promotions with
/// and without capture, checks) and a Chess960 position from the CPW list.
const STARTS: &[(&str, bool)] = &[
    (engram_chess::STARTPOS, false),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        false,
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        false,
    ),
    (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        false,
    ),
    (
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        true,
    ),
];

use engram_train::rng::Rng;

/// `net` with `layout`; with king buckets, each bucket's block of weights is then varied
/// (deterministically) so that a king changing bucket changes the evaluation.
fn with_layout(net: Network, layout: Layout) -> Network {
    let mut net = net.with_layout(layout);
    let block = engram_nnue::INPUTS * net.hidden;
    for (i, w) in net.ft_weights.iter_mut().enumerate().skip(block) {
        *w = w.wrapping_add((i / block) as i16 * ((i % 13) as i16 - 6));
    }
    net
}

/// A legal move of `board`, half the time one that changes more than one piece's square
/// (captures, en passant, castling, promotions) when there is one.
fn pick(board: &Board, rng: &mut Rng) -> Option<Move> {
    let moves = board.legal_moves();
    let moves = moves.as_slice();
    if moves.is_empty() {
        return None;
    }
    let special: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| {
            m.is_castling()
                || m.is_en_passant()
                || m.is_promotion()
                || board.piece_on(m.to()).is_some()
        })
        .collect();
    if !special.is_empty() && rng.below(2) == 0 {
        return Some(special[rng.below(special.len())]);
    }
    Some(moves[rng.below(moves.len())])
}

/// A random walk of `steps` makes, unmakes and null moves from `start`, evaluating after
/// most steps (skipped ones leave gaps the lazy update walks over) and checking every
/// evaluation against the scalar reference.
fn walk(net: &Arc<Network>, start: (&str, bool), seed: u64, steps: usize) {
    let mut rng = Rng::new(seed);
    let mut acc = Accumulators::new(net.clone());
    let mut pos = Position::new(Board::from_fen(start.0, start.1).unwrap());
    for step in 0..steps {
        match rng.below(10) {
            0..=1 => pos.unmake(),
            2 if !pos.board().in_check() => pos.make_null(),
            _ => match pick(pos.board(), &mut rng) {
                Some(mv) => pos.make(mv),
                None => pos.unmake(),
            },
        }
        // Now and then a long stretch unevaluated: more than MAX_WALK boards to catch up.
        if rng.below(4) != 0 && !(step % 40 < 20 && step % 80 >= 40) {
            assert_eq!(
                acc.evaluate(&pos),
                net.evaluate_scalar(pos.board()),
                "seed {seed} step {step} at {} after {:?}",
                pos.board().to_fen(),
                pos.moves()
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn incremental_equals_scalar(
        start in 0..STARTS.len(),
        seed in any::<u64>(),
        wide in any::<bool>(),
        screlu in any::<bool>(),
        buckets in prop_oneof![Just(1usize), 2usize..=16],
        layout in prop_oneof![Just(Layout::Plain), Just(Layout::KingMirror), Just(Layout::KingBuckets4)],
    ) {
        let h = if wide { 64 } else { 32 };
        let act = if screlu { Activation::SCReLU } else { Activation::CReLU };
        let net = random_bucketed_network(h, act, buckets, seed ^ 0x5eed);
        let net = Arc::new(with_layout(net, layout));
        walk(&net, STARTS[start], seed, 160);
    }
}

/// A bucketed network through the incremental stack, over games long enough to pass
/// through several buckets (captures lower the piece count), against the scalar reference;
/// and the buckets are used: the same accumulators give other values in other buckets.
#[test]
fn output_buckets_follow_the_board() {
    for (i, &start) in STARTS.iter().enumerate() {
        let net = Arc::new(random_bucketed_network(
            32,
            Activation::SCReLU,
            8,
            40 + i as u64,
        ));
        walk(&net, start, 2000 + i as u64, 300);
    }
    let net = random_bucketed_network(32, Activation::SCReLU, 8, 1);
    let mut one = random_network(32, Activation::SCReLU, 1);
    assert_eq!(one.ft_weights, net.ft_weights);
    let mut acc = Accumulators::new(Arc::new(net.clone()));
    for (fen, bucket) in [
        (engram_chess::STARTPOS, 7),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            7,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 2),
        ("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", 0),
    ] {
        let board = Board::from_fen(fen, false).unwrap();
        assert_eq!(net.bucket(board.occupied().len()), bucket, "{fen}");
        // The one-bucket network with this bucket's output layer: the same evaluation.
        one.out_weights = net.bucket_weights(bucket).to_vec();
        one.out_bias = vec![net.out_bias[bucket]];
        let pos = Position::new(board);
        assert_eq!(
            acc.evaluate(&pos),
            one.evaluate_scalar(pos.board()),
            "{fen}"
        );
    }
}

#[test]
fn describe_names_the_buckets() {
    let one = random_network(32, Activation::SCReLU, 1);
    assert_eq!(describe(&one), "768->32 x2, screlu");
    let eight = random_bucketed_network(64, Activation::CReLU, 8, 1);
    assert_eq!(describe(&eight), "768->64 x2, 8 output buckets, crelu");
}

#[test]
fn every_start_and_both_sizes() {
    for (i, &start) in STARTS.iter().enumerate() {
        for h in [32, 64] {
            let net = Arc::new(random_network(h, Activation::SCReLU, i as u64));
            walk(&net, start, 1000 + i as u64, 200);
        }
    }
}

#[test]
fn a_new_network_invalidates_the_stack() {
    let a = Arc::new(random_network(32, Activation::SCReLU, 1));
    let b = Arc::new(random_network(64, Activation::SCReLU, 2));
    let mut acc = Accumulators::new(a.clone());
    let mut pos = Position::new(Board::startpos());
    for m in ["e2e4", "e7e5", "g1f3"] {
        let mv = pos.board().parse_uci(m).unwrap();
        pos.make(mv);
        assert_eq!(acc.evaluate(&pos), a.evaluate_scalar(pos.board()));
    }
    acc.set_network(b.clone());
    assert_eq!(acc.evaluate(&pos), b.evaluate_scalar(pos.board()));
    pos.unmake();
    assert_eq!(acc.evaluate(&pos), b.evaluate_scalar(pos.board()));
    acc.set_network(a.clone());
    assert_eq!(acc.evaluate(&pos), a.evaluate_scalar(pos.board()));
}

#[test]
fn long_histories_grow_the_stack() {
    let net = Arc::new(random_network(32, Activation::CReLU, 3));
    let mut acc = Accumulators::new(net.clone());
    let mut pos = Position::new(Board::startpos());
    for _ in 0..150 {
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            let mv = pos.board().parse_uci(m).unwrap();
            pos.make(mv);
        }
    }
    assert_eq!(pos.boards().len(), 601);
    assert_eq!(acc.evaluate(&pos), net.evaluate_scalar(pos.board()));
}

/// `fen` with colours swapped and the board mirrored vertically.
fn mirror(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let ranks: Vec<String> = f[0].split('/').rev().map(swap).collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let castling = if f[2] == "-" {
        "-".to_string()
    } else {
        let s = swap(f[2]);
        let (mut upper, mut lower): (Vec<char>, Vec<char>) =
            s.chars().partition(|c| c.is_ascii_uppercase());
        upper.append(&mut lower);
        upper.into_iter().collect()
    };
    let ep = match f[3].as_bytes() {
        [file, b'3'] => format!("{}6", *file as char),
        [file, b'6'] => format!("{}3", *file as char),
        _ => "-".to_string(),
    };
    format!(
        "{} {side} {castling} {ep} {} {}",
        ranks.join("/"),
        f[4],
        f[5]
    )
}

fn nnue_eval(net: &Arc<Network>, fen: &str, chess960: bool) -> i32 {
    let mut eval = Evaluator::default();
    eval.configure(Some(net));
    eval.evaluate(&Position::new(Board::from_fen(fen, chess960).unwrap()))
}

#[test]
fn symmetric() {
    symmetric_with(Layout::Plain);
    symmetric_with(Layout::KingMirror);
    symmetric_with(Layout::KingBuckets4);
}

fn symmetric_with(layout: Layout) {
    let net = Arc::new(with_layout(
        random_network(64, Activation::SCReLU, 11),
        layout,
    ));
    let pairs = [
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b KQkq - 0 1",
        ),
        (
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "8/4p1p1/8/1r3P1K/kp5R/3P4/2P5/8 b - - 0 1",
        ),
    ];
    for (a, b) in pairs {
        assert_eq!(mirror(a), b);
        assert_eq!(nnue_eval(&net, a, false), nnue_eval(&net, b, false));
    }
    // Generated mirrors of the positions of random games from every start.
    let mut rng = Rng::new(5);
    let mut distinct = std::collections::HashSet::new();
    for &(fen, chess960) in STARTS {
        let mut pos = Position::new(Board::from_fen(fen, chess960).unwrap());
        for _ in 0..40 {
            let Some(mv) = pick(pos.board(), &mut rng) else {
                break;
            };
            pos.make(mv);
            let fen = pos.board().to_fen();
            let e = nnue_eval(&net, &fen, chess960);
            assert_eq!(e, nnue_eval(&net, &mirror(&fen), chess960), "{fen}");
            distinct.insert(e);
        }
    }
    assert!(distinct.len() > 20, "the evaluation is not trivial");
}

#[test]
fn insufficient_material_is_a_draw_and_values_are_bounded() {
    let net = Arc::new(random_network(32, Activation::SCReLU, 4));
    assert_eq!(nnue_eval(&net, "4k3/8/8/8/8/8/8/3NK3 w - - 0 1", false), 0);
    let mut big = random_network(32, Activation::CReLU, 4);
    big.out_weights.fill(i16::MAX);
    big.ft_bias.fill(255);
    let big = Arc::new(big);
    assert!(big.evaluate_scalar(&Board::startpos()) > crate::eval::NNUE_LIMIT);
    assert_eq!(
        nnue_eval(&big, engram_chess::STARTPOS, false),
        crate::eval::NNUE_LIMIT
    );
}

#[test]
fn material_scales_the_network() {
    let net = Arc::new(random_network(32, Activation::SCReLU, 6));
    let cases = [
        // The start position: 10,300 of material, a scale of exactly 1.
        (engram_chess::STARTPOS, 10_300),
        // Queens and rooks off: 10,300 - 2 * 1,250 - 4 * 650.
        (
            "1nb1kbn1/pppppppp/8/8/8/8/PPPPPPPP/1NB1KBN1 w - - 0 1",
            5_200,
        ),
        // A rook and three pawns against a rook and two.
        ("8/5pk1/6p1/8/8/1R4P1/r4PKP/8 b - - 0 1", 1_800),
    ];
    for (fen, material) in cases {
        let board = Board::from_fen(fen, false).unwrap();
        assert_eq!(crate::eval::scale_material(&board), material, "{fen}");
        let raw = i64::from(net.evaluate_scalar(&board));
        let scaled = raw * (26_500 + i64::from(material)) / 36_800;
        assert_eq!(i64::from(nnue_eval(&net, fen, false)), scaled, "{fen}");
    }
    // Fewer pieces, a smaller evaluation: 28,300 / 36,800 is about 0.77.
    let board = Board::from_fen(cases[2].0, false).unwrap();
    let raw = net.evaluate_scalar(&board);
    assert!(raw.abs() > 100, "a test of something: {raw}");
    assert!(nnue_eval(&net, cases[2].0, false).abs() * 5 <= raw.abs() * 4);
}

#[test]
fn the_embedded_network_parses() {
    let net = Network::from_bytes(DEFAULT_NET_BYTES).expect("the embedded network is valid");
    assert_eq!(*default_net(), net);
    assert!(net.hidden.is_multiple_of(16));
    // gen5-h256-ob8: 8 output buckets, written back byte for byte.
    assert_eq!(net.buckets, 8);
    assert_eq!(net.to_bytes(), DEFAULT_NET_BYTES);
}

/// The position both crossing tests start from: both sides can castle either way.
const CASTLES: &str = "r3k2r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3K2R w KQkq - 0 1";

/// Plays `moves` from [`CASTLES`] through a fresh accumulator stack, checking every
/// evaluation against the scalar reference; then checks that a board evaluates as its
/// left-right mirror image (both crossing tests' networks mirror).
fn play_and_check(net: &Arc<Network>, moves: &[&str]) {
    let mut acc = Accumulators::new(net.clone());
    let mut pos = Position::new(Board::from_fen(CASTLES, false).unwrap());
    for uci in moves {
        let mv = pos.board().parse_uci(uci).unwrap();
        pos.make(mv);
        assert_eq!(
            acc.evaluate(&pos),
            net.evaluate_scalar(pos.board()),
            "after {uci}"
        );
    }
    let a = Board::from_fen("6k1/1p3pp1/8/8/3N4/8/1PP2P2/2K5 w - - 0 1", false).unwrap();
    let b = Board::from_fen("1k6/1pp3p1/8/8/4N3/8/2P2PP1/5K2 w - - 0 1", false).unwrap();
    assert_eq!(net.evaluate_scalar(&a), net.evaluate_scalar(&b));
}

/// A king-mirrored network: kings crossing between files d and e (by king moves and by
/// castling queen side) refresh their side's accumulator; every evaluation on the way equals
/// the scalar reference, and a board evaluates as its left-right mirror image.
#[test]
fn king_mirror_crossings() {
    let mut net = random_bucketed_network(32, Activation::SCReLU, 8, 21);
    net.layout = Layout::KingMirror;
    let net = Arc::new(net);
    play_and_check(
        &net,
        &[
            "e1c1", "e8d8", "c1b1", "d8e8", "d1e1", "e8f8", "e1d1", "f8g8",
        ],
    );
}

/// A network with king buckets: kings moving between buckets (up the board, back, castling
/// either way) and across files d/e refresh their side's accumulator; every evaluation on
/// the way equals the scalar reference, the bucket changes the evaluation, and a board
/// evaluates as its left-right mirror image.
#[test]
fn king_bucket_crossings() {
    let net = random_bucketed_network(32, Activation::SCReLU, 8, 23);
    let net = Arc::new(with_layout(net, Layout::KingBuckets4));
    play_and_check(
        &net,
        &[
            "e1e2", "e8e7", "e2d3", "e7d6", "d3e2", "d6e7", "e2f1", "e7f8", "f1g1", "f8g8", "g1f1",
            "g8f8",
        ],
    );
    play_and_check(&net, &["e1g1", "e8c8"]);
    // The same pieces with the White king on e1 (bucket 1) and on e2 (bucket 2): the
    // buckets' weights differ, so the evaluations do.
    let home = Board::from_fen("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", false).unwrap();
    let up = Board::from_fen("4k3/pppp4/8/8/8/8/PPPPK3/8 w - - 0 1", false).unwrap();
    assert_ne!(net.evaluate_scalar(&home), net.evaluate_scalar(&up));
}
