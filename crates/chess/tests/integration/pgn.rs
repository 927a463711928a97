//! PGN reading and writing: the project's opening files, import-format variety, one broken game
//! of every kind between good ones (the error names the game, the move and the text, and the
//! games around it are read), nested variations, FEN and Chess960 starts, and the writer's
//! output read back to the same game.

use crate::common;

use common::Rng;
use engram_chess::pgn::{self, Game, Nag, PgnError, PgnErrorKind, Variation};
use engram_chess::{Board, Color, Move, SanError};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn read_ok(text: &str) -> Vec<Game> {
    pgn::read_games(text)
        .into_iter()
        .map(|g| g.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn one(text: &str) -> Game {
    let mut games = read_ok(text);
    assert_eq!(games.len(), 1, "{text}");
    games.remove(0)
}

#[test]
fn reads_the_opening_files() {
    for (pgn_file, epd_file, count) in [
        ("openings.pgn", "openings.epd", 93),
        ("openings-book.pgn", "openings-book.epd", 1042),
    ] {
        let games = read_ok(&data(pgn_file));
        let epd = data(epd_file);
        let ends: Vec<&str> = epd.lines().collect();
        assert_eq!(games.len(), count, "{pgn_file}");
        assert_eq!(ends.len(), count, "{epd_file}");
        for (i, (game, end)) in games.iter().zip(&ends).enumerate() {
            assert_eq!(game.tag("Event"), Some("arena opening"));
            assert_eq!(game.tag("Round"), Some((i + 1).to_string().as_str()));
            assert_eq!(game.result, "*");
            assert_eq!(game.start, Board::startpos());
            assert!(game.moves.len() >= 8, "{pgn_file} game {}", i + 1);
            assert_eq!(game.end().to_fen(), *end, "{pgn_file} game {}", i + 1);
        }
    }
}

/// Three games around a slot for a broken one.
fn around(broken: &str) -> String {
    format!(
        "[Event \"first\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
         1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
         {broken}\n\n\
         [Event \"third\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"
    )
}

/// The broken game's error, after checking the games around it were read.
fn broken(text: &str) -> PgnError {
    let all = around(text);
    let games = pgn::read_games(&all);
    assert_eq!(games.len(), 3, "{all}\n{games:#?}");
    let first = games[0].as_ref().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((first.moves.len(), first.result.as_str()), (7, "1-0"));
    let third = games[2].as_ref().unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(third.tag("Event"), Some("third"));
    assert_eq!(
        (third.sans.join(" "), third.result.as_str()),
        ("f3 e5 g4 Qh4#".into(), "0-1")
    );
    let err = games[1].clone().expect_err(text);
    assert_eq!(err.game, 2, "{err}");
    err
}

#[test]
fn a_broken_game_names_game_move_and_text_and_reading_goes_on() {
    let game = "[Event \"second\"]\n[White \"Tal\"]\n[Black \"Spassky\"]\n[Result \"*\"]\n\n\
                1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6\n\
                8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12. cxb5 Nf6 13. bxa6 *";
    let err = broken(game);
    assert_eq!(err.line, 14);
    assert_eq!(err.tag("White"), Some("Tal"));
    assert_eq!(err.tags.len(), 4);
    assert_eq!(err.move_label().as_deref(), Some("12... Nf6"));
    assert_eq!(
        err.kind,
        PgnErrorKind::Move {
            number: 12,
            side: Color::Black,
            text: "Nf6".into(),
            error: SanError::Illegal("Nf6".into()),
            in_variation: false,
        }
    );
    assert_eq!(
        err.to_string(),
        "game 2 (Tal - Spassky), line 14: 12... Nf6: illegal move 'Nf6'"
    );
}

#[test]
fn every_kind_of_broken_game() {
    let tags = "[Event \"second\"]\n[White \"W\"]\n[Black \"B\"]\n\n";
    let cases: &[(&str, &str)] = &[
        ("1. e4 e5 2. Ke3 *", "line 12: 2. Ke3: illegal move 'Ke3'"),
        ("1. e4 Nf9 *", "line 12: 1... Nf9: malformed move 'Nf9'"),
        (
            "1. e4 e5 2. -- Nf6 *",
            "line 12: 2. --: null move '--' cannot be played",
        ),
        (
            "1. d4 d5 2. Nf3 Nf6 3. Nd2 *",
            "line 12: 3. Nd2: ambiguous move 'Nd2' (Nbd2, Nfd2)",
        ),
        (
            "1. e4 (1. d4 d5 (1... Qxd4)) e5 *",
            "line 12: 1... Qxd4 (in a variation): illegal move 'Qxd4'",
        ),
        (
            "1. e4 { never closed\n2. Nf3 *",
            "line 12: comment '{' without its '}'",
        ),
        ("1. e4 e5 ) *", "line 12: unexpected ')'"),
        ("( 1. e4 ) *", "line 12: variation '(' before any move"),
        ("1. e4 ( 1. d4 *", "line 12: variation '(' without its ')'"),
        ("1. e4 ( 1. d4", "line 12: variation '(' without its ')'"),
        ("1. e4 $300 *", "line 12: bad NAG '$300'"),
        ("1. e4 € e5 *", "line 12: unexpected '€'"),
        ("1. e4 \"text\" *", "line 12: unexpected '\"text\"'"),
    ];
    for (movetext, expected) in cases {
        let err = broken(&format!("{tags}{movetext}"));
        assert_eq!(
            err.to_string(),
            format!("game 2 (W - B), {expected}"),
            "{movetext}"
        );
        assert_eq!(err.tags.len(), 3);
    }
    let tag_cases: &[(&str, &str)] = &[
        (
            "[Event \"second]\n[White \"W\"]\n\n1. e4 *",
            "game 2, line 8: tag value without its closing quote",
        ),
        (
            "[Event second]\n[White \"W\"]\n\n1. e4 *",
            "game 2, line 8: malformed tag pair: expected a quoted tag value, found 'second'",
        ),
        (
            "[Event \"x\" extra]\n\n1. e4 *",
            "game 2, line 8: malformed tag pair: expected ']', found 'extra'",
        ),
        (
            "[\"x\"]\n\n1. e4 *",
            "game 2, line 8: malformed tag pair: expected a tag name, found \"x\"",
        ),
        (
            "[Event \"second\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *",
            "game 2, line 10: bad FEN tag \"8/8/8/8/8/8/8/8 w - - 0 1\": illegal position: \
             White has 0 kings",
        ),
        (
            "[SetUp \"1\"]\n\n1. e4 *",
            "game 2, line 8: SetUp \"1\" without a FEN tag",
        ),
        (
            "[Variant \"Atomic\"]\n\n1. e4 *",
            "game 2, line 8: unsupported variant \"Atomic\"",
        ),
    ];
    for (text, expected) in tag_cases {
        assert_eq!(broken(text).to_string(), *expected, "{text}");
    }
}

#[test]
fn an_unterminated_comment_loses_only_its_game() {
    // No blank line, no result: the comment runs into the next game's tags, which end it.
    let text = "[Event \"one\"]\n\n1. e4 { lost\n[Event \"two\"]\n\n1. d4 *\n";
    let games = pgn::read_games(text);
    assert_eq!(games.len(), 2);
    let err = games[0].as_ref().unwrap_err();
    assert_eq!((err.game, err.line), (1, 3));
    assert_eq!(err.kind, PgnErrorKind::UnterminatedComment);
    assert_eq!(games[1].as_ref().unwrap().sans, ["d4"]);
    // In a tag pair.
    let text = "[Event { lost\n\n[Event \"two\"]\n[Site \"s\"]\n\n1. d4 *\n";
    let games = pgn::read_games(text);
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0].as_ref().unwrap_err().kind,
        PgnErrorKind::UnterminatedComment
    );
    let two = games[1].as_ref().unwrap();
    assert_eq!((two.tags.len(), two.sans.len()), (2, 1));
    // At the end of the text.
    let games = pgn::read_games("1. e4 *\n\n1. d4 { lost\n\n");
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[1].as_ref().unwrap_err().kind,
        PgnErrorKind::UnterminatedComment
    );
}

#[test]
fn import_format_as_found_in_the_wild() {
    let text = "\u{feff}% a program's escape line\r\n\
                [Event \"a \\\"quoted\\\" \\\\ name\"]\r\n\
                [Site\t\"x\" ]\r\n\r\n\
                1.e4   e5!? 2.Nf3 $1 Nc6 ; to the end of the line\r\n\
                3 . Bb5 {Ruy\r\n  Lopez} 3...a6 4.Ba4 Nf6?! 5.O-O!! Be7?? 6.Re1+! b5 *\r\n";
    let g = one(text);
    assert_eq!(
        g.tags,
        [
            ("Event".to_string(), "a \"quoted\" \\ name".to_string()),
            ("Site".to_string(), "x".to_string())
        ]
    );
    assert_eq!(
        g.sans,
        [
            "e4", "e5!?", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6?!", "O-O!!", "Be7??", "Re1+!",
            "b5"
        ]
    );
    let nags: Vec<Vec<Nag>> = g.notes.iter().map(|n| n.nags.clone()).collect();
    assert_eq!(nags[1], [Nag::SPECULATIVE]);
    assert_eq!(nags[2], [Nag::GOOD]);
    assert_eq!(nags[7], [Nag::DUBIOUS]);
    assert_eq!(nags[8], [Nag::BRILLIANT]);
    assert_eq!(nags[9], [Nag::BLUNDER]);
    assert_eq!(nags[10], [Nag::GOOD]);
    assert_eq!(g.notes[3].comments, ["to the end of the line"]);
    assert_eq!(g.notes[4].comments, ["Ruy Lopez"]);
    assert_eq!(g.result, "*");

    // No tags, no result, numbers without periods, the result from the tag when missing.
    let games = read_ok("1 e4 e5 2 Nf3\n\n[Result \"1/2-1/2\"]\n\n1. d4 d5");
    assert_eq!(games.len(), 2);
    assert_eq!((games[0].sans.len(), games[0].result.as_str()), (3, "*"));
    assert_eq!(
        (games[1].sans.len(), games[1].result.as_str()),
        (2, "1/2-1/2")
    );
    // Games with only a result, and comments alone (no game at all).
    let games = read_ok("{ a collection } *\n\n1-0\n\n{ trailing words }\n");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].comments, ["a collection"]);
    assert!(games[1].moves.is_empty());
    assert!(pgn::read_games("").is_empty());
    assert!(pgn::read_games(" \n\r\n% only an escape\n{ and a comment }").is_empty());
}

#[test]
fn nested_variations() {
    let g = one(
        "1. e4 (1. d4 d5 (1... Nf6 2. c4 (2. Nf3 g6) 2... e6) 2. c4) (1. c4) 1... e5 \
         (1... c5 {Sicilian} 2. Nf3 $1) 2. Nf3 { main } *",
    );
    assert_eq!(g.sans, ["e4", "e5", "Nf3"]);
    let v = &g.notes[0].variations;
    assert_eq!(v.len(), 2);
    assert_eq!(v[0].sans, ["d4", "d5", "c4"]);
    assert_eq!(v[1].sans, ["c4"]);
    let inner = &v[0].notes[1].variations[0];
    assert_eq!(inner.sans, ["Nf6", "c4", "e6"]);
    assert_eq!(inner.notes[1].variations[0].sans, ["Nf3", "g6"]);
    let black = &g.notes[1].variations[0];
    assert_eq!(black.sans, ["c5", "Nf3"]);
    assert_eq!(black.notes[0].comments, ["Sicilian"]);
    assert_eq!(black.notes[1].nags, [Nag::GOOD]);
    assert_eq!(g.notes[2].comments, ["main"]);
    // The variation's moves are real moves from the position before the move they replace.
    let mut b = Board::startpos();
    b.play(b.parse_san("d4").unwrap());
    b.play(b.parse_san("Nf6").unwrap());
    b.play(b.parse_san("Nf3").unwrap());
    assert_eq!(b.to_uci(inner.notes[1].variations[0].moves[1]), "g7g6");

    let deep = format!(
        "1. e4 {}*",
        "(1. d4 ".repeat(pgn::MAX_NESTING) + &")".repeat(pgn::MAX_NESTING)
    );
    assert_eq!(one(&deep).notes[0].variations.len(), 1);
    let too_deep = format!("1. e4 {}*", "(1. d4 ".repeat(pgn::MAX_NESTING + 1));
    let err = pgn::read_games(&too_deep).remove(0).unwrap_err();
    assert_eq!(err.kind, PgnErrorKind::TooDeep);
}

#[test]
fn fen_and_chess960_starts() {
    let g = one(
        "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K2R b K - 0 40\"]\n\n40... Kd7 41. O-O Ke6 *",
    );
    assert_eq!(g.start.fullmove_number(), 40);
    assert_eq!(g.move_label(0).as_deref(), Some("40... Kd7"));
    assert_eq!(g.move_label(1).as_deref(), Some("41. O-O"));
    assert_eq!(g.end().to_fen(), "8/8/4k3/8/8/8/4P3/5RK1 w - - 3 42");

    // Chess960: the king on b1, castling short means the king to g1 and the rook to f1.
    let fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1";
    let g = one(&format!(
        "[Variant \"Chess960\"]\n[FEN \"{fen}\"]\n\n1. O-O O-O-O *"
    ));
    assert!(g.start.is_chess960());
    assert_eq!(
        g.end().to_fen(),
        "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - - 2 2"
    );
    assert_eq!(g.start.to_uci(g.moves[0]), "b1h1");
    // The same without the variant tag: not a standard position.
    let err = pgn::read_games(&format!("[FEN \"{fen}\"]\n\n1. O-O *"))
        .remove(0)
        .unwrap_err();
    assert!(matches!(err.kind, PgnErrorKind::Fen { .. }), "{err}");
    // Chess960 from the standard array, no FEN.
    let g = one("[Variant \"chess960\"]\n\n1. e4 *");
    assert!(g.start.is_chess960());
}

// ---- Writer -------------------------------------------------------------------------------

#[test]
fn writes_export_format() {
    let mut g = one(
        "[Black \"B\"]\n[Annotator \"me\"]\n[White \"W \\\"the\\\" \\\\ one\"]\n\n\
         1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 4. O-O Nxe4 *",
    );
    g.comments.push("start".into());
    g.notes[2].nags.push(Nag::DUBIOUS);
    g.notes[4].comments.push("a } brace".into());
    let b = g.positions()[5];
    g.add_variation(
        5,
        &[
            b.parse_san("a6").unwrap(),
            Board::startpos().parse_san("e4").unwrap(),
        ],
    )
    .unwrap_err();
    let line = [b.parse_san("a6").unwrap()];
    let v = g.add_variation(5, &line).unwrap();
    v.notes[0].nags.push(Nag::MISTAKE);
    g.result = "1/2-1/2".into();
    let out = g.to_pgn().unwrap();
    assert_eq!(
        out,
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
         [White \"W \\\"the\\\" \\\\ one\"]\n[Black \"B\"]\n[Result \"1/2-1/2\"]\n\
         [Annotator \"me\"]\n\n\
         { start } 1. e4 e5 2. Nf3 $6 Nc6 3. Bb5 { a ) brace } 3... Nf6 ( 3... a6 $2 )\n\
         4. O-O Nxe4 1/2-1/2\n\n"
    );
    let back = one(&out);
    assert_eq!(back.moves, g.moves);
    assert_eq!(back.notes[5].variations[0].sans, ["a6"]);

    // From a FEN, Black to move first; Chess960 gets its Variant tag.
    let start = Board::from_fen("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R b HAha - 0 7", true).unwrap();
    let mut g = Game::new(start);
    g.push(start.parse_san("O-O").unwrap()).unwrap();
    let out = g.to_pgn().unwrap();
    assert!(
        out.contains(
            "[Result \"*\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n\
         [FEN \"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R b HAha - 0 7\"]\n\n7... O-O *\n\n"
        ),
        "{out}"
    );
    let back = one(&out);
    assert_eq!((back.start, back.moves.clone()), (g.start, g.moves.clone()));

    // A move that is not legal is refused, when pushed and when written.
    let mut g = Game::new(Board::startpos());
    let e5 = Move::normal(engram_chess::Square::E1, engram_chess::Square::E8);
    assert!(g.push(e5).is_err());
    g.moves.push(e5);
    assert_eq!(g.to_pgn().unwrap_err().to_string(), "illegal move 1. e1e8");
}

/// A random comment: words of every kind the writer must keep safe.
fn random_comment(rng: &mut Rng) -> String {
    let words = [
        "good", "}", "{", "a}b", "%escape", "[Event", "\"x\"]", ";", "(", ")", "$1", "1-0", "*",
        "e4", "ü", "\\", "…",
    ];
    let mut s = String::new();
    for _ in 0..1 + rng.below(12) {
        if rng.below(20) == 0 {
            s.push_str(&"long".repeat(1 + rng.below(40)));
        } else {
            s.push_str(words[rng.below(words.len())]);
        }
        s.push_str([" ", "  ", "\n", "\t"][rng.below(4)]);
    }
    s
}

/// A random legal line of up to `max` moves from `board`.
fn random_line(rng: &mut Rng, mut board: Board, max: usize) -> Vec<Move> {
    let mut moves = Vec::new();
    for _ in 0..rng.below(max + 1) {
        let legal = board.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len())];
        board.play(mv);
        moves.push(mv);
    }
    moves
}

/// Random NAGs, comments and variations on every move of `moves` from `board`.
fn annotate(
    rng: &mut Rng,
    board: Board,
    moves: &[Move],
    depth: usize,
) -> (Vec<String>, Vec<engram_chess::pgn::Notes>) {
    let comments = (0..usize::from(rng.below(8) == 0))
        .map(|_| random_comment(rng))
        .collect();
    let mut notes = Vec::new();
    let mut b = board;
    for &mv in moves {
        let mut n = engram_chess::pgn::Notes::default();
        for _ in 0..usize::from(rng.below(5) == 0) + usize::from(rng.below(20) == 0) {
            n.nags.push(Nag(rng.below(256) as u8));
        }
        if rng.below(6) == 0 {
            n.comments.push(random_comment(rng));
        }
        if depth < 3 && rng.below(8) == 0 {
            for _ in 0..1 + rng.below(2) {
                let line = random_line(rng, b, 6);
                let mut v = Variation::new(&b, &line).unwrap();
                (v.comments, v.notes) = annotate(rng, b, &line, depth + 1);
                n.variations.push(v);
            }
        }
        notes.push(n);
        b.play(mv);
    }
    (comments, notes)
}

/// What the reader gives back for a comment: whitespace collapsed, `}` made `)`, long words cut.
fn as_written(comment: &str) -> String {
    let mut words = Vec::new();
    for w in comment.split_whitespace() {
        let w: Vec<char> = w.replace('}', ")").chars().collect();
        words.extend(
            w.chunks(pgn::LINE_WIDTH - 2)
                .map(|c| c.iter().collect::<String>()),
        );
    }
    words.join(" ")
}

fn same_notes(
    board: Board,
    moves: &[Move],
    written: &[engram_chess::pgn::Notes],
    read: &[engram_chess::pgn::Notes],
    sans: &[String],
) {
    assert_eq!(read.len(), moves.len());
    let mut b = board;
    for (i, &mv) in moves.iter().enumerate() {
        assert_eq!(sans[i], b.to_san(mv));
        let (w, r) = (&written[i], &read[i]);
        assert_eq!(r.nags, w.nags);
        let comments: Vec<String> = w
            .comments
            .iter()
            .map(|c| as_written(c))
            .filter(|c| !c.is_empty())
            .collect();
        assert_eq!(r.comments, comments);
        let variations: Vec<&Variation> = w
            .variations
            .iter()
            .filter(|v| !v.moves.is_empty() || !v.comments.is_empty())
            .collect();
        assert_eq!(r.variations.len(), variations.len());
        for (wv, rv) in variations.iter().zip(&r.variations) {
            assert_eq!(rv.moves, wv.moves);
            let comments: Vec<String> = wv
                .comments
                .iter()
                .map(|c| as_written(c))
                .filter(|c| !c.is_empty())
                .collect();
            assert_eq!(rv.comments, comments);
            same_notes(b, &wv.moves, &wv.notes, &rv.notes, &rv.sans);
        }
        b.play(mv);
    }
}

#[test]
fn written_games_read_back_the_same() {
    let mut rng = Rng(0x05ee_d0f9_a3e5);
    let mut starts: Vec<Board> = vec![Board::startpos()];
    starts.extend(common::random_positions(200, 77));
    let results = ["1-0", "0-1", "1/2-1/2", "*"];
    let mut games = Vec::new();
    for i in 0..300 {
        let start = starts[rng.below(starts.len())];
        let mut g = Game::new(start);
        for _ in 0..rng.below(4) {
            let name = ["Event", "White", "Site", "Annotator", "Opening", "PlyCount"][rng.below(6)];
            let value = ["x", "\"q\"", "a\\b", "", "Ünïcode", "two words", "[]{}"][rng.below(7)];
            g.set_tag(name, value);
        }
        let moves = random_line(&mut rng, start, 150);
        for &mv in &moves {
            g.push(mv).unwrap();
        }
        (g.comments, g.notes) = annotate(&mut rng, start, &moves, 0);
        g.result = results[i % 4].into();
        games.push(g);
    }
    let text = pgn::write_games(&games).unwrap();
    for line in text.lines().filter(|l| !l.starts_with('[')) {
        assert!(line.chars().count() <= pgn::LINE_WIDTH, "{line}");
        assert!(!line.starts_with('%'), "{line}");
    }
    let read = pgn::read_games(&text);
    assert_eq!(read.len(), games.len());
    for (g, r) in games.iter().zip(read) {
        let r = r.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.tags, g.export_tags());
        assert_eq!(r.start, g.start);
        assert_eq!(r.moves, g.moves);
        assert_eq!(r.result, g.result);
        let comments: Vec<String> = g
            .comments
            .iter()
            .map(|c| as_written(c))
            .filter(|c| !c.is_empty())
            .collect();
        assert_eq!(r.comments, comments);
        same_notes(g.start, &g.moves, &g.notes, &r.notes, &r.sans);
        // Writing what was read gives the same text.
        assert_eq!(r.to_pgn().unwrap(), g.to_pgn().unwrap());
    }
}
