//! The shape of the source tree, checked (issue 77's rules, `docs/architecture.md`):
//!
//! * no circle among the engine's source files: file A imports from file B (`crate::…`,
//!   `super::…`, `self::…` paths outside comments and unit-test modules) and B, through any
//!   chain, from A;
//! * no file over 700 lines in `crates/engine/src` or `crates/tt/src`, test files aside;
//! * the search never prints: no `print!`/`println!` under `crates/engine/src/search/` (it
//!   reports through events; only the UCI loop and the subcommands write text).
//!
//! The import reader is deliberately plain (paths are matched as text and resolved to the
//! longest prefix that names a file), which is enough for this crate's `use` style: a path
//! that names an item resolves to the file that declares the module holding it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn crate_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(name)
        .join("src")
}

/// Every `.rs` file under `dir`, as paths relative to it with `/` separators.
fn rust_files(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(root).unwrap();
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

fn is_test_file(rel: &str) -> bool {
    rel.ends_with("tests.rs") || rel.contains("/tests/")
}

/// The code of a file without its unit-test module and without comment lines.
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap();
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module path of a file: `search/node.rs` → `[search, node]`, `search/mod.rs` →
/// `[search]`, `lib.rs` → `[]`.
fn module_path(rel: &str) -> Vec<String> {
    let stem = rel.trim_end_matches(".rs");
    let stem = stem.strip_suffix("/mod").unwrap_or(stem);
    if stem == "lib" || stem == "main" {
        return Vec::new();
    }
    stem.split('/').map(str::to_string).collect()
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths a piece of code names from `crate`, `super` or `self`, brace groups expanded
/// one level (`use super::{a, b::c}` gives `super::a` and `super::b::c`).
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let starts_word = i == 0 || !is_ident(bytes[i - 1]);
        let rest: String = bytes[i..bytes.len().min(i + 6)].iter().collect();
        let head = ["crate", "super", "self"]
            .into_iter()
            .find(|h| rest.starts_with(h) && bytes.get(i + h.len()) == Some(&':'));
        let Some(head) = head.filter(|_| starts_word) else {
            i += 1;
            continue;
        };
        // Read `head::a::b` and, if it ends in `::{…}`, the group.
        let mut j = i + head.len();
        let mut segments = vec![head.to_string()];
        let mut group = None;
        while j + 1 < bytes.len() && bytes[j] == ':' && bytes[j + 1] == ':' {
            j += 2;
            if bytes.get(j) == Some(&'{') {
                let end = bytes[j..].iter().position(|&c| c == '}').map(|p| j + p);
                let end = end.unwrap_or(bytes.len() - 1);
                group = Some(bytes[j + 1..end].iter().collect::<String>());
                j = end + 1;
                break;
            }
            let start = j;
            while j < bytes.len() && is_ident(bytes[j]) {
                j += 1;
            }
            if start == j {
                break;
            }
            segments.push(bytes[start..j].iter().collect());
        }
        match group {
            Some(items) => {
                for item in items.split(',') {
                    let item = item.split_whitespace().next().unwrap_or("");
                    if item.is_empty() || item == "self" {
                        out.push(segments.clone());
                        continue;
                    }
                    let mut path = segments.clone();
                    path.extend(item.split("::").map(str::to_string));
                    out.push(path);
                }
            }
            None => out.push(segments),
        }
        i = j.max(i + 1);
    }
    out
}

/// The file a path names: the longest prefix of it that is a module of this crate.
fn resolve(files: &BTreeSet<String>, path: &[String]) -> Option<String> {
    (1..=path.len()).rev().find_map(|k| {
        let stem = path[..k].join("/");
        [format!("{stem}.rs"), format!("{stem}/mod.rs")]
            .into_iter()
            .find(|f| files.contains(f))
    })
}

/// File → the files it imports from.
fn import_graph(dir: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let all: BTreeSet<String> = rust_files(dir).into_iter().collect();
    let mut graph = BTreeMap::new();
    for rel in all.iter().filter(|r| !is_test_file(r)) {
        let code = code_of(&std::fs::read_to_string(dir.join(rel)).unwrap());
        let here = module_path(rel);
        let mut edges = BTreeSet::new();
        for path in paths_in(&code) {
            let mut base = match path[0].as_str() {
                "crate" => Vec::new(),
                "super" => here[..here.len().saturating_sub(1)].to_vec(),
                _ => here.clone(),
            };
            let mut rest = &path[1..];
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
            base.extend(rest.iter().cloned());
            if let Some(target) = resolve(&all, &base) {
                if &target != rel && !is_test_file(&target) {
                    edges.insert(target);
                }
            }
        }
        graph.insert(rel.clone(), edges);
    }
    graph
}

/// One circle of the graph, if there is any (depth-first search, a back edge closes it).
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_string(), 1);
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            match state.get(next) {
                Some(1) => {
                    let at = stack.iter().position(|s| s == next).unwrap();
                    let mut cycle = stack[at..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(next, graph, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if !state.contains_key(node) {
            if let Some(c) = visit(node, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn engine_source_files_import_each_other_without_a_circle() {
    let graph = import_graph(&crate_dir("engine"));
    assert!(
        graph.len() > 40,
        "the reader found only {} files",
        graph.len()
    );
    // The reader sees the edges it must: node.rs imports the evaluation, the UCI loop the options.
    assert!(graph["search/node.rs"].contains("eval/mod.rs"));
    assert!(graph["uci/mod.rs"].contains("options/mod.rs"));
    if let Some(cycle) = find_cycle(&graph) {
        panic!("a circle among the engine's files: {}", cycle.join(" → "));
    }
}

#[test]
fn the_cycle_finder_finds_a_planted_circle() {
    let mut graph = BTreeMap::new();
    let edge = |a: &str, b: &str| (a.to_string(), BTreeSet::from([b.to_string()]));
    graph.extend([
        edge("a.rs", "b.rs"),
        edge("b.rs", "c.rs"),
        edge("c.rs", "a.rs"),
    ]);
    assert_eq!(find_cycle(&graph).unwrap().len(), 4);
    graph.insert("c.rs".into(), BTreeSet::new());
    assert_eq!(find_cycle(&graph), None);
    let paths = paths_in("use super::{a, b::c};\nlet x = crate::eval::f();");
    let expect: Vec<Vec<String>> = [
        &["super", "a"][..],
        &["super", "b", "c"],
        &["crate", "eval", "f"],
    ]
    .iter()
    .map(|p| p.iter().map(|s| s.to_string()).collect())
    .collect();
    assert_eq!(paths, expect);
}

#[test]
fn no_source_file_is_over_700_lines() {
    for krate in ["engine", "tt"] {
        let dir = crate_dir(krate);
        for rel in rust_files(&dir).iter().filter(|r| !is_test_file(r)) {
            let lines = std::fs::read_to_string(dir.join(rel))
                .unwrap()
                .lines()
                .count();
            assert!(
                lines <= 700,
                "crates/{krate}/src/{rel} has {lines} lines (limit 700)"
            );
        }
    }
}

#[test]
fn the_search_never_prints() {
    let dir = crate_dir("engine").join("search");
    for rel in rust_files(&dir) {
        let code = code_of(&std::fs::read_to_string(dir.join(&rel)).unwrap());
        for word in ["print!(", "println!(", "eprint!(", "eprintln!("] {
            assert!(!code.contains(word), "search/{rel} uses {word}…)");
        }
    }
}
