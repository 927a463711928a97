//! `engram datagen`: self-play games for training the network, written as chunk files of
//! games stored as moves and scores (the format is documented in `engram_train::data`).
//!
//! A run is a numbered sequence of games determined by its seed and settings; chunk `k` holds
//! games `k · G .. (k + 1) · G` (G = `--chunk-games`). Threads take the next missing chunk, play
//! its games and write it atomically, so:
//!
//! - **deterministic**: a chunk's bytes depend only on the seed, the settings and the chunk's
//!   number, not on the thread count or timing; a run that stops at `--positions N` keeps
//!   exactly the shortest prefix of chunks holding N scored positions;
//! - **resumable**: run the same command again (or with a larger N) and it continues from the
//!   chunks on disk; an interrupted run loses only the chunks in progress. The directory's
//!   `run.txt` records the settings, and a run with other settings is refused there.

mod game;
pub mod stats;

pub use game::{game_rng, Player, Settings};

use engram_train::data::chunk::{read_header, HEADER_LEN};
use engram_train::data::{write_chunk, ChunkHeader, GameRecord};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// `engram datagen ...`.
#[derive(Debug, Clone, clap::Args)]
pub struct DatagenArgs {
    /// The directory of the run's chunk files (created if missing).
    #[arg(long, value_name = "DIR", required_unless_present = "stats")]
    pub out: Option<PathBuf>,
    /// Stop once the chunks hold this many scored positions.
    #[arg(long, value_name = "N", required_unless_present = "stats")]
    pub positions: Option<u64>,
    /// Instead of generating, report what the chunks of DIR hold (games, positions kept for
    /// training, results, how games ended) and check every file.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["out", "positions"])]
    pub stats: Option<PathBuf>,
    /// Threads playing games.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = crate::args::threads_parser())]
    pub threads: usize,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// The run's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies at the start of each game (this many or one more).
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// Games per chunk file.
    #[arg(long, default_value_t = 100)]
    pub chunk_games: u64,
    /// Table size per thread, MiB (cleared before every game).
    #[arg(long, value_name = "MiB", default_value_t = 16, value_parser = crate::args::hash_parser(1))]
    pub hash: usize,
    /// Evaluate with this network file instead of the hand-crafted evaluation.
    #[arg(long, value_name = "FILE", conflicts_with = "nnue")]
    pub eval_file: Option<PathBuf>,
    /// Evaluate with the embedded network instead of the hand-crafted evaluation.
    #[arg(long)]
    pub nnue: bool,
}

/// The evaluation that plays a run's games.
struct Generator {
    /// The network (`None`: the hand-crafted evaluation).
    net: Option<std::sync::Arc<engram_nnue::Network>>,
    /// 0 for the hand-crafted evaluation, else the xxh3-64 of the network's file image.
    id: u64,
}

impl Generator {
    fn name(&self) -> String {
        match self.id {
            0 => "hce".into(),
            id => format!("net {id:016x}"),
        }
    }
}

/// The chunk file of chunk `index`.
pub fn chunk_path(dir: &Path, index: u64) -> PathBuf {
    dir.join(format!("chunk-{index:06}.games"))
}

impl DatagenArgs {
    /// What `run.txt` records: everything that decides the games.
    fn manifest(&self, generator: &Generator) -> String {
        format!(
            "engram datagen run\nseed {}\nnodes {}\nrandom-plies {}\nchunk-games {}\nhash {}\ngenerator {}\n",
            self.seed,
            self.nodes,
            self.random_plies,
            self.chunk_games,
            self.hash,
            generator.name()
        )
    }

    fn generator(&self) -> Result<Generator, String> {
        let bytes = match (&self.eval_file, self.nnue) {
            (Some(path), _) => {
                std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?
            }
            (None, true) => crate::eval::nnue::DEFAULT_NET_BYTES.to_vec(),
            (None, false) => return Ok(Generator { net: None, id: 0 }),
        };
        let net = engram_nnue::Network::from_bytes(&bytes).map_err(|e| e.to_string())?;
        Ok(Generator {
            net: Some(std::sync::Arc::new(net)),
            id: xxhash_rust::xxh3::xxh3_64(&bytes).max(1),
        })
    }

    /// Checks the arguments, the directory and its manifest; returns the positions in each
    /// chunk already there.
    fn prepare(&self, dir: &Path, generator: &Generator) -> Result<BTreeMap<u64, u64>, String> {
        let max = crate::options::THREADS_MAX;
        if self.threads == 0 || self.threads > max {
            return Err(format!("--threads {}: must be 1..={max}", self.threads));
        }
        if self.nodes == 0 || self.chunk_games == 0 || self.chunk_games > 100_000 {
            return Err("--nodes and --chunk-games (at most 100000) must be positive".into());
        }
        if self.random_plies > 40 {
            return Err(format!("--random-plies {}: at most 40", self.random_plies));
        }
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let manifest_path = dir.join("run.txt");
        let manifest = self.manifest(generator);
        match std::fs::read_to_string(&manifest_path) {
            Ok(old) if old != manifest => {
                return Err(format!(
                "{} holds a run with other settings:\n{old}(this command's settings:\n{manifest})",
                dir.display()
            ))
            }
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                engram_tt::write_atomic(&manifest_path, |f| {
                    std::io::Write::write_all(f, manifest.as_bytes())
                })
                .map_err(|e| format!("{}: {e}", manifest_path.display()))?;
            }
            Err(e) => return Err(format!("{}: {e}", manifest_path.display())),
        }
        let mut done = BTreeMap::new();
        for entry in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
            let path = entry.map_err(|e| e.to_string())?.path();
            let Some(index) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_prefix("chunk-")?.strip_suffix(".games"))
                .and_then(|n| n.parse::<u64>().ok())
            else {
                continue;
            };
            let mut head = [0u8; HEADER_LEN];
            let header = std::fs::File::open(&path)
                .and_then(|mut f| f.read_exact(&mut head))
                .map_err(|e| format!("{}: {e}", path.display()))
                .and_then(|_| read_header(&head).map_err(|e| format!("{}: {e}", path.display())))?;
            if header.seed != self.seed
                || header.nodes != self.nodes
                || header.index != index
                || header.generator != generator.id
            {
                return Err(format!(
                    "{}: seed {}, nodes {}, index {}, generator {:016x} do not belong to this run",
                    path.display(),
                    header.seed,
                    header.nodes,
                    header.index,
                    header.generator
                ));
            }
            done.insert(index, header.positions);
        }
        Ok(done)
    }

    /// Runs the generation (or the report of `--stats`); returns the summary.
    pub fn run(&self) -> Result<String, String> {
        if let Some(dir) = &self.stats {
            return Ok(stats::collect(dir)?.text());
        }
        let (Some(out), Some(positions)) = (&self.out, self.positions) else {
            return Err("--out and --positions are required".into());
        };
        self.generate(out, positions)
    }

    fn generate(&self, out: &Path, positions: u64) -> Result<String, String> {
        let generator = self.generator()?;
        let done = self.prepare(out, &generator)?;
        let settings = Settings {
            nodes: self.nodes,
            random_plies: self.random_plies,
            hash_mib: self.hash,
            nnue: generator.net.clone(),
        };
        let state = Mutex::new(RunState::new(done, positions));
        if let Some(summary) = state.lock().expect("not poisoned").finished_summary() {
            return Ok(summary);
        }
        let start_positions = state.lock().expect("not poisoned").prefix_positions();
        let bar = ProgressBar::new(positions);
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} positions ({per_sec}, {eta} left) {msg}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        bar.set_position(start_positions.min(positions));
        bar.reset_eta();
        let played = AtomicU64::new(0);
        let started = Instant::now();
        let errors = Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for _ in 0..self.threads {
                s.spawn(|| {
                    if let Err(e) =
                        self.worker(out, settings.clone(), generator.id, &state, &bar, &played)
                    {
                        errors.lock().expect("not poisoned").push(e);
                        state.lock().expect("not poisoned").abort = true;
                    }
                });
            }
        });
        bar.finish_and_clear();
        if let Some(e) = errors.into_inner().expect("not poisoned").pop() {
            return Err(e);
        }
        let mut st = state.into_inner().expect("not poisoned");
        // Chunks past the prefix that reached N (finished by one thread while another
        // completed the prefix) are this run's extra work: removed, so the directory is the
        // same whatever the thread count.
        for index in st.extra_chunks() {
            let _ = std::fs::remove_file(chunk_path(out, index));
            st.done.remove(&index);
        }
        let secs = started.elapsed().as_secs_f64();
        let new = st.prefix_positions().saturating_sub(start_positions);
        Ok(format!(
            "{} chunks, {} positions in {} ({} new in {:.0} s, {:.0} positions/s, {} games played)",
            st.done.len(),
            st.prefix_positions(),
            out.display(),
            new,
            secs,
            new as f64 / secs.max(1e-9),
            played.load(Ordering::Relaxed)
        ))
    }

    fn worker(
        &self,
        out: &Path,
        settings: Settings,
        generator: u64,
        state: &Mutex<RunState>,
        bar: &ProgressBar,
        played: &AtomicU64,
    ) -> Result<(), String> {
        let mut player = Player::new(settings)?;
        loop {
            let Some(index) = state.lock().expect("not poisoned").claim() else {
                return Ok(());
            };
            let mut games: Vec<GameRecord> = Vec::with_capacity(self.chunk_games as usize);
            let mut positions = 0;
            for g in 0..self.chunk_games {
                if state.lock().expect("not poisoned").is_unneeded(index) {
                    break;
                }
                let game = player.play(self.seed, index * self.chunk_games + g);
                positions += game.scored.len() as u64;
                bar.inc(game.scored.len() as u64);
                played.fetch_add(1, Ordering::Relaxed);
                games.push(game);
            }
            if games.len() as u64 != self.chunk_games {
                bar.set_position(bar.position().saturating_sub(positions));
                state.lock().expect("not poisoned").release(index);
                continue;
            }
            let header = ChunkHeader {
                games: 0,
                positions: 0,
                seed: self.seed,
                index,
                nodes: self.nodes,
                generator,
            };
            write_chunk(&chunk_path(out, index), header, &games).map_err(|e| e.to_string())?;
            state
                .lock()
                .expect("not poisoned")
                .complete(index, positions);
        }
    }
}

/// Which chunks exist, which are being played, and when the run has enough.
struct RunState {
    /// Finished chunks and their positions.
    done: BTreeMap<u64, u64>,
    /// Chunks being played.
    busy: Vec<u64>,
    /// Chunks this run wrote.
    written: Vec<u64>,
    /// The positions wanted.
    target: u64,
    /// Set when a worker failed: the others stop.
    abort: bool,
}

impl RunState {
    fn new(done: BTreeMap<u64, u64>, target: u64) -> RunState {
        RunState {
            done,
            busy: Vec::new(),
            written: Vec::new(),
            target,
            abort: false,
        }
    }

    /// The positions in the unbroken prefix of finished chunks 0, 1, 2, ... that reaches the
    /// target (or all of it), and the index of its last chunk.
    fn prefix(&self) -> (u64, Option<u64>) {
        let mut total = 0;
        let mut last = None;
        for i in 0.. {
            let Some(&p) = self.done.get(&i) else { break };
            total += p;
            last = Some(i);
            if total >= self.target {
                break;
            }
        }
        (total, last)
    }

    fn prefix_positions(&self) -> u64 {
        self.prefix().0
    }

    /// Whether the prefix already reaches the target.
    fn reached(&self) -> bool {
        self.prefix().0 >= self.target
    }

    fn finished_summary(&self) -> Option<String> {
        self.reached().then(|| {
            format!(
                "nothing to do: the chunks hold {} positions",
                self.prefix().0
            )
        })
    }

    /// Chunk `index` is not needed: the chunks before it already reach the target.
    fn is_unneeded(&self, index: u64) -> bool {
        if self.abort {
            return true;
        }
        let (total, last) = self.prefix();
        total >= self.target && last.is_some_and(|l| index > l)
    }

    /// The lowest chunk neither finished nor being played, if the run still needs one.
    fn claim(&mut self) -> Option<u64> {
        if self.abort || self.reached() {
            return None;
        }
        let index = (0..)
            .find(|i| !self.done.contains_key(i) && !self.busy.contains(i))
            .expect("an unbounded range has a free index");
        self.busy.push(index);
        Some(index)
    }

    fn release(&mut self, index: u64) {
        self.busy.retain(|&i| i != index);
    }

    fn complete(&mut self, index: u64, positions: u64) {
        self.release(index);
        self.done.insert(index, positions);
        self.written.push(index);
    }

    /// Chunks this run wrote past the prefix that reaches the target.
    fn extra_chunks(&self) -> Vec<u64> {
        let (total, last) = self.prefix();
        match last {
            Some(l) if total >= self.target => {
                self.written.iter().copied().filter(|&i| i > l).collect()
            }
            _ => Vec::new(),
        }
    }
}
