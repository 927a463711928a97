//! The transposition table (work in progress).
