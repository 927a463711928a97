//! Study `threads`: two threads searching one tree by Lazy SMP (the engine's thread design),
//! one shared table versus a table per thread.

use super::StudyId;
use crate::context::Ctx;
use crate::plot::BarPlot;
use crate::report::{format_f, format_int, Align, Section, Table};
use crate::runner::Spread;
use engram::bench;
use engram::config::EngineConfig;

/// The question this study answers.
pub const QUESTION: &str =
    "With two threads searching the same tree by Lazy SMP, how much does sharing one table \
     save over giving each thread its own?";

/// Settings: bench depth, rounds, Hash (MiB).
fn settings(quick: bool) -> (i32, usize, usize) {
    if quick {
        (5, 1, 16)
    } else {
        (14, 5, 16)
    }
}

/// Runs the study.
pub fn run(ctx: &Ctx) -> anyhow::Result<Section> {
    let (depth, rounds, hash) = settings(ctx.quick);
    // (label, threads, private tables)
    let variants = [
        ("1 thread", 1, false),
        ("2 threads, one shared table", 2, false),
        ("2 threads, a table each", 2, true),
    ];
    let bar = ctx.bar((variants.len() * rounds) as u64, "threads");
    // One unmeasured run first: the first search of a process pays for warming up.
    bench::run(
        bench::Config {
            depth: depth.min(8),
            ..bench::Config::default()
        },
        false,
    )
    .map_err(|e| anyhow::anyhow!(e))?;
    let mut ms: Vec<Vec<f64>> = vec![Vec::new(); variants.len()];
    let mut nodes: Vec<Vec<f64>> = vec![Vec::new(); variants.len()];
    for _ in 0..rounds {
        for (i, &(label, threads, private_tt)) in variants.iter().enumerate() {
            bar.set_message(label);
            let (n, t) = bench::run(
                bench::Config {
                    depth,
                    engine: EngineConfig {
                        threads,
                        hash,
                        ..EngineConfig::default()
                    },
                    private_tt,
                },
                false,
            )
            .map_err(|e| anyhow::anyhow!(e))?;
            ms[i].push(t as f64);
            nodes[i].push(n as f64);
            bar.inc(1);
        }
    }
    bar.finish_and_clear();

    let mut sec = Section::new(StudyId::Threads.title());
    sec.para(format!("**Question.** {QUESTION}"));
    sec.para(
        "**Source.** The mission (`../shared/seeds/`, the transposition-table page's \
         \"Threads\"): one lock-free table shared by all threads, which lets threads profit \
         from each other's results. Under Lazy SMP the table is nearly all the threads \
         share (besides which iterations are taken, `search/smp.rs`).",
    );
    sec.para(format!(
        "**Method.** `engram bench` ({} positions) at depth {depth}, Hash {hash} MiB per \
         table, Lazy SMP; one thread, two threads sharing one table, and two \
         threads with a table each (`bench::Config::private_tt`; the second table doubles \
         the memory). One unmeasured warm-up run, then {rounds} interleaved round(s); \
         medians of the wall time and nodes.",
        bench::POSITIONS.len()
    ));
    let base = Spread::of(&ms[0]).median;
    let mut t = Table::new(&[
        ("variant", Align::Left),
        ("time (ms, median)", Align::Right),
        ("min–max", Align::Right),
        ("nodes (median)", Align::Right),
        ("speed-up over 1 thread", Align::Right),
    ]);
    let mut bars = Vec::new();
    for (i, (label, ..)) in variants.iter().enumerate() {
        let time = Spread::of(&ms[i]);
        let m = time.median;
        t.row([
            label.to_string(),
            format_int(m as u64),
            time.range_text(),
            format_int(Spread::of(&nodes[i]).median as u64),
            format_f(base / m, 3),
        ]);
        bars.push((label.to_string(), base / m));
    }
    sec.table(t);
    let (file, link) = ctx.img_path("threads");
    BarPlot {
        title: format!("Time-to-depth speed-up over one thread (bench, depth {depth})"),
        y_label: "speed-up (median time of 1 thread ÷ median time)".into(),
        bars,
    }
    .render(&file)?;
    sec.image(link, "time-to-depth speed-up, shared and private tables");
    let shared = Spread::of(&ms[1]).median;
    let private = Spread::of(&ms[2]).median;
    sec.para(format!(
        "**Result.** Two threads reach depth {depth} {}× faster than one with a shared \
         table and {}× with a table each: sharing saves {}% of the time.",
        format_f(base / shared, 2),
        format_f(base / private, 2),
        format_f(100.0 * (1.0 - shared / private), 1)
    ));
    sec.para(
        "**Compared with the source.** The shared table is the design the mission asks \
         for; the measurement says what it is worth under Lazy SMP, whose threads divide \
         the work of one tree only through it.",
    );
    Ok(sec)
}
