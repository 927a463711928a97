//! Polyglot opening books: the `.bin` format that most chess GUIs and book tools write.
//!
//! A book is a file of 16-byte entries, big-endian, sorted by key: the position's Polyglot key
//! (8 bytes, the same number as [`Board::key`]), a move (2 bytes), a weight (2 bytes) and a
//! "learn" field (4 bytes, unused here). A position's moves are the run of entries with its
//! key, found by binary search. The move packs to-square (bits 0–5), from-square (6–11) and a
//! promotion piece (12–14: 1 knight, 2 bishop, 3 rook, 4 queen); squares count a1 = 0 to
//! h8 = 63, and castling is written as the king taking its own rook (e1h1), as [`Move`] does.
//!
//! [`Book`] holds the whole file in memory (checked when it is read: size, order) and answers
//! with legal moves only: an entry whose move is not legal in the position (a key collision,
//! or a broken book) is skipped.

use crate::{Board, GenType, Move, MoveList};
use core::fmt;
use std::path::Path;

/// Bytes in one book entry.
pub const ENTRY_BYTES: usize = 16;

/// One entry of a book, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The position's Polyglot key.
    pub key: u64,
    /// The move in Polyglot's encoding (see [`encode_move`]).
    pub raw_move: u16,
    /// How often the move should be played, relative to the position's other moves.
    pub weight: u16,
    /// The learning field (kept, not used).
    pub learn: u32,
}

/// A legal move the book offers, with its weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Its weight in the book.
    pub weight: u16,
}

/// Why a book could not be read.
#[derive(Debug)]
pub enum BookError {
    /// The file could not be read.
    Io(std::io::Error),
    /// The file holds no entries.
    Empty,
    /// The size is not a whole number of 16-byte entries.
    Size(usize),
    /// Entries out of key order (a Polyglot book is sorted): the first one out of place.
    Unsorted(usize),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io(e) => write!(f, "cannot read the book: {e}"),
            BookError::Empty => write!(f, "the book holds no entries"),
            BookError::Size(n) => write!(
                f,
                "not a Polyglot book: {n} bytes is not a whole number of {ENTRY_BYTES}-byte entries"
            ),
            BookError::Unsorted(i) => write!(
                f,
                "not a Polyglot book (or a damaged one): entry {i} is out of key order"
            ),
        }
    }
}

impl std::error::Error for BookError {}

/// A move in Polyglot's encoding: to-square, from-square, promotion piece (castling as the
/// king taking its rook, which is how [`Move`] stores it).
pub fn encode_move(mv: Move) -> u16 {
    let promotion = mv.promotion_kind().map_or(0, |k| k as u16);
    mv.to().index() as u16 | (mv.from().index() as u16) << 6 | promotion << 12
}

/// A Polyglot opening book, in memory.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: Vec<BookEntry>,
}

impl Book {
    /// Reads a book from its bytes: a whole number of entries, sorted by key.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.is_empty() {
            return Err(BookError::Empty);
        }
        if !bytes.len().is_multiple_of(ENTRY_BYTES) {
            return Err(BookError::Size(bytes.len()));
        }
        let entries: Vec<BookEntry> = bytes
            .chunks_exact(ENTRY_BYTES)
            .map(|e| BookEntry {
                key: u64::from_be_bytes(e[0..8].try_into().unwrap()),
                raw_move: u16::from_be_bytes([e[8], e[9]]),
                weight: u16::from_be_bytes([e[10], e[11]]),
                learn: u32::from_be_bytes(e[12..16].try_into().unwrap()),
            })
            .collect();
        if let Some(i) = entries.windows(2).position(|w| w[0].key > w[1].key) {
            return Err(BookError::Unsorted(i + 1));
        }
        Ok(Book { entries })
    }

    /// Reads the book file at `path`.
    pub fn load(path: &Path) -> Result<Book, BookError> {
        Book::from_bytes(&std::fs::read(path).map_err(BookError::Io)?)
    }

    /// A book of these entries (sorted here by key, the order of equal keys kept).
    pub fn from_entries(mut entries: Vec<BookEntry>) -> Book {
        entries.sort_by_key(|e| e.key);
        Book { entries }
    }

    /// The book as a Polyglot file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.entries.len() * ENTRY_BYTES);
        for e in &self.entries {
            out.extend_from_slice(&e.key.to_be_bytes());
            out.extend_from_slice(&e.raw_move.to_be_bytes());
            out.extend_from_slice(&e.weight.to_be_bytes());
            out.extend_from_slice(&e.learn.to_be_bytes());
        }
        out
    }

    /// Entries in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries stored under `key` (binary search).
    pub fn entries(&self, key: u64) -> &[BookEntry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let len = self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..start + len]
    }

    /// The legal moves the book offers in `board`, heaviest first (equal weights in book
    /// order); a move stored twice counts once, with its larger weight.
    pub fn moves(&self, board: &Board) -> Vec<BookMove> {
        let entries = self.entries(board.key());
        if entries.is_empty() {
            return Vec::new();
        }
        let mut legal = MoveList::new();
        board.generate(GenType::All, &mut legal);
        let mut out: Vec<BookMove> = Vec::new();
        for e in entries {
            let Some(&mv) = legal.iter().find(|&&m| encode_move(m) == e.raw_move) else {
                continue;
            };
            match out.iter_mut().find(|b| b.mv == mv) {
                Some(b) => b.weight = b.weight.max(e.weight),
                None => out.push(BookMove {
                    mv,
                    weight: e.weight,
                }),
            }
        }
        out.sort_by_key(|b| core::cmp::Reverse(b.weight));
        out
    }

    /// The move to play from the book in `board`: the heaviest (`best`) or one drawn with a
    /// probability proportional to its weight, `random` being a uniformly random number.
    /// Moves of weight 0 are never played; `None` when the book has nothing to play.
    pub fn pick(&self, board: &Board, best: bool, random: u64) -> Option<BookMove> {
        let moves: Vec<BookMove> = self
            .moves(board)
            .into_iter()
            .filter(|b| b.weight > 0)
            .collect();
        if best {
            return moves.first().copied();
        }
        let total: u64 = moves.iter().map(|b| u64::from(b.weight)).sum();
        if total == 0 {
            return None;
        }
        let mut ticket = random % total;
        for b in &moves {
            if ticket < u64::from(b.weight) {
                return Some(*b);
            }
            ticket -= u64::from(b.weight);
        }
        unreachable!("the tickets add up to the total weight")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square;

    fn play(board: &Board, uci: &str) -> Board {
        let mv = board.parse_uci(uci).unwrap();
        let mut next = *board;
        next.play(mv);
        next
    }

    fn entry(board: &Board, uci: &str, weight: u16) -> BookEntry {
        BookEntry {
            key: board.key(),
            raw_move: encode_move(board.parse_uci(uci).unwrap()),
            weight,
            learn: 0,
        }
    }

    #[test]
    fn encoding_follows_the_polyglot_layout() {
        let start = Board::startpos();
        // e2e4: from e2 = 12, to e4 = 28.
        assert_eq!(encode_move(start.parse_uci("e2e4").unwrap()), 28 | 12 << 6);
        // White O-O is stored as e1h1 (4 → 7); a queen promotion has piece 4.
        let castle = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false).unwrap();
        assert_eq!(encode_move(castle.parse_uci("e1g1").unwrap()), 7 | 4 << 6);
        assert_eq!(encode_move(castle.parse_uci("e1c1").unwrap()), 4 << 6);
        let promo = Board::from_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1", false).unwrap();
        let a8 = Square::from_index(56).index() as u16;
        assert_eq!(
            encode_move(promo.parse_uci("a7a8q").unwrap()),
            a8 | 48 << 6 | 4 << 12
        );
        assert_eq!(
            encode_move(promo.parse_uci("a7a8n").unwrap()),
            a8 | 48 << 6 | 1 << 12
        );
    }

    #[test]
    fn a_written_book_reads_back_and_answers_by_weight() {
        let start = Board::startpos();
        let after_e4 = play(&start, "e2e4");
        let book = Book::from_entries(vec![
            entry(&after_e4, "c7c5", 30),
            entry(&start, "d2d4", 10),
            entry(&start, "e2e4", 40),
            entry(&start, "g1f3", 0),
            entry(&after_e4, "e7e5", 20),
        ]);
        let read = Book::from_bytes(&book.to_bytes()).unwrap();
        assert_eq!(read.len(), 5);
        let moves = read.moves(&start);
        let ucis: Vec<String> = moves.iter().map(|b| start.to_uci(b.mv)).collect();
        assert_eq!(ucis, ["e2e4", "d2d4", "g1f3"]);
        assert_eq!(start.to_uci(read.pick(&start, true, 0).unwrap().mv), "e2e4");
        // Weighted: tickets 0..40 are e2e4, 40..50 d2d4; weight 0 is never drawn.
        let drawn = |r| start.to_uci(read.pick(&start, false, r).unwrap().mv);
        assert_eq!(drawn(0), "e2e4");
        assert_eq!(drawn(39), "e2e4");
        assert_eq!(drawn(40), "d2d4");
        assert_eq!(drawn(49), "d2d4");
        assert_eq!(drawn(50), "e2e4");
        let black = read.moves(&after_e4);
        assert_eq!(black.len(), 2);
        assert!(read.moves(&play(&start, "a2a3")).is_empty());
        assert!(read.pick(&play(&start, "a2a3"), false, 7).is_none());
    }

    #[test]
    fn castling_comes_back_as_the_engines_move() {
        let board = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false).unwrap();
        let book = Book::from_entries(vec![entry(&board, "e1g1", 1)]);
        let got = book.pick(&board, true, 0).unwrap().mv;
        assert!(got.is_castling());
        assert_eq!(board.to_uci(got), "e1g1");
    }

    #[test]
    fn illegal_and_repeated_entries_are_handled() {
        let start = Board::startpos();
        let mut bogus = entry(&start, "e2e4", 5);
        bogus.raw_move = 28 | 4 << 6; // e1e4: not a legal move
        let book = Book::from_entries(vec![
            bogus,
            entry(&start, "e2e4", 3),
            entry(&start, "e2e4", 9),
        ]);
        let moves = book.moves(&start);
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].weight, 9);
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        let start = Board::startpos();
        let book = Book::from_entries(vec![
            entry(&start, "e2e4", 1),
            entry(&play(&start, "e2e4"), "e7e5", 1),
        ]);
        let bytes = book.to_bytes();
        assert!(matches!(Book::from_bytes(&[]), Err(BookError::Empty)));
        assert!(matches!(
            Book::from_bytes(&bytes[..bytes.len() - 1]),
            Err(BookError::Size(31))
        ));
        let mut swapped = bytes[16..].to_vec();
        swapped.extend_from_slice(&bytes[..16]);
        assert!(matches!(
            Book::from_bytes(&swapped),
            Err(BookError::Unsorted(1))
        ));
        let missing = Book::load(Path::new("/nonexistent/book.bin")).unwrap_err();
        assert!(
            missing.to_string().contains("cannot read the book"),
            "{missing}"
        );
    }
}
