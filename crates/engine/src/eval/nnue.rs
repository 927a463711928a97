//! The NNUE evaluation in the search: the embedded default network, and each thread's
//! stack of accumulators, updated lazily and incrementally.
//!
//! The stack is indexed like the [`engram_chess::Position`]'s boards: entry `n` holds White's and Black's
//! accumulators for `boards()[n]`, with that board's key. Make and unmake need no hook: to
//! evaluate board `n`, [`Accumulators::evaluate`] uses entry `n` if its key matches, else
//! walks back to the nearest matching entry `j ≥ n − MAX_WALK` and brings it forward one
//! board at a time. Each step's change comes from diffing the two boards' twelve piece
//! bitboards (a piece leaves where it was and not now, arrives where it is and was not),
//! which is right by construction for captures, en passant, castling (Chess960 too),
//! promotions and null moves (no change). Without a close enough entry the board's
//! accumulators are computed from scratch. A new network invalidates every entry. The
//! accumulators do not depend on the output buckets: the output layer is chosen when a board
//! is evaluated, by its number of pieces ([`Network::bucket`]). With a king-mirrored network
//! ([`features::Layout::KingMirror`]) a perspective whose king crossed between files d and e
//! sees every square mirrored from then on: that accumulator is refreshed from scratch, the
//! other one still updated incrementally. With king buckets ([`features::Layout::KingBuckets4`])
//! the same holds when a king moves into another bucket: a perspective is refreshed whenever
//! its view ([`features::Layout::view`]) changes.

use engram_chess::{Bitboard, Board, Color, Move, Piece, PieceKind, Position, Square};
use engram_nnue::{features, Network, Simd};
use std::sync::{Arc, LazyLock};

/// The embedded default network's file image (`crates/engine/nets/default.nnue`).
pub static DEFAULT_NET_BYTES: &[u8] = include_bytes!("../../nets/default.nnue");

static DEFAULT_NET: LazyLock<Arc<Network>> = LazyLock::new(|| {
    Arc::new(
        Network::from_bytes(DEFAULT_NET_BYTES).expect("the embedded network is valid (tested)"),
    )
});

/// The embedded default network, parsed once.
pub fn default_net() -> Arc<Network> {
    DEFAULT_NET.clone()
}

/// `768->H x2, activation` (`768->H x2, N output buckets, activation` with more than one
/// bucket; 3072 inputs with king buckets): a network's shape, as `info string` reports it.
pub fn describe(net: &Network) -> String {
    format!(
        "{}->{} x2{}, {}{}",
        net.layout.inputs(),
        net.hidden,
        net.buckets_text(),
        net.activation.name(),
        net.layout_text()
    )
}

/// Boards an incremental update may walk back before a refresh is cheaper.
pub const MAX_WALK: usize = 16;

/// Pieces that left (`subs`) and arrived (`adds`) between two boards; more than the
/// capacity only between boards that are not one move apart.
struct Delta {
    adds: [(Piece, Square); 4],
    subs: [(Piece, Square); 4],
    n_adds: usize,
    n_subs: usize,
}

impl Delta {
    /// The change made by `mv` on `before`, read from the move and the mailbox: one piece
    /// leaves `from` and arrives on `to` (promoted, if so), a captured piece leaves (behind
    /// `to` en passant). A null move changes nothing. `None` for castling, where
    /// [`Delta::between`] finds the two pieces that moved.
    #[inline]
    fn of_move(before: &Board, mv: Move) -> Option<Delta> {
        let mut d = Delta::EMPTY;
        if mv.is_null() {
            return Some(d);
        }
        if mv.is_castling() {
            return None;
        }
        let (from, to) = (mv.from(), mv.to());
        let mover = before.piece_on(from)?;
        d.subs[0] = (mover, from);
        d.n_subs = 1;
        let captured = if mv.is_en_passant() {
            let victim = Piece::new(!mover.color(), PieceKind::Pawn);
            Some((victim, Square::new(to.file(), from.rank())))
        } else {
            before.piece_on(to).map(|victim| (victim, to))
        };
        if let Some(c) = captured {
            d.subs[1] = c;
            d.n_subs = 2;
        }
        let arrives = mv
            .promotion_kind()
            .map_or(mover, |kind| Piece::new(mover.color(), kind));
        d.adds[0] = (arrives, to);
        d.n_adds = 1;
        Some(d)
    }

    /// No change (filler entries are never read).
    const EMPTY: Delta = Delta {
        adds: [(Piece::new(Color::White, PieceKind::Pawn), Square::A1); 4],
        subs: [(Piece::new(Color::White, PieceKind::Pawn), Square::A1); 4],
        n_adds: 0,
        n_subs: 0,
    };

    /// The change from `before` to `after`, or `None` if it is too large to be one move.
    fn between(before: &Board, after: &Board) -> Option<Delta> {
        let mut d = Delta::EMPTY;
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let (b, a) = (before.colored(color, kind), after.colored(color, kind));
                if b == a {
                    continue;
                }
                let piece = Piece::new(color, kind);
                for (set, list, n) in [
                    (b & !a, &mut d.subs, &mut d.n_subs),
                    (a & !b, &mut d.adds, &mut d.n_adds),
                ] {
                    for sq in set {
                        if *n == list.len() {
                            return None;
                        }
                        list[*n] = (piece, sq);
                        *n += 1;
                    }
                }
            }
        }
        Some(d)
    }
}

/// One thread's accumulator stack for one network.
pub struct Accumulators {
    net: Arc<Network>,
    simd: Simd,
    /// Entry `i`: White's accumulator then Black's, `2H` values from `2H · i`.
    data: Vec<i16>,
    /// Entry `i`'s board key, if the entry is valid.
    keys: Vec<Option<u64>>,
}

impl Accumulators {
    /// An empty stack for `net` (entries are allocated as boards are evaluated).
    pub fn new(net: Arc<Network>) -> Accumulators {
        Accumulators {
            net,
            simd: Simd::detect(),
            data: Vec::new(),
            keys: Vec::new(),
        }
    }

    /// The network in use.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// Switches to `net` (the same `Arc` keeps every entry; another invalidates them all).
    pub fn set_network(&mut self, net: Arc<Network>) {
        if !Arc::ptr_eq(&self.net, &net) {
            self.net = net;
            self.data.clear();
            self.keys.clear();
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.keys.fill(None);
    }

    /// The network's evaluation of `pos`'s current board in centipawns, side to move's view,
    /// through the output bucket of that board's piece count. Entry `i` of the stack belongs
    /// to `pos.boards()[i]`, and is brought up to date from the nearest valid entry below it
    /// through the moves between them.
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        let (boards, moves) = (pos.boards(), pos.moves());
        let n = boards.len() - 1;
        let h = self.net.hidden;
        if self.keys.len() <= n {
            let len = (n + 1).next_power_of_two().max(64);
            self.keys.resize(len, None);
            self.data.resize(len * 2 * h, 0);
        }
        if self.keys[n] != Some(boards[n].key()) {
            let lowest = n.saturating_sub(MAX_WALK);
            let start = (lowest..n)
                .rev()
                .find(|&j| self.keys[j] == Some(boards[j].key()));
            let mut done = false;
            if let Some(j) = start {
                done = (j + 1..=n).all(|i| self.step(&boards[i - 1], moves[i - 1], &boards[i], i));
            }
            if !done {
                self.refresh(&boards[n], n);
            }
        }
        let entry = &self.data[2 * h * n..2 * h * (n + 1)];
        let (white, black) = entry.split_at(h);
        let (stm, ntm) = match boards[n].side_to_move() {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        let bucket = self.net.bucket(boards[n].occupied().len());
        self.simd.output(&self.net, stm, ntm, bucket)
    }

    /// Entry `i` from entry `i − 1` and the change `mv` made between their boards; `false`
    /// (entry left invalid) if the boards are not one move apart.
    fn step(&mut self, before: &Board, mv: Move, after: &Board, i: usize) -> bool {
        let Some(d) = Delta::of_move(before, mv).or_else(|| Delta::between(before, after)) else {
            self.keys[i] = None;
            return false;
        };
        let h = self.net.hidden;
        let layout = self.net.layout;
        let (lower, upper) = self.data.split_at_mut(2 * h * i);
        let input = &lower[2 * h * (i - 1)..];
        let out = &mut upper[..2 * h];
        let net = &*self.net;
        for (p, color) in Color::ALL.into_iter().enumerate() {
            let out = &mut out[p * h..(p + 1) * h];
            // A king that changed its view (mirror side or bucket) changes every input.
            let view = layout.view_on(after, color);
            if view != layout.view_on(before, color) {
                refresh_half(self.simd, net, out, after, color);
                continue;
            }
            let input = &input[p * h..(p + 1) * h];
            let col = |&(piece, sq): &(Piece, Square)| {
                net.column(features::index(color, piece, sq, view))
            };
            let adds = &d.adds[..d.n_adds];
            let subs = &d.subs[..d.n_subs];
            match (adds, subs) {
                ([a], [s]) => self.simd.add_sub(out, input, col(a), col(s)),
                ([a], [s1, s2]) => self.simd.add_sub_sub(out, input, col(a), col(s1), col(s2)),
                ([a1, a2], [s1, s2]) => {
                    self.simd
                        .add_add_sub_sub(out, input, [col(a1), col(a2)], [col(s1), col(s2)])
                }
                _ => {
                    out.copy_from_slice(input);
                    for a in adds {
                        self.simd.add_column(out, col(a));
                    }
                    for s in subs {
                        self.simd.sub_column(out, col(s));
                    }
                }
            }
        }
        self.keys[i] = Some(after.key());
        true
    }

    /// Entry `i` from scratch for `board`.
    fn refresh(&mut self, board: &Board, i: usize) {
        let h = self.net.hidden;
        for (p, color) in Color::ALL.into_iter().enumerate() {
            let acc = &mut self.data[2 * h * i + p * h..2 * h * i + (p + 1) * h];
            refresh_half(self.simd, &self.net, acc, board, color);
        }
        self.keys[i] = Some(board.key());
    }
}

/// `color`'s accumulator of `board` from scratch into `acc`.
fn refresh_half(simd: Simd, net: &Network, acc: &mut [i16], board: &Board, color: Color) {
    let view = net.layout.view_on(board, color);
    let mut features = [0usize; 32];
    let mut n = 0;
    let mut extra = Bitboard::EMPTY;
    for sq in board.occupied() {
        let piece = board.piece_on(sq).expect("an occupied square has a piece");
        if n < features.len() {
            features[n] = features::index(color, piece, sq, view);
            n += 1;
        } else {
            extra = extra.with(sq);
        }
    }
    simd.refresh(acc, net, &features[..n]);
    // More than 32 pieces only on boards set up that way.
    for sq in extra {
        let piece = board.piece_on(sq).expect("an occupied square has a piece");
        simd.add_column(acc, net.column(features::index(color, piece, sq, view)));
    }
}

#[cfg(test)]
mod tests;
