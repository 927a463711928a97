//! The report's last section: Engram's default replacement policy, and the self-play match
//! that confirmed it.
//!
//! A match of a thousand games takes hours, so `engram-lab` does not play it: it is played
//! with `../shared/tools/match.py` and recorded in `crates/lab/data/default-match.txt`, which
//! this module reads, checks and writes up next to the default the engine actually has
//! ([`engram_tt::Policy::default`]).

use crate::report::{format_int, Align, Section, Table};
use crate::runner::policy_name;
use anyhow::{bail, Context};
use engram_tt::Policy;

/// The recorded match, as committed.
pub const RECORD: &str = include_str!("../data/default-match.txt");

/// The section's heading.
pub const TITLE: &str = "Defaults";

/// One side of the match: its UCI `Replacement` and `Replacement Age` values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    /// The `Replacement` option's value, e.g. `AlwaysReplace`.
    pub replacement: String,
    /// The `Replacement Age` option's value.
    pub age: u8,
    /// The policy they select (`engram-tt`'s name for it, [`Policy::from_name`]).
    policy: Policy,
}

impl Side {
    /// The policy these option values select.
    pub fn policy(&self) -> Policy {
        self.policy
    }

    fn parse(text: &str) -> anyhow::Result<Side> {
        let (replacement, age) = text
            .split_once(',')
            .with_context(|| format!("`{text}`: expected `<Replacement>, <Replacement Age>`"))?;
        let (replacement, age) = (
            replacement.trim(),
            age.trim().parse().context("Replacement Age")?,
        );
        let policy = Policy::from_name(replacement, age).with_context(|| {
            format!(
                "`{replacement}`: not a replacement policy (one of {})",
                Policy::NAMES.join(", ")
            )
        })?;
        Ok(Side {
            replacement: replacement.to_string(),
            age,
            policy,
        })
    }
}

/// The match record: the settings, the result and the command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// `key: value` pairs in file order.
    pub fields: Vec<(String, String)>,
    /// The policy tested (the first engine, whose Elo is reported).
    pub tested: Side,
    /// The policy it played against.
    pub baseline: Side,
    /// Wins, draws and losses of the tested side.
    pub wdl: [u32; 3],
    /// How the SPRT ended: `H1` (the tested policy is better), `H0`, or `none`.
    pub sprt: String,
    /// The default chosen from the match and the lab's data.
    pub default: Side,
}

/// Keys a record must have, in the order the report shows them.
const KEYS: [&str; 14] = [
    "date",
    "commit",
    "machine",
    "tested",
    "baseline",
    "engine options",
    "time control",
    "openings",
    "adjudication",
    "sprt",
    "result",
    "elo",
    "forfeits",
    "duration",
];

impl Record {
    /// Parses a record: one `key: value` a line; `#` starts a comment line; the `command`
    /// key may come last and is shown as a code block.
    pub fn parse(text: &str) -> anyhow::Result<Record> {
        let mut fields = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line
                .split_once(':')
                .with_context(|| format!("line {}: expected `key: value`", n + 1))?;
            fields.push((key.trim().to_string(), value.trim().to_string()));
        }
        let get = |key: &str| -> anyhow::Result<&str> {
            fields
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
                .with_context(|| format!("missing key `{key}`"))
        };
        for key in KEYS.iter().chain(&[
            "wins", "draws", "losses", "outcome", "default", "why", "command",
        ]) {
            get(key)?;
        }
        let count = |key: &str| -> anyhow::Result<u32> {
            get(key)?.parse().with_context(|| format!("`{key}`"))
        };
        let wdl = [count("wins")?, count("draws")?, count("losses")?];
        let sprt = get("outcome")?.to_string();
        if !["H1", "H0", "none"].contains(&sprt.as_str()) {
            bail!("`outcome` must be H1, H0 or none, not `{sprt}`");
        }
        Ok(Record {
            tested: Side::parse(get("tested")?)?,
            baseline: Side::parse(get("baseline")?)?,
            default: Side::parse(get("default")?)?,
            wdl,
            sprt,
            fields,
        })
    }

    /// The value of `key`, or an empty string.
    pub fn get(&self, key: &str) -> &str {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map_or("", |(_, v)| v.as_str())
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.wdl.iter().sum()
    }

    /// The tested side's score, 0 to 1.
    pub fn score(&self) -> f64 {
        (f64::from(self.wdl[0]) + 0.5 * f64::from(self.wdl[1])) / f64::from(self.games().max(1))
    }

    /// Whether the chosen default agrees with the match: the tested policy may be the
    /// default only if the SPRT accepted it, and must be if it did.
    pub fn consistent(&self) -> bool {
        (self.sprt == "H1") == (self.default.policy() == self.tested.policy())
    }
}

/// The section: the match's settings and result, and the default the engine has.
pub fn section() -> anyhow::Result<Section> {
    let record = Record::parse(RECORD).context("crates/lab/data/default-match.txt")?;
    let default = Policy::default();
    let mut s = Section::new(TITLE);
    s.para(
        "**Question.** Which replacement policy should Engram use by default, and does a \
         match under hash pressure confirm what the node counts say?",
    );
    s.para(format!(
        "**Method.** The policy with the fewest nodes in the load range games reach (the \
         [replacement study](#replacement-policies), sequences, load 0.1–3) played the \
         runner-up in self-play, the same binary with different UCI options, at a tiny \
         table so that replacement matters. The match takes hours, so this report does not \
         replay it: it is recorded in `crates/lab/data/default-match.txt` and shown as \
         recorded. Tested: {} (`Replacement {}`, `Replacement Age {}`); baseline: {} \
         (`Replacement {}`, `Replacement Age {}`).",
        policy_name(record.tested.policy()),
        record.tested.replacement,
        record.tested.age,
        policy_name(record.baseline.policy()),
        record.baseline.replacement,
        record.baseline.age,
    ));
    let mut table = Table::new(&[("", Align::Left), ("", Align::Left)]);
    for key in KEYS {
        table.row([key.to_string(), record.get(key).to_string()]);
    }
    table.row([
        "games (W/D/L)".to_string(),
        format!(
            "{} ({}/{}/{}), score {:.1}%",
            format_int(u64::from(record.games())),
            record.wdl[0],
            record.wdl[1],
            record.wdl[2],
            100.0 * record.score()
        ),
    ]);
    s.table(table);
    s.pre(record.get("command"));
    let verdict = match record.sprt.as_str() {
        "H1" => format!(
            "The SPRT accepted H1: {} is stronger than {} under hash pressure.",
            policy_name(record.tested.policy()),
            policy_name(record.baseline.policy())
        ),
        "H0" => format!(
            "The SPRT accepted H0: {} is not stronger than {} under hash pressure.",
            policy_name(record.tested.policy()),
            policy_name(record.baseline.policy())
        ),
        _ => format!(
            "The SPRT reached no decision in {} games.",
            format_int(u64::from(record.games()))
        ),
    };
    let agrees = if default == record.default.policy() {
        String::new()
    } else {
        format!(
            " **The engine's default differs from the recorded choice ({}): the record is \
             out of date.**",
            policy_name(record.default.policy())
        )
    };
    s.para(format!(
        "**Result.** {verdict} Engram's default (`engram_tt::Policy::default()`, UCI \
         `Replacement {}`, `Replacement Age {}`) is {}. {}{agrees}",
        record.default.replacement,
        record.default.age,
        policy_name(default),
        record.get("why")
    ));
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_record_parses_and_is_consistent() {
        let r = Record::parse(RECORD).unwrap();
        assert!(r.games() > 0);
        assert_ne!(r.tested.policy(), r.baseline.policy());
        assert!(r.get("result").contains(&r.wdl[0].to_string()));
        assert!(r.consistent(), "the chosen default contradicts the SPRT");
        assert_eq!(
            r.default.policy(),
            Policy::default(),
            "the record names the engine's default"
        );
        section().unwrap();
    }

    #[test]
    fn a_record_with_a_missing_key_or_a_bad_value_is_refused() {
        let full = RECORD;
        let without_wins: String = full
            .lines()
            .filter(|l| !l.starts_with("wins:"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(Record::parse(&without_wins).is_err());
        let bad_outcome = full.replace("outcome: ", "outcome: maybe");
        assert!(Record::parse(&bad_outcome).is_err());
        let bad_policy = full.replace("baseline: Buckets,", "baseline: Newest,");
        assert_ne!(bad_policy, full);
        let err = Record::parse(&bad_policy).unwrap_err();
        assert!(format!("{err:#}").contains("`Newest`: not a replacement policy"));
        assert!(Record::parse("no colon here").is_err());
    }

    #[test]
    fn the_tested_side_is_the_default_exactly_when_the_sprt_accepted_it() {
        let mut r = Record::parse(RECORD).unwrap();
        r.sprt = "H1".into();
        r.default = r.tested.clone();
        assert!(r.consistent());
        r.sprt = "none".into();
        assert!(!r.consistent());
        r.default = r.baseline.clone();
        assert!(r.consistent());
    }
}
