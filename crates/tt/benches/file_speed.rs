//! Hash-file speed: saving and loading a full table (default 1 GiB), next to `cp` of the saved
//! file on the same disk in the same run. Each is repeated (default 5 times) and the median
//! and the range reported, in GB/s (10^9 bytes a second), with the ratios to `cp`.
//!
//! ```sh
//! cargo bench -p engram-tt --bench file_speed            # 1024 MiB, 5 rounds, in target/
//! cargo bench -p engram-tt --bench file_speed -- 256 3 /some/disk
//! ```
//!
//! A save writes a temporary file, fsyncs it and renames it (atomic); `cp` does not fsync, so
//! `cp` is also timed followed by `sync` of the copy (`cp+sync`), the fair comparison for a
//! write that must survive a crash. The load includes reading, validating (checksums, every
//! cluster's check word) and merging into a table that already holds entries. The page cache
//! is not dropped (that needs root): loads and copies read a file written just before.

use engram_tt::{Bound, Record, Table};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn report(name: &str, bytes: u64, secs: &[f64], base: Option<f64>) -> f64 {
    let speeds: Vec<f64> = secs.iter().map(|s| bytes as f64 / s / 1e9).collect();
    let m = median(speeds.clone());
    let lo = speeds.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = speeds.iter().copied().fold(0.0, f64::max);
    let ratio = base.map_or(String::new(), |b| format!("  {:.2}x cp", m / b));
    println!("{name:<12} {m:>6.2} GB/s  (range {lo:.2}-{hi:.2}){ratio}");
    m
}

fn fill(table: &Table, seed: u64) {
    let mut x = seed;
    for _ in 0..table.entries() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        table.store(
            x,
            Record {
                mv: (x >> 20) as u16,
                score: (x >> 40) as i16,
                eval: (x >> 30) as i16,
                depth: (x % 40) as i32,
                bound: Bound::Exact,
                pv: false,
                nodes: 0,
            },
        );
    }
}

fn time(f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64()
}

fn cp(from: &Path, to: &Path, sync: bool) {
    let ok = Command::new("cp")
        .arg(from)
        .arg(to)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "cp failed");
    if sync {
        let f = std::fs::File::open(to).unwrap();
        f.sync_all().unwrap();
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let mib: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(1024);
    let rounds: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(5);
    let dir: PathBuf = args
        .get(2)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("file_speed.hash");
    let copy = dir.join("file_speed.copy");

    let table = Table::new(mib).expect("table");
    fill(&table, 0x9e37_79b9_7f4a_7c15);
    let bytes = table.bytes() as u64;
    println!(
        "table {mib} MiB ({bytes} bytes), {rounds} rounds, files in {}",
        dir.display()
    );

    let (mut save, mut load, mut copy_t, mut copy_sync) = (vec![], vec![], vec![], vec![]);
    let target = Table::new(mib).expect("table");
    fill(&target, 0x1234_5678);
    for _ in 0..rounds {
        save.push(time(|| {
            table.save(&file, "bench", "file_speed").expect("save");
        }));
        load.push(time(|| {
            target.load(&file, "bench").expect("load");
        }));
        copy_t.push(time(|| cp(&file, &copy, false)));
        let _ = std::fs::remove_file(&copy);
        copy_sync.push(time(|| cp(&file, &copy, true)));
        let _ = std::fs::remove_file(&copy);
    }
    let c = report("cp", bytes, &copy_t, None);
    let cs = report("cp+sync", bytes, &copy_sync, None);
    report("save", bytes, &save, Some(c));
    report("load", bytes, &load, Some(c));
    println!(
        "save / cp+sync: {:.2}x",
        median(save.iter().map(|s| bytes as f64 / s / 1e9).collect()) / cs
    );
    let _ = std::fs::remove_file(&file);
}
