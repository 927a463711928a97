//! `engram datagen` run as a real process: the chunks read back, the same bytes whatever the
//! thread count, a run resumed from its chunks, and settings that do not match refused.
//! (The subcommand needs the `train` feature.)
#![cfg(feature = "train")]

use engram_train::data::chunk::read_chunk_file;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn engram(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_engram"))
        .args(args)
        .output()
        .expect("engram runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("engram-datagen-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn run(dir: &Path, positions: u64, threads: usize, seed: u64) -> Output {
    engram(&[
        "datagen",
        "--out",
        dir.to_str().unwrap(),
        "--positions",
        &positions.to_string(),
        "--threads",
        &threads.to_string(),
        "--nodes",
        "400",
        "--seed",
        &seed.to_string(),
        "--chunk-games",
        "3",
        "--hash",
        "1",
    ])
}

fn chunks(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "games"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn chunks_are_deterministic_resumable_and_read_back() {
    let one = scratch("one");
    let two = scratch("two");
    let out = run(&one, 600, 1, 5);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&two, 300, 2, 5);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Resumed with a larger target on two threads: continues from the chunks on disk.
    let out = run(&two, 600, 2, 5);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (a, b) = (chunks(&one), chunks(&two));
    assert!(a.len() >= 2);
    assert_eq!(
        a, b,
        "the same chunks with 1 and 2 threads, in one go or resumed"
    );

    let mut positions = 0;
    for (name, _) in &a {
        let chunk = read_chunk_file(&one.join(name)).unwrap();
        assert_eq!(chunk.games.len(), 3);
        assert_eq!((chunk.header.seed, chunk.header.nodes), (5, 400));
        for g in &chunk.games {
            assert!((8..=9).contains(&g.opening.len()));
            assert!(!g.scored.is_empty());
        }
        positions += chunk.header.positions;
    }
    // The shortest prefix of chunks that holds 600 positions: without its last chunk it would
    // not.
    let last = read_chunk_file(&one.join(&a.last().unwrap().0)).unwrap();
    assert!(positions >= 600 && positions - last.header.positions < 600);

    let stats = engram(&["datagen", "--stats", one.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&stats.stdout);
    assert!(
        text.contains(&format!("games      {}", 3 * a.len())),
        "{text}"
    );

    // Another seed in the same directory is refused, and nothing is written.
    let out = run(&one, 900, 1, 6);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("other settings"));
    assert_eq!(chunks(&one), a);

    // The same seed with a network as the generator is another run: refused here.
    let out = engram(&[
        "datagen",
        "--out",
        one.to_str().unwrap(),
        "--positions",
        "900",
        "--nodes",
        "400",
        "--seed",
        "5",
        "--chunk-games",
        "3",
        "--hash",
        "1",
        "--nnue",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("generator net"));
    // A network file that is not one is an error before anything is played.
    let bad = one.join("bad.nnue");
    std::fs::write(&bad, b"ENGRAMNN").unwrap();
    let out = engram(&[
        "datagen",
        "--out",
        two.join("net").to_str().unwrap(),
        "--positions",
        "10",
        "--eval-file",
        bad.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("truncated"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_file(&bad).unwrap();

    // A chunk of an older format version (1 to 3 are no longer read) is reported by --stats
    // and stops a resumed run before anything is played, naming the file.
    let victim = two.join(&b[0].0);
    let mut old = b[0].1.clone();
    old[8..12].copy_from_slice(&3u32.to_le_bytes());
    std::fs::write(&victim, &old).unwrap();
    let stats = engram(&["datagen", "--stats", two.to_str().unwrap()]);
    assert!(stats.status.success());
    let text = String::from_utf8_lossy(&stats.stdout);
    assert!(text.contains("version 3 is not supported"), "{text}");
    let out = run(&two, 900, 2, 5);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&b[0].0) && err.contains("version 3"), "{err}");
    assert_eq!(std::fs::read(&victim).unwrap(), old);

    // A damaged chunk is reported by --stats, not a panic.
    let victim = one.join(&a[0].0);
    let bytes = std::fs::read(&victim).unwrap();
    std::fs::write(&victim, &bytes[..bytes.len() / 2]).unwrap();
    let stats = engram(&["datagen", "--stats", one.to_str().unwrap()]);
    assert!(stats.status.success());
    assert!(String::from_utf8_lossy(&stats.stdout).contains("damaged"));

    let _ = std::fs::remove_dir_all(&one);
    let _ = std::fs::remove_dir_all(&two);
}
