//! Laboratory counters (cargo feature `lab`, used by `engram-lab`): how the search uses the
//! table, by remaining depth and game phase. Without the feature none of this is compiled.

use super::tt::Probe;
use engram_chess::{Board, PieceKind};

/// Remaining depths counted apart (quiescence is 0; deeper nodes count as the last).
pub const DEPTHS: usize = 32;
/// Game phases counted apart: 0 (bare kings and pawns) to 24 (all minor and major pieces),
/// counting a knight or bishop 1, a rook 2, a queen 4 (capped at 24 after promotions).
pub const PHASES: usize = 25;

/// The game phase of `board` (0–24), as in tapered evaluation.
pub fn phase(board: &Board) -> usize {
    let count = |k| board.pieces(k).len() as usize;
    (count(PieceKind::Knight)
        + count(PieceKind::Bishop)
        + 2 * count(PieceKind::Rook)
        + 4 * count(PieceKind::Queen))
    .min(PHASES - 1)
}

/// Probes, hits, hits with a move, and cutoffs, by remaining depth and phase; internal
/// iterative reductions; and the switch that turns those reductions off.
#[derive(Clone, Debug)]
pub struct TtUse {
    /// Probes (every node that reached its probe).
    pub probes: Vec<[u64; PHASES]>,
    /// Probes that found an entry.
    pub hits: Vec<[u64; PHASES]>,
    /// Hits whose entry had a move.
    pub moves: Vec<[u64; PHASES]>,
    /// Hits that ended the node without a search (a bound cutoff).
    pub cuts: Vec<[u64; PHASES]>,
    /// Internal iterative reductions: nodes that lost a ply because the table gave no move.
    /// A policy that loses more entries searches fewer nodes to the same nominal depth this
    /// way, so fixed-depth node counts alone flatter it.
    pub iir: u64,
    /// Whether internal iterative reduction is on: [`crate::config::EngineConfig::iir`],
    /// set by each search.
    pub iir_on: bool,
}

impl Default for TtUse {
    fn default() -> Self {
        TtUse {
            probes: vec![[0; PHASES]; DEPTHS],
            hits: vec![[0; PHASES]; DEPTHS],
            moves: vec![[0; PHASES]; DEPTHS],
            cuts: vec![[0; PHASES]; DEPTHS],
            iir: 0,
            iir_on: true,
        }
    }
}

impl TtUse {
    /// Counts one probe at remaining `depth` in `board`.
    #[inline]
    pub(super) fn count(&mut self, depth: i32, board: &Board, probe: &Probe, cut: bool) {
        let d = depth.clamp(0, DEPTHS as i32 - 1) as usize;
        let p = phase(board);
        self.probes[d][p] += 1;
        if probe.hit() {
            self.hits[d][p] += 1;
            self.moves[d][p] += u64::from(!probe.mv.is_null());
            self.cuts[d][p] += u64::from(cut);
        }
    }

    /// Whether a node that qualifies for internal iterative reduction gets it; counts it.
    #[inline]
    pub(super) fn reduce(&mut self) -> bool {
        self.iir += u64::from(self.iir_on);
        self.iir_on
    }

    /// Adds another thread's counts.
    pub fn add(&mut self, other: &TtUse) {
        self.iir += other.iir;
        for (a, b) in [
            (&mut self.probes, &other.probes),
            (&mut self.hits, &other.hits),
            (&mut self.moves, &other.moves),
            (&mut self.cuts, &other.cuts),
        ] {
            for (x, y) in a.iter_mut().zip(b) {
                for (u, v) in x.iter_mut().zip(y) {
                    *u += v;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phase_counts_pieces() {
        assert_eq!(phase(&Board::startpos()), 24);
        let kpk = Board::from_fen("8/8/8/8/8/4k3/4P3/4K3 w - - 0 1", false).unwrap();
        assert_eq!(phase(&kpk), 0);
        let krnk = Board::from_fen("8/8/8/8/8/4k3/4n3/4K2R w - - 0 1", false).unwrap();
        assert_eq!(phase(&krnk), 3);
    }
}
