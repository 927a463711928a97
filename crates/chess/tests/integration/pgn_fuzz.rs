//! The PGN reader on random and mutated text: it never panics and always ends, numbers its
//! items 1, 2, 3, ..., and every game it accepts is consistent (legal moves from its start,
//! one SAN and one set of notes per move) and survives a write and a second read unchanged.

use engram_chess::pgn::{self, Game, Notes};
use engram_chess::Board;
use proptest::prelude::*;

const SEED: &str = "\u{feff}[Event \"F/S Return Match\"]\r\n[Site \"Belgrade, Serbia JUG\"]\r\n\
[Date \"1992.11.04\"]\r\n[Round \"29\"]\r\n[White \"Fischer, Robert J.\"]\r\n\
[Black \"Spassky, Boris V.\"]\r\n[Result \"1/2-1/2\"]\r\n[Note \"a \\\"b\\\" \\\\\"]\r\n\r\n\
1. e4 e5 2. Nf3 Nc6 3. Bb5 {This opening is called the Ruy Lopez.} 3... a6\r\n\
4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7\r\n\
11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5\r\n\
Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 21. Nc4 Nxc4 22. Bxc4 Nb6\r\n\
23. Ne5 Rae8 24. Bxf7+ Rxf7 25. Nxf7 Rxe1+ 26. Qxe1 Kxf7 27. Qe3 Qg5 28. Qxg5\r\n\
hxg5 29. b3 Ke6 30. a3 Kd6 31. axb4 cxb4 32. Ra5 Nd5 33. f3 Bc8 34. Kf2 Bf5\r\n\
35. Ra7 g6 36. Ra6+ Kc5 37. Ke1 Nf4 38. g3 Nxh3 39. Kd2 Kb5 40. Rd6 Kc5 41. Ra6\r\n\
Nf2 42. g4 Bd3 43. Re6 1/2-1/2\r\n\r\n\
[Event \"var\"]\n[SetUp \"1\"]\n[FEN \"4k3/P7/8/8/8/8/8/4K2R w K - 0 1\"]\n\n\
1. a8=Q+ (1. O-O! Kd7 (1... Ke7 $14 2. a8=N) 2. Rd1+) 1... Kd7 $2 ; line\n\
% escape\n2. Qb7+ Ke6 3. Rh6+?! Kf5 4. Qf7+ Kg4 *\n\n\
[Variant \"Chess960\"]\n[FEN \"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1\"]\n\n\
1. O-O O-O-O 2. d4 { } 2... e5 3.dxe5 0-1\n\n\
1. d4 d5 2. c4 dxc4 3. e4 e5 *\n";

fn notes_ok(board: Board, moves: &[engram_chess::Move], sans: &[String], notes: &[Notes]) {
    assert_eq!(sans.len(), moves.len());
    assert_eq!(notes.len(), moves.len());
    let mut b = board;
    for (i, &mv) in moves.iter().enumerate() {
        assert!(b.is_legal(mv), "{b}: {mv:?}");
        assert_eq!(b.parse_san(&sans[i]), Ok(mv));
        for v in &notes[i].variations {
            notes_ok(b, &v.moves, &v.sans, &v.notes);
        }
        b.play(mv);
    }
}

fn check(text: &str) {
    let items = pgn::read_games(text);
    let mut games: Vec<Game> = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        match item {
            Ok(game) => {
                notes_ok(game.start, &game.moves, &game.sans, &game.notes);
                assert_eq!(game.positions().len(), game.moves.len() + 1);
                games.push(game);
            }
            Err(e) => {
                assert_eq!(e.game, i + 1, "{e}");
                assert!(
                    e.line >= 1 && e.line <= text.lines().count().max(1) + 1,
                    "{e}"
                );
                let _ = e.to_string();
            }
        }
    }
    // What was read writes out and reads back the same.
    let written = pgn::write_games(&games).expect("read games hold legal moves");
    let again = pgn::read_games(&written);
    assert_eq!(again.len(), games.len(), "{written}");
    for (g, r) in games.iter().zip(again) {
        let r = r.unwrap_or_else(|e| panic!("{e}\n{written}"));
        assert_eq!(
            (&r.moves, &r.start, &r.result),
            (&g.moves, &g.start, &g.result)
        );
    }
}

#[test]
fn the_seed_reads() {
    let games = pgn::read_games(SEED);
    assert_eq!(games.len(), 4);
    for g in &games {
        assert!(g.is_ok(), "{g:?}");
    }
    check(SEED);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(s in "\\PC{0,300}") {
        check(&s);
    }

    #[test]
    fn pgn_alphabet_never_panics(
        s in "([\\[\\](){}.;$!?*\"\\\\%\\- \n\r\t0-9a-hNBRQKOx=+#/]|e4|Nf3|1-0|\\[Event \"x\"\\]\n|\\{|\\}|\\(|\\)){0,200}"
    ) {
        check(&s);
    }

    #[test]
    fn mutated_pgn_never_panics(edits in proptest::collection::vec((any::<usize>(), 0u8..128, 0u8..4), 1..12)) {
        let mut bytes = SEED.as_bytes().to_vec();
        for (pos, byte, op) in edits {
            let i = pos % (bytes.len() + 1);
            match op {
                0 => bytes.insert(i, byte),
                1 if i < bytes.len() => { bytes.remove(i); }
                2 if i < bytes.len() => bytes[i] = byte,
                // Drop or repeat a whole stretch.
                _ if i < bytes.len() => {
                    let end = (i + usize::from(byte)).min(bytes.len());
                    if byte % 2 == 0 {
                        bytes.drain(i..end);
                    } else {
                        let stretch = bytes[i..end].to_vec();
                        bytes.splice(i..i, stretch);
                    }
                }
                _ => {}
            }
        }
        check(&String::from_utf8_lossy(&bytes));
    }
}
