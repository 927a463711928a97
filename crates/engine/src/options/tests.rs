//! Unit tests of the option table, `setoption` parsing and the generated texts.

use super::*;
use crate::config::{policy, REPLACEMENT_VARS};

/// The option and value a line sets.
fn set(line: &str) -> Result<(&'static str, Value), OptionError> {
    named(parse_setoption(line, &[]))
}

fn named(s: Result<Setting, OptionError>) -> Result<(&'static str, Value), OptionError> {
    s.map(|s| (s.decl.name, s.value))
}

/// The default configuration after `lines`, and the last line's effect.
fn applied(lines: &[&str]) -> (EngineConfig, Effect) {
    let mut config = EngineConfig::default();
    let mut effect = Effect::None;
    for line in lines {
        effect = parse_setoption(line, &[])
            .unwrap()
            .apply(&mut config)
            .unwrap();
    }
    (config, effect)
}

#[test]
fn each_option_writes_its_field_of_the_configuration() {
    let (c, _) = applied(&[
        "setoption name Hash value 64",
        "setoption name Threads value 3",
        "setoption name MultiPV value 4",
        "setoption name Move Overhead value 70",
        "setoption name UCI_Chess960 value true",
        "setoption name Replacement value TwoTier",
        "setoption name Replacement Age value 3",
        "setoption name Hash File value /tmp/a b.hash",
        "setoption name Never Clear Hash value true",
        "setoption name ETC value true",
        "setoption name Use NNUE value false",
        "setoption name Ponder value true",
        "setoption name OwnBook value true",
        "setoption name UCI_ShowWDL value true",
        "setoption name Best Book Move value true",
    ]);
    assert_eq!(
        (c.hash, c.threads, c.multipv, c.move_overhead, c.chess960),
        (64, 3, 4, 70, true)
    );
    assert_eq!((c.replacement, c.replacement_age), ("TwoTier", 3));
    assert_eq!(c.hash_file, "/tmp/a b.hash");
    assert!(c.never_clear_hash && c.etc && !c.use_nnue);
    assert!(c.own_book && c.best_book_move && c.show_wdl);
    // Buttons leave the configuration alone and ask for an action.
    for (line, effect) in [
        ("setoption name Clear Hash", Effect::ClearHash),
        ("setoption name Save Hash to File", Effect::SaveHash),
        ("setoption name Load Hash from File", Effect::LoadHash),
    ] {
        let (c, e) = applied(&[line]);
        assert_eq!(e, effect);
        assert_eq!(c.hash, EngineConfig::default().hash);
    }
    // A network that cannot be loaded is an error that names the one that stays.
    let mut c = EngineConfig::default();
    let e = parse_setoption("setoption name EvalFile value /no/such.nnue", &[])
        .unwrap()
        .apply(&mut c)
        .unwrap_err();
    assert!(e.contains("the network stays <embedded>"), "{e}");
    assert_eq!(c.eval_file, "");
    // The embedded one loads by name.
    let (c, e) = applied(&["setoption name EvalFile value <empty>"]);
    assert_eq!((e, c.net_name()), (Effect::NetLoaded, "<embedded>"));
    // Likewise a book; `<empty>` unloads it.
    let mut c = EngineConfig::default();
    let e = parse_setoption("setoption name Book File value /no/such.bin", &[])
        .unwrap()
        .apply(&mut c)
        .unwrap_err();
    assert!(e.contains("no opening book is loaded"), "{e}");
    assert!(c.book.is_none() && c.book_file.is_empty());
    let (c, e) = applied(&["setoption name Book File value <empty>"]);
    assert_eq!((e, c.book.is_none()), (Effect::BookLoaded, true));
}

#[test]
fn declarations_are_consistent() {
    for (i, d) in OPTIONS.iter().enumerate() {
        assert!(!d.doc.is_empty() && !d.doc.contains('\n') && !d.doc.contains('|'));
        assert!(
            OPTIONS[..i]
                .iter()
                .all(|e| !e.name.eq_ignore_ascii_case(d.name)),
            "{} twice",
            d.name
        );
        match d.kind {
            Kind::Spin { default, min, max } => assert!(min <= default && default <= max),
            Kind::Combo { default, vars } => assert!(vars.contains(&default)),
            _ => {}
        }
    }
}

#[test]
fn valid_settings() {
    assert_eq!(
        set("setoption name Hash value 64"),
        Ok(("Hash", Value::Spin(64)))
    );
    assert_eq!(
        set("setoption name threads value 2"),
        Ok(("Threads", Value::Spin(2)))
    );
    assert_eq!(
        set("setoption name Clear Hash"),
        Ok(("Clear Hash", Value::Button))
    );
    assert_eq!(
        set("setoption name Hash File value /tmp/My  Analysis/game 1.hash"),
        Ok((
            "Hash File",
            Value::String("/tmp/My  Analysis/game 1.hash".into())
        ))
    );
    assert_eq!(
        set("setoption name hash file value <empty>"),
        Ok(("Hash File", Value::String(String::new())))
    );
    assert_eq!(
        set("setoption name Hash File"),
        Ok(("Hash File", Value::String(String::new())))
    );
    assert_eq!(
        set("setoption name Save Hash to File"),
        Ok(("Save Hash to File", Value::Button))
    );
    assert_eq!(
        set("setoption name load hash from file"),
        Ok(("Load Hash from File", Value::Button))
    );
    assert_eq!(
        set("setoption name Never Clear Hash value true"),
        Ok(("Never Clear Hash", Value::Check(true)))
    );
    assert_eq!(
        set("setoption name clear hash value ignored"),
        Ok(("Clear Hash", Value::Button))
    );
    assert_eq!(
        set("setoption name Ponder value TRUE"),
        Ok(("Ponder", Value::Check(true)))
    );
    assert_eq!(
        set("setoption name MultiPV value 256"),
        Ok(("MultiPV", Value::Spin(256)))
    );
    assert_eq!(
        set("SETOPTION NAME UCI_Chess960 VALUE false"),
        Ok(("UCI_Chess960", Value::Check(false)))
    );
    assert_eq!(
        set("setoption name replacement value twotier"),
        Ok(("Replacement", Value::Combo("TwoTier")))
    );
}

#[test]
fn multi_word_names_are_case_insensitive() {
    for line in [
        "setoption name move overhead value 50",
        "setoption name Move Overhead value 50",
        "setoption  name   MOVE\toverhead  value 50 ",
    ] {
        assert_eq!(set(line), Ok(("Move Overhead", Value::Spin(50))), "{line}");
    }
    assert_eq!(
        set("setoption name Move value 50"),
        Err(OptionError::Unknown {
            name: "Move".into()
        })
    );
}

#[test]
fn no_name_and_unknown_option() {
    for line in [
        "setoption",
        "setoption name",
        "setoption value 3",
        "setoption Hash",
    ] {
        assert_eq!(set(line), Err(OptionError::NoName), "{line}");
    }
    let e = set("setoption name NoSuchOption value 1").unwrap_err();
    assert_eq!(
        e,
        OptionError::Unknown {
            name: "NoSuchOption".into()
        }
    );
    assert_eq!(e.to_string(), "unknown option 'NoSuchOption'");
}

#[test]
fn missing_value() {
    for line in [
        "setoption name Hash",
        "setoption name hash value",
        "setoption name Ponder",
        "setoption name Replacement value ",
    ] {
        assert!(
            matches!(set(line), Err(OptionError::MissingValue { .. })),
            "{line}"
        );
    }
    assert_eq!(
        set("setoption name move overhead").unwrap_err().to_string(),
        "option 'Move Overhead' needs a value"
    );
}

#[test]
fn not_a_number() {
    let e = set("setoption name hash value lots").unwrap_err();
    assert_eq!(
        e,
        OptionError::NotANumber {
            name: "Hash",
            value: "lots".into(),
            min: 1,
            max: HASH_MAX as i64
        }
    );
    assert_eq!(
        e.to_string(),
        "option 'Hash': 'lots' is not a number (range 1..=1048576)"
    );
    for v in ["1.5", "", "-", "12a", "0x10"] {
        let line = format!("setoption name Threads value {v} x");
        assert!(
            matches!(set(&line), Err(OptionError::NotANumber { .. })),
            "{line}"
        );
    }
}

#[test]
fn out_of_range() {
    for (line, value) in [
        ("setoption name Hash value 0", "0"),
        ("setoption name Hash value 1048577", "1048577"),
        ("setoption name Threads value 5000", "5000"),
        (
            "setoption name MultiPV value 99999999999999999999999",
            "99999999999999999999999",
        ),
        ("setoption name Move Overhead value -1", "-1"),
    ] {
        match set(line) {
            Err(OptionError::OutOfRange { value: v, .. }) => assert_eq!(v, value),
            other => panic!("{line}: {other:?}"),
        }
    }
    assert_eq!(
        set("setoption name threads value 5000")
            .unwrap_err()
            .to_string(),
        format!("option 'Threads': 5000 is out of range 1..={THREADS_MAX}")
    );
    assert_eq!(
        set("setoption name Move Overhead value 5000"),
        Ok(("Move Overhead", Value::Spin(OVERHEAD_MAX as i64)))
    );
}

#[test]
fn bad_check_and_combo_values() {
    let e = set("setoption name Ponder value maybe").unwrap_err();
    assert_eq!(
        e,
        OptionError::BadCheck {
            name: "Ponder",
            value: "maybe".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "option 'Ponder': expected true or false, got 'maybe'"
    );
    let e = set("setoption name replacement value Eager").unwrap_err();
    assert!(
        matches!(
            e,
            OptionError::BadCombo {
                name: "Replacement",
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .starts_with("option 'Replacement': expected Buckets or TwoTier or "),
        "{e}"
    );
    // The thread design is not an option any more (issue 76): an old GUI setting is refused
    // with a message, not applied.
    assert!(set("setoption name SMP value Lazy").is_err());
}

#[test]
fn extra_options_are_listed_after_and_validated_the_same_way() {
    static EXTRA: &[Declaration] = &[Declaration {
        name: "Lmr Base",
        kind: Kind::Spin {
            default: 75,
            min: 0,
            max: 200,
        },
        doc: "a tunable",
        apply: |_, _, _| Ok(Effect::None),
    }];
    let lines = uci_lines(EXTRA);
    assert_eq!(lines.len(), OPTIONS.len() + 1);
    assert_eq!(
        lines.last().unwrap(),
        "option name Lmr Base type spin default 75 min 0 max 200"
    );
    assert_eq!(
        named(parse_setoption("setoption name lmr base value 80", EXTRA)),
        Ok(("Lmr Base", Value::Spin(80)))
    );
    assert!(matches!(
        parse_setoption("setoption name Lmr Base value 201", EXTRA),
        Err(OptionError::OutOfRange {
            name: "Lmr Base",
            ..
        })
    ));
    // The fixed table comes first.
    assert_eq!(
        named(parse_setoption("setoption name Hash value 2", EXTRA)),
        Ok(("Hash", Value::Spin(2)))
    );
}

#[test]
fn uci_lines_as_before() {
    assert_eq!(
        uci_lines(&[]),
        [
            "option name Hash type spin default 16 min 1 max 1048576",
            "option name Threads type spin default 1 min 1 max 1024",
            "option name Clear Hash type button",
            "option name Ponder type check default false",
            "option name MultiPV type spin default 1 min 1 max 256",
            "option name Move Overhead type spin default 10 min 0 max 5000",
            "option name UCI_Chess960 type check default false",
            "option name Replacement type combo default Buckets var Buckets var TwoTier \
             var DepthPreferred var AlwaysReplace var TwoBig1 var LineBuckets var MicroMax",
            "option name Replacement Age type spin default 8 min 0 max 32",
            "option name Hash File type string default <empty>",
            "option name Save Hash to File type button",
            "option name Load Hash from File type button",
            "option name Never Clear Hash type check default false",
            "option name ETC type check default false",
            "option name EvalFile type string default <empty>",
            "option name Use NNUE type check default true",
            "option name UCI_ShowWDL type check default false",
            "option name OwnBook type check default false",
            "option name Book File type string default <empty>",
            "option name Best Book Move type check default false",
            "option name Skill Level type spin default 20 min 0 max 20",
            "option name UCI_LimitStrength type check default false",
            "option name UCI_Elo type spin default 1500 min 1320 max 2647",
            "option name SyzygyPath type string default <empty>",
            "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
            "option name Syzygy50MoveRule type check default true",
            "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
        ]
    );
}

#[test]
fn replacement_names_every_policy_once() {
    use engram_tt::Policy;
    let policies: std::collections::HashSet<Policy> = REPLACEMENT_VARS
        .iter()
        .map(|name| policy(name, 8))
        .collect();
    assert_eq!(policies.len(), REPLACEMENT_VARS.len());
    assert_eq!(policy(REPLACEMENT_VARS[0], 8), Policy::default());
    assert_eq!(
        policy("LineBuckets", 3),
        Policy::LineBuckets { age_weight: 3 }
    );
    assert_eq!(
        set("setoption name Replacement value twobig1"),
        Ok(("Replacement", Value::Combo("TwoBig1")))
    );
    assert_eq!(
        set("setoption name Replacement Age value 0"),
        Ok(("Replacement Age", Value::Spin(0)))
    );
    assert!(parse_setoption("setoption name Replacement Age value 33", &[]).is_err());
    assert!(parse_setoption("setoption name Replacement value Newest", &[]).is_err());
}

#[test]
fn markdown_rows() {
    let table = markdown_table(OPTIONS);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), OPTIONS.len() + 2);
    assert_eq!(
        lines[2],
        "| `Hash` | spin 1..=1048576 | 16 | table size in MiB; any size, not only powers of two |"
    );
    assert!(lines.contains(&"| `Clear Hash` | button |  | empties the table |"));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("| `Replacement` | combo `Buckets` / `TwoTier` / ")));
    assert!(table.ends_with("|\n"));
}
