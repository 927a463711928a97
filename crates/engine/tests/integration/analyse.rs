//! `engram analyse` run as a real process: positions in FEN with SAN or UCI moves, the text
//! for people, the JSON lines for programs, the memory file, and bad input.

use std::process::{Command, Output};

fn engram(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_engram"))
        .args(args)
        .output()
        .expect("engram runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

#[test]
fn a_position_after_san_and_uci_moves() {
    let out = engram(&[
        "analyse",
        "--moves",
        "e4 e7e5 Nf3 Nc6 Bc4 g8f6",
        "--depth",
        "8",
        "--hash",
        "4",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with(
            "Position: r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4\n"
        ),
        "{stdout}"
    );
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("depth ")).count(),
        8
    );
    let best = stdout
        .lines()
        .find(|l| l.starts_with("Best move: "))
        .unwrap();
    assert!(best.contains("depth 8"), "{best}");
    // The line is SAN with move numbers from move 4.
    let line = stdout.lines().find(|l| l.starts_with("Line: 4. ")).unwrap();
    assert!(!line.contains("g1f3"), "{line}");
}

#[test]
fn json_lines_for_programs() {
    let out = engram(&[
        "analyse",
        "--fen",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        "--depth",
        "6",
        "--multipv",
        "2",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines = json_lines(&out);
    assert_eq!(lines[0]["type"], "position");
    let result = lines.last().unwrap();
    assert_eq!(result["type"], "result");
    assert_eq!(result["bestmove"], "Rd8#");
    assert_eq!(result["bestmove_uci"], "d1d8");
    assert_eq!(result["score"]["mate"], 1);
    let infos: Vec<_> = lines.iter().filter(|l| l["type"] == "info").collect();
    assert!(infos.iter().any(|l| l["multipv"] == 2));
    for info in infos {
        assert!(info["nodes"].as_u64().unwrap() > 0);
        assert_eq!(
            info["pv"].as_array().unwrap().len(),
            info["pv_uci"].as_array().unwrap().len()
        );
    }
    // Black to move, mated in one: the score is White's view, negative for Black.
    let out = engram(&[
        "analyse",
        "--fen",
        "3r2k1/8/8/8/8/8/5PPP/6K1 b - - 0 1",
        "--depth",
        "5",
        "--json",
    ]);
    let result = json_lines(&out).pop().unwrap();
    assert_eq!(result["score"]["mate"], -1, "{result}");
}

#[test]
fn the_memory_grows_across_runs() {
    let dir = std::env::temp_dir().join(format!("engram-analyse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let memory = dir.join("study.mem");
    let memory_arg = memory.to_str().unwrap();
    let run = |fen: &str| {
        let out = engram(&[
            "analyse", "--fen", fen, "--depth", "12", "--hash", "4", "--memory", memory_arg,
            "--json",
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        json_lines(&out).pop().unwrap()["nodes"].as_u64().unwrap()
    };
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9";
    run(fen);
    let info = engram(&["hash", "info", memory_arg]);
    let first = text(&info.stdout);
    assert!(first.contains("compact memory"), "{first}");
    let entries = |s: &str| -> u64 {
        let l = s.lines().find(|l| l.starts_with("entries")).unwrap();
        l.split_whitespace().nth(1).unwrap().parse().unwrap()
    };
    let n1 = entries(&first);
    assert!(n1 > 0);
    // Another position: the memory keeps the first and adds the second.
    run("r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1");
    let n2 = entries(&text(&engram(&["hash", "info", memory_arg]).stdout));
    assert!(n2 > n1, "{n1} then {n2}");
    // Two memories merge into one with the entries of both.
    let copy = dir.join("copy.mem");
    std::fs::copy(&memory, &copy).unwrap();
    let merged = dir.join("merged.mem");
    let out = engram(&[
        "hash",
        "merge",
        memory_arg,
        copy.to_str().unwrap(),
        "-o",
        merged.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        entries(&text(
            &engram(&["hash", "info", merged.to_str().unwrap()]).stdout
        )),
        n2
    );
    // A damaged memory is an error, and is left as it was.
    let bytes = std::fs::read(&memory).unwrap();
    let mut bad = bytes.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0xff;
    std::fs::write(&memory, &bad).unwrap();
    let out = engram(&[
        "analyse", "--fen", fen, "--depth", "4", "--memory", memory_arg,
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("study.mem"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read(&memory).unwrap(), bad);
    let _ = std::fs::remove_dir_all(dir);
}

const GAMES: &str = r#"[Event "Casual"]
[White "Alice"]
[Black "Bob"]
[Result "0-1"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3# 0-1

[Event "Broken"]
[White "Carol"]
[Black "Dave"]
[Result "*"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Ke6 *

[Event "Short"]
[White "Eve"]
[Black "Frank"]
[Result "1-0"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 {hoping} 4. Qxf7# 1-0
"#;

#[test]
fn pgn_games_are_annotated_and_a_bad_one_is_named() {
    use engram_chess::pgn::{self, Nag};
    let dir = std::env::temp_dir().join(format!("engram-annotate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("games.pgn");
    std::fs::write(&input, GAMES).unwrap();
    let output = dir.join("annotated.pgn");
    let out = engram(&[
        "analyse",
        "--pgn",
        input.to_str().unwrap(),
        "--depth",
        "6",
        "--hash",
        "4",
        "--out",
        output.to_str().unwrap(),
    ]);
    // The broken game fails the run, named with its players, move and text.
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("game 2 (Carol - Dave)") && err.contains("4... Ke6"),
        "{err}"
    );
    // The other two are annotated, and the PGN reads back with the same moves.
    let written = std::fs::read_to_string(&output).unwrap();
    let originals: Vec<_> = pgn::read_games(GAMES).into_iter().flatten().collect();
    let annotated: Vec<_> = pgn::read_games(&written)
        .into_iter()
        .map(|g| g.expect("the annotated PGN reads back"))
        .collect();
    assert_eq!(annotated.len(), 2);
    for (a, o) in annotated.iter().zip(&originals) {
        assert_eq!(a.moves, o.moves);
        assert_eq!(a.result, o.result);
        assert_eq!(a.tag("White"), o.tag("White"));
        assert!(a.tag("Annotator").unwrap().starts_with("Engram"));
        // Every move but the mating one has its evaluation.
        for notes in &a.notes[..a.moves.len() - 1] {
            assert!(
                notes.comments.iter().any(|c| c.contains("[%eval ")),
                "{notes:?}"
            );
        }
    }
    // 3... Nf6 allows mate in one: a blunder, with the move that was best, and the player's
    // own comment kept.
    let nf6 = &annotated[1].notes[5];
    assert!(nf6.nags.contains(&Nag::BLUNDER), "{nf6:?}");
    assert!(nf6.comments.iter().any(|c| c == "hoping"));
    assert!(nf6
        .comments
        .iter()
        .any(|c| c.starts_with("Blunder.") && c.contains("was best")));
    assert!(!nf6.variations.is_empty());
    // The engine's own moves earn no NAG.
    assert!(annotated[1].notes[6].nags.is_empty());

    // JSON: one object per move of the games read, and one for the error.
    let out = engram(&[
        "analyse",
        "--pgn",
        input.to_str().unwrap(),
        "--depth",
        "4",
        "--hash",
        "4",
        "--json",
    ]);
    let lines = json_lines(&out);
    assert_eq!(lines.iter().filter(|l| l["type"] == "move").count(), 14 + 7);
    let error = lines.iter().find(|l| l["type"] == "error").unwrap();
    assert_eq!(error["game"], 2);
    // One game by number.
    let out = engram(&[
        "analyse",
        "--pgn",
        input.to_str().unwrap(),
        "--game",
        "3",
        "--depth",
        "4",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let games = pgn::read_games(&text(&out.stdout));
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].as_ref().unwrap().tag("White"), Some("Eve"));
    let out = engram(&["analyse", "--pgn", input.to_str().unwrap(), "--game", "4"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("the file has 3 games"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_positions_and_moves_are_named() {
    let out = engram(&["analyse", "--fen", "not a fen", "--depth", "2"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("bad FEN 'not a fen'"),
        "{}",
        text(&out.stderr)
    );
    let out = engram(&["analyse", "--moves", "e4 e5 Ke3", "--depth", "2"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("move 2. Ke3") && err.contains("illegal"),
        "{err}"
    );
    let out = engram(&["analyse", "--pgn", "/no/such/file.pgn", "--depth", "2"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("/no/such/file.pgn"));
}

/// Five games that share their openings (so that a whole run's table would carry over from
/// one game to the next if games were not analysed each as a new game).
const COLLECTION: &str = "\
[Event \"1\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n\n\
[Event \"2\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 4. O-O Nxe4 5. d4 Nd6 *\n\n\
[Event \"3\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O *\n\n\
[Event \"4\"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *\n\n\
[Event \"5\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 c6 4. e3 Nf6 5. Nf3 Nbd7 *\n";

#[test]
fn shards_together_are_one_whole_run() {
    use engram_chess::pgn;
    let dir = std::env::temp_dir().join(format!("engram-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("games.pgn");
    std::fs::write(&input, COLLECTION).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let run = |shard: Option<&str>, name: &str| {
        let (out, mem) = (path(&format!("{name}.pgn")), path(&format!("{name}.mem")));
        let mut args = vec![
            "analyse",
            "--pgn",
            input.to_str().unwrap(),
            "--nodes",
            "3000",
            "--threads",
            "1",
            "--hash",
            "4",
            "-o",
            &out,
            "--memory",
            &mem,
            "--memory-depth",
            "4",
        ];
        if let Some(s) = shard {
            args.extend(["--shard", s]);
        }
        let o = engram(&args);
        assert!(o.status.success(), "{}", text(&o.stderr));
        pgn::read_games(&std::fs::read_to_string(&out).unwrap())
            .into_iter()
            .map(|g| pgn::write_games(&[g.unwrap()]).unwrap())
            .collect::<Vec<String>>()
    };
    let whole = run(None, "whole");
    let first = run(Some("1/2"), "s1");
    let second = run(Some("2/2"), "s2");
    assert_eq!((whole.len(), first.len(), second.len()), (5, 3, 2));
    for (k, game) in whole.iter().enumerate() {
        let shard = if k % 2 == 0 {
            &first[k / 2]
        } else {
            &second[k / 2]
        };
        assert_eq!(game, shard, "game {}", k + 1);
    }
    // The shards' memories merged hold what the whole run's holds.
    let merged = path("merged.mem");
    let o = engram(&[
        "hash",
        "merge",
        &path("s1.mem"),
        &path("s2.mem"),
        "-o",
        &merged,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let entries = |file: &str| -> String {
        let info = text(&engram(&["hash", "info", file]).stdout);
        info.lines()
            .find(|l| l.starts_with("entries"))
            .unwrap()
            .to_string()
    };
    assert_eq!(entries(&merged), entries(&path("whole.mem")));
    // Bad shards are refused before anything is searched.
    for bad in ["0/2", "3/2", "two"] {
        let o = engram(&["analyse", "--pgn", input.to_str().unwrap(), "--shard", bad]);
        assert!(!o.status.success());
        assert!(
            text(&o.stderr).contains("--shard takes I/N"),
            "{}",
            text(&o.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}
