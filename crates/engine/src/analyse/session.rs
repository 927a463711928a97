//! One `engram analyse` run's engine: the thread pool and its table, and the compact memory
//! (`--memory FILE`) loaded into the table before the first search and written back, merged
//! with what was harvested, after the last.

use crate::config::EngineConfig;
use crate::hashfile::{self, KEY_SCHEME};
use crate::search::report::{Event, Info, Reporter};
use crate::search::{SearchLimits, SearchResult};
use engram_chess::{Board, Position};
use engram_tt::Memory;
use std::path::PathBuf;

/// How deep or long each search runs, and how.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Plies.
    pub depth: Option<i32>,
    /// Milliseconds.
    pub movetime: Option<u64>,
    /// Nodes.
    pub nodes: Option<u64>,
    /// Principal variations.
    pub multipv: usize,
}

/// The engine of one run.
pub struct Session {
    engine: crate::session::Session,
    memory_path: Option<PathBuf>,
    /// What the memory file held when the run started.
    memory: Memory,
    /// Every position searched since the last new game, for the harvest.
    roots: Vec<Board>,
    /// What was harvested at each new game.
    harvested: Memory,
    /// The shallowest entries the harvest keeps.
    memory_depth: i32,
}

impl Session {
    /// An engine of `threads` threads on a `hash` MiB table (cleared by all of them, so the
    /// first search's time is its own), reporting `multipv` lines, with the compact memory at
    /// `memory` (if it exists) loaded into it. Returns the session and a line saying what was
    /// loaded, if anything.
    pub fn new(
        threads: usize,
        hash: usize,
        multipv: usize,
        memory: Option<PathBuf>,
        memory_depth: i32,
    ) -> Result<(Session, Option<String>), String> {
        let engine = crate::session::Session::new(EngineConfig {
            threads,
            hash,
            multipv,
            ..EngineConfig::default()
        })?;
        let table = engine.table();
        let mut note = None;
        let loaded = match &memory {
            Some(path) => match hashfile::read_memory(path)? {
                Some(m) => {
                    let r = m.apply(table);
                    note = Some(format!(
                        "memory '{}': {} entries loaded, {} stored",
                        path.display(),
                        r.entries,
                        r.stored
                    ));
                    m
                }
                None => Memory::new(),
            },
            None => Memory::new(),
        };
        Ok((
            Session {
                engine,
                memory_path: memory,
                memory: loaded,
                roots: Vec::new(),
                harvested: Memory::new(),
                memory_depth,
            },
            note,
        ))
    }

    /// Searches `pos` within `limits` (its `multipv` is the session's), sending every
    /// iteration's [`Info`] to `report`.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        report: impl Fn(&Info) + Send + Sync + 'static,
    ) -> SearchResult {
        self.roots.push(*pos.board());
        let clock = crate::time::Clock {
            movetime: limits.movetime,
            ..Default::default()
        };
        let search_limits = SearchLimits {
            depth: limits.depth,
            nodes: limits.nodes,
            clock,
            reporter: Some(Reporter::new(move |e| {
                if let Event::Info(info) = e {
                    report(info)
                }
            })),
            ..SearchLimits::default()
        };
        self.engine.search(pos, search_limits)
    }

    /// Starts a new game: what the table holds for the positions searched so far is
    /// harvested (with a memory file), the table is emptied and the threads forget their
    /// histories, and the memory file's entries are loaded again. The next search then
    /// starts from the same state whatever was searched before.
    pub fn new_game(&mut self) {
        if self.memory_path.is_some() && !self.roots.is_empty() {
            let h = hashfile::harvest(self.engine.table(), &self.roots, self.memory_depth);
            self.harvested.merge(&h);
        }
        self.roots.clear();
        self.engine.new_game();
        self.memory.apply(self.engine.table());
    }

    /// Writes the memory back, if there is one: what the file held, merged with the table's
    /// entries reachable from the positions searched (the deeper entry per key wins). Returns
    /// a line saying what was written.
    pub fn finish(self) -> Result<Option<String>, String> {
        let Some(path) = &self.memory_path else {
            return Ok(None);
        };
        let mut memory = self.memory;
        memory.age_by(1);
        let mut harvested = self.harvested;
        harvested.merge(&hashfile::harvest(
            self.engine.table(),
            &self.roots,
            self.memory_depth,
        ));
        memory.merge(&harvested);
        let info = memory
            .save(path, KEY_SCHEME, &hashfile::writer())
            .map_err(|e| format!("cannot save the memory to '{}': {e}", path.display()))?;
        Ok(Some(format!(
            "memory '{}': {} entries saved ({} harvested from this run, depth >= {}), {:.1} KiB",
            path.display(),
            info.entries,
            harvested.len(),
            self.memory_depth,
            info.file_bytes() as f64 / 1024.0
        )))
    }
}
