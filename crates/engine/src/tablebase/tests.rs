//! The probes against the shared 3–4-piece tables (`../shared/syzygy`; skipped with a
//! message when the folder is absent): known values, and every probe consistent with its
//! children's over random positions (a position is won if a move leads to a lost one, and so
//! on), which checks the prober, the adapter and the tables together.

use super::*;
use engram_chess::MoveList;

fn shared_tables() -> Option<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/syzygy");
    if std::path::Path::new(path).join("KQvK.rtbw").exists() {
        Some(path.to_string())
    } else {
        eprintln!("skipped: the Syzygy test tables are not at {path}");
        None
    }
}

fn board(fen: &str) -> Board {
    Board::from_fen(fen, false).unwrap()
}

/// Win 1, draw 0, loss −1: the value without the fifty-move rule.
fn value(w: Wdl) -> i32 {
    match w {
        Wdl::Loss | Wdl::BlessedLoss => -1,
        Wdl::Draw => 0,
        Wdl::CursedWin | Wdl::Win => 1,
    }
}

/// The value of `b` for the side to move, from the tables or the rules.
fn value_of(b: &Board) -> i32 {
    let mut moves = MoveList::new();
    b.generate(engram_chess::GenType::All, &mut moves);
    if moves.is_empty() {
        return if b.in_check() { -1 } else { 0 };
    }
    if b.occupied().len() == 2 {
        return 0;
    }
    value(probe_wdl(b).expect("a position with few pieces is in the tables"))
}

#[test]
fn known_positions_and_a_bad_path() {
    let _lock = TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let Some(path) = shared_tables() else { return };
    let said = set_path(&path).unwrap();
    assert!(said.contains("up to 4 pieces"), "{said}");
    assert_eq!(max_pieces(), 4);
    for (fen, wdl) in [
        ("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", Wdl::Win),
        ("8/8/8/8/8/8/8/KQ5k b - - 0 1", Wdl::Loss),
        ("8/8/8/8/8/2k5/8/KR6 w - - 0 1", Wdl::Win),
        ("8/2k5/8/8/8/8/8/KN1B4 w - - 0 1", Wdl::Win),
        ("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", Wdl::Draw),
    ] {
        assert_eq!(probe_wdl(&board(fen)), Some(wdl), "{fen}");
    }
    // Not probed: too many pieces, or castling rights.
    assert_eq!(probe_wdl(&Board::startpos()), None);
    assert_eq!(probe_wdl(&board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")), None);
    // A folder that is not there, or one without tables: an error, and the tables stay.
    let e = set_path("/nonexistent/syzygy").unwrap_err();
    assert!(
        e.contains("not a folder") && e.contains("up to 4 pieces"),
        "{e}"
    );
    let empty = std::env::temp_dir().join(format!("engram-tb-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let e = set_path(empty.to_str().unwrap()).unwrap_err();
    assert!(e.contains("no Syzygy tables"), "{e}");
    assert_eq!(max_pieces(), 4, "{e}");
    assert_eq!(
        probe_wdl(&board("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1")),
        Some(Wdl::Win)
    );
    // Unloaded: nothing is probed.
    set_path("").unwrap();
    assert_eq!(max_pieces(), 0);
    assert_eq!(probe_wdl(&board("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1")), None);
}

#[test]
fn probes_agree_with_their_children_on_random_positions() {
    let _lock = TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let Some(path) = shared_tables() else { return };
    set_path(&path).unwrap();
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let (mut checked, mut outcomes) = (0, [0; 3]);
    while checked < 300 {
        // Two kings and one or two other pieces on random squares, either side to move.
        let mut squares = [' '; 64];
        squares[next(64) as usize] = 'K';
        let k = next(64) as usize;
        if squares[k] != ' ' {
            continue;
        }
        squares[k] = 'k';
        let extra = 1 + next(2);
        for _ in 0..extra {
            let s = next(64) as usize;
            let piece = b"QRBNPqrbnp"[next(10) as usize] as char;
            if squares[s] != ' ' || (piece.eq_ignore_ascii_case(&'p') && !(8..56).contains(&s)) {
                continue;
            }
            squares[s] = piece;
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match squares[rank * 8 + file] {
                    ' ' => empty += 1,
                    p => {
                        if empty > 0 {
                            fen += &empty.to_string();
                            empty = 0;
                        }
                        fen.push(p);
                    }
                }
            }
            if empty > 0 {
                fen += &empty.to_string();
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen += if next(2) == 0 {
            " w - - 0 1"
        } else {
            " b - - 0 1"
        };
        let Ok(b) = Board::from_fen(&fen, false) else {
            continue;
        };
        let mut moves = MoveList::new();
        b.generate(engram_chess::GenType::All, &mut moves);
        if moves.is_empty() || b.occupied().len() < 3 {
            continue;
        }
        let probed = value(probe_wdl(&b).expect("in the tables"));
        let best = moves
            .iter()
            .map(|&m| {
                let mut child = b;
                child.play(m);
                -value_of(&child)
            })
            .max()
            .unwrap();
        assert_eq!(probed, best, "{fen}");
        outcomes[(probed + 1) as usize] += 1;
        checked += 1;
    }
    // The sample holds wins, draws and losses alike.
    assert!(outcomes.iter().all(|&n| n >= 20), "{outcomes:?}");
}
