//! The UCI options, declared once in [`OPTIONS`]: name, type, limits, one line of doc, and
//! the effect, a function that writes the value into the [`EngineConfig`] (as Stockfish's
//! `options.add(name, Option(..., on_change))`). From that table come the `option name ...`
//! lines of the `uci` command ([`uci_lines`]), the parsing and validation of `setoption`
//! ([`parse_setoption`], which gives a [`Setting`] to apply) and the README's options table
//! ([`markdown_table`]). The limits are public constants, shared with the command line
//! ([`crate::cli`]). Adding an option is one declaration here and the code that reads its
//! field of [`EngineConfig`].
//!
//! More options can be appended from another module: every function here also takes an
//! `extra` slice of declarations, listed after [`OPTIONS`] and validated the same way; see
//! [`extra`] for the hook.

use crate::config::EngineConfig;
use std::fmt;

/// Largest `Hash`, in MiB.
pub const HASH_MAX: usize = 1 << 20;
/// Largest `Threads`.
pub const THREADS_MAX: usize = crate::search::smp::MAX_THREADS;
/// Largest `MultiPV`.
pub const MULTIPV_MAX: usize = 256;
/// Largest `Move Overhead`, in milliseconds.
pub const OVERHEAD_MAX: u64 = 5_000;

/// One option: its UCI name, kind and limits, a one-line doc (the README's "meaning") and
/// its effect.
#[derive(Clone, Copy, Debug)]
pub struct Declaration {
    /// The name as `uci` lists it; `setoption` matches it case-insensitively.
    pub name: &'static str,
    /// Type, default and limits.
    pub kind: Kind,
    /// What it does, in one line.
    pub doc: &'static str,
    /// Writes a validated value into the configuration (and says what else the engine must
    /// do); an error leaves the engine as it was.
    pub apply: Apply,
}

/// An option's effect: the configuration to change, the option's declared name and the
/// validated value; returns what the engine must do beyond taking the new configuration.
pub type Apply = fn(&mut EngineConfig, &'static str, &Value) -> Result<Effect, String>;

/// What the engine does after an option changed its configuration, beyond taking it (a new
/// table size or thread count is seen by comparing the configurations).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing more.
    None,
    /// Empty the table (`Clear Hash`).
    ClearHash,
    /// Write the whole table to the `Hash File`.
    SaveHash,
    /// Merge the `Hash File` into the table.
    LoadHash,
    /// A network was loaded (`EvalFile`): say which.
    NetLoaded,
    /// An opening book was loaded (`Book File`): say what it holds.
    BookLoaded,
    /// Tablebases were loaded (`SyzygyPath`): say which.
    TablebasesLoaded,
}

/// An option's UCI type, with its default and limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An integer in `min..=max`.
    Spin {
        /// The value before any `setoption`.
        default: i64,
        /// Smallest value accepted.
        min: i64,
        /// Largest value accepted.
        max: i64,
    },
    /// `true` or `false`.
    Check {
        /// The value before any `setoption`.
        default: bool,
    },
    /// One of a fixed list of words.
    Combo {
        /// The value before any `setoption`; one of `vars`.
        default: &'static str,
        /// The words accepted (case-insensitively), as `uci` lists them.
        vars: &'static [&'static str],
    },
    /// An action without a value.
    Button,
    /// Free text (a path); the empty string is written `<empty>`.
    String {
        /// The value before any `setoption`.
        default: &'static str,
    },
}

/// A validated `setoption` value, typed by the option's [`Kind`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A spin's value, within its limits.
    Spin(i64),
    /// A check's value.
    Check(bool),
    /// A combo's value, spelled as declared.
    Combo(&'static str),
    /// A button was pressed.
    Button,
    /// A string's value (`<empty>` given as the empty string).
    String(String),
}

impl Value {
    /// A spin's value (0 for another kind: values are validated against their kind first).
    pub fn int(&self) -> i64 {
        match self {
            Value::Spin(n) => *n,
            _ => 0,
        }
    }

    /// A check's value (`false` for another kind).
    pub fn on(&self) -> bool {
        matches!(self, Value::Check(true))
    }

    /// A combo's word (`""` for another kind).
    pub fn word(&self) -> &'static str {
        match self {
            Value::Combo(w) => w,
            _ => "",
        }
    }

    /// A string's text (empty for another kind).
    pub fn text(&self) -> &str {
        match self {
            Value::String(s) => s,
            _ => "",
        }
    }
}

/// A valid `setoption`: the option and its validated value, ready to apply.
#[derive(Clone, Debug)]
pub struct Setting {
    /// The option.
    pub decl: &'static Declaration,
    /// Its value, validated against the declaration's kind.
    pub value: Value,
}

impl Setting {
    /// Writes the value into `config`; see [`Declaration::apply`].
    pub fn apply(&self, config: &mut EngineConfig) -> Result<Effect, String> {
        (self.decl.apply)(config, self.decl.name, &self.value)
    }
}

#[cfg(feature = "cluster")]
mod cluster;
mod declarations;
pub use declarations::OPTIONS;

/// Options declared outside [`OPTIONS`]: [`crate::uci`] passes this slice as `extra` to
/// [`uci_lines`] and [`parse_setoption`], so `uci` lists these options after the fixed ones
/// and `setoption` validates them the same way, falling back to them for names not in
/// [`OPTIONS`]. With the cargo feature `tune` these are the search's tunable parameters
/// (`search::params::PARAMS`, one spin option each); with `cluster`, the cluster's settings
/// (`options/cluster.rs`); without either there are none.
pub fn extra() -> &'static [Declaration] {
    static EXTRA: std::sync::OnceLock<Vec<Declaration>> = std::sync::OnceLock::new();
    EXTRA.get_or_init(|| {
        #[allow(unused_mut)]
        let mut extra: Vec<Declaration> = Vec::new();
        #[cfg(feature = "tune")]
        {
            use crate::search::params::PARAMS;
            extra.extend(PARAMS.iter().map(|p| Declaration {
                name: p.name,
                kind: Kind::Spin {
                    default: p.default.into(),
                    min: p.min.into(),
                    max: p.max.into(),
                },
                doc: p.doc,
                apply: |_, name, v| {
                    let v = i32::try_from(v.int()).map_err(|e| e.to_string())?;
                    crate::search::params::set(name, v)?;
                    Ok(Effect::None)
                },
            }));
        }
        #[cfg(feature = "cluster")]
        extra.extend(cluster::declarations());
        extra
    })
}

impl Declaration {
    /// The `option name ...` line `uci` prints for this option.
    pub fn uci_line(&self) -> String {
        let name = self.name;
        match self.kind {
            Kind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            Kind::Check { default } => format!("option name {name} type check default {default}"),
            Kind::Combo { default, vars } => {
                let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            Kind::Button => format!("option name {name} type button"),
            Kind::String { default } => {
                let default = if default.is_empty() {
                    "<empty>"
                } else {
                    default
                };
                format!("option name {name} type string default {default}")
            }
        }
    }

    /// Validates a `setoption` value for this option (`None`: no `value` given).
    pub fn parse_value(&self, value: Option<&str>) -> Result<Value, OptionError> {
        let name = self.name;
        match self.kind {
            Kind::Button => return Ok(Value::Button),
            Kind::String { .. } => {
                // A string may be empty: no value, or `<empty>`, as the UCI spec writes it.
                let text = value.unwrap_or("");
                let text = if text == "<empty>" { "" } else { text };
                return Ok(Value::String(text.to_string()));
            }
            _ => {}
        }
        let value = match value {
            Some(v) if !v.is_empty() => v,
            _ => return Err(OptionError::MissingValue { name }),
        };
        match self.kind {
            Kind::Spin { min, max, .. } => {
                let n: i64 = match value.parse() {
                    Ok(n) => n,
                    // Digits that overflow are a number, only out of range.
                    Err(_) if is_integer(value) => i64::MAX,
                    Err(_) => {
                        return Err(OptionError::NotANumber {
                            name,
                            value: value.to_string(),
                            min,
                            max,
                        })
                    }
                };
                if !(min..=max).contains(&n) {
                    return Err(OptionError::OutOfRange {
                        name,
                        value: value.to_string(),
                        min,
                        max,
                    });
                }
                Ok(Value::Spin(n))
            }
            Kind::Check { .. } => match value.to_ascii_lowercase().as_str() {
                "true" => Ok(Value::Check(true)),
                "false" => Ok(Value::Check(false)),
                _ => Err(OptionError::BadCheck {
                    name,
                    value: value.to_string(),
                }),
            },
            Kind::Combo { vars, .. } => vars
                .iter()
                .copied()
                .find(|v| v.eq_ignore_ascii_case(value))
                .map(Value::Combo)
                .ok_or_else(|| OptionError::BadCombo {
                    name,
                    value: value.to_string(),
                    vars,
                }),
            Kind::Button => Ok(Value::Button),
            Kind::String { .. } => Ok(Value::String(value.to_string())),
        }
    }

    /// The README's "type" cell: `spin 1..=256`, `check`, `combo `A` / `B``, `button`.
    fn type_text(&self) -> String {
        match self.kind {
            Kind::Spin { min, max, .. } => format!("spin {min}..={max}"),
            Kind::Check { .. } => "check".to_string(),
            Kind::Combo { vars, .. } => {
                let vars: Vec<String> = vars.iter().map(|v| format!("`{v}`")).collect();
                format!("combo {}", vars.join(" / "))
            }
            Kind::Button => "button".to_string(),
            Kind::String { .. } => "string".to_string(),
        }
    }

    /// The README's "default" cell (empty for a button).
    fn default_text(&self) -> String {
        match self.kind {
            Kind::Spin { default, .. } => default.to_string(),
            Kind::Check { default } => default.to_string(),
            Kind::Combo { default, .. } => default.to_string(),
            Kind::Button => String::new(),
            Kind::String { default: "" } => "(empty)".to_string(),
            Kind::String { default } => format!("`{default}`"),
        }
    }
}

/// Whether `s` is an optional sign followed by one or more ASCII digits.
fn is_integer(s: &str) -> bool {
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Why a `setoption` command was refused. Each message names the option as declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No `name <id>` after `setoption`.
    NoName,
    /// No option has this name.
    Unknown {
        /// The name as given.
        name: String,
    },
    /// A spin, check or combo without `value <v>`.
    MissingValue {
        /// The option.
        name: &'static str,
    },
    /// A spin's value is not an integer.
    NotANumber {
        /// The option.
        name: &'static str,
        /// The value as given.
        value: String,
        /// Smallest value accepted.
        min: i64,
        /// Largest value accepted.
        max: i64,
    },
    /// A spin's value is outside its limits.
    OutOfRange {
        /// The option.
        name: &'static str,
        /// The value as given.
        value: String,
        /// Smallest value accepted.
        min: i64,
        /// Largest value accepted.
        max: i64,
    },
    /// A check's value is neither `true` nor `false`.
    BadCheck {
        /// The option.
        name: &'static str,
        /// The value as given.
        value: String,
    },
    /// A combo's value is not one of its words.
    BadCombo {
        /// The option.
        name: &'static str,
        /// The value as given.
        value: String,
        /// The words accepted.
        vars: &'static [&'static str],
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::NoName => write!(f, "setoption needs 'name <id>'"),
            OptionError::Unknown { name } => write!(f, "unknown option '{name}'"),
            OptionError::MissingValue { name } => write!(f, "option '{name}' needs a value"),
            OptionError::NotANumber {
                name,
                value,
                min,
                max,
            } => write!(
                f,
                "option '{name}': '{value}' is not a number (range {min}..={max})"
            ),
            OptionError::OutOfRange {
                name,
                value,
                min,
                max,
            } => write!(f, "option '{name}': {value} is out of range {min}..={max}"),
            OptionError::BadCheck { name, value } => {
                write!(f, "option '{name}': expected true or false, got '{value}'")
            }
            OptionError::BadCombo { name, value, vars } => write!(
                f,
                "option '{name}': expected {}, got '{value}'",
                vars.join(" or ")
            ),
        }
    }
}

impl std::error::Error for OptionError {}

/// The `option name ...` lines of the `uci` command: [`OPTIONS`], then `extra`.
pub fn uci_lines(extra: &[Declaration]) -> Vec<String> {
    OPTIONS
        .iter()
        .chain(extra)
        .map(Declaration::uci_line)
        .collect()
}

/// The declaration named `name` (case-insensitively), in [`OPTIONS`] or else in `extra`.
pub fn find(name: &str, extra: &'static [Declaration]) -> Option<&'static Declaration> {
    OPTIONS
        .iter()
        .chain(extra)
        .find(|d| d.name.eq_ignore_ascii_case(name))
}

/// Parses and validates a `setoption name <id> [value <x>]` line (the leading `setoption`
/// may be left out). Names and values may
/// have several words (separated by any whitespace, compared as if by one space); the
/// keywords and names are case-insensitive. Names not in [`OPTIONS`] are looked up in `extra`
/// (see [`extra`]).
pub fn parse_setoption(line: &str, extra: &'static [Declaration]) -> Result<Setting, OptionError> {
    let mut tokens = line.split_whitespace().peekable();
    if tokens
        .peek()
        .is_some_and(|t| t.eq_ignore_ascii_case("setoption"))
    {
        tokens.next();
    }
    if !tokens
        .next()
        .is_some_and(|t| t.eq_ignore_ascii_case("name"))
    {
        return Err(OptionError::NoName);
    }
    let rest: Vec<&str> = tokens.collect();
    let value_at = rest.iter().position(|t| t.eq_ignore_ascii_case("value"));
    let (name, value) = match value_at {
        Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" "))),
        None => (rest.join(" "), None),
    };
    if name.is_empty() {
        return Err(OptionError::NoName);
    }
    let decl = find(&name, extra).ok_or(OptionError::Unknown { name })?;
    // A string (a path) keeps its text as typed, inner spaces included.
    let value = match (decl.kind, value_at) {
        (Kind::String { .. }, Some(_)) => Some(raw_value(line).to_string()),
        _ => value,
    };
    let value = decl.parse_value(value.as_deref())?;
    Ok(Setting { decl, value })
}

/// The text after the first `value` keyword of a `setoption` line, as typed (trimmed).
fn raw_value(line: &str) -> &str {
    let mut rest = line;
    while let Some(start) = rest.find(|c: char| !c.is_whitespace()) {
        rest = &rest[start..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..end];
        rest = &rest[end..];
        if word.eq_ignore_ascii_case("value") {
            return rest.trim();
        }
    }
    ""
}

/// The README's options table in Markdown (header, separator, one row per declaration, each
/// line ending in a newline): option, type, default, meaning.
pub fn markdown_table(options: &[Declaration]) -> String {
    let mut out = String::from("| option | type | default | meaning |\n|---|---|---|---|\n");
    for d in options {
        out += &format!(
            "| `{}` | {} | {} | {} |\n",
            d.name,
            d.type_text(),
            d.default_text(),
            d.doc
        );
    }
    out
}

#[cfg(test)]
mod tests;
