//! The option table (`engram::options`) against what the real binary lists for `uci` and
//! against the README's options table.

use crate::common;

use common::Engine;
use engram::options::{self, Declaration, Kind};
use std::collections::HashMap;
use std::time::Duration;

const T: Duration = Duration::from_secs(10);

/// An `option name <id> type <t> [default <x>] [min <x>] [max <x>] [var <x>]*` line, taken
/// apart without the code that printed it: `(name, fields)`, `var` values in order.
fn parse_option_line(line: &str) -> (String, HashMap<&str, Vec<String>>) {
    let rest = line
        .strip_prefix("option name ")
        .unwrap_or_else(|| panic!("not an option line: {line}"));
    let (name, rest) = rest
        .split_once(" type ")
        .unwrap_or_else(|| panic!("no type: {line}"));
    let mut fields: HashMap<&str, Vec<String>> = HashMap::new();
    fields.insert("type", vec![String::new()]);
    let mut key = "type";
    for word in rest.split(' ') {
        if ["default", "min", "max", "var"].contains(&word) {
            key = word;
            fields.entry(key).or_default().push(String::new());
        } else {
            // A value runs (words joined by one space) up to the next keyword.
            let value = fields.get_mut(key).unwrap().last_mut().unwrap();
            if !value.is_empty() {
                value.push(' ');
            }
            value.push_str(word);
        }
    }
    (name.to_string(), fields)
}

fn field<'a>(fields: &'a HashMap<&str, Vec<String>>, key: &str) -> Option<&'a str> {
    match fields.get(key).map(Vec::as_slice) {
        None => None,
        Some([v]) => Some(v.as_str()),
        Some(other) => panic!("{key} given {} times: {other:?}", other.len()),
    }
}

fn expect_fields(decl: &Declaration, fields: &HashMap<&str, Vec<String>>) {
    let name = decl.name;
    let s = |v: &dyn ToString| Some(v.to_string());
    let (ty, default, min, max, vars): (_, _, _, _, Vec<String>) = match decl.kind {
        Kind::Spin { default, min, max } => ("spin", s(&default), s(&min), s(&max), vec![]),
        Kind::Check { default } => ("check", s(&default), None, None, vec![]),
        Kind::Combo { default, vars } => (
            "combo",
            s(&default),
            None,
            None,
            vars.iter().map(|v| v.to_string()).collect(),
        ),
        Kind::Button => ("button", None, None, None, vec![]),
        Kind::String { default } => {
            let default = if default.is_empty() {
                "<empty>"
            } else {
                default
            };
            ("string", s(&default), None, None, vec![])
        }
    };
    assert_eq!(field(fields, "type"), Some(ty), "{name}: type");
    assert_eq!(
        field(fields, "default").map(str::to_string),
        default,
        "{name}: default"
    );
    assert_eq!(field(fields, "min").map(str::to_string), min, "{name}: min");
    assert_eq!(field(fields, "max").map(str::to_string), max, "{name}: max");
    assert_eq!(
        fields.get("var").cloned().unwrap_or_default(),
        vars,
        "{name}: vars"
    );
}

#[test]
fn uci_lists_every_declared_option_once_and_nothing_else() {
    let mut e = Engine::start();
    e.send("uci");
    e.wait_for(T, |l| l == "uciok");
    let listed: Vec<(String, HashMap<&str, Vec<String>>)> = e
        .log
        .iter()
        .filter(|l| l.starts_with("option"))
        .map(|l| parse_option_line(l))
        .collect();
    let declared: Vec<&Declaration> = options::OPTIONS.iter().chain(options::extra()).collect();
    for decl in &declared {
        let found: Vec<_> = listed.iter().filter(|(n, _)| n == decl.name).collect();
        assert_eq!(found.len(), 1, "{} listed {} times", decl.name, found.len());
        expect_fields(decl, &found[0].1);
    }
    for (name, _) in &listed {
        assert!(
            declared.iter().any(|d| d.name == name.as_str()),
            "'{name}' is listed but not declared"
        );
    }
    assert_eq!(listed.len(), declared.len());
    // Every line between `id` and `uciok` is an option.
    let body: Vec<&String> = e
        .log
        .iter()
        .filter(|l| !l.starts_with("id ") && l.as_str() != "uciok")
        .collect();
    assert_eq!(body.len(), declared.len(), "{body:?}");
    e.quit();
}

#[test]
fn readme_options_table_is_generated_from_the_declarations() {
    const BEGIN: &str = "<!-- options:begin -->\n";
    const END: &str = "<!-- options:end -->";
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
    let readme = std::fs::read_to_string(path).expect("README.md is readable");
    let start = readme
        .find(BEGIN)
        .expect("README has <!-- options:begin -->")
        + BEGIN.len();
    let len = readme[start..]
        .find(END)
        .expect("README has <!-- options:end --> after the begin marker");
    let expected = options::markdown_table(options::OPTIONS);
    assert!(
        readme[start..start + len] == expected,
        "README.md's options table is out of date: replace the lines between \
         <!-- options:begin --> and <!-- options:end --> with exactly these:\n\n{expected}"
    );
}
