//! `engram fit-wdl` run as a real process on a few committed self-play chunks: it prints a
//! model that beats the overall rates, and writes its plot atomically; a folder without
//! chunks is refused. (The subcommand needs the `train` feature.)
#![cfg(feature = "train")]

use std::path::PathBuf;
use std::process::Command;

#[test]
fn fit_wdl_fits_and_plots_a_few_chunks() {
    let data = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/selfplay/gen13"
    ));
    let dir = std::env::temp_dir().join(format!("engram-fit-wdl-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let chunks = dir.join("chunks");
    std::fs::create_dir_all(&chunks).unwrap();
    for i in 0..3 {
        let name = format!("chunk-{i:06}.games");
        std::fs::copy(data.join(&name), chunks.join(&name)).unwrap();
    }
    let plot = dir.join("wdl.svg");
    let out = Command::new(env!("CARGO_BIN_EXE_engram"))
        .args(["fit-wdl", "--data"])
        .arg(&chunks)
        .arg("--plot")
        .arg(&plot)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.starts_with("3000 games, "), "{text}");
    assert!(text.contains("pub const MODEL: WdlModel"), "{text}");
    let losses: Vec<f64> = text
        .lines()
        .find(|l| l.starts_with("mean log loss"))
        .unwrap()
        .split([',', ' '])
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(losses.len(), 3, "{text}");
    assert!(
        losses[0] < 0.7 * losses[2],
        "the model must beat the rates alone: {text}"
    );
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("WDL model"),
        "{}",
        &svg[..100]
    );

    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_engram"))
        .args(["fit-wdl", "--data"])
        .arg(&empty)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no chunk files"));
    let _ = std::fs::remove_dir_all(&dir);
}
