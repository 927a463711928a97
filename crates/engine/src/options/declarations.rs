//! The declarations of the engine's UCI options, in the order `uci` lists them: name, kind
//! and limits, one line of doc, and the effect on [`EngineConfig`](crate::config::EngineConfig) (see the module above for
//! the types, and `docs/architecture.md` for how to add one).

use super::{Declaration, Effect, Kind, HASH_MAX, MULTIPV_MAX, OVERHEAD_MAX, THREADS_MAX};
use crate::config::{self, HASH_DEFAULT, OVERHEAD_DEFAULT, REPLACEMENT_VARS};
use crate::search::skill;

const HASH: &str = "Hash";
const THREADS: &str = "Threads";
const CLEAR_HASH: &str = "Clear Hash";
const PONDER: &str = "Ponder";
const MULTIPV: &str = "MultiPV";
const MOVE_OVERHEAD: &str = "Move Overhead";
const CHESS960: &str = "UCI_Chess960";
const REPLACEMENT: &str = "Replacement";
const REPLACEMENT_AGE: &str = "Replacement Age";
const HASH_FILE: &str = "Hash File";
const SAVE_HASH: &str = "Save Hash to File";
const LOAD_HASH: &str = "Load Hash from File";
const NEVER_CLEAR_HASH: &str = "Never Clear Hash";
const ETC: &str = "ETC";
const EVAL_FILE: &str = "EvalFile";
const USE_NNUE: &str = "Use NNUE";
const SHOW_WDL: &str = "UCI_ShowWDL";
const OWN_BOOK: &str = "OwnBook";
const BOOK_FILE: &str = "Book File";
const BEST_BOOK_MOVE: &str = "Best Book Move";
const SKILL_LEVEL: &str = "Skill Level";
const LIMIT_STRENGTH: &str = "UCI_LimitStrength";
const ELO: &str = "UCI_Elo";
const SYZYGY_PATH: &str = "SyzygyPath";
const SYZYGY_PROBE_DEPTH: &str = "SyzygyProbeDepth";
const SYZYGY_50_MOVE_RULE: &str = "Syzygy50MoveRule";
const SYZYGY_PROBE_LIMIT: &str = "SyzygyProbeLimit";

/// The engine's options, in the order `uci` lists them.
pub const OPTIONS: &[Declaration] = &[
    Declaration {
        name: HASH,
        kind: Kind::Spin {
            default: HASH_DEFAULT as i64,
            min: 1,
            max: HASH_MAX as i64,
        },
        doc: "table size in MiB; any size, not only powers of two",
        apply: |c, _, v| {
            c.hash = v.int() as usize;
            Ok(Effect::None)
        },
    },
    Declaration {
        name: THREADS,
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: THREADS_MAX as i64,
        },
        doc: "search threads (Lazy SMP): one shared table, per-thread histories; set it to the cores",
        apply: |c, _, v| {
            c.threads = v.int() as usize;
            Ok(Effect::None)
        },
    },
    Declaration {
        name: CLEAR_HASH,
        kind: Kind::Button,
        doc: "empties the table",
        apply: |_, _, _| Ok(Effect::ClearHash),
    },
    Declaration {
        name: PONDER,
        kind: Kind::Check { default: false },
        doc: "the GUI may send `go ponder`",
        apply: |_, _, _| Ok(Effect::None),
    },
    Declaration {
        name: MULTIPV,
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MULTIPV_MAX as i64,
        },
        doc: "number of principal variations reported",
        apply: |c, _, v| {
            c.multipv = v.int() as usize;
            Ok(Effect::None)
        },
    },
    Declaration {
        name: MOVE_OVERHEAD,
        kind: Kind::Spin {
            default: OVERHEAD_DEFAULT as i64,
            min: 0,
            max: OVERHEAD_MAX as i64,
        },
        doc: "milliseconds kept back per move for communication",
        apply: |c, _, v| {
            c.move_overhead = v.int() as u64;
            Ok(Effect::None)
        },
    },
    Declaration {
        name: CHESS960,
        kind: Kind::Check { default: false },
        doc: "Chess960: X-FEN/Shredder-FEN castling, king-takes-rook castling moves",
        apply: |c, _, v| {
            c.chess960 = v.on();
            Ok(Effect::None)
        },
    },
    Declaration {
        name: REPLACEMENT,
        kind: Kind::Combo {
            default: REPLACEMENT_VARS[0],
            vars: REPLACEMENT_VARS,
        },
        doc: "the table's replacement policy (`engram-tt`'s `Policy`; the TT lab compares them); changing it empties the table",
        apply: |c, _, v| {
            c.replacement = v.word();
            Ok(Effect::None)
        },
    },
    Declaration {
        name: REPLACEMENT_AGE,
        kind: Kind::Spin {
            default: 8,
            min: 0,
            max: 32,
        },
        doc: "plies of depth one search of age is worth when `Buckets` or `LineBuckets` picks a victim; changing it empties the table",
        apply: |c, _, v| {
            c.replacement_age = v.int() as u8;
            Ok(Effect::None)
        },
    },
    Declaration {
        name: HASH_FILE,
        kind: Kind::String { default: "" },
        doc: "the hash file the next two buttons use (a path; see \"Hash files\")",
        apply: |c, _, v| {
            c.hash_file = v.text().to_string();
            Ok(Effect::None)
        },
    },
    Declaration {
        name: SAVE_HASH,
        kind: Kind::Button,
        doc: "writes the whole table to `Hash File` (atomically: a failed write leaves the old file)",
        apply: |_, _, _| Ok(Effect::SaveHash),
    },
    Declaration {
        name: LOAD_HASH,
        kind: Kind::Button,
        doc: "merges `Hash File` into the table (deeper entries win): a saved table of the same size, or a compact memory into any size; a bad file changes nothing",
        apply: |_, _, _| Ok(Effect::LoadHash),
    },
    Declaration {
        name: NEVER_CLEAR_HASH,
        kind: Kind::Check { default: false },
        doc: "`ucinewgame` keeps the table (for analysis across games and reloads)",
        apply: |c, _, v| {
            c.never_clear_hash = v.on();
            Ok(Effect::None)
        },
    },
    Declaration {
        name: ETC,
        kind: Kind::Check {
            default: config::ETC_DEFAULT,
        },
        doc: "enhanced transposition cutoffs: a node looks up its children before searching them (see \"Enhanced transposition cutoffs\")",
        apply: |c, _, v| {
            c.etc = v.on();
            Ok(Effect::None)
        },
    },
    Declaration {
        name: EVAL_FILE,
        kind: Kind::String { default: "" },
        doc: "the NNUE network file (empty: the embedded network); a bad file gets an error and the current network stays",
        apply: |c, _, v| {
            c.load_net(v.text())?;
            Ok(Effect::NetLoaded)
        },
    },
    Declaration {
        name: USE_NNUE,
        kind: Kind::Check {
            default: config::NNUE_DEFAULT,
        },
        doc: "evaluate with the network (`EvalFile`) instead of the hand-crafted evaluation",
        apply: |c, _, v| {
            c.use_nnue = v.on();
            Ok(Effect::None)
        },
    },
    Declaration {
        name: SHOW_WDL,
        kind: Kind::Check { default: false },
        doc: "`info` lines carry `wdl W D L` after the score: win, draw and loss chances in per mille, from a model fitted on Engram's self-play games",
        apply: |c, _, v| {
            c.show_wdl = v.on();
            Ok(Effect::None)
        },
    },
    Declaration {
        name: OWN_BOOK,
        kind: Kind::Check { default: false },
        doc: "play from the opening book (`Book File`) without searching while it has a move (not under `go infinite`, `ponder` or `mate`)",
        apply: |c, _, v| {
            c.own_book = v.on();
            Ok(Effect::None)
        },
    },
    Declaration {
        name: BOOK_FILE,
        kind: Kind::String { default: "" },
        doc: "a Polyglot opening book (`.bin`), read into memory; a bad file gets an error and the current book stays",
        apply: |c, _, v| {
            c.load_book(v.text())?;
            Ok(Effect::BookLoaded)
        },
    },
    Declaration {
        name: BEST_BOOK_MOVE,
        kind: Kind::Check { default: false },
        doc: "play the book's heaviest move (else a move drawn with probability proportional to its weight)",
        apply: |c, _, v| {
            c.best_book_move = v.on();
            Ok(Effect::None)
        },
    },
    Declaration {
        name: SKILL_LEVEL,
        kind: Kind::Spin {
            default: 20,
            min: 0,
            max: 20,
        },
        doc: "play weaker below 20 (Stockfish's levels; `UCI_LimitStrength` overrides it)",
        apply: |c, _, v| {
            c.skill_level = v.int() as i32;
            Ok(Effect::None)
        },
    },
    Declaration {
        name: LIMIT_STRENGTH,
        kind: Kind::Check { default: false },
        doc: "play weaker, at `UCI_Elo`: a shallow search of several lines and a randomized pick among them, as Stockfish does ([Strength limit](#strength-limit))",
        apply: |c, _, v| {
            c.limit_strength = v.on();
            Ok(Effect::None)
        },
    },
    Declaration {
        name: ELO,
        kind: Kind::Spin {
            default: 1500,
            min: skill::ELO_MIN as i64,
            max: skill::ELO_MAX as i64,
        },
        doc: "the strength `UCI_LimitStrength` plays at, on Stockfish 15.1's scale (calibrated against its `UCI_Elo` at 10s+0.1s: [Strength limit](#strength-limit))",
        apply: |c, _, v| {
            c.uci_elo = v.int() as i32;
            Ok(Effect::None)
        },
    },
    Declaration {
        name: SYZYGY_PATH,
        kind: Kind::String { default: "" },
        doc: "folders of Syzygy tablebases (`:`-separated; `;` on Windows), read once; the root's moves are then ranked by DTZ and the search probes WDL; a bad folder gets an error and the loaded tables stay",
        apply: |c, _, v| {
            crate::tablebase::set_path(v.text())?;
            c.syzygy_path = v.text().to_string();
            Ok(Effect::TablebasesLoaded)
        },
    },
    Declaration {
        name: SYZYGY_PROBE_DEPTH,
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 100,
        },
        doc: "probe positions with as many pieces as the largest tables only from this depth (fewer pieces: always)",
        apply: |c, _, v| {
            c.syzygy_probe_depth = v.int() as i32;
            Ok(Effect::None)
        },
    },
    Declaration {
        name: SYZYGY_50_MOVE_RULE,
        kind: Kind::Check { default: true },
        doc: "a tablebase win that the fifty-move rule would void counts as a draw",
        apply: |c, _, v| {
            c.syzygy_50_move_rule = v.on();
            Ok(Effect::None)
        },
    },
    Declaration {
        name: SYZYGY_PROBE_LIMIT,
        kind: Kind::Spin {
            default: 7,
            min: 0,
            max: 7,
        },
        doc: "use the tables for positions of at most this many pieces (0: never)",
        apply: |c, _, v| {
            c.syzygy_probe_limit = v.int() as u32;
            Ok(Effect::None)
        },
    },
];
