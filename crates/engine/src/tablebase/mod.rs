//! Syzygy endgame tablebases: win/draw/loss (WDL) and distance-to-zeroing (DTZ) probes.
//!
//! The probing code is the `pyrrhic-rs` crate (MIT; Pyrrhic, itself from Fathom, translated
//! to Rust), chosen over Fathom (MIT, C) because it is pure Rust: the default build stays
//! cargo-only, without a C compiler, and it generates moves with Engram's own attack
//! functions through [`Adapter`]. Its one limit is that a process holds one set of tables
//! at a time, which is how an engine uses them anyway: the set lives here, behind a lock,
//! and `SyzygyPath` replaces it ([`set_path`]); probes take the lock for reading.
//!
//! A position can be probed when it has no more pieces than the tables (kings included)
//! and no castling rights; the WDL value assumes the fifty-move counter is at zero, as after
//! a capture or a pawn move.

use engram_chess::{attacks, Bitboard, Board, CastlingRights, Color, PieceKind, Square};
use pyrrhic_rs::{EngineAdapter, TableBases, WdlProbeResult};
use std::sync::RwLock;

/// Engram's attack functions, as the prober asks for them.
#[derive(Clone)]
pub struct Adapter;

fn sq(square: u64) -> Square {
    Square::from_index(square as u8)
}

impl EngineAdapter for Adapter {
    fn pawn_attacks(color: pyrrhic_rs::Color, square: u64) -> u64 {
        let color = match color {
            pyrrhic_rs::Color::White => Color::White,
            pyrrhic_rs::Color::Black => Color::Black,
        };
        attacks::pawn_attacks(color, sq(square)).0
    }
    fn knight_attacks(square: u64) -> u64 {
        attacks::knight_attacks(sq(square)).0
    }
    fn bishop_attacks(square: u64, occupied: u64) -> u64 {
        attacks::bishop_attacks(sq(square), Bitboard(occupied)).0
    }
    fn rook_attacks(square: u64, occupied: u64) -> u64 {
        attacks::rook_attacks(sq(square), Bitboard(occupied)).0
    }
    fn queen_attacks(square: u64, occupied: u64) -> u64 {
        attacks::queen_attacks(sq(square), Bitboard(occupied)).0
    }
    fn king_attacks(square: u64) -> u64 {
        attacks::king_attacks(sq(square)).0
    }
}

/// A tablebase result for the side to move, the fifty-move counter at zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wdl {
    /// Lost.
    Loss,
    /// Lost, but saved by the fifty-move rule.
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won, but not within the fifty-move rule.
    CursedWin,
    /// Won.
    Win,
}

impl Wdl {
    /// The other side's view.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }
}

/// The loaded tables and the path they came from.
struct Loaded {
    tables: TableBases<Adapter>,
    path: String,
    max_pieces: u32,
}

static TABLES: RwLock<Option<Loaded>> = RwLock::new(None);

/// `SyzygyPath`: loads the tables in `path` (folders separated by `:` on Unix, `;` on
/// Windows; empty or `<empty>`: none). Returns what was found; on an error the tables that
/// were loaded stay.
pub fn set_path(path: &str) -> Result<String, String> {
    let mut slot = TABLES.write().unwrap_or_else(|e| e.into_inner());
    if path.is_empty() || path == "<empty>" {
        *slot = None;
        return Ok("no tablebases".into());
    }
    if slot.as_ref().is_some_and(|l| l.path == path) {
        return Ok(describe(slot.as_ref()));
    }
    for dir in std::env::split_paths(path) {
        if !dir.is_dir() {
            return Err(format!(
                "SyzygyPath: '{}' is not a folder; {}",
                dir.display(),
                describe(slot.as_ref())
            ));
        }
    }
    if pieces_in(path) == 0 {
        return Err(format!(
            "SyzygyPath: no Syzygy tables (*.rtbw) in '{path}'; {}",
            describe(slot.as_ref())
        ));
    }
    // One set per process: the old one goes before the new one is read.
    let old = slot.take();
    let old_path = old.as_ref().map(|l| l.path.clone());
    drop(old);
    match TableBases::<Adapter>::new(path) {
        Ok(tables) => {
            let max_pieces = pieces_in(path);
            *slot = Some(Loaded {
                tables,
                path: path.to_string(),
                max_pieces,
            });
            Ok(describe(slot.as_ref()))
        }
        Err(e) => {
            // Put the old set back if it can be read again.
            if let Some(p) = old_path {
                if let Ok(tables) = TableBases::<Adapter>::new(&p) {
                    let max_pieces = pieces_in(&p);
                    *slot = Some(Loaded {
                        tables,
                        path: p,
                        max_pieces,
                    });
                }
            }
            Err(format!(
                "SyzygyPath: no Syzygy tables found in '{path}' ({e:?}); {}",
                describe(slot.as_ref())
            ))
        }
    }
}

/// The most pieces of the WDL tables (`KQvKR.rtbw`: 5) in the folders of `path`. Counted
/// here because pyrrhic-rs 0.2's own figure also counts DTM tables it never loads (it says 7
/// for a folder of 3- and 4-piece tables).
fn pieces_in(path: &str) -> u32 {
    std::env::split_paths(path)
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flatten()
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            let stem = name.strip_suffix(".rtbw")?;
            Some(stem.chars().filter(|c| "KQRBNP".contains(*c)).count() as u32)
        })
        .max()
        .unwrap_or(0)
}

fn describe(loaded: Option<&Loaded>) -> String {
    match loaded {
        Some(l) => format!("tablebases: up to {} pieces from {}", l.max_pieces, l.path),
        None => "no tablebases are loaded".into(),
    }
}

/// The most pieces (kings included) the loaded tables cover; 0 without tables.
pub fn max_pieces() -> u32 {
    TABLES
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .map_or(0, |l| l.max_pieces)
}

/// The sets of a board as the prober takes them.
struct Sets {
    white: u64,
    black: u64,
    kings: u64,
    queens: u64,
    rooks: u64,
    bishops: u64,
    knights: u64,
    pawns: u64,
    ep: u32,
    white_to_move: bool,
}

fn board_sets(board: &Board) -> Sets {
    let kind = |k| board.pieces(k).0;
    Sets {
        white: board.color(Color::White).0,
        black: board.color(Color::Black).0,
        kings: kind(PieceKind::King),
        queens: kind(PieceKind::Queen),
        rooks: kind(PieceKind::Rook),
        bishops: kind(PieceKind::Bishop),
        knights: kind(PieceKind::Knight),
        pawns: kind(PieceKind::Pawn),
        ep: board.en_passant().map_or(0, |s| s.index() as u32),
        white_to_move: board.side_to_move() == Color::White,
    }
}

/// The WDL value of `board` for the side to move, if the tables hold it (few enough pieces,
/// no castling rights; the fifty-move counter taken as zero).
pub fn probe_wdl(board: &Board) -> Option<Wdl> {
    let guard = TABLES.read().unwrap_or_else(|e| e.into_inner());
    let loaded = guard.as_ref()?;
    if board.occupied().len() > loaded.max_pieces
        || board.castling_rights() != CastlingRights::EMPTY
    {
        return None;
    }
    let s = board_sets(board);
    let result = loaded.tables.probe_wdl(
        s.white,
        s.black,
        s.kings,
        s.queens,
        s.rooks,
        s.bishops,
        s.knights,
        s.pawns,
        s.ep,
        s.white_to_move,
    );
    match result.ok()? {
        WdlProbeResult::Loss => Some(Wdl::Loss),
        WdlProbeResult::BlessedLoss => Some(Wdl::BlessedLoss),
        WdlProbeResult::Draw => Some(Wdl::Draw),
        WdlProbeResult::CursedWin => Some(Wdl::CursedWin),
        WdlProbeResult::Win => Some(Wdl::Win),
    }
}

/// What is loaded, in words (for `info string`).
pub fn describe_loaded() -> String {
    describe(TABLES.read().unwrap_or_else(|e| e.into_inner()).as_ref())
}

/// The tests of this module and of the engine share the one process-wide set of tables:
/// they take this lock around their use of it.
#[cfg(test)]
pub(crate) static TEST_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

mod root;
pub use root::{dtz_rank, rank_root, RootRanking, MAX_DTZ};

#[cfg(test)]
mod tests;
