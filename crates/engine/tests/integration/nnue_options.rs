//! The NNUE options on the real binary: `EvalFile` (good, damaged and missing files) and
//! `Use NNUE`, their effect on the search, and the `eval` command.

use crate::common;

use common::{best, Engine, TempDir};
use engram_chess::Board;
use engram_nnue::{Activation, Network};
use engram_train::random::{random_bucketed_network, random_network};
use std::path::PathBuf;
use std::time::Duration;

const T: Duration = Duration::from_secs(60);
const FEN: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9";

fn write(dir: &TempDir, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The `info string` answer to the command just sent.
fn answer(e: &mut Engine) -> String {
    e.wait_for(T, |l| l.starts_with("info string"))
}

/// Searches FEN to `depth`: the nodes at that depth, and checks the move is legal.
fn search(e: &mut Engine, depth: u32) -> u64 {
    e.sync(T);
    e.send(&format!("position fen {FEN}"));
    e.send(&format!("go depth {depth}"));
    let prefix = format!("info depth {depth} ");
    let mut nodes = 0;
    loop {
        let line = e.wait_for(T, |l| l.starts_with(&prefix) || l.starts_with("bestmove"));
        if line.starts_with("bestmove") {
            let board = Board::from_fen(FEN, false).unwrap();
            let mv = board.parse_uci(best(&line)).expect("a move");
            assert!(board.is_legal(mv), "{line}");
            return nodes;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if let Some(i) = words.iter().position(|&w| w == "nodes") {
            nodes = words[i + 1].parse().unwrap();
        }
    }
}

#[test]
fn damaged_files_are_refused_and_the_engine_plays_on() {
    let good = random_network(32, Activation::SCReLU, 1).to_bytes();
    let mut corrupted = good.clone();
    corrupted[1000] ^= 0x40;
    let mut version = good.clone();
    version[8] = 3;
    let mut magic = good.clone();
    magic[..8].copy_from_slice(b"NOTANNUE");
    let mut wide = random_network(32, Activation::SCReLU, 1);
    wide.out_weights[3] = 500;
    let bad = [
        (
            "truncated.nnue",
            good[..good.len() - 10].to_vec(),
            "truncated",
        ),
        (
            "longer.nnue",
            [good.as_slice(), &[0]].concat(),
            "wrong size",
        ),
        ("corrupted.nnue", corrupted, "checksum"),
        ("version.nnue", version, "version 3"),
        ("magic.nnue", magic, "bad magic"),
        ("weights.nnue", wide.to_bytes(), "output weight"),
        ("empty.nnue", Vec::new(), "truncated"),
    ];
    let dir = TempDir::new("nnue-options-damaged");
    let mut e = Engine::start();
    e.send("uci");
    e.send("setoption name Use NNUE value true");
    for (name, bytes, why) in bad {
        let path = write(&dir, name, &bytes);
        e.send(&format!("setoption name EvalFile value {}", path.display()));
        let line = answer(&mut e);
        assert!(line.starts_with("info string error: "), "{name}: {line}");
        assert!(line.contains(why), "{name}: {line}");
        assert!(line.contains("the network stays <embedded>"), "{line}");
        search(&mut e, 5);
    }
    e.send("setoption name EvalFile value /no/such/dir/net.nnue");
    let line = answer(&mut e);
    assert!(line.starts_with("info string error: cannot read"), "{line}");
    search(&mut e, 5);
    e.quit();
}

#[test]
fn a_good_file_is_accepted_and_searched_with() {
    let net = random_network(64, Activation::CReLU, 2);
    let dir = TempDir::new("nnue-options-good");
    let path = write(&dir, "good.nnue", &net.to_bytes());
    let mut e = Engine::start();
    e.send("uci");
    e.send("setoption name Use NNUE value false");
    e.send("ucinewgame");
    let hce = search(&mut e, 7);
    e.send("setoption name Use NNUE value true");
    e.send("ucinewgame");
    let embedded = search(&mut e, 7);
    e.send(&format!("setoption name EvalFile value {}", path.display()));
    let line = answer(&mut e);
    assert_eq!(
        line,
        format!(
            "info string NNUE evaluation using {} (768->64 x2, crelu)",
            path.display()
        )
    );
    e.send("ucinewgame");
    let file = search(&mut e, 7);
    assert!(
        hce != embedded && embedded != file && hce != file,
        "each evaluation searches its own tree: {hce} {embedded} {file}"
    );
    // The same search again gives the same tree: the option reached the search for good.
    e.send("ucinewgame");
    assert_eq!(search(&mut e, 7), file);
    // Back to the embedded network, and with several threads.
    e.send("setoption name EvalFile value <empty>");
    let line = answer(&mut e);
    assert!(
        line.starts_with("info string NNUE evaluation using <embedded> (768->"),
        "{line}"
    );
    e.send("setoption name Threads value 3");
    search(&mut e, 7);
    e.send("setoption name Use NNUE value false");
    search(&mut e, 5);
    e.quit();
}

#[test]
fn eval_prints_both_evaluations() {
    let nets = [
        (
            "eval.nnue",
            random_network(32, Activation::SCReLU, 3),
            "768->32 x2, screlu",
        ),
        (
            "eval-buckets.nnue",
            random_bucketed_network(32, Activation::SCReLU, 8, 3),
            "768->32 x2, 8 output buckets, screlu",
        ),
    ];
    let dir = TempDir::new("nnue-options-eval");
    for (name, net, shape) in nets {
        let path = write(&dir, name, &net.to_bytes());
        let mut e = Engine::start();
        e.send(&format!("setoption name EvalFile value {}", path.display()));
        let line = answer(&mut e);
        assert!(line.ends_with(&format!("({shape})")), "{line}");
        e.send(&format!("position fen {FEN}"));
        e.send("eval");
        let hce = e.wait_for(T, |l| l.starts_with("Static eval:"));
        assert!(hce.ends_with("cp (side to move)"), "{hce}");
        let nnue = e.wait_for(T, |l| l.starts_with("NNUE eval:"));
        // The search's evaluation: the network's scaled by the material left.
        let board = Board::from_fen(FEN, false).unwrap();
        let raw = net.evaluate_scalar(&board);
        let material = engram::eval::scale_material(&board);
        let want = i64::from(raw) * i64::from(26_500 + material) / 36_800;
        assert!(
            nnue.starts_with(&format!(
                "NNUE eval: {want} cp (side to move; the network's {raw} cp scaled by material; "
            )),
            "{nnue}"
        );
        assert!(nnue.contains(shape), "{nnue}");
        e.quit();
        // Loaded from the same file it parses the same.
        assert_eq!(Network::load(&path).unwrap(), net);
    }
}
