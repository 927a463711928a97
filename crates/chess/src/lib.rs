//! Engram's chess core: bitboards, magic-bitboard attacks, legal move generation (standard chess
//! and Chess960), Polyglot-compatible Zobrist keys, FEN, UCI and SAN move text, PGN
//! reading and writing, and perft.
//!
//! ```
//! use engram_chess::{perft, Board, Position};
//!
//! let mut pos = Position::new(Board::startpos());
//! assert_eq!(pos.board().key(), 0x463b96181691fc9c); // the Polyglot key of the start position
//! let e4 = pos.board().parse_uci("e2e4").unwrap();
//! pos.make(e4);
//! assert_eq!(pos.board().key(), 0x823c9b50fd114196);
//! assert_eq!(perft(pos.board(), 2), 600);
//! pos.unmake();
//! assert_eq!(*pos.board(), Board::startpos());
//! ```
#![deny(missing_docs)]

pub mod attacks;
pub mod bitboard;
pub mod board;
pub mod book;
pub mod castling;
pub mod chess_move;
pub mod cuckoo;
pub mod fen;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod pgn;
mod polyglot;
pub mod position;
pub mod san;
pub mod setup;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::{Board, Keys};
pub use book::{Book, BookError, BookMove};
pub use castling::{CastleSide, CastlingRights};
pub use chess_move::{Move, MoveKind};
pub use fen::{FenError, STARTPOS};
pub use movegen::{GenType, MoveList, PieceMoves};
pub use notation::MoveError;
pub use perft::{divide, divide_with, perft, perft_with_table, PerftTable};
pub use position::Position;
pub use san::SanError;
pub use setup::{Setup, SetupError};
pub use types::{Color, File, Piece, PieceKind, Rank, Square};
