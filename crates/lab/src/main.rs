//! `engram-lab` (scaffold in progress).

fn main() {}
