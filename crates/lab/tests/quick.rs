//! Runs the built `engram-lab` binary: a quick run into a temporary folder must produce a
//! complete report with valid SVG images, and a quick run into `docs/` must be refused.

use engram_lab::studies::StudyId;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};

fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_engram-lab"))
        .args(args)
        .output()
        .expect("engram-lab runs")
}

/// A fresh, empty folder under the system's temp folder.
fn temp_dir(tag: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let dir = std::env::temp_dir().join(format!(
        "engram-lab-{tag}-{}-{nanos}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// The Markdown tables of a report (lines starting with `|`, outside fenced blocks), each as
/// its lines.
fn tables(md: &str) -> Vec<Vec<&str>> {
    let mut out = Vec::new();
    let mut current = Vec::new();
    let mut fenced = false;
    for line in md.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        if !fenced && line.starts_with('|') {
            current.push(line);
        } else if !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// The targets of the Markdown image links `![alt](target)`.
fn image_links(md: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = md;
    while let Some(i) = rest.find("![") {
        rest = &rest[i + 2..];
        let close = rest.find("](").expect("image link has a target");
        let end = rest[close..].find(')').expect("image link is closed") + close;
        out.push(&rest[close + 2..end]);
        rest = &rest[end..];
    }
    out
}

/// A simple well-formedness check of an SVG document: after an optional XML prolog it is
/// one `<svg>` element, and its tags nest properly.
fn check_svg(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut body = text.trim();
    if body.starts_with("<?xml") {
        body = body[body.find("?>").expect("prolog ends") + 2..].trim_start();
    }
    assert!(
        body.starts_with("<svg"),
        "{}: no <svg at the start",
        path.display()
    );
    assert!(
        body.ends_with("</svg>"),
        "{}: no </svg> at the end",
        path.display()
    );
    let mut stack: Vec<&str> = Vec::new();
    let mut rest = body;
    while let Some(start) = rest.find('<') {
        // The end of the tag: the first '>' outside quotes.
        let mut quote = None;
        let mut end = None;
        for (i, c) in rest[start..].char_indices() {
            match (quote, c) {
                (None, '"' | '\'') => quote = Some(c),
                (Some(q), c) if c == q => quote = None,
                (None, '>') => {
                    end = Some(start + i);
                    break;
                }
                _ => {}
            }
        }
        let end = end.unwrap_or_else(|| panic!("{}: unclosed tag", path.display()));
        let tag = &rest[start + 1..end];
        rest = &rest[end + 1..];
        if tag.starts_with('?') || tag.starts_with('!') || tag.ends_with('/') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            let open = stack.pop();
            assert_eq!(
                open,
                Some(name.trim()),
                "{}: tags do not nest",
                path.display()
            );
        } else {
            stack.push(tag.split_whitespace().next().expect("tag name"));
        }
    }
    assert!(stack.is_empty(), "{}: unclosed {stack:?}", path.display());
}

/// Checks a report file: headings, non-empty tables, existing valid images.
fn check_report(dir: &Path, report: &Path, studies: &[StudyId]) {
    let md = std::fs::read_to_string(report).unwrap();
    assert!(md.starts_with("# "), "the report has a title");
    for line in [
        "- Date: ",
        "- CPU: ",
        "- Commit: ",
        "- Bench: ",
        "- Command: ",
    ] {
        assert!(md.contains(line), "header line {line:?} missing");
    }
    for id in studies {
        let heading = format!("\n## {}\n", id.title());
        assert!(
            md.contains(&heading),
            "no section heading for {}",
            id.name()
        );
    }
    assert!(!md.contains("placeholder"), "every study is a real one");

    let tables = tables(&md);
    assert!(
        tables.len() > studies.len(),
        "each study and the intro have a table"
    );
    for t in &tables {
        assert!(t.len() >= 3, "a table without data rows:\n{}", t.join("\n"));
        assert!(
            t[1].contains("---"),
            "second line is the alignment row: {}",
            t[1]
        );
    }

    // Every study's section has at least one image.
    for (i, id) in studies.iter().enumerate() {
        let start = md.find(&format!("\n## {}\n", id.title())).unwrap();
        let end = studies
            .get(i + 1)
            .and_then(|next| md.find(&format!("\n## {}\n", next.title())))
            .unwrap_or(md.len());
        assert!(
            !image_links(&md[start..end]).is_empty(),
            "no image in the section of {}",
            id.name()
        );
    }
    let links = image_links(&md);
    assert!(links.len() >= studies.len(), "an image per study at least");
    for link in links {
        assert!(
            link.starts_with("img/tt-") && link.ends_with(".svg"),
            "{link}"
        );
        let file = dir.join(link);
        assert!(file.is_file(), "{link} does not exist");
        check_svg(&file);
    }
}

#[test]
fn quick_run_writes_a_complete_report() {
    let dir = temp_dir("all");
    let out = lab(&["all", "--quick", "--out", dir.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "exit {:?}\n{stderr}", out.status);

    let report = dir.join("tt-report.md");
    assert!(report.is_file(), "no report at {}", report.display());
    check_report(&dir, &report, &StudyId::ALL);
    let md = std::fs::read_to_string(&report).unwrap();
    assert!(md.contains("- Command: `engram-lab all --quick --out "));
    assert!(md.contains("quick run"));
    // No temporary files are left behind by the atomic writes.
    for d in [&dir, &dir.join("img")] {
        for entry in std::fs::read_dir(d).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            assert!(!name.contains(".tmp-"), "left over: {name}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_single_study_writes_its_own_report() {
    let dir = temp_dir("one");
    let out = lab(&["size", "--quick", "--out", dir.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !dir.join("tt-report.md").exists(),
        "the full report is not touched"
    );
    let report = dir.join("tt-report-size.md");
    check_report(&dir, &report, &[StudyId::Size]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn quick_run_into_docs_is_refused() {
    let docs = workspace_root().join("docs");
    let before = std::fs::read_dir(&docs).map(|d| d.count()).ok();
    for out_dir in [docs.clone(), docs.join("img"), docs.join("../docs")] {
        let out = lab(&["all", "--quick", "--out", out_dir.to_str().unwrap()]);
        assert!(!out.status.success(), "{} was accepted", out_dir.display());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("refusing") && stderr.contains("docs"),
            "unclear error: {stderr}"
        );
    }
    // Relative to the current folder, as a person would type it.
    let out = Command::new(env!("CARGO_BIN_EXE_engram-lab"))
        .args(["replacement", "--quick", "--out", "docs"])
        .current_dir(workspace_root())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert_eq!(
        std::fs::read_dir(&docs).map(|d| d.count()).ok(),
        before,
        "nothing was written into docs/"
    );
}
