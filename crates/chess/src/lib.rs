//! Engram chess core (work in progress).
