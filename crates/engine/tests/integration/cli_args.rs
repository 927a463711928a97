//! The `engram` command line's argument handling (clap), run as a real process: bad
//! arguments exit non-zero with clap's message, `--help` and `--version` exit 0.

use std::process::{Command, Output};

fn engram(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_engram"))
        .args(args)
        .output()
        .expect("engram runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn bad_arguments_exit_non_zero_with_clap_message() {
    for args in [
        // unknown subcommand
        &["frobnicate"][..],
        &["Perft", "3"],
        // bad depth
        &["perft"],
        &["perft", "x"],
        &["perft", "-1"],
        &["bench", "deep"],
        &["perft", "3", "4"],
        // depth out of range
        &["perft", "21"],
        &["bench", "0"],
        &["bench", "65"],
        &["bench", "--threads", "0"],
        &["bench", "--threads", "1025"],
        &["bench", "--hash", "0"],
        &["bench", "--hash", "1048577"],
        &["bench", "--threads", "two"],
        // unknown flag
        &["perft", "3", "--frob"],
        &["bench", "--frob"],
        &["--frob"],
        // missing flag value
        &["perft", "3", "--fen"],
        &["bench", "--threads"],
        &["bench", "--hash"],
    ] {
        let out = engram(args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn errors_running_a_command_exit_non_zero() {
    let out = engram(&["perft", "1", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("error: "), "{err}");
}

#[test]
fn help_and_version_exit_zero() {
    for (args, expect) in [
        (&["--help"][..], "Usage: engram"),
        (&["-h"], "Usage: engram"),
        (&["help"], "Usage: engram"),
        (&["perft", "--help"], "Usage: engram perft"),
        (&["help", "perft"], "Usage: engram perft"),
        (&["bench", "--help"], "Usage: engram bench"),
        (&["bench", "-h"], "Usage: engram bench"),
    ] {
        let out = engram(args);
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        assert!(stdout.contains(expect), "{args:?}: {stdout}");
    }
    let help = text(&engram(&["--help"]).stdout);
    for word in ["perft", "bench", "UCI"] {
        assert!(help.contains(word), "{word} missing from --help:\n{help}");
    }
    let bench_help = text(&engram(&["bench", "--help"]).stdout);
    for flag in ["--no-tt", "--threads", "--hash", "--private-tt"] {
        assert!(bench_help.contains(flag), "{flag}:\n{bench_help}");
    }
    for flag in ["--version", "-V"] {
        let out = engram(&[flag]);
        assert!(out.status.success());
        assert_eq!(
            text(&out.stdout),
            format!("Engram {}\n", env!("CARGO_PKG_VERSION"))
        );
    }
}
