//! A second, non-chess user of the table: a Connect Four solver for small boards.
//!
//! Negamax with alpha-beta over win/draw/loss scores (+1, 0, −1 for the side to move), with
//! an optional transposition table. Boards are bitboards (one column of `height + 1` bits
//! per column, the top bit a sentinel), so `width · (height + 1)` must be at most 64.
//!
//! Run: `cargo run --release -p engram-tt --example connect4 -- 5 4` (width, height).
//!
//! The 16 opaque move bits carry the best column (4 bits) and 12 key bits, and the unused
//! eval field 16 more, so a hit is trusted only if 44 key bits agree, not only the table's
//! 16-bit signature. A game with exact answers cannot afford the odd false hit.

use engram_tt::{Bound, Record, Table};

/// A position: stones of the side to move, all stones, and the move count.
#[derive(Clone, Copy, Debug)]
pub struct Board {
    width: u32,
    height: u32,
    current: u64,
    mask: u64,
    moves: u32,
}

impl Board {
    /// The empty board.
    pub fn new(width: u32, height: u32) -> Board {
        assert!(width * (height + 1) <= 64 && width <= 16 && height >= 1);
        Board {
            width,
            height,
            current: 0,
            mask: 0,
            moves: 0,
        }
    }

    fn bottom(&self, col: u32) -> u64 {
        1 << (col * (self.height + 1))
    }

    fn top(&self, col: u32) -> u64 {
        1 << (self.height - 1 + col * (self.height + 1))
    }

    fn column(&self, col: u32) -> u64 {
        ((1 << self.height) - 1) << (col * (self.height + 1))
    }

    /// Whether a stone can go into `col`.
    pub fn can_play(&self, col: u32) -> bool {
        self.mask & self.top(col) == 0
    }

    /// Drops a stone of the side to move into `col`.
    pub fn play(&mut self, col: u32) {
        self.current ^= self.mask;
        self.mask |= self.mask + self.bottom(col);
        self.moves += 1;
    }

    /// Whether four stones of `stones` are in a row (vertical, horizontal, both diagonals).
    fn four(&self, stones: u64) -> bool {
        let h = u64::from(self.height);
        [1, h + 1, h, h + 2].iter().any(|&shift| {
            let pairs = stones & (stones >> shift);
            pairs & (pairs >> (2 * shift)) != 0
        })
    }

    /// Whether playing `col` wins at once for the side to move.
    pub fn wins(&self, col: u32) -> bool {
        self.four(self.current | ((self.mask + self.bottom(col)) & self.column(col)))
    }

    /// A unique code of the position (Pascal Pons' `current + mask`), mixed into a
    /// well-spread 64-bit key (a bijection, so keys stay unique).
    pub fn key(&self) -> u64 {
        let mut x = self.current + self.mask;
        x ^= x >> 31;
        x = x.wrapping_mul(0x7FB5_D329_728E_A185);
        x ^= x >> 27;
        x = x.wrapping_mul(0x81DA_DEF4_BC2D_D44D);
        x ^ (x >> 33)
    }

    /// Whether the board is full.
    pub fn full(&self) -> bool {
        self.moves == self.width * self.height
    }
}

/// Negamax solver, with or without a table.
pub struct Solver<'t> {
    table: Option<&'t Table>,
    /// Nodes visited so far.
    pub nodes: u64,
    order: Vec<u32>,
}

impl<'t> Solver<'t> {
    /// A solver for boards `width` wide, using `table` if given.
    pub fn new(width: u32, table: Option<&'t Table>) -> Solver<'t> {
        let mut order: Vec<u32> = (0..width).collect();
        // Centre columns first.
        order.sort_by_key(|&c| (2 * c as i32 - (width as i32 - 1)).abs());
        Solver {
            table,
            nodes: 0,
            order,
        }
    }

    /// The game value for the side to move: +1 win, 0 draw, −1 loss.
    pub fn solve(&mut self, board: &Board) -> i32 {
        self.negamax(board, -1, 1)
    }

    fn negamax(&mut self, b: &Board, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if b.full() {
            return 0;
        }
        if (0..b.width).any(|c| b.can_play(c) && b.wins(c)) {
            return 1;
        }
        let key = b.key();
        let check_mv = ((key >> 16) & 0xFFF) as u16;
        let check_eval = (key >> 28) as u16 as i16;
        let mut first = None;
        if let Some(e) = self.table.and_then(|t| t.probe(key)) {
            if e.mv >> 4 == check_mv && e.eval == check_eval {
                let v = i32::from(e.score);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                    Bound::None => false,
                };
                if cut {
                    return v;
                }
                first = Some(u32::from(e.mv & 0xF));
            }
        }
        let (mut best, mut best_col, mut a) = (-2, 0, alpha);
        let order = first
            .into_iter()
            .chain(self.order.clone().into_iter().filter(|&c| Some(c) != first));
        for col in order {
            if !b.can_play(col) {
                continue;
            }
            let mut child = *b;
            child.play(col);
            let v = -self.negamax(&child, -beta, -a);
            if v > best {
                (best, best_col) = (v, col);
            }
            a = a.max(v);
            if a >= beta {
                break;
            }
        }
        if let Some(t) = self.table {
            let bound = if best <= alpha {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let depth = (b.width * b.height - b.moves) as i32;
            let mv = (check_mv << 4) | best_col as u16;
            t.store(
                key,
                Record {
                    mv,
                    score: best as i16,
                    eval: check_eval,
                    depth,
                    bound,
                    pv: false,
                    nodes: 0,
                },
            );
        }
        best
    }
}

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (width, height) = (
        args.first().copied().unwrap_or(5),
        args.get(1).copied().unwrap_or(4),
    );
    let table = Table::new(16).expect("16 MiB table");
    for (name, t) in [("with table", Some(&table)), ("without table", None)] {
        let start = std::time::Instant::now();
        let mut solver = Solver::new(width, t);
        let v = solver.solve(&Board::new(width, height));
        let verdict = ["second player wins", "draw", "first player wins"][(v + 1) as usize];
        println!(
            "{width}x{height} {name}: {verdict}, {} nodes, {:.2?}, hashfull {}",
            solver.nodes,
            start.elapsed(),
            if t.is_some() { table.hashfull() } else { 0 }
        );
    }
}
