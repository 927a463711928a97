//! The engine's configuration: every value a UCI option sets, in one struct. The options
//! ([`crate::options`]) write it, [`crate::session::Session`] builds the engine from it, and
//! every search thread reads the same `Arc` of it. UCI, `bench`, `analyse`, `datagen` and the
//! lab all start from [`EngineConfig::default`] and change what they need.

use engram_chess::Book;
use engram_nnue::Network;
use std::sync::Arc;

/// Default `Hash`, in MiB.
pub const HASH_DEFAULT: usize = 16;
/// Default `Move Overhead`, in milliseconds.
pub const OVERHEAD_DEFAULT: u64 = 10;
/// Whether enhanced transposition cutoffs are on by default (see the measurements).
pub const ETC_DEFAULT: bool = false;
/// Whether `Use NNUE` is on by default: on since the first trained network (gen0a) beat the
/// hand-crafted evaluation by +147 ± 44 Elo in 200 games.
pub const NNUE_DEFAULT: bool = true;

/// The replacement policies `Replacement` offers: `engram-tt`'s list of policies
/// ([`engram_tt::Policy::NAMES`]), the default first.
pub const REPLACEMENT_VARS: &[&str] = &engram_tt::Policy::NAMES;

/// The table policy named `name` (one of [`REPLACEMENT_VARS`], any case) with age weight
/// `age` (used by `Buckets` and `LineBuckets`); an unknown name gives the default policy
/// with that weight.
pub fn policy(name: &str, age: u8) -> engram_tt::Policy {
    use engram_tt::Policy;
    Policy::from_name(name, age).unwrap_or(Policy::all(age)[0])
}

/// Everything that configures the engine beyond the limits of one search.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// `Hash`: table size in MiB.
    pub hash: usize,
    /// `Threads`: search threads.
    pub threads: usize,
    /// `MultiPV`: principal variations to report.
    pub multipv: usize,
    /// `Move Overhead`: milliseconds lost per move in communication.
    pub move_overhead: u64,
    /// `UCI_Chess960`: Chess960 castling notation and FEN.
    pub chess960: bool,
    /// `Replacement`: the table's policy, by name (one of [`REPLACEMENT_VARS`]).
    pub replacement: &'static str,
    /// `Replacement Age`: the buckets policies' age weight.
    pub replacement_age: u8,
    /// `Hash File`: where `Save Hash to File` writes and `Load Hash from File` reads.
    pub hash_file: String,
    /// `Never Clear Hash`: `ucinewgame` keeps the table.
    pub never_clear_hash: bool,
    /// `ETC`: enhanced transposition cutoffs.
    pub etc: bool,
    /// `EvalFile`: the network file loaded (empty: the embedded network).
    pub eval_file: String,
    /// The network `EvalFile` names, loaded.
    pub net: Arc<Network>,
    /// `Use NNUE`: evaluate with [`EngineConfig::net`] (else the hand-crafted evaluation).
    pub use_nnue: bool,
    /// `UCI_ShowWDL`: `info` lines carry win/draw/loss chances after the score.
    pub show_wdl: bool,
    /// `OwnBook`: play from the opening book (`Book File`) while it has a move.
    pub own_book: bool,
    /// `Book File`: the Polyglot book file loaded (empty: none).
    pub book_file: String,
    /// The book `Book File` names, loaded (`None`: no book).
    pub book: Option<Arc<Book>>,
    /// `Best Book Move`: always the book's heaviest move (else one drawn by weight).
    pub best_book_move: bool,
    /// `Skill Level`: 0 (weakest) to 20 (full strength), when `UCI_LimitStrength` is off.
    pub skill_level: i32,
    /// `UCI_LimitStrength`: play at `UCI_Elo` (`search::skill`).
    pub limit_strength: bool,
    /// `UCI_Elo`: the strength to play at, on Stockfish's scale.
    pub uci_elo: i32,
    /// `SyzygyPath`: the folders of the Syzygy tables loaded (empty: none). The tables
    /// themselves are the process's one set, in [`crate::tablebase`].
    pub syzygy_path: String,
    /// `SyzygyProbeDepth`: at the tables' largest piece count, probe only from this depth.
    pub syzygy_probe_depth: i32,
    /// `Syzygy50MoveRule`: a win that the fifty-move rule would void is a draw.
    pub syzygy_50_move_rule: bool,
    /// `SyzygyProbeLimit`: probe positions of at most this many pieces (0: never).
    pub syzygy_probe_limit: u32,
    /// Use the table (off only to measure what it saves: `bench --no-tt`).
    pub use_tt: bool,
    /// Prefetch the children's table entries (off only for measurements; needs `use_tt`).
    pub prefetch: bool,
    /// Internal iterative reduction at nodes without a table move. Always on in the engine;
    /// only a build with the `lab` feature reads it (the TT lab turns it off to measure
    /// policies without it).
    pub iir: bool,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            hash: HASH_DEFAULT,
            threads: 1,
            multipv: 1,
            move_overhead: OVERHEAD_DEFAULT,
            chess960: false,
            replacement: REPLACEMENT_VARS[0],
            replacement_age: 8,
            hash_file: String::new(),
            never_clear_hash: false,
            etc: ETC_DEFAULT,
            eval_file: String::new(),
            net: crate::eval::nnue::default_net(),
            use_nnue: NNUE_DEFAULT,
            show_wdl: false,
            own_book: false,
            book_file: String::new(),
            book: None,
            best_book_move: false,
            skill_level: 20,
            limit_strength: false,
            uci_elo: 1500,
            syzygy_path: String::new(),
            syzygy_probe_depth: 1,
            syzygy_50_move_rule: true,
            syzygy_probe_limit: 7,
            use_tt: true,
            prefetch: true,
            iir: true,
        }
    }
}

impl EngineConfig {
    /// The strength limit these settings ask for: `UCI_Elo` under `UCI_LimitStrength`, else
    /// `Skill Level`; `None` at full strength.
    pub fn skill(&self) -> Option<crate::search::skill::Skill> {
        use crate::search::skill::Skill;
        let skill = if self.limit_strength {
            Skill::from_elo(self.uci_elo)
        } else {
            Skill {
                level: f64::from(self.skill_level),
            }
        };
        skill.limits().then_some(skill)
    }

    /// The table configuration these settings ask for.
    pub fn table_config(&self) -> engram_tt::Config {
        engram_tt::Config {
            mib: self.hash,
            policy: policy(self.replacement, self.replacement_age),
            huge_pages: true,
        }
    }

    /// The network to evaluate with; `None`: the hand-crafted evaluation.
    pub fn nnue(&self) -> Option<&Arc<Network>> {
        self.use_nnue.then_some(&self.net)
    }

    /// The network's name: its file, or `<embedded>`.
    pub fn net_name(&self) -> &str {
        if self.eval_file.is_empty() {
            "<embedded>"
        } else {
            &self.eval_file
        }
    }

    /// Whether `other` needs another table than this configuration's (size or policy).
    pub fn table_differs(&self, other: &EngineConfig) -> bool {
        (self.hash, self.replacement, self.replacement_age)
            != (other.hash, other.replacement, other.replacement_age)
    }

    /// `EvalFile`: loads the network `path` (empty: the embedded one). A bad file is an error
    /// that names the network that stays.
    pub fn load_net(&mut self, path: &str) -> Result<(), String> {
        self.net = if path.is_empty() {
            crate::eval::nnue::default_net()
        } else {
            Arc::new(
                Network::load(path.as_ref())
                    .map_err(|e| format!("{e}; the network stays {}", self.net_name()))?,
            )
        };
        self.eval_file = path.to_string();
        Ok(())
    }

    /// `Book File`: loads the Polyglot book `path` (empty: no book). A bad file is an error
    /// that names the book that stays.
    pub fn load_book(&mut self, path: &str) -> Result<(), String> {
        if path.is_empty() {
            self.book = None;
        } else {
            let book = Book::load(path.as_ref())
                .map_err(|e| format!("book {path}: {e}; {}", self.book_text()))?;
            self.book = Some(Arc::new(book));
        }
        self.book_file = path.to_string();
        Ok(())
    }

    /// The opening book loaded, in words.
    pub fn book_text(&self) -> String {
        match &self.book {
            Some(book) => format!(
                "the opening book is {} ({} entries)",
                self.book_file,
                book.len()
            ),
            None => "no opening book is loaded".into(),
        }
    }

    /// Whether the search threads should prefetch (only with the table in use).
    pub fn prefetching(&self) -> bool {
        self.use_tt && self.prefetch
    }
}
