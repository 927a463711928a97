//! One engine, assembled in one place from an [`EngineConfig`]: the transposition table, the
//! search threads and the flags that stop them. UCI, `bench`, `analyse` and `datagen` each
//! hold a [`Session`], and so does the TT lab; a new configuration (a `setoption`) is applied by
//! [`Session::reconfigure`], which changes the table or the threads only when it must.

use crate::config::EngineConfig;
use crate::pool::Pool;
use crate::search::{Control, SearchLimits, SearchResult};
use engram_chess::Position;
use engram_tt::Table;
use std::sync::Arc;

/// An engine: its configuration, table and threads.
pub struct Session {
    config: Arc<EngineConfig>,
    control: Arc<Control>,
    pool: Pool,
}

impl Session {
    /// An engine as `config` says: a table of `config.hash` MiB with its policy, cleared by
    /// all `config.threads` search threads (so that its memory is in place before the first
    /// search), and the threads.
    pub fn new(config: EngineConfig) -> Result<Session, String> {
        let table = Table::with_config(config.table_config()).map_err(|e| {
            format!(
                "cannot allocate {} MiB for the hash table: {e}",
                config.hash
            )
        })?;
        Session::with_table(config, table)
    }

    /// An engine on `table`, built by the caller (the TT lab's tables of any geometry);
    /// `config`'s table settings are not used for it.
    pub fn with_table(config: EngineConfig, table: Table) -> Result<Session, String> {
        let control = Arc::new(Control::default());
        let mut pool = Pool::new(Arc::new(table), control.clone());
        pool.set_threads(config.threads)?;
        pool.table().clear(pool.threads());
        Ok(Session {
            config: Arc::new(config),
            control,
            pool,
        })
    }

    /// The configuration in effect.
    pub fn config(&self) -> &Arc<EngineConfig> {
        &self.config
    }

    /// The flags shared with the search: `stop`, pondering, `ponderhit`.
    pub fn control(&self) -> &Arc<Control> {
        &self.control
    }

    /// The table.
    pub fn table(&self) -> &Arc<Table> {
        self.pool.table()
    }

    /// Takes `next` as the configuration. A new table if its size or policy differ (the old
    /// one is freed first, so the two never need to fit together; a size over the available
    /// memory is refused before anything is freed), new threads if their number does; the
    /// rest is read by the next search. On an error the engine stays as it was, except that
    /// threads the system refused leave fewer threads (said in the error). Only while idle.
    pub fn reconfigure(&mut self, next: EngineConfig) -> Result<(), String> {
        let mut next = next;
        let mut failure = None;
        if self.config.table_differs(&next) {
            if let Err(e) = self.reallocate(&next) {
                // The table stays as it was; so do its settings.
                next.hash = self.config.hash;
                next.replacement = self.config.replacement;
                next.replacement_age = self.config.replacement_age;
                failure = Some(e);
            }
        }
        if next.threads != self.pool.threads() {
            if let Err(e) = self.pool.set_threads(next.threads) {
                failure.get_or_insert(e);
            }
            next.threads = self.pool.threads();
        }
        self.config = Arc::new(next);
        failure.map_or(Ok(()), Err)
    }

    /// Replaces the table by an empty one as `next` asks, cleared by all threads. On failure
    /// the old size and policy come back, or the default size, or else a 1 MiB table.
    fn reallocate(&mut self, next: &EngineConfig) -> Result<(), String> {
        let old = self.table().bytes();
        // With overcommit the allocation could succeed and the clear then get the engine
        // OOM-killed: refuse first, with the old table's memory counted as given back.
        Table::check_memory(next.hash, old).map_err(|e| {
            format!(
                "cannot allocate {} MiB for the hash table: {e}; the table stays at {} MiB",
                next.hash, self.config.hash
            )
        })?;
        let small = Table::new(1).map_err(|e| e.to_string())?;
        self.pool.set_table(Arc::new(small));
        let threads = self.pool.threads();
        match Table::with_config(next.table_config()) {
            Ok(t) => {
                t.clear(threads);
                self.pool.set_table(Arc::new(t));
                Ok(())
            }
            Err(e) => {
                let fallback = Table::with_config(self.config.table_config())
                    .or_else(|_| Table::with_config(EngineConfig::default().table_config()));
                if let Ok(t) = fallback {
                    t.clear(threads);
                    self.pool.set_table(Arc::new(t));
                }
                let mut kept = (*self.config).clone();
                kept.hash = self.pool.table().mib();
                self.config = Arc::new(kept);
                Err(format!(
                    "cannot allocate {} MiB for the hash table: {e}",
                    next.hash
                ))
            }
        }
    }

    /// Empties the table with all threads.
    pub fn clear_table(&self) {
        self.table().clear(self.pool.threads());
    }

    /// A new game: the table is emptied (unless `Never Clear Hash`) and the threads forget
    /// their histories. Only while idle.
    pub fn new_game(&mut self) {
        if !self.config.never_clear_hash {
            self.clear_table();
        }
        self.pool.clear();
    }

    /// Gives every thread a private table of `mib` MiB instead of the shared one (the lab's
    /// "shared versus per-thread tables"). Only while idle.
    pub fn set_private_tables(&mut self, mib: usize) -> Result<(), String> {
        self.pool.set_private_tables(mib).map_err(|e| e.to_string())
    }

    /// Starts a search of `pos`; its events go to `limits.reporter` and its result to
    /// [`Session::wait`]. Only while idle.
    pub fn start(&mut self, pos: &Position, limits: SearchLimits) {
        self.pool.start(pos, limits, &self.config);
    }

    /// Whether a started search has not been collected yet.
    pub fn busy(&self) -> bool {
        self.pool.busy()
    }

    /// Waits for the search started last and returns its result (`None` if none was started).
    pub fn wait(&mut self) -> Option<SearchResult> {
        self.pool.wait()
    }

    /// Searches `pos` to completion and returns the result.
    pub fn search(&mut self, pos: &Position, limits: SearchLimits) -> SearchResult {
        self.pool.search(pos, limits, &self.config)
    }

    /// How the threads used the table since they started (the TT lab's counters; a build
    /// with the `lab` feature). Only while idle.
    #[cfg(feature = "lab")]
    pub fn tt_use(&self) -> crate::search::lab::TtUse {
        self.pool.tt_use()
    }

    /// Nodes searched by all threads in the current (or last) search, as last published.
    pub fn nodes(&self) -> u64 {
        self.pool.nodes()
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.pool.threads()
    }
}
